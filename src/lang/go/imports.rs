//! What a Go test file imports.

use super::*;

/// The imports of a Go file; a file in the package it tests also imports `.`.
pub fn imports(tree: &Tree, source: &[u8]) -> Vec<Import> {
    let root = tree.root_node();
    let mut out = Vec::new();
    let mut cursor = root.walk();
    for item in root.named_children(&mut cursor) {
        match item.kind() {
            "package_clause" => {
                let package = first_child(&item)
                    .map(|p| text(&p, source).into_owned())
                    .unwrap_or_default();
                if !package.ends_with("_test") {
                    out.push(Import {
                        specifier: ".".to_string(),
                        names: vec!["*".to_string()],
                        origins: vec![package],
                        span: Span::of(&item),
                        kind: ImportKind::Static,
                    });
                }
            }
            "import_declaration" => visit_named(item, |n| {
                if n.kind() != "import_spec" {
                    return true;
                }
                let Some(path) = n.field("path") else { return false };
                let path = text(&path, source).trim_matches(['"', '`']).to_string();
                let alias = n.field("name").map(|a| text(&a, source).into_owned());
                let (names, kind) = match alias.as_deref() {
                    Some("_") => (Vec::new(), ImportKind::SideEffect),
                    Some(".") => (vec!["*".to_string()], ImportKind::Static),
                    Some(a) => (vec![a.to_string()], ImportKind::Static),
                    None => (vec![package_name(&path)], ImportKind::Static),
                };
                out.push(Import {
                    specifier: path.clone(),
                    origins: names.iter().map(|_| path.clone()).collect(),
                    names,
                    span: Span::of(&n),
                    kind,
                });
                false
            }),
            _ => {}
        }
    }
    out
}

/// The package name an import path most likely declares: its last element,
/// skipping a major version (`/v2`) and a `go-` prefix or `.v3` suffix.
pub(super) fn package_name(path: &str) -> String {
    let mut parts = path.rsplit('/');
    let mut last = parts.next().unwrap_or(path);
    if last.len() >= 2 && last.starts_with('v') && last[1..].chars().all(|c| c.is_ascii_digit()) {
        last = parts.next().unwrap_or(last);
    }
    let last = last.split('.').next().unwrap_or(last);
    let last = last.strip_prefix("go-").unwrap_or(last);
    last.replace('-', "_")
}
