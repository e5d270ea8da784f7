//! Inline suppressions: `loki-gate: allow(rule-id[, rule-id]) reason` in a
//! comment on the flagged line or the line above it.
//!
//! A reason is required; a suppression without one, or naming an unknown
//! rule, suppresses nothing and is reported (`meta/invalid-suppression`). A
//! valid one that matched nothing this run is `meta/unused-suppression`.

use crate::finding::Finding;
use crate::meta::{INVALID_SUPPRESSION, UNUSED_SUPPRESSION};
use crate::rule;

const MARKER: &str = "loki-gate: allow(";

/// Comment openers that may precede the marker on its line.
const COMMENT_STARTS: &[&str] = &["#", "//", "/*", "--", "<!--", ";", "%", "*"];

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Suppression {
    pub path: String,
    /// The line the comment is on (1-based).
    pub line: u32,
    pub column: u32,
    pub rules: Vec<String>,
    pub reason: String,
}

impl Suppression {
    /// Does this suppression cover a finding of `rule_id` on `line`?
    fn covers(&self, rule_id: &str, line: u32) -> bool {
        // `allow(static/ruff)` covers every rule of ruff's (`static/ruff:F401`).
        (line == self.line || line == self.line + 1) && self.rules.iter().any(|r| crate::rule::selects(r, rule_id))
    }
}

/// Find every suppression comment in `text`. Malformed ones come back as findings.
/// `rules` are the rules a suppression may name (`gates::rules()`).
pub fn scan(path: &str, text: &str, rules: &[&'static rule::RuleMeta]) -> (Vec<Suppression>, Vec<Finding>) {
    let known = rules;
    let mut found = Vec::new();
    let mut invalid = Vec::new();
    if !text.contains(MARKER) {
        return (found, invalid);
    }
    for (i, line) in text.lines().enumerate() {
        let Some(at) = line.find(MARKER) else { continue };
        let before = &line[..at];
        if !COMMENT_STARTS.iter().any(|c| before.contains(c)) {
            continue;
        }
        let lineno = u32::try_from(i + 1).unwrap_or(u32::MAX);
        let column = u32::try_from(before.chars().count() + 1).unwrap_or(u32::MAX);
        let rest = &line[at + MARKER.len()..];
        let bad = |why: &str| {
            Finding::new(
                &INVALID_SUPPRESSION,
                format!("suppression {why}; it suppresses nothing"),
            )
            .at(path, lineno, column)
        };
        let Some(close) = rest.find(')') else {
            invalid.push(bad("has no closing parenthesis"));
            continue;
        };
        let rules: Vec<String> = rest[..close]
            .split(',')
            .map(|r| r.trim().to_string())
            .filter(|r| !r.is_empty())
            .collect();
        let reason = rest[close + 1..]
            .trim()
            .trim_end_matches("*/")
            .trim_end_matches("-->")
            .trim()
            .to_string();
        if rules.is_empty() {
            invalid.push(bad("names no rule"));
        } else if let Some(unknown) = rules.iter().find(|r| rule::resolve(known, r).is_none()) {
            invalid.push(bad(&format!("names unknown rule `{unknown}`")));
        } else if reason.is_empty() {
            invalid.push(bad("gives no reason"));
        } else {
            found.push(Suppression {
                path: path.to_string(),
                line: lineno,
                column,
                rules,
                reason,
            });
        }
    }
    (found, invalid)
}

/// Remove findings covered by a suppression. Returns, for each
/// suppression, the findings it hid, and a `meta/unused-suppression` finding
/// for each that hid nothing, counting only rules of `gates` (a suppression
/// for a gate that did not run is not known to be unused). A suppression
/// `applies` says `false` for hides nothing and is never unused.
pub fn apply(
    findings: &mut Vec<Finding>,
    suppressions: &[Suppression],
    applies: &[bool],
    gates: &[&str],
    known: &[&'static rule::RuleMeta],
) -> (Vec<Vec<Finding>>, Vec<Finding>) {
    let mut hid: Vec<Vec<Finding>> = vec![Vec::new(); suppressions.len()];
    let mut kept = Vec::with_capacity(findings.len());
    for f in findings.drain(..) {
        let hit = match (&f.path, f.line) {
            (Some(path), Some(line)) => suppressions
                .iter()
                .zip(applies)
                .position(|(s, &on)| on && &s.path == path && s.covers(&f.rule, line)),
            _ => None,
        };
        match hit {
            Some(i) => hid[i].push(f),
            None => kept.push(f),
        }
    }
    *findings = kept;
    let unused = suppressions
        .iter()
        .zip(applies)
        .zip(&hid)
        .filter(|((s, on), hid)| {
            **on && hid.is_empty()
                && s.rules
                    .iter()
                    .all(|r| rule::resolve(known, r).is_some_and(|m| gates.contains(&m.gate)))
        })
        .map(|((s, _), _)| {
            Finding::new(
                &UNUSED_SUPPRESSION,
                format!("suppression of {} matched no finding", s.rules.join(", ")),
            )
            .at(s.path.clone(), s.line, s.column)
        })
        .collect();
    (hid, unused)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gates::evidence::rules::EMPTY_DIFF;

    #[test]
    fn finds_suppressions_only_in_comments_and_requires_a_reason() {
        let text = "\
x = 1  # loki-gate: allow(evidence/empty-diff) the fixture is empty on purpose
s = \"loki-gate: allow(evidence/empty-diff) in a string\"
# loki-gate: allow(evidence/empty-diff)
// loki-gate: allow(evidence/no-such-rule) typo
";
        let (found, invalid) = scan("a.py", text, crate::gates::rules());
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].line, 1);
        assert_eq!(found[0].reason, "the fixture is empty on purpose");
        let messages: Vec<_> = invalid.iter().map(|f| (f.line, f.message.as_str())).collect();
        assert_eq!(
            messages,
            vec![
                (Some(3), "suppression gives no reason; it suppresses nothing"),
                (
                    Some(4),
                    "suppression names unknown rule `evidence/no-such-rule`; it suppresses nothing"
                ),
            ]
        );
    }

    #[test]
    fn covers_its_line_and_the_next_and_reports_unused() {
        let (sups, _) = scan(
            "a.py",
            "# loki-gate: allow(evidence/empty-diff) ok\nline2\nline3\n",
            crate::gates::rules(),
        );
        let mut findings = vec![
            Finding::new(&EMPTY_DIFF, "m").at("a.py", 2, 1),
            Finding::new(&EMPTY_DIFF, "m").at("a.py", 3, 1),
        ];
        let (hid, unused) = apply(&mut findings, &sups, &[true], &["evidence"], crate::gates::rules());
        assert_eq!(hid[0].len(), 1);
        assert_eq!(hid[0][0].line, Some(2));
        assert_eq!(findings.len(), 1);
        assert!(unused.is_empty());
        let (_, unused) = apply(&mut findings, &sups, &[true], &["evidence"], crate::gates::rules());
        assert_eq!(unused.len(), 1, "nothing left on line 1 or 2");
        let (_, unused) = apply(&mut findings, &sups, &[true], &["mock"], crate::gates::rules());
        assert!(unused.is_empty(), "evidence did not run");
        // A suppression that does not apply (held) hides nothing and is not "unused".
        let mut findings = vec![Finding::new(&EMPTY_DIFF, "m").at("a.py", 2, 1)];
        let (hid, unused) = apply(&mut findings, &sups, &[false], &["evidence"], crate::gates::rules());
        assert!(hid[0].is_empty() && unused.is_empty());
        assert_eq!(findings.len(), 1);
    }
}
