use crate::rule::{Level, RuleMeta};

pub const ASSERTION_VALUE_CHANGED: RuleMeta = RuleMeta {
    id: "mutation/assertion-value-changed",
    gate: "mutation",
    default_level: Level::Deny,
    summary: "an expected value that existed at the base changed in the same commit as the code the test imports",
    help: "if the behaviour change is intended, acknowledge it: a `Loki-Gate-Allow: mutation/assertion-value-changed <reason>` trailer in a trusted hand, or the pull request's acknowledge label or approving review; otherwise fix the code, not the expectation",
    doc: include_str!("assertion-value-changed.md"),
};
