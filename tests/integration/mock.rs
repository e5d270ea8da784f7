//! The mock gate: every rule against its fixtures (must-flag and look-alikes),
//! and the gate end to end through the binary.

use std::collections::BTreeSet;
use std::path::Path;

use loki_gate::gates::mock::{check_source, settings::Settings};
use loki_gate::lang::Lang;

use crate::support::{Run, TestRepo};

/// `(line, rule)` for each `expect: <rule>` marker in a fixture (a line
/// two rules flag carries two markers).
fn expected(source: &str) -> BTreeSet<(u32, String)> {
    source
        .lines()
        .enumerate()
        .flat_map(|(i, line)| {
            line.match_indices("expect: mock/").filter_map(move |(at, _)| {
                let rule = line[at + "expect: ".len()..].split_whitespace().next()?;
                Some((i as u32 + 1, rule.trim_end_matches(',').to_string()))
            })
        })
        .collect()
}

fn check_fixture(name: &str) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/mock")
        .join(name);
    let source = std::fs::read_to_string(&path).unwrap();
    let lang = Lang::from_path(&path).unwrap();
    let settings = Settings {
        languages: Vec::new(),
        assertion_helpers: Vec::new(),
        pre_existing: None,
    };
    let found: BTreeSet<(u32, String)> = check_source(name, lang, source.as_bytes(), &settings)
        .into_iter()
        .map(|f| (f.line.unwrap(), f.rule))
        .collect();
    let want = expected(&source);
    assert!(want.len() >= 4, "{name}: too few must-flag cases");
    let missed: Vec<_> = want.difference(&found).collect();
    let extra: Vec<_> = found.difference(&want).collect();
    assert!(
        missed.is_empty() && extra.is_empty(),
        "{name}\n  missed: {missed:?}\n  unexpected: {extra:?}"
    );
    let tree = lang.parse(source.as_bytes()).unwrap();
    assert!(!tree.root_node().has_error(), "{name} does not parse cleanly");
}

#[test]
fn tautological_assertion_python() {
    check_fixture("tautological_assertion.py");
}

#[test]
fn tautological_assertion_typescript() {
    check_fixture("tautological_assertion.test.ts");
}

#[test]
fn an_assert_the_project_exports_is_not_a_truthiness_check() {
    check_fixture("own_assert.test.ts");
}

#[test]
fn no_assertion_python() {
    check_fixture("no_assertion.py");
}

#[test]
fn no_assertion_typescript() {
    check_fixture("no_assertion.test.ts");
}

#[test]
fn a_module_of_benchmarks_needs_no_assertions_but_keeps_other_rules() {
    check_fixture("no_assertion_benchmark_module.py");
}

#[test]
fn test_context_assertions_of_tape_ava_and_node_test() {
    check_fixture("no_assertion_context.test.js");
}

#[test]
fn qunit_tests_and_their_assert_context() {
    check_fixture("qunit.test.js");
}

#[test]
fn conditional_assertion_python() {
    check_fixture("conditional_assertion.py");
}

#[test]
fn conditional_assertion_typescript() {
    check_fixture("conditional_assertion.test.ts");
}

#[test]
fn swallowed_failure_python() {
    check_fixture("swallowed_failure.py");
}

#[test]
fn swallowed_failure_javascript() {
    check_fixture("swallowed_failure.test.js");
}

#[test]
fn catch_only_assertion_python() {
    check_fixture("catch_only_assertion.py");
}

#[test]
fn catch_only_assertion_typescript() {
    check_fixture("catch_only_assertion.test.ts");
}

#[test]
fn unfinished_assertion_python() {
    check_fixture("unfinished_assertion.py");
}

#[test]
fn unfinished_assertion_typescript() {
    check_fixture("unfinished_assertion.test.ts");
}

#[test]
fn literal_echo_python() {
    check_fixture("literal_echo.py");
}

#[test]
fn literal_echo_typescript() {
    check_fixture("literal_echo.test.ts");
}

#[test]
fn mock_return_echo_python() {
    check_fixture("mock_return_echo.py");
}

#[test]
fn mock_return_echo_typescript() {
    check_fixture("mock_return_echo.test.ts");
}

#[test]
fn empty_test_python() {
    check_fixture("empty_test.py");
}

#[test]
fn empty_test_javascript() {
    check_fixture("empty_test.test.js");
}

#[test]
fn skipped_test_python() {
    check_fixture("skipped_test.py");
}

#[test]
fn skipped_test_typescript() {
    check_fixture("skipped_test.spec.ts");
}

#[test]
fn tautological_assertion_rust() {
    check_fixture("tautological_assertion.rs");
}

#[test]
fn tautological_assertion_go() {
    check_fixture("tautological_assertion_test.go");
}

#[test]
fn no_assertion_rust() {
    check_fixture("no_assertion.rs");
}

#[test]
fn no_assertion_go() {
    check_fixture("no_assertion_test.go");
}

#[test]
fn conditional_assertion_rust() {
    check_fixture("conditional_assertion.rs");
}

#[test]
fn conditional_assertion_go() {
    check_fixture("conditional_assertion_test.go");
}

#[test]
fn literal_echo_rust() {
    check_fixture("literal_echo.rs");
}

#[test]
fn literal_echo_go() {
    check_fixture("literal_echo_test.go");
}

#[test]
fn mock_return_echo_rust() {
    check_fixture("mock_return_echo.rs");
}

#[test]
fn mock_return_echo_go() {
    check_fixture("mock_return_echo_test.go");
}

#[test]
fn empty_test_rust() {
    check_fixture("empty_test.rs");
}

#[test]
fn empty_test_go() {
    check_fixture("empty_test_test.go");
}

#[test]
fn skipped_test_rust() {
    check_fixture("skipped_test.rs");
}

#[test]
fn skipped_test_go() {
    check_fixture("skipped_test_test.go");
}

fn repo_with_tests() -> TestRepo {
    let repo = TestRepo::new();
    repo.write("src/calc.py", "def add(a, b):\n    return a + b\n");
    repo.write(
        "tests/test_old.py",
        "from src.calc import add\n\ndef test_old():\n    assert add(1, 1) == 2\n    assert True\n",
    );
    repo.write("tests/helpers.py", "def test_not_collected():\n    pass\n");
    repo.commit("base");
    repo
}

#[test]
fn by_default_only_changed_test_files_are_checked() {
    let repo = repo_with_tests();
    repo.write(
        "tests/test_new.py",
        "from src.calc import add\n\ndef test_new():\n    result = add(1, 2)\n",
    );
    let run = repo.run(&["mock", "--base", "HEAD"]);
    assert_eq!(run.code, 1, "{}", run.stdout);
    assert!(
        run.stdout.contains(
            "tests/test_new.py:3:5: error[mock/no-assertion] test `test_new` computes `result` and never checks it"
        ),
        "{}",
        run.stdout
    );
    assert!(
        !run.stdout.contains("test_old"),
        "unchanged files are not checked: {}",
        run.stdout
    );
    assert!(
        run.stdout
            .contains("1 test file(s) checked, 1 tests (Python test files by pytest defaults)\n"),
        "only the languages present are named: {}",
        run.stdout
    );
}

#[test]
fn all_files_checks_every_test_file_and_only_test_files() {
    let repo = repo_with_tests();
    let run = repo.run(&["mock", "--all-files", "--format", "json"]);
    assert_eq!(run.code, 1);
    let report: loki_gate::report::json::GateJson = serde_json::from_str(&run.stdout).unwrap();
    let found: Vec<_> = report
        .findings
        .iter()
        .map(|f| (f.rule.as_str(), f.path.as_deref().unwrap()))
        .collect();
    assert_eq!(found, vec![("mock/tautological-assertion", "tests/test_old.py")]);
    assert_eq!(report.summary.files, 1, "helpers.py is not a test file");
}

#[test]
fn staged_mode_checks_what_will_be_committed() {
    let repo = repo_with_tests();
    repo.write("tests/test_new.py", "def test_new():\n    assert 1 == 1\n");
    repo.git(&["add", "tests/test_new.py"]);
    // The working tree is fixed after staging; the commit would still hold the tautology.
    repo.write(
        "tests/test_new.py",
        "from src.calc import add\n\ndef test_new():\n    assert add(1, 1) == 2\n",
    );
    let run = repo.run(&["mock", "--staged"]);
    assert_eq!(run.code, 1, "{}", run.stdout);
    assert!(
        run.stdout
            .contains("tests/test_new.py:2:5: error[mock/tautological-assertion]"),
        "{}",
        run.stdout
    );
    repo.git(&["add", "tests/test_new.py"]);
    assert_eq!(repo.run(&["mock", "--staged"]).code, 0);
}

#[test]
fn a_suppression_with_a_reason_silences_one_assertion() {
    let repo = repo_with_tests();
    repo.write(
        "tests/test_old.py",
        "from src.calc import add\n\ndef test_old():\n    assert add(1, 1) == 2\n    # loki-gate: allow(mock/tautological-assertion) smoke test of the harness\n    assert True\n",
    );
    let run = repo.run(&["mock", "--all-files"]);
    assert_eq!(run.code, 0, "{}", run.stdout);
    assert!(run.stdout.contains("1 suppressed"), "{}", run.stdout);
}

/// The rules whose reports were mostly deliberate on real projects are notes:
/// shown, never warnings, never blocking; `-W` or the config makes them
/// warnings again.
/// A test file nested deeper than a thread's stack could follow by
/// recursion is judged, not a crash (50,000 levels aborted the run before).
#[test]
fn deeply_nested_expressions_are_judged_not_a_crash() {
    // Parentheses, arrays, closures, blocks and calls 50,000 deep, in each
    // language: every tree walk must use its own stack, never the thread's.
    let d = 50_000;
    let deep_files = |last: &str| {
        [
            (
                "tests/test_deep.py".to_string(),
                format!(
                    "def test_deep():\n    g = {}{last}\n    assert {}1{} == 1\n",
                    "lambda: ".repeat(d),
                    "(".repeat(d),
                    ")".repeat(d)
                ),
            ),
            (
                "web/deep.test.js".to_string(),
                format!(
                    "test(\"deep\", () => {{ const g = {}{last}; {}expect({}1{}).toEqual(1){} }})\n",
                    "() => ".repeat(d),
                    "{".repeat(d),
                    "[".repeat(d),
                    "]".repeat(d),
                    "}".repeat(d)
                ),
            ),
            (
                "deep_test.go".to_string(),
                format!(
                    "package p\n\nimport \"testing\"\n\nfunc TestDeep(t *testing.T) {{\n\tx := {}{last}{}\n{}if x != 1 {{ t.Fatal() }}{}\n}}\n",
                    "f(".repeat(d),
                    ")".repeat(d),
                    "{".repeat(d),
                    "}".repeat(d)
                ),
            ),
            (
                "tests/deep.rs".to_string(),
                format!(
                    "#[test]\nfn deep() {{\n    let g = {}{last};\n    {}assert_eq!(1, 1);{}\n}}\n",
                    "|| ".repeat(d),
                    "{".repeat(d),
                    "}".repeat(d)
                ),
            ),
        ]
    };
    let repo = repo_with_tests();
    for (path, text) in deep_files("1") {
        repo.write(&path, text);
    }
    let run = repo.run(&["mock", "--all-files", "--format", "json"]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    let found = run.findings();
    for flagged in ["tests/test_deep.py:3", "tests/deep.rs:4"] {
        assert!(
            found.contains(&format!("mock/tautological-assertion error {flagged}")),
            "{flagged}: {found:?}"
        );
    }
    // The same files in the history: `mutation` reads both versions.
    repo.commit("deep");
    for (path, text) in deep_files("2") {
        repo.write(&path, text);
    }
    repo.commit("deeper");
    let run = repo.run(&["mutation", "--all-files", "--format", "json"]);
    assert!(run.code == 0 || run.code == 1, "{}", run.stderr);
    run.findings();
}

#[test]
fn smoke_and_conditional_tests_are_notes_until_asked_for() {
    let repo = repo_with_tests();
    repo.write(
        "tests/test_old.py",
        "from src.calc import add\n\ndef test_runs():\n    add(1, 1)\n\ndef test_loop():\n    for n in add(1, 1):\n        assert n > 0\n",
    );
    let run = repo.run(&["mock", "--all-files", "--format", "json"]);
    assert_eq!(run.code, 0, "{}", run.stdout);
    let report: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    let severities: Vec<(String, String)> = report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["rule"].as_str().unwrap().to_string(),
                f["severity"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    assert_eq!(
        severities,
        [
            ("mock/smoke-test".to_string(), "note".to_string()),
            ("mock/conditional-assertion".to_string(), "note".to_string())
        ],
        "{}",
        run.stdout
    );
    assert_eq!(report["summary"]["warnings"], 0);
    let run = repo.run(&["mock", "--all-files", "-W", "mock/smoke-test"]);
    assert_eq!(run.code, 0, "{}", run.stdout);
    assert!(run.stdout.contains("warning[mock/smoke-test]"), "{}", run.stdout);
    repo.write(".loki-gate.yaml", "rules:\n  mock/conditional-assertion: deny\n");
    let run = repo.run(&["mock", "--all-files"]);
    assert_eq!(run.code, 1, "{}", run.stdout);
    assert!(
        run.stdout.contains("error[mock/conditional-assertion]"),
        "{}",
        run.stdout
    );
}

#[test]
fn configured_helpers_and_languages() {
    let repo = repo_with_tests();
    repo.write(
        "tests/test_old.py",
        "from src.calc import add\n\ndef test_old():\n    looks_right(add(1, 1))\n",
    );
    repo.write("web/a.test.js", "it('x', () => {})\n");
    assert_eq!(repo.run(&["mock", "--all-files", "-q"]).code, 1);
    repo.write(
        ".loki-gate.yaml",
        "gates:\n  mock:\n    assertion-helpers: [looks_*]\n    languages: [python]\n",
    );
    let run = repo.run(&["mock", "--all-files"]);
    assert_eq!(run.code, 0, "{}", run.stdout);
    repo.write(".loki-gate.yaml", "gates:\n  mock:\n    languages: [pyhton]\n");
    let run = repo.run(&["mock", "--all-files"]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr
            .contains("gates.mock.languages: unknown value `pyhton`; did you mean `python`?"),
        "{}",
        run.stderr
    );
}

#[test]
fn no_test_files_is_a_pass() {
    let repo = TestRepo::new();
    let run = repo.run(&["mock", "--all-files"]);
    assert_eq!(run.code, 0);
    assert!(run.stdout.contains("0 test file(s) checked"), "{}", run.stdout);
}

/// Tests that reach the project without importing a module of it: through
/// types, a bundler, a path handed to a tool or read, a helper under test.
#[test]
fn the_subject_reached_without_an_import() {
    let repo = TestRepo::new();
    repo.write("package.json", r#"{"name": "@acme/shop"}"#);
    repo.write(
        "src/math.ts",
        "export type Sum = number\nexport const add = (a: number, b: number) => a + b\n",
    );
    repo.write("test/local-only.ts", "export const local = 1\n");
    std::os::unix::fs::symlink("src/math.ts", repo.path().join("linked.ts")).unwrap();
    // A directory that leads outside the repository, to a real file there.
    let outside = tempfile::tempdir().unwrap();
    std::fs::write(outside.path().join("math.ts"), "export const add = 1\n").unwrap();
    std::os::unix::fs::symlink(outside.path(), repo.path().join("vendor-link")).unwrap();
    let check = "  expect(x(1)).toBe(2)\n";
    let files: &[(&str, &str, bool)] = &[
        (
            "test/types.test.ts",
            "import type { Sum } from '../src/math'\nit('sums', () => {\n  expectTypeOf<Sum>().toEqualTypeOf<number>()\n})\n",
            false,
        ),
        (
            "test/bun-build.test.ts",
            "const x = async () => (await Bun.build({ entrypoints: ['./src/math.ts'] })).success ? 2 : 0\nit('builds', async () => {\n  expect(await x()).toBe(2)\n})\n",
            false,
        ),
        (
            "test/beside.test.ts",
            "import { readFileSync } from 'node:fs'\nconst x = () => readFileSync(new URL('../src/math.ts', import.meta.url)).length\nit('reads', () => {\n{check}})\n",
            false,
        ),
        (
            "test/treeshake.test.ts",
            "import { rollup } from 'rollup'\nconst x = (n: number) => rollup({ input: 'entry' }).then(() => n * 2)\nit('bundles', () => {\n{check}})\n",
            false,
        ),
        (
            "test/local-only.test.ts",
            "import { local } from './local-only'\nconst x = (n: number) => n + local\nit('local', () => {\n{check}})\n",
            false,
        ),
        // Look-alikes: a path to nothing, to test support, outside the
        // repository, or through a symlink; a helper the file is not named after.
        (
            "test/missing.test.ts",
            "const x = (n: number) => ['./src/missing.ts'].length + n\nit('missing', () => {\n{check}})\n",
            true,
        ),
        (
            "test/support-path.test.ts",
            "const x = (n: number) => ['./test/local-only.ts'].length + n\nit('support', () => {\n{check}})\n",
            true,
        ),
        (
            "test/absolute.test.ts",
            "const x = (n: number) => ['/etc/hostname', '../../../../../etc/hostname'].length + n\nit('abs', () => {\n{check}})\n",
            true,
        ),
        (
            "test/symlink.test.ts",
            "const x = (n: number) => ['./linked.ts'].length + n\nit('link', () => {\n{check}})\n",
            true,
        ),
        (
            "test/through-linked-dir.test.ts",
            "const x = (n: number) => ['./vendor-link/math.ts'].length + n\nit('dir link', () => {\n{check}})\n",
            true,
        ),
        (
            "test/other-helper.test.ts",
            "import { local } from './local-only'\nconst x = (n: number) => n + local\nit('local', () => {\n{check}})\n",
            true,
        ),
        // An import is resolved the same way: a module reached through a
        // directory symlinked out of the repository is not project code.
        (
            "test/import-through-link.test.ts",
            "import { add as x } from '../vendor-link/math'\nit('imports through a link', () => {\n{check}})\n",
            true,
        ),
        (
            "test/import-real.test.ts",
            "import { add as x } from '../src/math'\nit('imports', () => {\n{check}})\n",
            false,
        ),
    ];
    never_imports_flags_exactly(&repo, files, ("{check}", check));
}

#[test]
fn never_imports_subject_resolves_imports_like_the_test_runners() {
    let repo = TestRepo::new();
    repo.write(
        "package.json",
        r#"{"name": "@acme/shop", "workspaces": ["packages/*"]}"#,
    );
    repo.write(
        "packages/util/package.json",
        r#"{"name": "@acme/util", "main": "lib/index.js"}"#,
    );
    repo.write("packages/util/lib/index.js", "exports.pad = (s) => s\n");
    repo.write("tsconfig.json", "{\n  // comments are allowed\n  \"compilerOptions\": { \"baseUrl\": \".\", \"paths\": { \"@/*\": [\"src/*\"] }, },\n}\n");
    repo.write("src/math.ts", "export const add = (a: number, b: number) => a + b\n");
    repo.write("src/money/index.ts", "export const cents = (n: number) => n * 100\n");
    repo.write(
        "test/helpers.ts",
        "import { add } from '../src/math'\nexport const twice = (n: number) => add(n, n)\n",
    );
    repo.write("test/local-only.ts", "export const local = 1\n");
    repo.write(
        "test/_tape.js",
        "const { add } = require('../src/math')\nglobalThis.twice = (n) => add(n, n)\n",
    );
    repo.write("src/calc/__init__.py", "def add(a, b):\n    return a + b\n");
    repo.write("src/calc/tax.py", "RATE = 2\n");
    let body = "  expect(x(1)).toBe(2)\n";
    let files: &[(&str, &str, bool)] = &[
        (
            "test/own.test.ts",
            "import { expect, it } from 'vitest'\nconst x = (n: number) => n * 2\nit('re-implements', () => {\n{body}})\n",
            true,
        ),
        (
            "test/relative.test.ts",
            "import { add as x } from '../src/math'\nit('adds', () => {\n{body}})\n",
            false,
        ),
        (
            "test/js-to-ts.test.ts",
            "import { add as x } from '../src/math.js'\nit('adds', () => {\n{body}})\n",
            false,
        ),
        (
            "test/index.test.ts",
            "import { cents as x } from '../src/money'\nit('cents', () => {\n{body}})\n",
            false,
        ),
        (
            "test/alias.test.ts",
            "import { add as x } from '@/math'\nit('adds', () => {\n{body}})\n",
            false,
        ),
        (
            "test/self-name.test.ts",
            "import { pad as x } from '@acme/util'\nit('pads', () => {\n{body}})\n",
            false,
        ),
        (
            "test/dynamic.test.ts",
            "it('adds', async () => {\n  const { add: x } = await import('../src/math')\n{body}})\n",
            false,
        ),
        (
            "test/unused.test.ts",
            "import { add } from '../src/math'\nconst x = (n: number) => n * 2\nit('adds', () => {\n{body}})\n",
            true,
        ),
        (
            "test/through-helper.test.ts",
            "import { twice as x } from './helpers'\nit('twice', () => {\n{body}})\n",
            false,
        ),
        (
            "test/side-effect-support.test.js",
            "require('./_tape')\nconst x = (n) => globalThis.twice(n)\nit('twice', () => {\n{body}})\n",
            false,
        ),
        (
            "test/page.test.js",
            "/* global QUnit */\nQUnit.test('x', function (assert) {\n  assert.equal(window.twice(1), 2)\n})\n",
            false,
        ),
        (
            "test/side-effect-local.test.js",
            "require('./local-only')\nconst x = (n) => n * 2\nit('local', () => {\n{body}})\n",
            true,
        ),
        (
            "test/helper-only.test.ts",
            "import { local } from './local-only'\nconst x = (n: number) => n + local\nit('local', () => {\n{body}})\n",
            true,
        ),
        (
            "tests/test_src_layout.py",
            "from calc import add\n\ndef test_add():\n    assert add(1, 1) == 2\n",
            false,
        ),
        (
            "tests/test_submodule.py",
            "import calc.tax\n\ndef test_rate():\n    assert calc.tax.RATE == 2\n",
            false,
        ),
        (
            "tests/test_third_party.py",
            "import json\n\ndef test_json():\n    assert json.loads('1') == 1\n",
            true,
        ),
        (
            "tests/test_fixture.py",
            "def test_client(client):\n    assert client.get('/').ok\n",
            false,
        ),
        (
            "tests/test_cli.py",
            "import subprocess\n\ndef test_help():\n    assert subprocess.run(['calc', '--help']).returncode == 0\n",
            false,
        ),
    ];
    let report = never_imports_flags_exactly(&repo, files, ("{body}", body));
    let unused = report
        .findings
        .iter()
        .find(|f| f.path.as_deref() == Some("test/unused.test.ts"))
        .unwrap();
    assert!(
        unused.notes.iter().any(|n| n == "imported but never used: ../src/math"),
        "{:?}",
        unused.notes
    );
}

/// node-tap suites reach the package as its users do: through the
/// package's entry point, built before the tests run (`require('../')`
/// with `"main"` in `dist/`), through `t.mockImport(..)`, and by requiring
/// a module for what it installs (issue 64: minimatch, lru-cache and json5,
/// whose tap tests the gate began to read). A tap file of its own helpers,
/// or of a helper required for its effect, still tests nothing of theirs.
#[test]
fn tap_suites_reach_the_package_through_its_entry_point_mock_import_and_effect() {
    let repo = TestRepo::new();
    repo.write(
        "package.json",
        r#"{"name": "mm", "main": "./dist/cjs/index.js", "scripts": {"test": "tap"}}"#,
    );
    repo.write("src/index.ts", "export default (s: string, p: string) => s === p\n");
    repo.write(
        "src/perf.js",
        "export const defaultPerf = globalThis.performance ?? Date\n",
    );
    repo.write("src/register.js", "require.extensions['.json5'] = () => {}\n");
    repo.write("test/local-only.js", "globalThis.twice = (n) => n * 2\n");
    let files: &[(&str, &str, bool)] = &[
        (
            "test/entry.js",
            "const t = require('tap')\nconst mm = require('../').default\n\nt.test('matches', (t) => {\n  t.ok(mm('a', 'a'))\n  t.end()\n})\n",
            false,
        ),
        (
            "test/perf.ts",
            "import t from 'tap'\n\nt.test('perf', async (t) => {\n  const { defaultPerf } = await t.mockImport('../src/perf.js')\n  t.equal(defaultPerf, performance)\n})\n",
            false,
        ),
        (
            "test/register.js",
            "const t = require('tap')\n\nt.test('registers', (t) => {\n  require('../src/register')\n  t.same(require('./x.json5'), { a: 1 })\n  t.end()\n})\n",
            false,
        ),
        (
            "test/own.js",
            "const t = require('tap')\nconst twice = (n) => n * 2\n\nt.test('twice', (t) => {\n  t.equal(twice(1), 2)\n  t.end()\n})\n",
            true,
        ),
        (
            "test/helper-effect.js",
            "const t = require('tap')\nrequire('./local-only')\n\nt.test('twice', (t) => {\n  t.equal(globalThis.twice(1), 2)\n  t.end()\n})\n",
            true,
        ),
    ];
    never_imports_flags_exactly(&repo, files, ("{}", "{}"));
}

/// Copy every file under `dir` into `repo` at the same relative path.
fn copy_tree(repo: &TestRepo, dir: &Path, rel: &Path) {
    for entry in std::fs::read_dir(dir.join(rel)).unwrap() {
        let entry = entry.unwrap();
        let path = rel.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_tree(repo, dir, &path);
        } else {
            repo.write(path.to_str().unwrap(), std::fs::read(entry.path()).unwrap());
        }
    }
}

/// The rules that need the project (mocks-subject, internal-mock-ratio,
/// never-imports-subject), against a small project of source and test files
/// whose `expect:` markers list every finding the gate must report.
#[test]
fn project_fixtures_mocks_of_the_subject_and_of_internal_modules() {
    let project = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/mock/project");
    let repo = TestRepo::new();
    copy_tree(&repo, &project, Path::new(""));
    repo.commit("project");
    let run = repo.run(&["mock", "--all-files", "--format", "json"]);
    let report: loki_gate::report::json::GateJson = serde_json::from_str(&run.stdout).unwrap();
    let found: BTreeSet<(String, u32, String)> = report
        .findings
        .iter()
        .map(|f| (f.path.clone().unwrap(), f.line.unwrap(), f.rule.clone()))
        .collect();
    let mut want = BTreeSet::new();
    for entry in std::fs::read_dir(project.join("tests")).unwrap() {
        let path = entry.unwrap().path();
        let rel = format!("tests/{}", path.file_name().unwrap().to_str().unwrap());
        let source = std::fs::read_to_string(&path).unwrap();
        let lang = Lang::from_path(&path).unwrap();
        assert!(
            !lang.parse(source.as_bytes()).unwrap().root_node().has_error(),
            "{rel} does not parse cleanly"
        );
        want.extend(
            expected(&source)
                .into_iter()
                .map(|(line, rule)| (rel.clone(), line, rule)),
        );
    }
    for rule in ["mock/mocks-subject", "mock/internal-mock-ratio"] {
        assert!(
            want.iter().filter(|(_, _, r)| r == rule).count() >= 4,
            "too few must-flag cases for {rule}"
        );
    }
    let missed: Vec<_> = want.difference(&found).collect();
    let extra: Vec<_> = found.difference(&want).collect();
    assert!(
        missed.is_empty() && extra.is_empty(),
        "missed: {missed:#?}\nunexpected: {extra:#?}\n{}",
        run.stdout
    );
}

/// Cache entries under `.loki-gate/cache/`, by file name.
fn cache_entries(repo: &TestRepo) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let Ok(namespaces) = std::fs::read_dir(repo.root().join(".loki-gate/cache")) else {
        return out;
    };
    for namespace in namespaces {
        for shard in std::fs::read_dir(namespace.unwrap().path()).unwrap() {
            for entry in std::fs::read_dir(shard.unwrap().path()).unwrap() {
                out.insert(entry.unwrap().file_name().to_string_lossy().into_owned());
            }
        }
    }
    out
}

#[test]
fn the_parse_cache_gives_the_same_findings_survives_corruption_and_evicts_by_age() {
    let repo = repo_with_tests();
    let findings = |run: &crate::support::Run| {
        let report: loki_gate::report::json::GateJson = serde_json::from_str(&run.stdout).unwrap();
        report
            .findings
            .iter()
            .map(|f| (f.path.clone(), f.line, f.rule.clone(), f.message.clone()))
            .collect::<Vec<_>>()
    };
    let fresh = repo.run(&["mock", "--all-files", "--format", "json", "--no-cache"]);
    assert!(cache_entries(&repo).is_empty(), "--no-cache writes nothing");
    let first = repo.run(&["mock", "--all-files", "--format", "json"]);
    let entries = cache_entries(&repo);
    assert!(!entries.is_empty());
    assert_eq!(
        repo.git(&["status", "--porcelain"]),
        "",
        "the cache stays out of git status"
    );
    let cached = repo.run(&["mock", "--all-files", "--format", "json"]);
    assert_eq!(findings(&fresh), findings(&first));
    assert_eq!(findings(&first), findings(&cached));
    assert_eq!(first.code, cached.code);

    // A corrupt entry is a miss, rewritten.
    let root = repo.root().join(".loki-gate/cache");
    for namespace in std::fs::read_dir(&root).unwrap() {
        for shard in std::fs::read_dir(namespace.unwrap().path()).unwrap() {
            for entry in std::fs::read_dir(shard.unwrap().path()).unwrap() {
                std::fs::write(entry.unwrap().path(), b"{\"tests\": [oops").unwrap();
            }
        }
    }
    let after = repo.run(&["mock", "--all-files", "--format", "json"]);
    assert_eq!(findings(&after), findings(&first));

    // An edited test file gets a new entry; the old one stays (the mutation
    // gate reads old versions through the same cache) until it is old.
    let edited = repo.read("tests/test_old.py") + "\n\ndef test_more():\n    assert add(2, 0) == 2\n";
    repo.write("tests/test_old.py", edited);
    repo.run(&["mock", "--all-files"]);
    let now = cache_entries(&repo);
    assert_eq!(now.len(), entries.len() + 1);
    assert!(entries.iter().all(|e| now.contains(e)));
    // Entries unused for 30 days go with the next full run.
    for namespace in std::fs::read_dir(&root).unwrap() {
        for shard in std::fs::read_dir(namespace.unwrap().path()).unwrap() {
            for entry in std::fs::read_dir(shard.unwrap().path()).unwrap() {
                let file = std::fs::File::options()
                    .write(true)
                    .open(entry.unwrap().path())
                    .unwrap();
                file.set_modified(std::time::SystemTime::now() - std::time::Duration::from_secs(31 * 86_400))
                    .unwrap();
            }
        }
    }
    repo.write("tests/test_old.py", repo.read("tests/test_old.py") + "\n");
    repo.run(&["mock", "--all-files"]);
    let pruned = cache_entries(&repo);
    assert_eq!(pruned.len(), entries.len(), "the old version's entry went: {pruned:?}");
}

#[test]
fn runner_configs_choose_the_test_files_and_aliases_resolve() {
    let repo = TestRepo::new();
    repo.write("package.json", r#"{"name": "app"}"#);
    repo.write(
        "vitest.config.ts",
        "import { defineConfig } from 'vitest/config'\nimport path from 'node:path'\nexport default defineConfig({\n  resolve: { alias: { '@': path.resolve(__dirname, 'src') } },\n  test: { include: ['checks/**/*.check.ts'] },\n})\n",
    );
    repo.write("src/math.ts", "export const add = (a: number, b: number) => a + b\n");
    repo.write(
        "checks/math.check.ts",
        "import { expect, it } from 'vitest'\nimport { add } from '@/math'\nit('adds', () => {\n  expect(add(1, 1)).toBe(2)\n})\n",
    );
    // Not a test file for this project: vitest's include replaces the conventions.
    repo.write("src/old.test.ts", "it('x', () => {})\n");
    repo.write("pyproject.toml", "[tool.pytest.ini_options]\ntestpaths = [\"tests\"]\n");
    repo.write("calc.py", "def add(a, b):\n    return a + b\n");
    repo.write(
        "tests/test_calc.py",
        "from calc import add\n\ndef test_add():\n    assert add(1, 1) == 2\n",
    );
    // Outside testpaths: pytest never collects it.
    repo.write("docs/test_example.py", "def test_example():\n    pass\n");
    repo.commit("project");
    let run = repo.run(&["mock", "--all-files", "--format", "json"]);
    let report: loki_gate::report::json::GateJson = serde_json::from_str(&run.stdout).unwrap();
    assert!(report.findings.is_empty(), "{:#?}", report.findings);
    assert_eq!(report.summary.files, 2, "{}", run.stdout);
    assert_eq!(run.code, 0);
}

#[test]
fn tests_whose_subject_changed_are_in_the_default_scope() {
    let repo = TestRepo::new();
    repo.write("src/calc.py", "def add(a, b):\n    return a + b\n");
    repo.write("src/other.py", "def sub(a, b):\n    return a - b\n");
    repo.write("src/web/cart.ts", "export const total = (xs: number[]) => xs.length\n");
    repo.write(
        "tests/test_calc.py",
        "from src.calc import add\n\ndef test_add():\n    assert add(1, 1) == 2\n    assert True\n",
    );
    repo.write(
        "tests/test_other.py",
        "from src.other import sub\n\ndef test_sub():\n    assert True\n",
    );
    // Mentions `calc` but imports something else: parsed, then left out.
    repo.write(
        "tests/test_mentions.py",
        "# calc is tested elsewhere\nfrom src.other import sub\n\ndef test_sub():\n    assert sub(1, 1) == 0\n",
    );
    repo.write(
        "src/web/cart.test.ts",
        "import { total } from './cart.js'\nit('totals', () => {\n  expect(total([1])).toBe(1)\n  expect(true).toBe(true)\n})\n",
    );
    repo.commit("base");
    repo.write("src/calc.py", "def add(a, b):\n    return b + a\n");
    repo.write(
        "src/web/cart.ts",
        "export const total = (xs: number[]) => xs.length + 0\n",
    );
    let run = repo.run(&["mock", "--base", "HEAD"]);
    // Their hollow tests were there at the base: reported, not blocking.
    assert_eq!(run.code, 0, "{}", run.stdout);
    assert!(
        run.stdout
            .contains("tests/test_calc.py:5:5: warning[mock/tautological-assertion]"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("src/web/cart.test.ts:4:"), "{}", run.stdout);
    assert!(!run.stdout.contains("test_other"), "{}", run.stdout);
    assert!(!run.stdout.contains("test_mentions"), "{}", run.stdout);
    assert!(
        run.stdout
            .contains("2 more test file(s) whose subject changed: src/web/cart.test.ts, tests/test_calc.py"),
        "{}",
        run.stdout
    );
    // The hook: only what is staged counts as changed.
    repo.git(&["add", "src/calc.py"]);
    let staged = repo.run(&["mock", "--staged"]);
    assert!(staged.stdout.contains("tests/test_calc.py:5:"), "{}", staged.stdout);
    assert!(!staged.stdout.contains("cart.test.ts"), "{}", staged.stdout);
}

#[test]
fn an_unwritable_cache_checks_everything_and_says_so() {
    let repo = repo_with_tests();
    std::fs::create_dir_all(repo.root().join(".loki-gate")).unwrap();
    // A file where the cache directory should be: every write fails.
    std::fs::write(repo.root().join(".loki-gate/cache"), b"not a directory").unwrap();
    let run = repo.run(&["mock", "--all-files"]);
    let fresh = repo.run(&["mock", "--all-files", "--no-cache"]);
    assert_eq!(run.code, fresh.code, "{}", run.stdout);
    assert!(run.stdout.contains("parse cache not written"), "{}", run.stdout);
    assert!(run.stdout.contains("--no-cache"), "{}", run.stdout);
    assert_eq!(
        std::fs::read(repo.root().join(".loki-gate/cache")).unwrap(),
        b"not a directory",
        "nothing is overwritten"
    );
}

#[test]
fn sample_suites_that_other_tests_load_by_name_are_not_checked() {
    let repo = TestRepo::new();
    repo.write("shop/__init__.py", "");
    repo.write("shop/runner.py", "def build_suite(labels):\n    return labels\n");
    repo.write(
        "tests/runner/test_discover.py",
        "from shop.runner import build_suite\n\n\
         def test_builds():\n    assert build_suite([\"apps.simple\", \"apps.named.tests.Case\"]) == 2\n",
    );
    repo.write(
        "tests/apps/simple/tests.py",
        "import unittest\n\nclass Base(unittest.TestCase):\n    def test_one(self):\n        pass\n\n\
         class Other(Base):\n    databases = {\"other\"}\n",
    );
    repo.write("tests/apps/named/tests.py", "def test_one():\n    assert 1 == 1\n");
    // Named too, but its tests do something: it is a real suite and is checked.
    repo.write(
        "tests/apps/real/test_x.py",
        "from shop.runner import build_suite\n\ndef test_x():\n    pass\n\ndef test_y():\n    assert build_suite(1) == 1\n",
    );
    repo.write("tests/test_named_real.py", "NAMES = [\"apps.real\"]\n");
    repo.commit("base");

    let all = repo.run(&["mock", "--all-files"]);
    assert!(
        all.stdout.contains("2 sample test file(s) not checked")
            && all
                .stdout
                .contains("tests/apps/simple/tests.py (`apps.simple` in tests/runner/test_discover.py)"),
        "{}",
        all.stdout
    );
    assert!(!all.stdout.contains("tests/apps/named/tests.py:"), "{}", all.stdout);
    assert!(!all.stdout.contains("tests/apps/simple/tests.py:"), "{}", all.stdout);
    assert!(
        all.stdout
            .contains("tests/apps/real/test_x.py:3:5: error[mock/empty-test]"),
        "{}",
        all.stdout
    );

    // Changed alone, a sample is still known by the files that name it.
    repo.write(
        "tests/apps/simple/tests.py",
        "def test_one():\n    pass\n\ndef test_two():\n    ...\n",
    );
    let changed = repo.run(&["mock", "--base", "HEAD"]);
    assert_eq!(changed.code, 0, "{}{}", changed.stdout, changed.stderr);
    assert!(
        changed.stdout.contains("1 sample test file(s) not checked"),
        "{}",
        changed.stdout
    );
}

#[test]
fn rust_and_go_tests_reach_their_subject_like_cargo_and_go_do() {
    let repo = TestRepo::new();
    repo.write(
        "Cargo.toml",
        "[package]\nname = \"shop-core\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
    );
    repo.write("src/lib.rs", "pub mod billing;\n");
    repo.write(
        "src/billing.rs",
        "pub fn total(xs: &[u32]) -> u32 {\n    xs.iter().sum()\n}\n\n#[cfg(test)]\nmod tests {\n    use super::*;\n\n    #[test]\n    fn sums() {\n        assert_eq!(total(&[1, 2]), 3);\n    }\n}\n",
    );
    repo.write(
        "tests/billing.rs",
        "use shop_core::billing::total;\n\n#[test]\nfn sums() {\n    assert_eq!(total(&[2]), 2);\n}\n",
    );
    repo.write(
        "tests/lexical.rs",
        "#[path = \"../src/billing.rs\"]\nmod billing;\n#[path = \"lexical/sums.rs\"]\nmod sums;\n",
    );
    repo.write(
        "tests/lexical/sums.rs",
        "use crate::billing::total;\n\n#[test]\nfn sums() {\n    assert_eq!(total(&[4]), 4);\n}\n",
    );
    repo.write(
        "tests/common/mod.rs",
        "pub fn cart() -> Vec<u32> {\n    shop_core::billing::total(&[1]);\n    vec![1]\n}\n",
    );
    repo.write(
        "tests/via_common.rs",
        "mod common;\n\n#[test]\nfn sums() {\n    assert_eq!(common::cart().len(), 1);\n}\n",
    );
    repo.write(
        "tests/own_copy.rs",
        "fn total(xs: &[u32]) -> u32 {\n    xs.iter().sum()\n}\n\n#[test]\nfn sums() {\n    assert_eq!(total(&[1]), 1);\n}\n",
    );
    repo.write(
        "tests/cli.rs",
        "use std::process::Command;\n\n#[test]\nfn runs() {\n    let out = Command::new(env!(\"CARGO_BIN_EXE_shop\")).output().unwrap();\n    assert!(out.status.success());\n}\n",
    );
    // A shell-command crate runs a program too (issue 64: once_cell's
    // `xtask/tests/tidy.rs` runs `cargo fmt --check`).
    repo.write(
        "tests/tidy.rs",
        "use xshell::{cmd, Shell};\n\n#[test]\nfn formatted() {\n    let sh = Shell::new().unwrap();\n    cmd!(sh, \"cargo fmt --check\").run().unwrap();\n}\n",
    );
    repo.write("go.mod", "module example.com/shop\n\ngo 1.22\n");
    repo.write(
        "cart/cart.go",
        "package cart\n\nfunc Total(xs []int) int { return len(xs) }\n",
    );
    repo.write(
        "cart/cart_test.go",
        "package cart\n\nimport \"testing\"\n\nfunc TestTotal(t *testing.T) {\n\tif Total(nil) != 0 {\n\t\tt.Fatal(\"want 0\")\n\t}\n}\n",
    );
    repo.write(
        "cart/external_test.go",
        "package cart_test\n\nimport (\n\t\"testing\"\n\n\t\"example.com/shop/cart\"\n)\n\nfunc TestTotal(t *testing.T) {\n\tif cart.Total([]int{1}) != 1 {\n\t\tt.Fatal(\"want 1\")\n\t}\n}\n",
    );
    repo.write(
        "e2e/strings_test.go",
        "package e2e\n\nimport (\n\t\"strings\"\n\t\"testing\"\n)\n\nfunc TestUpper(t *testing.T) {\n\tif strings.ToUpper(\"a\") != \"A\" {\n\t\tt.Fatal(\"upper\")\n\t}\n}\n",
    );
    repo.commit("base");
    let run = repo.run(&["mock", "--all-files"]);
    let flagged = lines_of(&run, "mock/never-imports-subject");
    assert_eq!(flagged.len(), 2, "{}", run.stdout);
    assert!(flagged[0].starts_with("e2e/strings_test.go:8:"), "{}", run.stdout);
    assert!(flagged[1].starts_with("tests/own_copy.rs:6:"), "{}", run.stdout);
    // Source files without tests are not counted as test files.
    assert!(
        run.stdout.contains("10 test file(s) checked, 10 tests"),
        "{}",
        run.stdout
    );

    // A change to the code brings the tests that reach it into scope.
    let billing = std::fs::read_to_string(repo.root().join("src/billing.rs")).unwrap();
    repo.write("src/billing.rs", billing.replace("sum()", "sum::<u32>()"));
    repo.write(
        "cart/cart.go",
        "package cart\n\nfunc Total(xs []int) int { return len(xs) + 0 }\n",
    );
    let run = repo.run(&["mock", "--base", "HEAD"]);
    let read = repo.run(&["mock", "--base", "HEAD", "--no-cache"]);
    assert_eq!(run.stdout, read.stdout, "the import index and reading every test agree");
    assert!(
        run.stdout.contains(
            "more test file(s) whose subject changed: cart/cart_test.go, cart/external_test.go, tests/billing.rs"
        ),
        "{}",
        run.stdout
    );
}

/// A test with a syntax error inside is not checked (what tree-sitter
/// recovered of it may have lost its assertions): one `meta/syntax-error`
/// note names it, and the file's other tests are checked as usual.
#[test]
fn tests_with_a_syntax_error_inside_are_noted_not_judged() {
    let repo = TestRepo::new();
    repo.write("pkg/__init__.py", "");
    repo.write("pkg/cart.py", "def total(xs):\n    return sum(xs)\n");
    repo.write(
        "tests/test_cart.py",
        "from pkg.cart import total\n\n\ndef test_prints():\n    print(total([1]))\n\n\ndef test_broken():\n    x = total([1, 2]) +\n    assert x == 3\n",
    );
    repo.write("src/cart.ts", "export const total = (xs: number[]) => xs.length\n");
    repo.write(
        "src/cart.test.ts",
        "import { expect, it } from \"vitest\"\nimport { total } from \"./cart\"\n\nit(\"prints\", () => {\n  console.log(total([1]))\n})\n\nit(\"broken\", () => {\n  const x = total([1, 2]) + ;\n  expect(x).toBe(3)\n})\n",
    );
    repo.write(
        "Cargo.toml",
        "[package]\nname = \"shop\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
    );
    repo.write(
        "src/lib.rs",
        "pub fn total(xs: &[u32]) -> u32 {\n    xs.iter().sum()\n}\n",
    );
    repo.write(
        "tests/cart.rs",
        "use shop::total;\n\n#[test]\nfn prints() {\n    println!(\"{}\", total(&[1]));\n}\n\n#[test]\nfn broken() {\n    let x = total(&[1, 2]) +;\n    assert_eq!(x, 3);\n}\n",
    );
    repo.write("go.mod", "module example.com/shop\n\ngo 1.22\n");
    repo.write(
        "cart/cart.go",
        "package cart\n\nfunc Total(xs []int) int { return len(xs) }\n",
    );
    repo.write(
        "cart/cart_test.go",
        "package cart\n\nimport (\n\t\"fmt\"\n\t\"testing\"\n)\n\nfunc TestPrints(t *testing.T) {\n\tfmt.Println(Total(nil))\n}\n\nfunc TestBroken(t *testing.T) {\n\tx := Total(nil) +\n\tif x != 0 {\n\t\tt.Fatal(x)\n\t}\n}\n",
    );
    repo.commit("base");
    let run = repo.run(&["mock", "--all-files", "--format", "json"]);
    let report: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    let mut found: Vec<(String, String, u64)> = report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["path"].as_str().unwrap().to_string(),
                f["rule"].as_str().unwrap().to_string(),
                f["line"].as_u64().unwrap(),
            )
        })
        .collect();
    found.sort();
    let want = |path: &str, rule: &str, line: u64| (path.to_string(), rule.to_string(), line);
    assert_eq!(
        found,
        vec![
            want("cart/cart_test.go", "meta/syntax-error", 13),
            want("cart/cart_test.go", "mock/no-assertion", 8),
            want("src/cart.test.ts", "meta/syntax-error", 9),
            want("src/cart.test.ts", "mock/no-assertion", 4),
            want("tests/cart.rs", "meta/syntax-error", 10),
            want("tests/cart.rs", "mock/no-assertion", 4),
            want("tests/test_cart.py", "meta/syntax-error", 10),
            want("tests/test_cart.py", "mock/no-assertion", 4),
        ],
        "{}",
        run.stdout
    );
    let notes: Vec<&str> = report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["rule"] == "meta/syntax-error")
        .map(|f| f["message"].as_str().unwrap())
        .collect();
    assert!(
        notes
            .iter()
            .all(|m| m.starts_with("1 test(s) not checked: syntax error at line "))
    );
    assert!(notes.iter().any(|m| m.ends_with("(`TestBroken`)")), "{notes:?}");
    // Notes never fail the run; the no-assertion findings do.
    assert_eq!(run.code, 1, "{}", run.stderr);
}

#[test]
fn http_client_chains_javascript() {
    check_fixture("http_client.test.js");
}

#[test]
fn type_level_tests_and_wrappers_typescript() {
    check_fixture("type_level.test.ts");
}

/// node:test's mock tracker (`test.mock.method(process, 'on', ..)`) makes
/// doubles, not a test named `process` (issue 64: commander.js).
#[test]
fn node_test_mock_tracker_is_not_a_test() {
    check_fixture("node_test_mock.test.js");
}

/// A Python project below the root (a monorepo member, a maturin package
/// with `python-source`) is imported by its own name: that is the subject.
/// A `python-source` that points outside the repository is not followed.
#[test]
fn nested_python_projects_are_imported_by_their_own_names() {
    let repo = TestRepo::new();
    repo.write(
        "core/pyproject.toml",
        "[project]\nname = \"fast_core\"\n\n[tool.maturin]\npython-source = \"python\"\n",
    );
    repo.write(
        "core/python/fast_core/__init__.py",
        "def parse(x):\n    return int(x)\n",
    );
    repo.write(
        "core/tests/test_parse.py",
        "from fast_core import parse\n\n\ndef test_parse():\n    assert parse('1') == 1\n",
    );
    repo.write("plain/pyproject.toml", "[project]\nname = \"plain\"\n");
    repo.write("plain/src/plain_pkg/__init__.py", "def f():\n    return 1\n");
    repo.write(
        "plain/tests/test_f.py",
        "from plain_pkg import f\n\n\ndef test_f():\n    assert f() == 1\n",
    );
    // A package of that name exists outside: it is not the project.
    let outside = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(outside.path().join("elsewhere")).unwrap();
    std::fs::write(
        outside.path().join("elsewhere/__init__.py"),
        "def loads(x):\n    return 1\n",
    )
    .unwrap();
    repo.write(
        "escape/pyproject.toml",
        format!(
            "[project]\nname = \"escape\"\n\n[tool.maturin]\npython-source = \"{}\"\n",
            outside.path().display()
        ),
    );
    repo.write(
        "escape/tests/test_json.py",
        "from elsewhere import loads\n\n\ndef test_loads():\n    assert loads('1') == 1\n",
    );
    repo.commit("base");
    let run = repo.run(&["mock", "--all-files"]);
    let flagged = lines_of(&run, "mock/never-imports-subject");
    assert_eq!(flagged.len(), 1, "{}", run.stdout);
    assert!(flagged[0].starts_with("escape/tests/test_json.py:"), "{}", run.stdout);
}

/// A mocking library's own package configures its doubles to test them: a
/// check of what one was told to return is the subject there, not an echo.
#[test]
fn a_mocking_library_testing_its_own_doubles() {
    let repo = TestRepo::new();
    repo.write("go.mod", "module example.com/mocklib\n\ngo 1.22\n");
    let library = "package mock\n\ntype Mock struct{}\ntype Call struct{}\n\nfunc (m *Mock) On(name string, args ...interface{}) *Call { return &Call{} }\n\nfunc (c *Call) Return(values ...interface{}) *Call { return c }\n";
    repo.write("mock/mock.go", library);
    let test = |package: &str| {
        format!(
            "package {package}\n\nimport (\n\t\"testing\"\n\n\t\"github.com/stretchr/testify/assert\"\n)\n\nfunc TestReturn(t *testing.T) {{\n\tvar s Service\n\ts.On(\"Get\").Return(5)\n\tassert.Equal(t, 5, s.Get())\n}}\n"
        )
    };
    repo.write("mock/mock_test.go", test("mock"));
    // Look-alike: a project package that only uses a mocking library.
    repo.write("shop/shop.go", "package shop\n\nfunc Total() int { return 1 }\n");
    repo.write("shop/shop_test.go", test("shop"));
    repo.commit("base");
    let run = repo.run(&["mock", "--all-files"]);
    let flagged = lines_of(&run, "mock/mock-return-echo");
    assert_eq!(flagged.len(), 1, "{}", run.stdout);
    assert!(flagged[0].starts_with("shop/shop_test.go:"), "{}", run.stdout);
}

/// Issue 52: a mock's configured value read back through a local alias
/// blocks the run; the same mock handed to project code, whose result is
/// asserted, passes.
#[test]
fn an_aliased_mock_echo_blocks_and_the_project_code_look_alike_passes() {
    let repo = TestRepo::new();
    repo.write("shop/__init__.py", "");
    repo.write(
        "shop/service.py",
        "class Service:\n    def __init__(self, repo):\n        self.repo = repo\n\n    def total(self):\n        return self.repo.get()\n",
    );
    let test = |check: &str| {
        format!(
            "from unittest.mock import MagicMock\n\nfrom shop.service import Service\n\n\ndef test_total():\n    repo = MagicMock()\n    service = Service(repo=repo)\n    get = repo.get\n    get.return_value = 5\n{check}"
        )
    };
    repo.write(
        "tests/test_service.py",
        test("    result = get()\n    assert result == 5\n"),
    );
    repo.commit("an echo");
    let run = repo.run(&["mock", "--all-files"]);
    assert_eq!(run.code, 1, "{}", run.stdout);
    assert_eq!(
        lines_of(&run, "mock/mock-return-echo"),
        vec![
            "tests/test_service.py:12:5: error[mock/mock-return-echo] assertion in `test_total` checks the value the mock `get` was told to return on line 10"
        ],
        "{}",
        run.stdout
    );
    repo.write("tests/test_service.py", test("    assert service.total() == 5\n"));
    repo.commit("through the service");
    let run = repo.run(&["mock", "--all-files"]);
    assert_eq!(run.code, 0, "{}", run.stdout);
    assert!(lines_of(&run, "mock/").is_empty(), "{}", run.stdout);
}

/// Issue 64: a Go repository of the GOPATH days (no `go.mod`) spells its
/// own package by a path only the module would name: an external test
/// package (`package copier_test`) importing `github.com/jinzhu/copier`
/// tests the package beside it, which declares `package copier`; one that
/// imports another package of that name elsewhere, under a `go.mod`, or a
/// path ending in another name, does not.
#[test]
fn a_go_test_outside_any_module_importing_its_own_package_by_path_reaches_it() {
    let test = |import: &str| {
        format!(
            "package copier_test\n\nimport (\n\t\"testing\"\n\n\t\"{import}\"\n)\n\nfunc TestCopy(t *testing.T) {{\n\tif copier.Copy(1) != 1 {{\n\t\tt.Fatal(\"want 1\")\n\t}}\n}}\n"
        )
    };
    let code = "package copier\n\nfunc Copy(x int) int { return x }\n";
    // With the import comment of those days (multierr 9f702f5f).
    let commented = "package copier // import \"github.com/jinzhu/copier\"\n\nfunc Copy(x int) int { return x }\n";
    let repo = TestRepo::new();
    repo.write("copier.go", commented);
    never_imports_flags_exactly(
        &repo,
        &[("copier_test.go", &test("github.com/jinzhu/copier"), false)],
        ("", ""),
    );
    let repo = TestRepo::new();
    repo.write("copier.go", code);
    never_imports_flags_exactly(
        &repo,
        &[
            ("copier_test.go", &test("github.com/jinzhu/copier"), false),
            ("other/copier_test.go", &test("github.com/jinzhu/copier"), true),
            ("other/other.go", "package other\n\nfunc X() {}\n", false),
        ],
        ("", ""),
    );
    let repo = TestRepo::new();
    repo.write("copier.go", code);
    never_imports_flags_exactly(
        &repo,
        &[("copier_test.go", &test("github.com/jinzhu/cloner"), true)],
        ("", ""),
    );
    let repo = TestRepo::new();
    repo.write("go.mod", "module example.com/shop\n\ngo 1.22\n");
    repo.write("copier.go", code);
    never_imports_flags_exactly(
        &repo,
        &[("copier_test.go", &test("github.com/jinzhu/copier"), true)],
        ("", ""),
    );
}

/// Write `files` (path, text with `hole.0` replaced by `hole.1`, flagged?)
/// into `repo`, commit, run `mock --all-files`, and require that exactly the
/// files marked `true` get `mock/never-imports-subject`. The parsed report.
fn never_imports_flags_exactly(
    repo: &TestRepo,
    files: &[(&str, &str, bool)],
    hole: (&str, &str),
) -> loki_gate::report::json::GateJson {
    for (path, text, _) in files {
        repo.write(path, text.replace(hole.0, hole.1));
    }
    repo.commit("tests");
    let run = repo.run(&["mock", "--all-files", "--format", "json"]);
    let report: loki_gate::report::json::GateJson = serde_json::from_str(&run.stdout).unwrap();
    let flagged: BTreeSet<&str> = report
        .findings
        .iter()
        .filter(|f| f.rule == "mock/never-imports-subject")
        .map(|f| f.path.as_deref().unwrap())
        .collect();
    let expected: BTreeSet<&str> = files.iter().filter(|(_, _, flag)| *flag).map(|(p, _, _)| *p).collect();
    assert_eq!(flagged, expected);
    report
}

/// The text-format lines of `run` that report `rule`.
fn lines_of<'a>(run: &'a Run, rule: &str) -> Vec<&'a str> {
    run.stdout.lines().filter(|l| l.contains(rule)).collect()
}

/// The import index the dependents search reads is kept per commit and
/// brought forward commit by commit: a test added later is found, a runner
/// config in the change makes the gate read the tests itself, and every
/// answer is the one reading every test file gives (`--no-cache`).
#[test]
fn the_import_index_follows_commits_and_agrees_with_reading_every_test() {
    let repo = TestRepo::new();
    repo.write("package.json", "{\"name\": \"shop\"}\n");
    repo.write("src/cart.ts", "export const total = (xs: number[]) => xs.length\n");
    repo.write("src/other.ts", "export const other = 1\n");
    repo.write(
        "tests/cart.test.ts",
        "import { total } from '../src/cart'\nit('totals', () => {\n  expect(total([1])).toBe(1)\n  expect(true).toBe(true)\n})\n",
    );
    repo.write(
        "tests/other.test.ts",
        "import { other } from '../src/other'\nit('is one', () => {\n  expect(true).toBe(true)\n})\n",
    );
    repo.commit("base");
    let touch = |n: usize| {
        repo.write(
            "src/cart.ts",
            format!("export const total = (xs: number[]) => xs.length + {n}\n"),
        );
        repo.git(&["add", "src/cart.ts"]);
    };
    let both = |what: &str| {
        let indexed = repo.run(&["mock", "--staged"]);
        let read = repo.run(&["mock", "--staged", "--no-cache"]);
        assert_eq!(indexed.stdout, read.stdout, "{what}");
        assert_eq!(indexed.code, read.code, "{what}");
        indexed
    };
    let indexes = || repo.kept("imports-").1;
    touch(1);
    let first = both("the index built");
    // The dependent's hollow test was there at the base: a warning.
    assert_eq!(first.code, 0, "{}", first.stdout);
    assert!(first.stdout.contains("tests/cart.test.ts:4:"), "{}", first.stdout);
    assert!(!first.stdout.contains("other.test.ts"), "{}", first.stdout);
    let head = repo.git(&["rev-parse", "HEAD"]).trim().to_string();
    assert!(indexes().contains(&head), "{:?}", indexes());

    // A forged index names files outside the repository and untracked ones:
    // none is read.
    let index_file = std::fs::read_dir(repo.root().join(".loki-gate/cache"))
        .unwrap()
        .flatten()
        .find(|e| e.file_name().to_string_lossy().starts_with("imports-"))
        .unwrap()
        .path()
        .join(&head);
    let outside = tempfile::tempdir().unwrap();
    let hollow = "import { total } from '../src/cart'\nit('x', () => {\n  expect(1).toBe(1)\n})\n";
    std::fs::write(outside.path().join("evil.test.ts"), hollow).unwrap();
    repo.write("tests/untracked.test.ts", hollow);
    let mut forged = std::fs::read(&index_file).unwrap();
    for path in [
        outside.path().join("evil.test.ts").display().to_string(),
        format!(
            "../{}/evil.test.ts",
            outside.path().file_name().unwrap().to_string_lossy()
        ),
        "tests/untracked.test.ts".to_string(),
    ] {
        forged.extend_from_slice(path.as_bytes());
        forged.extend_from_slice(b"\0../src/cart\0");
    }
    std::fs::write(&index_file, forged).unwrap();
    let again = repo.run(&["mock", "--staged"]);
    assert_eq!(again.stdout, first.stdout, "the forged records are not read");
    std::fs::remove_file(repo.root().join("tests/untracked.test.ts")).unwrap();

    // Later commits: the index is carried forward and sees the new test.
    repo.commit("change");
    repo.write(
        "tests/more/cart.spec.ts",
        "import { total } from '../../src/cart.js'\nit('is empty', () => {\n  expect(total([])).toBe(0)\n  expect(1).toBe(1)\n})\n",
    );
    repo.commit("another test");
    touch(2);
    let later = both("carried forward");
    assert!(later.stdout.contains("tests/more/cart.spec.ts:4:"), "{}", later.stdout);
    assert!(later.stdout.contains("tests/cart.test.ts:4:"), "{}", later.stdout);
    let now = indexes();
    let head = repo.git(&["rev-parse", "HEAD"]).trim().to_string();
    assert!(now.contains(&head), "{now:?}");
    assert!(now.len() <= 3, "the newest, one before it and the pointer: {now:?}");

    // A runner config in the change decides anew which files are tests; the
    // base's discovery stands beside it (a narrowed config hides no test).
    repo.write(
        "vitest.config.ts",
        "export default { test: { include: ['tests/**/*.check.ts'] } }\n",
    );
    repo.write("tests/cart.check.ts", hollow);
    repo.git(&["add", "vitest.config.ts", "tests/cart.check.ts"]);
    let config = both("a runner config in the change");
    for test in [
        "tests/cart.check.ts:3:",
        "tests/more/cart.spec.ts:4:",
        "tests/cart.test.ts:4:",
    ] {
        assert!(config.stdout.contains(test), "{test}: {}", config.stdout);
    }
}

/// What the old spelling patterns missed, both ways of looking find: a Go
/// test in a package at the repository root, another package's test that
/// imports it by the module path, a Rust module named inside a `use` group,
/// a JavaScript index imported as `'..'`.
#[test]
fn dependents_the_spelling_patterns_missed_are_found_with_and_without_the_index() {
    let repo = TestRepo::new();
    repo.write("go.mod", "module example.com/shop\n\ngo 1.22\n");
    repo.write(
        "cart.go",
        "package shop\n\nfunc Total(xs []int) int { return len(xs) }\n",
    );
    repo.write(
        "cart_test.go",
        "package shop\n\nimport \"testing\"\n\nfunc TestTotal(t *testing.T) {\n\tif Total(nil) != 0 {\n\t\tt.Fatal(\"want 0\")\n\t}\n}\n",
    );
    // Elsewhere in the module, the root package is imported by the module path.
    repo.write(
        "doc/doc_test.go",
        "package doc\n\nimport (\n\t\"testing\"\n\n\tcore \"example.com/shop\"\n)\n\nfunc TestDoc(t *testing.T) {\n\tif core.Total(nil) != 0 {\n\t\tt.Fatal(\"want 0\")\n\t}\n}\n",
    );
    repo.write(
        "Cargo.toml",
        "[package]\nname = \"walker\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
    );
    repo.write("src/lib.rs", "pub mod walk;\npub mod dir;\n");
    repo.write(
        "src/walk.rs",
        "pub struct DirEntry;\n\npub fn depth() -> usize {\n    1\n}\n",
    );
    repo.write(
        "src/dir.rs",
        "use crate::{\n    walk::depth,\n};\n\n#[cfg(test)]\nmod tests {\n    use super::*;\n\n    #[test]\n    fn deep() {\n        assert_eq!(depth(), 1);\n    }\n}\n",
    );
    repo.write(
        "web/src/cart/index.ts",
        "export const total = (xs: number[]) => xs.length\n",
    );
    repo.write(
        "web/src/cart/x/total.test.ts",
        "import { total } from '..'\nit('totals', () => {\n  expect(total([1])).toBe(1)\n})\n",
    );
    repo.commit("base");
    repo.write(
        "cart.go",
        "package shop\n\nfunc Total(xs []int) int { return len(xs) + 0 }\n",
    );
    repo.write(
        "src/walk.rs",
        "pub struct DirEntry;\n\npub fn depth() -> usize {\n    1 + 0\n}\n",
    );
    repo.write(
        "web/src/cart/index.ts",
        "export const total = (xs: number[]) => xs.length + 0\n",
    );
    repo.git(&["add", "-A"]);
    let indexed = repo.run(&["mock", "--staged"]);
    let read = repo.run(&["mock", "--staged", "--no-cache"]);
    assert_eq!(indexed.stdout, read.stdout);
    assert!(
        indexed.stdout.contains(
            "more test file(s) whose subject changed: cart_test.go, doc/doc_test.go, src/dir.rs, web/src/cart/x/total.test.ts"
        ),
        "{}",
        indexed.stdout
    );
}

/// A test is what the runner collects (issue 63): `tests/test_cart.py`, a
/// symlink to a helper module outside the test patterns, is collected by
/// pytest through the link, so a change that hollows the helper is a
/// change to that test. Before, the link was unseen ("0 test file(s)
/// checked") and the gate passed.
#[test]
fn a_symlinked_test_is_judged_through_its_target() {
    let repo = TestRepo::new();
    repo.write("shop/__init__.py", "")
        .write("shop/cart.py", "def total(xs):\n    return sum(xs)\n")
        .write(
            "helpers/cart_checks.py",
            "from shop.cart import total\n\n\ndef test_total():\n    assert total([1, 2]) == 3\n",
        );
    std::fs::create_dir_all(repo.path().join("tests")).unwrap();
    std::os::unix::fs::symlink("../helpers/cart_checks.py", repo.path().join("tests/test_cart.py")).unwrap();
    repo.commit("base");
    repo.write(
        "helpers/cart_checks.py",
        "from shop.cart import total\n\n\ndef test_total():\n    total([1, 2])\n    assert True\n",
    );
    let run = repo.run_env(
        &["check", "--base", "main", "--gates", "mock", "--format", "json"],
        &[("CI", "true")],
    );
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert_eq!(
        run.findings(),
        vec!["mock/tautological-assertion error tests/test_cart.py:6"]
    );
    // mutation compares the target's versions as the test's.
    let base = repo.git(&["rev-parse", "HEAD"]);
    repo.commit("hollow");
    let run = repo.run_env(
        &[
            "check",
            "--base",
            base.trim(),
            "--gates",
            "mutation",
            "--format",
            "json",
        ],
        &[("CI", "true")],
    );
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert!(
        run.findings().iter().any(|f| f.contains("helpers/cart_checks.py")),
        "{:?}",
        run.findings()
    );
    // The helper's old version is the link's base: a finding it had is the base's.
    repo.write(
        "helpers/cart_checks.py",
        "from shop.cart import total\n\n\ndef test_total():\n    total([1, 2])\n    assert True\n\n\ndef test_empty():\n    assert total([]) == 0\n",
    );
    let run = repo.run_env(
        &["check", "--base", "HEAD", "--gates", "mock", "--format", "json"],
        &[("CI", "true")],
    );
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
}

/// Rust tests inside the crate (issue 64: bitflags): a test module under
/// `src/` whose types the crate's own macro defines in its parent
/// (`use super::*`), one that only invokes the crate's macros, one that
/// imports a trait by `crate::` and calls its methods; and in the
/// package's `tests/`, a file that brings the crate's extension trait into
/// scope. The look-alike in `tests/` imports nothing of the crate's.
#[test]
fn rust_tests_inside_the_crate_and_trait_imports_use_the_subject() {
    let repo = TestRepo::new();
    repo.write(
        "Cargo.toml",
        "[package]\nname = \"flags\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
    );
    repo.write(
        "src/lib.rs",
        "//! Flags.\n\n/// A set of flags.\npub trait Flags {\n    /// All of them.\n    fn all() -> Self;\n}\n\n/// Extra methods on integers.\npub trait Ext {\n    /// Doubled.\n    fn doubled(self) -> Self;\n}\n\nimpl Ext for u8 {\n    fn doubled(self) -> u8 {\n        self * 2\n    }\n}\n\n/// Defines a flags type.\n#[macro_export]\nmacro_rules! flags {\n    ($name:ident) => {\n        #[derive(Debug, PartialEq)]\n        pub struct $name(u8);\n        impl $crate::Flags for $name {\n            fn all() -> Self {\n                $name(255)\n            }\n        }\n    };\n}\n\n#[cfg(test)]\nmod tests;\n",
    );
    repo.write(
        "src/tests.rs",
        "mod all;\nmod made;\nmod named;\n\nflags!(TestFlags);\n",
    );
    repo.write(
        "src/tests/all.rs",
        "use super::*;\nuse crate::Flags;\n\n#[test]\nfn cases() {\n    assert_eq!(TestFlags::all(), TestFlags(255));\n}\n",
    );
    repo.write(
        "src/tests/made.rs",
        "flags!(Made);\n\n#[test]\nfn made() {\n    assert_eq!(<Made as crate::Flags>::all(), Made(255));\n}\n",
    );
    repo.write(
        "src/tests/named.rs",
        "#[test]\nfn named() {\n    use crate::Flags;\n    flags!(Named);\n    assert_eq!(Named::all(), Named(255));\n}\n",
    );
    repo.write(
        "tests/ext.rs",
        "use flags::Ext;\n\n#[test]\nfn doubles() {\n    assert_eq!(3u8.doubled(), 6);\n}\n",
    );
    repo.write(
        "tests/std_only.rs",
        "#[test]\nfn adds() {\n    assert_eq!(1u8.wrapping_add(2), 3);\n}\n",
    );
    repo.commit("base");
    let run = repo.run(&["mock", "--all-files"]);
    let flagged = lines_of(&run, "mock/never-imports-subject");
    assert_eq!(flagged.len(), 1, "{}", run.stdout);
    assert!(flagged[0].starts_with("tests/std_only.rs:2:"), "{}", run.stdout);
}

/// The files a `mock --format json` run says never import their subject.
fn never_imports(run: &Run) -> Vec<String> {
    let report: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["rule"] == "mock/never-imports-subject")
        .filter_map(|f| f["path"].as_str().map(str::to_string))
        .collect()
}

/// Issue 64 (go-toml's generated `toml_testgen_test.go`): a Go test file
/// that only calls a helper another test file of its package defines
/// reaches the project code that file imports. A helper file of another
/// package clause, or one that imports no project code, reaches nothing.
#[test]
fn a_go_test_reaches_its_subject_through_a_helper_of_its_package() {
    let generated = "package cart_test\n\nimport \"testing\"\n\nfunc TestGenerated(t *testing.T) {\n\tinput := \"1,2\"\n\tcheckTotal(t, input)\n}\n";
    let helper = |package: &str, import: &str, call: &str| {
        format!(
            "package {package}\n\nimport (\n\t\"strings\"\n\t\"testing\"\n{import})\n\nfunc checkTotal(t *testing.T, input string) {{\n\tt.Helper()\n\tif {call}(strings.Split(input, \",\")) != 2 {{\n\t\tt.Fatal(input)\n\t}}\n}}\n"
        )
    };
    for (support, flagged) in [
        (
            helper("cart_test", "\n\t\"example.com/shop/cart\"\n", "cart.Total"),
            false,
        ),
        (helper("cart", "", "Total"), true),
        (helper("cart_test", "", "len"), true),
    ] {
        let repo = TestRepo::new();
        repo.write("go.mod", "module example.com/shop\n\ngo 1.22\n");
        repo.write(
            "cart/cart.go",
            "package cart\n\n// Total counts.\nfunc Total(xs []string) int { return len(xs) }\n",
        );
        repo.write("cart/support_test.go", &support);
        repo.write("cart/gen_test.go", generated);
        repo.commit("base");
        let run = repo.run(&["mock", "--all-files", "--format", "json"]);
        let never = never_imports(&run);
        assert_eq!(never == ["cart/gen_test.go"], flagged, "{support}\n{}", run.stdout);
    }
}

/// Issue 64 (insta's `cargo-insta/tests/functional/*.rs`, found on the
/// second hold-out set after it was measured): a Rust test module in a
/// file of its own that brings in its parent with `use super::*` reaches
/// what the parent (`tests/functional/main.rs`, which declares it) imports.
/// A parent that imports no project code reaches nothing.
#[test]
fn a_rust_test_module_file_reaches_its_subject_through_its_parent() {
    for (parent_use, flagged) in [("use shop::total;\n", false), ("use std::fmt;\n", true)] {
        let repo = TestRepo::new();
        repo.write(
            "Cargo.toml",
            "[package]\nname = \"shop\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
        );
        repo.write(
            "src/lib.rs",
            "pub fn total(xs: &[u32]) -> u32 {\n    xs.iter().sum()\n}\n",
        );
        repo.write(
            "tests/functional/main.rs",
            format!("{parent_use}\nmod glob;\n\nfn run(xs: &[u32]) -> u32 {{\n    xs.len() as u32\n}}\n"),
        );
        repo.write(
            "tests/functional/glob.rs",
            "use super::*;\n\n#[test]\nfn sums() {\n    assert_eq!(run(&[1, 2]), 2);\n}\n",
        );
        repo.commit("base");
        let run = repo.run(&["mock", "--all-files", "--format", "json"]);
        let never = never_imports(&run);
        assert_eq!(
            never == ["tests/functional/glob.rs"],
            flagged,
            "{parent_use}\n{}",
            run.stdout
        );
    }
}

/// A test that requires the package's build output (`require('../dist/clsx')`,
/// written by `npm run build` before the tests run, absent from the
/// repository) tests the package (issue 64: lukeed/clsx 25fcd731). A path
/// the repository lacks outside a build folder, or a build folder of no
/// package of the project's, reaches nothing.
#[test]
fn a_javascript_test_of_the_packages_build_output_reaches_the_package() {
    let test = |spec: &str| {
        format!(
            "const test = require('tape');\nconst fn = require('{spec}');\n\ntest('strings', t => {{\n  t.is(fn('foo'), 'foo');\n  t.end();\n}});\n"
        )
    };
    let repo = TestRepo::new();
    repo.write("package.json", "{\"name\": \"clsx\", \"main\": \"dist/clsx.js\"}\n");
    repo.write("src/index.js", "module.exports = function (x) { return x; };\n");
    never_imports_flags_exactly(
        &repo,
        &[
            ("test/index.js", &test("../dist/clsx"), false),
            ("test/vendor.js", &test("../vendor/clsx"), true),
        ],
        ("", ""),
    );
    let repo = TestRepo::new();
    repo.write("src/index.js", "module.exports = function (x) { return x; };\n");
    never_imports_flags_exactly(&repo, &[("test/index.js", &test("../dist/clsx"), true)], ("", ""));
}

/// uvu starts its runner with `test.run()` (or a suite's `.run()`): no
/// test, so no skipped one; a test uvu skips (`test.skip(..)`) still is.
#[test]
fn uvus_runner_call_is_no_test() {
    let repo = TestRepo::new();
    repo.write("package.json", "{ \"name\": \"p\", \"private\": true }\n");
    repo.write("src/add.js", "export function add(a, b) {\n  return a + b;\n}\n");
    repo.commit("base");
    repo.write(
        "test/add.test.js",
        "import { test } from 'uvu';\nimport * as assert from 'uvu/assert';\nimport { add } from '../src/add.js';\n\ntest('adds', () => {\n  assert.is(add(1, 2), 3);\n});\n\ntest.skip('adds more', () => {\n  assert.is(add(2, 2), 4);\n});\n\ntest.run();\n",
    );
    let run = repo.run(&["mock", "--base", "HEAD", "--format", "json"]);
    let json = run.json();
    let found: Vec<String> = json["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| format!("{} {}", f["rule"].as_str().unwrap(), f["line"]))
        .collect();
    assert_eq!(found, ["mock/skipped-test 9"], "{}", run.stdout);
}

/// A Rust integration test that checks project files named by a relative
/// path (`version_sync::assert_markdown_deps_updated!("README.md")`, run
/// from the crate's root) tests the project, like a JavaScript test naming
/// `./src/color.ts` (issue 64: unicode-segmentation 2659888). A path that
/// names no file of the project, or a test file, is no subject.
#[test]
fn a_rust_test_naming_project_files_by_path_tests_the_project() {
    let repo = TestRepo::new();
    repo.write(
        "Cargo.toml",
        "[package]\nname = \"seg\"\nversion = \"1.0.0\"\nedition = \"2021\"\n",
    );
    repo.write("README.md", "# seg\n\n```toml\nseg = \"1.0\"\n```\n");
    repo.write("src/lib.rs", "//! Segments.\n");
    never_imports_flags_exactly(
        &repo,
        &[
            (
                "tests/version.rs",
                "#[test]\nfn readme_deps() {\n    version_sync::assert_markdown_deps_updated!(\"HOLE\");\n}\n\n#[test]\nfn html_root() {\n    version_sync::assert_html_root_url_updated!(\"src/lib.rs\");\n}\n",
                false,
            ),
            (
                "tests/elsewhere.rs",
                "#[test]\nfn reads() {\n    assert!(std::fs::read_to_string(\"MISSING.md\").is_err());\n}\n",
                true,
            ),
        ],
        ("HOLE", "README.md"),
    );
}

/// A Rust test whose derives call the crate through the paths an
/// attribute names in strings (serde's `#[serde(with = "hexa")]`,
/// `serialize_with = "hexa::upper"`) tests it (issue 64: rust-hex
/// 3b8a77d). A string that names no path (`rename = "hexa"`) is no use.
#[test]
fn a_rust_test_reaching_the_crate_through_attribute_paths_tests_it() {
    let repo = TestRepo::new();
    repo.write(
        "Cargo.toml",
        "[package]\nname = \"hexa\"\nversion = \"1.0.0\"\nedition = \"2021\"\n",
    );
    repo.write(
        "src/lib.rs",
        "//! Hex.\n\n/// Upper.\npub fn upper(b: &[u8]) -> String {\n    b.iter().map(|x| format!(\"{x:02X}\")).collect()\n}\n",
    );
    let test = |key: &str| {
        format!(
            "use serde::Serialize;\n\n#[derive(Serialize)]\nstruct Row {{\n    #[serde({key} = \"HOLE\")]\n    data: Vec<u8>,\n}}\n\n#[test]\nfn serializes() {{\n    let row = Row {{ data: vec![1] }};\n    assert_eq!(serde_json::to_string(&row).unwrap(), \"{{}}\");\n}}\n"
        )
    };
    never_imports_flags_exactly(
        &repo,
        &[
            ("tests/with.rs", &test("with"), false),
            (
                "tests/upper.rs",
                &test("serialize_with").replace("HOLE", "hexa::upper"),
                false,
            ),
            ("tests/rename.rs", &test("rename"), true),
        ],
        ("HOLE", "hexa"),
    );
}

/// AVA fails a test that ran no assertion (`failWithoutAssertions`, on by
/// default): a test whose only checks sit in a `catch` fails when nothing
/// is thrown, so it is no catch-only test (issue 64: sindresorhus/meow
/// 1eede6a, 7 findings). Where the package's AVA config turns that off, in
/// the change or at the base, or an `ava.config.js` written as code may,
/// and for any other runner, it is one.
#[test]
fn an_ava_test_checked_only_in_a_catch_fails_when_nothing_is_thrown() {
    let test = "import test from 'ava';\nimport {parse} from '../index.js';\n\ntest('rejects a bad flag', t => {\n\ttry {\n\t\tparse('--bad');\n\t} catch (error) {\n\t\tt.is(error.message, 'bad flag');\n\t}\n});\n";
    let jest = "import {parse} from '../index.js';\n\ntest('rejects a bad flag', () => {\n\ttry {\n\t\tparse('--bad');\n\t} catch (error) {\n\t\texpect(error.message).toBe('bad flag');\n\t}\n});\n";
    let ava = "{\"name\":\"p\",\"type\":\"module\",\"scripts\":{\"test\":\"ava\"}}\n";
    let off = "{\"name\":\"p\",\"type\":\"module\",\"scripts\":{\"test\":\"ava\"},\"ava\":{\"failWithoutAssertions\":false}}\n";
    for (base_manifest, manifest, config, file, blocked) in [
        (ava, ava, None, test, false),
        (ava, off, None, test, true),
        (off, ava, None, test, true),
        (
            ava,
            ava,
            Some("export default {failWithoutAssertions: false};\n"),
            test,
            true,
        ),
        (ava, ava, None, jest, true),
    ] {
        let repo = TestRepo::new();
        repo.write("package.json", base_manifest);
        repo.write(
            "index.js",
            "export function parse(s) {\n  if (s === '--bad') throw new Error('bad flag');\n}\n",
        );
        repo.commit("base");
        repo.write("package.json", manifest);
        if let Some(config) = config {
            repo.write("ava.config.js", config);
        }
        repo.write("test/parse.js", file);
        let run = repo.run(&["mock", "--base", "HEAD"]);
        assert_eq!(
            run.stdout.contains("mock/catch-only-assertion"),
            blocked,
            "{manifest} {config:?}: {}",
            run.stdout
        );
    }
}
