//! Comparing a test with its earlier version: a value that changed with the
//! code, an input that follows it, an API the code removed.

use super::inputs::{fills_holes, interpolated, named_alike};
use super::*;
use crate::lang::is_plain_name;

/// Where a changed expected value sits in its test, as its finding says.
#[derive(Clone, Copy)]
pub(super) enum Within<'s> {
    /// A check of the test's own, with its value written in it.
    Test,
    /// A case of a parametrized test, named: its input is its other
    /// values, compared by the caller.
    Case(&'s str),
    /// A check comparing with the name the test binds to the value.
    Through(&'s str),
}

impl<'s> Within<'s> {
    /// The name a check compares with, which holds the value itself: no
    /// input of the test that the value could follow.
    pub(super) fn through(self) -> Option<&'s str> {
        match self {
            Within::Through(name) => Some(name),
            _ => None,
        }
    }

    /// What the finding says after the test's name.
    fn label(self) -> String {
        match self {
            Within::Test => String::new(),
            Within::Case(case) => case.to_string(),
            Within::Through(name) => format!(" through `{name}`"),
        }
    }
}

impl Analysis<'_> {
    /// Compare a test with its earlier version (`o` in `of`, `n` in `nf`).
    pub(super) fn compare(
        &self,
        emit: &mut Emit<'_>,
        code: &[PathBuf],
        of: &TestChange<'_>,
        o: &TestCase,
        nf: &TestChange<'_>,
        n: &TestCase,
    ) {
        // What was read of a test with a syntax error in it may be wrong.
        if o.syntax_error.is_some() || n.syntax_error.is_some() {
            emit.unreadable(&nf.change.path);
            return;
        }
        emit.out.compared += 1;
        let known = self.known(emit.step);
        let at = |span| Site {
            path: &nf.change.path,
            span,
            version: nf.change.new.as_ref(),
        };
        let before = |span| Site {
            path: of.old_path(),
            span,
            version: of.change.old.as_ref(),
        };
        // A benchmark measures, it asserts nothing: skipping it, building it
        // only with a feature (unicode-width 96eaa4a), or, run only to measure
        // (Go's, Rust's `#[bench]`), editing its guards (gobwas/glob 678ba81).
        if o.benchmark && (n.skip.is_some() || n.feature.is_some() || matches!(of.lang, Lang::Go | Lang::Rust)) {
            return;
        }
        if o.skip.is_none()
            && let Some(skip) = &n.skip
            && !(skip.conditional && skip.reason.is_some())
        {
            if known.test(o) {
                let why = skip.reason.as_ref().map(|r| format!(" ({r})")).unwrap_or_default();
                emit.push(
                    &TEST_DELETED_OR_SKIPPED,
                    format!("test `{}` is newly skipped{why}", n.name),
                    at(skip.span),
                    Some(before(o.span)),
                    Vec::new(),
                );
            }
            return;
        }
        // Compiled now only with a feature a plain `cargo test` leaves off.
        if o.skip.is_none()
            && o.feature.is_none()
            && let Some((features, span)) = &n.feature
            && let Some(feature) = features
                .iter()
                .find(|f| !self.features.on_by_default(&nf.change.path, f))
        {
            if known.test(o) {
                emit.push(
                    &TEST_DELETED_OR_SKIPPED,
                    format!(
                        "test `{}` is now compiled only with feature `{feature}` (`cfg(feature = \"{feature}\")`), which a plain `cargo test` does not enable",
                        n.name
                    ),
                    at(*span),
                    Some(before(o.span)),
                    Vec::new(),
                );
            }
            return;
        }
        // A test skipped before the change ran none of its checks.
        let Some(new_file) = nf.new.filter(|_| o.skip.is_none()) else {
            return;
        };
        // Checks written out one by one that became a table's rows.
        let rows = o.cases.is_empty() && !n.cases.is_empty();
        let mut changes = match rows {
            _ if pair::merged_variant(o, of.old, nf.new) => pair::variant_changes(o, n),
            true => pair::table_changes(Family::of(nf.lang), o, n),
            false => pair::assertion_changes(Family::of(nf.lang), &o.assertions, &n.assertions),
        };
        // A loop over rows and checks written out, made one table: a check
        // a row makes as written is kept (issue 64: jaraco/inflect cb7a14e).
        if !rows && !o.cases.is_empty() && !n.cases.is_empty() {
            let made = pair::case_assertions(n);
            changes.retain(|c| !matches!(c, Change::Deleted { old } if made.iter().any(|m| pair::same_check(old, m))));
        }
        pair::renumbered(&mut changes, n);
        // A check made again on a local the test now binds its argument to
        // first: not lost, nor rewritten on another input; its expected
        // value compared as for a check that stayed. The new test's text is
        // read once, and only when some check left.
        let left: Vec<&Assertion> = o
            .assertions
            .iter()
            .filter(|a| !n.assertions.iter().any(|b| pair::same_check(a, b)))
            .collect();
        let text = (!left.is_empty())
            .then(|| {
                nf.change
                    .new
                    .as_ref()
                    .map(|v| test_text(self.versions.bytes(v), n.extent))
            })
            .flatten();
        let lines: Vec<&str> = text.as_deref().map(|t| t.lines().collect()).unwrap_or_default();
        let mut taken = Vec::new();
        for a in left {
            if let Some(again) = Self::through_a_bound_value(o, (n, &lines), a, &taken) {
                taken.push(again);
                changes.retain(|c| !matches!(c, Change::Deleted { old } if std::ptr::eq(*old, a)));
                if pair::expected(again) != pair::expected(a)
                    && !changes
                        .iter()
                        .any(|c| matches!(c, Change::ValueChanged { old, .. } if std::ptr::eq(*old, a)))
                {
                    changes.push(Change::ValueChanged { old: a, new: again });
                }
            }
        }
        // Checks moved into a helper the test now calls are not deleted (a
        // helper may hold any number of them): more calls of helpers that
        // assert, or one the test did not call before (a body moved into a
        // helper that calls the old ones; issue 64: BurntSushi/toml's
        // `TestToml` became `runTomlTest(t, false)`), or a predicate of the
        // file's own the test now checks holds.
        let calls = |t: &TestCase, path: &Path, file: &TestFile, text: &[u8]| -> Vec<String> {
            let mut called = self.helper_calls(t, file);
            called.extend(self.imported_helper_calls(emit.step, path, t, file));
            // A Go package's tests call the helpers of its other files.
            if nf.lang == Lang::Go {
                called.extend(emit.gained.package_helper_calls(path, t));
                called.sort_unstable();
                called.dedup();
            }
            let mut called: Vec<String> = called.into_iter().map(str::to_string).collect();
            called.extend(Analysis::predicate_calls(t, text));
            called
        };
        let bytes = |version: Option<&String>| version.map_or(&[][..], |v| self.versions.bytes(v));
        if changes.iter().any(|c| matches!(c, Change::Deleted { .. })) {
            let (was, now) = (
                of.old
                    .map_or_else(Vec::new, |f| calls(o, of.old_path(), f, bytes(of.change.old.as_ref()))),
                calls(n, &nf.change.path, new_file, bytes(nf.change.new.as_ref())),
            );
            if now.len() > was.len() || now.iter().any(|h| !was.contains(h)) {
                changes.retain(|c| !matches!(c, Change::Deleted { .. }));
            }
        }
        let lost = lost_checks(&changes);
        for change in changes {
            match change {
                // The old test checked both values (an `if`/`else` on the
                // environment) and a test the step added or edited still
                // checks the old one as it was, as often: split into two
                // tests, one per value; nothing changed. Not a test that
                // checked the old value in two blocks and now in one
                // (werkzeug's `IfRange`: a weak etag is now discarded).
                Change::ValueChanged { old, new }
                    if known.check(&o.name, old)
                        && !self.back_at_end(o, old)
                        && !(o.assertions.iter().any(|b| pair::same_check(b, new))
                            && emit.gained.made(old)
                                >= o.assertions.iter().filter(|b| pair::same_check(b, old)).count()) =>
                {
                    self.value_changed(emit, code, (of, o, old), (nf, n, new), Within::Test);
                }
                // A check rewritten onto another subject because the API it
                // asked was removed from the code went with that API.
                Change::Weakened { old, new }
                    if known.check(&o.name, old)
                        && !self.back_at_end(o, old)
                        && !pair::as_strong_in_every_case(Family::of(nf.lang), n, new, old)
                        && !pair::emptied_list(old, new, &lines)
                        && (pair::subject(old) == pair::subject(new) || !self.lost_removed_api(emit, of, o, nf, n)) =>
                {
                    emit.push(
                        &ASSERTION_WEAKENED,
                        if old.matcher == new.matcher {
                            // The same matcher with less: say what it was given.
                            let written = |a: &Assertion| {
                                let parts: Vec<String> = a.parts.iter().map(|p| show(p)).collect();
                                format!("{}({})", a.matcher, parts.join(", "))
                            };
                            format!(
                                "test `{}`: `{}` became the weaker `{}`",
                                n.name,
                                written(old),
                                written(new)
                            )
                        } else {
                            format!(
                                "test `{}`: `{}`{} became the weaker `{}`",
                                n.name,
                                old.matcher,
                                on_subject(old),
                                new.matcher
                            )
                        },
                        at(new.span),
                        Some(before(old.span)),
                        Vec::new(),
                    )
                }
                Change::Deleted { old }
                    if known.check(&o.name, old)
                        && !self.back_at_end(o, old)
                        && !emit.gained.holds(Family::of(nf.lang), old, o, Some(n))
                        && !pair::repeated(&o.assertions, old)
                        && !self.moved_by_the_range(emit.step, old)
                        && !pair::housekeeping(o, old)
                        && !pair::vacuous(o, old, of.old.map_or(&[], |f| &f.imports))
                        && !self.echoed(of, o, old)
                        && !self.lost_removed_api(emit, of, o, nf, n)
                        && !self.compared_through_a_local(nf, o, n, old)
                        && !self.captured_into_a_local(nf, o, n, old)
                        && !self.implied_by_whole(of, o, n, old)
                        && !self.awaited_instead(nf, n, old)
                        && !self.skipped_the_rest(of, old, n)
                        && !pair::threw_again(o, n, old)
                        && !pair::pinned_with_its_pattern(Family::of(nf.lang), o, n, old)
                        // Made by the table its checks became, or its input
                        // left it: unnoticed only when no code the test reaches changed.
                        && !(rows
                            && (pair::made_by_rows(Family::of(nf.lang), o, n, old)
                                || pair::input_replaced(o, n, old)
                                    && self
                                        .changed_code(emit.step, &nf.change.path, nf.lang, new_file, code)
                                        .is_none())) =>
                {
                    // Moved to another test of the file with another value
                    // (an `if`/`else` split in two tests, one reworded):
                    // its expected value changed.
                    if let Some((t, moved)) = moved_elsewhere(of.old, new_file, n, old) {
                        self.value_changed(emit, code, (of, o, old), (nf, t, moved), Within::Test);
                        continue;
                    }
                    emit.push(
                        &ASSERTION_DELETED,
                        lost_message(&n.name, old, &lost),
                        at(n.span),
                        Some(before(old.span)),
                        Vec::new(),
                    )
                }
                _ => {}
            }
        }
        // A case's expected value changed (a row of `parametrize`,
        // `it.each`, rstest's `#[case]`): the same check with the case's
        // values, in a case whose other values (its input) stayed.
        if !o.cases.is_empty() && !n.cases.is_empty() {
            let (was, now) = (pair::case_assertions(o), pair::case_assertions(n));
            let (was_at, now_at) = (pair::instances(o), pair::instances(n));
            // The case an instance `a` of `all` is of, and the assertion as written.
            fn case_of<'t>(
                t: &'t TestCase,
                all: &[Assertion],
                at: &[(usize, usize)],
                a: &Assertion,
            ) -> (&'t [(String, String)], &'t Assertion) {
                let (case, written) = at[all.iter().position(|b| std::ptr::eq(a, b)).unwrap_or(0)];
                (&t.cases[case], &t.assertions[written])
            }
            for change in pair::assertion_changes(Family::of(nf.lang), &was, &now) {
                let Change::ValueChanged { old, new } = change else {
                    continue;
                };
                let ((old_case, _), (new_case, written)) =
                    (case_of(o, &was, &was_at, old), case_of(n, &now, &now_at, new));
                // Which operands are expected is read from the case's own
                // instance, where the row's values are literals: in
                // `Equal(t, c.want, f(c.in))` the subject is `f(..)` (parts
                // are substituted one for one, see pair::case_assertions).
                let values = pair::expected(new);
                let expected = written
                    .parts
                    .iter()
                    .zip(&new.parts)
                    .filter(|(_, instance)| values.contains(&instance.as_str()))
                    .map(|(part, _)| part.as_str())
                    .collect::<Vec<_>>()
                    .join(" ");
                let is_expected = |name: &str| pair::mentions(&expected, name);
                // An expected value written in the assertion itself changed
                // there, once, not in each case.
                if !new_case.iter().any(|(name, _)| is_expected(name)) {
                    continue;
                }
                // A value of the row the test also hands the code is its
                // input, which the expectation follows (werkzeug cb307c14:
                // `redirect(url, code)` then `status_code == code`).
                let handed = new_case
                    .iter()
                    .filter(|(name, _)| is_expected(name))
                    .filter(|param| !old_case.contains(param))
                    .any(|(name, _)| self.used_as_input(nf, n, name, written));
                if handed {
                    continue;
                }
                let input_stayed = new_case
                    .iter()
                    .filter(|(name, _)| !is_expected(name))
                    .all(|param| old_case.contains(param));
                if input_stayed && known.case_check(&o.name, old, old_case) {
                    // The case by its input: its expected values are in the message.
                    let values: Vec<String> = new_case
                        .iter()
                        .filter(|(name, _)| !is_expected(name))
                        .map(|(name, value)| format!("{} = {}", show(name), show(value)))
                        .collect();
                    let case = if values.is_empty() {
                        " in one of its cases".to_string()
                    } else {
                        format!(" in the case `{}`", values.join(", "))
                    };
                    self.value_changed(emit, code, (of, o, old), (nf, n, new), Within::Case(&case));
                }
            }
        }
        // A check that stayed as written, comparing with a name bound to a
        // literal that changed (`want := "..."` then `if have != want`).
        let mut left: Vec<&Assertion> = n.assertions.iter().collect();
        for a in &o.assertions {
            let key = pair::check_key(a);
            let Some(at) = left.iter().position(|b| pair::check_key(b) == key) else {
                continue;
            };
            let b = left.remove(at);
            for name in pair::expected(a).into_iter().filter(|e| is_plain_name(e)) {
                let (Some(was), Some(now)) = (
                    self.bound_value(of.change.old.as_ref(), o, name, a.span),
                    self.bound_value(nf.change.new.as_ref(), n, name, b.span),
                ) else {
                    continue;
                };
                if was == now || !known.check(&o.name, a) || self.used_as_input(nf, n, name, b) {
                    continue;
                }
                let with = |x: &Assertion, value: &str| {
                    let mut x = x.clone();
                    for part in x.parts.iter_mut().filter(|p| *p == name) {
                        *part = value.to_string();
                    }
                    x
                };
                let (old, new) = (with(a, &was), with(b, &now));
                self.value_changed(emit, code, (of, o, &old), (nf, n, &new), Within::Through(name));
            }
        }
    }

    /// Was the lost check `old` of `o` one of the element checks a
    /// hand-written comparison makes (`for k, want := range expected {
    /// got, ok := actual[k]; if !ok ..; if got != want .. }`), now made
    /// whole by a check of `n` that the two values are equal (`if
    /// !reflect.DeepEqual(expected, actual)`, `assert got == want`)? Every
    /// name the lost check reads comes, through the old test's bindings
    /// and loops, from those two values (issue 64: resty 1f11e18c).
    fn implied_by_whole(&self, of: &TestChange<'_>, o: &TestCase, n: &TestCase, old: &Assertion) -> bool {
        let Some(before) = of.change.old.as_ref() else {
            return false;
        };
        let wholes: Vec<[&str; 2]> = n
            .assertions
            .iter()
            .filter_map(|b| match b.form.demanded() {
                crate::lang::Form::Equal(x, y) if is_plain_name(&x.key) && is_plain_name(&y.key) && x.key != y.key => {
                    Some([x.key.as_str(), y.key.as_str()])
                }
                _ => None,
            })
            .collect();
        if wholes.is_empty() {
            return false;
        }
        let text = test_text(self.versions.bytes(before), o.extent);
        let names: Vec<&str> = old.parts.iter().flat_map(|p| read_names(p)).collect();
        !names.is_empty()
            && wholes
                .iter()
                .any(|whole| names.iter().all(|name| comes_from(&text, name, whole, 0)))
    }

    /// The lines of test `n`'s new version (in `nf`), each [`squash`]ed.
    fn squashed_lines(&self, nf: &TestChange<'_>, n: &TestCase) -> Option<Vec<String>> {
        let version = nf.change.new.as_ref()?;
        Some(
            test_text(self.versions.bytes(version), n.extent)
                .lines()
                .map(squash)
                .collect(),
        )
    }

    /// Was the check `old` of `o` made again by `n` on a local the new test
    /// assigns the value `old` read (`captured = error` in a hook, then
    /// `t.true(captured instanceof HTTPError)` after the request, where the
    /// hook checked `error`): the same check, one name for another, once
    /// the call returns (got 4d7e628)?
    fn captured_into_a_local(&self, nf: &TestChange<'_>, o: &TestCase, n: &TestCase, old: &Assertion) -> bool {
        let Some(lines) = self.squashed_lines(nf, n) else {
            return false;
        };
        let assigned = |to: &str, from: &str| {
            let line = format!("{to}={from}");
            lines.iter().any(|l| l.trim_end_matches(';') == line)
        };
        // The one name `old` reads where `b` reads another, everywhere else the same.
        let renamed = |b: &Assertion| -> Option<(String, String)> {
            if b.matcher != old.matcher || b.parts.len() != old.parts.len() {
                return None;
            }
            let mut pair: Option<(String, String)> = None;
            for (was, now) in old.parts.iter().zip(&b.parts) {
                let (was, now): (Vec<&str>, Vec<&str>) = (was.split(' ').collect(), now.split(' ').collect());
                if was.len() != now.len() {
                    return None;
                }
                for (w, v) in was.iter().zip(&now).filter(|(w, v)| w != v) {
                    if !is_plain_name(w) || !is_plain_name(v) {
                        return None;
                    }
                    match &pair {
                        Some((a, b)) if a != w || b != v => return None,
                        _ => pair = Some((w.to_string(), v.to_string())),
                    }
                }
            }
            pair
        };
        n.assertions
            .iter()
            .filter(|b| !o.assertions.iter().any(|a| pair::same_check(a, b)))
            .filter_map(renamed)
            .any(|(from, to)| assigned(&to, &from))
    }

    /// Was the exact check `old` of `o` rewritten as an exact check of `n`
    /// on a value the new test derives from the same source: a local that
    /// a line of `n` fills from what `old`'s subject read (`w.Body` in
    /// `assert.Equal(t, w.Body.String(), want)`, now decoded into `decoded`
    /// and `assert.Equal(t, data, decoded)`)? Raw bytes compared became the
    /// decoded value compared: as much is checked.
    fn compared_through_a_local(&self, nf: &TestChange<'_>, o: &TestCase, n: &TestCase, old: &Assertion) -> bool {
        let family = Family::of(nf.lang);
        if super::super::lattice::rank(family, old) != Some(3) {
            return false;
        }
        // What the old subject read: itself without its last call.
        let Some(source) = pair::subject(old).map(|s| s.rsplit_once(" . ").map_or(s, |(receiver, _)| receiver)) else {
            return false;
        };
        if !source.contains(" . ") {
            return false;
        }
        let source = squash(source);
        let Some(lines) = self.squashed_lines(nf, n) else {
            return false;
        };
        let is_local = |p: &str| !p.is_empty() && p.chars().all(|c| c.is_alphanumeric() || c == '_');
        n.assertions
            .iter()
            // An equality with a value, not a nil check of an error.
            .filter(|b| {
                super::super::lattice::rank(family, b) == Some(3) && matches!(b.form, crate::lang::Form::Equal(..))
            })
            .filter(|b| {
                !pair::expected(b)
                    .iter()
                    .any(|e| matches!(*e, "nil" | "None" | "null" | "undefined"))
            })
            .filter(|b| !o.assertions.iter().any(|a| pair::same_check(a, b)))
            .flat_map(|b| b.parts.iter().filter(|p| is_local(p)))
            .any(|local| {
                lines
                    .iter()
                    .any(|line| line.contains(&source) && line.contains(local.as_str()) && !line.contains("assert"))
            })
    }

    /// The expected value of `old` (of test `o` in `of`) became that of
    /// `new` (of `n` in `nf`): a finding when the step changed code the test
    /// reaches and the value did not follow the test's own input. `within`
    /// says where in the test the value sits.
    pub(super) fn value_changed(
        &self,
        emit: &mut Emit<'_>,
        code: &[PathBuf],
        (of, o, old): (&TestChange<'_>, &TestCase, &Assertion),
        (nf, n, new): (&TestChange<'_>, &TestCase, &Assertion),
        within: Within<'_>,
    ) {
        let Some(new_file) = nf.new else { return };
        let case = matches!(within, Within::Case(_));
        let Some(reached) = self.changed_code(emit.step, &nf.change.path, nf.lang, new_file, code) else {
            return;
        };
        // An expected literal that became a name the test binds to
        // another value changed, whatever else the test gained.
        let text = || {
            nf.change
                .new
                .as_ref()
                .map(|v| test_text(self.versions.bytes(v), n.extent))
                .unwrap_or_default()
        };
        // A string the expected value became that interpolates names the
        // test hands the code where the old value had other text, the rest
        // as it was (`'example.txt'` -> `f"..'{non_lazy}'"` where `non_lazy`
        // is the path it now invokes the command with): it follows the
        // test's own input (click cfa01eeb). Not when the words around
        // changed too (`f"No such option: {flag}"` -> `f"No such option
        // '{flag}'."`).
        let filled = pair::expected(old)
            .into_iter()
            .zip(pair::expected(new))
            .any(|(was, now)| {
                let names = interpolated(now);
                !names.is_empty()
                    && fills_holes(was, now, &names)
                    && names.iter().all(|name| self.used_as_input(nf, n, name, new))
            });
        if filled {
            return;
        }
        match named_alike(n, text, old, new) {
            Some(true) => return,
            Some(false) => {}
            // A case's input is its other values, compared by the caller.
            None if !case && self.input_follows((of, o, old), (nf, n, new), within) => return,
            None => {}
        }
        // A fixture of the file the test reads its input from changed (a
        // table of cases outside the test holds expected values too: its
        // rows are compared case by case).
        if !case && (self.fed_by_fixture(of, nf, n) || self.own_input_changed(of, o, nf, n, new)) {
            return;
        }
        // A data file the test imports changed: its input. So did an
        // example program it runs, or the test file's own code (a stub it
        // hands the code), as the value changed.
        if fixtures::reads_changed_data(emit.step, &nf.change.path, new_file)
            || self.follows_example(emit.step, nf, new_file, (old, new))
            || self.follows_own_code(emit.step, (of, old), (nf, new))
            || self.follows_support(emit.step, (old, new))
        {
            return;
        }
        // The test's own name or file, renamed or moved by the step, in what it
        // expects (a stack trace naming it, a file name), or its lines, moved.
        if !case && follows_own_rename((of.old_path(), o), (&nf.change.path, n), old, new)
            || self.own_lines_moved((of, old), (nf, new))
        {
            return;
        }
        // A membership probe of the file changed: the value is an input.
        if let (Some(old_file), [was]) = (of.old, pair::expected(old).as_slice())
            && probed_both_ways(old_file, was)
        {
            return;
        }
        // A truthiness check has no operand for what it expects: its truth.
        let shown = |a: &Assertion| match (pair::expected(a), pair::truth(a)) {
            (values, Some(truth)) if values.is_empty() => truth.to_string(),
            (values, _) => values.join(" , "),
        };
        let (was, now) = (shown(old), shown(new));
        if pair::narrowed(new, &was, &now)
            || pair::gained_fields(&was, &now)
            || (pair::extended(&was, &now) && self.inputs_grew((of, o), (nf, n), within))
            || emit.follows_rename(&was, &now)
        {
            return;
        }
        let (was, now) = show_changed(&was, &now);
        emit.push(
            &ASSERTION_VALUE_CHANGED,
            format!(
                "test `{}`{}: the expected value changed from `{}` to `{}` together with {}, which the test imports",
                n.name,
                within.label(),
                was,
                now,
                display_path(reached)
            ),
            Site {
                path: &nf.change.path,
                span: new.span,
                version: nf.change.new.as_ref(),
            },
            Some(Site {
                path: of.old_path(),
                span: old.span,
                version: of.change.old.as_ref(),
            }),
            Vec::new(),
        );
    }

    /// Did the test stop using an API the step removed from the code (the
    /// old test `o` uses it, the new `n` does not use it as an API, though a
    /// variable may keep the name): its checks of that API went with it.
    pub(super) fn lost_removed_api(
        &self,
        emit: &Emit<'_>,
        of: &TestChange<'_>,
        o: &TestCase,
        nf: &TestChange<'_>,
        n: &TestCase,
    ) -> bool {
        let text =
            |version: Option<&String>, t: &TestCase| version.map(|v| test_text(self.versions.bytes(v), t.extent));
        let (Some(before), Some(after)) = (text(of.change.old.as_ref(), o), text(nf.change.new.as_ref(), n)) else {
            return false;
        };
        let kept: HashSet<&str> = api_uses(&after).collect();
        let lost: Vec<&str> = api_uses(&before).filter(|w| !kept.contains(w)).collect();
        lost.iter().any(|w| emit.removed_from_code().contains(*w))
    }

    /// The code the step changed that a test file reaches ([`Reach`]), of
    /// code files whose change is more than comments (asked only then: it
    /// parses both versions).
    pub(super) fn changed_code<'c>(
        &self,
        step: &Step,
        from: &Path,
        lang: Lang,
        file: &TestFile,
        code: &'c [PathBuf],
    ) -> Option<&'c PathBuf> {
        let mut left: Vec<PathBuf> = code.to_vec();
        loop {
            let reached = self.reach.reached(from, lang, file, &left)?.clone();
            let change = step
                .changes
                .iter()
                .find(|c| c.path == reached || c.old_path.as_ref() == Some(&reached));
            if !change.is_some_and(|c| c.kind == Kind::Code && self.comments_only(c)) {
                return code.iter().find(|c| **c == reached);
            }
            left.retain(|c| *c != reached);
        }
    }

    /// Does the change of code file `c` touch only comments, docstrings or
    /// layout?
    pub(super) fn comments_only(&self, c: &FileChange) -> bool {
        let (Some(old), Some(new), Some(lang)) = (&c.old, &c.new, Lang::from_path(&c.path)) else {
            return false;
        };
        let print = |key: &String| {
            let bytes = self.versions.bytes(key);
            (!bytes.is_empty())
                .then(|| crate::lang::code_fingerprint(lang, bytes))
                .flatten()
        };
        print(old).is_some_and(|was| Some(was) == print(new))
    }

    /// Does test `n` of `nf` use a fixture of its file (a helper class, a
    /// builder, a constant, outside every test) whose definition changed
    /// since the old version of `of`: its expected values follow an input
    /// the step changed outside its body?
    pub(super) fn fed_by_fixture(&self, of: &TestChange<'_>, nf: &TestChange<'_>, n: &TestCase) -> bool {
        let Some(version) = nf.change.new.as_ref() else {
            return false;
        };
        // One file's, read once for all its tests; a test moved between
        // files, the old file's against the new one's.
        let across;
        let changed = if std::ptr::eq(of, nf) {
            nf.changed_fixtures(self.versions)
        } else {
            across = nf
                .fixtures(self.versions, true)
                .changed_from(of.fixtures(self.versions, false));
            &across
        };
        !changed.is_empty() && fixtures::feeds(changed, n, &test_text(self.versions.bytes(version), n.extent))
    }

    /// Was a check that a promise does not reject (`await
    /// t.notThrowsAsync(p)`, `await assert.doesNotReject(p)`) written as
    /// the promise awaited (`await p`), which fails the test the same way
    /// (issue 64: p-queue's suite moved from AVA to `node:test`)?
    fn awaited_instead(&self, nf: &TestChange<'_>, n: &TestCase, old: &Assertion) -> bool {
        let last = old.matcher.rsplit('.').next().unwrap_or("");
        let (true, Some(promise), Some(version)) = (
            matches!(last, "notThrowsAsync" | "doesNotReject"),
            old.parts.first(),
            nf.change.new.as_ref(),
        ) else {
            return false;
        };
        // A token key has no `;`: the test's text is read without them.
        let bare = |text: &str| squash(text).replace(';', "");
        bare(&test_text(self.versions.bytes(version), n.extent)).contains(&format!("await{}", bare(promise)))
    }
}

/// A check of another test than `n` in `new_file` that stands where `old`
/// was: the same matcher on the same subject with another expected value,
/// which no test of the old version (`old_file`) made.
fn moved_elsewhere<'n>(
    old_file: Option<&TestFile>,
    new_file: &'n TestFile,
    n: &TestCase,
    old: &Assertion,
) -> Option<(&'n TestCase, &'n Assertion)> {
    let subject = pair::subject(old)?;
    let made_before = |b: &Assertion| {
        old_file.is_some_and(|f| {
            f.tests
                .iter()
                .any(|t| t.assertions.iter().any(|a| pair::same_check(a, b)))
        })
    };
    new_file
        .tests
        .iter()
        .filter(|t| !std::ptr::eq(*t, n) && t.skip.is_none())
        .find_map(|t| {
            let moved = t.assertions.iter().find(|b| {
                b.matcher == old.matcher
                    && pair::subject(b) == Some(subject)
                    && pair::expected(b) != pair::expected(old)
                    // A value, not none (`with assertRaises(E):` for
                    // `assertRaises(E, f, x)`: another call, no value).
                    && (pair::expected(b).is_empty() == pair::expected(old).is_empty())
                    && !made_before(b)
            })?;
            Some((t, moved))
        })
}

/// Does `file` check the value `value` both for membership and for its
/// absence (`assert "wat" in full` in one test, `assert "wat" not in
/// empty` in another)? Then it is a probe, an input handed to what is
/// tested, not an output the code must produce: another probe in its
/// place (`"garbage"` -> `"wat"`) changed no expectation.
fn probed_both_ways(file: &TestFile, value: &str) -> bool {
    let (mut member, mut absent) = (false, false);
    for a in file.tests.iter().flat_map(|t| &t.assertions) {
        if a.parts.first().map(String::as_str) != Some(value) {
            continue;
        }
        match a.matcher.as_str() {
            "in" | "assertIn" => member = true,
            "not in" | "assertNotIn" => absent = true,
            _ => {}
        }
    }
    member && absent
}

/// Did the expected values of `old` become those of `new` only by the
/// test's own identity changing: each word lost from them is a word of the
/// old test's name, scope or file path, each word gained one of the new
/// test's, and the step renamed the test, moved it out of or into a class
/// (anyio b1f6e402: a qualified name losing `TestCreateTask.`) or moved
/// its file (zap's
/// `"go.uber.org/zap.TestTakeStacktrace"` that became
/// `"go.uber.org/zap/internal/stacktrace.TestTake"` when the test moved to
/// `internal/stacktrace` as `TestTake`)?
fn follows_own_rename(
    (old_path, o): (&Path, &TestCase),
    (new_path, n): (&Path, &TestCase),
    old: &Assertion,
    new: &Assertion,
) -> bool {
    if old_path == new_path && o.name == n.name && o.scope == n.scope {
        return false;
    }
    let identity =
        |path: &Path, t: &TestCase| -> String { format!("{} {} {}", path.to_string_lossy(), t.scope, t.name) };
    let (was, now) = (pair::expected(old).join(" "), pair::expected(new).join(" "));
    let (gained, lost) = word_changes(&was, &now);
    if gained.is_empty() && lost.is_empty() {
        return false;
    }
    let words = |text: &str| -> HashSet<String> {
        text.split(|c: char| !(c.is_alphanumeric() || c == '_'))
            .filter(|w| !w.is_empty())
            .map(str::to_string)
            .collect()
    };
    let (before, after) = (words(&identity(old_path, o)), words(&identity(new_path, n)));
    lost.keys().all(|w| before.contains(w)) && gained.keys().all(|w| after.contains(w))
}

/// The plain names a token key reads, not the functions it calls nor the
/// fields it reads (`len ( expected )` and `actual . x` read `expected`
/// and `actual`), nor Go's and Python's literals.
fn read_names(key: &str) -> Vec<&str> {
    let tokens: Vec<&str> = key.split(' ').collect();
    (0..tokens.len())
        .filter(|&i| tokens.get(i + 1) != Some(&"(") && (i == 0 || tokens[i - 1] != "."))
        .map(|i| tokens[i])
        .filter(|t| is_plain_name(t) && !t.starts_with(|c: char| c.is_ascii_digit()))
        .filter(|t| !matches!(*t, "nil" | "None" | "true" | "false" | "True" | "False" | "range"))
        .collect()
}

/// The plain names a line of source reads, not the functions it calls
/// (`range expected`, `actual[k]`, `zip(x, y)` read `expected`, `actual`
/// and `k`, `x` and `y`).
fn names_read(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = None;
    for (at, c) in text.char_indices().chain(std::iter::once((text.len(), ' '))) {
        match (start, c.is_alphanumeric() || c == '_') {
            (None, true) => start = Some(at),
            (Some(from), false) => {
                let word = &text[from..at];
                let called = text[at..].trim_start().starts_with('(');
                let field = text[..from].ends_with('.');
                if !called && !field && !word.starts_with(|c: char| c.is_ascii_digit()) && word != "range" {
                    out.push(word);
                }
                start = None;
            }
            _ => {}
        }
    }
    out
}

/// Does `name` come from one of the two values of `whole` in a test's
/// `text`: it is one, or a line binds it (`got, ok := actual[k]`, `for k,
/// want := range expected`, `for a, b in zip(x, y):`) from names that do?
/// A name no line binds comes from nothing the two values hold.
fn comes_from(text: &str, name: &str, whole: &[&str; 2], depth: usize) -> bool {
    if whole.contains(&name) {
        return true;
    }
    if depth > 4 {
        return false;
    }
    text.lines().any(|line| {
        let line = line
            .trim()
            .trim_start_matches("for ")
            .trim_end_matches(['{', ':'])
            .trim();
        let Some((bound, value)) = line
            .split_once(":=")
            .or_else(|| line.split_once(" in "))
            .or_else(|| line.split_once(" = "))
        else {
            return false;
        };
        let binds = bound.split([',', ' ', '(', ')']).any(|b| b.trim() == name);
        let sources = names_read(value);
        binds && !sources.is_empty() && sources.iter().all(|s| comes_from(text, s, whole, depth + 1))
    })
}
