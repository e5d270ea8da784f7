//! Tools the project configures itself (`gates.static.custom`): a shell
//! command whose output is SARIF or is read with errorformat patterns, or a
//! SARIF file another step of the pipeline wrote.
//!
//! Rule ids name the tool: `static/sarif:<name>:<rule>` and
//! `static/errorformat:<name>:<rule>` (`<name>` alone when the tool gives no
//! rule), so levels and suppressions can pick one tool
//! (`static/sarif:semgrep`) or one of its rules.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, anyhow, bail};
use globset::{Glob, GlobSet, GlobSetBuilder};

use super::errorformat::{self, Pattern};
use super::{Homes, Reach, Targets, Tool, ToolFinding, path_arg};
use crate::config::Record;
use crate::config::schema::{FieldSpec, Kind};
use crate::process::Output;

/// The fields of one `gates.static.custom` entry.
pub const FIELDS: &[FieldSpec] = &[
    FieldSpec {
        name: "name",
        kind: Kind::Str,
        required: true,
        example: "semgrep",
        doc: "the tool's name, in its rule ids (static/sarif:<name>:<rule>) and for --tool",
    },
    FieldSpec {
        name: "command",
        kind: Kind::Str,
        required: false,
        example: "\"semgrep scan --sarif --quiet {files}\"",
        doc: "shell command run from the repository root; {files} = the changed files it checks, passed as separate arguments (without it, the command checks the whole project)",
    },
    FieldSpec {
        name: "sarif",
        kind: Kind::Str,
        required: false,
        example: "reports/codeql.sarif",
        doc: "a SARIF file an earlier step wrote, read instead of running a command",
    },
    FieldSpec {
        name: "errorformat",
        kind: Kind::List,
        required: false,
        example: "[\"%f:%l:%c: %m\"]",
        doc: "patterns that read the command's text output (Vim's errorformat); without them the output must be SARIF",
    },
    FieldSpec {
        name: "files",
        kind: Kind::GlobList,
        required: false,
        example: "[\"**/*.py\"]",
        doc: "the files it checks: it runs when the change touches one (default: any file)",
    },
    FieldSpec {
        name: "exit-codes",
        kind: Kind::Counts,
        required: false,
        example: "[0, 1]",
        doc: "exit codes that mean it ran, with or without findings (default 0 and 1)",
    },
];

/// Where the report comes from.
enum Source {
    /// A shell command; `{files}` marks where the files go.
    Command(String),
    /// A SARIF file, repo-relative or absolute.
    File(PathBuf),
}

pub struct Custom {
    name: String,
    source: Source,
    /// `None`: the report is SARIF.
    patterns: Option<Vec<Pattern>>,
    files: Option<GlobSet>,
    exit_codes: Vec<i32>,
}

const PLACEHOLDER: &str = "{files}";

impl Custom {
    /// The tool `record` (entry `index` of `gates.static.custom`) describes;
    /// `taken` are the names already in use.
    pub fn from_record(record: &Record, index: usize, taken: &[&str]) -> Result<Custom> {
        let place = format!("gates.static.custom[{index}]");
        let name = record.str("name").unwrap_or_default();
        if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || "._-".contains(c)) {
            bail!("{place}: name `{name}` must be letters, digits, `.`, `_` or `-` (it goes into rule ids)");
        }
        if taken.contains(&name.as_str()) {
            bail!("{place}: name `{name}` is taken (a built-in tool or another entry): pick another");
        }
        let source = match (record.str("command"), record.str("sarif")) {
            (Some(command), None) => Source::Command(command),
            (None, Some(file)) => Source::File(PathBuf::from(file)),
            _ => bail!("{place} ({name}): give exactly one of `command` (run it) and `sarif` (read a file)"),
        };
        let patterns = record.list("errorformat");
        let patterns = match (&source, patterns.is_empty()) {
            (_, true) => None,
            (Source::File(_), false) => {
                bail!("{place} ({name}): `errorformat` reads a command's output; a `sarif` file needs none")
            }
            (Source::Command(_), false) => Some(
                patterns
                    .iter()
                    .map(|p| Pattern::new(p))
                    .collect::<Result<Vec<_>>>()
                    .with_context(|| format!("{place} ({name})"))?,
            ),
        };
        let globs = record.list("files");
        let files = if globs.is_empty() {
            None
        } else {
            let mut set = GlobSetBuilder::new();
            for glob in &globs {
                set.add(Glob::new(glob).map_err(|e| anyhow!("{place} ({name}): bad glob `{glob}`: {e}"))?);
            }
            Some(set.build()?)
        };
        let exit_codes = record
            .counts("exit-codes")
            .unwrap_or_else(|| vec![0, 1])
            .into_iter()
            .filter_map(|c| i32::try_from(c).ok())
            .collect();
        Ok(Custom {
            name,
            source,
            patterns,
            files,
            exit_codes,
        })
    }
}

impl Tool for Custom {
    fn name(&self) -> &str {
        &self.name
    }
    fn rule(&self) -> &'static crate::rule::RuleMeta {
        if self.patterns.is_some() {
            &crate::gates::static_analysis::rules::ERRORFORMAT
        } else {
            &crate::gates::static_analysis::rules::SARIF
        }
    }
    fn program(&self) -> &'static str {
        "sh"
    }
    fn report_file(&self) -> Option<&Path> {
        match &self.source {
            Source::File(path) => Some(path),
            Source::Command(_) => None,
        }
    }
    fn install(&self) -> &'static str {
        "a POSIX shell (sh) on PATH"
    }
    /// The root, always: the command says what it checks.
    fn home(&self, _homes: &Homes<'_>, _file: &Path) -> Option<PathBuf> {
        Some(PathBuf::new())
    }
    fn checks(&self, path: &Path) -> bool {
        self.files.as_ref().is_none_or(|set| set.is_match(path))
    }
    fn reach(&self) -> Reach {
        match &self.source {
            Source::Command(command) if command.contains(PLACEHOLDER) => Reach::Both,
            _ => Reach::Project,
        }
    }
    /// `sh -c COMMAND NAME FILE...`: `{files}` is `"$@"` in the script and
    /// the files are the shell's positional parameters, so a file name is
    /// never shell syntax (quotes, `$(...)`, backticks, line breaks) and,
    /// made a path by [`path_arg`], never an option (issue 25).
    fn args(&self, _root: &Path, targets: &Targets<'_>) -> Vec<OsString> {
        let Source::Command(command) = &self.source else {
            return Vec::new();
        };
        let (script, files): (String, Vec<OsString>) = match targets {
            Targets::Files(files) => (
                command.replace(PLACEHOLDER, "\"$@\""),
                files.iter().map(|f| path_arg(f)).collect(),
            ),
            Targets::Project | Targets::Config(_) => (command.replace(PLACEHOLDER, "."), Vec::new()),
        };
        // `$0`, the name the shell's own messages carry.
        let mut args: Vec<OsString> = vec!["-c".into(), script.into(), self.name.clone().into()];
        args.extend(files);
        args
    }
    fn ran(&self, code: i32) -> bool {
        self.exit_codes.contains(&code)
    }
    fn parse(&self, output: &Output) -> Result<Vec<ToolFinding>> {
        let found = match &self.patterns {
            Some(patterns) => {
                let found = errorformat::read(patterns, &output.stdout);
                if found.is_empty() && output.code != Some(0) && !output.stdout.trim().is_empty() {
                    bail!(
                        "{} exited with {} and printed nothing its errorformat matches (first line: {:?}): check gates.static.custom",
                        self.name,
                        output.code.unwrap_or(-1),
                        output.stdout.lines().next().unwrap_or("")
                    );
                }
                found
            }
            None => super::sarif::read(&self.name, &output.stdout)?.0,
        };
        Ok(found
            .into_iter()
            .map(|f| ToolFinding {
                code: Some(match f.code {
                    Some(code) => format!("{}:{code}", self.name),
                    None => self.name.clone(),
                }),
                ..f
            })
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn command(command: &str) -> Custom {
        Custom {
            name: "scan".into(),
            source: Source::Command(command.into()),
            patterns: None,
            files: None,
            exit_codes: vec![0, 1],
        }
    }

    #[test]
    fn files_are_positional_parameters_never_shell_text() {
        let files = [PathBuf::from("--exclude=*.py"), PathBuf::from("$(touch x) 'a'.py")];
        let args = command("scan --sarif {files} && echo {files}").args(Path::new("/r"), &Targets::Files(&files));
        let args: Vec<&str> = args.iter().map(|a| a.to_str().unwrap()).collect();
        assert_eq!(
            args,
            vec![
                "-c",
                "scan --sarif \"$@\" && echo \"$@\"",
                "scan",
                "./--exclude=*.py",
                "./$(touch x) 'a'.py"
            ]
        );
        let args = command("scan {files}").args(Path::new("/r"), &Targets::Project);
        assert_eq!(args, vec![OsString::from("-c"), "scan .".into(), "scan".into()]);
    }
}
