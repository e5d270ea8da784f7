//! golangci-lint v2 (`golangci-lint run --output.json.path=stdout`) on the
//! module (`./...`): Go linters check packages, not files, so the filter
//! keeps what the change touched. The rule is the linter that reported the
//! issue (`static/golangci-lint:errcheck`).
//!
//! golangci-lint fails on any issue, so an issue with no severity of its own
//! is an error; the severities its config assigns map as error -> error,
//! warning -> warning, anything else -> note.

use std::path::{Path, PathBuf};

use anyhow::Result;
use serde::Deserialize;

use super::{Homes, Reach, Targets, Tool, ToolFinding, json, position};

/// golangci-lint's config files, which it looks for from where it runs up.
const CONFIGS: &[&str] = &[".golangci.yml", ".golangci.yaml", ".golangci.toml", ".golangci.json"];
use crate::finding::Severity;
use crate::process::Output;

pub struct GolangciLint;

#[derive(Deserialize)]
#[serde(rename_all = "PascalCase")]
struct Report {
    issues: Option<Vec<Issue>>,
}

#[derive(Deserialize)]
#[serde(rename_all = "PascalCase")]
struct Issue {
    from_linter: String,
    text: String,
    #[serde(default)]
    severity: String,
    pos: Position,
}

#[derive(Deserialize)]
#[serde(rename_all = "PascalCase")]
struct Position {
    filename: PathBuf,
    line: Option<i64>,
    column: Option<i64>,
}

impl Tool for GolangciLint {
    fn name(&self) -> &str {
        "golangci-lint"
    }
    fn rule(&self) -> &'static crate::rule::RuleMeta {
        &crate::gates::static_analysis::rules::GOLANGCI_LINT
    }
    fn program(&self) -> &'static str {
        "golangci-lint"
    }
    fn install(&self) -> &'static str {
        "see https://golangci-lint.run/docs/welcome/install/ (e.g. brew install golangci-lint)"
    }
    /// The module of the file (the nearest `go.mod`), linted with
    /// `./...` from there, when a golangci-lint config covers it or the
    /// project names golangci-lint in its hooks or CI.
    fn home(&self, homes: &Homes<'_>, file: &Path) -> Option<PathBuf> {
        let module = homes.nearest(file, "go.mod", |h, d| h.has_file(d, "go.mod"))?;
        let configured = homes
            .nearest(file, "golangci", |h, d| CONFIGS.iter().any(|c| h.has_file(d, c)))
            .is_some();
        (configured || homes.named("golangci-lint")).then_some(module)
    }
    fn checks(&self, path: &Path) -> bool {
        super::has_extension(path, &["go"])
    }
    fn reach(&self) -> Reach {
        Reach::Project
    }
    fn args(&self, _root: &Path, _targets: &Targets<'_>) -> Vec<std::ffi::OsString> {
        [
            "run",
            "--output.json.path=stdout",
            "--show-stats=false",
            // Paths as they are on disk, whatever `run.relative-path-mode` says (v2.1).
            "--path-mode=abs",
            "--issues-exit-code=1",
            "./...",
        ]
        .iter()
        .map(Into::into)
        .collect()
    }
    fn parse(&self, output: &Output) -> Result<Vec<ToolFinding>> {
        let report: Report = json("golangci-lint", &output.stdout)?;
        Ok(report
            .issues
            .unwrap_or_default()
            .into_iter()
            .map(|issue| ToolFinding {
                path: issue.pos.filename,
                line: position(issue.pos.line),
                column: position(issue.pos.column),
                end_line: None,
                end_column: None,
                severity: match issue.severity.to_ascii_lowercase().as_str() {
                    "" | "error" => Severity::Error,
                    "warning" => Severity::Warning,
                    _ => Severity::Note,
                },
                url: Some(format!(
                    "https://golangci-lint.run/docs/linters/configuration/#{}",
                    issue.from_linter
                )),
                code: Some(issue.from_linter),
                message: issue.text,
            })
            .collect())
    }
}
