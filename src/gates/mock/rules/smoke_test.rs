use super::finding_at;
use super::no_assertion::assertion_free;
use crate::finding::Finding;
use crate::lang::TestFile;
use crate::rule::{Level, RuleMeta};

pub const SMOKE_TEST: RuleMeta = RuleMeta {
    id: "mock/smoke-test",
    gate: "mock",
    default_level: Level::Note,
    summary: "a test whose only check is that the code it calls does not raise",
    help: "assert on the result or on the state the call changes; where not raising is the point, allow this rule on the test with a reason",
    doc: include_str!("smoke-test.md"),
};

pub fn smoke_test(path: &str, file: &TestFile, configured_helpers: &[String]) -> Vec<Finding> {
    assertion_free(file, configured_helpers)
        .filter(|t| t.unchecked.results.is_empty() && !t.unchecked.prints && !t.unchecked.inert)
        .map(|t| {
            finding_at(
                &SMOKE_TEST,
                format!(
                    "test `{}` asserts nothing: it passes as long as the code it calls does not raise",
                    t.name
                ),
                path,
                t.span,
            )
        })
        .collect()
}
