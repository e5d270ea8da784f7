use crate::rule::{Level, RuleMeta};

/// The family of Clippy's own rules (`static/clippy:<code>`).
pub const CLIPPY: RuleMeta = RuleMeta {
    id: "static/clippy",
    gate: "static",
    default_level: Level::Deny,
    summary: "Clippy's and rustc's diagnostics, on the lines the change touched",
    help: "fix what Clippy reports, or set the lint's level in the crate (`#![allow(clippy::...)]`) or in `[lints]` of Cargo.toml",
    doc: include_str!("clippy.md"),
};
