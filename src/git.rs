//! The git layer. git2 stays inside this file: callers see paths, revisions
//! as hex strings, and plain structs.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, anyhow, bail};
use git2::{Delta, DiffFindOptions, DiffOptions, ErrorCode, Oid, Repository, Tree};

/// An open repository with a working tree.
pub struct Repo {
    inner: Repository,
    root: PathBuf,
    /// The index git named in `GIT_INDEX_FILE` (absolute), when it named one.
    index_file: Option<PathBuf>,
}

/// Where the repository is, as the variables git sets for a hook say it
/// (`GIT_DIR`, `GIT_WORK_TREE`, `GIT_INDEX_FILE`), relative values resolved
/// against the directory loki-gate starts from, as `git -C` resolves them.
/// `git commit -a` and `git commit <paths>` run the pre-commit hook with
/// `GIT_INDEX_FILE` naming a temporary index that holds what is about to be
/// committed; `.git/index` does not have it yet. A linked worktree's hook
/// gets `GIT_DIR`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Location {
    pub git_dir: Option<PathBuf>,
    pub work_tree: Option<PathBuf>,
    pub index_file: Option<PathBuf>,
}

impl Location {
    /// Read the variables through `env` (empty values count as unset).
    pub fn from_env(start: &Path, env: &dyn Fn(&str) -> Option<std::ffi::OsString>) -> Location {
        let var = |name: &str| {
            env(name)
                .filter(|v| !v.is_empty())
                .map(|v| start.join(PathBuf::from(v)))
        };
        Location {
            git_dir: var("GIT_DIR"),
            work_tree: var("GIT_WORK_TREE"),
            index_file: var("GIT_INDEX_FILE"),
        }
    }
}

/// The variables git sets for hooks that say where the repository is; a
/// command loki-gate runs gets none of them (it finds its repository, or
/// none, as it would outside a hook).
pub const LOCATION_VARS: &[&str] = &[
    "GIT_DIR",
    "GIT_WORK_TREE",
    "GIT_INDEX_FILE",
    "GIT_PREFIX",
    "GIT_COMMON_DIR",
];

/// The revision changes are measured from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Base {
    /// The commit (hex); `None` means the empty tree (everything is new).
    pub commit: Option<String>,
    /// Things the user should know about how the base was chosen.
    pub notes: Vec<String>,
    /// Why the base that was wanted could not be reached: this is a shallow
    /// clone and the base (or HEAD's parent) lies beyond its history.
    pub unreachable: Option<String>,
}

impl Base {
    /// A base at `commit` (`None`: the empty tree), chosen without notes.
    pub fn at(commit: Option<String>) -> Base {
        Base {
            commit,
            notes: Vec::new(),
            unreachable: None,
        }
    }
}

/// What happened to a file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    Added,
    Modified,
    Deleted,
    Renamed,
    Untracked,
    TypeChange,
}

/// One changed file with its changed lines (in the new version).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileDiff {
    pub path: PathBuf,
    pub old_path: Option<PathBuf>,
    pub status: Status,
    pub binary: bool,
    /// Line numbers added or modified, ascending.
    pub added: Vec<u32>,
    /// Hunks with 3 lines of context: `(first line, last line)` in the new file.
    pub hunks: Vec<(u32, u32)>,
    /// Why the changed lines are not known (a side's content is not in this
    /// partial clone, or is over the size cap): the whole file counts.
    pub unread: Option<String>,
}

/// How much a diff computes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Detail {
    /// Which files changed, without reading their content (no renames, no lines).
    Paths,
    /// Files with renames detected, hunks and added lines.
    Lines,
}

/// Which two sides to compare.
#[derive(Debug, Clone, Copy)]
pub enum Side<'a> {
    /// The base commit against the index (hook mode, `--staged`).
    Staged(&'a Base),
    /// The base commit against the working tree: committed, staged, unstaged
    /// and untracked-not-ignored changes together.
    Worktree(&'a Base),
}

impl Repo {
    /// Find the repository containing `start`, honouring the variables git
    /// sets for hooks (see [`Location`]).
    pub fn discover(start: &Path) -> Result<Repo> {
        let location = Location::from_env(start, &|name| std::env::var_os(name));
        Repo::open_at(start, &location)
    }

    /// Open the repository `location` names, or the one containing `start`.
    pub fn open_at(start: &Path, location: &Location) -> Result<Repo> {
        let inner = match &location.git_dir {
            Some(dir) => Repository::open_ext(
                dir,
                git2::RepositoryOpenFlags::NO_SEARCH | git2::RepositoryOpenFlags::NO_DOTGIT,
                std::iter::empty::<&std::ffi::OsStr>(),
            )
            .map_err(|e| {
                anyhow!(
                    "GIT_DIR names {}, which is not a git directory ({}): unset GIT_DIR or point it at the repository's .git",
                    dir.display(),
                    plain(&e)
                )
            })?,
            None => Repository::discover(start).map_err(|e| match e.code() {
                ErrorCode::NotFound => anyhow!(
                    "{} is not inside a git repository: run loki-gate from a repository, pass -C <dir>, or run `git init`",
                    start.display()
                ),
                _ => anyhow!(
                    "could not open the git repository at {}: {}",
                    start.display(),
                    plain(&e)
                ),
            })?,
        };
        if let Some(work_tree) = &location.work_tree {
            inner.set_workdir(work_tree, false).map_err(|e| {
                anyhow!(
                    "GIT_WORK_TREE names {}, which git cannot use as the working tree ({}): unset it or fix the path",
                    work_tree.display(),
                    plain(&e)
                )
            })?;
        }
        let root = inner
            .workdir()
            .ok_or_else(|| {
                anyhow!(
                    "{} is a bare repository: loki-gate needs a working tree",
                    start.display()
                )
            })?
            .to_path_buf();
        let root = root.canonicalize().unwrap_or(root);
        if let Some(file) = &location.index_file {
            // libgit2 would take a missing file for an empty index: every
            // tracked file would read as deleted.
            if !file.is_file() {
                bail!(
                    "GIT_INDEX_FILE names {}, which does not exist: unset GIT_INDEX_FILE (git sets it only while it runs a hook)",
                    file.display()
                );
            }
            let mut index = git2::Index::open(file).map_err(|e| {
                anyhow!(
                    "could not read the index GIT_INDEX_FILE names, {}: {}",
                    file.display(),
                    plain(&e)
                )
            })?;
            inner
                .set_index(&mut index)
                .map_err(|e| anyhow!("could not use the index {}: {}", file.display(), plain(&e)))?;
        }
        Ok(Repo {
            inner,
            root,
            index_file: location.index_file.clone(),
        })
    }

    /// Where this repository is, for opening it again on another thread
    /// (git2 repositories are not shared across threads): the same git
    /// directory, working tree and index.
    pub fn location(&self) -> Location {
        Location {
            git_dir: Some(self.inner.path().to_path_buf()),
            work_tree: Some(self.root.clone()),
            index_file: self.index_file.clone(),
        }
    }

    /// The top of the working tree.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// `info/exclude` of this repository (shared by all its worktrees).
    pub fn info_exclude(&self) -> PathBuf {
        self.inner.commondir().join("info").join("exclude")
    }

    /// Where git runs hooks from: `core.hooksPath` (relative to the top of
    /// the working tree, as git resolves it), else `hooks/` in the git
    /// directory shared by all worktrees.
    pub fn hooks_dir(&self) -> Result<HooksDir> {
        let config = self
            .inner
            .config()
            .map_err(|e| anyhow!("could not read the git config: {}", plain(&e)))?;
        match config.get_string("core.hooksPath") {
            Ok(configured) if !configured.trim().is_empty() => {
                let expanded = match configured.strip_prefix("~/") {
                    Some(rest) => std::env::var_os("HOME")
                        .map(|home| Path::new(&home).join(rest))
                        .ok_or_else(|| anyhow!("core.hooksPath `{configured}` starts with ~ and HOME is not set"))?,
                    None => PathBuf::from(&configured),
                };
                Ok(HooksDir {
                    dir: self.root.join(expanded),
                    configured: Some(configured),
                })
            }
            _ => Ok(HooksDir {
                dir: self.inner.commondir().join("hooks"),
                configured: None,
            }),
        }
    }

    pub fn is_shallow(&self) -> bool {
        self.inner.is_shallow()
    }

    /// HEAD's commit, or `None` in a repository with no commits yet.
    pub fn head(&self) -> Result<Option<String>> {
        match self.inner.head() {
            Ok(r) => Ok(Some(
                r.peel_to_commit()
                    .context("HEAD does not point to a commit")?
                    .id()
                    .to_string(),
            )),
            Err(e) if matches!(e.code(), ErrorCode::UnbornBranch | ErrorCode::NotFound) => Ok(None),
            Err(e) => Err(anyhow!("could not read HEAD: {}", plain(&e))),
        }
    }

    /// The current branch name, or `None` on a detached HEAD or unborn branch.
    pub fn branch(&self) -> Option<String> {
        let head = self.inner.head().ok()?;
        head.is_branch()
            .then(|| head.shorthand().ok().map(str::to_string))
            .flatten()
    }

    /// Does `rev` name an existing commit?
    pub fn commit_exists(&self, rev: &str) -> bool {
        self.inner.revparse_single(rev).and_then(|o| o.peel_to_commit()).is_ok()
    }

    /// Choose the comparison base: `merge-base(REV, HEAD)` for an explicit
    /// revision (`--base` or config); otherwise `origin/HEAD`, then `HEAD~1`,
    /// then the empty tree when HEAD has no parent.
    pub fn resolve_base(&self, explicit: Option<&str>) -> Result<Base> {
        let Some(head) = self.head()? else {
            return Ok(Base {
                commit: None,
                notes: vec!["the repository has no commits yet: every file counts as new".into()],
                unreachable: None,
            });
        };
        let head = Oid::from_str(&head)?;
        if let Some(rev) = explicit {
            let target = self.peel_commit(rev).map_err(|_| {
                if self.is_shallow() {
                    anyhow!("unknown base revision `{rev}`: it is not in this shallow clone: fetch it (`git fetch origin <branch>`), then {SHALLOW_FIX}")
                } else {
                    anyhow!("unknown base revision `{rev}`: fetch it (`git fetch origin`) or pass an existing revision")
                }
            })?;
            let base = self.inner.merge_base(target, head).map_err(|_| {
                if self.is_shallow() {
                    anyhow!("`{rev}` and HEAD meet beyond this shallow clone's history: {SHALLOW_FIX}")
                } else {
                    anyhow!("`{rev}` and HEAD share no history: pass a base on the same line of history")
                }
            })?;
            return Ok(Base {
                commit: Some(base.to_string()),
                notes: Vec::new(),
                unreachable: None,
            });
        }
        let mut notes = Vec::new();
        let mut unreachable = None;
        if let Ok(upstream) = self.peel_commit("refs/remotes/origin/HEAD") {
            match self.inner.merge_base(upstream, head) {
                Ok(base) => {
                    return Ok(Base {
                        commit: Some(base.to_string()),
                        notes,
                        unreachable,
                    });
                }
                Err(_) if self.is_shallow() => {
                    notes.push("origin/HEAD and HEAD meet beyond this shallow clone's history; using HEAD~1".into());
                    unreachable = Some(format!(
                        "the merge base of origin/HEAD and HEAD is not in this shallow clone: {SHALLOW_FIX}"
                    ));
                }
                Err(_) => notes.push("origin/HEAD shares no history with HEAD; using HEAD~1".into()),
            }
        }
        let commit = self.inner.find_commit(head)?;
        match commit.parent(0) {
            Ok(parent) => Ok(Base {
                commit: Some(parent.id().to_string()),
                notes,
                unreachable,
            }),
            Err(_) if self.shallow_boundary().contains(&head) => {
                notes.push("shallow clone: the parent of HEAD is not fetched, so every file counts as changed".into());
                Ok(Base {
                    commit: None,
                    notes,
                    unreachable: Some(format!(
                        "the parent of HEAD is not in this shallow clone: {SHALLOW_FIX}"
                    )),
                })
            }
            Err(_) => {
                notes.push("HEAD has no parent: every file counts as changed".into());
                Ok(Base {
                    commit: None,
                    notes,
                    unreachable,
                })
            }
        }
    }

    /// The commits whose parents a shallow clone did not fetch (git's
    /// `shallow` file); empty in a full clone.
    /// git lists a root commit there too once a fetch reaches it, so only
    /// commits whose object names a parent count.
    pub fn shallow_boundary(&self) -> std::collections::HashSet<Oid> {
        let Ok(odb) = self.inner.odb() else {
            return Default::default();
        };
        let names_a_parent = |id: &Oid| {
            odb.read(*id).is_ok_and(|object| {
                let data = object.data();
                let header = data.split(|&b| b == b'\n').take_while(|line| !line.is_empty());
                header.into_iter().any(|line| line.starts_with(b"parent "))
            })
        };
        std::fs::read_to_string(self.inner.commondir().join("shallow"))
            .unwrap_or_default()
            .lines()
            .filter_map(|l| Oid::from_str(l.trim()).ok())
            .filter(names_a_parent)
            .collect()
    }

    fn peel_commit(&self, rev: &str) -> Result<Oid, git2::Error> {
        Ok(self.inner.revparse_single(rev)?.peel_to_commit()?.id())
    }

    fn tree_of(&self, commit: Option<&str>) -> Result<Option<Tree<'_>>> {
        match commit {
            None => Ok(None),
            Some(hex) => {
                let commit = self
                    .inner
                    .find_commit(Oid::from_str(hex)?)
                    .with_context(|| format!("commit {hex} is not in this repository"))?;
                Ok(Some(commit.tree()?))
            }
        }
    }

    /// The changed files between two sides, with changed lines. Paths under
    /// any of `skip` (repo-relative directories) are left out.
    pub fn diff(&self, side: Side<'_>, skip: &[PathBuf], detail: Detail) -> Result<Vec<FileDiff>> {
        let diff = self.git_diff(side, detail)?;
        let mut files = self.files(&diff, skip, detail, matches!(side, Side::Worktree(_)))?;
        if let Side::Worktree(base) = side {
            let sparse = self.outside_checkout()?;
            if !sparse.is_empty() {
                // Outside the checkout, the index is the file's last word.
                files.retain(|f| !sparse.contains(&f.path));
                let staged = self.git_diff(Side::Staged(base), detail)?;
                let mut kept = self.files(&staged, skip, detail, false)?;
                kept.retain(|f| sparse.contains(&f.path));
                files.extend(kept);
                files.sort_by(|a, b| a.path.cmp(&b.path));
            }
        }
        Ok(files)
    }

    /// The tracked files git keeps out of the working tree: marked
    /// skip-worktree, as a sparse checkout (or `git update-index
    /// --skip-worktree`) marks them. They are neither deleted nor changed
    /// when the working tree lacks them, or holds something else there.
    pub fn outside_checkout(&self) -> Result<std::collections::HashSet<PathBuf>> {
        self.index_paths(true)
    }

    /// The paths of the index entries a sparse checkout leaves out
    /// (`outside`), or of the others.
    fn index_paths<C: FromIterator<PathBuf>>(&self, outside: bool) -> Result<C> {
        let index = self.inner.index().context("could not read the git index")?;
        Ok(index
            .iter()
            .filter(|e| (e.flags_extended & SKIP_WORKTREE != 0) == outside)
            .map(|e| bytes_to_path(&e.path))
            .collect())
    }

    /// The change as a unified diff (`git diff` text, untracked files
    /// included), leaving out paths under `skip` and those `keep` refuses;
    /// binary files are named, not shown.
    pub fn patch(&self, side: Side<'_>, skip: &[PathBuf], keep: &dyn Fn(&Path) -> bool) -> Result<String> {
        let sparse = match side {
            Side::Worktree(_) => self.outside_checkout()?,
            Side::Staged(_) => Default::default(),
        };
        let mut out = Vec::new();
        let mut print = |diff: &git2::Diff<'_>, wanted: &dyn Fn(&Path) -> bool| {
            diff.print(git2::DiffFormat::Patch, |delta, _, line| {
                let path = delta.new_file().path().or(delta.old_file().path());
                if path.is_some_and(|p| skip.iter().any(|s| p.starts_with(s)) || !keep(p) || !wanted(p)) {
                    return true;
                }
                if matches!(line.origin(), '+' | '-' | ' ') {
                    out.push(line.origin() as u8);
                }
                out.extend_from_slice(line.content());
                true
            })
        };
        print(&self.git_diff(side, Detail::Lines)?, &|p| !sparse.contains(p))?;
        if let (Side::Worktree(base), false) = (side, sparse.is_empty()) {
            // Outside the checkout, the index is the file's last word.
            print(&self.git_diff(Side::Staged(base), Detail::Lines)?, &|p| {
                sparse.contains(p)
            })?;
        }
        Ok(String::from_utf8_lossy(&out).into_owned())
    }

    fn git_diff(&self, side: Side<'_>, detail: Detail) -> Result<git2::Diff<'_>> {
        let mut opts = DiffOptions::new();
        opts.context_lines(3).ignore_submodules(true);
        let mut diff = match side {
            Side::Staged(base) => {
                let tree = self.tree_of(base.commit.as_deref())?;
                let index = self.inner.index().context("could not read the git index")?;
                self.inner
                    .diff_tree_to_index(tree.as_ref(), Some(&index), Some(&mut opts))?
            }
            Side::Worktree(base) => {
                let tree = self.tree_of(base.commit.as_deref())?;
                opts.include_untracked(true)
                    .recurse_untracked_dirs(true)
                    .show_untracked_content(detail == Detail::Lines);
                self.inner
                    .diff_tree_to_workdir_with_index(tree.as_ref(), Some(&mut opts))?
            }
        };
        if detail == Detail::Lines {
            self.find_renames(&mut diff, matches!(side, Side::Worktree(_)))?;
        }
        Ok(diff)
    }

    /// Pair added and deleted files into renames, when git has the content
    /// of both (a partial clone may not: then they stay an add and a delete).
    /// `workdir`: the new side is the working tree's (content on disk).
    fn find_renames(&self, diff: &mut git2::Diff<'_>, workdir: bool) -> Result<()> {
        let count = |status: Delta| diff.deltas().filter(|d| d.status() == status).count();
        let added = count(Delta::Added) + count(Delta::Untracked);
        if added == 0 || count(Delta::Deleted) == 0 {
            return Ok(());
        }
        let odb = self.inner.odb()?;
        let in_odb = |f: git2::DiffFile<'_>| f.id().is_zero() || !f.exists() || odb.exists(f.id());
        let present = diff
            .deltas()
            .all(|d| in_odb(d.old_file()) && (workdir || in_odb(d.new_file())));
        if present {
            let mut find = DiffFindOptions::new();
            find.renames(true);
            diff.find_similar(Some(&mut find))?;
        }
        Ok(())
    }

    fn files(&self, diff: &git2::Diff<'_>, skip: &[PathBuf], detail: Detail, workdir: bool) -> Result<Vec<FileDiff>> {
        let mut files = Vec::new();
        for (idx, delta) in diff.deltas().enumerate() {
            let new = delta.new_file();
            let old = delta.old_file();
            let status = match delta.status() {
                Delta::Added => Status::Added,
                Delta::Deleted => Status::Deleted,
                Delta::Renamed | Delta::Copied => Status::Renamed,
                Delta::Untracked => Status::Untracked,
                Delta::Typechange => Status::TypeChange,
                _ => Status::Modified,
            };
            let path = if status == Status::Deleted {
                old.path()
            } else {
                new.path()
            };
            let path = path.map(Path::to_path_buf).unwrap_or_default();
            if skip.iter().any(|s| path.starts_with(s)) {
                continue;
            }
            let mut file = FileDiff {
                old_path: (status == Status::Renamed)
                    .then(|| old.path().map(Path::to_path_buf))
                    .flatten(),
                binary: delta.flags().is_binary() || new.is_binary(),
                path,
                status,
                added: Vec::new(),
                hunks: Vec::new(),
                unread: None,
            };
            if detail == Detail::Lines && status != Status::Deleted {
                // One file at a time, so that one side git cannot read (a
                // partial clone's missing blob, a huge file) costs that file
                // its line detail, not the run.
                file.unread = self.unreadable(&delta, workdir);
                if file.unread.is_none() {
                    match git2::Patch::from_diff(diff, idx) {
                        Ok(Some(patch)) if patch.delta().flags().is_binary() => file.binary = true,
                        Ok(Some(patch)) => lines_of(&patch, &mut file),
                        Ok(None) => file.binary = true,
                        Err(e) => file.unread = Some(plain(&e)),
                    }
                }
            }
            files.push(file);
        }
        Ok(files)
    }

    /// Why a delta's content cannot be compared line by line: a side over
    /// the size cap, or a blob this (partial) clone does not have.
    /// `workdir`: the new side is the working tree's file.
    fn unreadable(&self, delta: &git2::DiffDelta<'_>, workdir: bool) -> Option<String> {
        let odb = self.inner.odb().ok()?;
        let cap = crate::walk::max_file_bytes();
        for (side, on_disk) in [(delta.old_file(), false), (delta.new_file(), workdir)] {
            if !side.exists() && side.id().is_zero() {
                continue;
            }
            let size = if on_disk {
                side.path()
                    .and_then(|p| std::fs::symlink_metadata(self.root.join(p)).ok())
                    .map_or(0, |m| m.len())
            } else {
                match odb.read_header(side.id()) {
                    Ok((size, _)) => size as u64,
                    Err(_) => {
                        let id = short(&side.id().to_string()).to_string();
                        return Some(format!("blob {id} {PARTIAL_CLONE}: {PARTIAL_CLONE_FIX}"));
                    }
                }
            };
            if size > cap {
                return Some(format!("a version of it: {}", crate::walk::over_cap(size)));
            }
        }
        None
    }

    /// Every file in the index (tracked) that the working tree holds,
    /// repo-relative: those a sparse checkout leaves out are not there to read
    /// ([`Repo::outside_checkout`]).
    pub fn tracked_files(&self) -> Result<Vec<PathBuf>> {
        self.index_paths(false)
    }

    /// The content of `path` at commit `rev`, or `None` when it did not exist there.
    pub fn blob_at(&self, rev: &str, path: &Path) -> Result<Option<Vec<u8>>> {
        let commit = self.peel_commit(rev).map_err(|_| anyhow!("unknown revision `{rev}`"))?;
        let tree = self.inner.find_commit(commit)?.tree()?;
        match blob_entry(&tree, path, rev)? {
            Some(id) => Ok(Some(self.inner.find_blob(id)?.content().to_vec())),
            None => Ok(None),
        }
    }

    /// The staged content of `path`, or `None` when it is not in the index.
    pub fn index_blob(&self, path: &Path) -> Result<Option<BlobRead>> {
        let index = self.inner.index().context("could not read the git index")?;
        let Some(entry) = index.get_path(path, 0) else {
            return Ok(None);
        };
        self.blob_capped(&entry.id.to_string()).map(Some)
    }

    /// Is `path` (repo-relative) in the index, or in HEAD?
    pub fn is_tracked(&self, path: &Path) -> bool {
        let in_index = self.inner.index().is_ok_and(|index| index.get_path(path, 0).is_some());
        in_index
            || self
                .inner
                .head()
                .and_then(|h| h.peel_to_tree())
                .is_ok_and(|tree| tree.get_path(path).is_ok())
    }

    /// Is `path` (repo-relative) ignored by .gitignore and friends?
    pub fn is_ignored(&self, path: &Path) -> bool {
        self.inner.is_path_ignored(path).unwrap_or(false)
    }
}

/// Why a blob is missing ("blob X is not in ..."), then how to get it.
pub const PARTIAL_CLONE: &str = "is not in this repository (a partial clone that has not fetched it)";
pub const PARTIAL_CLONE_FIX: &str =
    "`git log -p --format= <base>..HEAD >/dev/null` makes git fetch what the range needs, or clone without `--filter`";

/// The hunks and added lines of a patch, into `file`.
fn lines_of(patch: &git2::Patch<'_>, file: &mut FileDiff) {
    for h in 0..patch.num_hunks() {
        let Ok((hunk, count)) = patch.hunk(h) else { continue };
        if hunk.new_lines() > 0 {
            file.hunks
                .push((hunk.new_start(), hunk.new_start() + hunk.new_lines() - 1));
        }
        for l in 0..count {
            if let Ok(line) = patch.line_in_hunk(h, l)
                && line.origin() == '+'
                && let Some(n) = line.new_lineno()
            {
                file.added.push(n);
            }
        }
    }
}

/// The index entry flag git sets on a file a sparse checkout leaves out.
const SKIP_WORKTREE: u16 = 1 << 14;

#[cfg(unix)]
fn bytes_to_path(bytes: &[u8]) -> PathBuf {
    use std::os::unix::ffi::OsStrExt;
    PathBuf::from(std::ffi::OsStr::from_bytes(bytes))
}

#[cfg(not(unix))]
fn bytes_to_path(bytes: &[u8]) -> PathBuf {
    PathBuf::from(String::from_utf8_lossy(bytes).into_owned())
}

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

impl Repo {
    /// A commit's committer time, in seconds since the Unix epoch.
    pub fn commit_time(&self, rev: &str) -> Result<u64> {
        let oid = self.peel_commit(rev).map_err(|_| anyhow!("unknown revision `{rev}`"))?;
        let time = self.inner.find_commit(oid)?.time().seconds();
        Ok(u64::try_from(time).unwrap_or(0))
    }
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

fn commit_of(commit: &git2::Commit<'_>, parent: Option<Oid>) -> Commit {
    Commit {
        id: commit.id().to_string(),
        parent: parent.map(|p| p.to_string()),
        summary: commit.summary().ok().flatten().map(str::to_string).unwrap_or_default(),
        message: commit.message().map(str::to_string).unwrap_or_default(),
        author: format!(
            "{} <{}>",
            String::from_utf8_lossy(commit.author().name_bytes()),
            String::from_utf8_lossy(commit.author().email_bytes())
        ),
        merged: Vec::new(),
    }
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

    /// The files staged against HEAD (the empty tree before the first
    /// commit), renames detected, with the blob ids on each side.
    pub fn staged_changes(&self) -> Result<Vec<TreeChange>> {
        let head = self.head()?;
        let tree = self.tree_of(head.as_deref())?;
        let index = self.inner.index().context("could not read the git index")?;
        let mut opts = DiffOptions::new();
        opts.ignore_submodules(true);
        let diff = self
            .inner
            .diff_tree_to_index(tree.as_ref(), Some(&index), Some(&mut opts))?;
        tree_changes(self, diff)
    }

    /// The blob id of `path` at `commit`, or `None` when it did not exist there.
    pub fn blob_id_at(&self, commit: &str, path: &Path) -> Result<Option<String>> {
        let Some(tree) = self.tree_of(Some(commit))? else {
            return Ok(None);
        };
        Ok(blob_entry(&tree, path, commit)?.map(|id| id.to_string()))
    }

    /// The blob id of `path` in the index, or `None` when it is not staged.
    pub fn index_blob_id(&self, path: &Path) -> Result<Option<String>> {
        let index = self.inner.index().context("could not read the git index")?;
        Ok(index.get_path(path, 0).map(|e| e.id.to_string()))
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
fn blob_entry(tree: &Tree<'_>, path: &Path, at: &str) -> Result<Option<Oid>> {
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

fn tree_changes(repo: &Repo, mut diff: git2::Diff<'_>) -> Result<Vec<TreeChange>> {
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

/// A libgit2 error in plain words: its message without the class and code
/// suffix, and a path git could not open for lack of permission said as
/// such (libgit2 reports EACCES as "'path' is locked", and an unreadable
/// index as one that "no longer exists").
pub fn plain(e: &git2::Error) -> String {
    let message = e.message();
    let denied =
        message.split('\'').skip(1).step_by(2).map(Path::new).find(|path| {
            std::fs::File::open(path).is_err_and(|err| err.kind() == std::io::ErrorKind::PermissionDenied)
        });
    match denied {
        Some(path) => format!(
            "permission denied reading {}: make it readable by the user running loki-gate",
            path.display()
        ),
        None if e.code() == ErrorCode::NotFound && e.class() == git2::ErrorClass::Odb => {
            format!(
                "{message}: the object is missing or unreadable; check the permissions under .git/objects, or run `git fsck`"
            )
        }
        None if e.code() == ErrorCode::Locked && e.class() == git2::ErrorClass::Index => {
            format!("{message}: if no git command is running, remove .git/index.lock")
        }
        None => message.to_string(),
    }
}

/// Where git runs hooks from.
#[derive(Debug)]
pub struct HooksDir {
    pub dir: PathBuf,
    /// `core.hooksPath` as configured, when it is set.
    pub configured: Option<String>,
}
