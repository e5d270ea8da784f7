//! A waiver: anything that switches a check off (an inline suppression, an
//! acknowledgment trailer, a config key that lowers a gate, a baseline
//! entry), where it came from, and what became of it. Every kind goes
//! through [`Waiver::finding`], so each reads the same in every report.

use serde::{Deserialize, Serialize};

use crate::finding::{Finding, Severity};

/// What switches the check off.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Kind {
    /// `loki-gate: allow(rule) reason` on or above the line.
    Suppression,
    /// `Loki-Gate-Allow: rule reason` in a commit message.
    Trailer,
    /// A config key that lowers the bar the base set.
    Config,
    /// Findings accepted into a `--baseline` file.
    Baseline,
    /// A key of a tool's own config (a linter's, a type checker's, a test
    /// runner's) that lowers the bar the base set (`src/trust/tools.rs`).
    ToolConfig,
    /// A tool's own inline suppression (`# noqa`, `eslint-disable`,
    /// `@ts-ignore`, `#[allow]`, `//nolint`), in `rules` as written.
    ToolSuppression,
}

impl Kind {
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Suppression => "suppression",
            Kind::Trailer => "trailer",
            Kind::Config => "config",
            Kind::Baseline => "baseline",
            Kind::ToolConfig => "tool-config",
            Kind::ToolSuppression => "tool-suppression",
        }
    }
}

/// Where it came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Origin {
    /// It was there at the trusted revision.
    Base,
    /// The change under review added it.
    Change,
}

/// What became of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Status {
    /// At the base: it applies.
    Honoured,
    /// Added by the change and acknowledged by someone trusted: it applies.
    Acknowledged,
    /// Added by the change and not acknowledged, where that is enforced (CI,
    /// pre-push): it does not apply; a deny finding says so.
    Held,
    /// Added by the change and not acknowledged, where that is not enforced
    /// (pre-commit, a run by hand): it applies; a warning says CI will not.
    Warned,
}

impl Status {
    /// Does the waiver take effect in this run?
    pub fn applies(self) -> bool {
        self != Status::Held
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Status::Honoured => "honoured",
            Status::Acknowledged => "acknowledged",
            Status::Held => "held",
            Status::Warned => "warned",
        }
    }
}

/// One waiver in play, as every report lists it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Waiver {
    pub kind: Kind,
    /// The rules (or gates) it waives; for a config key, the key
    /// (`gates.mock.enabled`, `rules.mock/no-assertion`).
    pub rules: Vec<String>,
    /// Where it is written: a file (and line), or the commit of a trailer.
    pub path: Option<String>,
    pub line: Option<u32>,
    pub column: Option<u32>,
    pub commit: Option<String>,
    pub origin: Origin,
    /// Who added it (`Name <email> (commit)`), when the change added it and
    /// that is known.
    pub authors: Vec<String>,
    /// The reason written with it; for a config key, `base -> change`.
    pub reason: String,
    pub status: Status,
    /// Who acknowledged it (status `acknowledged`).
    pub acknowledged_by: Option<String>,
    /// The findings it hid in this run (inline suppressions).
    pub findings: Vec<Finding>,
    /// A config key's values: the base's and the change's.
    #[serde(skip)]
    pub values: Option<(String, String)>,
    /// A config key naming commands loki-gate runs.
    #[serde(skip)]
    pub commands: bool,
    /// The gate whose bar it lowers, when its rules do not say
    /// ([`Kind::ToolConfig`]: `static` for a linter, `mock` for a test runner).
    #[serde(skip)]
    pub gate: Option<&'static str>,
    /// Why its authors' commits do not acknowledge it, when only their
    /// signature stood in the way.
    #[serde(skip)]
    pub unacknowledged: Option<String>,
}

impl Waiver {
    /// A waiver of `kind` as the base has it (honoured); callers place it
    /// and, when the change added it, pass it through [`Waiver::added`].
    pub fn new(kind: Kind, rules: Vec<String>, reason: String) -> Waiver {
        Waiver {
            kind,
            rules,
            path: None,
            line: None,
            column: None,
            commit: None,
            origin: Origin::Base,
            authors: Vec::new(),
            reason,
            status: Status::Honoured,
            acknowledged_by: None,
            findings: Vec::new(),
            values: None,
            commands: false,
            gate: None,
            unacknowledged: None,
        }
    }

    /// The same waiver, added by the change and judged as `verdict` says.
    pub fn added(self, verdict: Verdict) -> Waiver {
        Waiver {
            origin: Origin::Change,
            status: verdict.status,
            authors: verdict.authors,
            acknowledged_by: verdict.acknowledged_by,
            unacknowledged: verdict.unacknowledged,
            ..self
        }
    }

    /// How a message names it: ``suppression `allow(mock/x)` `` and the like.
    fn shown(&self) -> String {
        match self.kind {
            Kind::Suppression => format!("`loki-gate: allow({})`", self.rules.join(", ")),
            Kind::Trailer => format!(
                "`Loki-Gate-Allow: {}` in {}",
                self.rules.join(", "),
                self.commit.as_deref().map(crate::git::short).unwrap_or("a commit")
            ),
            Kind::Config => format!("`{}`", self.rules.join(", ")),
            Kind::Baseline => format!("baseline {}", self.path.as_deref().unwrap_or_default()),
            Kind::ToolConfig => format!("`{}`", self.rules.join(", ")),
            Kind::ToolSuppression => format!("`{}`", self.rules.join(", ")),
        }
    }

    /// The finding that shows a waiver the change added and no one trusted
    /// acknowledged: deny where it is held, a warning where it applies
    /// anyway (pre-commit, a run by hand); `None` otherwise. `who_can`
    /// says who can acknowledge it.
    pub fn finding(&self, who_can: &str) -> Option<Finding> {
        let by = if self.authors.is_empty() {
            String::new()
        } else {
            format!(" by {}", self.authors.join(", "))
        };
        let message = match (&self.values, self.status) {
            (_, Status::Honoured | Status::Acknowledged) => return None,
            (Some((base, head)), status) if self.commands => {
                let place = self.rules.join(", ");
                let by = by.replacen(" by ", "; changed by ", 1);
                let effect = if status == Status::Held {
                    format!("the base's (`{base}`) run instead")
                } else {
                    format!("they run here, but pre-push and CI run the base's (`{base}`)")
                };
                format!(
                    "`{place}: {head}` names commands the base's config does not: {effect} until someone trusted acknowledges it (a fork's pull request never runs its own){by}"
                )
            }
            (Some((base, head)), status) => {
                let place = self.rules.join(", ");
                let effect = if status == Status::Held {
                    format!("judged with `{base}`")
                } else {
                    format!("it applies in this run, but pre-push and CI judge with `{base}`")
                };
                let by = by.replacen(" by ", "; changed by ", 1);
                format!(
                    "`{place}: {head}` lowers the bar the base set (`{base}`): {effect} until someone trusted acknowledges it{by}"
                )
            }
            (None, status) if self.kind == Kind::ToolConfig => {
                let effect = if status == Status::Held {
                    "held: it blocks"
                } else {
                    "it applies in this run, but pre-push and CI block on it"
                };
                let by = by.replacen(" by ", "; changed by ", 1);
                format!(
                    "{}: {} {} lowers the bar the base set: {effect} until someone trusted acknowledges it{by}",
                    self.path.as_deref().unwrap_or_default(),
                    self.rules.join(", "),
                    self.reason
                )
            }
            (None, status) if self.kind == Kind::Baseline => {
                let effect = if status == Status::Held {
                    "the base's entries are used"
                } else {
                    "they apply in this run, but pre-push and CI use the base's entries"
                };
                format!(
                    "baseline {} gained {} in the change{by}: {effect} until someone trusted acknowledges them",
                    self.path.as_deref().unwrap_or_default(),
                    self.reason
                )
            }
            (None, status) => {
                let effect = match (status, self.kind) {
                    (Status::Held, Kind::ToolSuppression) => "held: it blocks",
                    (_, Kind::ToolSuppression) => {
                        "it hides the tool's finding in this run, but pre-push and CI block on it"
                    }
                    (Status::Held, Kind::Suppression) => "the finding it covers stands",
                    (Status::Held, _) => "the findings it names stand",
                    _ => "it applies in this run, but pre-push and CI do not take it",
                };
                format!(
                    "{} was added by the change{by}: {effect} until someone trusted acknowledges it",
                    self.shown()
                )
            }
        };
        let mut finding = Finding::new(&crate::meta::WAIVER_ADDED, message);
        finding = match (&self.path, self.line) {
            (Some(path), Some(line)) => finding.at(path.clone(), line, self.column.unwrap_or(1)),
            (Some(path), None) => finding.in_file(path.clone()),
            _ => finding,
        };
        if !matches!(self.kind, Kind::Config | Kind::ToolConfig) && !self.reason.is_empty() {
            finding.notes.push(format!("its reason: {}", self.reason));
        }
        if let Some(why) = &self.unacknowledged {
            finding.notes.push(format!("not acknowledged by its author: {why}"));
        }
        finding.notes.push(format!("who can acknowledge it: {who_can}"));
        if self.status == Status::Warned {
            finding.ceiling = Some(Severity::Warning);
        }
        Some(finding)
    }

    /// The line the report's Waivers section gives it.
    pub fn line_shown(&self) -> String {
        let at = match (&self.path, self.line, &self.commit) {
            (Some(path), Some(line), _) => format!("{path}:{line}"),
            (Some(path), None, _) => path.clone(),
            (None, _, Some(commit)) => crate::git::short(commit).to_string(),
            _ => String::new(),
        };
        let mut out = format!("{} {} {at}", self.kind.as_str(), self.rules.join(", "));
        match self.origin {
            Origin::Base => out.push_str(": at the base"),
            Origin::Change if self.authors.is_empty() => out.push_str(": added by the change"),
            Origin::Change => out.push_str(&format!(": added by {}", self.authors.join(", "))),
        }
        out.push_str(&format!(", {}", self.status.as_str()));
        if let Some(by) = &self.acknowledged_by {
            out.push_str(&format!(" by {by}"));
        }
        if !self.findings.is_empty() {
            out.push_str(&format!(
                ", hid {}",
                crate::wording::plural(self.findings.len(), "finding")
            ));
        }
        let reason = match &self.values {
            Some((base, head)) => format!(
                "`{}` where the base has `{}`",
                crate::finding::clip(head),
                crate::finding::clip(base)
            ),
            None => self.reason.clone(),
        };
        if !reason.is_empty() {
            out.push_str(&format!(" \u{2014} {reason}"));
        }
        out
    }
}
/// What the judge made of one waiver the change added.
#[derive(Debug, Clone)]
pub struct Verdict {
    pub status: Status,
    pub authors: Vec<String>,
    pub acknowledged_by: Option<String>,
    /// Why the authors' commits did not acknowledge it, when only their
    /// signature stood in the way.
    pub unacknowledged: Option<String>,
}
