//! One check, whichever framework writes it. A suite moved from Jest to
//! `node:test` (or from chai to `assert`, from unittest to pytest) writes
//! every check again with other matchers: `expect(fn).toThrow('bad')` is
//! `assert.throws(fn, { message: /bad/ })`, `expect(out).toMatch('x')` is
//! `assert(out.includes('x'))`, `expect(spy).toHaveBeenCalled()` is
//! `assert(spy.mock.callCount() > 0)`. Read as what they pin, on which
//! value, they are the same check (issue 64: 56 of commander.js's checks
//! read as changed or weakened when it left Jest).

use super::{is_literal, spelled_value};
use crate::lang::{Assertion, Form};

/// What a check pins, framework aside.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Canon {
    /// `throws`, `contains` or `called`.
    kind: &'static str,
    /// The value it is about, as a token key.
    subject: String,
    /// What it expects of it, spelled ([`expectation`]); empty when nothing.
    expected: String,
}

impl Canon {
    fn new(kind: &'static str, subject: &str, expected: String) -> Option<Canon> {
        Some(Canon {
            kind,
            subject: subject.to_string(),
            expected,
        })
    }

    /// The check as a key for [`super::remade_keys`].
    pub fn key(&self) -> String {
        format!(
            "\u{2248}\u{1f}{}\u{1f}{}\u{1f}{}",
            self.kind, self.subject, self.expected
        )
    }
}

/// The check `a` makes as a [`Canon`], when it is one of the kinds read.
pub fn canonical(a: &Assertion) -> Option<Canon> {
    let segments: Vec<&str> = a.matcher.split('.').collect();
    if segments.contains(&"not") {
        return None;
    }
    let last = *segments.last()?;
    let canon = Canon::new;
    match (last, a.parts.as_slice()) {
        ("toThrow" | "toThrowError" | "throws" | "throw" | "rejects" | "raises", [subject, rest @ ..]) => canon(
            "throws",
            subject,
            rest.first().map_or(String::new(), |e| expectation(e)),
        ),
        ("toMatch" | "toContain" | "include" | "includes" | "contain" | "match", [subject, expected])
            if segments.len() == 1 || segments[0] != "assert" =>
        {
            canon("contains", subject, expectation(expected))
        }
        // `assert.match(text, /x/)`, `assert.include(text, 'x')`.
        ("match" | "include" | "includes", [subject, expected]) => canon("contains", subject, expectation(expected)),
        // Python's `assert x in text`, `assertIn(x, text)`.
        ("in" | "assertIn", [expected, subject]) => canon("contains", subject, expectation(expected)),
        ("toHaveBeenCalled" | "toBeCalled", [subject]) => canon("called", subject, String::new()),
        _ => truthy(a),
    }
}

/// A truthy check whose value is a containment or a call count:
/// `assert(text.includes('x'))`, `expect(text.includes('x')).toBe(true)`,
/// `assert(spy.mock.callCount() > 0)`, `assert.ok(spy.mock.calls.length >= 1)`.
fn truthy(a: &Assertion) -> Option<Canon> {
    let value = match (&a.form, a.parts.as_slice()) {
        (Form::Truthy(operand), _) => operand.key.as_str(),
        (Form::Equal(..), [value, flag]) if flag == "true" => value.as_str(),
        _ => return None,
    };
    let canon = Canon::new;
    for count in [
        " . mock . callCount ( ) > 0",
        " . mock . callCount ( ) >= 1",
        " . mock . calls . length > 0",
        " . mock . calls . length >= 1",
        " . called",
    ] {
        if let Some(spy) = value.strip_suffix(count) {
            return canon("called", spy, String::new());
        }
    }
    for method in [" . includes ( ", " . match ( "] {
        if let Some((subject, rest)) = value.split_once(method)
            && let Some(expected) = rest.strip_suffix(" )")
            && !expected.contains(" , ")
        {
            return canon("contains", subject, expectation(expected));
        }
    }
    None
}

/// What an expected message or text spells: a string's text, a regular
/// expression's when it has no operator (`/cannot add/` finds what
/// `'cannot add'` does), the `message` of an object (`{ message: /x/ }`);
/// anything else as written.
fn expectation(key: &str) -> String {
    let key = key.trim();
    if let Some(inner) = key.strip_prefix("{ ").and_then(|k| k.strip_suffix(" }")) {
        if let Some(message) = inner.strip_prefix("message : ")
            && !message.contains(" , ")
        {
            return expectation(message);
        }
        return key.to_string();
    }
    if let Some(pattern) = regex_text(key) {
        return pattern;
    }
    if is_literal(key) {
        return spelled_value(key);
    }
    key.to_string()
}

/// The text a regular expression literal (`/ cannot add /`, flags after
/// it) matches when it matches only itself ([`super::plain_pattern`]),
/// without spaces (as [`spelled_value`] squashes a string's).
fn regex_text(key: &str) -> Option<String> {
    let body = key.strip_prefix('/')?;
    let end = body.rfind('/')?;
    let (pattern, flags) = (&body[..end], &body[end + 1..]);
    if !flags.trim().chars().all(|c| c.is_ascii_alphabetic()) {
        return None;
    }
    let squashed: String = pattern.chars().filter(|c| !c.is_whitespace()).collect();
    super::plain_pattern(&squashed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang::Lang;

    fn checks(lang: Lang, body: &str) -> Vec<Option<Canon>> {
        let file = lang.test_file(body.as_bytes()).unwrap();
        file.tests[0].assertions.iter().map(canonical).collect()
    }

    #[test]
    fn a_check_written_for_another_framework_is_the_same_check() {
        let jest = "test('t', () => {\n  expect(() => run('x')).toThrow('cannot add command');\n  expect(help).toMatch('--no-colour');\n  expect(spy).toHaveBeenCalled();\n  expect(help).toContain('Usage');\n});\n";
        let node = "test('t', () => {\n  assert.throws(() => run('x'), { message: /cannot add command/ });\n  assert(help.includes('--no-colour'));\n  assert(spy.mock.callCount() > 0);\n  assert.match(help, /Usage/);\n});\n";
        let (a, b) = (checks(Lang::JavaScript, jest), checks(Lang::JavaScript, node));
        assert!(a.iter().all(Option::is_some), "{a:?}");
        assert_eq!(a, b);
    }

    #[test]
    fn another_message_a_pattern_or_a_negation_is_not_the_same() {
        let jest = "test('t', () => {\n  expect(() => run('x')).toThrow('cannot add command');\n  expect(help).toMatch('--no-colour');\n});\n";
        let node = "test('t', () => {\n  assert.throws(() => run('x'), { message: /cannot .* command/ });\n  assert(help.includes('--colour'));\n  expect(spy).not.toHaveBeenCalled();\n});\n";
        let (a, b) = (checks(Lang::JavaScript, jest), checks(Lang::JavaScript, node));
        assert_ne!(a[0], b[0]);
        assert_ne!(a[1], b[1]);
        assert_eq!(b[2], None);
    }
}
