//! Rust test files: `#[test]` functions (and `#[tokio::test]`, `#[rstest]`,
//! `#[test_case]`, any attribute path ending in `test`) wherever they are
//! declared, in `tests/*.rs` or a `#[cfg(test)] mod` beside the code.
//!
//! Macro arguments are token trees to tree-sitter, so the arguments of an
//! assertion macro (`assert_eq!(total(&cart), 5)`) are parsed again as call
//! arguments, in a source of their own, to read them as expressions. Other
//! macros (`vec!`, `format!`, `println!`) are read token by token for the
//! names they use and the functions they call.

use std::cell::RefCell;
use std::collections::BTreeSet;

use super::syntax::{Node, Tree};
use tree_sitter::Parser;

use super::versions::{Body, Item, Memo};
use super::{
    Assertion, Bound, FieldExt, Form, Guard, Import, ImportKind, Lang, Literal, MockReturn, Operand, Skip, Span,
    TestCase, TestFile, Unchecked, UncheckedKinds, bound, callee_key, chain, close_helpers, display, first_child,
    first_syntax_error, keep_imported_uses, normalized, number, plain_bindings, single_call_aliases,
    single_nonempty_collections, text, token_key, unchecked, value_equal, values, visit_named,
};

const COMMENTS: &[&str] = &["line_comment", "block_comment"];

const UNCHECKED: UncheckedKinds = UncheckedKinds {
    binding: ("let_declaration", "pattern", "value"),
    computed: &["call_expression", "await_expression"],
    call: "call_expression",
    macro_call: "macro_invocation",
    identifiers: &["identifier"],
    effects: &[
        "call_expression",
        "macro_invocation",
        "index_expression",
        "try_expression",
        "await_expression",
    ],
    scopes: &["closure_expression", "function_item"],
};

/// Attribute paths (their last segment) that make a function a test.
const TEST_ATTRIBUTES: &[&str] = &[
    "test",
    "rstest",
    "test_case",
    "quickcheck",
    "wasm_bindgen_test",
    "proptest",
    "apply",
];

/// Macros that print or log: a test that only shows a value does not check it.
const PRINTS: &[&str] = &[
    "println", "print", "eprintln", "eprint", "dbg", "info", "debug", "trace",
];

/// Does `source` declare a test? A byte search for a test attribute, so the
/// source files of a crate that hold no tests are not read further.
pub fn may_hold_tests(source: &[u8]) -> bool {
    static ATTRIBUTE: std::sync::LazyLock<regex::bytes::Regex> = std::sync::LazyLock::new(|| {
        regex::bytes::Regex::new(
            r"#\s*\[\s*(?:[A-Za-z_][\w]*\s*::\s*)*(?:test|rstest|test_case|quickcheck|wasm_bindgen_test|bench)\b",
        )
        .expect("test attribute pattern")
    });
    ATTRIBUTE.is_match(source)
}

pub fn test_file(tree: &Tree, source: &[u8], memo: Option<&mut Memo>) -> TestFile {
    let (imports, used) = imports_and_used(tree, source);
    let mut file = TestFile {
        imports,
        used,
        ..TestFile::default()
    };
    let root = tree.root_node();
    let tables = constant_tables(&root, source);
    let literals = constant_literals(&root, source);
    let mut items = Items {
        source,
        tables: &tables,
        literals: &literals,
        file: &mut file,
        bodies: macro_helpers(&root, source),
        code: Vec::new(),
        memo,
    };
    items.read(&root, "");
    let Items { bodies, mut code, .. } = items;
    file.helpers = close_helpers(&bodies);
    for test in &mut file.tests {
        if test.empty && test.calls.iter().any(|c| file.helpers.contains(c)) {
            test.empty = false;
        }
    }
    if !file.tests.is_empty() {
        code.sort_by_key(|range| range.start);
        file.code_digest = digest(source, &code);
    }
    keep_imported_uses(&mut file);
    file
}

/// A digest of the file without its tests (`tests` sorted by start, a test
/// module holding the tests in it): two versions whose digests differ
/// changed code, not only tests.
fn digest(source: &[u8], tests: &[std::ops::Range<usize>]) -> String {
    use sha2::Digest;
    let mut hasher = sha2::Sha256::new();
    let mut at = 0;
    for range in tests {
        hasher.update(&source[at..range.start.max(at)]);
        at = at.max(range.end);
    }
    hasher.update(&source[at.min(source.len())..]);
    crate::finding::hex(&hasher.finalize())[..16].to_string()
}

/// `const` and `static` items bound to a non-empty array: tables a loop
/// always runs over.
fn constant_tables(root: &Node, source: &[u8]) -> Vec<String> {
    let mut out = Vec::new();
    visit_named(*root, |n| {
        if matches!(n.kind(), "const_item" | "static_item")
            && let (Some(name), Some(value)) = (n.field("name"), n.field("value"))
            && literal(&value, source).is_some_and(|l| matches!(l, Literal::Collection(n) if n > 0))
        {
            out.push(text(&name, source).into_owned());
        }
        !matches!(n.kind(), "function_item" | "token_tree")
    });
    out
}

/// The file's `const` and `static` items (outside functions) bound once,
/// by name, to an array (`const CASES: &[(&str, u32)] = &[("a", 1)];`),
/// with it.
fn constant_literals<'a>(root: &Node<'a>, source: &[u8]) -> Vec<(String, Node<'a>)> {
    let mut bound = Vec::new();
    visit_named(*root, |n| {
        if matches!(n.kind(), "const_item" | "static_item")
            && let Some(name) = n.field("name")
        {
            let value = n.field("value").and_then(|v| table_rows_of(v, source));
            bound.push((text(&name, source).into_owned(), value));
        }
        !matches!(n.kind(), "function_item" | "token_tree")
    });
    super::literals_bound_once(bound)
}

/// The array a loop over `value` runs over, when it is written there:
/// `[..]`, `&[..]`, `[..].iter()`, `.into_iter()`, `.iter().copied()`.
fn table_rows_of<'a>(value: Node<'a>, source: &[u8]) -> Option<Node<'a>> {
    let mut value = unwrap_rust(value);
    loop {
        match value.kind() {
            "array_expression" => return Some(value),
            "reference_expression" => value = unwrap_rust(value.field("value")?),
            "call_expression" => {
                let callee = value.field("function").filter(|f| f.kind() == "field_expression")?;
                let method = text(&callee.field("field")?, source);
                if !matches!(&*method, "iter" | "into_iter" | "copied" | "cloned") {
                    return None;
                }
                value = unwrap_rust(callee.field("value")?);
            }
            _ => return None,
        }
    }
}

/// The rows of a table-driven test as cases ([`TestCase::cases`]): the one
/// literal array the body's `for` loops run over (written there, bound once
/// in the body, or, the body binding that name nowhere, a `const` or
/// `static` of the file). A tuple pattern (`(input, want)`, `&(input,
/// want)`) binds a row's values by position; one name (`c`) binds `c.0`,
/// `c.1` .. of a tuple row and `c.want` of a struct row. A row of another
/// shape is not read; loops over two tables, or over plain values, give
/// none. A name the body rebinds is not the row's value.
fn loop_cases(
    body: &Node,
    module: &[(String, Node)],
    occurrences: &[(String, Bound)],
    source: &[u8],
) -> Vec<Vec<(String, String)>> {
    // Most tests loop over nothing: a look at their text spares the walk.
    if !source[body.byte_range()].windows(3).any(|w| w == b"for") {
        return Vec::new();
    }
    let mut tables = Vec::new();
    visit_named(*body, |n| {
        if n.kind() == "for_expression"
            && let (Some(pattern), Some(value)) = (n.field("pattern"), n.field("value"))
            && let Some(table) = loop_table(body, value, module, occurrences, source)
            && let Some(cases) = loop_rows(&pattern, &table, occurrences, source)
        {
            tables.push((text(&table, source).into_owned(), cases));
        }
        !matches!(n.kind(), "function_item" | "token_tree")
    });
    super::one_table(tables)
}

/// The array a loop over `value` runs over: written there, the value of
/// the one `let` of that name in `body`, or (the body binding it nowhere)
/// the file's table of that name.
fn loop_table<'a>(
    body: &Node<'a>,
    value: Node<'a>,
    module: &[(String, Node<'a>)],
    occurrences: &[(String, Bound)],
    source: &[u8],
) -> Option<Node<'a>> {
    if let Some(table) = table_rows_of(value, source) {
        return Some(table);
    }
    // `CASES`, `&cases`, `cases.iter()`: the name behind the reference or method.
    let mut name_node = unwrap_rust(value);
    while let Some(inner) = match name_node.kind() {
        "reference_expression" => name_node.field("value"),
        "call_expression" => name_node
            .field("function")
            .filter(|f| f.kind() == "field_expression")
            .filter(|f| {
                f.field("field")
                    .is_some_and(|m| matches!(&*text(&m, source), "iter" | "into_iter" | "copied" | "cloned"))
            })
            .and_then(|f| f.field("value")),
        _ => None,
    } {
        name_node = unwrap_rust(inner);
    }
    if name_node.kind() != "identifier" {
        return None;
    }
    let name = text(&name_node, source);
    super::table_named(&name, occurrences, module, || {
        let mut table = None;
        visit_named(*body, |n| {
            if n.kind() == "let_declaration"
                && n.field("pattern")
                    .is_some_and(|p| p.kind() == "identifier" && text(&p, source) == name)
            {
                table = n.field("value").and_then(|v| table_rows_of(v, source));
            }
            table.is_none() && n.kind() != "token_tree"
        });
        table
    })
}

/// The cases of `table` as the loop's `pattern` reads each row.
fn loop_rows(
    pattern: &Node,
    table: &Node,
    occurrences: &[(String, Bound)],
    source: &[u8],
) -> Option<Vec<Vec<(String, String)>>> {
    fn named<'a>(node: &Node<'a>) -> Vec<Node<'a>> {
        let mut c = node.walk();
        node.named_children(&mut c).filter(|v| !v.is_comment()).collect()
    }
    let mut pattern = *pattern;
    while matches!(pattern.kind(), "reference_pattern" | "ref_pattern") {
        pattern = first_child(&pattern)?;
    }
    let mut cases = Vec::new();
    for row in named(table) {
        let case: Vec<(String, String)> = match (pattern.kind(), row.kind()) {
            ("tuple_pattern", "tuple_expression") => {
                let names = named(&pattern);
                if names.iter().any(|n| n.kind() != "identifier") {
                    return None;
                }
                let values = named(&row);
                if values.len() != names.len() {
                    continue;
                }
                names
                    .iter()
                    .zip(values)
                    .map(|(name, value)| (text(name, source).into_owned(), token_key(&value, source)))
                    .collect()
            }
            ("identifier", "tuple_expression") => {
                let one = text(&pattern, source);
                named(&row)
                    .iter()
                    .enumerate()
                    .map(|(i, value)| (format!("{one} . {i}"), token_key(value, source)))
                    .collect()
            }
            ("identifier", "struct_expression") => {
                let one = text(&pattern, source);
                let Some(list) = row.field("body") else { continue };
                named(&list)
                    .iter()
                    .filter(|f| f.kind() == "field_initializer")
                    .filter_map(|f| {
                        let field = text(&f.field("field")?, source).into_owned();
                        Some((format!("{one} . {field}"), token_key(&f.field("value")?, source)))
                    })
                    .collect()
            }
            _ => continue,
        };
        cases.push(case);
        if cases.len() == super::MAX_CASES {
            break;
        }
    }
    super::loop_table_cases(cases, occurrences)
}

/// `macro_rules!` definitions, read as helpers: one whose rules invoke an
/// assertion macro (or `panic!`) asserts, and a test that invokes it does.
fn macro_helpers(root: &Node, source: &[u8]) -> Vec<Body> {
    let mut out = Vec::new();
    visit_named(*root, |n| {
        if n.kind() == "macro_definition"
            && let Some(name) = n.field("name")
        {
            let mut scan = Scan::new(source, Vec::new());
            let mut cursor = n.walk();
            for rule in n.named_children(&mut cursor).filter(|c| c.kind() == "macro_rule") {
                if let Some(right) = rule.field("right") {
                    scan.tokens(&right, source);
                }
            }
            let macros = std::mem::take(&mut scan.macros);
            let asserts =
                !scan.assertions.is_empty() || macros.iter().any(|m| matches!(m.as_str(), "panic" | "unreachable"));
            let mut calls = scan.calls;
            calls.extend(macros);
            out.push((text(&name, source).into_owned(), asserts, calls));
        }
        n.kind() != "token_tree"
    });
    out
}

fn is_assertion_macro(name: &str) -> bool {
    name.starts_with("assert") || name.starts_with("debug_assert") || name.starts_with("prop_assert")
}

/// The attributes directly above `item` (skipping comments).
fn attributes<'a>(item: &Node<'a>) -> Vec<Node<'a>> {
    let mut out = Vec::new();
    let mut prev = item.prev_sibling();
    while let Some(p) = prev {
        match p.kind() {
            "attribute_item" => out.push(p),
            k if COMMENTS.contains(&k) => {}
            _ => break,
        }
        prev = p.prev_sibling();
    }
    out.reverse();
    out
}

/// The path of an attribute (`tokio::test`) and its `attribute` node.
fn attribute_path<'a>(item: &Node<'a>, source: &[u8]) -> Option<(String, Node<'a>)> {
    let attribute = first_child(item)?;
    let path = first_child(&attribute)?;
    Some((callee_key(&text(&path, source)), attribute))
}

fn last_segment(path: &str) -> &str {
    path.rsplit("::").next().unwrap_or(path)
}

/// Is this attribute list a `#[cfg(test)]` (or `#[cfg(any(test, ..))]`)?
fn cfg_test(attributes: &[Node], source: &[u8]) -> bool {
    attributes.iter().any(|a| {
        attribute_path(a, source).is_some_and(|(path, attribute)| {
            path == "cfg"
                && attribute.field("arguments").is_some_and(|args| {
                    let mut found = false;
                    visit_named(args, |n| {
                        found |= n.kind() == "identifier" && text(&n, source) == "test";
                        !found
                    });
                    found
                })
        })
    })
}

/// Where the items being read stand, and where what they hold goes.
struct Items<'a, 'm> {
    source: &'a [u8],
    /// The `const` and `static` tables of the file.
    tables: &'a [String],
    /// Of the file's `const` and `static` items, those bound once to an
    /// array, with it: the rows a table-driven test may loop over.
    literals: &'a [(String, Node<'a>)],
    file: &'a mut TestFile,
    bodies: Vec<Body>,
    /// The byte ranges of tests and test modules.
    code: Vec<std::ops::Range<usize>>,
    memo: Option<&'m mut Memo>,
}

impl Items<'_, '_> {
    /// Read the items of a module body (or the file): tests, helpers, nested modules.
    fn read(&mut self, body: &Node, scope: &str) {
        let source = self.source;
        let mut cursor = body.walk();
        for item in body.named_children(&mut cursor) {
            match item.kind() {
                "function_item" => {
                    let attrs = attributes(&item);
                    let first = attrs.first().unwrap_or(&item);
                    let (tables, literals) = (self.tables, self.literals);
                    let read = self.function(first, &item, scope, |def| {
                        read_function(def, source, (tables, literals), scope)
                    });
                    if !read.tests.is_empty() {
                        self.code.push(first.start_byte()..item.end_byte());
                    }
                }
                "mod_item" => {
                    let Some(inner) = item.field("body") else { continue };
                    let attrs = attributes(&item);
                    let name = item
                        .field("name")
                        .map(|n| text(&n, source).into_owned())
                        .unwrap_or_default();
                    let before = self.file.tests.len();
                    let nested = if scope.is_empty() {
                        name
                    } else {
                        format!("{scope}::{name}")
                    };
                    self.read(&inner, &nested);
                    if cfg_test(&attrs, source) || self.file.tests.len() > before {
                        let start = attrs.first().unwrap_or(&item).start_byte();
                        self.code.push(start..item.end_byte());
                    }
                }
                "macro_definition" => self.macro_tests(&item, scope),
                "impl_item" | "trait_item" => {
                    // Helpers may be methods; tests are never.
                    if let Some(list) = item.field("body") {
                        let mut c = list.walk();
                        for f in list.named_children(&mut c).filter(|f| f.kind() == "function_item") {
                            self.function(&f, &f, "\0impl", |def| Item {
                                bodies: helper(def, source).into_iter().collect(),
                                ..Item::default()
                            });
                        }
                    }
                }
                _ => {}
            }
        }
    }

    /// The tests a `macro_rules!` declares (`#[test] fn get_u8() {..}` in a
    /// rule's body) run wherever it is invoked: each rule's body is read as
    /// items where it stands, with its metavariables (`$make`) as names
    /// (`_make`). A test named by a metavariable is a template, not a test.
    fn macro_tests(&mut self, def: &Node, scope: &str) {
        let source = self.source;
        let Some(name) = def.field("name").map(|n| text(&n, source).into_owned()) else {
            return;
        };
        let scope = if scope.is_empty() {
            format!("{name}!")
        } else {
            format!("{scope}::{name}!")
        };
        let mut cursor = def.walk();
        for rule in def.named_children(&mut cursor).filter(|r| r.kind() == "macro_rule") {
            let Some(right) = rule.field("right") else { continue };
            let inner = right.start_byte() + 1..right.end_byte().saturating_sub(1);
            if inner.is_empty() || !may_hold_tests(&source[inner.clone()]) {
                continue;
            }
            // The file with everything but the rule's body blanked (lines
            // kept), so what is read of it stands where it is written.
            let mut masked: Vec<u8> = source.iter().map(|&b| if b == b'\n' { b'\n' } else { b' ' }).collect();
            let mut templates = Vec::new();
            let body = &source[inner.clone()];
            for (i, &b) in body.iter().enumerate() {
                masked[inner.start + i] = if b == b'$' { b'_' } else { b };
                if b == b'$' {
                    let ident: String = body[i + 1..]
                        .iter()
                        .take_while(|c| c.is_ascii_alphanumeric() || **c == b'_')
                        .map(|&c| char::from(c))
                        .collect();
                    templates.push(format!("_{ident}"));
                }
            }
            let Some(tree) = reparse(&masked) else { continue };
            let before = self.file.tests.len();
            let mut items = Items {
                source: &masked,
                tables: self.tables,
                // The masked text's tree is not the file's: its tables are not read here.
                literals: &[],
                file: &mut *self.file,
                bodies: Vec::new(),
                code: Vec::new(),
                memo: None,
            };
            items.read(&tree.root_node(), &scope);
            let bodies = items.bodies;
            let mut index = 0;
            self.file.tests.retain(|t| {
                index += 1;
                index <= before || !templates.contains(&t.name)
            });
            self.bodies.extend(bodies);
            if self.file.tests.len() > before {
                self.code.push(def.start_byte()..def.end_byte());
            }
        }
    }

    /// Read the function `def` (whose attributes start at `first`) with
    /// `read`, or recall it from the memo when the version before held the
    /// same text in the same module with the same tables.
    fn function(&mut self, first: &Node, def: &Node, scope: &str, read: impl FnOnce(&Node) -> Item) -> Item {
        let item = match self.memo.as_deref_mut() {
            None => read(def),
            Some(memo) => {
                let mut context = vec![scope];
                context.extend(self.tables.iter().map(String::as_str));
                // The file's tables the function names, as written: their rows are its cases.
                let named = super::named_literals(&self.source[def.byte_range()], self.literals, self.source);
                for (name, literal) in &named {
                    context.extend(["\u{1f}", name, literal]);
                }
                let key = Memo::key(first, def, self.source, &context);
                let row = first.start_position().row;
                match memo.recall(&key, row) {
                    Some(item) => item,
                    None => {
                        let item = read(def);
                        memo.remember(key, row, &item);
                        item
                    }
                }
            }
        };
        self.file.tests.extend(item.tests.iter().cloned());
        self.file.callback_spies += item.callback_spies;
        self.bodies.extend(item.bodies.iter().cloned());
        item
    }
}

/// A non-test function, for the helper closure.
fn helper(def: &Node, source: &[u8]) -> Option<Body> {
    let (Some(name), Some(body)) = (def.field("name"), def.field("body")) else {
        return None;
    };
    let mut scan = Scan::new(source, Vec::new());
    scan.walk(&body, source);
    Some((
        text(&name, source).into_owned(),
        !scan.assertions.is_empty(),
        scan.calls,
    ))
}

/// Read a function: a test (or benchmark) when an attribute says so, else a helper.
fn read_function(
    def: &Node,
    source: &[u8],
    (constants, literals): (&[String], &[(String, Node)]),
    scope: &str,
) -> Item {
    let mut out = Item::default();
    let attrs = attributes(def);
    let paths: Vec<(String, Node)> = attrs.iter().filter_map(|a| attribute_path(a, source)).collect();
    // rstest_reuse's `#[template]` declares cases for other tests; it never runs.
    let is_test = paths
        .iter()
        .any(|(p, _)| TEST_ATTRIBUTES.contains(&last_segment(p)) || p.starts_with("test_case"))
        && !paths
            .iter()
            .any(|(p, _)| p == "template" || p == "rstest_reuse::template");
    let benchmark = paths.iter().any(|(p, _)| p == "bench");
    if !is_test && !benchmark {
        out.bodies.extend(helper(def, source));
        return out;
    }
    let (Some(name_node), Some(body)) = (def.field("name"), def.field("body")) else {
        return out;
    };
    let name = text(&name_node, source).into_owned();
    let mut occurrences = Vec::new();
    if let Some(params) = def.field("parameters") {
        pattern_names(&params, source, &mut occurrences);
    }
    bindings(&body, source, &mut occurrences);
    let mut tables = single_nonempty_collections(&occurrences);
    tables.extend(
        constants
            .iter()
            .filter(|c| !occurrences.iter().any(|(n, _)| n == *c))
            .cloned(),
    );
    let mut scan = Scan::new(source, tables);
    scan.walk(&body, source);
    let mut skip = None;
    for (path, attribute) in &paths {
        match path.as_str() {
            "ignore" => {
                skip = Some(Skip {
                    span: Span::of(attribute),
                    reason: attribute.field("value").and_then(|v| string_value(&v, source)),
                    conditional: false,
                });
            }
            // `#[cfg_attr(miri, ignore)]`: skipped where the condition holds, which says why.
            "cfg_attr" if attribute.field("arguments").is_some_and(|a| holds_ignore(&a, source)) => {
                let condition = attribute
                    .field("arguments")
                    .and_then(|a| a.named_child(0))
                    .map(|c| text(&c, source).into_owned());
                skip.get_or_insert(Skip {
                    span: Span::of(attribute),
                    reason: condition,
                    conditional: true,
                });
            }
            "should_panic" => scan.assertions.push(Assertion {
                span: Span::of(attribute),
                form: Form::Other,
                matcher: "should_panic".to_string(),
                parts: attribute
                    .field("arguments")
                    .map(|a| vec![token_key(&a, source)])
                    .unwrap_or_default(),
                values: Vec::new(),
                guard: Guard::default(),
            }),
            _ => {}
        }
    }
    let unchecked = if scan.assertions.is_empty() {
        let mut what = unchecked(&body, source, &occurrences, &UNCHECKED, |callee| {
            PRINTS.contains(&last_segment(callee))
        });
        // `let v = parse(s).unwrap();` checks that parsing succeeded, as a smoke test does.
        let checked = checked_bindings(&body, source);
        what.results.retain(|r| !checked.contains(r));
        if unwraps(&body, source) {
            // What it prints it unwrapped first: the unwrap is the check.
            what.prints = false;
            what.inert = false;
        }
        // A test that declares items (a derive, a `#![deny(..)]`) checks that they compile.
        if declares_items(&body) {
            what.inert = false;
        }
        what
    } else {
        Unchecked::default()
    };
    out.bodies
        .push((name.clone(), !scan.assertions.is_empty(), scan.calls.clone()));
    out.callback_spies = scan.doubles;
    out.tests.push(TestCase {
        name,
        scope: scope.to_string(),
        span: Span::of(&name_node),
        skip,
        empty: is_empty_block(&body),
        assertions: scan.assertions,
        calls: scan.calls,
        bindings: plain_bindings(&occurrences),
        aliases: single_call_aliases(&occurrences),
        uses: scan.used.into_iter().collect(),
        mock_returns: scan.mock_returns,
        benchmark,
        mocks: Vec::new(),
        unchecked,
        unfinished: Vec::new(),
        syntax_error: first_syntax_error(&body),
        shape: super::shape(&body, source),
        extent: Span::of(&body),
        cases: {
            let cases = rstest_cases(def, &paths, &occurrences, source);
            if cases.is_empty() {
                loop_cases(&body, literals, &occurrences, source)
            } else {
                cases
            }
        },
    });
    out
}

/// The cases of an rstest test: each `#[case(..)]` (or `#[case::name(..)]`)
/// binds, in order, the parameters marked `#[case]` that the body does not
/// rebind.
fn rstest_cases(
    def: &Node,
    paths: &[(String, Node)],
    occurrences: &[(String, Bound)],
    source: &[u8],
) -> Vec<Vec<(String, String)>> {
    let Some(params) = def.field("parameters") else {
        return Vec::new();
    };
    // The `#[case]` parameters, in order: an attribute item precedes its parameter.
    let mut names = Vec::new();
    let mut marked = false;
    let mut cursor = params.walk();
    for child in params.named_children(&mut cursor) {
        match child.kind() {
            "attribute_item" => marked |= attribute_path(&child, source).is_some_and(|(p, _)| p == "case"),
            "parameter" => {
                if marked {
                    names.push(child.field("pattern").map(|p| text(&p, source).into_owned()));
                }
                marked = false;
            }
            _ => {}
        }
    }
    if names.is_empty() {
        return Vec::new();
    }
    let once = |name: &str| super::not_rebound(occurrences, name);
    let mut cases = Vec::new();
    for (path, attribute) in paths {
        if path != "case" && !path.starts_with("case::") {
            continue;
        }
        let Some(args) = attribute.field("arguments") else {
            continue;
        };
        let values = token_tree_items(&args, source);
        if values.len() != names.len() {
            continue;
        }
        let case: Vec<(String, String)> = names
            .iter()
            .zip(values)
            .filter_map(|(name, value)| name.as_ref().filter(|n| once(n)).map(|n| (n.clone(), value)))
            .collect();
        if !case.is_empty() {
            cases.push(case);
        }
        if cases.len() == super::MAX_CASES {
            break;
        }
    }
    cases
}

/// The comma-separated items of a token tree (`(1, "a", vec![2])`), each as
/// its tokens joined the way [`token_key`] joins them.
fn token_tree_items(tree: &Node, source: &[u8]) -> Vec<String> {
    let mut items = vec![String::new()];
    let mut cursor = tree.walk();
    let children: Vec<Node> = tree.children(&mut cursor).collect();
    let inner = children.len().saturating_sub(1);
    for child in children.iter().take(inner).skip(1) {
        if child.is_extra() {
            continue;
        }
        if child.kind() == "," {
            items.push(String::new());
            continue;
        }
        let item = items.last_mut().expect("one item at least");
        if !item.is_empty() {
            item.push(' ');
        }
        item.push_str(&token_key(child, source));
    }
    if items.last().is_some_and(String::is_empty) {
        items.pop();
    }
    items
}

/// Does a `cfg_attr(..)` argument list apply `ignore`?
fn holds_ignore(args: &Node, source: &[u8]) -> bool {
    let mut cursor = args.walk();
    args.children(&mut cursor)
        .skip(2)
        .any(|c| c.kind() == "identifier" && text(&c, source) == "ignore")
}

fn is_empty_block(block: &Node) -> bool {
    let mut cursor = block.walk();
    block.named_children(&mut cursor).all(|c| COMMENTS.contains(&c.kind()))
}

/// Is `method` one that panics when its receiver holds an error or nothing?
fn is_unwrap(method: &str) -> bool {
    matches!(
        method,
        "unwrap" | "expect" | "unwrap_err" | "expect_err" | "unwrap_or_else" | "unwrap_none"
    )
}

/// Does `body` unwrap a value or propagate an error with `?`?
fn unwraps(body: &Node, source: &[u8]) -> bool {
    let mut found = false;
    visit_named(*body, |n| {
        found |= n.kind() == "try_expression"
            || (n.kind() == "field_identifier" && is_unwrap(&text(&n, source)))
            || (n.kind() == "token_tree" && {
                let mut c = n.walk();
                n.children(&mut c)
                    .any(|t| t.kind() == "identifier" && is_unwrap(&text(&t, source)))
            });
        !found
    });
    found
}

/// Does `body` declare items or lint attributes: a test of what compiles?
fn declares_items(body: &Node) -> bool {
    let mut cursor = body.walk();
    body.named_children(&mut cursor).any(|c| {
        matches!(
            c.kind(),
            "struct_item" | "enum_item" | "impl_item" | "trait_item" | "union_item" | "inner_attribute_item"
        )
    })
}

/// The names `let` binds in `body` that are bound to an `unwrap()`,
/// `expect(..)` or `?`: the test checks that value succeeded.
fn checked_bindings(body: &Node, source: &[u8]) -> Vec<String> {
    let mut out = Vec::new();
    visit_named(*body, |n| {
        if n.kind() == "let_declaration"
            && let (Some(pattern), Some(value)) = (n.field("pattern"), n.field("value"))
        {
            let checks = value.kind() == "try_expression"
                || (value.kind() == "call_expression"
                    && value.field("function").is_some_and(|f| {
                        f.kind() == "field_expression"
                            && f.field("field").is_some_and(|m| {
                                matches!(
                                    text(&m, source).as_ref(),
                                    "unwrap" | "expect" | "unwrap_err" | "expect_err" | "unwrap_or_else"
                                )
                            })
                    }));
            if checks {
                out.push(text(&pattern, source).into_owned());
            }
        }
        true
    });
    out
}

/// Every name a pattern binds, as bound to something other than a literal.
fn pattern_names(node: &Node, source: &[u8], out: &mut Vec<(String, Bound)>) {
    visit_named(*node, |n| {
        if n.kind() == "identifier" {
            out.push((text(&n, source).into_owned(), Bound::Other));
        }
        // Types and paths inside a pattern bind nothing.
        !matches!(
            n.kind(),
            "type_identifier" | "scoped_identifier" | "generic_type" | "reference_type" | "primitive_type"
        )
    });
}

/// The bindings of a test body: `let` with a single name (bound to its
/// value), and every name other patterns bind (loops, `if let`, `match`).
fn bindings(body: &Node, source: &[u8], out: &mut Vec<(String, Bound)>) {
    visit_named(*body, |n| {
        match n.kind() {
            "let_declaration" => {
                let value = n.field("value");
                // `let mut x = 0;` is meant to change (in a closure, through `&mut`).
                let mutable = {
                    let mut c = n.walk();
                    n.children(&mut c).any(|c| c.kind() == "mutable_specifier")
                };
                match n.field("pattern") {
                    Some(p) if p.kind() == "identifier" && mutable => {
                        out.push((text(&p, source).into_owned(), Bound::Other));
                    }
                    Some(p) if p.kind() == "identifier" => {
                        let value = value.map(|v| unwrap_rust(v));
                        let literal = value.and_then(|v| literal(&v, source));
                        let call = value.and_then(|v| chain(&v, source));
                        out.push((text(&p, source).into_owned(), bound(literal, call, &n, body)));
                    }
                    Some(p) => pattern_names(&p, source, out),
                    None => {}
                }
            }
            "for_expression" => {
                if let Some(p) = n.field("pattern") {
                    pattern_names(&p, source, out);
                }
            }
            "let_condition" | "match_pattern" => {
                if let Some(p) = n.field("pattern").or_else(|| first_child(&n)) {
                    pattern_names(&p, source, out);
                }
            }
            "assignment_expression" | "compound_assignment_expr" => {
                if let Some(left) = n.field("left").filter(|l| l.kind() == "identifier") {
                    out.push((text(&left, source).into_owned(), Bound::Other));
                }
            }
            _ => {}
        }
        // Closures share the test's names (and may change them).
        n.kind() != "function_item"
    });
}

/// Parentheses and references around a value (`(&x)`).
fn unwrap_rust(mut node: Node) -> Node {
    loop {
        let inner = match node.kind() {
            "parenthesized_expression" => first_child(&node),
            "reference_expression" => node.field("value"),
            _ => None,
        };
        match inner {
            Some(i) => node = i,
            None => return node,
        }
    }
}

fn string_value(node: &Node, source: &[u8]) -> Option<String> {
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
fn rust_number(raw: &str) -> Option<f64> {
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

fn macro_name(mac: &Node, source: &[u8]) -> String {
    mac.field("macro")
        .map(|m| last_segment(&callee_key(&text(&m, source))).to_string())
        .unwrap_or_default()
}

fn has_effects(node: &Node) -> bool {
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

fn operand(node: &Node, source: &[u8]) -> Operand {
    let node = unwrap_rust(*node);
    Operand {
        text: display(&node, source),
        key: normalized(&node, source, "line_comment"),
        literal: literal(&node, source),
        effects: has_effects(&node),
        call_of: match node.kind() {
            "call_expression" => node.field("function").map(|f| callee_key(&text(&f, source))),
            _ => None,
        },
    }
}

thread_local! {
    static ARGS_PARSER: RefCell<Option<Parser>> = const { RefCell::new(None) };
}

/// Parse Rust text made from a macro's tokens.
fn reparse(text: &[u8]) -> Option<Tree> {
    ARGS_PARSER.with(|p| {
        let mut p = p.borrow_mut();
        let parser = p.get_or_insert_with(|| {
            let mut parser = Parser::new();
            parser
                .set_language(&Lang::Rust.grammar())
                .expect("the Rust grammar loads");
            parser
        });
        parser.parse(text, None).map(|tree| Tree::new(&tree))
    })
}

/// Parse the token tree of macro `mac` as the arguments of a call, and
/// hand them to `read` with the source they were parsed from.
fn with_macro_args<R>(mac: &Node, source: &[u8], read: impl FnOnce(&[Node], &[u8]) -> R) -> Option<R> {
    let mut cursor = mac.walk();
    let tree = mac.named_children(&mut cursor).find(|c| c.kind() == "token_tree")?;
    let inner = source.get(tree.start_byte() + 1..tree.end_byte().saturating_sub(1))?;
    let mut wrapped = Vec::with_capacity(inner.len() + 16);
    wrapped.extend_from_slice(b"fn f(){m(");
    wrapped.extend_from_slice(inner);
    wrapped.extend_from_slice(b"\n);}");
    let parsed = reparse(&wrapped)?;
    let mut call = None;
    visit_named(parsed.root_node(), |n| {
        if call.is_none() && n.kind() == "call_expression" {
            call = Some(n);
        }
        call.is_none()
    });
    let args = call?.field("arguments")?;
    let mut cursor = args.walk();
    let nodes: Vec<Node> = args
        .named_children(&mut cursor)
        .filter(|c| !COMMENTS.contains(&c.kind()))
        .collect();
    Some(read(&nodes, &wrapped))
}

/// What a walk of a test body finds.
struct Scan {
    guard: Guard,
    /// Names bound once to a non-empty literal collection.
    tables: Vec<String>,
    assertions: Vec<Assertion>,
    calls: Vec<String>,
    used: BTreeSet<String>,
    mock_returns: Vec<MockReturn>,
    /// mockall doubles made (`MockStore::new()`).
    doubles: usize,
    /// Macros invoked inside token trees.
    macros: Vec<String>,
    /// Read the guards of assertions (off when only asking whether a subtree asserts).
    guards: bool,
}

/// Node kinds whose children may run under another guard.
const GUARDING: &[&str] = &[
    "if_expression",
    "match_expression",
    "for_expression",
    "while_expression",
    "binary_expression",
];

impl Scan {
    fn new(_source: &[u8], tables: Vec<String>) -> Scan {
        Scan {
            guard: Guard::default(),
            tables,
            assertions: Vec::new(),
            calls: Vec::new(),
            used: BTreeSet::new(),
            mock_returns: Vec::new(),
            doubles: 0,
            macros: Vec::new(),
            guards: true,
        }
    }

    fn walk(&mut self, node: &Node, source: &[u8]) {
        let mut stack = vec![(*node, self.guard)];
        let mut cursor = node.walk();
        while let Some((n, guard)) = stack.pop() {
            self.guard = guard;
            match n.kind() {
                k if COMMENTS.contains(&k) => continue,
                "string_literal" | "raw_string_literal" | "function_item" => continue,
                "macro_invocation" => {
                    self.macro_call(&n, source);
                    continue;
                }
                "call_expression" => self.call(&n, source),
                "identifier" => {
                    super::note_name(&n, source, &mut self.used);
                }
                _ => {}
            }
            if self.guards && GUARDING.contains(&n.kind()) {
                let children: Vec<Node> = n.named_children(&mut cursor).collect();
                let guards = self.child_guards(&n, &children, guard, source);
                stack.extend(children.into_iter().zip(guards).rev());
            } else {
                let start = stack.len();
                stack.extend(n.named_children(&mut cursor).map(|c| (c, guard)));
                stack[start..].reverse();
            }
        }
    }

    fn child_guards(&self, node: &Node, children: &[Node], guard: Guard, source: &[u8]) -> Vec<Guard> {
        let field = |name: &'static str| node.field(name).map(|c| c.id());
        match node.kind() {
            "if_expression" => {
                // Every branch, an `else` included, asserts: it asserts either way.
                let consequence = node.field("consequence");
                let alternative = node.field("alternative");
                let exhaustive = alternative.is_some_and(|a| asserts(&a, source))
                    && consequence.is_some_and(|c| asserts(&c, source));
                super::guards_where(children, guard, |c| exhaustive || Some(c.id()) == field("condition"))
            }
            "match_expression" => {
                let arms: Vec<Node> = node
                    .field("body")
                    .map(|b| {
                        let mut c = b.walk();
                        b.named_children(&mut c).filter(|a| a.kind() == "match_arm").collect()
                    })
                    .unwrap_or_default();
                let exhaustive = !arms.is_empty() && arms.iter().all(|a| asserts(a, source));
                super::guards_where(children, guard, |c| exhaustive || Some(c.id()) == field("value"))
            }
            "for_expression" => {
                let nonempty = node.field("value").is_some_and(|v| self.nonempty(&v, source));
                super::guards_where(children, guard, |c| nonempty || Some(c.id()) != field("body"))
            }
            "while_expression" => super::guards_where(children, guard, |c| Some(c.id()) != field("body")),
            // `a && b`, `a || b`: the right side may not run.
            "binary_expression" => super::short_circuit_guards(node, children, guard, source),
            _ => vec![guard; children.len()],
        }
    }

    /// Does iterating `node` always yield something: a non-empty array or
    /// `vec![..]`, a table, a literal range, or an iterator over one?
    fn nonempty(&self, node: &Node, source: &[u8]) -> bool {
        let node = unwrap_rust(*node);
        if literal(&node, source).is_some_and(|l| l.truthy()) {
            return true;
        }
        match node.kind() {
            "identifier" => self.tables.contains(&text(&node, source).into_owned()),
            "range_expression" => {
                let mut cursor = node.walk();
                let bounds: Vec<Option<f64>> = node
                    .named_children(&mut cursor)
                    .map(|b| match literal(&b, source) {
                        Some(Literal::Number(n)) => Some(n),
                        _ => None,
                    })
                    .collect();
                let inclusive = text(&node, source).contains("..=");
                match bounds.as_slice() {
                    [Some(a), Some(b)] => {
                        if inclusive {
                            b >= a
                        } else {
                            b > a
                        }
                    }
                    _ => false,
                }
            }
            "call_expression" => node.field("function").is_some_and(|f| {
                f.kind() == "field_expression"
                    && f.field("field").is_some_and(|m| {
                        matches!(
                            text(&m, source).as_ref(),
                            "iter"
                                | "into_iter"
                                | "iter_mut"
                                | "enumerate"
                                | "zip"
                                | "rev"
                                | "chain"
                                | "copied"
                                | "cloned"
                        )
                    })
                    && f.field("value").is_some_and(|v| self.nonempty(&v, source))
            }),
            _ => false,
        }
    }

    fn call(&mut self, call: &Node, source: &[u8]) {
        let Some(function) = call.field("function") else {
            return;
        };
        let name = match function.kind() {
            "identifier" => text(&function, source).into_owned(),
            "field_expression" => function
                .field("field")
                .map(|f| text(&f, source).into_owned())
                .unwrap_or_default(),
            "scoped_identifier" => function
                .field("name")
                .map(|f| text(&f, source).into_owned())
                .unwrap_or_default(),
            "generic_function" => function
                .field("function")
                .map(|f| {
                    last_segment(&callee_key(&text(&f, source)))
                        .rsplit('.')
                        .next()
                        .unwrap_or("")
                        .to_string()
                })
                .unwrap_or_default(),
            _ => return,
        };
        // mockall: `MockStore::new()` makes a double; `store.expect_get()` sets an
        // expectation that is verified when the double is dropped.
        if function.kind() == "scoped_identifier"
            && matches!(name.as_str(), "new" | "default")
            && function.field("path").is_some_and(|p| {
                text(&p, source)
                    .rsplit("::")
                    .next()
                    .is_some_and(|t| t.starts_with("Mock"))
            })
        {
            self.doubles += 1;
        }
        if let Some(method) = name.strip_prefix("expect_")
            && function.kind() == "field_expression"
        {
            let receiver = function
                .field("value")
                .map(|v| callee_key(&text(&v, source)))
                .unwrap_or_default();
            self.assertions.push(Assertion {
                span: Span::of(call),
                form: Form::Other,
                matcher: "expect".to_string(),
                parts: vec![format!("{receiver}.{method}")],
                values: Vec::new(),
                guard: self.guard,
            });
        }
        if matches!(name.as_str(), "returning" | "return_const" | "return_once")
            && let Some(ret) = self.mock_return(call, &function, source)
        {
            self.mock_returns.push(ret);
        }
        self.calls.push(name);
    }

    /// `store.expect_get().returning(|_| 5)` or `.return_const(5)`: the
    /// double's `get` returns the literal.
    fn mock_return(&self, call: &Node, function: &Node, source: &[u8]) -> Option<MockReturn> {
        let arg = call.field("arguments").and_then(|a| first_child(&a))?;
        let value = match arg.kind() {
            "closure_expression" => arg.field("body")?,
            _ => arg,
        };
        let value = match value.kind() {
            "block" => first_child(&value).filter(|_| value.named_child_count() == 1)?,
            _ => value,
        };
        let literal = literal(&value, source)?;
        // Walk down the receiver chain to the `expect_*` call.
        let mut receiver = function.field("value")?;
        loop {
            let inner = receiver.field("function")?;
            if inner.kind() != "field_expression" {
                return None;
            }
            let method = text(&inner.field("field")?, source).into_owned();
            if let Some(name) = method.strip_prefix("expect_") {
                let double = callee_key(&text(&inner.field("value")?, source));
                return Some(MockReturn {
                    callee: format!("{double}.{name}"),
                    literal,
                    span: Span::of(call),
                });
            }
            receiver = inner.field("value")?;
        }
    }

    fn macro_call(&mut self, mac: &Node, source: &[u8]) {
        let name = macro_name(mac, source);
        let assertion =
            name.starts_with("assert") || name.starts_with("debug_assert") || name.starts_with("prop_assert");
        if assertion {
            let guard = self.guard;
            let read = with_macro_args(mac, source, |args, src| {
                let mut inner = Scan::new(src, Vec::new());
                for arg in args {
                    inner.walk(arg, src);
                }
                (assertion_of(&name, args, src), inner)
            });
            let ((form, matcher, parts, checked), inner) = read.unwrap_or_else(|| {
                (
                    (Form::Other, name.clone(), Vec::new(), Vec::new()),
                    Scan::new(source, Vec::new()),
                )
            });
            self.calls.extend(inner.calls);
            self.used.extend(inner.used);
            self.assertions.push(Assertion {
                span: Span::of(mac),
                form,
                matcher,
                parts,
                values: checked,
                guard,
            });
            return;
        }
        if matches!(name.as_str(), "panic" | "unreachable") {
            self.assertions.push(Assertion {
                span: Span::of(mac),
                form: Form::Fail,
                matcher: name.clone(),
                parts: Vec::new(),
                values: Vec::new(),
                guard: self.guard,
            });
        }
        // Any other macro: a call of it (a local `macro_rules!` helper may
        // assert), and the names it uses and the functions it calls, token by token.
        self.calls.push(name);
        let mut cursor = mac.walk();
        if let Some(tree) = mac.named_children(&mut cursor).find(|c| c.kind() == "token_tree") {
            self.tokens(&tree, source);
        }
        let nested = std::mem::take(&mut self.macros);
        self.calls.extend(nested);
    }

    /// Names, calls and macro calls in a token tree: `f(..)` is a call of
    /// `f`, `m!(..)` a call of macro `m` (an assertion when `m` asserts).
    fn tokens(&mut self, tree: &Node, source: &[u8]) {
        let mut cursor = tree.walk();
        let children: Vec<Node> = tree.children(&mut cursor).collect();
        for (i, child) in children.iter().enumerate() {
            match child.kind() {
                "identifier" => {
                    super::note_name(child, source, &mut self.used);
                    let next = children.get(i + 1);
                    let called =
                        next.is_some_and(|n| n.kind() == "token_tree" && source.get(n.start_byte()) == Some(&b'('));
                    if called {
                        self.calls.push(text(child, source).into_owned());
                    }
                    if next.is_some_and(|n| n.kind() == "!") {
                        let name = text(child, source).into_owned();
                        if is_assertion_macro(&name) {
                            let end = children.get(i + 2).unwrap_or(child);
                            let span = Span::of(child);
                            let end = Span::of(end);
                            self.assertions.push(Assertion {
                                span: Span {
                                    end_line: end.end_line,
                                    end_column: end.end_column,
                                    ..span
                                },
                                form: Form::Other,
                                matcher: name.clone(),
                                parts: Vec::new(),
                                values: Vec::new(),
                                guard: self.guard,
                            });
                        }
                        self.macros.push(name);
                    }
                }
                "token_tree" | "token_repetition" => self.tokens(child, source),
                _ => {}
            }
        }
    }
}

/// Does this subtree assert?
fn asserts(node: &Node, source: &[u8]) -> bool {
    let mut scan = Scan::new(source, Vec::new());
    // Only whether it asserts: guards inside are not needed, and reading
    // them would read nested branches again at every level.
    scan.guards = false;
    scan.walk(node, source);
    !scan.assertions.is_empty()
}

/// The form, matcher, operand keys and checked values of assertion macro `name`.
fn assertion_of(name: &str, args: &[Node], source: &[u8]) -> (Form, String, Vec<String>, Vec<String>) {
    let base = name
        .strip_prefix("debug_")
        .or_else(|| name.strip_prefix("prop_"))
        .unwrap_or(name);
    let op = |i: usize| args.get(i).map(|a| operand(a, source));
    let checked = |n: usize| -> Vec<String> {
        let mut out: Vec<String> = args
            .iter()
            .take(n)
            .flat_map(|a| values(a, source, "line_comment"))
            .collect();
        out.sort();
        out.dedup();
        out
    };
    let keys = |n: usize| args.iter().take(n).map(|a| token_key(a, source)).collect::<Vec<_>>();
    match base {
        "assert_eq" => match (op(0), op(1)) {
            (Some(a), Some(b)) => (value_equal(a, b), base.to_string(), keys(2), checked(2)),
            _ => (Form::Other, base.to_string(), keys(2), checked(2)),
        },
        "assert_ne" => match (op(0), op(1)) {
            (Some(a), Some(b)) => (Form::NotEqual(a, b), base.to_string(), keys(2), checked(2)),
            _ => (Form::Other, base.to_string(), keys(2), checked(2)),
        },
        "assert" => {
            let Some(test) = args.first().map(|a| unwrap_rust(*a)) else {
                return (Form::Other, base.to_string(), Vec::new(), Vec::new());
            };
            match test.kind() {
                "binary_expression" => {
                    let operator = test
                        .field("operator")
                        .map(|o| text(&o, source).into_owned())
                        .unwrap_or_default();
                    let (Some(l), Some(r)) = (test.field("left"), test.field("right")) else {
                        return (Form::Other, operator, keys(1), checked(1));
                    };
                    let parts = vec![token_key(&l, source), token_key(&r, source)];
                    let form = match operator.as_str() {
                        "==" => value_equal(operand(&l, source), operand(&r, source)),
                        "!=" => Form::NotEqual(operand(&l, source), operand(&r, source)),
                        "&&" | "||" => Form::Truthy(operand(&test, source)),
                        _ => Form::Other,
                    };
                    (form, operator, parts, checked(1))
                }
                "unary_expression" if text(&test, source).starts_with('!') => {
                    let form = first_child(&test).map_or(Form::Other, |inner| Form::Falsy(operand(&inner, source)));
                    (form, "not".to_string(), keys(1), checked(1))
                }
                // `assert!(matches!(v, Some(_)))` checks a pattern.
                "macro_invocation" if macro_name(&test, source) == "matches" => {
                    (Form::Other, "matches".to_string(), keys(1), checked(1))
                }
                _ => (
                    Form::Truthy(operand(&test, source)),
                    "truthy".to_string(),
                    keys(1),
                    checked(1),
                ),
            }
        }
        // `assert_matches!`, insta's `assert_snapshot!` and friends, `assert_approx_eq!`, ...
        _ => (Form::Other, base.to_string(), keys(args.len().min(2)), checked(1)),
    }
}

/// The names the file references outside `use` declarations, and the
/// modules it names by path without a `use` (`mycrate::parse(..)`,
/// `super::helper()`), as dynamic imports.
fn references(root: &Node, source: &[u8], imports: &mut Vec<Import>) -> BTreeSet<String> {
    let mut used = BTreeSet::new();
    let mut roots: BTreeSet<String> = BTreeSet::new();
    let imported: BTreeSet<&str> = imports
        .iter()
        .flat_map(|i| i.names.iter().map(String::as_str))
        .collect();
    let path_root = |path: &str, roots: &mut BTreeSet<String>| {
        let head = path.split("::").next().unwrap_or(path);
        let module =
            head.chars().next().is_some_and(|c| c.is_ascii_lowercase() || c == '_') && !imported.contains(head);
        if module && let Some((prefix, _)) = path.rsplit_once("::") {
            roots.insert(prefix.to_string());
        }
    };
    visit_named(*root, |n| match n.kind() {
        // Attributes are read: `#[derive(Error)]` uses the imported `Error`.
        "use_declaration" | "extern_crate_declaration" => false,
        k if COMMENTS.contains(&k) => false,
        "identifier" | "type_identifier" => {
            super::note_name(&n, source, &mut used);
            false
        }
        "scoped_identifier" | "scoped_type_identifier" => {
            if n.parent()
                .is_none_or(|p| !matches!(p.kind(), "scoped_identifier" | "scoped_type_identifier"))
            {
                path_root(&callee_key(&text(&n, source)), &mut roots);
            }
            true
        }
        "token_tree" => {
            // `a::b::c` spelled token by token inside a macro.
            let mut cursor = n.walk();
            let tokens: Vec<Node> = n.children(&mut cursor).collect();
            let mut i = 0;
            while i < tokens.len() {
                let starts = matches!(tokens[i].kind(), "identifier" | "crate" | "super" | "self")
                    && (i == 0 || tokens[i - 1].kind() != "::");
                if starts && tokens.get(i + 1).is_some_and(|t| t.kind() == "::") {
                    let mut path = text(&tokens[i], source).into_owned();
                    let mut j = i + 1;
                    while tokens.get(j).is_some_and(|t| t.kind() == "::")
                        && let Some(next) = tokens.get(j + 1).filter(|t| t.kind() == "identifier")
                    {
                        path.push_str("::");
                        path.push_str(&text(next, source));
                        j += 2;
                    }
                    path_root(&path, &mut roots);
                    i = j;
                    continue;
                }
                i += 1;
            }
            true
        }
        _ => true,
    });
    for spec in roots {
        imports.push(Import {
            specifier: spec,
            names: Vec::new(),
            origins: Vec::new(),
            span: Span::of(root),
            kind: ImportKind::Dynamic,
        });
    }
    used
}

/// Every `use` (and `extern crate`, and `mod x;`) in the file, nested
/// modules included. `use a::b::{c, d as e}` is one import of `a::b`
/// binding `c` and `e`.
pub fn imports(tree: &Tree, source: &[u8]) -> Vec<Import> {
    imports_and_used(tree, source).0
}

/// The imports of the file (with the modules it names by path) and the
/// names it references outside `use` declarations.
fn imports_and_used(tree: &Tree, source: &[u8]) -> (Vec<Import>, BTreeSet<String>) {
    let mut out = use_imports(tree, source);
    let used = references(&tree.root_node(), source, &mut out);
    (out, used)
}

/// Every `use` (and `extern crate`, and `mod x;`).
fn use_imports(tree: &Tree, source: &[u8]) -> Vec<Import> {
    let mut out: Vec<Import> = Vec::new();
    visit_named(tree.root_node(), |n| {
        match n.kind() {
            "use_declaration" => {
                if let Some(argument) = n.field("argument") {
                    let mut leaves = Vec::new();
                    use_leaves(&argument, source, "", &mut leaves);
                    for (prefix, name, origin) in leaves {
                        match out.iter_mut().find(|i| i.specifier == prefix && i.span == Span::of(&n)) {
                            Some(import) => {
                                import.names.push(name);
                                import.origins.push(origin);
                            }
                            None => out.push(Import {
                                specifier: prefix,
                                names: vec![name],
                                origins: vec![origin],
                                span: Span::of(&n),
                                kind: ImportKind::Static,
                            }),
                        }
                    }
                }
                return false;
            }
            "extern_crate_declaration" => {
                if let Some(name) = n.field("name") {
                    let crate_name = text(&name, source).into_owned();
                    let local = n
                        .field("alias")
                        .map_or(crate_name.clone(), |a| text(&a, source).into_owned());
                    out.push(Import {
                        specifier: crate_name.clone(),
                        names: vec![local],
                        origins: vec![crate_name],
                        span: Span::of(&n),
                        kind: ImportKind::Static,
                    });
                }
                return false;
            }
            // `mod common;` loads `common.rs` or `common/mod.rs` beside the file.
            "mod_item" if n.field("body").is_none() => {
                if let Some(name) = n.field("name") {
                    let name = text(&name, source).into_owned();
                    out.push(Import {
                        specifier: format!("self::{name}"),
                        names: vec![name.clone()],
                        origins: vec![format!("self::{name}")],
                        span: Span::of(&n),
                        kind: ImportKind::Static,
                    });
                }
                return false;
            }
            _ => {}
        }
        // `use` inside a test function is common: function bodies are read too.
        !matches!(n.kind(), "token_tree" | "string_literal")
    });
    out
}

/// The leaves of a use tree: (module path, local name, full path).
fn use_leaves(node: &Node, source: &[u8], prefix: &str, out: &mut Vec<(String, String, String)>) {
    let join = |a: &str, b: &str| {
        if a.is_empty() {
            b.to_string()
        } else {
            format!("{a}::{b}")
        }
    };
    match node.kind() {
        "scoped_use_list" => {
            let path = node
                .field("path")
                .map(|p| callee_key(&text(&p, source)))
                .unwrap_or_default();
            let prefix = join(prefix, &path);
            if let Some(list) = node.field("list") {
                use_leaves(&list, source, &prefix, out);
            }
        }
        "use_list" => {
            let mut cursor = node.walk();
            for child in node.named_children(&mut cursor) {
                use_leaves(&child, source, prefix, out);
            }
        }
        "use_wildcard" => {
            let full = callee_key(&text(node, source));
            let path = full.trim_end_matches("::*").trim_end_matches('*').to_string();
            out.push((join(prefix, &path), "*".to_string(), join(prefix, &full)));
        }
        "use_as_clause" => {
            let (Some(path), Some(alias)) = (node.field("path"), node.field("alias")) else {
                return;
            };
            let full = join(prefix, &callee_key(&text(&path, source)));
            let module = full.rsplit_once("::").map_or(full.clone(), |(m, _)| m.to_string());
            out.push((module, text(&alias, source).into_owned(), full));
        }
        "scoped_identifier" | "identifier" | "crate" | "self" | "super" => {
            let full = join(prefix, &callee_key(&text(node, source)));
            let (module, name) = match full.rsplit_once("::") {
                // `use a::b::{self}` binds `b`.
                Some((m, "self")) => (m.to_string(), m.rsplit("::").next().unwrap_or(m).to_string()),
                Some((m, n)) => (m.to_string(), n.to_string()),
                None => (full.clone(), full.clone()),
            };
            out.push((module, name, full));
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn model(source: &str) -> TestFile {
        Lang::Rust.test_file(source.as_bytes()).unwrap()
    }

    /// A `macro_rules!` that declares tests declares them where it is
    /// invoked; a test named by a metavariable is a template, not a test.
    #[test]
    fn tests_a_macro_declares_are_tests() {
        let file = model(
            "macro_rules! buf_tests {\n    ($make:ident) => {\n        #[test]\n        fn fresh() {\n            let buf = $make(INPUT);\n            assert_eq!(buf.remaining(), 64);\n        }\n\n        #[test]\n        fn $name() {\n            $body\n        }\n    };\n}\n\nmod slice {\n    buf_tests!(make);\n}\n",
        );
        let tests: Vec<(&str, &str, u32, usize)> = file
            .tests
            .iter()
            .map(|t| (t.scope.as_str(), t.name.as_str(), t.span.line, t.assertions.len()))
            .collect();
        assert_eq!(tests, vec![("buf_tests!", "fresh", 4, 1)]);
        assert_eq!(file.tests[0].assertions[0].parts, vec!["buf . remaining ( )", "64"]);
    }

    #[test]
    fn tests_and_their_assertions() {
        let file = model(
            r#"
use super::*;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn totals() {
        let cart = Cart::new();
        assert_eq!(total(&cart), 5, "total of {:?}", cart);
        assert!(cart.is_empty());
        assert!(!cart.is_full());
        assert_ne!(cart.len(), 3);
        assert!(matches!(cart.first(), Some(_)));
    }

    #[tokio::test]
    #[ignore = "needs the network"]
    async fn fetches() {}

    #[test]
    #[should_panic(expected = "empty")]
    fn panics() {
        pop(&mut Vec::new());
    }
}
"#,
        );
        let names: Vec<(&str, &str)> = file.tests.iter().map(|t| (t.scope.as_str(), t.name.as_str())).collect();
        assert_eq!(
            names,
            vec![("tests", "totals"), ("tests", "fetches"), ("tests", "panics")]
        );
        let totals = &file.tests[0];
        let matchers: Vec<&str> = totals.assertions.iter().map(|a| a.matcher.as_str()).collect();
        assert_eq!(matchers, vec!["assert_eq", "truthy", "not", "assert_ne", "matches"]);
        assert!(
            matches!(&totals.assertions[0].form, Form::Equal(a, b) if a.text == "total(&cart)" && b.literal == Some(Literal::Number(5.0)))
        );
        assert_eq!(totals.assertions[0].parts, vec!["total ( & cart )", "5"]);
        assert!(totals.calls.contains(&"total".to_string()) && totals.calls.contains(&"new".to_string()));
        let skip = file.tests[1].skip.as_ref().unwrap();
        assert_eq!(skip.reason.as_deref(), Some("needs the network"));
        assert!(file.tests[1].empty);
        assert_eq!(file.tests[2].assertions[0].matcher, "should_panic");
        assert!(!file.code_digest.is_empty());
    }

    #[test]
    fn imports_and_paths() {
        let file = model(
            "use mycrate::{billing::total, cart as c};\nuse super::*;\nextern crate other;\nmod common;\n#[test]\nfn t() {\n    let x = mycrate::parse::run(1);\n    assert_eq!(helpers::f(x), crate::y::Z);\n    common::setup();\n}\n",
        );
        let specs: Vec<(&str, &[String], ImportKind)> = file
            .imports
            .iter()
            .map(|i| (i.specifier.as_str(), i.names.as_slice(), i.kind))
            .collect();
        let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
        assert_eq!(specs[0], ("mycrate::billing", &s(&["total"])[..], ImportKind::Static));
        assert_eq!(specs[1], ("mycrate", &s(&["c"])[..], ImportKind::Static));
        assert_eq!(specs[2], ("super", &s(&["*"])[..], ImportKind::Static));
        assert_eq!(specs[3].0, "other");
        assert_eq!(specs[4], ("self::common", &s(&["common"])[..], ImportKind::Static));
        let dynamic: Vec<&str> = file
            .imports
            .iter()
            .filter(|i| i.kind == ImportKind::Dynamic)
            .map(|i| i.specifier.as_str())
            .collect();
        assert_eq!(dynamic, vec!["crate::y", "helpers", "mycrate::parse"]);
        assert!(file.used.contains("common"));
    }

    #[test]
    fn guards_loops_and_matches() {
        let file = model(
            r#"
#[test]
fn guarded() {
    if let Some(v) = get() { assert_eq!(v, 1); }
    for x in list() { assert!(x > 0); }
}
#[test]
fn tables() {
    let cases = [(1, 2), (2, 3)];
    for (a, b) in cases { assert_eq!(inc(a), b); }
    for i in 0..3 { assert!(ok(i)); }
    match parse() { Ok(v) => assert_eq!(v, 2), Err(e) => panic!("{e}") }
}
"#,
        );
        assert!(file.tests[0].assertions.iter().all(|a| a.guard.conditional));
        assert!(
            file.tests[1].assertions.iter().all(|a| !a.guard.conditional),
            "{:?}",
            file.tests[1].assertions
        );
    }

    #[test]
    fn mockall_returns_and_expectations() {
        let file = model(
            "#[test]\nfn t() {\n    let mut store = MockStore::new();\n    store.expect_get().times(1).returning(|_| 5);\n    store.expect_put().return_const(true);\n    assert_eq!(store.get(1), 5);\n}\n",
        );
        let t = &file.tests[0];
        let returns: Vec<(&str, &Literal)> = t.mock_returns.iter().map(|r| (r.callee.as_str(), &r.literal)).collect();
        assert_eq!(
            returns,
            vec![
                ("store.get", &Literal::Number(5.0)),
                ("store.put", &Literal::Bool(true))
            ]
        );
        assert_eq!(file.callback_spies, 1);
        assert_eq!(t.assertions.iter().filter(|a| a.matcher == "expect").count(), 2);
    }

    #[test]
    fn unchecked_results_and_helpers() {
        let file = model(
            r#"
fn check_total(c: &Cart) { assert_eq!(c.total(), 3); }
#[test]
fn via_helper() { let c = Cart::new(); check_total(&c); }
#[test]
fn drops_result() { let t = total(&cart()); }
#[test]
fn unwraps() { let t = parse("1").unwrap(); }
#[test]
fn prints() { let t = total(&cart()); println!("{t}"); }
"#,
        );
        assert_eq!(file.helpers, vec!["check_total", "via_helper"]);
        let u: Vec<&Unchecked> = file.tests.iter().map(|t| &t.unchecked).collect();
        assert_eq!(u[1].results, vec!["t"]);
        assert!(u[2].results.is_empty() && !u[2].inert);
        // What only goes into a print is shown, not checked.
        assert!(u[3].prints && u[3].results == vec!["t"]);
    }

    #[test]
    fn literals_with_suffixes() {
        assert_eq!(rust_number("5u32"), Some(5.0));
        assert_eq!(rust_number("1_000i64"), Some(1000.0));
        assert_eq!(rust_number("0xf32"), Some(3890.0));
        assert_eq!(rust_number("2.5f64"), Some(2.5));
        let file = model(
            "#[test]\nfn t() { let v = vec![1, 2, 3,]; let w = vec![0; 4]; let s = \"a\"; assert_eq!(v.len(), 3); assert_eq!(s, w); }\n",
        );
        let b: Vec<(&str, &Literal)> = file.tests[0]
            .bindings
            .iter()
            .filter_map(|b| Some((b.name.as_str(), b.literal.as_ref()?)))
            .collect();
        assert_eq!(b, vec![("s", &Literal::Str("a".into()))]);
    }

    #[test]
    fn files_without_test_attributes_are_not_read() {
        assert!(may_hold_tests(b"#[cfg(test)]\nmod tests {\n  #[test]\n  fn a() {}\n}"));
        assert!(may_hold_tests(b"#[tokio::test]\nasync fn a() {}"));
        assert!(may_hold_tests(b"#[rstest]\nfn a() {}"));
        assert!(!may_hold_tests(
            b"// #[testing] is not a test\nfn testable() {}\n#[derive(Debug)]\nstruct T;"
        ));
    }
}
