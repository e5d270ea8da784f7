//! What a Rust test file imports (`use`) and references.

use super::*;

/// The names the file references outside `use` declarations, and the
/// modules it names by path without a `use` (`mycrate::parse(..)`,
/// `crate::lang::helper()`), as dynamic imports.
pub(super) fn references(root: &Node, source: &[u8], imports: &mut Vec<Import>) -> BTreeSet<String> {
    let mut used = BTreeSet::new();
    let mut roots: BTreeSet<String> = BTreeSet::new();
    let imported: BTreeSet<&str> = imports
        .iter()
        .flat_map(|i| i.names.iter().map(String::as_str))
        .collect();
    let path_root = |path: &str, roots: &mut BTreeSet<String>| {
        let head = path.split("::").next().unwrap_or(path);
        let module =
            head.chars().next().is_some_and(|c| c.is_ascii_lowercase() || c == '_') && !imported.contains(head);
        if module && let Some((prefix, _)) = path.rsplit_once("::") {
            roots.insert(prefix.to_string());
        }
    };
    visit_named(*root, |n| match n.kind() {
        // Attributes are read: `#[derive(Error)]` uses the imported `Error`.
        "use_declaration" | "extern_crate_declaration" => false,
        k if COMMENTS.contains(&k) => false,
        "identifier" | "type_identifier" => {
            crate::lang::note_name(&n, source, &mut used);
            false
        }
        "scoped_identifier" | "scoped_type_identifier" => {
            if n.parent()
                .is_none_or(|p| !matches!(p.kind(), "scoped_identifier" | "scoped_type_identifier"))
            {
                path_root(&callee_key(&text(&n, source)), &mut roots);
            }
            true
        }
        "token_tree" => {
            // `a::b::c` spelled token by token inside a macro.
            let mut cursor = n.walk();
            let tokens: Vec<Node> = n.children(&mut cursor).collect();
            let mut i = 0;
            while i < tokens.len() {
                // A path an attribute names in a string (serde's `with =
                // "hex"`, `serialize_with = "hex::serialize_upper"`): the
                // derive calls it (issue 64: rust-hex's `tests/serde.rs`).
                if let Some(path) = attribute_path(&tokens, i, source) {
                    match path.contains("::") {
                        true => path_root(&path, &mut roots),
                        false => {
                            roots.insert(path);
                        }
                    }
                }
                let starts = matches!(tokens[i].kind(), "identifier" | "crate" | "super" | "self")
                    && (i == 0 || tokens[i - 1].kind() != "::");
                if starts && tokens.get(i + 1).is_some_and(|t| t.kind() == "::") {
                    let mut path = text(&tokens[i], source).into_owned();
                    let mut j = i + 1;
                    while tokens.get(j).is_some_and(|t| t.kind() == "::")
                        && let Some(next) = tokens.get(j + 1).filter(|t| t.kind() == "identifier")
                    {
                        path.push_str("::");
                        path.push_str(&text(next, source));
                        j += 2;
                    }
                    path_root(&path, &mut roots);
                    i = j;
                    continue;
                }
                i += 1;
            }
            true
        }
        _ => true,
    });
    for spec in roots {
        imports.push(Import {
            specifier: spec,
            names: Vec::new(),
            origins: Vec::new(),
            span: Span::of(root),
            kind: ImportKind::Dynamic,
        });
    }
    used
}

/// The path the string at `tokens[i]` names, when it is the value of an
/// attribute's argument that takes one (`with = "m"`, a module; `*_with`,
/// `default`, `skip_serializing_if`, `getter`: a function), written as a
/// path (`a::b`; one name only for a module), inside an attribute.
fn attribute_path(tokens: &[Node], i: usize, source: &[u8]) -> Option<String> {
    let value = tokens.get(i).filter(|t| t.kind() == "string_literal")?;
    let key = i
        .checked_sub(2)
        .and_then(|k| tokens.get(k))
        .filter(|k| k.kind() == "identifier")?;
    if tokens.get(i - 1).is_none_or(|eq| eq.kind() != "=") {
        return None;
    }
    let key = text(key, source);
    let module = key == "with";
    if !(module || key.ends_with("_with") || matches!(&*key, "default" | "skip_serializing_if" | "getter")) {
        return None;
    }
    let mut up = value.parent();
    while let Some(p) = up {
        if p.kind() == "attribute_item" || p.kind() == "inner_attribute_item" {
            break;
        }
        up = p.parent();
    }
    up?;
    let path = text(value, source);
    let path = path.trim_matches('"');
    let segments: Vec<&str> = path.split("::").collect();
    let named = segments
        .iter()
        .all(|s| !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'));
    (named && (module || segments.len() > 1)).then(|| path.to_string())
}

/// Every `use` (and `extern crate`, and `mod x;`) in the file, nested
/// modules included. `use a::b::{c, d as e}` is one import of `a::b`
/// binding `c` and `e`.
pub fn imports(tree: &Tree, source: &[u8]) -> Vec<Import> {
    imports_and_used(tree, source).0
}

/// The imports of the file (with the modules it names by path) and the
/// names it references outside `use` declarations.
pub(super) fn imports_and_used(tree: &Tree, source: &[u8]) -> (Vec<Import>, BTreeSet<String>) {
    let mut out = use_imports(tree, source);
    let used = references(&tree.root_node(), source, &mut out);
    (out, used)
}

/// Every `use` (and `extern crate`, and `mod x;`).
pub(super) fn use_imports(tree: &Tree, source: &[u8]) -> Vec<Import> {
    let mut out: Vec<Import> = Vec::new();
    visit_named(tree.root_node(), |n| {
        match n.kind() {
            "use_declaration" => {
                if let Some(argument) = n.field("argument") {
                    let mut leaves = Vec::new();
                    use_leaves(&argument, source, "", &mut leaves);
                    for (prefix, name, origin) in leaves {
                        match out.iter_mut().find(|i| i.specifier == prefix && i.span == Span::of(&n)) {
                            Some(import) => {
                                import.names.push(name);
                                import.origins.push(origin);
                            }
                            None => out.push(Import {
                                specifier: prefix,
                                names: vec![name],
                                origins: vec![origin],
                                span: Span::of(&n),
                                kind: ImportKind::Static,
                            }),
                        }
                    }
                }
                return false;
            }
            "extern_crate_declaration" => {
                if let Some(name) = n.field("name") {
                    let crate_name = text(&name, source).into_owned();
                    let local = n
                        .field("alias")
                        .map_or(crate_name.clone(), |a| text(&a, source).into_owned());
                    out.push(Import {
                        specifier: crate_name.clone(),
                        names: vec![local],
                        origins: vec![crate_name],
                        span: Span::of(&n),
                        kind: ImportKind::Static,
                    });
                }
                return false;
            }
            // `mod common;` loads `common.rs` or `common/mod.rs` beside the file.
            "mod_item" if n.field("body").is_none() => {
                if let Some(name) = n.field("name") {
                    let name = text(&name, source).into_owned();
                    out.push(Import {
                        specifier: format!("self::{name}"),
                        names: vec![name.clone()],
                        origins: vec![format!("self::{name}")],
                        span: Span::of(&n),
                        kind: ImportKind::Static,
                    });
                }
                return false;
            }
            _ => {}
        }
        // `use` inside a test function is common: function bodies are read too.
        !matches!(n.kind(), "token_tree" | "string_literal")
    });
    out
}

/// The leaves of a use tree: (module path, local name, full path).
pub(super) fn use_leaves(node: &Node, source: &[u8], prefix: &str, out: &mut Vec<(String, String, String)>) {
    let join = |a: &str, b: &str| {
        if a.is_empty() {
            b.to_string()
        } else {
            format!("{a}::{b}")
        }
    };
    match node.kind() {
        "scoped_use_list" => {
            let path = node
                .field("path")
                .map(|p| callee_key(&text(&p, source)))
                .unwrap_or_default();
            let prefix = join(prefix, &path);
            if let Some(list) = node.field("list") {
                use_leaves(&list, source, &prefix, out);
            }
        }
        "use_list" => {
            let mut cursor = node.walk();
            for child in node.named_children(&mut cursor) {
                use_leaves(&child, source, prefix, out);
            }
        }
        "use_wildcard" => {
            let full = callee_key(&text(node, source));
            let path = full.trim_end_matches("::*").trim_end_matches('*').to_string();
            out.push((join(prefix, &path), "*".to_string(), join(prefix, &full)));
        }
        "use_as_clause" => {
            let (Some(path), Some(alias)) = (node.field("path"), node.field("alias")) else {
                return;
            };
            let full = join(prefix, &callee_key(&text(&path, source)));
            let module = full.rsplit_once("::").map_or(full.clone(), |(m, _)| m.to_string());
            out.push((module, text(&alias, source).into_owned(), full));
        }
        "scoped_identifier" | "identifier" | "crate" | "self" | "super" => {
            let full = join(prefix, &callee_key(&text(node, source)));
            let (module, name) = match full.rsplit_once("::") {
                // `use a::b::{self}` binds `b`.
                Some((m, "self")) => (m.to_string(), m.rsplit("::").next().unwrap_or(m).to_string()),
                Some((m, n)) => (m.to_string(), n.to_string()),
                None => (full.clone(), full.clone()),
            };
            out.push((module, name, full));
        }
        _ => {}
    }
}
