//! Rule metadata, the registry of every rule, and level resolution.
//!
//! A rule's level (`allow`, `note`, `warn`, `deny`) is decided here and
//! nowhere else: defaults come from [`RuleMeta`], then the config file's
//! `rules:` section, then `-A`/`-W`/`-D` on the command line. At each source a
//! setting for one rule beats a setting for its whole gate.

use std::fmt;
use std::str::FromStr;

use crate::finding::Severity;

/// How a rule's findings are treated.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Level {
    /// Hidden.
    Allow,
    /// Reported as a note; never blocks.
    Note,
    /// Reported as a warning; never blocks.
    Warn,
    /// Reported as an error; blocks (exit 1).
    Deny,
}

impl Level {
    pub fn severity(self) -> Option<Severity> {
        match self {
            Level::Allow => None,
            Level::Note => Some(Severity::Note),
            Level::Warn => Some(Severity::Warning),
            Level::Deny => Some(Severity::Error),
        }
    }

    pub const NAMES: &'static [&'static str] = &["allow", "note", "warn", "deny"];

    /// The levels and the other words for them, as an error message lists them.
    pub const SPELLINGS: &'static str = "allow (or off), note, warn (or warning), deny (or error)";
}

impl FromStr for Level {
    type Err = ();
    fn from_str(s: &str) -> Result<Self, ()> {
        match s {
            // ESLint's words (`off`, `warn`, `error`) and the severities
            // (`warning`, `error`) name the same levels.
            "allow" | "off" => Ok(Level::Allow),
            "note" => Ok(Level::Note),
            "warn" | "warning" => Ok(Level::Warn),
            "deny" | "error" => Ok(Level::Deny),
            _ => Err(()),
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Level::Allow => "allow",
            Level::Note => "note",
            Level::Warn => "warn",
            Level::Deny => "deny",
        })
    }
}

/// Everything known about a rule, from its `.rs` and `.md` files.
#[derive(Debug)]
pub struct RuleMeta {
    /// `gate/kebab-case-name`.
    pub id: &'static str,
    /// The gate it belongs to (`meta` for the engine's own rules).
    pub gate: &'static str,
    pub default_level: Level,
    /// One line: what it catches.
    pub summary: &'static str,
    /// One line: what to do instead (the finding's default help).
    pub help: &'static str,
    /// The full Markdown documentation (`rules/<rule>.md`).
    pub doc: &'static str,
}

/// The rule `id` among `rules` (the gates' registry, `gates::rules()`).
pub fn find(rules: &[&'static RuleMeta], id: &str) -> Option<&'static RuleMeta> {
    rules.iter().copied().find(|r| r.id == id)
}

/// The rule an id belongs to: the rule itself, or for a tool's own rule
/// (`static/ruff:F401`) the family that reports it (`static/ruff`).
pub fn resolve(rules: &[&'static RuleMeta], id: &str) -> Option<&'static RuleMeta> {
    find(rules, id).or_else(|| {
        let (family, code) = id.split_once(':')?;
        (!code.trim().is_empty()).then(|| find(rules, family)).flatten()
    })
}

/// Does `selector` name the rule `id`: the id itself, or a prefix of it
/// ending where a `:` begins (`static/ruff` and `static/sarif:semgrep`
/// select `static/sarif:semgrep:no-eval`'s kind of ids)?
pub fn selects(selector: &str, id: &str) -> bool {
    id.strip_prefix(selector)
        .is_some_and(|rest| rest.is_empty() || rest.starts_with(':'))
}

/// Names accepted wherever a rule is expected: a rule id (a tool's own rule
/// included), or a whole gate.
pub fn is_known_selector(rules: &[&'static RuleMeta], selector: &str) -> bool {
    resolve(rules, selector).is_some() || rules.iter().any(|r| r.gate == selector)
}

/// Where a level setting came from; later sources win.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Source {
    Config,
    Cli,
}

/// Level overrides from config and command line, over the rules they name.
#[derive(Debug, Clone)]
pub struct Levels {
    settings: Vec<(String, Level, Source)>,
    rules: &'static [&'static RuleMeta],
}

impl Levels {
    /// No override yet, over the gates' `rules` (`gates::rules()`).
    pub fn new(rules: &'static [&'static RuleMeta]) -> Levels {
        Levels {
            settings: Vec::new(),
            rules,
        }
    }

    /// Record a setting for a rule id or a gate name. At equal source and
    /// specificity, the later setting wins.
    pub fn set(&mut self, selector: impl Into<String>, level: Level, source: Source) {
        self.settings.push((selector.into(), level, source));
    }

    /// The effective level of `rule`.
    pub fn level(&self, rule: &RuleMeta) -> Level {
        self.resolved(rule.id, rule, rule.default_level)
    }

    /// The effective level of a rule id; unknown ids (which validation rejects
    /// before anything runs) are treated as deny so nothing slips through.
    /// A finding's `proposed` level (a tool's severity on the ladder, or a
    /// gate's default for this repository) replaces the rule's default, and
    /// a setting that names the id, a prefix of it, its family or its gate
    /// beats both.
    pub fn level_of(&self, id: &str, proposed: Option<Level>) -> Level {
        match resolve(self.rules, id) {
            Some(rule) if rule.id == id => self.resolved(id, rule, proposed.unwrap_or(rule.default_level)),
            Some(family) => self.resolved(id, family, proposed.unwrap_or(family.default_level)),
            None => Level::Deny,
        }
    }

    /// Is every finding `selector` covers (a gate's, or a rule family's such
    /// as `static/ruff`) hidden: the winning setting over the selector is
    /// `allow`, and no setting for something inside it asks for more? Then
    /// what would produce those findings need not run at all.
    pub fn silenced(&self, selector: &str) -> bool {
        let gate = selector.split('/').next().unwrap_or(selector);
        let is_gate = gate == selector;
        let covering = |setting: &str| {
            if setting == gate {
                Some(0)
            } else if !is_gate && selects(setting, selector) {
                Some(setting.len() + 1)
            } else {
                None
            }
        };
        let mut best: Option<((Source, usize), Level)> = None;
        for (setting, level, source) in &self.settings {
            if let Some(specificity) = covering(setting) {
                let rank = (*source, specificity);
                if best.is_none_or(|(r, _)| rank >= r) {
                    best = Some((rank, *level));
                }
            }
        }
        let Some(((source, _), Level::Allow)) = best else {
            return false;
        };
        // A setting for something inside the selector is more specific, so
        // it wins from the same source or a stronger one: unless it is
        // `allow` too, its findings show and the producer must run.
        !self.settings.iter().any(|(setting, level, from)| {
            let inside = covering(setting).is_none()
                && if is_gate {
                    setting.starts_with(&format!("{gate}/"))
                } else {
                    selects(selector, setting)
                };
            inside && *level != Level::Allow && *from >= source
        })
    }

    /// The level of `id` of `family`'s rules: a setting for the id beats one
    /// for a longer prefix of it (`static/sarif:semgrep`), which beats one
    /// for the family, which beats one for the gate; the command line beats
    /// the config file whatever it names.
    fn resolved(&self, id: &str, family: &RuleMeta, default: Level) -> Level {
        let mut best: Option<((Source, usize), Level)> = None;
        for (selector, level, source) in &self.settings {
            let specificity = if selects(selector, id) {
                selector.len() + 1
            } else if selector == family.gate {
                0
            } else {
                continue;
            };
            let rank = (*source, specificity);
            if best.is_none_or(|(r, _)| rank >= r) {
                best = Some((rank, *level));
            }
        }
        best.map_or(default, |(_, level)| level)
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_gate_or_family_is_silenced_only_when_nothing_inside_it_shows() {
        let levels = |settings: &[(&str, Level, Source)]| {
            let mut levels = Levels::new(crate::gates::rules());
            for (selector, level, source) in settings {
                levels.set(*selector, *level, *source);
            }
            levels
        };
        use Source::{Cli, Config};
        assert!(levels(&[("static", Level::Allow, Cli)]).silenced("static"));
        assert!(levels(&[("static", Level::Allow, Cli)]).silenced("static/ruff"));
        assert!(levels(&[("static/ruff", Level::Allow, Cli)]).silenced("static/ruff"));
        assert!(!levels(&[("static/ruff", Level::Allow, Cli)]).silenced("static"));
        assert!(!levels(&[]).silenced("mock"));
        assert!(!levels(&[("mock", Level::Warn, Cli)]).silenced("mock"));
        // A rule inside asks for more from as strong a source: the gate runs.
        assert!(!levels(&[("mock", Level::Allow, Cli), ("mock/empty-test", Level::Deny, Cli)]).silenced("mock"));
        assert!(
            !levels(&[
                ("static/ruff", Level::Allow, Config),
                ("static/ruff:F401", Level::Deny, Config)
            ])
            .silenced("static/ruff")
        );
        // The command line beats the config whatever the config names.
        assert!(levels(&[("mock/empty-test", Level::Deny, Config), ("mock", Level::Allow, Cli)]).silenced("mock"));
        // The later of two equal settings wins.
        assert!(!levels(&[("mock", Level::Allow, Cli), ("mock", Level::Deny, Cli)]).silenced("mock"));
        assert!(levels(&[("mock", Level::Deny, Config), ("mock", Level::Allow, Cli)]).silenced("mock"));
    }

    #[test]
    fn a_selector_is_the_id_or_a_prefix_ending_at_a_colon() {
        assert!(selects("static/sarif:semgrep", "static/sarif:semgrep:no-eval"));
        assert!(selects("static/sarif", "static/sarif:semgrep:no-eval"));
        assert!(selects("static/ruff:F401", "static/ruff:F401"));
        assert!(!selects("static/sarif:sem", "static/sarif:semgrep:no-eval"));
        assert!(!selects("static/ruff:F40", "static/ruff:F401"));
    }

    use super::*;

    const HEADINGS: &[&str] = &[
        "## What it does",
        "## Why is this bad?",
        "## Example",
        "## Use instead",
        "## Not flagged",
        "## Options",
    ];

    #[test]
    fn rule_ids_are_unique_and_well_formed() {
        let rules = crate::gates::rules();
        let mut ids: Vec<_> = rules.iter().map(|r| r.id).collect();
        ids.dedup();
        assert_eq!(ids.len(), rules.len(), "duplicate rule id");
        for r in rules {
            let (gate, name) = r.id.split_once('/').expect("gate/name");
            assert_eq!(gate, r.gate, "{}", r.id);
            assert!(
                !name.is_empty() && name.chars().all(|c| c.is_ascii_lowercase() || c == '-'),
                "{} is not kebab-case",
                r.id
            );
            assert!(!r.summary.contains('\n') && !r.help.contains('\n'), "{}", r.id);
        }
        insta::assert_snapshot!(ids.join("\n"));
    }

    #[test]
    fn every_rule_doc_has_the_template_headings() {
        for r in crate::gates::rules() {
            assert!(r.doc.starts_with(&format!("# {}\n", r.id)), "{} doc title", r.id);
            let mut last = 0;
            for h in HEADINGS {
                let at = r.doc.find(h).unwrap_or_else(|| panic!("{} lacks {h}", r.id));
                assert!(at >= last, "{}: {h} out of order", r.id);
                last = at;
            }
        }
    }

    #[test]
    fn rule_setting_beats_gate_setting_and_cli_beats_config() {
        let rule = find(crate::gates::rules(), "evidence/empty-diff").unwrap();
        let mut levels = Levels::new(crate::gates::rules());
        assert_eq!(levels.level(rule), Level::Deny);
        levels.set("evidence", Level::Warn, Source::Config);
        assert_eq!(levels.level(rule), Level::Warn);
        levels.set("evidence/empty-diff", Level::Note, Source::Config);
        levels.set("evidence", Level::Warn, Source::Config);
        assert_eq!(levels.level(rule), Level::Note, "rule beats gate at same source");
        levels.set("evidence", Level::Allow, Source::Cli);
        assert_eq!(levels.level(rule), Level::Allow, "cli gate beats config rule");
        levels.set("evidence/empty-diff", Level::Deny, Source::Cli);
        assert_eq!(levels.level(rule), Level::Deny);
    }
}
