//! A table-driven test's rows: its checks made case by case, and what a
//! row stands for when checks were written out one by one before.

use super::values::{self, ANY};
use super::{Change, Family, assertion_changes, check_key, expected, rank, same_check, subject};
use crate::lang::{Assertion, TestCase, is_plain_name};

/// The checks a parametrized test makes case by case, as (case, assertion)
/// indexes into [`TestCase::cases`] and [`TestCase::assertions`]: every
/// assertion in every case, or, the cases being the rows of several tables
/// ([`TestCase::case_loops`]), each table's rows by the assertions inside
/// its loop.
pub fn instances(t: &TestCase) -> Vec<(usize, usize)> {
    if t.case_loops.is_empty() {
        let checks = t.assertions.len();
        return (0..t.cases.len())
            .flat_map(|c| (0..checks).map(move |a| (c, a)))
            .collect();
    }
    let mut out = Vec::new();
    let mut first = 0;
    for table in &t.case_loops {
        let inside: Vec<usize> = (0..t.assertions.len())
            .filter(|&a| table.span.contains(t.assertions[a].span))
            .collect();
        for c in first..(first + table.rows).min(t.cases.len()) {
            out.extend(inside.iter().map(|&a| (c, a)));
        }
        first += table.rows;
    }
    out
}

/// Does every case of `t` make its check `a` (as written, a row's value
/// for its expected value) at least as strong as `old`? A partial matcher
/// given a string for each row (`toMatchObject(expected)`, every
/// `expected` a string) pins each row's value as `toBe` did (scule
/// 6bc17f5).
pub fn as_strong_in_every_case(family: Family, t: &TestCase, a: &Assertion, old: &Assertion) -> bool {
    let Some(at) = t.assertions.iter().position(|b| std::ptr::eq(b, a)) else {
        return false;
    };
    let was = rank(family, old);
    let made: Vec<Assertion> = instances(t)
        .into_iter()
        .filter(|&(_, i)| i == at)
        .map(|(c, i)| made(t, c, i))
        .collect();
    was.is_some() && !made.is_empty() && made.iter().all(|m| rank(family, m) >= was)
}

/// How many checks `t` makes when it runs: each case's, and, its cases
/// being several tables' rows, those outside every table's loop, made once.
fn checks_made(t: &TestCase) -> usize {
    let once = match t.case_loops.is_empty() {
        true => 0,
        false => t
            .assertions
            .iter()
            .filter(|a| !t.case_loops.iter().any(|l| l.span.contains(a.span)))
            .count(),
    };
    instances(t).len() + once
}

/// The assertions a parametrized test makes in each of its cases
/// ([`instances`]): each with the case's values written for its parameters.
pub fn case_assertions(t: &TestCase) -> Vec<Assertion> {
    instances(t).into_iter().map(|(c, a)| made(t, c, a)).collect()
}

/// The assertion `a` of `t` made in its case `c`.
fn made(t: &TestCase, c: usize, a: usize) -> Assertion {
    let mut a = t.assertions[a].clone();
    for part in &mut a.parts {
        *part = with_values(part, &t.cases[c]);
    }
    a
}

/// [`case_assertions`] as [`check_key`]s.
pub fn case_checks(t: &TestCase) -> impl Iterator<Item = String> {
    case_assertions(t).into_iter().map(|a| check_key(&a))
}

/// A check of one case of a parametrized test, told from the same check of
/// another case by the case's whole row (`("", [], 0)` and `("\x1b", [], 0)`
/// both check `spans == []`; only one existed at the base).
pub fn case_row_key(check: &str, case: &[(String, String)]) -> String {
    let mut key = format!("{check}\u{1f}row");
    for (name, value) in case {
        key.push('\u{1f}');
        key.push_str(name);
        key.push('=');
        key.push_str(value);
    }
    key
}

/// Every check of every case of `t`, as [`case_row_key`]s.
pub fn case_row_checks(t: &TestCase) -> impl Iterator<Item = String> {
    instances(t)
        .into_iter()
        .map(|(c, a)| case_row_key(&check_key(&made(t, c, a)), &t.cases[c]))
}

/// `key` with each token that names a parameter of `case` replaced by its
/// value (not an attribute or a path segment spelled the same: `url . query`
/// keeps `query`; not a word of a string or a regular expression, but in a
/// template's or f-string's interpolation). A parameter may be a field of a
/// table's row (`c . want`). A shorthand property (`{ path }`) is the
/// property with its value (`{ path : "/" }`).
pub(super) fn with_values(key: &str, case: &[(String, String)]) -> String {
    let tokens: Vec<&str> = key.split(' ').collect();
    // A regular expression is written whole.
    if tokens.first() == Some(&"/") && tokens.len() > 2 && tokens[1..].contains(&"/") {
        return key.to_string();
    }
    let mut out: Vec<String> = Vec::with_capacity(tokens.len());
    // Open brackets, each with whether it opens an object literal; and
    // whether a string is open, and if so whether it interpolates.
    let mut open: Vec<(&str, bool)> = Vec::new();
    // The open string: whether a backtick opened it, and whether it
    // interpolates (a template, an f-string).
    let mut string: Option<(bool, bool)> = None;
    let mut i = 0;
    while i < tokens.len() {
        let t = tokens[i];
        let in_text = string.is_some() && !open.last().is_some_and(|(b, _)| matches!(*b, "${" | "{f"));
        let closes = |(backtick, _): (bool, bool)| if backtick { t == "`" } else { values::is_delimiter(t) };
        if in_text && string.is_some_and(closes) {
            string = None;
            out.push(t.to_string());
            i += 1;
            continue;
        }
        if string.is_none() && (values::is_delimiter(t) || t == "`") {
            let formatted = t.len() > 1 && t.to_ascii_lowercase().contains('f');
            string = Some((t == "`", t == "`" || formatted));
            out.push(t.to_string());
            i += 1;
            continue;
        }
        if in_text {
            // `${` (or `{` in an f-string) opens an interpolation.
            match t {
                "${" if string.is_some_and(|(_, i)| i) => open.push(("${", false)),
                "{" if string.is_some_and(|(_, i)| i) => open.push(("{f", false)),
                _ => {}
            }
            out.push(t.to_string());
            i += 1;
            continue;
        }
        match t {
            "(" | "[" | "${" => open.push((t, false)),
            "{" => {
                let object = i == 0 || matches!(tokens[i - 1], "(" | "," | "[" | ":" | "=" | "return");
                open.push(("{", object));
            }
            ")" | "]" | "}" => {
                open.pop();
            }
            _ => {}
        }
        let after_access = i > 0 && matches!(tokens[i - 1], "." | "?." | "::");
        let found = case
            .iter()
            .filter(|_| !after_access)
            .find_map(|(name, value)| Some((names_at(&tokens, i, name)?, value)));
        match found {
            Some((len, value)) => {
                let shorthand = open.last().is_some_and(|(_, object)| *object)
                    && matches!(tokens[i - 1], "{" | ",")
                    && matches!(tokens.get(i + len), Some(&"}" | &","));
                if shorthand {
                    out.push(format!("{} :", tokens[i..i + len].join(" ")));
                }
                out.push(value.clone());
                i += len;
            }
            None => {
                out.push(t.to_string());
                i += 1;
            }
        }
    }
    unspread(&out.join(" "))
}

/// `key` with each array literal spread into a call written as its items:
/// `f ( ... [ a , b ] )` is `f ( a , b )`, `f ( ... [ ] )` is `f ( )`, as
/// a row's values are spread into the call it checks (ufo's
/// `joinURL(...t.input)` for the row `{ input: [] }` is `joinURL()`).
/// Python's `*` spreads a list or tuple the same way, and `**` a dict of
/// string keys, or `dict(..)` of keywords only, as keyword arguments
/// (`f(*(1, 2), **{"c": 3})` is `f(1, 2, c=3)`; toolz e8989cfa7; a row's
/// `dict(group=2)` spread into `number_to_words(input, **kwargs)`, inflect
/// dad40be).
pub(super) fn unspread(key: &str) -> String {
    let tokens: Vec<&str> = key.split(' ').collect();
    let mut out: Vec<&str> = Vec::with_capacity(tokens.len());
    let mut i = 0;
    while i < tokens.len() {
        let in_call = matches!(out.last(), Some(&"(") | Some(&","));
        // `**dict(c=3)` spreads the keywords it is called with.
        let called = tokens[i] == "**" && tokens.get(i + 1) == Some(&"dict") && tokens.get(i + 2) == Some(&"(");
        let spread = match (tokens[i], tokens.get(i + 1)) {
            ("...", Some(&"[")) | ("*", Some(&"[" | &"(")) => true,
            ("**", Some(&"{")) => false,
            _ if called => true,
            _ => {
                out.push(tokens[i]);
                i += 1;
                continue;
            }
        };
        let from = if called { i + 1 } else { i };
        if in_call && (!called || keywords_only(&tokens[i + 3..])) {
            // The matching `]`.
            let mut depth = 0usize;
            let close = (from + 1..tokens.len()).find(|&j| {
                match tokens[j] {
                    "[" | "(" | "{" => depth += 1,
                    "]" | ")" | "}" => depth -= 1,
                    _ => {}
                }
                depth == 0
            });
            if let Some(close) = close
                && matches!(tokens.get(close + 1), Some(&")") | Some(&","))
            {
                let items = &tokens[from + 2..close];
                let items = items.strip_suffix(&[","]).unwrap_or(items);
                // A dict spread as keywords: `"c" : 3` is `c = 3`.
                let keywords;
                let items = match spread {
                    true => items,
                    false => match keyword_arguments(items) {
                        Some(k) => {
                            keywords = k;
                            &keywords[..]
                        }
                        None => {
                            out.push(tokens[i]);
                            i += 1;
                            continue;
                        }
                    },
                };
                if items.is_empty() {
                    // Nothing spread: the comma before it goes too.
                    if out.last() == Some(&",") {
                        out.pop();
                    } else if tokens.get(close + 1) == Some(&",") {
                        i = close + 2;
                        continue;
                    }
                } else {
                    out.extend_from_slice(items);
                }
                i = close + 1;
                continue;
            }
        }
        out.push(tokens[i]);
        i += 1;
    }
    out.join(" ")
}

/// Do the arguments of a call, from the first after its `(` to its
/// `)`, name every one (`c = 3 , d = x )`)?
fn keywords_only(tokens: &[&str]) -> bool {
    let mut depth = 0usize;
    for (i, t) in tokens.iter().enumerate() {
        let starts_entry = depth == 0 && (i == 0 || tokens[i - 1] == ",");
        if starts_entry && *t != ")" && !(is_plain_name(t) && tokens.get(i + 1) == Some(&"=")) {
            return false;
        }
        match *t {
            "(" | "[" | "{" => depth += 1,
            ")" | "]" | "}" if depth == 0 => return true,
            ")" | "]" | "}" => depth -= 1,
            _ => {}
        }
    }
    false
}

/// The entries of a dict literal whose keys are all plain strings
/// (`" c " : 3 , " d " : x`) written as keyword arguments (`c = 3 , d =
/// x`), as `**{..}` passes them; `None` for any other dict.
fn keyword_arguments<'a>(items: &[&'a str]) -> Option<Vec<&'a str>> {
    let mut out = Vec::with_capacity(items.len());
    let mut depth = 0usize;
    let mut i = 0;
    while i < items.len() {
        let starts_entry = depth == 0 && (i == 0 || items[i - 1] == ",");
        if starts_entry && items.get(i + 1).is_some() {
            match items[i..] {
                [open, key, close, ":", ..] if values::is_delimiter(open) && open == close && is_plain_name(key) => {
                    out.extend([key, "="]);
                    i += 4;
                    continue;
                }
                _ => return None,
            }
        }
        match items[i] {
            "(" | "[" | "{" => depth += 1,
            ")" | "]" | "}" => depth = depth.saturating_sub(1),
            _ => {}
        }
        out.push(items[i]);
        i += 1;
    }
    Some(out)
}

/// Would a row of `t`'s table with values of its own make `old`: does a
/// check of `t`, its parameters put for the values `old` has in their
/// places, read as `old` (`expect(valid(name)).toBe(false)` for the lost
/// `expect(valid('a b')).toBe(false)`)?
pub fn row_of(t: &TestCase, old: &Assertion) -> bool {
    // Every table's names (several tables' rows may name other fields).
    let mut blank: Vec<(String, String)> = Vec::new();
    for (name, _) in t.cases.iter().flatten() {
        if !blank.iter().any(|(n, _)| n == name) {
            blank.push((name.clone(), ANY.to_string()));
        }
    }
    if blank.is_empty() {
        return false;
    }
    t.assertions.iter().any(|a| {
        // A message after the check's operands is the row's own.
        a.matcher == old.matcher
            && a.parts.len() >= old.parts.len()
            && a.parts.iter().zip(&old.parts).all(|(part, was)| {
                let part = with_values(part, &blank);
                values::fits(&spread_any(&part), &was.split(' ').collect::<Vec<_>>())
            })
    })
}

/// The tokens of `template` with each row value spread into a call (`* ANY`,
/// `** ANY`, `... ANY`), the comma before or after it too, as any
/// arguments ([`values::ANY_ARGUMENTS`]): the row's values say how many.
fn spread_any(template: &str) -> Vec<&str> {
    let tokens: Vec<&str> = template.split(' ').collect();
    let mut out: Vec<&str> = Vec::with_capacity(tokens.len());
    let mut i = 0;
    while i < tokens.len() {
        let in_call = matches!(out.last(), Some(&"(" | &",") | Some(&values::ANY_ARGUMENTS));
        if in_call && matches!(tokens[i], "*" | "**" | "...") && tokens.get(i + 1) == Some(&ANY) {
            if out.last() == Some(&",") {
                out.pop();
            }
            if out.last() != Some(&values::ANY_ARGUMENTS) {
                out.push(values::ANY_ARGUMENTS);
            }
            i += 2;
            if tokens.get(i) == Some(&",") {
                i += 1;
            }
            continue;
        }
        out.push(tokens[i]);
        i += 1;
    }
    out
}

/// The functions the rows of `t`'s table hold as values its checks run,
/// named, not called (`{ specificErr: toAnyErr(cast.ToUintE) }` holds
/// `ToUintE`), of four letters or more: a test of such a function through
/// a helper is made again by the table (issue 64: spf13/cast's test per
/// conversion became rows of one table of the conversion functions). Not
/// the words of a string, a literal's type, a key or what a member is read
/// from (rs/cors' rows of `http.Header{"Vary": {"Origin"}}` and `r.Header.Get(..)`).
pub fn row_functions(t: &TestCase) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for (_, value) in t.cases.iter().flatten() {
        let tokens: Vec<&str> = value.split(' ').collect();
        // The words of a string are text, not names (`"Vary": "Origin"`).
        let mut in_string = false;
        for (i, token) in tokens.iter().enumerate() {
            if token.ends_with('"') {
                in_string = !in_string;
                continue;
            }
            let named = !in_string && crate::lang::is_plain_name(token) && token.chars().count() >= 4;
            // Called there, a literal's type (`http.Header{..}`), a key
            // (`MaxAge: 10`) or what a member is read from (`r.Header.Get`):
            // not a function value.
            let used = matches!(tokens.get(i + 1), Some(&"(" | &"{" | &":" | &"."));
            if named && !used && !out.iter().any(|o| o == token) {
                out.push((*token).to_string());
            }
        }
    }
    out
}

/// How many tokens of `tokens` from `i` spell the parameter `name` (a name,
/// or a row's field `c . want`), if they do.
fn names_at(tokens: &[&str], i: usize, name: &str) -> Option<usize> {
    let len = name.split(' ').count();
    let end = i + len;
    let spelled = end <= tokens.len() && tokens[i..end].iter().copied().eq(name.split(' '));
    spelled.then_some(len)
}

/// Does the key `text` use the parameter `name` (see [`with_values`])?
pub fn mentions(text: &str, name: &str) -> bool {
    let tokens: Vec<&str> = text.split(' ').collect();
    (0..tokens.len()).any(|i| names_at(&tokens, i, name).is_some())
}

/// The changes of the checks of `old`, a test written out check by check,
/// in `new`, the same test made a table of cases. A check a case makes as
/// written (or with a matcher as strong, `toMatchObject('A')` for
/// `toBe('A')`) is kept (each case's checks make one); one that `new`'s checks
/// would make with other values ([`row_of`]) but no row does lost its row,
/// deleted unless the rows make it with values of their own
/// ([`made_by_rows`]); the others, rewritten in another shape, are compared
/// with `new`'s checks as written.
pub fn table_changes<'a>(family: Family, old: &'a TestCase, new: &'a TestCase) -> Vec<Change<'a>> {
    let mut made: Vec<Option<Assertion>> = case_assertions(new).into_iter().map(Some).collect();
    // The same check, or the same matcher on the same subject with the
    // same expected values and more (a message naming the row).
    let makes = |a: &Assertion, m: &Assertion| {
        let as_strong = a.matcher == m.matcher || rank(family, a).is_some() && rank(family, m) >= rank(family, a);
        same_check(a, m)
            || as_strong
                && subject(a).is_some()
                && subject(a) == subject(m)
                && expected(a).iter().all(|e| {
                    let rendered = |f: &&str| values::spelled_value(f) == values::spelled_value(e);
                    expected(m).contains(e) || values::is_literal(e) && expected(m).iter().any(rendered)
                })
    };
    let mut changes = Vec::new();
    let mut reshaped: Vec<usize> = Vec::new();
    for (i, a) in old.assertions.iter().enumerate() {
        match made.iter_mut().find(|m| m.as_ref().is_some_and(|m| makes(a, m))) {
            Some(m) => *m = None,
            None if row_of(new, a) => changes.push(Change::Deleted { old: a }),
            None => reshaped.push(i),
        }
    }
    if reshaped.is_empty() {
        return changes;
    }
    // The reshaped ones by where they are: `rest` lives only here.
    let rest: Vec<Assertion> = reshaped.iter().map(|&i| old.assertions[i].clone()).collect();
    let at = |all: &[Assertion], a: &Assertion| all.iter().position(|b| std::ptr::eq(a, b)).unwrap_or(0);
    let found: Vec<At> = assertion_changes(family, &rest, &new.assertions)
        .into_iter()
        .map(|change| match change {
            Change::ValueChanged { old, new: n } => At::Value(reshaped[at(&rest, old)], at(&new.assertions, n)),
            Change::Weakened { old, new: n } => At::Weaker(reshaped[at(&rest, old)], at(&new.assertions, n)),
            Change::Deleted { old } => At::Gone(reshaped[at(&rest, old)]),
        })
        .collect();
    let (was, now) = (&old.assertions, &new.assertions);
    changes.extend(found.into_iter().map(|change| match change {
        At::Value(o, n) => Change::ValueChanged {
            old: &was[o],
            new: &now[n],
        },
        At::Weaker(o, n) => Change::Weakened {
            old: &was[o],
            new: &now[n],
        },
        At::Gone(o) => Change::Deleted { old: &was[o] },
    }));
    changes
}

/// A [`Change`] by the positions of its old and new assertions.
enum At {
    Value(usize, usize),
    Weaker(usize, usize),
    Gone(usize),
}

/// Was the input of the lost check `a` of `old`, a test written out check
/// by check, replaced by another row of `new`, the same test made a table
/// of cases: would `new`'s checks make it with other values ([`row_of`]),
/// and has the table a row for each check of `old` they would make (an
/// input swapped for another, not dropped)?
pub fn input_replaced(old: &TestCase, new: &TestCase, a: &Assertion) -> bool {
    row_of(new, a) && new.cases.len() >= old.assertions.iter().filter(|b| row_of(new, b)).count()
}

/// Was the lost check `a` of `old`, a test written out check by check,
/// made again by `new`, the same test made a table of cases: with as many
/// checks made case by case as `old` made, calling the functions `a` asks
/// ([`callees`]), a check as strong as `a`, and its expected values and the
/// literals of its input among the values of one row (issue 64:
/// samber/lo's checks of `result1`, `result2` .. became one check of
/// `result` over a table's rows), or written in one check of the same
/// functions beside the table (a case of another type, its own subtest)?
/// A row dropped on the way leaves fewer checks or takes its values with it;
/// a table whose rows keep none of the old inputs was written anew, and its
/// checks of the same function over as many cases make the old ones.
pub fn made_by_rows(family: Family, old: &TestCase, new: &TestCase, a: &Assertion) -> bool {
    if !old.cases.is_empty() || new.cases.is_empty() || checks_made(new) < old.assertions.len() {
        return false;
    }
    let strong = |b: &Assertion| b.matcher == a.matcher || rank(family, a).is_some_and(|r| rank(family, b) >= Some(r));
    // What its subject asks: the expected side may be computed by helpers
    // the rows make needless (`filepath.Join(base, "s1")`), and so may the
    // subject's arguments (`Real(base, "/s1")` of `base := Join(..)`).
    let asked = |t: &TestCase, b: &Assertion| callees(t, subject(b).map(str::to_string).as_slice());
    let asks = asked(old, a);
    if !(asks.is_empty() || asks.iter().any(|c| new.calls.contains(c))) || !new.assertions.iter().any(strong) {
        return false;
    }
    // Its expected values, each a row's value; the literals its subject
    // writes, each one of a row's, but for those every check of the same
    // functions writes: the input the table's checks keep
    // (`Drop([]int{0, 1, 2, 3, 4}, n)`).
    let input = |b: &Assertion| -> Vec<String> { subject(b).map(values::literals).unwrap_or_default() };
    let all: Vec<Vec<String>> = old
        .assertions
        .iter()
        .filter(|b| asked(old, b) == asks)
        .map(input)
        .filter(|l| !l.is_empty())
        .collect();
    let common = |l: &String| all.len() > 1 && all.iter().all(|each| each.contains(l));
    // A table written anew, no row keeping any input the old checks gave
    // (temporary folders become literal paths; afero 9086596's
    // `TestRealPath`), keeps no input to look for.
    let row_values: Vec<String> = new
        .cases
        .iter()
        .flatten()
        .flat_map(|(_, v)| values::literals(v).into_iter().chain([values::spelled_value(v)]))
        .collect();
    let anew = !all.iter().flatten().any(|l| row_values.contains(l));
    let mut written: Vec<String> = match anew {
        true => Vec::new(),
        false => input(a).into_iter().filter(|l| !common(l)).collect(),
    };
    // An expected value that is one literal as it spells; one that
    // computes on literals (`[]string{"a", "b"}[index]`) as the literals.
    // No error (`err == nil`) is what each row's check says, not a value.
    for e in expected(a)
        .into_iter()
        .filter(|e| values::is_literal(e) && !matches!(*e, "nil" | "None" | "null" | "undefined"))
    {
        match values::one_value(&e.split(' ').collect::<Vec<_>>()) {
            true => written.push(values::spelled_value(e)),
            false => written.extend(values::literals(e)),
        }
    }
    let holds = |keys: &mut dyn Iterator<Item = &String>| {
        let all: Vec<String> = keys
            .flat_map(|v| values::literals(v).into_iter().chain([values::spelled_value(v)]))
            .collect();
        written.iter().all(|l| all.contains(l))
    };
    new.cases.iter().any(|case| holds(&mut case.iter().map(|(_, v)| v)))
        || new
            .assertions
            .iter()
            .any(|b| strong(b) && asks.iter().all(|c| callees(new, &b.parts).contains(c)) && holds(&mut b.parts.iter()))
}

/// The functions operands `parts` of a check of `t` ask: those they call,
/// and those that gave the locals they read (`str0` of `str0 :=
/// Substring(..)`), of the calls `t` makes (not `func (..)`).
fn callees(t: &TestCase, parts: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    for part in parts {
        let tokens: Vec<&str> = part.split(' ').collect();
        for (i, token) in tokens.iter().enumerate() {
            // `f(..)`, or a generic function given its types, `f[float32](..)`.
            let call = match tokens.get(i + 1) {
                Some(&"(") => true,
                Some(&"[") => tokens[i + 1..]
                    .iter()
                    .position(|t| *t == "]")
                    .is_some_and(|close| tokens.get(i + 2 + close) == Some(&"(")),
                _ => false,
            };
            // What a name bound to a call gave, or the function a name
            // bound to one without calling it calls (`numwords(..)` of
            // `numwords = p.number_to_words`).
            let callable = t.callables.iter().find(|(name, _)| call && name == token);
            let gave = t
                .aliases
                .iter()
                .find(|(name, _)| name == token)
                .or(callable)
                .map(|(_, value)| value.as_str());
            let callee = match gave {
                Some(call) => call.trim_end_matches("()").rsplit(['.', ':']).next(),
                // `int32(-126)` is a value, typed: what a table's typed column holds.
                None => call.then_some(*token).filter(|c| !values::is_conversion(c)),
            };
            let called = |c: &&str| {
                t.calls
                    .iter()
                    .any(|call| call == c || callable.is_some() && call == token)
            };
            if let Some(callee) = callee.filter(called) {
                out.push(callee.to_string());
            }
        }
    }
    out
}
