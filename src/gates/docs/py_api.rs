//! The published API of a Python distribution:
//!
//! - which import packages its build ships ([`Dist`]): read from
//!   `pyproject.toml` (setuptools, hatch, flit, poetry, pdm, maturin),
//!   `setup.cfg`, or a `setup.py`'s literal arguments, falling back to
//!   setuptools' own discovery (a `src/` layout, or the top-level packages
//!   that are not tests, docs, examples, scripts and the like);
//! - what a private module (`pkg/_impl.py`, `pkg/_sub/x.py`) gives the
//!   public package above it ([`Modules::exposed`]): the names that
//!   package's namespace takes from it, through `from ._impl import a as b`,
//!   `from ._sub import *` and the chains of them, as `__all__` says;
//! - which base-class method documents an override
//!   ([`Modules::inherits_doc`]): `help()` and Sphinx show the first
//!   docstring up the class's bases.
//!
//! Nothing is run: `setup.py` is read as text, never executed, and only
//! files inside the repository are opened.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Component, Path, PathBuf};
use std::rc::Rc;

use crate::lang::Lang;
use crate::lang::syntax::Node;

/// Folders setuptools' flat-layout discovery never takes for a package
/// (its `FlatLayoutPackageFinder` list, in short), nor this gate.
const NOT_PACKAGES: &[&str] = &[
    "bin",
    "build",
    "ci",
    "debian",
    "dist",
    "doc",
    "docs",
    "documentation",
    "env",
    "example",
    "examples",
    "benchmark",
    "benchmarks",
    "manpages",
    "news",
    "newsfragments",
    "changelog",
    "requirements",
    "scripts",
    "site_scons",
    "tasks",
    "test",
    "tests",
    "tools",
    "unit_test",
    "unit_tests",
    "util",
    "utils",
    "venv",
];

/// Top-level modules a flat layout never ships.
const NOT_MODULES: &[&str] = &[
    "setup", "conftest", "noxfile", "toxfile", "fabfile", "tasks", "dodo", "pavement", "manage", "test", "tests",
];

/// At most this many package folders are listed to discover a distribution's packages.
const MAX_PACKAGES: usize = 5_000;

/// How deep imports and base classes are followed.
const MAX_DEPTH: usize = 12;

/// The import packages and modules a distribution ships, repo-relative.
#[derive(Debug, Default)]
pub struct Dist {
    /// A package folder and everything under it.
    trees: Vec<PathBuf>,
    /// One package folder (its own modules, not its sub-packages: a package
    /// listed by name, or found by `find_packages`), or one module file.
    exact: Vec<PathBuf>,
    /// The configuration that says so, for the note.
    pub source: String,
}

impl Dist {
    /// Does the distribution ship the module at `path` (repo-relative)?
    pub fn ships(&self, path: &Path) -> bool {
        self.trees.iter().any(|t| path.starts_with(t))
            || self
                .exact
                .iter()
                .any(|e| path == e || path.parent().is_some_and(|p| p == e))
    }

    /// What the distribution in `dir` (repo-relative, where its
    /// `pyproject.toml`, `setup.cfg` or `setup.py` is) ships.
    pub fn read(root: &Path, dir: &Path) -> Dist {
        let read = |name: &str| {
            crate::walk::read_file(root, &dir.join(name))
                .ok()
                .and_then(|b| String::from_utf8(b).ok())
        };
        let pyproject: Option<toml::Table> = read("pyproject.toml").and_then(|t| t.parse().ok());
        let shown = |name: &str| crate::git::display_path(&dir.join(name));
        let mut dist = Dist::default();
        let finder = Finder { root, dir };
        if let Some(t) = &pyproject
            && finder.pyproject(t, &mut dist)
        {
            dist.source = shown("pyproject.toml");
            return dist;
        }
        if let Some(cfg) = read("setup.cfg")
            && finder.setup_cfg(&cfg, &mut dist)
        {
            dist.source = shown("setup.cfg");
            return dist;
        }
        if let Some(py) = read("setup.py")
            && finder.setup_py(&py, &mut dist)
        {
            dist.source = shown("setup.py");
            return dist;
        }
        // setuptools' automatic discovery: a `src/` layout, else the flat one.
        finder.discover(&mut dist);
        dist.source = format!("{} (automatic discovery)", shown(""));
        dist
    }
}

/// The normalised import name of a project name (`my-project` -> `my_project`).
fn import_name(project: &str) -> String {
    project
        .trim()
        .chars()
        .map(|c| {
            if c == '-' || c == '.' {
                '_'
            } else {
                c.to_ascii_lowercase()
            }
        })
        .collect()
}

/// A relative path from a configuration file, if it stays inside its folder.
fn relative(path: &str) -> Option<PathBuf> {
    let path = Path::new(path.trim().trim_start_matches("./").trim_end_matches('/'));
    let plain = path.components().all(|c| matches!(c, Component::Normal(_)));
    (plain && !path.as_os_str().is_empty()).then(|| path.to_path_buf())
}

fn strings(value: Option<&toml::Value>) -> Vec<String> {
    match value {
        Some(toml::Value::Array(items)) => items.iter().filter_map(|v| v.as_str()).map(str::to_string).collect(),
        Some(toml::Value::String(s)) => vec![s.clone()],
        _ => Vec::new(),
    }
}

fn table<'t>(t: &'t toml::Table, path: &[&str]) -> Option<&'t toml::Table> {
    path.iter().try_fold(t, |t, key| t.get(*key)?.as_table())
}

/// Finds a distribution's packages under its folder.
struct Finder<'r> {
    root: &'r Path,
    dir: &'r Path,
}

impl Finder<'_> {
    fn is_package(&self, rel: &Path) -> bool {
        crate::walk::inside(self.root, &rel.join("__init__.py")).is_ok()
            && self.root.join(rel).join("__init__.py").is_file()
    }

    fn is_file(&self, rel: &Path) -> bool {
        crate::walk::inside(self.root, rel).is_ok() && self.root.join(rel).is_file()
    }

    /// The package or module named `name` at the folder's root or in `src/`.
    fn named(&self, name: &str, dist: &mut Dist) -> bool {
        for base in ["", "src"] {
            let at = self.dir.join(base).join(name);
            if self.is_package(&at) {
                dist.trees.push(at);
                return true;
            }
            let module = self.dir.join(base).join(format!("{name}.py"));
            if self.is_file(&module) {
                dist.exact.push(module);
                return true;
            }
        }
        false
    }

    /// Folders listed as paths (`packages = ["src/foo"]`), each shipped whole.
    fn paths(&self, paths: &[String], dist: &mut Dist) -> bool {
        for path in paths {
            // A glob (`foo/**/*.py`) names its first plain folder.
            let plain: String = path.split(['*', '?', '[']).next().unwrap_or("").to_string();
            if let Some(rel) = relative(&plain) {
                let at = self.dir.join(rel);
                if at.extension().is_some_and(|e| e == "py") {
                    dist.exact.push(at);
                } else {
                    dist.trees.push(at);
                }
            }
        }
        !dist.trees.is_empty() || !dist.exact.is_empty()
    }

    /// Dotted package names (`packages = ["foo", "foo.sub"]`) under `base`.
    fn dotted(&self, base: &Path, names: &[String], dist: &mut Dist) {
        for name in names {
            if let Some(rel) = relative(&name.replace('.', "/")) {
                dist.exact.push(self.dir.join(base).join(rel));
            }
        }
    }

    fn pyproject(&self, t: &toml::Table, dist: &mut Dist) -> bool {
        let project = table(t, &["project"])
            .and_then(|p| p.get("name"))
            .or_else(|| table(t, &["tool", "poetry"]).and_then(|p| p.get("name")))
            .and_then(|n| n.as_str())
            .map(import_name);
        let backend = table(t, &["build-system"])
            .and_then(|b| b.get("build-backend"))
            .and_then(|b| b.as_str())
            .unwrap_or("");
        // hatch
        if let Some(wheel) = table(t, &["tool", "hatch", "build", "targets", "wheel"]) {
            let listed: Vec<String> = ["packages", "only-include"]
                .iter()
                .flat_map(|k| strings(wheel.get(*k)))
                .collect();
            if self.paths(&listed, dist) {
                return true;
            }
        }
        // flit
        if let Some(module) = table(t, &["tool", "flit", "module"])
            .and_then(|m| m.get("name"))
            .and_then(|n| n.as_str())
        {
            return self.named(module.split('.').next().unwrap_or(module), dist);
        }
        // poetry
        if let Some(packages) = table(t, &["tool", "poetry"])
            .and_then(|p| p.get("packages"))
            .and_then(|p| p.as_array())
        {
            for package in packages.iter().filter_map(|p| p.as_table()) {
                let include = package.get("include").and_then(|i| i.as_str()).unwrap_or("");
                let from = package.get("from").and_then(|f| f.as_str()).unwrap_or("");
                let path = if from.is_empty() {
                    include.to_string()
                } else {
                    format!("{from}/{include}")
                };
                self.paths(&[path], dist);
            }
            if !dist.trees.is_empty() || !dist.exact.is_empty() {
                return true;
            }
        }
        // maturin: the Python source folder, and the module's top package in it
        if let Some(maturin) = table(t, &["tool", "maturin"]) {
            let source = maturin.get("python-source").and_then(|s| s.as_str()).unwrap_or("");
            let module = maturin
                .get("module-name")
                .and_then(|m| m.as_str())
                .map(|m| m.split('.').next().unwrap_or(m).to_string())
                .or(project.clone());
            let mut listed = strings(maturin.get("python-packages"));
            listed.extend(module);
            let base = relative(source).unwrap_or_default();
            for name in &listed {
                let at = self.dir.join(&base).join(name);
                if self.is_package(&at) {
                    dist.trees.push(at);
                }
            }
            return true;
        }
        // pdm
        if let Some(build) = table(t, &["tool", "pdm", "build"]) {
            let listed = strings(build.get("includes"));
            if self.paths(&listed, dist) {
                return true;
            }
            if let Some(base) = build.get("package-dir").and_then(|d| d.as_str()).and_then(relative) {
                self.find(&base, &["*".into()], &[], dist);
                return true;
            }
        }
        // setuptools
        if let Some(setuptools) = table(t, &["tool", "setuptools"]) {
            let base = table(setuptools, &["package-dir"])
                .and_then(|d| d.get(""))
                .and_then(|d| d.as_str())
                .and_then(relative)
                .unwrap_or_default();
            if let Some(find) = table(setuptools, &["packages", "find"]) {
                let wheres = strings(find.get("where"));
                let include = strings(find.get("include"));
                let include = if include.is_empty() {
                    vec!["*".to_string()]
                } else {
                    include
                };
                let exclude = strings(find.get("exclude"));
                let wheres = if wheres.is_empty() {
                    vec![".".to_string()]
                } else {
                    wheres
                };
                for w in wheres {
                    let at = if w == "." { Some(PathBuf::new()) } else { relative(&w) };
                    if let Some(at) = at {
                        self.find(&at, &include, &exclude, dist);
                    }
                }
                return true;
            }
            let listed = strings(setuptools.get("packages"));
            let modules = strings(setuptools.get("py-modules"));
            self.dotted(&base, &listed, dist);
            for module in &modules {
                if let Some(rel) = relative(&format!("{}.py", module.replace('.', "/"))) {
                    dist.exact.push(self.dir.join(&base).join(rel));
                }
            }
            if !listed.is_empty() || !modules.is_empty() {
                return true;
            }
        }
        // hatch, flit, poetry and pdm default to the package named after the project.
        let by_name = ["hatchling", "flit", "poetry", "pdm"]
            .iter()
            .any(|b| backend.contains(b))
            || table(t, &["tool", "poetry"]).is_some();
        if by_name && let Some(name) = &project {
            return self.named(name, dist);
        }
        false
    }

    /// `setup.cfg`'s `[options]`: `packages` (a list, or `find:`),
    /// `package_dir`, `py_modules`, `[options.packages.find]`.
    fn setup_cfg(&self, text: &str, dist: &mut Dist) -> bool {
        let cfg = ini(text);
        let get = |section: &str, key: &str| cfg.get(&(section.to_string(), key.to_string())).map(String::as_str);
        let list = |value: Option<&str>| -> Vec<String> {
            value
                .unwrap_or("")
                .split(['\n', ','])
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(str::to_string)
                .collect()
        };
        let base = get("options", "package_dir")
            .and_then(|d| d.split('\n').map(str::trim).find_map(|l| l.strip_prefix('=')))
            .and_then(relative)
            .unwrap_or_default();
        let packages = get("options", "packages").unwrap_or("").trim();
        if packages.starts_with("find:") || packages.starts_with("find_namespace:") {
            let at = get("options.packages.find", "where").and_then(relative).unwrap_or(base);
            let include = list(get("options.packages.find", "include"));
            let include = if include.is_empty() {
                vec!["*".to_string()]
            } else {
                include
            };
            self.find(&at, &include, &list(get("options.packages.find", "exclude")), dist);
            return true;
        }
        let listed = list(Some(packages));
        let modules = list(get("options", "py_modules"));
        self.dotted(&base, &listed, dist);
        for module in &modules {
            if let Some(rel) = relative(&format!("{module}.py")) {
                dist.exact.push(self.dir.join(&base).join(rel));
            }
        }
        !listed.is_empty() || !modules.is_empty()
    }

    /// A `setup.py`'s literal `packages=[..]`, `package_dir={"": "src"}`,
    /// `find_packages(..)` and `py_modules=[..]` (read as text, never run).
    fn setup_py(&self, text: &str, dist: &mut Dist) -> bool {
        let literal = |key: &str| -> Option<Vec<String>> {
            let at = text.find(&format!("{key}="))? + key.len() + 1;
            let rest = text[at..].trim_start();
            let list = rest.strip_prefix('[')?;
            let end = list.find(']')?;
            Some(
                list[..end]
                    .split(',')
                    .map(|s| s.trim().trim_matches(['"', '\'']).to_string())
                    .filter(|s| !s.is_empty())
                    .collect(),
            )
        };
        let base = text
            .find("package_dir")
            .and_then(|at| {
                let rest = &text[at..];
                let open = rest.find('{')?;
                let close = rest.find('}')?;
                let inner = rest.get(open + 1..close)?;
                let (key, value) = inner.split_once(':')?;
                let key = key.trim().trim_matches(['"', '\'']);
                key.is_empty().then(|| {
                    value
                        .trim()
                        .trim_end_matches(',')
                        .trim()
                        .trim_matches(['"', '\''])
                        .to_string()
                })
            })
            .and_then(|d| relative(&d))
            .unwrap_or_default();
        if let Some(at) = text
            .find("find_packages(")
            .or_else(|| text.find("find_namespace_packages("))
        {
            let args = &text[at..];
            let args = &args[args.find('(').unwrap_or(0) + 1..args.find(')').unwrap_or(args.len())];
            // `find_packages("src")` or `where="src"`; `exclude=[..]`.
            let first = args.split(',').next().unwrap_or("").trim();
            let place = first
                .strip_prefix("where=")
                .unwrap_or(if first.contains('=') { "" } else { first })
                .trim_matches(['"', '\'']);
            let at = relative(place).unwrap_or(base);
            let exclude: Vec<String> = args
                .find("exclude")
                .and_then(|e| {
                    let rest = &args[e..];
                    let open = rest.find(['[', '('])?;
                    let close = rest.rfind([']', ')']).unwrap_or(rest.len());
                    Some(
                        rest.get(open + 1..close)?
                            .split(',')
                            .map(|s| s.trim().trim_matches(['"', '\'']).to_string())
                            .filter(|s| !s.is_empty())
                            .collect(),
                    )
                })
                .unwrap_or_default();
            self.find(&at, &["*".to_string()], &exclude, dist);
            return true;
        }
        let listed = literal("packages").unwrap_or_default();
        let modules = literal("py_modules").unwrap_or_default();
        self.dotted(&base, &listed, dist);
        for module in &modules {
            if let Some(rel) = relative(&format!("{module}.py")) {
                dist.exact.push(self.dir.join(&base).join(rel));
            }
        }
        !listed.is_empty() || !modules.is_empty()
    }

    /// Every package under `base` (`find_packages`), by dotted name
    /// matched against `include` and `exclude` (`fnmatch` patterns).
    fn find(&self, base: &Path, include: &[String], exclude: &[String], dist: &mut Dist) {
        let matcher = |patterns: &[String]| {
            let mut set = globset::GlobSetBuilder::new();
            for p in patterns {
                if let Ok(glob) = globset::Glob::new(p) {
                    set.add(glob);
                }
            }
            set.build().unwrap_or_else(|_| globset::GlobSet::empty())
        };
        let (include, exclude) = (matcher(include), matcher(exclude));
        let top = self.dir.join(base);
        let mut stack = vec![(top.clone(), String::new())];
        let mut seen = 0;
        while let Some((folder, dotted)) = stack.pop() {
            let Ok(entries) = std::fs::read_dir(self.root.join(&folder)) else {
                continue;
            };
            let mut names: Vec<String> = entries
                .filter_map(|e| e.ok())
                .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
                .filter_map(|e| e.file_name().into_string().ok())
                .collect();
            names.sort();
            for name in names {
                let at = folder.join(&name);
                if !self.is_package(&at) || !name.chars().all(|c| c.is_alphanumeric() || c == '_') {
                    continue;
                }
                seen += 1;
                if seen > MAX_PACKAGES {
                    return;
                }
                let full = if dotted.is_empty() {
                    name.clone()
                } else {
                    format!("{dotted}.{name}")
                };
                if include.is_match(&full) && !exclude.is_match(&full) {
                    dist.exact.push(at.clone());
                }
                stack.push((at, full));
            }
        }
    }

    /// setuptools' automatic discovery: every package in `src/` when it has
    /// one, else the top-level packages and modules of a flat layout that
    /// are not tests, docs, tools and the like.
    fn discover(&self, dist: &mut Dist) {
        self.find(Path::new("src"), &["*".to_string()], &[], dist);
        if !dist.exact.is_empty() {
            return;
        }
        let Ok(entries) = std::fs::read_dir(self.root.join(self.dir)) else {
            return;
        };
        let mut names: Vec<(String, bool)> = entries
            .filter_map(|e| e.ok())
            .filter_map(|e| Some((e.file_name().into_string().ok()?, e.file_type().ok()?.is_dir())))
            .collect();
        names.sort();
        for (name, folder) in names {
            if name.starts_with(['.', '_']) {
                continue;
            }
            if folder {
                let at = self.dir.join(&name);
                if !NOT_PACKAGES.contains(&name.as_str()) && self.is_package(&at) {
                    dist.trees.push(at);
                }
            } else if let Some(stem) = name.strip_suffix(".py")
                && !NOT_MODULES.contains(&stem)
            {
                dist.exact.push(self.dir.join(&name));
            }
        }
    }
}

/// An INI file as (section, key) -> value, continuation lines joined with
/// newlines (what `setup.cfg` needs: no interpolation, no escapes).
fn ini(text: &str) -> HashMap<(String, String), String> {
    let mut out: HashMap<(String, String), String> = HashMap::new();
    let mut section = String::new();
    let mut key: Option<String> = None;
    for line in text.lines() {
        let trimmed = line.trim();
        if trimmed.starts_with(['#', ';']) {
            continue;
        }
        if line.starts_with([' ', '\t']) && !trimmed.is_empty() {
            if let Some(k) = &key
                && let Some(value) = out.get_mut(&(section.clone(), k.clone()))
            {
                value.push('\n');
                value.push_str(trimmed);
            }
            continue;
        }
        if let Some(name) = trimmed.strip_prefix('[').and_then(|s| s.strip_suffix(']')) {
            section = name.trim().to_string();
            key = None;
        } else if let Some((k, v)) = trimmed.split_once(['=', ':']) {
            let k = k.trim().to_string();
            out.insert((section.clone(), k.clone()), v.trim().to_string());
            key = Some(k);
        }
    }
    out
}

/// What a folder's Python build configuration says about publishing.
pub enum Published {
    /// No Python build configuration here.
    Nothing,
    /// A distribution that is never uploaded (`Private :: Do Not Upload`,
    /// poetry's `package-mode = false`).
    Private,
    /// A distribution, with the file that declares it.
    Yes(String),
}

/// Whether the folder `dir` (absolute) declares a Python distribution.
pub fn published(dir: &Path, shown: &Path) -> Published {
    let read = |name: &str| {
        crate::walk::read_file(dir, Path::new(name))
            .ok()
            .and_then(|b| String::from_utf8(b).ok())
    };
    let at = |name: &str| crate::git::display_path(&shown.join(name));
    if let Some(t) = read("pyproject.toml").and_then(|t| t.parse::<toml::Table>().ok()) {
        if let Some(project) = table(&t, &["project"]) {
            let private = strings(project.get("classifiers"))
                .iter()
                .any(|c| c.starts_with("Private ::"));
            return if private {
                Published::Private
            } else {
                Published::Yes(format!(
                    "deny: {} publishes a package ([project])",
                    at("pyproject.toml")
                ))
            };
        }
        if let Some(poetry) = table(&t, &["tool", "poetry"])
            && poetry.contains_key("name")
        {
            return if poetry.get("package-mode").and_then(|m| m.as_bool()) == Some(false) {
                Published::Private
            } else {
                Published::Yes(format!(
                    "deny: {} publishes a package ([tool.poetry])",
                    at("pyproject.toml")
                ))
            };
        }
    }
    if let Some(cfg) = read("setup.cfg")
        && ini(&cfg).contains_key(&("metadata".to_string(), "name".to_string()))
    {
        return Published::Yes(format!(
            "deny: {} publishes a package ([metadata] name)",
            at("setup.cfg")
        ));
    }
    if read("setup.py").is_some_and(|py| py.contains("setup(")) {
        return Published::Yes(format!("deny: {} publishes a package (setup())", at("setup.py")));
    }
    Published::Nothing
}

// ------------------------------------------------------------ modules

/// A module's top-level bindings and classes, as far as they are written
/// in the file.
#[derive(Default)]
struct Module {
    /// In source order; a later binding of a name wins.
    bindings: Vec<Binding>,
    /// `__all__`, when the module sets it.
    all: Option<Vec<String>>,
    /// Class name -> its bases (as written) and methods (name -> documented).
    classes: HashMap<String, Class>,
}

#[derive(Default)]
struct Class {
    bases: Vec<String>,
    methods: HashMap<String, bool>,
}

enum Binding {
    /// `def name`, `class name`, `name = ..`.
    Here(String),
    /// `from module import name as alias`: (alias, module file, name).
    From(String, PathBuf, String),
    /// `from module import *`.
    Star(PathBuf),
}

/// Where a name a module binds was defined: (file, name there).
type Origin = (PathBuf, String);

/// The modules of one repository, parsed once each.
pub struct Modules<'r> {
    root: &'r Path,
    parsed: HashMap<PathBuf, Rc<Module>>,
    namespaces: HashMap<PathBuf, Rc<BTreeMap<String, Origin>>>,
}

impl<'r> Modules<'r> {
    pub fn new(root: &'r Path) -> Modules<'r> {
        Modules {
            root,
            parsed: HashMap::new(),
            namespaces: HashMap::new(),
        }
    }

    fn module(&mut self, file: &Path) -> Rc<Module> {
        if let Some(m) = self.parsed.get(file) {
            return m.clone();
        }
        let module = Rc::new(
            crate::walk::read_file(self.root, file)
                .ok()
                .and_then(|source| read_module(self.root, file, &source))
                .unwrap_or_default(),
        );
        self.parsed.insert(file.to_path_buf(), module.clone());
        module
    }

    /// Every name `file` binds at the top level, with where it was defined.
    fn namespace(&mut self, file: &Path, depth: usize) -> Rc<BTreeMap<String, Origin>> {
        if let Some(n) = self.namespaces.get(file) {
            return n.clone();
        }
        // A cycle of imports reads the module as empty on the way round.
        self.namespaces.insert(file.to_path_buf(), Rc::default());
        let module = self.module(file);
        let mut names = BTreeMap::new();
        for binding in &module.bindings {
            match binding {
                Binding::Here(name) => {
                    names.insert(name.clone(), (file.to_path_buf(), name.clone()));
                }
                Binding::From(alias, from, name) => {
                    let origin = (depth < MAX_DEPTH)
                        .then(|| self.namespace(from, depth + 1).get(name).cloned())
                        .flatten()
                        .unwrap_or_else(|| (from.clone(), name.clone()));
                    names.insert(alias.clone(), origin);
                }
                Binding::Star(from) if depth < MAX_DEPTH => {
                    for (name, origin) in self.exported(from, depth + 1).iter() {
                        names.insert(name.clone(), origin.clone());
                    }
                }
                Binding::Star(_) => {}
            }
        }
        let names = Rc::new(names);
        self.namespaces.insert(file.to_path_buf(), names.clone());
        names
    }

    /// The names `from file import *` takes: `__all__`, else every name
    /// not starting with `_`.
    fn exported(&mut self, file: &Path, depth: usize) -> BTreeMap<String, Origin> {
        let all = self.module(file).all.clone();
        let names = self.namespace(file, depth);
        names
            .iter()
            .filter(|(name, _)| match &all {
                Some(all) => all.contains(name),
                None => !name.starts_with('_'),
            })
            .map(|(n, o)| (n.clone(), o.clone()))
            .collect()
    }

    /// For a module in a private place (`pkg/_impl.py`, `pkg/_sub/x.py`):
    /// the names of it the nearest public package above it exposes, under
    /// whatever name; `None` for a public module (its own names and
    /// `__all__` decide).
    pub fn exposed(&mut self, file: &Path) -> Option<HashSet<String>> {
        let chain = package_chain(self.root, file);
        // The deepest package above the file with no private part on the way.
        let private_at = chain.iter().position(|(_, name)| private(name))?;
        let mut exposing: Vec<PathBuf> = Vec::new();
        if private_at > 0 {
            exposing.push(chain[private_at - 1].0.join("__init__.py"));
        } else {
            // A private top-level package (`_impl/`) is exposed through the
            // public top-level packages beside it.
            let parent = chain[0].0.parent().unwrap_or(Path::new(""));
            let mut siblings: Vec<PathBuf> = std::fs::read_dir(self.root.join(parent))
                .into_iter()
                .flatten()
                .filter_map(|e| e.ok())
                .filter_map(|e| e.file_name().into_string().ok())
                .filter(|n| !private(n))
                .map(|n| parent.join(n))
                .filter(|p| self.root.join(p).join("__init__.py").is_file())
                .collect();
            siblings.sort();
            siblings.truncate(16);
            exposing.extend(siblings.into_iter().map(|p| p.join("__init__.py")));
        }
        let mut names = HashSet::new();
        for package in exposing {
            for (file_there, name) in self.exported(&package, 0).values() {
                if file_there == file {
                    names.insert(name.clone());
                }
            }
        }
        Some(names)
    }

    /// Does a base class of `class` (in `file`) document a method `method`,
    /// the first docstring up the bases, as `inspect.getdoc` finds it?
    pub fn inherits_doc(&mut self, file: &Path, class: &str, method: &str) -> bool {
        let mut seen = HashSet::new();
        let mut queue = vec![(file.to_path_buf(), class.to_string(), 0usize)];
        let mut first = true;
        while let Some((file, class, depth)) = queue.pop() {
            if depth > MAX_DEPTH || !seen.insert((file.clone(), class.clone())) {
                continue;
            }
            let module = self.module(&file);
            let Some(found) = module.classes.get(&class) else {
                continue;
            };
            if !first && found.methods.get(method) == Some(&true) {
                return true;
            }
            first = false;
            let namespace = self.namespace(&file, 0);
            // Bases in order: the first is searched first.
            for base in found.bases.iter().rev() {
                if let Some((there, name)) = namespace.get(base) {
                    queue.push((there.clone(), name.clone(), depth + 1));
                }
            }
        }
        false
    }
}

/// Is a package or module name private (`_impl`, not `__init__`)?
fn private(name: &str) -> bool {
    name.starts_with('_') && !(name.starts_with("__") && name.ends_with("__"))
}

/// The packages from the top-level one down to the file's module:
/// (folder, name) for each package, then (folder, stem) for the module
/// itself unless it is an `__init__.py`.
fn package_chain(root: &Path, file: &Path) -> Vec<(PathBuf, String)> {
    let mut chain = Vec::new();
    let stem = file.file_stem().and_then(|s| s.to_str()).unwrap_or("");
    let mut dir = file.parent();
    while let Some(d) = dir.filter(|d| !d.as_os_str().is_empty() && root.join(d).join("__init__.py").is_file()) {
        chain.push((
            d.to_path_buf(),
            d.file_name().and_then(|n| n.to_str()).unwrap_or("").to_string(),
        ));
        dir = d.parent();
    }
    chain.reverse();
    if stem != "__init__" {
        chain.push((file.parent().unwrap_or(Path::new("")).to_path_buf(), stem.to_string()));
    }
    chain
}

/// The module file a `from X import` in `file` names, if it is in the repository.
fn resolve(root: &Path, file: &Path, module: &str) -> Option<PathBuf> {
    let dots = module.len() - module.trim_start_matches('.').len();
    let rest = &module[dots..];
    let base = if dots > 0 {
        let mut base = file.parent()?.to_path_buf();
        for _ in 1..dots {
            base = base.parent()?.to_path_buf();
        }
        base
    } else {
        // Absolute: from the folder holding the file's top-level package.
        let chain = package_chain(root, file);
        chain.first()?.0.parent()?.to_path_buf()
    };
    let mut at = base;
    for part in rest.split('.').filter(|p| !p.is_empty()) {
        at.push(part);
    }
    let package = at.join("__init__.py");
    let module = at.with_extension("py");
    [package, module]
        .into_iter()
        .find(|p| crate::walk::inside(root, p).is_ok() && root.join(p).is_file())
}

fn read_module(root: &Path, file: &Path, source: &[u8]) -> Option<Module> {
    let tree = Lang::Python.parse(source)?;
    let mut module = Module::default();
    let mut statements = Vec::new();
    top_statements(tree.root_node(), &mut statements);
    let text = |n: Node<'_>| n.utf8_text(source).unwrap_or("").to_string();
    for statement in statements {
        match statement.kind() {
            "function_definition" | "class_definition" | "decorated_definition" => {
                let definition = match statement.kind() {
                    "decorated_definition" => match statement.child_by_field_name("definition") {
                        Some(d) => d,
                        None => continue,
                    },
                    _ => statement,
                };
                let Some(name) = definition.child_by_field_name("name").map(text) else {
                    continue;
                };
                if definition.kind() == "class_definition" {
                    module.classes.insert(name.clone(), class(definition, source));
                }
                module.bindings.push(Binding::Here(name));
            }
            "import_from_statement" => {
                let Some(from) = statement.child_by_field_name("module_name").map(text) else {
                    continue;
                };
                let Some(target) = resolve(root, file, &from) else {
                    continue;
                };
                let mut cursor = statement.walk();
                if statement.children(&mut cursor).any(|c| c.kind() == "wildcard_import") {
                    module.bindings.push(Binding::Star(target));
                    continue;
                }
                let mut cursor = statement.walk();
                for name in statement.children_by_field_name("name", &mut cursor) {
                    let (name, alias) = match name.kind() {
                        "aliased_import" => (
                            name.child_by_field_name("name").map(text),
                            name.child_by_field_name("alias").map(text),
                        ),
                        _ => (Some(text(name)), None),
                    };
                    if let Some(name) = name {
                        let alias = alias.unwrap_or_else(|| name.clone());
                        module.bindings.push(Binding::From(alias, target.clone(), name));
                    }
                }
            }
            "expression_statement" => {
                let Some(first) = statement.named_child(0) else {
                    continue;
                };
                let Some(left) = first.child_by_field_name("left") else {
                    continue;
                };
                let name = text(left);
                if name == "__all__" {
                    let listed = all_names(first.child_by_field_name("right"), source);
                    match (first.kind(), &mut module.all) {
                        ("augmented_assignment", Some(all)) => all.extend(listed),
                        ("assignment", _) => module.all = Some(listed),
                        _ => {}
                    }
                } else if first.kind() == "assignment" && left.kind() == "identifier" {
                    module.bindings.push(Binding::Here(name));
                }
            }
            _ => {}
        }
    }
    Some(module)
}

/// A module's top-level statements, and those inside its top-level `if`,
/// `try` and `with` blocks (`if TYPE_CHECKING:`, `try: from ._c import x`).
fn top_statements<'t>(node: Node<'t>, out: &mut Vec<Node<'t>>) {
    let mut cursor = node.walk();
    for child in node.named_children(&mut cursor) {
        match child.kind() {
            "if_statement" | "try_statement" | "with_statement" | "elif_clause" | "else_clause" | "except_clause"
            | "finally_clause" | "block" => top_statements(child, out),
            _ => out.push(child),
        }
    }
}

/// The names of a class's bases and its methods.
fn class(definition: Node<'_>, source: &[u8]) -> Class {
    let text = |n: Node<'_>| n.utf8_text(source).unwrap_or("").to_string();
    let mut class = Class::default();
    if let Some(arguments) = definition.child_by_field_name("superclasses") {
        let mut cursor = arguments.walk();
        for base in arguments.named_children(&mut cursor) {
            // `Generic[T]` is `Generic`; `metaclass=..` is not a base.
            let base = match base.kind() {
                "subscript" => base.child_by_field_name("value").unwrap_or(base),
                _ => base,
            };
            if base.kind() == "identifier" {
                class.bases.push(text(base));
            }
        }
    }
    if let Some(body) = definition.child_by_field_name("body") {
        let mut cursor = body.walk();
        for member in body.named_children(&mut cursor) {
            let method = match member.kind() {
                "decorated_definition" => member.child_by_field_name("definition"),
                "function_definition" => Some(member),
                _ => None,
            };
            if let Some(method) = method.filter(|m| m.kind() == "function_definition")
                && let Some(name) = method.child_by_field_name("name").map(text)
            {
                let documented = super::exports::has_docstring(method);
                // An overload stub says nothing; the implementation decides.
                let entry = class.methods.entry(name).or_insert(false);
                *entry |= documented;
            }
        }
    }
    class
}

/// The strings of `__all__`'s list or tuple (`'a', 'b'` bare too).
pub fn all_names(value: Option<Node<'_>>, source: &[u8]) -> Vec<String> {
    let Some(value) = value.filter(|v| matches!(v.kind(), "list" | "tuple" | "expression_list")) else {
        return Vec::new();
    };
    let mut cursor = value.walk();
    value
        .named_children(&mut cursor)
        .filter(|n| n.kind() == "string")
        .map(|n| {
            let mut cursor = n.walk();
            n.named_children(&mut cursor)
                .filter(|c| c.kind() == "string_content")
                .map(|c| c.utf8_text(source).unwrap_or(""))
                .collect()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn repo(files: &[(&str, &str)]) -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        for (path, text) in files {
            let at = dir.path().join(path);
            std::fs::create_dir_all(at.parent().unwrap()).unwrap();
            std::fs::write(at, text).unwrap();
        }
        dir
    }

    fn ships(files: &[(&str, &str)], paths: &[&str]) -> Vec<bool> {
        let dir = repo(files);
        let dist = Dist::read(dir.path(), Path::new(""));
        paths.iter().map(|p| dist.ships(Path::new(p))).collect()
    }

    #[test]
    fn the_build_configuration_says_which_packages_ship() {
        let init = "";
        // hatch: listed paths; the type-check tests beside them are not shipped.
        let hatch = "[project]\nname = \"attrs\"\n[build-system]\nbuild-backend = \"hatchling.build\"\n[tool.hatch.build.targets.wheel]\npackages = [\"src/attr\", \"src/attrs\"]\n";
        assert_eq!(
            ships(
                &[
                    ("pyproject.toml", hatch),
                    ("src/attr/__init__.py", init),
                    ("src/attrs/__init__.py", init),
                    ("typing_checks/__init__.py", init),
                ],
                &["src/attr/_make.py", "src/attrs/x/y.py", "typing_checks/a.py"]
            ),
            [true, true, false]
        );
        // flit: the module's name; hatch by default: the project's name.
        let flit = "[project]\nname = \"click\"\n[tool.flit.module]\nname = \"click\"\n";
        assert_eq!(
            ships(
                &[
                    ("pyproject.toml", flit),
                    ("src/click/__init__.py", init),
                    ("tools/__init__.py", init)
                ],
                &["src/click/core.py", "tools/x.py"]
            ),
            [true, false]
        );
        let by_name = "[project]\nname = \"my-lib\"\n[build-system]\nbuild-backend = \"hatchling.build\"\n";
        assert_eq!(
            ships(
                &[
                    ("pyproject.toml", by_name),
                    ("my_lib/__init__.py", init),
                    ("helpers/__init__.py", init)
                ],
                &["my_lib/a.py", "helpers/a.py"]
            ),
            [true, false]
        );
        // setuptools find: where, include, exclude, by dotted name.
        let find = "[project]\nname = \"req\"\n[tool.setuptools.packages.find]\nwhere = [\"src\"]\nexclude = [\"req.vendored*\"]\n";
        assert_eq!(
            ships(
                &[
                    ("pyproject.toml", find),
                    ("src/req/__init__.py", init),
                    ("src/req/vendored/__init__.py", init),
                    ("other/__init__.py", init),
                ],
                &["src/req/api.py", "src/req/vendored/x.py", "other/x.py"]
            ),
            [true, false, false]
        );
        // poetry: include/from tables.
        let poetry = "[tool.poetry]\nname = \"rich\"\npackages = [{ include = \"rich\", from = \"lib\" }]\n";
        assert_eq!(
            ships(
                &[
                    ("pyproject.toml", poetry),
                    ("lib/rich/__init__.py", init),
                    ("rich/__init__.py", init)
                ],
                &["lib/rich/text.py", "rich/text.py"]
            ),
            [true, false]
        );
        // maturin: the Python source folder.
        let maturin =
            "[project]\nname = \"core\"\n[tool.maturin]\npython-source = \"python\"\nmodule-name = \"core._core\"\n";
        assert_eq!(
            ships(
                &[
                    ("pyproject.toml", maturin),
                    ("python/core/__init__.py", init),
                    ("core/__init__.py", init)
                ],
                &["python/core/a.py", "core/a.py"]
            ),
            [true, false]
        );
        // setup.cfg and setup.py, read and never run.
        let cfg = "[metadata]\nname = lib\n[options]\npackage_dir =\n    =src\npackages = find:\n[options.packages.find]\nwhere = src\nexclude =\n    lib.tests*\n";
        assert_eq!(
            ships(
                &[
                    ("setup.cfg", cfg),
                    ("src/lib/__init__.py", init),
                    ("src/lib/tests/__init__.py", init)
                ],
                &["src/lib/a.py", "src/lib/tests/t.py"]
            ),
            [true, false]
        );
        let py = "from setuptools import setup\nsetup(name='x', packages=['x', 'x.sub'], package_dir={'': 'lib'})\n";
        assert_eq!(
            ships(
                &[
                    ("setup.py", py),
                    ("lib/x/__init__.py", init),
                    ("lib/x/sub/__init__.py", init)
                ],
                &["lib/x/a.py", "lib/x/sub/b.py", "lib/x/other/c.py"]
            ),
            [true, true, false]
        );
        // No configuration of the packages: setuptools' discovery.
        let bare = "[project]\nname = \"flat\"\n";
        assert_eq!(
            ships(
                &[
                    ("pyproject.toml", bare),
                    ("flat/__init__.py", init),
                    ("tools/__init__.py", init),
                    ("single.py", init),
                    ("noxfile.py", init)
                ],
                &["flat/a.py", "tools/a.py", "single.py", "noxfile.py"]
            ),
            [true, false, true, false]
        );
        // A path that climbs out of the project is not taken.
        let out = "[project]\nname = \"x\"\n[tool.hatch.build.targets.wheel]\npackages = [\"../x\"]\n";
        assert_eq!(ships(&[("pyproject.toml", out)], &["../x/a.py"]), [false]);
    }

    #[test]
    fn a_private_module_is_public_as_far_as_a_public_package_takes_it() {
        let dir = repo(&[
            (
                "pkg/__init__.py",
                "from ._impl import Loader, parse as load\nfrom ._sub import *\nfrom . import _hidden\n__all__ = ['Loader', 'load', 'Transport']\n",
            ),
            (
                "pkg/_impl.py",
                "def parse(): pass\ndef helper(): pass\nclass Loader: pass\n",
            ),
            (
                "pkg/_sub/__init__.py",
                "from .base import *\nfrom .extra import Extra\n",
            ),
            (
                "pkg/_sub/base.py",
                "__all__ = 'Transport', 'Other'\nclass Transport: pass\nclass Other: pass\ndef unlisted(): pass\n",
            ),
            ("pkg/_sub/extra.py", "class Extra: pass\n"),
            ("pkg/_hidden.py", "def anything(): pass\n"),
            ("pkg/public.py", "def f(): pass\n"),
            ("pkg/cycle_a/__init__.py", "from ._x import *\n"),
            (
                "pkg/cycle_a/_x.py",
                "from . import *\nfrom ._x import *\ndef X(): pass\n",
            ),
        ]);
        let mut modules = Modules::new(dir.path());
        let mut exposed = |p: &str| {
            modules.exposed(Path::new(p)).map(|s| {
                let mut v: Vec<String> = s.into_iter().collect();
                v.sort();
                v
            })
        };
        assert_eq!(exposed("pkg/public.py"), None);
        assert_eq!(exposed("pkg/_impl.py"), Some(vec!["Loader".into(), "parse".into()]));
        // Through `from ._sub import *` and `from .base import *`, as `__all__`s allow.
        assert_eq!(exposed("pkg/_sub/base.py"), Some(vec!["Transport".into()]));
        assert_eq!(exposed("pkg/_sub/extra.py"), Some(vec![]));
        assert_eq!(exposed("pkg/_hidden.py"), Some(vec![]));
        // Imports that go round in a cycle end.
        assert_eq!(exposed("pkg/cycle_a/_x.py"), Some(vec!["X".into()]));
    }

    #[test]
    fn an_override_inherits_the_docstring_of_the_method_it_overrides() {
        let dir = repo(&[
            ("pkg/__init__.py", ""),
            (
                "pkg/base.py",
                "class Base:\n    def run(self):\n        \"\"\"Runs.\"\"\"\n    def stop(self):\n        pass\n",
            ),
            (
                "pkg/mid.py",
                "from .base import Base as Root\nclass Mid(Root):\n    def stop(self):\n        pass\n",
            ),
            (
                "pkg/leaf.py",
                "import typing\nfrom .mid import Mid\nclass Leaf(Mid, typing.Generic):\n    def run(self):\n        pass\n    def stop(self):\n        pass\n    def new(self):\n        pass\nclass Own:\n    def run(self):\n        pass\nclass Loop(Loop2):\n    def run(self): pass\nclass Loop2(Loop):\n    def run(self): pass\n",
            ),
        ]);
        let mut modules = Modules::new(dir.path());
        let leaf = Path::new("pkg/leaf.py");
        assert!(
            modules.inherits_doc(leaf, "Leaf", "run"),
            "two classes up, under an alias"
        );
        assert!(
            !modules.inherits_doc(leaf, "Leaf", "stop"),
            "documented nowhere up the bases"
        );
        assert!(!modules.inherits_doc(leaf, "Leaf", "new"));
        assert!(!modules.inherits_doc(leaf, "Own", "run"), "no base");
        assert!(!modules.inherits_doc(leaf, "Loop", "run"), "a cycle of bases ends");
    }
}
