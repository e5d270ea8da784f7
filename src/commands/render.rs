//! `loki-gate render` and `loki-gate comment`: saved JSON reports, in
//! another format or as the sticky pull-request comment.

use super::*;

/// Render saved reports in the format `--format` names.
pub(crate) fn render(global: &GlobalArgs, paths: &[std::path::PathBuf]) -> Result<ExitStatus> {
    let reports = read_reports(paths)?;
    report::emit(
        &report::render(global.format, &reports, style(global)),
        global.output.as_deref(),
    )?;
    Ok(ExitStatus::Pass)
}

/// Post saved reports as the one sticky comment on the pull request.
pub(crate) fn comment(paths: &[std::path::PathBuf]) -> Result<ExitStatus> {
    post_comment(&read_reports(paths)?);
    Ok(ExitStatus::Pass)
}
