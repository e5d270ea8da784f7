//! `loki-gate comment`: saved JSON reports as the sticky pull-request comment.

use super::*;

/// Post saved reports as the one sticky comment on the pull request.
pub(crate) fn comment(paths: &[std::path::PathBuf]) -> Result<ExitStatus> {
    post_comment(&read_reports(paths)?);
    Ok(ExitStatus::Pass)
}
