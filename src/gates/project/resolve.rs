//! Module resolution, to answer one question: does this import bring in the
//! project's own (non-test) code?
//!
//! - JavaScript/TypeScript: relative specifiers (with the extensions a bundler
//!   or TypeScript tries, `.js` written for a `.ts` file, `index.*` and a
//!   `package.json` `main`), tsconfig/jsconfig `compilerOptions.paths` and
//!   `baseUrl`, and the package's own name (and its workspace packages' names,
//!   from every `package.json` outside `node_modules` that a walk of the repo finds).
//! - Python: relative imports; absolute imports whose first component is a
//!   package or module at the repository root, under `src/`, `lib/` or
//!   `python/`, the same under the directory of each `pyproject.toml` below
//!   the root (and its maturin `python-source`), or beside the test file
//!   (pytest's rootdir-relative imports).
//!
//! - Rust: `crate::`, `self::`, `super::` and `mod x;` paths, module by
//!   module (`a.rs`, `a/mod.rs`), from the file's crate root; a path whose
//!   first name is a crate of the workspace (each `Cargo.toml`'s package
//!   or `[lib]` name, `-` read as `_`) from that crate's `src/`.
//! - Go: `.` (the file's own package, for tests in the package they test)
//!   and import paths under a module of the repository (each `go.mod`),
//!   each naming a package directory; outside any module, a path ending
//!   with the name the test's package declares (see [`go`]).
//!
//! Test files and test-support directories (`tests/`, `test/`, `__tests__/`,
//! `testing/`, fixtures) are not the subject, wherever they resolve.

use std::path::{Component, Path, PathBuf};

use super::runners::Alias;
use crate::lang::{Import, ImportKind, Lang, Mock, MockTarget, TestFile};

mod go;

/// Where the code a mock replaces lives.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reach {
    /// The project's own (non-test) code: the repository-relative file it resolves to.
    Project(PathBuf),
    /// A third-party package, the standard library, a runtime global: an I/O boundary.
    Outside,
    /// A local object or something else that cannot be followed.
    Unknown,
}

/// Runtime globals a test may spy on without importing them.
const GLOBALS: &[&str] = &[
    "console",
    "window",
    "globalThis",
    "global",
    "process",
    "document",
    "navigator",
    "location",
    "localStorage",
    "sessionStorage",
    "Date",
    "Math",
    "JSON",
    "performance",
    "crypto",
    "Intl",
    "Promise",
    "XMLHttpRequest",
    "HTMLElement",
    "Element",
    "Object",
    "Array",
    "Reflect",
    "fetch",
    "setTimeout",
    "builtins",
];

const JS_EXTENSIONS: &[&str] = &[
    "ts", "tsx", "mts", "cts", "js", "jsx", "mjs", "cjs", "json", "vue", "svelte",
];
const PYTHON_ROOTS: &[&str] = &["", "src", "lib", "python"];

#[derive(Debug, Default)]
pub struct Resolver {
    /// Test-support files already followed: do they import project code?
    support: std::sync::Mutex<std::collections::HashMap<(PathBuf, u32), bool>>,
    /// What each path below the root already looked at is ([`Resolver::entry`]):
    /// every test file imports the same few modules.
    entries: std::sync::Mutex<std::collections::HashMap<PathBuf, Entry>>,
    /// What each specifier resolved to, per language and the directory it
    /// is written in (the file itself for Rust's `self`/`super`): a test
    /// suite imports the same modules from the same few directories.
    resolved: std::sync::Mutex<std::collections::HashMap<(Lang, PathBuf, String), Option<PathBuf>>>,
    root: PathBuf,
    /// tsconfig `paths`: (pattern, targets), relative to `base`.
    paths: Vec<(String, Vec<String>)>,
    base_url: Option<PathBuf>,
    /// The project's own packages: each package.json's `name`, with its directory.
    package_names: Vec<(String, PathBuf)>,
    /// The runner configs: their vite `resolve.alias` and jest
    /// `moduleNameMapper` apply to the files they govern.
    runners: std::sync::Arc<super::runners::Runners>,
    /// Rust crates of the workspace: (name as code spells it, package directory).
    crates: Vec<(String, PathBuf)>,
    /// Go modules of the repository: (module path, directory).
    go_modules: Vec<(String, PathBuf)>,
    /// Where the Python projects below the root keep their packages: each
    /// `pyproject.toml`'s directory, its `src/`, `lib/` and `python/`, and
    /// maturin's `python-source` (`pydantic-core/python`).
    python_roots: Vec<PathBuf>,
}

/// Build output folders an entry point names, whose sources sit elsewhere.
pub(crate) const BUILD_DIRS: &[&str] = &[
    "dist",
    "distribution",
    "build",
    "lib",
    "out",
    "esm",
    "cjs",
    "es",
    "module",
    "types",
    "dts",
];

/// A path below the repository root, as [`Resolver::entry`] found it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Entry {
    File,
    Dir,
    /// Missing, a symlink, or something else.
    Other,
}

impl Resolver {
    /// `manifests` are the repository's `Cargo.toml`, `go.mod` and
    /// `pyproject.toml` files (its `package.json` files are read once for
    /// all runs: [`Resolver::with_package_names`]).
    pub fn load(root: &Path, manifests: &[PathBuf], runners: std::sync::Arc<super::runners::Runners>) -> Resolver {
        let mut resolver = Resolver {
            root: root.to_path_buf(),
            runners,
            ..Resolver::default()
        };
        for name in ["tsconfig.json", "jsconfig.json", "tsconfig.base.json"] {
            if let Ok(text) = std::fs::read_to_string(root.join(name))
                && let Ok(json) = serde_json::from_str::<serde_json::Value>(&crate::formats::jsonc(&text))
            {
                let options = &json["compilerOptions"];
                let base = options["baseUrl"].as_str().map(|b| root.join(b));
                if let Some(paths) = options["paths"].as_object() {
                    for (pattern, targets) in paths {
                        let targets = targets
                            .as_array()
                            .map(|t| t.iter().filter_map(|v| v.as_str().map(str::to_string)).collect())
                            .unwrap_or_default();
                        resolver.paths.push((pattern.clone(), targets));
                    }
                }
                resolver.base_url = base.or_else(|| (!resolver.paths.is_empty()).then(|| root.to_path_buf()));
                break;
            }
        }
        for manifest in manifests {
            let dir = manifest.parent().unwrap_or(Path::new("")).to_path_buf();
            match manifest.file_name().and_then(|n| n.to_str()) {
                Some("Cargo.toml") => {
                    if let Some(name) = crate_name(&root.join(manifest)) {
                        resolver.crates.push((name, dir));
                    }
                    continue;
                }
                Some("pyproject.toml") => {
                    if dir.as_os_str().is_empty() {
                        continue;
                    }
                    let source = std::fs::read_to_string(root.join(manifest))
                        .ok()
                        .and_then(|text| toml::from_str::<toml::Table>(&text).ok())
                        .and_then(|t| {
                            t.get("tool")?
                                .get("maturin")?
                                .get("python-source")?
                                .as_str()
                                .map(str::to_string)
                        });
                    // Inside the repository whatever the file says (`/x`, `../..`).
                    let roots = source.into_iter().chain(PYTHON_ROOTS.iter().map(|r| (*r).to_string()));
                    resolver
                        .python_roots
                        .extend(roots.map(|r| normalize(&dir.join(r))).filter(|r| r.is_relative()));
                    continue;
                }
                Some("go.mod") => {
                    if let Ok(text) = std::fs::read_to_string(root.join(manifest))
                        && let Some(module) = go_module_path(&text)
                    {
                        resolver.go_modules.push((module, dir));
                    }
                    continue;
                }
                _ => {}
            }
        }
        resolver
    }

    /// The project's own packages (each `package.json`'s `name`, and its directory).
    pub fn with_package_names(mut self, names: Vec<(String, PathBuf)>) -> Resolver {
        self.package_names = names;
        self
    }

    /// The directory of the project's own package that `target` (as
    /// [`Resolver::project_file`] gives a package's self-name,
    /// `<package NAME>` or `<package NAME/sub>`) names: its entry points may
    /// re-export any module in it.
    pub fn package_dir(&self, target: &Path) -> Option<&Path> {
        let spec = target.to_str()?.strip_prefix("<package ")?.strip_suffix('>')?;
        self.package_names
            .iter()
            .find(|(name, _)| spec == name || spec.starts_with(&format!("{name}/")))
            .map(|(_, dir)| dir.as_path())
    }

    /// Does `import`, written in the repo-relative file `from`, resolve to project
    /// code, directly or through a test-support module that imports it
    /// (a hypothesis strategies module, a helper that does `from pkg import *`)?
    pub fn is_subject(&self, from: &Path, lang: Lang, import: &Import) -> bool {
        self.reaches(from, lang, import, 2)
    }

    /// Does `path`, a string in the test file `from`, name a project (non-test)
    /// file, relative to the test's directory or to the repository root
    /// (`"./src/color.ts"` handed to a bundler, `"../../mini/index.ts"`,
    /// `"api.mdx"` read beside the test)? Only regular files inside the
    /// repository count: an absolute path, or a symlink, names nothing.
    pub fn names_project_file(&self, from: &Path, path: &str) -> bool {
        let path = Path::new(path);
        if path.is_absolute()
            || path
                .components()
                .any(|c| matches!(c, Component::Prefix(_) | Component::RootDir))
        {
            return false;
        }
        let dir = from.parent().unwrap_or(Path::new(""));
        [dir.join(path), path.to_path_buf()].iter().any(|candidate| {
            let rel = normalize(candidate);
            !rel.as_os_str().is_empty() && !is_test_support(&rel) && self.is_file(&rel)
        })
    }

    /// What `rel` is, reached from the root through directories that are not
    /// symlinks, so no metadata outside the repository is ever read: a path
    /// with `..`, an absolute path or one through a symlink is
    /// [`Entry::Other`]. Each path is looked at once per run.
    fn entry(&self, rel: &Path) -> Entry {
        if rel.as_os_str().is_empty() {
            return Entry::Dir;
        }
        if !rel.components().all(|c| matches!(c, Component::Normal(_))) {
            return Entry::Other;
        }
        if let Some(known) = self.entries.lock().expect("resolver cache").get(rel) {
            return *known;
        }
        let entry = if self.entry(rel.parent().unwrap_or(Path::new(""))) != Entry::Dir {
            Entry::Other
        } else {
            match std::fs::symlink_metadata(self.root.join(rel)) {
                Ok(meta) if meta.is_file() => Entry::File,
                Ok(meta) if meta.is_dir() => Entry::Dir,
                _ => Entry::Other,
            }
        };
        self.entries
            .lock()
            .expect("resolver cache")
            .insert(rel.to_path_buf(), entry);
        entry
    }

    fn is_file(&self, rel: &Path) -> bool {
        self.entry(rel) == Entry::File
    }

    fn is_dir(&self, rel: &Path) -> bool {
        self.entry(rel) == Entry::Dir
    }

    /// Is `import` the test-support module the file `from` is named after
    /// (`mocker.test.ts` importing `./Mocker`)? A test of a test helper tests
    /// project code: the helper.
    pub fn is_helper_under_test(&self, from: &Path, lang: Lang, import: &Import) -> bool {
        let stem = |p: &Path| {
            let name = p
                .file_name()
                .and_then(|n| n.to_str())
                .unwrap_or_default()
                .to_lowercase();
            let name = name.split('.').next().unwrap_or_default().to_string();
            name.strip_prefix("test_").map(str::to_string).unwrap_or(name)
        };
        let own = stem(from);
        !own.is_empty()
            && import.kind == ImportKind::Static
            && self
                .resolve(from, lang, &import.specifier)
                .is_some_and(|target| target != from && !is_test_file_name(&target) && stem(&target) == own)
    }

    /// The project (non-test) file `spec` names, written in `from`.
    pub fn project_file(&self, from: &Path, lang: Lang, spec: &str) -> Option<PathBuf> {
        self.resolve(from, lang, spec).filter(|target| !is_test_support(target))
    }

    /// The repository file (or package) `spec` names, written in `from`.
    fn resolve(&self, from: &Path, lang: Lang, spec: &str) -> Option<PathBuf> {
        let base = match lang {
            Lang::Rust => from,
            _ => from.parent().unwrap_or(Path::new("")),
        };
        let key = (lang, base.to_path_buf(), spec.to_string());
        if let Some(known) = self.resolved.lock().expect("resolver cache").get(&key) {
            return known.clone();
        }
        let found = match lang {
            Lang::Python => self.python(from, spec),
            Lang::Rust => self.rust(from, spec),
            Lang::Go => self.go(from, spec),
            Lang::JavaScript | Lang::TypeScript | Lang::Tsx => self.javascript(from, spec),
        };
        self.resolved.lock().expect("resolver cache").insert(key, found.clone());
        found
    }

    /// Where the code a mock replaces lives.
    pub fn reach(&self, from: &Path, lang: Lang, file: &TestFile, mock: &Mock) -> Reach {
        let found = |spec: &str| match self.project_file(from, lang, spec) {
            Some(path) => Reach::Project(path),
            None => Reach::Outside,
        };
        match &mock.target {
            // A manual mock made from the project's own code (`__mocks__/client.ts`
            // returning a real client with test settings) replaces an accessor
            // with a real object, not the code under test with a fake.
            MockTarget::Module {
                specifier,
                automock: true,
                ..
            } if lang != Lang::Python
                && self
                    .project_file(from, lang, specifier)
                    .is_some_and(|module| self.manual_mock_of_project_code(&module)) =>
            {
                Reach::Unknown
            }
            MockTarget::Module { specifier, .. } | MockTarget::Path(specifier) => found(specifier),
            MockTarget::Member { object, .. } => {
                let head = object.split('.').next().unwrap_or(object).trim_end_matches("()");
                let binding = file.imports.iter().find_map(|import| {
                    let i = import.names.iter().position(|n| n == head)?;
                    Some((import, import.origins.get(i)?))
                });
                match binding {
                    Some((_, origin)) if lang == Lang::Python => found(origin),
                    Some((import, _)) => found(&import.specifier),
                    None if GLOBALS.contains(&head) => Reach::Outside,
                    None => Reach::Unknown,
                }
            }
        }
    }

    /// Does the manual mock of `module` (`__mocks__/<name>` beside it) import
    /// the project's own code?
    fn manual_mock_of_project_code(&self, module: &Path) -> bool {
        let (Some(dir), Some(stem)) = (module.parent(), module.file_stem()) else {
            return false;
        };
        let Some(manual) = self.file_or_dir(&dir.join("__mocks__").join(stem)) else {
            return false;
        };
        let Some(lang) = Lang::from_path(&manual) else {
            return false;
        };
        let Ok(bytes) = std::fs::read(self.root.join(&manual)) else {
            return false;
        };
        lang.imports(&bytes).is_some_and(|imports| {
            imports.iter().any(|import| {
                self.resolve(&manual, lang, &import.specifier)
                    .is_some_and(|target| !is_test_support(&target))
            })
        })
    }

    fn reaches(&self, from: &Path, lang: Lang, import: &Import, depth: u32) -> bool {
        // `from . import helpers, pkg`: each name is a module of the package.
        if lang == Lang::Python && !import.specifier.is_empty() && import.specifier.chars().all(|c| c == '.') {
            return import.names.iter().any(|name| {
                let module = Import {
                    specifier: format!("{}{name}", import.specifier),
                    ..import.clone()
                };
                self.reaches_one(from, lang, &module, depth)
            }) || self.reaches_one(from, lang, import, depth);
        }
        self.reaches_one(from, lang, import, depth)
    }

    fn reaches_one(&self, from: &Path, lang: Lang, import: &Import, depth: u32) -> bool {
        let Some(target) = self.resolve(from, lang, &import.specifier) else {
            return false;
        };
        if !is_test_support(&target) {
            return true;
        }
        depth > 0 && self.support_reaches(&target, depth - 1)
    }

    fn support_reaches(&self, target: &Path, depth: u32) -> bool {
        let key = (target.to_path_buf(), depth);
        if let Some(known) = self.support.lock().expect("resolver cache").get(&key) {
            return *known;
        }
        let reaches = Lang::from_path(target)
            .and_then(|lang| {
                let bytes = std::fs::read(self.root.join(target)).ok()?;
                let imports = lang.imports(&bytes)?;
                Some(imports.iter().any(|i| self.reaches(target, lang, i, depth)))
            })
            .unwrap_or(false);
        self.support.lock().expect("resolver cache").insert(key, reaches);
        reaches
    }

    fn javascript(&self, from: &Path, spec: &str) -> Option<PathBuf> {
        let dir = from.parent().unwrap_or(Path::new(""));
        if spec.starts_with('.') {
            let target = normalize(&dir.join(spec));
            return self.file_or_dir(&target).or_else(|| self.built(&target));
        }
        for (pattern, targets) in &self.paths {
            let captured = match pattern.strip_suffix('*') {
                Some(prefix) => spec.strip_prefix(prefix),
                None => (spec == pattern).then_some(""),
            };
            if let Some(rest) = captured {
                let base = self.base_url.as_deref().unwrap_or(&self.root);
                for target in targets {
                    let candidate = base.join(target.replace('*', rest));
                    if let Ok(rel) = candidate.strip_prefix(&self.root)
                        && let Some(found) = self.file_or_dir(&normalize(rel))
                    {
                        return Some(found);
                    }
                }
            }
        }
        for alias in self.runners.aliases_for(from) {
            let target = match alias {
                Alias::Prefix { find, replacement } => match spec.strip_prefix(find.as_str()) {
                    Some("") => Some(replacement.clone()),
                    Some(rest) if rest.starts_with('/') => Some(replacement.join(&rest[1..])),
                    _ => None,
                },
                Alias::Pattern { find, replacement } => find
                    .is_match(spec)
                    .then(|| PathBuf::from(find.replace(spec, replacement.as_str()).into_owned())),
            };
            if let Some(found) = target.and_then(|t| self.file_or_dir(&normalize(&t))) {
                return Some(found);
            }
        }
        if let Some(base) = &self.base_url
            && let Ok(rel) = base.join(spec).strip_prefix(&self.root)
            && let Some(found) = self.file_or_dir(&normalize(rel))
        {
            return Some(found);
        }
        // The package's own name (self-reference) or a workspace package.
        let is_own = self
            .package_names
            .iter()
            .any(|(name, _)| spec == name || spec.starts_with(&format!("{name}/")));
        is_own.then(|| PathBuf::from(format!("<package {spec}>")))
    }

    /// The project's package whose build output `target` (a path the
    /// repository does not have) is: one under a build folder of the
    /// package's directory (`require('../dist/clsx')`, what `npm run build`
    /// writes before the tests run), as [`Resolver::package_dir`] names it.
    fn built(&self, target: &Path) -> Option<PathBuf> {
        self.package_names
            .iter()
            .filter(|(_, dir)| {
                target
                    .strip_prefix(dir)
                    .ok()
                    .and_then(|rest| rest.iter().next())
                    .is_some_and(|first| {
                        first.to_str().is_some_and(|f| BUILD_DIRS.contains(&f))
                            && self.entry(&dir.join(first)) != Entry::File
                    })
            })
            // The innermost package.
            .max_by_key(|(_, dir)| dir.components().count())
            .map(|(name, _)| PathBuf::from(format!("<package {name}>")))
    }

    /// `x`, `x.ts` (and friends), `x.js` meaning `x.ts`, `x/index.*`, `x/package.json` main.
    fn file_or_dir(&self, rel: &Path) -> Option<PathBuf> {
        let exists = |p: &Path| self.is_file(p);
        if exists(rel) {
            return Some(rel.to_path_buf());
        }
        let with_ext = |base: &Path| {
            JS_EXTENSIONS
                .iter()
                .map(|e| PathBuf::from(format!("{}.{e}", base.display())))
                .find(|p| exists(p))
        };
        if let Some(found) = with_ext(rel) {
            return Some(found);
        }
        // TypeScript's ESM convention: `./x.js` names `./x.ts`.
        if let Some(ext) = rel.extension().and_then(|e| e.to_str())
            && matches!(ext, "js" | "jsx" | "mjs" | "cjs")
            && let Some(found) = with_ext(&rel.with_extension(""))
        {
            return Some(found);
        }
        if self.is_dir(rel) {
            if self.is_file(&rel.join("package.json"))
                && let Ok(text) = std::fs::read_to_string(self.root.join(rel).join("package.json"))
                && let Ok(json) = serde_json::from_str::<serde_json::Value>(&text)
                && let Some(main) = json["main"].as_str().or(json["module"].as_str())
                && let Some(found) = {
                    // Or the package, when its entry point is build output
                    // the repository does not hold (`require('../')` with
                    // `"main": "./dist/cjs/index.js"`).
                    let main = normalize(&rel.join(main));
                    self.file_or_dir(&main).or_else(|| self.built(&main))
                }
            {
                return Some(found);
            }
            return with_ext(&rel.join("index"));
        }
        None
    }

    fn python(&self, from: &Path, spec: &str) -> Option<PathBuf> {
        let dots = spec.chars().take_while(|c| *c == '.').count();
        let module = &spec[dots..];
        let parts: Vec<&str> = module.split('.').filter(|p| !p.is_empty()).collect();
        if dots > 0 {
            let mut dir = from.parent().unwrap_or(Path::new("")).to_path_buf();
            for _ in 1..dots {
                dir.pop();
            }
            return self
                .python_module(&dir, &parts)
                .or_else(|| parts.is_empty().then_some(dir));
        }
        let beside = from.parent().unwrap_or(Path::new("")).to_path_buf();
        PYTHON_ROOTS
            .iter()
            .map(PathBuf::from)
            .chain(self.python_roots.iter().cloned())
            .chain(std::iter::once(beside))
            .find_map(|root| self.python_module(&root, &parts))
    }

    /// The file for `parts` under `dir`: the longest existing prefix
    /// (`pkg/mod.py`, `pkg/mod/__init__.py`, or `pkg/__init__.py` for a name inside it).
    fn python_module(&self, dir: &Path, parts: &[&str]) -> Option<PathBuf> {
        let first = parts.first()?;
        let head = dir.join(first);
        let is_file = |p: &Path| self.is_file(p);
        if is_file(&head.with_extension("py")) {
            return Some(head.with_extension("py"));
        }
        if !self.is_dir(&head) {
            return None;
        }
        let mut current = head;
        let mut found = is_file(&current.join("__init__.py")).then(|| current.join("__init__.py"));
        for part in &parts[1..] {
            let next = current.join(part);
            if is_file(&next.with_extension("py")) {
                return Some(next.with_extension("py"));
            }
            if !self.is_dir(&next) {
                break;
            }
            current = next;
            if is_file(&current.join("__init__.py")) {
                found = Some(current.join("__init__.py"));
            }
        }
        // A namespace package (no __init__.py) still holds project code.
        found.or(Some(current))
    }
}

impl Resolver {
    /// The file a Rust path names, written in `from`: the deepest module
    /// file the path reaches (an item inside a module resolves to the module).
    fn rust(&self, from: &Path, spec: &str) -> Option<PathBuf> {
        let parts: Vec<&str> = spec.split("::").filter(|p| !p.is_empty()).collect();
        let (first, rest) = parts.split_first()?;
        match *first {
            "crate" => {
                let root = self.rust_crate_root(from);
                self.rust_module(&root, rest).or(Some(root))
            }
            // `super` from a test module is the file it sits in; `self::x` (and
            // `mod x;`) is a module below the file. `use super::*` written in
            // a module file of its own (`tests/functional/glob.rs`) is its
            // parent's: the file that declares it (`tests/functional/main.rs`).
            "super" if rest.is_empty() => self.rust_parent_module(from).or_else(|| Some(from.to_path_buf())),
            "self" | "super" => self.rust_module(from, rest).or_else(|| Some(from.to_path_buf())),
            name => {
                let (_, dir) = self.crates.iter().find(|(n, _)| n == name)?;
                let root = self.lib_root(dir)?;
                self.rust_module(&root, rest).or(Some(root))
            }
        }
    }

    /// The module file that declares the module file `from` (`dir/x.rs`):
    /// `dir/mod.rs`, `dir/main.rs`, `dir/lib.rs` or `dir.rs`; `None` for a
    /// crate root or a `mod.rs`.
    fn rust_parent_module(&self, from: &Path) -> Option<PathBuf> {
        let stem = from.file_stem()?.to_str()?;
        if matches!(stem, "mod" | "main" | "lib") || self.rust_crate_root(from) == from {
            return None;
        }
        let dir = from.parent()?;
        let beside = ["mod.rs", "main.rs", "lib.rs"].iter().map(|f| dir.join(f));
        let named = dir
            .file_name()
            .map(|n| dir.with_file_name(format!("{}.rs", n.to_string_lossy())));
        beside.chain(named).find(|p| p != from && self.is_file(p))
    }

    /// The crate root of `from`: a file directly in a package's `tests/` is
    /// its own crate; otherwise the `src/lib.rs` (or `main.rs`) of its
    /// package. A `tests` module under `src/` (`src/tests/all.rs`, issue 64:
    /// bitflags) is part of the library crate.
    fn rust_crate_root(&self, from: &Path) -> PathBuf {
        let in_src = in_crate_src(from);
        let in_tests = from.parent().and_then(|p| p.file_name()).is_some_and(|n| n == "tests");
        if in_tests && !in_src {
            return from.to_path_buf();
        }
        // `tests/it/x.rs` belongs to the test crate `tests/it.rs` or `tests/it/main.rs`.
        let mut dir = from.parent().filter(|_| !in_src);
        while let Some(d) = dir {
            if let Some(tests) = d.parent().filter(|t| t.file_name().is_some_and(|n| n == "tests"))
                && let Some(name) = d.file_name().and_then(|n| n.to_str())
            {
                for root in [tests.join(format!("{name}.rs")), d.join("main.rs"), d.join("mod.rs")] {
                    if self.is_file(&root) {
                        return root;
                    }
                }
            }
            dir = d.parent();
        }
        let mut dir = from.parent();
        while let Some(d) = dir {
            if d.file_name().is_some_and(|n| n == "src")
                && let Some(root) = ["lib.rs", "main.rs"]
                    .iter()
                    .map(|f| d.join(f))
                    .find(|p| self.is_file(p))
            {
                return root;
            }
            dir = d.parent();
        }
        from.to_path_buf()
    }

    fn lib_root(&self, package: &Path) -> Option<PathBuf> {
        ["src/lib.rs", "lib.rs", "src/main.rs"]
            .iter()
            .map(|f| package.join(f))
            .find(|p| self.is_file(p))
    }

    /// The deepest module file `parts` names below the module file `file`:
    /// a `#[path = ".."] mod` in it, else `a.rs` or `a/mod.rs` in its module directory.
    fn rust_module(&self, file: &Path, parts: &[&str]) -> Option<PathBuf> {
        let mut found = None;
        let mut file = file.to_path_buf();
        for part in parts {
            let dir = rust_module_dir(&file);
            let next = self
                .path_attribute(&file, part)
                .or_else(|| Some(dir.join(format!("{part}.rs"))).filter(|f| self.is_file(f)))
                .or_else(|| Some(dir.join(part).join("mod.rs")).filter(|f| self.is_file(f)));
            let Some(next) = next else { break };
            found = Some(next.clone());
            file = next;
        }
        found
    }

    /// `#[path = "x.rs"] mod name;` in `file`: the file it names, relative to `file`'s directory.
    fn path_attribute(&self, file: &Path, name: &str) -> Option<PathBuf> {
        static PATH_MOD: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
            regex::Regex::new(r#"#\[\s*path\s*=\s*"([^"]+)"\s*\]\s*(?:pub(?:\([^)]*\))?\s+)?mod\s+(\w+)\s*;"#)
                .expect("path attribute pattern")
        });
        let text = std::fs::read_to_string(self.root.join(file)).ok()?;
        if !text.contains("#[path") {
            return None;
        }
        let dir = file.parent().unwrap_or(Path::new(""));
        PATH_MOD
            .captures_iter(&text)
            .find(|c| &c[2] == name)
            .map(|c| normalize(&dir.join(&c[1])))
            .filter(|p| self.is_file(p))
    }
}

/// The directory a Rust file's child modules live in: beside a crate root
/// or `mod.rs`, in a directory named after the file otherwise.
fn rust_module_dir(file: &Path) -> PathBuf {
    let dir = file.parent().unwrap_or(Path::new(""));
    let stem = file.file_stem().and_then(|s| s.to_str()).unwrap_or("");
    let crate_root_in_tests = dir.file_name().is_some_and(|n| n == "tests");
    if matches!(stem, "lib" | "main" | "mod") || crate_root_in_tests {
        dir.to_path_buf()
    } else {
        dir.join(stem)
    }
}

/// The name code spells a crate by: `[lib] name`, else the package name with `-` as `_`.
fn crate_name(manifest: &Path) -> Option<String> {
    let doc = std::fs::read_to_string(manifest).ok()?.parse::<toml::Table>().ok()?;
    let lib = doc.get("lib").and_then(|l| l.get("name")).and_then(|n| n.as_str());
    let package = doc.get("package").and_then(|p| p.get("name")).and_then(|n| n.as_str());
    lib.or(package).map(|n| n.replace('-', "_"))
}

/// Is `path` (a Rust file) under a crate's `src/` tree: a module of the
/// crate, even in a `tests` directory there (`src/tests/eq.rs`), not a
/// test crate of its own as a file in the package's `tests/` is.
pub(crate) fn in_crate_src(path: &Path) -> bool {
    path.ancestors()
        .skip(1)
        .any(|a| a.file_name().is_some_and(|n| n == "src"))
}

/// Test files and test-support directories are not the code under test.
pub(crate) fn is_test_support(path: &Path) -> bool {
    let components: Vec<String> = path
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    let name = components.last().cloned().unwrap_or_default();
    components[..components.len().saturating_sub(1)].iter().any(|d| {
        matches!(
            d.as_str(),
            "tests" | "test" | "__tests__" | "testing" | "fixtures" | "__fixtures__" | "__mocks__"
        )
    }) || name.starts_with("test_")
        || name.contains(".test.")
        || name.contains(".spec.")
        || name == "conftest.py"
}

/// Is this file a test by its name (`x.test.ts`, `x.spec.js`, `test_x.py`, `x_test.go`)?
fn is_test_file_name(path: &Path) -> bool {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or_default();
    name.contains(".test.") || name.contains(".spec.") || name.starts_with("test_") || name.ends_with("_test.go")
}

/// Drop `.` and `..` without touching the file system.
pub(crate) fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

/// The module path a `go.mod`'s text declares.
pub(crate) fn go_module_path(text: &str) -> Option<String> {
    text.lines()
        .find_map(|l| l.trim().strip_prefix("module "))
        .map(|m| m.trim().trim_matches('"').to_string())
}

#[cfg(test)]
mod tests {
    #[test]
    fn json_comments_and_trailing_commas_are_removed() {
        let text = "{\n // c\n \"a\": \"//not a comment\", /* b */ \"c\": [1,],\n}";
        let v: serde_json::Value = serde_json::from_str(&crate::formats::jsonc(text)).unwrap();
        assert_eq!(v["a"], "//not a comment");
    }
}
