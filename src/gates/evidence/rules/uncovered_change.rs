use crate::finding::Finding;
use crate::rule::{Level, RuleMeta};

pub const UNCOVERED_CHANGE: RuleMeta = RuleMeta {
    id: "evidence/uncovered-change",
    gate: "evidence",
    default_level: Level::Warn,
    summary: "changed lines the coverage report lists as executable were never run by the tests",
    help: "add or extend a test that runs these lines; if they cannot run under test, say why in an inline `loki-gate: allow(evidence/uncovered-change) reason` comment",
    doc: include_str!("uncovered-change.md"),
};

/// Changed lines `from..=to` of `path`, of which `executable` are executable
/// per the coverage reports, none of them run.
pub fn uncovered_change(path: &str, from: u32, to: u32, executable: usize) -> Finding {
    let span = to - from + 1;
    let message = match (from == to, executable as u32 == span) {
        (true, _) => format!("changed line {from} is never run by the tests"),
        (false, true) => format!("changed lines {from}-{to} are never run by the tests"),
        (false, false) => format!("changed lines {from}-{to} are never run by the tests ({executable} executable)"),
    };
    // Whole lines: no column, so no caret under the first character.
    let mut finding = Finding::new(&UNCOVERED_CHANGE, message).in_file(path);
    finding.line = Some(from);
    finding.end_line = Some(to);
    finding
}
