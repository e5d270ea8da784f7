use crate::rule::{Level, RuleMeta};

pub const README_MISSING: RuleMeta = RuleMeta {
    id: "docs/readme-missing",
    gate: "docs",
    default_level: Level::Deny,
    summary: "no README at the repository root, or one with nothing but a title",
    help: "write a README: what the project is, how to install it, run it and test it",
    doc: include_str!("readme_missing.md"),
};
