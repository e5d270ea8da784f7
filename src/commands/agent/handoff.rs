//! The handoff a person reads when a coding agent's session is stuck: what
//! was asked, each blocked stop, what still blocks, what the person can do,
//! and what the loop waits for.

use std::fmt::Write as _;

use crate::cli::Agent;

use super::protocol::display;
use super::session::SessionRecord;

/// The handoff's markdown for `record`, handed over because of `why`;
/// `fix_next` is what blocks now (the text the agent last read).
pub fn text(agent: Agent, record: &SessionRecord, why: &str, fix_next: &str) -> String {
    let name = display(agent);
    let mut out = format!(
        "# loki-gate: {name} is stuck, handing off\n\n\
         {name} was told to fix its work and stopped again: {why}. loki-gate let it stop; the work needs a person.\n"
    );
    out.push_str("\n## The task\n\n");
    if record.prompts.is_empty() {
        out.push_str("No prompt was recorded (the agent's prompt hook is not wired: `loki-gate init --agent ");
        out.push_str(agent.name());
        out.push_str("` adds it).\n");
    } else {
        for prompt in &record.prompts {
            let cut = if prompt.truncated { " (cut)" } else { "" };
            let _ = writeln!(out, "> {}{cut}\n", quote(&prompt.text));
        }
    }
    if !record.stops.is_empty() {
        let _ = writeln!(out, "## The blocked stops ({})\n", record.stops.len());
        for (i, stop) in record.stops.iter().enumerate() {
            let files = match stop.files.len() {
                0 => "no file changed".to_string(),
                n if n <= 8 => format!("changed: {}", stop.files.join(", ")),
                n => format!("changed: {} and {} more", stop.files[..8].join(", "), n - 8),
            };
            let _ = writeln!(out, "{}. {files}", i + 1);
            for finding in &stop.findings {
                let _ = writeln!(out, "   - {finding}");
            }
        }
        out.push('\n');
    }
    out.push_str("## What still blocks\n\n");
    out.push_str(fix_next.trim_end());
    out.push_str("\n\n## What you can do\n\n");
    let _ = write!(
        out,
        "- **Acknowledge and continue**: when a finding is an intended change (a behaviour that was meant to change, \
         a test removed on purpose), acknowledge it as docs/trust.md says (a signed commit of yours, or a \
         maintainer's label or approving review on the pull request), then ask {name} to carry on.\n\
         - **Narrow the task**: tell {name} what to do about the findings above, or drop the part it cannot do.\n\
         - **Take over**: fix the work yourself; `loki-gate check` lists every finding.\n\n\
         ## What the loop waits for\n\n\
         Nothing: {name} has stopped. Your next prompt starts its next turn, and its next \"done\" is judged \
         against the same session start. To stop gating {name} in this repository: \
         `loki-gate hook uninstall --agent {}`.\n",
        agent.name()
    );
    let _ = writeln!(out, "\n<!-- loki-gate-handoff agent-session={} -->", record.id);
    out
}

/// `text` on one line of a markdown quote, each line of it quoted.
fn quote(text: &str) -> String {
    text.lines().collect::<Vec<_>>().join("\n> ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::commands::agent::session::StopRecord;

    #[test]
    fn the_handoff_says_the_task_each_stop_the_options_and_what_it_waits_for() {
        let mut record = SessionRecord::new("s1", Agent::Codex, None);
        record.push_prompt("add a test for total\nwith two items");
        record.push_stop(StopRecord {
            at: 0,
            tree: String::new(),
            findings: vec!["tests/t.py:4 [mock/smoke-test] asserts nothing".into()],
            files: vec!["tests/t.py".into()],
            signature: "x".into(),
        });
        let text = text(Agent::Codex, &record, "no progress", "1. tests/t.py:4 ...\n");
        assert!(text.starts_with("# loki-gate: Codex is stuck, handing off\n"), "{text}");
        assert!(
            text.contains("## The task\n\n> add a test for total\n> with two items\n"),
            "{text}"
        );
        assert!(
            text.contains("1. changed: tests/t.py\n   - tests/t.py:4 [mock/smoke-test] asserts nothing\n"),
            "{text}"
        );
        assert!(text.contains("**Take over**"), "{text}");
        assert!(text.contains("`loki-gate hook uninstall --agent codex`"), "{text}");
    }
}
