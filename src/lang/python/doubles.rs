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

/// A mock configured to return a literal at `n`: `m = Mock(return_value=5)`,
/// `m.return_value = 5`, `m.get.return_value = 5`, `with patch(.., return_value=5) as m`,
/// `m = mocker.patch(.., return_value=5)`.
pub(super) fn mock_return_at(n: Node, source: &[u8], out: &mut Vec<MockReturn>) {
    let configured = |call: &Node| configured_return(call, source);
    match n.kind() {
        "assignment" => {
            if let (Some(left), Some(right)) = (n.field("left"), n.field("right")) {
                let right = unwrap(right);
                if left.kind() == "identifier" && right.kind() == "call" {
                    if let Some(l) = configured(&right) {
                        out.push(MockReturn {
                            callee: text(&left, source).into_owned(),
                            literal: l,
                            span: Span::of(&n),
                        });
                    }
                } else if left.kind() == "attribute"
                    && left
                        .field("attribute")
                        .is_some_and(|a| text(&a, source) == "return_value")
                    && let (Some(object), Some(l)) = (left.field("object"), literal(&right, source))
                {
                    out.push(MockReturn {
                        callee: callee_key(&text(&object, source)),
                        literal: l,
                        span: Span::of(&n),
                    });
                }
            }
        }
        "with_item" => {
            // with patch("x.f", return_value=5) as f:
            if let Some(value) = n.field("value")
                && value.kind() == "as_pattern"
                && let (Some(call), Some(alias)) = (first_child(&value), value.field("alias"))
                && call.kind() == "call"
                && let Some(l) = configured(&call)
            {
                out.push(MockReturn {
                    callee: callee_key(&text(&alias, source)),
                    literal: l,
                    span: Span::of(&n),
                });
            }
        }
        _ => {}
    }
}

/// The literal a mock made by `call` is told to return: `Mock(return_value=5)`,
/// `mocker.patch("x.f", return_value=5)`, `create_autospec(f, return_value=5)`.
pub(super) fn configured_return(call: &Node, source: &[u8]) -> Option<Literal> {
    let callee = text(&call.field("function")?, source).into_owned();
    let last = callee.rsplit('.').next().unwrap_or(&callee);
    if !matches!(
        last,
        "Mock" | "MagicMock" | "AsyncMock" | "NonCallableMock" | "create_autospec" | "patch" | "object"
    ) {
        return None;
    }
    let list = call.field("arguments")?;
    let mut c = list.walk();
    let kw = list.named_children(&mut c).find(|a| {
        a.kind() == "keyword_argument" && a.field("name").is_some_and(|n| text(&n, source) == "return_value")
    })?;
    literal(&unwrap(kw.field("value")?), source)
}

/// The module's pytest fixtures that hand a test a mock told to return a
/// literal, by the name a test takes them as: `return Mock(return_value=5)`,
/// or a local configured in the fixture (`m.get.return_value = 5`) and
/// returned or yielded (`return m`), its mock returns renamed for the test
/// (`api.get` for a fixture `api`).
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
        if handed.kind() == "call"
            && let Some(literal) = configured_return(&handed, source)
        {
            returns.push(MockReturn {
                callee: name.clone(),
                literal,
                span: Span::of(&handed),
            });
        }
        if handed.kind() == "identifier" {
            let local = text(&handed, source);
            for ret in configured {
                let rest = match ret.callee.strip_prefix(local.as_ref()) {
                    Some(rest) if rest.is_empty() || rest.starts_with('.') => rest.to_string(),
                    _ => continue,
                };
                returns.push(MockReturn {
                    callee: format!("{name}{rest}"),
                    ..ret
                });
            }
        }
        if !returns.is_empty() {
            out.push((name, returns));
        }
    }
    out
}
