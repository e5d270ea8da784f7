//! A reviewer's answer: the JSON verdict it must give, found wherever the
//! answer put it (alone, in a code fence, inside prose) and checked against
//! the schema. Anything else is no verdict: the reviewer is inconclusive,
//! so a wrong or empty answer can never pass as an approval.

pub use crate::gates::records::{Issue, Severity, Verdict};
use serde_json::Value;

/// The answer schema, as the prompt states it.
pub const SCHEMA: &str = r#"{"verdict": "approve" | "reject", "findings": [{"severity": "critical" | "high" | "medium" | "low", "path": "src/file.rs", "line": 42, "message": "what is wrong and why"}]}"#;

/// Answers longer than this are not searched for a verdict.
const MAX_ANSWER_BYTES: usize = 1 << 20;

/// The verdict in `answer`, or why there is none. When the answer holds
/// several objects with a `verdict` key, the last one counts (models think
/// aloud first, then answer).
pub fn parse(answer: &str) -> Result<Verdict, String> {
    if answer.trim().is_empty() {
        return Err("the answer was empty".into());
    }
    if answer.len() > MAX_ANSWER_BYTES {
        return Err(format!("the answer is over {MAX_ANSWER_BYTES} bytes"));
    }
    let mut last: Option<Value> = None;
    let mut at = 0;
    while let Some(offset) = answer[at..].find('{') {
        let start = at + offset;
        let mut values = serde_json::Deserializer::from_str(&answer[start..]).into_iter::<Value>();
        match values.next() {
            Some(Ok(value)) if value.get("verdict").is_some() => {
                at = start + values.byte_offset();
                last = Some(value);
            }
            _ => at = start + 1,
        }
    }
    let Some(value) = last else {
        return Err("no JSON object with a \"verdict\" in the answer".into());
    };
    check(&value)
}

/// Check a candidate against the schema.
fn check(value: &Value) -> Result<Verdict, String> {
    let approve = match value["verdict"].as_str().map(|v| v.trim().to_ascii_lowercase()) {
        Some(v) if v == "approve" => true,
        Some(v) if v == "reject" => false,
        Some(v) => return Err(format!("\"verdict\" is \"{v}\"; it must be \"approve\" or \"reject\"")),
        None => return Err("\"verdict\" is not a string".into()),
    };
    let issues = match &value["findings"] {
        Value::Null => Vec::new(),
        Value::Array(items) => items
            .iter()
            .enumerate()
            .map(|(i, item)| issue(item).map_err(|e| format!("findings[{i}]: {e}")))
            .collect::<Result<Vec<Issue>, String>>()?,
        _ => return Err("\"findings\" is not a list".into()),
    };
    Ok(Verdict { approve, issues })
}

fn issue(item: &Value) -> Result<Issue, String> {
    let severity = match item["severity"]
        .as_str()
        .map(|s| s.trim().to_ascii_lowercase())
        .as_deref()
    {
        Some("critical") => Severity::Critical,
        Some("high") => Severity::High,
        Some("medium") => Severity::Medium,
        Some("low") => Severity::Low,
        Some(other) => return Err(format!("severity \"{other}\" is not critical, high, medium or low")),
        None => return Err("no \"severity\"".into()),
    };
    let message = item["message"].as_str().map(str::trim).unwrap_or_default();
    if message.is_empty() {
        return Err("no \"message\"".into());
    }
    let path = match &item["path"] {
        Value::Null => None,
        Value::String(p) if p.trim().is_empty() => None,
        Value::String(p) => Some(p.trim().trim_start_matches("./").to_string()),
        _ => return Err("\"path\" is not a string".into()),
    };
    let line = match &item["line"] {
        Value::Null => None,
        Value::Number(n) => Some(
            n.as_u64()
                .and_then(|n| u32::try_from(n).ok())
                .filter(|n| *n > 0)
                .ok_or_else(|| format!("\"line\" {n} is not a line number"))?,
        ),
        // "12" is a line number written as a string.
        Value::String(s) => Some(
            s.trim()
                .parse::<u32>()
                .ok()
                .filter(|n| *n > 0)
                .ok_or_else(|| format!("\"line\" \"{s}\" is not a line number"))?,
        ),
        _ => return Err("\"line\" is not a number".into()),
    };
    Ok(Issue {
        severity,
        path,
        line,
        message: message.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bare_fenced_or_prose_wrapped_verdict_is_read() {
        let bare = r#"{"verdict":"approve","findings":[]}"#;
        assert_eq!(
            parse(bare),
            Ok(Verdict {
                approve: true,
                issues: Vec::new()
            })
        );
        let fenced = "Here is my review.\n\n```json\n{\n  \"verdict\": \"reject\",\n  \"findings\": [{\"severity\": \"HIGH\", \"path\": \"./src/a.rs\", \"line\": \"12\", \"message\": \"off by one\"}]\n}\n```\nThanks!";
        let verdict = parse(fenced).unwrap();
        assert!(!verdict.approve);
        assert_eq!(
            verdict.issues,
            vec![Issue {
                severity: Severity::High,
                path: Some("src/a.rs".into()),
                line: Some(12),
                message: "off by one".into()
            }]
        );
        // Thinking aloud with an example first: the last verdict counts.
        let prose = r#"The format is {"verdict": "approve"} when fine. My answer: {"verdict": "reject", "findings": [{"severity": "low", "message": "naming"}]} done."#;
        assert!(!parse(prose).unwrap().approve);
        // Braces in prose before the verdict do not hide it.
        assert!(parse(r#"fn f() { x } then {"verdict":"approve"}"#).unwrap().approve);
    }

    #[test]
    fn anything_but_a_valid_verdict_is_no_verdict() {
        for (answer, why) in [
            ("", "empty"),
            ("   \n", "empty"),
            ("I cannot help with that.", "no JSON object"),
            (r#"{"approve": true}"#, "no JSON object"),
            (r#"{"verdict": "lgtm"}"#, "must be \"approve\" or \"reject\""),
            (r#"{"verdict": true}"#, "not a string"),
            (r#"{"verdict": "approve", "findings": {}}"#, "not a list"),
            (
                r#"{"verdict": "approve", "findings": [{"severity": "blocker", "message": "x"}]}"#,
                "findings[0]: severity",
            ),
            (
                r#"{"verdict": "reject", "findings": [{"severity": "high"}]}"#,
                "findings[0]: no \"message\"",
            ),
            (
                r#"{"verdict": "reject", "findings": [{"severity": "high", "message": "m", "line": -3}]}"#,
                "is not a line number",
            ),
            (r#"{"verdict": "approve", "findings": [ "#, "no JSON object"),
        ] {
            let err = parse(answer).unwrap_err();
            assert!(err.contains(why), "{answer:?}: {err}");
        }
    }
}
