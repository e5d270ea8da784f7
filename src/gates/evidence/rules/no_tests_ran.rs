use crate::finding::Finding;
use crate::rule::{Level, RuleMeta};

pub const NO_TESTS_RAN: RuleMeta = RuleMeta {
    id: "evidence/no-tests-ran",
    gate: "evidence",
    default_level: Level::Deny,
    summary: "the tests \"passed\" without running a single test, or the count could not be read",
    help: "make sure the test command runs the tests (check filters and paths), or pass --results with a report",
    doc: include_str!("no-tests-ran.md"),
};

/// The run passed but executed nothing, or its count could not be read (`unknown`).
pub fn no_tests_ran(source: &str, unknown: bool) -> Finding {
    if unknown {
        Finding::new(&NO_TESTS_RAN, format!("{source} passed, but no test count could be found in its output"))
            .note("recognised summaries: cargo test, cargo nextest, pytest, go test, jest, vitest, mocha, node --test, and a plain `N passed, N failed` line")
    } else {
        Finding::new(&NO_TESTS_RAN, format!("{source} ran 0 tests"))
    }
}
