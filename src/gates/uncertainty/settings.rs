//! The uncertainty gate's knobs.

use crate::config::Section;
use crate::config::schema::{ENABLED, KeySpec, Kind, SectionSpec};

use super::decide::Knobs;

pub const SECTION: SectionSpec = SectionSpec {
    gate: "uncertainty",
    doc: "uncertainty: stuck detection across runs from persisted state; escalates (exit 3) once per episode",
    keys: &[
        ENABLED,
        KeySpec {
            name: "rounds",
            kind: Kind::Count,
            default: "2",
            doc: "escalate when two or more signs hold together this many rounds in a row",
        },
        KeySpec {
            name: "nochange-min",
            kind: Kind::Count,
            default: "2",
            doc: "rounds in a row with the same diff (p1), or the same failing tests (p4), before the sign is hot",
        },
        KeySpec {
            name: "split-rounds",
            kind: Kind::Count,
            default: "2",
            doc: "council rounds in a row rejected with at least one approval before p3 is hot",
        },
        KeySpec {
            name: "ring",
            kind: Kind::Count,
            default: "6",
            doc: "how many recent diffs p2 (oscillation, A -> B -> A) remembers",
        },
    ],
};

pub fn knobs(section: &Section) -> Knobs {
    let count = |key: &str| u32::try_from(section.count(key)).unwrap_or(u32::MAX);
    Knobs {
        rounds: count("rounds").max(1),
        nochange_min: count("nochange-min").max(1),
        split_rounds: count("split-rounds").max(1),
        ring: usize::try_from(section.count("ring")).unwrap_or(6).max(2),
    }
}
