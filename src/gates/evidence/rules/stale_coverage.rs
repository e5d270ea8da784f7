use crate::finding::Finding;
use crate::rule::{Level, RuleMeta};

pub const STALE_COVERAGE: RuleMeta = RuleMeta {
    id: "evidence/stale-coverage",
    gate: "evidence",
    default_level: Level::Warn,
    summary: "a coverage report is older than a file it covers, so its numbers are not used",
    help: "run the tests with coverage again after the last change, then run the gate",
    doc: include_str!("stale-coverage.md"),
};

/// The coverage report `report` is `seconds` older than `newest`, a file it
/// covers. With a threshold set it blocks: the threshold cannot be checked.
pub fn stale_coverage(report: &str, newest: &str, seconds: u64, threshold: bool) -> Finding {
    let mut finding = Finding::new(
        &STALE_COVERAGE,
        format!(
            "coverage report {report} is {seconds}s older than {newest}, a file it covers: its numbers are not used"
        ),
    )
    .in_file(report);
    if threshold {
        finding.proposed = Some(Level::Deny);
        finding = finding.note("gates.evidence.min-changed-coverage is set, and a stale report cannot show it is met");
    }
    finding
}
