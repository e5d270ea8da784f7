//! Turning the file names a coverage report records into repo-relative paths.
//!
//! Reports name files however their tool saw them: relative to where it ran
//! (`src/a.py`, `./src/a.py`), relative to a source root the report lists
//! (Cobertura `<source>`), absolute on this machine or on the CI runner that
//! wrote it (`/home/runner/work/p/p/src/a.py`, `C:\a\p\src\a.py`), or as a
//! Go import path (`example.com/p/src/a.go`). Each is tried in that order
//! against the working tree; what is left is matched by its longest suffix
//! that names a file in the repository.

use std::path::{Path, PathBuf};
use std::time::SystemTime;

/// A file the report covers, found in the working tree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    /// Repo-relative.
    pub path: PathBuf,
    pub modified: Option<SystemTime>,
}

pub struct Mapper<'a> {
    root: &'a Path,
    /// The repository root as `/`-separated text, without a trailing `/`;
    /// also its canonical form when that differs (a symlinked checkout).
    roots: Vec<String>,
    /// The module path in the root's `go.mod`, for Go cover profiles.
    go_module: Option<String>,
}

impl<'a> Mapper<'a> {
    pub fn new(root: &'a Path) -> Mapper<'a> {
        let mut roots = vec![slashes(&root.to_string_lossy())];
        if let Ok(canonical) = root.canonicalize() {
            let canonical = slashes(&canonical.to_string_lossy());
            if !roots.contains(&canonical) {
                roots.push(canonical);
            }
        }
        for r in &mut roots {
            while r.len() > 1 && r.ends_with('/') {
                r.pop();
            }
        }
        let go_module = std::fs::read_to_string(root.join("go.mod"))
            .ok()
            .and_then(|text| go_module(&text));
        Mapper { root, roots, go_module }
    }

    /// Where `name`, as the report records it, is in the repository; `None`
    /// when no file in the working tree matches. `sources` are the roots the
    /// report records; `bases` the repo-relative directories a relative name
    /// may be relative to, nearest the report first (the report's own
    /// directory up to the root, `""`).
    pub fn find(&self, name: &str, sources: &[String], bases: &[String]) -> Option<Found> {
        let name = slashes(name.trim());
        let name = name.strip_prefix("file://").unwrap_or(&name);
        // In order: each path as it is, then, when it carries `Some(n)`, its tails of at least n components.
        let mut tries: Vec<(String, Option<usize>)> = Vec::new();
        if let Some(module) = &self.go_module
            && let Some(rest) = name.strip_prefix(module.as_str()).and_then(|r| r.strip_prefix('/'))
        {
            tries.push((rest.to_string(), None));
        }
        // GOPATH-less Go profiles write a package outside a module as `_/abs/dir`.
        let name = name
            .strip_prefix('_')
            .filter(|abs| abs.starts_with('/'))
            .unwrap_or(name);
        if is_absolute(name) {
            tries.push((name.to_string(), Some(1)));
        } else {
            let parts = name.split('/').filter(|p| !p.is_empty() && *p != ".").count();
            for source in sources {
                let joined = format!("{}/{name}", slashes(source).trim_end_matches('/'));
                // A root from another machine: keep the whole name, find where the root is here.
                let tail = is_absolute(&joined).then_some(parts.max(1));
                tries.push((joined, tail));
            }
            for base in bases {
                tries.push((format!("{base}/{name}"), None));
            }
            tries.push((name.to_string(), Some(1)));
        }
        tries.iter().find_map(|(c, tail)| {
            self.relative(c)
                .and_then(|rel| self.found(rel))
                .or_else(|| tail.and_then(|min| self.by_suffix(c, min)))
        })
    }

    /// `c` as a clean repo-relative path: absolute ones must be under the root.
    fn relative(&self, c: &str) -> Option<String> {
        if is_absolute(c) {
            self.roots.iter().find_map(|root| {
                let rest = c.strip_prefix(root.as_str())?;
                let rest = if root == "/" { rest } else { rest.strip_prefix('/')? };
                clean(rest)
            })
        } else {
            clean(c)
        }
    }

    /// The longest tail of `c`, of at least `min` whole components, that is a file here.
    fn by_suffix(&self, c: &str, min: usize) -> Option<Found> {
        let parts: Vec<&str> = c.split('/').filter(|p| !p.is_empty() && *p != ".").collect();
        (1..=parts.len().saturating_sub(min)).find_map(|skip| {
            let tail = &parts[skip..];
            (!tail.contains(&".."))
                .then(|| tail.join("/"))
                .and_then(|rel| self.found(rel))
        })
    }

    fn found(&self, rel: String) -> Option<Found> {
        if rel.is_empty() {
            return None;
        }
        // A symlink is not followed: it may point out of the repository, and
        // coverage tools record the file it resolves to.
        let meta = std::fs::symlink_metadata(self.root.join(&rel)).ok()?;
        meta.is_file().then(|| Found {
            path: PathBuf::from(rel),
            modified: meta.modified().ok(),
        })
    }
}

/// `\` to `/`, so Windows paths compare like the others.
fn slashes(s: &str) -> String {
    s.replace('\\', "/")
}

/// `/x`, `//server/share`, `C:/x`.
fn is_absolute(s: &str) -> bool {
    let b = s.as_bytes();
    s.starts_with('/') || (b.len() >= 3 && b[0].is_ascii_alphabetic() && b[1] == b':' && b[2] == b'/')
}

/// Drop `.` and empty components and resolve `..`; `None` if it climbs out.
fn clean(rel: &str) -> Option<String> {
    let mut parts: Vec<&str> = Vec::new();
    for part in rel.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            p => parts.push(p),
        }
    }
    Some(parts.join("/"))
}

/// The `module` directive of a go.mod.
fn go_module(text: &str) -> Option<String> {
    text.lines().find_map(|line| {
        let rest = line.trim().strip_prefix("module")?;
        let module = rest.split("//").next()?.trim().trim_matches('"');
        (rest.starts_with(char::is_whitespace) && !module.is_empty()).then(|| module.to_string())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn repo() -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        for f in ["src/pkg/a.py", "pkg/a.py", "calc/calc.go", "b.js"] {
            let p = dir.path().join(f);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, "x\n").unwrap();
        }
        std::fs::write(
            dir.path().join("go.mod"),
            "module example.com/gocov // the module\n\ngo 1.22\n",
        )
        .unwrap();
        dir
    }

    fn find(m: &Mapper<'_>, name: &str, sources: &[&str]) -> Option<String> {
        let sources: Vec<String> = sources.iter().map(|s| s.to_string()).collect();
        m.find(name, &sources, &[String::new()])
            .map(|f| f.path.to_string_lossy().replace('\\', "/"))
    }

    #[test]
    fn relative_dot_and_source_roots() {
        let dir = repo();
        let m = Mapper::new(dir.path());
        assert_eq!(find(&m, "src/pkg/a.py", &[]).as_deref(), Some("src/pkg/a.py"));
        assert_eq!(find(&m, "./src/./pkg/a.py", &[]).as_deref(), Some("src/pkg/a.py"));
        assert_eq!(find(&m, "b.js", &[]).as_deref(), Some("b.js"));
        // A source root of this checkout wins over the bare name.
        let root = dir.path().join("src").to_string_lossy().into_owned();
        assert_eq!(find(&m, "pkg/a.py", &[&root]).as_deref(), Some("src/pkg/a.py"));
        assert_eq!(find(&m, "pkg/a.py", &["src"]).as_deref(), Some("src/pkg/a.py"));
        assert_eq!(find(&m, "pkg/a.py", &[]).as_deref(), Some("pkg/a.py"));
    }

    #[test]
    fn absolute_here_elsewhere_and_on_windows() {
        let dir = repo();
        let m = Mapper::new(dir.path());
        let here = format!("{}/src/pkg/a.py", dir.path().display());
        assert_eq!(find(&m, &here, &[]).as_deref(), Some("src/pkg/a.py"));
        assert_eq!(
            find(&m, "/home/runner/work/p/p/src/pkg/a.py", &[]).as_deref(),
            Some("src/pkg/a.py")
        );
        assert_eq!(find(&m, r"C:\a\p\src\pkg\a.py", &[]).as_deref(), Some("src/pkg/a.py"));
        assert_eq!(find(&m, "pkg/a.py", &[r"D:\ci\p\src"]).as_deref(), Some("src/pkg/a.py"));
        assert_eq!(find(&m, "file:///ci/p/b.js", &[]).as_deref(), Some("b.js"));
    }

    #[test]
    fn names_relative_to_the_reports_directory() {
        let dir = repo();
        std::fs::create_dir_all(dir.path().join("web/src")).unwrap();
        std::fs::write(dir.path().join("web/src/a.ts"), "").unwrap();
        std::fs::write(dir.path().join("web/b.js"), "").unwrap();
        let m = Mapper::new(dir.path());
        let bases = ["web/coverage".to_string(), "web".to_string(), String::new()];
        let at = |name: &str| {
            m.find(name, &[], &bases)
                .map(|f| f.path.to_string_lossy().replace('\\', "/"))
        };
        assert_eq!(at("src/a.ts").as_deref(), Some("web/src/a.ts"));
        // The nearer directory wins over the root's b.js.
        assert_eq!(at("b.js").as_deref(), Some("web/b.js"));
        assert_eq!(at("src/pkg/a.py").as_deref(), Some("src/pkg/a.py"));
    }

    #[test]
    fn go_import_paths() {
        let dir = repo();
        let m = Mapper::new(dir.path());
        assert_eq!(
            find(&m, "example.com/gocov/calc/calc.go", &[]).as_deref(),
            Some("calc/calc.go")
        );
        assert_eq!(
            find(&m, "other.org/x/calc/calc.go", &[]).as_deref(),
            Some("calc/calc.go")
        );
        assert_eq!(go_module("module \"a.b/c\"\n").as_deref(), Some("a.b/c"));
        assert_eq!(go_module("modules x\n"), None);
    }

    #[test]
    fn missing_files_and_escapes_are_not_found() {
        let dir = repo();
        let m = Mapper::new(dir.path());
        assert_eq!(find(&m, "src/pkg/gone.py", &[]), None);
        // A name that climbs out is still matched by its tail, like any other.
        assert_eq!(find(&m, "../outside/b.js", &[]).as_deref(), Some("b.js"));
        assert_eq!(find(&m, "src", &[]), None);
        assert_eq!(clean("a/../../b"), None);
    }
}
