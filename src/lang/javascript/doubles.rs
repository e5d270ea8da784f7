//! Test doubles in JavaScript and TypeScript tests: `jest.mock`, `vi.mock`,
//! `sinon`, spies and stubs, and the values they are configured to return.

use super::*;

/// Methods that give a spy its own behaviour (jest/vitest, sinon, jasmine's `and.*`).
pub(super) const CONFIGURES: &[&str] = &[
    "mockImplementation",
    "mockImplementationOnce",
    "mockReturnValue",
    "mockReturnValueOnce",
    "mockResolvedValue",
    "mockResolvedValueOnce",
    "mockRejectedValue",
    "mockRejectedValueOnce",
    "returns",
    "resolves",
    "rejects",
    "throws",
    "callsFake",
    "returnValue",
    "returnValues",
    "callFake",
    "resolveTo",
    "rejectWith",
    "throwError",
];

/// An array display as a collection literal (its length; elements are not compared).
pub(super) fn array(node: &Node) -> Option<Literal> {
    (node.kind() == "array").then(|| {
        let mut cursor = node.walk();
        Literal::Collection(node.named_children(&mut cursor).filter(|c| c.kind() != COMMENT).count())
    })
}

/// A call that mocks, stubs or spies on a target.
pub(super) enum Site {
    Mock(Mock),
    /// `vi.spyOn(api, "get")` without a behaviour in its own chain: whether it
    /// replaces the method depends on a later `mockReturnValue` on it.
    Spy(Mock, Option<String>),
    /// A double with no target (`vi.fn()`, `sinon.spy()`).
    Callback,
}

/// Does the chain around `call` (its parents `.a().b()`) give it a behaviour?
pub(super) fn configured_in_chain(call: &Node, source: &[u8]) -> bool {
    let mut node = *call;
    while let Some(parent) = node.parent() {
        match parent.kind() {
            "member_expression" => {
                if parent
                    .field("property")
                    .is_some_and(|p| CONFIGURES.contains(&text(&p, source).as_ref()))
                {
                    return true;
                }
            }
            "call_expression" => {}
            _ => return false,
        }
        node = parent;
    }
    false
}

impl<'s> Walker<'s, '_> {
    /// What `call` mocks, if it is a mock, stub or spy.
    pub(super) fn mock_site(&self, call: &Node) -> Option<Site> {
        let function = call.field("function")?;
        // Most calls are not mocks: look at the last name before building the chain.
        let name = match function.kind() {
            "identifier" => function,
            "member_expression" => function.field("property")?,
            _ => return None,
        };
        if !matches!(
            &self.source[name.byte_range()],
            b"mock"
                | b"doMock"
                | b"unstable_mockModule"
                | b"module"
                | b"spyOn"
                | b"method"
                | b"getter"
                | b"setter"
                | b"stub"
                | b"replace"
                | b"replaceGetter"
                | b"replaceSetter"
                | b"spy"
                | b"fake"
                | b"fn"
                | b"createSpy"
                | b"createSpyObj"
                | b"func"
                | b"object"
        ) {
            return None;
        }
        let callee = chain(&function, self.source)?;
        let (receiver, last) = callee.rsplit_once('.').unwrap_or(("", &callee));
        let args = arguments(call);
        let span = Span::of(call);
        let member = |replaces: bool| {
            let object = chain(&unwrap(*args.first()?), self.source)?;
            let member = self.string_value(args.get(1)?)?;
            Some(Mock {
                span,
                target: MockTarget::Member { object, member },
                replaces,
            })
        };
        let doubles = receiver.to_ascii_lowercase();
        let sinon = doubles.contains("sinon") || doubles.contains("sandbox") || receiver == "td";
        Some(match (receiver, last) {
            ("vi" | "jest" | "vitest", "mock" | "doMock" | "unstable_mockModule") | ("mock" | "t.mock", "module") => {
                let spec = args.first().and_then(|a| {
                    self.string_value(a).or_else(|| {
                        // vi.mock(import("./x"), ..)
                        let inner = unwrap(*a);
                        (inner.kind() == "call_expression"
                            && inner.field("function").is_some_and(|f| f.kind() == "import"))
                        .then(|| arguments(&inner).first().and_then(|s| self.string_value(s)))
                        .flatten()
                    })
                })?;
                // vi.mock(path, { spy: true }) spies on the real module instead of replacing it.
                let spy_option = args.get(1).filter(|o| o.kind() == "object").is_some_and(|o| {
                    let mut cursor = o.walk();
                    o.named_children(&mut cursor).any(|pair| {
                        pair.kind() == "pair"
                            && pair.field("key").is_some_and(|k| text(&k, self.source) == "spy")
                            && pair.field("value").is_some_and(|v| v.kind() == "true")
                    })
                });
                Site::Mock(Mock {
                    span,
                    target: MockTarget::Module {
                        specifier: spec,
                        members: args.get(1).and_then(|f| self.factory_members(f)),
                        automock: !args.get(1).is_some_and(is_function),
                    },
                    replaces: !spy_option,
                })
            }
            (_, "spyOn") => {
                let spy = member(false)?;
                if configured_in_chain(call, self.source) {
                    Site::Mock(Mock { replaces: true, ..spy })
                } else {
                    Site::Spy(spy, self.declared_name(call))
                }
            }
            // node:test: mock.method(obj, "m", impl?) calls through without an implementation.
            ("mock" | "t.mock" | "context.mock", "method" | "getter" | "setter") => Site::Mock(member(args.len() > 2)?),
            (_, "stub" | "replace" | "replaceGetter" | "replaceSetter") if sinon && args.len() >= 2 => {
                Site::Mock(member(true)?)
            }
            (_, "spy") if sinon && args.len() >= 2 => {
                let spy = member(false)?;
                Site::Spy(spy, self.declared_name(call))
            }
            ("vi" | "jest", "fn") | ("jasmine", "createSpy" | "createSpyObj") | ("td", "func" | "object") => {
                Site::Callback
            }
            ("mock" | "t.mock", "fn") => Site::Callback,
            (_, "spy" | "stub" | "fake") if sinon => Site::Callback,
            _ => return None,
        })
    }

    /// The exports a `vi.mock` factory replaces, when it spreads the real
    /// module in (`{ ...await importOriginal(), total: vi.fn() }`); `None`
    /// when it replaces everything or cannot be read.
    pub(super) fn factory_members(&self, factory: &Node) -> Option<Vec<String>> {
        if !is_function(factory) {
            return None;
        }
        let body = unwrap(factory.field("body")?);
        let object = if body.kind() == "object" {
            body
        } else {
            let mut found = None;
            visit_named(body, |n| {
                if found.is_none() && n.kind() == "return_statement" {
                    found = first_child(&n).map(unwrap).filter(|o| o.kind() == "object");
                }
                found.is_none() && !(is_function(&n) && n.id() != body.id())
            });
            found?
        };
        let mut cursor = object.walk();
        let entries: Vec<Node> = object.named_children(&mut cursor).collect();
        if !entries.iter().any(|e| e.kind() == "spread_element") {
            return None;
        }
        Some(
            entries
                .iter()
                .filter_map(|e| match e.kind() {
                    "pair" | "method_definition" => e
                        .field("key")
                        .or_else(|| e.field("name"))
                        .map(|k| string_or_name(&k, self.source)),
                    "shorthand_property_identifier" => Some(text(e, self.source).into_owned()),
                    _ => None,
                })
                .collect(),
        )
    }

    /// `const spy = <call>`: the name the call's value is bound to.
    pub(super) fn declared_name(&self, call: &Node) -> Option<String> {
        let mut node = *call;
        while let Some(parent) = node.parent() {
            match parent.kind() {
                "variable_declarator" | "assignment_expression" => {
                    let name = parent.field("name").or_else(|| parent.field("left"))?;
                    return chain(&name, self.source);
                }
                "await_expression" | "parenthesized_expression" | "as_expression" | "non_null_expression" => {
                    node = parent
                }
                _ => return None,
            }
        }
        None
    }

    /// Every mock site, and the tests each is in effect for: module mocks
    /// are hoisted over the whole file; others apply to the test or the
    /// `describe` they sit in (its `beforeEach` included), or to every test.
    /// Note a call that mocks, or gives a spy its behaviour.
    pub(super) fn mock_call(&self, n: Node<'s>, scan: &mut MockScan<'s>) {
        match self.mock_site(&n) {
            Some(Site::Mock(mock)) => scan.sites.push((mock, None, false, n)),
            Some(Site::Spy(mock, name)) => scan.sites.push((mock, name, true, n)),
            Some(Site::Callback) => scan.callbacks += 1,
            None => {}
        }
        // `api.get.mockReturnValue(..)`, `vi.mocked(api.get).mockImplementation(..)`, `spy.returns(..)`
        if let Some(function) = n.field("function")
            && function.kind() == "member_expression"
            && function
                .field("property")
                .is_some_and(|p| CONFIGURES.contains(&text(&p, self.source).as_ref()))
            && let Some(mut object) = function.field("object")
        {
            if object.kind() == "call_expression"
                && let Some(inner) = object.field("function")
                && text(&inner, self.source).ends_with("mocked")
                && let Some(arg) = arguments(&object).first()
            {
                object = *arg;
            }
            if let Some(key) = chain(&object, self.source) {
                scan.configured.push((key, n));
            }
        }
    }

    /// Every mock site, and the tests each is in effect for: module mocks
    /// are hoisted over the whole file; others apply to the test or the
    /// `describe` they sit in (its `beforeEach` included), or to every test.
    pub(super) fn mocks(&mut self, scan: MockScan<'s>) {
        let MockScan {
            sites,
            configured,
            callbacks,
            returns,
        } = scan;
        self.file.callback_spies = callbacks;
        // A return configured at the top of the file, in a `describe` or its
        // `beforeEach`, is in effect in every test of that scope (one a test
        // configures itself is read with the test).
        for (ret, node) in returns {
            // A value named by a local of a `beforeEach` or `describe` may be
            // another object in the test; one on `this` is shared.
            if matches!(&ret.value, Returned::Name(name) if !name.starts_with("this.")) {
                continue;
            }
            let scope = self.enclosing_scope(&node);
            if scope.is_some_and(|s| self.file.tests.iter().any(|t| t.extent == s)) {
                continue;
            }
            for test in &mut self.file.tests {
                if scope.is_none_or(|s| s.contains(test.span)) && !test.mock_returns.contains(&ret) {
                    test.mock_returns.push(ret.clone());
                }
            }
        }
        // Where each configuration happens, looked up once.
        let configured: Vec<(String, Option<Span>)> = configured
            .into_iter()
            .map(|(receiver, call)| (receiver, self.enclosing_scope(&call)))
            .collect();
        for (index, (mut mock, name, spy, node)) in sites.into_iter().enumerate() {
            let hoisted = matches!(mock.target, MockTarget::Module { .. })
                && text(&node.field("function").expect("a call"), self.source).ends_with(".mock");
            let scope = if hoisted { None } else { self.enclosing_scope(&node) };
            if spy {
                // Configured where the spy is in effect: in its test, or (for a
                // spy in a `beforeEach` or at the top) anywhere inside its scope.
                let key = mock.target.describe();
                mock.replaces = configured.iter().any(|(receiver, at)| {
                    (*receiver == key || name.as_deref() == Some(receiver.as_str()))
                        && match (scope, at) {
                            (None, _) => true,
                            (Some(spy_scope), Some(at)) => spy_scope.contains(*at),
                            (Some(_), None) => false,
                        }
                });
            }
            for test in &mut self.file.tests {
                if scope.is_none_or(|s| s.contains(test.span)) {
                    test.mocks.push(index);
                }
            }
            self.file.mocks.push(mock);
        }
    }

    /// A mock configured with what it returns at `n`: `const f =
    /// vi.fn().mockReturnValue(5)`, `f.mockResolvedValue(user)`,
    /// `vi.spyOn(api, "get").mockReturnValue(5)`, `jest.fn(() => 5)`,
    /// sinon's `stub().returns(5)`, `vi.mocked(api.get).mockReturnValue(5)`,
    /// `f.mockImplementation(compute)`, `obj.load = vi.fn().mockReturnValue(5)`,
    /// `ctx = { api: { load: vi.fn().mockReturnValue(5) } }`.
    pub(super) fn mock_return_at(&self, n: Node, out: &mut Vec<MockReturn>) {
        let span = Span::of(&n);
        match n.kind() {
            "variable_declarator" => {
                if let (Some(name), Some(value)) = (n.field("name"), n.field("value"))
                    && name.kind() == "identifier"
                {
                    self.configured_into(&unwrap(value), &text(&name, self.source), span, out);
                }
            }
            "expression_statement" => {
                let Some(expr) = first_child(&n) else { return };
                match expr.kind() {
                    "assignment_expression" => {
                        if let (Some(left), Some(right)) = (expr.field("left"), expr.field("right"))
                            && let Some(target) = chain(&left, self.source).filter(|k| !k.contains('('))
                        {
                            self.configured_into(&unwrap(right), &target, span, out);
                        }
                    }
                    "call_expression" => {
                        // `f.mockReturnValue(5)` configures `f`; a spy configures the spied method.
                        let Some((value, spied)) = self.configured_mock(&expr) else {
                            return;
                        };
                        let target = spied.or_else(|| {
                            let object = expr.field("function")?.field("object")?;
                            chain(&self.mocked(object), self.source).filter(|k| !k.contains('('))
                        });
                        if let Some(callee) = target {
                            out.push(MockReturn { callee, value, span });
                        }
                    }
                    _ => {}
                }
            }
            _ => {}
        }
    }

    /// `vi.mocked(api.get)` is `api.get`, typed as a mock.
    fn mocked<'a>(&self, node: Node<'a>) -> Node<'a> {
        if node.kind() == "call_expression"
            && node
                .field("function")
                .is_some_and(|f| matches!(text(&f, self.source).as_ref(), "vi.mocked" | "jest.mocked" | "mocked"))
            && let Some(arg) = arguments(&node).first()
        {
            return unwrap(*arg);
        }
        node
    }

    /// What `value`, bound to `target`, configures: a mock (`target`
    /// itself), or an object literal holding mocks (`target.key`).
    fn configured_into(&self, value: &Node, target: &str, span: Span, out: &mut Vec<MockReturn>) {
        if let Some((returned, spied)) = self.configured_mock(value) {
            if let Some(spied) = spied {
                out.push(MockReturn {
                    callee: spied,
                    value: returned.clone(),
                    span,
                });
            }
            out.push(MockReturn {
                callee: target.to_string(),
                value: returned,
                span,
            });
        } else if value.kind() == "object" {
            let mut cursor = value.walk();
            for pair in value.named_children(&mut cursor).filter(|p| p.kind() == "pair") {
                if let (Some(key), Some(inner)) = (pair.field("key"), pair.field("value"))
                    && matches!(key.kind(), "property_identifier" | "string")
                {
                    let key = string_or_name(&key, self.source);
                    self.configured_into(&unwrap(inner), &format!("{target}.{key}"), span, out);
                }
            }
        }
    }

    /// The value a function returns when it only returns one (`() => 5`,
    /// `() => { return "ok" }`).
    fn implementation_value(&self, f: &Node) -> Option<Returned> {
        let mut body = f.field("body")?;
        if body.kind() == "statement_block" {
            let mut cursor = body.walk();
            let statements: Vec<Node> = body
                .named_children(&mut cursor)
                .filter(|c| c.kind() != COMMENT)
                .collect();
            let [only] = statements.as_slice() else { return None };
            body = first_child(only).filter(|_| only.kind() == "return_statement")?;
        }
        let body = unwrap(body);
        let value = self.returned(&body);
        matches!(value, Returned::Literal(_)).then_some(value)
    }

    /// What a value given to `mockReturnValue(..)` is to an assertion.
    fn returned(&self, value: &Node) -> Returned {
        if let Some(literal) = self.literal(value) {
            return Returned::Literal(literal);
        }
        match value.kind() {
            "identifier" | "member_expression" | "this" => match chain(value, self.source) {
                Some(name) => Returned::Name(name),
                None => Returned::Other,
            },
            _ => Returned::Other,
        }
    }

    /// If `call` configures a mock with what it returns: that, and the
    /// spied method (`api.get`) when the chain starts at `spyOn(api, "get")`.
    pub(super) fn configured_mock(&self, call: &Node) -> Option<(Returned, Option<String>)> {
        if call.kind() != "call_expression" {
            return None;
        }
        let function = call.field("function")?;
        let args = arguments(call);
        // vi.fn(() => 5), jest.fn(() => 5)
        if matches!(text(&function, self.source).as_ref(), "vi.fn" | "jest.fn") {
            let f = args.first().filter(|a| is_function(a))?;
            return Some((self.implementation_value(f)?, None));
        }
        if function.kind() != "member_expression" {
            return None;
        }
        let method = text(&function.field("property")?, self.source).into_owned();
        let value = match method.as_str() {
            "mockReturnValue"
            | "mockReturnValueOnce"
            | "mockResolvedValue"
            | "mockResolvedValueOnce"
            | "returns"
            | "resolves" => self.returned(&unwrap(*args.first()?)),
            "mockImplementation" | "mockImplementationOnce" | "callsFake" => args
                .first()
                .filter(|a| is_function(a))
                .and_then(|f| self.implementation_value(f))
                .unwrap_or(Returned::Computed),
            "mockRejectedValue" | "mockRejectedValueOnce" | "throws" | "rejects" | "callThrough" => Returned::Computed,
            _ => return None,
        };
        // The chain's start: vi.spyOn(obj, "m") names the spied method.
        let mut base = function.field("object")?;
        while base.kind() == "call_expression" {
            let f = base.field("function")?;
            let name = text(&f, self.source);
            if name.ends_with("spyOn") || name.ends_with("stub") {
                let a = arguments(&base);
                let spied = match (
                    a.first().and_then(|o| chain(o, self.source)),
                    a.get(1).and_then(|m| self.string_value(m)),
                ) {
                    (Some(obj), Some(m)) => Some(format!("{obj}.{m}")),
                    _ => None,
                };
                return Some((value, spied));
            }
            match f.kind() {
                "member_expression" => base = f.field("object")?,
                _ => break,
            }
        }
        Some((value, None))
    }
}
