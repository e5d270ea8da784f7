//! What a new check says about an old one beyond being the same: it
//! implies it (a length that leaves no room past the end), extends it (a
//! list grown at its end), narrows it (a pattern that finds less) or pins a
//! predicate as its oracle did.

use super::super::lattice::{Family, rank};
use super::{expected, is_literal, operands, subject, values};
use crate::lang::{Assertion, Form, TestCase};

/// The collection and the count a length check pins (`len(xs) == 1`,
/// `expect(xs.length).toBe(1)`, `toHaveLength(1)`, `assert.Len(t, xs, 1)`,
/// `assert_eq!(xs.len(), 1)`).
fn length_check(a: &Assertion) -> Option<(&str, u64)> {
    let count = |e: &str| e.parse::<u64>().ok();
    if matches!(
        a.matcher.rsplit('.').next(),
        Some("toHaveLength" | "Len" | "HasLen" | "lengthOf")
    ) {
        let [expected] = expected(a)[..] else { return None };
        return Some((subject(a)?, count(expected)?));
    }
    if !matches!(a.form, Form::Equal(..)) {
        return None;
    }
    let [x, y] = operands(a) else { return None };
    let (whole, n) = match (count(x), count(y)) {
        (None, Some(n)) => (x.as_str(), n),
        (Some(n), None) => (y.as_str(), n),
        _ => return None,
    };
    let of = whole
        .strip_prefix("len ( ")
        .and_then(|rest| rest.strip_suffix(" )"))
        .or_else(|| whole.strip_suffix(" . length"))
        .or_else(|| whole.strip_suffix(" . len ( )"))?;
    Some((of, n))
}

/// Does `a` check that the collection `of` holds nothing from index
/// `count` on, as a length check pins: `xs[1]` undefined, `None` or falsy,
/// `xs[1:]` empty or falsy? Then a remaining `len(xs) == 1` implies it.
fn checks_nothing_past(a: &Assertion, of: &str, count: u64) -> bool {
    let Some(index) = subject(a)
        .and_then(|about| about.strip_prefix(of))
        .and_then(|rest| rest.strip_prefix(" [ "))
    else {
        return false;
    };
    let Some(index) = index.strip_suffix(" : ]").or_else(|| index.strip_suffix(" ]")) else {
        return false;
    };
    let Ok(index) = index.parse::<u64>() else { return false };
    let empty = |e: &&str| matches!(*e, "None" | "undefined" | "null" | "nil" | "[ ]" | "( )" | "\"\"");
    let nothing = matches!(a.form, Form::Falsy(_))
        || a.matcher
            .rsplit('.')
            .next()
            .is_some_and(|m| matches!(m, "toBeUndefined" | "toBeNull" | "toBeFalsy" | "Nil" | "Empty"))
        || (matches!(a.form, Form::Equal(..)) && !expected(a).is_empty() && expected(a).iter().all(empty));
    nothing && index >= count
}

/// Is the deleted check `o` implied by a check left in `new`: an absence
/// past the end that a length check of the same collection pins, or one
/// function applied to both sides of an equality that `new` makes of the
/// sides themselves?
pub(super) fn implied(o: &Assertion, new: &[Assertion]) -> bool {
    new.iter()
        .filter_map(length_check)
        .any(|(of, count)| checks_nothing_past(o, of, count))
        || both_sides_of(o).is_some_and(|sides| {
            new.iter()
                .any(|n| matches!(n.form, Form::Equal(..)) && same_sides(operands(n), &sides))
        })
}

/// The sides of an equality that applies one function to both
/// (`sorted(glom(val, '*')) == sorted([1, 2])`): what it checks follows
/// from the sides being equal (glom ec19f8b: a Python 2 branch that
/// compared sorted lists went, and the exact comparison stayed).
fn both_sides_of(o: &Assertion) -> Option<[&str; 2]> {
    if !matches!(o.form, Form::Equal(..)) {
        return None;
    }
    let [left, right] = operands(o) else {
        return None;
    };
    // `f ( x )`: a function (dotted names) given one thing.
    let call = |side: &str| -> Option<(usize, usize)> {
        let (function, rest) = side.split_once(" ( ")?;
        let inner = rest.strip_suffix(" )")?;
        // The call's own parentheses: `f ( a ) + g ( b )` is no call of `f`.
        let mut depth = 0i32;
        for token in inner.split(' ') {
            depth += match token {
                "(" => 1,
                ")" => -1,
                _ => 0,
            };
            if depth < 0 {
                return None;
            }
        }
        let plain = !function.is_empty() && function.split(" . ").all(crate::lang::is_plain_name);
        plain.then_some((function.len(), side.len() - 2))
    };
    let ((f, f_end), (g, g_end)) = (call(left)?, call(right)?);
    (left[..f] == right[..g]).then(|| [&left[f + 3..f_end], &right[g + 3..g_end]])
}

/// Are `parts` the two `sides`, in either order?
fn same_sides(parts: &[String], sides: &[&str; 2]) -> bool {
    matches!(parts, [a, b] if (a == sides[0] && b == sides[1]) || (a == sides[1] && b == sides[0]))
}

/// Did an expected list only gain items, each item it had kept in its
/// order: `was` (an array literal's token key, or a string holding a JSON
/// array, `"[1,\"a\"]"`) is `now` with items left out? Checking more
/// entries of a result is not a changed expectation when the test gave the
/// call more inputs (the caller says): zerolog's `TestArray` chain gaining
/// `.Type(3.14)` and its expected output `,"float64"`. An item changed in
/// place, or one dropped, is; so are items put between the old ones that
/// repeat one of them, which read as well as an item changed.
pub fn extended(was: &str, now: &str) -> bool {
    let (Some(old), Some(new)) = (
        list_items(was).or_else(|| json_items(was)),
        list_items(now).or_else(|| json_items(now)),
    ) else {
        return false;
    };
    if old.is_empty() || new.len() <= old.len() {
        return false;
    }
    if new.starts_with(&old) {
        return true;
    }
    // Put between them: each old item found in its order, and none of
    // those gained one it had (`[1, 1]` -> `[1, 2, 1, 1]` may as well be
    // an item changed in place).
    let mut matched = vec![false; new.len()];
    let mut from = 0;
    for item in &old {
        let Some(at) = new[from..].iter().position(|n| n == item) else {
            return false;
        };
        matched[from + at] = true;
        from += at + 1;
    }
    new.iter().zip(matched).all(|(item, kept)| kept || !old.contains(item))
}

/// The items of an array literal's token key (`[ "a" , "b" ]`), split at
/// its own commas.
fn list_items(key: &str) -> Option<Vec<String>> {
    let inner = key.strip_prefix("[ ")?.strip_suffix(" ]")?;
    let mut items = Vec::new();
    let (mut depth, mut start, mut offset) = (0usize, 0, 0);
    for token in inner.split(' ') {
        match token {
            "(" | "[" | "{" => depth += 1,
            ")" | "]" | "}" => depth = depth.checked_sub(1)?,
            "," if depth == 0 => {
                items.push(inner[start..offset].trim().to_string());
                start = offset + 1;
            }
            _ => {}
        }
        offset += token.len() + 1;
    }
    let last = inner[start.min(inner.len())..].trim();
    if !last.is_empty() {
        items.push(last.to_string());
    }
    (depth == 0).then_some(items)
}

/// The items of a string literal's JSON array (`"[1,{\"a\":2}]"`,
/// `` `[true,"x"]` ``), split at its own commas, outside its strings.
fn json_items(key: &str) -> Option<Vec<String>> {
    let quote = key.chars().next().filter(|c| matches!(c, '"' | '\'' | '`'))?;
    let inner = key.strip_prefix(quote)?.strip_suffix(quote)?;
    let inner = if quote == '"' {
        inner.replace("\\\"", "\"")
    } else {
        inner.to_string()
    };
    let inner = inner.trim().strip_prefix('[')?.strip_suffix(']')?;
    let (mut items, mut item) = (Vec::new(), String::new());
    let (mut depth, mut in_string, mut escaped) = (0usize, false, false);
    for c in inner.chars() {
        match c {
            _ if escaped => escaped = false,
            '\\' if in_string => escaped = true,
            '"' => in_string = !in_string,
            '[' | '{' if !in_string => depth += 1,
            ']' | '}' if !in_string => depth = depth.checked_sub(1)?,
            ',' if !in_string && depth == 0 => {
                items.push(std::mem::take(&mut item).trim().to_string());
                continue;
            }
            _ => {}
        }
        item.push(c);
    }
    let last = item.trim();
    if !last.is_empty() {
        items.push(last.to_string());
    }
    (depth == 0 && !in_string).then_some(items)
}

/// Did an expected value only narrow an unanchored regular expression that
/// a searching matcher is given (`toThrow(/502 Bad Gateway/)` ->
/// `toThrow(/502 Bad Gateway: PUT/)`, `throwsAsync(.., {message: /../})`)?
/// Every text the new pattern finds, the old one found: a stronger check,
/// not a changed one. Text appended must not make the old pattern's last
/// part optional (`/ab/` -> `/ab?/`) and neither side may hold an
/// alternation; text put in front needs a pattern not anchored at its start.
pub fn narrowed(a: &Assertion, was: &str, now: &str) -> bool {
    let searching = a.matcher.rsplit('.').next().is_some_and(|m| {
        matches!(
            m,
            "toThrow" | "toThrowError" | "toMatch" | "throws" | "throwsAsync" | "rejects" | "match" | "regex"
        )
    });
    if !searching || now.len() <= was.len() {
        return false;
    }
    let mut prefix = was.bytes().zip(now.bytes()).take_while(|(a, b)| a == b).count();
    // Two characters may share their first bytes (`é`, `è`).
    while !was.is_char_boundary(prefix) {
        prefix -= 1;
    }
    let rest = &was[prefix..];
    if !now.ends_with(rest) {
        return false;
    }
    let added = &now[prefix..now.len() - rest.len()];
    if added.contains('|') {
        return false;
    }
    // The regex literal the text went into: `/ pattern /` after `(`, `,`,
    // `:`, `[`, `{` or at the start (not a division).
    let opens = |before: &str| {
        let before = before.trim_end();
        before.is_empty() || before.ends_with(['(', ',', ':', '[', '{'])
    };
    if let Some(open) = was[..prefix].rfind("/ ")
        && opens(&was[..open])
        && rest.starts_with(" /")
    {
        // Appended at the end of the pattern.
        let pattern = &was[open + 2..prefix];
        return !pattern.is_empty()
            && !pattern.contains('|')
            && !pattern.ends_with(['$', '\\'])
            && !added.starts_with(['*', '+', '?', '{']);
    }
    if was[..prefix].ends_with("/ ") && opens(&was[..prefix - 2]) {
        // Put in front of the pattern.
        let pattern = rest.split(" /").next().unwrap_or("");
        return !pattern.is_empty() && !pattern.contains('|') && !pattern.starts_with('^') && !added.ends_with('\\');
    }
    false
}

/// Was an exact check of a predicate against an oracle (another
/// expression, no literal: `f.is_subset(b) == (f & ~b).is_empty`) rewritten
/// as a truth check of the same predicate (`not f.is_subset(b)`)? A
/// predicate answers a boolean: the truth check pins it to one value,
/// exactly as the oracle did for that input (issue 64: packaging's
/// property test pinned to its known answer).
///
/// Or was a strict truth check of a boolean (`t.true(n >= 90)`,
/// `expect(x instanceof E).toBe(true)`, `t.false(hasRun)`) rewritten as
/// the plain truth check of the same value (`assert.ok(n >= 90)`)? A
/// comparison, a negation or a predicate is `true` or `false` itself
/// (issue 64: p-queue's suite moved from AVA to `node:test`).
pub(super) fn pinned_by_truth(old: &Assertion, new: &Assertion) -> bool {
    let oracle = matches!(old.form, Form::Equal(..))
        && matches!(new.form.demanded(), Form::Truthy(_) | Form::Falsy(_))
        && subject(old).is_some_and(predicate)
        && expected(old).iter().all(|e| !is_literal(e));
    let truth = demanded_truth;
    oracle
        || (truth(old).is_some()
            && truth(old) == truth(new)
            && subject(old) == subject(new)
            && subject(old).is_some_and(|s| boolean_valued(s) || predicate(s)))
}

/// Does `b` demand the truth `a` demands of the same value, as exactly:
/// a strict truth check and an equality with that boolean (`t.false(x)`
/// and `assert.strictEqual(x, false)`)? The same check written two ways
/// (issue 64: sindresorhus/is moved from AVA to `node:test`, and a test's
/// `t.true(f(e))` and `t.false(f(e))` became `assert.ok(f(e))` and
/// `assert.strictEqual(f(e), false)`: read apart, the second held the
/// first and the first "flipped" into the `assert.ok`).
pub(super) fn same_truth(family: Family, a: &Assertion, b: &Assertion) -> bool {
    let truth = |c: &Assertion| match (c.form.demanded(), expected(c).as_slice()) {
        (Form::Truthy(_), []) => Some(true),
        (Form::Falsy(_), []) => Some(false),
        (Form::Equal(..), ["true"]) => Some(true),
        (Form::Equal(..), ["false"]) => Some(false),
        _ => None,
    };
    truth(a).is_some()
        && truth(a) == truth(b)
        && subject(a).is_some()
        && subject(a) == subject(b)
        && rank(family, a) == Some(3)
        && rank(family, b) == Some(3)
}

/// Is the value of this token key a boolean by its form: a comparison,
/// `instanceof` or `in` outside every bracket, or a negation (`! x`,
/// `not x`)?
fn boolean_valued(key: &str) -> bool {
    if key.starts_with("! ") || key.starts_with("not ") {
        return true;
    }
    let mut depth = 0usize;
    for token in key.split(' ') {
        match token {
            "(" | "[" | "{" => depth += 1,
            ")" | "]" | "}" => depth = depth.saturating_sub(1),
            "<" | ">" | "<=" | ">=" | "==" | "!=" | "===" | "!==" | "instanceof" | "in" | "is" if depth == 0 => {
                return true;
            }
            _ => {}
        }
    }
    false
}

/// Does the key name a predicate, by the name of its last call or
/// attribute: `is_x`, `has_x`, `can_x`, `isX`, `hasX`, `contains`,
/// `startswith`, `exists`, ... (`f . is_subset ( b )`, `s . is_empty`)?
fn predicate(key: &str) -> bool {
    let head = key.strip_suffix(')').map_or(key, |k| {
        // The callee of a trailing call: what is before its `(`.
        let mut depth = 0usize;
        let mut cut = k.len();
        for (i, c) in k.char_indices().rev() {
            match c {
                ')' => depth += 1,
                '(' if depth == 0 => {
                    cut = i;
                    break;
                }
                '(' => depth -= 1,
                _ => {}
            }
        }
        &k[..cut]
    });
    let name = head
        .trim_end()
        .rsplit(|c: char| !(c.is_alphanumeric() || c == '_'))
        .next()
        .unwrap_or_default();
    let prefixed = ["is", "has", "can", "should"].iter().any(|p| {
        name.strip_prefix(p)
            .is_some_and(|rest| rest.starts_with('_') || rest.starts_with(|c: char| c.is_ascii_uppercase()))
    });
    prefixed
        || matches!(
            name,
            "contains" | "includes" | "startswith" | "endswith" | "starts_with" | "ends_with" | "exists" | "matches"
        )
}

/// Does `new` demand the opposite truth of the value `old` demanded
/// (`assert x` and `assert not x`, `toBeTruthy` and `toBeFalsy`, `True`
/// and `False`, `t.false(x)` and `assert.strictEqual(x, true)`): the
/// expected value flipped.
pub(crate) fn flipped(old: &Assertion, new: &Assertion) -> bool {
    // The value the truth is demanded of: a truthiness check's operand, an
    // equality's subject.
    let on = |a: &Assertion| match a.form.demanded() {
        Form::Truthy(v) | Form::Falsy(v) => Some(v.key.clone()),
        _ => subject(a).map(str::to_string),
    };
    matches!((demanded_truth(old), demanded_truth(new)), (Some(a), Some(b)) if a != b)
        && on(old).is_some()
        && on(old) == on(new)
}

/// The truth a check demands of its value: a truthiness check's, or an
/// equality's with a boolean (`t.true(x)`, `assert.strictEqual(x, false)`).
fn demanded_truth(a: &Assertion) -> Option<bool> {
    match (a.form.demanded(), expected(a).as_slice()) {
        (Form::Truthy(_), _) => Some(true),
        (Form::Falsy(_), _) => Some(false),
        (Form::Equal(..), ["true"]) => Some(true),
        (Form::Equal(..), ["false"]) => Some(false),
        _ => None,
    }
}

/// The truth a truthiness check demands, as an expected value to show
/// (`true`, `false`), when it is one.
pub fn truth(a: &Assertion) -> Option<&'static str> {
    match a.form.demanded() {
        Form::Truthy(_) => Some("true"),
        Form::Falsy(_) => Some("false"),
        _ => None,
    }
}

/// Was an equality with a boolean literal written as the truth check it
/// is, in a language where the value is typed `bool` (`assert_eq!(x,
/// true)` -> `assert!(x)`, `assert.Equal(t, false, ok)` -> `assert.False(t,
/// ok)`; issue 64: httparse's clippy `bool_assert_comparison` fix)? Not in
/// Python or JavaScript, where `1` is truthy too.
pub(super) fn bool_written_out(family: Family, old: &Assertion, new: &Assertion) -> bool {
    if !matches!(family, Family::Rust | Family::Go) || !matches!(old.form, Form::Equal(..)) {
        return false;
    }
    match (expected(old).as_slice(), new.form.demanded()) {
        (["true"], Form::Truthy(value)) | (["false"], Form::Falsy(value)) => subject(old) == Some(value.key.as_str()),
        _ => false,
    }
}

/// Was the lost check `a` of `old` a check of a name the pattern of a
/// `match` binds (`assert_eq!(namespace, b"x")` in the arm `Err(Error::Bind
/// { prefix, namespace }) =>` whose catch-all arm panics), made by `new`'s
/// exact check of the value matched (`assert_eq!(push(..),
/// Err(NamespaceError::Bind(b"x".to_vec())))`), which pins every field
/// (issue 64: quick-xml's namespace tests)?
pub fn pinned_with_its_pattern(family: Family, old: &TestCase, new: &TestCase, a: &Assertion) -> bool {
    let Some(name) = a.parts.first().filter(|p| crate::lang::is_plain_name(p)) else {
        return false;
    };
    old.assertions.iter().any(|m| {
        matches!((m.matcher.as_str(), &m.form, m.parts.as_slice()), ("matches", Form::Fail, [_, pattern]) if pattern.split(' ').any(|t| t == name))
            && new.assertions.iter().any(|b| {
                b.parts.first() == m.parts.first() && rank(family, b) == Some(3) && b.parts.len() >= 2
            })
    })
}

/// Does the exact check `new` of a value (`whole`) contradict what the
/// deleted check `old` demanded of a string predicate of it: `assert
/// name.startswith("<gen")` where `name == "gen.asend"` is checked now?
/// Pinning the value pins the predicate, to the opposite truth here: the
/// old check is not held (anyio 1603648b: the branch that checked the
/// prefix was dropped, and the other branch's value stayed).
pub(super) fn contradicted(old: &Assertion, whole: &str, new: &Assertion) -> bool {
    let Some(rest) = subject(old).and_then(|about| about.strip_prefix(whole)) else {
        return false;
    };
    let tokens: Vec<&str> = rest.split(' ').filter(|t| !t.is_empty()).collect();
    let [".", method, "(", argument @ .., ")"] = tokens.as_slice() else {
        return false;
    };
    let argument = argument.join(" ");
    let expected = expected(new);
    let ([value], Some(demanded)) = (expected.as_slice(), truth(old)) else {
        return false;
    };
    if !is_literal(value) || !is_literal(&argument) || !value.starts_with('"') || !argument.starts_with('"') {
        return false;
    }
    let (value, argument) = (values::spelled_value(value), values::spelled_value(&argument));
    let holds = match *method {
        "startswith" | "starts_with" | "startsWith" => value.starts_with(&argument),
        "endswith" | "ends_with" | "endsWith" => value.ends_with(&argument),
        "contains" | "includes" => value.contains(&argument),
        _ => return false,
    };
    holds != (demanded == "true")
}

/// Is the weaker-looking `new` (`assert not errors`) the old `old`
/// (`assert errors == []`) on a name the test binds to an empty list (`errors
/// = []`, then appended to; the new test's text is `lines`)? A list is
/// falsy exactly when it is empty (wcwidth a3cb502, a lint fix).
pub fn emptied_list(old: &Assertion, new: &Assertion, lines: &[&str]) -> bool {
    let (Some(subject), [_, empty]) = (subject(old), old.parts.as_slice()) else {
        return false;
    };
    if !(old.matcher == "=="
        && empty == "[ ]"
        && new.matcher == "not"
        && new.parts.first().map(String::as_str) == Some(subject)
        && crate::lang::is_plain_name(subject))
    {
        return false;
    }
    let binding = format!("{subject}=[]");
    lines.iter().any(|l| l.trim().replace(' ', "") == binding)
}
