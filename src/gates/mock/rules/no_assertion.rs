use super::finding_at;
use crate::finding::Finding;
use crate::lang::{TestFile, conventional_helper};
use crate::rule::{Level, RuleMeta};

pub const NO_ASSERTION: RuleMeta = RuleMeta {
    id: "mock/no-assertion",
    gate: "mock",
    default_level: Level::Deny,
    summary: "a test that asserts nothing, directly or through a helper",
    help: "assert on what the code under test returns or does; name custom assertion helpers in gates.mock.assertion-helpers",
    doc: include_str!("no-assertion.md"),
};

/// Does `name` match a configured helper (`name`, or `prefix*`)?
fn configured(name: &str, helpers: &[String]) -> bool {
    helpers.iter().any(|h| match h.strip_suffix('*') {
        Some(prefix) => name.starts_with(prefix),
        None => h == name,
    })
}

pub fn no_assertion(path: &str, file: &TestFile, configured_helpers: &[String]) -> Vec<Finding> {
    file.tests
        .iter()
        .filter(|t| !t.empty && !t.benchmark && t.skip.is_none() && t.assertions.is_empty())
        .filter(|t| {
            !t.calls
                .iter()
                .any(|c| file.helpers.contains(c) || conventional_helper(c) || configured(c, configured_helpers))
        })
        .map(|t| {
            finding_at(
                &NO_ASSERTION,
                format!("test `{}` asserts nothing", t.name),
                path,
                t.span,
            )
        })
        .collect()
}
