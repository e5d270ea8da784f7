use crate::rule::{Level, RuleMeta};

/// The family of tsc's own rules (`static/tsc:<code>`).
pub const TSC: RuleMeta = RuleMeta {
    id: "static/tsc",
    gate: "static",
    default_level: Level::Deny,
    summary: "the TypeScript compiler's type errors, on the lines the change touched",
    help: "fix the types tsc reports",
    doc: include_str!("tsc.md"),
};
