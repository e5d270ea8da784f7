use crate::rule::{Level, RuleMeta};

/// The family of golangci-lint's own rules (`static/golangci-lint:<code>`).
pub const GOLANGCI_LINT: RuleMeta = RuleMeta {
    id: "static/golangci-lint",
    gate: "static",
    default_level: Level::Deny,
    summary: "golangci-lint's issues, on the lines the change touched",
    help: "fix what the linter reports, or configure it in .golangci.yml",
    doc: include_str!("golangci_lint.md"),
};
