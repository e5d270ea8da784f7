//! The base revision's run of the same tools: for `--new-only`, which drops
//! what the base already had, and for holding the line, which marks it
//! (`src/gates/at_base.rs`).

use super::*;

/// The findings the same jobs raise on the base revision, on the files
/// (`paths`, as the change names them) the change's run kept findings on,
/// with those files' base text.
/// A tool that judges each file by itself (ruff, ShellCheck) runs on the
/// base versions of those files and their config files alone, written to
/// a temporary directory: the cost follows the change, not the
/// repository. Any other needs its whole project checked out.
pub(super) fn held_at_base(
    repo: &crate::git::Repo,
    commit: &str,
    changes: &ChangeSet,
    jobs: &[Job<'_>],
    settings: &Settings,
    paths: &[&str],
) -> Result<crate::gates::at_base::AtBase> {
    let root = repo.root();
    // Only the files with findings are asked about again.
    let jobs: Vec<Job<'_>> = jobs
        .iter()
        .filter_map(|job| {
            let files: Vec<PathBuf> = job
                .files
                .iter()
                .filter(|f| job.project || paths.contains(&display_path(f).as_str()))
                .cloned()
                .collect();
            (!files.is_empty()).then(|| Job {
                tool: job.tool,
                program: job.program.clone(),
                dir: job.dir.clone(),
                files,
                project: job.project,
                config: job.config.clone(),
                env: Vec::new(),
            })
        })
        .collect();
    let alone = jobs.iter().all(|j| !j.project && !j.tool.alone().is_empty());
    let checkout = if alone {
        let mut wanted: std::collections::BTreeSet<PathBuf> = std::collections::BTreeSet::new();
        for job in &jobs {
            for file in &job.files {
                let change = changes.files.iter().find(|c| &c.path == file);
                wanted.insert(change.and_then(|c| c.old_path.clone()).unwrap_or_else(|| file.clone()));
                for dir in file.ancestors().skip(1) {
                    wanted.extend(job.tool.alone().iter().map(|name| dir.join(name)));
                }
            }
        }
        Checkout::files(repo, commit, &wanted)?
    } else {
        Checkout::new(root, commit, settings.timeout, crate::checkout::DEPENDENCIES)?
    };
    let base = base_jobs(root, changes, &jobs, commit.to_string(), checkout);
    let reports = run_jobs(base.checkout.path(), &base.jobs, settings)?;
    let head_to_base: HashMap<&str, &str> = base.renamed.iter().map(|(b, h)| (h.as_str(), b.as_str())).collect();
    let mut at_base = crate::gates::at_base::AtBase {
        ceiling: settings.pre_existing,
        ..Default::default()
    };
    for (job, found) in base.jobs.iter().zip(reports) {
        for f in found {
            let Some(path) = relative(base.checkout.path(), &f.path) else {
                continue;
            };
            let path = base.renamed.get(&path).cloned().unwrap_or(path);
            if !paths.contains(&path.as_str()) {
                continue;
            }
            let kept = Kept {
                tool: job.tool,
                path,
                found: f,
                note: None,
            };
            at_base.findings.push(finding(kept, settings.fail_on));
        }
    }
    // The base text each finding points into, under the change's path.
    let mut read: Vec<&str> = at_base.findings.iter().filter_map(|f| f.path.as_deref()).collect();
    read.sort_unstable();
    read.dedup();
    for path in read {
        let at = head_to_base.get(path).copied().unwrap_or(path);
        if let Ok(bytes) = walk::read_file(base.checkout.path(), Path::new(at)) {
            at_base.sources.push(walk::SourceFile {
                path: PathBuf::from(path),
                bytes,
            });
        }
    }
    Ok(at_base)
}

/// The base revision checked out, and the same jobs on it.
pub(super) struct Base<'a> {
    pub(super) rev: String,
    pub(super) checkout: Checkout,
    pub(super) jobs: Vec<Job<'a>>,
    /// Base path -> head path, for every changed file the base has.
    renamed: HashMap<String, String>,
}

/// Check out the base revision and point the jobs at it: the changed files
/// at their base paths (renamed files keep their history, added ones have
/// none), projects as they are.
pub(super) fn prepare_base<'a>(
    root: &Path,
    changes: &ChangeSet,
    jobs: &[Job<'a>],
    settings: &Settings,
) -> Result<Base<'a>> {
    let rev = changes
        .base
        .as_ref()
        .and_then(|b| b.commit.clone())
        .ok_or_else(|| {
            anyhow!(
                "--new-only compares with the base revision, and this run has none (--all-files, or no commit yet): drop --new-only, or commit and pass --base REV"
            )
        })?;
    let checkout = Checkout::new(root, &rev, settings.timeout, crate::checkout::DEPENDENCIES)?;
    Ok(base_jobs(root, changes, jobs, rev, checkout))
}

/// The jobs pointed at the base revision checked out in `checkout`.
fn base_jobs<'a>(root: &Path, changes: &ChangeSet, jobs: &[Job<'a>], rev: String, checkout: Checkout) -> Base<'a> {
    let mut renamed: HashMap<String, String> = HashMap::new();
    let mut at_base: HashMap<&Path, PathBuf> = HashMap::new();
    for file in &changes.files {
        let old = match (file.status, &file.old_path) {
            (Status::Added | Status::Untracked, _) => continue,
            (_, Some(old)) => old.clone(),
            (_, None) => file.path.clone(),
        };
        if file.status != Status::Deleted
            && checkout.path().join(&old).is_file()
            && walk::inside(checkout.path(), &old).is_ok()
        {
            renamed.insert(display_path(&old), display_path(&file.path));
            at_base.insert(&file.path, old);
        }
    }
    // A report file describes the head only: its findings all count as new.
    let base_jobs = jobs
        .iter()
        .filter(|job| job.tool.report_file().is_none())
        .filter_map(|job| {
            let files: Vec<PathBuf> = job
                .files
                .iter()
                .filter_map(|f| at_base.get(f.as_path()).cloned())
                .collect();
            (job.project || !files.is_empty()).then(|| Job {
                tool: job.tool,
                program: job.program.clone(),
                dir: job.dir.clone(),
                files,
                project: job.project,
                config: job.config.clone(),
                env: job.tool.base_env(root),
            })
        })
        .collect();
    Base {
        rev,
        checkout,
        jobs: base_jobs,
        renamed,
    }
}

/// Drop from `kept` what the base revision already had, matching findings
/// by fingerprint (tool rule, path, the flagged line's text with its
/// whitespace collapsed), so code that moved or was re-indented is not new.
/// Removes the checkout; returns a notice of what was dropped.
pub(super) fn drop_known(
    root: &Path,
    base: Base<'_>,
    reports: Vec<Vec<ToolFinding>>,
    changed: &HashMap<String, &ChangedFile>,
    kept: &mut Vec<Kept<'_>>,
) -> String {
    let mut base_texts = Texts::new(base.checkout.path());
    let mut known: HashMap<(String, String), usize> = HashMap::new();
    let mut count = 0;
    for (job, found) in base.jobs.iter().zip(reports) {
        for f in found {
            count += 1;
            // What lies outside the base's checkout matches nothing at the head.
            let Some(path) = relative(base.checkout.path(), &f.path) else {
                continue;
            };
            let line = base_texts.line(&path, f.line);
            let path = base.renamed.get(&path).cloned().unwrap_or(path);
            *known.entry((key(job.tool, &f, &path), line)).or_default() += 1;
        }
    }
    let rev = base.rev;
    drop(base.checkout);

    // Findings on changed lines go first, so when a fingerprint repeats the
    // ones the change wrote are the ones reported.
    let on_change = |path: &str, line: Option<u32>| {
        changed
            .get(path)
            .is_some_and(|c| line.is_some_and(|l| c.lines.contains(l)))
    };
    kept.sort_by_key(|k| !on_change(&k.path, k.found.line));
    let mut texts = Texts::new(root);
    kept.retain(|k| {
        let line = texts.line(&k.path, k.found.line);
        match known.get_mut(&(key(k.tool, &k.found, &k.path), line)) {
            Some(n) if *n > 0 => {
                *n -= 1;
                false
            }
            _ => true,
        }
    });
    format!(
        "new only: {count} finding(s) on the base revision {} left out of the report",
        crate::git::short(&rev)
    )
}

/// The part of a fingerprint besides the line's text.
fn key(tool: &dyn Tool, f: &ToolFinding, path: &str) -> String {
    format!("{}\0{}\0{path}", tool.name(), f.code.as_deref().unwrap_or(""))
}

/// Lines of files under one root, each file read once.
struct Texts<'a> {
    root: &'a Path,
    files: HashMap<String, Vec<String>>,
}

impl<'a> Texts<'a> {
    fn new(root: &'a Path) -> Self {
        Texts {
            root,
            files: HashMap::new(),
        }
    }

    /// Line `line` of `path`, whitespace collapsed; empty for none.
    fn line(&mut self, path: &str, line: Option<u32>) -> String {
        let Some(line) = line else {
            return String::new();
        };
        let lines = self.files.entry(path.to_string()).or_insert_with(|| {
            let bytes = walk::read_file(self.root, Path::new(path)).unwrap_or_default();
            String::from_utf8_lossy(&bytes).lines().map(str::to_string).collect()
        });
        lines
            .get(line as usize - 1)
            .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
            .unwrap_or_default()
    }
}
