//! `--format sarif`: SARIF 2.1.0 for GitHub code scanning.
//!
//! One run per report, rules from the registry's metadata (id, summary,
//! help, default level, full doc as markdown), `partialFingerprints`
//! (`lokiGate/v1`) so code scanning tracks a finding across pushes.
//! Findings about the change as a whole (no file) carry no location; code
//! scanning does not display those, the annotations and PR comment do.

use std::collections::BTreeMap;

use serde_sarif::sarif;

use super::GateReport;
use crate::finding::{Finding, Severity};
use crate::rule::{self, Level, RuleMeta};
use crate::trust::waiver::{Kind, Status, Waiver};

pub const FINGERPRINT_KEY: &str = "lokiGate/v1";

fn text(s: &str) -> sarif::MultiformatMessageString {
    sarif::MultiformatMessageString::builder().text(s).build()
}

fn level_name(level: Level) -> &'static str {
    match level {
        Level::Allow => "none",
        Level::Note => "note",
        Level::Warn => "warning",
        Level::Deny => "error",
    }
}

fn descriptor(r: &RuleMeta) -> sarif::ReportingDescriptor {
    sarif::ReportingDescriptor::builder()
        .id(r.id)
        .name(r.id.split_once('/').map_or(r.id, |(_, n)| n))
        .short_description(text(r.summary))
        .full_description(text(r.summary))
        .help(
            sarif::MultiformatMessageString::builder()
                .text(r.help)
                .markdown(r.doc)
                .build(),
        )
        .default_configuration(
            sarif::ReportingConfiguration::builder()
                .level(serde_json::Value::from(level_name(r.default_level)))
                .build(),
        )
        .build()
}

/// A repo-relative file, with a region when there is a start line.
fn physical(path: &str, start: Option<(u32, Option<u32>)>, end: Option<(u32, Option<u32>)>) -> sarif::PhysicalLocation {
    let artifact = sarif::ArtifactLocation::builder()
        .uri(path.to_string())
        .uri_base_id("%SRCROOT%")
        .build();
    let mut physical = sarif::PhysicalLocation::builder().artifact_location(artifact).build();
    if let Some((line, column)) = start {
        let mut region = sarif::Region::builder().build();
        region.start_line = Some(i64::from(line));
        region.start_column = column.map(i64::from);
        region.end_line = end.map(|(line, _)| i64::from(line));
        region.end_column = end.and_then(|(_, column)| column).map(i64::from);
        physical.region = Some(region);
    }
    physical
}

fn result(f: &Finding, index: Option<usize>) -> sarif::Result {
    let level = match f.severity {
        Severity::Error => sarif::ResultLevel::Error,
        Severity::Warning => sarif::ResultLevel::Warning,
        Severity::Note => sarif::ResultLevel::Note,
    };
    let mut message = f.message.clone();
    if let Some(help) = &f.help {
        message.push_str("\nhelp: ");
        message.push_str(help);
    }
    let fingerprints = BTreeMap::from([(FINGERPRINT_KEY.to_string(), f.fingerprint.clone())]);
    let mut r = sarif::Result::builder()
        .rule_id(f.rule.clone())
        .level(level)
        .message(sarif::Message::builder().text(message).build())
        .partial_fingerprints(fingerprints)
        .build();
    r.rule_index = index.and_then(|i| i64::try_from(i).ok());
    // The base revision had it: code scanning shows it as not new.
    if f.at_base {
        r.baseline_state = Some(serde_json::json!("unchanged"));
    }
    if let Some(path) = &f.path {
        let start = f.line.map(|line| (line, f.column));
        let physical = physical(path, start, f.end_line.map(|line| (line, f.end_column)));
        r.locations = Some(vec![sarif::Location::builder().physical_location(physical).build()]);
    }
    if !f.related.is_empty() {
        let related = f
            .related
            .iter()
            .enumerate()
            .map(|(i, l)| {
                let physical = physical(&l.path, l.line.map(|line| (line, l.column)), None);
                let mut location = sarif::Location::builder().physical_location(physical).build();
                location.id = i64::try_from(i).ok();
                location.message = l.message.clone().map(|m| sarif::Message::builder().text(m).build());
                location
            })
            .collect();
        r.related_locations = Some(related);
    }
    r
}

/// A waiver as a SARIF suppression: in the source (a comment) or outside it
/// (a trailer, a baseline); accepted when trusted, under review when the
/// change added it and no one trusted has acknowledged it yet.
fn waiver_suppression(waiver: &Waiver) -> sarif::Suppression {
    let kind = match waiver.kind {
        Kind::Suppression | Kind::ToolSuppression => "inSource",
        Kind::Trailer | Kind::Config | Kind::Baseline | Kind::ToolConfig => "external",
    };
    let status = match waiver.status {
        Status::Honoured | Status::Acknowledged => "accepted",
        Status::Warned => "underReview",
        Status::Held => "rejected",
    };
    suppression(kind, status, &waiver.reason)
}

fn suppression(kind: &str, status: &str, justification: &str) -> sarif::Suppression {
    let mut s = sarif::Suppression::builder().kind(serde_json::json!(kind)).build();
    s.status = Some(serde_json::json!(status));
    s.justification = Some(justification.to_string());
    s
}

pub fn render(reports: &[GateReport]) -> String {
    let runs = reports
        .iter()
        .map(|report| {
            // Rules: every rule of this gate, plus any other rule that fired (meta/...).
            let mut rules: Vec<&RuleMeta> = crate::gates::rules()
                .iter()
                .copied()
                .filter(|r| r.gate == report.gate)
                .collect();
            for f in &report.findings {
                if !rules.iter().any(|r| r.id == f.rule)
                    && let Some(meta) = rule::find(crate::gates::rules(), &f.rule)
                {
                    rules.push(meta);
                }
            }
            let hidden = report
                .waivers
                .iter()
                .flat_map(|w| w.findings.iter().map(move |f| (w, f)));
            for (_, f) in hidden.clone() {
                if !rules.iter().any(|r| r.id == f.rule)
                    && let Some(meta) = rule::find(crate::gates::rules(), &f.rule)
                {
                    rules.push(meta);
                }
            }
            let mut results = report
                .findings
                .iter()
                .map(|f| {
                    let mut r = result(f, rules.iter().position(|r| r.id == f.rule));
                    // Acknowledged outside the source (a commit trailer).
                    if let Some(ack) = &f.acknowledged {
                        let status = if ack.accepted { "accepted" } else { "underReview" };
                        r.suppressions = Some(vec![suppression("external", status, &ack.justification)]);
                    }
                    r
                })
                .collect::<Vec<_>>();
            // What a waiver hid is a result with a suppression, as SARIF
            // defines one: consumers (code scanning) show it as dismissed.
            results.extend(hidden.map(|(waiver, f)| {
                let mut r = result(f, rules.iter().position(|r| r.id == f.rule));
                r.suppressions = Some(vec![waiver_suppression(waiver)]);
                r
            }));
            let mut driver = sarif::ToolComponent::builder()
                .name("loki-gate")
                .version(env!("CARGO_PKG_VERSION"))
                .rules(rules.iter().map(|r| descriptor(r)).collect::<Vec<_>>())
                .build();
            driver.information_uri = information_uri();
            sarif::Run::builder()
                .tool(sarif::Tool::builder().driver(driver).build())
                .results(results)
                .automation_details(
                    sarif::RunAutomationDetails::builder()
                        .id(format!("loki-gate/{}/", report.gate))
                        .build(),
                )
                .build()
        })
        .collect::<Vec<_>>();
    let doc = sarif::Sarif::builder()
        .schema("https://json.schemastore.org/sarif-2.1.0.json")
        .version(serde_json::to_value(sarif::Version::V2_1_0).expect("version serializes"))
        .runs(runs)
        .build();
    let mut out = serde_json::to_string_pretty(&doc).expect("sarif serializes");
    out.push('\n');
    out
}

/// Where users read about loki-gate (`tool.driver.informationUri`): the
/// package's homepage, once the account that hosts it is filled in
/// (`Cargo.toml`; until then it names the placeholder `OWNER`, which is
/// never written into a user's report).
fn information_uri() -> Option<String> {
    let homepage = env!("CARGO_PKG_HOMEPAGE");
    (!homepage.is_empty() && !homepage.contains("/OWNER/")).then(|| homepage.to_string())
}
