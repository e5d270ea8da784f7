//! Commands besides the gates, global options and exit codes.

use crate::support::{TestRepo, fake_tests};

#[test]
fn help_lists_only_commands_that_work() {
    let repo = TestRepo::new();
    let run = repo.run(&["--help"]);
    assert_eq!(run.code, 0);
    for real in [
        "static",
        "evidence",
        "mock",
        "mutation",
        "docs",
        "council",
        "heldout",
        "uncertainty",
        "check",
        "comment",
        "hook",
        "rules",
        "explain",
        "init",
    ] {
        assert!(run.stdout.contains(real), "{real} missing from --help");
    }
}

#[test]
fn a_usage_error_is_exit_2() {
    let repo = TestRepo::new();
    assert_eq!(repo.run(&["evidence", "--format", "yaml"]).code, 2);
    assert_eq!(repo.run(&["no-such-gate"]).code, 2);
    assert_eq!(repo.run(&["--version"]).code, 0);
}

#[test]
fn rules_lists_every_rule_with_its_default_level() {
    let repo = TestRepo::new();
    let run = repo.run(&["rules"]);
    insta::assert_snapshot!(run.snapshot(&repo));
    let run = repo.run(&["rules", "--format", "json"]);
    let list: Vec<serde_json::Value> = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(list.len(), loki_gate::gates::rules().len());
    assert!(
        list.iter()
            .all(|r| r["id"].is_string() && r["default_level"].is_string())
    );
}

#[test]
fn explain_prints_a_rule_doc_or_names_the_fix() {
    let repo = TestRepo::new();
    let run = repo.run(&["explain", "evidence/empty-diff"]);
    assert_eq!(run.code, 0);
    assert!(run.stdout.starts_with("# evidence/empty-diff\n"));
    assert!(run.stdout.contains("## Why is this bad?"));
    let run = repo.run(&["explain", "evidence/nope"]);
    assert_eq!(run.code, 2);
    assert_eq!(
        run.stderr,
        "error: unknown rule `evidence/nope`: run `loki-gate rules` to list rule ids\n"
    );
    // A stem of the rule's name is enough to be shown the way (issue 56).
    let run = repo.run(&["explain", "mock/tautology"]);
    assert_eq!(run.code, 2);
    assert_eq!(
        run.stderr,
        "error: unknown rule `mock/tautology`: did you mean `mock/tautological-assertion`? (`loki-gate rules` lists them)\n"
    );
}

#[test]
fn init_writes_a_valid_config_and_never_overwrites_without_force() {
    let repo = TestRepo::new();
    let run = repo.run(&["init"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let written = repo.read(".loki-gate.yaml");
    assert!(written.contains("test-command: null") && written.contains("# evidence/empty-diff: deny"));
    repo.write(".loki-gate.yaml", "base: main\n");
    let run = repo.run(&["init"]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains("already exists: edit it, or pass --force"),
        "{}",
        run.stderr
    );
    assert_eq!(repo.read(".loki-gate.yaml"), "base: main\n", "untouched");
    assert_eq!(repo.run(&["init", "--force"]).code, 0);
    assert_eq!(repo.read(".loki-gate.yaml"), written);
    // The written file is accepted as it is.
    repo.run(&["evidence", "start"]);
    repo.write("a.txt", "a\n");
    assert_eq!(repo.run(&["evidence", "--test-command", &fake_tests(1, 0)]).code, 0);
}

#[test]
fn levels_from_the_command_line_override_defaults_and_config() {
    let repo = TestRepo::new();
    repo.run(&["evidence", "start"]);
    let red = fake_tests(0, 1);
    // -W turns a deny rule into a warning: the run no longer blocks.
    let run = repo.run(&["evidence", "-W", "evidence/empty-diff", "--test-command", &red]);
    assert_eq!(run.code, 0, "{}", run.stdout);
    assert!(run.stdout.contains("warning[evidence/empty-diff]"));
    // A whole gate can be allowed; a rule setting beats the gate setting.
    let run = repo.run(&[
        "evidence",
        "-A",
        "evidence",
        "-D",
        "evidence/empty-diff",
        "--test-command",
        &red,
    ]);
    assert_eq!(run.code, 1);
    // Config rules: apply too, and the command line beats them.
    repo.write(".loki-gate.yaml", "rules:\n  evidence/empty-diff: allow\n");
    repo.commit("config");
    repo.run(&["evidence", "start"]);
    assert_eq!(repo.run(&["evidence", "--test-command", &red]).code, 0);
    assert_eq!(
        repo.run(&["evidence", "-D", "evidence", "--test-command", &red]).code,
        1
    );
}

#[test]
fn an_unknown_rule_on_the_command_line_is_exit_2() {
    let repo = TestRepo::new();
    let run = repo.run(&["evidence", "-D", "evidence/nope", "-A", "mock/x"]);
    assert_eq!(run.code, 2);
    assert_eq!(
        run.stderr,
        "error: unknown rule or gate `mock/x`, `evidence/nope`: run `loki-gate rules` to list them\n"
    );
}

#[test]
fn output_goes_to_a_file_when_asked() {
    let repo = TestRepo::new();
    repo.run(&["evidence", "start"]);
    let run = repo.run(&[
        "evidence",
        "--format",
        "json",
        "-o",
        "out/report.json",
        "--test-command",
        "true",
    ]);
    assert_eq!(run.code, 1);
    assert_eq!(run.stdout, "");
    let report: serde_json::Value = serde_json::from_str(&repo.read("out/report.json")).unwrap();
    assert_eq!(report["outcome"], "blocked");
}

#[test]
fn colour_only_when_asked_or_on_a_terminal_without_no_color() {
    let repo = TestRepo::new();
    let args = ["evidence", "--test-command", "true"];
    assert!(!repo.run(&args).stdout.contains('\x1b'), "not a terminal");
    let forced = repo.run(&["evidence", "--color", "always", "--test-command", "true"]);
    assert!(
        forced.stdout.contains("\x1b[1;33mwarning\x1b[0m"),
        "{:?}",
        forced.stdout
    );
    let never = repo.run_env(
        &["evidence", "--color", "auto", "--test-command", "true"],
        &[("NO_COLOR", "1")],
    );
    assert!(!never.stdout.contains('\x1b'));
    assert!(loki_gate::report::use_color(
        loki_gate::cli::ColorChoice::Auto,
        true,
        false
    ));
    assert!(!loki_gate::report::use_color(
        loki_gate::cli::ColorChoice::Auto,
        true,
        true
    ));
    assert!(!loki_gate::report::use_color(
        loki_gate::cli::ColorChoice::Auto,
        false,
        false
    ));
}

#[test]
fn quiet_drops_the_summary_and_verbose_adds_timings() {
    let repo = TestRepo::new();
    repo.run(&["evidence", "start"]);
    repo.write("a.txt", "a\n");
    let quiet = repo.run(&["evidence", "-q", "--test-command", &fake_tests(1, 0)]);
    assert_eq!(quiet.stdout, "");
    let verbose = repo.run(&["evidence", "-v", "--test-command", &fake_tests(1, 0)]);
    assert!(verbose.stdout.contains(" ms)"), "{}", verbose.stdout);
}

#[test]
fn a_baseline_hides_known_findings_and_reports_new_ones() {
    let repo = TestRepo::new();
    repo.run(&["evidence", "start"]);
    let run = repo.run(&[
        "evidence",
        "--write-baseline",
        ".loki-gate/baseline.json",
        "--test-command",
        "true",
    ]);
    assert_eq!(run.code, 0, "writing a baseline accepts today's findings");
    assert!(run.stderr.contains("wrote 1 finding fingerprint(s)"), "{}", run.stderr);
    let run = repo.run(&[
        "evidence",
        "--baseline",
        ".loki-gate/baseline.json",
        "--format",
        "json",
        "--test-command",
        "true",
    ]);
    assert_eq!(run.code, 0, "{}", run.stdout);
    let report: loki_gate::report::json::GateJson = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(report.summary.baselined, 1);
    let run = repo.run(&["evidence", "--baseline", "missing.json", "--test-command", "true"]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains("missing.json: create it with --write-baseline"),
        "{}",
        run.stderr
    );
}

/// A repository whose new test asserts a tautology (mock blocks it) and
/// whose README says something (docs passes).
fn hollow_test() -> TestRepo {
    let repo = TestRepo::shop();
    repo.write(
        "tests/test_shop.py",
        "from shop import total\n\n\ndef test_total():\n    result = total([1])\n    assert result == result\n",
    );
    repo.commit("a hollow test");
    repo
}

#[test]
fn exit_zero_reports_and_passes_and_fail_level_fails_on_warnings() {
    let repo = hollow_test();
    let blocked = repo.run(&["mock", "--base", "HEAD~1"]);
    assert_eq!(blocked.code, 1);

    // --exit-zero: the same findings, exit 0, and a line saying why.
    let zero = repo.run(&["mock", "--base", "HEAD~1", "--exit-zero"]);
    assert_eq!(zero.code, 0, "{}", zero.stderr);
    assert_eq!(zero.stdout, blocked.stdout);
    assert!(
        zero.stderr.contains("loki-gate: exit 0 instead of 1 (--exit-zero)"),
        "{}",
        zero.stderr
    );

    // The finding as a warning passes, unless warnings fail the run.
    let warned = repo.run(&["mock", "--base", "HEAD~1", "-W", "mock"]);
    assert_eq!(warned.code, 0, "{}", warned.stdout);
    let failing = repo.run(&["mock", "--base", "HEAD~1", "-W", "mock", "--fail-level", "warning"]);
    assert_eq!(failing.code, 1, "{}", failing.stderr);
    assert!(
        failing
            .stderr
            .contains("loki-gate: exit 1: 1 finding at warning level or above (--fail-level warning)"),
        "{}",
        failing.stderr
    );
    let as_before = repo.run(&["mock", "--base", "HEAD~1", "-W", "mock", "--fail-level", "error"]);
    assert_eq!(as_before.code, 0);

    // A run that could not run is still 2; the two flags do not mix.
    assert_eq!(repo.run(&["mock", "--base", "no-such-rev", "--exit-zero"]).code, 2);
    let both = repo.run(&["mock", "--exit-zero", "--fail-level", "warning"]);
    assert_eq!(both.code, 2);
    assert!(both.stderr.contains("cannot be used with"), "{}", both.stderr);
}

#[test]
fn check_ends_with_one_verdict_line_and_a_baseline_run_records_instead_of_blocking() {
    let repo = hollow_test();
    let run = repo.run(&["check", "--base", "HEAD~1", "--gates", "mock,docs"]);
    assert_eq!(run.code, 1);
    let last = run.stdout.lines().last().unwrap();
    assert_eq!(
        last, "loki-gate: blocked: 1 error, 0 warnings, 0 notes (mock blocked, docs passed)",
        "{}",
        run.stdout
    );

    let recorded = repo.run(&[
        "check",
        "--base",
        "HEAD~1",
        "--gates",
        "mock,docs",
        "--write-baseline",
        "baseline.json",
    ]);
    assert_eq!(recorded.code, 0, "{}", recorded.stderr);
    assert!(!recorded.stdout.contains("blocked"), "{}", recorded.stdout);
    assert!(
        recorded.stdout.contains("mock: recorded (1 error"),
        "{}",
        recorded.stdout
    );
    assert!(
        recorded
            .stdout
            .ends_with("loki-gate: recorded: 1 error, 0 warnings, 0 notes (mock recorded, docs recorded)\n"),
        "{}",
        recorded.stdout
    );
}

#[test]
fn help_lists_every_exit_status() {
    let run = TestRepo::new().run(&["--help"]);
    assert!(
        run.stdout
            .contains("Exit status: 0 passed, 1 blocked, 2 could not run, 3 escalated"),
        "{}",
        run.stdout
    );
}

#[test]
fn concise_puts_each_finding_on_one_line_and_statistics_counts_them_per_rule() {
    let repo = hollow_test();
    repo.write(
        "tests/test_more.py",
        "from shop import total\n\n\ndef test_more():\n    assert True\n\n\ndef test_again():\n    n = total([2])\n    assert n == n\n",
    );
    repo.commit("more");
    let concise = repo.run(&[
        "check",
        "--base",
        "HEAD~2",
        "--gates",
        "mock,docs",
        "--format",
        "concise",
    ]);
    assert_eq!(concise.code, 1);
    let findings: Vec<&str> = concise.stdout.lines().filter(|l| l.contains("error[mock/")).collect();
    assert_eq!(findings.len(), 3, "{}", concise.stdout);
    assert!(findings.iter().all(|l| l.starts_with("tests/test_")), "{findings:?}");
    assert!(!concise.stdout.contains(" | "), "no source lines: {}", concise.stdout);
    assert!(
        concise.stdout.ends_with("(mock blocked, docs passed)\n"),
        "{}",
        concise.stdout
    );

    let stats = repo.run(&["check", "--base", "HEAD~2", "--gates", "mock,docs", "--statistics"]);
    assert_eq!(stats.code, 1, "the verdict is the same");
    assert!(
        stats
            .stdout
            .starts_with("    3  error    mock/tautological-assertion\n\n"),
        "{}",
        stats.stdout
    );
    assert!(!stats.stdout.contains("tests/test_"), "{}", stats.stdout);
    let json = repo.run(&["mock", "--base", "HEAD~2", "--statistics", "--format", "json"]);
    let rows: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
    assert_eq!(
        rows,
        serde_json::json!([{"rule": "mock/tautological-assertion", "level": "error", "count": 3}])
    );
    let sarif = repo.run(&["mock", "--statistics", "--format", "sarif"]);
    assert_eq!(sarif.code, 2);
    assert!(
        sarif
            .stderr
            .contains("--statistics counts findings in text, concise or json")
    );
}

#[test]
fn rules_filters_by_gate_and_a_typo_gets_the_nearest_name() {
    let repo = TestRepo::new();
    let mock = repo.run(&["rules", "mock"]);
    assert_eq!(mock.code, 0);
    let lines: Vec<&str> = mock.stdout.lines().collect();
    assert!(
        !lines.is_empty() && lines.iter().all(|l| l.starts_with("mock/")),
        "{}",
        mock.stdout
    );
    let all = repo.run(&["rules"]);
    assert!(all.stdout.lines().count() > lines.len());
    let json = repo.run(&["rules", "docs", "--format", "json"]);
    let list: Vec<serde_json::Value> = serde_json::from_str(&json.stdout).unwrap();
    assert!(!list.is_empty() && list.iter().all(|r| r["gate"] == "docs"));

    let typo = repo.run(&["rules", "mok"]);
    assert_eq!(typo.code, 2);
    assert!(
        typo.stderr.contains("no gate `mok`: did you mean `mock`?"),
        "{}",
        typo.stderr
    );
    let explain = repo.run(&["explain", "mock/tautological-assertio"]);
    assert_eq!(explain.code, 2);
    assert!(
        explain.stderr.contains("did you mean `mock/tautological-assertion`?"),
        "{}",
        explain.stderr
    );
    let flag = repo.run(&["mock", "-W", "mock/tautologcal-assertion"]);
    assert_eq!(flag.code, 2);
    assert!(
        flag.stderr.contains("(did you mean `mock/tautological-assertion`?)"),
        "{}",
        flag.stderr
    );
}

#[test]
fn every_level_has_one_other_spelling_in_the_config() {
    let repo = hollow_test();
    for (level, code) in [
        ("off", 0),
        ("allow", 0),
        ("warning", 0),
        ("warn", 0),
        ("error", 1),
        ("deny", 1),
    ] {
        repo.write(
            ".loki-gate.yaml",
            format!("rules:\n  mock/tautological-assertion: {level}\n"),
        );
        let run = repo.run(&["mock", "--base", "HEAD~1"]);
        assert_eq!(run.code, code, "{level}: {}{}", run.stdout, run.stderr);
    }
    repo.write(".loki-gate.yaml", "rules:\n  mock/tautological-assertion: 2\n");
    let run = repo.run(&["mock", "--base", "HEAD~1"]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr
            .contains("expected one of: allow (or off), note, warn (or warning), deny (or error)"),
        "{}",
        run.stderr
    );
}

#[test]
fn completions_load_in_bash_and_the_man_page_is_roff() {
    let repo = TestRepo::new();
    let script = repo.run(&["completions", "bash"]);
    assert_eq!(script.code, 0);
    let file = repo.path().join("loki-gate.bash");
    std::fs::write(&file, &script.stdout).unwrap();
    // Source it, then ask for what completes `loki-gate ch`.
    let probe = format!(
        "source '{}'; COMP_WORDS=(loki-gate ch); COMP_CWORD=1; COMP_LINE='loki-gate ch'; COMP_POINT=12; f=$(complete -p loki-gate | sed -n 's/.* -F \\([^ ]*\\).*/\\1/p'); \"$f\" loki-gate ch loki-gate; printf '%s\\n' \"${{COMPREPLY[@]}}\"",
        file.display()
    );
    let out = std::process::Command::new("bash")
        .arg("-c")
        .arg(&probe)
        .output()
        .unwrap();
    let words = String::from_utf8_lossy(&out.stdout);
    assert!(
        words.lines().any(|w| w == "check"),
        "{words}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(repo.run(&["completions", "nushell"]).code, 2);

    let man = repo.run(&["man"]);
    assert_eq!(man.code, 0);
    assert!(man.stdout.starts_with(".ie \\n(.g"), "{}", &man.stdout[..80]);
    assert!(man.stdout.contains(".TH loki-gate 1"));
    assert!(man.stdout.contains("Global options") || man.stdout.contains("GLOBAL OPTIONS"));
}

#[test]
fn show_settings_names_where_each_value_came_from_and_gates_nothing() {
    let repo = hollow_test();
    repo.write(
        ".loki-gate.yaml",
        "gates:\n  mock:\n    assertion-helpers: [check_total]\n",
    );
    let run = repo.run_env(
        &["mock", "--show-settings", "-W", "docs"],
        &[("LOKI_GATE_MOCK_LANGUAGES", "python")],
    );
    assert_eq!(run.code, 0, "nothing is gated: {}{}", run.stdout, run.stderr);
    let line = |place: &str| {
        run.stdout
            .lines()
            .find(|l| l.starts_with(&format!("{place} = ")))
            .unwrap_or_else(|| panic!("no {place}: {}", run.stdout))
            .to_string()
    };
    assert!(
        line("gates.mock.assertion-helpers").ends_with("# .loki-gate.yaml:3"),
        "{}",
        run.stdout
    );
    assert!(
        line("gates.mock.languages").ends_with("# environment LOKI_GATE_MOCK_LANGUAGES"),
        "{}",
        run.stdout
    );
    assert!(line("gates.mock.enabled").ends_with("# default"), "{}", run.stdout);
    assert!(line("rules.docs").ends_with("# command line -W"), "{}", run.stdout);
    assert!(
        !run.stdout.contains("gates.docs."),
        "only the gate asked about: {}",
        run.stdout
    );
    assert!(
        !run.stdout.contains("tautological"),
        "nothing was gated: {}",
        run.stdout
    );

    let json = repo.run(&["check", "--show-settings", "--format", "json"]);
    let settings: Vec<serde_json::Value> = serde_json::from_str(&json.stdout).unwrap();
    assert!(
        settings
            .iter()
            .any(|s| s["place"] == "gates.docs.enabled" && s["source"] == "default")
    );
    assert!(settings.iter().any(|s| s["place"] == "gates.mock.assertion-helpers"
        && s["value"] == "[\"check_total\"]"
        && s["source"] == ".loki-gate.yaml:3"));
    let rules = repo.run(&["rules", "--show-settings"]);
    assert_eq!(rules.code, 2);
    assert!(
        rules.stderr.contains("--show-settings goes with a gate or `check`"),
        "{}",
        rules.stderr
    );
}

#[test]
fn a_gate_given_paths_gates_those_files_whole() {
    let repo = hollow_test();
    repo.write(
        "other/test_other.py",
        "from shop import total\n\n\ndef test_other():\n    assert True\n",
    );
    repo.commit("another hollow test");
    // The file alone: its finding, not the other file's.
    let one = repo.run(&["mock", "tests/test_shop.py", "--format", "json"]);
    assert_eq!(one.code, 1, "{}", one.stderr);
    let report = one.json();
    let paths: Vec<&str> = report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["path"].as_str().unwrap())
        .collect();
    assert_eq!(paths, ["tests/test_shop.py"]);
    // A directory is its tracked files; `.` is the repository.
    let dir = repo.run(&["mock", "other", "--format", "json"]).json();
    assert_eq!(dir["findings"][0]["path"], "other/test_other.py");
    let all = repo.run(&["mock", ".", "--format", "json"]).json();
    let mut paths: Vec<&str> = all["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["path"].as_str().unwrap())
        .collect();
    paths.dedup();
    assert_eq!(paths, ["other/test_other.py", "tests/test_shop.py"], "{all}");
    // A typo, or a path with a change to compare, is exit 2 naming the fix.
    let typo = repo.run(&["mock", "test/"]);
    assert_eq!(typo.code, 2);
    assert!(
        typo.stderr.contains("test/ names no file git tracks"),
        "{}",
        typo.stderr
    );
    let both = repo.run(&["mock", "--staged", "tests"]);
    assert_eq!(both.code, 2);
    assert!(
        both.stderr.contains("drop --staged and --base, or the paths"),
        "{}",
        both.stderr
    );
}

/// A command that runs no gate does not list the options only gate runs
/// read; a gate's help lists them all.
#[test]
fn help_leaves_out_the_options_a_command_ignores() {
    let repo = TestRepo::new();
    for args in [
        &["rules", "--help"][..],
        &["rules", "-h"],
        &["hook", "install", "--help"],
        &["schema", "-h"],
    ] {
        let run = repo.run(args);
        assert_eq!(run.code, 0, "{args:?}: {}", run.stderr);
        assert!(run.stdout.contains("Usage: loki-gate"), "{args:?}: {}", run.stdout);
        for ignored in [
            "--base",
            "--staged",
            "--baseline",
            "--exit-zero",
            "--deny",
            "--state-dir",
            "--no-cache",
        ] {
            assert!(
                !run.stdout.contains(ignored),
                "{args:?} lists {ignored}: {}",
                run.stdout
            );
        }
        assert!(run.stdout.contains("--quiet"), "{args:?}: {}", run.stdout);
    }
    let rules = repo.run(&["rules", "--help"]);
    assert!(rules.stdout.contains("--format"), "rules has formats: {}", rules.stdout);
    let install = repo.run(&["hook", "install", "--help"]);
    assert!(!install.stdout.contains("--format"), "{}", install.stdout);
    let mock = repo.run(&["mock", "--help"]);
    for used in ["--base", "--staged", "--baseline", "--exit-zero", "--deny", "--format"] {
        assert!(mock.stdout.contains(used), "mock --help lacks {used}: {}", mock.stdout);
    }
    // Still accepted where ignored, as before.
    assert_eq!(repo.run(&["rules", "--base", "HEAD"]).code, 0);
}

/// The bash completion completes after a subcommand in a real bash: the
/// values of `check --format`, and `hook`'s own subcommands (issue 56).
#[test]
fn bash_completes_after_a_subcommand() {
    let script = loki_gate::commands::completions::completion_script(clap_complete::Shell::Bash);
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("loki-gate.bash");
    std::fs::write(&file, script).unwrap();
    let complete = |words: &[&str]| -> Vec<String> {
        // What bash's programmable completion does on TAB after `words`.
        let line = words.join(" ");
        let quoted: Vec<String> = words.iter().map(|w| format!("'{w}'")).collect();
        let probe = format!(
            "source '{}'\nCOMP_WORDS=({})\nCOMP_CWORD={}\nCOMP_LINE='{line}'\nCOMP_POINT=${{#COMP_LINE}}\n_loki__gate loki-gate '{}' '{}'\nprintf '%s\\n' \"${{COMPREPLY[@]}}\"\n",
            file.display(),
            quoted.join(" "),
            words.len() - 1,
            words[words.len() - 1],
            words[words.len() - 2],
        );
        let out = std::process::Command::new("bash")
            .arg("-c")
            .arg(probe)
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .map(str::to_string)
            .collect()
    };
    assert_eq!(
        complete(&["loki-gate", "check", "--format", ""]),
        [
            "text", "concise", "json", "junit", "sarif", "github", "gitlab", "markdown", "agent"
        ]
    );
    assert!(complete(&["loki-gate", "check", "--ga"]).contains(&"--gates".to_string()));
    assert!(complete(&["loki-gate", "hook", ""]).contains(&"install".to_string()));
}
