//! Python tests and their cases: test classes and functions, fixtures,
//! parametrized and table-driven cases, and skips.

use super::*;

/// Read a class: its tests when it is a test class (`module` is how the
/// module around it is read), the helpers every class may hold.
pub(super) fn class(
    def: &Node,
    decorators: &[Node],
    module: &Read,
    file: &mut TestFile,
    bodies: &mut Vec<Body>,
    mut memo: Option<&mut Memo>,
) {
    let &Read {
        source,
        tables,
        literals,
        fixtures,
        ..
    } = module;
    let name = def
        .field("name")
        .map(|n| text(&n, source).into_owned())
        .unwrap_or_default();
    let bases = def
        .field("superclasses")
        .map(|b| text(&b, source).into_owned())
        .unwrap_or_default();
    let is_tests = name.starts_with("Test") || bases.contains("TestCase");
    let class_skip = decorators.iter().find_map(|d| skip_of(d, source));
    let Some(body) = def.field("body") else {
        return;
    };
    // Class attributes bound to non-empty literals are tables too (`self.cases`).
    let mut class_tables = tables.to_vec();
    for name in literal_tables(&body, source) {
        class_tables.extend([format!("self.{name}"), format!("cls.{name}")]);
    }
    let mut cursor = body.walk();
    let before = file.tests.len();
    let read = Read {
        source,
        tables: &class_tables,
        literals,
        may_be_test: is_tests,
        fixtures,
    };
    // Mocks told to return a literal in `setUp`: in effect in every test of the class.
    let mut setup_returns = Vec::new();
    for item in body.named_children(&mut cursor) {
        let (decs, inner) = unwrap_decorated(item);
        if inner.kind() == "function_definition" {
            function(&inner, &decs, &read, file, bodies, memo.as_deref_mut());
            let is_setup = inner
                .field("name")
                .is_some_and(|n| SETUP_METHODS.contains(&text(&n, source).as_ref()));
            if is_setup && let Some(block) = inner.field("body") {
                visit_named(block, |n| {
                    mock_return_at(n, source, &mut setup_returns);
                    true
                });
            }
        }
    }
    // A `setUp` shares with the tests what it puts on `self`, not its locals.
    seen_from_tests(&mut setup_returns, &["self", "cls"]);
    add_mock_returns(&mut file.tests[before..], &setup_returns);
    for test in &mut file.tests[before..] {
        test.scope.clone_from(&name);
    }
    if let Some(skip) = class_skip {
        for test in &mut file.tests[before..] {
            test.skip.get_or_insert(skip.clone());
        }
    }
    // A class built from a mixin of shared tests that overrides one with an
    // empty body turns that inherited test off: a skip, whose reason is the docstring.
    if is_mixin_class(def, source) {
        let mut cursor = body.walk();
        let docstrings: Vec<(Span, Option<String>)> = body
            .named_children(&mut cursor)
            .filter_map(|item| {
                let (_, inner) = unwrap_decorated(item);
                let name = inner.field("name")?;
                let block = inner.field("body")?;
                Some((Span::of(&name), docstring(&block, source)))
            })
            .collect();
        for test in file.tests[before..].iter_mut().filter(|t| t.empty && t.skip.is_none()) {
            let reason = docstrings
                .iter()
                .find(|(s, _)| *s == test.span)
                .and_then(|(_, d)| d.clone());
            test.skip = Some(Skip {
                span: test.span,
                reason,
                conditional: false,
            });
            test.empty = false;
        }
    }
}

/// What reading a function looks at besides its own text.
pub(super) struct Read<'a> {
    pub(super) source: &'a [u8],
    /// The names (`CASES`, `self.cases`) the enclosing module or class binds
    /// to non-empty literal collections: a loop over one always runs.
    pub(super) tables: &'a [String],
    /// Of the module's names, those bound once, at its top level, to a
    /// literal list or tuple, with it: the rows a table-driven test may
    /// loop over ([`loop_cases`]).
    pub(super) literals: &'a [(String, Node<'a>)],
    /// A module-level function, or a method of a test class.
    pub(super) may_be_test: bool,
    /// The module's pytest fixtures that return a mock told to return a
    /// literal, by fixture name ([`fixture_returns`]): a test taking one
    /// has those mock returns.
    pub(super) fixtures: &'a [(String, Vec<MockReturn>)],
}

/// Read a function (a test, a helper), or recall it from `memo` when the
/// version before held the same text in the same context.
pub(super) fn function(
    def: &Node,
    decorators: &[Node],
    read: &Read,
    file: &mut TestFile,
    bodies: &mut Vec<Body>,
    memo: Option<&mut Memo>,
) {
    let Some(memo) = memo else {
        read_function(def, decorators, read, file, bodies);
        return;
    };
    let first = decorators.first().unwrap_or(def);
    let mut context: Vec<&str> = vec![if read.may_be_test { "test" } else { "" }];
    context.extend(read.tables.iter().map(String::as_str));
    let fixtures: Vec<String> = read
        .fixtures
        .iter()
        .flat_map(|(name, returns)| {
            returns
                .iter()
                .map(move |r| format!("{name}:{}={:?}", r.callee, r.value))
        })
        .collect();
    context.extend(fixtures.iter().map(String::as_str));
    // The module-level tables the function names, as written: their rows
    // are its cases.
    let named = crate::lang::named_literals(
        &read.source[first.start_byte()..def.end_byte()],
        read.literals,
        read.source,
    );
    for (name, literal) in &named {
        context.extend(["\u{1f}", name, literal]);
    }
    let key = Memo::key(first, def, read.source, &context);
    let row = first.start_position().row;
    let item = match memo.recall(&key, row) {
        Some(item) => item,
        None => {
            let mut scratch = TestFile::default();
            let mut item = Item::default();
            read_function(def, decorators, read, &mut scratch, &mut item.bodies);
            item.tests = scratch.tests;
            item.fixtures = scratch.uses_fixtures;
            memo.remember(key, row, &item);
            item
        }
    };
    file.tests.extend(item.tests);
    file.uses_fixtures |= item.fixtures;
    bodies.extend(item.bodies);
}

pub(super) fn read_function(def: &Node, decorators: &[Node], read: &Read, file: &mut TestFile, bodies: &mut Vec<Body>) {
    let &Read {
        source,
        tables,
        literals,
        may_be_test,
        fixtures,
    } = read;
    let Some(name_node) = def.field("name") else {
        return;
    };
    let name = text(&name_node, source).into_owned();
    let Some(body) = def.field("body") else {
        return;
    };
    // Module-level `test*` functions are tests; so are `test*` methods of test
    // classes. A fixture named `test_env` is a fixture.
    // pytest and unittest warn when a test returns a value: a `test_processor`
    // that returns a dict is a helper named like a test.
    let is_test = may_be_test
        && name.starts_with("test")
        && fixture_decorator(decorators, source).is_none()
        && !returns_value(&body);
    let mut occurrences = Vec::new();
    let mut mock_returns = Vec::new();
    let mut uses = std::collections::BTreeSet::new();
    if is_test {
        if let Some(params) = def.field("parameters") {
            identifiers(&params, source, &mut occurrences);
            for (_, returns) in fixtures
                .iter()
                .filter(|(name, _)| occurrences.iter().any(|(p, _)| p == name))
            {
                mock_returns.extend(returns.iter().cloned());
            }
        }
        binding_occurrences(&body, source, &mut occurrences, &mut mock_returns, &mut uses);
        // A value named by a name the test binds twice may be another object where it is compared.
        mock_returns.retain(|r| match &r.value {
            Returned::Name(name) => crate::lang::not_rebound(&occurrences, name.split('.').next().unwrap_or(name)),
            _ => true,
        });
    }
    // Table-driven tests: a local bound once to a non-empty literal, or an
    // outer table the test does not rebind.
    let mut local_tables = single_nonempty_collections(&occurrences);
    local_tables.extend(
        tables
            .iter()
            .filter(|t| !occurrences.iter().any(|(name, _)| name == *t))
            .cloned(),
    );
    let mut scan = BodyScan {
        tables: local_tables,
        ..BodyScan::default()
    };
    scan.walk(&body, source);
    // What was raised, one way however it is named (`exc_info.value`, the
    // `exc` of `except E as exc`).
    let (infos, caught) = raises_aliases(&body, source);
    for (aliases, value) in [(infos, true), (caught, false)] {
        if aliases.is_empty() {
            continue;
        }
        let names: Vec<&str> = aliases.iter().map(String::as_str).collect();
        for a in &mut scan.assertions {
            for part in &mut a.parts {
                *part = raised(part, &names, value);
            }
        }
    }
    // A property test (hypothesis' `@given`) is fed inputs that may or may
    // not be valid: a handler checking the error of the invalid ones is one
    // of its two outcomes, not the only check.
    let property_test = decorators
        .iter()
        .filter_map(|d| decorator_callee(d, source))
        .any(|(key, _)| key.rsplit('.').next() == Some("given"));
    if property_test {
        for a in scan.assertions.iter_mut().filter(|a| a.guard.caught) {
            a.guard.caught = false;
            a.guard.conditional = false;
        }
    }
    // A decorator is called with the test: one that asserts (a local
    // `@check_mutation(..)`) makes the test assert.
    for (key, _) in decorators.iter().filter_map(|d| decorator_callee(d, source)) {
        let last = key.rsplit('.').next().unwrap_or(&key).to_string();
        scan.calls.push(last);
    }
    // A test that calls another test (`await self.test_view(url=..)`) asserts through it.
    bodies.push((name.clone(), !scan.assertions.is_empty(), scan.calls.clone()));
    if !is_test {
        return;
    }
    let skip = decorators
        .iter()
        .find_map(|d| skip_of(d, source))
        .or(scan.skip)
        .or_else(|| crate::lang::tree::returns_first(&body));
    let benchmark = decorators.iter().any(|d| text(d, source).contains("mark.benchmark"))
        || def.field("parameters").is_some_and(|p| {
            let mut cursor = p.walk();
            p.named_children(&mut cursor)
                .any(|param| text(&param, source) == "benchmark")
        });
    if takes_fixtures(def, decorators, source) {
        file.uses_fixtures = true;
    }
    let unchecked = if scan.assertions.is_empty() {
        unchecked(&body, source, &occurrences, &UNCHECKED, |callee| {
            matches!(callee, "print" | "pprint" | "pp" | "pprint.pprint" | "pprint.pp")
        })
    } else {
        Unchecked::default()
    };
    let (mut cases, mut case_loops) = (
        parametrize_cases(decorators, &occurrences, literals, source),
        Vec::new(),
    );
    if cases.is_empty() {
        (cases, case_loops) = loop_cases(&body, literals, &occurrences, source);
    }
    let callables = crate::lang::bindings::single_callables(&occurrences, &scan.calls);
    file.tests.push(TestCase {
        feature: None,
        name,
        scope: String::new(),
        span: Span::of(&name_node),
        skip,
        empty: is_empty_block(&body),
        assertions: scan.assertions,
        calls: scan.calls,
        bindings: plain_bindings(&occurrences),
        aliases: single_call_aliases(&occurrences),
        callables,
        locals: single_locals(&occurrences)
            .into_iter()
            .map(|l| Local {
                chain: calls_for_return_values(&l.chain),
                ..l
            })
            .collect(),
        uses: uses.into_iter().collect(),
        mock_returns,
        benchmark,
        mocks: Vec::new(),
        unchecked,
        unfinished: scan.unfinished,
        syntax_error: first_syntax_error(&body),
        shape: crate::lang::shape(&body, source),
        extent: Span::between(decorators.first().unwrap_or(def), &body),
        cases,
        case_loops,
    });
}

/// Names the module binds once, at its top level, to a literal list or
/// tuple, with that literal (`CASES = [(1, 2), (3, 4)]`).
pub(super) fn module_literals<'a>(root: &Node<'a>, source: &[u8]) -> Vec<(String, Node<'a>)> {
    let mut bound: Vec<(String, Option<Node<'a>>)> = Vec::new();
    for assignment in top_assignments(root) {
        let Some(left) = assignment.field("left") else {
            continue;
        };
        let value = assignment
            .field("right")
            .map(unwrap)
            .filter(|r| matches!(r.kind(), "list" | "tuple"));
        let mut names = Vec::new();
        identifiers(&left, source, &mut names);
        for (name, _) in names {
            let value = value.filter(|_| left.kind() == "identifier");
            bound.push((name, value));
        }
    }
    let mut cursor = root.walk();
    for def in root
        .named_children(&mut cursor)
        .filter(|d| d.kind() == "function_definition")
    {
        if let Some(name) = def.field("name") {
            bound.push((format!("{}()", text(&name, source)), returned_table(&def)));
        }
    }
    crate::lang::literals_bound_once(bound)
}

/// The literal list or tuple a module function taking nothing returns as
/// the last statement of its body (`def cases(): return ((0, 1), (1, 2))`,
/// perhaps after a docstring and helper definitions): a table a test loops
/// over by calling it (toolz e8989cfa7).
fn returned_table<'a>(def: &Node<'a>) -> Option<Node<'a>> {
    let parameters = def.field("parameters")?;
    if parameters.named_child_count() > 0 {
        return None;
    }
    let body = def.field("body")?;
    let mut cursor = body.walk();
    let statements: Vec<Node> = body
        .named_children(&mut cursor)
        .filter(|s| s.kind() != COMMENT)
        .collect();
    let (last, before) = statements.split_last()?;
    let plain = |s: &Node| {
        matches!(s.kind(), "function_definition" | "pass_statement")
            || (s.kind() == "expression_statement" && first_child(s).is_some_and(|c| c.kind() == "string"))
    };
    if last.kind() != "return_statement" || !before.iter().all(plain) {
        return None;
    }
    first_child(last)
        .map(unwrap)
        .filter(|v| matches!(v.kind(), "list" | "tuple"))
}

/// The rows of a table-driven test as cases ([`TestCase::cases`]): the one
/// literal list or tuple the body's `for` loops run over (written in the
/// loop, bound once in the body, or, the body binding that name nowhere,
/// bound once at module level). A loop over several names (`for url, want
/// in ..`) binds them to a row's values by position; a loop over one name
/// binds `row[0]`, `row[1]` .. of a tuple row, `row["key"]` of a dict row
/// and a plain value (`"foo bar"`, `-8`) itself: a list of inputs the same
/// checks run on. A row of another shape is not read; loops over several
/// tables give each table's cases to the checks inside its loops
/// ([`crate::lang::one_table`]). A loop name the body rebinds is not the
/// case's value where it is used.
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
    let occurrences = &crate::lang::once_per_loop(
        occurrences,
        body,
        ("for_statement", "left"),
        |left, out| identifiers(left, source, out),
        &["function_definition", "class_definition", "lambda"],
    );
    let mut tables = Vec::new();
    visit_named(*body, |n| match n.kind() {
        "for_statement" => {
            let (Some(left), Some(right)) = (n.field("left"), n.field("right")) else {
                return true;
            };
            let Some(table) = table_literal(body, unwrap(right), module, occurrences, source) else {
                return true;
            };
            if let Some(cases) = loop_rows(&left, &table, occurrences, source) {
                tables.push((text(&table, source).into_owned(), Span::of(&n), cases));
            }
            true
        }
        "function_definition" | "class_definition" | "lambda" => false,
        _ => true,
    });
    crate::lang::one_table(tables)
}

/// The literal list or tuple a loop runs over: written there, the value of
/// the one binding of that name in `body`, or (the body binding it
/// nowhere) the module's table of that name.
pub(super) fn table_literal<'a>(
    body: &Node<'a>,
    right: Node<'a>,
    module: &[(String, Node<'a>)],
    occurrences: &[(String, Bound)],
    source: &[u8],
) -> Option<Node<'a>> {
    match right.kind() {
        "list" | "tuple" => Some(right),
        // A call of a module function taking nothing that returns a table
        // ([`module_literals`]), unless the test binds that name itself.
        "call" if right.field("arguments").is_some_and(|a| a.named_child_count() == 0) => {
            let function = right.field("function").filter(|f| f.kind() == "identifier")?;
            let name = text(&function, source);
            if occurrences.iter().any(|(n, _)| *n == name) {
                return None;
            }
            let called = format!("{name}()");
            module.iter().find(|(n, _)| *n == called).map(|(_, table)| *table)
        }
        "identifier" => {
            let name = text(&right, source);
            crate::lang::table_named(&name, occurrences, module, || {
                let mut value = None;
                visit_named(*body, |n| {
                    if n.kind() == "assignment"
                        && n.field("left")
                            .is_some_and(|l| l.kind() == "identifier" && text(&l, source) == name)
                    {
                        value = n
                            .field("right")
                            .map(unwrap)
                            .filter(|r| matches!(r.kind(), "list" | "tuple"));
                    }
                    value.is_none()
                });
                value
            })
        }
        _ => None,
    }
}

/// The cases of `table` as the loop target `left` reads each row.
pub(super) fn loop_rows(
    left: &Node,
    table: &Node,
    occurrences: &[(String, Bound)],
    source: &[u8],
) -> Option<Vec<Vec<(String, String)>>> {
    let left = unwrap(*left);
    let names: Vec<String> = match left.kind() {
        "identifier" => vec![text(&left, source).into_owned()],
        "pattern_list" | "tuple_pattern" | "list_pattern" => {
            let mut c = left.walk();
            let parts: Vec<Node> = left.named_children(&mut c).filter(|p| p.kind() != COMMENT).collect();
            if parts.iter().any(|p| p.kind() != "identifier") {
                return None;
            }
            parts.iter().map(|p| text(p, source).into_owned()).collect()
        }
        _ => return None,
    };
    let mut cases = Vec::new();
    let mut cursor = table.walk();
    for row in table.named_children(&mut cursor).filter(|r| r.kind() != COMMENT) {
        let mut c = row.walk();
        let cells: Vec<Node> = row.named_children(&mut c).filter(|v| v.kind() != COMMENT).collect();
        let case: Vec<(String, String)> = match (names.as_slice(), row.kind()) {
            ([_, _, ..], "tuple" | "list") if cells.len() == names.len() => names
                .iter()
                .zip(&cells)
                .map(|(name, value)| (name.clone(), token_key(value, source)))
                .collect(),
            ([one], "tuple" | "list") => cells
                .iter()
                .enumerate()
                .map(|(i, value)| (format!("{one} [ {i} ]"), token_key(value, source)))
                .collect(),
            // A list of plain values, each an input the same checks run on.
            ([one], _) if plain_value(&row) => vec![(one.clone(), token_key(&row, source))],
            // A list of values not all plain binds no known value.
            ([_], kind) if !matches!(kind, "tuple" | "list" | "dictionary") => return None,
            ([one], "dictionary") => cells
                .iter()
                .filter(|p| p.kind() == "pair")
                .filter_map(|p| {
                    let key = p.field("key").filter(|k| k.kind() == "string")?;
                    Some((
                        format!("{one} [ {} ]", token_key(&key, source)),
                        token_key(&p.field("value")?, source),
                    ))
                })
                .collect(),
            _ => continue,
        };
        cases.push(case);
        if cases.len() == crate::lang::MAX_CASES {
            break;
        }
    }
    crate::lang::loop_table_cases(cases, occurrences)
}

/// The cases `@pytest.mark.parametrize` decorators give a test, of the
/// parameters bound nowhere else (`occurrences` holds the parameters and the
/// body's bindings): each row binds its names to its values; stacked
/// decorators multiply. The rows are a literal list or tuple, written there
/// or bound once at module level to the name given (`CASES`, among
/// `literals`); others (a comprehension, a call) are not read.
pub(super) fn parametrize_cases(
    decorators: &[Node],
    occurrences: &[(String, Bound)],
    literals: &[(String, Node)],
    source: &[u8],
) -> Vec<Vec<(String, String)>> {
    let mut cases: Vec<Vec<(String, String)>> = Vec::new();
    for decorator in decorators {
        let Some(call) = first_child(decorator).filter(|c| c.kind() == "call") else {
            continue;
        };
        let callee = call.field("function").map(|f| text(&f, source)).unwrap_or_default();
        if !callee.ends_with("parametrize") {
            continue;
        }
        let args = positional_args(&call);
        let (Some(names), Some(rows)) = (args.first(), args.get(1)) else {
            continue;
        };
        let names: Vec<String> = match names.kind() {
            "string" => string_value(names, source)
                .map(|s| s.split(',').map(|n| n.trim().to_string()).collect())
                .unwrap_or_default(),
            "list" | "tuple" => {
                let mut cursor = names.walk();
                names
                    .named_children(&mut cursor)
                    .filter_map(|n| string_value(&n, source))
                    .collect()
            }
            _ => Vec::new(),
        };
        let rows = match rows.kind() {
            "identifier" => {
                let name = text(rows, source);
                match literals.iter().find(|(n, _)| *n == name) {
                    Some((_, table)) => *table,
                    None => continue,
                }
            }
            _ => *rows,
        };
        if names.is_empty() || !matches!(rows.kind(), "list" | "tuple") {
            continue;
        }
        let mut cursor = rows.walk();
        let mut read: Vec<Vec<(String, String)>> = Vec::new();
        for row in rows.named_children(&mut cursor).filter(|r| r.kind() != COMMENT) {
            // `pytest.param(a, b, id=..)`: its positional arguments.
            let row_call = (row.kind() == "call"
                && row
                    .field("function")
                    .is_some_and(|f| text(&f, source).ends_with("param")))
            .then_some(row);
            let values: Vec<Node> = match (row_call, names.len()) {
                (Some(call), _) => positional_args(&call),
                (None, 1) => vec![row],
                (None, _) if matches!(row.kind(), "tuple" | "list") => {
                    let mut c = row.walk();
                    row.named_children(&mut c).filter(|v| v.kind() != COMMENT).collect()
                }
                _ => continue,
            };
            if values.len() != names.len() {
                continue;
            }
            read.push(
                names
                    .iter()
                    .zip(&values)
                    // A parameter the body rebinds is not the case's value where it is used.
                    .filter(|(name, _)| crate::lang::not_rebound(occurrences, name))
                    .map(|(name, value)| (name.clone(), token_key(value, source)))
                    .collect(),
            );
        }
        if read.is_empty() {
            continue;
        }
        cases = if cases.is_empty() {
            read
        } else {
            cases
                .iter()
                .flat_map(|case| {
                    read.iter().map(move |row| {
                        let mut both = case.clone();
                        both.extend(row.iter().cloned());
                        both
                    })
                })
                .take(crate::lang::MAX_CASES)
                .collect()
        };
        cases.truncate(crate::lang::MAX_CASES);
    }
    cases
}

/// Does the function `body` return a value (`return x`, not a bare `return`),
/// outside nested functions and classes?
pub(super) fn returns_value(body: &Node) -> bool {
    let mut found = false;
    visit_named(*body, |n| {
        match n.kind() {
            "return_statement" => found |= first_child(&n).is_some(),
            "function_definition" | "lambda" | "class_definition" => return false,
            _ => {}
        }
        !found
    });
    found
}

/// Every place a name is bound in `node`: assignments (with the literal when
/// the right side is one), augmented assignments, walrus, `for` targets,
/// `as` targets, `global`/`nonlocal`.
/// Mocks configured to return a literal (`returns`) are collected in the same walk.
/// Every name referenced goes into `uses`.
pub(super) fn binding_occurrences(
    node: &Node,
    source: &[u8],
    out: &mut Vec<(String, Bound)>,
    returns: &mut Vec<MockReturn>,
    uses: &mut std::collections::BTreeSet<String>,
) {
    visit_named(*node, |n| {
        mock_return_at(n, source, returns);
        if n.kind() == "identifier" {
            note_name(&n, source, uses);
        }
        match n.kind() {
            "assignment" => {
                if let Some(left) = n.field("left") {
                    if left.kind() == "identifier" {
                        let right = n.field("right").map(unwrap);
                        let value = bound(
                            right.and_then(|r| literal(&r, source)),
                            right.and_then(|r| chain(&r, source)),
                            &n,
                            node,
                        );
                        out.push((text(&left, source).into_owned(), value));
                    } else {
                        identifiers(&left, source, out);
                    }
                }
            }
            "augmented_assignment" => {
                if let Some(left) = n.field("left") {
                    identifiers(&left, source, out);
                }
            }
            "named_expression" => {
                if let Some(name) = n.field("name") {
                    identifiers(&name, source, out);
                }
            }
            "for_statement" | "for_in_clause" => {
                if let Some(left) = n.field("left") {
                    identifiers(&left, source, out);
                }
            }
            "as_pattern" => {
                // `with Client() as c` binds `c` to what the call returns (close enough for a chain).
                if let Some(alias) = n.field("alias") {
                    match (
                        first_child(&alias).filter(|a| a.kind() == "identifier"),
                        first_child(&n),
                    ) {
                        (Some(name), Some(value)) if n.parent().is_some_and(|p| p.kind() == "with_item") => {
                            let value = bound(None, chain(&value, source), &n, node);
                            out.push((text(&name, source).into_owned(), value));
                        }
                        _ => identifiers(&alias, source, out),
                    }
                }
            }
            "global_statement" | "nonlocal_statement" => identifiers(&n, source, out),
            _ => {}
        }
        true
    });
}

/// Every identifier in a target, each as a binding without a known value.
pub(super) fn identifiers(node: &Node, source: &[u8], out: &mut Vec<(String, Bound)>) {
    visit_named(*node, |n| {
        if n.kind() == "identifier" {
            out.push((text(&n, source).into_owned(), Bound::Other));
            return false;
        }
        // `obj.attr = ..` and `x[i] = ..` bind no local name.
        if matches!(n.kind(), "attribute" | "subscript") {
            return false;
        }
        true
    });
}

/// pytest's own fixtures and those of common plugins: they never carry the code under test.
pub(super) const BUILTIN_FIXTURES: &[&str] = &[
    "self",
    "cls",
    "request",
    "tmp_path",
    "tmp_path_factory",
    "tmpdir",
    "tmpdir_factory",
    "monkeypatch",
    "capsys",
    "capsysbinary",
    "capfd",
    "capfdbinary",
    "caplog",
    "recwarn",
    "pytestconfig",
    "record_property",
    "record_testsuite_property",
    "record_xml_attribute",
    "doctest_namespace",
    "cache",
    "testdir",
    "pytester",
    "benchmark",
    "mocker",
    "subtests",
    "snapshot",
    "faker",
    "event_loop",
    "httpserver",
];

/// Does this test take a fixture that is neither pytest's own nor a `parametrize` argument?
pub(super) fn takes_fixtures(def: &Node, decorators: &[Node], source: &[u8]) -> bool {
    let Some(params) = def.field("parameters") else {
        return false;
    };
    let parametrized: Vec<String> = decorators
        .iter()
        .filter_map(|d| {
            let t = text(d, source);
            if !t.contains("parametrize") {
                return None;
            }
            let call = first_child(d).filter(|c| c.kind() == "call")?;
            let first = positional_args(&call).into_iter().next()?;
            string_value(&first, source)
        })
        .flat_map(|names| names.split(',').map(|n| n.trim().to_string()).collect::<Vec<_>>())
        .collect();
    let mut cursor = params.walk();
    params.named_children(&mut cursor).any(|param| {
        let name_node = match param.kind() {
            "identifier" => Some(param),
            "typed_parameter" | "default_parameter" | "typed_default_parameter" => {
                param.field("name").or_else(|| first_child(&param))
            }
            _ => None,
        };
        name_node.is_some_and(|n| {
            let name = text(&n, source);
            n.kind() == "identifier"
                && !BUILTIN_FIXTURES.contains(&name.as_ref())
                && !parametrized.iter().any(|p| p == &name)
        })
    })
}

pub(super) fn skip_of(decorator: &Node, source: &[u8]) -> Option<Skip> {
    let expr = decorator.named_child(0)?;
    let (callee, call) = match expr.kind() {
        "call" => (expr.field("function")?, Some(expr)),
        _ => (expr, None),
    };
    let name = text(&callee, source);
    let last = name.rsplit('.').next().unwrap_or(&name);
    let conditional = match last {
        "skip" => false,
        "skipif" | "skipIf" | "skipUnless" => true,
        _ => return None,
    };
    if !(name.contains("mark.") || name.starts_with("unittest.") || !name.contains('.')) {
        return None;
    }
    let reason = call.and_then(|c| {
        let args = positional_args(&c);
        let positional = if conditional { args.get(1) } else { args.first() };
        positional
            .and_then(|a| string_value(a, source))
            .or_else(|| keyword(&c, "reason", source))
    });
    Some(Skip {
        span: Span::of(decorator),
        reason: reason.filter(|r| !r.trim().is_empty()),
        conditional,
    })
}

/// Is `node` one plain value: a string without interpolations, a number
/// (negated or not), `True`, `False` or `None`?
fn plain_value(node: &Node) -> bool {
    match node.kind() {
        "integer" | "float" | "true" | "false" | "none" => true,
        "string" | "concatenated_string" => {
            let mut interpolated = false;
            visit_named(*node, |n| {
                interpolated |= n.kind() == "interpolation";
                !interpolated
            });
            !interpolated
        }
        "unary_operator" => node
            .field("argument")
            .is_some_and(|a| matches!(a.kind(), "integer" | "float")),
        _ => false,
    }
}
