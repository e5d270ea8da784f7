//! `--format text`: for people. `path:line:col: severity[rule] message`, the
//! source lines, notes and help, then one summary line per gate. Colour only
//! when [`Style::color`] says so.

use std::fmt::Write;

use super::{GateReport, Outcome, Style, plural};
use crate::finding::{Finding, Severity};

struct Paint(bool);

impl Paint {
    fn wrap(&self, code: &str, s: &str) -> String {
        if self.0 {
            format!("\x1b[{code}m{s}\x1b[0m")
        } else {
            s.to_string()
        }
    }
    fn severity(&self, s: Severity) -> String {
        let code = match s {
            Severity::Error => "1;31",
            Severity::Warning => "1;33",
            Severity::Note => "1;36",
        };
        self.wrap(code, s.as_str())
    }
    fn dim(&self, s: &str) -> String {
        self.wrap("2", s)
    }
    fn bold(&self, s: &str) -> String {
        self.wrap("1", s)
    }
}

/// How a report's findings are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    /// Each with its source lines, notes and help (`text`).
    Full,
    /// Each on one line (`concise`).
    Concise,
    /// None: `--statistics` counts them instead.
    Counted,
}

/// The notices a run has printed already: one several gates give (`HEAD
/// has no parent`) is said once.
#[derive(Debug, Default)]
pub struct Said(std::collections::HashSet<String>);

impl Said {
    /// Of `notices`, those not said yet (now said).
    fn first_time<'a>(&mut self, notices: &'a [String]) -> Vec<&'a String> {
        notices.iter().filter(|n| self.0.insert((*n).clone())).collect()
    }
}

pub fn render(reports: &[GateReport], style: Style) -> String {
    render_all(reports, style, Layout::Full)
}

/// `--format concise`: each finding on one line, then what `text` prints
/// after the findings.
pub fn concise(reports: &[GateReport], style: Style) -> String {
    render_all(reports, style, Layout::Concise)
}

/// Each gate's summary line and nothing else: what a passing hook prints.
pub fn summaries(reports: &[GateReport], style: Style) -> String {
    let paint = Paint(style.color);
    let mut out = String::new();
    for report in reports.iter().filter(|_| !style.quiet) {
        summary(&mut out, report, &paint, style);
    }
    out
}

/// `check`'s last line alone (its gates' sections were printed as they
/// finished), or nothing for one gate or under `--quiet`.
pub fn verdict_line(reports: &[GateReport], style: Style) -> String {
    let mut out = String::new();
    if reports.len() > 1 && !style.quiet {
        verdict(&mut out, reports, &Paint(style.color), style.recording);
    }
    out
}

/// `--statistics`: per rule, how many findings and at which level (most
/// first, then by rule id), then what follows the findings in `text`.
pub fn statistics(reports: &[GateReport], style: Style) -> String {
    let paint = Paint(style.color);
    let mut out = String::new();
    for (rule, severity, count) in super::json::rule_counts(reports) {
        let _ = writeln!(out, "{count:>5}  {:<7}  {rule}", paint.severity(severity));
    }
    let tail = render_all(reports, style, Layout::Counted);
    if !out.is_empty() && !tail.is_empty() {
        out.push('\n');
    }
    out + &tail
}

fn render_all(reports: &[GateReport], style: Style, layout: Layout) -> String {
    let mut said = Said::default();
    let mut out: String = reports
        .iter()
        .map(|report| section(report, style, layout, &mut said))
        .collect();
    out.push_str(&verdict_line(reports, style));
    out
}

/// One gate's part of the report: its findings in `layout`, then its
/// error, the notices `said` has not heard, waivers, coverage and summary
/// line (only the findings under `--quiet`).
pub fn section(report: &GateReport, style: Style, layout: Layout, said: &mut Said) -> String {
    let paint = Paint(style.color);
    let mut out = String::new();
    for f in &report.findings {
        match layout {
            Layout::Full => finding(&mut out, f, &paint),
            Layout::Concise => {
                let _ = writeln!(out, "{}", first_line(f, &paint));
            }
            Layout::Counted => {}
        }
    }
    if style.quiet {
        return out;
    }
    if let Some(err) = &report.error {
        let _ = writeln!(out, "{}: {err}", paint.severity(Severity::Error));
    }
    for notice in said.first_time(&report.notices) {
        let _ = writeln!(out, "{} {notice}", paint.dim("note:"));
    }
    if !report.waivers.is_empty() {
        let _ = writeln!(out, "{}", paint.bold("waivers:"));
        for waiver in &report.waivers {
            let _ = writeln!(out, "  {}", waiver.line_shown());
        }
    }
    if let Some(coverage) = &report.coverage {
        out.push_str(&coverage.text());
    }
    summary(&mut out, report, &paint, style);
    out
}

/// The word a report uses for an outcome, coloured.
fn outcome_word(outcome: Outcome, paint: &Paint) -> String {
    match outcome {
        Outcome::Pass => paint.wrap("1;32", "passed"),
        Outcome::Blocked => paint.wrap("1;31", "blocked"),
        Outcome::Inconclusive => paint.wrap("1;33", "inconclusive"),
        Outcome::Error => paint.wrap("1;31", "could not run"),
        Outcome::Escalated => paint.wrap("1;35", "escalated"),
    }
}

/// The word for a gate's outcome, or `recorded` when the findings are
/// being written to a baseline (nothing was judged).
fn judged(outcome: Outcome, paint: &Paint, recording: bool) -> String {
    if recording {
        paint.wrap("1;36", "recorded")
    } else {
        outcome_word(outcome, paint)
    }
}

/// `check`'s last line: the overall outcome (the one the exit status
/// follows), the findings counted across the gates, then each gate's
/// outcome, in order.
fn verdict(out: &mut String, reports: &[GateReport], paint: &Paint, recording: bool) {
    let each: Vec<String> = reports
        .iter()
        .map(|r| format!("{} {}", r.gate, judged(r.outcome, paint, recording)))
        .collect();
    let count = |severity| reports.iter().map(|r| r.count(severity)).sum::<usize>();
    let _ = writeln!(
        out,
        "{}: {}: {}, {}, {} ({})",
        paint.bold("loki-gate"),
        judged(super::json::combined(reports), paint, recording),
        plural(count(Severity::Error), "error"),
        plural(count(Severity::Warning), "warning"),
        plural(count(Severity::Note), "note"),
        each.join(", ")
    );
}

/// `path:line:col: severity[rule] message`, the line a finding starts with.
fn first_line(f: &Finding, paint: &Paint) -> String {
    let place = match (&f.path, f.line, f.column) {
        (Some(p), Some(l), Some(c)) => format!("{p}:{l}:{c}: "),
        (Some(p), Some(l), None) => format!("{p}:{l}: "),
        (Some(p), None, _) => format!("{p}: "),
        _ => String::new(),
    };
    format!(
        "{}{}{} {}",
        paint.bold(&place),
        paint.severity(f.severity),
        paint.dim(&format!("[{}]", f.rule)),
        f.message
    )
}

fn finding(out: &mut String, f: &Finding, paint: &Paint) {
    let _ = writeln!(out, "{}", first_line(f, paint));
    if let (Some(line), false) = (f.line, f.snippet.is_empty()) {
        let width = (line as usize + f.snippet.len()).to_string().len();
        let gutter = paint.dim(&format!("{:width$} |", ""));
        let _ = writeln!(out, "{gutter}");
        for (i, text) in f.snippet.iter().enumerate() {
            let n = paint.dim(&format!("{:>width$} |", line as usize + i));
            let _ = writeln!(out, "{n} {}", text.trim_end());
        }
        if f.snippet.len() == 1
            && let Some(col) = f.column
        {
            let start = col.saturating_sub(1) as usize;
            let len = match (f.end_line, f.end_column) {
                (Some(el), Some(ec)) if el == line && ec as usize > start + 1 => ec as usize - 1 - start,
                _ => 1,
            };
            let _ = writeln!(
                out,
                "{gutter} {}{}",
                " ".repeat(start),
                paint.severity_marker(f.severity, len)
            );
        }
    }
    for r in &f.related {
        let at = match r.line {
            Some(line) => format!("{}:{line}", r.path),
            None => r.path.clone(),
        };
        let what = r.message.as_deref().unwrap_or("see also");
        let _ = writeln!(out, "  = {} {what}: {at}", paint.bold("note:"));
    }
    for note in &f.notes {
        let mut lines = note.lines();
        let _ = writeln!(out, "  = {} {}", paint.bold("note:"), lines.next().unwrap_or(""));
        for more in lines {
            let _ = writeln!(out, "          {more}");
        }
    }
    if let Some(help) = &f.help {
        let _ = writeln!(out, "  = {} {help}", paint.bold("help:"));
    }
    out.push('\n');
}

impl Paint {
    fn severity_marker(&self, s: Severity, len: usize) -> String {
        let code = match s {
            Severity::Error => "31",
            Severity::Warning => "33",
            Severity::Note => "36",
        };
        self.wrap(code, &"^".repeat(len.max(1)))
    }
}

fn summary(out: &mut String, r: &GateReport, paint: &Paint, style: Style) {
    let outcome = judged(r.outcome, paint, style.recording);
    let mut parts = vec![
        plural(r.count(Severity::Error), "error"),
        plural(r.count(Severity::Warning), "warning"),
        plural(r.count(Severity::Note), "note"),
    ];
    if r.suppressed > 0 {
        parts.push(format!("{} suppressed", r.suppressed));
    }
    if r.baselined > 0 {
        parts.push(format!("{} in baseline", r.baselined));
    }
    if r.at_base > 0 {
        parts.push(format!("{} found at the base", r.at_base));
    }
    parts.push(plural(r.files, "file"));
    if style.verbose {
        parts.push(format!("{} ms", r.elapsed_ms));
    }
    let _ = writeln!(out, "{}: {outcome} ({})", paint.bold(r.gate), parts.join(", "));
}
