//! The mock gate's knobs.

use crate::config::Section;
use crate::config::schema::{ENABLED, KeySpec, Kind, PRE_EXISTING, SectionSpec};
use crate::finding::Severity;

pub const SECTION: SectionSpec = SectionSpec {
    gate: "mock",
    doc: "mock: test integrity in test files (Python, JavaScript, TypeScript, Rust, Go)",
    keys: &[
        ENABLED,
        KeySpec {
            name: "languages",
            kind: Kind::Choices(&["auto", "python", "javascript", "typescript", "rust", "go"]),
            default: "[auto]",
            doc: "languages to check; auto = every supported language present",
        },
        KeySpec {
            name: "assertion-helpers",
            kind: Kind::List,
            default: "[]",
            doc: "functions that assert, defined outside the test file (`name` or `prefix*`)",
        },
        PRE_EXISTING,
    ],
};

#[derive(Debug, Clone)]
pub struct Settings {
    /// Language families to check; empty = all.
    pub languages: Vec<String>,
    pub assertion_helpers: Vec<String>,
    /// What a finding the base already had may be (`pre-existing`).
    pub pre_existing: Option<Severity>,
}

impl Settings {
    pub fn resolve(section: &Section) -> Settings {
        let languages = section.list("languages");
        Settings {
            languages: if languages.iter().any(|l| l == "auto") {
                Vec::new()
            } else {
                languages
            },
            assertion_helpers: section.list("assertion-helpers"),
            pre_existing: crate::gates::at_base::ceiling(section),
        }
    }
}
