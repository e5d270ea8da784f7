//! Table-driven JavaScript and TypeScript tests: the rows of a literal
//! table a loop runs over, inside a test or around the tests it declares.

use super::*;

/// The rows of a table-driven test as cases ([`TestCase::cases`]): the one
/// literal array a `for (const .. of table)` loop or a `table.forEach((..)
/// => ..)` callback runs over (written there, bound once in the test, or,
/// the test binding that name nowhere, once at the top of the file). An
/// array pattern (`[input, want]`) binds a row's values by position, an
/// object pattern (`{ input, want }`) a row's fields by key, and one name
/// (`c`) binds `c[0]`.. of an array row and `c.want` of an object row, or
/// a plain value (`"foo bar"`, `-8`) itself: a list of inputs the same
/// checks run on. A row of another shape is not read; loops over several
/// tables give each table's cases to the checks inside its loops
/// ([`crate::lang::one_table`]). A name the test rebinds is not the row's
/// value.
pub(super) fn loop_cases(
    body: &Node,
    module: &[(String, Node)],
    occurrences: &[(String, Bound)],
    source: &[u8],
) -> (Vec<Case>, Vec<CaseLoop>) {
    // Most tests loop over nothing: a look at their text spares the walk.
    if !source[body.byte_range()].windows(3).any(|w| w == b"for") {
        return (Vec::new(), Vec::new());
    }
    let mut tables = Vec::new();
    visit_named(*body, |n| {
        let (pattern, right) = loop_over(&n, source);
        if let (Some(pattern), Some(right)) = (pattern, right)
            && let Some(table) = table_literal(body, unwrap(right), module, occurrences, source)
            && let Some(cases) = loop_rows(&pattern, &table, occurrences, source)
        {
            tables.push((text(&table, source).into_owned(), Span::of(&n), cases));
        }
        true
    });
    crate::lang::one_table(tables)
}

/// The rows of a table whose loop declares the test (`for (const t of rows)
/// { test(.., () => ..) }`, `rows.forEach((t) => it(..))`): each row is a
/// test, read as the cases of a loop inside one ([`loop_cases`]). The
/// nearest loop around `call` counts, up to the file's top.
pub(super) fn enclosing_loop_cases(
    call: &Node,
    module: &[(String, Node)],
    occurrences: &[(String, Bound)],
    source: &[u8],
) -> Vec<Vec<(String, String)>> {
    let mut at = call.parent();
    while let Some(n) = at {
        let (pattern, right) = loop_over(&n, source);
        if let (Some(pattern), Some(right)) = (pattern, right) {
            // A table bound beside the loop (in the `describe` around it),
            // else at the top of the file.
            let right = unwrap(right);
            let beside = (right.kind() == "identifier")
                .then(|| {
                    let name = text(&right, source);
                    let scope = n.parent()?;
                    let mut named = scope.named_children(&mut scope.walk()).filter_map(|statement| {
                        let mut cursor = statement.walk();
                        statement
                            .named_children(&mut cursor)
                            .find_map(|d| array_bound(&d, &name, source))
                    });
                    named.next()
                })
                .flatten();
            let mut cases = beside
                .or_else(|| table_literal(&n, right, module, occurrences, source))
                .and_then(|table| loop_rows(&pattern, &table, occurrences, source))
                .unwrap_or_default();
            // A row the test is declared for only under an `if` on the row's
            // values (`if (typeof path === "string") { it("should parse", ..) }
            // else { it("should parse keys", ..) }`) is a case of the branch
            // it takes.
            let branches = branches_between(call, &n);
            cases.retain(|case| {
                branches
                    .iter()
                    .all(|(condition, taken)| holds(condition, case, source).is_none_or(|h| h == *taken))
            });
            return cases;
        }
        at = n.parent();
    }
    Vec::new()
}

/// Is `call` declared inside a loop over a table ([`enclosing_loop_cases`])?
/// Its cases are read outside its text.
pub(super) fn in_a_loop(call: &Node, source: &[u8]) -> bool {
    let mut at = call.parent();
    while let Some(n) = at {
        if let (Some(_), Some(_)) = loop_over(&n, source) {
            return true;
        }
        at = n.parent();
    }
    false
}

/// The `if` conditions between `call` and the loop `top` around it, each
/// with whether `call` is in its consequence (`true`) or its `else`.
fn branches_between<'a>(call: &Node<'a>, top: &Node<'a>) -> Vec<(Node<'a>, bool)> {
    let mut out = Vec::new();
    let mut child = *call;
    let mut at = call.parent();
    while let Some(n) = at {
        if n.id() == top.id() {
            break;
        }
        if n.kind() == "if_statement"
            && let Some(condition) = n.field("condition")
        {
            let inside = |branch: Option<Node>| {
                branch.is_some_and(|b| b.start_byte() <= child.start_byte() && child.end_byte() <= b.end_byte())
            };
            if inside(n.field("consequence")) {
                out.push((condition, true));
            } else if inside(n.field("alternative")) {
                out.push((condition, false));
            }
        }
        child = n;
        at = n.parent();
    }
    out
}

/// Whether `condition` holds for a row whose values are `case` (names and
/// token keys), when it can be told from them: `typeof x === "string"`,
/// `x !== undefined`, `!x`, `x`, and `&&`, `||` of such; `None` otherwise.
fn holds(condition: &Node, case: &[(String, String)], source: &[u8]) -> Option<bool> {
    let value = |n: &Node| -> Option<&str> {
        let name = text(&unwrap(*n), source);
        case.iter().find(|(k, _)| *k == name).map(|(_, v)| v.as_str())
    };
    let type_of = |key: &str| -> Option<&'static str> {
        let first = key.chars().next()?;
        Some(match key {
            "undefined" => "undefined",
            "true" | "false" => "boolean",
            "null" => "object",
            _ if matches!(first, '"' | '\'' | '`') => "string",
            _ if first.is_ascii_digit()
                || (first == '-' && key[1..].trim_start().starts_with(|c: char| c.is_ascii_digit())) =>
            {
                "number"
            }
            _ if matches!(first, '[' | '{' | '/') || key.starts_with("new ") => "object",
            _ => return None,
        })
    };
    let truthy = |key: &str| -> Option<bool> {
        match type_of(key)? {
            "undefined" => Some(false),
            "boolean" => Some(key == "true"),
            "object" => Some(key != "null"),
            "number" => Some(key.trim() != "0"),
            _ => Some(key.chars().filter(|c| !c.is_whitespace()).count() > 2),
        }
    };
    let n = unwrap(*condition);
    match n.kind() {
        "identifier" => truthy(value(&n)?),
        "unary_expression" if n.field("operator").is_some_and(|o| text(&o, source) == "!") => {
            holds(&n.field("argument")?, case, source).map(|h| !h)
        }
        "binary_expression" => {
            let op = text(&n.field("operator")?, source);
            let (left, right) = (n.field("left")?, n.field("right")?);
            match op.as_ref() {
                "&&" => match (holds(&left, case, source), holds(&right, case, source)) {
                    (Some(false), _) | (_, Some(false)) => Some(false),
                    (Some(true), Some(true)) => Some(true),
                    _ => None,
                },
                "||" => match (holds(&left, case, source), holds(&right, case, source)) {
                    (Some(true), _) | (_, Some(true)) => Some(true),
                    (Some(false), Some(false)) => Some(false),
                    _ => None,
                },
                "===" | "==" | "!==" | "!=" => {
                    let equal = op.starts_with('=');
                    // `typeof x === "string"`, either way round.
                    let typeof_of = |side: &Node| -> Option<&'static str> {
                        let side = unwrap(*side);
                        (side.kind() == "unary_expression"
                            && side.field("operator").is_some_and(|o| text(&o, source) == "typeof"))
                        .then(|| side.field("argument"))
                        .flatten()
                        .and_then(|a| value(&a))
                        .and_then(type_of)
                    };
                    let literal = |side: &Node| text(&unwrap(*side), source).trim_matches(['"', '\'', '`']).to_string();
                    let same = if let Some(t) = typeof_of(&left) {
                        t == literal(&right)
                    } else if let Some(t) = typeof_of(&right) {
                        t == literal(&left)
                    } else {
                        // `x !== undefined`, `x === null`.
                        let absent =
                            |side: &Node| matches!(text(&unwrap(*side), source).as_ref(), "undefined" | "null");
                        let (row, other) = if absent(&right) {
                            (left, right)
                        } else if absent(&left) {
                            (right, left)
                        } else {
                            return None;
                        };
                        let key = value(&row)?;
                        type_of(key)?;
                        // `==` and `!=` take `null` and `undefined` for one another.
                        let loose = op.len() == 2;
                        key == text(&unwrap(other), source) || (loose && matches!(key, "undefined" | "null"))
                    };
                    Some(same == equal)
                }
                _ => None,
            }
        }
        _ => None,
    }
}

/// The pattern a loop binds each item to and what it runs over, when `n`
/// is one: `for (const pattern of right)`, `right.forEach((pattern) => ..)`.
fn loop_over<'a>(n: &Node<'a>, source: &[u8]) -> (Option<Node<'a>>, Option<Node<'a>>) {
    match n.kind() {
        "for_in_statement" if n.field("operator").is_some_and(|o| text(&o, source) == "of") => {
            (n.field("left"), n.field("right"))
        }
        "call_expression" => {
            let callee = n.field("function").filter(|f| f.kind() == "member_expression");
            let each = callee
                .and_then(|f| f.field("property"))
                .is_some_and(|p| text(&p, source) == "forEach");
            match (each, arguments(n).into_iter().next().filter(is_function)) {
                (true, Some(callback)) => (
                    callback
                        .field("parameter")
                        .or_else(|| callback.field("parameters").and_then(|p| first_child(&p))),
                    callee.and_then(|f| f.field("object")),
                ),
                _ => (None, None),
            }
        }
        _ => (None, None),
    }
}

/// The array literal a loop runs over: written there, the value of the one
/// binding of that name in `body`, or (the body binding it nowhere) the
/// file's table of that name.
pub(super) fn table_literal<'a>(
    body: &Node<'a>,
    right: Node<'a>,
    module: &[(String, Node<'a>)],
    occurrences: &[(String, Bound)],
    source: &[u8],
) -> Option<Node<'a>> {
    match right.kind() {
        "array" => Some(right),
        "identifier" => {
            let name = text(&right, source);
            crate::lang::table_named(&name, occurrences, module, || {
                let mut value = None;
                visit_named(*body, |n| {
                    if let Some(bound) = declares(&n, &name, source) {
                        value = bound;
                    }
                    value.is_none()
                });
                value
            })
        }
        _ => None,
    }
}

/// `Some(value)` when `node` declares the plain name `name`: the array
/// literal it is bound to, if it is one.
fn declares<'a>(node: &Node<'a>, name: &str, source: &[u8]) -> Option<Option<Node<'a>>> {
    (node.kind() == "variable_declarator"
        && node
            .field("name")
            .is_some_and(|l| l.kind() == "identifier" && text(&l, source) == name))
    .then(|| node.field("value").map(unwrap).filter(|v| v.kind() == "array"))
}

/// The array literal `node` binds `name` to, when it declares it as one.
fn array_bound<'a>(node: &Node<'a>, name: &str, source: &[u8]) -> Option<Node<'a>> {
    declares(node, name, source).flatten()
}

/// The cases of `table` as the loop's `pattern` reads each row.
pub(super) fn loop_rows(
    pattern: &Node,
    table: &Node,
    occurrences: &[(String, Bound)],
    source: &[u8],
) -> Option<Vec<Vec<(String, String)>>> {
    let pattern = match pattern.kind() {
        // TypeScript: `([a, b]: Row) =>`.
        "required_parameter" | "optional_parameter" => pattern.field("pattern")?,
        _ => *pattern,
    };
    fn named<'a>(node: &Node<'a>) -> Vec<Node<'a>> {
        let mut c = node.walk();
        node.named_children(&mut c).filter(|v| v.kind() != COMMENT).collect()
    }
    // An object's fields by key (a plain or quoted name).
    fn fields<'a>(object: &Node<'a>, source: &[u8]) -> Vec<(String, Node<'a>)> {
        named(object)
            .into_iter()
            .filter(|p| p.kind() == "pair")
            .filter_map(|p| {
                let key = text(&p.field("key")?, source);
                let key = key.trim_matches(|c| matches!(c, '"' | '\'' | '`'));
                crate::lang::is_plain_name(key).then(|| (key.to_string(), p.field("value").unwrap_or(p)))
            })
            .collect()
    }
    let mut cases = Vec::new();
    for row in named(table) {
        let case: Vec<(String, String)> = match (pattern.kind(), row.kind()) {
            ("array_pattern", "array") => {
                let names = named(&pattern);
                if names.iter().any(|n| n.kind() != "identifier") {
                    return None;
                }
                names
                    .iter()
                    .zip(named(&row))
                    .map(|(name, value)| (text(name, source).into_owned(), token_key(&value, source)))
                    .collect()
            }
            ("object_pattern", "object") => {
                let mut case = Vec::new();
                let values = fields(&row, source);
                for part in named(&pattern) {
                    let (key, name) = match part.kind() {
                        "shorthand_property_identifier_pattern" => (text(&part, source), part),
                        "pair_pattern" => match (part.field("key"), part.field("value")) {
                            (Some(k), Some(v)) if v.kind() == "identifier" => (text(&k, source), v),
                            _ => continue,
                        },
                        _ => continue,
                    };
                    if let Some((_, value)) = values.iter().find(|(k, _)| *k == key) {
                        case.push((text(&name, source).into_owned(), token_key(value, source)));
                    }
                }
                case
            }
            ("identifier", "array") => {
                let one = text(&pattern, source);
                named(&row)
                    .iter()
                    .enumerate()
                    .map(|(i, value)| (format!("{one} [ {i} ]"), token_key(value, source)))
                    .collect()
            }
            ("identifier", "object") => {
                let one = text(&pattern, source);
                fields(&row, source)
                    .iter()
                    .map(|(key, value)| (format!("{one} . {key}"), token_key(value, source)))
                    .collect()
            }
            // A list of plain values, each an input the same checks run on.
            ("identifier", _) if plain_value(&row) => {
                vec![(text(&pattern, source).into_owned(), token_key(&row, source))]
            }
            // A list of values not all plain binds no known value.
            ("identifier", _) => return None,
            _ => continue,
        };
        cases.push(case);
        if cases.len() == crate::lang::MAX_CASES {
            break;
        }
    }
    crate::lang::loop_table_cases(cases, occurrences)
}

/// Is `node` one plain value: a string without substitutions, a number
/// (negated or not), a regular expression, `true`, `false`, `null` or
/// `undefined`?
fn plain_value(node: &Node) -> bool {
    match node.kind() {
        "string" | "number" | "regex" | "true" | "false" | "null" | "undefined" => true,
        "template_string" => {
            let mut c = node.walk();
            !node.named_children(&mut c).any(|p| p.kind() == "template_substitution")
        }
        "unary_expression" => node.field("argument").is_some_and(|a| a.kind() == "number"),
        _ => false,
    }
}
