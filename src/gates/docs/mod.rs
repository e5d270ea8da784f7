//! The docs gate: a README at the root, documentation that has not fallen
//! behind the code, and doc comments on the public symbols a change adds or
//! touches.

pub mod exports;
pub mod rules;
mod rust_reach;
pub mod settings;

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use anyhow::Result;
use rayon::prelude::*;

use super::{Context, GateOutput};
use crate::changed::{self, ChangedFile, Lines};
use crate::finding::Finding;
use crate::git::{Status, display_path, short};
use crate::lang::Lang;
use crate::rule::Level;
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
    let tracked = cx.repo.tracked_files()?;
    stale(cx, settings, &tracked, &mut out)?;

    let changes = changed::collect(cx.repo, cx.scope, &cx.exclude, &cx.skip_dirs)?;
    out.notices.extend(changes.notes().iter().cloned());
    let publishes = Publishes::read(root);
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
    let found: Vec<Vec<Finding>> = read
        .files
        .par_iter()
        .map(|source| {
            let (file, language) = candidates[source.path.as_path()];
            undocumented(root, file, language, &source.bytes, &publishes)
        })
        .collect();
    out.files = read.files.len();
    out.findings.extend(found.into_iter().flatten());
    out.sources = read.files;
    Ok(out)
}

/// `docs/undocumented-export` in one file.
fn undocumented(root: &Path, file: &ChangedFile, language: Lang, source: &[u8], publishes: &Publishes) -> Vec<Finding> {
    if generated(source) {
        return Vec::new();
    }
    let Some(mut symbols) = exports::exports(language, source) else {
        return Vec::new();
    };
    if language == Lang::Rust {
        let reach = rust_reach::reach(root, &file.path);
        symbols.retain(|s| reach.keeps(&s.name, s.kind));
    }
    if language == Lang::Python
        && let Some(names) = python_private_module(root, &file.path)
    {
        // A private module's symbols are public when its package imports them.
        symbols.retain(|s| {
            names
                .iter()
                .any(|n| Some(n) == s.parent.as_ref() || (s.parent.is_none() && *n == s.name))
        });
    }
    symbols
        .into_iter()
        .filter(|s| !s.documented && touched(file, s))
        .map(|symbol| {
            let mut finding = Finding::new(
                &rules::UNDOCUMENTED_EXPORT,
                format!("public {} `{}` has no doc comment", symbol.kind, symbol.name),
            )
            .at(display_path(&file.path), symbol.line, symbol.column)
            .note(format!("add {}", exports::doc_name(language)));
            if publishes.covers(language) {
                finding.proposed = Some(Level::Deny);
                finding.notes.push(publishes.why(language).to_string());
            }
            finding
        })
        .collect()
}

/// Did the change add or modify a line of the symbol's declaration?
fn touched(file: &ChangedFile, symbol: &exports::Export) -> bool {
    match &file.lines {
        Lines::All => true,
        Lines::Ranges(ranges) => ranges.iter().any(|&(a, b)| a <= symbol.end_line && symbol.line <= b),
    }
}

/// Is this a generated file: a `Code generated ... DO NOT EDIT.` line (Go's
/// convention, which protoc, stringer, mockgen and others follow) near the top?
fn generated(source: &[u8]) -> bool {
    let head = &source[..source.len().min(2048)];
    String::from_utf8_lossy(head)
        .lines()
        .take(10)
        .any(|l| l.contains("Code generated") && l.contains("DO NOT EDIT"))
}

/// Files whose symbols are not an API: tests, vendored code, and Python outside packages.
fn skipped(language: Lang, path: &Path, root: &Path) -> bool {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    let in_dir = |dir: &str| path.components().any(|c| c.as_os_str() == dir);
    if in_dir("vendor") || in_dir("third_party") || in_dir("node_modules") {
        return true;
    }
    match language {
        Lang::Python => {
            let test = name.starts_with("test_") || name.ends_with("_test.py") || name == "conftest.py";
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

/// For a private Python module (`pkg/_impl.py`), the names its package's
/// `__init__.py` imports from it (`from ._impl import parse, Loader`);
/// `None` for a public module.
fn python_private_module(root: &Path, path: &Path) -> Option<Vec<String>> {
    let stem = path.file_stem()?.to_str()?;
    if stem == "__init__" || !stem.starts_with('_') {
        return None;
    }
    let init = std::fs::read(root.join(path.parent()?).join("__init__.py")).unwrap_or_default();
    let package = path.parent()?.file_name()?.to_str()?;
    let tree = Lang::Python.parse(&init)?;
    let root_node = tree.root_node();
    let mut cursor = root_node.walk();
    let mut names = Vec::new();
    for statement in root_node.named_children(&mut cursor) {
        if statement.kind() != "import_from_statement" {
            continue;
        }
        let module = statement
            .child_by_field_name("module_name")
            .and_then(|m| m.utf8_text(&init).ok())
            .unwrap_or("");
        if module != format!(".{stem}") && module != format!("{package}.{stem}") {
            continue;
        }
        let mut names_cursor = statement.walk();
        for name in statement.children_by_field_name("name", &mut names_cursor) {
            // `parse as load` imports `parse`.
            let name = match name.kind() {
                "aliased_import" => name.child_by_field_name("name").unwrap_or(name),
                _ => name,
            };
            if let Ok(text) = name.utf8_text(&init) {
                names.push(text.to_string());
            }
        }
    }
    Some(names)
}

/// Which ecosystems the repository publishes a package for.
struct Publishes {
    python: bool,
    javascript: bool,
    rust: bool,
}

impl Publishes {
    fn read(root: &Path) -> Publishes {
        let toml = |name: &str| -> Option<toml::Table> { std::fs::read_to_string(root.join(name)).ok()?.parse().ok() };
        let python = toml("pyproject.toml").is_some_and(|t| t.contains_key("project"));
        let javascript = std::fs::read_to_string(root.join("package.json"))
            .ok()
            .and_then(|text| serde_json::from_str::<serde_json::Value>(&text).ok())
            .is_some_and(|json| json.get("private") != Some(&serde_json::Value::Bool(true)));
        let rust = toml("Cargo.toml").is_some_and(|t| {
            t.get("package")
                .and_then(|p| p.as_table())
                .is_some_and(|p| match p.get("publish") {
                    Some(toml::Value::Boolean(b)) => *b,
                    Some(toml::Value::Array(registries)) => !registries.is_empty(),
                    _ => true,
                })
        });
        Publishes {
            python,
            javascript,
            rust,
        }
    }

    fn covers(&self, language: Lang) -> bool {
        match language {
            Lang::Python => self.python,
            Lang::JavaScript | Lang::TypeScript | Lang::Tsx => self.javascript,
            Lang::Rust => self.rust,
            Lang::Go => false,
        }
    }

    fn why(&self, language: Lang) -> &'static str {
        match language {
            Lang::Python => "deny: pyproject.toml publishes a package ([project])",
            Lang::Rust => "deny: Cargo.toml publishes a crate (no `publish = false`)",
            _ => "deny: package.json publishes a package (not \"private\": true)",
        }
    }
}

fn has_extension(path: &Path, extensions: &[&str]) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| extensions.contains(&e.to_ascii_lowercase().as_str()))
}

/// Is `path` (repo-relative) a README at the root?
fn is_readme(path: &Path) -> bool {
    let name = path.to_string_lossy().to_ascii_lowercase();
    name == "readme" || name.starts_with("readme.")
}

/// `docs/readme-missing`.
fn readme(root: &Path) -> Option<Finding> {
    let entries = std::fs::read_dir(root).ok()?;
    let mut names: Vec<String> = entries
        .filter_map(|e| e.ok())
        .filter(|e| e.file_type().is_ok_and(|t| t.is_file() || t.is_symlink()))
        .filter_map(|e| e.file_name().to_str().map(str::to_string))
        .filter(|n| is_readme(Path::new(n)) && root.join(n).is_file())
        .collect();
    names.sort();
    let Some(name) = names.first() else {
        return Some(Finding::new(&rules::README_MISSING, "no README at the repository root"));
    };
    // A README that cannot be read (no permission, a link out of the
    // repository, over the size cap) is not judged empty: it is skipped.
    let text = match crate::walk::read_file(root, Path::new(name)) {
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

/// `docs/stale`.
fn stale(cx: &Context<'_>, settings: &Settings, tracked: &[PathBuf], out: &mut GateOutput) -> Result<()> {
    let docs: Vec<&PathBuf> = tracked
        .iter()
        .filter(|p| settings.doc_paths.is_match(p) && !cx.exclude.is_match(p))
        .collect();
    if docs.is_empty() {
        return Ok(());
    }
    let history = cx.repo.first_parent_history(None, Some(HISTORY))?;
    if history.commits.len() <= settings.freshness {
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
    for (age, commit) in history.commits.iter().rev().enumerate() {
        if last.len() == docs.len() && age > settings.freshness {
            break;
        }
        let changes = cx.repo.commit_changes(commit.parent.as_deref(), &commit.id)?;
        let mut code = false;
        for change in &changes {
            let path = display_path(&change.path);
            if settings.doc_paths.is_match(&change.path) {
                if change.status != Status::Deleted {
                    last.entry(path).or_insert_with(|| Last {
                        age,
                        commit: commit.id.clone(),
                        summary: commit.summary.clone(),
                        code_after: code_commits,
                    });
                }
            } else if has_extension(&change.path, SOURCE) {
                code = true;
            }
        }
        if code {
            code_commits += 1;
        }
    }
    for doc in docs {
        let path = display_path(doc);
        let finding = match last.get(&path) {
            Some(l) if l.age > settings.freshness && l.code_after > 0 => Finding::new(
                &rules::STALE,
                format!(
                    "{path} was last changed {} commits ago ({} \"{}\"), and {} commit(s) since changed code",
                    l.age,
                    short(&l.commit),
                    l.summary,
                    l.code_after
                ),
            ),
            Some(_) => continue,
            None if code_commits > 0 => Finding::new(
                &rules::STALE,
                format!(
                    "{path} was last changed before the {} commits looked at, and {code_commits} commit(s) since changed code",
                    history.commits.len()
                ),
            ),
            None => continue,
        };
        out.findings.push(finding.in_file(path));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generated_and_vendored_files_are_not_an_api() {
        assert!(generated(
            b"// mkerrors.sh -m64\n// Code generated by the command above; DO NOT EDIT.\n\npackage syscall\n"
        ));
        assert!(!generated(
            b"package cart\n\n// Total is generated from the items; do not edit the cart meanwhile.\n"
        ));
        let root = Path::new("/nonexistent");
        assert!(skipped(Lang::Go, Path::new("cmd/vendor/golang.org/x/a.go"), root));
        assert!(skipped(Lang::Rust, Path::new("vendor/serde/src/lib.rs"), root));
        assert!(!skipped(Lang::Go, Path::new("cart/cart.go"), root));
    }
}
