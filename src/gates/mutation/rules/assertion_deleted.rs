use crate::rule::{Level, RuleMeta};

pub const ASSERTION_DELETED: RuleMeta = RuleMeta {
    id: "mutation/assertion-deleted",
    gate: "mutation",
    default_level: Level::Deny,
    summary: "an assertion that existed at the base was removed from a test that still exists",
    help: "keep the check, or replace it with an equal or stronger one; if it was wrong, say why in a `Loki-Gate-Allow: mutation/assertion-deleted <reason>` trailer",
    doc: include_str!("assertion-deleted.md"),
};
