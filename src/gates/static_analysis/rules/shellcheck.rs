use crate::rule::{Level, RuleMeta};

/// The family of ShellCheck's own rules (`static/shellcheck:<code>`).
pub const SHELLCHECK: RuleMeta = RuleMeta {
    id: "static/shellcheck",
    gate: "static",
    default_level: Level::Deny,
    summary: "ShellCheck's findings, on the lines the change touched",
    help: "fix what ShellCheck reports, or disable the check with a `# shellcheck disable=SCnnnn` directive and a reason",
    doc: include_str!("shellcheck.md"),
};
