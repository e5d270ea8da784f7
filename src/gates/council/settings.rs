//! The council gate's knobs: config schema, providers and their presets.

use std::time::Duration;

use anyhow::{Result, anyhow, bail};

use crate::config::schema::{FieldSpec, KeySpec, Kind, SectionSpec};
use crate::config::{Record, Section};

/// What the council does with a reviewer whose answer could not be read.
pub const INCONCLUSIVE: &[&str] = crate::config::schema::INCONCLUSIVE;

/// Provider kinds: a command, an OpenAI-compatible endpoint, or a preset command.
pub const KINDS: &[&str] = &["command", "openai", "claude", "codex", "gemini", "aider", "llm"];

pub const FIELDS: &[FieldSpec] = &[
    FieldSpec {
        name: "name",
        kind: Kind::Str,
        required: true,
        example: "claude",
        doc: "the reviewer's name, in findings and state",
    },
    FieldSpec {
        name: "kind",
        kind: Kind::Choice(KINDS),
        required: true,
        example: "claude",
        doc: "command, openai, or a preset command: claude, codex, gemini, aider, llm",
    },
    FieldSpec {
        name: "command",
        kind: Kind::List,
        required: false,
        example: "[\"my-reviewer\", \"--json\"]",
        doc: "kind command: the program and its arguments; the prompt goes on stdin, or where an argument is {prompt} (the text) or {prompt-file} (a file holding it); {model} is the model",
    },
    FieldSpec {
        name: "model",
        kind: Kind::Str,
        required: false,
        example: "qwen2.5-coder",
        doc: "the model: required for openai; for a preset, passed with its model flag",
    },
    FieldSpec {
        name: "base-url",
        kind: Kind::Str,
        required: false,
        example: "\"http://127.0.0.1:11434/v1\"",
        doc: "kind openai: the endpoint's base URL (…/v1); /chat/completions is appended",
    },
    FieldSpec {
        name: "api-key-env",
        kind: Kind::Str,
        required: false,
        example: "OPENAI_API_KEY",
        doc: "kind openai: the environment variable holding the API key (never the key itself); none for a local server",
    },
    FieldSpec {
        name: "timeout",
        kind: Kind::Duration,
        required: false,
        example: "300s",
        doc: "time limit for one answer (default: gates.council.timeout)",
    },
];

/// The gate's `enabled` key: off by default, since every review costs money.
const ENABLED_OFF: KeySpec = KeySpec {
    name: "enabled",
    kind: Kind::Bool,
    default: "false",
    doc: "true turns the council on; it is off by default because each review is paid for (providers below)",
};

pub const SECTION: SectionSpec = SectionSpec {
    gate: "council",
    doc: "council: blind LLM reviewers of the change, with a devil's advocate on unanimous approval",
    keys: &[
        ENABLED_OFF,
        KeySpec {
            name: "providers",
            kind: Kind::Records(FIELDS),
            default: "[]",
            doc: "the reviewers' providers, drawn round-robin: each a name, a kind and what that kind needs",
        },
        KeySpec {
            name: "reviewers",
            kind: Kind::Count,
            default: "3",
            doc: "how many blind reviewers read the change",
        },
        KeySpec {
            name: "devils-advocate",
            kind: Kind::Bool,
            default: "true",
            doc: "on a unanimous approval, one more reviewer reads the change looking for what the others missed",
        },
        KeySpec {
            name: "inconclusive",
            kind: Kind::Choice(INCONCLUSIVE),
            default: "block",
            doc: "what a reviewer whose answer is empty, malformed, refused or late does: block, or ignore (it does not count)",
        },
        KeySpec {
            name: "timeout",
            kind: Kind::Duration,
            default: "5m",
            doc: "time limit for one reviewer's answer, unless its provider sets its own",
        },
        KeySpec {
            name: "parallel",
            kind: Kind::Count,
            default: "4",
            doc: "at most this many reviewers run at once",
        },
        KeySpec {
            name: "max-diff-bytes",
            kind: Kind::Count,
            default: "200000",
            doc: "the diff in the prompt is cut at this size, with a note of the files left out",
        },
        KeySpec {
            name: "max-file-bytes",
            kind: Kind::Count,
            default: "100000",
            doc: "budget for the full text of changed files in the prompt (smallest first)",
        },
    ],
};

/// How a provider is reached.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reach {
    /// A program; the prompt goes on stdin unless an argument holds
    /// `{prompt}` or `{prompt-file}`.
    Command(Vec<String>),
    /// An OpenAI-compatible chat-completions endpoint.
    OpenAi {
        base_url: String,
        model: String,
        api_key_env: Option<String>,
    },
}

/// One configured provider.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Provider {
    pub name: String,
    pub reach: Reach,
    pub timeout: Duration,
}

/// What the command line sets over the config (`loki-gate council --reviewers ...`).
#[derive(Debug, Default, Clone)]
pub struct Overrides {
    pub fresh: bool,
    pub reviewers: Option<usize>,
    pub provider: Option<Vec<String>>,
}

#[derive(Debug, Clone)]
pub struct Settings {
    pub providers: Vec<Provider>,
    pub reviewers: usize,
    pub devils_advocate: bool,
    /// Unreadable answers block (else they do not count).
    pub block_inconclusive: bool,
    pub parallel: usize,
    pub max_diff_bytes: usize,
    pub max_file_bytes: usize,
    /// Ask again even when this diff was reviewed before.
    pub fresh: bool,
}

/// The command of a preset, with `{model}` where its model flag takes it.
fn preset(kind: &str, model: Option<&str>) -> Vec<String> {
    let (base, model_flag): (&[&str], &str) = match kind {
        // Each reads the prompt on stdin in its non-interactive mode.
        "claude" => (&["claude", "-p", "--output-format", "text"], "--model"),
        "codex" => (&["codex", "exec", "--skip-git-repo-check", "-"], "--model"),
        "gemini" => (&["gemini"], "--model"),
        // aider takes the message from a file, and answers without editing in ask mode.
        "aider" => (
            &[
                "aider",
                "--chat-mode",
                "ask",
                "--no-git",
                "--no-auto-commits",
                "--yes-always",
                "--message-file",
                "{prompt-file}",
            ],
            "--model",
        ),
        "llm" => (&["llm"], "-m"),
        _ => (&[], ""),
    };
    let mut command: Vec<String> = base.iter().map(|s| s.to_string()).collect();
    if let Some(model) = model {
        command.extend([model_flag.to_string(), model.to_string()]);
    }
    command
}

impl Settings {
    /// The command line over the config (which already holds env over file).
    pub fn resolve(section: &Section, args: &Overrides) -> Result<Settings> {
        let timeout = section.duration("timeout");
        let mut providers: Vec<Provider> = Vec::new();
        for (i, record) in section.records("providers").iter().enumerate() {
            let provider = provider(record, timeout).map_err(|e| anyhow!("gates.council.providers[{i}]: {e}"))?;
            if providers.iter().any(|p| p.name == provider.name) {
                bail!(
                    "gates.council.providers[{i}]: the name `{}` is used twice; give each provider its own name",
                    provider.name
                );
            }
            providers.push(provider);
        }
        if let Some(only) = &args.provider {
            providers.retain(|p| only.contains(&p.name));
            if providers.is_empty() {
                bail!("--provider {}: no configured provider has that name", only.join(","));
            }
        }
        let reviewers = args
            .reviewers
            .unwrap_or_else(|| usize::try_from(section.count("reviewers")).unwrap_or(usize::MAX));
        if reviewers == 0 {
            bail!("gates.council.reviewers is 0: at least one reviewer must read the change");
        }
        Ok(Settings {
            providers,
            reviewers,
            devils_advocate: section.bool("devils-advocate"),
            block_inconclusive: section.str("inconclusive") == "block",
            parallel: usize::try_from(section.count("parallel")).unwrap_or(1).max(1),
            max_diff_bytes: usize::try_from(section.count("max-diff-bytes")).unwrap_or(usize::MAX),
            max_file_bytes: usize::try_from(section.count("max-file-bytes")).unwrap_or(usize::MAX),
            fresh: args.fresh,
        })
    }
}

fn provider(record: &Record, default_timeout: Duration) -> Result<Provider> {
    let name = record.str("name").unwrap_or_default();
    let kind = record.str("kind").unwrap_or_default();
    let model = record.str("model");
    let timeout = record.duration("timeout").unwrap_or(default_timeout);
    let reach = match kind.as_str() {
        "openai" => Reach::OpenAi {
            base_url: record
                .str("base-url")
                .ok_or_else(|| anyhow!("`{name}` (kind openai) needs `base-url`, e.g. http://127.0.0.1:11434/v1"))?,
            model: model.ok_or_else(|| anyhow!("`{name}` (kind openai) needs `model`, e.g. qwen2.5-coder"))?,
            api_key_env: record.str("api-key-env"),
        },
        "command" => {
            let command = record.list("command");
            if command.is_empty() {
                bail!("`{name}` (kind command) needs `command`, e.g. [\"my-reviewer\", \"--json\"]");
            }
            let model = model.unwrap_or_default();
            Reach::Command(command.into_iter().map(|a| a.replace("{model}", &model)).collect())
        }
        preset_kind => {
            if !record.list("command").is_empty() {
                bail!(
                    "`{name}` is the preset `{preset_kind}`: drop `command`, or write kind: command to give your own"
                );
            }
            Reach::Command(preset(preset_kind, model.as_deref()))
        }
    };
    Ok(Provider { name, reach, timeout })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_read_the_prompt_on_stdin_or_from_a_file() {
        assert_eq!(preset("claude", None), ["claude", "-p", "--output-format", "text"]);
        assert_eq!(preset("llm", Some("gpt-4o")), ["llm", "-m", "gpt-4o"]);
        assert!(preset("aider", None).contains(&"{prompt-file}".to_string()));
        for kind in KINDS.iter().filter(|k| !matches!(**k, "command" | "openai")) {
            assert!(!preset(kind, None).is_empty(), "{kind}");
        }
    }
}
