//! ShellCheck (`-f json1`). Its levels map as error -> error, warning ->
//! warning, info and style -> note.

use std::path::{Path, PathBuf};

use anyhow::Result;
use serde::Deserialize;

use super::{Homes, Reach, Targets, Tool, ToolFinding, has_extension, json, position, with_files};
use crate::finding::Severity;
use crate::process::Output;

pub struct Shellcheck;

#[derive(Deserialize)]
struct Report {
    comments: Vec<Comment>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Comment {
    file: PathBuf,
    line: Option<i64>,
    end_line: Option<i64>,
    column: Option<i64>,
    end_column: Option<i64>,
    level: String,
    code: i64,
    message: String,
}

const EXTENSIONS: &[&str] = &["sh", "bash", "ksh", "bats"];

impl Tool for Shellcheck {
    fn name(&self) -> &str {
        "shellcheck"
    }
    fn rule(&self) -> &'static crate::rule::RuleMeta {
        &crate::gates::static_analysis::rules::SHELLCHECK
    }
    fn program(&self) -> &'static str {
        "shellcheck"
    }
    fn install(&self) -> &'static str {
        "apt-get install shellcheck (or brew install shellcheck)"
    }
    /// When a `.shellcheckrc` covers the file or the project names
    /// ShellCheck in its hooks or CI; it finds its rc file per script.
    fn home(&self, homes: &Homes<'_>, file: &Path) -> Option<PathBuf> {
        let rc = |h: &Homes<'_>, d: &Path| h.has_file(d, ".shellcheckrc") || h.has_file(d, "shellcheckrc");
        (homes.nearest(file, "shellcheck", rc).is_some() || homes.named("shellcheck")).then(PathBuf::new)
    }
    fn alone(&self) -> &'static [&'static str] {
        &[".shellcheckrc", "shellcheckrc"]
    }
    fn checks(&self, path: &Path) -> bool {
        has_extension(path, EXTENSIONS)
    }
    /// ShellCheck has no project of its own: the scripts are the scope.
    fn reach(&self) -> Reach {
        Reach::Files
    }
    fn args(&self, _root: &Path, targets: &Targets<'_>) -> Vec<std::ffi::OsString> {
        // -x: follow `source`d files the scripts name.
        with_files(&["-f", "json1", "-x"], targets)
    }
    fn parse(&self, output: &Output) -> Result<Vec<ToolFinding>> {
        let report: Report = json("shellcheck", &output.stdout)?;
        Ok(report
            .comments
            .into_iter()
            .map(|c| ToolFinding {
                path: c.file,
                line: position(c.line),
                column: position(c.column),
                end_line: position(c.end_line),
                end_column: position(c.end_column),
                severity: match c.level.as_str() {
                    "error" => Severity::Error,
                    "warning" => Severity::Warning,
                    _ => Severity::Note,
                },
                code: Some(format!("SC{}", c.code)),
                url: Some(format!("https://www.shellcheck.net/wiki/SC{}", c.code)),
                message: c.message,
            })
            .collect())
    }
}
