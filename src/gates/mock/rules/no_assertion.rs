use super::finding_at;
use crate::finding::Finding;
use crate::gates::project::is_assertion_helper;
use crate::lang::{TestCase, TestFile};
use crate::rule::{Level, RuleMeta};

pub const NO_ASSERTION: RuleMeta = RuleMeta {
    id: "mock/no-assertion",
    gate: "mock",
    default_level: Level::Deny,
    summary: "a test that asserts nothing and leaves what it computes unchecked",
    help: "assert on what the code under test returns or does; name custom assertion helpers in gates.mock.assertion-helpers",
    doc: include_str!("no-assertion.md"),
};

/// The tests that run and assert nothing, directly or through a helper.
/// `no-assertion` takes those that leave a computed value unchecked and
/// `smoke-test` the rest, which check that the code they call does not raise.
pub(super) fn assertion_free<'a>(
    file: &'a TestFile,
    configured_helpers: &'a [String],
) -> impl Iterator<Item = &'a TestCase> {
    file.tests
        .iter()
        .filter(|t| !t.empty && !t.benchmark && t.skip.is_none() && t.assertions.is_empty())
        // An assertion started and never made is reported as that.
        .filter(|t| t.unfinished.is_empty())
        .filter(move |t| !t.calls.iter().any(|c| is_assertion_helper(c, file, configured_helpers)))
}

pub fn no_assertion(path: &str, file: &TestFile, configured_helpers: &[String]) -> Vec<Finding> {
    assertion_free(file, configured_helpers)
        .filter_map(|t| {
            let what = &t.unchecked;
            let message = if let Some(result) = what.results.first() {
                format!("test `{}` computes `{result}` and never checks it", t.name)
            } else if what.prints {
                format!("test `{}` prints values instead of asserting on them", t.name)
            } else if what.inert {
                format!("test `{}` asserts nothing and calls nothing that could fail", t.name)
            } else {
                return None;
            };
            Some(finding_at(&NO_ASSERTION, message, path, t.span))
        })
        .collect()
}
