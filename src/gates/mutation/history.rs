//! The mutation gate's range: the commits since the base (and what is not
//! committed yet) as steps, what each step changed, and the trace of a
//! snapshot or a revert back to the base.

use super::*;

/// The steps of the range and what "existed at the base" means for them;
/// `unseen` says why part of the range could not be read (a shallow clone
/// that ends before the base).
pub(super) fn range(
    cx: &Context<'_>,
    settings: &Settings,
    notices: &mut Vec<String>,
    unseen: &mut Option<String>,
) -> Result<(Vec<Step>, Baseline)> {
    let repo = cx.repo;
    let keep =
        |p: &Path| !cx.exclude.is_match(p) && !cx.skip_dirs.iter().any(|d| p.starts_with(d)) && cx.scope.admits(p);
    let max = settings.max_commits;
    let Some(head) = repo.head()? else {
        notices.push("the repository has no commits yet: there is no history to inspect".into());
        return Ok((Vec::new(), Baseline::Commit(None)));
    };
    let mut steps = Vec::new();
    let baseline = match cx.scope {
        Scope::Staged => {
            let changes = repo
                .staged_changes()?
                .into_iter()
                .filter_map(|c| admitted(c, &keep))
                .collect();
            steps.push(Step {
                source: Source::Staged,
                label: "the staged change".into(),
                changes,
                acks: Vec::new(),
                reverted: None,
            });
            notices.push(format!("range: the staged change against HEAD ({})", short(&head)));
            Baseline::Commit(Some(head))
        }
        Scope::AllFiles | Scope::Files(_) => {
            let history = repo.history(None, max)?;
            describe(&history, None, &head, notices, settings);
            if let Some(end) = &history.shallow_end {
                *unseen = Some(format!(
                    "this shallow clone's history ends at {}: older commits were not compared; {}",
                    short(end),
                    git::SHALLOW_FIX
                ));
            }
            steps.extend(commit_steps(cx, &history, &keep, notices)?);
            Baseline::Parent
        }
        Scope::Diff { base } => {
            let (base, baseline) = match repo.resolve_base(base.as_deref()) {
                Ok(b) => {
                    notices.extend(b.notes.iter().cloned());
                    *unseen = b.unreachable.clone();
                    let baseline = Baseline::Commit(b.commit.clone());
                    (b.commit, baseline)
                }
                Err(e) if repo.is_shallow() => {
                    notices.push("gating the commits this shallow clone has, each against its parent".into());
                    *unseen = Some(format!("{e:#}"));
                    (None, Baseline::Parent)
                }
                Err(e) => return Err(e),
            };
            let history = repo.history(base.as_deref(), max)?;
            describe(&history, base.as_deref(), &head, notices, settings);
            if let (None, Some(end)) = (&unseen, &history.shallow_end) {
                *unseen = Some(format!(
                    "this shallow clone's history ends at {} before the base: the commits between were not compared; {}",
                    short(end),
                    git::SHALLOW_FIX
                ));
            }
            // With no commit in the range, the uncommitted changes are
            // measured from the base itself: the same as HEAD, but for a
            // snapshot of a working tree (a coding agent's session start).
            let from = match (&base, history.commits.is_empty()) {
                (Some(base), true) => base.as_str(),
                _ => head.as_str(),
            };
            steps.extend(commit_steps(cx, &history, &keep, notices)?);
            let uncommitted = uncommitted(cx, from, &keep)?;
            if !uncommitted.is_empty() {
                notices.push(format!(
                    "the uncommitted changes ({} file(s)) are gated as one more step",
                    uncommitted.len()
                ));
                steps.push(Step {
                    source: Source::Uncommitted,
                    label: "the uncommitted changes".into(),
                    changes: uncommitted,
                    acks: Vec::new(),
                    reverted: None,
                });
            }
            baseline
        }
    };
    Ok((steps, baseline))
}

/// Say which commits the range holds, and what it left out.
pub(super) fn describe(
    history: &git::History,
    base: Option<&str>,
    head: &str,
    notices: &mut Vec<String>,
    settings: &Settings,
) {
    let count = history.commits.len();
    let merges = history.commits.iter().filter(|c| !c.merged.is_empty()).count();
    let merges = match merges {
        0 => String::new(),
        n => format!("; {n} merge(s), each answering only for what differs from every parent"),
    };
    let range = match (base, history.commits.first()) {
        (Some(base), _) => format!("{}..{}", short(base), short(head)),
        (None, Some(oldest)) if history.truncated => format!(
            "the newest {count} commit(s) of {}, from {}",
            short(head),
            oldest.short()
        ),
        (None, _) => format!("all of {}'s history", short(head)),
    };
    notices.push(format!("range: {range} ({count} commit(s){merges})"));
    if history.truncated {
        notices.push(format!(
            "only the newest {} commit(s) were inspected (gates.mutation.max-commits, --max-commits); older ones in the range were not",
            settings.max_commits.unwrap_or(count)
        ));
    }
    // A shallow clone's end is the gate's `inconclusive` reason instead.
    if history.ended_early && history.shallow_end.is_none() {
        let oldest = history.commits.first().map_or("", |c| c.short());
        notices.push(format!(
            "the history ends at the root commit {oldest} without reaching the base: its changes count as new"
        ));
    }
}

pub(super) fn tree_change(c: git::TreeChange) -> FileChange {
    FileChange {
        old_path: c.old_path.or_else(|| c.old_blob.as_ref().map(|_| c.path.clone())),
        path: c.path,
        old: c.old_blob.map(|id| format!("blob:{id}")),
        new: c.new_blob.map(|id| format!("blob:{id}")),
        kind: Kind::Other,
        at_base: None,
        moved_out: None,
    }
}

/// Why a path a test file moved to is out of sight.
const EXCLUDED: &str = "which `exclude` leaves out";

/// `c` as the gate reads it, when `keep` admits its path; a file renamed
/// from a path `keep` admits to one it leaves out went out of sight.
fn admitted(c: git::TreeChange, keep: &dyn Fn(&Path) -> bool) -> Option<FileChange> {
    if keep(&c.path) {
        return Some(tree_change(c));
    }
    let gone_to = c.old_path.as_deref().filter(|old| keep(old)).map(|_| c.path.clone())?;
    Some(FileChange {
        moved_out: Some((gone_to, EXCLUDED)),
        ..tree_change(c)
    })
}

pub(super) fn commit_steps(
    cx: &Context<'_>,
    history: &git::History,
    keep: &dyn Fn(&Path) -> bool,
    notices: &mut Vec<String>,
) -> Result<Vec<Step>> {
    let mut steps = Vec::with_capacity(history.commits.len());
    for commit in &history.commits {
        let mut changes = Vec::new();
        for change in cx.repo.commit_changes(commit.parent.as_deref(), &commit.id)? {
            // A merge answers only for what differs from every parent (git's
            // combined diff): what one side brought is that side's commits'.
            let mut from_a_side = false;
            for other in &commit.merged {
                from_a_side |= cx.repo.blob_id_at(other, &change.path)? == change.new_blob;
            }
            if from_a_side {
                continue;
            }
            changes.extend(admitted(change, keep));
        }
        let (acks, problems) = ack::parse(&commit.message);
        notices.extend(problems.into_iter().map(|p| format!("{}: {p}", commit.short())));
        steps.push(Step {
            label: format!("{} \u{201c}{}\u{201d}", commit.short(), commit.summary),
            source: Source::Commit(commit.clone()),
            changes,
            acks,
            reverted: None,
        });
    }
    Ok(steps)
}

/// HEAD against the working tree: staged, unstaged and untracked changes.
pub(super) fn uncommitted(cx: &Context<'_>, head: &str, keep: &dyn Fn(&Path) -> bool) -> Result<Vec<FileChange>> {
    let base = git::Base::at(Some(head.to_string()));
    let diffs = cx.repo.diff(Side::Worktree(&base), &cx.skip_dirs, Detail::Lines)?;
    let mut changes = Vec::new();
    for d in diffs
        .into_iter()
        .filter(|d| (keep(&d.path) || d.old_path.as_deref().is_some_and(keep)) && !d.binary)
    {
        let moved_out = (!keep(&d.path)).then(|| (d.path.clone(), EXCLUDED));
        let old_path = match d.status {
            Status::Added | Status::Untracked => None,
            _ => Some(d.old_path.clone().unwrap_or_else(|| d.path.clone())),
        };
        let old = match &old_path {
            Some(p) => cx.repo.blob_id_at(head, p)?.map(|id| format!("blob:{id}")),
            None => None,
        };
        let new = (d.status != Status::Deleted).then(|| format!("file:{}", display_path(&d.path)));
        changes.push(FileChange {
            path: d.path,
            old_path,
            old,
            new,
            kind: Kind::Other,
            at_base: None,
            moved_out,
        });
    }
    Ok(changes)
}

/// A snapshot file's test file, as it is in the same step.
pub(super) fn link_snapshot_owners(cx: &Context<'_>, steps: &mut [Step]) -> Result<()> {
    for step in steps {
        let changed: HashMap<PathBuf, Option<String>> =
            step.changes.iter().map(|c| (c.path.clone(), c.new.clone())).collect();
        for change in &mut step.changes {
            let Kind::Snapshot { owner, owner_version } = &mut change.kind else {
                continue;
            };
            *owner_version = match (changed.get(owner.as_path()), &step.source) {
                (Some(version), _) => version.clone(),
                (None, Source::Commit(commit)) => cx.repo.blob_id_at(&commit.id, owner)?.map(|id| format!("blob:{id}")),
                (None, Source::Staged) => cx.repo.index_blob_id(owner)?.map(|id| format!("blob:{id}")),
                (None, Source::Uncommitted) => cx
                    .repo
                    .root()
                    .join(owner.as_path())
                    .is_file()
                    .then(|| format!("file:{}", display_path(owner))),
            };
        }
    }
    Ok(())
}

/// The commit a revert names in git's own words (`This reverts commit <id>.`).
pub(super) fn reverted_commit(message: &str) -> Option<&str> {
    let rest = &message[message.find("This reverts commit ")? + "This reverts commit ".len()..];
    let id = rest.split(|c: char| !c.is_ascii_hexdigit()).next()?;
    (id.len() == 40).then_some(id)
}

/// The title a revert names without its id, as a squash merge of a pull
/// request made with GitHub's revert button writes it: `Revert "<title>"`,
/// maybe followed by ` (#N)`.
pub(super) fn reverted_title(summary: &str) -> Option<&str> {
    let quoted = summary.strip_prefix("Revert \"")?;
    let quoted = match quoted.rfind(" (#") {
        Some(at) if git::pull_request_suffix(&quoted[at..]) => &quoted[..at],
        _ => quoted,
    };
    quoted.strip_suffix('"').filter(|title| !title.is_empty())
}

/// How far back a revert named by title is looked for.
pub(super) const REVERT_REACH: usize = 1000;

/// For each revert, what its test and snapshot files held before the
/// commit it reverts (when this clone has that commit and its parent).
pub(super) fn read_reverted(
    cx: &Context<'_>,
    steps: &mut [Step],
    cache: Option<&Cache>,
    notices: &mut Vec<String>,
) -> Result<()> {
    for step in steps {
        let Source::Commit(commit) = &step.source else { continue };
        let reverted = match reverted_commit(&commit.message) {
            Some(id) => Some(id.to_string()),
            None => reverted_title(&commit.summary)
                .and_then(|title| cx.repo.ancestor_titled(&commit.id, title, REVERT_REACH)),
        };
        let Some(before) = reverted.and_then(|id| cx.repo.commit(&id).ok()).and_then(|c| c.parent) else {
            continue;
        };
        let mut files: Vec<(PathBuf, String, Option<Lang>)> = Vec::new();
        for change in &step.changes {
            let Some(lang) = change.kind.facts_lang() else { continue };
            let path = change.old_path.as_ref().unwrap_or(&change.path);
            if let Some(id) = cx.repo.blob_id_at(&before, path)? {
                files.push((path.clone(), format!("blob:{id}"), lang));
            }
        }
        let mut facts = Facts::default();
        facts.read(cx, &files, &mut Versions::default(), cache, notices)?;
        step.reverted = Some(facts);
    }
    Ok(())
}

/// Follow renames through the range so each change knows where its old
/// side was at the base (fixed base only).
pub(super) fn trace_to_base(steps: &mut [Step], baseline: &Baseline) {
    let Baseline::Commit(base) = baseline else { return };
    // The current path of a file -> its path at the base (`None`: not there).
    let mut origin: HashMap<PathBuf, Option<PathBuf>> = HashMap::new();
    for step in steps {
        let mut moves = Vec::new();
        for change in &mut step.changes {
            let at_base = change
                .old_path
                .as_ref()
                .and_then(|old| origin.get(old).cloned().unwrap_or_else(|| Some(old.clone())));
            change.at_base = if base.is_some() { at_base.clone() } else { None };
            match (&change.old_path, &change.new) {
                (_, None) => moves.push((change.path.clone(), None)),
                (Some(old), Some(_)) if *old != change.path => {
                    moves.push((old.clone(), None));
                    moves.push((change.path.clone(), at_base));
                }
                (None, Some(_)) => moves.push((change.path.clone(), None)),
                _ => {}
            }
        }
        for (path, at_base) in moves {
            origin.insert(path, at_base);
        }
    }
}
