//! What a test hands the code, and expectations that follow it: a name
//! used as an input, an input that grew or was rewritten with its
//! expectation, a string that interpolates the test's own input.

use super::compare::Within;
use super::*;
use crate::lang::{Literal, is_plain_name};

impl Analysis<'_> {
    /// [`follows_own_lines`] for the check `old` of `of` become `new` in `nf`.
    pub(super) fn own_lines_moved(
        &self,
        (of, old): (&TestChange<'_>, &Assertion),
        (nf, new): (&TestChange<'_>, &Assertion),
    ) -> bool {
        let (Some(was), Some(now)) = (of.change.old.as_ref(), nf.change.new.as_ref()) else {
            return false;
        };
        let (was, now) = (self.versions.bytes(was), self.versions.bytes(now));
        follows_own_lines((of.old_path(), was), (&nf.change.path, now), old, new)
    }

    /// Is `name` used in test `n` (of `nf`) other than where it is bound
    /// and checked (by `check`, in a condition, in a failure's message): an
    /// input the code is handed, which the expectation follows (`name :=
    /// "x"; got := Make(name)`)?
    pub(super) fn used_as_input(&self, nf: &TestChange<'_>, n: &TestCase, name: &str, check: &Assertion) -> bool {
        let Some(version) = nf.change.new.as_ref() else {
            return false;
        };
        let bound: Vec<u32> = n
            .bindings
            .iter()
            .filter(|b| b.name == name)
            .map(|b| b.span.line)
            .collect();
        let text = test_text(self.versions.bytes(version), n.extent);
        // Its header (a table's rows above it, the parameters a case's
        // values are bound to) hands the code nothing, nor does a loop's
        // header binding a row's values (`for xs, want in CASES:`).
        let body = text
            .lines()
            .enumerate()
            .map(|(i, line)| (n.extent.line + i as u32, line))
            .skip_while(|(at, line)| *at < n.span.line || !line.trim_end().ends_with([':', '{']))
            .skip(1);
        body.filter(|(_, line)| !line.trim_start().starts_with("for ") && !line.trim_start().starts_with("for("))
            .filter(|(at, line)| !bound.contains(at) && !binds(line, name))
            .filter(|(at, _)| !(check.span.line..=check.span.end_line).contains(at))
            .filter(|(_, line)| !checking(line))
            .any(|(_, line)| identifiers(line).any(|(word, _)| word == name))
    }

    /// The check of `n` that makes `old` (of `o`) again on a value the new
    /// test first binds to a local: the old subject with the value written
    /// in place, the new one reading the name bound to it (`expect(hash({
    /// foo: "bar" }))` -> `const obj = { foo: "bar" }` and
    /// `expect(hash(obj))`; issue 64: ohash 0642ec5). Not lost: its
    /// expected value is compared as for a check that stayed.
    ///
    /// Of several such checks, one with the same expected value first
    /// (`const d = f(day)`, then `toBe(result)` and `toBe(other(day))`),
    /// and none `taken` by another old check. `lines` are the new test's.
    pub(super) fn through_a_bound_value<'n>(
        o: &TestCase,
        (n, lines): (&'n TestCase, &[&str]),
        old: &Assertion,
        taken: &[&Assertion],
    ) -> Option<&'n Assertion> {
        let about = squash(pair::subject(old)?);
        let again: Vec<&Assertion> = n
            .assertions
            .iter()
            .filter(|b| b.matcher == old.matcher && b.parts.len() == old.parts.len())
            .filter(|b| !taken.iter().any(|t| std::ptr::eq(*t, *b)))
            .filter(|b| !o.assertions.iter().any(|a| pair::same_check(a, b)))
            .filter(|b| pair::subject(b).is_some_and(|on| inlined(on, lines).contains(&about)))
            .collect();
        let same = again.iter().find(|b| pair::expected(b) == pair::expected(old));
        same.or(again.first()).copied()
    }

    /// Did the test's code grow outside its expected values: more inputs
    /// given to what it checks (`Promise.all` of seven requests where there
    /// were four)? A comment line says nothing of the inputs.
    pub(super) fn inputs_grew(
        &self,
        (of, o): (&TestChange<'_>, &TestCase),
        (nf, n): (&TestChange<'_>, &TestCase),
        within: Within<'_>,
    ) -> bool {
        let rest = |version: Option<&String>, t: &TestCase| {
            let text = test_text(self.versions.bytes(version?), t.extent);
            // Not the binding a check compares with: it holds the value.
            let text = match within.through() {
                Some(name) => unbound(&text, t, name),
                None => text,
            };
            let mut text: String = text
                .lines()
                .filter(|line| !line.trim_start().starts_with(['#', '/', '*']))
                .map(squash)
                .collect();
            for value in t
                .assertions
                .iter()
                .flat_map(pair::expected)
                .map(|e| squash(&pair::spelled_value(e)))
            {
                if let Some(at) = text.find(&value) {
                    text.replace_range(at..at + value.len(), "");
                }
            }
            Some(text)
        };
        match (rest(of.change.old.as_ref(), o), rest(nf.change.new.as_ref(), n)) {
            (Some(before), Some(after)) => after.len() > before.len(),
            _ => false,
        }
    }

    /// Did the expected value change as the text of an example program
    /// the test runs changed: a Python module it imports (or loads by
    /// name) that the repository's distribution does not ship
    /// (`docs_src/..`, an `examples/` app), where the step rewrote a line
    /// whose text the old value holds as one whose text the new value
    /// holds (typer 42196d47: the tutorial's docstring line `Create a new
    /// user with USERNAME.` -> `.. username.`, and the help text the test
    /// expects with it)? The program is the test's input. Library code the
    /// distribution ships, or a module with no distribution above it, is
    /// the code; a word or two in common (`NAME`) says nothing.
    pub(super) fn follows_example(
        &self,
        step: &Step,
        nf: &TestChange<'_>,
        new_file: &TestFile,
        (old, new): (&Assertion, &Assertion),
    ) -> bool {
        if nf.lang != Lang::Python {
            return false;
        }
        // The expected values as their token keys write them: a string's
        // text stays whole between its escapes (`" a \n b "`).
        let (was, now) = (pair::expected(old).join(" , "), pair::expected(new).join(" , "));
        let long = |p: &str| p.contains(' ') && p.chars().count() >= 12;
        fn plain(key: &str) -> Option<&str> {
            let text = key.strip_prefix("\" ")?.strip_suffix(" \"")?;
            (!text.contains('"')).then_some(text)
        }
        if was == now {
            return false;
        }
        let test_text = || {
            nf.change
                .new
                .as_ref()
                .map(|v| self.versions.bytes(v))
                .unwrap_or_default()
        };
        step.changes.iter().filter(|c| c.kind == Kind::Code).any(|c| {
            let (Some(before), Some(after)) = (&c.old, &c.new) else {
                return false;
            };
            if Lang::from_path(&c.path) != Some(Lang::Python) || self.shipping.ships(&c.path) != Some(false) {
                return false;
            }
            let candidate = [c.path.clone()];
            if self
                .reach
                .reached(&nf.change.path, nf.lang, new_file, &candidate)
                .is_none()
                && !names_module(test_text(), &c.path)
            {
                return false;
            }
            let text = |v: &String| String::from_utf8_lossy(self.versions.bytes(v)).into_owned();
            let (before, after) = (text(before), text(after));
            // A line the step rewrote in the example, its text (a
            // docstring's line, trimmed) in the old value where the new
            // value has its new text.
            let (removed, added) = changed_lines(&before, &after);
            // The rest of the value as it was: nothing else followed the code.
            let rewritten = |old: &str, new: &str| {
                long(old) && long(new) && was.contains(old) && !now.contains(old) && was.replace(old, new) == now
            };
            // Or the words the value lost and gained, each one the line
            // lost and gained, and no other, in three or more words the
            // two share: a line rendered, its markup dropped (`[bold
            // red]Delete[/bold red] a user with [italic]USERNAME[/italic].`
            // -> `Delete a user with username.`).
            let changes = word_changes(&was, &now);
            let words = |text: &str| -> HashSet<String> {
                text.split(|c: char| !(c.is_alphanumeric() || c == '_'))
                    .filter(|w| w.chars().count() >= 3)
                    .map(str::to_string)
                    .collect()
            };
            let reworded = |old: &str, new: &str| {
                let line = word_changes(old, new);
                let shared = words(&was).intersection(&words(old)).filter(|w| !changes.1.contains_key(*w)).count();
                !(line.0.is_empty() && line.1.is_empty()) && line == changes && shared >= 3
            };
            removed.iter().zip(&added).any(|(r, a)| rewritten(r.trim(), a.trim()) || reworded(r, a))
                // Or the value whole, one plain string (`" text "`), a
                // phrase of a line the step rewrote (`help="text"`).
                || match (plain(&was), plain(&now)) {
                    (Some(w), Some(n)) => {
                        long(w) && long(n) && before.contains(w) && !after.contains(w) && after.contains(n) && !before.contains(n)
                    }
                    _ => false,
                }
        })
    }

    /// Did the expected value lose or gain a piece of text, and only that,
    /// which the test file's own code outside its tests lost or gained in
    /// the step, and which no code file the step changed wrote or stopped
    /// writing? A stub the test hands the code (an app answering
    /// `"Remote: " + addr`, rewritten to answer `f"{scheme}://{client}"`)
    /// is the test's input, and the expectation follows it (issue 64:
    /// uvicorn 84dd2c40). Text the code wrote too may have followed the
    /// code; a piece under three letters or digits says nothing.
    pub(super) fn follows_own_code(
        &self,
        step: &Step,
        (of, old): (&TestChange<'_>, &Assertion),
        (nf, new): (&TestChange<'_>, &Assertion),
    ) -> bool {
        let (Some(old_file), Some(new_file)) = (of.old, nf.new) else {
            return false;
        };
        let outside = std::cell::OnceCell::new();
        let outside = || {
            outside.get_or_init(|| {
                (
                    outside_tests(of.change.old.as_ref().map(|v| self.versions.bytes(v)), old_file),
                    outside_tests(nf.change.new.as_ref().map(|v| self.versions.bytes(v)), new_file),
                )
            })
        };
        let wordy = |piece: &str| piece.chars().filter(|c| c.is_alphanumeric()).count() >= 3;
        // The lines the step's code lost and gained, without whitespace.
        let code = std::cell::OnceCell::new();
        let code = || {
            code.get_or_init(|| {
                let (mut lost, mut gained) = (Vec::new(), Vec::new());
                for c in step.changes.iter().filter(|c| c.kind == Kind::Code) {
                    let text =
                        |v: Option<&String>| String::from_utf8_lossy(v.map_or(&[][..], |v| self.versions.bytes(v)));
                    let (before, after) = (text(c.old.as_ref()), text(c.new.as_ref()));
                    let (removed, added) = changed_lines(&before, &after);
                    lost.extend(removed.into_iter().map(unspaced));
                    gained.extend(added.into_iter().map(unspaced));
                }
                (lost, gained)
            })
        };
        let code_wrote = |piece: &str, lost: bool| {
            let (removed, added) = code();
            (if lost { removed } else { added }).iter().any(|l| l.contains(piece))
        };
        pair::expected(old).iter().zip(pair::expected(new)).any(|(was, now)| {
            let (was, now) = (pair::spelled_value(was), pair::spelled_value(now));
            let (lost, gained) = edit(&was, &now);
            let (lost, gained) = (unspaced(lost), unspaced(gained));
            if !(wordy(&lost) || wordy(&gained)) {
                return false;
            }
            let (was_out, now_out) = outside();
            let count = |text: &str, piece: &str| {
                if piece.is_empty() {
                    0
                } else {
                    text.matches(piece).count()
                }
            };
            (lost.is_empty() || (count(was_out, &lost) > count(now_out, &lost) && !code_wrote(&lost, true)))
                && (gained.is_empty()
                    || (count(now_out, &gained) > count(was_out, &gained) && !code_wrote(&gained, false)))
        })
    }

    /// Did the expected value change, token by token, only by tokens the
    /// step's test-support files (a `tests/_utils.ts`, a `conftest.py`:
    /// what builds the test's input or prints what it checks) gained or
    /// lost, and that no code file the step changed wrote or stopped
    /// writing? The tests' own printer is their input (radix3 170d610: the
    /// helper registered routes with `"GET"` and printed `[GET]` before
    /// each, and every tree snapshot gained it).
    pub(super) fn follows_support(&self, step: &Step, (old, new): (&Assertion, &Assertion)) -> bool {
        let tokens_of = |support: bool| {
            let (mut lost, mut gained) = (HashSet::new(), HashSet::new());
            for c in &step.changes {
                let is_support = c.kind == Kind::Other && crate::gates::mutation::is_test_support(&c.path);
                if (support && !is_support) || (!support && c.kind != Kind::Code) {
                    continue;
                }
                let text = |v: Option<&String>| String::from_utf8_lossy(v.map_or(&[][..], |v| self.versions.bytes(v)));
                let (before, after) = (text(c.old.as_ref()), text(c.new.as_ref()));
                let (removed, added) = changed_lines(&before, &after);
                lost.extend(removed.into_iter().flat_map(tokens));
                gained.extend(added.into_iter().flat_map(tokens));
            }
            (lost, gained)
        };
        let support = std::cell::OnceCell::new();
        let support = || support.get_or_init(|| tokens_of(true));
        let code = std::cell::OnceCell::new();
        let code = || code.get_or_init(|| tokens_of(false));
        pair::expected(old).iter().zip(pair::expected(new)).any(|(was, now)| {
            let (gained, lost) = token_changes(was, now);
            if gained.is_empty() && lost.is_empty() {
                return false;
            }
            let ((support_lost, support_gained), (code_lost, code_gained)) = (support(), code());
            gained
                .keys()
                .all(|t| support_gained.contains(t) && !code_gained.contains(t))
                && lost.keys().all(|t| support_lost.contains(t) && !code_lost.contains(t))
        })
    }

    /// Is what `new` checks computed from a binding of the test's own whose
    /// definition changed (gjson 8d2c36f: `trues := Get(json, ..)` where
    /// `json`'s literal lost a true row, and `trues == "[1,2,6,7,8]"`
    /// became `"[2,6,7,8]"`)? The expectation follows the test's input. The
    /// subject's own binding must read as it did, fed by one that changed:
    /// a subject bound to another computation (`result = []` filled by the
    /// queue, become `result = await queue.add(..)`) is what the code does now.
    pub(super) fn own_input_changed(
        &self,
        of: &TestChange<'_>,
        o: &TestCase,
        nf: &TestChange<'_>,
        n: &TestCase,
        new: &Assertion,
    ) -> bool {
        let (Some(subject), Some(was), Some(now)) =
            (pair::subject(new), of.change.old.as_ref(), nf.change.new.as_ref())
        else {
            return false;
        };
        let was = fixtures::Fixtures::locals(&test_text(self.versions.bytes(was), o.extent));
        let now = fixtures::Fixtures::locals(&test_text(self.versions.bytes(now), n.extent));
        let changed = now.changed_from(&was);
        fixtures::words(subject).any(|w| changed.contains(w) && was.same(&now, w))
    }

    /// Did the expected value follow the test's own input: is the new test
    /// the old one with the old literal written as the new one everywhere
    /// (a typo fixed in the input and its expectation together), the old
    /// literal appearing outside the expectation too?
    pub(super) fn input_follows(
        &self,
        (of, o, old): (&TestChange<'_>, &TestCase, &Assertion),
        (nf, n, new): (&TestChange<'_>, &TestCase, &Assertion),
        within: Within<'_>,
    ) -> bool {
        // Each test's text without whitespace, quotes kept (a typo fixed may
        // be an apostrophe: `cant` -> `can't`), and without them ([`squash`]).
        let text =
            |version: Option<&String>, t: &TestCase| version.map(|v| test_text(self.versions.bytes(v), t.extent));
        let (Some(text_before), Some(text_after)) = (text(of.change.old.as_ref(), o), text(nf.change.new.as_ref(), n))
        else {
            return false;
        };
        let (spaced_before, spaced_after) = (unspaced(&text_before), unspaced(&text_after));
        let (before, after) = (squash(&spaced_before), squash(&spaced_after));
        pair::expected(old).iter().zip(pair::expected(new)).any(|(was, now)| {
            let (was_text, now_text): (&str, &str) = (was, now);
            // The file's own code outside its tests (a stub, a fixture
            // returning the message) had the old value where it now has the
            // new one: the typo fixed there and in the expectation (issue
            // 64: urfave/cli's stub returning "can't do completion").
            let (spelled_was, spelled_now) = (pair::spelled_value(was), pair::spelled_value(now));
            if spelled_was.chars().count() >= 2
                && spelled_was != spelled_now
                && let (Some(old_file), Some(new_file)) = (of.old, nf.new)
            {
                let (was_out, now_out) = (
                    outside_tests(of.change.old.as_ref().map(|v| self.versions.bytes(v)), old_file),
                    outside_tests(nf.change.new.as_ref().map(|v| self.versions.bytes(v)), new_file),
                );
                let count = |text: &str, value: &str| text.matches(value).count();
                let moved = count(&was_out, &spelled_was).saturating_sub(count(&now_out, &spelled_was));
                if moved > 0 && count(&now_out, &spelled_now) >= count(&was_out, &spelled_now) + moved {
                    return true;
                }
            }
            // Rewritten everywhere: a typo fixed in the input and the
            // expectation, read with quotes kept, then without.
            let (spelled_was, spelled_now) = (pair::spelled_value(was), pair::spelled_value(now));
            if spelled_was.chars().count() >= 2
                && spelled_was != spelled_now
                && spaced_before.matches(&spelled_was).count() >= 2
                && spaced_before.replace(&spelled_was, &spelled_now) == spaced_after
            {
                return true;
            }
            let (was, now) = (squash(&spelled_was), squash(&spelled_now));
            if was.chars().count() < 2 || was == now {
                return false;
            }
            if before.matches(&was).count() >= 2 && before.replace(&was, &now) == after {
                return true;
            }
            // Or what the expectation gained and lost, word for word, the rest of
            // the test (outside every expected value) gained and lost too: an
            // input that grew a `mediasession` entry, and the expected header
            // that grew `mediasession=()`.
            let (gained, lost) = word_changes(&was, &now);
            // Words counted in the lines that check nothing, as written
            // (without whitespace the last word of a line runs into the
            // first of the next): what `raises(CattrsError)` expects is no
            // input.
            let (before_lines, after_lines) = (
                unchecked_lines(&text_before, o, within.through()),
                unchecked_lines(&text_after, n, within.through()),
            );
            let (more, fewer) = word_changes(&before_lines, &after_lines);
            if !(gained.is_empty() && lost.is_empty()) && counted_in(&gained, &more) && counted_in(&lost, &fewer) {
                return true;
            }
            // Or, read token by token (a path's slashes count: `//choo` is
            // not `/choo`), each token the expectation lost the test's other
            // lines lost too, and each it gained they have: an input left
            // out, and what it stood for in the output gone with it (radix3
            // 8dd80ed: the route `//choo` left the input, and the tree
            // printed `/choo` where it had printed `//choo`).
            let (gained, lost) = token_changes(was_text, now_text);
            let (_, fewer) = token_changes(&before_lines, &after_lines);
            let has: HashSet<String> = tokens(&after_lines).into_iter().collect();
            if !lost.is_empty() && counted_in(&lost, &fewer) && gained.keys().all(|t| has.contains(t)) {
                return true;
            }
            // Or, read as runs of digits and of letters however short, the
            // expectation gained and lost only what the rest of the test
            // gained and lost, as many times: entries added to the input
            // and printed in the output (ohash 3b225de: `map.set(1, 4)`
            // and `1:4` in the serialized map), a time in the input and
            // the same time in the formatted date (dayjs 0c67c66f:
            // `'2012-11-04 00:59:59'` and `'2012-11-04T00:59:59-04:00'`).
            // It must have gained some (what it lost alone may be any
            // digit the input lost too), and lines that check (a Go `if`
            // holding the expectation) are no input.
            let (gained, lost) = changes_by(was_text, now_text, runs);
            let inputs = |lines: &str| lines.lines().filter(|l| !checking(l)).collect::<Vec<_>>().join("\n");
            let (more, fewer) = changes_by(&inputs(&before_lines), &inputs(&after_lines), runs);
            !gained.is_empty() && counted_in(&gained, &more) && counted_in(&lost, &fewer)
        })
    }
}

/// Does `whole` count each piece of `part` at least as many times?
fn counted_in(part: &HashMap<String, usize>, whole: &HashMap<String, usize>) -> bool {
    part.iter()
        .all(|(piece, n)| whole.get(piece).copied().unwrap_or(0) >= *n)
}

/// The tokens of `text`: runs without whitespace, quotes, brackets and
/// separators trimmed, of three letters or digits at least.
fn tokens(text: &str) -> Vec<String> {
    text.split_whitespace()
        .map(|t| t.trim_matches(['"', '\'', '`', ',', ';', '(', ')', '[', ']', '{', '}']))
        .filter(|t| t.chars().filter(|c| c.is_alphanumeric()).count() >= 3)
        .map(str::to_string)
        .collect()
}

/// The runs of `text` that are all digits or all letters (`2012`, `T`,
/// `00` of `2012-11-04T00`).
fn runs(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut run = String::new();
    let mut digits = false;
    for c in text.chars() {
        let fits = c.is_alphanumeric() && (run.is_empty() || c.is_numeric() == digits);
        if !fits && !run.is_empty() {
            out.push(std::mem::take(&mut run));
        }
        if c.is_alphanumeric() {
            digits = c.is_numeric();
            run.push(c);
        }
    }
    if !run.is_empty() {
        out.push(run);
    }
    out
}

/// The [`tokens`] `after` has more of than `before`, and those it has
/// fewer of, with how many.
fn token_changes(before: &str, after: &str) -> (HashMap<String, usize>, HashMap<String, usize>) {
    changes_by(before, after, tokens)
}

/// Does the text of a test file (`bytes`) name the Python module at `path`
/// as `importlib.import_module` is given it: its package's dotted path and
/// its own name, each somewhere (typer's `f"docs_src.commands.help.{name}"`
/// with `pytest.param("tutorial001_py310")`)? A module of fewer than four
/// letters, or at the root, says too little.
fn names_module(bytes: &[u8], path: &Path) -> bool {
    let (Some(stem), Some(parent)) = (path.file_stem().and_then(|s| s.to_str()), path.parent()) else {
        return false;
    };
    let package: Vec<&str> = parent.iter().filter_map(|p| p.to_str()).collect();
    if stem.chars().count() < 4 || package.is_empty() {
        return false;
    }
    let (text, package) = (String::from_utf8_lossy(bytes), package.join("."));
    let quoted = |name: &str| text.contains(&format!("\"{name}\"")) || text.contains(&format!("'{name}'"));
    text.contains(&format!("{package}.")) && (quoted(stem) || text.contains(&format!("{package}.{stem}")))
}

/// The plain names a string value interpolates, as a token key writes it
/// (Python's `f" .. { name } .. "`, JavaScript's `` ` .. ${ name } .. ` ``);
/// none for any other value, or a string that interpolates more than names.
pub(super) fn interpolated(value: &str) -> Vec<&str> {
    let template = value.starts_with("f\"") || value.starts_with('`');
    let mut names = Vec::new();
    let mut rest = value;
    while template && let Some(open) = rest.find('{') {
        let Some(close) = rest[open..].find('}') else {
            return Vec::new();
        };
        let inside = rest[open + 1..open + close].trim();
        if !is_plain_name(inside) {
            return Vec::new();
        }
        names.push(inside);
        rest = &rest[open + close + 1..];
    }
    names
}

/// Does the string `was` read as `now` with other text where `now`
/// interpolates `names` (`'example.txt'` for `'{non_lazy}'`), the rest the
/// same? Both read without whitespace, string prefixes and delimiters.
pub(super) fn fills_holes(was: &str, now: &str, names: &[&str]) -> bool {
    let bare = |v: &str| -> String {
        let v = unspaced(v);
        let v = v.trim_start_matches(|c: char| c.is_ascii_alphabetic());
        let mut chars = v.chars();
        chars.next();
        chars.next_back();
        chars.as_str().to_string()
    };
    let (was, mut now) = (bare(was), bare(now));
    for name in names {
        now = now
            .replace(&format!("${{{name}}}"), "\u{1}")
            .replace(&format!("{{{name}}}"), "\u{1}");
    }
    let pieces: Vec<&str> = now.split('\u{1}').collect();
    let (Some(first), Some(last)) = (pieces.first(), pieces.last()) else {
        return false;
    };
    if pieces.len() < 2 || !was.starts_with(first) || !was[first.len()..].ends_with(last) {
        return false;
    }
    let mut rest = &was[first.len()..was.len() - last.len()];
    for piece in &pieces[1..pieces.len() - 1] {
        match rest.find(piece) {
            Some(at) => rest = &rest[at + piece.len()..],
            None => return false,
        }
    }
    true
}

/// The lines of test `t`'s text (from its extent) that no assertion of it
/// covers, nor a binding of `through`, the name a check compares with.
pub(super) fn unchecked_lines(text: &str, t: &TestCase, through: Option<&str>) -> String {
    lines_but(text, t, |at| {
        through.is_some_and(|name| binding_line(t, name, at))
            || t.assertions
                .iter()
                .any(|a| (a.span.line..=a.span.end_line).contains(&at))
    })
}

/// Test `t`'s text without the lines that bind `name`.
fn unbound(text: &str, t: &TestCase, name: &str) -> String {
    lines_but(text, t, |at| binding_line(t, name, at))
}

/// Is line `at` in a binding of `name` by test `t`?
fn binding_line(t: &TestCase, name: &str, at: u32) -> bool {
    t.bindings
        .iter()
        .any(|b| b.name == name && (b.span.line..=b.span.end_line).contains(&at))
}

/// The lines of test `t`'s text (from its extent) but those `left_out`
/// says, by their line number.
fn lines_but(text: &str, t: &TestCase, left_out: impl Fn(u32) -> bool) -> String {
    text.lines()
        .enumerate()
        .filter(|&(i, _)| !left_out(t.extent.line + i as u32))
        .map(|(_, line)| line)
        .collect::<Vec<_>>()
        .join("\n")
}

/// The lines of a test file (`bytes`, read as `file`) outside every test,
/// without whitespace (as [`pair::spelled_value`] spells a string): its
/// helpers, stubs and fixtures.
/// The lines `after` has that `before` had not (`added`), and the other
/// way (`removed`): what an edit of a file rewrote, `(removed, added)`.
fn changed_lines<'t>(before: &'t str, after: &'t str) -> (Vec<&'t str>, Vec<&'t str>) {
    let (had, has): (HashSet<&str>, HashSet<&str>) = (before.lines().collect(), after.lines().collect());
    (
        before.lines().filter(|l| !has.contains(l)).collect(),
        after.lines().filter(|l| !had.contains(l)).collect(),
    )
}

/// What `now` has in place of what `was` had, the rest as it was: the
/// text between their common start and end, in each.
fn edit<'a>(was: &'a str, now: &'a str) -> (&'a str, &'a str) {
    let start: usize = was
        .chars()
        .zip(now.chars())
        .take_while(|(a, b)| a == b)
        .map(|(a, _)| a.len_utf8())
        .sum();
    let (was_rest, now_rest) = (&was[start..], &now[start..]);
    let end: usize = was_rest
        .chars()
        .rev()
        .zip(now_rest.chars().rev())
        .take_while(|(a, b)| a == b)
        .map(|(a, _)| a.len_utf8())
        .sum();
    (&was_rest[..was_rest.len() - end], &now_rest[..now_rest.len() - end])
}

pub(super) fn outside_tests(bytes: Option<&[u8]>, file: &TestFile) -> String {
    let text = String::from_utf8_lossy(bytes.unwrap_or_default());
    let inside = |line: u32| {
        file.tests
            .iter()
            .any(|t| t.extent.line <= line && line <= t.extent.end_line)
    };
    text.lines()
        .enumerate()
        .filter(|(i, _)| !inside(*i as u32 + 1))
        .flat_map(|(_, l)| l.chars().filter(|c| !c.is_whitespace()))
        .collect()
}

/// Did an expected literal become a name (`{}` -> `expected_stats`) that
/// may hold the same value: one the test does not bind itself (a
/// parameter, a fixture, a constant of the file), or binds to that very
/// literal? A name the test binds to something else changed the value
/// (issue 64: tenacity's `retry.statistics` expected `{}`, then the
/// statistics the test had built).
///
/// `None` when no expected literal became a name. `text` gives the
/// test's text in its new version, read only then.
pub(super) fn named_alike(
    n: &TestCase,
    text: impl FnOnce() -> String,
    old: &Assertion,
    new: &Assertion,
) -> Option<bool> {
    let named: Vec<(&str, &str)> = pair::expected(old)
        .into_iter()
        .zip(pair::expected(new))
        .filter(|(was, now)| pair::is_literal(was) && is_plain_name(now) && !pair::is_literal(now))
        .collect();
    if named.is_empty() {
        return None;
    }
    // The lines of the test before the check.
    let text = text();
    let before: Vec<&str> = text
        .lines()
        .take(new.span.line.saturating_sub(n.extent.line) as usize)
        .collect();
    Some(named.iter().any(|&(was, now)| {
        !before.iter().any(|line| binds(line, now))
            || bound_literal(n, now, new.span).is_some_and(|bound| bound == was)
            || bound_text(&before, now).is_some_and(|bound| squash(&bound) == squash(was))
    }))
}

/// The value the last line of `lines` that binds `name` on one line gives
/// it, as written (`[0, 1]` of `const values = [0, 1];`): a list or an
/// object the test's bindings do not read (p-queue 8c7325a).
pub(super) fn bound_text(lines: &[&str], name: &str) -> Option<String> {
    let line = lines.iter().rev().find(|line| binds(line, name))?;
    let (_, value) = line.split_once('=')?;
    let value = value.trim().trim_end_matches(';').trim_end();
    let balanced = |open: char, close: char| value.matches(open).count() == value.matches(close).count();
    (!value.is_empty() && balanced('[', ']') && balanced('{', '}') && balanced('(', ')')).then(|| value.to_string())
}

/// The subject `on` (a token key) with one plain name it reads that
/// `lines` bind on one line ([`bound_text`]) written as what they bind,
/// [`squash`]ed: one for each such name (`hash ( obj )` of `const obj = {
/// foo: "bar" }` is `hash({foo:bar})`).
pub(super) fn inlined(on: &str, lines: &[&str]) -> Vec<String> {
    let words: Vec<&str> = on.split(' ').collect();
    words
        .iter()
        .filter(|w| is_plain_name(w))
        .filter_map(|name| {
            let value = bound_text(lines, name)?;
            let text: String = words
                .iter()
                .map(|w| if w == name { value.as_str() } else { w })
                .collect();
            Some(squash(&text))
        })
        .collect()
}

/// The check `a` as one [`squash`]ed string, its subject written as
/// `subject` says: compared with a check whose subject reads a local the
/// other writes out ([`inlined`]).
pub(super) fn squashed_key(a: &Assertion, subject: &str) -> String {
    let on = pair::subject(a);
    let parts: Vec<String> = a
        .parts
        .iter()
        .map(|p| {
            if Some(p.as_str()) == on {
                subject.to_string()
            } else {
                squash(p)
            }
        })
        .collect();
    pair::key_of(a, parts.iter().map(String::as_str).collect())
}

/// Does a source line bind `name` (`name = ..`, `name: T = ..`, `const
/// name = ..`, `let name = ..`, `name := ..`)?
pub(super) fn binds(line: &str, name: &str) -> bool {
    let mut rest = line.trim_start();
    for keyword in ["const ", "let mut ", "let ", "var "] {
        rest = rest.strip_prefix(keyword).unwrap_or(rest);
    }
    let Some(after) = rest.strip_prefix(name) else {
        return false;
    };
    let after = after.trim_start();
    let after = match after.strip_prefix(':') {
        // Go's `:=`, or a type annotation up to its `=`.
        Some(typed) => typed.split_once('=').map_or("", |(_, value)| value),
        None => match after.strip_prefix('=') {
            Some(value) => value,
            None => return false,
        },
    };
    !after.starts_with('=')
}

/// The literal the test last bound `name` to before `at`, written as a
/// token key (`"text"`, `3`, `true`): a scalar, bound plainly (see
/// [`TestCase::bindings`]).
pub(super) fn bound_literal(t: &TestCase, name: &str, at: Span) -> Option<String> {
    let binding = t.bindings.iter().rfind(|b| b.name == name && b.span.line <= at.line)?;
    Some(match binding.literal.as_ref()? {
        // One line, as a message shows it: line breaks written as `\n`.
        Literal::Str(text) => format!("\"{}\"", text.replace('\\', "\\\\").replace('\n', "\\n")),
        Literal::Number(n) if n.fract() == 0.0 && n.abs() < 1e15 => format!("{}", *n as i64),
        Literal::Number(n) => n.to_string(),
        Literal::Bool(b) => b.to_string(),
        Literal::Null => "null".to_string(),
        Literal::Collection(_) => return None,
    })
}

/// Does a source line check or report rather than hand the code an input:
/// a condition (`if have != want {`), an assertion, a failure's message
/// (`t.Errorf("want %q", want)`)?
pub(super) fn checking(line: &str) -> bool {
    let line = line.trim_start().trim_start_matches('}').trim_start();
    const REPORTERS: &[&str] = &[
        "Errorf", "Fatalf", "Error", "Fatal", "Fail", "FailNow", "Log", "Logf", "Skipf", "fail", "print", "println",
        "Println", "Printf",
    ];
    ["if ", "if(", "else if", "elif ", "assert", "expect", "require"]
        .iter()
        .any(|start| line.starts_with(start))
        || identifiers(line).any(|(word, end)| REPORTERS.contains(&word) && line[end..].starts_with('('))
}

/// `text` with each line number written after `file:` as `#`, and those
/// numbers in order (`"errors_test.go:106: error"` -> `"errors_test.go:#:
/// error"`, `[106]`).
fn own_line_numbers(text: &str, file: &str) -> (String, Vec<usize>) {
    let (mut template, mut numbers, mut rest) = (String::new(), Vec::new(), text);
    let needle = format!("{file}:");
    while let Some(at) = rest.find(&needle) {
        let after = at + needle.len();
        let digits = rest[after..].bytes().take_while(u8::is_ascii_digit).count();
        template.push_str(&rest[..after]);
        match rest[after..after + digits].parse() {
            Ok(n) if digits > 0 => {
                numbers.push(n);
                template.push('#');
            }
            _ => template.push_str(&rest[after..after + digits]),
        }
        rest = &rest[after + digits..];
    }
    template.push_str(rest);
    (template, numbers)
}

/// Did the expected value change only in the lines of the test's own file
/// it names (`errors_test.go:106` -> `errors_test.go:99`), each old line
/// number and its new one the same line of that file, moved by an edit of
/// the file above it (issue 64: pkg/errors 874c0ec, seven lines deleted
/// above the calls a stack trace names)? The code reporting another line
/// for the same call is not it: the line there differs.
fn follows_own_lines<'a>(
    (old_path, old_file): (&Path, &'a [u8]),
    (new_path, new_file): (&Path, &'a [u8]),
    old: &Assertion,
    new: &Assertion,
) -> bool {
    let Some(name) = new_path.file_name().and_then(|n| n.to_str()) else {
        return false;
    };
    if old_path.file_name().and_then(|n| n.to_str()) != Some(name) {
        return false;
    }
    let (was, now) = (pair::expected(old), pair::expected(new));
    let (before, after): (Vec<&str>, Vec<&str>) = (
        std::str::from_utf8(old_file).unwrap_or_default().lines().collect(),
        std::str::from_utf8(new_file).unwrap_or_default().lines().collect(),
    );
    // A line that names its own number (`assert where() == "a_test.py:6"`)
    // is the same line with another number.
    let line = |lines: &[&'a str], n: usize| {
        lines
            .get(n.wrapping_sub(1))
            .map(|l| own_line_numbers(l.trim(), name).0)
            .filter(|l| !l.is_empty())
    };
    let mut moved = false;
    let same = was.len() == now.len()
        && was.iter().zip(&now).all(|(w, n)| {
            let ((wt, wn), (nt, nn)) = (own_line_numbers(w, name), own_line_numbers(n, name));
            moved |= wn != nn;
            wt == nt
                && wn.len() == nn.len()
                && wn
                    .iter()
                    .zip(&nn)
                    .all(|(&a, &b)| line(&before, a).is_some_and(|l| Some(l) == line(&after, b)))
        });
    same && moved
}
