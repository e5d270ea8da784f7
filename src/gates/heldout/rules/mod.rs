//! The heldout gate's rules; the docs beside them as `<rule>.md`.

use crate::rule::{Level, RuleMeta};

pub const TAMPERED: RuleMeta = RuleMeta {
    id: "heldout/tampered",
    gate: "heldout",
    default_level: Level::Deny,
    summary: "a held-out check was changed, removed or added since it was selected",
    help: "restore the check from where it is kept; to change the checks, select again from a fresh state",
    doc: include_str!("tampered.md"),
};

pub const FAILED: RuleMeta = RuleMeta {
    id: "heldout/failed",
    gate: "heldout",
    default_level: Level::Deny,
    summary: "a held-out acceptance check failed or timed out",
    help: "fix the behaviour the check describes; `--reveal` shows the check where that is safe",
    doc: include_str!("failed.md"),
};

pub const WAIVED: RuleMeta = RuleMeta {
    id: "heldout/waived",
    gate: "heldout",
    default_level: Level::Note,
    summary: "a held-out check not run because config waives it",
    help: "fix the behaviour and remove the waiver from gates.heldout.waivers",
    doc: include_str!("waived.md"),
};

pub const UNAVAILABLE: RuleMeta = RuleMeta {
    id: "heldout/unavailable",
    gate: "heldout",
    default_level: Level::Warn,
    summary: "the held-out checks could not be evaluated (no selection, or no checks directory)",
    help: "run `loki-gate heldout select` once and pass --checks DIR (or LOKI_GATE_HELDOUT_DIR); --require makes this block",
    doc: include_str!("unavailable.md"),
};

pub const ALL: &[&RuleMeta] = &[&TAMPERED, &FAILED, &WAIVED, &UNAVAILABLE];
