//! The form of an assertion (`toBe`, `toEqual`, a negation, a type check),
//! its operands and the literals tests compare against.

use super::*;

/// The name of a test function's first parameter, the test context (`t`).
pub(super) fn test_context(function: &Node, source: &[u8]) -> Option<String> {
    if let Some(single) = function.field("parameter") {
        return (single.kind() == "identifier").then(|| text(&single, source).into_owned());
    }
    let params = function.field("parameters")?;
    let first = first_child(&params)?;
    let name = match first.kind() {
        "identifier" => first,
        // TypeScript: `(t: TestContext) =>`
        "required_parameter" => first.field("pattern")?,
        _ => return None,
    };
    (name.kind() == "identifier").then(|| text(&name, source).into_owned())
}

/// testing-library queries that throw when nothing matches.
pub(super) fn is_query(name: &str) -> bool {
    ["getBy", "getAllBy", "findBy", "findAllBy"]
        .iter()
        .any(|p| name.starts_with(p))
}

/// What may make two evaluations of an operand differ beyond its calls,
/// member reads and subscripts: `new`, `await`, `yield`, assignments,
/// closures and classes.
const RECOMPUTED: Recomputed = Recomputed {
    reads: &[
        "call_expression",
        "member_expression",
        "subscript_expression",
        "non_null_expression",
    ],
    call: "call_expression",
    fresh: &[
        "new_expression",
        "await_expression",
        "yield_expression",
        "assignment_expression",
        "augmented_assignment_expression",
        "update_expression",
        "arrow_function",
        "function_expression",
        "class",
    ],
    constructs: class_called,
};

pub(super) fn negate(form: Form) -> Form {
    match form {
        Form::Equal(a, b) => Form::NotEqual(a, b),
        Form::NotEqual(a, b) => Form::Equal(a, b),
        Form::Truthy(a) => Form::Falsy(a),
        Form::Falsy(a) => Form::Truthy(a),
        other => other,
    }
}

pub(super) struct Chain<'a> {
    /// Property names from the base outwards (`not`, `to`, `be`, ...), the last included.
    pub(super) names: Vec<String>,
    /// The call the chain starts from (`expect(x)`), if it starts with one.
    pub(super) base_call: Option<Node<'a>>,
}

pub(super) fn member_chain<'a>(member: &Node<'a>, source: &[u8]) -> Chain<'a> {
    let mut names = Vec::new();
    let mut node = *member;
    loop {
        match node.kind() {
            "member_expression" => {
                if let Some(p) = node.field("property") {
                    names.push(text(&p, source).into_owned());
                }
                match node.field("object") {
                    Some(o) => node = o,
                    None => break,
                }
            }
            "call_expression" => {
                // `expect(x).resolves.toBe(1)` bottoms out at `expect(x)`; an
                // intermediate call (`.to.have.been.calledWith(..).and`) continues.
                let function = node.field("function");
                match function {
                    Some(f) if f.kind() == "member_expression" && !is_expect_callee(&f, source) => node = f,
                    _ => {
                        names.reverse();
                        return Chain {
                            names,
                            base_call: Some(node),
                        };
                    }
                }
            }
            "await_expression" | "parenthesized_expression" | "non_null_expression" | "as_expression" => {
                match first_child(&node) {
                    Some(n) => node = n,
                    None => break,
                }
            }
            _ => break,
        }
    }
    names.reverse();
    Chain { names, base_call: None }
}

/// Types every program has: a value typed as one of these is not checked
/// against anything of the project's.
pub(super) const BUILTIN_TYPES: &[&str] = &[
    "Array",
    "ReadonlyArray",
    "Record",
    "Partial",
    "Required",
    "Readonly",
    "Pick",
    "Omit",
    "Promise",
    "Map",
    "Set",
    "WeakMap",
    "WeakSet",
    "Exclude",
    "Extract",
    "NonNullable",
    "ReturnType",
    "Parameters",
    "Awaited",
];

/// Does this type name a type of its own (`AlgorithmTypes`, `z.ZodType`),
/// not only built-in ones (`string`, `'a' | 'b'`, `Array<number>`)?
pub(super) fn names_a_type(node: &Node, source: &[u8]) -> bool {
    crate::lang::holds(
        node,
        |n| match n.kind() {
            "nested_type_identifier" => true,
            "type_identifier" => !BUILTIN_TYPES.contains(&text(n, source).as_ref()),
            _ => false,
        },
        |_| true,
    )
}

/// Does this type instantiate a generic type of its own with arguments
/// (`Expect<Equal<A, B>>`, `z.ZodEnumDef<readonly ["a"]>`, a conditional
/// type over `RefinedUnionSchema<T>`)? `{ id: string }` does not.
pub(super) fn instantiates(node: &Node, source: &[u8]) -> bool {
    crate::lang::holds(
        node,
        |n| {
            n.kind() == "generic_type"
                && n.field("name").is_some_and(|name| {
                    name.kind() == "nested_type_identifier" || !BUILTIN_TYPES.contains(&text(&name, source).as_ref())
                })
        },
        |_| true,
    )
}

/// Does this test body hold only type declarations (and comments), one of
/// which instantiates a generic type of the project's?
pub(super) fn only_instantiating_types(body: &Node, source: &[u8]) -> bool {
    let mut cursor = body.walk();
    let statements: Vec<Node> = body
        .named_children(&mut cursor)
        .filter(|c| c.kind() != COMMENT)
        .collect();
    statements
        .iter()
        .all(|s| matches!(s.kind(), "type_alias_declaration" | "interface_declaration"))
        && statements.iter().any(|s| instantiates(s, source))
}

/// Is `node` a value cast to (or checked against) a type of the project's:
/// `'' as AlgorithmTypes`, `x satisfies Route`? `as const` is not.
pub(super) fn cast_to_named_type(mut node: Node, source: &[u8]) -> bool {
    loop {
        match node.kind() {
            "as_expression" | "satisfies_expression" => {
                let mut cursor = node.walk();
                let ty = node.named_children(&mut cursor).filter(|c| c.kind() != COMMENT).nth(1);
                if ty.is_some_and(|t| names_a_type(&t, source)) {
                    return true;
                }
            }
            "parenthesized_expression" | "non_null_expression" => {}
            _ => return false,
        }
        match first_child(&node) {
            Some(inner) => node = inner,
            None => return false,
        }
    }
}

/// A check the TypeScript compiler makes at `n` (a type assertion alias, a
/// `@ts-expect-error` line): made whatever runs, so no condition or handler
/// around it guards it.
pub(super) fn type_check(n: &Node) -> Assertion {
    Assertion::bare(Span::of(n), Form::Other, "type", Guard::default())
}

pub(super) fn is_expect_callee(function: &Node, source: &[u8]) -> bool {
    matches!(text(function, source).as_ref(), "expect.soft" | "chai.expect")
}

impl<'s> Walker<'s, '_> {
    pub(super) fn property_assertion(&self, member: &Node) -> Option<Form> {
        let chain = member_chain(member, self.source);
        let last = chain.names.last()?.as_str();
        if chain.names.iter().any(|n| n == "should") {
            return Some(Form::Other);
        }
        let base = chain.base_call?;
        let base_name = base.field("function").map(|f| text(&f, self.source).into_owned())?;
        if !matches!(base_name.as_str(), "expect" | "chai.expect") {
            return None;
        }
        let actual = arguments(&base).first().map(|a| self.operand(a))?;
        let negated = chain.names.iter().any(|n| n == "not");
        let form = match last {
            "true" | "ok" => Form::Truthy(actual),
            "false" => Form::Falsy(actual),
            _ => Form::Other,
        };
        Some(if negated { negate(form) } else { form })
    }

    /// The form of an explicit failure `statement` (`throw`, `assert.fail()`,
    /// `expect.fail()`): [`Form::FailUnless`] directly in the body of an
    /// `if` (`if (got !== want) throw new Error(..)`), whose condition is
    /// then the check and whose own guard becomes the failure's;
    /// [`Form::Fail`] anywhere else.
    pub(super) fn failure(&self, statement: &Node, scan: &mut Scan) -> Form {
        let Some((condition, guard)) = crate::lang::checking_condition(statement, &scan.ifs) else {
            return Form::Fail;
        };
        scan.guard = guard;
        Form::FailUnless(Box::new(self.demanded(&condition)))
    }

    /// What an `if` around a failure demands for the test to pass: its
    /// condition, negated (`a !== b` demands `a === b`, `!ok` demands `ok`).
    pub(super) fn demanded(&self, condition: &Node) -> Form {
        let c = unwrap(*condition);
        let side = |field: &'static str| c.field(field).map(|n| self.operand(&n));
        let operator = c.field("operator").map(|o| text(&o, self.source).into_owned());
        match (c.kind(), operator.as_deref()) {
            ("binary_expression", Some(op @ ("!==" | "!=" | "===" | "=="))) => match (side("left"), side("right")) {
                (Some(a), Some(b)) if op.starts_with('!') => Form::Equal(a, b),
                (Some(a), Some(b)) => Form::NotEqual(a, b),
                _ => Form::Other,
            },
            ("unary_expression", Some("!")) => side("argument").map_or(Form::Other, Form::Truthy),
            ("identifier" | "member_expression" | "call_expression" | "await_expression" | "true" | "false", _) => {
                Form::Falsy(self.operand(&c))
            }
            _ => Form::Other,
        }
    }

    pub(super) fn operand(&self, node: &Node) -> Operand {
        // `'' as AlgorithmTypes`: whether the cast compiles is the check.
        let typed = cast_to_named_type(*node, self.source);
        let cast = *node;
        let node = unwrap(*node);
        Operand {
            text: display(&node, self.source),
            key: normalized(if typed { &cast } else { &node }, self.source),
            literal: if typed { None } else { self.literal(&node) },
            effects: has_effects(&node),
            recomputed: recomputed(&node, self.source, &RECOMPUTED),
            call_of: {
                let call = if node.kind() == "await_expression" {
                    first_child(&node)
                } else {
                    Some(node)
                };
                call.filter(|c| c.kind() == "call_expression")
                    .and_then(|c| c.field("function"))
                    .map(|f| callee_key(&text(&f, self.source)))
            },
        }
    }

    pub(super) fn literal(&self, node: &Node) -> Option<Literal> {
        match node.kind() {
            "true" => Some(Literal::Bool(true)),
            "false" => Some(Literal::Bool(false)),
            "null" | "undefined" => Some(Literal::Null),
            "number" => number(&text(node, self.source)).map(Literal::Number),
            "string" | "template_string" => self.string_value(node).map(Literal::Str),
            "unary_expression" => {
                let op = node.field("operator").map(|o| text(&o, self.source).into_owned())?;
                match (op.as_str(), self.literal(&node.field("argument")?)?) {
                    ("-", Literal::Number(n)) => Some(Literal::Number(-n)),
                    ("+", Literal::Number(n)) => Some(Literal::Number(n)),
                    ("!", l) => Some(Literal::Bool(!l.truthy())),
                    _ => None,
                }
            }
            _ => None,
        }
    }
}
