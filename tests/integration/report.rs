//! Every output format, snapshotted, and the machine formats parsed back.

use loki_gate::report::Outcome;
use loki_gate::report::json::GateJson;
use serde_sarif::sarif::Sarif;

use crate::support::{TestRepo, fake_tests};

/// A blocked run: red tests, with failures named.
fn blocked(format: &str) -> (TestRepo, crate::support::Run) {
    let repo = TestRepo::new();
    repo.run(&["evidence", "start"]);
    repo.write("src/lib.rs", "pub fn f() {}\n");
    let run = repo.run(&["evidence", "--format", format, "--test-command", &fake_tests(1, 2)]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    (repo, run)
}

#[test]
fn text() {
    let (repo, run) = blocked("text");
    insta::assert_snapshot!(run.snapshot(&repo));
}

#[test]
fn json_snapshot_and_parse_back() {
    let (repo, run) = blocked("json");
    insta::assert_snapshot!(run.snapshot(&repo));
    let report: GateJson = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(report.version, 1);
    assert_eq!(report.tool.name, "loki-gate");
    assert_eq!(report.gate, "evidence");
    assert_eq!(report.outcome, Outcome::Blocked);
    assert_eq!(
        (report.summary.errors, report.summary.warnings, report.summary.files),
        (1, 0, 1)
    );
    let f = &report.findings[0];
    assert_eq!(f.rule, "evidence/tests-failed");
    assert_eq!(f.fingerprint.len(), 64);
    assert!(f.help.as_deref().unwrap().starts_with("fix the failing tests"));
}

/// A run whose finding is in a file: results older than the last change.
fn stale_results_repo() -> TestRepo {
    let repo = TestRepo::new();
    repo.run(&["evidence", "start"]);
    repo.write("r.xml", "<testsuite><testcase name='a'/></testsuite>");
    repo.age("r.xml", 600);
    repo.write("a.py", "x = 1\n");
    repo
}

#[test]
fn json_for_a_located_finding_has_every_field() {
    let repo = stale_results_repo();
    let run = repo.run(&["evidence", "--format", "json", "--results", "r.xml"]);
    let value: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    let f = &value["findings"][0];
    for key in [
        "rule",
        "severity",
        "message",
        "path",
        "line",
        "column",
        "end_line",
        "end_column",
        "help",
        "notes",
        "related",
        "fingerprint",
    ] {
        assert!(f.get(key).is_some(), "{key} missing from {f}");
    }
    assert_eq!(f["path"], "r.xml");
    assert_eq!(f["severity"], "error");
}

#[test]
fn sarif_is_2_1_0_with_rules_and_partial_fingerprints() {
    let (repo, run) = blocked("sarif");
    insta::assert_snapshot!(run.snapshot(&repo));
    let sarif: Sarif = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(sarif.version, serde_json::json!("2.1.0"));
    let run0 = &sarif.runs[0];
    let rules = run0.tool.driver.rules.as_ref().unwrap();
    let ids: Vec<_> = rules.iter().map(|r| r.id.as_str()).collect();
    assert!(ids.contains(&"evidence/tests-failed") && ids.contains(&"evidence/empty-diff"));
    let results = run0.results.as_ref().unwrap();
    assert_eq!(results.len(), 1);
    let r = &results[0];
    assert_eq!(r.rule_id.as_deref(), Some("evidence/tests-failed"));
    let index = r.rule_index.unwrap() as usize;
    assert_eq!(rules[index].id, "evidence/tests-failed");
    assert_eq!(r.partial_fingerprints.as_ref().unwrap()["lokiGate/v1"].len(), 64);
    // Every rule carries the fields GitHub shows: a short description, help and a default level.
    for rule in rules {
        assert!(rule.short_description.is_some() && rule.help.is_some() && rule.default_configuration.is_some());
    }
}

#[test]
fn sarif_locations_for_findings_in_files() {
    let repo = stale_results_repo();
    let run = repo.run(&["evidence", "--format", "sarif", "--results", "r.xml"]);
    let sarif: Sarif = serde_json::from_str(&run.stdout).unwrap();
    let result = &sarif.runs[0].results.as_ref().unwrap()[0];
    let location = result.locations.as_ref().unwrap()[0]
        .physical_location
        .as_ref()
        .unwrap();
    let artifact = location.artifact_location.as_ref().unwrap();
    assert_eq!(artifact.uri.as_deref(), Some("r.xml"));
    assert_eq!(artifact.uri_base_id.as_deref(), Some("%SRCROOT%"));
}

#[test]
fn github_workflow_commands() {
    let (repo, run) = blocked("github");
    insta::assert_snapshot!(run.snapshot(&repo));
    assert!(
        run.stdout
            .starts_with("::error title=loki-gate evidence/tests-failed::")
    );
    assert_eq!(run.stdout.lines().count(), 1, "newlines in the message are escaped");
}

#[test]
fn markdown_comment_body_has_the_marker() {
    let (repo, run) = blocked("markdown");
    insta::assert_snapshot!(run.snapshot(&repo));
    assert!(run.stdout.starts_with("<!-- loki-gate -->\n"));
}

#[test]
fn every_format_for_a_passing_run() {
    let repo = TestRepo::new();
    repo.run(&["evidence", "start"]);
    repo.write("a.txt", "a\n");
    for format in ["text", "json", "sarif", "github", "markdown"] {
        let run = repo.run(&["evidence", "--format", format, "--test-command", &fake_tests(2, 0)]);
        assert_eq!(run.code, 0, "{format}: {}", run.stderr);
        match format {
            "json" => assert_eq!(
                serde_json::from_str::<GateJson>(&run.stdout).unwrap().outcome,
                Outcome::Pass
            ),
            "sarif" => assert!(
                serde_json::from_str::<Sarif>(&run.stdout).unwrap().runs[0]
                    .results
                    .as_ref()
                    .unwrap()
                    .is_empty()
            ),
            "github" => assert_eq!(run.stdout, ""),
            "markdown" => assert!(run.stdout.contains("✅ passed")),
            _ => assert!(run.stdout.contains("evidence: passed"), "{}", run.stdout),
        }
    }
}

/// `--format junit` is valid JUnit XML by the schema Jenkins' xunit plugin
/// publishes (`.ci/run` takes it from pytest's sdist, which checks pytest's
/// own output with it, into target/schemas/), checked with xmllint; and it
/// says what the report says: one suite per gate, a failing case per error.
#[test]
fn junit_output_is_valid_by_the_published_schema_and_counts_the_findings() {
    let xsd = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target/schemas/junit-10.xsd");
    assert!(
        xsd.is_file(),
        "{} is missing: .ci/run downloads it (pytest's sdist, testing/example_scripts/junit-10.xsd)",
        xsd.display()
    );
    let repo = TestRepo::shop();
    repo.write(
        "tests/test_shop.py",
        "from shop import total\n\n\ndef test_total():\n    r = total([1])\n    assert r == r\n\n\ndef test_more():\n    assert True  # <&> \"quoted\"\n",
    );
    let junit_to = |file: &str| {
        let out = repo.path().join(file);
        let run = repo.run(&[
            "check",
            "--base",
            "HEAD",
            "--gates",
            "mock,docs,mutation",
            "--format",
            "junit",
            "-o",
            out.to_str().unwrap(),
        ]);
        assert_eq!(run.code, 1, "{}", run.stderr);
        out
    };
    let out = junit_to("report.xml");
    let lint = std::process::Command::new("xmllint")
        .args(["--noout", "--schema"])
        .arg(&xsd)
        .arg(&out)
        .output()
        .expect("xmllint runs (apt-get install libxml2-utils, as .ci/run does)");
    assert!(lint.status.success(), "{}", String::from_utf8_lossy(&lint.stderr));
    let text = std::fs::read_to_string(&out).unwrap();
    let doc = roxmltree::Document::parse(&text).unwrap();
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "testsuites");
    let suites: Vec<_> = root.children().filter(|n| n.has_tag_name("testsuite")).collect();
    let names: Vec<&str> = suites.iter().map(|s| s.attribute("name").unwrap()).collect();
    assert_eq!(names, ["loki-gate.mock", "loki-gate.mutation", "loki-gate.docs"]);
    let mock = suites[0];
    assert_eq!(mock.attribute("failures"), Some("2"), "{text}");
    let failure = mock.descendants().find(|n| n.has_tag_name("failure")).unwrap();
    assert_eq!(failure.attribute("type"), Some("mock/tautological-assertion"));
    assert_eq!(root.attribute("failures"), Some("2"));
    // A gate without findings is one passing case.
    let docs = suites[2];
    assert_eq!(docs.attribute("tests"), Some("1"));
    assert_eq!(docs.attribute("failures"), Some("0"));
    // The same run gives the same bytes.
    assert_eq!(std::fs::read_to_string(junit_to("again.xml")).unwrap(), text);
}

/// `--format gitlab` holds what GitLab's Code Quality documentation
/// requires of each issue (GitLab publishes the fields, not a schema):
/// description, check_name, a fingerprint unique in the report, a severity
/// of info|minor|major|critical|blocker, location.path and
/// location.lines.begin.
#[test]
fn gitlab_code_quality_issues_have_every_required_field_and_unique_fingerprints() {
    let repo = TestRepo::shop();
    repo.write(
        "tests/test_shop.py",
        "from shop import total\n\n\ndef test_one():\n    total([1])\n    assert True\n\n\ndef test_two():\n    total([2])\n    assert True\n",
    );
    let run = repo.run(&["check", "--base", "HEAD", "--gates", "mock,docs", "--format", "gitlab"]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    let issues: Vec<serde_json::Value> = serde_json::from_str(&run.stdout).unwrap();
    assert!(issues.len() >= 2, "{}", run.stdout);
    let mut fingerprints = std::collections::BTreeSet::new();
    for issue in &issues {
        assert!(issue["description"].as_str().is_some_and(|d| !d.is_empty()), "{issue}");
        assert!(issue["check_name"].as_str().is_some_and(|c| c.contains('/')), "{issue}");
        assert!(
            ["info", "minor", "major", "critical", "blocker"].contains(&issue["severity"].as_str().unwrap()),
            "{issue}"
        );
        assert!(
            issue["location"]["path"].as_str().is_some_and(|p| !p.is_empty()),
            "{issue}"
        );
        assert!(
            issue["location"]["lines"]["begin"].as_u64().is_some_and(|l| l >= 1),
            "{issue}"
        );
        let fingerprint = issue["fingerprint"].as_str().unwrap().to_string();
        assert!(fingerprints.insert(fingerprint.clone()), "unique: {fingerprint}");
    }
    let tautologies: Vec<&serde_json::Value> = issues
        .iter()
        .filter(|i| i["check_name"] == "mock/tautological-assertion")
        .collect();
    assert_eq!(tautologies.len(), 2, "{}", run.stdout);
    assert_eq!(tautologies[0]["severity"], "major");
}

/// The PR comment shows a finding's help as written inside its code spans:
/// CommonMark prints `&lt;` literally there (issue 56).
#[test]
fn the_pr_comment_keeps_code_spans_as_written() {
    let repo = crate::support::TestRepo::new();
    repo.write("shop/__init__.py", "")
        .write("shop/cart.py", "def total(xs):\n    return sum(xs)\n")
        .write(
            "tests/test_cart.py",
            "from shop.cart import total\n\n\ndef test_total():\n    assert total([1]) == 1\n    assert total([]) == 0\n",
        );
    let base = repo.commit("base");
    repo.write("shop/cart.py", "def total(xs):\n    return sum(xs) + 1\n")
        .write(
            "tests/test_cart.py",
            "from shop.cart import total\n\n\ndef test_total():\n    assert total([1]) == 2\n",
        );
    repo.commit("change");
    let run = repo.run(&["check", "--base", &base, "--gates", "mutation", "--format", "markdown"]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stdout
            .contains("`Loki-Gate-Allow: mutation/assertion-deleted <reason>`"),
        "{}",
        run.stdout
    );
    assert!(!run.stdout.contains("&lt;reason&gt;"), "{}", run.stdout);
}
