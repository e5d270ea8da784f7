use crate::rule::{Level, RuleMeta};

pub const LOW_ASSERTION_DENSITY: RuleMeta = RuleMeta {
    id: "mutation/low-assertion-density",
    gate: "mutation",
    default_level: Level::Warn,
    summary: "the tests a change added or edited in a file average fewer assertions than `min-assertions-per-test`",
    help: "check the results the new tests compute; a test that only runs code proves little",
    doc: include_str!("low-assertion-density.md"),
};
