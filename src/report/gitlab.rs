//! `--format gitlab`: a GitLab Code Quality report (`artifacts: reports:
//! codequality:`), which merge requests show as new and fixed issues.
//!
//! A JSON array of Code Climate issues with the fields GitLab reads:
//! `description`, `check_name` (the rule), `fingerprint`, `severity` (error
//! -> `major`, warning -> `minor`, note -> `info`) and `location.path` with
//! `location.lines.begin` (and `end`). A finding about the change as a
//! whole, with no file, is placed on the repository (`.`, line 1).
//!
//! GitLab compares fingerprints between the base's report and the merge
//! request's to tell new issues from fixed ones, so they must be stable and
//! unique: loki-gate's fingerprint leaves out line numbers (a finding keeps
//! it when code moves), and a second finding with the same one gets its
//! rank appended.

use serde_json::{Value, json};

use super::GateReport;
use crate::finding::Severity;

pub fn render(reports: &[GateReport]) -> String {
    let mut seen: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    let issues: Vec<Value> = reports
        .iter()
        .flat_map(|r| &r.findings)
        .map(|f| {
            let rank = seen.entry(f.fingerprint.as_str()).or_default();
            *rank += 1;
            let fingerprint = match *rank {
                1 => f.fingerprint.clone(),
                n => format!("{}-{n}", f.fingerprint),
            };
            let begin = f.line.unwrap_or(1);
            let mut body = Vec::new();
            if let Some(help) = &f.help {
                body.push(format!("help: {help}"));
            }
            body.extend(f.notes.iter().map(|n| format!("note: {n}")));
            json!({
                "type": "issue",
                "check_name": f.rule,
                "description": f.message,
                "content": { "body": body.join("\n") },
                "fingerprint": fingerprint,
                "severity": match f.severity {
                    Severity::Error => "major",
                    Severity::Warning => "minor",
                    Severity::Note => "info",
                },
                "location": {
                    "path": f.path.as_deref().unwrap_or("."),
                    "lines": { "begin": begin, "end": f.end_line.unwrap_or(begin).max(begin) },
                },
            })
        })
        .collect();
    let mut out = serde_json::to_string_pretty(&issues).expect("issues serialize");
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_repeated_fingerprint_gets_its_rank_and_a_fileless_finding_sits_on_the_repository() {
        let rule = &crate::gates::mock::rules::NO_ASSERTION;
        let f = crate::finding::Finding::new(rule, "same").at("a.py", 3, 1);
        let whole = crate::finding::Finding::new(rule, "about the change");
        let report = GateReport::of("mock", super::super::Outcome::Blocked, vec![f.clone(), f, whole]);
        let issues: Vec<Value> = serde_json::from_str(&render(&[report])).unwrap();
        let first = issues[0]["fingerprint"].as_str().unwrap();
        assert_eq!(issues[1]["fingerprint"].as_str().unwrap(), format!("{first}-2"));
        assert_eq!(
            issues[2]["location"],
            json!({"path": ".", "lines": {"begin": 1, "end": 1}})
        );
    }
}
