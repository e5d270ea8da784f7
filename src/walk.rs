//! Reading the files gates examine: a parallel, gitignore-aware walk of the
//! whole tree (`--all-files`), or a parallel read of a given list (the
//! changed files). Binary, huge, unreadable and out-of-repo files are skipped
//! with one `meta/skipped-file` note each, never silently.

use std::path::{Path, PathBuf};
use std::sync::Mutex;

use globset::{GlobBuilder, GlobSet, GlobSetBuilder};
use ignore::{WalkBuilder, WalkState};
use rayon::prelude::*;

use crate::finding::Finding;
use crate::git::display_path;
use crate::meta::SKIPPED_FILE;

/// Files larger than this are not read, unless the config says otherwise.
pub const MAX_FILE_BYTES: u64 = 2 * 1024 * 1024;

static MAX_FILE: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(MAX_FILE_BYTES);

/// The size cap every gate applies to every file it reads, in every scope,
/// history versions included (`max-file-bytes`); one value for the run.
pub fn max_file_bytes() -> u64 {
    MAX_FILE.load(std::sync::atomic::Ordering::Relaxed)
}

/// Set the run's size cap (from the config, once, before any gate runs).
pub fn set_max_file_bytes(bytes: u64) {
    MAX_FILE.store(bytes, std::sync::atomic::Ordering::Relaxed);
}

/// How many leading bytes are checked for NUL to call a file binary (as git does).
const BINARY_SNIFF: usize = 8000;

/// A file read for the gates.
#[derive(Debug, Clone)]
pub struct SourceFile {
    /// Repo-relative.
    pub path: PathBuf,
    pub bytes: Vec<u8>,
}

impl SourceFile {
    /// The content as text; invalid UTF-8 sequences become U+FFFD.
    pub fn text(&self) -> std::borrow::Cow<'_, str> {
        String::from_utf8_lossy(&self.bytes)
    }
}

/// The outcome of reading: the files, and a note per skipped file.
#[derive(Debug, Default)]
pub struct Read {
    pub files: Vec<SourceFile>,
    pub skipped: Vec<Finding>,
}

/// Compile `exclude:` globs (validated earlier) into one matcher.
pub fn exclude_set(patterns: &[String]) -> anyhow::Result<GlobSet> {
    let mut builder = GlobSetBuilder::new();
    for p in patterns {
        builder.add(GlobBuilder::new(p).literal_separator(false).build()?);
        // `vendor` or `vendor/**` should also exclude everything beneath.
        if !p.ends_with("/**") {
            builder.add(GlobBuilder::new(&format!("{}/**", p.trim_end_matches('/'))).build()?);
        }
    }
    Ok(builder.build()?)
}

/// Walk every non-ignored file under `root` in parallel, skipping `exclude`
/// and any directory in `skip_dirs` (repo-relative), and read the ones `keep`
/// accepts (a gate decides by path before any content is read).
pub fn walk(root: &Path, exclude: &GlobSet, skip_dirs: &[PathBuf], keep: &(dyn Fn(&Path) -> bool + Sync)) -> Read {
    let paths = Mutex::new(Vec::new());
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
    WalkBuilder::new(root)
        .hidden(false)
        .filter_entry(|e| e.file_name() != ".git")
        .require_git(false)
        .threads(threads)
        .build_parallel()
        .run(|| {
            let paths = &paths;
            Box::new(move |entry| {
                if let Ok(entry) = entry
                    && let Some(kind) = entry.file_type()
                    && (kind.is_file() || kind.is_symlink())
                    && let Ok(rel) = entry.path().strip_prefix(root)
                {
                    // A link to a file inside the repository is walked at its target;
                    // a link out of it (or a dangling one) gets its note from `read_one`.
                    if kind.is_symlink()
                        && entry
                            .path()
                            .canonicalize()
                            .is_ok_and(|t| t.starts_with(root) && t.is_file())
                    {
                        return WalkState::Continue;
                    }
                    if skip_dirs.iter().any(|d| rel.starts_with(d)) {
                        return WalkState::Continue;
                    }
                    if !exclude.is_match(rel) && keep(rel) {
                        paths.lock().expect("walker poisoned").push(rel.to_path_buf());
                    }
                }
                WalkState::Continue
            })
        });
    let mut paths = paths.into_inner().expect("walker poisoned");
    paths.sort();
    read_all(root, &paths)
}

/// Read the given repo-relative files in parallel.
pub fn read_all(root: &Path, paths: &[PathBuf]) -> Read {
    let results: Vec<(&PathBuf, Result<Vec<u8>, String>)> = paths.par_iter().map(|p| (p, read_one(root, p))).collect();
    let mut read = Read::default();
    for (path, result) in results {
        match result {
            Ok(bytes) => read.files.push(SourceFile {
                path: path.clone(),
                bytes,
            }),
            Err(why) => {
                let shown = display_path(path);
                let note = Finding::new(&SKIPPED_FILE, format!("skipped {shown}: {why}")).in_file(shown);
                read.skipped.push(note);
            }
        }
    }
    read
}

/// The file's bytes, or why it was skipped: a path that resolves outside
/// the repository (through a symlink anywhere on it) is never opened.
pub fn read_one(root: &Path, rel: &Path) -> Result<Vec<u8>, String> {
    let abs = root.join(rel);
    let meta = std::fs::symlink_metadata(&abs).map_err(|e| format!("could not read it ({e})"))?;
    match abs.canonicalize() {
        Ok(target) if target.starts_with(root) => {}
        Ok(target) => return Err(format!("symlink to {} outside the repository", target.display())),
        Err(_) if meta.file_type().is_symlink() => return Err("dangling symlink".to_string()),
        Err(e) => return Err(format!("could not read it ({e})")),
    }
    let meta = std::fs::metadata(&abs).map_err(|e| format!("could not read it ({e})"))?;
    if !meta.is_file() {
        return Err("not a regular file".to_string());
    }
    if meta.len() > max_file_bytes() {
        return Err(format!(
            "{} bytes is over the {} byte limit (max-file-bytes)",
            meta.len(),
            max_file_bytes()
        ));
    }
    let bytes = std::fs::read(&abs).map_err(|e| format!("could not read it ({e})"))?;
    if is_binary(&bytes) {
        return Err("binary file".to_string());
    }
    Ok(bytes)
}

/// A file is binary when its first 8000 bytes contain a NUL (git's rule).
pub fn is_binary(bytes: &[u8]) -> bool {
    bytes[..bytes.len().min(BINARY_SNIFF)].contains(&0)
}
