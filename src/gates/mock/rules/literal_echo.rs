use super::finding_at;
use crate::finding::Finding;
use crate::lang::{Binding, Form, Operand, TestCase, TestFile};
use crate::rule::{Level, RuleMeta};

pub const LITERAL_ECHO: RuleMeta = RuleMeta {
    id: "mock/literal-echo",
    gate: "mock",
    default_level: Level::Deny,
    summary: "a variable set to a literal is asserted equal to that same literal",
    help: "assert on a value the code under test produced, not on a value the test wrote itself",
    doc: include_str!("literal-echo.md"),
};

/// The binding `op` names, if it is a bare name bound once to a literal before `line`.
fn bound<'a>(test: &'a TestCase, op: &Operand, line: u32) -> Option<&'a Binding> {
    test.bindings.iter().find(|b| b.name == op.key && b.span.line < line)
}

fn echo(test: &TestCase, form: &Form, line: u32) -> Option<String> {
    let pair = |a: &Operand, b: &Operand| {
        let binding = bound(test, a, line)?;
        (b.literal.as_ref() == Some(&binding.literal)).then(|| {
            format!(
                "`{}` was set to `{}` on line {} and is asserted equal to `{}`",
                binding.name, b.text, binding.span.line, b.text
            )
        })
    };
    match form {
        Form::Equal(a, b) => pair(a, b).or_else(|| pair(b, a)),
        Form::Truthy(a) => bound(test, a, line).filter(|b| b.literal.truthy()).map(|b| {
            format!(
                "`{}` was set to a truthy literal on line {} and is asserted truthy",
                b.name, b.span.line
            )
        }),
        Form::Falsy(a) => bound(test, a, line).filter(|b| !b.literal.truthy()).map(|b| {
            format!(
                "`{}` was set to a falsy literal on line {} and is asserted falsy",
                b.name, b.span.line
            )
        }),
        _ => None,
    }
}

pub fn literal_echo(path: &str, file: &TestFile) -> Vec<Finding> {
    let mut out = Vec::new();
    for test in file.tests.iter().filter(|t| t.skip.is_none() && !t.bindings.is_empty()) {
        for a in &test.assertions {
            if let Some(why) = echo(test, &a.form, a.span.line) {
                let s = a.span;
                out.push(finding_at(
                    &LITERAL_ECHO,
                    format!("assertion in `{}` checks nothing: {why}", test.name),
                    path,
                    s,
                ));
            }
        }
    }
    out
}
