//! The test project both the mock and the mutation gates read: which files
//! are tests (`classify`), what a test's imports resolve to (`resolve`),
//! what the project's test runners are set up to load (`runners`), which
//! Cargo features a plain `cargo test` enables (`features`), which
//! modules a Python distribution ships (`py_dist`), the
//! cached test model of a file's content, and which calls assert. It
//! belongs to no one gate.

pub mod always;
pub mod classify;
pub mod features;
pub mod imports;
pub mod py_dist;
pub mod resolve;
pub mod runners;

use std::path::{Path, PathBuf};

use anyhow::Result;

use super::Context;
use crate::cache::Cache;
use crate::git::index::{Entry, Snapshot};
use crate::lang::versions::Reader;
use crate::lang::{Lang, TestFile, conventional_helper};
use classify::Classifier;
use resolve::Resolver;

/// The code that builds the test model: the cache namespace carries its
/// hash, so a build whose extraction differs never reads another's entries.
pub(crate) const MODEL_SOURCES: &[&str] = &[
    include_str!("../../lang/mod.rs"),
    include_str!("../../lang/bindings.rs"),
    include_str!("../../lang/fingerprint.rs"),
    include_str!("../../lang/guards.rs"),
    include_str!("../../lang/parse.rs"),
    include_str!("../../lang/tree.rs"),
    include_str!("../../lang/python/mod.rs"),
    include_str!("../../lang/python/assertions.rs"),
    include_str!("../../lang/python/doubles.rs"),
    include_str!("../../lang/python/imports.rs"),
    include_str!("../../lang/python/matchers.rs"),
    include_str!("../../lang/python/cases.rs"),
    include_str!("../../lang/python/layout.rs"),
    include_str!("../../lang/javascript/mod.rs"),
    include_str!("../../lang/javascript/assertions.rs"),
    include_str!("../../lang/javascript/cases.rs"),
    include_str!("../../lang/javascript/tables.rs"),
    include_str!("../../lang/javascript/doubles.rs"),
    include_str!("../../lang/javascript/imports.rs"),
    include_str!("../../lang/javascript/matchers.rs"),
    include_str!("../../lang/javascript/declared.rs"),
    include_str!("../../lang/rust/mod.rs"),
    include_str!("../../lang/rust/assertions.rs"),
    include_str!("../../lang/rust/cases.rs"),
    include_str!("../../lang/rust/expand.rs"),
    include_str!("../../lang/rust/imports.rs"),
    include_str!("../../lang/rust/matchers.rs"),
    include_str!("../../lang/go/mod.rs"),
    include_str!("../../lang/go/assertions.rs"),
    include_str!("../../lang/go/cases.rs"),
    include_str!("../../lang/go/imports.rs"),
    include_str!("../../lang/go/matchers.rs"),
    include_str!("../../lang/syntax.rs"),
];

pub(crate) const CACHE_PREFIX: &str = "mock-model-";

/// A short hash of [`MODEL_SOURCES`].
fn model_hash() -> String {
    use sha2::Digest;
    let mut hasher = sha2::Sha256::new();
    for source in MODEL_SOURCES {
        hasher.update(source.as_bytes());
    }
    crate::finding::hex(&hasher.finalize())[..12].to_string()
}

/// The parse cache of test models (shared by `mock` and `mutation`), or
/// `None` with the reason when it is off or cannot be used.
pub(crate) fn model_cache(cx: &Context<'_>) -> (Option<Cache>, Option<String>) {
    if !cx.cache {
        return (None, None);
    }
    let cache = Cache::open(
        cx.store,
        &format!("{CACHE_PREFIX}{}-{}", env!("CARGO_PKG_VERSION"), model_hash()),
    );
    match cx.store.prepare() {
        Ok(()) => (Some(cache), None),
        Err(e) => (None, Some(format!("parse cache off: {e:#}"))),
    }
}

/// The test model of `source`, from the cache when this content was parsed before.
pub(crate) fn model(lang: Lang, source: &[u8], cache: Option<&Cache>) -> Option<TestFile> {
    read_version(lang, source, cache, None)
}

/// [`model`], for the next version of the file `reader` read last.
pub(crate) fn read_version(
    lang: Lang,
    source: &[u8],
    cache: Option<&Cache>,
    reader: Option<&mut Reader>,
) -> Option<TestFile> {
    let parse = |reader: Option<&mut Reader>| match reader {
        Some(reader) => reader.test_file(lang, source),
        None => lang.test_file(source),
    };
    let Some(cache) = cache else {
        return parse(reader);
    };
    let key = Cache::key(lang.family(), source);
    if let Some(file) = cache.get(&key) {
        return Some(file);
    }
    let file = parse(reader)?;
    // A parse given up depends on the machine, not the content.
    if !file.parse_cut {
        cache.put(&key, &file);
    }
    Some(file)
}

/// The project's test-file classifier and module resolver, from its
/// configuration files in the working tree.
pub(crate) fn project(cx: &Context<'_>, cache: Option<&Cache>) -> Result<(Classifier, Resolver)> {
    let root = cx.repo.root();
    let index = cx.repo.index()?;
    let manifests: Vec<&Entry> = index
        .entries()
        .iter()
        .filter(|e| !e.skip_worktree && e.stage == 0)
        .filter(|e| {
            // By the bytes first: this looks at every tracked path.
            let name = crate::paths::file_name(index.path_bytes(e));
            matches!(name, b"package.json" | b"Cargo.toml" | b"go.mod" | b"pyproject.toml")
        })
        .filter(|e| {
            !index
                .path(e)
                .components()
                .any(|c| matches!(c.as_os_str().to_str(), Some("node_modules" | "vendor" | "testdata")))
        })
        .collect();
    let (package_jsons, manifests): (Vec<&Entry>, Vec<&Entry>) = manifests
        .into_iter()
        .partition(|e| crate::paths::file_name(index.path_bytes(e)) == b"package.json");
    let paths = |entries: &[&Entry]| -> Vec<PathBuf> { entries.iter().map(|e| index.path(e).to_path_buf()).collect() };
    let mut classifier = Classifier::load(root, &paths(&package_jsons));
    // Which files pytest and the JavaScript runners collect is read from the
    // trusted revision too: a change that narrows it hides no test from the gates.
    if let Some(rev) = cx.judge.rev() {
        classifier = classifier.with_base(cx.repo.reader_at(rev)?);
    }
    let resolver = Resolver::load(root, &paths(&manifests), classifier.runners.clone())
        .with_package_names(package_names(cx, cache, &index, &package_jsons)?);
    Ok((classifier, resolver))
}

/// The `name` of each of `package_jsons` (entries of `index`), as staged,
/// with its directory. A
/// monorepo has hundreds: they are read once per set of versions (the
/// cache key is their paths and blob ids, which the index holds without
/// reading them).
fn package_names(
    cx: &Context<'_>,
    cache: Option<&Cache>,
    index: &Snapshot,
    package_jsons: &[&Entry],
) -> Result<Vec<(String, PathBuf)>> {
    let mut key = Vec::new();
    let mut entries = Vec::new();
    for entry in package_jsons {
        key.extend_from_slice(index.path_bytes(entry));
        key.push(0);
        key.extend_from_slice(entry.id.as_bytes());
        let dir = index.path(entry).parent().map(Path::to_path_buf).unwrap_or_default();
        entries.push((entry.id.to_string(), dir));
    }
    let key = Cache::key("package-names-and-dirs", &key);
    if let Some(names) = cache.and_then(|c| c.get::<Vec<(String, PathBuf)>>(&key)) {
        return Ok(names);
    }
    let mut names = Vec::new();
    for (id, dir) in entries {
        if let crate::git::BlobRead::Content(bytes) = cx.repo.blob_capped(&id)?
            && let Ok(json) = serde_json::from_slice::<serde_json::Value>(&bytes)
            && let Some(name) = json["name"].as_str()
        {
            names.push((name.to_string(), dir));
        }
    }
    if let Some(cache) = cache {
        cache.put(&key, &names);
    }
    Ok(names)
}

/// Does `name` match a configured helper (`name`, or `prefix*`)?
fn configured(name: &str, helpers: &[String]) -> bool {
    helpers.iter().any(|h| match h.strip_suffix('*') {
        Some(prefix) => name.starts_with(prefix),
        None => h == name,
    })
}

/// Does calling `name` assert: a function of `file` that asserts, a
/// conventional helper (`assert_*`, `check_*`), or one the config names?
pub fn is_assertion_helper(name: &str, file: &TestFile, configured_helpers: &[String]) -> bool {
    file.helpers.iter().any(|h| h == name) || conventional_helper(name) || configured(name, configured_helpers)
}

/// The `meta/parse-too-slow` finding for the repo-relative `path`, which
/// the change adds or edits and whose parse was given up after
/// [`crate::lang::PARSE_BUDGET`] (`unchecked` says what was not done):
/// enforced as [`crate::walk::too_large`] is.
pub(crate) fn too_slow(path: &Path, unchecked: &str, enforced: bool) -> crate::finding::Finding {
    let shown = crate::git::display_path(path);
    let budget = crate::lang::PARSE_BUDGET.as_secs();
    let mut finding = crate::finding::Finding::new(
        &crate::meta::PARSE_TOO_SLOW,
        format!("{shown} took more than {budget} seconds to parse and was given up: {unchecked}"),
    )
    .in_file(shown);
    finding.help = Some(
        "split the file, or take out what makes it slow to parse (thousands of lines of one construct); if it is ordinary code, report it with the file".to_string(),
    );
    crate::walk::blocks_where_enforced(finding, enforced)
}
