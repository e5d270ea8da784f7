use crate::rule::{Level, RuleMeta};

pub const INCONCLUSIVE: RuleMeta = RuleMeta {
    id: "mutation/inconclusive",
    gate: "mutation",
    default_level: Level::Deny,
    summary: "part of the range could not be read: this shallow clone ends before the base",
    help: "fetch the history (`git fetch --deepen=200`, or `fetch-depth: 0` in actions/checkout) and run again, or set gates.mutation.inconclusive: ignore",
    doc: include_str!("inconclusive.md"),
};
