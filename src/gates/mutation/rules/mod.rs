//! The mutation gate's rules: one file per rule with its metadata, the doc
//! beside it as `<rule>.md`. The checks themselves share one pairing of the
//! two versions of each test file ([`super::pair`]) and live in
//! [`super::step`], which reads each commit once for every rule.

mod assertion_deleted;
mod assertion_value_changed;
mod assertion_weakened;
mod inconclusive;
mod low_assertion_density;
mod test_deleted_or_skipped;

pub use assertion_deleted::ASSERTION_DELETED;
pub use assertion_value_changed::ASSERTION_VALUE_CHANGED;
pub use assertion_weakened::ASSERTION_WEAKENED;
pub use inconclusive::INCONCLUSIVE;
pub use low_assertion_density::LOW_ASSERTION_DENSITY;
pub use test_deleted_or_skipped::TEST_DELETED_OR_SKIPPED;

use crate::rule::RuleMeta;

pub const ALL: &[&RuleMeta] = &[
    &ASSERTION_VALUE_CHANGED,
    &ASSERTION_DELETED,
    &ASSERTION_WEAKENED,
    &TEST_DELETED_OR_SKIPPED,
    &LOW_ASSERTION_DENSITY,
    &INCONCLUSIVE,
];
