//! The checklist format, its reading and writing, and the selection.
//!
//! ```yaml
//! items:
//!   - id: refund-rounding
//!     title: Refunds round half to even
//!     check: pytest -q tests/acceptance/test_refunds.py::test_rounding
//!     timeout: 2m
//! ```
//!
//! A bare list of items is read too, and JSON is YAML, so a JSON checklist
//! works as well. `check` is a shell command run from the repository root
//! (a test selector is written as the command that runs it:
//! `cargo test refund_rounding`, `pytest path::name`).

use std::path::Path;
use std::time::Duration;

use anyhow::{Result, anyhow, bail};
use serde::{Deserialize, Serialize};

use crate::config::schema::parse_duration;
use crate::config::yaml::{self, Node, Origin, Value};

/// One acceptance check.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Item {
    pub id: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub title: String,
    pub check: String,
    /// `90s`, `10m`, ... as written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timeout: Option<String>,
}

impl Item {
    /// The seal: sha256 over every field, so any edit shows.
    pub fn seal(&self) -> String {
        let canonical = serde_json::to_string(self).expect("an item serializes");
        crate::finding::sha256_hex(canonical.as_bytes())
    }

    pub fn timeout(&self) -> Option<Duration> {
        self.timeout.as_deref().and_then(parse_duration)
    }

    /// The rank of selection: sha256 of the id.
    fn rank(&self) -> String {
        crate::finding::sha256_hex(self.id.as_bytes())
    }
}

/// How many of `n` items are held out: clamp(round(n/4), 1, 5) from 4 items, none below.
pub fn reserved_count(n: usize) -> usize {
    if n < 4 { 0 } else { ((n + 2) / 4).clamp(1, 5) }
}

/// Split `items` into (reserved, visible): the `reserved_count` items whose
/// id hashes lowest are reserved; both keep the checklist's order.
pub fn select(items: &[Item]) -> (Vec<Item>, Vec<Item>) {
    let mut ranked: Vec<&Item> = items.iter().collect();
    ranked.sort_by_key(|i| i.rank());
    let chosen: Vec<&str> = ranked[..reserved_count(items.len())]
        .iter()
        .map(|i| i.id.as_str())
        .collect();
    items.iter().cloned().partition(|i| chosen.contains(&i.id.as_str()))
}

/// Read a checklist (YAML or JSON): every problem named with its place.
pub fn read(path: &Path) -> Result<Vec<Item>> {
    let shown = path.display();
    let bytes = std::fs::read(path).map_err(|e| anyhow!("could not read the checklist {shown}: {e}"))?;
    let text = String::from_utf8(bytes).map_err(|_| anyhow!("{shown} is not UTF-8 text: save it as UTF-8"))?;
    let root = yaml::parse(&text).map_err(|e| anyhow!("{shown}:{}:{}: {}", e.line, e.column, e.message))?;
    let list = match &root.value {
        Value::Seq(items) => items,
        Value::Map(entries) => match entries.iter().find(|(k, _)| k.name == "items") {
            Some((
                _,
                Node {
                    value: Value::Seq(items),
                    ..
                },
            )) => items,
            _ => bail!("{shown}: expected `items:` with a list of checks, each with `id` and `check`"),
        },
        _ => bail!("{shown}: expected `items:` with a list of checks, each with `id` and `check`"),
    };
    let mut problems = Vec::new();
    let mut items: Vec<Item> = Vec::new();
    for node in list {
        match item(node) {
            Ok(item) if items.iter().any(|i| i.id == item.id) => {
                problems.push(format!(
                    "{}: the id `{}` is used twice; ids must be unique",
                    at(&node.origin),
                    item.id
                ));
            }
            Ok(item) => items.push(item),
            Err(found) => problems.extend(found.iter().map(|e| format!("{}: {e}", at(&node.origin)))),
        }
    }
    if !problems.is_empty() {
        bail!(
            "{}",
            problems
                .iter()
                .map(|p| format!("{shown}:{p}"))
                .collect::<Vec<_>>()
                .join("\n")
        );
    }
    Ok(items)
}

fn at(origin: &Origin) -> String {
    match origin {
        Origin::File { line, column } => format!("{line}:{column}"),
        Origin::Env(var) => var.clone(),
    }
}

/// One check, or every problem it has (not only the first).
fn item(node: &Node) -> std::result::Result<Item, Vec<String>> {
    let Value::Map(fields) = &node.value else {
        return Err(vec![format!(
            "a check must be a mapping with `id` and `check`, found {}",
            node.value.kind()
        )]);
    };
    let mut problems = Vec::new();
    let mut text = |name: &str| -> Option<String> {
        match fields.iter().find(|(k, _)| k.name == name).map(|(_, v)| &v.value) {
            None | Some(Value::Null) => None,
            Some(Value::Str(s)) => Some(s.clone()),
            Some(Value::Int(n)) => Some(n.to_string()),
            Some(other) => {
                problems.push(format!("`{name}` must be a string, found {}", other.kind()));
                None
            }
        }
    };
    let id = text("id").filter(|s| !s.trim().is_empty());
    let check = text("check").filter(|s| !s.trim().is_empty());
    let title = text("title").unwrap_or_default();
    let timeout = text("timeout");
    for (key, _) in fields {
        if !matches!(key.name.as_str(), "id" | "title" | "check" | "timeout") {
            problems.push(format!(
                "unknown key `{}`: a check has id, title, check and timeout",
                key.name
            ));
        }
    }
    let named = id.as_deref().map_or_else(String::new, |id| format!("`{id}` "));
    if id.is_none() {
        problems.push("a check needs an `id`".to_string());
    }
    if check.is_none() {
        problems.push(format!(
            "{named}needs a `check`: the shell command that passes when it holds"
        ));
    }
    if let Some(t) = &timeout
        && parse_duration(t).is_none()
    {
        problems.push(format!("{named}timeout `{t}` is not a duration: write e.g. 90s, 10m"));
    }
    match (id, check) {
        (Some(id), Some(check)) if problems.is_empty() => Ok(Item {
            id,
            title,
            check,
            timeout,
        }),
        _ => Err(problems),
    }
}

/// The checklist text for `items`: YAML whose strings are JSON-quoted (so
/// any command round-trips), with a header saying what happened.
pub fn render(items: &[Item], header: &str) -> String {
    let quote = |s: &str| serde_json::to_string(s).expect("a string serializes");
    let mut out = String::new();
    for line in header.lines() {
        out.push_str(&format!("# {line}\n"));
    }
    if items.is_empty() {
        out.push_str("items: []\n");
        return out;
    }
    out.push_str("items:\n");
    for item in items {
        out.push_str(&format!("  - id: {}\n", quote(&item.id)));
        if !item.title.is_empty() {
            out.push_str(&format!("    title: {}\n", quote(&item.title)));
        }
        out.push_str(&format!("    check: {}\n", quote(&item.check)));
        if let Some(t) = &item.timeout {
            out.push_str(&format!("    timeout: {}\n", quote(t)));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn items(n: usize) -> Vec<Item> {
        (0..n)
            .map(|i| Item {
                id: format!("check-{i}"),
                title: String::new(),
                check: format!("test {i} -eq {i}"),
                timeout: None,
            })
            .collect()
    }

    #[test]
    fn a_quarter_is_held_out_between_one_and_five() {
        assert_eq!(
            [0, 1, 3, 4, 5, 6, 9, 10, 11, 20, 40, 400].map(reserved_count),
            [0, 0, 0, 1, 1, 2, 2, 3, 3, 5, 5, 5]
        );
        for n in [3, 4, 10, 40] {
            let all = items(n);
            let (reserved, visible) = select(&all);
            assert_eq!(reserved.len(), reserved_count(n));
            assert_eq!(reserved.len() + visible.len(), n);
            // Deterministic, and independent of the order of the list.
            let mut reversed = all.clone();
            reversed.reverse();
            let (again, _) = select(&reversed);
            let ids = |v: &[Item]| {
                let mut ids: Vec<String> = v.iter().map(|i| i.id.clone()).collect();
                ids.sort();
                ids
            };
            assert_eq!(ids(&reserved), ids(&again));
        }
    }

    #[test]
    fn rendered_checklists_read_back_the_same() {
        let mut all = items(3);
        all[0].title = "quotes \" and: colons # and hashes".into();
        all[1].check = "printf '%s\\n' \"$HOME\" | grep -q / && echo 'ok: yes'".into();
        all[2].timeout = Some("90s".into());
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("c.yaml");
        std::fs::write(&path, render(&all, "written by a test\nsecond line")).unwrap();
        assert_eq!(read(&path).unwrap(), all);
        std::fs::write(&path, render(&[], "empty")).unwrap();
        assert_eq!(read(&path).unwrap(), Vec::<Item>::new());
    }

    #[test]
    fn bad_checklists_name_every_problem_with_its_place() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("c.yaml");
        std::fs::write(
            &path,
            "items:\n  - id: a\n    check: \"true\"\n  - id: a\n    check: \"true\"\n  - id: b\n  - check: x\n  - id: c\n    check: x\n    timeout: soon\n  - id: d\n    command: x\n",
        )
        .unwrap();
        let err = read(&path).unwrap_err().to_string();
        for want in [
            "c.yaml:4:5: the id `a` is used twice",
            "c.yaml:6:5: `b` needs a `check`",
            "c.yaml:7:5: a check needs an `id`",
            "timeout `soon` is not a duration",
            "unknown key `command`",
        ] {
            assert!(err.contains(want), "{want}\n{err}");
        }
        std::fs::write(&path, "items: [\n").unwrap();
        assert!(
            read(&path)
                .unwrap_err()
                .to_string()
                .starts_with(&format!("{}:", path.display()))
        );
    }
}
