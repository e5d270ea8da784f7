//! What a gate's run comes to: its outcome and its report (findings,
//! counts, notices, coverage, waivers), as the gates hand them to the
//! renderers.

pub mod coverage;

use serde::{Deserialize, Serialize};

use crate::finding::{Finding, Severity};

/// How a gate ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Outcome {
    Pass,
    Blocked,
    Inconclusive,
    Error,
    /// `uncertainty` escalated this round (exit 3).
    Escalated,
}

impl Outcome {
    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::Pass => "pass",
            Outcome::Blocked => "blocked",
            Outcome::Inconclusive => "inconclusive",
            Outcome::Escalated => "escalated",
            Outcome::Error => "error",
        }
    }
}

/// One gate's result.
#[derive(Debug, Clone)]
pub struct GateReport {
    pub gate: &'static str,
    pub outcome: Outcome,
    pub findings: Vec<Finding>,
    pub files: usize,
    pub elapsed_ms: u64,
    pub notices: Vec<String>,
    pub inconclusive: Option<String>,
    pub suppressed: usize,
    pub baselined: usize,
    /// Findings the base revision already had ([`Finding::at_base`]).
    pub at_base: usize,
    /// Why the gate could not run (outcome `error`).
    pub error: Option<String>,
    /// `evidence --coverage`: how much of the change the tests ran.
    pub coverage: Option<coverage::Coverage>,
    /// Every waiver in play: what the change added and what the base had.
    pub waivers: Vec<crate::trust::waiver::Waiver>,
}

impl GateReport {
    pub fn count(&self, severity: Severity) -> usize {
        self.findings.iter().filter(|f| f.severity == severity).count()
    }

    /// A report of `gate` with these findings and nothing else, for the
    /// renderers' unit tests.
    #[cfg(test)]
    pub(crate) fn of(gate: &'static str, outcome: Outcome, findings: Vec<Finding>) -> GateReport {
        GateReport {
            gate,
            outcome,
            findings,
            files: 1,
            elapsed_ms: 0,
            notices: Vec::new(),
            inconclusive: None,
            suppressed: 0,
            baselined: 0,
            at_base: 0,
            error: None,
            coverage: None,
            waivers: Vec::new(),
        }
    }
}
