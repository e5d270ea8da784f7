//! History: the commits of a range, oldest first, what each changed, and
//! the lines two versions of a file differ in.

use super::*;

impl Repo {
    /// A commit's committer time, in seconds since the Unix epoch.
    pub fn commit_time(&self, rev: &str) -> Result<u64> {
        let oid = self.peel_commit(rev).map_err(|_| anyhow!("unknown revision `{rev}`"))?;
        let time = self.inner.find_commit(oid)?.time().seconds();
        Ok(u64::try_from(time).unwrap_or(0))
    }
}

/// What of a commit's history a remote lacks ([`Repo::unpushed`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unpushed {
    /// The commits reachable from it that no remote-tracking ref reaches.
    pub count: usize,
    /// The newest commit on its first-parent line that the remote has (full
    /// hex): where the new work forked off. `None` when the line never
    /// meets what the remote has: the remote has none of this history.
    pub fork: Option<String>,
}

/// One commit of a history range.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Commit {
    /// Full hex id.
    pub id: String,
    /// The first parent, when it is in the repository.
    pub parent: Option<String>,
    /// The first line of the message.
    pub summary: String,
    pub message: String,
    /// `Name <email>` of the author.
    pub author: String,
    /// `Name <email>` of the committer.
    pub committer: String,
    /// A merge's other parents (those this clone has): its changes are what
    /// differs from every parent ([`History`] only).
    pub merged: Vec<String>,
}

impl Commit {
    /// The abbreviated id (`3f2a9c1`).
    pub fn short(&self) -> &str {
        short(&self.id)
    }
}

/// Who last wrote a line ([`Repo::who_wrote`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Wrote {
    /// Not in any commit: the working tree's or the index's.
    Uncommitted,
    /// At or before the oldest commit asked about.
    Before,
    /// This commit (full hex).
    Commit(String),
}

pub(super) fn commit_of(commit: &git2::Commit<'_>, parent: Option<Oid>) -> Commit {
    Commit {
        id: commit.id().to_string(),
        parent: parent.map(|p| p.to_string()),
        summary: commit.summary().ok().flatten().map(str::to_string).unwrap_or_default(),
        message: commit.message().map(str::to_string).unwrap_or_default(),
        author: identity(&commit.author()),
        committer: identity(&commit.committer()),
        merged: Vec::new(),
    }
}

/// `Name <email>`, as git shows a person.
fn identity(who: &git2::Signature<'_>) -> String {
    format!(
        "{} <{}>",
        String::from_utf8_lossy(who.name_bytes()),
        String::from_utf8_lossy(who.email_bytes())
    )
}

/// ` (#123)`: the pull request a squash merge's title names.
pub fn pull_request_suffix(text: &str) -> bool {
    text.strip_prefix(" (#")
        .and_then(|rest| rest.strip_suffix(')'))
        .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

/// A commit id abbreviated as git shows it (`3f2a9c1`).
pub fn short(id: &str) -> &str {
    &id[..id.len().min(7)]
}

/// How to fetch the history a shallow clone lacks.
pub const SHALLOW_FIX: &str = "fetch the history (`git fetch --deepen=200`, repeated until the base is there, or `git fetch --unshallow`; `fetch-depth: 0` in actions/checkout) and run again";

/// The commits of a range, oldest first.
#[derive(Debug, Clone, Default)]
pub struct History {
    pub commits: Vec<Commit>,
    /// More commits were in the range than the limit allowed: the oldest were left out.
    pub truncated: bool,
    /// The history ended (a shallow clone's boundary, or a root commit)
    /// before the base was reached.
    pub ended_early: bool,
    /// The walk reached a commit whose parent this shallow clone did not
    /// fetch (before the base, or the limit): history it could not see.
    pub shallow_end: Option<String>,
}

/// A file a commit changed, as [`Repo::commit_paths`] finds it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PathChange {
    pub path: PathBuf,
    /// Its blob after the commit; `None` when the commit deleted it.
    pub blob: Option<Oid>,
}

/// The files that differ between `old` and `new` (either may be absent: the
/// empty tree), their paths under `prefix`. Entries are merged in git's
/// tree order, where a directory sorts as its name and a slash; an entry
/// that is a file on one side and a directory on the other is a deletion
/// and an addition.
fn tree_diff(
    repo: &git2::Repository,
    old: Option<&git2::Tree<'_>>,
    new: Option<&git2::Tree<'_>>,
    prefix: &mut Vec<u8>,
    out: &mut Vec<PathChange>,
) -> Result<(), git2::Error> {
    let key = |e: &git2::TreeEntry<'_>| {
        let mut key = e.name_bytes().to_vec();
        if e.kind() == Some(git2::ObjectType::Tree) {
            key.push(b'/');
        }
        key
    };
    let mut old_entries = old
        .map(|t| t.iter().collect::<Vec<_>>())
        .unwrap_or_default()
        .into_iter()
        .peekable();
    let mut new_entries = new
        .map(|t| t.iter().collect::<Vec<_>>())
        .unwrap_or_default()
        .into_iter()
        .peekable();
    loop {
        let order = match (old_entries.peek(), new_entries.peek()) {
            (None, None) => break,
            (Some(_), None) => std::cmp::Ordering::Less,
            (None, Some(_)) => std::cmp::Ordering::Greater,
            (Some(a), Some(b)) => key(a).cmp(&key(b)),
        };
        let (a, b) = match order {
            std::cmp::Ordering::Less => (old_entries.next(), None),
            std::cmp::Ordering::Greater => (None, new_entries.next()),
            std::cmp::Ordering::Equal => (old_entries.next(), new_entries.next()),
        };
        if let (Some(a), Some(b)) = (&a, &b)
            && a.id() == b.id()
            && a.filemode() == b.filemode()
        {
            continue;
        }
        let len = prefix.len();
        prefix.extend_from_slice(a.as_ref().or(b.as_ref()).map(|e| e.name_bytes()).unwrap_or_default());
        let tree = |e: &Option<git2::TreeEntry<'_>>| -> Result<Option<git2::Tree<'_>>, git2::Error> {
            match e {
                Some(e) if e.kind() == Some(git2::ObjectType::Tree) => repo.find_tree(e.id()).map(Some),
                _ => Ok(None),
            }
        };
        let (old_tree, new_tree) = (tree(&a)?, tree(&b)?);
        if old_tree.is_some() || new_tree.is_some() {
            prefix.push(b'/');
            tree_diff(repo, old_tree.as_ref(), new_tree.as_ref(), prefix, out)?;
        } else {
            let file = |e: &Option<git2::TreeEntry<'_>>| {
                e.as_ref()
                    .filter(|e| e.kind() == Some(git2::ObjectType::Blob))
                    .map(git2::TreeEntry::id)
            };
            let (before, after) = (file(&a), file(&b));
            if before.is_some() || after.is_some() {
                out.push(PathChange {
                    path: super::index::bytes_path(prefix).to_path_buf(),
                    blob: after,
                });
            }
        }
        prefix.truncate(len);
    }
    Ok(())
}

/// A file a commit changed, with the blobs on each side.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TreeChange {
    /// The path after the change (before it, for a deletion).
    pub path: PathBuf,
    /// The path before the change, when it existed.
    pub old_path: Option<PathBuf>,
    pub status: Status,
    pub old_blob: Option<String>,
    pub new_blob: Option<String>,
}

impl Repo {
    /// The first-parent commits after `base` (exclusive; `None` walks to the
    /// root) up to HEAD, oldest first, at most the newest `max`.
    pub fn first_parent_history(&self, base: Option<&str>, max: Option<usize>) -> Result<History> {
        let mut history = History::default();
        let Some(head) = self.head()? else {
            return Ok(history);
        };
        let base = base.map(Oid::from_str).transpose()?;
        let boundary = self.shallow_boundary();
        let mut next = Some(Oid::from_str(&head)?);
        while let Some(id) = next {
            if Some(id) == base {
                break;
            }
            if max.is_some_and(|m| history.commits.len() >= m) {
                history.truncated = true;
                break;
            }
            let commit = self.inner.find_commit(id)?;
            let parent = commit.parent_id(0).ok().filter(|p| self.inner.find_commit(*p).is_ok());
            if parent.is_none() && base.is_some() {
                history.ended_early = true;
            }
            if parent.is_none() && boundary.contains(&id) {
                history.shallow_end = Some(id.to_string());
            }
            history.commits.push(commit_of(&commit, parent));
            next = parent;
        }
        history.commits.reverse();
        Ok(history)
    }

    /// Every commit reachable from HEAD and not from `base` (`None`: all of
    /// HEAD's history), merges included, oldest first, at most the newest
    /// `max` by commit date (parents always before their children; a line
    /// merged from another project's old history, such as a subtree import,
    /// is not "newest" because it was merged last): what `git log base..HEAD`
    /// lists, so a pull request's merge checkout is gated commit by commit,
    /// and the commits of a line merged into the branch are each gated once,
    /// as themselves.
    pub fn history(&self, base: Option<&str>, max: Option<usize>) -> Result<History> {
        let mut history = History::default();
        let Some(head) = self.head()? else {
            return Ok(history);
        };
        let boundary = self.shallow_boundary();
        let mut walk = self.inner.revwalk()?;
        walk.set_sorting(git2::Sort::TOPOLOGICAL | git2::Sort::TIME)?;
        walk.push(Oid::from_str(&head)?)?;
        if let Some(base) = base {
            walk.hide(Oid::from_str(base)?)?;
        }
        for id in walk {
            // A shallow clone's boundary ends the walk without an error.
            let Ok(id) = id else { break };
            if max.is_some_and(|m| history.commits.len() >= m) {
                history.truncated = true;
                break;
            }
            let commit = self.inner.find_commit(id)?;
            let present: Vec<Oid> = commit
                .parent_ids()
                .filter(|p| self.inner.find_commit(*p).is_ok())
                .collect();
            if present.is_empty() {
                if base.is_some() {
                    history.ended_early = true;
                }
                if boundary.contains(&id) {
                    history.shallow_end = Some(id.to_string());
                }
            }
            let first = commit.parent_id(0).ok().filter(|p| present.contains(p));
            let mut entry = commit_of(&commit, first);
            entry.merged = present
                .iter()
                .filter(|p| Some(**p) != first)
                .map(Oid::to_string)
                .collect();
            history.commits.push(entry);
        }
        history.commits.reverse();
        Ok(history)
    }

    /// The newest of the first `limit` first-parent ancestors of `from`
    /// whose title is `title`, or `title (#N)` (a squash merge names its
    /// pull request after the title).
    pub fn ancestor_titled(&self, from: &str, title: &str, limit: usize) -> Option<String> {
        let mut next = self
            .inner
            .find_commit(Oid::from_str(from).ok()?)
            .ok()?
            .parent_id(0)
            .ok();
        for _ in 0..limit {
            let commit = self.inner.find_commit(next?).ok()?;
            let summary = commit.summary().ok().flatten().unwrap_or_default();
            let rest = summary.strip_prefix(title);
            if rest.is_some_and(|rest| rest.is_empty() || pull_request_suffix(rest)) {
                return Some(commit.id().to_string());
            }
            next = commit.parent_id(0).ok();
        }
        None
    }

    /// The commit `id` (full hex), with its first parent when that is here.
    pub fn commit(&self, id: &str) -> Result<Commit> {
        let commit = self
            .inner
            .find_commit(Oid::from_str(id)?)
            .with_context(|| format!("commit {id} is not in this repository"))?;
        let parent = commit.parent_id(0).ok().filter(|p| self.inner.find_commit(*p).is_ok());
        Ok(commit_of(&commit, parent))
    }

    /// Every commit reachable from HEAD and not from `base` (all of
    /// HEAD's history when `None`), merges left out (they bring others'
    /// work), oldest first: the commits a change is made of, also when
    /// HEAD is the merge commit a pull request job checks out.
    pub fn range_commits(&self, base: Option<&str>) -> Result<Vec<Commit>> {
        let Some(head) = self.head()? else {
            return Ok(Vec::new());
        };
        let mut walk = self.inner.revwalk()?;
        walk.set_sorting(git2::Sort::TOPOLOGICAL | git2::Sort::REVERSE)?;
        walk.push(Oid::from_str(&head)?)?;
        if let Some(base) = base {
            walk.hide(Oid::from_str(base)?)?;
        }
        let mut commits = Vec::new();
        for id in walk {
            // A shallow clone's boundary ends the walk without an error.
            let Ok(id) = id else { break };
            let commit = self.inner.find_commit(id)?;
            if commit.parent_count() > 1 {
                continue;
            }
            let parent = commit.parent_id(0).ok().filter(|p| self.inner.find_commit(*p).is_ok());
            commits.push(commit_of(&commit, parent));
        }
        Ok(commits)
    }

    /// What the remote `remote` lacks of `commit`'s history, by its
    /// remote-tracking refs (`refs/remotes/<remote>/*`; every remote's when
    /// `remote` is `None`), as `git rev-list <commit> --not --remotes=<remote>`
    /// counts it.
    pub fn unpushed(&self, commit: &str, remote: Option<&str>) -> Result<Unpushed> {
        let start = self
            .peel_commit(commit)
            .map_err(|_| anyhow!("unknown commit `{commit}`"))?;
        let mut walk = self.inner.revwalk()?;
        walk.push(start)?;
        let glob = match remote {
            Some(remote) => format!("refs/remotes/{remote}/*"),
            None => "refs/remotes/*".to_string(),
        };
        walk.hide_glob(&glob)
            .map_err(|e| anyhow!("could not read the refs {glob}: {}", plain(&e)))?;
        let new: std::collections::HashSet<Oid> = walk
            .collect::<Result<_, _>>()
            .map_err(|e| anyhow!("could not walk the history of {}: {}", short(commit), plain(&e)))?;
        let mut at = start;
        let fork = loop {
            if !new.contains(&at) {
                break Some(at.to_string());
            }
            // A parent this (shallow) clone lacks is as unknown as a root.
            match self.inner.find_commit(at)?.parent_id(0) {
                Ok(parent) if self.inner.find_commit(parent).is_ok() => at = parent,
                _ => break None,
            }
        };
        Ok(Unpushed { count: new.len(), fork })
    }

    /// The parents of commit `id` (full hex), those this clone has.
    pub fn parents(&self, id: &str) -> Vec<String> {
        Oid::from_str(id)
            .and_then(|oid| self.inner.find_commit(oid))
            .map(|c| c.parent_ids().map(|p| p.to_string()).collect())
            .unwrap_or_default()
    }

    /// Is `commit` reachable from `of` (or `of` itself)?
    pub fn is_ancestor(&self, commit: &str, of: &str) -> bool {
        match (Oid::from_str(commit), Oid::from_str(of)) {
            (Ok(c), Ok(o)) => c == o || self.inner.graph_descendant_of(o, c).unwrap_or(false),
            _ => false,
        }
    }

    /// Which commit after `oldest` last wrote each of `lines` (1-based) of
    /// `text`, the content of `path` as the run read it: blame from HEAD
    /// through every parent (a pull request's merge commit passes its
    /// lines on to the commits that wrote them), with `text` laid over
    /// HEAD's version. A line
    /// HEAD does not have is [`Wrote::Uncommitted`]; one that is older than
    /// `oldest` is [`Wrote::Before`].
    pub fn who_wrote(&self, path: &Path, text: &[u8], lines: &[u32], oldest: Option<&str>) -> Result<Vec<Wrote>> {
        let Some(head) = self.head()? else {
            return Ok(vec![Wrote::Uncommitted; lines.len()]);
        };
        let mut opts = git2::BlameOptions::new();
        opts.newest_commit(Oid::from_str(&head)?);
        let oldest = oldest.map(Oid::from_str).transpose()?;
        if let Some(oldest) = oldest {
            opts.oldest_commit(oldest);
        }
        let blame = match self.inner.blame_file(path, Some(&mut opts)) {
            Ok(blame) => blame,
            // Not in HEAD: every line of it is the working tree's.
            Err(e) if e.code() == ErrorCode::NotFound => return Ok(vec![Wrote::Uncommitted; lines.len()]),
            Err(e) => bail!("could not blame {}: {}", path.display(), plain(&e)),
        };
        let blame = blame
            .blame_buffer(text)
            .map_err(|e| anyhow!("could not blame {}: {}", path.display(), plain(&e)))?;
        Ok(lines
            .iter()
            .map(|&line| match blame.get_line(line as usize) {
                None => Wrote::Uncommitted,
                Some(hunk) => {
                    let id = hunk.final_commit_id();
                    if id.is_zero() {
                        Wrote::Uncommitted
                    } else if hunk.is_boundary() || Some(id) == oldest {
                        Wrote::Before
                    } else {
                        Wrote::Commit(id.to_string())
                    }
                }
            })
            .collect())
    }

    /// The files `commit` changed against `parent` (the empty tree when
    /// `None`), renames detected, with the blob ids on each side.
    pub fn commit_changes(&self, parent: Option<&str>, commit: &str) -> Result<Vec<TreeChange>> {
        let old = self.tree_of(parent)?;
        let new = self.tree_of(Some(commit))?;
        let mut opts = DiffOptions::new();
        opts.ignore_submodules(true);
        let diff = self
            .inner
            .diff_tree_to_tree(old.as_ref(), new.as_ref(), Some(&mut opts))?;
        tree_changes(self, diff)
    }

    /// The files `commit` changed against `parent` (the empty tree when
    /// `None`), in git's order (by path bytes), submodules left out. Renames are not paired
    /// (the old path is deleted, the new one added): for what asks only
    /// which paths changed. Subtrees with the same id on both sides are not
    /// read (libgit2's tree diff reads both trees whole: 1,600 package
    /// directories for a one-file commit at 100,000 files).
    pub fn commit_paths(&self, parent: Option<&str>, commit: &str) -> Result<Vec<PathChange>> {
        let old = self.tree_of(parent)?;
        let new = self
            .tree_of(Some(commit))?
            .ok_or_else(|| anyhow!("commit {commit} has no tree"))?;
        let mut out = Vec::new();
        let mut prefix = Vec::new();
        tree_diff(&self.inner, old.as_ref(), Some(&new), &mut prefix, &mut out)
            .map_err(|e| anyhow!("could not compare the trees of {commit}: {}", super::plain(&e)))?;
        Ok(out)
    }

    /// The files staged against HEAD (the empty tree before the first
    /// commit), renames detected, with the blob ids on each side.
    pub fn staged_changes(&self) -> Result<Vec<TreeChange>> {
        let head = self.head()?;
        let tree = self.tree_of(head.as_deref())?;
        let mut opts = DiffOptions::new();
        opts.ignore_submodules(true);
        let diff = self.diff_to_index(tree.as_ref(), &mut opts)?;
        tree_changes(self, diff)
    }

    /// The blob id of `path` at `commit`, or `None` when it did not exist there.
    pub fn blob_id_at(&self, commit: &str, path: &Path) -> Result<Option<String>> {
        let Some(tree) = self.tree_of(Some(commit))? else {
            return Ok(None);
        };
        Ok(blob_entry(&tree, path, commit)?.map(|id| id.to_string()))
    }

    /// The blob id of the regular file `path` at `commit` (not a symlink,
    /// not a folder), or `None`.
    pub fn file_id_at(&self, commit: &str, path: &Path) -> Result<Option<String>> {
        let Some(tree) = self.tree_of(Some(commit))? else {
            return Ok(None);
        };
        match tree.get_path(path) {
            Ok(entry) if entry.kind() == Some(git2::ObjectType::Blob) && entry.filemode() != 0o120000 => {
                Ok(Some(entry.id().to_string()))
            }
            Ok(_) => Ok(None),
            Err(e) if e.code() == ErrorCode::NotFound => Ok(None),
            Err(e) => bail!("could not look up {} at {commit}: {}", path.display(), plain(&e)),
        }
    }

    /// The files at the top of `commit`'s tree (no folders), by name, with
    /// their blob ids, in name order.
    pub fn root_files_at(&self, commit: &str) -> Result<Vec<(String, String)>> {
        let Some(tree) = self.tree_of(Some(commit))? else {
            return Ok(Vec::new());
        };
        Ok(tree
            .iter()
            .filter(|e| e.kind() == Some(git2::ObjectType::Blob))
            .filter_map(|e| Some((e.name().ok()?.to_string(), e.id().to_string())))
            .collect())
    }

    /// The blob id of `path` in the index, or `None` when it is not staged.
    pub fn index_blob_id(&self, path: &Path) -> Result<Option<String>> {
        Ok(self.index()?.get(path).map(|e| e.id.to_string()))
    }

    /// A blob's content by id, unless it is over the size cap
    /// ([`crate::walk::max_file_bytes`], read from its header first) or
    /// missing (a partial clone that has not fetched it).
    pub fn blob_capped(&self, id: &str) -> Result<BlobRead> {
        let oid = Oid::from_str(id)?;
        let odb = self.inner.odb()?;
        let size = match odb.read_header(oid) {
            Ok((size, _)) => size as u64,
            Err(e) if e.code() == ErrorCode::NotFound => return Ok(BlobRead::Missing),
            Err(e) => bail!("could not read blob {}: {}", short(id), plain(&e)),
        };
        if size > crate::walk::max_file_bytes() {
            return Ok(BlobRead::TooLarge(size));
        }
        let blob = self
            .inner
            .find_blob(oid)
            .with_context(|| format!("could not read blob {}", short(id)))?;
        Ok(BlobRead::Content(blob.content().to_vec()))
    }
}

/// A blob as [`Repo::blob_capped`] read it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BlobRead {
    Content(Vec<u8>),
    /// Over the size cap: its size in bytes.
    TooLarge(u64),
    /// Not in this repository (a partial clone that has not fetched it).
    Missing,
}

/// The blob at `path` in `tree` (read at revision `at`, for the error), or
/// `None` when there is no file there.
pub(super) fn blob_entry(tree: &Tree<'_>, path: &Path, at: &str) -> Result<Option<Oid>> {
    match tree.get_path(path) {
        Ok(entry) if entry.kind() == Some(git2::ObjectType::Blob) => Ok(Some(entry.id())),
        Ok(_) => Ok(None),
        Err(e) if e.code() == ErrorCode::NotFound => Ok(None),
        Err(e) => bail!("could not look up {} at {at}: {}", path.display(), plain(&e)),
    }
}

/// The trailers of a commit message (`Key: value` lines in its last paragraph).
pub fn trailers(message: &str) -> Vec<(String, String)> {
    match git2::message_trailers_strs(message) {
        Ok(found) => found.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect(),
        Err(_) => Vec::new(),
    }
}

pub(super) fn tree_changes(repo: &Repo, mut diff: git2::Diff<'_>) -> Result<Vec<TreeChange>> {
    repo.find_renames(&mut diff, false)?;
    let id = |f: git2::DiffFile<'_>| (!f.id().is_zero()).then(|| f.id().to_string());
    Ok(diff
        .deltas()
        .filter_map(|delta| {
            let status = match delta.status() {
                Delta::Added => Status::Added,
                Delta::Deleted => Status::Deleted,
                Delta::Renamed => Status::Renamed,
                Delta::Modified => Status::Modified,
                Delta::Typechange => Status::TypeChange,
                // Copies keep their source: the new file is an addition.
                Delta::Copied => Status::Added,
                _ => return None,
            };
            let old = delta.old_file();
            let new = delta.new_file();
            let path = if status == Status::Deleted {
                old.path()
            } else {
                new.path()
            }?
            .to_path_buf();
            let old_path = (!matches!(status, Status::Added))
                .then(|| old.path().map(Path::to_path_buf))
                .flatten();
            Some(TreeChange {
                path,
                old_path,
                status,
                old_blob: id(old),
                new_blob: id(new),
            })
        })
        .collect())
}

/// The lines two versions of a file differ in, as 0-based line ranges (old,
/// new) in file order, with no context; `None` when git sees binary content.
pub fn changed_lines(old: &[u8], new: &[u8]) -> Option<Vec<(std::ops::Range<usize>, std::ops::Range<usize>)>> {
    let mut opts = DiffOptions::new();
    opts.context_lines(0).interhunk_lines(0);
    let patch = git2::Patch::from_buffers(old, None, new, None, Some(&mut opts)).ok()?;
    if patch.delta().flags().is_binary() {
        return None;
    }
    // With no context, a side with no lines starts at the line before the
    // hunk (`@@ -5,0 +6,2 @@` inserts after old line 5).
    let range = |start: u32, lines: u32| {
        let (start, lines) = (start as usize, lines as usize);
        let first = if lines == 0 { start } else { start - 1 };
        first..first + lines
    };
    (0..patch.num_hunks())
        .map(|i| {
            let (hunk, _) = patch.hunk(i).ok()?;
            Some((
                range(hunk.old_start(), hunk.old_lines()),
                range(hunk.new_start(), hunk.new_lines()),
            ))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::git::testing::{git, repo};

    /// The paths libgit2's tree diff names (renames unpaired), with the blob after.
    fn libgit2_paths(repo: &Repo, parent: Option<&str>, commit: &str) -> Vec<PathChange> {
        let old = repo.tree_of(parent).unwrap();
        let new = repo.tree_of(Some(commit)).unwrap();
        let mut opts = DiffOptions::new();
        opts.ignore_submodules(true);
        let diff = repo
            .inner
            .diff_tree_to_tree(old.as_ref(), new.as_ref(), Some(&mut opts))
            .unwrap();
        let mut out: Vec<PathChange> = diff
            .deltas()
            .map(|d| match d.status() {
                Delta::Deleted => PathChange {
                    path: d.old_file().path().unwrap().to_path_buf(),
                    blob: None,
                },
                _ => PathChange {
                    path: d.new_file().path().unwrap().to_path_buf(),
                    blob: Some(d.new_file().id()),
                },
            })
            .collect();
        out.sort_by(|a, b| {
            a.path
                .as_os_str()
                .as_encoded_bytes()
                .cmp(b.path.as_os_str().as_encoded_bytes())
        });
        out
    }

    #[test]
    fn commit_paths_are_what_libgit2s_tree_diff_finds() {
        let dir = repo();
        let root = dir.path();
        let write = |name: &str, text: &str| {
            let path = root.join(name);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        };
        for name in [
            "a/b/c.txt",
            "a/d.txt",
            "p/1.txt",
            "p-q/2.txt",
            "p.txt",
            "pq/3.txt",
            "k",
            "z.txt",
        ] {
            write(name, name);
        }
        git(root, &["add", "-A"]);
        git(root, &["commit", "-qm", "base"]);
        let steps: [(&str, &dyn Fn()); 4] = [
            ("one file deep down", &(|| write("a/b/c.txt", "changed"))),
            (
                "beside a directory, and a new directory",
                &(|| {
                    write("p-q/2.txt", "changed");
                    write("p.txt", "changed");
                    write("new/dir/file.txt", "new");
                }),
            ),
            (
                "deleted, mode, moved",
                &(|| {
                    std::fs::remove_file(root.join("z.txt")).unwrap();
                    git(root, &["update-index", "--chmod=+x", "pq/3.txt"]);
                    git(root, &["mv", "a/d.txt", "a/moved.txt"]);
                }),
            ),
            (
                "file to directory and directory to file",
                &(|| {
                    std::fs::remove_file(root.join("k")).unwrap();
                    write("k/inner.txt", "x");
                    std::fs::remove_dir_all(root.join("new")).unwrap();
                    write("new", "a file now");
                }),
            ),
        ];
        let repo = Repo::open_at(root, &Location::default()).unwrap();
        let head = |root: &Path| git(root, &["rev-parse", "HEAD"]);
        let base = head(root);
        assert_eq!(
            repo.commit_paths(None, &base).unwrap(),
            libgit2_paths(&repo, None, &base),
            "the first commit"
        );
        let mut parent = Some(base);
        for (what, change) in steps {
            change();
            git(root, &["add", "-A"]);
            git(root, &["commit", "-qm", what]);
            let commit = head(root);
            let ours = repo.commit_paths(parent.as_deref(), &commit).unwrap();
            assert!(!ours.is_empty(), "{what}");
            assert_eq!(ours, libgit2_paths(&repo, parent.as_deref(), &commit), "{what}");
            parent = Some(commit);
        }
    }
}
