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
    let session = Session::open(global, &env_var, false)?;
    check_in(global, &session, args)
}

/// `check` in an open session.
pub(crate) fn check_in(global: &GlobalArgs, session: &Session, args: &cli::CheckArgs) -> Result<ExitStatus> {
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
