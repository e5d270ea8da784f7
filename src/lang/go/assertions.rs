//! Assertions in Go test bodies: `t.Error`/`t.Fatal` under a condition,
//! testify calls, the guards around them and what they check.

use super::*;

/// What a walk of a function body finds.
pub(super) struct Scan<'r> {
    pub(super) read: &'r Read<'r>,
    /// The method's receiver (a testify suite asserts through it).
    pub(super) receiver: Option<String>,
    pub(super) guard: Guard,
    pub(super) tables: Vec<String>,
    /// Names bound to `assert.New(t)` and `require.New(t)`.
    pub(super) assert_objects: Vec<String>,
    /// Quicktest checkers: names bound to `qt.New(t)`, parameters typed
    /// `*qt.C` (a helper handed one, a `c.Run` closure).
    pub(super) checkers: Vec<String>,
    /// Those of them made by the library's own `New(t)` in its own package:
    /// their checks are the code under test, their literals its input.
    pub(super) own_objects: Vec<String>,
    /// Names of `testing` values: parameters typed `*testing.T` and friends
    /// seen so far (the function's own, then its closures').
    pub(super) testing: Vec<String>,
    pub(super) assertions: Vec<Assertion>,
    pub(super) calls: Vec<String>,
    pub(super) used: BTreeSet<String>,
    pub(super) mock_returns: Vec<MockReturn>,
    pub(super) skip: Option<Skip>,
    pub(super) doubles: usize,
    pub(super) prints: bool,
    pub(super) effects: bool,
    /// Read the guards of assertions (off when only asking whether a subtree asserts).
    pub(super) guards: bool,
    /// The guard of each `if` statement walked so far, by node id: a failure
    /// directly under an `if` is checked by it, and guarded only by what
    /// surrounds the `if`.
    pub(super) if_guards: Vec<(usize, Guard)>,
    /// The `if` statements, by node id, whose failure calls made a check
    /// already: `if got != want { t.Errorf(..); t.Errorf(..) }` is one
    /// check, however many lines it reports on (kr/pretty's `TestGoSyntax`).
    pub(super) failed_ifs: Vec<usize>,
}

pub(super) const GUARDING: &[&str] = &[
    "if_statement",
    "for_statement",
    "expression_switch_statement",
    "type_switch_statement",
    "select_statement",
    "binary_expression",
];

impl<'r> Scan<'r> {
    pub(super) fn new(read: &'r Read<'r>, receiver: Option<String>) -> Scan<'r> {
        Scan {
            read,
            receiver,
            guard: Guard::default(),
            tables: Vec::new(),
            assert_objects: Vec::new(),
            checkers: Vec::new(),
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
            failed_ifs: Vec::new(),
        }
    }

    pub(super) fn walk(&mut self, node: &Node) {
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
                "identifier" => crate::lang::note_name(&n, source, &mut self.used),
                "short_var_declaration" | "var_spec" => self.note_assert_object(&n),
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

    /// A parameter typed `*testing.T`, `*testing.B`, `*testing.F` or
    /// `testing.TB`; or quicktest's `*qt.C`, a checker.
    pub(super) fn note_testing(&mut self, n: &Node) {
        let source = self.read.source;
        let Some(ty) = n.field("type") else { return };
        let ty = display(&ty, source);
        if let Some((package, "C")) = ty.trim_start_matches('*').split_once('.')
            && self.read.quicktest.iter().any(|q| q == package)
        {
            let mut cursor = n.walk();
            for name in n.children_by_field_name("name", &mut cursor) {
                self.checkers.push(text(&name, source).into_owned());
            }
            return;
        }
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

    /// `a := assert.New(t)` (or `var a = assert.New(t)`): `a.Equal(..)` asserts.
    pub(super) fn note_assert_object(&mut self, n: &Node) {
        let source = self.read.source;
        let (Some(left), Some(right)) = (
            n.field("left").or_else(|| n.field("name")),
            n.field("right").or_else(|| n.field("value")),
        ) else {
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
        if self
            .read
            .quicktest
            .iter()
            .any(|q| value.starts_with(&format!("{q}.New(")))
        {
            self.checkers.push(text(&left, source).into_owned());
        }
        if own {
            self.own_objects.push(text(&left, source).into_owned());
        }
    }

    pub(super) fn child_guards(&self, node: &Node, children: &[Node], guard: Guard) -> Vec<Guard> {
        let source = self.read.source;
        let field = |name: &'static str| node.field(name).map(|c| c.id());
        match node.kind() {
            "if_statement" => {
                let exhaustive = node.field("alternative").is_some_and(|a| self.asserts(&a))
                    && node.field("consequence").is_some_and(|c| self.asserts(&c));
                crate::lang::guards_where(children, guard, |c| {
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
                crate::lang::guards_where(children, guard, |c| nonempty || Some(c.id()) != field("body"))
            }
            "expression_switch_statement" | "type_switch_statement" | "select_statement" => {
                let cases: Vec<&Node> = children
                    .iter()
                    .filter(|c| c.kind().ends_with("_case") || c.kind() == "communication_case")
                    .collect();
                let has_default = cases.iter().any(|c| c.kind() == "default_case");
                let exhaustive = has_default && cases.iter().all(|c| self.asserts(c));
                crate::lang::guards_where(children, guard, |c| exhaustive || !c.kind().ends_with("_case"))
            }
            "binary_expression" => crate::lang::short_circuit_guards(node, children, guard, source),
            _ => vec![guard; children.len()],
        }
    }

    /// A name of the test's `*testing.T`/`B`/`F` value.
    pub(super) fn is_testing(&self, node: &Node) -> bool {
        node.kind() == "identifier" && self.testing.iter().any(|t| t.as_str() == text(node, self.read.source))
    }

    /// A counted loop that runs its body at least once: between literals
    /// (`for i := 0; i < 3; i++`, also `<=` and `!=`), or up to a
    /// benchmark's `N`, which is at least one (`for i := 0; i < b.N; i++`).
    pub(super) fn counts_up(&self, clause: &Node) -> bool {
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

    pub(super) fn nonempty(&self, node: &Node) -> bool {
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

    pub(super) fn asserts(&self, node: &Node) -> bool {
        let mut scan = Scan::new(self.read, self.receiver.clone());
        scan.assert_objects = self.assert_objects.clone();
        scan.checkers = self.checkers.clone();
        scan.own_objects = self.own_objects.clone();
        scan.testing = self.testing.clone();
        // Only whether it asserts: guards inside are not needed, and reading
        // them would read nested branches again at every level.
        scan.guards = false;
        scan.walk(node);
        !scan.assertions.is_empty()
    }

    /// Is `statement` a failure call under an `if` whose failure calls made
    /// a check already (the second `t.Errorf` of a mismatch)? The first
    /// one is noted.
    fn failed_already(&mut self, statement: Option<Node>) -> bool {
        let Some(checking) = statement.and_then(|s| crate::lang::tree::checking_if(&s)) else {
            return false;
        };
        if self.failed_ifs.contains(&checking.id()) {
            return true;
        }
        self.failed_ifs.push(checking.id());
        false
    }

    pub(super) fn call(&mut self, call: &Node) {
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
        // An assertion library's check (testify's, quicktest's): its
        // operands, the check it makes as its matcher whatever the call is
        // named (`Panicsf` is `Panics`), and the call it checks named.
        let check = |scan: &mut Scan, method: &str, form: Form, operands: &[Node]| {
            let parts: Vec<String> = operands.iter().map(|a| token_key(a, source)).collect();
            push(scan, form, parts, operands);
            if let Some(last) = scan.assertions.last_mut() {
                last.matcher = method.to_string();
            }
            if let Some(statement) = call.parent().filter(|p| p.kind() == "expression_statement") {
                scan.name_the_checked_call(&statement);
            }
        };
        if let Some((method, operands)) = self.quicktest_check(receiver.as_ref(), &receiver_text, &name, &args) {
            // A checker it does not know says nothing of its form.
            let form = if method == "Assert" {
                Form::Other
            } else {
                testify_form(method, &operands, source)
            };
            check(self, method, form, &operands);
        } else if on_testing {
            match name.as_str() {
                failure
                    if FAILURES.contains(&failure)
                        && !self.failed_already(call.parent().filter(|p| p.kind() == "expression_statement")) =>
                {
                    let (form, relation) = self.failure(call);
                    push(self, form, Vec::new(), &[]);
                    self.relate(relation);
                    let statement = call.parent().filter(|p| p.kind() == "expression_statement");
                    if let Some(checking) = statement.and_then(|s| crate::lang::tree::checking_if(&s)) {
                        self.name_the_checked_call(&checking);
                    }
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
                "Log" | "Logf" => self.prints |= args.iter().any(|a| crate::lang::shows_value(*a, source)),
                _ => {}
            }
        } else if let Some(method) = self
            .testify_method(receiver.as_ref(), &receiver_text, &name)
            .or_else(|| self.unqualified_testify(receiver.as_ref(), &name, &args))
            .filter(|_| !result_compared(call))
        {
            // Package functions take the `t` first; an object made by
            // `assert := assert.New(t)` holds it, whatever name it shadows.
            let package = (self.read.assert_packages.contains(&receiver_text) || receiver.is_none())
                && !self.assert_objects.contains(&receiver_text);
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
            check(self, method, form, operands);
        } else if receiver.is_some_and(|r| r.kind() == "identifier" && !self.read.packages.contains(&receiver_text))
            && args.first().is_some_and(|a| self.is_testing(a))
        {
            // `tt.assertion(t, tt.want, got)`: a check held by a value (a
            // table field of an assertion-function type) handed the test's `t`.
            let rest = &args[1..];
            let parts: Vec<String> = rest.iter().map(|a| token_key(a, source)).collect();
            push(self, Form::Other, parts, rest);
        } else if receiver.is_some_and(|r| r.kind() == "identifier")
            && self.read.outside_std.contains(&receiver_text)
            && args.len() > 2
            && args.first().is_some_and(|a| self.is_testing(a))
            && call.parent().is_some_and(|p| p.kind() == "expression_statement")
        {
            // `testutils.SameElements(t, got, want)`: a function of a package
            // outside the standard library, handed the test's `t` and two or
            // more values, its result unused, is a check helper (a project's
            // `testutils`, a golden-file package): it compares the values and
            // fails the test through the `t`. A setup helper is handed one
            // (`testutil.Serve(t, handler)`) or its result is used.
            check(self, &name, Form::Other, &args[1..]);
        } else if let Some(condition) = receiver
            .is_none()
            .then(|| self.read.truth_helpers.iter().find(|(h, _)| *h == name))
            .flatten()
            .and_then(|&(_, at)| args.get(at))
        {
            // `assert(t, got == want)`: the `if !(got == want) { t.Fatal() }` it stands for.
            // A condition of no known form is told from the others by its text.
            let form = held(condition, source);
            let parts = match form {
                Form::Other => vec![token_key(condition, source)],
                _ => Vec::new(),
            };
            push(
                self,
                Form::FailUnless(Box::new(form)),
                parts,
                std::slice::from_ref(condition),
            );
            // An order: the two values, the order as the matcher.
            let c = unwrap_go(*condition);
            if let Some(order) = c.field("operator").map(|o| text(&o, source).into_owned())
                && let (Some(left), Some(right)) = (c.field("left"), c.field("right"))
                && matches!(order.as_str(), "<" | ">" | "<=" | ">=")
                && let Some(last) = self.assertions.last_mut()
            {
                last.matcher = order;
                last.parts = vec![token_key(&left, source), token_key(&right, source)];
            }
            if let Some(statement) = call.parent().filter(|p| p.kind() == "expression_statement") {
                self.name_the_checked_call(&statement);
            }
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
            self.prints |= args.iter().any(|a| crate::lang::shows_value(*a, source));
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
    pub(super) fn failure(&mut self, call: &Node) -> (Form, Option<(&'static str, Vec<String>)>) {
        let checked = call
            .parent()
            .filter(|p| p.kind() == "expression_statement")
            .and_then(|statement| crate::lang::checking_condition(&statement, &self.if_guards));
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

    /// A check of one name alone, or against `nil`, where the statement
    /// before it (or the `if`'s own initializer) bound that name to a call:
    /// `if err := s.Delete(k); err != nil { t.Fatal(..) }`, `err =
    /// s.Flush(); require.NoError(t, err)`. Each such check of a test reads
    /// `err != nil` alone; written with the call it checks, they are told
    /// apart, and one of them deleted is lost rather than found again in
    /// its siblings. `anchor` is the `if` or the assertion's statement.
    pub(super) fn name_the_checked_call(&mut self, anchor: &Node) {
        let source = self.read.source;
        let Some(last) = self.assertions.last_mut() else { return };
        last.read_condition();
        let name = match last.parts.as_slice() {
            [n] => n.clone(),
            [n, other] | [other, n] if other == "nil" && n != "nil" => n.clone(),
            _ => return,
        };
        if !name.chars().all(|c| c.is_alphanumeric() || c == '_') {
            return;
        }
        let initializer = (anchor.kind() == "if_statement")
            .then(|| anchor.field("initializer"))
            .flatten();
        let mut before = anchor.prev_named_sibling();
        while before.is_some_and(|b| b.kind() == COMMENT) {
            before = before.and_then(|b| b.prev_named_sibling());
        }
        let Some(binding) = initializer.or(before) else { return };
        if !matches!(binding.kind(), "short_var_declaration" | "assignment_statement") {
            return;
        }
        let names = |field: &'static str| -> Vec<Node> {
            binding
                .field(field)
                .map(|list| {
                    let mut cursor = list.walk();
                    list.named_children(&mut cursor)
                        .filter(|c| c.kind() != COMMENT)
                        .collect()
                })
                .unwrap_or_default()
        };
        let (left, right) = (names("left"), names("right"));
        let Some(at) = left.iter().position(|n| text(n, source) == name) else {
            return;
        };
        let source_call = match right.as_slice() {
            [one] => Some(one),
            many if many.len() == left.len() => many.get(at),
            _ => None,
        };
        let Some(call) = source_call.filter(|c| c.kind() == "call_expression") else {
            return;
        };
        let key = token_key(call, source);
        for part in &mut last.parts {
            if *part == name {
                part.clone_from(&key);
            }
        }
    }

    /// Write the order a failure's condition demands ([`Scan::failure`])
    /// as the check the failure just pushed makes.
    pub(super) fn relate(&mut self, relation: Option<(&'static str, Vec<String>)>) {
        if let (Some((matcher, parts)), Some(last)) = (relation, self.assertions.last_mut()) {
            last.matcher = matcher.to_string();
            last.parts = parts;
        }
    }

    /// The testify method `name` called on `receiver`, when it asserts, as
    /// the check it makes (`Equalf` and `Equal` are both `Equal`).
    pub(super) fn testify_method(
        &self,
        receiver: Option<&Node>,
        receiver_text: &str,
        name: &str,
    ) -> Option<&'static str> {
        receiver?;
        let known = self.read.assert_packages.iter().any(|p| p == receiver_text)
            || self.assert_objects.iter().any(|o| o == receiver_text)
            // A suite: `s.Equal(..)`, `s.Require().Equal(..)`, `s.Assert().Equal(..)`.
            || self.receiver.as_deref().is_some_and(|r| {
                receiver_text == r || receiver_text == format!("{r}.Require()") || receiver_text == format!("{r}.Assert()")
            });
        known.then(|| testify_check(name)).flatten()
    }

    /// A quicktest check, as the testify check it makes and its operands
    /// (the value, then what the checker is given): `c.Assert(got,
    /// qt.Equals, want)` on a checker, `qt.Assert(t, got, qt.Equals, want)`,
    /// and go-quicktest's `qt.Assert(t, qt.Equals(got, want))`. A failure
    /// message after them (`qt.Commentf(..)`) is left out.
    pub(super) fn quicktest_check<'n>(
        &self,
        receiver: Option<&Node>,
        receiver_text: &str,
        name: &str,
        args: &[Node<'n>],
    ) -> Option<(&'static str, Vec<Node<'n>>)> {
        if !matches!(name, "Assert" | "Check") {
            return None;
        }
        let on_checker = self.checkers.iter().any(|c| c == receiver_text);
        let package = receiver.is_some() && self.read.quicktest.iter().any(|q| q == receiver_text);
        let rest = match (on_checker, package) {
            (true, _) => args,
            (false, true) if args.first().is_some_and(|a| self.is_testing(a)) => &args[1..],
            _ => return None,
        };
        let source = self.read.source;
        // The checker's name without its package: `qt.Equals` -> `Equals`,
        // `qt.Not(qt.IsNil)` -> `Not(IsNil)`.
        let checker_name = |node: &Node| {
            let written = display(node, source);
            let mut bare = written.clone();
            for q in &self.read.quicktest {
                bare = bare.replace(&format!("{q}."), "");
            }
            // Options handed to it say nothing of the check:
            // `CmpEquals(opts)` is `CmpEquals`.
            let name = |s: &str| s.split(['(', ')']).next().unwrap_or_default().trim().to_string();
            match bare.strip_prefix("Not(") {
                Some(inner) => format!("Not({})", name(inner)),
                None => name(&bare),
            }
        };
        match rest {
            // go-quicktest: the checker is a call holding the operands.
            [checker] if checker.kind() == "call_expression" => {
                let function = checker.field("function")?;
                let method = quicktest_method(&checker_name(&function));
                let operands = checker
                    .field("arguments")
                    .map(|a| {
                        let mut c = a.walk();
                        a.named_children(&mut c).filter(|x| x.kind() != COMMENT).collect()
                    })
                    .unwrap_or_default();
                Some((method, operands))
            }
            [got, checker, more @ ..] => {
                let method = quicktest_method(&checker_name(checker));
                let wanted = more
                    .iter()
                    .take_while(|a| !display(a, source).contains("Commentf("))
                    .take(testify_arity(method).saturating_sub(1));
                Some((method, std::iter::once(*got).chain(wanted.copied()).collect()))
            }
            _ => None,
        }
    }

    /// A testify check called without a package (`False(t, ok)`), as the
    /// assertion library's own package calls its checks, handed the test's
    /// own `*testing.T`: it fails the test through it. Handed another `T`
    /// (`Equal(mockT, a, b)`), the call is the code under test.
    pub(super) fn unqualified_testify(
        &self,
        receiver: Option<&Node>,
        name: &str,
        args: &[Node],
    ) -> Option<&'static str> {
        if receiver.is_some() {
            return None;
        }
        self.is_testing(args.first()?).then(|| testify_check(name)).flatten()
    }

    /// gomock `m.EXPECT().Get(..).Return(5)` and testify
    /// `m.On("Get", ..).Return(5)`: the double's `Get` returns the literal.
    pub(super) fn mock_return(&self, call: &Node, function: &Node, args: &[Node]) -> Option<MockReturn> {
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
                    value: crate::lang::Returned::Literal(literal),
                    span: Span::of(call),
                });
            }
            if method == "On" {
                let args = inner.field("arguments")?;
                let first = first_child(&args)?;
                let mocked = literal_str(&first, source)?;
                return Some(MockReturn {
                    callee: format!("{operand_text}.{mocked}"),
                    value: crate::lang::Returned::Literal(literal),
                    span: Span::of(call),
                });
            }
            inner = operand;
        }
    }
}

/// The testify check a quicktest checker makes (its name without the
/// package): `Equals` is `Equal`, `Not(IsNil)` is `NotNil`; one it does
/// not know is a bare `Assert`, a check of unknown strength.
fn quicktest_method(checker: &str) -> &'static str {
    match checker.trim() {
        "Equals" => "Equal",
        "DeepEquals" | "CmpEquals" | "JSONEquals" => "DeepEqual",
        "ContentEquals" => "ElementsMatch",
        "IsNil" => "Nil",
        "IsNotNil" | "Not(IsNil)" => "NotNil",
        "IsTrue" => "True",
        "IsFalse" => "False",
        "HasLen" => "Len",
        "Contains" | "StringContains" | "SliceContains" => "Contains",
        "Not(Contains)" => "NotContains",
        "Not(Equals)" | "Not(DeepEquals)" => "NotEqual",
        "Matches" | "ErrorMatches" => "Regexp",
        "ErrorIs" => "ErrorIs",
        "ErrorAs" => "ErrorAs",
        "PanicMatches" => "Panics",
        "Satisfies" => "Condition",
        _ => "Assert",
    }
}

pub(super) fn has_if_ancestor(node: &Node) -> bool {
    crate::lang::has_ancestor(
        node,
        &["if_statement", "expression_switch_statement", "type_switch_statement"],
        &["function_declaration", "method_declaration"],
    )
}
