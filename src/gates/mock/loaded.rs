//! Test files that other tests load by name, as data.
//!
//! A test runner's own suite runs sample suites it names by dotted path
//! (`build_suite(["test_runner_apps.simple"])`, `loadTestsFromName(..)`):
//! those samples are written to be empty, to fail or to assert `1 == 1`, and
//! they are fixtures of the tests that load them, not tests of the project.
//! A Python test file is such a sample when another test file names it, a
//! package that holds it, or something inside it, in a string
//! ([`crate::lang::TestFile::module_names`]).

use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// The dotted module names that test files spell, and who spells each.
#[derive(Default)]
pub struct Loaded {
    /// Each name as written, with the files that write it.
    named: HashMap<String, Vec<PathBuf>>,
    /// Each proper prefix of a name (`a.b` of `a.b.Case`), with the files.
    within: HashMap<String, Vec<PathBuf>>,
}

impl Loaded {
    /// Add the module names the file at `path` spells.
    pub fn add(&mut self, path: &Path, names: &[String]) {
        for name in names {
            self.named.entry(name.clone()).or_default().push(path.to_path_buf());
            let mut end = name.len();
            while let Some(dot) = name[..end].rfind('.') {
                end = dot;
                self.within
                    .entry(name[..end].to_string())
                    .or_default()
                    .push(path.to_path_buf());
            }
        }
    }

    /// The name, and a file spelling it, by which another test file loads the
    /// Python file at `path` (a module or a package that holds it).
    pub fn loader(&self, path: &Path) -> Option<(String, &Path)> {
        let segments = module_segments(path)?;
        let n = segments.len();
        for start in 0..n.saturating_sub(1) {
            // The module by any dotted suffix of its path (`apps.simple.tests`),
            // named itself or something inside it (`apps.simple.tests.Case`).
            let module = segments[start..].join(".");
            let by_module = [self.named.get(&module), self.within.get(&module)];
            for referrer in by_module.into_iter().flatten().flatten() {
                if referrer != path {
                    return Some((module, referrer));
                }
            }
            // A package that holds it (`apps.simple`), named from outside it.
            for end in start + 2..n {
                let package = segments[start..end].join(".");
                let outside = |referrer: &&PathBuf| {
                    module_segments(referrer)
                        .is_none_or(|r| !r.windows(end - start).any(|w| w == &segments[start..end]))
                };
                if let Some(referrer) = self.named.get(&package).and_then(|r| r.iter().find(outside)) {
                    return Some((package, referrer));
                }
            }
        }
        None
    }
}

/// A Python file's path as module segments (`tests/apps/simple/tests.py` ->
/// `tests apps simple tests`; a package's `__init__.py` is the package).
fn module_segments(path: &Path) -> Option<Vec<String>> {
    if path.extension()? != "py" {
        return None;
    }
    let mut segments: Vec<String> = path
        .with_extension("")
        .components()
        .map(|c| c.as_os_str().to_str().map(str::to_string))
        .collect::<Option<_>>()?;
    if segments.last().is_some_and(|s| s == "__init__") {
        segments.pop();
    }
    Some(segments)
}

/// A regex for a string that names the Python file at `path` the way
/// [`Loaded::loader`] matches it, to find the files worth parsing: a quote,
/// a dotted suffix of the module or of a package holding it, then a quote or
/// a dot. A loose match only costs a parse.
pub fn spelling(path: &Path) -> Option<String> {
    let segments = module_segments(path)?;
    let n = segments.len();
    let mut names = Vec::new();
    for start in 0..n.saturating_sub(1) {
        for end in start + 2..=n {
            names.push(regex::escape(&segments[start..end].join(".")));
        }
    }
    (!names.is_empty()).then(|| format!(r#"["'](?:{})["'.]"#, names.join("|")))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(names: &[&str]) -> Vec<String> {
        names.iter().map(|n| n.to_string()).collect()
    }

    #[test]
    fn a_module_named_by_suffix_package_or_member_is_loaded() {
        let mut loaded = Loaded::default();
        loaded.add(
            Path::new("tests/runner/test_discover.py"),
            &names(&["apps.simple", "apps.tagged.tests", "apps.sample.tests.Test.test_sample"]),
        );
        for (path, name) in [
            ("tests/apps/simple/tests.py", "apps.simple"),
            ("tests/apps/simple/deep/test_x.py", "apps.simple"),
            ("tests/apps/tagged/tests.py", "apps.tagged.tests"),
            ("tests/apps/sample/tests.py", "apps.sample.tests"),
        ] {
            let (found, by) = loaded.loader(Path::new(path)).expect(path);
            assert_eq!(found, name, "{path}");
            assert_eq!(by, Path::new("tests/runner/test_discover.py"));
        }
        for path in [
            "tests/apps/tagged/test_other.py",
            "tests/apps/sample/test_more.py",
            "tests/runner/test_discover.py",
            "tests/simple/tests.js",
        ] {
            assert!(loaded.loader(Path::new(path)).is_none(), "{path}");
        }
    }

    #[test]
    fn a_file_naming_itself_or_its_own_package_is_not_loaded() {
        let mut loaded = Loaded::default();
        loaded.add(
            Path::new("pkg/tests/test_pickle.py"),
            &names(&["tests.test_pickle.Point"]),
        );
        loaded.add(Path::new("pkg/tests/test_discovery.py"), &names(&["pkg.tests"]));
        assert!(loaded.loader(Path::new("pkg/tests/test_pickle.py")).is_none());
        assert!(loaded.loader(Path::new("pkg/tests/test_discovery.py")).is_none());
        // A single segment never matches: every `tests.py` would.
        loaded.add(Path::new("other/test_a.py"), &names(&["tests.helpers"]));
        assert!(loaded.loader(Path::new("app/tests.py")).is_none());
    }

    #[test]
    fn spelling_finds_quoted_names_of_the_module_and_its_packages() {
        let re = regex::Regex::new(&spelling(Path::new("tests/apps/simple/tests.py")).unwrap()).unwrap();
        for yes in [
            r#"build_suite(["apps.simple"])"#,
            r#"("apps.simple.tests", 1)"#,
            "'tests.apps.simple.tests.Case'",
        ] {
            assert!(re.is_match(yes), "{yes}");
        }
        for no in [
            "from apps.simple import tests",
            "apps.simple.tests",
            r#""apps.simplest""#,
        ] {
            assert!(!re.is_match(no), "{no}");
        }
    }
}
