//! `--format markdown`: the PR comment body. The hidden marker
//! `<!-- loki-gate -->` lets the next run find and edit the same comment.

use std::fmt::Write;

use super::{GateReport, Outcome, json::combined, plural};
use crate::finding::{Finding, Severity};

/// The sticky comment's hidden marker, the report's first line.
pub const MARKER: &str = crate::github::MARKER;

/// Findings listed per gate before the rest are summarised.
const MAX_ROWS: usize = 50;

/// Text for a table cell: HTML's specials escaped outside code spans only
/// (inside one, CommonMark shows `&lt;` as written, and `<` is safe), a
/// `|` escaped everywhere (GFM splits cells before it reads code spans),
/// line breaks as `<br>` (a space inside a code span). Backticks pair up in
/// order; an odd one out is plain text, so a name with a stray backtick
/// cannot turn the escaping off for what follows.
fn cell(s: &str) -> String {
    let ticks: Vec<usize> = s.match_indices('`').map(|(i, _)| i).collect();
    let paired = ticks.len() - ticks.len() % 2;
    let in_code = |at: usize| ticks[..paired].chunks(2).any(|p| p[0] < at && at < p[1]);
    let mut out = String::with_capacity(s.len());
    for (at, c) in s.char_indices() {
        let code = in_code(at);
        match c {
            '`' if !ticks[..paired].contains(&at) => out.push_str("\\`"),
            '|' => out.push_str("\\|"),
            '\r' => {}
            '\n' if code => out.push(' '),
            '\n' => out.push_str("<br>"),
            '&' if !code => out.push_str("&amp;"),
            '<' if !code => out.push_str("&lt;"),
            '>' if !code => out.push_str("&gt;"),
            c => out.push(c),
        }
    }
    out
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

/// Everything switched off in this gate's run, trusted or not, so a
/// reviewer sees it in one place.
fn waivers(out: &mut String, waivers: &[crate::trust::waiver::Waiver]) {
    use crate::trust::waiver::{Origin, Status};
    if waivers.is_empty() {
        return;
    }
    let _ = writeln!(
        out,
        "**Waivers** ({})\n\n| | kind | waives | where | added by | status | reason |\n|---|---|---|---|---|---|---|",
        waivers.len()
    );
    for w in waivers.iter().take(MAX_ROWS) {
        let icon = match w.status {
            Status::Held => "🔴",
            Status::Warned => "🟡",
            Status::Acknowledged | Status::Honoured => "⚪",
        };
        let place = match (&w.path, w.line, &w.commit) {
            (Some(p), Some(l), _) => format!("`{}:{l}`", p.replace('`', "'")),
            (Some(p), None, _) => format!("`{}`", p.replace('`', "'")),
            (None, _, Some(c)) => format!("`{}`", crate::git::short(c)),
            _ => String::new(),
        };
        let by = match w.origin {
            Origin::Base => "the base".to_string(),
            Origin::Change if w.authors.is_empty() => "the change".to_string(),
            Origin::Change => cell(&w.authors.join(", ")),
        };
        let mut status = w.status.as_str().to_string();
        if let Some(who) = &w.acknowledged_by {
            status = format!("{status} by {}", cell(who));
        }
        if !w.findings.is_empty() {
            status = format!("{status}; hid {}", plural(w.findings.len(), "finding"));
        }
        let rules: Vec<String> = w.rules.iter().map(|r| format!("`{}`", r.replace('`', "'"))).collect();
        let _ = writeln!(
            out,
            "| {icon} | {} | {} | {place} | {by} | {status} | {} |",
            w.kind.as_str(),
            rules.join(", "),
            cell(&w.reason)
        );
    }
    if waivers.len() > MAX_ROWS {
        let _ = writeln!(out, "\n…and {} more; see the JSON report.", waivers.len() - MAX_ROWS);
    }
    out.push('\n');
}

/// One table of findings (at most [`MAX_ROWS`] rows).
fn table(out: &mut String, findings: &[&Finding]) {
    if findings.is_empty() {
        return;
    }
    let _ = writeln!(out, "| | rule | location | message |\n|---|---|---|---|");
    for f in findings.iter().take(MAX_ROWS) {
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
    if findings.len() > MAX_ROWS {
        let _ = writeln!(
            out,
            "\n…and {} more; see the job log or the SARIF upload.",
            findings.len() - MAX_ROWS
        );
    }
    out.push('\n');
}

pub fn render(reports: &[GateReport]) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "{MARKER}");
    let _ = writeln!(out, "## loki-gate: {}\n", badge(combined(reports)));
    for r in reports {
        let at_base = match r.at_base {
            0 => String::new(),
            n => format!(", {n} found at the base"),
        };
        let _ = writeln!(
            out,
            "### `{}`: {} ({}, {}, {}{at_base})\n",
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
        // Findings a person must decide on go under their question, after the rest.
        let mut questions: Vec<&str> = r.findings.iter().filter_map(|f| f.confirm).collect();
        questions.sort_unstable();
        questions.dedup();
        let plain: Vec<&Finding> = r
            .findings
            .iter()
            .filter(|f| f.confirm.is_none() && !f.at_base)
            .collect();
        table(&mut out, &plain);
        for question in questions {
            let asked: Vec<&Finding> = r.findings.iter().filter(|f| f.confirm == Some(question)).collect();
            let _ = writeln!(
                out,
                "**{question}** ({})\n\nIf each is intended, acknowledge them in one step: the acknowledge label (`loki-gate-ack` by default) or an approving review on this pull request, when the base's config allows them, or a `Loki-Gate-Allow: <rule> <reason>` trailer in a trusted hand. Otherwise fix the code, not the expectation.\n",
                asked.len()
            );
            table(&mut out, &asked);
        }
        // What the base already had: there, not in the way.
        let old: Vec<&Finding> = r.findings.iter().filter(|f| f.confirm.is_none() && f.at_base).collect();
        if !old.is_empty() {
            let _ = writeln!(
                out,
                "<details><summary>{} the base already had (not this change's)</summary>\n",
                plural(old.len(), "finding")
            );
            table(&mut out, &old);
            let _ = writeln!(out, "</details>\n");
        }
        if let Some(coverage) = &r.coverage {
            out.push_str(&coverage.markdown(MAX_ROWS, cell));
        }
        waivers(&mut out, &r.waivers);
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

#[cfg(test)]
mod cell_tests {
    use super::cell;

    #[test]
    fn code_spans_are_left_as_written_and_the_rest_escaped() {
        assert_eq!(
            cell("a `Loki-Gate-Allow: <rule> <reason>` trailer <b>"),
            "a `Loki-Gate-Allow: <rule> <reason>` trailer &lt;b&gt;"
        );
        assert_eq!(cell("x | `a|b`"), "x \\| `a\\|b`");
        // Backticks pair as CommonMark pairs them (inside a code span HTML is
        // text); the odd one out is escaped, so it opens nothing.
        assert_eq!(cell("it`s <script> `ok` <b>"), "it`s <script> `ok\\` &lt;b&gt;");
        assert_eq!(cell("`a\nb`\nc"), "`a b`<br>c");
    }
}
