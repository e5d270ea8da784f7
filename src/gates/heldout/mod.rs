//! The `heldout` gate: acceptance checks the build loop never sees.
//!
//! `heldout select` reserves a deterministic slice of a checklist, writes it
//! to a directory outside the workspace (or into a CI secret), writes the
//! visible remainder back for the build loop, and seals each reserved check
//! by sha256 in `heldout.json`. `heldout` (the ship gate) checks every seal,
//! runs the checks in parallel with time limits, and reports each by id
//! only: a check's command and output are never printed unless `--reveal`.

pub mod checklist;
pub mod rules;
pub mod settings;

use std::path::{Path, PathBuf};
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use anyhow::{Context as _, Result, bail};
use serde::{Deserialize, Serialize};

use super::{Context, GateOutput};
use crate::finding::Finding;
use crate::rule::{Level, Levels, Source};
use crate::state::StateFile;
use checklist::Item;
use settings::Settings;

/// The file `select` writes in the checks directory.
pub const CHECKS_FILE: &str = "heldout-checks.yaml";

/// `heldout.json`: the seals of the selection and the last run's results.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct HeldoutState {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub manifest: Option<Manifest>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_run: Option<LastRun>,
}

impl StateFile for HeldoutState {
    const NAME: &'static str = "heldout.json";
    const VERSION: u32 = 1;
    const RESET: &'static str =
        "restore it from the CI cache, or delete it and run `loki-gate heldout select` again on the full checklist";
}

/// What `select` sealed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Manifest {
    /// Unix seconds.
    pub selected_at: u64,
    /// Items in the checklist at selection.
    pub total: usize,
    pub reserved: Vec<Seal>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Seal {
    pub id: String,
    pub sha256: String,
}

/// The outcome of each check of the last run, for the report and `uncertainty`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LastRun {
    pub at: u64,
    pub results: Vec<Outcome>,
    /// sha256 of the sorted ids that failed (empty when none did): the same
    /// signature round after round means the same checks keep failing.
    pub failure_signature: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Outcome {
    pub id: String,
    /// `pass`, `fail`, `timeout`, `waived` or `tampered`.
    pub outcome: String,
    #[serde(default)]
    pub seconds: f64,
}

fn now() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs())
}

/// What `select` did, for the user.
pub struct Selection {
    pub reserved: usize,
    pub total: usize,
    /// It had been done before: nothing changed.
    pub already: bool,
    /// `--force` on a checklist git tracks: what its history still shows.
    pub tracked_warning: Option<String>,
}

/// Does `path` lie inside the repository at `root`, through any symlink?
fn inside(root: &Path, path: &Path) -> bool {
    let root = root.canonicalize().unwrap_or_else(|_| root.to_path_buf());
    let real = nearest_existing(&std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf()));
    real.canonicalize().unwrap_or(real).starts_with(root)
}

/// `loki-gate heldout select --checklist F --into DIR`.
pub fn select(cx: &Context<'_>, checklist_path: &Path, into: &Path, force: bool) -> Result<Selection> {
    let root = cx.repo.root();
    let into_abs = std::path::absolute(into).unwrap_or_else(|_| into.to_path_buf());
    // Every problem at once: fixing one to meet the next wastes a round.
    let mut problems = Vec::new();
    if inside(root, &into_abs) {
        problems.push(format!(
            "--into {} is inside the repository the build loop works in, where it could read the checks; choose a directory outside it (or write the file into a CI secret)",
            into.display()
        ));
    }
    // A checklist git tracks keeps every item in its history: removing the
    // reserved ones from the file hides nothing from `git log -p`.
    let tracked = crate::git::relative_to(root, checklist_path)
        .filter(|rel| matches!(cx.repo.index_blob_id(rel), Ok(Some(_))))
        .map(|rel| {
            format!(
                "{} is tracked by git: the items held out from it stay readable in its history (`git log -p -- {}`)",
                crate::git::display_path(&rel),
                crate::git::display_path(&rel)
            )
        });
    if let (Some(why), false) = (&tracked, force) {
        problems.push(format!(
            "{why}; move the checklist out of the repository first (write its items to a file outside it and `git rm` this one), or pass --force to select anyway"
        ));
    }
    if !problems.is_empty() {
        if let Err(e) = checklist::read(checklist_path) {
            problems.push(format!("{e:#}"));
        }
        bail!("{}", problems.join("\n"));
    }
    let mut outcome = None;
    cx.store.update::<HeldoutState>(|state| {
        let mut state = state.unwrap_or_default();
        if let Some(manifest) = &state.manifest {
            outcome = Some(Selection {
                reserved: manifest.reserved.len(),
                total: manifest.total,
                already: true,
                tracked_warning: None,
            });
            return Ok(state);
        }
        let items = checklist::read(checklist_path)?;
        let (reserved, visible) = checklist::select(&items);
        std::fs::create_dir_all(&into_abs)
            .with_context(|| format!("could not create the checks directory {}", into.display()))?;
        // The reserved checks first: if that fails, the checklist is untouched.
        crate::state::write_atomic(
            &into_abs.join(CHECKS_FILE),
            checklist::render(
                &reserved,
                "Held-out acceptance checks reserved by `loki-gate heldout select`.\nKeep this file away from the build loop; `loki-gate heldout --checks DIR` runs it.",
            )
            .as_bytes(),
        )?;
        if !reserved.is_empty() {
            crate::state::write_atomic(
                checklist_path,
                checklist::render(
                    &visible,
                    &format!(
                        "{} of {} checks were held out by `loki-gate heldout select` and live elsewhere.",
                        reserved.len(),
                        items.len()
                    ),
                )
                .as_bytes(),
            )?;
        }
        state.manifest = Some(Manifest {
            selected_at: now(),
            total: items.len(),
            reserved: reserved
                .iter()
                .map(|i| Seal {
                    id: i.id.clone(),
                    sha256: i.seal(),
                })
                .collect(),
        });
        outcome = Some(Selection {
            reserved: reserved.len(),
            total: items.len(),
            already: false,
            tracked_warning: tracked.clone(),
        });
        Ok(state)
    })?;
    Ok(outcome.expect("the update ran"))
}

/// The deepest existing ancestor of `path` (itself when it exists).
fn nearest_existing(path: &Path) -> PathBuf {
    path.ancestors()
        .find(|p| p.exists())
        .unwrap_or(Path::new("/"))
        .to_path_buf()
}

/// `--require` makes the missing-checks disclosure block.
pub fn adjust_levels(levels: &mut Levels, settings: &Settings) {
    if settings.require {
        levels.set(rules::UNAVAILABLE.id, Level::Deny, Source::Cli);
    }
}

/// `loki-gate heldout`.
pub fn run(cx: &Context<'_>, settings: &Settings) -> Result<GateOutput> {
    let mut out = GateOutput::default();
    let state = cx.store.read::<HeldoutState>()?;
    let Some(manifest) = state.and_then(|s| s.manifest) else {
        return Ok(unavailable(
            out,
            "no held-out selection is recorded: run `loki-gate heldout select --checklist F --into DIR` once, and keep the state directory between runs",
        ));
    };
    let Some(dir) = &settings.checks else {
        return Ok(unavailable(
            out,
            "no checks directory: pass --checks DIR, set LOKI_GATE_HELDOUT_DIR, or gates.heldout.checks",
        ));
    };
    if !dir.is_dir() {
        return Ok(unavailable(
            out,
            &format!("the checks directory {} does not exist", dir.display()),
        ));
    }
    let file = dir.join(CHECKS_FILE);
    // Checks the build loop can read are not held out: refused here as
    // `select` refuses to write them there.
    if inside(cx.repo.root(), dir) || (file.exists() && inside(cx.repo.root(), &file)) {
        bail!(
            "the checks directory {} is, or links to, a place inside the repository the build loop works in, where it can read the checks; keep them outside it (or in a CI secret) and pass that path",
            dir.display()
        );
    }
    let items = if file.exists() {
        checklist::read(&file)?
    } else {
        Vec::new()
    };

    // Every seal first: a check that does not match is never run.
    let mut runnable: Vec<&Item> = Vec::new();
    let mut results: Vec<Outcome> = Vec::new();
    for seal in &manifest.reserved {
        let why = match items.iter().find(|i| i.id == seal.id) {
            None => Some("is missing from the checks directory"),
            Some(item) if item.seal() != seal.sha256 => Some("was changed since it was selected"),
            Some(item) => {
                runnable.push(item);
                None
            }
        };
        if let Some(why) = why {
            out.findings.push(
                Finding::new(&rules::TAMPERED, format!("held-out check {} {why}", seal.id))
                    .note(format!("sealed in {} at selection", HeldoutState::NAME)),
            );
            results.push(outcome(&seal.id, "tampered", 0.0));
        }
    }
    for item in items.iter().filter(|i| !manifest.reserved.iter().any(|s| s.id == i.id)) {
        out.findings.push(Finding::new(
            &rules::TAMPERED,
            format!(
                "held-out check {} was never selected: the checks directory gained it",
                item.id
            ),
        ));
        results.push(outcome(&item.id, "tampered", 0.0));
    }

    let (waived, to_run): (Vec<&Item>, Vec<&Item>) = runnable
        .into_iter()
        .partition(|i| settings.waivers.iter().any(|(id, _)| *id == i.id));
    for item in waived {
        let reason = settings
            .waivers
            .iter()
            .find(|(id, _)| *id == item.id)
            .map(|(_, r)| r.as_str())
            .unwrap_or_default();
        out.findings.push(Finding::new(
            &rules::WAIVED,
            format!("held-out check {} is waived: {reason}", item.id),
        ));
        results.push(outcome(&item.id, "waived", 0.0));
    }
    for (id, reason) in &settings.waivers {
        if !manifest.reserved.iter().any(|s| s.id == *id) {
            out.notices.push(format!(
                "gates.heldout.waivers names `{id}` ({reason}), which is not a held-out check"
            ));
        }
    }

    let root = cx.repo.root();
    let ran = crate::process::parallel_map(&to_run, settings.parallel, |item| {
        let timeout = item.timeout().unwrap_or(settings.timeout);
        let started = Instant::now();
        let result = crate::process::run_shell(&item.check, root, timeout);
        (started.elapsed().as_secs_f64(), result)
    });
    for (item, (seconds, result)) in to_run.iter().zip(ran) {
        let run = result.with_context(|| format!("could not run held-out check {}", item.id))?;
        if let Some(why) = run.overflowed(&format!("held-out check {}", item.id)) {
            return Err(anyhow::anyhow!(why));
        }
        let (kind, how) = if run.timed_out {
            (
                "timeout",
                format!(
                    "timed out after {}",
                    crate::process::humanize(item.timeout().unwrap_or(settings.timeout))
                ),
            )
        } else if run.success() {
            ("pass", String::new())
        } else {
            (
                "fail",
                format!(
                    "exit {}",
                    run.code.map_or_else(|| "by a signal".to_string(), |c| c.to_string())
                ),
            )
        };
        results.push(outcome(&item.id, kind, seconds));
        if kind == "pass" {
            continue;
        }
        let mut finding = Finding::new(&rules::FAILED, format!("held-out check {} failed ({how})", item.id));
        if settings.reveal {
            finding.notes.push(format!("check: {}", item.check));
            if !item.title.is_empty() {
                finding.notes.push(format!("title: {}", item.title));
            }
            let output = format!("{}{}", run.stdout, run.stderr);
            let tail: Vec<&str> = output.lines().rev().take(20).collect();
            for line in tail.into_iter().rev() {
                finding.notes.push(format!("| {line}"));
            }
        } else {
            finding
                .notes
                .push("the check and its output are not shown (--reveal shows them)".into());
        }
        out.findings.push(finding);
    }
    let passed = results.iter().filter(|r| r.outcome == "pass").count();
    out.files = manifest.reserved.len();
    out.notices.push(format!(
        "held-out checks: {passed} of {} passed",
        manifest.reserved.len()
    ));

    let mut failing: Vec<&str> = results
        .iter()
        .filter(|r| matches!(r.outcome.as_str(), "fail" | "timeout" | "tampered"))
        .map(|r| r.id.as_str())
        .collect();
    failing.sort_unstable();
    let failure_signature = if failing.is_empty() {
        String::new()
    } else {
        crate::finding::sha256_hex(failing.join("\n").as_bytes())
    };
    results.sort_by(|a, b| a.id.cmp(&b.id));
    let last = LastRun {
        at: now(),
        results,
        failure_signature,
    };
    cx.store.update::<HeldoutState>(move |state| {
        let mut state = state.unwrap_or_default();
        state.last_run = Some(last);
        Ok(state)
    })?;
    Ok(out)
}

fn outcome(id: &str, outcome: &str, seconds: f64) -> Outcome {
    Outcome {
        id: id.to_string(),
        outcome: outcome.to_string(),
        seconds,
    }
}

/// Inconclusive: the disclosure, which `--require` makes block.
fn unavailable(mut out: GateOutput, why: &str) -> GateOutput {
    out.findings.push(Finding::new(&rules::UNAVAILABLE, why.to_string()));
    out.inconclusive = Some(why.to_string());
    out
}
