//! How loki-gate words things any layer says: counts and error chains.

/// `1 error`, `2 errors`.
pub fn plural(n: usize, word: &str) -> String {
    format!("{n} {word}{}", if n == 1 { "" } else { "s" })
}

/// An error and its causes on one line, as `{:#}` prints them, with a
/// libgit2 cause in plain words ([`crate::git::plain`]) instead of its raw
/// text and `class=`/`code=` suffix.
pub fn describe(err: &anyhow::Error) -> String {
    let causes: Vec<String> = err
        .chain()
        .map(|cause| match cause.downcast_ref::<git2::Error>() {
            Some(git) => crate::git::plain(git),
            None => cause.to_string(),
        })
        .collect();
    causes.join(": ")
}

/// The known name closest to `word` within a small edit distance (a third
/// of the name, at least 1), for "did you mean ...?"; ties go to the first.
///
/// Failing that, a name that shares a stem with it word by word (`mock/tautology`
/// is `mock/tautological-assertion`): the words before a `/` must be
/// the same, and the last word's start (at least four letters, two thirds
/// of it) must start one of the name's words after it. The longest stem wins.
pub fn nearest<'a>(word: &str, known: &[&'a str]) -> Option<&'a str> {
    let close = known
        .iter()
        .map(|k| (edit_distance(word, k), *k))
        .filter(|(d, k)| *d <= (k.len() / 3).max(1))
        .min_by_key(|(d, _)| *d)
        .map(|(_, k)| k);
    close.or_else(|| stem_match(word, known))
}

fn stem_match<'a>(word: &str, known: &[&'a str]) -> Option<&'a str> {
    let (family, name) = word.rsplit_once('/').unwrap_or(("", word));
    let name = name.to_ascii_lowercase();
    let need = (name.chars().count() * 2 / 3).max(4);
    let mut best: Option<(usize, &str)> = None;
    for k in known {
        let (k_family, k_name) = k.rsplit_once('/').unwrap_or(("", k));
        if k_family != family {
            continue;
        }
        let shared = k_name
            .split(['-', '_', ':'])
            .map(|part| part.chars().zip(name.chars()).take_while(|(a, b)| a == b).count())
            .max()
            .unwrap_or(0);
        if shared >= need && best.is_none_or(|(b, _)| shared > b) {
            best = Some((shared, k));
        }
    }
    best.map(|(_, k)| k)
}

/// Levenshtein distance, by characters.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let next = (prev + usize::from(ca != *cb)).min(row[j] + 1).min(row[j + 1] + 1);
            prev = row[j + 1];
            row[j + 1] = next;
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggestions_need_a_close_name() {
        assert_eq!(nearest("enabeld", &["enabled", "results"]), Some("enabled"));
        assert_eq!(nearest("zzz", &["enabled", "results"]), None);
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        let rules = ["mock/tautological-assertion", "mock/empty-test", "docs/readme-missing"];
        assert_eq!(nearest("mock/tautology", &rules), Some("mock/tautological-assertion"));
        assert_eq!(nearest("mock/empty", &rules), Some("mock/empty-test"));
        assert_eq!(nearest("docs/tautology", &rules), None);
        assert_eq!(nearest("mock/xyzzy", &rules), None);
    }
}
