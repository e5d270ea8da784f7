//! Tool adapters, one file each: how to find the tool, when `auto` picks it,
//! how to run it with machine-readable output, and how to read that output.

mod clippy;
pub mod custom;
mod errorformat;
mod eslint;
mod golangci_lint;
pub mod home;
mod mypy;
mod ruff;
mod sarif;
mod shellcheck;
pub mod shim;
mod tsc;
pub mod version;

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};

use crate::finding::Severity;
use crate::process::Output;
pub use home::Homes;

/// Which findings count (reviewdog's filter modes).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Filter {
    /// On lines the change added or modified.
    Added,
    /// Within the diff hunks, context lines included.
    DiffContext,
    /// Anywhere in a changed file.
    File,
    /// Anywhere.
    NoFilter,
}

/// One finding as a tool reported it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolFinding {
    /// As the tool printed it: absolute, or relative to the repository root.
    pub path: PathBuf,
    pub line: Option<u32>,
    pub column: Option<u32>,
    pub end_line: Option<u32>,
    pub end_column: Option<u32>,
    /// The tool's rule (`F401`, `return-value`, `SC2086`); `None` for a
    /// finding with no rule (a syntax error).
    pub code: Option<String>,
    pub message: String,
    /// On the ladder: the tool's own level mapped to error, warning or note.
    pub severity: Severity,
    /// Where the tool documents the rule.
    pub url: Option<String>,
}

/// What a tool can be pointed at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reach {
    /// Files named on its command line only (shellcheck).
    Files,
    /// Its whole project only, as its own config defines it (tsc, cargo clippy).
    Project,
    /// Either.
    Both,
}

/// What the tool is asked to look at.
pub enum Targets<'a> {
    /// These files (repo-relative), which the tool takes on its command line.
    Files(&'a [PathBuf]),
    /// The whole project, as the tool's own config defines it.
    Project,
    /// The project of this config file (relative to where the tool runs),
    /// one of several in that directory ([`Tool::config_for`]).
    Config(&'a Path),
}

/// One tool.
pub trait Tool: Sync {
    /// The name in `tools:` and in rule ids (`static/<name>:<code>`).
    fn name(&self) -> &str;
    /// The family of the tool's rules (`static/<name>`).
    fn rule(&self) -> &'static crate::rule::RuleMeta;
    /// The executable.
    fn program(&self) -> &'static str;
    /// How to install it, for the message when it is missing.
    fn install(&self) -> &'static str;
    /// Where the project runs the tool to check `file` (repo-relative; the
    /// root is `""`), as its own configuration places it: the directory of
    /// the config that covers the file, or the root for a tool that finds
    /// its config per file itself. `None`: no config of the tool covers the
    /// file, or its config leaves the file out, and the project does not
    /// name the tool in its hooks or CI: `auto` does not show it the file.
    fn home(&self, homes: &Homes<'_>, file: &Path) -> Option<PathBuf>;
    /// The config file its run from `dir` (the file's home) uses for `file`,
    /// when it is not the tool's default there: the project of a solution
    /// `tsconfig.json` that covers the file (`tsconfig.app.json`). Relative
    /// to `dir`.
    fn config_for(&self, _homes: &Homes<'_>, _dir: &Path, _file: &Path) -> Option<PathBuf> {
        None
    }
    /// Why this finding is the machine's, not the code's (a module the
    /// project declares but that is not installed here), or `None`.
    fn environment(&self, _root: &Path, _finding: &ToolFinding) -> Option<String> {
        None
    }
    /// Is this a file the tool checks?
    fn checks(&self, path: &Path) -> bool;
    /// What it can be pointed at.
    fn reach(&self) -> Reach {
        Reach::Both
    }
    /// A report file to read instead of running anything (a SARIF file an
    /// earlier step wrote), repo-relative or absolute.
    fn report_file(&self) -> Option<&Path> {
        None
    }
    /// The config files the tool reads beside a file when it judges the
    /// file by itself, nothing else of the project changing a finding
    /// (ruff: `pyproject.toml`, `ruff.toml`): on the base revision it runs
    /// on those alone. Empty: it needs its whole project there.
    fn alone(&self) -> &'static [&'static str] {
        &[]
    }
    /// Environment for the run on the base revision's checkout, from the
    /// repository at `root` (a build directory that outlives the checkout).
    fn base_env(&self, _root: &Path) -> Vec<(&'static str, PathBuf)> {
        Vec::new()
    }
    /// Arguments after the program, for a run from the repository `root`.
    fn args(&self, root: &Path, targets: &Targets<'_>) -> Vec<OsString>;
    /// The exit codes that mean "ran" (with or without findings); any other
    /// is a crash, never "no findings".
    fn ran(&self, code: i32) -> bool {
        code == 0 || code == 1
    }
    /// Read the tool's output.
    fn parse(&self, output: &Output) -> Result<Vec<ToolFinding>>;
}

/// Every adapter, in the order `auto` runs them.
pub static ALL: &[&dyn Tool] = &[
    &ruff::Ruff,
    &mypy::Mypy,
    &eslint::Eslint,
    &tsc::Tsc,
    &clippy::Clippy,
    &golangci_lint::GolangciLint,
    &shellcheck::Shellcheck,
];

pub fn by_name(name: &str) -> Option<&'static dyn Tool> {
    ALL.iter().copied().find(|t| t.name() == name)
}

/// Where the tool's executable is for a run from `dir` (repo-relative): the
/// project's own first (`node_modules/.bin`, a virtualenv in `.venv` or
/// `venv`), in `dir` or the nearest directory above it that has one (a
/// package of a monorepo, then the workspace root), then `PATH`. A
/// project-local one that git tracks is never run: package managers
/// install those untracked, and one committed into the repository is the
/// change's own program (`docs/execution.md`). With `path_only` (CI) only
/// `PATH` counts: the job's setup puts the tools it installed there, and an
/// untracked file in the workspace may be one the change's author planted.
pub fn locate(
    tool: &dyn Tool,
    root: &Path,
    dir: &Path,
    tracked: &dyn Fn(&Path) -> bool,
    path_only: bool,
) -> Option<PathBuf> {
    let local = (!path_only)
        .then(|| {
            dir.ancestors().find_map(|above| {
                LOCAL_BIN
                    .iter()
                    .map(|bin| above.join(bin).join(tool.program()))
                    .find(|rel| root.join(rel).is_file() && !tracked(rel))
            })
        })
        .flatten();
    local
        .map(|rel| root.join(rel))
        .or_else(|| which::which(tool.program()).ok())
}

/// When `program` is a file in the workspace (`root`) that git does not
/// track and that changed after `since` (the last commit's time, seconds
/// since the epoch): its path, for a note. It may be the project's tool
/// upgraded since, or one put there to answer for the real one. Its status
/// change time counts too, which setting the modification time back moves.
pub fn untracked_since(program: &Path, root: &Path, tracked: &dyn Fn(&Path) -> bool, since: u64) -> Option<PathBuf> {
    let rel = program.strip_prefix(root).ok()?;
    if tracked(rel) {
        return None;
    }
    let seconds = |meta: &std::fs::Metadata| {
        let modified = meta
            .modified()
            .ok()
            .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
            .map_or(0, |d| d.as_secs());
        #[cfg(unix)]
        let changed = u64::try_from(std::os::unix::fs::MetadataExt::ctime(meta)).unwrap_or(0);
        #[cfg(not(unix))]
        let changed = 0;
        modified.max(changed)
    };
    // The link and what it points to: either may be the new part.
    let newest = [std::fs::symlink_metadata(program), std::fs::metadata(program)]
        .iter()
        .filter_map(|m| m.as_ref().ok())
        .map(seconds)
        .max()?;
    (newest >= since).then(|| rel.to_path_buf())
}

/// The directories a project installs its own tools into.
pub const LOCAL_BIN: &[&str] = &["node_modules/.bin", ".venv/bin", "venv/bin"];

/// Read `output` as JSON, or say what the tool printed instead.
pub(crate) fn json<T: serde::de::DeserializeOwned>(tool: &str, text: &str) -> Result<T> {
    serde_json::from_str(text.trim()).with_context(|| {
        let first = text.trim().lines().next().unwrap_or("(nothing)");
        // A line may be megabytes long (a report nested 100,000 deep).
        let first = crate::finding::clip(first);
        format!("{tool} printed output that is not its JSON format (first line: {first:?})")
    })
}

/// One line per JSON document (`mypy --output json`), blank lines skipped.
pub(crate) fn json_lines<T: serde::de::DeserializeOwned>(tool: &str, text: &str) -> Result<Vec<T>> {
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| json(tool, l))
        .collect()
}

/// A whole number the tool printed, as a 1-based position.
pub(crate) fn position(n: Option<i64>) -> Option<u32> {
    n.and_then(|n| u32::try_from(n).ok()).filter(|n| *n > 0)
}

/// Fail unless the tool's exit code says it ran.
pub fn check_ran(tool: &dyn Tool, output: &Output) -> Result<()> {
    // What was cut is no report: never read as one (issue 54).
    if let Some(why) = output.overflowed(tool.name()) {
        bail!("{why}");
    }
    if output.timed_out {
        bail!(
            "{} did not finish within its time limit: raise gates.static.timeout, or narrow what it checks",
            tool.name()
        );
    }
    match output.code {
        Some(code) if tool.ran(code) => Ok(()),
        code => {
            let code = code.map_or_else(|| "a signal".to_string(), |c| format!("exit code {c}"));
            bail!("{} failed ({code}){}", tool.name(), output_excerpt(output));
        }
    }
}

/// The first lines of what the tool wrote to stderr, for an error message.
pub fn stderr_excerpt(output: &Output) -> String {
    excerpt(&output.stderr)
}

/// The first lines of stderr, or of stdout when stderr is empty (mypy
/// reports a blocking error, exit 2, on stdout), for a failed run.
pub fn output_excerpt(output: &Output) -> String {
    match excerpt(&output.stderr) {
        none if none.is_empty() => excerpt(&output.stdout),
        some => some,
    }
}

fn excerpt(text: &str) -> String {
    const MAX: usize = 300;
    let lines: Vec<&str> = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .take(3)
        .map(|l| match l.char_indices().nth(MAX) {
            Some((cut, _)) => &l[..cut],
            None => l,
        })
        .collect();
    if lines.is_empty() {
        String::new()
    } else {
        format!(": {}", lines.join(" | "))
    }
}

pub(crate) fn has_extension(path: &Path, extensions: &[&str]) -> bool {
    crate::paths::extension(path.as_os_str().as_encoded_bytes())
        .is_some_and(|e| extensions.iter().any(|x| x.as_bytes() == e))
}

/// Arguments: `flags`, `--`, then the files, each as [`path_arg`] makes it.
pub(crate) fn with_files(flags: &[&str], targets: &Targets<'_>) -> Vec<OsString> {
    let mut args: Vec<OsString> = flags.iter().map(OsString::from).collect();
    if let Targets::Files(files) = targets {
        args.push("--".into());
        args.extend(files.iter().map(|f| path_arg(f)));
    }
    args
}

/// A path as one command-line argument that no tool reads as anything but
/// a file (issue 25): a relative path gets `./` in front, so
/// `--output-file=setup.py` is not an option, `@args.py` not an argparse
/// response file and `!x.js` not a negated pattern. The bytes stay as they
/// are (not UTF-8, spaces, quotes, line breaks): every adapter passes each
/// path as its own argument, never through a shell's parsing. Adapters use
/// this for every path they hand a tool, and `--` before the files where
/// the tool takes it ([`with_files`]).
pub(crate) fn path_arg(path: &Path) -> OsString {
    if path.is_absolute() {
        return path.as_os_str().to_os_string();
    }
    let mut arg = OsString::from("./");
    arg.push(path.as_os_str());
    arg
}

/// The text of a tool's config file at `root/name`, read as every file the
/// gate reads is: inside the repository, under the size cap.
pub(crate) fn config_text(root: &Path, name: &str) -> Option<String> {
    let bytes = crate::walk::read_file(root, Path::new(name)).ok()?;
    Some(String::from_utf8_lossy(&bytes).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extensions_are_read_as_path_extension_reads_them() {
        for path in [
            "a.py", "dir/a.py", "dir.x/a", "a.tar.gz", ".bashrc", "dir/.env", "a.", "noext", "d/e.PY", "a..py",
        ] {
            for ext in ["py", "gz", "", "env", "PY"] {
                let std = Path::new(path).extension().and_then(|e| e.to_str()) == Some(ext);
                assert_eq!(has_extension(Path::new(path), &[ext]), std, "{path} {ext}");
            }
        }
    }
}
