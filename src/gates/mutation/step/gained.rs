//! What a test gained or lost between two versions: assertions and
//! expectations read side by side.

use std::collections::BTreeSet;

use super::*;

/// The tests a step added or edited, each with its text squashed (no
/// whitespace, no quotes): where checks that left a test may have gone.
/// Read only when a step lost a test or a check ([`Gained::read`]): most
/// lose none.
pub(crate) struct Gained<'a> {
    /// Each test with the index of its file in the step's test changes, and
    /// whether the step left it as it was.
    pub(crate) candidates: Vec<(usize, &'a TestCase, bool)>,
    /// Whether each of them has more lines than its old version (a new
    /// test counts as grown).
    pub(crate) grew: Vec<bool>,
    /// Each file's language and new text, by index.
    pub(crate) files: Vec<(Lang, &'a [u8])>,
    /// The helpers that assert of the test files the step left, by their
    /// directory (a Go package's tests call those of its other files).
    pub(crate) helpers: HashMap<&'a Path, HashSet<&'a str>>,
    pub(crate) read: std::cell::OnceCell<Read<'a>>,
}

/// What [`Gained`] holds, once read.
pub(crate) struct Read<'a> {
    /// The tests the step added or edited, each with the index of its file
    /// and its squashed text.
    pub(crate) tests: Vec<(usize, &'a TestCase, String)>,
    /// Their checks ([`pair::check_key`]), and those of the tests the step
    /// left as they were in the files it changed that ask a call for
    /// something ([`pair::asks_a_call`]), each with how many times they
    /// make it.
    pub(crate) checks: HashMap<String, usize>,
    /// The same checks as [`pair::made_keys`].
    pub(crate) remade: HashMap<String, usize>,
    /// The checks of the tests the step added or edited that read locals,
    /// as checks of what the locals hold ([`pair::through_locals`]).
    pub(crate) through_locals: HashMap<String, usize>,
    /// The checks of the tests the step added or edited whose subject reads
    /// a local the test binds on one line, with the local written out
    /// ([`inputs::squashed_key`]), by the test that makes them.
    pub(crate) inlined: Vec<(String, &'a TestCase)>,
    /// The new text of each test file the step added or changed, squashed
    /// line by line: read only when a deleted test's body is looked for.
    pub(crate) whole: std::cell::OnceCell<Vec<String>>,
    /// The squashed text of the tests of those files whose checks the step
    /// left as they were but that grew longer (one may take in a test's
    /// body and keep its checks; one left as it was is a sibling that
    /// looks alike): read only when a deleted test's body is looked for.
    pub(crate) kept: std::cell::OnceCell<Vec<String>>,
}

impl<'a> Gained<'a> {
    pub(crate) fn new(versions: &'a Versions, files: &[TestChange<'a>], pairs: &[TestPairs<'a>]) -> Gained<'a> {
        let mut candidates = Vec::new();
        let mut grew = Vec::new();
        for (i, (file, pairs)) in files.iter().zip(pairs).enumerate() {
            if file.change.new.is_none() {
                continue;
            }
            // A skipped test checks nothing: what moved into one is lost.
            // A table whose rows changed is edited, its checks the same or not.
            let lines = |t: &TestCase| t.extent.end_line.saturating_sub(t.extent.line);
            // A test that variants merged into is paired with each: one candidate.
            let edited = pairs
                .paired
                .iter()
                .enumerate()
                .filter(|&(k, &(_, n))| !pairs.paired[..k].iter().any(|&(_, m)| std::ptr::eq(m, n)))
                .map(|(_, &(o, n))| (n, pair::same_checks(o, n) && o.cases == n.cases, lines(n) > lines(o)));
            for (t, unchanged, longer) in pairs
                .added
                .iter()
                .map(|&t| (t, false, true))
                .chain(edited)
                .filter(|(t, _, _)| t.skip.is_none())
            {
                candidates.push((i, t, unchanged));
                grew.push(longer);
            }
        }
        let mut helpers: HashMap<&Path, HashSet<&str>> = HashMap::new();
        for f in files {
            if let Some(new) = f.new {
                let dir = f.change.path.parent().unwrap_or(Path::new(""));
                helpers
                    .entry(dir)
                    .or_default()
                    .extend(new.helpers.iter().map(String::as_str));
            }
        }
        let files = files
            .iter()
            .map(|f| (f.lang, f.change.new.as_ref().map_or(&[][..], |v| versions.bytes(v))))
            .collect();
        Gained {
            candidates,
            grew,
            helpers,
            files,
            read: std::cell::OnceCell::new(),
        }
    }

    /// Does `t` call a helper that asserts, of a test file the step left?
    fn calls_a_helper(&self, t: &TestCase) -> bool {
        t.calls
            .iter()
            .any(|c| self.helpers.values().any(|h| h.contains(c.as_str())))
    }

    /// The calls of `t`, a Go test in `path`, to helpers that assert
    /// written in another test file of its package the step left.
    pub(crate) fn package_helper_calls<'t>(&self, path: &Path, t: &'t TestCase) -> Vec<&'t str> {
        let Some(helpers) = self.helpers.get(path.parent().unwrap_or(Path::new(""))) else {
            return Vec::new();
        };
        t.calls
            .iter()
            .map(String::as_str)
            .filter(|c| helpers.contains(c))
            .collect()
    }

    pub(crate) fn read(&self) -> &Read<'a> {
        self.read.get_or_init(|| {
            let mut tests = Vec::new();
            let mut checks: HashMap<String, usize> = HashMap::new();
            let mut remade: HashMap<String, usize> = HashMap::new();
            let mut through_locals: HashMap<String, usize> = HashMap::new();
            let mut inlined = Vec::new();
            // The text of the files with a test added or edited, by lines.
            let texts: Vec<Option<std::borrow::Cow<'_, str>>> = (0..self.files.len())
                .map(|i| {
                    let edits = self.candidates.iter().any(|&(f, _, unchanged)| f == i && !unchanged);
                    edits.then(|| String::from_utf8_lossy(self.files[i].1))
                })
                .collect();
            let lines: Vec<Vec<&str>> = texts
                .iter()
                .map(|t| t.as_deref().map(|t| t.lines().collect()).unwrap_or_default())
                .collect();
            for &(i, t, unchanged) in &self.candidates {
                let family = Family::of(self.files[i].0);
                // A test the step left as it was makes again only checks that
                // ask a call for something: a duplicate of it was deleted,
                // not a check of some other `result`.
                for a in t.assertions.iter().cloned().chain(pair::case_assertions(t)) {
                    if unchanged && !pair::asks_a_call(&a) {
                        continue;
                    }
                    *checks.entry(pair::check_key(&a)).or_default() += 1;
                    for key in pair::made_keys(family, &a) {
                        *remade.entry(key).or_default() += 1;
                    }
                }
                if !unchanged {
                    for key in t.assertions.iter().filter_map(|a| pair::through_locals(t, a)) {
                        *through_locals.entry(key).or_default() += 1;
                    }
                    let (from, to) = (t.extent.line.saturating_sub(1) as usize, t.extent.end_line as usize);
                    let own = &lines[i][from.min(lines[i].len())..to.min(lines[i].len())];
                    for a in &t.assertions {
                        for subject in pair::subject(a).map(|on| inputs::inlined(on, own)).unwrap_or_default() {
                            inlined.push((inputs::squashed_key(a, &subject), t));
                        }
                    }
                    tests.push((i, t, squashed_lines(&lines[i], t.extent)));
                }
            }
            Read {
                tests,
                checks,
                remade,
                through_locals,
                inlined,
                whole: std::cell::OnceCell::new(),
                kept: std::cell::OnceCell::new(),
            }
        })
    }

    /// Does a test the step added or edited make the check `a` again: the
    /// same check, or the same matcher with the name its subject starts from
    /// and every literal of its expected values (a check split into another
    /// test, or folded into a parametrized test's cases or a table's rows)
    /// written in that test? A check whose values are all as short as `0`
    /// or `"a"` is found only as itself. An exact check of a call is also
    /// made again by one asking another receiver the same
    /// ([`pair::remade_keys`]); all of these carry its expected values. The
    /// matcher, the subject's name and the literals written somewhere in a
    /// test say so only of another test than `own`, the one that lost it:
    /// there, a sibling on another value (`expect(f(a)).toBe(false)` beside
    /// the lost `expect(f(b)).toBe(false)`) is no remake. A test that calls
    /// a helper that asserts may make any matcher.
    ///
    /// A check of a local bound to a call is also made again by a check of
    /// a local of the same name, numbered or not, bound to the same call
    /// ([`pair::through_locals`]).
    ///
    /// The test that lost `a` (`old`, and `new`, its version after the step, if any) may still
    /// make the copies of it the old one made besides `a`: only a copy
    /// beyond those counts (issue 64: tenacity's test of a second
    /// invocation lost the repeat of the first one's checks; spf13/cast's
    /// checks written again as rows of the same test's table are made).
    pub(crate) fn holds(&self, family: Family, a: &Assertion, old: &TestCase, new: Option<&TestCase>) -> bool {
        let own = new.map(|n| (old, n));
        let read = self.read();
        let key = pair::check_key(a);
        // The copies of `a` the test still makes that stand for its other
        // old copies: read only when some test makes it again.
        let own_checks = std::cell::OnceCell::new();
        let own_checks = || {
            own_checks.get_or_init(|| {
                let same = pair::same_check_as(a);
                let copies = |t: &TestCase| -> Vec<Assertion> {
                    // The same check, whichever matcher writes it.
                    let mut out: Vec<Assertion> = t.assertions.iter().filter(|b| same(b)).cloned().collect();
                    if !t.cases.is_empty() {
                        out.extend(pair::case_assertions(t).into_iter().filter(|b| same(b)));
                    }
                    out
                };
                own.map(|(o, n)| {
                    let others = copies(o).len().saturating_sub(1);
                    copies(n).into_iter().take(others).collect::<Vec<_>>()
                })
                .unwrap_or_default()
            })
        };
        let beyond = |counts: &HashMap<String, usize>, key: &String, keys_of: &dyn Fn(&Assertion) -> Vec<String>| {
            counts
                .get(key)
                .is_some_and(|&made| made > own_checks().iter().filter(|b| keys_of(b).contains(key)).count())
        };
        if beyond(&read.checks, &key, &|b| vec![pair::check_key(b)])
            || pair::remade_keys(family, a)
                .iter()
                .any(|key| beyond(&read.remade, key, &|b| pair::made_keys(family, b)))
        {
            return true;
        }
        if let Some(local) = pair::through_locals(old, a) {
            let copies = |t: &TestCase| {
                t.assertions
                    .iter()
                    .filter(|b| pair::through_locals(t, b).as_ref() == Some(&local))
                    .count()
            };
            let others = new.map_or(0, |n| copies(n).min(copies(old).saturating_sub(1)));
            if read.through_locals.get(&local).is_some_and(|&made| made > others) {
                return true;
            }
        }
        let other = |t: &TestCase| own.is_none_or(|(_, own)| !std::ptr::eq(t, own));
        let Some(subject) = pair::subject(a) else { return false };
        // Made by another test on a local it binds to what `a` asked
        // (`const res = f(x)` and `expect(res).toBe(..)`; dayjs a4c33359: a
        // test merged into the one above it).
        if !read.inlined.is_empty() {
            let key = inputs::squashed_key(a, &squash(subject));
            if read.inlined.iter().any(|(k, t)| *k == key && other(t)) {
                return true;
            }
        }
        let literals: Vec<String> = pair::expected(a)
            .into_iter()
            .filter(|e| pair::is_literal(e))
            .map(pair::spelled_value)
            .filter(|v| v.chars().count() >= 2)
            .collect();
        let Some(name) = subject.split(' ').find(|t| {
            t.starts_with(|c: char| c.is_alphabetic() || c == '_') && !matches!(*t, "self" | "this" | "await")
        }) else {
            return false;
        };
        !literals.is_empty()
            && read.tests.iter().any(|(_, t, text)| {
                other(t)
                    // The same matcher, or a helper that asserts: a table's
                    // rows run through one (issue 64: spf13/cast's tests
                    // became rows of a table `runTests` checks).
                    && (t.assertions.iter().any(|b| b.matcher == a.matcher) || self.calls_a_helper(t))
                    && text.contains(name)
                    && literals.iter().all(|l| text.contains(l.as_str()))
            })
    }

    /// Does a test the step added or edited, making at least as many checks
    /// as the deleted test `t` (its source `text`), hold most of the data
    /// `t` was written with: its numbers of three digits or more and its
    /// strings of six characters or more, at least three of them and four
    /// in five found? A test moved and rewritten against another shape of
    /// the API keeps its inputs and expected values (issue 64: uuid's
    /// `test_new_context` of `v1.rs` became `timestamp.rs`'s `context()`,
    /// the same `1_496_854_535`, `812_946_000` and `16383`).
    pub(crate) fn holds_data(&self, t: &TestCase, text: &str) -> bool {
        let data = distinctive_literals(text);
        if data.len() < 3 {
            return false;
        }
        self.read().tests.iter().any(|(_, n, squashed)| {
            n.assertions.len() >= t.assertions.len().max(1)
                && n.skip.is_none()
                && four_in_five(
                    data.iter().filter(|d| squashed.contains(d.as_str())).count(),
                    data.len(),
                )
        })
    }

    /// Is the body of a test the step deleted (`lines`, its source lines
    /// after the first, squashed) written again in a test it added or
    /// edited, every statement as it was: two tests merged into one in
    /// another file, checks a helper makes included (issue 64: semver's
    /// `test_comparator` and `test_comparator_err` became one test of
    /// `test_version_req.rs`)? Or, for a body made only of calls, each call
    /// whole anywhere in the test files the step added or changed: calls of
    /// a helper that declares its own tests,
    /// moved from a test into a `describe` block of a file of their own
    /// (issue 64: validator.js's `test({ validator: 'isBefore', .. })`
    /// calls moved to `test/validators/isBefore.test.js`). Bodies of fewer
    /// than two statements or 40 characters say too little to be told from
    /// another test's.
    pub(crate) fn holds_body(&self, lines: &[String]) -> bool {
        let statements: Vec<&String> = lines
            .iter()
            .filter(|l| {
                !l.chars()
                    .all(|c| matches!(c, '{' | '}' | '(' | ')' | ';' | ',' | ']' | '['))
            })
            .collect();
        if statements.len() < 2 || statements.iter().map(|l| l.len()).sum::<usize>() < 40 {
            return false;
        }
        let read = self.read();
        if read
            .tests
            .iter()
            .any(|(_, _, text)| statements.iter().all(|l| text.contains(l.as_str())))
        {
            return true;
        }
        // A test whose checks stayed as they were, that grew by taking in
        // the body (gjson's `TestIssue195` merged into the test beside it).
        let kept = read.kept.get_or_init(|| {
            let lines: Vec<Vec<&str>> = self
                .files
                .iter()
                .map(|(_, bytes)| std::str::from_utf8(bytes).map_or_else(|_| Vec::new(), |t| t.lines().collect()))
                .collect();
            self.candidates
                .iter()
                .zip(&self.grew)
                .filter(|&(&(_, _, unchanged), &grew)| unchanged && grew)
                .map(|(&(i, t, _), _)| squashed_lines(&lines[i], t.extent))
                .collect()
        });
        if kept
            .iter()
            .any(|text| statements.iter().all(|l| text.contains(l.as_str())))
        {
            return true;
        }
        // In a file at large: a body made only of calls, each found there
        // whole (a call of a helper that declares its tests is a check by
        // itself); setup and checks apart say nothing of their test. The
        // files are read only for such a body.
        let calls = whole_calls(lines);
        !calls.is_empty()
            && read
                .whole
                .get_or_init(|| self.whole_text())
                .iter()
                .any(|text| calls.iter().all(|c| text.contains(c.as_str())))
    }

    /// Does a test the step added or edited hold every row of `t`'s table
    /// as one of its own (the same values, whatever the columns are named,
    /// and one more at most), checking them with a matcher `t` used or a
    /// helper that asserts: a table merged into another (issue 64: logrus's
    /// `TestEscaping_Interface` became rows of `TestEscaping`)?
    pub(crate) fn holds_rows(&self, t: &TestCase) -> bool {
        if t.cases.is_empty() {
            return false;
        }
        fn row(case: &[(String, String)]) -> Vec<&str> {
            let mut values: Vec<&str> = case.iter().map(|(_, v)| v.as_str()).collect();
            values.sort_unstable();
            values
        }
        // The row `r` with one more value at most: a table merged into
        // another that gained a column for what told them apart
        // (`propagate_sgr=False` in the check, `False` in the row; wcwidth
        // e19d2a2).
        fn holds(c: &[&str], r: &[&str]) -> bool {
            if c.len() < r.len() || c.len() > r.len() + 1 {
                return false;
            }
            let mut left = c.to_vec();
            r.iter().all(|v| match left.iter().position(|l| l == v) {
                Some(at) => {
                    left.remove(at);
                    true
                }
                None => false,
            })
        }
        let rows: Vec<Vec<&str>> = t.cases.iter().map(|c| row(c)).collect();
        self.read()
            .tests
            .iter()
            .any(|(_, u, _)| self.checks_like(u, t) && rows.iter().all(|r| u.cases.iter().any(|c| holds(&row(c), r))))
    }

    /// Is `u` another test than `t` that checks as `t` did: with a matcher
    /// `t` used, or through a helper that asserts?
    fn checks_like(&self, u: &TestCase, t: &TestCase) -> bool {
        !std::ptr::eq(u, t)
            && (u
                .assertions
                .iter()
                .any(|b| t.assertions.iter().any(|a| a.matcher == b.matcher))
                || self.calls_a_helper(u))
    }

    /// Does a table test the step added or edited hold a row named for the
    /// deleted test `t` (`TestNoConfig` -> the row `"NoConfig"`,
    /// `test_no_config` -> `"no config"`), made of `t`'s data (four in five
    /// of its other strings written in `t`'s source, `text`), in a test
    /// that still says what `t` did (four in five of `t`'s distinctive
    /// literals) and checks with a matcher `t` used or a helper that
    /// asserts? A suite of tests turned into the rows of one table (issue
    /// 64: rs/cors "Convert tests to table driven tests", 23 tests become
    /// rows of `TestSpec`).
    pub(crate) fn holds_named_row(&self, t: &TestCase, text: &str) -> bool {
        let name = row_name_key(&t.name);
        if name.len() < 4 {
            return false;
        }
        let written = squash(text);
        let data = distinctive_literals(text);
        self.read().tests.iter().any(|(_, u, squashed)| {
            self.checks_like(u, t)
                && four_in_five(
                    data.iter().filter(|d| squashed.contains(d.as_str())).count(),
                    data.len(),
                )
                && u.cases.iter().any(|row| {
                    let strings: Vec<&str> = row
                        .iter()
                        .flat_map(|(_, v)| quoted(v))
                        .map(str::trim)
                        .filter(|s| !s.is_empty())
                        .collect();
                    let (named, others): (Vec<&str>, Vec<&str>) =
                        strings.into_iter().partition(|s| names_alike(&row_name_key(s), &name));
                    let from_t = others.iter().filter(|s| written.contains(&squash(s))).count();
                    !named.is_empty() && four_in_five(from_t, others.len())
                })
        })
    }

    /// Does a table test the step added or edited hold, in one of its rows,
    /// every literal the deleted test `t` (written out, its source `text`)
    /// was written with, two or more, none empty, checking with a
    /// matcher or a helper that asserts: a test per vector become a row of
    /// a table of vectors (rust-base64 766fbc9: `encode_rfc4648_1`, that is
    /// `compare_encode("Zg==", b"f")`, became the row `("f", "Zg==")` of
    /// `rfc_test_vectors_std_alphabet`)? Or, of a test that ran inputs and
    /// checked nothing (a fuzzer's crashers: `NewConstraint("1138..")`),
    /// each input, eight characters or more, in a row of a table test that
    /// calls every function `t` called and checks its result
    /// (hashicorp/go-version 7e3c02b).
    pub(crate) fn holds_as_row(&self, t: &TestCase, text: &str) -> bool {
        let data = literals_of(text, 1, 1);
        let inputs_only = t.assertions.is_empty()
            && !t.calls.is_empty()
            && !data.is_empty()
            && data.iter().all(|d| d.chars().count() >= 8);
        if !inputs_only && (!t.cases.is_empty() || data.len() < 2) {
            return false;
        }
        let values = |row: &Vec<(String, String)>| -> BTreeSet<String> {
            row.iter()
                .flat_map(|(_, v)| pair::literals(v))
                .map(|l| squash(&l))
                .collect()
        };
        self.read().tests.iter().any(|(_, u, _)| {
            u.cases.len() >= 2
                && (!u.assertions.is_empty() || self.calls_a_helper(u))
                && if inputs_only {
                    let rows: Vec<BTreeSet<String>> = u.cases.iter().map(values).collect();
                    t.calls.iter().all(|c| u.calls.contains(c))
                        && data.iter().all(|d| rows.iter().any(|row| row.contains(d)))
                } else {
                    u.cases.iter().any(|row| {
                        let row = values(row);
                        data.iter().all(|d| row.contains(d))
                    })
                }
        })
    }

    /// Was `t` (written out, its source `text`) merged with its look-alikes
    /// into a parametrized test the step added or edited: one with two
    /// cases or more, as many checks, every function `t` called, every
    /// check line of `t` and four in five of its lines, read as their shape
    /// (names abstracted, and outside the checks literals too:
    /// `write_acquired` became `holder_acquired`, `"write"` a parameter; a
    /// check's expected literal stays as written, its message goes)? Issue 64: filelock bc0359e, `test_write_lock_excludes_read_locks`
    /// and its twin became `test_lock_excludes_opposite_mode`.
    pub(crate) fn holds_merged(&self, t: &TestCase, text: &str) -> bool {
        if !t.cases.is_empty() || t.assertions.is_empty() {
            return false;
        }
        let old = body_shapes(text, t);
        if old.len() < 4 {
            return false;
        }
        self.read().tests.iter().any(|&(i, u, _)| {
            if u.cases.len() < 2
                || u.assertions.len() < t.assertions.len()
                || !t.calls.iter().all(|c| u.calls.contains(c))
            {
                return false;
            }
            let new: HashSet<String> = body_shapes(&test_text(self.files[i].1, u.extent), u)
                .into_iter()
                .map(|(shape, _)| shape)
                .collect();
            let matched = old.iter().filter(|(l, _)| new.contains(l)).count();
            matched * 5 >= old.len() * 4 && old.iter().filter(|(_, check)| *check).all(|(l, _)| new.contains(l))
        })
    }

    /// Does a table-driven test the step added or edited that checks name,
    /// in its rows, a function `t` calls ([`pair::row_functions`])?
    pub(crate) fn runs_in_rows(&self, t: &TestCase) -> bool {
        self.read().tests.iter().any(|(_, u, _)| {
            (!u.assertions.is_empty() || self.calls_a_helper(u))
                && pair::row_functions(u).iter().any(|f| t.calls.contains(f))
        })
    }

    /// How many times the tests the step added or edited make the check
    /// `a` exactly as written (its values too).
    pub(crate) fn made(&self, a: &Assertion) -> usize {
        self.read().checks.get(&pair::check_key(a)).copied().unwrap_or(0)
    }

    /// Was `t` rewritten with other values as a test the step added or
    /// edited: does one make each check of `t` that no test makes again,
    /// with the same matcher on the same subject, either as a case of a
    /// parametrized test (a parameter for its expected value) or on a
    /// subject that calls the code (`buf.get_u8()`, not a bare `result`)?
    /// Of several, the one whose body is most like `t`'s.
    pub(crate) fn folded<'t>(&self, family: Family, t: &'t TestCase) -> Option<Rewrite<'t, 'a>> {
        let lost: Vec<&Assertion> = t
            .assertions
            .iter()
            .filter(|a| !self.holds(family, a, t, None))
            .collect();
        if lost.is_empty() {
            return None;
        }
        let candidates = self.read().tests.iter().filter_map(|&(i, n, _)| {
            let parameter = |key: &str| n.cases.iter().flatten().any(|(name, _)| name == key);
            let stands_for = |a: &Assertion| {
                let subject = pair::subject(a)?;
                n.assertions.iter().find(|b| {
                    b.matcher == a.matcher
                        && pair::subject(b) == Some(subject)
                        && (subject.contains(" (") || pair::expected(b).iter().any(|e| parameter(e)))
                })
            };
            let remade: Option<Vec<_>> = lost.iter().map(|a| stands_for(a).map(|b| (*a, b))).collect();
            remade.map(|remade| Rewrite {
                file: i,
                test: n,
                remade,
            })
        });
        // Of the tests that would do, the one whose body is most like it.
        let mut best: Option<(f64, Rewrite<'t, 'a>)> = None;
        for found in candidates {
            let like = crate::lang::similarity(&t.shape, &found.test.shape);
            if best.as_ref().is_none_or(|(b, _)| like > *b) {
                best = Some((like, found));
            }
        }
        best.map(|(_, found)| found)
    }
}

/// A test rewritten as another ([`Gained::folded`]).
pub(crate) struct Rewrite<'t, 'a> {
    /// The index of its file in the step's test changes.
    pub(crate) file: usize,
    pub(crate) test: &'a TestCase,
    /// Each check of the old test no test makes again, with the one that
    /// stands for it.
    pub(crate) remade: Vec<(&'t Assertion, &'a Assertion)>,
}

/// The statements of a test's body (`lines`, squashed; the test's closing
/// line, if it has one, last), each whole, when every one is a call (`test({ .. });`,
/// `check(a, b)`): empty when one is not (a declaration, an assignment).
fn whole_calls(lines: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    let (mut current, mut depth) = (String::new(), 0i32);
    // The test's own closing line (`});`, `}`) ends its body.
    let closing = lines
        .last()
        .is_some_and(|l| l.chars().all(|c| matches!(c, '}' | ')' | ';' | ',')));
    for line in &lines[..lines.len() - usize::from(closing)] {
        current.push_str(line);
        for c in line.chars() {
            match c {
                '(' | '[' | '{' => depth += 1,
                ')' | ']' | '}' => depth -= 1,
                _ => {}
            }
        }
        if depth <= 0 {
            let callee = current.split('(').next().unwrap_or_default();
            let call = !callee.is_empty()
                && current.contains('(')
                && callee
                    .chars()
                    .all(|c| c.is_alphanumeric() || matches!(c, '_' | '.' | '$'))
                && !matches!(callee, "if" | "for" | "while" | "switch" | "return");
            if !call {
                return Vec::new();
            }
            out.push(std::mem::take(&mut current));
            depth = 0;
        }
    }
    if !current.is_empty() {
        return Vec::new();
    }
    out
}

/// The distinct literals of a test's source `text` that say something of
/// its data, as a squashed text spells them ([`squash`]): numbers of
/// three digits or more (`1_496_854_535` as written; not a name's digits,
/// `u16`), the text of strings of six characters or more.
fn distinctive_literals(text: &str) -> BTreeSet<String> {
    literals_of(text, 6, 3)
}

/// The strings of `text` of `length` characters or more, squashed, and its
/// numbers of `digits` digits or more.
fn literals_of(text: &str, length: usize, digits: usize) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if matches!(c, '"' | '\'' | '`') {
            let mut j = i + 1;
            while j < chars.len() && chars[j] != c && chars[j] != '\n' {
                j += if chars[j] == '\\' { 2 } else { 1 };
            }
            let inside: String = chars[i + 1..j.min(chars.len())].iter().collect();
            if inside.chars().count() >= length {
                out.insert(squash(&inside));
            }
            i = j + 1;
            continue;
        }
        let after_name = i > 0 && (chars[i - 1].is_alphanumeric() || chars[i - 1] == '_');
        if c.is_ascii_digit() && !after_name {
            let mut j = i;
            while j < chars.len() && (chars[j].is_ascii_digit() || chars[j] == '_') {
                j += 1;
            }
            let number: String = chars[i..j].iter().collect();
            if number.chars().filter(char::is_ascii_digit).count() >= digits {
                out.insert(number.trim_end_matches('_').to_string());
            }
            i = j;
            continue;
        }
        i += 1;
    }
    out
}

/// Are `found` of `all` at least four in five (all of none)?
fn four_in_five(found: usize, all: usize) -> bool {
    found * 5 >= all * 4
}

/// A test's or a row's name as it is compared: letters and digits, in
/// lower case, without a leading `test` (`TestNoConfig`, `test_no_config`
/// and `"no config"` are all `noconfig`).
fn row_name_key(name: &str) -> String {
    let key: String = name
        .chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect();
    match key.strip_prefix("test") {
        Some(rest) => rest.to_string(),
        None => key,
    }
}

/// Do a row's name and a test's (as [`row_name_key`]s) name one case: the
/// same, one the other with a word added (`AllowedOriginFunc` split into
/// rows `AllowedOriginFuncMatch` and `..NotMatch`; the name kept is two
/// thirds of the longer, so `Origin` is not `OriginHeader`), or, long enough, a
/// letter apart (`OptionsPassthrough` became `OptionPassthrough`).
fn names_alike(row: &str, test: &str) -> bool {
    let (short, long) = if row.len() <= test.len() {
        (row, test)
    } else {
        (test, row)
    };
    if short == long || (short.len() >= 6 && short.len() * 3 >= long.len() * 2 && long.starts_with(short)) {
        return true;
    }
    // One letter inserted: the longer without it is the shorter.
    short.len() >= 8
        && long.len() == short.len() + 1
        && (0..long.len())
            .filter(|&i| long.is_char_boundary(i) && long.is_char_boundary(i + 1))
            .any(|i| long[..i] == short[..i] && long[i + 1..] == short[i..])
}

/// The double-quoted strings written in `value` (a row's value as written:
/// `Options{AllowedOrigins: []string{"*"}}` has `*`).
fn quoted(value: &str) -> impl Iterator<Item = &str> {
    value.split('"').skip(1).step_by(2)
}

/// Words kept as written when a line is read for its shape ([`shape_of`]).
const SHAPE_WORDS: &[&str] = &[
    "assert", "not", "is", "in", "and", "or", "with", "as", "for", "if", "else", "return", "await", "async", "raise",
    "yield", "None", "True", "False", "lambda", "self", "def",
];

/// The shapes of the lines of the text of `t` (from its first line) that
/// say something, each with whether it makes a check (a line of one of its
/// assertions, or a Python `assert`): its signature, decorators and lines
/// of punctuation or one word left out.
fn body_shapes(text: &str, t: &TestCase) -> Vec<(String, bool)> {
    text.lines()
        .enumerate()
        .filter_map(|(k, line)| {
            let at = t.extent.line + k as u32;
            let check = line.trim_start().starts_with("assert ")
                || t.assertions
                    .iter()
                    .any(|a| (a.span.line..=a.span.end_line.max(a.span.line)).contains(&at));
            let shape = shape_of(line, check);
            let says = shape.len() >= 3
                && !shape.starts_with('@')
                && !shape.starts_with("def ")
                && !shape.starts_with("async def ")
                // A line of one word (a docstring, `pass`) says nothing of what it does.
                && shape.chars().any(|c| !c.is_alphanumeric());
            says.then_some((shape, check))
        })
        .collect()
}

/// `line` read for its shape: each name `I` (the words of [`SHAPE_WORDS`]
/// kept), whitespace and a `#` comment dropped; outside a `check`, each
/// string and number `I` too (a literal become a parameter); in one,
/// literals as written (an expected value changed is no merge) and a
/// message that ends it dropped.
fn shape_of(line: &str, check: bool) -> String {
    let chars: Vec<char> = line.trim().chars().collect();
    let mut out = String::new();
    // Where the string that ends the line starts, after a comma: the message.
    let mut message = None;
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c == '#' {
            break;
        }
        if matches!(c, '"' | '\'' | '`') {
            let mut j = i + 1;
            while j < chars.len() && chars[j] != c {
                j += if chars[j] == '\\' { 2 } else { 1 };
            }
            message = out.ends_with(',').then(|| out.len() - 1);
            if check {
                out.extend(&chars[i..(j + 1).min(chars.len())]);
            } else {
                out.push('I');
            }
            i = j + 1;
            continue;
        }
        message = None;
        if c.is_alphabetic() || c == '_' {
            let mut j = i;
            while j < chars.len() && (chars[j].is_alphanumeric() || chars[j] == '_') {
                j += 1;
            }
            let word: String = chars[i..j].iter().collect();
            let prefix = word.len() <= 2 && word.chars().all(|c| "fFrRbBuU".contains(c));
            if prefix && chars.get(j).is_some_and(|q| matches!(q, '"' | '\'')) {
                // `f"..."`: the string is what follows.
            } else if SHAPE_WORDS.contains(&word.as_str()) {
                out.push_str(&word);
                out.push(' ');
            } else {
                out.push('I');
            }
            i = j;
        } else if c.is_ascii_digit() {
            let start = i;
            while i < chars.len() && (chars[i].is_ascii_alphanumeric() || matches!(chars[i], '.' | '_')) {
                i += 1;
            }
            if check {
                out.extend(&chars[start..i]);
            } else {
                out.push('I');
            }
        } else {
            if !c.is_whitespace() {
                out.push(c);
            }
            i += 1;
        }
    }
    if let Some(at) = message.filter(|_| check) {
        out.truncate(at);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_row_is_named_for_a_test_a_suffix_or_a_letter_apart() {
        let key = row_name_key;
        assert_eq!(key("TestNoConfig"), "noconfig");
        assert_eq!(key("test_no_config"), "noconfig");
        assert_eq!(key("\" no config \""), "noconfig");
        for (row, test) in [
            ("NoConfig", "TestNoConfig"),
            ("AllowedOriginFuncMatch", "TestAllowedOriginFunc"),
            ("AllowedHeaders", "TestAllowedHeader"),
            ("OptionPassthrough", "TestOptionsPassthrough"),
        ] {
            assert!(names_alike(&key(row), &key(test)), "{row} {test}");
        }
        for (row, test) in [
            ("Origin", "TestOriginHeader"),
            ("DisallowedOrigin", "TestAllowedOrigin"),
            ("MaxAges", "TestMaxAgo"),
            ("OptionsPassthrough", "TestDisableOptionsPassthrough"),
        ] {
            assert!(!names_alike(&key(row), &key(test)), "{row} {test}");
        }
        assert_eq!(
            quoted("Options { A : [ ] string { \" * \" } , B : \"x\" }").collect::<Vec<_>>(),
            vec![" * ", "x"]
        );
    }

    #[test]
    fn a_line_is_read_for_its_shape() {
        use super::shape_of;
        assert_eq!(
            shape_of("write_got = acquire(\"write\", events)  # go", false),
            "I=I(I,I)"
        );
        assert_eq!(
            shape_of("assert len(events) == 2, f\"{mode} lost\"", true),
            "assert I(I)==2"
        );
        assert_eq!(shape_of("assert total(xs) == \"a, b\"", true), "assert I(I)==\"a, b\"");
        // A check of any language keeps its expected literal.
        assert_eq!(shape_of("expect(add(1, 2)).toBe(3);", true), "I(I(1,2)).I(3);");
    }
}
