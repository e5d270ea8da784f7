//! Inline suppressions by origin. A suppression is the base's when the
//! file's version at the trusted revision (under its old name, if the change
//! renamed it) has one with the same rules and reason: moving or
//! re-indenting it adds nothing. The rest were added by the change; blame
//! says which commit wrote each line, and so whose hand it is.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use anyhow::Result;

use super::waiver::{Kind, Waiver};
use super::{Hand, Judge};
use crate::git::{Repo, Wrote};
use crate::suppress::Suppression;

/// One waiver per suppression of `path` (in order), `text` being the file
/// as the gate read it. Decisions are made once per file per run.
pub fn judge_suppressions(judge: &Judge, path: &str, text: &str, suppressions: &[Suppression]) -> Vec<Waiver> {
    if suppressions.is_empty() {
        return Vec::new();
    }
    let mut cache = judge.inline.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some(known) = cache.get(path) {
        return known.clone();
    }
    let judged = judge
        .with_repo(|repo| judge_file(judge, repo, path, text, suppressions))
        .unwrap_or_else(|e| {
            // What cannot be read cannot be the base's: every one counts as
            // added, with no known hand.
            let verdict = judge.verdict(None);
            suppressions
                .iter()
                .map(|s| {
                    let mut w = waiver(s).added(verdict.clone());
                    w.authors = vec![format!("unknown ({})", crate::wording::describe(&e))];
                    w
                })
                .collect()
        });
    cache.insert(path.to_string(), judged.clone());
    judged
}

/// The suppression as a waiver the base has; [`Waiver::added`] judges it otherwise.
fn waiver(s: &Suppression) -> Waiver {
    Waiver {
        path: Some(s.path.clone()),
        line: Some(s.line),
        column: Some(s.column),
        ..Waiver::new(Kind::Suppression, s.rules.clone(), s.reason.clone())
    }
}

/// The identity of a suppression for matching against the base's.
fn key(s: &Suppression) -> (Vec<String>, String) {
    let mut rules = s.rules.clone();
    rules.sort();
    (rules, s.reason.clone())
}

fn judge_file(judge: &Judge, repo: &Repo, path: &str, text: &str, suppressions: &[Suppression]) -> Result<Vec<Waiver>> {
    // How many of each the base has.
    let mut at_base: HashMap<(Vec<String>, String), usize> = HashMap::new();
    if let Some(rev) = judge.rev() {
        let here = PathBuf::from(path);
        let base_path = match repo.blob_at(rev, &here)? {
            Some(_) => Some(here),
            None => judge.old_name(repo, &here)?,
        };
        if let Some(base_path) = base_path
            && let Some(bytes) = repo.blob_at(rev, &base_path)?
        {
            let (found, _) = crate::suppress::scan(path, &String::from_utf8_lossy(&bytes), judge.catalog.rules);
            for s in &found {
                *at_base.entry(key(s)).or_default() += 1;
            }
        }
    }
    let mut out = Vec::with_capacity(suppressions.len());
    let mut added = Vec::new();
    for s in suppressions {
        match at_base.get_mut(&key(s)) {
            Some(n) if *n > 0 => *n -= 1,
            _ => added.push(out.len()),
        }
        out.push(waiver(s));
    }
    if added.is_empty() {
        return Ok(out);
    }
    // Who wrote the added lines: unknown for a staged change (the hook
    // cannot tell who commits).
    let wrote = if judge.staged {
        vec![Wrote::Uncommitted; added.len()]
    } else {
        let lines: Vec<u32> = added.iter().map(|&i| out[i].line.unwrap_or(1)).collect();
        repo.who_wrote(Path::new(path), text.as_bytes(), &lines, judge.rev())?
    };
    for (&i, wrote) in added.iter().zip(wrote) {
        let hands = match wrote {
            // Blame finds the line at or before the base: the base's after all.
            Wrote::Before => continue,
            Wrote::Uncommitted => None,
            Wrote::Commit(id) => Some(vec![Hand::of(&repo.commit(&id)?)]),
        };
        out[i] = out[i].clone().added(judge.verdict(hands.as_deref()));
    }
    Ok(out)
}
