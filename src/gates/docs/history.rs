//! The history `docs/stale` reads: the newest first-parent commits of HEAD
//! and the paths each changed. Diffing a thousand commits took a pre-commit
//! hook 225 ms on pydantic (5,700 commits) for an answer that changes by one
//! commit at a time, so the window is kept per commit in the state
//! directory ([`PerCommit`]): a hook at the same HEAD reads it whole, and
//! one a few commits later diffs only the new commits and carries the rest.

use anyhow::Result;
use serde::{Deserialize, Serialize};

use super::super::Context;
use crate::cache::PerCommit;
use crate::git::display_path;

/// One commit of the window.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(super) struct Step {
    pub id: String,
    pub summary: String,
    /// The paths it changed against its first parent (`/`-separated; a
    /// rename is the old path deleted and the new one added), each with
    /// `true` when it was deleted.
    pub changed: Vec<(String, bool)>,
}

/// At most this many new commits are diffed to carry an older window
/// forward; past that the window is read again from the history.
const CARRY: usize = 64;

/// The newest `max` commits of HEAD's first-parent history, newest first.
/// A shallow clone's history is read as it is (deepening it changes what
/// an ancestor's window would say) and not kept.
pub(super) fn window(cx: &Context<'_>, max: usize) -> Result<Vec<Step>> {
    let Some(head) = cx.repo.head()? else {
        return Ok(Vec::new());
    };
    let family = "first-parent-";
    let kept = (cx.cache && !cx.repo.is_shallow())
        .then(|| PerCommit::open(cx.store, &format!("{family}{}-{max}", env!("CARGO_PKG_VERSION"))));
    let read = |bytes: &[u8]| serde_json::from_slice::<Vec<Step>>(bytes).ok();
    if let Some(steps) = kept.as_ref().and_then(|k| read(&k.read(&head)?)) {
        return Ok(steps);
    }
    // An ancestor's window, when HEAD's first parents reach it soon.
    let carried = kept.as_ref().and_then(|k| k.latest(&head)).and_then(|(from, bytes)| {
        let recent = cx.repo.first_parent_history(Some(&from), Some(CARRY)).ok()?;
        let reached = !recent.truncated && !recent.ended_early;
        reached.then_some((recent.commits, read(&bytes)?))
    });
    let (commits, older) = match carried {
        Some(carried) => carried,
        None => (cx.repo.first_parent_history(None, Some(max))?.commits, Vec::new()),
    };
    let mut steps = Vec::with_capacity(max.min(commits.len() + older.len()));
    for commit in commits.iter().rev() {
        let changed = cx
            .repo
            .commit_paths(commit.parent.as_deref(), &commit.id)?
            .into_iter()
            .map(|(path, deleted)| (display_path(&path), deleted))
            .collect();
        steps.push(Step {
            id: commit.id.clone(),
            summary: commit.summary.clone(),
            changed,
        });
    }
    steps.extend(older);
    steps.truncate(max);
    if let Some(kept) = &kept
        && let Ok(json) = serde_json::to_vec(&steps)
        && kept.write(&head, &json).is_some()
    {
        kept.remove_other_versions(family);
    }
    Ok(steps)
}
