//! `agent.json`: what loki-gate keeps of each recent session of a coding
//! agent. Where its work started (a snapshot of the working tree), the tree
//! of the last stop it let through, the blocked stops since (what blocked
//! each, to tell progress from none and to write the handoff), and what the
//! person asked (the task, for the handoff and the council).

use serde::{Deserialize, Serialize};

use crate::cli::Agent;
use crate::state::StateFile;

/// Sessions remembered, the newest.
pub const KEEP_SESSIONS: usize = 20;

/// Blocked stops kept per session: the newest (a handoff shows them).
const KEEP_STOPS: usize = 20;

/// Prompts kept per session: the first (the task) and the newest.
const KEEP_PROMPTS: usize = 20;

/// The most of one prompt kept, in bytes.
pub const MAX_PROMPT_BYTES: usize = 8 << 10;

/// `agent.json`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct AgentState {
    /// Oldest first.
    pub sessions: Vec<SessionRecord>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SessionRecord {
    pub id: String,
    pub agent: String,
    /// HEAD when the session started (`None`: no commit yet).
    pub anchor: Option<String>,
    pub started_at: u64,
    /// Stops blocked in a row.
    pub blocks: u64,
    /// Times the session was handed to a person.
    #[serde(default)]
    pub handoffs: u64,
    /// The ref of the working tree's snapshot at the start
    /// (`refs/loki-gate/sessions/..`): what the session's work is judged
    /// from. `None` for a session loki-gate did not see start.
    #[serde(default)]
    pub snapshot: Option<String>,
    /// The tree the session started from.
    #[serde(default)]
    pub start_tree: Option<String>,
    /// The tree of the last stop let through.
    #[serde(default)]
    pub passed_tree: Option<String>,
    /// loki-gate never saw the session start (its hooks came mid-session):
    /// its work is judged from HEAD at its first stop.
    #[serde(default)]
    pub unseen_start: bool,
    /// The person was told once that a stop with nothing changed is no
    /// "done" claim.
    #[serde(default)]
    pub told_idle: bool,
    /// The blocked stops since the last stop let through (or handoff), oldest first.
    #[serde(default)]
    pub stops: Vec<StopRecord>,
    /// The work was handed to a person and the agent asked to tell them:
    /// its next stop goes through.
    #[serde(default)]
    pub relaying: bool,
    /// What the person asked, oldest first (the first is kept).
    #[serde(default)]
    pub prompts: Vec<PromptRecord>,
}

/// One blocked stop.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StopRecord {
    pub at: u64,
    /// The working tree's tree at the stop.
    pub tree: String,
    /// What blocked it, one line each (`path:line [rule] message`).
    pub findings: Vec<String>,
    /// The files changed since the session started.
    pub files: Vec<String>,
    /// What blocked, as a set (the findings' fingerprints): equal across
    /// stops when the work made no progress.
    pub signature: String,
}

/// One prompt of the person's.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PromptRecord {
    pub at: u64,
    pub text: String,
    /// Cut at [`MAX_PROMPT_BYTES`].
    #[serde(default)]
    pub truncated: bool,
}

impl StateFile for AgentState {
    const NAME: &'static str = "agent.json";
    const VERSION: u32 = 1;
    const RESET: &'static str = "delete it: the next session start records the sessions anew";
}

impl SessionRecord {
    /// A session of `agent` whose work is judged from `anchor`, starting now.
    pub fn new(id: &str, agent: Agent, anchor: Option<String>) -> SessionRecord {
        SessionRecord {
            id: id.to_string(),
            agent: agent.name().to_string(),
            anchor,
            started_at: now(),
            blocks: 0,
            handoffs: 0,
            snapshot: None,
            start_tree: None,
            passed_tree: None,
            unseen_start: false,
            told_idle: false,
            stops: Vec::new(),
            relaying: false,
            prompts: Vec::new(),
        }
    }

    /// Keep a blocked stop (the newest [`KEEP_STOPS`]).
    pub fn push_stop(&mut self, stop: StopRecord) {
        self.stops.push(stop);
        let extra = self.stops.len().saturating_sub(KEEP_STOPS);
        self.stops.drain(..extra);
    }

    /// How many blocked stops in a row, up to the newest, were blocked by
    /// the same findings: 1 when the newest differs from the one before.
    pub fn same_findings(&self) -> usize {
        let Some(last) = self.stops.last() else {
            return 0;
        };
        self.stops
            .iter()
            .rev()
            .take_while(|s| s.signature == last.signature)
            .count()
    }

    /// Keep a prompt: cut to [`MAX_PROMPT_BYTES`] at a character
    /// boundary; the first prompt stays when older ones go.
    pub fn push_prompt(&mut self, text: &str) {
        let text = own_words(text);
        if text.is_empty() {
            return;
        }
        let mut end = text.len().min(MAX_PROMPT_BYTES);
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        self.prompts.push(PromptRecord {
            at: now(),
            text: text[..end].to_string(),
            truncated: end < text.len(),
        });
        if self.prompts.len() > KEEP_PROMPTS {
            self.prompts.remove(1);
        }
    }

    /// The name of this session's snapshot ref, under `SNAPSHOT_REFS`: the
    /// agent and a digest of its session id (any text an agent sends is
    /// no ref name).
    pub fn snapshot_name(agent: &str, id: &str) -> String {
        let digest = crate::finding::sha256_hex(id.as_bytes());
        format!("{agent}-{}", &digest[..16])
    }
}

impl AgentState {
    pub fn find(&self, id: &str) -> Option<&SessionRecord> {
        self.sessions.iter().find(|s| s.id == id)
    }

    pub fn find_mut(&mut self, id: &str) -> Option<&mut SessionRecord> {
        self.sessions.iter_mut().find(|s| s.id == id)
    }

    /// Put `record` in (replacing the session's earlier record), keep the
    /// newest [`KEEP_SESSIONS`]; the records that went.
    pub fn put(&mut self, record: SessionRecord) -> Vec<SessionRecord> {
        let mut gone: Vec<SessionRecord> = Vec::new();
        self.sessions.retain(|s| {
            let keep = s.id != record.id;
            if !keep && s.snapshot != record.snapshot {
                gone.push(s.clone());
            }
            keep
        });
        self.sessions.push(record);
        let extra = self.sessions.len().saturating_sub(KEEP_SESSIONS);
        gone.extend(self.sessions.drain(..extra));
        gone
    }
}

/// What the person wrote of a prompt the agent reports: Gemini CLI puts
/// the hooks' context before it (`<hook_context>..</hook_context>`), and
/// reports loki-gate's own block reasons as prompts (empty then).
fn own_words(text: &str) -> &str {
    let mut text = text.trim();
    while let Some(rest) = text.strip_prefix("<hook_context>") {
        match rest.find("</hook_context>") {
            Some(end) => text = rest[end + "</hook_context>".len()..].trim(),
            None => break,
        }
    }
    let ours = [
        "loki-gate stopped \"done\":",
        "loki-gate has handed this work to the user",
    ];
    if ours.iter().any(|o| text.starts_with(o)) {
        return "";
    }
    text
}

pub fn now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stop(signature: &str) -> StopRecord {
        StopRecord {
            at: 0,
            tree: String::new(),
            findings: Vec::new(),
            files: Vec::new(),
            signature: signature.into(),
        }
    }

    #[test]
    fn no_progress_counts_the_newest_stops_with_the_same_findings() {
        let mut record = SessionRecord::new("s", Agent::Claude, None);
        assert_eq!(record.same_findings(), 0);
        for s in ["a", "b", "b", "b"] {
            record.push_stop(stop(s));
        }
        assert_eq!(record.same_findings(), 3);
        record.push_stop(stop("a"));
        assert_eq!(record.same_findings(), 1);
    }

    #[test]
    fn prompts_keep_the_task_and_the_newest_cut_at_a_character() {
        let mut record = SessionRecord::new("s", Agent::Claude, None);
        record.push_prompt("  the task  ");
        record.push_prompt("   ");
        for i in 0..30 {
            record.push_prompt(&format!("prompt {i}"));
        }
        assert_eq!(record.prompts.len(), KEEP_PROMPTS);
        assert_eq!(record.prompts[0].text, "the task");
        assert_eq!(record.prompts.last().unwrap().text, "prompt 29");
        // Gemini CLI's context before the words, and loki-gate's own block as a prompt.
        record.push_prompt("<hook_context>loki-gate gates this session</hook_context>\n\nfix the cart");
        assert_eq!(record.prompts.last().unwrap().text, "fix the cart");
        let kept = record.prompts.len();
        record.push_prompt("loki-gate stopped \"done\": 1 problem to fix");
        assert_eq!(record.prompts.len(), kept);
        record.push_prompt(&"é".repeat(MAX_PROMPT_BYTES));
        let last = record.prompts.last().unwrap();
        assert!(
            last.truncated && last.text.len() <= MAX_PROMPT_BYTES,
            "{}",
            last.text.len()
        );
    }
}
