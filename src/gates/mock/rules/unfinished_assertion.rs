use super::finding_at;
use crate::finding::{Finding, clip};
use crate::lang::TestFile;
use crate::rule::{Level, RuleMeta};

pub const UNFINISHED_ASSERTION: RuleMeta = RuleMeta {
    id: "mock/unfinished-assertion",
    gate: "mock",
    default_level: Level::Deny,
    summary: "an assertion started and never made: `expect(x)` with no matcher, a matcher or assert method not called, `pytest.raises(E)` outside a `with`",
    help: "finish the check: call the matcher (`expect(fn).toThrow()`), call the assert method, or enter the context (`with pytest.raises(E):`)",
    doc: include_str!("unfinished-assertion.md"),
};

pub fn unfinished_assertion(path: &str, file: &TestFile) -> Vec<Finding> {
    file.tests
        .iter()
        .filter(|t| t.skip.is_none())
        .flat_map(|t| {
            t.unfinished.iter().map(|u| {
                finding_at(
                    &UNFINISHED_ASSERTION,
                    format!("`{}` in `{}` checks nothing: {}", clip(&u.text), t.name, u.lacks),
                    path,
                    u.span,
                )
            })
        })
        .collect()
}
