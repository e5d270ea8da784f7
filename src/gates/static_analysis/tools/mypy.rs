//! mypy (`--output json`, mypy 1.11 and later). Errors are errors, notes
//! (mypy's hints attached to an error) are notes. Picked by `auto` only when
//! the project configures mypy: on an untyped codebase it would report
//! everything.

use std::path::{Path, PathBuf};

use anyhow::Result;
use serde::Deserialize;

use super::{
    Present, Targets, Tool, ToolFinding, config_text, file_mentions, has_extension, json_lines, position, with_files,
};
use crate::finding::Severity;
use crate::process::Output;

pub struct Mypy;

#[derive(Deserialize)]
struct Message {
    file: PathBuf,
    line: Option<i64>,
    column: Option<i64>,
    end_line: Option<i64>,
    end_column: Option<i64>,
    message: String,
    hint: Option<String>,
    code: Option<String>,
    severity: String,
}

impl Tool for Mypy {
    fn name(&self) -> &str {
        "mypy"
    }
    fn rule(&self) -> &'static crate::rule::RuleMeta {
        &crate::gates::static_analysis::rules::MYPY
    }
    fn program(&self) -> &'static str {
        "mypy"
    }
    fn install(&self) -> &'static str {
        "pip install mypy"
    }
    fn detect(&self, root: &Path, _present: &Present) -> bool {
        root.join("mypy.ini").is_file()
            || root.join(".mypy.ini").is_file()
            || file_mentions(root, "pyproject.toml", "[tool.mypy")
            || file_mentions(root, "setup.cfg", "[mypy")
    }
    fn checks(&self, path: &Path) -> bool {
        has_extension(path, &["py", "pyi"])
    }
    fn args(&self, root: &Path, targets: &Targets<'_>) -> Vec<std::ffi::OsString> {
        let mut flags = vec![
            "--output",
            "json",
            "--show-column-numbers",
            "--show-error-end",
            "--no-error-summary",
        ];
        // The project: what mypy's config lists in `files`, else everything.
        if matches!(targets, Targets::Project) && !configures_files(root) {
            flags.push(".");
        }
        // A stub and its module together are one module twice to mypy, a
        // blocking error (exit 2): the module is checked, the stub left out.
        if let Targets::Files(files) = targets {
            let modules: Vec<PathBuf> = files
                .iter()
                .filter(|f| !(has_extension(f, &["pyi"]) && files.contains(&f.with_extension("py"))))
                .cloned()
                .collect();
            return with_files(&flags, &Targets::Files(&modules));
        }
        with_files(&flags, targets)
    }
    fn parse(&self, output: &Output) -> Result<Vec<ToolFinding>> {
        let messages: Vec<Message> = json_lines("mypy", &output.stdout)?;
        Ok(messages
            .into_iter()
            .map(|m| ToolFinding {
                path: m.file,
                line: position(m.line),
                // mypy counts columns from 0 in JSON as in its text output with --show-column-numbers.
                column: position(m.column.map(|c| c + 1)),
                end_line: position(m.end_line),
                end_column: position(m.end_column.map(|c| c + 1)),
                severity: match m.severity.as_str() {
                    "note" => Severity::Note,
                    "warning" => Severity::Warning,
                    _ => Severity::Error,
                },
                message: match m.hint {
                    Some(hint) if !hint.is_empty() => format!("{} ({hint})", m.message),
                    _ => m.message,
                },
                url: None,
                code: m.code,
            })
            .collect())
    }
}

/// Does the project's mypy config name the files to check (`files = ...`)?
fn configures_files(root: &Path) -> bool {
    ["mypy.ini", ".mypy.ini", "setup.cfg", "pyproject.toml"]
        .iter()
        .any(|name| {
            config_text(root, name).is_some_and(|text| {
                text.lines().any(|line| {
                    line.trim_start()
                        .strip_prefix("files")
                        .is_some_and(|rest| rest.trim_start().starts_with('='))
                })
            })
        })
}
