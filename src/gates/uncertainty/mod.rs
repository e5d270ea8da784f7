//! The `uncertainty` gate: is the work stuck? Each run is one round. It
//! reads only persisted state (the council's rounds, the last test outcome,
//! its own memory) and this round's diff, decides with a pure function
//! ([`decide::step`]), and writes its own state under the lock. On
//! escalation it exits 3 and writes a handoff for the person taking over.
//! `LOKI_GATE_UNCERTAINTY=0` turns it off with zero reads and zero writes.

pub mod decide;
pub mod rules;
pub mod settings;

use std::fmt::Write as _;
use std::time::{SystemTime, UNIX_EPOCH};

use anyhow::{Result, bail};
use serde::{Deserialize, Serialize};

use super::records::{Answer, CouncilState, LastTests, RunState};
use super::{Context, GateOutput};
use crate::changed::{self, Scope};
use crate::finding::Finding;
use crate::git::{Side, display_path};
use crate::state::StateFile;
use decide::{Decision, Knobs, Memory, Observation};

/// Rounds of history kept for the handoff.
const KEEP_HISTORY: usize = 20;

/// The handoff file, in the state directory.
pub const HANDOFF: &str = "handoff.md";

/// `uncertainty.json`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct UncertaintyState {
    pub memory: Memory,
    /// The last rounds, oldest first.
    pub history: Vec<RoundRecord>,
    /// The handoff of the last escalation.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub handoff: Option<String>,
}

impl StateFile for UncertaintyState {
    const NAME: &'static str = "uncertainty.json";
    const VERSION: u32 = 1;
    const RESET: &'static str = "restore it from the CI cache, or delete it: stuck detection starts over";
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoundRecord {
    pub round: u64,
    pub at: u64,
    pub diff_hash: String,
    /// Files in the change.
    pub files: usize,
    pub hot: Vec<decide::Proxy>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub escalated: bool,
}

fn now() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs())
}

/// `loki-gate uncertainty`.
pub fn run(cx: &Context<'_>, knobs: &Knobs, env: &dyn Fn(&str) -> Option<String>) -> Result<GateOutput> {
    let mut out = GateOutput::default();
    if cx.scope.is_whole() {
        bail!("uncertainty compares the change round by round: drop --all-files (use --base REV)");
    }
    let changes = cx.changes()?;
    out.notices.extend(changes.notes().iter().cloned());
    out.files = changes.files.len();
    let base = changes.base.clone().expect("a diff scope has a base");
    let side = match cx.scope {
        Scope::Staged => Side::Staged(&base),
        _ => Side::Worktree(&base),
    };
    let patch = cx.repo.patch(side, &cx.skip_dirs, &|_| true)?;
    let diff_hash = crate::finding::sha256_hex(patch.as_bytes());

    // What the other gates left: read (and checked) before anything is written.
    let council = cx.store.read::<CouncilState>()?.unwrap_or_default();
    let tests = cx.store.read::<RunState>()?.and_then(|r| r.last_tests);
    let verdicts: Vec<(bool, usize)> = council.rounds.iter().map(|r| (r.blocked, r.approvals)).collect();
    let failing = tests
        .as_ref()
        .filter(|t| !t.green && !t.failing.is_empty())
        .map(|t| crate::finding::sha256_hex(t.failing.join("\n").as_bytes()));
    let observation = Observation {
        diff_hash: diff_hash.clone(),
        split: decide::split(&verdicts, knobs.split_rounds),
        failing,
    };

    let mut decision = None;
    let state = cx.store.update::<UncertaintyState>(|state| {
        let mut state = state.unwrap_or_default();
        let (memory, d) = decide::step(&state.memory, &observation, knobs);
        state.memory = memory;
        state.history.push(RoundRecord {
            round: state.memory.round,
            at: now(),
            diff_hash: diff_hash.clone(),
            files: changes.files.len(),
            hot: d.hot.clone(),
            escalated: d.escalate,
        });
        let extra = state.history.len().saturating_sub(KEEP_HISTORY);
        state.history.drain(..extra);
        if d.escalate {
            let branch = crate::github::branch(cx.repo, env).unwrap_or_else(|| "a detached HEAD".into());
            state.handoff = Some(handoff(
                cx,
                &branch,
                &state,
                &d,
                &council,
                tests.as_ref(),
                &changes.files,
            ));
        }
        decision = Some(d);
        Ok(state)
    })?;
    let decision = decision.expect("the update ran");

    let hot: Vec<&str> = decision.hot.iter().map(|p| p.label()).collect();
    out.notices.push(format!(
        "round {}: {}; {} of {} round(s) in a row with two or more",
        state.memory.round,
        if hot.is_empty() {
            "no sign of being stuck".to_string()
        } else {
            format!("hot: {}", hot.join(", "))
        },
        decision.streak,
        knobs.rounds
    ));
    if decision.escalate {
        let path = cx.store.dir().join(HANDOFF);
        crate::state::write_atomic(&path, state.handoff.as_deref().unwrap_or_default().as_bytes())?;
        out.findings.push(
            Finding::new(
                &rules::ESCALATED,
                format!(
                    "stuck for {} round(s): {}; handed off (episode {})",
                    decision.streak,
                    hot.join(", "),
                    state.memory.episodes
                ),
            )
            .note(format!("handoff: {}", path.display())),
        );
        out.escalated = true;
    } else if state.memory.escalated {
        out.notices.push(format!(
            "still stuck: episode {} was handed off already; the gate re-arms once the signs clear",
            state.memory.episodes
        ));
    }
    Ok(out)
}

/// The handoff for the person taking over: why, what was tried, the last
/// findings, and the change as it stands.
fn handoff(
    cx: &Context<'_>,
    branch: &str,
    state: &UncertaintyState,
    decision: &Decision,
    council: &CouncilState,
    tests: Option<&LastTests>,
    files: &[changed::ChangedFile],
) -> String {
    let memory = &state.memory;
    let mut md = String::new();
    let _ = writeln!(md, "# loki-gate: stuck, handing off (episode {})\n", memory.episodes);
    let head = cx.repo.head().ok().flatten().map(|h| h[..h.len().min(12)].to_string());
    let _ = writeln!(
        md,
        "Round {} on {} at {}. Two or more signs of being stuck held together for {} round(s) in a row.\n",
        memory.round,
        branch,
        head.unwrap_or_else(|| "no commit".into()),
        decision.streak
    );
    let _ = writeln!(md, "## Why\n");
    for proxy in &decision.hot {
        let why = match proxy {
            decide::Proxy::NoChange => format!("the change has not moved for {} round(s)", memory.repeats),
            decide::Proxy::Oscillation => "the change went back to one tried two or more rounds ago".to_string(),
            decide::Proxy::Split => "the council keeps rejecting with some reviewers approving".to_string(),
            decide::Proxy::SameFailure => format!("the same tests failed {} round(s) in a row", memory.failing_rounds),
        };
        let _ = writeln!(md, "- **{}**: {why}", proxy.label());
    }
    let _ = writeln!(md, "\n## What was tried (recent rounds)\n");
    let _ = writeln!(md, "| round | change | files | signs |\n|---|---|---|---|");
    for r in state.history.iter().rev().take(10).rev() {
        let signs: Vec<&str> = r.hot.iter().map(|p| p.label()).collect();
        let _ = writeln!(
            md,
            "| {} | `{}` | {} | {} |",
            r.round,
            &r.diff_hash[..r.diff_hash.len().min(12)],
            r.files,
            if signs.is_empty() {
                "-".to_string()
            } else {
                signs.join(", ")
            }
        );
    }
    let _ = writeln!(md, "\n## Last findings\n");
    match tests {
        Some(t) if !t.green => {
            let _ = writeln!(md, "- tests (`{}`): {} passed, {} failed", t.source, t.passed, t.failed);
            for id in t.failing.iter().take(20) {
                let _ = writeln!(md, "  - `{id}`");
            }
        }
        Some(t) => {
            let _ = writeln!(md, "- tests (`{}`): green, {} passed", t.source, t.passed);
        }
        None => {
            let _ = writeln!(md, "- tests: no result recorded (`loki-gate evidence` records one)");
        }
    }
    if let Some(round) = council.rounds.last() {
        let _ = writeln!(
            md,
            "- council: {} of {} approved ({} needed){}",
            round.approvals,
            round.reviews.len(),
            round.needed,
            if round.blocked { ", blocked" } else { "" }
        );
        let issues = round
            .reviews
            .iter()
            .chain(&round.devils_advocate)
            .filter_map(|r| match &r.answer {
                Answer::Verdict(v) => Some(v.issues.iter()),
                Answer::Inconclusive(_) => None,
            })
            .flatten()
            .filter(|i| i.severity.blocks())
            .take(10);
        for issue in issues {
            let at = match (&issue.path, issue.line) {
                (Some(p), Some(l)) => format!(" ({p}:{l})"),
                (Some(p), None) => format!(" ({p})"),
                _ => String::new(),
            };
            let _ = writeln!(md, "  - {}{at}: {}", issue.severity.name(), issue.message);
        }
    }
    let _ = writeln!(md, "\n## The change as it stands\n");
    if files.is_empty() {
        let _ = writeln!(md, "Nothing differs from the base.");
    }
    for f in files.iter().take(50) {
        let _ = writeln!(md, "- `{}` ({:?})", display_path(&f.path), f.status);
    }
    if files.len() > 50 {
        let _ = writeln!(md, "- ... and {} more", files.len() - 50);
    }
    let _ = writeln!(md, "\n<!-- loki-gate-handoff episode={} -->", memory.episodes);
    md
}
