//! `loki-gate explain <rule>`: a rule's page.

use super::*;

/// Print the documentation of `rule` (a rule id, or a tool's own rule id).
pub(crate) fn explain(global: &GlobalArgs, rule: &str) -> Result<ExitStatus> {
    let rules = gates::rules();
    let meta = rule::resolve(rules, rule).ok_or_else(|| {
        let ids: Vec<&str> = rules.iter().map(|r| r.id).collect();
        match crate::wording::nearest(rule, &ids) {
            Some(best) => anyhow!("unknown rule `{rule}`: did you mean `{best}`? (`loki-gate rules` lists them)"),
            None => anyhow!("unknown rule `{rule}`: run `loki-gate rules` to list rule ids"),
        }
    })?;
    report::emit(meta.doc, global.output.as_deref())?;
    Ok(ExitStatus::Pass)
}
