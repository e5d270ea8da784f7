//! Speed of the spine on a generated 2,000-file repository: the git layer,
//! the walker, and the `evidence` gate through the binary.
//!
//! `cargo bench` prints the median and minimum of several runs for each; the
//! targets (DESIGN §10, issue #3) are in the output so a regression is
//! visible. Timings are never asserted in tests.

mod common;

use std::time::Duration;

use common::{git, init, loki_gate, measure, settle};

use loki_gate::changed::{self, Scope};
use loki_gate::git::Repo;
use loki_gate::walk;

const FILES: usize = 2_000;
const RUNS: usize = 15;

fn source(i: usize) -> String {
    let mut s = String::new();
    for line in 0..50 {
        s.push_str(&format!("def function_{i}_{line}(x):\n    return x + {line}\n"));
    }
    s
}

fn main() {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = init(dir.path());
    for i in 0..FILES {
        let path = if i % 11 == 0 {
            root.join(format!("tests/pkg{}/test_{i}.py", i % 17))
        } else {
            root.join(format!("src/pkg{}/mod_{i}.py", i % 23))
        };
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        std::fs::write(path, source(i)).expect("write");
    }
    git(&root, &["add", "-A"]);
    git(&root, &["commit", "-q", "-m", "base"]);
    // A typical change: 20 modified files, 3 staged, 5 untracked.
    for i in (1..FILES).step_by(FILES / 20).filter(|i| i % 11 != 0) {
        let path = root.join(format!("src/pkg{}/mod_{i}.py", i % 23));
        std::fs::write(&path, source(i).replace("return x + 7", "return x - 7")).expect("modify");
    }
    for i in 0..3 {
        std::fs::write(root.join(format!("src/staged_{i}.py")), source(i)).expect("staged");
        git(&root, &["add", &format!("src/staged_{i}.py")]);
    }
    for i in 0..5 {
        std::fs::write(root.join(format!("src/new_{i}.py")), source(i)).expect("untracked");
    }

    settle(&root);

    let exclude = walk::exclude_set(&[]).expect("globs");
    let ms = Duration::from_millis;
    measure(
        RUNS,
        "git: changed files+lines, worktree vs HEAD (2,000 files)",
        None,
        || {
            let repo = Repo::discover(&root).expect("repo");
            let set = changed::collect(
                &repo,
                &Scope::Diff {
                    base: Some("HEAD".into()),
                },
                &exclude,
                &[],
            )
            .expect("diff");
            assert!(set.files.len() >= 20);
        },
    );
    measure(RUNS, "git: changed files+lines, --staged", None, || {
        let repo = Repo::discover(&root).expect("repo");
        let set = changed::collect(&repo, &Scope::Staged, &exclude, &[]).expect("diff");
        assert_eq!(set.files.len(), 3);
    });
    measure(RUNS, "walk: read every file, parallel (2,000 files)", None, || {
        let read = walk::walk(&root, &exclude, &[], &|_| true);
        assert!(read.files.len() >= FILES);
    });

    let run = |args: &[&str]| loki_gate(&root, args).status.code();
    assert_eq!(run(&["evidence", "start"]), Some(0));
    std::thread::sleep(Duration::from_millis(20));
    std::fs::write(root.join("src/after_start.py"), "x = 1\n").expect("change");
    std::thread::sleep(Duration::from_millis(20));
    std::fs::write(
        root.join("junit.xml"),
        "<testsuite><testcase classname='t' name='a'/><testcase classname='t' name='b'/></testsuite>",
    )
    .expect("results");
    measure(
        RUNS,
        "binary: evidence --results junit.xml (2,000-file repo)",
        Some(ms(20)),
        || {
            assert_eq!(run(&["evidence", "-q", "--results", "junit.xml"]), Some(0));
        },
    );
    measure(
        RUNS,
        "binary: evidence --staged, no-op test command (exit 0)",
        Some(ms(20)),
        || {
            assert_eq!(
                run(&[
                    "evidence",
                    "-q",
                    "--staged",
                    "--test-command",
                    "echo '1 passed, 0 failed'"
                ]),
                Some(0)
            );
        },
    );
    measure(RUNS, "binary: rules (start-up cost)", None, || {
        assert_eq!(run(&["rules"]), Some(0));
    });
}
