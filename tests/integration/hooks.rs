//! The git hooks: `hook install|uninstall` next to other hooks and hook
//! managers, and the installed scripts run by real `git commit` and
//! `git push`.

use std::path::Path;
use std::process::{Command, Output};

use crate::support::{TestRepo, git_in, output_text, path_with_binary, scrub_env};

const TAUTOLOGY: &str =
    "from pkg.cart import total\n\n\ndef test_total():\n    assert total([1]) == 1\n    assert True\n";
const HONEST: &str = "from pkg.cart import total\n\n\ndef test_total():\n    assert total([1, 2]) == 3\n";

/// A Python project whose hooks run the mock gate only (no linter needed).
fn project() -> TestRepo {
    let repo = TestRepo::new();
    repo.write("README.md", "# shop\n\nA cart that sums prices.\n")
        .write("pkg/__init__.py", "")
        .write("pkg/cart.py", "def total(xs):\n    return sum(xs)\n")
        .write(".loki-gate.yaml", "pre-commit-gates: [mock]\npre-push-gates: [mock]\n");
    repo.commit("base");
    repo
}

/// git with the binary under test on PATH, as a user who installed it has.
fn git_hooked(dir: &Path, args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut cmd = Command::new("git");
    scrub_env(&mut cmd);
    cmd.args(args)
        .current_dir(dir)
        .env("PATH", path_with_binary())
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .envs(env.iter().copied());
    cmd.output().expect("git runs")
}

fn commit(repo: &TestRepo, message: &str) -> Output {
    git_hooked(repo.path(), &["add", "-A"], &[]);
    git_hooked(repo.path(), &["commit", "-q", "-m", message], &[])
}

/// A hook that appends its name and stdin to `log` in the repository.
fn logging_hook(name: &str) -> String {
    format!(
        "#!/bin/sh\nprintf '{name} ran\\n' >> \"$(git rev-parse --show-toplevel)/hook.log\"\ncat >> \"$(git rev-parse --show-toplevel)/hook.log\"\n"
    )
}

fn install_hook(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
    make_executable(path);
}

fn make_executable(path: &Path) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

#[test]
fn the_installed_hook_blocks_a_bad_commit_after_running_the_hook_it_kept() {
    let repo = project();
    repo.write(".gitignore", "hook.log\n");
    repo.commit("ignore the log");
    let existing = logging_hook("team");
    install_hook(&repo.path().join(".git/hooks/pre-commit"), &existing);

    let run = repo.run(&["hook", "install"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stderr.contains(
            ".git/hooks/pre-commit: installed; the hook that was there is now .git/hooks/pre-commit.loki-gate-previous"
        ),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains(".git/hooks/pre-push: installed"), "{}", run.stderr);

    repo.write("tests/test_cart.py", TAUTOLOGY);
    let blocked = commit(&repo, "tautology");
    let output = output_text(&blocked);
    assert_eq!(blocked.status.code(), Some(1), "{output}");
    assert!(output.contains("mock/tautological-assertion"), "{output}");
    assert!(output.contains("the pre-commit hook blocked this commit"), "{output}");
    assert!(output.contains("git commit --no-verify"), "{output}");
    assert_eq!(repo.read("hook.log"), "team ran\n", "the kept hook ran first");
    assert_eq!(repo.git(&["rev-list", "--count", "HEAD"]), "3", "nothing was committed");

    repo.write("tests/test_cart.py", HONEST);
    let passed = commit(&repo, "honest test");
    assert!(passed.status.success(), "{}", output_text(&passed));
    assert_eq!(repo.git(&["rev-list", "--count", "HEAD"]), "4");

    let run = repo.run(&["hook", "uninstall"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stderr.contains("pre-commit: removed; the hook it replaced is back"),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("pre-push: removed"), "{}", run.stderr);
    assert_eq!(
        repo.read(".git/hooks/pre-commit"),
        existing,
        "the kept hook is back, byte for byte"
    );
    assert!(!repo.path().join(".git/hooks/pre-commit.loki-gate-previous").exists());
    assert!(!repo.path().join(".git/hooks/pre-push").exists());
}

#[test]
fn install_and_uninstall_are_idempotent() {
    let repo = project();
    let first = repo.run(&["hook", "install", "--hook", "pre-commit"]);
    assert_eq!(first.code, 0, "{}", first.stderr);
    let installed = repo.read(".git/hooks/pre-commit");
    let again = repo.run(&["hook", "install", "--hook", "pre-commit"]);
    assert_eq!(again.code, 0);
    assert!(
        again.stderr.contains("pre-commit: already installed"),
        "{}",
        again.stderr
    );
    assert_eq!(repo.read(".git/hooks/pre-commit"), installed);
    assert!(!repo.path().join(".git/hooks/pre-commit.loki-gate-previous").exists());
    assert!(
        !repo.path().join(".git/hooks/pre-push").exists(),
        "only the hook asked for"
    );

    // An older loki-gate hook is updated in place, not kept as "previous".
    std::fs::write(
        repo.path().join(".git/hooks/pre-commit"),
        "#!/bin/sh\n# loki-gate-hook: pre-commit\nexec loki-gate check --staged\n",
    )
    .unwrap();
    let update = repo.run(&["hook", "install", "--hook", "pre-commit"]);
    assert!(update.stderr.contains("updated"), "{}", update.stderr);
    assert_eq!(repo.read(".git/hooks/pre-commit"), installed);
    assert!(!repo.path().join(".git/hooks/pre-commit.loki-gate-previous").exists());

    assert_eq!(repo.run(&["hook", "uninstall"]).code, 0);
    let twice = repo.run(&["hook", "uninstall"]);
    assert_eq!(twice.code, 0);
    assert!(twice.stderr.contains("pre-commit: not installed"), "{}", twice.stderr);
    assert!(twice.stderr.contains("pre-push: not installed"), "{}", twice.stderr);
}

#[test]
fn a_hook_someone_else_put_back_is_never_uninstalled_or_clobbered() {
    let repo = project();
    install_hook(&repo.path().join(".git/hooks/pre-commit"), &logging_hook("first"));
    assert_eq!(repo.run(&["hook", "install", "--hook", "pre-commit"]).code, 0);
    // A hook manager writes its own hook over loki-gate's.
    let manager = logging_hook("manager");
    install_hook(&repo.path().join(".git/hooks/pre-commit"), &manager);

    let uninstall = repo.run(&["hook", "uninstall", "--hook", "pre-commit"]);
    assert_eq!(uninstall.code, 0);
    assert!(
        uninstall.stderr.contains("not loki-gate's hook, left as it is"),
        "{}",
        uninstall.stderr
    );
    assert_eq!(repo.read(".git/hooks/pre-commit"), manager);

    let install = repo.run(&["hook", "install", "--hook", "pre-commit"]);
    assert_eq!(install.code, 2, "two different foreign hooks: {}", install.stderr);
    assert!(install.stderr.contains("move one of them aside"), "{}", install.stderr);
    assert_eq!(repo.read(".git/hooks/pre-commit"), manager, "nothing lost");
    assert_eq!(
        repo.read(".git/hooks/pre-commit.loki-gate-previous"),
        logging_hook("first")
    );
}

#[test]
fn husky_keeps_its_hooks_in_core_hooks_path_and_both_run() {
    let repo = project();
    repo.write(".gitignore", "hook.log\n");
    // husky 9's layout: core.hooksPath .husky/_ holding stubs that run .husky/<hook>.
    install_hook(
        &repo.path().join(".husky/_/pre-commit"),
        "#!/usr/bin/env sh\n. \"$(dirname \"$0\")/h\"\n",
    );
    install_hook(
        &repo.path().join(".husky/_/h"),
        "#!/usr/bin/env sh\nn=$(basename \"$0\")\nsh -e \".husky/$n\" \"$@\"\n",
    );
    install_hook(&repo.path().join(".husky/pre-commit"), &logging_hook("husky"));
    repo.git(&["config", "core.hooksPath", ".husky/_"]);
    repo.commit("husky");

    let run = repo.run(&["hook", "install"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stderr.contains(
            ".husky/_/pre-commit: installed; the hook that was there is now .husky/_/pre-commit.loki-gate-previous"
        ),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("(husky)"), "{}", run.stderr);
    assert!(
        !repo.path().join(".git/hooks/pre-commit").exists(),
        "core.hooksPath wins"
    );

    repo.write("tests/test_cart.py", TAUTOLOGY);
    let blocked = commit(&repo, "tautology");
    assert_eq!(blocked.status.code(), Some(1), "{}", output_text(&blocked));
    assert_eq!(repo.read("hook.log"), "husky ran\n", "husky's hook still runs");

    assert_eq!(repo.run(&["hook", "uninstall"]).code, 0);
    assert_eq!(
        repo.read(".husky/_/pre-commit"),
        "#!/usr/bin/env sh\n. \"$(dirname \"$0\")/h\"\n"
    );
    assert!(!repo.path().join(".husky/_/pre-push").exists());
}

#[test]
fn lefthook_and_pre_commit_get_advice_to_add_loki_gate_to_their_config() {
    let repo = project();
    repo.write("lefthook.yml", "pre-commit:\n  commands: {}\n");
    install_hook(
        &repo.path().join(".git/hooks/pre-commit"),
        "#!/bin/sh\n# File generated by pre-commit: https://pre-commit.com\nexit 0\n",
    );
    let run = repo.run(&["hook", "install"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stderr.contains("lefthook manages these hooks"), "{}", run.stderr);
    assert!(
        run.stderr.contains("the pre-commit hook kept is pre-commit's"),
        "{}",
        run.stderr
    );
}

#[test]
fn a_hook_manager_that_runs_loki_gate_already_is_not_doubled() {
    // lefthook runs loki-gate at pre-commit: only pre-push is installed.
    let repo = project();
    repo.write(
        "lefthook.yml",
        "pre-commit:\n  commands:\n    gate:\n      run: loki-gate hook run pre-commit\npre-push:\n  commands:\n    lint:\n      run: npm run lint\n",
    );
    let run = repo.run(&["hook", "install"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stderr.contains(
            "pre-commit: lefthook.yml already runs loki-gate there; not installed (it would gate every commit twice)"
        ),
        "{}",
        run.stderr
    );
    assert!(!repo.path().join(".git/hooks/pre-commit").exists());
    assert!(repo.path().join(".git/hooks/pre-push").exists());

    // The pre-commit framework with loki-gate's pre-push hook: pre-commit's own stays ours.
    let repo = project();
    repo.write(
        ".pre-commit-config.yaml",
        "repos:\n  - repo: https://example.com/loki-gate\n    rev: v0.1.0\n    hooks:\n      - id: loki-gate-pre-push\n",
    );
    let run = repo.run(&["hook", "install"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stderr.contains("pre-push: .pre-commit-config.yaml already runs loki-gate there; not installed (it would gate every push twice)"),
        "{}",
        run.stderr
    );
    assert!(repo.path().join(".git/hooks/pre-commit").exists());
}

#[test]
fn a_missing_binary_is_a_clear_message_and_a_refused_commit() {
    let repo = project();
    assert_eq!(repo.run(&["hook", "install", "--hook", "pre-commit"]).code, 0);
    repo.write("tests/test_cart.py", HONEST);
    git_hooked(repo.path(), &["add", "-A"], &[]);
    let out = git_hooked(
        repo.path(),
        &["commit", "-q", "-m", "x"],
        &[("LOKI_GATE_BIN", "/nonexistent/loki-gate")],
    );
    let output = output_text(&out);
    assert_eq!(out.status.code(), Some(1), "{output}");
    assert!(
        output.contains("loki-gate: the pre-commit hook cannot run: `/nonexistent/loki-gate` is not on PATH"),
        "{output}"
    );
    assert!(output.contains("git commit --no-verify"), "{output}");
    assert!(output.contains("pip install loki-gate"), "{output}");
}

#[test]
fn the_pre_push_hook_gates_the_commits_the_remote_does_not_have() {
    let repo = project();
    let remote = tempfile::tempdir().unwrap();
    git_in(remote.path(), &["init", "-q", "--bare", "-b", "main"]);
    repo.git(&["remote", "add", "origin", remote.path().to_str().unwrap()]);
    repo.git(&["push", "-q", "origin", "main"]);
    assert_eq!(repo.run(&["hook", "install", "--hook", "pre-push"]).code, 0);

    repo.write("tests/test_cart.py", TAUTOLOGY);
    repo.commit("tautology");
    let push = git_hooked(repo.path(), &["push", "-q", "origin", "main"], &[]);
    let output = output_text(&push);
    assert_ne!(push.status.code(), Some(0), "{output}");
    assert!(output.contains("mock/tautological-assertion"), "{output}");
    assert!(output.contains("the pre-push hook blocked this push"), "{output}");
    assert_ne!(
        git_in(remote.path(), &["rev-parse", "main"]),
        repo.git(&["rev-parse", "HEAD"]),
        "the remote did not get the commit"
    );

    repo.write("tests/test_cart.py", HONEST);
    repo.commit("honest");
    let push = git_hooked(repo.path(), &["push", "-q", "origin", "main"], &[]);
    assert!(push.status.success(), "{}", output_text(&push));
    assert_eq!(
        git_in(remote.path(), &["rev-parse", "main"]),
        repo.git(&["rev-parse", "HEAD"])
    );

    // A new branch at a commit the remote has already brings it nothing new.
    repo.git(&["branch", "other", "HEAD~1"]);
    let push = git_hooked(repo.path(), &["push", "-q", "origin", "other"], &[]);
    assert!(push.status.success(), "{}", output_text(&push));
    assert!(
        output_text(&push).contains("origin has every commit of it already: nothing new to gate"),
        "{}",
        output_text(&push)
    );
}

#[test]
fn a_hook_whose_gates_are_all_off_says_so_and_passes() {
    let repo = project();
    repo.write(
        ".loki-gate.yaml",
        "pre-commit-gates: [mock]\ngates:\n  mock:\n    enabled: false\n",
    );
    repo.git(&["add", "-A"]);
    let run = repo.run(&["hook", "run", "pre-commit"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stderr
            .contains("none of the gates in `pre-commit-gates` is enabled"),
        "{}",
        run.stderr
    );
}

#[test]
fn a_config_error_in_a_hook_names_the_way_past_it() {
    let repo = project();
    repo.write(".loki-gate.yaml", "pre-commit-gates: [mok]\n");
    let run = repo.run(&["hook", "run", "pre-commit"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("pre-commit-gates"), "{}", run.stderr);
    assert!(run.stderr.contains("could not gate this commit"), "{}", run.stderr);
}

#[test]
fn init_detects_the_stack_and_installs_the_hooks() {
    let repo = TestRepo::new();
    repo.write("pyproject.toml", "[project]\nname = \"shop\"\n")
        .write("shop/cart.py", "def total(xs):\n    return sum(xs)\n");
    let run = repo.run(&["init", "--hooks"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stderr.contains("found python;"), "{}", run.stderr);
    assert!(run.stderr.contains("tests: `python -m pytest`"), "{}", run.stderr);
    assert!(
        run.stderr.contains(".git/hooks/pre-commit: installed"),
        "{}",
        run.stderr
    );
    let config = repo.read(".loki-gate.yaml");
    assert!(config.contains("    test-command: \"python -m pytest\"\n"), "{config}");
    assert!(config.contains("# auto reads here: python"), "{config}");

    // A second `init --hooks` keeps the config (and says so) and the hooks.
    let again = repo.run(&["init", "--hooks"]);
    assert_eq!(again.code, 0, "{}", again.stderr);
    assert!(
        again.stderr.contains("already exists: left as it is"),
        "{}",
        again.stderr
    );
    assert!(
        again.stderr.contains("pre-commit: already installed"),
        "{}",
        again.stderr
    );
    assert_eq!(repo.read(".loki-gate.yaml"), config);

    // Nothing the gates read: those gates are written as off, with the reason.
    let bare = TestRepo::new();
    bare.write("notes.txt", "hello\n")
        .write("README.md", "# notes\n\nPersonal notes, kept in git.\n");
    let run = bare.run(&["init"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let config = bare.read(".loki-gate.yaml");
    assert!(
        config.contains("# off: no Python, JavaScript, TypeScript, Rust or Go files here"),
        "{config}"
    );
    assert!(config.contains("# off: no test command found"), "{config}");
    let check = bare.run(&["check", "--format", "json"]);
    assert_eq!(
        check.code, 0,
        "a fresh init passes on a repo it fits: {}{}",
        check.stdout, check.stderr
    );
}

#[test]
fn files_that_are_not_the_staged_change_are_gated_whole() {
    let repo = project();
    repo.write("tests/test_cart.py", TAUTOLOGY);
    repo.write("tests/test_other.py", HONEST.replace("test_total", "test_other"));
    repo.commit("committed past any hook");

    // A commit: the files passed are the staged ones, and only the change is gated.
    repo.write("README.md", "# shop\n\nA cart that sums prices, in Python.\n");
    repo.git(&["add", "README.md"]);
    let staged = repo.run(&["hook", "run", "pre-commit", "README.md"]);
    assert_eq!(staged.code, 0, "{}{}", staged.stdout, staged.stderr);

    // `pre-commit run --all-files`: every file passed, none staged: whole files.
    repo.git(&["reset", "-q"]);
    let whole = repo.run(&[
        "hook",
        "run",
        "pre-commit",
        "--gates",
        "mock",
        "tests/test_other.py",
        "tests/test_cart.py",
    ]);
    assert_eq!(whole.code, 1, "{}{}", whole.stdout, whole.stderr);
    assert!(whole.stdout.contains("tests/test_cart.py:6"), "{}", whole.stdout);
    let only_other = repo.run(&["hook", "run", "pre-commit", "--gates", "mock", "tests/test_other.py"]);
    assert_eq!(
        only_other.code, 0,
        "only the files passed: {}{}",
        only_other.stdout, only_other.stderr
    );

    let outside = repo.run(&["hook", "run", "pre-commit", "/etc/hostname"]);
    assert_eq!(outside.code, 2);
    assert!(
        outside.stderr.contains("is outside the repository"),
        "{}",
        outside.stderr
    );
    let unknown = repo.run(&["hook", "run", "pre-commit", "--gates", "mok"]);
    assert_eq!(unknown.code, 2);
    assert!(unknown.stderr.contains("unknown gate `mok`"), "{}", unknown.stderr);
}

/// `hook run pre-push` as the pre-commit framework runs it: the pushed
/// range named by PRE_COMMIT_FROM_REF..HEAD.
pub(crate) fn framework_pre_push(repo: &TestRepo, from: &str) -> crate::support::Run {
    repo.run_env(
        &["hook", "run", "pre-push"],
        &[
            ("PRE_COMMIT", "1"),
            ("PRE_COMMIT_FROM_REF", from),
            ("PRE_COMMIT_TO_REF", "HEAD"),
        ],
    )
}

#[test]
fn under_the_pre_commit_framework_pre_push_takes_the_base_it_names() {
    let repo = project();
    let base = repo.git(&["rev-parse", "HEAD"]);
    repo.write("tests/test_cart.py", TAUTOLOGY);
    repo.commit("tautology");
    let run = framework_pre_push(&repo, &base);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("mock/tautological-assertion"), "{}", run.stdout);
    let pushed = framework_pre_push(&repo, "HEAD");
    assert_eq!(
        pushed.code, 0,
        "nothing new since the remote's commit: {}{}",
        pushed.stdout, pushed.stderr
    );
}

/// Every form of `git commit` is gated (issue 25): `-a`, `<paths>` and
/// `--amend -a` hand the hook a temporary index in `GIT_INDEX_FILE`, and a
/// linked worktree's hook gets `GIT_DIR`; before, the hook read `.git/index`,
/// saw nothing staged and passed.
mod every_commit_form {
    use super::*;

    /// The project with its honest test committed and the pre-commit hook installed.
    fn hooked_project() -> TestRepo {
        let repo = project();
        repo.write("tests/test_cart.py", HONEST);
        repo.commit("honest test");
        assert_eq!(repo.run(&["hook", "install", "--hook", "pre-commit"]).code, 0);
        repo
    }

    /// The commit was refused by the mock gate and HEAD did not move.
    fn assert_blocked(dir: &Path, args: &[&str], head: &str) {
        let out = git_hooked(dir, args, &[]);
        let output = output_text(&out);
        assert_eq!(out.status.code(), Some(1), "git {args:?}: {output}");
        assert!(
            output.contains("error[mock/tautological-assertion]"),
            "git {args:?}: {output}"
        );
        assert!(output.contains("the pre-commit hook blocked this commit"), "{output}");
        assert_eq!(git_in(dir, &["rev-parse", "HEAD"]), head, "git {args:?} committed");
    }

    #[test]
    fn commit_all_is_blocked_on_a_hollow_test() {
        let repo = hooked_project();
        let head = repo.git(&["rev-parse", "HEAD"]);
        repo.write("tests/test_cart.py", TAUTOLOGY);
        assert_blocked(repo.path(), &["commit", "-q", "-a", "-m", "x"], &head);
    }

    #[test]
    fn commit_of_named_paths_is_blocked_on_a_hollow_test() {
        let repo = hooked_project();
        let head = repo.git(&["rev-parse", "HEAD"]);
        repo.write("tests/test_cart.py", TAUTOLOGY);
        assert_blocked(repo.path(), &["commit", "-q", "-m", "x", "tests/test_cart.py"], &head);
        // `--only` is the same form, and `--include` adds the paths to what is staged.
        assert_blocked(
            repo.path(),
            &["commit", "-q", "--include", "-m", "x", "tests/test_cart.py"],
            &head,
        );
    }

    #[test]
    fn amending_with_a_hollow_test_is_blocked() {
        let repo = hooked_project();
        let head = repo.git(&["rev-parse", "HEAD"]);
        repo.write("tests/test_cart.py", TAUTOLOGY);
        assert_blocked(repo.path(), &["commit", "-q", "--amend", "-a", "--no-edit"], &head);
        git_hooked(repo.path(), &["add", "-A"], &[]);
        assert_blocked(repo.path(), &["commit", "-q", "--amend", "--no-edit"], &head);
    }

    #[test]
    fn a_commit_in_a_linked_worktree_is_blocked_on_a_hollow_test() {
        let repo = hooked_project();
        let outside = tempfile::tempdir().unwrap();
        let worktree = outside.path().join("wt");
        repo.git(&["worktree", "add", "-q", "-b", "side", worktree.to_str().unwrap()]);
        let head = git_in(&worktree, &["rev-parse", "HEAD"]);
        std::fs::write(worktree.join("tests/test_cart.py"), TAUTOLOGY).unwrap();
        assert_blocked(&worktree, &["commit", "-q", "-a", "-m", "x"], &head);
        git_hooked(&worktree, &["add", "-A"], &[]);
        assert_blocked(&worktree, &["commit", "-q", "-m", "x"], &head);
    }

    #[test]
    fn an_honest_commit_all_still_passes() {
        let repo = hooked_project();
        repo.write(
            "tests/test_cart.py",
            "from pkg.cart import total\n\n\ndef test_total():\n    assert total([1, 2, 3]) == 6\n",
        );
        let out = git_hooked(repo.path(), &["commit", "-q", "-a", "-m", "x"], &[]);
        assert!(out.status.success(), "{}", output_text(&out));
    }

    #[test]
    fn an_index_file_that_does_not_exist_is_exit_2_naming_it() {
        let repo = hooked_project();
        let run = repo.run_env(&["mock", "--staged"], &[("GIT_INDEX_FILE", "no/such/index")]);
        assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
        assert!(
            run.stderr.contains("GIT_INDEX_FILE names")
                && run
                    .stderr
                    .contains("no/such/index, which does not exist: unset GIT_INDEX_FILE"),
            "{}",
            run.stderr
        );
    }

    #[test]
    fn commands_loki_gate_runs_do_not_inherit_the_hooks_repository() {
        // A test suite that makes its own repositories would otherwise stage
        // into the commit being made.
        let repo = hooked_project();
        let index = repo.path().join(".git/index").display().to_string();
        let git_dir = repo.path().join(".git").display().to_string();
        repo.run_env(
            &["evidence", "--test-command", "env > env.txt"],
            &[("GIT_INDEX_FILE", &index), ("GIT_DIR", &git_dir)],
        );
        let env = repo.read("env.txt");
        assert!(env.contains("PATH="), "{env}");
        assert!(!env.contains("GIT_INDEX_FILE") && !env.contains("GIT_DIR"), "{env}");
    }
}

/// The test command follows the lockfile's package manager (issue 25): a
/// pnpm project's `npm test` blamed npm for the `vitest` it could not find.
#[test]
fn init_and_evidence_pick_the_package_manager_from_the_lockfile() {
    for (lock, manager) in [
        ("pnpm-lock.yaml", "pnpm"),
        ("yarn.lock", "yarn"),
        ("bun.lockb", "bun"),
        ("package-lock.json", "npm"),
    ] {
        let repo = TestRepo::new();
        repo.write("package.json", r#"{"name": "shop", "scripts": {"test": "vitest run"}}"#)
            .write(lock, "");
        let run = repo.run(&["init"]);
        assert_eq!(run.code, 0, "{}", run.stderr);
        assert!(
            run.stderr.contains(&format!("tests: `{manager} test`")),
            "{lock}: {}",
            run.stderr
        );
        assert!(
            repo.read(".loki-gate.yaml")
                .contains(&format!("    test-command: \"{manager} test\"\n")),
            "{lock}"
        );
    }
}

#[test]
fn a_hook_skips_the_gates_named_in_skip_variables_and_its_hint_speaks_the_manager_s_idiom() {
    let repo = project();
    repo.write(
        ".loki-gate.yaml",
        "pre-commit-gates: [mock, docs]\npre-push-gates: [mock]\n",
    );
    repo.commit("both gates");
    let run = repo.run(&["hook", "install"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    repo.write("tests/test_cart.py", TAUTOLOGY);
    git_hooked(repo.path(), &["add", "-A"], &[]);

    let blocked = git_hooked(repo.path(), &["commit", "-q", "-m", "t"], &[]);
    let output = output_text(&blocked);
    assert_eq!(blocked.status.code(), Some(1), "{output}");
    assert!(
        output.contains(
            "or skip a gate once with `LOKI_GATE_SKIP=<gate> git commit`, or every hook with `git commit --no-verify`"
        ),
        "{output}"
    );

    // Another tool's id in SKIP is not ours: the hook still blocks.
    let other = git_hooked(repo.path(), &["commit", "-q", "-m", "t"], &[("SKIP", "flake8")]);
    assert_eq!(other.status.code(), Some(1), "{}", output_text(&other));

    for (var, value) in [("LOKI_GATE_SKIP", "mock"), ("SKIP", "flake8,loki-gate-mock")] {
        let run = repo.run_env(&["hook", "run", "pre-commit"], &[(var, value)]);
        assert_eq!(run.code, 0, "{var}={value}: {}{}", run.stdout, run.stderr);
        assert!(
            run.stderr
                .contains("loki-gate: pre-commit: skipped mock (LOKI_GATE_SKIP / SKIP)"),
            "{}",
            run.stderr
        );
        assert!(run.stdout.contains("docs: passed"), "docs still ran: {}", run.stdout);
    }

    // Under the pre-commit framework the hint is its SKIP with the hook id.
    let framework = repo.run_env(
        &["hook", "run", "pre-commit", "--gates", "mock"],
        &[("PRE_COMMIT", "1")],
    );
    assert_eq!(framework.code, 1);
    assert!(
        framework
            .stderr
            .contains("or skip the hook once with `SKIP=loki-gate-mock git commit`"),
        "{}",
        framework.stderr
    );
    // `check` never reads them: CI has no such escape.
    let check = repo.run_env(&["check", "--staged", "--gates", "mock"], &[("LOKI_GATE_SKIP", "mock")]);
    assert_eq!(check.code, 1, "{}", check.stdout);
}

#[test]
fn a_passing_hook_says_one_line_per_gate_and_verbose_says_the_rest() {
    let repo = project();
    repo.write(
        ".loki-gate.yaml",
        "pre-commit-gates: [mock, docs]\npre-push-gates: [mock]\n",
    );
    repo.commit("both gates");
    repo.write("tests/test_cart.py", HONEST);
    repo.git(&["add", "-A"]);
    let run = repo.run(&["hook", "run", "pre-commit"]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(lines.len(), 2, "{}", run.stdout);
    assert!(
        lines[0].starts_with("mock: passed (") && lines[1].starts_with("docs: passed ("),
        "{lines:?}"
    );

    let verbose = repo.run(&["hook", "run", "pre-commit", "-v"]);
    assert_eq!(verbose.code, 0);
    assert!(
        verbose.stdout.contains("note: 1 test file(s) checked"),
        "{}",
        verbose.stdout
    );
    assert!(
        verbose.stdout.ends_with("(mock passed, docs passed)\n"),
        "{}",
        verbose.stdout
    );
}

#[test]
fn a_notice_every_gate_gives_is_said_once() {
    // A repository whose only commit is HEAD: every gate says it has no parent.
    let repo = TestRepo::new();
    repo.git(&["checkout", "-q", "--orphan", "fresh"]);
    repo.write("README.md", "# shop\n\nA cart.\n")
        .write("pkg/cart.py", "def total(xs):\n    return sum(xs)\n");
    repo.commit("only");
    for format in ["text", "concise"] {
        let run = repo.run(&["check", "--gates", "mock,docs,mutation", "--format", format]);
        let said = run.stdout.matches("HEAD has no parent").count();
        assert_eq!(said, 1, "{format}: {}{}", run.stdout, run.stderr);
    }
    let to_file = repo.path().join("report.txt");
    let run = repo.run(&[
        "check",
        "--gates",
        "mock,docs,mutation",
        "-o",
        to_file.to_str().unwrap(),
    ]);
    assert!(run.code == 0 || run.code == 1, "{}", run.stderr);
    assert_eq!(
        std::fs::read_to_string(&to_file)
            .unwrap()
            .matches("HEAD has no parent")
            .count(),
        1
    );
}

/// Every ref a push sends is gated, each against what the remote has, and
/// on its own files (issue 54): before, pushing a tag or a branch that is
/// not checked out gated nothing ("nothing gated", exit 0), a new branch
/// was gated against HEAD~1 only, and the checked-out commit was judged by
/// the working tree, whatever the commit held.
mod every_pushed_ref {
    use super::*;

    /// [`project`] with a bare remote that has `main`, and the pre-push hook.
    fn pushed() -> (TestRepo, tempfile::TempDir) {
        let repo = project();
        let remote = tempfile::tempdir().unwrap();
        git_in(remote.path(), &["init", "-q", "--bare", "-b", "main"]);
        repo.git(&["remote", "add", "origin", remote.path().to_str().unwrap()]);
        repo.git(&["push", "-q", "origin", "main"]);
        assert_eq!(repo.run(&["hook", "install", "--hook", "pre-push"]).code, 0);
        (repo, remote)
    }

    fn remote_refs(remote: &tempfile::TempDir) -> String {
        git_in(remote.path(), &["for-each-ref", "--format=%(refname)"])
    }

    fn worktrees(repo: &TestRepo) -> usize {
        repo.git(&["worktree", "list", "--porcelain"])
            .lines()
            .filter(|l| l.starts_with("worktree "))
            .count()
    }

    fn assert_blocked(push: &Output) {
        let output = output_text(push);
        assert_eq!(push.status.code(), Some(1), "{output}");
        assert!(output.contains("error[mock/tautological-assertion]"), "{output}");
        assert!(output.contains("the pre-push hook blocked this push"), "{output}");
    }

    #[test]
    fn a_tag_and_a_branch_not_checked_out_are_gated_on_their_own_files() {
        let (repo, remote) = pushed();
        // The checked-out branch holds an honest test where the pushed commit has a hollow one.
        repo.git(&["checkout", "-q", "-b", "topic"]);
        repo.write("tests/test_cart.py", TAUTOLOGY);
        repo.commit("hollow");
        repo.git(&["tag", "-a", "v1", "-m", "release"]);
        repo.git(&["checkout", "-q", "main"]);
        repo.write("tests/test_cart.py", HONEST);
        repo.commit("honest");

        let push = git_hooked(repo.path(), &["push", "origin", "v1", "topic"], &[]);
        assert_blocked(&push);
        let output = output_text(&push);
        assert!(
            output.contains("refs/tags/v1, refs/heads/topic (") && output.contains("not the checked-out work"),
            "{output}"
        );
        assert_eq!(
            remote_refs(&remote),
            "refs/heads/main",
            "neither ref reached the remote"
        );
        assert_eq!(worktrees(&repo), 1, "the temporary worktree is gone");
        assert_eq!(repo.read("tests/test_cart.py"), HONEST, "the working tree is untouched");
    }

    /// A pushed ref's files come from its blobs (issue 63): `git worktree
    /// add` ran the repository's smudge filter and `post-checkout` hook,
    /// both the agent's to write, and the gate judged the smudged text (a
    /// filter that rewrote the tautology passed the push).
    #[test]
    fn a_ref_not_checked_out_is_read_from_its_blobs_not_through_filters_or_hooks() {
        let (repo, remote) = pushed();
        repo.git(&["checkout", "-q", "-b", "topic"]);
        repo.write(".gitattributes", "*.py filter=tidy\n");
        repo.write("tests/test_cart.py", TAUTOLOGY);
        repo.commit("hollow");
        repo.git(&["checkout", "-q", "main"]);
        let hooks = repo.git(&["rev-parse", "--git-path", "hooks"]);
        let marker = repo.path().join("post-checkout.ran");
        install_hook(
            &repo.path().join(hooks).join("post-checkout"),
            &format!("#!/bin/sh\ntouch '{}'\n", marker.display()),
        );
        repo.git(&[
            "config",
            "filter.tidy.smudge",
            "sed 's/    assert True/    assert total([2]) == 2/'",
        ]);
        repo.git(&["config", "filter.tidy.clean", "cat"]);

        let push = git_hooked(repo.path(), &["push", "origin", "topic"], &[]);
        assert_blocked(&push);
        assert!(!marker.exists(), "the post-checkout hook ran");
        assert_eq!(remote_refs(&remote), "refs/heads/main");
        assert_eq!(worktrees(&repo), 1, "the temporary worktree is gone");
    }

    #[test]
    fn several_refs_in_one_push_are_each_gated_and_one_hollow_ref_blocks_them_all() {
        let (repo, remote) = pushed();
        repo.git(&["branch", "other"]);
        repo.write("tests/test_cart.py", HONEST);
        repo.commit("honest");
        repo.git(&["checkout", "-q", "other"]);
        repo.write("tests/test_cart.py", TAUTOLOGY);
        repo.commit("hollow");
        repo.git(&["checkout", "-q", "main"]);

        let push = git_hooked(repo.path(), &["push", "origin", "main", "other"], &[]);
        assert_blocked(&push);
        let output = output_text(&push);
        assert!(output.contains("refs/heads/main ("), "{output}");
        assert!(output.contains("refs/heads/other ("), "{output}");
        assert_eq!(remote_refs(&remote), "refs/heads/main");
        assert_ne!(
            git_in(remote.path(), &["rev-parse", "main"]),
            repo.git(&["rev-parse", "main"]),
            "git refuses the whole push"
        );

        let push = git_hooked(repo.path(), &["push", "-q", "origin", "main"], &[]);
        assert!(push.status.success(), "{}", output_text(&push));
    }

    #[test]
    fn the_checked_out_commit_is_judged_by_what_it_holds_not_by_uncommitted_changes() {
        let (repo, remote) = pushed();
        repo.write("tests/test_cart.py", TAUTOLOGY);
        repo.commit("hollow");
        repo.write("tests/test_cart.py", HONEST);

        let push = git_hooked(repo.path(), &["push", "origin", "main"], &[]);
        assert_blocked(&push);
        assert!(
            output_text(&push).contains("the working tree has changes the push does not carry"),
            "{}",
            output_text(&push)
        );
        assert_ne!(
            git_in(remote.path(), &["rev-parse", "main"]),
            repo.git(&["rev-parse", "HEAD"])
        );
        assert_eq!(repo.read("tests/test_cart.py"), HONEST);
    }

    #[test]
    fn a_new_branch_is_gated_on_every_commit_the_remote_lacks_not_only_the_last() {
        let (repo, remote) = pushed();
        repo.git(&["checkout", "-q", "-b", "feature"]);
        repo.write("tests/test_cart.py", TAUTOLOGY);
        repo.commit("hollow");
        repo.write("README.md", "# shop\n\nA cart that sums prices, and a test.\n");
        repo.commit("readme");

        let push = git_hooked(repo.path(), &["push", "origin", "feature"], &[]);
        assert_blocked(&push);
        assert!(
            output_text(&push)
                .contains("refs/heads/feature is new on origin: gating its 2 commit(s) not on any of origin's refs"),
            "{}",
            output_text(&push)
        );
        assert_eq!(remote_refs(&remote), "refs/heads/main");
    }

    #[test]
    fn a_remote_with_none_of_the_history_gets_every_file_gated() {
        let repo = project();
        repo.write("tests/test_cart.py", TAUTOLOGY);
        repo.commit("hollow");
        repo.write("README.md", "# shop\n\nA cart that sums prices, and a test.\n");
        repo.commit("readme");
        let remote = tempfile::tempdir().unwrap();
        git_in(remote.path(), &["init", "-q", "--bare", "-b", "main"]);
        repo.git(&["remote", "add", "origin", remote.path().to_str().unwrap()]);
        assert_eq!(repo.run(&["hook", "install", "--hook", "pre-push"]).code, 0);

        let push = git_hooked(repo.path(), &["push", "origin", "main"], &[]);
        assert_blocked(&push);
        assert!(
            output_text(&push).contains("none of its history is on any of origin's refs: gating every file"),
            "{}",
            output_text(&push)
        );
        assert_eq!(remote_refs(&remote), "");
    }

    #[test]
    fn under_the_pre_commit_framework_the_to_ref_is_gated_on_its_own_files() {
        let repo = project();
        let base = repo.git(&["rev-parse", "HEAD"]);
        repo.git(&["checkout", "-q", "-b", "topic"]);
        repo.write("tests/test_cart.py", TAUTOLOGY);
        let hollow = repo.commit("hollow");
        repo.git(&["checkout", "-q", "main"]);
        let run = repo.run_env(
            &["hook", "run", "pre-push"],
            &[
                ("PRE_COMMIT", "1"),
                ("PRE_COMMIT_FROM_REF", &base),
                ("PRE_COMMIT_TO_REF", &hollow),
            ],
        );
        assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
        assert!(run.stdout.contains("mock/tautological-assertion"), "{}", run.stdout);
    }
}
