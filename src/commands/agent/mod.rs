//! `loki-gate agent <event> --agent A`: loki-gate inside a coding agent's
//! own loop, where "done" is declared.
//!
//! - `session-start` records where the session's work starts (the evidence
//!   anchor) and tells the model what its "done" will be held to.
//! - `stop` gates the work since then (`agent-gates`, the trust checks held
//!   as in CI, `agent-strict-rules` at deny for what the session wrote) and
//!   either lets the agent stop or blocks it with the fix-next list. Each
//!   blocked stop is a round of `uncertainty`; when the agent is stuck
//!   (stuck detection, or `agent-max-blocks` blocks in a row) the stop goes
//!   through and the work is handed to a person.
//! - `post-edit` gives advice on the file just written (mock on a test file,
//!   the static tools that judge files alone on a source file); never a block.
//!
//! The answer is written in the agent's protocol ([`protocol`]); the state
//! of each session is `agent.json` in the state directory.

pub mod install;
mod ordered;
pub mod protocol;

use std::io::Read as _;

use serde::{Deserialize, Serialize};

use super::*;
use crate::cli::{Agent, AgentEvent};
use crate::state::StateFile;
use protocol::{Answer, Payload};

/// The most loki-gate reads of a hook's stdin (a `PostToolUse` input holds
/// the file written, twice).
const MAX_INPUT: u64 = 32 << 20;

/// Sessions remembered in `agent.json`, the newest.
const KEEP_SESSIONS: usize = 20;

/// `agent.json`: each recent session's start and how many stops in a row
/// were blocked.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct AgentState {
    /// Oldest first.
    pub sessions: Vec<SessionRecord>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SessionRecord {
    pub id: String,
    pub agent: String,
    /// The commit the session's work is judged from (`None`: no commit yet).
    pub anchor: Option<String>,
    pub started_at: u64,
    /// Stops blocked in a row.
    pub blocks: u64,
    /// Times the session was handed to a person.
    #[serde(default)]
    pub handoffs: u64,
}

impl StateFile for AgentState {
    const NAME: &'static str = "agent.json";
    const VERSION: u32 = 1;
    const RESET: &'static str = "delete it: the next session start records the sessions anew";
}

impl SessionRecord {
    /// A session of `agent` whose work is judged from `anchor`, starting now.
    fn new(id: &str, agent: Agent, anchor: Option<String>) -> SessionRecord {
        SessionRecord {
            id: id.to_string(),
            agent: agent.name().to_string(),
            anchor,
            started_at: now(),
            blocks: 0,
            handoffs: 0,
        }
    }
}

impl AgentState {
    fn find(&self, id: &str) -> Option<&SessionRecord> {
        self.sessions.iter().find(|s| s.id == id)
    }

    fn find_mut(&mut self, id: &str) -> Option<&mut SessionRecord> {
        self.sessions.iter_mut().find(|s| s.id == id)
    }
}

/// `loki-gate agent <event> --agent A`: exit 0 with the answer, or 1 with
/// why there is none (never 2, which three of the agents read as a block).
pub(crate) fn agent(global: &GlobalArgs, args: &cli::AgentArgs) -> Result<ExitStatus> {
    let answered = read_stdin()
        .and_then(|bytes| protocol::parse(args.agent, args.event, &bytes))
        .and_then(|payload| {
            let answer = answer(global, args.agent, args.event, &payload)?;
            Ok(protocol::render(args.agent, &payload, &answer))
        });
    match answered {
        Ok(out) => {
            report::emit(&out, None)?;
            Ok(ExitStatus::Pass)
        }
        Err(e) => {
            report::error(&e.context(format!(
                "loki-gate agent {} --agent {}: no answer (the agent goes on as if the hook were not there)",
                protocol::event_arg(args.event),
                args.agent.name()
            )));
            Ok(ExitStatus::AgentError)
        }
    }
}

fn read_stdin() -> Result<Vec<u8>> {
    let mut bytes = Vec::new();
    std::io::stdin()
        .take(MAX_INPUT + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| anyhow!("could not read the hook's input on stdin: {e}"))?;
    if bytes.len() as u64 > MAX_INPUT {
        return Err(anyhow!("the hook's input is over {} MiB: not read", MAX_INPUT >> 20));
    }
    Ok(bytes)
}

/// The settings of a run for `payload`: in the agent's directory (unless
/// `-C` names one), quiet, no report printed, and the trust rules held as
/// in CI: in the agent's loop, what the change adds to lower the bar blocks
/// until someone trusted acknowledges it.
fn run_args(global: &GlobalArgs, payload: &Payload) -> GlobalArgs {
    let mut run = global.clone();
    if run.repo.is_none() {
        run.repo.clone_from(&payload.dir);
    }
    run.quiet = true;
    run.verbose = false;
    run.enforce = true;
    run.format = cli::Format::Json;
    run.output = None;
    run.comment = false;
    run
}

fn answer(global: &GlobalArgs, agent: Agent, event: AgentEvent, payload: &Payload) -> Result<Answer> {
    match event {
        AgentEvent::SessionStart => session_start(global, agent, payload),
        AgentEvent::Stop => stop(global, agent, payload),
        AgentEvent::PostEdit => post_edit(global, payload),
    }
}

fn now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// Record where the session's work starts; a resumed or compacted session
/// keeps the start it had.
fn session_start(global: &GlobalArgs, agent: Agent, payload: &Payload) -> Result<Answer> {
    let session = Session::open(&run_args(global, payload), &env_var, false)?;
    let known = session.store.read::<AgentState>()?.unwrap_or_default();
    let resumed = matches!(payload.source.as_deref(), Some("resume" | "compact"))
        && known
            .find(&payload.session)
            .is_some_and(|s| s.anchor.as_deref().is_none_or(|c| session.repo.commit_exists(c)));
    let anchor = if resumed {
        known.find(&payload.session).and_then(|s| s.anchor.clone())
    } else {
        let anchor = gates::evidence::start(&context(&session))?;
        let record = SessionRecord::new(&payload.session, agent, anchor.commit.clone());
        session.store.update::<AgentState>(move |state| {
            let mut state = state.unwrap_or_default();
            state.sessions.retain(|s| s.id != record.id);
            state.sessions.push(record);
            let extra = state.sessions.len().saturating_sub(KEEP_SESSIONS);
            state.sessions.drain(..extra);
            Ok(state)
        })?;
        anchor.commit
    };
    let gates = stop_gates(&session);
    let from = anchor.as_deref().map_or("the first commit".to_string(), |c| {
        format!("commit {}", &c[..c.len().min(12)])
    });
    Ok(Answer::Context(format!(
        "loki-gate gates this session's \"done\". When you stop, the work since {from} must pass {}: \
         the tests green and run, tests that check what the code does (no hollow or skipped tests, \
         no expectation bent to fit the code), and nothing that lowers the bar (a suppression, a linter or \
         test-runner config edit, a skipped test) unless a person acknowledges it.",
        if gates.is_empty() {
            "no gate (agent-gates enables none)".to_string()
        } else {
            gates.join(", ")
        }
    )))
}

/// The gates of `agent-gates` that are enabled.
fn stop_gates(session: &Session) -> Vec<String> {
    session
        .config
        .agent_gates()
        .into_iter()
        .filter(|gate| session.config.section(gate).bool("enabled"))
        .collect()
}

/// Gate the session's work: let the agent stop, block it with what to fix,
/// or, when it is stuck, let it stop and hand the work to a person.
fn stop(global: &GlobalArgs, agent: Agent, payload: &Payload) -> Result<Answer> {
    // Cursor also calls the hook when the user aborted or the run failed:
    // only a finished run claims "done".
    if payload.status.as_deref().is_some_and(|s| s != "completed") {
        return Ok(Answer::Allow);
    }
    let mut run = run_args(global, payload);
    // A first look, only for the state (`--all-files`: no diff is read).
    let probe = Session::open(
        &GlobalArgs {
            all_files: true,
            ..run.clone()
        },
        &env_var,
        false,
    )?;
    let known = probe.store.read::<AgentState>()?.unwrap_or_default();
    let record = known.find(&payload.session).cloned();
    // The work since the session began: its recorded start, else the run
    // start `evidence start` recorded, else the configured base.
    let anchor = record.as_ref().and_then(|r| r.anchor.clone()).or_else(|| {
        probe
            .store
            .read::<gates::records::RunState>()
            .ok()
            .flatten()
            .and_then(|s| s.anchor)
            .and_then(|a| a.commit)
    });
    if run.base.is_none() {
        run.base = anchor.filter(|c| probe.repo.commit_exists(c));
    }
    drop(probe);
    let mut session = Session::open(&run, &env_var, false)?;
    strict(&mut session)?;
    let gates = stop_gates(&session);
    let stream = check::Stream::new(&run);
    let args = cli::CheckArgs {
        gates: gates.clone(),
        listed: true,
        ..Default::default()
    };
    let reports = if gates.is_empty() {
        Vec::new()
    } else {
        check::gate_reports(&run, &session, &args, &stream)
    };
    let blocked = reports
        .iter()
        .any(|r| matches!(r.outcome, Outcome::Blocked | Outcome::Error));
    let id = payload.session.clone();
    let blocks = session.store.update::<AgentState>(|state| {
        let mut state = state.unwrap_or_default();
        if state.find(&id).is_none() {
            state.sessions.push(SessionRecord::new(&id, agent, run.base.clone()));
        }
        let record = state.find_mut(&id).expect("just added");
        record.blocks = if blocked { record.blocks + 1 } else { 0 };
        Ok(state)
    })?;
    let blocks = blocks.find(&id).map_or(0, |r| r.blocks);
    if !blocked {
        return Ok(Answer::Allow);
    }
    let fix_next = report::agent::render(&reports);
    // A round of stuck detection for each blocked stop.
    let max = session.config.agent_max_blocks().max(1);
    let rounds = if session.config.section("uncertainty").bool("enabled") {
        let args = cli::CheckArgs {
            gates: vec!["uncertainty".to_string()],
            ..Default::default()
        };
        check::gate_reports(&run, &session, &args, &stream)
    } else {
        Vec::new()
    };
    let stuck = rounds.iter().any(|r| r.outcome == Outcome::Escalated);
    if stuck || blocks > max {
        let why = if stuck {
            let signs: Vec<&str> = rounds
                .iter()
                .flat_map(|r| &r.findings)
                .map(|f| f.message.as_str())
                .collect();
            format!("it looks stuck ({})", signs.join("; "))
        } else {
            format!(
                "its stop was blocked {} times in a row (agent-max-blocks: {max})",
                blocks
            )
        };
        return hand_off(&session, agent, payload, &why, &fix_next, stuck);
    }
    Ok(Answer::Block(format!(
        "{fix_next}\n(loki-gate: blocked stop {blocks} of {max}; after {max} the work goes to a person.)"
    )))
}

/// `agent-strict-rules` at deny: the session's own work is held to them
/// (what the code had before the session stays a warning: hold the line).
fn strict(session: &mut Session) -> Result<()> {
    for rule in session.config.agent_strict_rules() {
        if !crate::rule::is_known_selector(gates::rules(), &rule) {
            return Err(anyhow!(
                "agent-strict-rules names `{rule}`, which is no rule: `loki-gate rules` lists them"
            ));
        }
        session
            .levels
            .set(rule, crate::rule::Level::Deny, crate::rule::Source::Config);
    }
    Ok(())
}

/// Let the agent stop and hand the work to a person: the handoff in the
/// state directory (written by `uncertainty` when it escalated, else here),
/// the GitHub issue where a token is set, and a message to the person.
fn hand_off(
    session: &Session,
    agent: Agent,
    payload: &Payload,
    why: &str,
    fix_next: &str,
    written: bool,
) -> Result<Answer> {
    let path = session.store.dir().join(gates::uncertainty::HANDOFF);
    let id = payload.session.clone();
    let state = session.store.update::<AgentState>(|state| {
        let mut state = state.unwrap_or_default();
        if let Some(record) = state.find_mut(&id) {
            record.blocks = 0;
            record.handoffs += 1;
        }
        Ok(state)
    })?;
    let handoffs = state.find(&id).map_or(1, |r| r.handoffs);
    // The issue, in GitHub Actions (or wherever its variables are set).
    let on_github = env_var("GITHUB_REPOSITORY").is_some_and(|r| !r.is_empty());
    if written {
        if on_github {
            post_handoff(session);
        }
    } else {
        let text = format!(
            "# loki-gate: {} is stuck, handing off\n\n{} was told to fix its work and stopped again: {why}. \
             loki-gate let it stop; the work needs a person.\n\n## What still blocks\n\n{fix_next}\n\n\
             <!-- loki-gate-handoff agent-session={} -->\n",
            protocol::display(agent),
            protocol::display(agent),
            payload.session
        );
        session.store.prepare()?;
        crate::state::write_atomic(&path, text.as_bytes())?;
        if on_github {
            post_handoff_text(
                session,
                &format!("{} session {}", agent.name(), short(&payload.session)),
                &format!("session={}-{handoffs}", short(&payload.session)),
                &text,
            );
        }
    }
    Ok(Answer::Tell(format!(
        "loki-gate let {} stop: {why}. The work is handed to you: {}",
        protocol::display(agent),
        path.display()
    )))
}

fn short(id: &str) -> &str {
    &id[..id.len().min(12)]
}

/// Advice on the file an edit wrote: never a block.
fn post_edit(global: &GlobalArgs, payload: &Payload) -> Result<Answer> {
    let Some(file) = &payload.file else {
        return Ok(Answer::Allow);
    };
    let run = run_args(global, payload);
    let mut session = Session::open(&run, &env_var, false)?;
    strict(&mut session)?;
    let absolute = match (&payload.dir, file.is_absolute()) {
        (_, true) => file.clone(),
        (Some(dir), false) => dir.join(file),
        (None, false) => session.cwd.join(file),
    };
    let absolute = absolute.canonicalize().unwrap_or(absolute);
    // A file outside the repository, or one the edit removed, is not ours to judge.
    let Some(rel) = git::relative_to(session.repo.root(), &absolute).filter(|_| absolute.is_file()) else {
        return Ok(Answer::Allow);
    };
    session.scope = changed::Scope::Files(vec![rel.clone()]);
    let static_args = cli::StaticArgs {
        quick: true,
        ..Default::default()
    };
    // Which files are tests, as the gates read it (each package's runner config too).
    let (classifier, _) = gates::project::project(&context(&session), None)?;
    let call = if classifier.test_file(&rel).is_some() {
        gate::GateCall::Mock
    } else {
        gate::GateCall::Static(&static_args)
    };
    let name = call.name();
    if !session.config.section(name).bool("enabled") {
        return Ok(Answer::Allow);
    }
    let mut levels = session.levels.clone();
    let started = Instant::now();
    let result = call.run(&context(&session), &session.cwd, &mut levels);
    let (report, error) = gate_report(
        name,
        result,
        started,
        session.repo.root(),
        &levels,
        None,
        &session.judge,
    );
    if let Some(e) = error {
        return Err(e);
    }
    let findings: Vec<&crate::finding::Finding> = report
        .findings
        .iter()
        .filter(|f| f.severity >= crate::finding::Severity::Warning)
        .collect();
    if findings.is_empty() {
        return Ok(Answer::Allow);
    }
    let mut text = format!(
        "loki-gate ({name}) on {} (advice now; the errors among them will block your stop):\n",
        git::display_path(&rel)
    );
    for f in findings.iter().take(10) {
        text.push_str(&format!(
            "- line {}: [{}] {}{}\n",
            f.line.unwrap_or(0),
            f.rule,
            f.message,
            f.help.as_ref().map(|h| format!(" Fix: {h}")).unwrap_or_default()
        ));
    }
    if findings.len() > 10 {
        text.push_str(&format!("- ... and {} more\n", findings.len() - 10));
    }
    Ok(Answer::Context(text))
}
