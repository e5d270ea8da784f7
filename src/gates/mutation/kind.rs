//! What kind of file a change touched: a test file, a snapshot, code a
//! test checks, or other (data, docs, a tool's config written as code, a
//! benchmark).

use std::path::Path;

use super::snapshots;
use super::{FileChange, Kind};
use crate::gates::project::classify::Classifier;
use crate::gates::project::resolve::is_test_support;
use crate::lang::Lang;

pub(super) fn kind(classifier: &Classifier, change: &FileChange) -> Kind {
    let path = &change.path;
    if let Some(lang) = classifier.test_file(path) {
        return Kind::Test(lang);
    }
    if let Some(owner) = snapshots::owner(path) {
        return Kind::Snapshot {
            owner,
            owner_version: None,
        };
    }
    if Lang::from_path(path).is_some() && !is_test_support(path) && !tool_config(path) && !benchmark(path) {
        return Kind::Code;
    }
    Kind::Other
}

/// A JavaScript or TypeScript benchmark (`parse.bench.ts`, vitest's
/// `bench` files): it measures the code, no test checks it (issue 64:
/// jshttp/cookie's snapshots "changed with" `parse-cookie.bench.ts`).
fn benchmark(path: &Path) -> bool {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    name.rsplit_once('.').is_some_and(|(stem, ext)| {
        matches!(ext, "js" | "cjs" | "mjs" | "ts" | "cts" | "mts" | "jsx" | "tsx")
            && (stem.ends_with(".bench") || stem.ends_with(".benchmark"))
    })
}

/// A development tool's config written as code (`eslint.config.js`,
/// `vitest.config.ts`, `.prettierrc.js`, `babel.config.cjs`): no test
/// checks what it says, though a test that imports the package's root
/// reaches every code file under it (issue 64: commander.js's expected
/// values "changed with" `eslint.config.js` and `.prettierrc.js`).
fn tool_config(path: &Path) -> bool {
    let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
        return false;
    };
    let Some((stem, ext)) = name.rsplit_once('.') else {
        return false;
    };
    matches!(ext, "js" | "cjs" | "mjs" | "ts" | "cts" | "mts")
        && (stem.ends_with(".config") || (stem.starts_with('.') && stem.ends_with("rc")))
}
