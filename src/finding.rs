//! The finding: the one shape every gate returns and every renderer reads.

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::rule::RuleMeta;

/// How serious a finding is, after the rule's level has been resolved.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Note,
    Warning,
    Error,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Note => "note",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
}

/// A place in a file (1-based line and column).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Location {
    pub path: String,
    pub line: Option<u32>,
    pub column: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
}

/// One problem found by a gate. Findings are data, not errors.
///
/// `path` is repo-relative with `/` separators; it, and the line and column
/// fields, are `None` for findings about the change as a whole (an empty diff,
/// red tests). `severity` is set from the rule's resolved level by the engine,
/// never by the gate.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Finding {
    pub rule: String,
    pub severity: Severity,
    pub message: String,
    pub path: Option<String>,
    pub line: Option<u32>,
    pub column: Option<u32>,
    pub end_line: Option<u32>,
    pub end_column: Option<u32>,
    pub help: Option<String>,
    pub notes: Vec<String>,
    pub related: Vec<Location>,
    pub fingerprint: String,
    /// A change run found it on the base revision too: the change did not
    /// introduce it ([`crate::gates::at_base`]). Written only when true.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub at_base: bool,
    /// Source lines `line..=end_line` (for the text renderer); not part of the wire format.
    /// A gate that reports on another version of a file (a commit) sets them;
    /// otherwise the pipeline reads them from the working tree.
    #[serde(skip)]
    pub snippet: Vec<String>,
    /// The most severe this finding may be, whatever its rule's level (an
    /// acknowledged finding is at most a note).
    #[serde(skip)]
    pub ceiling: Option<Severity>,
    /// The level a tool's own rule (`static/ruff:F401`) has when no setting
    /// names it: the tool's severity on the ladder, against `fail-on`.
    #[serde(skip)]
    pub proposed: Option<crate::rule::Level>,
    /// A waiver outside the source acknowledged this finding (a commit
    /// trailer): SARIF shows it as suppressed, with this justification.
    #[serde(skip)]
    pub acknowledged: Option<Acknowledged>,
    /// What a reviewer is asked to decide about findings like this one, when
    /// a gate cannot decide alone (`Expectations changed with the code:
    /// confirm they are intended`): the PR comment groups them under it.
    #[serde(skip)]
    pub confirm: Option<&'static str>,
}

/// How a waiver outside the source acknowledged a finding.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Acknowledged {
    pub justification: String,
    /// Trusted (the base's, or acknowledged by someone trusted); else it
    /// applies only because the run does not enforce.
    pub accepted: bool,
}

impl Finding {
    /// A finding for `rule` with a one-line message. The help line defaults to
    /// the rule's own; severity is provisional until levels are applied.
    pub fn new(rule: &RuleMeta, message: impl Into<String>) -> Self {
        Finding {
            rule: rule.id.to_string(),
            severity: Severity::Error,
            message: message.into(),
            path: None,
            line: None,
            column: None,
            end_line: None,
            end_column: None,
            help: Some(rule.help.to_string()),
            notes: Vec::new(),
            related: Vec::new(),
            fingerprint: String::new(),
            at_base: false,
            snippet: Vec::new(),
            ceiling: None,
            proposed: None,
            acknowledged: None,
            confirm: None,
        }
    }

    /// Anchor the finding at a file (no line).
    pub fn in_file(mut self, path: impl Into<String>) -> Self {
        self.path = Some(path.into());
        self
    }

    /// Anchor the finding at `path:line:column`.
    pub fn at(mut self, path: impl Into<String>, line: u32, column: u32) -> Self {
        self.path = Some(path.into());
        self.line = Some(line);
        self.column = Some(column);
        self
    }

    /// Set where the finding ends (inclusive line, exclusive column as in SARIF).
    pub fn until(mut self, end_line: u32, end_column: u32) -> Self {
        self.end_line = Some(end_line);
        self.end_column = Some(end_column);
        self
    }

    pub fn help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }

    pub fn note(mut self, note: impl Into<String>) -> Self {
        self.notes.push(note.into());
        self
    }

    /// Compute the fingerprint from the rule, the path and `basis` (normally the
    /// flagged source text). Line numbers are left out on purpose, so a finding
    /// keeps its fingerprint when code above it moves.
    pub fn fingerprint_from(&mut self, basis: &str) {
        let normalized: String = basis.split_whitespace().collect::<Vec<_>>().join(" ");
        let mut hasher = Sha256::new();
        hasher.update(self.rule.as_bytes());
        hasher.update([0]);
        hasher.update(self.path.as_deref().unwrap_or("").as_bytes());
        hasher.update([0]);
        hasher.update(normalized.as_bytes());
        self.fingerprint = hex(&hasher.finalize());
    }
}

/// Lower-case hex of a digest.
pub fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write;
    bytes.iter().fold(String::with_capacity(bytes.len() * 2), |mut s, b| {
        let _ = write!(s, "{b:02x}");
        s
    })
}

/// sha256 of `bytes`, as lower-case hex.
pub fn sha256_hex(bytes: &[u8]) -> String {
    hex(&Sha256::digest(bytes))
}

/// At most 60 characters of a value, for one line of a message or a list.
pub(crate) fn clip(text: &str) -> String {
    const MAX: usize = 60;
    match text.char_indices().nth(MAX) {
        Some((at, _)) => format!("{}\u{2026}", &text[..at]),
        None => text.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rule::{Level, RuleMeta};

    const R: RuleMeta = RuleMeta {
        id: "meta/test-rule",
        gate: "meta",
        default_level: Level::Deny,
        summary: "s",
        help: "h",
        doc: "",
    };

    #[test]
    fn fingerprint_ignores_line_numbers_and_whitespace() {
        let mut a = Finding::new(&R, "m").at("a.py", 3, 1);
        let mut b = Finding::new(&R, "m").at("a.py", 40, 9);
        a.fingerprint_from("assert  x ==  x");
        b.fingerprint_from("    assert x == x\n");
        assert_eq!(a.fingerprint, b.fingerprint);
        assert_eq!(a.fingerprint.len(), 64);
    }

    #[test]
    fn fingerprint_depends_on_path_and_text() {
        let mut a = Finding::new(&R, "m").at("a.py", 3, 1);
        let mut b = Finding::new(&R, "m").at("b.py", 3, 1);
        let mut c = Finding::new(&R, "m").at("a.py", 3, 1);
        a.fingerprint_from("x");
        b.fingerprint_from("x");
        c.fingerprint_from("y");
        assert_ne!(a.fingerprint, b.fingerprint);
        assert_ne!(a.fingerprint, c.fingerprint);
    }
}
