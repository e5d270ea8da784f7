//! Each agent's hook protocol: what its JSON on stdin says, and how it
//! wants the answer. The contracts, with the versions they were read from,
//! are in `docs/agents/`.
//!
//! | | Claude Code | Codex CLI | Gemini CLI | Cursor |
//! |---|---|---|---|---|
//! | "done" | `Stop`, `SubagentStop` | `Stop`, `SubagentStop` | `AfterAgent` | `stop` |
//! | block | `{"decision":"block","reason":..}` | the same (no other key: Codex refuses extras) | the same | `{"followup_message":..}` |
//! | advice | `hookSpecificOutput.additionalContext` | the same | the same | none read |
//! | repeated stop | `stop_hook_active` | `stop_hook_active` | `stop_hook_active` | `loop_count` > 0 |
//! | the person's prompt | `UserPromptSubmit` | `UserPromptSubmit` | `BeforeAgent` | `beforeSubmitPrompt` |
//! | told to the person | `systemMessage` | `systemMessage` | `systemMessage` | none |
//!
//! Every answer is exit 0 with JSON (or nothing) on stdout. loki-gate
//! never exits 2 here: Claude Code, Codex and Gemini read 2 as a block, and
//! an error must not block by accident. When it cannot answer it exits 1,
//! which all four take as a failed hook that does not block, and says why
//! on stderr.

use std::path::PathBuf;

use anyhow::{Result, anyhow};
use serde_json::{Value, json};

use crate::cli::{Agent, AgentEvent};

/// What loki-gate reads of a hook's input, the same for every agent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Payload {
    /// The agent's session (Cursor: its conversation).
    pub session: String,
    /// The event as the agent named it (`Stop`, `AfterAgent`).
    pub event: String,
    /// Where the agent works (Cursor: its first workspace root).
    pub dir: Option<PathBuf>,
    /// This stop follows one loki-gate (or another hook) blocked.
    pub repeated: bool,
    /// The file an edit wrote.
    pub file: Option<PathBuf>,
    /// Cursor's `stop` status: `completed`, `aborted`, `error`.
    pub status: Option<String>,
    /// The session start's `source` (`startup`, `resume`, `clear`, `compact`).
    pub source: Option<String>,
    /// What the person asked (a prompt-submit event).
    pub prompt: Option<String>,
}

impl Payload {
    /// What stands for an input that could not be read.
    pub fn unread() -> Payload {
        Payload {
            session: String::new(),
            event: String::new(),
            dir: None,
            repeated: false,
            file: None,
            status: None,
            source: None,
            prompt: None,
        }
    }
}

/// The event names an agent sends for one of loki-gate's events.
pub fn event_names(agent: Agent, event: AgentEvent) -> &'static [&'static str] {
    match (agent, event) {
        (Agent::Claude | Agent::Codex | Agent::Gemini, AgentEvent::SessionStart) => &["SessionStart"],
        (Agent::Cursor, AgentEvent::SessionStart) => &["sessionStart"],
        (Agent::Claude | Agent::Codex, AgentEvent::Stop) => &["Stop", "SubagentStop"],
        (Agent::Gemini, AgentEvent::Stop) => &["AfterAgent"],
        (Agent::Cursor, AgentEvent::Stop) => &["stop", "subagentStop"],
        (Agent::Claude | Agent::Codex, AgentEvent::PostEdit) => &["PostToolUse"],
        (Agent::Gemini, AgentEvent::PostEdit) => &["AfterTool"],
        (Agent::Cursor, AgentEvent::PostEdit) => &["afterFileEdit"],
        (Agent::Claude | Agent::Codex, AgentEvent::Prompt) => &["UserPromptSubmit"],
        (Agent::Gemini, AgentEvent::Prompt) => &["BeforeAgent"],
        (Agent::Cursor, AgentEvent::Prompt) => &["beforeSubmitPrompt"],
        (_, AgentEvent::Doctor) => &[],
    }
}

/// Read a hook's stdin: a JSON object from `agent` for `event`.
pub fn parse(agent: Agent, event: AgentEvent, bytes: &[u8]) -> Result<Payload> {
    let wired = |what: &str| {
        anyhow!(
            "{what}: `loki-gate agent {} --agent {}` reads the JSON {} gives its hook on stdin; run `loki-gate init --agent {}` to wire it",
            event_arg(event),
            agent.name(),
            display(agent),
            agent.name()
        )
    };
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Err(wired("nothing on stdin"));
    }
    let value: Value = serde_json::from_slice(bytes).map_err(|e| wired(&format!("stdin is not JSON ({e})")))?;
    let Value::Object(map) = &value else {
        return Err(wired("stdin is not a JSON object"));
    };
    let text = |key: &str| map.get(key).and_then(Value::as_str).map(str::to_string);
    let session_key = if agent == Agent::Cursor {
        "conversation_id"
    } else {
        "session_id"
    };
    let session = text(session_key)
        .or_else(|| text("session_id"))
        .filter(|s| !s.is_empty())
        .ok_or_else(|| wired(&format!("the input has no `{session_key}`")))?;
    let name = text("hook_event_name").ok_or_else(|| wired("the input has no `hook_event_name`"))?;
    let expected = event_names(agent, event);
    if !expected.contains(&name.as_str()) {
        return Err(anyhow!(
            "`loki-gate agent {} --agent {}` got a `{name}` event, not {}: the hook is wired to the wrong event; run `loki-gate init --agent {}` again",
            event_arg(event),
            agent.name(),
            expected
                .iter()
                .map(|e| format!("`{e}`"))
                .collect::<Vec<_>>()
                .join(" or "),
            agent.name()
        ));
    }
    let dir = match agent {
        Agent::Cursor => map
            .get("workspace_roots")
            .and_then(Value::as_array)
            .and_then(|roots| roots.first())
            .and_then(Value::as_str)
            .map(PathBuf::from),
        _ => text("cwd").map(PathBuf::from),
    };
    let repeated = match agent {
        Agent::Cursor => map.get("loop_count").and_then(Value::as_u64).is_some_and(|n| n > 0),
        _ => map.get("stop_hook_active").and_then(Value::as_bool).unwrap_or(false),
    };
    let file = match agent {
        Agent::Cursor => text("file_path"),
        _ => map
            .get("tool_input")
            .and_then(|input| input.get("file_path").or_else(|| input.get("path")))
            .and_then(Value::as_str)
            .map(str::to_string),
    }
    .map(PathBuf::from);
    Ok(Payload {
        session,
        event: name,
        dir,
        repeated,
        file,
        status: text("status"),
        source: text("source"),
        prompt: text("prompt"),
    })
}

/// What loki-gate answers the agent (the model's side).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Answer {
    /// Go on (stop, or keep working), nothing to say to the model.
    Allow,
    /// Do not stop: the reason is the model's next instruction.
    Block(String),
    /// Go on, with this context for the model (advice after an edit, the session's bar at its start).
    Context(String),
}

/// An answer, and what the person is told beside it (never the model).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reply {
    pub answer: Answer,
    pub tell: Option<String>,
}

impl From<Answer> for Reply {
    fn from(answer: Answer) -> Reply {
        Reply { answer, tell: None }
    }
}

impl Reply {
    /// `answer`, with `tell` for the person.
    pub fn telling(answer: Answer, tell: impl Into<String>) -> Reply {
        Reply {
            answer,
            tell: Some(tell.into()),
        }
    }
}

/// The reply in `agent`'s protocol for `payload`: what to print on stdout.
/// What the person is told goes in `systemMessage`, which Claude Code,
/// Codex and Gemini CLI show the user and not the model; Cursor has no
/// such field, and Gemini CLI would show it in place of a block's reason.
pub fn render(agent: Agent, payload: &Payload, reply: &Reply) -> String {
    let value = match (agent, &reply.answer) {
        (Agent::Cursor, Answer::Block(reason)) => json!({ "followup_message": reason }),
        // Cursor waits for a verdict on the prompt.
        (Agent::Cursor, _) if payload.event == "beforeSubmitPrompt" => json!({ "continue": true }),
        (Agent::Cursor, _) => return String::new(),
        (_, Answer::Allow) => json!({}),
        (_, Answer::Block(reason)) => json!({ "decision": "block", "reason": reason }),
        (_, Answer::Context(text)) => json!({
            "hookSpecificOutput": { "hookEventName": payload.event, "additionalContext": text }
        }),
    };
    let mut value = value;
    // Gemini CLI shows a block's `systemMessage` instead of its reason:
    // the person reads the reason (the relay of a handoff, too) alone.
    let shown = !matches!(
        (agent, &reply.answer),
        (Agent::Cursor, _) | (Agent::Gemini, Answer::Block(_))
    );
    if let (Some(tell), Some(map), true) = (&reply.tell, value.as_object_mut(), shown) {
        map.insert("systemMessage".into(), json!(tell));
    }
    if value.as_object().is_some_and(serde_json::Map::is_empty) {
        return String::new();
    }
    let mut out = value.to_string();
    out.push('\n');
    out
}

/// The agent's name as its users know it.
pub fn display(agent: Agent) -> &'static str {
    match agent {
        Agent::Claude => "Claude Code",
        Agent::Codex => "Codex",
        Agent::Cursor => "Cursor",
        Agent::Gemini => "Gemini CLI",
    }
}

/// The event as the command line spells it.
pub fn event_arg(event: AgentEvent) -> &'static str {
    match event {
        AgentEvent::SessionStart => "session-start",
        AgentEvent::Stop => "stop",
        AgentEvent::PostEdit => "post-edit",
        AgentEvent::Prompt => "prompt",
        AgentEvent::Doctor => "doctor",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_agents_fields_read_the_same() {
        let claude = parse(
            Agent::Claude,
            AgentEvent::Stop,
            br#"{"session_id":"s1","cwd":"/w","hook_event_name":"Stop","stop_hook_active":true,"extra":1}"#,
        )
        .unwrap();
        assert_eq!((claude.session.as_str(), claude.repeated), ("s1", true));
        assert_eq!(claude.dir, Some(PathBuf::from("/w")));
        let cursor = parse(
            Agent::Cursor,
            AgentEvent::Stop,
            br#"{"conversation_id":"c","workspace_roots":["/r"],"hook_event_name":"stop","status":"completed","loop_count":0}"#,
        )
        .unwrap();
        assert_eq!((cursor.session.as_str(), cursor.repeated), ("c", false));
        assert_eq!(cursor.status.as_deref(), Some("completed"));
        let edit = parse(
            Agent::Gemini,
            AgentEvent::PostEdit,
            br#"{"session_id":"g","cwd":"/w","hook_event_name":"AfterTool","tool_input":{"file_path":"a.py"}}"#,
        )
        .unwrap();
        assert_eq!(edit.file, Some(PathBuf::from("a.py")));
    }

    #[test]
    fn bad_input_says_what_to_do() {
        let err = |bytes: &[u8]| parse(Agent::Claude, AgentEvent::Stop, bytes).unwrap_err().to_string();
        assert!(err(b"").starts_with("nothing on stdin: `loki-gate agent stop --agent claude` reads"));
        assert!(err(b"[1]").starts_with("stdin is not a JSON object"));
        assert!(err(b"{\"hook_event_name\":\"Stop\"}").starts_with("the input has no `session_id`"));
        assert_eq!(
            err(br#"{"session_id":"s","hook_event_name":"PostToolUse"}"#),
            "`loki-gate agent stop --agent claude` got a `PostToolUse` event, not `Stop` or `SubagentStop`: the hook is wired to the wrong event; run `loki-gate init --agent claude` again"
        );
    }
}
