//! The `loki-gate` binary: parse, run, map to an exit code. Everything else lives in the library.

use std::process::ExitCode;

use clap::Parser;
use loki_gate::cli::Cli;
use loki_gate::exit::ExitStatus;

/// The static musl build's allocator, for Rust and, through the `override`
/// feature, for the C code (tree-sitter, libgit2) too: musl's own malloc
/// made that build several times slower.
#[cfg(target_env = "musl")]
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(err) => {
            let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
            if let Some(line) = loki_gate::cli::env_error(err.kind(), &args) {
                loki_gate::report::error(&anyhow::anyhow!(line));
                return ExitStatus::Error.into();
            }
            if err.kind() == clap::error::ErrorKind::DisplayHelp
                && let Some(help) = loki_gate::cli::help_without_ignored(&args)
            {
                let _ = loki_gate::report::emit(&help, None);
                return ExitStatus::Pass.into();
            }
            // --help and --version are successes; usage errors are exit 2,
            // but for `agent` 1: the agents read 2 as a block.
            let _ = err.print();
            let agent = args.iter().skip(1).find(|a| !a.to_string_lossy().starts_with('-')) == Some(&"agent".into());
            if agent && err.use_stderr() {
                return ExitStatus::AgentError.into();
            }
            return if err.use_stderr() {
                ExitStatus::Error.into()
            } else {
                ExitStatus::Pass.into()
            };
        }
    };
    loki_gate::interrupt::install();
    let result = loki_gate::run(cli);
    loki_gate::interrupt::hold_if_interrupted();
    match result {
        Ok(status) => status.into(),
        Err(err) => {
            loki_gate::report::error(&err);
            ExitStatus::Error.into()
        }
    }
}
