//! `loki-gate rules`.

use super::*;

/// List every rule (or `gate`'s), with its gate, default level and summary.
pub(crate) fn rules(global: &GlobalArgs, gate: Option<&str>) -> Result<ExitStatus> {
    if let Some(gate) = gate {
        let mut gates: Vec<&str> = gates::rules().iter().map(|r| r.gate).collect();
        gates.sort_unstable();
        gates.dedup();
        if !gates.contains(&gate) {
            let hint = match crate::wording::nearest(gate, &gates) {
                Some(best) => format!("did you mean `{best}`? "),
                None => String::new(),
            };
            return Err(anyhow!(
                "no gate `{gate}`: {hint}the gates with rules are {}",
                gates.join(", ")
            ));
        }
    }
    report::emit(&render_rules(global.format, gate), global.output.as_deref())?;
    Ok(ExitStatus::Pass)
}

/// The rule list (of `gate`, or all) as text (one rule a line) or JSON.
pub(crate) fn render_rules(format: Format, gate: Option<&str>) -> String {
    let rules: Vec<&rule::RuleMeta> = gates::rules()
        .iter()
        .copied()
        .filter(|r| gate.is_none_or(|g| r.gate == g))
        .collect();
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
