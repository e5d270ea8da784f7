//! The matcher-strength lattice: how much of a value an assertion pins down.
//! `docs/gates/mutation.md` and the rule doc of `mutation/assertion-weakened`
//! print the same table.
//!
//! - 3, exact: the value (or the calls) must be one thing: `==`,
//!   `assertEqual`, `toEqual`, `toHaveBeenCalledWith`, `toMatchSnapshot`,
//!   `assert_called_once_with`, `not.toHaveBeenCalled`.
//! - 2, partial: a property of the value: membership, order, type, a pattern,
//!   "it raised", "it was called".
//! - 1, weak: truthiness, existence, or one excluded value (`!=`, `not.toBe`).
//!
//! Matchers not in the table have no rank and are never compared.

use crate::lang::{Assertion, Lang};

/// The language families with a lattice.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Family {
    Python,
    JavaScript,
    Rust,
    Go,
}

impl Family {
    pub fn of(lang: Lang) -> Family {
        match lang {
            Lang::Python => Family::Python,
            Lang::JavaScript | Lang::TypeScript | Lang::Tsx => Family::JavaScript,
            Lang::Rust => Family::Rust,
            Lang::Go => Family::Go,
        }
    }
}

const PYTHON_EXACT: &[&str] = &[
    "==",
    "is",
    "assertEqual",
    "assertEquals",
    "assertIs",
    "assertIsNone",
    "assertDictEqual",
    "assertListEqual",
    "assertTupleEqual",
    "assertSetEqual",
    "assertSequenceEqual",
    "assertMultiLineEqual",
    "assertCountEqual",
    "assertAlmostEqual",
    "assertAlmostEquals",
    "assertRaisesRegex",
    "assertWarnsRegex",
    "assertJSONEqual",
    "assertHTMLEqual",
    "assertXMLEqual",
    "assertQuerySetEqual",
    "assertQuerysetEqual",
    "assertNumQueries",
    "assertRedirects",
    "assert_called_once_with",
    "assert_called_with",
    "assert_has_calls",
    "assert_not_called",
    "assert_awaited_once_with",
    "assert_awaited_with",
];

const PYTHON_PARTIAL: &[&str] = &[
    "in",
    "<",
    ">",
    "<=",
    ">=",
    "isinstance",
    "assertIn",
    "assertIsInstance",
    "assertGreater",
    "assertGreaterEqual",
    "assertLess",
    "assertLessEqual",
    "assertRegex",
    "assertRaises",
    "assertWarns",
    "assertLogs",
    "assertContains",
    "assertTemplateUsed",
    "raises",
    "warns",
    "assert_called_once",
    "assert_called",
    "assert_any_call",
    "assert_awaited",
    "assert_awaited_once",
];

const PYTHON_WEAK: &[&str] = &[
    "truthy",
    "not",
    "!=",
    "is not",
    "not in",
    "assertTrue",
    "assertFalse",
    "assertIsNotNone",
    "assertNotEqual",
    "assertNotEquals",
    "assertIsNot",
    "assertNotIn",
    "assertNotIsInstance",
];

const JS_EXACT: &[&str] = &[
    // jest, vitest
    "toBe",
    "toEqual",
    "toStrictEqual",
    "toBeNull",
    "toBeUndefined",
    "toBeNaN",
    "toHaveBeenCalledWith",
    "toHaveBeenNthCalledWith",
    "toHaveBeenLastCalledWith",
    "toHaveBeenCalledTimes",
    "toHaveBeenCalledOnceWith",
    "toHaveBeenCalledExactlyOnceWith",
    "toBeCalledWith",
    "lastCalledWith",
    "nthCalledWith",
    "toBeCalledTimes",
    "toHaveReturnedWith",
    "toHaveLastReturnedWith",
    "toHaveNthReturnedWith",
    "toHaveReturnedTimes",
    "toHaveLength",
    "toBeCloseTo",
    "toMatchSnapshot",
    "toMatchInlineSnapshot",
    "toThrowErrorMatchingSnapshot",
    "toThrowErrorMatchingInlineSnapshot",
    "toMatchFileSnapshot",
    // chai, sinon-chai
    "equal",
    "equals",
    "eq",
    "eql",
    "true",
    "false",
    "null",
    "undefined",
    "NaN",
    "lengthOf",
    "calledWith",
    "calledWithExactly",
    "calledOnceWith",
    "calledOnceWithExactly",
    "callCount",
    // node:assert, tape, ava, node-tap
    "strictEqual",
    "deepEqual",
    "deepStrictEqual",
    "deepEquals",
    "is",
    "same",
    "strictSame",
    "strictEquals",
    "isEqual",
];

const JS_PARTIAL: &[&str] = &[
    "toMatchObject",
    "toContain",
    "toContainEqual",
    "toMatch",
    "toHaveProperty",
    "toBeInstanceOf",
    "toBeGreaterThan",
    "toBeGreaterThanOrEqual",
    "toBeLessThan",
    "toBeLessThanOrEqual",
    "toThrow",
    "toThrowError",
    "toHaveBeenCalled",
    "toHaveBeenCalledOnce",
    "toBeCalled",
    "toHaveReturned",
    "toBeTypeOf",
    "toHaveClass",
    "toHaveTextContent",
    "toHaveAttribute",
    "toHaveValue",
    "include",
    "includes",
    "contain",
    "contains",
    "match",
    "property",
    "instanceof",
    "instanceOf",
    "a",
    "an",
    "above",
    "below",
    "least",
    "most",
    "within",
    "throw",
    "throws",
    "rejects",
    "called",
    "calledOnce",
    "keys",
    "members",
    "like",
    "has",
    "regex",
];

const JS_WEAK: &[&str] = &[
    "toBeTruthy",
    "toBeFalsy",
    "toBeDefined",
    "toBeInTheDocument",
    "toBeVisible",
    "ok",
    "exist",
    "exists",
    "truthy",
    "falsy",
    "notOk",
    "assert",
    "assert.ok",
    "assert.notEqual",
    "assert.notStrictEqual",
    "notEqual",
    "notStrictEqual",
    "not",
];

const RUST_EXACT: &[&str] = &[
    "assert_eq",
    "==",
    "assert_snapshot",
    "assert_debug_snapshot",
    "assert_compact_debug_snapshot",
    "assert_display_snapshot",
    "assert_yaml_snapshot",
    "assert_json_snapshot",
    "assert_toml_snapshot",
    "assert_ron_snapshot",
    "assert_csv_snapshot",
    "assert_approx_eq",
    "assert_relative_eq",
    "assert_abs_diff_eq",
    "assert_ulps_eq",
    "assert_float_eq",
];

const RUST_PARTIAL: &[&str] = &[
    "matches",
    "assert_matches",
    "assert_contains",
    "should_panic",
    "<",
    ">",
    "<=",
    ">=",
    "assert_err",
    "assert_ok",
    "assert_some",
    "assert_none",
    "expect",
];

const RUST_WEAK: &[&str] = &["truthy", "not", "assert_ne", "!=", "&&", "||"];

const GO_EXACT: &[&str] = &[
    "Equal",
    "Equalf",
    "EqualValues",
    "EqualValuesf",
    "Exactly",
    "DeepEqual",
    "JSONEq",
    "YAMLEq",
    "EqualError",
    "Nil",
    "Nilf",
    "NoError",
    "NoErrorf",
    "NilError",
    "Len",
    "Lenf",
    "Zero",
    "Empty",
    "Same",
    "ElementsMatch",
    "InDelta",
    "InEpsilon",
    "ErrorIs",
    "PanicsWithValue",
    "PanicsWithError",
    "Output",
];

const GO_PARTIAL: &[&str] = &[
    "Contains",
    "Containsf",
    "Subset",
    "Greater",
    "GreaterOrEqual",
    "Less",
    "LessOrEqual",
    "Positive",
    "Negative",
    "IsType",
    "Implements",
    "Regexp",
    "Error",
    "Errorf",
    "ErrorAs",
    "ErrorContains",
    "Panics",
    "WithinDuration",
];

const GO_WEAK: &[&str] = &[
    "True",
    "Truef",
    "False",
    "Falsef",
    "NotNil",
    "NotNilf",
    "NotEqual",
    "NotEqualf",
    "NotEqualValues",
    "NotEmpty",
    "NotZero",
    "NotContains",
    "NotPanics",
    "Assert",
    "Check",
];

/// Negated exact call checks pin the calls to none.
const JS_NEGATED_EXACT: &[&str] = &["toHaveBeenCalled", "toBeCalled", "called"];

/// The strength of an assertion's matcher, when the lattice knows it.
pub fn rank(family: Family, assertion: &Assertion) -> Option<u8> {
    let matcher = assertion.matcher.as_str();
    match family {
        Family::Python => {
            // `pytest.raises(E, match=..)` pins the message too.
            if matches!(matcher, "raises" | "warns") && assertion.parts.iter().any(|p| p.starts_with("match =")) {
                return Some(3);
            }
            level(matcher, PYTHON_EXACT, PYTHON_PARTIAL, PYTHON_WEAK)
        }
        Family::JavaScript => {
            let segments: Vec<&str> = matcher.split('.').collect();
            let last = *segments.last()?;
            let negated = segments.contains(&"not");
            if negated {
                return Some(if JS_NEGATED_EXACT.contains(&last) { 3 } else { 1 });
            }
            // `assert.equal`, `assert.deepStrictEqual`: the method names the check.
            let method = match segments.as_slice() {
                ["assert"] => "assert",
                ["assert", "ok"] => "assert.ok",
                _ => last,
            };
            // `toThrow(TypeError)` or `toThrow("message")` pins the error.
            if matches!(method, "toThrow" | "toThrowError" | "throws" | "throw" | "rejects")
                && assertion.parts.len() > 1
            {
                return Some(3);
            }
            // A subset of a string, number or boolean is the value itself:
            // `toMatchObject('Foo')` passes only for `'Foo'` (vitest reads it
            // as equality; Jest refuses it), as `toBe('Foo')` does.
            if method == "toMatchObject" && assertion.parts.get(1).is_some_and(|e| primitive(e)) {
                return Some(3);
            }
            level(method, JS_EXACT, JS_PARTIAL, JS_WEAK)
        }
        Family::Rust => {
            // `#[should_panic(expected = "..")]` pins the message.
            if matcher == "should_panic" && !assertion.parts.is_empty() {
                return Some(3);
            }
            level(matcher, RUST_EXACT, RUST_PARTIAL, RUST_WEAK)
        }
        // `t.Errorf` under an `if` is written as what its condition demands
        // (`==`, `<=`, `truthy`: see `Assertion::read_condition`), unranked here.
        Family::Go => level(matcher, GO_EXACT, GO_PARTIAL, GO_WEAK),
    }
}

/// Is the token key `key` a string, a number or a boolean literal?
fn primitive(key: &str) -> bool {
    let tokens: Vec<&str> = key.split(' ').collect();
    match tokens.as_slice() {
        ["true" | "false"] => true,
        [number] | ["-", number] => number.parse::<f64>().is_ok(),
        [open, .., close] => {
            matches!(*open, "\"" | "'" | "`")
                && open == close
                && !tokens[1..tokens.len() - 1].iter().any(|t| *t == *open || *t == "${")
        }
        _ => false,
    }
}

fn level(matcher: &str, exact: &[&str], partial: &[&str], weak: &[&str]) -> Option<u8> {
    if exact.contains(&matcher) {
        Some(3)
    } else if partial.contains(&matcher) {
        Some(2)
    } else if weak.contains(&matcher) {
        Some(1)
    } else {
        None
    }
}

/// The lattice as a Markdown table, for the docs.
pub fn table() -> String {
    let mut out = String::from("| strength | Python | JavaScript / TypeScript | Rust | Go |\n|---|---|---|---|---|\n");
    let join = |names: &[&str]| names.iter().map(|n| format!("`{n}`")).collect::<Vec<_>>().join(", ");
    for (name, py, js, rs, go) in [
        ("3 exact", PYTHON_EXACT, JS_EXACT, RUST_EXACT, GO_EXACT),
        ("2 partial", PYTHON_PARTIAL, JS_PARTIAL, RUST_PARTIAL, GO_PARTIAL),
        ("1 weak", PYTHON_WEAK, JS_WEAK, RUST_WEAK, GO_WEAK),
    ] {
        out.push_str(&format!(
            "| {name} | {} | {} | {} | {} |\n",
            join(py),
            join(js),
            join(rs),
            join(go)
        ));
    }
    out
}
