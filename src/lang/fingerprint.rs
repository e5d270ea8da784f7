//! Code as tokens: fingerprints, names, shapes and the similarity of two
//! bodies, the normalized text of a node, numbers, helpers by convention.

use super::*;

/// What `source` says as code: a hash of its tokens without comments,
/// docstrings (a statement that is only a string), TypeScript's types
/// (type aliases, interfaces, annotations, type arguments: erased before
/// the code runs) or layout, so a change to those alone leaves it as it
/// was. In JavaScript and TypeScript, a local variable or parameter is
/// hashed as the order in which its name first appears, not as the name:
/// renaming one everywhere (`fn` -> `function_`) changes nothing either.
/// `None` when it does not parse.
pub fn code_fingerprint(lang: Lang, source: &[u8]) -> Option<u64> {
    let tree = lang.parse(source)?;
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let typed = matches!(lang, Lang::TypeScript | Lang::Tsx);
    let locals = match lang {
        Lang::JavaScript | Lang::TypeScript | Lang::Tsx => local_bindings(tree.root_node(), source),
        _ => std::collections::HashSet::new(),
    };
    let mut order: std::collections::HashMap<&[u8], u64> = std::collections::HashMap::new();
    let skip = |node: &Node| {
        node.is_comment()
            || (node.kind() == "expression_statement"
                && node.named_child_count() == 1
                && node.named_child(0).is_some_and(|c| c.kind() == "string"))
            || (typed
                && matches!(
                    node.kind(),
                    "type_alias_declaration"
                        | "interface_declaration"
                        | "type_annotation"
                        | "type_arguments"
                        | "type_parameters"
                        | "ambient_declaration"
                ))
    };
    visit_leaves(tree.root_node(), skip, |leaf| {
        let text = &source[leaf.byte_range()];
        let local;
        let bytes: &[u8] = if leaf.kind() == "identifier" && locals.contains(text) {
            let next = order.len() as u64;
            local = order.entry(text).or_insert(next).to_le_bytes();
            // Not a byte a name can hold: a local never hashes as a name.
            hash ^= 0xfe;
            hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
            &local
        } else {
            text
        };
        for b in bytes.iter().chain(std::iter::once(&0xff)) {
            hash ^= u64::from(*b);
            hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
        }
    });
    Some(hash)
}

/// The names a JavaScript or TypeScript module binds to a local variable or
/// parameter (`const x`, `let x`, `(x, y) =>`, `catch (e)`), not to a
/// function or class (their `.name` is visible), not through a
/// destructuring pattern (`{ a }` names the property it reads), not in an
/// exported declaration (importers see the name).
pub(super) fn local_bindings<'s>(root: Node<'_>, source: &'s [u8]) -> std::collections::HashSet<&'s [u8]> {
    let mut names = std::collections::HashSet::new();
    let exported = |n: &Node| has_ancestor(n, &["export_statement"], &[]);
    let mut stack = vec![root];
    while let Some(n) = stack.pop() {
        let bound = match n.kind() {
            "variable_declarator" => n.child_by_field_name("name").filter(|_| !exported(&n)),
            "required_parameter" | "optional_parameter" => n.child_by_field_name("pattern"),
            "formal_parameters" => None,
            "arrow_function" => n.child_by_field_name("parameter"),
            "catch_clause" => n.child_by_field_name("parameter"),
            _ => None,
        };
        if let Some(name) = bound.filter(|b| b.kind() == "identifier") {
            names.insert(&source[name.byte_range()]);
        }
        if n.kind() == "formal_parameters" {
            let mut cursor = n.walk();
            for p in n.named_children(&mut cursor).filter(|p| p.kind() == "identifier") {
                names.insert(&source[p.byte_range()]);
            }
        }
        let mut cursor = n.walk();
        stack.extend(n.named_children(&mut cursor));
    }
    names
}

/// The names `source` uses as code (identifiers, properties, fields, types;
/// not words in comments or strings), each with whether it is ever used
/// other than as a member of a value (`find` of `find(x)`, `Self::find`,
/// not only of `iter.find(x)`, `self.find`). `None` when it does not parse.
pub fn code_names(lang: Lang, source: &[u8]) -> Option<std::collections::HashMap<String, bool>> {
    let tree = lang.parse(source)?;
    let mut names = std::collections::HashMap::new();
    let skip = |node: &Node| node.is_comment() || node.kind().contains("string");
    visit_leaves(tree.root_node(), skip, |leaf| {
        if leaf.kind().contains("identifier") {
            let member = match leaf.parent() {
                Some(p) if p.kind() == "field_expression" => p.field("field").is_some_and(|f| f.id() == leaf.id()),
                Some(p) if p.kind() == "attribute" => p.field("attribute").is_some_and(|f| f.id() == leaf.id()),
                Some(p) if p.kind() == "member_expression" => p.field("property").is_some_and(|f| f.id() == leaf.id()),
                Some(p) if p.kind() == "selector_expression" => p.field("field").is_some_and(|f| f.id() == leaf.id()),
                _ => false,
            };
            let free = names
                .entry(String::from_utf8_lossy(&source[leaf.byte_range()]).into_owned())
                .or_insert(false);
            *free |= !member;
        }
    });
    Some(names)
}

/// Visit every leaf under `node` (itself, when it is one) in document
/// order, with one tree cursor, leaving out the subtrees `skip` names.
pub(super) fn visit_leaves<'t>(node: Node<'t>, skip: impl Fn(&Node<'t>) -> bool, mut visit: impl FnMut(Node<'t>)) {
    let mut cursor = node.walk();
    'walk: loop {
        let at = cursor.node();
        let skipped = skip(&at);
        if !skipped && at.child_count() == 0 {
            visit(at);
        }
        if !skipped && cursor.goto_first_child() {
            continue;
        }
        loop {
            if cursor.goto_next_sibling() {
                continue 'walk;
            }
            if !cursor.goto_parent() || cursor.node().id() == node.id() {
                break 'walk;
            }
        }
    }
}

/// How many hashes a [`shape`] keeps.
pub(super) const SHAPE: usize = 64;

/// A sketch of what `body` says: the smallest [`SHAPE`] hashes of its
/// token trigrams (comments left out), so that [`similarity`] estimates how
/// much two bodies share, whatever their size, in a few hundred bytes.
pub(crate) fn shape(body: &Node, source: &[u8]) -> Vec<u32> {
    let mut tokens: Vec<&[u8]> = Vec::new();
    let skip = |node: &Node| node.is_extra() || node.is_comment();
    visit_leaves(*body, skip, |leaf| {
        let bytes = &source[leaf.byte_range()];
        if !bytes.iter().all(u8::is_ascii_whitespace) {
            tokens.push(bytes);
        }
    });
    // FNV-1a: the same on every run and platform.
    let hash = |parts: &[&[u8]]| {
        let mut h: u32 = 0x811c_9dc5;
        for part in parts {
            for b in part.iter().chain(std::iter::once(&0xff)) {
                h ^= u32::from(*b);
                h = h.wrapping_mul(0x0100_0193);
            }
        }
        h
    };
    let mut hashes: Vec<u32> = if tokens.len() < 3 {
        tokens.iter().map(|t| hash(&[t])).collect()
    } else {
        tokens.windows(3).map(hash).collect()
    };
    hashes.sort_unstable();
    hashes.dedup();
    hashes.truncate(SHAPE);
    hashes
}

/// How much of two [`shape`]s' bodies is shared (0 to 1): of the smallest
/// hashes of both together, the share each has (the bottom-k estimate of
/// the Jaccard index); 0 when either is empty.
pub fn similarity(a: &[u32], b: &[u32]) -> f64 {
    if a.is_empty() || b.is_empty() {
        return 0.0;
    }
    let (mut i, mut j, mut taken, mut both) = (0, 0, 0usize, 0usize);
    while taken < SHAPE && (i < a.len() || j < b.len()) {
        match (a.get(i), b.get(j)) {
            (Some(x), Some(y)) if x == y => {
                both += 1;
                i += 1;
                j += 1;
            }
            (Some(x), Some(y)) if x < y => i += 1,
            (Some(_), None) => i += 1,
            _ => j += 1,
        }
        taken += 1;
    }
    #[allow(clippy::cast_precision_loss)]
    let share = both as f64 / taken as f64;
    share
}

/// The text of a node (lossy on invalid UTF-8).
pub(crate) fn text<'a>(node: &Node, source: &'a [u8]) -> std::borrow::Cow<'a, str> {
    let bytes = &source[node.byte_range()];
    // `from_utf8` checks ASCII a word at a time; the lossy reader goes byte by byte.
    match std::str::from_utf8(bytes) {
        Ok(text) => std::borrow::Cow::Borrowed(text),
        Err(_) => String::from_utf8_lossy(bytes),
    }
}

/// Source text of `node` with runs of whitespace collapsed to one space.
pub(crate) fn display(node: &Node, source: &[u8]) -> String {
    text(node, source).split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The tokens of `node` joined by single spaces, for comparing two values
/// ([`crate::lang::Operand::key`]): as [`token_key`], but every parenthesis
/// stays (`(a + b) * c` is not `a + b * c`).
pub(crate) fn normalized(node: &Node, source: &[u8]) -> String {
    let mut out = String::new();
    if node.child_count() == 0 {
        push_token(&mut out, node, source);
    } else {
        tokens(*node, source, &mut out, false);
    }
    out
}

/// The tokens of `node` joined by single spaces, as a reformat leaves them:
/// comments, statement semicolons, the parentheses of a parenthesized
/// expression and a comma before a closing bracket are dropped, and every
/// string delimiter is written `"` (after any prefix such as `f` or `b`).
pub(crate) fn token_key(node: &Node, source: &[u8]) -> String {
    let node = &without_type_assertions(*node);
    let mut out = String::new();
    if node.child_count() == 0 {
        push_token(&mut out, node, source);
    } else {
        tokens(*node, source, &mut out, true);
    }
    out
}

/// TypeScript's type assertions (`x as T`, `x satisfies T`, `x!`): they do
/// nothing at run time.
const TYPE_ASSERTIONS: &[&str] = &["as_expression", "satisfies_expression", "non_null_expression"];

/// The expression under `node`'s type assertions, through every one (`[x]
/// as unknown as Hook[]` is `[x]`): the value is its expression's.
fn without_type_assertions(mut node: Node<'_>) -> Node<'_> {
    while TYPE_ASSERTIONS.contains(&node.kind()) {
        match node.named_child(0) {
            Some(inner) => node = inner,
            None => break,
        }
    }
    node
}

/// The tokens under `node`, without the parentheses of a parenthesized
/// expression when `drop_parentheses`.
fn tokens(node: Node<'_>, source: &[u8], out: &mut String, drop_parentheses: bool) {
    // Text no child covers: the characters of a Python string between its
    // escape sequences (`"plain\na"` has `plain` and `a` around `\n`).
    let gap = |from: usize, until: usize, out: &mut String| {
        let text = source.get(from..until).map(String::from_utf8_lossy).unwrap_or_default();
        if !text.trim().is_empty() {
            if !out.is_empty() {
                out.push(' ');
            }
            out.push_str(&text);
        }
    };
    // Per open node: the node, how far its children's text is covered, and
    // the child to read next. A stack, not recursion: nesting in a file
    // cannot exhaust the thread's stack.
    let mut open = vec![(node, node.start_byte(), node.child(0))];
    while let Some((parent, covered, next)) = open.last_mut() {
        let parent = *parent;
        let Some(child) = *next else {
            gap(*covered, parent.end_byte(), out);
            open.pop();
            continue;
        };
        *next = child.next_sibling();
        gap(*covered, child.start_byte(), out);
        *covered = (*covered).max(child.end_byte());
        // A comment: nothing to emit, nothing to descend into.
        if child.is_extra() {
            continue;
        }
        let child = without_type_assertions(child);
        if TYPE_ASSERTIONS.contains(&child.kind()) {
            continue;
        }
        // Go's empty interface is the type `any` names (an alias since Go
        // 1.18): `[]interface{}{1}` and `[]any{1}` are one value.
        if child.kind() == "interface_type" && child.named_child_count() == 0 {
            out.push_str(if out.is_empty() { "any" } else { " any" });
            continue;
        }
        if child.child_count() > 0 {
            open.push((child, child.start_byte(), child.child(0)));
            continue;
        }
        let kind = child.kind();
        let following = std::iter::successors(child.next_sibling(), Node::next_sibling).find(|s| !s.is_extra());
        let skip = kind == ";"
            || (drop_parentheses && matches!(kind, "(" | ")") && parent.kind() == "parenthesized_expression")
            || (kind == "," && following.is_some_and(|s| matches!(s.kind(), ")" | "]" | "}")));
        if !skip {
            push_token(out, &child, source);
        }
    }
}

pub(super) fn push_token(out: &mut String, leaf: &Node<'_>, source: &[u8]) {
    if !out.is_empty() {
        out.push(' ');
    }
    match leaf.kind() {
        "string_start" | "string_end" | "\"" | "'" => {
            let prefix: String = text(leaf, source).chars().filter(|c| c.is_ascii_alphabetic()).collect();
            out.push_str(&prefix.to_ascii_lowercase());
            out.push('"');
        }
        // `"\x1B"` is `"\x1b"`: the hex digits of an escape in one case.
        "escape_sequence" => {
            let escape = text(leaf, source);
            match escape.get(..2) {
                Some(head @ ("\\x" | "\\u" | "\\U")) => {
                    out.push_str(head);
                    out.push_str(&escape[2..].to_ascii_lowercase());
                }
                _ => out.push_str(&escape),
            }
        }
        _ => out.push_str(&text(leaf, source)),
    }
}

/// Parse a number literal as the language writes it (`1_000`, `0x1f`, `1e3`, `10n`).
pub(crate) fn number(text: &str) -> Option<f64> {
    let t = text.replace('_', "");
    let t = t.trim_end_matches(['n', 'j', 'J', 'l', 'L']);
    let lower = t.to_ascii_lowercase();
    let radix = |prefix: &str, radix: u32| {
        lower
            .strip_prefix(prefix)
            .and_then(|d| i64::from_str_radix(d, radix).ok())
            .map(|v| v as f64)
    };
    radix("0x", 16)
        .or_else(|| radix("0o", 8))
        .or_else(|| radix("0b", 2))
        .or_else(|| lower.parse().ok())
}

/// Close the set of helpers: a function is a helper when its body asserts or
/// calls a helper. `bodies` maps function name to (asserts directly, called names).
pub(crate) fn close_helpers(bodies: &[versions::Body]) -> Vec<String> {
    let mut helpers: Vec<String> = bodies
        .iter()
        .filter(|(_, a, _)| *a)
        .map(|(n, _, _)| n.clone())
        .collect();
    loop {
        let before = helpers.len();
        for (name, _, calls) in bodies {
            if !helpers.contains(name) && calls.iter().any(|c| helpers.contains(c)) {
                helpers.push(name.clone());
            }
        }
        if helpers.len() == before {
            break;
        }
    }
    helpers.sort();
    helpers.dedup();
    helpers
}

/// Is this a name that, by the conventions of every test ecosystem, asserts
/// (`assert_frame_equal`, `assertValid`, `expectError`, `check_html`, `verify`)?
pub fn conventional_helper(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    [
        "assert", "expect", "check", "verify", "ensure", "validate", "should", "must",
    ]
    .iter()
    .any(|p| {
        lower.strip_prefix(p).is_some_and(|rest| {
            rest.is_empty() || rest.starts_with('_') || name[p.len()..].starts_with(|c: char| c.is_ascii_uppercase())
        })
    })
}

/// A [`token_key`] as people write it: no space around punctuation, the
/// text of a string literal together (`buf . String ( )` is `buf.String()`).
pub(crate) fn written(key: &str) -> String {
    let mut out = String::with_capacity(key.len());
    let mut last = "";
    // The quote of the string literal the tokens are in; whether the next
    // token follows the opening quote; how deep in a template's `${..}`.
    let (mut quote, mut opened, mut inside) = (None::<&str>, false, 0usize);
    for token in key.split(' ') {
        if inside > 0 {
            match token {
                "{" | "${" => inside += 1,
                "}" => inside -= 1,
                _ => {}
            }
            if inside == 0 {
                out.push_str(token);
                last = token;
                continue;
            }
        } else if let Some(q) = quote {
            // Text is written together with its escapes and interpolations;
            // its own spaces split it into tokens here.
            let together = opened || last.starts_with('\\') || token.starts_with('\\') || last == "}" || token == "${";
            if token == q {
                quote = None;
            } else if !together {
                out.push(' ');
            }
            opened = false;
            out.push_str(token);
            last = token;
            if token == "${" {
                inside = 1;
                last = "(";
            }
            continue;
        }
        let glue = matches!(token, ")" | "]" | "}" | "," | "." | ":" | "(" | "[" | "?.")
            && !(token == "(" && matches!(last, "," | "=" | "==" | "return"))
            || matches!(last, "(" | "[" | "{" | "." | "?." | "-" | "!" | "")
            || (token == "[" && last == ",");
        if !glue || (token == "{" && !last.is_empty()) {
            out.push(' ');
        }
        out.push_str(token);
        last = token;
        if token == "`" {
            (quote, opened) = (Some("`"), true);
        } else if token
            .strip_suffix('"')
            .is_some_and(|prefix| prefix.chars().all(|c| c.is_ascii_alphabetic()))
        {
            (quote, opened) = (Some("\""), true);
        }
    }
    out.trim().to_string()
}
