//! Which import packages a Python distribution ships, read from its build
//! configuration: `pyproject.toml` (setuptools, hatch, flit, poetry, pdm,
//! maturin), `setup.cfg`, or a `setup.py`'s literal arguments (read as
//! text, never run), falling back to setuptools' own discovery (a `src/`
//! layout, or the top-level packages that are not tests, docs, examples,
//! scripts and the like). Only files inside the repository are opened.

use std::collections::HashMap;
use std::path::{Component, Path, PathBuf};

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
        dist.source = match shown("") {
            at if at.is_empty() => "automatic discovery".to_string(),
            at => format!("{at} (automatic discovery)"),
        };
        dist
    }
}

/// Which Python modules of a repository its distributions ship, each
/// distribution read once (the mutation gate asks from several threads).
pub struct Shipping<'r> {
    root: &'r Path,
    /// The files the change being judged changed (repo-relative): a build
    /// configuration among them says nothing.
    changed: std::collections::HashSet<&'r Path>,
    /// By folder: the distribution it declares, if it declares one.
    dists: std::sync::Mutex<HashMap<PathBuf, Option<std::sync::Arc<Dist>>>>,
}

impl<'r> Shipping<'r> {
    pub fn new(root: &'r Path, changed: std::collections::HashSet<&'r Path>) -> Self {
        Shipping {
            root,
            changed,
            dists: std::sync::Mutex::default(),
        }
    }

    /// Does the distribution nearest above the module at `path`
    /// (repo-relative) ship it? `None` when no folder above declares one,
    /// or the change changed the build configuration of the nearest that
    /// does.
    pub fn ships(&self, path: &Path) -> Option<bool> {
        for dir in path.ancestors().skip(1) {
            let dist = {
                let mut dists = self.dists.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
                dists
                    .entry(dir.to_path_buf())
                    .or_insert_with(|| match published(&self.root.join(dir), dir) {
                        Published::Nothing => None,
                        _ => Some(std::sync::Arc::new(Dist::read(self.root, dir))),
                    })
                    .clone()
            };
            if let Some(dist) = dist {
                let touched = ["pyproject.toml", "setup.cfg", "setup.py"]
                    .iter()
                    .any(|name| self.changed.contains(dir.join(name).as_path()));
                return (!touched).then(|| dist.ships(path));
            }
        }
        None
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
            // A folder that is a link out of the repository is not listed.
            if crate::walk::inside(self.root, &folder).is_err() {
                continue;
            }
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

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A temporary folder holding `files` (path, text).
    pub(crate) fn repo(files: &[(&str, &str)]) -> tempfile::TempDir {
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
        // A `src` that links out of the repository is not listed.
        let outside = repo(&[("pkg/__init__.py", "")]);
        let dir = repo(&[("pyproject.toml", "[project]\nname = \"x\"\n")]);
        std::os::unix::fs::symlink(outside.path(), dir.path().join("src")).unwrap();
        let dist = Dist::read(dir.path(), Path::new(""));
        assert!(!dist.ships(Path::new("src/pkg/a.py")), "{dist:?}");
        // A path that climbs out of the project is not taken.
        let out = "[project]\nname = \"x\"\n[tool.hatch.build.targets.wheel]\npackages = [\"../x\"]\n";
        assert_eq!(ships(&[("pyproject.toml", out)], &["../x/a.py"]), [false]);
    }
}
