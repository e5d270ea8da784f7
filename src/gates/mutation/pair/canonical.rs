//! One check, whichever framework writes it. A suite moved from Jest to
//! `node:test` (or from chai to `assert`, from unittest to pytest) writes
//! every check again with other matchers: `expect(fn).toThrow('bad')` is
//! `assert.throws(fn, { message: /bad/ })`, `expect(out).toMatch('x')` is
//! `assert(out.includes('x'))`, `expect(spy).toHaveBeenCalled()` is
//! `assert(spy.mock.callCount() > 0)`, `expect(spy).toHaveBeenCalledWith(1)`
//! is `assert.deepEqual(spy.mock.calls[0].arguments, [1])`. Read as what they pin, on which
//! value, they are the same check (issue 64: 56 of commander.js's checks
//! read as changed or weakened when it left Jest).

use super::{is_literal, spelled_value, values::is_delimiter};
use crate::lang::{Assertion, Form, TestCase, is_plain_name};

/// What a check pins, framework aside.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Canon {
    /// `throws`, `contains`, `called`, `called times`, `called with`, `nil`,
    /// `not nil` or `type`.
    kind: &'static str,
    /// The value it is about, as a token key.
    subject: String,
    /// What it expects of it, spelled ([`expectation`]); empty when nothing.
    expected: String,
    /// Whether that is written as a literal (a string, a number, a
    /// pattern, a list or object written out), not a name or a call.
    literal: bool,
}

impl Canon {
    /// The check of `kind` on `subject` expecting what the token key
    /// `expected` writes (empty: nothing).
    fn new(kind: &'static str, subject: &str, expected: &str) -> Option<Canon> {
        let expected = expected.trim();
        Some(Canon {
            kind,
            subject: subject.to_string(),
            expected: if expected.is_empty() {
                String::new()
            } else {
                expectation(expected)
            },
            literal: is_literal(expected) || expected.starts_with('/'),
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

/// A check as [`Assertion::matcher`] and [`Assertion::parts`] give it, or
/// the same check written for another framework ([`canonical`]).
pub fn same_check(a: &Assertion, b: &Assertion) -> bool {
    same_check_as(a)(b)
}

/// [`same_check`] of `a`, read once for many.
pub fn same_check_as(a: &Assertion) -> impl Fn(&Assertion) -> bool + '_ {
    let (key, canon) = (std::cell::OnceCell::new(), canonical(a));
    move |b| {
        (a.matcher == b.matcher
            && (a.parts == b.parts || *key.get_or_init(|| super::check_key(a)) == super::check_key(b)))
            || canon.as_ref().is_some_and(|c| Some(c) == canonical(b).as_ref())
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
        (
            "toThrow" | "toThrowError" | "throws" | "throw" | "rejects" | "raises" | "throwsAsync",
            [subject, rest @ ..],
        ) => canon("throws", subject, rest.first().map_or("", String::as_str)),
        ("toMatch" | "toContain" | "include" | "includes" | "contain" | "match", [subject, expected])
            if segments.len() == 1 || segments[0] != "assert" =>
        {
            canon("contains", subject, expected)
        }
        // `assert.match(text, /x/)`, `assert.include(text, 'x')`.
        ("match" | "include" | "includes", [subject, expected]) => canon("contains", subject, expected),
        // Python's `assert x in text`, `assertIn(x, text)`.
        ("in" | "assertIn", [expected, subject]) => canon("contains", subject, expected),
        ("toHaveBeenCalled" | "toBeCalled", [subject]) => canon("called", subject, ""),
        // How many calls: `toHaveBeenCalledOnce()` is `toHaveBeenCalledTimes(1)`.
        ("toHaveBeenCalledTimes" | "toBeCalledTimes" | "callCount", [subject, times]) => {
            canon("called times", subject, times)
        }
        ("toHaveBeenCalledOnce" | "calledOnce", [subject]) => canon("called times", subject, "1"),
        // tap's `t.type(v, 'string')` is `typeof v === 'string'`.
        ("type", [subject, expected, ..]) if expected.starts_with('"') => canon("type", subject, expected),
        // Go: an error checked as absent or present is a value checked as
        // nil or not (testify's `NoError` and quicktest's `IsNil`).
        ("NoError" | "Nil", [subject]) => canon("nil", subject, ""),
        ("Error" | "NotNil", [subject]) => canon("not nil", subject, ""),
        // The arguments as the list a first call's are compared with (and
        // the one call checked with them: jest-extended's and Vitest's
        // `..OnceWith` check both at once).
        (
            "toHaveBeenCalledWith" | "toBeCalledWith" | "toHaveBeenCalledOnceWith" | "toHaveBeenCalledExactlyOnceWith",
            [subject, arguments @ ..],
        ) => {
            let mut canon = canon("called with", subject, &format!("[ {} ]", arguments.join(" , ")))?;
            canon.literal = arguments.iter().all(|a| is_literal(a));
            Some(canon)
        }
        _ => first_call(a).or_else(|| truthy(a)),
    }
}

/// An exact check of the arguments of a spy's first call, as a list:
/// `assert.deepEqual(spy.mock.calls[0].arguments, [1])` (`node:test`),
/// `expect(spy.mock.calls[0]).toEqual([1])` (Jest), what
/// `expect(spy).toHaveBeenCalledWith(1)` checks of the one call a test
/// makes.
fn first_call(a: &Assertion) -> Option<Canon> {
    let Form::Equal(..) = a.form else { return None };
    let [value, expected] = a.parts.as_slice() else {
        return None;
    };
    let spy = [" . mock . calls [ 0 ] . arguments", " . mock . calls [ 0 ]"]
        .iter()
        .find_map(|suffix| value.strip_suffix(suffix))?;
    expected
        .starts_with('[')
        .then(|| Canon::new("called with", spy, expected))
        .flatten()
}

/// Is `new` the check `old` written for another framework (the same kind
/// of check on the same value, or a property of the caught error `old`
/// checks that `new` demands of the error thrown): `Some(true)` when it
/// expects the same, or what a refactor this cannot evaluate may have
/// written the same (a literal become a name); `Some(false)` when another
/// literal; `None` when not, or when `new` expects nothing where `old`
/// expected something (a weakening, judged with the lattice).
pub fn migrated(old: &Assertion, new: &Assertion) -> Option<bool> {
    if let (Some(a), Some(b)) = (canonical(old), canonical(new))
        && a.kind == b.kind
        && a.subject == b.subject
    {
        return match (a.expected == b.expected, b.expected.is_empty()) {
            (true, _) => Some(true),
            (false, true) => None,
            (false, false) => Some(!(a.literal && b.literal)),
        };
    }
    let checked = thrown_checked(old)?;
    let made = thrown_made(new);
    if made.iter().any(|m| m.key() == checked.key()) {
        return Some(true);
    }
    made.iter()
        .find(|m| m.property == checked.property)
        .map(|m| !(checked.literal && m.literal))
}

/// A property of a thrown error a check demands: its name, the value
/// spelled ([`spelled_value`]), and whether that is written as a literal.
#[derive(Debug)]
pub struct Thrown {
    property: String,
    value: String,
    literal: bool,
}

impl Thrown {
    fn new(property: &str, value: &str, literal: bool) -> Thrown {
        Thrown {
            property: property.to_string(),
            value: spelled_value(value),
            literal,
        }
    }

    /// The check as a key for [`super::remade_keys`] and
    /// [`super::made_keys`]: the same whichever way it was written.
    pub fn key(&self) -> String {
        format!("\u{2248}\u{1f}thrown\u{1f}{}\u{1f}{}", self.property, self.value)
    }
}

/// A check of a property of a caught error (`expect(errorThrown.code).toEqual(code)`,
/// `assert.equal(err.code, 'E_X')`: a name that says it holds an error), as
/// what [`thrown_made`] reads of a check that the error thrown has it.
pub fn thrown_checked(a: &Assertion) -> Option<Thrown> {
    // An equality, or a match of a pattern (`t.match(err.message, /^bad/)`
    // is `{ message: /^bad/ }`).
    let pattern = matches!(a.matcher.rsplit('.').next(), Some("match" | "toMatch"));
    if !matches!(a.form, Form::Equal(..)) && !pattern {
        return None;
    }
    // A message after the operands is the check's own (`t.equal(a, b, "msg")`).
    let (subject, expected) = match a.parts.as_slice() {
        [subject, expected] => (subject, expected),
        [subject, expected, message] if message.starts_with('"') || message.starts_with('`') => (subject, expected),
        _ => return None,
    };
    let (error, property) = subject.split_once(" . ")?;
    (names_an_error(error) && is_plain_name(property)).then(|| Thrown::new(property, expected, is_literal(expected)))
}

/// The properties a check that something throws demands of the error
/// (`assert.throws(fn, { code })`, `{ code: 'E_X', exitCode: 1 }`); a
/// shorthand `{ code }` names a variable, not a literal.
pub fn thrown_made(a: &Assertion) -> Vec<Thrown> {
    let Some(Canon { kind: "throws", .. }) = canonical(a) else {
        return Vec::new();
    };
    let Some(fields) = a
        .parts
        .get(1)
        .and_then(|p| p.strip_prefix("{ "))
        .and_then(|p| p.strip_suffix(" }"))
    else {
        return Vec::new();
    };
    // The fields at the top level: a value may be a list or an object.
    top_level_items(fields)
        .into_iter()
        .filter_map(|field| match field.split_once(" : ") {
            Some((name, value)) if is_plain_name(name) => Some(Thrown::new(name, value, is_literal(value))),
            None if is_plain_name(field) => Some(Thrown::new(field, field, false)),
            _ => None,
        })
        .collect()
}

/// Was the lost check `a` of `old` one of the try/catch way of saying a
/// call throws (an explicit failure after the call, `t.fail('should
/// throw')`; a truthy check of the caught error, `t.ok(err)`, `t.ok(err
/// instanceof Error)`), made again by a check that it throws that `new`
/// makes beyond those `old` made (`t.assert.throws(() => build(..), {
/// message })`; issue 64: fast-json-stringify's move from tap to
/// node:test)?
pub fn threw_again(old: &TestCase, new: &TestCase, a: &Assertion) -> bool {
    let threw = match &a.form {
        Form::Fail => true,
        Form::Truthy(operand) => operand.key.split(' ').next().is_some_and(names_an_error),
        _ => false,
    };
    let throws = |t: &TestCase| {
        t.assertions
            .iter()
            .filter(|b| canonical(b).is_some_and(|c| c.kind == "throws"))
            .count()
    };
    threw && throws(new) > throws(old)
}

/// Does a variable's name say it holds a caught error (`err`, `error`,
/// `e`, `exc`, `errorThrown`, `apiError`; not `stderr`)?
fn names_an_error(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    matches!(
        lower.as_str(),
        "e" | "ex" | "exc" | "err" | "error" | "exception" | "thrown" | "caught"
    ) || lower.starts_with("error")
        || name.starts_with("err") && name[3..].starts_with(|c: char| c.is_ascii_uppercase())
        || (lower.ends_with("error") || lower.ends_with("exception")) && !lower.starts_with("std")
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
            return canon("called", spy, "");
        }
    }
    // `typeof v === 'string'` (or `==`).
    if let Some(rest) = value.strip_prefix("typeof ")
        && let Some((subject, expected)) = rest.split_once(" === ").or_else(|| rest.split_once(" == "))
        && is_plain_name(subject)
        && expected.starts_with('"')
    {
        return canon("type", subject, expected);
    }
    for method in [" . includes ( ", " . match ( "] {
        if let Some((subject, rest)) = value.split_once(method)
            && let Some(expected) = rest.strip_suffix(" )")
            && !expected.contains(" , ")
        {
            return canon("contains", subject, expected);
        }
    }
    // Any other call given a literal, checked as truthy, whichever matcher
    // says it: `assert(isNaN(parse('NaN')))` is tap's `t.ok(isNaN(parse(
    // 'NaN')), 'msg')` and Jest's `expect(..).toBeTruthy()` (issue 64: json5
    // left Mocha for tap). Not a name or a chain: `assert response.ok` says
    // too little to be told from another test's; not `x === true`, which
    // asks more than truthiness.
    let asks = value.contains(" ( ") && !super::literals(value).is_empty();
    let truthy = matches!(a.form, Form::Truthy(_)) && asks;
    truthy.then(|| canon("truthy", value, "")).flatten()
}

/// What an expected message or text spells: a string's text, a regular
/// expression's when it has no operator (`/cannot add/` finds what
/// `'cannot add'` does), the `message` of an object (`{ message: /x/ }`),
/// the class of `{ instanceOf: E }` or `{ constructor: E }` (`E`);
/// anything else as written.
fn expectation(key: &str) -> String {
    // A trailing comma is a formatter's (`[a, b,]`, `{message: m,}`).
    let key = key
        .trim()
        .replace(" , ]", " ]")
        .replace(" , }", " }")
        .replace(" , )", " )");
    let key = key.as_str();
    if let Some(inner) = key.strip_prefix("{ ").and_then(|k| k.strip_suffix(" }")) {
        let properties = top_level_items(inner);
        if let [only] = properties.as_slice() {
            // The message alone, however it is built (`{ message: [..].join('\n') }`).
            if let Some(message) = only.strip_prefix("message : ") {
                return expectation(message);
            }
            // The error's class alone: AVA's `{ instanceOf: E }`, an object
            // checked for `{ constructor: E }`, `E` itself.
            if let Some(class) = only
                .strip_prefix("instanceOf : ")
                .or_else(|| only.strip_prefix("constructor : "))
                && is_plain_name(class)
            {
                return class.to_string();
            }
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

/// The items of a list or the properties of an object, as a token key
/// writes what is between its brackets: split at the commas outside
/// every string and bracket.
fn top_level_items(inner: &str) -> Vec<&str> {
    let mut items = Vec::new();
    let (mut depth, mut in_string, mut start, mut at) = (0usize, false, 0usize, 0usize);
    for token in inner.split(' ') {
        if is_delimiter(token) {
            in_string = !in_string;
        } else if !in_string {
            match token {
                "(" | "[" | "{" | "${" => depth += 1,
                ")" | "]" | "}" => depth = depth.saturating_sub(1),
                "," if depth == 0 => {
                    items.push(inner[start..at].trim());
                    start = at + token.len();
                }
                _ => {}
            }
        }
        at += token.len() + 1;
    }
    let last = inner.get(start..).unwrap_or_default().trim();
    if !last.is_empty() {
        items.push(last);
    }
    items
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
    super::remade::plain_pattern(&squashed)
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
        let jest = "test('t', () => {\n  expect(() => run('x')).toThrow('cannot add command');\n  expect(help).toMatch('--no-colour');\n  expect(spy).toHaveBeenCalled();\n  expect(help).toContain('Usage');\n  expect(exit).toHaveBeenCalledWith(1, 'a');\n});\n";
        let node = "test('t', () => {\n  assert.throws(() => run('x'), { message: /cannot add command/ });\n  assert(help.includes('--no-colour'));\n  assert(spy.mock.callCount() > 0);\n  assert.match(help, /Usage/);\n  assert.deepEqual(exit.mock.calls[0].arguments, [1, 'a']);\n});\n";
        let (a, b) = (checks(Lang::JavaScript, jest), checks(Lang::JavaScript, node));
        assert!(a.iter().all(Option::is_some), "{a:?}");
        assert_eq!(a, b);
    }

    #[test]
    fn another_message_a_pattern_or_a_negation_is_not_the_same() {
        let jest = "test('t', () => {\n  expect(() => run('x')).toThrow('cannot add command');\n  expect(help).toMatch('--no-colour');\n});\n";
        let node = "test('t', () => {\n  assert.throws(() => run('x'), { message: /cannot .* command/ });\n  assert(help.includes('--colour'));\n  expect(spy).not.toHaveBeenCalled();\n  assert.deepEqual(exit.mock.calls[0].arguments, [2]);\n});\n";
        let (a, b) = (checks(Lang::JavaScript, jest), checks(Lang::JavaScript, node));
        assert_ne!(a[0], b[0]);
        assert_ne!(a[1], b[1]);
        assert_eq!(b[2], None);
        let called = checks(
            Lang::JavaScript,
            "test('t', () => {\n  expect(exit).toHaveBeenCalledWith(1);\n});\n",
        );
        assert_ne!(called[0], b[3]);
    }

    #[test]
    fn an_object_of_the_message_alone_is_the_message_with_commas_in_it() {
        let ava = "test('t', t => {\n  t.throws(() => run('x'), ['a, b', 'c'].join('\\n'));\n  t.throws(() => run('y'), {message: ['a, b', 'c',].join('\\n'),});\n  t.throws(() => run('z'), {message: 'm', code: 'E'});\n});\n";
        let c = checks(Lang::JavaScript, ava);
        let (x, y, z) = (c[0].clone().unwrap(), c[1].clone().unwrap(), c[2].clone().unwrap());
        assert_eq!(x.expected, y.expected);
        assert!(z.expected.contains("code"), "{z:?}");
        assert_eq!(
            top_level_items("a , f ( b , c ) , \" d , e \" ,"),
            ["a", "f ( b , c )", "\" d , e \""]
        );
    }
}
