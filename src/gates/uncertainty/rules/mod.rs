//! The uncertainty gate's rule; its doc beside it.

use crate::rule::{Level, RuleMeta};

pub const ESCALATED: RuleMeta = RuleMeta {
    id: "uncertainty/escalated",
    gate: "uncertainty",
    default_level: Level::Warn,
    summary: "the work is stuck: two or more signs held together for several rounds; handed off (exit 3)",
    help: "read handoff.md in the state directory and change course; the gate re-arms once the signs clear",
    doc: include_str!("escalated.md"),
};

pub const ALL: &[&RuleMeta] = &[&ESCALATED];
