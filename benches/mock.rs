//! Speed of the mock gate (DESIGN §10, issue #4): a generated repository of
//! 2,000 files with 180 Python and TypeScript test files (about 100k lines of
//! tests), `mock --all-files` and a staged-file hook run, through the binary.

mod common;

use std::time::Duration;

use common::{git, init, loki_gate, measure, say, settle};

const FILES: usize = 2_000;
const TEST_FILES: usize = 180;
const TESTS_PER_FILE: usize = 110;
const RUNS: usize = 11;

/// The source module test file `i` tests: even indexes are Python, odd TypeScript.
fn subject(i: usize, typescript: bool) -> usize {
    TEST_FILES + 2 * i + usize::from(typescript)
}

fn python_tests(i: usize) -> String {
    let j = subject(i, false);
    let mut s = format!("import pytest\n\nfrom pkg{}.mod_{j} import compute\n\n\n", j % 40);
    for t in 0..TESTS_PER_FILE {
        s.push_str(&format!(
            "def test_case_{t}():\n    \"\"\"Case {t}.\"\"\"\n    value = compute({t}, {t})\n    assert value == {}\n\n\n",
            t * 2
        ));
    }
    s
}

fn ts_tests(i: usize) -> String {
    let j = subject(i, true);
    let mut s = format!(
        "import {{ describe, expect, it }} from \"vitest\"\nimport {{ compute }} from \"../src/mod_{j}\"\n\ndescribe(\"mod {i}\", () => {{\n"
    );
    for t in 0..TESTS_PER_FILE {
        s.push_str(&format!(
            "  it(\"case {t}\", () => {{\n    const value = compute({t}, {t})\n    expect(value).toBe({})\n  }})\n\n",
            t * 2
        ));
    }
    s.push_str("})\n");
    s
}

fn main() {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = init(dir.path());
    let mut test_lines = 0;
    for i in 0..FILES {
        let (path, text) = if i < TEST_FILES / 2 {
            (format!("tests/test_mod_{i}.py"), python_tests(i))
        } else if i < TEST_FILES {
            (format!("web/tests/mod_{i}.test.ts"), ts_tests(i))
        } else if i % 2 == 0 {
            (
                format!("src/pkg{}/mod_{i}.py", i % 40),
                format!("def compute(a, b):\n    return a + b  # {i}\n"),
            )
        } else {
            (
                format!("web/src/mod_{i}.ts"),
                format!("export const compute = (a: number, b: number) => a + b // {i}\n"),
            )
        };
        if i < TEST_FILES {
            test_lines += text.lines().count();
        }
        let path = root.join(path);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        std::fs::write(path, text).expect("write");
    }
    git(&root, &["add", "-A"]);
    git(&root, &["commit", "-q", "-m", "base"]);
    settle(&root);
    // For profiling: LOKI_GATE_BENCH_KEEP=1 leaves the repository behind.
    if std::env::var_os("LOKI_GATE_BENCH_KEEP").is_some() {
        say(&format!("kept {}\n", dir.keep().display()));
    }
    say(&format!(
        "{FILES} files, {TEST_FILES} test files, {test_lines} lines of tests\n"
    ));

    let run = |args: &[&str]| loki_gate(&root, args);
    measure(
        RUNS,
        "binary: mock --all-files --no-cache (cold)",
        Some(Duration::from_millis(300)),
        || {
            let out = run(&["mock", "-q", "--all-files", "--no-cache"]);
            assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stdout));
        },
    );
    measure(
        RUNS,
        "binary: mock --all-files (parse cache warm)",
        Some(Duration::from_millis(300)),
        || {
            let out = run(&["mock", "-q", "--all-files"]);
            assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stdout));
        },
    );
    std::fs::write(
        root.join("tests/test_mod_3.py"),
        python_tests(3) + "\ndef test_new():\n    assert compute(1, 1) == 2\n",
    )
    .expect("change");
    git(&root, &["add", "tests/test_mod_3.py"]);
    measure(
        RUNS,
        "binary: mock --staged --no-cache (one staged test file)",
        Some(Duration::from_millis(30)),
        || {
            // A hook sees a freshly edited file: its parse is never cached yet.
            let out = run(&["mock", "-q", "--staged", "--no-cache"]);
            assert_eq!(out.status.code(), Some(0));
        },
    );
    // A staged change to project code: the gate looks for the tests that import it.
    git(&root, &["reset", "-q"]);
    let source = format!("src/pkg{}/mod_{}.py", subject(4, false) % 40, subject(4, false));
    std::fs::write(root.join(&source), "def compute(a, b):\n    return b + a\n").expect("change");
    git(&root, &["add", &source]);
    measure(
        RUNS,
        "binary: mock --staged (one staged source file; finds its tests)",
        Some(Duration::from_millis(30)),
        || {
            let out = run(&["mock", "-q", "--staged"]);
            assert_eq!(out.status.code(), Some(0));
        },
    );
}
