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
use crate::gates::mock::resolve::{Resolver, is_test_support, normalize};
use crate::gates::mock::rules::is_assertion_helper;
use crate::git::display_path;
use crate::lang::{Assertion, Lang, Span, TestCase, TestFile};
use crate::rule::RuleMeta;

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
}

/// A test at the end of the range, as far as telling it again goes (a
/// skipped one is not there: it checks nothing).
pub(super) struct Finale {
    name: String,
    shape: Vec<u32>,
    checks: Vec<String>,
}

impl Finale {
    pub fn of(t: &TestCase) -> Finale {
        Finale {
            name: t.name.clone(),
            shape: t.shape.clone(),
            checks: t.assertions.iter().map(pair::check_key).collect(),
        }
    }

    /// Is this `t` (whose checks are `checks`), moved or come back: the
    /// same name with much the same body or the same checks, or a body that
    /// is nearly the same?
    fn is(&self, t: &TestCase, checks: &[String]) -> bool {
        let body = crate::lang::similarity(&self.shape, &t.shape);
        (self.name == t.name && (body >= pair::SAME_BODY || (!checks.is_empty() && checks == self.checks)))
            || body >= 0.8
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
}

impl TestChange<'_> {
    fn old_path(&self) -> &Path {
        self.change.old_path.as_deref().unwrap_or(&self.change.path)
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
    versions: &'a Versions,
    gained: Gained<'a>,
    /// [`Emit::removed_from_code`], read when a check or a test is lost.
    removed: std::cell::OnceCell<HashSet<String>>,
    out: Outcome,
}

impl Emit<'_> {
    /// The names the step's code changes removed from the code entirely:
    /// declared in an old version of a code file the step modified (a
    /// function, class, method, parameter or field), and used as code
    /// (comments and strings aside) nowhere in the new versions of the code
    /// files it changed. An API a test used (`proxies=`, `.proxies`) that is
    /// gone took the test's checks of it along. A deleted file's names are
    /// not asked: its importers say. A new version that does not parse keeps
    /// every name.
    fn removed_from_code(&self) -> &HashSet<String> {
        self.removed.get_or_init(|| {
            let code = || {
                self.step
                    .changes
                    .iter()
                    .filter(|c| c.kind == Kind::Code)
                    .filter_map(|c| Lang::from_path(&c.path).map(|lang| (c, lang)))
            };
            let mut declared: HashSet<String> = HashSet::new();
            for (c, _) in code().filter(|(c, _)| c.new.is_some()) {
                if let Some(old) = &c.old {
                    let text = String::from_utf8_lossy(self.versions.bytes(old));
                    declared.extend(declarations(&text).map(str::to_string));
                }
            }
            for (c, lang) in code() {
                let Some(new) = &c.new else { continue };
                match crate::lang::code_names(lang, self.versions.bytes(new)) {
                    Some(names) => declared.retain(|d| !names.contains(d)),
                    None => declared.clear(),
                }
            }
            declared
        })
    }
}

/// The names `text` declares: after a declaring keyword (`def`, `class`,
/// `fn`, `func`, `function`, `interface`, `type`, `struct`, `enum`,
/// `trait`, `const`, `let`, `var`), or as a parameter or field in a list
/// (`(proxies: X = None`, `, prefixUrl?: string`, `{ retries = 2`).
fn declarations(text: &str) -> impl Iterator<Item = &str> {
    const KEYWORDS: &[&str] = &[
        "def",
        "class",
        "fn",
        "func",
        "function",
        "interface",
        "type",
        "struct",
        "enum",
        "trait",
        "const",
        "let",
        "var",
    ];
    let bytes = text.as_bytes();
    identifiers(text).filter_map(move |(word, end)| {
        let start = end - word.len();
        let head = text[..start].trim_end();
        let keyword = head
            .rsplit(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .next()
            .is_some_and(|w| KEYWORDS.contains(&w));
        let listed = head.ends_with(['(', ',', '{']);
        let mut after = bytes[end..].iter().filter(|b| !b.is_ascii_whitespace()).skip_while(|b| **b == b'?');
        let field = listed && matches!((after.next(), after.next()), (Some(b':' | b'='), next) if next != Some(&b'=') && next != Some(&b':'));
        (keyword || field).then_some(word)
    })
}

/// The identifiers of `text` (three characters or more), each with the
/// byte offset where it ends.
fn identifiers(text: &str) -> impl Iterator<Item = (&str, usize)> {
    let bytes = text.as_bytes();
    let mut at = 0;
    std::iter::from_fn(move || {
        while at < bytes.len() {
            let start = at;
            if bytes[at].is_ascii_alphabetic() || bytes[at] == b'_' {
                while at < bytes.len() && (bytes[at].is_ascii_alphanumeric() || bytes[at] == b'_') {
                    at += 1;
                }
                let after_digit = start > 0 && bytes[start - 1].is_ascii_digit();
                if at - start >= 3 && !after_digit {
                    return Some((&text[start..at], at));
                }
            } else {
                at += 1;
            }
        }
        None
    })
}

/// The names `text` uses as an API rather than as its own variables: an
/// attribute or method (`.proxies`), a keyword argument or field in a
/// list (`(proxies=`, `{ proxies:`; not `==` or `::`), a call (`proxies(`).
fn api_uses(text: &str) -> impl Iterator<Item = &str> {
    let bytes = text.as_bytes();
    identifiers(text).filter_map(move |(word, end)| {
        let start = end - word.len();
        let before = bytes[..start].iter().rev().find(|b| !b.is_ascii_whitespace());
        let mut after = bytes[end..].iter().filter(|b| !b.is_ascii_whitespace());
        let listed = matches!(before, Some(b'(' | b',' | b'{'));
        let used = match (after.next(), after.next()) {
            (Some(b'='), next) => listed && next != Some(&b'='),
            (Some(b':'), next) => listed && next != Some(&b':'),
            (Some(b'('), _) => true,
            _ => before == Some(&b'.'),
        };
        used.then_some(word)
    })
}

/// The tests a step added or edited, each with its text squashed (no
/// whitespace, no quotes): where checks that left a test may have gone.
/// Read only when a step lost a test or a check ([`Gained::read`]): most
/// lose none.
struct Gained<'a> {
    /// Each test with the index of its file in the step's test changes, and
    /// whether the step left it as it was.
    candidates: Vec<(usize, &'a TestCase, bool)>,
    /// Each file's language and new text, by index.
    files: Vec<(Lang, &'a [u8])>,
    read: std::cell::OnceCell<Read<'a>>,
}

/// What [`Gained`] holds, once read.
struct Read<'a> {
    /// The tests the step added or edited, each with the index of its file
    /// and its squashed text.
    tests: Vec<(usize, &'a TestCase, String)>,
    /// Their checks ([`pair::check_key`]), and those of the tests the step
    /// left as they were in the files it changed that ask a call for
    /// something ([`pair::asks_a_call`]).
    checks: HashSet<String>,
    /// The same checks as [`pair::made_keys`].
    remade: HashSet<String>,
}

impl<'a> Gained<'a> {
    fn new(versions: &'a Versions, files: &[TestChange<'a>], pairs: &[TestPairs<'a>]) -> Gained<'a> {
        let mut candidates = Vec::new();
        for (i, (file, pairs)) in files.iter().zip(pairs).enumerate() {
            if file.change.new.is_none() {
                continue;
            }
            // A skipped test checks nothing: what moved into one is lost.
            let edited = pairs.paired.iter().map(|&(o, n)| (n, pair::same_checks(o, n)));
            candidates.extend(
                pairs
                    .added
                    .iter()
                    .map(|&t| (t, false))
                    .chain(edited)
                    .filter(|(t, _)| t.skip.is_none())
                    .map(|(t, unchanged)| (i, t, unchanged)),
            );
        }
        let files = files
            .iter()
            .map(|f| (f.lang, f.change.new.as_ref().map_or(&[][..], |v| versions.bytes(v))))
            .collect();
        Gained {
            candidates,
            files,
            read: std::cell::OnceCell::new(),
        }
    }

    fn read(&self) -> &Read<'a> {
        self.read.get_or_init(|| {
            let mut tests = Vec::new();
            let mut checks = HashSet::new();
            let mut remade = HashSet::new();
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
                    checks.insert(pair::check_key(&a));
                    remade.extend(pair::made_keys(family, &a));
                }
                if !unchanged {
                    tests.push((i, t, squashed_lines(&lines[i], t.extent)));
                }
            }
            Read { tests, checks, remade }
        })
    }

    /// Does a test the step added or edited make the check `a` again: the
    /// same check, or the same matcher with the name its subject starts from
    /// and every literal of its expected values (a check split into another
    /// test, or folded into a parametrized test's cases or a table's rows)
    /// written in that test? A check whose values are all as short as `0`
    /// or `"a"` is found only as itself. An exact check of a call is also
    /// made again by one asking another receiver the same
    /// ([`pair::remade_keys`]).
    fn holds(&self, family: Family, a: &Assertion) -> bool {
        let read = self.read();
        if self.makes(a) || pair::remade_keys(family, a).iter().any(|key| read.remade.contains(key)) {
            return true;
        }
        let Some(subject) = pair::subject(a) else { return false };
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
                t.assertions.iter().any(|b| b.matcher == a.matcher)
                    && text.contains(name)
                    && literals.iter().all(|l| text.contains(l.as_str()))
            })
    }

    /// Does a test the step added or edited make the check `a` exactly as
    /// written (its values too)?
    fn makes(&self, a: &Assertion) -> bool {
        self.read().checks.contains(&pair::check_key(a))
    }

    /// Was `t` rewritten with other values as a test the step added or
    /// edited: does one make each check of `t` that no test makes again,
    /// with the same matcher on the same subject, either as a case of a
    /// parametrized test (a parameter for its expected value) or on a
    /// subject that calls the code (`buf.get_u8()`, not a bare `result`)?
    /// Of several, the one whose body is most like `t`'s.
    fn folded<'t>(&self, family: Family, t: &'t TestCase) -> Option<Rewrite<'t, 'a>> {
        let lost: Vec<&Assertion> = t.assertions.iter().filter(|a| !self.holds(family, a)).collect();
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
struct Rewrite<'t, 'a> {
    /// The index of its file in the step's test changes.
    file: usize,
    test: &'a TestCase,
    /// Each check of the old test no test makes again, with the one that
    /// stands for it.
    remade: Vec<(&'t Assertion, &'a Assertion)>,
}

/// The expected literals of a test's assertions, squashed, one after another.
fn expectations(t: &TestCase) -> String {
    t.assertions
        .iter()
        .flat_map(pair::expected)
        .filter(|e| pair::is_literal(e))
        .map(|e| squash(&pair::spelled_value(e)))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The words (letters, digits, `_`; three or more) `after` has more of than
/// `before`, and fewer, each with how many more or fewer.
fn word_changes(before: &str, after: &str) -> (HashMap<String, usize>, HashMap<String, usize>) {
    let count = |text: &str| {
        let mut words: HashMap<String, usize> = HashMap::new();
        for word in text
            .split(|c: char| !(c.is_alphanumeric() || c == '_'))
            .filter(|w| w.chars().count() >= 3)
        {
            *words.entry(word.to_string()).or_default() += 1;
        }
        words
    };
    // The words `a` has more of than `b`, with how many more.
    let surplus = |a: &HashMap<String, usize>, b: &HashMap<String, usize>| -> HashMap<String, usize> {
        a.iter()
            .filter_map(|(word, &n)| {
                let m = b.get(word).copied().unwrap_or(0);
                (n > m).then(|| (word.clone(), n - m))
            })
            .collect()
    };
    let (was, now) = (count(before), count(after));
    (surplus(&now, &was), surplus(&was, &now))
}

/// Text without whitespace or quotes, for finding one spelling in another.
fn squash(text: &str) -> String {
    text.chars()
        .filter(|c| !c.is_whitespace() && !matches!(c, '"' | '\'' | '`'))
        .collect()
}

impl Emit<'_> {
    /// `path`'s version in the step did not parse cleanly where its tests are.
    fn unreadable(&mut self, path: &Path) {
        let what = format!("{} in {}", display_path(path), self.step.label);
        if !self.out.unreadable.contains(&what) {
            self.out.unreadable.push(what);
        }
    }

    fn push(
        &mut self,
        rule: &'static RuleMeta,
        message: String,
        at: Site<'_>,
        before: Option<Site<'_>>,
        notes: Vec<String>,
    ) {
        let path = display_path(at.path);
        let mut f = Finding::new(rule, message)
            .at(path, at.span.line, at.span.column)
            .until(at.span.end_line, at.span.end_column);
        // A changed expectation next to changed code is what an intended
        // change looks like too: only a person can tell.
        if rule.id == ASSERTION_VALUE_CHANGED.id {
            f.confirm = Some(CONFIRM_INTENDED);
        }
        f.snippet = at
            .version
            .map(|v| lines(self.versions.bytes(v), at.span))
            .unwrap_or_default();
        if let Some(before) = before {
            f.related.push(Location {
                path: display_path(before.path),
                line: Some(before.span.line),
                column: Some(before.span.column),
                message: Some("before the change".into()),
            });
        }
        f.notes.push(format!("in {}", self.step.label));
        f.notes.extend(notes);
        if let Some(ack) = self.step.acks.iter().find(|a| a.covers(rule)) {
            f.ceiling = Some(Severity::Note);
            f.notes.push(format!("acknowledged: {}", ack.reason));
            f.acknowledged = Some(crate::finding::Acknowledged {
                justification: ack.reason.clone(),
                accepted: ack.trusted,
            });
            match self.out.acknowledged.iter_mut().find(|(a, _)| a == ack) {
                Some((_, n)) => *n += 1,
                None => self.out.acknowledged.push((ack.clone(), 1)),
            }
        }
        self.out.findings.push(f);
    }
}

/// The source lines of `span` in `bytes`.
fn test_text(bytes: &[u8], span: Span) -> String {
    let text = String::from_utf8_lossy(bytes);
    let first = span.line.saturating_sub(1) as usize;
    let count = (span.end_line.max(span.line) as usize + 1).saturating_sub(span.line.max(1) as usize);
    text.lines().skip(first).take(count).collect::<Vec<_>>().join("\n")
}

/// Every source line of `span` in `bytes`, squashed ([`squash`]).
fn squashed(bytes: &[u8], span: Span) -> String {
    let text = String::from_utf8_lossy(bytes);
    let lines: Vec<&str> = text.lines().collect();
    squashed_lines(&lines, span)
}

/// [`squashed`], of a file's lines.
fn squashed_lines(lines: &[&str], span: Span) -> String {
    let first = (span.line.saturating_sub(1) as usize).min(lines.len());
    let end = (span.end_line.max(span.line) as usize).min(lines.len());
    lines[first..end.max(first)].iter().map(|l| squash(l)).collect()
}

/// Source lines `span.line..=span.end_line` (at most five) of `bytes`.
fn lines(bytes: &[u8], span: Span) -> Vec<String> {
    crate::gates::snippet(&String::from_utf8_lossy(bytes), span.line, span.end_line)
}

/// "on" and the subject, for a message about an assertion that has one.
fn on_subject(a: &Assertion) -> String {
    match pair::subject(a) {
        Some(subject) if !subject.is_empty() => format!(" on `{}`", show(subject)),
        _ => String::new(),
    }
}

/// A token key as people write it: `total ( [ 1 ] )` -> `total([1])`,
/// `get ( " /a b " )` -> `get("/a b")` (inside a string, tokens keep the
/// spaces between them and none after the opening or before the closing
/// quote; keys write every delimiter `"`, after any prefix such as `f`).
pub(super) fn show(key: &str) -> String {
    clip(&written(key), 0)
}

/// At most 80 characters of `text` from character `from` on, with `…` where
/// it was cut.
fn clip(text: &str, from: usize) -> String {
    let total = text.chars().count();
    let from = from.min(total.saturating_sub(79));
    let head = if from > 0 { "…" } else { "" };
    let body: String = text.chars().skip(from).take(80 - head.chars().count()).collect();
    if from + body.chars().count() < total {
        let body: String = body.chars().take(body.chars().count() - 1).collect();
        format!("{head}{body}…")
    } else {
        format!("{head}{body}")
    }
}

/// Two expected values as [`show`] writes them, each cut to show where they
/// first differ (a long header list that gained one entry at its end would
/// otherwise read the same before and after).
fn show_changed(was: &str, now: &str) -> (String, String) {
    let (was, now) = (written(was), written(now));
    let same = was.chars().zip(now.chars()).take_while(|(a, b)| a == b).count();
    // From a little before the first difference, when it lies past the cut.
    let from = if same >= 60 { same - 20 } else { 0 };
    (clip(&was, from), clip(&now, from))
}

/// [`show`] without the cut.
fn written(key: &str) -> String {
    let mut out = String::with_capacity(key.len());
    let mut last = "";
    // The quote of the string literal the tokens are in; whether the next
    // token follows the opening quote; how deep in a template's `${..}`.
    let (mut quote, mut opened, mut inside) = (None::<&str>, false, 0usize);
    for token in key.split(' ') {
        if inside > 0 {
            match token {
                "{" | "${" => inside += 1,
                "}" => inside -= 1,
                _ => {}
            }
            if inside == 0 {
                out.push_str(token);
                last = token;
                continue;
            }
        } else if let Some(q) = quote {
            // Text is written together with its escapes and interpolations;
            // its own spaces split it into tokens here.
            let together = opened || last.starts_with('\\') || token.starts_with('\\') || last == "}" || token == "${";
            if token == q {
                quote = None;
            } else if !together {
                out.push(' ');
            }
            opened = false;
            out.push_str(token);
            last = token;
            if token == "${" {
                inside = 1;
                last = "(";
            }
            continue;
        }
        let glue = matches!(token, ")" | "]" | "}" | "," | "." | ":" | "(" | "[" | "?.")
            && !(token == "(" && matches!(last, "," | "=" | "==" | "return"))
            || matches!(last, "(" | "[" | "{" | "." | "?." | "-" | "!" | "")
            || (token == "[" && last == ",");
        if !glue || (token == "{" && !last.is_empty()) {
            out.push(' ');
        }
        out.push_str(token);
        last = token;
        if token == "`" {
            (quote, opened) = (Some("`"), true);
        } else if token
            .strip_suffix('"')
            .is_some_and(|prefix| prefix.chars().all(|c| c.is_ascii_alphabetic()))
        {
            (quote, opened) = (Some("\""), true);
        }
    }
    out.trim().to_string()
}

impl Analysis<'_> {
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

    /// How many calls of `t` (in `file`, at `path`) are to helpers that
    /// assert written in a test-support module the step changed and `file`
    /// imports by a relative path (`./helpers/with-observer.js`, `.helpers`):
    /// where checks go when a project tidies its tests.
    fn imported_helper_calls(&self, step: &Step, path: &Path, t: &TestCase, file: &TestFile) -> usize {
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
            .count()
    }

    /// How many calls of `t` (in `file`) are to helpers that assert.
    fn helper_calls(&self, t: &TestCase, file: &TestFile) -> usize {
        t.calls
            .iter()
            .filter(|c| is_assertion_helper(c, file, &self.settings.assertion_helpers))
            .count()
    }

    pub fn step(&self, step: &Step) -> Outcome {
        let files: Vec<TestChange<'_>> = step
            .changes
            .iter()
            .filter_map(|change| match change.kind {
                Kind::Test(lang) => Some(TestChange {
                    change,
                    lang,
                    old: self.versions.model(change.old.as_ref(), lang),
                    new: self.versions.model(change.new.as_ref(), lang),
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
            versions: self.versions,
            gained: Gained::new(self.versions, &files, &pairs),
            removed: std::cell::OnceCell::new(),
            out: Outcome::default(),
        };
        for (file, pairs) in files.iter().zip(&pairs) {
            for (o, n) in &pairs.paired {
                self.compare(&mut emit, &code, file, o, file, n);
            }
        }
        // A test that left one file for another in the same commit moved.
        let mut taken: Vec<Vec<bool>> = pairs.iter().map(|p| vec![false; p.added.len()]).collect();
        let mut left: Vec<(usize, &TestCase)> = Vec::new();
        for (i, p) in pairs.iter().enumerate() {
            for r in &p.removed {
                let same_name = |t: &TestCase| t.name == r.name;
                let same_checks = |t: &TestCase| !r.assertions.is_empty() && pair::same_checks(r, t);
                let same_body = |t: &TestCase| crate::lang::similarity(&r.shape, &t.shape) >= pair::SAME_BODY;
                let found = [&same_name as &dyn Fn(&TestCase) -> bool, &same_checks, &same_body]
                    .iter()
                    .find_map(|matches| {
                        (0..pairs.len()).filter(|&j| j != i).find_map(|j| {
                            let k = (0..pairs[j].added.len()).find(|&k| !taken[j][k] && matches(pairs[j].added[k]))?;
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

    /// Compare a test with its earlier version (`o` in `of`, `n` in `nf`).
    fn compare(
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
        // A test skipped before the change ran none of its checks.
        let Some(new_file) = nf.new.filter(|_| o.skip.is_none()) else {
            return;
        };
        let mut changes = pair::assertion_changes(Family::of(nf.lang), &o.assertions, &n.assertions);
        // Checks moved into a helper the test now calls are not deleted (a
        // helper may hold any number of them).
        let calls = |t: &TestCase, path: &Path, file: &TestFile| {
            self.helper_calls(t, file) + self.imported_helper_calls(emit.step, path, t, file)
        };
        if calls(n, &nf.change.path, new_file) > of.old.map_or(0, |f| calls(o, of.old_path(), f)) {
            changes.retain(|c| !matches!(c, Change::Deleted { .. }));
        }
        for change in changes {
            match change {
                // The old test checked both values (an `if`/`else` on the
                // environment) and a test the step added or edited still
                // checks the old one as it was: split into two tests, one
                // per value; nothing changed.
                Change::ValueChanged { old, new }
                    if known.check(&o.name, old)
                        && !(o.assertions.iter().any(|b| pair::same_check(b, new)) && emit.gained.makes(old)) =>
                {
                    self.value_changed(emit, code, (of, o, old), (nf, n, new), None);
                }
                // A check rewritten onto another subject because the API it
                // asked was removed from the code went with that API.
                Change::Weakened { old, new }
                    if known.check(&o.name, old)
                        && !(pair::subject(old) != pair::subject(new) && self.lost_removed_api(emit, of, o, nf, n)) =>
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
                        && !emit.gained.holds(Family::of(nf.lang), old)
                        && !pair::housekeeping(o, old)
                        && !pair::vacuous(o, old, of.old.map_or(&[], |f| &f.imports))
                        && !self.lost_removed_api(emit, of, o, nf, n) =>
                {
                    emit.push(
                        &ASSERTION_DELETED,
                        format!(
                            "test `{}` lost the assertion `{}`{}",
                            n.name,
                            old.matcher,
                            on_subject(old)
                        ),
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
            // The case an instance `a` of `all` is of, and the assertion as written.
            fn case_of<'t>(
                t: &'t TestCase,
                all: &[Assertion],
                a: &Assertion,
            ) -> (&'t [(String, String)], &'t Assertion) {
                let index = all.iter().position(|b| std::ptr::eq(a, b)).unwrap_or(0);
                let per_case = t.assertions.len().max(1);
                (&t.cases[index / per_case], &t.assertions[index % per_case])
            }
            for change in pair::assertion_changes(Family::of(nf.lang), &was, &now) {
                let Change::ValueChanged { old, new } = change else {
                    continue;
                };
                let ((old_case, _), (new_case, written)) = (case_of(o, &was, old), case_of(n, &now, new));
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
                let input_stayed = new_case
                    .iter()
                    .filter(|(name, _)| !is_expected(name))
                    .all(|param| old_case.contains(param));
                if input_stayed && known.check(&o.name, old) {
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
                    self.value_changed(emit, code, (of, o, old), (nf, n, new), Some(&case));
                }
            }
        }
    }

    /// The expected value of `old` (of test `o` in `of`) became that of
    /// `new` (of `n` in `nf`): a finding when the step changed code the test
    /// reaches and the value did not follow the test's own input. For a
    /// case's value, `case` says which case, after the test's name.
    fn value_changed(
        &self,
        emit: &mut Emit<'_>,
        code: &[PathBuf],
        (of, o, old): (&TestChange<'_>, &TestCase, &Assertion),
        (nf, n, new): (&TestChange<'_>, &TestCase, &Assertion),
        case: Option<&str>,
    ) {
        let Some(new_file) = nf.new else { return };
        let Some(reached) = self.changed_code(emit.step, &nf.change.path, nf.lang, new_file, code) else {
            return;
        };
        // A case's input is its other values, compared by the caller.
        if case.is_none() && self.input_follows(of, o, old, nf, n, new) {
            return;
        }
        let (was, now) = (pair::expected(old).join(" , "), pair::expected(new).join(" , "));
        if pair::narrowed(new, &was, &now) {
            return;
        }
        let (was, now) = show_changed(&was, &now);
        emit.push(
            &ASSERTION_VALUE_CHANGED,
            format!(
                "test `{}`{}: the expected value changed from `{}` to `{}` together with {}, which the test imports",
                n.name,
                case.unwrap_or_default(),
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
    fn lost_removed_api(
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
    fn changed_code<'c>(
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
    fn comments_only(&self, c: &FileChange) -> bool {
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

    /// Did the expected value follow the test's own input: is the new test
    /// the old one with the old literal written as the new one everywhere
    /// (a typo fixed in the input and its expectation together), the old
    /// literal appearing outside the expectation too?
    fn input_follows(
        &self,
        of: &TestChange<'_>,
        o: &TestCase,
        old: &Assertion,
        nf: &TestChange<'_>,
        n: &TestCase,
        new: &Assertion,
    ) -> bool {
        let text = |version: Option<&String>, t: &TestCase| version.map(|v| squashed(self.versions.bytes(v), t.extent));
        let (Some(before), Some(after)) = (text(of.change.old.as_ref(), o), text(nf.change.new.as_ref(), n)) else {
            return false;
        };
        pair::expected(old).iter().zip(pair::expected(new)).any(|(was, now)| {
            let (was, now) = (squash(&pair::spelled_value(was)), squash(&pair::spelled_value(now)));
            if was.chars().count() < 2 || was == now {
                return false;
            }
            // Rewritten everywhere: a typo fixed in the input and the expectation.
            if before.matches(&was).count() >= 2 && before.replace(&was, &now) == after {
                return true;
            }
            // Or what the expectation gained and lost, word for word, the rest of
            // the test (outside every expected value) gained and lost too: an
            // input that grew a `mediasession` entry, and the expected header
            // that grew `mediasession=()`.
            let (gained, lost) = word_changes(&was, &now);
            let (more, fewer) = word_changes(&before, &after);
            let (more_expected, fewer_expected) = word_changes(&expectations(o), &expectations(n));
            let outside = |all: &HashMap<String, usize>, expected: &HashMap<String, usize>, w: &String| {
                all.get(w)
                    .copied()
                    .unwrap_or(0)
                    .saturating_sub(expected.get(w).copied().unwrap_or(0))
            };
            !(gained.is_empty() && lost.is_empty())
                && gained.iter().all(|(w, n)| outside(&more, &more_expected, w) >= *n)
                && lost.iter().all(|(w, n)| outside(&fewer, &fewer_expected, w) >= *n)
        })
    }

    /// Tests of the base that no version in the step holds any more.
    fn deleted(&self, emit: &mut Emit<'_>, code: &[PathBuf], files: &[TestChange<'_>], left: &[(usize, &TestCase)]) {
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
            // Already skipped: it checked nothing.
            if t.skip.is_some() {
                emit.out.deleted_with_subject += 1;
                continue;
            }
            // Deleted with its subject: a name it used is no longer imported,
            // and it came from code the step changed or deleted.
            let still_imported = |name: &String| {
                file.new
                    .is_some_and(|n| n.imports.iter().any(|i| i.names.contains(name)))
            };
            let subject_gone = file.old.is_some_and(|old| {
                t.uses.iter().filter(|name| !still_imported(name)).any(|name| {
                    old.imports.iter().filter(|i| i.names.contains(name)).any(|import| {
                        let alone = TestFile {
                            imports: vec![import.clone()],
                            ..TestFile::default()
                        };
                        self.reach.reached(file.old_path(), file.lang, &alone, code).is_some()
                    })
                })
            });
            let text = file
                .change
                .old
                .as_ref()
                .map(|v| test_text(self.versions.bytes(v), t.extent));
            let api_gone = |text: String| api_uses(&text).any(|w| emit.removed_from_code().contains(w));
            if subject_gone || text.is_some_and(api_gone) {
                emit.out.deleted_with_subject += 1;
                continue;
            }
            // Each check made again, as written or case by case.
            let family = Family::of(file.lang);
            let held = |checks: &[Assertion]| !checks.is_empty() && checks.iter().all(|a| emit.gained.holds(family, a));
            if held(&t.assertions) || (!t.cases.is_empty() && held(&pair::case_assertions(t))) {
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
            if self.finale.iter().any(|f| f.is(t, &checks)) {
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
            if file.new.is_none() && tests.len() > 1 {
                let names: Vec<String> = tests.iter().take(5).map(|t| format!("`{}`", t.name)).collect();
                let more = if tests.len() > 5 { ", ..." } else { "" };
                emit.push(
                    &TEST_DELETED_OR_SKIPPED,
                    format!(
                        "{} was deleted with its {} tests: {}{more}",
                        display_path(file.old_path()),
                        tests.len(),
                        names.join(", ")
                    ),
                    site(tests[0]),
                    None,
                    Vec::new(),
                );
                continue;
            }
            for t in tests {
                emit.push(
                    &TEST_DELETED_OR_SKIPPED,
                    format!("test `{}` was deleted", t.name),
                    site(t),
                    None,
                    Vec::new(),
                );
            }
        }
    }

    /// `t` of `of` was rewritten as `n` of `nf` (as cases of it, when it
    /// is parametrized), its checks `remade` with other values: each is an expected value changed, a
    /// finding when the step changed code the test reaches.
    fn folded(
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
        let known = self.known(emit.step);
        let remade: Vec<&(&Assertion, &Assertion)> =
            remade.iter().filter(|(old, _)| known.check(&t.name, old)).collect();
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
    fn snapshots(&self, emit: &mut Emit<'_>, code: &[PathBuf], step: &Step) {
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
            .map(|t| (t, t.assertions.len() + self.helper_calls(t, last)))
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

/// One test file through the range (renames followed): its version before
/// the range's first change and after its last.
pub(super) struct Track {
    pub path: PathBuf,
    pub lang: Lang,
    pub first: Option<String>,
    pub last: Option<String>,
    /// The step that changes the file last.
    pub end: usize,
}

/// The test files the range changed, as [`Track`]s.
pub(super) fn tracks(steps: &[Step]) -> Vec<Track> {
    let mut tracks: Vec<Track> = Vec::new();
    let mut index: HashMap<PathBuf, usize> = HashMap::new();
    for (at, change) in steps
        .iter()
        .enumerate()
        .flat_map(|(at, s)| s.changes.iter().map(move |c| (at, c)))
    {
        let Kind::Test(lang) = change.kind else { continue };
        let prior = change.old_path.as_ref().and_then(|old| index.remove(old));
        let i = prior.unwrap_or_else(|| {
            tracks.push(Track {
                path: change.path.clone(),
                lang,
                first: change.old.clone(),
                last: None,
                end: at,
            });
            tracks.len() - 1
        });
        tracks[i].path = change.path.clone();
        tracks[i].last = change.new.clone();
        tracks[i].end = at;
        if change.new.is_some() {
            index.insert(change.path.clone(), i);
        }
    }
    tracks
}

/// Which changed code a test file reaches through its imports: the imported
/// module, any module inside an imported package, and the modules those
/// import (one hop, read from the working tree).
pub(super) struct Reach<'a> {
    root: &'a Path,
    resolver: &'a Resolver,
    /// A project file -> the project files it imports.
    hops: Mutex<HashMap<PathBuf, Vec<PathBuf>>>,
}

impl<'a> Reach<'a> {
    pub fn new(root: &'a Path, resolver: &'a Resolver) -> Reach<'a> {
        Reach {
            root,
            resolver,
            hops: Mutex::default(),
        }
    }

    pub fn reached<'c>(&self, from: &Path, lang: Lang, file: &TestFile, code: &'c [PathBuf]) -> Option<&'c PathBuf> {
        if code.is_empty() {
            return None;
        }
        let mut targets = Vec::new();
        for import in &file.imports {
            for spec in import.module_specifiers(lang) {
                match self.resolver.project_file(from, lang, spec) {
                    Some(target) => {
                        if let Some(c) = code.iter().find(|c| covers(&target, c)) {
                            return Some(c);
                        }
                        targets.push(target);
                    }
                    // Gone from the working tree since: compare spellings.
                    None => {
                        if let Some(c) = code.iter().find(|c| spelled(from, lang, spec, c)) {
                            return Some(c);
                        }
                    }
                }
            }
        }
        targets.sort();
        targets.dedup();
        targets.iter().find_map(|t| {
            self.imports_of(t)
                .iter()
                .find_map(|t2| code.iter().find(|c| covers(t2, c)))
        })
    }

    fn imports_of(&self, target: &Path) -> Vec<PathBuf> {
        if let Some(known) = self.hops.lock().expect("reach cache").get(target) {
            return known.clone();
        }
        let found: Vec<PathBuf> = Lang::from_path(target)
            .and_then(|lang| {
                let bytes = std::fs::read(self.root.join(target)).ok()?;
                let imports = lang.imports(&bytes)?;
                Some(
                    imports
                        .iter()
                        .flat_map(|i| {
                            i.module_specifiers(lang)
                                .filter_map(|s| self.resolver.project_file(target, lang, s))
                        })
                        .collect(),
                )
            })
            .unwrap_or_default();
        self.hops
            .lock()
            .expect("reach cache")
            .insert(target.to_path_buf(), found.clone());
        found
    }
}

/// A Rust source file holds code and the tests beside it: did this change
/// touch its code (the file without its tests), not only its tests?
fn changes_code(file: &TestChange<'_>) -> bool {
    if file.lang != Lang::Rust || is_test_support(&file.change.path) {
        return false;
    }
    match (file.old, file.new) {
        (Some(old), Some(new)) => old.code_digest != new.code_digest || old.code_digest.is_empty(),
        _ => true,
    }
}

fn is_index(path: &Path) -> bool {
    path.file_stem()
        .and_then(|s| s.to_str())
        .is_some_and(|s| matches!(s, "__init__" | "index"))
}

/// Does an import that resolved to `target` reach the changed file `changed`?
fn covers(target: &Path, changed: &Path) -> bool {
    target == changed
        || (is_index(target) && target.parent().is_some_and(|dir| changed.starts_with(dir)))
        || (target.extension().is_none() && changed.starts_with(target))
}

/// Does `spec`, written in `from`, spell the module at `changed` (for files
/// the working tree no longer has)?
fn spelled(from: &Path, lang: Lang, spec: &str, changed: &Path) -> bool {
    let dir = from.parent().unwrap_or(Path::new(""));
    let module = match lang {
        Lang::Python => {
            let dots = spec.chars().take_while(|c| *c == '.').count();
            let rest = spec[dots..].replace('.', "/");
            if dots == 0 {
                PathBuf::from(rest)
            } else {
                let mut base = dir.to_path_buf();
                for _ in 1..dots {
                    base.pop();
                }
                normalize(&base.join(rest))
            }
        }
        // A Go package is a directory; Rust paths are not spelled as files.
        Lang::Go if spec == "." => return changed.parent() == Some(dir),
        Lang::Go | Lang::Rust => return false,
        _ if spec.starts_with('.') => {
            let path = normalize(&dir.join(spec));
            match path.extension().and_then(|e| e.to_str()) {
                Some("js" | "jsx" | "mjs" | "cjs" | "ts" | "tsx" | "mts" | "cts") => path.with_extension(""),
                _ => path,
            }
        }
        _ => return false,
    };
    if module.as_os_str().is_empty() {
        return false;
    }
    let bare = changed.with_extension("");
    let relative = lang != Lang::Python || spec.starts_with('.');
    let same = |p: &Path| if relative { p == module } else { p.ends_with(&module) };
    same(&bare) || (is_index(changed) && changed.parent().is_some_and(same))
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
