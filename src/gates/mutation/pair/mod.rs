//! Pairing two versions of a test file: tests by scope and name (then by
//! identical checks, then by position, for renames), and inside a pair of
//! tests, assertions by their check. Pure functions over [`TestFile`] models;
//! formatting never matters because checks are token keys.

use crate::lang::{Assertion, Form, TestCase, TestFile, is_plain_name, similarity};

use super::lattice::{Family, rank};

mod canonical;
mod idle;
mod remade;
mod stronger;
use canonical::{canonical, migrated, thrown_checked, thrown_made};
pub use canonical::{same_check, same_check_as, threw_again};
use stronger::{bool_written_out, contradicted, flipped, implied, pinned_by_truth, same_truth};
pub use stronger::{emptied_list, extended, narrowed, pinned_with_its_pattern, truth};
mod rows;
mod titles;
mod values;
pub use idle::{housekeeping, vacuous};
pub use remade::{made_keys, remade_keys};
pub use rows::{
    as_strong_in_every_case, case_assertions, case_checks, case_row_checks, case_row_key, input_replaced, instances,
    made_by_rows, mentions, row_functions, row_of, table_changes,
};
use titles::{regrouped, spelled_words, title_words};
pub use values::{gained_fields, is_literal, literals, spelled_value};
use values::{literal_changed, literal_named};

/// Tests of an old and a new version, paired.
#[derive(Debug, Default)]
pub struct TestPairs<'a> {
    /// The same test in both versions (renames included).
    pub paired: Vec<(&'a TestCase, &'a TestCase)>,
    /// Tests only the old version has.
    pub removed: Vec<&'a TestCase>,
    /// Tests only the new version has.
    pub added: Vec<&'a TestCase>,
}

/// A check as one string: its matcher and operands (formatting-insensitive;
/// the two sides of an equality in either order).
pub fn check_key(a: &Assertion) -> String {
    key_of(a, a.parts.iter().map(String::as_str).collect())
}

/// The [`check_key`] of `a` with `parts` for its operands, as written
/// elsewhere (squashed, a local written out).
pub fn key_of(a: &Assertion, mut parts: Vec<&str>) -> String {
    if matches!(a.form, Form::Equal(..) | Form::NotEqual(..)) && parts.len() == 2 {
        parts.sort_unstable();
    }
    let mut key = a.matcher.clone();
    for part in parts {
        key.push('\u{1f}');
        key.push_str(part);
    }
    key
}

/// The [`check_key`] of `a` with each name where a value stands (a whole
/// operand, a receiver, an argument: not `float32` of `[]float32{..}`) as
/// `rewrite` gives it, when it does.
fn names_rewritten(a: &Assertion, rewrite: impl Fn(&str) -> Option<String>) -> String {
    let key = check_key(a);
    let pieces: Vec<&str> = key.split_inclusive([' ', '\u{1f}']).collect();
    let word = |i: usize| pieces.get(i).map(|p| p.trim_end_matches([' ', '\u{1f}']));
    let mut out = String::new();
    for (i, piece) in pieces.iter().enumerate() {
        let w = word(i).unwrap_or_default();
        // The piece before ends a part, or opens a call or a list.
        let starts = i == 0 || pieces[i - 1].ends_with('\u{1f}') || matches!(word(i - 1), Some("(" | ","));
        let ends = piece.ends_with('\u{1f}') || matches!(word(i + 1), None | Some("." | "[" | ")" | ","));
        match rewrite(w).filter(|_| starts && ends) {
            Some(new) => out.push_str(&new),
            None => out.push_str(w),
        }
        out.push_str(&piece[w.len()..]);
    }
    out
}

/// The check `a` of `t` as a check of what its locals hold: each local `t`
/// binds once to a call, where a value stands, as the name without its
/// number and the call (`Empty(result4)` of `result4 := Without(..)` is
/// `Empty(result=Without())`); `None` when `a` reads no such local. A test
/// split in two numbers its results anew in each (issue 64: samber/lo's
/// `TestWithout` became `TestWithoutSmall` and `TestWithoutLarge`).
pub fn through_locals(t: &TestCase, a: &Assertion) -> Option<String> {
    let call = |w: &str| t.aliases.iter().find(|(name, _)| name == w).map(|(_, call)| call);
    let key = names_rewritten(a, |w| {
        call(w).map(|c| format!("{}={c}", values::numbered(w).unwrap_or(w)))
    });
    (key != check_key(a)).then_some(key)
}

/// Drop from `changes` each deleted check that `new` still makes on a local
/// of the same name without its number (`Zero(index3)` as `Zero(index)` in
/// a subtest of its own; issue 64: samber/lo's numbered results became one
/// per subtest), each check of `new` on names without a number standing
/// for one (a copy of `f(always_return_1)` kept is no such check).
pub fn renumbered(changes: &mut Vec<Change<'_>>, new: &TestCase) {
    let unnumbered = |a: &Assertion| names_rewritten(a, |w| values::numbered(w).map(str::to_string));
    // Only checks of names without a number stand for one.
    let mut made: Vec<String> = new
        .assertions
        .iter()
        .filter(|b| unnumbered(b) == check_key(b))
        .map(check_key)
        .collect();
    changes.retain(|change| {
        let Change::Deleted { old } = change else { return true };
        let key = unnumbered(old);
        if key == check_key(old) {
            return true;
        }
        match made.iter().position(|m| *m == key) {
            Some(at) => {
                made.swap_remove(at);
                false
            }
            None => true,
        }
    });
}

/// The parts of a conjunction (`a && b`, `a and b`), or the key itself when
/// it is not one or when a disjunction or a conditional makes its parts
/// mean something else.
fn conjuncts(key: &str) -> impl Iterator<Item = &str> {
    let plain = !key
        .split(' ')
        .any(|t| matches!(t, "||" | "or" | "?" | "??" | "(" | "if"));
    let mut parts: Vec<&str> = vec![key];
    if plain {
        parts = key.split(" && ").flat_map(|p| p.split(" and ")).collect();
    }
    parts.into_iter()
}

/// Is `inner` a part of `whole` (`res . body . length` of `res . body`):
/// what pins `whole` down pins `inner` too.
fn part_of(inner: &str, whole: &str) -> bool {
    inner
        .strip_prefix(whole)
        .is_some_and(|rest| [" .", " [", " ?.", " ("].iter().any(|sep| rest.starts_with(sep)))
}

pub fn same_checks(a: &TestCase, b: &TestCase) -> bool {
    a.assertions.len() == b.assertions.len() && a.assertions.iter().zip(&b.assertions).all(|(x, y)| same_check(x, y))
}

/// How much of its body a test must share with another to be the same
/// test renamed, moved or lightly edited ([`crate::lang::similarity`]).
pub const SAME_BODY: f64 = 0.6;

/// Is `new` the test `old` renamed by letter case alone (`get /page` ->
/// `GET /page`)? Only when it still checks one of the values `old` checked
/// (an expected literal of two characters or more): two tests of one name
/// in two suites may test different things.
pub fn renamed_by_case(old: &TestCase, new: &TestCase) -> bool {
    let values = |t: &TestCase| -> std::collections::HashSet<String> {
        t.assertions
            .iter()
            .flat_map(expected)
            .filter(|e| is_literal(e))
            .map(spelled_value)
            .filter(|v| v.chars().count() >= 2)
            .collect()
    };
    !old.name.is_empty() && old.name.to_lowercase() == new.name.to_lowercase() && !values(old).is_disjoint(&values(new))
}

/// Is `t` one of several variants of a test in `old` (`#[cfg(..)]` on
/// each) that `new` merged into fewer?
pub fn merged_variant(t: &TestCase, old: Option<&TestFile>, new: Option<&TestFile>) -> bool {
    let named = |f: Option<&TestFile>| {
        f.map_or(0, |f| {
            f.tests
                .iter()
                .filter(|u| u.name == t.name && u.scope == t.scope)
                .count()
        })
    };
    named(old) > named(new).max(1)
}

/// The changes of `old`, a variant merged into `new` ([`merged_variant`]):
/// each check `new` does not make as it was is lost; the other variants'
/// checks are no new values of its own.
pub fn variant_changes<'a>(old: &'a TestCase, new: &TestCase) -> Vec<Change<'a>> {
    old.assertions
        .iter()
        .filter(|a| !new.assertions.iter().any(|b| same_check(a, b)))
        .map(|a| Change::Deleted { old: a })
        .collect()
}

/// Pair the tests of `old` and `new` (either may be absent: an added or a
/// deleted file): by scope and name; by name alone when the scope was
/// renamed, or but for letter case ([`renamed_by_case`]), or but for
/// spaces, case and separators; by identical
/// checks; by a body much like the old one; and what is left of one scope,
/// in order, when as many tests are left on each side.
pub fn pair_tests<'a>(old: Option<&'a TestFile>, new: Option<&'a TestFile>) -> TestPairs<'a> {
    let old: Vec<&TestCase> = old.map(|f| f.tests.iter().collect()).unwrap_or_default();
    let new: Vec<&TestCase> = new.map(|f| f.tests.iter().collect()).unwrap_or_default();
    let mut taken = vec![false; new.len()];
    let mut pairs = TestPairs::default();
    let mut left = Vec::new();
    // By scope and name; duplicates in order. Duplicates beyond the new
    // ones are variants of one test (`#[cfg(target_endian = "little")]`
    // and `"big"`), merged into it (issue 64: memchr's `byte_order`).
    for o in old {
        let variant_of = || {
            pairs
                .paired
                .iter()
                .find(|(p, _)| !o.name.is_empty() && p.name == o.name && p.scope == o.scope)
                .map(|&(_, n)| n)
        };
        match (0..new.len()).find(|&j| !taken[j] && new[j].name == o.name && new[j].scope == o.scope) {
            Some(j) => {
                taken[j] = true;
                pairs.paired.push((o, new[j]));
            }
            None => match variant_of() {
                Some(n) => pairs.paired.push((o, n)),
                None => left.push(o),
            },
        }
    }
    // A name another renamed test took over (spf13/cast: `TestToTimeEE`
    // became `TestToTime` while `TestToTime` became
    // `TestToTimeWithTimezones`): a pair by name whose bodies share next
    // to nothing, when an old test left has the new one's body, is that
    // test renamed; the old one of the name is paired as any other left.
    for k in 0..pairs.paired.len() {
        let (o, n) = pairs.paired[k];
        if similarity(&o.shape, &n.shape) >= 1.0 - SAME_BODY {
            continue;
        }
        let Some(i) = left
            .iter()
            .position(|o2: &&TestCase| similarity(&o2.shape, &n.shape) >= SAME_BODY)
        else {
            continue;
        };
        pairs.paired[k] = (left.remove(i), n);
        left.push(o);
    }
    // The scope was renamed or the test moved to another group: its name, when
    // only one test left has it; else its name but for letter case
    // (`get /page` -> `GET /page`), when only one has that.
    let mut still = Vec::new();
    for o in left {
        let mut named: Vec<usize> = (0..new.len()).filter(|&j| !taken[j] && new[j].name == o.name).collect();
        if named.is_empty() {
            named = (0..new.len())
                .filter(|&j| !taken[j] && renamed_by_case(o, new[j]))
                .collect();
        }
        // Or but for spaces, case and separators: `total timeout budget` ->
        // `totalTimeout budget`, as an option renamed in the code.
        if named.is_empty() {
            let joined = |name: &str| -> String {
                name.chars()
                    .filter(|c| !c.is_whitespace() && !matches!(c, '_' | '-'))
                    .flat_map(char::to_lowercase)
                    .collect()
            };
            let was = joined(&o.name);
            named = (0..new.len())
                .filter(|&j| !taken[j] && was.chars().count() >= 8 && joined(&new[j].name) == was)
                .collect();
        }
        match named.as_slice() {
            [j] if !o.name.is_empty() => {
                taken[*j] = true;
                pairs.paired.push((o, new[*j]));
            }
            _ => still.push(o),
        }
    }
    // Renamed: the same checks under another name.
    let mut left = Vec::new();
    for o in still {
        match (0..new.len()).find(|&j| !taken[j] && !o.assertions.is_empty() && same_checks(o, new[j])) {
            Some(j) => {
                taken[j] = true;
                pairs.paired.push((o, new[j]));
            }
            None => left.push(o),
        }
    }
    // Renamed and edited: the most similar bodies first.
    let mut candidates: Vec<(f64, usize, usize)> = Vec::new();
    for (i, o) in left.iter().enumerate() {
        for (j, n) in new.iter().enumerate().filter(|(j, _)| !taken[*j]) {
            let share = similarity(&o.shape, &n.shape);
            if share >= SAME_BODY {
                candidates.push((share, i, j));
            }
        }
    }
    candidates.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)).then(a.2.cmp(&b.2)));
    let left = take_in_order(
        left,
        candidates.into_iter().map(|(_, i, j)| (i, j)),
        &new,
        &mut taken,
        &mut pairs,
    );
    // Renamed by saying more or less (`custom propsAreEqual` -> `custom
    // propsAreEqual is handed to the DOM renderer`, go-toml's generated
    // `TestTOMLTest_Invalid_Control_CommentDel` ->
    // `TestTOMLTest_Invalid_Tests_Invalid_Control_CommentDel`) and
    // rewritten: the one test left in its scope whose name has all the
    // words of the other, in order, from the same first word, and more.
    let words = |name: &'a str| -> Vec<&'a str> {
        name.split(|c: char| c.is_whitespace() || c == '_')
            .filter(|w| !w.is_empty())
            .collect()
    };
    let extends = |long: &[&str], short: &[&str]| {
        let mut rest = long.iter();
        !short.is_empty()
            && long.len() > short.len()
            && long.first() == short.first()
            && short.iter().all(|w| rest.any(|l| l == w))
    };
    let new_words: Vec<Vec<&str>> = match left.is_empty() {
        true => Vec::new(),
        false => new.iter().map(|n| words(&n.name)).collect(),
    };
    let mut still = Vec::new();
    for o in left {
        let had = words(&o.name);
        let named: Vec<usize> = (0..new.len())
            .filter(|&j| !taken[j] && new[j].scope == o.scope)
            .filter(|&j| extends(&new_words[j], &had) || extends(&had, &new_words[j]))
            .collect();
        match named.as_slice() {
            [j] => {
                taken[*j] = true;
                pairs.paired.push((o, new[*j]));
            }
            _ => still.push(o),
        }
    }
    // Regrouped: the words of the old group titles and name together,
    // placeholders aside, all in the new ones, and what the new ones say
    // more said by a group around the test (Jest's `test.each(rows)('via %s
    // and more', ..)` rewritten as `describe('and more', () =>
    // rows.forEach(([m]) => test(`via ${m}`, ..)))`, or a new `describe`
    // around it), or one word of its own name. The closest first.
    let mut candidates: Vec<(usize, usize, usize)> = Vec::new();
    for (i, o) in still.iter().enumerate() {
        let had = title_words(&o.scope, &o.name);
        if had.len() < 3 {
            continue;
        }
        for (j, n) in new.iter().enumerate().filter(|(j, _)| !taken[*j]) {
            if let Some(more) = regrouped(&had, n) {
                candidates.push((more, i, j));
            }
        }
    }
    candidates.sort_unstable();
    let still = take_in_order(
        still,
        candidates.into_iter().map(|(_, i, j)| (i, j)),
        &new,
        &mut taken,
        &mut pairs,
    );
    // Renamed to another naming convention, and maybe out of its class or
    // into one (unittest's `ImportVersionTest.testImportRoot` become
    // pytest's `test_import_version_root`): the one test left whose name's
    // words are its own name's, and at most those of its old class too.
    let mut left = Vec::new();
    for o in still {
        let had = spelled_words(&o.name);
        let around = spelled_words(&o.scope);
        let named: Vec<usize> = (0..new.len())
            .filter(|&j| !taken[j] && !had.is_empty())
            .filter(|&j| {
                let now = spelled_words(&new[j].name);
                let was_around = spelled_words(&new[j].scope);
                had.iter().all(|w| now.contains(w)) && now.iter().all(|w| had.contains(w) || around.contains(w))
                    || now.len() >= 2
                        && now.iter().all(|w| had.contains(w))
                        && had.iter().all(|w| now.contains(w) || was_around.contains(w))
            })
            .collect();
        match named.as_slice() {
            [j] if new[*j].name != o.name => {
                taken[*j] = true;
                pairs.paired.push((o, new[*j]));
            }
            _ => left.push(o),
        }
    }
    let still = left;
    // Renamed and rewritten: as many tests left on each side of one scope, in order.
    let mut removed = Vec::new();
    let mut scopes: Vec<&str> = Vec::new();
    for t in &still {
        if !scopes.contains(&t.scope.as_str()) {
            scopes.push(&t.scope);
        }
    }
    for scope in scopes {
        let olds: Vec<&TestCase> = still.iter().copied().filter(|t| t.scope == scope).collect();
        let news: Vec<usize> = (0..new.len()).filter(|&j| !taken[j] && new[j].scope == scope).collect();
        if olds.len() == news.len() {
            for (o, j) in olds.into_iter().zip(news) {
                taken[j] = true;
                pairs.paired.push((o, new[j]));
            }
        } else {
            removed.extend(olds);
        }
    }
    pairs.removed = removed;
    pairs.added = (0..new.len()).filter(|&j| !taken[j]).map(|j| new[j]).collect();
    pairs
}

/// Pair old tests `olds[i]` with new tests `new[j]` in the order the
/// candidate pairs `(i, j)` come, each test once; what of `olds` is left.
fn take_in_order<'a>(
    olds: Vec<&'a TestCase>,
    candidates: impl Iterator<Item = (usize, usize)>,
    new: &[&'a TestCase],
    taken: &mut [bool],
    pairs: &mut TestPairs<'a>,
) -> Vec<&'a TestCase> {
    let mut paired_old = vec![false; olds.len()];
    for (i, j) in candidates {
        if !paired_old[i] && !taken[j] {
            paired_old[i] = true;
            taken[j] = true;
            pairs.paired.push((olds[i], new[j]));
        }
    }
    olds.into_iter()
        .zip(paired_old)
        .filter(|(_, paired)| !paired)
        .map(|(o, _)| o)
        .collect()
}

/// What became of one old assertion.
#[derive(Debug, PartialEq)]
pub enum Change<'a> {
    /// The same check on the same subject with other expected values.
    ValueChanged { old: &'a Assertion, new: &'a Assertion },
    /// A weaker matcher on the same subject.
    Weakened { old: &'a Assertion, new: &'a Assertion },
    /// No assertion took its place.
    Deleted { old: &'a Assertion },
}

/// The operand an assertion is about: the first, unless it is a literal and
/// the second is not (`assert 5 == total`, `assertEqual(5, total)`).
pub fn subject(a: &Assertion) -> Option<&str> {
    match a.parts.as_slice() {
        [first, second, ..] if is_literal(first) && !is_literal(second) => Some(second),
        [first, ..] => Some(first),
        [] => None,
    }
}

/// Is the matcher a chain on `expect(..)` or `should` (`toBe`, `not.toEqual`,
/// `to.deep.equal`), whose arguments are all expectations? A call such as
/// `t.equal(a, b, msg)` or `assertEqual(a, b, msg)` ends with a message.
fn chained(matcher: &str) -> bool {
    matcher.split('.').any(|segment| {
        segment == "to"
            || segment == "should"
            || segment
                .strip_prefix("to")
                .is_some_and(|rest| rest.starts_with(|c: char| c.is_ascii_uppercase()))
    })
}

/// The operands that are values: for a call-style assertion, those its form
/// compares (one for `ok`/`assertTrue`, else two), without the message or
/// options after them (`t.equal(a, b, "msg")`, `assertAlmostEqual(a, b, places=3)`).
fn operands(a: &Assertion) -> &[String] {
    if chained(&a.matcher) {
        return &a.parts;
    }
    let arity = match a.form {
        Form::Truthy(_) | Form::Falsy(_) => 1,
        _ => 2,
    };
    let keyword = a
        .parts
        .iter()
        .position(|p| p.split_once(" = ").is_some_and(|(name, _)| !name.contains(' ')))
        .unwrap_or(a.parts.len());
    &a.parts[..a.parts.len().min(arity).min(keyword)]
}

/// The value operands other than the subject.
pub fn expected(a: &Assertion) -> Vec<&str> {
    let subject = subject(a);
    let mut skipped = false;
    operands(a)
        .iter()
        .map(String::as_str)
        .filter(|p| {
            if !skipped && Some(*p) == subject {
                skipped = true;
                return false;
            }
            true
        })
        .collect()
}

/// Does the check ask a call given a literal for something
/// (`ta.dump_json(Fraction(1, 3)) == b'"1/3"'`, not `result == 0`)?
pub fn asks_a_call(a: &Assertion) -> bool {
    subject(a).and_then(last_call).is_some()
}

/// The last call of a token key, the receiver before it left out
/// (`v . get ( "k" )` -> `get ( "k" )`), when it is a call given at least
/// one literal.
fn last_call(key: &str) -> Option<&str> {
    let mut depth = 0usize;
    let mut start = 0;
    let mut offset = 0;
    for token in key.split(' ') {
        match token {
            "(" | "[" | "{" => depth += 1,
            ")" | "]" | "}" => depth = depth.saturating_sub(1),
            "." | "?." if depth == 0 => start = offset + token.len() + 1,
            _ => {}
        }
        offset += token.len() + 1;
    }
    let call = key.get(start..)?;
    let (name, args) = call.split_once(" ( ")?;
    (is_plain_name(name) && args.ends_with(')') && args.split(' ').any(is_literal)).then_some(call)
}

/// Does an exact check pin only how many there are (`toHaveLength(2)`,
/// `assert.Len`, `toHaveBeenCalledTimes`), not the value: it holds no check
/// of a part (`xs[1]` is `'b'`).
fn counts_only(a: &Assertion) -> bool {
    matches!(
        a.matcher.rsplit('.').next(),
        Some(
            "toHaveLength"
                | "lengthOf"
                | "Len"
                | "Lenf"
                | "toHaveBeenCalledTimes"
                | "toBeCalledTimes"
                | "toHaveReturnedTimes"
                | "callCount"
                | "assertNumQueries"
        )
    )
}

/// Pair the assertions of an old and a new version of one test and say what
/// became of each old one that did not stay as it was. Rewrites (another
/// subject, in the same place) are not changes: a migration to other
/// matchers or helpers reads like that.
/// Is `a` one of `checks` made twice with nothing run between: written
/// again on the very next line after the same check (a duplicate, whose
/// going loses nothing: issue 52), or read twice from one statement (the
/// `try`/`except`/`else` idiom checks what its `except` asserts)?
pub fn repeated(checks: &[Assertion], a: &Assertion) -> bool {
    checks.iter().any(|b| {
        !std::ptr::eq(a, b)
            && same_check(b, a)
            && (b.span.end_line + 1 == a.span.line
                || (b.span.line <= a.span.end_line && a.span.line <= b.span.end_line))
    })
}

pub fn assertion_changes<'a>(family: Family, old: &'a [Assertion], new: &'a [Assertion]) -> Vec<Change<'a>> {
    let mut taken = vec![false; new.len()];
    let mut left: Vec<(usize, &Assertion)> = Vec::new();
    let mut paired_with: Vec<Option<usize>> = vec![None; old.len()];
    // Of several copies of a check, the one where the last pair puts it
    // first (as far from it as the old one), so that copies of one check in
    // several blocks pair block by block.
    let mut shift: isize = 0;
    for (i, o) in old.iter().enumerate() {
        // Run only by Python 2: dropping it loses no check a test run makes.
        if o.guard.legacy {
            continue;
        }
        let expected_at = i as isize + shift;
        match (0..new.len())
            .filter(|&j| !taken[j] && (same_check(o, &new[j]) || same_truth(family, o, &new[j])))
            .min_by_key(|&j| (j as isize - expected_at).abs())
        {
            Some(j) => {
                taken[j] = true;
                paired_with[i] = Some(j);
                shift = j as isize - i as isize;
            }
            None => left.push((i, o)),
        }
    }
    let mut changes = Vec::new();
    let mut unpaired = Vec::new();
    // Taken only as a stronger check holding a weaker one: still free to be
    // what a check of its own strength became (`toHaveBeenCalledOnce()` and
    // `toHaveBeenCalledWith('next')` -> `toHaveBeenCalledExactlyOnceWith('next')`).
    let mut only_held = vec![false; new.len()];
    for (i, o) in left {
        // Where the old check stood: between the checks that stayed around
        // it. A test of several blocks that each check the same values
        // (`rv.etag`, `rv.to_header()` of one input, then of the next) is
        // paired block by block, not with the first check of the same
        // subject anywhere (issue 64: werkzeug's `IfRange` test).
        let anchor = paired_with[..i].iter().rposition(Option::is_some);
        let from = anchor.and_then(|p| paired_with[p]).map_or(0, |j| j + 1);
        let until = paired_with[i + 1..].iter().find_map(|j| *j).unwrap_or(new.len());
        let between = if from <= until { from..until } else { 0..0 };
        // How far past the check that stayed before it.
        let offset = i - anchor.map_or(0, |p| p + 1);
        let free = |j: usize| !taken[j] || only_held[j];
        let same_subject = |j: usize| free(j) && new[j].parts.len() == o.parts.len() && subject(&new[j]) == subject(o);
        // The same matcher on the same subject: its expected values
        // changed; in its place, an equality written another way too
        // (`rv.etag == "Test"` -> `rv.etag is None`). The one as far past
        // the check before it first.
        let in_place = between
            .clone()
            .filter(|&j| {
                same_subject(j)
                    && (new[j].matcher == o.matcher
                        || matches!(o.form, Form::Equal(..)) && matches!(new[j].form, Form::Equal(..)))
            })
            .min_by_key(|&j| ((j - from).abs_diff(offset), new[j].matcher != o.matcher));
        let same_matcher =
            in_place.or_else(|| (0..new.len()).find(|&j| same_subject(j) && new[j].matcher == o.matcher));
        if let Some(j) = same_matcher {
            taken[j] = true;
            only_held[j] = false;
            if literal_changed(&expected(o), &expected(&new[j])) || literal_named(&expected(o), &expected(&new[j])) {
                changes.push(Change::ValueChanged { old: o, new: &new[j] });
            }
            continue;
        }
        // The same check written for another framework, with its value or
        // another; the truth a check demands of a value, flipped
        // (`assert response.ok` -> `assert not response.ok`).
        // A flip only where no check left demands the same truth of the
        // value (`t.false(x)`, `t.true(x)` -> `assert.ok(!x)`, `assert.ok(x)`).
        let truth_of = |a: &Assertion| match a.form.demanded() {
            Form::Truthy(v) => Some((true, v.key.clone())),
            Form::Falsy(v) => Some((false, v.key.clone())),
            _ => None,
        };
        let kept_truth = |j: usize| !taken[j] && truth_of(o).is_some() && truth_of(&new[j]) == truth_of(o);
        let flips = !(0..new.len()).any(kept_truth);
        if let Some((j, same)) = (0..new.len()).find_map(|j| {
            free(j).then(|| {
                migrated(o, &new[j])
                    .or((flips && flipped(o, &new[j])).then_some(false))
                    .map(|s| (j, s))
            })?
        }) {
            taken[j] = true;
            only_held[j] = false;
            if !same {
                changes.push(Change::ValueChanged { old: o, new: &new[j] });
            }
            continue;
        }
        let Some(about) = subject(o) else {
            unpaired.push(o);
            continue;
        };
        // "Has no second element" goes while "has one element" stays.
        if implied(o, new) {
            continue;
        }
        // Merged into a conjunction checked the same way (`t.true(n >= 2)`
        // and `t.true(n < 30)` -> `t.true(n >= 2 && n < 30)`), even when the
        // other part already took it.
        let merged = (0..new.len()).find(|&j| {
            new[j].matcher == o.matcher
                && subject(&new[j]).is_some_and(|on| on != about && conjuncts(on).any(|c| c == about))
        });
        if let Some(j) = merged {
            taken[j] = true;
            continue;
        }
        let was = rank(family, o);
        // A check at least as strong on the same subject, or an exact one on
        // the whole it is a part of (`toEqual` of the object for a
        // `toHaveLength` of its field; an inline snapshot for two `toBe`s), or
        // any check on a part of what only had to exist (`toBe(v)` on
        // `res.id` for `toBeDefined()` on `res`), still holds it: strengthened
        // or merged, even when another old check already took that one. A
        // check only as strong as it holds it only when no old check took
        // it: `"bye" in out` deleted beside `"Hello" in out` is lost, not
        // made again by its sibling, and so is one of two copies of a check
        // (issue 64: tenacity's test of a second invocation lost the
        // repeat of the first one's checks), unless it was written twice
        // in a row ([`repeated`]).
        let expected_o = expected(o);
        let same_value = |j: usize| !literal_changed(&expected_o, &expected(&new[j]));
        let holds = |j: usize| {
            let n = &new[j];
            let (Some(now), Some(on)) = (rank(family, n), subject(n)) else {
                return false;
            };
            (on == about
                && was.is_some_and(|w| now > w || (now == w && (!taken[j] || (same_value(j) && repeated(old, o))))))
                || (part_of(about, on) && now == 3 && !counts_only(n) && !contradicted(o, on, n))
                || (part_of(on, about) && was == Some(1))
        };
        // Of the checks that hold it, one with the same expected value first
        // (`Equal(t, s, x)` -> `JSONEq(t, s, x)` beside other checks of `x`).
        let holder = (0..new.len())
            .find(|&j| holds(j) && same_value(j))
            .or_else(|| (0..new.len()).find(|&j| holds(j)));
        if let Some(j) = holder {
            only_held[j] = !taken[j] && subject(&new[j]) == Some(about) && was < rank(family, &new[j]);
            taken[j] = true;
            // `toEqual(5)` -> `toBe(6)`: another matcher, and another value.
            if subject(&new[j]) == Some(about)
                && was == Some(3)
                && rank(family, &new[j]) == Some(3)
                && literal_changed(&expected_o, &expected(&new[j]))
            {
                changes.push(Change::ValueChanged { old: o, new: &new[j] });
            }
            continue;
        }
        // An equality with `true` or `false` written as the truth check it is.
        if let Some(j) = (0..new.len()).find(|&j| !taken[j] && bool_written_out(family, o, &new[j])) {
            taken[j] = true;
            continue;
        }
        // Another matcher on the same subject, or on what it became (`x` ->
        // `x.is_ok()`, an exact length -> a non-empty `.length`): weaker, or a migration.
        let same_subject =
            (0..new.len()).find(|&j| !taken[j] && subject(&new[j]).is_some_and(|on| on == about || part_of(on, about)));
        if let Some(j) = same_subject {
            taken[j] = true;
            if let (Some(was), Some(now)) = (was, rank(family, &new[j]))
                && now < was
                && !pinned_by_truth(o, &new[j])
            {
                changes.push(Change::Weakened { old: o, new: &new[j] });
            }
            continue;
        }
        unpaired.push(o);
    }
    // Rewritten in place: as many new assertions as old ones are left. When
    // one check was rewritten as one other (nothing else to pair it with),
    // and the new one checks less (`total([1, 2]) == 3` rewritten as
    // `total([4]) > 0`), that is a weakening, unless the expected value moved
    // into what it asks (`expect(w.text()).toBe('a')` ->
    // `expect(getByText('a')).toBeInTheDocument()`). Several rewritten at
    // once are not paired by position: their order says nothing. A check
    // of what one call gave, alone or against `nil`, takes a spare of its
    // own matcher first (`NoError` on one call rewritten as `NoError` on
    // another), else the next one left.
    let mut spares: Vec<usize> = (0..new.len()).filter(|&j| !taken[j]).collect();
    // A bare failure (a `panic!()` in one arm of a `match`, no condition
    // read) beside checks rewritten one for one as exact checks goes with
    // them: an exact check of the value fails where the failure's branch
    // ran (`Ok(_) => panic!()`, `Err(why) => assert_eq!(why, E)` ->
    // `assert_eq!(Err(E), f(..))`; strsim 31cb4cb).
    let bare = |a: &Assertion| matches!(a.form, Form::Fail) && a.parts.is_empty();
    if !spares.is_empty()
        && unpaired.iter().any(|a| bare(a))
        && unpaired.iter().filter(|a| !bare(a)).count() == spares.len()
        && spares.iter().all(|&j| rank(family, &new[j]) == Some(3))
    {
        unpaired.retain(|a| !bare(a));
    }
    let one_for_one = unpaired.len() == 1 && spares.len() == 1;
    // The call a check of one call's result checks, up to its arguments
    // (`os . Stat`), when it is one.
    let callee = |a: &Assertion| -> Option<String> {
        let part = match a.parts.as_slice() {
            [p] => p,
            [p, nil] | [nil, p] if nil == "nil" => p,
            _ => return None,
        };
        part.ends_with(" )")
            .then(|| part.split(" (").next().unwrap_or(part).to_string())
    };
    let mut rewritten: Vec<Option<usize>> = vec![None; unpaired.len()];
    // The same call first (`NoError` on `os.Stat(a)` -> on `os.Stat(b)`), then any.
    for same_call in [true, false] {
        for (o, own) in unpaired
            .iter()
            .zip(rewritten.iter_mut())
            .filter(|(_, own)| own.is_none())
        {
            let Some(was) = callee(o) else { continue };
            let fits = |j: usize| new[j].matcher == o.matcher && (!same_call || callee(&new[j]).as_ref() == Some(&was));
            if let Some(at) = spares.iter().position(|&j| fits(j)) {
                *own = Some(spares.remove(at));
            }
        }
    }
    let mut spare = spares.into_iter();
    for (o, own) in unpaired.into_iter().zip(&mut rewritten) {
        match own.take().or_else(|| spare.next()) {
            // Asked the same call, with other arguments, and now expecting
            // nothing where it expected a value (`matchAllRoutes(router,
            // "/")` and a list of routes -> `matchAllRoutes(router, "",
            // "/")` and `[]`): not another check, a hollowed one (radix3
            // 170d610, where an API's argument order changed).
            Some(j) if hollowed(o, &new[j]) => changes.push(Change::ValueChanged { old: o, new: &new[j] }),
            Some(j) => {
                let carried = |e: &&str| {
                    new[j]
                        .parts
                        .iter()
                        .any(|p| format!(" {p} ").contains(&format!(" {e} ")))
                };
                if let (true, Some(was), Some(now)) = (one_for_one, rank(family, o), rank(family, &new[j]))
                    && now < was
                    && !expected(o).iter().all(carried)
                {
                    changes.push(Change::Weakened { old: o, new: &new[j] });
                }
            }
            None => changes.push(Change::Deleted { old: o }),
        }
    }
    changes
}

/// Is `new` the check `old` made of the same call (its arguments changed),
/// expecting an empty value (`[]`, `{}`, `""`, `null`) where `old`
/// expected one that was not?
fn hollowed(old: &Assertion, new: &Assertion) -> bool {
    let callee = |a: &Assertion| subject(a).and_then(|s| s.split_once(" (")).map(|(f, _)| f.to_string());
    let empty = |e: &str| {
        let bare: String = e
            .chars()
            .filter(|c| !c.is_whitespace() && !matches!(c, '`' | '"' | '\''))
            .collect();
        matches!(
            bare.as_str(),
            "[]" | "{}" | "()" | "" | "null" | "undefined" | "None" | "nil"
        )
    };
    let (was, now) = (expected(old), expected(new));
    new.matcher == old.matcher
        && callee(old).is_some()
        && callee(old) == callee(new)
        && !now.is_empty()
        && now.iter().all(|e| empty(e))
        && !was.is_empty()
        && !was.iter().all(|e| empty(e))
}

#[cfg(test)]
use rows::{unspread, with_values};
#[cfg(test)]
mod tests;
