//! `loki-gate hook install|uninstall|run`.

use super::check::{CHANGE_GATES, check_in};
use super::*;

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
/// commits being pushed (pre-push, base from the refs git writes on stdin).
/// A run that cannot gate says so and how to get past it, like a blocked one.
pub(crate) fn hook_run(
    global: &GlobalArgs,
    hook: Hook,
    gates: &[String],
    files: &[std::path::PathBuf],
) -> Result<ExitStatus> {
    let status = hook_gate(global, hook, gates, files).unwrap_or_else(|e| {
        report::error(&e);
        ExitStatus::Error
    });
    let (what, skip) = match hook {
        Hook::PreCommit => ("commit", "git commit --no-verify"),
        Hook::PrePush => ("push", "git push --no-verify"),
    };
    match status {
        ExitStatus::Pass => {}
        ExitStatus::Error => report::status(&format!(
            "loki-gate: the {} hook could not gate this {what} (see the error above); fix it, or skip the hook once with `{skip}`",
            hook.name()
        )),
        ExitStatus::Blocked | ExitStatus::Escalated => report::status(&format!(
            "loki-gate: the {} hook blocked this {what}; fix what is reported above, or skip the hook once with `{skip}`",
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
) -> Result<ExitStatus> {
    check_gate_names(named)?;
    let framework = env_var("PRE_COMMIT").is_some_and(|v| v == "1");
    let mut global = global.clone();
    let repo = git::Repo::discover(&start_dir(&global)?)?;
    let files = repo_relative(&repo, files)?;
    let mut whole = false;
    match hook {
        Hook::PreCommit => {
            // The pre-commit framework passes the staged files on a commit,
            // and every file on `pre-commit run --all-files`.
            if !files.is_empty() {
                let staged: std::collections::BTreeSet<std::path::PathBuf> =
                    repo.staged_changes()?.into_iter().map(|c| c.path).collect();
                whole = files.iter().any(|f| !staged.contains(f));
            }
            global.staged = !whole;
        }
        Hook::PrePush => {
            // Trailers and authors are known at a push: what the change's
            // config lowers is held to the base's bar here, as in CI.
            global.enforce = true;
            if let Some(from) = env_var("PRE_COMMIT_FROM_REF").filter(|r| !r.is_empty()) {
                // The pre-commit framework read git's refs and says what is pushed.
                global.base = Some(from);
            } else if framework && !files.is_empty() {
                whole = true;
            } else if !std::io::IsTerminal::is_terminal(&std::io::stdin()) {
                let mut refs = String::new();
                std::io::Read::read_to_string(&mut std::io::stdin(), &mut refs)
                    .map_err(|e| anyhow!("pre-push: could not read the pushed refs from stdin: {e}"))?;
                let head = repo.head()?;
                match hooks::push_base(&refs, head.as_deref(), &|oid| repo.commit_exists(oid))? {
                    hooks::Push::Skip(why) => {
                        report::status(&format!("loki-gate: pre-push: {why}"));
                        return Ok(ExitStatus::Pass);
                    }
                    hooks::Push::Gate { base, notes } => {
                        for note in notes {
                            report::status(&format!("loki-gate: pre-push: {note}"));
                        }
                        if base.is_some() {
                            global.base = base;
                        }
                    }
                }
            }
        }
    }
    let mut session = Session::open(&global, &env_var, false)?;
    if whole {
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
            .filter(|gate| !(whole && CHANGE_GATES.contains(&gate.as_str())))
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
    check_in(&global, &session, &cli::CheckArgs { gates })
}
