//! Repo-relative paths, as the git layer takes and shows them.

use std::path::{Path, PathBuf};

/// `path` relative to the repository at `root` (canonical, as [`Repo::root`]
/// is), through its real location when it exists (symlinks resolved);
/// `None` when it lies outside.
pub fn relative_to(root: &Path, path: &Path) -> Option<PathBuf> {
    let abs = path.canonicalize().unwrap_or_else(|_| path.to_path_buf());
    abs.strip_prefix(root).ok().map(Path::to_path_buf)
}

/// A repo-relative path as findings show it: `/` separators, lossy UTF-8.
pub fn display_path(path: &Path) -> String {
    let s = path.to_string_lossy();
    if std::path::MAIN_SEPARATOR == '/' {
        s.into_owned()
    } else {
        s.replace(std::path::MAIN_SEPARATOR, "/")
    }
}
