//! Questions asked of syntax trees in every language: ancestors, chains of
//! calls and their callees, checking conditions, syntax errors, operands
//! that compute the same value again.

use super::*;

/// The 1-based line of the first syntax error (a node tree-sitter made up
/// or could not place) inside `node`.
pub(crate) fn first_syntax_error(node: &Node) -> Option<u32> {
    let mut at = *node;
    'down: loop {
        if at.is_error() || at.is_missing() {
            return Some(Span::of(&at).line);
        }
        if !at.has_error() {
            return None;
        }
        let mut cursor = at.walk();
        for child in at.children(&mut cursor) {
            if child.has_error() {
                at = child;
                continue 'down;
            }
        }
        return Some(Span::of(&at).line);
    }
}

/// Visit every named node under `node` (itself included) in document order,
/// with one tree cursor and no allocation. `visit` returns false to skip the
/// node's subtree.
pub(crate) fn visit_named<'a>(node: Node<'a>, mut visit: impl FnMut(Node<'a>) -> bool) {
    let mut cursor = node.walk();
    let root = node.id();
    loop {
        let current = cursor.node();
        let descend = !current.is_named() || visit(current);
        if descend && cursor.goto_first_child() {
            continue;
        }
        loop {
            if cursor.node().id() == root {
                return;
            }
            if cursor.goto_next_sibling() {
                break;
            }
            if !cursor.goto_parent() {
                return;
            }
        }
    }
}

/// A call chain as a key: names joined by `.`, each call or `new` as `()`,
/// arguments, `await` and parentheses dropped: `new Calculator(1).add` ->
/// `Calculator().add`. `None` for anything else (literals, subscripts).
pub(crate) fn chain(node: &Node, source: &[u8]) -> Option<String> {
    match node.kind() {
        "identifier" | "this" | "property_identifier" | "private_property_identifier" | "self" | "field_identifier" => {
            Some(text(node, source).into_owned())
        }
        // Rust `a.b`, Go `a.b`.
        "field_expression" => Some(format!(
            "{}.{}",
            chain(&node.field("value")?, source)?,
            text(&node.field("field")?, source)
        )),
        "selector_expression" => Some(format!(
            "{}.{}",
            chain(&node.field("operand")?, source)?,
            text(&node.field("field")?, source)
        )),
        // Rust `Cart::new`, `crate::billing::total`.
        "scoped_identifier" => Some(callee_key(&text(node, source))),
        "reference_expression" => chain(&node.field("value")?, source),
        "try_expression" => chain(&first_child(node)?, source),
        "attribute" | "member_expression" => {
            let object = node.field("object")?;
            let member = node.field("attribute").or_else(|| node.field("property"))?;
            Some(format!("{}.{}", chain(&object, source)?, text(&member, source)))
        }
        "call" | "call_expression" => Some(format!("{}()", chain(&node.field("function")?, source)?)),
        "new_expression" => Some(format!("{}()", chain(&node.field("constructor")?, source)?)),
        "await"
        | "await_expression"
        | "parenthesized_expression"
        | "non_null_expression"
        | "as_expression"
        | "satisfies_expression" => chain(&first_child(node)?, source),
        _ => None,
    }
}

/// Wrappers whose argument is still the value checked (`len(result)`, `String(x)`).
pub(super) const TRANSPARENT_CALLS: &[&str] = &[
    "len",
    "list",
    "sorted",
    "set",
    "tuple",
    "dict",
    "str",
    "int",
    "float",
    "bool",
    "repr",
    "isinstance",
    "String",
    "Number",
    "Boolean",
    "Array.from",
    "Object.keys",
    "Object.values",
    "Object.entries",
    "JSON.stringify",
];

/// The values `node` checks, as [`chain`] keys: the operands themselves
/// (through comparisons, `not`, `await` and wrappers like `len()`), never
/// what is passed into a call. `expect(total(cart))` checks `total()`, not `cart`.
pub(crate) fn values(node: &Node, source: &[u8], comment: &str) -> Vec<String> {
    let mut out = Vec::new();
    visit_named(*node, |n| match n.kind() {
        k if k == comment => false,
        "call" | "call_expression" | "new_expression" => {
            let key = chain(&n, source);
            let transparent = key
                .as_deref()
                .and_then(|k| k.strip_suffix("()"))
                .is_some_and(|callee| TRANSPARENT_CALLS.contains(&callee));
            if transparent {
                return true;
            }
            out.extend(key);
            false
        }
        "identifier"
        | "attribute"
        | "member_expression"
        | "field_expression"
        | "selector_expression"
        | "scoped_identifier" => {
            out.extend(chain(&n, source));
            false
        }
        // The callee of a transparent wrapper is not a value.
        "lambda"
        | "arrow_function"
        | "function_expression"
        | "string"
        | "template_string"
        | "closure_expression"
        | "func_literal"
        | "string_literal"
        | "raw_string_literal"
        | "interpreted_string_literal" => false,
        _ => true,
    });
    out.retain(|v| !TRANSPARENT_CALLS.contains(&v.as_str()));
    out.sort();
    out.dedup();
    out
}

/// The expression inside parentheses and TypeScript's type-only wrappers
/// (`(x)`, `x as T`, `x!`, `x satisfies T`).
pub(crate) fn unwrap(mut node: Node) -> Node {
    while matches!(
        node.kind(),
        "parenthesized_expression" | "as_expression" | "non_null_expression" | "satisfies_expression"
    ) {
        match first_child(&node) {
            Some(inner) => node = inner,
            None => break,
        }
    }
    node
}

/// Is an ancestor of `node` of one of `kinds`, nearer than any of `stop`
/// (the function the node is in, for a question about its own body)?
pub(crate) fn has_ancestor(node: &Node, kinds: &[&str], stop: &[&str]) -> bool {
    let mut at = node.parent();
    while let Some(p) = at {
        if kinds.contains(&p.kind()) {
            return true;
        }
        if stop.contains(&p.kind()) {
            return false;
        }
        at = p.parent();
    }
    false
}

/// The condition and the guard of the `if` whose consequence holds
/// `statement` directly (`if c: pytest.fail()`, `if (c) throw e`, `if c {
/// t.Fatal() }`), from the guards a walk recorded for the `ifs` it visited:
/// an explicit failure there makes the condition the check
/// ([`Form::FailUnless`]), guarded as the `if` is.
pub(crate) fn checking_condition<'a>(statement: &Node<'a>, ifs: &[(usize, Guard)]) -> Option<(Node<'a>, Guard)> {
    let checking_if = checking_if(statement)?;
    let condition = checking_if.field("condition")?;
    let &(_, guard) = ifs.iter().rev().find(|(id, _)| *id == checking_if.id())?;
    Some((condition, guard))
}

pub(crate) fn checking_if<'a>(statement: &Node<'a>) -> Option<Node<'a>> {
    let mut up = statement.parent()?;
    // Go's grammar may wrap a block's statements in a `statement_list`.
    if up.kind() == "statement_list" {
        up = up.parent()?;
    }
    let consequence = if matches!(up.kind(), "block" | "statement_block") {
        up
    } else {
        *statement
    };
    let parent = consequence.parent()?;
    (parent.kind() == "if_statement" && parent.field("consequence")?.id() == consequence.id()).then_some(parent)
}

/// The first named child that is not a comment.
pub(crate) fn first_child<'a>(node: &Node<'a>) -> Option<Node<'a>> {
    let mut cursor = node.walk();
    node.named_children(&mut cursor).find(|c| c.kind() != "comment")
}

/// A test whose body's first statement is a bare `return` with statements
/// after it runs none of them: it is skipped, as `t.Skip()` would skip it
/// (fsnotify's `TestRemoveState`, turned off by a `return` under a TODO).
/// Go's, Python's and JavaScript's test bodies; a `return` under a
/// condition, or one with a value, is no skip.
pub(crate) fn returns_first(body: &Node) -> Option<Skip> {
    // Go wraps a block's statements in a `statement_list`.
    let body = match first_child(body) {
        Some(list) if list.kind() == "statement_list" => list,
        _ => *body,
    };
    let mut cursor = body.walk();
    let mut statements = body
        .named_children(&mut cursor)
        .filter(|c| !matches!(c.kind(), "comment" | "line_comment" | "block_comment"));
    let first = statements.next()?;
    let bare = first.kind() == "return_statement" && first.named_child_count() == 0;
    (bare && statements.next().is_some()).then(|| Skip {
        span: Span::of(&first),
        reason: Some("returns before anything it checks".to_string()),
        conditional: false,
    })
}

/// Does the subtree of `node` hold a node of `kind`, not looking inside
/// nested functions (`functions`)?
pub(crate) fn contains_kind(node: &Node, kind: &str, functions: &[&str]) -> bool {
    holds(
        node,
        |n| n.kind() == kind,
        |n| !(functions.contains(&n.kind()) && n.id() != node.id()),
    )
}

/// Does the subtree of `node` hold a node that is `wanted`, looking inside
/// only the nodes `enter` accepts?
pub(crate) fn holds(node: &Node, wanted: impl Fn(&Node) -> bool, enter: impl Fn(&Node) -> bool) -> bool {
    let mut found = false;
    visit_named(*node, |n| {
        if found || wanted(&n) {
            found = true;
            return false;
        }
        enter(&n)
    });
    found
}

/// Add the text of identifier `node` to `names`, allocating only for a new name.
pub(crate) fn note_name(node: &Node, source: &[u8], names: &mut std::collections::BTreeSet<String>) {
    let name = text(node, source);
    if !names.contains(name.as_ref()) {
        names.insert(name.into_owned());
    }
}

/// Keep, in each test's [`TestCase::uses`], only the names an import binds.
pub(crate) fn keep_imported_uses(file: &mut TestFile) {
    let imported: std::collections::HashSet<&str> = file
        .imports
        .iter()
        .flat_map(|i| i.names.iter().map(String::as_str))
        .collect();
    for test in &mut file.tests {
        test.uses.retain(|n| imported.contains(n.as_str()));
    }
}

/// The node kinds [`recomputed`] reads in one grammar.
pub(crate) struct Recomputed {
    /// What an operand may be: a call, a read or a subscript (`f(1)`,
    /// `a.b[0]`), not an operator, which the code under test may overload
    /// to build a new object (`A / (1 + A)` in SymPy).
    pub reads: &'static [&'static str],
    /// A call, whose callee is in the field `function`.
    pub call: &'static str,
    /// Kinds that make a new value or run code of their own each time
    /// (`await`, `new`, closures, assignments, macros): two evaluations of
    /// an operand with one may differ.
    pub fresh: &'static [&'static str],
    /// Does a callee, as written, build a new object (`Decimal("1")`,
    /// `Some(x)`, `Array.zeros(2)`)? By its capitals in Python, JavaScript
    /// and Rust; not in Go, where a capital exports a name.
    pub constructs: fn(&str) -> bool,
}

/// The segments of a callee path (`a.b`, `A::b`, `f::<T>` -> `a`, `b`;
/// `A`, `b`; `f`).
pub fn callee_segments(callee: &str) -> impl Iterator<Item = &str> {
    callee
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|s| !s.is_empty())
}

fn capitalized(segment: &str) -> bool {
    segment.starts_with(|c: char| c.is_uppercase())
}

/// A class called (`Decimal(..)`, `Some(..)`), or one of its methods, as
/// an alternative constructor (`ImmutableSparseNDimArray.zeros(..)`,
/// `Value::from(..)`): a capital anywhere in the path.
pub(crate) fn class_path(callee: &str) -> bool {
    callee_segments(callee).any(capitalized)
}

/// A class called (`Foo(..)`, `Symbol(..)`), not a namespace's function
/// (`Object.keys(..)`, `JSON.stringify(..)`): a capital in the last name.
pub(crate) fn class_called(callee: &str) -> bool {
    callee_segments(callee).last().is_some_and(capitalized)
}

/// [`Operand::recomputed`] of `node`: the callees of its calls when it has
/// none of `kinds.fresh` and no constructor call.
pub(crate) fn recomputed(node: &Node, source: &[u8], kinds: &Recomputed) -> Option<Vec<String>> {
    if !kinds.reads.contains(&node.kind()) {
        return None;
    }
    let mut callees = Vec::new();
    let mut fresh = false;
    visit_named(*node, |n| {
        if kinds.fresh.contains(&n.kind()) {
            fresh = true;
        } else if n.kind() == kinds.call
            && let Some(f) = n.field("function")
        {
            let callee = without_type_arguments(&callee_key(&text(&f, source)));
            fresh |= (kinds.constructs)(&callee);
            callees.push(callee);
        }
        !fresh
    });
    (!fresh).then_some(callees)
}

/// `parse::<u8>` -> `parse`, `Vec::<u8>::new` -> `Vec::new`.
fn without_type_arguments(callee: &str) -> String {
    let mut out = String::new();
    let mut depth = 0usize;
    for c in callee.chars() {
        match c {
            '<' => depth += 1,
            '>' if depth > 0 => depth -= 1,
            _ if depth == 0 => out.push(c),
            _ => {}
        }
    }
    out.replace("::::", "::").trim_end_matches(':').to_string()
}
