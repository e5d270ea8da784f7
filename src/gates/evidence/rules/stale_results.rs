use crate::finding::Finding;
use crate::rule::{Level, RuleMeta};

pub const STALE_RESULTS: RuleMeta = RuleMeta {
    id: "evidence/stale-results",
    gate: "evidence",
    default_level: Level::Deny,
    summary: "the test results file is older than the last change, so it proves nothing about it",
    help: "run the tests again so the results file is written after the last change",
    doc: include_str!("stale-results.md"),
};

pub fn stale_results(results: &str, newest: &str, seconds: u64) -> Finding {
    Finding::new(
        &STALE_RESULTS,
        format!("test results {results} are {seconds}s older than the last change ({newest})"),
    )
    .in_file(results)
}
