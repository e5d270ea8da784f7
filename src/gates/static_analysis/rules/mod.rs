//! The static gate's rules: one family per tool, whose findings carry the
//! tool's own rule (`static/ruff:F401`).

mod clippy;
mod errorformat;
mod eslint;
mod golangci_lint;
mod mypy;
mod ruff;
mod sarif;
mod shellcheck;
mod tsc;

pub use clippy::CLIPPY;
pub use errorformat::ERRORFORMAT;
pub use eslint::ESLINT;
pub use golangci_lint::GOLANGCI_LINT;
pub use mypy::MYPY;
pub use ruff::RUFF;
pub use sarif::SARIF;
pub use shellcheck::SHELLCHECK;
pub use tsc::TSC;

use crate::rule::RuleMeta;

pub const ALL: &[&RuleMeta] = &[
    &RUFF,
    &MYPY,
    &ESLINT,
    &TSC,
    &CLIPPY,
    &GOLANGCI_LINT,
    &SHELLCHECK,
    &SARIF,
    &ERRORFORMAT,
];
