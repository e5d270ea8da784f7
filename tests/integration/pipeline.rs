//! The shared pipeline every gate's findings go through: suppressions,
//! fingerprints, levels, baseline, outcome.

use std::time::Duration;

use loki_gate::baseline::Baseline;
use loki_gate::finding::{Finding, Severity};
use loki_gate::gates::evidence::rules::{NO_ANCHOR, STALE_RESULTS};
use loki_gate::gates::{GateOutput, Pipeline};
use loki_gate::report::Outcome;
use loki_gate::rule::{Level, Levels, Source};
use loki_gate::trust::{Judge, TrustAt};

use crate::support::TestRepo;

fn finish(
    repo: &TestRepo,
    levels: &Levels,
    baseline: Option<&Baseline>,
    findings: Vec<Finding>,
) -> loki_gate::report::GateReport {
    let root = repo.root();
    let judge = judge(repo);
    let pipeline = Pipeline {
        root: &root,
        levels,
        baseline,
        judge: &judge,
    };
    pipeline.finish(
        "evidence",
        GateOutput {
            findings,
            ..GateOutput::default()
        },
        Duration::ZERO,
    )
}

/// A judge as a run by hand at the repository's HEAD has one.
fn judge(repo: &TestRepo) -> Judge {
    let git = loki_gate::git::Repo::discover(&repo.root()).expect("a repository");
    Judge::open(
        &git,
        None,
        TrustAt::Head,
        false,
        &|_| None,
        loki_gate::gates::catalog(),
        &mut Vec::new(),
    )
    .expect("a judge")
    .0
}

fn at(line: u32) -> Finding {
    Finding::new(&STALE_RESULTS, "flagged").at("src/x.py", line, 1)
}

#[test]
fn a_suppression_with_a_reason_hides_the_finding_on_its_line_or_the_next() {
    let repo = TestRepo::new();
    repo.write(
        "src/x.py",
        "a = 1  # loki-gate: allow(evidence/stale-results) generated fixture\n# loki-gate: allow(evidence/stale-results) checked by hand\nb = 2\nc = 3\n",
    );
    // Committed: the suppressions are HEAD's, not the change's.
    repo.commit("suppressions");
    let report = finish(
        &repo,
        &Levels::new(loki_gate::gates::rules()),
        None,
        vec![at(1), at(3), at(4)],
    );
    assert_eq!(report.suppressed, 2);
    let rules: Vec<_> = report.findings.iter().map(|f| (f.rule.as_str(), f.line)).collect();
    assert_eq!(rules, vec![("evidence/stale-results", Some(4))]);
}

#[test]
fn suppressions_without_reason_or_matching_nothing_are_reported() {
    let repo = TestRepo::new();
    repo.write(
        "src/x.py",
        "a = 1  # loki-gate: allow(evidence/stale-results)\nb = 2\n\n\n# loki-gate: allow(evidence/stale-results) stale note\n",
    );
    repo.commit("suppressions");
    let report = finish(&repo, &Levels::new(loki_gate::gates::rules()), None, vec![at(1)]);
    let got: Vec<_> = report
        .findings
        .iter()
        .map(|f| (f.rule.as_str(), f.line, f.severity))
        .collect();
    assert_eq!(
        got,
        vec![
            ("evidence/stale-results", Some(1), Severity::Error),
            ("meta/invalid-suppression", Some(1), Severity::Warning),
            ("meta/unused-suppression", Some(5), Severity::Warning),
        ]
    );
    assert_eq!(report.outcome, Outcome::Blocked);
}

#[test]
fn fingerprints_survive_line_moves_so_baselines_keep_matching() {
    let repo = TestRepo::new();
    repo.write("src/x.py", "import os\nassert True\n");
    let before = finish(&repo, &Levels::new(loki_gate::gates::rules()), None, vec![at(2)]);
    let baseline = Baseline::from_findings(&before.findings);
    assert_eq!(before.findings[0].snippet, vec!["assert True"]);

    repo.write(
        "src/x.py",
        "import os\n\n\n# moved down\n    assert   True\nassert False\n",
    );
    let after = finish(
        &repo,
        &Levels::new(loki_gate::gates::rules()),
        Some(&baseline),
        vec![at(5), at(6)],
    );
    assert_eq!(after.baselined, 1, "the moved line is still known");
    let left: Vec<_> = after.findings.iter().map(|f| f.line).collect();
    assert_eq!(left, vec![Some(6)], "the new line is reported");
}

#[test]
fn levels_decide_severity_and_allow_hides() {
    let repo = TestRepo::new();
    let mut levels = Levels::new(loki_gate::gates::rules());
    let findings = || vec![Finding::new(&NO_ANCHOR, "no anchor")];
    assert_eq!(
        finish(&repo, &levels, None, findings()).findings[0].severity,
        Severity::Warning
    );
    levels.set("evidence/no-anchor", Level::Note, Source::Config);
    assert_eq!(
        finish(&repo, &levels, None, findings()).findings[0].severity,
        Severity::Note
    );
    levels.set("evidence", Level::Allow, Source::Cli);
    let report = finish(&repo, &levels, None, findings());
    assert!(report.findings.is_empty());
    assert_eq!(report.outcome, Outcome::Pass);
}

#[test]
fn an_inconclusive_gate_without_deny_findings_is_inconclusive() {
    let repo = TestRepo::new();
    let root = repo.root();
    let levels = Levels::new(loki_gate::gates::rules());
    let judge = judge(&repo);
    let pipeline = Pipeline {
        root: &root,
        levels: &levels,
        baseline: None,
        judge: &judge,
    };
    let out = GateOutput {
        findings: vec![Finding::new(&NO_ANCHOR, "x")],
        inconclusive: Some("why".into()),
        ..GateOutput::default()
    };
    assert_eq!(
        pipeline.finish("evidence", out, Duration::ZERO).outcome,
        Outcome::Inconclusive
    );
}
