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

mod bindings;
mod fingerprint;
mod guards;
mod parse;
mod tree;
pub(crate) use bindings::*;
pub use fingerprint::*;
pub(crate) use guards::*;
pub use parse::{PARSE_BUDGET, Unparsed};
pub(crate) use tree::*;

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

    /// Extract the test model from `source`: `None` when the grammar does
    /// not load; a file given up after [`PARSE_BUDGET`] is one with
    /// `parse_cut` set and nothing else read.
    pub fn test_file(self, source: &[u8]) -> Option<TestFile> {
        if self == Lang::Rust && !rust::may_hold_tests(source) {
            return Some(TestFile::default());
        }
        // Flattened, tree-sitter's own tree is dropped before the model is
        // built: the two at once raised the peak by a tenth.
        let tree = match self.try_parse(source) {
            Ok(tree) => Tree::new(&tree),
            Err(Unparsed::TooSlow) => return Some(TestFile::cut()),
            Err(Unparsed::NoGrammar) => return None,
        };
        Some(self.model(&tree, source, None))
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
    /// Parsing took longer than [`PARSE_BUDGET`] and was given up: nothing
    /// of the file was read. Never cached (it depends on the machine).
    #[serde(skip)]
    pub parse_cut: bool,
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
    /// The byte ranges of its tests (test functions and test modules), in
    /// order: the rest is that code.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub test_spans: Vec<(usize, usize)>,
    /// Tests declared with their data in one call: of the file's own
    /// function that declares a test titled by one of its parameters
    /// (`runTests({title: 'x', cases: [..]})`), or of the test function
    /// with an AVA macro (`test('x', verify, {..})`); each as the title
    /// handed and the call.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub declared: Vec<(String, Span)>,
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
    /// Local names bound exactly once to a function or method named without
    /// a call, and called, with what they name as a [`chain`] key
    /// (`numwords` -> `p.number_to_words` of `numwords = p.number_to_words`):
    /// calling the name calls it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub callables: Vec<(String, String)>,
    /// Of a test with [`mock_returns`](Self::mock_returns), the local
    /// names bound exactly once to a chain, called or not ([`Local`]), in
    /// source order (Python and JavaScript).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub locals: Vec<Local>,
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
    /// When the cases are the rows of several tables, each run by a loop of
    /// its own (a subtest per table), where each runs: only the assertions
    /// inside a loop make its rows. Empty when every assertion makes every
    /// case (one table, or a test's parameters).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub case_loops: Vec<CaseLoop>,
    /// The Cargo features a Rust test is compiled only with (`#[cfg(feature
    /// = "slow")]`, `#[cfg(all(feature = "a", feature = "b"))]` on it, its
    /// module or its file), with where that is said.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub feature: Option<(Vec<String>, Span)>,
}

/// The rows of one of several tables a test's loops run over: the next
/// `rows` of [`TestCase::cases`], in order, made by the assertions inside
/// `span` (the loop).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct CaseLoop {
    pub span: Span,
    pub rows: usize,
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
        for l in &mut self.locals {
            l.span = l.span.moved(delta);
        }
        for l in &mut self.case_loops {
            l.span = l.span.moved(delta);
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

    /// Does the file use what this import brings in? An import for its
    /// effect runs the module, which is its use (`require('../lib/register')`
    /// in a test of the hook it installs).
    pub fn used_in(&self, file: &TestFile) -> bool {
        match self.kind {
            ImportKind::Dynamic | ImportKind::SideEffect => true,
            ImportKind::Static => self.names.iter().any(|n| n == "*" || file.used.contains(n)),
        }
    }
}

/// A mock configured with what it returns.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MockReturn {
    /// How the test calls it, as a [`chain`] key without its last call: `m`,
    /// `svc.get`, `api.fetch`, `m.session().query().first` (Python's
    /// `.return_value` read as the call it stands for).
    pub callee: String,
    pub value: Returned,
    pub span: Span,
}

/// What a mock was told to return.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Returned {
    /// `return_value = 5`, `mockReturnValue("ok")`.
    Literal(Literal),
    /// A name or a chain of names without a call (`return_value = user`,
    /// `mockResolvedValue(this.user)`), bound once where the test sees it:
    /// the same object wherever the test names it.
    Name(String),
    /// A value the test does not name (what a call returns): it replaces an
    /// earlier configuration, and is the value of no expression.
    Other,
    /// What it returns is computed (`side_effect`, `mockImplementation`,
    /// `mockRejectedValue`, `throws`): a configured value is not what a
    /// call returns.
    Computed,
}

/// A local name bound exactly once to a [`chain`] key (`get = m.get`,
/// `result = m.get()`, `const { fetch } = api`): how a test reaches a value
/// through a local.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Local {
    pub name: String,
    pub chain: String,
    /// The binding: where a call it names was made.
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
    /// `name = a.b`: a chain of names without a call at its end, as a [`chain`] key.
    Chain(String, Site),
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
            Bound::Literal(_, site) | Bound::Call(_, site) | Bound::Chain(_, site) if !site.straight => Bound::Other,
            other => other,
        }
    }
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
    pub(crate) fn read_condition(&mut self) {
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
    /// Runs only under Python 2 (`if PY2:`, `if six.PY2:`, `if
    /// sys.version_info[0] == 2:`, the `else` of a Python 3 check): no
    /// interpreter a project tests on today runs it.
    #[serde(default, skip_serializing_if = "is_false")]
    pub legacy: bool,
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
    /// When the operand is a call (`f(1)`, `await svc.get()`), or in Python
    /// stands for what one returns (`m.get.return_value`), the callee: as a
    /// [`chain`] key in Python and JavaScript (`f`, `svc.get`,
    /// `m.session().query`), as written, whitespace removed, in Rust and Go.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub call_of: Option<String>,
    /// When evaluating the operand again only reads the same things again
    /// (calls, attribute and field reads, subscripts: `f(1)`, `a.b[0]`,
    /// `svc.get(k).json()`), the callees of its calls, as written without
    /// whitespace or type arguments (`uuid.uuid4`, `time.Now`): the same
    /// expression on both sides of `==` then gives the same value, unless a
    /// callee makes something new each time. `None` when anything else may
    /// make two evaluations differ ([`Recomputed`]: `await`, `new`, a
    /// closure, a macro, a constructor) or when the comparison is by
    /// identity ([`Operand::by_identity`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub recomputed: Option<Vec<String>>,
}

impl Operand {
    /// The operand compared by identity (Python's `is`): two evaluations of
    /// a call or an attribute read are one object only when something
    /// caches or interns it, and that is what such a test checks
    /// (`assert get_settings() is get_settings()`).
    pub(crate) fn by_identity(mut self) -> Operand {
        if self.effects {
            self.recomputed = None;
        }
        self
    }
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

#[cfg(test)]
mod tests;

/// Could this string name a file by a relative path: one word, a file name
/// with an extension or a path with a `/`, not a URL, an absolute path or a
/// module specifier that is a bare package name?
pub(crate) fn looks_like_path(value: &str) -> bool {
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
