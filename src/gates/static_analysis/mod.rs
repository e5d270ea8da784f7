//! The static gate: the project's own linters and type checkers, run on the
//! changed files, their findings kept where the change touched
//! (reviewdog's filter modes) and levelled on one ladder (`fail-on`).
//!
//! Tools run in parallel from the repository root, each with a time limit.
//! A tool that crashes, times out or prints something that is not its
//! report stops the gate (exit 2): a crash is never "no findings".

mod base;
use base::{drop_known, held_at_base, prepare_base};
pub mod rules;
pub mod settings;
pub mod tools;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Result, anyhow, bail};

use super::{Context, GateOutput};
use crate::changed::{ChangeSet, ChangedFile, Lines};
use crate::checkout::Checkout;
use crate::finding::{Finding, Severity};
use crate::git::{Status, display_path};
use crate::rule::Level;
use crate::{process, walk};
use settings::Settings;
use tools::{Filter, Reach, Targets, Tool, ToolFinding};

/// A tool to run: the adapter, its executable, the directory it runs in
/// (where the project's config of it sits), the changed files it checks,
/// and whether it looks at them or at its whole project.
struct Job<'a> {
    tool: &'a dyn Tool,
    program: PathBuf,
    /// Repo-relative; `""` is the root.
    dir: PathBuf,
    /// Repo-relative.
    files: Vec<PathBuf>,
    project: bool,
    /// The config file to run with, relative to `dir` ([`Tool::config_for`]).
    config: Option<PathBuf>,
    env: Vec<(&'static str, PathBuf)>,
}

impl Job<'_> {
    /// The files relative to the job's directory, as the tool is handed them.
    fn targets(&self) -> (Vec<PathBuf>, bool) {
        let files = self
            .files
            .iter()
            .map(|f| f.strip_prefix(&self.dir).unwrap_or(f).to_path_buf())
            .collect();
        (files, self.project)
    }
}

pub fn run(cx: &Context<'_>, settings: &Settings) -> Result<GateOutput> {
    let root = cx.repo.root();
    let changes = cx.changes()?;
    let mut out = GateOutput {
        notices: changes.notes().to_vec(),
        ..GateOutput::default()
    };
    // A changed file that leads out of the repository (a symlink to
    // `/etc/passwd`) is never handed to a tool: a note says it was skipped.
    // Nor is one over the size cap (issue 54: a 50 MB file made a linter
    // print gigabytes); the change's own is a `meta/file-too-large`
    // finding when a tool would check it.
    let mut present: Vec<&ChangedFile> = Vec::new();
    let mut oversized: Vec<(&ChangedFile, u64)> = Vec::new();
    for file in changes.present().filter(|f| !f.binary) {
        match walk::inside(root, &file.path) {
            Ok(rel) => match std::fs::metadata(root.join(rel)).map(|m| m.len()) {
                Ok(size) if size > walk::max_file_bytes() => oversized.push((file, size)),
                _ => present.push(file),
            },
            Err(why) => out.findings.push(walk::skipped(&file.path, &why)),
        }
    }
    // The tools' own suppressions the change wrote on its lines (`# noqa`,
    // `eslint-disable`, `@ts-ignore`, `#[allow]`, `//nolint`) are waivers,
    // whichever tools run here (src/trust/tools.rs).
    if changes.base.is_some() {
        for file in &present {
            if let Ok(bytes) = walk::read_file(root, &file.path) {
                let text = String::from_utf8_lossy(&bytes);
                out.waivers.extend(crate::trust::tools::hold_tool_suppressions(
                    cx.judge,
                    &file.path,
                    &text,
                    |n| file.lines.contains(n),
                ));
            }
        }
    }
    if present.is_empty() && oversized.is_empty() {
        out.notices.push("no changed file to check".to_string());
        return Ok(out);
    }

    let homes = tools::Homes::new(root);
    let candidates: Vec<&ChangedFile> = present
        .iter()
        .copied()
        .chain(oversized.iter().map(|(f, _)| *f))
        .collect();
    let mut picked = pick(settings, &candidates, &homes)?;
    for (file, size) in oversized {
        if !picked.iter().any(|(tool, _, _)| tool.checks(&file.path)) {
            continue;
        }
        out.findings.push(if cx.scope.is_whole() {
            walk::skipped(&file.path, &walk::over_cap(size))
        } else {
            walk::too_large(&file.path, size, "no linter was run on it", cx.judge.enforced())
        });
    }
    if present.is_empty() {
        out.notices
            .push("no changed file under the size cap to check".to_string());
        return Ok(out);
    }
    // In a hook that leaves them to later, the tools that only check a
    // whole project do not run: they take seconds, and pre-push and CI run them.
    if let Some(hook) = settings.without_project_tools {
        let (later, now): (Found<'_>, Found<'_>) = picked
            .into_iter()
            .partition(|(tool, _, _)| tool.reach() == Reach::Project);
        picked = now;
        if !later.is_empty() {
            let names: Vec<&str> = later.iter().map(|(tool, _, _)| tool.name()).collect();
            out.notices.push(format!(
                "{} check the whole project: not run in the {hook} hook (gates.static.project-tools-in); pre-push and CI run them",
                names.join(", ")
            ));
        }
    }
    // One job per tool and directory its config puts the files in; a file
    // the project's config gives to no run of the tool is not shown to it,
    // unless `tools:` names the tool (then it runs from the root). Each
    // job's executable is the project's own nearest its directory, else
    // the one on PATH if it is the version the project declares there.
    let tracked = |rel: &Path| cx.repo.is_tracked(rel);
    let last_commit = cx.repo.head()?.map_or(Ok(0), |head| cx.repo.commit_time(&head))?;
    let mut planted: Vec<String> = Vec::new();
    let versions = cx.cache.then(|| cx.store.dir().join("cache"));
    let mut jobs: Vec<Job> = Vec::new();
    let mut left_out: Vec<String> = Vec::new();
    let mut missing: Vec<&dyn Tool> = Vec::new();
    let mut mismatched: Vec<String> = Vec::new();
    for (tool, named, given) in picked {
        type Homed = std::collections::BTreeMap<(PathBuf, Option<PathBuf>), Vec<PathBuf>>;
        let mut by_dir: Homed = std::collections::BTreeMap::new();
        let mut skipped = 0;
        for f in present.iter().filter(|f| tool.checks(&f.path)) {
            match tool.home(&homes, &f.path).or_else(|| named.then(PathBuf::new)) {
                Some(dir) => {
                    let config = tool.config_for(&homes, &dir, &f.path);
                    by_dir.entry((dir, config)).or_default().push(f.path.clone());
                }
                None => skipped += 1,
            }
        }
        if skipped > 0 {
            left_out.push(format!("{} ({skipped})", tool.name()));
        }
        let project = match tool.reach() {
            Reach::Files => false,
            Reach::Project => true,
            Reach::Both => settings.project,
        };
        for ((dir, config), files) in by_dir {
            let program = match &given {
                Some(program) => program.clone(),
                None => match tools::locate(tool, root, &dir, &tracked, settings.path_only) {
                    Some(program) => program,
                    None if named => bail!(
                        "{} is named in gates.static.tools (or with --tool) but is not installed: {}",
                        tool.name(),
                        tool.install()
                    ),
                    None => {
                        if !missing.iter().any(|m| m.name() == tool.name()) {
                            missing.push(tool);
                        }
                        continue;
                    }
                },
            };
            // A version manager's shim is resolved once to what it runs.
            let program = if given.is_none() {
                tools::shim::resolve(&program, &root.join(&dir), versions.as_deref())
            } else {
                program
            };
            // A tool found only on PATH whose release line is not the one
            // the project declares would misread the project's config.
            if given.is_none()
                && !program.starts_with(root)
                && let Some(why) = tools::version::mismatch(tool.name(), &program, root, &dir, versions.as_deref())
            {
                if named {
                    bail!("{why}");
                }
                if !mismatched.contains(&why) {
                    mismatched.push(why);
                }
                continue;
            }
            if given.is_none()
                && let Some(rel) = tools::untracked_since(&program, root, &tracked, last_commit)
            {
                let why = format!("{} ({})", tool.name(), display_path(&rel));
                if !planted.contains(&why) {
                    planted.push(why);
                }
            }
            jobs.push(Job {
                tool,
                program,
                dir,
                files,
                project,
                config,
                env: Vec::new(),
            });
        }
    }
    out.notices
        .extend(mismatched.into_iter().map(|why| format!("{why}; not run")));
    if !planted.is_empty() {
        let ci = if settings.path_only {
            "it is on PATH"
        } else {
            "in CI only a tool on PATH runs"
        };
        out.notices.push(format!(
            "ran a tool from the workspace that git does not track and that changed after the last commit: {}; {ci}, so make sure it is the project's own (docs/gates/static.md)",
            planted.join(", ")
        ));
    }
    for tool in &missing {
        out.notices.push(format!(
            "{} would check this repository but is not installed: {}, or leave it out of gates.static.tools",
            tool.name(),
            tool.install()
        ));
    }
    if !left_out.is_empty() {
        out.notices.push(format!(
            "changed files the project's own config does not give to the tool, left out: {}",
            left_out.join(", ")
        ));
    }
    if jobs.is_empty() {
        if missing.is_empty() {
            out.notices
                .push("no tool checks the changed files (see gates.static.tools)".to_string());
        } else {
            out.inconclusive = Some("no tool that would check the changed files is installed".to_string());
        }
        return Ok(out);
    }

    // With --new-only, the base's runs go alongside the head's.
    let base = if settings.new_only {
        Some(prepare_base(root, &changes, &jobs, settings)?)
    } else {
        None
    };
    let (reports, base_reports) = std::thread::scope(|scope| {
        let at_base = base
            .as_ref()
            .map(|b| scope.spawn(move || run_jobs(b.checkout.path(), &b.jobs, settings)));
        let head = run_jobs(root, &jobs, settings);
        let at_base = at_base.map(|h| h.join().unwrap_or_else(|_| Err(anyhow!("a tool's thread panicked"))));
        (head, at_base)
    });
    let reports = reports?;
    let changed: HashMap<String, &ChangedFile> = present.iter().map(|f| (display_path(&f.path), *f)).collect();
    let mut checked: Vec<&PathBuf> = jobs.iter().flat_map(|j| &j.files).collect();
    checked.sort();
    checked.dedup();
    out.files = checked.len();
    let mut kept: Vec<Kept> = Vec::new();
    for (job, found) in jobs.iter().zip(reports) {
        let scope = if job.project {
            match &job.config {
                Some(config) => format!("the project {}", display_path(config)),
                None => "the project".to_string(),
            }
        } else {
            format!("{} file(s)", job.files.len())
        };
        let from = if job.dir.as_os_str().is_empty() {
            String::new()
        } else {
            format!(" in {}", display_path(&job.dir))
        };
        out.notices.push(format!(
            "{}: {} finding(s) on {scope}{from}",
            job.tool.name(),
            found.len()
        ));
        let mut outside = 0;
        let mut machine: Vec<String> = Vec::new();
        for f in found {
            let Some(path) = relative(root, &f.path) else {
                outside += 1;
                continue;
            };
            if let Some(why) = job.tool.environment(root, &f) {
                if !machine.contains(&why) {
                    machine.push(why);
                }
                continue;
            }
            if keep(settings.filter, changed.get(&path).copied(), f.line) {
                kept.push(Kept {
                    tool: job.tool,
                    path,
                    found: f,
                    note: None,
                });
            }
        }
        if outside > 0 {
            out.notices.push(format!(
                "{}: {outside} finding(s) on paths outside the repository left out (not read, not shown)",
                job.tool.name()
            ));
        }
        if !machine.is_empty() {
            out.notices.push(format!(
                "{}: findings about this machine, not the change, left out: {} (install the project's dependencies)",
                job.tool.name(),
                machine.join("; ")
            ));
        }
    }
    if let (Some(base), Some(base_reports)) = (base, base_reports) {
        let base_reports = base_reports.map_err(|e| {
            anyhow!(
                "on the base revision {} (for --new-only): {e:#}",
                crate::git::short(&base.rev)
            )
        })?;
        out.notices
            .push(drop_known(root, base, base_reports, &changed, &mut kept));
        let touched = touched_summary(&present);
        for k in &mut kept {
            let on_change = changed
                .get(k.path.as_str())
                .is_some_and(|c| k.found.line.is_none_or(|l| c.lines.contains(l)));
            if !on_change {
                k.note = Some(format!(
                    "new with this change, on a line it did not touch: it appeared with the change to {touched}"
                ));
            }
        }
    }
    // Hold the line: when a finding would block, the same tools run on
    // the base revision, and what they raise there belongs to the base
    // (marked by the pipeline, src/gates/at_base.rs). A passing run never
    // pays for it.
    let blocks = kept.iter().any(|k| k.found.severity >= settings.fail_on);
    if !settings.new_only
        && blocks
        && let Some(commit) = changes.base.as_ref().and_then(|b| b.commit.clone())
    {
        let paths: Vec<&str> = kept.iter().map(|k| k.path.as_str()).collect();
        match held_at_base(cx.repo, &commit, &changes, &jobs, settings, &paths) {
            Ok(mut at_base) => {
                at_base.commit = Some(commit);
                at_base.changed = present
                    .iter()
                    .map(|f| (display_path(&f.path), f.lines.clone()))
                    .collect();
                out.base = Some(at_base);
            }
            Err(e) => out.notices.push(format!(
                "the tools could not run on the base revision {} ({e:#}): every finding counts as the change's",
                crate::git::short(&commit)
            )),
        }
    }
    out.findings
        .extend(kept.into_iter().map(|k| finding(k, settings.fail_on)));
    Ok(out)
}

/// A tool's finding the filter kept.
struct Kept<'a> {
    tool: &'a dyn Tool,
    /// Repo-relative.
    path: String,
    found: ToolFinding,
    /// Why a finding off the changed lines is reported.
    note: Option<String>,
}

/// "a.py, b.py, c.py, 2 more" for a note: the changed files, three at most by name.
fn touched_summary(present: &[&ChangedFile]) -> String {
    let mut names: Vec<String> = present.iter().take(3).map(|f| display_path(&f.path)).collect();
    if present.len() > 3 {
        names.push(format!("{} more", present.len() - 3));
    }
    names.join(", ")
}

/// The tools to run, each with whether the config names it (a named tool
/// checks every file it can, config of its own or not) and, for a custom
/// tool, the shell that runs its command.
type Found<'a> = Vec<(&'a dyn Tool, bool, Option<PathBuf>)>;

/// The tools to run. `auto` picks a tool when the project's own config of
/// it covers a changed file it checks, or the project names it in its
/// hooks or CI ([`Tool::home`]). A tool whose findings are all `allow` is
/// not run (nor required).
fn pick<'a>(settings: &'a Settings, changed: &[&ChangedFile], homes: &tools::Homes<'_>) -> Result<Found<'a>> {
    let silenced = |tool: &dyn Tool| {
        let family = tool.rule().id;
        let named = format!("{family}:{}", tool.name());
        settings.silenced.iter().any(|s| s == family || *s == named)
    };
    let mut picked: Found<'a> = Vec::new();
    for name in &settings.named {
        let tool = tools::by_name(name).ok_or_else(|| anyhow!("unknown tool `{name}`"))?;
        if !silenced(tool) {
            picked.push((tool, true, None));
        }
    }
    if settings.auto {
        for tool in tools::ALL.iter().copied() {
            let wanted = || {
                changed
                    .iter()
                    .any(|f| tool.checks(&f.path) && tool.home(homes, &f.path).is_some())
            };
            if !settings.named.contains(&tool.name()) && !silenced(tool) && wanted() {
                picked.push((tool, false, None));
            }
        }
    }
    for tool in settings.custom.iter().filter(|t| !silenced(*t)) {
        let program = which::which("sh").map_err(|_| anyhow!("{}: no `sh` on PATH to run its command", tool.name()))?;
        picked.push((tool, true, Some(program)));
    }
    Ok(picked)
}

/// Run every job at once, each with its own time limit; the first failure
/// (in tool order) is the gate's error.
fn run_jobs(root: &Path, jobs: &[Job<'_>], settings: &Settings) -> Result<Vec<Vec<ToolFinding>>> {
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

fn run_job(root: &Path, job: &Job<'_>, settings: &Settings) -> Result<Vec<ToolFinding>> {
    let tool = job.tool;
    if let Some(file) = tool.report_file() {
        let text = read_report(root, file).map_err(|e| {
            anyhow!(
                "{}: could not read its SARIF file {}: {e} (run the step that writes it first, or fix gates.static.custom)",
                tool.name(),
                file.display()
            )
        })?;
        let output = process::Output {
            code: Some(0),
            timed_out: false,
            stdout: String::from_utf8_lossy(&text).into_owned(),
            stderr: String::new(),
            elapsed: std::time::Duration::ZERO,
            overflow: None,
        };
        return tool
            .parse(&output)
            .map_err(|e| anyhow!("{e:#} (in {})", file.display()));
    }
    // The job's directory, as the project's config of the tool places it;
    // never through a symlink out of the repository.
    let dir = if job.dir.as_os_str().is_empty() {
        Some(root.to_path_buf())
    } else {
        crate::paths::confine(root, &job.dir).map(|rel| root.join(rel))
    };
    let dir = dir.filter(|d| d.is_dir()).ok_or_else(|| {
        anyhow!(
            "{}: {} is not a directory inside the repository",
            tool.name(),
            job.dir.display()
        )
    })?;
    let (files, project) = job.targets();
    let targets = match (&job.config, project) {
        (Some(config), true) => Targets::Config(config),
        (None, true) => Targets::Project,
        (_, false) => Targets::Files(&files),
    };
    let mut command = Command::new(&job.program);
    command.args(tool.args(&dir, &targets));
    command.envs(job.env.iter().map(|(k, v)| (k, v)));
    let output = process::run(command, &dir, settings.timeout)
        .map_err(|e| anyhow!("could not start {} ({}): {e}", tool.name(), job.program.display()))?;
    tools::check_ran(tool, &output)?;
    let mut found = tool.parse(&output).map_err(|e| {
        let code = output
            .code
            .map_or_else(|| "a signal".to_string(), |c| format!("exit code {c}"));
        anyhow!("{e:#} ({code}{})", tools::stderr_excerpt(&output))
    })?;
    // What the tool printed relative to where it ran, relative to the root.
    for f in &mut found {
        if f.path.is_relative() {
            f.path = job.dir.join(&f.path);
        }
    }
    Ok(found)
}

/// A report file a custom tool names: an absolute path as the config says
/// (a CI step's temporary directory); a relative one only inside the
/// repository, never through a symlink out of it. Size-capped either way.
fn read_report(root: &Path, file: &Path) -> Result<Vec<u8>, String> {
    let path = if file.is_absolute() {
        file.to_path_buf()
    } else {
        let rel = crate::paths::confine(root, file).ok_or_else(|| {
            "it leads outside the repository (through `..` or a symlink); name a file elsewhere by its absolute path"
                .to_string()
        })?;
        root.join(rel)
    };
    walk::read_capped(&path)
}

/// A path the tool printed, repo-relative with `/` separators and no `.` or
/// `..`; `None` when it lies outside the repository (issue 25).
fn relative(root: &Path, path: &Path) -> Option<String> {
    crate::paths::confine(root, path).map(|p| display_path(&p))
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
fn finding(kept: Kept<'_>, fail_on: Severity) -> Finding {
    let Kept {
        tool,
        path,
        found: f,
        note,
    } = kept;
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
    finding.notes.extend(note);
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
            old_path: None,
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
    fn tool_paths_become_repo_relative_or_are_left_out() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        let relative = |p: &str| relative(&root, Path::new(p));
        let inside = root.join("src/a.py").display().to_string();
        assert_eq!(relative(&inside).as_deref(), Some("src/a.py"));
        assert_eq!(relative("./src/a.py").as_deref(), Some("src/a.py"));
        assert_eq!(relative("src/a.py").as_deref(), Some("src/a.py"));
        assert_eq!(relative("src/../a.py").as_deref(), Some("a.py"));
        assert_eq!(relative("../etc/passwd"), None);
        assert_eq!(relative("/etc/passwd"), None);
        assert_eq!(relative(&format!("{}/../etc/passwd", root.display())), None);
    }
}
