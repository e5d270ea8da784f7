use crate::finding::Finding;
use crate::rule::{Level, RuleMeta};

pub const NO_ANCHOR: RuleMeta = RuleMeta {
    id: "evidence/no-anchor",
    gate: "evidence",
    default_level: Level::Warn,
    summary: "no run start was recorded, so the diff since the start could not be checked",
    help: "run `loki-gate evidence start` when the work begins; use --require-anchor to make this block",
    doc: include_str!("no-anchor.md"),
};

pub fn no_anchor() -> Finding {
    Finding::new(
        &NO_ANCHOR,
        "inconclusive: no run start was recorded, so the change since the start was not checked",
    )
}
