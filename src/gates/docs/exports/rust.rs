//! Rust: `pub` items of a crate's modules, their doc comments, and what
//! rustdoc and `missing_docs` leave out (`#[doc(hidden)]`,
//! `#[allow(missing_docs)]`, `#[cfg(test)]`).

use super::{Export, export, named_children, text};
use crate::lang::syntax::Node;

pub(super) fn rust(node: Node<'_>, source: &[u8], out: &mut Vec<Export>) {
    let items = named_children(node);
    // The types this module declares that are not `pub`: their methods
    // are no one's API outside the crate.
    let private_types: std::collections::HashSet<&str> = items
        .iter()
        .filter(|i| matches!(i.kind(), "struct_item" | "enum_item" | "union_item" | "type_item"))
        .filter(|i| !rust_public(**i, source))
        .filter_map(|i| i.child_by_field_name("name").map(|n| text(n, source)))
        .collect();
    // `#![allow(missing_docs)]` at the top of the module (or file): none of
    // its items is asked for docs.
    if items
        .iter()
        .any(|n| n.kind() == "inner_attribute_item" && allows_missing_docs(n, source))
    {
        return;
    }
    for (i, item) in items.iter().enumerate() {
        if rust_hidden(&items[..i], source) || rust_exempt(&items[..i], source) {
            continue;
        }
        let kind = match item.kind() {
            "function_item" => "fn",
            "struct_item" => "struct",
            "enum_item" => "enum",
            "trait_item" => "trait",
            "type_item" => "type",
            "const_item" => "const",
            "static_item" => "static",
            "union_item" => "union",
            "mod_item" => "mod",
            "impl_item" => {
                // Inherent impls only: a trait impl's items are the trait's to document.
                let ty = item.child_by_field_name("type").map(|t| rust_type_name(t, source));
                if item.child_by_field_name("trait").is_none()
                    && let Some(body) = item.child_by_field_name("body")
                    && let Some(ty) = ty.filter(|t| !private_types.contains(t.as_str()))
                {
                    rust_impl(body, &ty, source, out);
                }
                continue;
            }
            _ => continue,
        };
        if !rust_public(*item, source) || rust_cfg_test(&items[..i], source) {
            continue;
        }
        let body = item.child_by_field_name("body");
        // `pub mod x;` is documented inside x.rs (`//!`), which is another file.
        if kind == "mod" && body.is_none() {
            continue;
        }
        let name = item.child_by_field_name("name").map_or("", |n| text(n, source));
        let inner_doc = body.is_some_and(|b| {
            named_children(b)
                .first()
                .is_some_and(|c| c.kind().ends_with("comment") && text(*c, source).starts_with("//!"))
        });
        out.push(export(
            *item,
            name,
            kind,
            inner_doc || rust_documented(&items[..i], source),
        ));
        if kind == "mod"
            && let Some(body) = body
        {
            rust(body, source, out);
        }
    }
}

/// The `pub fn`s of an inherent impl of the type `ty`.
fn rust_impl(body: Node<'_>, ty: &str, source: &[u8], out: &mut Vec<Export>) {
    let items = named_children(body);
    for (i, item) in items.iter().enumerate() {
        if item.kind() == "function_item" && rust_public(*item, source) && !rust_hidden(&items[..i], source) {
            let name = item.child_by_field_name("name").map_or("", |n| text(n, source));
            let mut method = export(*item, name, "method", rust_documented(&items[..i], source));
            method.parent = Some(ty.to_string());
            out.push(method);
        }
    }
}

/// The name of the type an impl is for: `Buffer` of `Buffer<T>`, of
/// `crate::buf::Buffer`, of `&'a Buffer`.
fn rust_type_name(ty: Node<'_>, source: &[u8]) -> String {
    match ty.kind() {
        "generic_type" => ty
            .child_by_field_name("type")
            .map_or_else(String::new, |t| rust_type_name(t, source)),
        "scoped_type_identifier" => ty
            .child_by_field_name("name")
            .map_or("", |n| text(n, source))
            .to_string(),
        "reference_type" => ty
            .child_by_field_name("type")
            .map_or_else(String::new, |t| rust_type_name(t, source)),
        _ => text(ty, source).to_string(),
    }
}

fn rust_public(item: Node<'_>, source: &[u8]) -> bool {
    named_children(item)
        .into_iter()
        .any(|c| c.kind() == "visibility_modifier" && text(c, source) == "pub")
}

/// The attributes and comments directly before an item, nearest first.
fn rust_preamble<'t>(before: &[Node<'t>]) -> impl Iterator<Item = Node<'t>> {
    before
        .iter()
        .rev()
        .take_while(|n| matches!(n.kind(), "attribute_item" | "line_comment" | "block_comment"))
        .copied()
}

fn rust_documented(before: &[Node<'_>], source: &[u8]) -> bool {
    rust_preamble(before).any(|n| {
        let t = text(n, source);
        match n.kind() {
            "line_comment" => t.starts_with("///") && !t.starts_with("////"),
            "block_comment" => t.starts_with("/**") && !t.starts_with("/***"),
            _ => t.trim_start_matches("#[").trim_start().starts_with("doc"),
        }
    })
}

/// `#[doc(hidden)]` above the item: rustdoc leaves it out of the crate's
/// documentation and rustc's `missing_docs` does not ask for its docs
/// (a `__private_api` module that macros reach).
pub(in crate::gates::docs) fn rust_hidden(before: &[Node<'_>], source: &[u8]) -> bool {
    rust_preamble(before).any(|n| {
        let t: String = text(n, source).split_whitespace().collect();
        n.kind() == "attribute_item" && t.starts_with("#[doc(hidden")
    })
}

/// `#[allow(missing_docs)]` (or `expect`) above the item: the crate's own
/// lint settings exempt it, and everything in it, from documentation
/// (jiff's `constants` module and `bounds::const_check` in a crate that
/// otherwise denies `missing_docs`).
pub(in crate::gates::docs) fn rust_exempt(before: &[Node<'_>], source: &[u8]) -> bool {
    rust_preamble(before).any(|n| n.kind() == "attribute_item" && allows_missing_docs(&n, source))
}

/// Is the attribute `#[allow(.., missing_docs, ..)]`, `#![allow(..)]` or
/// the same with `expect`?
fn allows_missing_docs(attribute: &Node<'_>, source: &[u8]) -> bool {
    let t: String = text(*attribute, source).split_whitespace().collect();
    let inner = t
        .strip_prefix("#![")
        .or_else(|| t.strip_prefix("#["))
        .and_then(|rest| rest.strip_prefix("allow(").or_else(|| rest.strip_prefix("expect(")));
    inner.is_some_and(|args| {
        args.trim_end_matches([')', ']'])
            .split(',')
            .any(|lint| lint == "missing_docs" || lint == "rustdoc::missing_docs")
    })
}

fn rust_cfg_test(before: &[Node<'_>], source: &[u8]) -> bool {
    rust_preamble(before).any(|n| {
        let t: String = text(n, source).split_whitespace().collect();
        n.kind() == "attribute_item" && t.starts_with("#[cfg(") && t.contains("test")
    })
}
