//! A stop loki-gate could not judge (its input unreadable, a broken config,
//! a state file it cannot read, a gate that failed to start) is a block,
//! never a pass: an agent that can break what judges it must not get past
//! by breaking it. It names the error to the model and to the person. Three
//! such stops in a row of one session are let through with the error told
//! to the person, so that an error no one in the loop can mend does not
//! loop forever (Codex has no cap of its own).
//!
//! The count is kept outside the repository, in the temporary directory,
//! per agent and session: the state a broken repository holds cannot be
//! trusted to keep it, and a count deleted only means more blocks.

use std::path::PathBuf;

use crate::cli::Agent;

use super::protocol::{Answer, Payload, Reply, display};

/// Stops in a row loki-gate could not judge before it lets the agent stop.
const MAX_ERRORS: u32 = 3;

fn counter(agent: Agent, payload: Option<&Payload>) -> PathBuf {
    let session = payload.map_or("", |p| p.session.as_str());
    let key = crate::finding::sha256_hex(format!("{}\n{session}", agent.name()).as_bytes());
    std::env::temp_dir().join("loki-gate-stop-errors").join(&key[..16])
}

/// A stop was judged: the count starts over.
pub fn cleared(agent: Agent, payload: Option<&Payload>) {
    let _ = std::fs::remove_file(counter(agent, payload));
}

/// The answer to a stop that failed with `error`.
pub fn reply(agent: Agent, payload: Option<&Payload>, error: &anyhow::Error) -> Reply {
    let path = counter(agent, payload);
    let count = std::fs::read_to_string(&path)
        .ok()
        .and_then(|t| t.trim().parse::<u32>().ok())
        .unwrap_or(0)
        + 1;
    let why = crate::wording::describe(error);
    let name = display(agent);
    if count >= MAX_ERRORS {
        let _ = std::fs::remove_file(&path);
        return Reply {
            answer: Answer::Allow,
            tell: Some(format!(
                "loki-gate could not judge {name}'s last {count} stops and let it stop, unjudged: {why}. \
                 Fix that (or run `loki-gate agent doctor`); pre-push and CI still judge the work."
            )),
        };
    }
    if let Some(dir) = path.parent() {
        let _ = std::fs::create_dir_all(dir);
    }
    let _ = crate::state::write_atomic(&path, count.to_string().as_bytes());
    Reply {
        answer: Answer::Block(format!(
            "loki-gate could not judge your work, so it is not done: {why}. If your changes caused this \
             (a config key, a file or directory it names), undo them; if not, say so to the user and stop."
        )),
        tell: Some(format!("loki-gate could not judge {name}'s stop: {why}")),
    }
}
