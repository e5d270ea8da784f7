//! Reading SARIF 2.1.0, the format most security scanners and many linters
//! write (semgrep, CodeQL, bandit, hadolint, tflint, ...). Only the fields a
//! finding needs are read, and every other field may be anything, so a
//! scanner's extensions never make a report unreadable.
//!
//! A result's level is its own, else its rule's default configuration's,
//! else `warning` (SARIF's default): error -> error, warning -> warning,
//! note and none -> note.

use std::collections::HashMap;
use std::path::PathBuf;

use anyhow::{Result, bail};
use serde::Deserialize;

use super::{ToolFinding, position};
use crate::finding::Severity;

#[derive(Deserialize)]
struct Log {
    runs: Vec<Run>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Run {
    tool: Tool,
    #[serde(default)]
    results: Vec<ResultItem>,
    #[serde(default)]
    original_uri_base_ids: HashMap<String, Artifact>,
}

#[derive(Deserialize)]
struct Tool {
    driver: Driver,
}

#[derive(Deserialize)]
struct Driver {
    #[serde(default)]
    rules: Vec<Rule>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Rule {
    id: String,
    help_uri: Option<String>,
    default_configuration: Option<Configuration>,
}

#[derive(Deserialize)]
struct Configuration {
    level: Option<String>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct ResultItem {
    rule_id: Option<String>,
    rule_index: Option<usize>,
    level: Option<String>,
    message: Message,
    #[serde(default)]
    locations: Vec<Location>,
}

#[derive(Deserialize)]
struct Message {
    text: Option<String>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Location {
    physical_location: Option<Physical>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Physical {
    artifact_location: Option<Artifact>,
    region: Option<Region>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Artifact {
    uri: Option<String>,
    uri_base_id: Option<String>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Region {
    start_line: Option<i64>,
    start_column: Option<i64>,
    end_line: Option<i64>,
    end_column: Option<i64>,
}

/// Every result of every run in `text`, with its rule id as the code. A
/// result with no file location (or a location that is not a local file)
/// cannot be placed and is left out; `skipped` counts them.
pub fn read(source: &str, text: &str) -> Result<(Vec<ToolFinding>, usize)> {
    let log: Log = super::json(source, text)?;
    let mut found = Vec::new();
    let mut skipped = 0;
    for run in log.runs {
        let rules = &run.tool.driver.rules;
        for result in &run.results {
            let rule = result.rule_index.and_then(|i| rules.get(i)).or_else(|| {
                result
                    .rule_id
                    .as_ref()
                    .and_then(|id| rules.iter().find(|r| &r.id == id))
            });
            let Some((path, region)) = place(&run, result) else {
                skipped += 1;
                continue;
            };
            let level = result
                .level
                .as_deref()
                .or_else(|| rule.and_then(|r| r.default_configuration.as_ref()?.level.as_deref()))
                .unwrap_or("warning");
            let severity = match level {
                "error" => Severity::Error,
                "warning" => Severity::Warning,
                "note" | "none" => Severity::Note,
                other => bail!("{source}: a result has level `{other}`, which SARIF does not define"),
            };
            let start = region.and_then(|r| position(r.start_line));
            found.push(ToolFinding {
                path,
                line: start,
                column: start.and(region.and_then(|r| position(r.start_column))),
                end_line: start.and(region.and_then(|r| position(r.end_line))),
                // SARIF's end column is one past the last character.
                end_column: start.and(region.and_then(|r| position(r.end_column.map(|c| c - 1)))),
                code: result.rule_id.clone().or_else(|| rule.map(|r| r.id.clone())),
                message: result
                    .message
                    .text
                    .clone()
                    .unwrap_or_else(|| "(no message)".to_string()),
                severity,
                url: rule.and_then(|r| r.help_uri.clone()),
            });
        }
    }
    Ok((found, skipped))
}

/// The file and region of a result's first location; `None` when it has
/// none, or names something that is not a local file (`https://...`,
/// `file://otherhost/...`). The path may still lead anywhere: the gate
/// confines it to the repository before it uses it.
fn place<'a>(run: &Run, result: &'a ResultItem) -> Option<(PathBuf, Option<&'a Region>)> {
    let physical = result.locations.first()?.physical_location.as_ref()?;
    let artifact = physical.artifact_location.as_ref()?;
    let mut uri = artifact.uri.clone()?;
    // A relative uri against a base the run defines with an absolute one.
    if let Some(base) = artifact
        .uri_base_id
        .as_ref()
        .and_then(|id| run.original_uri_base_ids.get(id))
        .and_then(|b| b.uri.as_deref())
        && scheme(&uri).is_none()
    {
        uri = format!("{}/{uri}", base.trim_end_matches('/'));
    }
    Some((path_of(&uri)?, physical.region.as_ref()))
}

/// The scheme of an absolute URI (`file`, `https`); `None` for a relative
/// reference. One letter is a Windows drive (`C:`), not a scheme.
fn scheme(uri: &str) -> Option<&str> {
    let (scheme, _) = uri.split_once(':')?;
    let mut chars = scheme.chars();
    (scheme.len() > 1
        && chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c)))
    .then_some(scheme)
}

/// A file path from a SARIF uri: a relative reference as it is, a `file:`
/// URI without its scheme and its empty or `localhost` host, `%XX` escapes
/// decoded. `None` for another scheme or another host.
fn path_of(uri: &str) -> Option<PathBuf> {
    let path = match scheme(uri) {
        None => uri,
        Some(scheme) if scheme.eq_ignore_ascii_case("file") => {
            let rest = &uri[scheme.len() + 1..];
            match rest.strip_prefix("//") {
                Some(authority_and_path) => {
                    let cut = authority_and_path.find('/').unwrap_or(authority_and_path.len());
                    let (host, path) = authority_and_path.split_at(cut);
                    if !(host.is_empty() || host.eq_ignore_ascii_case("localhost")) {
                        return None;
                    }
                    path
                }
                None => rest,
            }
        }
        Some(_) => return None,
    };
    let bytes = path.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        match (
            bytes[i],
            bytes.get(i + 1).copied().and_then(hex),
            bytes.get(i + 2).copied().and_then(hex),
        ) {
            (b'%', Some(hi), Some(lo)) => {
                out.push(u8::try_from(hi * 16 + lo).unwrap_or(b'?'));
                i += 3;
            }
            (b, _, _) => {
                out.push(b);
                i += 1;
            }
        }
    }
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStringExt;
        Some(PathBuf::from(std::ffi::OsString::from_vec(out)))
    }
    #[cfg(not(unix))]
    Some(PathBuf::from(String::from_utf8_lossy(&out).into_owned()))
}

#[cfg(test)]
mod tests {
    use super::*;

    const LOG: &str = r#"{
      "version": "2.1.0",
      "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
      "runs": [{
        "tool": {"driver": {"name": "scan", "rules": [
          {"id": "no-eval", "helpUri": "https://example.com/no-eval", "defaultConfiguration": {"level": "error"}},
          {"id": "style"}
        ]}},
        "originalUriBaseIds": {"SRC": {"uri": "file:///repo/"}},
        "results": [
          {"ruleId": "no-eval", "message": {"text": "eval is evil"},
           "locations": [{"physicalLocation": {"artifactLocation": {"uri": "src/a%20b.py", "uriBaseId": "SRC"},
             "region": {"startLine": 3, "startColumn": 5, "endColumn": 9}}}]},
          {"ruleIndex": 1, "level": "note", "message": {"text": "nit"}, "suppressions": [],
           "locations": [{"physicalLocation": {"artifactLocation": {"uri": "lib.py"}, "region": {"startLine": 1}}}]},
          {"ruleId": "style", "message": {"text": "no place"}},
          {"ruleId": "style", "message": {"text": "whole file"},
           "locations": [{"physicalLocation": {"artifactLocation": {"uri": "file:///repo/c.py"}}}]}
        ]
      }]
    }"#;

    #[test]
    fn reads_rules_levels_and_places() {
        let (found, skipped) = read("scan", LOG).unwrap();
        assert_eq!(skipped, 1);
        assert_eq!(found.len(), 3);
        assert_eq!(found[0].path, PathBuf::from("/repo/src/a b.py"));
        assert_eq!(
            (found[0].line, found[0].column, found[0].end_column),
            (Some(3), Some(5), Some(8))
        );
        assert_eq!(found[0].severity, Severity::Error, "the rule's default level");
        assert_eq!(found[0].url.as_deref(), Some("https://example.com/no-eval"));
        assert_eq!(found[1].code.as_deref(), Some("style"), "the rule by index");
        assert_eq!(found[1].severity, Severity::Note);
        assert_eq!(found[2].path, PathBuf::from("/repo/c.py"));
        assert_eq!((found[2].line, found[2].severity), (None, Severity::Warning));
    }

    #[test]
    fn uris_become_paths_and_other_schemes_none() {
        let path = |uri: &str| path_of(uri).map(|p| p.display().to_string());
        assert_eq!(path("src/a%20b.py").as_deref(), Some("src/a b.py"));
        assert_eq!(path("file:///etc/passwd").as_deref(), Some("/etc/passwd"));
        assert_eq!(path("file://localhost/etc/passwd").as_deref(), Some("/etc/passwd"));
        assert_eq!(path("file:/etc/passwd").as_deref(), Some("/etc/passwd"));
        assert_eq!(
            path("%2e%2e/%2E%2E/etc").as_deref(),
            Some("../../etc"),
            "decoded; the gate confines it"
        );
        assert_eq!(path("file://evil.example/etc/passwd"), None);
        assert_eq!(path("https://example.com/a.py"), None);
        assert_eq!(scheme("C:/src/a.py"), None);
    }

    #[test]
    fn not_sarif_or_an_unknown_level_is_an_error() {
        assert!(read("scan", "<html>").is_err());
        assert!(read("scan", r#"{"version": "2.1.0"}"#).is_err());
        let bad = r#"{"runs": [{"tool": {"driver": {}}, "results": [{"level": "fatal", "message": {},
            "locations": [{"physicalLocation": {"artifactLocation": {"uri": "a"}}}]}]}]}"#;
        let err = read("scan", bad).unwrap_err();
        assert!(err.to_string().contains("level `fatal`"), "{err}");
    }
}
