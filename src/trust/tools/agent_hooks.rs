//! The coding agents' project settings: where `loki-gate init --agent`
//! wrote the hooks that judge an agent's "done". An agent runs as the user
//! and can take its own stop hook out of them, or turn every hook off; its
//! loop then never meets the gate. The change is in the diff all the same:
//! each of loki-gate's hooks the base's settings had that the change
//! removes or alters, and Claude Code's `disableAllHooks` turned on, is a
//! tool-config waiver, held in CI until someone trusted acknowledges it
//! (issue 63).

use std::collections::BTreeMap;

use serde_json::Value;

use super::Lowered;

/// Each agent's project settings file, as `init --agent` writes it.
pub const AGENT_SETTINGS: &[&str] = &[
    ".claude/settings.json",
    ".codex/hooks.json",
    ".cursor/hooks.json",
    ".gemini/settings.json",
];

/// What every command loki-gate writes into an agent's settings holds: how
/// its own entries are told apart.
pub const MARK: &str = "loki-gate agent ";

/// What `head` (the change's settings; `None` deleted) takes away of the
/// hooks `base` ran.
pub(super) fn lowered(base: Option<&str>, head: Option<&str>) -> Vec<Lowered> {
    let parse = |text: Option<&str>| text.map_or(Some(Value::Null), |t| serde_json::from_str::<Value>(t).ok());
    // A version that does not parse runs no hook: the agent reports it.
    let (Some(old), Some(new)) = (parse(base), parse(head)) else {
        return Vec::new();
    };
    let (before, after) = (ours(&old), ours(&new));
    let mut out = Vec::new();
    for ((event, command), handler) in &before {
        let what = match after.get(&(event.clone(), command.clone())) {
            None => "removed",
            Some(now) if now != handler => "changed",
            Some(_) => continue,
        };
        out.push(Lowered {
            tool: "the coding agent",
            gate: "",
            key: format!("hooks.{event}"),
            what: format!("{what} loki-gate's hook `{command}`"),
            line: None,
        });
    }
    let off = |v: &Value| v.get("disableAllHooks").and_then(Value::as_bool) == Some(true);
    if off(&new) && !off(&old) {
        out.push(Lowered {
            tool: "the coding agent",
            gate: "",
            key: "disableAllHooks".into(),
            what: "turned every hook off".into(),
            line: head
                .and_then(|h| h.lines().position(|l| l.contains("disableAllHooks")))
                .and_then(|i| u32::try_from(i + 1).ok()),
        });
    }
    out
}

/// loki-gate's handlers in an agent's settings: by event and command, each
/// with what decides how it runs (its entry's matcher, its timeout).
fn ours(settings: &Value) -> BTreeMap<(String, String), String> {
    let mut out = BTreeMap::new();
    let Some(hooks) = settings.get("hooks").and_then(Value::as_object) else {
        return out;
    };
    for (event, entries) in hooks {
        for entry in entries.as_array().into_iter().flatten() {
            // Claude Code, Codex and Gemini group handlers under a matcher;
            // Cursor lists the handlers themselves.
            let handlers: Vec<&Value> = match entry.get("hooks").and_then(Value::as_array) {
                Some(list) => list.iter().collect(),
                None => vec![entry],
            };
            for handler in handlers {
                let Some(command) = handler
                    .get("command")
                    .and_then(Value::as_str)
                    .filter(|c| c.contains(MARK))
                else {
                    continue;
                };
                let how = format!("{} {handler}", entry.get("matcher").unwrap_or(&Value::Null));
                out.insert((event.clone(), command.to_string()), how);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const CLAUDE: &str = r#"{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "loki-gate agent stop --agent claude", "timeout": 900}]}], "PostToolUse": [{"matcher": "Edit", "hooks": [{"type": "command", "command": "prettier"}]}]}}"#;

    fn said(base: Option<&str>, head: Option<&str>) -> Vec<String> {
        lowered(base, head)
            .into_iter()
            .map(|l| format!("{}: {}", l.key, l.what))
            .collect()
    }

    #[test]
    fn loki_gates_hook_removed_changed_or_all_hooks_off_is_named() {
        let removed = CLAUDE.replace("loki-gate agent stop --agent claude", "true");
        assert_eq!(
            said(Some(CLAUDE), Some(&removed)),
            vec!["hooks.Stop: removed loki-gate's hook `loki-gate agent stop --agent claude`"]
        );
        let shorter = CLAUDE.replace("900", "1");
        assert_eq!(
            said(Some(CLAUDE), Some(&shorter)),
            vec!["hooks.Stop: changed loki-gate's hook `loki-gate agent stop --agent claude`"]
        );
        let off = CLAUDE.replacen('{', "{\"disableAllHooks\": true, ", 1);
        assert_eq!(
            said(Some(CLAUDE), Some(&off)),
            vec!["disableAllHooks: turned every hook off"]
        );
        assert_eq!(said(Some(CLAUDE), None).len(), 1);
    }

    #[test]
    fn added_hooks_or_another_hook_changed_lower_nothing() {
        assert!(said(None, Some(CLAUDE)).is_empty());
        let other = CLAUDE.replace("prettier", "black");
        assert!(said(Some(CLAUDE), Some(&other)).is_empty());
        let cursor = r#"{"version": 1, "hooks": {"stop": [{"command": "loki-gate agent stop --agent cursor", "loop_limit": 8}]}}"#;
        let looser = cursor.replace("8", "80");
        assert_eq!(
            said(Some(cursor), Some(&looser)),
            vec!["hooks.stop: changed loki-gate's hook `loki-gate agent stop --agent cursor`"]
        );
    }
}
