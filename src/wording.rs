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
