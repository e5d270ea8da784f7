//! The public symbols of a source file and whether each has its language's
//! doc comment, read from the tree-sitter syntax tree (comments and strings
//! are nodes, never matched as text):
//!
//! - Python: module-level functions and classes, and the methods of public
//!   classes; `_private` names skipped; `__all__`, when the module sets it,
//!   decides which module-level names are public. Documented: a docstring.
//! - JavaScript/TypeScript: `export`ed functions, classes, consts, lets,
//!   types, interfaces and enums (`export default` ones included; re-exports
//!   are documented where they are defined; `_name`s skipped). Documented: a `/** */` comment
//!   directly above.
//! - Rust: `pub` items (not `pub(crate)`), in inline modules that are `pub`
//!   themselves and not `#[cfg(test)]`, and `pub fn`s of inherent impls.
//!   Documented: `///`, `/** */` or `#[doc = ..]`.
//! - Go: top-level functions, methods, types, consts and vars whose names
//!   start with a capital letter. Documented: a comment directly above (on
//!   the declaration, or on its group) that starts with the name, optionally
//!   after "A", "An" or "The".

use std::path::Path;

use crate::lang::syntax::Node;

use crate::lang::Lang;

mod go;
mod rust;
use go::go;
pub use go::go_interface_methods;
use rust::rust;
pub(super) use rust::{rust_exempt, rust_hidden};

/// The language of a source file whose exports are read: any language
/// loki-gate parses, except Python stubs (`.pyi`), which declare what a
/// module holds and are documented where it is defined.
pub fn language_of(path: &Path) -> Option<Lang> {
    let stub = path.extension().is_some_and(|e| e == "pyi");
    Lang::from_path(path).filter(|_| !stub)
}

/// What a missing doc comment is called in `language`.
pub fn doc_name(language: Lang) -> &'static str {
    match language {
        Lang::Python => "a docstring",
        Lang::JavaScript | Lang::TypeScript | Lang::Tsx => "a JSDoc comment (/** */) directly above",
        Lang::Rust => "a doc comment (///)",
        Lang::Go => "a doc comment starting with its name",
    }
}

/// One public symbol.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Export {
    pub name: String,
    /// `function`, `class`, `method`, `const`, `type`, ...
    pub kind: &'static str,
    /// 1-based, the symbol's whole declaration.
    pub line: u32,
    pub end_line: u32,
    pub column: u32,
    pub documented: bool,
    /// The class a Python method belongs to, the type of a Rust method's
    /// impl or of a Go method's receiver.
    pub parent: Option<String>,
    /// Go: a comment directly above that does not start with the symbol's
    /// name, and how it reads.
    pub misnamed: Option<Misnamed>,
    /// Python: the base class (and its file; empty for the standard
    /// library's) that defines this method, found when the project's
    /// modules are read: the class had it by inheritance before it wrote
    /// its own.
    pub overrides: Option<(std::path::PathBuf, String)>,
    /// JavaScript: the module's default export (`export default function
    /// invariant`), whose public name is `default` whatever the
    /// declaration calls it.
    pub default: bool,
}

/// The public symbols of `source`; `None` when it cannot be parsed.
pub fn exports(language: Lang, source: &[u8]) -> Option<Vec<Export>> {
    let tree = language.parse(source)?;
    let root = tree.root_node();
    let mut out = Vec::new();
    match language {
        Lang::Python => python(root, source, &mut out),
        Lang::JavaScript | Lang::TypeScript | Lang::Tsx => javascript(root, source, &mut out),
        Lang::Rust => rust(root, source, &mut out),
        Lang::Go => go(root, source, &mut out),
    }
    Some(out)
}

fn text<'a>(node: Node<'_>, source: &'a [u8]) -> &'a str {
    node.utf8_text(source).unwrap_or("")
}

/// A Go comment directly above a symbol that does not start with its name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Misnamed {
    /// It starts with another name and never names the symbol (`// Object
    /// adds ..` above `func Objects`): copied from a sibling or left behind
    /// by a rename, it documents something else.
    Other(String),
    /// Prose (`// check the Origin of a request`): `go doc` shows it as the
    /// symbol's doc, against the convention that staticcheck (ST1020-ST1022)
    /// and revive's `exported` check, which a project turns on in its
    /// linter config.
    Prose,
}

impl Export {
    /// What a finding says of this symbol, undocumented.
    pub fn undocumented(&self) -> String {
        match &self.misnamed {
            Some(Misnamed::Other(word)) => format!(
                "public {} `{}` has no doc comment: the comment above it starts with `{word}`, another name, and never names `{}`",
                self.kind, self.name, self.name
            ),
            Some(Misnamed::Prose) => format!(
                "public {} `{}` has a doc comment that does not start with its name, Go's convention (staticcheck ST1020-ST1022, revive's `exported`)",
                self.kind, self.name
            ),
            None => format!("public {} `{}` has no doc comment", self.kind, self.name),
        }
    }

    /// How to fix the finding.
    pub fn fix(&self, language: Lang) -> String {
        match &self.misnamed {
            Some(_) => format!("start the comment above with the name: `// {} ...`", self.name),
            None => format!("add {}", doc_name(language)),
        }
    }
}

fn export(node: Node<'_>, name: &str, kind: &'static str, documented: bool) -> Export {
    Export {
        name: name.to_string(),
        kind,
        line: node.start_position().row as u32 + 1,
        end_line: node.end_position().row as u32 + 1,
        column: node.start_position().column as u32 + 1,
        documented,
        parent: None,
        misnamed: None,
        overrides: None,
        default: false,
    }
}

fn named_children<'t>(node: Node<'t>) -> Vec<Node<'t>> {
    let mut cursor = node.walk();
    node.named_children(&mut cursor).collect()
}

// ---------------------------------------------------------------- Python

fn python(root: Node<'_>, source: &[u8], out: &mut Vec<Export>) {
    let all = python_all(root, source);
    let public = |name: &str| match &all {
        Some(all) => all.iter().any(|n| n == name),
        None => !name.starts_with('_'),
    };
    for item in named_children(root) {
        let Some((definition, outer)) = python_definition(item) else {
            continue;
        };
        let Some(name) = definition.child_by_field_name("name").map(|n| text(n, source)) else {
            continue;
        };
        if !public(name) || overload(outer, source) {
            continue;
        }
        let class = definition.kind() == "class_definition";
        out.push(export(
            outer,
            name,
            if class { "class" } else { "function" },
            has_docstring(definition),
        ));
        if !class {
            continue;
        }
        let class_name = name;
        let Some(body) = definition.child_by_field_name("body") else {
            continue;
        };
        for member in named_children(body) {
            let Some((method, outer)) = python_definition(member) else {
                continue;
            };
            let Some(name) = method.child_by_field_name("name").map(|n| text(n, source)) else {
                continue;
            };
            if method.kind() == "function_definition"
                && !name.starts_with('_')
                && !overload(outer, source)
                && !accessor(outer, name, source)
            {
                let mut method = export(outer, name, "method", has_docstring(method));
                method.parent = Some(class_name.to_string());
                out.push(method);
            }
        }
    }
}

/// A function or class definition, under its decorators: (definition, whole).
fn python_definition(node: Node<'_>) -> Option<(Node<'_>, Node<'_>)> {
    match node.kind() {
        "function_definition" | "class_definition" => Some((node, node)),
        "decorated_definition" => node.child_by_field_name("definition").map(|d| (d, node)),
        _ => None,
    }
}

/// `@overload` / `@typing.overload` stubs: the implementation carries the docs.
fn overload(outer: Node<'_>, source: &[u8]) -> bool {
    decorated_by(outer, source, |t| t == "overload" || t.ends_with(".overload"))
}

/// A property's setter or deleter (`@name.setter`): the getter's docstring
/// is the property's.
fn accessor(outer: Node<'_>, name: &str, source: &[u8]) -> bool {
    decorated_by(outer, source, |t| {
        t == format!("{name}.setter") || t == format!("{name}.deleter")
    })
}

/// Does a decorator of `outer` read as `wanted` says (its expression,
/// without a trailing `# comment`)?
fn decorated_by(outer: Node<'_>, source: &[u8], wanted: impl Fn(&str) -> bool) -> bool {
    outer.kind() == "decorated_definition"
        && named_children(outer).into_iter().any(|d| {
            d.kind() == "decorator"
                && named_children(d)
                    .into_iter()
                    .find(|e| e.kind() != "comment")
                    .is_some_and(|e| wanted(text(e, source)))
        })
}

pub(super) fn has_docstring(definition: Node<'_>) -> bool {
    let Some(body) = definition.child_by_field_name("body") else {
        return false;
    };
    let first = named_children(body).into_iter().find(|n| n.kind() != "comment");
    first.is_some_and(|statement| {
        statement.kind() == "expression_statement"
            && statement
                .named_child(0)
                .is_some_and(|e| matches!(e.kind(), "string" | "concatenated_string"))
    })
}

/// The names `__all__` lists at module level: `__all__ = [...]`, a tuple
/// (bare too: `__all__ = "a", "b"`), extended by `__all__ += [...]`.
fn python_all(root: Node<'_>, source: &[u8]) -> Option<Vec<String>> {
    let mut names: Option<Vec<String>> = None;
    for statement in named_children(root) {
        let Some(assignment) = statement
            .named_child(0)
            .filter(|n| matches!(n.kind(), "assignment" | "augmented_assignment"))
        else {
            continue;
        };
        if assignment.child_by_field_name("left").map(|l| text(l, source)) != Some("__all__") {
            continue;
        }
        let listed = super::py_api::all_names(assignment.child_by_field_name("right"), source);
        match (assignment.kind(), &mut names) {
            ("augmented_assignment", Some(names)) => names.extend(listed),
            ("assignment", _) => names = Some(listed),
            _ => {}
        }
    }
    names
}

// ------------------------------------------------------ JavaScript, TypeScript

fn javascript(root: Node<'_>, source: &[u8], out: &mut Vec<Export>) {
    let items = named_children(root);
    for (i, item) in items.iter().enumerate() {
        if item.kind() != "export_statement" {
            continue;
        }
        let Some(declaration) = item
            .child_by_field_name("declaration")
            .or_else(|| item.child_by_field_name("value"))
        else {
            continue; // `export { a, b }` and `export * from`: documented where defined
        };
        let documented = jsdoc_above(&items[..i], source) || members_documented(declaration, source);
        let default = {
            let mut cursor = item.walk();
            item.children(&mut cursor).any(|c| c.kind() == "default")
        };
        for (name, kind) in js_names(declaration, source) {
            // `_name` marks an export the package's own modules share, not
            // its API (the convention Python enforces, JavaScript keeps).
            if name.starts_with('_') {
                continue;
            }
            // TypeScript overloads (`export function f(a: A): R;` then the
            // implementation) are one symbol: its JSDoc may sit on any
            // signature, and comments between them (`// @__NO_SIDE_EFFECTS__`)
            // do not part them.
            let after_export = items[..i]
                .iter()
                .rev()
                .find(|n| n.kind() != "comment")
                .is_some_and(|n| n.kind() == "export_statement");
            if let Some(previous) = out.last_mut()
                && kind == "function"
                && previous.kind == "function"
                && previous.name == name
                && after_export
            {
                previous.documented |= documented;
                previous.end_line = item.end_position().row as u32 + 1;
                continue;
            }
            out.push(Export {
                default,
                ..export(*item, &name, kind, documented)
            });
        }
    }
    // A type and a value of one name (`export const INVALID = ..` and
    // `export type INVALID = typeof INVALID`, a class and its merged
    // interface) are one name to a reader: a doc on either documents both.
    let documented: std::collections::HashSet<String> =
        out.iter().filter(|s| s.documented).map(|s| s.name.clone()).collect();
    for symbol in out.iter_mut() {
        symbol.documented |= documented.contains(&symbol.name);
    }
}

/// The names a JavaScript file exports the CommonJS way, each with whether
/// a JSDoc documents it: `exports.x = ..`, `module.exports.x = ..`,
/// `module.exports = { x, y: .., z() {} }`, `Object.defineProperty(exports,
/// "x", ..)`, and `module.exports = function (..)` as `default`. They are
/// the module's API as much as `export const x` is: a
/// file moved to ES modules keeps them (`None`: it does not parse).
pub fn commonjs_names(language: Lang, source: &[u8]) -> Option<Vec<(String, bool)>> {
    let tree = language.parse(source)?;
    let items = named_children(tree.root_node());
    let mut out = Vec::new();
    let squashed = |n: Node<'_>| -> String { text(n, source).split_whitespace().collect() };
    for (i, item) in items.iter().enumerate() {
        let documented = jsdoc_above(&items[..i], source);
        // TypeScript's `export = QuickLRU;`: the module is that value.
        if item.kind() == "export_statement" {
            if let Some(name) = assigned_export(&squashed(*item)) {
                let documented = documented || declared_documented(&items, &name, source);
                out.push((name, documented));
            }
            continue;
        }
        // A declaration file's `declare module 'klona' { .. }`: what the
        // package's module declares there, each name as declared.
        if item.kind() == "ambient_declaration" {
            for module in named_children(*item).into_iter().filter(|m| m.kind() == "module") {
                let Some(body) = module.child_by_field_name("body") else {
                    continue;
                };
                let statements = named_children(body);
                for (k, statement) in statements.iter().enumerate() {
                    let documented = jsdoc_above(&statements[..k], source);
                    if let Some(name) = assigned_export(&squashed(*statement)) {
                        out.push((name, documented));
                        continue;
                    }
                    let declaration = match statement.kind() {
                        "export_statement" => statement.child_by_field_name("declaration"),
                        _ => Some(*statement),
                    };
                    for (name, _) in declaration.map(|d| js_names(d, source)).unwrap_or_default() {
                        out.push((name, documented));
                    }
                }
            }
            continue;
        }
        let Some(expression) = named_children(*item)
            .into_iter()
            .next()
            .filter(|_| item.kind() == "expression_statement")
        else {
            continue;
        };
        match expression.kind() {
            "assignment_expression" => {
                let (Some(left), Some(right)) = (
                    expression.child_by_field_name("left"),
                    expression.child_by_field_name("right"),
                ) else {
                    continue;
                };
                let target = squashed(left);
                if let Some(name) = target
                    .strip_prefix("module.exports.")
                    .or_else(|| target.strip_prefix("exports."))
                {
                    out.push((name.to_string(), documented));
                } else if target == "module.exports" && right.kind() == "identifier" {
                    // `module.exports = QuickLRU`: the module is that value,
                    // documented where it is declared.
                    let name = text(right, source);
                    out.push((
                        name.to_string(),
                        documented || declared_documented(&items, name, source),
                    ));
                } else if target == "module.exports"
                    && matches!(
                        right.kind(),
                        "function_expression" | "function" | "arrow_function" | "class"
                    )
                {
                    // `module.exports = function (..) {..}`: the module is
                    // that function, what `import x from` gets as `default`
                    // (mri dda3343 moved it to `export default function`).
                    out.push(("default".to_string(), documented));
                } else if target == "module.exports" && right.kind() == "object" {
                    for property in named_children(right) {
                        let key = match property.kind() {
                            "shorthand_property_identifier" => Some(property),
                            "pair" | "method_definition" => property
                                .child_by_field_name("key")
                                .or_else(|| property.child_by_field_name("name")),
                            _ => None,
                        };
                        if let Some(key) = key {
                            out.push((text(key, source).trim_matches(['"', '\'']).to_string(), documented));
                        }
                    }
                }
            }
            "call_expression" => {
                let call = squashed(expression);
                if let Some(rest) = call.strip_prefix("Object.defineProperty(exports,")
                    && let Some(name) = rest.split([',', ')']).next()
                {
                    out.push((name.trim_matches(['"', '\'']).to_string(), documented));
                }
            }
            _ => {}
        }
    }
    Some(out)
}

/// The name `export = name;` (written without whitespace) makes the module.
fn assigned_export(statement: &str) -> Option<String> {
    let name = statement.strip_prefix("export=")?.trim_end_matches(';');
    let plain = !name.is_empty() && name.chars().all(|c| c.is_alphanumeric() || c == '_' || c == '$');
    plain.then(|| name.to_string())
}

/// Is `name` declared at the top of the module (`class QuickLRU`, `declare
/// class QuickLRU`, `function f`, `const f = ..`) with a JSDoc above it?
fn declared_documented(items: &[Node<'_>], name: &str, source: &[u8]) -> bool {
    items.iter().enumerate().any(|(i, item)| {
        let declaration = match item.kind() {
            "ambient_declaration" => named_children(*item).into_iter().next(),
            _ => Some(*item),
        };
        let declares = declaration.is_some_and(|d| {
            d.child_by_field_name("name").is_some_and(|n| text(n, source) == name)
                || (d.kind() == "lexical_declaration"
                    && named_children(d)
                        .iter()
                        .any(|v| v.child_by_field_name("name").is_some_and(|n| text(n, source) == name)))
        });
        declares && jsdoc_above(&items[..i], source)
    })
}

/// Is there a `/** */` block among the comments right before a statement
/// (`before` ends with what precedes it)? TypeScript attaches a JSDoc to
/// the declaration after it across blank lines and line comments (`//
/// eslint-disable-next-line`); a file's own block (`@module`, `@license`,
/// `@jsx`, `@fileoverview`, `@packageDocumentation`) documents no symbol.
/// An interface (or an object type alias) whose every member has its own
/// JSDoc is documented by them: an options interface's fields are what
/// TypeDoc and an editor show (path-to-regexp documents each option and
/// never the interface).
fn members_documented(declaration: Node<'_>, source: &[u8]) -> bool {
    let body = match declaration.kind() {
        "interface_declaration" => declaration.child_by_field_name("body"),
        "type_alias_declaration" => declaration
            .child_by_field_name("value")
            .filter(|v| v.kind() == "object_type"),
        _ => None,
    };
    let Some(body) = body else { return false };
    let members = named_children(body);
    let mut fields = 0;
    for (i, member) in members.iter().enumerate() {
        if member.kind() == "comment" {
            continue;
        }
        if !jsdoc_above(&members[..i], source) {
            return false;
        }
        fields += 1;
    }
    fields > 0
}

fn jsdoc_above(before: &[Node<'_>], source: &[u8]) -> bool {
    for comment in before.iter().rev() {
        if comment.kind() != "comment" {
            return false;
        }
        let text = text(*comment, source);
        if text.starts_with("/**") {
            const FILE_TAGS: &[&str] = &["@module", "@license", "@jsx", "@fileoverview", "@packageDocumentation"];
            return !FILE_TAGS.iter().any(|tag| text.contains(tag));
        }
        if !text.starts_with("//") {
            return false;
        }
    }
    false
}

fn js_names(declaration: Node<'_>, source: &[u8]) -> Vec<(String, &'static str)> {
    let kind = match declaration.kind() {
        // `export declare function f(): void` (a declaration file's form).
        "ambient_declaration" => {
            return named_children(declaration)
                .into_iter()
                .flat_map(|d| js_names(d, source))
                .collect();
        }
        "function_declaration"
        | "generator_function_declaration"
        | "function_signature"
        | "function_expression"
        | "function"
        | "arrow_function" => "function",
        "class_declaration" | "abstract_class_declaration" | "class" => "class",
        "type_alias_declaration" => "type",
        "interface_declaration" => "interface",
        "enum_declaration" => "enum",
        "lexical_declaration" | "variable_declaration" => {
            return named_children(declaration)
                .into_iter()
                .filter(|d| d.kind() == "variable_declarator")
                .filter_map(|d| d.child_by_field_name("name"))
                .filter(|n| n.kind() == "identifier")
                .map(|n| (text(n, source).to_string(), "const"))
                .collect();
        }
        _ => return Vec::new(),
    };
    let name = declaration
        .child_by_field_name("name")
        .map_or("default", |n| text(n, source));
    vec![(name.to_string(), kind)]
}

#[cfg(test)]
mod tests;
