//! The tools' own inline suppressions (`# noqa`, `eslint-disable`,
//! `@ts-ignore`, `#[allow]`, `//nolint`) a change adds: waivers like
//! `loki-gate: allow`, judged by who wrote their line.

use std::path::Path;

use crate::trust::Judge;
use crate::trust::waiver::{Kind, Waiver};

/// The inline suppressions the project's tools read: a pattern and the tool.
const SUPPRESSIONS: &[(&str, &str)] = &[
    // Matched as ruff matches them: `noqa` in any case, and flake8's
    // file-level form, which ruff honours too (issue 63).
    (r"(?i)#\s*noqa\b(:\s*[A-Z]+[0-9]+(,\s*[A-Z]+[0-9]+)*)?", "ruff"),
    (r"(?i)#\s*(ruff|flake8)\s*:\s*noqa\b(:\s*[A-Z0-9, ]+)?", "ruff"),
    (r"#\s*type:\s*ignore\b(\[[^\]]*\])?", "mypy"),
    (r"#\s*mypy:\s*ignore-errors\b", "mypy"),
    (r"#\s*pyright:\s*(ignore\b(\[[^\]]*\])?|basic\b)", "pyright"),
    (r"#\s*pylint:\s*disable(-next)?=[\w,-]+", "pylint"),
    (r"eslint-disable(-next-line|-line)?\b[^*\n]*", "eslint"),
    (r"@ts-(ignore|expect-error|nocheck)\b", "tsc"),
    (r"biome-ignore\b[^:\n]*", "biome"),
    (r"#!?\[(allow|expect)\([^)]*\)\]", "rustc"),
    (r"//\s*nolint\b(:[\w,]+)?", "golangci-lint"),
    (r"//lint:ignore\s+\S+", "staticcheck"),
    (r"#\s*shellcheck\s+disable=[\w,]+", "shellcheck"),
];

/// The tools' inline suppressions on `lines` (1-based) of `text`: line,
/// column, the tool, and the suppression as written (its whitespace
/// collapsed, so re-indenting it changes nothing).
pub fn tool_suppressions(text: &str, lines: impl Fn(u32) -> bool) -> Vec<(u32, u32, &'static str, String)> {
    static PATTERNS: std::sync::OnceLock<Vec<(regex::Regex, &'static str)>> = std::sync::OnceLock::new();
    let patterns = PATTERNS.get_or_init(|| {
        SUPPRESSIONS
            .iter()
            .map(|(p, tool)| (regex::Regex::new(p).expect("valid pattern"), *tool))
            .collect()
    });
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let n = u32::try_from(i + 1).unwrap_or(u32::MAX);
        if !lines(n) {
            continue;
        }
        for (re, tool) in patterns {
            for m in re.find_iter(line) {
                let written = m.as_str().split_whitespace().collect::<Vec<_>>().join(" ");
                let column = u32::try_from(line[..m.start()].chars().count() + 1).unwrap_or(1);
                out.push((n, column, *tool, written.trim_end().to_string()));
            }
        }
    }
    out
}

/// The tools' suppressions the change added on the changed `lines` of
/// `path` (`text` its version in the change), each a waiver judged by who
/// wrote its line. One the file's base version has as written (moved or
/// re-indented) is the base's.
pub fn hold_tool_suppressions(judge: &Judge, path: &Path, text: &str, lines: impl Fn(u32) -> bool) -> Vec<Waiver> {
    if tool_suppressions(text, &lines).is_empty() {
        return Vec::new();
    }
    // Every one in the file, those on lines the change did not touch first:
    // they are the base's copies, the rest the change's.
    let mut found = tool_suppressions(text, |_| true);
    found.sort_by_key(|(line, column, ..)| (lines(*line), *line, *column));
    judge
        .with_repo(|repo| {
            let mut at_base: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
            if let Some(rev) = judge.rev() {
                let old = match repo.blob_at(rev, path)? {
                    Some(bytes) => Some(bytes),
                    None => match judge.old_name(repo, path)? {
                        Some(old) => repo.blob_at(rev, &old)?,
                        None => None,
                    },
                };
                if let Some(bytes) = old {
                    for (_, _, _, written) in tool_suppressions(&String::from_utf8_lossy(&bytes), |_| true) {
                        *at_base.entry(written).or_default() += 1;
                    }
                }
            }
            let added: Vec<&(u32, u32, &str, String)> = found
                .iter()
                .filter(|(_, _, _, written)| match at_base.get_mut(written) {
                    Some(n) if *n > 0 => {
                        *n -= 1;
                        false
                    }
                    _ => true,
                })
                .filter(|(line, ..)| lines(*line))
                .collect();
            if added.is_empty() {
                return Ok(Vec::new());
            }
            let wrote = if judge.staged {
                vec![crate::git::Wrote::Uncommitted; added.len()]
            } else {
                let lines: Vec<u32> = added.iter().map(|a| a.0).collect();
                repo.who_wrote(path, text.as_bytes(), &lines, judge.rev())?
            };
            let mut out = Vec::new();
            for (&&(line, column, tool, ref written), wrote) in added.iter().zip(wrote) {
                let hands = match wrote {
                    crate::git::Wrote::Before => continue,
                    crate::git::Wrote::Uncommitted => None,
                    crate::git::Wrote::Commit(id) => Some(vec![crate::trust::Hand::of(&repo.commit(&id)?)]),
                };
                let waiver = Waiver {
                    path: Some(crate::git::display_path(path)),
                    line: Some(line),
                    column: Some(column),
                    gate: Some("static"),
                    ..Waiver::new(
                        Kind::ToolSuppression,
                        vec![written.clone()],
                        format!("{tool}'s suppression"),
                    )
                };
                out.push(waiver.added(judge.verdict(hands.as_deref())));
            }
            Ok(out)
        })
        .unwrap_or_default()
}
