use crate::rule::{Level, RuleMeta};

pub const ASSERTION_WEAKENED: RuleMeta = RuleMeta {
    id: "mutation/assertion-weakened",
    gate: "mutation",
    default_level: Level::Deny,
    summary: "a weaker matcher replaced a stronger one on the same value (`toEqual(5)` -> `toBeDefined()`)",
    help: "keep the exact check; if the value is genuinely not fixed any more, say so in a `Loki-Gate-Allow: mutation/assertion-weakened <reason>` trailer",
    doc: include_str!("assertion-weakened.md"),
};
