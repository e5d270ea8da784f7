use std::collections::BTreeSet;

use super::finding_at;
use crate::finding::Finding;
use crate::lang::{Span, TestFile};
use crate::rule::{Level, RuleMeta};

pub const SKIPPED_TEST: RuleMeta = RuleMeta {
    id: "mock/skipped-test",
    gate: "mock",
    default_level: Level::Warn,
    summary: "a test skipped without a reason",
    help: "give the reason (`skip(reason=...)`, or a comment on the line above the skip) or delete the test",
    doc: include_str!("skipped-test.md"),
};

pub fn skipped_test(path: &str, file: &TestFile) -> Vec<Finding> {
    // A skip shared by several tests (a skipped class or describe) is reported once.
    let mut seen: BTreeSet<Span> = BTreeSet::new();
    let mut out = Vec::new();
    for t in &file.tests {
        let Some(skip) = &t.skip else { continue };
        if skip.reason.is_some() || !seen.insert(skip.span) {
            continue;
        }
        let shared = file
            .tests
            .iter()
            .filter(|o| o.skip.as_ref().is_some_and(|s| s.span == skip.span))
            .count();
        let what = if shared > 1 {
            format!("{shared} tests")
        } else {
            format!("test `{}`", t.name)
        };
        let how = if skip.conditional {
            "conditionally skipped"
        } else {
            "skipped"
        };
        let s = skip.span;
        out.push(finding_at(
            &SKIPPED_TEST,
            format!("{what} {how} without a reason"),
            path,
            s,
        ));
    }
    out
}
