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
    Assertion, Bound, Case, CaseLoop, Form, Guard, Import, ImportKind, Literal, Mock, MockReturn, MockTarget, Operand,
    Recomputed, Returned, Skip, Span, TestCase, TestFile, Unchecked, UncheckedKinds, Unfinished, bound, callee_key,
    chain, class_called, close_helpers, contains_kind, display, first_child, first_syntax_error, guards_where,
    keep_imported_uses, keep_locals_of_mocked, normalized, note_name, number, plain_bindings, recomputed,
    single_call_aliases, single_locals, single_nonempty_collections, text, token_key, unchecked, unwrap, values,
    visit_named,
};

mod assertions;
mod cases;
mod declared;
mod doubles;
mod imports;
mod matchers;
mod tables;
use assertions::*;
use cases::*;
use doubles::*;
pub use imports::imports;
use imports::*;
use matchers::*;
use tables::*;

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
        renamed: renamed_imports(&tree.root_node(), source),
        aliases: test_aliases(&tree.root_node(), source, TEST_NAMES),
        http_client: imports_http_client(&tree.root_node(), source),
    };
    walker.visit(&tree.root_node(), None);
    walker.file.declared = walker.declared_through_functions(&tree.root_node());
    let mut mocks = MockScan::default();
    walker.imports_and_uses(&tree.root_node(), Some(&mut mocks));
    walker.mocks(mocks);
    // QUnit runs in a page that loads the code under test with script tags.
    walker.file.page_loaded = walker.qunit && walker.file.imports.is_empty();
    let Walker {
        mut file,
        bodies,
        renamed,
        ..
    } = walker;
    read_as_exported(&mut file.tests, &renamed);
    file.helpers = close_helpers(&bodies);
    keep_imported_uses(&mut file);
    keep_locals_of_mocked(&mut file.tests);
    file.paths.sort();
    file.paths.dedup();
    file
}

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
    /// Names imported from the project's own modules under a name of their
    /// own, with the name exported ([`renamed_imports`]).
    renamed: Vec<(String, String)>,
    /// Names bound to a test function ([`test_aliases`]).
    aliases: Vec<TestAlias>,
    /// The file imports an HTTP test client whose chained `.expect(..)`
    /// asserts ([`imports_http_client`]).
    http_client: bool,
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
