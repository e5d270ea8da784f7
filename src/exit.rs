//! Exit status: the same four codes for every gate and every command.
//!
//! | code | meaning |
//! |------|---------|
//! | 0 | passed, or nothing to gate; warnings and notes may be printed |
//! | 1 | blocked: at least one finding at deny level |
//! | 2 | could not run: usage, config, git or I/O error, a required tool missing; the one-line error names the file or tool and the fix |
//! | 3 | `uncertainty` only: escalated this round |
//!
//! `agent` answers a coding agent's hook in that agent's protocol instead:
//! exit 0 with the answer on stdout, or 1 when it could not answer (every
//! agent takes 1 as a failed hook that does not block; 2 would block).
//!
//! A gate that could not look never exits 0: "inconclusive" either blocks or
//! passes with a visible disclosure, per the gate's documented policy.
//! `docs/exit-codes.md` is the user-facing copy of this table.

use std::process::ExitCode;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum ExitStatus {
    /// Passed, or nothing to gate.
    Pass,
    /// At least one deny-level finding.
    Blocked,
    /// Could not run.
    Error,
    /// `uncertainty` escalated this round.
    Escalated,
    /// `agent`: no answer could be given (bad input, a config error); every
    /// agent takes exit 1 as a failed hook that does not block.
    AgentError,
}

impl ExitStatus {
    pub fn code(self) -> u8 {
        match self {
            ExitStatus::Pass => 0,
            ExitStatus::Blocked => 1,
            ExitStatus::Error => 2,
            ExitStatus::Escalated => 3,
            ExitStatus::AgentError => 1,
        }
    }
}

impl From<ExitStatus> for ExitCode {
    fn from(status: ExitStatus) -> Self {
        ExitCode::from(status.code())
    }
}
