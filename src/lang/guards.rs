//! Which checks a test leaves unchecked, and the guards (conditions,
//! short circuits) an assertion sits under, for every language.

use super::*;

/// The node kinds [`unchecked`] reads in one grammar.
pub(crate) struct UncheckedKinds {
    /// `result = call()`: the binding node, and the fields of its name and value.
    pub binding: (&'static str, &'static str, &'static str),
    /// Values that compute something (`call`, `await`, `new`).
    pub computed: &'static [&'static str],
    /// A call, whose callee is in the field `function`.
    pub call: &'static str,
    /// A macro call, whose name is in the field `macro` (Rust's `println!`);
    /// empty where the language has none.
    pub macro_call: &'static str,
    /// Names that can be read.
    pub identifiers: &'static [&'static str],
    /// Anything that can raise: calls, attribute and item access.
    pub effects: &'static [&'static str],
    /// Nested functions and classes: names bound in them are not the test's.
    pub scopes: &'static [&'static str],
}

/// Reads `body` of a test with the names bound in it (`occurrences`); `prints`
/// says whether a callee, as written, prints or logs.
pub(crate) fn unchecked(
    body: &Node,
    source: &[u8],
    occurrences: &[(String, Bound)],
    kinds: &UncheckedKinds,
    prints: impl Fn(&str) -> bool,
) -> Unchecked {
    let (binding, name_field, value_field) = kinds.binding;
    let once: std::collections::HashSet<&str> = bound_once(occurrences).map(|(n, _)| n.as_str()).collect();
    // Each candidate with the number of times its name occurs, the binding included.
    let mut candidates: Vec<(String, usize)> = Vec::new();
    visit_named(*body, |n| {
        if n.kind() == binding
            && let (Some(name), Some(value)) = (n.field(name_field), n.field(value_field))
            && kinds.identifiers.contains(&name.kind())
            && kinds.computed.contains(&unwrap(value).kind())
        {
            let name = text(&name, source);
            if !name.starts_with('_') && once.contains(name.as_ref()) {
                candidates.push((name.into_owned(), 0));
            }
        }
        n == *body || !kinds.scopes.contains(&n.kind())
    });
    let mut out = Unchecked::default();
    let mut effects = false;
    // The name nodes of keyword arguments, met before their children.
    let mut keyword_names: Vec<usize> = Vec::new();
    visit_named(*body, |n| {
        let kind = n.kind();
        if kind == "keyword_argument"
            && let Some(name) = n.field("name")
        {
            keyword_names.push(name.id());
        }
        // A class with bases or a metaclass runs code when it is defined.
        effects |= kind == "class_definition" && n.field("superclasses").is_some();
        if kind == kinds.call
            && n.field("function")
                .is_some_and(|f| prints(&callee_key(&text(&f, source))))
        {
            // What only goes into a print is shown, not checked; a print in a
            // method of a class the test defines is that class's behaviour.
            out.prints |=
                !in_named_definition(&n, body) && n.field("arguments").is_some_and(|a| shows_value(a, source));
            return false;
        }
        if kind == kinds.macro_call && n.field("macro").is_some_and(|m| prints(&callee_key(&text(&m, source)))) {
            let mut cursor = n.walk();
            let arguments = n.children(&mut cursor).find(|c| c.kind() == "token_tree");
            out.prints |= arguments.is_some_and(|a| shows_value(a, source));
            return false;
        }
        effects |= kinds.effects.contains(&kind);
        // `f(result=1)` names a parameter; it does not read `result`.
        if kinds.identifiers.contains(&kind)
            && !keyword_names.contains(&n.id())
            && let Some(c) = candidates
                .iter_mut()
                .find(|(name, _)| text(&n, source) == name.as_str())
        {
            c.1 += 1;
        }
        true
    });
    out.results = candidates
        .into_iter()
        .filter(|(_, n)| *n <= 1)
        .map(|(name, _)| name)
        .collect();
    out.inert = !effects && !out.prints;
    out
}

/// Does a print handed `arguments` show a value: a name, a call, an
/// interpolation (`f"{x}"`, `${x}`, the `{x}` a Rust format string captures),
/// not only fixed text (`println!("lock upgrade")` in a test that passes when
/// nothing panics shows nothing)?
pub(crate) fn shows_value(arguments: Node, source: &[u8]) -> bool {
    let mut shown = false;
    visit_named(arguments, |n| {
        if shown || n.named_child_count() > 0 {
            return !shown;
        }
        let kind = n.kind();
        let fixed = kind.contains("string")
            || kind.contains("literal")
            || kind.contains("escape")
            || matches!(
                kind,
                "number" | "integer" | "float" | "true" | "false" | "none" | "null" | "undefined" | "nil"
            );
        // A Rust format string captures the names it spells in braces.
        let captures = || {
            let text = text(&n, source);
            text.match_indices('{').any(|(at, _)| {
                text[at + 1..]
                    .chars()
                    .next()
                    .is_some_and(|c| c.is_alphabetic() || c == '_')
                    && !text[..at].ends_with('{')
            })
        };
        shown = !fixed || arguments.kind() == "token_tree" && captures();
        !shown
    });
    shown
}

/// Is `node` inside a function or method the test body defines by name
/// (not a lambda or an arrow function, which the test may call inline)?
pub(super) fn in_named_definition(node: &Node, body: &Node) -> bool {
    let mut at = node.parent();
    while let Some(p) = at {
        if p.id() == body.id() {
            return false;
        }
        if matches!(
            p.kind(),
            "function_definition" | "function_declaration" | "method_definition" | "function_item"
        ) {
            return true;
        }
        at = p.parent();
    }
    false
}

/// The guards of `children` under a parent guarded by `guard`: `guard` for
/// each child `always` accepts (it runs whenever its parent does), `guard`
/// made conditional for the others.
pub(crate) fn guards_where(children: &[Node], guard: Guard, always: impl Fn(&Node) -> bool) -> Vec<Guard> {
    let conditional = Guard {
        conditional: true,
        ..guard
    };
    children
        .iter()
        .map(|c| if always(c) { guard } else { conditional })
        .collect()
}

/// The guards of the children of a Rust or Go `binary_expression`: the right
/// side of `&&` and `||` may not run.
pub(crate) fn short_circuit_guards(node: &Node, children: &[Node], guard: Guard, source: &[u8]) -> Vec<Guard> {
    let short = node
        .field("operator")
        .is_some_and(|o| matches!(text(&o, source).as_ref(), "&&" | "||"));
    let right = node.field("right").map(|r| r.id());
    guards_where(children, guard, |c| !(short && Some(c.id()) == right))
}

/// The major Python version a condition asks for, when it asks only that:
/// `PY2`, `six.PY2`, `sys.version_info[0] == 2`, `sys.version_info < (3,)`
/// are 2; `PY3`, `not PY2`, `sys.version_info >= (3,)` are 3 (not `<
/// (3, 8)`, a Python 3 too).
pub(crate) fn python_major(condition: &str) -> Option<u8> {
    let condition = condition.trim();
    let (negated, asked) = match condition.strip_prefix("not ") {
        Some(rest) => (true, rest),
        None => (false, condition),
    };
    let c: String = asked.split_whitespace().collect();
    let flag = |v: &str| c == format!("PY{v}") || c.ends_with(&format!(".PY{v}"));
    let info = ["sys.version_info[0]", "sys.version_info.major"];
    let equals = |v: &str| info.iter().any(|i| c == format!("{i}=={v}"));
    let below3 = [
        "sys.version_info<(3,)",
        "sys.version_info<(3,0)",
        "sys.version_info[0]<3",
    ];
    let from3 = [
        "sys.version_info>=(3,)",
        "sys.version_info>=(3,0)",
        "sys.version_info[0]>=3",
    ];
    let major = if flag("2") || equals("2") || below3.contains(&c.as_str()) {
        2
    } else if flag("3") || equals("3") || from3.contains(&c.as_str()) {
        3
    } else {
        return None;
    };
    Some(if negated { 5 - major } else { major })
}

/// Mark as [`Guard::legacy`] the branch of a Python `if_statement` only
/// Python 2 takes: its body under a Python 2 check, its `else` under a
/// Python 3 one ([`python_major`]).
pub(crate) fn python2_branch(node: &Node, children: &[Node], guards: &mut [Guard], source: &[u8]) {
    let Some(condition) = node.child_by_field_name("condition") else {
        return;
    };
    let major = python_major(&String::from_utf8_lossy(&source[condition.byte_range()]));
    let body = node.child_by_field_name("consequence").map(|c| c.id());
    for (g, c) in guards.iter_mut().zip(children) {
        g.legacy |= match major {
            Some(2) => Some(c.id()) == body,
            Some(3) => c.kind() == "else_clause",
            _ => false,
        };
    }
}
