use super::finding_at;
use crate::finding::Finding;
use crate::lang::{Form, Literal, Operand, TestCase, TestFile};
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
        // Decided with the rest of the test: [`self_comparison`].
        Form::SelfEqual(_) | Form::Fail | Form::Other => None,
    }
}

/// Beginnings of the words of a test's name or scope that say it tests
/// equality itself, where comparing a value with itself is the check
/// (`test_eq_is_reflexive`, `TestHashing`, `test_ordering`, `partial_eq`),
/// and words that must match whole (`ne`, `nan`, `same`).
const ABOUT_EQUALITY: &[&str] = &["eq", "hash", "compar", "cmp", "order", "ident", "reflex"];
const ABOUT_EQUALITY_WORDS: &[&str] = &["ne", "nan", "same"];

fn about_equality(test: &TestCase) -> bool {
    let words = |s: &str| {
        // `test_eq_mirrors`, `TestEquality`, `testCompareWith`: split on
        // non-alphanumerics and before each capital.
        let mut out = Vec::new();
        let mut word = String::new();
        for c in s.chars() {
            if (!c.is_alphanumeric() || c.is_uppercase()) && !word.is_empty() {
                out.push(std::mem::take(&mut word));
            }
            if c.is_alphanumeric() {
                word.extend(c.to_lowercase());
            }
        }
        out.push(word);
        out
    };
    words(&test.name)
        .into_iter()
        .chain(words(&test.scope))
        .any(|w| ABOUT_EQUALITY.iter().any(|p| w.starts_with(p)) || ABOUT_EQUALITY_WORDS.contains(&w.as_str()))
}

/// Why the [`Form::SelfEqual`] `op` of `test` cannot fail, if it cannot: a
/// local name (not an attribute, whose every read may build a new object,
/// nor a call) compared with itself in a test whose name is not about
/// equality and which checks nothing else.
fn self_comparison(test: &TestCase, op: &Operand) -> Option<String> {
    let local = !op.effects && op.key.chars().all(|c| c.is_alphanumeric() || c == '_');
    let checks_nothing_else = test
        .assertions
        .iter()
        .all(|a| matches!(a.form.demanded(), Form::SelfEqual(_)) || tautology(&a.form).is_some());
    (local && checks_nothing_else && !about_equality(test)).then(|| {
        format!(
            "compares `{}` with itself, and the test checks nothing else (a test of `==` itself says so in its name)",
            op.text
        )
    })
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
            let why = match a.form.demanded() {
                Form::SelfEqual(op) => self_comparison(test, op),
                _ => tautology(&a.form),
            };
            if let Some(why) = why {
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
