//! What a run gates: the changed files and lines for `--base`, `--staged` or
//! `--all-files`, with `exclude:` and loki-gate's own state directory removed.

use std::path::{Path, PathBuf};

use anyhow::Result;
use globset::GlobSet;

use crate::git::{Base, Detail, FileDiff, Repo, Side, Status};

/// Which part of the repository a run looks at.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Scope {
    /// Changes since `merge-base(base, HEAD)`: committed, staged, unstaged, untracked.
    Diff { base: Option<String> },
    /// Only what is staged, against HEAD (hook mode).
    Staged,
    /// Every tracked file, whole.
    AllFiles,
    /// These tracked files (repo-relative), whole: the file names a
    /// pre-commit framework hook is given in `pre-commit run --all-files`.
    Files(Vec<PathBuf>),
}

impl Scope {
    /// Whole files, without a change to compare (`AllFiles` or `Files`).
    pub fn is_whole(&self) -> bool {
        matches!(self, Scope::AllFiles | Scope::Files(_))
    }

    /// Is `path` (repo-relative) inside a `Files` scope's list (always, for the others)?
    pub fn admits(&self, path: &std::path::Path) -> bool {
        match self {
            Scope::Files(paths) => paths.binary_search_by(|p| p.as_path().cmp(path)).is_ok(),
            _ => true,
        }
    }
}

/// The lines of a file that count as changed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Lines {
    /// The whole file (new file, or `--all-files`).
    All,
    /// Inclusive ranges of added or modified lines, ascending.
    Ranges(Vec<(u32, u32)>),
}

impl Lines {
    pub fn contains(&self, line: u32) -> bool {
        match self {
            Lines::All => true,
            Lines::Ranges(r) => r.iter().any(|&(a, b)| (a..=b).contains(&line)),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChangedFile {
    /// Repo-relative.
    pub path: PathBuf,
    /// Where a renamed file was at the base; for a symlink whose target
    /// the change edits, where the target was.
    pub old_path: Option<PathBuf>,
    pub status: Status,
    pub binary: bool,
    pub lines: Lines,
    /// Diff hunks with context, for the `diff-context` filter.
    pub hunks: Vec<(u32, u32)>,
}

#[derive(Debug, Clone)]
pub struct ChangeSet {
    /// `None` for `--all-files`.
    pub base: Option<Base>,
    pub files: Vec<ChangedFile>,
}

impl ChangeSet {
    /// This change without the files under `dirs`, as [`collect`] leaves
    /// them out; itself when it has none there.
    pub fn without(&self, dirs: &[PathBuf]) -> std::borrow::Cow<'_, ChangeSet> {
        let under = |f: &ChangedFile| dirs.iter().any(|d| f.path.starts_with(d));
        if !self.files.iter().any(under) {
            return std::borrow::Cow::Borrowed(self);
        }
        std::borrow::Cow::Owned(ChangeSet {
            base: self.base.clone(),
            files: self.files.iter().filter(|f| !under(f)).cloned().collect(),
        })
    }

    /// Files that still exist and can be read (not deleted).
    pub fn present(&self) -> impl Iterator<Item = &ChangedFile> {
        self.files.iter().filter(|f| f.status != Status::Deleted)
    }

    /// Notes about how the base was chosen.
    pub fn notes(&self) -> &[String] {
        self.base.as_ref().map_or(&[], |b| b.notes.as_slice())
    }
}

/// Collect the change set for `scope`, leaving out `exclude` matches and `skip_dirs`.
pub fn collect(repo: &Repo, scope: &Scope, exclude: &GlobSet, skip_dirs: &[PathBuf]) -> Result<ChangeSet> {
    let (base, diffs) = match scope {
        Scope::AllFiles | Scope::Files(_) => {
            let tracked = repo.tracked_files()?;
            let mut files: Vec<(PathBuf, Status)> = tracked
                .iter()
                .filter(|p| !skip_dirs.iter().any(|d| p.starts_with(d)) && scope.admits(p))
                .map(|p| (p.clone(), Status::Modified))
                .collect();
            // A file named that git does not track yet (one an agent just
            // wrote), when it is there and not ignored.
            if let Scope::Files(named) = scope {
                files.extend(
                    named
                        .iter()
                        .filter(|p| !tracked.contains(*p) && !skip_dirs.iter().any(|d| p.starts_with(d)))
                        .filter(|p| repo.root().join(p).is_file() && !repo.is_ignored(p))
                        .map(|p| (p.clone(), Status::Untracked)),
                );
                files.sort_by(|a, b| a.0.cmp(&b.0));
            }
            let files = files
                .into_iter()
                .map(|(path, status)| FileDiff {
                    path,
                    old_path: None,
                    status,
                    binary: false,
                    added: Vec::new(),
                    hunks: Vec::new(),
                    unread: None,
                })
                .collect();
            (None, files)
        }
        Scope::Staged => {
            let head = repo.head()?;
            let base = Base::at(head);
            let diffs = repo.diff(Side::Staged(&base), skip_dirs, Detail::Lines)?;
            (Some(base), diffs)
        }
        Scope::Diff { base } => {
            let base = repo.resolve_base(base.as_deref())?;
            let diffs = repo.diff(Side::Worktree(&base), skip_dirs, Detail::Lines)?;
            (Some(base), diffs)
        }
    };
    let whole = base.is_none();
    let mut base = base;
    let unread: Vec<String> = diffs
        .iter()
        .filter(|d| !exclude.is_match(&d.path))
        .filter_map(|d| Some(format!("{}: {}", crate::git::display_path(&d.path), d.unread.as_ref()?)))
        .collect();
    if let (Some(base), Some(first)) = (base.as_mut(), unread.first()) {
        base.notes.push(format!(
            "{} changed file(s) count as changed throughout, their changed lines unknown (the first: {first})",
            unread.len()
        ));
    }
    let files = diffs
        .into_iter()
        .filter(|d| !exclude.is_match(&d.path))
        .map(|d| ChangedFile {
            lines: if whole || d.unread.is_some() || matches!(d.status, Status::Added | Status::Untracked) {
                Lines::All
            } else {
                Lines::Ranges(ranges(&d.added))
            },
            path: d.path,
            old_path: d.old_path,
            status: d.status,
            binary: d.binary,
            hunks: d.hunks,
        })
        .collect();
    let mut files = files;
    // A staged run reads the index, where a link is its target's name.
    if let Scope::Diff { .. } = scope {
        through_links(repo, &mut files, exclude, skip_dirs)?;
    }
    Ok(ChangeSet { base, files })
}

/// Add to `files` each tracked symlink whose target (inside the
/// repository) the change edits, with the target's changed lines: a test
/// runner collects the link as the file it leads to (`tests/test_cart.py`
/// a link to `helpers/cart_checks.py`), so a change to the target is a
/// change to that test (issue 63). Its `old_path` is the target's, where
/// its content was at the base.
fn through_links(repo: &Repo, files: &mut Vec<ChangedFile>, exclude: &GlobSet, skip_dirs: &[PathBuf]) -> Result<()> {
    let links = repo.index()?.links();
    if links.is_empty() {
        return Ok(());
    }
    let changed: std::collections::HashMap<&Path, &ChangedFile> = files
        .iter()
        .filter(|f| f.status != Status::Deleted)
        .map(|f| (f.path.as_path(), f))
        .collect();
    let mut added = Vec::new();
    for link in links {
        if changed.contains_key(link.as_path())
            || exclude.is_match(&link)
            || skip_dirs.iter().any(|d| link.starts_with(d))
        {
            continue;
        }
        let Some(target) = crate::git::relative_to(repo.root(), &repo.root().join(&link)).filter(|t| *t != link) else {
            continue;
        };
        let Some(file) = changed.get(target.as_path()) else {
            continue;
        };
        let status = match file.status {
            Status::Added | Status::Untracked => file.status,
            _ => Status::Modified,
        };
        added.push(ChangedFile {
            path: link,
            old_path: Some(file.old_path.clone().unwrap_or_else(|| file.path.clone())),
            status,
            binary: file.binary,
            lines: file.lines.clone(),
            hunks: file.hunks.clone(),
        });
    }
    if !added.is_empty() {
        files.extend(added);
        files.sort_by(|a, b| a.path.cmp(&b.path));
    }
    Ok(())
}

/// The version of `file` at the `base` commit (at its old path when it was
/// renamed), read with the size cap; `None` when the change added it or
/// the base has no file there.
pub fn base_blob(repo: &Repo, base: &str, file: &ChangedFile) -> Result<Option<crate::git::BlobRead>> {
    if matches!(file.status, Status::Added | Status::Untracked) {
        return Ok(None);
    }
    let path = file.old_path.as_deref().unwrap_or(&file.path);
    match repo.blob_id_at(base, path)? {
        Some(id) => repo.blob_capped(&id).map(Some),
        None => Ok(None),
    }
}

/// Compress ascending line numbers into inclusive ranges.
pub fn ranges(lines: &[u32]) -> Vec<(u32, u32)> {
    let mut out: Vec<(u32, u32)> = Vec::new();
    for &n in lines {
        match out.last_mut() {
            Some((_, end)) if n == *end + 1 => *end = n,
            _ => out.push((n, n)),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn consecutive_lines_merge_into_ranges() {
        assert_eq!(ranges(&[1, 2, 3, 7, 9, 10]), vec![(1, 3), (7, 7), (9, 10)]);
        assert!(ranges(&[]).is_empty());
        let lines = Lines::Ranges(ranges(&[4, 5]));
        assert!(lines.contains(5) && !lines.contains(6));
    }
}
