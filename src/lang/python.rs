//! Python: pytest and unittest tests (tree-sitter-python).
//!
//! Tests are module-level `test*` functions and `test*` methods of classes
//! named `Test*` or deriving from a `*TestCase`. Assertions are `assert`
//! statements, unittest's `self.assert*`/`self.fail`, `pytest.raises`/
//! `warns`/`fail`, and any `*.assert*()` call (mock verification).

use super::syntax::{Node, Tree};

use super::FieldExt;
use super::versions::{Body, Item, Memo};
use super::{
    Assertion, Bound, Form, Guard, Import, ImportKind, Literal, Mock, MockReturn, MockTarget, Operand, Skip, Span,
    TestCase, TestFile, Unchecked, UncheckedKinds, Unfinished, bound, callee_key, chain, close_helpers, contains_kind,
    display, first_child, first_syntax_error, guards_where, is_dotted_path, keep_imported_uses, normalized, note_name,
    number, plain_bindings, single_call_aliases, single_nonempty_collections, text, token_key, unchecked, unwrap,
    value_equal, values, visit_named,
};

const COMMENT: &str = "comment";
const UNCHECKED: UncheckedKinds = UncheckedKinds {
    binding: ("assignment", "left", "right"),
    computed: &["call", "await"],
    call: "call",
    macro_call: "",
    identifiers: &["identifier"],
    // An import inside a test runs the module (`from . import star_import`).
    effects: &[
        "call",
        "attribute",
        "subscript",
        "await",
        "import_statement",
        "import_from_statement",
    ],
    scopes: &["function_definition", "lambda", "class_definition"],
};
/// Nested function kinds: their bodies run later, if at all.
const PY_FUNCTIONS: &[&str] = &["function_definition", "lambda"];

pub fn test_file(tree: &Tree, source: &[u8], mut memo: Option<&mut Memo>) -> TestFile {
    let mut file = TestFile::default();
    let mut bodies: Vec<Body> = Vec::new();
    let root = tree.root_node();
    let tables = literal_tables(&root, source);
    let literals = module_literals(&root, source);
    let fixtures = fixture_returns(&root, source);
    let mut cursor = root.walk();
    // Each class, by name, with its tests (a range of `file.tests`) and its bases.
    let mut classes: Vec<(String, std::ops::Range<usize>, Vec<String>)> = Vec::new();
    // Mocks told to return a literal at the top of the module: in effect in every test.
    let mut module_returns = Vec::new();
    for item in root.named_children(&mut cursor) {
        let (decorators, def) = unwrap_decorated(item);
        match def.kind() {
            "expression_statement" => visit_named(def, |n| {
                mock_return_at(n, source, &mut module_returns);
                !PY_FUNCTIONS.contains(&n.kind())
            }),
            "function_definition" => {
                let read = Read {
                    source,
                    tables: &tables,
                    literals: &literals,
                    may_be_test: true,
                    fixtures: &fixtures,
                };
                function(&def, &decorators, &read, &mut file, &mut bodies, memo.as_deref_mut());
            }
            "class_definition" => {
                let before = file.tests.len();
                let read = Read {
                    source,
                    tables: &tables,
                    literals: &literals,
                    may_be_test: true,
                    fixtures: &fixtures,
                };
                class(&def, &decorators, &read, &mut file, &mut bodies, memo.as_deref_mut());
                let name = def.field("name").map(|n| text(&n, source).into_owned());
                classes.push((
                    name.unwrap_or_default(),
                    before..file.tests.len(),
                    base_names(&def, source),
                ));
            }
            _ => {}
        }
    }
    add_mock_returns(&mut file.tests, &module_returns);
    // An empty test of a class that another class here extends runs there,
    // under that class's setup (`setUpClass`, decorators): it checks that the
    // setup does not raise, as a smoke test does.
    for (name, tests, _) in &classes {
        if classes.iter().any(|(_, _, bases)| bases.contains(name)) {
            for test in file.tests[tests.clone()].iter_mut().filter(|t| t.empty) {
                test.empty = false;
                test.unchecked.inert = false;
            }
        }
    }
    let mut calls = Vec::new();
    match memo {
        Some(memo) => imports_and_uses_by_statement(&root, source, &mut file, &mut calls, memo),
        None => imports_and_uses(&root, source, &mut file, Some(&mut calls)),
    }
    file.module_names.sort();
    file.module_names.dedup();
    // `pytestmark = pytest.mark.benchmark` marks every test of the module.
    let mut cursor = root.walk();
    let module_benchmark = root.named_children(&mut cursor).any(|stmt| {
        stmt.kind() == "expression_statement"
            && first_child(&stmt).is_some_and(|a| {
                a.kind() == "assignment"
                    && a.field("left").is_some_and(|l| text(&l, source) == "pytestmark")
                    && a.field("right")
                        .is_some_and(|r| text(&r, source).contains("mark.benchmark"))
            })
    });
    if module_benchmark {
        for test in &mut file.tests {
            test.benchmark = true;
        }
    }
    file.helpers = close_helpers(&bodies);
    for test in &mut file.tests {
        if test.empty && test.calls.iter().any(|c| file.helpers.contains(c)) {
            test.empty = false;
        }
    }
    mocks(&root, source, &mut file, calls);
    keep_imported_uses(&mut file);
    file
}

pub fn imports(tree: &Tree, source: &[u8]) -> Vec<Import> {
    let mut file = TestFile::default();
    imports_and_uses(&tree.root_node(), source, &mut file, None);
    file.imports
}

/// Names a module or class body binds, at its top level, to a non-empty
/// literal list, tuple, set or dict (`CASES = [(1, 2), (3, 4)]`).
fn literal_tables(block: &Node, source: &[u8]) -> Vec<String> {
    top_assignments(block)
        .into_iter()
        .filter_map(|assignment| {
            let left = assignment.field("left").filter(|l| l.kind() == "identifier")?;
            let right = unwrap(assignment.field("right")?);
            matches!(literal(&right, source), Some(Literal::Collection(n)) if n > 0)
                .then(|| text(&left, source).into_owned())
        })
        .collect()
}

/// The assignments that are statements of a module or class body itself.
fn top_assignments<'a>(block: &Node<'a>) -> Vec<Node<'a>> {
    let mut cursor = block.walk();
    block
        .named_children(&mut cursor)
        .filter(|s| s.kind() == "expression_statement")
        .filter_map(|s| first_child(&s).filter(|a| a.kind() == "assignment"))
        .collect()
}

/// Give `tests` the mock returns configured around them (a test's own come first).
fn add_mock_returns(tests: &mut [TestCase], returns: &[MockReturn]) {
    for test in tests {
        for ret in returns {
            if !test.mock_returns.contains(ret) {
                test.mock_returns.push(ret.clone());
            }
        }
    }
}

/// Methods whose patches apply to every test of their class.
const SETUP_METHODS: &[&str] = &[
    "setUp",
    "asyncSetUp",
    "setUpClass",
    "setUpTestData",
    "setup_method",
    "setup_class",
    "setup",
];

/// A call that patches, stubs or spies on a target, and what it targets.
fn mock_site(call: &Node, source: &[u8]) -> Option<Result<Vec<Mock>, ()>> {
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
enum Owner {
    Tests(Vec<usize>),
    /// A fixture: the tests that request it by name.
    Fixture(String),
    File,
}

/// The tests whose name lies inside `node`.
fn tests_within(node: &Node, file: &TestFile) -> Vec<usize> {
    let outer = Span::of(node);
    (0..file.tests.len())
        .filter(|&i| outer.contains(file.tests[i].span))
        .collect()
}

fn owner(call: &Node, source: &[u8], file: &TestFile) -> Owner {
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
fn mocks<'a>(root: &Node<'a>, source: &[u8], file: &mut TestFile, calls: MockCalls<'a>) {
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
fn base_names(def: &Node, source: &[u8]) -> Vec<String> {
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
fn is_mixin_class(def: &Node, source: &[u8]) -> bool {
    let names = base_names(def, source);
    names.len() > 1
        && names
            .iter()
            .any(|n| n.ends_with("Mixin") || n.ends_with("Tests") || n.ends_with("Base"))
}

/// The docstring of a block, if its first statement is a string.
fn docstring(block: &Node, source: &[u8]) -> Option<String> {
    let first = first_child(block)?;
    let string = first_child(&first).filter(|s| first.kind() == "expression_statement" && s.kind() == "string")?;
    let value = string_value(&string, source)?;
    let value = value.split_whitespace().collect::<Vec<_>>().join(" ");
    (!value.is_empty()).then_some(value)
}

/// A decorator's callee as a [`chain`] key (`pytest.fixture` for both
/// `@pytest.fixture` and `@pytest.fixture(autouse=True)`), and its call when
/// it is called with arguments.
fn decorator_callee<'a>(decorator: &Node<'a>, source: &[u8]) -> Option<(String, Option<Node<'a>>)> {
    let expr = first_child(decorator)?;
    let (callee, call) = match expr.kind() {
        "call" => (expr.field("function")?, Some(expr)),
        _ => (expr, None),
    };
    Some((chain(&callee, source)?, call))
}

/// The pytest fixture decorator among `decorators`, if any: `Some(call)`,
/// where `call` is `@pytest.fixture(..)` with its arguments.
fn fixture_decorator<'a>(decorators: &[Node<'a>], source: &[u8]) -> Option<Option<Node<'a>>> {
    decorators
        .iter()
        .filter_map(|d| decorator_callee(d, source))
        .find(|(key, _)| key == "fixture" || key.ends_with(".fixture"))
        .map(|(_, call)| call)
}

/// Split a `decorated_definition` into its decorators and the definition.
fn unwrap_decorated(node: Node) -> (Vec<Node>, Node) {
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

/// Read a class: its tests when it is a test class (`module` is how the
/// module around it is read), the helpers every class may hold.
fn class(
    def: &Node,
    decorators: &[Node],
    module: &Read,
    file: &mut TestFile,
    bodies: &mut Vec<Body>,
    mut memo: Option<&mut Memo>,
) {
    let &Read {
        source,
        tables,
        literals,
        fixtures,
        ..
    } = module;
    let name = def
        .field("name")
        .map(|n| text(&n, source).into_owned())
        .unwrap_or_default();
    let bases = def
        .field("superclasses")
        .map(|b| text(&b, source).into_owned())
        .unwrap_or_default();
    let is_tests = name.starts_with("Test") || bases.contains("TestCase");
    let class_skip = decorators.iter().find_map(|d| skip_of(d, source));
    let Some(body) = def.field("body") else {
        return;
    };
    // Class attributes bound to non-empty literals are tables too (`self.cases`).
    let mut class_tables = tables.to_vec();
    for name in literal_tables(&body, source) {
        class_tables.extend([format!("self.{name}"), format!("cls.{name}")]);
    }
    let mut cursor = body.walk();
    let before = file.tests.len();
    let read = Read {
        source,
        tables: &class_tables,
        literals,
        may_be_test: is_tests,
        fixtures,
    };
    // Mocks told to return a literal in `setUp`: in effect in every test of the class.
    let mut setup_returns = Vec::new();
    for item in body.named_children(&mut cursor) {
        let (decs, inner) = unwrap_decorated(item);
        if inner.kind() == "function_definition" {
            function(&inner, &decs, &read, file, bodies, memo.as_deref_mut());
            let is_setup = inner
                .field("name")
                .is_some_and(|n| SETUP_METHODS.contains(&text(&n, source).as_ref()));
            if is_setup && let Some(block) = inner.field("body") {
                visit_named(block, |n| {
                    mock_return_at(n, source, &mut setup_returns);
                    true
                });
            }
        }
    }
    add_mock_returns(&mut file.tests[before..], &setup_returns);
    for test in &mut file.tests[before..] {
        test.scope.clone_from(&name);
    }
    if let Some(skip) = class_skip {
        for test in &mut file.tests[before..] {
            test.skip.get_or_insert(skip.clone());
        }
    }
    // A class built from a mixin of shared tests that overrides one with an
    // empty body turns that inherited test off: a skip, whose reason is the docstring.
    if is_mixin_class(def, source) {
        let mut cursor = body.walk();
        let docstrings: Vec<(Span, Option<String>)> = body
            .named_children(&mut cursor)
            .filter_map(|item| {
                let (_, inner) = unwrap_decorated(item);
                let name = inner.field("name")?;
                let block = inner.field("body")?;
                Some((Span::of(&name), docstring(&block, source)))
            })
            .collect();
        for test in file.tests[before..].iter_mut().filter(|t| t.empty && t.skip.is_none()) {
            let reason = docstrings
                .iter()
                .find(|(s, _)| *s == test.span)
                .and_then(|(_, d)| d.clone());
            test.skip = Some(Skip {
                span: test.span,
                reason,
                conditional: false,
            });
            test.empty = false;
        }
    }
}

/// What reading a function looks at besides its own text.
struct Read<'a> {
    source: &'a [u8],
    /// The names (`CASES`, `self.cases`) the enclosing module or class binds
    /// to non-empty literal collections: a loop over one always runs.
    tables: &'a [String],
    /// Of the module's names, those bound once, at its top level, to a
    /// literal list or tuple, with it: the rows a table-driven test may
    /// loop over ([`loop_cases`]).
    literals: &'a [(String, Node<'a>)],
    /// A module-level function, or a method of a test class.
    may_be_test: bool,
    /// The module's pytest fixtures that return a mock told to return a
    /// literal, by fixture name ([`fixture_returns`]): a test taking one
    /// has those mock returns.
    fixtures: &'a [(String, Vec<MockReturn>)],
}

/// Read a function (a test, a helper), or recall it from `memo` when the
/// version before held the same text in the same context.
fn function(
    def: &Node,
    decorators: &[Node],
    read: &Read,
    file: &mut TestFile,
    bodies: &mut Vec<Body>,
    memo: Option<&mut Memo>,
) {
    let Some(memo) = memo else {
        read_function(def, decorators, read, file, bodies);
        return;
    };
    let first = decorators.first().unwrap_or(def);
    let mut context: Vec<&str> = vec![if read.may_be_test { "test" } else { "" }];
    context.extend(read.tables.iter().map(String::as_str));
    let fixtures: Vec<String> = read
        .fixtures
        .iter()
        .flat_map(|(name, returns)| {
            returns
                .iter()
                .map(move |r| format!("{name}:{}={:?}", r.callee, r.literal))
        })
        .collect();
    context.extend(fixtures.iter().map(String::as_str));
    // The module-level tables the function names, as written: their rows
    // are its cases.
    let named = super::named_literals(&read.source[def.byte_range()], read.literals, read.source);
    for (name, literal) in &named {
        context.extend(["\u{1f}", name, literal]);
    }
    let key = Memo::key(first, def, read.source, &context);
    let row = first.start_position().row;
    let item = match memo.recall(&key, row) {
        Some(item) => item,
        None => {
            let mut scratch = TestFile::default();
            let mut item = Item::default();
            read_function(def, decorators, read, &mut scratch, &mut item.bodies);
            item.tests = scratch.tests;
            item.fixtures = scratch.uses_fixtures;
            memo.remember(key, row, &item);
            item
        }
    };
    file.tests.extend(item.tests);
    file.uses_fixtures |= item.fixtures;
    bodies.extend(item.bodies);
}

fn read_function(def: &Node, decorators: &[Node], read: &Read, file: &mut TestFile, bodies: &mut Vec<Body>) {
    let &Read {
        source,
        tables,
        literals,
        may_be_test,
        fixtures,
    } = read;
    let Some(name_node) = def.field("name") else {
        return;
    };
    let name = text(&name_node, source).into_owned();
    let Some(body) = def.field("body") else {
        return;
    };
    // Module-level `test*` functions are tests; so are `test*` methods of test
    // classes. A fixture named `test_env` is a fixture.
    // pytest and unittest warn when a test returns a value: a `test_processor`
    // that returns a dict is a helper named like a test.
    let is_test = may_be_test
        && name.starts_with("test")
        && fixture_decorator(decorators, source).is_none()
        && !returns_value(&body);
    let mut occurrences = Vec::new();
    let mut mock_returns = Vec::new();
    let mut uses = std::collections::BTreeSet::new();
    if is_test {
        if let Some(params) = def.field("parameters") {
            identifiers(&params, source, &mut occurrences);
            for (_, returns) in fixtures
                .iter()
                .filter(|(name, _)| occurrences.iter().any(|(p, _)| p == name))
            {
                mock_returns.extend(returns.iter().cloned());
            }
        }
        binding_occurrences(&body, source, &mut occurrences, &mut mock_returns, &mut uses);
    }
    // Table-driven tests: a local bound once to a non-empty literal, or an
    // outer table the test does not rebind.
    let mut local_tables = single_nonempty_collections(&occurrences);
    local_tables.extend(
        tables
            .iter()
            .filter(|t| !occurrences.iter().any(|(name, _)| name == *t))
            .cloned(),
    );
    let mut scan = BodyScan {
        tables: local_tables,
        ..BodyScan::default()
    };
    scan.walk(&body, source);
    // What was raised, one way however it is named (`exc_info.value`, the
    // `exc` of `except E as exc`).
    let (infos, caught) = raises_aliases(&body, source);
    for (aliases, value) in [(infos, true), (caught, false)] {
        if aliases.is_empty() {
            continue;
        }
        let names: Vec<&str> = aliases.iter().map(String::as_str).collect();
        for a in &mut scan.assertions {
            for part in &mut a.parts {
                *part = raised(part, &names, value);
            }
        }
    }
    // A property test (hypothesis' `@given`) is fed inputs that may or may
    // not be valid: a handler checking the error of the invalid ones is one
    // of its two outcomes, not the only check.
    let property_test = decorators
        .iter()
        .filter_map(|d| decorator_callee(d, source))
        .any(|(key, _)| key.rsplit('.').next() == Some("given"));
    if property_test {
        for a in scan.assertions.iter_mut().filter(|a| a.guard.caught) {
            a.guard.caught = false;
            a.guard.conditional = false;
        }
    }
    // A decorator is called with the test: one that asserts (a local
    // `@check_mutation(..)`) makes the test assert.
    for (key, _) in decorators.iter().filter_map(|d| decorator_callee(d, source)) {
        let last = key.rsplit('.').next().unwrap_or(&key).to_string();
        scan.calls.push(last);
    }
    // A test that calls another test (`await self.test_view(url=..)`) asserts through it.
    bodies.push((name.clone(), !scan.assertions.is_empty(), scan.calls.clone()));
    if !is_test {
        return;
    }
    let skip = decorators.iter().find_map(|d| skip_of(d, source)).or(scan.skip);
    let benchmark = decorators.iter().any(|d| text(d, source).contains("mark.benchmark"))
        || def.field("parameters").is_some_and(|p| {
            let mut cursor = p.walk();
            p.named_children(&mut cursor)
                .any(|param| text(&param, source) == "benchmark")
        });
    if takes_fixtures(def, decorators, source) {
        file.uses_fixtures = true;
    }
    let unchecked = if scan.assertions.is_empty() {
        unchecked(&body, source, &occurrences, &UNCHECKED, |callee| {
            matches!(callee, "print" | "pprint" | "pp" | "pprint.pprint" | "pprint.pp")
        })
    } else {
        Unchecked::default()
    };
    file.tests.push(TestCase {
        name,
        scope: String::new(),
        span: Span::of(&name_node),
        skip,
        empty: is_empty_block(&body),
        assertions: scan.assertions,
        calls: scan.calls,
        bindings: plain_bindings(&occurrences),
        aliases: single_call_aliases(&occurrences),
        uses: uses.into_iter().collect(),
        mock_returns,
        benchmark,
        mocks: Vec::new(),
        unchecked,
        unfinished: scan.unfinished,
        syntax_error: first_syntax_error(&body),
        shape: super::shape(&body, source),
        extent: Span::between(decorators.first().unwrap_or(def), &body),
        cases: {
            let cases = parametrize_cases(decorators, &occurrences, source);
            if cases.is_empty() {
                loop_cases(&body, literals, &occurrences, source)
            } else {
                cases
            }
        },
    });
}

/// Names the module binds once, at its top level, to a literal list or
/// tuple, with that literal (`CASES = [(1, 2), (3, 4)]`).
fn module_literals<'a>(root: &Node<'a>, source: &[u8]) -> Vec<(String, Node<'a>)> {
    let mut bound: Vec<(String, Option<Node<'a>>)> = Vec::new();
    for assignment in top_assignments(root) {
        let Some(left) = assignment.field("left") else {
            continue;
        };
        let value = assignment
            .field("right")
            .map(unwrap)
            .filter(|r| matches!(r.kind(), "list" | "tuple"));
        let mut names = Vec::new();
        identifiers(&left, source, &mut names);
        for (name, _) in names {
            let value = value.filter(|_| left.kind() == "identifier");
            bound.push((name, value));
        }
    }
    super::literals_bound_once(bound)
}

/// The rows of a table-driven test as cases ([`TestCase::cases`]): the one
/// literal list or tuple the body's `for` loops run over (written in the
/// loop, bound once in the body, or, the body binding that name nowhere,
/// bound once at module level). A loop over several names (`for url, want
/// in ..`) binds them to a row's values by position; a loop over one name
/// binds `row[0]`, `row[1]` .. of a tuple row and `row["key"]` of a dict
/// row. A row of another shape is not read; loops over two tables, or over
/// plain values, give no cases. A loop name the body rebinds is not the
/// case's value where it is used.
fn loop_cases(
    body: &Node,
    module: &[(String, Node)],
    occurrences: &[(String, Bound)],
    source: &[u8],
) -> Vec<Vec<(String, String)>> {
    // Most tests loop over nothing: a look at their text spares the walk.
    if !source[body.byte_range()].windows(3).any(|w| w == b"for") {
        return Vec::new();
    }
    let mut tables = Vec::new();
    visit_named(*body, |n| match n.kind() {
        "for_statement" => {
            let (Some(left), Some(right)) = (n.field("left"), n.field("right")) else {
                return true;
            };
            let Some(table) = table_literal(body, unwrap(right), module, occurrences, source) else {
                return true;
            };
            if let Some(cases) = loop_rows(&left, &table, occurrences, source) {
                tables.push((text(&table, source).into_owned(), cases));
            }
            true
        }
        "function_definition" | "class_definition" | "lambda" => false,
        _ => true,
    });
    super::one_table(tables)
}

/// The literal list or tuple a loop runs over: written there, the value of
/// the one binding of that name in `body`, or (the body binding it
/// nowhere) the module's table of that name.
fn table_literal<'a>(
    body: &Node<'a>,
    right: Node<'a>,
    module: &[(String, Node<'a>)],
    occurrences: &[(String, Bound)],
    source: &[u8],
) -> Option<Node<'a>> {
    match right.kind() {
        "list" | "tuple" => Some(right),
        "identifier" => {
            let name = text(&right, source);
            super::table_named(&name, occurrences, module, || {
                let mut value = None;
                visit_named(*body, |n| {
                    if n.kind() == "assignment"
                        && n.field("left")
                            .is_some_and(|l| l.kind() == "identifier" && text(&l, source) == name)
                    {
                        value = n
                            .field("right")
                            .map(unwrap)
                            .filter(|r| matches!(r.kind(), "list" | "tuple"));
                    }
                    value.is_none()
                });
                value
            })
        }
        _ => None,
    }
}

/// The cases of `table` as the loop target `left` reads each row.
fn loop_rows(
    left: &Node,
    table: &Node,
    occurrences: &[(String, Bound)],
    source: &[u8],
) -> Option<Vec<Vec<(String, String)>>> {
    let left = unwrap(*left);
    let names: Vec<String> = match left.kind() {
        "identifier" => vec![text(&left, source).into_owned()],
        "pattern_list" | "tuple_pattern" | "list_pattern" => {
            let mut c = left.walk();
            let parts: Vec<Node> = left.named_children(&mut c).filter(|p| p.kind() != COMMENT).collect();
            if parts.iter().any(|p| p.kind() != "identifier") {
                return None;
            }
            parts.iter().map(|p| text(p, source).into_owned()).collect()
        }
        _ => return None,
    };
    let mut cases = Vec::new();
    let mut cursor = table.walk();
    for row in table.named_children(&mut cursor).filter(|r| r.kind() != COMMENT) {
        let mut c = row.walk();
        let cells: Vec<Node> = row.named_children(&mut c).filter(|v| v.kind() != COMMENT).collect();
        let case: Vec<(String, String)> = match (names.as_slice(), row.kind()) {
            ([_, _, ..], "tuple" | "list") if cells.len() == names.len() => names
                .iter()
                .zip(&cells)
                .map(|(name, value)| (name.clone(), token_key(value, source)))
                .collect(),
            ([one], "tuple" | "list") => cells
                .iter()
                .enumerate()
                .map(|(i, value)| (format!("{one} [ {i} ]"), token_key(value, source)))
                .collect(),
            ([one], "dictionary") => cells
                .iter()
                .filter(|p| p.kind() == "pair")
                .filter_map(|p| {
                    let key = p.field("key").filter(|k| k.kind() == "string")?;
                    Some((
                        format!("{one} [ {} ]", token_key(&key, source)),
                        token_key(&p.field("value")?, source),
                    ))
                })
                .collect(),
            _ => continue,
        };
        cases.push(case);
        if cases.len() == super::MAX_CASES {
            break;
        }
    }
    super::loop_table_cases(cases, occurrences)
}

/// The cases `@pytest.mark.parametrize` decorators give a test, of the
/// parameters bound nowhere else (`occurrences` holds the parameters and the
/// body's bindings): each row binds its names to its values; stacked
/// decorators multiply. A row read from anything but a literal list or
/// tuple (a name, a comprehension) is not read.
fn parametrize_cases(
    decorators: &[Node],
    occurrences: &[(String, Bound)],
    source: &[u8],
) -> Vec<Vec<(String, String)>> {
    let mut cases: Vec<Vec<(String, String)>> = Vec::new();
    for decorator in decorators {
        let Some(call) = first_child(decorator).filter(|c| c.kind() == "call") else {
            continue;
        };
        let callee = call.field("function").map(|f| text(&f, source)).unwrap_or_default();
        if !callee.ends_with("parametrize") {
            continue;
        }
        let args = positional_args(&call);
        let (Some(names), Some(rows)) = (args.first(), args.get(1)) else {
            continue;
        };
        let names: Vec<String> = match names.kind() {
            "string" => string_value(names, source)
                .map(|s| s.split(',').map(|n| n.trim().to_string()).collect())
                .unwrap_or_default(),
            "list" | "tuple" => {
                let mut cursor = names.walk();
                names
                    .named_children(&mut cursor)
                    .filter_map(|n| string_value(&n, source))
                    .collect()
            }
            _ => Vec::new(),
        };
        if names.is_empty() || !matches!(rows.kind(), "list" | "tuple") {
            continue;
        }
        let mut cursor = rows.walk();
        let mut read: Vec<Vec<(String, String)>> = Vec::new();
        for row in rows.named_children(&mut cursor).filter(|r| r.kind() != COMMENT) {
            // `pytest.param(a, b, id=..)`: its positional arguments.
            let row_call = (row.kind() == "call"
                && row
                    .field("function")
                    .is_some_and(|f| text(&f, source).ends_with("param")))
            .then_some(row);
            let values: Vec<Node> = match (row_call, names.len()) {
                (Some(call), _) => positional_args(&call),
                (None, 1) => vec![row],
                (None, _) if matches!(row.kind(), "tuple" | "list") => {
                    let mut c = row.walk();
                    row.named_children(&mut c).filter(|v| v.kind() != COMMENT).collect()
                }
                _ => continue,
            };
            if values.len() != names.len() {
                continue;
            }
            read.push(
                names
                    .iter()
                    .zip(&values)
                    // A parameter the body rebinds is not the case's value where it is used.
                    .filter(|(name, _)| super::not_rebound(occurrences, name))
                    .map(|(name, value)| (name.clone(), token_key(value, source)))
                    .collect(),
            );
        }
        if read.is_empty() {
            continue;
        }
        cases = if cases.is_empty() {
            read
        } else {
            cases
                .iter()
                .flat_map(|case| {
                    read.iter().map(move |row| {
                        let mut both = case.clone();
                        both.extend(row.iter().cloned());
                        both
                    })
                })
                .take(super::MAX_CASES)
                .collect()
        };
        cases.truncate(super::MAX_CASES);
    }
    cases
}

/// Does the function `body` return a value (`return x`, not a bare `return`),
/// outside nested functions and classes?
fn returns_value(body: &Node) -> bool {
    let mut found = false;
    visit_named(*body, |n| {
        match n.kind() {
            "return_statement" => found |= first_child(&n).is_some(),
            "function_definition" | "lambda" | "class_definition" => return false,
            _ => {}
        }
        !found
    });
    found
}

/// Every place a name is bound in `node`: assignments (with the literal when
/// the right side is one), augmented assignments, walrus, `for` targets,
/// `as` targets, `global`/`nonlocal`.
/// Mocks configured to return a literal (`returns`) are collected in the same walk.
/// Every name referenced goes into `uses`.
fn binding_occurrences(
    node: &Node,
    source: &[u8],
    out: &mut Vec<(String, Bound)>,
    returns: &mut Vec<MockReturn>,
    uses: &mut std::collections::BTreeSet<String>,
) {
    visit_named(*node, |n| {
        mock_return_at(n, source, returns);
        if n.kind() == "identifier" {
            note_name(&n, source, uses);
        }
        match n.kind() {
            "assignment" => {
                if let Some(left) = n.field("left") {
                    if left.kind() == "identifier" {
                        let right = n.field("right").map(unwrap);
                        let value = bound(
                            right.and_then(|r| literal(&r, source)),
                            right.and_then(|r| chain(&r, source)),
                            &n,
                            node,
                        );
                        out.push((text(&left, source).into_owned(), value));
                    } else {
                        identifiers(&left, source, out);
                    }
                }
            }
            "augmented_assignment" => {
                if let Some(left) = n.field("left") {
                    identifiers(&left, source, out);
                }
            }
            "named_expression" => {
                if let Some(name) = n.field("name") {
                    identifiers(&name, source, out);
                }
            }
            "for_statement" | "for_in_clause" => {
                if let Some(left) = n.field("left") {
                    identifiers(&left, source, out);
                }
            }
            "as_pattern" => {
                // `with Client() as c` binds `c` to what the call returns (close enough for a chain).
                if let Some(alias) = n.field("alias") {
                    match (
                        first_child(&alias).filter(|a| a.kind() == "identifier"),
                        first_child(&n),
                    ) {
                        (Some(name), Some(value)) if n.parent().is_some_and(|p| p.kind() == "with_item") => {
                            let value = bound(None, chain(&value, source), &n, node);
                            out.push((text(&name, source).into_owned(), value));
                        }
                        _ => identifiers(&alias, source, out),
                    }
                }
            }
            "global_statement" | "nonlocal_statement" => identifiers(&n, source, out),
            _ => {}
        }
        true
    });
}

/// Every identifier in a target, each as a binding without a known value.
fn identifiers(node: &Node, source: &[u8], out: &mut Vec<(String, Bound)>) {
    visit_named(*node, |n| {
        if n.kind() == "identifier" {
            out.push((text(&n, source).into_owned(), Bound::Other));
            return false;
        }
        // `obj.attr = ..` and `x[i] = ..` bind no local name.
        if matches!(n.kind(), "attribute" | "subscript") {
            return false;
        }
        true
    });
}

/// pytest's own fixtures and those of common plugins: they never carry the code under test.
const BUILTIN_FIXTURES: &[&str] = &[
    "self",
    "cls",
    "request",
    "tmp_path",
    "tmp_path_factory",
    "tmpdir",
    "tmpdir_factory",
    "monkeypatch",
    "capsys",
    "capsysbinary",
    "capfd",
    "capfdbinary",
    "caplog",
    "recwarn",
    "pytestconfig",
    "record_property",
    "record_testsuite_property",
    "record_xml_attribute",
    "doctest_namespace",
    "cache",
    "testdir",
    "pytester",
    "benchmark",
    "mocker",
    "subtests",
    "snapshot",
    "faker",
    "event_loop",
    "httpserver",
];

/// Does this test take a fixture that is neither pytest's own nor a `parametrize` argument?
fn takes_fixtures(def: &Node, decorators: &[Node], source: &[u8]) -> bool {
    let Some(params) = def.field("parameters") else {
        return false;
    };
    let parametrized: Vec<String> = decorators
        .iter()
        .filter_map(|d| {
            let t = text(d, source);
            if !t.contains("parametrize") {
                return None;
            }
            let call = first_child(d).filter(|c| c.kind() == "call")?;
            let first = positional_args(&call).into_iter().next()?;
            string_value(&first, source)
        })
        .flat_map(|names| names.split(',').map(|n| n.trim().to_string()).collect::<Vec<_>>())
        .collect();
    let mut cursor = params.walk();
    params.named_children(&mut cursor).any(|param| {
        let name_node = match param.kind() {
            "identifier" => Some(param),
            "typed_parameter" | "default_parameter" | "typed_default_parameter" => {
                param.field("name").or_else(|| first_child(&param))
            }
            _ => None,
        };
        name_node.is_some_and(|n| {
            let name = text(&n, source);
            n.kind() == "identifier"
                && !BUILTIN_FIXTURES.contains(&name.as_ref())
                && !parametrized.iter().any(|p| p == &name)
        })
    })
}

/// Imports, and the identifiers used outside them, for the whole module.
/// Calls that mock, with what [`mock_site`] made of each.
type MockCalls<'a> = Vec<(Node<'a>, Result<Vec<Mock>, ()>)>;

/// The imports and the names used, and (with `mocks`) every call that mocks.
fn imports_and_uses<'a>(root: &Node<'a>, source: &[u8], file: &mut TestFile, mut mocks: Option<&mut MockCalls<'a>>) {
    visit_named(*root, |n| {
        match n.kind() {
            "import_statement" => {
                let mut c = n.walk();
                for item in n.named_children(&mut c) {
                    let (module, alias) = match item.kind() {
                        "aliased_import" => (item.field("name"), item.field("alias")),
                        "dotted_name" => (Some(item), None),
                        _ => continue,
                    };
                    let Some(module) = module else { continue };
                    let specifier = text(&module, source).into_owned();
                    // `import a.b` binds `a`; `import a.b as m` binds `m` to `a.b`.
                    let (local, origin) = match alias {
                        Some(a) => (text(&a, source).into_owned(), specifier.clone()),
                        None => {
                            let head = specifier.split('.').next().unwrap_or_default().to_string();
                            (head.clone(), head)
                        }
                    };
                    let kind = import_kind(&n);
                    file.imports.push(Import {
                        specifier,
                        names: vec![local],
                        origins: vec![origin],
                        span: Span::of(&n),
                        kind,
                    });
                }
                return false;
            }
            "import_from_statement" => {
                let module_name = n.field("module_name");
                let specifier = module_name.map(|m| text(&m, source).into_owned()).unwrap_or_default();
                let mut names = Vec::new();
                let mut origins = Vec::new();
                let qualified = |name: &str| {
                    if specifier.ends_with('.') {
                        format!("{specifier}{name}")
                    } else {
                        format!("{specifier}.{name}")
                    }
                };
                let mut c = n.walk();
                for item in n.named_children(&mut c) {
                    if Some(item.id()) == module_name.map(|m| m.id()) {
                        continue;
                    }
                    match item.kind() {
                        "wildcard_import" => {
                            names.push("*".to_string());
                            origins.push(qualified("*"));
                        }
                        "aliased_import" => {
                            if let (Some(a), Some(name)) = (item.field("alias"), item.field("name")) {
                                names.push(text(&a, source).into_owned());
                                origins.push(qualified(&text(&name, source)));
                            }
                        }
                        "dotted_name" => {
                            names.push(text(&item, source).into_owned());
                            origins.push(qualified(&text(&item, source)));
                        }
                        _ => {}
                    }
                }
                let kind = import_kind(&n);
                file.imports.push(Import {
                    specifier,
                    names,
                    origins,
                    span: Span::of(&n),
                    kind,
                });
                return false;
            }
            "call" => {
                if let Some(calls) = mocks.as_deref_mut()
                    && let Some(site) = mock_site(&n, source)
                {
                    calls.push((n, site));
                }
                // importlib.import_module("pkg.mod") / __import__("pkg")
                if let Some(f) = n.field("function") {
                    let callee = text(&f, source);
                    if (callee.ends_with("import_module") || callee == "__import__")
                        && let Some(spec) = positional_args(&n).first().and_then(|a| string_value(a, source))
                    {
                        file.imports.push(Import {
                            specifier: spec,
                            names: Vec::new(),
                            origins: Vec::new(),
                            span: Span::of(&n),
                            kind: ImportKind::Dynamic,
                        });
                    }
                }
            }
            "string" => {
                if let Some(value) = string_value(&n, source)
                    && is_dotted_path(&value)
                {
                    file.module_names.push(value);
                }
            }
            "identifier" => {
                // Most names repeat: allocate only the first time one is seen.
                let name = text(&n, source);
                if !file.used.contains(name.as_ref()) {
                    file.used.insert(name.into_owned());
                }
            }
            _ => {}
        }
        true
    });
}

/// [`imports_and_uses`] statement by statement of the module, each
/// remembered by its text: an unchanged statement of the version before is
/// not walked again (only for its mock calls, when it made one).
fn imports_and_uses_by_statement<'a>(
    root: &Node<'a>,
    source: &[u8],
    file: &mut TestFile,
    calls: &mut MockCalls<'a>,
    memo: &mut Memo,
) {
    let mut cursor = root.walk();
    for statement in root.named_children(&mut cursor) {
        let key = Memo::key(&statement, &statement, source, &["imports"]);
        let row = statement.start_position().row;
        if let Some(item) = memo.recall(&key, row) {
            if item.mock_sites {
                visit_named(statement, |n| {
                    if n.kind() == "call"
                        && let Some(site) = mock_site(&n, source)
                    {
                        calls.push((n, site));
                    }
                    true
                });
            }
            file.imports.extend(item.imports);
            file.module_names.extend(item.module_names);
            file.used.extend(item.used);
            continue;
        }
        let mut read = TestFile::default();
        let before = calls.len();
        imports_and_uses(&statement, source, &mut read, Some(calls));
        let item = Item {
            imports: read.imports,
            module_names: read.module_names,
            used: read.used,
            mock_sites: calls.len() > before,
            ..Item::default()
        };
        memo.remember(key, row, &item);
        file.imports.extend(item.imports);
        file.module_names.extend(item.module_names);
        file.used.extend(item.used);
    }
}

/// An import inside a function runs the module when the test runs: that is a use.
fn import_kind(node: &Node) -> ImportKind {
    if inside_function(node) {
        ImportKind::Dynamic
    } else {
        ImportKind::Static
    }
}

fn inside_function(node: &Node) -> bool {
    super::has_ancestor(node, &["function_definition"], &[])
}

/// `pass`, `...`, a docstring or comments only.
fn is_empty_block(block: &Node) -> bool {
    let mut cursor = block.walk();
    block.named_children(&mut cursor).all(|s| match s.kind() {
        "pass_statement" | COMMENT => true,
        "expression_statement" => {
            let mut c = s.walk();
            s.named_children(&mut c)
                .all(|e| matches!(e.kind(), "string" | "ellipsis" | "concatenated_string"))
        }
        _ => false,
    })
}

/// The unittest checks that, given no callable, return a context manager.
const RAISE_CONTEXTS: &[&str] = &[
    "assertRaises",
    "assertRaisesRegex",
    "assertWarns",
    "assertWarnsRegex",
    "assertLogs",
    "assertNoLogs",
];

#[derive(Default)]
struct BodyScan {
    /// The guard of the node being visited.
    guard: Guard,
    /// Names holding non-empty literal collections (see [`function`]).
    tables: Vec<String>,
    assertions: Vec<Assertion>,
    calls: Vec<String>,
    skip: Option<Skip>,
    /// The guard of each `try` visited, by node id: a failure in its `else`
    /// runs as the `try` does ([`expected_raise`]).
    tries: Vec<(usize, Guard)>,
    /// The guard of each `if` visited, by node id: a failure in its body
    /// has the `if`'s condition as its check ([`BodyScan::failure`]).
    ifs: Vec<(usize, Guard)>,
    unfinished: Vec<Unfinished>,
}

impl BodyScan {
    /// The form of an explicit failure `statement`: [`Form::FailUnless`]
    /// directly in the body of an `if` (`if got != want: pytest.fail()`),
    /// whose condition is then the check and whose own guard becomes the
    /// failure's; [`Form::Fail`] anywhere else.
    fn failure(&mut self, statement: &Node, source: &[u8]) -> Form {
        let Some((condition, guard)) = super::checking_condition(statement, &self.ifs) else {
            return Form::Fail;
        };
        self.guard = guard;
        Form::FailUnless(Box::new(demanded(condition, source)))
    }

    fn walk(&mut self, node: &Node, source: &[u8]) {
        let mut stack = vec![(*node, Guard::default())];
        let mut cursor = node.walk();
        while let Some((n, guard)) = stack.pop() {
            self.guard = guard;
            match n.kind() {
                "try_statement" => self.tries.push((n.id(), guard)),
                "if_statement" => self.ifs.push((n.id(), guard)),
                _ => {}
            }
            match n.kind() {
                COMMENT | "string" => continue,
                "assert_statement" => {
                    let condition = first_child(&n)
                        .map(|c| text(&c, source).into_owned())
                        .unwrap_or_default();
                    // `assert False` last in a `try` whose handler expects an
                    // exception is the `raises(E)` check of the pre-pytest idiom.
                    if matches!(condition.as_str(), "False" | "0") && self.raised(&n, &n, source) {
                        continue;
                    }
                    // `except E: assert True` marks the path taken; it checks
                    // nothing and pretends nothing.
                    if condition == "True"
                        && n.parent()
                            .and_then(|b| b.parent())
                            .is_some_and(|c| c.kind() == "except_clause")
                    {
                        continue;
                    }
                    let (matcher, parts) = first_child(&n).map(|c| assert_check(&c, source)).unwrap_or_default();
                    self.assertions.push(Assertion {
                        span: Span::of(&n),
                        form: assert_form(&n, source),
                        matcher,
                        parts,
                        guard,
                        values: first_child(&n).map(|c| values(&c, source, COMMENT)).unwrap_or_default(),
                    });
                }
                "call" => self.call(&n, source),
                // `m.assert_called_once` or `self.assertTrue` named and not called.
                "expression_statement" => {
                    if let Some(attribute) = first_child(&n).filter(|e| e.kind() == "attribute")
                        && attribute.field("attribute").is_some_and(|a| {
                            text(&a, source)
                                .strip_prefix("assert")
                                .is_some_and(|rest| rest.starts_with(|c: char| c == '_' || c.is_ascii_uppercase()))
                        })
                    {
                        self.unfinished.push(Unfinished {
                            span: Span::of(&n),
                            text: display(&n, source),
                            lacks: "the assertion is not called".to_string(),
                        });
                    }
                }
                // `_: CoreSchema = {"type": "int"}`: a literal checked by the
                // type checker against a type of the project's.
                "assignment" if typed_literal(&n, source) && !has_ancestor_below(&n, node, PY_DEFINITIONS) => {
                    self.assertions
                        .push(Assertion::bare(Span::of(&n), Form::Other, "type", Guard::default()));
                }
                "raise_statement"
                    if first_child(&n).is_some_and(|e| text(&e, source).starts_with("AssertionError")) =>
                {
                    if self.raised(&n, &n, source) {
                        continue;
                    }
                    let form = self.failure(&n, source);
                    self.assertions
                        .push(Assertion::bare(Span::of(&n), form, "fail", self.guard));
                }
                _ => {}
            }
            if GUARDING.contains(&n.kind()) {
                let children: Vec<Node> = n.named_children(&mut cursor).collect();
                let guarded = child_guards(&n, &children, guard, &self.tables, source);
                stack.extend(children.into_iter().zip(guarded).rev());
            } else {
                // Children run as their parent does: no allocation for the common case.
                let start = stack.len();
                stack.extend(n.named_children(&mut cursor).map(|c| (c, guard)));
                stack[start..].reverse();
            }
        }
    }

    fn call(&mut self, call: &Node, source: &[u8]) {
        let Some(function) = call.field("function") else {
            return;
        };
        let (receiver, name) = match function.kind() {
            "identifier" => (String::new(), text(&function, source).into_owned()),
            "attribute" => (
                function
                    .field("object")
                    .map(|o| text(&o, source).into_owned())
                    .unwrap_or_default(),
                function
                    .field("attribute")
                    .map(|a| text(&a, source).into_owned())
                    .unwrap_or_default(),
            ),
            _ => return,
        };
        let args = positional_args(call);
        let on_self = receiver == "self" || receiver == "cls";
        if (receiver == "pytest" && name == "skip") || (on_self && name == "skipTest") {
            let reason = args
                .first()
                .and_then(|a| string_value(a, source))
                .or_else(|| keyword(call, "reason", source));
            let conditional = super::has_ancestor(
                call,
                &["if_statement", "conditional_expression"],
                &["function_definition"],
            );
            self.skip.get_or_insert(Skip {
                span: Span::of(call),
                reason: reason.filter(|r| !r.trim().is_empty()),
                conditional,
            });
        }
        // `pytest.raises(E)` or `self.assertRaises(E)` as a statement of its
        // own: the context manager it returns is never entered.
        let expects_raise = matches!(
            (receiver.as_str(), name.as_str()),
            ("pytest", "raises" | "warns" | "deprecated_call")
        ) || (on_self && RAISE_CONTEXTS.contains(&name.as_str()));
        if expects_raise
            && let Some(statement) = call.parent().filter(|p| p.kind() == "expression_statement")
            && args.len() <= usize::from(name != "deprecated_call") + usize::from(name.ends_with("Regex"))
        {
            self.calls.push(name);
            self.unfinished.push(Unfinished {
                span: Span::of(&statement),
                text: display(&statement, source),
                lacks: "it is not entered (`with`)".to_string(),
            });
            return;
        }
        let form = if on_self && name.starts_with("assert") {
            Some(unittest_form(&name, &args, source))
        } else if name == "fail" && (on_self || receiver == "pytest") {
            let statement = call.parent().filter(|p| p.kind() == "expression_statement");
            if statement.is_some_and(|statement| self.raised(call, &statement, source)) {
                self.calls.push(name);
                return;
            }
            Some(statement.map_or(Form::Fail, |statement| self.failure(&statement, source)))
        } else if name.starts_with("assert")
            || (on_self && name == "fail")
            || (matches!(receiver.as_str(), "pytest" | "")
                && matches!(name.as_str(), "raises" | "warns" | "fail" | "deprecated_call"))
            // Selenium's lookup raises NoSuchElementException: like testing-library's getBy*.
            || name == "find_element"
        {
            Some(Form::Other)
        } else {
            None
        };
        if let Some(form) = form {
            let values = call
                .field("arguments")
                .map(|a| values(&a, source, COMMENT))
                .unwrap_or_default();
            // Mock verification checks its receiver (`save.assert_called_with(1)`).
            let mut parts: Vec<String> = function
                .field("object")
                .filter(|_| !on_self && receiver != "pytest" && name.starts_with("assert"))
                .map(|o| token_key(&o, source))
                .into_iter()
                .collect();
            let raises = matches!(name.as_str(), "raises" | "warns");
            // pytest 9's `raises(E, check=lambda e: e.code == "x")`: the
            // lambda is a check of its own, on what was raised.
            let check = raises.then(|| raises_check(call, source)).flatten();
            parts.extend(
                argument_keys(call, source)
                    .into_iter()
                    .filter(|k| !(check.is_some() && k.starts_with("check = lambda"))),
            );
            self.assertions.push(Assertion {
                guard: self.guard,
                span: Span::of(call),
                form,
                matcher: name.clone(),
                parts,
                values,
            });
            if let Some((test, parameter)) = check {
                // `e.code == "x" and e.message == "y"`: each part is a check.
                for test in conjuncts(test, source) {
                    let (matcher, mut parts) = assert_check(&test, source);
                    for part in &mut parts {
                        *part = raised(part, &[parameter.as_str()], false);
                    }
                    self.assertions.push(Assertion {
                        guard: self.guard,
                        span: Span::of(&test),
                        form: test_form(test, source),
                        matcher,
                        parts,
                        values: super::values(&test, source, COMMENT),
                    });
                }
            }
        }
        self.calls.push(name);
    }
}

impl BodyScan {
    /// A failure `at` (statement `statement`) that says "this should have
    /// raised" ([`expected_raise`]) is read as the check it is, `raises(E)`,
    /// as pytest would write it, made where the `try` runs. Did it?
    fn raised(&mut self, at: &Node, statement: &Node, source: &[u8]) -> bool {
        let Some((r#try, types)) = expected_raise(statement, source) else {
            return false;
        };
        let guard = self
            .tries
            .iter()
            .rev()
            .find(|(id, _)| *id == r#try.id())
            .map_or(self.guard, |(_, guard)| *guard);
        self.assertions.push(Assertion {
            span: Span::of(at),
            form: Form::Other,
            matcher: "raises".to_string(),
            parts: types,
            guard,
            values: Vec::new(),
        });
        true
    }
}

/// The idiom that predates `pytest.raises`: a failure in the `else` of a
/// `try` (or last in its body) whose handlers catch the expected error:
/// `try: f() except E: pass else: raise AssertionError(..)`. The `try` and
/// the types its handlers catch, as token keys; `None` when `statement` is
/// not such a failure, or when a handler would catch the failure itself
/// (a bare `except`, `Exception`, `AssertionError` around a failure in the body).
fn expected_raise<'t>(statement: &Node<'t>, source: &[u8]) -> Option<(Node<'t>, Vec<String>)> {
    let block = statement.parent().filter(|b| b.kind() == "block")?;
    let holder = block.parent()?;
    let (r#try, in_body) = match holder.kind() {
        "else_clause" => (holder.parent().filter(|t| t.kind() == "try_statement")?, false),
        "try_statement" if holder.field("body").is_some_and(|b| b.id() == block.id()) => {
            let mut cursor = block.walk();
            let last = block
                .named_children(&mut cursor)
                .filter(|c| c.kind() != COMMENT)
                .last()?;
            (last.id() == statement.id()).then_some((holder, true))?
        }
        _ => return None,
    };
    let mut types = Vec::new();
    let mut cursor = r#try.walk();
    for clause in r#try
        .named_children(&mut cursor)
        .filter(|c| c.kind() == "except_clause")
    {
        let mut inner = clause.walk();
        let caught = clause
            .named_children(&mut inner)
            .find(|c| !matches!(c.kind(), "block" | COMMENT))?;
        let caught = match caught.kind() {
            "as_pattern" => first_child(&caught)?,
            _ => caught,
        };
        let names: Vec<Node> = match caught.kind() {
            "tuple" | "parenthesized_expression" => {
                let mut c = caught.walk();
                caught.named_children(&mut c).filter(|n| n.kind() != COMMENT).collect()
            }
            _ => vec![caught],
        };
        for name in names {
            let key = token_key(&name, source);
            let last = key.rsplit(' ').next().unwrap_or_default();
            if in_body && matches!(last, "Exception" | "BaseException" | "AssertionError") {
                return None;
            }
            types.push(key);
        }
    }
    (!types.is_empty()).then_some((r#try, types))
}

/// Definitions whose bodies are not the test's own statements.
const PY_DEFINITIONS: &[&str] = &["function_definition", "class_definition", "lambda"];

/// Is an ancestor of `node` of one of `kinds`, below `top`?
fn has_ancestor_below(node: &Node, top: &Node, kinds: &[&str]) -> bool {
    let mut at = node.parent();
    while let Some(p) = at {
        if p.id() == top.id() {
            return false;
        }
        if kinds.contains(&p.kind()) {
            return true;
        }
        at = p.parent();
    }
    false
}

/// Is this `name: T = <literal>` with `T` a type of its own (not `int`,
/// `dict[str, int]`, ...)?
fn typed_literal(assignment: &Node, source: &[u8]) -> bool {
    const BUILTIN: &[&str] = &[
        "int",
        "float",
        "complex",
        "str",
        "bytes",
        "bool",
        "dict",
        "list",
        "set",
        "frozenset",
        "tuple",
        "object",
        "Any",
        "None",
        "Dict",
        "List",
        "Set",
        "Tuple",
        "Optional",
        "Union",
    ];
    let (Some(annotation), Some(value)) = (assignment.field("type"), assignment.field("right")) else {
        return false;
    };
    let literal = matches!(
        value.kind(),
        "dictionary"
            | "list"
            | "set"
            | "tuple"
            | "string"
            | "concatenated_string"
            | "integer"
            | "float"
            | "true"
            | "false"
            | "none"
    );
    let head = text(&annotation, source);
    let head = head.split(['[', '|', ' ']).next().unwrap_or_default();
    // A string annotation is a forward reference, not a check made here.
    if head.starts_with(['"', '\'']) {
        return false;
    }
    let head = head.rsplit('.').next().unwrap_or_default();
    literal && !head.is_empty() && !BUILTIN.contains(&head)
}

/// The test a `check=lambda e: ..` argument of `pytest.raises` makes, and
/// the name it gives what was raised.
fn raises_check<'a>(call: &Node<'a>, source: &[u8]) -> Option<(Node<'a>, String)> {
    let list = call.field("arguments")?;
    let mut cursor = list.walk();
    let lambda = list
        .named_children(&mut cursor)
        .filter(|a| a.kind() == "keyword_argument" && a.field("name").is_some_and(|n| text(&n, source) == "check"))
        .find_map(|a| a.field("value"))
        .filter(|v| v.kind() == "lambda")?;
    let parameters = lambda.field("parameters")?;
    let parameter = first_child(&parameters).filter(|p| p.kind() == "identifier")?;
    Some((lambda.field("body")?, text(&parameter, source).into_owned()))
}

/// The operands of `a and b and c` (through parentheses), or the test itself.
fn conjuncts<'a>(test: Node<'a>, source: &[u8]) -> Vec<Node<'a>> {
    let test = unwrap(test);
    let is_and = test.kind() == "boolean_operator" && test.field("operator").is_some_and(|o| text(&o, source) == "and");
    match (is_and, test.field("left"), test.field("right")) {
        (true, Some(left), Some(right)) => {
            let mut parts = conjuncts(left, source);
            parts.extend(conjuncts(right, source));
            parts
        }
        _ => vec![test],
    }
}

/// The names `with pytest.raises(..) as name` binds in `body`, and apart,
/// those an `except E as name` binds (what was raised itself).
fn raises_aliases(body: &Node, source: &[u8]) -> (Vec<String>, Vec<String>) {
    let (mut infos, mut caught) = (Vec::new(), Vec::new());
    visit_named(*body, |n| {
        if n.kind() != "as_pattern" {
            return true;
        }
        let Some(alias) = n.field("alias").map(|a| text(&a, source).into_owned()) else {
            return true;
        };
        if n.parent().is_some_and(|p| p.kind() == "except_clause") {
            caught.push(alias);
        } else if first_child(&n).filter(|c| c.kind() == "call").is_some_and(|call| {
            call.field("function")
                .is_some_and(|f| matches!(text(&f, source).rsplit('.').next(), Some("raises" | "warns")))
        }) {
            infos.push(alias);
        }
        true
    });
    (infos, caught)
}

/// `key` with what was raised written one way, as pytest's documentation
/// writes it, `excinfo . value`: `exc_info . value` where `exc_info` is a
/// name `with pytest.raises(..) as` bound (`value` true), or the parameter
/// of a `check=` lambda (`value` false).
fn raised(key: &str, names: &[&str], value: bool) -> String {
    const RAISED: [&str; 3] = ["excinfo", ".", "value"];
    let tokens: Vec<&str> = key.split(' ').collect();
    let mut out: Vec<&str> = Vec::with_capacity(tokens.len());
    let mut i = 0;
    while i < tokens.len() {
        let after_access = i > 0 && tokens[i - 1] == ".";
        let named = !after_access && names.contains(&tokens[i]);
        if named && !value {
            out.extend(RAISED);
            i += 1;
        } else if named && tokens.get(i + 1) == Some(&".") && tokens.get(i + 2) == Some(&"value") {
            out.extend(RAISED);
            i += 3;
        } else {
            out.push(tokens[i]);
            i += 1;
        }
    }
    out.join(" ")
}

/// Does this subtree assert?
fn asserts(node: &Node, source: &[u8]) -> bool {
    let mut scan = BodyScan::default();
    scan.walk(node, source);
    !scan.assertions.is_empty()
}

/// The guard of each child of `node`, given the guard of `node`.
/// Does iterating `node` always yield something: a non-empty literal, a
/// table (`tables`), `table.items()`/`.values()`/`.keys()`, `enumerate`/
/// `sorted`/`reversed`/`list`/`tuple`/`zip` over tables, or `range(n)` with n > 0?
fn nonempty_iterable(node: &Node, tables: &[String], source: &[u8]) -> bool {
    // `for env in original, overlay:` iterates a bare tuple.
    if literal(node, source).is_some_and(|l| l.truthy()) || node.kind() == "expression_list" {
        return true;
    }
    if chain(node, source).is_some_and(|key| tables.contains(&key)) {
        return true;
    }
    if node.kind() != "call" {
        return false;
    }
    let Some(function) = node.field("function") else {
        return false;
    };
    let args = positional_args(node);
    match function.kind() {
        "attribute" => {
            let method = function.field("attribute").map(|a| text(&a, source));
            matches!(method.as_deref(), Some("items" | "values" | "keys"))
                && args.is_empty()
                && function
                    .field("object")
                    .is_some_and(|o| nonempty_iterable(&o, tables, source))
        }
        "identifier" => match text(&function, source).as_ref() {
            "enumerate" | "sorted" | "reversed" | "list" | "tuple" | "zip" | "iter" => {
                !args.is_empty() && args.iter().all(|a| nonempty_iterable(a, tables, source))
            }
            // range(n), range(a, b) with literal bounds that yield something.
            "range" => {
                let bounds: Option<Vec<f64>> = args
                    .iter()
                    .map(|a| match literal(a, source) {
                        Some(Literal::Number(n)) => Some(n),
                        _ => None,
                    })
                    .collect();
                match bounds.as_deref() {
                    Some([n]) => *n > 0.0,
                    Some([a, b]) | Some([a, b, _]) => b > a,
                    _ => false,
                }
            }
            _ => false,
        },
        _ => false,
    }
}

/// The node kinds whose children may run under a different guard than they do.
const GUARDING: &[&str] = &[
    "if_statement",
    "for_statement",
    "while_statement",
    "conditional_expression",
    "boolean_operator",
    "try_statement",
];

fn child_guards(node: &Node, children: &[Node], guard: Guard, tables: &[String], source: &[u8]) -> Vec<Guard> {
    let conditional = Guard {
        conditional: true,
        ..guard
    };
    let field = |name: &'static str| node.field(name).map(|c| c.id());
    // The child in field `name` runs only conditionally; the others as `node` does.
    let guarded = |name: &'static str| guards_where(children, guard, |c| Some(c.id()) != field(name));
    match node.kind() {
        "if_statement" => {
            // An `if` whose every branch (including an `else`) asserts asserts either way.
            let branches: Vec<&Node> = children
                .iter()
                .filter(|c| c.kind() != COMMENT && Some(c.id()) != field("condition"))
                .collect();
            let has_else = branches.iter().any(|b| b.kind() == "else_clause");
            let exhaustive = has_else && branches.iter().all(|b| asserts(b, source));
            guards_where(children, guard, |c| exhaustive || Some(c.id()) == field("condition"))
        }
        "for_statement" => {
            let nonempty_literal = node
                .field("right")
                .is_some_and(|r| nonempty_iterable(&unwrap(r), tables, source));
            guards_where(children, guard, |c| nonempty_literal || Some(c.id()) != field("body"))
        }
        "while_statement" => guarded("body"),
        // `a if c else b`: only the condition (the second child) always runs.
        "conditional_expression" => {
            let condition = children.get(1).map(|c| c.id());
            guards_where(children, guard, |c| Some(c.id()) == condition)
        }
        "boolean_operator" => guarded("right"),
        "try_statement" => {
            let swallower = children
                .iter()
                .find(|c| c.kind() == "except_clause" && swallows(c, source));
            // `try: f(); pytest.fail("no error")`: a handler runs whenever the test passes.
            let expects_raise = node.field("body").is_some_and(|b| ends_in_failure(&b, source));
            children
                .iter()
                .map(|c| match c.kind() {
                    "block" if Some(c.id()) == field("body") => Guard {
                        swallowed_by: swallower.map(Span::of).or(guard.swallowed_by),
                        ..guard
                    },
                    "except_clause" | "except_group_clause" if expects_raise => guard,
                    "except_clause" | "except_group_clause" => Guard {
                        caught: true,
                        ..conditional
                    },
                    "else_clause" => conditional,
                    _ => guard,
                })
                .collect()
        }
        _ => vec![guard; children.len()],
    }
}

/// Does `block` end in an explicit failure (`assert False`, `pytest.fail(..)`,
/// `self.fail(..)`, `raise AssertionError(..)`)? Then the `try` it is the
/// body of fails when nothing is raised.
fn ends_in_failure(block: &Node, source: &[u8]) -> bool {
    let mut cursor = block.walk();
    let Some(last) = block.named_children(&mut cursor).filter(|c| c.kind() != COMMENT).last() else {
        return false;
    };
    match last.kind() {
        "assert_statement" => first_child(&last).is_some_and(|c| matches!(text(&c, source).as_ref(), "False" | "0")),
        "raise_statement" => first_child(&last).is_some_and(|e| text(&e, source).starts_with("AssertionError")),
        "expression_statement" => first_child(&last)
            .filter(|c| c.kind() == "call")
            .and_then(|c| c.field("function"))
            .is_some_and(|f| {
                matches!(
                    callee_key(&text(&f, source)).as_str(),
                    "pytest.fail" | "self.fail" | "fail"
                )
            }),
        _ => false,
    }
}

/// Does this `except` clause catch an `AssertionError` and neither re-raise nor assert?
fn swallows(clause: &Node, source: &[u8]) -> bool {
    let mut cursor = clause.walk();
    let parts: Vec<Node> = clause
        .named_children(&mut cursor)
        .filter(|c| c.kind() != COMMENT)
        .collect();
    let Some(body) = parts.iter().find(|p| p.kind() == "block") else {
        return false;
    };
    let catches = match parts.iter().find(|p| p.kind() != "block") {
        None => true,
        Some(types) => {
            let t = text(types, source);
            ["AssertionError", "Exception", "BaseException"].iter().any(|name| {
                t.split(|c: char| !c.is_alphanumeric() && c != '_')
                    .any(|word| word == *name)
            })
        }
    };
    catches
        && !asserts(body, source)
        && !contains_kind(body, "raise_statement", PY_FUNCTIONS)
        && !examined_later(clause, &parts, body, source)
}

/// The handler keeps the failure (`except AssertionError as e`,
/// `sys.exc_info()`) and the test asserts on it after the `try`: a test of
/// how an assertion fails, not a swallowed failure.
fn examined_later(clause: &Node, parts: &[Node], body: &Node, source: &[u8]) -> bool {
    let captured = parts.iter().any(|p| p.kind() == "as_pattern") || {
        // `sys.exc_info()`, `traceback.format_exc()`: calls, not text in a comment.
        let mut found = false;
        visit_named(*body, |n| {
            found |= n.kind() == "call"
                && n.field("function")
                    .and_then(|f| chain(&f, source))
                    .is_some_and(|key| key.ends_with("exc_info") || key.ends_with("format_exc"));
            !found
        });
        found
    };
    let Some(try_statement) = clause.parent() else {
        return false;
    };
    let mut next = try_statement.next_named_sibling();
    while let Some(statement) = next {
        if captured && asserts(&statement, source) {
            return true;
        }
        next = statement.next_named_sibling();
    }
    false
}

/// What an `assert` statement checks: the operator (`==`, `not in`, `is`,
/// `not`, `isinstance`, or `truthy`) and its operands as [`token_key`]s.
fn assert_check(test: &Node, source: &[u8]) -> (String, Vec<String>) {
    let test = unwrap(*test);
    let mut cursor = test.walk();
    match test.kind() {
        "comparison_operator" => {
            let mut operators = Vec::new();
            let mut parts = Vec::new();
            for child in test.children(&mut cursor).filter(|c| !c.is_extra()) {
                if child.is_named() {
                    parts.push(token_key(&child, source));
                } else {
                    operators.push(text(&child, source).into_owned());
                }
            }
            (operators.join(" "), parts)
        }
        "not_operator" => (
            "not".to_string(),
            test.field("argument")
                .map(|a| token_key(&a, source))
                .into_iter()
                .collect(),
        ),
        "call" if test.field("function").is_some_and(|f| text(&f, source) == "isinstance") => {
            ("isinstance".to_string(), argument_keys(&test, source))
        }
        _ => ("truthy".to_string(), vec![token_key(&test, source)]),
    }
}

/// A call's arguments as [`token_key`]s, keyword arguments whole
/// (`match = "x"`), without unittest's `msg`.
fn argument_keys(call: &Node, source: &[u8]) -> Vec<String> {
    let Some(list) = call.field("arguments") else {
        return Vec::new();
    };
    let mut cursor = list.walk();
    list.named_children(&mut cursor)
        .filter(|a| a.kind() != COMMENT)
        .filter(|a| a.kind() != "keyword_argument" || a.field("name").is_none_or(|n| text(&n, source) != "msg"))
        .map(|a| token_key(&a, source))
        .collect()
}

fn positional_args<'a>(call: &Node<'a>) -> Vec<Node<'a>> {
    let Some(list) = call.field("arguments") else {
        return Vec::new();
    };
    let mut cursor = list.walk();
    list.named_children(&mut cursor)
        .filter(|a| {
            !matches!(
                a.kind(),
                "keyword_argument" | COMMENT | "list_splat" | "dictionary_splat"
            )
        })
        .collect()
}

fn keyword(call: &Node, key: &str, source: &[u8]) -> Option<String> {
    let list = call.field("arguments")?;
    let mut cursor = list.walk();
    let found = list
        .named_children(&mut cursor)
        .find(|a| a.kind() == "keyword_argument" && a.field("name").is_some_and(|n| text(&n, source) == key))?;
    let value = found.field("value")?;
    Some(string_value(&value, source).unwrap_or_else(|| text(&value, source).into_owned()))
}

/// The value of a plain string literal (no interpolation).
fn string_value(node: &Node, source: &[u8]) -> Option<String> {
    if node.kind() != "string" {
        return None;
    }
    let mut cursor = node.walk();
    let mut value = String::new();
    for part in node.named_children(&mut cursor) {
        match part.kind() {
            "string_content" | "escape_sequence" => value.push_str(&text(&part, source)),
            "interpolation" => return None,
            _ => {}
        }
    }
    Some(value)
}

fn skip_of(decorator: &Node, source: &[u8]) -> Option<Skip> {
    let expr = decorator.named_child(0)?;
    let (callee, call) = match expr.kind() {
        "call" => (expr.field("function")?, Some(expr)),
        _ => (expr, None),
    };
    let name = text(&callee, source);
    let last = name.rsplit('.').next().unwrap_or(&name);
    let conditional = match last {
        "skip" => false,
        "skipif" | "skipIf" | "skipUnless" => true,
        _ => return None,
    };
    if !(name.contains("mark.") || name.starts_with("unittest.") || !name.contains('.')) {
        return None;
    }
    let reason = call.and_then(|c| {
        let args = positional_args(&c);
        let positional = if conditional { args.get(1) } else { args.first() };
        positional
            .and_then(|a| string_value(a, source))
            .or_else(|| keyword(&c, "reason", source))
    });
    Some(Skip {
        span: Span::of(decorator),
        reason: reason.filter(|r| !r.trim().is_empty()),
        conditional,
    })
}

fn assert_form(stmt: &Node, source: &[u8]) -> Form {
    match first_child(stmt) {
        Some(test) => test_form(test, source),
        None => Form::Other,
    }
}

/// What the expression an `assert` tests checks.
fn test_form(test: Node, source: &[u8]) -> Form {
    let test = unwrap(test);
    match test.kind() {
        "comparison_operator" => match comparison(&test, source) {
            Some((a, "==", b)) => value_equal(a, b),
            Some((a, "is", b)) => Form::Equal(a, b),
            Some((a, "!=" | "is not", b)) => Form::NotEqual(a, b),
            _ => Form::Other,
        },
        "not_operator" => match test.field("argument") {
            Some(arg) => Form::Falsy(operand(&unwrap(arg), source)),
            None => Form::Other,
        },
        _ => Form::Truthy(operand(&test, source)),
    }
}

/// What an `if` around a failure demands for the test to pass: its
/// condition, negated (`if got != want: pytest.fail()` demands `got == want`).
fn demanded(condition: Node, source: &[u8]) -> Form {
    let condition = unwrap(condition);
    match condition.kind() {
        "comparison_operator" => match comparison(&condition, source) {
            Some((a, "!=", b)) => value_equal(a, b),
            Some((a, "is not", b)) => Form::Equal(a, b),
            Some((a, "==" | "is", b)) => Form::NotEqual(a, b),
            _ => Form::Other,
        },
        "not_operator" => match condition.field("argument") {
            Some(arg) => Form::Truthy(operand(&unwrap(arg), source)),
            None => Form::Other,
        },
        _ => Form::Falsy(operand(&condition, source)),
    }
}

/// The two sides and the operator of a comparison of two operands (`a ==
/// b`, `a is not b`); `None` for a chain (`a < b < c`).
fn comparison(test: &Node, source: &[u8]) -> Option<(Operand, &'static str, Operand)> {
    let mut cursor = test.walk();
    let children: Vec<Node> = test.children(&mut cursor).filter(|c| c.kind() != COMMENT).collect();
    let operands: Vec<&Node> = children.iter().filter(|c| c.is_named()).collect();
    let operator: Vec<String> = children
        .iter()
        .filter(|c| !c.is_named())
        .map(|c| text(c, source).into_owned())
        .collect();
    let [a, b] = operands[..] else {
        return None;
    };
    let operator = match operator.join(" ").as_str() {
        "==" => "==",
        "!=" => "!=",
        "is" => "is",
        "is not" => "is not",
        _ => "other",
    };
    Some((operand(a, source), operator, operand(b, source)))
}

fn unittest_form(name: &str, args: &[Node], source: &[u8]) -> Form {
    let op = |i: usize| args.get(i).map(|a| operand(a, source));
    match name {
        "assertIs" => match (op(0), op(1)) {
            (Some(a), Some(b)) => Form::Equal(a, b),
            _ => Form::Other,
        },
        "assertEqual"
        | "assertEquals"
        | "assertListEqual"
        | "assertDictEqual"
        | "assertTupleEqual"
        | "assertSetEqual"
        | "assertSequenceEqual"
        | "assertMultiLineEqual" => match (op(0), op(1)) {
            (Some(a), Some(b)) => value_equal(a, b),
            _ => Form::Other,
        },
        "assertNotEqual" | "assertNotEquals" | "assertIsNot" => match (op(0), op(1)) {
            (Some(a), Some(b)) => Form::NotEqual(a, b),
            _ => Form::Other,
        },
        "assertTrue" | "assert_" => op(0).map_or(Form::Other, Form::Truthy),
        "assertFalse" => op(0).map_or(Form::Other, Form::Falsy),
        _ => Form::Other,
    }
}

fn operand(node: &Node, source: &[u8]) -> Operand {
    let node = unwrap(*node);
    Operand {
        text: display(&node, source),
        key: normalized(&node, source, COMMENT),
        literal: literal(&node, source),
        effects: has_effects(&node),
        call_of: match node.kind() {
            "call" => node.field("function").map(|f| callee_key(&text(&f, source))),
            "await" => first_child(&node)
                .filter(|c| c.kind() == "call")
                .and_then(|c| c.field("function"))
                .map(|f| callee_key(&text(&f, source))),
            _ => None,
        },
    }
}

/// A mock configured to return a literal at `n`: `m = Mock(return_value=5)`,
/// `m.return_value = 5`, `m.get.return_value = 5`, `with patch(.., return_value=5) as m`,
/// `m = mocker.patch(.., return_value=5)`.
fn mock_return_at(n: Node, source: &[u8], out: &mut Vec<MockReturn>) {
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
fn configured_return(call: &Node, source: &[u8]) -> Option<Literal> {
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
fn fixture_returns(root: &Node, source: &[u8]) -> Vec<(String, Vec<MockReturn>)> {
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

fn literal(node: &Node, source: &[u8]) -> Option<Literal> {
    match node.kind() {
        "true" => Some(Literal::Bool(true)),
        "false" => Some(Literal::Bool(false)),
        "none" => Some(Literal::Null),
        "integer" | "float" => number(&text(node, source)).map(Literal::Number),
        "string" => string_value(node, source).map(Literal::Str),
        "tuple" | "list" | "set" | "dictionary" | "expression_list" => {
            let mut cursor = node.walk();
            Some(Literal::Collection(
                node.named_children(&mut cursor).filter(|c| c.kind() != COMMENT).count(),
            ))
        }
        "unary_operator" => {
            let arg = node.field("argument")?;
            let op = node.field("operator").map(|o| text(&o, source).into_owned())?;
            match (op.as_str(), literal(&arg, source)?) {
                ("-", Literal::Number(n)) => Some(Literal::Number(-n)),
                ("+", Literal::Number(n)) => Some(Literal::Number(n)),
                _ => None,
            }
        }
        _ => None,
    }
}

/// May two evaluations of `node` differ? Calls, `await`, `yield`, walrus,
/// and attribute access, which runs properties and descriptors
/// (`assertIs(obj.manager, obj.manager)` tests caching).
fn has_effects(node: &Node) -> bool {
    let mut found = false;
    visit_named(*node, |n| {
        if matches!(
            n.kind(),
            "call" | "await" | "yield" | "named_expression" | "lambda" | "attribute"
        ) {
            found = true;
        }
        !found
    });
    found
}
