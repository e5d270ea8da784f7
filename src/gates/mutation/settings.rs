//! The mutation gate's knobs.

use crate::config::Section;
use crate::config::schema::{ENABLED, KeySpec, Kind, SectionSpec};

pub const SECTION: SectionSpec = SectionSpec {
    gate: "mutation",
    doc: "mutation: tests bent to match the code, in the commits since the base (Python, JavaScript, TypeScript)",
    keys: &[
        ENABLED,
        KeySpec {
            name: "max-commits",
            kind: Kind::Count,
            default: "50",
            doc: "inspect at most this many of the newest commits in the range (0 = no limit)",
        },
        KeySpec {
            name: "inconclusive",
            kind: Kind::Choice(crate::config::schema::INCONCLUSIVE),
            default: "block",
            doc: "what a range the gate could not fully read does (a shallow clone that ends before the base): block, or ignore (an inconclusive pass with a notice)",
        },
        KeySpec {
            name: "min-assertions-per-test",
            kind: Kind::Number,
            default: "1",
            doc: "mutation/low-assertion-density fires when a file's changed tests average fewer assertions than this",
        },
    ],
};

/// What the command line sets over the config (`loki-gate mutation --max-commits N`).
#[derive(Debug, Default, Clone)]
pub struct Overrides {
    pub max_commits: Option<u64>,
}

#[derive(Debug, Clone)]
pub struct Settings {
    /// `None`: the whole range.
    pub max_commits: Option<usize>,
    pub min_assertions_per_test: f64,
    /// `inconclusive: block`: history the gate could not read blocks.
    pub block_inconclusive: bool,
    /// Assertion helpers named in the mock gate's config count as assertions here too.
    pub assertion_helpers: Vec<String>,
}

impl Settings {
    /// The command line over the config (which already holds env over file).
    pub fn resolve(section: &Section, mock: &Section, args: &Overrides) -> Settings {
        let max = args.max_commits.unwrap_or_else(|| section.count("max-commits"));
        Settings {
            max_commits: (max > 0).then(|| usize::try_from(max).unwrap_or(usize::MAX)),
            min_assertions_per_test: section.number("min-assertions-per-test"),
            block_inconclusive: section.str("inconclusive") == "block",
            assertion_helpers: mock.list("assertion-helpers"),
        }
    }
}
