//! `loki-gate render`: saved JSON reports in another format.

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
