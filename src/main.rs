//! The `loki-gate` binary: parse, run, map to an exit code. Everything else lives in the library.

use std::process::ExitCode;

use clap::Parser;
use loki_gate::cli::Cli;
use loki_gate::exit::ExitStatus;

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(err) => {
            // --help and --version are successes; usage errors are exit 2.
            let _ = err.print();
            return if err.use_stderr() {
                ExitStatus::Error.into()
            } else {
                ExitStatus::Pass.into()
            };
        }
    };
    match loki_gate::run(cli) {
        Ok(status) => status.into(),
        Err(err) => {
            loki_gate::report::error(&err);
            ExitStatus::Error.into()
        }
    }
}
