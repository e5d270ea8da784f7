//! Speed of `evidence --coverage` (issue #12): a generated repository of
//! 2,000 Python files of 200 lines, 50 of them changed, and reports that list
//! every file and every line (400k lines): LCOV with repo-relative names,
//! LCOV with a foreign CI checkout's absolute names (every name found by its
//! tail), and Cobertura XML. Through the binary, with a results file so no
//! test command runs.

mod common;

use std::fmt::Write as _;
use std::time::Duration;

use common::{git, init, loki_gate, measure, say, settle};

const FILES: usize = 2_000;
const LINES: usize = 200;
const CHANGED: usize = 50;
const RUNS: usize = 11;

fn path(i: usize) -> String {
    format!("pkg{}/mod_{i}.py", i % 40)
}

fn source(i: usize, extra: bool) -> String {
    let mut s = String::new();
    for l in 0..LINES {
        let _ = writeln!(s, "value_{l} = {i} + {l}");
    }
    if extra {
        for l in 0..20 {
            let _ = writeln!(s, "added_{l} = {l}");
        }
    }
    s
}

fn lcov(prefix: &str) -> String {
    let mut s = String::new();
    for i in 0..FILES {
        let _ = writeln!(s, "TN:\nSF:{prefix}{}", path(i));
        for l in 1..=LINES + 20 {
            let _ = writeln!(s, "DA:{l},{}", usize::from(l % 3 != 0));
        }
        s.push_str("end_of_record\n");
    }
    s
}

fn cobertura() -> String {
    let mut s = String::from(
        "<?xml version=\"1.0\" ?>\n<coverage><sources><source>/ci/work/p</source></sources><packages><package name=\"p\"><classes>\n",
    );
    for i in 0..FILES {
        let _ = write!(s, "<class name=\"m{i}\" filename=\"{}\"><lines>", path(i));
        for l in 1..=LINES + 20 {
            let _ = write!(s, "<line number=\"{l}\" hits=\"{}\"/>", usize::from(l % 3 != 0));
        }
        s.push_str("</lines></class>\n");
    }
    s.push_str("</classes></package></packages></coverage>\n");
    s
}

fn main() {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = init(dir.path());
    for i in 0..FILES {
        let p = root.join(path(i));
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, source(i, false)).unwrap();
    }
    // Reports are build output, ignored as in a real project (an untracked
    // 12 MB report would otherwise be a change whose lines are diffed).
    std::fs::write(root.join(".gitignore"), "*.info\ncoverage.xml\njunit.xml\n").unwrap();
    git(&root, &["add", "-A"]);
    git(&root, &["commit", "-q", "-m", "base"]);
    assert!(loki_gate(&root, &["evidence", "start"]).status.success());
    for i in 0..CHANGED {
        std::fs::write(root.join(path(i * (FILES / CHANGED))), source(i, true)).unwrap();
    }
    std::thread::sleep(Duration::from_millis(20));
    std::fs::write(root.join("lcov.info"), lcov("")).unwrap();
    std::fs::write(root.join("foreign.info"), lcov("/home/runner/work/p/p/")).unwrap();
    std::fs::write(root.join("coverage.xml"), cobertura()).unwrap();
    // The results come last, as from a test run.
    std::fs::write(root.join("junit.xml"), "<testsuite><testcase name=\"t\"/></testsuite>").unwrap();
    settle(&root);
    let size = |f: &str| std::fs::metadata(root.join(f)).unwrap().len() / 1_000_000;
    say(&format!(
        "{FILES} files x {LINES} lines, {CHANGED} changed; lcov.info {} MB, coverage.xml {} MB\n",
        size("lcov.info"),
        size("coverage.xml")
    ));
    measure(
        RUNS,
        "binary: evidence --results junit.xml (no coverage, baseline)",
        None,
        || {
            let out = loki_gate(&root, &["evidence", "-q", "--base", "HEAD", "--results", "junit.xml"]);
            assert_eq!(out.status.code(), Some(0));
        },
    );
    for (name, report) in [
        ("binary: evidence --coverage lcov.info (relative names)", "lcov.info"),
        ("binary: evidence --coverage foreign.info (by tail)", "foreign.info"),
        ("binary: evidence --coverage coverage.xml (Cobertura)", "coverage.xml"),
    ] {
        measure(RUNS, name, Some(Duration::from_millis(500)), || {
            let out = loki_gate(
                &root,
                &[
                    "evidence",
                    "-q",
                    "--base",
                    "HEAD",
                    "--results",
                    "junit.xml",
                    "--coverage",
                    report,
                ],
            );
            assert_eq!(
                out.status.code(),
                Some(0),
                "{}{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            );
        });
    }
}
