//! The evidence gate's knobs: config schema and the resolved settings.

use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{Result, anyhow};

use crate::config::Section;
use crate::config::schema::{ENABLED, KeySpec, Kind, SectionSpec, parse_duration};

pub const SECTION: SectionSpec = SectionSpec {
    gate: "evidence",
    doc: "evidence: no \"done\" without a non-empty diff since `evidence start` AND green tests",
    keys: &[
        ENABLED,
        KeySpec {
            name: "test-command",
            kind: Kind::OptStr,
            default: "null",
            doc: "shell command that runs the tests; null = detect (cargo test, pytest, npm/pnpm/yarn/bun test by lockfile, go test ./...)",
        },
        KeySpec {
            name: "results",
            kind: Kind::OptStr,
            default: "null",
            doc: "read this test report instead of running tests (JUnit XML, pytest JSON, go test -json, cargo output)",
        },
        KeySpec {
            name: "timeout",
            kind: Kind::Duration,
            default: "10m",
            doc: "time limit for the test command",
        },
        KeySpec {
            name: "coverage",
            kind: Kind::List,
            default: "[]",
            doc: "coverage reports the test run writes (LCOV, Cobertura XML, coverage.py JSON, Go cover profile): uncovered changed lines are reported",
        },
        KeySpec {
            name: "min-changed-coverage",
            kind: Kind::Number,
            default: "0",
            doc: "block when the tests run less than this percent of the executable changed lines; 0 = no threshold",
        },
        KeySpec {
            name: "require-anchor",
            kind: Kind::Bool,
            default: "false",
            doc: "block (instead of passing with a disclosure) when `evidence start` was never run",
        },
    ],
};

/// Where the green-tests evidence comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TestSource {
    Command(String),
    Results(PathBuf),
}

/// What the command line sets over the config (`loki-gate evidence --test-command ...`).
#[derive(Debug, Default, Clone)]
pub struct Overrides {
    pub test_command: Option<String>,
    pub results: Option<PathBuf>,
    pub require_anchor: bool,
    pub timeout: Option<String>,
    pub coverage: Vec<PathBuf>,
    pub min_changed_coverage: Option<f64>,
}

#[derive(Debug, Clone)]
pub struct Settings {
    pub tests: TestSource,
    pub timeout: Duration,
    pub require_anchor: bool,
    /// Coverage reports to read after a green run, absolute.
    pub coverage: Vec<PathBuf>,
    /// Percent of executable changed lines the tests must run.
    pub min_changed_coverage: Option<f64>,
}

impl Settings {
    /// Command line over config (which already holds env over file), over detection.
    pub fn resolve(section: &Section, args: &Overrides, root: &Path, cwd: &Path) -> Result<Settings> {
        let timeout = match &args.timeout {
            Some(t) => parse_duration(t)
                .ok_or_else(|| anyhow!("--timeout `{t}` is not a duration: write e.g. 90s, 10m or 1h"))?,
            None => section.duration("timeout"),
        };
        let tests = test_source(section, args, root, cwd).ok_or_else(|| {
            anyhow!(
                "no test command: set gates.evidence.test-command in .loki-gate.yaml, pass --test-command CMD, or pass --results FILE"
            )
        })?;
        let coverage: Vec<PathBuf> = if args.coverage.is_empty() {
            section.list("coverage").iter().map(|p| root.join(p)).collect()
        } else {
            args.coverage.iter().map(|p| cwd.join(p)).collect()
        };
        let min = args
            .min_changed_coverage
            .unwrap_or_else(|| section.number("min-changed-coverage"));
        if !(0.0..=100.0).contains(&min) {
            return Err(anyhow!(
                "min-changed-coverage {min} is not a percentage: give a number from 0 to 100 (0 = no threshold)"
            ));
        }
        if min > 0.0 && coverage.is_empty() {
            return Err(anyhow!(
                "min-changed-coverage is set but no coverage report is: add gates.evidence.coverage or pass --coverage FILE"
            ));
        }
        Ok(Settings {
            tests,
            timeout,
            require_anchor: args.require_anchor || section.bool("require-anchor"),
            coverage,
            min_changed_coverage: (min > 0.0).then_some(min),
        })
    }
}

/// Where the test results come from: the command line over config (which
/// already holds env over file), over detection; `None` when nothing says.
pub fn test_source(section: &Section, args: &Overrides, root: &Path, cwd: &Path) -> Option<TestSource> {
    if let Some(results) = &args.results {
        Some(TestSource::Results(cwd.join(results)))
    } else if let Some(cmd) = &args.test_command {
        Some(TestSource::Command(cmd.clone()))
    } else if let Some(results) = section.opt_str("results") {
        Some(TestSource::Results(root.join(results)))
    } else if let Some(cmd) = section.opt_str("test-command") {
        Some(TestSource::Command(cmd))
    } else {
        detect_test_command(root).map(TestSource::Command)
    }
}

/// Guess the test command from the files at the repository root.
pub fn detect_test_command(root: &Path) -> Option<String> {
    let has = |name: &str| root.join(name).is_file();
    if has("Cargo.toml") {
        return Some("cargo test".into());
    }
    if has("go.mod") {
        return Some("go test ./...".into());
    }
    if has("package.json")
        && let Ok(text) = std::fs::read_to_string(root.join("package.json"))
        && let Ok(json) = serde_json::from_str::<serde_json::Value>(&text)
        && let Some(test) = json["scripts"]["test"].as_str()
        && !test.contains("no test specified")
    {
        // The package manager whose lockfile is there runs the script (a
        // `pnpm-lock.yaml` project under npm would install nothing it needs).
        let manager = [
            ("pnpm-lock.yaml", "pnpm"),
            ("yarn.lock", "yarn"),
            ("bun.lockb", "bun"),
            ("bun.lock", "bun"),
        ]
        .iter()
        .find(|(lock, _)| has(lock))
        .map_or("npm", |(_, manager)| manager);
        return Some(format!("{manager} test"));
    }
    if [
        "pytest.ini",
        "pyproject.toml",
        "setup.cfg",
        "tox.ini",
        "setup.py",
        "conftest.py",
    ]
    .iter()
    .any(|n| has(n))
    {
        return Some("python -m pytest".into());
    }
    None
}
