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
    /// tsc checks it in, as `tsc -p` there would. When that config is a
    /// solution (`"files": []` and `references`, as Vite's templates and
    /// many monorepos write it), checking it checks nothing: the project is
    /// the referenced config that covers the file, and a file none covers
    /// is in no project.
    fn home(&self, homes: &Homes<'_>, file: &Path) -> Option<PathBuf> {
        let dir = homes.nearest(file, "tsc", |h, d| h.has_file(d, "tsconfig.json"))?;
        match solution(homes, &dir) {
            Some(references) => references.iter().any(|r| r.covers(file)).then_some(dir),
            None => Some(dir),
        }
    }
    fn config_for(&self, homes: &Homes<'_>, dir: &Path, file: &Path) -> Option<PathBuf> {
        let references = solution(homes, dir)?;
        let project = references.into_iter().find(|r| r.covers(file))?;
        project.config.strip_prefix(dir).ok().map(Path::to_path_buf)
    }
    /// "Cannot find module 'x'" for a package the nearest package.json
    /// declares but no `node_modules` above the file holds: the
    /// dependencies are not installed here (the project's CI installs
    /// them). And a referenced project's output not built yet (TS6305).
    fn environment(&self, root: &Path, f: &ToolFinding) -> Option<String> {
        // "Output file ... has not been built from source file ...": a
        // referenced project's build output, which `tsc -b` makes.
        if f.code.as_deref() == Some("TS6305") {
            return Some("a referenced project is not built here (`tsc -b` builds it)".to_string());
        }
        if !matches!(f.code.as_deref(), Some("TS2307" | "TS2792" | "TS2688")) {
            return None;
        }
        let module = f.message.split('\'').nth(1)?;
        if module.starts_with('.') || module.starts_with('/') {
            return None;
        }
        // The package's name: `@scope/name` or `name`, without a subpath.
        let mut parts = module.split('/');
        let package = match parts.next()? {
            scope if scope.starts_with('@') => format!("{scope}/{}", parts.next()?),
            name => name.to_string(),
        };
        let file = crate::paths::confine(root, &f.path)?;
        let mut declared = false;
        for dir in file.ancestors().skip(1) {
            if root.join(dir).join("node_modules").join(&package).exists() {
                return None;
            }
            if !declared && let Ok(bytes) = crate::walk::read_file(root, &dir.join("package.json")) {
                let manifest: serde_json::Value = serde_json::from_slice(&bytes).unwrap_or_default();
                declared = [
                    "dependencies",
                    "devDependencies",
                    "peerDependencies",
                    "optionalDependencies",
                ]
                .iter()
                .any(|field| manifest[field].get(&package).is_some());
            }
        }
        declared.then(|| format!("`{package}` is declared but not installed"))
    }
    fn checks(&self, path: &Path) -> bool {
        has_extension(path, EXTENSIONS)
    }
    fn reach(&self) -> Reach {
        Reach::Project
    }
    fn args(&self, _root: &Path, targets: &Targets<'_>) -> Vec<std::ffi::OsString> {
        let mut args: Vec<std::ffi::OsString> = ["--noEmit", "--pretty", "false"].iter().map(Into::into).collect();
        if let Targets::Config(config) = targets {
            args.push("-p".into());
            args.push(super::path_arg(config));
        }
        args
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

/// One project a `tsconfig` defines: which files it takes, as patterns
/// relative to the repository (`extends` followed for what the config
/// does not set itself).
#[derive(Debug)]
struct Project {
    /// The config file, repo-relative.
    config: PathBuf,
    files: Vec<PathBuf>,
    include: Vec<globset::GlobMatcher>,
    exclude: Vec<globset::GlobMatcher>,
}

impl Project {
    /// Does the project take `file` (repo-relative): listed in `files`, or
    /// matched by `include` and not by `exclude`?
    fn covers(&self, file: &Path) -> bool {
        self.files.iter().any(|f| f == file)
            || (self.include.iter().any(|g| g.is_match(file)) && !self.exclude.iter().any(|g| g.is_match(file)))
    }

    /// The project of the config at `config` (repo-relative).
    fn load(homes: &Homes<'_>, config: &Path) -> Option<Project> {
        let (mut files, mut include, mut exclude) = (None, None, None);
        let mut at = config.to_path_buf();
        // `extends` by relative path, a few levels at most (a loop ends there).
        for _ in 0..5 {
            let dir = at.parent().unwrap_or(Path::new("")).to_path_buf();
            let name = at.file_name()?.to_str()?.to_string();
            let text = homes.text(&dir, &name)?;
            let json: serde_json::Value = serde_json::from_str(&crate::formats::jsonc(&text)).ok()?;
            let list = |key: &str| -> Option<Vec<PathBuf>> {
                let items = json.get(key)?.as_array()?;
                Some(
                    items
                        .iter()
                        .filter_map(|v| v.as_str())
                        .map(|p| crate::gates::project::resolve::normalize(&dir.join(p.trim_start_matches("./"))))
                        .collect(),
                )
            };
            files = files.or_else(|| list("files"));
            include = include.or_else(|| list("include"));
            exclude = exclude.or_else(|| list("exclude"));
            match json.get("extends").and_then(|e| e.as_str()) {
                Some(parent) if parent.starts_with('.') => {
                    let parent = crate::gates::project::resolve::normalize(&dir.join(parent));
                    at = if parent.extension().is_some() {
                        parent
                    } else {
                        parent.with_extension("json")
                    };
                }
                _ => break,
            }
        }
        let here = config.parent().unwrap_or(Path::new("")).to_path_buf();
        // No `files` and no `include`: everything under the config.
        let include = match (&files, include) {
            (None, None) => vec![here.join("**/*")],
            (_, include) => include.unwrap_or_default(),
        };
        let exclude = exclude.unwrap_or_else(|| vec![here.join("node_modules")]);
        Some(Project {
            config: config.to_path_buf(),
            files: files.unwrap_or_default(),
            include: include.iter().filter_map(|p| matcher(p)).collect(),
            exclude: exclude.iter().filter_map(|p| matcher(p)).collect(),
        })
    }
}

/// A tsconfig pattern as a matcher: `*` within a directory, `**/` across
/// them; a pattern naming a directory (no wildcard, no extension) takes
/// everything under it.
fn matcher(pattern: &Path) -> Option<globset::GlobMatcher> {
    let text = crate::git::display_path(pattern);
    let text = if text.contains('*') || pattern.extension().is_some() {
        text
    } else {
        format!("{}/**", text.trim_end_matches('/'))
    };
    globset::GlobBuilder::new(&text)
        .literal_separator(true)
        .build()
        .ok()
        .map(|g| g.compile_matcher())
}

/// When the `tsconfig.json` in `dir` is a solution (it lists no files of
/// its own and references other configs), the referenced projects.
fn solution(homes: &Homes<'_>, dir: &Path) -> Option<Vec<Project>> {
    let text = homes.text(dir, "tsconfig.json")?;
    let json: serde_json::Value = serde_json::from_str(&crate::formats::jsonc(&text)).ok()?;
    let no_files = json.get("files").and_then(|f| f.as_array()).is_some_and(Vec::is_empty)
        && json
            .get("include")
            .is_none_or(|i| i.as_array().is_some_and(Vec::is_empty));
    let references = json.get("references")?.as_array()?;
    if !no_files || references.is_empty() {
        return None;
    }
    Some(
        references
            .iter()
            .filter_map(|r| r.get("path")?.as_str())
            .filter_map(|p| {
                let path = crate::gates::project::resolve::normalize(&dir.join(p.trim_start_matches("./")));
                let config = if path.extension().is_some_and(|e| e == "json") {
                    path
                } else {
                    path.join("tsconfig.json")
                };
                Project::load(homes, &config)
            })
            .collect(),
    )
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
            overflow: None,
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
