//! The `evidence` gate: no "done" without proof.
//!
//! `evidence start` records the run-start anchor (HEAD and the time) in
//! `run.json`. `evidence` then passes only when both hold:
//! 1. something differs from the anchor (committed, staged, unstaged or
//!    untracked-not-ignored), not counting the state directory or the results
//!    file;
//! 2. the tests are green with at least one test executed, from running the
//!    test command or from a results file newer than the last change.
//!
//! With no anchor the outcome is `inconclusive`: a disclosure
//! (`evidence/no-anchor`, warn) that blocks only with `--require-anchor`.
//!
//! After a green run, coverage reports given with `--coverage` are read for
//! the changed lines (per `--base`, as every gate): see [`coverage`].

pub mod coverage;
pub mod results;
pub mod rules;
pub mod settings;
pub mod xml;

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use anyhow::{Context as _, Result, anyhow};

pub use super::records::{Anchor, LastTests, RunState};
use super::{Context, GateOutput};
use crate::changed;
use crate::finding::Finding;
use crate::git::{Base, Detail, Side, Status, display_path, relative_to};
use crate::process;
use crate::rule::{Level, Levels, Source};
use results::TestRun;
use settings::{Settings, TestSource};

fn now() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs())
}

fn short(commit: &str) -> &str {
    &commit[..commit.len().min(12)]
}

/// `loki-gate evidence start`: record HEAD and the time as the run start.
pub fn start(cx: &Context<'_>) -> Result<Anchor> {
    let anchor = Anchor {
        commit: cx.repo.head()?,
        branch: cx.repo.branch(),
        started_at: now(),
    };
    let recorded = anchor.clone();
    // A new run: the previous run's test outcome no longer applies.
    cx.store.update::<RunState>(move |_| {
        Ok(RunState {
            anchor: Some(recorded),
            last_tests: None,
        })
    })?;
    Ok(anchor)
}

/// Describe an anchor for the user.
pub fn describe(anchor: &Anchor) -> String {
    let at = anchor
        .commit
        .as_deref()
        .map_or("an empty repository".to_string(), |c| format!("commit {}", short(c)));
    match &anchor.branch {
        Some(b) => format!("{at} on {b}"),
        None => at,
    }
}

/// Apply the gate's policy knobs to the levels: `require-anchor` makes the
/// missing-anchor disclosure block.
pub fn adjust_levels(levels: &mut Levels, settings: &Settings) {
    if settings.require_anchor {
        levels.set(rules::NO_ANCHOR.id, Level::Deny, Source::Cli);
    }
}

/// `loki-gate evidence`.
pub fn run(cx: &Context<'_>, settings: &Settings) -> Result<GateOutput> {
    let root = cx.repo.root();
    let mut out = GateOutput::default();
    let state: Option<RunState> = cx.store.read()?;
    let anchor = state.and_then(|s| s.anchor);

    let mut skip = cx.skip_dirs.clone();
    let results_rel = match &settings.tests {
        TestSource::Results(p) => relative_to(root, p),
        TestSource::Command(_) => None,
    };
    skip.extend(results_rel.clone());
    // The reports a test run writes are evidence, not changes.
    skip.extend(settings.coverage.iter().filter_map(|p| relative_to(root, p)));

    // 1. The diff since the anchor, measured before the tests can write anything.
    let changed = match &anchor {
        Some(a) => {
            if let Some(c) = &a.commit
                && !cx.repo.commit_exists(c)
            {
                return Err(anyhow!(
                    "the run start {} is no longer in this repository (history rewritten?): run `loki-gate evidence start` again",
                    short(c)
                ));
            }
            let base = Base::at(a.commit.clone());
            let files = cx.repo.diff(Side::Worktree(&base), &skip, Detail::Paths)?;
            if files.is_empty() {
                out.findings.push(rules::empty_diff(a.commit.as_deref().map(short)));
                return Ok(out);
            }
            out.files = files.len();
            out.notices.push(format!(
                "{} file(s) changed since the run start at {}",
                files.len(),
                describe(a)
            ));
            files
        }
        None => {
            out.findings.push(rules::no_anchor());
            out.inconclusive = Some("no run start recorded".into());
            // Without an anchor, freshness of a results file is judged against
            // the uncommitted changes; a test command needs no file list.
            match settings.tests {
                TestSource::Results(_) => {
                    let head = Base::at(cx.repo.head()?);
                    cx.repo.diff(Side::Worktree(&head), &skip, Detail::Paths)?
                }
                TestSource::Command(_) => Vec::new(),
            }
        }
    };

    // 2. Green tests.
    let (source, run, red) = match &settings.tests {
        TestSource::Results(path) => {
            let shown = results_rel
                .as_deref()
                .map_or_else(|| path.display().to_string(), display_path);
            let bytes = std::fs::read(path).with_context(|| {
                format!("could not read test results {shown}: run the tests to write it, or fix the path")
            })?;
            let written = std::fs::metadata(path)?.modified()?;
            if let Some((newest, when)) = newest_change(cx, &changed)
                && when > written
            {
                let secs = when.duration_since(written).map_or(0, |d| d.as_secs().max(1));
                out.findings.push(rules::stale_results(&shown, &newest, secs));
                return Ok(out);
            }
            let run = results::parse_file(&bytes).with_context(|| format!("could not read test results {shown}"))?;
            let red = (run.failed > 0).then(|| {
                rules::tests_failed(
                    &format!("{shown} ({})", run.format),
                    Some((run.passed, run.failed)),
                    &run.failing,
                    &[],
                )
            });
            (format!("results: {shown}"), Some(run), red)
        }
        TestSource::Command(command) => {
            let (run, red) = run_command(root, command, settings)?;
            (format!("command: {command}"), run, red)
        }
    };
    let green = red.is_none();
    let executed = run.as_ref().is_some_and(|r| r.executed() > 0);
    match (red, &run) {
        (Some(finding), _) => out.findings.push(finding),
        (None, None) => out.findings.push(rules::no_tests_ran(&label(&source), true)),
        (None, Some(run)) if run.executed() == 0 => out.findings.push(rules::no_tests_ran(&label(&source), false)),
        (None, Some(run)) => out.notices.push(format!(
            "tests green: {} passed, {} skipped ({}, {})",
            run.passed,
            run.skipped,
            run.format,
            label(&source)
        )),
    }
    record(cx, source, run.as_ref(), green)?;

    // 3. How much of the change the green run ran.
    if !settings.coverage.is_empty() {
        if green && executed {
            measure_coverage(cx, settings, &skip, &mut out)?;
        } else {
            out.notices
                .push("changed-line coverage not measured: the tests are not green".into());
        }
    }
    Ok(out)
}

/// Read the coverage reports and measure the changed lines against the fresh ones.
fn measure_coverage(cx: &Context<'_>, settings: &Settings, skip: &[PathBuf], out: &mut GateOutput) -> Result<()> {
    let root = cx.repo.root();
    let threshold = settings.min_changed_coverage;
    let changes = changed::collect(cx.repo, cx.scope, &cx.exclude, skip)?;
    let wanted: HashSet<PathBuf> = changes
        .present()
        .filter(|f| !f.binary)
        .map(|f| f.path.clone())
        .collect();
    let mut fresh = Vec::new();
    for path in &settings.coverage {
        let shown = relative_to(root, path).map_or_else(|| path.display().to_string(), |p| display_path(&p));
        let loaded = coverage::load(path, &shown, root, &wanted)?;
        out.notices.push(loaded.describe());
        match loaded.stale() {
            Some((newest, secs)) => {
                out.findings
                    .push(rules::stale_coverage(&shown, &newest, secs, threshold.is_some()))
            }
            None => fresh.push(loaded),
        }
    }
    if fresh.is_empty() {
        out.notices
            .push("changed-line coverage not measured: every coverage report is stale".into());
        return Ok(());
    }
    out.notices.extend(changes.notes().iter().cloned());
    let (summary, findings) = coverage::measure(&changes, &fresh, root, threshold);
    if !summary.not_measured.is_empty() {
        out.notices.push(format!(
            "changed but in no coverage report, so not measured: {} (tools leave out files no test imports unless told to list every source file: coverage.py `source`, c8/nyc `--all`, jest `collectCoverageFrom`)",
            summary.not_measured.join(", ")
        ));
    }
    out.findings.extend(findings);
    out.coverage = Some(summary);
    Ok(())
}

/// `command: cargo test` -> `` `cargo test` ``; `results: r.xml` -> `r.xml`.
fn label(source: &str) -> String {
    match source.split_once(": ") {
        Some(("command", cmd)) => quoted(cmd),
        Some((_, file)) => file.to_string(),
        None => source.to_string(),
    }
}

/// A command as messages show it: in backticks, long ones shortened.
fn quoted(command: &str) -> String {
    const MAX: usize = 60;
    let one_line = command.split_whitespace().collect::<Vec<_>>().join(" ");
    if one_line.chars().count() <= MAX {
        format!("`{one_line}`")
    } else {
        format!("`{}…`", one_line.chars().take(MAX).collect::<String>())
    }
}

/// Run the test command: what its output says, and the red finding if it failed.
fn run_command(root: &Path, command: &str, settings: &Settings) -> Result<(Option<TestRun>, Option<Finding>)> {
    let output = process::run_shell(command, root, settings.timeout)?;
    // What was cut is no test result: never read as one (issue 54).
    if let Some(why) = output.overflowed(&format!("the test command {}", quoted(command))) {
        return Err(anyhow!(why));
    }
    let text = format!("{}\n{}", output.stdout, output.stderr);
    let parsed = results::parse_output(&text);
    let tail = || -> Vec<String> {
        let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
        lines[lines.len().saturating_sub(15)..]
            .iter()
            .map(|s| s.to_string())
            .collect()
    };
    if output.timed_out {
        let what = format!(
            "{} did not finish within {}s",
            quoted(command),
            settings.timeout.as_secs_f64()
        );
        return Ok((parsed, Some(rules::tests_failed(&what, None, &[], &tail()))));
    }
    if let Some(why) = could_not_run(command, &output, parsed.as_ref()) {
        return Err(anyhow!(why));
    }
    if !output.success() {
        // A runner that says it ran nothing (pytest exits 5) ran nothing; that is not a failure report.
        if let Some(run) = &parsed
            && run.executed() == 0
        {
            let what = format!("{} (exit {})", quoted(command), output.code.unwrap_or(-1));
            return Ok((parsed, Some(rules::no_tests_ran(&what, false))));
        }
        let how = output
            .code
            .map_or("was killed by a signal".to_string(), |c| format!("exited with {c}"));
        let (counts, failing) = parsed
            .as_ref()
            .map_or((None, &[][..]), |r| (Some((r.passed, r.failed)), &r.failing[..]));
        let red = rules::tests_failed(&format!("{} {how}", quoted(command)), counts, failing, &tail());
        return Ok((parsed, Some(red)));
    }
    if let Some(run) = &parsed
        && run.failed > 0
    {
        let what = format!("{} ({})", quoted(command), run.format);
        let red = rules::tests_failed(&what, Some((run.passed, run.failed)), &run.failing, &tail());
        return Ok((parsed, Some(red)));
    }
    Ok((parsed, None))
}

/// Why a test command that reported no results could not run the tests at
/// all (a missing program or module, a runner usage or collection error),
/// with the runner's own last lines: that is not "tests failed", and a run
/// that could not collect tests is no evidence either way.
fn could_not_run<'a>(command: &str, output: &'a process::Output, parsed: Option<&TestRun>) -> Option<String> {
    if output.success() || output.timed_out {
        return None;
    }
    let text = format!("{}\n{}", output.stdout, output.stderr);
    let code = output.code?;
    // pytest counts a file it could not collect as an error in its summary
    // and exits 2: nothing ran.
    let pytest = parsed.is_some_and(|r| r.format == "pytest")
        || ["pytest", "conftest", "during collection"]
            .iter()
            .any(|m| text.contains(m));
    let pytest_setup = pytest && matches!(code, 2..=4) && parsed.is_none_or(|r| r.passed == 0);
    if parsed.is_some() && !pytest_setup {
        return None;
    }
    static MISSING_PROGRAM: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        regex::Regex::new(r"(?m)(?:^|: )([^\s:]+): (?:command )?not found\s*$|command not found: (\S+)").unwrap()
    });
    let missing_module = [
        "No module named",
        "ModuleNotFoundError",
        "Cannot find module",
        "ERR_MODULE_NOT_FOUND",
    ]
    .iter()
    .any(|m| text.contains(m));
    let why = if code == 127 {
        let first_word = command.split_whitespace().next().unwrap_or_default();
        match MISSING_PROGRAM.captures(&text).and_then(|c| c.get(1).or(c.get(2))) {
            Some(program) if program.as_str() != first_word => format!(
                "`{}`, which the test command {} runs, was not found (exit 127): install it (or the project's dependencies), or set gates.evidence.test-command",
                program.as_str(),
                quoted(command)
            ),
            _ => format!(
                "the test command {} was not found (exit 127): install `{first_word}`, or set gates.evidence.test-command",
                quoted(command)
            ),
        }
    } else if missing_module {
        format!(
            "the test command {} could not start the tests: a module it needs is missing (exit {code}); install the project's test dependencies",
            quoted(command)
        )
    } else if pytest_setup {
        format!(
            "pytest could not collect or start the tests (exit {code}: {}) under {}",
            match code {
                2 => "interrupted, e.g. an error during collection",
                3 => "internal error",
                _ => "usage error",
            },
            quoted(command)
        )
    } else {
        return None;
    };
    // The runner's own words: its stderr, else its stdout.
    let said = |text: &'a str| -> Vec<&'a str> { text.lines().filter(|l| !l.trim().is_empty()).collect() };
    let mut tail = said(&output.stderr);
    if tail.is_empty() {
        tail = said(&output.stdout);
    }
    let tail = &tail[tail.len().saturating_sub(5)..];
    Some(format!("{why}; its last lines:\n  {}", tail.join("\n  ")))
}

fn record(cx: &Context<'_>, source: String, run: Option<&TestRun>, green: bool) -> Result<()> {
    let mut failing = run.map_or_else(Vec::new, |r| r.failing.clone());
    failing.sort();
    failing.dedup();
    let last = LastTests {
        at: now(),
        source,
        green,
        passed: run.map_or(0, |r| r.passed),
        failed: run.map_or(0, |r| r.failed),
        skipped: run.map_or(0, |r| r.skipped),
        failing,
    };
    cx.store.update::<RunState>(move |state| {
        let mut state = state.unwrap_or_default();
        state.last_tests = Some(last);
        Ok(state)
    })?;
    Ok(())
}

/// The newest change: the latest modification time among changed files that
/// still exist. Commit times are left out on purpose: committing what was
/// tested does not make the test results stale.
fn newest_change(cx: &Context<'_>, changed: &[crate::git::FileDiff]) -> Option<(String, SystemTime)> {
    let root = cx.repo.root();
    changed
        .iter()
        .filter(|f| f.status != Status::Deleted)
        .filter_map(|f| {
            let modified = std::fs::symlink_metadata(root.join(&f.path))
                .and_then(|m| m.modified())
                .ok()?;
            Some((display_path(&f.path), modified))
        })
        .max_by_key(|(_, modified)| *modified)
}
