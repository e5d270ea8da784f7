//! `.loki-gate.yaml`: discovery, parsing (through [`yaml`]), environment
//! overrides, validation (through [`validate`]) and the typed result.

pub mod bar;
pub mod json_schema;
pub mod schema;
pub mod sources;
pub mod validate;
pub mod yaml;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{Context, Result};

use crate::rule::{self, Level};
use schema::{Kind, SectionSpec};
pub use validate::{ConfigError, Problem};
use yaml::{Node, Origin, Value};

pub use sources::{FILE_NAMES, Format};

/// What the gates declare, which the configuration is read against: their
/// sections (every key) and their rules (`gates::catalog()`).
#[derive(Clone, Copy)]
pub struct Catalog {
    pub sections: &'static [&'static SectionSpec],
    pub rules: &'static [&'static rule::RuleMeta],
}

impl std::fmt::Debug for Catalog {
    /// Counts, not every rule's page.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Catalog")
            .field("sections", &self.sections.len())
            .field("rules", &self.rules.len())
            .finish()
    }
}

/// A validated configuration.
#[derive(Debug, Clone)]
pub struct Config {
    /// The file it was read from; `None` for built-in defaults.
    pub file: Option<PathBuf>,
    pub gates: BTreeMap<&'static str, Section>,
    /// `rules:` entries in file order.
    pub rules: Vec<(String, Level)>,
    /// Where each of this file's `rules:` entries is written.
    pub rule_origins: BTreeMap<String, Origin>,
    /// The top-level keys, which the accessors below read.
    top: Section,
    /// The sections and rules it was read against.
    pub catalog: Catalog,
}

impl Config {
    fn new(
        top: Section,
        gates: BTreeMap<&'static str, Section>,
        rules: Vec<(String, Level)>,
        catalog: Catalog,
    ) -> Config {
        Config {
            file: None,
            gates,
            rules,
            rule_origins: BTreeMap::new(),
            top,
            catalog,
        }
    }

    pub fn base(&self) -> Option<String> {
        self.top.opt_str("base")
    }

    pub fn exclude(&self) -> Vec<String> {
        self.top.globs("exclude")
    }

    /// Files larger than this are not read ([`crate::walk::max_file_bytes`]).
    pub fn max_file_bytes(&self) -> u64 {
        self.top.count("max-file-bytes")
    }

    /// The gates each git hook runs (`loki-gate hook run`), when enabled.
    pub fn pre_commit_gates(&self) -> Vec<String> {
        self.top.list("pre-commit-gates")
    }

    pub fn pre_push_gates(&self) -> Vec<String> {
        self.top.list("pre-push-gates")
    }

    /// What a coding agent's stop hook runs, how many blocks in a row it
    /// gives before a person takes over, and the rules it holds the
    /// session's own work to.
    pub fn agent_gates(&self) -> Vec<String> {
        self.top.list("agent-gates")
    }

    pub fn agent_max_blocks(&self) -> u64 {
        self.top.count("agent-max-blocks")
    }

    pub fn agent_stop_deadline(&self) -> std::time::Duration {
        self.top.duration("agent-stop-deadline")
    }

    pub fn agent_no_progress(&self) -> u64 {
        self.top.count("agent-no-progress")
    }

    pub fn agent_strict_rules(&self) -> Vec<String> {
        self.top.list("agent-strict-rules")
    }

    /// `Name <email>` patterns whose commits may lower the bar.
    pub fn trusted_authors(&self) -> Vec<String> {
        self.top.list("trusted-authors")
    }

    /// Files in the repository (read at the base) holding the keys a
    /// trusted author's commits must be signed with.
    pub fn trusted_signers(&self) -> Vec<String> {
        self.top.list("trusted-signers")
    }

    /// May an unsigned commit by a trusted author acknowledge, outside CI?
    pub fn trust_unsigned_authors_locally(&self) -> bool {
        self.top.str("trust-unsigned-authors") == "local"
    }

    /// The pull request label that acknowledges its waivers (`None`: none does).
    pub fn acknowledge_label(&self) -> Option<String> {
        Some(self.top.str("acknowledge-label")).filter(|l| !l.trim().is_empty())
    }

    /// Does an approving review acknowledge a pull request's waivers?
    pub fn acknowledge_reviews(&self) -> bool {
        self.top.bool("acknowledge-reviews")
    }

    /// Patterns that mark a commit as a coding agent's, on top of the built-in ones.
    pub fn agent_signatures(&self) -> Vec<String> {
        self.top.list("agent-signatures")
    }

    /// Every key (and every `rules:` entry) on which this config lowers
    /// the bar `base` set, in file order of the sections; those `hold`
    /// picks take `base`'s value, the rest (and what raises the bar) stay.
    pub fn hold_to(&mut self, base: &Config, hold: &dyn Fn(&Lowering) -> bool) -> Vec<Lowering> {
        let mut held = Vec::new();
        let mut hold_section = |gate: &'static str, head: &mut Section, base: &Section| {
            for spec in head.spec.keys {
                let Some(bar) = bar::of(gate, spec.name) else { continue };
                let (from, to) = (base.value(spec.name), head.value(spec.name));
                if !bar.lowers(&from, &to) {
                    continue;
                }
                held.push(Lowering {
                    place: if gate.is_empty() {
                        spec.name.to_string()
                    } else {
                        format!("gates.{gate}.{}", spec.name)
                    },
                    gate: (!gate.is_empty()).then(|| gate.to_string()),
                    base: bar::render(&from),
                    head: bar::render(&to),
                    line: head.line(spec.name),
                    commands: bar == bar::Bar::Commands,
                });
                if !hold(held.last().expect("pushed above")) {
                    continue;
                }
                match base.values.get(spec.name) {
                    Some(node) => head.values.insert(spec.name, node.clone()),
                    None => head.values.remove(spec.name),
                };
            }
        };
        hold_section("", &mut self.top, &base.top);
        for (gate, section) in &mut self.gates {
            if let Some(from) = base.gates.get(gate) {
                hold_section(gate, section, from);
            }
        }
        // Rules: the base's entries first, then those of this config that do
        // not lower a level; an entry of the base this config drops is held.
        let level_at_base = |selector: &str| {
            base.rules
                .iter()
                .rev()
                .find(|(s, _)| s == selector)
                .map(|(_, l)| *l)
                .or_else(|| rule::find(self.catalog.rules, selector).map(|r| r.default_level))
                // A gate-wide or prefix selector covers rules that deny.
                .unwrap_or(Level::Deny)
        };
        let mut rules = base.rules.clone();
        for (selector, level) in &self.rules {
            let from = level_at_base(selector);
            if *level < from {
                held.push(Lowering {
                    place: format!("rules.{selector}"),
                    gate: Some(selector.split('/').next().unwrap_or(selector).to_string()),
                    base: from.to_string(),
                    head: level.to_string(),
                    line: match self.rule_origins.get(selector) {
                        Some(Origin::File { line, column }) => Some((*line, *column)),
                        _ => None,
                    },
                    commands: false,
                });
                if !hold(held.last().expect("pushed above")) {
                    rules.push((selector.clone(), *level));
                }
            } else {
                rules.push((selector.clone(), *level));
            }
        }
        self.rules = rules;
        held
    }
    pub fn section(&self, gate: &str) -> &Section {
        self.gates
            .get(gate)
            .unwrap_or_else(|| panic!("no config section for gate `{gate}`"))
    }

    /// Every key's effective value and where it came from (`--show-settings`):
    /// the top level, then each gate in the catalog's order, then `rules:`.
    pub fn settings(&self) -> Vec<Setting> {
        let file = self
            .file
            .as_ref()
            .map_or_else(|| "the config file".to_string(), |f| f.display().to_string());
        let mut out = Vec::new();
        let mut add = |place: String, section: &Section, key: &'static str| {
            let source = match section.origin(key) {
                Some(Origin::File { line, .. }) => format!("{file}:{line}"),
                Some(Origin::Env(var)) => format!("environment {var}"),
                None => "default".to_string(),
            };
            out.push(Setting {
                place,
                value: bar::render(&section.value(key)),
                source,
            });
        };
        for spec in self.top.spec.keys {
            add(spec.name.to_string(), &self.top, spec.name);
        }
        for section_spec in self.catalog.sections {
            let Some(section) = self.gates.get(section_spec.gate) else {
                continue;
            };
            for spec in section_spec.keys {
                add(format!("gates.{}.{}", section_spec.gate, spec.name), section, spec.name);
            }
        }
        for (selector, level) in &self.rules {
            out.push(Setting {
                place: format!("rules.{selector}"),
                value: level.to_string(),
                source: match self.rule_origins.get(selector) {
                    Some(Origin::File { line, .. }) => format!("{file}:{line}"),
                    _ => file.clone(),
                },
            });
        }
        out
    }
}

/// One key's effective value (YAML-ish text) and its source: `FILE:LINE`,
/// `environment VAR`, or `default`.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Setting {
    pub place: String,
    pub value: String,
    pub source: String,
}

/// A key (or `rules:` entry) on which a config lowers the bar its base set.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Lowering {
    /// `gates.mock.enabled`, `exclude`, `rules.mock/tautological-assertion`.
    pub place: String,
    /// The gate it weakens; `None` for a top-level key, which weakens every gate.
    pub gate: Option<String>,
    /// The base's value, and this config's, as YAML-ish text.
    pub base: String,
    pub head: String,
    /// The line and column of the value in this config's file.
    pub line: Option<(u64, u64)>,
    /// The key names commands loki-gate runs ([`bar::Bar::Commands`]).
    pub commands: bool,
}

/// The validated values of one section; absent keys read as their defaults.
#[derive(Debug, Clone)]
pub struct Section {
    spec: &'static SectionSpec,
    values: BTreeMap<&'static str, Node>,
}

impl Section {
    fn new(spec: &'static SectionSpec, values: BTreeMap<&'static str, Node>) -> Self {
        Section { spec, values }
    }

    fn value(&self, key: &str) -> Value {
        if let Some(node) = self.values.get(key) {
            return node.value.clone();
        }
        let spec = self
            .spec
            .key(key)
            .unwrap_or_else(|| panic!("`{key}` is not a key of `{}`", self.spec.gate));
        yaml::parse_scalar(spec.default, Origin::Env(String::new())).value
    }

    /// The file line and column of a key's value, when it came from the file.
    fn line(&self, key: &str) -> Option<(u64, u64)> {
        match self.values.get(key).map(|n| &n.origin) {
            Some(Origin::File { line, column }) => Some((*line, *column)),
            _ => None,
        }
    }

    /// Where a key's value came from, for error messages.
    pub fn origin(&self, key: &str) -> Option<&Origin> {
        self.values.get(key).map(|n| &n.origin)
    }

    pub fn bool(&self, key: &str) -> bool {
        matches!(self.value(key), Value::Bool(true))
    }

    /// A string value (`Str` and `Choice` keys).
    pub fn str(&self, key: &str) -> String {
        self.opt_str(key).unwrap_or_default()
    }

    pub fn opt_str(&self, key: &str) -> Option<String> {
        match self.value(key) {
            Value::Str(s) => Some(s),
            _ => None,
        }
    }

    /// A list of strings (`List`, `Choices` and `GlobList` keys).
    pub fn list(&self, key: &str) -> Vec<String> {
        self.globs(key)
    }

    pub fn globs(&self, key: &str) -> Vec<String> {
        match self.value(key) {
            Value::Str(s) => vec![s],
            Value::Seq(items) => items
                .into_iter()
                .filter_map(|n| match n.value {
                    Value::Str(s) => Some(s),
                    _ => None,
                })
                .collect(),
            _ => Vec::new(),
        }
    }

    /// A `Count` key.
    pub fn count(&self, key: &str) -> u64 {
        match self.value(key) {
            Value::Int(n) => n.unsigned_abs(),
            other => panic!("`{key}` is not a count: {other:?}"),
        }
    }

    /// A `Number` key.
    pub fn number(&self, key: &str) -> f64 {
        match self.value(key) {
            #[allow(clippy::cast_precision_loss)]
            Value::Int(n) => n as f64,
            Value::Float(f) => f,
            other => panic!("`{key}` is not a number: {other:?}"),
        }
    }

    /// A `Records` key: one [`Record`] per entry, in order.
    pub fn records(&self, key: &str) -> Vec<Record> {
        match self.value(key) {
            Value::Seq(items) => items
                .into_iter()
                .filter_map(|n| match n.value {
                    Value::Map(fields) => Some(Record {
                        fields,
                        origin: n.origin,
                    }),
                    _ => None,
                })
                .collect(),
            _ => Vec::new(),
        }
    }

    pub fn duration(&self, key: &str) -> Duration {
        match self.value(key) {
            Value::Int(n) => Duration::from_secs(n.unsigned_abs()),
            Value::Str(s) => schema::parse_duration(&s).expect("validated duration"),
            other => panic!("`{key}` is not a duration: {other:?}"),
        }
    }
}

/// One validated entry of a `Records` key.
#[derive(Debug, Clone)]
pub struct Record {
    fields: Vec<(yaml::Key, Node)>,
    pub origin: Origin,
}

impl Record {
    fn get(&self, name: &str) -> Option<&Value> {
        self.fields.iter().find(|(k, _)| k.name == name).map(|(_, n)| &n.value)
    }

    pub fn str(&self, name: &str) -> Option<String> {
        match self.get(name)? {
            Value::Str(s) => Some(s.clone()),
            _ => None,
        }
    }

    /// A list field; a single string is a list of one.
    pub fn list(&self, name: &str) -> Vec<String> {
        match self.get(name) {
            Some(Value::Str(s)) => vec![s.clone()],
            Some(Value::Seq(items)) => items
                .iter()
                .filter_map(|n| match &n.value {
                    Value::Str(s) => Some(s.clone()),
                    _ => None,
                })
                .collect(),
            _ => Vec::new(),
        }
    }

    /// A list of whole numbers; a single number is a list of one.
    pub fn counts(&self, name: &str) -> Option<Vec<i64>> {
        match self.get(name)? {
            Value::Int(n) => Some(vec![*n]),
            Value::Seq(items) => Some(
                items
                    .iter()
                    .filter_map(|n| match n.value {
                        Value::Int(n) => Some(n),
                        _ => None,
                    })
                    .collect(),
            ),
            _ => None,
        }
    }

    pub fn duration(&self, name: &str) -> Option<Duration> {
        match self.get(name)? {
            Value::Int(n) => Some(Duration::from_secs(n.unsigned_abs())),
            Value::Str(s) => schema::parse_duration(s),
            _ => None,
        }
    }
}

/// Find, read and validate the configuration for the repository at `root`.
///
/// `explicit` is `--config`; it must exist and hold a configuration.
/// Otherwise the first of [`FILE_NAMES`] that holds one is used, else
/// built-in defaults.
pub fn load(
    root: &Path,
    explicit: Option<&Path>,
    env: &dyn Fn(&str) -> Option<String>,
    catalog: Catalog,
) -> Result<Config> {
    if let Some(p) = explicit {
        let p = if p.is_absolute() {
            p.to_path_buf()
        } else {
            std::env::current_dir()?.join(p)
        };
        match std::fs::metadata(&p) {
            Ok(meta) if meta.is_file() => {}
            Ok(meta) if meta.is_dir() => anyhow::bail!(
                "--config {} is a directory: name the config file in it (`{}/.loki-gate.yaml`)",
                p.display(),
                p.display()
            ),
            Ok(_) => anyhow::bail!(
                "--config {} is not a regular file (a device or a pipe): name a YAML file, or run `loki-gate init` to write one",
                p.display()
            ),
            Err(_) => anyhow::bail!(
                "config file {} not found: check the path given to --config, or run `loki-gate init`",
                p.display()
            ),
        }
        let shown = p.strip_prefix(root).unwrap_or(&p).display().to_string();
        let text = config_text(&p, &shown)?;
        let format = Format::of(&p);
        let mut config = from_source(format, &text, &shown, env, catalog)?.ok_or_else(|| {
            anyhow::anyhow!(
                "--config {shown} holds no loki-gate configuration ({} is missing): add it, or point --config at a YAML file",
                format.place().trim_start_matches("its ")
            )
        })?;
        config.file = Some(p);
        return Ok(config);
    }
    for name in FILE_NAMES {
        let path = root.join(name);
        if !path.is_file() {
            continue;
        }
        let text = config_text(&path, name)?;
        if let Some(mut config) = discovered(Format::of(&path), &text, name, env, catalog)? {
            config.file = Some(path);
            return Ok(config);
        }
    }
    from_text("", "", env, catalog)
}

/// The configuration a file found by name holds, if any. A project file
/// (`pyproject.toml`, `package.json`) that its own tools cannot read either
/// is loki-gate's concern only when it names loki-gate.
pub fn discovered(
    format: Format,
    text: &str,
    shown: &str,
    env: &dyn Fn(&str) -> Option<String>,
    catalog: Catalog,
) -> Result<Option<Config>> {
    match from_source(format, text, shown, env, catalog) {
        Err(_) if format != Format::Yaml && !text.contains("loki-gate") => Ok(None),
        other => other,
    }
}

/// The config file's text, whole and UTF-8.
fn config_text(path: &Path, shown: &str) -> Result<String> {
    let bytes = read_config(path, shown)?;
    String::from_utf8(bytes).map_err(|_| anyhow::anyhow!("config file {shown} is not valid UTF-8: save it as UTF-8"))
}

/// The configuration `text` holds as `format` (`None`: a project file that
/// holds none); `shown` names the file in errors.
pub fn from_source(
    format: Format,
    text: &str,
    shown: &str,
    env: &dyn Fn(&str) -> Option<String>,
    catalog: Catalog,
) -> Result<Option<Config>> {
    match sources::node_of(format, text) {
        Ok(Some(node)) => from_node(&node, shown, env, catalog).map(Some),
        Ok(None) => Ok(None),
        Err(problem) => Err(ConfigError {
            file: shown.to_string(),
            problems: vec![problem],
        }
        .into()),
    }
}

/// A config from its text; `shown` names it in errors ("" for none: the
/// built-in defaults).
pub fn from_text(text: &str, shown: &str, env: &dyn Fn(&str) -> Option<String>, catalog: Catalog) -> Result<Config> {
    Ok(from_source(Format::Yaml, text, shown, env, catalog)?.unwrap_or_else(|| unreachable!("YAML always holds one")))
}

fn from_node(node: &Node, shown: &str, env: &dyn Fn(&str) -> Option<String>, catalog: Catalog) -> Result<Config> {
    let config = validate::validate(node, env, catalog).map_err(|problems| ConfigError {
        file: if shown.is_empty() {
            "(defaults)".to_string()
        } else {
            shown.to_string()
        },
        problems,
    })?;
    Ok(config)
}

/// The largest config file read: one with every key set and commented is
/// about 10 KiB.
const MAX_CONFIG_BYTES: u64 = 1 << 20;

pub(crate) const TOO_BIG_FIX: &str = "a loki-gate config is a few dozen keys: remove the anchors and aliases that expand it, or point --config at the right file";

/// The config file's bytes, refused past [`MAX_CONFIG_BYTES`] before any is parsed.
fn read_config(path: &Path, shown: &str) -> Result<Vec<u8>> {
    use std::io::Read;
    let file = std::fs::File::open(path).with_context(|| format!("could not read config file {}", path.display()))?;
    let mut bytes = Vec::new();
    file.take(MAX_CONFIG_BYTES + 1)
        .read_to_end(&mut bytes)
        .with_context(|| format!("could not read config file {}", path.display()))?;
    if bytes.len() as u64 > MAX_CONFIG_BYTES {
        anyhow::bail!(
            "config file {shown} is larger than {} MiB, the most a config may be: is it the right file? A loki-gate config is a few KiB (`loki-gate init` writes one)",
            MAX_CONFIG_BYTES >> 20
        );
    }
    Ok(bytes)
}

/// A value `loki-gate init` writes instead of a key's default, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Override {
    /// The gate's section, or "" for the top level.
    pub section: &'static str,
    pub key: &'static str,
    /// YAML text.
    pub value: String,
    /// One line for the comment above the key.
    pub why: String,
}

/// The file `loki-gate init` writes: every key with its default and a comment.
pub fn template(catalog: Catalog) -> String {
    template_with(&[], catalog)
}

/// The `init` file with `overrides` in place of the defaults they name.
pub fn template_with(overrides: &[Override], catalog: Catalog) -> String {
    let entry = |out: &mut String, indent: &str, section: &str, key: &schema::KeySpec| {
        out.push_str(&format!("{indent}# {}\n", key.doc));
        match overrides.iter().find(|o| o.section == section && o.key == key.name) {
            Some(o) => out.push_str(&format!(
                "{indent}# {} (default: {})\n{indent}{}: {}\n",
                o.why, key.default, key.name, o.value
            )),
            None => out.push_str(&format!("{indent}{}: {}\n", key.name, key.default)),
        }
    };
    let mut out = String::new();
    out.push_str("# loki-gate configuration: every key with its default.\n");
    // A schema reference must resolve: the schema ships in the binary, so
    // the editor hint names the command that writes a local copy.
    out.push_str("# Editor support: `loki-gate schema > .loki-gate.schema.json`, then add\n");
    out.push_str("# `# yaml-language-server: $schema=./.loki-gate.schema.json` as this file's first line.\n");
    out.push_str("# Environment variables override keys: LOKI_GATE_<SECTION>_<KEY>,\n");
    out.push_str("# e.g. LOKI_GATE_EVIDENCE_TEST_COMMAND. Command-line flags override both.\n");
    out.push_str("# Reference: docs/configuration.md\n\n");
    for key in schema::TOP.keys {
        entry(&mut out, "", "", key);
    }
    out.push_str("\ngates:\n");
    for section in catalog.sections {
        out.push_str(&format!("  # {}\n  {}:\n", section.doc, section.gate));
        for key in section.keys {
            entry(&mut out, "    ", section.gate, key);
        }
    }
    out.push_str("\n# Levels per rule id or whole gate: allow | note | warn | deny.\n");
    out.push_str("# Shown: each rule's default. `loki-gate explain <rule>` documents it.\n");
    out.push_str("rules:\n");
    for r in catalog.rules {
        out.push_str(&format!("  # {}: {}\n", r.id, r.default_level));
    }
    out
}

/// The reference table for `docs/configuration.md`.
pub fn reference_table(catalog: Catalog) -> String {
    let mut out = String::from("| key | type | default | env | meaning |\n|---|---|---|---|---|\n");
    let mut row = |section: &str, key: &schema::KeySpec| {
        let path = if section.is_empty() {
            key.name.to_string()
        } else {
            format!("gates.{section}.{}", key.name)
        };
        let kind = match key.kind {
            Kind::Bool => "bool",
            Kind::OptStr => "string or null",
            Kind::Str => "string",
            Kind::GlobList => "globs",
            Kind::Duration => "duration",
            Kind::List => "strings",
            Kind::Choices(_) => "names",
            Kind::Choice(_) => "name",
            Kind::Count => "count",
            Kind::Number => "number",
            Kind::Counts => "counts",
            Kind::Records(_) => "list of maps",
        };
        out.push_str(&format!(
            "| `{path}` | {kind} | `{}` | `{}` | {} |\n",
            key.default,
            schema::env_name(section, key.name),
            key.doc.replace('|', "\\|")
        ));
    };
    for key in schema::TOP.keys {
        row("", key);
    }
    for section in catalog.sections {
        for key in section.keys {
            row(section.gate, key);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn no_env(_: &str) -> Option<String> {
        None
    }

    #[test]
    fn the_gate_names_are_the_config_sections_in_order() {
        let sections: Vec<&str> = crate::gates::SECTIONS.iter().map(|s| s.gate).collect();
        assert_eq!(schema::GATE_NAMES, sections.as_slice());
    }

    #[test]
    fn the_init_template_is_valid_and_equals_the_defaults() {
        let node = yaml::parse(&template(crate::gates::catalog())).unwrap();
        let config = validate::validate(&node, &no_env, crate::gates::catalog()).unwrap();
        assert_eq!(config.base(), None);
        assert!(config.exclude().is_empty());
        assert!(config.rules.is_empty());
        for section in crate::gates::SECTIONS {
            for key in section.keys {
                let value = config.section(section.gate).value(key.name);
                let default = yaml::parse_scalar(key.default, Origin::Env(String::new())).value;
                assert_eq!(
                    bar::render(&value),
                    bar::render(&default),
                    "{}.{}",
                    section.gate,
                    key.name
                );
            }
        }
    }

    #[test]
    fn any_number_of_comments_parse() {
        // serde-saphyr's `comments` feature buffered at most 96 comment lines
        // in a row, and the `init` template has more than that.
        let comments = "# a comment\n".repeat(500);
        let node = yaml::parse(&format!(
            "gates:\n  static:\n{comments}    filter: file\n{comments}rules:\n{comments}"
        ))
        .unwrap();
        let config = validate::validate(&node, &no_env, crate::gates::catalog()).unwrap();
        assert_eq!(config.section("static").str("filter"), "file");
    }

    #[test]
    fn env_overrides_the_file_key_by_key() {
        let node = yaml::parse("gates:\n  evidence:\n    test-command: make test\n    timeout: 5m\n").unwrap();
        let env = |name: &str| (name == "LOKI_GATE_EVIDENCE_TIMEOUT").then(|| "90s".to_string());
        let config = validate::validate(&node, &env, crate::gates::catalog()).unwrap();
        let ev = config.section("evidence");
        assert_eq!(ev.opt_str("test-command").as_deref(), Some("make test"));
        assert_eq!(ev.duration("timeout"), Duration::from_secs(90));
    }
}
