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

/// A working tree written as git objects.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WorktreeTree {
    /// The tree: equal for equal content, whatever is committed or staged.
    pub tree: String,
    /// Files left out, over the size cap (they count as they are in HEAD).
    pub over_cap: Vec<PathBuf>,
}

impl Repo {
    /// The content of the working tree as a tree object: HEAD's tree with
    /// every staged, unstaged and untracked-not-ignored change written in
    /// (the blobs go to the object database; nothing else changes). Paths
    /// under `skip` (the state directory) are left as HEAD has them.
    pub fn worktree_tree(&self, skip: &[PathBuf]) -> Result<WorktreeTree> {
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
        let mut over_cap = Vec::new();
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
            let on_disk = self.root.join(path);
            let meta = match std::fs::symlink_metadata(&on_disk) {
                Ok(meta) => meta,
                // Gone since the diff was taken: as deleted.
                Err(_) => {
                    update.remove(path);
                    continue;
                }
            };
            let (id, mode) = if meta.file_type().is_symlink() {
                let target = std::fs::read_link(&on_disk)
                    .with_context(|| format!("could not read the symlink {}", on_disk.display()))?;
                let bytes = target.as_os_str().as_encoded_bytes();
                (self.inner.blob(bytes)?, FileMode::Link)
            } else if meta.is_file() {
                if meta.len() > cap {
                    over_cap.push(path.to_path_buf());
                    continue;
                }
                let bytes = std::fs::read(&on_disk).with_context(|| format!("could not read {}", on_disk.display()))?;
                (self.inner.blob(&bytes)?, file_mode(&meta))
            } else {
                continue;
            };
            update.upsert(path, id, mode);
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
        Ok(WorktreeTree {
            tree: tree.to_string(),
            over_cap,
        })
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
