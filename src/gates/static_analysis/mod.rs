//! The static gate: the project's own linters and type checkers, run on the
//! changed files, their findings kept where the change touched
//! (reviewdog's filter modes) and levelled on one ladder (`fail-on`).
//!
//! Tools run in parallel from the repository root, each with a time limit.
//! A tool that crashes, times out or prints something that is not its
//! report stops the gate (exit 2): a crash is never "no findings".

pub mod rules;
pub mod settings;
pub mod tools;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Result, anyhow, bail};

use super::{Context, GateOutput};
use crate::changed::{self, ChangedFile, Lines};
use crate::finding::{Finding, Severity};
use crate::git::{display_path, relative_to};
use crate::process;
use crate::rule::Level;
use settings::Settings;
use tools::{Filter, Targets, Tool, ToolFinding};

/// A tool to run: the adapter, its executable, and the files it checks.
struct Job {
    tool: &'static dyn Tool,
    program: PathBuf,
    files: Vec<PathBuf>,
}

pub fn run(cx: &Context<'_>, settings: &Settings) -> Result<GateOutput> {
    let root = cx.repo.root();
    let changes = changed::collect(cx.repo, cx.scope, &cx.exclude, &cx.skip_dirs)?;
    let mut out = GateOutput {
        notices: changes.notes().to_vec(),
        ..GateOutput::default()
    };
    let present: Vec<&ChangedFile> = changes.present().filter(|f| !f.binary).collect();
    if present.is_empty() {
        out.notices.push("no changed file to check".to_string());
        return Ok(out);
    }

    let (picked, missing) = pick(cx, settings, &present)?;
    for tool in &missing {
        out.notices.push(format!(
            "{} would check this repository but is not installed: {}, or leave it out of gates.static.tools",
            tool.name(),
            tool.install()
        ));
    }
    let jobs: Vec<Job> = picked
        .into_iter()
        .filter_map(|(tool, program)| {
            let files: Vec<PathBuf> = present
                .iter()
                .filter(|f| tool.checks(&f.path))
                .map(|f| f.path.clone())
                .collect();
            (!files.is_empty()).then_some(Job { tool, program, files })
        })
        .collect();
    if jobs.is_empty() {
        if missing.is_empty() {
            out.notices
                .push("no tool checks the changed files (see gates.static.tools)".to_string());
        } else {
            out.inconclusive = Some("no tool that would check the changed files is installed".to_string());
        }
        return Ok(out);
    }

    let reports = run_jobs(root, &jobs, settings)?;
    let changed: HashMap<String, &ChangedFile> = present.iter().map(|f| (display_path(&f.path), *f)).collect();
    let mut checked: Vec<&PathBuf> = jobs.iter().flat_map(|j| &j.files).collect();
    checked.sort();
    checked.dedup();
    out.files = checked.len();
    for (job, found) in jobs.iter().zip(reports) {
        out.notices.push(format!(
            "{}: {} finding(s) on {} file(s)",
            job.tool.name(),
            found.len(),
            job.files.len()
        ));
        for f in found {
            let path = relative(root, &f.path);
            if keep(settings.filter, changed.get(&path).copied(), f.line) {
                out.findings.push(finding(job.tool, path, f, settings.fail_on));
            }
        }
    }
    Ok(out)
}

/// The tools to run, with their executables.
type Found = Vec<(&'static dyn Tool, PathBuf)>;

/// The tools to run and the ones `auto` picked that are not installed. A
/// tool named in config but missing is an error. `auto` looks at the
/// tracked files and the changed ones (which may not be tracked yet).
fn pick(cx: &Context<'_>, settings: &Settings, changed: &[&ChangedFile]) -> Result<(Found, Vec<&'static dyn Tool>)> {
    let root = cx.repo.root();
    let mut picked = Vec::new();
    for name in &settings.named {
        let tool = tools::by_name(name).ok_or_else(|| anyhow!("unknown tool `{name}`"))?;
        match tools::locate(tool, root) {
            Some(program) => picked.push((tool, program)),
            None => bail!(
                "{} is named in gates.static.tools (or with --tool) but is not installed: {}",
                tool.name(),
                tool.install()
            ),
        }
    }
    let mut missing = Vec::new();
    if settings.auto {
        let mut files = cx.repo.tracked_files()?;
        files.extend(changed.iter().map(|f| f.path.clone()));
        for tool in tools::ALL.iter().copied() {
            if settings.named.contains(&tool.name()) || !tool.detect(root, &files) {
                continue;
            }
            match tools::locate(tool, root) {
                Some(program) => picked.push((tool, program)),
                None => missing.push(tool),
            }
        }
    }
    Ok((picked, missing))
}

/// Run every job at once, each with its own time limit; the first failure
/// (in tool order) is the gate's error.
fn run_jobs(root: &Path, jobs: &[Job], settings: &Settings) -> Result<Vec<Vec<ToolFinding>>> {
    std::thread::scope(|scope| {
        let handles: Vec<_> = jobs
            .iter()
            .map(|job| scope.spawn(move || run_job(root, job, settings)))
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|_| Err(anyhow!("a tool's thread panicked"))))
            .collect()
    })
}

fn run_job(root: &Path, job: &Job, settings: &Settings) -> Result<Vec<ToolFinding>> {
    let tool = job.tool;
    let mut command = Command::new(&job.program);
    command.args(tool.args(&Targets::Files(&job.files)));
    let output = process::run(command, root, settings.timeout)
        .map_err(|e| anyhow!("could not start {} ({}): {e}", tool.name(), job.program.display()))?;
    tools::check_ran(tool, &output)?;
    tool.parse(&output).map_err(|e| {
        let code = output
            .code
            .map_or_else(|| "a signal".to_string(), |c| format!("exit code {c}"));
        anyhow!("{e:#} ({code}{})", tools::stderr_excerpt(&output))
    })
}

/// A path the tool printed, repo-relative with `/` separators.
fn relative(root: &Path, path: &Path) -> String {
    let path = path.strip_prefix("./").unwrap_or(path);
    if path.is_relative() {
        return display_path(path);
    }
    display_path(&relative_to(root, path).unwrap_or_else(|| path.to_path_buf()))
}

/// Does the filter keep a finding at `line` of a file (`None`: not changed)?
fn keep(filter: Filter, file: Option<&ChangedFile>, line: Option<u32>) -> bool {
    let Some(file) = file else {
        return filter == Filter::NoFilter;
    };
    let (Some(line), Lines::Ranges(_)) = (line, &file.lines) else {
        // A finding about a whole file, or a file that is new as a whole.
        return true;
    };
    match filter {
        Filter::Added => file.lines.contains(line),
        Filter::DiffContext => file.hunks.iter().any(|&(a, b)| (a..=b).contains(&line)),
        Filter::File | Filter::NoFilter => true,
    }
}

/// The tool's finding as loki-gate's: rule `static/<tool>:<code>`, level
/// from the ladder against `fail-on`.
fn finding(tool: &dyn Tool, path: String, f: ToolFinding, fail_on: Severity) -> Finding {
    let family = tool.rule();
    let mut finding = Finding::new(family, f.message);
    if let Some(code) = &f.code {
        finding.rule = format!("{}:{code}", family.id);
    }
    if let Some(url) = &f.url {
        finding.help = Some(format!("see {url}"));
    }
    finding.proposed = Some(if f.severity >= fail_on {
        Level::Deny
    } else {
        match f.severity {
            Severity::Error | Severity::Warning => Level::Warn,
            Severity::Note => Level::Note,
        }
    });
    finding
        .notes
        .push(format!("reported by {} as {}", tool.name(), f.severity.as_str()));
    let finding = match f.line {
        Some(line) => finding.at(path, line, f.column.unwrap_or(1)),
        None => finding.in_file(path),
    };
    Finding {
        end_line: f.end_line.or(finding.end_line),
        end_column: f.end_column.or(finding.end_column),
        ..finding
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::git::Status;

    fn file(lines: Lines, hunks: Vec<(u32, u32)>) -> ChangedFile {
        ChangedFile {
            path: PathBuf::from("a.py"),
            status: Status::Modified,
            binary: false,
            lines,
            hunks,
        }
    }

    #[test]
    fn filters_keep_what_reviewdog_keeps() {
        let f = file(Lines::Ranges(vec![(5, 6)]), vec![(2, 9)]);
        let modes = [Filter::Added, Filter::DiffContext, Filter::File, Filter::NoFilter];
        let kept = |line: Option<u32>, file: Option<&ChangedFile>| -> Vec<bool> {
            modes.iter().map(|m| keep(*m, file, line)).collect()
        };
        assert_eq!(kept(Some(5), Some(&f)), vec![true, true, true, true]);
        assert_eq!(kept(Some(8), Some(&f)), vec![false, true, true, true]);
        assert_eq!(kept(Some(20), Some(&f)), vec![false, false, true, true]);
        assert_eq!(kept(Some(1), None), vec![false, false, false, true]);
        assert_eq!(kept(None, Some(&f)), vec![true, true, true, true]);
        let new = file(Lines::All, Vec::new());
        assert_eq!(kept(Some(20), Some(&new)), vec![true, true, true, true]);
    }

    #[test]
    fn tool_paths_become_repo_relative() {
        let root = Path::new("/repo");
        assert_eq!(relative(root, Path::new("/repo/src/a.py")), "src/a.py");
        assert_eq!(relative(root, Path::new("./src/a.py")), "src/a.py");
        assert_eq!(relative(root, Path::new("src/a.py")), "src/a.py");
    }
}
