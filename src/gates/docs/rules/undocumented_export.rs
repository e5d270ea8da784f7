use crate::rule::{Level, RuleMeta};

pub const UNDOCUMENTED_EXPORT: RuleMeta = RuleMeta {
    id: "docs/undocumented-export",
    gate: "docs",
    default_level: Level::Warn,
    summary: "a public symbol the change added or touched has no doc comment",
    help: "document what the symbol does, in the language's doc comment",
    doc: include_str!("undocumented_export.md"),
};
