//! Which way a value moved: the comparisons behind [`Way`], each saying
//! what it found lowered in a few words (``gained `F401` ``).

use std::collections::BTreeSet;

use serde_json::Value;

use super::keys::*;

/// The items of a list-like value: an array's, a string split at commas
/// and whitespace (INI lists), a table's `key=value` pairs (ruff's
/// per-file-ignores gains a code for a path as `path=code`).
pub(super) fn items(v: &Value) -> BTreeSet<String> {
    match v {
        Value::Null => BTreeSet::new(),
        Value::Array(a) => a.iter().map(shown).collect(),
        Value::String(s) => s
            .split([',', ' ', '\n', '\t'])
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(str::to_string)
            .collect(),
        Value::Object(o) => o
            .iter()
            .flat_map(|(k, v)| {
                let inner = items(v);
                if inner.is_empty() {
                    vec![k.clone()]
                } else {
                    inner.into_iter().map(|i| format!("{k}={i}")).collect()
                }
            })
            .collect(),
        other => BTreeSet::from([shown(other)]),
    }
}

pub(super) fn shown(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

pub(super) fn truthy(v: &Value) -> bool {
    match v {
        Value::Bool(b) => *b,
        Value::String(s) => matches!(s.trim().to_ascii_lowercase().as_str(), "true" | "1" | "yes" | "on"),
        Value::Number(n) => n.as_f64().is_some_and(|n| n != 0.0),
        _ => false,
    }
}

pub(super) fn number(v: &Value) -> Option<f64> {
    match v {
        Value::Number(n) => n.as_f64(),
        Value::String(s) => s.trim().parse().ok(),
        _ => None,
    }
}

/// A rule's level, higher is stricter: ESLint's `error`/`warn`/`off` (or
/// 2/1/0, or `[level, options]`), rustc's and Clippy's
/// `forbid`/`deny`/`warn`/`allow` (or `{ level = .. }`).
pub(super) fn level(v: &Value) -> u8 {
    match v {
        Value::Array(a) => a.first().map_or(0, level),
        Value::Object(o) => o.get("level").map_or(0, level),
        Value::Number(n) => n.as_u64().map_or(0, |n| n.min(2) as u8 + 1),
        Value::String(s) => match s.as_str() {
            "forbid" => 4,
            "deny" | "error" => 3,
            "warn" => 2,
            "2" => 3,
            "1" => 2,
            _ => 1,
        },
        _ => 0,
    }
}

/// Does going from `before` to `after` lower the bar, the way `way` reads
/// it? What changed, said plainly.
pub(super) fn lowers(way: Way, before: &Value, after: &Value) -> Option<String> {
    // At most a dozen named (a selection narrowed from `E, F, B` loses 40 rules).
    let list = |set: BTreeSet<String>| {
        let mut named = set
            .iter()
            .take(12)
            .map(|s| format!("`{s}`"))
            .collect::<Vec<_>>()
            .join(", ");
        if set.len() > 12 {
            named.push_str(&format!(" and {} more", set.len() - 12));
        }
        named
    };
    match way {
        Way::More => {
            let gained: BTreeSet<String> = items(after).difference(&items(before)).cloned().collect();
            (!gained.is_empty()).then(|| format!("gained {}", list(gained)))
        }
        Way::Fewer => {
            let lost: BTreeSet<String> = items(before).difference(&items(after)).cloned().collect();
            (!lost.is_empty()).then(|| format!("lost {}", list(lost)))
        }
        Way::Selects => {
            let selected = |v: &Value| match v {
                Value::Null => RUFF_DEFAULT_SELECT.iter().map(|s| s.to_string()).collect(),
                _ => items(v),
            };
            let now = selected(after);
            let lost: BTreeSet<String> = selected(before)
                .into_iter()
                .filter(|code| !now.iter().any(|s| s == "ALL" || code.starts_with(s.as_str())))
                .collect();
            (!lost.is_empty()).then(|| format!("lost {}", list(lost)))
        }
        Way::On => (truthy(after) && !truthy(before)).then(|| format!("turned on (`{}`)", shown(after))),
        Way::OffFromDefault => {
            let off = |v: &Value| matches!(v, Value::Bool(false)) || v.as_str().is_some_and(|s| s == "false");
            (off(after) && !off(before)).then(|| "turned off (`false`)".to_string())
        }
        // Read with the manifest's default features: [`targets_left_out`].
        Way::Targets => None,
        Way::Off => (truthy(before) && !truthy(after)).then(|| match after {
            Value::Null => "dropped".to_string(),
            other => format!("turned off (`{}`)", shown(other)),
        }),
        Way::Higher => match (number(before), number(after)) {
            (Some(b), Some(a)) if a > b => Some(format!("raised from `{}` to `{}`", shown(before), shown(after))),
            _ => None,
        },
        Way::Levels => {
            let empty = serde_json::Map::new();
            let (old, new) = (
                before.as_object().unwrap_or(&empty),
                after.as_object().unwrap_or(&empty),
            );
            let lowered: BTreeSet<String> = old
                .iter()
                // A rule dropped falls back to what the config extends: off, at best.
                .filter(|(rule, was)| level(was) > new.get(*rule).map_or(1, level))
                .map(|(rule, was)| match new.get(rule) {
                    Some(now) => format!("{rule}: {} -> {}", level_name(level(was)), level_name(level(now))),
                    None => format!("{rule}: dropped"),
                })
                .collect();
            (!lowered.is_empty()).then(|| format!("lowered {}", list(lowered)))
        }
        Way::Opts => {
            let deselecting = |v: &Value| -> BTreeSet<String> {
                let words: Vec<String> = match v {
                    Value::Array(a) => a.iter().map(shown).flat_map(|s| split_words(&s)).collect(),
                    other => split_words(&shown(other)),
                };
                let mut kept = BTreeSet::new();
                let mut take_next = false;
                for word in words {
                    if take_next {
                        kept.insert(word.clone());
                        take_next = false;
                    }
                    if let Some(flag) = DESELECTING
                        .iter()
                        .find(|f| word == **f || word.starts_with(&format!("{f}=")))
                    {
                        take_next = word == *flag;
                        kept.insert(word);
                    }
                }
                kept
            };
            let gained: BTreeSet<String> = deselecting(after).difference(&deselecting(before)).cloned().collect();
            (!gained.is_empty()).then(|| format!("gained {}", list(gained)))
        }
        Way::Any => (before != after).then(|| match (before, after) {
            (Value::Null, now) => format!("set to `{}`", shown(now)),
            (was, Value::Null) => format!("dropped (was `{}`)", shown(was)),
            (was, now) => format!("changed from `{}` to `{}`", shown(was), shown(now)),
        }),
    }
}

pub(super) fn level_name(level: u8) -> &'static str {
    match level {
        4 => "forbid",
        3 => "error",
        2 => "warn",
        1 => "off",
        _ => "unset",
    }
}

pub(super) fn split_words(text: &str) -> Vec<String> {
    text.split_whitespace()
        .map(|w| w.trim_matches(['"', '\'']).to_string())
        .collect()
}
