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

/// `key` with each method called through its trait or type, the receiver
/// its first argument (`UnicodeWidthChar :: width ( c )`), written as the
/// method call it is (`c . width ( )`): one check whichever way it calls
/// (unicode-width 4efb180). A reference taken for the receiver is the
/// method call's own; a receiver that binds looser than a call is put in
/// brackets.
pub(super) fn method_form(key: &str) -> String {
    if !key.contains(" :: ") {
        return key.to_string();
    }
    let tokens: Vec<&str> = key.split(' ').collect();
    let upper = |t: &str| t.starts_with(|c: char| c.is_ascii_uppercase()) && crate::lang::is_plain_name(t);
    let lower = |t: &str| t.starts_with(|c: char| c.is_ascii_lowercase() || c == '_') && crate::lang::is_plain_name(t);
    let mut out: Vec<String> = Vec::with_capacity(tokens.len());
    let mut i = 0;
    while i < tokens.len() {
        let call = upper(tokens[i])
            && tokens.get(i + 1) == Some(&"::")
            && tokens.get(i + 2).is_some_and(|m| lower(m) && !constructor(m))
            && tokens.get(i + 3) == Some(&"(")
            && !matches!(tokens.get(i + 4), Some(&")"));
        if call && let Some(rewritten) = receiver_first(&tokens[i + 2..]) {
            // The path before the trait or type goes with it.
            while out.len() >= 2 && out[out.len() - 1] == "::" && lower(&out[out.len() - 2]) {
                out.truncate(out.len() - 2);
            }
            out.push(rewritten.0);
            i += 2 + rewritten.1;
            continue;
        }
        out.push(tokens[i].to_string());
        i += 1;
    }
    out.join(" ")
}

/// Is `name` one a type's associated functions that take no receiver are
/// conventionally called (`new`, `from_str`, `with_capacity`, `default`)?
fn constructor(name: &str) -> bool {
    [
        "new", "from", "try_from", "with", "default", "builder", "open", "create", "empty",
    ]
    .iter()
    .any(|c| name == *c || name.strip_prefix(c).is_some_and(|rest| rest.starts_with('_')))
}

/// `m ( receiver , rest .. )` as `receiver . m ( rest .. )`, with how many
/// tokens it took; `None` when the call does not close.
fn receiver_first(tokens: &[&str]) -> Option<(String, usize)> {
    let method = tokens[0];
    let mut depth = 0usize;
    let mut comma = None;
    let mut close = None;
    for (j, t) in tokens.iter().enumerate().skip(1) {
        match *t {
            "(" | "[" | "{" => depth += 1,
            ")" | "]" | "}" => {
                depth -= 1;
                if depth == 0 {
                    close = Some(j);
                    break;
                }
            }
            "," if depth == 1 && comma.is_none() => comma = Some(j),
            _ => {}
        }
    }
    let close = close?;
    let end = comma.unwrap_or(close);
    let mut receiver = &tokens[2..end];
    // `&x` and `&mut x` as a receiver are the method call's own borrow.
    if receiver.first() == Some(&"&") {
        receiver = &receiver[1..];
        if receiver.first() == Some(&"mut") {
            receiver = &receiver[1..];
        }
    }
    if receiver.is_empty() {
        return None;
    }
    let loose = {
        let mut depth = 0usize;
        receiver.iter().any(|t| {
            match *t {
                "(" | "[" | "{" => depth += 1,
                ")" | "]" | "}" => depth = depth.saturating_sub(1),
                _ => {}
            }
            depth == 0
                && matches!(
                    *t,
                    "+" | "-"
                        | "*"
                        | "/"
                        | "%"
                        | "as"
                        | ".."
                        | "..="
                        | "&&"
                        | "||"
                        | "=="
                        | "!="
                        | "<"
                        | ">"
                        | "<="
                        | ">="
                        | "|"
                        | "^"
                        | "<<"
                        | ">>"
                        | "!"
                        | "&"
                )
        })
    };
    let mut out = match loose {
        true => format!("( {} )", receiver.join(" ")),
        false => receiver.join(" "),
    };
    out.push_str(" . ");
    out.push_str(method);
    out.push_str(" (");
    match comma {
        Some(c) => {
            out.push(' ');
            out.push_str(&tokens[c + 1..close].join(" "));
            out.push_str(" )");
        }
        None => out.push_str(" )"),
    }
    Some((out, close + 1))
}

/// The string literals of `source` that could name a file by a relative
/// path ([`crate::lang::looks_like_path`]), read from the text: each
/// `"..."` on one line without escapes, a `'"'` character skipped.
pub(super) fn quoted_paths(source: &[u8]) -> Vec<String> {
    let mut out = Vec::new();
    let mut at = 0;
    while let Some(open) = memchr::memchr(b'"', &source[at..]).map(|i| at + i) {
        let quoted_char = open > 0 && source[open - 1] == b'\'' && source.get(open + 1) == Some(&b'\'');
        if quoted_char {
            at = open + 2;
            continue;
        }
        let Some(close) = memchr::memchr2(b'"', b'\n', &source[open + 1..]).map(|i| open + 1 + i) else {
            break;
        };
        at = close + 1;
        if source[close] != b'"' {
            continue;
        }
        let inside = &source[open + 1..close];
        if !inside.contains(&b'\\')
            && let Ok(value) = std::str::from_utf8(inside)
            && crate::lang::looks_like_path(value)
            && !out.iter().any(|v| v == value)
        {
            out.push(value.to_string());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn quoted_paths_are_read_from_the_text() {
        let source = b"let q = '\"';\nlet a = \"README.md\";\nlet b = \"two words.md\";\nlet c = \"esc\\\\aped.rs\";\nlet d = r\"src/lib.rs\";\nlet e = \"README.md\";\n";
        assert_eq!(
            super::quoted_paths(source),
            vec!["README.md".to_string(), "src/lib.rs".to_string()]
        );
    }
}
