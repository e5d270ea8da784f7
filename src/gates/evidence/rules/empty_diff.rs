use crate::finding::Finding;
use crate::rule::{Level, RuleMeta};

pub const EMPTY_DIFF: RuleMeta = RuleMeta {
    id: "evidence/empty-diff",
    gate: "evidence",
    default_level: Level::Deny,
    summary: "\"done\" claimed with no change since the run start",
    help: "make the change the task asks for; if nothing needed changing, say so instead of claiming done",
    doc: include_str!("empty-diff.md"),
};

/// No file differs from the run-start anchor `anchor` (short hex, or `None` for an empty repository).
pub fn empty_diff(anchor: Option<&str>) -> Finding {
    let since = anchor.map_or_else(|| "the empty repository".to_string(), |a| format!("commit {a}"));
    Finding::new(&EMPTY_DIFF, format!("nothing changed since the run started at {since}"))
        .note("committed, staged, unstaged and untracked (not ignored) files were compared with the run start; tests were not run")
}
