//! Persisted state: one versioned JSON file per concern under `.loki-gate/`
//! (or `--state-dir`).
//!
//! Every write is temp file + rename in the same directory, under an
//! exclusive lock held across read-modify-write, so two processes never
//! interleave and a reader never sees half a file. A corrupt file or an
//! unknown version is an error naming the file and how to reset it; it is
//! never silently overwritten. Layout: `docs/state.md`.

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, anyhow, bail};
use serde::Serialize;
use serde::de::DeserializeOwned;

/// The default state directory name, at the repository root.
pub const DIR_NAME: &str = ".loki-gate";

/// A concern stored in its own file.
pub trait StateFile: Serialize + DeserializeOwned {
    /// File name inside the state directory, e.g. `run.json`.
    const NAME: &'static str;
    /// The format version this build reads and writes.
    const VERSION: u32;
    /// How to reset this file, for error messages.
    const RESET: &'static str;
}

/// The state directory.
#[derive(Debug, Clone)]
pub struct Store {
    dir: PathBuf,
    /// `info/exclude` and the line to add there, when the directory is inside the work tree.
    exclude: Option<(PathBuf, String)>,
}

#[derive(Serialize)]
struct Envelope<'a, T> {
    version: u32,
    #[serde(flatten)]
    data: &'a T,
}

impl Store {
    /// A store at `dir`. `exclude` is `(info/exclude path, pattern)`: the pattern
    /// is appended there on the first write so the directory never shows up
    /// as an untracked change.
    pub fn new(dir: PathBuf, exclude: Option<(PathBuf, String)>) -> Self {
        Store { dir, exclude }
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    fn path<T: StateFile>(&self) -> PathBuf {
        self.dir.join(T::NAME)
    }

    /// Read a state file; `None` when it does not exist yet.
    pub fn read<T: StateFile>(&self) -> Result<Option<T>> {
        let path = self.path::<T>();
        let bytes = match std::fs::read(&path) {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(anyhow!("could not read state file {}: {e}", path.display())),
        };
        decode::<T>(&path, &bytes).map(Some)
    }

    /// Read-modify-write under the file's exclusive lock; returns what was written.
    pub fn update<T: StateFile>(&self, change: impl FnOnce(Option<T>) -> Result<T>) -> Result<T> {
        self.prepare()?;
        let lock = self.lock::<T>()?;
        let current = self.read::<T>()?;
        let next = change(current)?;
        self.write_locked(&next)?;
        drop(lock);
        Ok(next)
    }

    /// Create the directory (and keep it out of `git status`) before writing into it.
    pub fn prepare(&self) -> Result<()> {
        if !self.dir.is_dir() {
            std::fs::create_dir_all(&self.dir).map_err(|e| {
                self.unwritable(format!(
                    "could not create the state directory {}: {e}",
                    self.dir.display()
                ))
            })?;
        }
        if let Some((file, pattern)) = &self.exclude {
            add_exclude(file, pattern).with_context(|| format!("could not add {pattern} to {}", file.display()))?;
        }
        Ok(())
    }

    fn lock<T: StateFile>(&self) -> Result<File> {
        let path = self.dir.join(format!("{}.lock", T::NAME));
        let file = OpenOptions::new()
            .create(true)
            .truncate(false)
            .read(true)
            .write(true)
            .open(&path)
            .map_err(|e| self.unwritable(format!("could not open lock file {}: {e}", path.display())))?;
        file.lock()
            .with_context(|| format!("could not lock {}", path.display()))?;
        Ok(file)
    }

    /// `what` failed while writing the state: say what fixes it.
    fn unwritable(&self, what: String) -> anyhow::Error {
        anyhow!(
            "{what}; the state directory must be writable: fix the permissions of {}, or point --state-dir (or LOKI_GATE_STATE_DIR) at a writable directory",
            self.dir.display()
        )
    }

    fn write_locked<T: StateFile>(&self, data: &T) -> Result<()> {
        let path = self.path::<T>();
        let mut json = serde_json::to_vec_pretty(&Envelope {
            version: T::VERSION,
            data,
        })?;
        json.push(b'\n');
        write_atomic(&path, &json).map_err(|e| self.unwritable(format!("{e:#}")))
    }
}

/// Check that the state directory `dir` (absolute, as named: links not
/// followed) stays in the repository at `root` when it is named inside it.
///
/// A directory named inside the repository (the default `.loki-gate`, or a
/// `--state-dir` under the root) is the checkout's: a symlink there is
/// whatever the change under review committed, and following one out would
/// put the state files, their locks and the cache wherever the change
/// chose (issue 54). So a link on the way to `dir`, `dir` itself, or a link
/// in it or in its `cache/` must lead to a directory or file inside the
/// repository. A directory named outside the repository is the user's
/// choice and is taken as it is. `Err` is the one-line error, with the fix.
pub fn confine(root: &Path, dir: &Path) -> Result<()> {
    let Ok(rel) = dir.strip_prefix(root) else {
        return Ok(());
    };
    let real_root = root.canonicalize().unwrap_or_else(|_| root.to_path_buf());
    let outside = |link: &Path| -> Option<String> {
        let meta = std::fs::symlink_metadata(link).ok()?;
        if !meta.file_type().is_symlink() {
            return None;
        }
        match link.canonicalize() {
            Ok(target) if target.starts_with(&real_root) => None,
            Ok(target) => Some(format!("a symlink to {}, outside the repository", target.display())),
            Err(_) => Some("a symlink that leads nowhere".to_string()),
        }
    };
    let refuse = |link: &Path, what: String| {
        let shown = crate::git::display_path(link.strip_prefix(root).unwrap_or(link));
        let place = if link == dir {
            format!("the state directory {shown} is {what}")
        } else {
            format!(
                "{shown} is {what}, and the state directory {} reaches through it",
                crate::git::display_path(rel)
            )
        };
        anyhow!(
            "{place}: a link in the checkout may not move loki-gate's state out of it; remove the link (`git rm` it if it is committed), or pass --state-dir (or LOKI_GATE_STATE_DIR) naming a directory outside the repository"
        )
    };
    let mut path = root.to_path_buf();
    for part in rel.components() {
        path.push(part);
        if let Some(what) = outside(&path) {
            return Err(refuse(&path, what));
        }
    }
    // What the store opens inside it: its files and locks, and the cache's
    // directories.
    for inner in [dir.to_path_buf(), dir.join("cache")] {
        let Ok(entries) = std::fs::read_dir(&inner) else {
            continue;
        };
        for entry in entries.flatten() {
            if let Some(what) = outside(&entry.path()) {
                return Err(refuse(&entry.path(), what));
            }
        }
    }
    Ok(())
}

fn decode<T: StateFile>(path: &Path, bytes: &[u8]) -> Result<T> {
    let corrupt = |why: String| anyhow!("state file {} is corrupt ({why}): {}", path.display(), T::RESET);
    let value: serde_json::Value = serde_json::from_slice(bytes).map_err(|e| corrupt(e.to_string()))?;
    match value.get("version").and_then(serde_json::Value::as_u64) {
        Some(v) if v == u64::from(T::VERSION) => {}
        Some(v) => bail!(
            "state file {} has version {v}, this loki-gate reads version {}: upgrade loki-gate, or {}",
            path.display(),
            T::VERSION,
            T::RESET
        ),
        None => return Err(corrupt("no `version` field".into())),
    }
    serde_json::from_value(value).map_err(|e| corrupt(e.to_string()))
}

/// Write `bytes` to `path` through a temp file in the same directory and a rename,
/// so readers see the old content or the new, never a mix.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    write_replacing(path, bytes, Kind::State)
}

/// [`write_atomic`] for a file that is run (a git hook): executable before
/// the rename, so git never finds it half written or not yet runnable.
pub fn write_atomic_executable(path: &Path, bytes: &[u8]) -> Result<()> {
    write_replacing(path, bytes, Kind::Executable)
}

/// [`write_atomic`] for a cache entry, which a reader that cannot parse it
/// takes for a miss: not flushed to the disk first (a crash may leave it
/// empty, never mixed), and the directory not swept (the cache's eviction
/// removes what is old). A first run writes thousands: the flush and the
/// sweep were a fifth of a cold hook at 100,000 files.
pub fn write_cache_entry(path: &Path, bytes: &[u8]) -> Result<()> {
    write_replacing(path, bytes, Kind::Cache)
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    State,
    Executable,
    Cache,
}

/// The name every temp file of [`write_atomic`] starts with.
const TEMP_PREFIX: &str = ".loki-gate-tmp";

/// A temp file this old was left by a write that was killed (a write takes
/// milliseconds): the next write in its directory removes it.
const STALE_TEMP: std::time::Duration = std::time::Duration::from_secs(600);

/// Remove what interrupted writes left in `dir`; best effort, never an error.
fn sweep_stale_temps(dir: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let now = std::time::SystemTime::now();
    for entry in entries.flatten() {
        let stale = entry.file_name().to_string_lossy().starts_with(TEMP_PREFIX)
            && entry
                .metadata()
                .ok()
                .filter(std::fs::Metadata::is_file)
                .and_then(|m| m.modified().ok())
                .and_then(|t| now.duration_since(t).ok())
                .is_some_and(|age| age > STALE_TEMP);
        if stale {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

fn write_replacing(path: &Path, bytes: &[u8], kind: Kind) -> Result<()> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    if kind != Kind::Cache {
        sweep_stale_temps(dir);
    }
    let mut tmp = tempfile::Builder::new()
        .prefix(TEMP_PREFIX)
        .tempfile_in(dir)
        .with_context(|| format!("could not create a temp file in {}", dir.display()))?;
    tmp.write_all(bytes)
        .and_then(|_| match kind {
            Kind::Cache => Ok(()),
            Kind::State | Kind::Executable => tmp.as_file().sync_all(),
        })
        .with_context(|| format!("could not write {}", path.display()))?;
    #[cfg(unix)]
    if kind == Kind::Executable {
        use std::os::unix::fs::PermissionsExt;
        tmp.as_file()
            .set_permissions(std::fs::Permissions::from_mode(0o755))
            .with_context(|| format!("could not make {} executable", path.display()))?;
    }
    #[cfg(not(unix))]
    let _ = kind;
    tmp.persist(path)
        .map_err(|e| anyhow!("could not replace {}: {}", path.display(), e.error))?;
    Ok(())
}

fn add_exclude(file: &Path, pattern: &str) -> Result<()> {
    let existing = match std::fs::read_to_string(file) {
        Ok(s) => s,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(e) => return Err(e.into()),
    };
    if existing.lines().any(|l| l.trim() == pattern) {
        return Ok(());
    }
    if let Some(dir) = file.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let mut text = existing;
    if !text.is_empty() && !text.ends_with('\n') {
        text.push('\n');
    }
    text.push_str(pattern);
    text.push('\n');
    write_atomic(file, text.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    #[derive(Debug, Serialize, Deserialize, PartialEq)]
    struct Counter {
        n: u32,
    }
    impl StateFile for Counter {
        const NAME: &'static str = "counter.json";
        const VERSION: u32 = 1;
        const RESET: &'static str = "delete it";
    }

    #[test]
    fn update_round_trips_and_adds_the_exclude_line_once() {
        let tmp = tempfile::tempdir().unwrap();
        let exclude = tmp.path().join("info/exclude");
        let store = Store::new(tmp.path().join("state"), Some((exclude.clone(), "/state/".into())));
        assert_eq!(store.read::<Counter>().unwrap(), None);
        store
            .update::<Counter>(|c| {
                Ok(Counter {
                    n: c.map_or(0, |c| c.n) + 1,
                })
            })
            .unwrap();
        store
            .update::<Counter>(|c| {
                Ok(Counter {
                    n: c.map_or(0, |c| c.n) + 1,
                })
            })
            .unwrap();
        assert_eq!(store.read::<Counter>().unwrap(), Some(Counter { n: 2 }));
        assert_eq!(std::fs::read_to_string(exclude).unwrap(), "/state/\n");
    }

    #[test]
    fn corrupt_and_future_files_are_errors_not_resets() {
        let tmp = tempfile::tempdir().unwrap();
        let store = Store::new(tmp.path().to_path_buf(), None);
        std::fs::write(tmp.path().join("counter.json"), "{\"version\":1,\"n\":").unwrap();
        let err = store
            .update::<Counter>(|_| Ok(Counter { n: 0 }))
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("counter.json is corrupt") && err.contains("delete it"),
            "{err}"
        );
        assert_eq!(
            std::fs::read_to_string(tmp.path().join("counter.json")).unwrap(),
            "{\"version\":1,\"n\":"
        );
        std::fs::write(tmp.path().join("counter.json"), "{\"version\":9,\"n\":1}").unwrap();
        let err = store.read::<Counter>().unwrap_err().to_string();
        assert!(err.contains("version 9"), "{err}");
    }
}
