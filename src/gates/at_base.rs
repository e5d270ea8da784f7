//! Holding the line: what a change run finds that the base revision already
//! had belongs to the base, not to the change.
//!
//! A gate that can judge the base revision of the files it reported on hands
//! the pipeline an [`AtBase`]: the findings it raises there (each under the
//! path the file has in the change), the base text they point into, and the
//! files whose base version is the one the change has. The pipeline
//! fingerprints those findings as it fingerprints the change's, and each of
//! the change's findings that one of them matches (a finding at the base is
//! used once) is marked [`Finding::at_base`]: by default it is at most a
//! warning, so only what the change introduced can block. `--all-files` is
//! an audit of the whole tree and has no base to compare with.

use std::collections::{BTreeSet, HashMap};

use crate::changed::Lines;
use crate::finding::{Finding, Severity};
use crate::walk::SourceFile;

/// What a gate raises on the base revision of the files it reported on.
#[derive(Debug, Default)]
pub struct AtBase {
    /// The base commit, for the note (short id), or `None` for the empty tree.
    pub commit: Option<String>,
    /// Findings on the base version of changed files, under each file's path in the change.
    pub findings: Vec<Finding>,
    /// The base text of each file `findings` point into.
    pub sources: Vec<SourceFile>,
    /// Files (as findings name them) whose base version is the one the
    /// change has: every finding on them was there at the base.
    pub unchanged: BTreeSet<String>,
    /// The lines the change added or modified, per changed file: where a
    /// finding repeats, the copies on them are the change's.
    pub changed: HashMap<String, Lines>,
    /// What a finding at the base may be: `None` keeps its rule's level
    /// (`pre-existing: block`), `Some(Warning)` by default.
    pub ceiling: Option<Severity>,
}

/// What the `pre-existing` key of a gate's `section` lets a finding the
/// base already had be: at most a warning, or (`block`) its rule's level.
pub fn ceiling(section: &crate::config::Section) -> Option<Severity> {
    (section.str("pre-existing") != "block").then_some(Severity::Warning)
}

/// The key [`Finding::at_base`] findings are matched by besides their
/// fingerprint: the same rule says the same thing about the same file (a
/// test edited but still hollow, its first lines changed).
fn said(f: &Finding) -> (&str, Option<&str>, &str) {
    (f.rule.as_str(), f.path.as_deref(), f.message.as_str())
}

/// Mark the findings (fingerprinted) that `base` (fingerprinted the same
/// way) already had; returns how many. Findings on changed lines are
/// matched last, so when a finding repeats, the copy the change wrote is
/// the one left standing.
pub(crate) fn mark(findings: &mut [Finding], base: &AtBase, gate: &str) -> usize {
    // Each finding at the base is matched once, by either key.
    let mut by_print: HashMap<&str, Vec<usize>> = HashMap::new();
    let mut by_said: HashMap<(&str, Option<&str>, &str), Vec<usize>> = HashMap::new();
    for (i, f) in base.findings.iter().enumerate() {
        by_print.entry(f.fingerprint.as_str()).or_default().push(i);
        by_said.entry(said(f)).or_default().push(i);
    }
    let mut used = vec![false; base.findings.len()];
    let mut take = |candidates: Option<&Vec<usize>>| {
        let free = candidates?.iter().copied().find(|&i| !used[i])?;
        used[free] = true;
        Some(())
    };
    let on_change = |f: &Finding| match (&f.path, f.line) {
        (Some(path), Some(line)) => base.changed.get(path).is_some_and(|l| l.contains(line)),
        _ => false,
    };
    let mut order: Vec<usize> = (0..findings.len()).collect();
    order.sort_by_key(|&i| on_change(&findings[i]));
    let mut known = vec![false; findings.len()];
    for &i in &order {
        let f = &findings[i];
        known[i] = f.path.as_ref().is_some_and(|p| base.unchanged.contains(p.as_str()))
            || take(by_print.get(f.fingerprint.as_str())).is_some();
    }
    // What no fingerprint matched may still be the same finding on a test
    // whose first lines changed.
    for &i in &order {
        if !known[i] {
            known[i] = take(by_said.get(&said(&findings[i]))).is_some();
        }
    }
    let at = base.commit.as_deref().map_or_else(
        || "the base".to_string(),
        |c| format!("the base ({})", crate::git::short(c)),
    );
    let mut count = 0;
    for (f, known) in findings.iter_mut().zip(known) {
        if !known {
            continue;
        }
        count += 1;
        f.at_base = true;
        if let Some(ceiling) = base.ceiling {
            f.ceiling = Some(f.ceiling.map_or(ceiling, |c| c.min(ceiling)));
        }
        f.notes.push(format!(
            "already at {at}: this change did not introduce it{}",
            if base.ceiling.is_some() {
                format!(" (a warning; `gates.{gate}.pre-existing: block` makes it block)")
            } else {
                String::new()
            }
        ));
    }
    count
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rule::{Level, RuleMeta};

    const R: RuleMeta = RuleMeta {
        id: "mock/test-rule",
        gate: "mock",
        default_level: Level::Deny,
        summary: "s",
        help: "h",
        doc: "",
    };

    fn finding(message: &str, line: u32, print: &str) -> Finding {
        let mut f = Finding::new(&R, message).at("t.py", line, 1);
        f.fingerprint = print.to_string();
        f
    }

    fn base(findings: Vec<Finding>) -> AtBase {
        AtBase {
            commit: Some("0123456789abcdef".into()),
            findings,
            ceiling: Some(Severity::Warning),
            ..AtBase::default()
        }
    }

    fn marked(findings: &[Finding]) -> Vec<bool> {
        findings.iter().map(|f| f.at_base).collect()
    }

    #[test]
    fn each_finding_at_the_base_answers_for_one_of_the_change_s() {
        let mut now = vec![finding("a", 3, "p"), finding("a", 9, "p")];
        let mut base = base(vec![finding("a", 3, "p")]);
        base.changed.insert("t.py".into(), Lines::Ranges(vec![(3, 3)]));
        assert_eq!(mark(&mut now, &base, "mock"), 1);
        // The copy on the changed line is the change's.
        assert_eq!(marked(&now), [false, true]);
        assert_eq!(now[1].ceiling, Some(Severity::Warning));
        assert!(now[1].notes[0].starts_with("already at the base (0123456): "));
    }

    #[test]
    fn a_finding_matched_by_its_fingerprint_is_not_matched_again_by_its_message() {
        let mut now = vec![finding("a", 3, "p"), finding("a", 4, "q")];
        assert_eq!(mark(&mut now, &base(vec![finding("a", 3, "p")]), "mock"), 1);
        assert_eq!(marked(&now), [true, false]);
        // Another fingerprint, the same words about the same file: the same finding.
        let mut edited = vec![finding("a", 5, "r")];
        assert_eq!(mark(&mut edited, &base(vec![finding("a", 3, "p")]), "mock"), 1);
        let mut other = vec![finding("b", 5, "r")];
        assert_eq!(mark(&mut other, &base(vec![finding("a", 3, "p")]), "mock"), 0);
    }

    #[test]
    fn an_unchanged_file_s_findings_are_all_the_base_s_and_block_keeps_the_level() {
        let mut now = vec![finding("a", 3, "p"), finding("b", 4, "q")];
        let mut at = base(Vec::new());
        at.unchanged.insert("t.py".into());
        at.ceiling = None;
        assert_eq!(mark(&mut now, &at, "mock"), 2);
        assert_eq!(marked(&now), [true, true]);
        assert_eq!(now[0].ceiling, None, "pre-existing: block keeps the rule's level");
        // A ceiling already lower stays.
        let mut noted = vec![finding("a", 3, "p")];
        noted[0].ceiling = Some(Severity::Note);
        mark(&mut noted, &base(vec![finding("a", 3, "p")]), "mock");
        assert_eq!(noted[0].ceiling, Some(Severity::Note));
    }
}
