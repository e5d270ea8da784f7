//! `loki-gate completions SHELL` and `loki-gate man`: generated from the
//! command-line definition (clap_complete, clap_mangen), so they never fall
//! behind it. The release archives carry them too (`dist/`).

use std::io::Write;

use clap::CommandFactory;

use super::*;

/// Print the completion script for `shell`.
pub(crate) fn completions(shell: clap_complete::Shell) -> Result<ExitStatus> {
    report::emit(&completion_script(shell), None)?;
    Ok(ExitStatus::Pass)
}

/// The completion script for `shell`.
pub fn completion_script(shell: clap_complete::Shell) -> String {
    let mut out = Vec::new();
    clap_complete::generate(shell, &mut cli::Cli::command(), "loki-gate", &mut out);
    String::from_utf8(out).expect("completion scripts are UTF-8")
}

/// Print the man page.
pub(crate) fn man() -> Result<ExitStatus> {
    report::emit(&man_page()?, None)?;
    Ok(ExitStatus::Pass)
}

/// The man page (roff) of the whole command line.
pub fn man_page() -> Result<String> {
    let mut out = Vec::new();
    clap_mangen::Man::new(cli::Cli::command())
        .render(&mut out)
        .map_err(|e| anyhow!("could not write the man page: {e}"))?;
    out.flush().ok();
    Ok(String::from_utf8(out).expect("roff is UTF-8"))
}
