//! A verdict means what it says (issue 25): a gate named on the command line
//! runs whatever `enabled` says, its master switch turns it off loudly, and
//! `check` never lets a block hide behind a gate that could not run.

use crate::support::TestRepo;

/// A reviewer script outside the repository that rejects every change.
fn rejecting_reviewer() -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("reviewer");
    std::fs::write(
        &script,
        "#!/bin/sh\ncat >/dev/null\necho '{\"verdict\":\"reject\",\"findings\":[{\"severity\":\"high\",\"path\":\"src/cart.py\",\"line\":2,\"message\":\"off by one\"}]}'\n",
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    (dir, script)
}

/// A change reviewed by one rejecting reviewer, with the council left off
/// (its default) in the config.
fn council_left_off() -> (TestRepo, tempfile::TempDir) {
    let (dir, script) = rejecting_reviewer();
    let repo = TestRepo::new();
    repo.write("src/cart.py", "def total(items):\n    return sum(items)\n").write(
        ".loki-gate.yaml",
        format!(
            "gates:\n  council:\n    reviewers: 1\n    devils-advocate: false\n    providers:\n      - {{ name: r, kind: command, command: [\"{}\"] }}\n",
            script.display()
        ),
    );
    repo.commit("base");
    repo.write("src/cart.py", "def total(items):\n    return sum(items) + 1\n");
    (repo, dir)
}

#[test]
fn a_gate_named_on_the_command_line_runs_though_the_config_leaves_it_off() {
    let (repo, _reviewer) = council_left_off();
    let run = repo.run(&["council", "--base", "HEAD", "--format", "json"]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert!(
        run.findings().contains(&"council/high error src/cart.py:2".to_string()),
        "{:?}",
        run.findings()
    );
    let check = repo.run(&["check", "--gates", "council", "--base", "HEAD"]);
    assert_eq!(check.code, 1, "{}{}", check.stdout, check.stderr);
    // A bare `check` runs what the config enables: the council is not among them.
    let bare = repo.run(&["check", "--base", "HEAD", "--format", "json"]);
    let gates: Vec<String> = bare.json()["gates"]
        .as_array()
        .map(|g| g.iter().map(|g| g["gate"].as_str().unwrap().to_string()).collect())
        .unwrap_or_default();
    assert!(!gates.contains(&"council".to_string()), "{gates:?}");
}

#[test]
fn the_master_switch_turns_a_named_gate_off_loudly() {
    let (repo, reviewer) = council_left_off();
    let off = [("LOKI_GATE_COUNCIL", "0")];
    let run = repo.run_env(&["council", "--base", "HEAD", "--format", "json"], &off);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let json = run.json();
    assert_eq!(json["outcome"], "inconclusive", "{json}");
    assert_eq!(
        json["inconclusive"],
        "council is off (LOKI_GATE_COUNCIL=0): nothing was checked, no state was read or written"
    );
    let text = repo.run_env(&["council", "--base", "HEAD"], &off);
    assert!(text.stdout.contains("council: inconclusive"), "{}", text.stdout);
    assert!(!reviewer.path().join("reviewer.log").exists());
}

#[test]
fn heldout_named_with_its_checks_runs_them_though_the_config_leaves_it_off() {
    let repo = TestRepo::new();
    let checks = tempfile::tempdir().unwrap();
    std::fs::write(
        checks.path().join("heldout-checks.yaml"),
        "version: 1\nitems:\n  - id: must-fail\n    check: \"exit 1\"\n",
    )
    .unwrap();
    let run = repo.run(&[
        "heldout",
        "--checks",
        checks.path().to_str().unwrap(),
        "--require",
        "--format",
        "json",
    ]);
    assert_ne!(
        run.code, 0,
        "a failing held-out check never passes: {}{}",
        run.stdout, run.stderr
    );
    assert_ne!(run.json()["outcome"], "pass", "{}", run.stdout);
}

#[test]
fn check_ends_with_one_verdict_line_and_a_block_outranks_a_gate_that_could_not_run() {
    let repo = TestRepo::new();
    repo.write("README.md", "# shop\n\nA cart that sums prices.\n")
        .write("shop/__init__.py", "")
        .write("shop/cart.py", "def total(xs):\n    return sum(xs)\n")
        .write(
            ".loki-gate.yaml",
            "gates:\n  static:\n    tools: []\n    custom:\n      - { name: gone, command: \"/nonexistent/linter {files}\" }\n",
        );
    repo.commit("base");
    repo.write(
        "tests/test_cart.py",
        "from shop.cart import total\n\n\ndef test_total():\n    assert total([1]) == 1\n    assert True\n",
    );
    repo.write("shop/cart.py", "def total(xs):\n    return sum(xs) + 0\n");
    let run = repo.run(&["check", "--gates", "static,mock", "--base", "HEAD"]);
    assert_eq!(
        run.code, 1,
        "the block decides the status: {}{}",
        run.stdout, run.stderr
    );
    let last = run.stdout.lines().last().unwrap_or_default();
    assert_eq!(
        last, "loki-gate: blocked: 1 error, 0 warnings, 0 notes (static could not run, mock blocked)",
        "{}",
        run.stdout
    );

    let json = repo.run(&["check", "--gates", "static,mock", "--base", "HEAD", "--format", "json"]);
    assert_eq!(json.code, 1);
    let report = json.json();
    assert_eq!(report["outcome"], "blocked");
    assert_eq!(report["gates"][0]["outcome"], "error", "{report}");

    // With nothing blocked, the gate that could not run decides.
    repo.write(
        "tests/test_cart.py",
        "from shop.cart import total\n\n\ndef test_total():\n    assert total([1]) == 1\n",
    );
    let run = repo.run(&["check", "--gates", "static,mock", "--base", "HEAD"]);
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    assert_eq!(
        run.stdout.lines().last().unwrap_or_default(),
        "loki-gate: could not run: 0 errors, 0 warnings, 0 notes (static could not run, mock passed)"
    );
}
