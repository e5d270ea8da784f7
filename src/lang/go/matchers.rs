//! The form of a Go check (`if got != want`, testify's `assert.Equal`), its
//! operands and the literals tests compare against.

use super::*;

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

pub(super) fn unwrap_go(mut node: Node) -> Node {
    while node.kind() == "parenthesized_expression" {
        match first_child(&node) {
            Some(inner) => node = inner,
            None => break,
        }
    }
    node
}

/// What may make two evaluations of an operand differ beyond its calls,
/// selectors and indexing: a closure, and a receive ([`receives`]). (A
/// capital exports a name; constructors say `New`, which the rule reads.)
const RECOMPUTED: Recomputed = Recomputed {
    reads: &["call_expression", "selector_expression", "index_expression"],
    call: "call_expression",
    fresh: &["func_literal"],
    constructs: |_| false,
};

/// Receives from a channel (`<-ch`): each receive takes the next value.
fn receives(node: &Node) -> bool {
    let mut found = false;
    visit_named(*node, |n| {
        found |= n.kind() == "unary_expression" && text_is_receive(&n);
        !found
    });
    found
}

pub(super) fn has_effects(node: &Node) -> bool {
    let mut found = false;
    visit_named(*node, |n| {
        found |= n.kind() == "call_expression" || (n.kind() == "unary_expression" && text_is_receive(&n));
        !found && n.kind() != "func_literal"
    });
    found
}

pub(super) fn text_is_receive(n: &Node) -> bool {
    n.child(0).is_some_and(|c| c.kind() == "<-")
}

pub(super) fn operand(node: &Node, source: &[u8]) -> Operand {
    let node = unwrap_go(*node);
    Operand {
        text: display(&node, source),
        key: normalized(&node, source),
        literal: literal(&node, source),
        effects: has_effects(&node),
        recomputed: recomputed(&node, source, &RECOMPUTED).filter(|_| !receives(&node)),
        call_of: match node.kind() {
            "call_expression" => node.field("function").map(|f| callee_key(&text(&f, source))),
            _ => None,
        },
    }
}

/// The one expression of a list of one (`i := 0` binds lists).
pub(super) fn sole(node: Node) -> Node {
    match node.kind() {
        "expression_list" if node.named_child_count() == 1 => node.named_child(0).unwrap_or(node),
        _ => node,
    }
}

/// What an `if` around a failure demands for the test to pass: its
/// condition, negated (`got != want` demands `got == want`, `!ok` demands
/// `ok`, `bad` demands `bad` falsy).
pub(super) fn demanded(condition: &Node, source: &[u8]) -> Form {
    truth_form(condition, false, source)
}

/// What a truth helper's condition (`assert(t, got == want)`, see
/// [`truth_helpers`]) demands: the condition as written, the form
/// [`demanded`] reads of the `if` that fails on its negation.
pub(super) fn held(condition: &Node, source: &[u8]) -> Form {
    truth_form(condition, true, source)
}

/// The form of `condition` holding (`holds`) or failing: `got == want`
/// holding is `Equal`, failing `NotEqual`; `ok` holding is `Truthy`.
fn truth_form(condition: &Node, holds: bool, source: &[u8]) -> Form {
    let c = unwrap_go(*condition);
    let side = |field: &'static str| c.field(field).map(|n| operand(&n, source));
    let operator = c.field("operator").map(|o| text(&o, source).into_owned());
    // An equality, or its negation, as the truth asks.
    let equal = |a: Operand, b: Operand, equal: bool| match equal == holds {
        true => Form::Equal(a, b),
        false => Form::NotEqual(a, b),
    };
    let truth = |value: Operand, truthy: bool| match truthy == holds {
        true => Form::Truthy(value),
        false => Form::Falsy(value),
    };
    match (c.kind(), operator.as_deref()) {
        ("binary_expression", Some(op @ ("!=" | "=="))) => match (side("left"), side("right")) {
            (Some(a), Some(b)) => equal(a, b, op == "=="),
            _ => Form::Other,
        },
        ("unary_expression", Some("!")) => match c.field("operand").and_then(|o| compared(&o, source)) {
            Some((a, b)) => equal(a, b, false),
            None => side("operand").map_or(Form::Other, |v| truth(v, false)),
        },
        ("call_expression", _) if let Some((a, b)) = compared(&c, source) => equal(a, b, true),
        ("identifier" | "selector_expression" | "call_expression" | "true" | "false", _) => {
            truth(operand(&c, source), true)
        }
        _ => Form::Other,
    }
}

/// The file's truth helpers, with the place of their condition among
/// their arguments: package-level functions with one `bool` parameter
/// that fail when it is false (`func assert(t testing.TB, cond bool) { if
/// !cond { panic(..) } }`, gjson's; `t.Fatal`, `t.Error` or `panic` under
/// `if !cond`). Go has no `assert`: a project writes its own, and each
/// call of it is a check of its condition, read like the `if` it stands
/// for (issue 64).
pub(super) fn truth_helpers(root: &Node, source: &[u8]) -> Vec<(String, usize)> {
    let mut helpers = Vec::new();
    let mut cursor = root.walk();
    for function in root
        .named_children(&mut cursor)
        .filter(|f| f.kind() == "function_declaration")
    {
        let (Some(name), Some(parameters), Some(body)) = (
            function.field("name"),
            function.field("parameters"),
            function.field("body"),
        ) else {
            continue;
        };
        // Each parameter's name, and whether it is the `bool`.
        let mut names: Vec<(String, bool)> = Vec::new();
        let mut c = parameters.walk();
        for declaration in parameters.named_children(&mut c) {
            let is_bool = declaration.field("type").is_some_and(|t| text(&t, source) == "bool");
            let mut d = declaration.walk();
            let declared: Vec<String> = declaration
                .children_by_field_name("name", &mut d)
                .map(|n| text(&n, source).into_owned())
                .collect();
            if declared.is_empty() {
                names.push((String::new(), is_bool));
            }
            names.extend(declared.into_iter().map(|n| (n, is_bool)));
        }
        let bools: Vec<usize> = (0..names.len()).filter(|&i| names[i].1).collect();
        let [at] = bools.as_slice() else { continue };
        let condition = &names[*at].0;
        if !condition.is_empty() && fails_unless(&body, condition, source) {
            helpers.push((text(&name, source).into_owned(), *at));
        }
    }
    helpers.sort();
    helpers
}

/// Does `body` hold an `if !condition` (or `if condition == false`) whose
/// block fails the test (`t.Fatal*`, `t.Error*`, `t.Fail*`, `panic`)?
fn fails_unless(body: &Node, condition: &str, source: &[u8]) -> bool {
    let mut found = false;
    crate::lang::tree::visit_named(*body, |n| {
        if found {
            return false;
        }
        if n.kind() == "if_statement"
            && let (Some(test), Some(block)) = (n.field("condition"), n.field("consequence"))
        {
            let written: String = text(&test, source).chars().filter(|c| !c.is_whitespace()).collect();
            let negates = written == format!("!{condition}") || written == format!("{condition}==false");
            found = negates && fails(&block, source);
        }
        true
    });
    found
}

/// Does `block` call a failure: `panic(..)`, or a `Fatal`, `Error` or
/// `Fail` method of the test?
fn fails(block: &Node, source: &[u8]) -> bool {
    let mut found = false;
    crate::lang::tree::visit_named(*block, |n| {
        if n.kind() == "call_expression"
            && let Some(function) = n.field("function")
        {
            found |= match function.kind() {
                "identifier" => text(&function, source) == "panic",
                "selector_expression" => function
                    .field("field")
                    .is_some_and(|f| FAILURES.contains(&text(&f, source).as_ref())),
                _ => false,
            };
        }
        !found
    });
    found
}

/// The two values of a call that is an equality (`reflect.DeepEqual(got,
/// want)`, `bytes.Equal`, go-cmp's `cmp.Equal`).
pub(super) fn compared(call: &Node, source: &[u8]) -> Option<(Operand, Operand)> {
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
pub(super) fn result_compared(call: &Node) -> bool {
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
pub(super) fn testify_check(name: &str) -> Option<&'static str> {
    let found = |n: &str| TESTIFY.iter().copied().find(|t| *t == n);
    match name {
        // `Errorf` is testify's formatted `Error`; `Fail` is not a formatted `Fai`.
        "Errorf" => Some("Error"),
        _ => name.strip_suffix('f').and_then(found).or_else(|| found(name)),
    }
}

/// How many operands testify's check `method` takes after the `t`; the
/// arguments after them are the failure message.
pub(super) fn testify_arity(method: &str) -> usize {
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
pub(super) fn testify_form(method: &str, args: &[Node], source: &[u8]) -> Form {
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

pub(super) fn literal_str(node: &Node, source: &[u8]) -> Option<String> {
    match literal(node, source)? {
        Literal::Str(s) => Some(s),
        _ => None,
    }
}
