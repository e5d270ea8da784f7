//! A Go package's files: the package an import path names (in a module of
//! the repository, or the test's own outside any module), and what the
//! files beside a test declare.

use std::path::{Path, PathBuf};

use super::Resolver;
use crate::lang::Lang;

impl Resolver {
    /// Does the Go package of the test file `from` (its directory's non-test
    /// `.go` files) declare the methods that configure a double, `On` and
    /// `Return` (a mocking library's own package)?
    pub fn go_package_defines_doubles(&self, from: &Path) -> bool {
        let mut on = false;
        let mut ret = false;
        for (_, bytes) in self.go_files_beside(from, false) {
            let text = String::from_utf8_lossy(&bytes);
            for line in text.lines().filter(|l| l.starts_with("func (")) {
                on |= line.contains(") On(");
                ret |= line.contains(") Return(");
            }
        }
        on && ret
    }

    /// The `.go` files (repo-relative, with their bytes) in the directory of
    /// `from`, `from` aside, in name order: its `_test.go` files when
    /// `tests`, else the others. Regular files only, read as every file is
    /// (confined to the repository, within the size cap).
    pub(super) fn go_files_beside(&self, from: &Path, tests: bool) -> Vec<(PathBuf, Vec<u8>)> {
        let dir = from.parent().unwrap_or(Path::new(""));
        let Ok(entries) = std::fs::read_dir(self.root.join(dir)) else {
            return Vec::new();
        };
        let mut names: Vec<String> = entries
            .flatten()
            .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
            .filter_map(|e| e.file_name().to_str().map(str::to_string))
            .filter(|n| n.ends_with(".go") && n.ends_with("_test.go") == tests && dir.join(n) != from)
            .collect();
        names.sort();
        names
            .into_iter()
            .filter_map(|name| {
                let path = dir.join(name);
                let bytes = crate::walk::read_file(&self.root, &path).ok()?;
                Some((path, bytes))
            })
            .collect()
    }

    /// Does the Go test file `from` call (`called`) a helper that another
    /// test file of its package defines (`func name(` in a `_test.go`
    /// beside it, under the same `package` clause), a file that imports
    /// project code? A Go package's test files share their functions: the
    /// generated tests calling `testgenInvalid(t, input)` run the decoder
    /// that helper's file imports (issue 64: go-toml's `toml_testgen_test.go`).
    pub fn go_helpers_reach_subject(&self, from: &Path, called: &[&str]) -> bool {
        let Some(own) = crate::walk::read_file(&self.root, from)
            .ok()
            .and_then(|t| package_clause(&String::from_utf8_lossy(&t)))
        else {
            return false;
        };
        self.go_files_beside(from, true).into_iter().any(|(sibling, bytes)| {
            let text = String::from_utf8_lossy(&bytes);
            let defines = text.lines().any(|l| {
                l.strip_prefix("func ")
                    .and_then(|rest| rest.split_once('('))
                    .is_some_and(|(name, _)| called.contains(&name.trim()))
            });
            defines
                && package_clause(&text).as_deref() == Some(own.as_str())
                && Lang::Go
                    .imports(&bytes)
                    .is_some_and(|imports| imports.iter().any(|i| self.reaches(&sibling, Lang::Go, i, 1)))
        })
    }

    /// Outside any module (a repository of the GOPATH days, with no
    /// `go.mod` above `from`), the directory of `from` when `spec` ends with
    /// the name its package's files declare: an external test package
    /// (`package copier_test`) imports the package it tests by its path,
    /// `github.com/jinzhu/copier`, which only a module would spell out
    /// (issue 64: copier's tests before it had a `go.mod`).
    fn gopath_own_package(&self, from: &Path, spec: &str) -> Option<PathBuf> {
        let covered = self
            .go_modules
            .iter()
            .any(|(module, root)| module != "std" && from.starts_with(root));
        let last = spec.rsplit('/').next()?;
        if covered || !spec.contains('/') {
            return None;
        }
        let declared = self
            .go_files_beside(from, false)
            .into_iter()
            .find_map(|(_, bytes)| package_clause(&String::from_utf8_lossy(&bytes)))?;
        (declared == last).then(|| from.parent().unwrap_or(Path::new("")).to_path_buf())
    }

    /// The package directory a Go import path names, when it is in the repository.
    pub(super) fn go(&self, from: &Path, spec: &str) -> Option<PathBuf> {
        let own = from.parent().unwrap_or(Path::new(""));
        let dir = if spec == "." {
            own.to_path_buf()
        } else {
            self.go_modules
                .iter()
                .find_map(|(module, root)| {
                    // The standard library's module spells its packages without a prefix.
                    if module == "std" && !spec.split('/').next().is_some_and(|first| first.contains('.')) {
                        return Some(root.join(spec));
                    }
                    let rest = spec.strip_prefix(module.as_str())?;
                    match rest.strip_prefix('/') {
                        Some(sub) => Some(root.join(sub)),
                        None => rest.is_empty().then(|| root.clone()),
                    }
                })
                .or_else(|| self.gopath_own_package(from, spec))?
        };
        // A package is its non-test `.go` files.
        if !self.is_dir(&dir) {
            return None;
        }
        let holds_code = std::fs::read_dir(self.root.join(&dir)).ok()?.flatten().any(|e| {
            let name = e.file_name();
            let name = name.to_string_lossy();
            name.ends_with(".go") && !name.ends_with("_test.go")
        });
        holds_code.then_some(dir)
    }
}

/// The package a Go file's `package` clause names, without the import
/// comment of the GOPATH days (`package multierr // import
/// "go.uber.org/multierr"`).
fn package_clause(text: &str) -> Option<String> {
    text.lines()
        .find_map(|l| l.strip_prefix("package "))
        .and_then(|p| p.split_whitespace().next())
        .map(str::to_string)
}
