//! `loki-gate init --agent A` and `hook uninstall --agent A`: loki-gate's
//! hooks in a coding agent's project settings, merged into what is there.
//!
//! Each agent's file holds other hooks and settings of the user's: they are
//! kept as they are, in their order. loki-gate's own entries are told by
//! their command (`loki-gate agent <event>`): installing again replaces them
//! (the file comes out the same), uninstalling removes them and nothing else.
//! A file with comments is refused rather than rewritten without them.

use std::path::Path;

use anyhow::{Result, anyhow};

use crate::cli::Agent;

use super::ordered::Json;

/// What every command loki-gate writes into an agent's settings holds
/// (after a shell guard, for Gemini): how its own entries are told apart.
pub const MARK: &str = crate::trust::tools::AGENT_HOOK_MARK;

/// One hook entry of an agent's settings.
pub struct Entry {
    /// The agent's event name (`Stop`, `AfterAgent`, `stop`).
    pub event: &'static str,
    /// The tool or source filter, where the agent has one.
    matcher: Option<&'static str>,
    /// `loki-gate agent <this>`.
    pub ours: &'static str,
    /// In the agent's unit (seconds; Gemini: milliseconds).
    timeout: u64,
}

/// The settings file of `agent`, relative to the repository root.
pub fn settings_file(agent: Agent) -> &'static str {
    let file = |name: &str| {
        crate::trust::tools::AGENT_SETTINGS
            .iter()
            .copied()
            .find(|f| f.starts_with(name))
            .expect("every agent has its settings file")
    };
    match agent {
        Agent::Claude => file(".claude/"),
        Agent::Codex => file(".codex/"),
        Agent::Cursor => file(".cursor/"),
        Agent::Gemini => file(".gemini/"),
    }
}

/// loki-gate's hooks in `agent`'s settings, in the order `init` writes them.
pub fn entries(agent: Agent) -> Vec<Entry> {
    let e = |event, matcher, ours, timeout| Entry {
        event,
        matcher,
        ours,
        timeout,
    };
    match agent {
        Agent::Claude => vec![
            e(
                "SessionStart",
                Some("startup|resume|clear|compact"),
                "session-start",
                30,
            ),
            e("UserPromptSubmit", None, "prompt", 30),
            e("PostToolUse", Some("Edit|Write|MultiEdit"), "post-edit", 60),
            e("Stop", None, "stop", 900),
        ],
        Agent::Codex => vec![
            e("SessionStart", Some("startup|resume|clear"), "session-start", 30),
            e("UserPromptSubmit", None, "prompt", 30),
            e("PostToolUse", Some("apply_patch|Edit|Write"), "post-edit", 60),
            e("Stop", None, "stop", 900),
        ],
        Agent::Gemini => vec![
            e("SessionStart", None, "session-start", 30_000),
            e("BeforeAgent", None, "prompt", 30_000),
            e("AfterTool", Some("write_file|replace"), "post-edit", 60_000),
            e("AfterAgent", None, "stop", 900_000),
        ],
        Agent::Cursor => vec![
            e("sessionStart", None, "session-start", 30),
            e("beforeSubmitPrompt", None, "prompt", 30),
            e("afterFileEdit", None, "post-edit", 60),
            e("stop", None, "stop", 900),
        ],
    }
}

/// The command an entry runs. Gemini reads a hook that fails to start (exit
/// 127) as a block and loops on it: there a missing loki-gate lets the agent go.
fn command(agent: Agent, ours: &str) -> String {
    let call = format!("{MARK}{ours} --agent {}", agent.name());
    match agent {
        Agent::Gemini => format!("sh -c 'command -v loki-gate >/dev/null 2>&1 || exit 0; exec {call}'"),
        _ => call,
    }
}

/// Is `handler` (one hook entry's object) one of loki-gate's?
fn is_ours(handler: &Json) -> bool {
    handler
        .get("command")
        .and_then(Json::as_str)
        .is_some_and(|c| c.contains(MARK))
}

/// Add loki-gate's hooks to `agent`'s settings under `root` (replacing the
/// ones an earlier run wrote). `max_blocks`: the config's
/// `agent-max-blocks`; Cursor's own cap on follow-ups is set above it so
/// that loki-gate hands over to a person first. Returns what was done.
pub fn install(root: &Path, agent: Agent, max_blocks: u64) -> Result<String> {
    let path = root.join(settings_file(agent));
    let mut doc = read(&path)?.unwrap_or_else(|| Json::Object(Vec::new()));
    remove_ours(&mut doc, &path)?;
    if agent == Agent::Cursor && doc.get("version").is_none() {
        doc.insert("version", Json::Number("1".into()));
    }
    let hooks = doc.entry_object("hooks").ok_or_else(|| not_an_object(&path, "hooks"))?;
    for entry in entries(agent) {
        let list = hooks
            .entry_array(entry.event)
            .ok_or_else(|| not_an_object(&path, &format!("hooks.{}", entry.event)))?;
        let timeout = Json::Number(entry.timeout.to_string());
        let mut handler = vec![
            ("command".to_string(), Json::String(command(agent, entry.ours))),
            ("timeout".to_string(), timeout),
        ];
        match agent {
            Agent::Cursor => {
                if entry.ours == "stop" {
                    handler.push(("loop_limit".to_string(), Json::Number((max_blocks + 2).to_string())));
                }
                list.push(Json::Object(handler));
            }
            _ => {
                handler.insert(0, ("type".to_string(), Json::String("command".into())));
                // Claude Code (2.1.295 on) can be told that a stop hook that
                // cannot start, times out or fails blocks the stop instead
                // of letting it through (issue 63).
                if agent == Agent::Claude && entry.ours == "stop" {
                    handler.push(("onFailure".to_string(), Json::String("block".into())));
                }
                if agent == Agent::Gemini {
                    handler.insert(
                        1,
                        ("name".to_string(), Json::String(format!("loki-gate-{}", entry.ours))),
                    );
                }
                let mut group = Vec::new();
                if let Some(matcher) = entry.matcher {
                    group.push(("matcher".to_string(), Json::String(matcher.into())));
                }
                group.push(("hooks".to_string(), Json::Array(vec![Json::Object(handler)])));
                list.push(Json::Object(group));
            }
        }
    }
    write(&path, &doc)?;
    Ok(format!(
        "wrote loki-gate's hooks into {}; {}",
        settings_file(agent),
        what_makes_them_run(agent)
    ))
}

/// What the person must do before `agent` runs the project's hooks: each
/// agent keeps that trust in the user's home, and loki-gate does not
/// write it for them (trusting a folder trusts more than loki-gate's
/// hooks). `loki-gate agent doctor` checks it.
pub fn what_makes_them_run(agent: Agent) -> &'static str {
    match agent {
        Agent::Claude => {
            "Claude Code runs them once you accept its trust dialog for this folder (interactive); `claude -p` runs them as they are, unless `disableAllHooks` is set"
        }
        Agent::Codex => {
            "Codex runs them only in a trusted project whose hooks you reviewed: run `codex` here, trust the folder, and choose \"Trust all and continue\" when it asks to review the hooks (headless: `codex exec --trust --dangerously-bypass-hook-trust`); after a change to the hooks, review them again"
        }
        Agent::Gemini => {
            "Gemini CLI loads them only in a trusted folder: trust this folder when gemini asks (headless or CI: GEMINI_CLI_TRUST_WORKSPACE=true; `--skip-trust` runs the session without them)"
        }
        Agent::Cursor => "Cursor runs them as they are",
    }
}

/// Remove loki-gate's hooks from `agent`'s settings under `root`, and
/// nothing else; a file left with nothing in it goes too.
pub fn uninstall(root: &Path, agent: Agent) -> Result<String> {
    let path = root.join(settings_file(agent));
    let Some(mut doc) = read(&path)? else {
        return Ok(format!("{} does not exist: nothing to remove", settings_file(agent)));
    };
    if !remove_ours(&mut doc, &path)? {
        return Ok(format!(
            "{} holds no loki-gate hook: left as it is",
            settings_file(agent)
        ));
    }
    let empty = match &doc {
        Json::Object(fields) => fields
            .iter()
            .all(|(k, v)| (agent == Agent::Cursor && k == "version") || (k == "hooks" && v.is_empty_object())),
        _ => false,
    };
    if empty {
        std::fs::remove_file(&path).map_err(|e| anyhow!("could not remove {}: {e}", path.display()))?;
        return Ok(format!(
            "removed {} (it held only loki-gate's hooks)",
            settings_file(agent)
        ));
    }
    write(&path, &doc)?;
    Ok(format!("removed loki-gate's hooks from {}", settings_file(agent)))
}

/// Take loki-gate's handlers out of every event of `doc`; a group or an
/// event list left empty by that goes too. Did it find any?
fn remove_ours(doc: &mut Json, path: &Path) -> Result<bool> {
    let Some(hooks) = doc.get_mut("hooks") else {
        return Ok(false);
    };
    let Json::Object(events) = hooks else {
        return Err(not_an_object(path, "hooks"));
    };
    let mut found = false;
    for (_, list) in events.iter_mut() {
        let Json::Array(items) = list else { continue };
        let before = items.len();
        // Cursor's entries are handlers; the others' are groups of handlers.
        items.retain_mut(|item| {
            if is_ours(item) {
                found = true;
                return false;
            }
            if let Some(Json::Array(handlers)) = item.get_mut("hooks") {
                let had = handlers.len();
                handlers.retain(|h| !is_ours(h));
                if handlers.len() < had {
                    found = true;
                    return !handlers.is_empty();
                }
            }
            true
        });
        if items.is_empty() && before > 0 {
            *list = Json::Null;
        }
    }
    events.retain(|(_, list)| !matches!(list, Json::Null));
    Ok(found)
}

fn not_an_object(path: &Path, key: &str) -> anyhow::Error {
    anyhow!(
        "{}: `{key}` is not what the agent reads there (an object of event lists); fix it by hand, then run this again",
        path.display()
    )
}

/// The settings file, `None` when there is none; refused when it has
/// comments (they would be lost) or is not a JSON object.
fn read(path: &Path) -> Result<Option<Json>> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(anyhow!("could not read {}: {e}", path.display())),
    };
    if text.trim().is_empty() {
        return Ok(None);
    }
    if crate::formats::jsonc(&text) != text {
        return Err(anyhow!(
            "{} has comments, which rewriting it would lose: add loki-gate's hooks by hand (docs/agents/ shows them)",
            path.display()
        ));
    }
    let doc: Json = serde_json::from_str(&text).map_err(|e| {
        anyhow!(
            "{} is not valid JSON ({e}): fix it, then run this again",
            path.display()
        )
    })?;
    if !matches!(doc, Json::Object(_)) {
        return Err(anyhow!(
            "{} is not a JSON object: fix it, then run this again",
            path.display()
        ));
    }
    Ok(Some(doc))
}

fn write(path: &Path, doc: &Json) -> Result<()> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|e| anyhow!("could not create {}: {e}", dir.display()))?;
    }
    let mut text = doc.pretty();
    text.push('\n');
    crate::state::write_atomic(path, text.as_bytes())
}
