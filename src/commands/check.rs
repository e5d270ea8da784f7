//! `loki-gate check`: every enabled gate in one run.

use super::gate::GateCall;
use super::*;

/// Gates `check` runs side by side (they only read), then the ones that
/// use what those recorded, in order.
pub(crate) const PARALLEL_GATES: &[&str] = &["static", "evidence", "mock", "mutation", "docs"];

pub(crate) const SEQUENTIAL_GATES: &[&str] = &["heldout", "council", "uncertainty"];

/// Gates that read the change itself, which `--all-files` does not have.
pub(crate) const CHANGE_GATES: &[&str] = &["council", "uncertainty"];

/// `loki-gate check`: every enabled gate (or those of `--gates`), one
/// combined report, the worst outcome's exit status.
pub(crate) fn run_check(global: &GlobalArgs, args: &cli::CheckArgs) -> Result<ExitStatus> {
    check_gate_names(&args.gates)?;
    if !args.paths.paths.is_empty() && (global.staged || global.base.is_some()) {
        return Err(anyhow!(
            "check PATH gates those files whole: drop --staged and --base, or the paths"
        ));
    }
    let mut session = Session::open(global, &env_var, false)?;
    // As each gate's own command: these files, or the tracked files under these directories, whole.
    if !args.paths.paths.is_empty() {
        session.scope = changed::Scope::Files(super::gate::tracked_under(&session.repo, &args.paths.paths)?);
    }
    check_in(global, &session, args)
}

/// `check` in an open session.
pub(crate) fn check_in(global: &GlobalArgs, session: &Session, args: &cli::CheckArgs) -> Result<ExitStatus> {
    let stream = Stream::new(global);
    let reports = gate_reports(global, session, args, &stream);
    emit_reports(global, session, &reports, stream.on, true)
}

/// Run the gates `check` would (each section printed by `stream` as it
/// is final), and hand back their reports.
pub(crate) fn gate_reports(
    global: &GlobalArgs,
    session: &Session,
    args: &cli::CheckArgs,
    stream: &Stream,
) -> Vec<GateReport> {
    let chosen = |name: &str| {
        if args.gates.is_empty() {
            session.config.section(name).bool("enabled")
        } else {
            args.gates.iter().any(|g| g == name)
        }
    };
    let baseline = session.baseline.as_ref();
    let (evidence_args, mutation_args, council_args) = Default::default();
    let static_args = cli::StaticArgs {
        hook: global.hook,
        ..Default::default()
    };
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
    let (session_levels, exclude, skip_dirs, no_cache, path_only, judge, collected) = (
        &session.levels,
        &session.exclude,
        &session.skip_dirs,
        session.no_cache,
        session.path_only,
        &session.judge,
        session.collected(),
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
        let result = if let Some(off) = switched_off(name).filter(|_| !global.agent_stop) {
            Ok(off)
        } else if CHANGE_GATES.contains(&name) && scope.is_whole() && args.gates.is_empty() {
            // Not an error of the run: `--all-files` has no change for them to read.
            skipped(
                format!("{name} reads a change and --all-files has none: skipped (run it with --base REV or --staged)"),
                false,
            )
        } else if name == "evidence"
            && (args.gates.is_empty() || args.listed)
            && section.bool("enabled")
            && gates::evidence::settings::test_source(section, &evidence_args.overrides(), &root, cwd).is_none()
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
                path_only,
                judge,
                collected,
            };
            call(name).run(&cx, cwd, &mut levels)
        } else {
            Ok(disabled(name))
        };
        let result = with_held(result, trusted, name, Some(name) == first);
        gate_report(name, result, started, &root, &levels, baseline, judge).0
    };
    let location = session.repo.location();
    let progress = report::progress::Progress::start(global.quiet);
    let parallel: Vec<&'static str> = PARALLEL_GATES.iter().copied().filter(|name| chosen(name)).collect();
    let mut reports: Vec<GateReport> = std::thread::scope(|scope| {
        let (done, finished) = std::sync::mpsc::channel();
        for (i, &name) in parallel.iter().enumerate() {
            let (root, location) = (&root, &location);
            let (run_one, progress, done) = (&run_one, &progress, done.clone());
            progress.started(name);
            // git2 repositories are not shared across threads: each gate opens its own.
            scope.spawn(move || {
                let report = match git::Repo::open_at(root, location) {
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
                };
                progress.finished(name);
                let _ = done.send((i, report));
            });
        }
        drop(done);
        // Each result is printed as soon as the gates before it (in the
        // fixed order) are done: the order never depends on timing.
        let mut slots: Vec<Option<GateReport>> = parallel.iter().map(|_| None).collect();
        let mut next = 0;
        for (i, report) in finished {
            slots[i] = Some(report);
            while let Some(Some(report)) = slots.get(next) {
                stream.print(report, &progress);
                next += 1;
            }
        }
        slots
            .into_iter()
            .map(|slot| slot.expect("every gate thread reported"))
            .collect()
    });
    for name in SEQUENTIAL_GATES.iter().filter(|name| chosen(name)) {
        progress.started(name);
        let report = run_one(name, &session.repo);
        progress.finished(name);
        stream.print(&report, &progress);
        reports.push(report);
    }
    progress.finish();
    reports
}

/// Printing each gate's section the moment it is final, when the report
/// goes to stdout as `text` or `concise`; machine formats, `-o FILE` and
/// `--statistics` (counts over every gate) get one document at the end.
pub(crate) struct Stream {
    pub(crate) on: bool,
    style: Style,
    layout: report::text::Layout,
    /// Notices printed already: one several gates give is said once.
    said: std::cell::RefCell<report::text::Said>,
}

impl Stream {
    pub(crate) fn new(global: &GlobalArgs) -> Stream {
        Stream {
            // A hook's output waits for the verdict: a pass says one line per gate.
            on: matches!(global.format, Format::Text | Format::Concise)
                && global.output.is_none()
                && !global.statistics
                && global.hook.is_none(),
            style: style(global),
            layout: match global.format {
                Format::Concise => report::text::Layout::Concise,
                _ => report::text::Layout::Full,
            },
            said: Default::default(),
        }
    }

    /// Print one gate's section (its findings, notices and summary line).
    pub(crate) fn print(&self, report: &GateReport, progress: &report::progress::Progress) {
        if !self.on {
            return;
        }
        let rendered = report::text::section(report, self.style, self.layout, &mut self.said.borrow_mut());
        progress.suspend(|| {
            let _ = report::emit(&rendered, None);
        });
    }
}
