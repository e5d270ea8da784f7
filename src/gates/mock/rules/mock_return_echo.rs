use super::finding_at;
use crate::finding::Finding;
use crate::lang::{Form, Literal, MockReturn, Operand, TestCase, TestFile};
use crate::rule::{Level, RuleMeta};

pub const MOCK_RETURN_ECHO: RuleMeta = RuleMeta {
    id: "mock/mock-return-echo",
    gate: "mock",
    default_level: Level::Deny,
    summary: "the assertion checks only the value a mock was told to return",
    help: "call the code under test with the mock in place, and assert on what that code does with the mock's value",
    doc: include_str!("mock-return-echo.md"),
};

/// The mock whose configured literal `expected` is, when `actual` calls it
/// directly or reads back what it was told (`m.get.return_value`).
fn echoed<'a>(test: &'a TestCase, actual: &Operand, expected: &Operand) -> Option<&'a MockReturn> {
    let read_back: String = actual.key.split_whitespace().collect();
    let callee = match actual.call_of.as_deref() {
        Some(callee) => callee,
        None => read_back.strip_suffix(".return_value")?,
    };
    // A collection literal is known by its length only: two may differ.
    let literal = expected
        .literal
        .as_ref()
        .filter(|l| !matches!(l, Literal::Collection(_)))?;
    test.mock_returns
        .iter()
        .find(|m| m.callee == callee && &m.literal == literal)
}

pub fn mock_return_echo(path: &str, file: &TestFile) -> Vec<Finding> {
    let mut out = Vec::new();
    for test in file
        .tests
        .iter()
        .filter(|t| t.skip.is_none() && !t.mock_returns.is_empty())
    {
        for a in &test.assertions {
            let Form::Equal(x, y) = a.form.demanded() else { continue };
            let Some(mock) = echoed(test, x, y).or_else(|| echoed(test, y, x)) else {
                continue;
            };
            let s = a.span;
            out.push(finding_at(
                &MOCK_RETURN_ECHO,
                format!(
                    "assertion in `{}` checks the value the mock `{}` was told to return on line {}",
                    test.name, mock.callee, mock.span.line
                ),
                path,
                s,
            ));
        }
    }
    out
}
