//! Go test files (`*_test.go`): `func TestX(t *testing.T)` (and `FuzzX`,
//! `BenchmarkX`, examples with an `// Output:` comment, testify suite
//! methods), `t.Error*`/`t.Fatal*` failures, testify `assert`/`require`
//! (package functions, `assert.New(t)` objects and suite methods), `t.Skip*`,
//! subtests (`t.Run`) and table-driven loops, gomock and testify mocks.
//!
//! A file in the package it tests (`package cart`, not `package cart_test`)
//! reaches its subject without an import: it gets an import of `.`, its own
//! directory.

use std::collections::BTreeSet;

use super::Case;
use super::syntax::{Node, Tree};

use super::versions::{Body, Item, Memo};
use super::{
    Assertion, Bound, FieldExt, Form, Guard, Import, ImportKind, Literal, MockReturn, Operand, Skip, Span, TestCase,
    TestFile, Unchecked, bound, callee_key, chain, close_helpers, display, first_child, first_syntax_error,
    keep_imported_uses, normalized, number, plain_bindings, single_call_aliases, single_nonempty_collections, text,
    token_key, values, visit_named,
};

const COMMENT: &str = "comment";

/// The `testing` types whose values fail, skip and run subtests.
const TESTING_TYPES: &[&str] = &["T", "B", "F", "TB"];

/// testify's assertion methods (on `assert`, `require`, an `assert.New(t)`
/// object or a suite), and gotest.tools' `assert` package.
const TESTIFY: &[&str] = &[
    "Equal",
    "Equalf",
    "EqualValues",
    "EqualValuesf",
    "Exactly",
    "NotEqual",
    "NotEqualf",
    "NotEqualValues",
    "True",
    "Truef",
    "False",
    "Falsef",
    "Nil",
    "Nilf",
    "NotNil",
    "NotNilf",
    "NoError",
    "NoErrorf",
    "Error",
    "Errorf",
    "ErrorIs",
    "ErrorAs",
    "ErrorContains",
    "EqualError",
    "NotErrorIs",
    "Len",
    "Lenf",
    "Empty",
    "NotEmpty",
    "Contains",
    "Containsf",
    "NotContains",
    "ElementsMatch",
    "Subset",
    "NotSubset",
    "Greater",
    "GreaterOrEqual",
    "Less",
    "LessOrEqual",
    "Positive",
    "Negative",
    "Zero",
    "NotZero",
    "Same",
    "NotSame",
    "IsType",
    "Implements",
    "InDelta",
    "InEpsilon",
    "JSONEq",
    "YAMLEq",
    "Regexp",
    "NotRegexp",
    "Panics",
    "PanicsWithValue",
    "PanicsWithError",
    "NotPanics",
    "Eventually",
    "EventuallyWithT",
    "Never",
    "Condition",
    "WithinDuration",
    "FileExists",
    "DirExists",
    "NoFileExists",
    "HTTPStatusCode",
    "HTTPBodyContains",
    "Fail",
    "FailNow",
    // gotest.tools/v3/assert
    "Assert",
    "Check",
    "NilError",
    "DeepEqual",
];

/// Import paths of assertion packages whose functions all assert.
const ASSERTION_PACKAGES: &[&str] = &[
    "github.com/stretchr/testify/assert",
    "github.com/stretchr/testify/require",
    "gotest.tools/v3/assert",
    "gotest.tools/assert",
];

/// What the whole file tells the reading of one function.
struct Read<'a> {
    source: &'a [u8],
    /// Local names of the assertion packages.
    assert_packages: Vec<String>,
    /// The file imports testify's `suite`: `Test*` methods are tests.
    suite: bool,
    /// Package-level names bound once to a non-empty literal slice or map.
    tables: Vec<String>,
    /// Of those, the ones bound to a composite literal, with it: the rows a
    /// table-driven test may run over (`var cases = []struct{..}{..}`).
    literals: Vec<(String, Node<'a>)>,
    /// Local names of every imported package.
    packages: Vec<String>,
    /// The fields of the struct types the file declares at package level,
    /// as `name:field,field`: the columns of a table of them.
    structs: Vec<String>,
}

pub fn test_file(tree: &Tree, source: &[u8], mut memo: Option<&mut Memo>) -> TestFile {
    let root = tree.root_node();
    let mut file = TestFile {
        imports: imports(tree, source),
        ..TestFile::default()
    };
    let assert_packages: Vec<String> = file
        .imports
        .iter()
        .filter(|i| ASSERTION_PACKAGES.contains(&i.specifier.as_str()))
        .flat_map(|i| i.names.clone())
        .collect();
    let mut top = Vec::new();
    let mut cursor = root.walk();
    for declaration in root
        .named_children(&mut cursor)
        .filter(|d| d.kind() == "var_declaration")
    {
        bindings(&declaration, source, &mut top);
    }
    let tables = single_nonempty_collections(&top);
    let read = Read {
        source,
        structs: struct_fields(&root, source),
        literals: package_literals(&root, &tables, source),
        tables,
        packages: file.imports.iter().flat_map(|i| i.names.clone()).collect(),
        assert_packages,
        suite: file
            .imports
            .iter()
            .any(|i| i.specifier == "github.com/stretchr/testify/suite"),
    };
    let mut bodies: Vec<Body> = Vec::new();
    let mut cursor = root.walk();
    for item in root.named_children(&mut cursor) {
        if !matches!(item.kind(), "function_declaration" | "method_declaration") {
            continue;
        }
        let item = function(&item, &read, memo.as_deref_mut());
        file.tests.extend(item.tests);
        file.callback_spies += item.callback_spies;
        file.used.extend(item.used);
        bodies.extend(item.bodies);
    }
    file.helpers = close_helpers(&bodies);
    for test in &mut file.tests {
        if test.empty && test.calls.iter().any(|c| file.helpers.contains(c)) {
            test.empty = false;
        }
    }
    // Go refuses to compile an unused import: every import is used.
    for import in &file.imports {
        file.used.extend(import.names.iter().cloned());
    }
    keep_imported_uses(&mut file);
    file
}

/// Read a function or method declaration, or recall it from `memo` when the
/// version before held the same text under the same imports.
fn function(item: &Node, read: &Read, memo: Option<&mut Memo>) -> Item {
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
    let named = super::named_literals(&read.source[item.byte_range()], &read.literals, read.source);
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

fn read_function(item: &Node, read: &Read) -> Item {
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
    out.tests.push(TestCase {
        name,
        scope: receiver.map(|(_, t)| t).unwrap_or_default(),
        span: Span::of(&name_node),
        skip: scan.skip,
        empty: is_empty_block(&body),
        assertions: scan.assertions,
        calls: scan.calls,
        bindings: plain_bindings(&occurrences),
        aliases: single_call_aliases(&occurrences),
        uses: scan.used.into_iter().collect(),
        mock_returns: scan.mock_returns,
        benchmark: kind == Kind::Benchmark,
        mocks: Vec::new(),
        unchecked,
        unfinished: Vec::new(),
        syntax_error: first_syntax_error(&body),
        shape: super::shape(&body, source),
        extent: Span::of(&body),
        cases: table_cases(&body, read, source),
    });
    out
}

/// The struct types declared in `block` (the file, or a function body):
/// `name:field,field`, fields in declaration order.
fn struct_fields(block: &Node, source: &[u8]) -> Vec<String> {
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
fn columns(ty: &Node, source: &[u8]) -> Option<Vec<String>> {
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
/// bound. Loops over two tables give no cases; a loop over plain values,
/// by index, or over a table of a type not declared in the file reads none.
fn table_cases(body: &Node, read: &Read, source: &[u8]) -> Vec<Case> {
    let mut loops: Vec<(Node, Node)> = Vec::new();
    visit_named(*body, |n| {
        if n.kind() == "range_clause"
            && let (Some(left), Some(right)) = (n.field("left"), n.field("right"))
        {
            loops.push((left, right));
        }
        true
    });
    let mut tables = Vec::new();
    for (left, right) in loops {
        let mut c = left.walk();
        let names: Vec<String> = left
            .named_children(&mut c)
            .map(|n| text(&n, source).into_owned())
            .collect();
        let Some(table) = table_literal(body, &right, &read.literals, source) else {
            continue;
        };
        // A loop over a list of plain values, or by index, reads no rows.
        let Some(cases) = rows(&table, &names, body, &read.structs, source) else {
            continue;
        };
        tables.push((text(&table, source).into_owned(), cases));
    }
    super::one_table(tables)
}

/// The composite literal a `range` runs over: written there, the value of
/// the one binding of that name in the body, or (the body binding it
/// nowhere) of the package-level table of that name.
fn table_literal<'a>(
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
fn package_literals<'a>(root: &Node<'a>, tables: &[String], source: &[u8]) -> Vec<(String, Node<'a>)> {
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
fn rows(table: &Node, names: &[String], body: &Node, structs: &[String], source: &[u8]) -> Option<Vec<Case>> {
    let ty = table.field("type")?;
    let map = ty.kind() == "map_type";
    let element = ty.field(if map { "value" } else { "element" })?;
    let element = if element.kind() == "pointer_type" {
        first_child(&element)?
    } else {
        element
    };
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
        if cases.len() == super::MAX_CASES {
            break;
        }
    }
    Some(cases)
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Test,
    Benchmark,
    Example,
}

/// `Test`, `Fuzz`, `Benchmark` and `Example` followed by nothing or a
/// character that is not a lower-case letter, as `go test` reads names.
fn prefixed(name: &str, prefix: &str) -> bool {
    name.strip_prefix(prefix)
        .is_some_and(|rest| rest.chars().next().is_none_or(|c| !c.is_lowercase()))
}

fn test_kind(item: &Node, name: &str, method: bool, suite: bool, source: &[u8]) -> Option<Kind> {
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
fn receiver(item: &Node, source: &[u8]) -> Option<(String, String)> {
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

fn has_output_comment(body: &Node, source: &[u8]) -> bool {
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

fn is_empty_block(block: &Node) -> bool {
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
fn bindings(body: &Node, source: &[u8], out: &mut Vec<(String, Bound)>) {
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
fn writes(body: &Node, source: &[u8], out: &mut Vec<(String, Bound)>) {
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
            "inc_statement" | "dec_statement" => super::first_child(&n).into_iter().collect(),
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

pub(crate) fn literal(node: &Node, source: &[u8]) -> Option<Literal> {
    let node = unwrap_go(*node);
    match node.kind() {
        "int_literal" | "float_literal" => number(&text(&node, source)).map(Literal::Number),
        "true" => Some(Literal::Bool(true)),
        "false" => Some(Literal::Bool(false)),
        "nil" => Some(Literal::Null),
        "interpreted_string_literal" => {
            let t = text(&node, source);
            Some(Literal::Str(t.trim_matches('"').to_string()))
        }
        "raw_string_literal" => Some(Literal::Str(text(&node, source).trim_matches('`').to_string())),
        "rune_literal" => Some(Literal::Str(text(&node, source).trim_matches('\'').to_string())),
        "unary_expression" if text(&node, source).starts_with('-') => match literal(&node.field("operand")?, source)? {
            Literal::Number(n) => Some(Literal::Number(-n)),
            _ => None,
        },
        // `[]case{{..}, {..}}`, `map[string]T{..}`: a table with this many entries.
        "composite_literal" => {
            let ty = node.field("type")?;
            if !matches!(
                ty.kind(),
                "slice_type" | "array_type" | "map_type" | "implicit_length_array_type"
            ) {
                return None;
            }
            let body = node.field("body")?;
            let mut cursor = body.walk();
            let n = body
                .named_children(&mut cursor)
                .filter(|c| matches!(c.kind(), "literal_element" | "keyed_element"))
                .count();
            Some(Literal::Collection(n))
        }
        _ => None,
    }
}

fn unwrap_go(mut node: Node) -> Node {
    while node.kind() == "parenthesized_expression" {
        match first_child(&node) {
            Some(inner) => node = inner,
            None => break,
        }
    }
    node
}

fn has_effects(node: &Node) -> bool {
    let mut found = false;
    visit_named(*node, |n| {
        found |= n.kind() == "call_expression" || (n.kind() == "unary_expression" && text_is_receive(&n));
        !found && n.kind() != "func_literal"
    });
    found
}

fn text_is_receive(n: &Node) -> bool {
    n.child(0).is_some_and(|c| c.kind() == "<-")
}

fn operand(node: &Node, source: &[u8]) -> Operand {
    let node = unwrap_go(*node);
    Operand {
        text: display(&node, source),
        key: normalized(&node, source, COMMENT),
        literal: literal(&node, source),
        effects: has_effects(&node),
        call_of: match node.kind() {
            "call_expression" => node.field("function").map(|f| callee_key(&text(&f, source))),
            _ => None,
        },
    }
}

/// The one expression of a list of one (`i := 0` binds lists).
fn sole(node: Node) -> Node {
    match node.kind() {
        "expression_list" if node.named_child_count() == 1 => node.named_child(0).unwrap_or(node),
        _ => node,
    }
}

/// What an `if` around a failure demands for the test to pass: its
/// condition, negated (`got != want` demands `got == want`, `!ok` demands
/// `ok`, `bad` demands `bad` falsy).
fn demanded(condition: &Node, source: &[u8]) -> Form {
    let c = unwrap_go(*condition);
    let side = |field: &'static str| c.field(field).map(|n| operand(&n, source));
    let operator = c.field("operator").map(|o| text(&o, source).into_owned());
    match (c.kind(), operator.as_deref()) {
        ("binary_expression", Some(op @ ("!=" | "=="))) => match (side("left"), side("right")) {
            (Some(a), Some(b)) if op == "!=" => Form::Equal(a, b),
            (Some(a), Some(b)) => Form::NotEqual(a, b),
            _ => Form::Other,
        },
        ("unary_expression", Some("!")) => match c.field("operand").and_then(|o| compared(&o, source)) {
            Some((a, b)) => Form::Equal(a, b),
            None => side("operand").map_or(Form::Other, Form::Truthy),
        },
        ("call_expression", _) if let Some((a, b)) = compared(&c, source) => Form::NotEqual(a, b),
        ("identifier" | "selector_expression" | "call_expression" | "true" | "false", _) => {
            Form::Falsy(operand(&c, source))
        }
        _ => Form::Other,
    }
}

/// The two values of a call that is an equality (`reflect.DeepEqual(got,
/// want)`, `bytes.Equal`, go-cmp's `cmp.Equal`).
fn compared(call: &Node, source: &[u8]) -> Option<(Operand, Operand)> {
    let call = unwrap_go(*call);
    if call.kind() != "call_expression" {
        return None;
    }
    let callee = callee_key(&text(&call.field("function")?, source));
    if !matches!(
        callee.as_str(),
        "reflect.DeepEqual" | "bytes.Equal" | "cmp.Equal" | "slices.Equal" | "maps.Equal"
    ) {
        return None;
    }
    let arguments = call.field("arguments")?;
    let mut cursor = arguments.walk();
    let args: Vec<Node> = arguments
        .named_children(&mut cursor)
        .filter(|a| !a.is_comment())
        .collect();
    match args.as_slice() {
        [a, b] => Some((operand(a, source), operand(b, source))),
        _ => None,
    }
}

/// Is the value of this call compared (`assert.Equal(t, 1, 1) != true`)?
/// Then the check is the code under test: the assertion library tests
/// what its assertion returns. `if !assert.NoError(t, err)` and `if
/// assert.True(..)` use the result as a guard and stay assertions.
fn result_compared(call: &Node) -> bool {
    let mut node = *call;
    while let Some(parent) = node.parent() {
        match parent.kind() {
            "parenthesized_expression" => node = parent,
            "binary_expression" => {
                let mut cursor = parent.walk();
                return parent.children(&mut cursor).any(|c| matches!(c.kind(), "==" | "!="));
            }
            _ => return false,
        }
    }
    false
}

/// The testify check `name` makes: itself, or for a formatted variant
/// (`Equalf`, `Panicsf`) the check without the `f`.
fn testify_check(name: &str) -> Option<&'static str> {
    let found = |n: &str| TESTIFY.iter().copied().find(|t| *t == n);
    match name {
        // `Errorf` is testify's formatted `Error`; `Fail` is not a formatted `Fai`.
        "Errorf" => Some("Error"),
        _ => name.strip_suffix('f').and_then(found).or_else(|| found(name)),
    }
}

/// How many operands testify's check `method` takes after the `t`; the
/// arguments after them are the failure message.
fn testify_arity(method: &str) -> usize {
    match method {
        "Fail" | "FailNow" => 0,
        "True" | "False" | "Nil" | "NotNil" | "NoError" | "Error" | "Empty" | "NotEmpty" | "Zero" | "NotZero"
        | "Positive" | "Negative" | "Panics" | "NotPanics" | "FileExists" | "DirExists" | "NoFileExists"
        | "Condition" => 1,
        "InDelta" | "InEpsilon" | "WithinDuration" | "Eventually" | "EventuallyWithT" | "Never" | "HTTPStatusCode"
        | "HTTPBodyContains" => 3,
        _ => 2,
    }
}

/// `==` on Go values is the language's own: comparing a value with itself
/// is a tautology.
fn testify_form(method: &str, args: &[Node], source: &[u8]) -> Form {
    let op = |i: usize| args.get(i).map(|a| operand(a, source));
    let base = method
        .strip_suffix('f')
        .filter(|_| method != "Fail" && method != "Nilf")
        .unwrap_or(method);
    let base = if method == "Nilf" { "Nil" } else { base };
    match base {
        "Equal" | "EqualValues" | "Exactly" | "DeepEqual" => match (op(0), op(1)) {
            (Some(a), Some(b)) => Form::Equal(a, b),
            _ => Form::Other,
        },
        "NotEqual" | "NotEqualValues" => match (op(0), op(1)) {
            (Some(a), Some(b)) => Form::NotEqual(a, b),
            _ => Form::Other,
        },
        "True" | "Assert" | "Check" if args.len() <= 2 => op(0).map_or(Form::Other, Form::Truthy),
        "False" => op(0).map_or(Form::Other, Form::Falsy),
        "Fail" | "FailNow" => Form::Fail,
        _ => Form::Other,
    }
}

/// What a walk of a function body finds.
struct Scan<'r> {
    read: &'r Read<'r>,
    /// The method's receiver (a testify suite asserts through it).
    receiver: Option<String>,
    guard: Guard,
    tables: Vec<String>,
    /// Names bound to `assert.New(t)` and `require.New(t)`.
    assert_objects: Vec<String>,
    /// Those of them made by the library's own `New(t)` in its own package:
    /// their checks are the code under test, their literals its input.
    own_objects: Vec<String>,
    /// Names of `testing` values: parameters typed `*testing.T` and friends
    /// seen so far (the function's own, then its closures').
    testing: Vec<String>,
    assertions: Vec<Assertion>,
    calls: Vec<String>,
    used: BTreeSet<String>,
    mock_returns: Vec<MockReturn>,
    skip: Option<Skip>,
    doubles: usize,
    prints: bool,
    effects: bool,
    /// Read the guards of assertions (off when only asking whether a subtree asserts).
    guards: bool,
    /// The guard of each `if` statement walked so far, by node id: a failure
    /// directly under an `if` is checked by it, and guarded only by what
    /// surrounds the `if`.
    if_guards: Vec<(usize, Guard)>,
}

const GUARDING: &[&str] = &[
    "if_statement",
    "for_statement",
    "expression_switch_statement",
    "type_switch_statement",
    "select_statement",
    "binary_expression",
];

impl<'r> Scan<'r> {
    fn new(read: &'r Read<'r>, receiver: Option<String>) -> Scan<'r> {
        Scan {
            read,
            receiver,
            guard: Guard::default(),
            tables: Vec::new(),
            assert_objects: Vec::new(),
            own_objects: Vec::new(),
            testing: Vec::new(),
            assertions: Vec::new(),
            calls: Vec::new(),
            used: BTreeSet::new(),
            mock_returns: Vec::new(),
            skip: None,
            doubles: 0,
            prints: false,
            effects: false,
            guards: true,
            if_guards: Vec::new(),
        }
    }

    fn walk(&mut self, node: &Node) {
        let source = self.read.source;
        let mut stack = vec![(*node, self.guard)];
        let mut cursor = node.walk();
        while let Some((n, guard)) = stack.pop() {
            self.guard = guard;
            match n.kind() {
                COMMENT | "interpreted_string_literal" | "raw_string_literal" => continue,
                "call_expression" => {
                    self.effects = true;
                    self.call(&n);
                }
                "index_expression" | "receive_statement" | "send_statement" => self.effects = true,
                "identifier" => super::note_name(&n, source, &mut self.used),
                "short_var_declaration" => self.note_assert_object(&n),
                "parameter_declaration" => self.note_testing(&n),
                _ => {}
            }
            if self.guards && GUARDING.contains(&n.kind()) {
                if n.kind() == "if_statement" {
                    self.if_guards.push((n.id(), guard));
                }
                let children: Vec<Node> = n.named_children(&mut cursor).collect();
                let guards = self.child_guards(&n, &children, guard);
                stack.extend(children.into_iter().zip(guards).rev());
            } else {
                let start = stack.len();
                stack.extend(n.named_children(&mut cursor).map(|c| (c, guard)));
                stack[start..].reverse();
            }
        }
    }

    /// A parameter typed `*testing.T`, `*testing.B`, `*testing.F` or `testing.TB`.
    fn note_testing(&mut self, n: &Node) {
        let source = self.read.source;
        let Some(ty) = n.field("type") else { return };
        let ty = display(&ty, source);
        if !ty
            .trim_start_matches('*')
            .strip_prefix("testing.")
            .is_some_and(|t| TESTING_TYPES.contains(&t))
        {
            return;
        }
        let mut cursor = n.walk();
        for name in n.children_by_field_name("name", &mut cursor) {
            let name = text(&name, source).into_owned();
            if !self.testing.contains(&name) {
                self.testing.push(name);
            }
        }
    }

    /// `a := assert.New(t)`: `a.Equal(..)` asserts.
    fn note_assert_object(&mut self, n: &Node) {
        let source = self.read.source;
        let (Some(left), Some(right)) = (n.field("left"), n.field("right")) else {
            return;
        };
        let value = text(&right, source);
        // Inside the assertion library's own package, `New(t)` handed the
        // test's own `t` (another `T` makes the code under test).
        let call = sole(right);
        let own = call.kind() == "call_expression"
            && call.field("function").is_some_and(|f| text(&f, source) == "New")
            && call
                .field("arguments")
                .and_then(|a| a.named_child(0))
                .is_some_and(|a| self.is_testing(&a));
        let made = own
            || self
                .read
                .assert_packages
                .iter()
                .any(|p| value.starts_with(&format!("{p}.New(")));
        if made {
            self.assert_objects.push(text(&left, source).into_owned());
        }
        if own {
            self.own_objects.push(text(&left, source).into_owned());
        }
    }

    fn child_guards(&self, node: &Node, children: &[Node], guard: Guard) -> Vec<Guard> {
        let source = self.read.source;
        let field = |name: &'static str| node.field(name).map(|c| c.id());
        match node.kind() {
            "if_statement" => {
                let exhaustive = node.field("alternative").is_some_and(|a| self.asserts(&a))
                    && node.field("consequence").is_some_and(|c| self.asserts(&c));
                super::guards_where(children, guard, |c| {
                    exhaustive || Some(c.id()) == field("condition") || Some(c.id()) == field("initializer")
                })
            }
            "for_statement" => {
                let body = field("body");
                // `for { .. }` runs its body; `for ok { .. }` may not.
                let bare = children.iter().all(|c| Some(c.id()) == body || c.kind() == COMMENT);
                let nonempty = bare
                    || children.iter().any(|c| match c.kind() {
                        "range_clause" => c.field("right").is_some_and(|r| self.nonempty(&r)),
                        "for_clause" => self.counts_up(c),
                        // `for b.Loop() { .. }` runs at least once.
                        "call_expression" => c
                            .field("function")
                            .filter(|f| f.kind() == "selector_expression")
                            .is_some_and(|f| {
                                f.field("field").is_some_and(|m| text(&m, source) == "Loop")
                                    && f.field("operand").is_some_and(|o| self.is_testing(&o))
                            }),
                        _ => false,
                    });
                super::guards_where(children, guard, |c| nonempty || Some(c.id()) != field("body"))
            }
            "expression_switch_statement" | "type_switch_statement" | "select_statement" => {
                let cases: Vec<&Node> = children
                    .iter()
                    .filter(|c| c.kind().ends_with("_case") || c.kind() == "communication_case")
                    .collect();
                let has_default = cases.iter().any(|c| c.kind() == "default_case");
                let exhaustive = has_default && cases.iter().all(|c| self.asserts(c));
                super::guards_where(children, guard, |c| exhaustive || !c.kind().ends_with("_case"))
            }
            "binary_expression" => super::short_circuit_guards(node, children, guard, source),
            _ => vec![guard; children.len()],
        }
    }

    /// A name of the test's `*testing.T`/`B`/`F` value.
    fn is_testing(&self, node: &Node) -> bool {
        node.kind() == "identifier" && self.testing.iter().any(|t| t.as_str() == text(node, self.read.source))
    }

    /// A counted loop that runs its body at least once: between literals
    /// (`for i := 0; i < 3; i++`, also `<=` and `!=`), or up to a
    /// benchmark's `N`, which is at least one (`for i := 0; i < b.N; i++`).
    fn counts_up(&self, clause: &Node) -> bool {
        let source = self.read.source;
        let number = |n: Node| match literal(&n, source) {
            Some(Literal::Number(v)) => Some(v),
            _ => None,
        };
        let Some((name, start)) = clause.field("initializer").and_then(|init| {
            let start = number(sole(init.field("right")?))?;
            Some((text(&sole(init.field("left")?), source).into_owned(), start))
        }) else {
            return false;
        };
        let Some(condition) = clause.field("condition").map(unwrap_go) else {
            return false;
        };
        let (Some(left), Some(right), Some(op)) = (
            condition.field("left"),
            condition.field("right"),
            condition.field("operator").map(|o| text(&o, source).into_owned()),
        ) else {
            return false;
        };
        let to_n = right.kind() == "selector_expression"
            && right.field("field").is_some_and(|f| text(&f, source) == "N")
            && right.field("operand").is_some_and(|o| self.is_testing(&o));
        text(&left, source) == name
            && match (op.as_str(), number(right)) {
                ("<" | "!=", Some(end)) => start < end,
                ("<=", Some(end)) => start <= end,
                ("<", None) => to_n && start == 0.0,
                _ => false,
            }
    }

    fn nonempty(&self, node: &Node) -> bool {
        let source = self.read.source;
        let node = unwrap_go(*node);
        if literal(&node, source).is_some_and(|l| l.truthy()) {
            return true;
        }
        match node.kind() {
            "identifier" => self.tables.contains(&text(&node, source).into_owned()),
            "int_literal" => number(&text(&node, source)).is_some_and(|n| n > 0.0),
            _ => false,
        }
    }

    fn asserts(&self, node: &Node) -> bool {
        let mut scan = Scan::new(self.read, self.receiver.clone());
        scan.assert_objects = self.assert_objects.clone();
        scan.own_objects = self.own_objects.clone();
        scan.testing = self.testing.clone();
        // Only whether it asserts: guards inside are not needed, and reading
        // them would read nested branches again at every level.
        scan.guards = false;
        scan.walk(node);
        !scan.assertions.is_empty()
    }

    fn call(&mut self, call: &Node) {
        let source = self.read.source;
        let Some(function) = call.field("function") else {
            return;
        };
        let args: Vec<Node> = call
            .field("arguments")
            .map(|a| {
                let mut c = a.walk();
                a.named_children(&mut c).filter(|x| x.kind() != COMMENT).collect()
            })
            .unwrap_or_default();
        let (receiver, name) = match function.kind() {
            "identifier" => (None, text(&function, source).into_owned()),
            "selector_expression" => (
                function.field("operand"),
                function
                    .field("field")
                    .map(|f| text(&f, source).into_owned())
                    .unwrap_or_default(),
            ),
            _ => return,
        };
        let receiver_text = receiver.map(|r| callee_key(&text(&r, source))).unwrap_or_default();
        let on_testing = receiver.is_some_and(|r| r.kind() == "identifier") && self.testing.contains(&receiver_text);
        let push = |scan: &mut Scan, form: Form, parts: Vec<String>, checked: &[Node]| {
            let mut vals: Vec<String> = checked.iter().flat_map(|a| values(a, source, COMMENT)).collect();
            vals.sort();
            vals.dedup();
            scan.assertions.push(Assertion {
                span: Span::of(call),
                form,
                matcher: name.clone(),
                parts,
                values: vals,
                guard: scan.guard,
            });
        };
        if on_testing {
            match name.as_str() {
                "Error" | "Errorf" | "Fatal" | "Fatalf" | "Fail" | "FailNow" => {
                    let (form, relation) = self.failure(call);
                    push(self, form, Vec::new(), &[]);
                    self.relate(relation);
                }
                "Skip" | "Skipf" | "SkipNow" => {
                    let reason = args
                        .first()
                        .map(|a| literal_str(a, source).unwrap_or_else(|| display(a, source)))
                        .filter(|r| !r.trim().is_empty());
                    let conditional = self.guard.conditional || has_if_ancestor(call);
                    self.skip.get_or_insert(Skip {
                        span: Span::of(call),
                        reason,
                        conditional,
                    });
                }
                "Log" | "Logf" => self.prints = true,
                _ => {}
            }
        } else if let Some(method) = self
            .testify_method(receiver.as_ref(), &receiver_text, &name)
            .or_else(|| self.unqualified_testify(receiver.as_ref(), &name, &args))
            .filter(|_| !result_compared(call))
        {
            // Package functions take the `t` first.
            let package = self.read.assert_packages.contains(&receiver_text) || receiver.is_none();
            let rest = if package {
                args.get(1..).unwrap_or(&[])
            } else {
                &args[..]
            };
            // What the values must be, from the call as written. Unqualified,
            // inside the assertion library's own package, the values are the
            // input of the check under test (`Equal(t, 1, 1)` tests `Equal`).
            let form = if receiver.is_some() && !self.own_objects.contains(&receiver_text) {
                testify_form(method, &rest[..rest.len().min(testify_arity(method))], source)
            } else {
                Form::Other
            };
            // `Equal(t, false, ok)` is the check `False(t, ok)`, `Equal(t, nil, err)` is `Nil(t, err)`.
            let (method, rest) = match (method, rest) {
                ("Equal" | "EqualValues" | "Exactly", [a, b, ..]) => {
                    let named = |n: &Node| match text(n, source).as_ref() {
                        "true" => Some("True"),
                        "false" => Some("False"),
                        "nil" => Some("Nil"),
                        _ => None,
                    };
                    match (named(a), named(b)) {
                        (Some(m), None) => (m, std::slice::from_ref(b)),
                        (None, Some(m)) => (m, std::slice::from_ref(a)),
                        _ => (method, rest),
                    }
                }
                _ => (method, rest),
            };
            // What follows the operands is the failure message.
            let operands = &rest[..rest.len().min(testify_arity(method))];
            let parts: Vec<String> = operands.iter().map(|a| token_key(a, source)).collect();
            push(self, form, parts, operands);
            // The matcher is the check, whatever its message: `Panicsf` is `Panics`.
            if let Some(last) = self.assertions.last_mut() {
                last.matcher = method.to_string();
            }
        } else if receiver.is_some_and(|r| r.kind() == "identifier" && !self.read.packages.contains(&receiver_text))
            && args.first().is_some_and(|a| self.is_testing(a))
        {
            // `tt.assertion(t, tt.want, got)`: a check held by a value (a
            // table field of an assertion-function type) handed the test's `t`.
            let rest = &args[1..];
            let parts: Vec<String> = rest.iter().map(|a| token_key(a, source)).collect();
            push(self, Form::Other, parts, rest);
        } else if name == "panic" && receiver.is_none() {
            let (form, relation) = self.failure(call);
            push(self, form, Vec::new(), &[]);
            self.relate(relation);
        } else if receiver_text.ends_with(".EXPECT()") {
            // gomock: `m.EXPECT().Get(..)` is verified when the controller finishes.
            let double = receiver_text.trim_end_matches(".EXPECT()").to_string();
            push(self, Form::Other, vec![format!("{double}.{name}")], &[]);
        } else if matches!(name.as_str(), "Println" | "Printf" | "Print")
            && matches!(receiver_text.as_str(), "fmt" | "log")
        {
            self.prints = true;
        }
        if name == "Return"
            && let Some(ret) = self.mock_return(call, &function, &args)
        {
            self.mock_returns.push(ret);
        }
        if name.starts_with("NewMock") || (name == "NewController" && receiver_text == "gomock") {
            self.doubles += usize::from(name.starts_with("NewMock"));
        }
        self.calls.push(name);
    }

    /// The form of an explicit failure: [`Form::FailUnless`] when it sits
    /// directly in the body of an `if` (`if got != want { t.Errorf(..) }`),
    /// whose condition is then the check and whose own guard becomes the
    /// failure's (`if resp != nil { if resp.Code != 200 { t.Fatal(..) } }`
    /// is guarded by `resp != nil` only); [`Form::Fail`] anywhere else.
    ///
    /// With it, an order the condition demands (`if len(errs) > 0` demands
    /// `<=` on `len(errs)` and `0`), which no [`Form`] says.
    fn failure(&mut self, call: &Node) -> (Form, Option<(&'static str, Vec<String>)>) {
        let checked = call
            .parent()
            .filter(|p| p.kind() == "expression_statement")
            .and_then(|statement| super::checking_condition(&statement, &self.if_guards));
        let Some((condition, guard)) = checked else {
            return (Form::Fail, None);
        };
        self.guard = guard;
        let source = self.read.source;
        let c = unwrap_go(condition);
        let negated = match c.field("operator").map(|o| text(&o, source)).as_deref() {
            Some(">") => Some("<="),
            Some("<") => Some(">="),
            Some(">=") => Some("<"),
            Some("<=") => Some(">"),
            _ => None,
        };
        let relation = negated.filter(|_| c.kind() == "binary_expression").and_then(|op| {
            let (left, right) = (c.field("left")?, c.field("right")?);
            Some((op, vec![token_key(&left, source), token_key(&right, source)]))
        });
        (Form::FailUnless(Box::new(demanded(&condition, source))), relation)
    }

    /// Write the order a failure's condition demands ([`Scan::failure`])
    /// as the check the failure just pushed makes.
    fn relate(&mut self, relation: Option<(&'static str, Vec<String>)>) {
        if let (Some((matcher, parts)), Some(last)) = (relation, self.assertions.last_mut()) {
            last.matcher = matcher.to_string();
            last.parts = parts;
        }
    }

    /// The testify method `name` called on `receiver`, when it asserts, as
    /// the check it makes (`Equalf` and `Equal` are both `Equal`).
    fn testify_method(&self, receiver: Option<&Node>, receiver_text: &str, name: &str) -> Option<&'static str> {
        receiver?;
        let known = self.read.assert_packages.iter().any(|p| p == receiver_text)
            || self.assert_objects.iter().any(|o| o == receiver_text)
            // A suite: `s.Equal(..)`, `s.Require().Equal(..)`, `s.Assert().Equal(..)`.
            || self.receiver.as_deref().is_some_and(|r| {
                receiver_text == r || receiver_text == format!("{r}.Require()") || receiver_text == format!("{r}.Assert()")
            });
        known.then(|| testify_check(name)).flatten()
    }

    /// A testify check called without a package (`False(t, ok)`), as the
    /// assertion library's own package calls its checks, handed the test's
    /// own `*testing.T`: it fails the test through it. Handed another `T`
    /// (`Equal(mockT, a, b)`), the call is the code under test.
    fn unqualified_testify(&self, receiver: Option<&Node>, name: &str, args: &[Node]) -> Option<&'static str> {
        if receiver.is_some() {
            return None;
        }
        self.is_testing(args.first()?).then(|| testify_check(name)).flatten()
    }

    /// gomock `m.EXPECT().Get(..).Return(5)` and testify
    /// `m.On("Get", ..).Return(5)`: the double's `Get` returns the literal.
    fn mock_return(&self, call: &Node, function: &Node, args: &[Node]) -> Option<MockReturn> {
        let source = self.read.source;
        let [only] = args else { return None };
        let literal = literal(only, source)?;
        let mut inner = function.field("operand")?;
        // Skip `.Times(1)`, `.AnyTimes()`, `.Once()` between the method and `Return`.
        loop {
            if inner.kind() != "call_expression" {
                return None;
            }
            let f = inner.field("function")?;
            if f.kind() != "selector_expression" {
                return None;
            }
            let method = text(&f.field("field")?, source).into_owned();
            let operand = f.field("operand")?;
            let operand_text = callee_key(&text(&operand, source));
            if let Some(double) = operand_text.strip_suffix(".EXPECT()") {
                return Some(MockReturn {
                    callee: format!("{double}.{method}"),
                    literal,
                    span: Span::of(call),
                });
            }
            if method == "On" {
                let args = inner.field("arguments")?;
                let first = first_child(&args)?;
                let mocked = literal_str(&first, source)?;
                return Some(MockReturn {
                    callee: format!("{operand_text}.{mocked}"),
                    literal,
                    span: Span::of(call),
                });
            }
            inner = operand;
        }
    }
}

fn literal_str(node: &Node, source: &[u8]) -> Option<String> {
    match literal(node, source)? {
        Literal::Str(s) => Some(s),
        _ => None,
    }
}

fn has_if_ancestor(node: &Node) -> bool {
    super::has_ancestor(
        node,
        &["if_statement", "expression_switch_statement", "type_switch_statement"],
        &["function_declaration", "method_declaration"],
    )
}

/// The imports of a Go file; a file in the package it tests also imports `.`.
pub fn imports(tree: &Tree, source: &[u8]) -> Vec<Import> {
    let root = tree.root_node();
    let mut out = Vec::new();
    let mut cursor = root.walk();
    for item in root.named_children(&mut cursor) {
        match item.kind() {
            "package_clause" => {
                let package = first_child(&item)
                    .map(|p| text(&p, source).into_owned())
                    .unwrap_or_default();
                if !package.ends_with("_test") {
                    out.push(Import {
                        specifier: ".".to_string(),
                        names: vec!["*".to_string()],
                        origins: vec![package],
                        span: Span::of(&item),
                        kind: ImportKind::Static,
                    });
                }
            }
            "import_declaration" => visit_named(item, |n| {
                if n.kind() != "import_spec" {
                    return true;
                }
                let Some(path) = n.field("path") else { return false };
                let path = text(&path, source).trim_matches(['"', '`']).to_string();
                let alias = n.field("name").map(|a| text(&a, source).into_owned());
                let (names, kind) = match alias.as_deref() {
                    Some("_") => (Vec::new(), ImportKind::SideEffect),
                    Some(".") => (vec!["*".to_string()], ImportKind::Static),
                    Some(a) => (vec![a.to_string()], ImportKind::Static),
                    None => (vec![package_name(&path)], ImportKind::Static),
                };
                out.push(Import {
                    specifier: path.clone(),
                    origins: names.iter().map(|_| path.clone()).collect(),
                    names,
                    span: Span::of(&n),
                    kind,
                });
                false
            }),
            _ => {}
        }
    }
    out
}

/// The package name an import path most likely declares: its last element,
/// skipping a major version (`/v2`) and a `go-` prefix or `.v3` suffix.
fn package_name(path: &str) -> String {
    let mut parts = path.rsplit('/');
    let mut last = parts.next().unwrap_or(path);
    if last.len() >= 2 && last.starts_with('v') && last[1..].chars().all(|c| c.is_ascii_digit()) {
        last = parts.next().unwrap_or(last);
    }
    let last = last.split('.').next().unwrap_or(last);
    let last = last.strip_prefix("go-").unwrap_or(last);
    last.replace('-', "_")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang::Lang;

    fn model(source: &str) -> TestFile {
        Lang::Go.test_file(source.as_bytes()).unwrap()
    }

    #[test]
    fn tests_failures_and_testify() {
        let file = model(
            r#"package cart

import (
	"testing"

	"github.com/stretchr/testify/assert"
	req "github.com/stretchr/testify/require"
)

func TestTotal(t *testing.T) {
	if got := Total(2); got != 4 {
		t.Errorf("Total(2) = %d", got)
	}
}

func TestTestify(t *testing.T) {
	a := assert.New(t)
	assert.Equal(t, 4, Total(2))
	req.NoError(t, Save())
	a.True(Ready())
}

func TestSkipped(t *testing.T) {
	t.Skip("flaky on CI")
}

func TestMain(m *testing.M) {}

func BenchmarkTotal(b *testing.B) { for i := 0; i < b.N; i++ { Total(2) } }

func Example() {
	fmt.Println(Total(2))
	// Output: 4
}

func ExampleNoOutput() { Total(2) }

func helper(t *testing.T) { t.Helper(); t.Fatal("x") }
func TestViaHelper(t *testing.T) { helper(t) }
"#,
        );
        let names: Vec<&str> = file.tests.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(
            names,
            vec![
                "TestTotal",
                "TestTestify",
                "TestSkipped",
                "BenchmarkTotal",
                "Example",
                "TestViaHelper"
            ]
        );
        // The `if` around the failure is its check, not a guard.
        let total = &file.tests[0].assertions[0];
        assert!(
            matches!(total.form.demanded(), Form::Equal(a, b) if a.text == "got" && b.literal == Some(Literal::Number(4.0)))
        );
        assert!(!total.guard.conditional);
        let matchers: Vec<&str> = file.tests[1].assertions.iter().map(|a| a.matcher.as_str()).collect();
        assert_eq!(matchers, vec!["Equal", "NoError", "True"]);
        assert!(
            matches!(&file.tests[1].assertions[0].form, Form::Equal(a, b) if a.literal == Some(Literal::Number(4.0)) && b.text == "Total(2)")
        );
        assert_eq!(
            file.tests[2].skip.as_ref().unwrap().reason.as_deref(),
            Some("flaky on CI")
        );
        assert!(file.tests[3].benchmark);
        assert_eq!(file.tests[4].assertions[0].matcher, "Output");
        assert!(file.helpers.contains(&"helper".to_string()) && file.helpers.contains(&"TestViaHelper".to_string()));
        assert_eq!(file.imports[0].specifier, ".");
    }

    #[test]
    fn table_tests_and_subtests() {
        let file = model(
            r#"package cart_test

import (
	"testing"

	"example.com/shop/cart"
)

func TestTable(t *testing.T) {
	tests := []struct{ in, want int }{{1, 2}, {2, 4}}
	for _, tc := range tests {
		t.Run("case", func(t *testing.T) {
			assert.Equal(t, tc.want, cart.Total(tc.in))
		})
	}
}

func TestMaybe(t *testing.T) {
	for _, tc := range load() {
		require.Equal(t, tc.want, cart.Total(tc.in))
	}
}
"#,
        );
        assert!(file.imports.iter().all(|i| i.specifier != "."));
        assert_eq!(file.imports[1].names, vec!["cart"]);
        assert!(file.used.contains("cart"));
        // Neither `assert` nor `require` is imported: not testify's checks,
        // but values handed the test's `t`, which may fail it.
        assert!(file.tests[0].assertions.iter().all(|a| a.form == Form::Other));
        assert!(file.tests[0].calls.contains(&"Equal".to_string()));
    }

    #[test]
    fn mocks_and_suites() {
        let file = model(
            r#"package svc

import (
	"testing"

	"github.com/golang/mock/gomock"
	"github.com/stretchr/testify/suite"
)

type SvcSuite struct{ suite.Suite }

func (s *SvcSuite) TestGet() {
	ctrl := gomock.NewController(s.T())
	m := NewMockStore(ctrl)
	m.EXPECT().Get(gomock.Any()).Times(1).Return(5)
	s.Require().Equal(5, m.Get(1))
	s.Equal(1, 1)
}

func TestSuite(t *testing.T) { suite.Run(t, new(SvcSuite)) }
"#,
        );
        let get = &file.tests[0];
        assert_eq!((get.scope.as_str(), get.name.as_str()), ("SvcSuite", "TestGet"));
        let returns: Vec<(&str, &Literal)> = get
            .mock_returns
            .iter()
            .map(|r| (r.callee.as_str(), &r.literal))
            .collect();
        assert_eq!(returns, vec![("m.Get", &Literal::Number(5.0))]);
        assert_eq!(file.callback_spies, 1);
        let matchers: Vec<&str> = get.assertions.iter().map(|a| a.matcher.as_str()).collect();
        assert_eq!(matchers, vec!["Get", "Equal", "Equal"]);
        assert!(matches!(&get.assertions[2].form, Form::Equal(a, b) if a.key == b.key));
    }

    #[test]
    fn package_names_of_import_paths() {
        assert_eq!(package_name("github.com/go-chi/chi/v5"), "chi");
        assert_eq!(package_name("gopkg.in/yaml.v3"), "yaml");
        assert_eq!(package_name("github.com/mattn/go-sqlite3"), "sqlite3");
        assert_eq!(package_name("net/http"), "http");
    }
}
