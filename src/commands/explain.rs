//! `loki-gate explain <rule>`: a rule's page.

use super::*;

/// Print the documentation of `rule` (a rule id, or a tool's own rule id).
pub(crate) fn explain(global: &GlobalArgs, rule: &str) -> Result<ExitStatus> {
    let meta = rule::resolve(gates::rules(), rule)
        .ok_or_else(|| anyhow!("unknown rule `{rule}`: run `loki-gate rules` to list rule ids"))?;
    report::emit(meta.doc, global.output.as_deref())?;
    Ok(ExitStatus::Pass)
}
