//! `loki-gate check`: every enabled gate in one run, one combined report,
//! the worst outcome's exit status.

use serde_json::Value;

use crate::support::{TestRepo, fake_tests};

/// A Python project whose new test asserts a tautology, with `static` off
/// (no linter needed) and evidence given a passing test command.
fn project() -> TestRepo {
    let repo = TestRepo::new();
    repo.write("README.md", "# shop\n\nA cart that sums prices.\n")
        .write("pkg/__init__.py", "")
        .write("pkg/cart.py", "def total(xs):\n    return sum(xs)\n")
        .write(
            ".loki-gate.yaml",
            format!(
                "gates:\n  static:\n    enabled: false\n  evidence:\n    test-command: {}\n",
                serde_json::to_string(&fake_tests(2, 0)).unwrap()
            ),
        );
    repo.commit("base");
    repo.run(&["evidence", "start"]);
    repo.write(
        "tests/test_cart.py",
        "from pkg.cart import total\n\n\ndef test_total():\n    assert total([1]) == 1\n    assert True\n",
    );
    repo
}

fn gates(json: &Value) -> Vec<(String, String)> {
    json["gates"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| {
            (
                g["gate"].as_str().unwrap().to_string(),
                g["outcome"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

#[test]
fn every_enabled_gate_runs_into_one_report_with_the_worst_exit() {
    let repo = project();
    let run = repo.run(&["check", "--base", "HEAD", "--format", "json"]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let json: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(json["version"], 1);
    assert_eq!(json["outcome"], "blocked");
    let want: Vec<(String, String)> = [
        ("evidence", "pass"),
        ("mock", "blocked"),
        ("mutation", "pass"),
        ("docs", "pass"),
        ("uncertainty", "pass"),
    ]
    .iter()
    .map(|(g, o)| (g.to_string(), o.to_string()))
    .collect();
    assert_eq!(gates(&json), want, "static, heldout and council are off");
    let mock = &json["gates"][1]["findings"][0];
    assert_eq!(mock["rule"], "mock/tautological-assertion");

    // SARIF and text carry every gate too.
    let sarif: Value =
        serde_json::from_str(&repo.run(&["check", "--base", "HEAD", "--format", "sarif"]).stdout).unwrap();
    assert!(sarif["runs"].to_string().contains("mock/tautological-assertion"));
    let text = repo.run(&["check", "--base", "HEAD"]);
    for line in ["mock: blocked", "evidence: passed", "docs: passed"] {
        assert!(text.stdout.contains(line), "{line}\n{}", text.stdout);
    }
}

#[test]
fn gates_can_be_picked_and_staged_changes_gated() {
    let repo = project();
    let run = repo.run(&[
        "check",
        "--gates",
        "docs,mutation",
        "--base",
        "HEAD",
        "--format",
        "json",
    ]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let json: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(
        gates(&json).iter().map(|(g, _)| g.as_str()).collect::<Vec<_>>(),
        ["mutation", "docs"]
    );

    // The pre-commit hook: only what is staged.
    let run = repo.run(&["check", "--staged", "--gates", "mock", "--format", "json"]);
    assert_eq!(run.code, 0, "nothing staged yet: {}", run.stdout);
    repo.git(&["add", "tests/test_cart.py"]);
    let run = repo.run(&["check", "--staged", "--gates", "mock", "--format", "json"]);
    assert_eq!(run.code, 1, "{}", run.stdout);

    let run = repo.run(&["check", "--gates", "mock,typo"]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("unknown gate `typo`"), "{}", run.stderr);
}

#[test]
fn a_gate_that_cannot_run_is_reported_and_the_rest_still_run() {
    let repo = project();
    // The council is on but has no providers: it cannot run (exit 2), the others report anyway.
    repo.write(
        ".loki-gate.yaml",
        repo.read(".loki-gate.yaml") + "  council:\n    enabled: true\n",
    );
    let run = repo.run(&["check", "--base", "HEAD", "--format", "json"]);
    // mock's block outranks the council's error: exit 2 would read as "a tool problem".
    assert_eq!(run.code, 1, "{}", run.stdout);
    let json: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(json["outcome"], "blocked");
    let council = json["gates"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["gate"] == "council")
        .unwrap();
    assert!(
        council["error"]
            .as_str()
            .unwrap()
            .contains("the council has no providers")
    );
    assert!(gates(&json).contains(&("mock".to_string(), "blocked".to_string())));
}

#[test]
fn all_files_skips_the_gates_that_read_a_change_unless_named() {
    let repo = project();
    let run = repo.run(&["check", "--all-files", "--format", "json"]);
    assert_eq!(run.code, 1, "mock blocks; nothing errors: {}{}", run.stdout, run.stderr);
    let json: Value = serde_json::from_str(&run.stdout).unwrap();
    let uncertainty = json["gates"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["gate"] == "uncertainty")
        .unwrap();
    assert_eq!(uncertainty["outcome"], "pass");
    assert!(
        uncertainty["notices"][0]
            .as_str()
            .unwrap()
            .contains("--all-files has none: skipped")
    );
    assert!(
        !repo.path().join(".loki-gate/uncertainty.json").exists(),
        "no round was recorded"
    );
    // Asked for by name, it says why it cannot run.
    let named = repo.run(&["check", "--all-files", "--gates", "uncertainty"]);
    assert_eq!(named.code, 2);
    assert!(
        named.stdout.contains("drop --all-files"),
        "{}{}",
        named.stdout,
        named.stderr
    );
}

#[test]
fn evidence_with_no_test_command_is_inconclusive_in_check_and_an_error_when_named() {
    let repo = TestRepo::new();
    repo.write("README.md", "# notes\n\nPersonal notes, kept in git.\n")
        .write("notes.txt", "hello\n");
    repo.commit("notes");
    let run = repo.run(&["check", "--format", "json"]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let json: Value = serde_json::from_str(&run.stdout).unwrap();
    let evidence = json["gates"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["gate"] == "evidence")
        .unwrap();
    assert_eq!(evidence["outcome"], "inconclusive");
    assert!(run.stdout.contains("no test command found"), "{}", run.stdout);

    let named = repo.run(&["check", "--gates", "evidence"]);
    assert_eq!(
        named.code, 2,
        "asked for by name, it must run: {}{}",
        named.stdout, named.stderr
    );
    assert!(
        named.stdout.contains("no test command"),
        "{}{}",
        named.stdout,
        named.stderr
    );
}

/// The stdout lines of `loki-gate ARGS` in `repo`, each with when it came.
fn timed_lines(repo: &TestRepo, args: &[&str]) -> Vec<(std::time::Duration, String)> {
    use std::io::BufRead;
    let mut cmd = std::process::Command::new(assert_cmd::cargo::cargo_bin!("loki-gate"));
    crate::support::scrub_env(&mut cmd);
    let started = std::time::Instant::now();
    let mut child = cmd
        .args(args)
        .current_dir(repo.path())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let lines = std::io::BufReader::new(child.stdout.take().unwrap())
        .lines()
        .map(|l| (started.elapsed(), l.unwrap()))
        .collect();
    child.wait().unwrap();
    lines
}

/// Each gate's section is printed when it is final, in the fixed gate
/// order: a fast gate's result is on stdout while a slow one still runs.
#[test]
fn each_gate_s_result_is_printed_as_it_completes_in_a_fixed_order() {
    let slow = "  evidence:\n    test-command: \"sleep 4; echo '1 passed'\"\n";
    let repo = TestRepo::new();
    repo.write("README.md", "# shop\n\nA cart.\n")
        .write("pkg/cart.py", "def total(xs):\n    return sum(xs)\n")
        .write(".loki-gate.yaml", format!("gates:\n  static:\n    tools: []\n{slow}"));
    repo.commit("base");
    repo.write(
        "tests/test_cart.py",
        "from pkg.cart import total\n\n\ndef test_total():\n    assert True\n",
    );
    let lines = timed_lines(
        &repo,
        &["check", "--gates", "static,evidence,mock,docs", "--base", "HEAD"],
    );
    let at = |prefix: &str| {
        lines
            .iter()
            .find(|(_, l)| l.starts_with(prefix))
            .unwrap_or_else(|| panic!("no `{prefix}` line: {lines:?}"))
            .0
    };
    // static comes before the slow evidence: it is out long before;
    // mock and docs come after it: they wait for it, then follow at once.
    assert!(
        at("static: ") + std::time::Duration::from_secs(2) < at("evidence: "),
        "{lines:?}"
    );
    assert!(at("evidence: ") >= std::time::Duration::from_secs(4), "{lines:?}");
    let order: Vec<&str> = lines
        .iter()
        .filter_map(|(_, l)| {
            ["static: ", "evidence: ", "mock: ", "docs: ", "loki-gate: "]
                .into_iter()
                .find(|p| l.starts_with(p))
        })
        .collect();
    assert_eq!(
        order,
        ["static: ", "evidence: ", "mock: ", "docs: ", "loki-gate: "],
        "{lines:?}"
    );
}

/// `check PATH...` gates those files whole, as each gate's own command does
/// (issue 56); with `--base` or `--staged` it says which to drop.
#[test]
fn check_takes_paths_as_the_gate_commands_do() {
    let repo = crate::support::TestRepo::new();
    repo.write("tests/test_a.py", "def test_x():\n    assert True\n")
        .write("other/test_b.py", "def test_y():\n    assert True\n");
    repo.commit("base");
    let run = repo.run(&["check", "tests", "--gates", "mock", "--format", "json"]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let paths: Vec<String> = run
        .findings()
        .iter()
        .map(|f| f.rsplit(' ').next().unwrap_or("").to_string())
        .collect();
    assert!(paths.iter().all(|p| p.starts_with("tests/test_a.py")), "{paths:?}");
    let run = repo.run(&["check", "tests", "--base", "HEAD"]);
    assert_eq!(run.code, 2);
    assert_eq!(
        run.stderr,
        "error: check PATH gates those files whole: drop --staged and --base, or the paths\n"
    );
}
