//! `loki-gate <gate>`: one gate with its arguments.

use super::*;

/// One gate with its command-line arguments.
#[derive(Clone, Copy)]
pub(crate) enum GateCall<'a> {
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
    pub(crate) fn name(self) -> &'static str {
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
    pub(crate) fn run(
        self,
        cx: &Context<'_>,
        cwd: &std::path::Path,
        levels: &mut rule::Levels,
    ) -> Result<gates::GateOutput> {
        let name = self.name();
        if levels.silenced(name) {
            // Every finding it could report is hidden: it is not run at all.
            return Ok(gates::GateOutput {
                notices: vec![format!(
                    "{name}: every rule is `allow` (-A {name}, or `{name}: allow` in the config's rules): not run"
                )],
                ..gates::GateOutput::default()
            });
        }
        let section = cx.config.section(name);
        let root = cx.repo.root();
        match self {
            GateCall::Static(args) => {
                let mut settings = gates::static_analysis::settings::Settings::resolve(section, &args.overrides())?;
                // Each tool's rule family (`static/ruff`), and each custom
                // tool's by its name (`static/sarif:semgrep`).
                use gates::static_analysis::tools::Tool;
                let selectors: Vec<String> = gates::static_analysis::tools::ALL
                    .iter()
                    .map(|tool| tool.rule().id.to_string())
                    .chain(settings.custom.iter().flat_map(|tool| {
                        let family = tool.rule().id;
                        [family.to_string(), format!("{family}:{}", tool.name())]
                    }))
                    .collect();
                settings.silenced = selectors.into_iter().filter(|s| levels.silenced(s)).collect();
                // In CI the job's setup put the tools on PATH; an untracked
                // file in the workspace is not one of them (issue 54), nor
                // in an agent's stop, where the agent may have put it (63).
                settings.path_only = cx.path_only;
                gates::static_analysis::run(cx, &settings)
            }
            GateCall::Evidence(args) => {
                let settings = gates::evidence::settings::Settings::resolve(section, &args.overrides(), root, cwd)?;
                gates::evidence::adjust_levels(levels, &settings);
                gates::evidence::run(cx, &settings)
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

/// Open the session and run one gate through the shared pipeline. A gate
/// disabled in config checks nothing and says so.
pub(crate) fn run_gate(global: &GlobalArgs, call: GateCall<'_>) -> Result<ExitStatus> {
    run_gate_on(global, call, &cli::PathArgs::default())
}

/// [`run_gate`] on `paths` whole (the tracked files under a directory), or
/// on the change when there are none.
pub(crate) fn run_gate_on(global: &GlobalArgs, call: GateCall<'_>, paths: &cli::PathArgs) -> Result<ExitStatus> {
    let gate = call.name();
    if !paths.paths.is_empty() && (global.staged || global.base.is_some()) {
        return Err(anyhow!(
            "{gate} PATH gates those files whole: drop --staged and --base, or the paths"
        ));
    }
    // `mutation` gates what a shallow clone has when its base is missing.
    let mut session = Session::open(global, &env_var, gate == "mutation")?;
    if !paths.paths.is_empty() {
        session.scope = changed::Scope::Files(tracked_under(&session.repo, &paths.paths)?);
    }
    let started = Instant::now();
    let mut levels = session.levels.clone();
    // A gate named on the command line runs: `enabled` decides what a bare
    // `check` and the hooks run, not whether an explicit call is obeyed.
    let progress = report::progress::Progress::start(global.quiet);
    progress.started(gate);
    let result = match switched_off(gate) {
        Some(off) => Ok(off),
        None => call.run(&context(&session), &session.cwd, &mut levels),
    };
    progress.finish();
    let result = with_held(result, (&session.waivers, &session.trust_notes), gate, true);
    finish_gate(gate, result, started, &session, &levels, global)
}

/// The tracked files `paths` name (relative to the current directory): a
/// file itself, a directory every tracked file under it; sorted, no repeats.
/// A path that names no tracked file is an error, as a typo should be.
pub(crate) fn tracked_under(repo: &git::Repo, paths: &[std::path::PathBuf]) -> Result<Vec<std::path::PathBuf>> {
    let tracked = repo.tracked_files()?;
    let mut files = Vec::new();
    for shown in paths {
        let rel = repo_relative(repo, std::slice::from_ref(shown))?.remove(0);
        let before = files.len();
        files.extend(
            tracked
                .iter()
                .filter(|f| rel.as_os_str().is_empty() || f.starts_with(&rel))
                .cloned(),
        );
        if files.len() == before {
            return Err(anyhow!(
                "{} names no file git tracks: pass tracked files or directories (git add new ones first)",
                shown.display()
            ));
        }
    }
    files.sort();
    files.dedup();
    Ok(files)
}
