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
    Assertion, Bound, Case, CaseLoop, Form, Guard, Import, ImportKind, Literal, Local, Mock, MockReturn, MockTarget,
    Operand, Recomputed, Returned, Skip, Span, TestCase, TestFile, Unchecked, UncheckedKinds, Unfinished, bound,
    callee_key, chain, class_path, close_helpers, contains_kind, display, first_child, first_syntax_error,
    guards_where, is_dotted_path, keep_imported_uses, keep_locals_of_mocked, normalized, note_name, number,
    plain_bindings, recomputed, single_call_aliases, single_locals, single_nonempty_collections, text, token_key,
    unchecked, unwrap, value_equal, values, visit_named,
};

mod assertions;
mod cases;
mod doubles;
mod imports;
pub(crate) mod layout;
mod matchers;
use assertions::*;
use cases::*;
use doubles::*;
use imports::*;
use matchers::*;

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

/// The statements at the top of a module, and those of the blocks of a
/// top-level `if` or `try` there: pytest collects a test a module defines
/// under a condition (`if Enum:`, `try: import numpy`) wherever the
/// condition lets it run, as one defined at the top (issue 64: voluptuous
/// moved `test_coerce_enum` under `if Enum:`).
fn module_items<'t>(root: &Node<'t>) -> Vec<Node<'t>> {
    let mut items = Vec::new();
    let mut open = vec![*root];
    while let Some(block) = open.pop() {
        let mut cursor = block.walk();
        for child in block.named_children(&mut cursor) {
            match child.kind() {
                "if_statement" | "try_statement" | "elif_clause" | "else_clause" | "except_clause"
                | "finally_clause" | "block" => open.push(child),
                _ if block.kind() == "module" || block.kind() == "block" => items.push(child),
                _ => {}
            }
        }
    }
    items.sort_by_key(|n| n.start_byte());
    items
}

pub fn test_file(tree: &Tree, source: &[u8], mut memo: Option<&mut Memo>) -> TestFile {
    let mut file = TestFile::default();
    let mut bodies: Vec<Body> = Vec::new();
    let root = tree.root_node();
    let tables = literal_tables(&root, source);
    let literals = module_literals(&root, source);
    let fixtures = fixture_returns(&root, source);
    // Each class, by name, with its tests (a range of `file.tests`) and its bases.
    let mut classes: Vec<(String, std::ops::Range<usize>, Vec<String>)> = Vec::new();
    // Mocks told to return a literal at the top of the module: in effect in every test.
    let mut module_returns = Vec::new();
    for item in module_items(&root) {
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
    seen_from_tests(&mut module_returns, &[]);
    add_mock_returns(&mut file.tests, &module_returns);
    // An empty test of a class that another class here extends runs there,
    // under that class's setup (`setUpClass`, decorators): it checks that the
    // setup does not raise, as a smoke test does.
    let extended: std::collections::HashSet<&String> = classes.iter().flat_map(|(_, _, bases)| bases).collect();
    for (name, tests, _) in &classes {
        if extended.contains(name) {
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
    keep_locals_of_mocked(&mut file.tests);
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
