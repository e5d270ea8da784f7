//! The git layer and the walker, on real repositories.

use std::path::{Path, PathBuf};

use loki_gate::changed::{self, Lines, Scope};
use loki_gate::git::{Repo, Status};
use loki_gate::walk;

use crate::support::{TestRepo, git_in};

fn collect(repo: &TestRepo, scope: Scope) -> changed::ChangeSet {
    let git = Repo::discover(repo.path()).unwrap();
    changed::collect(&git, &scope, &walk::exclude_set(&[]).unwrap(), &[]).unwrap()
}

fn file<'a>(set: &'a changed::ChangeSet, path: &str) -> &'a changed::ChangedFile {
    set.files
        .iter()
        .find(|f| f.path == Path::new(path))
        .unwrap_or_else(|| panic!("{path} not in {:?}", set.files))
}

#[test]
fn modified_lines_are_reported_as_ranges_for_all_kinds_of_change() {
    let repo = TestRepo::new();
    repo.write("a.txt", "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n");
    repo.write("gone.txt", "bye\n");
    repo.commit("base");
    repo.write("a.txt", "1\nTWO\n3\n4\n5\n6\n7\nEIGHT\nNINE\n10\n");
    repo.remove("gone.txt");
    repo.write("staged.txt", "s\n");
    repo.git(&["add", "staged.txt"]);
    repo.write("untracked/u.txt", "u\nv\n");
    let set = collect(
        &repo,
        Scope::Diff {
            base: Some("HEAD".into()),
        },
    );
    let a = file(&set, "a.txt");
    assert_eq!(a.status, Status::Modified);
    assert_eq!(a.lines, Lines::Ranges(vec![(2, 2), (8, 9)]));
    assert!(!a.hunks.is_empty());
    assert_eq!(file(&set, "gone.txt").status, Status::Deleted);
    assert_eq!(file(&set, "staged.txt").lines, Lines::All);
    assert_eq!(file(&set, "untracked/u.txt").status, Status::Untracked);
    assert_eq!(set.present().count(), 3);
}

#[test]
fn staged_mode_sees_only_the_index() {
    let repo = TestRepo::new();
    repo.write("a.txt", "a\n");
    repo.write("b.txt", "b\n");
    repo.git(&["add", "a.txt"]);
    let set = collect(&repo, Scope::Staged);
    let paths: Vec<_> = set.files.iter().map(|f| f.path.clone()).collect();
    assert_eq!(paths, vec![PathBuf::from("a.txt")]);
}

#[test]
fn renames_keep_their_new_path_and_binary_files_are_marked() {
    let repo = TestRepo::new();
    repo.write("old_name.py", "def f():\n    return 1\n\n\ndef g():\n    return 2\n");
    repo.write("img.bin", [0u8, 1, 2, 3, 0, 5]);
    repo.commit("base");
    repo.git(&["mv", "old_name.py", "new_name.py"]);
    repo.write("img.bin", [0u8, 9, 9, 9, 0, 5]);
    let set = collect(
        &repo,
        Scope::Diff {
            base: Some("HEAD".into()),
        },
    );
    let renamed = file(&set, "new_name.py");
    assert_eq!(renamed.status, Status::Renamed);
    assert_eq!(renamed.lines, Lines::Ranges(vec![]));
    assert!(file(&set, "img.bin").binary);
}

#[test]
fn non_utf8_paths_survive_the_diff() {
    use std::os::unix::ffi::OsStrExt;
    let repo = TestRepo::new();
    let name = std::ffi::OsStr::from_bytes(b"na\xefve.txt");
    std::fs::write(repo.path().join(name), "x\n").unwrap();
    let set = collect(
        &repo,
        Scope::Diff {
            base: Some("HEAD".into()),
        },
    );
    assert_eq!(set.files.len(), 1);
    assert_eq!(set.files[0].path.as_os_str(), name);
    assert_eq!(loki_gate::git::display_path(&set.files[0].path), "na\u{fffd}ve.txt");
}

#[test]
fn the_default_base_is_origin_head_then_head_parent_then_everything() {
    let repo = TestRepo::new();
    let set = collect(&repo, Scope::Diff { base: None });
    assert_eq!(set.base.as_ref().unwrap().commit, None, "one commit: everything is new");
    assert!(set.notes()[0].contains("HEAD has no parent"), "{:?}", set.notes());
    assert_eq!(file(&set, "README.md").lines, Lines::All);

    let first = repo.git(&["rev-parse", "HEAD"]);
    repo.write("b.txt", "b\n");
    repo.commit("second");
    let set = collect(&repo, Scope::Diff { base: None });
    assert_eq!(
        set.base.as_ref().unwrap().commit.as_deref(),
        Some(first.as_str()),
        "HEAD~1"
    );

    repo.git(&["update-ref", "refs/remotes/origin/HEAD", "HEAD"]);
    let set = collect(&repo, Scope::Diff { base: None });
    assert!(set.files.is_empty(), "on origin/HEAD nothing changed: {:?}", set.files);
}

#[test]
fn an_explicit_base_is_the_merge_base_with_head() {
    let repo = TestRepo::new();
    repo.git(&["checkout", "-q", "-b", "feature"]);
    repo.write("feature.txt", "f\n");
    repo.commit("feature work");
    repo.git(&["checkout", "-q", "main"]);
    repo.write("main.txt", "m\n");
    repo.commit("main moved on");
    repo.git(&["checkout", "-q", "feature"]);
    let set = collect(
        &repo,
        Scope::Diff {
            base: Some("main".into()),
        },
    );
    let paths: Vec<_> = set.files.iter().map(|f| f.path.clone()).collect();
    assert_eq!(
        paths,
        vec![PathBuf::from("feature.txt")],
        "main's own change is not ours"
    );
}

#[test]
fn an_unknown_base_is_an_error_naming_it() {
    let repo = TestRepo::new();
    let git = Repo::discover(repo.path()).unwrap();
    let err = git.resolve_base(Some("origin/nope")).unwrap_err().to_string();
    assert_eq!(
        err,
        "unknown base revision `origin/nope`: fetch it (`git fetch origin`) or pass an existing revision"
    );
}

#[test]
fn a_shallow_clone_gates_everything_with_a_note_and_explains_a_missing_base() {
    let upstream = TestRepo::new();
    upstream.write("a.txt", "1\n");
    upstream.commit("two");
    upstream.write("a.txt", "2\n");
    upstream.commit("three");
    let parent = tempfile::tempdir().unwrap();
    let url = format!("file://{}", upstream.path().display());
    git_in(parent.path(), &["clone", "-q", "--depth", "1", &url, "clone"]);
    let clone = parent.path().join("clone");
    let git = Repo::discover(&clone).unwrap();
    assert!(git.is_shallow());
    // origin/HEAD exists and equals HEAD here: nothing changed.
    let base = git.resolve_base(None).unwrap();
    assert!(base.commit.is_some());
    git_in(&clone, &["update-ref", "-d", "refs/remotes/origin/HEAD"]);
    let base = git.resolve_base(None).unwrap();
    assert_eq!(base.commit, None);
    assert!(
        base.notes[0].starts_with("shallow clone: the parent of HEAD is not fetched"),
        "{:?}",
        base.notes
    );
    assert!(
        base.unreachable
            .as_deref()
            .is_some_and(|why| why.starts_with("the parent of HEAD is not in this shallow clone")),
        "{:?}",
        base.unreachable
    );
    let err = git.resolve_base(Some("HEAD~2")).unwrap_err().to_string();
    assert!(err.contains("it is not in this shallow clone: fetch it"), "{err}");
}

#[test]
fn an_empty_repository_has_no_head_and_everything_is_new() {
    let repo = TestRepo::empty();
    repo.write("a.txt", "a\n");
    let set = collect(&repo, Scope::Diff { base: None });
    assert_eq!(set.files.len(), 1);
    assert!(set.notes()[0].contains("no commits yet"));
    let staged = collect(&repo, Scope::Staged);
    assert!(staged.files.is_empty());
}

#[test]
fn all_files_lists_tracked_files_minus_excludes() {
    let repo = TestRepo::new();
    repo.write("vendor/lib.js", "x\n");
    repo.write("src/main.rs", "fn main() {}\n");
    repo.commit("files");
    let git = Repo::discover(repo.path()).unwrap();
    let exclude = walk::exclude_set(&["vendor".to_string()]).unwrap();
    let set = changed::collect(&git, &Scope::AllFiles, &exclude, &[]).unwrap();
    let paths: Vec<_> = set
        .files
        .iter()
        .map(|f| loki_gate::git::display_path(&f.path))
        .collect();
    assert_eq!(paths, vec!["README.md", "src/main.rs"]);
    assert!(set.files.iter().all(|f| f.lines == Lines::All));
}

#[test]
fn blobs_are_read_at_a_revision() {
    let repo = TestRepo::new();
    repo.write("README.md", "# changed\n");
    repo.commit("change");
    let git = Repo::discover(repo.path()).unwrap();
    assert_eq!(
        git.blob_at("HEAD~1", Path::new("README.md")).unwrap().unwrap(),
        b"# demo\n"
    );
    assert_eq!(git.blob_at("HEAD", Path::new("missing.md")).unwrap(), None);
    assert!(git.blob_at("nope", Path::new("README.md")).is_err());
}

#[test]
fn the_walker_skips_ignored_binary_huge_and_outside_symlinks_with_one_note_each() {
    let repo = TestRepo::new();
    repo.write(".gitignore", "target/\n");
    repo.write("target/debug.txt", "ignored\n");
    repo.write("src/a.py", "x = 1\n");
    repo.write("logo.png", [0u8, 1, 2]);
    repo.write("big.txt", vec![b'a'; (walk::MAX_FILE_BYTES + 1) as usize]);
    repo.write("vendor/dep.py", "y = 2\n");
    let outside = tempfile::NamedTempFile::new().unwrap();
    std::os::unix::fs::symlink(outside.path(), repo.path().join("escape.txt")).unwrap();
    std::os::unix::fs::symlink(repo.path().join("src/a.py"), repo.path().join("inside.py")).unwrap();
    let root = repo.root();
    let exclude = walk::exclude_set(&["vendor/**".to_string()]).unwrap();
    let read = walk::walk(&root, &exclude, &[PathBuf::from(".git")], &|_| true);
    let files: Vec<_> = read
        .files
        .iter()
        .map(|f| loki_gate::git::display_path(&f.path))
        .collect();
    assert_eq!(files, vec![".gitignore", "README.md", "src/a.py"]);
    let mut notes: Vec<_> = read.skipped.iter().map(|f| f.message.clone()).collect();
    notes.sort();
    assert_eq!(notes.len(), 3, "{notes:?}");
    assert!(notes[0].starts_with("skipped big.txt: 2097153 bytes is over the 2097152 byte limit"));
    assert!(notes[1].starts_with("skipped escape.txt: symlink to"), "{}", notes[1]);
    assert_eq!(notes[2], "skipped logo.png: binary file");
    assert!(read.skipped.iter().all(|f| f.rule == "meta/skipped-file"));
    // Explicit lists follow in-repo symlinks.
    let read = walk::read_all(&root, &[PathBuf::from("inside.py")]);
    assert_eq!(read.files.len(), 1);
}

/// The staged diff is computed from the changed paths only, yet reads what
/// the whole index says: `.gitattributes` (staged, or only in the index, as
/// a sparse checkout leaves it) still marks a file binary, renames are
/// still paired, and the same set comes back whether or not git's
/// cache-tree is current.
#[test]
fn the_staged_diff_keeps_attributes_renames_and_every_kind_of_change() {
    let repo = TestRepo::new();
    repo.write(".gitattributes", "*.dat -diff\n");
    repo.write("data/a.dat", "one\ntwo\n");
    repo.write("src/moved.py", "def f():\n    return 1\n\n\ndef g():\n    return 2\n");
    repo.write("src/keep.py", "x = 1\n");
    repo.write("gone.txt", "bye\n");
    repo.commit("base");
    repo.write("data/a.dat", "one\nTWO\n");
    std::fs::create_dir_all(repo.root().join("lib")).unwrap();
    repo.git(&["mv", "src/moved.py", "lib/moved.py"]);
    repo.write("src/keep.py", "x = 2\n");
    repo.git(&["rm", "-q", "gone.txt"]);
    repo.write("new.txt", "n\n");
    repo.git(&["add", "-A"]);
    // Not in the working tree: libgit2 must find the attributes in the index.
    std::fs::remove_file(repo.root().join(".gitattributes")).unwrap();
    let set = collect(&repo, Scope::Staged);
    let paths: Vec<&str> = set.files.iter().map(|f| f.path.to_str().unwrap()).collect();
    assert_eq!(
        paths,
        ["data/a.dat", "gone.txt", "lib/moved.py", "new.txt", "src/keep.py"]
    );
    assert!(file(&set, "data/a.dat").binary, "-diff in the index's .gitattributes");
    let moved = file(&set, "lib/moved.py");
    assert_eq!(moved.status, Status::Renamed);
    assert_eq!(moved.old_path.as_deref(), Some(Path::new("src/moved.py")));
    assert_eq!(file(&set, "gone.txt").status, Status::Deleted);
    assert_eq!(file(&set, "src/keep.py").lines, Lines::Ranges(vec![(1, 1)]));
    // The cache-tree written again: the same answer.
    repo.git(&["write-tree"]);
    let again = collect(&repo, Scope::Staged);
    assert_eq!(format!("{:?}", again.files), format!("{:?}", set.files));
}

/// A commit's files as `reader_at` reads them (the runner configs at the
/// base): each directory listed once, the same answers as a lookup from the
/// root.
#[test]
fn a_commit_is_read_through_its_directories() {
    let repo = TestRepo::new();
    repo.write("package.json", "{}\n");
    repo.write("packages/a/vitest.config.ts", "export default {}\n");
    repo.write("packages/a/src/x.ts", "export const x = 1\n");
    repo.write("packages/b/jest.config.js", "module.exports = {}\n");
    let base = repo.commit("base");
    repo.write("packages/a/vitest.config.ts", "export default { test: {} }\n");
    repo.remove("packages/b/jest.config.js");
    repo.write("packages/c/jest.config.js", "module.exports = {}\n");
    repo.commit("later");
    let git = Repo::discover(repo.path()).unwrap();
    let files = git.reader_at(&base).unwrap();
    let read = |path: &str| files.read(Path::new(path)).map(|b| String::from_utf8(b).unwrap());
    for _ in 0..2 {
        assert_eq!(read("package.json").as_deref(), Some("{}\n"));
        assert_eq!(
            read("packages/a/vitest.config.ts").as_deref(),
            Some("export default {}\n")
        );
        assert_eq!(
            read("packages/b/jest.config.js").as_deref(),
            Some("module.exports = {}\n")
        );
        assert_eq!(read("packages/a/src/x.ts").as_deref(), Some("export const x = 1\n"));
        // Not there at that commit, a directory, a file taken for a directory.
        assert_eq!(read("packages/c/jest.config.js"), None);
        assert_eq!(read("packages/a"), None);
        assert_eq!(read("packages/a/src"), None);
        assert_eq!(read("package.json/x"), None);
        assert_eq!(read("nowhere/deep/file.js"), None);
        assert_eq!(read("packages/../package.json"), None);
        assert_eq!(read("../package.json"), None);
    }
}
