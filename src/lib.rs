//! loki-gate: quality gates for git hooks and CI.
//!
//! `run` is the one dispatch point; `main.rs` only parses and maps the exit
//! status. Modules are public so tests and benches can call them.

pub mod baseline;
pub mod cache;
pub mod changed;
pub mod checkout;
pub mod cli;
pub mod commands;
pub mod config;
pub mod exit;
pub mod finding;
pub mod formats;
pub mod gates;
pub mod git;
pub mod github;
pub mod hooks;
pub mod init;
pub mod interrupt;
pub mod lang;
pub mod mapped;
pub mod meta;
pub mod paths;
pub(crate) mod platform;
pub mod process;
pub mod report;
pub mod rule;
pub mod settings;
pub mod state;
pub mod suppress;
pub mod trust;
pub mod verdict;
pub mod walk;
pub mod wording;

use anyhow::Result;

use cli::{Cli, Command, EvidenceAction, HeldoutAction, HookAction};
use commands::gate::{GateCall, run_gate};
use exit::ExitStatus;

/// Run one command line to completion.
pub fn run(cli: Cli) -> Result<ExitStatus> {
    let global = &cli.global;
    if global.statistics
        && !matches!(
            global.format,
            cli::Format::Text | cli::Format::Concise | cli::Format::Json
        )
    {
        anyhow::bail!("--statistics counts findings in text, concise or json: drop --format, or --statistics");
    }
    if global.show_settings {
        let gate = match &cli.command {
            Command::Static(_) => Some("static"),
            Command::Evidence(_) => Some("evidence"),
            Command::Mock(_) => Some("mock"),
            Command::Mutation(_) => Some("mutation"),
            Command::Docs(_) => Some("docs"),
            Command::Heldout(_) => Some("heldout"),
            Command::Council(_) => Some("council"),
            Command::Uncertainty => Some("uncertainty"),
            Command::Check(_) | Command::Hook { .. } => None,
            _ => anyhow::bail!("--show-settings goes with a gate or `check`"),
        };
        return commands::settings::show(global, gate);
    }
    match &cli.command {
        Command::Rules { gate } => commands::rules::rules(global, gate.as_deref()),
        Command::Explain { rule } => commands::explain::explain(global, rule),
        Command::Init { force, hooks, agents } => commands::init::init(global, *force, *hooks, agents),
        Command::Agent(args) => commands::agent::agent(global, args),
        Command::Hook { action } => match action {
            HookAction::Install { hooks } => commands::hook::hook_install(global, hooks, true),
            HookAction::Uninstall { hooks, agents } if !agents.is_empty() => {
                let _ = hooks;
                commands::init::uninstall_agents(global, agents)
            }
            HookAction::Uninstall { hooks, .. } => commands::hook::hook_install(global, hooks, false),
            HookAction::Run {
                hook,
                gates,
                files,
                remote,
            } => commands::hook::hook_run(global, *hook, gates, files, remote.as_deref()),
        },
        Command::Evidence(args) => match args.action {
            Some(EvidenceAction::Start) => commands::evidence::start(global),
            None => run_gate(global, GateCall::Evidence(args)),
        },
        Command::Static(args) => commands::gate::run_gate_on(global, GateCall::Static(args), &args.paths),
        Command::Mock(paths) => commands::gate::run_gate_on(global, GateCall::Mock, paths),
        Command::Docs(paths) => commands::gate::run_gate_on(global, GateCall::Docs, paths),
        Command::Heldout(args) => match &args.action {
            Some(HeldoutAction::Select { checklist, into, force }) => {
                commands::heldout::heldout_select(global, checklist, into, *force)
            }
            None => run_gate(global, GateCall::Heldout(args)),
        },
        Command::Uncertainty => run_gate(global, GateCall::Uncertainty),
        Command::Council(args) => run_gate(global, GateCall::Council(args)),
        Command::Mutation(args) => run_gate(global, GateCall::Mutation(args)),
        Command::Check(args) => commands::check::run_check(global, args),
        Command::Completions { shell } => commands::completions::completions(*shell),
        Command::Man => commands::completions::man(),
        Command::Schema => commands::completions::schema(),
        Command::Comment { reports } => commands::comment::comment(reports),
        Command::Render { reports } => commands::render::render(global, reports),
    }
}
