//! Languages: one file per language turns source into the same model of a
//! test file (test cases, their skip state, assertions and the values they
//! compare, the functions they call), parsing each file once with
//! tree-sitter. Comments and strings are syntax nodes, never matched as code.

pub mod go;
pub mod javascript;
pub mod python;
pub mod rust;
pub mod syntax;
pub mod versions;

use std::path::Path;

use serde::{Deserialize, Serialize};
use syntax::{Node, Tree};
use tree_sitter::Parser;

/// A language loki-gate parses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Lang {
    Python,
    JavaScript,
    TypeScript,
    /// TypeScript with JSX.
    Tsx,
    Rust,
    Go,
}

impl Lang {
    /// The language of a file, from its extension.
    pub fn from_path(path: &Path) -> Option<Lang> {
        match path.extension()?.to_str()? {
            "py" | "pyi" => Some(Lang::Python),
            "js" | "jsx" | "mjs" | "cjs" => Some(Lang::JavaScript),
            "ts" | "mts" | "cts" => Some(Lang::TypeScript),
            "tsx" => Some(Lang::Tsx),
            "rs" => Some(Lang::Rust),
            "go" => Some(Lang::Go),
            _ => None,
        }
    }

    /// The config name of the language family (`gates.mock.languages`).
    pub fn family(self) -> &'static str {
        match self {
            Lang::Python => "python",
            Lang::JavaScript => "javascript",
            Lang::TypeScript | Lang::Tsx => "typescript",
            Lang::Rust => "rust",
            Lang::Go => "go",
        }
    }

    pub(crate) fn grammar(self) -> tree_sitter::Language {
        match self {
            Lang::Python => tree_sitter_python::LANGUAGE.into(),
            Lang::JavaScript => tree_sitter_javascript::LANGUAGE.into(),
            Lang::TypeScript => tree_sitter_typescript::LANGUAGE_TYPESCRIPT.into(),
            Lang::Tsx => tree_sitter_typescript::LANGUAGE_TSX.into(),
            Lang::Rust => tree_sitter_rust::LANGUAGE.into(),
            Lang::Go => tree_sitter_go::LANGUAGE.into(),
        }
    }

    /// Parse `source`. tree-sitter recovers from errors, so this only fails
    /// when the grammar cannot be loaded.
    pub fn parse(self, source: &[u8]) -> Option<Tree> {
        Some(Tree::new(&self.parse_tree(source)?))
    }

    /// [`Lang::parse`], as tree-sitter's own tree (for reparsing an edited version).
    pub fn parse_tree(self, source: &[u8]) -> Option<tree_sitter::Tree> {
        thread_local! {
            static PARSER: std::cell::RefCell<Parser> = std::cell::RefCell::new(Parser::new());
        }
        PARSER.with(|parser| {
            let mut parser = parser.borrow_mut();
            parser.set_language(&self.grammar()).ok()?;
            parser.parse(source, None)
        })
    }

    /// Only the imports of `source` (for following a support module).
    pub fn imports(self, source: &[u8]) -> Option<Vec<Import>> {
        let tree = self.parse(source)?;
        Some(match self {
            Lang::Python => python::imports(&tree, source),
            Lang::JavaScript | Lang::TypeScript | Lang::Tsx => javascript::imports(&tree, source),
            Lang::Rust => rust::imports(&tree, source),
            Lang::Go => go::imports(&tree, source),
        })
    }

    /// Extract the test model from `source`.
    pub fn test_file(self, source: &[u8]) -> Option<TestFile> {
        if self == Lang::Rust && !rust::may_hold_tests(source) {
            return Some(TestFile::default());
        }
        Some(self.model(&self.parse(source)?, source, None))
    }

    /// The test model of `source`, parsed as `tree`, reusing what `memo`
    /// holds of the version before.
    fn model(self, tree: &Tree, source: &[u8], memo: Option<&mut versions::Memo>) -> TestFile {
        let mut file = match self {
            Lang::Python => python::test_file(tree, source, memo),
            Lang::JavaScript | Lang::TypeScript | Lang::Tsx => javascript::test_file(tree, source, memo),
            Lang::Rust => rust::test_file(tree, source, memo),
            Lang::Go => go::test_file(tree, source, memo),
        };
        file.syntax_errors = tree.root_node().has_error();
        for a in file.tests.iter_mut().flat_map(|t| &mut t.assertions) {
            a.read_condition();
        }
        file
    }
}

/// A source range: 1-based lines and columns, the end column exclusive.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(from = "[u32; 4]", into = "[u32; 4]")]
pub struct Span {
    pub line: u32,
    pub column: u32,
    pub end_line: u32,
    pub end_column: u32,
}

/// Spans are stored as `[line, column, end_line, end_column]` in the cache.
impl From<[u32; 4]> for Span {
    fn from([line, column, end_line, end_column]: [u32; 4]) -> Span {
        Span {
            line,
            column,
            end_line,
            end_column,
        }
    }
}

impl From<Span> for [u32; 4] {
    fn from(s: Span) -> [u32; 4] {
        [s.line, s.column, s.end_line, s.end_column]
    }
}

fn is_false(b: &bool) -> bool {
    !b
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

impl Span {
    /// Does `inner` lie within this span?
    pub fn contains(&self, inner: Span) -> bool {
        (inner.line, inner.column) >= (self.line, self.column)
            && (inner.end_line, inner.end_column) <= (self.end_line, self.end_column)
    }

    /// The same span `delta` lines further down.
    fn moved(self, delta: i64) -> Span {
        let m = |line: u32| u32::try_from(i64::from(line) + delta).unwrap_or(line);
        Span {
            line: m(self.line),
            end_line: m(self.end_line),
            ..self
        }
    }

    /// From the start of `first` to the end of `last`.
    pub fn between(first: &Node, last: &Node) -> Span {
        let (start, end) = (Span::of(first), Span::of(last));
        Span {
            end_line: end.end_line,
            end_column: end.end_column,
            ..start
        }
    }

    pub fn of(node: &Node) -> Span {
        let (s, e) = (node.start_position(), node.end_position());
        let n = |v: usize| u32::try_from(v + 1).unwrap_or(u32::MAX);
        Span {
            line: n(s.row),
            column: n(s.column),
            end_line: n(e.row),
            end_column: n(e.column),
        }
    }
}

/// What a test file holds.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct TestFile {
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tests: Vec<TestCase>,
    /// Every import in the file (static, side-effect, `require`, dynamic).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub imports: Vec<Import>,
    /// Identifiers the file references outside its import statements.
    #[serde(default, skip_serializing_if = "std::collections::BTreeSet::is_empty")]
    pub used: std::collections::BTreeSet<String>,
    /// Some test takes pytest fixtures (other than pytest's own), which may
    /// hand it the code under test without an import in this file.
    #[serde(default, skip_serializing_if = "is_false")]
    pub uses_fixtures: bool,
    /// Functions defined in the file whose bodies assert (directly or through
    /// another such function): calling one counts as asserting.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub helpers: Vec<String>,
    /// tree-sitter had to recover from a syntax error somewhere in the file.
    #[serde(default, skip_serializing_if = "is_false")]
    pub syntax_errors: bool,
    /// The runner loads the code under test into a page (QUnit with no
    /// imports): the file needs no import of it.
    #[serde(default, skip_serializing_if = "is_false")]
    pub page_loaded: bool,
    /// Every place the file replaces or watches code: patches, module mocks,
    /// stubs and spies on a target. Bare callback spies (`vi.fn()`,
    /// `Mock()`) have no target and are only counted.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub mocks: Vec<Mock>,
    /// Target-less test doubles: `vi.fn()`, `jest.fn()`, `sinon.spy()`, `Mock()`.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub callback_spies: usize,
    /// Python strings that name a module by its dotted path
    /// (`"test_runner_apps.simple"`), as a test runner's test loads them, sorted.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub module_names: Vec<String>,
    /// JavaScript strings that name a file by a relative path
    /// (`"./src/color.ts"`, `"../../mini/index.ts"`, `"api.mdx"`), as a test
    /// hands project files to a bundler or reads them, sorted.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub paths: Vec<String>,
    /// A digest of the file without its tests, for a file that holds both
    /// (Rust's `#[cfg(test)] mod`): two versions whose digests differ
    /// changed code, not only tests.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub code_digest: String,
}

/// Is `s` one name: letters, digits and `_` only, at least one
/// (`result`, not `self.x`, not `f()`).
pub fn is_plain_name(s: &str) -> bool {
    !s.is_empty() && s.chars().all(|c| c.is_alphanumeric() || c == '_')
}

/// Is `s` a dotted path of at least two Python identifiers (`pkg.mod`)?
pub fn is_dotted_path(s: &str) -> bool {
    let mut parts = 0;
    for part in s.split('.') {
        let mut chars = part.chars();
        let head = chars.next().is_some_and(|c| c == '_' || c.is_ascii_alphabetic());
        if !head || !chars.all(|c| c == '_' || c.is_ascii_alphanumeric()) {
            return false;
        }
        parts += 1;
    }
    parts >= 2
}

/// A mock, patch, stub or spy with a target.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Mock {
    pub span: Span,
    pub target: MockTarget,
    /// Replaces the real code (a patch, a module mock, a stub, a spy given an
    /// implementation or a return value). A spy that calls through only watches.
    #[serde(default, skip_serializing_if = "is_false")]
    pub replaces: bool,
}

/// What a mock replaces.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum MockTarget {
    /// A module by specifier (`vi.mock("./cart")`). `members` lists the only
    /// exports replaced when the factory spreads the real module in.
    Module {
        specifier: String,
        members: Option<Vec<String>>,
        /// No factory (`vi.mock("./client")`): the runner uses the
        /// module's manual mock in `__mocks__` when there is one.
        #[serde(default, skip_serializing_if = "is_false")]
        automock: bool,
    },
    /// A dotted path (`patch("pkg.billing.total")`).
    Path(String),
    /// A member of an object in scope (`patch.object(billing, "total")`,
    /// `vi.spyOn(api, "get")`): the object as a [`chain`] key.
    Member { object: String, member: String },
}

impl MockTarget {
    pub fn describe(&self) -> String {
        match self {
            MockTarget::Module { specifier, .. } => specifier.clone(),
            MockTarget::Path(path) => path.clone(),
            MockTarget::Member { object, member } => format!("{object}.{member}"),
        }
    }
}

/// What a test does with the values it computes, read for tests that assert
/// nothing themselves: it tells a smoke test ("this runs without raising")
/// from one that computes a result and never looks at it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Unchecked {
    /// Names bound once to a call whose value the test never reads, except to
    /// print it (`result = total(cart)`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub results: Vec<String>,
    /// The test prints or logs (`print`, `console.log`): it shows values
    /// instead of checking them.
    #[serde(default, skip_serializing_if = "is_false")]
    pub prints: bool,
    /// Nothing in the test can raise: no call, no attribute or item access.
    #[serde(default, skip_serializing_if = "is_false")]
    pub inert: bool,
}

impl Unchecked {
    fn is_empty(&self) -> bool {
        *self == Unchecked::default()
    }
}

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
            out.prints |= !in_named_definition(&n, body);
            return false;
        }
        if kind == kinds.macro_call && n.field("macro").is_some_and(|m| prints(&callee_key(&text(&m, source)))) {
            out.prints = true;
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

/// Is `node` inside a function or method the test body defines by name
/// (not a lambda or an arrow function, which the test may call inline)?
fn in_named_definition(node: &Node, body: &Node) -> bool {
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

/// One test: a pytest/unittest function or method, or an `it`/`test` call.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TestCase {
    pub name: String,
    /// Where the test is declared: the class (`TestCart`), or the titles of
    /// the enclosing `describe` groups joined by ` > `.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub scope: String,
    /// Where the test is declared (the `def` line, or the `it(` call).
    pub span: Span,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub skip: Option<Skip>,
    /// No statements in the body (`pass`, `...`, a docstring or comments only).
    #[serde(default, skip_serializing_if = "is_false")]
    pub empty: bool,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub assertions: Vec<Assertion>,
    /// Names of the functions the body calls (the last name of `a.b.c()`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub calls: Vec<String>,
    /// The plain bindings of the local names whose value is known at each
    /// point of the test ([`plain_bindings`]: `expected = 5`, `const name
    /// = "ok"`, `name = build()`), in source order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub bindings: Vec<Binding>,
    /// Mocks the test told to return a literal (`m.return_value = 5`,
    /// `vi.fn().mockReturnValue(5)`), by the callee that returns it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub mock_returns: Vec<MockReturn>,
    /// A benchmark rather than a test (pytest-benchmark's `benchmark`
    /// fixture, `@pytest.mark.benchmark`): it measures, it does not assert.
    #[serde(default, skip_serializing_if = "is_false")]
    pub benchmark: bool,
    /// The mocks in effect while the test runs, as indexes into
    /// [`TestFile::mocks`]: its own, its decorators' and class decorators',
    /// `setUp`'s, its fixtures', `vi.mock` and enclosing `beforeEach`es'.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub mocks: Vec<usize>,
    /// The imported names the test references (`total`, `billing`), sorted.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub uses: Vec<String>,
    /// Local names bound exactly once to a call or `new`, with that value as
    /// a [`chain`] key (`calc` -> `Calculator()`, `result` -> `billing.total()`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub aliases: Vec<(String, String)>,
    /// For a test with no assertion of its own, what it leaves unchecked.
    #[serde(default, skip_serializing_if = "Unchecked::is_empty")]
    pub unchecked: Unchecked,
    /// The line of the first syntax error tree-sitter recovered from inside
    /// the test's body: what was read of it may be wrong.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub syntax_error: Option<u32>,
    /// What the body says, as a sketch ([`shape`]): a renamed, moved or
    /// lightly edited test is told by a body much like its old one.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub shape: Vec<u32>,
    /// Where the test's text is: its body, with its decorators or
    /// attributes, or the whole `it(..)` / `it.each(..)(..)` call.
    #[serde(default)]
    pub extent: Span,
    /// Assertions started and never made: `expect(x)` with no matcher, a
    /// matcher named and not called (`expect(x).toBeTruthy`,
    /// `m.assert_called_once`), `pytest.raises(E)` outside a `with`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unfinished: Vec<Unfinished>,
    /// The cases of a parametrized test (`@pytest.mark.parametrize`,
    /// `it.each`, rstest's `#[case]`): each binds the parameters the body
    /// does not rebind to that case's values, as [`token_key`]s.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cases: Vec<Vec<(String, String)>>,
}

/// A statement that starts an assertion and never makes it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Unfinished {
    pub span: Span,
    /// The statement, whitespace collapsed.
    pub text: String,
    /// What it lacks: `no matcher`, `the matcher is not called`, `not entered`.
    pub lacks: String,
}

/// At most this many cases are read of a parametrized test (stacked
/// `parametrize` decorators multiply).
pub(crate) const MAX_CASES: usize = 256;

impl TestCase {
    /// Move every span of the test `delta` lines (its text moved, unchanged).
    pub(crate) fn move_lines(&mut self, delta: i64) {
        self.span = self.span.moved(delta);
        self.extent = self.extent.moved(delta);
        if let Some(skip) = &mut self.skip {
            skip.span = skip.span.moved(delta);
        }
        for a in &mut self.assertions {
            a.span = a.span.moved(delta);
            a.guard.swallowed_by = a.guard.swallowed_by.map(|s| s.moved(delta));
        }
        for b in &mut self.bindings {
            b.span = b.span.moved(delta);
        }
        for u in &mut self.unfinished {
            u.span = u.span.moved(delta);
        }
        for r in &mut self.mock_returns {
            r.span = r.span.moved(delta);
        }
        if let Some(line) = &mut self.syntax_error {
            *line = u32::try_from(i64::from(*line) + delta).unwrap_or(*line);
        }
    }
}

/// One import.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Import {
    /// The module as written: `./cart`, `@/lib/x`, `react`; Python `pkg.mod`,
    /// `.mod` or `..` (leading dots for relative imports).
    pub specifier: String,
    /// Local names it binds (`*` for a star import).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub names: Vec<String>,
    /// What each local name stands for, beside `names`: the exported name in
    /// JavaScript (`default`, `*` for a namespace or a whole `require`), the
    /// qualified name in Python (`pkg.billing.total`, `pkg` for `import pkg.mod`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub origins: Vec<String>,
    pub span: Span,
    pub kind: ImportKind,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum ImportKind {
    /// Binds names.
    Static,
    /// `import "./setup"`, `require("./x")` as a statement: binds nothing.
    SideEffect,
    /// `import("./x")`, `vi.importActual(..)`, `importlib.import_module(..)`: used where it is called.
    Dynamic,
}

impl Import {
    /// The specifiers this import names modules by: the module, and in
    /// Python its origins, since `from pkg import mod` names `pkg.mod`.
    pub fn module_specifiers(&self, lang: Lang) -> impl Iterator<Item = &String> {
        let origins = if lang == Lang::Python { &self.origins[..] } else { &[] };
        std::iter::once(&self.specifier).chain(origins)
    }

    /// Does the file use what this import brings in?
    pub fn used_in(&self, file: &TestFile) -> bool {
        match self.kind {
            ImportKind::Dynamic => true,
            ImportKind::SideEffect => false,
            ImportKind::Static => self.names.iter().any(|n| n == "*" || file.used.contains(n)),
        }
    }
}

/// A mock configured to return a literal.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MockReturn {
    /// How the test calls it: `m`, `svc.get`, `api.fetch`.
    pub callee: String,
    pub literal: Literal,
    pub span: Span,
}

/// The callee text without whitespace, for matching calls to a mock.
pub(crate) fn callee_key(text: &str) -> String {
    text.chars().filter(|c| !c.is_whitespace()).collect()
}

/// One plain binding of a local name (`x = v`, `let x = v`, `x := v`), of a
/// name bound only by such bindings in the test.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Binding {
    pub name: String,
    /// The scalar literal bound; `None` for what a call returns or a collection.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub literal: Option<Literal>,
    pub span: Span,
}

/// What one binding of a local name binds it to.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Bound {
    /// `name = literal`.
    Literal(Literal, Site),
    /// `name = call()` or `name = new X()`: the value as a [`chain`] key.
    Call(String, Site),
    /// Anything else (a loop variable, a destructuring, an update).
    Other,
}

impl Bound {
    /// An assignment to a name the test may not declare (`handled = true`):
    /// known only as a statement of the test body itself. In a callback or
    /// under a condition it writes whatever variable it names, when the code
    /// under test gets there.
    pub(crate) fn assigned(self) -> Bound {
        match self {
            Bound::Literal(_, site) | Bound::Call(_, site) if !site.straight => Bound::Other,
            other => other,
        }
    }
}

/// Where a binding is made.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Site {
    pub span: Span,
    /// A statement of the test body itself, not under a condition, loop,
    /// handler or block: it runs whenever the test does, in order.
    pub straight: bool,
}

/// The kinds between a binding and the test body that keep it a statement
/// of the body itself: declarations, expression statements, statement lists.
const STRAIGHT: &[&str] = &[
    "expression_statement",
    "lexical_declaration",
    "variable_declaration",
    "let_declaration",
    "short_var_declaration",
    "assignment_statement",
    "var_declaration",
    "var_spec",
    "statement_list",
    "expression_list",
];

/// The value of a binding's right side, bound by `node` in the test `body`.
pub(crate) fn bound(literal: Option<Literal>, call: Option<String>, node: &Node, body: &Node) -> Bound {
    let mut straight = true;
    let mut next = node.parent();
    while let Some(p) = next {
        if p.id() == body.id() {
            break;
        }
        if !STRAIGHT.contains(&p.kind()) {
            straight = false;
            break;
        }
        next = p.parent();
    }
    let site = Site {
        span: Span::of(node),
        straight,
    };
    match (literal, call) {
        (Some(l), _) => Bound::Literal(l, site),
        (None, Some(c)) if c.ends_with("()") => Bound::Call(c, site),
        _ => Bound::Other,
    }
}

/// The names bound exactly once in a test, from every binding of every name.
fn bound_once(occurrences: &[(String, Bound)]) -> impl Iterator<Item = (&String, &Bound)> {
    let mut counts: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    for (name, _) in occurrences {
        *counts.entry(name.as_str()).or_default() += 1;
    }
    occurrences
        .iter()
        .filter(move |(name, _)| counts.get(name.as_str()) == Some(&1))
        .map(|(n, b)| (n, b))
}

/// Is `name` bound at most once among `occurrences` (a test's parameters
/// and its body's bindings): a parameter the body does not rebind, whose
/// value where it is used is the one a case gives it.
pub(crate) fn not_rebound(occurrences: &[(String, Bound)], name: &str) -> bool {
    occurrences.iter().filter(|(n, _)| n == name).count() <= 1
}

/// The plain bindings of the names whose value at each point is known:
/// bound once by a plain binding (to a literal or to what a call returns),
/// or several times, each by a plain binding that is a statement of the
/// test body itself (`name = build()` then `name = "draft"`). A name also
/// bound any other way (a loop, a destructuring, an update, a write in a
/// closure or through a reference), or rebound under a condition or loop,
/// is left out. In source order.
pub(crate) fn plain_bindings(occurrences: &[(String, Bound)]) -> Vec<Binding> {
    // Per name: how many bindings, and whether each is plain and straight.
    let mut names: std::collections::HashMap<&str, (usize, bool)> = std::collections::HashMap::new();
    for (name, value) in occurrences {
        let entry = names.entry(name.as_str()).or_insert((0, true));
        entry.0 += 1;
        entry.1 &= match value {
            Bound::Literal(_, site) | Bound::Call(_, site) => site.straight,
            Bound::Other => false,
        };
    }
    // Bound once: that binding, however nested; several times: only if each is straight.
    let known = |name: &str| match names.get(name) {
        Some((1, _)) => true,
        Some((_, straight)) => *straight,
        None => false,
    };
    let mut out: Vec<Binding> = occurrences
        .iter()
        .filter(|(name, _)| known(name))
        .filter_map(|(name, value)| {
            let (literal, site) = match value {
                Bound::Literal(Literal::Collection(_), site) => (None, site),
                Bound::Literal(literal, site) => (Some(literal.clone()), site),
                Bound::Call(_, site) => (None, site),
                Bound::Other => return None,
            };
            Some(Binding {
                name: name.clone(),
                literal,
                span: site.span,
            })
        })
        .collect();
    out.sort_by(|a, b| (a.span, &a.name).cmp(&(b.span, &b.name)));
    out
}

/// The names bound exactly once, to a non-empty literal collection: a table
/// of cases that a loop always runs over.
pub(crate) fn single_nonempty_collections(occurrences: &[(String, Bound)]) -> Vec<String> {
    let nonempty = |value: &Bound| matches!(value, Bound::Literal(Literal::Collection(n), _) if *n > 0);
    let mut out: Vec<String> = Vec::new();
    for (name, _) in occurrences {
        // Bound only ever to non-empty literals (`cases = []struct{..}{..}` twice):
        // a loop over it runs its body whichever binding it sees.
        if !out.contains(name)
            && occurrences
                .iter()
                .filter(|(n, _)| n == name)
                .all(|(_, value)| nonempty(value))
        {
            out.push(name.clone());
        }
    }
    out
}

/// One case of a table-driven or parametrized test: each name a row binds
/// (`url`, `c . want`, `row [ "want" ]`) with its value, as [`token_key`]s.
pub(crate) type Case = Vec<(String, String)>;

/// Of the names a module binds at its top level, each with its value when
/// that is a literal table, those bound once, to a literal, with it.
pub(crate) fn literals_bound_once<'a>(bound: Vec<(String, Option<Node<'a>>)>) -> Vec<(String, Node<'a>)> {
    let mut counts: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    for (name, _) in &bound {
        *counts.entry(name.as_str()).or_default() += 1;
    }
    let once: Vec<bool> = bound.iter().map(|(name, _)| counts[name.as_str()] == 1).collect();
    bound
        .into_iter()
        .zip(once)
        .filter_map(|((name, value), once)| Some((name, value?)).filter(|_| once))
        .collect()
}

/// The tables of `literals` whose names a function's text (`item`) holds,
/// each with its text: their rows are the function's cases, so a memo of
/// the function keys on them.
pub(crate) fn named_literals<'l, 's>(
    item: &[u8],
    literals: &'l [(String, Node)],
    source: &'s [u8],
) -> Vec<(&'l str, std::borrow::Cow<'s, str>)> {
    literals
        .iter()
        .filter(|(name, _)| !name.is_empty() && item.windows(name.len()).any(|w| w == name.as_bytes()))
        .map(|(name, literal)| (name.as_str(), text(literal, source)))
        .collect()
}

/// The cases of the one table a test's loops run over, from each loop's
/// table (its text, to tell two apart) and the cases read of it: loops over
/// two different tables give none, as none is the test's own.
pub(crate) fn one_table(tables: Vec<(String, Vec<Case>)>) -> Vec<Case> {
    let mut found: Option<(String, Vec<Case>)> = None;
    for (id, cases) in tables {
        match &found {
            Some((other, other_cases)) if *other != id || *other_cases != cases => return Vec::new(),
            _ => found = Some((id, cases)),
        }
    }
    found.map(|(_, cases)| cases).unwrap_or_default()
}

/// The table a loop names (`for c in cases`): the test's own binding of
/// that name when it binds it once (`in_body` finds it), or, when it binds
/// it nowhere, the file's table of that name. A name bound more than once
/// is no one table.
pub(crate) fn table_named<'a>(
    name: &str,
    occurrences: &[(String, Bound)],
    module: &[(String, Node<'a>)],
    in_body: impl FnOnce() -> Option<Node<'a>>,
) -> Option<Node<'a>> {
    match occurrences.iter().filter(|(n, _)| n == name).count() {
        0 => module.iter().find(|(n, _)| n == name).map(|(_, literal)| *literal),
        1 => in_body(),
        _ => None,
    }
}

/// The cases read of a loop's table, one a row (at most [`MAX_CASES`]): a
/// name the test rebinds is left out of each (it is not the row's value
/// where it is used, `row` standing for `row . want` and `row [ 0 ]`);
/// `None` when no row could be read (a loop over plain values is input only).
pub(crate) fn loop_table_cases(cases: Vec<Case>, occurrences: &[(String, Bound)]) -> Option<Vec<Case>> {
    if cases.is_empty() {
        return None;
    }
    let kept = |name: &str| not_rebound(occurrences, name.split(' ').next().unwrap_or(name));
    Some(
        cases
            .into_iter()
            .take(MAX_CASES)
            .map(|case| case.into_iter().filter(|(name, _)| kept(name)).collect())
            .collect(),
    )
}

/// Keep the names bound exactly once, to a call: [`TestCase::aliases`].
pub(crate) fn single_call_aliases(occurrences: &[(String, Bound)]) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = bound_once(occurrences)
        .filter_map(|(name, value)| match value {
            Bound::Call(call, _) => Some((name.clone(), call.clone())),
            _ => None,
        })
        .collect();
    out.sort();
    out
}

/// How a test is skipped.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Skip {
    pub span: Span,
    /// The reason given, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// Skipped only under a condition (`skipif`), which still wants a reason.
    #[serde(default, skip_serializing_if = "is_false")]
    pub conditional: bool,
}

/// One assertion inside a test.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Assertion {
    pub span: Span,
    pub form: Form,
    /// The check as written: the operator (`==`, `in`, `truthy`), the
    /// unittest or mock method (`assertEqual`, `assert_called_with`), the
    /// matcher chain after `expect(..)` (`not.toBe`, `to.deep.equal`), or the
    /// callee (`assert.equal`).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub matcher: String,
    /// The operands, subject first, each as a [`token_key`]: what stays the
    /// same when only formatting changes.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub parts: Vec<String>,
    /// The calls (as [`chain`] keys ending in `()`) and plain names in the
    /// values the assertion checks, not in the assertion's own callee.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub values: Vec<String>,
    /// What surrounds it inside the test.
    pub guard: Guard,
}

impl Assertion {
    /// An explicit failure under an `if` ([`Form::FailUnless`]) checks
    /// what its condition demands: written as that check (`if got != 3 {
    /// t.Errorf(..) }` is `==` on `got` and `3`, as `assert got == 3` is),
    /// so a changed or dropped condition is compared like any assertion.
    fn read_condition(&mut self) {
        let Form::FailUnless(inner) = &self.form else { return };
        if !self.parts.is_empty() {
            return;
        }
        let (matcher, parts) = match inner.as_ref() {
            Form::Equal(a, b) => ("==", vec![a.key.clone(), b.key.clone()]),
            Form::NotEqual(a, b) => ("!=", vec![a.key.clone(), b.key.clone()]),
            Form::Truthy(a) => ("truthy", vec![a.key.clone()]),
            Form::Falsy(a) => ("not", vec![a.key.clone()]),
            _ => return,
        };
        self.matcher = matcher.to_string();
        self.parts = parts;
    }

    /// A check with no operands, made wherever it is: an explicit failure
    /// (`fail`) or one a compiler or type checker makes (`type`).
    pub(crate) fn bare(span: Span, form: Form, matcher: &str, guard: Guard) -> Assertion {
        Assertion {
            span,
            form,
            matcher: matcher.to_string(),
            parts: Vec::new(),
            guard,
            values: Vec::new(),
        }
    }
}

/// The control flow around an assertion, within its test.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Guard {
    /// Runs only when a condition holds: an `if` without an asserting `else`,
    /// a loop over something that may be empty, a short-circuit, a handler.
    #[serde(default, skip_serializing_if = "is_false")]
    pub conditional: bool,
    /// Inside a `try` whose handler catches assertion failures without
    /// re-raising or asserting: the span of that handler.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub swallowed_by: Option<Span>,
    /// In an `except`/`catch` handler of a `try` that does not fail when
    /// nothing is raised: it runs only when the code raises, and the test
    /// passes when it does not.
    #[serde(default, skip_serializing_if = "is_false")]
    pub caught: bool,
}

/// What an assertion checks, as far as the values are concerned.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Form {
    /// The value must be truthy: `assert x`, `assertTrue(x)`, `expect(x).toBeTruthy()`, `assert.ok(x)`.
    Truthy(Operand),
    /// The value must be falsy.
    Falsy(Operand),
    /// Two values must be equal (`==`, `assertEqual`, `toBe`, `toEqual`, `assert.equal`, ...).
    Equal(Operand, Operand),
    /// Two values must differ.
    NotEqual(Operand, Operand),
    /// A value compared with itself through an equality the code under test
    /// may define (Python's `__eq__`, Rust's `PartialEq`): always true for
    /// the values a test usually holds, yet the very check of a test of
    /// equality (`i = C(1); assert i == i` in attrs' own tests). Whether it
    /// checks anything depends on the rest of the test.
    SelfEqual(Operand),
    /// An explicit failure (`pytest.fail()`, `self.fail()`, `raise
    /// AssertionError`, `assert.fail()`, `throw`): the condition around it is the check.
    Fail,
    /// An explicit failure directly under an `if` whose condition is read:
    /// the test fails unless the inner form holds (`if got != want {
    /// t.Errorf(..) }` is `FailUnless(Equal(got, want))`). The `if` is the
    /// check, not a guard: the assertion's [`Guard`] is that of the `if`.
    FailUnless(Box<Form>),
    /// Anything else: raises, matchers, mock verification, helpers.
    Other,
}

/// `a == b` where the language lets the code under test define `==`: a
/// value compared with itself is [`Form::SelfEqual`] unless it is a literal.
pub(crate) fn value_equal(a: Operand, b: Operand) -> Form {
    if a.literal.is_none() && a.key == b.key {
        Form::SelfEqual(a)
    } else {
        Form::Equal(a, b)
    }
}

impl Form {
    /// The form the test demands: the condition of a [`Form::FailUnless`],
    /// else the form itself.
    pub fn demanded(&self) -> &Form {
        match self {
            Form::FailUnless(inner) => inner,
            other => other,
        }
    }
}

/// One side of an assertion.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Operand {
    /// Source text with whitespace collapsed, for messages.
    pub text: String,
    /// The tokens without comments or formatting, for comparing two operands.
    pub key: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub literal: Option<Literal>,
    /// Contains a call, `await`, `new`, `yield` or an assignment, so two
    /// evaluations may differ.
    #[serde(default, skip_serializing_if = "is_false")]
    pub effects: bool,
    /// When the operand is a call (`f(1)`, `await svc.get()`), the callee as
    /// written, whitespace removed (`f`, `svc.get`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub call_of: Option<String>,
}

/// A literal value, normalized so `1.0` equals `1` and `'a'` equals `"a"`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Literal {
    Bool(bool),
    Number(f64),
    Str(String),
    Null,
    /// A list, tuple, set or dict display with this many elements.
    Collection(usize),
}

impl Literal {
    pub fn truthy(&self) -> bool {
        match self {
            Literal::Bool(b) => *b,
            Literal::Number(n) => *n != 0.0 && !n.is_nan(),
            Literal::Str(s) => !s.is_empty(),
            Literal::Null => false,
            Literal::Collection(n) => *n > 0,
        }
    }
}

/// `Node::child_by_field_name`, as a method every language module calls.
pub(crate) trait FieldExt<'t> {
    fn field(&self, name: &'static str) -> Option<Node<'t>>;
}

impl<'t> FieldExt<'t> for Node<'t> {
    fn field(&self, name: &'static str) -> Option<Node<'t>> {
        self.child_by_field_name(name)
    }
}

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
const TRANSPARENT_CALLS: &[&str] = &[
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

fn checking_if<'a>(statement: &Node<'a>) -> Option<Node<'a>> {
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

/// What `source` says as code: a hash of its tokens without comments,
/// docstrings (a statement that is only a string), TypeScript's types
/// (type aliases, interfaces, annotations, type arguments: erased before
/// the code runs) or layout, so a change to those alone leaves it as it
/// was. In JavaScript and TypeScript, a local variable or parameter is
/// hashed as the order in which its name first appears, not as the name:
/// renaming one everywhere (`fn` -> `function_`) changes nothing either.
/// `None` when it does not parse.
pub fn code_fingerprint(lang: Lang, source: &[u8]) -> Option<u64> {
    let tree = lang.parse(source)?;
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let typed = matches!(lang, Lang::TypeScript | Lang::Tsx);
    let locals = match lang {
        Lang::JavaScript | Lang::TypeScript | Lang::Tsx => local_bindings(tree.root_node(), source),
        _ => std::collections::HashSet::new(),
    };
    let mut order: std::collections::HashMap<&[u8], u64> = std::collections::HashMap::new();
    let skip = |node: &Node| {
        node.is_comment()
            || (node.kind() == "expression_statement"
                && node.named_child_count() == 1
                && node.named_child(0).is_some_and(|c| c.kind() == "string"))
            || (typed
                && matches!(
                    node.kind(),
                    "type_alias_declaration"
                        | "interface_declaration"
                        | "type_annotation"
                        | "type_arguments"
                        | "type_parameters"
                        | "ambient_declaration"
                ))
    };
    visit_leaves(tree.root_node(), skip, |leaf| {
        let text = &source[leaf.byte_range()];
        let local;
        let bytes: &[u8] = if leaf.kind() == "identifier" && locals.contains(text) {
            let next = order.len() as u64;
            local = order.entry(text).or_insert(next).to_le_bytes();
            // Not a byte a name can hold: a local never hashes as a name.
            hash ^= 0xfe;
            hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
            &local
        } else {
            text
        };
        for b in bytes.iter().chain(std::iter::once(&0xff)) {
            hash ^= u64::from(*b);
            hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
        }
    });
    Some(hash)
}

/// The names a JavaScript or TypeScript module binds to a local variable or
/// parameter (`const x`, `let x`, `(x, y) =>`, `catch (e)`), not to a
/// function or class (their `.name` is visible), not through a
/// destructuring pattern (`{ a }` names the property it reads), not in an
/// exported declaration (importers see the name).
fn local_bindings<'s>(root: Node<'_>, source: &'s [u8]) -> std::collections::HashSet<&'s [u8]> {
    let mut names = std::collections::HashSet::new();
    let exported = |n: &Node| has_ancestor(n, &["export_statement"], &[]);
    let mut stack = vec![root];
    while let Some(n) = stack.pop() {
        let bound = match n.kind() {
            "variable_declarator" => n.child_by_field_name("name").filter(|_| !exported(&n)),
            "required_parameter" | "optional_parameter" => n.child_by_field_name("pattern"),
            "formal_parameters" => None,
            "arrow_function" => n.child_by_field_name("parameter"),
            "catch_clause" => n.child_by_field_name("parameter"),
            _ => None,
        };
        if let Some(name) = bound.filter(|b| b.kind() == "identifier") {
            names.insert(&source[name.byte_range()]);
        }
        if n.kind() == "formal_parameters" {
            let mut cursor = n.walk();
            for p in n.named_children(&mut cursor).filter(|p| p.kind() == "identifier") {
                names.insert(&source[p.byte_range()]);
            }
        }
        let mut cursor = n.walk();
        stack.extend(n.named_children(&mut cursor));
    }
    names
}

/// The names `source` uses as code (identifiers, properties, fields, types;
/// not words in comments or strings). `None` when it does not parse.
pub fn code_names(lang: Lang, source: &[u8]) -> Option<std::collections::HashSet<String>> {
    let tree = lang.parse(source)?;
    let mut names = std::collections::HashSet::new();
    let skip = |node: &Node| node.is_comment() || node.kind().contains("string");
    visit_leaves(tree.root_node(), skip, |leaf| {
        if leaf.kind().contains("identifier") {
            names.insert(String::from_utf8_lossy(&source[leaf.byte_range()]).into_owned());
        }
    });
    Some(names)
}

/// Visit every leaf under `node` (itself, when it is one) in document
/// order, with one tree cursor, leaving out the subtrees `skip` names.
fn visit_leaves<'t>(node: Node<'t>, skip: impl Fn(&Node<'t>) -> bool, mut visit: impl FnMut(Node<'t>)) {
    let mut cursor = node.walk();
    'walk: loop {
        let at = cursor.node();
        let skipped = skip(&at);
        if !skipped && at.child_count() == 0 {
            visit(at);
        }
        if !skipped && cursor.goto_first_child() {
            continue;
        }
        loop {
            if cursor.goto_next_sibling() {
                continue 'walk;
            }
            if !cursor.goto_parent() || cursor.node().id() == node.id() {
                break 'walk;
            }
        }
    }
}

/// How many hashes a [`shape`] keeps.
const SHAPE: usize = 64;

/// A sketch of what `body` says: the smallest [`SHAPE`] hashes of its
/// token trigrams (comments left out), so that [`similarity`] estimates how
/// much two bodies share, whatever their size, in a few hundred bytes.
pub(crate) fn shape(body: &Node, source: &[u8]) -> Vec<u32> {
    let mut tokens: Vec<&[u8]> = Vec::new();
    let skip = |node: &Node| node.is_extra() || node.is_comment();
    visit_leaves(*body, skip, |leaf| {
        let bytes = &source[leaf.byte_range()];
        if !bytes.iter().all(u8::is_ascii_whitespace) {
            tokens.push(bytes);
        }
    });
    // FNV-1a: the same on every run and platform.
    let hash = |parts: &[&[u8]]| {
        let mut h: u32 = 0x811c_9dc5;
        for part in parts {
            for b in part.iter().chain(std::iter::once(&0xff)) {
                h ^= u32::from(*b);
                h = h.wrapping_mul(0x0100_0193);
            }
        }
        h
    };
    let mut hashes: Vec<u32> = if tokens.len() < 3 {
        tokens.iter().map(|t| hash(&[t])).collect()
    } else {
        tokens.windows(3).map(hash).collect()
    };
    hashes.sort_unstable();
    hashes.dedup();
    hashes.truncate(SHAPE);
    hashes
}

/// How much of two [`shape`]s' bodies is shared (0 to 1): of the smallest
/// hashes of both together, the share each has (the bottom-k estimate of
/// the Jaccard index); 0 when either is empty.
pub fn similarity(a: &[u32], b: &[u32]) -> f64 {
    if a.is_empty() || b.is_empty() {
        return 0.0;
    }
    let (mut i, mut j, mut taken, mut both) = (0, 0, 0usize, 0usize);
    while taken < SHAPE && (i < a.len() || j < b.len()) {
        match (a.get(i), b.get(j)) {
            (Some(x), Some(y)) if x == y => {
                both += 1;
                i += 1;
                j += 1;
            }
            (Some(x), Some(y)) if x < y => i += 1,
            (Some(_), None) => i += 1,
            _ => j += 1,
        }
        taken += 1;
    }
    #[allow(clippy::cast_precision_loss)]
    let share = both as f64 / taken as f64;
    share
}

/// The text of a node (lossy on invalid UTF-8).
pub(crate) fn text<'a>(node: &Node, source: &'a [u8]) -> std::borrow::Cow<'a, str> {
    let bytes = &source[node.byte_range()];
    // `from_utf8` checks ASCII a word at a time; the lossy reader goes byte by byte.
    match std::str::from_utf8(bytes) {
        Ok(text) => std::borrow::Cow::Borrowed(text),
        Err(_) => String::from_utf8_lossy(bytes),
    }
}

/// Source text of `node` with runs of whitespace collapsed to one space.
pub(crate) fn display(node: &Node, source: &[u8]) -> String {
    text(node, source).split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The tokens of `node` joined by single spaces, without comments.
pub(crate) fn normalized(node: &Node, source: &[u8], comment_kind: &str) -> String {
    let mut out = String::new();
    // A cursor walk, not recursion: nesting in a file cannot exhaust the stack.
    visit_leaves(
        *node,
        |n| n.kind() == comment_kind,
        |leaf| {
            if !out.is_empty() {
                out.push(' ');
            }
            out.push_str(&text(&leaf, source));
        },
    );
    out
}

/// The tokens of `node` joined by single spaces, as a reformat leaves them:
/// comments, statement semicolons, the parentheses of a parenthesized
/// expression and a comma before a closing bracket are dropped, and every
/// string delimiter is written `"` (after any prefix such as `f` or `b`).
pub(crate) fn token_key(node: &Node, source: &[u8]) -> String {
    let mut out = String::new();
    if node.child_count() == 0 {
        push_token(&mut out, node, source);
    } else {
        leaf_tokens(*node, source, &mut out);
    }
    out
}

/// The tokens under `node`.
fn leaf_tokens(node: Node<'_>, source: &[u8], out: &mut String) {
    // Text no child covers: the characters of a Python string between its
    // escape sequences (`"plain\na"` has `plain` and `a` around `\n`).
    let gap = |from: usize, until: usize, out: &mut String| {
        let text = source.get(from..until).map(String::from_utf8_lossy).unwrap_or_default();
        if !text.trim().is_empty() {
            if !out.is_empty() {
                out.push(' ');
            }
            out.push_str(&text);
        }
    };
    // Per open node: the node, how far its children's text is covered, and
    // the child to read next. A stack, not recursion: nesting in a file
    // cannot exhaust the thread's stack.
    let mut open = vec![(node, node.start_byte(), node.child(0))];
    while let Some((parent, covered, next)) = open.last_mut() {
        let parent = *parent;
        let Some(child) = *next else {
            gap(*covered, parent.end_byte(), out);
            open.pop();
            continue;
        };
        *next = child.next_sibling();
        gap(*covered, child.start_byte(), out);
        *covered = (*covered).max(child.end_byte());
        // A comment: nothing to emit, nothing to descend into.
        if child.is_extra() {
            continue;
        }
        if child.child_count() > 0 {
            open.push((child, child.start_byte(), child.child(0)));
            continue;
        }
        let kind = child.kind();
        let following = std::iter::successors(child.next_sibling(), Node::next_sibling).find(|s| !s.is_extra());
        let skip = kind == ";"
            || (matches!(kind, "(" | ")") && parent.kind() == "parenthesized_expression")
            || (kind == "," && following.is_some_and(|s| matches!(s.kind(), ")" | "]" | "}")));
        if !skip {
            push_token(out, &child, source);
        }
    }
}

fn push_token(out: &mut String, leaf: &Node<'_>, source: &[u8]) {
    if !out.is_empty() {
        out.push(' ');
    }
    match leaf.kind() {
        "string_start" | "string_end" | "\"" | "'" => {
            let prefix: String = text(leaf, source).chars().filter(|c| c.is_ascii_alphabetic()).collect();
            out.push_str(&prefix.to_ascii_lowercase());
            out.push('"');
        }
        _ => out.push_str(&text(leaf, source)),
    }
}

/// Parse a number literal as the language writes it (`1_000`, `0x1f`, `1e3`, `10n`).
pub(crate) fn number(text: &str) -> Option<f64> {
    let t = text.replace('_', "");
    let t = t.trim_end_matches(['n', 'j', 'J', 'l', 'L']);
    let lower = t.to_ascii_lowercase();
    let radix = |prefix: &str, radix: u32| {
        lower
            .strip_prefix(prefix)
            .and_then(|d| i64::from_str_radix(d, radix).ok())
            .map(|v| v as f64)
    };
    radix("0x", 16)
        .or_else(|| radix("0o", 8))
        .or_else(|| radix("0b", 2))
        .or_else(|| lower.parse().ok())
}

/// Close the set of helpers: a function is a helper when its body asserts or
/// calls a helper. `bodies` maps function name to (asserts directly, called names).
pub(crate) fn close_helpers(bodies: &[versions::Body]) -> Vec<String> {
    let mut helpers: Vec<String> = bodies
        .iter()
        .filter(|(_, a, _)| *a)
        .map(|(n, _, _)| n.clone())
        .collect();
    loop {
        let before = helpers.len();
        for (name, _, calls) in bodies {
            if !helpers.contains(name) && calls.iter().any(|c| helpers.contains(c)) {
                helpers.push(name.clone());
            }
        }
        if helpers.len() == before {
            break;
        }
    }
    helpers.sort();
    helpers.dedup();
    helpers
}

/// Is this a name that, by the conventions of every test ecosystem, asserts
/// (`assert_frame_equal`, `assertValid`, `expectError`, `check_html`, `verify`)?
pub fn conventional_helper(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    [
        "assert", "expect", "check", "verify", "ensure", "validate", "should", "must",
    ]
    .iter()
    .any(|p| {
        lower.strip_prefix(p).is_some_and(|rest| {
            rest.is_empty() || rest.starts_with('_') || name[p.len()..].starts_with(|c: char| c.is_ascii_uppercase())
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The idiom before `pytest.raises` (a failure in the `else` of a `try`,
    /// or last in its body) is the check `raises(E)`; a failure a handler
    /// would catch itself, or under a bare `except`, stays a failure.
    #[test]
    fn a_failure_when_nothing_raised_is_a_raises_check() {
        let source = "import pytest\n\n\ndef test_else():\n    try:\n        f(1)\n    except (TypeError, errors.Bad) as exc:\n        assert 'x' in str(exc)\n    else:\n        raise AssertionError('no error')\n\n\ndef test_body():\n    if ready:\n        try:\n            f(1)\n            pytest.fail('no error')\n        except KeyError:\n            pass\n\n\ndef test_caught_by_itself():\n    try:\n        f(1)\n        pytest.fail('no error')\n    except Exception:\n        pass\n\n\ndef test_bare():\n    try:\n        f(1)\n    except:\n        pass\n    else:\n        raise AssertionError\n";
        let file = Lang::Python.test_file(source.as_bytes()).unwrap();
        let checks: Vec<(String, Vec<String>, bool)> = file
            .tests
            .iter()
            .flat_map(|t| &t.assertions)
            .map(|a| (a.matcher.clone(), a.parts.clone(), a.guard.conditional))
            .collect();
        let raises = |types: &[&str], conditional| {
            (
                "raises".to_string(),
                types.iter().map(|t| (*t).to_string()).collect(),
                conditional,
            )
        };
        assert_eq!(checks[1], raises(&["TypeError", "errors . Bad"], false), "{checks:?}");
        assert_eq!(checks[2], raises(&["KeyError"], true), "{checks:?}");
        assert_eq!(checks[3].0, "fail", "{checks:?}");
        assert_eq!(checks[4].0, "fail", "{checks:?}");
        assert_eq!(checks.len(), 5, "{checks:?}");
    }

    /// A thread that read TSX before TypeScript (or any grammar before
    /// another) models a file as a fresh thread does: the field ids a thread
    /// keeps are per grammar, and TypeScript's and TSX's differ though
    /// neither grammar has a name.
    #[test]
    fn a_thread_models_each_grammar_with_its_own_field_ids() {
        let ts = "import { describe, expect, it } from \"vitest\"\nimport { total } from \"../src/cart\"\n\ndescribe(\"cart\", () => {\n  it(\"sums\", async () => {\n    const x = await total([1])\n    expect(x).toBe(1)\n  })\n  it.skip(\"later\", () => {})\n})\n";
        let alone = |lang: Lang| {
            std::thread::spawn(move || lang.test_file(ts.as_bytes()))
                .join()
                .unwrap()
        };
        let (ts_alone, tsx_alone) = (alone(Lang::TypeScript), alone(Lang::Tsx));
        assert_eq!(ts_alone.as_ref().map(|f| f.tests.len()), Some(2));
        for order in [
            [Lang::Tsx, Lang::TypeScript],
            [Lang::TypeScript, Lang::Tsx],
            [Lang::JavaScript, Lang::Tsx],
        ] {
            let after = std::thread::spawn(move || order.map(|lang| lang.test_file(ts.as_bytes())))
                .join()
                .unwrap();
            for (lang, model) in order.iter().zip(after) {
                let want = match lang {
                    Lang::Tsx => &tsx_alone,
                    Lang::TypeScript => &ts_alone,
                    _ => continue,
                };
                assert_eq!(&model, want, "{lang:?} read after {order:?}");
            }
        }
    }

    /// A matcher and its operands.
    type Check = (String, Vec<String>);

    /// `(scope, name, checks)` of every test in `source`.
    fn checks(lang: Lang, source: &str) -> Vec<(String, String, Vec<Check>)> {
        lang.test_file(source.as_bytes())
            .unwrap()
            .tests
            .into_iter()
            .map(|t| {
                let checks = t.assertions.into_iter().map(|a| (a.matcher, a.parts)).collect();
                (t.scope, t.name, checks)
            })
            .collect()
    }

    #[test]
    fn assertions_keep_their_check_through_a_reformat() {
        let before = "class TestCart:\n    def test_total(self):\n        assert total( [1,2], ) == 3  # sum\n        self.assertEqual(name, 'cart', msg='m')\n        assert 'a' not in items\n        save.assert_called_with(1)\n";
        let after = "class TestCart:\n    def test_total(self):\n        assert (\n            total([1, 2]) == 3\n        )\n        self.assertEqual(\n            name,\n            \"cart\",\n        )\n        assert \"a\" not in items\n        save.assert_called_with(\n            1,\n        )\n";
        let found = checks(Lang::Python, before);
        assert_eq!(found, checks(Lang::Python, after));
        let (scope, name, asserted) = &found[0];
        assert_eq!((scope.as_str(), name.as_str()), ("TestCart", "test_total"));
        let want: Vec<Check> = [
            ("==", vec!["total ( [ 1 , 2 ] )", "3"]),
            ("assertEqual", vec!["name", "\" cart \""]),
            ("not in", vec!["\" a \"", "items"]),
            ("assert_called_with", vec!["save", "1"]),
        ]
        .into_iter()
        .map(|(m, p)| (m.to_string(), p.into_iter().map(str::to_string).collect()))
        .collect();
        assert_eq!(asserted, &want);

        let js = "describe('cart', () => {\n  it('totals', () => {\n    expect(total([1, 2])).not.toBe(4);\n    assert.equal(name, 'cart')\n  })\n})\n";
        let js_after = "describe(\"cart\", () => {\n  it(\"totals\", () => {\n    expect(\n      total([1, 2]),\n    )\n      .not.toBe(4)\n    assert.equal(name, \"cart\");\n  });\n});\n";
        let found = checks(Lang::TypeScript, js);
        assert_eq!(found, checks(Lang::TypeScript, js_after));
        assert_eq!(found[0].0, "cart");
        assert_eq!(found[0].2[0].0, "not.toBe");
        assert_eq!(
            found[0].2[0].1,
            vec!["total ( [ 1 , 2 ] )".to_string(), "4".to_string()]
        );
        assert_eq!(found[0].2[1].0, "assert.equal");
    }

    #[test]
    fn visit_named_sees_every_named_node_once_and_can_prune() {
        let source = b"def f(x):\n    return [x, (x + 1)]\n";
        let tree = Lang::Python.parse(source).unwrap();
        let mut kinds = Vec::new();
        visit_named(tree.root_node(), |n| {
            kinds.push(n.kind());
            n.kind() != "list"
        });
        assert_eq!(
            kinds,
            vec![
                "module",
                "function_definition",
                "identifier",
                "parameters",
                "identifier",
                "block",
                "return_statement",
                "list"
            ]
        );
        let mut count = 0;
        let list = tree.root_node().named_descendant_for_byte_range(25, 26).unwrap();
        visit_named(list, |_| {
            count += 1;
            true
        });
        assert!(count >= 1);
    }

    #[test]
    fn each_test_lists_the_imported_names_it_uses() {
        let py = b"from shop.cart import total, Cart\nimport json\n\ndef helper():\n    return json.dumps(1)\n\ndef test_a():\n    assert total([1]) == 1\n\ndef test_b():\n    cart = Cart()\n    assert helper() and cart\n";
        let file = Lang::Python.test_file(py).unwrap();
        let uses: Vec<&[String]> = file.tests.iter().map(|t| t.uses.as_slice()).collect();
        assert_eq!(uses, vec![&["total".to_string()][..], &["Cart".to_string()][..]]);
        let js = b"import { total } from './cart'\nimport * as api from './api'\nit('a', () => { expect(total([1])).toBe(1) })\nit('b', async () => { expect(await api.get()).toEqual({ total }) })\n";
        let file = Lang::TypeScript.test_file(js).unwrap();
        let uses: Vec<Vec<String>> = file.tests.iter().map(|t| t.uses.clone()).collect();
        assert_eq!(
            uses,
            vec![vec!["total".to_string()], vec!["api".to_string(), "total".to_string()]]
        );
    }

    /// Each case of a parametrized test binds the parameters its body does
    /// not rebind.
    #[test]
    fn parametrized_tests_bind_their_parameters_per_case() {
        let cases = |lang: Lang, source: &str| -> Vec<Vec<(String, String)>> {
            let file = lang.test_file(source.as_bytes()).unwrap();
            file.tests.into_iter().flat_map(|t| t.cases).collect()
        };
        let pair = |name: &str, value: &str| (name.to_string(), value.to_string());
        // pytest: names as one string or a list, `pytest.param`, stacked
        // decorators multiply, a rebound parameter (`url = URL(url)`) is left out,
        // a row of the wrong length is not read.
        let py = "import pytest\n\n@pytest.mark.parametrize(\"url,want\", [(\"a b\", b\"\"), pytest.param(\"c\", b\"d\", id=\"c\"), (1,)])\n@pytest.mark.parametrize([\"n\"], [1, 2])\ndef test_u(url, want, n):\n    url = parse(url)\n    assert url.raw == want\n";
        assert_eq!(
            cases(Lang::Python, py),
            vec![
                vec![pair("want", "b\" \""), pair("n", "1")],
                vec![pair("want", "b\" \""), pair("n", "2")],
                vec![pair("want", "b\" d \""), pair("n", "1")],
                vec![pair("want", "b\" d \""), pair("n", "2")],
            ]
        );
        // Jest/Vitest: array rows by position, object rows by the fields a
        // pattern takes, scalar rows to the only parameter; a table by name is not read.
        let js = "it.each([[1, 'a'], [2, 'b']])('n %i', (n, s) => { expect(f(n)).toBe(s) })\ntest.each([{ input: 'x', want: 1 }])('o', ({ input, want }) => { expect(g(input)).toBe(want) })\nit.each([3, 4])('s', (v) => { expect(h(v)).toBe(true) })\nit.each(rows)('r', (v) => { expect(h(v)).toBe(true) })\n";
        assert_eq!(
            cases(Lang::TypeScript, js),
            vec![
                vec![pair("n", "1"), pair("s", "\" a \"")],
                vec![pair("n", "2"), pair("s", "\" b \"")],
                vec![pair("input", "\" x \""), pair("want", "1")],
                vec![pair("v", "3")],
                vec![pair("v", "4")],
            ]
        );
        // Go tables: struct rows by position (a type declared in the file) or
        // by field, a map's key; a loop over plain values beside them reads no
        // rows; a loop's index, or loops over two tables, give none.
        let go = "package p\n\ntype row struct {\n\tin, want int\n}\n\nfunc TestA(t *testing.T) {\n\tcases := []row{{1, 2}, {want: 4, in: 3}, {5}}\n\tfor _, c := range cases {\n\t\tif got := Inc(c.in); got != c.want {\n\t\t\tt.Error(got)\n\t\t}\n\t}\n\tfor _, x := range []int{7} {\n\t\tt.Log(x)\n\t}\n}\n\nfunc TestM(t *testing.T) {\n\tfor name, c := range map[string]*struct{ in int }{\"a\": {in: 1}} {\n\t\tt.Log(name, c.in)\n\t}\n}\n\nfunc TestI(t *testing.T) {\n\tfor i := range []row{{1, 2}} {\n\t\tt.Log(i)\n\t}\n}\n\nfunc TestTwo(t *testing.T) {\n\tfor _, c := range []row{{1, 2}} {\n\t\tt.Log(c)\n\t}\n\tfor _, c := range []row{{3, 4}} {\n\t\tt.Log(c)\n\t}\n}\n";
        assert_eq!(
            cases(Lang::Go, go),
            vec![
                vec![pair("c . in", "1"), pair("c . want", "2")],
                vec![pair("c . want", "4"), pair("c . in", "3")],
                vec![pair("name", "\" a \""), pair("c . in", "1")],
            ]
        );
        // rstest: `#[case]` parameters in order; a fixture parameter is not a case's.
        let rs = "#[rstest]\n#[case(1, \"one\")]\n#[case::two(2, \"two\")]\nfn names(db: Db, #[case] n: u32, #[case] want: &str) {\n    assert_eq!(name(n), want);\n}\n";
        assert_eq!(
            cases(Lang::Rust, rs),
            vec![
                vec![pair("n", "1"), pair("want", "\" one \"")],
                vec![pair("n", "2"), pair("want", "\" two \"")],
            ]
        );
    }

    /// A loop over a literal table is a table-driven test: each row binds the
    /// loop's names (Python here; the other languages beside their models).
    #[test]
    fn python_loops_over_literal_tables_bind_their_names_per_row() {
        let cases = |source: &str| -> Vec<Vec<Vec<(String, String)>>> {
            let file = Lang::Python.test_file(source.as_bytes()).unwrap();
            file.tests.into_iter().map(|t| t.cases).collect()
        };
        let pair = |name: &str, value: &str| (name.to_string(), value.to_string());
        // Written in the loop, bound once in the body, or once at module level;
        // tuple rows by position; one name reads `row[i]` and `row["key"]`.
        let py = "CASES = [(1, 2), (3, 4)]\n\ndef test_written():\n    for n, want in [(1, 2), (3,)]:\n        assert inc(n) == want\n\ndef test_local():\n    table = ((5, 6),)\n    for (n, want) in table:\n        assert inc(n) == want\n\ndef test_module():\n    for n, want in CASES:\n        assert inc(n) == want\n\ndef test_rows():\n    for row in [(7, 8), {\"n\": 9, \"want\": 10}]:\n        assert inc(row[0]) == row[1]\n";
        assert_eq!(
            cases(py),
            vec![
                vec![vec![pair("n", "1"), pair("want", "2")]],
                vec![vec![pair("n", "5"), pair("want", "6")]],
                vec![
                    vec![pair("n", "1"), pair("want", "2")],
                    vec![pair("n", "3"), pair("want", "4")]
                ],
                vec![
                    vec![pair("row [ 0 ]", "7"), pair("row [ 1 ]", "8")],
                    vec![pair("row [ \" n \" ]", "9"), pair("row [ \" want \" ]", "10")]
                ],
            ]
        );
        // None: plain values, two tables, a table rebound in the body or at
        // module level, a rebound loop name (left out), a parametrized test
        // (its decorator's cases win).
        let py = "TWICE = [(1, 2)]\nTWICE = [(3, 4)]\n\ndef test_plain():\n    for n in [1, 2]:\n        assert inc(n) > n\n\ndef test_two():\n    for n, want in [(1, 2)]:\n        assert inc(n) == want\n    for n, want in [(3, 4)]:\n        assert inc(n) == want\n\ndef test_rebound_table():\n    t = [(1, 2)]\n    t = [(3, 4)]\n    for n, want in t:\n        assert inc(n) == want\n\ndef test_module_twice():\n    for n, want in TWICE:\n        assert inc(n) == want\n\ndef test_rebound_name():\n    for n, want in [(1, 2)]:\n        want = str(want)\n        assert inc(n) == want\n\n@pytest.mark.parametrize(\"k\", [0])\ndef test_param(k):\n    for n, want in [(1, 2)]:\n        assert inc(n + k) == want\n";
        assert_eq!(
            cases(py),
            vec![
                vec![],
                vec![],
                vec![],
                vec![],
                vec![vec![pair("n", "1")]],
                vec![vec![pair("k", "0")]],
            ]
        );
    }

    /// JavaScript: `for .. of` loops and `forEach` callbacks over a literal
    /// array are table-driven tests too.
    #[test]
    fn javascript_loops_over_literal_tables_bind_their_names_per_row() {
        let cases = |source: &str| -> Vec<Vec<Vec<(String, String)>>> {
            let file = Lang::TypeScript.test_file(source.as_bytes()).unwrap();
            file.tests.into_iter().map(|t| t.cases).collect()
        };
        let pair = |name: &str, value: &str| (name.to_string(), value.to_string());
        let js = "const cases = [{ input: 'a', want: 1 }, { input: 'bb', want: 2 }]\n\ntest('written', () => {\n  for (const [n, want] of [[1, 2], [3, 4]]) {\n    expect(inc(n)).toBe(want)\n  }\n})\n\ntest('module', () => {\n  for (const { input, want: expected } of cases) {\n    expect(len(input)).toBe(expected)\n  }\n})\n\ntest('one name', () => {\n  const rows = [[5, 6]] as const\n  rows.forEach((row) => expect(inc(row[0])).toBe(row[1]))\n  cases.forEach((c) => expect(len(c.input)).toBe(c.want))\n})\n\ntest('each', () => {\n  cases.forEach((c) => expect(len(c.input)).toBe(c.want))\n})\n";
        assert_eq!(
            cases(js),
            vec![
                vec![
                    vec![pair("n", "1"), pair("want", "2")],
                    vec![pair("n", "3"), pair("want", "4")]
                ],
                vec![
                    vec![pair("input", "\" a \""), pair("expected", "1")],
                    vec![pair("input", "\" bb \""), pair("expected", "2")]
                ],
                // Two tables: none is the test's own.
                vec![],
                vec![
                    vec![pair("c . input", "\" a \""), pair("c . want", "1")],
                    vec![pair("c . input", "\" bb \""), pair("c . want", "2")]
                ],
            ]
        );
        // None: plain values, `for .. in`, a rebound table, a rebound loop name
        // (left out), an `it.each` test (its own rows win).
        let js = "test('plain', () => {\n  for (const n of [1, 2]) {\n    expect(inc(n)).toBeGreaterThan(n)\n  }\n})\n\ntest('in', () => {\n  for (const k in [[1, 2]]) {\n    expect(k).toBeDefined()\n  }\n})\n\ntest('rebound table', () => {\n  let t = [[1, 2]]\n  t = [[3, 4]]\n  for (const [n, want] of t) {\n    expect(inc(n)).toBe(want)\n  }\n})\n\ntest('rebound name', () => {\n  for (let [n, want] of [[1, 2]]) {\n    want = String(want)\n    expect(inc(n)).toBe(want)\n  }\n})\n\nit.each([[0]])('each %i', (k) => {\n  for (const [n, want] of [[1, 2]]) {\n    expect(inc(n + k)).toBe(want)\n  }\n})\n";
        assert_eq!(
            cases(js),
            vec![
                vec![],
                vec![],
                vec![],
                vec![vec![pair("n", "1")]],
                vec![vec![pair("k", "0")]]
            ]
        );
    }

    /// Rust: a `for` loop over a literal array is a table-driven test too.
    #[test]
    fn rust_loops_over_literal_tables_bind_their_names_per_row() {
        let cases = |source: &str| -> Vec<Vec<Vec<(String, String)>>> {
            let file = Lang::Rust.test_file(source.as_bytes()).unwrap();
            file.tests.into_iter().map(|t| t.cases).collect()
        };
        let pair = |name: &str, value: &str| (name.to_string(), value.to_string());
        let rs = "const CASES: &[(u32, u32)] = &[(4, 5), (6, 7)];\n\n#[test]\nfn written() {\n    for (n, want) in [(1, 2), (3, 4)] {\n        assert_eq!(inc(n), want);\n    }\n}\n\n#[test]\nfn constant() {\n    for &(n, want) in CASES.iter() {\n        assert_eq!(inc(n), want);\n    }\n}\n\n#[test]\nfn one_name() {\n    let rows = vec![0];\n    let table = [Row { n: 8, want: 9 }];\n    for row in &table {\n        assert_eq!(inc(row.n), row.want);\n    }\n}\n\n#[test]\nfn plain() {\n    for n in [1, 2] {\n        assert!(inc(n) > n);\n    }\n}\n";
        assert_eq!(
            cases(rs),
            vec![
                vec![
                    vec![pair("n", "1"), pair("want", "2")],
                    vec![pair("n", "3"), pair("want", "4")]
                ],
                vec![
                    vec![pair("n", "4"), pair("want", "5")],
                    vec![pair("n", "6"), pair("want", "7")]
                ],
                vec![vec![pair("row . n", "8"), pair("row . want", "9")]],
                vec![],
            ]
        );
    }

    /// The text of a string around its escape sequences is part of its key:
    /// `"plain\na"` and `"\n"` are not one value.
    #[test]
    fn strings_keep_their_text_around_escapes() {
        for (lang, source) in [
            (Lang::Python, "def test_a():\n    assert out == \"plain\\na\\tb\"\n"),
            (
                Lang::TypeScript,
                "it('a', () => { expect(out).toBe('plain\\na\\tb') })\n",
            ),
            (
                Lang::Rust,
                "#[test]\nfn a() {\n    assert_eq!(out, \"plain\\na\\tb\");\n}\n",
            ),
            (
                Lang::Go,
                "package a\n\nimport (\n\t\"testing\"\n\n\t\"github.com/stretchr/testify/assert\"\n)\n\nfunc TestA(t *testing.T) {\n\tassert.Equal(t, \"plain\\na\\tb\", out)\n}\n",
            ),
        ] {
            let file = lang.test_file(source.as_bytes()).unwrap();
            let parts = &file.tests.first().expect("one test").assertions[0].parts;
            let value = parts.iter().find(|p| p.contains('"')).unwrap();
            let words: String = value.chars().filter(|c| c.is_alphabetic()).collect();
            assert_eq!(words, "plainnatb", "{lang:?}: {parts:?}");
        }
    }

    #[test]
    fn numbers_compare_by_value() {
        assert_eq!(number("1_000"), Some(1000.0));
        assert_eq!(number("0x1F"), Some(31.0));
        assert_eq!(number("1.0"), number("1"));
        assert_eq!(number("10n"), Some(10.0));
    }

    #[test]
    fn conventional_helpers_need_a_word_boundary() {
        for yes in [
            "assert_frame_equal",
            "assertValid",
            "check_html",
            "expectError",
            "verify",
            "ensure_ok",
        ] {
            assert!(conventional_helper(yes), "{yes}");
        }
        for no in ["checkout", "assertion_count", "verifying", "shoulder", "expected"] {
            assert!(!conventional_helper(no), "{no}");
        }
    }

    #[test]
    fn helpers_close_over_calls() {
        let bodies = vec![
            ("a".to_string(), true, vec![]),
            ("b".to_string(), false, vec!["a".to_string()]),
            ("c".to_string(), false, vec!["b".to_string()]),
            ("d".to_string(), false, vec!["x".to_string()]),
        ];
        assert_eq!(close_helpers(&bodies), vec!["a", "b", "c"]);
    }

    /// TypeScript's types are erased before the code runs: a change to them
    /// alone is not a change of the code; an enum's members are values.
    #[test]
    fn typescript_types_are_not_code() {
        let print = |source: &str| code_fingerprint(Lang::TypeScript, source.as_bytes()).unwrap();
        let base = print(
            "type Feature = 'a' | 'b'\ninterface P { a: string }\nexport function f(x: Feature): string {\n  return x\n}\n",
        );
        let types = print(
            "type Feature = 'a' | 'b' | 'c'\ninterface P { a: string; b?: number }\nexport function f<T>(x: Feature | T): string {\n  return x as string\n}\n",
        );
        assert_ne!(base, types, "`as string` is an expression, still read");
        let only_types = print(
            "type Feature = 'a' | 'b' | 'c'\ninterface P { a: string; b?: number }\nexport function f(x: Feature | number): string {\n  return x\n}\n",
        );
        assert_eq!(base, only_types);
        let enum_member = |m: &str| print(&format!("enum E {{ A{m} }}\n"));
        assert_ne!(enum_member(""), enum_member(", B"));
        assert_ne!(
            base,
            print(
                "type Feature = 'a' | 'b'\ninterface P { a: string }\nexport function f(x: Feature): string {\n  return x + 1\n}\n"
            )
        );
    }

    /// A local variable or parameter renamed everywhere is the same code;
    /// a name that other code can see, or a name swapped for another that
    /// means something else, is not.
    #[test]
    fn locals_renamed_everywhere_are_the_same_code() {
        let print = |source: &str| code_fingerprint(Lang::TypeScript, source.as_bytes()).unwrap();
        let base = "export class Ky {\n  static create(input: string) {\n    const fn = async () => parseInt(input, 10)\n    return retry(fn, (e) => e)\n  }\n}\nfunction retry(fn: () => number, onError: (e: Error) => Error) {\n  try {\n    return fn()\n  } catch (error) {\n    throw onError(error)\n  }\n}\n";
        let renamed = base
            .replace("fn", "function_")
            .replace("(e) => e", "(x) => x")
            .replace("error", "caught");
        assert_eq!(print(base), print(&renamed));
        for other in [
            // Another callee, however consistently.
            base.replace("parseInt", "parseFloat"),
            // A local renamed onto a name used elsewhere: two names became one.
            base.replace("const fn", "const input")
                .replace("retry(fn,", "retry(input,"),
            // A function's name is visible (`retry.name`), as are exports.
            base.replace("retry", "again"),
            base.replace("export class Ky", "export class Client"),
        ] {
            assert_ne!(print(base), print(&other), "{other}");
        }
        let object = |name: &str| {
            print(&format!(
                "export const make = () => {{\n  const {name} = 1\n  return {{ {name} }}\n}}\n"
            ))
        };
        assert_ne!(object("count"), object("total"), "a shorthand property names its key");
        let exported = |name: &str| print(&format!("export const {name} = 1\n"));
        assert_ne!(exported("a"), exported("b"));
        let destructured = |name: &str| {
            print(&format!(
                "const f = (o) => {{\n  const {{ {name} }} = o\n  return {name}\n}}\n"
            ))
        };
        assert_ne!(destructured("a"), destructured("b"), "`{{ a }}` reads property `a`");
    }

    /// A JavaScript helper handed the test context asserts through it.
    #[test]
    fn helpers_handed_the_test_context_assert() {
        let source = "export async function timed({ t, ms }) {\n  t.true(ms < 10)\n}\nexport function check(t, x) {\n  t.is(x, 1)\n}\nexport function build(x) {\n  x.true(1)\n}\n";
        let file = Lang::TypeScript.test_file(source.as_bytes()).unwrap();
        assert_eq!(file.helpers, vec!["check", "timed"]);
    }
}
