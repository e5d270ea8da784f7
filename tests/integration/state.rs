//! Where state lives: `.loki-gate/` at the root, or `--state-dir` / `LOKI_GATE_STATE_DIR`.

use crate::support::{TestRepo, fake_tests};

#[test]
fn a_state_dir_outside_the_repository_leaves_info_exclude_alone() {
    let repo = TestRepo::new();
    let state = tempfile::tempdir().unwrap();
    let dir = state.path().join("cache");
    let before = repo.read(".git/info/exclude");
    let run = repo.run(&["--state-dir", dir.to_str().unwrap(), "evidence", "start"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(dir.join("run.json").is_file());
    assert_eq!(repo.read(".git/info/exclude"), before);
    assert!(!repo.path().join(".loki-gate").exists());
    repo.write("a.txt", "a\n");
    let env = [("LOKI_GATE_STATE_DIR", dir.to_str().unwrap())];
    assert_eq!(
        repo.run_env(&["evidence", "--test-command", &fake_tests(1, 0)], &env)
            .code,
        0,
        "the env var finds it"
    );
    assert_eq!(
        repo.run(&["evidence", "--require-anchor", "--test-command", &fake_tests(1, 0)])
            .code,
        1,
        "default dir has no anchor"
    );
}

#[test]
fn a_new_start_clears_the_previous_test_outcome() {
    let repo = TestRepo::new();
    repo.run(&["evidence", "start"]);
    repo.write("a.txt", "a\n");
    repo.run(&["evidence", "--test-command", &fake_tests(1, 0)]);
    assert!(repo.read(".loki-gate/run.json").contains("last_tests\": {"));
    repo.run(&["evidence", "start"]);
    let state: serde_json::Value = serde_json::from_str(&repo.read(".loki-gate/run.json")).unwrap();
    assert!(state["last_tests"].is_null(), "{state}");
}

/// A write killed between its temp file and the rename leaves the temp file
/// behind; the next write in that directory removes it once it is stale, and
/// leaves a fresh one (another writer's, mid-write) alone (issue 25).
#[test]
fn the_next_write_removes_temp_files_interrupted_writes_left() {
    let repo = TestRepo::new();
    assert_eq!(repo.run(&["evidence", "start"]).code, 0);
    repo.write(".loki-gate/.loki-gate-tmpOLD123", "half a state file");
    repo.age(".loki-gate/.loki-gate-tmpOLD123", 3600);
    repo.write(".loki-gate/.loki-gate-tmpNEW456", "another writer, mid-write");
    assert_eq!(repo.run(&["evidence", "start"]).code, 0);
    assert!(!repo.path().join(".loki-gate/.loki-gate-tmpOLD123").exists());
    assert!(repo.path().join(".loki-gate/.loki-gate-tmpNEW456").exists());
    assert!(repo.path().join(".loki-gate/run.json").is_file());
}

/// A committed `.loki-gate` symlink to a directory outside the checkout
/// is refused (exit 2, one line naming it and the fix); nothing is written
/// there (issue 54: `uncertainty.json`, its lock and `cache/` landed there).
/// A directory the user names outside the repository is still theirs, and
/// a link that stays inside the repository is followed.
#[test]
fn a_committed_state_link_out_of_the_checkout_is_refused() {
    use std::os::unix::fs::symlink;
    let repo = TestRepo::shop();
    let outside = tempfile::tempdir().unwrap();
    symlink(outside.path(), repo.path().join(".loki-gate")).unwrap();
    repo.write("shop.py", "def total(xs):\n    return sum(xs) + 0\n");
    repo.commit("a link for the state");
    let ci = [("CI", "true")];
    for args in [
        &["uncertainty", "--base", "main~1"][..],
        &["check", "--base", "main~1"][..],
    ] {
        let run = repo.run_env(args, &ci);
        assert_eq!(run.code, 2, "{args:?}: {}{}", run.stdout, run.stderr);
        let real = outside.path().canonicalize().unwrap();
        assert_eq!(
            run.stderr,
            format!(
                "error: the state directory .loki-gate is a symlink to {}, outside the repository: a link in the checkout may not move loki-gate's state out of it; remove the link (`git rm` it if it is committed), or pass --state-dir (or LOKI_GATE_STATE_DIR) naming a directory outside the repository\n",
                real.display()
            )
        );
        assert_eq!(std::fs::read_dir(outside.path()).unwrap().count(), 0, "{args:?}");
    }

    // The user's own choice, by the environment or the flag, is followed.
    let mine = tempfile::tempdir().unwrap();
    let run = repo.run_env(
        &["uncertainty", "--base", "main~1"],
        &[("CI", "true"), ("LOKI_GATE_STATE_DIR", mine.path().to_str().unwrap())],
    );
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(mine.path().join("uncertainty.json").is_file());

    // A link inside the state directory that leads out is refused too.
    repo.remove(".loki-gate");
    std::fs::create_dir_all(repo.path().join(".loki-gate")).unwrap();
    symlink(outside.path(), repo.path().join(".loki-gate/cache")).unwrap();
    let run = repo.run_env(&["mock", "--base", "main~1"], &ci);
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stderr.starts_with("error: .loki-gate/cache is a symlink to ")
            && run
                .stderr
                .contains("and the state directory .loki-gate reaches through it"),
        "{}",
        run.stderr
    );
    assert_eq!(std::fs::read_dir(outside.path()).unwrap().count(), 0);

    // One that stays in the repository is followed.
    std::fs::remove_file(repo.path().join(".loki-gate/cache")).unwrap();
    std::fs::remove_dir(repo.path().join(".loki-gate")).unwrap();
    std::fs::create_dir_all(repo.path().join("build/state")).unwrap();
    symlink("build/state", repo.path().join(".loki-gate")).unwrap();
    let run = repo.run_env(&["uncertainty", "--base", "main~1"], &ci);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(repo.path().join("build/state/uncertainty.json").is_file());
}

/// The gates read the change the session collected once (the tools'
/// configs are judged on it, the state directory included); each gate
/// still leaves the state directory out, in `check` as alone.
#[test]
fn the_change_the_gates_share_leaves_the_state_directory_out() {
    let repo = TestRepo::new();
    repo.write("calc.py", "def add(a, b):\n    return a + b\n");
    repo.commit("code");
    assert_eq!(repo.run(&["--state-dir", "ci-state", "evidence", "start"]).code, 0);
    std::fs::write(repo.path().join(".git/info/exclude"), "").unwrap();
    let hollow = "from calc import add\n\n\ndef test_add():\n    result = add(1, 2)\n    assert result == result\n";
    repo.write("ci-state/test_hidden.py", hollow);
    assert!(repo.git(&["status", "--porcelain"]).contains("ci-state"));
    for args in [
        &[
            "--state-dir",
            "ci-state",
            "check",
            "--base",
            "HEAD",
            "--gates",
            "mock,docs,static",
        ][..],
        &["--state-dir", "ci-state", "mock", "--base", "HEAD"][..],
    ] {
        let run = repo.run(args);
        assert_eq!(run.code, 0, "{args:?}: {}{}", run.stdout, run.stderr);
        assert!(!run.stdout.contains("test_hidden"), "{}", run.stdout);
    }
    // The same file outside it is read, and blocked.
    repo.write("tests/test_seen.py", hollow);
    let run = repo.run(&["--state-dir", "ci-state", "check", "--base", "HEAD", "--gates", "mock"]);
    assert_eq!(run.code, 1, "{}", run.stdout);
    assert!(run.stdout.contains("tests/test_seen.py"), "{}", run.stdout);
    assert!(!run.stdout.contains("test_hidden"), "{}", run.stdout);
}
