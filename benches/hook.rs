//! Latency of the pre-commit hook as repositories grow (issue #32): a
//! generated monorepo of TypeScript packages (each with its package.json,
//! a vitest config, sources and tests) and Python packages, one staged
//! source change, and `hook run pre-commit` (static, mock and docs on what
//! is staged) through the binary, warm; then the same with a test file
//! staged whose base version has a finding (the hook judges that version
//! too, issue 52). The work must follow the change, not the repository:
//! the target is the same at every size.
//!
//! `BENCH_SIZES=2000,20000` picks the sizes (default 2,000,
//! 20,000 and 100,000 files); `BENCH_KEEP=DIR` generates the
//! repositories under DIR and keeps them for profiling.

mod common;

use std::fmt::Write as _;
use std::path::Path;
use std::time::Duration;

use common::{git, init, loki_gate, measure, say, settle};

const RUNS: usize = 11;
/// Files in one TypeScript package: package.json, vitest config, sources, tests.
const TS_SOURCES: usize = 36;
const TS_TESTS: usize = 24;
const PY_SOURCES: usize = 30;
const PY_TESTS: usize = 20;

fn ts_source(p: usize, i: usize) -> String {
    let mut s = String::new();
    for f in 0..12 {
        let _ = writeln!(
            s,
            "export function compute{f}(a: number, b: number): number {{\n  return a * {p} + b - {i} + {f}\n}}\n"
        );
    }
    s
}

fn ts_test(i: usize) -> String {
    let mut s = format!(
        "import {{ describe, expect, it }} from \"vitest\"\nimport {{ compute0, compute1 }} from \"../src/mod{i}\"\n\ndescribe(\"mod{i}\", () => {{\n"
    );
    for t in 0..8 {
        let _ = writeln!(
            s,
            "  it(\"case {t}\", () => {{\n    expect(compute0({t}, 1)).toBeGreaterThan(compute1(0, {t}) - 1000)\n  }})\n"
        );
    }
    s.push_str("})\n");
    s
}

fn py_source(p: usize, i: usize) -> String {
    let mut s = String::new();
    for f in 0..12 {
        let _ = writeln!(s, "def compute{f}(a, b):\n    return a * {p} + b - {i} + {f}\n\n");
    }
    s
}

fn py_test(p: usize, i: usize) -> String {
    let mut s = format!("from pypkg{p}.mod{i} import compute0, compute1\n\n\n");
    for t in 0..8 {
        let _ = writeln!(
            s,
            "def test_case_{t}():\n    assert compute0({t}, 1) > compute1(0, {t}) - 1000\n\n"
        );
    }
    s
}

fn write(root: &Path, rel: &str, text: &str) {
    let path = root.join(rel);
    std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
    std::fs::write(path, text).expect("write");
}

/// A repository of about `files` files: nine TypeScript packages for each
/// Python one.
fn generate(root: &Path, files: usize) {
    write(root, "README.md", "# Monorepo\n\nRun `npm test`.\n");
    write(
        root,
        "package.json",
        "{\n  \"name\": \"mono\",\n  \"private\": true,\n  \"workspaces\": [\"packages/*\"]\n}\n",
    );
    let ts_files = 2 + TS_SOURCES + TS_TESTS;
    let py_files = 1 + PY_SOURCES + PY_TESTS;
    let group = 9 * ts_files + py_files;
    let mut written = 2;
    let mut p = 0;
    while written < files {
        for k in 0..9 {
            let dir = format!("packages/pkg{}", p * 9 + k);
            write(
                root,
                &format!("{dir}/package.json"),
                &format!(
                    "{{\n  \"name\": \"@mono/pkg{}\",\n  \"scripts\": {{ \"test\": \"vitest run\" }},\n  \"devDependencies\": {{ \"vitest\": \"^2.0.0\" }}\n}}\n",
                    p * 9 + k
                ),
            );
            write(
                root,
                &format!("{dir}/vitest.config.ts"),
                "import { defineConfig } from \"vitest/config\"\n\nexport default defineConfig({\n  test: { include: [\"tests/**/*.test.ts\"] },\n})\n",
            );
            for i in 0..TS_SOURCES {
                write(root, &format!("{dir}/src/mod{i}.ts"), &ts_source(p, i));
            }
            for i in 0..TS_TESTS {
                write(root, &format!("{dir}/tests/mod{i}.test.ts"), &ts_test(i));
            }
        }
        let dir = format!("python/pypkg{p}");
        write(root, &format!("{dir}/__init__.py"), "");
        for i in 0..PY_SOURCES {
            write(root, &format!("{dir}/mod{i}.py"), &py_source(p, i));
        }
        for i in 0..PY_TESTS {
            write(root, &format!("tests/pypkg{p}/test_mod{i}.py"), &py_test(p, i));
        }
        written += group;
        p += 1;
    }
}

fn main() {
    let sizes: Vec<usize> = std::env::var("BENCH_SIZES")
        .unwrap_or_else(|_| "2000,20000,100000".into())
        .split(',')
        .map(|s| s.trim().parse().expect("BENCH_SIZES: comma-separated numbers"))
        .collect();
    let keep = std::env::var_os("BENCH_KEEP");
    for files in sizes {
        let temp = tempfile::tempdir().expect("temp dir");
        let dir = match &keep {
            Some(keep) => Path::new(keep).join(format!("r{files}")),
            None => temp.path().to_path_buf(),
        };
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("repo dir");
        let root = init(&dir);
        generate(&root, files);
        // A hollow test the base already has, in a test of the changed
        // module: the hook holds the line (issue 52) on it every time.
        let hollow_test = "packages/pkg0/tests/mod3.test.ts";
        let hollow = format!(
            "{}\nit(\"is hollow\", () => {{\n  expect(true).toBe(true)\n}})\n",
            ts_test(3)
        );
        write(&root, hollow_test, &hollow);
        git(&root, &["add", "-A"]);
        git(&root, &["commit", "-q", "-m", "base"]);
        // One source change, staged, as a pre-commit hook sees it.
        let changed = "packages/pkg0/src/mod3.ts";
        let text = std::fs::read_to_string(root.join(changed)).expect("read");
        write(
            &root,
            changed,
            &text.replace("return a * 0 + b - 3 + 0", "return a * 0 + b + 3 + 0"),
        );
        git(&root, &["add", changed]);
        settle(&root);
        let tracked = std::process::Command::new("git")
            .args(["ls-files"])
            .current_dir(&root)
            .output()
            .expect("git ls-files")
            .stdout
            .split(|b| *b == b'\n')
            .filter(|l| !l.is_empty())
            .count();
        say(&format!("{tracked} tracked files, one staged change\n"));
        let run = |args: &[&str]| {
            let out = loki_gate(&root, args);
            assert!(
                matches!(out.status.code(), Some(0 | 1)),
                "{args:?}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
        };
        measure(
            RUNS,
            &format!("hook run pre-commit ({tracked} files)"),
            Some(Duration::from_millis(50)),
            || run(&["hook", "run", "pre-commit"]),
        );
        for gate in ["static", "mock", "docs"] {
            measure(RUNS, &format!("  {gate} --staged"), None, || run(&[gate, "--staged"]));
        }
        // The test file itself edited: its base version is read and judged.
        write(
            &root,
            hollow_test,
            &format!("{hollow}\nit(\"adds\", () => {{\n  expect(compute0(1, 2)).toBe(2)\n}})\n"),
        );
        git(&root, &["add", hollow_test]);
        measure(
            RUNS,
            "  hook run pre-commit, a test file the base had a finding in staged",
            Some(Duration::from_millis(50)),
            || run(&["hook", "run", "pre-commit"]),
        );
        write(&root, hollow_test, &hollow);
        git(&root, &["add", hollow_test]);
        // The first hook after a commit carries the import index forward;
        // the very first one (no state directory) builds it.
        let once = |what: &str, prepare: &dyn Fn(usize)| {
            let mut times: Vec<f64> = (0..3)
                .map(|n| {
                    prepare(n);
                    let t = std::time::Instant::now();
                    run(&["hook", "run", "pre-commit"]);
                    t.elapsed().as_secs_f64() * 1e3
                })
                .collect();
            times.sort_by(f64::total_cmp);
            say(&format!("  {what:<56} median {:>8.2} ms\n", times[1]));
        };
        let stage = |n: usize| {
            write(
                &root,
                changed,
                &text.replace("return a * 0 + b - 3 + 0", &format!("return a * 0 + b + {n} + 0")),
            );
            git(&root, &["add", changed]);
        };
        once("first hook after a commit (index carried forward)", &|n| {
            git(&root, &["commit", "-q", "-m", &format!("change {n}")]);
            stage(n + 10);
        });
        once("first hook ever (no state directory: index built)", &|_| {
            let _ = std::fs::remove_dir_all(root.join(".loki-gate"));
        });
        say("  git diff --cached --name-only (for scale): ");
        let t = std::time::Instant::now();
        git(&root, &["diff", "--cached", "--name-only"]);
        say(&format!("{:.1} ms\n", t.elapsed().as_secs_f64() * 1e3));
    }
}
