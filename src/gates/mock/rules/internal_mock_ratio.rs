use super::finding_at;
use crate::finding::Finding;
use crate::gates::project::resolve::Reach;
use crate::lang::TestFile;
use crate::rule::{Level, RuleMeta};

pub const INTERNAL_MOCK_RATIO: RuleMeta = RuleMeta {
    id: "mock/internal-mock-ratio",
    gate: "mock",
    default_level: Level::Note,
    summary: "most of a test file's mocks replace the project's own modules instead of I/O boundaries",
    help: "mock at the edges (HTTP clients, databases, the clock, the file system) and let the project's own modules run together",
    doc: include_str!("internal-mock-ratio.md"),
};

/// Fewer mocks of the project's own code than this never fire: one stubbed
/// collaborator is a design choice, not a habit.
pub const MIN_INTERNAL: usize = 3;

pub fn internal_mock_ratio(path: &str, file: &TestFile, reach: &[Reach]) -> Vec<Finding> {
    if file.tests.is_empty() || file.tests.iter().all(|t| t.skip.is_some()) {
        return Vec::new();
    }
    let replacing = || file.mocks.iter().zip(reach).filter(|(m, _)| m.replaces);
    let internal: Vec<_> = replacing().filter(|(_, r)| matches!(r, Reach::Project(_))).collect();
    let outside = replacing().filter(|(_, r)| **r == Reach::Outside).count();
    if internal.len() < MIN_INTERNAL || internal.len() <= outside {
        return Vec::new();
    }
    let mut targets: Vec<String> = Vec::new();
    for (m, _) in &internal {
        let target = m.target.describe();
        if !targets.contains(&target) {
            targets.push(target);
        }
    }
    let shown = targets.iter().take(6).cloned().collect::<Vec<_>>().join(", ");
    let more = targets.len().saturating_sub(6);
    let mut finding = finding_at(
        &INTERNAL_MOCK_RATIO,
        format!(
            "{} of {} mocks in this file replace the project's own code ({shown}{})",
            internal.len(),
            internal.len() + outside,
            if more > 0 {
                format!(", and {more} more")
            } else {
                String::new()
            }
        ),
        path,
        internal[0].0.span,
    );
    if file.callback_spies > 0 {
        finding = finding.note(format!(
            "{} callback spies (vi.fn(), Mock(), ...) passed into code are not counted",
            file.callback_spies
        ));
    }
    vec![finding]
}
