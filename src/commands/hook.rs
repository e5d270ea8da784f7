//! `loki-gate hook install|uninstall|run`.

use super::check::{CHANGE_GATES, check_in};
use super::*;
use crate::checkout;

/// `hook install` (or, with `install` false, `hook uninstall`).
pub(crate) fn hook_install(global: &GlobalArgs, hooks: &[Hook], install: bool) -> Result<ExitStatus> {
    let repo = git::Repo::discover(&start_dir(global)?)?;
    let hooks = if hooks.is_empty() { &Hook::ALL[..] } else { hooks };
    let lines = if install {
        hooks::install(&repo, hooks)?
    } else {
        hooks::uninstall(&repo, hooks)?
    };
    if !global.quiet {
        for line in lines {
            report::status(&format!("loki-gate: {line}"));
        }
    }
    Ok(ExitStatus::Pass)
}

/// What an installed hook runs: `check` with the gates the config lists for
/// the hook (those enabled), on the staged change (pre-commit) or on the
/// commits being pushed (pre-push: every pushed ref, from the refs git
/// writes on stdin). A run that cannot gate says so and how to get past
/// it, like a blocked one.
pub(crate) fn hook_run(
    global: &GlobalArgs,
    hook: Hook,
    gates: &[String],
    files: &[std::path::PathBuf],
    remote: Option<&str>,
) -> Result<ExitStatus> {
    let status = hook_gate(global, hook, gates, files, remote).unwrap_or_else(|e| {
        report::error(&e);
        ExitStatus::Error
    });
    let what = match hook {
        Hook::PreCommit => "commit",
        Hook::PrePush => "push",
    };
    let skip = escape_hint(hook, gates, env_var("PRE_COMMIT").is_some_and(|v| v == "1"));
    match status {
        ExitStatus::Pass => {}
        ExitStatus::Error | ExitStatus::AgentError => report::status(&format!(
            "loki-gate: the {} hook could not gate this {what} (see the error above); fix it, or {skip}",
            hook.name()
        )),
        ExitStatus::Blocked | ExitStatus::Escalated => report::status(&format!(
            "loki-gate: the {} hook blocked this {what}; fix what is reported above, or {skip}",
            hook.name()
        )),
    }
    Ok(status)
}

pub(crate) fn hook_gate(
    global: &GlobalArgs,
    hook: Hook,
    named: &[String],
    files: &[std::path::PathBuf],
    remote: Option<&str>,
) -> Result<ExitStatus> {
    check_gate_names(named)?;
    let framework = env_var("PRE_COMMIT").is_some_and(|v| v == "1");
    let mut global = global.clone();
    global.hook = Some(hook);
    let repo = git::Repo::discover(&start_dir(&global)?)?;
    let files = repo_relative(&repo, files)?;
    match hook {
        Hook::PreCommit => {
            // The pre-commit framework passes the staged files on a commit,
            // and every file on `pre-commit run --all-files`.
            let mut whole = false;
            if !files.is_empty() {
                let staged: std::collections::BTreeSet<std::path::PathBuf> =
                    repo.staged_changes()?.into_iter().map(|c| c.path).collect();
                whole = files.iter().any(|f| !staged.contains(f));
            }
            global.staged = !whole;
            gate_here(&global, hook, named, whole.then_some(files))
        }
        Hook::PrePush => {
            // Trailers and authors are known at a push: what the change's
            // config lowers is held to the base's bar here, as in CI.
            global.enforce = true;
            if let Some(from) = env_var("PRE_COMMIT_FROM_REF").filter(|r| !r.is_empty()) {
                // The pre-commit framework read git's refs and says what is
                // pushed: from its FROM_REF to its TO_REF.
                let to = env_var("PRE_COMMIT_TO_REF")
                    .filter(|r| !r.is_empty())
                    .unwrap_or_else(|| "HEAD".to_string());
                let commit = repo.commit_of(&to).ok_or_else(|| {
                    anyhow!("pre-push: PRE_COMMIT_TO_REF names `{to}`, which is not a commit in this repository")
                })?;
                // Named as pre-commit names the local ref, else as given (not a bare id).
                let name = env_var("PRE_COMMIT_LOCAL_BRANCH")
                    .filter(|r| !r.is_empty())
                    .unwrap_or_else(|| {
                        if to == commit {
                            "the pushed commit".to_string()
                        } else {
                            to
                        }
                    });
                let target = hooks::Target {
                    commit,
                    refs: vec![name],
                    base: from,
                    notes: Vec::new(),
                };
                // pre-commit reads git's refs itself and hands its hooks the
                // first one only: a second ref in the same push is not
                // gated here (issue 63). Said on every such push.
                report::status(
                    "loki-gate: pre-push: the pre-commit framework passes the first pushed ref only; `loki-gate hook install --hook pre-push` gates every ref of a push",
                );
                return gate_pushed(&global, &repo, named, &[target]);
            }
            if framework && !files.is_empty() {
                return gate_here(&global, hook, named, Some(files));
            }
            if !std::io::IsTerminal::is_terminal(&std::io::stdin()) {
                let mut refs = String::new();
                std::io::Read::read_to_string(&mut std::io::stdin(), &mut refs)
                    .map_err(|e| anyhow!("pre-push: could not read the pushed refs from stdin: {e}"))?;
                let remote = remote.filter(|r| !r.is_empty());
                match hooks::plan(&refs, remote, &repo)? {
                    hooks::Push::ByHand => {}
                    hooks::Push::Skip(why) => {
                        report::status(&format!("loki-gate: pre-push: {why}"));
                        return Ok(ExitStatus::Pass);
                    }
                    hooks::Push::Gate { targets, notes } => {
                        for note in notes {
                            report::status(&format!("loki-gate: pre-push: {note}"));
                        }
                        return gate_pushed(&global, &repo, named, &targets);
                    }
                }
            }
            gate_here(&global, hook, named, None)
        }
    }
}

/// How long checking out a pushed commit may take.
const CHECKOUT_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(600);

/// Gate each pushed commit against its base: the checked-out work in
/// place when the working tree is that commit, unchanged; any other
/// commit (a tag, another branch, HEAD under uncommitted changes) on its
/// own files, checked out in a temporary worktree: what is pushed is the
/// commit, never the working tree. The status is the worst of them, a
/// block ranking above an error as in `check`.
fn gate_pushed(
    global: &GlobalArgs,
    repo: &git::Repo,
    named: &[String],
    targets: &[hooks::Target],
) -> Result<ExitStatus> {
    let head = repo.head()?;
    // The state directory is loki-gate's own, never part of the change.
    let state = [std::path::PathBuf::from(state::DIR_NAME)];
    let unchanged = || -> Result<bool> {
        let at_head = git::Base::at(head.clone());
        Ok(repo
            .diff(git::Side::Worktree(&at_head), &state, git::Detail::Paths)?
            .is_empty())
    };
    let checked_out = head.as_deref().is_some_and(|h| targets.iter().any(|t| t.commit == h));
    let clean = checked_out && unchanged()?;
    let several = targets.len() > 1;
    let mut worst = ExitStatus::Pass;
    for target in targets {
        let mut run = global.clone();
        run.base = Some(target.base.clone());
        let what = format!("{} ({})", target.refs.join(", "), git::short(&target.commit));
        for note in &target.notes {
            report::status(&format!("loki-gate: pre-push: {note}"));
        }
        let is_head = head.as_deref() == Some(target.commit.as_str());
        let status = if is_head && clean {
            if several {
                report::status(&format!("loki-gate: pre-push: {what}: the checked-out work"));
            }
            gate_here(&run, Hook::PrePush, named, None)
        } else {
            let why = if is_head {
                "the working tree has changes the push does not carry"
            } else {
                "not the checked-out work"
            };
            report::status(&format!(
                "loki-gate: pre-push: {what}: {why}: gated on the commit's own files, checked out in a temporary worktree"
            ));
            checkout::Checkout::new(repo.root(), &target.commit, CHECKOUT_TIMEOUT, checkout::WITH_TOOLS).and_then(
                |checkout| {
                    run.repo = Some(checkout.path().to_path_buf());
                    run.checkout = true;
                    // The repository's state (caches, the run's anchor) stays its own.
                    if run.state_dir.is_none() {
                        run.state_dir = Some(repo.root().join(state::DIR_NAME));
                    }
                    gate_here(&run, Hook::PrePush, named, None)
                },
            )
        };
        let status = status.unwrap_or_else(|e| {
            report::error(&e);
            ExitStatus::Error
        });
        worst = worse(worst, status);
    }
    Ok(worst)
}

/// The status that speaks for two runs: a block over an error, as `check`
/// ranks its gates' outcomes (`docs/exit-codes.md`).
fn worse(a: ExitStatus, b: ExitStatus) -> ExitStatus {
    let rank = |s: ExitStatus| match s {
        ExitStatus::Pass => 0,
        ExitStatus::Error | ExitStatus::AgentError => 1,
        ExitStatus::Blocked => 2,
        ExitStatus::Escalated => 3,
    };
    if rank(b) > rank(a) { b } else { a }
}

/// Run the hook's gates in the repository `global` names, on its scope
/// (`whole`: these files whole, as the pre-commit framework names them).
fn gate_here(
    global: &GlobalArgs,
    hook: Hook,
    named: &[String],
    whole: Option<Vec<std::path::PathBuf>>,
) -> Result<ExitStatus> {
    let mut session = Session::open(global, &env_var, false)?;
    let is_whole = whole.is_some();
    if let Some(files) = whole {
        session.scope = changed::Scope::Files(files);
    }
    let gates: Vec<String> = if named.is_empty() {
        let listed = match hook {
            Hook::PreCommit => session.config.pre_commit_gates(),
            Hook::PrePush => session.config.pre_push_gates(),
        };
        listed
            .iter()
            .filter(|gate| session.config.section(gate).bool("enabled"))
            // Whole files have no change for these to read.
            .filter(|gate| !(is_whole && CHANGE_GATES.contains(&gate.as_str())))
            .cloned()
            .collect()
    } else {
        named.to_vec()
    };
    if gates.is_empty() {
        report::status(&format!(
            "loki-gate: {}: none of the gates in `{}-gates` is enabled: nothing gated",
            hook.name(),
            hook.name()
        ));
        return Ok(ExitStatus::Pass);
    }
    let skipped = skip_list();
    let (skip, gates): (Vec<String>, Vec<String>) = gates
        .into_iter()
        .partition(|gate| skipped.iter().any(|s| s == gate || *s == format!("loki-gate-{gate}")));
    if !skip.is_empty() {
        report::status(&format!(
            "loki-gate: {}: skipped {} (LOKI_GATE_SKIP / SKIP)",
            hook.name(),
            skip.join(", ")
        ));
    }
    if gates.is_empty() {
        return Ok(ExitStatus::Pass);
    }
    check_in(
        global,
        &session,
        &cli::CheckArgs {
            gates,
            ..Default::default()
        },
    )
}

/// The gates a hook run leaves out this once: `LOKI_GATE_SKIP` and
/// pre-commit's `SKIP` (comma-separated; a gate, or the hook id
/// `loki-gate-<gate>`; other tools' ids in `SKIP` are not ours and are
/// ignored). Only hooks read them: `check` and the gates in CI never do.
fn skip_list() -> Vec<String> {
    ["LOKI_GATE_SKIP", "SKIP"]
        .iter()
        .filter_map(|var| env_var(var))
        .flat_map(|list| list.split(',').map(|s| s.trim().to_string()).collect::<Vec<_>>())
        .filter(|s| !s.is_empty())
        .collect()
}

/// How to get past the hook once, in the words of what ran it: the
/// pre-commit framework skips a hook id with `SKIP=`; loki-gate's own
/// hooks skip a gate with `LOKI_GATE_SKIP=`; git skips every hook with
/// `--no-verify`.
fn escape_hint(hook: Hook, gates: &[String], framework: bool) -> String {
    let git = match hook {
        Hook::PreCommit => "git commit",
        Hook::PrePush => "git push",
    };
    if framework {
        let id = match (hook, gates) {
            (Hook::PreCommit, [one]) => format!("loki-gate-{one}"),
            (Hook::PreCommit, _) => "loki-gate".to_string(),
            (Hook::PrePush, _) => "loki-gate-pre-push".to_string(),
        };
        format!("skip the hook once with `SKIP={id} {git}`")
    } else {
        format!("skip a gate once with `LOKI_GATE_SKIP=<gate> {git}`, or every hook with `{git} --no-verify`")
    }
}
