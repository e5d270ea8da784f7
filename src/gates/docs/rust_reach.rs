//! Which of a Rust file's `pub` items its crate's users can reach: the file
//! is a module of a library crate (`src/lib.rs` and the files its `mod`
//! declarations lead to), and every module on the way from the crate root
//! is `pub mod`. Under a private module, an item counts only when a public
//! module above re-exports it (`pub use crate::error::*;`, `pub use
//! self::error::{Error, Result};`, `pub use imp::deep::Thing;` in the crate
//! root), and so do the methods of a type re-exported.
//!
//! `#[path]` attributes, nested braces (`pub use a::{b::X}`) and re-exports
//! of re-exports are not followed; those items are treated as unreachable.

use std::path::Path;
#[cfg(test)]
use std::path::PathBuf;

use crate::lang::syntax::{Node, Tree};

use crate::lang::Lang;

/// How a file's items are reached.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reach {
    /// Not part of a library's API: a binary, a build script, a file no
    /// `mod` declaration leads to.
    None,
    /// Every `pub` item.
    All,
    /// Only these re-exported names (`*`: all of them).
    Only(Vec<String>),
}

impl Reach {
    /// Is the item `name` (a method of the type `parent`) reachable?
    pub fn keeps(&self, name: &str, parent: Option<&str>) -> bool {
        match self {
            Reach::None => false,
            Reach::All => true,
            // A re-exported type's methods are the crate's API too.
            Reach::Only(names) => names.iter().any(|n| n == "*" || n == parent.unwrap_or(name)),
        }
    }
}

/// How the items of `path` (repo-relative) are reached, in the repository at `root`.
pub fn reach(root: &Path, path: &Path) -> Reach {
    let Some(crate_dir) = path
        .ancestors()
        .skip(1)
        .find(|dir| root.join(dir).join("Cargo.toml").is_file())
    else {
        return Reach::None;
    };
    let src = crate_dir.join("src");
    let Ok(rel) = path.strip_prefix(&src) else {
        return Reach::None;
    };
    let lib = src.join("lib.rs");
    if !root.join(&lib).is_file() {
        return Reach::None;
    }
    let mut chain: Vec<String> = rel.iter().map(|c| c.to_string_lossy().into_owned()).collect();
    let Some(last) = chain.pop() else {
        return Reach::None;
    };
    match last.as_str() {
        "lib.rs" if chain.is_empty() => return Reach::All,
        "main.rs" if chain.is_empty() => return Reach::None,
        "mod.rs" => {}
        name => match name.strip_suffix(".rs") {
            Some(stem) => chain.push(stem.to_string()),
            None => return Reach::None,
        },
    }
    if chain.first().is_some_and(|c| c == "bin") {
        return Reach::None;
    }
    // Walk the declarations from the crate root down. The modules reached
    // before the first private one are public: what they re-export of the
    // file's module is.
    let mut declaring = lib;
    let mut dir = src;
    let mut public: Vec<(Tree, Vec<u8>, usize)> = Vec::new();
    let mut private = false;
    for (i, name) in chain.iter().enumerate() {
        let Some(text) = std::fs::read(root.join(&declaring)).ok() else {
            return Reach::None;
        };
        let Some(tree) = Lang::Rust.parse(&text) else {
            return Reach::None;
        };
        let Some(declared_pub) = declaration(&tree, &text, name) else {
            return Reach::None;
        };
        if !private {
            public.push((tree, text, i));
        }
        private |= !declared_pub;
        dir = dir.join(name);
        let file = dir.with_extension("rs");
        declaring = if root.join(&file).is_file() {
            file
        } else {
            dir.join("mod.rs")
        };
    }
    if !private {
        return Reach::All;
    }
    Reach::Only(
        public
            .iter()
            .flat_map(|(tree, text, level)| reexports(tree, text, &chain[*level..], &chain))
            .collect(),
    )
}

fn children(node: Node<'_>) -> Vec<Node<'_>> {
    let mut cursor = node.walk();
    node.named_children(&mut cursor).collect()
}

/// `mod name;` at the top of `text` (parsed as `tree`): `Some(true)` when it
/// is `pub mod` and not `#[doc(hidden)]` or `#[allow(missing_docs)]` (a
/// module hidden from the docs, or exempt from them, is reached, as a
/// private one is, only through what is re-exported).
fn declaration(tree: &Tree, text: &[u8], name: &str) -> Option<bool> {
    let items = children(tree.root_node());
    let at = items.iter().position(|n| {
        n.kind() == "mod_item"
            && n.child_by_field_name("body").is_none()
            && n.child_by_field_name("name")
                .and_then(|id| id.utf8_text(text).ok())
                .is_some_and(|id| id == name)
    })?;
    let public = children(items[at])
        .iter()
        .any(|c| c.kind() == "visibility_modifier" && c.utf8_text(text).is_ok_and(|v| v == "pub"));
    Some(public && !super::exports::rust_hidden(&items[..at], text) && !super::exports::rust_exempt(&items[..at], text))
}

/// The names `pub use` declarations in `text` (parsed as `tree`) re-export
/// from the module at `path` below it (`self::a::b::`, `a::b::`), or at
/// `from_root` below the crate root (`crate::x::a::b::`).
fn reexports(tree: &Tree, text: &[u8], path: &[String], from_root: &[String]) -> Vec<String> {
    let mut names = Vec::new();
    for item in children(tree.root_node()) {
        let public = children(item)
            .iter()
            .any(|c| c.kind() == "visibility_modifier" && c.utf8_text(text).is_ok_and(|v| v == "pub"));
        if item.kind() != "use_declaration" || !public {
            continue;
        }
        let used: String = item
            .child_by_field_name("argument")
            .and_then(|a| a.utf8_text(text).ok())
            .unwrap_or("")
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        let rest = match used.strip_prefix("crate::") {
            Some(absolute) => below(absolute, from_root),
            None => below(used.strip_prefix("self::").unwrap_or(&used), path),
        };
        let Some(rest) = rest else {
            continue;
        };
        let list = rest.trim().trim_start_matches('{').trim_end_matches('}');
        for part in list.split(',') {
            // `Error as E` re-exports `Error`; a nested path is left alone.
            match part.split_whitespace().next() {
                Some(part) if !part.contains("::") => names.push(part.to_string()),
                _ => {}
            }
        }
    }
    names
}

/// What `used` names below the module at `path` (`a::b::{X, Y}` below
/// `a`, `b`: `{X, Y}`).
fn below<'u>(used: &'u str, path: &[String]) -> Option<&'u str> {
    let mut rest = used;
    for part in path {
        rest = rest.strip_prefix(part.as_str())?.strip_prefix("::")?;
    }
    Some(rest)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(path: &str) -> PathBuf {
        PathBuf::from(path)
    }

    #[test]
    fn modules_are_reached_through_pub_mod_and_pub_use() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        let write = |rel: &str, text: &str| {
            let path = root.join(rel);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        };
        write("Cargo.toml", "[package]\nname = \"x\"\n");
        write(
            "src/lib.rs",
            "pub mod api;\nmod error;\nmod kind;\npub(crate) mod util;\nmod imp;\npub use crate::error::{Error, Result as R};\npub use imp::deep::{Thing, Other as O};\n",
        );
        write(
            "src/imp/mod.rs",
            "pub mod deep;\nmod inner;\npub use self::inner::Hidden;\n",
        );
        write("src/imp/deep.rs", "");
        write("src/imp/inner.rs", "");
        write("src/api/mod.rs", "pub mod deep;\nmod hidden;\n");
        write("src/api/deep.rs", "");
        write("src/api/hidden.rs", "");
        write("src/error.rs", "");
        write("src/kind.rs", "");
        write("src/util.rs", "");
        write("src/main.rs", "");
        write("src/orphan.rs", "");
        write("tools/Cargo.toml", "[package]\nname = \"tools\"\n");
        write("tools/src/main.rs", "");
        assert_eq!(reach(root, &p("src/lib.rs")), Reach::All);
        assert_eq!(reach(root, &p("src/api/mod.rs")), Reach::All);
        assert_eq!(reach(root, &p("src/api/deep.rs")), Reach::All);
        assert_eq!(reach(root, &p("src/api/hidden.rs")), Reach::Only(Vec::new()));
        assert_eq!(
            reach(root, &p("src/error.rs")),
            Reach::Only(vec!["Error".to_string(), "Result".to_string()])
        );
        assert_eq!(reach(root, &p("src/kind.rs")), Reach::Only(Vec::new()));
        // Re-exported from further up, through a private module.
        assert_eq!(
            reach(root, &p("src/imp/deep.rs")),
            Reach::Only(vec!["Thing".to_string(), "Other".to_string()])
        );
        assert_eq!(
            reach(root, &p("src/imp/inner.rs")),
            Reach::Only(Vec::new()),
            "re-exported only into a private module"
        );
        assert_eq!(reach(root, &p("src/util.rs")), Reach::Only(Vec::new()));
        assert_eq!(reach(root, &p("src/main.rs")), Reach::None);
        assert_eq!(reach(root, &p("src/orphan.rs")), Reach::None);
        assert_eq!(reach(root, &p("tools/src/main.rs")), Reach::None);
        assert!(Reach::Only(vec!["*".into()]).keeps("anything", Some("T")));
        assert!(
            Reach::Only(vec!["Error".into()]).keeps("new", Some("Error")),
            "a re-exported type's method"
        );
        assert!(!Reach::Only(vec!["Error".into()]).keeps("new", Some("Other")));
        assert!(!Reach::Only(vec!["Error".into()]).keeps("new", None));
    }
}
