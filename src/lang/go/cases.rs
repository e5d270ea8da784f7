//! Go tests and their cases: `TestX(t *testing.T)` functions, testify suite
//! methods, examples, table-driven cases from literal tables, and skips.

use super::*;

/// Read a function or method declaration, or recall it from `memo` when the
/// version before held the same text under the same imports.
pub(super) fn function(item: &Node, read: &Read, memo: Option<&mut Memo>) -> Item {
    let Some(memo) = memo else {
        return read_function(item, read);
    };
    let mut context: Vec<&str> = vec![if read.suite { "suite" } else { "" }];
    context.extend(read.assert_packages.iter().map(String::as_str));
    // The package-level tables a loop may run over, after a separator.
    context.push("\u{1f}");
    context.extend(read.tables.iter().map(String::as_str));
    context.push("\u{1f}");
    context.extend(read.packages.iter().map(String::as_str));
    context.push("\u{1f}");
    context.extend(read.structs.iter().map(String::as_str));
    // The package-level tables the function names, as written: their rows
    // are its cases.
    let named = crate::lang::named_literals(&read.source[item.byte_range()], &read.literals, read.source);
    for (name, literal) in &named {
        context.extend(["\u{1f}", name, literal]);
    }
    let key = Memo::key(item, item, read.source, &context);
    let row = item.start_position().row;
    if let Some(recalled) = memo.recall(&key, row) {
        return recalled;
    }
    let fresh = read_function(item, read);
    memo.remember(key, row, &fresh);
    fresh
}

pub(super) fn read_function(item: &Node, read: &Read) -> Item {
    let source = read.source;
    let mut out = Item::default();
    let (Some(name_node), Some(body)) = (item.field("name"), item.field("body")) else {
        return out;
    };
    let name = text(&name_node, source).into_owned();
    let receiver = receiver(item, source);
    let kind = test_kind(item, &name, receiver.is_some(), read.suite, source);
    let mut scan = Scan::new(read, receiver.as_ref().map(|(n, _)| n.clone()));
    if let Some(params) = item.field("parameters") {
        scan.walk(&params);
    }
    let mut occurrences = Vec::new();
    bindings(&body, source, &mut occurrences);
    scan.tables = single_nonempty_collections(&occurrences);
    // Package-level tables (`var zeros = []any{..}`) the test does not rebind.
    scan.tables.extend(
        read.tables
            .iter()
            .filter(|t| !occurrences.iter().any(|(name, _)| name == *t))
            .cloned(),
    );
    scan.walk(&body);
    out.bodies
        .push((name.clone(), !scan.assertions.is_empty(), scan.calls.clone()));
    out.used.clone_from(&scan.used);
    let Some(kind) = kind else {
        return out;
    };
    if kind == Kind::Example {
        if !has_output_comment(&body, source) {
            return out;
        }
        scan.assertions.push(Assertion {
            span: Span::of(&name_node),
            form: Form::Other,
            matcher: "Output".to_string(),
            parts: Vec::new(),
            values: Vec::new(),
            guard: Guard::default(),
        });
    }
    // `var _ Cache = &LRU{}`: a check the compiler makes, that the value
    // has the type (an interface it implements).
    visit_named(body, |n| {
        if n.kind() == "var_spec"
            && n.field("name").is_some_and(|name| text(&name, source) == "_")
            && let (Some(ty), Some(_)) = (n.field("type"), n.field("value"))
        {
            scan.assertions.push(Assertion {
                span: Span::of(&n),
                form: Form::Other,
                matcher: "var _".to_string(),
                parts: vec![token_key(&ty, source)],
                values: Vec::new(),
                guard: Guard::default(),
            });
        }
        n.kind() != "func_literal"
    });
    out.callback_spies = scan.doubles;
    let unchecked = if scan.assertions.is_empty() {
        // Go refuses to compile an unused variable: what a test computes, it reads.
        Unchecked {
            results: Vec::new(),
            prints: scan.prints,
            inert: !scan.effects && !scan.prints,
        }
    } else {
        Unchecked::default()
    };
    let (cases, case_loops) = table_cases(&body, read, source);
    let callables = crate::lang::bindings::single_callables(&occurrences, &scan.calls);
    out.tests.push(TestCase {
        feature: None,
        name,
        scope: receiver.map(|(_, t)| t).unwrap_or_default(),
        span: Span::of(&name_node),
        skip: scan.skip.or_else(|| crate::lang::tree::returns_first(&body)),
        empty: is_empty_block(&body),
        assertions: scan.assertions,
        calls: scan.calls,
        bindings: plain_bindings(&occurrences),
        aliases: single_call_aliases(&occurrences),
        callables,
        locals: Vec::new(),
        uses: scan.used.into_iter().collect(),
        mock_returns: scan.mock_returns,
        benchmark: kind == Kind::Benchmark,
        mocks: Vec::new(),
        unchecked,
        unfinished: Vec::new(),
        syntax_error: first_syntax_error(&body),
        shape: crate::lang::shape(&body, source),
        extent: Span::of(&body),
        cases,
        case_loops,
    });
    out
}

/// The struct types declared in `block` (the file, or a function body):
/// `name:field,field`, fields in declaration order.
pub(super) fn struct_fields(block: &Node, source: &[u8]) -> Vec<String> {
    let mut out = Vec::new();
    visit_named(*block, |n| match n.kind() {
        "type_spec" => {
            if let (Some(name), Some(fields)) = (n.field("name"), n.field("type").and_then(|t| columns(&t, source))) {
                out.push(format!("{}:{}", text(&name, source), fields.join(",")));
            }
            false
        }
        "func_literal" | "function_declaration" | "method_declaration" => n.id() == block.id(),
        _ => true,
    });
    out
}

/// The field names of a struct type, in order (`struct{ in, want string }`
/// is `in`, `want`); `None` for another type or an embedded field.
pub(super) fn columns(ty: &Node, source: &[u8]) -> Option<Vec<String>> {
    if ty.kind() != "struct_type" {
        return None;
    }
    let list = first_child(ty)?;
    let mut names = Vec::new();
    let mut cursor = list.walk();
    for declaration in list
        .named_children(&mut cursor)
        .filter(|d| d.kind() == "field_declaration")
    {
        let mut c = declaration.walk();
        let before = names.len();
        names.extend(
            declaration
                .children_by_field_name("name", &mut c)
                .map(|f| text(&f, source).into_owned()),
        );
        if names.len() == before {
            return None;
        }
    }
    Some(names)
}

/// The rows of a table-driven test as cases ([`TestCase::cases`]): the one
/// composite literal of struct rows the body's `for .., c := range` loops
/// run over (written in the loop, bound once in the body, or bound once at
/// package level to a name the body does not bind), each row
/// binding `c.field` to its value (by key, or by position), and for a map
/// the loop's key name to the row's key. A field the row leaves out is not
/// bound; a list of plain values (`[]string{"a", "b c"}`) binds the loop's
/// name to each. Loops over several tables give each table's cases to the
/// checks inside its loops ([`crate::lang::one_table`]); a loop by index
/// reads the row its body binds first (`tc := cases[i]`), else none, and
/// one over a table of a type not declared in the file reads none.
pub(super) fn table_cases(body: &Node, read: &Read, source: &[u8]) -> (Vec<Case>, Vec<CaseLoop>) {
    let mut loops: Vec<(Node, Node, Node)> = Vec::new();
    visit_named(*body, |n| {
        if n.kind() == "range_clause"
            && let (Some(left), Some(right)) = (n.field("left"), n.field("right"))
        {
            loops.push((left, right, n.parent().unwrap_or(n)));
        }
        true
    });
    let mut tables = Vec::new();
    for (left, right, for_statement) in loops {
        let span = Span::of(&for_statement);
        let mut c = left.walk();
        let mut names: Vec<String> = left
            .named_children(&mut c)
            .map(|n| text(&n, source).into_owned())
            .collect();
        // By index, the row bound first thing in the loop (`for i := range
        // cases { tc := cases[i]`, the idiom before Go 1.22 gave each
        // iteration its own variable): the loop reads `tc` as `for _, tc`.
        if let [index] = names.as_slice()
            && let Some(row) = row_by_index(&for_statement, index, &right, source)
        {
            names = vec!["_".to_string(), row];
        }
        let Some(table) = table_literal(body, &right, &read.literals, source) else {
            continue;
        };
        // A loop over a list of plain values, or by index, reads no rows.
        let Some(cases) = rows(&table, &names, body, &read.structs, source) else {
            continue;
        };
        tables.push((text(&table, source).into_owned(), span, cases));
    }
    crate::lang::one_table(tables)
}

/// In the body of `for index := range table`, the name its first statements
/// bind to `table[index]` (`tc := cases[i]`), if they do.
fn row_by_index(for_statement: &Node, index: &str, table: &Node, source: &[u8]) -> Option<String> {
    let mut body = for_statement.field("body")?;
    // The grammar puts a block's statements in a `statement_list`.
    if let Some(list) = first_child(&body).filter(|l| l.kind() == "statement_list") {
        body = list;
    }
    let mut cursor = body.walk();
    let statements: Vec<Node> = body.named_children(&mut cursor).take(3).collect();
    statements.into_iter().find_map(|s| {
        if s.kind() != "short_var_declaration" {
            return None;
        }
        let left = first_child(&s.field("left")?)?;
        let value = first_child(&s.field("right")?)?;
        let (operand, at) = (value.field("operand")?, value.field("index")?);
        (value.kind() == "index_expression"
            && left.kind() == "identifier"
            && text(&operand, source) == text(table, source)
            && text(&at, source) == index)
            .then(|| text(&left, source).into_owned())
    })
}

/// The composite literal a `range` runs over: written there, the value of
/// the one binding of that name in the body, or (the body binding it
/// nowhere) of the package-level table of that name. A loop in a closure
/// (a subtest's) sees the closure's own binding first: subtests may each
/// bind a table of the same name.
pub(super) fn table_literal<'a>(
    body: &Node<'a>,
    right: &Node<'a>,
    package: &[(String, Node<'a>)],
    source: &[u8],
) -> Option<Node<'a>> {
    let mut scope = right.parent();
    while let Some(s) = scope.filter(|s| s.id() != body.id() && s.kind() != "func_literal") {
        scope = s.parent();
    }
    if let Some(closure) = scope.filter(|s| s.kind() == "func_literal")
        && let Some(inner) = closure.field("body")
        && let Some(table) = literal_bound(&inner, right, &[], source)
    {
        return Some(table);
    }
    literal_bound(body, right, package, source)
}

/// [`table_literal`] in `body`.
fn literal_bound<'a>(
    body: &Node<'a>,
    right: &Node<'a>,
    package: &[(String, Node<'a>)],
    source: &[u8],
) -> Option<Node<'a>> {
    match right.kind() {
        "composite_literal" => Some(*right),
        "identifier" => {
            let name = text(right, source);
            let mut values: Vec<Option<Node>> = Vec::new();
            visit_named(*body, |n| {
                let (left, value) = match n.kind() {
                    "short_var_declaration" | "assignment_statement" => (n.field("left"), n.field("right")),
                    "var_spec" => (n.field("name"), n.field("value")),
                    _ => return true,
                };
                let bound = left.is_some_and(|l| {
                    let mut c = l.walk();
                    l.kind() == "identifier" && text(&l, source) == name
                        || l.named_children(&mut c).any(|x| text(&x, source) == name)
                });
                if bound {
                    values.push(value.and_then(|v| {
                        if v.kind() == "expression_list" {
                            first_child(&v)
                        } else {
                            Some(v)
                        }
                    }));
                }
                true
            });
            match values.as_slice() {
                [Some(v)] if v.kind() == "composite_literal" => Some(*v),
                [] => package.iter().find(|(n, _)| *n == name).map(|(_, literal)| *literal),
                _ => None,
            }
        }
        _ => None,
    }
}

/// The package-level `var` bindings of the `tables` (names bound once, to
/// a non-empty literal) whose value is a composite literal.
pub(super) fn package_literals<'a>(root: &Node<'a>, tables: &[String], source: &[u8]) -> Vec<(String, Node<'a>)> {
    let mut out = Vec::new();
    let mut cursor = root.walk();
    for declaration in root
        .named_children(&mut cursor)
        .filter(|d| d.kind() == "var_declaration")
    {
        visit_named(declaration, |n| {
            if n.kind() != "var_spec" {
                return true;
            }
            let mut c = n.walk();
            let names: Vec<Node> = n.children_by_field_name("name", &mut c).collect();
            let value = n.field("value").and_then(|v| {
                let mut c = v.walk();
                let values: Vec<Node> = v.named_children(&mut c).collect();
                match values.as_slice() {
                    [only] if only.kind() == "composite_literal" => Some(*only),
                    _ => None,
                }
            });
            if let ([name], Some(value)) = (names.as_slice(), value) {
                let name = text(name, source).into_owned();
                if tables.contains(&name) {
                    out.push((name, value));
                }
            }
            false
        });
    }
    out
}

/// The cases of `table` as `names` (the loop's `key, row`) read it.
pub(super) fn rows(
    table: &Node,
    names: &[String],
    body: &Node,
    structs: &[String],
    source: &[u8],
) -> Option<Vec<Case>> {
    let ty = table.field("type")?;
    let map = ty.kind() == "map_type";
    let element = ty.field(if map { "value" } else { "element" })?;
    let element = if element.kind() == "pointer_type" {
        first_child(&element)?
    } else {
        element
    };
    if !map && element.kind() == "type_identifier" && SCALARS.contains(&&*text(&element, source)) {
        return plain_rows(table, names, source);
    }
    let fields = match element.kind() {
        "struct_type" => columns(&element, source)?,
        "type_identifier" => {
            let name = text(&element, source);
            let local = struct_fields(body, source);
            let declared = local
                .iter()
                .chain(structs)
                .find_map(|s| s.strip_prefix(&*name)?.strip_prefix(':'))?;
            declared.split(',').map(str::to_string).collect()
        }
        _ => return None,
    };
    // `for _, c := range` (or `for k, c := range` a map); `for i := range` is the index.
    let (key, row) = match names {
        [key, row] if row != "_" => (Some(key).filter(|k| map && *k != "_"), row),
        _ => return None,
    };
    let mut cases = Vec::new();
    let literal = table.field("body")?;
    let mut cursor = literal.walk();
    for element in literal.named_children(&mut cursor) {
        let (key_value, value) = match element.kind() {
            "keyed_element" if map => (
                element.field("key").and_then(|k| first_child(&k)),
                element.field("value"),
            ),
            "literal_element" if !map => (None, Some(element)),
            _ => continue,
        };
        let Some(mut value) = value.and_then(|v| first_child(&v)) else {
            continue;
        };
        if value.kind() == "unary_expression" {
            value = value.field("operand")?;
        }
        if value.kind() == "composite_literal" {
            value = value.field("body")?;
        }
        if value.kind() != "literal_value" {
            return None;
        }
        let mut case: Case = Vec::new();
        if let (Some(k), Some(v)) = (key, key_value) {
            case.push((k.clone(), token_key(&v, source)));
        }
        let mut c = value.walk();
        let cells: Vec<Node> = value.named_children(&mut c).filter(|n| !n.is_comment()).collect();
        let keyed = cells.iter().all(|n| n.kind() == "keyed_element");
        if !keyed && cells.len() != fields.len() {
            continue;
        }
        for (i, cell) in cells.iter().enumerate() {
            let (field, v) = if keyed {
                let Some(field) = cell.field("key").and_then(|k| first_child(&k)) else {
                    continue;
                };
                (text(&field, source).into_owned(), cell.field("value"))
            } else {
                (fields[i].clone(), Some(*cell))
            };
            if let Some(v) = v.and_then(|v| first_child(&v)) {
                case.push((format!("{row} . {field}"), token_key(&v, source)));
            }
        }
        cases.push(case);
        if cases.len() == crate::lang::MAX_CASES {
            break;
        }
    }
    Some(cases)
}

/// Go's predeclared types whose values a literal spells.
const SCALARS: &[&str] = &[
    "string", "bool", "int", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16", "uint32", "uint64",
    "uintptr", "float32", "float64", "byte", "rune",
];

/// The cases of a list of plain values (`[]string{"a", "b c"}`) a `for _,
/// name := range` loop binds to `name`, each an input the same checks run
/// on; `None` when one is not a literal.
fn plain_rows(table: &Node, names: &[String], source: &[u8]) -> Option<Vec<Case>> {
    let [_, name] = names else { return None };
    if name == "_" {
        return None;
    }
    let literal = table.field("body")?;
    let mut cursor = literal.walk();
    let mut cases = Vec::new();
    for element in literal.named_children(&mut cursor).filter(|n| !n.is_comment()) {
        let value = (element.kind() == "literal_element")
            .then(|| first_child(&element))
            .flatten()?;
        let plain = match value.kind() {
            "interpreted_string_literal"
            | "raw_string_literal"
            | "int_literal"
            | "float_literal"
            | "rune_literal"
            | "true"
            | "false" => true,
            "unary_expression" => value
                .field("operand")
                .is_some_and(|o| matches!(o.kind(), "int_literal" | "float_literal")),
            _ => false,
        };
        if !plain {
            return None;
        }
        cases.push(vec![(name.clone(), token_key(&value, source))]);
        if cases.len() == crate::lang::MAX_CASES {
            break;
        }
    }
    Some(cases)
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
    Test,
    Benchmark,
    Example,
}

/// `Test`, `Fuzz`, `Benchmark` and `Example` followed by nothing or a
/// character that is not a lower-case letter, as `go test` reads names.
pub(super) fn prefixed(name: &str, prefix: &str) -> bool {
    name.strip_prefix(prefix)
        .is_some_and(|rest| rest.chars().next().is_none_or(|c| !c.is_lowercase()))
}

pub(super) fn test_kind(item: &Node, name: &str, method: bool, suite: bool, source: &[u8]) -> Option<Kind> {
    if method {
        // testify suites run the `Test*` methods of the suite type.
        return (suite && prefixed(name, "Test")).then_some(Kind::Test);
    }
    let params = item
        .field("parameters")
        .map(|p| display(&p, source))
        .unwrap_or_default();
    if name == "TestMain" {
        return None;
    }
    if (prefixed(name, "Test") && params.contains("testing.T"))
        || (prefixed(name, "Fuzz") && params.contains("testing.F"))
    {
        return Some(Kind::Test);
    }
    if prefixed(name, "Benchmark") && params.contains("testing.B") {
        return Some(Kind::Benchmark);
    }
    (prefixed(name, "Example") && params == "()").then_some(Kind::Example)
}

/// The receiver name and type of a method (`s`, `CartSuite`).
pub(super) fn receiver(item: &Node, source: &[u8]) -> Option<(String, String)> {
    let list = item.field("receiver")?;
    let param = list
        .named_children(&mut list.walk())
        .find(|c| c.kind() == "parameter_declaration")?;
    let name = param
        .field("name")
        .map(|n| text(&n, source).into_owned())
        .unwrap_or_default();
    let ty = param.field("type").map(|t| display(&t, source)).unwrap_or_default();
    Some((name, ty.trim_start_matches('*').to_string()))
}

pub(super) fn has_output_comment(body: &Node, source: &[u8]) -> bool {
    let mut found = false;
    visit_named(*body, |n| {
        if n.kind() == COMMENT {
            let t = text(&n, source);
            let t = t.trim_start_matches("//").trim();
            found |= t.starts_with("Output:") || t.starts_with("Unordered output:");
        }
        !found
    });
    found
}

pub(super) fn is_empty_block(block: &Node) -> bool {
    let mut empty = true;
    visit_named(*block, |n| {
        if n.id() == block.id() || n.kind() == "statement_list" {
            return true;
        }
        empty &= n.kind() == COMMENT;
        false
    });
    empty
}

/// Every binding in a test body: `x := v` and `var x = v` with one name and
/// one value (bound to it), and every other name an assignment, a multiple
/// declaration or a range clause binds.
pub(super) fn bindings(body: &Node, source: &[u8], out: &mut Vec<(String, Bound)>) {
    visit_named(*body, |n| {
        let (left, right) = match n.kind() {
            "short_var_declaration" | "assignment_statement" | "range_clause" => (n.field("left"), n.field("right")),
            "var_spec" => (n.field("name").map(|_| n), n.field("value")),
            _ => return n.kind() != "func_literal" || n.id() == body.id(),
        };
        let names: Vec<Node> = match (n.kind(), left) {
            ("var_spec", _) => {
                let mut c = n.walk();
                n.children_by_field_name("name", &mut c).collect()
            }
            (_, Some(l)) => {
                let mut c = l.walk();
                l.named_children(&mut c).filter(|x| x.kind() == "identifier").collect()
            }
            _ => Vec::new(),
        };
        let values: Vec<Node> = right
            .map(|r| {
                if r.kind() == "expression_list" {
                    let mut c = r.walk();
                    r.named_children(&mut c).collect()
                } else {
                    vec![r]
                }
            })
            .unwrap_or_default();
        let single = names.len() == 1 && values.len() == 1 && n.kind() != "range_clause";
        for name in names {
            let name_text = text(&name, source).into_owned();
            if name_text == "_" {
                continue;
            }
            // `x = v` binds like `x := v`; `x += v` changes what was there.
            let plain = n.kind() != "assignment_statement"
                || n.child_by_field_name("operator").is_some_and(|o| o.kind() == "=");
            let value = if single && plain {
                let value = bound(literal(&values[0], source), chain(&values[0], source), &n, body);
                if n.kind() == "assignment_statement" {
                    value.assigned()
                } else {
                    value
                }
            } else {
                Bound::Other
            };
            out.push((name_text, value));
        }
        true
    });
    writes(body, source, out);
}

/// Writes to the test's variables that are not bindings of its own body: an
/// assignment in a closure the code under test may call (`called = true` in
/// a handler), `x++`, and an address handed out (`validate(&x)` may write
/// through it). Each makes the name bound more than once.
pub(super) fn writes(body: &Node, source: &[u8], out: &mut Vec<(String, Bound)>) {
    let mut stack = vec![(*body, false)];
    let mut cursor = body.walk();
    while let Some((n, in_closure)) = stack.pop() {
        let written: Vec<Node> = match n.kind() {
            "assignment_statement" if in_closure => n
                .field("left")
                .map(|l| {
                    let mut c = l.walk();
                    l.named_children(&mut c).collect()
                })
                .unwrap_or_default(),
            "inc_statement" | "dec_statement" => crate::lang::first_child(&n).into_iter().collect(),
            "unary_expression" if n.field("operator").is_some_and(|o| text(&o, source) == "&") => {
                n.field("operand").into_iter().collect()
            }
            _ => Vec::new(),
        };
        for name in written.into_iter().filter(|w| w.kind() == "identifier") {
            out.push((text(&name, source).into_owned(), Bound::Other));
        }
        let closure = in_closure || n.kind() == "func_literal";
        stack.extend(n.named_children(&mut cursor).map(|c| (c, closure)));
    }
}
