//! The docs gate's rules.

mod readme_missing;
mod stale;
mod undocumented_export;

pub use readme_missing::README_MISSING;
pub use stale::STALE;
pub use undocumented_export::UNDOCUMENTED_EXPORT;

use crate::rule::RuleMeta;

pub const ALL: &[&RuleMeta] = &[&README_MISSING, &STALE, &UNDOCUMENTED_EXPORT];
