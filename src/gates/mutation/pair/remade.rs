//! The keys a check can be made again by, in another test or file: what
//! it pins down, in forms that survive a move.

use super::*;

/// A check as what it pins down, in forms that survive a move to another
/// file: an exact equality (`==`, `is`, `assertEqual`, `toBe`, ...) as its
/// two operands whatever the matcher (`self.assertEqual(str(tz), name)` is
/// `assert str(tz) == name`), and as the last call of its subject, the
/// receiver left out, with its literal expected values
/// (`v.validate_json('null') is None` is
/// `TypeAdapter(None).validate_json('null') == None`): a moved test often
/// asks a new fixture or wrapper for the same answer. The second only when
/// the call is given a literal and every expected value is one:
/// `x.count() == 0` says too little to be told from another test's.
///
/// And what was raised or warned (`excinfo.value`, or the `exception` a
/// CLI runner's `result` caught): `"text" in str(..)` as the message
/// searched for, and `isinstance(.., E)` as its type, as
/// `pytest.raises(E, match=..)` and `pytest.warns(E, match=..)` check them
/// ([`made_keys`]).
pub fn remade_keys(family: Family, a: &Assertion) -> Vec<String> {
    // The same check written for another framework, wherever it moved.
    let mut keys: Vec<String> = canonical(a)
        .map(|c| c.key())
        .into_iter()
        .chain(thrown_checked(a).map(|t| t.key()))
        .collect();
    let raised = |key: &str| key == "excinfo . value" || key.strip_suffix(" . exception").is_some_and(is_plain_name);
    if a.matcher == "in"
        && let [text, container] = a.parts.as_slice()
        && container
            .strip_prefix("str ( ")
            .and_then(|c| c.strip_suffix(" )"))
            .is_some_and(raised)
        && text.starts_with('"')
    {
        keys.push(format!("~\u{1f}{}", spelled_value(text)));
    }
    // `str(excinfo.value) == expected`: the message, as `match=expected`
    // checks it (humanize 0e02705: the check folded into `pytest.raises`).
    if matches!(a.form, Form::Equal(..))
        && let [left, right] = a.parts.as_slice()
        && let Some(expected) = [(left, right), (right, left)]
            .into_iter()
            .find_map(|(message, expected)| {
                let raised_message = message
                    .strip_prefix("str ( ")
                    .and_then(|c| c.strip_suffix(" )"))
                    .is_some_and(raised);
                raised_message.then_some(expected)
            })
    {
        keys.push(format!("~\u{1f}{}", message_key(expected)));
    }
    if a.matcher == "isinstance"
        && let [value, class] = a.parts.as_slice()
        && raised(value)
    {
        keys.push(format!("!\u{1f}{class}"));
    }
    if !matches!(a.form, Form::Equal(..)) || rank(family, a) != Some(3) {
        return keys;
    }
    let mut both: Vec<&str> = operands(a).iter().map(String::as_str).collect();
    both.sort_unstable();
    keys.push(format!("=\u{1f}{}", both.join("\u{1f}")));
    let expected = expected(a);
    if let Some(call) = subject(a).and_then(last_call)
        && !expected.is_empty()
        && expected.iter().all(|e| is_literal(e))
    {
        let mut key = format!("({call}");
        for e in expected {
            key.push('\u{1f}');
            key.push_str(&spelled_value(e));
        }
        keys.push(key);
    }
    keys
}

/// [`remade_keys`], and for `pytest.raises(E, match=pattern)` the text a
/// pattern without regular-expression operators searches for: a check that
/// makes again what those keys name.
pub fn made_keys(family: Family, a: &Assertion) -> Vec<String> {
    let mut keys = remade_keys(family, a);
    keys.extend(thrown_made(a).iter().map(|t| t.key()));
    if !matches!(a.matcher.as_str(), "raises" | "warns") {
        return keys;
    }
    let classes = a.parts.iter().take_while(|p| !p.contains(" = "));
    keys.extend(classes.map(|class| format!("!\u{1f}{class}")));
    // A message handed after the class: `pytest.raises` takes a callable
    // there, never a string, so a project's own `raises(E, "msg")` helper
    // checks the message (issue 64: voluptuous folded its try/except checks
    // of `str(e)` into its own `raises`).
    keys.extend(
        a.parts
            .iter()
            .skip(1)
            .take_while(|p| !p.contains(" = "))
            .filter(|p| p.starts_with('"'))
            .map(|text| format!("~\u{1f}{}", spelled_value(text))),
    );
    if let Some(pattern) = a.parts.iter().find_map(|p| p.strip_prefix("match = ")) {
        if pattern.starts_with(['"', 'r'])
            && let Some(text) = plain_pattern(&spelled_value(pattern))
        {
            keys.push(format!("~\u{1f}{text}"));
        } else if !is_literal(pattern) {
            // A name holds the message (`match=self.expected_msg`).
            keys.push(format!("~\u{1f}{}", message_key(pattern)));
        }
    }
    keys
}

/// A message a check expects, as a key: a literal's text, or the name or
/// expression that holds it.
fn message_key(expected: &str) -> String {
    if is_literal(expected) {
        spelled_value(expected)
    } else {
        format!("\u{1e}{expected}")
    }
}

/// A regular expression's text when it matches only itself: escapes
/// (`\[`) undone, `None` when an operator is left (`.` matches itself too).
pub(super) fn plain_pattern(pattern: &str) -> Option<String> {
    let mut out = String::with_capacity(pattern.len());
    let mut chars = pattern.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some(next) if !next.is_alphanumeric() => out.push(next),
                _ => return None,
            },
            '*' | '+' | '?' | '{' | '}' | '[' | ']' | '|' | '(' | ')' | '^' | '$' => return None,
            _ => out.push(c),
        }
    }
    Some(out)
}
