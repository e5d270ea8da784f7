//! `static --new-only`: the tools also run on the base revision, in a
//! temporary git worktree that never outlives the run, and only findings
//! the base does not have are reported; with `--scope project`, wherever
//! they sit.

use std::path::Path;
use std::time::{Duration, Instant};

use loki_gate::report::Outcome;

use crate::static_gate::{fake, found, json};
use crate::support::TestRepo;

/// Worktrees git knows of for the repository, the main one included.
fn worktrees(repo: &TestRepo) -> usize {
    repo.git(&["worktree", "list", "--porcelain"])
        .lines()
        .filter(|l| l.starts_with("worktree "))
        .count()
}

fn leftovers(tmp: &Path) -> Vec<String> {
    std::fs::read_dir(tmp)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect()
}

/// `static --tool ruff --new-only --format json` against HEAD, with `env`.
fn new_only_ruff(repo: &TestRepo, env: &[(&str, &str)]) -> crate::support::Run {
    repo.run_env(
        &[
            "static",
            "--base",
            "HEAD",
            "--tool",
            "ruff",
            "--new-only",
            "--format",
            "json",
        ],
        env,
    )
}

/// The base has two ruff findings; the change moves one of them down and
/// re-indents it (a function becomes a method), and adds one new finding.
fn moved_code() -> TestRepo {
    let repo = TestRepo::new();
    repo.write(".gitignore", ".venv/\n.ruff_cache/\n");
    repo.write(
        "app.py",
        "import os\n\n\ndef first():\n    x = 1\n    return 2\n\n\ndef second():\n    return 3\n",
    );
    repo.commit("base");
    repo.write(
        "app.py",
        "import os\nimport sys\n\n\nclass Box:\n    def first(self):\n        x = 1\n        return 2\n\n\ndef second():\n    return 3\n",
    );
    repo
}

#[test]
fn moved_findings_are_not_new_and_the_worktree_is_gone_after() {
    let repo = moved_code();
    let tmp = tempfile::tempdir().unwrap();
    let tmpdir = tmp.path().to_str().unwrap();
    // Without --new-only, the moved `x = 1` is on an added line.
    let report = json(&repo.run(&["static", "--base", "HEAD", "--tool", "ruff", "--format", "json"]));
    assert_eq!(
        found(&report),
        vec![("static/ruff:F401".to_string(), 2), ("static/ruff:F841".to_string(), 7)]
    );
    let run = new_only_ruff(&repo, &[("TMPDIR", tmpdir)]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let report = json(&run);
    assert_eq!(found(&report), vec![("static/ruff:F401".to_string(), 2)]);
    assert!(
        report
            .notices
            .iter()
            .any(|n| n.starts_with("new only: 2 finding(s) on the base revision")),
        "{:?}",
        report.notices
    );
    assert_eq!(worktrees(&repo), 1);
    assert!(leftovers(tmp.path()).is_empty(), "{:?}", leftovers(tmp.path()));
}

#[test]
fn a_repeated_finding_is_new_once_per_extra_copy() {
    let repo = TestRepo::new();
    repo.write(".gitignore", ".ruff_cache/\n");
    repo.write("app.py", "def f():\n    x = 1\n    return 0\n");
    repo.commit("base");
    repo.write(
        "app.py",
        "def f():\n    x = 1\n    return 0\n\n\ndef g():\n    x = 1\n    return 0\n",
    );
    let report = json(&new_only_ruff(&repo, &[]));
    // Which copy is "the new one" is the diff's to say; there is exactly one.
    assert_eq!(report.findings.len(), 1, "{:?}", found(&report));
    assert_eq!(report.findings[0].rule, "static/ruff:F841");
}

#[test]
fn a_removed_use_makes_a_finding_on_an_untouched_line_new() {
    let repo = TestRepo::new();
    repo.write(".gitignore", ".ruff_cache/\n");
    repo.write(
        "app.py",
        "def total(items):\n    count = len(items)\n    return sum(items) / count\n",
    );
    repo.commit("base");
    repo.write(
        "app.py",
        "def total(items):\n    count = len(items)\n    return sum(items)\n",
    );
    let quiet = json(&repo.run(&["static", "--base", "HEAD", "--tool", "ruff", "--format", "json"]));
    assert!(quiet.findings.is_empty(), "line 2 is not a changed line");
    let run = new_only_ruff(&repo, &[]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let report = json(&run);
    assert_eq!(found(&report), vec![("static/ruff:F841".to_string(), 2)]);
    assert!(
        report.findings[0]
            .notes
            .iter()
            .any(|n| n == "new with this change, on a line it did not touch: it appeared with the change to app.py"),
        "{:?}",
        report.findings[0].notes
    );
    let project = json(&repo.run(&[
        "static",
        "--base",
        "HEAD",
        "--tool",
        "ruff",
        "--new-only",
        "--scope",
        "project",
        "--format",
        "json",
    ]));
    assert_eq!(found(&project), found(&report), "the project scope finds it too");
}

#[test]
fn project_scope_finds_a_broken_caller_in_an_untouched_file() {
    let repo = crate::static_tools::typescript_project();
    repo.write(
        "src/greet.ts",
        "export function greet(name: string, times: number): string {\n  return `hi ${name}`.repeat(times);\n}\n",
    );
    let lines = json(&repo.run(&["static", "--base", "HEAD", "--format", "json"]));
    assert_eq!(
        lines.outcome,
        Outcome::Pass,
        "the caller is in a file the change did not touch"
    );
    let run = repo.run(&[
        "static",
        "--base",
        "HEAD",
        "--new-only",
        "--scope",
        "project",
        "--format",
        "json",
    ]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let report = json(&run);
    assert_eq!(found(&report), vec![("static/tsc:TS2554".to_string(), 3)]);
    assert_eq!(report.findings[0].path.as_deref(), Some("src/main.ts"));
    let text = repo.run(&["static", "--base", "HEAD", "--new-only", "--scope", "project"]);
    insta::assert_snapshot!(text.snapshot(&repo));
}

#[test]
fn project_scope_finds_a_mypy_caller_broken_by_a_signature_change() {
    let repo = TestRepo::new();
    repo.write(".gitignore", ".mypy_cache/\n.ruff_cache/\n");
    repo.write("pyproject.toml", "[tool.mypy]\nstrict = false\n");
    repo.write("lib.py", "def area(w: int, h: int) -> int:\n    return w * h\n");
    repo.write("use.py", "from lib import area\n\nprint(area(2, 3))\n");
    repo.commit("base");
    repo.write("lib.py", "def area(w: int) -> int:\n    return w * w\n");
    let run = repo.run(&[
        "static",
        "--base",
        "HEAD",
        "--tool",
        "mypy",
        "--new-only",
        "--scope",
        "project",
        "--format",
        "json",
    ]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let report = json(&run);
    assert_eq!(found(&report), vec![("static/mypy:call-arg".to_string(), 3)]);
    assert_eq!(report.findings[0].path.as_deref(), Some("use.py"));
}

#[test]
fn new_only_needs_a_base_and_works_with_a_baseline() {
    let repo = moved_code();
    let run = repo.run(&["static", "--all-files", "--tool", "ruff", "--new-only"]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains("--new-only compares with the base revision"),
        "{}",
        run.stderr
    );

    // A baseline of today's findings, then the run reports only what is beyond it.
    let dir = tempfile::tempdir().unwrap();
    let baseline = dir.path().join("baseline.json");
    let baseline = baseline.to_str().unwrap();
    let run = repo.run(&[
        "static",
        "--base",
        "HEAD",
        "--tool",
        "ruff",
        "--write-baseline",
        baseline,
    ]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    repo.write(
        "app.py",
        "import os\nimport sys\nimport zlib\n\n\nclass Box:\n    def first(self):\n        x = 1\n        return 2\n\n\ndef second():\n    return 3\n",
    );
    let report = json(&repo.run(&[
        "static",
        "--base",
        "HEAD",
        "--tool",
        "ruff",
        "--new-only",
        "--baseline",
        baseline,
        "--format",
        "json",
    ]));
    assert_eq!(found(&report), vec![("static/ruff:F401".to_string(), 3)]);
    assert_eq!(report.summary.baselined, 1);
}

#[test]
fn a_failing_tool_on_the_base_is_an_error_and_leaves_no_worktree() {
    let repo = moved_code();
    let tmp = tempfile::tempdir().unwrap();
    // The base has no `app.py` marker... the script fails only in the checkout.
    fake(
        &repo,
        "ruff",
        "if [ -f .venv/bin/ruff ]; then echo '[]'; else echo 'base is broken' >&2; exit 2; fi",
    );
    let run = repo.run_env(
        &["static", "--base", "HEAD", "--tool", "ruff", "--new-only"],
        &[("TMPDIR", tmp.path().to_str().unwrap())],
    );
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stderr.contains("on the base revision") && run.stderr.contains("ruff failed (exit code 2): base is broken"),
        "{}",
        run.stderr
    );
    assert_eq!(worktrees(&repo), 1);
    assert!(leftovers(tmp.path()).is_empty(), "{:?}", leftovers(tmp.path()));
}

#[cfg(unix)]
#[test]
fn ctrl_c_removes_the_worktree_and_stops_the_tools() {
    let repo = moved_code();
    let tmp = tempfile::tempdir().unwrap();
    let pid_file = repo.path().join(".venv/sleeper.pid");
    // Quick in the repository, slow in the base's checkout (which has no .venv).
    fake(
        &repo,
        "ruff",
        &format!(
            "if [ -f .venv/bin/ruff ]; then echo '[]'; exit 0; fi\necho $$ > '{}'\nsleep 60\necho '[]'",
            pid_file.display()
        ),
    );
    let mut child = repo
        .cmd()
        .args(["static", "--base", "HEAD", "--tool", "ruff", "--new-only"])
        .env("TMPDIR", tmp.path())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(30);
    while !pid_file.exists() {
        assert!(Instant::now() < deadline, "the tool never started on the base");
        std::thread::sleep(Duration::from_millis(20));
    }
    assert_eq!(worktrees(&repo), 2);
    let status = std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let started = Instant::now();
    let status = child.wait().unwrap();
    assert!(started.elapsed() < Duration::from_secs(20), "the run did not stop");
    assert_eq!(status.code(), Some(130));
    let mut stderr = String::new();
    std::io::Read::read_to_string(child.stderr.as_mut().unwrap(), &mut stderr).unwrap();
    assert!(stderr.contains("interrupted"), "{stderr}");
    assert_eq!(worktrees(&repo), 1);
    assert!(leftovers(tmp.path()).is_empty(), "{:?}", leftovers(tmp.path()));
    let sleeper = std::fs::read_to_string(&pid_file).unwrap();
    // Killed: gone, or a zombie at most, once SIGKILL has landed.
    if let Err(state) = crate::support::wait_until_dead(sleeper.trim()) {
        panic!("the tool's process outlived the run: {state}");
    }
}

#[test]
fn a_fixed_finding_is_gone_and_the_base_count_says_so() {
    let repo = TestRepo::new();
    repo.write(".gitignore", ".ruff_cache/\n");
    repo.write("app.py", "import json\nimport os\n\n\ndef f():\n    return os.sep\n");
    repo.commit("base");
    repo.write("app.py", "import os\n\n\ndef f():\n    return os.sep\n");
    let run = new_only_ruff(&repo, &[]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let report = json(&run);
    assert!(report.findings.is_empty());
    assert!(
        report
            .notices
            .iter()
            .any(|n| n.starts_with("new only: 1 finding(s) on the base revision")),
        "{:?}",
        report.notices
    );
}
