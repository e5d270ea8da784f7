use super::catch_only_assertion::catch_only;
use super::finding_at;
use crate::finding::Finding;
use crate::lang::{Form, TestFile};
use crate::rule::{Level, RuleMeta};

pub const CONDITIONAL_ASSERTION: RuleMeta = RuleMeta {
    id: "mock/conditional-assertion",
    gate: "mock",
    default_level: Level::Note,
    summary: "every assertion of a test sits under a condition or loop, so the test can pass without asserting",
    help: "assert unconditionally (check the condition itself, or assert the collection is not empty before looping)",
    doc: include_str!("conditional-assertion.md"),
};

pub fn conditional_assertion(path: &str, file: &TestFile) -> Vec<Finding> {
    file.tests
        .iter()
        .filter(|t| t.skip.is_none() && !t.assertions.is_empty() && !catch_only(t))
        // An explicit failure under a condition is itself the check (`if bad: pytest.fail()`).
        .filter(|t| t.assertions.iter().all(|a| a.guard.conditional && a.form != Form::Fail))
        .map(|t| {
            let s = t.assertions[0].span;
            finding_at(&CONDITIONAL_ASSERTION, format!(
                    "every assertion in `{}` is under a condition or loop; when it is not met the test passes without asserting",
                    t.name
                ), path, s)
        })
        .collect()
}
