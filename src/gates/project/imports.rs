//! Which test files import what, at a commit: the index the `mock` gate
//! looks up to find the tests whose subject a change touched, so a hook
//! reads the few test files that may import a changed module instead of
//! every test file in the repository.
//!
//! A commit's test files never change, so the index is kept per commit in
//! the state directory (`<state>/cache/imports-<version>-<model>/<commit>`),
//! built once, and brought forward to the next commit by re-reading only the
//! test files that differ between the two. Files that differ from the
//! commit (the change itself) are never looked up here: the gate reads
//! them. When what makes a file a test may have changed (a runner config,
//! a `package.json`, pytest's settings) the index is not used.
//!
//! The index file: for each test file, for each module its imports name
//! (`Import::module_specifiers`), `path NUL specifier NUL`; paths are the
//! repository's bytes, and neither part can hold a NUL.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use rayon::prelude::*;

use super::classify::Classifier;
use crate::cache::{Cache, PerCommit};
use crate::changed::ChangeSet;
use crate::git::index::{bytes_path, path_bytes};
use crate::git::{BlobRead, Repo};
use crate::lang::Lang;
use crate::state::Store;

/// Past this many files that differ between the indexed commit and the
/// wanted one, a new index is built from scratch.
const MAX_CARRIED: usize = 2_000;

/// Could this file change which files are tests?
pub fn shapes_tests(path: &Path) -> bool {
    let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
        return false;
    };
    matches!(
        name,
        "package.json" | "pyproject.toml" | "pytest.ini" | "setup.cfg" | "tox.ini"
    ) || ["vitest.config.", "vite.config.", "jest.config."]
        .iter()
        .any(|stem| name.starts_with(stem))
}

/// The names under which an import can reach the module at `path`: its
/// stem, and for a directory's module (`index.ts`, `__init__.py`, `mod.rs`,
/// a Go package's file) its directory's name; `None` for a crate root,
/// which any path may reach.
pub fn names_reaching(path: &Path) -> Option<BTreeSet<String>> {
    let stem = path.file_stem()?.to_str()?;
    let lang = Lang::from_path(path);
    if lang == Some(Lang::Rust) && matches!(stem, "lib" | "main") {
        return None;
    }
    let mut names = BTreeSet::from([stem.to_string()]);
    let by_dir = lang == Some(Lang::Go) || matches!(stem, "index" | "__init__" | "mod");
    if by_dir && let Some(dir) = path.parent().and_then(Path::file_name).and_then(|d| d.to_str()) {
        names.insert(dir.to_string());
    }
    Some(names)
}

/// Does `spec` spell one of `names` as a segment of its path (`../src/cart`,
/// `@/cart/index.js`, `shop.cart`, `crate::cart::Total`)? `None` names: any
/// spec does.
fn spells(spec: &[u8], names: Option<&BTreeSet<String>>) -> bool {
    let Some(names) = names else { return true };
    let Ok(spec) = std::str::from_utf8(spec) else {
        return false;
    };
    spec.split(['/', '.', ':', '\\']).any(|segment| names.contains(segment))
}

/// May `spec`, imported by the test file `test`, reach `source`? A relative
/// JavaScript specifier is resolved by its path (`../src/cart` from
/// `tests/` is `src/cart`, `src/cart.ts` or `src/cart/index.ts`); any other
/// must spell one of the names reaching it ([`names_reaching`]).
fn may_reach(test: &Path, spec: &[u8], source: &Path, names: Option<&BTreeSet<String>>) -> bool {
    // Most records name none of the sources: say so without parsing paths.
    let ends_in_dots = spec.ends_with(b".");
    if let Some(names) = names
        && !ends_in_dots
        && !names.iter().any(|n| contains(spec, n.as_bytes()))
    {
        return false;
    }
    let lang = Lang::from_path(test);
    if !same_family(lang, Lang::from_path(source)) {
        return false;
    }
    // A Go test file in the package it tests imports `.`: its own directory.
    if spec == b"." && lang == Some(Lang::Go) {
        return test.parent() == source.parent();
    }
    let relative = spec.starts_with(b"./") || spec.starts_with(b"../") || spec == b"." || spec == b"..";
    if relative && lang.is_some_and(|l| ecosystem(l) == ecosystem(Lang::JavaScript)) {
        let Ok(spec) = std::str::from_utf8(spec) else {
            return false;
        };
        let target = super::resolve::normalize(&test.parent().unwrap_or(Path::new("")).join(spec));
        let bare = source.with_extension("");
        return target == source
            || target == bare
            || target.with_extension("") == bare
            || (source.file_stem().is_some_and(|s| s == "index") && source.parent() == Some(target.as_path()));
    }
    spells(spec, names)
}

/// The test files, in the base commit of `set`, whose imports may reach one of
/// `sources` (changed project files), by the index; `None` when the index
/// cannot answer (no cache, no base commit, a change to what makes files
/// tests, or it could not be read or built), and the caller looks itself.
/// `fresh`: build an index from nothing when there is none to carry forward
/// (parsing every test file once: worth it for the pre-commit hook, which
/// runs on every commit; a one-off CI run reads fewer files without it).
pub fn candidates(
    repo: &Repo,
    store: &Store,
    cache: Option<&Cache>,
    classifier: &Classifier,
    set: &ChangeSet,
    sources: &[PathBuf],
    fresh: bool,
) -> Option<Vec<PathBuf>> {
    cache?;
    let commit = set.base.as_ref()?.commit.clone()?;
    if set
        .files
        .iter()
        .any(|f| shapes_tests(&f.path) || f.old_path.as_deref().is_some_and(shapes_tests))
    {
        return None;
    }
    let kept = PerCommit::open(
        store,
        &format!("imports-{}-{}", env!("CARGO_PKG_VERSION"), super::model_hash()),
    );
    let index = match kept.read(&commit) {
        Some(bytes) => bytes,
        None => build(repo, &kept, &commit, classifier, cache, fresh)?.into(),
    };
    let mentions = Mentions::new(repo.root(), sources);
    let mut found = BTreeSet::new();
    for (path, spec) in mentions.worth_a_look(&index) {
        let test = bytes_path(path);
        if mentions.record(test, spec)
            // The state directory is writable by whatever runs in the
            // checkout: a record names a path inside the repository, or nothing.
            && test.components().all(|c| matches!(c, std::path::Component::Normal(_)))
        {
            found.insert(test.to_path_buf());
        }
    }
    Some(found.into_iter().collect())
}

/// The changed modules a change's dependent tests may import, and what a
/// test file's records or text must hold to reach one: the index's records
/// are matched with [`may_reach`]; a test file read without the index must
/// spell, somewhere in its text, what such a record would ([`Mentions::may`]),
/// so both ways find the same files once their imports are resolved.
pub struct Mentions<'a> {
    sources: Vec<(&'a Path, Option<BTreeSet<String>>)>,
    /// A JavaScript specifier of dots alone (`'.'`, `"../.."`): an index file.
    dots: regex::bytes::Regex,
    /// Any of the sources' names, to pass most records by at once; `None`
    /// when a source has no names (a crate root: any path may reach it).
    any_name: Option<regex::bytes::Regex>,
}

impl<'a> Mentions<'a> {
    /// For `sources` in the repository at `root`.
    pub fn new(root: &Path, sources: &'a [PathBuf]) -> Mentions<'a> {
        let named = |source: &Path| {
            let mut names = names_reaching(source)?;
            // A Go package at a module's root is imported by the module
            // path, which need not end in its directory's name (or, at the
            // repository root, any name).
            if Lang::from_path(source) == Some(Lang::Go)
                && let Some(module) = go_module(root, source.parent().unwrap_or(Path::new("")))
            {
                names.extend(module.rsplit('/').take(2).map(str::to_string));
            }
            Some(names)
        };
        let sources: Vec<(&Path, Option<BTreeSet<String>>)> = sources.iter().map(|s| (s.as_path(), named(s))).collect();
        let any_name = sources
            .iter()
            .map(|(_, names)| names.as_ref())
            .collect::<Option<Vec<_>>>()
            .and_then(|all| {
                let names: BTreeSet<String> = all.into_iter().flatten().map(|n| regex::escape(n)).collect();
                regex::bytes::Regex::new(&names.into_iter().collect::<Vec<_>>().join("|")).ok()
            });
        Mentions {
            any_name,
            sources,
            dots: regex::bytes::Regex::new(r#"['"`](?:\.\.?/)*\.\.?/?['"`]"#).expect("a valid regex"),
        }
    }

    /// The records of `index` that [`Mentions::record`] may accept: one
    /// search of the whole index for the sources' names, then only the
    /// records whose specifier holds one (or is `.`-like) are looked at.
    /// What names none of the sources can only reach one as `.` or `..`.
    fn worth_a_look<'i>(&self, index: &'i [u8]) -> impl Iterator<Item = (&'i [u8], &'i [u8])> {
        // Where the names are, in order (a name holds no NUL: a match lies
        // within one field); `None`: every record is worth a look.
        let mut hits = self
            .any_name
            .as_ref()
            .map(|any| any.find_iter(index).map(|m| m.start()).peekable());
        records(index).filter(move |(_, spec)| {
            let Some(hits) = hits.as_mut() else { return true };
            // The specifier's offset in the index: records borrow from it.
            let start = spec.as_ptr() as usize - index.as_ptr() as usize;
            let end = start + spec.len();
            while hits.next_if(|at| *at < start).is_some() {}
            spec.ends_with(b".") || hits.peek().is_some_and(|at| *at < end)
        })
    }

    /// May the import `spec` of the test file `test` reach a changed module?
    fn record(&self, test: &Path, spec: &[u8]) -> bool {
        self.sources
            .iter()
            .any(|(source, names)| may_reach(test, spec, source, names.as_ref()))
    }

    /// May the test file `test`, whose text is `text`, import a changed
    /// module? True of every file one of whose imports [`Mentions::record`]
    /// accepts (its specifier is in its text), and of a few more.
    pub fn may(&self, test: &Path, text: &[u8]) -> bool {
        let lang = Lang::from_path(test);
        self.sources.iter().any(|(source, names)| {
            if !same_family(lang, Lang::from_path(source)) {
                return false;
            }
            let Some(names) = names else { return true };
            (lang == Some(Lang::Go) && test.parent() == source.parent())
                || names.iter().any(|n| contains(text, n.as_bytes()))
                || (lang.is_some_and(|l| ecosystem(l) == Lang::JavaScript) && self.dots.is_match(text))
        })
    }
}

/// The module path the `go.mod` in `dir` (repository-relative) declares, if
/// there is one; read as every gate reads a file: inside the repository.
fn go_module(root: &Path, dir: &Path) -> Option<String> {
    let bytes = crate::walk::read_file(root, &dir.join("go.mod")).ok()?;
    super::resolve::go_module_path(&String::from_utf8_lossy(&bytes))
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    !needle.is_empty() && haystack.windows(needle.len()).any(|w| w == needle)
}

/// Can a test in `test`'s language import a module in `source`'s?
fn same_family(test: Option<Lang>, source: Option<Lang>) -> bool {
    match (test, source) {
        (Some(a), Some(b)) => ecosystem(a) == ecosystem(b),
        _ => false,
    }
}

/// Languages that import each other's modules share one.
fn ecosystem(lang: Lang) -> Lang {
    match lang {
        Lang::TypeScript | Lang::Tsx => Lang::JavaScript,
        other => other,
    }
}

/// The (path, specifier) records of an index file.
fn records(index: &[u8]) -> impl Iterator<Item = (&[u8], &[u8])> {
    let mut at = 0;
    let mut field = move || {
        let len = memchr::memchr(0, index.get(at..)?)?;
        let out = &index[at..at + len];
        at += len + 1;
        Some(out)
    };
    std::iter::from_fn(move || {
        let path = field().filter(|p| !p.is_empty())?;
        let spec = field()?;
        Some((path, spec))
    })
}

/// Build the index of `commit` (from the newest index there is when few test
/// files differ, else from nothing when `fresh`), write it, and return it.
fn build(
    repo: &Repo,
    kept: &PerCommit,
    commit: &str,
    classifier: &Classifier,
    cache: Option<&Cache>,
    fresh: bool,
) -> Option<Vec<u8>> {
    let carried = kept
        .latest(commit)
        .and_then(|(from, bytes)| carry(repo, &bytes, &from, commit, classifier, cache));
    let index = match carried {
        Some(index) => index,
        None if !fresh => return None,
        None => {
            let files: Vec<(PathBuf, String)> = repo
                .files_at(commit)
                .ok()?
                .into_iter()
                .filter(|(path, _)| classifier.test_file(path).is_some())
                .collect();
            let mut index = Vec::new();
            append(repo, &files, cache, &mut index)?;
            index
        }
    };
    kept.write(commit, &index)?;
    kept.remove_other_versions("imports-");
    Some(index)
}

/// The index of `from` (`bytes`) brought forward to `to`: the records of the
/// test files that did not change, and the changed ones read again; `None`
/// when a test-shaping file changed or too much did.
fn carry(
    repo: &Repo,
    bytes: &[u8],
    from: &str,
    to: &str,
    classifier: &Classifier,
    cache: Option<&Cache>,
) -> Option<Vec<u8>> {
    let changes = repo.commit_paths(Some(from), to).ok()?;
    if changes.len() > MAX_CARRIED || changes.iter().any(|c| shapes_tests(&c.path)) {
        return None;
    }
    let gone: BTreeSet<&Path> = changes.iter().map(|c| c.path.as_path()).collect();
    let mut index = Vec::with_capacity(bytes.len());
    for (path, spec) in records(bytes) {
        if !gone.contains(bytes_path(path)) {
            push(&mut index, path, spec);
        }
    }
    let files: Vec<(PathBuf, String)> = changes
        .into_iter()
        .filter(|c| classifier.test_file(&c.path).is_some())
        .filter_map(|c| Some((c.path, c.blob?.to_string())))
        .collect();
    append(repo, &files, cache, &mut index)?;
    Some(index)
}

/// The records of `files` (path, blob id), parsed in parallel.
fn append(repo: &Repo, files: &[(PathBuf, String)], cache: Option<&Cache>, index: &mut Vec<u8>) -> Option<()> {
    let mut read = Vec::with_capacity(files.len());
    for (path, id) in files {
        // A blob this partial clone lacks, or one over the size cap, has no
        // imports here: the walk would not have read it either.
        if let BlobRead::Content(bytes) = repo.blob_capped(id).ok()? {
            read.push((path, bytes));
        }
    }
    let specs: Vec<(&PathBuf, Vec<String>)> = read
        .par_iter()
        .filter_map(|(path, bytes)| {
            let lang = Lang::from_path(path)?;
            let file = super::model(lang, bytes, cache)?;
            let specs = file
                .imports
                .iter()
                .flat_map(|i| i.module_specifiers(lang).cloned())
                .collect();
            Some((*path, specs))
        })
        .collect();
    for (path, specs) in specs {
        let Some(path) = path_bytes(path) else { continue };
        for spec in specs {
            push(index, &path, spec.as_bytes());
        }
    }
    Some(())
}

fn push(index: &mut Vec<u8>, path: &[u8], spec: &[u8]) {
    if path.is_empty() || path.contains(&0) || spec.contains(&0) {
        return;
    }
    index.extend_from_slice(path);
    index.push(0);
    index.extend_from_slice(spec);
    index.push(0);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specifiers_spell_the_names_of_what_they_import() {
        let names = |p: &str| names_reaching(Path::new(p));
        let cart = names("src/cart/index.ts");
        for yes in ["@/cart/index.js", "~/cart", "cart/index"] {
            assert!(spells(yes.as_bytes(), cart.as_ref()), "{yes}");
        }
        assert!(!spells(b"@/carts", cart.as_ref()));
        let reach = |test: &str, spec: &str, source: &str| {
            may_reach(
                Path::new(test),
                spec.as_bytes(),
                Path::new(source),
                names(source).as_ref(),
            )
        };
        assert!(reach("tests/cart.test.ts", "../src/cart", "src/cart/index.ts"));
        assert!(reach("tests/cart.test.ts", "../src/cart/index.js", "src/cart/index.ts"));
        assert!(reach("src/cart.test.ts", "./cart.js", "src/cart.ts"));
        assert!(reach("src/cart.test.ts", "./cart", "src/cart.tsx"));
        assert!(reach("src/a.test.ts", "./foo.bar", "src/foo.bar.ts"));
        assert!(
            !reach("pkg1/tests/cart.test.ts", "../src/cart", "pkg0/src/cart.ts"),
            "another package's cart"
        );
        assert!(!reach("src/cart.test.ts", "./cart", "src/cart.py"), "another language");
        assert!(
            reach("src/cart.test.js", "./cart", "src/cart.ts"),
            "JavaScript and TypeScript import each other"
        );
        assert!(!reach("src/cart.test.tsx", "./carts", "src/cart.ts"));
        assert!(reach("tests/test_cart.py", "shop.cart", "shop/cart.py"));
        assert!(
            !names("src/total.ts").unwrap().contains("src"),
            "a file's directory is not its name"
        );
        let query = names("django/db/models/query.py");
        assert!(spells(b"django.db.models.query", query.as_ref()));
        assert!(spells(b"..query", query.as_ref()));
        assert!(!spells(b"django.db.models.query_utils", query.as_ref()));
        let billing = names("src/billing.rs");
        assert!(spells(b"crate::billing::Invoice", billing.as_ref()));
        assert!(names("src/lib.rs").is_none(), "a crate root is reached by any path");
        assert!(spells(b"anything", None));
        assert!(
            reach("cart/cart_test.go", ".", "cart/cart.go"),
            "a Go test in its package"
        );
        assert!(!reach("bill/bill_test.go", ".", "cart/cart.go"));
        let go = names("internal/cart/cart.go");
        assert!(spells(b"example.com/shop/internal/cart", go.as_ref()));
    }

    /// Without the index, a test file is read when its text may hold a
    /// specifier the index would match: what the old spelling patterns
    /// missed (a Go test in a root package, a Rust module named inside a
    /// `use` group, an index imported as `'..'`) included.
    #[test]
    fn the_text_prefilter_keeps_what_the_index_would() {
        let sources = [
            PathBuf::from("context.go"),
            PathBuf::from("crates/ignore/src/walk.rs"),
            PathBuf::from("src/cart/index.ts"),
            PathBuf::from("shop/billing.py"),
        ];
        let root = tempfile::tempdir().unwrap();
        std::fs::write(root.path().join("go.mod"), "module github.com/spf13/cobra\n\ngo 1.22\n").unwrap();
        let mentions = Mentions::new(root.path(), &sources);
        let may = |path: &str, text: &str| mentions.may(Path::new(path), text.as_bytes());
        assert!(
            may("context_test.go", "package gin\n\nimport \"testing\"\n"),
            "in the root package"
        );
        assert!(
            !may("render/json_test.go", "package render\n"),
            "another package, not named"
        );
        assert!(may(
            "crates/ignore/src/dir.rs",
            "use crate::{\n    pathutil::x,\n    walk::DirEntry,\n};\n"
        ));
        assert!(may("src/cart/x/a.test.ts", "import { total } from '..'\n"));
        assert!(may("tests/test_billing.py", "from shop import billing\n"));
        assert!(!may("tests/test_other.py", "from shop import orders\n"));
        assert!(
            !may("tests/test_billing.go", "package shop\n"),
            "no Go source in its directory, nor named"
        );
        // Every record the index accepts is in a text the prefilter keeps.
        for (test, spec) in [
            ("context_test.go", "."),
            ("crates/ignore/src/dir.rs", "crate::walk::DirEntry"),
            ("src/cart/x/a.test.ts", ".."),
            ("tests/cart.test.ts", "../src/cart"),
            ("tests/test_billing.py", "shop.billing"),
        ] {
            assert!(mentions.record(Path::new(test), spec.as_bytes()), "{test}: {spec}");
            let text = format!("import x from '{spec}'\nuse {spec};\nfrom {spec} import y\n");
            assert!(mentions.may(Path::new(test), text.as_bytes()), "{test}");
        }
    }

    #[test]
    fn configs_that_decide_what_is_a_test_are_known() {
        for yes in [
            "package.json",
            "a/vitest.config.mts",
            "jest.config.js",
            "pyproject.toml",
            "x/setup.cfg",
        ] {
            assert!(shapes_tests(Path::new(yes)), "{yes}");
        }
        for no in ["src/config.ts", "vitest.setup.ts", "README.md"] {
            assert!(!shapes_tests(Path::new(no)), "{no}");
        }
    }

    #[test]
    fn the_scan_passes_by_only_records_no_source_is_named_in() {
        let mut index = Vec::new();
        push(&mut index, b"tests/cart.test.ts", b"../src/cart");
        // The name in the test's path, not in what it imports.
        push(&mut index, b"tests/cart/a.test.ts", b"vitest");
        push(&mut index, b"src/x/b.test.ts", b"..");
        push(&mut index, b"tests/c.test.ts", b"../src/cartography");
        push(&mut index, b"cart/d.test.ts", b"./d");
        push(&mut index, b"tests/e.test.ts", b"../src/carts");
        let sources = vec![PathBuf::from("src/cart.ts")];
        let root = tempfile::tempdir().unwrap();
        let mentions = Mentions::new(root.path(), &sources);
        let looked: Vec<&[u8]> = mentions.worth_a_look(&index).map(|(path, _)| path).collect();
        assert_eq!(
            looked,
            [
                &b"tests/cart.test.ts"[..],
                b"src/x/b.test.ts",
                b"tests/c.test.ts",
                b"tests/e.test.ts"
            ]
        );
        for (path, spec) in records(&index) {
            if mentions.record(bytes_path(path), spec) {
                assert!(looked.contains(&path), "{}", String::from_utf8_lossy(path));
            }
        }
    }

    #[test]
    fn records_round_trip_and_refuse_nul() {
        let mut index = Vec::new();
        push(&mut index, b"tests/a.test.ts", b"../src/a");
        push(&mut index, b"tests/b.test.ts", b"bad\0spec");
        push(&mut index, b"tests/c.test.ts", b"");
        let got: Vec<(&[u8], &[u8])> = records(&index).collect();
        assert_eq!(
            got,
            vec![
                (&b"tests/a.test.ts"[..], &b"../src/a"[..]),
                (&b"tests/c.test.ts"[..], &b""[..])
            ]
        );
    }
}
