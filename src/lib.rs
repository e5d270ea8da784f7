//! loki-gate: quality gates for git hooks and CI.
//!
//! `run` is the one dispatch point; `main.rs` only parses and maps the exit
//! status. Modules are public so tests and benches can call them.

pub mod baseline;
pub mod cache;
pub mod changed;
pub mod cli;
pub mod config;
pub mod exit;
pub mod finding;
pub mod gates;
pub mod git;
pub mod interrupt;
pub mod lang;
pub mod meta;
pub mod process;
pub mod report;
pub mod rule;
pub mod settings;
pub mod state;
pub mod suppress;
pub mod walk;

use std::time::Instant;

use anyhow::{Result, anyhow};

use cli::{Cli, Command, EvidenceAction, Format, GlobalArgs, HeldoutAction};
use exit::ExitStatus;
use gates::{Context, Pipeline, evidence};
use report::{GateReport, Outcome, Style};
use settings::Session;

/// Read an environment variable as the config layer sees it.
fn env_var(name: &str) -> Option<String> {
    std::env::var(name).ok()
}

/// Run one command line to completion.
pub fn run(cli: Cli) -> Result<ExitStatus> {
    match &cli.command {
        Command::Rules => {
            report::emit(&render_rules(cli.global.format), cli.global.output.as_deref())?;
            Ok(ExitStatus::Pass)
        }
        Command::Explain { rule } => {
            let meta = rule::resolve(rule)
                .ok_or_else(|| anyhow!("unknown rule `{rule}`: run `loki-gate rules` to list rule ids"))?;
            report::emit(meta.doc, cli.global.output.as_deref())?;
            Ok(ExitStatus::Pass)
        }
        Command::Init { force } => init(&cli.global, *force),
        Command::Evidence(args) => {
            if let Some(EvidenceAction::Start) = args.action {
                let session = Session::open(&cli.global, &env_var, false)?;
                let anchor = evidence::start(&context(&session))?;
                if !cli.global.quiet {
                    report::status(&format!(
                        "loki-gate: run start recorded at {}",
                        evidence::describe(&anchor)
                    ));
                }
                return Ok(ExitStatus::Pass);
            }
            run_gate(&cli.global, "evidence", |session, cx, levels| {
                let settings = evidence::settings::Settings::resolve(
                    session.config.section("evidence"),
                    args,
                    session.repo.root(),
                    &session.cwd,
                )?;
                evidence::adjust_levels(levels, &settings);
                evidence::run(cx, &settings)
            })
        }
        Command::Static(args) => run_gate(&cli.global, "static", |session, cx, _| {
            let settings = gates::static_analysis::settings::Settings::resolve(session.config.section("static"), args)?;
            gates::static_analysis::run(cx, &settings)
        }),
        Command::Mock => run_gate(&cli.global, "mock", |session, cx, _| {
            let settings = gates::mock::settings::Settings::resolve(session.config.section("mock"));
            gates::mock::run(cx, &settings)
        }),
        Command::Docs => run_gate(&cli.global, "docs", |session, cx, _| {
            let settings = gates::docs::settings::Settings::resolve(session.config.section("docs"))?;
            gates::docs::run(cx, &settings)
        }),
        Command::Heldout(args) => {
            if let Some(HeldoutAction::Select { checklist, into }) = &args.action {
                let session = Session::open(&cli.global, &env_var, false)?;
                let selection = gates::heldout::select(
                    &context(&session),
                    &session.cwd.join(checklist),
                    &session.cwd.join(into),
                )?;
                if !cli.global.quiet {
                    report::status(&if selection.already {
                        format!(
                            "loki-gate: the held-out checks were selected before ({} of {}); nothing was reselected",
                            selection.reserved, selection.total
                        )
                    } else if selection.reserved == 0 {
                        format!(
                            "loki-gate: {} check(s) in the checklist: fewer than 4, so none is held out",
                            selection.total
                        )
                    } else {
                        format!(
                            "loki-gate: held out {} of {} checks into {}; the checklist keeps the other {}",
                            selection.reserved,
                            selection.total,
                            into.display(),
                            selection.total - selection.reserved
                        )
                    });
                }
                return Ok(ExitStatus::Pass);
            }
            run_gate(&cli.global, "heldout", |session, cx, levels| {
                let settings = gates::heldout::settings::Settings::resolve(
                    session.config.section("heldout"),
                    args,
                    session.repo.root(),
                    &session.cwd,
                );
                gates::heldout::adjust_levels(levels, &settings);
                gates::heldout::run(cx, &settings)
            })
        }
        Command::Uncertainty => run_gate(&cli.global, "uncertainty", |session, cx, _| {
            let knobs = gates::uncertainty::settings::knobs(session.config.section("uncertainty"));
            gates::uncertainty::run(cx, &knobs, &env_var)
        }),
        Command::Council(args) => run_gate(&cli.global, "council", |session, cx, _| {
            let settings = gates::council::settings::Settings::resolve(session.config.section("council"), args)?;
            gates::council::run(cx, &settings, &env_var)
        }),
        Command::Mutation(args) => run_gate(&cli.global, "mutation", |session, cx, _| {
            let settings = gates::mutation::settings::Settings::resolve(
                session.config.section("mutation"),
                session.config.section("mock"),
                args,
            );
            gates::mutation::run(cx, &settings)
        }),
    }
}

fn context(session: &Session) -> Context<'_> {
    Context {
        repo: &session.repo,
        config: &session.config,
        store: &session.store,
        scope: &session.scope,
        exclude: session.exclude.clone(),
        skip_dirs: session.skip_dirs.clone(),
        cache: !session.no_cache,
    }
}

/// Open the session and run one gate through the shared pipeline. A gate
/// disabled in config checks nothing and says so.
fn run_gate(
    global: &GlobalArgs,
    gate: &'static str,
    body: impl FnOnce(&Session, &Context<'_>, &mut rule::Levels) -> Result<gates::GateOutput>,
) -> Result<ExitStatus> {
    // `mutation` gates what a shallow clone has when its base is missing.
    let session = Session::open(global, &env_var, gate == "mutation")?;
    let started = Instant::now();
    let mut levels = session.levels.clone();
    let result = if session.config.section(gate).bool("enabled") {
        body(&session, &context(&session), &mut levels)
    } else {
        Ok(gates::GateOutput {
            notices: vec![format!(
                "the {gate} gate is disabled (gates.{gate}.enabled: false); nothing was checked"
            )],
            ..gates::GateOutput::default()
        })
    };
    finish_gate(gate, result, started, &session, &levels, global)
}

/// Shared tail of every gate command: pipeline, baseline, render, exit status.
fn finish_gate(
    gate: &'static str,
    result: Result<gates::GateOutput>,
    started: Instant,
    session: &Session,
    levels: &rule::Levels,
    global: &GlobalArgs,
) -> Result<ExitStatus> {
    let output = match result {
        Ok(output) => output,
        Err(err) => {
            // Scripts reading a machine format still get a report saying why.
            if global.format != Format::Text {
                let failed = GateReport {
                    gate,
                    outcome: Outcome::Error,
                    findings: Vec::new(),
                    files: 0,
                    elapsed_ms: u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX),
                    notices: Vec::new(),
                    inconclusive: None,
                    suppressed: 0,
                    baselined: 0,
                    error: Some(format!("{err:#}")),
                };
                let rendered = report::render(global.format, &[failed], style(global));
                report::emit(&rendered, global.output.as_deref())?;
            }
            return Err(err);
        }
    };
    let baseline = match &global.baseline {
        Some(path) => Some(baseline::Baseline::load(&session.cwd.join(path))?),
        None => None,
    };
    let pipeline = Pipeline {
        root: session.repo.root(),
        levels,
        baseline: baseline.as_ref(),
    };
    let report = pipeline.finish(gate, output, started.elapsed());
    let rendered = report::render(global.format, std::slice::from_ref(&report), style(global));
    report::emit(&rendered, global.output.as_deref())?;
    if let Some(path) = &global.write_baseline {
        let path = session.cwd.join(path);
        baseline::Baseline::from_findings(&report.findings).save(&path)?;
        if !global.quiet {
            report::status(&format!(
                "loki-gate: wrote {} finding fingerprint(s) to {}",
                report.findings.len(),
                path.display()
            ));
        }
        return Ok(ExitStatus::Pass);
    }
    Ok(match report.outcome {
        Outcome::Blocked => ExitStatus::Blocked,
        Outcome::Error => ExitStatus::Error,
        Outcome::Pass | Outcome::Inconclusive => ExitStatus::Pass,
        Outcome::Escalated => ExitStatus::Escalated,
    })
}

fn style(global: &GlobalArgs) -> Style {
    let to_terminal = global.output.is_none() && report::stdout_is_terminal();
    let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
    Style {
        color: report::use_color(global.color, to_terminal, no_color),
        quiet: global.quiet,
        verbose: global.verbose,
    }
}

fn render_rules(format: Format) -> String {
    let rules = rule::all();
    if format == Format::Json {
        let list: Vec<_> = rules
            .iter()
            .map(|r| {
                serde_json::json!({"id": r.id, "gate": r.gate, "default_level": r.default_level.to_string(), "summary": r.summary})
            })
            .collect();
        let mut out = serde_json::to_string_pretty(&list).expect("rules serialize");
        out.push('\n');
        return out;
    }
    let width = rules.iter().map(|r| r.id.len()).max().unwrap_or(0);
    rules
        .iter()
        .map(|r| format!("{:width$}  {:5}  {}\n", r.id, r.default_level.to_string(), r.summary))
        .collect()
}

fn init(global: &GlobalArgs, force: bool) -> Result<ExitStatus> {
    let cwd = std::env::current_dir()?;
    let start = global.repo.as_ref().map_or_else(|| cwd.clone(), |r| cwd.join(r));
    let path = match &global.config {
        Some(p) => cwd.join(p),
        None => {
            let root = git::Repo::discover(&start)
                .map(|r| r.root().to_path_buf())
                .unwrap_or(start);
            root.join(config::FILE_NAMES[0])
        }
    };
    if path.exists() && !force {
        return Err(anyhow!(
            "{} already exists: edit it, or pass --force to overwrite it",
            path.display()
        ));
    }
    state::write_atomic(&path, config::template().as_bytes())?;
    if !global.quiet {
        report::status(&format!("loki-gate: wrote {}", path.display()));
    }
    Ok(ExitStatus::Pass)
}
