//! mypy (`--output json`, mypy 1.11 and later). Errors are errors, notes
//! (mypy's hints attached to an error) are notes. Picked by `auto` only when
//! the project configures mypy: on an untyped codebase it would report
//! everything.

use std::path::{Path, PathBuf};

use anyhow::Result;
use serde::Deserialize;

use super::{Homes, Targets, Tool, ToolFinding, config_text, has_extension, json_lines, position, with_files};
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
    /// The directory of the mypy config nearest the file, run from there
    /// as the project runs mypy; a file its `files` leaves out, or its
    /// `exclude` matches, is not the project's to type-check. With no
    /// config, the root when the project runs mypy from its hooks or CI.
    fn home(&self, homes: &Homes<'_>, file: &Path) -> Option<PathBuf> {
        let Some(dir) = homes.nearest(file, "mypy", |h, d| Config::read(h, d).is_some()) else {
            return (homes.named("mypy") && invoked_on(homes, file)).then(PathBuf::new);
        };
        let config = Config::read(homes, &dir)?;
        let rel = file.strip_prefix(&dir).ok()?;
        // No `files`: what the project hands mypy on its command lines.
        let invoked = !config.files.is_empty() || invoked_on(homes, file);
        (config.covers(rel) && invoked).then_some(dir)
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
        // A note about its config (`pyproject.toml: note: unused section(s)
        // ...`) is plain text even with --output json: not a finding.
        let report: String = output
            .stdout
            .lines()
            .filter(|l| !is_config_note(l))
            .map(|l| format!("{l}\n"))
            .collect();
        let messages: Vec<Message> = json_lines("mypy", &report)?;
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

/// `mypy.ini: note: unused section(s): ...`: what mypy says of its config
/// file as text, whatever the output format.
fn is_config_note(line: &str) -> bool {
    line.split_once(": note: ").is_some_and(|(file, _)| {
        let name = file.rsplit('/').next().unwrap_or(file);
        ["mypy.ini", ".mypy.ini", "pyproject.toml", "setup.cfg"].contains(&name)
    })
}

/// Is `file` under a path the project's hook, task or CI files hand mypy
/// (`mypy typing_tests`)? Yes when they hand it none that can be read.
fn invoked_on(homes: &Homes<'_>, file: &Path) -> bool {
    let paths = homes.invoked_paths("mypy");
    paths.is_empty() || paths.iter().any(|p| file.starts_with(p))
}

/// What a directory's mypy config says about which files mypy checks.
#[derive(Debug, Default)]
struct Config {
    /// `files`: paths or globs, relative to the config's directory; empty
    /// when the config names none (the command line does).
    files: Vec<String>,
    /// `exclude`: regular expressions searched in each path mypy discovers.
    exclude: Vec<regex::Regex>,
}

impl Config {
    /// The config in `dir`, in mypy's order of precedence: `mypy.ini`,
    /// `.mypy.ini`, `pyproject.toml` with `[tool.mypy]`, `setup.cfg` with
    /// `[mypy]`. An `exclude` that is not a regular expression this side
    /// reads is left out (mypy itself says what is wrong with it).
    fn read(homes: &Homes<'_>, dir: &Path) -> Option<Config> {
        let split = |v: &str| -> Vec<String> {
            v.split(',')
                .map(str::trim)
                .filter(|p| !p.is_empty())
                .map(str::to_string)
                .collect()
        };
        let regexes = |v: Vec<String>| v.iter().filter_map(|r| regex::Regex::new(r).ok()).collect();
        for name in ["mypy.ini", ".mypy.ini"] {
            if homes.has_file(dir, name) {
                let text = homes.text(dir, name).unwrap_or_default();
                return Some(Config::from_ini(&text, "mypy", split, regexes));
            }
        }
        if homes.mentions(dir, "pyproject.toml", "[tool.mypy") {
            let text = homes.text(dir, "pyproject.toml").unwrap_or_default();
            let table: toml::Table = text.parse().unwrap_or_default();
            let mypy = table.get("tool").and_then(|t| t.get("mypy"));
            let list = |key: &str| -> Vec<String> {
                match mypy.and_then(|m| m.get(key)) {
                    Some(toml::Value::String(s)) => vec![s.clone()],
                    Some(toml::Value::Array(items)) => {
                        items.iter().filter_map(|v| v.as_str().map(str::to_string)).collect()
                    }
                    _ => Vec::new(),
                }
            };
            return Some(Config {
                files: list("files").iter().flat_map(|f| split(f)).collect(),
                exclude: regexes(list("exclude")),
            });
        }
        if homes.mentions(dir, "setup.cfg", "[mypy") {
            let text = homes.text(dir, "setup.cfg").unwrap_or_default();
            return Some(Config::from_ini(&text, "mypy", split, regexes));
        }
        None
    }

    fn from_ini(
        text: &str,
        section: &str,
        split: impl Fn(&str) -> Vec<String>,
        regexes: impl Fn(Vec<String>) -> Vec<regex::Regex>,
    ) -> Config {
        let value = |key| crate::formats::ini_value(text, section, key);
        Config {
            files: value("files").map(|v| split(&v)).unwrap_or_default(),
            exclude: regexes(value("exclude").into_iter().collect()),
        }
    }

    /// Would mypy, run from the config's directory, check `file` (relative
    /// to it): under one of `files` (a path, a directory or a glob), and
    /// neither it nor a directory above it matched by `exclude`?
    fn covers(&self, file: &Path) -> bool {
        let shown = crate::git::display_path(file);
        let listed = self.files.is_empty()
            || self.files.iter().any(|entry| {
                let entry = entry.trim_start_matches("./").trim_end_matches('/');
                let glob = globset::GlobBuilder::new(entry)
                    .literal_separator(true)
                    .build()
                    .map(|g| g.compile_matcher());
                file.ancestors()
                    .filter(|a| !a.as_os_str().is_empty())
                    .any(|a| a == Path::new(entry) || glob.as_ref().is_ok_and(|g| g.is_match(a)))
                    || entry == "."
            });
        // mypy searches each path it discovers, a directory with a `/` after it.
        let excluded = file
            .ancestors()
            .skip(1)
            .filter(|a| !a.as_os_str().is_empty())
            .map(|a| format!("{}/", crate::git::display_path(a)))
            .chain(std::iter::once(shown))
            .any(|p| self.exclude.iter().any(|r| r.is_match(&p)));
        listed && !excluded
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

#[cfg(test)]
mod tests {
    use super::*;

    fn output(stdout: &str) -> Output {
        Output {
            code: Some(1),
            timed_out: false,
            stdout: stdout.to_string(),
            stderr: String::new(),
            elapsed: std::time::Duration::ZERO,
            overflow: None,
        }
    }

    #[test]
    fn a_note_on_its_config_is_no_finding_and_other_text_is_an_error() {
        let json = r#"{"file": "src/a.py", "line": 2, "column": 4, "message": "m", "hint": null, "code": "return-value", "severity": "error"}"#;
        let found = Mypy
            .parse(&output(&format!(
                "pyproject.toml: note: unused section(s): module = ['colorama.*']\n{json}\n"
            )))
            .unwrap();
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].code.as_deref(), Some("return-value"));
        assert!(Mypy.parse(&output("src/a.py: note: by the way\n")).is_err());
        assert!(Mypy.parse(&output("Traceback (most recent call last):\n")).is_err());
    }
}
