//! The change's config held to the base's bar: each key that lowers it is a
//! waiver of kind `config` (`src/config/bar.rs` says which way each key moves).

use anyhow::Result;

use super::waiver::{Kind, Status, Waiver};
use super::{BaseConfig, Judge};
use crate::config::{Config, Lowering};
use crate::git::Repo;

/// Hold `config` (the change's) to `base`: on return, `config` is what the
/// gates judge with (the base's values where a lowering is held). One
/// waiver per lowering key; empty when nothing is lowered, or the config is
/// named outside the repository (the caller's, not the change's).
pub fn hold_config(judge: &Judge, repo: &Repo, config: &mut Config, base: &BaseConfig) -> Result<Vec<Waiver>> {
    let root = repo.root();
    let file = match &config.file {
        Some(path) => match crate::git::relative_to(root, path) {
            Some(rel) => Some(rel),
            None => return Ok(Vec::new()),
        },
        None => None,
    };
    let mut judged = config.clone();
    let lowered = judged.hold_to(&base.config, &|_| true);
    if lowered.is_empty() {
        return Ok(Vec::new());
    }
    let shown = file
        .as_deref()
        .or(base.file.as_deref())
        .map(crate::git::display_path)
        .unwrap_or_else(|| crate::config::FILE_NAMES[0].to_string());
    let files: Vec<&std::path::Path> = file.iter().chain(&base.file).map(|p| p.as_path()).collect();
    let hands = super::hands(repo, judge.rev(), &files)?;
    let verdict = judge.verdict(hands.as_deref());
    // A fork's pull request never runs its own config's commands, whoever acknowledges.
    let fork = judge.from_fork();
    if verdict.status == Status::Held {
        *config = judged;
    } else if fork && lowered.iter().any(|l| l.commands) {
        config.hold_to(&base.config, &|l| l.commands);
    }
    let number = |n: u64| u32::try_from(n).unwrap_or(u32::MAX);
    Ok(lowered
        .into_iter()
        .map(|lowering| {
            let Lowering {
                place,
                base,
                head,
                line,
                commands,
                ..
            } = lowering;
            let reason = format!("`{head}` where the base has `{base}`");
            let mut waiver = Waiver {
                path: Some(shown.clone()),
                line: line.map(|(l, _)| number(l)),
                column: line.map(|(_, c)| number(c)),
                values: Some((base, head)),
                commands,
                ..Waiver::new(Kind::Config, vec![place], reason)
            }
            .added(verdict.clone());
            if fork && commands {
                waiver.status = Status::Held;
                waiver.acknowledged_by = None;
            }
            waiver
        })
        .collect())
}

/// The gate a config waiver weakens: `gates.<gate>.key` and `rules.<gate>/...`
/// name one; a top-level key weakens every gate (`None`).
pub fn gate_of(waiver: &Waiver) -> Option<&str> {
    if let Some(gate) = waiver.gate {
        return Some(gate);
    }
    let place = waiver.rules.first()?;
    if let Some(rest) = place.strip_prefix("gates.") {
        return rest.split('.').next();
    }
    let rule = place.strip_prefix("rules.")?;
    let gate = rule.split('/').next()?;
    crate::config::schema::GATE_NAMES.iter().find(|g| **g == gate).copied()
}
