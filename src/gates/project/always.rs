//! Checks that hold whatever the code under test does: what the mock gate
//! reports as tautologies, and what the mutation gate need not miss when a
//! change deletes one.

use crate::lang::{Form, Literal, Operand};

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
        // Decided with the rest of the test: [`self_comparison`].
        Form::SelfEqual(_) | Form::Fail | Form::Other => None,
    }
}
