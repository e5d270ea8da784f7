//! The git hooks. `hook install` puts `hooks/pre-commit` and `hooks/pre-push`
//! where git runs them (`core.hooksPath` when set), moving a hook that was
//! already there aside so that it keeps running first; `hook uninstall` puts
//! it back. `hook run` (in `lib.rs`) is what the installed scripts call; the
//! pre-push half of it, choosing the base from the refs git pushes, is here.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, anyhow};

use crate::cli::Hook;
use crate::git::{HooksDir, Repo};
use crate::state::write_atomic_executable;

/// The line that marks a hook file as loki-gate's.
const MARKER: &str = "# loki-gate-hook:";

/// Appended to a hook's file name for the hook it replaced.
pub const PREVIOUS_SUFFIX: &str = ".loki-gate-previous";

/// The script installed for `hook` (the files in `hooks/`).
pub fn script(hook: Hook) -> &'static str {
    match hook {
        Hook::PreCommit => include_str!("../hooks/pre-commit"),
        Hook::PrePush => include_str!("../hooks/pre-push"),
    }
}

/// Is this hook file's text loki-gate's?
fn is_ours(text: &[u8]) -> bool {
    String::from_utf8_lossy(text)
        .lines()
        .take(3)
        .any(|l| l.starts_with(MARKER))
}

/// Read a hook file, `None` when there is none (a dangling symlink counts as one).
fn read_hook(path: &Path) -> Result<Option<Vec<u8>>> {
    match std::fs::symlink_metadata(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(anyhow!("could not read {}: {e}", path.display())),
        Ok(_) => {}
    }
    match std::fs::read(path) {
        Ok(bytes) => Ok(Some(bytes)),
        // A symlink to nowhere is still a file in the way: keep it, as is.
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Some(Vec::new())),
        Err(e) => Err(anyhow!("could not read the hook {}: {e}", path.display())),
    }
}

fn previous_path(path: &Path) -> PathBuf {
    let mut name = path.file_name().expect("a hook file name").to_os_string();
    name.push(PREVIOUS_SUFFIX);
    path.with_file_name(name)
}

/// Shown paths: relative to the repository root when inside it.
fn shown(root: &Path, path: &Path) -> String {
    path.strip_prefix(root).unwrap_or(path).display().to_string()
}

/// Install `hooks`; returns one line per hook saying what was done, then any
/// advice about a hook manager found in charge of the directory.
pub fn install(repo: &Repo, hooks: &[Hook]) -> Result<Vec<String>> {
    let place = repo.hooks_dir()?;
    std::fs::create_dir_all(&place.dir)
        .with_context(|| format!("could not create the hooks directory {}", place.dir.display()))?;
    let root = repo.root();
    let mut lines = Vec::new();
    let mut replaced: Vec<(Hook, String)> = Vec::new();
    for &hook in hooks {
        let path = place.dir.join(hook.name());
        let previous = previous_path(&path);
        let (path_shown, previous_shown) = (shown(root, &path), shown(root, &previous));
        match read_hook(&path)? {
            Some(text) if is_ours(&text) => {
                if text == script(hook).as_bytes() {
                    lines.push(format!("{path_shown}: already installed"));
                    continue;
                }
                write_atomic_executable(&path, script(hook).as_bytes())?;
                lines.push(format!("{path_shown}: updated to this version's hook"));
            }
            Some(text) => {
                if let Some(earlier) = read_hook(&previous)? {
                    // Ours was replaced (a hook manager reinstalled itself) after
                    // an earlier install kept the hook before that one.
                    if earlier != text {
                        return Err(anyhow!(
                            "{path_shown} is not loki-gate's, and {previous_shown} holds the hook an earlier install kept: \
                             move one of them aside (or merge them into {path_shown}) and install again"
                        ));
                    }
                    std::fs::remove_file(&path).with_context(|| format!("could not remove {path_shown}"))?;
                } else {
                    std::fs::rename(&path, &previous)
                        .with_context(|| format!("could not move {path_shown} to {previous_shown}"))?;
                }
                replaced.push((hook, String::from_utf8_lossy(&text).into_owned()));
                write_atomic_executable(&path, script(hook).as_bytes())?;
                lines.push(format!(
                    "{path_shown}: installed; the hook that was there is now {previous_shown} and runs first"
                ));
            }
            None => {
                write_atomic_executable(&path, script(hook).as_bytes())?;
                lines.push(format!("{path_shown}: installed"));
            }
        }
    }
    lines.extend(manager_advice(repo, &place, &replaced));
    Ok(lines)
}

/// Advice when a hook manager owns the hooks directory or the hook replaced:
/// its own install may put its hook back over loki-gate's.
fn manager_advice(repo: &Repo, place: &HooksDir, replaced: &[(Hook, String)]) -> Vec<String> {
    let mut advice = Vec::new();
    if let Some(configured) = &place.configured
        && configured.contains(".husky")
    {
        advice.push(format!(
            "note: core.hooksPath is `{configured}` (husky), which husky rewrites when it installs; \
             to keep loki-gate there for everyone, add `loki-gate hook run pre-commit` to .husky/pre-commit \
             (docs/hooks.md)"
        ));
    }
    let lefthook_config = ["lefthook.yml", ".lefthook.yml", "lefthook.yaml", ".lefthook.yaml"]
        .iter()
        .any(|f| repo.root().join(f).exists());
    if lefthook_config || replaced.iter().any(|(_, text)| text.contains("lefthook")) {
        advice.push(
            "note: lefthook manages these hooks, and `lefthook install` puts its own back over loki-gate's; \
             add loki-gate to lefthook.yml instead (the snippet is in docs/hooks.md)"
                .to_string(),
        );
    }
    for (hook, text) in replaced {
        if text.contains("File generated by pre-commit") {
            advice.push(format!(
                "note: the {} hook kept is pre-commit's (it still runs first); with pre-commit you can also use \
                 loki-gate's .pre-commit-hooks.yaml instead (docs/hooks.md)",
                hook.name()
            ));
        }
    }
    advice
}

/// Remove loki-gate's `hooks` and put back what they replaced.
pub fn uninstall(repo: &Repo, hooks: &[Hook]) -> Result<Vec<String>> {
    let place = repo.hooks_dir()?;
    let root = repo.root();
    let mut lines = Vec::new();
    for &hook in hooks {
        let path = place.dir.join(hook.name());
        let previous = previous_path(&path);
        let (path_shown, previous_shown) = (shown(root, &path), shown(root, &previous));
        let kept = read_hook(&previous)?.is_some();
        match read_hook(&path)? {
            Some(text) if !is_ours(&text) => {
                let also = if kept {
                    format!(" ({previous_shown}, kept by an earlier install, is left too)")
                } else {
                    String::new()
                };
                lines.push(format!("{path_shown}: not loki-gate's hook, left as it is{also}"));
                continue;
            }
            Some(_) => {
                std::fs::remove_file(&path).with_context(|| format!("could not remove {path_shown}"))?;
            }
            None if !kept => {
                lines.push(format!("{path_shown}: not installed"));
                continue;
            }
            None => {}
        }
        if kept {
            std::fs::rename(&previous, &path)
                .with_context(|| format!("could not move {previous_shown} back to {path_shown}"))?;
            lines.push(format!("{path_shown}: removed; the hook it replaced is back"));
        } else {
            lines.push(format!("{path_shown}: removed"));
        }
    }
    Ok(lines)
}

/// What a pre-push run gates, read from the refs git writes on its stdin.
#[derive(Debug, PartialEq, Eq)]
pub enum Push {
    /// Gate the checked-out work against `base` (`None`: the usual default).
    Gate { base: Option<String>, notes: Vec<String> },
    /// Nothing to gate, and why.
    Skip(String),
}

/// Choose what a pre-push run gates. `refs` holds git's lines
/// `<local ref> <local oid> <remote ref> <remote oid>`; `head` is HEAD's
/// commit; `known` says whether a commit is in this repository.
pub fn push_base(refs: &str, head: Option<&str>, known: &dyn Fn(&str) -> bool) -> Result<Push> {
    let is_zero = |oid: &str| oid.bytes().all(|b| b == b'0');
    let mut updates = Vec::new();
    for line in refs.lines().filter(|l| !l.trim().is_empty()) {
        let fields: Vec<&str> = line.split_whitespace().collect();
        let [local_ref, local, remote_ref, remote] = fields[..] else {
            return Err(anyhow!(
                "pre-push: git wrote `{line}` on stdin, not `<local ref> <local oid> <remote ref> <remote oid>`: \
                 run `loki-gate hook run pre-push` from the installed hook"
            ));
        };
        if !is_zero(local) {
            updates.push((local_ref, local, remote_ref, remote));
        }
    }
    if refs.trim().is_empty() {
        // Run by hand: nothing on stdin.
        return Ok(Push::Gate {
            base: None,
            notes: Vec::new(),
        });
    }
    if updates.is_empty() {
        return Ok(Push::Skip("the push only deletes remote refs: nothing to gate".into()));
    }
    let Some(&(_, _, remote_ref, remote)) = updates.iter().find(|(_, local, _, _)| Some(*local) == head) else {
        let names: Vec<&str> = updates.iter().map(|(local_ref, ..)| *local_ref).collect();
        return Ok(Push::Skip(format!(
            "the push sends {}, not the checked-out commit, and loki-gate gates the checked-out work: nothing gated",
            names.join(", ")
        )));
    };
    if is_zero(remote) {
        return Ok(Push::Gate {
            base: None,
            notes: vec![format!(
                "{remote_ref} is new on the remote: gating against the default base"
            )],
        });
    }
    if !known(remote) {
        return Ok(Push::Gate {
            base: None,
            notes: vec![format!(
                "the remote's {remote_ref} ({}) is not in this repository (git fetch to get it): gating against the default base",
                crate::git::short(remote)
            )],
        });
    }
    Ok(Push::Gate {
        base: Some(remote.to_string()),
        notes: Vec::new(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const HEAD: &str = "1111111111111111111111111111111111111111";
    const REMOTE: &str = "2222222222222222222222222222222222222222";
    const ZERO: &str = "0000000000000000000000000000000000000000";

    fn push(refs: &str) -> Push {
        push_base(refs, Some(HEAD), &|oid| oid == REMOTE).unwrap()
    }

    #[test]
    fn the_remote_commit_of_the_pushed_head_is_the_base() {
        let refs = format!("refs/heads/main {HEAD} refs/heads/main {REMOTE}\n");
        assert_eq!(
            push(&refs),
            Push::Gate {
                base: Some(REMOTE.into()),
                notes: vec![]
            }
        );
    }

    #[test]
    fn a_new_branch_or_an_unknown_remote_commit_falls_back_to_the_default_base() {
        let new = push(&format!("refs/heads/topic {HEAD} refs/heads/topic {ZERO}\n"));
        assert!(matches!(new, Push::Gate { base: None, ref notes } if notes[0].contains("new on the remote")));
        let unknown = push(&format!(
            "refs/heads/main {HEAD} refs/heads/main 3333333333333333333333333333333333333333\n"
        ));
        assert!(matches!(unknown, Push::Gate { base: None, ref notes } if notes[0].contains("git fetch")));
    }

    #[test]
    fn deletions_and_other_refs_are_not_gated() {
        assert!(
            matches!(push(&format!("(delete) {ZERO} refs/heads/old {REMOTE}\n")), Push::Skip(why) if why.contains("deletes"))
        );
        let other = push(&format!("refs/heads/other {REMOTE} refs/heads/other {ZERO}\n"));
        assert!(matches!(other, Push::Skip(why) if why.contains("refs/heads/other")));
    }

    #[test]
    fn no_refs_means_a_run_by_hand_and_a_bad_line_is_an_error() {
        assert_eq!(
            push("\n"),
            Push::Gate {
                base: None,
                notes: vec![]
            }
        );
        assert!(push_base("refs/heads/main abc\n", Some(HEAD), &|_| true).is_err());
    }

    #[test]
    fn the_marker_is_what_makes_a_hook_ours() {
        assert!(is_ours(script(Hook::PreCommit).as_bytes()));
        assert!(is_ours(script(Hook::PrePush).as_bytes()));
        assert!(!is_ours(b"#!/bin/sh\nexec lefthook run pre-commit\n"));
        assert!(!is_ours(
            b"#!/bin/sh\n# this mentions # loki-gate-hook: further down\n\n\necho\n"
        ));
    }
}
