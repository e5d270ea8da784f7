//! Clippy (`cargo clippy --message-format=json`) on the whole workspace, all
//! targets: cargo builds crates, not files, so the filter keeps what the
//! change touched. Rustc's own diagnostics come with it (a compile error is
//! `static/clippy:E0308`, an unused variable `static/clippy:unused_variables`).
//!
//! Levels map as error -> error, warning -> warning, note and help -> note.
//! Exit code 101 is cargo's for "errors reported" and for a cargo failure
//! alike; with no error among the diagnostics it is a failure.

use std::path::{Path, PathBuf};

use anyhow::{Result, bail};
use serde::Deserialize;

use super::{Homes, Reach, Targets, Tool, ToolFinding, has_extension, json};
use crate::finding::Severity;
use crate::process::Output;

pub struct Clippy;

#[derive(Deserialize)]
struct Line {
    reason: String,
    message: Option<Diagnostic>,
}

#[derive(Deserialize)]
struct Diagnostic {
    message: String,
    code: Option<Code>,
    level: String,
    spans: Vec<Span>,
}

#[derive(Deserialize)]
struct Code {
    code: String,
}

#[derive(Deserialize)]
struct Span {
    file_name: PathBuf,
    line_start: i64,
    line_end: i64,
    column_start: i64,
    column_end: i64,
    is_primary: bool,
}

impl Tool for Clippy {
    fn name(&self) -> &str {
        "clippy"
    }
    fn rule(&self) -> &'static crate::rule::RuleMeta {
        &crate::gates::static_analysis::rules::CLIPPY
    }
    fn program(&self) -> &'static str {
        "cargo"
    }
    fn install(&self) -> &'static str {
        "rustup component add clippy"
    }
    /// The workspace of the crate nearest the file (the topmost
    /// `Cargo.toml` above it with a `[workspace]`, else the crate's own),
    /// where `cargo clippy --workspace` checks every member; a crate a
    /// workspace excludes is not checked. Run when the project configures
    /// clippy (`clippy.toml`, a `[lints.clippy]` table) or names it in its
    /// hooks or CI.
    fn home(&self, homes: &Homes<'_>, file: &Path) -> Option<PathBuf> {
        let krate = homes.nearest(file, "cargo", |h, d| h.has_file(d, "Cargo.toml"))?;
        let mut workspace = krate.clone();
        for dir in krate
            .ancestors()
            .filter(|d| homes.mentions(d, "Cargo.toml", "[workspace]"))
        {
            // Left out of the workspace (`exclude = ["fuzz"]`): the
            // project's `cargo clippy --workspace` never checks it.
            if excludes(homes, dir, &krate) {
                return None;
            }
            workspace = dir.to_path_buf();
        }
        let configured = homes
            .nearest(file, "clippy", |h, d| {
                h.has_file(d, "clippy.toml") || h.has_file(d, ".clippy.toml") || h.mentions(d, "Cargo.toml", "clippy")
            })
            .is_some();
        (configured || homes.named("clippy")).then_some(workspace)
    }
    fn checks(&self, path: &Path) -> bool {
        has_extension(path, &["rs"])
    }
    fn reach(&self) -> Reach {
        Reach::Project
    }
    fn args(&self, _root: &Path, _targets: &Targets<'_>) -> Vec<std::ffi::OsString> {
        [
            "clippy",
            "--workspace",
            // Every target, whichever fails first: the same set on every run.
            "--keep-going",
            "--all-targets",
            "--message-format=json",
            "--quiet",
        ]
        .iter()
        .map(Into::into)
        .collect()
    }
    /// The base's build keeps its own target directory beside the project's,
    /// so dependencies are built once, not on every `--new-only` run.
    fn base_env(&self, root: &Path) -> Vec<(&'static str, PathBuf)> {
        let target = std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| root.join("target"), PathBuf::from);
        vec![("CARGO_TARGET_DIR", target.join("loki-gate-base"))]
    }
    fn ran(&self, code: i32) -> bool {
        code == 0 || code == 101
    }
    fn parse(&self, output: &Output) -> Result<Vec<ToolFinding>> {
        let mut found: Vec<ToolFinding> = Vec::new();
        for line in output.stdout.lines().filter(|l| !l.trim().is_empty()) {
            let line: Line = json("cargo clippy", line)?;
            let Some(diagnostic) = line.message.filter(|_| line.reason == "compiler-message") else {
                continue;
            };
            // "aborting due to 2 previous errors", "3 warnings emitted": no place, no finding.
            let Some(span) = diagnostic.spans.iter().find(|s| s.is_primary) else {
                continue;
            };
            let severity = match diagnostic.level.as_str() {
                "warning" => Severity::Warning,
                "note" | "help" => Severity::Note,
                // "error", "error: internal compiler error"
                _ => Severity::Error,
            };
            let code = diagnostic.code.map(|c| c.code);
            let finding = ToolFinding {
                path: span.file_name.clone(),
                line: super::position(Some(span.line_start)),
                column: super::position(Some(span.column_start)),
                end_line: super::position(Some(span.line_end)),
                end_column: super::position(Some(span.column_end)),
                url: code.as_deref().and_then(url),
                code,
                message: diagnostic.message,
                severity,
            };
            // A library's lints come twice with --all-targets: once for the lib, once for its tests.
            if !found.contains(&finding) {
                found.push(finding);
            }
        }
        if output.code == Some(101) && !found.iter().any(|f| f.severity == Severity::Error) {
            bail!("cargo clippy failed before reporting anything");
        }
        Ok(found)
    }
}

/// Where a lint or an error code is documented.
fn url(code: &str) -> Option<String> {
    if let Some(lint) = code.strip_prefix("clippy::") {
        return Some(format!(
            "https://rust-lang.github.io/rust-clippy/master/index.html#{lint}"
        ));
    }
    let numbered = code.len() == 5 && code.starts_with('E') && code[1..].bytes().all(|b| b.is_ascii_digit());
    numbered.then(|| format!("https://doc.rust-lang.org/error_codes/{code}.html"))
}

/// Does the workspace manifest in `dir` leave the crate at `krate` out
/// (`exclude = ["fuzz"]`)?
fn excludes(homes: &Homes<'_>, dir: &Path, krate: &Path) -> bool {
    let Some(text) = homes.text(dir, "Cargo.toml") else {
        return false;
    };
    let Ok(table) = text.parse::<toml::Table>() else {
        return false;
    };
    let Ok(rel) = krate.strip_prefix(dir) else {
        return false;
    };
    table
        .get("workspace")
        .and_then(|w| w.get("exclude"))
        .and_then(|e| e.as_array())
        .is_some_and(|list| {
            list.iter()
                .filter_map(|v| v.as_str())
                .any(|e| rel.starts_with(e.trim_start_matches("./").trim_end_matches('/')))
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lints_and_error_codes_link_to_their_docs() {
        assert_eq!(
            url("clippy::needless_return").as_deref(),
            Some("https://rust-lang.github.io/rust-clippy/master/index.html#needless_return")
        );
        assert_eq!(
            url("E0308").as_deref(),
            Some("https://doc.rust-lang.org/error_codes/E0308.html")
        );
        assert_eq!(url("unused_variables"), None);
    }
}
