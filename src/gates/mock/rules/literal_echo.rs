use super::finding_at;
use crate::finding::Finding;
use crate::lang::{Binding, Form, Literal, Operand, TestCase, TestFile};
use crate::rule::{Level, RuleMeta};

pub const LITERAL_ECHO: RuleMeta = RuleMeta {
    id: "mock/literal-echo",
    gate: "mock",
    default_level: Level::Deny,
    summary: "a variable set to a literal is asserted equal to that same literal",
    help: "assert on a value the code under test produced, not on a value the test wrote itself",
    doc: include_str!("literal-echo.md"),
};

/// The literal the bare name `op` holds at `line`: its last plain binding
/// before that line, when that binding is a scalar literal and the name is
/// not bound again at or after `line` (a loop may bring a later binding
/// around to the assertion).
fn bound<'a>(test: &'a TestCase, op: &Operand, line: u32) -> Option<(&'a Binding, &'a Literal)> {
    let mut of_name = test.bindings.iter().filter(|b| b.name == op.key);
    if of_name.clone().any(|b| b.span.line >= line) {
        return None;
    }
    let last = of_name.next_back()?;
    Some((last, last.literal.as_ref()?))
}

fn echo(test: &TestCase, form: &Form, line: u32) -> Option<String> {
    let pair = |a: &Operand, b: &Operand| {
        let (binding, literal) = bound(test, a, line)?;
        if b.literal.as_ref() == Some(literal) {
            return Some(format!(
                "`{}` was set to `{}` on line {} and is asserted equal to `{}`",
                binding.name, b.text, binding.span.line, b.text
            ));
        }
        // `let want = 10; let got = 10; assert_eq!(got, want)`.
        let (other, _) = bound(test, b, line).filter(|(o, l)| *l == literal && o.name != binding.name)?;
        Some(format!(
            "`{}` (line {}) and `{}` (line {}) were both set to the same literal, and are asserted equal",
            binding.name, binding.span.line, other.name, other.span.line
        ))
    };
    match form.demanded() {
        Form::Equal(a, b) => pair(a, b).or_else(|| pair(b, a)),
        Form::Truthy(a) => bound(test, a, line).filter(|(_, l)| l.truthy()).map(|(b, _)| {
            format!(
                "`{}` was set to a truthy literal on line {} and is asserted truthy",
                b.name, b.span.line
            )
        }),
        Form::Falsy(a) => bound(test, a, line).filter(|(_, l)| !l.truthy()).map(|(b, _)| {
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
