//! Reading the files gates examine: a parallel, gitignore-aware walk of the
//! whole tree (`--all-files`), or a parallel read of a given list (the
//! changed files). Binary, huge, unreadable and out-of-repo files are skipped
//! with one `meta/skipped-file` note each, never silently. Every file read
//! whole goes through [`read_capped`]; every repo-relative one through
//! [`read_file`], which never follows a path out of the repository.

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

/// Why a file (or a version of it) of `len` bytes is not read.
pub fn over_cap(len: u64) -> String {
    format!(
        "{len} bytes is over the {} byte limit (max-file-bytes)",
        max_file_bytes()
    )
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
    /// A `meta/skipped-file` note per file not read, those over the size cap included.
    pub skipped: Vec<Finding>,
    /// The files not read for being over the size cap, with their size.
    pub too_large: Vec<(PathBuf, u64)>,
}

impl Read {
    /// Note that `path` was not read, for `why`.
    pub fn skip(&mut self, path: &Path, why: Unread) {
        self.skipped.push(skipped(path, &why.to_string()));
        if let Unread::TooLarge(size) = why {
            self.too_large.push((path.to_path_buf(), size));
        }
    }

    /// The files over the size cap that `take` accepts, their notes taken
    /// out of `skipped`: the caller reports them as it must
    /// ([`too_large`]).
    pub fn take_too_large(&mut self, take: &dyn Fn(&Path) -> bool) -> Vec<(PathBuf, u64)> {
        let (taken, left): (Vec<_>, Vec<_>) = std::mem::take(&mut self.too_large)
            .into_iter()
            .partition(|(path, _)| take(path));
        self.too_large = left;
        let shown: std::collections::HashSet<String> = taken.iter().map(|(p, _)| display_path(p)).collect();
        self.skipped
            .retain(|f| f.path.as_ref().is_none_or(|p| !shown.contains(p)));
        taken
    }
}

/// Why a file was not read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Unread {
    /// It is over [`max_file_bytes`]: this many bytes.
    TooLarge(u64),
    /// Binary, out of the repository, unreadable: why, in words.
    Other(String),
}

impl std::fmt::Display for Unread {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Unread::TooLarge(size) => f.write_str(&over_cap(*size)),
            Unread::Other(why) => f.write_str(why),
        }
    }
}

/// The `meta/file-too-large` finding for the repo-relative `path`, `size`
/// bytes, which the change adds or edits and a gate could not check for it
/// (`unchecked` says what was not done). An error where the run enforces
/// (CI, the pre-push hook), a warning elsewhere: over the cap is never a
/// silent pass (issue 54).
pub fn too_large(path: &Path, size: u64, unchecked: &str, enforced: bool) -> Finding {
    let shown = display_path(path);
    let cap = max_file_bytes();
    let mut finding = Finding::new(
        &crate::meta::FILE_TOO_LARGE,
        format!("{shown} is {size} bytes, over the {cap}-byte size cap (max-file-bytes): {unchecked}"),
    )
    .in_file(shown);
    finding.help = Some(format!(
        "keep the file under {cap} bytes; if it must be larger, raise `max-file-bytes` in the config (a change to it is held to the base's value until someone trusted acknowledges it)"
    ));
    blocks_where_enforced(finding, enforced)
}

/// A finding about what a gate could not check: an error where the run
/// enforces (CI, the pre-push hook, the agent's stop), a warning that says
/// so elsewhere.
pub fn blocks_where_enforced(mut finding: Finding, enforced: bool) -> Finding {
    if !enforced {
        finding.ceiling = Some(crate::finding::Severity::Warning);
        finding
            .notes
            .push("a warning in this run; in CI and the pre-push hook it blocks".to_string());
    }
    finding
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
                    // a link out of it (or a dangling one) gets its note from `read_file`.
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
                        let walked = Walked {
                            path: rel.to_path_buf(),
                            link: kind.is_symlink(),
                        };
                        paths.lock().expect("walker poisoned").push(walked);
                    }
                }
                WalkState::Continue
            })
        });
    let mut paths = paths.into_inner().expect("walker poisoned");
    paths.sort_by(|a, b| a.path.cmp(&b.path));
    read_walked(root, &paths)
}

/// A file the walker found.
struct Walked {
    /// Repo-relative.
    path: PathBuf,
    /// A symlink: it may lead anywhere. Anything else the walker yields is
    /// a file in a directory it descended into, which never follows a link:
    /// inside the repository without asking.
    link: bool,
}

/// Read the given repo-relative files in parallel.
pub fn read_all(root: &Path, paths: &[PathBuf]) -> Read {
    let paths: Vec<Walked> = paths
        .iter()
        .map(|p| Walked {
            path: p.clone(),
            link: true,
        })
        .collect();
    read_walked(root, &paths)
}

fn read_walked(root: &Path, paths: &[Walked]) -> Read {
    let results: Vec<(&Walked, Result<Vec<u8>, Unread>)> = paths
        .par_iter()
        .map(|w| {
            let read = if w.link {
                read_file_as(root, &w.path)
            } else {
                read_text(&root.join(&w.path))
            };
            (w, read)
        })
        .collect();
    let mut read = Read::default();
    for (walked, result) in results {
        match result {
            Ok(bytes) => read.files.push(SourceFile {
                path: walked.path.clone(),
                bytes,
            }),
            Err(why) => read.skip(&walked.path, why),
        }
    }
    read
}

/// The `meta/skipped-file` note for the repo-relative `path`, skipped for `why`.
pub fn skipped(path: &Path, why: &str) -> Finding {
    let shown = display_path(path);
    Finding::new(&SKIPPED_FILE, format!("skipped {shown}: {why}")).in_file(shown)
}

/// The bytes of the repo-relative file `rel`, or why it was skipped: it
/// leads out of the repository, is over [`max_file_bytes`], is binary, or
/// could not be read.
pub fn read_file(root: &Path, rel: &Path) -> Result<Vec<u8>, String> {
    read_file_as(root, rel).map_err(|why| why.to_string())
}

/// [`read_file`], saying why as [`Unread`].
pub fn read_file_as(root: &Path, rel: &Path) -> Result<Vec<u8>, Unread> {
    // The confined path is the one read: `link/../x` is the repository's
    // `x`, never `x` beside wherever `link` points.
    let rel = inside(root, rel).map_err(Unread::Other)?;
    read_text(&root.join(rel))
}

/// [`read_capped`], and not binary.
fn read_text(path: &Path) -> Result<Vec<u8>, Unread> {
    let bytes = read_sized(path)?;
    if is_binary(&bytes) {
        return Err(Unread::Other("binary file".to_string()));
    }
    Ok(bytes)
}

/// The repo-relative `rel` with no `.` or `..` ([`crate::paths::confine`]),
/// or why it may not be read or handed to a tool: it climbs out with `..`,
/// or it is a symlink (or under a directory that is one) that leads out of
/// the repository or dangles.
pub fn inside(root: &Path, rel: &Path) -> Result<PathBuf, String> {
    if let Some(rel) = crate::paths::confine(root, rel) {
        return Ok(rel);
    }
    let abs = root.join(rel);
    let link = std::fs::symlink_metadata(&abs).ok().map(|m| m.file_type().is_symlink());
    Err(match (abs.canonicalize(), link) {
        (Ok(target), Some(true)) => format!("symlink to {} outside the repository", target.display()),
        (Err(_), Some(true)) => "dangling symlink".to_string(),
        _ => "outside the repository".to_string(),
    })
}

/// The bytes of the regular file at `path`, unless it is over
/// [`max_file_bytes`], the size cap on the files loki-gate reads.
pub fn read_capped(path: &Path) -> Result<Vec<u8>, String> {
    read_sized(path).map_err(|why| why.to_string())
}

/// [`read_capped`], saying why as [`Unread`].
fn read_sized(path: &Path) -> Result<Vec<u8>, Unread> {
    use std::io::Read as _;
    let unreadable = |e: std::io::Error| Unread::Other(format!("could not read it ({e})"));
    let meta = std::fs::metadata(path).map_err(unreadable)?;
    if !meta.is_file() {
        return Err(Unread::Other("not a regular file".to_string()));
    }
    let cap = max_file_bytes();
    if meta.len() > cap {
        return Err(Unread::TooLarge(meta.len()));
    }
    // The file may grow between the look and the read: read one byte past the cap at most.
    let mut bytes = Vec::with_capacity(usize::try_from(meta.len()).unwrap_or(0));
    std::fs::File::open(path)
        .and_then(|f| f.take(cap + 1).read_to_end(&mut bytes))
        .map_err(unreadable)?;
    if bytes.len() as u64 > cap {
        return Err(Unread::TooLarge(bytes.len() as u64));
    }
    Ok(bytes)
}

/// A file is binary when its first 8000 bytes contain a NUL (git's rule).
pub fn is_binary(bytes: &[u8]) -> bool {
    bytes[..bytes.len().min(BINARY_SNIFF)].contains(&0)
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn a_confined_read_never_follows_dot_dot_through_a_link() {
        let dir = tempfile::tempdir().unwrap();
        let base = dir.path().canonicalize().unwrap();
        let root = base.join("repo");
        std::fs::create_dir_all(base.join("outside/deep")).unwrap();
        std::fs::create_dir(&root).unwrap();
        std::fs::write(base.join("outside/secret.txt"), "secret").unwrap();
        std::os::unix::fs::symlink(base.join("outside/deep"), root.join("link")).unwrap();
        // The kernel would read outside/secret.txt; the repository has no secret.txt.
        let err = read_file(&root, Path::new("link/../secret.txt")).unwrap_err();
        assert!(err.starts_with("could not read it"), "{err}");
        std::fs::write(root.join("secret.txt"), "mine").unwrap();
        assert_eq!(read_file(&root, Path::new("link/../secret.txt")).unwrap(), b"mine");
        assert_eq!(
            inside(&root, Path::new("link/x")).unwrap_err(),
            "outside the repository"
        );
        assert_eq!(
            inside(&root, Path::new("../outside/secret.txt")).unwrap_err(),
            "outside the repository"
        );
        assert!(inside(&root, Path::new("link")).unwrap_err().starts_with("symlink to "));
        std::os::unix::fs::symlink("nowhere", root.join("dangling")).unwrap();
        assert_eq!(inside(&root, Path::new("dangling")).unwrap_err(), "dangling symlink");
    }
}
