//! coverage.py's JSON report (`coverage json`): per file, `executed_lines`
//! and `missing_lines` are the executable statements; `excluded_lines`
//! (pragma: no cover) are not.

use std::collections::BTreeMap;

use serde::Deserialize;

use super::{Entry, Hits, Keep};

#[derive(Deserialize)]
struct Report {
    files: BTreeMap<String, File>,
}

#[derive(Deserialize)]
struct File {
    executed_lines: Vec<u32>,
    missing_lines: Vec<u32>,
}

/// Is this JSON value coverage.py's report?
pub fn is_coveragepy(value: &serde_json::Value) -> bool {
    value.get("meta").is_some_and(|m| m.get("format").is_some()) && value.get("files").is_some_and(|f| f.is_object())
}

/// The files `keep` wants.
pub fn parse(value: serde_json::Value, keep: &mut Keep<'_>) -> Result<Vec<Entry>, String> {
    let report: Report = serde_json::from_value(value).map_err(|e| format!("not a coverage.py JSON report: {e}"))?;
    Ok(report
        .files
        .into_iter()
        .filter(|(name, _)| keep(name, &[]))
        .map(|(name, file)| {
            let lines = file
                .missing_lines
                .into_iter()
                .map(|l| (l, false))
                .chain(file.executed_lines.into_iter().map(|l| (l, true)))
                .filter(|(l, _)| *l > 0)
                .collect();
            Entry {
                name,
                hits: Hits::Lines(lines),
            }
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn executed_and_missing_lines_are_executable() {
        let value = serde_json::json!({
            "meta": {"format": 3, "version": "7.17.3"},
            "files": {"src\\pkg\\a.py": {"executed_lines": [1, 4], "missing_lines": [5], "excluded_lines": [7]}}
        });
        assert!(is_coveragepy(&value));
        let entries = parse(value, &mut |_, _| true).unwrap();
        assert_eq!(entries[0].name, "src\\pkg\\a.py");
        let Hits::Lines(lines) = &entries[0].hits else { panic!() };
        assert_eq!(
            lines.iter().map(|(n, c)| (*n, *c)).collect::<Vec<_>>(),
            vec![(1, true), (4, true), (5, false)]
        );
    }

    #[test]
    fn istanbul_json_is_not_coveragepy() {
        assert!(!is_coveragepy(&serde_json::json!({"/w/a.js": {"statementMap": {}}})));
    }
}
