use crate::rule::{Level, RuleMeta};

/// The family of ruff's own rules (`static/ruff:<code>`).
pub const RUFF: RuleMeta = RuleMeta {
    id: "static/ruff",
    gate: "static",
    default_level: Level::Deny,
    summary: "ruff's findings, as ruff reports them, on the lines the change touched",
    help: "fix what ruff reports, or configure the rule in ruff's own config",
    doc: include_str!("ruff.md"),
};
