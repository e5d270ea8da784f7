//! One step of the range (a commit, the staged change, the uncommitted
//! changes) read by every rule at once, and the density rule over the
//! range's final versions.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use super::ack::Ack;
use super::lattice::Family;
use super::pair::{self, Change, TestPairs};
use super::rules::{
    ASSERTION_DELETED, ASSERTION_VALUE_CHANGED, ASSERTION_WEAKENED, LOW_ASSERTION_DENSITY, TEST_DELETED_OR_SKIPPED,
};
use super::settings::Settings;
use super::snapshots;
use super::{Baseline, Facts, FileChange, Kind, Step, Versions};
use crate::finding::{Finding, Location, Severity};
use crate::gates::project::is_assertion_helper;
use crate::gates::project::resolve::{Resolver, is_test_support, normalize};
use crate::git::display_path;
use crate::lang::{Assertion, Lang, Span, TestCase, TestFile};
use crate::rule::RuleMeta;

mod bound;
mod compare;
mod deleted;
mod fixtures;
mod gained;
mod inputs;
mod reach;
mod wording;
use gained::*;
use reach::*;
pub(crate) use reach::{Reach, Track, tracks};
use wording::*;

pub(super) struct Analysis<'a> {
    pub versions: &'a Versions,
    pub baseline: &'a Baseline,
    /// What the base versions of the test and snapshot files the range
    /// changed held, together: a test may have moved between files since.
    pub base: &'a Facts,
    pub reach: &'a Reach<'a>,
    pub settings: &'a Settings,
    /// The tests of the last version of every test file the range changed:
    /// a test deleted in one step and there at the end moved, or came back.
    pub finale: &'a [Finale],
    /// The test files the range added, each by the name it is given for
    /// what it tests ([`NamedFile`]).
    pub named: &'a [NamedFile],
    /// Which Cargo features a plain `cargo test` enables, per crate.
    pub features: &'a crate::gates::project::features::CargoFeatures,
    /// Which Python modules the repository's distributions ship.
    pub shipping: &'a crate::gates::project::py_dist::Shipping<'a>,
}

/// A test file at the end of the range, by what its name says it tests
/// (`src/tests/from_bits.rs`, `parse_test.go`: written without `_` and case),
/// with the names its text uses, written the same way.
pub(super) struct NamedFile {
    tested: String,
    names: HashSet<String>,
}

impl NamedFile {
    /// `file`, the version `bytes` of the test file at `path`, when it has a
    /// test that runs and its name says what it tests (four letters or more).
    pub fn of(path: &Path, file: &TestFile, bytes: Option<&[u8]>) -> Option<NamedFile> {
        let stem = path.file_name()?.to_str()?.split('.').next()?;
        let stem = stem.strip_prefix("test_").unwrap_or(stem);
        let tested = plain(stem.strip_suffix("_test").unwrap_or(stem));
        if tested.chars().count() < 4 || !file.tests.iter().any(|t| !t.empty && t.skip.is_none()) {
            return None;
        }
        let text = String::from_utf8_lossy(bytes?);
        let names = identifiers(&text).map(|(word, _)| plain(word)).collect();
        Some(NamedFile { tested, names })
    }
}

/// A name without `_`, in lower case: `from_bits`, `FromBits` and
/// `fromBits` are one.
pub(super) fn plain(name: &str) -> String {
    name.chars()
        .filter(|c| *c != '_')
        .flat_map(char::to_lowercase)
        .collect()
}

/// A test at the end of the range, as far as telling it again goes (a
/// skipped one is not there: it checks nothing).
pub(super) struct Finale {
    name: String,
    /// Its class or `describe`, which tells apart two tests of one name.
    scope: String,
    shape: Vec<u32>,
    checks: Vec<String>,
    /// The functions its table runs ([`pair::row_functions`]), when it checks.
    functions: Vec<String>,
}

impl Finale {
    pub fn of(t: &TestCase) -> Finale {
        Finale {
            name: t.name.clone(),
            scope: t.scope.clone(),
            shape: t.shape.clone(),
            checks: t.assertions.iter().map(pair::check_key).collect(),
            functions: if t.assertions.is_empty() {
                Vec::new()
            } else {
                pair::row_functions(t)
            },
        }
    }

    /// Does its table run a function `t` calls?
    fn runs(&self, t: &TestCase) -> bool {
        self.functions.iter().any(|f| t.calls.contains(f))
    }

    /// How many times `t` (by scope and name) makes the check `key` at the
    /// end of the range.
    fn count(&self, t: &TestCase, key: &str) -> usize {
        match self.name == t.name && self.scope == t.scope {
            true => self.checks.iter().filter(|c| *c == key).count(),
            false => 0,
        }
    }

    /// Is this `t` (whose checks are `checks`), moved or come back: the
    /// same name with the same checks, or in the same scope with much the
    /// same body (a test of that name in another class, a short body of
    /// like shape, is another test), or a body that
    /// is nearly the same, making each of its checks, under a name that was
    /// not there before (`old` says which were): a sibling that was there
    /// all along and looks alike (`test_parse_int` beside
    /// `test_parse_float`) is not the deleted test, whatever its body, nor
    /// a new test of like shape that checks other things (more-itertools
    /// 5b43c0d: `test_unhashable`, expecting a list back, deleted for
    /// `test_unhashable_lists`, expecting `TypeError`).
    fn is(&self, t: &TestCase, checks: &[String], old: impl Fn(&str) -> bool) -> bool {
        let body = crate::lang::similarity(&self.shape, &t.shape);
        (self.name == t.name
            && ((self.scope == t.scope && body >= pair::SAME_BODY) || (!checks.is_empty() && checks == self.checks)))
            || (body >= 0.8 && !old(&self.name) && checks.iter().all(|c| self.checks.contains(c)))
    }
}

/// What one step found.
#[derive(Default)]
pub(super) struct Outcome {
    pub findings: Vec<Finding>,
    /// Each acknowledgment that downgraded findings, with how many.
    pub acknowledged: Vec<(Ack, usize)>,
    /// Deleted tests not flagged: they went with their subject, or were skipped.
    pub deleted_with_subject: usize,
    /// Deleted tests not flagged: a test the step added or edited makes
    /// each of their checks again (split, folded into a table, moved).
    pub checked_again: usize,
    /// Tests compared with their earlier version.
    pub compared: usize,
    /// Test files whose version in the step has a syntax error where tests
    /// are (`path` in the step): those tests are not compared.
    pub unreadable: Vec<String>,
}

/// What existed at the base, for one file, and for a revert, what existed
/// before the commit it reverts.
struct Known<'a> {
    base: Existed<'a>,
    /// A revert takes back only what the reverted commit added.
    reverted: Option<&'a Facts>,
}

enum Existed<'a> {
    /// Everything in the old version (each step against its parent).
    All,
    Facts(&'a Facts),
    /// The file did not exist at the base.
    Nothing,
}

impl Known<'_> {
    /// Did what `held` looks for exist at the base (and, for a revert,
    /// before the reverted commit)?
    fn existed(&self, held: impl Fn(&Facts) -> bool) -> bool {
        let base = match self.base {
            Existed::All => true,
            Existed::Facts(f) => held(f),
            Existed::Nothing => false,
        };
        base && self.reverted.is_none_or(&held)
    }

    fn test(&self, t: &TestCase) -> bool {
        self.existed(|f| f.tests.contains(&t.name))
    }

    /// Did assertion `a` of the test named `test` exist at the base?
    fn check(&self, test: &str, a: &Assertion) -> bool {
        let key = format!("{test}\u{1f}{}", pair::check_key(a));
        self.existed(|f| f.checks.contains(&key))
    }

    /// Did the case `row` of the test named `test` check `a` (an instance
    /// of its assertion with the row's values) at the base?
    fn case_check(&self, test: &str, a: &Assertion, row: &[(String, String)]) -> bool {
        let key = format!("{test}\u{1f}{}", pair::case_row_key(&pair::check_key(a), row));
        self.existed(|f| f.checks.contains(&key))
    }

    fn snapshot(&self, name: &str) -> bool {
        self.existed(|f| f.snapshots.contains(name))
    }
}

/// One changed test file of a step, both versions parsed.
struct TestChange<'a> {
    change: &'a FileChange,
    lang: Lang,
    old: Option<&'a TestFile>,
    new: Option<&'a TestFile>,
    /// The fixtures of the old and the new version, read when a changed
    /// expectation asks.
    fixtures: [std::cell::OnceCell<fixtures::Fixtures>; 2],
    /// The names of the fixtures that changed between them.
    changed_fixtures: std::cell::OnceCell<HashSet<String>>,
}

impl TestChange<'_> {
    fn old_path(&self) -> &Path {
        self.change.old_path.as_deref().unwrap_or(&self.change.path)
    }

    /// The fixtures of the new version (`new`) or the old one.
    fn fixtures(&self, versions: &Versions, new: bool) -> &fixtures::Fixtures {
        let (version, file, path) = if new {
            (self.change.new.as_ref(), self.new, self.change.path.as_path())
        } else {
            (self.change.old.as_ref(), self.old, self.old_path())
        };
        self.fixtures[usize::from(new)].get_or_init(|| match (version, file) {
            (Some(v), Some(file)) => fixtures::Fixtures::read(versions.bytes(v), file, self.lang, path),
            _ => fixtures::Fixtures::default(),
        })
    }

    /// The fixtures that changed between its old and new version.
    fn changed_fixtures(&self, versions: &Versions) -> &HashSet<String> {
        self.changed_fixtures.get_or_init(|| {
            self.fixtures(versions, true)
                .changed_from(self.fixtures(versions, false))
        })
    }
}

/// A place in one version of a file.
struct Site<'a> {
    path: &'a Path,
    span: Span,
    version: Option<&'a String>,
}

/// What the PR comment asks about a changed expectation.
const CONFIRM_INTENDED: &str = "Expectations changed with the code: confirm they are intended";

/// Collects a step's findings, applying its acknowledgments.
struct Emit<'a> {
    step: &'a Step,
    /// The working tree: the end of the range.
    root: &'a Path,
    versions: &'a Versions,
    gained: Gained<'a>,
    /// [`Emit::removed_from_code`], read when a check or a test is lost.
    removed: std::cell::OnceCell<HashSet<String>>,
    /// [`Emit::added_to_code`], read when an expected value changed.
    added: std::cell::OnceCell<HashSet<String>>,
    out: Outcome,
}

impl Emit<'_> {
    /// The names the step's code changes removed from the code entirely:
    /// declared in an old version of a code file the step modified (a
    /// function, class, method, parameter or field), and used as code
    /// (comments and strings aside) nowhere in the new versions of the code
    /// files it changed (a member of another value, `iter.find(..)`, not
    /// counted where nothing declares the name). An API a test used (`proxies=`, `.proxies`) that is
    /// gone took the test's checks of it along. A deleted file's names are
    /// not asked: its importers say. A new version that does not parse keeps
    /// every name.
    fn removed_from_code(&self) -> &HashSet<String> {
        self.removed.get_or_init(|| {
            let code = || {
                self.step
                    .changes
                    .iter()
                    .filter(|c| holds_code(c))
                    .filter_map(|c| Lang::from_path(&c.path).map(|lang| (c, lang)))
            };
            let mut declared: HashSet<String> = HashSet::new();
            for (c, _) in code().filter(|(c, _)| c.new.is_some()) {
                if let Some(old) = &c.old {
                    let text = code_text(c, self.versions.bytes(old));
                    declared.extend(declarations(&text).map(str::to_string));
                }
            }
            for (c, lang) in code() {
                let Some(new) = &c.new else { continue };
                let bytes = self.versions.bytes(new);
                match crate::lang::code_names(lang, bytes) {
                    Some(names) => {
                        // Named still, and not only as a member of some other
                        // value where nothing declares it (`iter.find(..)` is
                        // not a `fn find` removed from here; issue 64:
                        // quick-xml's `find`).
                        let text = code_text(c, bytes);
                        let declares: HashSet<&str> = declarations(&text).collect();
                        declared.retain(|d| match names.get(d) {
                            Some(free) => !*free && !declares.contains(d.as_str()),
                            None => true,
                        });
                    }
                    None => declared.clear(),
                }
            }
            // Gone for good: a later step that put it back (an API removed,
            // then restored as deprecated without its tests) did not take
            // the tests' checks along. The range ends in the working tree.
            for (c, _) in code() {
                // Read as every gate reads the tree: a link out of it is not followed.
                if let Ok(bytes) = crate::walk::read_file(self.root, &c.path) {
                    let text = code_text(c, &bytes);
                    let now: HashSet<&str> = declarations(&text).collect();
                    declared.retain(|d| !now.contains(d.as_str()));
                }
            }
            declared
        })
    }
}

impl Emit<'_> {
    /// The names the step's code changes declare that no old version of
    /// the code files it changed declared (a class renamed: its new name).
    fn added_to_code(&self) -> &HashSet<String> {
        self.added.get_or_init(|| {
            let (mut old, mut new) = (HashSet::new(), HashSet::new());
            for c in self.step.changes.iter().filter(|c| holds_code(c)) {
                for (version, into) in [(&c.old, &mut old), (&c.new, &mut new)] {
                    if let Some(v) = version {
                        let text = code_text(c, self.versions.bytes(v));
                        into.extend(declarations(&text).map(str::to_string));
                    }
                }
            }
            new.retain(|name| !old.contains(name));
            new
        })
    }

    /// Did an expected value change only where it spells names the step
    /// renamed in the code: `was` and `now` read as words and what is
    /// between them, the same but for words, each changed word one the code
    /// no longer has written as one the step newly declares, always the
    /// same way? A `repr` or message that prints a class's name follows its
    /// renames (issue 64: packaging's `_LowerBound` and `_BoundaryVersion`
    /// made public in one commit).
    pub(super) fn follows_rename(&self, was: &str, now: &str) -> bool {
        let (before, after) = (word_runs(was), word_runs(now));
        if before.len() != after.len() {
            return false;
        }
        let mut renamed: HashMap<&str, &str> = HashMap::new();
        for ((a, word), (b, _)) in before.iter().zip(&after) {
            if a == b {
                continue;
            }
            let follows = *word
                && self.removed_from_code().contains(*a)
                && self.added_to_code().contains(*b)
                && *renamed.entry(a).or_insert(b) == *b;
            if !follows {
                return false;
            }
        }
        !renamed.is_empty()
    }
}

/// `text` as runs of word characters (letters, digits, `_`) and of the
/// rest, each with whether it is a word.
fn word_runs(text: &str) -> Vec<(&str, bool)> {
    let word = |c: char| c.is_alphanumeric() || c == '_';
    let mut runs = Vec::new();
    let mut start = 0;
    let mut kind = None;
    for (i, c) in text.char_indices() {
        let is = word(c);
        if kind.is_some_and(|k| k != is) {
            runs.push((&text[start..i], !is));
            start = i;
        }
        kind = Some(is);
    }
    if let Some(is) = kind {
        runs.push((&text[start..], is));
    }
    runs
}

/// Does the changed file hold code: a code file, or a Rust source file
/// that holds its tests beside its code (`src/lib.rs` with `mod tests`)?
fn holds_code(change: &FileChange) -> bool {
    change.kind == Kind::Code
        || (change.kind == Kind::Test(Lang::Rust) && !crate::gates::mutation::is_test_support(&change.path))
}

/// The code of one version of a changed file that [`holds_code`]: a Rust
/// source file's without its tests (their names and helpers are no API).
fn code_text<'b>(change: &FileChange, bytes: &'b [u8]) -> std::borrow::Cow<'b, str> {
    if change.kind != Kind::Test(Lang::Rust) {
        return String::from_utf8_lossy(bytes);
    }
    let tests = Lang::Rust.test_file(bytes).map(|f| f.test_spans).unwrap_or_default();
    let mut text = String::new();
    let mut at = 0;
    for (start, end) in tests.into_iter().chain([(bytes.len(), bytes.len())]) {
        if let Some(part) = bytes.get(at..start.max(at)) {
            text.push_str(&String::from_utf8_lossy(part));
            text.push('\n');
        }
        at = at.max(end);
    }
    std::borrow::Cow::Owned(text)
}

impl Analysis<'_> {
    /// Is the old check `a` of `o` there as it was at the end of the range,
    /// as many times as `o` made it, or as the test made it at the base
    /// (taken out in one commit, put back by a later one, or added and
    /// taken out again: the range as a whole, as a merge brings it,
    /// changed nothing)? A second copy left beside one that changed is not it.
    fn back_at_end(&self, o: &TestCase, a: &Assertion) -> bool {
        let key = pair::check_key(a);
        let before = o.assertions.iter().filter(|b| pair::check_key(b) == key).count();
        let at_end = self.finale.iter().map(|f| f.count(o, &key)).sum::<usize>();
        // Or as many times as at the base: a copy the range added and took
        // out again (sprig 39e4d5d: an `ed25519` case added on a branch and
        // removed before the merge) was never the base's.
        let at_base = match self.baseline {
            Baseline::Commit(Some(_)) => self.base.copies.get(&format!("{}\u{1f}{key}", o.name)).copied(),
            _ => None,
        };
        at_end >= before || at_base.is_some_and(|n| at_end >= n)
    }

    /// Does a test new in the range (its name not there at the base) make
    /// the check `a` exactly at the end of the range: moved there by
    /// another commit of it (issue 64: urfave/cli split a test in one
    /// commit and added its parts as tests in the next)? Only a check
    /// with an expected literal says enough to be told.
    fn moved_by_the_range(&self, step: &Step, a: &Assertion) -> bool {
        let Existed::Facts(facts) = self.known(step).base else {
            return false;
        };
        let key = pair::check_key(a);
        // A literal it expects, or one it is given (`match = "..."`).
        pair::expected(a)
            .into_iter()
            .chain(a.parts.iter().skip(1).map(String::as_str))
            .any(|e| (pair::is_literal(e) || e.contains('"')) && pair::spelled_value(e).chars().count() >= 2)
            && self
                .finale
                .iter()
                .any(|f| !facts.tests.contains(&f.name) && f.checks.contains(&key))
    }

    fn known<'s>(&'s self, step: &'s Step) -> Known<'s> {
        let base = match self.baseline {
            Baseline::Parent => Existed::All,
            Baseline::Commit(None) => Existed::Nothing,
            Baseline::Commit(Some(_)) => Existed::Facts(self.base),
        };
        Known {
            base,
            reverted: step.reverted.as_ref(),
        }
    }

    /// The calls of `t` (in `file`, at `path`) to helpers that assert,
    /// written in a test-support module the step changed and `file`
    /// imports by a relative path (`./helpers/with-observer.js`, `.helpers`):
    /// where checks go when a project tidies its tests.
    fn imported_helper_calls<'t>(&self, step: &Step, path: &Path, t: &'t TestCase, file: &TestFile) -> Vec<&'t str> {
        let dir = path.parent().unwrap_or(Path::new(""));
        // The module a relative specifier names, without its extension.
        let target = |spec: &str| -> Option<PathBuf> {
            if spec.starts_with("./") || spec.starts_with("../") {
                return Some(normalize(&dir.join(spec)).with_extension(""));
            }
            // Python: `.helpers`, `..support.checks`.
            let rest = spec.strip_prefix('.')?;
            let ups = rest.chars().take_while(|c| *c == '.').count();
            let mut base = dir.to_path_buf();
            for _ in 0..ups {
                base.pop();
            }
            Some(base.join(rest[ups..].replace('.', "/")))
        };
        let asserts = |module: &Path, name: &str| {
            is_test_support(module)
                && step.changes.iter().any(|c| {
                    c.path.with_extension("") == module
                        && Lang::from_path(&c.path)
                            .and_then(|lang| self.versions.model(c.new.as_ref(), lang))
                            .is_some_and(|m| m.helpers.iter().any(|h| h == name))
                })
        };
        t.calls
            .iter()
            .filter(|name| {
                file.imports
                    .iter()
                    .filter(|i| i.names.contains(name))
                    .filter_map(|i| target(&i.specifier))
                    .any(|module| asserts(&module, name))
            })
            .map(String::as_str)
            .collect()
    }

    /// The predicates of its own file (`text`) that `t` checks hold: the
    /// function a truth check calls (`expect(isBlocks(bb)).toBe(true)`,
    /// `assert is_sorted(xs)`, `if !valid(v) { t.Fatal() }`), defined in
    /// that file, whose body compares. Checks folded into one are checks
    /// moved into a helper (issue 64: jotai's length and sparseness checks
    /// became `isBuildingBlocks`).
    fn predicate_calls(t: &TestCase, text: &[u8]) -> Vec<String> {
        let text = String::from_utf8_lossy(text);
        let callee = |o: &crate::lang::Operand| o.call_of.clone().filter(|c| crate::lang::is_plain_name(c));
        let truth = |o: &crate::lang::Operand| matches!(o.literal, Some(crate::lang::Literal::Bool(true)));
        let mut out: Vec<String> = t
            .assertions
            .iter()
            .filter_map(|a| match a.form.demanded() {
                crate::lang::Form::Truthy(v) => callee(v),
                crate::lang::Form::Equal(a, b) if truth(b) => callee(a),
                crate::lang::Form::Equal(a, b) if truth(a) => callee(b),
                _ => None,
            })
            .filter(|name| {
                let declared = ["function ", "def ", "func ", "fn ", "const ", "let "]
                    .iter()
                    .find_map(|keyword| {
                        let head = if keyword.starts_with(['c', 'l']) { " = (" } else { "(" };
                        text.find(&format!("{keyword}{name}{head}"))
                    });
                // Its body compares (`===`, `<`, `in`): one that answers
                // `true` whatever it is given checks nothing.
                declared.is_some_and(|at| {
                    let mut lines = text[at..].lines();
                    // The signature aside (`-> bool`, `Array<T>`): what
                    // follows its `=>` or `{`, and the lines of its body.
                    let first = lines.next().unwrap_or_default();
                    let first = first
                        .rsplit_once("=>")
                        .or_else(|| first.split_once('{'))
                        .map_or("", |(_, body)| body);
                    std::iter::once(first)
                        .chain(lines.take_while(|l| l.is_empty() || l.starts_with([' ', '\t', '}', ')'])))
                        .map(|l| l.replace("=>", "").replace("->", ""))
                        .any(|l| {
                            ["==", "!=", "<", ">", " in ", " is ", "includes(", "every(", "some("]
                                .iter()
                                .any(|op| l.contains(op))
                        })
                })
            })
            .collect();
        out.sort();
        out.dedup();
        out
    }

    /// The calls of `t` (in `file`) to helpers that assert, one for each call.
    fn helper_calls<'t>(&self, t: &'t TestCase, file: &TestFile) -> Vec<&'t str> {
        t.calls
            .iter()
            .filter(|c| is_assertion_helper(c, file, &self.settings.assertion_helpers))
            .map(String::as_str)
            .collect()
    }

    pub fn step(&self, step: &Step) -> Outcome {
        let files: Vec<TestChange<'_>> = step
            .changes
            .iter()
            .filter_map(|change| match change.kind {
                // A version that could not be read (over the size cap) has
                // no tests to compare: the file is left out of the step,
                // said by the gate, never judged as emptied.
                Kind::Test(_)
                    if self.versions.unread(change.old.as_ref()) || self.versions.unread(change.new.as_ref()) =>
                {
                    None
                }
                Kind::Test(lang) => Some(TestChange {
                    change,
                    lang,
                    old: self.versions.model(change.old.as_ref(), lang),
                    new: self.versions.model(change.new.as_ref(), lang),
                    fixtures: Default::default(),
                    changed_fixtures: std::cell::OnceCell::new(),
                }),
                _ => None,
            })
            .collect();
        let mut code: Vec<PathBuf> = step
            .changes
            .iter()
            .filter(|c| c.kind == Kind::Code)
            .chain(files.iter().filter(|f| changes_code(f)).map(|f| f.change))
            .flat_map(|c| std::iter::once(c.path.clone()).chain(c.old_path.clone()))
            .collect();
        code.sort();
        code.dedup();
        let pairs: Vec<TestPairs<'_>> = files.iter().map(|f| pair::pair_tests(f.old, f.new)).collect();
        let mut emit = Emit {
            step,
            root: self.reach.root,
            versions: self.versions,
            gained: Gained::new(self.versions, &files, &pairs),
            removed: std::cell::OnceCell::new(),
            added: std::cell::OnceCell::new(),
            out: Outcome::default(),
        };
        for (file, pairs) in files.iter().zip(&pairs) {
            for (o, n) in &pairs.paired {
                self.compare(&mut emit, &code, file, o, file, n);
            }
        }
        // A test that left one file for another in the same commit moved.
        // Each added test takes one, except in a shared suite: a file whose
        // new version imports the file a test was added to runs that
        // file's tests (hono's routers each call `runTest` of
        // `common.case.test.ts`), so one test there stands for the same
        // test left by every file that runs it.
        let mut taken: Vec<Vec<bool>> = pairs.iter().map(|p| vec![false; p.added.len()]).collect();
        let runs: std::cell::RefCell<HashMap<(usize, usize), bool>> = Default::default();
        let runs = |i: usize, j: usize| {
            *runs.borrow_mut().entry((i, j)).or_insert_with(|| {
                files[i].new.is_some_and(|new| {
                    self.reach
                        .imports_file(&files[i].change.path, files[i].lang, new, &files[j].change.path)
                })
            })
        };
        let mut left: Vec<(usize, &TestCase)> = Vec::new();
        for (i, p) in pairs.iter().enumerate() {
            for r in &p.removed {
                let same_name = |t: &TestCase| t.name == r.name;
                let same_checks = |t: &TestCase| !r.assertions.is_empty() && pair::same_checks(r, t);
                let same_body = |t: &TestCase| crate::lang::similarity(&r.shape, &t.shape) >= pair::SAME_BODY;
                let name_but_case = |t: &TestCase| pair::renamed_by_case(r, t);
                let found = [
                    &same_name as &dyn Fn(&TestCase) -> bool,
                    &same_checks,
                    &same_body,
                    &name_but_case,
                ]
                .iter()
                .find_map(|matches| {
                    (0..pairs.len()).filter(|&j| j != i).find_map(|j| {
                        let k = (0..pairs[j].added.len())
                            .find(|&k| matches(pairs[j].added[k]) && (!taken[j][k] || runs(i, j)))?;
                        Some((j, k))
                    })
                });
                match found {
                    Some((j, k)) => {
                        taken[j][k] = true;
                        self.compare(&mut emit, &code, &files[i], r, &files[j], pairs[j].added[k]);
                    }
                    None => left.push((i, r)),
                }
            }
        }
        self.deleted(&mut emit, &code, &files, &left);
        self.snapshots(&mut emit, &code, step);
        emit.out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_read_as_code() {
        assert_eq!(show("total ( [ 1 , 2 ] )"), "total([1, 2])");
        assert_eq!(show("\" a \""), "\"a\"");
        assert_eq!(
            show("get ( \" /a  b \" , f\" x \" , \" \" )"),
            "get(\"/a  b\", f\"x\", \"\")"
        );
        assert_eq!(show("- 1"), "-1");
        assert_eq!(show("` ${ fixture } ?new#hash `"), "`${fixture}?new#hash`");
        assert_eq!(
            show("` Request timed out: GET  ${ server . url } /slow `"),
            "`Request timed out: GET ${server.url}/slow`"
        );
        assert_eq!(show("\" \\x1b [97m 200 \""), "\"\\x1b[97m 200\"");
        assert_eq!(show("self . assertEqual"), "self.assertEqual");
        assert_eq!(show("{ \"a\" : 1 }"), "{\"a\": 1}");
    }

    /// At the end of a range, a test of the deleted one's name in another
    /// class, or a new one of like shape that checks other things, is not
    /// the deleted test come back.
    #[test]
    fn a_test_at_the_end_is_the_deleted_one_only_where_it_checks_as_much() {
        let file = Lang::Python
            .test_file(
                b"class TestA:\n    def test_x(self):\n        u = f([1])\n        assert list(u) == [1]\n\n\nclass TestB:\n    def test_x(self):\n        u = g([1])\n        assert sorted(u) == [2]\n\n    def test_y(self):\n        u = f([1])\n        assert list(u) == [1]\n\n    def test_z(self):\n        u = f([1])\n        assert list(u) is None\n",
            )
            .unwrap();
        let [a, b, y, z] = &file.tests[..] else {
            panic!("four tests")
        };
        let checks = |t: &TestCase| -> Vec<String> { t.assertions.iter().map(pair::check_key).collect() };
        let none_old = |_: &str| false;
        assert!(Finale::of(a).is(a, &checks(a), none_old));
        assert!(!Finale::of(b).is(a, &checks(a), |_| true));
        assert!(Finale::of(y).is(a, &checks(a), none_old));
        assert!(!Finale::of(z).is(a, &checks(a), none_old));
    }

    #[test]
    fn changed_values_are_cut_where_they_differ() {
        let list = |last: &str| format!("[ {} \"{last}\" ]", "\"header\" , ".repeat(12));
        let (was, now) = show_changed(&list("br"), &list("zstd"));
        assert_ne!(was, now);
        assert!(was.starts_with('…') && was.ends_with("\"br\"]"), "{was}");
        assert!(now.starts_with('…') && now.ends_with("\"zstd\"]"), "{now}");
        assert!(was.chars().count() <= 80 && now.chars().count() <= 80);
        // Short values, or ones that differ early, read from the start.
        assert_eq!(show_changed("1", "2"), ("1".to_string(), "2".to_string()));
        let (was, _) = show_changed(
            &format!("\"a{}\"", "x".repeat(100)),
            &format!("\"b{}\"", "x".repeat(100)),
        );
        assert!(
            was.starts_with("\"ax") && was.ends_with('…') && was.chars().count() == 80,
            "{was}"
        );
    }

    #[test]
    fn imports_reach_changed_files() {
        assert!(covers(Path::new("src/cart.py"), Path::new("src/cart.py")));
        assert!(covers(Path::new("shop/__init__.py"), Path::new("shop/billing/tax.py")));
        assert!(covers(Path::new("src/cart/index.ts"), Path::new("src/cart/total.ts")));
        assert!(!covers(Path::new("src/cart.ts"), Path::new("src/cart/total.ts")));
        let test = Path::new("tests/test_cart.py");
        assert!(spelled(test, Lang::Python, "shop.cart", Path::new("src/shop/cart.py")));
        assert!(spelled(test, Lang::Python, "shop", Path::new("src/shop/__init__.py")));
        assert!(!spelled(
            test,
            Lang::Python,
            "shop.cart",
            Path::new("src/shop/carts.py")
        ));
        let js = Path::new("src/cart.test.ts");
        assert!(spelled(js, Lang::TypeScript, "./cart.js", Path::new("src/cart.ts")));
        assert!(spelled(js, Lang::TypeScript, "../lib", Path::new("lib/index.ts")));
        assert!(!spelled(js, Lang::TypeScript, "react", Path::new("react.ts")));
    }
}
