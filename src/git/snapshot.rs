//! The working tree as git objects: what a coding agent's session starts
//! from, kept as a commit a diff can be taken against, without touching
//! the user's index, branches or stash (as `git stash create`, with the
//! untracked files too, and no reflog).

use std::path::PathBuf;

use anyhow::{Context, Result, anyhow};
use git2::{Delta, DiffOptions, FileMode, Oid};

use super::{Repo, plain};

/// Where loki-gate keeps the commits it makes of a working tree. A base
/// named under it is compared with as it is (no merge base with HEAD: the
/// snapshot is a child of the HEAD it was taken at, never an ancestor).
pub const SNAPSHOT_REFS: &str = "refs/loki-gate/sessions/";

impl Repo {
    /// The content of the working tree as a tree object: HEAD's tree with
    /// every staged, unstaged and untracked-not-ignored change written in
    /// (the blobs go to the object database; nothing else changes). Paths
    /// under `skip` (the state directory), and files over the size cap, are
    /// left as HEAD has them. The tree's id (hex) is equal for equal
    /// content, whatever is committed or staged.
    /// Taken once a run (a repository opened for one run): the gates that
    /// diff against a snapshot read the same working tree, and the test
    /// runs between them leave no mark on it.
    pub fn worktree_tree(&self, skip: &[PathBuf]) -> Result<String> {
        // A directory git ignores (the state directory, once it is in
        // `info/exclude`) is left out either way: one tree for both asks.
        let skip: Vec<PathBuf> = skip.iter().filter(|d| !self.is_ignored(d)).cloned().collect();
        if let Some((left_out, tree)) = self.worktree.borrow().as_ref()
            && *left_out == skip
        {
            return Ok(tree.clone());
        }
        let tree = self.write_worktree_tree(&skip)?;
        *self.worktree.borrow_mut() = Some((skip, tree.clone()));
        Ok(tree)
    }

    fn write_worktree_tree(&self, skip: &[PathBuf]) -> Result<String> {
        let head = self.head()?;
        let head_tree = match &head {
            Some(_) => self.tree_of(head.as_deref())?,
            None => None,
        };
        self.git2_index()?;
        let mut opts = DiffOptions::new();
        opts.include_untracked(true)
            .recurse_untracked_dirs(true)
            .ignore_submodules(true)
            .include_typechange(true);
        let diff = self
            .inner
            .diff_tree_to_workdir_with_index(head_tree.as_ref(), Some(&mut opts))
            .context("could not compare the working tree with HEAD")?;
        let cap = crate::walk::max_file_bytes();
        let sparse = self.outside_checkout()?;
        let mut update = git2::build::TreeUpdateBuilder::new();
        let mut written = std::collections::HashSet::new();
        for delta in diff.deltas() {
            let Some(path) = delta.new_file().path().or(delta.old_file().path()) else {
                continue;
            };
            if skip.iter().any(|s| path.starts_with(s)) || sparse.contains(path) {
                continue;
            }
            if delta.status() == Delta::Deleted {
                update.remove(path);
                continue;
            }
            self.write_from_disk(&mut update, path, cap)?;
            written.insert(path.to_path_buf());
        }
        // The files git was told not to look at (`--skip-worktree`,
        // `--assume-unchanged`) are in the working tree as they are on
        // disk: an agent could hide its edit to a test that way (issue
        // 63). One a sparse checkout left out is not on disk: HEAD's stays.
        for path in self.hidden_on_disk()? {
            if !written.contains(path) && !skip.iter().any(|s| path.starts_with(s)) {
                self.write_from_disk(&mut update, path, cap)?;
            }
        }
        let base = match head_tree {
            Some(tree) => tree,
            None => {
                let empty = self.inner.treebuilder(None)?.write()?;
                self.inner.find_tree(empty)?
            }
        };
        let tree = update
            .create_updated(&self.inner, &base)
            .map_err(|e| anyhow!("could not write the working tree's snapshot: {}", plain(&e)))?;
        Ok(tree.to_string())
    }

    /// The tracked files on disk that git was told not to look at
    /// (`--skip-worktree`, `--assume-unchanged`), read once a run.
    pub(super) fn hidden_on_disk(&self) -> Result<&[PathBuf]> {
        if let Some(hidden) = self.hidden.get() {
            return Ok(hidden);
        }
        let found: Vec<PathBuf> = self
            .index()?
            .unwatched()
            .into_iter()
            .filter(|p| std::fs::symlink_metadata(self.root.join(p)).is_ok())
            .collect();
        Ok(self.hidden.get_or_init(|| found))
    }

    /// Write the file at `path` as it is on disk into `update` (a file over
    /// `cap` bytes stays as HEAD has it; one gone since is deleted).
    fn write_from_disk(
        &self,
        update: &mut git2::build::TreeUpdateBuilder,
        path: &std::path::Path,
        cap: u64,
    ) -> Result<()> {
        let on_disk = self.root.join(path);
        let meta = match std::fs::symlink_metadata(&on_disk) {
            Ok(meta) => meta,
            // Gone since the diff was taken: as deleted.
            Err(_) => {
                update.remove(path);
                return Ok(());
            }
        };
        let (id, mode) = if meta.file_type().is_symlink() {
            let target = std::fs::read_link(&on_disk)
                .with_context(|| format!("could not read the symlink {}", on_disk.display()))?;
            let bytes = target.as_os_str().as_encoded_bytes();
            (self.inner.blob(bytes)?, FileMode::Link)
        } else if meta.is_file() {
            if meta.len() > cap {
                return Ok(());
            }
            let bytes = std::fs::read(&on_disk).with_context(|| format!("could not read {}", on_disk.display()))?;
            (self.inner.blob(&bytes)?, file_mode(&meta))
        } else {
            return Ok(());
        };
        update.upsert(path, id, mode);
        Ok(())
    }

    /// Is `commit` off HEAD's history (neither HEAD nor an ancestor of it):
    /// a snapshot of a working tree ([`SNAPSHOT_REFS`])?
    pub(super) fn off_history(&self, commit: Option<&str>) -> Result<bool> {
        let Some(commit) = commit else {
            return Ok(false);
        };
        // With no commit yet, any commit is a snapshot's.
        let Some(head) = self.head()? else {
            return Ok(true);
        };
        if commit == head {
            return Ok(false);
        }
        let (commit, head) = (Oid::from_str(commit)?, Oid::from_str(&head)?);
        Ok(!self.inner.graph_descendant_of(head, commit)?)
    }

    /// The tree of `commit`, as hex.
    pub fn tree_id(&self, commit: &str) -> Result<String> {
        Ok(self
            .tree_of(Some(commit))?
            .map(|t| t.id().to_string())
            .unwrap_or_default())
    }

    /// Keep `tree` as a commit on HEAD (no parent in a repository without
    /// commits), named by the ref `SNAPSHOT_REFS` + `name`; the ref's name.
    pub fn keep_snapshot(&self, tree: &str, name: &str, message: &str) -> Result<String> {
        let tree = self.inner.find_tree(Oid::from_str(tree)?)?;
        let parent = match self.head()? {
            Some(head) => Some(self.inner.find_commit(Oid::from_str(&head)?)?),
            None => None,
        };
        let who = git2::Signature::now("loki-gate", "loki-gate@localhost")?;
        let parents: Vec<&git2::Commit<'_>> = parent.iter().collect();
        let commit = self
            .inner
            .commit(None, &who, &who, message, &tree, &parents)
            .map_err(|e| anyhow!("could not record the session's snapshot: {}", plain(&e)))?;
        let reference = format!("{SNAPSHOT_REFS}{name}");
        self.inner
            .reference(&reference, commit, true, "loki-gate: session snapshot")
            .map_err(|e| anyhow!("could not keep the session's snapshot as {reference}: {}", plain(&e)))?;
        Ok(reference)
    }

    /// Drop the snapshot ref `SNAPSHOT_REFS` + `name`, when there is one.
    pub fn drop_snapshot(&self, name: &str) -> Result<()> {
        match self.inner.find_reference(&format!("{SNAPSHOT_REFS}{name}")) {
            Ok(mut reference) => reference
                .delete()
                .map_err(|e| anyhow!("could not delete {SNAPSHOT_REFS}{name}: {}", plain(&e))),
            Err(_) => Ok(()),
        }
    }
}

/// Does `rev` name one of loki-gate's snapshots?
pub fn is_snapshot(rev: &str) -> bool {
    rev.starts_with(SNAPSHOT_REFS)
}

#[cfg(unix)]
fn file_mode(meta: &std::fs::Metadata) -> FileMode {
    use std::os::unix::fs::PermissionsExt as _;
    if meta.permissions().mode() & 0o111 != 0 {
        FileMode::BlobExecutable
    } else {
        FileMode::Blob
    }
}

#[cfg(not(unix))]
fn file_mode(_: &std::fs::Metadata) -> FileMode {
    FileMode::Blob
}

#[cfg(test)]
mod tests {
    use super::super::testing::{git, repo};
    use super::*;
    use crate::git::{Detail, Side, Status};

    #[test]
    fn a_snapshot_keeps_untracked_staged_and_deleted_files_and_diffs_as_it_was() {
        let dir = repo();
        let root = dir.path();
        std::fs::write(root.join("kept.txt"), "a\n").unwrap();
        std::fs::write(root.join("gone.txt"), "b\n").unwrap();
        git(root, &["add", "."]);
        git(root, &["commit", "-qm", "base"]);
        std::fs::write(root.join("new.txt"), "untracked\n").unwrap();
        std::fs::write(root.join("kept.txt"), "a\nstaged\n").unwrap();
        git(root, &["add", "kept.txt"]);
        std::fs::remove_file(root.join("gone.txt")).unwrap();
        std::fs::create_dir(root.join(".state")).unwrap();
        std::fs::write(root.join(".state/x"), "state\n").unwrap();
        std::fs::write(root.join(".git/info/exclude"), "/.ignored/\n").unwrap();
        std::fs::create_dir(root.join(".ignored")).unwrap();
        std::fs::write(root.join(".ignored/y"), "ignored\n").unwrap();
        let index_before = std::fs::read(root.join(".git/index")).unwrap();
        let branches = git(root, &["for-each-ref", "refs/heads", "refs/stash"]);
        let skip = [PathBuf::from(".state")];
        let tree = Repo::discover(root).unwrap().worktree_tree(&skip).unwrap();
        let listed = git(root, &["ls-tree", "--name-only", &tree]);
        assert_eq!(listed, "kept.txt\nnew.txt");
        // An ignored directory is left out whether it is named or not.
        let again = Repo::discover(root).unwrap();
        assert!(again.is_ignored(std::path::Path::new(".ignored")));
        let named = again
            .worktree_tree(&[PathBuf::from(".state"), PathBuf::from(".ignored")])
            .unwrap();
        assert_eq!(named, tree);
        let repo = Repo::discover(root).unwrap();
        let name = repo.keep_snapshot(&tree, "s", "snapshot").unwrap();
        // The user's index and branches as they were.
        assert_eq!(std::fs::read(root.join(".git/index")).unwrap(), index_before);
        assert_eq!(git(root, &["for-each-ref", "refs/heads", "refs/stash"]), branches);
        // Nothing changed since: an empty diff, though the untracked file
        // is still not in the index.
        let base = repo.resolve_base(Some(&name)).unwrap();
        assert_eq!(Some(git(root, &["rev-parse", &name])), base.commit);
        let fresh = Repo::discover(root).unwrap();
        assert!(
            fresh
                .diff(Side::Worktree(&base), &skip, Detail::Lines)
                .unwrap()
                .is_empty()
        );
        // A change after it is the diff.
        std::fs::write(root.join("new.txt"), "untracked\nmore\n").unwrap();
        let fresh = Repo::discover(root).unwrap();
        let diff = fresh.diff(Side::Worktree(&base), &skip, Detail::Lines).unwrap();
        assert_eq!(diff.len(), 1);
        assert_eq!(
            (diff[0].path.as_path(), diff[0].status, diff[0].added.as_slice()),
            (std::path::Path::new("new.txt"), Status::Modified, &[2][..])
        );
        fresh.drop_snapshot("s").unwrap();
        assert!(!fresh.commit_exists(&name));
    }
}
