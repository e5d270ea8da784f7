//! Speed of the mutation gate (DESIGN §10, issue #5): a generated history of
//! 1,000 commits, each touching a test file and most touching code, gated
//! as one range through the binary. Target: under 3 s on 2 cores (the shell
//! reference took about 35 ms per commit, 35 s in all).
//!
//! The history is written with git2 (a commit a millisecond) rather than a
//! `git commit` per step, which would take longer than the run it sets up.

mod common;

use std::path::Path;
use std::time::Duration;

use common::{init, loki_gate, measure, say, settle};

const CODE_FILES: usize = 200;
const TEST_FILES: usize = 40;
const TESTS_PER_FILE: usize = 60;
const COMMITS: usize = 1_000;
const RUNS: usize = 5;

fn python_tests(i: usize, extra: usize, expected_shift: usize) -> String {
    let mut s = format!("import pytest\n\nfrom pkg.mod_{i} import compute\n\n\n");
    for t in 0..TESTS_PER_FILE + extra {
        let expected = t * 2 + usize::from(t < expected_shift);
        s.push_str(&format!(
            "def test_case_{t}():\n    \"\"\"Case {t}.\"\"\"\n    value = compute({t}, {t})\n    assert value == {expected}\n    assert isinstance(value, int)\n\n\n"
        ));
    }
    s
}

fn ts_tests(i: usize, extra: usize, expected_shift: usize) -> String {
    let mut s = format!(
        "import {{ describe, expect, it }} from \"vitest\"\nimport {{ compute }} from \"../src/mod_{i}\"\n\ndescribe(\"mod {i}\", () => {{\n"
    );
    for t in 0..TESTS_PER_FILE + extra {
        let expected = t * 2 + usize::from(t < expected_shift);
        s.push_str(&format!(
            "  it(\"case {t}\", () => {{\n    const value = compute({t}, {t})\n    expect(value).toBe({expected})\n    expect(value).toBeGreaterThan(-1)\n  }})\n\n"
        ));
    }
    s.push_str("})\n");
    s
}

/// Test file `i`: even indexes are Python, odd TypeScript; each tests code file `i`.
fn test_file(i: usize, extra: usize, shift: usize) -> (String, String) {
    if i.is_multiple_of(2) {
        (format!("tests/test_mod_{i}.py"), python_tests(i, extra, shift))
    } else {
        (format!("web/tests/mod_{i}.test.ts"), ts_tests(i, extra, shift))
    }
}

fn code_file(i: usize, version: usize) -> (String, String) {
    if i.is_multiple_of(2) {
        (
            format!("pkg/mod_{i}.py"),
            format!("def compute(a, b):\n    return a + b + 0 * {version}\n"),
        )
    } else {
        (
            format!("web/src/mod_{i}.ts"),
            format!("export const compute = (a: number, b: number) => a + b + 0 * {version}\n"),
        )
    }
}

/// Write the history with git2: a base commit, then `COMMITS` commits. Each
/// adds a test to one test file; every fourth also changes the expected value
/// of one more base test in the same commit as its code (a finding), the
/// others change unrelated code. Returns the base commit.
fn history(root: &Path) -> String {
    let repo = git2::Repository::open(root).expect("open");
    let mut index = repo.index().expect("index");
    let signature =
        git2::Signature::new("bench", "bench@example.com", &git2::Time::new(1_767_225_600, 0)).expect("sig");
    let put = |index: &mut git2::Index, path: &str, text: &str| {
        let id = repo.blob(text.as_bytes()).expect("blob");
        let mut entry = git2::IndexEntry {
            ctime: git2::IndexTime::new(0, 0),
            mtime: git2::IndexTime::new(0, 0),
            dev: 0,
            ino: 0,
            mode: 0o100_644,
            uid: 0,
            gid: 0,
            file_size: u32::try_from(text.len()).expect("size"),
            id,
            flags: 0,
            flags_extended: 0,
            path: path.as_bytes().to_vec(),
        };
        entry.flags = u16::try_from(path.len().min(0xfff)).expect("flags");
        index.add(&entry).expect("add");
    };
    let mut extra = vec![0usize; TEST_FILES];
    let mut shift = vec![0usize; TEST_FILES];
    for i in 0..TEST_FILES {
        let (path, text) = test_file(i, 0, 0);
        put(&mut index, &path, &text);
    }
    for i in 0..CODE_FILES {
        let (path, text) = code_file(i, 0);
        put(&mut index, &path, &text);
    }
    put(&mut index, "pkg/__init__.py", "");
    let commit = |index: &mut git2::Index, message: &str, parent: Option<git2::Oid>| {
        let tree = repo.find_tree(index.write_tree().expect("tree")).expect("find tree");
        let parents: Vec<git2::Commit<'_>> = parent
            .map(|p| repo.find_commit(p).expect("parent"))
            .into_iter()
            .collect();
        let refs: Vec<&git2::Commit<'_>> = parents.iter().collect();
        repo.commit(Some("HEAD"), &signature, &signature, message, &tree, &refs)
            .expect("commit")
    };
    let base = commit(&mut index, "base", None);
    let mut head = base;
    for c in 0..COMMITS {
        // Bent commits fall on Python and TypeScript files alike.
        let t = (c * 7 + c / TEST_FILES) % TEST_FILES;
        extra[t] += 1;
        let bend = c % 4 == 3;
        if bend {
            shift[t] += 1;
        }
        let (path, text) = test_file(t, extra[t], shift[t]);
        put(&mut index, &path, &text);
        let code = if bend {
            t
        } else {
            TEST_FILES + (c % (CODE_FILES - TEST_FILES))
        };
        let (path, text) = code_file(code, c + 1);
        put(&mut index, &path, &text);
        head = commit(&mut index, &format!("change {c}"), Some(head));
    }
    index.write().expect("write index");
    repo.checkout_head(Some(git2::build::CheckoutBuilder::new().force()))
        .expect("checkout");
    base.to_string()
}

fn main() {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = init(dir.path());
    let base = history(&root);
    settle(&root);
    if std::env::var_os("BENCH_KEEP").is_some() {
        say(&format!("kept {}\n", dir.keep().display()));
    }
    say(&format!(
        "{COMMITS} commits over {TEST_FILES} test files ({TESTS_PER_FILE}+ tests each) and {CODE_FILES} code files\n"
    ));
    let run = |args: &[&str]| loki_gate(&root, args);
    let expected = COMMITS / 4;
    let gate = |cache: bool| {
        let mut args = vec!["mutation", "--base", &base, "--max-commits", "0", "--format", "json"];
        if !cache {
            args.push("--no-cache");
        }
        let out = run(&args);
        assert_eq!(out.status.code(), Some(1), "{}", String::from_utf8_lossy(&out.stderr));
        let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
        let found = report["findings"].as_array().expect("findings").len();
        assert_eq!(found, expected, "one finding per bent commit");
    };
    measure(
        RUNS,
        "binary: mutation over 1,000 commits --no-cache (cold)",
        Some(Duration::from_secs(3)),
        || gate(false),
    );
    measure(
        RUNS,
        "binary: mutation over 1,000 commits (parse cache warm)",
        Some(Duration::from_secs(3)),
        || gate(true),
    );
    measure(
        RUNS,
        "binary: mutation, default max-commits (50; no target)",
        None,
        || {
            let out = run(&["mutation", "-q", "--base", &base, "--no-cache"]);
            assert_eq!(out.status.code(), Some(1));
        },
    );
}
