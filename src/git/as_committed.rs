//! History as it was committed: no replace refs, no grafts.
//!
//! `git replace <commit> <other>` makes git read `<other>` wherever
//! `<commit>` is named, its signature included: an agent's unsigned commit
//! read as the one a lead signed. `.git/info/grafts` gives a commit other
//! parents, in git and in libgit2 both, so a range loses the commits it
//! hides. Both live in the git directory, which the agent can write, and
//! neither travels with a push. So every git loki-gate runs ignores replace
//! refs, and a repository with a graft file is not judged at all (libgit2,
//! which reads history here, cannot be told to ignore it; git deprecated
//! grafts in 2.18).

use std::process::Command;

use anyhow::{Result, bail};

/// `git`, reading objects as committed: replace refs ignored.
pub fn git() -> Command {
    let mut command = Command::new("git");
    command.arg("--no-replace-objects").env("GIT_NO_REPLACE_OBJECTS", "1");
    command
}

/// Write the files of the commit checked out (detached, with
/// `--no-checkout`) in the linked worktree at `worktree` from their blobs,
/// with libgit2: none of the repository's filter drivers (a smudge command
/// could rewrite a test on the way out), hooks (`post-checkout`) or
/// fsmonitor runs. Line-ending attributes apply as git would apply them.
pub fn check_out_files(worktree: &std::path::Path) -> Result<()> {
    let words = |e: git2::Error| {
        anyhow::anyhow!(
            "could not write the files of {}: {}",
            worktree.display(),
            super::plain(&e)
        )
    };
    let repo = git2::Repository::open(worktree).map_err(words)?;
    let mut how = git2::build::CheckoutBuilder::new();
    how.force();
    repo.checkout_head(Some(&mut how)).map_err(words)
}

/// Refuse a repository whose history a graft file rewrites.
pub(super) fn refuse_grafts(repo: &git2::Repository) -> Result<()> {
    let grafts = repo.commondir().join("info").join("grafts");
    let rewrites = std::fs::read(&grafts).is_ok_and(|text| text.iter().any(|b| !b.is_ascii_whitespace()));
    if rewrites {
        bail!(
            "{} rewrites the repository's history (git's deprecated grafts): loki-gate reads history as committed; remove the file, or turn it into replace refs with `git replace --convert-graft-file` (which loki-gate ignores)",
            grafts.display()
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::Repo;
    use super::super::testing::{git, repo};

    #[test]
    fn a_graft_file_is_refused_and_an_empty_one_is_not() {
        let dir = repo();
        std::fs::write(dir.path().join("a"), "a").unwrap();
        git(dir.path(), &["add", "a"]);
        git(dir.path(), &["commit", "-qm", "a"]);
        let head = git(dir.path(), &["rev-parse", "HEAD"]);
        let grafts = dir.path().join(".git/info/grafts");
        std::fs::create_dir_all(grafts.parent().unwrap()).unwrap();
        std::fs::write(&grafts, "").unwrap();
        if let Err(e) = Repo::discover(dir.path()) {
            panic!("{e:#}");
        }
        std::fs::write(&grafts, format!("{}\n", head.trim())).unwrap();
        let err = Repo::discover(dir.path()).err().unwrap().to_string();
        assert!(err.contains("rewrites the repository's history"), "{err}");
        assert!(err.contains("git replace --convert-graft-file"), "{err}");
    }
}
