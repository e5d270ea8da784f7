//! Acknowledgments: a commit says a finding is intended with a trailer
//! `Loki-Gate-Allow: <rule-id> <reason>` in the last paragraph of its
//! message. The reason is required; the rule is a `mutation/...` id or
//! `mutation` for every rule of the gate.

use crate::rule::RuleMeta;

const KEY: &str = "Loki-Gate-Allow";

/// One accepted trailer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ack {
    /// A rule id, or the gate name for all its rules.
    pub rule: String,
    pub reason: String,
    /// Trusted: the base's, or acknowledged by someone trusted
    /// (`docs/trust.md`); else it applies only because the run does not enforce.
    pub trusted: bool,
}

impl Ack {
    pub fn covers(&self, rule: &RuleMeta) -> bool {
        self.rule == rule.id || self.rule == rule.gate
    }
}

/// The acknowledgments of a commit message, and a problem for each
/// `Loki-Gate-Allow` trailer that cannot be one.
pub fn parse(message: &str) -> (Vec<Ack>, Vec<String>) {
    let mut acks = Vec::new();
    let mut problems = Vec::new();
    for (key, value) in crate::git::trailers(message) {
        if !key.eq_ignore_ascii_case(KEY) {
            continue;
        }
        let value = value.trim();
        let (rule, reason) = value.split_once(char::is_whitespace).unwrap_or((value, ""));
        let reason = reason.trim();
        let known = rule == "mutation" || super::rules::ALL.iter().any(|r| r.id == rule);
        if !known {
            problems.push(format!(
                "`{KEY}: {value}` names no mutation rule: write `{KEY}: <rule-id> <reason>` with an id from `loki-gate rules`"
            ));
        } else if reason.is_empty() {
            problems.push(format!(
                "`{KEY}: {rule}` gives no reason, so it acknowledges nothing: write `{KEY}: {rule} <why the change is intended>`"
            ));
        } else {
            acks.push(Ack {
                rule: rule.to_string(),
                reason: reason.to_string(),
                trusted: false,
            });
        }
    }
    (acks, problems)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trailers_need_a_known_rule_and_a_reason() {
        let message = "Raise the discount\n\nBody text.\n\nLoki-Gate-Allow: mutation/assertion-value-changed product asked for 20%\nloki-gate-allow: mutation  all intended\nLoki-Gate-Allow: mutation/assertion-deleted\nLoki-Gate-Allow: mock/no-assertion because\nSigned-off-by: A <a@example.com>\n";
        let (acks, problems) = parse(message);
        assert_eq!(
            acks,
            vec![
                Ack {
                    rule: "mutation/assertion-value-changed".into(),
                    reason: "product asked for 20%".into(),
                    trusted: false,
                },
                Ack {
                    rule: "mutation".into(),
                    reason: "all intended".into(),
                    trusted: false,
                },
            ]
        );
        assert_eq!(problems.len(), 2, "{problems:?}");
        assert!(problems[0].contains("gives no reason"));
        assert!(problems[1].contains("names no mutation rule"));
        // Not in the trailer paragraph: not a trailer.
        let (acks, _) = parse("Subject\n\nLoki-Gate-Allow: mutation/assertion-deleted x\n\nMore text here.\n");
        assert!(acks.is_empty());
    }
}
