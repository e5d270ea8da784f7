use super::finding_at;
use crate::finding::Finding;
use crate::lang::{Form, Literal, Operand, TestFile};
use crate::rule::{Level, RuleMeta};

pub const TAUTOLOGICAL_ASSERTION: RuleMeta = RuleMeta {
    id: "mock/tautological-assertion",
    gate: "mock",
    default_level: Level::Deny,
    summary: "an assertion that holds whatever the code under test does",
    help: "assert on a value the code under test returns or changes",
    doc: include_str!("tautological-assertion.md"),
};

fn scalar_eq(a: &Literal, b: &Literal) -> Option<bool> {
    match (a, b) {
        (Literal::Collection(_), _) | (_, Literal::Collection(_)) => None,
        _ => Some(a == b),
    }
}

/// Why `form` always holds, if it does.
pub fn tautology(form: &Form) -> Option<String> {
    let same = |a: &Operand, b: &Operand| a.literal.is_none() && !a.effects && !b.effects && a.key == b.key;
    match form {
        Form::Truthy(op) => match &op.literal {
            Some(Literal::Collection(_)) if op.literal.as_ref().is_some_and(Literal::truthy) => {
                Some(format!("asserts the non-empty `{}`, which is always true", op.text))
            }
            Some(l) if l.truthy() => Some(format!("asserts the literal `{}`, which is always true", op.text)),
            _ => None,
        },
        Form::Falsy(op) => match &op.literal {
            Some(l) if !l.truthy() => Some(format!(
                "asserts that the literal `{}` is falsy, which it always is",
                op.text
            )),
            _ => None,
        },
        Form::Equal(a, b) => match (&a.literal, &b.literal) {
            (Some(x), Some(y)) if scalar_eq(x, y) == Some(true) => Some(format!(
                "compares the literal `{}` with the equal literal `{}`",
                a.text, b.text
            )),
            _ if same(a, b) => Some(format!("compares `{}` with itself", a.text)),
            _ => None,
        },
        Form::NotEqual(a, b) => match (&a.literal, &b.literal) {
            (Some(x), Some(y)) if scalar_eq(x, y) == Some(false) => Some(format!(
                "asserts that the different literals `{}` and `{}` differ",
                a.text, b.text
            )),
            _ => None,
        },
        Form::FailUnless(demanded) => tautology(demanded),
        Form::Fail | Form::Other => None,
    }
}

pub fn tautological_assertion(path: &str, file: &TestFile) -> Vec<Finding> {
    let mut out = Vec::new();
    for test in &file.tests {
        // With a plan (`t.plan(n)`), `t.ok(true, "why")` counts one of the
        // planned assertions: it marks a path as accepted, like `t.pass()`.
        let planned = test.calls.iter().any(|c| c == "plan");
        for a in &test.assertions {
            let marks_a_branch = planned && matches!(a.form, Form::Truthy(_));
            if marks_a_branch {
                continue;
            }
            if let Some(why) = tautology(&a.form) {
                let s = a.span;
                out.push(finding_at(
                    &TAUTOLOGICAL_ASSERTION,
                    format!("tautological assertion in `{}`: it {why}", test.name),
                    path,
                    s,
                ));
            }
        }
    }
    out
}
