//! A tool's configuration as the tool finds it, where a key-by-key reading
//! of one file falls short (issue 63). Each tool takes one config file, the
//! first of its names it finds, and does not merge it with the others:
//! ruff the closest `.ruff.toml`, `ruff.toml` or `pyproject.toml` with a
//! `[tool.ruff]` table (unless the file says `extend`); mypy `mypy.ini`
//! before `.mypy.ini`, `pyproject.toml` and `setup.cfg`; pytest
//! `pytest.ini` before `pyproject.toml`, `tox.ini` and `setup.cfg`. So a
//! config file the change adds replaces the settings the base applied
//! there (`select` narrowed, `strict` gone, `addopts` dropped), and it is
//! read against that config, as if it were that file's new version.

use std::path::{Path, PathBuf};

use anyhow::Result;

use super::keys::{Format, MYPY_KEYS, PYTEST_KEYS, RUFF_KEYS, Way};
use super::{Lowered, at, line_of, lowers, parse};
use crate::git::Repo;

/// One config file a tool reads: its name, how it is written, and where in
/// it the tool's settings are; `own`: the file is the tool's alone (there
/// at all, it is the config), not one shared with other tools (then only
/// with the tool's table or section).
struct Place {
    name: &'static str,
    format: Format,
    at: &'static str,
    own: bool,
}

/// The config files of one tool, in the order it prefers them.
struct Finder {
    tool: &'static str,
    gate: &'static str,
    keys: &'static [(&'static str, Way)],
    places: &'static [Place],
    /// The closest directory's config applies (ruff); else only the
    /// directory the tool runs from (the repository's root).
    closest: bool,
}

const fn place(name: &'static str, format: Format, at: &'static str, own: bool) -> Place {
    Place { name, format, at, own }
}

const FINDERS: &[Finder] = &[
    Finder {
        tool: "ruff",
        gate: "static",
        keys: RUFF_KEYS,
        places: &[
            place(".ruff.toml", Format::Toml, "", true),
            place("ruff.toml", Format::Toml, "", true),
            place("pyproject.toml", Format::Toml, "tool.ruff", false),
        ],
        closest: true,
    },
    Finder {
        tool: "mypy",
        gate: "static",
        keys: MYPY_KEYS,
        places: &[
            place("mypy.ini", Format::Ini("mypy"), "", true),
            place(".mypy.ini", Format::Ini("mypy"), "", true),
            place("pyproject.toml", Format::Toml, "tool.mypy", false),
            place("setup.cfg", Format::Ini("mypy"), "", false),
        ],
        closest: false,
    },
    Finder {
        tool: "pytest",
        gate: "mock",
        keys: PYTEST_KEYS,
        places: &[
            place("pytest.ini", Format::Ini("pytest"), "", true),
            place(".pytest.ini", Format::Ini("pytest"), "", true),
            place("pyproject.toml", Format::Toml, "tool.pytest.ini_options", false),
            place("tox.ini", Format::Ini("pytest"), "", false),
            place("setup.cfg", Format::Ini("tool:pytest"), "", false),
        ],
        closest: false,
    },
];

/// Is `text` a config of `place` the tool would use?
fn is_config(place: &Place, text: &str) -> bool {
    if place.own {
        return true;
    }
    match place.format {
        Format::Ini(section) => text
            .lines()
            .any(|l| l.trim().trim_matches(['[', ']']).trim() == section && l.trim().starts_with('[')),
        format => parse(format, text).is_some_and(|v| !at(&v, place.at).is_null()),
    }
}

/// The config of `finder` that the base revision `rev` applied to the
/// directory of `path` (a file the change adds as `finder.places[index]`):
/// the place, its path and text. `None` when there was none (the tool's
/// defaults: the new file's own keys are read against those).
fn governing(
    repo: &Repo,
    rev: &str,
    finder: &Finder,
    index: usize,
    path: &Path,
) -> Result<Option<(&'static Place, PathBuf, String)>> {
    let mut dir = path.parent();
    let mut first = true;
    while let Some(d) = dir {
        // In the file's own directory, only what it takes precedence over.
        let places = if first {
            &finder.places[index + 1..]
        } else {
            finder.places
        };
        for place in places {
            let candidate = d.join(place.name);
            if let Some(bytes) = repo.blob_at(rev, &candidate)? {
                let text = String::from_utf8_lossy(&bytes).into_owned();
                if is_config(place, &text) {
                    return Ok(Some((place, candidate, text)));
                }
            }
        }
        if !finder.closest {
            break;
        }
        first = false;
        dir = d.parent();
    }
    Ok(None)
}

/// For a config file the change adds at `path` (`head` its text): each
/// tool whose config the base applied there it replaces, with what it
/// lowers of that config, said against that file.
pub(super) fn shadowed(repo: &Repo, rev: &str, path: &Path, head: &str) -> Result<Vec<(&'static str, Vec<Lowered>)>> {
    let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
        return Ok(Vec::new());
    };
    let mut out = Vec::new();
    for finder in FINDERS {
        // Only the root's config counts for a tool that does not look closer.
        if !finder.closest && path.parent().is_some_and(|p| !p.as_os_str().is_empty()) {
            continue;
        }
        let Some(index) = finder.places.iter().position(|p| p.name == name) else {
            continue;
        };
        let mine = &finder.places[index];
        if !is_config(mine, head) {
            continue;
        }
        let Some((theirs, from, text)) = governing(repo, rev, finder, index, path)? else {
            continue;
        };
        let (Some(old), Some(new)) = (parse(theirs.format, &text), parse(mine.format, head)) else {
            continue;
        };
        let (old, new) = (at(&old, theirs.at), at(&new, mine.at));
        // A ruff file that extends the config it would replace keeps what
        // it does not set: each key is read as the merge.
        let extends = finder.tool == "ruff"
            && at(new, "extend")
                .as_str()
                .is_some_and(|e| crate::paths::normalise(&path.parent().unwrap_or(Path::new("")).join(e)) == from);
        let shown = crate::git::display_path(&from);
        let mut found = Vec::new();
        for (key, way) in finder.keys {
            if extends && *key == "extend" {
                continue;
            }
            let after = match at(new, key) {
                serde_json::Value::Null if extends => at(old, key),
                value => value,
            };
            if let Some(what) = lowers(*way, at(old, key), after) {
                found.push(Lowered {
                    tool: finder.tool,
                    gate: finder.gate,
                    key: if mine.at.is_empty() {
                        key.to_string()
                    } else {
                        format!("{}.{key}", mine.at)
                    },
                    what: format!("{what} against {shown}, whose settings this new file replaces here"),
                    line: line_of(head, key.rsplit('.').next().unwrap_or(key)),
                });
            }
        }
        out.push((finder.tool, found));
    }
    Ok(out)
}
