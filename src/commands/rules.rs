//! `loki-gate rules`.

use super::*;

/// List every rule, with its gate, default level and summary.
pub(crate) fn rules(global: &GlobalArgs) -> Result<ExitStatus> {
    report::emit(&render_rules(global.format), global.output.as_deref())?;
    Ok(ExitStatus::Pass)
}

/// The rule list as text (one rule a line) or JSON.
pub(crate) fn render_rules(format: Format) -> String {
    let rules = gates::rules();
    if format == Format::Json {
        let list: Vec<_> = rules
            .iter()
            .map(|r| {
                serde_json::json!({"id": r.id, "gate": r.gate, "default_level": r.default_level.to_string(), "summary": r.summary})
            })
            .collect();
        let mut out = serde_json::to_string_pretty(&list).expect("rules serialize");
        out.push('\n');
        return out;
    }
    let width = rules.iter().map(|r| r.id.len()).max().unwrap_or(0);
    rules
        .iter()
        .map(|r| format!("{:width$}  {:5}  {}\n", r.id, r.default_level.to_string(), r.summary))
        .collect()
}
