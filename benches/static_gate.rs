//! The static gate's own cost on a generated 2,000-file Python + TypeScript
//! repository (1,000 of each, a change to 20 of them): first with tools
//! that answer at once (so the time is the gate's: git, detection,
//! spawning, parsing, filtering, the report), then with the real ruff and
//! tsc beside the same tools run by hand, then `--new-only`, whose extra
//! cost is the base revision's worktree and a second run of each tool.
//!
//! The target (issue #6): the gate adds under 50 ms to the tools' own time.
//! Real tools are skipped, with a line saying so, when not installed.

mod common;

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use common::{git, init, loki_gate, measure, say, settle};

const FILES: usize = 2_000;
const RUNS: usize = 10;

fn python(i: usize) -> String {
    let mut s = String::from("import os\n\n\n");
    for f in 0..20 {
        s.push_str(&format!(
            "def function_{i}_{f}(x: int) -> int:\n    return x + {f}\n\n\n"
        ));
    }
    s
}

fn typescript(i: usize) -> String {
    let mut s = String::new();
    for f in 0..20 {
        s.push_str(&format!(
            "export function f{i}_{f}(x: number): number {{\n  return x + {f};\n}}\n\n"
        ));
    }
    s
}

fn write(root: &Path, rel: &str, text: &str) {
    let path = root.join(rel);
    std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
    std::fs::write(path, text).expect("write");
}

fn installed(program: &str) -> bool {
    Command::new(program)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

fn main() {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = init(dir.path());
    write(&root, ".gitignore", ".venv/\n.ruff_cache/\n");
    // The project configures ruff (auto runs only the tools a project uses).
    write(&root, "ruff.toml", "");
    write(
        &root,
        "tsconfig.json",
        r#"{ "compilerOptions": { "strict": true, "noEmit": true, "target": "es2022", "module": "nodenext" }, "include": ["web"] }"#,
    );
    for i in 0..FILES / 2 {
        write(&root, &format!("app/pkg{}/mod_{i}.py", i % 23), &python(i));
        write(&root, &format!("web/pkg{}/mod_{i}.ts", i % 23), &typescript(i));
    }
    git(&root, &["add", "-A"]);
    git(&root, &["commit", "-q", "-m", "base"]);
    // The change: 10 Python and 10 TypeScript files, each with a new finding.
    for i in (0..FILES / 2).step_by(FILES / 20) {
        let py = format!("app/pkg{}/mod_{i}.py", i % 23);
        write(&root, &py, &python(i).replace("import os\n", "import os\nimport sys\n"));
        let ts = format!("web/pkg{}/mod_{i}.ts", i % 23);
        write(
            &root,
            &ts,
            &format!("{}export const bad: number = \"x\";\n", typescript(i)),
        );
    }
    settle(&root);
    let ms = Duration::from_millis;
    let gate = |args: &[&str]| {
        let out = loki_gate(&root, args);
        assert!(
            matches!(out.status.code(), Some(0 | 1)),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    };

    // Tools that answer at once: the time is the gate's.
    write(&root, ".venv/bin/ruff", "#!/bin/sh\necho '[]'\n");
    write(&root, ".venv/bin/tsc", "#!/bin/sh\nexit 0\n");
    for tool in ["ruff", "tsc"] {
        Command::new("chmod")
            .args(["+x", &format!(".venv/bin/{tool}")])
            .current_dir(&root)
            .status()
            .expect("chmod");
    }
    measure(
        RUNS,
        "gate overhead: ruff + tsc answering at once (2,000 files)",
        Some(ms(50)),
        || gate(&["static", "-q", "--base", "HEAD"]),
    );
    measure(
        RUNS,
        "gate overhead with --new-only (worktree of 2,000 files)",
        None,
        || gate(&["static", "-q", "--base", "HEAD", "--new-only"]),
    );
    std::fs::remove_dir_all(root.join(".venv")).expect("remove fakes");

    let changed: Vec<String> = (0..FILES / 2)
        .step_by(FILES / 20)
        .map(|i| format!("app/pkg{}/mod_{i}.py", i % 23))
        .collect();
    if installed("ruff") {
        measure(RUNS, "ruff by hand on the 10 changed Python files", None, || {
            let out = Command::new("ruff")
                .args([
                    "check",
                    "--output-format",
                    "json",
                    "--no-fix",
                    "--force-exclude",
                    "--quiet",
                ])
                .args(&changed)
                .current_dir(&root)
                .output()
                .expect("ruff");
            assert_eq!(out.status.code(), Some(1));
        });
        measure(RUNS, "static --tool ruff", None, || {
            gate(&["static", "-q", "--base", "HEAD", "--tool", "ruff"]);
        });
        measure(RUNS, "static --tool ruff --new-only", None, || {
            gate(&["static", "-q", "--base", "HEAD", "--tool", "ruff", "--new-only"]);
        });
    } else {
        say("ruff is not installed: its lines are skipped\n");
    }
    if installed("tsc") {
        measure(
            RUNS,
            "tsc by hand on the project (1,000 TypeScript files)",
            None,
            || {
                let out = Command::new("tsc")
                    .args(["--noEmit", "--pretty", "false"])
                    .current_dir(&root)
                    .output()
                    .expect("tsc");
                assert!(matches!(out.status.code(), Some(1 | 2)));
            },
        );
        measure(RUNS, "static --tool tsc", None, || {
            gate(&["static", "-q", "--base", "HEAD", "--tool", "tsc"]);
        });
        measure(RUNS, "static --tool tsc --new-only --scope project", None, || {
            gate(&[
                "static",
                "-q",
                "--base",
                "HEAD",
                "--tool",
                "tsc",
                "--new-only",
                "--scope",
                "project",
            ]);
        });
    } else {
        say("tsc is not installed: its lines are skipped\n");
    }
}
