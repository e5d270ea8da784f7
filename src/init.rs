//! `loki-gate init`: what the repository is made of, and the config values
//! that fit it (the rest of the file is every key's default).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use crate::config::Override;
use crate::gates::evidence::settings::detect_test_command;
use crate::gates::static_analysis::tools;
use crate::lang::Lang;

/// More files than this are not listed: the stack is clear long before.
const MAX_FILES: usize = 200_000;

/// What `init` found.
#[derive(Debug, Default)]
pub struct Stack {
    /// Language families the test gates read (`python`, `rust`, ...).
    pub languages: BTreeSet<&'static str>,
    /// The linters `tools: [auto]` picks here, and whether each is installed.
    pub tools: Vec<(&'static str, bool)>,
    pub test_command: Option<String>,
}

/// Look at the files under `root` (what git would not ignore).
pub fn detect(root: &Path) -> Stack {
    let files: Vec<PathBuf> = ignore::WalkBuilder::new(root)
        .hidden(false)
        .filter_entry(|e| e.file_name() != ".git")
        .build()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_some_and(|t| t.is_file()))
        .filter_map(|e| e.path().strip_prefix(root).ok().map(Path::to_path_buf))
        .take(MAX_FILES)
        .collect();
    // A tool `auto` would pick for some file here ([`tools::Tool::home`]).
    let homes = tools::Homes::new(root);
    Stack {
        languages: files
            .iter()
            .filter_map(|f| Lang::from_path(f))
            .map(Lang::family)
            .collect(),
        tools: tools::ALL
            .iter()
            .copied()
            .filter(|tool| files.iter().any(|f| tool.checks(f) && tool.home(&homes, f).is_some()))
            .map(|tool| {
                (
                    tool.name(),
                    tools::locate(tool, root, Path::new(""), &|_| false, false).is_some(),
                )
            })
            .collect(),
        test_command: detect_test_command(root),
    }
}

impl Stack {
    /// The values that differ from the defaults here, each with its reason.
    pub fn overrides(&self) -> Vec<Override> {
        let set = |section, key, value: &str, why: String| Override {
            section,
            key,
            value: value.to_string(),
            why,
        };
        let mut out = Vec::new();
        if self.tools.is_empty() {
            out.push(set(
                "static",
                "enabled",
                "false",
                "off: none of the linters loki-gate runs fits the files here (add a tool under `custom`, then turn it on)"
                    .into(),
            ));
        } else {
            out.push(set(
                "static",
                "tools",
                "[auto]",
                format!("auto picks here: {}", self.tools_found()),
            ));
        }
        match &self.test_command {
            Some(command) => out.push(set(
                "evidence",
                "test-command",
                &serde_json::to_string(command).expect("a string serializes"),
                "found from the files at the repository root".into(),
            )),
            None => out.push(set(
                "evidence",
                "enabled",
                "false",
                "off: no test command found (Cargo.toml, go.mod, a package.json test script, pytest config); \
                 set test-command, then turn it on"
                    .into(),
            )),
        }
        if self.languages.is_empty() {
            for gate in ["mock", "mutation"] {
                out.push(set(
                    gate,
                    "enabled",
                    "false",
                    "off: no Python, JavaScript, TypeScript, Rust or Go files here".into(),
                ));
            }
        } else {
            out.push(set(
                "mock",
                "languages",
                "[auto]",
                format!("auto reads here: {}", self.languages_found()),
            ));
        }
        out
    }

    fn languages_found(&self) -> String {
        self.languages.iter().copied().collect::<Vec<_>>().join(", ")
    }

    fn tools_found(&self) -> String {
        let (installed, missing): (Vec<_>, Vec<_>) = self.tools.iter().partition(|(_, ok)| *ok);
        let mut text = installed.iter().map(|(name, _)| *name).collect::<Vec<_>>().join(", ");
        if !missing.is_empty() {
            if !text.is_empty() {
                text.push_str("; ");
            }
            text.push_str("not installed: ");
            text.push_str(&missing.iter().map(|(name, _)| *name).collect::<Vec<_>>().join(", "));
        }
        text
    }

    /// One line for the terminal.
    pub fn summary(&self) -> String {
        let languages = if self.languages.is_empty() {
            "no language the test gates read".to_string()
        } else {
            self.languages_found()
        };
        let linters = if self.tools.is_empty() {
            "none".to_string()
        } else {
            self.tools_found()
        };
        let tests = self
            .test_command
            .as_ref()
            .map_or_else(|| "none found (evidence off)".to_string(), |c| format!("`{c}`"));
        format!("found {languages}; linters: {linters}; tests: {tests}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stack(languages: &[&'static str], tools: &[(&'static str, bool)], test: Option<&str>) -> Stack {
        Stack {
            languages: languages.iter().copied().collect(),
            tools: tools.to_vec(),
            test_command: test.map(str::to_string),
        }
    }

    fn value<'a>(overrides: &'a [Override], section: &str, key: &str) -> Option<&'a str> {
        overrides
            .iter()
            .find(|o| o.section == section && o.key == key)
            .map(|o| o.value.as_str())
    }

    #[test]
    fn a_stack_with_tests_and_linters_keeps_every_gate_on_and_names_the_test_command() {
        let o = stack(
            &["python"],
            &[("ruff", true), ("mypy", false)],
            Some("python -m pytest"),
        )
        .overrides();
        assert_eq!(value(&o, "evidence", "test-command"), Some("\"python -m pytest\""));
        assert!(o.iter().all(|o| o.key != "enabled"), "{o:?}");
        let tools = o.iter().find(|o| o.key == "tools").unwrap();
        assert_eq!(tools.why, "auto picks here: ruff; not installed: mypy");
    }

    #[test]
    fn gates_with_nothing_to_read_here_are_turned_off() {
        let o = stack(&[], &[], None).overrides();
        for gate in ["static", "evidence", "mock", "mutation"] {
            assert_eq!(value(&o, gate, "enabled"), Some("false"), "{gate}");
        }
        assert_eq!(value(&o, "docs", "enabled"), None);
    }

    #[test]
    fn the_written_file_is_valid_config_with_the_overrides_applied() {
        let o = stack(&[], &[], None).overrides();
        let text = crate::config::template_with(&o, crate::gates::catalog());
        let node = crate::config::yaml::parse(&text).unwrap();
        let config = crate::config::validate::validate(&node, &|_| None, crate::gates::catalog()).unwrap();
        assert!(!config.section("evidence").bool("enabled"));
        assert!(config.section("docs").bool("enabled"));
        let with_command = stack(&["rust"], &[("clippy", true)], Some("cargo test --workspace")).overrides();
        let node =
            crate::config::yaml::parse(&crate::config::template_with(&with_command, crate::gates::catalog())).unwrap();
        let config = crate::config::validate::validate(&node, &|_| None, crate::gates::catalog()).unwrap();
        assert_eq!(
            config.section("evidence").opt_str("test-command").as_deref(),
            Some("cargo test --workspace")
        );
    }
}
