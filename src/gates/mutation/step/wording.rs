//! How a step's findings say what changed: the words and names an edit
//! touched, expectations shown short, the declarations and API a change uses.

use super::*;
pub(crate) use crate::lang::written;

/// The names `text` declares: after a declaring keyword (`def`, `class`,
/// `fn`, `func`, `function`, `interface`, `type`, `struct`, `enum`,
/// `trait`, `const`, `let`, `var`), or as a parameter or field in a list
/// (`(proxies: X = None`, `, prefixUrl?: string`, `{ retries = 2`), or as
/// a TypeScript member first on its line, optional or ended by `;`
/// (`onAfterResponse?: Hook`), or as an object's field its code sets (`this._helpFlags = ..`, `self.flags = ..`),
/// or as a variant of an `enum` ([`enum_variants`]).
pub(crate) fn declarations(text: &str) -> impl Iterator<Item = &str> {
    const KEYWORDS: &[&str] = &[
        "def",
        "class",
        "fn",
        "func",
        "function",
        "interface",
        "type",
        "struct",
        "enum",
        "trait",
        "const",
        "let",
        "var",
    ];
    let bytes = text.as_bytes();
    identifiers(text)
        .filter_map(move |(word, end)| {
            let start = end - word.len();
            let head = text[..start].trim_end();
            let keyword = head
                .rsplit(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .next()
                .is_some_and(|w| KEYWORDS.contains(&w));
            let listed = head.ends_with(['(', ',', '{']);
            let mut after = bytes[end..]
                .iter()
                .filter(|b| !b.is_ascii_whitespace())
                .skip_while(|b| **b == b'?');
            let (first, second) = (after.next(), after.next());
            let field = listed
                && matches!((first, second), (Some(b':' | b'='), next) if next != Some(&b'=') && next != Some(&b':'));
            // A TypeScript member of an interface or type, first on its line,
            // optional or ended by `;` (`onAfterResponse?: (..) => void`
            // after a member ended by `;`). Not a Rust field (`prefix: Vec<u8>,`):
            // a plain word a test may well use.
            let own_line = text[..start].rsplit('\n').next().is_some_and(|l| l.trim().is_empty());
            let optional = bytes.get(end) == Some(&b'?');
            let ended = text[end..].lines().next().is_some_and(|l| l.trim_end().ends_with(';'));
            let member_typed = own_line && first == Some(&b':') && second != Some(&b':') && (optional || ended);
            // An object's own field set in its code (`this._flags = ..`, `self.flags = ..`).
            let member =
                (head.ends_with("this.") || head.ends_with("self.")) && first == Some(&b'=') && second != Some(&b'=');
            (keyword || field || member || member_typed).then_some(word)
        })
        .chain(enum_variants(text))
}

/// The variants an `enum` block of `text` declares, one a line (Rust's
/// `InvalidPrefixBind { .. },`, TypeScript's `Red = 1,`): a capitalized name
/// first on a line right inside the block. A variant the code no longer
/// has is an API removed (issue 64: quick-xml's `Error::InvalidPrefixBind`).
fn enum_variants(text: &str) -> impl Iterator<Item = &str> {
    let mut depth = 0usize;
    // The depths inside the `enum` blocks open at this line.
    let mut inside: Vec<usize> = Vec::new();
    let mut variants = Vec::new();
    for line in text.lines() {
        let code = line.split("//").next().unwrap_or("").trim();
        if inside.last() == Some(&depth)
            && let Some(name) = identifiers(code).next().map(|(word, _)| word)
            && code.starts_with(name)
            && name.starts_with(|c: char| c.is_ascii_uppercase())
            && code[name.len()..]
                .trim_start()
                .chars()
                .next()
                .is_none_or(|c| "{(,=".contains(c))
        {
            variants.push(name);
        }
        let opens_enum = identifiers(code).any(|(word, _)| word == "enum") && code.ends_with('{');
        for c in code.chars() {
            match c {
                '{' => depth += 1,
                '}' => {
                    if inside.last() == Some(&depth) {
                        inside.pop();
                    }
                    depth = depth.saturating_sub(1);
                }
                _ => {}
            }
        }
        if opens_enum {
            inside.push(depth);
        }
    }
    variants.into_iter()
}

/// The identifiers of `text` (three characters or more), each with the
/// byte offset where it ends.
pub(crate) fn identifiers(text: &str) -> impl Iterator<Item = (&str, usize)> {
    let bytes = text.as_bytes();
    let mut at = 0;
    std::iter::from_fn(move || {
        while at < bytes.len() {
            let start = at;
            if bytes[at].is_ascii_alphabetic() || bytes[at] == b'_' {
                while at < bytes.len() && (bytes[at].is_ascii_alphanumeric() || bytes[at] == b'_') {
                    at += 1;
                }
                let after_digit = start > 0 && bytes[start - 1].is_ascii_digit();
                if at - start >= 3 && !after_digit {
                    return Some((&text[start..at], at));
                }
            } else {
                at += 1;
            }
        }
        None
    })
}

/// The names `text` uses as an API rather than as its own variables: an
/// attribute or method (`.proxies`), a keyword argument or field in a
/// list (`(proxies=`, `{ proxies:`; not `==` or `::`), a call (`proxies(`),
/// a path's segment (`source::as_map`), a generic type (`AsMap<T>`).
pub(crate) fn api_uses(text: &str) -> impl Iterator<Item = &str> {
    let bytes = text.as_bytes();
    identifiers(text).filter_map(move |(word, end)| {
        let start = end - word.len();
        let before = bytes[..start].iter().rev().find(|b| !b.is_ascii_whitespace());
        let mut after = bytes[end..].iter().filter(|b| !b.is_ascii_whitespace());
        let listed = matches!(before, Some(b'(' | b',' | b'{'));
        let path = bytes[..start].ends_with(b"::");
        let generic = bytes.get(end) == Some(&b'<') && word.starts_with(|c: char| c.is_ascii_uppercase());
        let used = match (after.next(), after.next()) {
            (Some(b'='), next) => listed && next != Some(&b'='),
            (Some(b':'), next) => listed && next != Some(&b':'),
            (Some(b'('), _) => true,
            _ => before == Some(&b'.') || path || generic,
        };
        used.then_some(word)
    })
}

/// The words (letters, digits, `_`; three or more) `after` has more of than
/// `before`, and fewer, each with how many more or fewer.
pub(crate) fn word_changes(before: &str, after: &str) -> (HashMap<String, usize>, HashMap<String, usize>) {
    changes_by(before, after, |text| {
        text.split(|c: char| !(c.is_alphanumeric() || c == '_'))
            .filter(|w| w.chars().count() >= 3)
            .map(str::to_string)
            .collect()
    })
}

/// The pieces `pieces` cuts from `after` that it has more of than from
/// `before`, and those it has fewer of, with how many.
pub(crate) fn changes_by(
    before: &str,
    after: &str,
    pieces: impl Fn(&str) -> Vec<String>,
) -> (HashMap<String, usize>, HashMap<String, usize>) {
    let count = |text: &str| {
        let mut counts: HashMap<String, usize> = HashMap::new();
        for piece in pieces(text) {
            *counts.entry(piece).or_default() += 1;
        }
        counts
    };
    // The pieces `a` has more of than `b`, with how many more.
    let surplus = |a: &HashMap<String, usize>, b: &HashMap<String, usize>| -> HashMap<String, usize> {
        a.iter()
            .filter_map(|(piece, &n)| {
                let m = b.get(piece).copied().unwrap_or(0);
                (n > m).then(|| (piece.clone(), n - m))
            })
            .collect()
    };
    let (was, now) = (count(before), count(after));
    (surplus(&now, &was), surplus(&was, &now))
}

/// Text without whitespace or quotes, for finding one spelling in another.
pub(crate) fn squash(text: &str) -> String {
    text.chars()
        .filter(|c| !c.is_whitespace() && !matches!(c, '"' | '\'' | '`'))
        .collect()
}

/// Text without whitespace, quotes kept ([`squash`] drops them too).
pub(crate) fn unspaced(text: &str) -> String {
    text.chars().filter(|c| !c.is_whitespace()).collect()
}

impl Emit<'_> {
    /// `path`'s version in the step did not parse cleanly where its tests are.
    pub(crate) fn unreadable(&mut self, path: &Path) {
        let what = format!("{} in {}", display_path(path), self.step.label);
        if !self.out.unreadable.contains(&what) {
            self.out.unreadable.push(what);
        }
    }

    pub(crate) fn push(
        &mut self,
        rule: &'static RuleMeta,
        message: String,
        at: Site<'_>,
        before: Option<Site<'_>>,
        notes: Vec<String>,
    ) {
        let path = display_path(at.path);
        let mut f = Finding::new(rule, message)
            .at(path, at.span.line, at.span.column)
            .until(at.span.end_line, at.span.end_column);
        // A changed expectation next to changed code is what an intended
        // change looks like too: only a person can tell.
        if rule.id == ASSERTION_VALUE_CHANGED.id {
            f.confirm = Some(CONFIRM_INTENDED);
        }
        f.snippet = at
            .version
            .map(|v| lines(self.versions.bytes(v), at.span))
            .unwrap_or_default();
        if let Some(before) = before {
            f.related.push(Location {
                path: display_path(before.path),
                line: Some(before.span.line),
                column: Some(before.span.column),
                message: Some("before the change".into()),
            });
        }
        f.notes.push(format!("in {}", self.step.label));
        f.notes.extend(notes);
        if let Some(ack) = self.step.acks.iter().find(|a| a.covers(rule)) {
            f.ceiling = Some(Severity::Note);
            f.notes.push(format!("acknowledged: {}", ack.reason));
            f.acknowledged = Some(crate::finding::Acknowledged {
                justification: ack.reason.clone(),
                accepted: ack.trusted,
            });
            match self.out.acknowledged.iter_mut().find(|(a, _)| a == ack) {
                Some((_, n)) => *n += 1,
                None => self.out.acknowledged.push((ack.clone(), 1)),
            }
        }
        self.out.findings.push(f);
    }
}

/// The source lines of `span` in `bytes`.
pub(crate) fn test_text(bytes: &[u8], span: Span) -> String {
    let text = String::from_utf8_lossy(bytes);
    let first = span.line.saturating_sub(1) as usize;
    let count = (span.end_line.max(span.line) as usize + 1).saturating_sub(span.line.max(1) as usize);
    text.lines().skip(first).take(count).collect::<Vec<_>>().join("\n")
}

/// [`squashed`], of a file's lines, each a [`statement`].
pub(crate) fn squashed_lines(lines: &[&str], span: Span) -> String {
    let first = (span.line.saturating_sub(1) as usize).min(lines.len());
    let end = (span.end_line.max(span.line) as usize).min(lines.len());
    lines[first..end.max(first)].iter().map(|l| statement(l)).collect()
}

/// A source line [`squash`]ed without what declares its variable (`let`,
/// `let mut`, `const`, `var`, Go's `:=`): a test's body merged into
/// another test assigns what it declared (issue 64: gjson's `TestIssue195`
/// became `testJSON = ..` in `TestVariousFuzz`).
pub(crate) fn statement(line: &str) -> String {
    let line = line.trim_start();
    let line = ["let mut ", "let ", "const ", "var "]
        .iter()
        .find_map(|k| line.strip_prefix(k))
        .unwrap_or(line);
    squash(&line.replacen(":=", "=", 1))
}

/// Source lines `span.line..=span.end_line` (at most five) of `bytes`.
pub(crate) fn lines(bytes: &[u8], span: Span) -> Vec<String> {
    crate::gates::snippet(&String::from_utf8_lossy(bytes), span.line, span.end_line)
}

/// The matcher and subject of each check `changes` deleted, to tell apart
/// the messages of several that read alike ([`lost_message`]).
pub(crate) fn lost_checks(changes: &[Change<'_>]) -> Vec<(String, String)> {
    changes
        .iter()
        .filter_map(|c| match c {
            Change::Deleted { old } => Some((old.matcher.clone(), on_subject(old))),
            _ => None,
        })
        .collect()
}

/// "test `t` lost the assertion `m` on `s`", with what it expected when
/// another lost check of the test reads the same (five `assert_eq!(*n,
/// ..)` deleted from one test are five findings a reader can tell apart).
pub(crate) fn lost_message(test: &str, old: &Assertion, lost: &[(String, String)]) -> String {
    let subject = on_subject(old);
    let alike = lost.iter().filter(|(m, s)| *m == old.matcher && *s == subject).count() > 1;
    let expected: Vec<String> = pair::expected(old).into_iter().map(show).collect();
    let expecting = match alike && !expected.is_empty() {
        true => format!(" (expecting `{}`)", expected.join("`, `")),
        false => String::new(),
    };
    format!("test `{test}` lost the assertion `{}`{subject}{expecting}", old.matcher)
}

/// "on" and the subject, for a message about an assertion that has one.
pub(crate) fn on_subject(a: &Assertion) -> String {
    match pair::subject(a) {
        Some(subject) if !subject.is_empty() => format!(" on `{}`", show(subject)),
        _ => String::new(),
    }
}

/// A token key as people write it: `total ( [ 1 ] )` -> `total([1])`,
/// `get ( " /a b " )` -> `get("/a b")` (inside a string, tokens keep the
/// spaces between them and none after the opening or before the closing
/// quote; keys write every delimiter `"`, after any prefix such as `f`).
pub(crate) fn show(key: &str) -> String {
    clip(&written(key), 0)
}

/// At most 80 characters of `text` from character `from` on, with `…` where
/// it was cut.
pub(crate) fn clip(text: &str, from: usize) -> String {
    let total = text.chars().count();
    let from = from.min(total.saturating_sub(79));
    let head = if from > 0 { "…" } else { "" };
    let body: String = text.chars().skip(from).take(80 - head.chars().count()).collect();
    if from + body.chars().count() < total {
        let body: String = body.chars().take(body.chars().count() - 1).collect();
        format!("{head}{body}…")
    } else {
        format!("{head}{body}")
    }
}

/// Two expected values as [`show`] writes them, each cut to show where they
/// first differ (a long header list that gained one entry at its end would
/// otherwise read the same before and after).
pub(crate) fn show_changed(was: &str, now: &str) -> (String, String) {
    let (was, now) = (written(was), written(now));
    let same = was.chars().zip(now.chars()).take_while(|(a, b)| a == b).count();
    // From a little before the first difference, when it lies past the cut.
    let from = if same >= 60 { same - 20 } else { 0 };
    (clip(&was, from), clip(&now, from))
}

#[cfg(test)]
mod tests {
    use super::declarations;

    #[test]
    fn an_enum_s_variants_are_declarations() {
        let rust = "/// An error.\n#[derive(Debug)]\npub enum Error {\n    /// A bad bind.\n    InvalidPrefixBind {\n        /// The prefix.\n        prefix: Vec<u8>,\n    },\n    Unknown(u8),\n    Other, // the rest\n}\n\nfn make() -> Error {\n    Error::Other\n}\n\nfn tail() -> Config {\n    Config {\n        size: 1,\n    }\n}\n";
        let found: Vec<&str> = declarations(rust).collect();
        for name in ["Error", "InvalidPrefixBind", "Unknown", "Other", "make", "tail"] {
            assert!(found.contains(&name), "{name}: {found:?}");
        }
        // A struct built at a block's start is no declaration, nor is a field.
        assert!(!found.contains(&"Config") && !found.contains(&"prefix"), "{found:?}");
        let ts = "export enum Color {\n  Red = 1,\n  Green,\n}\n";
        let found: Vec<&str> = declarations(ts).collect();
        assert!(found.contains(&"Red") && found.contains(&"Green"), "{found:?}");
    }

    #[test]
    fn typescript_members_optional_or_ended_by_a_semicolon_are_declarations() {
        // A TypeScript interface's members, optional or ended by `;`.
        let hooks = "export interface Hooks {\n  onRequest(): void;\n  onAfterResponse?: (\n    e: E,\n  ) => void;\n  timeout: number;\n  plain: number\n}\n";
        let found: Vec<&str> = declarations(hooks).collect();
        for name in ["Hooks", "onAfterResponse", "timeout"] {
            assert!(found.contains(&name), "{name}: {found:?}");
        }
        assert!(!found.contains(&"plain"), "{found:?}");
    }
}
