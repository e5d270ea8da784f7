//! The council gate's rules: one per finding severity, plus the verdicts
//! that could not be read and the quorum; the docs beside them as `<rule>.md`.

use crate::rule::{Level, RuleMeta};

use super::verdict::Severity;

pub const CRITICAL: RuleMeta = RuleMeta {
    id: "council/critical",
    gate: "council",
    default_level: Level::Deny,
    summary: "a reviewer found a problem that must not ship",
    help: "fix it and run the council again; if the reviewer is wrong, suppress it on the line with the reason",
    doc: include_str!("critical.md"),
};

pub const HIGH: RuleMeta = RuleMeta {
    id: "council/high",
    gate: "council",
    default_level: Level::Deny,
    summary: "a reviewer found a real bug, or a test that cannot catch one",
    help: "fix it and run the council again; if the reviewer is wrong, suppress it on the line with the reason",
    doc: include_str!("high.md"),
};

pub const MEDIUM: RuleMeta = RuleMeta {
    id: "council/medium",
    gate: "council",
    default_level: Level::Warn,
    summary: "a reviewer found something that should be fixed",
    help: "consider the reviewer's point; it does not block",
    doc: include_str!("medium.md"),
};

pub const LOW: RuleMeta = RuleMeta {
    id: "council/low",
    gate: "council",
    default_level: Level::Warn,
    summary: "a reviewer's nit",
    help: "consider the reviewer's point; it does not block",
    doc: include_str!("low.md"),
};

pub const INCONCLUSIVE: RuleMeta = RuleMeta {
    id: "council/inconclusive",
    gate: "council",
    default_level: Level::Deny,
    summary: "a reviewer gave no readable verdict (empty, malformed, refused, late or failed)",
    help: "fix the provider named in the message and run again with --fresh, or set gates.council.inconclusive: ignore",
    doc: include_str!("inconclusive.md"),
};

pub const QUORUM: RuleMeta = RuleMeta {
    id: "council/quorum",
    gate: "council",
    default_level: Level::Deny,
    summary: "fewer than two thirds of the reviewers approved",
    help: "address the rejecting reviewers' findings and run the council again",
    doc: include_str!("quorum.md"),
};

pub const ALL: &[&RuleMeta] = &[&CRITICAL, &HIGH, &MEDIUM, &LOW, &INCONCLUSIVE, &QUORUM];

/// The rule of a finding's severity.
pub fn of(severity: Severity) -> &'static RuleMeta {
    match severity {
        Severity::Critical => &CRITICAL,
        Severity::High => &HIGH,
        Severity::Medium => &MEDIUM,
        Severity::Low => &LOW,
    }
}
