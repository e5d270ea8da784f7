//! Go test files (`*_test.go`): `func TestX(t *testing.T)` (and `FuzzX`,
//! `BenchmarkX`, examples with an `// Output:` comment, testify suite
//! methods), `t.Error*`/`t.Fatal*` failures, testify `assert`/`require`
//! (package functions, `assert.New(t)` objects and suite methods), `t.Skip*`,
//! subtests (`t.Run`) and table-driven loops, gomock and testify mocks.
//!
//! A file in the package it tests (`package cart`, not `package cart_test`)
//! reaches its subject without an import: it gets an import of `.`, its own
//! directory.

use std::collections::BTreeSet;

use super::Case;
use super::syntax::{Node, Tree};

use super::versions::{Body, Item, Memo};
use super::{
    Assertion, Bound, CaseLoop, FieldExt, Form, Guard, Import, ImportKind, Literal, MockReturn, Operand, Recomputed,
    Skip, Span, TestCase, TestFile, Unchecked, bound, callee_key, chain, close_helpers, display, first_child,
    first_syntax_error, keep_imported_uses, normalized, number, plain_bindings, recomputed, single_call_aliases,
    single_nonempty_collections, text, token_key, values, visit_named,
};

mod assertions;
mod cases;
mod imports;
mod matchers;
use assertions::*;
use cases::*;
pub use imports::imports;
use matchers::*;

const COMMENT: &str = "comment";

/// The `testing` types whose values fail, skip and run subtests.
const TESTING_TYPES: &[&str] = &["T", "B", "F", "TB"];
/// The methods of a `*testing.T` that fail the test.
const FAILURES: &[&str] = &["Error", "Errorf", "Fatal", "Fatalf", "Fail", "FailNow"];

/// testify's assertion methods (on `assert`, `require`, an `assert.New(t)`
/// object or a suite), and gotest.tools' `assert` package.
const TESTIFY: &[&str] = &[
    "Equal",
    "Equalf",
    "EqualValues",
    "EqualValuesf",
    "Exactly",
    "NotEqual",
    "NotEqualf",
    "NotEqualValues",
    "True",
    "Truef",
    "False",
    "Falsef",
    "Nil",
    "Nilf",
    "NotNil",
    "NotNilf",
    "NoError",
    "NoErrorf",
    "Error",
    "Errorf",
    "ErrorIs",
    "ErrorAs",
    "ErrorContains",
    "EqualError",
    "NotErrorIs",
    "Len",
    "Lenf",
    "Empty",
    "NotEmpty",
    "Contains",
    "Containsf",
    "NotContains",
    "ElementsMatch",
    "Subset",
    "NotSubset",
    "Greater",
    "GreaterOrEqual",
    "Less",
    "LessOrEqual",
    "Positive",
    "Negative",
    "Zero",
    "NotZero",
    "Same",
    "NotSame",
    "IsType",
    "Implements",
    "InDelta",
    "InEpsilon",
    "JSONEq",
    "YAMLEq",
    "Regexp",
    "NotRegexp",
    "Panics",
    "PanicsWithValue",
    "PanicsWithError",
    "NotPanics",
    "Eventually",
    "EventuallyWithT",
    "Never",
    "Condition",
    "WithinDuration",
    "FileExists",
    "DirExists",
    "NoFileExists",
    "HTTPStatusCode",
    "HTTPBodyContains",
    "Fail",
    "FailNow",
    // gotest.tools/v3/assert
    "Assert",
    "Check",
    "NilError",
    "DeepEqual",
];

/// Import paths of assertion packages whose functions all assert.
const ASSERTION_PACKAGES: &[&str] = &[
    "github.com/stretchr/testify/assert",
    "github.com/stretchr/testify/require",
    "gotest.tools/v3/assert",
    "gotest.tools/assert",
];

/// Import paths of quicktest, whose `qt.New(t)` makes a checker
/// (`c.Assert(got, qt.Equals, want)`) and whose own `qt.Assert(t, ..)`
/// checks.
const QUICKTEST: &[&str] = &["github.com/frankban/quicktest", "github.com/go-quicktest/qt"];

/// What the whole file tells the reading of one function.
struct Read<'a> {
    source: &'a [u8],
    /// Local names of the assertion packages.
    assert_packages: Vec<String>,
    /// Local names of quicktest.
    quicktest: Vec<String>,
    /// The file imports testify's `suite`: `Test*` methods are tests.
    suite: bool,
    /// Package-level names bound once to a non-empty literal slice or map.
    tables: Vec<String>,
    /// Of those, the ones bound to a composite literal, with it: the rows a
    /// table-driven test may run over (`var cases = []struct{..}{..}`).
    literals: Vec<(String, Node<'a>)>,
    /// Local names of every imported package.
    packages: Vec<String>,
    /// Local names of the imported packages outside the standard library
    /// (their path's first element names a host: `github.com/x/y/testutils`).
    outside_std: Vec<String>,
    /// The fields of the struct types the file declares at package level,
    /// as `name:field,field`: the columns of a table of them.
    structs: Vec<String>,
    /// The file's own `assert(t, cond)` helpers ([`matchers::truth_helpers`]).
    truth_helpers: Vec<(String, usize)>,
}

pub fn test_file(tree: &Tree, source: &[u8], mut memo: Option<&mut Memo>) -> TestFile {
    let root = tree.root_node();
    let mut file = TestFile {
        imports: imports(tree, source),
        ..TestFile::default()
    };
    // The local names of the packages of `paths` the file imports.
    let named = |paths: &[&str]| -> Vec<String> {
        file.imports
            .iter()
            .filter(|i| paths.contains(&i.specifier.as_str()))
            .flat_map(|i| i.names.clone())
            .collect()
    };
    let (assert_packages, quicktest) = (named(ASSERTION_PACKAGES), named(QUICKTEST));
    let mut top = Vec::new();
    let mut cursor = root.walk();
    for declaration in root
        .named_children(&mut cursor)
        .filter(|d| d.kind() == "var_declaration")
    {
        bindings(&declaration, source, &mut top);
    }
    let tables = single_nonempty_collections(&top);
    let read = Read {
        source,
        structs: struct_fields(&root, source),
        truth_helpers: matchers::truth_helpers(&root, source),
        literals: package_literals(&root, &tables, source),
        tables,
        packages: file.imports.iter().flat_map(|i| i.names.clone()).collect(),
        outside_std: file
            .imports
            .iter()
            .filter(|i| i.specifier.split('/').next().is_some_and(|host| host.contains('.')))
            .flat_map(|i| i.names.clone())
            .collect(),
        assert_packages,
        quicktest,
        suite: file
            .imports
            .iter()
            .any(|i| i.specifier == "github.com/stretchr/testify/suite"),
    };
    let mut bodies: Vec<Body> = Vec::new();
    let mut cursor = root.walk();
    for item in root.named_children(&mut cursor) {
        if !matches!(item.kind(), "function_declaration" | "method_declaration") {
            continue;
        }
        let item = function(&item, &read, memo.as_deref_mut());
        file.tests.extend(item.tests);
        file.callback_spies += item.callback_spies;
        file.used.extend(item.used);
        bodies.extend(item.bodies);
    }
    file.helpers = close_helpers(&bodies);
    for test in &mut file.tests {
        if test.empty && test.calls.iter().any(|c| file.helpers.contains(c)) {
            test.empty = false;
        }
    }
    // Go refuses to compile an unused import: every import is used.
    for import in &file.imports {
        file.used.extend(import.names.iter().cloned());
    }
    keep_imported_uses(&mut file);
    // A file built only with a tag of the project's own (`//go:build
    // integration`, `//go:build ignore`) is left out of a plain `go test`:
    // each of its tests is skipped there.
    if let Some((line, expr, tag)) = custom_build_tag(source) {
        for test in file.tests.iter_mut().filter(|t| t.skip.is_none()) {
            test.skip = Some(crate::lang::Skip {
                span: crate::lang::Span {
                    line,
                    column: 1,
                    end_line: line,
                    end_column: 1,
                },
                reason: Some(format!(
                    "the file is built only with `-tags {tag}` (`{expr}`), which `go test` does not set"
                )),
                conditional: false,
            });
        }
    }
    file
}

/// Tags `go` sets by itself: operating systems, architectures, toolchain
/// and release tags. A build constraint on them is a platform's, not a
/// way to leave tests out.
const GO_SET_TAGS: &[&str] = &[
    "aix",
    "android",
    "darwin",
    "dragonfly",
    "freebsd",
    "hurd",
    "illumos",
    "ios",
    "js",
    "linux",
    "nacl",
    "netbsd",
    "openbsd",
    "plan9",
    "solaris",
    "wasip1",
    "windows",
    "zos",
    "386",
    "amd64",
    "arm",
    "arm64",
    "loong64",
    "mips",
    "mipsle",
    "mips64",
    "mips64le",
    "ppc64",
    "ppc64le",
    "riscv64",
    "s390x",
    "wasm",
    "unix",
    "cgo",
    "gc",
    "gccgo",
    "race",
    "msan",
    "asan",
    "purego",
    "boringcrypto",
    "goexperiment",
];

/// The line, the constraint as written and the first tag of a `//go:build`
/// constraint (or an older `// +build` line) before the package clause that needs a tag
/// `go test` does not set (a tag written without `!`, not a platform's,
/// not `go1.N`).
pub(crate) fn custom_build_tag(source: &[u8]) -> Option<(u32, String, String)> {
    let text = String::from_utf8_lossy(source);
    for (i, line) in text.lines().enumerate() {
        let trimmed = line.trim();
        if trimmed.starts_with("package ") {
            return None;
        }
        let Some(expr) = trimmed
            .strip_prefix("//go:build ")
            .or_else(|| trimmed.strip_prefix("// +build "))
        else {
            continue;
        };
        let written = trimmed.to_string();
        let mut negated = false;
        let mut word = String::new();
        for c in expr.chars().chain(std::iter::once(' ')) {
            if c.is_alphanumeric() || c == '_' || c == '.' {
                word.push(c);
                continue;
            }
            if !word.is_empty() {
                let tag = std::mem::take(&mut word);
                let set_by_go =
                    GO_SET_TAGS.contains(&tag.as_str()) || tag.starts_with("go1.") || tag.starts_with("goexperiment.");
                if !negated && !set_by_go {
                    return Some((u32::try_from(i + 1).unwrap_or(1), written, tag));
                }
            }
            negated = c == '!';
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::imports::package_name;

    #[test]
    fn a_build_tag_of_the_projects_own_leaves_tests_out() {
        let tag = |src: &str| super::custom_build_tag(src.as_bytes()).map(|(line, _, tag)| (line, tag));
        assert_eq!(
            tag("//go:build integration\n\npackage x\n"),
            Some((1, "integration".into()))
        );
        assert_eq!(tag("// Copyright\n//go:build linux && !race\npackage x\n"), None);
        assert_eq!(tag("//go:build ignore\npackage x\n"), Some((1, "ignore".into())));
        assert_eq!(tag("//go:build !integration\npackage x\n"), None);
        assert_eq!(
            tag("//go:build go1.22 || (amd64 && e2e)\npackage x\n"),
            Some((1, "e2e".into()))
        );
        assert_eq!(tag("package x\n//go:build integration\n"), None);
        assert_eq!(tag("// +build gofuzz\n\npackage x\n"), Some((1, "gofuzz".into())));
    }
    use super::*;
    use crate::lang::Lang;

    fn model(source: &str) -> TestFile {
        Lang::Go.test_file(source.as_bytes()).unwrap()
    }

    #[test]
    fn tests_failures_and_testify() {
        let file = model(
            r#"package cart

import (
	"testing"

	"github.com/stretchr/testify/assert"
	req "github.com/stretchr/testify/require"
)

func TestTotal(t *testing.T) {
	if got := Total(2); got != 4 {
		t.Errorf("Total(2) = %d", got)
	}
}

func TestTestify(t *testing.T) {
	a := assert.New(t)
	assert.Equal(t, 4, Total(2))
	req.NoError(t, Save())
	a.True(Ready())
}

func TestSkipped(t *testing.T) {
	t.Skip("flaky on CI")
}

func TestMain(m *testing.M) {}

func BenchmarkTotal(b *testing.B) { for i := 0; i < b.N; i++ { Total(2) } }

func Example() {
	fmt.Println(Total(2))
	// Output: 4
}

func ExampleNoOutput() { Total(2) }

func helper(t *testing.T) { t.Helper(); t.Fatal("x") }
func TestViaHelper(t *testing.T) { helper(t) }
"#,
        );
        let names: Vec<&str> = file.tests.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(
            names,
            vec![
                "TestTotal",
                "TestTestify",
                "TestSkipped",
                "BenchmarkTotal",
                "Example",
                "TestViaHelper"
            ]
        );
        // The `if` around the failure is its check, not a guard.
        let total = &file.tests[0].assertions[0];
        assert!(
            matches!(total.form.demanded(), Form::Equal(a, b) if a.text == "got" && b.literal == Some(Literal::Number(4.0)))
        );
        assert!(!total.guard.conditional);
        let matchers: Vec<&str> = file.tests[1].assertions.iter().map(|a| a.matcher.as_str()).collect();
        assert_eq!(matchers, vec!["Equal", "NoError", "True"]);
        assert!(
            matches!(&file.tests[1].assertions[0].form, Form::Equal(a, b) if a.literal == Some(Literal::Number(4.0)) && b.text == "Total(2)")
        );
        assert_eq!(
            file.tests[2].skip.as_ref().unwrap().reason.as_deref(),
            Some("flaky on CI")
        );
        assert!(file.tests[3].benchmark);
        assert_eq!(file.tests[4].assertions[0].matcher, "Output");
        assert!(file.helpers.contains(&"helper".to_string()) && file.helpers.contains(&"TestViaHelper".to_string()));
        assert_eq!(file.imports[0].specifier, ".");
    }

    #[test]
    fn table_tests_and_subtests() {
        let file = model(
            r#"package cart_test

import (
	"testing"

	"example.com/shop/cart"
)

func TestTable(t *testing.T) {
	tests := []struct{ in, want int }{{1, 2}, {2, 4}}
	for _, tc := range tests {
		t.Run("case", func(t *testing.T) {
			assert.Equal(t, tc.want, cart.Total(tc.in))
		})
	}
}

func TestMaybe(t *testing.T) {
	for _, tc := range load() {
		require.Equal(t, tc.want, cart.Total(tc.in))
	}
}
"#,
        );
        assert!(file.imports.iter().all(|i| i.specifier != "."));
        assert_eq!(file.imports[1].names, vec!["cart"]);
        assert!(file.used.contains("cart"));
        // Neither `assert` nor `require` is imported: not testify's checks,
        // but values handed the test's `t`, which may fail it.
        assert!(file.tests[0].assertions.iter().all(|a| a.form == Form::Other));
        assert!(file.tests[0].calls.contains(&"Equal".to_string()));
    }

    /// A project's own `assert(t, cond)` is the `if` it stands for; a
    /// helper with a `bool` that does not fail on it is not.
    #[test]
    fn a_truth_helper_checks_its_condition() {
        let file = model(
            "package x\n\nimport \"testing\"\n\nfunc assert(t testing.TB, cond bool) {\n\tif !cond {\n\t\tpanic(\"assert failed\")\n\t}\n}\n\nfunc check(t *testing.T, name string, ok bool, args ...any) {\n\tt.Helper()\n\tif ok == false {\n\t\tt.Fatalf(name, args...)\n\t}\n}\n\nfunc setup(t *testing.T, verbose bool) {\n\tif !verbose {\n\t\tt.Log(\"quiet\")\n\t}\n}\n\nfunc TestX(t *testing.T) {\n\tsetup(t, false)\n\tassert(t, Double(2) == 4)\n\tassert(t, !ok())\n\tcheck(t, \"n\", n > 1)\n\tassert(t, a && b)\n}\n",
        );
        let checks: Vec<(&str, Vec<&str>)> = file.tests[0]
            .assertions
            .iter()
            .map(|a| (a.matcher.as_str(), a.parts.iter().map(String::as_str).collect()))
            .collect();
        assert_eq!(
            checks,
            [
                ("==", vec!["Double ( 2 )", "4"]),
                ("not", vec!["ok ( )"]),
                (">", vec!["n", "1"]),
                ("assert", vec!["a && b"]),
            ]
        );
        assert!(matches!(file.tests[0].assertions[0].form.demanded(), Form::Equal(..)));
    }

    #[test]
    fn quicktest_checks_on_a_checker_a_helper_and_the_package() {
        let file = model(
            "package x\n\nimport (\n\t\"testing\"\n\n\tqt \"github.com/frankban/quicktest\"\n)\n\nfunc run(c *qt.C, in, want int) {\n\tc.Assert(Double(in), qt.Equals, want, qt.Commentf(\"in %d\", in))\n}\n\nfunc TestDouble(t *testing.T) {\n\tc := qt.New(t)\n\tv, err := DoubleE(2)\n\tc.Assert(err, qt.IsNil)\n\tc.Check(v, qt.Not(qt.IsNil))\n\tc.Assert(v, qt.DeepEquals, 4)\n\tqt.Assert(t, v, qt.HasLen, 1)\n\tc.Assert(v, qt.Satisfies, odd)\n\tc.Assert(v, qt.CmpEquals(opts), 4)\n\trun(c, 3, 6)\n}\n\nfunc TestNothing(t *testing.T) {\n\tc := qt.New(t)\n\tc.Log(\"x\")\n}\n",
        );
        assert!(file.helpers.contains(&"run".to_string()));
        let t = &file.tests[0];
        let checks: Vec<(&str, Vec<&str>)> = t
            .assertions
            .iter()
            .map(|a| (a.matcher.as_str(), a.parts.iter().map(String::as_str).collect()))
            .collect();
        assert_eq!(
            checks,
            [
                ("Nil", vec!["DoubleE ( 2 )"]),
                ("NotNil", vec!["v"]),
                ("DeepEqual", vec!["v", "4"]),
                ("Len", vec!["v", "1"]),
                ("Condition", vec!["v"]),
                ("DeepEqual", vec!["v", "4"]),
            ]
        );
        assert!(file.tests[1].assertions.is_empty());
        // go-quicktest: the checker holds the operands.
        let file = model(
            "package x\n\nimport (\n\t\"testing\"\n\n\t\"github.com/go-quicktest/qt\"\n)\n\nfunc TestDouble(t *testing.T) {\n\tqt.Assert(t, qt.Equals(Double(2), 4))\n}\n",
        );
        let a = &file.tests[0].assertions[0];
        assert_eq!((a.matcher.as_str(), a.parts.len()), ("Equal", 2));
    }

    #[test]
    fn mocks_and_suites() {
        let file = model(
            r#"package svc

import (
	"testing"

	"github.com/golang/mock/gomock"
	"github.com/stretchr/testify/suite"
)

type SvcSuite struct{ suite.Suite }

func (s *SvcSuite) TestGet() {
	ctrl := gomock.NewController(s.T())
	m := NewMockStore(ctrl)
	m.EXPECT().Get(gomock.Any()).Times(1).Return(5)
	s.Require().Equal(5, m.Get(1))
	s.Equal(1, 1)
}

func TestSuite(t *testing.T) { suite.Run(t, new(SvcSuite)) }
"#,
        );
        let get = &file.tests[0];
        assert_eq!((get.scope.as_str(), get.name.as_str()), ("SvcSuite", "TestGet"));
        let returns: Vec<(&str, &crate::lang::Returned)> =
            get.mock_returns.iter().map(|r| (r.callee.as_str(), &r.value)).collect();
        assert_eq!(
            returns,
            vec![("m.Get", &crate::lang::Returned::Literal(Literal::Number(5.0)))]
        );
        assert_eq!(file.callback_spies, 1);
        let matchers: Vec<&str> = get.assertions.iter().map(|a| a.matcher.as_str()).collect();
        assert_eq!(matchers, vec!["Get", "Equal", "Equal"]);
        assert!(matches!(&get.assertions[2].form, Form::Equal(a, b) if a.key == b.key));
    }

    #[test]
    fn package_names_of_import_paths() {
        assert_eq!(package_name("github.com/go-chi/chi/v5"), "chi");
        assert_eq!(package_name("gopkg.in/yaml.v3"), "yaml");
        assert_eq!(package_name("github.com/mattn/go-sqlite3"), "sqlite3");
        assert_eq!(package_name("net/http"), "http");
    }

    /// A `for _, name := range` loop over a list of plain values binds the
    /// name to each; one not a literal, or a loop by index, binds none.
    #[test]
    fn loops_over_plain_values_bind_the_name() {
        let file = model(
            "package x\n\nfunc TestNames(t *testing.T) {\n\tfor _, name := range []string{\"a b\", `c`} {\n\t\tif Valid(name) {\n\t\t\tt.Error(name)\n\t\t}\n\t}\n}\n\nfunc TestBuilt(t *testing.T) {\n\tfor _, n := range []int{1, -2, x} {\n\t\tif Valid(n) {\n\t\t\tt.Error(n)\n\t\t}\n\t}\n}\n\nfunc TestIndex(t *testing.T) {\n\tfor i := range []int{1, 2} {\n\t\tif Valid(i) {\n\t\t\tt.Error(i)\n\t\t}\n\t}\n}\n",
        );
        let pair = |name: &str, value: &str| vec![(name.to_string(), value.to_string())];
        let cases: Vec<_> = file.tests.iter().map(|t| t.cases.clone()).collect();
        assert_eq!(
            cases,
            vec![vec![pair("name", "\" a b \""), pair("name", "` c `")], vec![], vec![]]
        );
    }

    /// `var _ Cache = &LRU{}` is a check the compiler makes.
    #[test]
    fn a_typed_blank_declaration_is_a_compile_time_check() {
        let file = model(
            "package x\n\nfunc TestIface(_ *testing.T) {\n\tvar _ Cache[int] = &LRU[int]{}\n}\n\nfunc TestNothing(t *testing.T) {\n\tvar x = 1\n\t_ = x\n}\n",
        );
        let matchers: Vec<Vec<&str>> = file
            .tests
            .iter()
            .map(|t| t.assertions.iter().map(|a| a.matcher.as_str()).collect())
            .collect();
        assert_eq!(matchers, vec![vec!["var _"], vec![]]);
    }
}
