//! The `mutation` gate: tests bent to match the code, found in git history.
//!
//! The range is the commits after the base (what `git log base..HEAD`
//! lists, each judged against its parent; a merge only for what differs from
//! every parent), then the uncommitted changes; with `--staged`, the staged
//! change alone; with `--all-files`, the newest `max-commits` of HEAD's
//! history.
//! Everything is read through git2, with no subprocess per commit. Commits
//! are taken in windows: the changed test files' old and new blobs of a
//! window are loaded once, each distinct blob is parsed once (in parallel,
//! through the parse cache the `mock` gate shares), the window's commits are
//! analysed in parallel ([`step`]: tests and assertions are paired
//! ([`pair`]) and the rules read the pairs), and what no later commit needs
//! is dropped.

pub mod ack;
pub mod lattice;
pub mod pair;
pub mod rules;
pub mod settings;
pub mod snapshots;
mod step;

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use anyhow::Result;
use rayon::prelude::*;

use super::project::{self, classify::Classifier, resolve::is_test_support};
use super::{Context, GateOutput};
use crate::cache::Cache;
use crate::changed::Scope;
use crate::git::{self, Commit, Detail, Side, Status, display_path, short};
use crate::lang::versions::Reader;
use crate::lang::{Lang, TestFile};
use crate::walk;
use ack::Ack;
use settings::Settings;

mod history;
mod kind;
use history::*;
use kind::kind;

/// What a changed file is to this gate.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Kind {
    Test(Lang),
    /// A snapshot file, with the test file it belongs to and that file's
    /// version in the same step (when it exists there).
    Snapshot {
        owner: PathBuf,
        owner_version: Option<String>,
    },
    /// Project code in a language the gate parses.
    Code,
    Other,
}

impl Kind {
    /// For a file whose content is facts about tests ([`Facts`]), how it is
    /// read: parsed as a test file in its language, or (`None`) as a snapshot.
    fn facts_lang(&self) -> Option<Option<Lang>> {
        match self {
            Kind::Test(lang) => Some(Some(*lang)),
            Kind::Snapshot { .. } => Some(None),
            Kind::Code | Kind::Other => None,
        }
    }
}

/// One file a step changed. Versions are keys into [`Versions`]:
/// `blob:<id>` for a git object, `file:<path>` for the working tree.
#[derive(Debug, Clone)]
struct FileChange {
    /// The path after the change (before it, for a deletion).
    path: PathBuf,
    /// The path before the change, when the file existed.
    old_path: Option<PathBuf>,
    old: Option<String>,
    new: Option<String>,
    kind: Kind,
    /// Where the old side was at the base, when it existed there (a fixed base only).
    at_base: Option<PathBuf>,
    /// A test file renamed out of sight (to a path no test runner collects,
    /// or that `exclude` leaves out): where it went, and which. It counts as
    /// deleted.
    moved_out: Option<(PathBuf, &'static str)>,
}

/// Where a step's new side comes from.
#[derive(Debug)]
enum Source {
    Commit(Commit),
    /// The index against HEAD.
    Staged,
    /// The working tree against HEAD.
    Uncommitted,
}

/// A commit, the staged change, or the uncommitted changes.
#[derive(Debug)]
struct Step {
    source: Source,
    /// How findings name it: `in 3f2a9c1 "subject"`.
    label: String,
    changes: Vec<FileChange>,
    acks: Vec<Ack>,
    /// A revert (`This reverts commit <id>.`): what the test and snapshot
    /// files it changed held before the reverted commit. Taking back what
    /// that commit added is not a finding.
    reverted: Option<Facts>,
}

/// What "existed at the base" is measured against.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Baseline {
    /// One commit (`None`: the empty tree, where nothing existed).
    Commit(Option<String>),
    /// Each step's own parent: everything in the old version existed.
    Parent,
}

/// What the base versions of the changed test and snapshot files held.
#[derive(Debug, Default)]
struct Facts {
    /// Test names (a test may have moved to another class or file since).
    tests: HashSet<String>,
    /// Assertion checks, each with its test's name ([`pair::check_key`]): a
    /// check as common as `expect(value).toBe(2)` existed at the base only
    /// in the test that had it.
    checks: HashSet<String>,
    /// How many times each test makes each check of [`Facts::checks`] as
    /// written (its assertions, not its cases).
    copies: HashMap<String, usize>,
    /// Snapshot entry names, for a snapshot file.
    snapshots: HashSet<String>,
}

/// The content and test model of the versions the current window and later
/// ones read.
#[derive(Default)]
struct Versions {
    bytes: HashMap<String, Vec<u8>>,
    models: HashMap<(String, Lang), TestFile>,
    /// Each file's reader, by the version it read last, while a later step
    /// reads the next version.
    readers: HashMap<(PathBuf, Lang), (String, Reader)>,
    /// Versions this partial clone does not have (`path (blob id)`).
    missing: Vec<String>,
    /// Versions that could not be read (over the size cap: with their
    /// size; a blob this clone lacks, binary, unreadable: none). They have
    /// no model: a file is not compared in a step where one of its
    /// versions is unread, so what could not be read never looks deleted.
    unread: HashMap<String, Option<u64>>,
    /// Versions whose parse was given up after the parse budget (also
    /// unread).
    cut: std::collections::BTreeSet<String>,
}

impl Versions {
    fn bytes(&self, key: &str) -> &[u8] {
        self.bytes.get(key).map_or(&[], Vec::as_slice)
    }

    fn model(&self, key: Option<&String>, lang: Lang) -> Option<&TestFile> {
        self.models.get(&(key?.clone(), lang))
    }

    /// Was the version `key` not read ([`Versions::unread`])?
    fn unread(&self, key: Option<&String>) -> bool {
        key.is_some_and(|key| self.unread.contains_key(key))
    }

    /// Read the bytes of `wanted` not read yet, then parse those with a
    /// language (each distinct version once, in parallel). What the reader
    /// of a file read of its items is kept for a later load when `carry`
    /// says one reads the file; its syntax tree is not: a tree takes many
    /// times the memory of its text, and holding one for every file a long
    /// range changes is what memory would grow with.
    fn load(
        &mut self,
        cx: &Context<'_>,
        wanted: &[Want<'_>],
        carry: &(dyn Fn(&Path) -> bool + Sync),
        cache: Option<&Cache>,
        notices: &mut Vec<String>,
    ) -> Result<()> {
        self.read(cx, wanted, notices)?;
        self.parse(wanted, carry, cache);
        Ok(())
    }

    /// Read the bytes of `wanted` not read yet; how many of them are to be
    /// parsed.
    fn read(&mut self, cx: &Context<'_>, wanted: &[Want<'_>], notices: &mut Vec<String>) -> Result<usize> {
        let mut to_parse = 0;
        for (key, lang, path) in wanted {
            if !self.bytes.contains_key(*key) {
                let bytes = match load(cx, key, path, notices, &mut self.missing)? {
                    Ok(bytes) => bytes,
                    Err(size) => {
                        self.unread.insert((*key).clone(), size);
                        Vec::new()
                    }
                };
                if lang.is_some() {
                    to_parse += bytes.len();
                }
                self.bytes.insert((*key).clone(), bytes);
            }
        }
        Ok(to_parse)
    }

    /// Parse the versions of `wanted` not parsed yet, as [`Versions::load`].
    fn parse(&mut self, wanted: &[Want<'_>], carry: &(dyn Fn(&Path) -> bool + Sync), cache: Option<&Cache>) {
        // The versions of each file in history order, so each is reparsed
        // from the one before (what the file's reader read of its items
        // carries over from the load before); long chains are cut so that
        // all cores work.
        let mut seen = HashSet::new();
        let mut chains: Vec<((&Path, Lang), Vec<&String>)> = Vec::new();
        let mut chain_of: HashMap<(&Path, Lang), usize> = HashMap::new();
        for (key, lang, path) in wanted {
            let Some(lang) = *lang else { continue };
            if self.models.contains_key(&((*key).clone(), lang))
                || self.unread.contains_key(*key)
                || !seen.insert((*key, lang))
            {
                continue;
            }
            let at = *chain_of.entry((*path, lang)).or_insert_with(|| {
                chains.push(((*path, lang), Vec::new()));
                chains.len() - 1
            });
            chains[at].1.push(*key);
        }
        let mut runs: Vec<Run<'_>> = Vec::new();
        for ((path, lang), keys) in &chains {
            let file = (path.to_path_buf(), *lang);
            let cut = keys.len().div_ceil(CHAIN);
            for (i, keys) in keys.chunks(CHAIN).enumerate() {
                let carried = if i == 0 { self.readers.remove(&file) } else { None };
                runs.push(Run {
                    file: file.clone(),
                    keys,
                    reader: Some(carried.map(|(_, reader)| reader).unwrap_or_default()),
                    // Of a cut chain, the last run reads the latest version.
                    carried: i + 1 == cut && carry(path),
                    models: Vec::new(),
                });
            }
        }
        let bytes = &self.bytes;
        runs.par_iter_mut().for_each(|run| {
            let lang = run.file.1;
            let Some(reader) = run.reader.as_mut() else { return };
            for key in run.keys {
                if let Some(model) = bytes
                    .get(*key)
                    .and_then(|b| project::read_version(lang, b, cache, Some(reader)))
                {
                    run.models.push((((*key).clone(), lang), model));
                }
            }
            // Dropped as soon as it is done with: only the runs in flight
            // hold a tree.
            if run.carried {
                reader.drop_tree();
            } else {
                run.reader = None;
            }
        });
        for run in runs {
            for ((key, lang), model) in run.models {
                if model.parse_cut {
                    self.unread.insert(key.clone(), None);
                    self.cut.insert(key);
                } else {
                    self.models.insert((key, lang), model);
                }
            }
            if let Some(reader) = run.reader {
                let last = run.keys.last().expect("runs are not empty");
                self.readers.insert(run.file, ((*last).clone(), reader));
            }
        }
        self.readers.retain(|(path, _), _| carry(path));
    }

    /// Keep only the versions `keep` says are still needed.
    fn retain(&mut self, keep: impl Fn(&String) -> bool) {
        self.bytes.retain(|key, _| keep(key));
        self.models.retain(|(key, _), _| keep(key));
    }
}

/// Versions of one file read in a row, each from the one before.
struct Run<'a> {
    file: (PathBuf, Lang),
    keys: &'a [&'a String],
    /// While it reads, and after when the next load carries it.
    reader: Option<Reader>,
    /// What the reader read of the items of the latest version it read
    /// is carried to a later load.
    carried: bool,
    models: Vec<((String, Lang), TestFile)>,
}

/// How many versions of one file are read in a row, each from the one
/// before; a longer run of them is split so that all cores work.
const CHAIN: usize = 16;

/// At most how many steps are analysed together.
const WINDOW: usize = 128;

/// At most how many bytes of test file versions a window parses, beyond its
/// first step: memory is bounded by what one window holds (the versions'
/// text, models and what was read of their items), so it follows the largest
/// file and not the length of the range.
const WINDOW_BYTES: usize = 2 << 20;

/// A version to read: its key, the language it is parsed as (none: read as
/// bytes only) and the file it is a version of.
type Want<'a> = (&'a String, Option<Lang>, &'a Path);

/// The versions a step reads: of its test and snapshot files, and when it
/// has those, of its code files (as bytes: a change to comments alone is
/// not a change of the code) and its test-support files in a language the
/// gate parses (where checks go when a project moves them into a helper).
fn step_versions(step: &Step) -> impl Iterator<Item = Want<'_>> {
    let tests = step
        .changes
        .iter()
        .any(|c| matches!(c.kind, Kind::Test(_) | Kind::Snapshot { .. }));
    step.changes.iter().flat_map(move |change| {
        let (lang, owner) = match &change.kind {
            Kind::Test(lang) => (Some(*lang), None),
            Kind::Snapshot { owner, owner_version } => (
                None,
                owner_version
                    .as_ref()
                    .and_then(|v| Some((v, Some(Lang::from_path(owner)?), owner.as_path()))),
            ),
            Kind::Code if tests => (None, None),
            // Parsed for the helpers it defines.
            Kind::Other if tests && is_test_support(&change.path) && Lang::from_path(&change.path).is_some() => {
                (Lang::from_path(&change.path), None)
            }
            Kind::Code | Kind::Other => return Vec::new(),
        };
        let old = change.old_path.as_deref().unwrap_or(&change.path);
        change
            .old
            .iter()
            .map(|key| (key, lang, old))
            .chain(change.new.iter().map(|key| (key, lang, change.path.as_path())))
            .chain(owner)
            .collect()
    })
}

/// What the base versions of the test and snapshot files the range changed
/// held (fixed base only).
fn base_facts(
    cx: &Context<'_>,
    steps: &[Step],
    baseline: &Baseline,
    versions: &mut Versions,
    cache: Option<&Cache>,
    notices: &mut Vec<String>,
) -> Result<Facts> {
    let mut facts = Facts::default();
    let Baseline::Commit(Some(base)) = baseline else {
        return Ok(facts);
    };
    let mut seen = HashSet::new();
    let mut files: Vec<(PathBuf, String, Option<Lang>)> = Vec::new();
    for change in steps.iter().flat_map(|s| &s.changes) {
        let Some(at_base) = &change.at_base else { continue };
        let Some(lang) = change.kind.facts_lang() else { continue };
        if seen.insert(at_base.clone())
            && let Some(id) = cx.repo.blob_id_at(base, at_base)?
        {
            files.push((at_base.clone(), format!("blob:{id}"), lang));
        }
    }
    facts.read(cx, &files, versions, cache, notices)?;
    Ok(facts)
}

pub fn run(cx: &Context<'_>, settings: &Settings) -> Result<GateOutput> {
    let mut out = GateOutput::default();
    let (cache, off) = project::model_cache(cx);
    out.notices.extend(off);
    let (classifier, resolver) = project::project(cx, cache.as_ref())?;
    let mut unseen = None;
    let (mut steps, baseline) = range(cx, settings, &mut out.notices, &mut unseen)?;
    // A trailer the change added acknowledges only in a trusted hand
    // (`docs/trust.md`); every one is listed with the run's waivers.
    for step in &mut steps {
        let Source::Commit(commit) = &step.source else { continue };
        let mut kept = Vec::new();
        for mut ack in std::mem::take(&mut step.acks) {
            let waiver = cx.judge.trailer(cx.repo, commit, &ack.rule, &ack.reason);
            if waiver.status.applies() {
                ack.trusted = waiver.status != crate::trust::waiver::Status::Warned;
                kept.push(ack);
            }
            out.waivers.push(waiver);
        }
        step.acks = kept;
    }
    if let Some(why) = unseen {
        inconclusive(&mut out, why, settings);
    }
    // The test files the runner collects now, read only when a test file
    // went out of its sight: one they name still runs it (a shared suite).
    let collected: std::cell::OnceCell<Vec<Vec<u8>>> = std::cell::OnceCell::new();
    let run_by_a_test = |to: &Path| {
        let Some(stem) = shared_suite_name(to) else {
            return false;
        };
        collected
            .get_or_init(|| {
                let tracked = cx.repo.tracked_files().unwrap_or_default();
                tracked
                    .iter()
                    .filter(|p| p.as_path() != to && classifier.collected_now(p).is_some())
                    .filter_map(|p| crate::walk::read_file(cx.repo.root(), p).ok())
                    .collect()
            })
            .iter()
            .any(|text| memchr::memmem::find(text, stem.as_bytes()).is_some())
    };
    // A file a tracked test file links to is that test, as its runner
    // collects it (issue 63): its versions are compared as a test's.
    let linked: HashMap<PathBuf, Lang> = cx
        .repo
        .index()?
        .links()
        .into_iter()
        .filter_map(|link| {
            let lang = classifier.test_file(&link)?;
            let target = git::relative_to(cx.repo.root(), &cx.repo.root().join(&link)).filter(|t| *t != link)?;
            Some((target, lang))
        })
        .collect();
    for step in &mut steps {
        for change in &mut step.changes {
            change.kind = kind(&classifier, change);
            if !matches!(change.kind, Kind::Test(_))
                && let Some(lang) = linked.get(&change.path)
            {
                change.kind = Kind::Test(*lang);
            }
            hidden_test(&classifier, change, &run_by_a_test);
        }
    }
    link_snapshot_owners(cx, &mut steps)?;
    trace_to_base(&mut steps, &baseline);
    read_reverted(cx, &mut steps, cache.as_ref(), &mut out.notices)?;

    // Steps are analysed in windows: the versions a window reads are loaded
    // and parsed (each distinct one once, in parallel), its steps analysed in
    // parallel, and what no later step needs is dropped, so memory stays
    // bounded however long the range.
    let mut versions = Versions::default();
    let mut tracks = step::tracks(&steps);
    // With merges in the range, the step that changes a file last need not
    // hold the newest commit's version of it (a branch merged later forked
    // before another step's change; more-itertools 5b43c0d): what the
    // range's tests are at its end is HEAD's.
    if steps
        .iter()
        .any(|s| matches!(&s.source, Source::Commit(c) if !c.merged.is_empty()))
        && let Some(head) = cx.repo.head()?
    {
        for t in tracks
            .iter_mut()
            .filter(|t| matches!(steps[t.end].source, Source::Commit(_)))
        {
            t.last = cx.repo.blob_id_at(&head, &t.path)?.map(|id| format!("blob:{id}"));
        }
    }
    let mut last_use: HashMap<&String, usize> = HashMap::new();
    // The steps that parse a version of each file, in order.
    let mut reads: HashMap<&Path, Vec<usize>> = HashMap::new();
    for (i, step) in steps.iter().enumerate() {
        for (key, lang, path) in step_versions(step) {
            last_use.insert(key, i);
            if lang.is_some() {
                let at = reads.entry(path).or_default();
                if at.last() != Some(&i) {
                    at.push(i);
                }
            }
        }
    }
    // What was read of a file's items is carried to the windows after step
    // `from` when one of the next [`WINDOW`] steps reads the file.
    let read_soon = |path: &Path, from: usize| {
        reads.get(path).is_some_and(|at| {
            let next = at.partition_point(|&i| i < from);
            at.get(next).is_some_and(|&i| i < from + WINDOW)
        })
    };
    let base = base_facts(cx, &steps, &baseline, &mut versions, cache.as_ref(), &mut out.notices)?;
    let reach = step::Reach::new(cx.repo.root(), &resolver);
    // The last version of each changed test file, a batch at a time, before
    // the steps: what the range's tests are at its end (a test a step
    // deletes that is there at the end moved, or came back). The models the
    // first window reads are kept; the others are read again when reached.
    let mut finale: Vec<step::Finale> = Vec::new();
    let mut named: Vec<step::NamedFile> = Vec::new();
    let features = project::features::CargoFeatures::new(cx.repo.root());
    // Which modules a Python distribution ships, read from a build
    // configuration the range left as it was: one it changed could leave
    // out what the change wants excused.
    let changed: HashSet<&Path> = steps
        .iter()
        .flat_map(|s| &s.changes)
        .map(|c| c.path.as_path())
        .collect();
    let shipping = project::py_dist::Shipping::new(cx.repo.root(), changed);
    let mut start = 0;
    while start < tracks.len() {
        let (mut end, mut size) = (start, 0);
        let mut wanted: Vec<Want<'_>> = Vec::new();
        while end < tracks.len() && (end == start || size < WINDOW_BYTES) {
            let t = &tracks[end];
            if let Some(key) = &t.last {
                let last = (key, Some(t.lang), t.path.as_path());
                size += versions.read(cx, &[last], &mut out.notices)?;
                wanted.push(last);
            }
            end += 1;
        }
        versions.parse(&wanted, &|path| read_soon(path, 0), cache.as_ref());
        for t in &tracks[start..end] {
            if let Some(file) = versions.model(t.last.as_ref(), t.lang) {
                finale.extend(file.tests.iter().filter(|t| t.skip.is_none()).map(step::Finale::of));
                // A file the range added: a suite split into new files.
                if t.first.is_none() {
                    named.extend(step::NamedFile::of(
                        &t.path,
                        file,
                        t.last.as_ref().map(|k| versions.bytes(k)),
                    ));
                }
            }
        }
        versions.retain(|key| last_use.get(key).is_some_and(|&i| i < WINDOW));
        start = end;
    }

    let mut results: Vec<step::Outcome> = Vec::with_capacity(steps.len());
    let mut density: Vec<crate::finding::Finding> = Vec::new();
    let mut ending: Vec<&step::Track> = tracks.iter().collect();
    ending.sort_by_key(|t| t.end);
    let mut ended = 0;
    let mut start = 0;
    while start < steps.len() {
        // A window takes steps while what it parses stays in budget.
        let (mut end, mut size) = (start, 0);
        let mut wanted: Vec<Want<'_>> = Vec::new();
        while end < steps.len() && end - start < WINDOW && (end == start || size < WINDOW_BYTES) {
            let more: Vec<Want<'_>> = step_versions(&steps[end]).collect();
            size += versions.read(cx, &more, &mut out.notices)?;
            wanted.extend(more);
            end += 1;
        }
        // The first version of each test file whose last change is in this
        // window, to measure what the range did to it. It is read again
        // here rather than kept from its first change: holding the first
        // version of every file a long range changes is what memory would
        // grow with.
        let done = ended + ending[ended..].partition_point(|t| t.end < end);
        for t in &ending[ended..done] {
            if let Some(first) = &t.first {
                let want = (first, Some(t.lang), t.path.as_path());
                versions.read(cx, &[want], &mut out.notices)?;
                wanted.push(want);
            }
        }
        let window = &steps[start..end];
        versions.parse(&wanted, &|path| read_soon(path, end), cache.as_ref());
        let analysis = step::Analysis {
            versions: &versions,
            baseline: &baseline,
            base: &base,
            reach: &reach,
            settings,
            finale: &finale,
            named: &named,
            features: &features,
            shipping: &shipping,
        };
        results.extend(window.par_iter().map(|s| analysis.step(s)).collect::<Vec<_>>());
        // The assertion density of each file whose last change is in this
        // window, against its first version.
        density.extend(ending[ended..done].iter().filter_map(|t| analysis.density(t)));
        ended = done;
        versions.retain(|key| last_use.get(key).is_some_and(|&i| i >= end));
        start = end;
    }
    let mut acknowledged: Vec<String> = Vec::new();
    let mut deleted_with_subject = 0;
    let mut checked_again = 0;
    let mut compared = 0;
    let mut unreadable: Vec<String> = Vec::new();
    // A merge answers for a file that differs from every parent, read
    // against its first: a change a commit it brings made there is
    // reported once, where the merge has it, the newer version of the file
    // (mapstructure 07998cf: a side branch's changed expectation, twice).
    let mut reported: HashMap<(String, Option<String>, String), usize> = HashMap::new();
    for (step, result) in steps.iter().zip(results) {
        unreadable.extend(result.unreadable);
        let merge = matches!(&step.source, Source::Commit(c) if !c.merged.is_empty());
        for finding in result.findings {
            let key = (finding.rule.clone(), finding.path.clone(), finding.message.clone());
            match reported.get(&key) {
                Some(&at) if merge => out.findings[at] = finding,
                _ => {
                    reported.insert(key, out.findings.len());
                    out.findings.push(finding);
                }
            }
        }
        deleted_with_subject += result.deleted_with_subject;
        checked_again += result.checked_again;
        compared += result.compared;
        for (ack, count) in result.acknowledged {
            acknowledged.push(format!(
                "{} acknowledges {} ({count} finding(s)): {}",
                step.label, ack.rule, ack.reason
            ));
        }
    }
    out.findings.extend(density);
    // A test file version the change made that is over the size cap was
    // not compared: never a silent pass (issue 54).
    if !cx.scope.is_whole() {
        let mut capped: std::collections::BTreeMap<&Path, u64> = std::collections::BTreeMap::new();
        for change in steps.iter().flat_map(|s| &s.changes) {
            if let (Kind::Test(_), Some(key)) = (&change.kind, &change.new)
                && let Some(Some(size)) = versions.unread.get(key)
            {
                let at = capped.entry(change.path.as_path()).or_default();
                *at = (*at).max(*size);
            }
        }
        for (path, size) in capped {
            out.findings.push(walk::too_large(
                path,
                size,
                "its tests were not compared with their earlier version",
                cx.judge.enforced(),
            ));
        }
        let slow: std::collections::BTreeSet<&Path> = steps
            .iter()
            .flat_map(|s| &s.changes)
            .filter(|c| matches!(c.kind, Kind::Test(_)) && c.new.as_ref().is_some_and(|k| versions.cut.contains(k)))
            .map(|c| c.path.as_path())
            .collect();
        for path in slow {
            out.findings.push(crate::gates::project::too_slow(
                path,
                "its tests were not compared with their earlier version",
                cx.judge.enforced(),
            ));
        }
    }
    if let Some(cache) = &cache
        && let Some(why) = cache.failure()
    {
        out.notices
            .push(format!("parse cache not written ({why}); pass --no-cache to skip it"));
    }

    let test_files: HashSet<&Path> = steps
        .iter()
        .flat_map(|s| &s.changes)
        .filter(|c| matches!(c.kind, Kind::Test(_) | Kind::Snapshot { .. }))
        .map(|c| c.path.as_path())
        .collect();
    out.files = test_files.len();
    out.notices.push(format!(
        "{} test and snapshot file(s) changed in the range, {compared} test(s) compared with their earlier version",
        test_files.len()
    ));
    if deleted_with_subject > 0 {
        out.notices.push(format!(
            "{deleted_with_subject} test(s) deleted together with the code they imported, or already skipped (not flagged)"
        ));
    }
    if checked_again > 0 {
        out.notices.push(format!(
            "{checked_again} test(s) deleted whose every check a test added or edited in the same step makes again, or that are there at the end of the range (split, parametrized, moved; not flagged)"
        ));
    }
    if !unreadable.is_empty() {
        let more = if unreadable.len() > 5 { ", ..." } else { "" };
        out.notices.push(format!(
            "{} version(s) of test files with a syntax error: their tests there are not compared (what tree-sitter recovered may be wrong): {}{more}",
            unreadable.len(),
            unreadable.iter().take(5).cloned().collect::<Vec<_>>().join("; ")
        ));
    }
    out.notices.extend(acknowledged);
    if !versions.missing.is_empty() && out.inconclusive.is_none() {
        let why = format!(
            "{} version(s) of the test and code files the range changed are not in this partial clone, so they were not compared (the first: {}): {}",
            versions.missing.len(),
            versions.missing[0],
            git::PARTIAL_CLONE_FIX
        );
        inconclusive(&mut out, why, settings);
    }
    Ok(out)
}

/// The gate could not compare all it had to: blocks as
/// `mutation/inconclusive`, or passes as inconclusive, per the setting.
fn inconclusive(out: &mut GateOutput, why: String, settings: &Settings) {
    if settings.block_inconclusive {
        out.findings
            .push(crate::finding::Finding::new(&rules::INCONCLUSIVE, why.clone()));
    } else {
        out.notices
            .push("gates.mutation.inconclusive: ignore: what could not be compared does not block".into());
    }
    out.inconclusive = Some(why);
}

impl Facts {
    /// Read `files` (path, version key, language: none for a snapshot file)
    /// and add what they hold.
    fn read(
        &mut self,
        cx: &Context<'_>,
        files: &[(PathBuf, String, Option<Lang>)],
        versions: &mut Versions,
        cache: Option<&Cache>,
        notices: &mut Vec<String>,
    ) -> Result<()> {
        let wanted: Vec<Want<'_>> = files.iter().map(|(p, k, l)| (k, *l, p.as_path())).collect();
        versions.load(cx, &wanted, &|_| false, cache, notices)?;
        for (path, key, lang) in files {
            match lang {
                Some(lang) => {
                    if let Some(model) = versions.model(Some(key), *lang) {
                        self.add(model);
                    }
                }
                None => self.snapshots.extend(
                    snapshots::entries(path, versions.bytes(key))
                        .into_iter()
                        .map(|e| e.name),
                ),
            }
        }
        Ok(())
    }

    /// Add the test names and assertion checks of a model.
    fn add(&mut self, file: &TestFile) {
        for t in &file.tests {
            self.tests.insert(t.name.clone());
            for key in t
                .assertions
                .iter()
                .map(|a| format!("{}\u{1f}{}", t.name, pair::check_key(a)))
            {
                *self.copies.entry(key.clone()).or_default() += 1;
                self.checks.insert(key);
            }
            self.checks.extend(
                pair::case_checks(t)
                    .chain(pair::case_row_checks(t))
                    .map(|key| format!("{}\u{1f}{key}", t.name)),
            );
        }
    }
}

/// A test file renamed to where its tests no longer run (a path the test
/// runner does not collect, or one `exclude` leaves out) is the test file
/// deleted: its tests are gone from the suite, whatever its text says.
/// Where it went is judged by the runner as the change sets it up (the
/// base's patterns, which may still match there, do not run it), unless a
/// test file the runner collects names it (`run_by_a_test`): then it is a
/// shared suite that test runs.
fn hidden_test(classifier: &Classifier, change: &mut FileChange, run_by_a_test: &dyn Fn(&Path) -> bool) {
    let Some(old) = change.old_path.clone().filter(|old| *old != change.path) else {
        return;
    };
    let Some(lang) = classifier.test_file(&old) else { return };
    if change.moved_out.is_none()
        && (classifier.collected_now(&change.path).is_some()
            || (classifier.test_file(&change.path).is_some() && run_by_a_test(&change.path)))
    {
        return;
    }
    change
        .moved_out
        .get_or_insert_with(|| (change.path.clone(), "where the test runner does not collect it"));
    change.path = old;
    change.new = None;
    change.kind = Kind::Test(lang);
}

/// How another file names `path` when it imports it: its name without the
/// extension (`common.case.test` for `common.case.test.tsx`), when that is
/// distinctive enough to search for (not `index`, `mod`, `__init__`).
fn shared_suite_name(path: &Path) -> Option<String> {
    let stem = path.file_stem()?.to_str()?;
    (stem.len() >= 6 && !matches!(stem, "index" | "mod" | "__init__" | "tests")).then(|| stem.to_string())
}

/// The bytes of one version of `path`, or (`Err`) why it cannot be
/// compared: over the size cap (its size), binary or unreadable (said once
/// per file in `notices`); a blob this partial clone lacks also goes to
/// `missing`.
fn load(
    cx: &Context<'_>,
    key: &str,
    path: &Path,
    notices: &mut Vec<String>,
    missing: &mut Vec<String>,
) -> Result<Result<Vec<u8>, Option<u64>>> {
    let bytes = match key.split_once(':') {
        Some(("blob", id)) => match cx.repo.blob_capped(id)? {
            git::BlobRead::Content(bytes) => bytes,
            git::BlobRead::TooLarge(size) => {
                too_large(notices, path, size);
                return Ok(Err(Some(size)));
            }
            git::BlobRead::Missing => {
                // A version is read again when a later window needs it.
                let entry = format!("{} (blob {})", display_path(path), short(id));
                if !missing.contains(&entry) {
                    missing.push(entry);
                }
                return Ok(Err(None));
            }
        },
        // Size-capped, and never through a symlink out of the repository.
        Some(("file", _)) => match walk::read_file_as(cx.repo.root(), path) {
            Ok(bytes) => bytes,
            Err(walk::Unread::TooLarge(size)) => {
                too_large(notices, path, size);
                return Ok(Err(Some(size)));
            }
            Err(why) => {
                notices.push(format!(
                    "{}: {why}; its uncommitted version is not compared",
                    display_path(path)
                ));
                return Ok(Err(None));
            }
        },
        _ => unreachable!("version keys are built in this module"),
    };
    if walk::is_binary(&bytes) {
        let note = format!(
            "{} is binary in a version of the range: that version is not compared",
            display_path(path)
        );
        if !notices.contains(&note) {
            notices.push(note);
        }
        return Ok(Err(None));
    }
    Ok(Ok(bytes))
}

/// Say (once per file) that a version over the size cap is not compared.
fn too_large(notices: &mut Vec<String>, path: &Path, size: u64) {
    let prefix = format!("{} is over the size cap", display_path(path));
    if !notices.iter().any(|n| n.starts_with(&prefix)) {
        notices.push(format!(
            "{prefix} in a version of the range ({size} bytes, max-file-bytes {}): that version is not compared",
            walk::max_file_bytes()
        ));
    }
}
