//! The records gates leave in the state directory for one another: the
//! evidence gate's run (`run.json`: the run start and the last tests) and
//! the council's rounds (`council.json`: each reviewer's answer), which the
//! stuck detector reads. They belong to no one gate.

use serde::{Deserialize, Serialize};

use crate::state::StateFile;

/// `run.json`: the run-start anchor and the last test outcome.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunState {
    pub anchor: Option<Anchor>,
    #[serde(default)]
    pub last_tests: Option<LastTests>,
}

impl StateFile for RunState {
    const NAME: &'static str = "run.json";
    const VERSION: u32 = 1;
    const RESET: &'static str = "delete it and run `loki-gate evidence start` to record a new run start";
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Anchor {
    /// HEAD at the run start; `null` when the repository had no commits.
    pub commit: Option<String>,
    pub branch: Option<String>,
    /// Seconds since the Unix epoch.
    pub started_at: u64,
}

/// The last test outcome, for the report and for `uncertainty`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LastTests {
    pub at: u64,
    /// `command: cargo test` or `results: junit.xml`.
    pub source: String,
    /// Whether the run counted as green evidence.
    pub green: bool,
    pub passed: u64,
    pub failed: u64,
    pub skipped: u64,
    /// Sorted ids of failing tests.
    pub failing: Vec<String>,
}

/// `council.json`: the rounds, oldest first.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct CouncilState {
    pub rounds: Vec<Round>,
}

impl StateFile for CouncilState {
    const NAME: &'static str = "council.json";
    const VERSION: u32 = 1;
    const RESET: &'static str = "delete it: the next council run asks the reviewers again";
}

/// One council round: the diff it reviewed and what each reviewer said.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Round {
    /// sha256 of the diff the reviewers read.
    pub diff_hash: String,
    /// sha256 of the council's setup (providers, reviewers, prompts): a
    /// round is reused only under the same setup.
    pub setup: String,
    /// Unix seconds.
    pub at: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub head: Option<String>,
    pub reviews: Vec<Review>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub devils_advocate: Option<Review>,
    pub approvals: usize,
    /// Reviewers whose vote counted.
    pub counted: usize,
    pub needed: usize,
    pub blocked: bool,
}

/// What one reviewer said.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Review {
    /// 1-based; 0 for the devil's advocate.
    pub reviewer: usize,
    pub provider: String,
    pub persona: String,
    pub answer: Answer,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub usage: Option<Usage>,
    pub seconds: f64,
}

/// What one reviewer answered.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Answer {
    Verdict(Verdict),
    /// No readable verdict: why (empty, malformed, refused, late, failed).
    Inconclusive(String),
}

impl Answer {
    pub fn approves(&self) -> bool {
        matches!(self, Answer::Verdict(v) if v.approve)
    }

    pub fn verdict(&self) -> Option<&Verdict> {
        match self {
            Answer::Verdict(v) => Some(v),
            Answer::Inconclusive(_) => None,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Critical,
    High,
    Medium,
    Low,
}

impl Severity {
    pub fn name(self) -> &'static str {
        match self {
            Severity::Critical => "critical",
            Severity::High => "high",
            Severity::Medium => "medium",
            Severity::Low => "low",
        }
    }

    /// Critical and high findings block.
    pub fn blocks(self) -> bool {
        matches!(self, Severity::Critical | Severity::High)
    }
}

/// One finding of a reviewer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Issue {
    pub severity: Severity,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line: Option<u32>,
    pub message: String,
}

/// A verdict that passed the schema.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Verdict {
    pub approve: bool,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub issues: Vec<Issue>,
}

/// Tokens (and cost, when the provider says) one answer used.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct Usage {
    pub prompt_tokens: u64,
    pub completion_tokens: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cost: Option<f64>,
}
