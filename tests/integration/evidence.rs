//! The evidence gate, end to end through the binary.

use loki_gate::report::Outcome;
use loki_gate::report::json::GateJson;

use crate::support::{TestRepo, fake_tests};

fn json(run: &crate::support::Run) -> GateJson {
    serde_json::from_str(&run.stdout).unwrap_or_else(|e| panic!("{e}: {}", run.stdout))
}

fn started() -> TestRepo {
    let repo = TestRepo::new();
    let start = repo.run(&["evidence", "start"]);
    assert_eq!(start.code, 0, "{}", start.stderr);
    repo
}

#[test]
fn an_empty_diff_blocks_without_running_the_tests() {
    let repo = started();
    let run = repo.run(&["evidence", "--test-command", "touch ran; echo '1 passed, 0 failed'"]);
    insta::assert_snapshot!(run.snapshot(&repo));
    assert!(!repo.path().join("ran").exists(), "tests must not run on an empty diff");
}

#[test]
fn a_diff_with_green_tests_passes() {
    let repo = started();
    repo.write("src/lib.rs", "pub fn f() {}\n");
    let run = repo.run(&["evidence", "--format", "json", "--test-command", &fake_tests(3, 0)]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let report = json(&run);
    assert_eq!(report.outcome, Outcome::Pass);
    assert!(report.findings.is_empty());
    assert_eq!(report.summary.files, 1);
    assert!(
        report.notices.iter().any(|n| n.contains("tests green: 3 passed")),
        "{:?}",
        report.notices
    );
}

#[test]
fn a_diff_with_red_tests_blocks_and_names_the_failures() {
    let repo = started();
    repo.write("src/lib.rs", "pub fn f() {}\n");
    let run = repo.run(&["evidence", "--format", "json", "--test-command", &fake_tests(2, 2)]);
    assert_eq!(run.code, 1);
    let report = json(&run);
    assert_eq!(report.outcome, Outcome::Blocked);
    let f = &report.findings[0];
    assert_eq!(f.rule, "evidence/tests-failed");
    assert!(
        f.message.contains("exited with 101 (2 passed, 2 failed)"),
        "{}",
        f.message
    );
    assert!(f.notes.contains(&"failed: suite::case_1".to_string()), "{:?}", f.notes);
    let state = repo.read(".loki-gate/run.json");
    assert!(
        state.contains("\"green\": false") && state.contains("suite::case_0"),
        "{state}"
    );
}

#[test]
fn a_runner_that_exits_zero_but_reports_failures_blocks() {
    let repo = started();
    repo.write("a.py", "x = 1\n");
    let run = repo.run(&["evidence", "--test-command", "echo '== 1 failed, 4 passed in 0.1s =='"]);
    assert_eq!(run.code, 1, "{}", run.stdout);
    assert!(run.stdout.contains("error[evidence/tests-failed]"), "{}", run.stdout);
}

#[test]
fn zero_tests_executed_blocks() {
    let repo = started();
    repo.write("src/lib.rs", "pub fn f() {}\n");
    let run = repo.run(&["evidence", "--test-command", &fake_tests(0, 0)]);
    assert_eq!(run.code, 1);
    assert!(run.stdout.contains("error[evidence/no-tests-ran]"), "{}", run.stdout);
    assert!(run.stdout.contains("ran 0 tests"), "{}", run.stdout);
}

#[test]
fn a_pass_with_no_recognisable_count_blocks() {
    let repo = started();
    repo.write("x.txt", "x\n");
    let run = repo.run(&["evidence", "--test-command", "echo all good"]);
    assert_eq!(run.code, 1);
    assert!(run.stdout.contains("no test count could be found"), "{}", run.stdout);
}

#[test]
fn an_untracked_new_file_counts_as_a_change() {
    let repo = started();
    repo.write("new/file.txt", "hello\n");
    let run = repo.run(&["evidence", "--test-command", &fake_tests(1, 0)]);
    assert_eq!(run.code, 0, "{}", run.stdout);
}

#[test]
fn an_ignored_file_does_not_count() {
    let repo = TestRepo::new();
    repo.write(".gitignore", "build/\n");
    repo.commit("ignore build");
    repo.run(&["evidence", "start"]);
    repo.write("build/out.o", "junk");
    let run = repo.run(&["evidence", "--test-command", &fake_tests(1, 0)]);
    assert_eq!(run.code, 1);
    assert!(run.stdout.contains("evidence/empty-diff"), "{}", run.stdout);
}

#[test]
fn committed_and_staged_changes_count() {
    let repo = started();
    repo.write("a.txt", "a\n");
    repo.commit("add a");
    assert_eq!(repo.run(&["evidence", "--test-command", &fake_tests(1, 0)]).code, 0);

    let repo = started();
    repo.write("b.txt", "b\n");
    repo.git(&["add", "b.txt"]);
    assert_eq!(repo.run(&["evidence", "--test-command", &fake_tests(1, 0)]).code, 0);
}

#[test]
fn a_change_committed_then_reverted_is_an_empty_diff() {
    let repo = started();
    repo.write("README.md", "# changed\n");
    repo.commit("change");
    repo.write("README.md", "# demo\n");
    repo.commit("revert");
    let run = repo.run(&["evidence", "--test-command", &fake_tests(1, 0)]);
    assert_eq!(run.code, 1);
    assert!(run.stdout.contains("evidence/empty-diff"));
}

#[test]
fn changes_only_inside_the_state_dir_do_not_count() {
    let repo = TestRepo::new();
    // A state dir inside the work tree, and no info/exclude entry to hide it.
    assert_eq!(repo.run(&["--state-dir", "ci-state", "evidence", "start"]).code, 0);
    std::fs::write(repo.path().join(".git/info/exclude"), "").unwrap();
    std::fs::write(repo.path().join("ci-state/extra.json"), "{}").unwrap();
    assert!(
        repo.git(&["status", "--porcelain"]).contains("ci-state"),
        "the state dir is visible to git"
    );
    let run = repo.run(&[
        "--state-dir",
        "ci-state",
        "evidence",
        "--test-command",
        &fake_tests(1, 0),
    ]);
    assert_eq!(run.code, 1, "{}", run.stdout);
    assert!(run.stdout.contains("evidence/empty-diff"));
}

#[test]
fn the_state_dir_is_added_to_info_exclude_once() {
    let repo = TestRepo::new();
    repo.run(&["evidence", "start"]);
    repo.run(&["evidence", "start"]);
    let exclude = repo.read(".git/info/exclude");
    assert_eq!(exclude.matches("/.loki-gate/").count(), 1, "{exclude}");
    assert_eq!(repo.git(&["status", "--porcelain"]), "");
}

#[test]
fn no_anchor_is_inconclusive_and_passes_with_a_disclosure() {
    let repo = TestRepo::new();
    repo.write("a.txt", "a\n");
    let run = repo.run(&["evidence", "--format", "json", "--test-command", &fake_tests(1, 0)]);
    assert_eq!(run.code, 0);
    let report = json(&run);
    assert_eq!(report.outcome, Outcome::Inconclusive);
    assert_eq!(report.inconclusive.as_deref(), Some("no run start recorded"));
    assert_eq!(report.findings[0].rule, "evidence/no-anchor");
    assert_eq!(report.findings[0].severity, loki_gate::finding::Severity::Warning);
}

#[test]
fn require_anchor_makes_no_anchor_block_from_the_flag_or_the_config() {
    let repo = TestRepo::new();
    repo.write("a.txt", "a\n");
    let run = repo.run(&["evidence", "--require-anchor", "--test-command", &fake_tests(1, 0)]);
    assert_eq!(run.code, 1);
    assert!(run.stdout.contains("error[evidence/no-anchor]"), "{}", run.stdout);
    repo.write(".loki-gate.yaml", "gates:\n  evidence:\n    require-anchor: true\n");
    assert_eq!(repo.run(&["evidence", "--test-command", &fake_tests(1, 0)]).code, 1);
}

#[test]
fn red_tests_block_even_without_an_anchor() {
    let repo = TestRepo::new();
    let run = repo.run(&["evidence", "--test-command", &fake_tests(0, 1)]);
    assert_eq!(run.code, 1);
}

#[test]
fn junit_results_newer_than_the_change_pass_and_are_not_a_change_themselves() {
    let repo = started();
    repo.write(
        "report.xml",
        r#"<testsuite><testcase classname="a" name="b"/></testsuite>"#,
    );
    let run = repo.run(&["evidence", "--results", "report.xml"]);
    assert_eq!(run.code, 1, "the results file alone is not a change: {}", run.stdout);
    assert!(run.stdout.contains("evidence/empty-diff"));

    repo.write("src/app.py", "x = 1\n");
    std::thread::sleep(std::time::Duration::from_millis(20));
    repo.write(
        "report.xml",
        r#"<testsuite><testcase classname="a" name="b"/></testsuite>"#,
    );
    let run = repo.run(&["evidence", "--results", "report.xml"]);
    assert_eq!(run.code, 0, "{}", run.stdout);
    assert!(
        run.stdout.contains("1 passed, 0 skipped (junit, report.xml)"),
        "{}",
        run.stdout
    );
}

#[test]
fn results_older_than_the_last_change_are_stale() {
    let repo = started();
    repo.write("report.xml", r#"<testsuite><testcase name="b"/></testsuite>"#);
    repo.age("report.xml", 3600);
    repo.write("src/app.py", "x = 1\n");
    let run = repo.run(&["evidence", "--results", "report.xml"]);
    insta::assert_snapshot!(run.snapshot(&repo));
}

#[test]
fn failing_results_block() {
    let repo = started();
    repo.write("src/app.py", "x = 1\n");
    repo.write(
        "out/go.json",
        "{\"Action\":\"pass\",\"Package\":\"p\",\"Test\":\"TestA\"}\n{\"Action\":\"fail\",\"Package\":\"p\",\"Test\":\"TestB\"}\n",
    );
    let run = repo.run(&["evidence", "--results", "out/go.json"]);
    assert_eq!(run.code, 1);
    assert!(run.stdout.contains("failed: p.TestB"), "{}", run.stdout);
}

#[test]
fn a_test_command_past_its_timeout_is_red() {
    let repo = started();
    repo.write("a.txt", "a\n");
    let run = repo.run(&["evidence", "--timeout", "300ms", "--test-command", "sleep 20"]);
    assert_eq!(run.code, 1);
    assert!(run.stdout.contains("did not finish within"), "{}", run.stdout);
}

#[test]
fn a_missing_test_tool_is_exit_2_naming_it() {
    let repo = started();
    repo.write("a.txt", "a\n");
    let run = repo.run(&["evidence", "--test-command", "no-such-test-runner-xyz --all"]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains("`no-such-test-runner-xyz --all` was not found"),
        "{}",
        run.stderr
    );
}

#[test]
fn with_no_test_command_and_no_project_marker_it_says_how_to_set_one() {
    let repo = started();
    repo.write("a.txt", "a\n");
    let run = repo.run(&["evidence"]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("set gates.evidence.test-command"), "{}", run.stderr);
}

#[test]
fn the_test_command_comes_from_cli_then_env_then_file() {
    let repo = started();
    repo.write(
        ".loki-gate.yaml",
        format!("gates:\n  evidence:\n    test-command: \"{}\"\n", fake_tests(0, 1)),
    );
    let env = [("LOKI_GATE_EVIDENCE_TEST_COMMAND", "echo '5 passed, 0 failed'")];
    assert_eq!(repo.run(&["evidence"]).code, 1, "file: red");
    let run = repo.run_env(&["evidence"], &env);
    assert_eq!(run.code, 0, "env beats file: {}", run.stdout);
    assert!(run.stdout.contains("5 passed"));
    let run = repo.run_env(&["evidence", "--test-command", "echo '7 passed, 0 failed'"], &env);
    assert!(run.stdout.contains("7 passed"), "cli beats env: {}", run.stdout);
}

#[test]
fn a_repository_with_no_commits_can_start_and_finish_a_run() {
    let repo = TestRepo::empty();
    let start = repo.run(&["evidence", "start"]);
    assert_eq!(start.code, 0, "{}", start.stderr);
    assert!(start.stderr.contains("an empty repository"), "{}", start.stderr);
    assert_eq!(
        repo.run(&["evidence", "--test-command", &fake_tests(1, 0)]).code,
        1,
        "nothing yet"
    );
    repo.write("main.py", "print(1)\n");
    assert_eq!(repo.run(&["evidence", "--test-command", &fake_tests(1, 0)]).code, 0);
}

#[test]
fn a_detached_head_works() {
    let repo = TestRepo::new();
    repo.write("a.txt", "1\n");
    let second = repo.commit("second");
    repo.git(&["checkout", "-q", "--detach", &second]);
    let start = repo.run(&["evidence", "start"]);
    assert_eq!(start.code, 0);
    assert!(
        !start.stderr.contains(" on "),
        "no branch on a detached HEAD: {}",
        start.stderr
    );
    repo.write("a.txt", "2\n");
    assert_eq!(repo.run(&["evidence", "--test-command", &fake_tests(1, 0)]).code, 0);
}

#[test]
fn an_anchor_that_left_the_history_is_exit_2() {
    let repo = TestRepo::new();
    repo.write(
        ".loki-gate/run.json",
        r#"{"version":1,"anchor":{"commit":"1111111111111111111111111111111111111111","branch":"main","started_at":1}}"#,
    );
    repo.write("a.txt", "a\n");
    let run = repo.run(&["evidence", "--test-command", &fake_tests(1, 0)]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains("run `loki-gate evidence start` again"),
        "{}",
        run.stderr
    );
}

#[test]
fn a_binary_file_change_counts() {
    let repo = started();
    repo.write("logo.png", [0x89, b'P', b'N', b'G', 0, 0, 1, 2, 3]);
    assert_eq!(repo.run(&["evidence", "--test-command", &fake_tests(1, 0)]).code, 0);
}

#[test]
fn named_it_runs_though_disabled_and_its_master_switch_turns_it_off() {
    let repo = TestRepo::new();
    repo.write(".loki-gate.yaml", "gates:\n  evidence:\n    enabled: false\n");
    let run = repo.run_env(
        &["evidence", "--test-command", "touch ran"],
        &[("LOKI_GATE_EVIDENCE", "0")],
    );
    assert_eq!(run.code, 0);
    assert!(
        run.stdout.contains("evidence is off (LOKI_GATE_EVIDENCE=0)"),
        "{}",
        run.stdout
    );
    assert!(!repo.path().join("ran").exists());
    // `enabled: false` keeps it out of a bare `check`, not out of an explicit call.
    repo.run(&["evidence", "--test-command", "touch ran"]);
    assert!(repo.path().join("ran").exists());
}

#[test]
fn committing_the_tested_change_after_the_test_run_keeps_the_results_fresh() {
    let repo = started();
    repo.write("src/app.py", "x = 1\n");
    repo.age("src/app.py", 60);
    repo.write("report.xml", r#"<testsuite><testcase name="b"/></testsuite>"#);
    repo.git(&["add", "src/app.py"]);
    let out = std::process::Command::new("git")
        .args(["commit", "-q", "-m", "tested change"])
        .current_dir(repo.path())
        .output()
        .unwrap();
    assert!(out.status.success());
    let run = repo.run(&["evidence", "--results", "report.xml"]);
    assert_eq!(run.code, 0, "{}", run.stdout);
}

#[test]
fn a_runner_that_exits_non_zero_because_nothing_ran_is_no_tests_ran() {
    let repo = started();
    repo.write("a.py", "x = 1\n");
    let run = repo.run(&["evidence", "--test-command", "echo '1 deselected in 0.01s'; exit 5"]);
    assert_eq!(run.code, 1);
    assert!(
        run.stdout
            .contains("error[evidence/no-tests-ran] `echo '1 deselected in 0.01s'; exit 5` (exit 5) ran 0 tests"),
        "{}",
        run.stdout
    );
}

#[cfg(target_os = "linux")]
#[test]
fn ctrl_c_stops_the_test_command_with_its_children() {
    let repo = started();
    repo.write("src/lib.rs", "pub fn f() {}\n");
    let pids = repo.path().join("pids");
    // The runner starts a child of its own, as test runners do.
    let command = format!("sleep 60 & echo $! > '{0}'; echo $$ >> '{0}'; wait", pids.display());
    let mut child = repo
        .cmd()
        .args(["evidence", "--test-command", &command])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    while std::fs::read_to_string(&pids).map_or(0, |p| p.lines().count()) < 2 {
        assert!(std::time::Instant::now() < deadline, "the test command never started");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let status = std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    assert_eq!(child.wait().unwrap().code(), Some(130));
    for pid in std::fs::read_to_string(&pids).unwrap().lines() {
        // Killed and reaped (by init, once loki-gate is gone): no /proc entry, or a zombie at most.
        if let Err(state) = crate::support::wait_until_dead(pid) {
            panic!("process {pid} outlived the interrupted run: {state}");
        }
    }
}

/// A test command that could not run the tests at all is "could not run"
/// (exit 2) with the runner's own last lines, not "tests failed" (issue 25).
#[test]
fn a_runner_that_could_not_collect_or_start_the_tests_could_not_run() {
    let repo = started();
    repo.write("src/app.py", "x = 1\n");
    let cases: [(&str, &str, &str); 4] = [
        (
            "python3 -m no_such_module_for_loki_gate",
            "a module it needs is missing",
            "No module named no_such_module_for_loki_gate",
        ),
        (
            "python3 -m pytest --no-such-flag-for-loki-gate",
            "pytest could not collect or start the tests (exit 4: usage error)",
            "unrecognized arguments",
        ),
        // `npm test` whose script calls a runner that is not installed: the
        // runner is named, not the command.
        (
            "sh -c 'no-such-runner-for-loki-gate run'",
            "`no-such-runner-for-loki-gate`, which the test command `sh -c 'no-such-runner-for-loki-gate run'` runs, was not found (exit 127)",
            "not found",
        ),
        (
            "no-such-test-cli-for-loki-gate",
            "the test command `no-such-test-cli-for-loki-gate` was not found (exit 127): install `no-such-test-cli-for-loki-gate`",
            "not found",
        ),
    ];
    for (command, why, tail) in cases {
        let run = repo.run(&["evidence", "--test-command", command]);
        assert_eq!(run.code, 2, "{command}: {}{}", run.stdout, run.stderr);
        assert!(run.stderr.contains(why), "{command}: {}", run.stderr);
        assert!(run.stderr.contains(tail), "{command}: {}", run.stderr);
    }
    // A collection error in a test file is the same: nothing was collected.
    repo.write(
        "tests/test_app.py",
        "import not_installed_for_loki_gate\n\n\ndef test_x():\n    assert 1\n",
    );
    let run = repo.run(&["evidence", "--test-command", "python3 -m pytest -q tests"]);
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    assert!(run.stderr.contains("could not start the tests"), "{}", run.stderr);
    // Tests that ran and failed are still red (exit 1).
    let run = repo.run(&["evidence", "--test-command", &fake_tests(1, 1)]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
}
