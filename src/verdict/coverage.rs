//! Changed-line coverage as reports carry it: the numbers behind
//! `evidence --coverage`, a per-file table in text and markdown, and the
//! `coverage` object in JSON.

use std::fmt::Write;

use serde::{Deserialize, Serialize};

/// How much of the change the tests ran, per the coverage reports read.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Coverage {
    /// The coverage reports the numbers come from (stale ones are left out).
    pub reports: Vec<String>,
    /// Changed lines in files a report covers.
    pub changed: u64,
    /// Of those, lines a report lists as executable.
    pub executable: u64,
    /// Of those, lines the tests ran.
    pub covered: u64,
    /// `covered / executable` in percent; `null` when no changed line is executable.
    pub percent: Option<f64>,
    /// `gates.evidence.min-changed-coverage`, when set.
    pub threshold: Option<f64>,
    /// One row per changed file a report covers, by path.
    pub files: Vec<FileCoverage>,
    /// Changed files of a language the reports cover that no report lists.
    pub not_measured: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FileCoverage {
    pub path: String,
    pub changed: u64,
    pub executable: u64,
    pub covered: u64,
    pub percent: Option<f64>,
    /// Inclusive line ranges of changed executable lines the tests never ran.
    pub uncovered: Vec<[u32; 2]>,
}

/// `covered / executable` in percent, `None` for nothing executable.
pub fn percent(covered: u64, executable: u64) -> Option<f64> {
    (executable > 0).then(|| covered as f64 * 100.0 / executable as f64)
}

/// A percentage with one decimal, rounded down so 79.96 never shows as 80.0.
pub fn shown(percent: Option<f64>) -> String {
    percent.map_or("-".into(), |p| format!("{:.1}%", (p * 10.0).floor() / 10.0))
}

impl Coverage {
    /// `50.0% (3 of 6 executable changed lines covered)`.
    pub fn headline(&self) -> String {
        match self.percent {
            Some(_) => format!(
                "{} ({} of {} executable changed line{} covered)",
                shown(self.percent),
                self.covered,
                self.executable,
                if self.executable == 1 { "" } else { "s" },
            ),
            None => "no changed line is executable".into(),
        }
    }

    /// The table for `--format text`.
    pub fn text(&self) -> String {
        let mut out = String::new();
        let required = self
            .threshold
            .map_or(String::new(), |min| format!(", required {}", shown(Some(min))));
        let _ = writeln!(
            out,
            "changed-line coverage: {}{required}, from {}",
            self.headline(),
            self.reports.join(", ")
        );
        if self.files.is_empty() {
            return out;
        }
        let width = self
            .files
            .iter()
            .map(|f| f.path.chars().count())
            .chain([5])
            .max()
            .unwrap_or(5);
        let _ = writeln!(
            out,
            "  {:<width$}  {:>7}  {:>10}  {:>7}  {:>6}",
            "file", "changed", "executable", "covered", "%"
        );
        let row = |out: &mut String, path: &str, c: u64, e: u64, v: u64| {
            let _ = writeln!(
                out,
                "  {path:<width$}  {c:>7}  {e:>10}  {v:>7}  {:>6}",
                shown(percent(v, e))
            );
        };
        for f in &self.files {
            row(&mut out, &f.path, f.changed, f.executable, f.covered);
        }
        if self.files.len() > 1 {
            row(&mut out, "total", self.changed, self.executable, self.covered);
        }
        out
    }

    /// The section for `--format markdown`, at most `max_rows` files.
    pub fn markdown(&self, max_rows: usize, cell: impl Fn(&str) -> String) -> String {
        let mut out = String::new();
        let reports: Vec<String> = self.reports.iter().map(|r| format!("`{}`", cell(r))).collect();
        let _ = write!(
            out,
            "**Changed-line coverage:** {} from {}",
            self.headline(),
            reports.join(", ")
        );
        if let Some(min) = self.threshold {
            let _ = write!(out, "; required {}", shown(Some(min)));
        }
        out.push_str("\n\n");
        if self.files.is_empty() {
            return out;
        }
        let _ = writeln!(
            out,
            "| file | changed | executable | covered | % |\n|---|--:|--:|--:|--:|"
        );
        for f in self.files.iter().take(max_rows) {
            let _ = writeln!(
                out,
                "| `{}` | {} | {} | {} | {} |",
                cell(&f.path).replace('`', "'"),
                f.changed,
                f.executable,
                f.covered,
                shown(f.percent)
            );
        }
        if self.files.len() > max_rows {
            let _ = writeln!(out, "| …and {} more | | | | |", self.files.len() - max_rows);
        }
        let _ = writeln!(
            out,
            "| **total** | {} | {} | {} | {} |\n",
            self.changed,
            self.executable,
            self.covered,
            shown(self.percent)
        );
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentages_round_down_and_nothing_executable_is_a_dash() {
        assert_eq!(shown(percent(7997, 10000)), "79.9%");
        assert_eq!(shown(percent(3, 6)), "50.0%");
        assert_eq!(shown(percent(0, 0)), "-");
        assert_eq!(shown(percent(1, 1)), "100.0%");
    }
}
