//! The `mock` gate: test integrity in the working tree.
//!
//! Test files come from one classifier ([`classify`]); each is parsed once
//! with tree-sitter ([`crate::lang`]) in parallel, and every rule is a pure
//! function over the parsed file. By default only test files in the change
//! are checked; `--all-files` checks every test file, `--staged` the staged
//! version of staged test files.

pub mod loaded;
pub mod rules;
pub mod settings;

use std::path::{Path, PathBuf};

use anyhow::Result;
use rayon::prelude::*;

use super::{Context, GateOutput};
use crate::cache::Cache;
use crate::changed::{self, Scope};
use crate::finding::Finding;
use crate::gates::at_base::AtBase;
use crate::gates::project::resolve::{Reach, Resolver};
use crate::gates::project::runners::Runners;
use crate::gates::project::{imports, model, model_cache, project};
use crate::git::BlobRead;
use crate::git::display_path;
use crate::lang::{Lang, TestFile};
use crate::walk::{self, SourceFile, Unread};
use loaded::Loaded;
use settings::Settings;

/// Check one file's source with the rules that need nothing but the file
/// (every rule except `never-imports-subject`, which resolves imports).
pub fn check_source(path: &str, lang: Lang, source: &[u8], settings: &Settings) -> Vec<Finding> {
    match lang.test_file(source) {
        Some(file) => file_rules(path, &file, settings),
        None => Vec::new(),
    }
}

fn file_rules(path: &str, file: &TestFile, settings: &Settings) -> Vec<Finding> {
    let mut findings = rules::tautological_assertion(path, file);
    findings.extend(rules::empty_test(path, file));
    findings.extend(rules::no_assertion(path, file, &settings.assertion_helpers));
    findings.extend(rules::smoke_test(path, file, &settings.assertion_helpers));
    findings.extend(rules::skipped_test(path, file));
    findings.extend(rules::conditional_assertion(path, file));
    findings.extend(rules::catch_only_assertion(path, file));
    findings.extend(rules::swallowed_failure(path, file));
    findings.extend(rules::unfinished_assertion(path, file));
    findings.extend(rules::literal_echo(path, file));
    findings.extend(rules::mock_return_echo(path, file));
    findings
}

/// What checking one test file found, and what the run needs of its model
/// once the model is dropped.
#[derive(Default)]
struct Checked {
    findings: Vec<Finding>,
    tests: usize,
    /// Its tests do nothing ([`does_nothing`]): it may be a sample suite.
    sample: bool,
    module_names: Vec<String>,
    /// Its parse was given up after the parse budget: nothing was read.
    cut: bool,
}

/// Every rule on the model of the test file at `rel`.
fn check(
    rel: &Path,
    lang: Lang,
    file: &TestFile,
    settings: &Settings,
    (resolver, runners): (&Resolver, &Runners),
) -> Vec<Finding> {
    let path = display_path(rel);
    // What was read of a test with a syntax error in it may be wrong: it is not checked.
    let readable;
    let (file, mut findings) = match unreadable(&path, file) {
        Some((note, rest)) => {
            readable = rest;
            (&readable, vec![note])
        }
        None => (file, Vec::new()),
    };
    findings.extend(file_rules(&path, file, settings));
    // AVA fails a test that ran no assertion (unless its config says
    // otherwise): a test whose checks sit in a handler fails when nothing
    // is raised (issue 64: meow 1eede6a).
    if matches!(lang, Lang::JavaScript | Lang::TypeScript | Lang::Tsx)
        && file.imports.iter().any(|i| i.specifier == "ava")
        && findings.iter().any(|f| f.rule == rules::CATCH_ONLY_ASSERTION.id)
        && runners.ava_fails_without_assertions(rel)
    {
        findings.retain(|f| f.rule != rules::CATCH_ONLY_ASSERTION.id);
    }
    // A Go test inside the package that implements the doubles (testify's
    // `mock`) configures them to test them: their returns are the subject.
    if lang == Lang::Go
        && findings.iter().any(|f| f.rule == rules::MOCK_RETURN_ECHO.id)
        && resolver.go_package_defines_doubles(rel)
    {
        findings.retain(|f| f.rule != rules::MOCK_RETURN_ECHO.id);
    }
    // Resolving every import is only needed when no used import is project code.
    // Rust tests beside the code (`#[cfg(test)] mod`) are inside their
    // subject, and so is a test module anywhere in a crate's `src/` tree
    // (`src/tests/eq.rs`): compiled into the crate, it reaches the crate's
    // items and macros without a `use` (issue 64: bitflags' tests).
    use crate::gates::project::resolve::{in_crate_src, is_test_support};
    let imports_subject = (lang == Lang::Rust && (!is_test_support(rel) || in_crate_src(rel)))
        // A side-effect import counts as used: one of test support that
        // brings in project code (`require('./_tape')`) reaches the subject.
        || file.imports.iter().any(|i| {
            i.used_in(file) && (resolver.is_subject(rel, lang, i) || resolver.is_helper_under_test(rel, lang, i))
        })
        || file.paths.iter().any(|p| resolver.names_project_file(rel, p))
        || lang == Lang::Go && {
            let called: Vec<&str> = file
                .tests
                .iter()
                .flat_map(|t| t.calls.iter().map(String::as_str))
                .collect();
            resolver.go_helpers_reach_subject(rel, &called)
        };
    if !imports_subject {
        let subject: Vec<bool> = file.imports.iter().map(|i| resolver.is_subject(rel, lang, i)).collect();
        findings.extend(rules::never_imports_subject(&path, file, &subject));
    }
    if !file.mocks.is_empty() {
        let reach: Vec<Reach> = file.mocks.iter().map(|m| resolver.reach(rel, lang, file, m)).collect();
        let imports: Vec<Option<PathBuf>> = file
            .imports
            .iter()
            .map(|i| resolver.project_file(rel, lang, &i.specifier))
            .collect();
        let resolved = rules::Resolved {
            lang,
            reach: &reach,
            imports: &imports,
        };
        findings.extend(rules::mocks_subject(&path, file, &resolved));
        findings.extend(rules::internal_mock_ratio(&path, file, &reach));
    }
    findings
}

/// A note naming the tests of `file` that hold a syntax error, and the file
/// without them; `None` when every test parsed cleanly.
fn unreadable(path: &str, file: &TestFile) -> Option<(Finding, TestFile)> {
    let broken: Vec<&crate::lang::TestCase> = file.tests.iter().filter(|t| t.syntax_error.is_some()).collect();
    let first = broken.iter().filter_map(|t| t.syntax_error).min()?;
    let names: Vec<String> = broken.iter().take(5).map(|t| format!("`{}`", t.name)).collect();
    let more = if broken.len() > 5 { ", ..." } else { "" };
    let note = Finding::new(
        &crate::meta::SYNTAX_ERROR,
        format!(
            "{} test(s) not checked: syntax error at line {first} ({}{more})",
            broken.len(),
            names.join(", ")
        ),
    )
    .at(path, first, 1);
    let mut rest = file.clone();
    rest.tests.retain(|t| t.syntax_error.is_none());
    Some((note, rest))
}

pub fn run(cx: &Context<'_>, settings: &Settings) -> Result<GateOutput> {
    let root = cx.repo.root();

    let wanted = |lang: Lang| settings.languages.is_empty() || settings.languages.iter().any(|l| l == lang.family());
    let mut out = GateOutput::default();

    let (cache, off) = model_cache(cx);
    out.notices.extend(off);
    let (classifier, resolver) = project(cx, cache.as_ref())?;

    // Only test files are read: the scope's paths are classified first.
    let is_wanted_test = |p: &Path| classifier.test_file(p).is_some_and(wanted);
    let mut change = None;
    let mut read = match cx.scope {
        Scope::AllFiles => walk::walk(root, &cx.exclude, &cx.skip_dirs, &is_wanted_test),
        scope => {
            let set = change.insert(cx.changes()?);
            out.notices.extend(set.notes().iter().cloned());
            let mut paths: Vec<PathBuf> = set
                .present()
                .map(|f| f.path.clone())
                .filter(|p| is_wanted_test(p))
                .collect();
            // Project code in the change: its tests are in scope too.
            let sources: Vec<PathBuf> = set
                .present()
                .map(|f| f.path.clone())
                .filter(|p| classifier.holds_code(p))
                .collect();
            let look = Look {
                set,
                classifier: &classifier,
                resolver: &resolver,
                cache: cache.as_ref(),
            };
            let dependents = dependents(cx, &look, &sources, &paths, &is_wanted_test);
            if !dependents.is_empty() {
                out.notices.push(format!(
                    "{} more test file(s) whose subject changed: {}",
                    dependents.len(),
                    dependents
                        .iter()
                        .take(5)
                        .map(|p| display_path(p))
                        .collect::<Vec<_>>()
                        .join(", ")
                ));
            }
            paths.extend(dependents);
            if *scope == Scope::Staged {
                read_staged(cx, &paths)?
            } else {
                walk::read_all(root, &paths)
            }
        }
    };
    // A test file the change adds or edits that is over the size cap was
    // not checked: never a silent pass (issue 54).
    if let Some(set) = change.as_ref().filter(|_| !cx.scope.is_whole()) {
        let changed: std::collections::HashSet<&Path> = set.files.iter().map(|f| f.path.as_path()).collect();
        for (path, size) in read.take_too_large(&|p| changed.contains(p)) {
            out.findings.push(walk::too_large(
                &path,
                size,
                "its tests were not checked",
                cx.judge.enforced(),
            ));
        }
    }
    out.findings.extend(read.skipped);
    let files: Vec<(SourceFile, Lang)> = read
        .files
        .into_iter()
        .filter_map(|f| classifier.test_file(&f.path).map(|l| (f, l)))
        .collect();
    // One pass: each model is checked and dropped, keeping what the run
    // needs across files.
    let mut checked: Vec<Checked> = files
        .par_iter()
        .map(|(f, lang)| match model(*lang, &f.bytes, cache.as_ref()) {
            Some(file) => Checked {
                findings: check(&f.path, *lang, &file, settings, (&resolver, &classifier.runners)),
                tests: file.tests.len(),
                // A file of tests that do nothing may be a sample suite.
                sample: *lang == Lang::Python && does_nothing(&file),
                module_names: file.module_names,
                cut: file.parse_cut,
            },
            None => Checked::default(),
        })
        .collect();
    // A test file given up after the parse budget was not checked: never a
    // silent pass (issue 63).
    let changed: std::collections::HashSet<&Path> = match change.as_ref().filter(|_| !cx.scope.is_whole()) {
        Some(set) => set.files.iter().map(|f| f.path.as_path()).collect(),
        None => Default::default(),
    };
    for ((f, _), _) in files.iter().zip(&checked).filter(|(_, c)| c.cut) {
        if changed.contains(f.path.as_path()) {
            out.findings.push(crate::gates::project::too_slow(
                &f.path,
                "its tests were not checked",
                cx.judge.enforced(),
            ));
        } else {
            out.notices.push(format!(
                "{} took more than {} seconds to parse: its tests were not checked",
                display_path(&f.path),
                crate::lang::PARSE_BUDGET.as_secs()
            ));
        }
    }
    let mut loaded = Loaded::default();
    for ((f, _), c) in files.iter().zip(&checked) {
        loaded.add(&f.path, &c.module_names);
    }
    // Out of a full run, the files that would name a sample may not have
    // been read: look for them only when there is one.
    let unnamed: Vec<&Path> = files
        .iter()
        .zip(&checked)
        .filter(|((f, _), c)| c.sample && loaded.loader(&f.path).is_none())
        .map(|((f, _), _)| f.path.as_path())
        .collect();
    if *cx.scope != Scope::AllFiles && !unnamed.is_empty() {
        let read: Vec<&Path> = files.iter().map(|(f, _)| f.path.as_path()).collect();
        for (path, names) in naming(cx, &unnamed, &read, &is_wanted_test, cache.as_ref()) {
            loaded.add(&path, &names);
        }
    }
    let mut samples = Vec::new();
    for ((f, _), c) in files.iter().zip(&mut checked) {
        if let Some((name, by)) = c.sample.then(|| loaded.loader(&f.path)).flatten() {
            samples.push(format!("{} (`{name}` in {})", display_path(&f.path), display_path(by)));
            c.findings.clear();
            c.tests = 0;
        }
    }
    if !samples.is_empty() {
        out.notices.push(format!(
            "{} sample test file(s) not checked: their tests do nothing and other tests load them by name: {}",
            samples.len(),
            samples.iter().take(5).cloned().collect::<Vec<_>>().join(", ")
        ));
    }
    if let Some(cache) = &cache {
        if let Some(why) = cache.failure() {
            out.notices
                .push(format!("parse cache not written ({why}); pass --no-cache to skip it"));
        } else if *cx.scope == Scope::AllFiles && settings.languages.is_empty() {
            // Every test file was looked at: what was not is stale.
            cache.prune();
            cache.remove_other_versions(crate::gates::project::CACHE_PREFIX);
        }
    }
    // The configs governing the files checked that could not be read.
    out.notices.extend(
        classifier
            .runners
            .problems_for(files.iter().map(|(f, _)| f.path.as_path())),
    );
    // A change run: what the base revision of each file with findings had.
    if let Some(set) = change.as_ref().filter(|_| !cx.scope.is_whole()) {
        let look = (&resolver, &*classifier.runners);
        let (base, notes) = at_base(cx, set, &files, &checked, settings, look, cache.as_ref())?;
        out.notices.extend(notes);
        out.base = Some(base);
    }
    let tests: usize = checked.iter().map(|c| c.tests).sum();
    // A Rust source file is read for the tests it may hold: it counts when it holds some.
    let counted = files
        .iter()
        .zip(&checked)
        .filter(|((_, lang), c)| !c.cut && (*lang != Lang::Rust || c.tests > 0))
        .count();
    out.findings.extend(checked.into_iter().flat_map(|c| c.findings));
    out.files = counted;
    // How test files were told apart, for the languages that had some.
    let has = |wanted: &[Lang]| files.iter().any(|(_, lang)| wanted.contains(lang));
    let mut how = Vec::new();
    if has(&[Lang::Python]) {
        how.push(format!("Python test files by {}", classifier.source));
    }
    if has(&[Lang::JavaScript, Lang::TypeScript, Lang::Tsx]) {
        let sources = classifier.runners.sources_for(
            files
                .iter()
                .filter(|(_, lang)| matches!(lang, Lang::JavaScript | Lang::TypeScript | Lang::Tsx))
                .map(|(f, _)| f.path.as_path()),
        );
        let more = match sources.len() {
            0..=3 => String::new(),
            n => format!(" and {} more", n - 3),
        };
        how.push(if sources.is_empty() {
            "JavaScript by conventions".to_string()
        } else {
            format!(
                "JavaScript by conventions and {}{more}",
                sources[..sources.len().min(3)].join(", ")
            )
        });
    }
    let how = if how.is_empty() {
        String::new()
    } else {
        format!(" ({})", how.join("; "))
    };
    out.notices
        .push(format!("{counted} test file(s) checked, {tests} tests{how}"));
    out.sources = files.into_iter().map(|(f, _)| f).collect();
    Ok(out)
}

/// What mock raises on the base revision of each of `files` that has
/// findings in `checked`, and a note per file whose base could not be read
/// (its findings are judged as new). A file the change did not touch has
/// the base's content: all its findings were there.
fn at_base(
    cx: &Context<'_>,
    set: &changed::ChangeSet,
    files: &[(SourceFile, Lang)],
    checked: &[Checked],
    settings: &Settings,
    look: (&Resolver, &Runners),
    cache: Option<&Cache>,
) -> Result<(AtBase, Vec<String>)> {
    let commit = set.base.as_ref().and_then(|b| b.commit.clone());
    let mut base = AtBase {
        commit: commit.clone(),
        ceiling: settings.pre_existing,
        ..AtBase::default()
    };
    let mut notes = Vec::new();
    let mut read = Vec::new();
    for ((file, lang), _) in files.iter().zip(checked).filter(|(_, c)| !c.findings.is_empty()) {
        let shown = display_path(&file.path);
        let Some(change) = set.files.iter().find(|c| c.path == file.path) else {
            base.unchanged.insert(shown);
            continue;
        };
        base.changed.insert(shown.clone(), change.lines.clone());
        let Some(commit) = &commit else { continue };
        let why = match changed::base_blob(cx.repo, commit, change)? {
            None => continue,
            Some(BlobRead::Content(bytes)) if bytes == file.bytes => {
                base.unchanged.insert(shown);
                continue;
            }
            Some(BlobRead::Content(bytes)) if !walk::is_binary(&bytes) => {
                read.push((file.path.clone(), *lang, bytes));
                continue;
            }
            Some(BlobRead::Content(_)) => "binary".to_string(),
            Some(BlobRead::TooLarge(size)) => walk::over_cap(size),
            Some(BlobRead::Missing) => format!("blob {}", crate::git::PARTIAL_CLONE),
        };
        notes.push(format!(
            "{shown}: its base version was not read ({why}): its findings count as the change's"
        ));
    }
    base.findings = read
        .par_iter()
        .filter_map(|(path, lang, bytes)| {
            let file = model(*lang, bytes, cache)?;
            Some(check(path, *lang, &file, settings, look))
        })
        .flatten()
        .collect();
    base.sources = read
        .into_iter()
        .map(|(path, _, bytes)| SourceFile { path, bytes })
        .collect();
    Ok((base, notes))
}

/// The files `keep` accepts whose text `wanted` accepts: a prefilter, so
/// only files that may matter are parsed.
fn mentioning(
    cx: &Context<'_>,
    keep: &(dyn Fn(&Path) -> bool + Sync),
    wanted: &(dyn Fn(&Path, &[u8]) -> bool + Sync),
) -> Vec<SourceFile> {
    walk::walk(cx.repo.root(), &cx.exclude, &cx.skip_dirs, keep)
        .files
        .into_par_iter()
        .filter(|f| wanted(&f.path, &f.bytes))
        .collect()
}

/// What the search for a change's dependent tests works with.
struct Look<'a> {
    set: &'a changed::ChangeSet,
    classifier: &'a crate::gates::project::classify::Classifier,
    resolver: &'a Resolver,
    cache: Option<&'a Cache>,
}

/// The test files, other than `already`, that import one of `sources` (changed
/// project files). A test file is parsed only when the base commit's import
/// index ([`imports`]) says it names one, or, without that index, when its
/// text may ([`imports::Mentions::may`]): both find the same files.
fn dependents(
    cx: &Context<'_>,
    look: &Look<'_>,
    sources: &[PathBuf],
    already: &[PathBuf],
    is_test: &(dyn Fn(&Path) -> bool + Sync),
) -> Vec<PathBuf> {
    let (resolver, cache) = (look.resolver, look.cache);
    let keep = |p: &Path| is_test(p) && !already.iter().any(|a| a == p);
    let fresh = *cx.scope == Scope::Staged;
    let indexed = imports::candidates(cx.repo, cx.store, cache, look.classifier, look.set, sources, fresh);
    let candidates = match indexed {
        Some(paths) => {
            // The change's own files are not the base's: the gate reads those.
            let changed: std::collections::HashSet<&Path> = look
                .set
                .files
                .iter()
                .flat_map(|f| [Some(f.path.as_path()), f.old_path.as_deref()])
                .flatten()
                .collect();
            // Only files git tracks: the index names nothing else.
            let tracked = cx.repo.index().ok();
            let paths: Vec<PathBuf> = paths
                .into_iter()
                .filter(|p| {
                    tracked.as_ref().is_some_and(|t| t.get(p).is_some())
                        && !changed.contains(p.as_path())
                        && keep(p)
                        && !cx.exclude.is_match(p)
                        && !cx.skip_dirs.iter().any(|d| p.starts_with(d))
                })
                .collect();
            walk::read_all(cx.repo.root(), &paths).files
        }
        None => {
            let mentions = imports::Mentions::new(cx.repo.root(), sources);
            mentioning(cx, &keep, &|path, text| mentions.may(path, text))
        }
    };
    let mut found: Vec<PathBuf> = candidates
        .par_iter()
        .filter_map(|f| {
            let lang = Lang::from_path(&f.path)?;
            let file = model(lang, &f.bytes, cache)?;
            let imports_changed = file.imports.iter().any(|import| {
                import
                    .module_specifiers(lang)
                    .filter_map(|spec| resolver.project_file(&f.path, lang, spec))
                    .any(|target| {
                        // A Go import names a package: a directory of files.
                        sources.contains(&target) || sources.iter().any(|s| s.parent() == Some(target.as_path()))
                    })
            });
            imports_changed.then(|| f.path.clone())
        })
        .collect();
    found.sort();
    found
}

/// Every test of `file` is empty (or calls nothing and asserts nothing, as
/// an empty test that a subclass runs) or asserts only tautologies, as the
/// sample suites a test runner's own tests load are written.
fn does_nothing(file: &TestFile) -> bool {
    !file.tests.is_empty()
        && file.tests.iter().all(|t| {
            t.empty
                || (t.assertions.is_empty() && t.calls.is_empty())
                || (!t.assertions.is_empty() && t.assertions.iter().all(|a| rules::tautology(&a.form).is_some()))
        })
}

/// The Python test files, other than `read`, whose strings name one of
/// `flagged` ([`loaded::spelling`]), with the module names they spell. A file is parsed only
/// when its text spells such a name.
fn naming(
    cx: &Context<'_>,
    flagged: &[&Path],
    read: &[&Path],
    is_test: &(dyn Fn(&Path) -> bool + Sync),
    cache: Option<&Cache>,
) -> Vec<(PathBuf, Vec<String>)> {
    let spellings: Vec<String> = flagged.iter().filter_map(|p| loaded::spelling(p)).collect();
    let Some(spelled) = (!spellings.is_empty())
        .then(|| regex::bytes::Regex::new(&spellings.join("|")).ok())
        .flatten()
    else {
        return Vec::new();
    };
    let candidates = mentioning(
        cx,
        &|p: &Path| is_test(p) && Lang::from_path(p) == Some(Lang::Python) && !read.contains(&p),
        &|_, text| spelled.is_match(text),
    );
    candidates
        .into_par_iter()
        .filter_map(|f| {
            let file = model(Lang::Python, &f.bytes, cache)?;
            Some((f.path, file.module_names))
        })
        .collect()
}

/// The staged content of each path (what the commit will contain).
fn read_staged(cx: &Context<'_>, paths: &[PathBuf]) -> Result<walk::Read> {
    let mut read = walk::Read::default();
    for path in paths {
        let why = match cx.repo.index_blob(path)? {
            Some(BlobRead::Content(bytes)) if !walk::is_binary(&bytes) => {
                read.files.push(SourceFile {
                    path: path.clone(),
                    bytes,
                });
                continue;
            }
            Some(BlobRead::Content(_)) => Unread::Other("binary file".to_string()),
            Some(BlobRead::TooLarge(size)) => Unread::TooLarge(size),
            Some(BlobRead::Missing) => Unread::Other(format!(
                "its staged blob {}: {}",
                crate::git::PARTIAL_CLONE,
                crate::git::PARTIAL_CLONE_FIX
            )),
            None => continue,
        };
        read.skip(path, why);
    }
    Ok(read)
}

#[cfg(test)]
mod tests {
    /// Every file that builds the test model is hashed into the cache's
    /// namespace (the memo and the unit tests do not build it).
    #[test]
    fn the_model_hash_reads_every_file_of_the_model() {
        fn files(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
            for entry in std::fs::read_dir(dir).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    files(&path, out);
                } else if path.extension().is_some_and(|e| e == "rs") {
                    out.push(path);
                }
            }
        }
        let mut found = Vec::new();
        files(
            &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/lang"),
            &mut found,
        );
        for path in found {
            let name = path.file_name().unwrap().to_string_lossy();
            if name == "versions.rs" || name == "tests.rs" {
                continue;
            }
            let text = std::fs::read_to_string(&path).unwrap();
            assert!(
                crate::gates::project::MODEL_SOURCES.contains(&text.as_str()),
                "{} is not in MODEL_SOURCES (src/gates/project/mod.rs)",
                path.display()
            );
        }
    }
}
