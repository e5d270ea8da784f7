//! Issue 25: a file name, a symlink or a tool's output must not subvert the
//! static gate. File names reach every tool as files, never as options or
//! shell syntax; no path outside the repository is handed to a tool, read or
//! printed, whatever a tool reports; every file the gate reads is capped.
//!
//! Each test runs the binary on a real repository with the real tools
//! (`.ci/run` installs ruff, mypy, ESLint and ShellCheck).

#![cfg(unix)]

use std::os::unix::fs::symlink;
use std::path::Path;

use loki_gate::report::json::GateJson;

use crate::static_gate::json;
use crate::support::TestRepo;

/// What a file outside the repository holds; it must never be printed.
const SECRET: &str = "TOP-SECRET-CONTENT";

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

/// A directory beside the repository holding `secret.py`.
fn outside(repo: &TestRepo) -> tempfile::TempDir {
    let dir = tempfile::Builder::new()
        .prefix("loki-gate-outside")
        .tempdir_in(repo.root().parent().expect("a parent"))
        .expect("temp dir");
    std::fs::write(dir.path().join("secret.py"), format!("import os  # {SECRET}\n")).unwrap();
    dir
}

fn name_of(dir: &Path) -> String {
    dir.file_name().unwrap().to_string_lossy().into_owned()
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

#[test]
fn a_sarif_report_cannot_make_the_gate_read_or_print_a_file_outside_the_repository() {
    let repo = TestRepo::new();
    let outside = outside(&repo);
    repo.write(".gitignore", "reports/\n");
    repo.write("app.py", "def run(x):\n    return x\n");
    repo.commit("base");
    repo.write("app.py", "def run(x):\n    return x\n    return eval(x)\n");
    let result = |uri: &str, base: Option<&str>, line: u32| {
        let base = base.map(|b| format!(", \"uriBaseId\": \"{b}\"")).unwrap_or_default();
        format!(
            r#"{{"ruleId": "r", "level": "error", "message": {{"text": "here"}},
                "locations": [{{"physicalLocation": {{"artifactLocation": {{"uri": "{uri}"{base}}}, "region": {{"startLine": {line}}}}}}}]}}"#
        )
    };
    let secret = outside.path().join("secret.py");
    let results = [
        result("../../../../../../../../../../etc/passwd", None, 1),
        result("file:///etc/passwd", None, 1),
        result(
            "%2e%2e/%2e%2e/%2e%2e/%2e%2e/%2e%2e/%2e%2e/%2e%2e/%2e%2e/etc/passwd",
            None,
            1,
        ),
        result(&format!("file://{}", secret.display()), None, 1),
        result(&format!("../{}/secret.py", name_of(outside.path())), None, 1),
        result("secret.py", Some("OUT"), 1),
        result("sub/../app.py", None, 3),
    ]
    .join(",");
    let sarif = format!(
        r#"{{"version": "2.1.0", "runs": [{{"tool": {{"driver": {{"name": "codeql"}}}},
            "originalUriBaseIds": {{"OUT": {{"uri": "file://{}/"}}}},
            "results": [{results}]}}]}}"#,
        outside.path().display()
    );
    repo.write("reports/scan.sarif", sarif);
    repo.write(
        ".loki-gate.yaml",
        "gates:\n  static:\n    tools: []\n    filter: nofilter\n    custom:\n      - name: codeql\n        sarif: reports/scan.sarif\n",
    );
    // `tools: []` lowers the bar (a warning here, outside CI): not this test's subject.
    let run = repo.run(&[
        "static",
        "--base",
        "HEAD",
        "--format",
        "json",
        "-A",
        "meta/waiver-added",
    ]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let report = json(&run);
    assert_eq!(
        placed(&report),
        vec![("static/sarif:codeql:r".to_string(), "app.py".to_string(), 3)],
        "only the finding inside the repository, its path normalised"
    );
    assert!(
        report
            .notices
            .iter()
            .any(|n| n == "codeql: 6 finding(s) on paths outside the repository left out (not read, not shown)"),
        "{:?}",
        report.notices
    );
    for format in ["text", "sarif", "json", "github", "markdown"] {
        let run = repo.run(&["static", "--base", "HEAD", "--format", format]);
        assert!(!run.stdout.contains(SECRET), "{format}: {}", run.stdout);
        assert!(!run.stdout.contains("root:"), "{format}: {}", run.stdout);
        assert!(!run.stdout.contains("etc/passwd"), "{format}: {}", run.stdout);
        if format == "json" || format == "sarif" {
            assert!(!run.stdout.contains("../"), "{format}: {}", run.stdout);
        }
    }
}

#[test]
fn a_symlink_out_of_the_repository_is_skipped_never_linted_or_printed() {
    let repo = TestRepo::new();
    let outside = outside(&repo);
    repo.write(".gitignore", ".ruff_cache/\n");
    repo.commit("base");
    symlink(outside.path().join("secret.py"), repo.path().join("evil.py")).unwrap();
    symlink(
        format!("../{}/secret.py", name_of(outside.path())),
        repo.path().join("sneaky.py"),
    )
    .unwrap();
    // A link that stays inside is linted as any file.
    repo.write("lib.py", "import json\n");
    symlink("lib.py", repo.path().join("alias.py")).unwrap();
    repo.commit("links");
    // `nofilter`: even a finding on the link's target outside would be kept.
    let args = ["static", "--base", "HEAD~1", "--tool", "ruff", "--filter", "nofilter"];
    let run = repo.run(&[&args[..], &["--format", "json"]].concat());
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let report = json(&run);
    assert_eq!(
        placed(&report),
        vec![
            ("meta/skipped-file".to_string(), "evil.py".to_string(), 0),
            ("meta/skipped-file".to_string(), "sneaky.py".to_string(), 0),
            ("static/ruff:F401".to_string(), "alias.py".to_string(), 1),
            ("static/ruff:F401".to_string(), "lib.py".to_string(), 1),
        ]
    );
    assert!(
        report.notices.contains(&"ruff: 2 finding(s) on 2 file(s)".to_string()),
        "{:?}",
        report.notices
    );
    for link in ["evil.py", "sneaky.py"] {
        let skipped = report
            .findings
            .iter()
            .find(|f| f.path.as_deref() == Some(link))
            .unwrap();
        assert!(
            skipped.message.starts_with(&format!("skipped {link}: symlink to"))
                && skipped.message.ends_with("outside the repository"),
            "{}",
            skipped.message
        );
    }
    let text = repo.run(&args);
    assert!(!text.stdout.contains(SECRET), "{}", text.stdout);
}

#[test]
fn a_sarif_file_is_size_capped_and_may_not_leave_the_repository() {
    let repo = TestRepo::new();
    let outside = outside(&repo);
    repo.write(".gitignore", "reports/\n");
    repo.write(
        ".loki-gate.yaml",
        "gates:\n  static:\n    tools: []\n    custom:\n      - name: codeql\n        sarif: reports/scan.sarif\n",
    );
    repo.commit("base");
    repo.write("app.py", "x = 1\n");
    let empty = r#"{"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "codeql"}}, "results": []}]}"#;
    let mut big = empty.to_string();
    big.push_str(&" ".repeat(2 * 1024 * 1024));
    repo.write("reports/scan.sarif", big);
    let run = repo.run(&["static", "--base", "HEAD"]);
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    assert!(run.stderr.contains("over the 2097152 byte limit"), "{}", run.stderr);

    std::fs::write(
        outside.path().join("scan.sarif"),
        empty.replace("[]", &format!("[{{\"message\": {{\"text\": \"{SECRET}\"}}}}]")),
    )
    .unwrap();
    repo.remove("reports/scan.sarif");
    symlink(
        outside.path().join("scan.sarif"),
        repo.path().join("reports/scan.sarif"),
    )
    .unwrap();
    let run = repo.run(&["static", "--base", "HEAD"]);
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    assert!(run.stderr.contains("outside the repository"), "{}", run.stderr);
    assert!(!run.stdout.contains(SECRET) && !run.stderr.contains(SECRET));
}
