use crate::rule::{Level, RuleMeta};

/// The family of ESLint's own rules (`static/eslint:<code>`).
pub const ESLINT: RuleMeta = RuleMeta {
    id: "static/eslint",
    gate: "static",
    default_level: Level::Deny,
    summary: "ESLint's findings, on the lines the change touched",
    help: "fix what ESLint reports, or configure the rule in ESLint's config",
    doc: include_str!("eslint.md"),
};
