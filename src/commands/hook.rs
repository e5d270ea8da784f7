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
    let what = match hook {
        Hook::PreCommit => "commit",
        Hook::PrePush => "push",
    };
    let skip = escape_hint(hook, gates, env_var("PRE_COMMIT").is_some_and(|v| v == "1"));
    match status {
        ExitStatus::Pass => {}
        ExitStatus::Error => report::status(&format!(
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
) -> Result<ExitStatus> {
    check_gate_names(named)?;
    let framework = env_var("PRE_COMMIT").is_some_and(|v| v == "1");
    let mut global = global.clone();
    global.hook = Some(hook);
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
        &global,
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
