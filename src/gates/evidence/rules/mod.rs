//! The evidence gate's rules: one file per rule with its metadata and the
//! pure function that words its finding; the doc beside it as `<rule>.md`.

mod changed_coverage_below;
mod empty_diff;
mod no_anchor;
mod no_tests_ran;
mod stale_coverage;
mod stale_results;
mod tests_failed;
mod uncovered_change;

pub use changed_coverage_below::{CHANGED_COVERAGE_BELOW, changed_coverage_below};
pub use empty_diff::{EMPTY_DIFF, empty_diff};
pub use no_anchor::{NO_ANCHOR, no_anchor};
pub use no_tests_ran::{NO_TESTS_RAN, no_tests_ran};
pub use stale_coverage::{STALE_COVERAGE, stale_coverage};
pub use stale_results::{STALE_RESULTS, stale_results};
pub use tests_failed::{TESTS_FAILED, tests_failed};
pub use uncovered_change::{UNCOVERED_CHANGE, uncovered_change};

use crate::rule::RuleMeta;

pub const ALL: &[&RuleMeta] = &[
    &EMPTY_DIFF,
    &TESTS_FAILED,
    &NO_TESTS_RAN,
    &NO_ANCHOR,
    &STALE_RESULTS,
    &UNCOVERED_CHANGE,
    &CHANGED_COVERAGE_BELOW,
    &STALE_COVERAGE,
];
