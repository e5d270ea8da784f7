//! The files of one commit, read by path: the runner configs of the
//! trusted revision, asked of every directory a change touches.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use git2::{Oid, Repository};

/// The files of one commit ([`super::Repo::reader_at`]).
pub struct RevFiles {
    repo: Mutex<Repository>,
    tree: Oid,
    /// Each directory's entries (name, id, a file?) once listed; `None`
    /// where there is no directory. A lookup from the root re-read every
    /// tree on the way (libgit2 caches no tree over 4 KiB): the runner
    /// configs asked of each directory of 100,000 files took 7 s so.
    dirs: Mutex<HashMap<PathBuf, Option<Listing>>>,
}

type Listing = Arc<HashMap<Vec<u8>, (Oid, bool)>>;

impl std::fmt::Debug for RevFiles {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "RevFiles({})", self.tree)
    }
}

impl RevFiles {
    pub(super) fn new(repo: Repository, tree: Oid) -> RevFiles {
        RevFiles {
            repo: Mutex::new(repo),
            tree,
            dirs: Mutex::default(),
        }
    }

    /// The content of `path` (repository-relative) there; `None` when it
    /// is not there as a file, or its blob is missing (a partial clone).
    pub fn read(&self, path: &Path) -> Option<Vec<u8>> {
        let repo = self.repo.lock().unwrap_or_else(|e| e.into_inner());
        let name = super::index::path_bytes(Path::new(path.file_name()?))?;
        let listing = self.listing(&repo, path.parent().unwrap_or(Path::new("")))?;
        match listing.get(name.as_ref()) {
            Some(&(id, true)) => Some(repo.find_blob(id).ok()?.content().to_vec()),
            _ => None,
        }
    }

    /// The entries of directory `dir`, listed once.
    fn listing(&self, repo: &Repository, dir: &Path) -> Option<Listing> {
        if let Some(known) = self.dirs.lock().unwrap_or_else(|e| e.into_inner()).get(dir) {
            return known.clone();
        }
        // The root is the empty path; a `.` or `..` part names nothing here.
        let id = match (dir.parent(), dir.file_name()) {
            _ if dir.as_os_str().is_empty() => Some(self.tree),
            (Some(parent), Some(name)) => {
                let name = super::index::path_bytes(Path::new(name));
                match (self.listing(repo, parent), name) {
                    (Some(above), Some(name)) => above.get(name.as_ref()).filter(|(_, file)| !file).map(|(id, _)| *id),
                    _ => None,
                }
            }
            _ => None,
        };
        let listing = id.and_then(|id| repo.find_tree(id).ok()).map(|tree| {
            let entries = tree
                .iter()
                .map(|e| {
                    let file = e.kind() == Some(git2::ObjectType::Blob);
                    (e.name_bytes().to_vec(), (e.id(), file))
                })
                .collect();
            Arc::new(entries)
        });
        self.dirs
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(dir.to_path_buf(), listing.clone());
        listing
    }
}
