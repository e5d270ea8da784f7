//! Which tests a code change reaches (imports that spell the changed
//! file), and each test file's track across the steps.

use super::*;

/// One test file through the range (renames followed): its version before
/// the range's first change and after its last.
pub(crate) struct Track {
    pub path: PathBuf,
    pub lang: Lang,
    pub first: Option<String>,
    pub last: Option<String>,
    /// The step that changes the file last.
    pub end: usize,
}

/// The test files the range changed, as [`Track`]s.
pub(crate) fn tracks(steps: &[Step]) -> Vec<Track> {
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
pub(crate) struct Reach<'a> {
    pub(crate) root: &'a Path,
    pub(crate) resolver: &'a Resolver,
    /// A project file -> the project files it imports.
    pub(crate) hops: Mutex<HashMap<PathBuf, Vec<PathBuf>>>,
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
                    // The package's own name: its entry points re-export
                    // what is in it.
                    Some(target) if let Some(dir) = self.resolver.package_dir(&target) => {
                        if let Some(c) = code.iter().find(|c| c.starts_with(dir)) {
                            return Some(c);
                        }
                    }
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

    /// Does `file`, the version of `from` a step made, import the module at
    /// `target`: a test file that runs a shared suite's tests (hono's
    /// `runTest` from `common.case.test.ts`)?
    pub fn imports_file(&self, from: &Path, lang: Lang, file: &TestFile, target: &Path) -> bool {
        file.imports.iter().flat_map(|i| i.module_specifiers(lang)).any(|spec| {
            match self.resolver.project_file(from, lang, spec) {
                Some(found) => found == target,
                None => spelled(from, lang, spec, target),
            }
        })
    }

    pub(crate) fn imports_of(&self, target: &Path) -> Vec<PathBuf> {
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
pub(crate) fn changes_code(file: &TestChange<'_>) -> bool {
    if file.lang != Lang::Rust || is_test_support(&file.change.path) {
        return false;
    }
    match (file.old, file.new) {
        (Some(old), Some(new)) => old.code_digest != new.code_digest || old.code_digest.is_empty(),
        _ => true,
    }
}

pub(crate) fn is_index(path: &Path) -> bool {
    path.file_stem()
        .and_then(|s| s.to_str())
        .is_some_and(|s| matches!(s, "__init__" | "index"))
}

/// Does an import that resolved to `target` reach the changed file `changed`?
pub(crate) fn covers(target: &Path, changed: &Path) -> bool {
    target == changed
        || (is_index(target) && target.parent().is_some_and(|dir| changed.starts_with(dir)))
        || (target.extension().is_none() && changed.starts_with(target))
}

/// Does `spec`, written in `from`, spell the module at `changed` (for files
/// the working tree no longer has)?
pub(crate) fn spelled(from: &Path, lang: Lang, spec: &str, changed: &Path) -> bool {
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
