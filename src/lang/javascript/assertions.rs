//! Assertions in JavaScript and TypeScript test bodies: `expect` chains,
//! `assert`, the guards around them and what they check.

use super::*;

/// The node kinds whose children may run under a different guard than they do.
pub(super) const GUARDING: &[&str] = &[
    "if_statement",
    "for_in_statement",
    "for_statement",
    "while_statement",
    "ternary_expression",
    "binary_expression",
    "switch_case",
    "switch_default",
    "try_statement",
];

/// Is this `throw` what the test hands to the code rather than a check: thrown
/// whatever happens (no condition around it in its own function) by a callback
/// the test passes to a call inside a `try` body (a hook given to a client,
/// `resume(() => { throw new Error("boom") })`)? The `catch` then receives
/// the code's answer to it. A conditional throw in a callback
/// (`items.forEach((i) => { if (!i.ok) throw .. })`) stays a check.
pub(super) fn thrown_into_code(throw: &Node) -> bool {
    const CONDITIONS: &[&str] = &[
        "if_statement",
        "switch_case",
        "switch_default",
        "for_in_statement",
        "for_statement",
        "while_statement",
        "do_statement",
        "ternary_expression",
        "catch_clause",
    ];
    let mut at = throw.parent();
    let function = loop {
        let Some(p) = at else { return false };
        if CONDITIONS.contains(&p.kind()) {
            return false;
        }
        if JS_FUNCTIONS.contains(&p.kind()) || p.kind() == "method_definition" {
            break p;
        }
        at = p.parent();
    };
    // Handed over: an argument, or inside an array or object given as one.
    let mut up = function.parent();
    loop {
        match up.map(|p| p.kind()) {
            Some("array" | "object" | "pair" | "parenthesized_expression") => up = up.and_then(|p| p.parent()),
            Some("arguments") => break,
            _ => return false,
        }
    }
    let mut child = function;
    let mut at = function.parent();
    while let Some(p) = at {
        if p.kind() == "try_statement" && p.field("body").is_some_and(|b| b.id() == child.id()) {
            return true;
        }
        child = p;
        at = p.parent();
    }
    false
}

/// Does a `catch (e)` hand what it caught to a callback its caller gave, a
/// parameter of an enclosing function (`reject(e)` in a promise's executor,
/// mocha's `done(e)`, `next(e)`)? The failure then fails the test through
/// it. A local function (`report(e)`) or a logger is no such hand.
pub(super) fn hands_on(handler: &Node, source: &[u8]) -> bool {
    let Some(caught) = handler.field("parameter").filter(|p| p.kind() == "identifier") else {
        return false;
    };
    let caught = text(&caught, source);
    let mut callbacks: Vec<String> = Vec::new();
    let mut at = handler.parent();
    while let Some(n) = at {
        if JS_FUNCTIONS.contains(&n.kind()) || n.kind() == "method_definition" {
            if let Some(single) = n.field("parameter") {
                callbacks.push(text(&single, source).into_owned());
            }
            if let Some(params) = n.field("parameters") {
                let mut cursor = params.walk();
                for p in params.named_children(&mut cursor) {
                    let name = match p.kind() {
                        "identifier" => Some(p),
                        "required_parameter" | "optional_parameter" => p.field("pattern"),
                        _ => None,
                    };
                    if let Some(name) = name.filter(|n| n.kind() == "identifier") {
                        callbacks.push(text(&name, source).into_owned());
                    }
                }
            }
        }
        at = n.parent();
    }
    let Some(body) = handler.field("body") else {
        return false;
    };
    let mut handed = false;
    visit_named(body, |n| {
        if n.kind() == "call_expression"
            && n.field("function")
                .is_some_and(|f| f.kind() == "identifier" && callbacks.iter().any(|c| c == text(&f, source).as_ref()))
            && arguments(&n)
                .iter()
                .any(|a| a.kind() == "identifier" && text(a, source) == caught)
        {
            handed = true;
        }
        !handed
    });
    handed
}

pub(super) fn has_effects(node: &Node) -> bool {
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

pub(super) fn has_if_ancestor(node: &Node) -> bool {
    crate::lang::has_ancestor(node, &["if_statement", "ternary_expression"], JS_FUNCTIONS)
}

impl<'s> Walker<'s, '_> {
    /// The span of the nearest enclosing test or group call, if any.
    pub(super) fn enclosing_scope(&self, node: &Node) -> Option<Span> {
        let mut n = node.parent();
        while let Some(p) = n {
            if p.kind() == "call_expression"
                && let Some(function) = p.field("function")
                && let Some(path) = callee_path(&function, self.source)
                && (TEST_NAMES.contains(&path[0].as_str()) || GROUP_NAMES.contains(&path[0].as_str()))
                && !path[1..].iter().any(|p| HOOK_NAMES.contains(&p.as_str()))
            {
                return Some(Span::of(&p));
            }
            n = p.parent();
        }
        None
    }

    /// Scan a body with these test context names in scope (`t` in
    /// `test("x", (t) => ..)`, whose methods assert in tape, ava, node-tap and
    /// node:test), and these names known to hold non-empty arrays.
    pub(super) fn scan_in(&self, body: &Node, contexts: Vec<String>, tables: Vec<String>) -> Scan {
        let mut scan = Scan {
            contexts,
            tables,
            ..Scan::default()
        };
        let mut stack = vec![(*body, Guard::default())];
        let mut cursor = body.walk();
        while let Some((n, guard)) = stack.pop() {
            scan.guard = guard;
            if n.kind() == "if_statement" {
                scan.ifs.push((n.id(), guard));
            }
            match n.kind() {
                // `// @ts-expect-error`: the compiler fails the build when the
                // next line compiles. Not one that names only a diagnostic
                // of the test's own unused code (`[ts6133]`).
                COMMENT
                    if text(&n, self.source)
                        .trim_start_matches(['/', '*', ' '])
                        .strip_prefix("@ts-expect-error")
                        .is_some_and(|rest| !silences_unused(rest)) =>
                {
                    scan.assertions.push(type_check(&n));
                    continue;
                }
                COMMENT | "string" | "template_string" => continue,
                // `type verify = Expect<Equal<Expected, Actual>>`: a check the
                // compiler makes; a test of types has no other.
                "type_alias_declaration" if n.field("value").is_some_and(|v| v.kind() == "generic_type") => {
                    scan.assertions.push(type_check(&n));
                    continue;
                }
                // `let _t!: z.ZodEnumDef<readonly ["a"]>`: a declaration that
                // only instantiates a type, with nothing to run.
                "variable_declarator"
                    if n.field("value").is_none() && n.field("type").is_some_and(|t| instantiates(&t, self.source)) =>
                {
                    scan.assertions.push(type_check(&n));
                    continue;
                }
                "call_expression" => self.call(&n, &mut scan),
                // `if (x !== 2) throw new Error("..")` is a hand-written assertion.
                // A `throw` the test hands to the code inside a `try` is the
                // input under test, not a check the handler could swallow.
                "throw_statement" if !(guard.swallowed_by.is_some() && thrown_into_code(&n)) => {
                    let form = self.failure(&n, &mut scan);
                    scan.assertions
                        .push(Assertion::bare(Span::of(&n), form, "fail", scan.guard));
                }
                "expression_statement" => {
                    if let Some(unfinished) = self.unfinished(&n) {
                        scan.unfinished.push(unfinished);
                    }
                    // chai property assertions: `expect(x).to.be.true;`, `x.should.exist;`
                    if let Some(member) = first_child(&n).filter(|e| e.kind() == "member_expression")
                        && let Some(form) = self.property_assertion(&member)
                    {
                        let chain = member_chain(&member, self.source);
                        scan.assertions.push(Assertion {
                            span: Span::of(&member),
                            form,
                            matcher: chain.names.join("."),
                            parts: chain.base_call.map(|b| self.argument_keys(&b)).unwrap_or_default(),
                            guard,
                            values: self.checked_values(&member),
                        });
                    }
                }
                _ => {}
            }
            if GUARDING.contains(&n.kind()) {
                let children: Vec<Node> = n.named_children(&mut cursor).collect();
                let guards = self.child_guards(&n, &children, guard, &scan);
                stack.extend(children.into_iter().zip(guards));
            } else {
                // Children run as their parent does: no allocation for the common case.
                stack.extend(n.named_children(&mut cursor).map(|c| (c, guard)));
            }
        }
        scan.assertions.sort_by_key(|a| a.span);
        scan
    }

    pub(super) fn call(&self, call: &Node, scan: &mut Scan) {
        let Some(function) = call.field("function") else {
            return;
        };
        let name = match function.kind() {
            "identifier" => text(&function, self.source).into_owned(),
            "member_expression" => function
                .field("property")
                .map(|p| text(&p, self.source).into_owned())
                .unwrap_or_default(),
            // `st['throws'](...)`
            "subscript_expression" => function
                .field("index")
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
            && function.field("object").is_some_and(|o| {
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
                .field("object")
                .is_some_and(|o| scan.contexts.iter().any(|c| text(&o, self.source) == c.as_str()));
        // QUnit's `assert.expect(n)` is a plan, like tape's `t.plan(n)`.
        if on_context && name == "expect" {
            scan.calls.push("plan".to_string());
        }
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
        // Only an explicit failure reads the statement around it (its `if`).
        let form = match form {
            Some(Form::Fail) => Some(
                call.parent()
                    .filter(|p| p.kind() == "expression_statement")
                    .map_or(Form::Fail, |statement| self.failure(&statement, scan)),
            ),
            form => form,
        };
        if let Some(form) = form {
            let mut values = call
                .field("arguments")
                .map(|a| values(&a, self.source, COMMENT))
                .unwrap_or_default();
            values.extend(self.checked_values(&function));
            let chain = (function.kind() == "member_expression" && !on_context)
                .then(|| member_chain(&function, self.source))
                .filter(|c| c.base_call.is_some());
            let (matcher, mut parts) = match chain {
                // `expect(x).not.toBe(5)`: `not.toBe`, with `x` first.
                Some(chain) => (
                    chain.names.join("."),
                    chain.base_call.map(|b| self.argument_keys(&b)).unwrap_or_default(),
                ),
                // `t.equal(a, b)`: the context's name varies, the method does not.
                None if on_context => (name.clone(), Vec::new()),
                None => (callee_key(&text(&function, self.source)), Vec::new()),
            };
            parts.extend(self.argument_keys(call));
            let form = self.unnegated(call, form, &mut parts);
            // `expectTypeOf(x).toEqualTypeOf<T>()` and `assertType<T>(x)` are
            // checked by the compiler whatever runs ([`type_check`]).
            let typed = self.type_assertion(&function, &name);
            scan.assertions.push(Assertion {
                guard: if typed { Guard::default() } else { scan.guard },
                span: Span::of(call),
                form,
                matcher,
                parts,
                values,
            });
        }
    }

    /// Is this call a check of types (`assertType<T>(x)`, a matcher on
    /// `expectTypeOf(x)`)?
    pub(super) fn type_assertion(&self, function: &Node, name: &str) -> bool {
        if function.kind() == "identifier" {
            return name == "assertType";
        }
        member_chain(function, self.source)
            .base_call
            .and_then(|base| base.field("function"))
            .is_some_and(|f| text(&f, self.source) == "expectTypeOf")
    }

    /// An expression statement that starts a Jest/Vitest/chai assertion and
    /// never makes it: `expect(x);` (or awaited) with no matcher, or a chain
    /// that ends before its matcher is called (`expect(x).toBeTruthy;`,
    /// `expect(p).rejects;`). chai's property assertions
    /// (`expect(x).to.be.true;`) are made by the property and are not this.
    pub(super) fn unfinished(&self, statement: &Node) -> Option<Unfinished> {
        let mut e = first_child(statement)?;
        if e.kind() == "await_expression" {
            e = first_child(&e)?;
        }
        let starts = |call: &Node| {
            call.kind() == "call_expression"
                && call.field("function").is_some_and(|f| {
                    matches!(
                        callee_key(&text(&f, self.source)).as_str(),
                        "expect" | "expect.soft" | "chai.expect"
                    )
                })
        };
        let lacks = match e.kind() {
            "call_expression" if starts(&e) => "no matcher",
            "member_expression" => {
                let chain = member_chain(&e, self.source);
                let last = chain.names.last()?;
                let jest_matcher = last
                    .strip_prefix("to")
                    .is_some_and(|rest| rest.starts_with(|c: char| c.is_ascii_uppercase()));
                let modifier = matches!(last.as_str(), "not" | "resolves" | "rejects");
                if !chain.base_call.is_some_and(|b| starts(&b)) || !(jest_matcher || modifier) {
                    return None;
                }
                if jest_matcher {
                    "the matcher is not called"
                } else {
                    "no matcher"
                }
            }
            _ => return None,
        };
        Some(Unfinished {
            span: Span::of(statement),
            text: display(statement, self.source),
            lacks: lacks.to_string(),
        })
    }

    /// A call's arguments as [`token_key`]s.
    /// A truth check of a negation (`assert.ok(!x)`, `t.falsy(!x)`) read
    /// as the opposite check of the value negated (`t.false(x)`,
    /// `t.truthy(x)`): the same check whichever way it is written (issue
    /// 64: p-queue's `t.false(x)` became `assert.ok(!x)`).
    fn unnegated(&self, call: &Node, form: Form, parts: &mut [String]) -> Form {
        let flip: fn(Operand) -> Form = match form {
            Form::Truthy(_) => Form::Falsy,
            Form::Falsy(_) => Form::Truthy,
            _ => return form,
        };
        let Some(first) = arguments(call).first().map(|a| unwrap(*a)) else {
            return form;
        };
        let negated =
            first.kind() == "unary_expression" && first.field("operator").is_some_and(|o| text(&o, self.source) == "!");
        let Some(inner) = first.field("argument").filter(|_| negated) else {
            return form;
        };
        let key = token_key(&first, self.source);
        match parts.iter_mut().find(|p| **p == key) {
            Some(part) => {
                *part = token_key(&inner, self.source);
                flip(self.operand(&inner))
            }
            None => form,
        }
    }

    pub(super) fn argument_keys(&self, call: &Node) -> Vec<String> {
        arguments(call).iter().map(|a| token_key(a, self.source)).collect()
    }

    /// The values `expect(..)` checks, when `member` is a chain that starts at one.
    pub(super) fn checked_values(&self, member: &Node) -> Vec<String> {
        if member.kind() != "member_expression" {
            return Vec::new();
        }
        member_chain(member, self.source)
            .base_call
            .and_then(|base| base.field("arguments"))
            .map(|a| values(&a, self.source, COMMENT))
            .unwrap_or_default()
    }

    /// Does this subtree assert?
    /// `contexts` are the test context names in scope (`t`), whose methods assert.
    pub(super) fn asserts(&self, node: &Node, contexts: &[String]) -> bool {
        !self.scan_in(node, contexts.to_vec(), Vec::new()).assertions.is_empty()
    }

    /// The guard of each child of `node`, given the guard of `node`.
    pub(super) fn child_guards(&self, node: &Node, children: &[Node], guard: Guard, scan: &Scan) -> Vec<Guard> {
        let contexts = &scan.contexts[..];
        let conditional = Guard {
            conditional: true,
            ..guard
        };
        let id = |name: &'static str| node.field(name).map(|c| c.id());
        let guarded = |fields: &[&'static str]| -> Vec<Guard> {
            let ids: Vec<_> = fields.iter().filter_map(|f| id(f)).collect();
            guards_where(children, guard, |c| !ids.contains(&c.id()))
        };
        match node.kind() {
            "if_statement" => {
                let branches: Vec<Node> = ["consequence", "alternative"]
                    .iter()
                    .filter_map(|f| node.field(f))
                    .collect();
                if branches.len() == 2 && branches.iter().all(|b| self.asserts(b, contexts)) {
                    vec![guard; children.len()]
                } else {
                    guarded(&["consequence", "alternative"])
                }
            }
            "for_in_statement" => {
                // `for (const x of [1, 2])` and `for (const c of cases)` over a table always run their body.
                let nonempty = node.field("right").is_some_and(|r| {
                    (r.kind() == "array" && first_child(&r).is_some())
                        || (r.kind() == "identifier" && scan.tables.iter().any(|t| t == &text(&r, self.source)))
                });
                if nonempty {
                    vec![guard; children.len()]
                } else {
                    guarded(&["body"])
                }
            }
            "for_statement" | "while_statement" => guarded(&["body"]),
            "ternary_expression" => guarded(&["consequence", "alternative"]),
            "binary_expression" => {
                let op = node.field("operator").map(|o| text(&o, self.source).into_owned());
                if matches!(op.as_deref(), Some("&&" | "||" | "??")) {
                    guarded(&["right"])
                } else {
                    vec![guard; children.len()]
                }
            }
            "switch_case" | "switch_default" => vec![conditional; children.len()],
            "try_statement" => {
                let handler = node.field("handler");
                let swallower = handler.filter(|h| {
                    h.field("body").is_some_and(|b| {
                        !self.asserts(&b, contexts)
                            && !contains_kind(&b, "throw_statement", JS_FUNCTIONS)
                            && !hands_on(h, self.source)
                    })
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
                            // `try { f(); throw new Error("no error") }`: the
                            // handler runs whenever the test passes.
                            match node.field("body").is_some_and(|b| self.ends_in_failure(&b)) {
                                true => guard,
                                false => Guard {
                                    caught: true,
                                    ..conditional
                                },
                            }
                        } else {
                            guard
                        }
                    })
                    .collect()
            }
            _ => vec![guard; children.len()],
        }
    }

    /// Does `block` end in an explicit failure (`throw ..`, `fail(..)`,
    /// `expect.fail(..)`, `assert.fail(..)`, `t.fail(..)`)? Then the `try`
    /// it is the body of fails when nothing is thrown.
    pub(super) fn ends_in_failure(&self, block: &Node) -> bool {
        let mut cursor = block.walk();
        let Some(last) = block.named_children(&mut cursor).filter(|c| c.kind() != COMMENT).last() else {
            return false;
        };
        match last.kind() {
            "throw_statement" => true,
            "expression_statement" => first_child(&last)
                .filter(|c| c.kind() == "call_expression")
                .and_then(|c| c.field("function"))
                .is_some_and(|f| {
                    let callee = callee_key(&text(&f, self.source));
                    callee == "fail" || callee.ends_with(".fail")
                }),
            _ => false,
        }
    }

    /// `t.equal(a, b)`, `t.ok(x)`, `t.deepEqual(..)`, `t.is(..)`, `t.throws(..)`, ...
    pub(super) fn context_assertion(&self, call: &Node, name: &str) -> Option<Form> {
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
            // Assertions a project adds to the context (tape's `Test.prototype`
            // extensions, ava macros): named like what they check.
            _ if [
                "equal", "Equal", "assert", "Assert", "match", "Match", "throws", "Throws",
            ]
            .iter()
            .any(|w| name.contains(w)) =>
            {
                Form::Other
            }
            _ => return None,
        })
    }

    pub(super) fn assertion(&self, call: &Node, function: &Node, name: &str) -> Option<Form> {
        let args = arguments(call);
        let op = |i: usize| args.get(i).map(|a| self.operand(a));
        if function.kind() == "identifier" {
            return match name {
                // An `assert` the project's own module exports (superstruct's
                // `assert(value, struct)`) checks what that code says, not
                // that its first argument is truthy.
                "assert" if self.wrappers.iter().any(|w| w == name) => Some(Form::Other),
                "assert" => Some(op(0).map_or(Form::Other, Form::Truthy)),
                // `expect(x)` alone asserts nothing: the chain around it does.
                "expect" | "expectTypeOf" => None,
                "assertType" => Some(Form::Other),
                _ if is_query(name) => Some(Form::Other),
                _ => None,
            };
        }
        // An HTTP test client's `request(app).get("/").expect(200)`: a
        // request's chained `expect` checks the response (its status, a
        // header, the body, or a callback that throws).
        if self.http_client
            && name == "expect"
            && !args.is_empty()
            && function
                .field("object")
                .is_some_and(|o| unwrap(o).kind() == "call_expression")
        {
            return Some(Form::Other);
        }
        // Member calls: expect chains, assert.*, should chains, queries.
        let chain = member_chain(function, self.source);
        if let Some(base) = &chain.base_call {
            let base_name = base
                .field("function")
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
        let mut object = function
            .field("object")
            .map(|o| text(&o, self.source).into_owned())
            .unwrap_or_default();
        // `isAssert.truthy(x)` of `import {assert as isAssert} from '../source'`.
        if let Some((_, exported)) = self.renamed.iter().find(|(local, _)| *local == object) {
            object.clone_from(exported);
        }
        if object == "expect" {
            // expect.assertions(n), expect.hasAssertions(), expect.fail(); the
            // asymmetric matchers (`expect.any(..)`, `expect.objectContaining(..)`)
            // are parts of an expected value, and `expect.extend` configures.
            return match name {
                "fail" => Some(Form::Fail),
                "assertions" | "hasAssertions" => Some(Form::Other),
                _ => None,
            };
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
}

/// TypeScript's diagnostics of code declared and never used: 6133 (a
/// variable, a parameter, a function), 6138 (a property), 6192 (all
/// imports), 6196 (a type), 6198 (all destructured elements), 6205 (all
/// type parameters).
const UNUSED_DIAGNOSTICS: &[&str] = &["6133", "6138", "6192", "6196", "6198", "6205"];

/// Does the rest of a `@ts-expect-error` comment name only diagnostics of
/// unused code (`[ts6133] -- a helper the test never calls`)? Then it
/// silences the test's own housekeeping; it checks no type of the code
/// (issue 64: remeda's cleanup of unused helpers dropped two).
fn silences_unused(rest: &str) -> bool {
    let codes: Vec<&str> = rest
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter_map(|w| {
            w.strip_prefix("ts")
                .or_else(|| w.strip_prefix("TS"))
                .filter(|d| d.len() == 4 && d.chars().all(|c| c.is_ascii_digit()))
        })
        .collect();
    !codes.is_empty() && codes.iter().all(|c| UNUSED_DIAGNOSTICS.contains(c))
}
