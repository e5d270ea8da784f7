//! `--format github`: workflow commands that become annotations on the PR.
//!
//! `::error file=F,line=L,col=C,endLine=..,endColumn=..,title=T::message`,
//! escaped per GitHub's rules: in the message `%`, CR and LF; in property
//! values also `:` and `,`. Findings without a file become annotations on
//! the run itself.
//!
//! GitHub shows at most 10 error, 10 warning and 10 notice annotations per
//! step (50 per job): the most severe findings are annotated first, each
//! severity up to its cap, and one last notice says how many were left out
//! and where they are (the SARIF upload, the PR comment, the job output).

use std::fmt::Write;

use super::GateReport;
use crate::finding::Severity;

fn escape_data(s: &str) -> String {
    s.replace('%', "%25").replace('\r', "%0D").replace('\n', "%0A")
}

fn escape_property(s: &str) -> String {
    escape_data(s).replace(':', "%3A").replace(',', "%2C")
}

/// Annotations GitHub shows per severity in one step.
const PER_SEVERITY: usize = 10;

pub fn render(reports: &[GateReport]) -> String {
    let mut out = String::new();
    // Annotations shown so far per severity (error, warning, notice).
    let mut shown = [0usize; 3];
    for report in reports {
        let (command, slot, what, why) = match (&report.error, &report.inconclusive) {
            (Some(error), _) => ("error", 0, "could not run", error),
            (None, Some(why)) => ("warning", 1, "is inconclusive", why),
            (None, None) => continue,
        };
        shown[slot] += 1;
        let title = escape_property(&format!("loki-gate {} {what}", report.gate));
        let _ = writeln!(out, "::{command} title={title}::{}", escape_data(why));
    }
    let mut findings: Vec<&crate::finding::Finding> = reports.iter().flat_map(|r| &r.findings).collect();
    // Most severe first; the sort is stable, so each gate's order stays.
    findings.sort_by_key(|f| std::cmp::Reverse(f.severity));
    let mut left_out = 0;
    for f in findings {
        let (command, slot) = match f.severity {
            Severity::Error => ("error", 0),
            Severity::Warning => ("warning", 1),
            Severity::Note => ("notice", 2),
        };
        if shown[slot] >= PER_SEVERITY {
            left_out += 1;
            continue;
        }
        shown[slot] += 1;
        {
            let mut props = Vec::new();
            if let Some(path) = &f.path {
                props.push(format!("file={}", escape_property(path)));
            }
            let fields = [
                ("line", f.line),
                ("col", f.column),
                ("endLine", f.end_line),
                ("endColumn", f.end_column),
            ];
            for (name, value) in fields {
                if let Some(v) = value
                    && f.path.is_some()
                {
                    props.push(format!("{name}={v}"));
                }
            }
            props.push(format!("title={}", escape_property(&format!("loki-gate {}", f.rule))));
            let mut message = f.message.clone();
            if let Some(help) = &f.help {
                message.push_str("\nhelp: ");
                message.push_str(help);
            }
            for note in &f.notes {
                message.push_str("\nnote: ");
                message.push_str(note);
            }
            let _ = writeln!(out, "::{command} {}::{}", props.join(","), escape_data(&message));
        }
    }
    if left_out > 0 {
        let _ = writeln!(
            out,
            "::notice title=loki-gate::{}",
            escape_data(&format!(
                "{left_out} more finding(s) not annotated: GitHub shows at most {PER_SEVERITY} per severity in a step. All of them are in the SARIF upload, the pull request comment and the job output."
            ))
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_most_severe_are_annotated_first_and_the_rest_counted() {
        let rule = &crate::gates::mock::rules::NO_ASSERTION;
        let finding = |severity: Severity, i: usize| {
            let mut f = crate::finding::Finding::new(rule, format!("finding {i}")).at("a.py", 1, 1);
            f.severity = severity;
            f
        };
        let findings: Vec<_> = (0..15)
            .map(|i| finding(Severity::Warning, i))
            .chain((0..12).map(|i| finding(Severity::Error, i)))
            .chain((0..3).map(|i| finding(Severity::Note, i)))
            .collect();
        let report = GateReport::of("mock", super::super::Outcome::Blocked, findings);
        let text = render(&[report]);
        let lines: Vec<&str> = text.lines().collect();
        assert!(lines[..10].iter().all(|l| l.starts_with("::error ")));
        assert_eq!(lines.iter().filter(|l| l.starts_with("::warning ")).count(), 10);
        assert_eq!(lines.iter().filter(|l| l.starts_with("::notice file")).count(), 3);
        assert!(
            lines.last().unwrap().contains("7 more finding(s) not annotated"),
            "{text}"
        );
    }

    #[test]
    fn a_gate_that_could_not_run_or_decide_is_annotated_on_the_run() {
        let report = |gate: &'static str, outcome, error: Option<&str>, inconclusive: Option<&str>| GateReport {
            files: 0,
            inconclusive: inconclusive.map(str::to_string),
            error: error.map(str::to_string),
            ..GateReport::of(gate, outcome, Vec::new())
        };
        use super::super::Outcome;
        let text = render(&[
            report(
                "static",
                Outcome::Error,
                Some("ruff: not found on PATH\ninstall it"),
                None,
            ),
            report(
                "mutation",
                Outcome::Inconclusive,
                None,
                Some("the base commit is not here"),
            ),
            report("mock", Outcome::Pass, None, None),
        ]);
        assert_eq!(
            text,
            "::error title=loki-gate static could not run::ruff: not found on PATH%0Ainstall it\n\
             ::warning title=loki-gate mutation is inconclusive::the base commit is not here\n"
        );
    }

    #[test]
    fn escapes_follow_githubs_rules() {
        assert_eq!(escape_data("100% done\r\nok"), "100%25 done%0D%0Aok");
        assert_eq!(escape_property("a:b,c%"), "a%3Ab%2Cc%25");
    }
}
