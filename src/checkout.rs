//! A revision checked out beside the repository: a detached `git worktree`
//! in a temporary directory, its files written from their blobs (no filter
//! or hook of the repository runs), removed (and pruned from the repository's
//! worktree list) when the run ends, fails, or is interrupted. The static
//! gate runs its tools on the base revision there (`--new-only`, holding
//! the line); the pre-push hook gates a pushed commit that is not the
//! checked-out work there, on its own files.

use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{Context, Result, bail};

use crate::interrupt::{self, Registered};
use crate::process;

/// Untracked directories the tools' configs need from the repository:
/// the dependencies that hold their plugins.
pub const DEPENDENCIES: &[&str] = &["node_modules"];

/// [`DEPENDENCIES`] and the virtualenvs the project's own tools are
/// installed in: for a checkout the gates judge as the repository itself.
pub const WITH_TOOLS: &[&str] = &["node_modules", ".venv", "venv"];

pub struct Checkout {
    root: PathBuf,
    path: PathBuf,
    /// Only some files, written from their blobs: no worktree to remove.
    files_only: bool,
    /// Removes the worktree if the run is interrupted while it exists.
    _guard: Registered,
}

impl Checkout {
    /// Check out `rev` of the repository at `root`, with the repository's
    /// directories `shared` ([`DEPENDENCIES`], [`WITH_TOOLS`]) linked in.
    pub fn new(root: &Path, rev: &str, timeout: Duration, shared: &[&str]) -> Result<Checkout> {
        let dir = tempfile::Builder::new()
            .prefix("loki-gate-rev-")
            .tempdir()
            .with_context(|| {
                format!(
                    "could not create a temporary directory to check out {}",
                    crate::git::short(rev)
                )
            })?;
        // From here on the worktree's removal owns the directory.
        let path = dir.keep();
        let path = path.canonicalize().unwrap_or(path);
        let guard = {
            let (root, path) = (root.to_path_buf(), path.clone());
            interrupt::on_interrupt(move || remove(&root, &path))
        };
        let checkout = Checkout {
            root: root.to_path_buf(),
            path,
            files_only: false,
            _guard: guard,
        };
        let mut add = crate::git::git_command();
        // No checkout by git: it would run the repository's smudge filters
        // and `post-checkout` hook, which the change may have written.
        add.args(["worktree", "add", "--detach", "--no-checkout", "--quiet"])
            .arg(&checkout.path)
            .arg(rev);
        let output = process::run(add, root, timeout)
            .with_context(|| format!("could not run git to check out {}", crate::git::short(rev)))?;
        if !output.success() {
            let said = output
                .stderr
                .lines()
                .find(|l| !l.trim().is_empty())
                .unwrap_or("")
                .trim();
            bail!(
                "could not check out {} in a temporary worktree (git worktree add: {said})",
                crate::git::short(rev),
            );
        }
        crate::git::check_out_files(&checkout.path)?;
        checkout.share(shared, timeout);
        Ok(checkout)
    }

    /// Only `paths` (repo-relative) of `rev`, each that exists there, written
    /// from its blob into a temporary directory (under the size cap; a
    /// symlink is left out): for a tool that judges each file by itself.
    /// Neither the repository's index nor its config is touched.
    pub fn files(repo: &crate::git::Repo, rev: &str, paths: &std::collections::BTreeSet<PathBuf>) -> Result<Checkout> {
        let dir = tempfile::Builder::new()
            .prefix("loki-gate-base-")
            .tempdir()
            .context("could not create a temporary directory for the base revision's files")?;
        let path = dir.keep();
        let path = path.canonicalize().unwrap_or(path);
        let guard = {
            let path = path.clone();
            interrupt::on_interrupt(move || {
                let _ = std::fs::remove_dir_all(&path);
            })
        };
        let checkout = Checkout {
            root: repo.root().to_path_buf(),
            path,
            files_only: true,
            _guard: guard,
        };
        for rel in paths {
            let Some(id) = repo.file_id_at(rev, rel)? else {
                continue;
            };
            let crate::git::BlobRead::Content(bytes) = repo.blob_capped(&id)? else {
                continue;
            };
            let to = checkout.path.join(rel);
            if let Some(parent) = to.parent() {
                std::fs::create_dir_all(parent)
                    .with_context(|| format!("could not write the base version of {}", rel.display()))?;
            }
            std::fs::write(&to, bytes)
                .with_context(|| format!("could not write the base version of {}", rel.display()))?;
        }
        Ok(checkout)
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Directories git does not track (`node_modules`, a virtualenv) are
    /// linked from the repository, so the tools' configs resolve their
    /// plugins (and, with [`WITH_TOOLS`], the project's own tools are
    /// found). Only where git ignores them: a link git would see is a
    /// change of its own.
    fn share(&self, shared: &[&str], timeout: Duration) {
        for dir in shared {
            let (from, to) = (self.root.join(dir), self.path.join(dir));
            if from.is_dir() && !to.exists() && self.ignores(dir, timeout) {
                #[cfg(unix)]
                let _ = std::os::unix::fs::symlink(&from, &to);
                #[cfg(not(unix))]
                let _ = (from, to);
            }
        }
    }

    /// Does git ignore `name` (a top-level directory) in the checkout?
    fn ignores(&self, name: &str, timeout: Duration) -> bool {
        let mut check = crate::git::git_command();
        check
            .args(["check-ignore", "-q", "--no-index", "--"])
            .arg(format!("{name}/"));
        process::run(check, &self.path, timeout).is_ok_and(|o| o.success())
    }
}

impl Drop for Checkout {
    fn drop(&mut self) {
        if self.files_only {
            let _ = std::fs::remove_dir_all(&self.path);
            return;
        }
        remove(&self.root, &self.path);
    }
}

/// Remove the worktree and forget it; safe to run twice.
fn remove(root: &Path, path: &Path) {
    let git = |args: &[&str], extra: Option<&Path>| {
        let mut command = crate::git::git_command();
        command.args(args);
        if let Some(extra) = extra {
            command.arg(extra);
        }
        let _ = process::run(command, root, Duration::from_secs(60));
    };
    if path.exists() {
        git(&["worktree", "remove", "--force"], Some(path));
        let _ = std::fs::remove_dir_all(path);
    }
    git(&["worktree", "prune"], None);
}
