//! Which way each config key moves the bar a change is judged by.
//!
//! A change may raise the bar it is judged by at once (enable a gate, add a
//! tool, demand more coverage); a change that lowers it is judged with the
//! base revision's value until someone trusted acknowledges it
//! (`docs/trust.md`). This table says, for every key in the schema, which
//! values are the stricter; a test keeps it complete, so a new key cannot be
//! added without deciding.

use super::yaml::Value;

/// How a key's values order from strict to lenient.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bar {
    /// `true` is the stricter value (a gate on, a check required).
    On,
    /// `false` is the stricter value (`new-only: true` lets old findings by).
    Off,
    /// A larger number is stricter (more coverage, more assertions).
    AtLeast,
    /// A smaller number is stricter (fewer rounds before escalating).
    AtMost,
    /// One of these names, strictest first.
    Ranked(&'static [&'static str]),
    /// Each item is a check: dropping one lowers, adding one raises.
    Checks,
    /// Each item is an exemption: adding one lowers, dropping one raises.
    Exemptions,
    /// What loki-gate reads to decide (a results file, the base): any
    /// change is judged with the base's value.
    Fixed,
    /// Commands loki-gate runs (the test command, custom static checks,
    /// council providers): any change is held, so CI never runs a command
    /// the base's config does not name until someone trusted acknowledges
    /// it, and a fork's pull request never does (`docs/execution.md`).
    Commands,
    /// Does not decide a verdict (time limits, parallelism).
    Neutral,
}

/// The bar of `key` in `section` ("" for the top level), or `None` for a
/// key this table does not know (a test keeps that from happening).
pub fn of(section: &str, key: &str) -> Option<Bar> {
    use Bar::*;
    Some(match (section, key) {
        (_, "enabled") => On,
        (_, "pre-existing") => Ranked(&["block", "warn"]),
        ("", "base") => Fixed,
        ("", "exclude") => Exemptions,
        // Lower, files go unread; higher, a file padded to hold the gates
        // past a hook's timeout is read (issue 63): either way, the base's.
        ("", "max-file-bytes") => Fixed,
        ("", "pre-commit-gates" | "pre-push-gates" | "agent-gates" | "agent-strict-rules") => Checks,
        ("", "agent-max-blocks" | "agent-no-progress") => AtMost,
        ("", "agent-stop-deadline") => Neutral,
        (
            "",
            "trusted-authors"
            | "trusted-signers"
            | "trust-unsigned-authors"
            | "agent-signatures"
            | "acknowledge-label"
            | "acknowledge-reviews",
        ) => Fixed,
        ("council", "providers") => Commands,
        ("council", "reviewers") => AtLeast,
        ("council", "devils-advocate") => On,
        ("council" | "mutation", "inconclusive") => Ranked(&["block", "ignore"]),
        ("council", "max-diff-bytes" | "max-file-bytes") => AtLeast,
        ("docs", "freshness-commits") => AtMost,
        ("docs", "doc-paths") => Checks,
        ("evidence", "test-command") => Commands,
        ("evidence", "results" | "coverage") => Fixed,
        ("evidence", "min-changed-coverage") => AtLeast,
        ("evidence", "require-anchor") => On,
        ("heldout", "checks") => Fixed,
        ("heldout", "waivers") => Exemptions,
        ("mock", "languages") => Checks,
        ("mock", "assertion-helpers") => Exemptions,
        ("mutation", "max-commits" | "min-assertions-per-test") => AtLeast,
        ("static", "tools" | "project-tools-in") => Checks,
        ("static", "filter") => Ranked(&["nofilter", "file", "diff-context", "added"]),
        ("static", "fail-on") => Ranked(&["note", "warning", "error"]),
        ("static", "custom") => Commands,
        ("static", "new-only") => Off,
        ("static", "scope") => Ranked(&["project", "changed"]),
        ("uncertainty", "rounds" | "nochange-min" | "split-rounds") => AtMost,
        ("uncertainty", "ring") => AtLeast,
        (_, "timeout" | "parallel") => Neutral,
        _ => return None,
    })
}

impl Bar {
    /// Does moving from `base` to `head` lower the bar?
    pub fn lowers(self, base: &Value, head: &Value) -> bool {
        if base == head {
            return false;
        }
        match self {
            Bar::On => matches!((base, head), (Value::Bool(true), Value::Bool(false))),
            Bar::Off => matches!((base, head), (Value::Bool(false), Value::Bool(true))),
            Bar::AtLeast => number(head) < number(base),
            Bar::AtMost => number(head) > number(base),
            Bar::Ranked(order) => {
                let rank = |v: &Value| match v {
                    Value::Str(s) => order.iter().position(|o| o == s),
                    _ => None,
                };
                rank(head) > rank(base)
            }
            // A check the base has that the change drops; an exemption the change adds.
            Bar::Checks => missing_from(&items(base), &items(head)),
            Bar::Exemptions => missing_from(&items(head), &items(base)),
            Bar::Fixed | Bar::Commands => true,
            Bar::Neutral => false,
        }
    }
}

/// Does `from` hold an item `to` lacks?
fn missing_from(from: &[String], to: &[String]) -> bool {
    from.iter().any(|item| !to.contains(item))
}

fn number(value: &Value) -> f64 {
    match value {
        #[allow(clippy::cast_precision_loss)]
        Value::Int(n) => *n as f64,
        Value::Float(f) => *f,
        _ => 0.0,
    }
}

/// The items of a list value (a single string is a list of one), as
/// comparable text: records compare whole.
fn items(value: &Value) -> Vec<String> {
    match value {
        Value::Null => Vec::new(),
        Value::Seq(nodes) => nodes.iter().map(|n| render(&n.value)).collect(),
        other => vec![render(other)],
    }
}

/// A value as canonical text, origins left out, for comparing and showing.
pub fn render(value: &Value) -> String {
    match value {
        Value::Null => "null".into(),
        Value::Bool(b) => b.to_string(),
        Value::Int(n) => n.to_string(),
        // `1.0`, never `1`: a float and an integer stay told apart.
        Value::Float(f) => format!("{f:?}"),
        Value::Str(s) => serde_json::to_string(s).unwrap_or_default(),
        Value::Seq(nodes) => format!(
            "[{}]",
            nodes.iter().map(|n| render(&n.value)).collect::<Vec<_>>().join(", ")
        ),
        Value::Map(entries) => format!(
            "{{{}}}",
            entries
                .iter()
                .map(|(k, n)| format!("{}: {}", k.name, render(&n.value)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::yaml::{Origin, parse_scalar};

    fn v(text: &str) -> Value {
        parse_scalar(text, Origin::Env(String::new())).value
    }

    #[test]
    fn every_key_of_every_section_has_a_bar() {
        for section in std::iter::once(&crate::config::schema::TOP).chain(crate::gates::SECTIONS.iter().copied()) {
            for key in section.keys {
                assert!(
                    of(section.gate, key.name).is_some(),
                    "decide which way `{}` in `{}` moves the bar (src/config/bar.rs)",
                    key.name,
                    section.gate
                );
            }
        }
    }

    #[test]
    fn lowering_is_told_from_raising() {
        assert!(Bar::On.lowers(&v("true"), &v("false")));
        assert!(!Bar::On.lowers(&v("false"), &v("true")));
        assert!(Bar::AtLeast.lowers(&v("80"), &v("50.5")));
        assert!(!Bar::AtLeast.lowers(&v("50"), &v("80")));
        assert!(Bar::AtMost.lowers(&v("3"), &v("10")));
        let fail_on = of("static", "fail-on").unwrap();
        assert!(fail_on.lowers(&v("warning"), &v("error")));
        assert!(!fail_on.lowers(&v("error"), &v("note")));
        assert!(Bar::Exemptions.lowers(&v("[vendor/**]"), &v("[vendor/**, tests/**]")));
        assert!(!Bar::Exemptions.lowers(&v("[vendor/**, tests/**]"), &v("[vendor/**]")));
        assert!(Bar::Checks.lowers(&v("[auto]"), &v("[ruff]")));
        assert!(!Bar::Checks.lowers(&v("[ruff]"), &v("[ruff, mypy]")));
        assert!(Bar::Fixed.lowers(&v("pytest"), &v("true")));
        assert!(!Bar::Fixed.lowers(&v("pytest"), &v("pytest")));
        assert!(!Bar::Neutral.lowers(&v("10m"), &v("1s")));
    }
}
