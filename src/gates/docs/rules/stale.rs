use crate::rule::{Level, RuleMeta};

pub const STALE: RuleMeta = RuleMeta {
    id: "docs/stale",
    gate: "docs",
    default_level: Level::Warn,
    summary: "documentation last changed more than freshness-commits commits ago while code changed since",
    help: "review the document against the code and update it (a commit that touches it resets the count)",
    doc: include_str!("stale.md"),
};
