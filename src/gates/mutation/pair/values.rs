//! Expected values as values: which token keys are literals, what a
//! literal spells, and when an expectation changed from one value to another.

/// Does a token key spell a literal: a number, a string, a collection
/// display, a template, or a constant?
pub fn is_literal(key: &str) -> bool {
    let first = key.chars().next().unwrap_or(' ');
    first.is_ascii_digit()
        || matches!(first, '"' | '`' | '[' | '{')
        || (first == '-' && key[1..].trim_start().starts_with(|c: char| c.is_ascii_digit()))
        || matches!(key, "True" | "False" | "None" | "true" | "false" | "null" | "undefined")
        // `b"x"`, `f"x"`: a prefixed Python string.
        || key.split_once('"').is_some_and(|(prefix, _)| !prefix.is_empty() && prefix.chars().all(|c| c.is_ascii_alphabetic()))
}

/// Is `name` a conversion to a built-in scalar type: Go's `int32(..)`,
/// Python's `str(..)`, JavaScript's `Number(..)`?
pub(super) fn is_conversion(name: &str) -> bool {
    matches!(
        name,
        "int"
            | "int8"
            | "int16"
            | "int32"
            | "int64"
            | "uint"
            | "uint8"
            | "uint16"
            | "uint32"
            | "uint64"
            | "uintptr"
            | "float32"
            | "float64"
            | "complex64"
            | "complex128"
            | "byte"
            | "rune"
            | "string"
            | "float"
            | "str"
            | "bytes"
            | "bool"
            | "complex"
            | "Number"
            | "String"
            | "Boolean"
            | "BigInt"
    )
}

/// Is `token` a string delimiter (`"`, `f"`, `rb"`)?
pub(super) fn is_delimiter(token: &str) -> bool {
    token
        .strip_suffix('"')
        .is_some_and(|prefix| prefix.chars().all(|c| c.is_ascii_alphabetic()))
}

/// What an expectation spells, for telling a rewrite from a new value: the
/// tokens without string delimiters and whitespace, so implicitly
/// concatenated strings (or strings joined with `+`) equal the joined
/// string, a template's literal interpolations are their text, and a `"..{x}..".format(x=y)`
/// call equals the f-string `f"..{y}.."` a pyupgrade-style rewrite made of it
/// (fields and interpolations are placeholders).
/// Whitespace-only changes inside a string, and changes inside an
/// interpolation, read as the same value.
pub fn spelled_value(key: &str) -> String {
    // A literal put in a template is its text (`${"a"}=b` spells `a=b`).
    let key = inlined(key);
    let key = unicode_flags_dropped(&key);
    let key = elided_types(&key);
    let key = owned_string(&key);
    // `String.raw` spells its template's text as written: `` String.raw`a\.b` ``
    // is the string `'a\\.b'` (issue 64: dot-prop 9710d14, a lint's rewrite).
    let key = key.replace("String . raw `", "`");
    let tokens: Vec<&str> = key.split(' ').collect();
    // `<string> . format ( args )`: only the template counts.
    let call = tokens
        .windows(3)
        .position(|w| w == [".", "format", "("])
        .filter(|&at| at > 0 && is_delimiter(tokens[at - 1]) && tokens.last() == Some(&")"));
    // The literal text only: delimiters, whitespace and the interpolations of
    // f-strings and template literals (`{x}`, `${x}`) dropped, so spelling an
    // interpolated value another way is not a new expectation.
    let squash = |tokens: &[&str]| -> String {
        let mut out = String::new();
        let mut in_string = false;
        // An f-string: `{` opens an interpolation (elsewhere it is text
        // that an escape sequence split from the rest).
        let mut formatted = false;
        let mut depth = 0usize;
        for (i, &t) in tokens.iter().enumerate() {
            // Strings joined with `+` spell the joined string.
            let joins = |t: &str| is_delimiter(t) || t == "`";
            if t == "+" && !in_string && i > 0 && joins(tokens[i - 1]) && tokens.get(i + 1).is_some_and(|n| joins(n)) {
                continue;
            }
            if depth > 0 {
                match t {
                    "{" | "${" => depth += 1,
                    "}" => depth -= 1,
                    _ => {}
                }
                continue;
            }
            if is_delimiter(t) || t == "`" {
                in_string = !in_string;
                formatted = in_string && t.len() > 1 && t.to_ascii_lowercase().contains('f');
                continue;
            }
            if in_string && (t == "${" || (t == "{" && formatted)) {
                depth = 1;
                continue;
            }
            // An escaped quote or backslash is the character itself: `"{\"a\":1}"`
            // spells what the raw string `` `{"a":1}` `` does.
            if in_string && matches!(t, "\\\"" | "\\'" | "\\\\" | "\\`") {
                out.push_str(&t[1..]);
                continue;
            }
            out.extend(t.chars().filter(|c| !c.is_whitespace()));
        }
        out
    };
    // `<string> % args` (Python's printf-style formatting): the template,
    // its conversions (`%s`, `%(name)r`, `%05.2f`) placeholders as an
    // f-string's interpolations are, `%%` the one `%` it spells.
    if tokens.first().is_some_and(|t| is_delimiter(t))
        && let Some(close) = tokens.iter().skip(1).position(|t| is_delimiter(t)).map(|i| i + 1)
        && tokens.get(close + 1) == Some(&"%")
        && close + 2 < tokens.len()
    {
        return without_conversions(&squash(&tokens[..=close]));
    }
    let Some(at) = call else {
        return squash(&tokens);
    };
    // Its fields are placeholders, as an f-string's interpolations are.
    let mut template = String::new();
    let mut depth = 0usize;
    for c in squash(&tokens[..at]).chars() {
        match c {
            '{' => depth += 1,
            '}' => depth = depth.saturating_sub(1),
            _ if depth == 0 => template.push(c),
            _ => {}
        }
    }
    template
}

/// A printf-style template's text without its conversions: `%s`,
/// `%(name)r`, `%-5d`, `%.2f` dropped, `%%` read as `%`.
fn without_conversions(template: &str) -> String {
    let mut out = String::with_capacity(template.len());
    let mut chars = template.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '%' {
            out.push(c);
            continue;
        }
        if chars.peek() == Some(&'%') {
            chars.next();
            out.push('%');
            continue;
        }
        if chars.peek() == Some(&'(') {
            for c in chars.by_ref() {
                if c == ')' {
                    break;
                }
            }
        }
        while chars
            .next_if(|c| "#0- +*.".contains(*c) || c.is_ascii_digit())
            .is_some()
        {}
        chars.next_if(|c| "hlL".contains(*c));
        chars.next_if(|c| "diouxXeEfFgGcrsab".contains(*c));
    }
    out
}

/// Did an expected literal (not an absence: `None`, `null`) become a plain
/// name (`{}` -> `expected_stats`)? What the name holds decides whether
/// the value changed: the caller reads the test's binding of it.
pub(super) fn literal_named(was: &[&str], now: &[&str]) -> bool {
    was.iter().zip(now).any(|(a, b)| {
        is_literal(a)
            && !matches!(*a, "None" | "null" | "nil" | "undefined")
            && crate::lang::is_plain_name(b)
            && !is_literal(b)
    })
}

/// Did an expected value change from one literal to another? A literal
/// that became a name or an expression (`3` -> `retries + 1`) is a
/// refactor this cannot evaluate, except absence: `x is None` that became
/// `x is response` (or back) now asks for a thing where it asked for
/// nothing, whatever the name holds.
pub(super) fn literal_changed(was: &[&str], now: &[&str]) -> bool {
    let absent = |k: &str| matches!(k, "None" | "null" | "nil" | "undefined");
    let named = |k: &str| {
        !is_literal(k)
            && k.split(' ')
                .all(|t| t == "." || t.chars().all(|c| c.is_alphanumeric() || c == '_'))
    };
    was.iter().zip(now).any(|(a, b)| {
        let (a, b): (&str, &str) = (&set_displays(a), &set_displays(b));
        a != b
            && !branches(a).contains(&b)
            && ((is_literal(a) && is_literal(b) && spelled_value(a) != spelled_value(b))
                || (absent(a) && named(b))
                || (named(a) && absent(b)))
    })
}

/// The values a conditional expression may take (`False if PY33 else
/// None`: `False` and `None`); none for any other value. An expected value
/// that became one of them dropped the other case, as a version check
/// that went with the version it checked (toolz 663d57a89).
fn branches(key: &str) -> Vec<&str> {
    key.split_once(" if ")
        .and_then(|(yes, rest)| Some((yes, rest.split_once(" else ")?.1)))
        .map(|(yes, no)| vec![yes, no])
        .unwrap_or_default()
}

/// `key` with each Python `set([..])` or `set((..))` written as the set
/// display it equals (`set ( [ 2 , 4 ] )` -> `{ 2 , 4 }`; toolz
/// 663d57a89, once Python 2 went).
fn set_displays(key: &str) -> std::borrow::Cow<'_, str> {
    if !key.contains("set ( ") {
        return std::borrow::Cow::Borrowed(key);
    }
    let tokens: Vec<&str> = key.split(' ').collect();
    let mut out: Vec<&str> = Vec::with_capacity(tokens.len());
    let mut i = 0;
    while i < tokens.len() {
        let opens = tokens[i] == "set"
            && tokens.get(i + 1) == Some(&"(")
            && matches!(tokens.get(i + 2), Some(&"[") | Some(&"("))
            && (i == 0 || tokens[i - 1] != ".");
        if opens {
            // The bracket's match, then the call's `)` right after it.
            let mut depth = 0usize;
            let close = tokens[i + 2..].iter().position(|t| {
                match *t {
                    "(" | "[" | "{" => depth += 1,
                    ")" | "]" | "}" => depth = depth.saturating_sub(1),
                    _ => {}
                }
                depth == 0
            });
            if let Some(at) = close.map(|c| c + i + 2)
                && tokens.get(at + 1) == Some(&")")
                && at > i + 3
            {
                out.push("{");
                out.extend(&tokens[i + 3..at]);
                out.push("}");
                i = at + 2;
                continue;
            }
        }
        out.push(tokens[i]);
        i += 1;
    }
    std::borrow::Cow::Owned(out.join(" "))
}

/// A name with a number after it (`result2`, `index10`), without it.
pub(super) fn numbered(word: &str) -> Option<&str> {
    let stem = word.trim_end_matches(|c: char| c.is_ascii_digit());
    (stem.len() < word.len() && crate::lang::is_plain_name(stem)).then_some(stem)
}

/// The token that stands for any one value in [`fits`].
pub(super) const ANY: &str = "\u{1}";

/// The token that stands for any arguments, none or several, in [`fits`]:
/// a value of a row spread into a call (`f(*args)`, `f(...input)`).
pub(super) const ANY_ARGUMENTS: &str = "\u{2}";

/// Do the tokens `template`, where [`ANY`] stands for one value, read as
/// `key`: each [`ANY`] one value of `key` (a literal, whole: a string's
/// delimiters and words, a bracketed display; or a name), the rest token
/// for token, a name numbered in `key` (`result2`) standing for the same
/// name without its number?
pub(super) fn fits(template: &[&str], key: &[&str]) -> bool {
    match template.split_first() {
        None => key.is_empty(),
        Some((&ANY, rest)) => (1..=key.len()).any(|n| one_value(&key[..n]) && fits(rest, &key[n..])),
        Some((&ANY_ARGUMENTS, rest)) => (0..=key.len()).any(|n| balanced(&key[..n]) && fits(rest, &key[n..])),
        // A local numbered after its kind (`result2`) is the template's (`result`).
        Some((first, rest)) => {
            let same = |k: &&str| k == first || numbered(k) == Some(*first);
            key.first().is_some_and(same) && fits(rest, &key[1..])
        }
    }
}

/// Are `tokens` one value: a string from its delimiter to its end, a
/// bracketed display, a (negated) number or a name?
pub(super) fn one_value(tokens: &[&str]) -> bool {
    match tokens {
        [one] => !matches!(*one, "," | "(" | ")" | "[" | "]" | "{" | "}" | "." | "=" | ":"),
        ["-", number] => number.starts_with(|c: char| c.is_ascii_digit()),
        [open, inside @ .., close] if is_delimiter(open) || *open == "`" => {
            matches!(*close, "\"" | "`") && !inside.iter().any(|t| is_delimiter(t) || *t == "`")
        }
        [open, .., close] if matches!((*open, *close), ("[", "]") | ("{", "}") | ("(", ")")) => {
            balanced(&tokens[1..tokens.len() - 1])
        }
        // A typed display (`[ ] int { 2 }`, `Row { n : 1 }`): a name or
        // brackets before the braces of its items.
        [.., "}"] => {
            let open = tokens.iter().position(|t| *t == "{").unwrap_or(0);
            open > 0
                && tokens[..open]
                    .iter()
                    .all(|t| matches!(*t, "[" | "]" | "." | "*") || crate::lang::is_plain_name(t))
                && balanced(&tokens[..open])
                && balanced(&tokens[open + 1..tokens.len() - 1])
        }
        _ => false,
    }
}

/// Do the brackets of `tokens` close in order?
fn balanced(tokens: &[&str]) -> bool {
    let mut depth = 0i32;
    for t in tokens {
        match *t {
            "(" | "[" | "{" => depth += 1,
            ")" | "]" | "}" => depth -= 1,
            _ => {}
        }
        if depth < 0 {
            return false;
        }
    }
    depth == 0
}

/// The literals a token key writes, each as [`spelled_value`] spells it:
/// its strings and numbers (`f ( " 10.00 " , - 2 )` writes `10.00` and
/// `-2`), in order.
pub fn literals(key: &str) -> Vec<String> {
    let tokens: Vec<&str> = key.split(' ').collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < tokens.len() {
        let t = tokens[i];
        if is_delimiter(t) || t == "`" {
            let close = tokens[i + 1..]
                .iter()
                .position(|u| *u == "\"" || *u == "`")
                .map_or(tokens.len(), |p| i + 1 + p);
            out.push(spelled_value(&tokens[i..(close + 1).min(tokens.len())].join(" ")));
            i = close + 1;
            continue;
        }
        let negative = t == "-"
            && tokens
                .get(i + 1)
                .is_some_and(|n| n.starts_with(|c: char| c.is_ascii_digit()));
        if negative {
            out.push(format!("-{}", tokens[i + 1]));
            i += 2;
            continue;
        }
        if t.starts_with(|c: char| c.is_ascii_digit()) {
            out.push(t.to_string());
        }
        i += 1;
    }
    out
}

/// `key`, a template or f-string, with each interpolation of one literal
/// written as its text (`` `Domain=${"a.com"}` `` is `` `Domain=a.com` ``):
/// a row's value put in a template says what the string is.
/// Any other key is itself, not copied: [`spelled_value`] asks this of
/// every expectation it spells.
fn inlined(key: &str) -> std::borrow::Cow<'_, str> {
    let first = key.split(' ').next().unwrap_or_default();
    let template = first == "`" || is_delimiter(first) && first.to_ascii_lowercase().contains('f');
    if !template {
        return std::borrow::Cow::Borrowed(key);
    }
    let tokens: Vec<&str> = key.split(' ').collect();
    let mut out: Vec<&str> = Vec::with_capacity(tokens.len());
    let mut i = 0;
    while i < tokens.len() {
        if matches!(tokens[i], "${" | "{") {
            let close = tokens[i + 1..].iter().position(|t| *t == "}").map(|p| i + 1 + p);
            if let Some(close) = close {
                let inner = &tokens[i + 1..close];
                let literal = match inner {
                    [open, text @ .., end] if is_delimiter(open) && is_delimiter(end) => Some(text),
                    [number] if number.starts_with(|c: char| c.is_ascii_digit()) => Some(inner),
                    _ => None,
                };
                if let Some(text) = literal {
                    out.extend_from_slice(text);
                    i = close + 1;
                    continue;
                }
            }
        }
        out.push(tokens[i]);
        i += 1;
    }
    std::borrow::Cow::Owned(out.join(" "))
}

/// A Rust string literal made an owned `String` is the same text: `"ab"
/// . to_string ( )`, `. to_owned ( )`, `. into ( )` and `String :: from (
/// "ab" )` spell `"ab"` (a `String` compares equal to a `&str`; issue 64:
/// rust-hex b34fa89 dropped the `.to_string()` of its expected values).
fn owned_string(key: &str) -> &str {
    let literal = |inner: &str| {
        let tokens: Vec<&str> = inner.split(' ').collect();
        tokens.len() >= 2
            && is_delimiter(tokens[0])
            && tokens.last().is_some_and(|t| *t == "\"")
            && tokens[1..tokens.len() - 1].iter().all(|t| !is_delimiter(t))
    };
    for suffix in [" . to_string ( )", " . to_owned ( )", " . into ( )"] {
        if let Some(inner) = key.strip_suffix(suffix)
            && literal(inner)
        {
            return inner;
        }
    }
    match key.strip_prefix("String :: from ( ").and_then(|k| k.strip_suffix(" )")) {
        Some(inner) if literal(inner) => inner,
        _ => key,
    }
}

/// `key` with the type of each element of a composite literal left out
/// where Go lets it be (`gofmt -s`): `[]T{T{..}}` is `[]T{{..}}`, and
/// `[]*T{&T{..}}` is `[]*T{{..}}`. An element's type is a name (perhaps
/// qualified) and its `{` right after the `{` or `,` of the braces around
/// it, where no other language writes a name.
fn elided_types(key: &str) -> std::borrow::Cow<'_, str> {
    if !key.contains(" { ") {
        return std::borrow::Cow::Borrowed(key);
    }
    let tokens: Vec<&str> = key.split(' ').collect();
    let name = |t: &str| crate::lang::is_plain_name(t);
    let mut out: Vec<&str> = Vec::with_capacity(tokens.len());
    // The open brackets.
    let mut open: Vec<&str> = Vec::new();
    let mut changed = false;
    let mut i = 0;
    while i < tokens.len() {
        let element = matches!(out.last(), Some(&"{") | Some(&",")) && open.last() == Some(&"{");
        if element {
            // `&`? then `name ( . name )*` then `{`.
            let mut j = i + usize::from(tokens[i] == "&");
            let start = j;
            while tokens.get(j).is_some_and(|t| name(t)) {
                j += 1;
                if tokens.get(j) == Some(&".") && tokens.get(j + 1).is_some_and(|t| name(t)) {
                    j += 1;
                } else {
                    break;
                }
            }
            if j > start && tokens.get(j) == Some(&"{") {
                changed = true;
                i = j;
                continue;
            }
        }
        match tokens[i] {
            t @ ("(" | "[" | "{") => open.push(t),
            ")" | "]" | "}" => {
                open.pop();
            }
            _ => {}
        }
        out.push(tokens[i]);
        i += 1;
    }
    match changed {
        true => std::borrow::Cow::Owned(out.join(" ")),
        false => std::borrow::Cow::Borrowed(key),
    }
}

/// A JavaScript regular expression's flags that change nothing a check of a
/// match asks, dropped: `u` and `v` (Unicode mode, which linters ask for)
/// and `d` (indices): `/^Parse Error/v` checks what `/^Parse Error/` did.
/// The flags are the token after a regex's closing `/` (its opening `/`
/// starts a value: after `:`, `,`, `(`, `[`, `=` or at the start), before
/// the end of the value.
fn unicode_flags_dropped(key: &str) -> std::borrow::Cow<'_, str> {
    // Most values hold no regex with such a flag: nothing to rewrite.
    let flagged = key.match_indices(" / ").any(|(at, _)| {
        let next = key[at + 3..].split(' ').next().unwrap_or_default();
        !next.is_empty() && next.chars().all(|c| "dgimsuvy".contains(c)) && next.contains(['u', 'v', 'd'])
    });
    if !flagged {
        return std::borrow::Cow::Borrowed(key);
    }
    let tokens: Vec<&str> = key.split(' ').collect();
    let starts_value = |i: usize| i == 0 || matches!(tokens[i - 1], ":" | "," | "(" | "[" | "=" | "{");
    let mut out: Vec<String> = Vec::with_capacity(tokens.len());
    let mut changed = false;
    let mut open = None;
    for (i, &token) in tokens.iter().enumerate() {
        if token == "/" {
            match open {
                None if starts_value(i) => open = Some(i),
                Some(_) => open = None,
                None => {}
            }
            out.push(token.to_string());
            continue;
        }
        let flags = i > 0
            && tokens[i - 1] == "/"
            && open.is_none()
            && token.chars().all(|c| "dgimsuvy".contains(c))
            && tokens
                .get(i + 1)
                .is_none_or(|next| matches!(*next, "," | "}" | ")" | "]" | ";"));
        if flags && token.contains(['u', 'v', 'd']) {
            changed = true;
            let kept: String = token.chars().filter(|c| !"uvd".contains(*c)).collect();
            if !kept.is_empty() {
                out.push(kept);
            }
            continue;
        }
        out.push(token.to_string());
    }
    match changed {
        true => std::borrow::Cow::Owned(out.join(" ")),
        false => std::borrow::Cow::Borrowed(key),
    }
}

/// Did an expected object (`{ a : 1 }`, a dict, not a struct literal whose
/// left-out fields are zero) only gain entries, each entry it had kept as it
/// was: a field the code's output now also has, the old expectation whole?
pub fn gained_fields(was: &str, now: &str) -> bool {
    // Its entries, split at the commas outside brackets.
    fn entries(key: &str) -> Option<Vec<String>> {
        let inner = key.strip_prefix("{ ")?.strip_suffix(" }")?;
        let (mut out, mut entry, mut depth) = (Vec::new(), Vec::new(), 0i32);
        for token in inner.split(' ') {
            match token {
                "(" | "[" | "{" => depth += 1,
                ")" | "]" | "}" => depth -= 1,
                "," if depth == 0 => {
                    out.push(std::mem::take(&mut entry).join(" "));
                    continue;
                }
                _ => {}
            }
            entry.push(token);
        }
        out.push(entry.join(" "));
        Some(out)
    }
    match (entries(was), entries(now)) {
        (Some(old), Some(new)) => new.len() > old.len() && old.iter().all(|e| new.contains(e)),
        _ => false,
    }
}
