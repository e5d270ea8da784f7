//! Rust tests and their cases: `#[test]` functions (and `tokio`, `rstest`
//! and friends), `#[cfg(test)]` modules, helpers, table-driven loops over
//! constant tables, `rstest` cases, and `#[ignore]`.

use super::*;

/// A digest of the file without its tests (`tests` sorted by start, a test
/// module holding the tests in it): two versions whose digests differ
/// changed code, not only tests.
pub(super) fn digest(source: &[u8], tests: &[std::ops::Range<usize>]) -> String {
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
pub(super) fn constant_tables(root: &Node, source: &[u8]) -> Vec<String> {
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
pub(super) fn constant_literals<'a>(root: &Node<'a>, source: &[u8]) -> Vec<(String, Node<'a>)> {
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
    crate::lang::literals_bound_once(bound)
}

/// The array a loop over `value` runs over, when it is written there:
/// `[..]`, `&[..]`, `[..].iter()`, `.into_iter()`, `.iter().copied()`.
pub(super) fn table_rows_of<'a>(value: Node<'a>, source: &[u8]) -> Option<Node<'a>> {
    let mut value = unwrap_rust(value);
    loop {
        match value.kind() {
            "array_expression" => return Some(value),
            // `vec![..]` of rows, read as the array it holds ([`vec_rows`]).
            "macro_invocation"
                if value.field("macro").is_some_and(|m| text(&m, source) == "vec")
                    && text(&value, source).trim_end().ends_with(']') =>
            {
                return Some(value);
            }
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
/// `c.1` .. of a tuple row, `c.want` of a struct row and a plain value
/// (`"foo bar"`, `-8`) itself: a list of inputs the same checks run on. A
/// row of another shape is not read; loops over several tables give each
/// table's cases to the checks inside its loops ([`crate::lang::one_table`]).
/// A name the body rebinds is not the row's value.
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
        ("for_expression", "pattern"),
        |pattern, out| pattern_names(pattern, source, out),
        &["function_item", "token_tree"],
    );
    let mut tables = Vec::new();
    visit_named(*body, |n| {
        if n.kind() == "for_expression"
            && let (Some(pattern), Some(value)) = (n.field("pattern"), n.field("value"))
            && let Some(table) = loop_table(body, value, module, occurrences, source)
            && let Some(cases) = match table.kind() {
                "macro_invocation" => vec_rows(&pattern, &table, occurrences, source),
                _ => loop_rows(&pattern, &table, occurrences, source),
            }
        {
            tables.push((text(&table, source).into_owned(), Span::of(&n), cases));
        }
        !matches!(n.kind(), "function_item" | "token_tree")
    });
    crate::lang::one_table(tables)
}

/// The array a loop over `value` runs over: written there, the value of
/// the one `let` of that name in `body`, or (the body binding it nowhere)
/// the file's table of that name.
pub(super) fn loop_table<'a>(
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
    crate::lang::table_named(&name, occurrences, module, || {
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

/// The cases of a `vec![..]` table (`let data = vec![("f", "Zg=="), ..];`
/// then `for (orig, encoded) in &data`) as the loop's `pattern` reads each
/// row: the macro's tokens parsed as the items they write.
fn vec_rows(
    pattern: &Node,
    table: &Node,
    occurrences: &[(String, Bound)],
    source: &[u8],
) -> Option<Vec<Vec<(String, String)>>> {
    with_macro_args(table, source, |rows, written| {
        rows_read(pattern, rows, occurrences, (source, written))
    })
    .flatten()
}

/// The cases of `table` as the loop's `pattern` reads each row.
pub(super) fn loop_rows(
    pattern: &Node,
    table: &Node,
    occurrences: &[(String, Bound)],
    source: &[u8],
) -> Option<Vec<Vec<(String, String)>>> {
    rows_read(pattern, &named(table), occurrences, (source, source))
}

/// A node's named children but comments.
fn named<'a>(node: &Node<'a>) -> Vec<Node<'a>> {
    let mut c = node.walk();
    node.named_children(&mut c).filter(|v| !v.is_comment()).collect()
}

/// The cases of `rows` (of `rows_source`) as the loop's `pattern` (of
/// `source`) reads each.
fn rows_read(
    pattern: &Node,
    rows: &[Node],
    occurrences: &[(String, Bound)],
    (source, rows_source): (&[u8], &[u8]),
) -> Option<Vec<Vec<(String, String)>>> {
    let mut pattern = *pattern;
    while matches!(pattern.kind(), "reference_pattern" | "ref_pattern") {
        pattern = first_child(&pattern)?;
    }
    let mut cases = Vec::new();
    for &row in rows {
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
                    .map(|(name, value)| (text(name, source).into_owned(), token_key(&value, rows_source)))
                    .collect()
            }
            ("identifier", "tuple_expression") => {
                let one = text(&pattern, source);
                named(&row)
                    .iter()
                    .enumerate()
                    .map(|(i, value)| (format!("{one} . {i}"), token_key(value, rows_source)))
                    .collect()
            }
            ("identifier", "struct_expression") => {
                let one = text(&pattern, source);
                let Some(list) = row.field("body") else { continue };
                named(&list)
                    .iter()
                    .filter(|f| f.kind() == "field_initializer")
                    .filter_map(|f| {
                        let field = text(&f.field("field")?, rows_source).into_owned();
                        Some((format!("{one} . {field}"), token_key(&f.field("value")?, rows_source)))
                    })
                    .collect()
            }
            // A list of plain values, each an input the same checks run on.
            ("identifier", _) if plain_value(&row) => {
                vec![(text(&pattern, source).into_owned(), token_key(&row, rows_source))]
            }
            // A list of values not all plain binds no known value.
            ("identifier", kind) if !matches!(kind, "tuple_expression" | "struct_expression") => return None,
            _ => continue,
        };
        cases.push(case);
        if cases.len() == crate::lang::MAX_CASES {
            break;
        }
    }
    crate::lang::loop_table_cases(cases, occurrences)
}

/// The attributes directly above `item` (skipping comments).
pub(super) fn attributes<'a>(item: &Node<'a>) -> Vec<Node<'a>> {
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
pub(super) fn attribute_path<'a>(item: &Node<'a>, source: &[u8]) -> Option<(String, Node<'a>)> {
    let attribute = first_child(item)?;
    let path = first_child(&attribute)?;
    Some((callee_key(&text(&path, source)), attribute))
}

pub(super) fn last_segment(path: &str) -> &str {
    path.rsplit("::").next().unwrap_or(path)
}

/// Is this attribute list a `#[cfg(test)]` (or `#[cfg(any(test, ..))]`)?
pub(super) fn cfg_test(attributes: &[Node], source: &[u8]) -> bool {
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

/// The Cargo features a `#[cfg(..)]` among `attributes` requires
/// (`feature = "x"`, also inside `all(..)`; not under `any(..)` or
/// `not(..)`, which other settings satisfy), with the attribute's span.
pub(super) fn cfg_feature(attributes: &[Node], source: &[u8]) -> Option<(Vec<String>, Span)> {
    fn required(tree: &Node, source: &[u8], out: &mut Vec<String>) {
        let mut cursor = tree.walk();
        let tokens: Vec<Node> = tree.children(&mut cursor).collect();
        for (i, token) in tokens.iter().enumerate() {
            let next = |k: usize| tokens.get(i + k);
            match (token.kind(), text(token, source).as_ref()) {
                ("identifier", "feature")
                    if next(1).is_some_and(|t| t.kind() == "=")
                        && next(2).is_some_and(|t| t.kind() == "string_literal") =>
                {
                    if let Some(literal) = next(2) {
                        out.push(text(literal, source).trim_matches('"').to_string());
                    }
                }
                ("identifier", "all") => {
                    if let Some(inner) = next(1).filter(|t| t.kind() == "token_tree") {
                        required(inner, source, out);
                    }
                }
                _ => {}
            }
        }
    }
    attributes.iter().find_map(|a| {
        let (path, attribute) = attribute_path(a, source)?;
        if path != "cfg" {
            return None;
        }
        let mut features = Vec::new();
        required(&attribute.field("arguments")?, source, &mut features);
        (!features.is_empty()).then(|| (features, Span::of(a)))
    })
}

/// Where the items being read stand, and where what they hold goes.
pub(super) struct Items<'a, 'm> {
    pub(super) source: &'a [u8],
    /// The `const` and `static` tables of the file.
    pub(super) tables: &'a [String],
    /// Of the file's `const` and `static` items, those bound once to an
    /// array, with it: the rows a table-driven test may loop over.
    pub(super) literals: &'a [(String, Node<'a>)],
    /// The file's assertion macros ([`Expansion`]).
    pub(super) expansions: std::rc::Rc<[Expansion]>,
    pub(super) file: &'a mut TestFile,
    pub(super) bodies: Vec<Body>,
    /// The byte ranges of tests and test modules.
    pub(super) code: Vec<std::ops::Range<usize>>,
    pub(super) memo: Option<&'m mut Memo>,
}

impl Items<'_, '_> {
    /// Read the items of a module body (or the file): tests, helpers, nested modules.
    pub(super) fn read(&mut self, body: &Node, scope: &str) {
        let source = self.source;
        let start = self.file.tests.len();
        let mut cursor = body.walk();
        for item in body.named_children(&mut cursor) {
            match item.kind() {
                "function_item" => {
                    let attrs = attributes(&item);
                    let first = attrs.first().unwrap_or(&item);
                    let (tables, literals) = (self.tables, self.literals);
                    let expansions = self.expansions.clone();
                    let before = self.file.tests.len();
                    let read = self.function(first, &item, scope, |def| {
                        read_function(def, source, (tables, literals), expansions, scope)
                    });
                    if !read.tests.is_empty() {
                        self.code.push(first.start_byte()..item.end_byte());
                    }
                    self.built_with(before, cfg_feature(&attrs, source));
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
                    self.built_with(before, cfg_feature(&attrs, source));
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
        // `#![cfg(feature = "x")]` on the file (an integration test) or module.
        let mut cursor = body.walk();
        let inner: Vec<Node> = body
            .named_children(&mut cursor)
            .filter(|c| c.kind() == "inner_attribute_item")
            .collect();
        self.built_with(start, cfg_feature(&inner, source));
    }

    /// The tests read since the `from`th are compiled only with `feature`,
    /// unless something nearer them said so first.
    fn built_with(&mut self, from: usize, feature: Option<(Vec<String>, Span)>) {
        let Some(feature) = feature else { return };
        for test in self.file.tests.iter_mut().skip(from) {
            test.feature.get_or_insert_with(|| feature.clone());
        }
    }

    /// The tests a `macro_rules!` declares (`#[test] fn get_u8() {..}` in a
    /// rule's body) run wherever it is invoked: each rule's body is read as
    /// items where it stands, with its metavariables (`$make`) as names
    /// (`_make`). A test named by a metavariable is a template, not a test.
    pub(super) fn macro_tests(&mut self, def: &Node, scope: &str) {
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
                expansions: self.expansions.clone(),
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
    pub(super) fn function(&mut self, first: &Node, def: &Node, scope: &str, read: impl FnOnce(&Node) -> Item) -> Item {
        let item = match self.memo.as_deref_mut() {
            None => read(def),
            Some(memo) => {
                let mut context = vec![scope];
                context.extend(self.tables.iter().map(String::as_str));
                let written = &self.source[def.byte_range()];
                // The file's tables the function names, as written: their rows are its cases.
                let named = crate::lang::named_literals(written, self.literals, self.source);
                for (name, literal) in &named {
                    context.extend(["\u{1f}", name, literal]);
                }
                // The assertion macros it may invoke, as written: they make
                // its checks. Their names searched once each, whatever
                // spacing comes before the `!`.
                let invoked: Vec<String> = self
                    .expansions
                    .iter()
                    .filter(|e| memchr::memmem::find(written, e.name.as_bytes()).is_some())
                    .map(Expansion::key)
                    .collect();
                context.extend(invoked.iter().map(String::as_str));
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
pub(super) fn helper(def: &Node, source: &[u8]) -> Option<Body> {
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
pub(super) fn read_function(
    def: &Node,
    source: &[u8],
    (constants, literals): (&[String], &[(String, Node)]),
    expansions: std::rc::Rc<[Expansion]>,
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
    scan.expansions = expansions;
    scan.walk(&body, source);
    // A test that must panic passes by a `panic!` of its own: no check, a
    // way to pass where it cannot run (arrayvec 812c83a: "does not work on
    // this platform").
    if paths.iter().any(|(p, _)| p == "should_panic") {
        scan.assertions.retain(|a| {
            !(matches!(a.form, Form::Fail) && matches!(a.matcher.as_str(), "panic" | "unreachable" | "matches"))
        });
    }
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
    let (mut cases, mut case_loops) = (rstest_cases(def, &paths, &occurrences, source), Vec::new());
    if cases.is_empty() {
        (cases, case_loops) = loop_cases(&body, literals, &occurrences, source);
    }
    out.tests.push(TestCase {
        feature: None,
        name,
        scope: scope.to_string(),
        span: Span::of(&name_node),
        skip,
        empty: is_empty_block(&body),
        assertions: scan.assertions,
        calls: scan.calls,
        bindings: plain_bindings(&occurrences),
        aliases: single_call_aliases(&occurrences),
        callables: Vec::new(),
        locals: Vec::new(),
        uses: scan.used.into_iter().collect(),
        mock_returns: scan.mock_returns,
        benchmark,
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

/// The cases of an rstest test: each `#[case(..)]` (or `#[case::name(..)]`)
/// binds, in order, the parameters marked `#[case]` that the body does not
/// rebind.
pub(super) fn rstest_cases(
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
    let once = |name: &str| crate::lang::not_rebound(occurrences, name);
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
        if cases.len() == crate::lang::MAX_CASES {
            break;
        }
    }
    cases
}

/// The comma-separated items of a token tree (`(1, "a", vec![2])`), each as
/// its tokens joined the way [`token_key`] joins them.
pub(super) fn token_tree_items(tree: &Node, source: &[u8]) -> Vec<String> {
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
pub(super) fn holds_ignore(args: &Node, source: &[u8]) -> bool {
    let mut cursor = args.walk();
    args.children(&mut cursor)
        .skip(2)
        .any(|c| c.kind() == "identifier" && text(&c, source) == "ignore")
}

pub(super) fn is_empty_block(block: &Node) -> bool {
    let mut cursor = block.walk();
    block.named_children(&mut cursor).all(|c| COMMENTS.contains(&c.kind()))
}

/// Is `node` one plain value: a string, byte string or character literal,
/// a number (negated or not) or a boolean?
fn plain_value(node: &Node) -> bool {
    matches!(
        node.kind(),
        "string_literal"
            | "raw_string_literal"
            | "char_literal"
            | "integer_literal"
            | "float_literal"
            | "boolean_literal"
            | "negative_literal"
    ) || node.kind() == "unary_expression"
        && first_child(node).is_some_and(|a| matches!(a.kind(), "integer_literal" | "float_literal"))
}
