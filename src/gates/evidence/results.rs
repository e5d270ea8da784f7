//! Reading test results: a test runner's console output, or a report file
//! (JUnit XML, pytest-json-report, `go test -json`, libtest JSON, or saved
//! console output). The format is detected from the content.

use std::collections::BTreeSet;
use std::sync::LazyLock;

use anyhow::{Result, anyhow};
use regex::Regex;

/// What a test run did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TestRun {
    pub passed: u64,
    pub failed: u64,
    pub skipped: u64,
    /// Ids of failed tests, when the format names them.
    pub failing: Vec<String>,
    /// The format recognised, e.g. `cargo test`, `junit`.
    pub format: &'static str,
}

impl TestRun {
    pub fn executed(&self) -> u64 {
        self.passed + self.failed
    }
}

fn re(pattern: &str) -> Regex {
    Regex::new(pattern).expect("valid built-in pattern")
}

static LIBTEST_RESULT: LazyLock<Regex> =
    LazyLock::new(|| re(r"^test result: \w+\. (\d+) passed; (\d+) failed; (\d+) ignored"));
static LIBTEST_FAILED: LazyLock<Regex> = LazyLock::new(|| re(r"^test (\S+) \.\.\. FAILED$"));
static NEXTEST_SUMMARY: LazyLock<Regex> = LazyLock::new(|| re(r"^\s*Summary \[.*\] +(\d+) tests? run: (.*)$"));
static NEXTEST_FAILED: LazyLock<Regex> = LazyLock::new(|| re(r"^\s*(?:FAIL|TIMEOUT|SIGSEGV|SIGABRT) \[.*?\] (.+)$"));
static PYTEST_SUMMARY: LazyLock<Regex> = LazyLock::new(|| {
    re(r"^=*\s*((?:\d+ (?:passed|failed|skipped|xfailed|xpassed|errors?|deselected|warnings?)(?:, )?)+) in [\d.]+s")
});
static PYTEST_NONE: LazyLock<Regex> = LazyLock::new(|| re(r"^=*\s*no tests ran\b"));
static PYTEST_FAILED: LazyLock<Regex> = LazyLock::new(|| re(r"^(?:FAILED|ERROR) (\S+)"));
static JEST_TESTS: LazyLock<Regex> = LazyLock::new(|| re(r"^Tests:\s+(.*\d+ total)"));
static VITEST_TESTS: LazyLock<Regex> = LazyLock::new(|| re(r"^\s*Tests\s+(.*)\((\d+)\)\s*$"));
static MOCHA_PASSING: LazyLock<Regex> = LazyLock::new(|| re(r"^\s*(\d+) passing\b"));
static MOCHA_FAILING: LazyLock<Regex> = LazyLock::new(|| re(r"^\s*(\d+) failing\b"));
static MOCHA_PENDING: LazyLock<Regex> = LazyLock::new(|| re(r"^\s*(\d+) pending\b"));
static NODE_COUNT: LazyLock<Regex> = LazyLock::new(|| re(r"^(?:#|ℹ) (pass|fail|skipped|todo) (\d+)$"));
static GO_VERBOSE: LazyLock<Regex> = LazyLock::new(|| re(r"^\s*--- (PASS|FAIL|SKIP): (\S+)"));
static GO_PACKAGE: LazyLock<Regex> = LazyLock::new(|| re(r"^(ok|FAIL)\s+\S+\s+(?:[\d.]+s|\(cached\))(.*)$"));
static PLAIN: LazyLock<Regex> = LazyLock::new(|| re(r"^(?:\w+: )?(\d+) passed, (\d+) failed(?:, (\d+) skipped)?\s*$"));
static ANSI: LazyLock<Regex> = LazyLock::new(|| re(r"\x1b\[[0-9;]*[A-Za-z]"));
static COUNT_WORD: LazyLock<Regex> = LazyLock::new(|| re(r"(\d+) (\w+)"));

/// Recognise a test runner's summary in its console output.
pub fn parse_output(text: &str) -> Option<TestRun> {
    let clean = ANSI.replace_all(text, "");
    let lines: Vec<&str> = clean.lines().collect();
    parse_libtest(&lines)
        .or_else(|| parse_nextest(&lines))
        .or_else(|| parse_pytest(&lines))
        .or_else(|| parse_jest(&lines))
        .or_else(|| parse_vitest(&lines))
        .or_else(|| parse_go(&lines))
        .or_else(|| parse_node(&lines))
        .or_else(|| parse_mocha(&lines))
        .or_else(|| parse_plain(&lines))
}

fn num(s: &str) -> u64 {
    s.parse().unwrap_or(0)
}

fn parse_libtest(lines: &[&str]) -> Option<TestRun> {
    let mut run = TestRun {
        format: "cargo test",
        ..TestRun::default()
    };
    let mut seen = false;
    for line in lines {
        if let Some(c) = LIBTEST_RESULT.captures(line) {
            seen = true;
            run.passed += num(&c[1]);
            run.failed += num(&c[2]);
            run.skipped += num(&c[3]);
        } else if let Some(c) = LIBTEST_FAILED.captures(line) {
            run.failing.push(c[1].to_string());
        }
    }
    seen.then_some(run)
}

/// Count a summary such as `1 failed, 3 passed, 2 skipped`. Every runner we
/// read uses words from the same vocabulary; `xfailed` is an expected failure
/// (a pass) and `xpassed` an unexpected pass (a failure), as pytest means them.
fn tally(format: &'static str, list: &str) -> TestRun {
    let mut run = TestRun {
        format,
        ..TestRun::default()
    };
    for c in COUNT_WORD.captures_iter(list) {
        let n = num(&c[1]);
        match &c[2] {
            "passed" | "passing" | "xfailed" => run.passed += n,
            "failed" | "failing" | "error" | "errors" | "xpassed" | "timed" => run.failed += n,
            "skipped" | "pending" | "todo" | "ignored" => run.skipped += n,
            _ => {}
        }
    }
    run
}

/// The last line matching `summary`, tallied from capture group `group`.
fn last_summary(lines: &[&str], summary: &Regex, group: usize, format: &'static str) -> Option<TestRun> {
    let c = lines.iter().rev().find_map(|l| summary.captures(l))?;
    Some(tally(format, &c[group]))
}

fn parse_nextest(lines: &[&str]) -> Option<TestRun> {
    let mut run = last_summary(lines, &NEXTEST_SUMMARY, 2, "cargo nextest")?;
    run.failing = lines
        .iter()
        .filter_map(|l| NEXTEST_FAILED.captures(l).map(|c| c[1].trim().to_string()))
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    Some(run)
}

fn parse_pytest(lines: &[&str]) -> Option<TestRun> {
    let Some(mut run) = last_summary(lines, &PYTEST_SUMMARY, 1, "pytest") else {
        return lines
            .iter()
            .any(|l| PYTEST_NONE.is_match(l))
            .then(|| tally("pytest", ""));
    };
    run.failing = lines
        .iter()
        .filter_map(|l| PYTEST_FAILED.captures(l).map(|c| c[1].to_string()))
        .collect();
    Some(run)
}

fn parse_jest(lines: &[&str]) -> Option<TestRun> {
    last_summary(lines, &JEST_TESTS, 1, "jest")
}

fn parse_vitest(lines: &[&str]) -> Option<TestRun> {
    last_summary(lines, &VITEST_TESTS, 1, "vitest")
}

fn parse_go(lines: &[&str]) -> Option<TestRun> {
    let mut run = TestRun {
        format: "go test",
        ..TestRun::default()
    };
    let mut verbose = false;
    for line in lines {
        if let Some(c) = GO_VERBOSE.captures(line) {
            verbose = true;
            match &c[1] {
                "PASS" => run.passed += 1,
                "FAIL" => {
                    run.failed += 1;
                    run.failing.push(c[2].to_string());
                }
                _ => run.skipped += 1,
            }
        }
    }
    if verbose {
        return Some(run);
    }
    // Without -v, go prints one line per package: count a package with tests as one.
    let mut seen = false;
    for line in lines {
        if let Some(c) = GO_PACKAGE.captures(line) {
            seen = true;
            let tail = &c[2];
            match &c[1] {
                "ok" if tail.contains("[no tests to run]") => {}
                "ok" => run.passed += 1,
                _ => run.failed += 1,
            }
        }
    }
    seen.then_some(run)
}

fn parse_node(lines: &[&str]) -> Option<TestRun> {
    let mut run = TestRun {
        format: "node --test",
        ..TestRun::default()
    };
    let mut seen = false;
    for line in lines {
        if let Some(c) = NODE_COUNT.captures(line.trim()) {
            seen = true;
            match &c[1] {
                "pass" => run.passed = num(&c[2]),
                "fail" => run.failed = num(&c[2]),
                _ => run.skipped += num(&c[2]),
            }
        }
    }
    seen.then_some(run)
}

fn parse_mocha(lines: &[&str]) -> Option<TestRun> {
    let passing = lines.iter().rev().find_map(|l| MOCHA_PASSING.captures(l))?;
    let mut run = TestRun {
        format: "mocha",
        passed: num(&passing[1]),
        ..TestRun::default()
    };
    run.failed = lines
        .iter()
        .rev()
        .find_map(|l| MOCHA_FAILING.captures(l))
        .map_or(0, |c| num(&c[1]));
    run.skipped = lines
        .iter()
        .rev()
        .find_map(|l| MOCHA_PENDING.captures(l))
        .map_or(0, |c| num(&c[1]));
    Some(run)
}

fn parse_plain(lines: &[&str]) -> Option<TestRun> {
    let c = lines.iter().rev().find_map(|l| PLAIN.captures(l.trim()))?;
    Some(TestRun {
        passed: num(&c[1]),
        failed: num(&c[2]),
        skipped: c.get(3).map_or(0, |m| num(m.as_str())),
        failing: Vec::new(),
        format: "summary line",
    })
}

/// Read a results file, detecting its format from the content.
pub fn parse_file(bytes: &[u8]) -> Result<TestRun> {
    let text = String::from_utf8_lossy(bytes);
    let trimmed = text.trim_start_matches('\u{feff}').trim_start();
    if trimmed.starts_with('<') {
        return parse_junit(trimmed);
    }
    if trimmed.starts_with('{') {
        match serde_json::from_str::<serde_json::Value>(trimmed) {
            Ok(value) if value.get("summary").is_some() && value.get("tests").is_some() => {
                return parse_pytest_json(&value);
            }
            // serde_json reads at most 128 levels deep (issue 54).
            Err(e) if e.to_string().starts_with("recursion limit exceeded") => {
                return Err(anyhow!(
                    "JSON nested more than 128 levels deep ({e}): not a report loki-gate reads"
                ));
            }
            _ => {}
        }
        if let Some(run) = parse_json_lines(trimmed) {
            return Ok(run);
        }
    }
    parse_output(&text).ok_or_else(|| {
        anyhow!("unrecognised format: expected JUnit XML, a pytest-json-report file, `go test -json` or libtest JSON lines, or cargo/nextest/pytest console output")
    })
}

fn parse_junit(text: &str) -> Result<TestRun> {
    let doc = super::xml::parse(text, roxmltree::ParsingOptions::default(), "JUnit XML").map_err(|e| anyhow!(e))?;
    let mut run = TestRun {
        format: "junit",
        ..TestRun::default()
    };
    let mut saw_suite = false;
    for node in doc.descendants().filter(|n| n.is_element()) {
        match node.tag_name().name() {
            "testsuite" | "testsuites" => saw_suite = true,
            "testcase" => {
                let child = |name: &str| node.children().any(|c| c.is_element() && c.tag_name().name() == name);
                let id = match (node.attribute("classname"), node.attribute("name")) {
                    (Some(class), Some(name)) if !class.is_empty() => format!("{class}::{name}"),
                    (_, Some(name)) => name.to_string(),
                    _ => "(unnamed)".to_string(),
                };
                if child("failure") || child("error") {
                    run.failed += 1;
                    run.failing.push(id);
                } else if child("skipped") {
                    run.skipped += 1;
                } else {
                    run.passed += 1;
                }
            }
            _ => {}
        }
    }
    if !saw_suite {
        return Err(anyhow!("XML without <testsuite> or <testsuites>: not a JUnit report"));
    }
    Ok(run)
}

fn parse_pytest_json(value: &serde_json::Value) -> Result<TestRun> {
    let summary = &value["summary"];
    let get = |k: &str| summary.get(k).and_then(serde_json::Value::as_u64).unwrap_or(0);
    let mut run = TestRun {
        passed: get("passed") + get("xfailed"),
        failed: get("failed") + get("error") + get("xpassed"),
        skipped: get("skipped"),
        failing: Vec::new(),
        format: "pytest-json-report",
    };
    if let Some(tests) = value["tests"].as_array() {
        for t in tests {
            let outcome = t["outcome"].as_str().unwrap_or("");
            if matches!(outcome, "failed" | "error") {
                run.failing
                    .push(t["nodeid"].as_str().unwrap_or("(unnamed)").to_string());
            }
        }
    }
    Ok(run)
}

/// `go test -json` (Action/Test) or libtest JSON (type/event/name) lines.
fn parse_json_lines(text: &str) -> Option<TestRun> {
    let mut run = TestRun::default();
    let mut recognised = false;
    for line in text.lines().filter(|l| l.trim_start().starts_with('{')) {
        let Ok(v) = serde_json::from_str::<serde_json::Value>(line) else {
            continue;
        };
        if let (Some(action), Some(test)) = (v["Action"].as_str(), v["Test"].as_str()) {
            recognised = true;
            run.format = "go test -json";
            let id = match v["Package"].as_str() {
                Some(pkg) => format!("{pkg}.{test}"),
                None => test.to_string(),
            };
            match action {
                "pass" => run.passed += 1,
                "fail" => {
                    run.failed += 1;
                    run.failing.push(id);
                }
                "skip" => run.skipped += 1,
                _ => {}
            }
        } else if v["Action"].is_string() {
            recognised = true;
            run.format = "go test -json";
        } else if v["type"].as_str() == Some("test") {
            recognised = true;
            run.format = "libtest json";
            let name = v["name"].as_str().unwrap_or("(unnamed)");
            match v["event"].as_str() {
                Some("ok") => run.passed += 1,
                Some("failed" | "timeout") => {
                    run.failed += 1;
                    run.failing.push(name.to_string());
                }
                Some("ignored") => run.skipped += 1,
                _ => {}
            }
        }
    }
    recognised.then_some(run)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn counts(r: &TestRun) -> (u64, u64, u64, &'static str) {
        (r.passed, r.failed, r.skipped, r.format)
    }

    #[test]
    fn cargo_test_sums_every_binary_and_names_failures() {
        let out = "running 2 tests\ntest a::ok ... ok\ntest a::bad ... FAILED\n\ntest result: FAILED. 1 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s\n\nrunning 3 tests\ntest result: ok. 3 passed; 0 failed; 2 ignored; 0 measured; 0 filtered out\n";
        let r = parse_output(out).unwrap();
        assert_eq!(counts(&r), (4, 1, 2, "cargo test"));
        assert_eq!(r.failing, vec!["a::bad"]);
    }

    #[test]
    fn cargo_test_with_zero_tests_is_recognised_as_zero() {
        let r = parse_output(
            "running 0 tests\n\ntest result: ok. 0 passed; 0 failed; 0 ignored; 0 measured; 5 filtered out\n",
        )
        .unwrap();
        assert_eq!(r.executed(), 0);
    }

    #[test]
    fn nextest_summary() {
        let out = "        FAIL [   0.004s] probe::tests::it_fails\n------------\n     Summary [   0.010s] 6 tests run: 5 passed, 1 failed, 2 skipped\n";
        let r = parse_output(out).unwrap();
        assert_eq!(counts(&r), (5, 1, 2, "cargo nextest"));
        assert_eq!(r.failing, vec!["probe::tests::it_fails"]);
    }

    #[test]
    fn pytest_summaries() {
        let r = parse_output(
            "FAILED tests/test_a.py::test_x - AssertionError\n===== 1 failed, 3 passed, 1 skipped in 0.12s =====\n",
        )
        .unwrap();
        assert_eq!(counts(&r), (3, 1, 1, "pytest"));
        assert_eq!(r.failing, vec!["tests/test_a.py::test_x"]);
        assert_eq!(parse_output("4 passed in 0.01s\n").unwrap().passed, 4);
        let none = parse_output("==== no tests ran in 0.01s ====\n").unwrap();
        assert_eq!((none.executed(), none.format), (0, "pytest"));
    }

    #[test]
    fn javascript_runners() {
        assert_eq!(
            counts(&parse_output("Tests:       1 failed, 3 passed, 4 total\n").unwrap()),
            (3, 1, 0, "jest")
        );
        assert_eq!(
            counts(&parse_output(" Test Files  1 passed (1)\n      Tests  1 failed | 2 passed (3)\n").unwrap()),
            (2, 1, 0, "vitest")
        );
        assert_eq!(
            counts(&parse_output("  3 passing (10ms)\n  1 failing\n").unwrap()),
            (3, 1, 0, "mocha")
        );
        assert_eq!(
            counts(&parse_output("# tests 2\n# pass 2\n# fail 0\n").unwrap()),
            (2, 0, 0, "node --test")
        );
    }

    #[test]
    fn go_test_verbose_and_package_lines() {
        let r = parse_output("=== RUN   TestA\n--- PASS: TestA (0.00s)\n--- FAIL: TestB (0.00s)\nFAIL\n").unwrap();
        assert_eq!(counts(&r), (1, 1, 0, "go test"));
        assert_eq!(r.failing, vec!["TestB"]);
        let r = parse_output("ok  \texample.com/a\t0.002s\nok  \texample.com/b\t0.001s [no tests to run]\n").unwrap();
        assert_eq!(r.passed, 1);
    }

    #[test]
    fn plain_summary_line_and_unknown_output() {
        assert_eq!(
            counts(&parse_output("all: 7 passed, 0 failed\n").unwrap()),
            (7, 0, 0, "summary line")
        );
        assert_eq!(parse_output("Everything is fine!\n"), None);
    }

    #[test]
    fn junit_xml_counts_failures_errors_and_skips() {
        let xml = r#"<?xml version="1.0"?><testsuites><testsuite name="s">
            <testcase classname="m.T" name="ok"/>
            <testcase classname="m.T" name="bad"><failure message="x"/></testcase>
            <testcase classname="m.T" name="boom"><error/></testcase>
            <testcase name="later"><skipped/></testcase></testsuite></testsuites>"#;
        let r = parse_file(xml.as_bytes()).unwrap();
        assert_eq!(counts(&r), (1, 2, 1, "junit"));
        assert_eq!(r.failing, vec!["m.T::bad", "m.T::boom"]);
        assert!(parse_file(b"<html></html>").is_err());
        assert!(parse_file(b"<testsuite>").is_err());
    }

    #[test]
    fn pytest_json_report_and_go_json() {
        let json = r#"{"summary":{"passed":2,"failed":1,"total":3},"tests":[{"nodeid":"t.py::a","outcome":"failed"}]}"#;
        let r = parse_file(json.as_bytes()).unwrap();
        assert_eq!(counts(&r), (2, 1, 0, "pytest-json-report"));
        assert_eq!(r.failing, vec!["t.py::a"]);
        let go = "{\"Action\":\"run\",\"Package\":\"p\",\"Test\":\"TestA\"}\n{\"Action\":\"pass\",\"Package\":\"p\",\"Test\":\"TestA\"}\n{\"Action\":\"fail\",\"Package\":\"p\",\"Test\":\"TestB\"}\n{\"Action\":\"fail\",\"Package\":\"p\"}\n";
        let r = parse_file(go.as_bytes()).unwrap();
        assert_eq!(counts(&r), (1, 1, 0, "go test -json"));
        assert_eq!(r.failing, vec!["p.TestB"]);
        let lib = "{ \"type\": \"suite\", \"event\": \"started\", \"test_count\": 2 }\n{ \"type\": \"test\", \"event\": \"ok\", \"name\": \"a\" }\n{ \"type\": \"test\", \"event\": \"failed\", \"name\": \"b\" }\n";
        assert_eq!(counts(&parse_file(lib.as_bytes()).unwrap()), (1, 1, 0, "libtest json"));
    }
}
