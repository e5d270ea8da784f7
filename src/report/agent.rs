//! The fix-next list: what a coding agent reads when loki-gate stops its
//! "done" (`loki-gate agent stop`), and what `--format agent` prints for a
//! loop that pastes the result into the next prompt (`aider --lint-cmd`, an
//! orchestrator of one's own).
//!
//! Written for the model: the blocking findings first, each with where it
//! is, what is wrong and the one action that fixes it; the waivers the
//! change added (which the agent cannot clear itself) apart; then how many
//! advisory findings there are. Cut at [`MAX_BYTES`] with a count of what
//! was left out, so a run with hundreds of findings does not flood the
//! agent's context.

use std::fmt::Write as _;

use crate::finding::{Finding, Severity};
use crate::verdict::{GateReport, Outcome};

/// The most the text may hold, in bytes (about 1,500 tokens).
pub const MAX_BYTES: usize = 6_000;

/// The fix-next text of `reports`: empty when nothing blocks.
pub fn render(reports: &[GateReport]) -> String {
    let blocking: Vec<&Finding> = reports
        .iter()
        .flat_map(|r| &r.findings)
        .filter(|f| f.severity == Severity::Error)
        .collect();
    let (held, fixable): (Vec<&Finding>, Vec<&Finding>) =
        blocking.iter().partition(|f| f.rule == crate::meta::WAIVER_ADDED.id);
    let failed: Vec<&GateReport> = reports.iter().filter(|r| r.outcome == Outcome::Error).collect();
    let blocked_inconclusive: Vec<&GateReport> = reports
        .iter()
        .filter(|r| r.outcome == Outcome::Inconclusive && r.inconclusive.is_some())
        .collect();
    if blocking.is_empty() && failed.is_empty() {
        return String::new();
    }
    let advisory = |severity: Severity| {
        reports
            .iter()
            .flat_map(|r| &r.findings)
            .filter(|f| f.severity == severity)
            .count()
    };
    let mut items: Vec<String> = Vec::new();
    for report in &failed {
        items.push(format!(
            "the {} gate could not run: {}. Fix what it names, or ask the user if it is outside the repository.",
            report.gate,
            report.error.as_deref().unwrap_or("no reason given")
        ));
    }
    items.extend(same_line_once(&fixable).iter().map(|group| item(group)));
    let mut out = String::new();
    let count = items.len() + held.len();
    let _ = writeln!(
        out,
        "loki-gate stopped \"done\": {} to fix before the work is done.",
        crate::wording::plural(count, "problem")
    );
    let mut cut = 0;
    let mut push = |out: &mut String, text: String| {
        if out.len() + text.len() + 1 > MAX_BYTES - 200 {
            cut += 1;
        } else {
            out.push_str(&text);
        }
    };
    for (i, text) in items.into_iter().enumerate() {
        push(&mut out, format!("\n{}. {text}\n", i + 1));
    }
    if !held.is_empty() {
        push(
            &mut out,
            "\nHeld for a person: the change lowers the bar (a suppression, a config or test-pattern edit, a skip). \
             You cannot clear these yourself; undo them and fix the code or test instead:\n"
                .to_string(),
        );
        for f in &held {
            push(&mut out, format!("- {}\n", located(f)));
        }
    }
    if cut > 0 {
        let _ = writeln!(
            out,
            "\n... and {} more left out to keep this short (`loki-gate check` lists every one).",
            crate::wording::plural(cut, "item")
        );
    }
    let (warnings, notes) = (advisory(Severity::Warning), advisory(Severity::Note));
    if (1..=MAX_LISTED).contains(&warnings) {
        // A few are listed: the model may fix them while it is there.
        let _ = writeln!(out, "\nNot blocking, but worth a look:");
        for f in reports
            .iter()
            .flat_map(|r| &r.findings)
            .filter(|f| f.severity == Severity::Warning)
        {
            let _ = writeln!(out, "- {}", located(f));
        }
        if notes > 0 {
            let _ = writeln!(
                out,
                "Also {} (`loki-gate check` shows them).",
                crate::wording::plural(notes, "note")
            );
        }
    } else if warnings + notes > 0 {
        let _ = writeln!(
            out,
            "\nAlso {} and {} that do not block (`loki-gate check` shows them).",
            crate::wording::plural(warnings, "warning"),
            crate::wording::plural(notes, "note")
        );
    }
    for report in blocked_inconclusive {
        if let Some(why) = &report.inconclusive {
            let _ = writeln!(out, "The {} gate could not fully decide: {why}.", report.gate);
        }
    }
    out
}

/// Warnings listed one by one up to this many; more are counted.
const MAX_LISTED: usize = 5;

/// The blocking findings with those of other gates on the same line
/// folded into the first (two tools flagging one `x == x` are one problem),
/// in their order.
fn same_line_once<'a>(findings: &[&'a Finding]) -> Vec<Vec<&'a Finding>> {
    let mut groups: Vec<Vec<&Finding>> = Vec::new();
    for f in findings {
        let gate = |g: &Finding| g.rule.split('/').next().map(str::to_string);
        let same = groups.iter_mut().find(|group| {
            let first = group[0];
            f.line.is_some() && first.path == f.path && first.line == f.line && group.iter().all(|g| gate(g) != gate(f))
        });
        match same {
            Some(group) => group.push(f),
            None => groups.push(vec![f]),
        }
    }
    groups
}

/// One problem as a numbered item: where, what, and the fix; the other
/// tools that flagged the same line after it.
fn item(group: &[&Finding]) -> String {
    let f = group[0];
    let mut text = located(f);
    for other in &group[1..] {
        let _ = write!(text, "\n   Also flagged there: [{}] {}", other.rule, other.message);
    }
    if let Some(help) = &f.help {
        let _ = write!(text, "\n   Fix: {}", for_the_agent(help));
    }
    text
}

/// A finding's help as the agent can act on it: a `Loki-Gate-Allow`
/// trailer is a trusted person's acknowledgment, which the agent's own
/// commit can never be, so that way is not offered; the agent is told to
/// say so instead.
fn for_the_agent(help: &str) -> String {
    if !help.contains("Loki-Gate-Allow") {
        return help.to_string();
    }
    let kept: Vec<&str> = help
        .split("; ")
        .filter(|clause| !clause.contains("Loki-Gate-Allow"))
        .map(|clause| clause.strip_prefix("otherwise ").unwrap_or(clause))
        .collect();
    let mut text = kept.join("; ");
    if !text.is_empty() {
        text.push_str(". ");
    }
    text.push_str("If the change is intended, say so in your answer: only a person can acknowledge it");
    text
}

/// What blocks in `reports`, one line each (`path:line [rule] message`;
/// a gate that could not run), for the session's record.
pub fn blocking_lines(reports: &[GateReport]) -> Vec<String> {
    let mut lines: Vec<String> = reports
        .iter()
        .filter(|r| r.outcome == Outcome::Error)
        .map(|r| {
            format!(
                "the {} gate could not run: {}",
                r.gate,
                r.error.as_deref().unwrap_or("no reason given")
            )
        })
        .collect();
    lines.extend(
        reports
            .iter()
            .flat_map(|r| &r.findings)
            .filter(|f| f.severity == Severity::Error)
            .map(located),
    );
    lines
}

/// What blocks in `reports` as a set, independent of order and of where
/// the lines moved: the findings' fingerprints and the gates that could not
/// run, hashed. Equal across two runs when nothing that blocks changed.
pub fn signature(reports: &[GateReport]) -> String {
    let mut parts: Vec<String> = reports
        .iter()
        .filter(|r| r.outcome == Outcome::Error)
        .map(|r| format!("error {}", r.gate))
        .chain(
            reports
                .iter()
                .flat_map(|r| &r.findings)
                .filter(|f| f.severity == Severity::Error)
                .map(|f| format!("{} {}", f.rule, f.fingerprint)),
        )
        .collect();
    parts.sort();
    parts.dedup();
    crate::finding::sha256_hex(parts.join("\n").as_bytes())
}

/// `path:line [rule] message`.
fn located(f: &Finding) -> String {
    let at = match (&f.path, f.line) {
        (Some(p), Some(l)) => format!("{p}:{l} "),
        (Some(p), None) => format!("{p} "),
        _ => String::new(),
    };
    format!("{at}[{}] {}", f.rule, f.message)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::finding::Finding;
    use crate::rule::RuleMeta;

    const RULE: RuleMeta = RuleMeta {
        id: "mock/no-assertion",
        gate: "mock",
        default_level: crate::rule::Level::Deny,
        summary: "",
        help: "assert on what the code returns",
        doc: "",
    };

    fn finding(line: u32, severity: Severity) -> Finding {
        let mut f = Finding::new(&RULE, format!("test `t{line}` asserts nothing")).at("tests/test_a.py", line, 1);
        f.severity = severity;
        f.fingerprint_from(&format!("def t{line}():"));
        f
    }

    #[test]
    fn blocking_first_then_a_count_of_the_rest_and_nothing_when_it_passes() {
        let report = GateReport::of(
            "mock",
            Outcome::Blocked,
            vec![finding(3, Severity::Error), finding(9, Severity::Warning)],
        );
        assert_eq!(
            render(&[report]),
            "loki-gate stopped \"done\": 1 problem to fix before the work is done.\n\n\
             1. tests/test_a.py:3 [mock/no-assertion] test `t3` asserts nothing\n   \
             Fix: assert on what the code returns\n\n\
             Not blocking, but worth a look:\n\
             - tests/test_a.py:9 [mock/no-assertion] test `t9` asserts nothing\n"
        );
        let pass = GateReport::of("mock", Outcome::Pass, vec![finding(9, Severity::Warning)]);
        assert_eq!(render(&[pass]), "");
        // More than a few warnings are counted.
        let mut many = vec![finding(3, Severity::Error)];
        many.extend((10..16).map(|l| finding(l, Severity::Warning)));
        let text = render(&[GateReport::of("mock", Outcome::Blocked, many)]);
        assert!(
            text.ends_with("\nAlso 6 warnings and 0 notes that do not block (`loki-gate check` shows them).\n"),
            "{text}"
        );
    }

    #[test]
    fn two_gates_on_one_line_are_one_problem_and_a_trusted_hands_fix_is_not_offered() {
        const MUTATION: RuleMeta = RuleMeta {
            id: "mutation/assertion-deleted",
            gate: "mutation",
            default_level: crate::rule::Level::Deny,
            summary: "",
            help: "keep the check; if it was wrong, say why in a `Loki-Gate-Allow: mutation/assertion-deleted <reason>` trailer",
            doc: "",
        };
        let mut other = Finding::new(&MUTATION, "an assertion was deleted".to_string()).at("tests/test_a.py", 3, 1);
        other.severity = Severity::Error;
        let mut moved = Finding::new(&MUTATION, "another was deleted".to_string()).at("tests/test_b.py", 7, 1);
        moved.severity = Severity::Error;
        let text = render(&[
            GateReport::of("mock", Outcome::Blocked, vec![finding(3, Severity::Error)]),
            GateReport::of("mutation", Outcome::Blocked, vec![other, moved]),
        ]);
        assert!(text.starts_with("loki-gate stopped \"done\": 2 problems"), "{text}");
        assert!(
            text.contains("   Also flagged there: [mutation/assertion-deleted] an assertion was deleted\n"),
            "{text}"
        );
        assert!(!text.contains("Loki-Gate-Allow"), "{text}");
        assert!(
            text.contains("Fix: keep the check. If the change is intended, say so in your answer: only a person can acknowledge it"),
            "{text}"
        );
    }

    #[test]
    fn the_signature_is_the_set_of_what_blocks() {
        let a = GateReport::of(
            "mock",
            Outcome::Blocked,
            vec![finding(3, Severity::Error), finding(5, Severity::Error)],
        );
        let b = GateReport::of(
            "mock",
            Outcome::Blocked,
            vec![finding(5, Severity::Error), finding(3, Severity::Error)],
        );
        let c = GateReport::of("mock", Outcome::Blocked, vec![finding(3, Severity::Error)]);
        let warned = GateReport::of(
            "mock",
            Outcome::Blocked,
            vec![finding(3, Severity::Error), finding(9, Severity::Warning)],
        );
        assert_eq!(signature(std::slice::from_ref(&a)), signature(&[b]));
        assert_ne!(signature(&[a]), signature(std::slice::from_ref(&c)));
        assert_eq!(signature(&[c]), signature(&[warned]));
    }

    #[test]
    fn a_flood_is_cut_at_the_cap_with_a_count() {
        let findings: Vec<Finding> = (1..=500).map(|l| finding(l, Severity::Error)).collect();
        let text = render(&[GateReport::of("mock", Outcome::Blocked, findings)]);
        assert!(text.len() <= MAX_BYTES, "{}", text.len());
        assert!(text.starts_with("loki-gate stopped \"done\": 500 problems"), "{text}");
        assert!(text.contains("more left out to keep this short"), "{text}");
    }
}
