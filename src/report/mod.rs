//! Reports: the one way output leaves loki-gate.
//!
//! Each renderer (one file per format) reads only [`GateReport`]s, which
//! hold findings and their summary. Messages for the person at the terminal
//! (errors, status lines) go through [`error`] and [`status`] here too.

pub use crate::verdict::coverage;
pub mod agent;
pub mod github;
pub mod gitlab;
pub mod json;
pub mod junit;
pub mod markdown;
pub mod progress;
pub mod sarif;
pub mod text;

use std::io::{IsTerminal, Write};
use std::path::Path;

use anyhow::{Context, Result};

pub use crate::verdict::{GateReport, Outcome};
pub use crate::wording::describe;
pub(crate) use crate::wording::plural;

/// The formats a report is written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    Text,
    /// One line per finding (`path:line:col: severity[rule] message`), then the summaries
    Concise,
    Json,
    /// JUnit XML: one test suite per gate, one failing test case per error
    Junit,
    Sarif,
    Github,
    /// GitLab Code Quality JSON (merge request widget)
    Gitlab,
    Markdown,
    /// The fix-next list a coding agent reads: blocking findings first, each with its fix, capped in size
    Agent,
}

/// Whether the text report is in colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ColorChoice {
    Auto,
    Always,
    Never,
}

/// Rendering options shared by the formats.
#[derive(Debug, Clone, Copy)]
pub struct Style {
    pub color: bool,
    pub quiet: bool,
    pub verbose: bool,
    /// `--write-baseline`: the findings are being recorded, not judged.
    pub recording: bool,
    /// `--statistics`: a count per rule instead of each finding.
    pub statistics: bool,
    /// `check`'s report: the several-gates shape of JSON even with one gate,
    /// so a script reads one shape whatever `--gates` picked.
    pub envelope: bool,
}

/// Decide colour: `always` forces it; `auto` needs a terminal and no `NO_COLOR`.
pub fn use_color(choice: ColorChoice, to_terminal: bool, no_color_env: bool) -> bool {
    match choice {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => to_terminal && !no_color_env,
    }
}

/// Render `reports` in `format`.
pub fn render(format: Format, reports: &[GateReport], style: Style) -> String {
    if style.statistics {
        return match format {
            Format::Json => json::statistics(reports),
            _ => text::statistics(reports, style),
        };
    }
    match format {
        Format::Text => text::render(reports, style),
        Format::Concise => text::concise(reports, style),
        Format::Json => json::render(reports, style.envelope),
        Format::Junit => junit::render(reports),
        Format::Sarif => sarif::render(reports),
        Format::Github => github::render(reports),
        Format::Gitlab => gitlab::render(reports),
        Format::Markdown => markdown::render(reports),
        Format::Agent => match agent::render(reports) {
            text if text.is_empty() => "loki-gate: nothing blocks.\n".to_string(),
            text => text,
        },
    }
}

/// Write a rendered report to `-o FILE` (atomically) or stdout. A closed
/// stdout (`| head`) is not an error.
pub fn emit(rendered: &str, output: Option<&Path>) -> Result<()> {
    match output {
        Some(path) => path
            .parent()
            .filter(|dir| !dir.as_os_str().is_empty() && !dir.exists())
            .map_or(Ok(()), std::fs::create_dir_all)
            .map_err(anyhow::Error::from)
            .and_then(|()| crate::state::write_atomic(path, rendered.as_bytes()))
            .with_context(|| format!("could not write the report to {}", path.display())),
        None => {
            let mut stdout = std::io::stdout().lock();
            match stdout.write_all(rendered.as_bytes()).and_then(|_| stdout.flush()) {
                Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
                other => other.context("could not write to stdout"),
            }
        }
    }
}

/// Is stdout a terminal?
pub fn stdout_is_terminal() -> bool {
    std::io::stdout().is_terminal()
}

/// Print a could-not-run error: `error: ...` on stderr, one line per line of the message.
pub fn error(err: &anyhow::Error) {
    let text = match err.downcast_ref::<crate::config::ConfigError>() {
        Some(config) => config.to_string(),
        None => describe(err),
    };
    let mut stderr = std::io::stderr().lock();
    for line in text.lines() {
        let _ = writeln!(stderr, "error: {line}");
    }
}

/// Print a status line for the person at the terminal (stderr).
pub fn status(message: &str) {
    let _ = writeln!(std::io::stderr().lock(), "{message}");
}
