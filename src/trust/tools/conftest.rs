//! pytest's `conftest.py`: code pytest runs around the tests it collects,
//! which can decide what a run reports. A hook implementation
//! (`pytest_runtest_makereport` marking every outcome passed,
//! `pytest_runtest_setup` skipping the test a change broke), or a fixture
//! with `autouse=True` that can decide an outcome ([`RISKY`]), reaches every
//! test below the file, so each one the change adds, edits or removes is a
//! tool-config waiver, as is a line that gains a skip or an expected
//! failure.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use super::Lowered;
use crate::lang::Lang;
use crate::lang::syntax::Node;

/// The module-level calls a line may gain that skip or expect failure.
const SKIPS: &[&str] = &[
    "pytest.skip",
    "pytest.xfail",
    "pytest.importorskip",
    "pytest.mark.skip",
    "pytest.mark.xfail",
    "pytest_plugins",
];

/// Hooks that add command-line options or a report header: they decide
/// no outcome.
const QUIET_HOOKS: &[&str] = &["pytest_addoption", "pytest_report_header"];

/// What an autouse fixture's body does when it can decide a test's outcome:
/// skip or fail it, mark it, reach the test item, or replace code
/// (`monkeypatch.setattr`, `mock.patch`). One that only sets up or clears
/// the environment (`monkeypatch.delenv`, a temporary directory) decides
/// nothing: a maintainers' fixture clearing proxy variables was held in a
/// replay of psf/requests.
const RISKY: &[&str] = &[
    "skip",
    "xfail",
    "pytest.fail",
    "add_marker",
    "applymarker",
    "request.node",
    "setattr",
    "setitem",
    "patch(",
    "patch.object",
    "patch.dict",
    "patch.multiple",
];

/// What `head` (the change's conftest; `""` deleted) changes of what
/// `base` (`""` added) runs around every test.
pub(super) fn lowered(base: &str, head: &str) -> Vec<Lowered> {
    let (old, new) = (hooks(base), hooks(head));
    let mut out = Vec::new();
    for (name, item) in &new {
        let what = match old.get(name) {
            None => "added",
            Some(before) if before.text != item.text => "changed",
            Some(_) => continue,
        };
        out.push(found(name, item.kind, what, Some(item.line)));
    }
    for (name, item) in old.iter().filter(|(name, _)| !new.contains_key(*name)) {
        out.push(found(name, item.kind, "removed", None));
    }
    for (i, line) in super::unmatched_lines(head, base) {
        if let Some(key) = SKIPS.iter().find(|k| super::names_word(line, k)) {
            out.push(Lowered {
                tool: "pytest",
                gate: "mock",
                key: key.to_string(),
                what: format!("added `{}`", super::cut(line)),
                line: u32::try_from(i + 1).ok(),
            });
        }
    }
    out
}

fn found(name: &str, kind: &str, what: &str, line: Option<u32>) -> Lowered {
    Lowered {
        tool: "pytest",
        gate: "mock",
        key: name.to_string(),
        what: format!("{kind} {what}"),
        line,
    }
}

/// A hook implementation or an autouse fixture.
struct Hook {
    /// `hook implementation` or `autouse fixture`.
    kind: &'static str,
    /// Its text, decorators included, each line's trailing blanks dropped.
    text: String,
    /// Its first line (1-based).
    line: u32,
}

type Hooks = std::collections::BTreeMap<String, Hook>;

/// The hook implementations and autouse fixtures of a conftest, by name (a
/// class's as `Class.name`).
fn hooks(source: &str) -> Hooks {
    let mut out = std::collections::BTreeMap::new();
    let Some(tree) = Lang::Python.parse(source.as_bytes()) else {
        return out;
    };
    let root = tree.root_node();
    let mut cursor = root.walk();
    for item in root.named_children(&mut cursor) {
        collect(item, "", source, &mut out);
    }
    out
}

fn collect(item: Node<'_>, owner: &str, source: &str, out: &mut Hooks) {
    let text = |n: &Node| n.utf8_text(source.as_bytes()).unwrap_or("");
    let def = match item.kind() {
        "decorated_definition" => item.child_by_field_name("definition"),
        _ => Some(item),
    };
    let Some(def) = def else { return };
    let Some(name) = def.child_by_field_name("name").map(|n| text(&n).to_string()) else {
        return;
    };
    match def.kind() {
        "class_definition" if owner.is_empty() => {
            if let Some(body) = def.child_by_field_name("body") {
                let mut cursor = body.walk();
                for member in body.named_children(&mut cursor) {
                    collect(member, &name, source, out);
                }
            }
        }
        "function_definition" => {
            let decorators = match item.kind() {
                "decorated_definition" => text(&item)[..def.start_byte() - item.start_byte()].to_string(),
                _ => String::new(),
            };
            let squeezed: String = decorators.chars().filter(|c| !c.is_whitespace()).collect();
            let hook =
                (name.starts_with("pytest_") && !QUIET_HOOKS.contains(&name.as_str())) || squeezed.contains("hookimpl");
            let body_text = text(&def.child_by_field_name("body").unwrap_or(def));
            let autouse = squeezed.contains("autouse=True") && RISKY.iter().any(|r| body_text.contains(r));
            if hook || autouse {
                let body: Vec<&str> = text(&item).lines().map(str::trim_end).collect();
                let key = if owner.is_empty() {
                    name
                } else {
                    format!("{owner}.{name}")
                };
                let line = u32::try_from(item.start_position().row + 1).unwrap_or(u32::MAX);
                let kind = if hook { "hook implementation" } else { "autouse fixture" };
                out.insert(
                    key,
                    Hook {
                        kind,
                        text: body.join("\n"),
                        line,
                    },
                );
            }
        }
        _ => {}
    }
}

/// The modules pytest loads as plugins at the trusted revision `rev`: named
/// in the root `conftest.py`'s `pytest_plugins`, or with `-p` in `addopts`
/// (`pyproject.toml`, `pytest.ini`, `tox.ini`, `setup.cfg`), as the files
/// they import from (`pkg/plugin.py`, `pkg/plugin/__init__.py`, at the
/// root or under `src/`). Their hooks and autouse fixtures reach every test
/// as a `conftest.py`'s do.
pub(super) fn plugin_modules(repo: &crate::git::Repo, rev: &str) -> anyhow::Result<BTreeSet<PathBuf>> {
    let text = |path: &str| -> anyhow::Result<String> {
        Ok(repo
            .blob_at(rev, Path::new(path))?
            .map(|b| String::from_utf8_lossy(&b).into_owned())
            .unwrap_or_default())
    };
    let mut names: Vec<String> = Vec::new();
    // `pytest_plugins = ["a.b", "c"]` (or a tuple, or one string), over lines.
    let conftest = text("conftest.py")?;
    if let Some(at) = conftest.find("pytest_plugins") {
        let rest = &conftest[at + "pytest_plugins".len()..];
        if let Some(value) = rest.trim_start().strip_prefix('=') {
            let value = value.trim_start();
            let end = match value.chars().next() {
                Some('[') => value.find(']'),
                Some('(') => value.find(')'),
                _ => value.find('\n'),
            }
            .unwrap_or(value.len());
            names.extend(quoted(&value[..end]));
        }
    }
    for file in ["pyproject.toml", "pytest.ini", "tox.ini", "setup.cfg"] {
        let config = text(file)?;
        for line in config.lines().filter(|l| l.contains("-p")) {
            let words = super::split_words(&line.replace(['[', ']', ','], " "));
            for pair in words.windows(2) {
                if pair[0] == "-p" && !pair[1].starts_with("no:") {
                    names.push(pair[1].clone());
                }
            }
            names.extend(words.iter().filter_map(|w| {
                w.strip_prefix("-p")
                    .filter(|n| !n.is_empty() && !n.starts_with("no:"))
                    .map(str::to_string)
            }));
        }
    }
    let mut out = BTreeSet::new();
    for name in names {
        let rel = name.replace('.', "/");
        for root in ["", "src/"] {
            out.insert(PathBuf::from(format!("{root}{rel}.py")));
            out.insert(PathBuf::from(format!("{root}{rel}/__init__.py")));
        }
    }
    Ok(out)
}

/// The quoted strings of `text`.
fn quoted(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(open) = rest.find(['"', '\'']) {
        let quote = &rest[open..=open];
        let after = &rest[open + 1..];
        let Some(close) = after.find(quote) else {
            break;
        };
        out.push(after[..close].to_string());
        rest = &after[close + 1..];
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn said(base: &str, head: &str) -> Vec<String> {
        lowered(base, head)
            .into_iter()
            .map(|l| format!("{}:{} {}", l.line.unwrap_or(0), l.key, l.what))
            .collect()
    }

    const PASS_ALL: &str = "import pytest\n\n\n@pytest.hookimpl(hookwrapper=True)\ndef pytest_runtest_makereport(item, call):\n    outcome = yield\n    outcome.get_result().outcome = \"passed\"\n";

    #[test]
    fn a_hook_added_changed_or_removed_is_named() {
        assert_eq!(
            said("import pytest\n", PASS_ALL),
            vec!["4:pytest_runtest_makereport hook implementation added"]
        );
        let edited = PASS_ALL.replace("\"passed\"", "\"skipped\"");
        assert_eq!(
            said(PASS_ALL, &edited),
            vec!["4:pytest_runtest_makereport hook implementation changed"]
        );
        assert_eq!(
            said(PASS_ALL, "import pytest\n"),
            vec!["0:pytest_runtest_makereport hook implementation removed"]
        );
        // Moved, or only its trailing blanks changed: the same hook.
        let moved = format!("import os\n{}", PASS_ALL.replace("yield\n", "yield   \n"));
        assert!(said(PASS_ALL, &moved).is_empty());
    }

    #[test]
    fn an_autouse_fixture_and_a_hookimpl_under_another_name_count() {
        let head = "import pytest\n\n@pytest.fixture(autouse = True)\ndef _skip_broken(request):\n    if 'total' in request.node.name:\n        pytest.skip('flaky')\n\n@pytest.hookimpl(specname='pytest_runtest_setup')\ndef setup(item):\n    pass\n\nclass TestShop:\n    @pytest.fixture(autouse=True)\n    def calm(self, monkeypatch):\n        monkeypatch.setattr('shop.cart.total', lambda xs: 3)\n";
        assert_eq!(
            said("import pytest\n", head),
            vec![
                "13:TestShop.calm autouse fixture added",
                "3:_skip_broken autouse fixture added",
                "8:setup hook implementation added",
                "6:pytest.skip added `pytest.skip('flaky')`",
            ]
        );
    }

    #[test]
    fn an_ordinary_fixture_helper_or_quiet_hook_is_not_held() {
        let head = "import pytest\n\n@pytest.fixture\ndef cart():\n    return []\n\ndef helper():\n    return 1\n\ndef pytest_addoption(parser):\n    parser.addoption('--slow')\n";
        assert!(said("import pytest\n", head).is_empty());
        // An autouse fixture that only clears the environment (psf/requests).
        let head = "import pytest\n\n@pytest.fixture(autouse=True)\ndef clean_proxy_environ(monkeypatch):\n    for var in ('HTTP_PROXY', 'HTTPS_PROXY'):\n        monkeypatch.delenv(var, raising=False)\n";
        assert!(said("import pytest\n", head).is_empty());
    }
}
