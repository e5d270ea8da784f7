//! How Go's tools read a package's docs: a method that implements an
//! interface the package documents shows the interface's contract; and
//! whether a Go project holds its doc comments to Go's convention, a
//! comment that starts with the name it documents. `go doc` shows any
//! comment directly above a symbol as its doc; the convention is checked
//! only by linters a project turns on: staticcheck's ST1020-ST1022 and
//! revive's `exported` rule, directly or through golangci-lint. A comment
//! that is prose (`// check the Origin of a request`) is then a finding
//! that blocks like a missing doc; in a project that does not turn them
//! on, it is a warning. The config is read from the base revision, like
//! everything that decides a verdict: a change cannot turn the check off
//! for itself.

use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};

use serde_json::Value;

use super::exports::{self, Export, Misnamed};
use crate::changed::ChangedFile;
use crate::git::{Repo, display_path};

/// The files that configure the linters, in each folder from the changed
/// file's up to the repository's root, where golangci-lint looks for its
/// own: the nearest folder that has one decides.
const CONFIGS: &[&str] = &[
    ".golangci.yml",
    ".golangci.yaml",
    ".golangci.toml",
    ".golangci.json",
    "staticcheck.conf",
    "revive.toml",
    ".revive.toml",
];

/// The staticcheck checks of the convention: functions, types, and
/// consts and vars.
const CONVENTION_CHECKS: &[&str] = &["ST1020", "ST1021", "ST1022"];

/// A file's symbols whose comment is prose.
pub(super) struct Prose {
    pub gaps: Vec<Export>,
    /// The config that turns the convention on for the file.
    pub config: Option<String>,
}

impl Prose {
    /// Why the findings block, or why they are a warning.
    pub(super) fn note(&self) -> String {
        match &self.config {
            Some(config) => format!("{config} turns on a linter that checks this convention"),
            None => "a warning: `go doc` shows the comment as the doc, and no linter config of the project (golangci-lint, staticcheck, revive) turns the convention on".to_string(),
        }
    }
}

pub(super) struct GoConvention<'r> {
    repo: &'r Repo,
    root: &'r Path,
    base: Option<&'r str>,
    /// By folder: the config that turns the convention on there.
    by_dir: HashMap<PathBuf, Option<String>>,
}

impl<'r> GoConvention<'r> {
    pub(super) fn new(repo: &'r Repo, root: &'r Path, base: Option<&'r str>) -> Self {
        GoConvention {
            repo,
            root,
            base,
            by_dir: HashMap::new(),
        }
    }

    /// Takes out of a Go file's gaps the symbols whose comment is prose,
    /// with the config that holds the file to the convention, if one does.
    /// A comment that starts with another name stays a gap: it documents
    /// something else.
    pub(super) fn prose(&mut self, file: &Path, gaps: &mut Vec<Export>) -> Option<Prose> {
        if !gaps.iter().any(|s| s.misnamed == Some(Misnamed::Prose)) {
            return None;
        }
        let (prose, rest): (Vec<Export>, Vec<Export>) =
            gaps.drain(..).partition(|s| s.misnamed == Some(Misnamed::Prose));
        *gaps = rest;
        Some(Prose {
            gaps: prose,
            config: self.config(file.parent().unwrap_or(Path::new(""))),
        })
    }

    /// The config nearest above `dir` that turns the convention on, by path.
    fn config(&mut self, dir: &Path) -> Option<String> {
        if let Some(known) = self.by_dir.get(dir) {
            return known.clone();
        }
        let found = match CONFIGS.iter().map(|name| dir.join(name)).find_map(|path| {
            let text = self.read(&path)?;
            Some((path, text))
        }) {
            Some((path, text)) => enforces(&path, &text).then(|| display_path(&path)),
            None => match dir.parent() {
                Some(parent) => self.config(parent),
                None => None,
            },
        };
        self.by_dir.insert(dir.to_path_buf(), found.clone());
        found
    }

    fn read(&self, path: &Path) -> Option<String> {
        let bytes = match self.base {
            Some(base) => self.repo.blob_at(base, path).ok().flatten()?,
            None => crate::walk::read_file(self.root, path).ok()?,
        };
        String::from_utf8(bytes).ok()
    }
}

/// Drops from a Go file's gaps the methods that implement an interface
/// its package declares and documents (`Read reads ...` in `type Source
/// interface`): `go doc` shows the interface's contract for them. The
/// package is the file's directory; its interfaces are read once a run.
pub(super) fn implemented(
    root: &Path,
    file: &ChangedFile,
    interfaces: &mut HashMap<PathBuf, BTreeSet<String>>,
    gaps: &mut Vec<exports::Export>,
) {
    if !gaps.iter().any(|s| s.kind == "method") {
        return;
    }
    let dir = file.path.parent().unwrap_or(Path::new("")).to_path_buf();
    let documented = interfaces.entry(dir.clone()).or_insert_with(|| {
        let mut names = BTreeSet::new();
        let Ok(entries) = std::fs::read_dir(root.join(&dir)) else {
            return names;
        };
        let mut paths: Vec<PathBuf> = entries
            .filter_map(|e| e.ok())
            .map(|e| dir.join(e.file_name()))
            .filter(|p| {
                let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
                name.ends_with(".go") && !name.ends_with("_test.go")
            })
            .collect();
        paths.sort();
        for path in paths {
            if let Ok(source) = crate::walk::read_file(root, &path) {
                names.extend(
                    exports::go_interface_methods(&source)
                        .into_iter()
                        .filter(|(_, documented)| *documented)
                        .map(|(name, _)| name),
                );
            }
        }
        names
    });
    gaps.retain(|s| s.kind != "method" || !documented.contains(&s.name));
}

/// Does the config at `path` (its text) turn the convention on? A config
/// that cannot be read turns nothing on: the linter itself would stop.
fn enforces(path: &Path, text: &str) -> bool {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    let parsed = if name.ends_with(".yml") || name.ends_with(".yaml") {
        crate::config::yaml::parse(text).ok().map(|node| json(&node))
    } else if name.ends_with(".json") {
        serde_json::from_str(text).ok()
    } else {
        toml::from_str::<Value>(text).ok()
    };
    let Some(config) = parsed else {
        return false;
    };
    match name {
        "staticcheck.conf" => checks(&config["checks"]),
        "revive.toml" | ".revive.toml" => revive(&config, "rule"),
        _ => golangci(&config),
    }
}

/// golangci-lint, version 1 or 2: a linter that checks the convention is
/// on, and the messages are not excluded (version 1 excludes them unless
/// `issues.exclude-use-default: false`; version 2 when its exclusion
/// presets include `comments`).
fn golangci(config: &Value) -> bool {
    let v2 = config["version"].as_str() == Some("2") || config["version"].as_i64() == Some(2);
    let linters = &config["linters"];
    let enable = strings(&linters["enable"]);
    let disable = strings(&linters["disable"]);
    let default = linters["default"].as_str().unwrap_or("standard");
    let all = linters["enable-all"].as_bool() == Some(true) || default == "all";
    let on = |linter: &str| !disable.contains(&linter) && (all || enable.contains(&linter));
    let shown = if v2 {
        !strings(&linters["exclusions"]["presets"]).contains(&"comments")
    } else {
        config["issues"]["exclude-use-default"].as_bool() == Some(false)
    };
    let settings = if v2 {
        &linters["settings"]
    } else {
        &config["linters-settings"]
    };
    // Version 2 folded stylecheck into staticcheck, which its `standard`
    // set runs.
    let staticcheck = if v2 {
        !disable.contains(&"staticcheck") && (default == "standard" || on("staticcheck"))
    } else {
        on("stylecheck")
    };
    let style = if v2 { "staticcheck" } else { "stylecheck" };
    shown
        && ((on("revive") && revive(&settings["revive"], "rules"))
            || (!v2 && on("golint"))
            || (staticcheck && checks(&settings[style]["checks"])))
}

/// revive's `exported` rule is among its rules: its defaults when the
/// config names none (golangci-lint's `rules` list, revive's own
/// `[rule.NAME]` tables).
fn revive(settings: &Value, rules: &str) -> bool {
    if settings["enable-all-rules"].as_bool() == Some(true) || settings["enableAllRules"].as_bool() == Some(true) {
        return true;
    }
    match &settings[rules] {
        Value::Array(list) => list
            .iter()
            .any(|r| r["name"].as_str() == Some("exported") && r["disabled"].as_bool() != Some(true)),
        Value::Object(table) => table
            .get("exported")
            .is_some_and(|r| r["Disabled"].as_bool() != Some(true) && r["disabled"].as_bool() != Some(true)),
        _ => true,
    }
}

/// Does a staticcheck `checks` list turn one of [`CONVENTION_CHECKS`] on?
/// The last entry that matches a check decides (`"all"`, `"ST*"`,
/// `"-ST1020"`); staticcheck's defaults leave them off.
fn checks(list: &Value) -> bool {
    let entries = strings(list);
    CONVENTION_CHECKS.iter().any(|check| {
        entries
            .iter()
            .rev()
            .find_map(|entry| {
                let (on, pattern) = match entry.strip_prefix('-') {
                    Some(rest) => (false, rest),
                    None => (true, *entry),
                };
                let matches = match pattern {
                    "all" | "*" => true,
                    _ => match pattern.strip_suffix('*') {
                        Some(prefix) => check.starts_with(prefix),
                        None => pattern == *check,
                    },
                };
                matches.then_some(on)
            })
            .unwrap_or(false)
    })
}

fn strings(list: &Value) -> Vec<&str> {
    list.as_array()
        .map(|items| items.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default()
}

fn json(node: &crate::config::yaml::Node) -> Value {
    use crate::config::yaml::Value as Yaml;
    match &node.value {
        Yaml::Null => Value::Null,
        Yaml::Bool(b) => Value::Bool(*b),
        Yaml::Int(i) => Value::from(*i),
        Yaml::Float(f) => Value::from(*f),
        Yaml::Str(s) => Value::String(s.clone()),
        Yaml::Seq(items) => Value::Array(items.iter().map(json).collect()),
        Yaml::Map(pairs) => Value::Object(pairs.iter().map(|(k, v)| (k.name.clone(), json(v))).collect()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn on(name: &str, text: &str) -> bool {
        enforces(Path::new(name), text)
    }

    #[test]
    fn linter_configs_that_check_the_doc_comment_convention() {
        // golangci-lint 2 runs revive's defaults, `exported` among them.
        assert!(on(
            ".golangci.yaml",
            "version: \"2\"\nlinters:\n  enable:\n    - revive\n"
        ));
        assert!(!on(
            ".golangci.yaml",
            "version: \"2\"\nlinters:\n  enable: [revive]\n  exclusions:\n    presets: [comments]\n"
        ));
        assert!(!on(
            ".golangci.yml",
            "version: \"2\"\nlinters:\n  enable: [revive]\n  settings:\n    revive:\n      rules:\n        - name: var-naming\n"
        ));
        // Its `standard` set runs staticcheck, whose defaults leave ST1020-ST1022 off.
        assert!(!on(".golangci.yml", "version: \"2\"\nlinters:\n  enable: [errcheck]\n"));
        assert!(on(
            ".golangci.yml",
            "version: \"2\"\nlinters:\n  settings:\n    staticcheck:\n      checks: [\"all\", \"-ST1003\"]\n"
        ));
        assert!(!on(
            ".golangci.yml",
            "version: \"2\"\nlinters:\n  settings:\n    staticcheck:\n      checks: [\"all\", \"-ST1020\", \"-ST1021\", \"-ST1022\"]\n"
        ));
        // Version 1 hides the messages unless told not to.
        assert!(!on(".golangci.yml", "linters:\n  enable: [revive, golint]\n"));
        assert!(on(
            ".golangci.yml",
            "linters:\n  enable: [golint]\nissues:\n  exclude-use-default: false\n"
        ));
        assert!(on(
            ".golangci.toml",
            "[linters]\nenable-all = true\n[issues]\nexclude-use-default = false\n"
        ));
        assert!(!on(
            ".golangci.json",
            r#"{"linters": {"enable-all": true, "disable": ["revive", "golint", "stylecheck"]}, "issues": {"exclude-use-default": false}}"#
        ));
        assert!(on("staticcheck.conf", "checks = [\"all\", \"-ST1000\", \"-ST1003\"]\n"));
        assert!(on("staticcheck.conf", "checks = [\"ST1*\"]\n"));
        assert!(!on("staticcheck.conf", "checks = [\"inherit\", \"-ST1005\"]\n"));
        assert!(on("revive.toml", "[rule.exported]\n"));
        assert!(!on("revive.toml", "[rule.exported]\nDisabled = true\n"));
        // A config that cannot be read turns nothing on.
        assert!(!on(".golangci.yml", "linters: [unclosed\n"));
    }
}
