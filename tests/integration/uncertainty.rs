//! The uncertainty gate through the binary: rounds driven one CI run at a
//! time on a temp repository, with the state directory carried between runs.

use serde_json::Value;

use crate::support::{Run, TestRepo, fake_tests};

fn repo() -> TestRepo {
    let repo = TestRepo::new();
    repo.write("src/lib.rs", "pub fn f() -> u32 {\n    1\n}\n");
    let base = repo.commit("base");
    repo.git(&["tag", "base", &base]);
    repo
}

fn round(repo: &TestRepo) -> Run {
    repo.run(&["uncertainty", "--base", "base", "--format", "json"])
}

/// Record a failing (or green) test run, as `evidence` does in CI.
fn tests(repo: &TestRepo, failed: u32) {
    let run = repo.run(&["evidence", "--base", "base", "--test-command", &fake_tests(3, failed)]);
    assert!(run.code <= 1, "{}{}", run.stdout, run.stderr);
}

#[test]
fn the_same_change_failing_the_same_tests_escalates_once_per_episode() {
    let repo = repo();
    repo.git(&["tag", "-f", "start"]);
    repo.run(&["evidence", "start"]);
    repo.write("src/lib.rs", "pub fn f() -> u32 {\n    2\n}\n");
    let mut codes = Vec::new();
    for _ in 0..6 {
        tests(&repo, 1);
        codes.push(round(&repo).code);
    }
    // Round 3: no change (p1) and the same failing test (p4) together, once;
    // round 4: twice in a row -> escalate; then never again in this episode.
    assert_eq!(codes, [0, 0, 0, 3, 0, 0]);
    let handoff = repo.read(".loki-gate/handoff.md");
    for want in [
        "# loki-gate: stuck, handing off (episode 1)",
        "**p1 no change**",
        "**p4 same failing tests**",
        "`suite::case_0`",
        "`src/lib.rs` (Modified)",
        "| round | change | files | signs |",
        "<!-- loki-gate-handoff episode=1 -->",
    ] {
        assert!(handoff.contains(want), "{want}\n{handoff}");
    }
    let again = round(&repo);
    assert_eq!(again.code, 0);
    assert!(
        again
            .notices()
            .join("\n")
            .contains("still stuck: episode 1 was handed off already")
    );

    // Progress: a new change with green tests clears the signs and re-arms.
    repo.write("src/lib.rs", "pub fn f() -> u32 {\n    3\n}\n");
    tests(&repo, 0);
    let cleared = round(&repo);
    assert_eq!(cleared.code, 0);
    assert!(
        cleared.notices().join("\n").contains("no sign of being stuck"),
        "{}",
        cleared.notices().join("\n")
    );
    // Stuck again: a second episode escalates in its turn.
    let mut codes = Vec::new();
    for _ in 0..4 {
        tests(&repo, 2);
        codes.push(round(&repo).code);
    }
    assert_eq!(codes, [0, 0, 3, 0]);
    assert!(repo.read(".loki-gate/handoff.md").contains("(episode 2)"));
    let state: Value = serde_json::from_str(&repo.read(".loki-gate/uncertainty.json")).unwrap();
    assert_eq!(state["memory"]["episodes"], 2);
    assert_eq!(state["history"].as_array().unwrap().len(), 12);
}

#[test]
fn oscillating_under_a_split_council_escalates() {
    let repo = repo();
    // Two council rounds rejected with one approval each (a split), as `council` records them.
    let split_round = r#"{"diff_hash": "x", "setup": "s", "at": 1, "reviews": [], "approvals": 1, "counted": 3, "needed": 2, "blocked": true}"#;
    repo.write(
        ".loki-gate/council.json",
        format!("{{\"version\": 1, \"rounds\": [{split_round}, {split_round}]}}\n"),
    );
    let mut codes = Vec::new();
    for i in 0..4 {
        repo.write(
            "src/lib.rs",
            if i % 2 == 0 {
                "pub fn f() -> u32 { 10 }\n"
            } else {
                "pub fn f() -> u32 { 20 }\n"
            },
        );
        let run = round(&repo);
        codes.push(run.code);
        if i == 2 {
            assert!(
                run.notices()
                    .join("\n")
                    .contains("hot: p2 oscillation, p3 council split"),
                "{}",
                run.notices().join("\n")
            );
        }
    }
    assert_eq!(codes, [0, 0, 0, 3]);
    let run = repo.run(&["uncertainty", "--base", "base"]);
    assert!(run.stdout.contains("uncertainty: passed"), "{}", run.stdout);
}

#[test]
fn opted_out_it_reads_and_writes_nothing() {
    let repo = repo();
    let off = [("LOKI_GATE_UNCERTAINTY", "0")];
    let run = repo.run_env(&["uncertainty", "--base", "base"], &off);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains("no state was read or written"));
    assert!(
        !repo.path().join(".loki-gate").exists(),
        "the state directory was created"
    );
    // Corrupt files it would read stay unread (no exit 2) and byte-identical.
    repo.write(".loki-gate/uncertainty.json", "{ corrupt");
    repo.write(".loki-gate/council.json", "also corrupt");
    let before = std::fs::read_dir(repo.path().join(".loki-gate")).unwrap().count();
    let run = repo.run_env(&["uncertainty", "--base", "base"], &off);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(repo.read(".loki-gate/uncertainty.json"), "{ corrupt");
    assert_eq!(repo.read(".loki-gate/council.json"), "also corrupt");
    assert_eq!(
        std::fs::read_dir(repo.path().join(".loki-gate")).unwrap().count(),
        before,
        "no lock file either"
    );
    // On again, a corrupt state is exit 2 naming the file, never a silent reset.
    let run = repo.run(&["uncertainty", "--base", "base"]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains("council.json is corrupt") || run.stderr.contains("uncertainty.json is corrupt"),
        "{}",
        run.stderr
    );
    assert_eq!(repo.read(".loki-gate/uncertainty.json"), "{ corrupt");
}
