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
pub mod github;
pub mod hooks;
pub mod init;
pub mod interrupt;
pub mod lang;
pub mod meta;
pub mod paths;
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

use std::time::Instant;

use anyhow::{Result, anyhow};

use cli::{Cli, Command, EvidenceAction, Format, GlobalArgs, HeldoutAction, Hook, HookAction};
use exit::ExitStatus;
use gates::{Context, Pipeline, evidence};
use report::{GateReport, Outcome, Style};
use settings::{Session, start_dir};

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
            let meta = rule::resolve(gates::rules(), rule)
                .ok_or_else(|| anyhow!("unknown rule `{rule}`: run `loki-gate rules` to list rule ids"))?;
            report::emit(meta.doc, cli.global.output.as_deref())?;
            Ok(ExitStatus::Pass)
        }
        Command::Init { force, hooks } => init(&cli.global, *force, *hooks),
        Command::Hook { action } => match action {
            HookAction::Install { hooks } => hook_install(&cli.global, hooks, true),
            HookAction::Uninstall { hooks } => hook_install(&cli.global, hooks, false),
            HookAction::Run { hook, gates, files } => hook_run(&cli.global, *hook, gates, files),
        },
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
            run_gate(&cli.global, GateCall::Evidence(args))
        }
        Command::Static(args) => run_gate(&cli.global, GateCall::Static(args)),
        Command::Mock => run_gate(&cli.global, GateCall::Mock),
        Command::Docs => run_gate(&cli.global, GateCall::Docs),
        Command::Heldout(args) => {
            if let Some(HeldoutAction::Select { checklist, into, force }) = &args.action {
                return heldout_select(&cli.global, checklist, into, *force);
            }
            run_gate(&cli.global, GateCall::Heldout(args))
        }
        Command::Uncertainty => run_gate(&cli.global, GateCall::Uncertainty),
        Command::Council(args) => run_gate(&cli.global, GateCall::Council(args)),
        Command::Mutation(args) => run_gate(&cli.global, GateCall::Mutation(args)),
        Command::Check(args) => run_check(&cli.global, args),
        Command::Comment { reports } => {
            post_comment(&read_reports(reports)?);
            Ok(ExitStatus::Pass)
        }
        Command::Render { reports } => {
            let reports = read_reports(reports)?;
            report::emit(
                &report::render(cli.global.format, &reports, style(&cli.global)),
                cli.global.output.as_deref(),
            )?;
            Ok(ExitStatus::Pass)
        }
    }
}

/// One gate with its command-line arguments.
#[derive(Clone, Copy)]
enum GateCall<'a> {
    Static(&'a cli::StaticArgs),
    Evidence(&'a cli::EvidenceArgs),
    Mock,
    Mutation(&'a cli::MutationArgs),
    Docs,
    Heldout(&'a cli::HeldoutArgs),
    Council(&'a cli::CouncilArgs),
    Uncertainty,
}

impl GateCall<'_> {
    fn name(self) -> &'static str {
        match self {
            GateCall::Static(_) => "static",
            GateCall::Evidence(_) => "evidence",
            GateCall::Mock => "mock",
            GateCall::Mutation(_) => "mutation",
            GateCall::Docs => "docs",
            GateCall::Heldout(_) => "heldout",
            GateCall::Council(_) => "council",
            GateCall::Uncertainty => "uncertainty",
        }
    }

    /// Resolve the gate's settings and run it; `levels` takes the gate's policy knobs.
    fn run(self, cx: &Context<'_>, cwd: &std::path::Path, levels: &mut rule::Levels) -> Result<gates::GateOutput> {
        let section = cx.config.section(self.name());
        let root = cx.repo.root();
        match self {
            GateCall::Static(args) => {
                let settings = gates::static_analysis::settings::Settings::resolve(section, &args.overrides())?;
                gates::static_analysis::run(cx, &settings)
            }
            GateCall::Evidence(args) => {
                let settings = evidence::settings::Settings::resolve(section, &args.overrides(), root, cwd)?;
                evidence::adjust_levels(levels, &settings);
                evidence::run(cx, &settings)
            }
            GateCall::Mock => gates::mock::run(cx, &gates::mock::settings::Settings::resolve(section)),
            GateCall::Mutation(args) => {
                let settings =
                    gates::mutation::settings::Settings::resolve(section, cx.config.section("mock"), &args.overrides());
                gates::mutation::run(cx, &settings)
            }
            GateCall::Docs => gates::docs::run(cx, &gates::docs::settings::Settings::resolve(section)?),
            GateCall::Heldout(args) => {
                let settings = gates::heldout::settings::Settings::resolve(section, &args.overrides(), root, cwd);
                gates::heldout::adjust_levels(levels, &settings);
                gates::heldout::run(cx, &settings)
            }
            GateCall::Council(args) => {
                let settings = gates::council::settings::Settings::resolve(section, &args.overrides())?;
                gates::council::run(cx, &settings, &env_var)
            }
            GateCall::Uncertainty => {
                gates::uncertainty::run(cx, &gates::uncertainty::settings::knobs(section), &env_var)
            }
        }
    }
}

/// `loki-gate heldout select`.
fn heldout_select(
    global: &GlobalArgs,
    checklist: &std::path::Path,
    into: &std::path::Path,
    force: bool,
) -> Result<ExitStatus> {
    let session = Session::open(global, &env_var, false)?;
    let selection = gates::heldout::select(
        &context(&session),
        &session.cwd.join(checklist),
        &session.cwd.join(into),
        force,
    )?;
    if let Some(warning) = &selection.tracked_warning {
        report::status(&format!("warning: {warning}"));
    }
    if !global.quiet {
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
    Ok(ExitStatus::Pass)
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
        judge: &session.judge,
    }
}

/// Open the session and run one gate through the shared pipeline. A gate
/// disabled in config checks nothing and says so.
fn run_gate(global: &GlobalArgs, call: GateCall<'_>) -> Result<ExitStatus> {
    let gate = call.name();
    // `mutation` gates what a shallow clone has when its base is missing.
    let session = Session::open(global, &env_var, gate == "mutation")?;
    let started = Instant::now();
    let mut levels = session.levels.clone();
    // A gate named on the command line runs: `enabled` decides what a bare
    // `check` and the hooks run, not whether an explicit call is obeyed.
    let result = match switched_off(gate) {
        Some(off) => Ok(off),
        None => call.run(&context(&session), &session.cwd, &mut levels),
    };
    let result = with_held(result, (&session.waivers, &session.trust_notes), gate, true);
    finish_gate(gate, result, started, &session, &levels, global)
}

/// `gate`'s output with the config keys the change lowered that weaken it
/// ([`trust::config::hold_config`]); `top`: this gate also carries the top-level
/// keys and the notes, once per run.
fn with_held(
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

fn disabled(gate: &str) -> gates::GateOutput {
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
fn switched_off(gate: &str) -> Option<gates::GateOutput> {
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
fn gate_report(
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
                error: Some(report::describe(&err)),
                coverage: None,
                waivers: Vec::new(),
            },
            Some(err),
        ),
    }
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
    emit_reports(global, session, std::slice::from_ref(&report))
}

/// Render and write the reports (or the baseline), and the exit status of
/// the worst outcome.
fn emit_reports(global: &GlobalArgs, session: &Session, reports: &[GateReport]) -> Result<ExitStatus> {
    let rendered = report::render(global.format, reports, style(global));
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
    Ok(match report::json::combined(reports) {
        Outcome::Blocked => ExitStatus::Blocked,
        Outcome::Error => ExitStatus::Error,
        Outcome::Pass | Outcome::Inconclusive => ExitStatus::Pass,
        Outcome::Escalated => ExitStatus::Escalated,
    })
}

/// Gates `check` runs side by side (they only read), then the ones that
/// use what those recorded, in order.
const PARALLEL_GATES: &[&str] = &["static", "evidence", "mock", "mutation", "docs"];
const SEQUENTIAL_GATES: &[&str] = &["heldout", "council", "uncertainty"];
/// Gates that read the change itself, which `--all-files` does not have.
const CHANGE_GATES: &[&str] = &["council", "uncertainty"];

/// `loki-gate check`: every enabled gate (or those of `--gates`), one
/// combined report, the worst outcome's exit status.
fn run_check(global: &GlobalArgs, args: &cli::CheckArgs) -> Result<ExitStatus> {
    check_gate_names(&args.gates)?;
    let session = Session::open(global, &env_var, false)?;
    check_in(global, &session, args)
}

/// `check` in an open session.
fn check_in(global: &GlobalArgs, session: &Session, args: &cli::CheckArgs) -> Result<ExitStatus> {
    let chosen = |name: &str| {
        if args.gates.is_empty() {
            session.config.section(name).bool("enabled")
        } else {
            args.gates.iter().any(|g| g == name)
        }
    };
    let baseline = session.baseline.as_ref();
    let (static_args, evidence_args, mutation_args, council_args) = Default::default();
    let heldout_args = cli::HeldoutArgs {
        checks: env_var("LOKI_GATE_HELDOUT_DIR").map(std::path::PathBuf::from),
        ..Default::default()
    };
    let call = |name: &str| match name {
        "static" => GateCall::Static(&static_args),
        "evidence" => GateCall::Evidence(&evidence_args),
        "mock" => GateCall::Mock,
        "mutation" => GateCall::Mutation(&mutation_args),
        "docs" => GateCall::Docs,
        "heldout" => GateCall::Heldout(&heldout_args),
        "council" => GateCall::Council(&council_args),
        _ => GateCall::Uncertainty,
    };
    let root = session.repo.root().to_path_buf();
    // The first gate of the run carries what applies to every gate.
    let first = PARALLEL_GATES
        .iter()
        .chain(SEQUENTIAL_GATES)
        .copied()
        .find(|name| chosen(name));
    let trusted = (session.waivers.as_slice(), session.trust_notes.as_slice());
    // The parts a gate thread reads (the repository handle stays on this thread).
    let (config, store, scope, cwd) = (&session.config, &session.store, &session.scope, &session.cwd);
    let (session_levels, exclude, skip_dirs, no_cache, judge) = (
        &session.levels,
        &session.exclude,
        &session.skip_dirs,
        session.no_cache,
        &session.judge,
    );
    let run_one = |name: &'static str, repo: &git::Repo| {
        let started = Instant::now();
        let mut levels = session_levels.clone();
        // `inconclusive`: the gate was wanted and could not look.
        let skipped = |why: String, inconclusive: bool| {
            Ok(gates::GateOutput {
                inconclusive: inconclusive.then(|| why.clone()),
                notices: vec![why],
                ..gates::GateOutput::default()
            })
        };
        let section = config.section(name);
        let result = if let Some(off) = switched_off(name) {
            Ok(off)
        } else if CHANGE_GATES.contains(&name) && scope.is_whole() && args.gates.is_empty() {
            // Not an error of the run: `--all-files` has no change for them to read.
            skipped(
                format!("{name} reads a change and --all-files has none: skipped (run it with --base REV or --staged)"),
                false,
            )
        } else if name == "evidence"
            && args.gates.is_empty()
            && section.bool("enabled")
            && evidence::settings::test_source(section, &evidence_args.overrides(), &root, cwd).is_none()
        {
            // On by default, but with nothing to run here: say so instead of failing every gate's run.
            skipped(
                "evidence: no test command found (Cargo.toml, go.mod, a package.json test script, pytest config): \
                 skipped; set gates.evidence.test-command, or `enabled: false` to silence this"
                    .to_string(),
                true,
            )
        } else if config.section(name).bool("enabled") || !args.gates.is_empty() {
            let cx = Context {
                repo,
                config,
                store,
                scope,
                exclude: exclude.clone(),
                skip_dirs: skip_dirs.clone(),
                cache: !no_cache,
                judge,
            };
            call(name).run(&cx, cwd, &mut levels)
        } else {
            Ok(disabled(name))
        };
        let result = with_held(result, trusted, name, Some(name) == first);
        gate_report(name, result, started, &root, &levels, baseline, judge).0
    };
    let location = session.repo.location();
    let mut reports: Vec<GateReport> = std::thread::scope(|scope| {
        let handles: Vec<_> = PARALLEL_GATES
            .iter()
            .filter(|name| chosen(name))
            .map(|&name| {
                let (root, location) = (&root, &location);
                let run_one = &run_one;
                // git2 repositories are not shared across threads: each gate opens its own.
                scope.spawn(move || match git::Repo::open_at(root, location) {
                    Ok(repo) => run_one(name, &repo),
                    Err(e) => {
                        gate_report(
                            name,
                            Err(e),
                            Instant::now(),
                            root,
                            &rule::Levels::new(gates::rules()),
                            None,
                            judge,
                        )
                        .0
                    }
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a gate thread panicked"))
            .collect()
    });
    for name in SEQUENTIAL_GATES.iter().filter(|name| chosen(name)) {
        reports.push(run_one(name, &session.repo));
    }
    emit_reports(global, session, &reports)
}

/// `hook install` (or, with `install` false, `hook uninstall`).
fn hook_install(global: &GlobalArgs, hooks: &[Hook], install: bool) -> Result<ExitStatus> {
    let repo = git::Repo::discover(&start_dir(global)?)?;
    let hooks = if hooks.is_empty() { &Hook::ALL[..] } else { hooks };
    let lines = if install {
        hooks::install(&repo, hooks)?
    } else {
        hooks::uninstall(&repo, hooks)?
    };
    if !global.quiet {
        for line in lines {
            report::status(&format!("loki-gate: {line}"));
        }
    }
    Ok(ExitStatus::Pass)
}

/// What an installed hook runs: `check` with the gates the config lists for
/// the hook (those enabled), on the staged change (pre-commit) or on the
/// commits being pushed (pre-push, base from the refs git writes on stdin).
/// A run that cannot gate says so and how to get past it, like a blocked one.
fn hook_run(global: &GlobalArgs, hook: Hook, gates: &[String], files: &[std::path::PathBuf]) -> Result<ExitStatus> {
    let status = hook_gate(global, hook, gates, files).unwrap_or_else(|e| {
        report::error(&e);
        ExitStatus::Error
    });
    let (what, skip) = match hook {
        Hook::PreCommit => ("commit", "git commit --no-verify"),
        Hook::PrePush => ("push", "git push --no-verify"),
    };
    match status {
        ExitStatus::Pass => {}
        ExitStatus::Error => report::status(&format!(
            "loki-gate: the {} hook could not gate this {what} (see the error above); fix it, or skip the hook once with `{skip}`",
            hook.name()
        )),
        ExitStatus::Blocked | ExitStatus::Escalated => report::status(&format!(
            "loki-gate: the {} hook blocked this {what}; fix what is reported above, or skip the hook once with `{skip}`",
            hook.name()
        )),
    }
    Ok(status)
}

fn hook_gate(global: &GlobalArgs, hook: Hook, named: &[String], files: &[std::path::PathBuf]) -> Result<ExitStatus> {
    check_gate_names(named)?;
    let framework = env_var("PRE_COMMIT").is_some_and(|v| v == "1");
    let mut global = global.clone();
    let repo = git::Repo::discover(&start_dir(&global)?)?;
    let files = repo_relative(&repo, files)?;
    let mut whole = false;
    match hook {
        Hook::PreCommit => {
            // The pre-commit framework passes the staged files on a commit,
            // and every file on `pre-commit run --all-files`.
            if !files.is_empty() {
                let staged: std::collections::BTreeSet<std::path::PathBuf> =
                    repo.staged_changes()?.into_iter().map(|c| c.path).collect();
                whole = files.iter().any(|f| !staged.contains(f));
            }
            global.staged = !whole;
        }
        Hook::PrePush => {
            // Trailers and authors are known at a push: what the change's
            // config lowers is held to the base's bar here, as in CI.
            global.enforce = true;
            if let Some(from) = env_var("PRE_COMMIT_FROM_REF").filter(|r| !r.is_empty()) {
                // The pre-commit framework read git's refs and says what is pushed.
                global.base = Some(from);
            } else if framework && !files.is_empty() {
                whole = true;
            } else if !std::io::IsTerminal::is_terminal(&std::io::stdin()) {
                let mut refs = String::new();
                std::io::Read::read_to_string(&mut std::io::stdin(), &mut refs)
                    .map_err(|e| anyhow!("pre-push: could not read the pushed refs from stdin: {e}"))?;
                let head = repo.head()?;
                match hooks::push_base(&refs, head.as_deref(), &|oid| repo.commit_exists(oid))? {
                    hooks::Push::Skip(why) => {
                        report::status(&format!("loki-gate: pre-push: {why}"));
                        return Ok(ExitStatus::Pass);
                    }
                    hooks::Push::Gate { base, notes } => {
                        for note in notes {
                            report::status(&format!("loki-gate: pre-push: {note}"));
                        }
                        if base.is_some() {
                            global.base = base;
                        }
                    }
                }
            }
        }
    }
    let mut session = Session::open(&global, &env_var, false)?;
    if whole {
        session.scope = changed::Scope::Files(files);
    }
    let gates: Vec<String> = if named.is_empty() {
        let listed = match hook {
            Hook::PreCommit => session.config.pre_commit_gates(),
            Hook::PrePush => session.config.pre_push_gates(),
        };
        listed
            .iter()
            .filter(|gate| session.config.section(gate).bool("enabled"))
            // Whole files have no change for these to read.
            .filter(|gate| !(whole && CHANGE_GATES.contains(&gate.as_str())))
            .cloned()
            .collect()
    } else {
        named.to_vec()
    };
    if gates.is_empty() {
        report::status(&format!(
            "loki-gate: {}: none of the gates in `{}-gates` is enabled: nothing gated",
            hook.name(),
            hook.name()
        ));
        return Ok(ExitStatus::Pass);
    }
    check_in(&global, &session, &cli::CheckArgs { gates })
}

/// `paths` (from the command line, relative to the current directory) as
/// repo-relative paths, sorted and without repeats.
fn repo_relative(repo: &git::Repo, paths: &[std::path::PathBuf]) -> Result<Vec<std::path::PathBuf>> {
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
fn check_gate_names(names: &[String]) -> Result<()> {
    let all = config::schema::GATE_NAMES;
    match names.iter().find(|n| !all.contains(&n.as_str())) {
        Some(name) => Err(anyhow!(
            "--gates: unknown gate `{name}`; the gates are {}",
            all.join(", ")
        )),
        None => Ok(()),
    }
}

/// Post `reports` as the sticky pull request comment and append them to the
/// job summary; a failure is a warning on stderr, never a change of verdict.
fn post_comment(reports: &[GateReport]) {
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
fn post_handoff(session: &Session) {
    let Ok(Some(state)) = session.store.read::<gates::uncertainty::UncertaintyState>() else {
        return;
    };
    let Some(handoff) = state.handoff else { return };
    let branch = github::branch(&session.repo, &env_var).unwrap_or_else(|| "a detached HEAD".into());
    let marker = format!(
        "<!-- loki-gate-handoff branch={branch} episode={} -->",
        state.memory.episodes
    );
    let outcome = github::GitHub::from_env(&env_var).and_then(|gh| {
        let server = env_var("GITHUB_SERVER_URL").unwrap_or_else(|| "https://github.com".into());
        let mut links = Vec::new();
        if let Some(pr) = gh.pull_request {
            links.push(format!("pull request: {server}/{}/{}/pull/{pr}", gh.owner, gh.repo));
        }
        if let Some(run) = env_var("GITHUB_RUN_ID") {
            links.push(format!("run: {server}/{}/{}/actions/runs/{run}", gh.owner, gh.repo));
        }
        let title = format!("loki-gate: stuck on {branch} (episode {})", state.memory.episodes);
        github::hand_off(&gh, &title, &marker, &handoff, &links)
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

/// The gate reports in saved JSON reports (`--format json -o F`), for
/// `comment` and `render`.
fn read_reports(paths: &[std::path::PathBuf]) -> Result<Vec<GateReport>> {
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
    let rules = gates::rules();
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

fn init(global: &GlobalArgs, force: bool, hooks: bool) -> Result<ExitStatus> {
    let cwd = std::env::current_dir()?;
    let start = start_dir(global)?;
    let repo = git::Repo::discover(&start);
    let root = repo.as_ref().map_or_else(|_| start.clone(), |r| r.root().to_path_buf());
    let path = match &global.config {
        Some(p) => cwd.join(p),
        None => root.join(config::FILE_NAMES[0]),
    };
    let say = |line: String| {
        if !global.quiet {
            report::status(&format!("loki-gate: {line}"));
        }
    };
    if path.exists() && !force {
        if !hooks {
            return Err(anyhow!(
                "{} already exists: edit it, or pass --force to overwrite it",
                path.display()
            ));
        }
        say(format!(
            "{} already exists: left as it is (--force overwrites it)",
            path.display()
        ));
    } else {
        let stack = init::detect(&root);
        say(stack.summary());
        state::write_atomic(
            &path,
            config::template_with(&stack.overrides(), gates::catalog()).as_bytes(),
        )?;
        say(format!("wrote {}", path.display()));
    }
    if hooks {
        let repo = repo.map_err(|e| e.context("--hooks: the hooks go in a git repository"))?;
        for line in hooks::install(&repo, &Hook::ALL)? {
            say(line);
        }
    }
    Ok(ExitStatus::Pass)
}
