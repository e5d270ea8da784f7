//! The form of an assertion (equality, truth, a comparison) and its
//! operands, and the literals tests compare against.

use super::*;

pub(super) fn assert_form(stmt: &Node, source: &[u8]) -> Form {
    match first_child(stmt) {
        Some(test) => test_form(test, source),
        None => Form::Other,
    }
}

/// What the expression an `assert` tests checks.
pub(super) fn test_form(test: Node, source: &[u8]) -> Form {
    let test = unwrap(test);
    match test.kind() {
        "comparison_operator" => match comparison(&test, source) {
            Some((a, operator, b)) => compared(a, operator, b),
            None => Form::Other,
        },
        "not_operator" => match test.field("argument") {
            Some(arg) => Form::Falsy(operand(&unwrap(arg), source)),
            None => Form::Other,
        },
        _ => Form::Truthy(operand(&test, source)),
    }
}

/// The operands of `a and b and c` (through parentheses), or the test itself.
pub(super) fn conjuncts<'a>(test: Node<'a>, source: &[u8]) -> Vec<Node<'a>> {
    let test = unwrap(test);
    let is_and = test.kind() == "boolean_operator" && test.field("operator").is_some_and(|o| text(&o, source) == "and");
    match (is_and, test.field("left"), test.field("right")) {
        (true, Some(left), Some(right)) => {
            let mut parts = conjuncts(left, source);
            parts.extend(conjuncts(right, source));
            parts
        }
        _ => vec![test],
    }
}

/// What an `if` around a failure demands for the test to pass: its
/// condition, negated (`if got != want: pytest.fail()` demands `got == want`).
pub(super) fn demanded(condition: Node, source: &[u8]) -> Form {
    let condition = unwrap(condition);
    match condition.kind() {
        "comparison_operator" => match comparison(&condition, source) {
            Some((a, "!=", b)) => value_equal(a, b),
            Some((a, "is not", b)) => Form::Equal(a.by_identity(), b.by_identity()),
            Some((a, "==" | "is", b)) => Form::NotEqual(a, b),
            _ => Form::Other,
        },
        "not_operator" => match condition.field("argument") {
            Some(arg) => Form::Truthy(operand(&unwrap(arg), source)),
            None => Form::Other,
        },
        _ => Form::Falsy(operand(&condition, source)),
    }
}

/// What `a operator b` checks.
fn compared(a: Operand, operator: &str, b: Operand) -> Form {
    match operator {
        "==" => value_equal(a, b),
        "is" => Form::Equal(a.by_identity(), b.by_identity()),
        "!=" | "is not" => Form::NotEqual(a, b),
        _ => Form::Other,
    }
}

/// The two sides and the operator of a comparison of two operands (`a ==
/// b`, `a is not b`); `None` for a chain (`a < b < c`).
pub(super) fn comparison(test: &Node, source: &[u8]) -> Option<(Operand, &'static str, Operand)> {
    let [(a, operator, b)] = &links(*test, source)[..] else {
        return None;
    };
    let operator = match operator.as_str() {
        "==" => "==",
        "!=" => "!=",
        "is" => "is",
        "is not" => "is not",
        _ => "other",
    };
    Some((operand(a, source), operator, operand(b, source)))
}

/// The links of a comparison, as Python evaluates it: a chain `a == b ==
/// c` is `a == b and b == c`; `a is not b` is one link.
fn links<'a>(test: Node<'a>, source: &[u8]) -> Vec<(Node<'a>, String, Node<'a>)> {
    let mut cursor = test.walk();
    let mut links = Vec::new();
    let mut left: Option<Node> = None;
    let mut operator: Vec<String> = Vec::new();
    for child in test.children(&mut cursor).filter(|c| c.kind() != COMMENT) {
        if !child.is_named() {
            operator.push(text(&child, source).into_owned());
            continue;
        }
        if let Some(a) = left {
            links.push((a, operator.join(" "), child));
        }
        left = Some(child);
        operator.clear();
    }
    links
}

/// The checks of an `assert` of a comparison chain (`a == b == c`), one
/// per link, each spanning the statement at `span`; `None` for a plain
/// comparison or any other test.
pub(super) fn chained(test: Node, span: Span, guard: Guard, source: &[u8]) -> Option<Vec<Assertion>> {
    let test = unwrap(test);
    if test.kind() != "comparison_operator" {
        return None;
    }
    let links = links(test, source);
    if links.len() < 2 {
        return None;
    }
    let checks = links.into_iter().map(|(a, operator, b)| {
        let mut read = values(&a, source, COMMENT);
        read.extend(values(&b, source, COMMENT));
        Assertion {
            span,
            parts: vec![token_key(&a, source), token_key(&b, source)],
            form: compared(operand(&a, source), &operator, operand(&b, source)),
            matcher: operator,
            guard,
            values: read,
        }
    });
    Some(checks.collect())
}

pub(super) fn unittest_form(name: &str, args: &[Node], source: &[u8]) -> Form {
    let op = |i: usize| args.get(i).map(|a| operand(a, source));
    match name {
        "assertIs" => match (op(0), op(1)) {
            (Some(a), Some(b)) => Form::Equal(a.by_identity(), b.by_identity()),
            _ => Form::Other,
        },
        "assertEqual"
        | "assertEquals"
        | "assertListEqual"
        | "assertDictEqual"
        | "assertTupleEqual"
        | "assertSetEqual"
        | "assertSequenceEqual"
        | "assertMultiLineEqual" => match (op(0), op(1)) {
            (Some(a), Some(b)) => value_equal(a, b),
            _ => Form::Other,
        },
        "assertNotEqual" | "assertNotEquals" | "assertIsNot" => match (op(0), op(1)) {
            (Some(a), Some(b)) => Form::NotEqual(a, b),
            _ => Form::Other,
        },
        "assertTrue" | "assert_" => op(0).map_or(Form::Other, Form::Truthy),
        "assertFalse" => op(0).map_or(Form::Other, Form::Falsy),
        _ => Form::Other,
    }
}

pub(super) fn operand(node: &Node, source: &[u8]) -> Operand {
    let node = unwrap(*node);
    Operand {
        text: display(&node, source),
        key: normalized(&node, source),
        literal: literal(&node, source),
        effects: has_effects(&node),
        recomputed: recomputed(&node, source, &RECOMPUTED),
        call_of: {
            let call = match node.kind() {
                "await" => first_child(&node),
                _ => Some(node),
            };
            match call {
                Some(c) if c.kind() == "call" => c.field("function").and_then(|f| mock_key(&f, source)),
                // `m.get.return_value` is what `m.get()` returns.
                Some(c) if c.kind() == "attribute" => mock_key(&c, source)
                    .and_then(|k| k.strip_suffix("()").map(str::to_string))
                    .filter(|_| c.field("attribute").is_some_and(|a| text(&a, source) == "return_value")),
                _ => None,
            }
        },
    }
}

pub(super) fn literal(node: &Node, source: &[u8]) -> Option<Literal> {
    match node.kind() {
        "true" => Some(Literal::Bool(true)),
        "false" => Some(Literal::Bool(false)),
        "none" => Some(Literal::Null),
        "integer" | "float" => number(&text(node, source)).map(Literal::Number),
        "string" => string_value(node, source).map(Literal::Str),
        "tuple" | "list" | "set" | "dictionary" | "expression_list" => {
            let mut cursor = node.walk();
            Some(Literal::Collection(
                node.named_children(&mut cursor).filter(|c| c.kind() != COMMENT).count(),
            ))
        }
        "unary_operator" => {
            let arg = node.field("argument")?;
            let op = node.field("operator").map(|o| text(&o, source).into_owned())?;
            match (op.as_str(), literal(&arg, source)?) {
                ("-", Literal::Number(n)) => Some(Literal::Number(-n)),
                ("+", Literal::Number(n)) => Some(Literal::Number(n)),
                _ => None,
            }
        }
        _ => None,
    }
}

/// What may make two evaluations of an operand differ beyond its calls
/// and attribute reads.
/// An attribute is no read to repeat: each read of a method or a
/// descriptor builds a new object (a bound method, a wrapper), and whether
/// two reads compare equal is what a test of it checks (pydantic's `assert
/// thing.c == thing.c`).
const RECOMPUTED: Recomputed = Recomputed {
    reads: &["call", "subscript"],
    call: "call",
    fresh: &["await", "yield", "named_expression", "lambda"],
    constructs: class_path,
};

/// May two evaluations of `node` differ? Calls, `await`, `yield`, walrus,
/// and attribute access, which runs properties and descriptors
/// (`assertIs(obj.manager, obj.manager)` tests caching).
pub(super) fn has_effects(node: &Node) -> bool {
    let mut found = false;
    visit_named(*node, |n| {
        if matches!(
            n.kind(),
            "call" | "await" | "yield" | "named_expression" | "lambda" | "attribute"
        ) {
            found = true;
        }
        !found
    });
    found
}

/// The function a nose generator test's `yield (check, a, b)` hands nose,
/// which calls `check(a, b)` as a test of its own: the name it is called by.
pub(super) fn yielded_test(node: &Node, source: &[u8]) -> Option<String> {
    let mut item = first_child(node);
    while let Some(i) = item.filter(|i| matches!(i.kind(), "expression_list" | "tuple" | "parenthesized_expression")) {
        item = first_child(&i);
    }
    let callee = item.filter(|i| matches!(i.kind(), "identifier" | "attribute"))?;
    let callee = text(&callee, source);
    Some(callee.rsplit('.').next().unwrap_or(&callee).to_string())
}
