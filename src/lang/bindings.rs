//! What a test binds (names to literals, calls and tables) and the cases a
//! table-driven test runs, for every language.

use super::*;

/// Where a binding is made.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Site {
    pub span: Span,
    /// A statement of the test body itself, not under a condition, loop,
    /// handler or block: it runs whenever the test does, in order.
    pub straight: bool,
}

/// The kinds between a binding and the test body that keep it a statement
/// of the body itself: declarations, expression statements, statement lists.
pub(super) const STRAIGHT: &[&str] = &[
    "expression_statement",
    "lexical_declaration",
    "variable_declaration",
    "let_declaration",
    "short_var_declaration",
    "assignment_statement",
    "var_declaration",
    "var_spec",
    "statement_list",
    "expression_list",
];

/// The value of a binding's right side, bound by `node` in the test `body`.
pub(crate) fn bound(literal: Option<Literal>, call: Option<String>, node: &Node, body: &Node) -> Bound {
    let mut straight = true;
    let mut next = node.parent();
    while let Some(p) = next {
        if p.id() == body.id() {
            break;
        }
        if !STRAIGHT.contains(&p.kind()) {
            straight = false;
            break;
        }
        next = p.parent();
    }
    let site = Site {
        span: Span::of(node),
        straight,
    };
    match (literal, call) {
        (Some(l), _) => Bound::Literal(l, site),
        (None, Some(c)) if c.ends_with("()") => Bound::Call(c, site),
        (None, Some(c)) => Bound::Chain(c, site),
        _ => Bound::Other,
    }
}

/// The names bound exactly once in a test, from every binding of every name.
pub(super) fn bound_once(occurrences: &[(String, Bound)]) -> impl Iterator<Item = (&String, &Bound)> {
    let mut counts: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    for (name, _) in occurrences {
        *counts.entry(name.as_str()).or_default() += 1;
    }
    occurrences
        .iter()
        .filter(move |(name, _)| counts.get(name.as_str()) == Some(&1))
        .map(|(n, b)| (n, b))
}

/// Is `name` bound at most once among `occurrences` (a test's parameters
/// and its body's bindings): a parameter the body does not rebind, whose
/// value where it is used is the one a case gives it.
pub(crate) fn not_rebound(occurrences: &[(String, Bound)], name: &str) -> bool {
    // Go's `tc := tc` (a loop variable copied for a closure before Go
    // 1.22) binds the name to itself: the same value.
    occurrences
        .iter()
        .filter(|(n, value)| n == name && !matches!(value, Bound::Chain(chain, _) if chain == name))
        .count()
        <= 1
}

/// `occurrences` with the names several loops bind each bound once: loops
/// that do not nest (`for c in [..] {..}` then `for c in [..] {..}`) each
/// bind their own `c`, no rebinding of the other's (unicode-width 3742586).
/// The loops are the nodes of `body` of kind `kind`, their patterns their
/// `field`, whose names `names` reads; the walk does not enter `stop`
/// kinds (nested functions). A loop nested in another is no table of its
/// own ([`one_table`]), so nothing is read of it wrongly.
pub(crate) fn once_per_loop(
    occurrences: &[(String, Bound)],
    body: &Node,
    (kind, field): (&str, &'static str),
    names: impl Fn(&Node, &mut Vec<(String, Bound)>),
    stop: &[&str],
) -> Vec<(String, Bound)> {
    let mut extra: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    visit_named(*body, |n| {
        if n.kind() == kind
            && let Some(pattern) = n.field(field)
        {
            let mut bound = Vec::new();
            names(&pattern, &mut bound);
            bound.sort_by(|a, b| a.0.cmp(&b.0));
            bound.dedup_by(|a, b| a.0 == b.0);
            for (name, _) in bound {
                *extra.entry(name).or_default() += 1;
            }
        }
        !stop.contains(&n.kind())
    });
    let mut out = Vec::with_capacity(occurrences.len());
    for (name, value) in occurrences {
        let left = extra
            .get_mut(name)
            .filter(|left| **left > 1 && matches!(value, Bound::Other));
        match left {
            Some(left) => *left -= 1,
            None => out.push((name.clone(), value.clone())),
        }
    }
    out
}

/// The plain bindings of the names whose value at each point is known:
/// bound once by a plain binding (to a literal or to what a call returns),
/// or several times, each by a plain binding that is a statement of the
/// test body itself (`name = build()` then `name = "draft"`). A name also
/// bound any other way (a loop, a destructuring, an update, a write in a
/// closure or through a reference), or rebound under a condition or loop,
/// is left out. In source order.
pub(crate) fn plain_bindings(occurrences: &[(String, Bound)]) -> Vec<Binding> {
    // Per name: how many bindings, and whether each is plain and straight.
    let mut names: std::collections::HashMap<&str, (usize, bool)> = std::collections::HashMap::new();
    for (name, value) in occurrences {
        let entry = names.entry(name.as_str()).or_insert((0, true));
        entry.0 += 1;
        entry.1 &= match value {
            Bound::Literal(_, site) | Bound::Call(_, site) => site.straight,
            Bound::Chain(..) | Bound::Other => false,
        };
    }
    // Bound once: that binding, however nested; several times: only if each is straight.
    let known = |name: &str| match names.get(name) {
        Some((1, _)) => true,
        Some((_, straight)) => *straight,
        None => false,
    };
    let mut out: Vec<Binding> = occurrences
        .iter()
        .filter(|(name, _)| known(name))
        .filter_map(|(name, value)| {
            let (literal, site) = match value {
                Bound::Literal(Literal::Collection(_), site) => (None, site),
                Bound::Literal(literal, site) => (Some(literal.clone()), site),
                Bound::Call(_, site) => (None, site),
                Bound::Chain(..) | Bound::Other => return None,
            };
            Some(Binding {
                name: name.clone(),
                literal,
                span: site.span,
            })
        })
        .collect();
    out.sort_by(|a, b| (a.span, &a.name).cmp(&(b.span, &b.name)));
    out
}

/// The names bound exactly once, to a non-empty literal collection: a table
/// of cases that a loop always runs over.
pub(crate) fn single_nonempty_collections(occurrences: &[(String, Bound)]) -> Vec<String> {
    let nonempty = |value: &Bound| matches!(value, Bound::Literal(Literal::Collection(n), _) if *n > 0);
    let mut out: Vec<String> = Vec::new();
    for (name, _) in occurrences {
        // Bound only ever to non-empty literals (`cases = []struct{..}{..}` twice):
        // a loop over it runs its body whichever binding it sees.
        if !out.contains(name)
            && occurrences
                .iter()
                .filter(|(n, _)| n == name)
                .all(|(_, value)| nonempty(value))
        {
            out.push(name.clone());
        }
    }
    out
}

/// One case of a table-driven or parametrized test: each name a row binds
/// (`url`, `c . want`, `row [ "want" ]`) with its value, as [`token_key`]s.
pub(crate) type Case = Vec<(String, String)>;

/// Of the names a module binds at its top level, each with its value when
/// that is a literal table, those bound once, to a literal, with it.
pub(crate) fn literals_bound_once<'a>(bound: Vec<(String, Option<Node<'a>>)>) -> Vec<(String, Node<'a>)> {
    let mut counts: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    for (name, _) in &bound {
        *counts.entry(name.as_str()).or_default() += 1;
    }
    let once: Vec<bool> = bound.iter().map(|(name, _)| counts[name.as_str()] == 1).collect();
    bound
        .into_iter()
        .zip(once)
        .filter_map(|((name, value), once)| Some((name, value?)).filter(|_| once))
        .collect()
}

/// The tables of `literals` whose names a function's text (`item`) holds,
/// each with its text: their rows are the function's cases, so a memo of
/// the function keys on them.
pub(crate) fn named_literals<'l, 's>(
    item: &[u8],
    literals: &'l [(String, Node)],
    source: &'s [u8],
) -> Vec<(&'l str, std::borrow::Cow<'s, str>)> {
    literals
        .iter()
        .filter(|(name, _)| !name.is_empty() && item.windows(name.len()).any(|w| w == name.as_bytes()))
        .map(|(name, literal)| (name.as_str(), text(literal, source)))
        .collect()
}

/// The cases of the tables a test's loops run over, from each loop's table
/// (its text, to tell two apart), the loop's span and the cases read of
/// it. One table, however many loops run over it, is the case of every
/// assertion; several, each run by loops that do not nest (a subtest per
/// table), are each the cases of the assertions inside its loops
/// ([`CaseLoop`]); tables whose loops nest give none. A list of plain
/// values (`"foo bar"`, `-8`, `true`: each row one value bound to the
/// loop's one name, inputs the same checks run on) is a table only when
/// the test loops over no table of rows (a loop over names beside one over
/// cases does not hide the cases).
pub(crate) fn one_table(mut tables: Vec<(String, Span, Vec<Case>)>) -> (Vec<Case>, Vec<CaseLoop>) {
    let plain = |cases: &Vec<Case>| {
        cases
            .iter()
            .all(|case| matches!(case.as_slice(), [(name, _)] if is_plain_name(name)))
    };
    if tables.iter().any(|(_, _, cases)| !plain(cases)) {
        tables.retain(|(_, _, cases)| !plain(cases));
    }
    let Some((first, _, first_cases)) = tables.first() else {
        return (Vec::new(), Vec::new());
    };
    if tables.iter().all(|(id, _, cases)| id == first && cases == first_cases) {
        return (first_cases.clone(), Vec::new());
    }
    // A table whose rows bind nothing (names another loop rebinds) is none.
    tables.retain(|(_, _, cases)| cases.iter().any(|case| !case.is_empty()));
    let apart = |a: Span, b: Span| {
        (a.end_line, a.end_column) <= (b.line, b.column) || (b.end_line, b.end_column) <= (a.line, a.column)
    };
    for (i, (_, a, _)) in tables.iter().enumerate() {
        if tables[i + 1..].iter().any(|(_, b, _)| !apart(*a, *b)) {
            return (Vec::new(), Vec::new());
        }
    }
    tables.sort_by_key(|(_, span, _)| *span);
    let mut cases = Vec::new();
    let mut loops = Vec::new();
    for (_, span, rows) in tables {
        let rows: Vec<Case> = rows.into_iter().take(MAX_CASES - cases.len()).collect();
        if !rows.is_empty() {
            loops.push(CaseLoop { span, rows: rows.len() });
            cases.extend(rows);
        }
    }
    (cases, loops)
}

/// The table a loop names (`for c in cases`): the test's own binding of
/// that name when it binds it once (`in_body` finds it), or, when it binds
/// it nowhere, the file's table of that name. A name bound more than once
/// is no one table.
pub(crate) fn table_named<'a>(
    name: &str,
    occurrences: &[(String, Bound)],
    module: &[(String, Node<'a>)],
    in_body: impl FnOnce() -> Option<Node<'a>>,
) -> Option<Node<'a>> {
    match occurrences.iter().filter(|(n, _)| n == name).count() {
        0 => module.iter().find(|(n, _)| n == name).map(|(_, literal)| *literal),
        1 => in_body(),
        _ => None,
    }
}

/// The cases read of a loop's table, one a row (at most [`MAX_CASES`]): a
/// name the test rebinds is left out of each (it is not the row's value
/// where it is used, `row` standing for `row . want` and `row [ 0 ]`);
/// `None` when no row could be read (a loop over plain values is input only).
pub(crate) fn loop_table_cases(cases: Vec<Case>, occurrences: &[(String, Bound)]) -> Option<Vec<Case>> {
    if cases.is_empty() {
        return None;
    }
    let kept = |name: &str| not_rebound(occurrences, name.split(' ').next().unwrap_or(name));
    Some(
        cases
            .into_iter()
            .take(MAX_CASES)
            .map(|case| case.into_iter().filter(|(name, _)| kept(name)).collect())
            .collect(),
    )
}

/// Keep the names bound exactly once to a chain with no call, that `calls`
/// (the names the test calls) holds: [`TestCase::callables`].
pub(crate) fn single_callables(occurrences: &[(String, Bound)], calls: &[String]) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = bound_once(occurrences)
        .filter(|(name, _)| calls.contains(name))
        .filter_map(|(name, value)| match value {
            Bound::Chain(chain, _) if chain.contains('.') => Some((name.clone(), chain.clone())),
            _ => None,
        })
        .collect();
    out.sort();
    out
}

/// Keep the names bound exactly once, to a call: [`TestCase::aliases`].
pub(crate) fn single_call_aliases(occurrences: &[(String, Bound)]) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = bound_once(occurrences)
        .filter_map(|(name, value)| match value {
            Bound::Call(call, _) => Some((name.clone(), call.clone())),
            _ => None,
        })
        .collect();
    out.sort();
    out
}

/// The names bound exactly once, to a chain, called or not: [`TestCase::locals`].
pub(crate) fn single_locals(occurrences: &[(String, Bound)]) -> Vec<Local> {
    let mut out: Vec<Local> = bound_once(occurrences)
        .filter_map(|(name, value)| match value {
            Bound::Call(chain, site) | Bound::Chain(chain, site) => Some(Local {
                name: name.clone(),
                chain: chain.clone(),
                span: site.span,
            }),
            _ => None,
        })
        .collect();
    out.sort_by(|a, b| (a.span, &a.name).cmp(&(b.span, &b.name)));
    out
}

/// Drop the [`TestCase::locals`] of tests without mock returns: only the
/// mock return rule reads them.
pub(crate) fn keep_locals_of_mocked(tests: &mut [TestCase]) {
    for test in tests.iter_mut().filter(|t| t.mock_returns.is_empty()) {
        test.locals = Vec::new();
    }
}
