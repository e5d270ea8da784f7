//! The docs gate: a README at the root, documentation that has not fallen
//! behind the code, and doc comments on the public symbols a change adds or
//! touches.

mod base;
pub mod exports;
mod files;
mod go_docs;
mod history;
mod js_api;
mod py_api;
pub mod rules;
mod rust_reach;
pub mod settings;

use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};

use anyhow::Result;
use rayon::prelude::*;

use super::{Context, GateOutput};
use crate::changed::{self, ChangedFile, Lines};
use crate::finding::Finding;
use crate::gates::project::py_dist;
use crate::git::{display_path, short};
use crate::lang::Lang;
use base::{Before, Surface};
use settings::Settings;

/// How far back `docs/stale` looks.
const HISTORY: usize = 1_000;

/// Extensions of source code, for "code changed since".
const SOURCE: &[&str] = &[
    "py", "pyi", "js", "jsx", "mjs", "cjs", "ts", "tsx", "mts", "cts", "rs", "go", "java", "kt", "kts", "scala", "rb",
    "php", "c", "h", "cc", "cpp", "cxx", "hpp", "cs", "swift", "m", "mm", "sh", "bash", "lua", "ex", "exs", "erl",
    "hs", "ml", "clj", "dart", "r", "jl", "zig", "nim", "vue", "svelte", "sql",
];

pub fn run(cx: &Context<'_>, settings: &Settings) -> Result<GateOutput> {
    let root = cx.repo.root();
    let mut out = GateOutput::default();
    match readme(root) {
        // A sparse checkout may leave the README out: git still has it.
        Some(missing)
            if missing.path.is_none()
                && let Some(kept) = cx.repo.outside_checkout()?.iter().find(|p| is_readme(p)) =>
        {
            out.notices.push(format!(
                "{} is outside this sparse checkout: not checked",
                crate::git::display_path(kept)
            ));
        }
        missing => out.findings.extend(missing),
    }
    let changes = cx.changes()?;
    stale(cx, settings, &changes, &mut out)?;
    out.notices.extend(changes.notes().iter().cloned());
    let mut publishes = Publishes::new(root);
    let candidates: HashMap<&Path, (&ChangedFile, Lang)> = changes
        .present()
        .filter(|f| !f.binary)
        .filter_map(|f| Some((f, exports::language_of(&f.path)?)))
        .filter(|(f, language)| !skipped(*language, &f.path, root))
        .map(|(f, language)| (f.path.as_path(), (f, language)))
        .collect();
    let paths: Vec<PathBuf> = candidates.keys().map(|p| p.to_path_buf()).collect();
    // Symlinks out of the repository, binary and huge files are skipped with a note.
    let read = crate::walk::read_all(root, &paths);
    out.findings.extend(read.skipped);
    // With each file's gaps, why the file itself says it is not the
    // package's API, if it does: a Go file built only with a tag of the
    // project's own (`// +build gofuzz`), which a plain `go build` leaves
    // out; a Python module whose docstring calls it private.
    type Gaps<'f> = (&'f ChangedFile, Lang, Vec<exports::Export>, Option<String>);
    let gaps: Vec<Gaps<'_>> = read
        .files
        .par_iter()
        .map(|source| {
            let (file, language) = candidates[source.path.as_path()];
            let tagged = match language {
                Lang::Go => crate::lang::go::custom_build_tag(&source.bytes)
                    .map(|(_, written, tag)| format!("a warning: the file is built only with `-tags {tag}` (`{written}`), which a plain `go build` does not set: not the package's API")),
                Lang::Python => declared_private(&source.bytes)
                    .map(|words| format!("a warning: the module's docstring says it is not the package's API (\"{words}\")")),
                _ => None,
            };
            (file, language, undocumented(root, file, language, &source.bytes), tagged)
        })
        .collect();
    // An audit (`--all-files`) has no change to hold to: each file's gaps
    // are one summary. A change is judged by what it adds: the base's
    // version is read only of files with a gap.
    let audit = cx.scope.is_whole();
    let base = changes.base.as_ref().and_then(|b| b.commit.as_deref());
    // What a package exposes, by package folder: a JavaScript package's
    // entry points, a Python distribution's packages.
    let mut apis: HashMap<PathBuf, Option<js_api::Api>> = HashMap::new();
    let mut dists: HashMap<PathBuf, py_dist::Dist> = HashMap::new();
    let mut modules = py_api::Modules::new(root);
    let mut go_interfaces: HashMap<PathBuf, BTreeSet<String>> = HashMap::new();
    let moved = base::Moved::new(&changes.files, &read.files);
    let mut held = base::Held::new(cx.repo, base, settings.pre_existing, moved);
    let work_tree = files::WorkTree(root);
    let mut go_convention = go_docs::GoConvention::new(cx.repo, root, base);
    for (file, language, mut gaps, tagged) in gaps {
        if language == Lang::Python {
            python_public(&mut modules, file, &mut gaps);
        }
        if language == Lang::Go {
            go_docs::implemented(root, file, &mut go_interfaces, &mut gaps);
        }
        if gaps.is_empty() {
            continue;
        }
        // Which package publishes the file: the manifest nearest to it.
        let package = publishes.of(&file.path, language).filter(|_| tagged.is_none());
        let surface = match &package {
            Some((_, dir)) if matches!(language, Lang::JavaScript | Lang::TypeScript | Lang::Tsx) => apis
                .entry(dir.clone())
                .or_insert_with(|| js_api::api(&work_tree, dir))
                .as_ref()
                .map_or(Surface::Whole, Surface::JavaScript),
            Some((_, dir)) if language == Lang::Python => Surface::Python(
                dists
                    .entry(dir.clone())
                    .or_insert_with(|| py_dist::Dist::read(root, dir)),
            ),
            _ => Surface::Whole,
        };
        if audit {
            // An audit of a published package is of its API: what its
            // entry points or build leave out is internal.
            gaps.retain(|s| surface.hides(&file.path, &s.name).is_none());
            out.findings.extend(summary(file, language, gaps));
            continue;
        }
        let before = Before::read(cx.repo, base, file, language)?;
        // A Go comment that is prose blocks only where the project's
        // linters hold it to Go's convention.
        let prose = (language == Lang::Go)
            .then(|| go_convention.prose(&file.path, &mut gaps))
            .flatten();
        let mut judged = held.judge(file, language, gaps, &before, package.clone(), &surface);
        if let Some(prose) = prose {
            let package = package.filter(|_| prose.config.is_some());
            let note = prose.note();
            judged.extend(
                held.judge(file, language, prose.gaps, &before, package, &surface)
                    .into_iter()
                    .map(|f| f.note(note.clone())),
            );
        }
        out.findings.extend(judged.into_iter().map(|mut f| {
            f.notes.extend(tagged.clone());
            f
        }));
    }
    // A change run: what the base revision already had.
    if !audit {
        out.base = Some(held.finish(&out.findings, &read.files)?);
    }
    out.files = read.files.len();
    out.sources = read.files;
    Ok(out)
}

/// The public symbols of one changed file that have no doc comment and
/// whose declaration the change touched (every one, in a whole file).
fn undocumented(root: &Path, file: &ChangedFile, language: Lang, source: &[u8]) -> Vec<exports::Export> {
    if generated(source) {
        return Vec::new();
    }
    let Some(mut symbols) = exports::exports(language, source) else {
        return Vec::new();
    };
    if language == Lang::Rust {
        let reach = rust_reach::reach(root, &file.path);
        symbols.retain(|s| reach.keeps(&s.name, s.parent.as_deref()));
    }
    symbols.retain(|s| !s.documented && touched(file, s));
    symbols
}

/// Drops from a Python file's gaps what is not public or is documented
/// after all: the names of a private module (`pkg/_impl.py`) that no
/// public package above it takes, and a method whose base class documents
/// the method it overrides (`help()` and Sphinx show that docstring).
fn python_public(modules: &mut py_api::Modules<'_>, file: &ChangedFile, gaps: &mut Vec<exports::Export>) {
    if gaps.is_empty() {
        return;
    }
    if let Some(names) = modules.exposed(&file.path) {
        gaps.retain(|s| names.contains(s.parent.as_ref().unwrap_or(&s.name)));
    }
    // A stub (`def send(self) -> Response: ...`) in a mixin or a protocol
    // is documented by the subclass that implements it.
    gaps.retain(|s| {
        s.parent.as_ref().is_none_or(|class| {
            !modules.inherits_doc(&file.path, class, &s.name)
                && !modules.implemented_with_doc(&file.path, class, &s.name)
        })
    });
    // An undocumented base's method, overridden: where the class had it from.
    for s in gaps.iter_mut() {
        if let Some(class) = &s.parent {
            s.overrides = modules.overrides(&file.path, class, &s.name);
        }
    }
}

/// `docs/undocumented-export` for an audit (`--all-files`): one warning per
/// file, with how many public symbols lack a doc comment and which.
fn summary(file: &ChangedFile, language: Lang, gaps: Vec<exports::Export>) -> Option<Finding> {
    const NAMED: usize = 5;
    let first = gaps.first()?;
    let mut names: Vec<String> = gaps.iter().take(NAMED).map(|s| format!("`{}`", s.name)).collect();
    if gaps.len() > NAMED {
        names.push(format!("and {} more", gaps.len() - NAMED));
    }
    // One symbol's fix is its own; several have a doc comment to add.
    let (message, fix) = match gaps.len() {
        1 => (first.undocumented(), first.fix(language)),
        n => (
            format!("{n} public symbols have no doc comment: {}", names.join(", ")),
            format!("add {}", exports::doc_name(language)),
        ),
    };
    Some(
        Finding::new(&rules::UNDOCUMENTED_EXPORT, message)
            .at(display_path(&file.path), first.line, first.column)
            .note(fix)
            .note("an audit of every file: a warning; a change that adds an undocumented public symbol to a published package blocks"),
    )
}

/// Did the change add or modify a line of the symbol's declaration?
fn touched(file: &ChangedFile, symbol: &exports::Export) -> bool {
    match &file.lines {
        Lines::All => true,
        Lines::Ranges(ranges) => ranges.iter().any(|&(a, b)| a <= symbol.end_line && symbol.line <= b),
    }
}

/// Is this a generated file? Its leading comment (the comment lines before
/// its first line of code) says so the way generators mark what they write:
/// Go's `Code generated ... DO NOT EDIT.` (protoc, stringer, mockgen), the
/// `@generated` tag (Meta's tools; GitHub's linguist reads it), or words
/// that call the file generated and ask not to edit it ("This file is
/// generated automatically by `scripts/build/fp.ts`. Please, don't change
/// it."). Its doc comments are the generator's to write, not the change's.
fn generated(source: &[u8]) -> bool {
    let head = String::from_utf8_lossy(&source[..source.len().min(4096)]).to_lowercase();
    let comment: Vec<&str> = head
        .lines()
        .map(str::trim)
        .take_while(|l| {
            l.is_empty()
                || ["//", "#", "/*", "*", "--", "<!--", "\"\"\"", "'''"]
                    .iter()
                    .any(|c| l.starts_with(c))
        })
        .take(40)
        .collect();
    let says = |words: &[&str]| comment.iter().any(|l| words.iter().any(|w| l.contains(w)));
    says(&["@generated"])
        || says(&["generated"])
            && says(&[
                "do not edit",
                "don't edit",
                "do not modify",
                "don't modify",
                "do not change",
                "don't change",
            ])
}

/// Words of a module docstring that say the module is not the package's
/// API, as a project tells its users ("This module is considered private
/// API.", "For internal use only."). "Provisional" is not among them: a
/// provisional API is public, only not yet stable (PEP 411).
const PRIVATE_WORDS: &[&str] = &[
    "private api",
    "internal api",
    "module is private",
    "module is internal",
    "considered private",
    "considered internal",
    "not part of the public api",
    "not a public api",
    "not public api",
    "for internal use",
];

/// The sentence of a Python module's docstring that says the module is
/// not the package's API, if one does. Read from the text: the docstring
/// is the module's first statement, after comments and blank lines.
fn declared_private(source: &[u8]) -> Option<String> {
    let head = String::from_utf8_lossy(&source[..source.len().min(4096)]);
    let mut rest = head.as_ref();
    while let Some(end) = rest.find('\n') {
        let line = rest[..end].trim();
        if !(line.is_empty() || line.starts_with('#')) {
            break;
        }
        rest = &rest[end + 1..];
    }
    let rest = rest.trim_start().trim_start_matches(['r', 'R', 'u', 'U']);
    let quote = ["\"\"\"", "'''", "\"", "'"].into_iter().find(|q| rest.starts_with(q))?;
    let body = &rest[quote.len()..];
    let docstring = body[..body.find(quote)?]
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    let lower = docstring.to_lowercase();
    let at = PRIVATE_WORDS.iter().find_map(|w| lower.find(w))?;
    // The sentence the words are in.
    let start = lower[..at].rfind(['.', ':', '!']).map_or(0, |p| p + 1);
    let end = lower[at..].find(['.', '!']).map_or(lower.len(), |p| at + p + 1);
    Some(docstring[start..end].trim().to_string())
}

/// Directories whose files are never a package's API.
const NOT_API_DIRS: &[&str] = &[
    "test",
    "tests",
    "__tests__",
    "testutil",
    "testutils",
    "testing",
    "testdata",
    "fixtures",
    "examples",
    "example",
    "benches",
    "bench",
    "benchmarks",
    "benchmark",
    "docs",
    "scripts",
    // Fuzzing harnesses (OSS-Fuzz, go-fuzz, cargo-fuzz targets): exported
    // for the fuzzer, not for the package's users.
    "fuzz",
    "fuzzing",
    "ossfuzz",
    "oss-fuzz",
    "fuzz_targets",
];

/// Files whose symbols are not an API: tests, vendored code, and Python outside packages.
fn skipped(language: Lang, path: &Path, root: &Path) -> bool {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    let in_dir = |dir: &str| path.components().any(|c| c.as_os_str() == dir);
    if in_dir("vendor") || in_dir("third_party") || in_dir("node_modules") {
        return true;
    }
    // Tests, their helpers and data, examples, benchmarks, docs, scripts and
    // fuzzing harnesses are never a package's API, in any language (`typing_tests/` too).
    let aside = path.parent().is_some_and(|dir| {
        dir.components().any(|c| {
            let c = c.as_os_str().to_str().unwrap_or("");
            NOT_API_DIRS.contains(&c) || c.ends_with("_tests") || c.starts_with("tests_")
        })
    });
    if aside {
        return true;
    }
    match language {
        Lang::Python => {
            // A package's test module (`python -m pkg.test`, Django's `tests.py`) too.
            let test = name.starts_with("test_")
                || name.ends_with("_test.py")
                || matches!(name, "conftest.py" | "test.py" | "tests.py");
            let package = name == "__init__.py"
                || path
                    .parent()
                    .is_some_and(|dir| root.join(dir).join("__init__.py").is_file());
            test || in_dir("tests") || in_dir("test") || !package || name == "__main__.py"
        }
        Lang::JavaScript | Lang::TypeScript | Lang::Tsx => {
            name.contains(".test.") || name.contains(".spec.") || in_dir("__tests__")
        }
        // Only a crate's `src/` holds library code (`rust_reach` decides the rest).
        Lang::Rust => !in_dir("src") || in_dir("tests") || in_dir("benches") || in_dir("examples"),
        // `internal/` packages are importable only inside their module: not an API.
        Lang::Go => name.ends_with("_test.go") || in_dir("testdata") || in_dir("internal"),
    }
}

/// Which files a package the repository publishes holds: each file belongs
/// to the package whose manifest is nearest above it (a workspace member's
/// own `Cargo.toml` or `package.json`, not the root's).
struct Publishes<'r> {
    root: &'r Path,
    /// Per directory and ecosystem: the package manifest there, published
    /// (why, for the finding) or not, or none there (look further up).
    seen: HashMap<(PathBuf, Ecosystem), Manifest>,
}

#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum Ecosystem {
    Python,
    JavaScript,
    Rust,
    Go,
}

#[derive(Clone)]
enum Manifest {
    /// No manifest of this ecosystem in the directory.
    None,
    /// A package that is not published (`"private": true`, `publish = false`).
    Private,
    /// A published package, with the note that says why.
    Published(String),
}

impl<'r> Publishes<'r> {
    fn new(root: &'r Path) -> Publishes<'r> {
        Publishes {
            root,
            seen: HashMap::new(),
        }
    }

    /// Why `path` (repo-relative) is part of a published package, with the
    /// package's folder, or `None` when the nearest package manifest above
    /// it does not publish it.
    fn of(&mut self, path: &Path, language: Lang) -> Option<(String, PathBuf)> {
        let ecosystem = match language {
            Lang::Python => Ecosystem::Python,
            Lang::JavaScript | Lang::TypeScript | Lang::Tsx => Ecosystem::JavaScript,
            Lang::Rust => Ecosystem::Rust,
            Lang::Go => Ecosystem::Go,
        };
        let mut dir = path.parent();
        while let Some(d) = dir {
            let key = (d.to_path_buf(), ecosystem);
            let manifest = match self.seen.get(&key) {
                Some(m) => m.clone(),
                None => {
                    let m = manifest(&self.root.join(d), d, ecosystem);
                    self.seen.insert(key, m.clone());
                    m
                }
            };
            match manifest {
                Manifest::None => dir = d.parent(),
                Manifest::Private => return None,
                Manifest::Published(why) => return Some((why, d.to_path_buf())),
            }
        }
        None
    }
}

/// The package manifest of `ecosystem` in the directory `dir` (`shown`,
/// repo-relative, for the note).
fn manifest(dir: &Path, shown: &Path, ecosystem: Ecosystem) -> Manifest {
    let read = |name: &str| crate::walk::read_file(dir, Path::new(name)).ok();
    let toml = |name: &str| -> Option<toml::Table> { String::from_utf8(read(name)?).ok()?.parse().ok() };
    let at = |name: &str| display_path(&shown.join(name));
    match ecosystem {
        Ecosystem::Python => match py_dist::published(dir, shown) {
            py_dist::Published::Nothing => Manifest::None,
            py_dist::Published::Private => Manifest::Private,
            py_dist::Published::Yes(why) => Manifest::Published(why),
        },
        // Every package of a Go module is importable (`internal/` and
        // `main` packages aside, which are skipped).
        Ecosystem::Go => match read("go.mod") {
            None => Manifest::None,
            Some(text) => {
                let module = String::from_utf8_lossy(&text).lines().find_map(|l| {
                    l.trim()
                        .strip_prefix("module ")
                        .map(|m| m.trim().trim_matches('"').to_string())
                });
                match module {
                    Some(module) => Manifest::Published(format!(
                        "deny: {} declares module {module}, whose packages are importable",
                        at("go.mod")
                    )),
                    None => Manifest::None,
                }
            }
        },
        Ecosystem::JavaScript => match read("package.json") {
            None => Manifest::None,
            Some(text) => match serde_json::from_slice::<serde_json::Value>(&text) {
                Ok(json) if json.get("private") == Some(&serde_json::Value::Bool(true)) => Manifest::Private,
                Ok(_) => Manifest::Published(format!(
                    "deny: {} publishes a package (not \"private\": true)",
                    at("package.json")
                )),
                Err(_) => Manifest::Private,
            },
        },
        Ecosystem::Rust => match toml("Cargo.toml") {
            None => Manifest::None,
            Some(t) => match t.get("package").and_then(|p| p.as_table()) {
                // A workspace's root manifest with no package of its own.
                None => Manifest::None,
                Some(package) => {
                    let published = match package.get("publish") {
                        Some(toml::Value::Boolean(b)) => *b,
                        Some(toml::Value::Array(registries)) => !registries.is_empty(),
                        _ => true,
                    };
                    if published {
                        Manifest::Published(format!(
                            "deny: {} publishes a crate (no `publish = false`)",
                            at("Cargo.toml")
                        ))
                    } else {
                        Manifest::Private
                    }
                }
            },
        },
    }
}

/// Has `path` one of `extensions` (lowercase), in any case?
fn has_extension(path: &Path, extensions: &[&str]) -> bool {
    extension_in(path.as_os_str().as_encoded_bytes(), extensions)
}

fn extension_in(path: &[u8], extensions: &[&str]) -> bool {
    crate::paths::extension(path).is_some_and(|e| extensions.iter().any(|x| x.as_bytes().eq_ignore_ascii_case(e)))
}

/// Is `path` (repo-relative) a README at the root?
fn is_readme(path: &Path) -> bool {
    let name = path.to_string_lossy().to_ascii_lowercase();
    name == "readme" || name.starts_with("readme.")
}

/// `docs/readme-missing`.
fn readme(root: &Path) -> Option<Finding> {
    let entries = std::fs::read_dir(root).ok()?;
    let names: Vec<String> = entries
        .filter_map(|e| e.ok())
        .filter(|e| e.file_type().is_ok_and(|t| t.is_file() || t.is_symlink()))
        .filter_map(|e| e.file_name().to_str().map(str::to_string))
        .filter(|n| is_readme(Path::new(n)) && root.join(n).is_file())
        .collect();
    // A README that cannot be read (no permission, a link out of the
    // repository, over the size cap) is not judged empty: it is skipped.
    readme_of(names, &|name| crate::walk::read_file(root, Path::new(name)))
}

/// `docs/readme-missing` of the files at the root named `names` (any
/// names; READMEs among them are judged), each read by `read`: one it
/// cannot read is skipped with a note saying why, never judged empty.
fn readme_of(mut names: Vec<String>, read: &dyn Fn(&str) -> Result<Vec<u8>, String>) -> Option<Finding> {
    names.retain(|n| is_readme(Path::new(n)));
    names.sort();
    let Some(name) = names.first() else {
        return Some(Finding::new(&rules::README_MISSING, "no README at the repository root"));
    };
    let text = match read(name) {
        Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
        Err(why) => return Some(crate::walk::skipped(Path::new(name), &why)),
    };
    // The title is the first line of text (`# Title`, or a setext or RST
    // title over its underline); headings and underlines are not content.
    let underline = |l: &str| l.chars().all(|c| "=-~^*+#`'\".:_".contains(c));
    let body = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !underline(l))
        .skip(1)
        .filter(|l| !l.starts_with('#'))
        .count();
    (body == 0)
        .then(|| Finding::new(&rules::README_MISSING, format!("{name} has nothing but a title")).in_file(name.clone()))
}

/// Extensions of documentation prose: what `docs/stale` watches among the
/// `doc-paths` (not images, stylesheets, or code kept in a docs folder).
const PROSE: &[&str] = &[
    "md", "markdown", "mdx", "rst", "adoc", "asciidoc", "txt", "textile", "org",
];

/// Is `path` (bytes) a document `docs/stale` watches: prose (or a bare
/// `README`)? Asked of every tracked path, by the bytes.
fn is_prose(path: &[u8]) -> bool {
    extension_in(path, PROSE)
        || (crate::paths::extension(path).is_none()
            && crate::paths::file_name(path)
                .get(..6)
                .is_some_and(|n| n.eq_ignore_ascii_case(b"readme")))
}

/// File stems too common to say which code a document describes.
const COMMON_STEMS: &[&str] = &[
    "index",
    "main",
    "mod",
    "lib",
    "utils",
    "util",
    "helpers",
    "common",
    "types",
    "core",
    "base",
    "init",
    "__init__",
    "setup",
    "config",
    "constants",
    "errors",
    "test",
    "tests",
];

/// Does a document's `text` name the code file `code`: its path, or its
/// file stem as a word when the stem says something (`invoice`, not `index`)?
fn names(text: &str, code: &Path) -> bool {
    let path = display_path(code);
    if text.contains(&path) {
        return true;
    }
    let Some(stem) = code.file_stem().and_then(|s| s.to_str()) else {
        return false;
    };
    if stem.len() < 4 || COMMON_STEMS.contains(&stem.to_ascii_lowercase().as_str()) {
        return false;
    }
    let word = |c: char| c.is_alphanumeric() || c == '_';
    text.match_indices(stem).any(|(at, _)| {
        !text[..at].chars().next_back().is_some_and(word) && !text[at + stem.len()..].chars().next().is_some_and(word)
    })
}

/// `docs/stale`: at most one finding a run. An audit (`--all-files`) names
/// the documents that fell behind; a change is told only when it modifies
/// code a stale document names, or when every document has fallen behind.
fn stale(cx: &Context<'_>, settings: &Settings, changes: &changed::ChangeSet, out: &mut GateOutput) -> Result<()> {
    let index = cx.repo.index()?;
    let docs: Vec<&Path> = index
        .tracked_bytes()
        // The cheap test first, on the bytes: this looks at every tracked path.
        .filter(|p| is_prose(p))
        .map(crate::git::index::bytes_path)
        .filter(|p| settings.doc_paths.is_match(p) && !cx.exclude.is_match(p))
        .collect();
    if docs.is_empty() {
        return Ok(());
    }
    // A document that is a link to a file in the repository (a root
    // README.md linking to packages/x/README.md) is as old as that file.
    let root = cx.repo.root();
    let inside = std::fs::canonicalize(root).ok();
    let dated: HashMap<String, String> = docs
        .iter()
        .filter(|doc| std::fs::symlink_metadata(root.join(doc)).is_ok_and(|m| m.file_type().is_symlink()))
        .filter_map(|doc| {
            let target = std::fs::canonicalize(root.join(doc)).ok()?;
            let target = target.strip_prefix(inside.as_ref()?).ok()?;
            Some((display_path(doc), display_path(target)))
        })
        .collect();
    let key = |doc: &str| dated.get(doc).cloned().unwrap_or_else(|| doc.to_string());
    let watched: std::collections::HashSet<String> = docs.iter().map(|d| key(&display_path(d))).collect();
    // A link to a file that is not prose is dated by that file's changes.
    let also: std::collections::BTreeSet<String> =
        watched.iter().filter(|w| !is_prose(w.as_bytes())).cloned().collect();
    let history = history::window(cx, settings, HISTORY, &also)?;
    if history.len() <= settings.freshness {
        return Ok(());
    }
    if cx.repo.is_shallow() {
        out.notices
            .push("docs/stale looks at the history this shallow clone has".to_string());
    }
    // Newest first: how many code commits came after each doc's last change.
    struct Last {
        age: usize,
        commit: String,
        summary: String,
        code_after: usize,
    }
    let mut last: HashMap<String, Last> = HashMap::new();
    let mut code_commits = 0;
    for (age, commit) in history.iter().enumerate() {
        if last.len() == watched.len() && age > settings.freshness {
            break;
        }
        for path in &commit.docs {
            if watched.contains(path) {
                last.entry(path.clone()).or_insert_with(|| Last {
                    age,
                    commit: commit.id.clone(),
                    summary: commit.summary.clone(),
                    code_after: code_commits,
                });
            }
        }
        if commit.code {
            code_commits += 1;
        }
    }
    // Each stale document, most behind first: (path, what to say of it, age).
    let mut behind: Vec<(String, String, usize)> = Vec::new();
    for doc in &docs {
        let path = display_path(doc);
        match last.get(&key(&path)) {
            Some(l) if l.age > settings.freshness && l.code_after > 0 => behind.push((
                path,
                format!(
                    "last changed {} commits ago ({} \"{}\"), and {} commit(s) since changed code",
                    l.age,
                    short(&l.commit),
                    l.summary,
                    l.code_after
                ),
                l.age,
            )),
            None if code_commits > 0 => behind.push((
                path,
                format!(
                    "last changed before the {} commits looked at, and {code_commits} commit(s) since changed code",
                    history.len()
                ),
                usize::MAX,
            )),
            _ => {}
        }
    }
    if behind.is_empty() {
        return Ok(());
    }
    behind.sort_by(|a, b| b.2.cmp(&a.2).then_with(|| a.0.cmp(&b.0)));
    // Why a change is told: the code it modifies that a stale document names.
    let mut why = None;
    if !cx.scope.is_whole() && behind.len() < docs.len() {
        let code: Vec<&Path> = changes
            .present()
            .map(|f| f.path.as_path())
            .filter(|p| has_extension(p, SOURCE))
            .collect();
        'docs: for (doc, _, _) in &behind {
            let Ok(bytes) = crate::walk::read_file(cx.repo.root(), Path::new(doc)) else {
                continue;
            };
            let text = String::from_utf8_lossy(&bytes);
            for file in &code {
                if names(&text, file) {
                    why = Some((doc.clone(), display_path(file)));
                    break 'docs;
                }
            }
        }
        let Some((doc, _)) = &why else {
            return Ok(());
        };
        // The document that names the change's code comes first.
        if let Some(at) = behind.iter().position(|(d, _, _)| d == doc) {
            let named = behind.remove(at);
            behind.insert(0, named);
        }
    }
    const LISTED: usize = 3;
    let (first, said, _) = &behind[0];
    let message = if behind.len() == 1 {
        format!("{first} was {said}")
    } else {
        let mut listed: Vec<String> = behind
            .iter()
            .take(LISTED)
            .map(|(d, said, _)| format!("{d} ({said})"))
            .collect();
        if behind.len() > LISTED {
            listed.push(format!("and {} more", behind.len() - LISTED));
        }
        format!(
            "{} documents have fallen behind the code: {}",
            behind.len(),
            listed.join("; ")
        )
    };
    let mut finding = Finding::new(&rules::STALE, message).in_file(first.clone());
    if let Some((doc, code)) = why {
        finding = finding.note(format!("{doc} names {code}, which this change modifies"));
    } else if !cx.scope.is_whole() {
        finding = finding.note("every document has fallen behind the code");
    }
    out.findings.push(finding);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prose_is_told_by_the_bytes_of_its_name() {
        for yes in [
            "README",
            "docs/readme",
            "Guide.MD",
            "a/b.rst",
            "notes.txt",
            "d.x/ReadMe",
            "docs/README-old",
        ] {
            assert!(is_prose(yes.as_bytes()), "{yes}");
        }
        for no in ["src/readme.rs", "docs/img.png", "read", ".md", "md", "docs.md/conf.py"] {
            assert!(!is_prose(no.as_bytes()), "{no}");
        }
        assert!(is_prose(b"docs/\xff.md"), "a name that is not UTF-8");
        assert!(!is_prose(b"docs/\xffreadme"));
    }

    #[test]
    fn a_module_docstring_can_say_the_module_is_private() {
        assert_eq!(
            declared_private(
                b"#!/usr/bin/env python\n# coding: utf-8\n\n\"\"\"Custom fields.\n\n.. warning::\n    This module is considered private API.\n\"\"\"\n\nimport re\n"
            )
            .as_deref(),
            Some("This module is considered private API.")
        );
        assert_eq!(
            declared_private(b"'''Helpers for internal use only'''\n").as_deref(),
            Some("Helpers for internal use only")
        );
        // Provisional is public; a comment or a string later in the file is not the docstring.
        assert_eq!(
            declared_private(b"\"\"\"Types.\n\nThis module is provisional.\n\"\"\"\n"),
            None
        );
        assert_eq!(
            declared_private(b"import re\n\"\"\"This module is private.\"\"\"\n"),
            None
        );
        assert_eq!(declared_private(b"# This module is private.\nimport re\n"), None);
        assert_eq!(declared_private(b"\"\"\"Unterminated private api\n"), None);
    }

    #[test]
    fn generated_and_vendored_files_are_not_an_api() {
        assert!(generated(
            b"// mkerrors.sh -m64\n// Code generated by the command above; DO NOT EDIT.\n\npackage syscall\n"
        ));
        assert!(generated(
            b"// This file is generated automatically by `scripts/build/fp.ts`. Please, don't change it.\n\nexport const a = 1;\n"
        ));
        assert!(generated(
            b"#!/usr/bin/env python\n# @generated by tools/gen.py\n\nA = 1\n"
        ));
        assert!(generated(
            b"/*\n * Auto-generated from schema.json.\n *\n * Do not modify by hand.\n */\nexport type A = 1;\n"
        ));
        // The words in code or a doc comment below the first line of code.
        assert!(!generated(
            b"package cart\n\n// Total is generated from the items; do not edit the cart meanwhile.\n"
        ));
        // Generated, but nothing asks to leave it alone; or the reverse.
        assert!(!generated(
            b"// Values generated at start-up are cached.\nexport const a = 1;\n"
        ));
        assert!(!generated(
            b"// Do not edit the list below without a review.\nexport const a = 1;\n"
        ));
        let root = Path::new("/nonexistent");
        assert!(skipped(Lang::Go, Path::new("cmd/vendor/golang.org/x/a.go"), root));
        assert!(skipped(Lang::Rust, Path::new("vendor/serde/src/lib.rs"), root));
        assert!(!skipped(Lang::Go, Path::new("cart/cart.go"), root));
    }
}
