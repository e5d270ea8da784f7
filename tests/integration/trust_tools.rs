//! The project's own tools' configs are held to the base's bar (issue 54):
//! a change that tells the linter to ignore a rule or skip a directory,
//! makes the type checker less strict, or tells the test runner to collect
//! or run fewer tests is a `meta/waiver-added` finding, held in CI until
//! someone trusted acknowledges it. A change that raises the bar is not.

use crate::support::TestRepo;

/// A pyproject.toml with these `[tool.ruff.lint]` and `[tool.pytest.ini_options]` bodies.
fn pyproject(lint: &str, pytest: &str) -> String {
    format!(
        "[project]\nname = \"shop\"\nversion = \"0\"\n\n[tool.ruff.lint]\n{lint}\n[tool.pytest.ini_options]\n{pytest}"
    )
}

/// A Python project with ruff, mypy and pytest configured, committed as the base.
fn project() -> (TestRepo, String) {
    let repo = TestRepo::new();
    repo.write(".gitignore", ".ruff_cache/\n.mypy_cache/\n")
        .write("README.md", "# shop\n\nA cart.\n")
        .write(
            "pyproject.toml",
            pyproject("select = [\"E\", \"F\"]\n", "python_files = [\"test_*.py\"]\n"),
        )
        .write("shop/__init__.py", "")
        .write("shop/cart.py", "def total(xs):\n    return sum(xs)\n")
        .write(
            "tests/test_cart.py",
            "from shop.cart import total\n\n\ndef test_total():\n    assert total([1]) == 1\n",
        );
    let base = repo.commit("base");
    (repo, base)
}

fn ci(repo: &TestRepo, args: &[&str]) -> crate::support::Run {
    repo.run_env(args, &[("CI", "true")])
}

/// `rule path:line message` of each `meta/waiver-added` finding of every gate.
fn held(run: &crate::support::Run) -> Vec<String> {
    run.json()["gates"]
        .as_array()
        .unwrap_or_else(|| panic!("{}{}", run.stdout, run.stderr))
        .iter()
        .flat_map(|g| g["findings"].as_array().cloned().unwrap_or_default())
        .filter(|f| f["rule"] == "meta/waiver-added")
        .map(|f| {
            format!(
                "{} {}:{} {}",
                f["severity"].as_str().unwrap_or(""),
                f["path"].as_str().unwrap_or("-"),
                f["line"].as_u64().unwrap_or(0),
                f["message"].as_str().unwrap_or("")
            )
        })
        .collect()
}

/// The static gate in CI, blocked: each held waiver as `severity
/// path:line` and what it holds, up to "was added".
fn suppressions_held(repo: &TestRepo, base: &str) -> Vec<String> {
    let run = ci(
        repo,
        &["check", "--base", base, "--gates", "static", "--format", "json"],
    );
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    held(&run)
        .into_iter()
        .map(|f| f.split(" was added").next().unwrap_or("").to_string())
        .collect()
}

#[test]
fn a_linter_told_to_ignore_a_rule_is_held_in_ci() {
    let (repo, base) = project();
    repo.write(
        "pyproject.toml",
        pyproject(
            "select = [\"E\", \"F\"]\nignore = [\"F401\"]\n",
            "python_files = [\"test_*.py\"]\n",
        ),
    )
    .write("shop/cart.py", "import os\n\n\ndef total(xs):\n    return sum(xs)\n");
    repo.commit("quiet the linter");
    let run = ci(
        &repo,
        &["check", "--base", &base, "--gates", "static,mock", "--format", "json"],
    );
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert_eq!(
        held(&run),
        vec![
            "error pyproject.toml:7 pyproject.toml: ruff `tool.ruff.lint.ignore` gained `F401` lowers the bar the base set: held: it blocks until someone trusted acknowledges it; changed by Test <test@example.com> (".to_string()
                + repo.git(&["rev-parse", "--short=7", "HEAD"]).trim()
                + ")"
        ]
    );
    // Outside CI it applies, and says CI will not take it.
    let local = repo.run(&["check", "--base", &base, "--gates", "static,mock", "--format", "json"]);
    assert_eq!(local.code, 0, "{}{}", local.stdout, local.stderr);
    assert!(
        held(&local)[0].starts_with("warning pyproject.toml:7"),
        "{:?}",
        held(&local)
    );
}

#[test]
fn a_test_runner_told_to_collect_fewer_tests_is_held_in_ci() {
    let (repo, base) = project();
    // Narrowed discovery, then a hollow test in a file the old pattern collects.
    repo.write(
        "pyproject.toml",
        pyproject("select = [\"E\", \"F\"]\n", "python_files = [\"check_*.py\"]\n"),
    )
    .write("tests/test_more.py", "def test_more():\n    assert True\n");
    repo.commit("narrow");
    let run = ci(
        &repo,
        &["check", "--base", &base, "--gates", "mock", "--format", "json"],
    );
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let found = held(&run);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(
        found[0].starts_with("error pyproject.toml:9 pyproject.toml: pytest `tool.pytest.ini_options.python_files` changed from `[\"test_*.py\"]` to `[\"check_*.py\"]` lowers the bar"),
        "{found:?}"
    );
    // And the hollow test is still read as a test: the base's pytest collects it.
    let mock: Vec<String> = run.json()["gates"][0]["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["rule"] != "meta/waiver-added")
        .map(|f| format!("{} {}", f["rule"].as_str().unwrap(), f["path"].as_str().unwrap_or("-")))
        .collect();
    assert_eq!(
        mock,
        vec![
            "mock/never-imports-subject tests/test_more.py",
            "mock/tautological-assertion tests/test_more.py"
        ]
    );

    // A conftest that drops a test file, and addopts that deselect one.
    let (repo, base) = project();
    repo.write("tests/conftest.py", "collect_ignore = [\"test_cart.py\"]\n")
        .write(
            "pyproject.toml",
            pyproject(
                "select = [\"E\", \"F\"]\n",
                "python_files = [\"test_*.py\"]\naddopts = \"--deselect tests/test_cart.py::test_total\"\n",
            ),
        );
    repo.commit("skip it");
    let run = ci(
        &repo,
        &["check", "--base", &base, "--gates", "mock", "--format", "json"],
    );
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let found = held(&run);
    assert_eq!(found.len(), 2, "{found:?}");
    assert!(
        found[0]
            .contains("pytest `tool.pytest.ini_options.addopts` gained `--deselect`, `tests/test_cart.py::test_total`"),
        "{found:?}"
    );
    assert!(
        found[1].starts_with("error tests/conftest.py:1 tests/conftest.py: pytest `collect_ignore` added"),
        "{found:?}"
    );
}

/// Test runner hooks are part of the bar (issue 63): a conftest hook that
/// marks every outcome passed, or an autouse fixture that skips the test a
/// change broke, made the tests "green" with no finding; so did a jest
/// config given a setup file or a reporter.
#[test]
fn a_test_runner_hook_setup_file_or_reporter_is_held_in_ci() {
    let (repo, base) = project();
    repo.write(
        "tests/conftest.py",
        "import pytest\n\n\n@pytest.hookimpl(hookwrapper=True)\ndef pytest_runtest_makereport(item, call):\n    outcome = yield\n    outcome.get_result().outcome = \"passed\"\n\n\n@pytest.fixture(autouse=True)\ndef _calm(request):\n    if request.node.name == \"test_total\":\n        pytest.skip(\"flaky\")\n",
    )
    .write(
        "package.json",
        "{\"name\": \"shop\", \"jest\": {\"setupFilesAfterEnv\": [\"./calm.js\"], \"reporters\": [\"./quiet.js\"]}}\n",
    );
    repo.commit("calm the tests");
    let run = ci(
        &repo,
        &["check", "--base", &base, "--gates", "mock", "--format", "json"],
    );
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let found = held(&run);
    let said = |needle: &str| found.iter().any(|f| f.contains(needle));
    assert!(
        said("tests/conftest.py:4 tests/conftest.py: pytest `pytest_runtest_makereport` hook implementation added"),
        "{found:?}"
    );
    assert!(
        said("tests/conftest.py:10 tests/conftest.py: pytest `_calm` autouse fixture added"),
        "{found:?}"
    );
    assert!(said("pytest `pytest.skip` added `pytest.skip(\"flaky\")`"), "{found:?}");
    assert!(said("jest `jest.setupFilesAfterEnv`"), "{found:?}");
    assert!(said("jest `jest.reporters`"), "{found:?}");
}

/// A plugin module the base loads (`pytest_plugins` in the root
/// conftest.py, `-p` in `addopts`) runs its hooks around every test as a
/// conftest.py does: one given a hook that marks every outcome passed is
/// held; the same hook in a module pytest does not load is no finding.
#[test]
fn a_hook_added_to_a_pytest_plugin_module_is_held_in_ci() {
    let (repo, base) = project();
    repo.write("conftest.py", "pytest_plugins = [\n    \"tests.plugin\",\n]\n")
        .write(
            "pyproject.toml",
            pyproject(
                "select = [\"E\", \"F\"]\n",
                "python_files = [\"test_*.py\"]\naddopts = \"-p shop.checks\"\n",
            ),
        )
        .write("tests/__init__.py", "")
        .write("tests/plugin.py", "import pytest\n")
        .write("shop/checks.py", "import pytest\n")
        .write("shop/helpers.py", "import pytest\n");
    let base = {
        let _ = base;
        repo.commit("plugins")
    };
    let hook = "import pytest\n\n\n@pytest.hookimpl(hookwrapper=True)\ndef pytest_runtest_makereport(item, call):\n    outcome = yield\n    outcome.get_result().outcome = \"passed\"\n";
    repo.write("tests/plugin.py", hook)
        .write("shop/checks.py", hook)
        .write("shop/helpers.py", hook);
    repo.commit("calm the tests");
    let run = ci(
        &repo,
        &["check", "--base", &base, "--gates", "mock", "--format", "json"],
    );
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let found = held(&run);
    for path in ["tests/plugin.py", "shop/checks.py"] {
        assert!(
            found.iter().any(|f| f.contains(&format!(
                "{path}:4 {path}: pytest `pytest_runtest_makereport` hook implementation added"
            ))),
            "{path}: {found:#?}"
        );
    }
    assert_eq!(found.len(), 2, "{found:#?}");
}

/// An agent's hook settings are part of the bar (issue 63): a change that
/// takes loki-gate's stop hook out of `.claude/settings.json`, or turns
/// every hook off, is held in CI; one that adds a hook of its own is not.
#[test]
fn an_agent_hook_removed_or_all_hooks_turned_off_is_held_in_ci() {
    let (repo, _) = project();
    assert_eq!(repo.run(&["init", "--agent", "claude"]).code, 0);
    let base = repo.commit("wire the agent");
    let settings = repo.read(".claude/settings.json");
    let mut doc: serde_json::Value = serde_json::from_str(&settings).unwrap();
    doc["hooks"].as_object_mut().unwrap().remove("Stop");
    doc["disableAllHooks"] = serde_json::Value::Bool(true);
    repo.write(".claude/settings.json", serde_json::to_string_pretty(&doc).unwrap());
    repo.commit("quiet the agent");
    let run = ci(
        &repo,
        &["check", "--base", &base, "--gates", "mock", "--format", "json"],
    );
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let found = held(&run);
    assert_eq!(found.len(), 2, "{found:?}");
    assert!(
        found.iter().any(|f| f.contains("the coding agent `hooks.Stop`")
            && f.contains("removed loki-gate's hook `loki-gate agent stop --agent claude`")),
        "{found:?}"
    );
    assert!(
        found.iter().any(|f| f.contains("the coding agent `disableAllHooks`")),
        "{found:?}"
    );

    // A hook of the person's own added beside loki-gate's lowers nothing.
    repo.write(".claude/settings.json", settings.replacen("\"hooks\": {", "\"hooks\": {\n    \"Notification\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"./notify.sh\"}]}],", 1));
    repo.commit("notify");
    let run = ci(
        &repo,
        &["check", "--base", "HEAD~1", "--gates", "mock", "--format", "json"],
    );
    assert!(held(&run).is_empty(), "{:?}", held(&run));
}

/// ruff's config as ruff resolves it (issue 63): a new `ruff.toml`
/// replaces the `pyproject.toml` settings beside it, `extend` pulls in
/// another file, and an unset `select` is ruff's default selection. Each
/// got past as a file read key by key.
#[test]
fn a_ruff_config_that_shadows_extends_or_narrows_the_default_is_held_in_ci() {
    let said = |repo: &TestRepo, base: &str| -> Vec<String> {
        let run = ci(
            repo,
            &["check", "--base", base, "--gates", "static", "--format", "json"],
        );
        held(&run)
    };
    // A ruff.toml beside pyproject.toml, selecting less.
    let (repo, base) = project();
    repo.write("ruff.toml", "[lint]\nselect = [\"E\"]\n");
    repo.commit("a ruff.toml");
    let found = said(&repo, &base);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(
        found[0]
            .contains("ruff `lint.select` lost `F` against pyproject.toml, whose settings this new file replaces here"),
        "{found:?}"
    );
    // The same file selecting more lowers nothing; nor does one that
    // extends the config it sits beside and adds a rule.
    repo.write("ruff.toml", "[lint]\nselect = [\"E\", \"F\", \"B\"]\n");
    repo.commit("a stricter ruff.toml");
    assert!(said(&repo, &base).is_empty());
    repo.write(
        "ruff.toml",
        "extend = \"./pyproject.toml\"\n\n[lint]\nextend-select = [\"B\"]\n",
    );
    repo.commit("an extending ruff.toml");
    assert!(said(&repo, &base).is_empty());

    // `extend` gained; `select` narrowed from ruff's default.
    let (repo, base) = project();
    repo.write(
        "pyproject.toml",
        "[project]\nname = \"shop\"\nversion = \"0\"\n\n[tool.ruff]\nextend = \"lenient.toml\"\n",
    );
    let base = {
        let _ = base;
        repo.commit("no select")
    };
    repo.write(
        "pyproject.toml",
        "[project]\nname = \"shop\"\nversion = \"0\"\n\n[tool.ruff]\nextend = \"other.toml\"\n\n[tool.ruff.lint]\nselect = [\"E\"]\n",
    );
    repo.commit("narrow");
    let found = said(&repo, &base);
    assert!(found.iter().any(|f| f.contains("ruff `tool.ruff.extend`")), "{found:?}");
    assert!(
        found
            .iter()
            .any(|f| f.contains("ruff `tool.ruff.lint.select` lost `F`")),
        "{found:?}"
    );
}

/// mypy and pytest take the first config file they find, unmerged: a new
/// `mypy.ini` replaces `pyproject.toml`'s `[tool.mypy]` (`strict` gone),
/// a new `pytest.ini` its pytest options (issue 63).
#[test]
fn a_new_mypy_or_pytest_config_that_replaces_pyprojects_is_read_against_it() {
    let (repo, base) = project();
    repo.write(
        "pyproject.toml",
        format!(
            "{}\n[tool.mypy]\nstrict = true\n",
            pyproject("select = [\"E\", \"F\"]\n", "python_files = [\"test_*.py\"]\n")
        ),
    );
    let base = {
        let _ = base;
        repo.commit("strict mypy")
    };
    repo.write("mypy.ini", "[mypy]\nwarn_unused_ignores = True\n")
        .write("pytest.ini", "[pytest]\npython_files = check_*.py\n");
    repo.commit("configs of their own");
    let run = ci(
        &repo,
        &["check", "--base", &base, "--gates", "static,mock", "--format", "json"],
    );
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let found = held(&run);
    assert!(
        found.iter().any(|f| f.contains(
            "mypy `strict` dropped (was `true`) against pyproject.toml, whose settings this new file replaces here"
        ) || f.contains("mypy `strict` dropped against pyproject.toml")),
        "{found:?}"
    );
    assert!(
        found
            .iter()
            .any(|f| f.contains("pytest `python_files`") && f.contains("against pyproject.toml")),
        "{found:?}"
    );
}

#[test]
fn raising_the_bar_or_an_untouched_config_is_no_finding() {
    let (repo, base) = project();
    repo.write(
        "pyproject.toml",
        pyproject(
            "select = [\"E\", \"F\", \"B\"]\n",
            "python_files = [\"test_*.py\"]\naddopts = \"-ra\"\n",
        ),
    );
    repo.commit("stricter");
    let run = ci(
        &repo,
        &["check", "--base", &base, "--gates", "static,mock", "--format", "json"],
    );
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(held(&run).is_empty());
}

#[test]
fn a_tool_suppression_the_change_adds_is_held_in_ci() {
    let (repo, base) = project();
    repo.write(".loki-gate.yaml", "trusted-authors: [\"*<lead@acme.io>\"]\n");
    repo.commit("trust the lead");
    let base = {
        let _ = base;
        repo.git(&["rev-parse", "HEAD"]).trim().to_string()
    };
    repo.write(
        "shop/cart.py",
        "import os  # noqa: F401\n\n\ndef total(xs):\n    return sum(xs)  # type: ignore[no-any-return]\n",
    )
    .write(
        "web/app.ts",
        "// @ts-ignore\nexport const port: number = \"8080\";\n// eslint-disable-next-line no-console\nconsole.log(port);\n",
    );
    repo.commit("quiet the tools");
    let found = suppressions_held(&repo, &base);
    assert_eq!(
        found,
        vec![
            "error shop/cart.py:1 `# noqa: F401`",
            "error shop/cart.py:5 `# type: ignore[no-any-return]`",
            "error web/app.ts:1 `@ts-ignore`",
            "error web/app.ts:3 `eslint-disable-next-line no-console`",
        ]
    );

    // The same, committed and signed by the trusted lead, is acknowledged;
    // a suppression the base already had (moved down a line) is the base's.
    let (repo, _) = project();
    let key = crate::support::signing::SshKey::new();
    repo.write(
        ".loki-gate.yaml",
        "trusted-authors: [\"*<lead@acme.io>\"]\ntrusted-signers: .github/allowed_signers\n",
    )
    .write(".github/allowed_signers", key.allowed("lead@acme.io"))
    .write(
        "shop/cart.py",
        "import os  # noqa: F401\n\n\ndef total(xs):\n    return sum(xs)\n",
    );
    let base = repo.commit("base with a suppression");
    repo.write(
        "shop/cart.py",
        "\"\"\"The cart.\"\"\"\nimport os  # noqa: F401\nimport sys  # noqa: F401\n\n\ndef total(xs):\n    return sum(xs)\n",
    );
    repo.commit_by(
        "Lead <lead@acme.io>",
        None,
        crate::support::signing::Sign::Ssh(&key),
        "lead",
    );
    let run = ci(
        &repo,
        &["check", "--base", &base, "--gates", "static", "--format", "json"],
    );
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let waivers: Vec<String> = run.json()["gates"][0]["waivers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| {
            format!(
                "{} {} {}",
                w["kind"].as_str().unwrap(),
                w["line"],
                w["status"].as_str().unwrap()
            )
        })
        .collect();
    assert_eq!(waivers, vec!["tool-suppression 3 acknowledged"]);
}

/// Suppressions are matched as the tool matches them (issue 63): ruff
/// honours `# NOQA` in any case and flake8's file-level `# flake8: noqa`,
/// which got past as written; pylint's `disable-next` too.
#[test]
fn a_suppression_in_another_case_or_flake8_form_is_held_in_ci() {
    let (repo, base) = project();
    repo.write(
        "shop/cart.py",
        "# flake8: noqa\nimport os  # NOQA\nimport sys  # NoQA: F401\n\n\n# pylint: disable-next=unused-argument\ndef total(xs, unused):\n    return sum(xs)\n",
    );
    repo.commit("quiet ruff");
    let found = suppressions_held(&repo, &base);
    assert_eq!(
        found,
        vec![
            "error shop/cart.py:1 `# flake8: noqa`",
            "error shop/cart.py:2 `# NOQA`",
            "error shop/cart.py:3 `# NoQA: F401`",
            "error shop/cart.py:6 `# pylint: disable-next=unused-argument`",
        ]
    );
}

#[test]
fn a_build_tag_that_takes_go_tests_out_of_go_test_is_a_skip() {
    let repo = TestRepo::new();
    repo.write("go.mod", "module example.com/calc\n\ngo 1.22\n")
        .write("calc.go", "package calc\n\nfunc Add(a, b int) int {\n\treturn a + b\n}\n")
        .write(
            "calc_test.go",
            "package calc\n\nimport \"testing\"\n\nfunc TestAdd(t *testing.T) {\n\tif Add(1, 2) != 3 {\n\t\tt.Fatal(\"wrong\")\n\t}\n}\n",
        );
    let base = repo.commit("base");
    // The test now builds only with `-tags integration`: `go test` skips it.
    repo.write(
        "calc_test.go",
        "//go:build integration\n\npackage calc\n\nimport \"testing\"\n\nfunc TestAdd(t *testing.T) {\n\tif Add(1, 2) != 3 {\n\t\tt.Fatal(\"wrong\")\n\t}\n}\n",
    )
    .write("calc.go", "package calc\n\nfunc Add(a, b int) int {\n\treturn a - b\n}\n");
    repo.commit("hide it");
    let run = ci(
        &repo,
        &["check", "--base", &base, "--gates", "mutation", "--format", "json"],
    );
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert_eq!(
        run.findings(),
        vec!["mutation/test-deleted-or-skipped error calc_test.go:1"]
    );
    let message = run.gate()["findings"][0]["message"].as_str().unwrap().to_string();
    assert!(message.contains("`-tags integration`"), "{message}");
}

#[test]
fn a_narrowed_jest_pattern_hides_no_test_from_the_gates() {
    let repo = TestRepo::new();
    repo.write(
        "package.json",
        "{\n  \"name\": \"calc\",\n  \"jest\": {\n    \"testMatch\": [\"**/*.test.js\"]\n  }\n}\n",
    )
    .write("src/calc.js", "export function add(a, b) {\n  return a + b;\n}\n")
    .write(
        "src/calc.test.js",
        "import { add } from './calc';\n\ntest('adds', () => {\n  expect(add(1, 2)).toBe(3);\n});\n",
    );
    let base = repo.commit("base");
    // jest now collects `*.spec.js` only; the hollow test sits where it looked.
    repo.write(
        "package.json",
        "{\n  \"name\": \"calc\",\n  \"jest\": {\n    \"testMatch\": [\"**/*.spec.js\"]\n  }\n}\n",
    )
    .write(
        "src/more.test.js",
        "import { add } from './calc';\n\ntest('more', () => {\n  add(1, 2);\n});\n",
    );
    repo.commit("narrow");
    let run = ci(
        &repo,
        &["check", "--base", &base, "--gates", "mock", "--format", "json"],
    );
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let found = held(&run);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(
        found[0].starts_with("error package.json:4 package.json: jest `jest.testMatch` changed"),
        "{found:?}"
    );
    let mock: Vec<String> = run.json()["gates"][0]["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["rule"] != "meta/waiver-added")
        .map(|f| format!("{} {}", f["rule"].as_str().unwrap(), f["path"].as_str().unwrap_or("-")))
        .collect();
    assert_eq!(mock, vec!["mock/smoke-test src/more.test.js"], "{}", run.stdout);
}

/// A crate with one integration test, committed as the base.
fn crate_with_a_test(features: &str) -> (TestRepo, String) {
    let repo = TestRepo::new();
    repo.write(
        "Cargo.toml",
        format!("[package]\nname = \"calc\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[features]\n{features}"),
    )
    .write("src/lib.rs", "pub fn add(a: i32, b: i32) -> i32 {\n    a + b\n}\n")
    .write(
        "tests/add.rs",
        "use calc::add;\n\n#[test]\nfn adds() {\n    assert_eq!(add(1, 2), 3);\n}\n",
    );
    let base = repo.commit("base");
    (repo, base)
}

#[test]
fn a_rust_test_put_behind_a_feature_cargo_test_leaves_off_is_a_skip() {
    let gated =
        "#![cfg(feature = \"slow\")]\nuse calc::add;\n\n#[test]\nfn adds() {\n    assert_eq!(add(1, 2), 3);\n}\n";
    let (repo, base) = crate_with_a_test("slow = []\n");
    repo.write("tests/add.rs", gated)
        .write("src/lib.rs", "pub fn add(a: i32, b: i32) -> i32 {\n    a - b\n}\n");
    repo.commit("hide it");
    let run = ci(
        &repo,
        &["check", "--base", &base, "--gates", "mutation", "--format", "json"],
    );
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert_eq!(
        run.findings(),
        vec!["mutation/test-deleted-or-skipped error tests/add.rs:1"]
    );
    let message = run.gate()["findings"][0]["message"].as_str().unwrap().to_string();
    assert!(message.contains("compiled only with feature `slow`"), "{message}");

    // A feature the crate enables by default still runs it: no finding.
    let (repo, base) = crate_with_a_test("default = [\"std\"]\nstd = [\"slow\"]\nslow = []\n");
    repo.write("tests/add.rs", gated);
    repo.commit("gate it");
    let run = ci(
        &repo,
        &["check", "--base", &base, "--gates", "mutation", "--format", "json"],
    );
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert_eq!(run.findings(), Vec::<String>::new());
}

/// A benchmark measures, it asserts nothing: put behind a feature with the
/// tests beside it (unicode-width 96eaa4a: `#[bench]` functions behind a
/// nightly-only feature), only the tests are reported.
#[test]
fn a_benchmark_put_behind_a_feature_loses_no_check() {
    let file = |gate: &str| {
        format!(
            "#![feature(test)]\nextern crate test;\nuse calc::add;\n\n{gate}#[bench]\nfn bench_add(b: &mut test::Bencher) {{\n    b.iter(|| add(1, 2));\n}}\n\n{gate}#[test]\nfn adds() {{\n    assert_eq!(add(1, 2), 3);\n}}\n"
        )
    };
    let (repo, _) = crate_with_a_test("bench = []\n");
    repo.write("src/tests.rs", file("")).write(
        "src/lib.rs",
        "pub fn add(a: i32, b: i32) -> i32 {\n    a + b\n}\n#[cfg(test)]\nmod tests;\n",
    );
    let base = repo.commit("benchmarks");
    repo.write("src/tests.rs", file("#[cfg(feature = \"bench\")]\n"));
    repo.commit("hide them");
    let run = ci(
        &repo,
        &["check", "--base", &base, "--gates", "mutation", "--format", "json"],
    );
    assert_eq!(
        run.findings(),
        vec!["mutation/test-deleted-or-skipped error src/tests.rs:11"],
        "{}",
        run.stdout
    );
}

#[test]
fn a_cargo_test_target_left_out_of_cargo_test_is_held_in_ci() {
    let (repo, base) = crate_with_a_test("");
    repo.write(
        "Cargo.toml",
        "[package]\nname = \"calc\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[features]\n\n[[test]]\nname = \"add\"\ntest = false\n",
    );
    repo.commit("leave it out");
    let run = ci(
        &repo,
        &["check", "--base", &base, "--gates", "mock", "--format", "json"],
    );
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let found = held(&run);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(
        found[0].contains("cargo test `test` left out of a plain `cargo test`: `add` `test = false` lowers the bar"),
        "{found:?}"
    );
}

#[test]
fn a_test_setup_module_that_skips_every_test_is_held_in_ci() {
    let repo = TestRepo::new();
    repo.write(
        "package.json",
        "{\n  \"name\": \"calc\",\n  \"jest\": {\n    \"setupFilesAfterEnv\": [\"<rootDir>/test/setup\"]\n  }\n}\n",
    )
    .write("test/setup.js", "// shared matchers\n")
    .write(
        "vitest.config.ts",
        "export default { test: { setupFiles: ['./web/setup.ts'] } };\n",
    )
    .write("web/setup.ts", "export {};\n")
    .write("src/calc.js", "export function add(a, b) {\n  return a + b;\n}\n")
    .write(
        "src/calc.test.js",
        "import { add } from './calc';\n\ntest('adds', () => {\n  expect(add(1, 2)).toBe(3);\n});\n",
    );
    let base = repo.commit("base");
    repo.write("test/setup.js", "// shared matchers\nglobal.test = test.skip;\n")
        .write("web/setup.ts", "export {};\nvi.mock('../src/calc');\n")
        // Not a setup module: a line like it is no finding.
        .write("src/util.js", "export const skip = (t) => t.skip;\n");
    repo.commit("quiet the tests");
    let run = ci(
        &repo,
        &["check", "--base", &base, "--gates", "mock", "--format", "json"],
    );
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let found = held(&run);
    assert_eq!(found.len(), 2, "{found:?}");
    assert!(
        found[0].starts_with(
            "error test/setup.js:2 test/setup.js: test setup `.skip` added `global.test = test.skip;` lowers the bar"
        ),
        "{found:?}"
    );
    assert!(
        found[1].starts_with("error web/setup.ts:2 web/setup.ts: test setup `vi.mock` added"),
        "{found:?}"
    );
}

/// A vitest project with one test, committed as the base; then, in a second
/// commit, the test file renamed to `test/calc.case.test.ts` and the config
/// excluding `*.case.test.ts`, with `more` written too. The exit code in CI
/// and the messages of its `mutation/test-deleted-or-skipped` findings.
fn moved_out_of_sight(more: &[(&str, &str)]) -> (i32, Vec<String>) {
    let repo = TestRepo::new();
    repo.write("package.json", "{\n  \"name\": \"calc\"\n}\n")
        .write("vitest.config.ts", "export default { test: {} };\n")
        .write(
            "src/calc.ts",
            "export function add(a: number, b: number) {\n  return a + b;\n}\n",
        )
        .write(
            "test/calc.test.ts",
            "import { add } from '../src/calc';\n\ntest('adds', () => {\n  expect(add(1, 2)).toBe(3);\n});\n",
        );
    let base = repo.commit("base");
    repo.git(&["mv", "test/calc.test.ts", "test/calc.case.test.ts"]);
    repo.write(
        "vitest.config.ts",
        "export default { test: { exclude: ['**/*.case.test.ts'] } };\n",
    );
    for (path, text) in more {
        repo.write(path, text);
    }
    repo.commit("move it out of sight");
    let run = ci(
        &repo,
        &["check", "--base", &base, "--gates", "mutation", "--format", "json"],
    );
    let messages = run.json()["gates"][0]["findings"]
        .as_array()
        .unwrap_or_else(|| panic!("{}{}", run.stdout, run.stderr))
        .iter()
        .filter(|f| f["rule"] == "mutation/test-deleted-or-skipped")
        .map(|f| f["message"].as_str().unwrap().to_string())
        .collect();
    (run.code, messages)
}

/// Renamed to a path the change's own config leaves out, a test file's tests
/// are gone, though the base's config (read beside it) would have run them there.
#[test]
fn a_test_file_moved_where_the_changed_config_excludes_it_is_deleted() {
    let (code, messages) = moved_out_of_sight(&[]);
    assert_eq!(code, 1, "{messages:?}");
    assert_eq!(messages.len(), 1, "{messages:?}");
    assert!(
        messages[0].contains("test/calc.case.test.ts")
            && messages[0].contains("where the test runner does not collect it"),
        "{messages:?}"
    );
}

/// A test file moved out of the runner's sight into a shared suite that a
/// collected test file imports and runs still runs: no deletion.
#[test]
fn a_test_file_moved_into_a_shared_suite_a_test_runs_is_no_deletion() {
    let (_, messages) = moved_out_of_sight(&[("test/runs.test.ts", "import './calc.case.test';\n")]);
    assert_eq!(messages, Vec::<String>::new());
}

/// A config lowered through a file it reads that has none of the tools'
/// config names is judged as the tool resolves its settings (issue 63
/// §3): ruff's `extend`, a tsconfig's `extends`, a module an ESLint
/// config imports. The same files made stricter, and edits to the parts
/// of `pyproject.toml` and `package.json` the tools do not read, are not.
#[test]
fn a_config_lowered_through_a_file_it_reads_is_held_as_the_tool_resolves_it() {
    let repo = TestRepo::new();
    let pyproject = |version: &str| {
        format!(
            "[project]\nname = \"shop\"\nversion = \"{version}\"\n\n[tool.ruff]\nextend = \"configs/ruff-base.toml\"\n"
        )
    };
    repo.write(".gitignore", ".ruff_cache/\n")
        .write("pyproject.toml", pyproject("0"))
        .write("configs/ruff-base.toml", "[lint]\nselect = [\"E\", \"F\", \"B\"]\n")
        .write("shop/cart.py", "def total(xs):\n    return sum(xs)\n")
        .write("package.json", "{\"type\": \"module\"}\n")
        .write(
            "tsconfig.json",
            "{\"extends\": \"./configs/strict.json\", \"include\": [\"web\"], \"compilerOptions\": {\"outDir\": \"dist\"}}\n",
        )
        .write("configs/strict.json", "{\"compilerOptions\": {\"strict\": true}}\n")
        .write(
            "eslint.config.js",
            "import rules from \"./configs/eslint-rules.js\";\n\nexport default [{ files: [\"**/*.js\"], rules }];\n",
        )
        .write(
            "configs/eslint-rules.js",
            "export default { \"no-console\": \"error\" };\n",
        )
        .write("web/app.ts", "export const port: number = 8080;\n");
    let base = repo.commit("base");
    let run = |repo: &TestRepo| {
        ci(
            repo,
            &["check", "--base", &base, "--gates", "static", "--format", "json"],
        )
    };

    repo.write(
        "configs/ruff-base.toml",
        "[lint]\nselect = [\"E\", \"F\", \"B\", \"UP\"]\n",
    )
    .write("pyproject.toml", pyproject("1"))
    .write("package.json", "{\"type\": \"module\", \"version\": \"1.0.0\"}\n")
    .write(
        "configs/strict.json",
        "{\"compilerOptions\": {\"strict\": true, \"noUnusedLocals\": true}}\n",
    )
    .write(
        "configs/eslint-rules.js",
        "export default { \"no-console\": \"error\", eqeqeq: \"error\" };\n",
    )
    .write("web/app.ts", "export const port: number = 8081;\n")
    // A new project under the old one lowers nothing it did not have.
    .write(
        "web/admin/tsconfig.json",
        "{\"extends\": \"../../tsconfig.json\", \"include\": [\".\"]}\n",
    )
    .write("web/admin/page.ts", "export const page: number = 1;\n");
    repo.commit("stricter, and edits the tools do not read");
    let stricter = run(&repo);
    assert_eq!(stricter.code, 0, "{}{}", stricter.stdout, stricter.stderr);
    assert!(held(&stricter).is_empty(), "{:?}", held(&stricter));

    repo.write("configs/ruff-base.toml", "[lint]\nselect = [\"E\", \"F\"]\n")
        .write("configs/strict.json", "{\"compilerOptions\": {\"strict\": false}}\n")
        .write(
            "configs/eslint-rules.js",
            "export default { \"no-console\": \"warn\", eqeqeq: \"error\" };\n",
        );
    repo.commit("lower each through the file it reads");
    let lowered = run(&repo);
    assert_eq!(lowered.code, 1, "{}{}", lowered.stdout, lowered.stderr);
    let found = held(&lowered);
    let said = |path: &str, text: &str| {
        assert!(
            found
                .iter()
                .any(|f| f.starts_with(&format!("error {path}:0 ")) && f.contains(text)),
            "{path}: {text}\n{found:#?}"
        );
    };
    said(
        "configs/ruff-base.toml",
        "ruff `linter.rules.enabled` lost `B002`, `B003`",
    );
    said(
        "configs/ruff-base.toml",
        "in the settings ruff resolves (`ruff check --show-settings`)",
    );
    said(
        "configs/strict.json",
        "tsc `compilerOptions.strict` turned off (`false`) for tsconfig.json",
    );
    said(
        "configs/eslint-rules.js",
        "eslint `rules` lowered `no-console: error -> warn`",
    );
    assert_eq!(found.len(), 3, "{found:#?}");
}
