//! Version managers' shims (pyenv, asdf, mise): `~/.pyenv/shims/ruff` is a
//! script that asks the manager which ruff this directory uses and runs it;
//! through it ruff takes 127 ms where the real binary takes 11. The shim is
//! resolved once (`pyenv which ruff`, run where the tool would run) and the
//! answer kept in the cache directory (`tool-shims.json`), keyed by what
//! decides it: the shim, the directory, the manager's version files above
//! it (by modification time) and its environment variables. Whatever the
//! resolution cannot tell, the shim itself runs, as before.

use std::path::{Path, PathBuf};
use std::time::Duration;

/// A version manager whose shims loki-gate resolves.
struct Manager {
    /// The name of the shims' parent directory's parent (`.pyenv`), or of a
    /// directory above the shims (`mise`).
    marks: &'static [&'static str],
    /// Its command (`pyenv which <program>` prints the real path).
    command: &'static str,
    /// The files that choose a version, looked for from the run's
    /// directory up.
    version_files: &'static [&'static str],
    /// Its environment variables' prefix (`PYENV_VERSION`, `ASDF_...`).
    env: &'static str,
}

const MANAGERS: &[Manager] = &[
    Manager {
        marks: &[".pyenv", "pyenv"],
        command: "pyenv",
        version_files: &[".python-version"],
        env: "PYENV_",
    },
    Manager {
        marks: &[".asdf", "asdf"],
        command: "asdf",
        version_files: &[".tool-versions"],
        env: "ASDF_",
    },
    Manager {
        marks: &["mise", ".mise"],
        command: "mise",
        version_files: &[
            ".tool-versions",
            ".mise.toml",
            "mise.toml",
            ".mise.local.toml",
            "mise.local.toml",
            ".python-version",
            ".node-version",
            ".nvmrc",
        ],
        env: "MISE_",
    },
];

/// The manager whose shim `program` is: it sits in a `shims` directory
/// under the manager's own (`~/.pyenv/shims/ruff`,
/// `~/.local/share/mise/shims/ruff`).
fn manager_of(program: &Path) -> Option<(&'static Manager, PathBuf)> {
    let shims = program
        .parent()
        .filter(|d| d.file_name().is_some_and(|n| n == "shims"))?;
    let home = shims.parent()?;
    let name = home.file_name()?.to_str()?;
    let manager = MANAGERS.iter().find(|m| m.marks.contains(&name))?;
    Some((manager, home.to_path_buf()))
}

/// The real executable behind `program` when it is a shim, for a run in
/// `dir` (absolute); `program` itself otherwise, or when the manager
/// cannot say.
pub fn resolve(program: &Path, dir: &Path, cache_dir: Option<&Path>) -> PathBuf {
    let Some((manager, home)) = manager_of(program) else {
        return program.to_path_buf();
    };
    let Some(name) = program.file_name().and_then(|n| n.to_str()) else {
        return program.to_path_buf();
    };
    let key = key(manager, program, dir);
    let file = cache_dir.map(|d| d.join("tool-shims.json"));
    let mut known: std::collections::BTreeMap<String, PathBuf> = file
        .as_ref()
        .and_then(|f| std::fs::read(f).ok())
        .and_then(|bytes| serde_json::from_slice(&bytes).ok())
        .unwrap_or_default();
    if let Some(real) = known.get(&key).filter(|p| p.is_file()) {
        return real.clone();
    }
    let Some(real) = ask(manager, &home, name, dir) else {
        return program.to_path_buf();
    };
    if let (Some(file), Some(dir)) = (file, cache_dir) {
        // What the shim resolved to in this directory before is of no more use.
        let prefix = format!("{}\t{}\t", program.display(), dir.display());
        known.retain(|k, _| !k.starts_with(&prefix));
        known.insert(key, real.clone());
        if std::fs::create_dir_all(dir).is_ok()
            && let Ok(bytes) = serde_json::to_vec_pretty(&known)
        {
            // A cache: a run that cannot write it asks again next time.
            let _ = crate::state::write_atomic(&file, &bytes);
        }
    }
    real
}

/// What decides the answer: the shim, the directory, each version file
/// above it with its modification time, the manager's variables.
fn key(manager: &Manager, program: &Path, dir: &Path) -> String {
    let mut key = format!("{}\t{}\t", program.display(), dir.display());
    for above in dir.ancestors() {
        for name in manager.version_files {
            let path = above.join(name);
            if let Ok(modified) = std::fs::metadata(&path).and_then(|m| m.modified()) {
                let nanos = modified
                    .duration_since(std::time::UNIX_EPOCH)
                    .map_or(0, |d| d.as_nanos());
                key.push_str(&format!("{}@{nanos};", path.display()));
            }
        }
    }
    let mut vars: Vec<(String, String)> = std::env::vars().filter(|(k, _)| k.starts_with(manager.env)).collect();
    vars.sort();
    for (k, v) in vars {
        key.push_str(&format!("{k}={v};"));
    }
    key
}

/// `<manager> which <name>`, run in `dir`: the real path, when it is one.
fn ask(manager: &Manager, home: &Path, name: &str, dir: &Path) -> Option<PathBuf> {
    let own = home.join("bin").join(manager.command);
    let command = if own.is_file() {
        own
    } else {
        which::which(manager.command).ok()?
    };
    let mut cmd = std::process::Command::new(command);
    cmd.args(["which", name]);
    let out = crate::process::run(cmd, dir, Duration::from_secs(10)).ok()?;
    if out.code != Some(0) {
        return None;
    }
    let real = PathBuf::from(out.stdout.lines().next()?.trim());
    // Never a shim again, and a file that is there.
    (real.is_absolute() && real.is_file() && manager_of(&real).is_none()).then_some(real)
}

#[cfg(test)]
mod tests {
    #[test]
    fn shims_are_told_by_where_they_sit() {
        let of = |p: &str| super::manager_of(std::path::Path::new(p)).map(|(m, _)| m.command);
        assert_eq!(of("/home/a/.pyenv/shims/ruff"), Some("pyenv"));
        assert_eq!(of("/home/a/.asdf/shims/eslint"), Some("asdf"));
        assert_eq!(of("/home/a/.local/share/mise/shims/ruff"), Some("mise"));
        assert_eq!(of("/usr/bin/ruff"), None);
        assert_eq!(of("/home/a/project/shims/ruff"), None);
    }
}
