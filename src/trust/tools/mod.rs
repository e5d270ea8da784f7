//! The project's own tools' configs held to the base's bar, as loki-gate's
//! own config is (`src/config/bar.rs`): a linter told to ignore a rule or
//! skip a directory, a type checker made less strict, a test runner told to
//! collect fewer tests or deselect one. A change to one of the keys below
//! that lowers the bar is a waiver of kind `tool-config` (`meta/waiver-added`:
//! held in CI and pre-push until someone trusted acknowledges it).
//!
//! Declarative configs (TOML, INI, JSON, YAML) are compared key by key, each
//! key with the way that lowers it (a list that gains an item, a list that
//! loses one, a switch turned off, a number raised, a level lowered, or any
//! change where the way cannot be told: a discovery pattern). A config that
//! is code (`jest.config.ts`, `eslint.config.js`, `conftest.py`) cannot be
//! evaluated: a changed line that names one of its discovery or suppression
//! keys is the waiver, whichever way it goes.

use std::collections::BTreeSet;
use std::path::Path;

use anyhow::Result;
use serde_json::Value;

use super::Judge;
use super::waiver::{Kind, Waiver};
use crate::changed::ChangeSet;
use crate::git::{Repo, Status};

mod agent_hooks;
mod conftest;
mod keys;
mod resolved;
mod shadow;
mod suppressions;
mod ways;
pub use agent_hooks::{AGENT_SETTINGS, MARK as AGENT_HOOK_MARK};
use keys::*;
pub use resolved::hold_resolved;
pub use suppressions::{hold_tool_suppressions, tool_suppressions};
use ways::*;

/// One waiver per key on which the change's version of a tool's config
/// file lowers the bar its version at the trusted revision set, judged by
/// who changed the file.
/// `setup`: the changed files a jest or vitest config runs around every
/// test file (`gates::project::runners::changed_setup_files`), read as code.
/// With them, the tools whose configs they hold lowered.
pub fn hold_tool_configs(
    judge: &Judge,
    repo: &Repo,
    changes: &ChangeSet,
    setup: &BTreeSet<std::path::PathBuf>,
) -> Result<(Vec<Waiver>, BTreeSet<&'static str>)> {
    let Some(rev) = judge.rev() else {
        return Ok(Default::default());
    };
    let mut out = Vec::new();
    let mut held = BTreeSet::new();
    // Read only when a changed file may be one.
    let plugins = if changes
        .files
        .iter()
        .any(|f| f.path.extension().is_some_and(|e| e == "py"))
    {
        conftest::plugin_modules(repo, rev)?
    } else {
        BTreeSet::new()
    };
    for file in changes
        .files
        .iter()
        .filter(|f| is_tool_config(&f.path) || setup.contains(&f.path) || plugins.contains(&f.path))
    {
        let old = file.old_path.as_deref().unwrap_or(&file.path);
        let base = match file.status {
            Status::Added | Status::Untracked => None,
            _ => repo.blob_at(rev, old)?,
        };
        let head = match file.status {
            Status::Deleted => None,
            _ if judge.staged => repo.index_blob(&file.path)?.and_then(|b| match b {
                crate::git::BlobRead::Content(bytes) => Some(bytes),
                _ => None,
            }),
            _ => crate::walk::read_file(repo.root(), &file.path).ok(),
        };
        let text = |b: &Option<Vec<u8>>| b.as_ref().map(|b| String::from_utf8_lossy(b).into_owned());
        let (base, head) = (text(&base), text(&head));
        let mut found = lowered(&file.path, base.as_deref(), head.as_deref());
        // A config the change adds replaces the one the base applied there:
        // read against that one, not against the tool's defaults.
        if base.is_none()
            && let Some(head) = head.as_deref()
        {
            for (tool, lowered) in shadow::shadowed(repo, rev, &file.path, head)? {
                found.retain(|l| l.tool != tool);
                found.extend(lowered);
            }
        }
        // A plugin module's hooks and fixtures reach every test, as a
        // conftest.py's do.
        if plugins.contains(&file.path) && file.path.file_name().is_some_and(|n| n != "conftest.py") {
            found.extend(conftest::lowered(
                base.as_deref().unwrap_or(""),
                head.as_deref().unwrap_or(""),
            ));
        }
        if setup.contains(&file.path) {
            found.extend(setup_lines(
                base.as_deref().unwrap_or(""),
                head.as_deref().unwrap_or(""),
            ));
        }
        if found.is_empty() {
            continue;
        }
        let files: Vec<&Path> = std::iter::once(file.path.as_path())
            .chain(file.old_path.as_deref())
            .collect();
        held.extend(found.iter().map(|l| l.tool));
        out.extend(waivers_for(judge, repo, rev, &files, &file.path, found)?);
    }
    Ok((out, held))
}

/// The waivers for what a change to the config file `path` (`files`: its
/// names, new and old) lowers, judged by who changed it since `rev`.
fn waivers_for(
    judge: &Judge,
    repo: &Repo,
    rev: &str,
    files: &[&Path],
    path: &Path,
    found: Vec<Lowered>,
) -> Result<Vec<Waiver>> {
    if found.is_empty() {
        return Ok(Vec::new());
    }
    let verdict = judge.verdict(super::hands(repo, Some(rev), files)?.as_deref());
    let shown = crate::git::display_path(path);
    Ok(found
        .into_iter()
        .map(|l| {
            Waiver {
                path: Some(shown.clone()),
                line: l.line,
                // No gate: the agent's own hooks (carried once a run).
                gate: (!l.gate.is_empty()).then_some(l.gate),
                ..Waiver::new(Kind::ToolConfig, vec![format!("{} `{}`", l.tool, l.key)], l.what)
            }
            .added(verdict.clone())
        })
        .collect())
}

/// Does `path` name a config file of a tool whose bar is held?
pub fn is_tool_config(path: &Path) -> bool {
    let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
        return false;
    };
    FILES.iter().any(|f| f.names.contains(&name)) || is_tsconfig(name) || is_agent_settings(path)
}

/// Is `path` (repo-relative) a coding agent's project settings file?
fn is_agent_settings(path: &Path) -> bool {
    AGENT_SETTINGS.iter().any(|p| path == Path::new(p))
}

fn is_tsconfig(name: &str) -> bool {
    name.starts_with("tsconfig") && name.ends_with(".json")
}

/// One key on which a config file's new version lowers the bar its base
/// version set.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Lowered {
    pub tool: &'static str,
    pub gate: &'static str,
    /// Where in the file: `tool.ruff.lint.ignore`, `rules.no-console`.
    pub key: String,
    /// What changed, said plainly: ``gained `F401` ``.
    pub what: String,
    /// The line of the new version that holds the key, when it can be found.
    pub line: Option<u32>,
}

/// The keys on which `head` (the change's version of the config file at
/// `path`; `None`: deleted) lowers the bar `base` (`None`: added) set.
pub fn lowered(path: &Path, base: Option<&str>, head: Option<&str>) -> Vec<Lowered> {
    if is_agent_settings(path) {
        return agent_hooks::lowered(base, head);
    }
    let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
        return Vec::new();
    };
    let tsconfig = ToolFile {
        names: &[],
        format: Format::Json,
        at: "",
        tool: "tsc",
        gate: "static",
        keys: TSC_KEYS,
    };
    let files: Vec<&ToolFile> = FILES
        .iter()
        .filter(|f| f.names.contains(&name))
        .chain(is_tsconfig(name).then_some(&tsconfig))
        .collect();
    let mut out = Vec::new();
    for file in files {
        if let Format::Code = file.format {
            out.extend(code_lines(file, path, base.unwrap_or(""), head.unwrap_or("")));
            if name == "conftest.py" {
                out.extend(conftest::lowered(base.unwrap_or(""), head.unwrap_or("")));
            }
            continue;
        }
        let parse = |text: Option<&str>| text.map_or(Some(Value::Null), |t| parse(file.format, t));
        // A version that does not parse says nothing either way (the tool fails on it).
        let (Some(old), Some(new)) = (parse(base), parse(head)) else {
            continue;
        };
        let (old, new) = (at(&old, file.at), at(&new, file.at));
        for (key, way) in file.keys {
            let (before, after) = (at(old, key), at(new, key));
            // What a new manifest (a new crate) leaves out of `cargo test`
            // was never in it: only a manifest the base had can lower it.
            // Nor does what a new config extends: a new package's tsconfig
            // extending the workspace's is how it is set up.
            if base.is_none() && (matches!(way, Way::OffFromDefault | Way::Targets) || key.ends_with("extends")) {
                continue;
            }
            let what = match way {
                Way::Targets => targets_left_out(before, after, &cargo_default_features(new)),
                _ => lowers(*way, before, after),
            };
            if let Some(what) = what {
                let full = if file.at.is_empty() {
                    key.to_string()
                } else {
                    format!("{}.{key}", file.at)
                };
                let last = key.rsplit('.').next().unwrap_or(key);
                out.push(Lowered {
                    tool: file.tool,
                    gate: file.gate,
                    key: full,
                    what,
                    line: head.and_then(|h| {
                        line_of(h, last).or_else(|| {
                            matches!(way, Way::Targets)
                                .then(|| line_of(h, "required-features"))
                                .flatten()
                        })
                    }),
                });
            }
        }
    }
    out
}

/// The first line of `text` that names `key` as a key.
fn line_of(text: &str, key: &str) -> Option<u32> {
    text.lines()
        .position(|l| {
            let l = l.trim_start().trim_start_matches(['"', '\'']);
            l.starts_with(key)
                && l[key.len()..]
                    .trim_start_matches(['"', '\''])
                    .trim_start()
                    .starts_with(['=', ':'])
        })
        .and_then(|i| u32::try_from(i + 1).ok())
}

/// The value at a dotted path (`""`: the value itself); `Null` when absent.
fn at<'v>(value: &'v Value, path: &str) -> &'v Value {
    if path.is_empty() {
        return value;
    }
    path.split('.')
        .try_fold(value, |v, part| v.get(part))
        .unwrap_or(&Value::Null)
}

fn parse(format: Format, text: &str) -> Option<Value> {
    match format {
        Format::Toml => text
            .parse::<toml::Table>()
            .ok()
            .and_then(|t| serde_json::to_value(t).ok()),
        Format::Json => serde_json::from_str(&crate::formats::jsonc(text)).ok(),
        Format::Yaml => serde_saphyr::from_str::<Value>(text).ok(),
        Format::Ini(section) => {
            let mut map = serde_json::Map::new();
            for key in ini_keys(text, section) {
                if let Some(v) = crate::formats::ini_value(text, section, &key) {
                    map.insert(key, Value::String(v));
                }
            }
            Some(Value::Object(map))
        }
        Format::Lines => {
            let mut map = serde_json::Map::new();
            for line in text.lines().map(str::trim).filter(|l| !l.starts_with('#')) {
                if let Some((k, v)) = line.split_once('=') {
                    let entry = map
                        .entry(k.trim().to_string())
                        .or_insert_with(|| Value::Array(Vec::new()));
                    if let Value::Array(items) = entry {
                        items.extend(v.split(',').map(|s| Value::String(s.trim().to_string())));
                    }
                }
            }
            Some(Value::Object(map))
        }
        Format::Code => None,
    }
}

/// The keys set in an INI section.
fn ini_keys(text: &str, section: &str) -> Vec<String> {
    let mut inside = false;
    let mut keys = Vec::new();
    for line in text.lines() {
        let trimmed = line.trim();
        if trimmed.starts_with('[') {
            inside = trimmed.trim_matches(['[', ']']).trim() == section;
            continue;
        }
        if inside
            && !line.starts_with([' ', '\t'])
            && !trimmed.starts_with(['#', ';'])
            && let Some((k, _)) = trimmed.split_once(['=', ':'])
        {
            keys.push(k.trim().to_string());
        }
    }
    keys
}

/// A config written as code: each line the change added or removed that
/// names one of the keys (`collect_ignore`, `testPathIgnorePatterns`, an
/// ESLint rule set to `'off'`) is a lowering it cannot rule out.
fn code_lines(file: &ToolFile, path: &Path, base: &str, head: &str) -> Vec<Lowered> {
    let mut out = Vec::new();
    // Added (with where) when `text` is the new version.
    for (text, other, added) in [(head, base, true), (base, head, false)] {
        let elsewhere = not_test_patterns(path, text);
        for (i, trimmed) in unmatched_lines(text, other) {
            if let Some((key, _)) = file.keys.iter().find(|(k, _)| trimmed.contains(k))
                && !elsewhere.contains(&i)
            {
                out.push(Lowered {
                    tool: file.tool,
                    gate: file.gate,
                    key: key.trim_matches(['"', '\'', ':', ' ']).to_string(),
                    what: format!("{} `{}`", if added { "added" } else { "removed" }, cut(trimmed)),
                    line: if added { u32::try_from(i + 1).ok() } else { None },
                });
            }
        }
    }
    out
}

/// The lines of `text` (0-based, trimmed) that `other` does not have, as
/// many times as `text` has them: what one version of a file holds that the
/// other does not, whatever moved around it.
fn unmatched_lines<'t>(text: &'t str, other: &str) -> Vec<(usize, &'t str)> {
    let mut left: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    for l in other.lines() {
        *left.entry(l.trim()).or_default() += 1;
    }
    text.lines()
        .map(str::trim)
        .enumerate()
        .filter(|(_, line)| match left.get_mut(line) {
            Some(n) if *n > 0 => {
                *n -= 1;
                false
            }
            _ => true,
        })
        .collect()
}

/// In a vite or vitest config (`text`, at `path`), the lines (0-based)
/// whose `include`/`exclude` belongs to another block than a `test` one:
/// `optimizeDeps.exclude`, `coverage.include`, `build.rollupOptions`. They
/// say nothing about which tests run. A line whose key is a `test` block's,
/// or that does not parse, still counts.
fn not_test_patterns(path: &Path, text: &str) -> std::collections::BTreeSet<usize> {
    let mut out = std::collections::BTreeSet::new();
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    if !(name.starts_with("vite.config.") || name.starts_with("vitest.config.")) {
        return out;
    }
    let Some(tree) = crate::lang::Lang::from_path(path).and_then(|lang| lang.parse(text.as_bytes())) else {
        return out;
    };
    let key_of = |pair: &crate::lang::syntax::Node| {
        pair.child_by_field_name("key").map(|k| {
            crate::lang::text(&k, text.as_bytes())
                .trim_matches(['"', '\'', '`'])
                .to_string()
        })
    };
    crate::lang::visit_named(tree.root_node(), |n| {
        if n.kind() == "pair" && key_of(&n).is_some_and(|k| k == "include" || k == "exclude") {
            let owner = n
                .parent()
                .filter(|o| o.kind() == "object")
                .and_then(|o| o.parent())
                .filter(|p| p.kind() == "pair")
                .and_then(|p| key_of(&p));
            if owner.is_some_and(|k| k != "test") {
                out.insert(n.start_position().row);
            }
        }
        true
    });
    out
}

/// The test targets (`[[test]]`, `before` and `after`) newly left out of a
/// plain `cargo test`: given `test = false`, or a `required-features` entry
/// the crate does not enable by default (`defaults`). A target is known by
/// its name or its path (`tests/<name>.rs` when none is written), so a
/// renamed one keeps what it had.
fn targets_left_out(before: &Value, after: &Value, defaults: &BTreeSet<String>) -> Option<String> {
    struct Target {
        name: String,
        path: String,
        why: BTreeSet<String>,
    }
    let targets = |v: &Value| -> Vec<Target> {
        v.as_array()
            .into_iter()
            .flatten()
            .filter_map(|t| {
                let name = t.get("name").map(shown);
                let path = t
                    .get("path")
                    .map(shown)
                    .or_else(|| name.as_ref().map(|n| format!("tests/{n}.rs")))?;
                let mut why = BTreeSet::new();
                if matches!(t.get("test"), Some(Value::Bool(false))) {
                    why.insert("`test = false`".to_string());
                }
                for feature in t.get("required-features").map(items).unwrap_or_default() {
                    if !defaults.contains(&feature) {
                        why.insert(format!("needs feature `{feature}`"));
                    }
                }
                Some(Target {
                    name: name.unwrap_or_else(|| path.clone()),
                    path,
                    why,
                })
            })
            .collect()
    };
    let old = targets(before);
    let gained: Vec<String> = targets(after)
        .into_iter()
        .flat_map(|t| {
            let had: BTreeSet<String> = old
                .iter()
                .filter(|o| o.name == t.name || o.path == t.path)
                .flat_map(|o| o.why.iter().cloned())
                .collect();
            t.why
                .difference(&had)
                .map(|w| format!("`{}` {w}", t.name))
                .collect::<Vec<_>>()
        })
        .collect();
    (!gained.is_empty()).then(|| format!("left out of a plain `cargo test`: {}", gained.join(", ")))
}

/// The features a plain `cargo build` or `cargo test` of the crate whose
/// manifest is `manifest` enables: its `default` list, closed over what
/// each feature enables in turn (`default = ["std"]`, `std = ["alloc"]`);
/// `dep:x` and `x/y` are dependencies' business and left out.
pub fn cargo_default_features(manifest: &Value) -> BTreeSet<String> {
    let enables = |name: &str| -> Vec<String> {
        manifest["features"][name]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .filter(|s| !s.starts_with("dep:") && !s.contains('/'))
            .map(str::to_string)
            .collect()
    };
    let mut on = BTreeSet::new();
    let mut todo = enables("default");
    while let Some(next) = todo.pop() {
        if on.insert(next.clone()) {
            todo.extend(enables(&next));
        }
    }
    on
}

/// The lines a setup module gained that name one of [`SETUP_FILE`]'s keys
/// as a word. A line it lost lowers nothing: a skip, a mock or a matcher
/// taken out of the code every test runs with leaves the tests stricter.
fn setup_lines(base: &str, head: &str) -> Vec<Lowered> {
    unmatched_lines(head, base)
        .into_iter()
        .filter_map(|(i, trimmed)| {
            let (key, _) = SETUP_FILE.keys.iter().find(|(k, _)| names_word(trimmed, k))?;
            Some(Lowered {
                tool: SETUP_FILE.tool,
                gate: SETUP_FILE.gate,
                key: key.to_string(),
                what: format!("added `{}`", cut(trimmed)),
                line: u32::try_from(i + 1).ok(),
            })
        })
        .collect()
}

/// Does `line` hold `key` with no word character joined to either end of
/// it (`retry: 2`, `test.skip(`, not `retryCount` or `exit(`)?
fn names_word(line: &str, key: &str) -> bool {
    let word = |c: char| c.is_alphanumeric() || c == '_' || c == '$';
    line.match_indices(key).any(|(at, _)| {
        let before = line[..at].chars().next_back();
        let after = line[at + key.len()..].chars().next();
        let joined_before = key.starts_with(word) && before.is_some_and(word);
        let joined_after = key.ends_with(word) && after.is_some_and(word);
        !(joined_before || joined_after)
    })
}

fn cut(line: &str) -> String {
    match line.char_indices().nth(80) {
        Some((at, _)) => format!("{}…", &line[..at]),
        None => line.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys(path: &str, base: Option<&str>, head: Option<&str>) -> Vec<String> {
        lowered(Path::new(path), base, head)
            .into_iter()
            .map(|l| format!("{} {}: {}", l.tool, l.key, l.what))
            .collect()
    }

    #[test]
    fn a_test_target_needing_a_default_feature_or_renamed_or_new_lowers_nothing() {
        let manifest = |tests: &str| {
            format!(
                "[package]\nname = \"b\"\n\n[features]\ndefault = [\"std\"]\nstd = [\"alloc\"]\nalloc = []\nnet = []\n{tests}"
            )
        };
        let before = manifest("\n[[test]]\nname = \"io\"\nrequired-features = [\"net\"]\n");
        // Features on by default (directly, or through `std`) leave nothing out.
        let defaults = manifest(
            "\n[[test]]\nname = \"io\"\nrequired-features = [\"net\"]\n\n[[test]]\nname = \"a\"\nrequired-features = [\"std\", \"alloc\"]\n",
        );
        assert_eq!(keys("Cargo.toml", Some(&before), Some(&defaults)), Vec::<String>::new());
        // A target renamed, its path the same, keeps what it needed.
        let renamed =
            manifest("\n[[test]]\nname = \"net_io\"\npath = \"tests/io.rs\"\nrequired-features = [\"net\"]\n");
        assert_eq!(keys("Cargo.toml", Some(&before), Some(&renamed)), Vec::<String>::new());
        // A new crate's manifest: nothing ran before it.
        assert_eq!(keys("Cargo.toml", None, Some(&before)), Vec::<String>::new());
        // The line of what was added.
        let found = lowered(Path::new("Cargo.toml"), Some(&manifest("")), Some(&before));
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].line, Some(12));
    }

    #[test]
    fn a_vite_configs_other_blocks_say_nothing_about_which_tests_run() {
        let config = |optimize: &str, coverage: &str, tests: &str| {
            format!(
                "export default defineConfig({{\n  optimizeDeps: {{ exclude: [{optimize}] }},\n  test: {{\n    coverage: {{ include: [{coverage}] }},\n    exclude: [{tests}],\n  }},\n}});\n"
            )
        };
        let base = config("'a'", "'src'", "'e2e'");
        assert_eq!(
            keys(
                "vite.config.ts",
                Some(&base),
                Some(&config("'a', 'b'", "'lib'", "'e2e'"))
            ),
            Vec::<String>::new()
        );
        assert_eq!(
            keys(
                "vitest.config.ts",
                Some(&base),
                Some(&config("'a'", "'src'", "'e2e', 'unit'"))
            ),
            vec![
                "the test runner exclude: added `exclude: ['e2e', 'unit'],`",
                "the test runner exclude: removed `exclude: ['e2e'],`"
            ]
        );
    }

    #[test]
    fn a_setup_module_is_read_for_the_test_api_it_gains_as_words() {
        let added = |base: &str, head: &str| -> Vec<String> {
            setup_lines(base, head)
                .into_iter()
                .map(|l| format!("{}:{} {}", l.line.unwrap_or(0), l.key, l.what))
                .collect()
        };
        let head = "if (!globalThis.crypto) {\n  globalThis.crypto = webcrypto;\n}\nglobal.TextEncoder = TextEncoder;\nconst skip = env.skipHydrateCheck;\nconst retryCount = 2;\nprocess.exit(1);\nglobalThis.it = it.skip;\nvi.mock('../src/db');\nexport default { retry: 2 };\n";
        assert_eq!(
            added("", head),
            vec![
                "8:.skip added `globalThis.it = it.skip;`",
                "9:vi.mock added `vi.mock('../src/db');`",
                "10:retry added `export default { retry: 2 };`"
            ]
        );
        // What a setup module loses lowers nothing: the file removed, a mock taken out.
        assert_eq!(added(head, ""), Vec::<String>::new());
        assert_eq!(added("vi.mock('../src/db');\n", "\n"), Vec::<String>::new());
    }

    #[test]
    fn each_way_a_key_lowers_the_bar() {
        let base = "[tool.ruff.lint]\nselect = [\"E\", \"F\"]\nignore = [\"E501\"]\n\n[tool.mypy]\nstrict = true\nfiles = [\"src\"]\n\n[tool.pytest.ini_options]\naddopts = \"-ra\"\npython_files = [\"test_*.py\"]\n";
        let head = "[tool.ruff.lint]\nselect = [\"E\"]\nignore = [\"E501\", \"F401\"]\n\n[tool.mypy]\nstrict = false\nfiles = [\"src\"]\n\n[tool.pytest.ini_options]\naddopts = \"-ra --deselect tests/test_a.py::test_x\"\npython_files = [\"check_*.py\"]\n";
        assert_eq!(
            keys("pyproject.toml", Some(base), Some(head)),
            vec![
                "ruff tool.ruff.lint.ignore: gained `F401`",
                "ruff tool.ruff.lint.select: lost `F`",
                "mypy tool.mypy.strict: turned off (`false`)",
                "pytest tool.pytest.ini_options.python_files: changed from `[\"test_*.py\"]` to `[\"check_*.py\"]`",
                "pytest tool.pytest.ini_options.addopts: gained `--deselect`, `tests/test_a.py::test_x`",
            ]
        );
        // Raising the bar is no finding; neither is a file that does not parse.
        assert!(
            keys("pyproject.toml", Some(head), Some(base)).len() == 1,
            "python_files changes either way"
        );
        assert!(keys("pyproject.toml", Some(base), Some("[tool.ruff")).is_empty());
    }

    #[test]
    fn ini_json_yaml_and_code_configs() {
        assert_eq!(
            keys(
                "setup.cfg",
                Some("[mypy]\nstrict = True\n"),
                Some("[mypy]\nstrict = True\nignore_errors = True\n")
            ),
            vec!["mypy ignore_errors: turned on (`True`)"]
        );
        assert_eq!(
            keys(
                ".eslintrc.json",
                Some("{ \"rules\": { \"no-console\": \"error\", \"eqeqeq\": [2, \"always\"] } }"),
                Some("{ \"rules\": { \"no-console\": \"off\", \"eqeqeq\": [\"error\", \"always\"] } }")
            ),
            vec!["eslint rules: lowered `no-console: error -> off`"]
        );
        assert_eq!(
            keys(
                "Cargo.toml",
                Some("[lints.clippy]\nunwrap_used = \"deny\"\n"),
                Some("[lints.clippy]\nunwrap_used = { level = \"allow\", priority = 1 }\n")
            ),
            vec!["clippy lints.clippy: lowered `unwrap_used: error -> off`"]
        );
        assert_eq!(
            keys(
                "Cargo.toml",
                Some("[package]\nname = \"calc\"\n"),
                Some("[package]\nname = \"calc\"\nautotests = false\n\n[lib]\ntest = false\n")
            ),
            vec![
                "cargo test package.autotests: turned off (`false`)",
                "cargo test lib.test: turned off (`false`)"
            ]
        );
        // A `[[test]]` target given `test = false` or a feature it needs; a
        // target newly declared with one too (`tests/e2e.rs` may have been
        // an implicit target that ran).
        assert_eq!(
            keys(
                "Cargo.toml",
                Some("[[test]]\nname = \"api\"\n\n[[test]]\nname = \"slow\"\nrequired-features = [\"slow\"]\n"),
                Some(
                    "[[test]]\nname = \"api\"\ntest = false\n\n[[test]]\nname = \"slow\"\nrequired-features = [\"slow\"]\n\n[[test]]\nname = \"e2e\"\nrequired-features = [\"net\"]\n"
                )
            ),
            vec!["cargo test test: left out of a plain `cargo test`: `api` `test = false`, `e2e` needs feature `net`"]
        );
        assert_eq!(
            keys(
                ".golangci.yml",
                Some("linters:\n  enable: [errcheck]\n"),
                Some("linters:\n  enable: [errcheck]\n  disable: [govet]\n")
            ),
            vec!["golangci-lint linters.disable: gained `govet`"]
        );
        assert_eq!(
            keys(
                "tsconfig.app.json",
                Some("{ \"compilerOptions\": { \"strict\": true } }"),
                Some("{ \"compilerOptions\": { \"strict\": false, } }")
            ),
            vec!["tsc compilerOptions.strict: turned off (`false`)"]
        );
        assert_eq!(
            keys(
                "tests/conftest.py",
                Some("import pytest\n"),
                Some("import pytest\n\ncollect_ignore = [\"test_slow.py\"]\n")
            ),
            vec!["pytest collect_ignore: added `collect_ignore = [\"test_slow.py\"]`"]
        );
        assert_eq!(
            keys(
                "eslint.config.mjs",
                Some("export default [{ rules: { eqeqeq: 'error' } }];\n"),
                Some("export default [{ rules: { eqeqeq: 'off' } }];\n")
            ),
            vec!["eslint off: added `export default [{ rules: { eqeqeq: 'off' } }];`"]
        );
        // A new config that lowers nothing, and a deleted one that only raised it.
        assert!(keys("ruff.toml", None, Some("line-length = 100\n")).is_empty());
        assert!(keys("ruff.toml", Some("ignore = [\"E501\"]\n"), None).is_empty());
        assert_eq!(
            keys(
                ".shellcheckrc",
                Some("disable=SC2086\n"),
                Some("disable=SC2086,SC2164\n")
            ),
            vec!["shellcheck disable: gained `SC2164`"]
        );
    }
}
