//! Rust test files: `#[test]` functions (and `#[tokio::test]`, `#[rstest]`,
//! `#[test_case]`, any attribute path ending in `test`) wherever they are
//! declared, in `tests/*.rs` or a `#[cfg(test)] mod` beside the code.
//!
//! Macro arguments are token trees to tree-sitter, so the arguments of an
//! assertion macro (`assert_eq!(total(&cart), 5)`) are parsed again as call
//! arguments, in a source of their own, to read them as expressions. Other
//! macros (`vec!`, `format!`, `println!`) are read token by token for the
//! names they use and the functions they call.

use std::cell::RefCell;
use std::collections::BTreeSet;

use super::syntax::{Node, Tree};
use tree_sitter::Parser;

use super::versions::{Body, Item, Memo};
use super::{
    Assertion, Bound, Case, CaseLoop, FieldExt, Form, Guard, Import, ImportKind, Lang, Literal, MockReturn, Operand,
    Recomputed, Skip, Span, TestCase, TestFile, Unchecked, UncheckedKinds, bound, callee_key, chain, class_path,
    close_helpers, display, first_child, first_syntax_error, keep_imported_uses, normalized, number, plain_bindings,
    recomputed, single_call_aliases, single_nonempty_collections, text, token_key, unchecked, value_equal, values,
    visit_named,
};

mod assertions;
mod cases;
mod expand;
mod imports;
mod matchers;
use assertions::*;
use cases::*;
use expand::*;
pub use imports::imports;
use imports::*;
use matchers::*;

const COMMENTS: &[&str] = &["line_comment", "block_comment"];

const UNCHECKED: UncheckedKinds = UncheckedKinds {
    binding: ("let_declaration", "pattern", "value"),
    computed: &["call_expression", "await_expression"],
    call: "call_expression",
    macro_call: "macro_invocation",
    identifiers: &["identifier"],
    effects: &[
        "call_expression",
        "macro_invocation",
        "index_expression",
        "try_expression",
        "await_expression",
    ],
    scopes: &["closure_expression", "function_item"],
};

/// Attribute paths (their last segment) that make a function a test.
const TEST_ATTRIBUTES: &[&str] = &[
    "test",
    "rstest",
    "test_case",
    "quickcheck",
    "wasm_bindgen_test",
    "proptest",
    "apply",
];

/// Macros that print or log: a test that only shows a value does not check it.
const PRINTS: &[&str] = &[
    "println", "print", "eprintln", "eprint", "dbg", "info", "debug", "trace",
];

/// Does `source` declare a test? A byte search for a test attribute, so the
/// source files of a crate that hold no tests are not read further.
pub fn may_hold_tests(source: &[u8]) -> bool {
    static ATTRIBUTE: std::sync::LazyLock<regex::bytes::Regex> = std::sync::LazyLock::new(|| {
        regex::bytes::Regex::new(
            r"#\s*\[\s*(?:[A-Za-z_][\w]*\s*::\s*)*(?:test|rstest|test_case|quickcheck|wasm_bindgen_test|bench)\b",
        )
        .expect("test attribute pattern")
    });
    ATTRIBUTE.is_match(source)
}

pub fn test_file(tree: &Tree, source: &[u8], memo: Option<&mut Memo>) -> TestFile {
    let (imports, mut used) = imports_and_used(tree, source);
    // A trait brought into scope (`use crate::Flags;`, `use x::Ext as _;`)
    // is used through its methods without being named again, and rustc
    // warns of a `use` of a type never named: a capitalized name a `use`
    // brings in is used (issue 64: bitflags' in-crate tests).
    for import in imports.iter().filter(|i| i.kind == ImportKind::Static) {
        used.extend(
            import
                .names
                .iter()
                .filter(|n| *n == "_" || n.starts_with(|c: char| c.is_ascii_uppercase()))
                .cloned(),
        );
    }
    let mut file = TestFile {
        imports,
        used,
        ..TestFile::default()
    };
    let root = tree.root_node();
    let tables = constant_tables(&root, source);
    let literals = constant_literals(&root, source);
    let expansions: std::rc::Rc<[Expansion]> = std::rc::Rc::from(assertion_macros(&root, source));
    let mut items = Items {
        source,
        tables: &tables,
        literals: &literals,
        expansions,
        file: &mut file,
        bodies: macro_helpers(&root, source),
        code: Vec::new(),
        memo,
    };
    items.read(&root, "");
    let Items { bodies, mut code, .. } = items;
    file.helpers = close_helpers(&bodies);
    for test in &mut file.tests {
        if test.empty && test.calls.iter().any(|c| file.helpers.contains(c)) {
            test.empty = false;
        }
    }
    if !file.tests.is_empty() {
        // Files the tests name by a relative path (`version_sync`'s
        // `assert_markdown_deps_updated!("README.md")`): Cargo runs an
        // integration test from the crate's root.
        file.paths = matchers::quoted_paths(source);
        code.sort_by_key(|range| range.start);
        file.code_digest = digest(source, &code);
        file.test_spans = code.iter().map(|range| (range.start, range.end)).collect();
    }
    keep_imported_uses(&mut file);
    file
}

#[cfg(test)]
mod tests {
    use super::*;

    fn model(source: &str) -> TestFile {
        Lang::Rust.test_file(source.as_bytes()).unwrap()
    }

    /// A `macro_rules!` that declares tests declares them where it is
    /// invoked; a test named by a metavariable is a template, not a test.
    #[test]
    fn tests_a_macro_declares_are_tests() {
        let file = model(
            "macro_rules! buf_tests {\n    ($make:ident) => {\n        #[test]\n        fn fresh() {\n            let buf = $make(INPUT);\n            assert_eq!(buf.remaining(), 64);\n        }\n\n        #[test]\n        fn $name() {\n            $body\n        }\n    };\n}\n\nmod slice {\n    buf_tests!(make);\n}\n",
        );
        let tests: Vec<(&str, &str, u32, usize)> = file
            .tests
            .iter()
            .map(|t| (t.scope.as_str(), t.name.as_str(), t.span.line, t.assertions.len()))
            .collect();
        assert_eq!(tests, vec![("buf_tests!", "fresh", 4, 1)]);
        assert_eq!(file.tests[0].assertions[0].parts, vec!["buf . remaining ( )", "64"]);
    }

    #[test]
    fn tests_and_their_assertions() {
        let file = model(
            r#"
use super::*;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn totals() {
        let cart = Cart::new();
        assert_eq!(total(&cart), 5, "total of {:?}", cart);
        assert!(cart.is_empty());
        assert!(!cart.is_full());
        assert_ne!(cart.len(), 3);
        assert!(matches!(cart.first(), Some(_)));
    }

    #[tokio::test]
    #[ignore = "needs the network"]
    async fn fetches() {}

    #[test]
    #[should_panic(expected = "empty")]
    fn panics() {
        pop(&mut Vec::new());
    }
}
"#,
        );
        let names: Vec<(&str, &str)> = file.tests.iter().map(|t| (t.scope.as_str(), t.name.as_str())).collect();
        assert_eq!(
            names,
            vec![("tests", "totals"), ("tests", "fetches"), ("tests", "panics")]
        );
        let totals = &file.tests[0];
        let matchers: Vec<&str> = totals.assertions.iter().map(|a| a.matcher.as_str()).collect();
        assert_eq!(matchers, vec!["assert_eq", "truthy", "not", "assert_ne", "matches"]);
        assert!(
            matches!(&totals.assertions[0].form, Form::Equal(a, b) if a.text == "total(&cart)" && b.literal == Some(Literal::Number(5.0)))
        );
        assert_eq!(totals.assertions[0].parts, vec!["total ( & cart )", "5"]);
        assert!(totals.calls.contains(&"total".to_string()) && totals.calls.contains(&"new".to_string()));
        let skip = file.tests[1].skip.as_ref().unwrap();
        assert_eq!(skip.reason.as_deref(), Some("needs the network"));
        assert!(file.tests[1].empty);
        assert_eq!(file.tests[2].assertions[0].matcher, "should_panic");
        assert!(!file.code_digest.is_empty());
    }

    /// A panic in `unwrap_or_else`'s closure is `.expect(..)` written out:
    /// setup, no check (issue 64: jiff). One in the body checks.
    #[test]
    fn a_panic_that_unwraps_is_no_check() {
        let file = model(
            "#[test]\nfn walk() {\n    let name = path.strip_prefix(DIR).unwrap_or_else(|_| panic!(\"no prefix\"));\n    if parse(name).is_err() {\n        panic!(\"failed\");\n    }\n}\n",
        );
        let matchers: Vec<&str> = file.tests[0].assertions.iter().map(|a| a.matcher.as_str()).collect();
        assert_eq!(matchers, ["panic"]);
        assert_eq!(file.tests[0].assertions[0].span.line, 5);
    }

    /// A test that must panic passes by a `panic!` of its own: no check
    /// (arrayvec 812c83a: a "does not work on this platform" shim).
    #[test]
    fn a_panic_in_a_test_that_must_panic_is_no_check() {
        let file = model(
            "#[test]\n#[should_panic(expected = \"capacity\")]\nfn deny() {\n    if small() {\n        panic!(\"not on this platform: capacity\");\n    }\n    make(usize::MAX);\n}\n",
        );
        let matchers: Vec<&str> = file.tests[0].assertions.iter().map(|a| a.matcher.as_str()).collect();
        assert_eq!(matchers, ["should_panic"]);
    }

    #[test]
    fn a_test_compiled_only_with_a_feature_says_which() {
        let feature = |src: &str| -> Vec<(String, Option<String>)> {
            model(src)
                .tests
                .iter()
                .map(|t| (t.name.clone(), t.feature.as_ref().map(|(f, _)| f.join(","))))
                .collect()
        };
        let f = |name: &str, feature: Option<&str>| (name.to_string(), feature.map(str::to_string));
        assert_eq!(
            feature("#![cfg(feature = \"slow\")]\n#[test]\nfn a() { assert!(true); }\n"),
            vec![f("a", Some("slow"))]
        );
        assert_eq!(
            feature(
                "#[cfg(all(test, feature = \"net\"))]\nmod tests {\n    #[test]\n    #[cfg(feature = \"tls\")]\n    fn a() {}\n    #[test]\n    fn b() {}\n}\n#[cfg(test)]\nmod plain {\n    #[test]\n    fn c() {}\n}\n"
            ),
            vec![f("a", Some("tls")), f("b", Some("net")), f("c", None)]
        );
        // Every feature `all(..)` needs.
        assert_eq!(
            feature("#[cfg(all(feature = \"std\", feature = \"serde\"))]\n#[test]\nfn a() {}\n"),
            vec![f("a", Some("std,serde"))]
        );
        // Satisfied some other way, or only when the feature is off: not required.
        assert_eq!(
            feature(
                "#[cfg(any(feature = \"a\", unix))]\n#[test]\nfn a() {}\n#[cfg(not(feature = \"b\"))]\n#[test]\nfn b() {}\n"
            ),
            vec![f("a", None), f("b", None)]
        );
    }

    #[test]
    fn imports_and_paths() {
        let file = model(
            "use mycrate::{billing::total, cart as c};\nuse super::*;\nextern crate other;\nmod common;\n#[test]\nfn t() {\n    let x = mycrate::parse::run(1);\n    assert_eq!(helpers::f(x), crate::y::Z);\n    common::setup();\n}\n",
        );
        let specs: Vec<(&str, &[String], ImportKind)> = file
            .imports
            .iter()
            .map(|i| (i.specifier.as_str(), i.names.as_slice(), i.kind))
            .collect();
        let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
        assert_eq!(specs[0], ("mycrate::billing", &s(&["total"])[..], ImportKind::Static));
        assert_eq!(specs[1], ("mycrate", &s(&["c"])[..], ImportKind::Static));
        assert_eq!(specs[2], ("super", &s(&["*"])[..], ImportKind::Static));
        assert_eq!(specs[3].0, "other");
        assert_eq!(specs[4], ("self::common", &s(&["common"])[..], ImportKind::Static));
        let dynamic: Vec<&str> = file
            .imports
            .iter()
            .filter(|i| i.kind == ImportKind::Dynamic)
            .map(|i| i.specifier.as_str())
            .collect();
        assert_eq!(dynamic, vec!["crate::y", "helpers", "mycrate::parse"]);
        assert!(file.used.contains("common"));
    }

    #[test]
    fn guards_loops_and_matches() {
        let file = model(
            r#"
#[test]
fn guarded() {
    if let Some(v) = get() { assert_eq!(v, 1); }
    for x in list() { assert!(x > 0); }
}
#[test]
fn tables() {
    let cases = [(1, 2), (2, 3)];
    for (a, b) in cases { assert_eq!(inc(a), b); }
    for i in 0..3 { assert!(ok(i)); }
    match parse() { Ok(v) => assert_eq!(v, 2), Err(e) => panic!("{e}") }
}
"#,
        );
        assert!(file.tests[0].assertions.iter().all(|a| a.guard.conditional));
        assert!(
            file.tests[1].assertions.iter().all(|a| !a.guard.conditional),
            "{:?}",
            file.tests[1].assertions
        );
    }

    #[test]
    fn mockall_returns_and_expectations() {
        let file = model(
            "#[test]\nfn t() {\n    let mut store = MockStore::new();\n    store.expect_get().times(1).returning(|_| 5);\n    store.expect_put().return_const(true);\n    assert_eq!(store.get(1), 5);\n}\n",
        );
        let t = &file.tests[0];
        let returns: Vec<(&str, &crate::lang::Returned)> =
            t.mock_returns.iter().map(|r| (r.callee.as_str(), &r.value)).collect();
        assert_eq!(
            returns,
            vec![
                ("store.get", &crate::lang::Returned::Literal(Literal::Number(5.0))),
                ("store.put", &crate::lang::Returned::Literal(Literal::Bool(true)))
            ]
        );
        assert_eq!(file.callback_spies, 1);
        assert_eq!(t.assertions.iter().filter(|a| a.matcher == "expect").count(), 2);
    }

    #[test]
    fn unchecked_results_and_helpers() {
        let file = model(
            r#"
fn check_total(c: &Cart) { assert_eq!(c.total(), 3); }
#[test]
fn via_helper() { let c = Cart::new(); check_total(&c); }
#[test]
fn drops_result() { let t = total(&cart()); }
#[test]
fn unwraps() { let t = parse("1").unwrap(); }
#[test]
fn prints() { let t = total(&cart()); println!("{t}"); }
"#,
        );
        assert_eq!(file.helpers, vec!["check_total", "via_helper"]);
        let u: Vec<&Unchecked> = file.tests.iter().map(|t| &t.unchecked).collect();
        assert_eq!(u[1].results, vec!["t"]);
        assert!(u[2].results.is_empty() && !u[2].inert);
        // What only goes into a print is shown, not checked.
        assert!(u[3].prints && u[3].results == vec!["t"]);
    }

    #[test]
    fn literals_with_suffixes() {
        assert_eq!(rust_number("5u32"), Some(5.0));
        assert_eq!(rust_number("1_000i64"), Some(1000.0));
        assert_eq!(rust_number("0xf32"), Some(3890.0));
        assert_eq!(rust_number("2.5f64"), Some(2.5));
        let file = model(
            "#[test]\nfn t() { let v = vec![1, 2, 3,]; let w = vec![0; 4]; let s = \"a\"; assert_eq!(v.len(), 3); assert_eq!(s, w); }\n",
        );
        let b: Vec<(&str, &Literal)> = file.tests[0]
            .bindings
            .iter()
            .filter_map(|b| Some((b.name.as_str(), b.literal.as_ref()?)))
            .collect();
        assert_eq!(b, vec![("s", &Literal::Str("a".into()))]);
    }

    #[test]
    fn files_without_test_attributes_are_not_read() {
        assert!(may_hold_tests(b"#[cfg(test)]\nmod tests {\n  #[test]\n  fn a() {}\n}"));
        assert!(may_hold_tests(b"#[tokio::test]\nasync fn a() {}"));
        assert!(may_hold_tests(b"#[rstest]\nfn a() {}"));
        assert!(!may_hold_tests(
            b"// #[testing] is not a test\nfn testable() {}\n#[derive(Debug)]\nstruct T;"
        ));
    }
}
