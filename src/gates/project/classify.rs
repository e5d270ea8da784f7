//! The one test-file classifier: which files hold tests, by each ecosystem's
//! conventions and the project's own pytest configuration.
//!
//! - Python: pytest's `python_files` (default `test_*.py`, `*_test.py`, read
//!   from `pyproject.toml` `[tool.pytest.ini_options]`, `pytest.ini`
//!   `[pytest]`, `setup.cfg` `[tool:pytest]`, `tox.ini` `[pytest]`), plus
//!   Django's and unittest's `tests.py`. `conftest.py` holds fixtures, not tests.
//!   pytest's `testpaths` limits where Python tests are.
//! - JavaScript/TypeScript: under a directory whose vitest or jest config sets
//!   static `include`/`testMatch`/`testRegex`, those ([`Runners`]); elsewhere
//!   `*.test.*`, `*.spec.*`, files under `__tests__/`, and files under `test/`
//!   or `tests/` (mocha's and node:test's default), except fixtures, mocks,
//!   helpers (`helper(s)/` below the test directory, `_`-prefixed names: AVA's
//!   defaults) and type declarations.
//! - Rust: files under a `tests/` directory (cargo's integration tests) and
//!   every other source file, which may hold a `#[cfg(test)] mod` (a file
//!   with no test attribute is not read further); not `benches/`, `examples/`,
//!   `build.rs` or `target/`.
//! - Go: `*_test.go`, outside `testdata/` and `vendor/`.

use std::path::Path;

use globset::{Glob, GlobSet, GlobSetBuilder};

use super::runners::Runners;
use crate::lang::Lang;

const DEFAULT_PYTHON_FILES: &[&str] = &["test_*.py", "*_test.py"];

#[derive(Debug, Clone)]
pub struct Classifier {
    python_files: GlobSet,
    /// pytest `testpaths`: Python tests live only under these.
    testpaths: Option<GlobSet>,
    /// The trusted revision's `python_files` and `testpaths`, when they
    /// differ: a file either collects is a test, so a change that narrows
    /// what pytest collects does not hide the tests it moved out of sight.
    base: Option<(GlobSet, Option<GlobSet>)>,
    /// The working tree's `python_files` and `testpaths` as written.
    written: (Vec<String>, Option<Vec<String>>),
    /// vitest `include`/`exclude` and jest `testMatch`/`testRegex`, per config directory.
    pub runners: std::sync::Arc<Runners>,
    /// Where the patterns came from, for the report.
    pub source: String,
}

impl Classifier {
    /// Build the classifier for the repository at `root`.
    /// `manifests` are the repository's `package.json` files: each package's
    /// directory may hold its own runner config.
    pub fn load(root: &Path, manifests: &[std::path::PathBuf]) -> Classifier {
        let read = |name: &str| std::fs::read_to_string(root.join(name)).ok();
        let python = Python::read(&read);
        Classifier {
            python_files: python.files,
            testpaths: python.paths,
            base: None,
            source: python.source,
            written: python.written,
            runners: std::sync::Arc::new(Runners::load_at(root, manifests)),
        }
    }

    /// The same, with the trusted revision's test discovery (its files,
    /// `base`) standing beside the working tree's: pytest's options and the
    /// JavaScript runners' configs.
    pub fn with_base(mut self, base: crate::git::RevFiles) -> Classifier {
        let read = |name: &str| {
            base.read(Path::new(name))
                .map(|b| String::from_utf8_lossy(&b).into_owned())
        };
        let python = Python::read(&read);
        if python.written != self.written {
            self.base = Some((python.files, python.paths));
        }
        if let Some(runners) = std::sync::Arc::get_mut(&mut self.runners) {
            *runners = std::mem::take(runners).with_base(base);
        }
        self
    }

    /// The language of `path` (repo-relative) when it is a test file, by
    /// the working tree's test discovery or the trusted revision's.
    pub fn test_file(&self, path: &Path) -> Option<Lang> {
        self.classify(path, true)
    }

    /// [`Classifier::test_file`] by the working tree's discovery alone:
    /// whether the runner, as the change leaves it set up, collects `path`
    /// (where a test file renamed is still run).
    pub fn collected_now(&self, path: &Path) -> Option<Lang> {
        self.classify(path, false)
    }

    fn classify(&self, path: &Path, with_base: bool) -> Option<Lang> {
        let lang = Lang::from_path(path)?;
        // Names that are not UTF-8 are classified by their readable parts
        // (`test_caf\xe9.py` is a pytest file), never dropped.
        let name = path.file_name()?.to_string_lossy();
        let name = name.as_ref();
        let dirs: Vec<std::borrow::Cow<'_, str>> = path
            .parent()
            .map(|p| p.components().map(|c| c.as_os_str().to_string_lossy()).collect())
            .unwrap_or_default();
        let dirs: Vec<&str> = dirs.iter().map(|d| d.as_ref()).collect();
        if dirs.iter().any(|d| {
            matches!(
                *d,
                "node_modules" | "__fixtures__" | "fixtures" | "__mocks__" | "site-packages" | "testdata" | "vendor"
            )
        }) {
            return None;
        }
        let is_test = match lang {
            Lang::Python => {
                let collects = |files: &GlobSet, paths: &Option<GlobSet>| {
                    files.is_match(name) && paths.as_ref().is_none_or(|t| t.is_match(path))
                };
                name != "conftest.py"
                    && (collects(&self.python_files, &self.testpaths)
                        || (with_base && self.base.as_ref().is_some_and(|(files, paths)| collects(files, paths))))
            }
            Lang::Rust => name != "build.rs" && !dirs.iter().any(|d| matches!(*d, "benches" | "examples" | "target")),
            Lang::Go => name.ends_with("_test.go"),
            Lang::JavaScript | Lang::TypeScript | Lang::Tsx => {
                if name.ends_with(".d.ts") || name.ends_with(".d.mts") || name.ends_with(".d.cts") {
                    return None;
                }
                // A runner config that covers the file decides; elsewhere the
                // conventions do. The trusted revision's configs too: a file
                // either makes a test is one.
                let conventions = || {
                    let stem_parts: Vec<&str> = name.split('.').collect();
                    stem_parts.len() >= 3
                        && stem_parts[1..stem_parts.len() - 1]
                            .iter()
                            .any(|p| matches!(*p, "test" | "spec"))
                        || (dirs.iter().any(|d| matches!(*d, "__tests__" | "test" | "tests"))
                            && !is_runner_support(name, &dirs))
                };
                let now = self.runners.decides(path);
                let base = if with_base {
                    self.runners.decides_at_base(path)
                } else {
                    now
                };
                now.unwrap_or_else(conventions) || (base != now && base.unwrap_or_else(conventions))
            }
        };
        is_test.then_some(lang)
    }

    /// Does `path` hold project code: a source file that is not a test
    /// file, or a Rust source file outside `tests/` (its tests sit beside the code)?
    pub fn holds_code(&self, path: &Path) -> bool {
        match Lang::from_path(path) {
            None => false,
            Some(Lang::Rust) => !super::resolve::is_test_support(path) && self.test_file(path).is_some(),
            Some(_) => self.test_file(path).is_none(),
        }
    }
}

/// pytest's discovery, as one revision's config files give it.
struct Python {
    files: GlobSet,
    paths: Option<GlobSet>,
    source: String,
    written: (Vec<String>, Option<Vec<String>>),
}

impl Python {
    fn read(read: &dyn Fn(&str) -> Option<String>) -> Python {
        let (patterns, source) = match pytest_option(read, "python_files") {
            Some((p, from)) => (p, from),
            None => (
                DEFAULT_PYTHON_FILES.iter().map(|s| s.to_string()).collect(),
                "pytest defaults".to_string(),
            ),
        };
        let mut builder = GlobSetBuilder::new();
        for p in patterns.iter().chain(["tests.py".to_string()].iter()) {
            if let Ok(glob) = Glob::new(p) {
                builder.add(glob);
            }
        }
        let files = builder.build().unwrap_or_else(|_| GlobSet::empty());
        // `testpaths` (directories or globs of directories) bound where pytest collects.
        let dirs = pytest_option(read, "testpaths").map(|(dirs, _)| dirs);
        let paths = dirs.as_ref().and_then(|dirs| {
            let mut builder = GlobSetBuilder::new();
            for dir in dirs {
                let dir = dir.trim_start_matches("./").trim_end_matches('/');
                for pattern in [dir.to_string(), format!("{dir}/**")] {
                    builder.add(Glob::new(&pattern).ok()?);
                }
            }
            builder.build().ok()
        });
        Python {
            files,
            paths,
            source,
            written: (patterns, dirs),
        }
    }
}

/// Is a file under a test directory support the runners do not run as a
/// test: in a `helper(s)` directory, or named with a leading `_` (AVA's
/// defaults; mocha does not descend into subdirectories at all)? A file
/// named as a test (`x.test.ts`) is a test wherever it is.
fn is_runner_support(name: &str, dirs: &[&str]) -> bool {
    name.starts_with('_')
        || dirs
            .iter()
            .skip_while(|d| !matches!(**d, "__tests__" | "test" | "tests"))
            .any(|d| matches!(*d, "helper" | "helpers" | "__helper__" | "__helpers__"))
}

/// A pytest option (`python_files`, `testpaths`), from the first config
/// file that sets it, each read by `read` (a root-level file's text).
fn pytest_option(read: &dyn Fn(&str) -> Option<String>, key: &str) -> Option<(Vec<String>, String)> {
    if let Some(text) = read("pyproject.toml")
        && let Ok(doc) = text.parse::<toml::Table>()
        && let Some(value) = doc
            .get("tool")
            .and_then(|t| t.get("pytest"))
            .and_then(|t| t.get("ini_options"))
            .and_then(|t| t.get(key))
    {
        let patterns = match value {
            toml::Value::String(s) => s.split_whitespace().map(str::to_string).collect(),
            toml::Value::Array(items) => items.iter().filter_map(|v| v.as_str().map(str::to_string)).collect(),
            _ => Vec::new(),
        };
        if !patterns.is_empty() {
            return Some((patterns, "pyproject.toml".into()));
        }
    }
    for (file, section) in [
        ("pytest.ini", "pytest"),
        ("setup.cfg", "tool:pytest"),
        ("tox.ini", "pytest"),
    ] {
        if let Some(text) = read(file)
            && let Some(value) = crate::formats::ini_value(&text, section, key)
        {
            let patterns: Vec<String> = value.split_whitespace().map(str::to_string).collect();
            if !patterns.is_empty() {
                return Some((patterns, file.into()));
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    fn classify(c: &Classifier, path: &str) -> Option<Lang> {
        c.test_file(&PathBuf::from(path))
    }

    #[test]
    fn conventions_of_each_ecosystem() {
        let dir = tempfile::tempdir().unwrap();
        let c = Classifier::load(dir.path(), &[]);
        for yes in [
            "tests/test_api.py",
            "pkg/api_test.py",
            "app/tests.py",
            "src/a.test.ts",
            "src/a.spec.tsx",
            "src/__tests__/a.js",
            "test/index.mjs",
            "packages/x/tests/a.cts",
            "src/a.test.mts",
            "test/helpers/page.test.ts",
            "helpers/test/page.ts",
            "tests/cli.rs",
            "src/billing.rs",
            "pkg/cart/cart_test.go",
        ] {
            assert!(classify(&c, yes).is_some(), "{yes}");
        }
        for no in [
            "tests/conftest.py",
            "tests/helpers.py",
            "src/app.py",
            "src/a.ts",
            "src/test.ts",
            "types/a.test.d.ts",
            "node_modules/x/a.test.js",
            "test/fixtures/a.js",
            "test/helpers/with-page.ts",
            "tests/helper/server.js",
            "src/__tests__/__helpers__/render.tsx",
            "test/_setup.js",
            "src/__mocks__/a.js",
            "README.md",
            "benches/speed.rs",
            "build.rs",
            "examples/demo.rs",
            "pkg/cart/cart.go",
            "pkg/cart/testdata/x_test.go",
        ] {
            assert!(classify(&c, no).is_none(), "{no}");
        }
    }

    #[test]
    fn pytest_python_files_from_each_config_file() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("pyproject.toml"),
            "[tool.pytest.ini_options]\npython_files = [\"check_*.py\"]\n",
        )
        .unwrap();
        let c = Classifier::load(dir.path(), &[]);
        assert_eq!(c.source, "pyproject.toml");
        assert!(classify(&c, "tests/check_api.py").is_some());
        assert!(classify(&c, "tests/test_api.py").is_none());

        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("setup.cfg"),
            "[metadata]\nname = x\n[tool:pytest]\npython_files =\n    t_*.py\n    *_t.py\n",
        )
        .unwrap();
        let c = Classifier::load(dir.path(), &[]);
        assert!(classify(&c, "a/t_x.py").is_some() && classify(&c, "a/x_t.py").is_some());
        assert_eq!(
            crate::formats::ini_value("[pytest]\npython_files = a.py b.py\n", "pytest", "python_files").as_deref(),
            Some("a.py b.py")
        );
    }
}
