//! `evidence --coverage`: changed-line coverage from the reports a test run
//! wrote, with real coverage.py and go runs and fixture reports per format.

use loki_gate::report::json::GateJson;

use crate::support::{Run, TestRepo, fake_tests};

fn report(run: &Run) -> GateJson {
    serde_json::from_str(&run.stdout).unwrap_or_else(|e| panic!("{e}: {}\n{}", run.stdout, run.stderr))
}

/// `path rows: changed/executable/covered`, one per file, for assertions.
fn rows(report: &GateJson) -> Vec<String> {
    let coverage = report.coverage.as_ref().expect("a coverage object");
    coverage
        .files
        .iter()
        .map(|f| format!("{} {}/{}/{}", f.path, f.changed, f.executable, f.covered))
        .collect()
}

const CART_BASE: &str = "\"\"\"Cart.\"\"\"\n\n\ndef total(prices):\n    return sum(prices)\n";

/// Line 5 (a comment) and 7-12 are added; 9 runs at import, 10-12 never run.
const CART_CHANGED: &str = "\"\"\"Cart.\"\"\"\n\n\ndef total(prices):\n    # the sum of the prices\n    return sum(prices)\n\n\ndef discount(prices, coupon):\n    if coupon:\n        return total(prices) * 0.9\n    return total(prices)\n";

/// A Python project with a tested `total`, a run start, then an untested `discount`.
fn python_project() -> TestRepo {
    let repo = TestRepo::new();
    repo.write(".gitignore", ".coverage\n__pycache__/\n.pytest_cache/\ncoverage.*\n");
    repo.write("src/shop/__init__.py", "");
    repo.write("src/shop/cart.py", CART_BASE);
    repo.write(
        "tests/test_cart.py",
        "from shop.cart import total\n\n\ndef test_total():\n    assert total([1, 2]) == 3\n",
    );
    repo.commit("cart");
    assert_eq!(repo.run(&["evidence", "start"]).code, 0);
    repo.write("src/shop/cart.py", CART_CHANGED);
    repo
}

/// coverage.py under pytest, writing the three formats coverage.py has.
const COVERAGE_PY: &str = "PYTHONPATH=src python3 -m coverage run --source=src -m pytest -q -p no:cacheprovider tests \
     && python3 -m coverage xml -q -o coverage.xml \
     && python3 -m coverage json -q -o coverage.json \
     && python3 -m coverage lcov -q -o coverage.lcov";

#[test]
fn real_coverage_py_reports_in_all_three_formats_agree() {
    let repo = python_project();
    let run = repo.run(&[
        "evidence",
        "--base",
        "HEAD",
        "--format",
        "json",
        "--test-command",
        COVERAGE_PY,
        "--coverage",
        "coverage.xml",
    ]);
    assert_eq!(
        run.code, 0,
        "uncovered lines warn by default: {}{}",
        run.stdout, run.stderr
    );
    let xml = report(&run);
    assert_eq!(
        run.findings(),
        vec!["evidence/uncovered-change warning src/shop/cart.py:10"],
        "{}",
        run.stdout
    );
    assert_eq!(xml.findings[0].end_line, Some(12));
    assert_eq!(
        xml.findings[0].message,
        "changed lines 10-12 are never run by the tests"
    );
    assert_eq!(rows(&xml), vec!["src/shop/cart.py 7/4/1"]);
    let coverage = xml.coverage.as_ref().unwrap();
    assert_eq!(coverage.percent, Some(25.0));
    assert_eq!(coverage.files[0].uncovered, vec![[10, 12]]);
    assert_eq!(coverage.reports, vec!["coverage.xml"]);

    // The same run's JSON and LCOV say the same, read without running anything again.
    for other in ["coverage.json", "coverage.lcov"] {
        let run = repo.run(&[
            "evidence",
            "--base",
            "HEAD",
            "--format",
            "json",
            "--test-command",
            &fake_tests(1, 0),
            "--coverage",
            other,
        ]);
        let again = report(&run);
        assert_eq!(rows(&again), rows(&xml), "{other}: {}", run.stdout);
        assert_eq!(
            run.findings(),
            vec!["evidence/uncovered-change warning src/shop/cart.py:10"]
        );
    }
}

#[test]
fn min_changed_coverage_from_config_blocks_and_names_the_number() {
    let repo = python_project();
    repo.write(
        ".loki-gate.yaml",
        format!(
            "base: HEAD\ngates:\n  evidence:\n    test-command: {COVERAGE_PY:?}\n    coverage: [coverage.xml]\n    min-changed-coverage: 80\n"
        ),
    );
    // `base: HEAD` swaps the base: a warning outside CI, not this test's subject.
    let run = repo.run(&["evidence", "-A", "meta/waiver-added"]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    insta::assert_snapshot!(run.snapshot(&repo));

    // Covering the branch lifts it over the bar.
    repo.write(
        "tests/test_discount.py",
        "from shop.cart import discount\n\n\ndef test_discount():\n    assert discount([10], True) == 9\n    assert discount([10], False) == 10\n",
    );
    let run = repo.run(&["evidence", "--format", "json", "-A", "meta/waiver-added"]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(run.findings().is_empty(), "{:?}", run.findings());
    assert_eq!(report(&run).coverage.unwrap().percent, Some(100.0));
}

#[test]
fn markdown_shows_the_table() {
    let repo = python_project();
    let run = repo.run(&[
        "evidence",
        "--base",
        "HEAD",
        "--format",
        "markdown",
        "--test-command",
        COVERAGE_PY,
        "--coverage",
        "coverage.lcov",
        "--min-changed-coverage",
        "20",
    ]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    insta::assert_snapshot!(run.snapshot(&repo));
}

const GO_BASE: &str =
    "// Package calc adds.\npackage calc\n\n// Add adds.\nfunc Add(a, b int) int {\n\treturn a + b\n}\n";

/// Sub (lines 9-17) is added; its `if` branch and the comment block hold no test.
const GO_CHANGED: &str = "// Package calc adds.\npackage calc\n\n// Add adds.\nfunc Add(a, b int) int {\n\treturn a + b\n}\n\n// Sub subtracts.\nfunc Sub(a, b int) int {\n\tif a > b {\n\t\treturn a - b\n\t}\n\t/* the other\n\tway round */\n\treturn b - a\n}\n";

/// What `go test -coverprofile` (go 1.19) wrote for GO_CHANGED with TestAdd only.
const GO_PROFILE: &str = "mode: set\nexample.com/shop/calc/calc.go:5.24,7.2 1 1\nexample.com/shop/calc/calc.go:10.24,11.11 1 0\nexample.com/shop/calc/calc.go:16.2,16.14 1 0\nexample.com/shop/calc/calc.go:11.11,13.3 1 0\n";

#[test]
fn a_go_cover_profile_counts_statement_lines_only() {
    let repo = TestRepo::new();
    repo.write("go.mod", "module example.com/shop\n\ngo 1.19\n");
    repo.write("calc/calc.go", GO_BASE);
    repo.write(
        "calc/calc_test.go",
        "package calc\n\nimport \"testing\"\n\nfunc TestAdd(t *testing.T) {\n\tif Add(1, 2) != 3 {\n\t\tt.Fatal(\"Add\")\n\t}\n}\n",
    );
    repo.write(".gitignore", "coverage.out\n");
    repo.commit("calc");
    assert_eq!(repo.run(&["evidence", "start"]).code, 0);
    repo.write("calc/calc.go", GO_CHANGED);
    let cache = tempfile::tempdir().unwrap();
    let go = which::which("go").is_ok();
    let command = if go {
        "go test -coverprofile=coverage.out ./...".to_string()
    } else {
        // No Go here: the profile a real run wrote, written as the test run would.
        std::thread::sleep(std::time::Duration::from_millis(20));
        repo.write("coverage.out", GO_PROFILE);
        fake_tests(1, 0)
    };
    let run = repo.run_env(
        &[
            "evidence",
            "--base",
            "HEAD",
            "--format",
            "json",
            "--test-command",
            &command,
            "--coverage",
            "coverage.out",
        ],
        &[
            ("GOCACHE", &cache.path().display().to_string()),
            ("GOFLAGS", "-mod=mod"),
            ("GOTOOLCHAIN", "local"),
        ],
    );
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    if go {
        assert_eq!(repo.read("coverage.out"), GO_PROFILE, "go's profile changed shape");
    }
    // Executable: 11 (the condition), 12 (its branch) and 16; not the signature,
    // the braces or the comment lines in between.
    assert_eq!(
        run.findings(),
        vec!["evidence/uncovered-change warning calc/calc.go:11"],
        "{}",
        run.stdout
    );
    let report = report(&run);
    assert_eq!(report.findings[0].end_line, Some(16));
    assert_eq!(
        report.findings[0].message,
        "changed lines 11-16 are never run by the tests (3 executable)"
    );
    assert_eq!(rows(&report), vec!["calc/calc.go 10/3/0"]);
}

/// A JavaScript-like project (no runtime needed): a.js and b.js changed after a run start.
fn js_project() -> TestRepo {
    let repo = TestRepo::new();
    repo.write("src/a.js", "export function a() {\n  return 1;\n}\n");
    repo.write("lib/b.js", "export function b() {\n  return 2;\n}\n");
    repo.commit("js");
    assert_eq!(repo.run(&["evidence", "start"]).code, 0);
    repo.write(
        "src/a.js",
        "export function a(x) {\n  if (x) {\n    return 1;\n  }\n  return 0;\n}\n",
    );
    repo.write("lib/b.js", "export function b() {\n  // two\n  return 2 + 0;\n}\n");
    // Written by the test run, after the change.
    std::thread::sleep(std::time::Duration::from_millis(20));
    repo
}

/// `loki-gate evidence ARGS` with a green test command (2 passed).
fn green(repo: &TestRepo, args: &[&str]) -> Run {
    let tests = fake_tests(2, 0);
    let mut all = vec!["evidence", "--test-command", &tests];
    all.extend(args);
    repo.run(&all)
}

/// Run evidence with green tests and these coverage reports, against HEAD, as JSON.
fn evidence_with(repo: &TestRepo, reports: &[&str]) -> Run {
    let mut args = vec!["--base", "HEAD", "--format", "json"];
    for r in reports {
        args.extend(["--coverage", r]);
    }
    green(repo, &args)
}

#[test]
fn lcov_with_windows_absolute_foreign_and_missing_paths() {
    let repo = js_project();
    repo.write(
        "coverage/lcov.info",
        "TN:\nSF:C:\\build\\proj\\src\\a.js\nFN:1,a\nDA:1,1\nDA:2,1\nDA:3,0\nDA:5,1\nend_of_record\n\
         TN:\nSF:/home/runner/work/proj/proj/lib/b.js\nDA:1,1\nDA:3,1\nend_of_record\n\
         TN:\nSF:src/gone.js\nDA:1,0\nend_of_record\n",
    );
    let run = evidence_with(&repo, &["coverage/lcov.info"]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert_eq!(run.findings(), vec!["evidence/uncovered-change warning src/a.js:3"]);
    let report = report(&run);
    assert_eq!(rows(&report), vec!["lib/b.js 2/1/1", "src/a.js 5/4/3"]);
    assert!(
        run.notices()
            .iter()
            .any(|n| n == "coverage/lcov.info (LCOV): 2 file(s) found here, 1 not (the first: src/gone.js)"),
        "{:?}",
        run.notices()
    );
    // The report is not a change of its own.
    assert_eq!(report.summary.files, 2, "{:?}", run.notices());
}

#[test]
fn cobertura_with_a_foreign_windows_source_root_and_relative_names() {
    let repo = js_project();
    repo.write(
        "coverage.xml",
        r#"<?xml version="1.0" ?>
<coverage version="7.17.3" line-rate="0.5">
  <sources><source>D:\a\proj\proj\src</source><source>/ci/proj/lib</source></sources>
  <packages><package name="."><classes>
    <class name="a" filename="a.js"><methods/><lines>
      <line number="1" hits="3"/><line number="2" hits="3"/><line number="3" hits="0"/><line number="5" hits="3"/>
    </lines></class>
    <class name="b" filename="b.js"><lines><line number="1" hits="0"/><line number="3" hits="0"/></lines></class>
  </classes></package></packages>
</coverage>"#,
    );
    let run = evidence_with(&repo, &["coverage.xml"]);
    assert_eq!(
        run.findings(),
        vec![
            "evidence/uncovered-change warning lib/b.js:3",
            "evidence/uncovered-change warning src/a.js:3"
        ],
        "{}",
        run.stdout
    );
    assert_eq!(rows(&report(&run)), vec!["lib/b.js 2/1/0", "src/a.js 5/4/3"]);
}

#[test]
fn coverage_py_json_with_windows_names_and_two_reports_merged() {
    let repo = js_project();
    // One report ran a.js line 3, the other did not list it: covered by either counts.
    repo.write(
        "unit.json",
        r#"{"meta": {"format": 3, "version": "7.17.3"}, "files": {
            "src\\a.js": {"executed_lines": [1, 2, 5], "missing_lines": [3], "excluded_lines": [4]}}}"#,
    );
    repo.write(
        "e2e.json",
        r#"{"meta": {"format": 3}, "files": {".\\src\\a.js": {"executed_lines": [3], "missing_lines": []}}}"#,
    );
    let run = evidence_with(&repo, &["unit.json", "e2e.json"]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(run.findings().is_empty(), "{:?}", run.findings());
    let report = report(&run);
    assert_eq!(rows(&report), vec!["src/a.js 5/4/4"]);
    // b.js is JavaScript the reports cover, changed, and in neither.
    assert!(
        run.notices()
            .iter()
            .any(|n| n.starts_with("changed but in no coverage report, so not measured: lib/b.js")),
        "{:?}",
        run.notices()
    );
    assert_eq!(report.coverage.unwrap().not_measured, vec!["lib/b.js"]);
}

#[test]
fn a_stale_report_warns_and_is_not_used_and_blocks_under_a_threshold() {
    let repo = js_project();
    repo.write("coverage.lcov", "SF:src/a.js\nDA:1,1\nDA:2,0\nend_of_record\n");
    repo.age("coverage.lcov", 3600);
    let run = evidence_with(&repo, &["coverage.lcov"]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert_eq!(run.findings(), vec!["evidence/stale-coverage warning coverage.lcov:0"]);
    assert!(
        run.notices()
            .iter()
            .any(|n| n.contains("every coverage report is stale"))
    );
    assert!(report(&run).coverage.is_none());

    let run = green(
        &repo,
        &[
            "--base",
            "HEAD",
            "--coverage",
            "coverage.lcov",
            "--min-changed-coverage",
            "50",
        ],
    );
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    insta::assert_snapshot!(run.snapshot(&repo));
}

#[test]
fn red_tests_leave_coverage_unmeasured() {
    let repo = js_project();
    repo.write("coverage.lcov", "SF:src/a.js\nDA:2,0\nend_of_record\n");
    let tests = fake_tests(1, 1);
    let run = repo.run(&[
        "evidence",
        "--format",
        "json",
        "--test-command",
        &tests,
        "--coverage",
        "coverage.lcov",
    ]);
    assert_eq!(run.code, 1);
    assert_eq!(run.findings(), vec!["evidence/tests-failed error -:0"]);
    assert!(
        run.notices()
            .iter()
            .any(|n| n == "changed-line coverage not measured: the tests are not green")
    );
}

#[test]
fn bad_reports_are_exit_2_naming_the_file_and_the_fix() {
    let repo = js_project();
    let cases: &[(&str, &str, &str)] = &[
        (
            "missing.lcov",
            "",
            "could not read coverage report missing.lcov: write it in the test run",
        ),
        ("empty.lcov", "\n", "coverage report empty.lcov: the file is empty"),
        (
            "bad.lcov",
            "SF:src/a.js\nDA:two,1\n",
            "coverage report bad.lcov: line 2: `DA:two,1` is not `DA:<line>,<hits>`",
        ),
        (
            "bad.xml",
            "<coverage><class filename='a.js'>",
            "coverage report bad.xml: invalid XML",
        ),
        (
            "junit.xml",
            "<testsuite/>",
            "root <testsuite> is not a Cobertura report",
        ),
        ("istanbul.json", "{\"/w/a.js\": {\"s\": {}}}", "use the `lcov` reporter"),
        (
            "other.lcov",
            "SF:/elsewhere/nothing.rs\nDA:1,1\n",
            "none of its 1 file(s) is in this repository",
        ),
    ];
    for (name, content, expected) in cases {
        if !content.is_empty() {
            repo.write(name, content);
        }
        let run = evidence_with(&repo, &[name]);
        assert_eq!(run.code, 2, "{name}: {}{}", run.stdout, run.stderr);
        assert!(run.stderr.contains(expected), "{name}: {}", run.stderr);
        assert_eq!(run.stderr.lines().count(), 1, "{name}: one line: {}", run.stderr);
    }
    for (args, expected) in [
        (
            &["--min-changed-coverage", "120", "--coverage", "x"][..],
            "is not a percentage",
        ),
        (&["--min-changed-coverage", "50"][..], "no coverage report is"),
    ] {
        let run = green(&repo, args);
        assert_eq!(run.code, 2, "{}", run.stderr);
        assert!(run.stderr.contains(expected), "{}", run.stderr);
    }
}

#[test]
fn an_allowed_uncovered_line_is_suppressed_with_its_reason() {
    let repo = js_project();
    repo.write(
        "src/a.js",
        "export function a(x) {\n  // loki-gate: allow(evidence/uncovered-change) needs a real device\n  if (x) {\n    return 1;\n  }\n  return 0;\n}\n",
    );
    std::thread::sleep(std::time::Duration::from_millis(20));
    repo.write(
        "coverage.lcov",
        "SF:src/a.js\nDA:1,1\nDA:3,0\nDA:4,0\nDA:6,1\nend_of_record\n",
    );
    let run = evidence_with(&repo, &["coverage.lcov"]);
    assert_eq!(run.code, 0, "{}", run.stdout);
    // The change added the suppression: it applies in a run by hand, and a
    // warning says CI will not take it from an untrusted hand.
    assert_eq!(run.findings(), vec!["meta/waiver-added warning src/a.js:2"]);
    let report = report(&run);
    assert_eq!(report.summary.suppressed, 1);
    let waiver = &report.waivers[0];
    assert_eq!(
        (waiver.rules[0].as_str(), waiver.status.as_str()),
        ("evidence/uncovered-change", "warned")
    );
    assert_eq!(waiver.findings.len(), 1);
}

#[test]
fn only_the_changed_lines_since_base_count_and_the_text_table_shows_them() {
    let repo = js_project();
    repo.commit("change");
    // --base HEAD: nothing changed since; --base HEAD~1: the change.
    repo.write(
        "coverage.lcov",
        "SF:src/a.js\nDA:1,1\nDA:2,1\nDA:3,0\nDA:5,1\nend_of_record\n",
    );
    let run = green(
        &repo,
        &["--base", "HEAD", "--coverage", "coverage.lcov", "--format", "json"],
    );
    assert!(run.findings().is_empty(), "{}", run.stdout);
    assert_eq!(report(&run).coverage.unwrap().executable, 0);
    let run = green(&repo, &["--base", "HEAD~1", "--coverage", "coverage.lcov"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    insta::assert_snapshot!(run.snapshot(&repo));
}
