//! The TypeScript compiler as a type checker (`tsc --noEmit --pretty false`),
//! on the project its `tsconfig.json` defines: tsc cannot check a few files
//! under a project's settings, so it always checks the whole project and the
//! filter keeps what the change touched.
//!
//! Its plain format is one diagnostic per line,
//! `path(line,col): error TS2322: message`, with the lines of a longer
//! message indented below it. A diagnostic with no file (`error TS5083:
//! Cannot read file 'tsconfig.json'`) means the project itself is broken:
//! that is an error of the gate, never "no findings".

use std::path::{Path, PathBuf};

use anyhow::{Result, bail};

use super::{Homes, Reach, Targets, Tool, ToolFinding, has_extension};
use crate::finding::Severity;
use crate::process::Output;

pub struct Tsc;

const EXTENSIONS: &[&str] = &["ts", "tsx", "mts", "cts"];

impl Tool for Tsc {
    fn name(&self) -> &str {
        "tsc"
    }
    fn rule(&self) -> &'static crate::rule::RuleMeta {
        &crate::gates::static_analysis::rules::TSC
    }
    fn program(&self) -> &'static str {
        "tsc"
    }
    fn install(&self) -> &'static str {
        "npm install --save-dev typescript"
    }
    /// The directory of the `tsconfig.json` nearest the file: the project
    /// tsc checks it in, as `tsc -p` there would.
    fn home(&self, homes: &Homes<'_>, file: &Path) -> Option<PathBuf> {
        homes.nearest(file, "tsc", |h, d| h.has_file(d, "tsconfig.json"))
    }
    fn checks(&self, path: &Path) -> bool {
        has_extension(path, EXTENSIONS)
    }
    fn reach(&self) -> Reach {
        Reach::Project
    }
    fn args(&self, _root: &Path, _targets: &Targets<'_>) -> Vec<std::ffi::OsString> {
        ["--noEmit", "--pretty", "false"].iter().map(Into::into).collect()
    }
    /// 0: clean; 1 and 2: diagnostics (with or without output written).
    fn ran(&self, code: i32) -> bool {
        (0..=2).contains(&code)
    }
    fn parse(&self, output: &Output) -> Result<Vec<ToolFinding>> {
        let mut found: Vec<ToolFinding> = Vec::new();
        for line in output.stdout.lines() {
            if line.trim().is_empty() {
                continue;
            }
            if line.starts_with(' ') {
                match found.last_mut() {
                    Some(last) => {
                        last.message.push(' ');
                        last.message.push_str(line.trim());
                        continue;
                    }
                    None => bail!("tsc printed output that is not its --pretty false format (first line: {line:?})"),
                }
            }
            match diagnostic(line) {
                Some(f) => found.push(f),
                None if line.starts_with("error TS") => {
                    bail!(
                        "tsc could not check the project: {line} (fix tsconfig.json, or leave tsc out of gates.static.tools)"
                    )
                }
                None => bail!("tsc printed output that is not its --pretty false format (line: {line:?})"),
            }
        }
        Ok(found)
    }
}

/// `src/a.ts(2,3): error TS2322: Type 'number' is not assignable to type 'string'.`
fn diagnostic(line: &str) -> Option<ToolFinding> {
    let (place, rest) = line.split_once("): ")?;
    let (path, position) = place.rsplit_once('(')?;
    let (row, column) = position.split_once(',')?;
    let (level, rest) = rest.split_once(' ')?;
    let (code, message) = rest.split_once(": ")?;
    let number = code.strip_prefix("TS")?;
    if path.is_empty() || number.is_empty() || !number.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some(ToolFinding {
        path: PathBuf::from(path),
        line: row.parse().ok().filter(|n| *n > 0),
        column: column.parse().ok().filter(|n| *n > 0),
        end_line: None,
        end_column: None,
        code: Some(code.to_string()),
        message: message.to_string(),
        severity: match level {
            "error" => Severity::Error,
            "warning" => Severity::Warning,
            "message" | "suggestion" => Severity::Note,
            _ => return None,
        },
        url: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn output(stdout: &str) -> Output {
        Output {
            code: Some(2),
            timed_out: false,
            stdout: stdout.to_string(),
            stderr: String::new(),
            elapsed: std::time::Duration::ZERO,
        }
    }

    #[test]
    fn reads_diagnostics_with_their_continuation_lines() {
        let found = Tsc
            .parse(&output(
                "src/a (1).ts(2,3): error TS2322: Type 'number' is not assignable to type 'string'.\n\
                 src/b.ts(10,1): error TS2345: Argument of type '{ a: number; }' is not assignable.\n  \
                 Object literal may only specify known properties.\n",
            ))
            .unwrap();
        assert_eq!(found.len(), 2);
        assert_eq!(found[0].path, PathBuf::from("src/a (1).ts"));
        assert_eq!((found[0].line, found[0].column), (Some(2), Some(3)));
        assert_eq!(found[0].code.as_deref(), Some("TS2322"));
        assert_eq!(
            found[1].message,
            "Argument of type '{ a: number; }' is not assignable. Object literal may only specify known properties."
        );
    }

    #[test]
    fn a_broken_project_or_other_output_is_an_error() {
        let err = Tsc
            .parse(&output("error TS5083: Cannot read file '/r/tsconfig.json'.\n"))
            .unwrap_err();
        assert!(
            err.to_string().contains("could not check the project: error TS5083"),
            "{err}"
        );
        assert!(Tsc.parse(&output("Segmentation fault\n")).is_err());
        assert!(Tsc.parse(&output("  indented first\n")).is_err());
        assert!(Tsc.parse(&output("")).unwrap().is_empty());
    }
}
