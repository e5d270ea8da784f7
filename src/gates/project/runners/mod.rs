//! What the JavaScript test runners' own config says, where it says it
//! statically: vitest's `test.include`/`test.exclude` and `resolve.alias`
//! (in `vitest.config.*` or `vite.config.*`), jest's `testMatch`,
//! `testRegex` and `moduleNameMapper` (in `jest.config.*` or the `jest` key of
//! `package.json`). Configs are read with tree-sitter, never evaluated: a
//! value built at run time (a variable, a function call other than the
//! `path.resolve(__dirname, ..)` family) is ignored and the conventions apply.
//!
//! Each config governs the files under its directory (the nearest config
//! wins, as in a monorepo of packages); patterns are relative to it. A
//! vitest config with inline `test.projects` makes a file a test when one
//! project includes it and that project does not exclude it; a project
//! named by a path (another config) is not read, so a file no inline project
//! matches is left to the conventions there.

mod config;
mod scripts;

use std::path::{Path, PathBuf};

use crate::lang::syntax::Node;
use globset::{Glob, GlobSet, GlobSetBuilder};
use regex::Regex;

use super::resolve::normalize;
use crate::lang::{Lang, text, visit_named};
use config::Config;

const VITEST: &[&str] = &["vitest.config", "vite.config"];
const JEST: &str = "jest.config";
const CONFIG_EXTENSIONS: &[&str] = &["ts", "mts", "cts", "js", "mjs", "cjs"];

/// Which files a runner config makes tests.
#[derive(Debug, Clone, Default)]
struct Matcher {
    projects: Vec<Project>,
    regex: Vec<Regex>,
    /// Some projects are defined elsewhere (a path in `test.projects`): what
    /// no project here includes is not decided.
    open: bool,
}

/// One set of test files: vitest's `test` block of a config or of an inline
/// project, jest's `testMatch`.
#[derive(Debug, Clone)]
struct Project {
    include: GlobSet,
    exclude: Option<GlobSet>,
}

/// What a `test` block says about which files are tests.
enum Block {
    Project(Project),
    /// Neither `include` nor `exclude`: vitest's defaults.
    Silent,
    /// An `include` built at run time.
    Computed,
}

/// vitest's default `test.include`.
const VITEST_INCLUDE: &str = "**/*.{test,spec}.?(c|m)[jt]s?(x)";

/// An import alias: `find` (a prefix, or a regex for jest) to a replacement.
#[derive(Debug, Clone)]
pub enum Alias {
    /// vite `resolve.alias`: `@` -> `src` (repository-relative).
    Prefix { find: String, replacement: PathBuf },
    /// jest `moduleNameMapper`: `^@/(.*)$` -> `src/$1` (repository-relative).
    Pattern { find: Regex, replacement: String },
}

/// What the runner configs in one directory say.
#[derive(Debug, Default)]
struct Dir {
    /// `None` when no config there says which files are tests.
    matcher: Option<Matcher>,
    aliases: Vec<Alias>,
    /// The modules the configs run before every test file (`setupFiles`,
    /// `setupFilesAfterEnv`, `globalSetup`), repository-relative.
    setup: Vec<PathBuf>,
    /// The config files read, for the report.
    sources: Vec<String>,
    /// Configs that could not be read, each with why (for the report).
    problems: Vec<String>,
    /// AVA may pass a test that ran no assertion here: its `package.json`
    /// config says `failWithoutAssertions: false`, or an `ava.config.*`
    /// written as code may say so.
    no_assertions_pass: bool,
}

/// The runner configs of a repository, each directory's read the first time
/// a path under it is asked about: a hook in a monorepo of a thousand
/// packages reads the configs of the packages it touches, not all of them.
#[derive(Debug, Default)]
pub struct Runners {
    root: PathBuf,
    /// The directories a config may govern (the root and every package's).
    dirs: std::collections::BTreeMap<PathBuf, std::sync::OnceLock<Dir>>,
    /// The trusted revision's configs in the same directories, read the
    /// same lazy way: a file either revision's configs make a test is one.
    base: Option<Base>,
}

/// The trusted revision's runner configs.
#[derive(Debug)]
struct Base {
    files: crate::git::RevFiles,
    dirs: std::collections::BTreeMap<PathBuf, std::sync::OnceLock<Dir>>,
}

impl Runners {
    /// The runner configs at `root` and in the directories of `manifests`
    /// (repository-relative `package.json` paths: the workspace packages).
    pub fn load_at(root: &Path, manifests: &[PathBuf]) -> Runners {
        let mut dirs = std::collections::BTreeMap::new();
        dirs.insert(PathBuf::new(), std::sync::OnceLock::new());
        for dir in manifests.iter().filter_map(|m| m.parent()) {
            dirs.entry(dir.to_path_buf()).or_default();
        }
        Runners {
            root: root.to_path_buf(),
            dirs,
            base: None,
        }
    }

    /// The same, with the configs of the trusted revision (`files`) beside
    /// the working tree's: a change that narrows `testMatch` or `include`
    /// does not hide the tests it moved out of the new patterns' sight.
    pub fn with_base(mut self, files: crate::git::RevFiles) -> Runners {
        let dirs = self
            .dirs
            .keys()
            .map(|d| (d.clone(), std::sync::OnceLock::new()))
            .collect();
        self.base = Some(Base { files, dirs });
        self
    }

    /// The configs of `dir`, read now if they were not yet; `None` when no
    /// config may be there.
    fn dir(&self, dir: &Path) -> Option<&Dir> {
        read_once(&self.dirs, dir, &|rel| std::fs::read(self.root.join(rel)).ok())
    }

    /// The trusted revision's configs of `dir`, as [`Runners::dir`].
    fn base_dir(&self, dir: &Path) -> Option<&Dir> {
        let base = self.base.as_ref()?;
        read_once(&base.dirs, dir, &|rel| base.files.read(rel))
    }

    /// The runner configs that may name the changed files `paths`
    /// (repository-relative) as setup modules: those in each of their
    /// directories and above, read when first asked about.
    pub fn around<'p>(root: &Path, paths: impl IntoIterator<Item = &'p Path>) -> Runners {
        let mut dirs = std::collections::BTreeMap::new();
        for path in paths {
            for dir in path.ancestors().skip(1) {
                dirs.entry(dir.to_path_buf()).or_default();
            }
        }
        Runners {
            root: root.to_path_buf(),
            dirs,
            base: None,
        }
    }

    /// Does a runner config above `path`, in the working tree or at the
    /// trusted revision, run it before every test file (a setup module)?
    pub fn is_setup_file(&self, path: &Path) -> bool {
        // Named with its extension or without (`./jest.setup`), as node resolves it.
        let bare = path.with_extension("");
        let names = |dir: Option<&Dir>| dir.is_some_and(|d| d.setup.iter().any(|s| s == path || *s == bare));
        path.ancestors()
            .skip(1)
            .any(|a| names(self.dir(a)) || names(self.base_dir(a)))
    }

    /// Does AVA fail a test of `path` that ran no assertion (its default),
    /// by every config above it in the working tree and at the trusted
    /// revision? A change that turns that off does not make its tests'
    /// handlers count.
    pub fn ava_fails_without_assertions(&self, path: &Path) -> bool {
        let passes = |dir: Option<&Dir>| dir.is_some_and(|d| d.no_assertions_pass);
        !path
            .ancestors()
            .skip(1)
            .any(|a| passes(self.dir(a)) || passes(self.base_dir(a)))
    }

    /// The import aliases the configs governing `path` define, the
    /// outermost config's first.
    pub fn aliases_for(&self, path: &Path) -> Vec<&Alias> {
        let mut dirs: Vec<&Dir> = path.ancestors().skip(1).filter_map(|a| self.dir(a)).collect();
        dirs.reverse();
        dirs.into_iter().flat_map(|d| &d.aliases).collect()
    }

    /// The config files that govern `paths`, for the report (never those
    /// read for other files: what a run reports does not depend on what an
    /// earlier step happened to read).
    pub fn sources_for<'p>(&self, paths: impl IntoIterator<Item = &'p Path>) -> Vec<String> {
        self.governing_all(paths).flat_map(|d| d.sources.clone()).collect()
    }

    /// The configs governing `paths` that could not be read, each with why.
    pub fn problems_for<'p>(&self, paths: impl IntoIterator<Item = &'p Path>) -> Vec<String> {
        self.governing_all(paths).flat_map(|d| d.problems.clone()).collect()
    }

    /// The directories governing any of `paths`, each once, in path order.
    fn governing_all<'p>(&self, paths: impl IntoIterator<Item = &'p Path>) -> impl Iterator<Item = &Dir> {
        let mut dirs = std::collections::BTreeSet::new();
        for path in paths {
            for dir in path.ancestors().skip(1) {
                if self.dirs.contains_key(dir) {
                    dirs.insert(dir.to_path_buf());
                }
            }
        }
        dirs.into_iter().filter_map(|d| self.dir(&d))
    }
}

impl Dir {
    /// Read the configs in `dir`, each file's bytes from `read` (a
    /// repository-relative path; `None` when it is not there).
    fn read(&mut self, read: &dyn Fn(&Path) -> Option<Vec<u8>>, dir: &Path) {
        let mut matcher = Matcher::default();
        let mut found = false;
        let candidates = VITEST
            .iter()
            .chain(std::iter::once(&JEST))
            .flat_map(|stem| CONFIG_EXTENSIONS.iter().map(move |e| format!("{stem}.{e}")));
        for name in candidates {
            let rel = dir.join(&name);
            let Some(bytes) = read(&rel) else {
                continue;
            };
            let Some(lang) = Lang::from_path(&rel) else { continue };
            let Some(tree) = lang.parse(&bytes) else { continue };
            if tree.root_node().has_error() {
                self.problems.push(format!(
                    "{} has syntax errors: its test patterns and aliases were not read; the conventions apply there",
                    crate::git::display_path(&rel)
                ));
                continue;
            }
            let config = Config { source: &bytes, dir };
            let root_node = tree.root_node();
            for (key, _, value) in config.pairs(&root_node) {
                if SETUP_KEYS.contains(&key.as_str()) {
                    self.setup.extend(config.setup_modules(&value));
                }
            }
            if name.starts_with(JEST) {
                found |= config.jest(&root_node, &mut matcher, &mut self.aliases);
            } else {
                found |= config.vitest(&root_node, &mut matcher, &mut self.aliases);
            }
            self.sources.push(crate::git::display_path(&rel));
        }
        // package.json "jest": { "testMatch": [..], "testRegex": .., "moduleNameMapper": {..} }
        let manifest = dir.join("package.json");
        let json = read(&manifest).map(|bytes| serde_json::from_slice::<serde_json::Value>(&bytes));
        if let Some(Err(e)) = &json {
            self.problems.push(format!(
                "{} is not valid JSON ({e}): its jest settings were not read",
                crate::git::display_path(&manifest)
            ));
        }
        let json = json.and_then(Result::ok);
        if let Some(json) = &json
            && let Some(jest) = json.get("jest").and_then(|j| j.as_object())
        {
            let strings = |v: &serde_json::Value| -> Vec<String> {
                match v {
                    serde_json::Value::String(s) => vec![s.clone()],
                    serde_json::Value::Array(a) => a.iter().filter_map(|x| x.as_str().map(str::to_string)).collect(),
                    _ => Vec::new(),
                }
            };
            for key in SETUP_KEYS {
                let named = jest.get(*key).map(strings).unwrap_or_default();
                self.setup.extend(named.iter().map(|m| setup_path(m, dir)));
            }
            if let Some(include) = jest.get("testMatch").map(strings).and_then(|g| globset(&g)) {
                matcher.projects.push(Project { include, exclude: None });
                found = true;
            }
            if let Some(regexes) = jest.get("testRegex").map(strings).filter(|r| !r.is_empty()) {
                matcher.regex.extend(regexes.iter().filter_map(|r| Regex::new(r).ok()));
                found = true;
            }
            if let Some(map) = jest.get("moduleNameMapper").and_then(|m| m.as_object()) {
                for (find, replacement) in map {
                    if let (Ok(find), Some(replacement)) = (Regex::new(find), replacement.as_str()) {
                        self.aliases.push(Alias::Pattern {
                            find,
                            replacement: root_dir(replacement, dir),
                        });
                    }
                }
            }
            self.sources.push(crate::git::display_path(&manifest));
        }
        if let Some(json) = &json
            && json.pointer("/ava/failWithoutAssertions") == Some(&serde_json::Value::Bool(false))
        {
            self.no_assertions_pass = true;
        }
        self.no_assertions_pass |= ["ava.config.js", "ava.config.cjs", "ava.config.mjs"]
            .iter()
            .any(|name| read(&dir.join(name)).is_some());
        // No config of jest's or vitest's here: AVA's or node's own runner,
        // as the package's scripts run it.
        // They add tests, never take one away: a file they do not run may be
        // another script's runner's (`vitest` with no config).
        if !found && let Some(project) = json.as_ref().and_then(scripts::script_runner) {
            matcher.projects.push(project);
            matcher.open = true;
            found = true;
            let shown = crate::git::display_path(&manifest);
            if !self.sources.contains(&shown) {
                self.sources.push(shown);
            }
        }
        if found {
            self.matcher = Some(matcher);
        }
    }
}

impl Runners {
    /// Whether a runner config decides `path` (repository-relative), and if so
    /// whether it is a test file.
    pub fn decides(&self, path: &Path) -> Option<bool> {
        Self::decide(path, |dir| self.dir(dir))
    }

    /// [`Runners::decides`] by the trusted revision's configs; `None` also
    /// when there is no trusted revision.
    pub fn decides_at_base(&self, path: &Path) -> Option<bool> {
        self.base.as_ref()?;
        Self::decide(path, |dir| self.base_dir(dir))
    }

    /// Is `path` a test by the matcher of the nearest config above it that
    /// has one, the configs of each directory given by `configs`?
    fn decide<'a>(path: &'a Path, configs: impl Fn(&'a Path) -> Option<&'a Dir>) -> Option<bool> {
        let (dir, matcher) = path
            .ancestors()
            .skip(1)
            .find_map(|a| Some((a, configs(a)?.matcher.as_ref()?)))?;
        let rel = path.strip_prefix(dir).ok()?;
        let included = matcher
            .projects
            .iter()
            .any(|p| p.include.is_match(rel) && !p.exclude.as_ref().is_some_and(|g| g.is_match(rel)))
            // jest matches `testRegex` against absolute paths: keep the leading `/`.
            || matcher
                .regex
                .iter()
                .any(|r| r.is_match(&format!("/{}", crate::git::display_path(path))));
        // A file an inline project matches but excludes is decided; one no
        // project here matches may be another config's.
        if !included && matcher.open && !matcher.projects.iter().any(|p| p.include.is_match(rel)) {
            return None;
        }
        Some(included)
    }
}

/// The changed JavaScript and TypeScript files that a jest or vitest
/// config (at the trusted revision or in the change) runs before every test
/// file: code that can skip, mock or loosen every test at once.
pub fn changed_setup_files(
    repo: &crate::git::Repo,
    rev: &str,
    changes: &crate::changed::ChangeSet,
) -> anyhow::Result<std::collections::BTreeSet<PathBuf>> {
    let scripts: Vec<&Path> = changes
        .files
        .iter()
        .map(|f| f.path.as_path())
        .filter(|p| {
            matches!(
                crate::lang::Lang::from_path(p),
                Some(crate::lang::Lang::JavaScript | crate::lang::Lang::TypeScript | crate::lang::Lang::Tsx)
            )
        })
        .collect();
    if scripts.is_empty() {
        return Ok(std::collections::BTreeSet::new());
    }
    let runners = Runners::around(repo.root(), scripts.iter().copied()).with_base(repo.reader_at(rev)?);
    Ok(scripts
        .into_iter()
        .filter(|p| runners.is_setup_file(p))
        .map(Path::to_path_buf)
        .collect())
}

/// The configs of `dir` in `cells`, each file's bytes from `read`, read
/// the first time they are asked for; `None` when no config may be there.
fn read_once<'a>(
    cells: &'a std::collections::BTreeMap<PathBuf, std::sync::OnceLock<Dir>>,
    dir: &Path,
    read: &dyn Fn(&Path) -> Option<Vec<u8>>,
) -> Option<&'a Dir> {
    Some(cells.get(dir)?.get_or_init(|| {
        let mut configs = Dir::default();
        configs.read(read, dir);
        configs
    }))
}

/// The keys that name modules jest and vitest run around every test file.
const SETUP_KEYS: &[&str] = &["setupFiles", "setupFilesAfterEnv", "globalSetup"];

/// A setup module as a config names it (`<rootDir>/jest.setup.js`,
/// `./test/setup.ts`), repository-relative; a package name stays as written.
fn setup_path(module: &str, dir: &Path) -> PathBuf {
    let module = module.trim_start_matches("<rootDir>/");
    normalize(&dir.join(module))
}

/// Jest's `<rootDir>` is the config's directory.
fn root_dir(value: &str, dir: &Path) -> String {
    let base = crate::git::display_path(dir);
    let replaced = value.replace(
        "<rootDir>/",
        &if base.is_empty() {
            String::new()
        } else {
            format!("{base}/")
        },
    );
    replaced.replace("<rootDir>", &base)
}

/// Globs as jest and vitest write them (micromatch extglobs through
/// [`extglob`]); a leading `<rootDir>/` or `./` goes, negations are skipped.
fn globset(patterns: &[String]) -> Option<GlobSet> {
    let mut builder = GlobSetBuilder::new();
    let mut any = false;
    for p in patterns {
        let p = p.trim_start_matches("<rootDir>/").trim_start_matches("./");
        if p.starts_with('!') {
            continue;
        }
        for expanded in extglob(p) {
            if let Ok(glob) = Glob::new(&expanded) {
                builder.add(glob);
                any = true;
            }
        }
    }
    any.then(|| builder.build().ok()).flatten()
}

/// The globset patterns for one micromatch glob: `@(a|b)`, `+(a|b)` and a
/// bare group `(a|b)` become `{a,b}`; `?(x)` and `*(x)` (zero or one, as far as test names go)
/// expand into a pattern without and one with `x`, since globset has no
/// empty alternative.
fn extglob(pattern: &str) -> Vec<String> {
    let mut outs = vec![String::new()];
    let mut chars = pattern.chars().peekable();
    while let Some(c) = chars.next() {
        let group = matches!(c, '?' | '@' | '+' | '*') && chars.peek() == Some(&'(');
        if group || c == '(' {
            if group {
                chars.next();
            }
            let inner: String = chars.by_ref().take_while(|&c| c != ')').collect();
            let group = format!("{{{}}}", inner.replace('|', ","));
            if matches!(c, '?' | '*') {
                outs = outs
                    .into_iter()
                    .flat_map(|o| [o.clone(), format!("{o}{group}")])
                    .take(64)
                    .collect();
            } else {
                outs.iter_mut().for_each(|o| o.push_str(&group));
            }
        } else {
            outs.iter_mut().for_each(|o| o.push(c));
        }
    }
    outs
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn micromatch_extglobs_become_braces() {
        assert_eq!(
            extglob("**/?(*.)+(spec|test).[jt]s?(x)"),
            vec![
                "**/{spec,test}.[jt]s",
                "**/{spec,test}.[jt]s{x}",
                "**/{*.}{spec,test}.[jt]s",
                "**/{*.}{spec,test}.[jt]s{x}",
            ]
        );
        assert_eq!(extglob("**/@(a|b).ts"), vec!["**/{a,b}.ts"]);
        assert_eq!(
            extglob("src/**/(*.)+(spec|test).+(ts|js)"),
            vec!["src/**/{*.}{spec,test}.{ts,js}"]
        );
        let set = globset(&["**/__tests__/**/*.[jt]s?(x)".to_string()]).unwrap();
        assert!(set.is_match("src/__tests__/a.tsx") && set.is_match("src/__tests__/a.js"));
        assert!(!set.is_match("src/a.js"));
    }

    #[test]
    fn vitest_include_exclude_and_aliases_are_read_statically() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("packages/web")).unwrap();
        std::fs::write(dir.path().join("packages/web/package.json"), r#"{"name": "web"}"#).unwrap();
        std::fs::write(
            dir.path().join("packages/web/vite.config.ts"),
            r#"import { defineConfig } from 'vitest/config'
import path from 'node:path'
import { fileURLToPath, URL } from 'node:url'
export default defineConfig({
  resolve: {
    alias: {
      '@': path.resolve(__dirname, './src'),
      '~lib': fileURLToPath(new URL('../lib', import.meta.url)),
    },
  },
  test: {
    include: ['checks/**/*.check.ts'],
    exclude: ['checks/slow/**'],
  },
})
"#,
        )
        .unwrap();
        std::fs::write(
            dir.path().join("jest.config.js"),
            "module.exports = {\n  testMatch: ['**/?(*.)+(spec|test).[jt]s?(x)'],\n  moduleNameMapper: { '^#/(.*)$': '<rootDir>/app/$1' },\n}\n",
        )
        .unwrap();
        let runners = Runners::load_at(dir.path(), &[PathBuf::from("packages/web/package.json")]);
        let decides = |p: &str| runners.decides(Path::new(p));
        assert_eq!(decides("packages/web/checks/a.check.ts"), Some(true));
        assert_eq!(decides("packages/web/checks/slow/a.check.ts"), Some(false));
        assert_eq!(
            decides("packages/web/src/a.test.ts"),
            Some(false),
            "vitest include replaces the conventions"
        );
        assert_eq!(decides("src/a.test.ts"), Some(true), "the root jest config");
        assert_eq!(decides("src/a.ts"), Some(false));
        let web = runners.aliases_for(Path::new("packages/web/src/a.ts"));
        let prefixes: Vec<(String, PathBuf)> = web
            .iter()
            .filter_map(|a| match a {
                Alias::Prefix { find, replacement } => Some((find.clone(), replacement.clone())),
                Alias::Pattern { .. } => None,
            })
            .collect();
        assert!(
            prefixes.contains(&("@".to_string(), PathBuf::from("packages/web/src"))),
            "{prefixes:?}"
        );
        assert!(
            prefixes.contains(&("~lib".to_string(), PathBuf::from("packages/lib"))),
            "{prefixes:?}"
        );
        let root_pattern = |a: &&Alias| matches!(a, Alias::Pattern { replacement, .. } if replacement == "app/$1");
        assert!(
            web.iter().any(root_pattern),
            "the root config's aliases reach the package's files"
        );
        let root = runners.aliases_for(Path::new("src/a.ts"));
        assert!(root.iter().any(root_pattern));
        assert!(
            !root.iter().any(|a| matches!(a, Alias::Prefix { .. })),
            "a package's aliases stay in the package"
        );
    }

    /// Only the configs governing the paths asked about are read.
    #[test]
    fn configs_are_read_for_the_paths_in_play_only() {
        let dir = tempfile::tempdir().unwrap();
        let mut manifests = Vec::new();
        for package in ["a", "b"] {
            let root = dir.path().join("packages").join(package);
            std::fs::create_dir_all(&root).unwrap();
            std::fs::write(root.join("package.json"), "{}").unwrap();
            std::fs::write(
                root.join("vitest.config.ts"),
                "export default { test: { include: ['checks/**/*.ts'] } }\n",
            )
            .unwrap();
            manifests.push(PathBuf::from(format!("packages/{package}/package.json")));
        }
        let runners = Runners::load_at(dir.path(), &manifests);
        let read = || {
            runners
                .dirs
                .values()
                .filter_map(|d| d.get())
                .flat_map(|d| d.sources.clone())
                .collect::<Vec<_>>()
        };
        assert!(read().is_empty(), "nothing is read up front");
        assert_eq!(runners.decides(Path::new("packages/a/checks/x.ts")), Some(true));
        assert_eq!(read(), vec!["packages/a/vitest.config.ts"]);
        // The report names the configs of the files it is about, whatever was read.
        assert_eq!(
            runners.sources_for([Path::new("packages/b/checks/y.ts")]),
            vec!["packages/b/vitest.config.ts"]
        );
    }

    /// vitest `test.projects`, as a large TS framework writes it: micromatch
    /// groups, projects that extend the root, a project named by the path
    /// of another config, and an exclude spreading vitest's defaults.
    #[test]
    fn vitest_inline_projects_each_include_their_files() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("vitest.config.ts"),
            r#"import { configDefaults, defineConfig } from 'vitest/config'
export default defineConfig({
  test: {
    globals: true,
    coverage: { exclude: ['benchmarks', 'src/**/types.ts'] },
    exclude: ['**/fixtures/**'],
    projects: [
      './runtime-tests/*/vitest.config.ts',
      {
        extends: true,
        test: {
          exclude: [...configDefaults.exclude, '**/sandbox/**', '**/*.case.test.*'],
          include: ['src/**/(*.)+(spec|test).+(ts|tsx|js)'],
          name: 'main',
        },
      },
      {
        test: { include: ['src/jsx/dom/**/(*.)+(spec|test).+(ts|tsx|js)'], name: 'dom' },
      },
      { extends: true, test: { include: ['lib/**/*.spec.js'] } },
    ],
  },
})
"#,
        )
        .unwrap();
        let runners = Runners::load_at(dir.path(), &[]);
        let decides = |p: &str| runners.decides(Path::new(p));
        assert_eq!(decides("src/middleware/etag/index.test.ts"), Some(true));
        assert_eq!(decides("src/jsx/index.test.tsx"), Some(true));
        assert_eq!(decides("src/jsx/dom/render.test.tsx"), Some(true));
        assert_eq!(
            decides("src/router/common.case.test.ts"),
            Some(false),
            "the main project excludes it"
        );
        assert_eq!(decides("src/a/sandbox/x.test.ts"), Some(false));
        assert_eq!(decides("lib/x.spec.js"), Some(true));
        assert_eq!(
            decides("lib/fixtures/x.spec.js"),
            Some(false),
            "it inherits the root exclude"
        );
        assert_eq!(
            decides("src/index.ts"),
            None,
            "another config's projects may include it"
        );
        assert_eq!(decides("runtime-tests/bun/index.test.ts"), None);
        let all = [Path::new("src/a.test.ts"), Path::new("lib/x.spec.js")];
        assert!(runners.problems_for(all).is_empty(), "{:?}", runners.problems_for(all));
    }

    #[test]
    fn a_vitest_exclude_alone_keeps_vitest_s_default_include() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("vite.config.mts"),
            "export default { test: { exclude: ['e2e/**'] } }\n",
        )
        .unwrap();
        let runners = Runners::load_at(dir.path(), &[]);
        assert_eq!(runners.decides(Path::new("src/a.test.mts")), Some(true));
        assert_eq!(runners.decides(Path::new("e2e/a.test.ts")), Some(false));
        assert_eq!(runners.decides(Path::new("src/__tests__/a.ts")), Some(false));
    }

    #[test]
    fn unreadable_configs_are_reported_and_leave_the_conventions() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("vitest.config.ts"),
            "export default { test: { include: [\n",
        )
        .unwrap();
        std::fs::write(dir.path().join("package.json"), "{ \"jest\": ").unwrap();
        let runners = Runners::load_at(dir.path(), &[]);
        assert_eq!(runners.decides(Path::new("src/a.test.ts")), None);
        let problems = runners.problems_for([Path::new("src/a.test.ts")]);
        assert_eq!(problems.len(), 2, "{problems:?}");
        assert!(problems[0].starts_with("vitest.config.ts has syntax errors"));
        assert!(problems[1].starts_with("package.json is not valid JSON"));
    }

    #[test]
    fn a_computed_include_leaves_the_conventions() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("vitest.config.mjs"),
            "const patterns = ['x/**']\nexport default { test: { include: patterns } }\n",
        )
        .unwrap();
        let runners = Runners::load_at(dir.path(), &[]);
        assert_eq!(runners.decides(Path::new("src/a.test.ts")), None);
    }

    #[test]
    fn jest_test_regex_sees_absolute_looking_paths() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("package.json"),
            r#"{"jest": {"testRegex": "(/__tests__/.*|(\\.|/)(test|spec))\\.[jt]sx?$"}}"#,
        )
        .unwrap();
        let runners = Runners::load_at(dir.path(), &[]);
        assert_eq!(runners.decides(Path::new("__tests__/a.js")), Some(true));
        assert_eq!(runners.decides(Path::new("src/a.spec.tsx")), Some(true));
        assert_eq!(runners.decides(Path::new("src/a.js")), Some(false));
    }
}
