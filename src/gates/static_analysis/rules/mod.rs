//! The static gate's rules: one family per tool, whose findings carry the
//! tool's own rule (`static/ruff:F401`).

mod eslint;
mod mypy;
mod ruff;
mod shellcheck;

pub use eslint::ESLINT;
pub use mypy::MYPY;
pub use ruff::RUFF;
pub use shellcheck::SHELLCHECK;

use crate::rule::RuleMeta;

pub const ALL: &[&RuleMeta] = &[&RUFF, &MYPY, &ESLINT, &SHELLCHECK];
