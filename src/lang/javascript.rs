//! JavaScript and TypeScript (tree-sitter-javascript / -typescript): jest,
//! vitest, mocha, jasmine and node:test.
//!
//! Tests are `it`/`test`/`specify` calls (with `.skip`, `.only`, `.each`,
//! `.concurrent`, `x` prefixes) anywhere in the file, inside `describe`/
//! `context`/`suite` groups. Assertions are `expect(..)` chains (jest, vitest,
//! chai, `expectTypeOf`), `assert`/`assert.*` (node:assert, chai), `should`
//! chains, sinon's `assert`, and testing-library `getBy*`/`findBy*` queries,
//! which throw when the element is missing.

use std::collections::BTreeMap;

use tree_sitter::{Node, Tree};

use super::{
    Assertion, Form, Guard, Import, ImportKind, Literal, MockReturn, Operand, Skip, Span, TestCase, TestFile,
    callee_key, close_helpers, contains_kind, display, first_child, normalized, number, single_literal_bindings, text,
    visit_named,
};

const COMMENT: &str = "comment";
/// Nested function kinds: their bodies run later, if at all.
const JS_FUNCTIONS: &[&str] = &["arrow_function", "function_expression", "function_declaration"];
const TEST_NAMES: &[&str] = &["it", "test", "specify", "xit", "xtest", "xspecify", "fit", "ftest"];
const GROUP_NAMES: &[&str] = &["describe", "context", "suite", "xdescribe", "xcontext", "fdescribe"];

pub fn test_file(tree: &Tree, source: &[u8]) -> TestFile {
    let mut walker = Walker {
        source,
        comments: BTreeMap::new(),
        file: TestFile::default(),
        bodies: Vec::new(),
    };
    walker.collect_comments(&tree.root_node());
    walker.visit(&tree.root_node(), None);
    walker.imports_and_uses(&tree.root_node());
    let Walker { mut file, bodies, .. } = walker;
    file.helpers = close_helpers(&bodies);
    file
}

struct Walker<'s> {
    source: &'s [u8],
    /// Comment text by the line it ends on, for skip reasons.
    comments: BTreeMap<u32, String>,
    file: TestFile,
    bodies: Vec<(String, bool, Vec<String>)>,
}

/// The names along a callee: `it.skip.each(table)` -> `["it", "skip", "each"]`.
fn callee_path(node: &Node, source: &[u8]) -> Option<Vec<String>> {
    match node.kind() {
        "identifier" => Some(vec![text(node, source).into_owned()]),
        "member_expression" => {
            let mut path = callee_path(&node.child_by_field_name("object")?, source)?;
            path.push(text(&node.child_by_field_name("property")?, source).into_owned());
            Some(path)
        }
        // `it.each(table)("name", fn)` and `test.each\`...\`("name", fn)`.
        "call_expression" => {
            let path = callee_path(&node.child_by_field_name("function")?, source)?;
            (path.last().map(String::as_str) == Some("each")).then_some(path)
        }
        "parenthesized_expression" | "non_null_expression" => callee_path(&first_child(node)?, source),
        _ => None,
    }
}

fn arguments<'a>(call: &Node<'a>) -> Vec<Node<'a>> {
    let Some(args) = call.child_by_field_name("arguments") else {
        return Vec::new();
    };
    let mut cursor = args.walk();
    args.named_children(&mut cursor)
        .filter(|a| a.kind() != COMMENT)
        .collect()
}

fn is_function(node: &Node) -> bool {
    matches!(node.kind(), "arrow_function" | "function_expression" | "function")
}

impl<'s> Walker<'s> {
    fn collect_comments(&mut self, root: &Node) {
        visit_named(*root, |n| {
            if n.kind() == COMMENT {
                let span = Span::of(&n);
                let body = text(&n, self.source)
                    .trim_start_matches("//")
                    .trim_start_matches("/*")
                    .trim_end_matches("*/")
                    .trim()
                    .to_string();
                self.comments.insert(span.end_line, body);
                return false;
            }
            true
        });
    }

    /// A comment ending on the line above a skip is its reason (JavaScript
    /// runners take no reason argument).
    fn comment_reason(&self, span: Span) -> Option<String> {
        self.comments
            .get(&span.line.saturating_sub(1))
            .filter(|c| !c.is_empty())
            .cloned()
    }

    fn visit(&mut self, node: &Node, group_skip: Option<&Skip>) {
        if node.kind() == "call_expression"
            && let Some(function) = node.child_by_field_name("function")
            && let Some(path) = callee_path(&function, self.source)
        {
            let head = path[0].as_str();
            if TEST_NAMES.contains(&head) {
                self.test(node, &path, group_skip);
                return;
            }
            if GROUP_NAMES.contains(&head) {
                let skipped = head.starts_with('x') || path.iter().any(|p| p == "skip");
                let own = skipped.then(|| {
                    let span = Span::of(node);
                    Skip {
                        span,
                        reason: self.comment_reason(span),
                        conditional: false,
                    }
                });
                let skip = own.as_ref().or(group_skip).cloned();
                for arg in arguments(node) {
                    if is_function(&arg) {
                        self.visit(&arg, skip.as_ref());
                    }
                }
                return;
            }
        }
        self.helper(node);
        let mut cursor = node.walk();
        let children: Vec<Node> = node.named_children(&mut cursor).collect();
        for child in children {
            self.visit(&child, group_skip);
        }
    }

    /// Imports (`import`, `require`, `import()`, `vi.importActual`,
    /// `jest.requireActual`), and the identifiers used outside them.
    fn imports_and_uses(&mut self, root: &Node) {
        visit_named(*root, |n| {
            match n.kind() {
                "import_statement" => {
                    let Some(source) = n.child_by_field_name("source").and_then(|s| self.string_value(&s)) else {
                        return false;
                    };
                    let mut names = Vec::new();
                    let mut c = n.walk();
                    if let Some(clause) = n.named_children(&mut c).find(|c| c.kind() == "import_clause") {
                        collect_bound(&clause, self.source, &mut names);
                    }
                    let kind = if names.is_empty() {
                        ImportKind::SideEffect
                    } else {
                        ImportKind::Static
                    };
                    self.file.imports.push(Import {
                        specifier: source,
                        names,
                        span: Span::of(&n),
                        kind,
                    });
                    return false;
                }
                "variable_declarator" => {
                    // const x = require("y"), const { a } = require("y"), const m = await import("y")
                    if let (Some(name), Some(value)) = (n.child_by_field_name("name"), n.child_by_field_name("value"))
                        && let Some(spec) = self.required(&value)
                    {
                        let mut names = Vec::new();
                        collect_bound(&name, self.source, &mut names);
                        self.file.imports.push(Import {
                            specifier: spec,
                            names,
                            span: Span::of(&n),
                            kind: ImportKind::Static,
                        });
                        return false;
                    }
                }
                "call_expression" => {
                    let callee = n
                        .child_by_field_name("function")
                        .map(|f| text(&f, self.source).into_owned())
                        .unwrap_or_default();
                    let spec = arguments(&n).first().and_then(|a| self.string_value(a));
                    if let Some(spec) = spec {
                        let kind = match callee.as_str() {
                            "import" | "vi.importActual" | "jest.requireActual" | "vi.importMock"
                            | "jest.requireMock" => Some(ImportKind::Dynamic),
                            "require" => Some(ImportKind::SideEffect),
                            _ => None,
                        };
                        if let Some(kind) = kind {
                            self.file.imports.push(Import {
                                specifier: spec,
                                names: Vec::new(),
                                span: Span::of(&n),
                                kind,
                            });
                        }
                    }
                }
                "identifier" | "shorthand_property_identifier" => {
                    self.file.used.insert(text(&n, self.source).into_owned());
                }
                _ => {}
            }
            true
        });
    }

    /// The module of `require("x")`, `require("x").y`, `await import("x")`.
    fn required(&self, value: &Node) -> Option<String> {
        let mut v = unwrap(*value);
        loop {
            match v.kind() {
                "await_expression" => v = first_child(&v)?,
                "member_expression" => v = v.child_by_field_name("object")?,
                _ => break,
            }
        }
        if v.kind() != "call_expression" {
            return None;
        }
        let callee = v.child_by_field_name("function")?;
        if !matches!(text(&callee, self.source).as_ref(), "require" | "import") {
            return None;
        }
        arguments(&v).first().and_then(|a| self.string_value(a))
    }

    /// Record a named function's body for helper detection.
    fn helper(&mut self, node: &Node) {
        let (name, body) = match node.kind() {
            "function_declaration" | "generator_function_declaration" => {
                (node.child_by_field_name("name"), node.child_by_field_name("body"))
            }
            "variable_declarator" => match node.child_by_field_name("value") {
                Some(v) if is_function(&v) => (node.child_by_field_name("name"), v.child_by_field_name("body")),
                _ => return,
            },
            _ => return,
        };
        if let (Some(name), Some(body)) = (name, body) {
            let scan = self.scan(&body, None);
            self.bodies.push((
                text(&name, self.source).into_owned(),
                !scan.assertions.is_empty(),
                scan.calls,
            ));
        }
    }

    fn test(&mut self, call: &Node, path: &[String], group_skip: Option<&Skip>) {
        let args = arguments(call);
        if path.iter().any(|p| p == "todo") {
            return;
        }
        let name = args.first().map(|a| {
            self.string_value(a)
                .unwrap_or_else(|| text(a, self.source).into_owned())
        });
        let span = Span::of(call);
        let mut skip = (path[0].starts_with('x') || path.iter().any(|p| p == "skip")).then(|| Skip {
            span,
            reason: self.comment_reason(span),
            conditional: path.iter().any(|p| p == "skipIf"),
        });
        // node:test options: test("name", { skip: "why" }, fn)
        if let Some(options) = args.iter().find(|a| a.kind() == "object") {
            skip = skip.or_else(|| self.option_skip(options, span));
        }
        let function = args.iter().rev().find(|a| is_function(a));
        let Some(function) = function else {
            // A test given by reference cannot be read; one with no function at all is pending.
            if args.len() <= 1 {
                let skip = skip.unwrap_or(Skip {
                    span,
                    reason: self.comment_reason(span),
                    conditional: false,
                });
                self.file.tests.push(TestCase {
                    name: name.unwrap_or_default(),
                    span,
                    skip: Some(skip),
                    empty: false,
                    assertions: Vec::new(),
                    calls: Vec::new(),
                    bindings: Vec::new(),
                    mock_returns: Vec::new(),
                    benchmark: false,
                });
            }
            return;
        };
        let Some(body) = function.child_by_field_name("body") else {
            return;
        };
        let context = test_context(function, self.source);
        let mut scan = self.scan(&body, context.as_deref());
        let empty = body.kind() == "statement_block" && {
            let mut cursor = body.walk();
            body.named_children(&mut cursor).all(|c| c.kind() == COMMENT)
        };
        skip = skip.or(scan.skip.take()).or_else(|| group_skip.cloned());
        let mut occurrences = Vec::new();
        for field in ["parameters", "parameter"] {
            if let Some(params) = function.child_by_field_name(field) {
                identifiers(&params, self.source, &mut occurrences);
            }
        }
        self.binding_occurrences(&body, &mut occurrences);
        self.file.tests.push(TestCase {
            name: name.unwrap_or_default(),
            span,
            skip,
            empty,
            assertions: scan.assertions,
            calls: scan.calls,
            bindings: single_literal_bindings(occurrences),
            mock_returns: self.mock_returns(&body),
            benchmark: false,
        });
    }

    /// Every place a name is bound in `node`: declarations (with the literal
    /// when the initializer is one), assignments, updates, loop variables.
    fn binding_occurrences(&self, node: &Node, out: &mut Vec<(String, Option<(Literal, Span)>)>) {
        visit_named(*node, |n| {
            match n.kind() {
                "variable_declarator" => {
                    if let Some(name) = n.child_by_field_name("name") {
                        if name.kind() == "identifier" {
                            let value = n.child_by_field_name("value").and_then(|v| self.literal(&unwrap(v)));
                            out.push((text(&name, self.source).into_owned(), value.map(|l| (l, Span::of(&n)))));
                        } else {
                            identifiers(&name, self.source, out);
                        }
                    }
                }
                "assignment_expression" | "augmented_assignment_expression" => {
                    if let Some(left) = n.child_by_field_name("left") {
                        identifiers(&left, self.source, out);
                    }
                }
                "update_expression" => {
                    if let Some(arg) = n.child_by_field_name("argument") {
                        identifiers(&arg, self.source, out);
                    }
                }
                "for_in_statement" => {
                    if let Some(left) = n.child_by_field_name("left") {
                        identifiers(&left, self.source, out);
                    }
                }
                _ => {}
            }
            true
        });
    }

    fn option_skip(&self, options: &Node, span: Span) -> Option<Skip> {
        let mut cursor = options.walk();
        for pair in options.named_children(&mut cursor).filter(|p| p.kind() == "pair") {
            let key = pair
                .child_by_field_name("key")
                .map(|k| text(&k, self.source).trim_matches(['"', '\'']).to_string());
            let value = pair.child_by_field_name("value")?;
            if key.as_deref() == Some("skip") && value.kind() != "false" {
                let reason = self.string_value(&value).or_else(|| self.comment_reason(span));
                return Some(Skip {
                    span,
                    reason: reason.filter(|r| !r.trim().is_empty()),
                    conditional: false,
                });
            }
        }
        None
    }

    fn string_value(&self, node: &Node) -> Option<String> {
        match node.kind() {
            "string" => {
                let mut cursor = node.walk();
                Some(
                    node.named_children(&mut cursor)
                        .map(|c| text(&c, self.source).into_owned())
                        .collect(),
                )
            }
            "template_string" => {
                let mut cursor = node.walk();
                if node
                    .named_children(&mut cursor)
                    .any(|c| c.kind() == "template_substitution")
                {
                    return None;
                }
                let raw = text(node, self.source);
                Some(raw.trim_matches('`').to_string())
            }
            _ => None,
        }
    }

    /// Scan a body; `context` is the test's context parameter (`t` in
    /// `test("x", (t) => ...)`), whose methods assert in tape, ava, node-tap
    /// and node:test.
    fn scan(&self, body: &Node, context: Option<&str>) -> Scan {
        let mut scan = Scan {
            contexts: context.map(str::to_string).into_iter().collect(),
            ..Scan::default()
        };
        let mut stack = vec![(*body, Guard::default())];
        let mut cursor = body.walk();
        while let Some((n, guard)) = stack.pop() {
            scan.guard = guard;
            match n.kind() {
                COMMENT | "string" | "template_string" => continue,
                "call_expression" => self.call(&n, &mut scan),
                // `if (x !== 2) throw new Error("..")` is a hand-written assertion.
                "throw_statement" => scan.assertions.push(Assertion {
                    span: Span::of(&n),
                    form: Form::Fail,
                    guard,
                }),
                // chai property assertions: `expect(x).to.be.true;`, `x.should.exist;`
                "expression_statement" if first_child(&n).is_some_and(|e| e.kind() == "member_expression") => {
                    let member = first_child(&n).expect("checked above");
                    if let Some(form) = self.property_assertion(&member) {
                        scan.assertions.push(Assertion {
                            span: Span::of(&member),
                            form,
                            guard,
                        });
                    }
                }
                _ => {}
            }
            let children: Vec<Node> = n.named_children(&mut cursor).collect();
            let guards = self.child_guards(&n, &children, guard);
            stack.extend(children.into_iter().zip(guards));
        }
        scan.assertions.sort_by_key(|a| a.span);
        scan
    }

    fn call(&self, call: &Node, scan: &mut Scan) {
        let Some(function) = call.child_by_field_name("function") else {
            return;
        };
        let name = match function.kind() {
            "identifier" => text(&function, self.source).into_owned(),
            "member_expression" => function
                .child_by_field_name("property")
                .map(|p| text(&p, self.source).into_owned())
                .unwrap_or_default(),
            // `st['throws'](...)`
            "subscript_expression" => function
                .child_by_field_name("index")
                .and_then(|i| self.string_value(&i))
                .unwrap_or_default(),
            _ => String::new(),
        };
        // `expect` alone is the start of a chain, not a helper that asserts.
        if !name.is_empty() && name != "expect" {
            scan.calls.push(name.clone());
        }
        // In-body skips: `this.skip()`, `t.skip("why")`, `ctx.skip()`.
        if name == "skip"
            && function.kind() == "member_expression"
            && function.child_by_field_name("object").is_some_and(|o| {
                matches!(o.kind(), "this" | "identifier")
                    && matches!(text(&o, self.source).as_ref(), "this" | "t" | "ctx" | "context")
            })
        {
            let span = Span::of(call);
            let reason = arguments(call)
                .first()
                .and_then(|a| self.string_value(a))
                .or_else(|| self.comment_reason(span));
            scan.skip.get_or_insert(Skip {
                span,
                reason,
                conditional: has_if_ancestor(call),
            });
        }
        let on_context = matches!(function.kind(), "member_expression" | "subscript_expression")
            && function
                .child_by_field_name("object")
                .is_some_and(|o| scan.contexts.iter().any(|c| text(&o, self.source) == c.as_str()));
        // Subtests (`t.test("x", (st) => ...)`) bring their own context.
        if on_context && name == "test" {
            for arg in arguments(call).iter().filter(|a| is_function(a)) {
                scan.contexts.extend(test_context(arg, self.source));
            }
        }
        let form = if on_context {
            self.context_assertion(call, &name)
        } else {
            self.assertion(call, &function, &name)
        };
        if let Some(form) = form {
            scan.assertions.push(Assertion {
                guard: scan.guard,
                span: Span::of(call),
                form,
            });
        }
    }

    /// Does this subtree assert?
    fn asserts(&self, node: &Node) -> bool {
        !self.scan(node, None).assertions.is_empty()
    }

    /// The guard of each child of `node`, given the guard of `node`.
    fn child_guards(&self, node: &Node, children: &[Node], guard: Guard) -> Vec<Guard> {
        let conditional = Guard {
            conditional: true,
            ..guard
        };
        let id = |name: &str| node.child_by_field_name(name).map(|c| c.id());
        let guarded = |fields: &[&str]| -> Vec<Guard> {
            let ids: Vec<_> = fields.iter().filter_map(|f| id(f)).collect();
            children
                .iter()
                .map(|c| if ids.contains(&c.id()) { conditional } else { guard })
                .collect()
        };
        match node.kind() {
            "if_statement" => {
                let branches: Vec<Node> = ["consequence", "alternative"]
                    .iter()
                    .filter_map(|f| node.child_by_field_name(f))
                    .collect();
                if branches.len() == 2 && branches.iter().all(|b| self.asserts(b)) {
                    vec![guard; children.len()]
                } else {
                    guarded(&["consequence", "alternative"])
                }
            }
            "for_in_statement" => {
                // `for (const x of [1, 2])` always runs its body.
                let nonempty = node
                    .child_by_field_name("right")
                    .is_some_and(|r| r.kind() == "array" && first_child(&r).is_some());
                if nonempty {
                    vec![guard; children.len()]
                } else {
                    guarded(&["body"])
                }
            }
            "for_statement" | "while_statement" => guarded(&["body"]),
            "ternary_expression" => guarded(&["consequence", "alternative"]),
            "binary_expression" => {
                let op = node
                    .child_by_field_name("operator")
                    .map(|o| text(&o, self.source).into_owned());
                if matches!(op.as_deref(), Some("&&" | "||" | "??")) {
                    guarded(&["right"])
                } else {
                    vec![guard; children.len()]
                }
            }
            "switch_case" | "switch_default" => vec![conditional; children.len()],
            "try_statement" => {
                let handler = node.child_by_field_name("handler");
                let swallower = handler.filter(|h| {
                    h.child_by_field_name("body")
                        .is_some_and(|b| !self.asserts(&b) && !contains_kind(&b, "throw_statement", JS_FUNCTIONS))
                });
                children
                    .iter()
                    .map(|c| {
                        if Some(c.id()) == id("body") {
                            Guard {
                                swallowed_by: swallower.map(|h| Span::of(&h)).or(guard.swallowed_by),
                                ..guard
                            }
                        } else if Some(c.id()) == id("handler") {
                            conditional
                        } else {
                            guard
                        }
                    })
                    .collect()
            }
            _ => vec![guard; children.len()],
        }
    }

    /// `t.equal(a, b)`, `t.ok(x)`, `t.deepEqual(..)`, `t.is(..)`, `t.throws(..)`, ...
    fn context_assertion(&self, call: &Node, name: &str) -> Option<Form> {
        let args = arguments(call);
        let op = |i: usize| args.get(i).map(|a| self.operand(a));
        let pair = |f: fn(Operand, Operand) -> Form| match (op(0), op(1)) {
            (Some(a), Some(b)) => f(a, b),
            _ => Form::Other,
        };
        Some(match name {
            "equal" | "equals" | "strictEqual" | "deepEqual" | "deepStrictEqual" | "is" | "same" | "eq" | "isEqual"
            | "strictSame" | "looseEqual" | "deepLooseEqual" => pair(Form::Equal),
            "notEqual" | "notStrictEqual" | "notDeepEqual" | "notDeepStrictEqual" | "not" | "isNot" | "notSame"
            | "notEquals" | "isNotEqual" => pair(Form::NotEqual),
            "ok" | "true" | "truthy" | "assert" => op(0).map_or(Form::Other, Form::Truthy),
            "notOk" | "false" | "falsy" => op(0).map_or(Form::Other, Form::Falsy),
            "fail" => Form::Fail,
            "throws" | "doesNotThrow" | "rejects" | "doesNotReject" | "throwsAsync" | "notThrows"
            | "notThrowsAsync" | "match" | "notMatch" | "regex" | "notRegex" | "like" | "unlike" | "has"
            | "hasStrict" | "pass" | "error" | "ifError" | "ifErr" | "snapshot" | "matchSnapshot" | "plan" | "type"
            | "resolves" | "resolveMatch" | "expect" => Form::Other,
            _ => return None,
        })
    }

    fn assertion(&self, call: &Node, function: &Node, name: &str) -> Option<Form> {
        let args = arguments(call);
        let op = |i: usize| args.get(i).map(|a| self.operand(a));
        if function.kind() == "identifier" {
            return match name {
                "assert" => Some(op(0).map_or(Form::Other, Form::Truthy)),
                // `expect(x)` alone asserts nothing: the chain around it does.
                "expect" | "expectTypeOf" => None,
                "assertType" => Some(Form::Other),
                _ if is_query(name) => Some(Form::Other),
                _ => None,
            };
        }
        // Member calls: expect chains, assert.*, should chains, queries.
        let chain = member_chain(function, self.source);
        if let Some(base) = &chain.base_call {
            let base_name = base
                .child_by_field_name("function")
                .map(|f| text(&f, self.source).into_owned())
                .unwrap_or_default();
            if matches!(
                base_name.as_str(),
                "expect" | "expect.soft" | "chai.expect" | "expectTypeOf"
            ) {
                if base_name == "expectTypeOf" {
                    return Some(Form::Other);
                }
                let actual = arguments(base).first().map(|a| self.operand(a));
                let negated = chain.names.iter().any(|n| n == "not");
                let form = match (name, actual, op(0)) {
                    (
                        "toBe" | "toEqual" | "toStrictEqual" | "equal" | "equals" | "eq" | "eql" | "strictEqual",
                        Some(a),
                        Some(b),
                    ) => {
                        if let (Some(Literal::Bool(true)), true) = (&b.literal, name == "toBe") {
                            Form::Truthy(a)
                        } else {
                            Form::Equal(a, b)
                        }
                    }
                    ("toBeTruthy" | "ok", Some(a), _) => Form::Truthy(a),
                    ("toBeFalsy", Some(a), _) => Form::Falsy(a),
                    _ => Form::Other,
                };
                return Some(if negated { negate(form) } else { form });
            }
        }
        let object = function
            .child_by_field_name("object")
            .map(|o| text(&o, self.source).into_owned())
            .unwrap_or_default();
        if object == "expect" {
            // expect.assertions(n), expect.hasAssertions(), expect.fail()
            return Some(if name == "fail" { Form::Fail } else { Form::Other });
        }
        if object == "assert" || object.ends_with(".assert") || object.starts_with("assert.") {
            return Some(match name {
                "ok" | "isOk" | "isTrue" => op(0).map_or(Form::Other, Form::Truthy),
                "isFalse" | "isNotOk" | "notOk" => op(0).map_or(Form::Other, Form::Falsy),
                "fail" => Form::Fail,
                "equal" | "strictEqual" | "deepEqual" | "deepStrictEqual" | "eql" => match (op(0), op(1)) {
                    (Some(a), Some(b)) => Form::Equal(a, b),
                    _ => Form::Other,
                },
                "notEqual" | "notStrictEqual" | "notDeepEqual" | "notDeepStrictEqual" => match (op(0), op(1)) {
                    (Some(a), Some(b)) => Form::NotEqual(a, b),
                    _ => Form::Other,
                },
                _ => Form::Other,
            });
        }
        if chain.names.iter().any(|n| n == "should") || is_query(name) {
            return Some(Form::Other);
        }
        None
    }

    fn property_assertion(&self, member: &Node) -> Option<Form> {
        let chain = member_chain(member, self.source);
        let last = chain.names.last()?.as_str();
        if chain.names.iter().any(|n| n == "should") {
            return Some(Form::Other);
        }
        let base = chain.base_call?;
        let base_name = base
            .child_by_field_name("function")
            .map(|f| text(&f, self.source).into_owned())?;
        if !matches!(base_name.as_str(), "expect" | "chai.expect") {
            return None;
        }
        let actual = arguments(&base).first().map(|a| self.operand(a))?;
        let negated = chain.names.iter().any(|n| n == "not");
        let form = match last {
            "true" | "ok" => Form::Truthy(actual),
            "false" => Form::Falsy(actual),
            _ => Form::Other,
        };
        Some(if negated { negate(form) } else { form })
    }

    fn operand(&self, node: &Node) -> Operand {
        let node = unwrap(*node);
        Operand {
            text: display(&node, self.source),
            key: normalized(&node, self.source, COMMENT),
            literal: self.literal(&node),
            effects: has_effects(&node),
            call_of: {
                let call = if node.kind() == "await_expression" {
                    first_child(&node)
                } else {
                    Some(node)
                };
                call.filter(|c| c.kind() == "call_expression")
                    .and_then(|c| c.child_by_field_name("function"))
                    .map(|f| callee_key(&text(&f, self.source)))
            },
        }
    }

    /// Mocks configured to return a literal: `const f = vi.fn().mockReturnValue(5)`,
    /// `f.mockResolvedValue(5)`, `vi.spyOn(api, "get").mockReturnValue(5)`,
    /// `jest.fn(() => 5)`, sinon's `stub().returns(5)`.
    fn mock_returns(&self, body: &Node) -> Vec<MockReturn> {
        let mut out = Vec::new();
        visit_named(*body, |n| {
            match n.kind() {
                "variable_declarator" => {
                    if let (Some(name), Some(value)) = (n.child_by_field_name("name"), n.child_by_field_name("value"))
                        && name.kind() == "identifier"
                        && let Some((literal, spied)) = self.configured_mock(&unwrap(value))
                    {
                        let span = Span::of(&n);
                        out.push(MockReturn {
                            callee: text(&name, self.source).into_owned(),
                            literal: literal.clone(),
                            span,
                        });
                        if let Some(spied) = spied {
                            out.push(MockReturn {
                                callee: spied,
                                literal,
                                span,
                            });
                        }
                    }
                }
                "expression_statement" => {
                    if let Some(call) = first_child(&n).filter(|c| c.kind() == "call_expression")
                        && let Some((literal, spied)) = self.configured_mock(&call)
                    {
                        // `f.mockReturnValue(5)` configures `f`; a spy configures the spied method.
                        let span = Span::of(&n);
                        let target = spied.or_else(|| {
                            let object = call.child_by_field_name("function")?.child_by_field_name("object")?;
                            (object.kind() != "call_expression").then(|| callee_key(&text(&object, self.source)))
                        });
                        if let Some(callee) = target {
                            out.push(MockReturn { callee, literal, span });
                        }
                    }
                }
                _ => {}
            }
            true
        });
        out
    }

    /// If `call` configures a mock to return a literal: the literal, and the
    /// spied method (`api.get`) when the chain starts at `spyOn(api, "get")`.
    fn configured_mock(&self, call: &Node) -> Option<(Literal, Option<String>)> {
        if call.kind() != "call_expression" {
            return None;
        }
        let function = call.child_by_field_name("function")?;
        let args = arguments(call);
        // vi.fn(() => 5), jest.fn(() => 5)
        if matches!(text(&function, self.source).as_ref(), "vi.fn" | "jest.fn") {
            let f = args.first().filter(|a| is_function(a))?;
            let body = f.child_by_field_name("body")?;
            return Some((self.literal(&unwrap(body))?, None));
        }
        if function.kind() != "member_expression" {
            return None;
        }
        let method = text(&function.child_by_field_name("property")?, self.source).into_owned();
        if !matches!(
            method.as_str(),
            "mockReturnValue"
                | "mockReturnValueOnce"
                | "mockResolvedValue"
                | "mockResolvedValueOnce"
                | "returns"
                | "resolves"
        ) {
            return None;
        }
        let literal = self.literal(&unwrap(*args.first()?))?;
        // The chain's start: vi.spyOn(obj, "m") names the spied method.
        let mut base = function.child_by_field_name("object")?;
        while base.kind() == "call_expression" {
            let f = base.child_by_field_name("function")?;
            let name = text(&f, self.source);
            if name.ends_with("spyOn") || name.ends_with("stub") {
                let a = arguments(&base);
                let spied = match (a.first(), a.get(1).and_then(|m| self.string_value(m))) {
                    (Some(obj), Some(m)) => Some(format!("{}.{m}", callee_key(&text(obj, self.source)))),
                    _ => None,
                };
                return Some((literal, spied));
            }
            match f.kind() {
                "member_expression" => base = f.child_by_field_name("object")?,
                _ => break,
            }
        }
        Some((literal, None))
    }

    fn literal(&self, node: &Node) -> Option<Literal> {
        match node.kind() {
            "true" => Some(Literal::Bool(true)),
            "false" => Some(Literal::Bool(false)),
            "null" | "undefined" => Some(Literal::Null),
            "number" => number(&text(node, self.source)).map(Literal::Number),
            "string" | "template_string" => self.string_value(node).map(Literal::Str),
            "unary_expression" => {
                let op = node
                    .child_by_field_name("operator")
                    .map(|o| text(&o, self.source).into_owned())?;
                match (op.as_str(), self.literal(&node.child_by_field_name("argument")?)?) {
                    ("-", Literal::Number(n)) => Some(Literal::Number(-n)),
                    ("+", Literal::Number(n)) => Some(Literal::Number(n)),
                    ("!", l) => Some(Literal::Bool(!l.truthy())),
                    _ => None,
                }
            }
            _ => None,
        }
    }
}

#[derive(Default)]
struct Scan {
    /// The guard of the node being visited.
    guard: Guard,
    /// Names bound to a test context (`t`, and subtests' `st`).
    contexts: Vec<String>,
    assertions: Vec<Assertion>,
    calls: Vec<String>,
    skip: Option<Skip>,
}

/// The local names an import clause or a binding pattern introduces.
fn collect_bound(node: &Node, source: &[u8], out: &mut Vec<String>) {
    let mut stack = vec![*node];
    let mut cursor = node.walk();
    while let Some(n) = stack.pop() {
        match n.kind() {
            "identifier" | "shorthand_property_identifier_pattern" => out.push(text(&n, source).into_owned()),
            "import_specifier" => {
                if let Some(local) = n.child_by_field_name("alias").or_else(|| n.child_by_field_name("name")) {
                    out.push(text(&local, source).into_owned());
                }
            }
            "pair_pattern" => {
                if let Some(value) = n.child_by_field_name("value") {
                    stack.push(value);
                }
            }
            _ => stack.extend(n.named_children(&mut cursor).collect::<Vec<_>>()),
        }
    }
}

/// Every identifier in a binding target, each without a known value.
fn identifiers(node: &Node, source: &[u8], out: &mut Vec<(String, Option<(Literal, Span)>)>) {
    visit_named(*node, |n| {
        match n.kind() {
            "identifier" | "shorthand_property_identifier_pattern" => {
                out.push((text(&n, source).into_owned(), None));
                return false;
            }
            // `obj.x = ..`, `a[i] = ..` bind no local name; types name no variable.
            "member_expression" | "subscript_expression" | "type_annotation" => return false,
            _ => {}
        }
        true
    });
}

/// The name of a test function's first parameter, the test context (`t`).
fn test_context(function: &Node, source: &[u8]) -> Option<String> {
    if let Some(single) = function.child_by_field_name("parameter") {
        return (single.kind() == "identifier").then(|| text(&single, source).into_owned());
    }
    let params = function.child_by_field_name("parameters")?;
    let first = first_child(&params)?;
    let name = match first.kind() {
        "identifier" => first,
        // TypeScript: `(t: TestContext) =>`
        "required_parameter" => first.child_by_field_name("pattern")?,
        _ => return None,
    };
    (name.kind() == "identifier").then(|| text(&name, source).into_owned())
}

/// testing-library queries that throw when nothing matches.
fn is_query(name: &str) -> bool {
    ["getBy", "getAllBy", "findBy", "findAllBy"]
        .iter()
        .any(|p| name.starts_with(p))
}

fn negate(form: Form) -> Form {
    match form {
        Form::Equal(a, b) => Form::NotEqual(a, b),
        Form::NotEqual(a, b) => Form::Equal(a, b),
        Form::Truthy(a) => Form::Falsy(a),
        Form::Falsy(a) => Form::Truthy(a),
        other => other,
    }
}

struct Chain<'a> {
    /// Property names from the base outwards (`not`, `to`, `be`, ...), the last included.
    names: Vec<String>,
    /// The call the chain starts from (`expect(x)`), if it starts with one.
    base_call: Option<Node<'a>>,
}

fn member_chain<'a>(member: &Node<'a>, source: &[u8]) -> Chain<'a> {
    let mut names = Vec::new();
    let mut node = *member;
    loop {
        match node.kind() {
            "member_expression" => {
                if let Some(p) = node.child_by_field_name("property") {
                    names.push(text(&p, source).into_owned());
                }
                match node.child_by_field_name("object") {
                    Some(o) => node = o,
                    None => break,
                }
            }
            "call_expression" => {
                // `expect(x).resolves.toBe(1)` bottoms out at `expect(x)`; an
                // intermediate call (`.to.have.been.calledWith(..).and`) continues.
                let function = node.child_by_field_name("function");
                match function {
                    Some(f) if f.kind() == "member_expression" && !is_expect_callee(&f, source) => node = f,
                    _ => {
                        names.reverse();
                        return Chain {
                            names,
                            base_call: Some(node),
                        };
                    }
                }
            }
            "await_expression" | "parenthesized_expression" | "non_null_expression" | "as_expression" => {
                match first_child(&node) {
                    Some(n) => node = n,
                    None => break,
                }
            }
            _ => break,
        }
    }
    names.reverse();
    Chain { names, base_call: None }
}

fn is_expect_callee(function: &Node, source: &[u8]) -> bool {
    matches!(text(function, source).as_ref(), "expect.soft" | "chai.expect")
}

fn unwrap(mut node: Node) -> Node {
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

fn has_effects(node: &Node) -> bool {
    let mut stack = vec![*node];
    let mut cursor = node.walk();
    while let Some(n) = stack.pop() {
        if matches!(
            n.kind(),
            "call_expression"
                | "await_expression"
                | "new_expression"
                | "yield_expression"
                | "assignment_expression"
                | "augmented_assignment_expression"
                | "update_expression"
                | "arrow_function"
                | "function_expression"
        ) {
            return true;
        }
        stack.extend(n.named_children(&mut cursor).collect::<Vec<_>>());
    }
    false
}

fn has_if_ancestor(node: &Node) -> bool {
    let mut n = node.parent();
    while let Some(p) = n {
        match p.kind() {
            "if_statement" | "ternary_expression" => return true,
            "arrow_function" | "function_expression" | "function_declaration" => return false,
            _ => n = p.parent(),
        }
    }
    false
}
