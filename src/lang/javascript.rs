//! JavaScript and TypeScript (tree-sitter-javascript / -typescript): jest,
//! vitest, mocha, jasmine and node:test.
//!
//! Tests are `it`/`test`/`specify` calls (with `.skip`, `.only`, `.each`,
//! `.concurrent`, `x` prefixes) anywhere in the file, inside `describe`/
//! `context`/`suite` groups. Assertions are `expect(..)` chains (jest, vitest,
//! chai, `expectTypeOf`), `assert`/`assert.*` (node:assert, chai), `should`
//! chains, sinon's `assert`, and testing-library `getBy*`/`findBy*` queries,
//! which throw when the element is missing.

use super::syntax::{Node, Tree};

use super::FieldExt;
use super::versions::{Body, Item, Memo};
use super::{
    Assertion, Bound, Form, Guard, Import, ImportKind, Literal, Mock, MockReturn, MockTarget, Operand, Skip, Span,
    TestCase, TestFile, Unchecked, UncheckedKinds, Unfinished, bound, callee_key, chain, close_helpers, contains_kind,
    display, first_child, first_syntax_error, guards_where, keep_imported_uses, normalized, note_name, number,
    plain_bindings, single_call_aliases, single_nonempty_collections, text, token_key, unchecked, unwrap, values,
    visit_named,
};

const COMMENT: &str = "comment";
const UNCHECKED: UncheckedKinds = UncheckedKinds {
    binding: ("variable_declarator", "name", "value"),
    computed: &["call_expression", "await_expression", "new_expression"],
    call: "call_expression",
    macro_call: "",
    identifiers: &["identifier", "shorthand_property_identifier"],
    effects: &[
        "call_expression",
        "new_expression",
        "member_expression",
        "subscript_expression",
        "await_expression",
    ],
    scopes: &[
        "function_declaration",
        "function_expression",
        "arrow_function",
        "method_definition",
        "class_declaration",
        "class",
    ],
};
/// Nested function kinds: their bodies run later, if at all.
const JS_FUNCTIONS: &[&str] = &["arrow_function", "function_expression", "function_declaration"];
const TEST_NAMES: &[&str] = &["it", "test", "specify", "xit", "xtest", "xspecify", "fit", "ftest"];
/// Lifecycle hooks reached through a test function (`test.beforeEach`).
const HOOK_NAMES: &[&str] = &["before", "after", "beforeEach", "afterEach", "beforeAll", "afterAll"];
const GROUP_NAMES: &[&str] = &["describe", "context", "suite", "xdescribe", "xcontext", "fdescribe"];

pub fn test_file(tree: &Tree, source: &[u8], memo: Option<&mut Memo>) -> TestFile {
    let mut walker = Walker {
        memo,
        source,
        root: tree.root_node(),
        file: TestFile::default(),
        bodies: Vec::new(),
        tables: module_tables(&tree.root_node(), source),
        literals: module_literals(&tree.root_node(), source),
        qunit: false,
        groups: Vec::new(),
        wrappers: relative_imports(&tree.root_node(), source),
        http_client: imports_http_client(&tree.root_node(), source),
    };
    walker.visit(&tree.root_node(), None);
    let mut mocks = MockScan::default();
    walker.imports_and_uses(&tree.root_node(), Some(&mut mocks));
    walker.mocks(mocks);
    // QUnit runs in a page that loads the code under test with script tags.
    walker.file.page_loaded = walker.qunit && walker.file.imports.is_empty();
    let Walker { mut file, bodies, .. } = walker;
    file.helpers = close_helpers(&bodies);
    keep_imported_uses(&mut file);
    file.paths.sort();
    file.paths.dedup();
    file
}

/// Methods that give a spy its own behaviour (jest/vitest, sinon, jasmine's `and.*`).
const CONFIGURES: &[&str] = &[
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

/// Mock sites found in one walk of the file, resolved by [`Walker::mocks`].
#[derive(Default)]
struct MockScan<'a> {
    /// Each site, the spy's variable, whether it is a spy, and its call.
    sites: Vec<(Mock, Option<String>, bool, Node<'a>)>,
    /// Receivers given a behaviour later (`spy.mockReturnValue(..)`), with the
    /// call that does it.
    configured: Vec<(String, Node<'a>)>,
    callbacks: usize,
    /// Mocks told to return a literal, wherever in the file (a test's own are
    /// also read with the test; the others apply to the tests in their scope).
    returns: Vec<(MockReturn, Node<'a>)>,
}

/// An array display as a collection literal (its length; elements are not compared).
fn array(node: &Node) -> Option<Literal> {
    (node.kind() == "array").then(|| {
        let mut cursor = node.walk();
        Literal::Collection(node.named_children(&mut cursor).filter(|c| c.kind() != COMMENT).count())
    })
}

/// `const CASES = [...]` at the top level of the file: tables of cases.
fn module_tables(root: &Node, source: &[u8]) -> Vec<String> {
    let mut out = Vec::new();
    for declarator in top_declarators(root) {
        if let (Some(name), Some(value)) = (declarator.field("name"), declarator.field("value").map(unwrap))
            && name.kind() == "identifier"
            && matches!(array(&value), Some(Literal::Collection(n)) if n > 0)
        {
            out.push(text(&name, source).into_owned());
        }
    }
    out
}

/// The declarators of the file's top-level `const`, `let` and `var`
/// declarations, exported or not.
fn top_declarators<'a>(root: &Node<'a>) -> Vec<Node<'a>> {
    let mut out = Vec::new();
    let mut cursor = root.walk();
    for statement in root.named_children(&mut cursor) {
        let declaration = match statement.kind() {
            "export_statement" => statement.field("declaration"),
            "lexical_declaration" | "variable_declaration" => Some(statement),
            _ => None,
        };
        let Some(declaration) = declaration else { continue };
        let mut c = declaration.walk();
        out.extend(
            declaration
                .named_children(&mut c)
                .filter(|d| d.kind() == "variable_declarator"),
        );
    }
    out
}

/// The node kinds whose children may run under a different guard than they do.
const GUARDING: &[&str] = &[
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

/// A call that mocks, stubs or spies on a target.
enum Site {
    Mock(Mock),
    /// `vi.spyOn(api, "get")` without a behaviour in its own chain: whether it
    /// replaces the method depends on a later `mockReturnValue` on it.
    Spy(Mock, Option<String>),
    /// A double with no target (`vi.fn()`, `sinon.spy()`).
    Callback,
}

/// Does the chain around `call` (its parents `.a().b()`) give it a behaviour?
fn configured_in_chain(call: &Node, source: &[u8]) -> bool {
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

pub fn imports(tree: &Tree, source: &[u8]) -> Vec<Import> {
    let mut walker = Walker {
        memo: None,
        source,
        root: tree.root_node(),
        file: TestFile::default(),
        bodies: Vec::new(),
        tables: Vec::new(),
        literals: Vec::new(),
        qunit: false,
        groups: Vec::new(),
        wrappers: Vec::new(),
        http_client: false,
    };
    walker.imports_and_uses(&tree.root_node(), None);
    walker.file.imports
}

struct Walker<'s, 'm> {
    /// What the version before held, when reading a history.
    memo: Option<&'m mut Memo>,
    source: &'s [u8],
    root: Node<'s>,
    file: TestFile,
    bodies: Vec<Body>,
    /// Top-level names bound to non-empty arrays.
    tables: Vec<String>,
    /// Top-level names bound once to an array literal, with it: the rows a
    /// table-driven test may loop over ([`loop_cases`]).
    literals: Vec<(String, Node<'s>)>,
    /// The file holds QUnit tests.
    qunit: bool,
    /// The titles of the `describe` groups being walked.
    groups: Vec<String>,
    /// Names imported from the project's own modules: called with a title
    /// and a function, one declares a test through the project's wrapper.
    wrappers: Vec<String>,
    /// The file imports an HTTP test client whose chained `.expect(..)`
    /// asserts ([`imports_http_client`]).
    http_client: bool,
}

/// HTTP test clients whose requests chain assertions:
/// `request(app).get("/").expect(200)` (supertest and its forks).
const HTTP_CLIENTS: &[&str] = &["supertest"];

/// Does a top-level `import` or `require` load an [`HTTP_CLIENTS`] module?
fn imports_http_client(root: &Node, source: &[u8]) -> bool {
    let mut cursor = root.walk();
    root.named_children(&mut cursor)
        .filter(|n| {
            matches!(
                n.kind(),
                "import_statement" | "lexical_declaration" | "variable_declaration"
            )
        })
        .any(|statement| {
            let mut found = false;
            visit_named(statement, |n| {
                if n.kind() == "string" {
                    let module = text(&n, source);
                    let module = module.trim_matches(['"', '\'', '`']);
                    found |= HTTP_CLIENTS.iter().any(|c| {
                        module == *c || module.strip_prefix(c).is_some_and(|rest| rest.starts_with(['-', '/']))
                    });
                }
                !found
            });
            found
        })
}

/// The names the top-level `import` statements bind from relative modules
/// (`import { browserTest } from './helpers/with-page'`), sorted.
fn relative_imports(root: &Node, source: &[u8]) -> Vec<String> {
    let mut names = Vec::new();
    let mut cursor = root.walk();
    for statement in root
        .named_children(&mut cursor)
        .filter(|n| n.kind() == "import_statement")
    {
        let relative = statement
            .field("source")
            .is_some_and(|s| text(&s, source).trim_matches(['"', '\'', '`']).starts_with('.'));
        if !relative {
            continue;
        }
        visit_named(statement, |n| {
            if n.kind() == "identifier" {
                names.push(text(&n, source).into_owned());
            }
            true
        });
    }
    names.sort();
    names.dedup();
    names
}

/// The names along a callee: `it.skip.each(table)` -> `["it", "skip", "each"]`.
fn callee_path(node: &Node, source: &[u8]) -> Option<Vec<String>> {
    match node.kind() {
        "identifier" => Some(vec![text(node, source).into_owned()]),
        "member_expression" => {
            let mut path = callee_path(&node.field("object")?, source)?;
            path.push(text(&node.field("property")?, source).into_owned());
            Some(path)
        }
        // `it.each(table)("name", fn)` and `test.each\`...\`("name", fn)`.
        "call_expression" => {
            let path = callee_path(&node.field("function")?, source)?;
            (path.last().map(String::as_str) == Some("each")).then_some(path)
        }
        "parenthesized_expression" | "non_null_expression" => callee_path(&first_child(node)?, source),
        _ => None,
    }
}

fn arguments<'a>(call: &Node<'a>) -> Vec<Node<'a>> {
    let Some(args) = call.field("arguments") else {
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

impl<'s> Walker<'s, '_> {
    /// A comment ending on the line above a skip is its reason (JavaScript
    /// runners take no reason argument). Skips are rare: the comment is looked
    /// up when one is found, descending only into nodes that span that line.
    fn comment_reason(&self, span: Span) -> Option<String> {
        let line = span.line.checked_sub(1)?;
        let mut found = None;
        visit_named(self.root, |n| {
            if found.is_some() {
                return false;
            }
            let s = Span::of(&n);
            if n.kind() == COMMENT && s.end_line == line {
                let body = text(&n, self.source)
                    .trim_start_matches("//")
                    .trim_start_matches("/*")
                    .trim_end_matches("*/")
                    .trim()
                    .to_string();
                found = Some(body);
            }
            s.line <= line && line <= s.end_line
        });
        found.filter(|c| !c.is_empty())
    }

    fn visit(&mut self, node: &Node, group_skip: Option<&Skip>) {
        if node.kind() == "call_expression"
            && let Some(function) = node.field("function")
            && let Some(path) = callee_path(&function, self.source)
        {
            let head = path[0].as_str();
            // QUnit.test / .skip / .only / .todo, with `assert` as the test context.
            let qunit = head == "QUnit"
                && path
                    .get(1)
                    .is_some_and(|p| matches!(p.as_str(), "test" | "skip" | "only" | "todo"));
            // `test.beforeEach(..)`, `test.afterEach.always(..)`, `test.serial.before(..)`:
            // AVA's and node:test's lifecycle hooks set up tests; they are not tests.
            let hook = path[1..].iter().any(|p| HOOK_NAMES.contains(&p.as_str()));
            if (TEST_NAMES.contains(&head) || qunit) && !hook {
                self.qunit |= qunit;
                self.remembered_test(node, &path, group_skip);
                return;
            }
            // A project's own wrapper: `browserTest('title', async (t) => ..)`
            // with `browserTest` imported from a relative module.
            // Declared as a statement: `validator('json', () => ..)` handed to
            // a route is a value, not a test.
            let statement = node
                .parent()
                .map(|p| {
                    if p.kind() == "await_expression" {
                        p.parent()
                    } else {
                        Some(p)
                    }
                })
                .is_some_and(|p| p.is_some_and(|p| p.kind() == "expression_statement"));
            if statement && path.len() == 1 && self.wrappers.iter().any(|w| w == head) {
                let args = arguments(node);
                if args.len() >= 2 && self.string_value(&args[0]).is_some() && args.last().is_some_and(is_function) {
                    self.remembered_test(node, &["test".to_string()], group_skip);
                    return;
                }
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
                let args = arguments(node);
                let title = args.first().map(|a| {
                    self.string_value(a)
                        .unwrap_or_else(|| text(a, self.source).into_owned())
                });
                self.groups.push(title.unwrap_or_default());
                for arg in args {
                    if is_function(&arg) {
                        self.visit(&arg, skip.as_ref());
                    }
                }
                self.groups.pop();
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

    /// Does the test's title (or its group's) say the compiler is its check
    /// ("has no type errors", "compiles")? What it builds and leaves unread
    /// is then the point: it is a smoke test, not a test that forgot to look.
    fn compiler_checks(&self, title: Option<&str>) -> bool {
        const SAYS: &[&str] = &[
            "type error",
            "type-error",
            "typecheck",
            "type check",
            "type-check",
            "type-level",
            "type level",
            "only types",
            "compiles",
            "compile error",
            "compile-time",
            "compile time",
        ];
        title
            .into_iter()
            .chain(self.groups.iter().map(String::as_str))
            .any(|t| {
                let t = t.to_lowercase();
                SAYS.iter().any(|s| t.contains(s))
            })
    }

    /// Imports (`import`, `require`, `import()`, `vi.importActual`,
    /// `jest.requireActual`), and the identifiers used outside them.
    fn imports_and_uses(&mut self, root: &Node<'s>, mut mocks: Option<&mut MockScan<'s>>) {
        visit_named(*root, |n| {
            if let Some(scan) = mocks.as_deref_mut()
                && matches!(n.kind(), "variable_declarator" | "expression_statement")
            {
                let mut found = Vec::new();
                self.mock_return_at(n, &mut found);
                scan.returns.extend(found.into_iter().map(|r| (r, n)));
            }
            match n.kind() {
                "import_statement" => {
                    let Some(source) = n.field("source").and_then(|s| self.string_value(&s)) else {
                        return false;
                    };
                    let mut bound = Vec::new();
                    let mut c = n.walk();
                    if let Some(clause) = n.named_children(&mut c).find(|c| c.kind() == "import_clause") {
                        // A bare identifier in the clause is the default import.
                        collect_bound(&clause, self.source, "default", &mut bound);
                    }
                    let kind = if bound.is_empty() {
                        ImportKind::SideEffect
                    } else {
                        ImportKind::Static
                    };
                    let (names, origins) = bound.into_iter().unzip();
                    self.file.imports.push(Import {
                        specifier: source,
                        names,
                        origins,
                        span: Span::of(&n),
                        kind,
                    });
                    return false;
                }
                "variable_declarator" => {
                    // const x = require("y"), const { a } = require("y"), const m = await import("y")
                    if let (Some(name), Some(value)) = (n.field("name"), n.field("value"))
                        && let Some(spec) = self.required(&value)
                    {
                        let mut bound = Vec::new();
                        collect_bound(&name, self.source, "*", &mut bound);
                        let (names, origins) = bound.into_iter().unzip();
                        self.file.imports.push(Import {
                            specifier: spec,
                            names,
                            origins,
                            span: Span::of(&n),
                            kind: ImportKind::Static,
                        });
                        return false;
                    }
                }
                "call_expression" => {
                    if let Some(scan) = mocks.as_deref_mut() {
                        self.mock_call(n, scan);
                    }
                    // Most calls import nothing: look at the callee before the arguments.
                    let kind = n.field("function").and_then(|f| match &self.source[f.byte_range()] {
                        b"import"
                        | b"vi.importActual"
                        | b"jest.requireActual"
                        | b"vi.importMock"
                        | b"jest.requireMock" => Some(ImportKind::Dynamic),
                        b"require" => Some(ImportKind::SideEffect),
                        _ => None,
                    });
                    if let Some(kind) = kind
                        && let Some(spec) = arguments(&n).first().and_then(|a| self.string_value(a))
                    {
                        self.file.imports.push(Import {
                            specifier: spec,
                            names: Vec::new(),
                            origins: Vec::new(),
                            span: Span::of(&n),
                            kind,
                        });
                    }
                }
                "string" => {
                    if let Some(value) = self.string_value(&n).filter(|v| looks_like_path(v)) {
                        self.file.paths.push(value);
                    }
                    return false;
                }
                // A name in a type position uses what it names (`JSONParsed<number>`).
                "identifier" | "shorthand_property_identifier" | "type_identifier" => {
                    // Most names repeat: allocate only the first time one is seen.
                    let name = text(&n, self.source);
                    if !self.file.used.contains(name.as_ref()) {
                        self.file.used.insert(name.into_owned());
                    }
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
                "member_expression" => v = v.field("object")?,
                _ => break,
            }
        }
        if v.kind() != "call_expression" {
            return None;
        }
        let callee = v.field("function")?;
        if !matches!(text(&callee, self.source).as_ref(), "require" | "import") {
            return None;
        }
        arguments(&v).first().and_then(|a| self.string_value(a))
    }

    /// Record a named function's body for helper detection. A helper handed
    /// the test context as a parameter (`t`, `ctx`, also as `{ t }`) asserts
    /// through it.
    fn helper(&mut self, node: &Node) {
        let (name, function) = match node.kind() {
            "function_declaration" | "generator_function_declaration" => (node.field("name"), Some(*node)),
            "variable_declarator" => match node.field("value") {
                Some(v) if is_function(&v) => (node.field("name"), Some(v)),
                _ => return,
            },
            _ => return,
        };
        let body = function.and_then(|f| f.field("body"));
        if let (Some(name), Some(function), Some(body)) = (name, function, body) {
            let mut params = Vec::new();
            for field in ["parameters", "parameter"] {
                if let Some(list) = function.field(field) {
                    identifiers(&list, self.source, &mut params);
                }
            }
            let contexts: Vec<String> = params
                .into_iter()
                .map(|(name, _)| name)
                .filter(|name| matches!(name.as_str(), "t" | "ctx"))
                .collect();
            let scan = self.scan_in(&body, contexts, Vec::new());
            self.bodies.push((
                text(&name, self.source).into_owned(),
                !scan.assertions.is_empty(),
                scan.calls,
            ));
        }
    }

    /// Read a test, or recall it from the memo when the version before held
    /// the same text in the same groups. Skipped tests are read each time:
    /// their reason may be a comment outside the test.
    fn remembered_test(&mut self, call: &Node, path: &[String], group_skip: Option<&Skip>) {
        let Some(memo) = self.memo.as_deref_mut().filter(|_| group_skip.is_none()) else {
            self.test(call, path, group_skip);
            return;
        };
        let scope = self.groups.join(" > ");
        let mut context = vec![scope.as_str()];
        context.extend(self.tables.iter().map(String::as_str));
        context.extend(self.wrappers.iter().map(String::as_str));
        // Not an identifier: never a table's or a wrapper's name.
        if self.http_client {
            context.push("<http client>");
        }
        // The module-level tables the test names, as written: their rows are its cases.
        let named = super::named_literals(&self.source[call.byte_range()], &self.literals, self.source);
        for (name, literal) in &named {
            context.extend(["\u{1f}", name, literal]);
        }
        let key = Memo::key(call, call, self.source, &context);
        let row = call.start_position().row;
        if let Some(item) = memo.recall(&key, row) {
            self.file.tests.extend(item.tests);
            return;
        }
        let before = self.file.tests.len();
        self.test(call, path, None);
        let tests = &self.file.tests[before..];
        if tests.iter().all(|t| t.skip.is_none())
            && let Some(memo) = self.memo.as_deref_mut()
        {
            let item = Item {
                tests: tests.to_vec(),
                ..Item::default()
            };
            memo.remember(key, row, &item);
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
                    scope: self.groups.join(" > "),
                    span,
                    skip: Some(skip),
                    empty: false,
                    assertions: Vec::new(),
                    calls: Vec::new(),
                    bindings: Vec::new(),
                    aliases: Vec::new(),
                    uses: Vec::new(),
                    mock_returns: Vec::new(),
                    benchmark: false,
                    mocks: Vec::new(),
                    unchecked: Unchecked::default(),
                    unfinished: Vec::new(),
                    syntax_error: None,
                    shape: Vec::new(),
                    extent: span,
                    cases: Vec::new(),
                });
            }
            return;
        };
        let Some(body) = function.field("body") else {
            return;
        };
        let context = test_context(function, self.source);
        let mut occurrences = Vec::new();
        for field in ["parameters", "parameter"] {
            if let Some(params) = function.field(field) {
                identifiers(&params, self.source, &mut occurrences);
            }
        }
        let mut mock_returns = Vec::new();
        let mut uses = std::collections::BTreeSet::new();
        self.binding_occurrences(&body, &mut occurrences, &mut mock_returns, &mut uses);
        // Table-driven tests: a local bound once to a non-empty array, or a
        // module-level one the test does not rebind.
        let mut tables = single_nonempty_collections(&occurrences);
        tables.extend(
            self.tables
                .iter()
                .filter(|t| !occurrences.iter().any(|(name, _)| name == *t))
                .cloned(),
        );
        let mut scan = self.scan_in(&body, context.into_iter().collect(), tables);
        // A test of nothing but type declarations that instantiate the
        // project's generics: compiling them is the check.
        if scan.assertions.is_empty() && only_instantiating_types(&body, self.source) {
            scan.assertions.push(type_check(&body));
        }
        let empty = body.kind() == "statement_block" && {
            let mut cursor = body.walk();
            body.named_children(&mut cursor).all(|c| c.kind() == COMMENT)
        };
        skip = skip.or(scan.skip.take()).or_else(|| group_skip.cloned());
        let unchecked = if scan.assertions.is_empty() && !self.compiler_checks(name.as_deref()) {
            unchecked(&body, self.source, &occurrences, &UNCHECKED, |callee| {
                callee.starts_with("console.")
            })
        } else {
            Unchecked::default()
        };
        self.file.tests.push(TestCase {
            name: name.unwrap_or_default(),
            scope: self.groups.join(" > "),
            span,
            skip,
            empty,
            assertions: scan.assertions,
            calls: scan.calls,
            bindings: plain_bindings(&occurrences),
            aliases: single_call_aliases(&occurrences),
            uses: uses.into_iter().collect(),
            mock_returns,
            benchmark: false,
            mocks: Vec::new(),
            unchecked,
            unfinished: scan.unfinished,
            syntax_error: first_syntax_error(&body),
            shape: super::shape(&body, self.source),
            extent: span,
            cases: {
                let cases = each_cases(call, function, &occurrences, self.source);
                if cases.is_empty() {
                    loop_cases(&body, &self.literals, &occurrences, self.source)
                } else {
                    cases
                }
            },
        });
    }

    /// Every place a name is bound in `node`: declarations (with the literal
    /// when the initializer is one), assignments, updates, loop variables.
    /// Mocks configured to return a literal (`returns`) are collected in the same walk.
    /// Every name referenced goes into `uses`.
    fn binding_occurrences(
        &self,
        node: &Node,
        out: &mut Vec<(String, Bound)>,
        returns: &mut Vec<MockReturn>,
        uses: &mut std::collections::BTreeSet<String>,
    ) {
        visit_named(*node, |n| {
            self.mock_return_at(n, returns);
            if matches!(n.kind(), "identifier" | "shorthand_property_identifier") {
                note_name(&n, self.source, uses);
            }
            match n.kind() {
                "variable_declarator" => {
                    if let Some(name) = n.field("name") {
                        if name.kind() == "identifier" {
                            // `const hs256: SymmetricAlgorithm = 'HS256'`: the
                            // compiler checks the literal against the type.
                            let typed = n.field("type").is_some_and(|t| names_a_type(&t, self.source))
                                || n.field("value").is_some_and(|v| cast_to_named_type(v, self.source));
                            let value = n.field("value").map(unwrap);
                            let value = bound(
                                value.and_then(|v| self.literal(&v).filter(|_| !typed).or_else(|| array(&v))),
                                value.and_then(|v| chain(&v, self.source)),
                                &n,
                                node,
                            );
                            out.push((text(&name, self.source).into_owned(), value));
                        } else {
                            identifiers(&name, self.source, out);
                        }
                    }
                }
                // `name = "draft"` in the test's own body rebinds like a declaration.
                "assignment_expression" => match n.field("left") {
                    Some(left) if left.kind() == "identifier" => {
                        let value = n.field("right").map(unwrap);
                        let value = bound(
                            value.and_then(|v| self.literal(&v)),
                            value.and_then(|v| chain(&v, self.source)),
                            &n,
                            node,
                        )
                        .assigned();
                        out.push((text(&left, self.source).into_owned(), value));
                    }
                    Some(left) => identifiers(&left, self.source, out),
                    None => {}
                },
                "augmented_assignment_expression" => {
                    if let Some(left) = n.field("left") {
                        identifiers(&left, self.source, out);
                    }
                }
                "update_expression" => {
                    if let Some(arg) = n.field("argument") {
                        identifiers(&arg, self.source, out);
                    }
                }
                "for_in_statement" => {
                    if let Some(left) = n.field("left") {
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
                .field("key")
                .map(|k| text(&k, self.source).trim_matches(['"', '\'']).to_string());
            let value = pair.field("value")?;
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

    /// What `call` mocks, if it is a mock, stub or spy.
    fn mock_site(&self, call: &Node) -> Option<Site> {
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
    fn factory_members(&self, factory: &Node) -> Option<Vec<String>> {
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
    fn declared_name(&self, call: &Node) -> Option<String> {
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
    fn mock_call(&self, n: Node<'s>, scan: &mut MockScan<'s>) {
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
    fn mocks(&mut self, scan: MockScan<'s>) {
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

    /// The span of the nearest enclosing test or group call, if any.
    fn enclosing_scope(&self, node: &Node) -> Option<Span> {
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
    fn scan_in(&self, body: &Node, contexts: Vec<String>, tables: Vec<String>) -> Scan {
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
                // next line compiles.
                COMMENT
                    if text(&n, self.source)
                        .trim_start_matches(['/', '*', ' '])
                        .starts_with("@ts-expect-error") =>
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

    fn call(&self, call: &Node, scan: &mut Scan) {
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
    fn type_assertion(&self, function: &Node, name: &str) -> bool {
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
    fn unfinished(&self, statement: &Node) -> Option<Unfinished> {
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
    fn argument_keys(&self, call: &Node) -> Vec<String> {
        arguments(call).iter().map(|a| token_key(a, self.source)).collect()
    }

    /// The values `expect(..)` checks, when `member` is a chain that starts at one.
    fn checked_values(&self, member: &Node) -> Vec<String> {
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
    fn asserts(&self, node: &Node, contexts: &[String]) -> bool {
        !self.scan_in(node, contexts.to_vec(), Vec::new()).assertions.is_empty()
    }

    /// The guard of each child of `node`, given the guard of `node`.
    fn child_guards(&self, node: &Node, children: &[Node], guard: Guard, scan: &Scan) -> Vec<Guard> {
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
    fn ends_in_failure(&self, block: &Node) -> bool {
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
        let object = function
            .field("object")
            .map(|o| text(&o, self.source).into_owned())
            .unwrap_or_default();
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

    fn property_assertion(&self, member: &Node) -> Option<Form> {
        let chain = member_chain(member, self.source);
        let last = chain.names.last()?.as_str();
        if chain.names.iter().any(|n| n == "should") {
            return Some(Form::Other);
        }
        let base = chain.base_call?;
        let base_name = base.field("function").map(|f| text(&f, self.source).into_owned())?;
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

    /// The form of an explicit failure `statement` (`throw`, `assert.fail()`,
    /// `expect.fail()`): [`Form::FailUnless`] directly in the body of an
    /// `if` (`if (got !== want) throw new Error(..)`), whose condition is
    /// then the check and whose own guard becomes the failure's;
    /// [`Form::Fail`] anywhere else.
    fn failure(&self, statement: &Node, scan: &mut Scan) -> Form {
        let Some((condition, guard)) = super::checking_condition(statement, &scan.ifs) else {
            return Form::Fail;
        };
        scan.guard = guard;
        Form::FailUnless(Box::new(self.demanded(&condition)))
    }

    /// What an `if` around a failure demands for the test to pass: its
    /// condition, negated (`a !== b` demands `a === b`, `!ok` demands `ok`).
    fn demanded(&self, condition: &Node) -> Form {
        let c = unwrap(*condition);
        let side = |field: &'static str| c.field(field).map(|n| self.operand(&n));
        let operator = c.field("operator").map(|o| text(&o, self.source).into_owned());
        match (c.kind(), operator.as_deref()) {
            ("binary_expression", Some(op @ ("!==" | "!=" | "===" | "=="))) => match (side("left"), side("right")) {
                (Some(a), Some(b)) if op.starts_with('!') => Form::Equal(a, b),
                (Some(a), Some(b)) => Form::NotEqual(a, b),
                _ => Form::Other,
            },
            ("unary_expression", Some("!")) => side("argument").map_or(Form::Other, Form::Truthy),
            ("identifier" | "member_expression" | "call_expression" | "await_expression" | "true" | "false", _) => {
                Form::Falsy(self.operand(&c))
            }
            _ => Form::Other,
        }
    }

    fn operand(&self, node: &Node) -> Operand {
        // `'' as AlgorithmTypes`: whether the cast compiles is the check.
        let typed = cast_to_named_type(*node, self.source);
        let cast = *node;
        let node = unwrap(*node);
        Operand {
            text: display(&node, self.source),
            key: normalized(if typed { &cast } else { &node }, self.source, COMMENT),
            literal: if typed { None } else { self.literal(&node) },
            effects: has_effects(&node),
            call_of: {
                let call = if node.kind() == "await_expression" {
                    first_child(&node)
                } else {
                    Some(node)
                };
                call.filter(|c| c.kind() == "call_expression")
                    .and_then(|c| c.field("function"))
                    .map(|f| callee_key(&text(&f, self.source)))
            },
        }
    }

    /// A mock configured to return a literal at `n`: `const f = vi.fn().mockReturnValue(5)`,
    /// `f.mockResolvedValue(5)`, `vi.spyOn(api, "get").mockReturnValue(5)`,
    /// `jest.fn(() => 5)`, sinon's `stub().returns(5)`.
    fn mock_return_at(&self, n: Node, out: &mut Vec<MockReturn>) {
        match n.kind() {
            "variable_declarator" => {
                if let (Some(name), Some(value)) = (n.field("name"), n.field("value"))
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
                        let object = call.field("function")?.field("object")?;
                        (object.kind() != "call_expression").then(|| callee_key(&text(&object, self.source)))
                    });
                    if let Some(callee) = target {
                        out.push(MockReturn { callee, literal, span });
                    }
                }
            }
            _ => {}
        }
    }

    /// If `call` configures a mock to return a literal: the literal, and the
    /// spied method (`api.get`) when the chain starts at `spyOn(api, "get")`.
    fn configured_mock(&self, call: &Node) -> Option<(Literal, Option<String>)> {
        if call.kind() != "call_expression" {
            return None;
        }
        let function = call.field("function")?;
        let args = arguments(call);
        // vi.fn(() => 5), jest.fn(() => 5)
        if matches!(text(&function, self.source).as_ref(), "vi.fn" | "jest.fn") {
            let f = args.first().filter(|a| is_function(a))?;
            let body = f.field("body")?;
            return Some((self.literal(&unwrap(body))?, None));
        }
        if function.kind() != "member_expression" {
            return None;
        }
        let method = text(&function.field("property")?, self.source).into_owned();
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
        let mut base = function.field("object")?;
        while base.kind() == "call_expression" {
            let f = base.field("function")?;
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
                "member_expression" => base = f.field("object")?,
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
                let op = node.field("operator").map(|o| text(&o, self.source).into_owned())?;
                match (op.as_str(), self.literal(&node.field("argument")?)?) {
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
    /// The guard of each `if` visited, by node id ([`Walker::failure`]).
    ifs: Vec<(usize, Guard)>,
    /// Names bound to non-empty arrays (tables of cases).
    tables: Vec<String>,
    /// Names bound to a test context (`t`, and subtests' `st`).
    contexts: Vec<String>,
    assertions: Vec<Assertion>,
    calls: Vec<String>,
    skip: Option<Skip>,
    unfinished: Vec<Unfinished>,
}

/// The local names an import clause or a binding pattern introduces, each
/// with what it stands for in the module (`default`, `*`, or the export name).
fn collect_bound(node: &Node, source: &[u8], origin: &str, out: &mut Vec<(String, String)>) {
    let name = |n: &Node| text(n, source).into_owned();
    match node.kind() {
        "identifier" => out.push((name(node), origin.to_string())),
        "shorthand_property_identifier_pattern" => out.push((name(node), name(node))),
        "import_specifier" => {
            if let Some(imported) = node.field("name") {
                let local = node.field("alias").unwrap_or(imported);
                out.push((name(&local), string_or_name(&imported, source)));
            }
        }
        "namespace_import" => {
            if let Some(local) = first_child(node) {
                out.push((name(&local), "*".to_string()));
            }
        }
        "pair_pattern" => {
            if let (Some(key), Some(value)) = (node.field("key"), node.field("value")) {
                collect_bound(&value, source, &string_or_name(&key, source), out);
            }
        }
        _ => {
            let mut cursor = node.walk();
            for child in node.named_children(&mut cursor) {
                collect_bound(&child, source, origin, out);
            }
        }
    }
}

/// A property or export name, written bare or quoted.
fn string_or_name(node: &Node, source: &[u8]) -> String {
    let t = text(node, source);
    t.trim_matches(|c| c == '"' || c == '\'').to_string()
}

/// Every identifier in a binding target, each without a known value.
fn identifiers(node: &Node, source: &[u8], out: &mut Vec<(String, Bound)>) {
    visit_named(*node, |n| {
        match n.kind() {
            "identifier" | "shorthand_property_identifier_pattern" => {
                out.push((text(&n, source).into_owned(), Bound::Other));
                return false;
            }
            // `obj.x = ..`, `a[i] = ..` bind no local name; types name no variable.
            "member_expression" | "subscript_expression" | "type_annotation" => return false,
            _ => {}
        }
        true
    });
}

/// A parameter of a test callback: a name, or the fields an object pattern
/// takes (`({ input, expected }) =>`).
enum Param {
    Name(String),
    Fields(Vec<String>),
    Other,
}

fn param(node: &Node, source: &[u8]) -> Param {
    let node = match node.kind() {
        // TypeScript: `(a: number)`, `({ a }: Case)`.
        "required_parameter" | "optional_parameter" => match node.field("pattern") {
            Some(p) => p,
            None => return Param::Other,
        },
        _ => *node,
    };
    match node.kind() {
        "identifier" => Param::Name(text(&node, source).into_owned()),
        "object_pattern" => {
            let mut cursor = node.walk();
            Param::Fields(
                node.named_children(&mut cursor)
                    .filter(|f| f.kind() == "shorthand_property_identifier_pattern")
                    .map(|f| text(&f, source).into_owned())
                    .collect(),
            )
        }
        _ => Param::Other,
    }
}

/// The cases of `it.each(table)(name, fn)` when `table` is a literal array:
/// an array row binds the callback's parameters by position, an object row
/// the fields its object pattern takes, any other row the only parameter.
/// Parameters the body rebinds (`occurrences` holds every binding, the
/// parameters' own included) are left out.
fn each_cases(
    call: &Node,
    function: &Node,
    occurrences: &[(String, Bound)],
    source: &[u8],
) -> Vec<Vec<(String, String)>> {
    let Some(table) = call
        .field("function")
        .filter(|f| f.kind() == "call_expression")
        .and_then(|each| arguments(&each).into_iter().next())
        .filter(|t| t.kind() == "array")
    else {
        return Vec::new();
    };
    let params: Vec<Param> = match (function.field("parameter"), function.field("parameters")) {
        (Some(single), _) => vec![param(&single, source)],
        (None, Some(list)) => {
            let mut cursor = list.walk();
            list.named_children(&mut cursor)
                .filter(|p| p.kind() != COMMENT)
                .map(|p| param(&p, source))
                .collect()
        }
        (None, None) => return Vec::new(),
    };
    let once = |name: &str| super::not_rebound(occurrences, name);
    let fields = |object: &Node, names: &[String], case: &mut Vec<(String, String)>| {
        let mut cursor = object.walk();
        for pair in object.named_children(&mut cursor).filter(|p| p.kind() == "pair") {
            let (Some(key), Some(value)) = (pair.field("key"), pair.field("value")) else {
                continue;
            };
            let key = text(&key, source);
            let key = key.trim_matches(|c| matches!(c, '"' | '\'' | '`'));
            if let Some(name) = names.iter().find(|n| *n == key && once(n)) {
                case.push((name.clone(), token_key(&value, source)));
            }
        }
    };
    let mut cases = Vec::new();
    let mut cursor = table.walk();
    for row in table.named_children(&mut cursor).filter(|r| r.kind() != COMMENT) {
        let mut case = Vec::new();
        match (row.kind(), params.as_slice()) {
            ("array", _) => {
                let mut c = row.walk();
                let values: Vec<Node> = row.named_children(&mut c).filter(|v| v.kind() != COMMENT).collect();
                for (param, value) in params.iter().zip(&values) {
                    match param {
                        Param::Name(name) if once(name) => case.push((name.clone(), token_key(value, source))),
                        Param::Fields(names) if value.kind() == "object" => fields(value, names, &mut case),
                        _ => {}
                    }
                }
            }
            ("object", [Param::Fields(names), ..]) => fields(&row, names, &mut case),
            (_, [Param::Name(name)]) if once(name) => case.push((name.clone(), token_key(&row, source))),
            _ => {}
        }
        if !case.is_empty() {
            cases.push(case);
        }
        if cases.len() == super::MAX_CASES {
            break;
        }
    }
    cases
}

/// Names the file binds once, at its top level, to an array literal, with
/// it (`const cases = [[1, 2], [3, 4]]`, exported or not).
fn module_literals<'a>(root: &Node<'a>, source: &[u8]) -> Vec<(String, Node<'a>)> {
    let mut bound = Vec::new();
    for declarator in top_declarators(root) {
        let Some(name) = declarator.field("name") else { continue };
        let value = declarator.field("value").map(unwrap).filter(|v| v.kind() == "array");
        let mut names = Vec::new();
        identifiers(&name, source, &mut names);
        for (n, _) in names {
            bound.push((n, value.filter(|_| name.kind() == "identifier")));
        }
    }
    super::literals_bound_once(bound)
}

/// The rows of a table-driven test as cases ([`TestCase::cases`]): the one
/// literal array a `for (const .. of table)` loop or a `table.forEach((..)
/// => ..)` callback runs over (written there, bound once in the test, or,
/// the test binding that name nowhere, once at the top of the file). An
/// array pattern (`[input, want]`) binds a row's values by position, an
/// object pattern (`{ input, want }`) a row's fields by key, and one name
/// (`c`) binds `c[0]`.. of an array row and `c.want` of an object row. A
/// row of another shape is not read; loops over two tables, or over plain
/// values, give none. A name the test rebinds is not the row's value.
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
    visit_named(*body, |n| {
        let (pattern, right) = match n.kind() {
            "for_in_statement" if n.field("operator").is_some_and(|o| text(&o, source) == "of") => {
                (n.field("left"), n.field("right"))
            }
            "call_expression" => {
                let callee = n.field("function").filter(|f| f.kind() == "member_expression");
                let each = callee
                    .and_then(|f| f.field("property"))
                    .is_some_and(|p| text(&p, source) == "forEach");
                let callback = arguments(&n).into_iter().next().filter(is_function);
                match (each, callback) {
                    (true, Some(callback)) => (
                        callback
                            .field("parameter")
                            .or_else(|| callback.field("parameters").and_then(|p| first_child(&p))),
                        callee.and_then(|f| f.field("object")),
                    ),
                    _ => (None, None),
                }
            }
            _ => (None, None),
        };
        if let (Some(pattern), Some(right)) = (pattern, right)
            && let Some(table) = table_literal(body, unwrap(right), module, occurrences, source)
            && let Some(cases) = loop_rows(&pattern, &table, occurrences, source)
        {
            tables.push((text(&table, source).into_owned(), cases));
        }
        true
    });
    super::one_table(tables)
}

/// The array literal a loop runs over: written there, the value of the one
/// binding of that name in `body`, or (the body binding it nowhere) the
/// file's table of that name.
fn table_literal<'a>(
    body: &Node<'a>,
    right: Node<'a>,
    module: &[(String, Node<'a>)],
    occurrences: &[(String, Bound)],
    source: &[u8],
) -> Option<Node<'a>> {
    match right.kind() {
        "array" => Some(right),
        "identifier" => {
            let name = text(&right, source);
            super::table_named(&name, occurrences, module, || {
                let mut value = None;
                visit_named(*body, |n| {
                    if n.kind() == "variable_declarator"
                        && n.field("name")
                            .is_some_and(|l| l.kind() == "identifier" && text(&l, source) == name)
                    {
                        value = n.field("value").map(unwrap).filter(|v| v.kind() == "array");
                    }
                    value.is_none()
                });
                value
            })
        }
        _ => None,
    }
}

/// The cases of `table` as the loop's `pattern` reads each row.
fn loop_rows(
    pattern: &Node,
    table: &Node,
    occurrences: &[(String, Bound)],
    source: &[u8],
) -> Option<Vec<Vec<(String, String)>>> {
    let pattern = match pattern.kind() {
        // TypeScript: `([a, b]: Row) =>`.
        "required_parameter" | "optional_parameter" => pattern.field("pattern")?,
        _ => *pattern,
    };
    fn named<'a>(node: &Node<'a>) -> Vec<Node<'a>> {
        let mut c = node.walk();
        node.named_children(&mut c).filter(|v| v.kind() != COMMENT).collect()
    }
    // An object's fields by key (a plain or quoted name).
    fn fields<'a>(object: &Node<'a>, source: &[u8]) -> Vec<(String, Node<'a>)> {
        named(object)
            .into_iter()
            .filter(|p| p.kind() == "pair")
            .filter_map(|p| {
                let key = text(&p.field("key")?, source);
                let key = key.trim_matches(|c| matches!(c, '"' | '\'' | '`'));
                super::is_plain_name(key).then(|| (key.to_string(), p.field("value").unwrap_or(p)))
            })
            .collect()
    }
    let mut cases = Vec::new();
    for row in named(table) {
        let case: Vec<(String, String)> = match (pattern.kind(), row.kind()) {
            ("array_pattern", "array") => {
                let names = named(&pattern);
                if names.iter().any(|n| n.kind() != "identifier") {
                    return None;
                }
                names
                    .iter()
                    .zip(named(&row))
                    .map(|(name, value)| (text(name, source).into_owned(), token_key(&value, source)))
                    .collect()
            }
            ("object_pattern", "object") => {
                let mut case = Vec::new();
                let values = fields(&row, source);
                for part in named(&pattern) {
                    let (key, name) = match part.kind() {
                        "shorthand_property_identifier_pattern" => (text(&part, source), part),
                        "pair_pattern" => match (part.field("key"), part.field("value")) {
                            (Some(k), Some(v)) if v.kind() == "identifier" => (text(&k, source), v),
                            _ => continue,
                        },
                        _ => continue,
                    };
                    if let Some((_, value)) = values.iter().find(|(k, _)| *k == key) {
                        case.push((text(&name, source).into_owned(), token_key(value, source)));
                    }
                }
                case
            }
            ("identifier", "array") => {
                let one = text(&pattern, source);
                named(&row)
                    .iter()
                    .enumerate()
                    .map(|(i, value)| (format!("{one} [ {i} ]"), token_key(value, source)))
                    .collect()
            }
            ("identifier", "object") => {
                let one = text(&pattern, source);
                fields(&row, source)
                    .iter()
                    .map(|(key, value)| (format!("{one} . {key}"), token_key(value, source)))
                    .collect()
            }
            _ => continue,
        };
        cases.push(case);
        if cases.len() == super::MAX_CASES {
            break;
        }
    }
    super::loop_table_cases(cases, occurrences)
}

/// The name of a test function's first parameter, the test context (`t`).
fn test_context(function: &Node, source: &[u8]) -> Option<String> {
    if let Some(single) = function.field("parameter") {
        return (single.kind() == "identifier").then(|| text(&single, source).into_owned());
    }
    let params = function.field("parameters")?;
    let first = first_child(&params)?;
    let name = match first.kind() {
        "identifier" => first,
        // TypeScript: `(t: TestContext) =>`
        "required_parameter" => first.field("pattern")?,
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
                if let Some(p) = node.field("property") {
                    names.push(text(&p, source).into_owned());
                }
                match node.field("object") {
                    Some(o) => node = o,
                    None => break,
                }
            }
            "call_expression" => {
                // `expect(x).resolves.toBe(1)` bottoms out at `expect(x)`; an
                // intermediate call (`.to.have.been.calledWith(..).and`) continues.
                let function = node.field("function");
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

/// Could this string name a file by a relative path: one word, a file name
/// with an extension or a path with a `/`, not a URL, an absolute path or a
/// module specifier that is a bare package name?
fn looks_like_path(value: &str) -> bool {
    let file_name = value.rsplit('/').next().unwrap_or(value);
    (1..=240).contains(&value.len())
        && !value.starts_with('/')
        && !value.contains("://")
        && !value.contains(char::is_whitespace)
        && (value.starts_with("./")
            || value.starts_with("../")
            || file_name.rsplit_once('.').is_some_and(|(stem, ext)| {
                !stem.is_empty() && (1..=5).contains(&ext.len()) && ext.chars().all(|c| c.is_ascii_alphanumeric())
            }))
}

/// Is this `throw` what the test hands to the code rather than a check: thrown
/// whatever happens (no condition around it in its own function) by a callback
/// the test passes to a call inside a `try` body (a hook given to a client,
/// `resume(() => { throw new Error("boom") })`)? The `catch` then receives
/// the code's answer to it. A conditional throw in a callback
/// (`items.forEach((i) => { if (!i.ok) throw .. })`) stays a check.
fn thrown_into_code(throw: &Node) -> bool {
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
fn hands_on(handler: &Node, source: &[u8]) -> bool {
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

/// Types every program has: a value typed as one of these is not checked
/// against anything of the project's.
const BUILTIN_TYPES: &[&str] = &[
    "Array",
    "ReadonlyArray",
    "Record",
    "Partial",
    "Required",
    "Readonly",
    "Pick",
    "Omit",
    "Promise",
    "Map",
    "Set",
    "WeakMap",
    "WeakSet",
    "Exclude",
    "Extract",
    "NonNullable",
    "ReturnType",
    "Parameters",
    "Awaited",
];

/// Does this type name a type of its own (`AlgorithmTypes`, `z.ZodType`),
/// not only built-in ones (`string`, `'a' | 'b'`, `Array<number>`)?
fn names_a_type(node: &Node, source: &[u8]) -> bool {
    super::holds(
        node,
        |n| match n.kind() {
            "nested_type_identifier" => true,
            "type_identifier" => !BUILTIN_TYPES.contains(&text(n, source).as_ref()),
            _ => false,
        },
        |_| true,
    )
}

/// Does this type instantiate a generic type of its own with arguments
/// (`Expect<Equal<A, B>>`, `z.ZodEnumDef<readonly ["a"]>`, a conditional
/// type over `RefinedUnionSchema<T>`)? `{ id: string }` does not.
fn instantiates(node: &Node, source: &[u8]) -> bool {
    super::holds(
        node,
        |n| {
            n.kind() == "generic_type"
                && n.field("name").is_some_and(|name| {
                    name.kind() == "nested_type_identifier" || !BUILTIN_TYPES.contains(&text(&name, source).as_ref())
                })
        },
        |_| true,
    )
}

/// Does this test body hold only type declarations (and comments), one of
/// which instantiates a generic type of the project's?
fn only_instantiating_types(body: &Node, source: &[u8]) -> bool {
    let mut cursor = body.walk();
    let statements: Vec<Node> = body
        .named_children(&mut cursor)
        .filter(|c| c.kind() != COMMENT)
        .collect();
    statements
        .iter()
        .all(|s| matches!(s.kind(), "type_alias_declaration" | "interface_declaration"))
        && statements.iter().any(|s| instantiates(s, source))
}

/// Is `node` a value cast to (or checked against) a type of the project's:
/// `'' as AlgorithmTypes`, `x satisfies Route`? `as const` is not.
fn cast_to_named_type(mut node: Node, source: &[u8]) -> bool {
    loop {
        match node.kind() {
            "as_expression" | "satisfies_expression" => {
                let mut cursor = node.walk();
                let ty = node.named_children(&mut cursor).filter(|c| c.kind() != COMMENT).nth(1);
                if ty.is_some_and(|t| names_a_type(&t, source)) {
                    return true;
                }
            }
            "parenthesized_expression" | "non_null_expression" => {}
            _ => return false,
        }
        match first_child(&node) {
            Some(inner) => node = inner,
            None => return false,
        }
    }
}

/// A check the TypeScript compiler makes at `n` (a type assertion alias, a
/// `@ts-expect-error` line): made whatever runs, so no condition or handler
/// around it guards it.
fn type_check(n: &Node) -> Assertion {
    Assertion::bare(Span::of(n), Form::Other, "type", Guard::default())
}

fn is_expect_callee(function: &Node, source: &[u8]) -> bool {
    matches!(text(function, source).as_ref(), "expect.soft" | "chai.expect")
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
    super::has_ancestor(node, &["if_statement", "ternary_expression"], JS_FUNCTIONS)
}
