use crate::finding::Finding;
use crate::rule::{Level, RuleMeta};

pub const TESTS_FAILED: RuleMeta = RuleMeta {
    id: "evidence/tests-failed",
    gate: "evidence",
    default_level: Level::Deny,
    summary: "the tests are red (or did not finish)",
    help: "fix the failing tests (or the code) and run the gate again; red tests are never evidence of done",
    doc: include_str!("tests-failed.md"),
};

/// Tests failed. `what` says how (`` `cargo test` exited with 101 ``), `failing` lists test ids.
pub fn tests_failed(what: &str, counts: Option<(u64, u64)>, failing: &[String], tail: &[String]) -> Finding {
    let counts = counts.map_or_else(String::new, |(passed, failed)| {
        format!(" ({passed} passed, {failed} failed)")
    });
    let mut finding = Finding::new(&TESTS_FAILED, format!("tests failed: {what}{counts}"));
    const SHOWN: usize = 20;
    for id in failing.iter().take(SHOWN) {
        finding = finding.note(format!("failed: {id}"));
    }
    if failing.len() > SHOWN {
        finding = finding.note(format!("... and {} more", failing.len() - SHOWN));
    }
    if !tail.is_empty() {
        finding = finding.note(format!("last lines of output:\n{}", tail.join("\n")));
    }
    finding
}
