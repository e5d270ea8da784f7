//! `--format markdown`: the PR comment body. The hidden marker
//! `<!-- loki-gate -->` lets the next run find and edit the same comment.

use std::fmt::Write;

use super::{GateReport, Outcome, json::combined, plural};
use crate::finding::Severity;

pub const MARKER: &str = "<!-- loki-gate -->";

/// Findings listed per gate before the rest are summarised.
const MAX_ROWS: usize = 50;

fn cell(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('|', "\\|")
        .replace('\r', "")
        .replace('\n', "<br>")
}

fn badge(o: Outcome) -> &'static str {
    match o {
        Outcome::Pass => "✅ passed",
        Outcome::Blocked => "❌ blocked",
        Outcome::Inconclusive => "⚠️ inconclusive",
        Outcome::Error => "💥 could not run",
        Outcome::Escalated => "🚨 escalated: stuck, handed off",
    }
}

pub fn render(reports: &[GateReport]) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "{MARKER}");
    let _ = writeln!(out, "## loki-gate: {}\n", badge(combined(reports)));
    for r in reports {
        let _ = writeln!(
            out,
            "### `{}`: {} ({}, {}, {})\n",
            r.gate,
            badge(r.outcome),
            plural(r.count(Severity::Error), "error"),
            plural(r.count(Severity::Warning), "warning"),
            plural(r.count(Severity::Note), "note")
        );
        if let Some(err) = &r.error {
            let _ = writeln!(out, "> {}\n", cell(err));
        }
        if let Some(why) = &r.inconclusive {
            let _ = writeln!(out, "> **Inconclusive:** {}\n", cell(why));
        }
        if !r.findings.is_empty() {
            let _ = writeln!(out, "| | rule | location | message |\n|---|---|---|---|");
            for f in r.findings.iter().take(MAX_ROWS) {
                let icon = match f.severity {
                    Severity::Error => "🔴",
                    Severity::Warning => "🟡",
                    Severity::Note => "🔵",
                };
                let place = match (&f.path, f.line) {
                    (Some(p), Some(l)) => format!("`{}:{l}`", p.replace('`', "'")),
                    (Some(p), None) => format!("`{}`", p.replace('`', "'")),
                    _ => String::new(),
                };
                let mut message = cell(&f.message);
                if let Some(help) = &f.help {
                    let _ = write!(message, "<br>*{}*", cell(help));
                }
                let _ = writeln!(out, "| {icon} | `{}` | {place} | {message} |", f.rule);
            }
            if r.findings.len() > MAX_ROWS {
                let _ = writeln!(
                    out,
                    "\n…and {} more; see the job log or the SARIF upload.",
                    r.findings.len() - MAX_ROWS
                );
            }
            out.push('\n');
        }
        if let Some(coverage) = &r.coverage {
            out.push_str(&coverage.markdown(MAX_ROWS, cell));
        }
        for notice in &r.notices {
            let _ = writeln!(out, "- {}", cell(notice));
        }
        if !r.notices.is_empty() {
            out.push('\n');
        }
    }
    let _ = writeln!(out, "<sub>loki-gate {}</sub>", env!("CARGO_PKG_VERSION"));
    out
}
