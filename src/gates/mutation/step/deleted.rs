//! Tests deleted or folded into others, snapshots rewritten, and the
//! assertion density of a track.

use super::*;

impl Analysis<'_> {
    /// Tests of the base that no version in the step holds any more.
    pub(super) fn deleted(
        &self,
        emit: &mut Emit<'_>,
        code: &[PathBuf],
        files: &[TestChange<'_>],
        left: &[(usize, &TestCase)],
    ) {
        let mut per_file: Vec<Vec<&TestCase>> = vec![Vec::new(); files.len()];
        for &(i, t) in left {
            let file = &files[i];
            if !self.known(emit.step).test(t) {
                continue;
            }
            // A syntax error may hide the test in the new version.
            if file.new.is_some_and(|n| n.syntax_errors) {
                emit.unreadable(&file.change.path);
                continue;
            }
            // A benchmark measures, it asserts nothing: deleting it
            // loses no check (issue 64: logrus's benchmarks moved).
            if t.benchmark {
                continue;
            }
            // Already skipped: it checked nothing. So did one compiled only
            // with a Cargo feature its crate does not declare (arrayvec
            // cee33ee: `#[cfg(feature = "array-sizes-33-128")]`, gone).
            let never_built = t
                .feature
                .as_ref()
                .is_some_and(|(features, _)| features.iter().any(|f| !self.features.declares(file.old_path(), f)));
            if t.skip.is_some() || never_built {
                emit.out.deleted_with_subject += 1;
                continue;
            }
            // Nor does a test with an empty body (`fn it_works() {}` of
            // `cargo new`, unicode-width 85050d8): it ran nothing.
            if t.empty {
                continue;
            }
            // Deleted with its subject: a name it used is no longer imported,
            // it came from code the step changed or deleted, and the code no
            // longer has it: its file went, or the step took the name out.
            // A feature kept (deprecated, say) did not take its tests along
            // (nanostores f03827e: `deepMap` warns now, its tests went). Not
            // when the whole test file goes (or moves out of sight): a
            // person says so.
            let whole_file = file.new.is_none();
            let still_imported = |name: &String| {
                file.new
                    .is_some_and(|n| n.imports.iter().any(|i| i.names.contains(name)))
            };
            let file_gone = |path: &PathBuf| emit.step.changes.iter().any(|c| &c.path == path && c.new.is_none());
            let subject_gone = file.old.is_some_and(|old| {
                t.uses.iter().filter(|name| !still_imported(name)).any(|name| {
                    old.imports.iter().filter(|i| i.names.contains(name)).any(|import| {
                        let alone = TestFile {
                            imports: vec![import.clone()],
                            ..TestFile::default()
                        };
                        self.reach
                            .reached(file.old_path(), file.lang, &alone, code)
                            .is_some_and(|c| file_gone(c) || emit.removed_from_code().contains(name))
                    })
                })
            });
            let text = file
                .change
                .old
                .as_ref()
                .map(|v| test_text(self.versions.bytes(v), t.extent));
            let api_gone = |text: &str| api_uses(text).any(|w| emit.removed_from_code().contains(w));
            if !whole_file && (subject_gone || text.as_deref().is_some_and(api_gone)) {
                emit.out.deleted_with_subject += 1;
                continue;
            }
            if whole_file && package_removed(emit.step, file.old_path()) {
                emit.out.deleted_with_subject += 1;
                continue;
            }
            // Each check made again, as written, or for a table case by
            // case (its checks as written are the same template for any
            // rows).
            let family = Family::of(file.lang);
            let held = |checks: &[Assertion]| {
                !checks.is_empty() && checks.iter().all(|a| emit.gained.holds(family, a, t, None))
            };
            let checks = if t.cases.is_empty() {
                t.assertions.clone()
            } else {
                pair::case_assertions(t)
            };
            let new_bytes = |f: &TestChange<'_>| f.change.new.as_ref().map(|v| self.versions.bytes(v));
            if held(&checks) && text.as_deref().is_none_or(|text| emit.gained.holds_inputs(t, text))
                || emit.gained.holds_rows(t)
                || declared_again(files, new_bytes, t, |a| emit.gained.holds(family, a, t, None))
                || text
                    .as_deref()
                    .is_some_and(|text| emit.gained.holds_named_row(t, text) || emit.gained.holds_as_row(t, text))
            {
                emit.out.checked_again += 1;
                continue;
            }
            // Its body written again in another test, statement by statement.
            let statements = |version: Option<&String>, t: &TestCase| -> Vec<String> {
                version
                    .map(|v| test_text(self.versions.bytes(v), t.extent))
                    .unwrap_or_default()
                    .lines()
                    .map(statement)
                    // Its signature and attributes are its own.
                    .filter(|l| !l.is_empty() && !l.contains(&squash(&t.name)) && !l.starts_with(['#', '@']))
                    .collect()
            };
            let body = statements(file.change.old.as_ref(), t);
            if emit.gained.holds_body(&body)
                || text
                    .as_deref()
                    .is_some_and(|text| emit.gained.holds_data(t, text) || emit.gained.holds_merged(t, text))
            {
                emit.out.checked_again += 1;
                continue;
            }
            // One of two copies: a test the file keeps says every statement
            // it said, over the same cases (go-toml 9804fc5:
            // `MultilineQuotes2`, the very input of `MultilineQuotes1`,
            // dropped when the suite did). Their bodies' sketches are
            // compared first: equal for a copy, and cheap.
            let copy = |n: &&TestCase| {
                body.len() > 1
                    && !t.shape.is_empty()
                    && n.shape == t.shape
                    && n.cases == t.cases
                    && statements(file.change.new.as_ref(), n) == body
            };
            if file.new.is_some_and(|f| f.tests.iter().any(|n| copy(&n))) {
                emit.out.checked_again += 1;
                continue;
            }
            // Checks made only by helpers, of functions a table the step
            // (or the range) added runs.
            if t.assertions.is_empty() && (emit.gained.runs_in_rows(t) || self.finale.iter().any(|f| f.runs(t))) {
                emit.out.checked_again += 1;
                continue;
            }
            // Checks made only by a helper the step took out of the suite,
            // for tests named alike that a table the step added, named for
            // what they share, now runs row by row (issue 64: zerolog's
            // `TestErrorMarshalFunc_*` on `testErrorMarshalFunc` became the
            // rows of `TestArrayErrorMarshalFunc`).
            if t.assertions.is_empty() && harness_became_table(files, file, left, t, &emit.gained.helpers) {
                emit.out.checked_again += 1;
                continue;
            }
            // A test that checked only that its calls do not fail, renamed
            // and rewritten with checks: a test new in its file calls each
            // function it called, and asserts (issue 64: structlog's
            // `test_ignores_args` became `test_extra_args_ignored`). Or one
            // whose helper makes its checks, renamed with the helper's
            // arguments reshaped (zerolog a6414850: `TestErrorMarshalFunc_None`
            // became `TestErrorMarshalFunc_Default`).
            if t.assertions.is_empty()
                && (rewritten_with_checks(file, t) || helper_called_again(file, t) || helpers_became_tests(file, t))
            {
                emit.out.checked_again += 1;
                continue;
            }
            // Moved into a test file or class of its own, named for what it
            // tested, or split into tests named for it and what each case is.
            if moved_to_its_file(self.named, t) || moved_to_its_scope(files, t) || split_by_name(files, t) {
                emit.out.checked_again += 1;
                continue;
            }
            // Folded into a parametrized test with other values: what an
            // edited expectation is, said where the values went.
            if let Some(rewrite) = emit.gained.folded(family, t) {
                emit.out.checked_again += 1;
                self.folded(
                    emit,
                    code,
                    (file, t),
                    (&files[rewrite.file], rewrite.test),
                    &rewrite.remade,
                );
                continue;
            }
            let checks: Vec<String> = t.assertions.iter().map(pair::check_key).collect();
            // Tests there before the step: in the old versions it changed,
            // or anywhere at the base.
            let known = self.known(emit.step);
            let old = |name: &str| {
                files
                    .iter()
                    .any(|f| f.old.is_some_and(|o| o.tests.iter().any(|o| o.name == name)))
                    || matches!(known.base, Existed::Facts(facts) if facts.tests.contains(name))
            };
            if self.finale.iter().any(|f| f.is(t, &checks, old)) {
                emit.out.checked_again += 1;
                continue;
            }
            per_file[i].push(t);
        }
        for (file, tests) in files.iter().zip(per_file) {
            let site = |t: &TestCase| Site {
                path: file.old_path(),
                span: t.span,
                version: file.change.old.as_ref(),
            };
            // A whole file gone (or gone out of sight): one finding that names its tests.
            let gone = match &file.change.moved_out {
                Some((to, why)) if !tests.is_empty() => Some(format!(
                    "{} moved to {}, {why}: its {} test(s) are gone from the suite",
                    display_path(file.old_path()),
                    display_path(to),
                    tests.len()
                )),
                None if file.new.is_none() && tests.len() > 1 => Some(format!(
                    "{} was deleted with its {} tests",
                    display_path(file.old_path()),
                    tests.len()
                )),
                // A suite taken out of a file that stays (Rust's `mod tests`
                // of a source file, slab 3292bdf): as a file deleted.
                None if file.new.is_some_and(|n| n.tests.is_empty()) && tests.len() > 1 => Some(format!(
                    "{} keeps none of its tests: {} deleted",
                    display_path(file.old_path()),
                    tests.len()
                )),
                _ => None,
            };
            if let Some(gone) = gone {
                let names: Vec<String> = tests.iter().take(5).map(|t| format!("`{}`", t.name)).collect();
                let more = if tests.len() > 5 { ", ..." } else { "" };
                // Where a rewritten suite may have gone: for the person to compare.
                let added: Vec<String> = files
                    .iter()
                    .filter(|f| f.old.is_none() && f.new.is_some_and(|n| !n.tests.is_empty()))
                    .map(|f| display_path(&f.change.path))
                    .collect();
                let notes = if added.is_empty() {
                    Vec::new()
                } else {
                    vec![format!(
                        "the change adds the test file(s) {}: if they test the same, say so in a trailer",
                        added.join(", ")
                    )]
                };
                emit.push(
                    &TEST_DELETED_OR_SKIPPED,
                    format!("{gone}: {}{more}", names.join(", ")),
                    site(tests[0]),
                    None,
                    notes,
                );
                continue;
            }
            for t in tests {
                // A Go example is a test only with its output to check:
                // defined again without one, it is compiled and never run
                // (multierr 1014a7cd moved `ExampleAppendInvoke` so).
                let unchecked = (file.lang == Lang::Go && t.name.starts_with("Example"))
                    .then(|| {
                        let signature = format!("func {}(", t.name);
                        files.iter().find(|f| {
                            f.change.new.as_ref().is_some_and(|v| {
                                memchr::memmem::find(self.versions.bytes(v), signature.as_bytes()).is_some()
                            })
                        })
                    })
                    .flatten();
                let message = match unchecked {
                    Some(again) => format!(
                        "test `{}` was deleted: {} defines it again without an `// Output:` comment, and `go test` compiles such an example but does not run it",
                        t.name,
                        display_path(&again.change.path)
                    ),
                    None => format!("test `{}` was deleted", t.name),
                };
                emit.push(&TEST_DELETED_OR_SKIPPED, message, site(t), None, Vec::new());
            }
        }
    }

    /// Was the lost check `old` an expected failure that let the inputs
    /// it caught skip the rest of the test: the next statement at its own
    /// indentation, in the old version, a `continue` or a `return`
    /// (`if name in XFAIL:`, `with self.assertRaises(E): loads(s)`, then
    /// `continue`)? With it gone, those inputs reach the checks the test
    /// still makes: stronger, not weaker (tomli 9eb2125ef: four files
    /// expected to fail to parse, parsed and compared in full once the
    /// feature was written).
    pub(super) fn skipped_the_rest(&self, of: &TestChange<'_>, old: &Assertion, n: &TestCase) -> bool {
        let Some(version) = of.change.old.as_ref().filter(|_| !n.assertions.is_empty()) else {
            return false;
        };
        let text = String::from_utf8_lossy(self.versions.bytes(version));
        let lines: Vec<&str> = text.lines().collect();
        let indent = |l: &str| l.len() - l.trim_start().len();
        let Some(own) = lines.get((old.span.line as usize).saturating_sub(1)).map(|l| indent(l)) else {
            return false;
        };
        lines
            .iter()
            .skip(old.span.end_line as usize)
            .filter(|l| !l.trim().is_empty())
            .find(|l| indent(l) <= own)
            .is_some_and(|l| indent(l) == own && matches!(l.trim().trim_end_matches(';'), "continue" | "return"))
    }

    /// `t` of `of` was rewritten as `n` of `nf` (as cases of it, when it
    /// is parametrized), its checks `remade` with other values: each is an expected value changed, a
    /// finding when the step changed code the test reaches.
    pub(super) fn folded(
        &self,
        emit: &mut Emit<'_>,
        code: &[PathBuf],
        (of, t): (&TestChange<'_>, &TestCase),
        (nf, n): (&TestChange<'_>, &TestCase),
        remade: &[(&Assertion, &Assertion)],
    ) {
        let Some(new_file) = nf.new else { return };
        let Some(reached) = self.changed_code(emit.step, &nf.change.path, nf.lang, new_file, code) else {
            return;
        };
        if self.fed_by_fixture(of, nf, n) {
            return;
        }
        let known = self.known(emit.step);
        // A value that changed only by the names the step renamed in the
        // code is the same value.
        let renamed = |old: &Assertion, new: &Assertion| {
            let values = |a: &Assertion| pair::expected(a).join(" , ");
            emit.follows_rename(&values(old), &values(new))
        };
        let remade: Vec<&(&Assertion, &Assertion)> = remade
            .iter()
            .filter(|(old, new)| known.check(&t.name, old) && !renamed(old, new))
            .collect();
        let Some((first_old, first_new)) = remade.first() else {
            return;
        };
        let values: Vec<String> = remade
            .iter()
            .map(|(old, _)| {
                let was: Vec<String> = pair::expected(old).iter().map(|k| show(k)).collect();
                format!("`{}`{}", was.join(", "), on_subject(old))
            })
            .collect();
        emit.push(
            &ASSERTION_VALUE_CHANGED,
            format!(
                "test `{}` {} `{}` without its expected value{} {}, together with {}, which the test imports",
                t.name,
                if n.cases.is_empty() {
                    "was rewritten as"
                } else {
                    "became cases of"
                },
                n.name,
                if values.len() == 1 { "" } else { "s" },
                values.join("; "),
                display_path(reached)
            ),
            Site {
                path: &nf.change.path,
                span: first_new.span,
                version: nf.change.new.as_ref(),
            },
            Some(Site {
                path: of.old_path(),
                span: first_old.span,
                version: of.change.old.as_ref(),
            }),
            Vec::new(),
        );
    }

    /// Snapshot entries of the base whose stored value changed in a step
    /// that changed code their test file imports.
    pub(super) fn snapshots(&self, emit: &mut Emit<'_>, code: &[PathBuf], step: &Step) {
        if code.is_empty() {
            return;
        }
        for change in &step.changes {
            let Kind::Snapshot { owner, owner_version } = &change.kind else {
                continue;
            };
            let (Some(old), Some(new)) = (&change.old, &change.new) else {
                continue;
            };
            let Some(lang) = Lang::from_path(owner) else { continue };
            let Some(test) = self.versions.model(owner_version.as_ref(), lang) else {
                continue;
            };
            let Some(reached) = self.changed_code(step, owner, lang, test, code) else {
                continue;
            };
            if fixtures::reads_changed_data(step, owner, test) {
                continue;
            }
            let old_path = change.old_path.as_deref().unwrap_or(&change.path);
            let before = snapshots::entries(old_path, self.versions.bytes(old));
            let known = self.known(step);
            for entry in snapshots::entries(&change.path, self.versions.bytes(new)) {
                let Some(was) = before.iter().find(|e| e.name == entry.name) else {
                    continue;
                };
                if was.value == entry.value || !known.snapshot(&entry.name) {
                    continue;
                }
                let span = |line| Span {
                    line,
                    column: 1,
                    end_line: line,
                    end_column: 1,
                };
                emit.push(
                    &ASSERTION_VALUE_CHANGED,
                    format!(
                        "snapshot `{}` changed together with {}, which its test imports",
                        entry.name,
                        display_path(reached)
                    ),
                    Site {
                        path: &change.path,
                        span: span(entry.line),
                        version: Some(new),
                    },
                    Some(Site {
                        path: old_path,
                        span: span(was.line),
                        version: Some(old),
                    }),
                    vec![format!("the snapshot belongs to {}", display_path(owner))],
                );
            }
        }
    }

    /// `mutation/low-assertion-density` over the final version of one test
    /// file the range changed ([`tracks`]), for the tests it added or
    /// edited since the file's first version (both versions loaded).
    pub fn density(&self, track: &Track) -> Option<Finding> {
        let threshold = self.settings.min_assertions_per_test;
        let last = self.versions.model(track.last.as_ref(), track.lang)?;
        // Against a first version that could not be read, every test would look added.
        if self.versions.unread(track.first.as_ref()) {
            return None;
        }
        let first = self.versions.model(track.first.as_ref(), track.lang);
        let pairs = pair::pair_tests(first, Some(last));
        let edited = pairs
            .paired
            .iter()
            .filter(|(o, n)| !pair::same_checks(o, n) || o.calls != n.calls)
            .map(|(_, n)| *n);
        let changed: Vec<(&TestCase, usize)> = pairs
            .added
            .iter()
            .copied()
            .chain(edited)
            .filter(|t| t.skip.is_none() && !t.benchmark)
            .map(|t| (t, t.assertions.len() + self.helper_calls(t, last).len()))
            .collect();
        if changed.is_empty() {
            return None;
        }
        let total: usize = changed.iter().map(|(_, n)| n).sum();
        #[allow(clippy::cast_precision_loss)]
        let average = total as f64 / changed.len() as f64;
        if average >= threshold {
            return None;
        }
        let &(weakest, _) = changed.iter().min_by_key(|(t, n)| (*n, t.span))?;
        let bare: Vec<String> = changed
            .iter()
            .filter(|(_, n)| *n == 0)
            .take(5)
            .map(|(t, _)| format!("`{}`", t.name))
            .collect();
        let mut f = Finding::new(
            &LOW_ASSERTION_DENSITY,
            format!(
                "the {} test(s) this change added or edited in {} make {total} assertion(s): {average:.2} per test, below {threshold}",
                changed.len(),
                display_path(&track.path)
            ),
        )
        .at(display_path(&track.path), weakest.span.line, weakest.span.column)
        .until(weakest.span.end_line, weakest.span.end_column);
        if !bare.is_empty() {
            f.notes.push(format!("no assertion in {}", bare.join(", ")));
        }
        f.snippet = track
            .last
            .as_ref()
            .map(|v| lines(self.versions.bytes(v), weakest.span))
            .unwrap_or_default();
        Some(f)
    }
}

/// Manifests that make a directory a package of its own.
const MANIFESTS: &[&str] = &["package.json", "pyproject.toml", "setup.py", "Cargo.toml", "go.mod"];

/// Did `step` delete the package the test file at `path` belongs to: the
/// manifest of a package nested in the repository (`examples/jest/
/// package.json`, never the root's) in a directory above it? The example
/// or sub-project went whole, its own tests with its code.
fn package_removed(step: &Step, path: &Path) -> bool {
    step.changes.iter().any(|c| {
        c.new.is_none()
            && c.path
                .file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| MANIFESTS.contains(&n))
            && c.path
                .parent()
                .is_some_and(|dir| !dir.as_os_str().is_empty() && path.starts_with(dir))
    })
}

/// Is the deleted test `t` declared again, under its title, by a call that
/// hands a test its data in a test file the step changed: a call of that
/// file's own function declaring a test titled by its parameter
/// (`runTests({title: 'have a compact option', cases: [[1000 + 4, '1s'],
/// ..]})`), or an AVA macro's test (`test('compact', verify, {..})`)? Each
/// check `t` made expected a value the call is written with, or is made
/// again elsewhere in the step (`held`). The test became the data of a
/// shared body (issue 64: sindresorhus/pretty-ms 014edf2, 18 tests as
/// `runTests` calls; sindresorhus/meow 7b9e739, tests as macro calls in
/// files of their own, their titles without the prefix that named the
/// group: `isMultiple - flag set once returns array` -> `flag set once
/// returns array` in `test/flags/is-multiple.js`). Not one whose checks
/// expected nothing written as a literal: nothing tells its data is there.
fn declared_again<'v>(
    files: &[TestChange<'_>],
    bytes: impl Fn(&TestChange<'_>) -> Option<&'v [u8]>,
    t: &TestCase,
    held: impl Fn(&Assertion) -> bool,
) -> bool {
    // Quotes and trailing commas aside: `{foo: ['a'],}` is written with
    // `{foo: ["a"]}` (a value spelled has no quotes).
    let plain = |text: &str| {
        squash(text)
            .replace(['\'', '"', '`'], "")
            .replace(",}", "}")
            .replace(",]", "]")
    };
    let expected: Vec<Vec<String>> = t
        .assertions
        .iter()
        .map(|a| {
            pair::expected(a)
                .into_iter()
                .filter(|e| pair::is_literal(e))
                .map(|e| plain(&pair::spelled_value(e)))
                .collect()
        })
        .collect();
    if expected.iter().all(Vec::is_empty) {
        return false;
    }
    files.iter().any(|file| {
        let (Some(new), Some(bytes)) = (file.new, bytes(file)) else {
            return false;
        };
        new.declared
            .iter()
            .filter(|(title, _)| titled_alike(&t.name, title))
            .any(|(_, span)| {
                let call = plain(&test_text(bytes, *span));
                t.assertions.iter().zip(&expected).all(|(a, values)| {
                    (!values.is_empty() && values.iter().all(|v| call.contains(v.as_str()))) || held(a)
                })
            })
    })
}

/// Is `new` the title `old` was, or that title with the words that named
/// its group dropped from its start (three words or more left)?
fn titled_alike(old: &str, new: &str) -> bool {
    let words = |s: &str| -> Vec<String> {
        s.split(|c: char| !c.is_alphanumeric())
            .filter(|w| !w.is_empty())
            .map(str::to_lowercase)
            .collect()
    };
    let (was, now) = (words(old), words(new));
    old == new || (now.len() >= 3 && was.len() > now.len() && was.ends_with(&now))
}

/// Did the range add a test file named for what the deleted test `t`
/// tested (`test_from_bits` -> `src/tests/from_bits.rs`,
/// `TestParse` -> `parse_test.go`) whose text uses that name: a suite split
/// into one file per function (issue 64: bitflags' tests moved out of
/// `lib.rs`)? A name of fewer than four letters, or a sentence, says too
/// little.
fn moved_to_its_file(named: &[NamedFile], t: &TestCase) -> bool {
    tested_name(&t.name).is_some_and(|tested| named.iter().any(|f| f.tested == tested && f.names.contains(&tested)))
}

/// Does a test new in `file` (its name not in the old version) that
/// asserts call each function the assertion-free test `t` called?
fn rewritten_with_checks(file: &TestChange<'_>, t: &TestCase) -> bool {
    let existed = |name: &str| file.old.is_some_and(|o| o.tests.iter().any(|o| o.name == name));
    !t.calls.is_empty()
        && file.new.is_some_and(|new| {
            new.tests.iter().any(|n| {
                !n.assertions.is_empty()
                    && n.skip.is_none()
                    && !existed(&n.name)
                    && t.calls.iter().all(|c| n.calls.contains(c))
            })
        })
}

/// Does `t` hand its checks to a helper of its file that no version the
/// step left defines, and did the step add a table test (two rows or
/// more, asserting) named for what the deleted tests calling that helper
/// share (`TestErrorMarshalFunc_Default`, `TestErrorMarshalFunc_String` ->
/// `TestArrayErrorMarshalFunc`)? The harness was rewritten as a table: its
/// scenarios are the rows. A name they share of fewer than four letters
/// says too little.
fn harness_became_table(
    files: &[TestChange<'_>],
    file: &TestChange<'_>,
    left: &[(usize, &TestCase)],
    t: &TestCase,
    kept: &HashMap<&Path, HashSet<&str>>,
) -> bool {
    let Some(own) = file.old else {
        return false;
    };
    let gone = |h: &String| own.helpers.contains(h) && !kept.values().any(|k| k.contains(h.as_str()));
    let Some(helper) = t.calls.iter().find(|c| gone(c)) else {
        return false;
    };
    let mut stem = t.name.as_str();
    for (_, d) in left.iter().filter(|(_, d)| d.calls.contains(helper)) {
        let shared = stem.chars().zip(d.name.chars()).take_while(|(a, b)| a == b).count();
        stem = &stem[..stem.char_indices().nth(shared).map_or(stem.len(), |(at, _)| at)];
    }
    let Some(stem) = tested_name(stem.trim_end_matches('_')) else {
        return false;
    };
    added_tests(files).any(|n| {
        n.cases.len() >= 2
            && !n.assertions.is_empty()
            && tested_name(&n.name).is_some_and(|named| named.contains(&stem))
    })
}

/// The tests of the new versions of `files` that run and whose names none
/// of their old versions had: the tests the step added.
fn added_tests<'f>(files: &'f [TestChange<'_>]) -> impl Iterator<Item = &'f TestCase> {
    let existed = |name: &str| {
        files
            .iter()
            .filter_map(|f| f.old)
            .any(|o| o.tests.iter().any(|o| o.name == name))
    };
    files
        .iter()
        .filter_map(|f| f.new)
        .flat_map(|n| &n.tests)
        .filter(move |n| n.skip.is_none() && !existed(&n.name))
}

/// Did each helper of `file` that asserts, which the assertion-free test
/// `t` called, become a test of the new version under its name without
/// its leading underscores (`test_` before it, or not), the helper gone: a nose generator test
/// (`yield (_test_expression, given, expected)`) become the parametrized
/// tests it yielded (issue 64: jmespath.py 4b7802d, `_test_expression` ->
/// `test_expression`, its cases from the old body made a function)?
fn helpers_became_tests(file: &TestChange<'_>, t: &TestCase) -> bool {
    let (Some(old), Some(new)) = (file.old, file.new) else {
        return false;
    };
    let helpers: Vec<&String> = t.calls.iter().filter(|c| old.helpers.contains(c)).collect();
    !helpers.is_empty()
        && helpers.iter().all(|helper| {
            let bare = helper.trim_start_matches('_');
            let named = |name: &str| name == bare || name.strip_prefix("test_") == Some(bare);
            bare != helper.as_str()
                && !new.helpers.contains(helper)
                && !old.tests.iter().any(|o| named(&o.name))
                && new
                    .tests
                    .iter()
                    .any(|n| named(&n.name) && n.skip.is_none() && !n.assertions.is_empty())
        })
}

/// Does a helper of `file` that asserts, which the assertion-free test
/// `t` called, stay in the file, called by a test new in it and by as
/// many tests as before? Each scenario it checked still has a test.
fn helper_called_again(file: &TestChange<'_>, t: &TestCase) -> bool {
    let (Some(old), Some(new)) = (file.old, file.new) else {
        return false;
    };
    let existed = |name: &str| old.tests.iter().any(|o| o.name == name);
    let callers = |f: &'_ TestFile, helper: &String| {
        f.tests
            .iter()
            .filter(|n| n.skip.is_none() && n.calls.contains(helper))
            .count()
    };
    t.calls
        .iter()
        .filter(|c| old.helpers.contains(c) && new.helpers.contains(c))
        .any(|helper| {
            new.tests.iter().any(|n| !existed(&n.name) && n.calls.contains(helper))
                && callers(new, helper) >= callers(old, helper)
        })
}

/// Did the step add tests named for `t` and what each covers
/// (`test_union_field_roundtrip` -> `test_union_field_roundtrip_dict` and
/// `.._tuple`) that make, together, at least as many checks: a test split
/// in two, one per implementation or branch (issue 64: cattrs 5d23a08c)?
/// A sentence for a name says too little.
fn split_by_name(files: &[TestChange<'_>], t: &TestCase) -> bool {
    if t.name.contains(char::is_whitespace) {
        return false;
    }
    let stem = format!("{}_", t.name);
    let parts: Vec<&TestCase> = added_tests(files).filter(|n| n.name.starts_with(&stem)).collect();
    !parts.is_empty() && parts.iter().map(|n| n.assertions.len()).sum::<usize>() >= t.assertions.len().max(1)
}

/// What a test's (or a test class's) name says it tests, written without
/// `_` and case (`test_from_bits`, `TestFromBits`, `FromBitsTests` ->
/// `frombits`); `None` for a sentence or fewer than four letters, which
/// say too little.
fn tested_name(name: &str) -> Option<String> {
    if name.contains(char::is_whitespace) {
        return None;
    }
    let tested = name
        .strip_prefix("test_")
        .or_else(|| name.strip_prefix("Test"))
        .or_else(|| name.strip_prefix("test"))
        .unwrap_or(name);
    let tested = ["_test", "Tests", "Test"]
        .iter()
        .find_map(|suffix| tested.strip_suffix(suffix))
        .unwrap_or(tested);
    let tested = plain(tested);
    (tested.chars().count() >= 4).then_some(tested)
}

/// Did the step add a test class (a `describe` group, a module) named for
/// what the deleted test `t` tested, or for the start of it
/// (`test_host_matching` and `test_host_matching_building` -> `class
/// TestHostMatching`), whose running tests make at least as many checks as
/// `t` did? A test split into a class of one test per case, on a fixture
/// of its own (issue 64: werkzeug's host matching).
fn moved_to_its_scope(files: &[TestChange<'_>], t: &TestCase) -> bool {
    let Some(tested) = tested_name(&t.name) else {
        return false;
    };
    let existed: HashSet<&str> = files
        .iter()
        .filter_map(|f| f.old)
        .flat_map(|o| &o.tests)
        .map(|o| o.scope.as_str())
        .collect();
    let mut checks: HashMap<&str, usize> = HashMap::new();
    for n in files.iter().filter_map(|f| f.new).flat_map(|n| &n.tests) {
        if n.scope.is_empty() || existed.contains(n.scope.as_str()) || n.skip.is_some() {
            continue;
        }
        *checks.entry(n.scope.as_str()).or_default() += n.assertions.len();
    }
    checks.into_iter().any(|(scope, made)| {
        let last = scope.rsplit([':', '>', '.']).next().unwrap_or(scope).trim();
        made >= t.assertions.len().max(1) && tested_name(last).is_some_and(|s| tested.starts_with(&s))
    })
}
