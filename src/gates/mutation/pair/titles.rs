//! Test titles as words: a test regrouped under a `describe` says what it
//! said, placeholders aside.

use crate::lang::TestCase;

/// How many words `new`'s group titles and name say beyond `had` (an old
/// test's [`title_words`]), when they say all of it and the rest is said
/// by its groups, or is one word of its own name.
pub(super) fn regrouped(had: &[String], new: &TestCase) -> Option<usize> {
    let mut more = title_words(&new.scope, &new.name);
    for w in had {
        let at = more.iter().position(|m| m == w)?;
        more.remove(at);
    }
    let mut groups = title_words(&new.scope, "");
    let mut own = 0;
    for w in &more {
        match groups.iter().position(|g| g == w) {
            Some(at) => {
                groups.remove(at);
            }
            None => own += 1,
        }
    }
    (own <= 1).then_some(more.len())
}

/// The words of a test's group titles and name together (split at spaces),
/// lowercased, without the placeholders a parametrized title fills in
/// (`%s`, `%d`, `$name`, `${expr}`, `{x}`) and the `>` between groups.
pub(super) fn title_words(scope: &str, name: &str) -> Vec<String> {
    let mut title = String::new();
    let mut depth = 0usize;
    let full = format!("{scope} {name}");
    let mut chars = full.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '{' => depth += 1,
            '}' => depth = depth.saturating_sub(1),
            // `%s`, `%#`, `$name`: the placeholder and its letter go.
            '%' | '$' if depth == 0 => {
                while chars
                    .peek()
                    .is_some_and(|n| n.is_alphanumeric() || *n == '#' || *n == '_')
                {
                    chars.next();
                }
                title.push(' ');
            }
            _ if depth == 0 => title.push(c),
            _ => {}
        }
    }
    // Words as written (`"<arg>"` is not `"arg"`), but for the quotes of
    // a template literal and punctuation that ends a phrase.
    title
        .split_whitespace()
        .filter(|w| *w != ">")
        .map(|w| w.trim_matches(['`', ',', ':', ';']))
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// The words of an identifier or title, however it is spelled: split at
/// anything but letters and digits and where a lowercase letter or digit
/// meets an uppercase one (`testImportRoot`, `test_import_root`,
/// `ImportTest`), lowercased, without `test` and `tests` (the marks a
/// framework needs, not what the test says), each once.
pub(super) fn spelled_words(name: &str) -> Vec<String> {
    let mut words: Vec<String> = Vec::new();
    let mut word = String::new();
    let mut last_lower = false;
    let mut flush = |word: &mut String| {
        let w = std::mem::take(word);
        if !w.is_empty() && w != "test" && w != "tests" && !words.contains(&w) {
            words.push(w);
        }
    };
    for c in name.chars() {
        if !c.is_alphanumeric() {
            flush(&mut word);
            last_lower = false;
            continue;
        }
        if c.is_uppercase() && last_lower {
            flush(&mut word);
        }
        last_lower = c.is_lowercase() || c.is_numeric();
        word.extend(c.to_lowercase());
    }
    flush(&mut word);
    words
}
