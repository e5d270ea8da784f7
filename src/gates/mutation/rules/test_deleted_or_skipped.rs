use crate::rule::{Level, RuleMeta};

pub const TEST_DELETED_OR_SKIPPED: RuleMeta = RuleMeta {
    id: "mutation/test-deleted-or-skipped",
    gate: "mutation",
    default_level: Level::Deny,
    summary: "a test that existed at the base was deleted, or newly skipped without a condition",
    help: "make the test pass instead; if it is obsolete, say why in a `Loki-Gate-Allow: mutation/test-deleted-or-skipped <reason>` trailer",
    doc: include_str!("test-deleted-or-skipped.md"),
};
