//! The git layer. git2 stays inside this file: callers see paths, revisions
//! as hex strings, and plain structs.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, anyhow, bail};
use git2::{Delta, DiffFindOptions, DiffOptions, ErrorCode, Oid, Repository, Tree};

mod as_committed;
mod history;
pub mod index;
mod path;
mod rev_files;
mod signature;
mod snapshot;
#[cfg(test)]
mod testing;
pub use as_committed::{check_out_files, git as git_command};
pub use history::*;
pub use path::{display_path, relative_to};
pub use rev_files::RevFiles;
pub use signature::*;
use snapshot::is_snapshot;

/// An open repository with a working tree.
pub struct Repo {
    inner: Repository,
    root: PathBuf,
    /// The index git named in `GIT_INDEX_FILE` (absolute), when it named one.
    index_file: Option<PathBuf>,
    /// Which index libgit2 holds ([`Repo::git2_index`], [`Repo::diff_to_index`]).
    held: std::cell::Cell<Held>,
    /// The working tree written as a tree, once a run ([`Repo::worktree_tree`]),
    /// with the directories it left out.
    worktree: std::cell::RefCell<Option<(Vec<PathBuf>, String)>>,
    /// [`Repo::hidden_on_disk`], once a run.
    hidden: std::cell::OnceCell<Vec<PathBuf>>,
}

/// The index a repository's libgit2 handle holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Held {
    /// Its own, read when first needed (`.git/index`).
    Default,
    /// The index file this repository's changes are staged in.
    Full,
    /// An index of the changed paths only (and the `.gitattributes` files,
    /// which libgit2 reads from the index when it diffs).
    Small,
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

/// git's id of the empty tree. As a base (`--base 4b825dc…`) it means
/// nothing came before: every file counts as new.
pub const EMPTY_TREE: &str = "4b825dc642cb6eb9a060e54bf8d69288fbee4904";

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
        // libgit2 re-hashes every object it reads to check it; git does not
        // (`git fsck` does), and on a large tree that was a third of a hook.
        static ONCE: std::sync::Once = std::sync::Once::new();
        ONCE.call_once(|| git2::opts::strict_hash_verification(false));
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
        as_committed::refuse_grafts(&inner)?;
        if let Some(file) = &location.index_file {
            // libgit2 would take a missing file for an empty index: every
            // tracked file would read as deleted.
            if !file.is_file() {
                bail!(
                    "GIT_INDEX_FILE names {}, which does not exist: unset GIT_INDEX_FILE (git sets it only while it runs a hook)",
                    file.display()
                );
            }
        }
        Ok(Repo {
            inner,
            root,
            index_file: location.index_file.clone(),
            held: std::cell::Cell::new(Held::Default),
            worktree: std::cell::RefCell::new(None),
            hidden: std::cell::OnceCell::new(),
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

    /// The index this repository's changes are staged in: the one git
    /// named for a hook, else the git directory's.
    fn index_path(&self) -> PathBuf {
        self.index_file
            .clone()
            .unwrap_or_else(|| self.inner.path().join("index"))
    }

    /// The index's entries, read once per process ([`index::load`]).
    pub fn index(&self) -> Result<std::sync::Arc<index::Snapshot>> {
        index::load(&self.index_path())
    }

    /// libgit2's own reading of the index, for what compares it with the
    /// working tree; the index `GIT_INDEX_FILE` names is handed to it first.
    fn git2_index(&self) -> Result<git2::Index> {
        let own = self.held.get() == Held::Default && self.index_file.is_none();
        if !own && self.held.get() != Held::Full {
            let file = self.index_path();
            let mut index = git2::Index::open(&file)
                .map_err(|e| anyhow!("could not read the git index {}: {}", file.display(), plain(&e)))?;
            self.inner
                .set_index(&mut index)
                .map_err(|e| anyhow!("could not use the index {}: {}", file.display(), plain(&e)))?;
            self.held.set(Held::Full);
        }
        self.inner.index().context("could not read the git index")
    }

    /// `tree` (the empty tree when `None`) against the index. Only the paths
    /// whose entries differ from the tree's ([`index::Snapshot::changed`])
    /// are handed to libgit2, in an index of their own, so its work (and its
    /// rename detection) follows the change, not the repository.
    fn diff_to_index(&self, tree: Option<&Tree<'_>>, opts: &mut DiffOptions) -> Result<git2::Diff<'_>> {
        let snapshot = self.index()?;
        if snapshot.unusual() {
            // Conflicts and intent-to-add entries: libgit2's reading decides.
            let index = self.git2_index()?;
            return Ok(self.inner.diff_tree_to_index(tree, Some(&index), Some(opts))?);
        }
        let changed = snapshot.changed(&self.inner, tree)?;
        if changed.is_empty() {
            return Ok(self.inner.diff_tree_to_tree(tree, tree, Some(opts))?);
        }
        let mut small = git2::Index::new()?;
        let attributes = snapshot.attributes().map(|e| snapshot.path(e));
        let mut held: Vec<&Path> = changed.iter().map(PathBuf::as_path).chain(attributes).collect();
        held.sort_unstable();
        held.dedup();
        for path in held {
            if let Some(entry) = snapshot.get(path) {
                small.add(&git2::IndexEntry {
                    ctime: git2::IndexTime::new(0, 0),
                    mtime: git2::IndexTime::new(0, 0),
                    dev: 0,
                    ino: 0,
                    mode: entry.mode,
                    uid: 0,
                    gid: 0,
                    file_size: entry.file_size,
                    id: entry.id,
                    flags: 0,
                    flags_extended: 0,
                    path: snapshot.path_bytes(entry).to_vec(),
                })?;
            }
        }
        for path in changed.iter() {
            opts.pathspec(path);
        }
        opts.disable_pathspec_match(true);
        // Held by the repository too: libgit2 looks up diff attributes
        // there, and would otherwise read the whole index for them.
        self.inner.set_index(&mut small)?;
        self.held.set(Held::Small);
        Ok(self.inner.diff_tree_to_index(tree, Some(&small), Some(opts))?)
    }

    /// The top of the working tree.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The git directory all worktrees share (`.git` of the main one).
    pub fn common_dir(&self) -> &Path {
        self.inner.commondir()
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

    /// The commit `rev` names (an annotated tag peeled), full hex; `None`
    /// when it names none this repository has.
    pub fn commit_of(&self, rev: &str) -> Option<String> {
        self.peel_commit(rev).ok().map(|oid| oid.to_string())
    }

    /// Choose the comparison base: `merge-base(REV, HEAD)` for an explicit
    /// revision (`--base` or config; [`EMPTY_TREE`] is the empty tree);
    /// otherwise `origin/HEAD`, then `HEAD~1`, then the empty tree when
    /// HEAD has no parent.
    pub fn resolve_base(&self, explicit: Option<&str>) -> Result<Base> {
        // (First: a repository with no commit yet has snapshots too.)
        if let Some(rev) = explicit.filter(|rev| is_snapshot(rev)) {
            // A snapshot of a working tree is a child of the HEAD it was
            // taken at (or has no parent): the change is measured from it, as it is.
            let commit = self.peel_commit(rev).map_err(|_| {
                anyhow!("the session's snapshot `{rev}` is gone (deleted, or pruned by git gc): start a new session")
            })?;
            return Ok(Base {
                commit: Some(commit.to_string()),
                notes: Vec::new(),
                unreachable: None,
            });
        }
        let Some(head) = self.head()? else {
            return Ok(Base {
                commit: None,
                notes: vec!["the repository has no commits yet: every file counts as new".into()],
                unreachable: None,
            });
        };
        let head = Oid::from_str(&head)?;
        if explicit == Some(EMPTY_TREE) {
            return Ok(Base {
                commit: None,
                notes: vec!["the base is git's empty tree: every file counts as new".into()],
                unreachable: None,
            });
        }
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
        let diff = self.git_diff(side, skip, detail)?;
        let mut files = self.files(&diff, skip, detail, matches!(side, Side::Worktree(_)))?;
        if let Side::Worktree(base) = side {
            let sparse = self.outside_checkout()?;
            if !sparse.is_empty() {
                // Outside the checkout, the index is the file's last word.
                files.retain(|f| !sparse.contains(&f.path));
                let staged = self.git_diff(Side::Staged(base), skip, detail)?;
                let mut kept = self.files(&staged, skip, detail, false)?;
                kept.retain(|f| sparse.contains(&f.path));
                files.extend(kept);
                files.sort_by(|a, b| a.path.cmp(&b.path));
            }
        }
        Ok(files)
    }

    /// The tracked files git keeps out of the working tree: marked
    /// skip-worktree, as a sparse checkout marks them, and not on disk.
    /// They are not deleted for being absent. One that is on disk is the
    /// working tree's, as git itself takes it (a sparse checkout clears the
    /// mark of a file present): `git update-index --skip-worktree` hid an
    /// agent's edit to a test (issue 63).
    pub fn outside_checkout(&self) -> Result<std::collections::HashSet<PathBuf>> {
        let index = self.index()?;
        let on_disk: std::collections::HashSet<&PathBuf> = self.hidden_on_disk()?.iter().collect();
        Ok(index
            .entries()
            .iter()
            .filter(|e| e.skip_worktree)
            .map(|e| index.path(e).to_path_buf())
            .filter(|p| !on_disk.contains(p))
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
        print(&self.git_diff(side, skip, Detail::Lines)?, &|p| !sparse.contains(p))?;
        if let (Side::Worktree(base), false) = (side, sparse.is_empty()) {
            // Outside the checkout, the index is the file's last word.
            print(&self.git_diff(Side::Staged(base), skip, Detail::Lines)?, &|p| {
                sparse.contains(p)
            })?;
        }
        Ok(String::from_utf8_lossy(&out).into_owned())
    }

    /// The diff of `side`; `skip`: directories a snapshot of the working
    /// tree leaves as HEAD has them (the state directory).
    fn git_diff(&self, side: Side<'_>, skip: &[PathBuf], detail: Detail) -> Result<git2::Diff<'_>> {
        let mut opts = DiffOptions::new();
        opts.context_lines(3).ignore_submodules(true);
        let mut diff = match side {
            Side::Staged(base) => {
                let tree = self.tree_of(base.commit.as_deref())?;
                self.diff_to_index(tree.as_ref(), &mut opts)?
            }
            Side::Worktree(base) => {
                let tree = self.tree_of(base.commit.as_deref())?;
                self.git2_index()?;
                opts.include_untracked(true)
                    .recurse_untracked_dirs(true)
                    .show_untracked_content(detail == Detail::Lines);
                if self.off_history(base.commit.as_deref())? || !self.hidden_on_disk()?.is_empty() {
                    // A snapshot of a working tree: its files against the
                    // working tree's, both as trees. Through the index, a
                    // file the snapshot has and the index lacks (untracked
                    // then and now) would read as deleted; straight against
                    // the disk, with no index to vouch for a file, libgit2
                    // hashes every file of the repository. So too when git
                    // was told not to look at a file on disk: through the
                    // index, libgit2 would not either.
                    let now = self.worktree_tree(skip)?;
                    let now = self.inner.find_tree(Oid::from_str(&now)?)?;
                    self.inner
                        .diff_tree_to_tree(tree.as_ref(), Some(&now), Some(&mut opts))?
                } else {
                    self.inner
                        .diff_tree_to_workdir_with_index(tree.as_ref(), Some(&mut opts))?
                }
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
    pub fn tracked_files(&self) -> Result<std::sync::Arc<Vec<PathBuf>>> {
        Ok(self.index()?.tracked())
    }

    /// Every file at `commit` (submodules left out), with its blob id, in
    /// path order.
    pub fn files_at(&self, commit: &str) -> Result<Vec<(PathBuf, String)>> {
        let Some(tree) = self.tree_of(Some(commit))? else {
            return Ok(Vec::new());
        };
        let mut files = Vec::new();
        index::files_of(&self.inner, &tree, &[], &mut Vec::new(), &mut files, &mut Vec::new())
            .map_err(|e| anyhow!("could not read the tree of {commit}: {}", plain(&e)))?;
        Ok(files
            .into_iter()
            .map(|(path, id, _)| (index::bytes_path(&path).to_path_buf(), id.to_string()))
            .collect())
    }

    /// The files of commit `rev`, readable from any thread: a handle of
    /// its own on the repository (libgit2's are not shared between threads).
    pub fn reader_at(&self, rev: &str) -> Result<RevFiles> {
        let commit = self.peel_commit(rev).map_err(|_| anyhow!("unknown revision `{rev}`"))?;
        let tree = self.inner.find_commit(commit)?.tree_id();
        let repo = Repository::open(self.inner.path())
            .map_err(|e| anyhow!("could not open {}: {}", self.inner.path().display(), plain(&e)))?;
        Ok(RevFiles::new(repo, tree))
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
        let index = self.index()?;
        let Some(entry) = index.get(path) else {
            return Ok(None);
        };
        self.blob_capped(&entry.id.to_string()).map(Some)
    }

    /// Is `path` (repo-relative) in the index, or in HEAD?
    pub fn is_tracked(&self, path: &Path) -> bool {
        let in_index = self.index().is_ok_and(|index| index.get(path).is_some());
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
