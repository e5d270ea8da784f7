//! The operands of a Rust assertion and the literals tests compare against.

use super::*;

pub(super) fn string_value(node: &Node, source: &[u8]) -> Option<String> {
    match node.kind() {
        "string_literal" | "raw_string_literal" => {
            let mut cursor = node.walk();
            let content: String = node
                .named_children(&mut cursor)
                .filter(|c| c.kind() == "string_content")
                .map(|c| text(&c, source).into_owned())
                .collect();
            Some(content)
        }
        _ => None,
    }
}

/// A Rust number with its type suffix dropped (`5u32`, `1.5f64`, `0xffu8`).
pub(super) fn rust_number(raw: &str) -> Option<f64> {
    let hex = raw.starts_with("0x") || raw.starts_with("0X");
    let mut t = raw;
    for suffix in [
        "u128", "i128", "usize", "isize", "u64", "i64", "u32", "i32", "u16", "i16", "u8", "i8", "f64", "f32",
    ] {
        // `0xf32` is a hex number, not 0xf with a suffix.
        if hex && suffix.starts_with('f') {
            continue;
        }
        if let Some(stripped) = t.strip_suffix(suffix) {
            t = stripped;
            break;
        }
    }
    number(t.trim_end_matches('_'))
}

pub(crate) fn literal(node: &Node, source: &[u8]) -> Option<Literal> {
    let node = unwrap_rust(*node);
    match node.kind() {
        "integer_literal" | "float_literal" => rust_number(&text(&node, source)).map(Literal::Number),
        "boolean_literal" => Some(Literal::Bool(text(&node, source) == "true")),
        "string_literal" | "raw_string_literal" => string_value(&node, source).map(Literal::Str),
        "char_literal" => Some(Literal::Str(text(&node, source).trim_matches('\'').to_string())),
        "unary_expression" if text(&node, source).starts_with('-') => match literal(&first_child(&node)?, source)? {
            Literal::Number(n) => Some(Literal::Number(-n)),
            _ => None,
        },
        "identifier" if text(&node, source) == "None" => Some(Literal::Null),
        "array_expression" => {
            let mut cursor = node.walk();
            // `[0; 3]` repeats one value.
            if node.children(&mut cursor).any(|c| c.kind() == ";") {
                return None;
            }
            let mut cursor = node.walk();
            let n = node
                .named_children(&mut cursor)
                .filter(|c| !COMMENTS.contains(&c.kind()))
                .count();
            Some(Literal::Collection(n))
        }
        "macro_invocation" if macro_name(&node, source) == "vec" => {
            let tree = node
                .named_children(&mut node.walk())
                .find(|c| c.kind() == "token_tree")?;
            let mut cursor = tree.walk();
            let tokens: Vec<Node> = tree.children(&mut cursor).collect();
            if tokens.iter().any(|t| t.kind() == ";") {
                return None;
            }
            let inner = tokens.len().saturating_sub(2);
            let commas = tokens.iter().filter(|t| t.kind() == ",").count();
            let trailing = tokens.len() >= 2 && tokens[tokens.len() - 2].kind() == ",";
            Some(Literal::Collection(if inner == 0 {
                0
            } else {
                commas + 1 - usize::from(trailing)
            }))
        }
        _ => None,
    }
}

pub(super) fn macro_name(mac: &Node, source: &[u8]) -> String {
    mac.field("macro")
        .map(|m| last_segment(&callee_key(&text(&m, source))).to_string())
        .unwrap_or_default()
}

/// What may make two evaluations of an operand differ beyond its calls,
/// field reads and indexing: a macro may expand to anything.
const RECOMPUTED: Recomputed = Recomputed {
    reads: &[
        "call_expression",
        "field_expression",
        "index_expression",
        "reference_expression",
        "try_expression",
    ],
    call: "call_expression",
    fresh: &[
        "macro_invocation",
        "await_expression",
        "assignment_expression",
        "compound_assignment_expr",
        "closure_expression",
        "unsafe_block",
        "block",
    ],
    constructs: class_path,
};

pub(super) fn has_effects(node: &Node) -> bool {
    let mut found = false;
    visit_named(*node, |n| {
        found |= matches!(
            n.kind(),
            "call_expression"
                | "macro_invocation"
                | "await_expression"
                | "assignment_expression"
                | "compound_assignment_expr"
        );
        !found && n.kind() != "closure_expression"
    });
    found
}

pub(super) fn operand(node: &Node, source: &[u8]) -> Operand {
    let node = unwrap_rust(*node);
    Operand {
        text: display(&node, source),
        key: normalized(&node, source),
        literal: literal(&node, source),
        effects: has_effects(&node),
        recomputed: recomputed(&node, source, &RECOMPUTED),
        call_of: match node.kind() {
            "call_expression" => node.field("function").map(|f| callee_key(&text(&f, source))),
            _ => None,
        },
    }
}
