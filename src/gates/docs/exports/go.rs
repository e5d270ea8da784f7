//! Go's exported names: top-level functions, methods, types, consts and
//! vars whose names start with a capital letter, and whether a comment
//! that starts with the name documents each.

use std::collections::BTreeSet;

use super::{Export, Misnamed, export, named_children, text};
use crate::lang::Lang;
use crate::lang::syntax::Node;

pub(super) fn go(root: Node<'_>, source: &[u8], out: &mut Vec<Export>) {
    let items = named_children(root);
    // A `main` package is a command: nothing in it can be imported.
    let main = items
        .iter()
        .any(|i| i.kind() == "package_clause" && named_children(*i).into_iter().any(|n| text(n, source) == "main"));
    if main {
        return;
    }
    let exported = |name: &str| name.chars().next().is_some_and(char::is_uppercase);
    let declared = go_declared(&items, source);
    let misnamed = |comment: Option<&str>, name: &str| comment.map(|c| go_misnamed(c, name, &declared));
    for item in &items {
        let above = go_doc(*item, source);
        match item.kind() {
            "function_declaration" | "method_declaration" => {
                let name = item.child_by_field_name("name").map_or("", |n| text(n, source));
                // A method of an unexported type is not part of the package's API.
                let receiver = item.child_by_field_name("receiver").map(|r| go_receiver(r, source));
                if exported(name) && receiver.as_ref().is_none_or(|r| exported(r)) {
                    let kind = if item.kind() == "function_declaration" {
                        "func"
                    } else {
                        "method"
                    };
                    // A method that implements a standard interface
                    // (`Error() string`, `String() string`, `Unwrap() error`)
                    // is documented by it: `go doc` shows the interface's
                    // contract, and the method says nothing more.
                    let inherited = receiver.is_some() && go_standard_method(*item, name);
                    let documented = inherited || go_names(above, name);
                    out.push(Export {
                        misnamed: misnamed(above.filter(|_| !documented), name),
                        // A method is its type's: `(*Route).Use` is not
                        // `(*Router).Use`.
                        parent: receiver,
                        ..export(*item, name, kind, documented)
                    });
                }
            }
            "type_declaration" | "const_declaration" | "var_declaration" => {
                let kind = match item.kind() {
                    "type_declaration" => "type",
                    "const_declaration" => "const",
                    _ => "var",
                };
                let specs = go_specs(*item);
                for spec in &specs {
                    // A comment inside a group, directly above the spec, or after it on its line.
                    let own = go_doc(*spec, source);
                    let trailing = spec
                        .next_sibling()
                        .is_some_and(|n| n.kind() == "comment" && n.start_position().row == spec.end_position().row);
                    for name in go_spec_names(*spec, source) {
                        if exported(&name) {
                            // A group's comment documents every spec in it.
                            let documented = go_names(own, &name)
                                || trailing
                                || (specs.len() > 1 && above.is_some())
                                || go_names(above, &name);
                            out.push(Export {
                                misnamed: misnamed(own.or(above).filter(|_| !documented), &name),
                                ..export(*spec, &name, kind, documented)
                            });
                        }
                    }
                }
            }
            _ => {}
        }
    }
}

/// The methods of the standard library's common interfaces, by name and
/// how many parameters they take: `error`, `fmt.Stringer`,
/// `fmt.GoStringer`, `fmt.Formatter`, the `errors` package's `Unwrap`,
/// `Is` and `As`, the `encoding` and `encoding/json` marshalers, `io`'s
/// readers, writers and closers, `sort.Interface`, `heap.Interface`,
/// `http.Handler`, `sql.Scanner`, `driver.Valuer`, `flag.Value`,
/// `slog.LogValuer`, `context.Context`, `net.Error`.
const GO_INTERFACE_METHODS: &[(&str, usize)] = &[
    ("Error", 0),
    ("String", 0),
    ("GoString", 0),
    ("Format", 2),
    ("Unwrap", 0),
    ("Is", 1),
    ("As", 1),
    ("MarshalJSON", 0),
    ("UnmarshalJSON", 1),
    ("MarshalText", 0),
    ("UnmarshalText", 1),
    ("AppendText", 1),
    ("MarshalBinary", 0),
    ("UnmarshalBinary", 1),
    ("AppendBinary", 1),
    ("GobEncode", 0),
    ("GobDecode", 1),
    ("Read", 1),
    ("Write", 1),
    ("Close", 0),
    ("Seek", 2),
    ("ReadAt", 2),
    ("WriteAt", 2),
    ("ReadFrom", 1),
    ("WriteTo", 1),
    ("ReadByte", 0),
    ("UnreadByte", 0),
    ("WriteByte", 1),
    ("ReadRune", 0),
    ("UnreadRune", 0),
    ("WriteString", 1),
    ("Len", 0),
    ("Less", 2),
    ("Swap", 2),
    ("Push", 1),
    ("Pop", 0),
    ("ServeHTTP", 2),
    ("Scan", 1),
    ("Value", 0),
    ("Set", 1),
    ("LogValue", 0),
    ("Deadline", 0),
    ("Done", 0),
    ("Err", 0),
    ("Timeout", 0),
    ("Temporary", 0),
];

/// Is the method `name` (a `method_declaration`) one of a standard
/// interface's ([`GO_INTERFACE_METHODS`]), taking as many parameters?
fn go_standard_method(method: Node<'_>, name: &str) -> bool {
    let Some(parameters) = method.child_by_field_name("parameters") else {
        return false;
    };
    // `(i, j int)` is one declaration of two names.
    let count: usize = named_children(parameters)
        .iter()
        .map(|p| {
            let mut cursor = p.walk();
            p.children_by_field_name("name", &mut cursor).count().max(1)
        })
        .sum();
    GO_INTERFACE_METHODS.iter().any(|&(n, c)| n == name && c == count)
}

/// The methods the interfaces declared in a Go file name, each with
/// whether its own comment documents it (`Read reads ...`, or the
/// interface's comment): a method of the same name in the package
/// implements it, and is documented there.
pub fn go_interface_methods(source: &[u8]) -> Vec<(String, bool)> {
    let Some(tree) = Lang::Go.parse(source) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for item in named_children(tree.root_node()) {
        if item.kind() != "type_declaration" {
            continue;
        }
        for spec in go_specs(item) {
            let Some(body) = spec
                .child_by_field_name("type")
                .filter(|t| t.kind() == "interface_type")
            else {
                continue;
            };
            let interface_doc = go_doc(spec, source).or_else(|| go_doc(item, source)).is_some();
            for element in named_children(body) {
                if element.kind() != "method_elem" {
                    continue;
                }
                let Some(name) = element.child_by_field_name("name").map(|n| text(n, source)) else {
                    continue;
                };
                let own = go_names(go_doc(element, source), name);
                out.push((name.to_string(), own || interface_doc));
            }
        }
    }
    out
}

/// The type name of a method's receiver (`(b *Buffer)`, `(l List[T])`).
fn go_receiver(receiver: Node<'_>, source: &[u8]) -> String {
    let mut stack = vec![receiver];
    while let Some(node) = stack.pop() {
        if node.kind() == "type_identifier" {
            return text(node, source).to_string();
        }
        stack.extend(named_children(node).into_iter().rev());
    }
    String::new()
}

fn go_specs(declaration: Node<'_>) -> Vec<Node<'_>> {
    let mut specs = Vec::new();
    for child in named_children(declaration) {
        match child.kind() {
            "type_spec" | "type_alias" | "const_spec" | "var_spec" => specs.push(child),
            "var_spec_list" | "const_spec_list" => specs.extend(
                named_children(child)
                    .into_iter()
                    .filter(|c| matches!(c.kind(), "var_spec" | "const_spec")),
            ),
            _ => {}
        }
    }
    specs
}

fn go_spec_names(spec: Node<'_>, source: &[u8]) -> Vec<String> {
    let mut cursor = spec.walk();
    spec.children_by_field_name("name", &mut cursor)
        .map(|n| text(n, source).to_string())
        .collect()
}

/// The comment block directly above `node` (a block of `//` lines is one
/// comment node per line), from its first line to its last.
fn go_doc<'a>(node: Node<'_>, source: &'a [u8]) -> Option<&'a str> {
    let mut first = None;
    let mut row = node.start_position().row;
    let mut previous = node.prev_sibling();
    while let Some(comment) = previous.filter(|p| p.kind() == "comment" && p.end_position().row + 1 == row) {
        first = Some(comment);
        row = comment.start_position().row;
        previous = comment.prev_sibling();
    }
    let last = node.prev_sibling()?;
    let block = source.get(first?.start_byte()..last.end_byte())?;
    std::str::from_utf8(block).ok()
}

/// Every name the file declares at its top level, exported or not, and
/// its methods'.
fn go_declared<'s>(items: &[Node<'_>], source: &'s [u8]) -> BTreeSet<&'s str> {
    let mut names = BTreeSet::new();
    for item in items {
        match item.kind() {
            "function_declaration" | "method_declaration" => {
                names.extend(item.child_by_field_name("name").map(|n| text(n, source)));
            }
            "type_declaration" | "const_declaration" | "var_declaration" => {
                for spec in go_specs(*item) {
                    let mut cursor = spec.walk();
                    names.extend(
                        spec.children_by_field_name("name", &mut cursor)
                            .map(|n| text(n, source)),
                    );
                }
            }
            _ => {}
        }
    }
    names
}

/// How a comment above `name` that does not start with it reads: as
/// another symbol's doc when it starts with a name (one the file declares,
/// or a word written like an identifier, `GetSpecifiedName`) and never
/// names `name`; as prose otherwise (`// check the Origin of a request`,
/// `// UUID version 6 is ...` above `NewV6`).
fn go_misnamed(comment: &str, name: &str, declared: &BTreeSet<&str>) -> Misnamed {
    let names_it = comment
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .any(|word| word == name);
    match go_first_word(comment) {
        Some(word) if !names_it && (declared.contains(word.as_str()) || camel_case(&word)) => Misnamed::Other(word),
        _ => Misnamed::Prose,
    }
}

/// Is `word` written like an identifier, a lower-case letter followed by
/// a capital (`GetSpecifiedName`, not `UUID`, `Tag` or `RFC9562`)?
fn camel_case(word: &str) -> bool {
    word.chars().skip_while(|c| !c.is_lowercase()).any(char::is_uppercase)
}

/// The word a comment starts with (after an optional article), when it
/// reads as a name: letters, digits and `_`, the first a capital.
fn go_first_word(comment: &str) -> Option<String> {
    let body = comment.trim_start_matches("//").trim_start_matches("/*").trim_start();
    let body = ["A ", "An ", "The "]
        .iter()
        .find_map(|a| body.strip_prefix(a))
        .unwrap_or(body);
    let word: String = body.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
    word.starts_with(char::is_uppercase).then_some(word)
}

/// Does the comment start with `name` (after an optional article), or with
/// `Deprecated:` (Go's tools read that paragraph as the symbol's doc)?
fn go_names(comment: Option<&str>, name: &str) -> bool {
    let Some(comment) = comment else {
        return false;
    };
    let body = comment.trim_start_matches("//").trim_start_matches("/*").trim_start();
    if body.starts_with("Deprecated:") {
        return true;
    }
    let body = ["A ", "An ", "The "]
        .iter()
        .find_map(|a| body.strip_prefix(a))
        .unwrap_or(body);
    body.strip_prefix(name)
        .is_some_and(|rest| rest.is_empty() || !rest.starts_with(|c: char| c.is_alphanumeric() || c == '_'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_comment_that_does_not_start_with_the_name_reads_as_another_doc_or_as_prose() {
        let declared: BTreeSet<&str> = ["Option", "Options", "Flags"].into_iter().collect();
        let read = |comment: &str, name: &str| go_misnamed(comment, name, &declared);
        let other = |word: &str| Misnamed::Other(word.to_string());
        // Another name: one the file declares, or a word written like one.
        assert_eq!(read("// Option sets one.", "Options"), other("Option"));
        assert_eq!(
            read("// GetSpecifiedName returns it.", "GetSpecifiedFlag"),
            other("GetSpecifiedName")
        );
        assert_eq!(read("// The Option sets one.", "Options"), other("Option"));
        // Prose: words, capitals, numbers, or a comment that names the symbol later.
        assert_eq!(read("// Tag Flags", "Flags"), Misnamed::Prose);
        assert_eq!(
            read("// check the Origin of a request", "OriginAllowed"),
            Misnamed::Prose
        );
        assert_eq!(read("// RFC9562 added V6 and V7.", "Standard"), Misnamed::Prose);
        assert_eq!(
            read("// DEPRECATED: use ParseErrorsAllowlist", "ParseErrorsWhitelist"),
            Misnamed::Prose
        );
        assert_eq!(
            read("// UUID version 6.\n//\n// NewV6 returns one.", "NewV6"),
            Misnamed::Prose
        );
        assert_eq!(
            read("// Options: see Option.\n// Option sets one.", "Option"),
            Misnamed::Prose
        );
    }
}
