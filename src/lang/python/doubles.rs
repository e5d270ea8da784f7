//! Test doubles in Python tests: `unittest.mock` patches and `Mock()`s, what
//! they replace and who owns them, and the values they are configured to return.

use super::*;

/// Methods whose patches apply to every test of their class.
pub(super) const SETUP_METHODS: &[&str] = &[
    "setUp",
    "asyncSetUp",
    "setUpClass",
    "setUpTestData",
    "setup_method",
    "setup_class",
    "setup",
];

/// A call that patches, stubs or spies on a target, and what it targets.
pub(super) fn mock_site(call: &Node, source: &[u8]) -> Option<Result<Vec<Mock>, ()>> {
    let function = call.field("function")?;
    // Most calls are not mocks: look at the last name before building the chain.
    let name = match function.kind() {
        "identifier" => function,
        "attribute" => function.field("attribute")?,
        _ => return None,
    };
    if !matches!(
        &source[name.byte_range()],
        b"patch"
            | b"object"
            | b"multiple"
            | b"setattr"
            | b"spy"
            | b"stub"
            | b"async_stub"
            | b"Mock"
            | b"MagicMock"
            | b"AsyncMock"
            | b"NonCallableMock"
            | b"NonCallableMagicMock"
    ) {
        return None;
    }
    let callee = chain(&function, source)?;
    let parts: Vec<&str> = callee.split('.').collect();
    let (last, previous) = (parts[parts.len() - 1], parts.len().checked_sub(2).map(|i| parts[i]));
    let args = positional_args(call);
    let span = Span::of(call);
    // `patch.object(settings, "DEBUG", True)`, `patch.multiple(apps, ready=False)`:
    // a literal replaces data, not code.
    let keyword_node = |key: &str| {
        let list = call.field("arguments")?;
        let mut cursor = list.walk();
        list.named_children(&mut cursor)
            .find(|a| a.kind() == "keyword_argument" && a.field("name").is_some_and(|n| text(&n, source) == key))
            .and_then(|a| a.field("value"))
    };
    let is_data = |value: Option<Node>| value.is_some_and(|v| literal(&unwrap(v), source).is_some());
    let member = |object: &Node, name: &Node, replaces: bool| {
        Some(Mock {
            span,
            target: MockTarget::Member {
                object: chain(object, source)?,
                member: string_value(name, source)?,
            },
            replaces,
        })
    };
    let mocks = match (previous, last) {
        // patch("pkg.mod.name"), mock.patch(..), mocker.patch(..)
        (None | Some("mock" | "mocker"), "patch") => {
            if is_data(args.get(1).copied().or_else(|| keyword_node("new"))) {
                return None;
            }
            let path = string_value(args.first()?, source)?;
            vec![Mock {
                span,
                target: MockTarget::Path(path),
                replaces: keyword(call, "wraps", source).is_none(),
            }]
        }
        (Some("patch"), "object") if is_data(args.get(2).copied().or_else(|| keyword_node("new"))) => return None,
        (Some("patch"), "object") => {
            vec![member(
                args.first()?,
                args.get(1)?,
                keyword(call, "wraps", source).is_none(),
            )?]
        }
        // patch.multiple("pkg.mod", a=DEFAULT, b=..) / patch.multiple(obj, ..)
        (Some("patch"), "multiple") => {
            let target = args.first()?;
            let list = call.field("arguments")?;
            let mut cursor = list.walk();
            let names: Vec<String> = list
                .named_children(&mut cursor)
                .filter(|a| {
                    a.kind() == "keyword_argument"
                        && !is_data(a.field("value"))
                        && a.field("name")
                            .is_some_and(|n| !matches!(text(&n, source).as_ref(), "new_callable" | "spec" | "create"))
                })
                .filter_map(|a| Some(text(&a.field("name")?, source).into_owned()))
                .collect();
            let module = string_value(target, source);
            let object = chain(target, source);
            names
                .into_iter()
                .filter_map(|name| {
                    let target = match (&module, &object) {
                        (Some(m), _) => MockTarget::Path(format!("{m}.{name}")),
                        (None, Some(o)) => MockTarget::Member {
                            object: o.clone(),
                            member: name,
                        },
                        _ => return None,
                    };
                    Some(Mock {
                        span,
                        target,
                        replaces: true,
                    })
                })
                .collect()
        }
        // monkeypatch.setattr("pkg.mod.name", value) / monkeypatch.setattr(obj, "name", value)
        (Some("monkeypatch"), "setattr") if is_data(args.last().copied()) => return None,
        (Some("monkeypatch"), "setattr") => match args.as_slice() {
            [path, _] => vec![Mock {
                span,
                target: MockTarget::Path(string_value(path, source)?),
                replaces: true,
            }],
            [object, name, ..] => vec![member(object, name, true)?],
            _ => return None,
        },
        (Some("mocker"), "spy") => vec![member(args.first()?, args.get(1)?, false)?],
        // Doubles with no target: passed into real code, they replace nothing of it.
        (_, "Mock" | "MagicMock" | "AsyncMock" | "NonCallableMock" | "NonCallableMagicMock")
        | (Some("mocker"), "stub" | "async_stub") => return Some(Err(())),
        _ => return None,
    };
    Some(Ok(mocks))
}

/// Where a mock site applies: the tests it is in effect for.
pub(super) enum Owner {
    Tests(Vec<usize>),
    /// A fixture: the tests that request it by name.
    Fixture(String),
    File,
}

/// The tests whose name lies inside `node`.
pub(super) fn tests_within(node: &Node, file: &TestFile) -> Vec<usize> {
    let outer = Span::of(node);
    (0..file.tests.len())
        .filter(|&i| outer.contains(file.tests[i].span))
        .collect()
}

pub(super) fn owner(call: &Node, source: &[u8], file: &TestFile) -> Owner {
    let test_named = |def: &Node| {
        let span = Span::of(&def.field("name")?);
        file.tests.iter().position(|t| t.span == span)
    };
    let mut n = call.parent();
    while let Some(p) = n {
        let def = match p.kind() {
            // A decorator applies to what it decorates.
            "decorator" => p.parent().and_then(|d| d.field("definition")),
            "function_definition" | "class_definition" => Some(p),
            _ => None,
        };
        if let Some(def) = def {
            if def.kind() == "class_definition" {
                return Owner::Tests(tests_within(&def, file));
            }
            if let Some(test) = test_named(&def) {
                return Owner::Tests(vec![test]);
            }
            let name = def
                .field("name")
                .map(|n| text(&n, source).into_owned())
                .unwrap_or_default();
            let class = || {
                let mut c = def.parent();
                while let Some(x) = c {
                    if x.kind() == "class_definition" {
                        return Some(x);
                    }
                    c = x.parent();
                }
                None
            };
            let decorators = def
                .parent()
                .filter(|d| d.kind() == "decorated_definition")
                .map(|d| unwrap_decorated(d).0)
                .unwrap_or_default();
            let fixture = fixture_decorator(&decorators, source);
            let autouse = |call: &Option<Node>| {
                call.as_ref()
                    .and_then(|c| keyword(c, "autouse", source))
                    .is_some_and(|v| v == "True")
            };
            match (fixture, class()) {
                (Some(call), class) if autouse(&call) => {
                    return match class {
                        Some(c) => Owner::Tests(tests_within(&c, file)),
                        None => Owner::Tests((0..file.tests.len()).collect()),
                    };
                }
                (Some(_), _) => return Owner::Fixture(name),
                (None, Some(c)) if SETUP_METHODS.contains(&name.as_str()) => {
                    return Owner::Tests(tests_within(&c, file));
                }
                // A helper's patches: keep looking for an enclosing test.
                _ => {}
            }
            if p.kind() == "decorator" {
                // The decorated definition's own ancestors come next.
                n = def.parent();
                continue;
            }
        }
        n = p.parent();
    }
    Owner::File
}

/// The patches, module-level or per test, and which tests they apply to.
/// `calls` are the mock calls the imports walk found: sites and callback spies.
pub(super) fn mocks<'a>(root: &Node<'a>, source: &[u8], file: &mut TestFile, calls: MockCalls<'a>) {
    let mut sites: Vec<(Mock, Owner)> = Vec::new();
    let mut callbacks = 0;
    for (n, site) in calls {
        match site {
            Ok(mocks) => {
                for mock in mocks {
                    sites.push((mock, owner(&n, source, file)));
                }
            }
            Err(()) => callbacks += 1,
        }
    }
    file.callback_spies = callbacks;
    if sites.is_empty() {
        return;
    }
    // Fixtures reach the tests that name them as parameters.
    let mut params: Vec<Vec<String>> = vec![Vec::new(); file.tests.len()];
    if sites.iter().any(|(_, o)| matches!(o, Owner::Fixture(_))) {
        visit_named(*root, |n| {
            if n.kind() == "function_definition"
                && let Some(name) = n.field("name")
                && let Some(i) = file.tests.iter().position(|t| t.span == Span::of(&name))
                && let Some(list) = n.field("parameters")
            {
                let mut occurrences = Vec::new();
                identifiers(&list, source, &mut occurrences);
                params[i] = occurrences.into_iter().map(|(name, _)| name).collect();
            }
            true
        });
    }
    for (index, (mock, owner)) in sites.into_iter().enumerate() {
        let tests = match owner {
            Owner::Tests(tests) => tests,
            Owner::Fixture(name) => (0..file.tests.len()).filter(|&i| params[i].contains(&name)).collect(),
            Owner::File => Vec::new(),
        };
        for t in tests {
            file.tests[t].mocks.push(index);
        }
        file.mocks.push(mock);
    }
}

/// The names of a class's bases as written (`TestCase`, `mixins.Base`).
pub(super) fn base_names(def: &Node, source: &[u8]) -> Vec<String> {
    let Some(bases) = def.field("superclasses") else {
        return Vec::new();
    };
    let mut cursor = bases.walk();
    bases
        .named_children(&mut cursor)
        .filter(|b| b.kind() != "keyword_argument" && b.kind() != COMMENT)
        .map(|b| text(&b, source).into_owned())
        .collect()
}

/// Does the class mix shared tests in (`class CookieTests(SessionTestsMixin, TestCase)`)?
pub(super) fn is_mixin_class(def: &Node, source: &[u8]) -> bool {
    let names = base_names(def, source);
    names.len() > 1
        && names
            .iter()
            .any(|n| n.ends_with("Mixin") || n.ends_with("Tests") || n.ends_with("Base"))
}

/// The docstring of a block, if its first statement is a string.
pub(super) fn docstring(block: &Node, source: &[u8]) -> Option<String> {
    let first = first_child(block)?;
    let string = first_child(&first).filter(|s| first.kind() == "expression_statement" && s.kind() == "string")?;
    let value = string_value(&string, source)?;
    let value = value.split_whitespace().collect::<Vec<_>>().join(" ");
    (!value.is_empty()).then_some(value)
}

/// A decorator's callee as a [`chain`] key (`pytest.fixture` for both
/// `@pytest.fixture` and `@pytest.fixture(autouse=True)`), and its call when
/// it is called with arguments.
pub(super) fn decorator_callee<'a>(decorator: &Node<'a>, source: &[u8]) -> Option<(String, Option<Node<'a>>)> {
    let expr = first_child(decorator)?;
    let (callee, call) = match expr.kind() {
        "call" => (expr.field("function")?, Some(expr)),
        _ => (expr, None),
    };
    Some((chain(&callee, source)?, call))
}

/// The pytest fixture decorator among `decorators`, if any: `Some(call)`,
/// where `call` is `@pytest.fixture(..)` with its arguments.
pub(super) fn fixture_decorator<'a>(decorators: &[Node<'a>], source: &[u8]) -> Option<Option<Node<'a>>> {
    decorators
        .iter()
        .filter_map(|d| decorator_callee(d, source))
        .find(|(key, _)| key == "fixture" || key.ends_with(".fixture"))
        .map(|(_, call)| call)
}

/// Split a `decorated_definition` into its decorators and the definition.
pub(super) fn unwrap_decorated(node: Node) -> (Vec<Node>, Node) {
    if node.kind() != "decorated_definition" {
        return (Vec::new(), node);
    }
    let mut cursor = node.walk();
    let decorators = node
        .named_children(&mut cursor)
        .filter(|c| c.kind() == "decorator")
        .collect();
    let def = node.field("definition").unwrap_or(node);
    (decorators, def)
}

/// A chain key with Python's `.return_value` read as the call it stands
/// for: `m.session.return_value.query` -> `m.session().query`.
pub(super) fn calls_for_return_values(key: &str) -> String {
    let mut out = String::with_capacity(key.len());
    for (i, segment) in key.split('.').enumerate() {
        match (i, segment) {
            (0, _) => out.push_str(segment),
            (_, "return_value") => out.push_str("()"),
            _ => {
                out.push('.');
                out.push_str(segment);
            }
        }
    }
    out
}

/// `node` as a [`chain`] key with `.return_value` read as a call.
pub(super) fn mock_key(node: &Node, source: &[u8]) -> Option<String> {
    chain(node, source).map(|k| calls_for_return_values(&k))
}

/// The mock constructors (and patchers, which hand their keywords to one).
const MAKES_MOCKS: &[&str] = &[
    "Mock",
    "MagicMock",
    "AsyncMock",
    "NonCallableMock",
    "NonCallableMagicMock",
    "create_autospec",
    "patch",
    "object",
];

/// Keywords of a mock constructor or patcher that are not attributes of the mock.
const NOT_ATTRIBUTES: &[&str] = &[
    "spec",
    "spec_set",
    "wraps",
    "name",
    "unsafe",
    "new",
    "new_callable",
    "autospec",
    "create",
    "instance",
    "_name",
    "parent",
];

/// A mock configured with what it returns at `n`: `m = Mock(return_value=5)`,
/// `m.return_value = 5`, `m.get.return_value = user`,
/// `m.a.return_value.b.return_value = 5`, `self.load = Mock(return_value=5)`,
/// `m.get.side_effect = f`, `with patch(.., return_value=5) as m`,
/// `m = mocker.patch(.., return_value=5)`.
pub(super) fn mock_return_at(n: Node, source: &[u8], out: &mut Vec<MockReturn>) {
    let span = Span::of(&n);
    match n.kind() {
        "assignment" => {
            let (Some(left), Some(right)) = (n.field("left"), n.field("right")) else {
                return;
            };
            let right = unwrap(right);
            let attribute = (left.kind() == "attribute")
                .then(|| left.field("attribute").map(|a| text(&a, source)))
                .flatten();
            match attribute.as_deref() {
                Some("return_value") => {
                    if let Some(callee) = left.field("object").and_then(|o| mock_key(&o, source)) {
                        returned(&right, &callee, span, source, out);
                    }
                }
                Some("side_effect") if right.kind() != "none" => {
                    if let Some(callee) = left.field("object").and_then(|o| mock_key(&o, source)) {
                        out.push(MockReturn {
                            callee,
                            value: Returned::Computed,
                            span,
                        });
                    }
                }
                Some("side_effect") => {}
                _ if right.kind() == "call" => {
                    if let Some(callee) = mock_key(&left, source) {
                        configured_returns(&right, &callee, span, source, out);
                    }
                }
                _ => {}
            }
        }
        "with_item" => {
            // with patch("x.f", return_value=5) as f:
            if let Some(value) = n.field("value")
                && value.kind() == "as_pattern"
                && let (Some(call), Some(alias)) = (first_child(&value), value.field("alias"))
                && call.kind() == "call"
                && let Some(callee) = first_child(&alias).and_then(|a| mock_key(&a, source))
            {
                configured_returns(&call, &callee, span, source, out);
            }
        }
        _ => {}
    }
}

/// What `callee` is told to return by `value`: a literal, a name, or
/// another value, and the configuration of a mock made there
/// (`return_value=Mock(get=..)`).
fn returned(value: &Node, callee: &str, span: Span, source: &[u8], out: &mut Vec<MockReturn>) {
    let value = unwrap(*value);
    let returned = match (literal(&value, source), value.kind()) {
        (Some(l), _) => Returned::Literal(l),
        (None, "identifier" | "attribute") => chain(&value, source).map_or(Returned::Other, Returned::Name),
        (None, "call") => {
            configured_returns(&value, &format!("{callee}()"), span, source, out);
            Returned::Other
        }
        _ => Returned::Other,
    };
    out.push(MockReturn {
        callee: callee.to_string(),
        value: returned,
        span,
    });
}

/// What a mock made by `call` is configured with, `callee` naming it:
/// `Mock(return_value=5)`, `mocker.patch("x.f", return_value=5)`,
/// `create_autospec(f, return_value=5)`, `Mock(side_effect=f)`, and the
/// mocks it is given as attributes (`Mock(get=Mock(return_value=5))`).
pub(super) fn configured_returns(call: &Node, callee: &str, span: Span, source: &[u8], out: &mut Vec<MockReturn>) {
    let Some(function) = call.field("function") else { return };
    let name = match function.kind() {
        "attribute" => function.field("attribute"),
        _ => Some(function),
    };
    if !name.is_some_and(|n| MAKES_MOCKS.contains(&text(&n, source).as_ref())) {
        return;
    }
    let Some(list) = call.field("arguments") else { return };
    let mut cursor = list.walk();
    for arg in list
        .named_children(&mut cursor)
        .filter(|a| a.kind() == "keyword_argument")
    {
        let (Some(key), Some(value)) = (arg.field("name"), arg.field("value")) else {
            continue;
        };
        let value = unwrap(value);
        match text(&key, source).as_ref() {
            "return_value" => returned(&value, callee, span, source, out),
            "side_effect" if value.kind() != "none" => out.push(MockReturn {
                callee: callee.to_string(),
                value: Returned::Computed,
                span,
            }),
            key if !NOT_ATTRIBUTES.contains(&key) && value.kind() == "call" => {
                configured_returns(&value, &format!("{callee}.{key}"), span, source, out);
            }
            _ => {}
        }
    }
}

/// Of `returns` made around a test (its module, its class's `setUp`), those
/// the test sees as they were made: a value named by a local of a function
/// around it is another object in the test, or none.
pub(super) fn seen_from_tests(returns: &mut Vec<MockReturn>, shared: &[&str]) {
    returns.retain(|r| match &r.value {
        Returned::Name(name) => shared.iter().any(|s| name.split('.').next() == Some(*s)),
        _ => true,
    });
}

/// The module's pytest fixtures that hand a test a configured mock, by the
/// name a test takes them as: `return Mock(return_value=5)`, or a local
/// configured in the fixture (`m.get.return_value = 5`) and returned or
/// yielded, or an attribute of it (`return m`, `yield m.api`), its mock
/// returns renamed for the test (`api.get` for a fixture `api`). Fixtures of
/// a `conftest.py` are not read: the model is of one file.
pub(super) fn fixture_returns(root: &Node, source: &[u8]) -> Vec<(String, Vec<MockReturn>)> {
    let mut out = Vec::new();
    let mut cursor = root.walk();
    for item in root.named_children(&mut cursor) {
        let (decorators, def) = unwrap_decorated(item);
        let Some(call) = (def.kind() == "function_definition")
            .then(|| fixture_decorator(&decorators, source))
            .flatten()
        else {
            continue;
        };
        let (Some(name), Some(body)) = (def.field("name"), def.field("body")) else {
            continue;
        };
        let name = call
            .and_then(|c| keyword(&c, "name", source))
            .unwrap_or_else(|| text(&name, source).into_owned());
        let mut configured = Vec::new();
        let mut handed = None;
        visit_named(body, |n| {
            mock_return_at(n, source, &mut configured);
            let value = match n.kind() {
                "return_statement" => first_child(&n),
                "yield" => first_child(&n),
                _ => None,
            };
            if let Some(value) = value.map(unwrap) {
                handed = Some(value);
            }
            !PY_FUNCTIONS.contains(&n.kind())
        });
        let Some(handed) = handed else { continue };
        let mut returns = Vec::new();
        if handed.kind() == "call" {
            configured_returns(&handed, &name, Span::of(&handed), source, &mut returns);
        } else if let Some(local) = mock_key(&handed, source).filter(|k| !k.contains('(')) {
            // `return m`, `yield m.api`: what was configured through it, as the test names it.
            for ret in configured {
                let rest = match ret.callee.strip_prefix(local.as_str()) {
                    Some(rest) if rest.is_empty() || rest.starts_with(['.', '(']) => rest.to_string(),
                    _ => continue,
                };
                returns.push(MockReturn {
                    callee: format!("{name}{rest}"),
                    ..ret
                });
            }
        }
        // The fixture's locals are not the test's.
        seen_from_tests(&mut returns, &[]);
        if !returns.is_empty() {
            out.push((name, returns));
        }
    }
    out
}
