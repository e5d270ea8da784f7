//! The static gate's adapters for tools that check a whole project (tsc,
//! cargo clippy, golangci-lint) and ESLint, with the real tools where this
//! machine has them (`.ci/run` installs eslint and typescript from npm;
//! clippy comes with the Rust toolchain). golangci-lint has no package in
//! the registries CI reaches, so a script prints what golangci-lint v2
//! prints.

use loki_gate::report::Outcome;

use crate::static_gate::{fake, found, json};
use crate::support::TestRepo;

/// A TypeScript project whose base already has a type error in `old.ts`.
pub(crate) fn typescript_project() -> TestRepo {
    let repo = TestRepo::new();
    repo.write(
        "tsconfig.json",
        r#"{ "compilerOptions": { "strict": true, "noEmit": true, "target": "es2022", "module": "nodenext" }, "include": ["src"] }"#,
    );
    repo.write(
        "src/greet.ts",
        "export function greet(name: string): string {\n  return `hi ${name}`;\n}\n",
    );
    repo.write(
        "src/main.ts",
        "import { greet } from \"./greet.js\";\n\nconsole.log(greet(\"ann\"));\n",
    );
    repo.write("src/old.ts", "export const port: number = \"8080\";\n");
    repo.commit("base");
    repo
}

#[test]
fn tsc_checks_the_project_and_the_filter_keeps_the_changed_lines() {
    let repo = typescript_project();
    repo.write(
        "src/greet.ts",
        "export function greet(name: string): string {\n  return `hi ${name}`;\n}\n\nexport const shout: number = greet(\"x\");\n",
    );
    let run = repo.run(&["static", "--base", "HEAD", "--format", "json"]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let report = json(&run);
    assert_eq!(found(&report), vec![("static/tsc:TS2322".to_string(), 5)]);
    assert_eq!(report.findings[0].path.as_deref(), Some("src/greet.ts"));
    assert!(
        report.notices.iter().any(|n| n == "tsc: 2 finding(s) on the project"),
        "{:?}",
        report.notices
    );
}

#[test]
fn tsc_with_a_broken_project_is_an_error() {
    let repo = typescript_project();
    repo.write(
        "tsconfig.json",
        r#"{ "compilerOptions": { "strict": true }, "include": ["nothing-here"] }"#,
    );
    repo.write("src/main.ts", "console.log(1);\n");
    let run = repo.run(&["static", "--base", "HEAD", "--tool", "tsc"]);
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stderr.contains("tsc could not check the project: error TS18003"),
        "{}",
        run.stderr
    );
}

#[test]
fn eslint_reports_rules_at_their_levels() {
    let repo = TestRepo::new();
    repo.write("package.json", "{ \"name\": \"demo\", \"private\": true }\n");
    repo.write(
        "eslint.config.mjs",
        "export default [{ files: [\"**/*.js\"], rules: { \"no-unused-vars\": \"error\", \"no-console\": \"warn\" } }];\n",
    );
    repo.write("src/app.js", "export function run() {\n  return 1;\n}\n");
    repo.commit("base");
    repo.write(
        "src/app.js",
        "export function run() {\n  const unused = 2;\n  console.log(\"run\");\n  return 1;\n}\n",
    );
    let run = repo.run(&["static", "--base", "HEAD", "--format", "json"]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let report = json(&run);
    assert_eq!(
        found(&report),
        vec![
            ("static/eslint:no-unused-vars".to_string(), 2),
            ("static/eslint:no-console".to_string(), 3)
        ]
    );
    assert_eq!((report.summary.errors, report.summary.warnings), (1, 1));
    assert_eq!(
        report.findings[0].path.as_deref(),
        Some("src/app.js"),
        "ESLint's absolute paths are made relative"
    );
}

#[test]
fn clippy_reports_lints_and_compiler_diagnostics_on_the_change() {
    let repo = TestRepo::new();
    repo.write(".gitignore", "target/\n");
    repo.write(
        "Cargo.toml",
        "[package]\nname = \"demo\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[dependencies]\n",
    );
    repo.write("clippy.toml", "");
    repo.write("src/lib.rs", "pub fn next(x: u32) -> u32 {\n    x + 1\n}\n");
    repo.commit("base");
    repo.write(
        "src/lib.rs",
        "pub fn next(x: u32) -> u32 {\n    let unused = 3;\n    return x + 1;\n}\n",
    );
    let run = repo.run(&["static", "--base", "HEAD", "--format", "json", "--fail-on", "warning"]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let report = json(&run);
    assert_eq!(
        found(&report),
        vec![
            ("static/clippy:unused_variables".to_string(), 2),
            ("static/clippy:clippy::needless_return".to_string(), 3)
        ]
    );
    assert_eq!(
        report.findings[1].help.as_deref(),
        Some("see https://rust-lang.github.io/rust-clippy/master/index.html#needless_return")
    );

    // A compile error is an error (cargo exits 101), not a crash.
    repo.write("src/lib.rs", "pub fn next(x: u32) -> u32 {\n    x + \"1\"\n}\n");
    let report = json(&repo.run(&["static", "--base", "HEAD", "--format", "json"]));
    assert_eq!(report.outcome, Outcome::Blocked);
    assert_eq!(found(&report), vec![("static/clippy:E0277".to_string(), 2)]);

    // A broken manifest is a crash: exit 2 with cargo's words.
    repo.write("Cargo.toml", "[package\n");
    let run = repo.run(&["static", "--base", "HEAD", "--tool", "clippy"]);
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stderr.contains("cargo clippy failed before reporting anything"),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("Cargo.toml"), "{}", run.stderr);
}

/// What golangci-lint v2 prints with `--output.json.path=stdout`.
const GOLANGCI_REPORT: &str = r#"{"Issues":[{"FromLinter":"errcheck","Text":"Error return value of `os.Remove` is not checked","Severity":"","SourceLines":["\tos.Remove(path)"],"Pos":{"Filename":"main.go","Offset":61,"Line":6,"Column":11},"ExpectNoLint":false,"ExpectedNoLintLinter":""},{"FromLinter":"staticcheck","Text":"SA4006: this value of `x` is never used","Severity":"warning","SourceLines":["\tx := 1"],"Pos":{"Filename":"main.go","Offset":40,"Line":5,"Column":2},"ExpectNoLint":false,"ExpectedNoLintLinter":""},{"FromLinter":"govet","Text":"printf: fmt.Printf format %d has arg s of wrong type string","Severity":"","SourceLines":["\tfmt.Printf(\"%d\", s)"],"Pos":{"Filename":"util.go","Offset":30,"Line":3,"Column":2},"ExpectNoLint":false,"ExpectedNoLintLinter":""}],"Report":{"Linters":[{"Name":"errcheck","Enabled":true}]}}"#;

#[test]
fn golangci_lint_issues_carry_the_linter_as_their_rule() {
    let repo = TestRepo::new();
    repo.write(".gitignore", ".venv/\n");
    repo.write("go.mod", "module example.com/demo\n\ngo 1.22\n");
    repo.write(".golangci.yml", "version: \"2\"\n");
    repo.write("util.go", "package main\n\nfunc f() {}\n");
    repo.write("main.go", "package main\n\nimport \"os\"\n\nfunc main() {\n}\n");
    repo.commit("base");
    repo.write(
        "main.go",
        "package main\n\nimport \"os\"\n\nfunc main() {\n\tx := 1\n\tos.Remove(path)\n}\n",
    );
    // Lines as the change left them: the errcheck issue is on line 7, staticcheck's on line 6.
    let report = GOLANGCI_REPORT
        .replace(r#""Line":6,"Column":11"#, r#""Line":7,"Column":11"#)
        .replace(r#""Line":5,"Column":2"#, r#""Line":6,"Column":2"#);
    fake(
        &repo,
        "golangci-lint",
        &format!(
            "[ \"$*\" = 'run --output.json.path=stdout --show-stats=false --path-mode=abs --issues-exit-code=1 ./...' ] || {{ echo \"unexpected arguments: $*\" >&2; exit 3; }}\n# The base revision (checked out to hold the line) has none of the issues.\ngrep -q os.Remove main.go || {{ echo '{{\"Issues\":[]}}'; exit 0; }}\ncat <<'JSON'\n{report}\nJSON\nexit 1"
        ),
    );
    let run = repo.run(&["static", "--base", "HEAD", "--format", "json"]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let report = json(&run);
    assert_eq!(
        found(&report),
        vec![
            ("static/golangci-lint:staticcheck".to_string(), 6),
            ("static/golangci-lint:errcheck".to_string(), 7)
        ],
        "util.go's issue is not on a changed line"
    );
    assert_eq!((report.summary.errors, report.summary.warnings), (1, 1));

    fake(
        &repo,
        "golangci-lint",
        "echo 'level=error msg=\"[linters_context] typechecking error\"' >&2; exit 3",
    );
    let run = repo.run(&["static", "--base", "HEAD"]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains("golangci-lint failed (exit code 3): level=error"),
        "{}",
        run.stderr
    );
}

/// A scanner written for the test: flags `eval(` in the Python files it is
/// given, as SARIF, the way semgrep or bandit would.
const SCANNER: &str = r#"import json, sys
results = []
for path in sys.argv[1:]:
    for number, line in enumerate(open(path), 1):
        column = line.find("eval(")
        if column >= 0:
            results.append({
                "ruleId": "no-eval",
                "message": {"text": "eval runs arbitrary code"},
                "locations": [{"physicalLocation": {
                    "artifactLocation": {"uri": path},
                    "region": {"startLine": number, "startColumn": column + 1, "endColumn": column + 6}}}],
            })
rules = [{"id": "no-eval", "helpUri": "https://example.com/no-eval", "defaultConfiguration": {"level": "error"}}]
print(json.dumps({"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "scan", "rules": rules}}, "results": results}]}))
sys.exit(1 if results else 0)
"#;

fn custom_repo() -> TestRepo {
    let repo = TestRepo::new();
    repo.write(".gitignore", ".ruff_cache/\nreports/\n");
    repo.write("tools/scan.py", SCANNER);
    repo.write(
        ".loki-gate.yaml",
        "gates:\n  static:\n    tools: []\n    custom:\n      - name: scan\n        command: python3 tools/scan.py {files}\n        files: [\"**/*.py\"]\n      - name: todo\n        command: grep -n -H TODO {files}\n        errorformat: [\"%f:%l:%m\"]\n",
    );
    repo.write("app.py", "def run(x):\n    return x\n");
    repo.commit("base");
    repo.write("app.py", "def run(x):\n    # TODO: validate x\n    return eval(x)\n");
    repo
}

#[test]
fn custom_tools_report_sarif_and_errorformat_findings() {
    let repo = custom_repo();
    let run = repo.run(&["static", "--base", "HEAD", "--format", "json"]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let report = json(&run);
    assert_eq!(
        found(&report),
        vec![
            ("static/errorformat:todo".to_string(), 2),
            ("static/sarif:scan:no-eval".to_string(), 3)
        ]
    );
    let eval = &report.findings[1];
    assert_eq!((eval.column, eval.end_column), (Some(12), Some(16)));
    assert_eq!(eval.help.as_deref(), Some("see https://example.com/no-eval"));
    assert_eq!(report.findings[0].message, "# TODO: validate x");

    // A level for one custom tool, by its name.
    let run = repo.run(&[
        "static",
        "--base",
        "HEAD",
        "-W",
        "static/sarif:scan",
        "-A",
        "static/errorformat",
    ]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    // --tool picks a custom tool by name.
    let report = json(&repo.run(&["static", "--base", "HEAD", "--tool", "todo", "--format", "json"]));
    assert_eq!(found(&report), vec![("static/errorformat:todo".to_string(), 2)]);
    let run = repo.run(&["static", "--base", "HEAD", "--tool", "nope"]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains("or a name from gates.static.custom"),
        "{}",
        run.stderr
    );
}

#[test]
fn a_sarif_file_from_an_earlier_step_is_read_with_its_paths_made_relative() {
    let repo = custom_repo();
    let root = repo.root();
    let sarif = format!(
        r#"{{"version": "2.1.0", "runs": [{{"tool": {{"driver": {{"name": "codeql"}}}}, "results": [
            {{"ruleId": "py/code-injection", "level": "error", "message": {{"text": "code injection"}},
              "locations": [{{"physicalLocation": {{"artifactLocation": {{"uri": "file://{}/app.py"}}, "region": {{"startLine": 3}}}}}}]}},
            {{"ruleId": "py/unused", "level": "note", "message": {{"text": "old"}},
              "locations": [{{"physicalLocation": {{"artifactLocation": {{"uri": "app.py"}}, "region": {{"startLine": 1}}}}}}]}}]}}]}}"#,
        root.display()
    );
    repo.write("reports/codeql.sarif", sarif);
    repo.write(
        ".loki-gate.yaml",
        "gates:\n  static:\n    tools: []\n    custom:\n      - name: codeql\n        sarif: reports/codeql.sarif\n",
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
    assert_eq!(
        found(&json(&run)),
        vec![("static/sarif:codeql:py/code-injection".to_string(), 3)],
        "line 1 is not a changed line"
    );
    repo.remove("reports/codeql.sarif");
    let run = repo.run(&["static", "--base", "HEAD"]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr
            .contains("codeql: could not read its SARIF file reports/codeql.sarif"),
        "{}",
        run.stderr
    );
}

#[test]
fn bad_custom_tools_are_config_errors_and_a_wrong_pattern_never_passes() {
    let repo = custom_repo();
    for (entry, says) in [
        ("- command: x {files}\n", "`name` is missing"),
        ("- name: a\n", "give exactly one of `command`"),
        (
            "- name: a\n        command: x\n        sarif: y.sarif\n",
            "give exactly one of `command`",
        ),
        ("- name: ruff\n        command: x\n", "name `ruff` is taken"),
        ("- name: a b\n        command: x\n", "must be letters"),
        (
            "- name: a\n        command: x\n        errorformat: [\"%f:%l\"]\n",
            "needs at least `%f`",
        ),
        (
            "- name: a\n        command: x\n        exit-codes: [one]\n",
            "expected a whole number",
        ),
        (
            "- name: a\n        command: x\n        colour: red\n",
            "unknown key `colour`",
        ),
    ] {
        repo.write(
            ".loki-gate.yaml",
            format!("gates:\n  static:\n    custom:\n      {entry}"),
        );
        let run = repo.run(&["static", "--base", "HEAD"]);
        assert_eq!(run.code, 2, "{entry}: {}{}", run.stdout, run.stderr);
        assert!(run.stderr.contains(says), "{entry}: {}", run.stderr);
        assert!(run.stderr.contains("custom[0]"), "{entry}: {}", run.stderr);
    }
    // A pattern that matches nothing the tool printed, and a failing exit code.
    repo.write(
        ".loki-gate.yaml",
        "gates:\n  static:\n    tools: []\n    custom:\n      - name: todo\n        command: grep -n -H TODO {files}; exit 1\n        errorformat: [\"%f(%l): %m\"]\n",
    );
    let run = repo.run(&["static", "--base", "HEAD"]);
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stderr.contains("printed nothing its errorformat matches"),
        "{}",
        run.stderr
    );
}

/// `-A` hides findings; a tool or gate whose findings would all be hidden
/// is not run at all (a marker file says whether the tool ran).
#[test]
fn a_tool_or_gate_set_to_allow_is_not_run() {
    let repo = TestRepo::new();
    let marker = tempfile::tempdir().unwrap();
    let ran = marker.path().join("ran");
    repo.write(
        ".loki-gate.yaml",
        format!(
            "gates:\n  static:\n    tools: []\n    custom:\n      - name: todo\n        command: touch {} && grep -n -H TODO {{files}}\n        errorformat: [\"%f:%l:%m\"]\n",
            ran.display()
        ),
    );
    repo.write("app.py", "def run(x):\n    return x\n");
    repo.commit("base");
    repo.write("app.py", "def run(x):\n    # TODO: validate x\n    return x\n");
    let cases: Vec<(Vec<&str>, bool, i32)> = vec![
        (vec![], true, 1),
        (vec!["-A", "static/errorformat:todo"], false, 0),
        (vec!["-A", "static/errorformat"], false, 0),
        (vec!["-A", "static"], false, 0),
        // Something inside asks for more: it runs.
        (vec!["-A", "static", "-D", "static/errorformat:todo"], true, 1),
        (vec!["-W", "static"], true, 0),
    ];
    for (extra, runs, code) in cases {
        let _ = std::fs::remove_file(&ran);
        let mut args = vec!["static", "--base", "HEAD"];
        args.extend(&extra);
        let run = repo.run(&args);
        assert_eq!(run.code, code, "{extra:?}: {}{}", run.stdout, run.stderr);
        assert_eq!(ran.exists(), runs, "{extra:?}: {}{}", run.stdout, run.stderr);
        if extra == ["-A", "static"] {
            assert!(
                run.stdout.contains(
                    "static: every rule is `allow` (-A static, or `static: allow` in the config's rules): not run"
                ),
                "{}",
                run.stdout
            );
        }
    }
    // In `check` too, and from the config.
    let _ = std::fs::remove_file(&ran);
    let run = repo.run(&["check", "--base", "HEAD", "--gates", "static", "-A", "static"]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(!ran.exists());
}

/// A tool that only checks a whole project (a custom command without
/// `{files}`, like tsc or cargo clippy) is left out of the pre-commit hook
/// by default, runs in pre-push and in a direct run, and in pre-commit too
/// when `project-tools-in` names it.
#[test]
fn project_wide_tools_wait_for_pre_push_unless_the_config_asks() {
    let repo = TestRepo::new();
    let marker = tempfile::tempdir().unwrap();
    let ran = marker.path().join("ran");
    let config = |hooks: &str| {
        format!(
            "pre-commit-gates: [static]\npre-push-gates: [static]\ngates:\n  static:\n    tools: []\n{hooks}    custom:\n      - name: whole\n        command: touch {}\n        errorformat: [\"%f:%l:%m\"]\n",
            ran.display()
        )
    };
    repo.write(".loki-gate.yaml", config(""));
    repo.write("app.py", "def run(x):\n    return x\n");
    repo.commit("base");
    repo.write("app.py", "def run(x):\n    return x + 1\n");
    repo.git(&["add", "-A"]);

    let commit = repo.run(&["hook", "run", "pre-commit", "-v"]);
    assert_eq!(commit.code, 0, "{}{}", commit.stdout, commit.stderr);
    assert!(!ran.exists(), "not in pre-commit: {}", commit.stdout);
    assert!(
        commit.stdout.contains(
            "whole check the whole project: not run in the pre-commit hook (gates.static.project-tools-in); pre-push and CI run them"
        ),
        "{}",
        commit.stdout
    );
    let direct = repo.run(&["static", "--staged"]);
    assert_eq!(direct.code, 0, "{}{}", direct.stdout, direct.stderr);
    assert!(ran.exists(), "a direct run runs it");

    std::fs::remove_file(&ran).unwrap();
    repo.write(
        ".loki-gate.yaml",
        config("    project-tools-in: [pre-commit, pre-push]\n"),
    );
    repo.git(&["add", "-A"]);
    let asked = repo.run(&["hook", "run", "pre-commit"]);
    assert_eq!(asked.code, 0, "{}{}", asked.stdout, asked.stderr);
    assert!(ran.exists(), "the config asks for it in pre-commit: {}", asked.stdout);
}

/// A tool found only on PATH, of another release line than the project
/// declares, is not run on the project's config: auto says why, a named
/// tool is exit 2 naming what to install. The same line runs.
#[test]
fn a_global_tool_of_another_version_than_the_project_declares_is_not_run() {
    let repo = TestRepo::new();
    repo.write(
        "pyproject.toml",
        "[project]\nname = \"shop\"\nversion = \"1.0\"\n\n[dependency-groups]\ndev = [\"pytest\", \"ruff==0.5.7\"]\n",
    );
    repo.write("app.py", "def total(xs):\n    return sum(xs)\n");
    repo.commit("base");
    repo.write("app.py", "def total(xs):\n    return sum(xs) + 0\n");
    let bin = tempfile::tempdir().unwrap();
    let ran = bin.path().join("ran");
    let global_ruff = |version: &str| {
        let script = bin.path().join("ruff");
        std::fs::write(
            &script,
            format!(
                "#!/bin/sh\nif [ \"$1\" = --version ]; then echo 'ruff {version}'; exit 0; fi\ntouch '{}'\necho '[]'\n",
                ran.display()
            ),
        )
        .unwrap();
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    };
    let path = format!("{}:/usr/bin:/bin", bin.path().display());
    let env = [("PATH", path.as_str())];

    global_ruff("0.17.6");
    let auto = repo.run_env(&["static", "--base", "HEAD"], &env);
    assert_eq!(auto.code, 0, "{}{}", auto.stdout, auto.stderr);
    assert!(!ran.exists(), "ruff 0.17 never runs on a project that pins 0.5");
    assert!(
        auto.stdout
            .contains("is not the version pyproject.toml declares (==0.5.7), and would misread the project's config"),
        "{}",
        auto.stdout
    );
    let named = repo.run_env(&["static", "--base", "HEAD", "--tool", "ruff"], &env);
    assert_eq!(named.code, 2, "{}{}", named.stdout, named.stderr);
    assert!(named.stderr.contains("ruff: the one on PATH"), "{}", named.stderr);

    global_ruff("0.5.9");
    let same = repo.run_env(&["static", "--base", "HEAD", "--tool", "ruff"], &env);
    assert_eq!(same.code, 0, "{}{}", same.stdout, same.stderr);
    assert!(ran.exists(), "the same release line runs");

    // A lower bound alone admits the later lines (attrs declares `ruff>=0.16`).
    std::fs::remove_file(&ran).unwrap();
    repo.write(
        "pyproject.toml",
        "[project]\nname = \"shop\"\nversion = \"1.0\"\n\n[dependency-groups]\ndev = [\"ruff>=0.5\"]\n",
    );
    global_ruff("0.17.6");
    let later = repo.run_env(&["static", "--base", "HEAD"], &env);
    assert_eq!(later.code, 0, "{}{}", later.stdout, later.stderr);
    assert!(
        ran.exists(),
        "ruff 0.17 runs where the project asks for 0.5 or later: {}",
        later.stdout
    );
    std::fs::remove_file(&ran).unwrap();
    repo.write(
        "pyproject.toml",
        "[project]\nname = \"shop\"\nversion = \"1.0\"\n\n[dependency-groups]\ndev = [\"ruff>=0.5,<0.6\"]\n",
    );
    let bounded = repo.run_env(&["static", "--base", "HEAD"], &env);
    assert!(!ran.exists(), "an upper bound keeps it out: {}", bounded.stdout);
}

/// A version manager's shim (pyenv's here) is asked once which real tool it
/// runs in this directory; later runs start that tool directly.
#[test]
fn a_version_managers_shim_is_resolved_once_and_the_real_tool_runs() {
    use std::os::unix::fs::PermissionsExt;
    // The real ruff: the first on PATH that is not itself a shim.
    let real = which::which_all("ruff")
        .expect("ruff is installed (.ci/run)")
        .find(|p| !p.parent().is_some_and(|d| d.ends_with("shims")))
        .expect("a ruff that is not a version manager's shim (.ci/run installs one into target/ci-tools)");
    let repo = TestRepo::new();
    repo.write(
        "pyproject.toml",
        "[project]\nname = \"shop\"\nversion = \"1.0\"\n\n[tool.ruff]\nline-length = 100\n",
    )
    .write("app.py", "def total(xs):\n    return sum(xs)\n");
    repo.commit("base");
    repo.write("app.py", "import os\n\n\ndef total(xs):\n    return sum(xs)\n");
    let home = tempfile::tempdir().unwrap();
    let pyenv = home.path().join(".pyenv");
    std::fs::create_dir_all(pyenv.join("shims")).unwrap();
    std::fs::create_dir_all(pyenv.join("bin")).unwrap();
    let log = home.path().join("log");
    let script = |path: &std::path::Path, body: String| {
        std::fs::write(path, body).unwrap();
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
    };
    // The shim asks pyenv; `pyenv which ruff` names the real one.
    script(
        &pyenv.join("shims/ruff"),
        format!(
            "#!/bin/sh\necho shim >> '{}'\nexec '{}' \"$@\"\n",
            log.display(),
            real.display()
        ),
    );
    script(
        &pyenv.join("bin/pyenv"),
        format!(
            "#!/bin/sh\n[ \"$1\" = which ] || exit 1\necho \"which $2\" >> '{}'\necho '{}'\n",
            log.display(),
            real.display()
        ),
    );
    let path = format!("{}:/usr/bin:/bin", pyenv.join("shims").display());
    let env = [("PATH", path.as_str())];
    for _ in 0..2 {
        let run = repo.run_env(&["static", "--base", "HEAD", "--format", "json"], &env);
        assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
        assert_eq!(run.findings(), vec!["static/ruff:F401 error app.py:1"]);
    }
    // Asked once; the shim itself never ran.
    assert_eq!(std::fs::read_to_string(&log).unwrap(), "which ruff\n");
}
