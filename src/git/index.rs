//! The git index, read once per run.
//!
//! libgit2 verifies the index's SHA-1 trailer and builds a hash map of every
//! entry on each read, and each gate opens its own repository: on a 100,000
//! file repository that was half of a hook's time, paid once per gate. Here
//! the index file is parsed directly (formats 2, 3 and 4, as
//! `Documentation/gitformat-index.txt` describes them; git itself does not
//! verify the trailer on read either) into one immutable [`Snapshot`] that
//! every repository opened in the process shares, keyed by the file's
//! identity and modification time. What the parser does not know (a split
//! index, a sparse index's directory entries, a required extension it has not
//! heard of, another hash) is read by libgit2 instead, so nothing is guessed.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

use anyhow::{Result, anyhow};
use git2::Oid;

use crate::mapped::Bytes;

/// The index entry flag git sets on a file a sparse checkout leaves out.
const SKIP_WORKTREE: u16 = 1 << 14;
/// `git add -N`: the path is recorded, its content not yet.
const INTENT_TO_ADD: u16 = 1 << 13;
const EXTENDED: u16 = 1 << 14;
/// `git update-index --assume-unchanged` (git's `CE_VALID`).
const ASSUME_UNCHANGED: u16 = 1 << 15;
/// SHA-1 object ids: what libgit2 (and so loki-gate) supports.
const ID_LEN: usize = 20;
/// A symbolic link's mode.
const LINK: u32 = 0o120_000;
/// A gitlink (submodule) entry's mode.
pub(crate) const GITLINK: u32 = 0o160_000;

/// One index entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    path: std::ops::Range<usize>,
    pub id: Oid,
    pub mode: u32,
    pub file_size: u32,
    /// 0 for a resolved entry; 1-3 for the sides of a conflict.
    pub stage: u8,
    pub skip_worktree: bool,
    pub intent_to_add: bool,
    /// `git update-index --assume-unchanged`: git does not look at the file.
    pub assume_unchanged: bool,
}

/// Every entry of one index file, in git's order (by path bytes, then stage).
#[derive(Debug, Default)]
pub struct Snapshot {
    /// Where the paths are: the index file itself (formats 2 and 3 hold
    /// each path whole), else all paths back to back. An entry names its
    /// range.
    names: Bytes,
    entries: Vec<Entry>,
    /// The cache-tree extension: the tree id of each directory (`""` the
    /// root, else `dir/`) whose entries have not changed since git wrote
    /// it, so [`Snapshot::changed`] can skip it whole.
    trees: Vec<(Vec<u8>, Oid)>,
    /// [`Snapshot::changed`] per tree, for the other gates of the run.
    against: Mutex<Vec<Compared>>,
    /// [`Snapshot::tracked`], built once for the gates of the run.
    tracked: OnceLock<Arc<Vec<PathBuf>>>,
    /// [`Snapshot::attributes`], found once for the gates of the run.
    attributes: OnceLock<Vec<usize>>,
}

/// The paths that differ from a tree (`None`: the empty tree).
type Compared = (Option<Oid>, Arc<Vec<PathBuf>>);

impl PartialEq for Snapshot {
    fn eq(&self, other: &Snapshot) -> bool {
        self.entries.len() == other.entries.len()
            && self.entries.iter().zip(&other.entries).all(|(a, b)| {
                self.path_bytes(a) == other.path_bytes(b)
                    && Entry {
                        path: 0..0,
                        ..a.clone()
                    } == Entry {
                        path: 0..0,
                        ..b.clone()
                    }
            })
    }
}

impl Snapshot {
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// The path of `entry` (repository-relative bytes, `/`-separated).
    pub fn path_bytes(&self, entry: &Entry) -> &[u8] {
        &self.names[entry.path.clone()]
    }

    pub fn path(&self, entry: &Entry) -> &Path {
        bytes_path(self.path_bytes(entry))
    }

    /// The paths of the entries the working tree holds (not those a
    /// sparse checkout leaves out), built once.
    pub fn tracked(&self) -> Arc<Vec<PathBuf>> {
        self.tracked
            .get_or_init(|| Arc::new(self.tracked_bytes().map(|p| bytes_path(p).to_path_buf()).collect()))
            .clone()
    }

    /// The paths of the entries git does not compare with the working
    /// tree: `--skip-worktree` (a sparse checkout's, or one set by hand)
    /// and `--assume-unchanged`.
    pub fn unwatched(&self) -> Vec<PathBuf> {
        self.entries
            .iter()
            .filter(|e| e.stage == 0 && (e.skip_worktree || e.assume_unchanged))
            .map(|e| self.path(e).to_path_buf())
            .collect()
    }

    /// The paths of the tracked symbolic links the working tree holds.
    pub fn links(&self) -> Vec<PathBuf> {
        self.entries
            .iter()
            .filter(|e| e.stage == 0 && e.mode == LINK && !e.skip_worktree)
            .map(|e| self.path(e).to_path_buf())
            .collect()
    }

    /// The first entry from `from` on whose path `before` is false of, the
    /// entries from there being partitioned by it: found by doubling steps
    /// then halving, so a nearby one costs a few comparisons (and touches a
    /// few paths) where a search of the whole index would cost seventeen.
    fn gallop(&self, from: usize, before: impl Fn(&[u8]) -> bool) -> usize {
        let rest = &self.entries[from..];
        let (mut known, mut step) = (0, 1);
        while step <= rest.len() && before(self.path_bytes(&rest[step - 1])) {
            known = step;
            step *= 2;
        }
        let end = step.min(rest.len());
        from + known + rest[known..end].partition_point(|e| before(self.path_bytes(e)))
    }

    /// The resolved `.gitattributes` files, at the root or in any directory.
    pub fn attributes(&self) -> impl Iterator<Item = &Entry> {
        self.attributes
            .get_or_init(|| {
                (0..self.entries.len())
                    .filter(|at| {
                        let e = &self.entries[*at];
                        let path = self.path_bytes(e);
                        e.stage == 0 && crate::paths::file_name(path) == b".gitattributes"
                    })
                    .collect()
            })
            .iter()
            .map(|at| &self.entries[*at])
    }

    /// The paths of [`Snapshot::tracked`] as bytes, without building them:
    /// for what looks at every one to keep a few.
    pub fn tracked_bytes(&self) -> impl Iterator<Item = &[u8]> {
        self.entries
            .iter()
            .filter(|e| !e.skip_worktree)
            .map(|e| self.path_bytes(e))
    }

    /// The resolved (stage 0) entry at `path`.
    pub fn get(&self, path: &Path) -> Option<&Entry> {
        let wanted = path_bytes(path)?;
        let at = self
            .entries
            .binary_search_by(|e| self.path_bytes(e).cmp(&wanted).then(e.stage.cmp(&0)))
            .ok()?;
        Some(&self.entries[at])
    }

    /// The paths whose entry differs from `tree`'s (the empty tree when
    /// `None`): added, deleted, or another blob or mode; submodules left
    /// out, as the diffs leave them. Sorted; computed once per tree.
    pub fn changed(&self, repo: &git2::Repository, tree: Option<&git2::Tree<'_>>) -> Result<Arc<Vec<PathBuf>>> {
        let key = tree.map(git2::Tree::id);
        let mut against = self.against.lock().expect("index comparisons");
        if let Some((_, known)) = against.iter().find(|(k, _)| *k == key) {
            return Ok(known.clone());
        }
        let mut base: Vec<(Vec<u8>, Oid, u32)> = Vec::new();
        let mut same: Vec<Vec<u8>> = Vec::new();
        if let Some(tree) = tree {
            if self
                .trees
                .first()
                .is_some_and(|(dir, id)| dir.is_empty() && *id == tree.id())
            {
                same.push(Vec::new());
            } else {
                // By hand, not `Tree::walk`: its callback gives up on a
                // directory name that is not UTF-8.
                files_of(repo, tree, &self.trees, &mut Vec::new(), &mut base, &mut same)
                    .map_err(|e| anyhow!("could not read the tree {}: {}", tree.id(), super::plain(&e)))?;
            }
            base.sort_unstable_by(|a, b| a.0.cmp(&b.0));
        }
        // The entries under a directory the cache-tree vouches for are the
        // tree's: only those between such directories are compared. The
        // directories are disjoint (none is read below one vouched for).
        same.sort_unstable();
        let compared = |e: &&Entry| e.stage == 0 && e.mode != GITLINK;
        let mut staged: Vec<&Entry> = Vec::new();
        let mut at = 0;
        for dir in &same {
            let from = self.gallop(at, |path| path < dir.as_slice());
            staged.extend(self.entries[at..from].iter().filter(compared));
            at = self.gallop(from, |path| path.starts_with(dir));
        }
        staged.extend(self.entries[at..].iter().filter(compared));
        let mut changed = Vec::new();
        let (mut i, mut j) = (0, 0);
        while i < staged.len() || j < base.len() {
            let ours = staged.get(i).map(|e| (self.path_bytes(e), *e));
            let theirs = base.get(j);
            match (ours, theirs) {
                (Some((path, entry)), Some((name, id, mode))) => match path.cmp(name.as_slice()) {
                    std::cmp::Ordering::Equal => {
                        if entry.id != *id || entry.mode != *mode {
                            changed.push(bytes_path(path).to_path_buf());
                        }
                        i += 1;
                        j += 1;
                    }
                    std::cmp::Ordering::Less => {
                        changed.push(bytes_path(path).to_path_buf());
                        i += 1;
                    }
                    std::cmp::Ordering::Greater => {
                        changed.push(bytes_path(name).to_path_buf());
                        j += 1;
                    }
                },
                (Some((path, _)), None) => {
                    changed.push(bytes_path(path).to_path_buf());
                    i += 1;
                }
                (None, Some((name, _, _))) => {
                    changed.push(bytes_path(name).to_path_buf());
                    j += 1;
                }
                (None, None) => break,
            }
        }
        let changed = Arc::new(changed);
        against.push((key, changed.clone()));
        Ok(changed)
    }

    /// Does anything in the index need libgit2's own reading of it to be
    /// diffed right: a conflict, or a path added with `git add -N`?
    pub fn unusual(&self) -> bool {
        self.entries.iter().any(|e| e.stage != 0 || e.intent_to_add)
    }

    /// The entries of an index libgit2 read.
    pub fn from_git2(index: &git2::Index) -> Snapshot {
        let mut names = Vec::new();
        let mut entries = Vec::new();
        for e in index.iter() {
            let start = names.len();
            names.extend_from_slice(&e.path);
            entries.push(Entry {
                path: start..names.len(),
                id: e.id,
                mode: e.mode,
                file_size: e.file_size,
                stage: u8::try_from((e.flags >> 12) & 3).unwrap_or(0),
                skip_worktree: e.flags_extended & SKIP_WORKTREE != 0,
                intent_to_add: e.flags_extended & INTENT_TO_ADD != 0,
                assume_unchanged: e.flags & ASSUME_UNCHANGED != 0,
            });
        }
        Snapshot {
            names: Bytes::Owned(names),
            entries,
            ..Snapshot::default()
        }
    }

    /// The entries of the index file `file`, or `None` for what this parser
    /// leaves to libgit2.
    pub fn parse(file: Bytes) -> Option<Snapshot> {
        let mut r = Reader { bytes: &file, at: 0 };
        if r.take(4)? != b"DIRC" {
            return None;
        }
        let version = r.u32()?;
        if !(2..=4).contains(&version) {
            return None;
        }
        let count = r.u32()? as usize;
        let mut entries = Vec::with_capacity(count);
        // Format 4 spells each path as a change to the one before: those are
        // written out here. Formats 2 and 3 keep each whole, in the file.
        let mut names: Vec<u8> = Vec::new();
        let mut previous: Vec<u8> = Vec::new();
        for _ in 0..count {
            let start = r.at;
            // ctime, mtime (seconds and nanoseconds each), dev, ino.
            r.take(24)?;
            let mode = r.u32()?;
            // uid, gid.
            r.take(8)?;
            let file_size = r.u32()?;
            let id = Oid::from_bytes(r.take(ID_LEN)?).ok()?;
            let flags = r.u16()?;
            let extended = if flags & EXTENDED != 0 {
                if version < 3 {
                    return None;
                }
                r.u16()?
            } else {
                0
            };
            // A sparse index's directory entry (`dir/`): libgit2 expands those.
            let file_name = |path: &[u8]| path.last().is_some_and(|b| *b != b'/');
            let path = if version == 4 {
                // The path is the previous one less its last N bytes, plus
                // what follows (NUL-terminated), with no padding.
                let strip = r.varint()?;
                let keep = previous.len().checked_sub(strip)?;
                previous.truncate(keep);
                previous.extend_from_slice(r.until_nul()?);
                if !file_name(&previous) {
                    return None;
                }
                let at = names.len();
                names.extend_from_slice(&previous);
                at..names.len()
            } else {
                let at = r.at;
                let name = r.until_nul()?;
                if !file_name(name) {
                    return None;
                }
                // NUL padding to a multiple of 8 bytes (at least one NUL,
                // already taken).
                let used = r.at - start;
                r.take((8 - used % 8) % 8)?;
                at..at + name.len()
            };
            entries.push(Entry {
                path,
                id,
                mode,
                file_size,
                stage: u8::try_from((flags >> 12) & 3).unwrap_or(0),
                skip_worktree: extended & SKIP_WORKTREE != 0,
                intent_to_add: extended & INTENT_TO_ADD != 0,
                assume_unchanged: flags & ASSUME_UNCHANGED != 0,
            });
        }
        // Extensions, then the trailing checksum. An extension whose name
        // starts with a lowercase letter must be understood to read the
        // index right (`link`: a split index; `sdir`: a sparse one).
        let mut trees = Vec::new();
        while r.bytes.len() - r.at > ID_LEN {
            let name = r.take(4)?;
            if !name[0].is_ascii_uppercase() {
                return None;
            }
            let size = r.u32()? as usize;
            let data = r.take(size)?;
            if name == b"TREE" {
                // A cache-tree git cannot parse is one it ignores.
                let mut t = Reader { bytes: data, at: 0 };
                let mut read = Vec::new();
                if cache_tree(&mut t, &mut Vec::new(), &mut read).is_some() && t.at == data.len() {
                    read.sort_unstable_by(|a, b| a.0.cmp(&b.0));
                    trees = read;
                }
            }
        }
        if r.bytes.len() - r.at != ID_LEN {
            return None;
        }
        Some(Snapshot {
            names: if version == 4 { Bytes::Owned(names) } else { file },
            entries,
            trees,
            ..Snapshot::default()
        })
    }
}

/// One cache-tree entry and those under it, pre-order: the directory's
/// name (NUL-terminated, the root's empty), its entry count (-1 when
/// invalidated) and subtree count in ASCII, then its tree id when valid.
fn cache_tree(r: &mut Reader<'_>, parent: &mut Vec<u8>, out: &mut Vec<(Vec<u8>, Oid)>) -> Option<()> {
    let name = r.until_nul()?;
    let len = parent.len();
    if !name.is_empty() {
        parent.extend_from_slice(name);
        parent.push(b'/');
    }
    let line = r.bytes.get(r.at..)?;
    let end = line.iter().position(|b| *b == b'\n')?;
    let (count, subtrees) = std::str::from_utf8(&line[..end]).ok()?.split_once(' ')?;
    r.at += end + 1;
    let count: i64 = count.parse().ok()?;
    let subtrees: usize = subtrees.parse().ok()?;
    if count >= 0 {
        out.push((parent.clone(), Oid::from_bytes(r.take(ID_LEN)?).ok()?));
    }
    for _ in 0..subtrees {
        cache_tree(r, parent, out)?;
    }
    parent.truncate(len);
    Some(())
}

/// Every file under `tree` (submodules left out) as (path, blob, mode), the
/// paths under `prefix`; a directory whose tree the index's cache-tree
/// records unchanged is not read, and goes to `same` instead.
pub(super) fn files_of(
    repo: &git2::Repository,
    tree: &git2::Tree<'_>,
    trees: &[(Vec<u8>, Oid)],
    prefix: &mut Vec<u8>,
    out: &mut Vec<(Vec<u8>, Oid, u32)>,
    same: &mut Vec<Vec<u8>>,
) -> Result<(), git2::Error> {
    for entry in tree.iter() {
        let len = prefix.len();
        prefix.extend_from_slice(entry.name_bytes());
        if entry.kind() == Some(git2::ObjectType::Tree) {
            prefix.push(b'/');
            let cached = trees
                .binary_search_by(|(dir, _)| dir.as_slice().cmp(prefix.as_slice()))
                .ok()
                .map(|at| trees[at].1);
            if cached == Some(entry.id()) {
                same.push(prefix.clone());
            } else {
                files_of(repo, &repo.find_tree(entry.id())?, trees, prefix, out, same)?;
            }
        } else {
            let mode = u32::try_from(entry.filemode()).unwrap_or(0);
            if mode != GITLINK {
                out.push((prefix.clone(), entry.id(), mode));
            }
        }
        prefix.truncate(len);
    }
    Ok(())
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        let end = self.at.checked_add(n)?;
        let out = self.bytes.get(self.at..end)?;
        self.at = end;
        Some(out)
    }

    fn u32(&mut self) -> Option<u32> {
        Some(u32::from_be_bytes(self.take(4)?.try_into().ok()?))
    }

    fn u16(&mut self) -> Option<u16> {
        Some(u16::from_be_bytes(self.take(2)?.try_into().ok()?))
    }

    fn until_nul(&mut self) -> Option<&'a [u8]> {
        let rest = self.bytes.get(self.at..)?;
        let len = memchr::memchr(0, rest)?;
        let out = &rest[..len];
        self.at += len + 1;
        Some(out)
    }

    /// git's offset varint: 7 bits a byte, high bit "more", each
    /// continuation adding one before the shift.
    fn varint(&mut self) -> Option<usize> {
        let mut byte = self.take(1)?[0];
        let mut value = usize::from(byte & 0x7f);
        while byte & 0x80 != 0 {
            byte = self.take(1)?[0];
            value = value.checked_add(1)?.checked_mul(128)? | usize::from(byte & 0x7f);
        }
        Some(value)
    }
}

/// What makes one read of an index file the same as another.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Stamp {
    path: PathBuf,
    len: u64,
    modified: Option<std::time::SystemTime>,
    #[cfg(unix)]
    inode: u64,
}

impl Stamp {
    fn of(path: &Path) -> Option<Stamp> {
        let meta = std::fs::metadata(path).ok()?;
        Some(Stamp {
            path: path.to_path_buf(),
            len: meta.len(),
            modified: meta.modified().ok(),
            #[cfg(unix)]
            inode: std::os::unix::fs::MetadataExt::ino(&meta),
        })
    }
}

/// The snapshots read in this process (one per index file; a few at most).
static READ: Mutex<Vec<(Stamp, Arc<Snapshot>)>> = Mutex::new(Vec::new());

/// The index at `path`, read once per process while the file stays the
/// same; an index that does not exist is empty (a repository with no files
/// staged yet).
pub fn load(path: &Path) -> Result<Arc<Snapshot>> {
    let Some(stamp) = Stamp::of(path) else {
        return Ok(Arc::default());
    };
    // Held while reading: gates starting together wait for the one read.
    let mut read = READ.lock().expect("index snapshots");
    if let Some((_, snapshot)) = read.iter().find(|(s, _)| *s == stamp) {
        return Ok(snapshot.clone());
    }
    let bytes = crate::mapped::read_replaced(path).map_err(|e| match e.kind() {
        std::io::ErrorKind::PermissionDenied => anyhow!(
            "permission denied reading {}: make it readable by the user running loki-gate",
            path.display()
        ),
        _ => anyhow!("could not read the git index {}: {e}", path.display()),
    })?;
    let snapshot = match Snapshot::parse(bytes) {
        Some(snapshot) => snapshot,
        None => {
            let index = git2::Index::open(path).map_err(|e| {
                let split = e.message().contains("'link'");
                anyhow!(
                    "could not read the git index {}: {}{}",
                    path.display(),
                    super::plain(&e),
                    if split {
                        " (a split index, which libgit2 cannot read: `git update-index --no-split-index` turns it off)"
                    } else {
                        ""
                    }
                )
            })?;
            Snapshot::from_git2(&index)
        }
    };
    let snapshot = Arc::new(snapshot);
    read.retain(|(s, _)| s.path != stamp.path);
    read.push((stamp, snapshot.clone()));
    Ok(snapshot)
}

#[cfg(unix)]
pub(crate) fn bytes_path(bytes: &[u8]) -> &Path {
    use std::os::unix::ffi::OsStrExt;
    Path::new(std::ffi::OsStr::from_bytes(bytes))
}

#[cfg(not(unix))]
pub(crate) fn bytes_path(bytes: &[u8]) -> &Path {
    // Index paths are UTF-8 on Windows (git for Windows writes them so).
    Path::new(std::str::from_utf8(bytes).unwrap_or(""))
}

/// `path` as index bytes (`/`-separated), or `None` when it cannot be one.
pub(crate) fn path_bytes(path: &Path) -> Option<std::borrow::Cow<'_, [u8]>> {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        Some(std::borrow::Cow::Borrowed(path.as_os_str().as_bytes()))
    }
    #[cfg(not(unix))]
    {
        Some(std::borrow::Cow::Owned(path.to_str()?.replace('\\', "/").into_bytes()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(bytes: &[u8]) -> Option<Snapshot> {
        Snapshot::parse(bytes.to_vec().into())
    }

    use crate::git::testing::{git, repo};

    /// Own parse and libgit2's agree, entry for entry, in every index format
    /// and with the flags a sparse checkout and `git add -N` set.
    #[test]
    fn the_parse_matches_libgit2_in_every_format() {
        let dir = repo();
        let root = dir.path();
        let mut names = vec!["README.md".to_string(), "a b/ü.txt".to_string(), "z".to_string()];
        for i in 0..40 {
            names.push(format!("src/deep/er/path_{i:03}/module_{i}.rs"));
            names.push(format!("src/deep/er/path_{i:03}/module_{i}_test.rs"));
        }
        names.push(format!("{}long.txt", "directory/".repeat(300)));
        for name in &names {
            let path = root.join(name);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(&path, name).unwrap();
        }
        git(root, &["add", "-A"]);
        std::fs::write(root.join("new.txt"), "x").unwrap();
        git(root, &["add", "-N", "new.txt"]);
        git(root, &["update-index", "--skip-worktree", "z"]);
        for version in ["2", "3", "4", "2"] {
            git(root, &["update-index", "--index-version", version]);
            let path = root.join(".git/index");
            let bytes = std::fs::read(&path).unwrap();
            let ours = parse(&bytes).unwrap_or_else(|| panic!("version {version} not parsed"));
            let theirs = Snapshot::from_git2(&git2::Index::open(&path).unwrap());
            assert_eq!(ours, theirs, "index version {version}");
            assert_eq!(ours.entries().len(), names.len() + 1);
            let z = ours.get(Path::new("z")).unwrap();
            assert!(z.skip_worktree && !z.intent_to_add);
            assert!(ours.get(Path::new("new.txt")).unwrap().intent_to_add);
            assert!(ours.unusual());
            assert!(!Snapshot::default().unusual());
            assert!(ours.get(Path::new("src/deep")).is_none());
        }
    }

    /// The paths [`Snapshot::changed`] finds are libgit2's staged diff's,
    /// whether or not the cache-tree is valid, for every kind of change.
    #[test]
    fn changed_paths_are_the_staged_diffs() {
        let dir = repo();
        let root = dir.path();
        for name in [
            "a/b/c.txt",
            "a/b/d.txt",
            "a/e.txt",
            "f/g.txt",
            "h.txt",
            "i/j.txt",
            "k.txt",
            "l/m.txt",
            // Names that sort around the directory `p/` in the index.
            "p/1.txt",
            "p-q/2.txt",
            "p.txt",
            "pq/3.txt",
        ] {
            let path = root.join(name);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(&path, name).unwrap();
        }
        git(root, &["add", "-A"]);
        git(root, &["commit", "-qm", "base"]);
        let repo = git2::Repository::open(root).unwrap();
        let head = repo.head().unwrap().peel_to_tree().unwrap();
        let index_path = root.join(".git/index");
        let check = |what: &str| {
            let snapshot = Snapshot::parse(crate::mapped::read_replaced(&index_path).unwrap()).unwrap();
            let ours: Vec<PathBuf> = snapshot.changed(&repo, Some(&head)).unwrap().to_vec();
            let mut index = repo.index().unwrap();
            index.read(true).unwrap();
            let mut opts = git2::DiffOptions::new();
            opts.ignore_submodules(true);
            let diff = repo
                .diff_tree_to_index(Some(&head), Some(&index), Some(&mut opts))
                .unwrap();
            let mut theirs: Vec<PathBuf> = diff
                .deltas()
                .flat_map(|d| [d.old_file().path(), d.new_file().path()])
                .flatten()
                .map(Path::to_path_buf)
                .collect();
            theirs.sort();
            theirs.dedup();
            assert_eq!(ours, theirs, "{what}");
            // Against the empty tree, everything is new.
            assert_eq!(
                snapshot.changed(&repo, None).unwrap().len(),
                snapshot.entries().len(),
                "{what}"
            );
            snapshot
        };
        // Right after a commit the cache-tree is whole: nothing is read.
        assert!(!check("nothing staged").trees.is_empty());
        std::fs::write(root.join("a/b/c.txt"), "changed").unwrap();
        git(root, &["add", "a/b/c.txt"]);
        check("one modified file, cache-tree partly valid");
        git(root, &["rm", "-q", "--cached", "f/g.txt"]);
        std::fs::write(root.join("n.txt"), "new").unwrap();
        git(root, &["add", "n.txt"]);
        git(root, &["update-index", "--chmod=+x", "h.txt"]);
        std::fs::remove_file(root.join("k.txt")).unwrap();
        std::fs::create_dir(root.join("k.txt")).unwrap();
        std::fs::write(root.join("k.txt/inner"), "x").unwrap();
        git(root, &["add", "-A", "k.txt"]);
        git(root, &["mv", "i/j.txt", "i/moved.txt"]);
        #[cfg(unix)]
        {
            std::fs::remove_file(root.join("l/m.txt")).unwrap();
            std::os::unix::fs::symlink("a/e.txt", root.join("l/m.txt")).unwrap();
            git(root, &["add", "l/m.txt"]);
        }
        check("added, deleted, mode, file to directory, moved, file to symlink");
        git(root, &["write-tree"]);
        check("the same with the cache-tree written again");
        // `p/` vouched for, with changes on either side of it.
        for name in ["p-q/2.txt", "pq/3.txt", "p.txt"] {
            std::fs::write(root.join(name), "changed").unwrap();
            git(root, &["add", name]);
        }
        check("changes beside a directory the cache-tree vouches for");
    }

    #[test]
    fn galloping_finds_what_a_binary_search_finds() {
        let mut names = Vec::new();
        let mut entries = Vec::new();
        for i in 0..300 {
            let start = names.len();
            names.extend_from_slice(format!("d{:02}/f{i:03}", i / 7).as_bytes());
            entries.push(Entry {
                path: start..names.len(),
                id: Oid::ZERO_SHA1,
                mode: 0o100_644,
                file_size: 0,
                stage: 0,
                skip_worktree: false,
                assume_unchanged: false,
                intent_to_add: false,
            });
        }
        let snapshot = Snapshot {
            names: Bytes::Owned(names),
            entries,
            ..Snapshot::default()
        };
        for from in [0, 1, 6, 7, 150, 299, 300] {
            for dir in ["d00/", "d01/", "d20/", "d42/", "d43/", "e/", "a/"] {
                let rest = &snapshot.entries[from..];
                let below = from + rest.partition_point(|e| snapshot.path_bytes(e) < dir.as_bytes());
                assert_eq!(snapshot.gallop(from, |p| p < dir.as_bytes()), below, "{from} {dir}");
                let under = below
                    + snapshot.entries[below..].partition_point(|e| snapshot.path_bytes(e).starts_with(dir.as_bytes()));
                assert_eq!(
                    snapshot.gallop(below, |p| p.starts_with(dir.as_bytes())),
                    under,
                    "{from} {dir}"
                );
            }
        }
    }

    /// A split index, a truncated file or a foreign header is left to libgit2.
    #[test]
    fn what_it_does_not_know_it_declines() {
        let dir = repo();
        let root = dir.path();
        std::fs::write(root.join("a"), "a").unwrap();
        git(root, &["add", "a"]);
        let path = root.join(".git/index");
        let bytes = std::fs::read(&path).unwrap();
        assert!(parse(&bytes).is_some());
        assert!(parse(&bytes[..bytes.len() - 1]).is_none());
        assert!(parse(&bytes[..30]).is_none());
        assert!(parse(b"XXXX\0\0\0\x02\0\0\0\0").is_none());
        git(root, &["update-index", "--split-index"]);
        let split = std::fs::read(&path).unwrap();
        assert!(parse(&split).is_none(), "a split index is libgit2's to read");
        let error = load(&path).unwrap_err().to_string();
        assert!(error.contains("--no-split-index"), "{error}");
        // Sparse index directory entries are left to libgit2 too.
        let mut sparse = bytes.clone();
        // The first entry's path, after the 12-byte header and the entry's
        // 62 bytes of fixed fields (a search for "a\0" could match inside
        // the stat data or the object id first: it did, once in a while).
        let at = 12 + 62;
        assert_eq!(&sparse[at..at + 2], b"a\0");
        sparse[at] = b'/';
        assert!(parse(&sparse).is_none());
    }
}
