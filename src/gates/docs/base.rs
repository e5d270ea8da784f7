//! What the base revision had, for a change run: which public symbols a
//! changed file declared there and whether they were documented, what a
//! JavaScript package's entry points exposed, whether the README was
//! missing. A symbol the base did not have public is one the change adds
//! (it blocks in a published package); a finding the base already had is
//! handed to the pipeline in an [`AtBase`], which reports it at most as a
//! warning (`pre-existing: block` keeps its level).
//!
//! Only what a finding needs is read, through git: the base version of a
//! file with a gap, the base's package API when a symbol is not public in
//! its file's base version, the root's READMEs when one is missing.

use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};

use anyhow::Result;

use super::files::{AtCommit, Files};
use super::{exports, js_api, rules};
use crate::changed::ChangedFile;
use crate::finding::{Finding, Severity};
use crate::gates::at_base::AtBase;
use crate::gates::project::py_dist;
use crate::git::{BlobRead, Repo, Status, display_path};
use crate::lang::Lang;
use crate::rule::Level;
use crate::walk::SourceFile;

/// What a changed file declared at the base.
pub(super) enum Before {
    /// The file is new (or there is no base).
    Nothing,
    /// The public symbols of the base's version, by [`symbol_key`], and
    /// whether each was documented.
    Symbols(HashMap<String, bool>),
    /// The base's version could not be read (over the size cap, not fetched
    /// by a partial clone, not parsed): every symbol counts as there and
    /// undocumented.
    Unknown,
}

impl Before {
    pub(super) fn read(repo: &Repo, base: Option<&str>, file: &ChangedFile, language: Lang) -> Result<Before> {
        let Some(blob) = base
            .map(|base| crate::changed::base_blob(repo, base, file))
            .transpose()?
            .flatten()
        else {
            return Ok(Before::Nothing);
        };
        Ok(match blob {
            BlobRead::Content(bytes) => match exports::exports(language, &bytes) {
                Some(symbols) => {
                    let mut keys = HashMap::new();
                    for symbol in &symbols {
                        for key in symbol_keys(symbol) {
                            *keys.entry(key).or_insert(false) |= symbol.documented;
                        }
                    }
                    // What the file exported the CommonJS way it had too (a
                    // file moved to ES modules adds none of them).
                    if matches!(language, Lang::JavaScript | Lang::TypeScript | Lang::Tsx) {
                        for (name, documented) in exports::commonjs_names(language, &bytes).unwrap_or_default() {
                            *keys.entry(format!("\u{1f}{name}")).or_insert(false) |= documented;
                        }
                    }
                    Before::Symbols(keys)
                }
                None => Before::Unknown,
            },
            _ => Before::Unknown,
        })
    }

    /// Was `symbol` public in the file at the base: `Some(documented)`?
    fn had(&self, symbol: &exports::Export) -> Option<bool> {
        symbol_keys(symbol).find_map(|key| self.had_key(&key))
    }

    fn had_key(&self, key: &str) -> Option<bool> {
        match self {
            Before::Nothing => None,
            Before::Symbols(keys) => keys.get(key).copied(),
            Before::Unknown => Some(false),
        }
    }
}

/// A symbol as one string: its class (a method's) and its name. Its kind
/// is left out: a `const` that became a `function`, an interface that
/// became a type alias, is the symbol the base had.
fn symbol_key(symbol: &exports::Export) -> String {
    format!("{}\u{1f}{}", symbol.parent.as_deref().unwrap_or(""), symbol.name)
}

/// The keys a symbol is known by at the base: its [`symbol_key`], and a
/// default export's `default` too, which its importers call it however it
/// is named (tiny-invariant's `export default (..) => ..` named
/// `invariant`).
fn symbol_keys(symbol: &exports::Export) -> impl Iterator<Item = String> {
    let default = symbol.default.then(|| "\u{1f}default".to_string());
    std::iter::once(symbol_key(symbol)).chain(default)
}

/// A language as the docs gate groups it: JavaScript, TypeScript and TSX
/// are one family (a module may move between them).
fn family(language: Lang) -> Lang {
    match language {
        Lang::JavaScript | Lang::TypeScript | Lang::Tsx => Lang::JavaScript,
        other => other,
    }
}

/// The public symbols a change took out of its files (deleted, or no
/// longer declared in the file's new version), by family and
/// [`symbol_key`], and whether each was documented, with the file it
/// left: a symbol that appears in another file moved there, and the base
/// had it. Worked out the first time a new symbol asks, over at most
/// [`MOVED_FILES`] changed files, in path order.
pub(super) struct Moved<'a> {
    files: &'a [ChangedFile],
    now: HashMap<&'a Path, &'a [u8]>,
    keys: Option<HashMap<(Lang, String), (bool, PathBuf)>>,
}

/// The most changed files read for symbols a change moved.
const MOVED_FILES: usize = 500;

impl<'a> Moved<'a> {
    pub(super) fn new(files: &'a [ChangedFile], now: &'a [SourceFile]) -> Moved<'a> {
        Moved {
            files,
            now: now.iter().map(|s| (s.path.as_path(), s.bytes.as_slice())).collect(),
            keys: None,
        }
    }

    /// Where `symbol`, new in `file`, was public at the base in another
    /// file the change took it out of: that file, and whether it was
    /// documented there.
    fn from(
        &mut self,
        repo: &Repo,
        base: &str,
        file: &Path,
        language: Lang,
        symbol: &exports::Export,
    ) -> Option<(bool, &Path)> {
        let keys = self.keys.get_or_insert_with(|| {
            let mut keys = HashMap::new();
            for changed in self.files.iter().take(MOVED_FILES) {
                let Some(lang) = exports::language_of(&changed.path) else {
                    continue;
                };
                let Ok(Some(BlobRead::Content(bytes))) = crate::changed::base_blob(repo, base, changed) else {
                    continue;
                };
                let Some(before) = exports::exports(lang, &bytes) else {
                    continue;
                };
                let kept: BTreeSet<String> = match changed.status {
                    crate::git::Status::Deleted => BTreeSet::new(),
                    _ => match self
                        .now
                        .get(changed.path.as_path())
                        .map(|now| exports::exports(lang, now))
                    {
                        Some(Some(now)) => now.iter().map(symbol_key).collect(),
                        // Not read or not parsed now: nothing counts as taken out.
                        _ => continue,
                    },
                };
                for symbol in before.iter().filter(|s| !kept.contains(&symbol_key(s))) {
                    let entry = keys
                        .entry((family(lang), symbol_key(symbol)))
                        .or_insert((false, changed.path.clone()));
                    entry.0 |= symbol.documented;
                }
            }
            keys
        });
        keys.get(&(family(language), symbol_key(symbol)))
            .filter(|(_, from)| from != file)
            .map(|(documented, from)| (*documented, from.as_path()))
    }
}

/// What a published package exposes, where it can be told.
pub(super) enum Surface<'a> {
    /// Every public symbol of the package.
    Whole,
    /// What a JavaScript package's entry points reach.
    JavaScript(&'a js_api::Api),
    /// The modules a Python distribution ships.
    Python(&'a py_dist::Dist),
}

impl Surface<'_> {
    /// Why `name` in `path` is not part of the package's API (a note), if it is not.
    pub(super) fn hides(&self, path: &Path, name: &str) -> Option<String> {
        match self {
            Surface::Whole => None,
            Surface::JavaScript(api) => match api.typed_by(path) {
                Some(declarations) => Some(format!(
                    "a warning: the package publishes this module through {}, beside it, where its docs are read",
                    display_path(declarations)
                )),
                None => (!api.exposes(path, name)).then(|| {
                    "a warning: no entry point of the package (package.json `exports`, `main`, `types`) exposes it"
                        .to_string()
                }),
            },
            Surface::Python(dist) => (!dist.ships(path)).then(|| {
                format!(
                    "a warning: no package the distribution builds holds this module ({})",
                    dist.source
                )
            }),
        }
    }
}

/// A change's judge of `docs/undocumented-export`, holding what it read of
/// the base, and the base's findings it hands the pipeline.
pub(super) struct Held<'r> {
    repo: &'r Repo,
    commit: Option<String>,
    /// The base commit's tree, listed when a package's API there is first
    /// asked for (`None` inside: it could not be read).
    tree: Option<Option<AtCommit<'r>>>,
    /// A JavaScript package's API at the base, by package folder.
    apis: HashMap<PathBuf, Option<js_api::Api>>,
    declared: js_api::Declared,
    base: AtBase,
    /// How much of its API each directory documented at the base
    /// ([`Held::documented_share`]).
    shares: HashMap<PathBuf, Option<Share>>,
    moved: Moved<'r>,
}

/// A directory with at least this many public symbols at the base, of
/// which fewer than half were documented, documents little of its API: a
/// new undocumented symbol there is a warning ([`Held::judge`]).
const LITTLE_FROM: usize = 8;
/// A directory with at least this many public symbols of one kind at the
/// base (types, say), fewer than half of them documented, does not
/// document that kind: a new undocumented one is a warning too (fresh
/// replay, ufo: none of its seven TypeScript types has a doc comment,
/// every function does).
const LITTLE_KIND_FROM: usize = 4;
/// A directory with too few public symbols at the base to measure a share
/// ([`LITTLE_FROM`]) but at least this many, none of them documented,
/// keeps no convention either (destr's function and its options type): one
/// alone may be a project's first line.
const NONE_FROM: usize = 2;
/// The most files of one directory read to measure it.
const SHARE_FILES: usize = 200;

/// How many of a directory's public symbols at the base had a doc comment,
/// `(documented, all)`, in all and by [`kind_of`].
#[derive(Default)]
struct Share {
    all: (usize, usize),
    by_kind: HashMap<&'static str, (usize, usize)>,
}

/// A directory's share, `(documented, all)` in all and of one kind, and
/// the directory measured.
struct Measured {
    all: (usize, usize),
    of_kind: (usize, usize),
    dir: PathBuf,
}

/// The kind a symbol's convention is measured by: a declaration of a type
/// alone (a TypeScript `type` or `interface`, a Rust or Go type) is one,
/// whatever its keyword; anything else by its own kind.
fn kind_of(kind: &'static str) -> &'static str {
    match kind {
        "type" | "interface" | "struct" | "enum" | "union" | "trait" => "type",
        other => other,
    }
}

impl<'r> Held<'r> {
    pub(super) fn new(repo: &'r Repo, commit: Option<&str>, ceiling: Option<Severity>, moved: Moved<'r>) -> Held<'r> {
        Held {
            repo,
            moved,
            commit: commit.map(str::to_string),
            tree: None,
            apis: HashMap::new(),
            declared: js_api::Declared::default(),
            shares: HashMap::new(),
            base: AtBase {
                commit: commit.map(str::to_string),
                ceiling,
                ..AtBase::default()
            },
        }
    }

    /// `docs/undocumented-export` for a change. In a published package's
    /// API, a symbol the base did not have public (in this file, or under
    /// the same name among what the package's entry points exposed) is
    /// one the change adds, and blocks; one the base had, undocumented, is
    /// the base's finding too (a warning, unless `pre-existing: block`);
    /// one the base had documented, that the change touched, is a warning.
    pub(super) fn judge(
        &mut self,
        file: &ChangedFile,
        language: Lang,
        gaps: Vec<exports::Export>,
        before: &Before,
        published: Option<(String, PathBuf)>,
        surface: &Surface<'_>,
    ) -> Vec<Finding> {
        let mut findings = Vec::new();
        for symbol in gaps {
            let mut finding = Finding::new(&rules::UNDOCUMENTED_EXPORT, symbol.undocumented())
                .at(display_path(&file.path), symbol.line, symbol.column)
                .note(symbol.fix(language));
            let hidden = published.as_ref().and_then(|_| surface.hides(&file.path, &symbol.name));
            let own = match hidden {
                Some(_) => before.had(&symbol),
                None => self.had(file, &symbol, before, surface, published.as_ref().map(|(_, dir)| dir)),
            };
            let inherited = own.is_none().then(|| self.inherited(file, &symbol, before)).flatten();
            let mut was = own.or(inherited);
            // A symbol moved here from a file the change took it out of.
            let mut moved = None;
            if was.is_none()
                && let Some(commit) = &self.commit
                && let Some((documented, from)) = self.moved.from(self.repo, commit, &file.path, language, &symbol)
            {
                was = Some(documented);
                moved = Some(display_path(from));
            }
            match (&published, hidden) {
                (Some(_), Some(hidden)) => finding.notes.push(hidden),
                (Some((why, _)), None) => match was {
                    None => match self.documents_little(file, language, symbol.kind) {
                        Some(note) => finding.notes.push(note),
                        None => {
                            finding.proposed = Some(Level::Deny);
                            finding.notes.push(why.clone());
                        }
                    },
                    Some(false) => {
                        finding.proposed = Some(Level::Deny);
                        finding.notes.push(match &moved {
                            None if inherited.is_some() => {
                                "it was public before this change, inherited from a base class without a doc comment; the change only overrode it".to_string()
                            }
                            Some(from) => format!(
                                "it was public and undocumented before this change, in {from}, which the change moved it out of"
                            ),
                            None => "it was public and undocumented before this change, which only touched it".to_string(),
                        });
                    }
                    Some(true) => finding.notes.push(
                        "a warning: it was public before this change, which touched it and left it without the doc comment it had"
                            .to_string(),
                    ),
                },
                (None, _) => {}
            }
            if was == Some(false) {
                // The base had this finding: the pipeline holds it to a warning.
                self.base.findings.push(finding.clone());
            }
            findings.push(finding);
        }
        findings
    }

    /// Did the base have the Python method `symbol` of `file` by
    /// inheritance: its class was there, and so was the base class that
    /// defines it (an override written into a class that already answered
    /// to the name, not a new subclass's, nor one of a base the change
    /// wrote)? Then it had it undocumented.
    fn inherited(&self, file: &ChangedFile, symbol: &exports::Export, before: &Before) -> Option<bool> {
        let class = symbol.parent.as_deref()?;
        let (there, base) = symbol.overrides.as_ref()?;
        before.had_key(&format!("\u{1f}{class}"))?;
        let base_was_there = if there.as_os_str().is_empty() {
            true
        } else if *there == file.path {
            before.had_key(&format!("{base}\u{1f}{}", symbol.name)).is_some()
        } else {
            !self.moved.files.iter().any(|f| f.path == *there)
        };
        base_was_there.then_some(false)
    }

    /// Why a new undocumented symbol in `file` is a warning, when its
    /// directory documented little of its API at the base (at least
    /// [`LITTLE_FROM`] public symbols, fewer than half documented): the
    /// project does not keep that convention there, and blocking every
    /// change that adds to it would block most of them; the finding shows
    /// the gap, with the share, until the directory documents half. So
    /// where too few to measure (under [`LITTLE_FROM`], at least
    /// [`NONE_FROM`]) were there and none of them was documented (issue 64:
    /// destr's two, documented in its README only). So
    /// with a kind the directory documents little of (at least
    /// [`LITTLE_KIND_FROM`] of it, fewer than half documented): its
    /// functions documented, its types not.
    fn documents_little(&mut self, file: &ChangedFile, language: Lang, kind: &'static str) -> Option<String> {
        let kind = kind_of(kind);
        let Measured {
            all: in_all,
            of_kind,
            dir,
        } = self.documented_share(file, language, kind)?;
        let little = |(documented, all): (usize, usize), from: usize| all >= from && documented * 2 < all;
        let percent = |(documented, all): (usize, usize)| documented * 100 / all;
        let directory = if file.path.parent() == Some(dir.as_path()) {
            "this directory".to_string()
        } else if dir.as_os_str().is_empty() {
            "the repository's top directory".to_string()
        } else {
            format!("the directory above it, {},", display_path(&dir))
        };
        if in_all.0 == 0 && (NONE_FROM..LITTLE_FROM).contains(&in_all.1) {
            return Some(format!(
                "a warning: {directory} documented none of its {} public symbols at the base; where none is documented, the project keeps no convention for a new one to break, and it is shown, not blocked",
                in_all.1
            ));
        }
        if little(in_all, LITTLE_FROM) {
            let (documented, all) = in_all;
            return Some(format!(
                "a warning: {directory} documented {documented} of its {all} public symbols at the base ({}%); where under half of the API is documented, a new symbol without a doc comment is shown, not blocked",
                percent(in_all)
            ));
        }
        little(of_kind, LITTLE_KIND_FROM).then(|| {
            let (documented, all) = of_kind;
            format!(
                "a warning: {directory} documented {documented} of its {all} public {kind}{} at the base ({}%); where under half of a kind is documented, a new one without a doc comment is shown, not blocked",
                if kind.ends_with('s') { "es" } else { "s" },
                percent(of_kind)
            )
        })
    }

    /// The public symbols at the base of `file`'s directory, documented
    /// and all, `(documented, all)` in all and of the kind `kind`
    /// ([`kind_of`]), with the directory measured: the nearest of the
    /// file's directory and those above it that had at least
    /// [`LITTLE_FROM`] (a folder of three loop factories, or one the change
    /// adds, keeps the convention of the directory above it; issue 64:
    /// uvicorn's `loops/`, reselect's `autotrackMemoize/`), else the
    /// nearest that had any, else the file's own. Each is measured by its
    /// own files, as a file there is.
    fn documented_share(&mut self, file: &ChangedFile, language: Lang, kind: &str) -> Option<Measured> {
        let own = file.path.parent().unwrap_or(Path::new("")).to_path_buf();
        let of = |share: &Share, dir: &Path| Measured {
            all: share.all,
            of_kind: share.by_kind.get(kind).copied().unwrap_or_default(),
            dir: dir.to_path_buf(),
        };
        // The nearest with that many, else the nearest that had any (a small
        // package's `src/`, the directory above a new one), else the file's own.
        let mut nearest: Option<PathBuf> = None;
        let mut dir = Some(own.as_path());
        while let Some(at) = dir {
            if let Some(share) = self.share_of(at, language) {
                if share.all.1 >= LITTLE_FROM {
                    return Some(of(share, at));
                }
                if nearest.is_none() && share.all.1 > 0 {
                    nearest = Some(at.to_path_buf());
                }
            }
            dir = at.parent();
        }
        let at = nearest.unwrap_or(own);
        self.share_of(&at, language).map(|share| of(share, &at))
    }

    /// The public symbols of the directory `dir` at the base, over its
    /// files in `language`'s family that are an API (not tests, examples
    /// or vendored code), read once.
    fn share_of(&mut self, dir: &Path, language: Lang) -> Option<&Share> {
        if !self.shares.contains_key(dir) {
            let Held { repo, commit, tree, .. } = self;
            let share = commit.as_deref().and_then(|commit| {
                let tree = tree.get_or_insert_with(|| AtCommit::new(repo, commit).ok()).as_ref()?;
                let mut share = Share::default();
                for path in tree.files_in(dir).into_iter().take(SHARE_FILES) {
                    let Some(lang) = exports::language_of(path) else {
                        continue;
                    };
                    if family(lang) != family(language) || super::skipped(lang, path, repo.root()) {
                        continue;
                    }
                    let Some(symbols) = tree.read(path).and_then(|bytes| exports::exports(lang, &bytes)) else {
                        continue;
                    };
                    for symbol in &symbols {
                        let kind = share.by_kind.entry(kind_of(symbol.kind)).or_default();
                        for (documented, all) in [&mut share.all, kind] {
                            *all += 1;
                            *documented += usize::from(symbol.documented);
                        }
                    }
                }
                Some(share)
            });
            self.shares.insert(dir.to_path_buf(), share);
        }
        self.shares.get(dir).and_then(Option::as_ref)
    }

    /// Was `symbol` public at the base, `Some(documented)`: declared public
    /// in the file's base version, or, in a JavaScript package, exposed
    /// under one of the names its entry points expose it by now (a symbol
    /// moved to another module, its form changed).
    fn had(
        &mut self,
        file: &ChangedFile,
        symbol: &exports::Export,
        before: &Before,
        surface: &Surface<'_>,
        package: Option<&PathBuf>,
    ) -> Option<bool> {
        if let Some(had) = before.had(symbol) {
            return Some(had);
        }
        let (Surface::JavaScript(api), Some(dir), Some(commit)) = (surface, package, &self.commit) else {
            return None;
        };
        // A declaration file the change adds for a module the base already
        // published, which the change leaves as it was, types that module's
        // API: it adds none (issue 64: kleur 0b44261, `kleur.d.ts` written
        // for the `index.js` whose colours were set at run time).
        if matches!(file.status, Status::Added | Status::Untracked) {
            let unchanged = |module: &Path| !self.moved.files.iter().any(|f| f.path == module);
            let typed: Vec<PathBuf> = api
                .types(&file.path)
                .filter(|m| unchanged(m))
                .map(Path::to_path_buf)
                .collect();
            if !typed.is_empty() {
                let Held { repo, tree, .. } = self;
                let tree = tree.get_or_insert_with(|| AtCommit::new(repo, commit).ok()).as_ref()?;
                if typed.iter().any(|module| tree.is_file(module)) {
                    return Some(false);
                }
            }
        }
        let labels = api.labels(&file.path, &symbol.name);
        if labels.is_empty() {
            return None;
        }
        let Held {
            repo,
            tree,
            apis,
            declared,
            ..
        } = self;
        let tree = tree.get_or_insert_with(|| AtCommit::new(repo, commit).ok()).as_ref()?;
        let api = apis
            .entry(dir.clone())
            .or_insert_with(|| js_api::api(tree, dir))
            .as_ref()?;
        api.had(tree, &labels, declared)
    }

    /// The base's findings for the pipeline, with a README the base lacked
    /// too when `findings` say one is missing: the same finding, whichever
    /// way it was missing there (none, or one with nothing but a title).
    pub(super) fn finish(mut self, findings: &[Finding], sources: &[SourceFile]) -> Result<AtBase> {
        let missing = findings.iter().find(|f| f.rule == rules::README_MISSING.id);
        if let (Some(now), Some(commit)) = (missing, &self.commit) {
            let repo = self.repo;
            let files: HashMap<String, String> = repo.root_files_at(commit)?.into_iter().collect();
            let names: Vec<String> = files.keys().cloned().collect();
            let read = |name: &str| match files.get(name).map(|id| repo.blob_capped(id)) {
                Some(Ok(BlobRead::Content(bytes))) => Ok(bytes),
                // Not read: not judged missing.
                _ => Err("not read at the base".to_string()),
            };
            if super::readme_of(names, &read).is_some_and(|f| f.rule == rules::README_MISSING.id) {
                self.base.findings.push(now.clone());
            }
        }
        // The base's findings point at the lines the change's do, in the
        // same text: each is matched by its fingerprint to the one it copies.
        let shown: BTreeSet<&str> = self.base.findings.iter().filter_map(|f| f.path.as_deref()).collect();
        self.base.sources = sources
            .iter()
            .filter(|s| shown.contains(display_path(&s.path).as_str()))
            .cloned()
            .collect();
        Ok(self.base)
    }
}
