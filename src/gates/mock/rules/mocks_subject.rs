use std::path::PathBuf;

use super::finding_at;
use crate::finding::Finding;
use crate::gates::project::resolve::Reach;
use crate::lang::{Lang, Mock, MockTarget, TestCase, TestFile};
use crate::rule::{Level, RuleMeta};

pub const MOCKS_SUBJECT: RuleMeta = RuleMeta {
    id: "mock/mocks-subject",
    gate: "mock",
    default_level: Level::Deny,
    summary: "the test mocks the project code it then asserts on",
    help: "mock the code's collaborators (network, database, clock), call the real code under test, and assert on what it returns",
    doc: include_str!("mocks-subject.md"),
};

/// What the gate resolved about a file's mocks and imports.
pub struct Resolved<'a> {
    pub lang: Lang,
    /// Where each of `file.mocks` points.
    pub reach: &'a [Reach],
    /// The project file each of `file.imports` resolves to.
    pub imports: &'a [Option<PathBuf>],
}

/// Replace the first name of `key` with its alias, while it has one
/// (`calc.add()` -> `Calculator().add()`).
fn expand(key: &str, aliases: &[(String, String)]) -> String {
    let mut key = key.to_string();
    for _ in 0..4 {
        let (head, rest) = split_head(&key);
        match aliases.iter().find(|(name, _)| name == head) {
            Some((_, value)) => key = format!("{value}{rest}"),
            None => break,
        }
    }
    key
}

/// `billing.total()` -> (`billing`, `.total()`); `total()` -> (`total`, `()`).
fn split_head(key: &str) -> (&str, &str) {
    let end = key.find(['.', '(']).unwrap_or(key.len());
    key.split_at(end)
}

/// Every call a value derives from: `billing.total().amount` -> [`billing.total`].
fn calls_in(key: &str) -> Vec<&str> {
    key.match_indices("()").map(|(i, _)| &key[..i]).collect()
}

fn strip_calls(key: &str) -> String {
    key.replace("()", "")
}

/// The import binding the first name of `callee`: (import index, origin).
fn binding<'f>(file: &'f TestFile, name: &str) -> Option<(usize, &'f str)> {
    file.imports.iter().enumerate().find_map(|(i, import)| {
        let j = import.names.iter().position(|n| n == name)?;
        Some((i, import.origins.get(j)?.as_str()))
    })
}

/// Python: the dotted path a callee reaches at call time, and how much of it
/// the import bound (`billing.total` with `from pkg import billing` ->
/// (`pkg.billing.total`, `pkg.billing`)).
fn qualified(file: &TestFile, callee: &str) -> (String, String) {
    let plain = strip_calls(callee);
    let (head, rest) = split_head(&plain);
    match binding(file, head) {
        Some((_, origin)) => (format!("{origin}{rest}"), origin.to_string()),
        None => (plain.clone(), head.to_string()),
    }
}

/// Does calling `callee` in the test run the code `mock` replaced?
fn hits(callee: &str, mock: &Mock, target: &PathBuf, file: &TestFile, resolved: &Resolved) -> bool {
    match &mock.target {
        MockTarget::Module { members, .. } => {
            let plain = strip_calls(callee);
            let mut parts = plain.split('.');
            let head = parts.next().unwrap_or_default();
            let Some((i, origin)) = binding(file, head) else {
                return false;
            };
            if resolved.imports.get(i).and_then(Option::as_ref) != Some(target) {
                return false;
            }
            let member = match origin {
                "*" | "default" => parts.next().unwrap_or(origin),
                named => named,
            };
            members.as_ref().is_none_or(|m| m.iter().any(|x| x == member))
        }
        MockTarget::Path(path) if resolved.lang == Lang::Python => {
            // A name imported from the patched module is bound before the
            // patch: only a lookup through the module at call time is patched.
            let (dotted, bound) = qualified(file, callee);
            (dotted == *path || dotted.starts_with(&format!("{path}."))) && bound.len() < path.len()
        }
        MockTarget::Path(_) => false,
        MockTarget::Member { object, member } => {
            let object = strip_calls(object);
            let object = object.strip_suffix(".prototype").unwrap_or(&object);
            if resolved.lang == Lang::Python {
                let (dotted, _) = qualified(file, callee);
                let (owner, _) = qualified(file, object);
                dotted == format!("{owner}.{member}")
            } else {
                strip_calls(callee) == format!("{object}.{member}")
            }
        }
    }
}

fn subject_mock(test: &TestCase, value: &str, file: &TestFile, resolved: &Resolved) -> Option<usize> {
    let value = expand(value, &test.aliases);
    for callee in calls_in(&value) {
        for &m in &test.mocks {
            let mock = &file.mocks[m];
            if let (true, Some(Reach::Project(target))) = (mock.replaces, resolved.reach.get(m))
                && hits(callee, mock, target, file, resolved)
            {
                return Some(m);
            }
        }
    }
    None
}

pub fn mocks_subject(path: &str, file: &TestFile, resolved: &Resolved) -> Vec<Finding> {
    let mut out = Vec::new();
    for test in file.tests.iter().filter(|t| t.skip.is_none() && !t.mocks.is_empty()) {
        for a in &test.assertions {
            let Some((value, m)) = a
                .values
                .iter()
                .find_map(|v| subject_mock(test, v, file, resolved).map(|m| (v, m)))
            else {
                continue;
            };
            let mock = &file.mocks[m];
            out.push(finding_at(
                &MOCKS_SUBJECT,
                format!(
                    "`{}` asserts on `{value}`, which the mock of `{}` on line {} replaces: the check runs the mock, not the project code",
                    test.name,
                    mock.target.describe(),
                    mock.span.line
                ),
                path,
                a.span,
            ));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn aliases_expand_the_first_name() {
        let aliases = vec![
            ("calc".to_string(), "Calculator()".to_string()),
            ("r".to_string(), "calc.add()".to_string()),
        ];
        assert_eq!(expand("r", &aliases), "Calculator().add()");
        assert_eq!(expand("r.value", &aliases), "Calculator().add().value");
        assert_eq!(expand("other()", &aliases), "other()");
        assert_eq!(calls_in("billing.total().amount"), vec!["billing.total"]);
        assert_eq!(calls_in("Calculator().add()"), vec!["Calculator", "Calculator().add"]);
    }
}
