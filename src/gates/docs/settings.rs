//! The docs gate's knobs.

use globset::{Glob, GlobSet, GlobSetBuilder};

use crate::config::Section;
use crate::config::schema::{ENABLED, KeySpec, Kind, PRE_EXISTING, SectionSpec};
use crate::finding::Severity;

pub const SECTION: SectionSpec = SectionSpec {
    gate: "docs",
    doc: "docs: a README, documentation that keeps up with the code, doc comments on public symbols",
    keys: &[
        ENABLED,
        KeySpec {
            name: "freshness-commits",
            kind: Kind::Count,
            default: "10",
            doc: "a document last changed more than this many commits before HEAD, with code commits since, is stale",
        },
        KeySpec {
            name: "doc-paths",
            kind: Kind::GlobList,
            default: "[\"README*\", \"docs/**\"]",
            doc: "the documentation files docs/stale watches (globs, repo-relative)",
        },
        PRE_EXISTING,
    ],
};

pub struct Settings {
    pub freshness: usize,
    pub doc_paths: GlobSet,
    /// The globs of `doc_paths`, as written.
    pub doc_globs: Vec<String>,
    /// What a finding the base already had may be (`pre-existing`).
    pub pre_existing: Option<Severity>,
}

impl Settings {
    pub fn resolve(section: &Section) -> anyhow::Result<Settings> {
        let mut set = GlobSetBuilder::new();
        let doc_globs = section.globs("doc-paths");
        for glob in &doc_globs {
            set.add(Glob::new(glob)?);
        }
        Ok(Settings {
            freshness: usize::try_from(section.count("freshness-commits")).unwrap_or(usize::MAX),
            doc_paths: set.build()?,
            doc_globs,
            pre_existing: crate::gates::at_base::ceiling(section),
        })
    }
}
