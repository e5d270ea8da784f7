//! A test file's own assertion macros, expanded where they are invoked.
//!
//! A `macro_rules!` that wraps checks (`assert_width!(s, 10, 10)` for an
//! `assert_eq!` of `s.width()` and another of `s.width_cjk()`) makes those
//! checks wherever a test invokes it: read as one opaque `assert_width`
//! check, the checks it replaced read as lost (issue 64: unicode-width
//! afab363, where 18 written-out checks became invocations of such a macro).

use super::*;
use crate::lang::is_plain_name;

/// A `macro_rules!` of the file with one rule, whose metavariables are
/// plain fragments separated by commas (`($s:expr, $want:expr $(,)?)`) and
/// whose body asserts: its invocations are its body with their arguments
/// put in for its metavariables.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Expansion {
    pub(super) name: String,
    /// The metavariables, without their `$`, in order.
    params: Vec<String>,
    /// The rule's body, its outer brackets dropped.
    body: String,
}

impl Expansion {
    /// The key a memo of a test invoking it adds: the macro as written.
    pub(super) fn key(&self) -> String {
        format!("{}\u{1f}{}\u{1f}{}", self.name, self.params.join(","), self.body)
    }
}

/// The longest body of a macro read expanded, in bytes.
const MAX_BODY: usize = 4096;

/// The file's macros that expand to checks ([`Expansion`]).
pub(super) fn assertion_macros(root: &Node, source: &[u8]) -> Vec<Expansion> {
    // Most test files define no macro: a look at their text spares the walk.
    if memchr::memmem::find(source, b"macro_rules").is_none() {
        return Vec::new();
    }
    let mut out: Vec<Expansion> = Vec::new();
    visit_named(*root, |n| {
        if n.kind() == "macro_definition"
            && let Some(expansion) = expansion(&n, source)
        {
            out.push(expansion);
        }
        n.kind() != "token_tree" && n.kind() != "macro_definition"
    });
    // A name defined twice (under different `cfg`s) is no one expansion.
    let names: Vec<String> = out.iter().map(|e| e.name.clone()).collect();
    out.retain(|e| names.iter().filter(|n| **n == e.name).count() == 1);
    out
}

fn expansion(def: &Node, source: &[u8]) -> Option<Expansion> {
    let name = text(&def.field("name")?, source).into_owned();
    let mut cursor = def.walk();
    let rules: Vec<Node> = def
        .named_children(&mut cursor)
        .filter(|r| r.kind() == "macro_rule")
        .collect();
    let [rule] = rules.as_slice() else {
        return None;
    };
    let (left, right) = (rule.field("left")?, rule.field("right")?);
    let pattern = text(&left, source);
    let inner = pattern.get(1..pattern.len().checked_sub(1)?)?;
    // A trailing comma the rule accepts is no metavariable.
    let inner = inner.trim().trim_end_matches("$(,)?").trim_end_matches("$(,)*").trim();
    let mut params = Vec::new();
    for piece in inner.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let (var, fragment) = piece.strip_prefix('$')?.split_once(':')?;
        let (var, fragment) = (var.trim(), fragment.trim());
        let plain = matches!(fragment, "expr" | "ident" | "literal" | "tt" | "ty" | "path" | "pat");
        if !plain || !is_plain_name(var) || params.iter().any(|p| p == var) {
            return None;
        }
        params.push(var.to_string());
    }
    let body = text(&right, source);
    let body = body.get(1..body.len().checked_sub(1)?)?.to_string();
    // Only a macro that checks: any other is a call, read as one. A body
    // past a few kilobytes is no wrapper of checks, and expanding it at
    // each invocation would cost in proportion to both.
    let asserts = ["assert", "panic!"].iter().any(|word| body.contains(word));
    (asserts && !params.is_empty() && body.len() <= MAX_BODY).then_some(Expansion { name, params, body })
}

/// The body of `expansion` with the arguments of its invocation `mac` put
/// in, as the source of a function (`fn f() { .. }`) to parse; `None` when
/// the arguments are not one for each metavariable.
pub(super) fn expanded(expansion: &Expansion, mac: &Node, source: &[u8]) -> Option<Vec<u8>> {
    // Each argument's text, and whether it binds looser than a method call.
    let arguments: Vec<(String, bool)> = with_macro_args(mac, source, |args, src| {
        args.iter()
            .map(|a| {
                let loose = matches!(
                    a.kind(),
                    "binary_expression"
                        | "unary_expression"
                        | "range_expression"
                        | "type_cast_expression"
                        | "reference_expression"
                        | "closure_expression"
                        | "assignment_expression"
                );
                (String::from_utf8_lossy(&src[a.byte_range()]).into_owned(), loose)
            })
            .collect()
    })?;
    if arguments.len() != expansion.params.len() {
        return None;
    }
    let mut out = String::with_capacity(expansion.body.len() + 32);
    out.push_str("fn f() {\n");
    let body = expansion.body.as_str();
    let mut rest = body;
    while let Some(at) = rest.find('$') {
        out.push_str(&rest[..at]);
        let after = &rest[at + 1..];
        let end = after
            .find(|c: char| !(c.is_alphanumeric() || c == '_'))
            .unwrap_or(after.len());
        match expansion.params.iter().position(|p| *p == after[..end]) {
            Some(i) => {
                // A method called on an argument that binds looser is
                // called on all of it: the fragment stays one expression.
                let (argument, loose) = &arguments[i];
                let called = after[end..].starts_with(['.', '[', '?']);
                match *loose && called {
                    true => {
                        out.push('(');
                        out.push_str(argument);
                        out.push(')');
                    }
                    false => out.push_str(argument),
                }
            }
            // A repetition (`$(..)*`) or `$crate`: not expanded here.
            None => return None,
        }
        rest = &after[end..];
    }
    out.push_str(rest);
    out.push_str("\n}\n");
    Some(out.into_bytes())
}
