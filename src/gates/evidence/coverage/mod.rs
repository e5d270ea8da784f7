//! Coverage of the changed lines, read from the reports a test run already
//! wrote (`evidence --coverage F`): which added lines are executable, and
//! which of those the tests ran. Nothing is re-run.
//!
//! Four formats, told apart by their content: LCOV, Cobertura XML,
//! coverage.py JSON and Go cover profiles. Their file names become
//! repo-relative paths in [`paths`]. A line counts only when a report lists
//! it as executable; when several reports cover one file, a line is
//! executable if any lists it and covered if any ran it.

mod cobertura;
mod coveragepy;
mod gocover;
mod lcov;
pub mod paths;

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use anyhow::{Context as _, Result, anyhow};

use super::rules;
use crate::changed::{ChangeSet, Lines};
use crate::finding::Finding;
use crate::git::display_path;
use crate::verdict::coverage::{Coverage, FileCoverage, percent};

/// The report formats read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Lcov,
    Cobertura,
    CoveragePy,
    GoProfile,
}

impl Format {
    pub fn name(self) -> &'static str {
        match self {
            Format::Lcov => "LCOV",
            Format::Cobertura => "Cobertura XML",
            Format::CoveragePy => "coverage.py JSON",
            Format::GoProfile => "Go cover profile",
        }
    }
}

/// Asked with each file name a report records (and the report's source
/// roots): read this file's lines? Readers skip the rest unread, so a report
/// of a whole codebase costs little more than its changed files.
pub type Keep<'k> = dyn FnMut(&str, &[String]) -> bool + 'k;

/// One file as a report records it.
#[derive(Debug, Clone)]
pub struct Entry {
    pub name: String,
    pub hits: Hits,
}

#[derive(Debug, Clone)]
pub enum Hits {
    /// Executable lines, and whether each ran.
    Lines(BTreeMap<u32, bool>),
    /// Go statement blocks, turned into lines once the source is at hand.
    Blocks(Vec<Block>),
}

/// A Go cover block: `start` up to (not including) `end`, as (line, column).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Block {
    pub start: (u32, u32),
    pub end: (u32, u32),
    pub statements: u32,
    pub covered: bool,
}

/// A report's content, before its names are looked up.
#[derive(Debug)]
pub struct Parsed {
    pub format: Format,
    pub entries: Vec<Entry>,
}

/// Read a report, telling its format from its content; only the files
/// `keep` wants get their lines read.
pub fn parse(bytes: &[u8], keep: &mut Keep<'_>) -> Result<Parsed, String> {
    let text = String::from_utf8_lossy(bytes);
    let text = text.trim_start_matches('\u{feff}');
    let head = text.trim_start();
    let first = head.lines().next().unwrap_or("").trim();
    let (format, entries) = if head.is_empty() {
        return Err("the file is empty: was the test run interrupted before it wrote the report?".into());
    } else if head.starts_with('<') {
        (Format::Cobertura, cobertura::parse(text, keep)?)
    } else if head.starts_with('{') {
        let value: serde_json::Value = serde_json::from_str(text).map_err(|e| {
            // serde_json reads at most 128 levels deep (issue 54).
            if e.to_string().starts_with("recursion limit exceeded") {
                format!("JSON nested more than 128 levels deep ({e}): not a report loki-gate reads")
            } else {
                format!("invalid JSON: {e}")
            }
        })?;
        if !coveragepy::is_coveragepy(&value) {
            return Err(
                "JSON that is not coverage.py's report: for istanbul, nyc, c8, jest or vitest use the `lcov` reporter"
                    .into(),
            );
        }
        (Format::CoveragePy, coveragepy::parse(value, keep)?)
    } else if first.starts_with("mode:") {
        (Format::GoProfile, gocover::parse(text, keep)?)
    } else if ["TN:", "SF:"].iter().any(|p| first.starts_with(p)) {
        (Format::Lcov, lcov::parse(text, keep)?)
    } else {
        return Err(
            "not a coverage report loki-gate reads: write LCOV, Cobertura XML, coverage.py JSON or a Go cover profile"
                .into(),
        );
    };
    Ok(Parsed { format, entries })
}

/// A report read from disk, its files found in the repository.
#[derive(Debug)]
pub struct Loaded {
    /// The report as messages name it.
    pub shown: String,
    pub format: Format,
    /// The lines of the wanted files it covers.
    pub files: BTreeMap<PathBuf, Hits>,
    /// The extensions of every file it covers (`py`, `go`).
    pub extensions: BTreeSet<String>,
    /// How many of the files it lists are in the working tree.
    pub found: usize,
    /// Names the report lists that are not files in the working tree.
    pub missing: Vec<String>,
    /// The most recently modified file the report covers.
    pub newest: Option<(PathBuf, SystemTime)>,
    /// When the report was written.
    pub written: SystemTime,
}

impl Loaded {
    /// `coverage.xml (Cobertura XML): 12 file(s) found here, 1 not (the first: src/gone.py)`.
    pub fn describe(&self) -> String {
        let mut line = format!(
            "{} ({}): {} file(s) found here",
            self.shown,
            self.format.name(),
            self.found
        );
        if let Some(first) = self.missing.first() {
            line.push_str(&format!(", {} not (the first: {first})", self.missing.len()));
        }
        line
    }

    /// The file the report covers that changed after it was written, and by how many seconds.
    pub fn stale(&self) -> Option<(String, u64)> {
        let (path, when) = self.newest.as_ref()?;
        let secs = when.duration_since(self.written).ok()?.as_secs().max(1);
        Some((display_path(path), secs))
    }
}

/// Read the report at `path`, find its files under `root`, and keep the
/// lines of those in `wanted` (repo-relative).
pub fn load(path: &Path, shown: &str, root: &Path, wanted: &HashSet<PathBuf>) -> Result<Loaded> {
    let bytes = std::fs::read(path).with_context(|| {
        format!(
            "could not read coverage report {shown}: write it in the test run (e.g. `coverage xml`, `go test -coverprofile`), or fix gates.evidence.coverage"
        )
    })?;
    let written = std::fs::metadata(path)?.modified()?;
    let mapper = paths::Mapper::new(root);
    // Relative names are relative to where the tool ran: try the report's
    // directory and each above it, up to the root.
    let bases: Vec<String> = crate::git::relative_to(root, path)
        .map(|rel| rel.ancestors().skip(1).map(display_path).collect())
        .unwrap_or_else(|| vec![String::new()]);
    let mut found: HashMap<String, Option<PathBuf>> = HashMap::new();
    let mut missing = Vec::new();
    let mut newest: Option<(PathBuf, SystemTime)> = None;
    let mut extensions = BTreeSet::new();
    let mut keep = |name: &str, sources: &[String]| -> bool {
        let path = found.entry(name.to_string()).or_insert_with(|| {
            let Some(hit) = mapper.find(name, sources, &bases) else {
                missing.push(name.to_string());
                return None;
            };
            if let Some(modified) = hit.modified
                && newest.as_ref().is_none_or(|(_, n)| modified > *n)
            {
                newest = Some((hit.path.clone(), modified));
            }
            extensions.extend(hit.path.extension().and_then(|e| e.to_str()).map(str::to_string));
            Some(hit.path)
        });
        path.as_ref().is_some_and(|p| wanted.contains(p))
    };
    let parsed = parse(&bytes, &mut keep).map_err(|why| anyhow!("coverage report {shown}: {why}"))?;
    let listed = found.len();
    if listed > 0 && found.values().all(Option::is_none) {
        return Err(anyhow!(
            "coverage report {shown}: none of its {listed} file(s) is in this repository (the first is {}): is it from another project, or was it written from another directory?",
            missing[0]
        ));
    }
    let mut files: BTreeMap<PathBuf, Hits> = BTreeMap::new();
    for entry in parsed.entries {
        let Some(Some(path)) = found.get(&entry.name) else {
            continue;
        };
        match (files.get_mut(path), entry.hits) {
            (Some(Hits::Lines(have)), Hits::Lines(more)) => union(have, more),
            (Some(Hits::Blocks(have)), Hits::Blocks(more)) => have.extend(more),
            (_, hits) => {
                files.insert(path.clone(), hits);
            }
        }
    }
    Ok(Loaded {
        shown: shown.to_string(),
        format: parsed.format,
        found: found.values().filter(|p| p.is_some()).count(),
        files,
        extensions,
        missing,
        newest,
        written,
    })
}

/// The changed lines the reports cover: the numbers, and one
/// `evidence/uncovered-change` per run of uncovered executable lines.
pub fn measure(
    changes: &ChangeSet,
    reports: &[Loaded],
    root: &Path,
    threshold: Option<f64>,
) -> (Coverage, Vec<Finding>) {
    let extensions: BTreeSet<&str> = reports.iter().flat_map(|r| &r.extensions).map(String::as_str).collect();
    let mut coverage = Coverage {
        reports: reports.iter().map(|r| r.shown.clone()).collect(),
        changed: 0,
        executable: 0,
        covered: 0,
        percent: None,
        threshold,
        files: Vec::new(),
        not_measured: Vec::new(),
    };
    let mut findings = Vec::new();
    for file in changes.present().filter(|f| !f.binary) {
        let hits: Vec<&Hits> = reports.iter().filter_map(|r| r.files.get(&file.path)).collect();
        let shown = display_path(&file.path);
        if hits.is_empty() {
            if file
                .path
                .extension()
                .and_then(|e| e.to_str())
                .is_some_and(|e| extensions.contains(e))
            {
                coverage.not_measured.push(shown);
            }
            continue;
        }
        let source = std::cell::OnceCell::new();
        let source = || source.get_or_init(|| std::fs::read(root.join(&file.path)).unwrap_or_default());
        let mut lines: BTreeMap<u32, bool> = BTreeMap::new();
        for h in hits {
            match h {
                Hits::Lines(l) => union(&mut lines, l.iter().map(|(line, ran)| (*line, *ran))),
                Hits::Blocks(b) => union(&mut lines, gocover::lines(b, source())),
            }
        }
        let changed = match &file.lines {
            Lines::Ranges(r) => r.iter().map(|(a, b)| u64::from(b - a + 1)).sum(),
            Lines::All => line_count(source()),
        };
        if changed == 0 {
            // An empty new file (`__init__.py`) changes no line.
            continue;
        }
        let row = measure_file(&shown, changed, &file.lines, &lines);
        for &[from, to] in &row.uncovered {
            let executable = lines.range(from..=to).count();
            findings.push(rules::uncovered_change(&shown, from, to, executable));
        }
        coverage.changed += row.changed;
        coverage.executable += row.executable;
        coverage.covered += row.covered;
        coverage.files.push(row);
    }
    coverage.percent = percent(coverage.covered, coverage.executable);
    if let (Some(min), Some(now)) = (threshold, coverage.percent)
        && now < min
    {
        findings.push(rules::changed_coverage_below(
            now,
            min,
            coverage.covered,
            coverage.executable,
        ));
    }
    (coverage, findings)
}

/// One file's row: `executable` maps each executable line to whether it ran.
fn measure_file(path: &str, changed: u64, lines: &Lines, executable: &BTreeMap<u32, bool>) -> FileCoverage {
    let mut row = FileCoverage {
        path: path.to_string(),
        changed,
        executable: 0,
        covered: 0,
        percent: None,
        uncovered: Vec::new(),
    };
    // A run of uncovered changed lines ends at the next executable line that
    // is covered or unchanged; non-executable lines inside it do not end it.
    let mut open: Option<[u32; 2]> = None;
    for (&line, &ran) in executable {
        if !lines.contains(line) {
            row.uncovered.extend(open.take());
            continue;
        }
        row.executable += 1;
        if ran {
            row.covered += 1;
            row.uncovered.extend(open.take());
        } else {
            open = Some(open.map_or([line, line], |[from, _]| [from, line]));
        }
    }
    row.uncovered.extend(open);
    row.percent = percent(row.covered, row.executable);
    row
}

/// Add `more` to `lines`: executable if either lists a line, covered if either ran it.
fn union(lines: &mut BTreeMap<u32, bool>, more: impl IntoIterator<Item = (u32, bool)>) {
    for (line, ran) in more {
        *lines.entry(line).or_default() |= ran;
    }
}

fn line_count(source: &[u8]) -> u64 {
    let newlines = source.iter().filter(|b| **b == b'\n').count() as u64;
    newlines + u64::from(!source.is_empty() && !source.ends_with(b"\n"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn exec(lines: &[(u32, bool)]) -> BTreeMap<u32, bool> {
        lines.iter().copied().collect()
    }

    #[test]
    fn uncovered_runs_skip_non_executable_lines_and_stop_at_unchanged_ones() {
        // 10-16 and 18-20 changed; 12 is a comment; 17 and 21 are unchanged executable lines.
        let changed = Lines::Ranges(vec![(10, 16), (18, 20)]);
        let lines = exec(&[
            (10, true),
            (11, false),
            (13, false),
            (14, true),
            (15, false),
            (16, false),
            (17, false),
            (18, false),
            (21, false),
        ]);
        let row = measure_file("a.py", 10, &changed, &lines);
        assert_eq!(row.executable, 7);
        assert_eq!(row.covered, 2);
        // 17 is executable and unchanged, so 15-16 and 18 are separate runs.
        assert_eq!(row.uncovered, vec![[11, 13], [15, 16], [18, 18]]);
        assert_eq!(crate::verdict::coverage::shown(row.percent), "28.5%");
    }

    #[test]
    fn formats_are_told_by_content() {
        let f = |s: &str| parse(s.as_bytes(), &mut |_, _| true).map(|p| p.format);
        assert_eq!(f("TN:\nSF:a.js\nDA:1,1\nend_of_record\n"), Ok(Format::Lcov));
        assert_eq!(f("\u{feff}SF:a.js\nDA:1,1\n"), Ok(Format::Lcov));
        assert_eq!(f("mode: count\na/b.go:1.1,2.2 1 0\n"), Ok(Format::GoProfile));
        assert_eq!(f("<?xml version=\"1.0\"?><coverage/>"), Ok(Format::Cobertura));
        assert_eq!(f(r#"{"meta":{"format":3},"files":{}}"#), Ok(Format::CoveragePy));
        assert!(f(r#"{"a.js":{"s":{}}}"#).unwrap_err().contains("lcov"));
        assert!(f("").unwrap_err().contains("empty"));
        assert!(f("hello\n").unwrap_err().contains("not a coverage report"));
    }

    #[test]
    fn line_counts() {
        assert_eq!(line_count(b""), 0);
        assert_eq!(line_count(b"a\nb"), 2);
        assert_eq!(line_count(b"a\nb\n"), 2);
    }
}
