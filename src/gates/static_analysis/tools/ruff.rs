//! ruff (`ruff check --output-format json`). Every violation is an error:
//! ruff has no levels of its own, and fails the run on any of them.

use std::path::{Path, PathBuf};

use anyhow::Result;
use serde::Deserialize;

use super::{Homes, Targets, Tool, ToolFinding, has_extension, json, position, with_files};
use crate::finding::Severity;
use crate::process::Output;

pub struct Ruff;

#[derive(Deserialize)]
struct Violation {
    code: Option<String>,
    message: String,
    filename: PathBuf,
    location: Option<Location>,
    end_location: Option<Location>,
    url: Option<String>,
}

#[derive(Deserialize)]
struct Location {
    row: Option<i64>,
    column: Option<i64>,
}

const EXTENSIONS: &[&str] = &["py", "pyi"];

impl Tool for Ruff {
    fn name(&self) -> &str {
        "ruff"
    }
    fn rule(&self) -> &'static crate::rule::RuleMeta {
        &crate::gates::static_analysis::rules::RUFF
    }
    fn program(&self) -> &'static str {
        "ruff"
    }
    fn install(&self) -> &'static str {
        "pip install ruff (or uv tool install ruff)"
    }
    /// Where a `ruff.toml`, `.ruff.toml` or `[tool.ruff]` covers the file,
    /// or anywhere when the project runs ruff from its hooks or CI. ruff
    /// finds the config nearest each file itself: it runs from the root.
    fn home(&self, homes: &Homes<'_>, file: &Path) -> Option<PathBuf> {
        let config = |h: &Homes<'_>, d: &Path| {
            h.has_file(d, "ruff.toml") || h.has_file(d, ".ruff.toml") || h.mentions(d, "pyproject.toml", "[tool.ruff")
        };
        (homes.nearest(file, "ruff", config).is_some() || homes.named("ruff")).then(PathBuf::new)
    }
    fn alone(&self) -> &'static [&'static str] {
        &["pyproject.toml", "ruff.toml", ".ruff.toml"]
    }
    fn checks(&self, path: &Path) -> bool {
        has_extension(path, EXTENSIONS)
    }
    fn args(&self, _root: &Path, targets: &Targets<'_>) -> Vec<std::ffi::OsString> {
        // --force-exclude: the project's `exclude` applies to files named on the command line too.
        let mut flags = vec![
            "check",
            "--output-format",
            "json",
            "--no-fix",
            "--force-exclude",
            "--quiet",
        ];
        // ruff's cache cannot store a path that is not UTF-8, and fails the run.
        if let Targets::Files(files) = targets
            && files.iter().any(|f| f.to_str().is_none())
        {
            flags.push("--no-cache");
        }
        with_files(&flags, targets)
    }
    fn parse(&self, output: &Output) -> Result<Vec<ToolFinding>> {
        let violations: Vec<Violation> = json("ruff", &output.stdout)?;
        Ok(violations
            .into_iter()
            .map(|v| ToolFinding {
                path: v.filename,
                line: position(v.location.as_ref().and_then(|l| l.row)),
                column: position(v.location.as_ref().and_then(|l| l.column)),
                end_line: position(v.end_location.as_ref().and_then(|l| l.row)),
                end_column: position(v.end_location.as_ref().and_then(|l| l.column)),
                code: v.code,
                message: v.message,
                severity: Severity::Error,
                url: v.url,
            })
            .collect())
    }
}
