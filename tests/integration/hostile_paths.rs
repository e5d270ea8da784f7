//! Issue 25: a file name, a symlink or a tool's output must not subvert the
//! static gate. File names reach every tool as files, never as options or
//! shell syntax.
//!
//! Each test runs the binary on a real repository with the real tools
//! (`.ci/run` installs ruff, mypy, ESLint and ShellCheck).

#![cfg(unix)]

use loki_gate::report::json::GateJson;

use crate::static_gate::json;
use crate::support::TestRepo;

/// Names that are shell syntax, quoting or a line break, each with `ext`.
fn awkward_names(ext: &str) -> Vec<String> {
    ["a b", "it's \"q\"", "$(touch pwned)", "`touch pwned`", "new\nline"]
        .iter()
        .map(|stem| format!("{stem}.{ext}"))
        .collect()
}

/// `(rule, path, line)` of every finding, sorted.
fn placed(report: &GateJson) -> Vec<(String, String, u32)> {
    let mut found: Vec<_> = report
        .findings
        .iter()
        .map(|f| (f.rule.clone(), f.path.clone().unwrap_or_default(), f.line.unwrap_or(0)))
        .collect();
    found.sort();
    found
}

/// Each of `paths` with `rule` at `line`, sorted.
fn expected(rule: &str, paths: &[String], line: u32) -> Vec<(String, String, u32)> {
    let mut all: Vec<_> = paths.iter().map(|p| (rule.to_string(), p.clone(), line)).collect();
    all.sort();
    all
}

/// No command in a file name ran: nothing named `pwned` appeared.
fn assert_nothing_ran(repo: &TestRepo) {
    assert!(!repo.path().join("pwned").exists(), "a file name ran as a command");
}

#[test]
fn a_file_named_like_a_ruff_option_is_linted_never_obeyed() {
    // `--extend-exclude=*.py` made ruff skip every file (the gate passed);
    // `--output-file=setup.py` made ruff overwrite setup.py.
    for hostile in ["--extend-exclude=*.py", "--output-file=setup.py", "@setup.py"] {
        let repo = TestRepo::new();
        repo.write(".gitignore", ".ruff_cache/\n");
        repo.write("setup.py", "x = 1\n");
        repo.commit("base");
        repo.write("app.py", "import os\n");
        repo.write(hostile, "import sys\n");
        let run = repo.run(&["static", "--base", "HEAD", "--tool", "ruff", "--format", "json"]);
        assert_eq!(run.code, 1, "{hostile}: {}{}", run.stdout, run.stderr);
        assert_eq!(
            placed(&json(&run)),
            expected("static/ruff:F401", &["app.py".into(), hostile.into()], 1),
            "{hostile}"
        );
        assert_eq!(repo.read("setup.py"), "x = 1\n", "{hostile}: setup.py was overwritten");
    }
}

#[test]
fn awkward_file_names_reach_ruff_as_one_file_each() {
    let repo = TestRepo::new();
    repo.write(".gitignore", ".ruff_cache/\n");
    repo.commit("base");
    let mut names = awkward_names("py");
    names.push("-v.py".into());
    for name in &names {
        repo.write(name, "import os\n");
    }
    let run = repo.run(&["static", "--base", "HEAD", "--tool", "ruff", "--format", "json"]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert_eq!(placed(&json(&run)), expected("static/ruff:F401", &names, 1));
    assert_nothing_ran(&repo);
}

#[test]
fn hostile_file_names_reach_mypy_as_one_file_each() {
    // `--junit-xml=setup.py` made mypy write its XML report over setup.py.
    let repo = TestRepo::new();
    repo.write(".gitignore", ".mypy_cache/\n");
    repo.write("mypy.ini", "[mypy]\n");
    repo.write("setup.py", "x = 1\n");
    repo.commit("base");
    let mut names = awkward_names("py");
    names.extend(["--junit-xml=setup.py".to_string(), "-v.py".to_string()]);
    for name in &names {
        repo.write(name, "def f() -> int:\n    return \"x\"\n");
    }
    let run = repo.run(&["static", "--base", "HEAD", "--tool", "mypy", "--format", "json"]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert_eq!(placed(&json(&run)), expected("static/mypy:return-value", &names, 2));
    assert_eq!(repo.read("setup.py"), "x = 1\n", "setup.py was overwritten");
    assert_nothing_ran(&repo);
}

#[test]
fn hostile_file_names_reach_eslint_as_one_file_each() {
    // `--output-file=app.js` made ESLint write its report over app.js.
    let repo = TestRepo::new();
    repo.write("package.json", "{ \"name\": \"demo\", \"private\": true }\n");
    repo.write(
        "eslint.config.mjs",
        "export default [{ files: [\"**/*.js\"], rules: { \"no-unused-vars\": \"error\" } }];\n",
    );
    repo.write("app.js", "export const a = 1;\n");
    repo.commit("base");
    let mut names = awkward_names("js");
    names.extend(["--output-file=app.js".to_string(), "-c.js".to_string()]);
    for name in &names {
        repo.write(name, "var unused = 1;\n");
    }
    let run = repo.run(&["static", "--base", "HEAD", "--tool", "eslint", "--format", "json"]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert_eq!(placed(&json(&run)), expected("static/eslint:no-unused-vars", &names, 1));
    assert_eq!(repo.read("app.js"), "export const a = 1;\n", "app.js was overwritten");
    assert_nothing_ran(&repo);
}

#[test]
fn hostile_file_names_reach_shellcheck_as_one_file_each() {
    // `-x.sh` was read as options (`-x -. ...`) and ShellCheck failed.
    let repo = TestRepo::new();
    repo.commit("base");
    let mut names = awkward_names("sh");
    names.extend(["-x.sh".to_string(), "--norc.sh".to_string()]);
    for name in &names {
        repo.write(name, "#!/bin/sh\ncd build\n");
    }
    let run = repo.run(&[
        "static",
        "--base",
        "HEAD",
        "--tool",
        "shellcheck",
        "--format",
        "json",
        "--fail-on",
        "warning",
    ]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert_eq!(placed(&json(&run)), expected("static/shellcheck:SC2164", &names, 2));
    assert_nothing_ran(&repo);
}

/// Prints SARIF for each line with `TODO` in the files it is given.
const TODO_SCANNER: &str = r#"import json, sys
results = []
for path in sys.argv[1:]:
    for number, line in enumerate(open(path), 1):
        if "TODO" in line:
            results.append({"ruleId": "todo", "message": {"text": "a TODO"},
                "locations": [{"physicalLocation": {"artifactLocation": {"uri": path}, "region": {"startLine": number}}}]})
print(json.dumps({"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "todo"}}, "results": results}]}))
"#;

#[test]
fn hostile_file_names_reach_a_custom_command_as_one_argument_each() {
    // grep took `--exclude=*.txt` for its option and skipped every file.
    let repo = TestRepo::new();
    repo.write("tools/todo.py", TODO_SCANNER);
    repo.write(
        ".loki-gate.yaml",
        "gates:\n  static:\n    tools: []\n    custom:\n      - name: grep\n        command: grep -n -H TODO {files}\n        errorformat: [\"%f:%l:%m\"]\n        files: [\"**/*.txt\"]\n      - name: scan\n        command: python3 tools/todo.py {files}\n        files: [\"**/*.txt\"]\n",
    );
    repo.commit("base");
    let mut names = awkward_names("txt");
    names.extend([
        "--exclude=*.txt".to_string(),
        "-c.txt".to_string(),
        "notes.txt".to_string(),
    ]);
    for name in &names {
        repo.write(name, "TODO: one\n");
    }
    let run = repo.run(&["static", "--base", "HEAD", "--format", "json"]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let found = placed(&json(&run));
    let scan: Vec<_> = found
        .iter()
        .filter(|f| f.0 == "static/sarif:scan:todo")
        .cloned()
        .collect();
    assert_eq!(scan, expected("static/sarif:scan:todo", &names, 1));
    // grep's text output cannot carry a line break in a name; every other name is found.
    let grep: Vec<_> = found
        .iter()
        .filter(|f| f.0 == "static/errorformat:grep")
        .cloned()
        .collect();
    let one_line: Vec<String> = names.iter().filter(|n| !n.contains('\n')).cloned().collect();
    assert_eq!(grep, expected("static/errorformat:grep", &one_line, 1));
    assert_nothing_ran(&repo);
}
