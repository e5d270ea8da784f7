//! The commands, one file each: each reads its command-line arguments,
//! opens the session, runs its gates and emits the report. What they share
//! (the run pipeline from a gate's output to its report, the session's
//! context, the sticky comment) is here.

pub mod agent;
pub mod check;
pub mod comment;
pub mod completions;
pub mod evidence;
pub mod explain;
pub mod gate;
pub mod heldout;
pub mod hook;
pub mod init;
pub mod render;
pub mod rules;
pub mod settings;

use std::time::Instant;

use anyhow::{Result, anyhow};

use crate::cli::{Format, GlobalArgs, Hook};
use crate::exit::ExitStatus;
use crate::gates::{Context, Pipeline};
use crate::report::{GateReport, Outcome, Style};
use crate::settings::{Session, start_dir};
use crate::{baseline, changed, cli, config, finding, gates, git, github, hooks, report, rule, state, trust};

/// Read an environment variable as the config layer sees it.
pub(crate) fn env_var(name: &str) -> Option<String> {
    std::env::var(name).ok()
}

pub(crate) fn context(session: &Session) -> Context<'_> {
    Context {
        repo: &session.repo,
        config: &session.config,
        store: &session.store,
        scope: &session.scope,
        exclude: session.exclude.clone(),
        skip_dirs: session.skip_dirs.clone(),
        cache: !session.no_cache,
        path_only: session.path_only,
        judge: &session.judge,
        collected: session.collected(),
    }
}

/// `gate`'s output with the config keys the change lowered that weaken it
/// ([`trust::config::hold_config`]); `top`: this gate also carries the top-level
/// keys and the notes, once per run.
pub(crate) fn with_held(
    result: Result<gates::GateOutput>,
    (held, notes): (&[trust::waiver::Waiver], &[String]),
    gate: &str,
    top: bool,
) -> Result<gates::GateOutput> {
    result.map(|mut out| {
        out.waivers.extend(
            held.iter()
                .filter(|w| trust::config::gate_of(w).map_or(top, |g| g == gate))
                .cloned(),
        );
        if top {
            out.notices.extend(notes.iter().cloned());
        }
        out
    })
}

pub(crate) fn disabled(gate: &str) -> gates::GateOutput {
    gates::GateOutput {
        notices: vec![format!(
            "the {gate} gate is disabled (gates.{gate}.enabled: false); nothing was checked"
        )],
        ..gates::GateOutput::default()
    }
}

/// The gate's master switch, `LOKI_GATE_<GATE>=0`, turns it off wherever it
/// is asked for, before it reads anything: an outcome of its own
/// (`inconclusive`), said in the report, never a silent pass.
pub(crate) fn switched_off(gate: &str) -> Option<gates::GateOutput> {
    let var = format!("LOKI_GATE_{}", gate.to_ascii_uppercase());
    let off = env_var(&var).is_some_and(|v| v.trim() == "0");
    off.then(|| {
        let why = format!("{gate} is off ({var}=0): nothing was checked, no state was read or written");
        gates::GateOutput {
            inconclusive: Some(why.clone()),
            notices: vec![why],
            ..gates::GateOutput::default()
        }
    })
}

/// The report of one gate's result: the shared pipeline, or an `error`
/// report saying why it could not run, with the error.
pub(crate) fn gate_report(
    gate: &'static str,
    result: Result<gates::GateOutput>,
    started: Instant,
    root: &std::path::Path,
    levels: &rule::Levels,
    baseline: Option<&baseline::Baseline>,
    judge: &trust::Judge,
) -> (GateReport, Option<anyhow::Error>) {
    match result {
        Ok(output) => {
            let pipeline = Pipeline {
                root,
                levels,
                baseline,
                judge,
            };
            (pipeline.finish(gate, output, started.elapsed()), None)
        }
        Err(err) => (
            GateReport {
                gate,
                outcome: Outcome::Error,
                findings: Vec::new(),
                files: 0,
                elapsed_ms: u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX),
                notices: Vec::new(),
                inconclusive: None,
                suppressed: 0,
                baselined: 0,
                at_base: 0,
                error: Some(report::describe(&err)),
                coverage: None,
                waivers: Vec::new(),
            },
            Some(err),
        ),
    }
}

/// Shared tail of every gate command: pipeline, baseline, render, exit status.
pub(crate) fn finish_gate(
    gate: &'static str,
    result: Result<gates::GateOutput>,
    started: Instant,
    session: &Session,
    levels: &rule::Levels,
    global: &GlobalArgs,
) -> Result<ExitStatus> {
    let report = match gate_report(
        gate,
        result,
        started,
        session.repo.root(),
        levels,
        session.baseline.as_ref(),
        &session.judge,
    ) {
        (report, None) => report,
        (failed, Some(err)) => {
            // Scripts reading a machine format still get a report saying why.
            if global.format != Format::Text {
                let rendered = report::render(global.format, &[failed], style(global));
                report::emit(&rendered, global.output.as_deref())?;
            }
            return Err(err);
        }
    };
    emit_reports(global, session, std::slice::from_ref(&report), false, false)
}

/// Render and write the reports (or the baseline), and the exit status of
/// the worst outcome. `streamed`: each gate's section is printed already
/// (`check` prints them as they finish); only the verdict line is left.
/// `envelope`: `check`'s report, in the several-gates shape even for one.
pub(crate) fn emit_reports(
    global: &GlobalArgs,
    session: &Session,
    reports: &[GateReport],
    streamed: bool,
    envelope: bool,
) -> Result<ExitStatus> {
    // A passing hook says one line per gate, as pre-commit and lefthook
    // hooks do; `-v` shows the rest.
    let (status, why) = exit_status(global, reports);
    let quiet_pass = global.hook.is_some()
        && !global.verbose
        && matches!(global.format, Format::Text | Format::Concise)
        && status == ExitStatus::Pass;
    let rendered = if quiet_pass {
        report::text::summaries(reports, style(global))
    } else if streamed {
        report::text::verdict_line(reports, style(global))
    } else {
        report::render(
            global.format,
            reports,
            Style {
                envelope,
                ..style(global)
            },
        )
    };
    report::emit(&rendered, global.output.as_deref())?;
    if global.comment {
        post_comment(reports);
        if reports.iter().any(|r| r.outcome == Outcome::Escalated) {
            post_handoff(session);
        }
    }
    if let Some(path) = &global.write_baseline {
        let path = session.cwd.join(path);
        let findings: Vec<finding::Finding> = reports.iter().flat_map(|r| r.findings.iter().cloned()).collect();
        baseline::Baseline::from_findings(&findings).save(&path)?;
        if !global.quiet {
            report::status(&format!(
                "loki-gate: wrote {} finding fingerprint(s) to {}",
                findings.len(),
                path.display()
            ));
        }
        return Ok(ExitStatus::Pass);
    }
    if let Some(why) = why
        && !global.quiet
    {
        report::status(&format!("loki-gate: {why}"));
    }
    Ok(status)
}

/// The exit status of `reports` under `--fail-level` and `--exit-zero`,
/// and a line saying so when either changed it.
pub(crate) fn exit_status(global: &GlobalArgs, reports: &[GateReport]) -> (ExitStatus, Option<String>) {
    let judged = match report::json::combined(reports) {
        Outcome::Blocked => ExitStatus::Blocked,
        Outcome::Error => ExitStatus::Error,
        Outcome::Pass | Outcome::Inconclusive => ExitStatus::Pass,
        Outcome::Escalated => ExitStatus::Escalated,
    };
    if global.exit_zero && matches!(judged, ExitStatus::Blocked | ExitStatus::Escalated) {
        let why = format!("exit 0 instead of {} (--exit-zero)", judged.code());
        return (ExitStatus::Pass, Some(why));
    }
    let least = match global.fail_level {
        Some(cli::FailLevel::Warning) => finding::Severity::Warning,
        Some(cli::FailLevel::Note) => finding::Severity::Note,
        Some(cli::FailLevel::Error) | None => return (judged, None),
    };
    let counted = reports
        .iter()
        .flat_map(|r| &r.findings)
        .filter(|f| f.severity >= least)
        .count();
    if judged == ExitStatus::Pass && counted > 0 {
        let level = least.as_str();
        let why = format!(
            "exit 1: {} at {level} level or above (--fail-level {level})",
            crate::wording::plural(counted, "finding")
        );
        return (ExitStatus::Blocked, Some(why));
    }
    (judged, None)
}

/// `paths` (from the command line, relative to the current directory) as
/// repo-relative paths, sorted and without repeats.
pub(crate) fn repo_relative(repo: &git::Repo, paths: &[std::path::PathBuf]) -> Result<Vec<std::path::PathBuf>> {
    let cwd = std::env::current_dir().map_err(|e| anyhow!("could not read the current directory: {e}"))?;
    let cwd = cwd.canonicalize().unwrap_or(cwd);
    let mut out = Vec::new();
    for path in paths {
        let absolute = cwd.join(path);
        // A symlink is named by where it is, not by where it points.
        let inside = absolute
            .strip_prefix(repo.root())
            .map(std::path::Path::to_path_buf)
            .ok();
        let inside = inside
            .or_else(|| git::relative_to(repo.root(), &absolute))
            .ok_or_else(|| {
                anyhow!(
                    "{} is outside the repository at {}: pass files inside it",
                    path.display(),
                    repo.root().display()
                )
            })?;
        out.push(inside);
    }
    out.sort();
    out.dedup();
    Ok(out)
}

/// Refuse a gate name that is not one.
pub(crate) fn check_gate_names(names: &[String]) -> Result<()> {
    let all = config::schema::GATE_NAMES;
    match names.iter().find(|n| !all.contains(&n.as_str())) {
        Some(name) => Err(anyhow!(
            "--gates: unknown gate `{name}`; the gates are {}",
            all.join(", ")
        )),
        None => Ok(()),
    }
}

/// The gate reports in saved JSON reports (`--format json -o F`), for
/// `comment` and `render`.
pub(crate) fn read_reports(paths: &[std::path::PathBuf]) -> Result<Vec<GateReport>> {
    let cwd = std::env::current_dir()?;
    let mut reports = Vec::new();
    for path in paths {
        let path = cwd.join(path);
        let text =
            std::fs::read_to_string(&path).map_err(|e| anyhow!("could not read the report {}: {e}", path.display()))?;
        reports.extend(report::json::parse(&text).map_err(|e| anyhow!("{}: {e}", path.display()))?);
    }
    Ok(reports)
}

pub(crate) fn style(global: &GlobalArgs) -> Style {
    let to_terminal = global.output.is_none() && report::stdout_is_terminal();
    let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
    Style {
        color: report::use_color(global.color, to_terminal, no_color),
        quiet: global.quiet,
        verbose: global.verbose,
        recording: global.write_baseline.is_some(),
        statistics: global.statistics,
        envelope: false,
    }
}

/// Post `reports` as the sticky pull request comment and append them to the
/// job summary; a failure is a warning on stderr, never a change of verdict.
pub(crate) fn post_comment(reports: &[GateReport]) {
    let body = report::markdown::render(reports);
    // The job summary takes the report too, so a skipped or failed comment loses nothing.
    if let Some(summary) = env_var("GITHUB_STEP_SUMMARY").filter(|p| !p.is_empty()) {
        let appended = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&summary)
            .and_then(|mut f| std::io::Write::write_all(&mut f, format!("{body}\n").as_bytes()));
        if let Err(e) = appended {
            report::status(&format!(
                "warning: loki-gate: could not write the job summary {summary} (GITHUB_STEP_SUMMARY): {e}"
            ));
        }
    }
    let outcome = github::GitHub::from_env(&env_var).and_then(|gh| github::upsert_comment(&gh, &body));
    match outcome {
        Ok(github::Posted::Created(id)) => {
            report::status(&format!("loki-gate: posted the pull request comment ({id})"))
        }
        Ok(github::Posted::Updated(id)) => {
            report::status(&format!("loki-gate: updated the pull request comment ({id})"))
        }
        Ok(github::Posted::Skipped(why)) => report::status(&format!("loki-gate: {why}")),
        Err(why) => report::status(&format!("warning: loki-gate: {why}; the verdict is unchanged")),
    }
}

/// On escalation, open the episode's handoff issue (or comment on it when it
/// is open already); a failure is a warning, never a change of verdict.
pub(crate) fn post_handoff(session: &Session) {
    let Ok(Some(state)) = session.store.read::<gates::uncertainty::UncertaintyState>() else {
        return;
    };
    let Some(handoff) = state.handoff else { return };
    let episode = state.memory.episodes;
    post_handoff_text(
        session,
        &format!("episode {episode}"),
        &format!("episode={episode}"),
        &handoff,
    );
}

/// Open the handoff issue of `episode` (named so in its title; `key` in its
/// hidden marker), or comment on it when it is open already, with
/// `handoff`; a failure is a warning, never a change of verdict.
pub(crate) fn post_handoff_text(session: &Session, episode: &str, key: &str, handoff: &str) {
    let branch = github::branch(&session.repo, &env_var).unwrap_or_else(|| "a detached HEAD".into());
    let marker = format!("<!-- loki-gate-handoff branch={branch} {key} -->");
    let outcome = github::GitHub::from_env(&env_var).and_then(|gh| {
        let server = env_var("GITHUB_SERVER_URL").unwrap_or_else(|| "https://github.com".into());
        let mut links = Vec::new();
        if let Some(pr) = gh.pull_request {
            links.push(format!("pull request: {server}/{}/{}/pull/{pr}", gh.owner, gh.repo));
        }
        if let Some(run) = env_var("GITHUB_RUN_ID") {
            links.push(format!("run: {server}/{}/{}/actions/runs/{run}", gh.owner, gh.repo));
        }
        let title = format!("loki-gate: stuck on {branch} ({episode})");
        github::hand_off(&gh, &title, &marker, handoff, &links)
    });
    match outcome {
        Ok(github::Handoff::Opened(n)) => report::status(&format!("loki-gate: opened the handoff issue #{n}")),
        Ok(github::Handoff::Commented(n)) => {
            report::status(&format!("loki-gate: added the handoff to the open issue #{n}"));
        }
        Err(why) => report::status(&format!(
            "warning: loki-gate: {why}; the handoff is in the state directory"
        )),
    }
}
