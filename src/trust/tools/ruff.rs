//! ruff's configuration as ruff resolves it, where a key-by-key reading of
//! one file falls short (issue 63). ruff takes the closest config file to a
//! file it checks, `.ruff.toml` before `ruff.toml` before a `pyproject.toml`
//! with a `[tool.ruff]` table, and does not merge it with any other unless
//! it says `extend`: a new `ruff.toml` beside (or below) the project's
//! `pyproject.toml` replaces its settings there, `select` narrowed and
//! all. So a config file the change adds is read against the config the
//! base applied to its directory, as if it were that file's new version.

use std::path::{Path, PathBuf};

use anyhow::Result;

use super::keys::{Format, RUFF_KEYS};
use super::{Lowered, at, line_of, lowers, parse};
use crate::git::Repo;

/// ruff's config files in one directory, in the order ruff prefers them.
const NAMES: &[&str] = &[".ruff.toml", "ruff.toml", "pyproject.toml"];

/// Where in `path`'s TOML ruff's settings are.
fn table(path: &Path) -> &'static str {
    match path.file_name().and_then(|n| n.to_str()) {
        Some("pyproject.toml") => "tool.ruff",
        _ => "",
    }
}

/// Is `text` (the file at `path`) a ruff config ruff would use?
fn is_config(path: &Path, text: &str) -> bool {
    let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
        return false;
    };
    match name {
        ".ruff.toml" | "ruff.toml" => true,
        "pyproject.toml" => parse(Format::Toml, text).is_some_and(|v| !at(&v, "tool.ruff").is_null()),
        _ => false,
    }
}

/// The config the base revision `rev` applied to the directory of `path`
/// (a file the change adds): its path and text. `None` when there was none
/// (ruff's defaults, which the new file's own keys are read against).
fn governing(repo: &Repo, rev: &str, path: &Path) -> Result<Option<(PathBuf, String)>> {
    let mut dir = path.parent();
    while let Some(d) = dir {
        for name in NAMES {
            let candidate = d.join(name);
            if candidate == path {
                continue;
            }
            if let Some(bytes) = repo.blob_at(rev, &candidate)? {
                let text = String::from_utf8_lossy(&bytes).into_owned();
                if is_config(&candidate, &text) {
                    return Ok(Some((candidate, text)));
                }
            }
        }
        dir = d.parent();
    }
    Ok(None)
}

/// For a ruff config the change adds at `path` (`head` its text): what it
/// lowers of the config the base applied there, each said against that
/// file. `None` when `path` is no ruff config or nothing governed it.
pub(super) fn shadowed(repo: &Repo, rev: &str, path: &Path, head: &str) -> Result<Option<Vec<Lowered>>> {
    if !is_config(path, head) {
        return Ok(None);
    }
    let Some((from, text)) = governing(repo, rev, path)? else {
        return Ok(None);
    };
    let (Some(old), Some(new)) = (parse(Format::Toml, &text), parse(Format::Toml, head)) else {
        return Ok(None);
    };
    let (old, new) = (at(&old, table(&from)), at(&new, table(path)));
    // A file that extends the config it would replace keeps what it does
    // not set: each key is read as the merge.
    let extends = at(new, "extend")
        .as_str()
        .is_some_and(|e| crate::paths::normalise(&path.parent().unwrap_or(Path::new("")).join(e)) == from);
    let shown = crate::git::display_path(&from);
    let mut out = Vec::new();
    for (key, way) in RUFF_KEYS {
        let after = match at(new, key) {
            serde_json::Value::Null if extends => at(old, key),
            value => value,
        };
        if extends && *key == "extend" {
            continue;
        }
        if let Some(what) = lowers(*way, at(old, key), after) {
            let prefix = table(path);
            out.push(Lowered {
                tool: "ruff",
                gate: "static",
                key: if prefix.is_empty() {
                    key.to_string()
                } else {
                    format!("{prefix}.{key}")
                },
                what: format!("{what} against {shown}, whose settings this new file replaces here"),
                line: line_of(head, key.rsplit('.').next().unwrap_or(key)),
            });
        }
    }
    Ok(Some(out))
}
