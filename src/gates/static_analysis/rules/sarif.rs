use crate::rule::{Level, RuleMeta};

/// The family of the findings of a SARIF tool configured in `gates.static.custom`
/// (`static/sarif:<name>:<rule>`).
pub const SARIF: RuleMeta = RuleMeta {
    id: "static/sarif",
    gate: "static",
    default_level: Level::Deny,
    summary: "findings of a tool configured in gates.static.custom that reports SARIF",
    help: "fix what the tool reports, or configure the rule in the tool's own config",
    doc: include_str!("sarif.md"),
};
