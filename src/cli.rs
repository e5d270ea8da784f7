//! The command line (clap derive). Parsing only: `lib.rs` dispatches.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

#[derive(Debug, Parser)]
#[command(
    name = "loki-gate",
    version,
    about = "Quality gates for git hooks and CI: refuses work that only looks done",
    long_about = None,
    after_help = "Exit status: 0 passed, 1 blocked, 2 could not run, 3 escalated (uncertainty: hand the loop to a person).\n`loki-gate rules` lists the rules; `loki-gate explain RULE` documents one.",
    propagate_version = true
)]
pub struct Cli {
    #[command(flatten)]
    pub global: GlobalArgs,

    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Clone, Args)]
#[command(next_help_heading = "Global options")]
pub struct GlobalArgs {
    /// Repository to gate (git discovery upward from here)
    #[arg(short = 'C', long = "repo", value_name = "DIR", global = true)]
    pub repo: Option<PathBuf>,

    /// Hold the change's config to the base's bar (set by the pre-push hook;
    /// CI sets it through the environment): see `crate::trust`.
    #[arg(skip)]
    pub enforce: bool,

    /// Run by this git hook (`hook run`): a passing run says one line per
    /// gate, and the static gate may leave project-wide tools to later.
    #[arg(skip)]
    pub hook: Option<Hook>,

    /// A coding agent's stop (`agent stop`): loki-gate's environment
    /// switches (`LOKI_GATE_<GATE>=0`) are not read, the agent's settings
    /// can set them.
    #[arg(skip)]
    pub agent_stop: bool,

    /// The repository is a checkout loki-gate made for this run (a pushed
    /// commit's, by the pre-push hook): open it by its path, not by the
    /// variables git set for the hook, which name the user's.
    #[arg(skip)]
    pub checkout: bool,

    /// Compare against merge-base(REV, HEAD) [default: config `base`, else origin/HEAD, else HEAD~1]
    #[arg(long, value_name = "REV", global = true)]
    pub base: Option<String>,

    /// Gate only what is staged (hook mode)
    #[arg(long, global = true, conflicts_with = "all_files")]
    pub staged: bool,

    /// Ignore the diff; gate every tracked file
    #[arg(long, global = true)]
    pub all_files: bool,

    /// Report format
    #[arg(long, value_enum, default_value_t = Format::Text, global = true)]
    pub format: Format,

    /// Write the report to FILE (atomically) instead of stdout
    #[arg(short = 'o', long, value_name = "FILE", global = true)]
    pub output: Option<PathBuf>,

    /// Config file [default: .loki-gate.yaml, then loki-gate.yaml at the repo root]
    #[arg(long, value_name = "FILE", global = true)]
    pub config: Option<PathBuf>,

    /// Neither read nor write the parse cache in the state directory
    #[arg(long, global = true, env = "LOKI_GATE_NO_CACHE", value_parser = clap::builder::BoolishValueParser::new())]
    pub no_cache: bool,

    /// State directory [default: .loki-gate/ at the repo root]
    #[arg(long, value_name = "DIR", global = true, env = "LOKI_GATE_STATE_DIR")]
    pub state_dir: Option<PathBuf>,

    /// Set a rule or a whole gate to warn (repeatable)
    #[arg(short = 'W', long = "warn", value_name = "RULE|GATE", global = true)]
    pub warn: Vec<String>,

    /// Set a rule or a whole gate to deny (repeatable)
    #[arg(short = 'D', long = "deny", value_name = "RULE|GATE", global = true)]
    pub deny: Vec<String>,

    /// Hide a rule or a whole gate (repeatable)
    #[arg(short = 'A', long = "allow", value_name = "RULE|GATE", global = true)]
    pub allow: Vec<String>,

    /// Report only findings whose fingerprints are not in this baseline file
    #[arg(long, value_name = "FILE", global = true)]
    pub baseline: Option<PathBuf>,

    /// Record the fingerprints of this run's findings in FILE and pass
    #[arg(long, value_name = "FILE", global = true, conflicts_with = "baseline")]
    pub write_baseline: Option<PathBuf>,

    /// Print the settings the run would use, each with where it came from (file:line, environment, command line, default), and gate nothing
    #[arg(long, global = true)]
    pub show_settings: bool,

    /// Count the findings per rule instead of listing them (text, concise or json)
    #[arg(long, global = true)]
    pub statistics: bool,

    /// Exit 0 when a gate blocks or escalates: report, never fail (a run that could not run still exits 2)
    #[arg(long, global = true)]
    pub exit_zero: bool,

    /// The least severe finding that fails the run: error (what blocks), warning or note
    #[arg(long, value_enum, value_name = "LEVEL", global = true, conflicts_with = "exit_zero")]
    pub fail_level: Option<FailLevel>,

    /// When to use colour (never when NO_COLOR is set, unless `always`)
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto, global = true)]
    pub color: ColorChoice,

    /// Print less: only findings, no summary line
    #[arg(short, long, global = true, conflicts_with = "verbose")]
    pub quiet: bool,

    /// Print more: timings and skipped files
    #[arg(short, long, global = true)]
    pub verbose: bool,

    /// Also post the report as the one sticky comment on the pull request (GitHub Actions; never changes the verdict)
    #[arg(long, global = true)]
    pub comment: bool,
}

pub use crate::report::{ColorChoice, Format};

/// `--fail-level`: the least severe finding that fails the run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum FailLevel {
    /// What the gates block on (the default)
    Error,
    /// A warning fails the run too
    Warning,
    /// Any finding fails the run
    Note,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// The project's own linters and type checkers (ruff, mypy, eslint, shellcheck), on the lines the change touched
    Static(StaticArgs),
    /// Refuse "done" without a non-empty diff since the run start AND green tests
    Evidence(EvidenceArgs),
    /// Test integrity: tautological assertions, tests that assert nothing, empty and skipped tests
    Mock(PathArgs),
    /// Tests bent to match the code in the commits since the base: changed expectations, deleted or weakened assertions, deleted or skipped tests
    Mutation(MutationArgs),
    /// Documentation: a README at the root, docs that keep up with the code, doc comments on the public symbols a change touches
    Docs(PathArgs),
    /// Held-out acceptance checks, sealed outside the workspace and run at the ship gate
    Heldout(HeldoutArgs),
    /// Stuck detection across runs: no change, oscillation, a split council, the same failing tests; escalates (exit 3) once per episode
    Uncertainty,
    /// Blind LLM reviewers of the change: severity blocking, a two-thirds quorum, a devil's advocate on unanimous approval
    Council(CouncilArgs),
    /// Every enabled gate in one run, one combined report, the worst outcome's exit status
    Check(CheckArgs),
    /// Post saved JSON reports as the one sticky comment on the pull request (GitHub Actions)
    Comment {
        /// A JSON report (`--format json -o F`) of a gate or of `check` (repeatable)
        #[arg(long = "report", value_name = "FILE", required = true)]
        reports: Vec<PathBuf>,
    },
    /// Render saved JSON reports in another format (--format, -o): SARIF or annotations from one run
    Render {
        /// A JSON report (`--format json -o F`) of a gate or of `check` (repeatable)
        #[arg(long = "report", value_name = "FILE", required = true)]
        reports: Vec<PathBuf>,
    },
    /// Install, remove or run loki-gate's git hooks (pre-commit, pre-push)
    Hook {
        #[command(subcommand)]
        action: HookAction,
    },
    /// List every rule with its default level (or one gate's)
    Rules {
        /// Only this gate's rules (static, mock, ..., or meta for the engine's own)
        gate: Option<String>,
    },
    /// Print one rule's documentation
    Explain {
        /// Rule id, e.g. evidence/empty-diff
        rule: String,
    },
    /// Print the shell completion script for SHELL (bash, zsh, fish, elvish, powershell)
    Completions {
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print the man page (roff): `loki-gate man > loki-gate.1`
    Man,
    /// Print the JSON Schema of .loki-gate.yaml (editors complete and check the file with it)
    Schema,
    /// Write .loki-gate.yaml for the stack found here (every key, its value and a comment)
    Init {
        /// Overwrite an existing config file
        #[arg(long)]
        force: bool,

        /// Also install the git hooks (`loki-gate hook install`)
        #[arg(long)]
        hooks: bool,

        /// Only wire loki-gate into this coding agent's hooks (its project settings file, merged; repeatable)
        #[arg(long = "agent", value_enum, value_name = "AGENT")]
        agents: Vec<Agent>,
    },
    /// Answer a coding agent's hook (its JSON on stdin) in that agent's protocol: record the session start, gate "done", advise after an edit
    Agent(AgentArgs),
}

/// A coding agent whose hooks loki-gate answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, ValueEnum)]
pub enum Agent {
    /// Claude Code (`.claude/settings.json`)
    Claude,
    /// OpenAI Codex CLI (`.codex/hooks.json`)
    Codex,
    /// Cursor (`.cursor/hooks.json`)
    Cursor,
    /// Gemini CLI (`.gemini/settings.json`)
    Gemini,
}

impl Agent {
    pub const ALL: [Agent; 4] = [Agent::Claude, Agent::Codex, Agent::Cursor, Agent::Gemini];

    pub fn name(self) -> &'static str {
        match self {
            Agent::Claude => "claude",
            Agent::Codex => "codex",
            Agent::Cursor => "cursor",
            Agent::Gemini => "gemini",
        }
    }
}

/// The moments of an agent's session loki-gate answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum AgentEvent {
    /// The session began (or resumed): record where its work starts
    SessionStart,
    /// The agent says it is done: gate the session's work, block or let it stop
    Stop,
    /// The agent wrote a file: advice on that file, never a block
    PostEdit,
    /// The person sent a prompt: kept as the session's task (for the handoff and the council)
    Prompt,
    /// Not a hook: will each agent (or the one --agent names) run loki-gate's hooks here? Read from its settings and the trust it keeps; exit 1 when one will not
    Doctor,
}

#[derive(Debug, Args)]
pub struct AgentArgs {
    /// The moment of the session the hook is for
    #[arg(value_enum)]
    pub event: AgentEvent,

    /// Whose hook protocol the JSON on stdin and the answer follow (for
    /// `doctor`: the agent to check; every agent whose settings are here when left out)
    #[arg(long = "agent", value_enum, value_name = "AGENT")]
    pub agent: Option<Agent>,
}

/// A git hook loki-gate provides.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Hook {
    PreCommit,
    PrePush,
}

impl Hook {
    pub const ALL: [Hook; 2] = [Hook::PreCommit, Hook::PrePush];

    /// The hook's file name, as git knows it.
    pub fn name(self) -> &'static str {
        match self {
            Hook::PreCommit => "pre-commit",
            Hook::PrePush => "pre-push",
        }
    }
}

#[derive(Debug, Subcommand)]
pub enum HookAction {
    /// Put the hooks where git runs them (core.hooksPath respected), keeping any hook already there
    Install {
        /// Only this hook (repeatable) [default: pre-commit and pre-push]
        #[arg(long = "hook", value_enum, value_name = "HOOK")]
        hooks: Vec<Hook>,
    },
    /// Remove loki-gate's hooks and put back the hooks they replaced
    Uninstall {
        /// Only this hook (repeatable) [default: pre-commit and pre-push]
        #[arg(long = "hook", value_enum, value_name = "HOOK")]
        hooks: Vec<Hook>,

        /// Remove only what `init --agent` added to this coding agent's settings (repeatable); the git hooks stay
        #[arg(long = "agent", value_enum, value_name = "AGENT", conflicts_with = "hooks")]
        agents: Vec<Agent>,
    },
    /// What an installed hook runs: `check` on the staged change (pre-commit) or on the commits being pushed (pre-push)
    Run {
        #[arg(value_enum)]
        hook: Hook,

        /// Run these gates [default: config `pre-commit-gates` / `pre-push-gates`, those enabled]
        #[arg(long, value_name = "GATE", value_delimiter = ',')]
        gates: Vec<String>,

        /// The files the pre-commit framework passes: gated whole when they are not the staged change (`pre-commit run --all-files`)
        #[arg(value_name = "FILE")]
        files: Vec<PathBuf>,

        /// pre-push: the remote pushed to (git's first argument to the hook); what its remote-tracking refs hold is what it has [default: every remote's refs]
        #[arg(long, value_name = "NAME")]
        remote: Option<String>,
    },
}

#[derive(Debug, Default, Args)]
pub struct EvidenceArgs {
    #[command(subcommand)]
    pub action: Option<EvidenceAction>,

    /// Test command to run (overrides gates.evidence.test-command)
    #[arg(long, value_name = "CMD")]
    pub test_command: Option<String>,

    /// Read test results from FILE instead of running tests (JUnit XML, cargo/nextest output, pytest JSON report, go test -json)
    #[arg(long, value_name = "FILE", conflicts_with = "test_command")]
    pub results: Option<PathBuf>,

    /// Block when no run start was recorded (default: pass with a disclosure)
    #[arg(long)]
    pub require_anchor: bool,

    /// Time limit for the test command, e.g. 90s, 10m [default: gates.evidence.timeout]
    #[arg(long, value_name = "DURATION")]
    pub timeout: Option<String>,

    /// Coverage report the tests wrote (LCOV, Cobertura XML, coverage.py JSON, Go cover profile); repeatable [default: gates.evidence.coverage]
    #[arg(long, value_name = "FILE")]
    pub coverage: Vec<PathBuf>,

    /// Block when the tests run less than N percent of the executable changed lines [default: gates.evidence.min-changed-coverage]
    #[arg(long, value_name = "N")]
    pub min_changed_coverage: Option<f64>,
}

#[derive(Debug, Default, Args)]
pub struct CheckArgs {
    /// Run these gates (comma-separated or repeated) instead of every enabled one
    #[arg(long, value_name = "GATE", value_delimiter = ',')]
    pub gates: Vec<String>,

    #[command(flatten)]
    pub paths: PathArgs,

    /// The gates come from a config list (an agent's): one with nothing to
    /// run here (evidence without a test command) is skipped with a note,
    /// as in a bare `check`, instead of failing.
    #[arg(skip)]
    pub listed: bool,
}

#[derive(Debug, Default, Args)]
pub struct HeldoutArgs {
    #[command(subcommand)]
    pub action: Option<HeldoutAction>,

    /// The directory holding the reserved checks [default: gates.heldout.checks]
    #[arg(long, value_name = "DIR", env = "LOKI_GATE_HELDOUT_DIR")]
    pub checks: Option<PathBuf>,

    /// Show each failing check's command and output (never inside the loop being gated)
    #[arg(long)]
    pub reveal: bool,

    /// Block when the checks cannot be evaluated (no selection, no checks directory)
    #[arg(long)]
    pub require: bool,
}

#[derive(Debug, Subcommand)]
pub enum HeldoutAction {
    /// Reserve a deterministic slice of a checklist, write it to DIR, seal it; never reselects
    Select {
        /// The checklist (YAML or JSON); the visible remainder is written back to it
        #[arg(long, value_name = "FILE")]
        checklist: PathBuf,

        /// Where the reserved checks go: a directory outside the repository
        #[arg(long, value_name = "DIR")]
        into: PathBuf,

        /// Select from a checklist git tracks, though its history keeps the
        /// reserved items readable
        #[arg(long)]
        force: bool,
    },
}

#[derive(Debug, Default, Args)]
pub struct CouncilArgs {
    /// Ask the reviewers again even when this diff was reviewed before
    #[arg(long)]
    pub fresh: bool,

    /// How many reviewers [default: gates.council.reviewers]
    #[arg(long, value_name = "N")]
    pub reviewers: Option<usize>,

    /// Use only these providers (by name; repeatable or comma-separated)
    #[arg(long, value_name = "NAME", value_delimiter = ',')]
    pub provider: Option<Vec<String>>,
}

#[derive(Debug, Default, Args)]
pub struct MutationArgs {
    /// Inspect at most the newest N commits of the range (0 = all) [default: gates.mutation.max-commits]
    #[arg(long, value_name = "N")]
    pub max_commits: Option<u64>,
}

/// Files or directories to gate whole, instead of the change.
#[derive(Debug, Default, Args)]
pub struct PathArgs {
    /// Gate these files, or the tracked files under these directories, whole (as --all-files does the repository)
    #[arg(value_name = "PATH")]
    pub paths: Vec<PathBuf>,
}

#[derive(Debug, Default, Args)]
pub struct StaticArgs {
    #[command(flatten)]
    pub paths: PathArgs,

    /// Run this tool (repeatable): auto (what the repository calls for), ruff, mypy, eslint, tsc, clippy, golangci-lint, shellcheck, or a name from gates.static.custom [default: gates.static.tools]
    #[arg(long = "tool", value_name = "NAME")]
    pub tool: Vec<String>,

    /// Which findings count [default: gates.static.filter, added]
    #[arg(long, value_name = "MODE", value_parser = clap::builder::PossibleValuesParser::new(crate::gates::static_analysis::settings::FILTERS))]
    pub filter: Option<String>,

    /// The least severe tool level that blocks [default: gates.static.fail-on, error]
    #[arg(long, value_name = "LEVEL", value_parser = clap::builder::PossibleValuesParser::new(crate::gates::static_analysis::settings::FAIL_ON))]
    pub fail_on: Option<String>,

    /// Time limit for each tool, e.g. 90s, 10m [default: gates.static.timeout]
    #[arg(long, value_name = "DURATION")]
    pub timeout: Option<String>,

    /// Report only findings the base revision does not have (the tools run on it too, in a temporary worktree)
    #[arg(long)]
    pub new_only: bool,

    /// The git hook this run is for (set by `hook run`).
    #[arg(skip)]
    pub hook: Option<Hook>,

    /// Only the tools that judge files alone (set after an agent's edit).
    #[arg(skip)]
    pub quick: bool,

    /// What the tools look at: the changed files, or each tool's whole project (with --new-only: new findings anywhere) [default: gates.static.scope]
    #[arg(long, value_name = "SCOPE", value_parser = clap::builder::PossibleValuesParser::new(crate::gates::static_analysis::settings::SCOPES))]
    pub scope: Option<String>,
}

#[derive(Debug, Subcommand)]
pub enum EvidenceAction {
    /// Record the run-start anchor (HEAD and the time); starts a new run
    Start,
}

/// The variables that stand in for flags (clap's `env`), with their flag
/// and what a value must be.
const FLAG_ENV: &[(&str, &str, &str)] = &[
    ("LOKI_GATE_STATE_DIR", "--state-dir", "a directory"),
    (
        "LOKI_GATE_NO_CACHE",
        "--no-cache",
        "true or false (1/0, yes/no, on/off)",
    ),
    ("LOKI_GATE_HELDOUT_DIR", "--checks", "a directory"),
];

/// When clap refused a value that came from the environment rather than
/// the command line `args`, the one-line error that names the variable
/// (clap's own names a flag the user never passed).
pub fn env_error(kind: clap::error::ErrorKind, args: &[std::ffi::OsString]) -> Option<String> {
    use clap::error::ErrorKind;
    if !matches!(kind, ErrorKind::InvalidValue | ErrorKind::ValueValidation) {
        return None;
    }
    FLAG_ENV.iter().find_map(|(var, flag, expected)| {
        let on_command_line = args.iter().any(|a| {
            let a = a.to_string_lossy();
            a == *flag || a.starts_with(&format!("{flag}="))
        });
        let value = std::env::var_os(var).filter(|_| !on_command_line)?;
        Some(if value.is_empty() {
            format!("{var} is set but empty: unset it, or set it to {expected}")
        } else {
            format!(
                "{var}={} is not valid: set it to {expected}, or unset it",
                value.to_string_lossy()
            )
        })
    })
}

impl StaticArgs {
    /// The gate's overrides these arguments set.
    pub fn overrides(&self) -> crate::gates::static_analysis::settings::Overrides {
        crate::gates::static_analysis::settings::Overrides {
            hook: self.hook.map(Hook::name),
            quick: self.quick,
            tool: self.tool.clone(),
            filter: self.filter.clone(),
            fail_on: self.fail_on.clone(),
            timeout: self.timeout.clone(),
            new_only: self.new_only,
            scope: self.scope.clone(),
        }
    }
}

impl EvidenceArgs {
    /// The gate's overrides these arguments set.
    pub fn overrides(&self) -> crate::gates::evidence::settings::Overrides {
        crate::gates::evidence::settings::Overrides {
            test_command: self.test_command.clone(),
            results: self.results.clone(),
            require_anchor: self.require_anchor,
            timeout: self.timeout.clone(),
            coverage: self.coverage.clone(),
            min_changed_coverage: self.min_changed_coverage,
        }
    }
}

impl HeldoutArgs {
    /// The gate's overrides these arguments set.
    pub fn overrides(&self) -> crate::gates::heldout::settings::Overrides {
        crate::gates::heldout::settings::Overrides {
            checks: self.checks.clone(),
            reveal: self.reveal,
            require: self.require,
        }
    }
}

impl CouncilArgs {
    /// The gate's overrides these arguments set.
    pub fn overrides(&self) -> crate::gates::council::settings::Overrides {
        crate::gates::council::settings::Overrides {
            fresh: self.fresh,
            reviewers: self.reviewers,
            provider: self.provider.clone(),
        }
    }
}

impl MutationArgs {
    /// The gate's overrides these arguments set.
    pub fn overrides(&self) -> crate::gates::mutation::settings::Overrides {
        crate::gates::mutation::settings::Overrides {
            max_commits: self.max_commits,
        }
    }
}

/// The options that only gate runs read: the commands that run no gate do
/// not list them in their help (they accept them, as clap propagates
/// global options, and ignore them).
const RUN_OPTIONS: &[&str] = &[
    "base",
    "staged",
    "all_files",
    "warn",
    "deny",
    "allow",
    "baseline",
    "write_baseline",
    "show_settings",
    "statistics",
    "exit_zero",
    "fail_level",
    "comment",
    "no_cache",
    "state_dir",
];

/// What each command that runs no gate ignores besides [`RUN_OPTIONS`],
/// by its path of subcommand names.
const IGNORED: &[(&[&str], &[&str])] = &[
    (&["rules"], &["config"]),
    (&["explain"], &["config", "format"]),
    (&["init"], &["format", "output"]),
    (&["hook", "install"], &["config", "format", "output"]),
    (&["hook", "uninstall"], &["config", "format", "output"]),
    (&["completions"], &["repo", "config", "format", "output"]),
    (&["man"], &["repo", "config", "format", "output"]),
    (&["schema"], &["repo", "config", "format", "output"]),
];

/// The help of a command that ignores some global options, without them;
/// `None` for a command whose help clap's own is.
pub fn help_without_ignored(args: &[std::ffi::OsString]) -> Option<String> {
    use clap::CommandFactory;
    let words: Vec<&str> = args
        .iter()
        .skip(1)
        .filter_map(|a| a.to_str())
        .filter(|a| !a.starts_with('-'))
        .collect();
    let (path, ignored) = IGNORED
        .iter()
        .find(|(path, _)| words.len() >= path.len() && words[..path.len()] == **path)?;
    let mut cmd = Cli::command();
    cmd.build();
    let mut sub = &cmd;
    for name in *path {
        sub = sub.find_subcommand(name)?;
    }
    // A copy for rendering only: parsing is done.
    let mut shown = sub.clone();
    for id in RUN_OPTIONS.iter().chain(ignored.iter()) {
        if shown.get_arguments().any(|a| a.get_id() == id) {
            shown = shown.mut_arg(*id, |a| a.hide(true));
        }
    }
    let long = args.iter().any(|a| a == "--help");
    Some(
        if long {
            shown.render_long_help()
        } else {
            shown.render_help()
        }
        .to_string(),
    )
}
