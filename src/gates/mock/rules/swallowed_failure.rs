use super::finding_at;
use crate::finding::Finding;
use crate::lang::TestFile;
use crate::rule::{Level, RuleMeta};

pub const SWALLOWED_FAILURE: RuleMeta = RuleMeta {
    id: "mock/swallowed-failure",
    gate: "mock",
    default_level: Level::Deny,
    summary: "an assertion inside a try whose handler catches its failure and neither re-raises nor asserts",
    help: "move the assertion out of the try, narrow the except/catch, or re-raise",
    doc: include_str!("swallowed-failure.md"),
};

pub fn swallowed_failure(path: &str, file: &TestFile) -> Vec<Finding> {
    let mut out = Vec::new();
    for t in file.tests.iter().filter(|t| t.skip.is_none()) {
        for a in &t.assertions {
            let Some(handler) = a.guard.swallowed_by else { continue };
            let s = a.span;
            out.push(finding_at(
                &SWALLOWED_FAILURE,
                format!(
                    "assertion in `{}` can never fail: the handler at line {} catches its failure",
                    t.name, handler.line
                ),
                path,
                s,
            ));
        }
    }
    out
}
