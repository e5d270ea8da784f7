//! Snapshot files are expectation data: jest/vitest `__snapshots__/*.snap`,
//! syrupy `__snapshots__/*.ambr`, snapshottest `snapshots/snap_*.py` and
//! insta `snapshots/<module>__<name>.snap` (one snapshot per file, after a
//! `---` header).
//! Each is read into its entries (name, value, line); `.snap` and
//! snapshottest files are JavaScript and Python and are parsed with
//! tree-sitter, `.ambr` is syrupy's own line format.

use std::path::{Path, PathBuf};

use crate::lang::{Lang, visit_named};

/// One stored snapshot.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    pub name: String,
    /// The stored value as written.
    pub value: String,
    /// 1-based line of the entry's name.
    pub line: u32,
}

/// Is `path` a snapshot file, and which test file does it belong to?
pub fn owner(path: &Path) -> Option<PathBuf> {
    let name = path.file_name()?.to_str()?;
    let dir = path.parent()?;
    let dir_name = dir.file_name()?.to_str()?;
    let tests = dir.parent().unwrap_or(Path::new(""));
    match dir_name {
        "__snapshots__" => {
            if let Some(test) = name.strip_suffix(".snap") {
                return Some(tests.join(test));
            }
            name.strip_suffix(".ambr").map(|test| tests.join(format!("{test}.py")))
        }
        "snapshots" => {
            if let Some(stem) = name.strip_suffix(".snap") {
                return insta_owner(tests, stem);
            }
            let test = name.strip_prefix("snap_")?.strip_suffix(".py")?;
            Some(tests.join(format!("{test}.py")))
        }
        _ => None,
    }
}

/// The Rust file an insta snapshot belongs to: insta names the file
/// `<module path>__<snapshot>` with `::` written `__`, in `snapshots/` beside
/// the source file; the file is the module path's last name that is not a
/// test module (`crate__billing__tests__total` belongs to `billing.rs`).
fn insta_owner(dir: &Path, stem: &str) -> Option<PathBuf> {
    let parts: Vec<&str> = stem.split("__").collect();
    let (_, module) = parts.split_last()?;
    let file = module.iter().rev().find(|p| !matches!(**p, "tests" | "test"))?;
    Some(dir.join(format!("{file}.rs")))
}

/// The entries of a snapshot file (`path` decides the format).
pub fn entries(path: &Path, source: &[u8]) -> Vec<Entry> {
    match path.extension().and_then(|e| e.to_str()) {
        Some("snap") if source.starts_with(b"---") => insta(path, &String::from_utf8_lossy(source)),
        Some("snap") => assigned(Lang::JavaScript, source, "exports"),
        Some("py") => assigned(Lang::Python, source, "snapshots"),
        Some("ambr") => ambr(&String::from_utf8_lossy(source)),
        _ => Vec::new(),
    }
}

/// `exports[`name 1`] = `value`;` (jest) and `snapshots['name 1'] = value` (snapshottest).
fn assigned(lang: Lang, source: &[u8], object: &str) -> Vec<Entry> {
    let Some(tree) = lang.parse(source) else {
        return Vec::new();
    };
    let (assignment, subscript, object_field, index_field) = match lang {
        Lang::Python => ("assignment", "subscript", "value", "subscript"),
        _ => ("assignment_expression", "subscript_expression", "object", "index"),
    };
    let text = |n: crate::lang::syntax::Node<'_>| String::from_utf8_lossy(&source[n.byte_range()]).into_owned();
    let mut out = Vec::new();
    visit_named(tree.root_node(), |n| {
        if n.kind() != assignment {
            return true;
        }
        if let (Some(left), Some(right)) = (n.child_by_field_name("left"), n.child_by_field_name("right"))
            && left.kind() == subscript
            && left
                .child_by_field_name(object_field)
                .is_some_and(|o| text(o) == object)
            && let Some(index) = left.child_by_field_name(index_field)
        {
            let name = text(index);
            let name = name.trim_matches(|c| c == '`' || c == '"' || c == '\'').to_string();
            out.push(Entry {
                name,
                value: text(right),
                line: u32::try_from(n.start_position().row + 1).unwrap_or(u32::MAX),
            });
        }
        false
    });
    out
}

/// insta's format: a `---` header (`source:`, `expression:`), `---`, then the value.
fn insta(path: &Path, text: &str) -> Vec<Entry> {
    let name = path
        .file_stem()
        .and_then(|s| s.to_str())
        .map(|s| s.rsplit("__").next().unwrap_or(s).to_string())
        .unwrap_or_default();
    let mut lines = text.lines().enumerate();
    lines.next();
    let Some((end, _)) = lines.find(|(_, l)| l.trim_end() == "---") else {
        return Vec::new();
    };
    let value: Vec<&str> = text.lines().skip(end + 1).collect();
    vec![Entry {
        name,
        value: value.join("\n"),
        line: u32::try_from(end + 2).unwrap_or(u32::MAX),
    }]
}

/// syrupy's amber format: `# name: test_x` then the value, then `# ---`.
fn ambr(text: &str) -> Vec<Entry> {
    let mut out: Vec<Entry> = Vec::new();
    let mut open = false;
    for (i, line) in text.lines().enumerate() {
        if let Some(name) = line.strip_prefix("# name: ") {
            out.push(Entry {
                name: name.trim().to_string(),
                value: String::new(),
                line: u32::try_from(i + 1).unwrap_or(u32::MAX),
            });
            open = true;
        } else if line.trim_end() == "# ---" {
            open = false;
        } else if open && let Some(entry) = out.last_mut() {
            entry.value.push_str(line);
            entry.value.push('\n');
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn owners() {
        for (snap, test) in [
            ("src/__snapshots__/cart.test.ts.snap", "src/cart.test.ts"),
            ("tests/__snapshots__/test_cart.ambr", "tests/test_cart.py"),
            ("tests/snapshots/snap_test_cart.py", "tests/test_cart.py"),
            ("tests/snapshots/cli__help.snap", "tests/cli.rs"),
            ("src/snapshots/shop__billing__tests__total.snap", "src/billing.rs"),
        ] {
            assert_eq!(owner(Path::new(snap)), Some(PathBuf::from(test)), "{snap}");
        }
        for no in ["src/cart.snap", "tests/snapshots/helpers.py", "tests/test_cart.py"] {
            assert_eq!(owner(Path::new(no)), None, "{no}");
        }
    }

    #[test]
    fn entries_of_each_format() {
        let jest = "// Jest Snapshot v1\n\nexports[`cart > total 1`] = `\"10\"`;\n\nexports[`renders 1`] = `\n<div>\n  hi\n</div>\n`;\n";
        let found = entries(Path::new("__snapshots__/a.test.ts.snap"), jest.as_bytes());
        let names: Vec<(&str, u32)> = found.iter().map(|e| (e.name.as_str(), e.line)).collect();
        assert_eq!(names, vec![("cart > total 1", 3), ("renders 1", 5)]);
        assert_eq!(found[0].value, "`\"10\"`");

        let amber = "# serializer version: 1\n# name: test_total\n  10\n# ---\n# name: test_items\n  list([\n    1,\n  ])\n# ---\n";
        let found = entries(Path::new("__snapshots__/test_a.ambr"), amber.as_bytes());
        assert_eq!(found.len(), 2);
        assert_eq!(
            (found[0].name.as_str(), found[0].value.as_str(), found[0].line),
            ("test_total", "  10\n", 2)
        );

        let insta = "---\nsource: src/billing.rs\nexpression: total(&cart)\n---\n10\n";
        let found = entries(
            Path::new("src/snapshots/shop__billing__tests__total.snap"),
            insta.as_bytes(),
        );
        assert_eq!(
            found,
            vec![Entry {
                name: "total".into(),
                value: "10".into(),
                line: 5
            }]
        );

        let snapshottest =
            "from snapshottest import Snapshot\n\nsnapshots = Snapshot()\n\nsnapshots['test_total 1'] = 10\n";
        let found = entries(Path::new("snapshots/snap_test_a.py"), snapshottest.as_bytes());
        assert_eq!(found.len(), 1);
        assert_eq!(
            (found[0].name.as_str(), found[0].value.as_str()),
            ("test_total 1", "10")
        );
    }
}
