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
    items.extend(fixable.iter().map(|f| item(f)));
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
    if warnings + notes > 0 {
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

/// One finding as a numbered item: where, what, and the fix.
fn item(f: &Finding) -> String {
    let mut text = located(f);
    if let Some(help) = &f.help {
        let _ = write!(text, "\n   Fix: {help}");
    }
    text
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
             Also 1 warning and 0 notes that do not block (`loki-gate check` shows them).\n"
        );
        let pass = GateReport::of("mock", Outcome::Pass, vec![finding(9, Severity::Warning)]);
        assert_eq!(render(&[pass]), "");
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
