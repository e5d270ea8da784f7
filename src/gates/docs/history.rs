//! The history `docs/stale` reads: the newest first-parent commits of HEAD
//! and the paths each changed. Diffing a thousand commits took a pre-commit
//! hook 225 ms on pydantic (5,700 commits) for an answer that changes by one
//! commit at a time, so the window is kept per commit in the state
//! directory ([`PerCommit`]): a hook at the same HEAD reads it whole, and
//! one a few commits later diffs only the new commits and carries the rest.

use std::collections::BTreeSet;

use anyhow::Result;
use serde::{Deserialize, Serialize};

use super::super::Context;
use super::settings::Settings;
use crate::cache::PerCommit;
use crate::git::display_path;

/// One commit of the window, as `docs/stale` reads it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(super) struct Step {
    pub id: String,
    pub summary: String,
    /// Did it change source code outside the documentation paths?
    pub code: bool,
    /// The documentation prose it added or modified (`/`-separated paths;
    /// a rename counts under the new name).
    pub docs: Vec<String>,
}

/// At most this many new commits are diffed to carry an older window
/// forward; past that the window is read again from the history.
const CARRY: usize = 64;

/// The newest `max` commits of HEAD's first-parent history, newest first,
/// with what `settings` make of each. `also`: files that are not prose
/// whose changes count as a document's (the target of a README that is a
/// link); with any, the window is read anew, neither read from nor kept in
/// the state directory, whose windows hold prose alone. A shallow clone's
/// history is read as it is (deepening it changes what an ancestor's
/// window would say) and not kept.
pub(super) fn window(cx: &Context<'_>, settings: &Settings, max: usize, also: &BTreeSet<String>) -> Result<Vec<Step>> {
    let Some(head) = cx.repo.head()? else {
        return Ok(Vec::new());
    };
    let family = "first-parent-";
    let kept = (also.is_empty() && cx.cache && !cx.repo.is_shallow()).then(|| {
        // What a step says depends on the documentation paths: another
        // setting keeps another window.
        let settings_key = crate::cache::Cache::key("doc-paths", settings.doc_globs.join("\0").as_bytes());
        PerCommit::open(
            cx.store,
            &format!("{family}{}-{max}-{}", env!("CARGO_PKG_VERSION"), &settings_key[..12]),
        )
    });
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
        let mut step = Step {
            id: commit.id.clone(),
            summary: commit.summary.clone(),
            code: false,
            docs: Vec::new(),
        };
        for change in cx.repo.commit_paths(commit.parent.as_deref(), &commit.id)? {
            let path = display_path(&change.path);
            if super::is_prose(path.as_bytes()) || also.contains(&path) {
                if change.blob.is_some() {
                    step.docs.push(path);
                }
            } else if !step.code
                && super::has_extension(&change.path, super::SOURCE)
                && !settings.doc_paths.is_match(&change.path)
            {
                // Code kept with the docs (`docs/conf.py`) builds them: not
                // the code they describe.
                step.code = true;
            }
        }
        steps.push(step);
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
