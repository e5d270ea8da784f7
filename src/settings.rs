//! One run's resolved settings: the repository, the validated config (file,
//! then environment), levels (config, then `-A`/`-W`/`-D`), the state store and
//! the scope. Precedence everywhere: command line > environment > file > default.

use std::path::{Path, PathBuf};

use anyhow::{Result, anyhow};
use globset::GlobSet;

use crate::changed::Scope;
use crate::cli::GlobalArgs;
use crate::config::{self, Config};
use crate::git::Repo;
use crate::rule::{self, Level, Levels, Source};
use crate::state::{self, Store};

pub struct Session {
    pub cwd: PathBuf,
    pub repo: Repo,
    pub config: Config,
    pub levels: Levels,
    pub store: Store,
    pub exclude: GlobSet,
    /// Repo-relative directories no gate looks into.
    pub skip_dirs: Vec<PathBuf>,
    pub scope: Scope,
    /// `--no-cache`: parse every file afresh.
    pub no_cache: bool,
    /// The tools the gates run come from `PATH` only: in CI, and in a
    /// coding agent's stop (an untracked `.venv/bin/ruff` in the workspace
    /// may be the agent's).
    pub path_only: bool,
    /// `--baseline`, as the trusted revision allows it.
    pub baseline: Option<crate::baseline::Baseline>,
    /// Decides the waivers the change adds ([`crate::trust`]).
    pub judge: crate::trust::Judge,
    /// The waivers judged once per run, before any gate: the keys on which
    /// the change's config lowers the base's bar and the entries it adds to
    /// a baseline; and notes on how they were checked.
    pub waivers: Vec<crate::trust::waiver::Waiver>,
    pub trust_notes: Vec<String>,
    /// The change collected for the tools' configs, with the scope it was
    /// collected for: the gates read it again ([`Session::collected`]).
    collected: Option<(Scope, crate::changed::ChangeSet)>,
}

/// Where repository discovery starts: the directory `-C` names, or the current one.
pub fn start_dir(global: &GlobalArgs) -> Result<PathBuf> {
    let cwd = std::env::current_dir().map_err(|e| anyhow!("could not read the current directory: {e}"))?;
    Ok(match &global.repo {
        Some(r) => cwd.join(r),
        None => cwd,
    })
}

impl Session {
    /// Resolve everything a gate needs, or fail before anything runs.
    /// `shallow_base_ok`: in a shallow clone, an explicit base that is not
    /// fetched is left for the gate to handle instead of failing here.
    pub fn open(global: &GlobalArgs, env: &dyn Fn(&str) -> Option<String>, shallow_base_ok: bool) -> Result<Session> {
        let cwd = std::env::current_dir().map_err(|e| anyhow!("could not read the current directory: {e}"))?;
        let start = start_dir(global)?;
        if !start.exists() {
            return Err(anyhow!(
                "{} does not exist: check the path given to -C/--repo",
                start.display()
            ));
        }
        let repo = if global.checkout {
            Repo::open_at(&start, &crate::git::Location::default())?
        } else {
            Repo::discover(&start)?
        };
        let root = repo.root().to_path_buf();
        let names: Vec<String> = std::env::vars_os()
            .filter_map(|(name, _)| name.into_string().ok())
            .collect();
        config::validate::check_env_names(&names, crate::gates::SECTIONS)?;
        let mut config = config::load(&root, global.config.as_deref(), env, crate::gates::catalog())?;
        // The change's config is held to the base's bar before anything reads it.
        let at = if global.staged {
            crate::trust::TrustAt::Staged
        } else if global.all_files {
            crate::trust::TrustAt::Head
        } else {
            crate::trust::TrustAt::Base(global.base.as_deref())
        };
        let enforce = global.enforce || crate::trust::in_ci(env);
        let mut trust_notes = Vec::new();
        let config_file = config.file.as_deref().and_then(|p| crate::git::relative_to(&root, p));
        let (judge, base_config) = crate::trust::Judge::open(
            &repo,
            config_file.as_deref(),
            at,
            enforce,
            env,
            crate::gates::catalog(),
            &mut trust_notes,
        )?;
        let mut waivers = crate::trust::config::hold_config(&judge, &repo, &mut config, &base_config)?;
        // A baseline kept in the repository is held to the base's like the config.
        let baseline = match &global.baseline {
            Some(path) => {
                let path = cwd.join(path);
                let loaded = crate::baseline::Baseline::load(&path)?;
                let (baseline, waiver) = crate::trust::hold_baseline(&judge, &repo, &path, loaded)?;
                waivers.extend(waiver);
                Some(baseline)
            }
            None => None,
        };
        crate::walk::set_max_file_bytes(config.max_file_bytes());

        let mut levels = Levels::new(crate::gates::rules());
        for (selector, level) in &config.rules {
            levels.set(selector.clone(), *level, Source::Config);
        }
        let mut unknown = Vec::new();
        for (list, level) in [
            (&global.allow, Level::Allow),
            (&global.warn, Level::Warn),
            (&global.deny, Level::Deny),
        ] {
            for selector in list {
                if rule::is_known_selector(crate::gates::rules(), selector) {
                    levels.set(selector.clone(), level, Source::Cli);
                } else {
                    unknown.push(selector.as_str());
                }
            }
        }
        if !unknown.is_empty() {
            let rules = crate::gates::rules();
            let mut known: Vec<&str> = rules.iter().map(|r| r.id).collect();
            known.extend(crate::config::schema::GATE_NAMES);
            let named: Vec<String> = unknown
                .iter()
                .map(|s| match crate::wording::nearest(s, &known) {
                    Some(best) => format!("`{s}` (did you mean `{best}`?)"),
                    None => format!("`{s}`"),
                })
                .collect();
            return Err(anyhow!(
                "unknown rule or gate {}: run `loki-gate rules` to list them",
                named.join(", ")
            ));
        }

        let state_dir = match &global.state_dir {
            Some(dir) => cwd.join(dir),
            None => root.join(state::DIR_NAME),
        };
        // Named inside the checkout, it stays inside: a committed symlink
        // is the change's, not the user's (issue 54).
        state::confine(&root, &lexical(&state_dir))?;
        let state_dir = normalize(&state_dir);
        let state_rel = state_dir.strip_prefix(&root).ok().map(Path::to_path_buf);
        let exclude_line = state_rel
            .as_ref()
            .filter(|rel| !rel.as_os_str().is_empty())
            .map(|rel| (repo.info_exclude(), format!("/{}/", crate::git::display_path(rel))));
        let store = Store::new(state_dir, exclude_line);

        // An explicit base is checked up front, even by gates that measure from
        // elsewhere (evidence): a typo must not pass silently. In a shallow
        // clone, a gate may take a missing base as "gate what is here"
        // (`shallow_base_ok`) and say so itself.
        if let Some(base) = &global.base
            && !(shallow_base_ok && repo.is_shallow())
        {
            repo.resolve_base(Some(base))?;
        }
        let scope = if global.all_files {
            Scope::AllFiles
        } else if global.staged {
            Scope::Staged
        } else {
            Scope::Diff {
                base: global.base.clone().or_else(|| config.base()),
            }
        };
        let exclude = crate::walk::exclude_set(&config.exclude())?;
        // The tools' own configs (linters, type checkers, test runners) are
        // held to the base's bar too: a change's files, read once here (the
        // state directory's too) and kept for the gates.
        let mut collected = None;
        let path_only = crate::trust::in_ci(env) || global.agent_stop;
        let mut resolved_notes = Vec::new();
        if !matches!(scope, Scope::AllFiles | Scope::Files(_)) {
            match crate::changed::collect(&repo, &scope, &exclude, &[]).and_then(|changes| {
                let setup = match judge.rev() {
                    Some(rev) => crate::gates::project::runners::changed_setup_files(&repo, rev, &changes)?,
                    None => Default::default(),
                };
                let (mut found, held) = crate::trust::tools::hold_tool_configs(&judge, &repo, &changes, &setup)?;
                // Then as the tools resolve them, for those not held already,
                // each run as the static gate would find it.
                let tracked = |rel: &Path| repo.is_tracked(rel);
                // Not one of another release line than the project declares:
                // the static gate would not run it either.
                let locate = |name: &'static str| {
                    use crate::gates::static_analysis::tools;
                    let tool = tools::by_name(name)?;
                    let program = tools::locate(tool, repo.root(), Path::new(""), &tracked, path_only)?;
                    tools::version::mismatch(name, &program, repo.root(), Path::new(""), None)
                        .is_none()
                        .then_some(program)
                };
                // Where the change is held (CI, pre-push, the agent's stop):
                // the tools take up to seconds to answer.
                if judge.enforced() || global.agent_stop {
                    let (resolved, notes) =
                        crate::trust::tools::hold_resolved(&judge, &repo, &changes, &locate, &held)?;
                    found.extend(resolved);
                    resolved_notes = notes;
                }
                collected = Some((scope.clone(), changes));
                Ok(found)
            }) {
                Ok(found) => waivers.extend(found),
                Err(e) => trust_notes.push(format!(
                    "the tools' configs could not be compared with the base ({}): a change to them is not judged in this run",
                    crate::wording::describe(&e)
                )),
            }
        }
        trust_notes.extend(resolved_notes);
        Ok(Session {
            cwd,
            repo,
            config,
            levels,
            store,
            exclude,
            skip_dirs: state_rel.into_iter().collect(),
            scope,
            no_cache: global.no_cache,
            path_only,
            baseline,
            judge,
            waivers,
            trust_notes,
            collected,
        })
    }

    /// The change the session collected, while `scope` is still the one it
    /// was collected for (a command may narrow the scope after opening).
    pub fn collected(&self) -> Option<&crate::changed::ChangeSet> {
        self.collected
            .as_ref()
            .filter(|(scope, _)| *scope == self.scope)
            .map(|(_, set)| set)
    }
}

/// `path` without `.` and `..` parts, the file system untouched.
fn lexical(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            std::path::Component::CurDir => {}
            std::path::Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

/// [`lexical`], with the symlinks of the part that exists resolved.
fn normalize(path: &Path) -> PathBuf {
    let out = lexical(path);
    // Resolve symlinks in the existing prefix so it compares with the canonical repo root.
    let mut existing = out.clone();
    let mut rest = Vec::new();
    while !existing.exists() {
        match existing.file_name() {
            Some(name) => rest.push(name.to_os_string()),
            None => break,
        }
        existing.pop();
    }
    let mut resolved = existing.canonicalize().unwrap_or(existing);
    for name in rest.into_iter().rev() {
        resolved.push(name);
    }
    resolved
}
