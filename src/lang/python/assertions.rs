//! Assertions in Python test bodies: `assert`, `pytest.raises`, unittest's
//! `self.assert*`, the guards around them and what they check.

use super::*;

/// The unittest checks that, given no callable, return a context manager.
pub(super) const RAISE_CONTEXTS: &[&str] = &[
    "assertRaises",
    "assertRaisesRegex",
    "assertWarns",
    "assertWarnsRegex",
    "assertLogs",
    "assertNoLogs",
];

#[derive(Default)]
pub(super) struct BodyScan {
    /// The guard of the node being visited.
    pub(super) guard: Guard,
    /// Names holding non-empty literal collections (see [`function`]).
    pub(super) tables: Vec<String>,
    pub(super) assertions: Vec<Assertion>,
    pub(super) calls: Vec<String>,
    pub(super) skip: Option<Skip>,
    /// The guard of each `try` visited, by node id: a failure in its `else`
    /// runs as the `try` does ([`expected_raise`]).
    pub(super) tries: Vec<(usize, Guard)>,
    /// The guard of each `if` visited, by node id: a failure in its body
    /// has the `if`'s condition as its check ([`BodyScan::failure`]).
    pub(super) ifs: Vec<(usize, Guard)>,
    pub(super) unfinished: Vec<Unfinished>,
}

impl BodyScan {
    /// The form of an explicit failure `statement`: [`Form::FailUnless`]
    /// directly in the body of an `if` (`if got != want: pytest.fail()`),
    /// whose condition is then the check and whose own guard becomes the
    /// failure's; [`Form::Fail`] anywhere else.
    pub(super) fn failure(&mut self, statement: &Node, source: &[u8]) -> Form {
        let Some((condition, guard)) = crate::lang::checking_condition(statement, &self.ifs) else {
            return Form::Fail;
        };
        self.guard = guard;
        Form::FailUnless(Box::new(demanded(condition, source)))
    }

    pub(super) fn walk(&mut self, node: &Node, source: &[u8]) {
        let mut stack = vec![(*node, Guard::default())];
        let mut cursor = node.walk();
        while let Some((n, guard)) = stack.pop() {
            self.guard = guard;
            match n.kind() {
                "try_statement" => self.tries.push((n.id(), guard)),
                "if_statement" => self.ifs.push((n.id(), guard)),
                _ => {}
            }
            match n.kind() {
                COMMENT | "string" => continue,
                "assert_statement" => {
                    let condition = first_child(&n)
                        .map(|c| text(&c, source).into_owned())
                        .unwrap_or_default();
                    // `assert False` last in a `try` whose handler expects an
                    // exception is the `raises(E)` check of the pre-pytest idiom.
                    if matches!(condition.as_str(), "False" | "0") && self.raised(&n, &n, source) {
                        continue;
                    }
                    // `except E: assert True` marks the path taken; it checks
                    // nothing and pretends nothing.
                    if condition == "True"
                        && n.parent()
                            .and_then(|b| b.parent())
                            .is_some_and(|c| c.kind() == "except_clause")
                    {
                        continue;
                    }
                    // A chain `a == b == c` is `a == b and b == c`: a check each.
                    if let Some(links) = first_child(&n).and_then(|c| chained(c, Span::of(&n), self.guard, source)) {
                        self.assertions.extend(links);
                        continue;
                    }
                    let (matcher, parts) = first_child(&n).map(|c| assert_check(&c, source)).unwrap_or_default();
                    // `assert False, "why"` is an explicit failure, as `pytest.fail("why")` is.
                    let form = if matches!(condition.as_str(), "False" | "0") {
                        self.failure(&n, source)
                    } else {
                        assert_form(&n, source)
                    };
                    self.assertions.push(Assertion {
                        span: Span::of(&n),
                        form,
                        matcher,
                        parts,
                        // The `if` around a failure lends it its guard.
                        guard: self.guard,
                        values: first_child(&n).map(|c| values(&c, source, COMMENT)).unwrap_or_default(),
                    });
                }
                "call" => self.call(&n, source),
                // A nose generator test's `yield (check, a, b)`: nose calls `check(a, b)`.
                "yield" => self.calls.extend(super::matchers::yielded_test(&n, source)),
                // `m.assert_called_once` or `self.assertTrue` named and not called.
                "expression_statement" => {
                    if let Some(attribute) = first_child(&n).filter(|e| e.kind() == "attribute")
                        && attribute.field("attribute").is_some_and(|a| {
                            text(&a, source)
                                .strip_prefix("assert")
                                .is_some_and(|rest| rest.starts_with(|c: char| c == '_' || c.is_ascii_uppercase()))
                        })
                    {
                        self.unfinished.push(Unfinished {
                            span: Span::of(&n),
                            text: display(&n, source),
                            lacks: "the assertion is not called".to_string(),
                        });
                    }
                }
                // `_: CoreSchema = {"type": "int"}`: a literal checked by the
                // type checker against a type of the project's.
                "assignment" if typed_literal(&n, source) && !has_ancestor_below(&n, node, PY_DEFINITIONS) => {
                    self.assertions
                        .push(Assertion::bare(Span::of(&n), Form::Other, "type", Guard::default()));
                }
                "raise_statement"
                    if first_child(&n).is_some_and(|e| text(&e, source).starts_with("AssertionError")) =>
                {
                    if self.raised(&n, &n, source) {
                        continue;
                    }
                    let form = self.failure(&n, source);
                    self.assertions
                        .push(Assertion::bare(Span::of(&n), form, "fail", self.guard));
                }
                _ => {}
            }
            if GUARDING.contains(&n.kind()) {
                let children: Vec<Node> = n.named_children(&mut cursor).collect();
                let guarded = child_guards(&n, &children, guard, &self.tables, source);
                stack.extend(children.into_iter().zip(guarded).rev());
            } else {
                // Children run as their parent does: no allocation for the common case.
                let start = stack.len();
                stack.extend(n.named_children(&mut cursor).map(|c| (c, guard)));
                stack[start..].reverse();
            }
        }
    }

    pub(super) fn call(&mut self, call: &Node, source: &[u8]) {
        let Some(function) = call.field("function") else {
            return;
        };
        let (receiver, name) = match function.kind() {
            "identifier" => (String::new(), text(&function, source).into_owned()),
            "attribute" => (
                function
                    .field("object")
                    .map(|o| text(&o, source).into_owned())
                    .unwrap_or_default(),
                function
                    .field("attribute")
                    .map(|a| text(&a, source).into_owned())
                    .unwrap_or_default(),
            ),
            _ => return,
        };
        // pytest 8.4's `RaisesGroup(E)`, `RaisesExc(E, match=..)`: `raises` checks; one in another's arguments is of it.
        let pytest8 = matches!(receiver.as_str(), "pytest" | "") && RAISING[2..].contains(&name.as_str());
        if pytest8 && call.parent().is_some_and(|p| p.kind() == "argument_list") {
            return self.calls.push(name);
        }
        let name = if pytest8 { "raises".to_string() } else { name };
        let args = positional_args(call);
        let on_self = receiver == "self" || receiver == "cls";
        if (receiver == "pytest" && name == "skip") || (on_self && name == "skipTest") {
            let reason = args
                .first()
                .and_then(|a| string_value(a, source))
                .or_else(|| keyword(call, "reason", source));
            let conditional = crate::lang::has_ancestor(
                call,
                &["if_statement", "conditional_expression"],
                &["function_definition"],
            );
            self.skip.get_or_insert(Skip {
                span: Span::of(call),
                reason: reason.filter(|r| !r.trim().is_empty()),
                conditional,
            });
        }
        // `pytest.raises(E)` or `self.assertRaises(E)` as a statement of its
        // own: the context manager it returns is never entered.
        let expects_raise = matches!(
            (receiver.as_str(), name.as_str()),
            ("pytest", "raises" | "warns" | "deprecated_call")
        ) || (on_self && RAISE_CONTEXTS.contains(&name.as_str()));
        if expects_raise
            && let Some(statement) = call.parent().filter(|p| p.kind() == "expression_statement")
            && args.len() <= usize::from(name != "deprecated_call") + usize::from(name.ends_with("Regex"))
        {
            self.calls.push(name);
            self.unfinished.push(Unfinished {
                span: Span::of(&statement),
                text: display(&statement, source),
                lacks: "it is not entered (`with`)".to_string(),
            });
            return;
        }
        let form = if on_self && name.starts_with("assert") {
            Some(unittest_form(&name, &args, source))
        } else if name == "fail" && (on_self || receiver == "pytest") {
            let statement = call.parent().filter(|p| p.kind() == "expression_statement");
            if statement.is_some_and(|statement| self.raised(call, &statement, source)) {
                self.calls.push(name);
                return;
            }
            Some(statement.map_or(Form::Fail, |statement| self.failure(&statement, source)))
        } else if name.starts_with("assert")
            || (on_self && name == "fail")
            || (matches!(receiver.as_str(), "pytest" | "")
                && matches!(name.as_str(), "raises" | "warns" | "fail" | "deprecated_call"))
            // Selenium's lookup raises NoSuchElementException: like testing-library's getBy*.
            || name == "find_element"
        {
            Some(Form::Other)
        } else {
            None
        };
        if let Some(form) = form {
            let values = call
                .field("arguments")
                .map(|a| values(&a, source, COMMENT))
                .unwrap_or_default();
            // Mock verification checks its receiver (`save.assert_called_with(1)`).
            let mut parts: Vec<String> = function
                .field("object")
                .filter(|_| !on_self && receiver != "pytest" && name.starts_with("assert"))
                .map(|o| token_key(&o, source))
                .into_iter()
                .collect();
            let raises = matches!(name.as_str(), "raises" | "warns");
            // pytest 9's `raises(E, check=lambda e: e.code == "x")`: the
            // lambda is a check of its own, on what was raised.
            let check = raises.then(|| raises_check(call, source)).flatten();
            parts.extend(
                argument_keys(call, source)
                    .into_iter()
                    .filter(|k| !(check.is_some() && k.starts_with("check = lambda"))),
            );
            self.assertions.push(Assertion {
                guard: self.guard,
                span: Span::of(call),
                form,
                matcher: name.clone(),
                parts,
                values,
            });
            if let Some((test, parameter)) = check {
                // `e.code == "x" and e.message == "y"`: each part is a check.
                for test in conjuncts(test, source) {
                    let (matcher, mut parts) = assert_check(&test, source);
                    for part in &mut parts {
                        *part = raised(part, &[parameter.as_str()], false);
                    }
                    self.assertions.push(Assertion {
                        guard: self.guard,
                        span: Span::of(&test),
                        form: test_form(test, source),
                        matcher,
                        parts,
                        values: crate::lang::values(&test, source, COMMENT),
                    });
                }
            }
        }
        self.calls.push(name);
    }
}

impl BodyScan {
    /// A failure `at` (statement `statement`) that says "this should have
    /// raised" ([`expected_raise`]) is read as the check it is, `raises(E)`,
    /// as pytest would write it, made where the `try` runs. Did it?
    pub(super) fn raised(&mut self, at: &Node, statement: &Node, source: &[u8]) -> bool {
        let Some((r#try, types)) = expected_raise(statement, source) else {
            return false;
        };
        let guard = self
            .tries
            .iter()
            .rev()
            .find(|(id, _)| *id == r#try.id())
            .map_or(self.guard, |(_, guard)| *guard);
        self.assertions.push(Assertion {
            span: Span::of(at),
            form: Form::Other,
            matcher: "raises".to_string(),
            parts: types,
            guard,
            values: Vec::new(),
        });
        true
    }
}

/// The idiom that predates `pytest.raises`: a failure in the `else` of a
/// `try` (or last in its body) whose handlers catch the expected error:
/// `try: f() except E: pass else: raise AssertionError(..)`. The `try` and
/// the types its handlers catch, as token keys; `None` when `statement` is
/// not such a failure, or when a handler would catch the failure itself
/// (a bare `except`, `Exception`, `AssertionError` around a failure in the body).
pub(super) fn expected_raise<'t>(statement: &Node<'t>, source: &[u8]) -> Option<(Node<'t>, Vec<String>)> {
    let block = statement.parent().filter(|b| b.kind() == "block")?;
    let holder = block.parent()?;
    let (r#try, in_body) = match holder.kind() {
        "else_clause" => (holder.parent().filter(|t| t.kind() == "try_statement")?, false),
        "try_statement" if holder.field("body").is_some_and(|b| b.id() == block.id()) => {
            let mut cursor = block.walk();
            let last = block
                .named_children(&mut cursor)
                .filter(|c| c.kind() != COMMENT)
                .last()?;
            (last.id() == statement.id()).then_some((holder, true))?
        }
        _ => return None,
    };
    let mut types = Vec::new();
    let mut cursor = r#try.walk();
    for clause in r#try
        .named_children(&mut cursor)
        .filter(|c| c.kind() == "except_clause")
    {
        let mut inner = clause.walk();
        let caught = clause
            .named_children(&mut inner)
            .find(|c| !matches!(c.kind(), "block" | COMMENT))?;
        let caught = match caught.kind() {
            "as_pattern" => first_child(&caught)?,
            _ => caught,
        };
        let names: Vec<Node> = match caught.kind() {
            "tuple" | "parenthesized_expression" => {
                let mut c = caught.walk();
                caught.named_children(&mut c).filter(|n| n.kind() != COMMENT).collect()
            }
            _ => vec![caught],
        };
        for name in names {
            let key = token_key(&name, source);
            let last = key.rsplit(' ').next().unwrap_or_default();
            if in_body && matches!(last, "Exception" | "BaseException" | "AssertionError") {
                return None;
            }
            types.push(key);
        }
    }
    (!types.is_empty()).then_some((r#try, types))
}

/// Definitions whose bodies are not the test's own statements.
pub(super) const PY_DEFINITIONS: &[&str] = &["function_definition", "class_definition", "lambda"];

/// Is an ancestor of `node` of one of `kinds`, below `top`?
pub(super) fn has_ancestor_below(node: &Node, top: &Node, kinds: &[&str]) -> bool {
    let mut at = node.parent();
    while let Some(p) = at {
        if p.id() == top.id() {
            return false;
        }
        if kinds.contains(&p.kind()) {
            return true;
        }
        at = p.parent();
    }
    false
}

/// Is this `name: T = <literal>` with `T` a type of its own (not `int`,
/// `dict[str, int]`, ...) and the literal not `None` (a variable declared
/// before it is set: `response: Response | None = None`)?
pub(super) fn typed_literal(assignment: &Node, source: &[u8]) -> bool {
    const BUILTIN: &[&str] = &[
        "int",
        "float",
        "complex",
        "str",
        "bytes",
        "bool",
        "dict",
        "list",
        "set",
        "frozenset",
        "tuple",
        "object",
        "Any",
        "None",
        "Dict",
        "List",
        "Set",
        "Tuple",
        "Optional",
        "Union",
    ];
    let (Some(annotation), Some(value)) = (assignment.field("type"), assignment.field("right")) else {
        return false;
    };
    let literal = matches!(
        value.kind(),
        "dictionary"
            | "list"
            | "set"
            | "tuple"
            | "string"
            | "concatenated_string"
            | "integer"
            | "float"
            | "true"
            | "false"
    );
    let head = text(&annotation, source);
    let head = head.split(['[', '|', ' ']).next().unwrap_or_default();
    // A string annotation is a forward reference, not a check made here.
    if head.starts_with(['"', '\'']) {
        return false;
    }
    let head = head.rsplit('.').next().unwrap_or_default();
    literal && !head.is_empty() && !BUILTIN.contains(&head)
}

/// The test a `check=lambda e: ..` argument of `pytest.raises` makes, and
/// the name it gives what was raised.
pub(super) fn raises_check<'a>(call: &Node<'a>, source: &[u8]) -> Option<(Node<'a>, String)> {
    let list = call.field("arguments")?;
    let mut cursor = list.walk();
    let lambda = list
        .named_children(&mut cursor)
        .filter(|a| a.kind() == "keyword_argument" && a.field("name").is_some_and(|n| text(&n, source) == "check"))
        .find_map(|a| a.field("value"))
        .filter(|v| v.kind() == "lambda")?;
    let parameters = lambda.field("parameters")?;
    let parameter = first_child(&parameters).filter(|p| p.kind() == "identifier")?;
    Some((lambda.field("body")?, text(&parameter, source).into_owned()))
}

/// The context managers whose `as` name holds what was raised or warned.
const RAISING: &[&str] = &["raises", "warns", "RaisesGroup", "RaisesExc"];

/// The names `with pytest.raises(..) as name` binds in `body`, and apart,
/// those an `except E as name` binds (what was raised itself).
pub(super) fn raises_aliases(body: &Node, source: &[u8]) -> (Vec<String>, Vec<String>) {
    let (mut infos, mut caught) = (Vec::new(), Vec::new());
    visit_named(*body, |n| {
        if n.kind() != "as_pattern" {
            return true;
        }
        let Some(alias) = n.field("alias").map(|a| text(&a, source).into_owned()) else {
            return true;
        };
        if n.parent().is_some_and(|p| p.kind() == "except_clause") {
            caught.push(alias);
        } else if first_child(&n).filter(|c| c.kind() == "call").is_some_and(|call| {
            call.field("function").is_some_and(|f| {
                text(&f, source)
                    .rsplit('.')
                    .next()
                    .is_some_and(|n| RAISING.contains(&n))
            })
        }) {
            infos.push(alias);
        }
        true
    });
    (infos, caught)
}

/// `key` with what was raised written one way, as pytest's documentation
/// writes it, `excinfo . value`: `exc_info . value` where `exc_info` is a
/// name `with pytest.raises(..) as` bound (`value` true), or the parameter
/// of a `check=` lambda (`value` false).
pub(super) fn raised(key: &str, names: &[&str], value: bool) -> String {
    const RAISED: [&str; 3] = ["excinfo", ".", "value"];
    let tokens: Vec<&str> = key.split(' ').collect();
    let mut out: Vec<&str> = Vec::with_capacity(tokens.len());
    let mut i = 0;
    while i < tokens.len() {
        let after_access = i > 0 && tokens[i - 1] == ".";
        let named = !after_access && names.contains(&tokens[i]);
        if named && !value {
            out.extend(RAISED);
            i += 1;
        } else if named && tokens.get(i + 1) == Some(&".") && tokens.get(i + 2) == Some(&"value") {
            out.extend(RAISED);
            i += 3;
        } else {
            out.push(tokens[i]);
            i += 1;
        }
    }
    out.join(" ")
}

/// Does this subtree assert?
pub(super) fn asserts(node: &Node, source: &[u8]) -> bool {
    let mut scan = BodyScan::default();
    scan.walk(node, source);
    !scan.assertions.is_empty()
}

/// The guard of each child of `node`, given the guard of `node`.
/// Does iterating `node` always yield something: a non-empty literal, a
/// table (`tables`), `table.items()`/`.values()`/`.keys()`, `enumerate`/
/// `sorted`/`reversed`/`list`/`tuple`/`zip` over tables, or `range(n)` with n > 0?
pub(super) fn nonempty_iterable(node: &Node, tables: &[String], source: &[u8]) -> bool {
    // `for env in original, overlay:` iterates a bare tuple.
    if literal(node, source).is_some_and(|l| l.truthy()) || node.kind() == "expression_list" {
        return true;
    }
    if chain(node, source).is_some_and(|key| tables.contains(&key)) {
        return true;
    }
    if node.kind() != "call" {
        return false;
    }
    let Some(function) = node.field("function") else {
        return false;
    };
    let args = positional_args(node);
    match function.kind() {
        "attribute" => {
            let method = function.field("attribute").map(|a| text(&a, source));
            matches!(method.as_deref(), Some("items" | "values" | "keys"))
                && args.is_empty()
                && function
                    .field("object")
                    .is_some_and(|o| nonempty_iterable(&o, tables, source))
        }
        "identifier" => match text(&function, source).as_ref() {
            "enumerate" | "sorted" | "reversed" | "list" | "tuple" | "zip" | "iter" => {
                !args.is_empty() && args.iter().all(|a| nonempty_iterable(a, tables, source))
            }
            // range(n), range(a, b) with literal bounds that yield something.
            "range" => {
                let bounds: Option<Vec<f64>> = args
                    .iter()
                    .map(|a| match literal(a, source) {
                        Some(Literal::Number(n)) => Some(n),
                        _ => None,
                    })
                    .collect();
                match bounds.as_deref() {
                    Some([n]) => *n > 0.0,
                    Some([a, b]) | Some([a, b, _]) => b > a,
                    _ => false,
                }
            }
            _ => false,
        },
        _ => false,
    }
}

/// The node kinds whose children may run under a different guard than they do.
pub(super) const GUARDING: &[&str] = &[
    "if_statement",
    "for_statement",
    "while_statement",
    "conditional_expression",
    "boolean_operator",
    "try_statement",
];

pub(super) fn child_guards(
    node: &Node,
    children: &[Node],
    guard: Guard,
    tables: &[String],
    source: &[u8],
) -> Vec<Guard> {
    let conditional = Guard {
        conditional: true,
        ..guard
    };
    let field = |name: &'static str| node.field(name).map(|c| c.id());
    // The child in field `name` runs only conditionally; the others as `node` does.
    let guarded = |name: &'static str| guards_where(children, guard, |c| Some(c.id()) != field(name));
    match node.kind() {
        "if_statement" => {
            // An `if` whose every branch (including an `else`) asserts asserts either way.
            let branches: Vec<&Node> = children
                .iter()
                .filter(|c| c.kind() != COMMENT && Some(c.id()) != field("condition"))
                .collect();
            let has_else = branches.iter().any(|b| b.kind() == "else_clause");
            let exhaustive = has_else && branches.iter().all(|b| asserts(b, source));
            let mut guards = guards_where(children, guard, |c| exhaustive || Some(c.id()) == field("condition"));
            crate::lang::guards::python2_branch(node, children, &mut guards, source);
            guards
        }
        "for_statement" => {
            let nonempty_literal = node
                .field("right")
                .is_some_and(|r| nonempty_iterable(&unwrap(r), tables, source));
            guards_where(children, guard, |c| nonempty_literal || Some(c.id()) != field("body"))
        }
        "while_statement" => guarded("body"),
        // `a if c else b`: only the condition (the second child) always runs.
        "conditional_expression" => {
            let condition = children.get(1).map(|c| c.id());
            guards_where(children, guard, |c| Some(c.id()) == condition)
        }
        "boolean_operator" => guarded("right"),
        "try_statement" => {
            let swallower = children
                .iter()
                .find(|c| c.kind() == "except_clause" && swallows(c, source));
            // `try: f(); pytest.fail("no error")`: a handler runs whenever the
            // test passes; `try: 1 / 0`: whenever the body runs.
            let expects_raise = node
                .field("body")
                .is_some_and(|b| ends_in_failure(&b, source) || raises_by_construction(&b, source));
            children
                .iter()
                .map(|c| match c.kind() {
                    "block" if Some(c.id()) == field("body") => Guard {
                        swallowed_by: swallower.map(Span::of).or(guard.swallowed_by),
                        ..guard
                    },
                    "except_clause" | "except_group_clause" if expects_raise => guard,
                    "except_clause" | "except_group_clause" => Guard {
                        caught: true,
                        ..conditional
                    },
                    "else_clause" => conditional,
                    _ => guard,
                })
                .collect()
        }
        _ => vec![guard; children.len()],
    }
}

/// Does `block` end in an explicit failure (`assert False`, `pytest.fail(..)`,
/// `self.fail(..)`, `raise AssertionError(..)`)? Then the `try` it is the
/// body of fails when nothing is raised.
pub(super) fn ends_in_failure(block: &Node, source: &[u8]) -> bool {
    let mut cursor = block.walk();
    let Some(last) = block.named_children(&mut cursor).filter(|c| c.kind() != COMMENT).last() else {
        return false;
    };
    match last.kind() {
        "assert_statement" => first_child(&last).is_some_and(|c| matches!(text(&c, source).as_ref(), "False" | "0")),
        "raise_statement" => first_child(&last).is_some_and(|e| text(&e, source).starts_with("AssertionError")),
        "expression_statement" => first_child(&last)
            .filter(|c| c.kind() == "call")
            .and_then(|c| c.field("function"))
            .is_some_and(|f| {
                matches!(
                    callee_key(&text(&f, source)).as_str(),
                    "pytest.fail" | "self.fail" | "fail"
                )
            }),
        _ => false,
    }
}

/// Does a statement of `block` always raise: a `raise`, a division by the
/// literal zero (`1 / 0`, the classic way to make an exception to catch), a
/// call of a function the test defines that always raises, or a `try` whose
/// body and handlers all raise? Then a handler of the `try` that `block` is
/// the body of always runs.
fn raises_by_construction(block: &Node, source: &[u8]) -> bool {
    always_raises(block, source, 3)
}

fn always_raises(block: &Node, source: &[u8], depth: u8) -> bool {
    let mut cursor = block.walk();
    let statements: Vec<Node> = block.named_children(&mut cursor).collect();
    statements.iter().any(|s| match s.kind() {
        "raise_statement" => true,
        "expression_statement" => {
            divides_by_zero(s, source)
                || (depth > 0
                    && first_child(s)
                        .filter(|c| c.kind() == "call")
                        .and_then(|c| c.field("function"))
                        .filter(|f| f.kind() == "identifier")
                        .and_then(|f| local_def(s, &text(&f, source), source))
                        .and_then(|def| def.field("body"))
                        .is_some_and(|body| always_raises(&body, source, depth - 1)))
        }
        "try_statement" => {
            let mut c = s.walk();
            let parts: Vec<Node> = s.named_children(&mut c).collect();
            s.field("body").is_some_and(|b| always_raises(&b, source, depth))
                && parts
                    .iter()
                    .filter(|p| matches!(p.kind(), "except_clause" | "except_group_clause"))
                    .all(|clause| {
                        let mut c = clause.walk();
                        let body = clause.named_children(&mut c).find(|p| p.kind() == "block");
                        body.is_some_and(|b| always_raises(&b, source, depth))
                    })
                && !parts.iter().any(|p| p.kind() == "else_clause")
        }
        _ => false,
    })
}

/// Does `statement` divide by the literal zero, outside a lambda (which
/// may never be called)?
fn divides_by_zero(statement: &Node, source: &[u8]) -> bool {
    let mut stack = vec![*statement];
    let mut seen = 0;
    while let Some(n) = stack.pop() {
        seen += 1;
        if seen > 64 {
            return false;
        }
        if n.kind() == "binary_operator"
            && n.field("operator")
                .is_some_and(|o| matches!(o.kind(), "/" | "//" | "%"))
            && n.field("right")
                .is_some_and(|r| r.kind() == "integer" && text(&r, source) == "0")
        {
            return true;
        }
        if n.kind() != "lambda" {
            let mut c = n.walk();
            stack.extend(n.named_children(&mut c));
        }
    }
    false
}

/// The function named `name` defined in a block around `at` (a helper the
/// test defines for itself), the nearest first.
fn local_def<'t>(at: &Node<'t>, name: &str, source: &[u8]) -> Option<Node<'t>> {
    let mut node = at.parent();
    while let Some(around) = node {
        if around.kind() == "block" {
            let mut c = around.walk();
            let found = around.named_children(&mut c).find_map(|d| {
                let def = match d.kind() {
                    "decorated_definition" => d.field("definition")?,
                    _ => d,
                };
                (def.kind() == "function_definition" && def.field("name").is_some_and(|n| text(&n, source) == name))
                    .then_some(def)
            });
            if found.is_some() {
                return found;
            }
        }
        node = around.parent();
    }
    None
}

/// Does this `except` clause catch an `AssertionError` and neither re-raise nor assert?
pub(super) fn swallows(clause: &Node, source: &[u8]) -> bool {
    let mut cursor = clause.walk();
    let parts: Vec<Node> = clause
        .named_children(&mut cursor)
        .filter(|c| c.kind() != COMMENT)
        .collect();
    let Some(body) = parts.iter().find(|p| p.kind() == "block") else {
        return false;
    };
    let catches = match parts.iter().find(|p| p.kind() != "block") {
        None => true,
        Some(types) => {
            let t = text(types, source);
            ["AssertionError", "Exception", "BaseException"].iter().any(|name| {
                t.split(|c: char| !c.is_alphanumeric() && c != '_')
                    .any(|word| word == *name)
            })
        }
    };
    catches
        && !asserts(body, source)
        && !contains_kind(body, "raise_statement", PY_FUNCTIONS)
        && !examined_later(clause, &parts, body, source)
}

/// The handler keeps the failure (`except AssertionError as e`,
/// `sys.exc_info()`) and the test asserts on it after the `try`: a test of
/// how an assertion fails, not a swallowed failure.
pub(super) fn examined_later(clause: &Node, parts: &[Node], body: &Node, source: &[u8]) -> bool {
    let captured = parts.iter().any(|p| p.kind() == "as_pattern") || {
        // `sys.exc_info()`, `traceback.format_exc()`: calls, not text in a comment.
        let mut found = false;
        visit_named(*body, |n| {
            found |= n.kind() == "call"
                && n.field("function")
                    .and_then(|f| chain(&f, source))
                    .is_some_and(|key| key.ends_with("exc_info") || key.ends_with("format_exc"));
            !found
        });
        found
    };
    let Some(try_statement) = clause.parent() else {
        return false;
    };
    let mut next = try_statement.next_named_sibling();
    while let Some(statement) = next {
        if captured && asserts(&statement, source) {
            return true;
        }
        next = statement.next_named_sibling();
    }
    false
}

/// What an `assert` statement checks: the operator (`==`, `not in`, `is`,
/// `not`, `isinstance`, or `truthy`) and its operands as [`token_key`]s.
pub(super) fn assert_check(test: &Node, source: &[u8]) -> (String, Vec<String>) {
    let test = unwrap(*test);
    let mut cursor = test.walk();
    match test.kind() {
        "comparison_operator" => {
            let mut operators = Vec::new();
            let mut parts = Vec::new();
            for child in test.children(&mut cursor).filter(|c| !c.is_extra()) {
                if child.is_named() {
                    parts.push(token_key(&child, source));
                } else {
                    operators.push(text(&child, source).into_owned());
                }
            }
            (operators.join(" "), parts)
        }
        "not_operator" => (
            "not".to_string(),
            test.field("argument")
                .map(|a| token_key(&a, source))
                .into_iter()
                .collect(),
        ),
        "call" if test.field("function").is_some_and(|f| text(&f, source) == "isinstance") => {
            ("isinstance".to_string(), argument_keys(&test, source))
        }
        _ => ("truthy".to_string(), vec![token_key(&test, source)]),
    }
}

/// A call's arguments as [`token_key`]s, keyword arguments whole
/// (`match = "x"`), without unittest's `msg`.
pub(super) fn argument_keys(call: &Node, source: &[u8]) -> Vec<String> {
    let Some(list) = call.field("arguments") else {
        return Vec::new();
    };
    let mut cursor = list.walk();
    list.named_children(&mut cursor)
        .filter(|a| a.kind() != COMMENT)
        .filter(|a| a.kind() != "keyword_argument" || a.field("name").is_none_or(|n| text(&n, source) != "msg"))
        .map(|a| token_key(&a, source))
        .collect()
}

pub(super) fn positional_args<'a>(call: &Node<'a>) -> Vec<Node<'a>> {
    let Some(list) = call.field("arguments") else {
        return Vec::new();
    };
    let mut cursor = list.walk();
    list.named_children(&mut cursor)
        .filter(|a| {
            !matches!(
                a.kind(),
                "keyword_argument" | COMMENT | "list_splat" | "dictionary_splat"
            )
        })
        .collect()
}

pub(super) fn keyword(call: &Node, key: &str, source: &[u8]) -> Option<String> {
    let list = call.field("arguments")?;
    let mut cursor = list.walk();
    let found = list
        .named_children(&mut cursor)
        .find(|a| a.kind() == "keyword_argument" && a.field("name").is_some_and(|n| text(&n, source) == key))?;
    let value = found.field("value")?;
    Some(string_value(&value, source).unwrap_or_else(|| text(&value, source).into_owned()))
}

/// The value of a plain string literal (no interpolation).
pub(super) fn string_value(node: &Node, source: &[u8]) -> Option<String> {
    if node.kind() != "string" {
        return None;
    }
    let mut cursor = node.walk();
    let mut value = String::new();
    for part in node.named_children(&mut cursor) {
        match part.kind() {
            "string_content" | "escape_sequence" => value.push_str(&text(&part, source)),
            "interpolation" => return None,
            _ => {}
        }
    }
    Some(value)
}
