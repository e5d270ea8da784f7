//! The static gate's knobs.

use std::time::Duration;

use anyhow::{Result, bail};

use super::tools::custom::{self, Custom};
use super::tools::{self, Filter};
use crate::config::Section;
use crate::config::schema::{ENABLED, KeySpec, Kind, PRE_EXISTING, SectionSpec, parse_duration};
use crate::finding::Severity;

/// Every `filter` mode.
pub const FILTERS: &[&str] = &["added", "diff-context", "file", "nofilter"];

/// Every `scope`.
pub const SCOPES: &[&str] = &["changed", "project"];

/// The git hooks `project-tools-in` may name.
pub const HOOKS: &[&str] = &["pre-commit", "pre-push"];

/// Every `fail-on` level.
pub const FAIL_ON: &[&str] = &["error", "warning", "note"];

/// Every name `tools:` accepts.
pub const TOOL_NAMES: &[&str] = &[
    "auto",
    "ruff",
    "mypy",
    "eslint",
    "tsc",
    "clippy",
    "golangci-lint",
    "shellcheck",
];

pub const SECTION: SectionSpec = SectionSpec {
    gate: "static",
    doc: "static: the project's own linters and type checkers, on the lines the change touched",
    keys: &[
        ENABLED,
        KeySpec {
            name: "tools",
            kind: Kind::Choices(TOOL_NAMES),
            default: "[auto]",
            doc: "tools to run; auto = each one the repository's files call for (a missing one is a note), a named one must be installed",
        },
        KeySpec {
            name: "filter",
            kind: Kind::Choice(FILTERS),
            default: "added",
            doc: "which findings count: on added or modified lines, within the diff hunks, anywhere in a changed file, anywhere",
        },
        KeySpec {
            name: "fail-on",
            kind: Kind::Choice(FAIL_ON),
            default: "error",
            doc: "the least severe tool level that blocks (findings below it are reported, not blocking)",
        },
        KeySpec {
            name: "timeout",
            kind: Kind::Duration,
            default: "5m",
            doc: "time limit for each tool",
        },
        KeySpec {
            name: "custom",
            kind: Kind::Records(custom::FIELDS),
            default: "[]",
            doc: "more tools: each a name and a command (SARIF output, or text read with errorformat patterns) or a SARIF file; they always run",
        },
        PRE_EXISTING,
        KeySpec {
            name: "new-only",
            kind: Kind::Bool,
            default: "false",
            doc: "report only findings the base revision does not have (the tools also run on the base, in a temporary git worktree)",
        },
        KeySpec {
            name: "scope",
            kind: Kind::Choice(SCOPES),
            default: "changed",
            doc: "what tools that can check a whole project look at: the changed files, or the project (with new-only: every new finding, wherever it sits)",
        },
        KeySpec {
            name: "project-tools-in",
            kind: Kind::Choices(HOOKS),
            default: "[pre-push]",
            doc: "the git hooks that run tools which only check a whole project (tsc, cargo clippy, golangci-lint, a custom command without {files}); a pre-commit hook that leaves them out stays fast, and CI and direct runs always run them",
        },
    ],
};

/// What the command line sets over the config (`loki-gate static --tool ...`).
#[derive(Debug, Default, Clone)]
pub struct Overrides {
    /// The git hook this run is for, when a hook runs it.
    pub hook: Option<&'static str>,
    /// After an agent's edit: only the tools that judge files alone run.
    pub quick: bool,
    pub tool: Vec<String>,
    pub filter: Option<String>,
    pub fail_on: Option<String>,
    pub timeout: Option<String>,
    pub new_only: bool,
    pub scope: Option<String>,
}

pub struct Settings {
    /// Tools named explicitly; a missing one cannot be run (exit 2).
    pub named: Vec<&'static str>,
    /// The tools of `gates.static.custom` that run.
    pub custom: Vec<Custom>,
    /// `auto` was among `tools`.
    pub auto: bool,
    pub filter: Filter,
    pub fail_on: Severity,
    pub timeout: Duration,
    /// Report only findings the base revision does not have.
    pub new_only: bool,
    /// What a blocking finding the base revision's run also raises may be
    /// (`pre-existing`): at most a warning, or its level.
    pub pre_existing: Option<Severity>,
    /// Run tools that can on their whole project.
    pub project: bool,
    /// The hook this run is for when it leaves out the tools that only
    /// check a whole project (`project-tools-in` does not name it).
    pub without_project_tools: Option<&'static str>,
    /// Rule families (`static/ruff`, `static/sarif:<custom tool>`) whose
    /// findings are all `allow`: their tools are not run. Set by the
    /// caller, from the levels.
    pub silenced: Vec<String>,
    /// A tool's executable comes from `PATH` only, never from the
    /// workspace (in CI). Set by the caller.
    pub path_only: bool,
}

impl Settings {
    /// The command line over the config (which already holds env over file).
    pub fn resolve(section: &Section, args: &Overrides) -> Result<Settings> {
        let mut custom = Vec::new();
        for (i, record) in section.records("custom").iter().enumerate() {
            let taken: Vec<&str> = TOOL_NAMES
                .iter()
                .copied()
                .chain(custom.iter().map(|c: &Custom| tools::Tool::name(c)))
                .collect();
            custom.push(Custom::from_record(record, i, &taken)?);
        }
        // --tool picks among built-in and custom tools; `tools:` among the
        // built-in ones, and custom tools always run.
        let names = if args.tool.is_empty() {
            section.list("tools")
        } else {
            let wanted = &args.tool;
            custom.retain(|c| wanted.iter().any(|w| w == tools::Tool::name(c)));
            wanted
                .iter()
                .filter(|w| !custom.iter().any(|c| tools::Tool::name(c) == w.as_str()))
                .cloned()
                .collect()
        };
        let mut named = Vec::new();
        let mut auto = false;
        for name in &names {
            if name == "auto" {
                auto = true;
            } else if let Some(tool) = tools::by_name(name) {
                named.push(tool.name());
            } else {
                bail!(
                    "unknown tool `{name}`: expected one of {}, or a name from gates.static.custom",
                    TOOL_NAMES.join(", ")
                );
            }
        }
        let new_only = args.new_only || section.bool("new-only");
        let scope = args.scope.clone().unwrap_or_else(|| section.str("scope"));
        let project = match scope.as_str() {
            "changed" => false,
            "project" => true,
            other => bail!("unknown scope `{other}`: expected changed or project"),
        };
        // "Only what is new" replaces the line filter unless one is asked for:
        // every new finding in a changed file, or anywhere with the project scope.
        let filter = match (&args.filter, section.origin("filter")) {
            (Some(filter), _) => filter.clone(),
            (None, None) if new_only && project => "nofilter".to_string(),
            (None, None) if new_only => "file".to_string(),
            (None, _) => section.str("filter"),
        };
        let fail_on = args.fail_on.clone().unwrap_or_else(|| section.str("fail-on"));
        let timeout = match &args.timeout {
            Some(text) => parse_duration(text)
                .ok_or_else(|| anyhow::anyhow!("--timeout `{text}` is not a duration such as 90s, 10m or 1h"))?,
            None => section.duration("timeout"),
        };
        Ok(Settings {
            named,
            custom,
            auto,
            filter: match filter.as_str() {
                "added" => Filter::Added,
                "diff-context" => Filter::DiffContext,
                "file" => Filter::File,
                "nofilter" => Filter::NoFilter,
                other => bail!("unknown filter `{other}`: expected added, diff-context, file or nofilter"),
            },
            fail_on: match fail_on.as_str() {
                "error" => Severity::Error,
                "warning" => Severity::Warning,
                "note" => Severity::Note,
                other => bail!("unknown fail-on level `{other}`: expected error, warning or note"),
            },
            timeout,
            new_only,
            pre_existing: crate::gates::at_base::ceiling(section),
            project,
            without_project_tools: if args.quick {
                Some("agent's after-edit")
            } else {
                args.hook
                    .filter(|hook| !section.list("project-tools-in").iter().any(|h| h == hook))
            },
            silenced: Vec::new(),
            path_only: false,
        })
    }
}
