//! `--format json`: the version 1 wire format (`docs/output-formats.md`).
//!
//! One gate: `{"version":1,"tool":{..},"gate":..,"outcome":..,"summary":{..},
//! "notices":[..],"inconclusive":..,"findings":[..]}`. Several gates (`check`):
//! `{"version":1,"tool":{..},"outcome":..,"gates":[<one object per gate>]}`,
//! which `check` always writes, whatever `--gates` picked.
//! Fields are only ever added within a version, never renamed or removed.

use serde::{Deserialize, Serialize};

use super::coverage::Coverage;
use super::{GateReport, Outcome};
use crate::finding::{Finding, Severity};
use crate::trust::waiver::Waiver;

pub const VERSION: u32 = 1;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tool {
    pub name: String,
    pub version: String,
}

impl Tool {
    pub fn this() -> Self {
        Tool {
            name: "loki-gate".into(),
            version: env!("CARGO_PKG_VERSION").into(),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Summary {
    pub files: usize,
    pub errors: usize,
    pub warnings: usize,
    pub notes: usize,
    pub elapsed_ms: u64,
    /// Findings hidden by inline suppressions.
    pub suppressed: usize,
    /// Findings hidden by `--baseline`.
    pub baselined: usize,
    /// Findings the base revision already had (each marked `at_base`): a
    /// change run reports them, as warnings unless `pre-existing: block`.
    #[serde(default)]
    pub at_base: usize,
}

/// One gate's report on the wire.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GateJson {
    pub version: u32,
    pub tool: Tool,
    pub gate: String,
    pub outcome: Outcome,
    pub summary: Summary,
    pub notices: Vec<String>,
    pub inconclusive: Option<String>,
    pub error: Option<String>,
    pub findings: Vec<Finding>,
    /// Present when `evidence` read coverage reports.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub coverage: Option<Coverage>,
    /// Every waiver in play: inline suppressions, trailers, config keys that
    /// lower the bar, baselines; where each came from and what became of it.
    #[serde(default)]
    pub waivers: Vec<Waiver>,
}

/// Several gates on the wire (`loki-gate check`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CheckJson {
    pub version: u32,
    pub tool: Tool,
    pub outcome: Outcome,
    pub gates: Vec<GateJson>,
}

/// Read a saved JSON report (one gate, or `check`'s envelope) back.
pub fn parse(text: &str) -> Result<Vec<GateReport>, String> {
    let value: serde_json::Value = serde_json::from_str(text)
        .map_err(|e| format!("not a JSON report ({e}): write it with --format json -o FILE"))?;
    if value["version"] != VERSION {
        return Err(format!(
            "report version {} is not {VERSION}: use the loki-gate that wrote it",
            value["version"]
        ));
    }
    let gates: Vec<GateJson> = if value.get("gates").is_some() {
        serde_json::from_value::<CheckJson>(value)
            .map_err(|e| format!("not a loki-gate report: {e}"))?
            .gates
    } else {
        vec![serde_json::from_value::<GateJson>(value).map_err(|e| format!("not a loki-gate report: {e}"))?]
    };
    gates
        .into_iter()
        .map(|g| {
            let gate = crate::config::schema::GATE_NAMES
                .iter()
                .find(|name| **name == g.gate)
                .ok_or_else(|| format!("unknown gate `{}` in the report", g.gate))?;
            Ok(GateReport {
                gate,
                outcome: g.outcome,
                findings: g.findings,
                files: g.summary.files,
                elapsed_ms: g.summary.elapsed_ms,
                notices: g.notices,
                inconclusive: g.inconclusive,
                suppressed: g.summary.suppressed,
                baselined: g.summary.baselined,
                at_base: g.summary.at_base,
                error: g.error,
                coverage: g.coverage,
                waivers: g.waivers,
            })
        })
        .collect()
}

pub fn gate_json(r: &GateReport) -> GateJson {
    GateJson {
        version: VERSION,
        tool: Tool::this(),
        gate: r.gate.to_string(),
        outcome: r.outcome,
        summary: Summary {
            files: r.files,
            errors: r.count(Severity::Error),
            warnings: r.count(Severity::Warning),
            notes: r.count(Severity::Note),
            elapsed_ms: r.elapsed_ms,
            suppressed: r.suppressed,
            baselined: r.baselined,
            at_base: r.at_base,
        },
        notices: r.notices.clone(),
        inconclusive: r.inconclusive.clone(),
        error: r.error.clone(),
        findings: r.findings.clone(),
        coverage: r.coverage.clone(),
        waivers: r.waivers.clone(),
    }
}

/// The outcome of several gates, which the exit status follows. A block
/// outranks a gate that could not run, so that a pipeline which reads exit 2
/// as "a tool problem" never lets a block through; an escalation (the loop
/// is stuck: a person takes over) outranks both. See docs/exit-codes.md.
pub fn combined(reports: &[GateReport]) -> Outcome {
    let rank = |o: Outcome| match o {
        Outcome::Pass => 0,
        Outcome::Inconclusive => 1,
        Outcome::Error => 2,
        Outcome::Blocked => 3,
        Outcome::Escalated => 4,
    };
    reports
        .iter()
        .map(|r| r.outcome)
        .max_by_key(|o| rank(*o))
        .unwrap_or(Outcome::Pass)
}

/// One gate's object, or with `envelope` (`check`) or several gates the
/// combined `{"gates": [..]}`.
pub fn render(reports: &[GateReport], envelope: bool) -> String {
    let mut out = match reports {
        [one] if !envelope => serde_json::to_string_pretty(&gate_json(one)),
        many => serde_json::to_string_pretty(&CheckJson {
            version: VERSION,
            tool: Tool::this(),
            outcome: combined(many),
            gates: many.iter().map(gate_json).collect(),
        }),
    }
    .expect("reports serialize");
    out.push('\n');
    out
}

/// Per rule and level, how many findings `reports` hold: most first, then
/// by rule id and level.
pub fn rule_counts(reports: &[GateReport]) -> Vec<(String, Severity, usize)> {
    let mut counts: std::collections::BTreeMap<(String, Severity), usize> = std::collections::BTreeMap::new();
    for f in reports.iter().flat_map(|r| &r.findings) {
        *counts.entry((f.rule.to_string(), f.severity)).or_default() += 1;
    }
    let mut rows: Vec<(String, Severity, usize)> = counts.into_iter().map(|((r, s), n)| (r, s, n)).collect();
    rows.sort_by(|a, b| b.2.cmp(&a.2).then_with(|| a.0.cmp(&b.0)).then_with(|| b.1.cmp(&a.1)));
    rows
}

/// `--statistics --format json`: `[{"rule", "level", "count"}]`, in
/// [`rule_counts`]' order.
pub fn statistics(reports: &[GateReport]) -> String {
    let rows: Vec<serde_json::Value> = rule_counts(reports)
        .into_iter()
        .map(|(rule, severity, count)| serde_json::json!({ "rule": rule, "level": severity.as_str(), "count": count }))
        .collect();
    let mut out = serde_json::to_string_pretty(&rows).expect("counts serialize");
    out.push('\n');
    out
}
