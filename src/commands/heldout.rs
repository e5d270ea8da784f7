//! `loki-gate heldout select`.

use super::*;

/// `loki-gate heldout select`.
pub(crate) fn heldout_select(
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
