//! The docs gate through the binary, on temporary repositories.

use loki_gate::finding::Severity;
use loki_gate::report::Outcome;
use loki_gate::report::json::GateJson;

use crate::static_gate::{found, json};
use crate::support::TestRepo;

#[test]
fn a_readme_must_exist_and_say_more_than_its_title() {
    let repo = TestRepo::new();
    let report = json(&repo.run(&["docs", "--format", "json"]));
    assert_eq!(found(&report), vec![("docs/readme-missing".to_string(), 0)]);
    assert_eq!(report.findings[0].message, "README.md has nothing but a title");
    assert_eq!(report.outcome, Outcome::Blocked);

    repo.write("README.md", "# demo\n\nParses invoices.\n");
    assert_eq!(repo.run(&["docs"]).code, 0);
    repo.write("README.md", "demo\n====\n\n");
    assert_eq!(repo.run(&["docs"]).code, 1, "a setext title alone");
    repo.remove("README.md");
    repo.write("readme.rst", "demo\n####\n\nA tool.\n");
    assert_eq!(repo.run(&["docs"]).code, 0, "any readme.* in any case");
    repo.remove("readme.rst");
    let run = repo.run(&["docs", "--format", "json"]);
    assert_eq!(run.code, 1);
    assert_eq!(json(&run).findings[0].message, "no README at the repository root");

    // A README linked to a file in the repository is read through the link;
    // one that leads out of the repository is skipped, never read or judged.
    repo.write("docs/README.md", "# demo\n\nParses invoices.\n");
    std::os::unix::fs::symlink("docs/README.md", repo.path().join("README.md")).unwrap();
    assert_eq!(repo.run(&["docs"]).code, 0, "{}", repo.run(&["docs"]).stderr);
    repo.remove("README.md");
    let outside = tempfile::tempdir().unwrap();
    std::fs::write(outside.path().join("README.md"), "# elsewhere\n").unwrap();
    std::os::unix::fs::symlink(outside.path().join("README.md"), repo.path().join("README.md")).unwrap();
    let report = json(&repo.run(&["docs", "--format", "json"]));
    assert_eq!(found(&report), vec![("meta/skipped-file".to_string(), 0)]);
    assert!(
        report.findings[0].message.contains("outside the repository"),
        "{:?}",
        report.findings
    );
}

/// Each finding's line and severity, in report order.
fn lines_and_levels(report: &GateJson) -> Vec<(u32, String)> {
    report
        .findings
        .iter()
        .map(|f| (f.line.unwrap_or(0), format!("{:?}", f.severity)))
        .collect()
}

/// Each `docs/undocumented-export` finding's file and severity, in report order.
fn export_levels(report: &GateJson) -> Vec<(&str, String)> {
    report
        .findings
        .iter()
        .filter(|f| f.rule == "docs/undocumented-export")
        .map(|f| (f.path.as_deref().unwrap_or(""), format!("{:?}", f.severity)))
        .collect()
}

fn documented_repo() -> TestRepo {
    let repo = TestRepo::new();
    repo.write("README.md", "# demo\n\nA demo.\n");
    repo.write("docs/guide.md", "# Guide\n\nHow to use it.\n");
    repo.write("app.py", "x = 0\n");
    repo.commit("docs");
    repo
}

#[test]
fn docs_that_stop_while_code_moves_on_are_stale() {
    let repo = documented_repo();
    // Not prose: an image and code kept in the docs folder are never stale,
    // and a commit of that code is not one that changed the code described.
    repo.write("docs/logo.svg", "<svg/>\n");
    repo.write("docs/conf.py", "project = 'demo'\n");
    repo.commit("assets");
    for i in 1..=11 {
        repo.write("app.py", format!("x = {i}\n"));
        repo.commit(&format!("code {i}"));
    }
    // Every document behind: one finding, whatever the change, naming them all.
    let report = json(&repo.run(&["docs", "--format", "json"]));
    let stale: Vec<&str> = report
        .findings
        .iter()
        .filter(|f| f.rule == "docs/stale")
        .map(|f| f.path.as_deref().unwrap_or(""))
        .collect();
    assert_eq!(stale, vec!["README.md"]);
    let message = &report.findings[0].message;
    assert!(
        message.starts_with("2 documents have fallen behind the code: README.md (last changed 12 commits ago (")
            && message.contains("\"docs\"), and 11 commit(s) since changed code); docs/guide.md (last changed 12"),
        "{message}"
    );
    assert_eq!(
        report.findings[0].notes,
        vec!["every document has fallen behind the code"]
    );
    assert_eq!(report.outcome, Outcome::Pass, "stale is a warning");

    // Touching the guide resets its count. The README alone is behind: a
    // change that modifies no code it names hears nothing of it; an audit does.
    repo.write("docs/guide.md", "# Guide\n\nHow to use it, again.\n");
    repo.commit("guide");
    let report = json(&repo.run(&["docs", "--format", "json", "-W", "docs"]));
    assert!(report.findings.is_empty(), "{:?}", found(&report));
    let audit = json(&repo.run(&["docs", "--all-files", "--format", "json"]));
    assert_eq!(found(&audit), vec![("docs/stale".to_string(), 0)]);
    assert!(
        audit.findings[0]
            .message
            .starts_with("README.md was last changed 13 commits ago ("),
        "{}",
        audit.findings[0].message
    );
    // A change to code the README names is told, once.
    repo.write("README.md", "# demo\n\nA demo.\n");
    repo.write("docs/guide.md", "# Guide\n\nEdit `app.py` to set x.\n");
    repo.commit("guide names app.py");
    for i in 1..=11 {
        repo.write("app.py", format!("x = {}\n", 100 + i));
        repo.write("docs/other.md", format!("# Other {i}\n"));
        repo.commit(&format!("code and other {i}"));
    }
    repo.write("app.py", "x = 0\n");
    let report = json(&repo.run(&["docs", "--base", "HEAD", "--format", "json"]));
    assert_eq!(found(&report), vec![("docs/stale".to_string(), 0)]);
    assert!(
        report.findings[0]
            .message
            .starts_with("2 documents have fallen behind the code: docs/guide.md ("),
        "{}",
        report.findings[0].message
    );
    assert_eq!(
        report.findings[0].notes,
        vec!["docs/guide.md names app.py, which this change modifies"]
    );
    repo.write("app.py", "x = 111\n");
    repo.write("settings.toml", "x = 1\n");
    assert!(
        json(&repo.run(&["docs", "--base", "HEAD", "--format", "json"]))
            .findings
            .is_empty()
    );

    // A README that links to one in the repository is as old as its target.
    let linked = TestRepo::new();
    linked.write("pkg/README.md", "# pkg\n\nA package.\n");
    linked.remove("README.md");
    std::os::unix::fs::symlink("pkg/README.md", linked.path().join("README.md")).unwrap();
    linked.write("pkg/app.py", "x = 0\n");
    linked.commit("linked readme");
    for i in 1..=11 {
        linked.write("pkg/app.py", format!("x = {i}\n"));
        linked.write("pkg/README.md", format!("# pkg\n\nA package, {i}.\n"));
        linked.commit(&format!("code and readme {i}"));
    }
    let report = json(&linked.run(&["docs", "--all-files", "--format", "json"]));
    assert!(report.findings.is_empty(), "{:?}", report.findings);

    // Config and prose commits are not code.
    let fresh = documented_repo();
    for i in 1..=11 {
        fresh.write("settings.toml", format!("x = {i}\n"));
        fresh.commit(&format!("config {i}"));
    }
    let report = json(&fresh.run(&["docs", "--format", "json"]));
    assert!(report.findings.is_empty(), "{:?}", found(&report));
    fresh.write(".loki-gate.yaml", "gates:\n  docs:\n    freshness-commits: 20\n");
    // A longer freshness window lowers the bar: a warning outside CI.
    let lowered = json(&fresh.run(&["docs", "--format", "json"]));
    assert_eq!(found(&lowered), vec![("meta/waiver-added".to_string(), 3)]);
}

/// The history `docs/stale` reads is kept per commit in the state directory
/// and carried forward commit by commit: what it finds is what reading the
/// history anew (`--no-cache`) finds, and a damaged window is read anew.
#[test]
fn the_history_stale_reads_is_kept_carried_forward_and_agrees_with_reading_it_anew() {
    let repo = documented_repo();
    let both = |what: &str| {
        let kept = repo.run(&["docs", "--all-files"]);
        let anew = repo.run(&["docs", "--all-files", "--no-cache"]);
        assert_eq!(kept.stdout, anew.stdout, "{what}");
        assert_eq!(kept.code, anew.code, "{what}");
        kept.stdout
    };
    let kept = || repo.kept("first-parent-");
    for i in 1..=11 {
        repo.write("app.py", format!("x = {i}\n"));
        repo.commit(&format!("code {i}"));
    }
    let read = both("read from the history");
    assert!(read.contains("2 documents have fallen behind the code"), "{read}");
    let head = repo.git(&["rev-parse", "HEAD"]).trim().to_string();
    assert_eq!(kept().1, vec![head.clone(), "latest".to_string()]);

    // A rename is a change to the document under its new name.
    repo.git(&["mv", "docs/guide.md", "docs/howto.md"]);
    repo.commit("rename the guide");
    let renamed = both("carried over a rename");
    assert!(
        renamed.contains("README.md was last changed 12 commits ago") && !renamed.contains("howto"),
        "{renamed}"
    );
    for i in 1..=3 {
        repo.write("app.py", format!("x = {}\n", 20 + i));
        repo.commit(&format!("more code {i}"));
        // Two new commits at once, one touching the README.
        if i == 2 {
            repo.write("README.md", "# demo\n\nA demo, again.\n");
            repo.commit("readme again");
        }
        both(&format!("carried {i}"));
    }
    let newest = repo.git(&["rev-parse", "HEAD"]).trim().to_string();
    let (dir, names) = kept();
    assert_eq!(names.len(), 3, "the newest, one other and latest: {names:?}");
    assert!(names.contains(&newest) && !names.contains(&head), "{names:?}");

    // An amended commit's window is read again, the same.
    repo.git(&["commit", "-q", "--amend", "-m", "more code, amended"]);
    both("amended");
    std::fs::write(dir.join(repo.git(&["rev-parse", "HEAD"]).trim()), "[{\"id\": 1}").unwrap();
    both("a damaged window");
}

#[test]
fn undocumented_exports_the_change_touched_are_reported() {
    let repo = documented_repo();
    repo.write("pkg/__init__.py", "");
    repo.write("pkg/old.py", "def legacy():\n    return 1\n");
    repo.write("script.py", "def main():\n    pass\n");
    repo.commit("package");
    repo.write(
        "pkg/old.py",
        "def legacy():\n    return 1\n\n\ndef parse(path):\n    return path\n\n\ndef load(path):\n    \"\"\"Load it.\"\"\"\n    return path\n",
    );
    repo.write("pkg/test_old.py", "def test_parse():\n    assert True\n");
    // A package's own test module, run as `python -m pkg.test` (the
    // stdlib's `test`, Django's `tests.py`), is not its API (issue 64:
    // Infinidat/munch's `bunch/test.py`, a doctest runner).
    repo.write("pkg/test.py", "def test():\n    import doctest\n");
    repo.write("pkg/tests.py", "def check():\n    pass\n");
    repo.write("script.py", "def main():\n    pass\n\n\ndef run():\n    pass\n");
    let run = repo.run(&["docs", "--base", "HEAD", "--format", "json"]);
    assert_eq!(
        run.code, 0,
        "a warning where nothing is published: {}{}",
        run.stdout, run.stderr
    );
    let report = json(&run);
    assert_eq!(found(&report), vec![("docs/undocumented-export".to_string(), 5)]);
    assert_eq!(report.findings[0].message, "public function `parse` has no doc comment");
    assert!(report.findings[0].notes.iter().any(|n| n == "add a docstring"));

    // A published package makes a symbol the change adds deny.
    repo.write("pyproject.toml", "[project]\nname = \"pkg\"\nversion = \"1\"\n");
    let run = repo.run(&["docs", "--base", "HEAD", "--format", "json"]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let report = json(&run);
    let deny: Vec<(&str, u32)> = report
        .findings
        .iter()
        .filter(|f| f.severity == loki_gate::finding::Severity::Error)
        .map(|f| (f.path.as_deref().unwrap_or(""), f.line.unwrap_or(0)))
        .collect();
    assert_eq!(deny, vec![("pkg/old.py", 5)], "{:?}", report.findings);

    // An old undocumented symbol the change only touches is a warning, and
    // so is one made public that was public at the base under that name.
    repo.commit("parse and load");
    repo.write(
        "pkg/old.py",
        "def legacy():\n    return 2\n\n\ndef parse(path):\n    return path\n\n\ndef load(path):\n    \"\"\"Load it.\"\"\"\n    return path\n",
    );
    let run = repo.run(&["docs", "--base", "HEAD", "--format", "json"]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let report = json(&run);
    assert_eq!(found(&report), vec![("docs/undocumented-export".to_string(), 1)]);
    assert!(
        report.findings[0]
            .notes
            .iter()
            .any(|n| n.contains("undocumented before this change")),
        "{:?}",
        report.findings[0].notes
    );
    // Made public by the change (`_helper` -> `helper`): added, so it blocks.
    repo.write("pkg/old.py", "def _helper():\n    return 1\n");
    repo.commit("a private helper");
    repo.write("pkg/old.py", "def helper():\n    return 1\n");
    assert_eq!(repo.run(&["docs", "--base", "HEAD"]).code, 1);
    repo.write(
        "pkg/old.py",
        "def legacy():\n    return 2\n\n\ndef parse(path):\n    return path\n\n\ndef load(path):\n    \"\"\"Load it.\"\"\"\n    return path\n",
    );
    repo.commit("back");

    // An audit (--all-files) summarises each file's gaps in one warning.
    let run = repo.run(&["docs", "--all-files", "--format", "json"]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let all = json(&run);
    let summaries: Vec<(&str, u32, &str)> = all
        .findings
        .iter()
        .filter(|f| f.rule == "docs/undocumented-export")
        .map(|f| (f.path.as_deref().unwrap_or(""), f.line.unwrap_or(0), f.message.as_str()))
        .collect();
    assert_eq!(
        summaries,
        vec![(
            "pkg/old.py",
            1,
            "2 public symbols have no doc comment: `legacy`, `parse`"
        )]
    );
    repo.write(
        "pkg/old.py",
        "def legacy():\n    return 2\n\n\ndef parse(path):\n    return path\n\n\ndef fresh():\n    return 3\n",
    );
    assert_eq!(repo.run(&["docs", "--base", "HEAD"]).code, 1);
    assert_eq!(
        repo.run(&["docs", "--base", "HEAD", "-W", "docs/undocumented-export"])
            .code,
        0
    );
}

/// Each file belongs to the package whose manifest is nearest above it: a
/// workspace member with `publish = false`, or a private package in a
/// published monorepo, is not published; tests, examples and benchmarks
/// are never an API.
#[test]
fn the_nearest_manifest_decides_what_is_published() {
    let repo = documented_repo();
    repo.write("Cargo.toml", "[workspace]\nmembers = [\"crates/*\"]\n");
    for (name, extra) in [("shop", ""), ("internal", "publish = false\n")] {
        repo.write(
            &format!("crates/{name}/Cargo.toml"),
            format!("[package]\nname = \"{name}\"\nversion = \"0.1.0\"\n{extra}"),
        );
        repo.write(&format!("crates/{name}/src/lib.rs"), "//! A crate.\n");
    }
    repo.write("package.json", "{ \"name\": \"root\", \"private\": true }\n");
    repo.write("packages/lib/package.json", "{ \"name\": \"lib\" }\n");
    repo.write("packages/lib/src/index.ts", "/** Adds. */\nexport function add() {}\n");
    repo.commit("workspace");
    repo.write("crates/shop/src/lib.rs", "//! A crate.\n\npub fn total() {}\n");
    repo.write("crates/internal/src/lib.rs", "//! A crate.\n\npub fn helper() {}\n");
    repo.write(
        "packages/lib/src/index.ts",
        "/** Adds. */\nexport function add() {}\n\nexport function sub() {}\n",
    );
    repo.write("packages/lib/examples/demo.ts", "export function demo() {}\n");
    repo.write("packages/lib/benchmarks/run.ts", "export function run() {}\n");
    let run = repo.run(&["docs", "--base", "HEAD", "--format", "json"]);
    let report = json(&run);
    let levels = export_levels(&report);
    assert_eq!(
        levels,
        vec![
            ("crates/internal/src/lib.rs", "Warning".to_string()),
            ("crates/shop/src/lib.rs", "Error".to_string()),
            ("packages/lib/src/index.ts", "Error".to_string()),
        ],
        "{}",
        run.stdout
    );
    let why: Vec<&str> = report
        .findings
        .iter()
        .flat_map(|f| f.notes.iter().map(String::as_str))
        .filter(|n| n.starts_with("deny:"))
        .collect();
    assert_eq!(
        why,
        vec![
            "deny: crates/shop/Cargo.toml publishes a crate (no `publish = false`)",
            "deny: packages/lib/package.json publishes a package (not \"private\": true)",
        ]
    );
}

/// A JavaScript package's API is what its entry points expose, followed
/// through re-exports: a symbol added to a module no entry point reaches is
/// internal, a warning.
#[test]
fn a_javascript_package_api_is_what_its_entry_points_expose() {
    let repo = documented_repo();
    repo.write(
        "package.json",
        "{ \"name\": \"lib\", \"exports\": { \".\": { \"types\": \"./dist/index.d.ts\", \"import\": \"./dist/index.js\" } } }\n",
    );
    repo.write(
        "src/index.ts",
        "/** Entry. */\nexport const entry = 1\nexport { a } from './core/a.js'\nexport * from './b.js'\nimport { c as see } from './c.js'\nexport { see }\n",
    );
    for (path, name) in [
        ("src/core/a.ts", "a"),
        ("src/b.ts", "b"),
        ("src/c.ts", "c"),
        ("src/internal.ts", "i"),
    ] {
        repo.write(path, format!("/** Doc. */\nexport const {name} = 1\n"));
    }
    repo.commit("a package");
    for (path, name, more) in [
        ("src/core/a.ts", "a", "a2"),
        ("src/b.ts", "b", "b2"),
        ("src/c.ts", "c", "c2"),
        ("src/internal.ts", "i", "i2"),
    ] {
        repo.write(
            path,
            format!("/** Doc. */\nexport const {name} = 1\n\nexport function {more}() {{}}\n"),
        );
    }
    repo.write(
        "src/index.ts",
        "/** Entry. */\nexport const entry = 1\nexport { a } from './core/a.js'\nexport * from './b.js'\nimport { c as see } from './c.js'\nexport { see }\n\nexport function more() {}\n",
    );
    let run = repo.run(&["docs", "--base", "HEAD", "--format", "json"]);
    let report = json(&run);
    let levels = export_levels(&report);
    assert_eq!(
        levels,
        vec![
            ("src/b.ts", "Error".to_string()),
            ("src/c.ts", "Warning".to_string()),
            ("src/core/a.ts", "Warning".to_string()),
            ("src/index.ts", "Error".to_string()),
            ("src/internal.ts", "Warning".to_string()),
        ],
        "{}",
        run.stdout
    );
}

/// Issue 64 (date-fns): a manifest copied into the build folder at publish
/// time names that folder's files (`./index.js`, `./add.js`), built from
/// `src/`: what `src/index.ts` does not reach (`src/_lib`) is internal. A
/// generated file (its header says so and asks not to edit it) is the
/// generator's to document. A Python module whose docstring calls it
/// private API is a warning (environs' `fields.py`); a provisional one is
/// still public.
#[test]
fn build_folder_manifests_generated_files_and_private_modules() {
    let repo = documented_repo();
    repo.write(
        "package.json",
        "{ \"name\": \"dates\", \"main\": \"./index.js\", \"exports\": { \".\": \"./index.js\", \"./add\": \"./add.js\", \"./fp\": \"./fp.js\" } }\n",
    );
    repo.write("src/index.ts", "/** Entry. */\nexport * from './add/index.js'\n");
    repo.write("src/add/index.ts", "/** Adds. */\nexport const add = 1\n");
    repo.write("src/fp/index.ts", "export * from './addFp/index.js'\n");
    repo.write("src/_lib/norm/index.ts", "/** Norm. */\nexport const norm = 1\n");
    repo.write("pyproject.toml", "[project]\nname = \"shop\"\nversion = \"1\"\n");
    repo.write("shop/__init__.py", "\"\"\"Shop.\"\"\"\n");
    repo.write(
        "shop/fields.py",
        "\"\"\"Fields.\n\n.. warning::\n    This module is considered private API.\n\"\"\"\n",
    );
    repo.write("shop/types.py", "\"\"\"Types.\n\nThis module is provisional.\n\"\"\"\n");
    repo.commit("a package");
    repo.write(
        "src/add/index.ts",
        "/** Adds. */\nexport const add = 1\n\nexport function addMore() {}\n",
    );
    repo.write(
        "src/_lib/norm/index.ts",
        "/** Norm. */\nexport const norm = 1\n\nexport function normalize() {}\n",
    );
    repo.write(
        "src/fp/addFp/index.ts",
        "// This file is generated automatically by `scripts/build/fp.ts`. Please, don't change it.\n\nexport const addFp = 1\n",
    );
    repo.write(
        "shop/fields.py",
        "\"\"\"Fields.\n\n.. warning::\n    This module is considered private API.\n\"\"\"\n\n\nclass Url:\n    pass\n",
    );
    repo.write(
        "shop/types.py",
        "\"\"\"Types.\n\nThis module is provisional.\n\"\"\"\n\n\nclass FieldMethod:\n    pass\n",
    );
    let run = repo.run(&["docs", "--base", "HEAD", "--format", "json"]);
    let report = json(&run);
    assert_eq!(
        export_levels(&report),
        vec![
            ("shop/fields.py", "Warning".to_string()),
            ("shop/types.py", "Error".to_string()),
            ("src/_lib/norm/index.ts", "Warning".to_string()),
            ("src/add/index.ts", "Error".to_string()),
        ],
        "{}",
        run.stdout
    );
    let private = report
        .findings
        .iter()
        .find(|f| f.path.as_deref() == Some("shop/fields.py"))
        .unwrap();
    assert!(
        private
            .notes
            .iter()
            .any(|n| n.contains("(\"This module is considered private API.\")")),
        "{:?}",
        private.notes
    );
}

/// Issue 64 (valibot): a package that declares no entry point and has no
/// `index.js` where npm looks by default (a website, an app) is imported
/// by no one: its exports are not API. A package whose entry points are
/// built by a bundler exposes what the bundler's config starts from
/// (tsdown's `entry`), not every module beside it.
#[test]
fn an_app_exposes_nothing_and_a_bundle_what_its_config_starts_from() {
    let repo = documented_repo();
    repo.write("package.json", "{ \"name\": \"root\", \"private\": true }\n");
    repo.write("site/package.json", "{ \"name\": \"site\", \"version\": \"0.1.0\" }\n");
    repo.write("lib/package.json", "{ \"name\": \"lib\", \"version\": \"0.1.0\" }\n");
    repo.write(
        "codemod/package.json",
        "{ \"name\": \"codemod\", \"main\": \"./dist/index.js\", \"types\": \"./dist/index.d.ts\" }\n",
    );
    repo.write(
        "codemod/tsdown.config.ts",
        "import { defineConfig } from 'tsdown';\n\nexport default defineConfig([\n  { entry: ['./src/transform/index.ts'], outDir: './dist' },\n]);\n",
    );
    repo.write(
        "codemod/src/transform/index.ts",
        "/** Entry. */\nexport default function transform() {}\n",
    );
    repo.commit("packages");
    repo.write("site/src/routes/page.ts", "export const properties = {}\n");
    repo.write("lib/index.ts", "export const shared = {}\n");
    repo.write("codemod/src/transform/helpers.ts", "export function helper() {}\n");
    repo.write(
        "codemod/src/transform/index.ts",
        "/** Entry. */\nexport default function transform() {}\n\nexport function run() {}\n",
    );
    let run = repo.run(&["docs", "--base", "HEAD", "--format", "json"]);
    let report = json(&run);
    assert_eq!(
        export_levels(&report),
        vec![
            ("codemod/src/transform/helpers.ts", "Warning".to_string()),
            ("codemod/src/transform/index.ts", "Error".to_string()),
            ("lib/index.ts", "Error".to_string()),
            ("site/src/routes/page.ts", "Warning".to_string()),
        ],
        "{}",
        run.stdout
    );
}

#[test]
fn javascript_rust_and_go_exports_follow_their_conventions() {
    let repo = documented_repo();
    repo.write("package.json", "{ \"name\": \"lib\", \"private\": true }\n");
    repo.write(
        "Cargo.toml",
        "[package]\nname = \"lib\"\nversion = \"0.1.0\"\npublish = false\n",
    );
    repo.write("go.mod", "module example.com/lib\n");
    repo.commit("manifests");
    repo.write(
        "src/index.ts",
        "/** Adds. */\nexport function add(a: number, b: number) { return a + b }\nexport const zero = 0\n",
    );
    repo.write("src/index.test.ts", "export const fixture = 1\n");
    repo.write(
        "src/lib.rs",
        "/// Documented.\npub fn documented() {}\npub fn bare() {}\nfn private() {}\n",
    );
    repo.write(
        "shapes.go",
        "package lib\n\n// Area is documented.\nfunc Area() int { return 0 }\n\nfunc Perimeter() int { return 0 }\n",
    );
    repo.write("shapes_test.go", "package lib\n\nfunc TestX() {}\n");
    // A command (`package main`) and an `internal/` package export nothing.
    repo.write("cmd/tool/main.go", "package main\n\nfunc Run() {}\n\nfunc main() {}\n");
    repo.write("internal/calc/calc.go", "package calc\n\nfunc Sum() int { return 0 }\n");
    // Nor does a fuzzing harness, exported for the fuzzer (issue 64:
    // BurntSushi/toml's `ossfuzz.FuzzToml`).
    repo.write(
        "ossfuzz/fuzz.go",
        "package ossfuzz\n\nfunc FuzzToml(data []byte) int { return 0 }\n",
    );
    let report = json(&repo.run(&["docs", "--base", "HEAD", "--format", "json"]));
    let found: Vec<(String, u32, String)> = report
        .findings
        .iter()
        .map(|f| {
            let path = f.path.clone().unwrap_or_default();
            (path, f.line.unwrap_or(0), format!("{:?}", f.severity))
        })
        .collect();
    let at = |path: &str, line: u32, severity: &str| (path.to_string(), line, severity.to_string());
    assert_eq!(
        found,
        vec![
            at("shapes.go", 6, "Error"),
            at("src/index.ts", 3, "Warning"),
            at("src/lib.rs", 3, "Warning")
        ],
        "a Go module's packages are importable; the private package and crate are not published"
    );
    assert!(
        report.findings[0]
            .notes
            .iter()
            .any(|n| n == "deny: go.mod declares module example.com/lib, whose packages are importable"),
        "{:?}",
        report.findings[0].notes
    );
    repo.write("package.json", "{ \"name\": \"lib\" }\n");
    let report = json(&repo.run(&["docs", "--base", "HEAD", "--format", "json"]));
    assert_eq!(report.summary.errors, 2, "package.json without private publishes");
}

/// A Go method that implements an interface is documented by it (issue
/// 64): a standard one (`Error() string`, `Unwrap() error`), or one its
/// package declares and documents in another file. A method of the same
/// name that takes other parameters, or one of an interface nobody
/// documented, still needs its own comment.
#[test]
fn a_go_method_that_implements_a_documented_interface_needs_no_comment_of_its_own() {
    let repo = documented_repo();
    repo.write("go.mod", "module example.com/lib\n");
    repo.write(
        "source.go",
        "package lib\n\n// A Source yields values.\ntype Source interface {\n\t// Next returns the next value.\n\tNext() int\n}\n\ntype sink interface {\n\tFlush()\n}\n",
    );
    repo.commit("interfaces");
    repo.write(
        "errors.go",
        "package lib\n\n// A ParseError is a value that did not parse.\ntype ParseError struct{ err error }\n\nfunc (e *ParseError) Error() string { return e.err.Error() }\n\nfunc (e *ParseError) Unwrap() error { return e.err }\n\nfunc (e *ParseError) Next() int { return 0 }\n\nfunc (e *ParseError) Flush() {}\n\nfunc (e *ParseError) Close(force bool) {}\n",
    );
    let found = lines_and_messages(&repo);
    assert_eq!(
        found,
        vec![
            (12, "public method `Flush` has no doc comment".to_string()),
            (14, "public method `Close` has no doc comment".to_string()),
        ]
    );
}

/// The line and message of each finding of `docs` on the change since HEAD.
fn lines_and_messages(repo: &TestRepo) -> Vec<(u32, String)> {
    let report = json(&repo.run(&["docs", "--base", "HEAD", "--format", "json"]));
    report
        .findings
        .iter()
        .map(|f| (f.line.unwrap_or(0), f.message.clone()))
        .collect()
}

/// A Go comment copied from a sibling (`// Object adds ..` above `func
/// (c Context) Objects`) is no doc comment of the symbol: it starts with
/// another name and never names it. The finding says what the comment
/// starts with, so the fix is plain (issue 64: zerolog a6414850, 5391dd7c).
/// A comment that is prose (`// adds nothing at all.`, or one that names
/// the symbol only later) is what `go doc` shows: it blocks only when the
/// base's linter config turns Go's convention on (revive's `exported`,
/// staticcheck's ST1020-ST1022), and is a warning otherwise (issue 64:
/// koanf ebda8efa, rs/cors 64821dda5a, google/uuid b35aa6a595). A config the
/// change itself adds does not decide.
#[test]
fn a_go_comment_naming_another_symbol_blocks_and_prose_blocks_where_the_linters_ask() {
    let repo = documented_repo();
    repo.write("go.mod", "module example.com/lib\n");
    repo.write(
        "context.go",
        "package lib\n\n// A Context builds fields.\ntype Context struct{}\n",
    );
    repo.commit("context");
    let change = "package lib\n\n// A Context builds fields.\ntype Context struct{}\n\n// Object adds one object.\nfunc (c Context) Object() {}\n\n// Object adds many objects.\nfunc (c Context) Objects() {}\n\n// adds nothing at all.\nfunc (c Context) None() {}\n\n// UUID version 6 is sortable.\n//\n// NewV6 returns one.\nfunc NewV6() {}\n\nfunc Bare() {}\n";
    repo.write("context.go", change);
    // What each finding says, and whether it blocks.
    let found = |repo: &TestRepo| -> Vec<(u32, String, bool)> {
        let report = json(&repo.run(&["docs", "--base", "HEAD", "--format", "json"]));
        report
            .findings
            .iter()
            .map(|f| (f.line.unwrap_or(0), f.message.clone(), f.severity == Severity::Error))
            .collect::<std::collections::BTreeSet<_>>()
            .into_iter()
            .collect()
    };
    let objects = (
        10,
        "public method `Objects` has no doc comment: the comment above it starts with `Object`, another name, and never names `Objects`".to_string(),
        true,
    );
    let prose = |line, kind: &str, name: &str, deny| {
        (
            line,
            format!(
                "public {kind} `{name}` has a doc comment that does not start with its name, Go's convention (staticcheck ST1020-ST1022, revive's `exported`)"
            ),
            deny,
        )
    };
    let bare = (20, "public func `Bare` has no doc comment".to_string(), true);
    let lenient = vec![
        objects.clone(),
        prose(13, "method", "None", false),
        prose(18, "func", "NewV6", false),
        bare.clone(),
    ];
    assert_eq!(found(&repo), lenient);
    // A config the change adds does not decide.
    repo.write(".golangci.yml", "version: \"2\"\nlinters:\n  enable: [revive]\n");
    assert_eq!(found(&repo), lenient);
    // The base's does, from the folder nearest the file.
    repo.write(
        "context.go",
        "package lib\n\n// A Context builds fields.\ntype Context struct{}\n",
    );
    repo.commit("lint the doc comments");
    repo.write("context.go", change);
    let strict = vec![
        objects,
        prose(13, "method", "None", true),
        prose(18, "func", "NewV6", true),
        bare,
    ];
    assert_eq!(found(&repo), strict);
    let run = repo.run(&["docs", "--base", "HEAD"]);
    assert!(
        run.stdout
            .contains(".golangci.yml turns on a linter that checks this convention"),
        "{}",
        run.stdout
    );
}

/// A Rust module or item marked `#[doc(hidden)]` is not the crate's API
/// (issue 64: every finding on the `log` crate's `__private_api`, a module
/// its macros reach): rustdoc leaves it out and `missing_docs` does not
/// ask for it. A public module beside it still does.
#[test]
fn a_rust_module_hidden_from_the_docs_is_not_api() {
    let repo = documented_repo();
    repo.write("Cargo.toml", "[package]\nname = \"lib\"\nversion = \"0.1.0\"\n");
    repo.write(
        "src/lib.rs",
        "//! A crate.\n\n#[doc(hidden)]\npub mod __private_api;\n\npub mod api;\n",
    );
    repo.write("src/__private_api.rs", "");
    repo.write("src/api.rs", "//! The API.\n");
    repo.commit("modules");
    repo.write("src/__private_api.rs", "pub fn log() {}\n");
    repo.write("src/api.rs", "//! The API.\n\npub fn log() {}\n");
    let report = json(&repo.run(&["docs", "--base", "HEAD", "--format", "json"]));
    let found: Vec<(String, u32)> = report
        .findings
        .iter()
        .map(|f| (f.path.clone().unwrap_or_default(), f.line.unwrap_or(0)))
        .collect();
    assert_eq!(found, vec![("src/api.rs".to_string(), 3)]);
}

/// A module moved from CommonJS to ES modules adds no API (issue 64:
/// commander.js's `exports.program = ..` became `export const program`, and
/// every name read as a new undocumented export); a name it did not export
/// before is still new.
#[test]
fn a_module_moved_from_commonjs_to_es_modules_adds_no_api() {
    let repo = documented_repo();
    repo.write("package.json", "{ \"name\": \"cli\", \"main\": \"index.js\" }\n");
    repo.write(
        "index.js",
        "class Command {}\n\nexports.program = new Command();\nexports.Command = Command;\nmodule.exports.createCommand = () => new Command();\n",
    );
    repo.commit("commonjs");
    repo.write(
        "index.js",
        "export class Command {}\n\nexport const program = new Command();\nexport const createCommand = () => new Command();\nexport function fresh() {}\n",
    );
    let report = json(&repo.run(&["docs", "--base", "HEAD", "--format", "json"]));
    let found = lines_and_levels(&report);
    assert_eq!(
        found,
        vec![
            (1, "Warning".to_string()),
            (3, "Warning".to_string()),
            (4, "Warning".to_string()),
            (5, "Error".to_string()),
        ]
    );
}

/// A module whose whole value was an anonymous function (`module.exports
/// = function (args, opts) {..}`) moved to `export default function` adds
/// no API (issue 64: lukeed/mri dda3343); a named export beside it is new.
#[test]
fn a_module_exported_as_one_function_moved_to_export_default_adds_no_api() {
    let repo = documented_repo();
    repo.write("package.json", "{ \"name\": \"mri\", \"main\": \"index.js\" }\n");
    repo.write(
        "index.js",
        "module.exports = function (args, opts) {\n  return args\n};\n",
    );
    repo.commit("commonjs");
    repo.write(
        "index.js",
        "export default function (args, opts) {\n  return args\n}\n\nexport function fresh() {}\n",
    );
    let report = json(&repo.run(&["docs", "--base", "HEAD", "--format", "json"]));
    let found = lines_and_levels(&report);
    assert_eq!(found, vec![(1, "Warning".to_string()), (5, "Error".to_string())]);
}

/// A module whose whole value was the export (`module.exports = QuickLRU`,
/// a declaration file's `export = QuickLRU`) moved to ES modules as
/// `export default class QuickLRU` adds no API (issue 64: quick-lru
/// a408ce9); a class of another name is new.
#[test]
fn a_module_exported_whole_moved_to_es_modules_adds_no_api() {
    let repo = documented_repo();
    repo.write(
        "package.json",
        "{ \"name\": \"lru\", \"main\": \"index.js\", \"types\": \"index.d.ts\" }\n",
    );
    repo.write("index.js", "class QuickLRU {}\n\nmodule.exports = QuickLRU;\n");
    repo.write("index.d.ts", "declare class QuickLRU {}\n\nexport = QuickLRU;\n");
    repo.commit("commonjs");
    repo.write(
        "index.js",
        "export default class QuickLRU {}\n\nexport class Other {}\n",
    );
    repo.write(
        "index.d.ts",
        "export default class QuickLRU {}\n\nexport class Other {}\n",
    );
    let report = json(&repo.run(&["docs", "--base", "HEAD", "--format", "json"]));
    let found: Vec<(String, u32, String)> = report
        .findings
        .iter()
        .map(|f| {
            (
                f.path.clone().unwrap_or_default(),
                f.line.unwrap_or(0),
                format!("{:?}", f.severity),
            )
        })
        .collect();
    let at = |path: &str, line: u32, severity: &str| (path.to_string(), line, severity.to_string());
    assert_eq!(
        found,
        vec![
            at("index.d.ts", 1, "Warning"),
            at("index.d.ts", 3, "Error"),
            at("index.js", 1, "Warning"),
            at("index.js", 3, "Warning"),
        ]
    );
}

/// A declaration file's `declare module 'copy' { .. }` declares the
/// package's API: its names moved to top-level `export`s are not new
/// (issue 64: klona 11034e1 and 71f8415); a name it did not declare is.
#[test]
fn names_an_ambient_module_declared_are_not_new_api() {
    let repo = documented_repo();
    repo.write("package.json", "{ \"name\": \"copy\", \"types\": \"index.d.ts\" }\n");
    repo.write(
        "index.d.ts",
        "declare module 'copy' {\n\tfunction copy<T>(val: T): T;\n\texport = copy;\n}\n",
    );
    repo.commit("ambient");
    repo.write(
        "index.d.ts",
        "export function copy<T>(input: T): T;\n\nexport function deep<T>(input: T): T;\n",
    );
    let report = json(&repo.run(&["docs", "--base", "HEAD", "--format", "json"]));
    let found = lines_and_levels(&report);
    assert_eq!(found, vec![(1, "Warning".to_string()), (3, "Error".to_string())]);
}

#[test]
fn a_private_python_module_exports_what_its_package_imports() {
    let repo = documented_repo();
    repo.write("pkg/__init__.py", "from ._impl import Loader, parse as load\n");
    repo.write(
        "pkg/_impl.py",
        "def parse(path):\n    return path\n\n\ndef helper():\n    return 1\n\n\nclass Loader:\n    def load(self):\n        pass\n\n\nclass Hidden:\n    def run(self):\n        pass\n",
    );
    let report = json(&repo.run(&["docs", "--base", "HEAD", "--format", "json"]));
    let names: Vec<&str> = report
        .findings
        .iter()
        .map(|f| f.message.split('`').nth(1).unwrap_or(""))
        .collect();
    assert_eq!(names, vec!["parse", "Loader", "load"]);
}

/// A Python distribution publishes the packages its build ships, and in
/// them what a public package takes from its private modules; an override
/// of a documented method is documented.
#[test]
fn a_python_distribution_publishes_what_its_build_ships() {
    let repo = documented_repo();
    repo.write(
        "pyproject.toml",
        "[project]\nname = \"lib\"\nversion = \"1\"\n[build-system]\nbuild-backend = \"hatchling.build\"\n[tool.hatch.build.targets.wheel]\npackages = [\"src/lib\"]\n",
    );
    repo.write("src/lib/__init__.py", "from ._core import *\n");
    repo.write(
        "src/lib/_core.py",
        "__all__ = ['Reader']\n\n\nclass Reader:\n    \"\"\"Reads.\"\"\"\n\n    def read(self):\n        \"\"\"Read one record.\"\"\"\n",
    );
    repo.write("src/lib/api.py", "\"\"\"The API.\"\"\"\n");
    repo.write("tools/__init__.py", "");
    repo.write("tools/release.py", "\"\"\"Release.\"\"\"\n");
    repo.commit("a distribution");
    repo.write(
        "src/lib/_core.py",
        "__all__ = ['Reader', 'Writer']\n\n\nclass Reader:\n    \"\"\"Reads.\"\"\"\n\n    def read(self):\n        \"\"\"Read one record.\"\"\"\n\n\nclass Writer:\n    pass\n\n\nclass Cached(Reader):\n    \"\"\"Caches.\"\"\"\n\n    def read(self):\n        return 1\n\n\ndef helper():\n    pass\n",
    );
    repo.write(
        "src/lib/api.py",
        "\"\"\"The API.\"\"\"\n\n\ndef fetch(url):\n    return url\n",
    );
    repo.write("tools/release.py", "\"\"\"Release.\"\"\"\n\n\ndef bump():\n    pass\n");
    let run = repo.run(&["docs", "--base", "HEAD", "--format", "json"]);
    let report = json(&run);
    let found: Vec<(&str, &str, String)> = report
        .findings
        .iter()
        .map(|f| {
            let name = f.message.split('`').nth(1).unwrap_or("");
            (f.path.as_deref().unwrap_or(""), name, format!("{:?}", f.severity))
        })
        .collect();
    assert_eq!(
        found,
        vec![
            ("src/lib/_core.py", "Writer", "Error".to_string()),
            ("src/lib/api.py", "fetch", "Error".to_string()),
            ("tools/release.py", "bump", "Warning".to_string()),
        ],
        "`Cached` and `helper` are not in `__all__`; `Cached.read` inherits `Reader.read`'s docstring: {}",
        run.stdout
    );
    assert!(
        report.findings[2]
            .notes
            .iter()
            .any(|n| n == "a warning: no package the distribution builds holds this module (pyproject.toml)"),
        "{:?}",
        report.findings[2].notes
    );
    // The audit is of the API the distribution ships.
    let all = json(&repo.run(&["docs", "--all-files", "--format", "json"]));
    let audited: Vec<&str> = all
        .findings
        .iter()
        .filter(|f| f.rule == "docs/undocumented-export")
        .filter_map(|f| f.path.as_deref())
        .collect();
    assert_eq!(audited, vec!["src/lib/_core.py", "src/lib/api.py"]);
}

#[cfg(unix)]
#[test]
fn a_symlink_out_of_the_repository_is_not_read() {
    let repo = documented_repo();
    let outside = tempfile::tempdir().unwrap();
    std::fs::write(outside.path().join("secret.py"), "def f():\n    pass\n").unwrap();
    repo.write("pkg/__init__.py", "");
    std::os::unix::fs::symlink(outside.path().join("secret.py"), repo.path().join("pkg/link.py")).unwrap();
    let report = json(&repo.run(&["docs", "--base", "HEAD", "--format", "json"]));
    assert_eq!(found(&report), vec![("meta/skipped-file".to_string(), 0)]);
    assert!(
        report.findings[0].message.contains("outside the repository"),
        "{}",
        report.findings[0].message
    );
}

#[test]
fn suppressions_and_the_text_report() {
    let repo = documented_repo();
    repo.write("pyproject.toml", "[project]\nname = \"pkg\"\nversion = \"1\"\n");
    repo.write("pkg/__init__.py", "");
    repo.commit("package");
    repo.write(
        "pkg/api.py",
        "def parse(path):  # loki-gate: allow(docs/undocumented-export) generated binding, documented upstream\n    return path\n\n\ndef load(path):\n    return path\n",
    );
    let run = repo.run(&["docs", "--base", "HEAD"]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    insta::assert_snapshot!(run.snapshot(&repo));
    let report = json(&repo.run(&["docs", "--base", "HEAD", "--format", "json"]));
    assert_eq!(report.summary.suppressed, 1);
}

/// Issue 64: where a package documents little of its API (under half of
/// at least eight public symbols in the directory, at the base), a new
/// undocumented symbol is a warning that says the share; where it
/// documents most, the same symbol blocks.
#[test]
fn a_new_symbol_where_the_package_documents_little_is_a_warning_with_the_share() {
    share_decides(
        "funcs.go",
        &[],
        ("more.go", "package lib\n\nfunc G() int { return 0 }\n"),
        "documented 1 of its 10 public symbols at the base (10%)",
    );
}

/// Issue 64: a directory too small to measure (three loop factories in
/// uvicorn's `loops/`) keeps the convention of the nearest directory above
/// it that is: a warning with that directory's share where it documents
/// little, an error where it documents most.
#[test]
fn a_small_directory_keeps_the_convention_of_the_one_above() {
    share_decides(
        "lib/funcs.go",
        &[("lib/loops/a.go", "package loops\n\nfunc A() int { return 0 }\n")],
        ("lib/loops/b.go", "package loops\n\nfunc B() int { return 0 }\n"),
        "the directory above it, lib, documented 1 of its 10 public symbols at the base (10%)",
    );
}

/// Ten Go functions at `funcs_at` (one, then seven, documented) and the
/// files `beside` at the base; the change adds the undocumented `added`:
/// a warning whose note `says` the share, then an error.
fn share_decides(funcs_at: &str, beside: &[(&str, &str)], added: (&str, &str), says: &str) {
    for (documented, want) in [(1, "Warning"), (7, "Error")] {
        let repo = documented_repo();
        repo.write("go.mod", "module example.com/lib\n");
        let mut base = String::from("package lib\n");
        for i in 0..10 {
            if i < documented {
                base.push_str(&format!("\n// F{i} does {i}.\n"));
            }
            base.push_str(&format!("func F{i}() int {{ return {i} }}\n"));
        }
        repo.write(funcs_at, &base);
        for (path, text) in beside {
            repo.write(path, text);
        }
        repo.commit("funcs");
        repo.write(added.0, added.1);
        let report = json(&repo.run(&["docs", "--base", "HEAD", "--format", "json"]));
        assert_eq!(
            export_levels(&report),
            vec![(added.0, want.to_string())],
            "{documented}"
        );
        let notes = report.findings[0].notes.join(" ");
        if want == "Warning" {
            assert!(notes.contains(says), "{notes}");
        }
    }
}

/// Issue 64: a Go method is its receiver type's. A new `(*Route).Use`
/// without a doc comment is new API, though `(*Router).Use` was public and
/// documented at the base (gorilla/mux's route middleware); editing
/// `(*Router).Use` and dropping its comment is the warning it was.
#[test]
fn a_go_method_is_told_apart_by_its_receiver() {
    let base = "package mux\n\n// Router routes.\ntype Router struct{}\n\n// Route is a route.\ntype Route struct{}\n\n// Use appends a middleware to the router.\nfunc (r *Router) Use(f func()) {}\n";
    for (change, want) in [
        (format!("{base}\nfunc (r *Route) Use(f func()) {{}}\n"), "Error"),
        (
            base.replace("// Use appends a middleware to the router.\n", "")
                .replace("Use(f func())", "Use(fs ...func())"),
            "Warning",
        ),
    ] {
        let repo = documented_repo();
        repo.write("go.mod", "module example.com/mux\n");
        repo.write("mux.go", base);
        repo.commit("router");
        repo.write("mux.go", &change);
        let report = json(&repo.run(&["docs", "--base", "HEAD", "--format", "json"]));
        assert_eq!(export_levels(&report), vec![("mux.go", want.to_string())], "{change}");
    }
}

/// Issue 64: a kind the directory documents little of (at least four of
/// it at the base, under half documented) is the project's convention
/// too: ufo documents every function and none of its seven TypeScript
/// types, so a new type without a doc comment is a warning that says the
/// share; where most of its types are documented, the same type blocks.
#[test]
fn a_new_type_where_the_directory_documents_few_types_is_a_warning() {
    for (documented, want) in [(0, "Warning"), (3, "Error")] {
        let repo = documented_repo();
        repo.write("package.json", "{ \"name\": \"lib\", \"main\": \"./src/index.ts\" }\n");
        let mut base = String::new();
        for i in 0..4 {
            base.push_str(&format!(
                "/** Parses {i}. */\nexport function parse{i}(s: string): string {{ return s }}\n\n"
            ));
        }
        for i in 0..4 {
            if i < documented {
                base.push_str(&format!("/** Shape {i}. */\n"));
            }
            base.push_str(&format!("export interface Shape{i} {{ n: number }}\n\n"));
        }
        repo.write("src/index.ts", &base);
        repo.commit("api");
        repo.write(
            "src/index.ts",
            format!(
                "{base}export type Picked = Pick<Shape0, \"n\">;\n\nexport function picked(): number {{ return 0 }}\n"
            ),
        );
        let report = json(&repo.run(&["docs", "--base", "HEAD", "--format", "json"]));
        let levels: Vec<(String, String)> = report
            .findings
            .iter()
            .filter(|f| f.rule == "docs/undocumented-export")
            .map(|f| (f.message.clone(), format!("{:?}", f.severity)))
            .collect();
        assert_eq!(
            levels,
            vec![
                ("public type `Picked` has no doc comment".to_string(), want.to_string()),
                // A function is still held to the functions' convention.
                (
                    "public function `picked` has no doc comment".to_string(),
                    "Error".to_string()
                ),
            ],
            "{documented}"
        );
        let notes = report.findings[0].notes.join(" ");
        if want == "Warning" {
            assert!(
                notes.contains("documented 0 of its 4 public types at the base (0%)"),
                "{notes}"
            );
        }
    }
}

/// A Rust item or module the crate's own lint settings exempt from docs
/// (`#[allow(missing_docs)]`, `#![allow(missing_docs)]` at a module's top,
/// `#[expect(missing_docs)]`, on a `mod` declaration too) needs no doc
/// comment (fresh replay, jiff: 38 findings on its `constants` module and
/// `bounds::const_check`); the module next to it still does.
#[test]
fn a_rust_item_the_crate_exempts_from_missing_docs_needs_none() {
    let repo = documented_repo();
    repo.write("Cargo.toml", "[package]\nname = \"lib\"\nversion = \"0.1.0\"\n");
    repo.write(
        "src/lib.rs",
        "//! A crate.\n#![deny(missing_docs)]\n\npub mod constants;\n#[allow(missing_docs)]\npub mod raw;\npub mod bounds;\n",
    );
    repo.write("src/constants.rs", "//! Constants.\n");
    repo.write("src/raw.rs", "//! Raw.\n");
    repo.write("src/bounds.rs", "//! Bounds.\n");
    repo.commit("modules");
    repo.write(
        "src/constants.rs",
        "//! Constants.\n\n#![allow(missing_docs)]\n\npub const DAYS: i64 = 7;\n",
    );
    repo.write("src/raw.rs", "//! Raw.\n\npub fn bits() {}\n");
    repo.write(
        "src/bounds.rs",
        "//! Bounds.\n\n/// Checks in const context.\n#[allow(missing_debug_implementations, missing_docs)]\npub mod const_check {\n    pub fn i8() {}\n}\n\n#[expect(missing_docs)]\npub fn i16() {}\n\npub fn i32() {}\n",
    );
    let report = json(&repo.run(&["docs", "--base", "HEAD", "--format", "json"]));
    let found: Vec<(String, u32)> = report
        .findings
        .iter()
        .map(|f| (f.path.clone().unwrap_or_default(), f.line.unwrap_or(0)))
        .collect();
    assert_eq!(found, vec![("src/bounds.rs".to_string(), 12)]);
}

/// A TypeScript interface (or object type) whose every member has its own
/// JSDoc is documented by them, as TypeDoc and editors show it (fresh
/// replay, path-to-regexp: options interfaces); one member without a doc
/// leaves the interface undocumented.
#[test]
fn an_interface_whose_members_are_all_documented_is_documented() {
    let repo = documented_repo();
    repo.write("package.json", "{ \"name\": \"lib\", \"main\": \"./src/index.ts\" }\n");
    repo.write("src/index.ts", "/** Entry. */\nexport const entry = 1\n");
    repo.commit("a package");
    repo.write(
        "src/index.ts",
        "/** Entry. */\nexport const entry = 1\n\nexport interface MatchOptions {\n  /** Decode each parameter. */\n  decode?: boolean\n  /** Match to the end. */\n  end?: boolean\n}\n\nexport type PathOptions = {\n  /** Case sensitive. */\n  sensitive?: boolean\n}\n\nexport interface CompileOptions {\n  /** Encode each parameter. */\n  encode?: boolean\n  validate?: boolean\n}\n",
    );
    let found = lines_and_messages(&repo);
    assert_eq!(
        found,
        vec![(16, "public interface `CompileOptions` has no doc comment".to_string())]
    );
}
