//! The `mock` gate: test integrity in the working tree.
//!
//! Test files come from one classifier ([`classify`]); each is parsed once
//! with tree-sitter ([`crate::lang`]) in parallel, and every rule is a pure
//! function over the parsed file. By default only test files in the change
//! are checked; `--all-files` checks every test file, `--staged` the staged
//! version of staged test files.

pub mod classify;
pub mod rules;
pub mod settings;

use std::path::PathBuf;

use anyhow::Result;
use rayon::prelude::*;

use super::{Context, GateOutput};
use crate::changed::{self, Scope};
use crate::finding::Finding;
use crate::git::display_path;
use crate::lang::Lang;
use crate::walk::{self, SourceFile};
use classify::Classifier;
use settings::Settings;

/// Check one file's source; the findings of every rule.
pub fn check_source(path: &str, lang: Lang, source: &[u8], settings: &Settings) -> Vec<Finding> {
    check(path, lang, source, settings).0
}

/// The findings of every rule, and how many tests the file holds.
fn check(path: &str, lang: Lang, source: &[u8], settings: &Settings) -> (Vec<Finding>, usize) {
    let Some(file) = lang.test_file(source) else {
        return (Vec::new(), 0);
    };
    let mut findings = rules::tautological_assertion(path, &file);
    findings.extend(rules::empty_test(path, &file));
    findings.extend(rules::no_assertion(path, &file, &settings.assertion_helpers));
    findings.extend(rules::skipped_test(path, &file));
    findings.extend(rules::conditional_assertion(path, &file));
    findings.extend(rules::swallowed_failure(path, &file));
    findings.extend(rules::literal_echo(path, &file));
    (findings, file.tests.len())
}

pub fn run(cx: &Context<'_>, settings: &Settings) -> Result<GateOutput> {
    let root = cx.repo.root();
    let classifier = Classifier::load(root);
    let wanted = |lang: Lang| settings.languages.is_empty() || settings.languages.iter().any(|l| l == lang.family());
    let mut out = GateOutput::default();

    let (candidates, read) = match cx.scope {
        Scope::AllFiles => {
            let read = walk::walk(root, &cx.exclude, &cx.skip_dirs);
            (None, read)
        }
        scope => {
            let set = changed::collect(cx.repo, scope, &cx.exclude, &cx.skip_dirs)?;
            out.notices.extend(set.notes().iter().cloned());
            let paths: Vec<PathBuf> = set
                .present()
                .filter(|f| classifier.test_file(&f.path).is_some_and(wanted))
                .map(|f| f.path.clone())
                .collect();
            let read = if *scope == Scope::Staged {
                read_staged(cx, &paths)?
            } else {
                walk::read_all(root, &paths)
            };
            (Some(paths.len()), read)
        }
    };
    let files: Vec<(SourceFile, Lang)> = read
        .files
        .into_iter()
        .filter_map(|f| classifier.test_file(&f.path).filter(|l| wanted(*l)).map(|l| (f, l)))
        .collect();
    // Skipped-file notes only for files that would have been checked.
    out.findings.extend(read.skipped.into_iter().filter(|n| {
        candidates.is_some()
            || n.path
                .as_ref()
                .is_some_and(|p| classifier.test_file(std::path::Path::new(p)).is_some())
    }));
    let checked: Vec<(Vec<Finding>, usize)> = files
        .par_iter()
        .map(|(f, lang)| check(&display_path(&f.path), *lang, &f.bytes, settings))
        .collect();
    let tests: usize = checked.iter().map(|(_, n)| n).sum();
    out.findings.extend(checked.into_iter().flat_map(|(f, _)| f));
    out.files = files.len();
    out.notices.push(format!(
        "{} test file(s) checked, {tests} tests (Python test files by {})",
        files.len(),
        classifier.source
    ));
    out.sources = files.into_iter().map(|(f, _)| f).collect();
    Ok(out)
}

/// The staged content of each path (what the commit will contain).
fn read_staged(cx: &Context<'_>, paths: &[PathBuf]) -> Result<walk::Read> {
    let mut read = walk::Read::default();
    for path in paths {
        match cx.repo.index_blob(path)? {
            Some(bytes) if !walk::is_binary(&bytes) => read.files.push(SourceFile {
                path: path.clone(),
                bytes,
            }),
            Some(_) => read.skipped.push(
                Finding::new(
                    &crate::meta::SKIPPED_FILE,
                    format!("skipped {}: binary file", display_path(path)),
                )
                .in_file(display_path(path)),
            ),
            None => {}
        }
    }
    Ok(read)
}
