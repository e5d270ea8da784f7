use super::{finding_at, tautology};
use crate::finding::Finding;
use crate::lang::{Assertion, Form, Operand, TestCase, TestFile, callee_segments, written};
use crate::rule::{Level, RuleMeta};

pub const TAUTOLOGICAL_ASSERTION: RuleMeta = RuleMeta {
    id: "mock/tautological-assertion",
    gate: "mock",
    default_level: Level::Deny,
    summary: "an assertion that holds whatever the code under test does",
    help: "assert on a value the code under test returns or changes",
    doc: include_str!("tautological-assertion.md"),
};

/// Checks that a value holds another, by the matcher's last name, and
/// whether the part sought comes first (`assert "" in s`, `assertIn("", s)`)
/// or after the subject (`assert.Contains(t, s, "")`, `expect(s).toContain("")`,
/// `expect(s).to.include("")`, `assert.include(s, "")`).
const CONTAINS_MATCHERS: &[(&str, bool)] = &[
    ("in", true),
    ("assertIn", true),
    ("Contains", false),
    ("Containsf", false),
    ("toContain", false),
    ("include", false),
    ("includes", false),
    ("contain", false),
    ("contains", false),
];

/// Calls true of every string when the string they look for is empty,
/// whatever they are called on: prefixes and suffixes (only strings have
/// them with a string argument), and Go's `strings.Contains`.
const PREFIX_CALLS: &[&str] = &[
    "startswith",
    "endswith",
    "startsWith",
    "endsWith",
    "starts_with",
    "ends_with",
    "HasPrefix",
    "HasSuffix",
];

/// Calls that look for an item or a part: true of every string given the
/// empty string, yet a real check on a list (`[""].includes("")`), so
/// judged only on what is visibly a string.
const CONTAINS_CALLS: &[&str] = &["includes", "contains", "Contains"];

/// Is the token key `key` the empty string literal (`""`, `''`, a
/// template without text, Python's `r""`/`b""`)?
fn empty_string(key: &str) -> bool {
    let squashed: String = key.chars().filter(|c| !c.is_whitespace()).collect();
    let bare = squashed.trim_start_matches(['r', 'R', 'b', 'B', 'u', 'U']);
    matches!(bare, "\"\"" | "''" | "``" | "\"\"\"\"\"\"" | "")
}

/// Is the expression (a token key) visibly a string: a string literal, a
/// conversion to one (`str(x)`, `String(x)`, `x.toString()`,
/// `buf.String()`, `err.Error()`, `x.to_string()`, `fmt.Sprintf(..)`,
/// `format!(..)`), or what a program printed (`.stdout`, `.output`, `.text`)?
fn visibly_text(key: &str) -> bool {
    let squashed: String = key.chars().filter(|c| !c.is_whitespace()).collect();
    const ENDS: &[&str] = &[
        ".String()",
        ".Error()",
        ".toString()",
        ".to_string()",
        ".getvalue()",
        ".decode()",
        ".stdout",
        ".stderr",
        ".output",
        ".text",
        ".message",
    ];
    const STARTS: &[&str] = &["str(", "String(", "string(", "fmt.Sprint", "format!("];
    squashed.starts_with(['"', '\'', '`'])
        || ENDS.iter().any(|e| squashed.ends_with(e))
        || STARTS
            .iter()
            .any(|p| squashed.starts_with(p) && squashed.ends_with(')'))
}

/// Why `a` always holds because it asks whether a string holds (or begins
/// or ends with) the empty string, if it does: every string does
/// (`assert.Contains(t, buf.String(), "")`, `assert "" in result.output`,
/// `strings.Contains(out, "")` under a failure, `out.startswith("")`). A
/// negated matcher (`not.toContain`) is not one: it can never hold.
fn contains_empty(a: &Assertion) -> Option<String> {
    let mut names = a.matcher.split('.');
    let last = names.next_back().unwrap_or_default();
    if let Some(&(_, sought_first)) = CONTAINS_MATCHERS.iter().find(|(m, _)| *m == last) {
        let (sought, within) = match a.parts.as_slice() {
            [x, y, ..] if sought_first => (x, y),
            [x, y, ..] => (y, x),
            _ => return None,
        };
        let negated = names.any(|n| n == "not");
        return (!negated && empty_string(sought) && visibly_text(within)).then(|| {
            format!(
                "asserts that `{}` contains the empty string, which every string does",
                written(within)
            )
        });
    }
    let Form::Truthy(op) = a.form.demanded() else {
        return None;
    };
    let callee = op.call_of.as_deref()?;
    let name = callee_segments(callee).last()?;
    let argument = op.text.strip_suffix(')')?.rsplit(['(', ',']).next()?;
    let receiver = callee
        .strip_suffix(name)
        .unwrap_or_default()
        .trim_end_matches(['.', ':']);
    let always = PREFIX_CALLS.contains(&name)
        || callee == "strings.Contains"
        || (CONTAINS_CALLS.contains(&name) && visibly_text(receiver));
    (always && empty_string(argument)).then(|| {
        format!(
            "asserts `{}`, which is true of every string: the empty string is in each",
            op.text
        )
    })
}

/// Beginnings of the words of a test's name or scope that say it tests
/// equality itself, where comparing a value with itself is the check
/// (`test_eq_is_reflexive`, `TestHashing`, `test_ordering`, `partial_eq`),
/// and words that must match whole (`ne`, `nan`, `same`).
const ABOUT_EQUALITY: &[&str] = &["eq", "hash", "compar", "cmp", "order", "ident", "reflex"];
const ABOUT_EQUALITY_WORDS: &[&str] = &["ne", "nan", "same"];

/// The words of a name: split on non-alphanumerics and before each capital
/// (`test_eq_mirrors`, `TestEquality`, `testCompareWith`, `perf_counter`).
fn words(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut word = String::new();
    for c in s.chars() {
        if (!c.is_alphanumeric() || c.is_uppercase()) && !word.is_empty() {
            out.push(std::mem::take(&mut word));
        }
        if c.is_alphanumeric() {
            word.extend(c.to_lowercase());
        }
    }
    out.push(word);
    out
}

/// Does a word of `test`'s name or scope begin with one of `prefixes` or
/// equal one of `whole`?
fn named_about(test: &TestCase, prefixes: &[&str], whole: &[&str]) -> bool {
    words(&test.name)
        .into_iter()
        .chain(words(&test.scope))
        .any(|w| prefixes.iter().any(|p| w.starts_with(p)) || whole.contains(&w.as_str()))
}

fn about_equality(test: &TestCase) -> bool {
    named_about(test, ABOUT_EQUALITY, ABOUT_EQUALITY_WORDS)
}

/// Beginnings of the words of a test's name or scope that say two
/// evaluations of one expression are compared on purpose: that the code
/// gives the same result each time (`test_schema_is_deterministic`,
/// `test_cached_property`, `TestIdempotency`, `stable_ordering`) or a new
/// one (`test_random_seed`, `test_ids_are_unique`).
const ABOUT_REPEATING: &[&str] = &[
    "determin",
    "nondetermin",
    "stab",
    "idempot",
    "consist",
    "reproduc",
    "repeat",
    "cach",
    "memoi",
    "singleton",
    "pure",
    "twice",
    "again",
    "random",
    "uniq",
    "fresh",
    "distinct",
    "lazy",
];
const ABOUT_REPEATING_WORDS: &[&str] = &["memo", "intern", "interned", "interning"];

/// Whole names in a callee's path (`time.time`, `id`, `next`, `list`,
/// `Buffer.from`) and beginnings or whole words of its names (`uuid4`,
/// `Math.random`, `Instant::now`, `NewClient`, `make_user`, `x.clone`)
/// that say two calls are meant to give different results: a random value,
/// the time, an id, the next item or what is left of a consumed iterator
/// (`list(keys) == list(keys)` checks that `keys` can be read twice), a
/// new object (whose equality to another built the same way is a check of
/// `__eq__` or `PartialEq`).
const FRESH_SEGMENTS: &[&str] = &[
    "id",
    "time",
    "object",
    "next",
    "iter",
    "list",
    "tuple",
    "set",
    "frozenset",
    "dict",
    "sorted",
    "reversed",
    "enumerate",
    "zip",
    "map",
    "filter",
    "array",
    "zeros",
    "ones",
    "empty",
    "full",
    "from",
    "of",
    "secrets",
];
const FRESH_PREFIXES: &[&str] = &[
    "rand", "uuid", "generat", "creat", "shuffl", "uniq", "nonce", "monoton", "clone", "copy", "spawn", "alloc",
    "fresh",
];
const FRESH_WORDS: &[&str] = &[
    "new", "now", "utcnow", "today", "clock", "tick", "next", "gen", "make", "build", "sample", "choice", "choices",
    "counter", "salt", "tmp", "temp", "mktemp", "mkdtemp", "tempfile", "tempdir", "tmpdir",
];

/// Does calling `callee` make something new each time?
fn fresh(callee: &str) -> bool {
    callee_segments(callee).any(|segment| FRESH_SEGMENTS.contains(&segment))
        || words(callee)
            .iter()
            .any(|w| FRESH_WORDS.contains(&w.as_str()) || FRESH_PREFIXES.iter().any(|p| w.starts_with(p)))
}

/// Why comparing the compound expression `op` (a call, an attribute or
/// field chain, a subscript: `f(1)`, `a.b[0]`) with itself cannot fail, if
/// it cannot: it only reads again what it read ([`Operand::recomputed`]),
/// none of its calls makes something new, and the test's name says nothing
/// of equality, determinism or caching.
fn recomputation(test: &TestCase, op: &Operand) -> Option<String> {
    let calls = op.recomputed.as_ref()?;
    if calls.iter().any(|c| fresh(c))
        || about_equality(test)
        || named_about(test, ABOUT_REPEATING, ABOUT_REPEATING_WORDS)
    {
        return None;
    }
    Some(if calls.is_empty() {
        format!("compares `{}` with itself", op.text)
    } else {
        format!(
            "compares `{}` with itself: the same calls with the same arguments give the same value (a test that the code is deterministic or caches says so in its name)",
            op.text
        )
    })
}

/// Why the [`Form::SelfEqual`] `op` of `test` cannot fail, if it cannot: a
/// local name compared with itself in a test whose name is not about
/// equality and which checks nothing else; a compound expression as
/// [`recomputation`] says.
fn self_comparison(test: &TestCase, op: &Operand) -> Option<String> {
    let local = !op.effects && op.key.chars().all(|c| c.is_alphanumeric() || c == '_');
    if !local {
        return recomputation(test, op);
    }
    let checks_nothing_else = test
        .assertions
        .iter()
        .all(|a| matches!(a.form.demanded(), Form::SelfEqual(_)) || tautology(&a.form).is_some());
    (checks_nothing_else && !about_equality(test)).then(|| {
        format!(
            "compares `{}` with itself, and the test checks nothing else (a test of `==` itself says so in its name)",
            op.text
        )
    })
}

pub fn tautological_assertion(path: &str, file: &TestFile) -> Vec<Finding> {
    let mut out = Vec::new();
    for test in &file.tests {
        // With a plan (`t.plan(n)`), `t.ok(true, "why")` counts one of the
        // planned assertions: it marks a path as accepted, like `t.pass()`.
        let planned = test.calls.iter().any(|c| c == "plan");
        for a in &test.assertions {
            let marks_a_branch = planned && matches!(a.form, Form::Truthy(_));
            if marks_a_branch {
                continue;
            }
            let why = match a.form.demanded() {
                Form::SelfEqual(op) => self_comparison(test, op),
                Form::Equal(x, y) if x.effects && x.literal.is_none() && x.key == y.key => recomputation(test, x),
                _ => tautology(&a.form).or_else(|| contains_empty(a)),
            };
            if let Some(why) = why {
                let s = a.span;
                out.push(finding_at(
                    &TAUTOLOGICAL_ASSERTION,
                    format!("tautological assertion in `{}`: it {why}", test.name),
                    path,
                    s,
                ));
            }
        }
    }
    out
}
