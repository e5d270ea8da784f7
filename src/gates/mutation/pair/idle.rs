//! Checks that do not check the code: the test's own housekeeping, and
//! checks that cannot fail. Dropping one loses nothing.

use super::{expected, subject};
use crate::lang::{Assertion, Import, TestCase};

/// The call a check's subject stands for: the subject itself when it is a
/// call (`os . Remove ( path )` -> `os.Remove`), the one call a plain name
/// was bound to (`errs` bound to `cleanUpTempFiles(..)`), through `len(..)`.
fn subject_call(t: &TestCase, a: &Assertion) -> Option<String> {
    let mut subject = subject(a)?;
    if let Some(inner) = subject.strip_prefix("len ( ").and_then(|s| s.strip_suffix(" )")) {
        subject = inner;
    }
    if let Some((_, call)) = t.aliases.iter().find(|(name, _)| name == subject) {
        return Some(call.trim_end_matches("()").to_string());
    }
    let (callee, _) = subject.split_once(" ( ")?;
    let callee: String = callee.split(' ').collect();
    callee
        .chars()
        .all(|c| c.is_alphanumeric() || matches!(c, '_' | '.' | ':'))
        .then_some(callee)
}

/// Does `a` check the test's own housekeeping rather than the code: what
/// removing its temporary files returned (`assert.NoError(t,
/// os.Remove(path))`, `errs := cleanUpTempFiles(..)` then `if len(errs) > 0
/// { t.Fatal(..) }`)? A test that moves its files to a directory the runner
/// removes (`t.TempDir()`, `tmp_path`) drops such checks and loses nothing.
pub fn housekeeping(t: &TestCase, a: &Assertion) -> bool {
    // "It succeeded": no expected value, or one that says nothing went
    // wrong (`<= len(errs) 0`). `cleanup_text(" a ") == "a"` checks code.
    let succeeded = expected(a).iter().all(|e| {
        matches!(
            *e,
            "nil" | "None" | "null" | "undefined" | "0" | "false" | "False" | "true" | "True"
        )
    });
    let Some(call) = subject_call(t, a).filter(|_| succeeded) else {
        return false;
    };
    let (module, name) = match call.rfind(['.', ':']) {
        Some(i) => (call[..i].trim_end_matches(':'), &call[i + 1..]),
        None => ("", call.as_str()),
    };
    let word: String = name.chars().filter(|c| *c != '_').collect::<String>().to_lowercase();
    let removal = matches!(
        word.as_str(),
        "remove"
            | "removeall"
            | "unlink"
            | "rmdir"
            | "rmtree"
            | "removedirs"
            | "rm"
            | "rmsync"
            | "unlinksync"
            | "rmdirsync"
            | "removefile"
            | "removedir"
            | "removedirall"
    );
    let filesystem = matches!(module, "os" | "shutil" | "fs" | "fsp" | "fsPromises" | "std::fs");
    (removal && filesystem) || word.starts_with("cleanup") || word.starts_with("teardown")
}

/// Can `a` never fail, so that dropping it loses nothing: a tautology
/// (`assert "message"`, a literal compared with an equal one; issue 64:
/// pyjwt's `assert "Failed to get an expected error"`), tap's and ava's
/// `t.pass()` (it counts toward the plan), or a Go check
/// (testify's `NotNil`) that a value the test just made is not nil: of
/// `new(T)`, or of a constructor of the standard library (`buf :=
/// bytes.NewBuffer(nil)`, imports without a domain in `imports`), which
/// never return nil.
pub fn vacuous(t: &TestCase, a: &Assertion, imports: &[Import]) -> bool {
    if crate::gates::project::always::tautology(&a.form).is_some() || a.matcher == "pass" && a.parts.is_empty() {
        return true;
    }
    if a.matcher != "NotNil" {
        return false;
    }
    let Some(call) = subject_call(t, a) else { return false };
    match call.split_once('.') {
        None => call == "new",
        Some((package, name)) => {
            name.starts_with("New")
                && imports.iter().any(|i| {
                    i.names.iter().any(|n| n == package)
                        && !i.specifier.split('/').next().is_some_and(|host| host.contains('.'))
                })
        }
    }
}
