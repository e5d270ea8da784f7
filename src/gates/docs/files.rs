//! The files a package's API is read from: the working tree, or the tree
//! of the base commit read through git (what the package published before
//! the change).

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use crate::git::{BlobRead, Repo};

/// Repo-relative reads of one tree of files.
pub trait Files {
    /// The file's bytes; `None` when it is not there, or cannot be read
    /// (out of the repository, over the size cap, not fetched).
    fn read(&self, path: &Path) -> Option<Vec<u8>>;
    fn is_file(&self, path: &Path) -> bool;
    fn is_dir(&self, path: &Path) -> bool;
}

/// The working tree at `root`.
pub struct WorkTree<'a>(pub &'a Path);

impl Files for WorkTree<'_> {
    fn read(&self, path: &Path) -> Option<Vec<u8>> {
        crate::walk::read_file(self.0, path).ok()
    }

    fn is_file(&self, path: &Path) -> bool {
        // Never a file out of the repository, through a link.
        crate::walk::inside(self.0, path).is_ok_and(|p| self.0.join(p).is_file())
    }

    fn is_dir(&self, path: &Path) -> bool {
        self.0.join(path).is_dir()
    }
}

/// The tree of a commit: its paths listed once, each blob read when asked for.
pub struct AtCommit<'r> {
    repo: &'r Repo,
    files: HashMap<PathBuf, String>,
    dirs: HashSet<PathBuf>,
}

impl<'r> AtCommit<'r> {
    pub fn new(repo: &'r Repo, commit: &str) -> anyhow::Result<AtCommit<'r>> {
        let files: HashMap<PathBuf, String> = repo.files_at(commit)?.into_iter().collect();
        let dirs = files
            .keys()
            .flat_map(|p| p.ancestors().skip(1).map(Path::to_path_buf))
            .collect();
        Ok(AtCommit { repo, files, dirs })
    }
}

impl AtCommit<'_> {
    /// The files directly in `dir`, sorted.
    pub fn files_in(&self, dir: &Path) -> Vec<&Path> {
        let mut paths: Vec<&Path> = self
            .files
            .keys()
            .filter(|p| p.parent() == Some(dir))
            .map(PathBuf::as_path)
            .collect();
        paths.sort();
        paths
    }
}

impl Files for AtCommit<'_> {
    fn read(&self, path: &Path) -> Option<Vec<u8>> {
        match self.repo.blob_capped(self.files.get(path)?) {
            Ok(BlobRead::Content(bytes)) => Some(bytes),
            _ => None,
        }
    }

    fn is_file(&self, path: &Path) -> bool {
        self.files.contains_key(path)
    }

    fn is_dir(&self, path: &Path) -> bool {
        self.dirs.contains(path)
    }
}
