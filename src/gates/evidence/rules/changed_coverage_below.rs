use crate::finding::Finding;
use crate::rule::{Level, RuleMeta};
use crate::verdict::coverage::shown;

pub const CHANGED_COVERAGE_BELOW: RuleMeta = RuleMeta {
    id: "evidence/changed-coverage-below",
    gate: "evidence",
    default_level: Level::Deny,
    summary: "the tests run less of the changed lines than gates.evidence.min-changed-coverage requires",
    help: "cover the lines reported as evidence/uncovered-change, or lower gates.evidence.min-changed-coverage",
    doc: include_str!("changed-coverage-below.md"),
};

/// Changed-line coverage `now` percent is below `min` percent.
pub fn changed_coverage_below(now: f64, min: f64, covered: u64, executable: u64) -> Finding {
    Finding::new(
        &CHANGED_COVERAGE_BELOW,
        format!(
            "changed-line coverage is {} ({covered} of {executable} executable changed lines), below the required {}",
            shown(Some(now)),
            shown(Some(min))
        ),
    )
}
