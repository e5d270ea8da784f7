//! Bad input gets a one-line error naming the file and the fix, and loses nothing.

use crate::support::{TestRepo, fake_tests};

#[test]
fn outside_a_repository_is_exit_2_with_the_fix() {
    let dir = tempfile::tempdir().unwrap();
    let run = crate::support::run_cmd(crate::support::binary().current_dir(dir.path()).args(["evidence"]));
    assert_eq!(run.code, 2);
    assert!(
        run.stderr
            .contains("is not inside a git repository: run loki-gate from a repository, pass -C <dir>"),
        "{}",
        run.stderr
    );
    assert_eq!(run.stderr.lines().count(), 1);
}

#[test]
fn a_repo_dir_that_does_not_exist_is_exit_2() {
    let repo = TestRepo::new();
    let run = repo.run(&["-C", "no/such/dir", "evidence"]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains("does not exist: check the path given to -C/--repo"),
        "{}",
        run.stderr
    );
}

#[test]
fn dash_c_finds_the_repository_from_a_subdirectory() {
    let repo = TestRepo::new();
    repo.write("deep/er/file.txt", "x\n");
    let outside = tempfile::tempdir().unwrap();
    let target = repo.path().join("deep/er");
    let mut cmd = crate::support::binary();
    cmd.current_dir(outside.path())
        .args(["-C", target.to_str().unwrap(), "evidence", "start"]);
    assert_eq!(crate::support::run_cmd(&mut cmd).code, 0);
    assert!(
        repo.path().join(".loki-gate/run.json").is_file(),
        "state lives at the repository root"
    );
}

#[test]
fn a_corrupt_state_file_is_exit_2_and_left_untouched() {
    let repo = TestRepo::new();
    repo.write(".loki-gate/run.json", "{\"version\": 1, \"anchor\": ");
    for args in [&["evidence", "start"][..], &["evidence", "--test-command", "true"][..]] {
        let run = repo.run(args);
        assert_eq!(run.code, 2, "{args:?}");
        assert!(run.stderr.contains(".loki-gate/run.json is corrupt"), "{}", run.stderr);
        assert!(
            run.stderr.contains("delete it and run `loki-gate evidence start`"),
            "{}",
            run.stderr
        );
    }
    assert_eq!(repo.read(".loki-gate/run.json"), "{\"version\": 1, \"anchor\": ");
}

#[test]
fn a_state_file_from_a_newer_version_is_exit_2() {
    let repo = TestRepo::new();
    repo.write(".loki-gate/run.json", "{\"version\": 7}");
    let run = repo.run(&["evidence", "start"]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr
            .contains("has version 7, this loki-gate reads version 1: upgrade loki-gate"),
        "{}",
        run.stderr
    );
}

#[test]
fn an_unreadable_results_file_is_exit_2_naming_it() {
    let repo = TestRepo::new();
    repo.run(&["evidence", "start"]);
    repo.write("a.txt", "a\n");
    std::fs::create_dir_all(repo.path().join("results.xml")).unwrap();
    let run = repo.run(&["evidence", "--results", "results.xml"]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains("could not read test results results.xml"),
        "{}",
        run.stderr
    );
    let run = repo.run(&["evidence", "--results", "missing.xml"]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("could not read test results"), "{}", run.stderr);
}

#[test]
fn a_results_file_in_an_unknown_format_is_exit_2() {
    let repo = TestRepo::new();
    repo.run(&["evidence", "start"]);
    repo.write("a.txt", "a\n");
    repo.write("results.txt", "hello\n");
    let run = repo.run(&["evidence", "--results", "results.txt"]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("unrecognised format"), "{}", run.stderr);
    repo.write("results.xml", "<testsuite><testcase name='x'>");
    let run = repo.run(&["evidence", "--results", "results.xml"]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("invalid JUnit XML"), "{}", run.stderr);
}

#[test]
fn machine_formats_still_get_a_report_when_the_gate_cannot_run() {
    let repo = TestRepo::new();
    repo.run(&["evidence", "start"]);
    repo.write("a.txt", "a\n");
    let run = repo.run(&["evidence", "--format", "json", "--results", "nope.xml"]);
    assert_eq!(run.code, 2);
    let report: loki_gate::report::json::GateJson = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(report.outcome, loki_gate::report::Outcome::Error);
    assert!(report.error.unwrap().contains("nope.xml"));
}

#[test]
fn non_utf8_file_names_and_contents_count_as_changes() {
    use std::os::unix::ffi::OsStrExt;
    let repo = TestRepo::new();
    repo.run(&["evidence", "start"]);
    let name = std::ffi::OsStr::from_bytes(b"caf\xe9.txt");
    std::fs::write(repo.path().join(name), b"\xff\xfe not utf-8\n").unwrap();
    let run = repo.run(&["evidence", "--format", "json", "--test-command", &fake_tests(1, 0)]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
}

#[test]
fn concurrent_evidence_starts_never_leave_a_half_written_file() {
    let repo = TestRepo::new();
    let children: Vec<_> = (0..8)
        .map(|_| {
            let mut cmd = repo.cmd();
            cmd.args(["evidence", "start"])
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::piped());
            cmd.spawn().unwrap()
        })
        .collect();
    for child in children {
        let out = child.wait_with_output().unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    }
    let state: serde_json::Value = serde_json::from_str(&repo.read(".loki-gate/run.json")).unwrap();
    assert_eq!(state["version"], 1);
    assert!(state["anchor"]["commit"].is_string());
    let leftovers: Vec<_> = std::fs::read_dir(repo.path().join(".loki-gate"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains("tmp"))
        .collect();
    assert!(leftovers.is_empty(), "temp files left: {leftovers:?}");
}

#[test]
fn evidence_start_waits_for_the_lock_held_by_another_process() {
    let repo = TestRepo::new();
    std::fs::create_dir_all(repo.path().join(".loki-gate")).unwrap();
    let lock = std::fs::File::create(repo.path().join(".loki-gate/run.json.lock")).unwrap();
    lock.lock().unwrap();
    let mut child = repo
        .cmd()
        .args(["evidence", "start"])
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(400));
    assert!(
        child.try_wait().unwrap().is_none(),
        "start must wait while the lock is held"
    );
    assert!(!repo.path().join(".loki-gate/run.json").exists());
    lock.unlock().unwrap();
    assert!(child.wait().unwrap().success());
    assert!(repo.path().join(".loki-gate/run.json").exists());
}

#[test]
fn an_unknown_base_is_exit_2_even_for_a_gate_that_does_not_use_it() {
    let repo = TestRepo::new();
    let run = repo.run(&["evidence", "--base", "origin/nope"]);
    assert_eq!(run.code, 2);
    assert_eq!(
        run.stderr,
        "error: unknown base revision `origin/nope`: fetch it (`git fetch origin`) or pass an existing revision\n"
    );
}

#[test]
fn a_shallow_clone_names_the_fetch_to_run_when_the_base_is_missing() {
    let upstream = TestRepo::new();
    for n in 0..3 {
        upstream.write("a.txt", format!("{n}\n"));
        upstream.commit("more");
    }
    let parent = tempfile::tempdir().unwrap();
    let url = format!("file://{}", upstream.path().display());
    crate::support::git_in(parent.path(), &["clone", "-q", "--depth", "1", &url, "clone"]);
    let mut cmd = crate::support::binary();
    cmd.current_dir(parent.path().join("clone"))
        .args(["evidence", "--base", "HEAD~2"]);
    let run = crate::support::run_cmd(&mut cmd);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr
            .contains("it is not in this shallow clone: fetch it (`git fetch origin <branch>`), then fetch the history (`git fetch --deepen=200`"),
        "{}",
        run.stderr
    );
    // The evidence gate itself works in a shallow clone.
    let mut cmd = crate::support::binary();
    cmd.current_dir(parent.path().join("clone")).args(["evidence", "start"]);
    assert_eq!(crate::support::run_cmd(&mut cmd).code, 0);
}

/// Settings from the environment are held to the file's standard (issue 25):
/// a typo in a variable name or a bad value is exit 2 naming the variable,
/// never silently ignored, and clap's error never blames a flag nobody passed.
#[test]
fn environment_settings_with_typos_or_bad_values_are_named() {
    let repo = TestRepo::new();
    let run = repo.run_env(&["mock"], &[("LOKI_GATE_MOCK_ENABELD", "false")]);
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stderr.contains(
            "environment variable LOKI_GATE_MOCK_ENABELD: not a loki-gate setting; did you mean LOKI_GATE_MOCK_ENABLED?"
        ),
        "{}",
        run.stderr
    );
    // The master switch and the variables that stand in for flags are known.
    let run = repo.run_env(&["mock"], &[("LOKI_GATE_MOCK", "1"), ("LOKI_GATE_BIN", "loki-gate")]);
    assert_eq!(run.code, 0, "{}", run.stderr);

    let run = repo.run_env(&["mock"], &[("LOKI_GATE_NO_CACHE", "banana")]);
    assert_eq!(run.code, 2);
    assert_eq!(
        run.stderr,
        "error: LOKI_GATE_NO_CACHE=banana is not valid: set it to true or false (1/0, yes/no, on/off), or unset it\n"
    );
    let run = repo.run_env(&["evidence", "start"], &[("LOKI_GATE_STATE_DIR", "")]);
    assert_eq!(run.code, 2);
    assert_eq!(
        run.stderr,
        "error: LOKI_GATE_STATE_DIR is set but empty: unset it, or set it to a directory\n"
    );
}

#[test]
fn a_config_that_is_a_directory_or_a_device_says_so() {
    let repo = TestRepo::new();
    std::fs::create_dir_all(repo.path().join("conf")).unwrap();
    let run = repo.run(&["mock", "--config", "conf"]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains("conf is a directory: name the config file in it"),
        "{}",
        run.stderr
    );
    let run = repo.run(&["mock", "--config", "/dev/null"]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr
            .contains("--config /dev/null is not a regular file (a device or a pipe)"),
        "{}",
        run.stderr
    );
}

/// A config past the parser's limits is named as a size problem (with the
/// limit reached and the line), never as a syntax error; a huge file is
/// refused before it is parsed.
#[test]
fn an_alias_bomb_or_a_huge_config_is_a_size_problem_not_syntax() {
    let repo = TestRepo::new();
    let mut bomb = String::from("a: &a [x, x, x, x, x, x, x, x, x]\n");
    for (prev, name) in ('a'..='k').zip('b'..='l') {
        let refs = vec![format!("*{prev}"); 9].join(", ");
        bomb.push_str(&format!("{name}: &{name} [{refs}]\n"));
    }
    repo.write(".loki-gate.yaml", &bomb);
    let run = repo.run(&["mock"]);
    assert_eq!(run.code, 2);
    let first = run.stderr.lines().next().unwrap_or_default();
    assert!(
        first.starts_with("error: .loki-gate.yaml:")
            && first.contains("the document is past the parser's size limits:"),
        "{}",
        run.stderr
    );
    assert!(
        first.contains("remove the anchors and aliases that expand it"),
        "{first}"
    );
    assert!(
        !run.stderr.contains("syntax") && !run.stderr.contains("Nodes {"),
        "{}",
        run.stderr
    );

    repo.write(".loki-gate.yaml", "# a comment\n".repeat(100_000));
    let run = repo.run(&["mock"]);
    assert_eq!(run.code, 2);
    assert_eq!(
        run.stderr,
        "error: config file .loki-gate.yaml is larger than 1 MiB, the most a config may be: is it the right file? A loki-gate config is a few KiB (`loki-gate init` writes one)\n"
    );
}

/// Files loki-gate cannot read or write for lack of permission are named
/// with the fix, in plain words: never libgit2's "'…' is locked" with its
/// `class=` suffix, never a state file error without the way out.
#[test]
fn unreadable_git_files_and_a_read_only_state_dir_are_named_with_the_fix() {
    use std::os::unix::fs::PermissionsExt;
    let repo = TestRepo::new();
    repo.write("README.md", "# shop\n\nA cart.\n");
    repo.commit("base");
    let chmod = |rel: &str, mode: u32| {
        std::fs::set_permissions(repo.path().join(rel), std::fs::Permissions::from_mode(mode)).unwrap();
    };
    let probe = repo
        .run_unprivileged(&["--version"])
        .expect("permissions must bind: run the tests as a user, or as root with setpriv (util-linux)");
    assert_eq!(probe.code, 0, "{}", probe.stderr);

    for (file, mode) in [(".git/index", 0o644), (".git/HEAD", 0o644)] {
        chmod(file, 0o000);
        let run = repo.run_unprivileged(&["mock"]).unwrap();
        chmod(file, mode);
        assert_eq!(run.code, 2, "{file}: {}", run.stderr);
        let path = repo.path().join(file);
        assert!(
            run.stderr.contains(&format!(
                "permission denied reading {}: make it readable by the user running loki-gate",
                path.display()
            )),
            "{file}: {}",
            run.stderr
        );
        assert!(
            !run.stderr.contains("class=") && !run.stderr.contains("is locked"),
            "{}",
            run.stderr
        );
    }

    // A changed file git cannot read costs its line detail, with the reason.
    repo.write("README.md", "# shop\n\nA cart, with a longer story.\n");
    chmod("README.md", 0o000);
    let run = repo.run_unprivileged(&["docs"]).unwrap();
    chmod("README.md", 0o644);
    let all = format!("{}{}", run.stdout, run.stderr);
    assert!(all.contains("README.md: permission denied reading"), "{all}");
    // An unreadable README is skipped, not judged empty.
    assert!(all.contains("skipped README.md: could not read it"), "{all}");
    assert!(!all.contains("readme-missing"), "{all}");

    std::fs::create_dir_all(repo.path().join(".loki-gate")).unwrap();
    chmod(".loki-gate", 0o555);
    let run = repo.run_unprivileged(&["evidence", "start"]).unwrap();
    chmod(".loki-gate", 0o755);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("Permission denied"), "{}", run.stderr);
    assert!(
        run.stderr.contains(&format!(
            "; the state directory must be writable: fix the permissions of {}, or point --state-dir (or LOKI_GATE_STATE_DIR) at a writable directory",
            repo.path().join(".loki-gate").display()
        )),
        "{}",
        run.stderr
    );
}

/// Every report loki-gate reads from the command line, nested 100,000
/// deep, is exit 2 with one line naming the file (issue 54: JUnit XML or
/// Cobertura nested 20,000 deep aborted with a stack overflow, exit 134).
#[test]
fn reports_nested_100000_deep_are_exit_2_naming_the_file() {
    const N: usize = 100_000;
    let repo = TestRepo::new();
    repo.write(".gitignore", "reports/\n");
    repo.write(
        ".loki-gate.yaml",
        "gates:\n  static:\n    tools: []\n    custom:\n      - name: scanner\n        sarif: reports/scan.sarif\n",
    );
    repo.commit("base");
    repo.run(&["evidence", "start"]);
    repo.write("app.py", "x = 1\n");
    let deep = |open: &str, close: &str| format!("{}{}", open.repeat(N), close.repeat(N));
    let junit = "<testsuites><testsuite name=\"s\"><testcase name=\"t\"/></testsuite></testsuites>";
    repo.write("reports/ok.xml", junit);
    repo.write(
        "reports/junit.xml",
        format!(
            "<testsuites><testsuite name=\"s\">{}</testsuite></testsuites>",
            deep("<a>", "</a>")
        ),
    );
    repo.write(
        "reports/pytest.json",
        format!("{{\"summary\": {{}}, \"tests\": {}}}", deep("[", "]")),
    );
    repo.write(
        "reports/cobertura.xml",
        format!(
            "<?xml version=\"1.0\"?><coverage>{}</coverage>",
            deep("<a x=\"/>\">", "</a>")
        ),
    );
    repo.write(
        "reports/coverage.json",
        format!(
            "{{\"meta\": {{}}, \"files\": {}1{}}}",
            "{\"a\": ".repeat(N),
            "}".repeat(N)
        ),
    );
    repo.write(
        "reports/report.json",
        format!("{{\"version\": 1, \"gates\": {}}}", deep("[", "]")),
    );
    repo.write(
        "reports/scan.sarif",
        format!("{{\"version\": \"2.1.0\", \"runs\": {}}}", deep("[", "]")),
    );
    let cases: &[(&[&str], &str, &str)] = &[
        (
            &["evidence", "--results", "reports/junit.xml"],
            "could not read test results reports/junit.xml: ",
            "elements nest more than 256 levels deep",
        ),
        (
            &["evidence", "--results", "reports/pytest.json"],
            "could not read test results reports/pytest.json: ",
            "JSON nested more than 128 levels deep",
        ),
        (
            &[
                "evidence",
                "--results",
                "reports/ok.xml",
                "--coverage",
                "reports/cobertura.xml",
            ],
            "coverage report reports/cobertura.xml: ",
            "elements nest more than 256 levels deep",
        ),
        (
            &[
                "evidence",
                "--results",
                "reports/ok.xml",
                "--coverage",
                "reports/coverage.json",
            ],
            "coverage report reports/coverage.json: ",
            "JSON nested more than 128 levels deep",
        ),
        (
            &["render", "--report", "reports/report.json"],
            "reports/report.json",
            "recursion limit exceeded",
        ),
        (
            &["comment", "--report", "reports/report.json"],
            "reports/report.json",
            "recursion limit exceeded",
        ),
        (
            &["static", "--base", "HEAD"],
            "reports/scan.sarif",
            "not its JSON format",
        ),
    ];
    for (args, names, why) in cases {
        let run = repo.run(args);
        assert_eq!(run.code, 2, "{args:?}: {}{}", run.stdout, run.stderr);
        assert_eq!(run.stderr.lines().count(), 1, "{args:?}: {}", run.stderr);
        assert!(
            run.stderr.contains(names) && run.stderr.contains(why) && run.stderr.len() < 1000,
            "{args:?}: {}",
            run.stderr
        );
    }
    // The deepest the XML reader takes is far beyond any real report.
    let nested = |n: usize| {
        format!(
            "<testsuites><testsuite name=\"s\">{}<testcase name=\"t\"/>{}</testsuite></testsuites>",
            "<g>".repeat(n),
            "</g>".repeat(n)
        )
    };
    repo.write("reports/junit.xml", nested(250));
    let run = repo.run(&["evidence", "--results", "reports/junit.xml"]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
}
