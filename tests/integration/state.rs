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
