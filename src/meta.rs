//! The engine's own rules: problems with suppressions and files it could not read.

use crate::rule::{Level, RuleMeta};

pub const UNUSED_SUPPRESSION: RuleMeta = RuleMeta {
    id: "meta/unused-suppression",
    gate: "meta",
    default_level: Level::Warn,
    summary: "an inline `loki-gate: allow(rule)` comment that suppresses nothing",
    help: "remove the comment, or fix the rule id it names",
    doc: include_str!("meta/unused-suppression.md"),
};

pub const INVALID_SUPPRESSION: RuleMeta = RuleMeta {
    id: "meta/invalid-suppression",
    gate: "meta",
    default_level: Level::Warn,
    summary: "an inline suppression without a reason, or naming an unknown rule",
    help: "write `loki-gate: allow(gate/rule) why this is fine` with a known rule id and a reason",
    doc: include_str!("meta/invalid-suppression.md"),
};

pub const SKIPPED_FILE: RuleMeta = RuleMeta {
    id: "meta/skipped-file",
    gate: "meta",
    default_level: Level::Note,
    summary: "a file the gates did not read: binary, too large, or unreadable",
    help: "exclude the file in `.loki-gate.yaml` (`exclude:`) if it is not source, or fix its permissions",
    doc: include_str!("meta/skipped-file.md"),
};

pub const FILE_TOO_LARGE: RuleMeta = RuleMeta {
    id: "meta/file-too-large",
    gate: "meta",
    default_level: Level::Deny,
    summary: "a file the change adds or edits that a gate must check is over the size cap (`max-file-bytes`), so it was not checked",
    help: "keep the file under the cap; if it must be larger, raise `max-file-bytes` in the config (a change to it is held to the base's value until someone trusted acknowledges it)",
    doc: include_str!("meta/file-too-large.md"),
};

pub const PARSE_TOO_SLOW: RuleMeta = RuleMeta {
    id: "meta/parse-too-slow",
    gate: "meta",
    default_level: Level::Deny,
    summary: "a test file the change adds or edits took longer than the parse budget to parse, so it was not checked",
    help: "split the file, or take out what makes it slow to parse; if it is ordinary code, report it with the file",
    doc: include_str!("meta/parse-too-slow.md"),
};

pub const SYNTAX_ERROR: RuleMeta = RuleMeta {
    id: "meta/syntax-error",
    gate: "meta",
    default_level: Level::Note,
    summary: "tests not checked: tree-sitter found a syntax error inside them",
    help: "fix the syntax error; if the code runs as it is, the grammar lags the language: report the line",
    doc: include_str!("meta/syntax-error.md"),
};

pub const WAIVER_ADDED: RuleMeta = RuleMeta {
    id: "meta/waiver-added",
    gate: "meta",
    default_level: Level::Deny,
    summary: "the change adds a waiver (an inline suppression, a `Loki-Gate-Allow` trailer, a config key that lowers a gate, baseline entries) that no one trusted acknowledged",
    help: "fix what the waiver hides; or have it acknowledged: written in a commit signed with a key the base's `trusted-signers` lists, whose author and committer its `trusted-authors` names, without a coding agent's signature; or, on a pull request, by a maintainer's label or approving review (docs/trust.md)",
    doc: include_str!("meta/waiver-added.md"),
};

pub const RULES: &[&RuleMeta] = &[
    &UNUSED_SUPPRESSION,
    &INVALID_SUPPRESSION,
    &SKIPPED_FILE,
    &FILE_TOO_LARGE,
    &PARSE_TOO_SLOW,
    &SYNTAX_ERROR,
    &WAIVER_ADDED,
];
