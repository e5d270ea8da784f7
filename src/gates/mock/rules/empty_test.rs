use super::finding_at;
use crate::finding::Finding;
use crate::lang::TestFile;
use crate::rule::{Level, RuleMeta};

pub const EMPTY_TEST: RuleMeta = RuleMeta {
    id: "mock/empty-test",
    gate: "mock",
    default_level: Level::Deny,
    summary: "a test whose body does nothing (`pass`, `...`, `() => {}`)",
    help: "write the test, or delete it; to park it, skip it with a reason",
    doc: include_str!("empty-test.md"),
};

pub fn empty_test(path: &str, file: &TestFile) -> Vec<Finding> {
    file.tests
        .iter()
        .filter(|t| t.empty && t.skip.is_none())
        .map(|t| {
            finding_at(
                &EMPTY_TEST,
                format!("test `{}` has an empty body", t.name),
                path,
                t.span,
            )
        })
        .collect()
}
