use crate::rule::{Level, RuleMeta};

/// The family of mypy's own rules (`static/mypy:<code>`).
pub const MYPY: RuleMeta = RuleMeta {
    id: "static/mypy",
    gate: "static",
    default_level: Level::Deny,
    summary: "mypy's type errors, on the lines the change touched",
    help: "fix the types mypy reports, or configure the error code in mypy's config",
    doc: include_str!("mypy.md"),
};
