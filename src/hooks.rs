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
        // A hook manager that runs loki-gate at this hook already would run
        // it twice with loki-gate's own hook chained after it.
        if let Some(manager) = runs_loki_gate(root, hook) {
            lines.push(format!(
                "{}: {manager} already runs loki-gate there; not installed (it would gate every {} twice)",
                hook.name(),
                if hook == Hook::PreCommit { "commit" } else { "push" }
            ));
            continue;
        }
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

/// The hook manager's config at `root` that already calls loki-gate at
/// `hook`: lefthook's `<hook>:` section, a husky hook script, or a
/// pre-commit framework hook whose id or entry names loki-gate at that stage.
fn runs_loki_gate(root: &Path, hook: Hook) -> Option<String> {
    let read = |name: &str| std::fs::read_to_string(root.join(name)).ok();
    for name in [
        "lefthook.yml",
        ".lefthook.yml",
        "lefthook.yaml",
        ".lefthook.yaml",
        "lefthook-local.yml",
    ] {
        let Some(text) = read(name) else { continue };
        let Ok(doc) = crate::config::yaml::parse(&text) else {
            continue;
        };
        let crate::config::yaml::Value::Map(sections) = &doc.value else {
            continue;
        };
        if sections
            .iter()
            .any(|(key, section)| key.name == hook.name() && mentions(&section.value))
        {
            return Some(name.to_string());
        }
    }
    let husky = format!(".husky/{}", hook.name());
    if read(&husky).is_some_and(|t| {
        t.lines()
            .any(|l| !l.trim_start().starts_with('#') && l.contains("loki-gate"))
    }) {
        return Some(husky);
    }
    let config = read(".pre-commit-config.yaml")?;
    let doc = crate::config::yaml::parse(&config).ok()?;
    let stage = hook.name();
    let calls = |h: &crate::config::yaml::Node| {
        let field = |k: &str| match &h.value {
            crate::config::yaml::Value::Map(m) => m.iter().find(|(key, _)| key.name == k).map(|(_, v)| v),
            _ => None,
        };
        let ours =
            field("id").is_some_and(|v| mentions(&v.value)) || field("entry").is_some_and(|v| mentions(&v.value));
        // No `stages:` runs a hook at its default stage: pre-commit for
        // loki-gate's own ids, except loki-gate-pre-push.
        let default_push = field("id").is_some_and(|v| scalar(&v.value).is_some_and(|id| id.ends_with("pre-push")));
        let at_stage = match field("stages") {
            Some(stages) => mentions_exactly(&stages.value, stage),
            None => (stage == "pre-push") == default_push,
        };
        ours && at_stage
    };
    let mut hooks = Vec::new();
    collect_hooks(&doc, &mut hooks);
    hooks
        .into_iter()
        .any(calls)
        .then(|| ".pre-commit-config.yaml".to_string())
}

/// Every `hooks:` item of a pre-commit config.
fn collect_hooks<'a>(node: &'a crate::config::yaml::Node, out: &mut Vec<&'a crate::config::yaml::Node>) {
    use crate::config::yaml::Value;
    match &node.value {
        Value::Map(pairs) => {
            for (key, value) in pairs {
                match (&value.value, key.name.as_str()) {
                    (Value::Seq(items), "hooks") => out.extend(items.iter()),
                    _ => collect_hooks(value, out),
                }
            }
        }
        Value::Seq(items) => items.iter().for_each(|i| collect_hooks(i, out)),
        _ => {}
    }
}

fn scalar(value: &crate::config::yaml::Value) -> Option<&str> {
    match value {
        crate::config::yaml::Value::Str(s) => Some(s),
        _ => None,
    }
}

/// Does a YAML value (a command, a list of jobs) name loki-gate anywhere?
fn mentions(value: &crate::config::yaml::Value) -> bool {
    use crate::config::yaml::Value;
    match value {
        Value::Str(s) => s.contains("loki-gate"),
        Value::Seq(items) => items.iter().any(|i| mentions(&i.value)),
        Value::Map(pairs) => pairs
            .iter()
            .any(|(k, v)| k.name.contains("loki-gate") || mentions(&v.value)),
        _ => false,
    }
}

fn mentions_exactly(value: &crate::config::yaml::Value, item: &str) -> bool {
    use crate::config::yaml::Value;
    match value {
        Value::Str(s) => s == item || (item == "pre-commit" && s == "commit") || (item == "pre-push" && s == "push"),
        Value::Seq(items) => items.iter().any(|i| mentions_exactly(&i.value, item)),
        _ => false,
    }
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

/// One line git writes on the pre-push hook's stdin: a remote ref the
/// push updates (a deletion has a zero local id).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Update {
    pub local_ref: String,
    pub local: String,
    pub remote_ref: String,
    pub remote: String,
}

/// What a pre-push run gates, read from the refs git writes on its stdin.
#[derive(Debug, PartialEq, Eq)]
pub enum Push {
    /// No refs on stdin (run by hand): the checked-out work, against the usual base.
    ByHand,
    /// Gate each of these; `notes` say what was left out and why.
    Gate { targets: Vec<Target>, notes: Vec<String> },
    /// Nothing to gate, and why.
    Skip(String),
}

/// One pushed commit to gate (several refs pushing the same commit from
/// the same base are gated once).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Target {
    /// The pushed commit, full hex (an annotated tag peeled).
    pub commit: String,
    /// The refs that push it (`refs/tags/v1`).
    pub refs: Vec<String>,
    /// What the remote already has: its commit of the ref (the run gates
    /// from the merge base with it), or the commit where the new work
    /// forked off what the remote has, or [`crate::git::EMPTY_TREE`] when
    /// the remote has none of the history.
    pub base: String,
    /// How the base was chosen, when it says something.
    pub notes: Vec<String>,
}

/// What a push's plan asks of the repository.
pub trait PushHistory {
    /// The commit `oid` names (a tag peeled), when this repository has it.
    fn commit_of(&self, oid: &str) -> Option<String>;
    /// What `remote` (every remote when `None`) lacks of `commit`'s history.
    fn unpushed(&self, commit: &str, remote: Option<&str>) -> Result<crate::git::Unpushed>;
}

impl PushHistory for Repo {
    fn commit_of(&self, oid: &str) -> Option<String> {
        Repo::commit_of(self, oid)
    }
    fn unpushed(&self, commit: &str, remote: Option<&str>) -> Result<crate::git::Unpushed> {
        Repo::unpushed(self, commit, remote)
    }
}

fn is_zero(oid: &str) -> bool {
    oid.bytes().all(|b| b == b'0')
}

/// Read git's lines `<local ref> <local oid> <remote ref> <remote oid>`.
pub fn updates(refs: &str) -> Result<Vec<Update>> {
    let mut updates = Vec::new();
    for line in refs.lines().filter(|l| !l.trim().is_empty()) {
        let fields: Vec<&str> = line.split_whitespace().collect();
        let [local_ref, local, remote_ref, remote] = fields[..] else {
            return Err(anyhow!(
                "pre-push: git wrote `{line}` on stdin, not `<local ref> <local oid> <remote ref> <remote oid>`: \
                 run `loki-gate hook run pre-push` from the installed hook"
            ));
        };
        updates.push(Update {
            local_ref: local_ref.to_string(),
            local: local.to_string(),
            remote_ref: remote_ref.to_string(),
            remote: remote.to_string(),
        });
    }
    Ok(updates)
}

/// Choose what a pre-push run gates: every ref the push updates that is
/// not a deletion (branches, tags, several at once), each against what
/// `remote` (the name git passes the hook; `None`: not known, every
/// remote's refs count) already has of it. A ref the remote has no commit
/// of is gated from where its new commits fork off what the remote has
/// (`git rev-list <commit> --not --remotes=<remote>`), or whole when the
/// remote has none of its history.
pub fn plan(refs: &str, remote: Option<&str>, history: &dyn PushHistory) -> Result<Push> {
    let updates = updates(refs)?;
    if updates.is_empty() {
        return Ok(Push::ByHand);
    }
    let live: Vec<&Update> = updates.iter().filter(|u| !is_zero(&u.local)).collect();
    if live.is_empty() {
        return Ok(Push::Skip("the push only deletes remote refs: nothing to gate".into()));
    }
    let them = remote.map_or_else(|| "the remote".to_string(), str::to_string);
    let mut targets: Vec<Target> = Vec::new();
    let mut notes = Vec::new();
    for update in live {
        let name = update.local_ref.as_str();
        let Some(commit) = history.commit_of(&update.local) else {
            notes.push(format!(
                "{name} ({}) is not a commit: nothing of it to gate",
                crate::git::short(&update.local)
            ));
            continue;
        };
        let mut said = Vec::new();
        let remote_commit = (!is_zero(&update.remote))
            .then(|| history.commit_of(&update.remote))
            .flatten();
        let base = match remote_commit {
            Some(theirs) => theirs,
            None => {
                let unpushed = history.unpushed(&commit, remote)?;
                if unpushed.count == 0 {
                    notes.push(format!(
                        "{name} ({}): {them} has every commit of it already: nothing new to gate",
                        crate::git::short(&commit)
                    ));
                    continue;
                }
                let why = if is_zero(&update.remote) {
                    format!("{} is new on {them}", update.remote_ref)
                } else {
                    format!(
                        "{them}'s {} ({}) is not in this repository (git fetch to get it)",
                        update.remote_ref,
                        crate::git::short(&update.remote)
                    )
                };
                let tracked = match remote {
                    Some(remote) => format!("on any of {remote}'s refs"),
                    None => "on any remote-tracking ref".to_string(),
                };
                match unpushed.fork {
                    Some(fork) => {
                        said.push(format!(
                            "{why}: gating its {} commit(s) not {tracked}, from {}",
                            unpushed.count,
                            crate::git::short(&fork)
                        ));
                        fork
                    }
                    None => {
                        said.push(format!(
                            "{why}, and none of its history is {tracked}: gating every file of {}",
                            crate::git::short(&commit)
                        ));
                        crate::git::EMPTY_TREE.to_string()
                    }
                }
            }
        };
        match targets.iter_mut().find(|t| t.commit == commit && t.base == base) {
            Some(same) => same.refs.push(name.to_string()),
            None => targets.push(Target {
                commit,
                refs: vec![name.to_string()],
                base,
                notes: said,
            }),
        }
    }
    if targets.is_empty() {
        return Ok(Push::Skip(notes.join("; ")));
    }
    Ok(Push::Gate { targets, notes })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::git::Unpushed;

    const HEAD: &str = "1111111111111111111111111111111111111111";
    const REMOTE: &str = "2222222222222222222222222222222222222222";
    const FORK: &str = "4444444444444444444444444444444444444444";
    const ZERO: &str = "0000000000000000000000000000000000000000";

    /// A repository that has HEAD, REMOTE and FORK; `new` commits of HEAD
    /// are on no ref of the remote, forking off FORK (`None`: a history
    /// the remote has none of).
    struct Fake {
        new: usize,
        fork: Option<&'static str>,
    }

    impl PushHistory for Fake {
        fn commit_of(&self, oid: &str) -> Option<String> {
            [HEAD, REMOTE, FORK].contains(&oid).then(|| oid.to_string())
        }
        fn unpushed(&self, _: &str, _: Option<&str>) -> Result<Unpushed> {
            Ok(Unpushed {
                count: self.new,
                fork: self.fork.map(str::to_string),
            })
        }
    }

    fn push(refs: &str) -> Push {
        plan(
            refs,
            Some("origin"),
            &Fake {
                new: 2,
                fork: Some(FORK),
            },
        )
        .unwrap()
    }

    fn target(commit: &str, refs: &[&str], base: &str) -> Target {
        Target {
            commit: commit.into(),
            refs: refs.iter().map(|r| r.to_string()).collect(),
            base: base.into(),
            notes: vec![],
        }
    }

    #[test]
    fn the_remote_commit_of_the_pushed_ref_is_the_base() {
        let refs = format!("refs/heads/main {HEAD} refs/heads/main {REMOTE}\n");
        assert_eq!(
            push(&refs),
            Push::Gate {
                targets: vec![target(HEAD, &["refs/heads/main"], REMOTE)],
                notes: vec![]
            }
        );
    }

    #[test]
    fn a_new_ref_or_an_unknown_remote_commit_is_gated_from_where_it_forks_off_the_remote() {
        let Push::Gate { targets, .. } = push(&format!("refs/heads/topic {HEAD} refs/heads/topic {ZERO}\n")) else {
            panic!("gated")
        };
        assert_eq!(targets[0].base, FORK);
        assert!(targets[0].notes[0].contains("new on origin"), "{:?}", targets[0].notes);
        let Push::Gate { targets, .. } = push(&format!(
            "refs/heads/main {HEAD} refs/heads/main 3333333333333333333333333333333333333333\n"
        )) else {
            panic!("gated")
        };
        assert_eq!(targets[0].base, FORK);
        assert!(targets[0].notes[0].contains("git fetch"), "{:?}", targets[0].notes);
    }

    #[test]
    fn a_history_the_remote_has_none_of_is_gated_whole() {
        let refs = format!("refs/tags/v1 {HEAD} refs/tags/v1 {ZERO}\n");
        let Push::Gate { targets, .. } = plan(&refs, None, &Fake { new: 3, fork: None }).unwrap() else {
            panic!("gated")
        };
        assert_eq!(targets[0].base, crate::git::EMPTY_TREE);
        assert!(
            targets[0].notes[0].contains("none of its history is on any remote-tracking ref"),
            "{:?}",
            targets[0].notes
        );
    }

    #[test]
    fn tags_other_branches_and_several_refs_are_each_gated_and_the_same_commit_once() {
        let refs = format!(
            "refs/tags/v1 {HEAD} refs/tags/v1 {ZERO}\nrefs/heads/other {REMOTE} refs/heads/other {ZERO}\nrefs/heads/main {HEAD} refs/heads/main {REMOTE}\nrefs/heads/topic {HEAD} refs/heads/topic {ZERO}\n"
        );
        let Push::Gate { targets, .. } = push(&refs) else {
            panic!("gated")
        };
        let got: Vec<(&str, Vec<String>, &str)> = targets
            .iter()
            .map(|t| (t.commit.as_str(), t.refs.clone(), t.base.as_str()))
            .collect();
        assert_eq!(
            got,
            vec![
                (HEAD, vec!["refs/tags/v1".into(), "refs/heads/topic".into()], FORK),
                (REMOTE, vec!["refs/heads/other".into()], FORK),
                (HEAD, vec!["refs/heads/main".into()], REMOTE),
            ]
        );
    }

    #[test]
    fn deletions_and_refs_the_remote_has_whole_gate_nothing() {
        assert!(
            matches!(push(&format!("(delete) {ZERO} refs/heads/old {REMOTE}\n")), Push::Skip(why) if why.contains("deletes"))
        );
        let refs = format!("refs/tags/v0 {REMOTE} refs/tags/v0 {ZERO}\n");
        let old = plan(
            &refs,
            Some("origin"),
            &Fake {
                new: 0,
                fork: Some(REMOTE),
            },
        )
        .unwrap();
        assert!(matches!(old, Push::Skip(why) if why.contains("origin has every commit of it")));
    }

    #[test]
    fn no_refs_means_a_run_by_hand_and_a_bad_line_is_an_error() {
        assert_eq!(push("\n"), Push::ByHand);
        assert!(plan("refs/heads/main abc\n", None, &Fake { new: 0, fork: None }).is_err());
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
