//! ESLint (`-f json`). Severity 2 is an error, 1 a warning; a file ESLint
//! could not parse is an error with no rule. Files its config ignores are
//! not findings.

use std::path::{Path, PathBuf};

use anyhow::Result;
use serde::Deserialize;

use super::{Homes, Targets, Tool, ToolFinding, has_extension, json, position, with_files};
use crate::finding::Severity;
use crate::process::Output;

pub struct Eslint;

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct FileResult {
    file_path: PathBuf,
    messages: Vec<Message>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Message {
    rule_id: Option<String>,
    severity: i64,
    message: String,
    line: Option<i64>,
    column: Option<i64>,
    end_line: Option<i64>,
    end_column: Option<i64>,
}

const EXTENSIONS: &[&str] = &["js", "jsx", "mjs", "cjs", "ts", "tsx", "mts", "cts", "vue", "svelte"];

/// ESLint config files, flat and legacy.
const CONFIGS: &[&str] = &[
    "eslint.config.js",
    "eslint.config.mjs",
    "eslint.config.cjs",
    "eslint.config.ts",
    "eslint.config.mts",
    "eslint.config.cts",
    ".eslintrc",
    ".eslintrc.js",
    ".eslintrc.cjs",
    ".eslintrc.json",
    ".eslintrc.yaml",
    ".eslintrc.yml",
];

impl Tool for Eslint {
    fn name(&self) -> &str {
        "eslint"
    }
    fn rule(&self) -> &'static crate::rule::RuleMeta {
        &crate::gates::static_analysis::rules::ESLINT
    }
    fn program(&self) -> &'static str {
        "eslint"
    }
    fn install(&self) -> &'static str {
        "npm install --save-dev eslint"
    }
    /// The directory of the ESLint config nearest the file (a package's
    /// own in a monorepo), run from there: ESLint 9 reads the config of
    /// the directory it runs in, ESLint 10 the one nearest each file, and
    /// both agree from there. The config's own `files` and `ignores` then
    /// decide (a file they leave out is reported as ignored, not linted).
    fn home(&self, homes: &Homes<'_>, file: &Path) -> Option<PathBuf> {
        homes.nearest(file, "eslint", |h, d| {
            CONFIGS.iter().any(|c| h.has_file(d, c)) || h.mentions(d, "package.json", "\"eslintConfig\"")
        })
    }
    fn checks(&self, path: &Path) -> bool {
        has_extension(path, EXTENSIONS)
    }
    fn args(&self, _root: &Path, targets: &Targets<'_>) -> Vec<std::ffi::OsString> {
        let mut flags = vec!["-f", "json"];
        if matches!(targets, Targets::Project) {
            flags.push(".");
        }
        with_files(&flags, targets)
    }
    fn parse(&self, output: &Output) -> Result<Vec<ToolFinding>> {
        let files: Vec<FileResult> = json("eslint", &output.stdout)?;
        Ok(files
            .into_iter()
            .flat_map(|file| {
                let path = file.file_path;
                file.messages
                    .into_iter()
                    // "File ignored because of a matching ignore pattern" / "no matching configuration".
                    .filter(|m| !(m.rule_id.is_none() && m.severity == 1 && m.message.starts_with("File ignored")))
                    .map(move |m| ToolFinding {
                        path: path.clone(),
                        line: position(m.line),
                        column: position(m.column),
                        end_line: position(m.end_line),
                        end_column: position(m.end_column),
                        severity: if m.severity >= 2 {
                            Severity::Error
                        } else {
                            Severity::Warning
                        },
                        url: m
                            .rule_id
                            .as_ref()
                            .filter(|r| !r.contains('/'))
                            .map(|r| format!("https://eslint.org/docs/latest/rules/{r}")),
                        code: m.rule_id,
                        message: m.message,
                    })
            })
            .collect())
    }
}
