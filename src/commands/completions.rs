//! `loki-gate completions SHELL`, `loki-gate man` and `loki-gate schema`:
//! generated from the command-line definition (clap_complete, clap_mangen)
//! and the config schema table, so they never fall behind them. The
//! release archives carry the first two (`share/`); the docs the schema.

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
    let script = String::from_utf8(out).expect("completion scripts are UTF-8");
    match shell {
        // clap_complete's bash script names a subcommand's state
        // `loki__gate__subcmd__check` where it is set, but matches
        // `loki__subcmd__gate__subcmd__check` (the binary's `-` mangled twice):
        // nothing after the subcommand completed. One name for both.
        clap_complete::Shell::Bash => script.replace("loki__subcmd__gate__", "loki__gate__"),
        _ => script,
    }
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

/// Print the config file's JSON Schema.
pub(crate) fn schema() -> Result<ExitStatus> {
    report::emit(&schema_text(), None)?;
    Ok(ExitStatus::Pass)
}

/// The config file's JSON Schema, pretty-printed.
pub fn schema_text() -> String {
    let mut text = serde_json::to_string_pretty(&config::json_schema::json_schema(gates::catalog()))
        .expect("the schema serializes");
    text.push('\n');
    text
}
