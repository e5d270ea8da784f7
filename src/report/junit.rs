//! `--format junit`: JUnit XML, which CI systems (GitLab, Jenkins, Azure
//! Pipelines, CircleCI) show as test results. One `<testsuite>` per gate,
//! named `loki-gate.<gate>`:
//!
//! - an error finding is a failing `<testcase>` (`<failure>` typed with the
//!   rule, its message, help and notes in the body);
//! - a warning or note is a passing testcase that says it in `<system-out>`;
//! - a gate with no finding is one passing testcase named for the gate; one
//!   that could not run is an `<error>`, an inconclusive one `<skipped>`.
//!
//! Valid against the JUnit schema Jenkins' xunit plugin publishes (the one
//! pytest checks its own output with); no times, so the same run gives the
//! same bytes.

use std::fmt::Write;

use super::GateReport;
use crate::finding::{Finding, Severity};

pub fn render(reports: &[GateReport]) -> String {
    let mut suites = String::new();
    let (mut tests, mut failures, mut errors) = (0, 0, 0);
    for report in reports {
        let mut cases = String::new();
        let (mut count, mut failed, mut broke, mut skipped) = (0, 0, 0, 0);
        for f in &report.findings {
            count += 1;
            let body = details(f);
            let _ = write!(
                cases,
                "    <testcase name=\"{}\" classname=\"{}\">",
                escape(&case_name(f)),
                escape(f.path.as_deref().unwrap_or(report.gate))
            );
            match f.severity {
                Severity::Error => {
                    failed += 1;
                    let _ = write!(
                        cases,
                        "\n      <failure type=\"{}\" message=\"{}\">{}</failure>\n    ",
                        escape(&f.rule),
                        escape(&f.message),
                        escape(&body)
                    );
                }
                Severity::Warning | Severity::Note => {
                    let _ = write!(
                        cases,
                        "\n      <system-out>{}: {}</system-out>\n    ",
                        f.severity.as_str(),
                        escape(&body)
                    );
                }
            }
            cases.push_str("</testcase>\n");
        }
        let whole = format!("    <testcase name=\"{0}\" classname=\"loki-gate.{0}\"", report.gate);
        if let Some(error) = &report.error {
            count += 1;
            broke += 1;
            let _ = writeln!(
                cases,
                "{whole}>\n      <error type=\"could-not-run\" message=\"{}\"/>\n    </testcase>",
                escape(error)
            );
        } else if let Some(why) = &report.inconclusive {
            count += 1;
            skipped += 1;
            let _ = writeln!(
                cases,
                "{whole}>\n      <skipped message=\"{}\"/>\n    </testcase>",
                escape(why)
            );
        } else if report.findings.is_empty() {
            count += 1;
            let _ = writeln!(cases, "{whole}/>");
        }
        let _ = write!(
            suites,
            "  <testsuite name=\"loki-gate.{}\" tests=\"{count}\" failures=\"{failed}\" errors=\"{broke}\" skipped=\"{skipped}\">\n{cases}  </testsuite>\n",
            report.gate
        );
        tests += count;
        failures += failed;
        errors += broke;
    }
    format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"loki-gate\" tests=\"{tests}\" failures=\"{failures}\" errors=\"{errors}\">\n{suites}</testsuites>\n"
    )
}

/// `rule at path:line:col`, or the rule alone for a finding about the change.
fn case_name(f: &Finding) -> String {
    match (&f.path, f.line, f.column) {
        (Some(p), Some(l), Some(c)) => format!("{} at {p}:{l}:{c}", f.rule),
        (Some(p), Some(l), None) => format!("{} at {p}:{l}", f.rule),
        (Some(p), None, _) => format!("{} at {p}", f.rule),
        _ => f.rule.clone(),
    }
}

/// The finding as text: the message, then help and notes.
fn details(f: &Finding) -> String {
    let mut text = format!("{} [{}]", f.message, f.rule);
    if let Some(help) = &f.help {
        text.push_str(&format!("\nhelp: {help}"));
    }
    for note in &f.notes {
        text.push_str(&format!("\nnote: {note}"));
    }
    text
}

/// Text as XML character data or an attribute value: markup escaped, and
/// the characters XML 1.0 cannot hold (most control characters) replaced.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\n' => out.push_str("&#10;"),
            '\t' => out.push('\t'),
            '\r' => out.push_str("&#13;"),
            c if (c as u32) < 0x20 || c == '\u{FFFE}' || c == '\u{FFFF}' => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markup_and_characters_xml_cannot_hold_are_escaped() {
        assert_eq!(escape("a<b & \"c\"\n"), "a&lt;b &amp; &quot;c&quot;&#10;");
        assert_eq!(escape("bell\u{7}"), "bell\u{FFFD}");
    }
}
