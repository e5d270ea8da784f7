use crate::rule::{Level, RuleMeta};

/// The family of the findings of an errorformat tool configured in `gates.static.custom`
/// (`static/errorformat:<name>:<rule>`).
pub const ERRORFORMAT: RuleMeta = RuleMeta {
    id: "static/errorformat",
    gate: "static",
    default_level: Level::Deny,
    summary: "findings of a tool configured in gates.static.custom whose text output errorformat patterns read",
    help: "fix what the tool reports, or configure the rule in the tool's own config",
    doc: include_str!("errorformat.md"),
};
