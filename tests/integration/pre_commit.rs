//! `.pre-commit-hooks.yaml` with the real pre-commit framework (from PyPI):
//! a temporary repository whose `.pre-commit-config.yaml` points at this
//! repository, `pre-commit install`, a commit the hook blocks, and
//! `pre-commit run --all-files`.
//!
//! pre-commit builds loki-gate with `cargo install` (language: rust). The
//! build goes to a target directory under Cargo's test scratch space with a
//! cheaper release profile, so later runs only rebuild what changed.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use crate::support::{TestRepo, git_in, output_text, scrub_env};

fn scratch() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join("pre-commit")
}

fn pre_commit(repo: &TestRepo, args: &[&str]) -> Output {
    command(repo, "pre-commit")
        .args(args)
        .output()
        .expect("pre-commit runs (install it with `python3 -m pip install pre-commit`, as .ci/run does)")
}

/// `program` in the repository with pre-commit's cache and the cargo build
/// kept between runs, and loki-gate's own settings cleared.
fn command(repo: &TestRepo, program: &str) -> Command {
    let mut cmd = Command::new(program);
    cmd.current_dir(repo.path())
        .env("PRE_COMMIT_HOME", scratch().join("home"))
        .env("CARGO_TARGET_DIR", scratch().join("target"))
        .env("CARGO_PROFILE_RELEASE_LTO", "false")
        .env("CARGO_PROFILE_RELEASE_OPT_LEVEL", "1")
        .env("CARGO_PROFILE_RELEASE_CODEGEN_UNITS", "16")
        .env("GIT_CONFIG_NOSYSTEM", "1");
    scrub_env(&mut cmd);
    cmd
}

#[test]
fn the_pre_commit_framework_builds_the_hooks_and_they_block_a_tautology() {
    let this = env!("CARGO_MANIFEST_DIR");
    let rev = git_in(Path::new(this), &["rev-parse", "HEAD"]);
    let repo = TestRepo::new();
    repo.write("README.md", "# shop\n\nA cart that sums prices.\n")
        .write("pkg/__init__.py", "")
        .write("pkg/cart.py", "def total(xs):\n    return sum(xs)\n")
        .write(".loki-gate.yaml", "pre-commit-gates: [mock, docs]\n")
        .write(
            ".pre-commit-config.yaml",
            format!(
                "repos:\n  - repo: {this}\n    rev: {rev}\n    hooks:\n      - id: loki-gate\n      - id: loki-gate-mock\n"
            ),
        );
    repo.commit("base");

    let validate = pre_commit(&repo, &["validate-manifest", &format!("{this}/.pre-commit-hooks.yaml")]);
    assert!(validate.status.success(), "{}", output_text(&validate));
    let install = pre_commit(&repo, &["install"]);
    assert!(install.status.success(), "{}", output_text(&install));
    // Build the hook environment once, up front, so a build failure reads as one.
    let build = pre_commit(&repo, &["install-hooks"]);
    assert!(
        build.status.success(),
        "cargo install through pre-commit failed: {}",
        output_text(&build)
    );

    // A commit with a tautological test: pre-commit's hook runs loki-gate on what is staged.
    repo.write(
        "tests/test_cart.py",
        "from pkg.cart import total\n\n\ndef test_total():\n    assert total([1]) == 1\n    assert True\n",
    );
    repo.git(&["add", "-A"]);
    let commit = command(&repo, "git")
        .args(["commit", "-q", "-m", "tautology"])
        .output()
        .unwrap();
    let output = output_text(&commit);
    assert_eq!(commit.status.code(), Some(1), "{output}");
    assert!(output.contains("loki-gate check"), "{output}");
    assert!(output.contains("loki-gate mock"), "{output}");
    assert!(output.contains("mock/tautological-assertion"), "{output}");
    assert_eq!(
        repo.git(&["rev-list", "--count", "HEAD"]),
        "2",
        "the commit was refused"
    );

    // The same file committed past the hook: `pre-commit run --all-files`
    // gates the files whole, with nothing staged.
    repo.git(&["commit", "-q", "--no-verify", "-m", "tautology, past the hook"]);
    let all = pre_commit(&repo, &["run", "--all-files", "loki-gate-mock"]);
    let output = output_text(&all);
    assert_eq!(all.status.code(), Some(1), "{output}");
    assert!(output.contains("tests/test_cart.py:6"), "{output}");

    repo.write(
        "tests/test_cart.py",
        "from pkg.cart import total\n\n\ndef test_total():\n    assert total([1, 2]) == 3\n",
    );
    repo.git(&["add", "-A"]);
    let commit = command(&repo, "git")
        .args(["commit", "-q", "-m", "an honest test"])
        .output()
        .unwrap();
    assert!(commit.status.success(), "{}", output_text(&commit));
    let all = pre_commit(&repo, &["run", "--all-files"]);
    assert!(all.status.success(), "{}", output_text(&all));

    // A gate left out with SKIP is said, also when the hook passes (the
    // framework shows a passing hook's output only when it is `verbose`).
    repo.write(
        "tests/test_cart.py",
        "from pkg.cart import total


def test_total():
    assert total([2]) == 2
",
    );
    repo.git(&["add", "-A"]);
    let skipped = command(&repo, "git")
        .args(["commit", "-q", "-m", "skip mock"])
        .env("SKIP", "mock")
        .output()
        .unwrap();
    let output = output_text(&skipped);
    assert!(skipped.status.success(), "{output}");
    assert!(output.contains("skipped mock (LOKI_GATE_SKIP / SKIP)"), "{output}");
}
