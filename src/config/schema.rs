//! The config schema: every key, its type, default and one-line doc.
//!
//! One table drives validation, environment overrides
//! (`LOKI_GATE_<SECTION>_<KEY>`), the file `loki-gate init` writes, and the
//! key reference in `docs/configuration.md` (a test keeps them in step).

use std::time::Duration;

/// The type of a config value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Bool,
    /// A string, or null.
    OptStr,
    /// A string.
    Str,
    /// A list of glob patterns (a single string is a list of one).
    GlobList,
    /// `90s`, `10m`, `1h`, `500ms`, or a number of seconds.
    Duration,
    /// A list of strings (a single string is a list of one).
    List,
    /// A list of strings, each one of these.
    Choices(&'static [&'static str]),
    /// One of these strings.
    Choice(&'static [&'static str]),
    /// A whole number, 0 or more.
    Count,
    /// A number (integer or decimal), 0 or more.
    Number,
    /// A list of whole numbers, 0 or more (a single one is a list of one).
    Counts,
    /// A list of mappings, each with these fields.
    Records(&'static [FieldSpec]),
}

/// One field of a [`Kind::Records`] entry.
#[derive(Debug, PartialEq, Eq)]
pub struct FieldSpec {
    pub name: &'static str,
    /// A scalar or list kind, never `Records`.
    pub kind: Kind,
    pub required: bool,
    /// An example value, as YAML text, for error messages.
    pub example: &'static str,
    pub doc: &'static str,
}

impl Kind {
    pub fn describe(self) -> &'static str {
        match self {
            Kind::Bool => "true or false",
            Kind::OptStr => "a string or null",
            Kind::Str => "a string",
            Kind::GlobList => "a list of glob patterns",
            Kind::Duration => "a duration such as 90s, 10m or 1h",
            Kind::List => "a list of strings",
            Kind::Choices(_) => "a list of names",
            Kind::Choice(_) => "one of the names listed",
            Kind::Count => "a whole number (0 or more)",
            Kind::Number => "a number (0 or more)",
            Kind::Counts => "a list of whole numbers",
            Kind::Records(_) => "a list of mappings",
        }
    }
}

/// One key of a section.
#[derive(Debug)]
pub struct KeySpec {
    pub name: &'static str,
    pub kind: Kind,
    /// The default, as YAML text.
    pub default: &'static str,
    pub doc: &'static str,
}

/// The settings of one gate (`gates.<gate>:`), or the top level (`gate` = "").
#[derive(Debug)]
pub struct SectionSpec {
    pub gate: &'static str,
    pub doc: &'static str,
    pub keys: &'static [KeySpec],
}

impl SectionSpec {
    pub fn key(&self, name: &str) -> Option<&'static KeySpec> {
        self.keys.iter().find(|k| k.name == name)
    }
}

/// The choices of a gate's `inconclusive` key: what it does with what it
/// could not judge (block, or pass with a notice).
pub const INCONCLUSIVE: &[&str] = &["block", "ignore"];

/// The key every gate has: the shared runner skips a disabled gate and says so.
pub const ENABLED: KeySpec = KeySpec {
    name: "enabled",
    kind: Kind::Bool,
    default: "true",
    doc: "false turns the gate off: it checks nothing and says so",
};

/// The key of every gate that holds the line: what a change run does with a
/// finding the base revision already had (`src/gates/at_base.rs`).
pub const PRE_EXISTING: KeySpec = KeySpec {
    name: "pre-existing",
    kind: Kind::Choice(&["warn", "block"]),
    default: "warn",
    doc: "a finding the base revision already had: warn = reported as a warning (only what the change introduced blocks); block = it keeps its rule's level",
};

/// Top-level keys besides `gates:` and `rules:`.
pub const TOP: SectionSpec = SectionSpec {
    gate: "",
    doc: "",
    keys: &[
        KeySpec {
            name: "base",
            kind: Kind::OptStr,
            default: "null",
            doc: "revision to compare against; null = origin/HEAD, else HEAD~1",
        },
        KeySpec {
            name: "exclude",
            kind: Kind::GlobList,
            default: "[]",
            doc: "paths no gate looks at, on top of .gitignore (globs, repo-relative)",
        },
        KeySpec {
            name: "max-file-bytes",
            kind: Kind::Count,
            default: "2097152",
            doc: "files (and history versions) larger than this are not read by any gate, in any scope: a test file the change adds or edits, or one a linter would check, is a meta/file-too-large finding (deny in CI and pre-push, a warning elsewhere); any other is named in a meta/skipped-file note; a change to it, either way, is held at the base's value",
        },
        KeySpec {
            name: "pre-commit-gates",
            kind: Kind::Choices(GATE_NAMES),
            default: "[static, mock, docs]",
            doc: "gates the pre-commit hook (`loki-gate hook run pre-commit`) runs on what is staged, those of them enabled",
        },
        KeySpec {
            name: "pre-push-gates",
            kind: Kind::Choices(GATE_NAMES),
            default: "[static, mock, mutation, docs]",
            doc: "gates the pre-push hook (`loki-gate hook run pre-push`) runs on the commits being pushed, those of them enabled",
        },
        KeySpec {
            name: "agent-gates",
            kind: Kind::Choices(GATE_NAMES),
            default: "[evidence, mock, mutation, docs, static]",
            doc: "gates a coding agent's stop hook (`loki-gate agent stop`) runs on the session's work, those of them enabled",
        },
        KeySpec {
            name: "agent-max-blocks",
            kind: Kind::Count,
            default: "6",
            doc: "blocked stops in a row after which the stop hook hands the work to a person (a handoff, the GitHub issue where a token is set, and one last block asking the agent to tell the person and end its turn), however the findings change: the backstop under `agent-no-progress` and stuck detection, kept under Claude Code's own cap of 8 blocks in a row",
        },
        KeySpec {
            name: "agent-no-progress",
            kind: Kind::Count,
            default: "3",
            doc: "blocked stops in a row with the same blocking findings (no progress) after which the stop hook hands the work to a person; at least 2",
        },
        KeySpec {
            name: "agent-stop-deadline",
            kind: Kind::Duration,
            default: "14m",
            doc: "how long the stop hook may judge; past it the commands it started are killed and the stop is blocked as one it could not judge (kept under the 15-minute timeout `init --agent` writes, past which the agent would let the stop through)",
        },
        KeySpec {
            name: "agent-strict-rules",
            kind: Kind::List,
            default: "[mock/smoke-test, mock/conditional-assertion, mock/skipped-test, mock/internal-mock-ratio, mutation/low-assertion-density]",
            doc: "rules that block in a coding agent's stop hook when the session's own work trips them, whatever their level elsewhere (what the code already had stays a warning)",
        },
        KeySpec {
            name: "trusted-authors",
            kind: Kind::List,
            default: "[]",
            doc: "commit authors and committers (`Name <email>` glob patterns) whose commits, signed with a key `trusted-signers` lists, may lower the bar; only the base revision's list counts (docs/trust.md)",
        },
        KeySpec {
            name: "trusted-signers",
            kind: Kind::List,
            default: "[]",
            doc: "files in the repository, read at the base revision, holding the keys a `trusted-authors` commit must be signed with to lower the bar: git's `allowed_signers` format for SSH keys, or ASCII-armored OpenPGP public keys; the change's own edits to them do not count (docs/trust.md)",
        },
        KeySpec {
            name: "trust-unsigned-authors",
            kind: Kind::Choice(&["never", "local"]),
            default: "never",
            doc: "local: an unsigned commit whose author and committer `trusted-authors` names may lower the bar in runs on a developer's machine (pre-push, by hand), never in CI; only the base revision's value counts (docs/trust.md)",
        },
        KeySpec {
            name: "agent-signatures",
            kind: Kind::List,
            default: "[]",
            doc: "more signs of a coding agent's commit (glob patterns on the author, the committer or a co-author trailer), on top of the built-in list; such commits are never trusted",
        },
        KeySpec {
            name: "acknowledge-label",
            kind: Kind::Str,
            default: "\"loki-gate-ack\"",
            doc: "a pull request label that acknowledges every waiver of the pull request, in the run its `labeled` event starts, when the person who applied it may write to the repository; empty: labels acknowledge nothing (docs/trust.md)",
        },
        KeySpec {
            name: "acknowledge-reviews",
            kind: Kind::Bool,
            default: "true",
            doc: "an approving review of the pull request's head commit, by someone who may write to the repository and is not its author or a bot, acknowledges every waiver of the pull request (docs/trust.md)",
        },
    ],
};

/// Every gate, in the order `check` reports them.
pub const GATE_NAMES: &[&str] = &[
    "static",
    "evidence",
    "mock",
    "mutation",
    "docs",
    "heldout",
    "council",
    "uncertainty",
];

/// The environment variable that overrides `key` of `section` ("" = top level).
pub fn env_name(section: &str, key: &str) -> String {
    let mut name = String::from("LOKI_GATE_");
    if !section.is_empty() {
        name.push_str(section);
        name.push('_');
    }
    name.push_str(key);
    name.to_ascii_uppercase().replace('-', "_")
}

/// Parse `90s`, `10m`, `1h`, `500ms` or a bare number of seconds.
pub fn parse_duration(text: &str) -> Option<Duration> {
    let text = text.trim();
    let split = text
        .find(|c: char| !c.is_ascii_digit() && c != '.')
        .unwrap_or(text.len());
    let (number, unit) = text.split_at(split);
    let number: f64 = number.parse().ok()?;
    let seconds = match unit.trim() {
        "" | "s" | "sec" | "secs" => number,
        "ms" => number / 1000.0,
        "m" | "min" | "mins" => number * 60.0,
        "h" | "hr" | "hours" => number * 3600.0,
        _ => return None,
    };
    (seconds.is_finite() && seconds > 0.0).then(|| Duration::from_secs_f64(seconds))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_parse_in_the_usual_units() {
        assert_eq!(parse_duration("90s"), Some(Duration::from_secs(90)));
        assert_eq!(parse_duration("10m"), Some(Duration::from_secs(600)));
        assert_eq!(parse_duration("1h"), Some(Duration::from_secs(3600)));
        assert_eq!(parse_duration("250ms"), Some(Duration::from_millis(250)));
        assert_eq!(parse_duration("30"), Some(Duration::from_secs(30)));
        assert_eq!(parse_duration("0s"), None);
        assert_eq!(parse_duration("ten minutes"), None);
    }

    #[test]
    fn env_names_are_upper_snake_case() {
        assert_eq!(env_name("evidence", "test-command"), "LOKI_GATE_EVIDENCE_TEST_COMMAND");
        assert_eq!(env_name("", "base"), "LOKI_GATE_BASE");
    }
}
