//! `loki-gate agent <event> --agent A`: loki-gate inside a coding agent's
//! own loop, where "done" is declared.
//!
//! - `session-start` takes a snapshot of the working tree (what is there is
//!   the person's: the agent is judged on what it changes from it), tells
//!   the model what its "done" will be held to, and tells the person when
//!   their own uncommitted changes lower the bar.
//! - `prompt` keeps what the person asked (the task), for the handoff and
//!   the council.
//! - `stop` is a "done" claim only when the working tree changed since the
//!   session's start and since the last stop let through; then it gates the
//!   work since the snapshot (`agent-gates`, the trust checks held as in
//!   CI, `agent-strict-rules` at deny for what the session wrote) and lets
//!   the agent stop or blocks it with the fix-next list. When the blocking
//!   findings stop changing (`agent-no-progress` stops in a row), when
//!   stuck detection escalates, or after `agent-max-blocks` blocks in a row,
//!   the stop goes through and the work is handed to a person.
//! - `post-edit` gives advice on the file just written (mock on a test file,
//!   the static tools that judge files alone on a source file); never a block.
//!
//! The answer is written in the agent's protocol ([`protocol`]); the
//! sessions are kept in `agent.json` in the state directory ([`session`]).

mod doctor;
mod failing;
mod handoff;
pub mod install;
mod ordered;
mod pinned;
pub mod protocol;
pub mod session;

use std::io::Read as _;

use super::*;
use crate::cli::{Agent, AgentEvent};
use protocol::{Answer, Payload, Reply};
pub use session::{AgentState, SessionRecord};
use session::{StopRecord, now};

/// The most loki-gate reads of a hook's stdin (a `PostToolUse` input holds
/// the file written, twice).
const MAX_INPUT: u64 = 32 << 20;

/// `loki-gate agent <event> --agent A`: exit 0 with the answer, or 1 with
/// why there is none (never 2, which three of the agents read as a block).
pub(crate) fn agent(global: &GlobalArgs, args: &cli::AgentArgs) -> Result<ExitStatus> {
    if args.event == AgentEvent::Doctor {
        return doctor(global, args.agent);
    }
    let Some(agent) = args.agent else {
        report::error(&anyhow!(
            "loki-gate agent {}: --agent is required (claude, codex, cursor or gemini): run `loki-gate init --agent <agent>` to wire the hooks",
            protocol::event_arg(args.event)
        ));
        return Ok(ExitStatus::AgentError);
    };
    let payload = read_stdin().and_then(|bytes| protocol::parse(agent, args.event, &bytes));
    let answered = payload.as_ref().map_err(|e| anyhow!("{e:#}")).and_then(|payload| {
        let reply = answer(global, agent, args.event, payload)?;
        Ok(protocol::render(agent, payload, &reply))
    });
    let out = match (answered, args.event) {
        (Ok(out), AgentEvent::Stop) => {
            failing::cleared(agent, payload.as_ref().ok());
            out
        }
        (Ok(out), _) => out,
        // A stop loki-gate could not judge is not let through (fail closed).
        (Err(e), AgentEvent::Stop) => {
            let reply = failing::reply(agent, payload.as_ref().ok(), &e);
            let fallback = protocol::Payload::unread();
            protocol::render(agent, payload.as_ref().unwrap_or(&fallback), &reply)
        }
        (Err(e), event) => {
            report::error(&e.context(format!(
                "loki-gate agent {} --agent {}: no answer (the agent goes on as if the hook were not there)",
                protocol::event_arg(event),
                agent.name()
            )));
            return Ok(ExitStatus::AgentError);
        }
    };
    report::emit(&out, None)?;
    Ok(ExitStatus::Pass)
}

/// `loki-gate agent doctor`: exit 0 when every agent checked runs the
/// hooks here, 1 when one will not, 2 when it could not look.
fn doctor(global: &GlobalArgs, agent: Option<Agent>) -> Result<ExitStatus> {
    let session = state_only(global)?;
    let root = session.repo.root();
    let state = records(&session).read::<AgentState>()?.unwrap_or_default();
    let agents: Vec<Agent> = match agent {
        Some(agent) => vec![agent],
        None => [Agent::Claude, Agent::Codex, Agent::Cursor, Agent::Gemini]
            .into_iter()
            .filter(|a| root.join(install::settings_file(*a)).exists())
            .collect(),
    };
    if agents.is_empty() {
        report::emit(
            "no coding agent's settings here hold loki-gate's hooks: run `loki-gate init --agent claude` (or codex, cursor, gemini)\n",
            None,
        )?;
        return Ok(ExitStatus::Blocked);
    }
    let home = doctor::Home::from_env(&env_var);
    let checkups: Vec<doctor::Checkup> = agents.iter().map(|a| doctor::check(root, *a, &home, &state)).collect();
    report::emit(&doctor::render(root, &checkups), None)?;
    Ok(if checkups.iter().all(doctor::Checkup::fires) {
        ExitStatus::Pass
    } else {
        ExitStatus::Blocked
    })
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

fn answer(global: &GlobalArgs, agent: Agent, event: AgentEvent, payload: &Payload) -> Result<Reply> {
    // In the repository the session started in, whatever `cwd` this names.
    let (payload, elsewhere) = pinned::resolve(payload);
    let payload = &payload;
    match event {
        AgentEvent::SessionStart => session_start(global, agent, payload),
        AgentEvent::Stop => stop(global, agent, payload).map(|mut reply| {
            if let Some(line) = elsewhere {
                reply.tell = Some(match reply.tell.take() {
                    Some(tell) => format!("{tell}\n{line}"),
                    None => line,
                });
            }
            reply
        }),
        AgentEvent::PostEdit => post_edit(global, payload).map(Reply::from),
        AgentEvent::Prompt => prompt(global, agent, payload),
        AgentEvent::Doctor => Err(anyhow!("`agent doctor` reads no hook input")),
    }
}

/// Where the sessions are kept: in the git directory (`loki-gate/agent.json`),
/// out of the working tree the agent edits, and the same for every
/// worktree of the repository.
fn records(session: &Session) -> crate::state::Store {
    crate::state::Store::new(session.repo.common_dir().join("loki-gate"), None)
}

/// A session that looks only at the state (`--all-files`: no diff is read).
fn state_only(run: &GlobalArgs) -> Result<Session> {
    Session::open(
        &GlobalArgs {
            all_files: true,
            base: None,
            ..run.clone()
        },
        &env_var,
        false,
    )
}

/// Start a session's record: the working tree's snapshot, kept as a
/// commit under `refs/loki-gate/sessions/`, and HEAD as the evidence
/// anchor. A record that goes with it (a restarted session's, the oldest)
/// takes its snapshot ref along.
fn begin(session: &Session, agent: Agent, id: &str, unseen: bool) -> Result<SessionRecord> {
    let anchor = gates::evidence::start(&context(session))?;
    let name = SessionRecord::snapshot_name(agent.name(), id);
    let tree = session.repo.worktree_tree(&session.skip_dirs)?;
    let snapshot = session.repo.keep_snapshot(
        &tree,
        &name,
        &format!("loki-gate: the working tree when {} session {id} started", agent.name()),
    )?;
    let mut record = SessionRecord::new(id, agent, anchor.commit);
    record.snapshot = Some(snapshot);
    record.start_tree = Some(tree);
    record.unseen_start = unseen;
    let kept = record.clone();
    let mut gone = Vec::new();
    records(session).update::<AgentState>(|state| {
        let mut state = state.unwrap_or_default();
        // A resumed session's prompts stay with it.
        if let Some(old) = state.find(id) {
            record.prompts = old.prompts.clone();
        }
        gone = state.put(record.clone());
        Ok(state)
    })?;
    for old in gone {
        if old.snapshot.is_some() && old.snapshot != kept.snapshot {
            session
                .repo
                .drop_snapshot(&SessionRecord::snapshot_name(&old.agent, &old.id))?;
        }
    }
    Ok(kept)
}

/// Record where the session's work starts; a session started again
/// (resumed, compacted, cleared) keeps the start it had.
fn session_start(global: &GlobalArgs, agent: Agent, payload: &Payload) -> Result<Reply> {
    let run = run_args(global, payload);
    let session = state_only(&run)?;
    let known = records(&session).read::<AgentState>()?.unwrap_or_default();
    // Whatever the source says: a session that has its snapshot keeps it,
    // so a second start (a `/clear` in the same session, or one the agent
    // sends itself) cannot make the agent's own work the person's.
    let resumed = known
        .find(&payload.session)
        .is_some_and(|s| s.snapshot.as_deref().is_some_and(|r| session.repo.commit_exists(r)));
    let started = if resumed {
        None
    } else {
        Some(begin(&session, agent, &payload.session, false)?)
    };
    // The gates as the stop will run them: by the snapshot's config, which
    // is the working tree's now, the person's uncommitted edits included
    // (not held to HEAD's bar, as a local run reads it).
    let gates = match &started {
        Some(_) => stop_gates(&state_only(&GlobalArgs {
            enforce: false,
            ..run.clone()
        })?),
        None => stop_gates(&session),
    };
    let context = format!(
        "loki-gate gates this session's \"done\". When you stop after changing files, your changes since \
         the session started must pass {}: the tests green and run, tests that check what the code does \
         (no hollow or skipped tests, no expectation bent to fit the code), and nothing that lowers the bar \
         (a suppression, a linter or test-runner config edit, a skipped test) unless a person acknowledges it. \
         What was in the working tree before the session is the user's, not yours.",
        if gates.is_empty() {
            "no gate (agent-gates enables none)".to_string()
        } else {
            gates.join(", ")
        }
    );
    let tell = match &started {
        Some(record) => persons_own_waivers(&run, record)?,
        None => None,
    };
    Ok(Reply {
        answer: Answer::Context(context),
        tell,
    })
}

/// What the person's own uncommitted changes at the session's start add to
/// lower the bar, against HEAD: the agent is not held to them (they are
/// the snapshot's), but pre-push and CI are. `None` when there are none.
fn persons_own_waivers(run: &GlobalArgs, record: &SessionRecord) -> Result<Option<String>> {
    let Some(anchor) = &record.anchor else {
        return Ok(None);
    };
    let head = Session::open(
        &GlobalArgs {
            base: Some(anchor.clone()),
            ..run.clone()
        },
        &env_var,
        false,
    )?;
    if record.start_tree.as_deref() == Some(head.repo.tree_id(anchor)?.as_str()) {
        return Ok(None);
    }
    let findings = head.judge.findings(&head.waivers);
    if findings.is_empty() {
        return Ok(None);
    }
    let mut said: Vec<String> = findings
        .iter()
        .take(5)
        .map(|f| match (&f.path, f.line) {
            (Some(p), Some(l)) => format!("{p}:{l}"),
            (Some(p), None) => p.clone(),
            _ => f.message.clone(),
        })
        .collect();
    if findings.len() > 5 {
        said.push(format!("{} more", findings.len() - 5));
    }
    Ok(Some(format!(
        "loki-gate: your uncommitted changes lower the bar ({}). This session's agent is judged from them as they are; \
         commit them, and pre-push and CI judge them against the base (`loki-gate check` shows why).",
        said.join(", ")
    )))
}

/// Keep what the person asked. A prompt in a session loki-gate did not see
/// start (its hooks came mid-session) starts its record: the agent's work
/// is judged from here.
fn prompt(global: &GlobalArgs, agent: Agent, payload: &Payload) -> Result<Reply> {
    let Some(text) = payload.prompt.as_deref() else {
        return Ok(Answer::Allow.into());
    };
    let run = run_args(global, payload);
    let session = state_only(&run)?;
    let known = records(&session).read::<AgentState>()?.unwrap_or_default();
    if known.find(&payload.session).is_none() {
        begin(&session, agent, &payload.session, true)?;
    }
    let id = payload.session.clone();
    records(&session).update::<AgentState>(|state| {
        let mut state = state.unwrap_or_default();
        if let Some(record) = state.find_mut(&id) {
            record.push_prompt(text);
        }
        Ok(state)
    })?;
    Ok(Answer::Allow.into())
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

/// Update `id`'s record in `session`'s state.
fn update_record(session: &Session, id: &str, change: impl FnOnce(&mut SessionRecord)) -> Result<SessionRecord> {
    let mut out = None;
    records(session).update::<AgentState>(|state| {
        let mut state = state.unwrap_or_default();
        if let Some(record) = state.find_mut(id) {
            change(record);
            out = Some(record.clone());
        }
        Ok(state)
    })?;
    out.ok_or_else(|| anyhow!("session {id} is no longer in agent.json (another session pushed it out)"))
}

/// Gate the session's work: let the agent stop, block it with what to fix,
/// or, when it is stuck, let it stop and hand the work to a person.
fn stop(global: &GlobalArgs, agent: Agent, payload: &Payload) -> Result<Reply> {
    // Cursor also calls the hook when the user aborted or the run failed:
    // only a finished run claims "done".
    if payload.status.as_deref().is_some_and(|s| s != "completed") {
        return Ok(Answer::Allow.into());
    }
    let mut run = run_args(global, payload);
    let probe = state_only(&run)?;
    let known = records(&probe).read::<AgentState>()?.unwrap_or_default();
    let mut tell = Vec::new();
    let record = match known.find(&payload.session) {
        Some(record) => record.clone(),
        None => {
            // Hooks added mid-session: the work is judged from HEAD.
            let head = probe.repo.head()?;
            let mut record = SessionRecord::new(&payload.session, agent, head.clone());
            record.unseen_start = true;
            record.start_tree = match &head {
                Some(head) => Some(probe.repo.tree_id(head)?),
                None => None,
            };
            let kept = record.clone();
            records(&probe).update::<AgentState>(|state| {
                let mut state = state.unwrap_or_default();
                state.put(kept);
                Ok(state)
            })?;
            tell.push(format!(
                "loki-gate did not see this {} session start (its hooks were added or trusted since): \
                 its work is judged from HEAD, uncommitted changes included.",
                protocol::display(agent)
            ));
            record
        }
    };
    // The stop after a handoff: the agent was asked to tell the person and
    // end its turn; let it.
    if record.relaying {
        update_record(&probe, &payload.session, |r| r.relaying = false)?;
        return Ok(reply(Answer::Allow, tell));
    }
    // The work since the session's snapshot (HEAD when loki-gate did not
    // see the session start).
    if run.base.is_none() {
        run.base = match (&record.snapshot, &record.anchor) {
            (Some(snapshot), _) if probe.repo.commit_exists(snapshot) => Some(snapshot.clone()),
            (Some(_), anchor) => {
                tell.push(
                    "loki-gate: this session's snapshot is gone (git gc, or deleted): its work is judged from the commit it started at."
                        .to_string(),
                );
                anchor.clone().filter(|c| probe.repo.commit_exists(c))
            }
            (None, anchor) => anchor.clone().filter(|c| probe.repo.commit_exists(c)),
        };
    }
    drop(probe);
    // loki-gate's variables in the hook's environment are the agent's to
    // set (its settings' `env`): the stop reads none of them, and says so.
    let ignored = loki_gate_vars();
    if !ignored.is_empty() {
        tell.push(format!(
            "loki-gate ignored {} in {}'s stop (the agent's settings can set them): put what you mean in .loki-gate.yaml.",
            ignored.join(", "),
            protocol::display(agent)
        ));
    }
    run.agent_stop = true;
    // Opened on the snapshot, the session has written the working tree's
    // tree already (the change it collected): the idle check reads it.
    let mut session = Session::open(&run, &without_loki_gate_vars, false)?;
    let now_tree = session.repo.worktree_tree(&session.skip_dirs)?;
    // Not a "done" claim: nothing changed since the session started, or
    // since the last stop let through (a question answered, a plan, work
    // undone). Let through, not counted.
    let idle = if record.start_tree.as_deref() == Some(now_tree.as_str()) {
        Some("nothing changed since the session started")
    } else if record.passed_tree.as_deref() == Some(now_tree.as_str()) {
        Some("nothing changed since the last stop it let through")
    } else {
        None
    };
    if let Some(idle) = idle {
        let after_block = record.blocks > 0;
        let first = !record.told_idle;
        update_record(&session, &payload.session, |r| {
            r.blocks = 0;
            r.stops.clear();
            r.told_idle = true;
        })?;
        if after_block {
            tell.push(format!(
                "loki-gate let {} stop: the work it blocked was undone ({idle}).",
                protocol::display(agent)
            ));
        } else if first {
            tell.push(format!(
                "loki-gate: {idle}, so this stop claims nothing done; it is let through (said once a session)."
            ));
        }
        return Ok(reply(Answer::Allow, tell));
    }
    strict(&mut session)?;
    let gates = stop_gates(&session);
    let (session, reports) = judge_within_deadline(&run, session, &gates)?;
    let stream = check::Stream::new(&run);
    let blocked = reports
        .iter()
        .any(|r| matches!(r.outcome, Outcome::Blocked | Outcome::Error));
    if !blocked {
        update_record(&session, &payload.session, |r| {
            r.blocks = 0;
            r.stops.clear();
            r.passed_tree = Some(now_tree.clone());
        })?;
        return Ok(reply(Answer::Allow, tell));
    }
    let fix_next = report::agent::render(&reports);
    let files = session
        .collected()
        .map(|c| c.files.iter().map(|f| git::display_path(&f.path)).collect())
        .unwrap_or_default();
    let stop = StopRecord {
        at: now(),
        tree: now_tree,
        findings: report::agent::blocking_lines(&reports),
        signature: report::agent::signature(&reports),
        files,
    };
    let record = update_record(&session, &payload.session, |r| {
        r.blocks += 1;
        r.push_stop(stop);
    })?;
    // A round of stuck detection for each blocked stop.
    let max = session.config.agent_max_blocks().max(1);
    let no_progress = session.config.agent_no_progress().max(2);
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
    let same = record.same_findings() as u64;
    // Why, for the person (with the numbers) and for the model (without).
    let why = if same >= no_progress {
        Some((
            format!("no progress: the same findings blocked its last {same} stops (agent-no-progress: {no_progress})"),
            "it stopped making progress",
        ))
    } else if stuck {
        let signs: Vec<&str> = rounds
            .iter()
            .flat_map(|r| &r.findings)
            .map(|f| f.message.as_str())
            .collect();
        Some((
            format!("it looks stuck ({})", signs.join("; ")),
            "it went round in circles",
        ))
    } else if record.blocks > max {
        Some((
            format!(
                "its stop was blocked {} times in a row (agent-max-blocks: {max})",
                record.blocks
            ),
            "it was blocked too many times in a row",
        ))
    } else {
        None
    };
    if let Some((why, plainly)) = why {
        let (relay, told) = hand_off(&session, agent, &record, (&why, plainly), &fix_next)?;
        tell.push(told);
        return Ok(reply(Answer::Block(relay), tell));
    }
    Ok(reply(Answer::Block(fix_next), tell))
}

/// Run `gates` on `session`'s change within `agent-stop-deadline`: past it,
/// what the run started is killed and the stop is one loki-gate could not
/// judge (an error: the stop is blocked, see [`failing`]), never a pass
/// the agent's own hook timeout would give.
fn judge_within_deadline(run: &GlobalArgs, session: Session, gates: &[String]) -> Result<(Session, Vec<GateReport>)> {
    if gates.is_empty() {
        return Ok((session, Vec::new()));
    }
    let deadline = session.config.agent_stop_deadline();
    let (tx, rx) = std::sync::mpsc::channel();
    let (run, names) = (run.clone(), gates.to_vec());
    std::thread::spawn(move || {
        let stream = check::Stream::new(&run);
        let args = cli::CheckArgs {
            gates: names,
            listed: true,
            ..Default::default()
        };
        let reports = check::gate_reports(&run, &session, &args, &stream);
        let _ = tx.send((session, reports));
    });
    match rx.recv_timeout(deadline) {
        Ok(done) => Ok(done),
        Err(_) => {
            crate::interrupt::cut();
            Err(anyhow!(
                "it ran out of time: {} did not finish within agent-stop-deadline ({} s), and what they had started was stopped",
                gates.join(", "),
                deadline.as_secs()
            ))
        }
    }
}

/// The environment as the stop reads it: without loki-gate's own variables.
fn without_loki_gate_vars(name: &str) -> Option<String> {
    if name.starts_with("LOKI_GATE_") {
        None
    } else {
        env_var(name)
    }
}

/// loki-gate's variables set in this process's environment that would
/// change a verdict (the state directory and the cache switch do not).
fn loki_gate_vars() -> Vec<String> {
    let mut names: Vec<String> = std::env::vars_os()
        .filter_map(|(name, _)| name.into_string().ok())
        .filter(|n| n.starts_with("LOKI_GATE_") && n != "LOKI_GATE_STATE_DIR" && n != "LOKI_GATE_NO_CACHE")
        .collect();
    names.sort();
    names
}

/// `answer`, with the lines of `tell` for the person (none: nothing).
fn reply(answer: Answer, tell: Vec<String>) -> Reply {
    Reply {
        answer,
        tell: (!tell.is_empty()).then(|| tell.join("\n")),
    }
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

/// Hand the work to a person: the handoff in the state directory, the
/// GitHub issue where a token is set. Returns what the agent is asked to
/// relay (one last block: a headless `claude -p` or `codex exec` prints
/// only the model's last words, Cursor shows nothing else) and what the
/// person is told where the agent shows it; the stop after goes through.
fn hand_off(
    session: &Session,
    agent: Agent,
    record: &SessionRecord,
    (why, plainly): (&str, &str),
    fix_next: &str,
) -> Result<(String, String)> {
    let path = session.store.dir().join(gates::uncertainty::HANDOFF);
    let text = handoff::text(agent, record, why, fix_next);
    session.store.prepare()?;
    crate::state::write_atomic(&path, text.as_bytes())?;
    let record = update_record(session, &record.id, |r| {
        r.blocks = 0;
        r.handoffs += 1;
        r.stops.clear();
        r.relaying = true;
    })?;
    // The issue, in GitHub Actions (or wherever its variables are set).
    if env_var("GITHUB_REPOSITORY").is_some_and(|r| !r.is_empty()) {
        post_handoff_text(
            session,
            &format!("{} session {}", agent.name(), short(&record.id)),
            &format!("session={}-{}", short(&record.id), record.handoffs),
            &text,
        );
    }
    let told = format!(
        "loki-gate let {} stop: {why}. The work is handed to you: {} (what was asked, each blocked stop, your options). \
         To stop gating {} here: loki-gate hook uninstall --agent {}",
        protocol::display(agent),
        path.display(),
        protocol::display(agent),
        agent.name()
    );
    let relay = format!(
        "loki-gate has handed this work to the user: it is not done, and it is theirs to decide now. \
         Do not change any file. End your turn with a short message to the user saying that loki-gate handed \
         the work to them because {plainly}, that {} says what was asked, each blocked stop and their \
         options, and list what still blocks in a line or two.",
        path.display()
    );
    Ok((relay, told))
}

/// The first 12 characters of a session id (any text an agent sends: cut
/// at a character, never inside one).
pub(super) fn short(id: &str) -> &str {
    id.char_indices().nth(12).map_or(id, |(end, _)| &id[..end])
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
