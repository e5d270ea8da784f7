//! Speed of the mock gate (DESIGN §10, issues #4 and #28): a generated
//! repository of 2,000 files with 180 Python and TypeScript test files (about
//! 100k lines of tests), `mock --all-files` and a staged-file hook run,
//! through the binary, against the parse floor: finding, reading and parsing
//! the same test files in-process, in parallel, and nothing else.
//!
//! `BENCH_REPO=/path/to/checkout cargo bench --bench mock` measures
//! the full runs on a real repository instead (the target there: cold within
//! 1.3x of the floor, warm under 150 ms).

mod common;

use std::path::Path;
use std::time::Duration;

use common::{git, init, loki_gate, measure, measure_both, say, settle};
use loki_gate::gates::project::classify::Classifier;
use loki_gate::walk;
use rayon::prelude::*;

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

/// How far [`stages`] takes each test file.
#[derive(Clone, Copy)]
enum Stage {
    /// tree-sitter's parse, and nothing else: the floor.
    Parse,
    /// The parse flattened into the array the model reads.
    Flatten,
    /// The test model built.
    Model,
}

/// Find, read and parse every test file of `root` as the gate classifies
/// them, up to `stage`; returns how many were parsed.
fn stages(root: &Path, stage: Stage) -> usize {
    let out = std::process::Command::new("git")
        .args(["ls-files", "-z", "--", "*package.json"])
        .current_dir(root)
        .output()
        .expect("git ls-files");
    let manifests: Vec<std::path::PathBuf> = out
        .stdout
        .split(|b| *b == 0)
        .filter(|p| !p.is_empty() && !p.windows(12).any(|w| w == b"node_modules"))
        .map(|p| String::from_utf8_lossy(p).into_owned().into())
        .collect();
    let classifier = Classifier::load(root, &manifests);
    let exclude = walk::exclude_set(&[]).expect("no globs");
    let read = walk::walk(root, &exclude, &[], &|p: &Path| classifier.test_file(p).is_some());
    read.files
        .par_iter()
        .filter(|f| {
            let lang = classifier.test_file(&f.path).expect("classified");
            match stage {
                Stage::Parse => lang.parse_tree(&f.bytes).is_some(),
                Stage::Flatten => lang.parse(&f.bytes).is_some(),
                Stage::Model => lang.test_file(&f.bytes).is_some(),
            }
        })
        .count()
}

/// The cold and warm full runs in `root`, against the parse floor.
fn full_runs(root: &Path, cold_target: Option<Duration>, warm_target: Option<Duration>) {
    let parsed = stages(root, Stage::Parse);
    let floor = measure_both(
        RUNS,
        &format!("in-process: find, read, parse {parsed} test files"),
        None,
        || {
            stages(root, Stage::Parse);
        },
    );
    measure_both(RUNS, "in-process: .. and flatten each tree", None, || {
        stages(root, Stage::Flatten);
    });
    measure_both(RUNS, "in-process: .. and build each test model", None, || {
        stages(root, Stage::Model);
    });
    let run = |args: &[&str]| loki_gate(root, args);
    // Exit 1 (findings) is a result, not a failure, on a real repository.
    let ok = |out: std::process::Output| {
        assert!(
            matches!(out.status.code(), Some(0 | 1)),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    };
    let cold = measure_both(RUNS, "binary: mock --all-files --no-cache (cold)", cold_target, || {
        ok(run(&["mock", "-q", "--all-files", "--no-cache"]));
    });
    measure(RUNS, "binary: mock --all-files (parse cache warm)", warm_target, || {
        ok(run(&["mock", "-q", "--all-files"]));
    });
    say(&format!(
        "cold run / parse floor: {:.2}x wall, {:.2}x cpu (target 1.3x)\n",
        cold.0.as_secs_f64() / floor.0.as_secs_f64(),
        cold.1.as_secs_f64() / floor.1.as_secs_f64()
    ));
}

fn main() {
    if let Some(repo) = std::env::var_os("BENCH_REPO") {
        let root = Path::new(&repo).canonicalize().expect("BENCH_REPO: no such directory");
        full_runs(&root, None, Some(Duration::from_millis(150)));
        return;
    }
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
    // For profiling: BENCH_KEEP=1 leaves the repository behind.
    if std::env::var_os("BENCH_KEEP").is_some() {
        say(&format!("kept {}\n", dir.keep().display()));
    }
    say(&format!(
        "{FILES} files, {TEST_FILES} test files, {test_lines} lines of tests\n"
    ));

    full_runs(
        &root,
        Some(Duration::from_millis(300)),
        Some(Duration::from_millis(300)),
    );
    let run = |args: &[&str]| loki_gate(&root, args);
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
    worst_cases();
}

/// Text that drives a grammar or the model into its slow paths, each near
/// the size cap (2 MB), read in-process as one test file (issue 63). The
/// target: code that parses (comments) under a second; text that is
/// mostly syntax errors, where tree-sitter's recovery is slow, within the
/// parse budget and a second (it is given up: `meta/parse-too-slow`).
fn worst_cases() {
    use loki_gate::lang::Lang;
    const CAP: usize = 2_000_000;
    let fill = |head: &str, unit: &str| format!("{head}{}", unit.repeat((CAP - head.len()) / unit.len()));
    let py = "def test_x():\n    assert 1 == 1\n";
    let js = "test('x', () => { expect(1).toBe(1) })\n";
    let cases = [
        (
            "Python comment lines",
            Lang::Python,
            fill(py, "# a comment line that says something\n"),
        ),
        ("Python class headers (errors)", Lang::Python, fill(py, "class A(:\n")),
        (
            "Python open brackets on each line (errors)",
            Lang::Python,
            fill(py, "    x = [\n"),
        ),
        ("Python decorators alone (errors)", Lang::Python, fill(py, "@\n")),
        ("Python backslash lines (errors)", Lang::Python, fill(py, "\\\n")),
        (
            "JavaScript line comments",
            Lang::JavaScript,
            fill(js, "// a comment line\n"),
        ),
        (
            "JavaScript ++ across lines (errors)",
            Lang::JavaScript,
            fill(js, "a\n++\n"),
        ),
        ("TypeScript nested `a<` (errors)", Lang::TypeScript, fill(js, "a<")),
        (
            "Rust line comments",
            Lang::Rust,
            fill("#[test]\nfn x() { assert_eq!(1, 1); }\n", "// a comment\n"),
        ),
        ("Go line comments", Lang::Go, fill("package m\n", "// a comment\n")),
    ];
    for (name, lang, text) in cases {
        let target = match name.ends_with("(errors)") {
            true => loki_gate::lang::PARSE_BUDGET + Duration::from_secs(1),
            false => Duration::from_secs(1),
        };
        measure(
            3,
            &format!("in-process: {name}, {} bytes", text.len()),
            Some(target),
            || {
                let file = lang.test_file(text.as_bytes()).expect("grammar loads");
                std::hint::black_box(file);
            },
        );
    }
}
