//! ruff's `check --show-settings`: a text listing, one `key = value` a
//! line, lists and tables spread over the lines after `[`/`{` up to the
//! closing line. Read into the few settings that decide what ruff reports
//! on a file: which rules are on, which are off for which paths, which
//! paths it skips, and the limits its rules measure against.

use std::path::Path;

use serde_json::{Map, Value};

use crate::trust::tools::keys::Way;

/// The settings read, and which way each lowers the bar.
pub(super) const KEYS: &[(&str, Way)] = &[
    ("linter.rules.enabled", Way::Fewer),
    ("linter.per_file_ignores", Way::More),
    ("exclude", Way::More),
    ("linter.line_length", Way::Higher),
    ("linter.mccabe.max_complexity", Way::Higher),
    ("linter.pylint.max_args", Way::Higher),
    ("linter.pylint.max_branches", Way::Higher),
    ("linter.pylint.max_returns", Way::Higher),
    ("linter.pylint.max_statements", Way::Higher),
    ("linter.pylint.max_nested_blocks", Way::Higher),
    ("linter.pycodestyle.max_line_length", Way::Higher),
    ("linter.pycodestyle.max_doc_length", Way::Higher),
];

/// The file a ruff config extends (`extend`; in `pyproject.toml` under
/// `[tool.ruff]`), as written.
pub(super) fn extends(path: &Path, text: &str) -> Option<String> {
    let table: toml::Table = text.parse().ok()?;
    let value = if path.file_name().is_some_and(|n| n == "pyproject.toml") {
        table.get("tool")?.get("ruff")?.get("extend")?
    } else {
        table.get("extend")?
    };
    value.as_str().map(str::to_string)
}

/// The settings in `text` (what `--show-settings` printed for a file in
/// the directory `root`), paths made relative to `root`.
pub(super) fn read(text: &str, root: &Path) -> Value {
    let root = format!("{}/", root.display());
    let mut out = Map::new();
    let mut exclude: Vec<Value> = Vec::new();
    let mut lines = text.lines();
    while let Some(line) = lines.next() {
        let Some((key, value)) = line.split_once(" = ") else {
            continue;
        };
        let value = value.trim();
        // A list or table: the lines up to the one that closes it.
        let items: Option<Vec<String>> = match value {
            "[" | "{" => {
                let close = if value == "[" { "]" } else { "}" };
                Some(
                    lines
                        .by_ref()
                        .take_while(|l| l.trim() != close)
                        .map(|l| l.trim().trim_end_matches(',').to_string())
                        .filter(|l| !l.is_empty())
                        .collect(),
                )
            }
            "[]" | "{}" => Some(Vec::new()),
            _ => None,
        };
        match (key, items) {
            ("linter.rules.enabled", Some(items)) => {
                out.insert(
                    key.to_string(),
                    Value::Array(items.iter().map(|i| Value::String(code(i))).collect()),
                );
            }
            ("linter.per_file_ignores", Some(items)) => {
                out.insert(key.to_string(), per_file_ignores(&items, &root));
            }
            ("file_resolver.exclude" | "file_resolver.extend_exclude" | "linter.exclude", Some(items)) => {
                exclude.extend(
                    items
                        .iter()
                        .map(|i| Value::String(i.trim_matches('"').trim_start_matches(root.as_str()).to_string())),
                );
            }
            (_, None) => {
                if let Ok(n) = value.parse::<u64>() {
                    out.insert(key.to_string(), Value::from(n));
                }
            }
            _ => {}
        }
    }
    out.insert("exclude".to_string(), Value::Array(exclude));
    // Keys are read by their dotted path: nest the flat names.
    let mut nested = Value::Object(Map::new());
    for (key, value) in out {
        let mut at = &mut nested;
        let parts: Vec<&str> = key.split('.').collect();
        for part in &parts[..parts.len() - 1] {
            at = at
                .as_object_mut()
                .map(|o| o.entry(part.to_string()).or_insert_with(|| Value::Object(Map::new())))
                .expect("an object");
        }
        if let Some(o) = at.as_object_mut() {
            o.insert(parts[parts.len() - 1].to_string(), value);
        }
    }
    nested
}

/// `unused-import (F401)` -> `F401`.
fn code(item: &str) -> String {
    match (item.rfind('('), item.rfind(')')) {
        (Some(open), Some(close)) if open < close => item[open + 1..close].to_string(),
        _ => item.to_string(),
    }
}

/// The per-file ignores as a table: each path pattern (absolute in the
/// listing, made relative) and whether it is negated, to its codes.
fn per_file_ignores(items: &[String], root: &str) -> Value {
    let mut out = Map::new();
    let mut pattern = String::new();
    let mut negated = false;
    let mut codes: Vec<Value> = Vec::new();
    let mut in_data = false;
    let mut flush = |pattern: &mut String, negated: bool, codes: &mut Vec<Value>| {
        if !pattern.is_empty() {
            let key = if negated {
                format!("!{pattern}")
            } else {
                pattern.clone()
            };
            out.insert(key, Value::Array(std::mem::take(codes)));
        }
        pattern.clear();
    };
    for item in items {
        if let Some(p) = item.strip_prefix("absolute_matcher = ") {
            flush(&mut pattern, negated, &mut codes);
            pattern = p.trim_matches('"').trim_start_matches(root).to_string();
            in_data = false;
        } else if let Some(n) = item.strip_prefix("negated = ") {
            negated = n == "true";
        } else if item == "data = [" {
            in_data = true;
        } else if item == "]" {
            in_data = false;
        } else if in_data {
            codes.push(Value::String(code(item)));
        }
    }
    flush(&mut pattern, negated, &mut codes);
    Value::Object(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_rules_ignores_excludes_and_limits() {
        let text = "Resolved settings for: \"/t/pkg/a.py\"\n\
            file_resolver.exclude = [\n\t\".git\",\n]\n\
            file_resolver.extend_exclude = [\n\t\"/t/tests\",\n]\n\
            linter.exclude = []\n\
            linter.rules.enabled = [\n\tunused-import (F401),\n\tassert-false (B011),\n]\n\
            linter.per_file_ignores = {\n\tabsolute_matcher = \"/t/tests/*\"\nbasename_matcher = \"tests/*\"\nnegated = false\ndata = [\n\tassert-false (B011),\n]\n\n}\n\
            linter.line_length = 100\n\
            linter.mccabe.max_complexity = 10\n";
        let v = read(text, Path::new("/t"));
        assert_eq!(v["linter"]["rules"]["enabled"], serde_json::json!(["F401", "B011"]));
        assert_eq!(
            v["linter"]["per_file_ignores"],
            serde_json::json!({"tests/*": ["B011"]})
        );
        assert_eq!(v["exclude"], serde_json::json!([".git", "tests"]));
        assert_eq!(v["linter"]["line_length"], 100);
        assert_eq!(v["linter"]["mccabe"]["max_complexity"], 10);
    }
}
