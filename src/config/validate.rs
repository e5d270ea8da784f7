//! Validation that collects every problem before anything runs.
//!
//! The file is walked once; each unknown key, wrong type, unknown rule id or
//! bad glob is pushed as a [`Problem`] with its location and the fix, and the
//! walk goes on. Only when the list is empty is a [`Config`] built.

use std::collections::BTreeMap;
use std::fmt;

use super::schema::{self, FieldSpec, KeySpec, Kind, SectionSpec};
use super::yaml::{Node, Origin, Value};
use super::{Config, Section};
use crate::rule::{self, Level};

/// One thing wrong with the configuration.
#[derive(Debug, Clone)]
pub struct Problem {
    pub origin: Origin,
    pub message: String,
    pub fix: String,
}

/// Every problem found in a config file (and environment overrides).
#[derive(Debug)]
pub struct ConfigError {
    /// The file as the user named it (repo-relative when found by discovery).
    pub file: String,
    pub problems: Vec<Problem>,
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for p in &self.problems {
            match &p.origin {
                Origin::File { line, column } => write!(f, "{}:{line}:{column}: ", self.file)?,
                Origin::Env(var) => write!(f, "environment variable {var}: ")?,
            }
            writeln!(f, "{}; {}", p.message, p.fix)?;
        }
        let n = self.problems.len();
        write!(
            f,
            "{n} problem{} in the configuration; nothing was run",
            if n == 1 { "" } else { "s" }
        )
    }
}

impl std::error::Error for ConfigError {}

struct Ctx {
    problems: Vec<Problem>,
    /// Where each `rules:` entry is written (the last, when repeated).
    rule_origins: BTreeMap<String, Origin>,
}

impl Ctx {
    fn push(&mut self, origin: &Origin, message: impl Into<String>, fix: impl Into<String>) {
        self.problems.push(Problem {
            origin: origin.clone(),
            message: message.into(),
            fix: fix.into(),
        });
    }

    fn unknown_key(&mut self, origin: &Origin, key: &str, place: &str, known: &[&str]) {
        let fix = match crate::wording::nearest(key, known) {
            Some(best) => format!("did you mean `{best}`?"),
            None => format!("expected one of: {}", known.join(", ")),
        };
        self.push(origin, format!("unknown key `{key}` in {place}"), fix);
    }
}

/// Validate a parsed file plus environment overrides into a [`Config`].
pub fn validate(
    root: &Node,
    env: &dyn Fn(&str) -> Option<String>,
    catalog: super::Catalog,
) -> Result<Config, Vec<Problem>> {
    let sections = catalog.sections;
    let mut cx = Ctx {
        problems: Vec::new(),
        rule_origins: BTreeMap::new(),
    };
    let mut top: BTreeMap<&'static str, Node> = BTreeMap::new();
    let mut gates: BTreeMap<&'static str, BTreeMap<&'static str, Node>> =
        sections.iter().map(|s| (s.gate, BTreeMap::new())).collect();
    let mut rules: Vec<(String, Level)> = Vec::new();

    match &root.value {
        Value::Map(entries) => {
            let known: Vec<&str> = schema::TOP
                .keys
                .iter()
                .map(|k| k.name)
                .chain(["gates", "rules"])
                .collect();
            for (key, node) in entries {
                match key.name.as_str() {
                    "gates" => walk_gates(&mut cx, node, sections, &mut gates),
                    "rules" => walk_rules(&mut cx, node, catalog.rules, &mut rules),
                    name => match schema::TOP.key(name) {
                        Some(spec) => {
                            if check_value(&mut cx, spec, node, name) {
                                top.insert(spec.name, node.clone());
                            }
                        }
                        None => cx.unknown_key(&key.origin, name, "the top level", &known),
                    },
                }
            }
        }
        Value::Null => {}
        other => cx.push(
            &root.origin,
            format!("the config must be a mapping, found {}", other.kind()),
            "start from the file `loki-gate init` writes",
        ),
    }

    // Environment overrides beat the file, key by key.
    let overlay = |section: &'static SectionSpec, into: &mut BTreeMap<&'static str, Node>, cx: &mut Ctx| {
        for spec in section.keys {
            let var = schema::env_name(section.gate, spec.name);
            if let Some(text) = env(&var) {
                let node = super::yaml::parse_scalar(&text, Origin::Env(var.clone()));
                let place = if section.gate.is_empty() {
                    spec.name.to_string()
                } else {
                    format!("gates.{}.{}", section.gate, spec.name)
                };
                if check_value(cx, spec, &node, &place) {
                    into.insert(spec.name, node);
                }
            }
        }
    };
    overlay(&schema::TOP, &mut top, &mut cx);
    for section in sections {
        let values = gates.get_mut(section.gate).expect("every section has an entry");
        overlay(section, values, &mut cx);
    }

    if !cx.problems.is_empty() {
        return Err(cx.problems);
    }
    let mut config = Config::new(
        Section::new(&schema::TOP, top),
        sections
            .iter()
            .map(|s| (s.gate, Section::new(s, gates.remove(s.gate).unwrap_or_default())))
            .collect(),
        rules,
        catalog,
    );
    config.rule_origins = std::mem::take(&mut cx.rule_origins);
    Ok(config)
}

/// `LOKI_GATE_*` variables read outside the config's keys: each gate's
/// master switch (`LOKI_GATE_<GATE>`), and these.
const OTHER_ENV: &[&str] = &[
    "LOKI_GATE_HELDOUT_DIR",
    "LOKI_GATE_STATE_DIR",
    "LOKI_GATE_NO_CACHE",
    "LOKI_GATE_BIN",
    "LOKI_GATE_ROOT",
    // The gates a hook run skips (commands::hook).
    "LOKI_GATE_SKIP",
];

/// Of the environment's variable `names`, those that start with
/// `LOKI_GATE_` and name nothing loki-gate reads: a typo there
/// (`LOKI_GATE_MOCK_ENABELD`) is an error, as the same typo in the file is.
pub fn check_env_names(names: &[String], sections: &[&'static SectionSpec]) -> Result<(), ConfigError> {
    let keys = schema::TOP.keys.iter().map(|k| schema::env_name("", k.name)).chain(
        sections
            .iter()
            .flat_map(|s| s.keys.iter().map(|k| schema::env_name(s.gate, k.name))),
    );
    let known: Vec<String> = keys
        .chain(schema::GATE_NAMES.iter().map(|g| schema::env_name("", g)))
        .chain(OTHER_ENV.iter().map(|v| v.to_string()))
        .collect();
    let known: Vec<&str> = known.iter().map(String::as_str).collect();
    let mut cx = Ctx {
        problems: Vec::new(),
        rule_origins: BTreeMap::new(),
    };
    let mut unknown: Vec<&String> = names
        .iter()
        .filter(|n| n.starts_with("LOKI_GATE_") && !known.contains(&n.as_str()))
        .collect();
    unknown.sort();
    for name in unknown {
        let fix = match crate::wording::nearest(name, &known) {
            Some(best) => format!("did you mean {best}?"),
            None => {
                "unset it; `loki-gate init` writes every key, and each has a LOKI_GATE_<SECTION>_<KEY> variable".into()
            }
        };
        cx.push(&Origin::Env(name.clone()), "not a loki-gate setting".to_string(), fix);
    }
    if cx.problems.is_empty() {
        Ok(())
    } else {
        Err(ConfigError {
            file: "(environment)".into(),
            problems: cx.problems,
        })
    }
}

fn walk_gates(
    cx: &mut Ctx,
    node: &Node,
    sections: &[&'static SectionSpec],
    gates: &mut BTreeMap<&'static str, BTreeMap<&'static str, Node>>,
) {
    let Value::Map(entries) = &node.value else {
        if node.value != Value::Null {
            cx.push(
                &node.origin,
                format!("`gates` must be a mapping of gate names, found {}", node.value.kind()),
                "write `gates:` followed by indented `evidence: { ... }` entries",
            );
        }
        return;
    };
    let names: Vec<&str> = sections.iter().map(|s| s.gate).collect();
    for (key, body) in entries {
        let Some(section) = sections.iter().find(|s| s.gate == key.name) else {
            let fix = match crate::wording::nearest(&key.name, &names) {
                Some(best) => format!("did you mean `{best}`?"),
                None => format!("gates in this version: {}", names.join(", ")),
            };
            cx.push(&key.origin, format!("unknown gate `{}`", key.name), fix);
            continue;
        };
        let values = gates.get_mut(section.gate).expect("known gate");
        match &body.value {
            Value::Map(items) => {
                let known: Vec<&str> = section.keys.iter().map(|k| k.name).collect();
                for (k, v) in items {
                    match section.key(&k.name) {
                        Some(spec) => {
                            let place = format!("gates.{}.{}", section.gate, spec.name);
                            if check_value(cx, spec, v, &place) {
                                values.insert(spec.name, v.clone());
                            }
                        }
                        None => cx.unknown_key(&k.origin, &k.name, &format!("gates.{}", section.gate), &known),
                    }
                }
            }
            Value::Null => {}
            other => cx.push(
                &body.origin,
                format!("gates.{} must be a mapping, found {}", section.gate, other.kind()),
                format!("write `{}: {{ enabled: true }}`", section.gate),
            ),
        }
    }
}

fn walk_rules(cx: &mut Ctx, node: &Node, known_rules: &[&'static rule::RuleMeta], rules: &mut Vec<(String, Level)>) {
    let Value::Map(entries) = &node.value else {
        if node.value != Value::Null {
            cx.push(
                &node.origin,
                format!(
                    "`rules` must be a mapping of rule ids to levels, found {}",
                    node.value.kind()
                ),
                "write e.g. `rules: { evidence/no-anchor: deny }`",
            );
        }
        return;
    };
    for (key, value) in entries {
        let known = rule::is_known_selector(known_rules, &key.name);
        if !known {
            let ids: Vec<&str> = known_rules.iter().map(|r| r.id).collect();
            let fix = match crate::wording::nearest(&key.name, &ids) {
                Some(best) => format!("did you mean `{best}`?"),
                None => "run `loki-gate rules` to list rule ids".to_string(),
            };
            cx.push(&key.origin, format!("unknown rule or gate `{}`", key.name), fix);
        }
        let level = match &value.value {
            Value::Str(s) => s.parse::<Level>().ok(),
            // YAML 1.1 reads a bare `off` (ESLint's word) as false.
            Value::Bool(false) => Some(Level::Allow),
            _ => None,
        };
        match level {
            Some(level) if known => {
                rules.push((key.name.clone(), level));
                cx.rule_origins.insert(key.name.clone(), key.origin.clone());
            }
            Some(_) => {}
            None => cx.push(
                &value.origin,
                format!("invalid level for `{}`", key.name),
                format!("expected one of: {}", Level::SPELLINGS),
            ),
        }
    }
}

/// Type-check one value against its spec; push a problem and return false if wrong.
fn check_value(cx: &mut Ctx, spec: &KeySpec, node: &Node, place: &str) -> bool {
    let ok = match (spec.kind, &node.value) {
        (Kind::Bool, Value::Bool(_)) => true,
        (Kind::Str, Value::Str(_)) => true,
        (Kind::OptStr, Value::Str(_) | Value::Null) => true,
        (Kind::Duration, Value::Int(n)) => *n > 0,
        (Kind::Count | Kind::Number, Value::Int(n)) => *n >= 0,
        (Kind::Number, Value::Float(f)) => f.is_finite() && *f >= 0.0,
        (Kind::Duration, Value::Str(s)) => schema::parse_duration(s).is_some(),
        (Kind::List | Kind::Choices(_) | Kind::Choice(_), Value::Str(s)) => {
            return check_choice(cx, spec, s, &node.origin, place);
        }
        (Kind::List | Kind::Choices(_), Value::Seq(items)) => {
            let mut all = true;
            for item in items {
                match &item.value {
                    Value::Str(s) => all &= check_choice(cx, spec, s, &item.origin, place),
                    other => {
                        cx.push(
                            &item.origin,
                            format!("{place}: expected a string, found {}", other.kind()),
                            "quote the value",
                        );
                        all = false;
                    }
                }
            }
            return all;
        }
        (Kind::Records(fields), Value::Seq(items)) => {
            let mut all = true;
            for (i, item) in items.iter().enumerate() {
                all &= check_record(cx, fields, item, &format!("{place}[{i}]"));
            }
            return all;
        }
        (Kind::Counts, Value::Int(n)) => *n >= 0,
        (Kind::Counts, Value::Seq(items)) => {
            let mut all = true;
            for item in items {
                if !matches!(item.value, Value::Int(n) if n >= 0) {
                    cx.push(
                        &item.origin,
                        format!("{place}: expected a whole number, found {}", item.value.kind()),
                        format!("write e.g. `{}: {}`", spec.name, spec.default),
                    );
                    all = false;
                }
            }
            return all;
        }
        (Kind::GlobList, Value::Str(s)) => return check_glob(cx, s, &node.origin),
        (Kind::GlobList, Value::Seq(items)) => {
            let mut all = true;
            for item in items {
                match &item.value {
                    Value::Str(s) => all &= check_glob(cx, s, &item.origin),
                    other => {
                        cx.push(
                            &item.origin,
                            format!("{place}: a glob must be a string, found {}", other.kind()),
                            "quote the pattern, e.g. \"vendor/**\"",
                        );
                        all = false;
                    }
                }
            }
            return all;
        }
        _ => false,
    };
    if !ok {
        let found = match &node.value {
            Value::Str(s) => format!("`{s}`"),
            Value::Int(n) => format!("`{n}`"),
            other => other.kind().to_string(),
        };
        cx.push(
            &node.origin,
            format!("{place}: expected {}, found {found}", spec.kind.describe()),
            format!("write e.g. `{}: {}`", spec.name, spec.default),
        );
    }
    ok
}

/// One entry of a `Records` key: a mapping of known fields, the required
/// ones present, each of its kind.
fn check_record(cx: &mut Ctx, fields: &'static [FieldSpec], node: &Node, place: &str) -> bool {
    let Value::Map(entries) = &node.value else {
        cx.push(
            &node.origin,
            format!("{place}: expected a mapping, found {}", node.value.kind()),
            format!(
                "write the entry as `- {}: ...`",
                fields.iter().find(|f| f.required).map_or("name", |f| f.name)
            ),
        );
        return false;
    };
    let known: Vec<&str> = fields.iter().map(|f| f.name).collect();
    let mut ok = true;
    for (key, value) in entries {
        match fields.iter().find(|f| f.name == key.name) {
            Some(field) => {
                let spec = KeySpec {
                    name: field.name,
                    kind: field.kind,
                    default: field.example,
                    doc: field.doc,
                };
                ok &= check_value(cx, &spec, value, &format!("{place}.{}", field.name));
            }
            None => {
                cx.unknown_key(&key.origin, &key.name, place, &known);
                ok = false;
            }
        }
    }
    for field in fields.iter().filter(|f| f.required) {
        if !entries.iter().any(|(k, _)| k.name == field.name) {
            cx.push(
                &node.origin,
                format!("{place}: `{}` is missing", field.name),
                format!("add `{}: {}` ({})", field.name, field.example, field.doc),
            );
            ok = false;
        }
    }
    ok
}

fn check_choice(cx: &mut Ctx, spec: &KeySpec, value: &str, origin: &Origin, place: &str) -> bool {
    match spec.kind {
        Kind::Choices(choices) | Kind::Choice(choices) if !choices.contains(&value) => {
            let fix = match crate::wording::nearest(value, choices) {
                Some(best) => format!("did you mean `{best}`?"),
                None => format!("expected one of: {}", choices.join(", ")),
            };
            cx.push(origin, format!("{place}: unknown value `{value}`"), fix);
            false
        }
        _ => true,
    }
}

fn check_glob(cx: &mut Ctx, pattern: &str, origin: &Origin) -> bool {
    match globset::Glob::new(pattern) {
        Ok(_) => true,
        Err(err) => {
            cx.push(
                origin,
                format!("bad glob `{pattern}`: {}", err.kind()),
                "fix the pattern (globset syntax: *, **, ?, [abc], {a,b})",
            );
            false
        }
    }
}
