//! Repositories in the shapes people and CI really have (issue 25): sparse
//! checkouts, partial clones, odd file names. None of them may read as a
//! change that did not happen, or let a change pass unread.

use crate::support::TestRepo;

const README: &str = "# shop\n\nA cart that sums prices.\n";
const TEST: &str = "from shop.cart import total\n\n\ndef test_total():\n    assert total([1, 2]) == 3\n";

/// A project whose tests and README a sparse checkout leaves out, with a
/// commit in the range that changed a file outside the cone.
fn sparse_project() -> (TestRepo, String) {
    let repo = TestRepo::new();
    repo.write("README.md", README)
        .write("shop/__init__.py", "")
        .write("shop/cart.py", "def total(xs):\n    return sum(xs)\n")
        .write("tests/test_cart.py", TEST)
        .write("other/notes.txt", "1\n");
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

#[test]
fn a_file_marked_skip_worktree_is_not_changed_by_what_is_on_disk() {
    let repo = TestRepo::new();
    repo.write("README.md", README)
        .write("shop/__init__.py", "")
        .write("shop/cart.py", "def total(xs):\n    return sum(xs)\n")
        .write("tests/test_cart.py", TEST);
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
    assert_eq!(run.findings(), vec!["evidence/empty-diff error -:0".to_string()]);
    repo.remove("tests/test_cart.py");
    let run = repo.run(&["mutation", "--format", "json"]);
    assert!(run.findings().is_empty(), "{:?}", run.findings());
}
