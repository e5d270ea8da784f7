use super::finding_at;
use crate::finding::Finding;
use crate::lang::{Form, TestCase, TestFile};
use crate::rule::{Level, RuleMeta};

pub const CATCH_ONLY_ASSERTION: RuleMeta = RuleMeta {
    id: "mock/catch-only-assertion",
    gate: "mock",
    default_level: Level::Deny,
    summary: "every assertion of a test is in an except/catch whose try does not fail when nothing is raised",
    help: "use the framework's raise check (`pytest.raises`, `expect(..).rejects`, `assert.throws`), or end the try with an explicit failure",
    doc: include_str!("catch-only-assertion.md"),
};

/// Every assertion is in a handler of a `try` that passes when nothing is
/// raised. An explicit failure there (`except Exception: pytest.fail(..)`)
/// makes the test a "does not raise" check, which it is.
pub(super) fn catch_only(t: &TestCase) -> bool {
    !t.assertions.is_empty() && t.assertions.iter().all(|a| a.guard.caught && a.form != Form::Fail)
}

pub fn catch_only_assertion(path: &str, file: &TestFile) -> Vec<Finding> {
    file.tests
        .iter()
        .filter(|t| t.skip.is_none() && catch_only(t))
        .map(|t| {
            finding_at(
                &CATCH_ONLY_ASSERTION,
                format!(
                    "every assertion in `{}` is in a handler: when the code raises nothing, the test passes without checking",
                    t.name
                ),
                path,
                t.assertions[0].span,
            )
        })
        .collect()
}
