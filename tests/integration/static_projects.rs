//! Each tool judges the way the project itself runs it: from the directory
//! of the project's config of it, on the files that config gives it, only
//! when the project configures it (or names it in its hooks or CI), and a
//! finding the base revision's run already has does not block. One real
//! project shape per adapter, through the binary: a file the project's
//! config leaves out has no finding, the same mistake where the config
//! looks has one.

use loki_gate::report::Outcome;

use crate::static_gate::{fake, found, json};
use crate::support::TestRepo;

#[test]
fn ruff_keeps_to_the_project_exclude_and_runs_only_where_configured() {
    let repo = TestRepo::new();
    repo.write(".gitignore", ".ruff_cache/\n");
    repo.write("src/app.py", "def run():\n    return 1\n");
    repo.commit("base");
    repo.write("src/app.py", "import os\n\n\ndef run():\n    return 1\n");
    // No ruff config, and the project names ruff nowhere: ruff is not its tool.
    let report = json(&repo.run(&["static", "--base", "HEAD", "--format", "json"]));
    assert_eq!(report.outcome, Outcome::Pass, "{:?}", report.notices);
    assert!(
        report
            .notices
            .iter()
            .any(|n| n.contains("no tool checks the changed files")),
        "{:?}",
        report.notices
    );
    // Named in its pre-commit config: the project runs it with its defaults.
    repo.write(
        ".pre-commit-config.yaml",
        "repos:\n  - repo: https://github.com/astral-sh/ruff-pre-commit\n    rev: v0.17.6\n    hooks:\n      - id: ruff\n",
    );
    let report = json(&repo.run(&["static", "--base", "HEAD", "--format", "json"]));
    assert_eq!(found(&report), vec![("static/ruff:F401".to_string(), 1)]);
    // Its config leaves generated code out: a file there is not ruff's.
    repo.remove(".pre-commit-config.yaml");
    repo.write("ruff.toml", "extend-exclude = [\"src/generated\"]\n");
    repo.write("src/generated/models.py", "import sys\n");
    let run = repo.run(&["static", "--base", "HEAD", "--format", "json"]);
    let report = json(&run);
    let ruff: Vec<_> = report
        .findings
        .iter()
        .filter(|f| f.rule.starts_with("static/ruff"))
        .collect();
    assert_eq!(ruff.len(), 1, "{}", run.stdout);
    assert_eq!(ruff[0].path.as_deref(), Some("src/app.py"));
    // A config the change adds that leaves code out lowers the bar: said.
    assert!(
        report.findings.iter().any(|f| f.rule == "meta/waiver-added"
            && f.message
                .starts_with("ruff.toml: ruff `extend-exclude` gained `src/generated`")),
        "{}",
        run.stdout
    );
}

#[test]
fn mypy_checks_only_the_files_its_config_names_from_the_config_directory() {
    let repo = TestRepo::new();
    repo.write(".gitignore", ".mypy_cache/\n");
    repo.write(
        "pyproject.toml",
        "[project]\nname = \"shop\"\nversion = \"0\"\n\n[tool.mypy]\nfiles = [\"src\"]\nexclude = [\"^src/legacy/\"]\ndisallow_untyped_defs = true\n",
    );
    repo.write("src/shop.py", "def total(xs: list[int]) -> int:\n    return sum(xs)\n");
    repo.write("tests/test_shop.py", "def test_total():\n    assert True\n");
    repo.commit("base");
    // Untyped functions: in a test the project never type-checks, in code
    // its `exclude` leaves out, and in its own source.
    repo.write(
        "tests/test_shop.py",
        "def test_total():\n    assert True\n\n\ndef test_more():\n    assert True\n",
    );
    repo.write("src/legacy/old.py", "def old(x):\n    return x\n");
    repo.write(
        "src/shop.py",
        "def total(xs: list[int]) -> int:\n    return sum(xs)\n\n\ndef half(x):\n    return x / 2\n",
    );
    // Named by `--tool`, mypy is asked to look at every changed Python file.
    let named = json(&repo.run(&["static", "--base", "HEAD", "--tool", "mypy", "--format", "json"]));
    assert!(
        named
            .findings
            .iter()
            .any(|f| f.path.as_deref() == Some("tests/test_shop.py")),
        "{:?}",
        found(&named)
    );
    let run = repo.run(&["static", "--base", "HEAD", "--format", "json"]);
    let report = json(&run);
    assert_eq!(
        found(&report),
        vec![("static/mypy:no-untyped-def".to_string(), 5)],
        "{}",
        run.stdout
    );
    assert_eq!(report.findings[0].path.as_deref(), Some("src/shop.py"));
    assert!(
        report
            .notices
            .iter()
            .any(|n| n == "changed files the project's own config does not give to the tool, left out: mypy (2)"),
        "{:?}",
        report.notices
    );

    // A package with a mypy config of its own is checked from there, by its rules.
    repo.write(
        "tools/pyproject.toml",
        "[project]\nname = \"tools\"\nversion = \"0\"\n\n[tool.mypy]\ndisallow_untyped_defs = false\n",
    );
    repo.write(
        "tools/bump.py",
        "def bump(v):\n    return v + 1\n\n\ndef name() -> str:\n    return 1\n",
    );
    let report = json(&repo.run(&["static", "--base", "HEAD", "--format", "json"]));
    let tools: Vec<_> = found(&report)
        .into_iter()
        .filter(|(rule, _)| rule.starts_with("static/mypy"))
        .collect();
    assert_eq!(
        tools,
        vec![
            ("static/mypy:no-untyped-def".to_string(), 5),
            ("static/mypy:return-value".to_string(), 6)
        ]
    );
    assert_eq!(report.findings[1].path.as_deref(), Some("tools/bump.py"));
    assert!(
        report
            .notices
            .iter()
            .any(|n| n == "mypy: 1 finding(s) on 1 file(s) in tools"),
        "{:?}",
        report.notices
    );
}

#[test]
fn eslint_runs_from_the_nearest_config_and_keeps_to_its_ignores() {
    let repo = TestRepo::new();
    repo.write("package.json", "{ \"name\": \"mono\", \"private\": true }\n");
    repo.write(
        "eslint.config.mjs",
        "export default [{ ignores: [\"vendor/**\"] }, { files: [\"**/*.js\"], rules: { \"no-unused-vars\": \"error\" } }];\n",
    );
    repo.write(
        "packages/web/eslint.config.mjs",
        "export default [{ files: [\"**/*.js\"], rules: { \"no-console\": \"error\" } }];\n",
    );
    repo.write("src/app.js", "export const a = 1;\n");
    repo.write("vendor/lib.js", "export const b = 1;\n");
    repo.write("packages/web/main.js", "export const c = 1;\n");
    repo.commit("base");
    repo.write("src/app.js", "export const a = 1;\nconst unused = 2;\n");
    repo.write("vendor/lib.js", "export const b = 1;\nconst unused = 2;\n");
    repo.write(
        "packages/web/main.js",
        "export const c = 1;\nconst unused = 2;\nconsole.log(c);\n",
    );
    let run = repo.run(&["static", "--base", "HEAD", "--format", "json"]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let report = json(&run);
    let placed: Vec<(Option<&str>, &str)> = report
        .findings
        .iter()
        .map(|f| (f.path.as_deref(), f.rule.as_str()))
        .collect();
    // The package's own config: no-console, not the root's no-unused-vars;
    // vendor/ is ignored by the root's config.
    assert_eq!(
        placed,
        vec![
            (Some("packages/web/main.js"), "static/eslint:no-console"),
            (Some("src/app.js"), "static/eslint:no-unused-vars")
        ]
    );
}

#[test]
fn tsc_checks_the_project_of_the_nearest_tsconfig() {
    let repo = TestRepo::new();
    repo.write(
        "packages/web/tsconfig.json",
        r#"{ "compilerOptions": { "strict": true, "noEmit": true, "target": "es2022", "module": "nodenext" }, "include": ["src"] }"#,
    );
    repo.write("packages/web/src/app.ts", "export const port: number = 8080;\n");
    repo.write(
        "packages/web/scripts/build.ts",
        "export const out: string = \"dist\";\n",
    );
    repo.commit("base");
    repo.write(
        "packages/web/src/app.ts",
        "export const port: number = 8080;\nexport const host: number = \"localhost\";\n",
    );
    // Outside the tsconfig's `include`, imported by nothing: not in the project.
    repo.write(
        "packages/web/scripts/build.ts",
        "export const out: string = \"dist\";\nexport const level: number = \"max\";\n",
    );
    let run = repo.run(&["static", "--base", "HEAD", "--format", "json"]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let report = json(&run);
    assert_eq!(found(&report), vec![("static/tsc:TS2322".to_string(), 2)]);
    assert_eq!(report.findings[0].path.as_deref(), Some("packages/web/src/app.ts"));
    assert!(
        report
            .notices
            .iter()
            .any(|n| n == "tsc: 1 finding(s) on the project in packages/web"),
        "{:?}",
        report.notices
    );
}

#[test]
fn clippy_leaves_out_a_crate_the_workspace_excludes() {
    let repo = TestRepo::new();
    repo.write(".gitignore", "target/\n");
    repo.write(
        "Cargo.toml",
        "[workspace]\nmembers = [\"core\"]\nexclude = [\"fuzz\"]\nresolver = \"2\"\n\n[workspace.lints.clippy]\nneedless_return = \"deny\"\n",
    );
    let krate = |name: &str| {
        format!("[package]\nname = \"{name}\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[lints]\nworkspace = true\n")
    };
    repo.write("core/Cargo.toml", krate("core"));
    repo.write("core/src/lib.rs", "pub fn next(x: u32) -> u32 {\n    x + 1\n}\n");
    repo.write(
        "fuzz/Cargo.toml",
        "[package]\nname = \"fuzz\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[workspace]\n",
    );
    repo.write("fuzz/src/lib.rs", "pub fn one() -> u32 {\n    1\n}\n");
    repo.commit("base");
    let needless = |name: &str| format!("pub fn {name}(x: u32) -> u32 {{\n    return x + 1;\n}}\n");
    repo.write("core/src/lib.rs", needless("next"));
    repo.write("fuzz/src/lib.rs", needless("one"));
    let run = repo.run(&["static", "--base", "HEAD", "--format", "json"]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let report = json(&run);
    assert_eq!(
        found(&report),
        vec![("static/clippy:clippy::needless_return".to_string(), 2)]
    );
    assert_eq!(report.findings[0].path.as_deref(), Some("core/src/lib.rs"));
    assert!(
        report
            .notices
            .iter()
            .any(|n| n == "changed files the project's own config does not give to the tool, left out: clippy (1)"),
        "{:?}",
        report.notices
    );
}

#[test]
fn golangci_lint_runs_in_the_module_and_only_where_configured() {
    let repo = TestRepo::new();
    repo.write(".gitignore", ".venv/\n");
    repo.write("tools/go.mod", "module example.com/tools\n\ngo 1.22\n");
    repo.write("tools/main.go", "package main\n\nfunc main() {\n}\n");
    repo.commit("base");
    repo.write("tools/main.go", "package main\n\nfunc main() {\n\tx := 1\n}\n");
    // It says where it ran, and reports a path relative to there.
    fake(
        &repo,
        "golangci-lint",
        r#"pwd > "$(dirname "$0")/../ran-in"
echo '{"Issues":[{"FromLinter":"staticcheck","Text":"SA4006: this value of `x` is never used","Severity":"error","Pos":{"Filename":"main.go","Line":4,"Column":2}}]}'
exit 1"#,
    );
    let report = json(&repo.run(&["static", "--base", "HEAD", "--format", "json"]));
    assert!(
        found(&report).is_empty(),
        "no config, named nowhere: not the project's tool"
    );
    assert!(!repo.path().join(".venv/ran-in").exists());

    repo.write(".golangci.yml", "version: \"2\"\n");
    let run = repo.run(&["static", "--base", "HEAD", "--format", "json"]);
    let report = json(&run);
    assert_eq!(
        found(&report),
        vec![("static/golangci-lint:staticcheck".to_string(), 4)],
        "{}{}",
        run.stdout,
        run.stderr
    );
    assert_eq!(report.findings[0].path.as_deref(), Some("tools/main.go"));
    let ran_in = repo.read(".venv/ran-in");
    assert!(ran_in.trim_end().ends_with("/tools"), "{ran_in}");
}

#[test]
fn shellcheck_runs_when_the_project_names_it_in_ci() {
    let repo = TestRepo::new();
    repo.write("deploy.sh", "#!/bin/sh\necho hi\n");
    repo.commit("base");
    repo.write("deploy.sh", "#!/bin/sh\necho hi\ncd build\n");
    let report = json(&repo.run(&["static", "--base", "HEAD", "--format", "json"]));
    assert!(found(&report).is_empty(), "{:?}", report.notices);
    repo.write(
        ".github/workflows/lint.yml",
        "on: push\njobs:\n  lint:\n    runs-on: ubuntu-latest\n    steps:\n      - run: shellcheck *.sh\n",
    );
    let report = json(&repo.run(&["static", "--base", "HEAD", "--format", "json"]));
    assert_eq!(found(&report), vec![("static/shellcheck:SC2164".to_string(), 3)]);
}

#[test]
fn a_finding_the_base_revision_had_does_not_block() {
    let repo = TestRepo::new();
    repo.write(".gitignore", ".ruff_cache/\n");
    repo.write("ruff.toml", "");
    repo.write("app.py", "import os\n\n\ndef run():\n    return 1\n");
    repo.commit("base");
    // The line with the old unused import is edited; it is still unused.
    repo.write("app.py", "import os  # the platform\n\n\ndef run():\n    return 1\n");
    let run = repo.run(&["check", "--base", "HEAD", "--gates", "static", "--format", "json"]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert_eq!(run.marked(), vec!["static/ruff:F401 warning app.py:1 at-base"]);
    // One gate, and still the several-gates shape: `check` writes one shape.
    let value = run.json();
    assert_eq!(value["gates"].as_array().map(Vec::len), Some(1), "{}", run.stdout);
    assert_eq!(value["gates"][0]["summary"]["at_base"], 1);

    // A second unused import is the change's own, and blocks.
    repo.write(
        "app.py",
        "import os  # the platform\nimport sys\n\n\ndef run():\n    return 1\n",
    );
    let run = repo.run(&["check", "--base", "HEAD", "--gates", "static", "--format", "json"]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert_eq!(
        run.marked(),
        vec![
            "static/ruff:F401 warning app.py:1 at-base",
            "static/ruff:F401 error app.py:2"
        ]
    );

    // ruff judges each file by itself: the base's run needed the file and
    // its config, not a worktree of the repository.
    assert_eq!(repo.git(&["worktree", "list"]).lines().count(), 1);

    // A team that wants old findings to block says so.
    repo.write(".loki-gate.yaml", "gates:\n  static:\n    pre-existing: block\n");
    repo.write("app.py", "import os  # the platform\n\n\ndef run():\n    return 1\n");
    let run = repo.run(&["check", "--base", "HEAD", "--gates", "static", "--format", "json"]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
}

#[test]
fn each_package_of_a_monorepo_runs_its_own_install_of_the_tool() {
    let repo = TestRepo::new();
    repo.write(".gitignore", "node_modules/\n");
    repo.write("package.json", "{ \"name\": \"mono\", \"private\": true }\n");
    for (name, eslint) in [("a", "^10.0.0"), ("b", "^8.57.0")] {
        repo.write(
            &format!("packages/{name}/package.json"),
            format!("{{ \"name\": \"{name}\", \"devDependencies\": {{ \"eslint\": \"{eslint}\" }} }}\n"),
        );
        repo.write(&format!("packages/{name}/eslint.config.mjs"), "export default [];\n");
        repo.write(&format!("packages/{name}/index.js"), "export const x = 1;\n");
    }
    repo.commit("base");
    // Package a installed its own ESLint; b did not, and the one on PATH
    // is not the 8.x it declares.
    let bin = repo.path().join("packages/a/node_modules/.bin");
    std::fs::create_dir_all(&bin).unwrap();
    std::fs::write(
        bin.join("eslint"),
        "#!/bin/sh\npwd > \"$(dirname \"$0\")/ran-in\"\necho '[]'\n",
    )
    .unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(bin.join("eslint"), std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    repo.write("packages/a/index.js", "export const x = 2;\n");
    repo.write("packages/b/index.js", "export const x = 2;\n");
    let run = repo.run(&["static", "--base", "HEAD", "--format", "json"]);
    let report = json(&run);
    let ran_in = repo.read("packages/a/node_modules/.bin/ran-in");
    assert!(ran_in.trim_end().ends_with("/packages/a"), "{ran_in}");
    assert!(
        report
            .notices
            .iter()
            .any(|n| n.contains("is not the version package.json declares (^8.57.0)") && n.ends_with("not run")),
        "{:?}",
        report.notices
    );
    assert!(
        report
            .notices
            .iter()
            .any(|n| n == "eslint: 0 finding(s) on 1 file(s) in packages/a"),
        "{:?}",
        report.notices
    );
}

#[test]
fn mypy_with_no_files_in_its_config_checks_what_the_project_hands_it() {
    let repo = TestRepo::new();
    repo.write(".gitignore", ".mypy_cache/\n");
    repo.write(
        "pyproject.toml",
        "[project]\nname = \"shop\"\nversion = \"0\"\n\n[tool.mypy]\ndisallow_untyped_defs = true\n",
    );
    // The project type-checks its typing examples only (attrs does so).
    repo.write(
        "tox.ini",
        "[testenv:mypy]\ncommands =\n    mypy typing_tests\n# mypy src is too slow\n",
    );
    repo.write("src/shop.py", "def total(xs):\n    return sum(xs)\n");
    repo.write("typing_tests/examples.py", "x: int = 1\n");
    repo.commit("base");
    repo.write(
        "src/shop.py",
        "def total(xs):\n    return sum(xs)\n\n\ndef half(x):\n    return x / 2\n",
    );
    repo.write("typing_tests/examples.py", "x: int = 1\n\n\ndef f(a):\n    return a\n");
    let run = repo.run(&["static", "--base", "HEAD", "--format", "json"]);
    let report = json(&run);
    assert_eq!(
        found(&report),
        vec![("static/mypy:no-untyped-def".to_string(), 4)],
        "{}",
        run.stdout
    );
    assert_eq!(report.findings[0].path.as_deref(), Some("typing_tests/examples.py"));
}

#[test]
fn tsc_checks_the_referenced_project_of_a_solution_tsconfig() {
    let repo = TestRepo::new();
    repo.write(
        "package.json",
        "{ \"name\": \"app\", \"private\": true, \"type\": \"module\", \"devDependencies\": { \"left-pad\": \"^1.3.0\" } }\n",
    );
    // Vite's layout: the root config only references the real projects.
    repo.write(
        "tsconfig.json",
        r#"{ "files": [], "references": [{ "path": "./tsconfig.app.json" }, { "path": "./tsconfig.node.json" }] }"#,
    );
    let options = r#""compilerOptions": { "strict": true, "noEmit": true, "target": "es2022", "module": "nodenext" }"#;
    repo.write(
        "tsconfig.app.json",
        format!("{{ {options}, \"include\": [\"src\"] }}\n"),
    );
    repo.write(
        "tsconfig.node.json",
        format!("{{ {options}, \"include\": [\"vite.config.ts\"] }}\n"),
    );
    repo.write("src/app.ts", "export const port: number = 8080;\n");
    repo.write("scripts/tool.ts", "export const a: number = 1;\n");
    repo.commit("base");
    repo.write(
        "src/app.ts",
        "import pad from \"left-pad\";\nimport gone from \"not-a-dependency\";\nexport const port: number = 8080;\nexport const host: number = \"localhost\";\nexport const both = [pad, gone];\n",
    );
    // In no project the solution references.
    repo.write("scripts/tool.ts", "export const a: number = \"one\";\n");
    let run = repo.run(&["static", "--base", "HEAD", "--format", "json"]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let report = json(&run);
    // The undeclared module is the change's mistake; the declared one that
    // is not installed here is this machine's.
    assert_eq!(
        found(&report),
        vec![
            ("static/tsc:TS2307".to_string(), 2),
            ("static/tsc:TS2322".to_string(), 4)
        ],
        "{:?}",
        report.notices
    );
    let notices = report.notices.join("\n");
    assert!(
        notices.contains("tsc: 3 finding(s) on the project tsconfig.app.json"),
        "{notices}"
    );
    assert!(
        notices.contains(
            "tsc: findings about this machine, not the change, left out: `left-pad` is declared but not installed"
        ),
        "{notices}"
    );
    assert!(notices.contains("left out: tsc (1)"), "{notices}");
}
