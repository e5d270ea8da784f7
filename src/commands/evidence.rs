//! `loki-gate evidence start`: record the run start.

use super::*;

/// Record the anchor the evidence gate measures the change from.
pub(crate) fn start(global: &GlobalArgs) -> Result<ExitStatus> {
    let session = Session::open(global, &env_var, false)?;
    let anchor = gates::evidence::start(&context(&session))?;
    if !global.quiet {
        report::status(&format!(
            "loki-gate: run start recorded at {}",
            gates::evidence::describe(&anchor)
        ));
    }
    Ok(ExitStatus::Pass)
}
