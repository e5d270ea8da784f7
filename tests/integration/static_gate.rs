//! The static gate, end to end through the binary, with the real tools
//! (`.ci/run` installs ruff, mypy and shellcheck) and with fake ones the
//! tests write into the repository's `.venv/bin`, where the gate looks first.

use loki_gate::report::Outcome;
use loki_gate::report::json::GateJson;

use crate::support::TestRepo;

pub(crate) fn json(run: &crate::support::Run) -> GateJson {
    serde_json::from_str(&run.stdout).unwrap_or_else(|e| panic!("{e}: {}{}", run.stdout, run.stderr))
}

/// `(rule, line)` of every finding.
pub(crate) fn found(report: &GateJson) -> Vec<(String, u32)> {
    report
        .findings
        .iter()
        .map(|f| (f.rule.clone(), f.line.unwrap_or(0)))
        .collect()
}

/// A base commit with findings of its own, then a change that adds one
/// finding on a new line, keeps the old ones (one moved down by the new
/// lines) and fixes nothing.
fn python_change() -> TestRepo {
    let repo = TestRepo::new();
    repo.write(".gitignore", ".venv/\n.ruff_cache/\n.mypy_cache/\n");
    repo.write("ruff.toml", "# the project's ruff config: its defaults\n");
    repo.write(
        "app.py",
        "import os\n\n\ndef total(items):\n    return sum(items)\n\n\ndef unused():\n    x = 1\n    return 2\n",
    );
    repo.commit("base");
    repo.write(
        "app.py",
        "import os\nimport sys\n\n\ndef total(items):\n    return sum(items)\n\n\ndef unused():\n    x = 1\n    return 2\n",
    );
    repo
}

#[test]
fn ruff_findings_on_added_lines_block_and_old_ones_do_not() {
    let repo = python_change();
    let run = repo.run(&["static", "--base", "HEAD", "--tool", "ruff", "--format", "json"]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let report = json(&run);
    assert_eq!(report.outcome, Outcome::Blocked);
    assert_eq!(found(&report), vec![("static/ruff:F401".to_string(), 2)]);
    let f = &report.findings[0];
    assert_eq!(f.message, "`sys` imported but unused");
    assert_eq!((f.column, f.end_column), (Some(8), Some(11)));
    assert!(
        f.help.as_deref().unwrap_or("").contains("docs.astral.sh"),
        "{:?}",
        f.help
    );
    let text = repo.run(&["static", "--base", "HEAD", "--tool", "ruff"]);
    insta::assert_snapshot!(text.snapshot(&repo));
}

#[test]
fn every_filter_mode_keeps_what_it_says() {
    let repo = python_change();
    let lines = |filter: &str| {
        let report = json(&repo.run(&[
            "static", "--base", "HEAD", "--tool", "ruff", "--format", "json", "--filter", filter,
        ]));
        found(&report).into_iter().map(|(_, line)| line).collect::<Vec<_>>()
    };
    // Line 1 (`import os`) is in the diff's context, line 10 (`x = 1`) is not.
    assert_eq!(lines("added"), vec![2]);
    assert_eq!(lines("diff-context"), vec![1, 2]);
    assert_eq!(lines("file"), vec![1, 2, 10]);
    assert_eq!(lines("nofilter"), vec![1, 2, 10]);
}

#[test]
fn levels_suppressions_and_fail_on_apply_per_tool_rule() {
    let repo = python_change();
    let run = repo.run(&["static", "--base", "HEAD", "--tool", "ruff", "-A", "static/ruff:F401"]);
    assert_eq!(run.code, 0, "{}", run.stdout);
    let run = repo.run(&[
        "static",
        "--base",
        "HEAD",
        "--tool",
        "ruff",
        "--format",
        "json",
        "-W",
        "static/ruff",
    ]);
    assert_eq!(run.code, 0, "a family setting covers its rules: {}", run.stdout);
    assert_eq!(json(&run).summary.warnings, 1);
    repo.write(".loki-gate.yaml", "rules:\n  static/ruff:F401: warn\n");
    assert_eq!(repo.run(&["static", "--base", "HEAD", "--tool", "ruff"]).code, 0);
    repo.write(".loki-gate.yaml", "rules:\n  static/ruff:F4O1x: warn\n");
    let run = repo.run(&["static", "--base", "HEAD", "--tool", "ruff"]);
    assert_eq!(
        run.code, 1,
        "any code of a known tool is a valid selector: {}",
        run.stderr
    );
    repo.write(".loki-gate.yaml", "rules:\n  static/rough:F401: warn\n");
    let run = repo.run(&["static", "--base", "HEAD", "--tool", "ruff"]);
    assert_eq!(run.code, 2, "an unknown tool is not: {}", run.stderr);
    repo.remove(".loki-gate.yaml");
    repo.write(
        "app.py",
        "import os\nimport sys  # loki-gate: allow(static/ruff:F401) kept for the plugin loader\n\n\ndef total(items):\n    return sum(items)\n\n\ndef unused():\n    x = 1\n    return 2\n",
    );
    let report = json(&repo.run(&["static", "--base", "HEAD", "--tool", "ruff", "--format", "json"]));
    assert_eq!(report.outcome, Outcome::Pass);
    assert_eq!(report.summary.suppressed, 1);
}

#[test]
fn shellcheck_levels_sit_on_the_ladder_and_fail_on_moves_the_bar() {
    let repo = TestRepo::new();
    repo.write(".shellcheckrc", "# the project runs ShellCheck with its defaults\n");
    repo.write("run.sh", "#!/bin/sh\necho hi\n");
    repo.commit("base");
    repo.write("run.sh", "#!/bin/sh\necho hi\necho $1\ncd build\n");
    let report = json(&repo.run(&["static", "--base", "HEAD", "--format", "json"]));
    // auto picks shellcheck for a shell script; SC2086 is info (a note), SC2164 a warning.
    assert_eq!(
        found(&report),
        vec![
            ("static/shellcheck:SC2086".to_string(), 3),
            ("static/shellcheck:SC2164".to_string(), 4)
        ]
    );
    assert_eq!(report.outcome, Outcome::Pass);
    assert_eq!((report.summary.warnings, report.summary.notes), (1, 1));
    let run = repo.run(&["static", "--base", "HEAD", "--format", "json", "--fail-on", "warning"]);
    assert_eq!(run.code, 1);
    assert_eq!(json(&run).summary.errors, 1);
    repo.write(".loki-gate.yaml", "gates:\n  static:\n    fail-on: note\n");
    assert_eq!(
        json(&repo.run(&["static", "--base", "HEAD", "--format", "json"]))
            .summary
            .errors,
        2
    );
}

#[test]
fn mypy_reports_type_errors_when_the_project_configures_it() {
    let repo = TestRepo::new();
    repo.write(".gitignore", ".mypy_cache/\n.ruff_cache/\n");
    repo.write(
        "pyproject.toml",
        "[project]\nname = \"app\"\nversion = \"0\"\n\n[tool.mypy]\nstrict = false\n\n[tool.ruff]\n",
    );
    repo.write("app.py", "def name() -> str:\n    return \"a\"\n");
    repo.commit("base");
    repo.write(
        "app.py",
        "def name() -> str:\n    return \"a\"\n\n\ndef count() -> int:\n    return \"b\"\n",
    );
    let run = repo.run(&["static", "--base", "HEAD", "--format", "json"]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let report = json(&run);
    assert_eq!(found(&report), vec![("static/mypy:return-value".to_string(), 6)]);
    assert_eq!(report.findings[0].column, Some(12));
    assert!(
        report.notices.iter().any(|n| n.starts_with("ruff: 0 finding")),
        "{:?}",
        report.notices
    );
}

#[test]
fn mypy_checks_a_module_whose_stub_changed_with_it() {
    let repo = TestRepo::new();
    repo.write(".gitignore", ".mypy_cache/\n.ruff_cache/\n");
    repo.write("mypy.ini", "[mypy]\n");
    repo.write("pkg/__init__.py", "");
    repo.write("pkg/__init__.pyi", "");
    repo.write("pkg/shapes.py", "def area(w: int) -> int:\n    return w\n");
    repo.write("pkg/shapes.pyi", "def area(w: int) -> int: ...\n");
    repo.commit("base");
    repo.write("pkg/shapes.py", "def area(w: int) -> int:\n    return \"w\"\n");
    repo.write(
        "pkg/shapes.pyi",
        "def area(w: int) -> int: ...\ndef volume(w: int) -> int: ...\n",
    );
    let run = repo.run(&["static", "--base", "HEAD", "--tool", "mypy", "--format", "json"]);
    assert_eq!(
        run.code, 1,
        "not mypy's duplicate-module error (exit 2): {}{}",
        run.stdout, run.stderr
    );
    assert_eq!(found(&json(&run)), vec![("static/mypy:return-value".to_string(), 2)]);
}

/// A fake tool the gate finds before any installed one.
pub(crate) fn fake(repo: &TestRepo, name: &str, script: &str) {
    let path = format!(".venv/bin/{name}");
    repo.write(&path, format!("#!/bin/sh\n{script}\n"));
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(repo.path().join(&path), std::fs::Permissions::from_mode(0o755)).unwrap();
    }
}

#[test]
fn a_tool_that_crashes_or_prints_garbage_is_an_error_never_a_pass() {
    let repo = python_change();
    fake(&repo, "ruff", "echo 'ruff: config error in pyproject.toml' >&2; exit 2");
    let run = repo.run(&["static", "--base", "HEAD", "--tool", "ruff"]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr
            .contains("ruff failed (exit code 2): ruff: config error in pyproject.toml"),
        "{}",
        run.stderr
    );
    // Some tools explain a failure on stdout only (mypy's blocking errors).
    fake(&repo, "ruff", "echo 'fatal: unreadable config'; exit 2");
    let run = repo.run(&["static", "--base", "HEAD", "--tool", "ruff"]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr
            .contains("ruff failed (exit code 2): fatal: unreadable config"),
        "{}",
        run.stderr
    );
    fake(&repo, "ruff", "echo 'Traceback (most recent call last):'; exit 1");
    let run = repo.run(&["static", "--base", "HEAD", "--tool", "ruff", "--format", "json"]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains("ruff printed output that is not its JSON format"),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("Traceback"), "{}", run.stderr);
    assert_eq!(json(&run).outcome, Outcome::Error, "machine formats still get a report");
    fake(&repo, "ruff", "sleep 30");
    let run = repo.run(&["static", "--base", "HEAD", "--tool", "ruff", "--timeout", "1s"]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains("ruff did not finish within its time limit"),
        "{}",
        run.stderr
    );
}

#[test]
fn a_missing_tool_is_an_error_when_named_and_a_note_when_picked() {
    let repo = python_change();
    let path = [("PATH", "/nonexistent")];
    let run = repo.run_env(&["static", "--base", "HEAD", "--tool", "ruff"], &path);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr
            .contains("ruff is named in gates.static.tools (or with --tool) but is not installed: pip install ruff"),
        "{}",
        run.stderr
    );
    let run = repo.run_env(&["static", "--base", "HEAD", "--format", "json"], &path);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let report = json(&run);
    assert_eq!(report.outcome, Outcome::Inconclusive);
    assert!(
        report
            .notices
            .iter()
            .any(|n| n.contains("ruff would check this repository but is not installed")),
        "{:?}",
        report.notices
    );
}

#[test]
fn auto_picks_tools_for_files_not_tracked_yet() {
    let repo = TestRepo::empty();
    repo.write("ruff.toml", "");
    repo.write("app.py", "import os\n");
    let report = json(&repo.run(&["static", "--format", "json"]));
    assert_eq!(found(&report), vec![("static/ruff:F401".to_string(), 1)]);
}

#[test]
fn nothing_to_check_passes_and_says_why() {
    let repo = TestRepo::new();
    repo.write("notes.txt", "a\n");
    repo.commit("base");
    repo.write("notes.txt", "b\n");
    let report = json(&repo.run(&["static", "--base", "HEAD", "--format", "json"]));
    assert_eq!(report.outcome, Outcome::Pass);
    assert!(
        report
            .notices
            .iter()
            .any(|n| n.contains("no tool checks the changed files")),
        "{:?}",
        report.notices
    );
}

#[cfg(target_os = "linux")]
#[test]
fn a_file_name_that_is_not_utf8_is_checked_like_any_other() {
    use std::os::unix::ffi::OsStrExt;
    let repo = TestRepo::new();
    repo.write(".gitignore", ".ruff_cache/\n");
    let name = std::ffi::OsStr::from_bytes(b"bad\xff.py");
    std::fs::write(repo.path().join(name), "import os\n").unwrap();
    let run = repo.run(&["static", "--base", "HEAD", "--tool", "ruff", "--format", "json"]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let report = json(&run);
    assert_eq!(found(&report), vec![("static/ruff:F401".to_string(), 1)]);
    assert_eq!(report.findings[0].path.as_deref(), Some("bad\u{fffd}.py"));
}

/// A tool planted in the workspace (issue 54): an untracked, gitignored
/// `.venv/bin/ruff` that prints `[]` made `static` pass, in CI too, where
/// the agent's own loop may run with `CI=true`. In CI a tool comes from
/// PATH only; locally the project's own still runs first, named in a note
/// when git does not track it and it changed after the last commit.
mod a_planted_tool {
    use super::*;

    /// [`python_change`] with a ruff on PATH that reports the unused
    /// import the change adds, and one planted in `.venv/bin` that says
    /// nothing; the PATH to run with.
    fn planted() -> (TestRepo, tempfile::TempDir, String) {
        let repo = python_change();
        fake(&repo, "ruff", "echo '[]'");
        let bin = tempfile::tempdir().unwrap();
        let ruff = bin.path().join("ruff");
        std::fs::write(
            &ruff,
            "#!/bin/sh\ngrep -q 'import sys' app.py || { echo '[]'; exit 0; }\nprintf '[{\"code\":\"F401\",\"message\":\"`sys` imported but unused\",\"filename\":\"%s/app.py\",\"location\":{\"row\":2,\"column\":8},\"end_location\":{\"row\":2,\"column\":11},\"url\":null}]' \"$PWD\"\nexit 1\n",
        )
        .unwrap();
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&ruff, std::fs::Permissions::from_mode(0o755)).unwrap();
        let path = format!("{}:{}", bin.path().display(), std::env::var("PATH").unwrap_or_default());
        (repo, bin, path)
    }

    #[test]
    fn in_ci_the_static_gate_runs_the_tool_on_path_not_one_planted_in_the_workspace() {
        let (repo, _bin, path) = planted();
        let run = repo.run_env(
            &["static", "--base", "HEAD", "--format", "json"],
            &[("CI", "true"), ("PATH", &path)],
        );
        assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
        assert_eq!(found(&json(&run)), vec![("static/ruff:F401".to_string(), 2)]);
    }

    #[test]
    fn locally_an_untracked_tool_newer_than_the_last_commit_runs_and_is_named() {
        let (repo, _bin, path) = planted();
        let run = repo.run_env(&["static", "--base", "HEAD", "--format", "json"], &[("PATH", &path)]);
        assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
        let report = json(&run);
        assert!(
            report.notices.iter().any(|n| n.contains(
                "ran a tool from the workspace that git does not track and that changed after the last commit: ruff (.venv/bin/ruff); in CI only a tool on PATH runs"
            )),
            "{:?}",
            report.notices
        );
        // One that was there before the last commit is the project's, as before.
        let mut later = std::process::Command::new("git");
        crate::support::scrub_env(&mut later);
        let committed = later
            .args(["commit", "-q", "--allow-empty", "-m", "later"])
            .current_dir(repo.path())
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("GIT_COMMITTER_DATE", "2099-01-01T00:00:00Z")
            .status()
            .unwrap();
        assert!(committed.success());
        let run = repo.run_env(&["static", "--base", "HEAD~1", "--format", "json"], &[("PATH", &path)]);
        assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
        let report = json(&run);
        assert!(
            !report
                .notices
                .iter()
                .any(|n| n.contains("ran a tool from the workspace")),
            "{:?}",
            report.notices
        );
    }
}

/// A changed file over the size cap is never handed to a linter, and in CI
/// it blocks as `meta/file-too-large` (issue 54: a 50 MB changed file went
/// to the linters, whose report took 1.86 GB).
#[test]
fn a_changed_file_over_the_size_cap_is_not_linted_and_blocks_in_ci() {
    let repo = python_change();
    let padding = "# padding padding padding padding padding padding padding\n".repeat(40_000);
    repo.write("big.py", format!("import os\n{padding}"));
    fake(&repo, "ruff", "echo \"$@\" >> .venv/args; echo '[]'");
    let run = repo.run_env(
        &["static", "--base", "HEAD", "--tool", "ruff", "--format", "json"],
        &[("CI", "true")],
    );
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let report = json(&run);
    // In CI the real ruff on PATH runs (a planted one never does): it finds
    // the change's unused import in app.py, and nothing in big.py, which it
    // is not given.
    assert_eq!(
        found(&report),
        vec![
            ("static/ruff:F401".to_string(), 2),
            ("meta/file-too-large".to_string(), 0)
        ]
    );
    assert_eq!(
        report.findings[1].message,
        "big.py is 2320010 bytes, over the 2097152-byte size cap (max-file-bytes): no linter was run on it"
    );
    // By hand it is a warning, and the project's own ruff is not given it.
    let run = repo.run(&["static", "--base", "HEAD", "--tool", "ruff"]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("warning[meta/file-too-large]"), "{}", run.stdout);
    let args = repo.read(".venv/args");
    assert!(args.contains("app.py") && !args.contains("big.py"), "{args}");
}

/// What a linter prints is capped: past 64 MiB the tool is stopped and
/// the gate cannot run (exit 2, naming the tool and the cap), never a pass
/// on a report cut short (issue 54).
#[test]
fn a_linter_that_prints_past_the_output_cap_is_an_error_never_a_pass() {
    let repo = python_change();
    fake(
        &repo,
        "ruff",
        "printf '['; head -c 70000000 /dev/zero | tr '\\0' ' '; printf ']'",
    );
    let run = repo.run(&["static", "--base", "HEAD", "--tool", "ruff"]);
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stderr.starts_with(
            "error: ruff printed more than 64 MiB on stdout, the most loki-gate reads of a command's output"
        ),
        "{}",
        run.stderr
    );
    assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
}
