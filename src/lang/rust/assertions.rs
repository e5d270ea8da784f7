//! Assertions in Rust test bodies: `assert!` and its family, macros that
//! wrap them, `unwrap`s and `?` that fail a test, the guards around them.

use super::*;

thread_local! {
    static ARGS_PARSER: RefCell<Option<Parser>> = const { RefCell::new(None) };
}

/// `macro_rules!` definitions, read as helpers: one whose rules invoke an
/// assertion macro (or `panic!`) asserts, and a test that invokes it does.
pub(super) fn macro_helpers(root: &Node, source: &[u8]) -> Vec<Body> {
    let mut out = Vec::new();
    visit_named(*root, |n| {
        if n.kind() == "macro_definition"
            && let Some(name) = n.field("name")
        {
            let mut scan = Scan::new(source, Vec::new());
            let mut cursor = n.walk();
            for rule in n.named_children(&mut cursor).filter(|c| c.kind() == "macro_rule") {
                if let Some(right) = rule.field("right") {
                    scan.tokens(&right, source);
                }
            }
            let macros = std::mem::take(&mut scan.macros);
            let asserts =
                !scan.assertions.is_empty() || macros.iter().any(|m| matches!(m.as_str(), "panic" | "unreachable"));
            let mut calls = scan.calls;
            calls.extend(macros);
            out.push((text(&name, source).into_owned(), asserts, calls));
        }
        n.kind() != "token_tree"
    });
    out
}

pub(super) fn is_assertion_macro(name: &str) -> bool {
    name.starts_with("assert") || name.starts_with("debug_assert") || name.starts_with("prop_assert")
}

/// Is `method` one that panics when its receiver holds an error or nothing?
pub(super) fn is_unwrap(method: &str) -> bool {
    matches!(
        method,
        "unwrap" | "expect" | "unwrap_err" | "expect_err" | "unwrap_or_else" | "unwrap_none"
    )
}

/// Does `body` unwrap a value or propagate an error with `?`?
pub(super) fn unwraps(body: &Node, source: &[u8]) -> bool {
    let mut found = false;
    visit_named(*body, |n| {
        found |= n.kind() == "try_expression"
            || (n.kind() == "field_identifier" && is_unwrap(&text(&n, source)))
            || (n.kind() == "token_tree" && {
                let mut c = n.walk();
                n.children(&mut c)
                    .any(|t| t.kind() == "identifier" && is_unwrap(&text(&t, source)))
            });
        !found
    });
    found
}

/// Does `body` declare items or lint attributes: a test of what compiles?
pub(super) fn declares_items(body: &Node) -> bool {
    let mut cursor = body.walk();
    body.named_children(&mut cursor).any(|c| {
        matches!(
            c.kind(),
            "struct_item" | "enum_item" | "impl_item" | "trait_item" | "union_item" | "inner_attribute_item"
        )
    })
}

/// The names `let` binds in `body` that are bound to an `unwrap()`,
/// `expect(..)` or `?`: the test checks that value succeeded.
pub(super) fn checked_bindings(body: &Node, source: &[u8]) -> Vec<String> {
    let mut out = Vec::new();
    visit_named(*body, |n| {
        if n.kind() == "let_declaration"
            && let (Some(pattern), Some(value)) = (n.field("pattern"), n.field("value"))
        {
            let checks = value.kind() == "try_expression"
                || (value.kind() == "call_expression"
                    && value.field("function").is_some_and(|f| {
                        f.kind() == "field_expression"
                            && f.field("field").is_some_and(|m| {
                                matches!(
                                    text(&m, source).as_ref(),
                                    "unwrap" | "expect" | "unwrap_err" | "expect_err" | "unwrap_or_else"
                                )
                            })
                    }));
            if checks {
                out.push(text(&pattern, source).into_owned());
            }
        }
        true
    });
    out
}

/// Every name a pattern binds, as bound to something other than a literal.
pub(super) fn pattern_names(node: &Node, source: &[u8], out: &mut Vec<(String, Bound)>) {
    visit_named(*node, |n| {
        if n.kind() == "identifier" {
            out.push((text(&n, source).into_owned(), Bound::Other));
        }
        // Types and paths inside a pattern bind nothing.
        !matches!(
            n.kind(),
            "type_identifier" | "scoped_identifier" | "generic_type" | "reference_type" | "primitive_type"
        )
    });
}

/// The bindings of a test body: `let` with a single name (bound to its
/// value), and every name other patterns bind (loops, `if let`, `match`).
pub(super) fn bindings(body: &Node, source: &[u8], out: &mut Vec<(String, Bound)>) {
    visit_named(*body, |n| {
        match n.kind() {
            "let_declaration" => {
                let value = n.field("value");
                // `let mut x = 0;` is meant to change (in a closure, through `&mut`).
                let mutable = {
                    let mut c = n.walk();
                    n.children(&mut c).any(|c| c.kind() == "mutable_specifier")
                };
                match n.field("pattern") {
                    Some(p) if p.kind() == "identifier" && mutable => {
                        out.push((text(&p, source).into_owned(), Bound::Other));
                    }
                    Some(p) if p.kind() == "identifier" => {
                        let value = value.map(|v| unwrap_rust(v));
                        let literal = value.and_then(|v| literal(&v, source));
                        let call = value.and_then(|v| chain(&v, source));
                        out.push((text(&p, source).into_owned(), bound(literal, call, &n, body)));
                    }
                    Some(p) => pattern_names(&p, source, out),
                    None => {}
                }
            }
            "for_expression" => {
                if let Some(p) = n.field("pattern") {
                    pattern_names(&p, source, out);
                }
            }
            "let_condition" | "match_pattern" => {
                if let Some(p) = n.field("pattern").or_else(|| first_child(&n)) {
                    pattern_names(&p, source, out);
                }
            }
            "assignment_expression" | "compound_assignment_expr" => {
                if let Some(left) = n.field("left").filter(|l| l.kind() == "identifier") {
                    out.push((text(&left, source).into_owned(), Bound::Other));
                }
            }
            _ => {}
        }
        // Closures share the test's names (and may change them).
        n.kind() != "function_item"
    });
}

/// Parentheses and references around a value (`(&x)`).
pub(super) fn unwrap_rust(mut node: Node) -> Node {
    loop {
        let inner = match node.kind() {
            "parenthesized_expression" => first_child(&node),
            "reference_expression" => node.field("value"),
            _ => None,
        };
        match inner {
            Some(i) => node = i,
            None => return node,
        }
    }
}

/// Parse Rust text made from a macro's tokens.
pub(super) fn reparse(text: &[u8]) -> Option<Tree> {
    ARGS_PARSER.with(|p| {
        let mut p = p.borrow_mut();
        let parser = p.get_or_insert_with(|| {
            let mut parser = Parser::new();
            parser
                .set_language(&Lang::Rust.grammar())
                .expect("the Rust grammar loads");
            parser
        });
        parser.parse(text, None).map(|tree| Tree::new(&tree))
    })
}

/// Parse the token tree of macro `mac` as the arguments of a call, and
/// hand them to `read` with the source they were parsed from.
pub(super) fn with_macro_args<R>(mac: &Node, source: &[u8], read: impl FnOnce(&[Node], &[u8]) -> R) -> Option<R> {
    let mut cursor = mac.walk();
    let tree = mac.named_children(&mut cursor).find(|c| c.kind() == "token_tree")?;
    let inner = source.get(tree.start_byte() + 1..tree.end_byte().saturating_sub(1))?;
    let mut wrapped = Vec::with_capacity(inner.len() + 16);
    wrapped.extend_from_slice(b"fn f(){m(");
    wrapped.extend_from_slice(inner);
    wrapped.extend_from_slice(b"\n);}");
    let parsed = reparse(&wrapped)?;
    let mut call = None;
    visit_named(parsed.root_node(), |n| {
        if call.is_none() && n.kind() == "call_expression" {
            call = Some(n);
        }
        call.is_none()
    });
    let args = call?.field("arguments")?;
    let mut cursor = args.walk();
    let nodes: Vec<Node> = args
        .named_children(&mut cursor)
        .filter(|c| !COMMENTS.contains(&c.kind()))
        .collect();
    Some(read(&nodes, &wrapped))
}

/// What a walk of a test body finds.
pub(super) struct Scan {
    pub(super) guard: Guard,
    /// Names bound once to a non-empty literal collection.
    pub(super) tables: Vec<String>,
    pub(super) assertions: Vec<Assertion>,
    pub(super) calls: Vec<String>,
    pub(super) used: BTreeSet<String>,
    pub(super) mock_returns: Vec<MockReturn>,
    /// mockall doubles made (`MockStore::new()`).
    pub(super) doubles: usize,
    /// Macros invoked inside token trees.
    pub(super) macros: Vec<String>,
    /// Read the guards of assertions (off when only asking whether a subtree asserts).
    pub(super) guards: bool,
    /// The file's own assertion macros, expanded where invoked.
    pub(super) expansions: std::rc::Rc<[Expansion]>,
}

/// Node kinds whose children may run under another guard.
pub(super) const GUARDING: &[&str] = &[
    "if_expression",
    "match_expression",
    "for_expression",
    "while_expression",
    "binary_expression",
];

impl Scan {
    pub(super) fn new(_source: &[u8], tables: Vec<String>) -> Scan {
        Scan {
            guard: Guard::default(),
            tables,
            assertions: Vec::new(),
            calls: Vec::new(),
            used: BTreeSet::new(),
            mock_returns: Vec::new(),
            doubles: 0,
            macros: Vec::new(),
            guards: true,
            expansions: std::rc::Rc::from(Vec::new()),
        }
    }

    pub(super) fn walk(&mut self, node: &Node, source: &[u8]) {
        let mut stack = vec![(*node, self.guard)];
        let mut cursor = node.walk();
        while let Some((n, guard)) = stack.pop() {
            self.guard = guard;
            match n.kind() {
                k if COMMENTS.contains(&k) => continue,
                "string_literal" | "raw_string_literal" | "function_item" => continue,
                "macro_invocation" => {
                    self.macro_call(&n, source);
                    continue;
                }
                "call_expression" => self.call(&n, source),
                "identifier" => {
                    crate::lang::note_name(&n, source, &mut self.used);
                }
                _ => {}
            }
            if self.guards && GUARDING.contains(&n.kind()) {
                let children: Vec<Node> = n.named_children(&mut cursor).collect();
                let guards = self.child_guards(&n, &children, guard, source);
                stack.extend(children.into_iter().zip(guards).rev());
            } else {
                let start = stack.len();
                stack.extend(n.named_children(&mut cursor).map(|c| (c, guard)));
                stack[start..].reverse();
            }
        }
    }

    pub(super) fn child_guards(&self, node: &Node, children: &[Node], guard: Guard, source: &[u8]) -> Vec<Guard> {
        let field = |name: &'static str| node.field(name).map(|c| c.id());
        match node.kind() {
            "if_expression" => {
                // Every branch, an `else` included, asserts: it asserts either way.
                let consequence = node.field("consequence");
                let alternative = node.field("alternative");
                let exhaustive = alternative.is_some_and(|a| asserts(&a, source))
                    && consequence.is_some_and(|c| asserts(&c, source));
                crate::lang::guards_where(children, guard, |c| exhaustive || Some(c.id()) == field("condition"))
            }
            "match_expression" => {
                let arms: Vec<Node> = node
                    .field("body")
                    .map(|b| {
                        let mut c = b.walk();
                        b.named_children(&mut c).filter(|a| a.kind() == "match_arm").collect()
                    })
                    .unwrap_or_default();
                let exhaustive = !arms.is_empty() && arms.iter().all(|a| asserts(a, source));
                crate::lang::guards_where(children, guard, |c| exhaustive || Some(c.id()) == field("value"))
            }
            "for_expression" => {
                let nonempty = node.field("value").is_some_and(|v| self.nonempty(&v, source));
                crate::lang::guards_where(children, guard, |c| nonempty || Some(c.id()) != field("body"))
            }
            "while_expression" => crate::lang::guards_where(children, guard, |c| Some(c.id()) != field("body")),
            // `a && b`, `a || b`: the right side may not run.
            "binary_expression" => crate::lang::short_circuit_guards(node, children, guard, source),
            _ => vec![guard; children.len()],
        }
    }

    /// Does iterating `node` always yield something: a non-empty array or
    /// `vec![..]`, a table, a literal range, or an iterator over one?
    pub(super) fn nonempty(&self, node: &Node, source: &[u8]) -> bool {
        let node = unwrap_rust(*node);
        if literal(&node, source).is_some_and(|l| l.truthy()) {
            return true;
        }
        match node.kind() {
            "identifier" => self.tables.contains(&text(&node, source).into_owned()),
            "range_expression" => {
                let mut cursor = node.walk();
                let bounds: Vec<Option<f64>> = node
                    .named_children(&mut cursor)
                    .map(|b| match literal(&b, source) {
                        Some(Literal::Number(n)) => Some(n),
                        _ => None,
                    })
                    .collect();
                let inclusive = text(&node, source).contains("..=");
                match bounds.as_slice() {
                    [Some(a), Some(b)] => {
                        if inclusive {
                            b >= a
                        } else {
                            b > a
                        }
                    }
                    _ => false,
                }
            }
            "call_expression" => node.field("function").is_some_and(|f| {
                f.kind() == "field_expression"
                    && f.field("field").is_some_and(|m| {
                        matches!(
                            text(&m, source).as_ref(),
                            "iter"
                                | "into_iter"
                                | "iter_mut"
                                | "enumerate"
                                | "zip"
                                | "rev"
                                | "chain"
                                | "copied"
                                | "cloned"
                        )
                    })
                    && f.field("value").is_some_and(|v| self.nonempty(&v, source))
            }),
            _ => false,
        }
    }

    pub(super) fn call(&mut self, call: &Node, source: &[u8]) {
        let Some(function) = call.field("function") else {
            return;
        };
        let name = match function.kind() {
            "identifier" => text(&function, source).into_owned(),
            "field_expression" => function
                .field("field")
                .map(|f| text(&f, source).into_owned())
                .unwrap_or_default(),
            "scoped_identifier" => function
                .field("name")
                .map(|f| text(&f, source).into_owned())
                .unwrap_or_default(),
            "generic_function" => function
                .field("function")
                .map(|f| {
                    last_segment(&callee_key(&text(&f, source)))
                        .rsplit('.')
                        .next()
                        .unwrap_or("")
                        .to_string()
                })
                .unwrap_or_default(),
            _ => return,
        };
        // mockall: `MockStore::new()` makes a double; `store.expect_get()` sets an
        // expectation that is verified when the double is dropped.
        if function.kind() == "scoped_identifier"
            && matches!(name.as_str(), "new" | "default")
            && function.field("path").is_some_and(|p| {
                text(&p, source)
                    .rsplit("::")
                    .next()
                    .is_some_and(|t| t.starts_with("Mock"))
            })
        {
            self.doubles += 1;
        }
        if let Some(method) = name.strip_prefix("expect_")
            && function.kind() == "field_expression"
        {
            let receiver = function
                .field("value")
                .map(|v| callee_key(&text(&v, source)))
                .unwrap_or_default();
            self.assertions.push(Assertion {
                span: Span::of(call),
                form: Form::Other,
                matcher: "expect".to_string(),
                parts: vec![format!("{receiver}.{method}")],
                values: Vec::new(),
                guard: self.guard,
            });
        }
        if matches!(name.as_str(), "returning" | "return_const" | "return_once")
            && let Some(ret) = self.mock_return(call, &function, source)
        {
            self.mock_returns.push(ret);
        }
        self.calls.push(name);
    }

    /// `store.expect_get().returning(|_| 5)` or `.return_const(5)`: the
    /// double's `get` returns the literal.
    pub(super) fn mock_return(&self, call: &Node, function: &Node, source: &[u8]) -> Option<MockReturn> {
        let arg = call.field("arguments").and_then(|a| first_child(&a))?;
        let value = match arg.kind() {
            "closure_expression" => arg.field("body")?,
            _ => arg,
        };
        let value = match value.kind() {
            "block" => first_child(&value).filter(|_| value.named_child_count() == 1)?,
            _ => value,
        };
        let literal = literal(&value, source)?;
        // Walk down the receiver chain to the `expect_*` call.
        let mut receiver = function.field("value")?;
        loop {
            let inner = receiver.field("function")?;
            if inner.kind() != "field_expression" {
                return None;
            }
            let method = text(&inner.field("field")?, source).into_owned();
            if let Some(name) = method.strip_prefix("expect_") {
                let double = callee_key(&text(&inner.field("value")?, source));
                return Some(MockReturn {
                    callee: format!("{double}.{name}"),
                    value: crate::lang::Returned::Literal(literal),
                    span: Span::of(call),
                });
            }
            receiver = inner.field("value")?;
        }
    }

    pub(super) fn macro_call(&mut self, mac: &Node, source: &[u8]) {
        let name = macro_name(mac, source);
        if self.expand(&name, mac, source) {
            return;
        }
        let assertion =
            name.starts_with("assert") || name.starts_with("debug_assert") || name.starts_with("prop_assert");
        if assertion {
            let guard = self.guard;
            let read = with_macro_args(mac, source, |args, src| {
                let mut inner = Scan::new(src, Vec::new());
                for arg in args {
                    inner.walk(arg, src);
                }
                // Tuples compared are their items compared, one for one
                // (`assert_eq!((event, pos), (want, 5))`).
                fn items<'t>(n: &Node<'t>) -> Option<Vec<Node<'t>>> {
                    let mut cursor = n.walk();
                    let items: Vec<Node> = n.named_children(&mut cursor).filter(|c| !c.is_comment()).collect();
                    Some(items).filter(|_| n.kind() == "tuple_expression")
                }
                let made = match args {
                    [left, right, ..] if matches!(name.as_str(), "assert_eq" | "debug_assert_eq") => {
                        match (items(left), items(right)) {
                            (Some(l), Some(r)) if l.len() == r.len() && l.len() > 1 => l
                                .iter()
                                .zip(&r)
                                .map(|(a, b)| assertion_of(&name, &[*a, *b], src))
                                .collect(),
                            _ => vec![assertion_of(&name, args, src)],
                        }
                    }
                    _ => vec![assertion_of(&name, args, src)],
                };
                (made, inner)
            });
            let (made, inner) = read.unwrap_or_else(|| {
                (
                    vec![(Form::Other, name.clone(), Vec::new(), Vec::new())],
                    Scan::new(source, Vec::new()),
                )
            });
            self.calls.extend(inner.calls);
            self.used.extend(inner.used);
            for (form, matcher, parts, checked) in made {
                self.assertions.push(Assertion {
                    span: Span::of(mac),
                    form,
                    matcher,
                    parts: parts.iter().map(|p| method_form(p)).collect(),
                    values: checked,
                    guard,
                });
            }
            return;
        }
        // A panic in the closure of `unwrap_or_else` is `.expect(..)`
        // written out: setup that unwraps, no check (issue 64: jiff).
        if matches!(name.as_str(), "panic" | "unreachable") && !in_unwrap_closure(mac, source) {
            // The catch-all arm of a `match` demands the other arms' pattern.
            let (matcher, parts) = match caught_all(mac, source) {
                Some(parts) => ("matches".to_string(), parts),
                None => (name.clone(), Vec::new()),
            };
            self.assertions.push(Assertion {
                span: Span::of(mac),
                form: Form::Fail,
                matcher,
                parts,
                values: Vec::new(),
                guard: self.guard,
            });
        }
        // Any other macro: a call of it (a local `macro_rules!` helper may
        // assert), and the names it uses and the functions it calls, token by token.
        self.calls.push(name);
        let mut cursor = mac.walk();
        if let Some(tree) = mac.named_children(&mut cursor).find(|c| c.kind() == "token_tree") {
            self.tokens(&tree, source);
        }
        let nested = std::mem::take(&mut self.macros);
        self.calls.extend(nested);
    }

    /// Read an invocation `mac` of one of the file's assertion macros as
    /// the checks its body makes with the invocation's arguments, each at
    /// the invocation; false when `name` is no such macro or the
    /// invocation does not fit it.
    fn expand(&mut self, name: &str, mac: &Node, source: &[u8]) -> bool {
        let Some(at) = self.expansions.iter().position(|e| e.name == name) else {
            return false;
        };
        let Some(text) = expanded(&self.expansions[at], mac, source) else {
            return false;
        };
        let Some(tree) = reparse(&text) else {
            return false;
        };
        let root = tree.root_node();
        let Some(body) = root.named_child(0).and_then(|f| f.field("body")) else {
            return false;
        };
        let mut inner = Scan::new(&text, self.tables.clone());
        // Not itself again: a macro invoking itself expands no further.
        let others: Vec<Expansion> = self.expansions.iter().filter(|e| e.name != name).cloned().collect();
        inner.expansions = std::rc::Rc::from(others);
        inner.guard = self.guard;
        inner.walk(&body, &text);
        for mut assertion in inner.assertions {
            assertion.span = Span::of(mac);
            self.assertions.push(assertion);
        }
        // Not a call of a helper that asserts: its checks are the test's.
        self.calls.extend(inner.calls);
        self.used.extend(inner.used);
        self.mock_returns.extend(inner.mock_returns);
        true
    }

    /// Names, calls and macro calls in a token tree: `f(..)` is a call of
    /// `f`, `m!(..)` a call of macro `m` (an assertion when `m` asserts).
    pub(super) fn tokens(&mut self, tree: &Node, source: &[u8]) {
        let mut cursor = tree.walk();
        let children: Vec<Node> = tree.children(&mut cursor).collect();
        for (i, child) in children.iter().enumerate() {
            match child.kind() {
                "identifier" => {
                    crate::lang::note_name(child, source, &mut self.used);
                    let next = children.get(i + 1);
                    let called =
                        next.is_some_and(|n| n.kind() == "token_tree" && source.get(n.start_byte()) == Some(&b'('));
                    if called {
                        self.calls.push(text(child, source).into_owned());
                    }
                    if next.is_some_and(|n| n.kind() == "!") {
                        let name = text(child, source).into_owned();
                        if is_assertion_macro(&name) {
                            let end = children.get(i + 2).unwrap_or(child);
                            let span = Span::of(child);
                            let end = Span::of(end);
                            self.assertions.push(Assertion {
                                span: Span {
                                    end_line: end.end_line,
                                    end_column: end.end_column,
                                    ..span
                                },
                                form: Form::Other,
                                matcher: name.clone(),
                                parts: Vec::new(),
                                values: Vec::new(),
                                guard: self.guard,
                            });
                        }
                        self.macros.push(name);
                    }
                }
                "token_tree" | "token_repetition" => self.tokens(child, source),
                _ => {}
            }
        }
    }
}

/// Does this subtree assert?
pub(super) fn asserts(node: &Node, source: &[u8]) -> bool {
    let mut scan = Scan::new(source, Vec::new());
    // Only whether it asserts: guards inside are not needed, and reading
    // them would read nested branches again at every level.
    scan.guards = false;
    scan.walk(node, source);
    !scan.assertions.is_empty()
}

/// The form, matcher, operand keys and checked values of assertion macro `name`.
pub(super) fn assertion_of(name: &str, args: &[Node], source: &[u8]) -> (Form, String, Vec<String>, Vec<String>) {
    let base = name
        .strip_prefix("debug_")
        .or_else(|| name.strip_prefix("prop_"))
        .unwrap_or(name);
    let op = |i: usize| args.get(i).map(|a| operand(a, source));
    let checked = |n: usize| -> Vec<String> {
        let mut out: Vec<String> = args
            .iter()
            .take(n)
            .flat_map(|a| values(a, source, "line_comment"))
            .collect();
        out.sort();
        out.dedup();
        out
    };
    let keys = |n: usize| args.iter().take(n).map(|a| token_key(a, source)).collect::<Vec<_>>();
    match base {
        "assert_eq" => match (op(0), op(1)) {
            (Some(a), Some(b)) => (value_equal(a, b), base.to_string(), keys(2), checked(2)),
            _ => (Form::Other, base.to_string(), keys(2), checked(2)),
        },
        "assert_ne" => match (op(0), op(1)) {
            (Some(a), Some(b)) => (Form::NotEqual(a, b), base.to_string(), keys(2), checked(2)),
            _ => (Form::Other, base.to_string(), keys(2), checked(2)),
        },
        "assert" => {
            let Some(test) = args.first().map(|a| unwrap_rust(*a)) else {
                return (Form::Other, base.to_string(), Vec::new(), Vec::new());
            };
            match test.kind() {
                "binary_expression" => {
                    let operator = test
                        .field("operator")
                        .map(|o| text(&o, source).into_owned())
                        .unwrap_or_default();
                    let (Some(l), Some(r)) = (test.field("left"), test.field("right")) else {
                        return (Form::Other, operator, keys(1), checked(1));
                    };
                    let parts = vec![token_key(&l, source), token_key(&r, source)];
                    let form = match operator.as_str() {
                        "==" => value_equal(operand(&l, source), operand(&r, source)),
                        "!=" => Form::NotEqual(operand(&l, source), operand(&r, source)),
                        "&&" | "||" => Form::Truthy(operand(&test, source)),
                        _ => Form::Other,
                    };
                    (form, operator, parts, checked(1))
                }
                "unary_expression" if text(&test, source).starts_with('!') => {
                    let form = first_child(&test).map_or(Form::Other, |inner| Form::Falsy(operand(&inner, source)));
                    (form, "not".to_string(), keys(1), checked(1))
                }
                // `assert!(matches!(v, Some(_)))` checks a pattern.
                "macro_invocation" if macro_name(&test, source) == "matches" => {
                    (Form::Other, "matches".to_string(), keys(1), checked(1))
                }
                _ => (
                    Form::Truthy(operand(&test, source)),
                    "truthy".to_string(),
                    keys(1),
                    checked(1),
                ),
            }
        }
        // `assert_matches!`, insta's `assert_snapshot!` and friends, `assert_approx_eq!`, ...
        _ => (Form::Other, base.to_string(), keys(args.len().min(2)), checked(1)),
    }
}

/// Is the macro call `mac` inside the closure handed to `unwrap_or_else`
/// (`x.unwrap_or_else(|_| panic!(..))`)?
/// When `mac`, a `panic!`, is the body of the catch-all arm of a `match`
/// (`x => panic!(..)`, `_ => panic!(..)`) with one other arm: what the
/// match demands, the scrutinee and that arm's pattern (`match push(..) {
/// Err(Error::Bind { .. }) => .., x => panic!(..) }` checks that `push(..)`
/// matches `Err(Error::Bind { .. })`, as `assert!(matches!(..))` does).
fn caught_all(mac: &Node, source: &[u8]) -> Option<Vec<String>> {
    let mut node = *mac;
    let arm = loop {
        let parent = node.parent()?;
        match parent.kind() {
            "match_arm" => break parent,
            "block" | "expression_statement" => node = parent,
            _ => return None,
        }
    };
    let catch_all = |arm: &Node| {
        arm.child_by_field_name("pattern")
            .and_then(|p| first_child(&p))
            .is_some_and(|p| p.kind() == "identifier" || text(&p, source) == "_")
    };
    let block = arm.parent().filter(|b| b.kind() == "match_block")?;
    let scrutinee = block.parent()?.child_by_field_name("value")?;
    let mut cursor = block.walk();
    let arms: Vec<Node> = block
        .named_children(&mut cursor)
        .filter(|n| n.kind() == "match_arm")
        .collect();
    match arms.as_slice() {
        [first, last] if last.id() == arm.id() && catch_all(last) && !catch_all(first) => Some(vec![
            token_key(&scrutinee, source),
            token_key(&first.child_by_field_name("pattern")?, source),
        ]),
        _ => None,
    }
}

fn in_unwrap_closure(mac: &Node, source: &[u8]) -> bool {
    let mut node = *mac;
    while let Some(parent) = node.parent() {
        match parent.kind() {
            "closure_expression" => {
                return parent
                    .parent()
                    .filter(|a| a.kind() == "arguments")
                    .and_then(|a| a.parent())
                    .and_then(|call| call.child_by_field_name("function"))
                    .and_then(|f| f.child_by_field_name("field"))
                    .is_some_and(|field| field.utf8_text(source).is_ok_and(|t| t == "unwrap_or_else"));
            }
            "function_item" => return false,
            _ => node = parent,
        }
    }
    false
}
