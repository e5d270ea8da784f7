use super::finding_at;
use crate::finding::Finding;
use crate::lang::{Form, Literal, Local, MockReturn, Operand, Returned, Span, TestCase, TestFile};
use crate::rule::{Level, RuleMeta};

pub const MOCK_RETURN_ECHO: RuleMeta = RuleMeta {
    id: "mock/mock-return-echo",
    gate: "mock",
    default_level: Level::Deny,
    summary: "the assertion checks only the value a mock was told to return",
    help: "call the code under test with the mock in place, and assert on what that code does with the mock's value",
    doc: include_str!("mock-return-echo.md"),
};

/// How many locals deep a name is followed (`get` -> `api.get` -> `m.api.get`).
const MAX_HOPS: usize = 4;

/// `billing.total()` -> (`billing`, `.total()`); `total()` -> (`total`, `()`).
fn split_head(key: &str) -> (&str, &str) {
    let end = key.find(['.', '(']).unwrap_or(key.len());
    key.split_at(end)
}

/// Does `span` start before `at`?
fn before(span: Span, at: Span) -> bool {
    (span.line, span.column) < (at.line, at.column)
}

/// The test's binding of `name` made before `at`, if it binds it once.
fn local<'a>(test: &'a TestCase, name: &str, at: Span) -> Option<&'a Local> {
    test.locals.iter().find(|l| l.name == name && before(l.span, at))
}

/// `key` with each local it starts with replaced by what the local was
/// bound to before `at`, so that every way the test names one mock reads
/// the same: `get` for `get = m.get` is `m.get`. A local bound to what a
/// call returns stands for that call's value only when the call is one the
/// test configured a mock through (`session = m.session()` with
/// `m.session.return_value.query.return_value = ..`): a call of anything
/// else (`Mock()`, `vi.fn()`, `Cart()`) may make a new object each time.
fn expand(test: &TestCase, key: &str, at: Span) -> String {
    let mut key = key.to_string();
    for _ in 0..MAX_HOPS {
        let (head, rest) = split_head(&key);
        let Some(l) = local(test, head, at) else { break };
        if l.chain.ends_with("()") && !configured_through(test, &l.chain) {
            break;
        }
        key = format!("{}{rest}", l.chain);
    }
    key
}

/// Is `call` (`m.session()`) a step of a configured mock's chain
/// (`m.session().query().first`)?
fn configured_through(test: &TestCase, call: &str) -> bool {
    test.mock_returns
        .iter()
        .any(|r| r.callee.strip_prefix(call).is_some_and(|rest| rest.starts_with('.')))
}

/// The mock call whose value `actual` is, and where that call is made: a
/// call in the assertion itself (`m.get()`, `m.get.return_value`), or a
/// local bound once to one before it (`result = m.get()`).
fn reached(test: &TestCase, actual: &Operand, at: Span) -> Option<(String, Span)> {
    if let Some(callee) = &actual.call_of {
        return Some((expand(test, callee, at), at));
    }
    let name = actual.key.trim();
    let l = local(test, name, at)?;
    let callee = l.chain.strip_suffix("()")?;
    Some((expand(test, callee, l.span), l.span))
}

/// Does `expected` name the value a mock was told to return?
fn same_value(value: &Returned, expected: &Operand) -> bool {
    match value {
        // A collection literal is known by its length only: two may differ.
        Returned::Literal(Literal::Collection(_)) | Returned::Computed | Returned::Other => false,
        Returned::Literal(literal) => expected.literal.as_ref() == Some(literal),
        Returned::Name(name) => {
            let key: String = expected.key.split_whitespace().collect();
            expected.literal.is_none() && key == *name
        }
    }
}

/// The configuration of the mock `actual` calls, in effect when it is
/// called, when `expected` is the value it was told to return. The test's
/// own configurations before the call decide, the last one made; without
/// them those made around the test (`setUp`, `beforeEach`, fixtures, the
/// module). A mock told to compute what it returns echoes nothing.
fn echoed<'a>(test: &'a TestCase, actual: &Operand, expected: &Operand, at: Span) -> Option<&'a MockReturn> {
    let (callee, called_at) = reached(test, actual, at)?;
    let (own, outer): (Vec<&MockReturn>, Vec<&MockReturn>) =
        test.mock_returns.iter().partition(|r| test.extent.contains(r.span));
    let own: Vec<&MockReturn> = own
        .into_iter()
        .filter(|r| before(r.span, called_at) && expand(test, &r.callee, r.span) == callee)
        .collect();
    let outer: Vec<&MockReturn> = outer.into_iter().filter(|r| r.callee == callee).collect();
    if own.iter().chain(&outer).any(|r| r.value == Returned::Computed) {
        return None;
    }
    match own.iter().max_by_key(|r| (r.span.line, r.span.column)) {
        Some(last) => same_value(&last.value, expected).then_some(*last),
        None => outer.into_iter().find(|r| same_value(&r.value, expected)),
    }
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
            let Some(mock) = echoed(test, x, y, a.span).or_else(|| echoed(test, y, x, a.span)) else {
                continue;
            };
            out.push(finding_at(
                &MOCK_RETURN_ECHO,
                format!(
                    "assertion in `{}` checks the value the mock `{}` was told to return on line {}",
                    test.name, mock.callee, mock.span.line
                ),
                path,
                a.span,
            ));
        }
    }
    out
}
