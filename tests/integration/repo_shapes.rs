//! Repositories in the shapes people and CI really have (issue 25): sparse
//! checkouts, partial clones, odd file names. None of them may read as a
//! change that did not happen, or let a change pass unread.

use crate::support::TestRepo;

const README: &str = "# shop\n\nA cart that sums prices.\n";
const TEST: &str = "from shop.cart import total\n\n\ndef test_total():\n    assert total([1, 2]) == 3\n";

/// A small Python project (README, `shop/cart.py`, its test) written into `repo`.
fn shop(repo: &TestRepo) -> &TestRepo {
    repo.write("README.md", README)
        .write("shop/__init__.py", "")
        .write("shop/cart.py", "def total(xs):\n    return sum(xs)\n")
        .write("tests/test_cart.py", TEST)
}

/// A project whose tests and README a sparse checkout leaves out, with a
/// commit in the range that changed a file outside the cone.
fn sparse_project() -> (TestRepo, String) {
    let repo = TestRepo::new();
    shop(&repo).write("other/notes.txt", "1\n");
    let base = repo.commit("base");
    repo.write("other/notes.txt", "2\n");
    repo.commit("outside the cone");
    repo.git(&["sparse-checkout", "set", "--no-cone", "/shop/", "/other/"]);
    assert!(!repo.path().join("tests/test_cart.py").exists());
    assert!(!repo.path().join("README.md").exists());
    (repo, base)
}

#[test]
fn files_a_sparse_checkout_leaves_out_are_neither_deleted_nor_missing() {
    let (repo, base) = sparse_project();

    let run = repo.run(&["mutation", "--base", &base, "--format", "json"]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(
        run.findings().is_empty(),
        "tests outside the cone are not deleted: {:?}",
        run.findings()
    );
    assert!(
        !run.notices().iter().any(|n| n.contains("uncommitted changes")),
        "nothing is uncommitted: {:?}",
        run.notices()
    );

    let run = repo.run(&["docs", "--base", &base, "--format", "json"]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(run.findings().is_empty(), "{:?}", run.findings());
    assert!(
        run.notices()
            .contains(&"README.md is outside this sparse checkout: not checked".to_string()),
        "{:?}",
        run.notices()
    );

    // Right after `evidence start` nothing has changed.
    assert_eq!(repo.run(&["evidence", "start"]).code, 0);
    let run = repo.run(&[
        "evidence",
        "--test-command",
        "echo '1 passed, 0 failed'",
        "--format",
        "json",
    ]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert_eq!(run.findings(), vec!["evidence/empty-diff error -:0".to_string()]);
}

#[test]
fn a_committed_change_outside_the_cone_is_still_a_change() {
    let (repo, _) = sparse_project();
    let base = repo.git(&["rev-parse", "HEAD"]);
    // Bend the expectation in a commit made with the test outside the cone.
    repo.git(&["sparse-checkout", "disable"]);
    repo.write("shop/cart.py", "def total(xs):\n    return sum(xs) + 1\n")
        .write("tests/test_cart.py", TEST.replace("== 3", "== 4"));
    repo.commit("bend");
    repo.git(&["sparse-checkout", "set", "--no-cone", "/shop/", "/other/"]);
    let run = repo.run(&["mutation", "--base", &base, "--format", "json"]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert_eq!(
        run.findings(),
        vec!["mutation/assertion-value-changed error tests/test_cart.py:5".to_string()]
    );
}

/// A file marked skip-worktree is changed by what is on disk (issue 63:
/// `git update-index --skip-worktree` hid an agent's hollowed test), and
/// not deleted when it is absent (a sparse checkout's).
#[test]
fn a_file_marked_skip_worktree_is_changed_by_what_is_on_disk_and_not_deleted_by_its_absence() {
    let repo = TestRepo::new();
    shop(&repo);
    repo.commit("base");
    assert_eq!(repo.run(&["evidence", "start"]).code, 0);
    repo.git(&["update-index", "--skip-worktree", "tests/test_cart.py"]);
    repo.write("tests/test_cart.py", "def test_total():\n    assert True\n");
    let run = repo.run(&[
        "evidence",
        "--test-command",
        "echo '1 passed, 0 failed'",
        "--format",
        "json",
    ]);
    assert!(run.findings().is_empty(), "{:?}", run.findings());
    let run = repo.run(&["mock", "--base", "HEAD", "--format", "json"]);
    assert_eq!(
        run.findings(),
        vec![
            "mock/never-imports-subject error tests/test_cart.py:1".to_string(),
            "mock/tautological-assertion error tests/test_cart.py:2".to_string()
        ]
    );
    repo.remove("tests/test_cart.py");
    let run = repo.run(&["mutation", "--format", "json"]);
    assert!(run.findings().is_empty(), "{:?}", run.findings());
}

/// A clone made with `--filter=blob:none` fetches old blobs only when git
/// itself reads them: libgit2 cannot, so a missing blob must cost that file
/// its detail, not the run (issue 25; before, every gate died on it).
#[test]
fn a_partial_clone_gates_what_it_has_and_names_the_fetch_for_the_rest() {
    let upstream = TestRepo::new();
    upstream.git(&["config", "uploadpack.allowFilter", "true"]);
    shop(&upstream).write("logo.bin", [0u8, 1, 2, 3, 0, 255].repeat(500));
    let base = upstream.commit("base");
    upstream
        .write("shop/cart.py", "def total(xs):\n    return sum(xs) + 1\n")
        .write("tests/test_cart.py", TEST.replace("== 3", "== 4"));
    upstream.commit("bend the expectation with the code");
    upstream.write("README.md", format!("{README}\nMore.\n"));
    upstream.commit("docs");

    let parent = tempfile::tempdir().unwrap();
    let url = format!("file://{}", upstream.path().display());
    crate::support::git_in(parent.path(), &["clone", "-q", "--filter=blob:none", &url, "c"]);
    let dir = parent.path().join("c");
    let run = |args: &[&str]| {
        let mut cmd = crate::support::binary();
        crate::support::scrub_env(&mut cmd);
        crate::support::run_cmd(cmd.current_dir(&dir).args(args))
    };

    let mutation = run(&["mutation", "--base", &base, "--format", "json"]);
    assert_eq!(mutation.code, 1, "{}{}", mutation.stdout, mutation.stderr);
    let json = mutation.json();
    assert_eq!(json["findings"][0]["rule"], "mutation/inconclusive", "{json}");
    let why = json["inconclusive"].as_str().unwrap();
    // The base versions of the test and of the code, each counted once
    // however many times the run reads it.
    assert!(
        why.starts_with("2 version(s) ")
            && why.contains("not in this partial clone")
            && why.contains("tests/test_cart.py"),
        "{why}"
    );

    for gate in ["mock", "docs"] {
        let gated = run(&[gate, "--base", &base, "--format", "json"]);
        assert_eq!(gated.code, 0, "{gate}: {}{}", gated.stdout, gated.stderr);
    }
    let docs = run(&["docs", "--base", &base, "--format", "json"]);
    assert!(
        docs.notices()
            .iter()
            .any(|n| n.contains("their changed lines unknown") && n.contains("partial clone")),
        "{:?}",
        docs.notices()
    );

    // The fix the message names fetches what the range needs.
    let fetch = std::process::Command::new("git")
        .args(["log", "-p", "--format=", &format!("{base}..HEAD")])
        .current_dir(&dir)
        .output()
        .unwrap();
    assert!(fetch.status.success());
    let mutation = run(&["mutation", "--base", &base, "--format", "json"]);
    assert_eq!(
        mutation.findings(),
        vec!["mutation/assertion-value-changed error tests/test_cart.py:5".to_string()]
    );
}

/// One size cap (`max-file-bytes`) for every file every gate reads, in every
/// scope, history included (issue 25: a staged 50 MB test file ran for ten
/// minutes; the cap applied only to `--all-files` walks).
#[test]
fn one_size_cap_applies_to_every_read_in_every_scope() {
    let repo = TestRepo::new();
    shop(&repo).write(".loki-gate.yaml", "max-file-bytes: 4000\n");
    let base = repo.commit("base");
    let big = format!("{TEST}\n{}", "# padding\n".repeat(600));
    repo.write("tests/test_big.py", &big);
    repo.git(&["add", "-A"]);

    // Out of CI and pre-push, a test file of the change over the cap is a
    // warning (issue 54).
    let staged = repo.run(&["mock", "--staged", "--format", "json"]);
    assert_eq!(staged.code, 0, "{}{}", staged.stdout, staged.stderr);
    let too_large = staged.json()["findings"][0]["message"].as_str().unwrap().to_string();
    assert!(
        too_large.starts_with("tests/test_big.py is 6")
            && too_large.contains("bytes, over the 4000-byte size cap (max-file-bytes): its tests were not checked"),
        "{too_large}"
    );
    assert_eq!(
        staged.findings(),
        vec!["meta/file-too-large warning tests/test_big.py:0"]
    );

    let diff = repo.run(&["mock", "--base", &base, "--format", "json"]);
    assert_eq!(diff.code, 0, "{}{}", diff.stdout, diff.stderr);
    assert_eq!(diff.findings(), vec!["meta/file-too-large warning tests/test_big.py:0"]);

    repo.commit("big test");
    repo.write("tests/test_big.py", big.replace("== 3", "== 4"));
    repo.commit("bend it");
    let mutation = repo.run(&["mutation", "--base", &base, "--format", "json"]);
    assert_eq!(mutation.code, 0, "{}{}", mutation.stdout, mutation.stderr);
    assert!(
        mutation
            .notices()
            .iter()
            .any(|n| n.starts_with("tests/test_big.py is over the size cap in a version of the range")),
        "{:?}",
        mutation.notices()
    );
    assert_eq!(
        mutation.findings(),
        vec!["meta/file-too-large warning tests/test_big.py:0"]
    );

    // The environment sets it like any knob.
    let env = repo.run_env(
        &["mock", "--base", &base, "--format", "json"],
        &[("LOKI_GATE_MAX_FILE_BYTES", "100000")],
    );
    assert!(!env.stdout.contains("over the"), "{}", env.stdout);
}

/// A test file whose name is not UTF-8 is still a test file (issue 25:
/// `mock` and `mutation` checked 0 files and passed).
#[test]
fn test_files_with_names_that_are_not_utf8_are_checked() {
    use std::os::unix::ffi::OsStrExt;
    let repo = TestRepo::new();
    repo.write("README.md", README)
        .write("shop/__init__.py", "")
        .write("shop/cart.py", "def total(xs):\n    return sum(xs)\n");
    let name = std::ffi::OsStr::from_bytes(b"tests/test_caf\xe9.py");
    std::fs::create_dir_all(repo.path().join("tests")).unwrap();
    std::fs::write(repo.path().join(name), TEST).unwrap();
    let base = repo.commit("base");

    std::fs::write(repo.path().join(name), format!("{TEST}    assert True\n")).unwrap();
    let run = repo.run(&["mock", "--format", "json"]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert_eq!(
        run.findings(),
        vec!["mock/tautological-assertion error tests/test_caf\u{fffd}.py:6".to_string()]
    );
    repo.git(&["add", "-A"]);
    assert_eq!(repo.run(&["mock", "--staged"]).code, 1);

    std::fs::write(repo.path().join(name), TEST.replace("== 3", "== 4")).unwrap();
    repo.write("shop/cart.py", "def total(xs):\n    return sum(xs) + 1\n");
    repo.commit("bend");
    let run = repo.run(&["mutation", "--base", &base, "--format", "json"]);
    assert_eq!(
        run.findings(),
        vec!["mutation/assertion-value-changed error tests/test_caf\u{fffd}.py:5".to_string()]
    );
}

/// A test padded with comment lines under the size cap is read in linear
/// time, and judged (issue 63): tree-sitter-python's scanner read a run of
/// comment lines again at each of them, so 30,000 of them (1.7 MB) took
/// minutes, and two such files held the agent's stop past its timeout.
#[test]
fn a_test_padded_with_comment_lines_under_the_cap_is_judged() {
    let repo = TestRepo::new();
    shop(&repo);
    repo.commit("base");
    let padding = "# padding padding padding padding padding padding padding\n".repeat(30_000);
    repo.write(
        "tests/test_hollow.py",
        format!("def test_nothing():\n    assert True\n{padding}"),
    );
    let started = std::time::Instant::now();
    let run = repo.run_env(
        &["check", "--base", "main", "--gates", "mock", "--format", "json"],
        &[("CI", "true")],
    );
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert_eq!(
        run.findings(),
        vec![
            "mock/never-imports-subject error tests/test_hollow.py:1",
            "mock/tautological-assertion error tests/test_hollow.py:2"
        ]
    );
    let run = repo.run_env(&["mutation", "--base", "main", "--format", "json"], &[("CI", "true")]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    // Minutes before; about a second in a debug build after.
    assert!(
        started.elapsed() < std::time::Duration::from_secs(60),
        "{:?}",
        started.elapsed()
    );
}

/// A file whose parse takes longer than the budget is given up and blocks
/// in CI, never read as a file with no tests (issue 63). A run of
/// backslash-continued lines still drives tree-sitter-python's scanner to
/// read ahead again at each one: well past the budget on any machine.
#[test]
fn a_test_file_too_slow_to_parse_blocks_in_ci_and_is_not_judged() {
    let repo = TestRepo::new();
    shop(&repo);
    repo.write(
        "tests/test_slow.py",
        "from shop.cart import total\n\n\ndef test_total():\n    assert total([1]) == 1\n",
    );
    repo.commit("base");
    let slow = format!("def test_total():\n    assert True\n{}", "\\\n".repeat(900_000));
    repo.write("tests/test_slow.py", &slow);
    let ci = [("CI", "true")];
    let run = repo.run_env(&["check", "--base", "main", "--gates", "mock", "--format", "json"], &ci);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert_eq!(run.findings(), vec!["meta/parse-too-slow error tests/test_slow.py:0"]);
    assert_eq!(
        run.gate()["findings"][0]["message"],
        "tests/test_slow.py took more than 2 seconds to parse and was given up: its tests were not checked"
    );
    let run = repo.run_env(
        &["check", "--base", "main", "--gates", "mutation", "--format", "json"],
        &ci,
    );
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert_eq!(run.findings(), vec!["meta/parse-too-slow error tests/test_slow.py:0"]);
    // By hand it is a warning.
    let run = repo.run(&["mock", "--base", "main", "--format", "json"]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert_eq!(run.findings(), vec!["meta/parse-too-slow warning tests/test_slow.py:0"]);
}

/// A test file over the size cap in a change is never a silent pass, and
/// never a wrong finding (issue 54): a new hollow test padded with comments
/// past 2 MiB was skipped with a note and the gate passed; the same
/// padding on an existing test file made `mutation` report its test as
/// deleted. In CI it blocks as `meta/file-too-large`; its tests are not
/// judged.
#[test]
fn a_test_file_padded_past_the_size_cap_blocks_in_ci_and_is_not_judged() {
    let repo = TestRepo::new();
    shop(&repo);
    repo.commit("base");
    let padding = "# padding padding padding padding padding padding padding\n".repeat(40_000);
    let ci = [("CI", "true")];

    repo.write(
        "tests/test_hollow.py",
        format!("def test_nothing():\n    assert True\n{padding}"),
    );
    let run = repo.run_env(&["check", "--base", "main", "--gates", "mock", "--format", "json"], &ci);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert_eq!(run.findings(), vec!["meta/file-too-large error tests/test_hollow.py:0"]);
    let message = run.gate()["findings"][0]["message"].as_str().unwrap().to_string();
    assert_eq!(
        message,
        "tests/test_hollow.py is 2320036 bytes, over the 2097152-byte size cap (max-file-bytes): its tests were not checked"
    );
    let text = repo.run_env(&["mock", "--base", "main"], &ci);
    assert!(
        text.stdout.contains(
            "help: keep the file under 2097152 bytes; if it must be larger, raise `max-file-bytes` in the config"
        ),
        "{}",
        text.stdout
    );
    // By hand it is a warning.
    let by_hand = repo.run(&["mock", "--base", "main", "--format", "json"]);
    assert_eq!(by_hand.code, 0, "{}{}", by_hand.stdout, by_hand.stderr);
    assert_eq!(
        by_hand.findings(),
        vec!["meta/file-too-large warning tests/test_hollow.py:0"]
    );
    repo.remove("tests/test_hollow.py");

    let cart = repo.read("tests/test_cart.py");
    repo.write("tests/test_cart.py", format!("{cart}{padding}"));
    repo.commit("pad the test");
    for gate in ["mock", "mutation"] {
        let run = repo.run_env(&[gate, "--base", "main~1", "--format", "json"], &ci);
        assert_eq!(run.code, 1, "{gate}: {}{}", run.stdout, run.stderr);
        assert_eq!(
            run.findings(),
            vec!["meta/file-too-large error tests/test_cart.py:0"],
            "{gate}: no test is deleted"
        );
    }
    // The pre-push hook blocks as CI does.
    let base = repo.git(&["rev-parse", "main~1"]);
    let push = crate::hooks::framework_pre_push(&repo, &base);
    assert_eq!(push.code, 1, "{}{}", push.stdout, push.stderr);
    assert!(
        push.stdout
            .contains("error[meta/file-too-large] tests/test_cart.py is 2320078 bytes"),
        "{}",
        push.stdout
    );
    assert!(!push.stdout.contains("test-deleted"), "{}", push.stdout);
}
