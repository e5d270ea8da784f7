//! JavaScript and TypeScript tests and their cases: `it`/`test` calls in
//! `describe` groups, hooks, helpers, `.each` tables and loops over literal
//! tables, and skips.

use super::*;

/// `const CASES = [...]` at the top level of the file: tables of cases.
pub(super) fn module_tables(root: &Node, source: &[u8]) -> Vec<String> {
    let mut out = Vec::new();
    for declarator in top_declarators(root) {
        if let (Some(name), Some(value)) = (declarator.field("name"), declarator.field("value").map(unwrap))
            && name.kind() == "identifier"
            && matches!(array(&value), Some(Literal::Collection(n)) if n > 0)
        {
            out.push(text(&name, source).into_owned());
        }
    }
    out
}

/// The declarators of the file's top-level `const`, `let` and `var`
/// declarations, exported or not.
pub(super) fn top_declarators<'a>(root: &Node<'a>) -> Vec<Node<'a>> {
    let mut out = Vec::new();
    let mut cursor = root.walk();
    for statement in root.named_children(&mut cursor) {
        let declaration = match statement.kind() {
            "export_statement" => statement.field("declaration"),
            "lexical_declaration" | "variable_declaration" => Some(statement),
            _ => None,
        };
        let Some(declaration) = declaration else { continue };
        let mut c = declaration.walk();
        out.extend(
            declaration
                .named_children(&mut c)
                .filter(|d| d.kind() == "variable_declarator"),
        );
    }
    out
}

/// The local names an import clause or a binding pattern introduces, each
/// with what it stands for in the module (`default`, `*`, or the export name).
pub(super) fn collect_bound(node: &Node, source: &[u8], origin: &str, out: &mut Vec<(String, String)>) {
    let name = |n: &Node| text(n, source).into_owned();
    match node.kind() {
        "identifier" => out.push((name(node), origin.to_string())),
        "shorthand_property_identifier_pattern" => out.push((name(node), name(node))),
        "import_specifier" => {
            if let Some(imported) = node.field("name") {
                let local = node.field("alias").unwrap_or(imported);
                out.push((name(&local), string_or_name(&imported, source)));
            }
        }
        "namespace_import" => {
            if let Some(local) = first_child(node) {
                out.push((name(&local), "*".to_string()));
            }
        }
        "pair_pattern" => {
            if let (Some(key), Some(value)) = (node.field("key"), node.field("value")) {
                collect_bound(&value, source, &string_or_name(&key, source), out);
            }
        }
        _ => {
            let mut cursor = node.walk();
            for child in node.named_children(&mut cursor) {
                collect_bound(&child, source, origin, out);
            }
        }
    }
}

/// A property or export name, written bare or quoted.
pub(super) fn string_or_name(node: &Node, source: &[u8]) -> String {
    let t = text(node, source);
    t.trim_matches(|c| c == '"' || c == '\'').to_string()
}

/// Every identifier in a binding target, each without a known value.
pub(super) fn identifiers(node: &Node, source: &[u8], out: &mut Vec<(String, Bound)>) {
    visit_named(*node, |n| {
        match n.kind() {
            "identifier" | "shorthand_property_identifier_pattern" => {
                out.push((text(&n, source).into_owned(), Bound::Other));
                return false;
            }
            // `obj.x = ..`, `a[i] = ..` bind no local name; types name no variable.
            "member_expression" | "subscript_expression" | "type_annotation" => return false,
            _ => {}
        }
        true
    });
}

/// A parameter of a test callback: a name, or the fields an object pattern
/// takes (`({ input, expected }) =>`).
pub(super) enum Param {
    Name(String),
    Fields(Vec<String>),
    Other,
}

pub(super) fn param(node: &Node, source: &[u8]) -> Param {
    let node = match node.kind() {
        // TypeScript: `(a: number)`, `({ a }: Case)`.
        "required_parameter" | "optional_parameter" => match node.field("pattern") {
            Some(p) => p,
            None => return Param::Other,
        },
        _ => *node,
    };
    match node.kind() {
        "identifier" => Param::Name(text(&node, source).into_owned()),
        "object_pattern" => {
            let mut cursor = node.walk();
            Param::Fields(
                node.named_children(&mut cursor)
                    .filter(|f| f.kind() == "shorthand_property_identifier_pattern")
                    .map(|f| text(&f, source).into_owned())
                    .collect(),
            )
        }
        _ => Param::Other,
    }
}

/// The cases of `it.each(table)(name, fn)` when `table` is a literal array:
/// an array row binds the callback's parameters by position, an object row
/// the fields its object pattern takes, any other row the only parameter.
/// Parameters the body rebinds (`occurrences` holds every binding, the
/// parameters' own included) are left out.
pub(super) fn each_cases(
    call: &Node,
    function: &Node,
    occurrences: &[(String, Bound)],
    source: &[u8],
) -> Vec<Vec<(String, String)>> {
    let Some(table) = call
        .field("function")
        .filter(|f| f.kind() == "call_expression")
        .and_then(|each| arguments(&each).into_iter().next())
        .filter(|t| t.kind() == "array")
    else {
        return Vec::new();
    };
    let params: Vec<Param> = match (function.field("parameter"), function.field("parameters")) {
        (Some(single), _) => vec![param(&single, source)],
        (None, Some(list)) => {
            let mut cursor = list.walk();
            list.named_children(&mut cursor)
                .filter(|p| p.kind() != COMMENT)
                .map(|p| param(&p, source))
                .collect()
        }
        (None, None) => return Vec::new(),
    };
    let once = |name: &str| crate::lang::not_rebound(occurrences, name);
    let fields = |object: &Node, names: &[String], case: &mut Vec<(String, String)>| {
        let mut cursor = object.walk();
        for pair in object.named_children(&mut cursor).filter(|p| p.kind() == "pair") {
            let (Some(key), Some(value)) = (pair.field("key"), pair.field("value")) else {
                continue;
            };
            let key = text(&key, source);
            let key = key.trim_matches(|c| matches!(c, '"' | '\'' | '`'));
            if let Some(name) = names.iter().find(|n| *n == key && once(n)) {
                case.push((name.clone(), token_key(&value, source)));
            }
        }
    };
    let mut cases = Vec::new();
    let mut cursor = table.walk();
    for row in table.named_children(&mut cursor).filter(|r| r.kind() != COMMENT) {
        let mut case = Vec::new();
        match (row.kind(), params.as_slice()) {
            ("array", _) => {
                let mut c = row.walk();
                let values: Vec<Node> = row.named_children(&mut c).filter(|v| v.kind() != COMMENT).collect();
                for (param, value) in params.iter().zip(&values) {
                    match param {
                        Param::Name(name) if once(name) => case.push((name.clone(), token_key(value, source))),
                        Param::Fields(names) if value.kind() == "object" => fields(value, names, &mut case),
                        _ => {}
                    }
                }
            }
            ("object", [Param::Fields(names), ..]) => fields(&row, names, &mut case),
            (_, [Param::Name(name)]) if once(name) => case.push((name.clone(), token_key(&row, source))),
            _ => {}
        }
        if !case.is_empty() {
            cases.push(case);
        }
        if cases.len() == crate::lang::MAX_CASES {
            break;
        }
    }
    cases
}

/// Names the file binds once, at its top level, to an array literal, with
/// it (`const cases = [[1, 2], [3, 4]]`, exported or not).
pub(super) fn module_literals<'a>(root: &Node<'a>, source: &[u8]) -> Vec<(String, Node<'a>)> {
    let mut bound = Vec::new();
    for declarator in top_declarators(root) {
        let Some(name) = declarator.field("name") else { continue };
        let value = declarator.field("value").map(unwrap).filter(|v| v.kind() == "array");
        let mut names = Vec::new();
        identifiers(&name, source, &mut names);
        for (n, _) in names {
            bound.push((n, value.filter(|_| name.kind() == "identifier")));
        }
    }
    crate::lang::literals_bound_once(bound)
}

impl<'s> Walker<'s, '_> {
    /// A comment ending on the line above a skip is its reason (JavaScript
    /// runners take no reason argument). Skips are rare: the comment is looked
    /// up when one is found, descending only into nodes that span that line.
    pub(super) fn comment_reason(&self, span: Span) -> Option<String> {
        let line = span.line.checked_sub(1)?;
        let mut found = None;
        visit_named(self.root, |n| {
            if found.is_some() {
                return false;
            }
            let s = Span::of(&n);
            if n.kind() == COMMENT && s.end_line == line {
                let body = text(&n, self.source)
                    .trim_start_matches("//")
                    .trim_start_matches("/*")
                    .trim_end_matches("*/")
                    .trim()
                    .to_string();
                found = Some(body);
            }
            s.line <= line && line <= s.end_line
        });
        found.filter(|c| !c.is_empty())
    }

    pub(super) fn visit(&mut self, node: &Node, group_skip: Option<&Skip>) {
        if node.kind() == "call_expression"
            && let Some(function) = node.field("function")
            && let Some(path) = callee_path(&function, self.source)
        {
            let head = path[0].as_str();
            // QUnit.test / .skip / .only / .todo, with `assert` as the test context.
            let qunit = head == "QUnit"
                && path
                    .get(1)
                    .is_some_and(|p| matches!(p.as_str(), "test" | "skip" | "only" | "todo"));
            // `test.beforeEach(..)`, `test.afterEach.always(..)`, `test.serial.before(..)`:
            // AVA's and node:test's lifecycle hooks set up tests; they are not tests.
            // node:test's mock tracker on the test function (`test.mock.method(
            // process, 'on', ..)`, `test.mock.fn()`) makes doubles, not tests.
            let hook = path[1..]
                .iter()
                .any(|p| HOOK_NAMES.contains(&p.as_str()) || p == "mock");
            if (TEST_NAMES.contains(&head) || qunit) && !hook {
                self.qunit |= qunit;
                self.remembered_test(node, &path, group_skip);
                return;
            }
            // Through a name bound to a test function (its hooks set tests up).
            if !hook
                && let Some(through) = self
                    .aliases
                    .iter()
                    .find(|a| a.name == head)
                    .and_then(|a| a.through(&path))
            {
                self.remembered_test(node, &through, group_skip);
                return;
            }
            // A project's own wrapper: `browserTest('title', async (t) => ..)`
            // with `browserTest` imported from a relative module.
            // Declared as a statement: `validator('json', () => ..)` handed to
            // a route is a value, not a test.
            let statement = node
                .parent()
                .map(|p| {
                    if p.kind() == "await_expression" {
                        p.parent()
                    } else {
                        Some(p)
                    }
                })
                .is_some_and(|p| p.is_some_and(|p| p.kind() == "expression_statement"));
            if statement && path.len() == 1 && self.wrappers.iter().any(|w| w == head) {
                let args = arguments(node);
                if args.len() >= 2 && self.string_value(&args[0]).is_some() && args.last().is_some_and(is_function) {
                    self.remembered_test(node, &["test".to_string()], group_skip);
                    return;
                }
            }
            if GROUP_NAMES.contains(&head) {
                let skipped = head.starts_with('x') || path.iter().any(|p| p == "skip");
                let own = skipped.then(|| {
                    let span = Span::of(node);
                    Skip {
                        span,
                        reason: self.comment_reason(span),
                        conditional: false,
                    }
                });
                let skip = own.as_ref().or(group_skip).cloned();
                let args = arguments(node);
                let title = args.first().map(|a| {
                    self.string_value(a)
                        .unwrap_or_else(|| text(a, self.source).into_owned())
                });
                self.groups.push(title.unwrap_or_default());
                for arg in args {
                    if is_function(&arg) {
                        // Vitest hands a group's callback the test function
                        // (`describe('x', (localTest) => { localTest(..) })`);
                        // `describe.each(rows)`'s callback, a row.
                        let handed = test_context(&arg, self.source)
                            .filter(|_| !path.iter().any(|p| p == "each"))
                            .map(|name| TestAlias {
                                name,
                                path: vec!["test".to_string()],
                                root: false,
                            });
                        let scoped = handed.is_some();
                        self.aliases.extend(handed);
                        self.visit(&arg, skip.as_ref());
                        if scoped {
                            self.aliases.pop();
                        }
                    }
                }
                self.groups.pop();
                return;
            }
        }
        self.helper(node);
        let mut cursor = node.walk();
        let children: Vec<Node> = node.named_children(&mut cursor).collect();
        for child in children {
            self.visit(&child, group_skip);
        }
    }

    /// Does the test's title (or its group's) say the compiler is its check
    /// ("has no type errors", "compiles")? What it builds and leaves unread
    /// is then the point: it is a smoke test, not a test that forgot to look.
    pub(super) fn compiler_checks(&self, title: Option<&str>) -> bool {
        const SAYS: &[&str] = &[
            "type error",
            "type-error",
            "typecheck",
            "type check",
            "type-check",
            "type-level",
            "type level",
            "only types",
            "compiles",
            "compile error",
            "compile-time",
            "compile time",
        ];
        title
            .into_iter()
            .chain(self.groups.iter().map(String::as_str))
            .any(|t| {
                let t = t.to_lowercase();
                SAYS.iter().any(|s| t.contains(s))
            })
    }

    /// The module of `require("x")`, `require("x").y`, `await import("x")`.
    pub(super) fn required(&self, value: &Node) -> Option<String> {
        let mut v = unwrap(*value);
        loop {
            match v.kind() {
                "await_expression" => v = first_child(&v)?,
                "member_expression" => v = v.field("object")?,
                _ => break,
            }
        }
        if v.kind() != "call_expression" {
            return None;
        }
        let callee = v.field("function")?;
        if !matches!(text(&callee, self.source).as_ref(), "require" | "import") {
            return None;
        }
        arguments(&v).first().and_then(|a| self.string_value(a))
    }

    /// Record a named function's body for helper detection. A helper handed
    /// the test context as a parameter (`t`, `ctx`, also as `{ t }`) asserts
    /// through it.
    pub(super) fn helper(&mut self, node: &Node) {
        let (name, function) = match node.kind() {
            "function_declaration" | "generator_function_declaration" => (node.field("name"), Some(*node)),
            "variable_declarator" => match node.field("value") {
                Some(v) if is_function(&v) => (node.field("name"), Some(v)),
                _ => return,
            },
            _ => return,
        };
        let body = function.and_then(|f| f.field("body"));
        if let (Some(name), Some(function), Some(body)) = (name, function, body) {
            let mut params = Vec::new();
            for field in ["parameters", "parameter"] {
                if let Some(list) = function.field(field) {
                    identifiers(&list, self.source, &mut params);
                }
            }
            let contexts: Vec<String> = params
                .into_iter()
                .map(|(name, _)| name)
                .filter(|name| matches!(name.as_str(), "t" | "ctx"))
                .collect();
            let scan = self.scan_in(&body, contexts, Vec::new());
            self.bodies.push((
                text(&name, self.source).into_owned(),
                !scan.assertions.is_empty(),
                scan.calls,
            ));
        }
    }

    /// Read a test, or recall it from the memo when the version before held
    /// the same text in the same groups. Skipped tests are read each time:
    /// their reason may be a comment outside the test; so are tests a loop
    /// declares, whose cases are its rows.
    pub(super) fn remembered_test(&mut self, call: &Node, path: &[String], group_skip: Option<&Skip>) {
        let looped = || in_a_loop(call, self.source);
        let Some(memo) = self.memo.as_deref_mut().filter(|_| group_skip.is_none() && !looped()) else {
            self.test(call, path, group_skip);
            return;
        };
        let scope = self.groups.join(" > ");
        let mut context = vec![scope.as_str()];
        context.extend(self.tables.iter().map(String::as_str));
        context.extend(self.wrappers.iter().map(String::as_str));
        // What each name bound to the test function stands for: `later`
        // bound to `test` then to `test.skip` declares another test.
        let aliases: Vec<String> = self
            .aliases
            .iter()
            .map(|a| format!("{}={}{}", a.name, a.path.join("."), if a.root { "()" } else { "" }))
            .collect();
        context.extend(aliases.iter().map(String::as_str));
        // Not an identifier: never a table's or a wrapper's name.
        if self.http_client {
            context.push("<http client>");
        }
        // The module-level tables the test names, as written: their rows are its cases.
        let named = crate::lang::named_literals(&self.source[call.byte_range()], &self.literals, self.source);
        for (name, literal) in &named {
            context.extend(["\u{1f}", name, literal]);
        }
        let key = Memo::key(call, call, self.source, &context);
        let row = call.start_position().row;
        if let Some(item) = memo.recall(&key, row) {
            self.file.tests.extend(item.tests);
            return;
        }
        let before = self.file.tests.len();
        self.test(call, path, None);
        let tests = &self.file.tests[before..];
        if tests.iter().all(|t| t.skip.is_none())
            && let Some(memo) = self.memo.as_deref_mut()
        {
            let item = Item {
                tests: tests.to_vec(),
                ..Item::default()
            };
            memo.remember(key, row, &item);
        }
    }

    pub(super) fn test(&mut self, call: &Node, path: &[String], group_skip: Option<&Skip>) {
        let args = arguments(call);
        if path.iter().any(|p| p == "todo") {
            return;
        }
        // uvu's `test.run()` (or a suite's `.run()`) starts the runner.
        if path.len() > 1 && path.last().is_some_and(|p| p == "run") && args.is_empty() {
            return;
        }
        let name = args.first().map(|a| {
            self.string_value(a)
                .unwrap_or_else(|| text(a, self.source).into_owned())
        });
        let span = Span::of(call);
        let mut skip = (path[0].starts_with('x') || path.iter().any(|p| p == "skip")).then(|| Skip {
            span,
            reason: self.comment_reason(span),
            conditional: path.iter().any(|p| p == "skipIf"),
        });
        // node:test options: test("name", { skip: "why" }, fn)
        if let Some(options) = args.iter().find(|a| a.kind() == "object") {
            skip = skip.or_else(|| self.option_skip(options, span));
        }
        // An ava macro (`test(title, macro, 'a', (f) => f)`), a function
        // the file declares, is given by reference: a function among the
        // arguments after it is the macro's (not `it(title, options, fn)`).
        let by_reference = args.get(1).is_some_and(|a| {
            a.kind() == "identifier" && declares_function(&self.root, &text(a, self.source), self.source)
        });
        let function = args.iter().rev().find(|a| is_function(a)).filter(|_| !by_reference);
        let Some(function) = function else {
            // A test given by reference cannot be read; one with no function at all is pending.
            if args.len() <= 1 {
                let skip = skip.unwrap_or(Skip {
                    span,
                    reason: self.comment_reason(span),
                    conditional: false,
                });
                self.file.tests.push(TestCase {
                    feature: None,
                    name: name.unwrap_or_default(),
                    scope: self.groups.join(" > "),
                    span,
                    skip: Some(skip),
                    empty: false,
                    assertions: Vec::new(),
                    calls: Vec::new(),
                    bindings: Vec::new(),
                    aliases: Vec::new(),
                    callables: Vec::new(),
                    locals: Vec::new(),
                    uses: Vec::new(),
                    mock_returns: Vec::new(),
                    benchmark: false,
                    mocks: Vec::new(),
                    unchecked: Unchecked::default(),
                    unfinished: Vec::new(),
                    syntax_error: None,
                    shape: Vec::new(),
                    extent: span,
                    cases: Vec::new(),
                    case_loops: Vec::new(),
                });
            }
            return;
        };
        let Some(body) = function.field("body") else {
            return;
        };
        let context = test_context(function, self.source);
        let mut occurrences = Vec::new();
        for field in ["parameters", "parameter"] {
            if let Some(params) = function.field(field) {
                identifiers(&params, self.source, &mut occurrences);
            }
        }
        let mut mock_returns = Vec::new();
        let mut uses = std::collections::BTreeSet::new();
        self.binding_occurrences(&body, &mut occurrences, &mut mock_returns, &mut uses);
        // A value named by a name the test binds twice may be another object where it is compared.
        mock_returns.retain(|r| match &r.value {
            Returned::Name(name) => crate::lang::not_rebound(&occurrences, name.split('.').next().unwrap_or(name)),
            _ => true,
        });
        // Table-driven tests: a local bound once to a non-empty array, or a
        // module-level one the test does not rebind.
        let mut tables = single_nonempty_collections(&occurrences);
        tables.extend(
            self.tables
                .iter()
                .filter(|t| !occurrences.iter().any(|(name, _)| name == *t))
                .cloned(),
        );
        let mut scan = self.scan_in(&body, context.into_iter().collect(), tables);
        // A test of nothing but type declarations that instantiate the
        // project's generics: compiling them is the check.
        if scan.assertions.is_empty() && only_instantiating_types(&body, self.source) {
            scan.assertions.push(type_check(&body));
        }
        let empty = body.kind() == "statement_block" && {
            let mut cursor = body.walk();
            body.named_children(&mut cursor).all(|c| c.kind() == COMMENT)
        };
        skip = skip
            .or(scan.skip.take())
            .or_else(|| crate::lang::tree::returns_first(&body))
            .or_else(|| group_skip.cloned());
        let unchecked = if scan.assertions.is_empty() && !self.compiler_checks(name.as_deref()) {
            unchecked(&body, self.source, &occurrences, &UNCHECKED, |callee| {
                callee.starts_with("console.")
            })
        } else {
            Unchecked::default()
        };
        let (mut cases, mut case_loops) = (each_cases(call, function, &occurrences, self.source), Vec::new());
        if cases.is_empty() {
            (cases, case_loops) = loop_cases(&body, &self.literals, &occurrences, self.source);
        }
        if cases.is_empty() {
            cases = enclosing_loop_cases(call, &self.literals, &occurrences, self.source);
        }
        let callables = crate::lang::bindings::single_callables(&occurrences, &scan.calls);
        self.file.tests.push(TestCase {
            feature: None,
            name: name.unwrap_or_default(),
            scope: self.groups.join(" > "),
            span,
            skip,
            empty,
            assertions: scan.assertions,
            calls: scan.calls,
            bindings: plain_bindings(&occurrences),
            aliases: single_call_aliases(&occurrences),
            callables,
            locals: single_locals(&occurrences),
            uses: uses.into_iter().collect(),
            mock_returns,
            benchmark: false,
            mocks: Vec::new(),
            unchecked,
            unfinished: scan.unfinished,
            syntax_error: first_syntax_error(&body),
            shape: crate::lang::shape(&body, self.source),
            extent: span,
            cases,
            case_loops,
        });
    }

    /// Every place a name is bound in `node`: declarations (with the literal
    /// when the initializer is one), assignments, updates, loop variables.
    /// Mocks configured to return a literal (`returns`) are collected in the same walk.
    /// Every name referenced goes into `uses`.
    pub(super) fn binding_occurrences(
        &self,
        node: &Node,
        out: &mut Vec<(String, Bound)>,
        returns: &mut Vec<MockReturn>,
        uses: &mut std::collections::BTreeSet<String>,
    ) {
        visit_named(*node, |n| {
            self.mock_return_at(n, returns);
            if matches!(n.kind(), "identifier" | "shorthand_property_identifier") {
                note_name(&n, self.source, uses);
            }
            match n.kind() {
                "variable_declarator" => {
                    if let Some(name) = n.field("name") {
                        if name.kind() == "identifier" {
                            // `const hs256: SymmetricAlgorithm = 'HS256'`: the
                            // compiler checks the literal against the type.
                            let typed = n.field("type").is_some_and(|t| names_a_type(&t, self.source))
                                || n.field("value").is_some_and(|v| cast_to_named_type(v, self.source));
                            let value = n.field("value").map(unwrap);
                            let value = bound(
                                value.and_then(|v| self.literal(&v).filter(|_| !typed).or_else(|| array(&v))),
                                value.and_then(|v| chain(&v, self.source)),
                                &n,
                                node,
                            );
                            out.push((text(&name, self.source).into_owned(), value));
                        } else if name.kind() == "object_pattern"
                            && let Some(object) = n.field("value").and_then(|v| chain(&unwrap(v), self.source))
                        {
                            self.destructured(&name, &object, &n, node, out);
                        } else {
                            identifiers(&name, self.source, out);
                        }
                    }
                }
                // `name = "draft"` in the test's own body rebinds like a declaration.
                "assignment_expression" => match n.field("left") {
                    Some(left) if left.kind() == "identifier" => {
                        let value = n.field("right").map(unwrap);
                        let value = bound(
                            value.and_then(|v| self.literal(&v)),
                            value.and_then(|v| chain(&v, self.source)),
                            &n,
                            node,
                        )
                        .assigned();
                        out.push((text(&left, self.source).into_owned(), value));
                    }
                    Some(left) => identifiers(&left, self.source, out),
                    None => {}
                },
                "augmented_assignment_expression" => {
                    if let Some(left) = n.field("left") {
                        identifiers(&left, self.source, out);
                    }
                }
                "update_expression" => {
                    if let Some(arg) = n.field("argument") {
                        identifiers(&arg, self.source, out);
                    }
                }
                "for_in_statement" => {
                    if let Some(left) = n.field("left") {
                        identifiers(&left, self.source, out);
                    }
                }
                _ => {}
            }
            true
        });
    }

    /// `const { get, api: { fetch } } = ctx`: each name bound to the chain it
    /// takes (`ctx.get`, `ctx.api.fetch`); a default, a rest or a computed
    /// key binds a name with no known value.
    fn destructured(&self, pattern: &Node, object: &str, at: &Node, body: &Node, out: &mut Vec<(String, Bound)>) {
        let mut cursor = pattern.walk();
        for part in pattern.named_children(&mut cursor) {
            match part.kind() {
                "shorthand_property_identifier_pattern" => {
                    let name = text(&part, self.source).into_owned();
                    out.push((name.clone(), bound(None, Some(format!("{object}.{name}")), at, body)));
                }
                "pair_pattern" => match (part.field("key"), part.field("value")) {
                    (Some(key), Some(value)) if key.kind() == "property_identifier" => {
                        let chain = format!("{object}.{}", text(&key, self.source));
                        match value.kind() {
                            "identifier" => {
                                out.push((
                                    text(&value, self.source).into_owned(),
                                    bound(None, Some(chain), at, body),
                                ));
                            }
                            "object_pattern" => self.destructured(&value, &chain, at, body, out),
                            _ => identifiers(&value, self.source, out),
                        }
                    }
                    _ => identifiers(&part, self.source, out),
                },
                _ => identifiers(&part, self.source, out),
            }
        }
    }

    pub(super) fn option_skip(&self, options: &Node, span: Span) -> Option<Skip> {
        let mut cursor = options.walk();
        for pair in options.named_children(&mut cursor).filter(|p| p.kind() == "pair") {
            let key = pair
                .field("key")
                .map(|k| text(&k, self.source).trim_matches(['"', '\'']).to_string());
            let value = pair.field("value")?;
            if key.as_deref() == Some("skip") && value.kind() != "false" {
                let reason = self.string_value(&value).or_else(|| self.comment_reason(span));
                return Some(Skip {
                    span,
                    reason: reason.filter(|r| !r.trim().is_empty()),
                    conditional: false,
                });
            }
        }
        None
    }

    pub(super) fn string_value(&self, node: &Node) -> Option<String> {
        match node.kind() {
            "string" => {
                let mut cursor = node.walk();
                Some(
                    node.named_children(&mut cursor)
                        .map(|c| text(&c, self.source).into_owned())
                        .collect(),
                )
            }
            "template_string" => {
                let mut cursor = node.walk();
                if node
                    .named_children(&mut cursor)
                    .any(|c| c.kind() == "template_substitution")
                {
                    return None;
                }
                let raw = text(node, self.source);
                Some(raw.trim_matches('`').to_string())
            }
            _ => None,
        }
    }
}

/// Does the file declare `name`, at its top, as a function (`function
/// name(..)`, `const name = (..) => ..`)?
fn declares_function(root: &Node, name: &str, source: &[u8]) -> bool {
    let named = |n: Option<Node>| n.is_some_and(|n| text(&n, source) == name);
    let mut cursor = root.walk();
    let declared = root.named_children(&mut cursor).any(|statement| {
        let statement = statement
            .field("declaration")
            .filter(|_| statement.kind() == "export_statement")
            .unwrap_or(statement);
        statement.kind() == "function_declaration" && named(statement.field("name"))
    });
    declared
        || top_declarators(root)
            .iter()
            .any(|d| named(d.field("name")) && d.field("value").is_some_and(|v| is_function(&v)))
}
