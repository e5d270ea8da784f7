//! `loki-gate agent doctor [--agent A]`: will each agent run loki-gate's
//! hooks here? Read from the agent's own settings (the project's, and the
//! trust it keeps in the user's home) and loki-gate's session records,
//! without running the agent. Each agent's rules are in `docs/agents/`.

use std::path::{Path, PathBuf};

use anyhow::Result;
use serde_json::Value;

use crate::cli::Agent;

use super::install;
use super::session::AgentState;

/// The most of one of the agents' files read (`~/.claude.json` grows with
/// every project the user opened).
const MAX_BYTES: u64 = 16 << 20;

/// What the doctor found for one agent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Checkup {
    pub agent: Agent,
    /// Problems that keep the hooks from running, each with its fix.
    pub blockers: Vec<String>,
    /// What else the person should know.
    pub notes: Vec<String>,
}

impl Checkup {
    pub fn fires(&self) -> bool {
        self.blockers.is_empty()
    }
}

/// Where the agents keep what the user set (their home, and the
/// variables they read).
pub struct Home {
    pub dir: Option<PathBuf>,
    pub codex_home: Option<PathBuf>,
    pub gemini_trusts_workspace: bool,
    /// `loki-gate` as the hooks call it, found on PATH.
    pub on_path: bool,
}

impl Home {
    pub fn from_env(env: &dyn Fn(&str) -> Option<String>) -> Home {
        let dir = env("HOME").filter(|h| !h.is_empty()).map(PathBuf::from);
        Home {
            codex_home: env("CODEX_HOME")
                .filter(|h| !h.is_empty())
                .map(PathBuf::from)
                .or_else(|| dir.as_ref().map(|d| d.join(".codex"))),
            gemini_trusts_workspace: env("GEMINI_CLI_TRUST_WORKSPACE").is_some_and(|v| v.trim() == "true"),
            on_path: which::which("loki-gate").is_ok(),
            dir,
        }
    }
}

/// Check `agent`'s hooks in the repository at `root`.
pub fn check(root: &Path, agent: Agent, home: &Home, state: &AgentState) -> Checkup {
    let mut up = Checkup {
        agent,
        blockers: Vec::new(),
        notes: Vec::new(),
    };
    let file = install::settings_file(agent);
    let settings = match read_json(&root.join(file)) {
        Ok(Some(doc)) => doc,
        Ok(None) => {
            up.blockers.push(format!(
                "{file} does not exist: run `loki-gate init --agent {}`",
                agent.name()
            ));
            return up;
        }
        Err(why) => {
            up.blockers.push(why);
            return up;
        }
    };
    let wired = wired(&settings, agent);
    let missing: Vec<&str> = install::entries(agent)
        .iter()
        .filter(|e| !wired.iter().any(|(event, _, _)| event == e.event))
        .map(|e| e.ours)
        .collect();
    if missing.len() == install::entries(agent).len() {
        up.blockers.push(format!(
            "{file} holds no loki-gate hook: run `loki-gate init --agent {}`",
            agent.name()
        ));
        return up;
    }
    if !missing.is_empty() {
        up.blockers.push(format!(
            "{file} lacks loki-gate's {} hook(s): run `loki-gate init --agent {}` again",
            missing.join(", "),
            agent.name()
        ));
    }
    if !home.on_path {
        up.blockers.push(
            "`loki-gate` is not on PATH, and the hooks call it by that name: install it (`cargo install --locked --path .` from a clone)"
                .to_string(),
        );
    }
    match agent {
        Agent::Claude => claude(root, home, &mut up),
        Agent::Codex => codex(root, home, &wired, &mut up),
        Agent::Gemini => gemini(root, home, &settings, &mut up),
        Agent::Cursor => {}
    }
    let seen = state.sessions.iter().rev().find(|s| s.agent == agent.name());
    up.notes.push(match seen {
        Some(session) => format!(
            "the last session loki-gate saw start here: {} ({}{} stop(s) blocked in a row, {} handoff(s))",
            super::short(&session.id),
            if session.unseen_start {
                "its start was not seen; "
            } else {
                ""
            },
            session.blocks,
            session.handoffs
        ),
        None => "loki-gate has seen no session of it start here yet".to_string(),
    });
    up
}

/// Claude Code: `disableAllHooks` in any settings file turns every hook
/// off; an interactive session asks to trust the folder first.
fn claude(root: &Path, home: &Home, up: &mut Checkup) {
    let mut files = vec![
        root.join(".claude/settings.json"),
        root.join(".claude/settings.local.json"),
    ];
    if let Some(dir) = &home.dir {
        files.push(dir.join(".claude/settings.json"));
    }
    for file in files {
        if let Ok(Some(doc)) = read_json(&file)
            && doc.get("disableAllHooks").and_then(Value::as_bool) == Some(true)
        {
            up.blockers.push(format!(
                "{}: `disableAllHooks: true` turns every hook off: remove it",
                file.display()
            ));
        }
    }
    let accepted = home
        .dir
        .as_ref()
        .and_then(|d| read_json(&d.join(".claude.json")).ok().flatten())
        .and_then(|doc| {
            doc.get("projects")?
                .get(root.to_str()?)?
                .get("hasTrustDialogAccepted")?
                .as_bool()
        })
        .unwrap_or(false);
    if !accepted {
        up.notes.push(
            "an interactive `claude` asks you to trust this folder before it runs any hook; `claude -p` runs them as they are"
                .to_string(),
        );
    }
}

/// Codex: the project trusted (`[projects."<root>"] trust_level`) and each
/// of loki-gate's handlers reviewed (`[hooks.state."<file>:<event>:<group>:<handler>"]`),
/// both in `$CODEX_HOME/config.toml`.
fn codex(root: &Path, home: &Home, wired: &[(String, usize, usize)], up: &mut Checkup) {
    let Some(config) = home.codex_home.as_ref().map(|d| d.join("config.toml")) else {
        up.blockers
            .push("HOME is not set: Codex's trust (~/.codex/config.toml) cannot be read".into());
        return;
    };
    let table: toml::Table = match read_capped(&config) {
        Ok(Some(text)) => match toml::from_str(&text) {
            Ok(table) => table,
            Err(e) => {
                up.blockers
                    .push(format!("{} is not TOML Codex can read ({e})", config.display()));
                return;
            }
        },
        Ok(None) => toml::Table::new(),
        Err(why) => {
            up.blockers.push(why);
            return;
        }
    };
    let root_key = root.to_string_lossy();
    let trusted = table
        .get("projects")
        .and_then(|p| p.get(root_key.as_ref()))
        .and_then(|p| p.get("trust_level"))
        .and_then(|t| t.as_str())
        == Some("trusted");
    if !trusted {
        up.blockers.push(format!(
            "Codex does not trust this project ({} has no `trust_level = \"trusted\"` for it): run `codex` here and trust the folder, or `codex exec --trust`",
            config.display()
        ));
    }
    let hooks_file = root.join(install::settings_file(Agent::Codex));
    let states = table.get("hooks").and_then(|h| h.get("state"));
    let unreviewed: Vec<String> = wired
        .iter()
        .filter(|(event, group, handler)| {
            let key = format!("{}:{}:{group}:{handler}", hooks_file.display(), snake(event));
            states
                .and_then(|s| s.get(&key))
                .and_then(|s| s.get("trusted_hash"))
                .is_none()
        })
        .map(|(event, _, _)| event.clone())
        .collect();
    if !unreviewed.is_empty() {
        up.blockers.push(format!(
            "Codex skips hooks no one reviewed, without a word ({}): run `codex` here and choose \"Trust all and continue\" when it asks to review them (headless: `codex exec --trust --dangerously-bypass-hook-trust`)",
            unreviewed.join(", ")
        ));
    } else {
        up.notes.push(
            "Codex's review of each hook is recorded; whether it predates the hooks' last change only `/hooks` in codex can tell"
                .to_string(),
        );
    }
}

/// Gemini CLI: hooks on (`hooksConfig`), and the folder trusted
/// (`~/.gemini/trustedFolders.json`, the longest rule that matches, or
/// `GEMINI_CLI_TRUST_WORKSPACE=true`), unless folder trust is off.
fn gemini(root: &Path, home: &Home, project: &Value, up: &mut Checkup) {
    let user = home
        .dir
        .as_ref()
        .and_then(|d| read_json(&d.join(".gemini/settings.json")).ok().flatten());
    for (doc, name) in [
        (Some(project), ".gemini/settings.json"),
        (user.as_ref(), "~/.gemini/settings.json"),
    ] {
        let Some(hooks) = doc.and_then(|d| d.get("hooksConfig")) else {
            continue;
        };
        if hooks.get("enabled").and_then(Value::as_bool) == Some(false) {
            up.blockers.push(format!(
                "{name}: `hooksConfig.enabled: false` turns hooks off: remove it"
            ));
        }
        let disabled: Vec<&str> = hooks
            .get("disabled")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .filter(|n| n.starts_with("loki-gate-"))
            .collect();
        if !disabled.is_empty() {
            up.blockers.push(format!(
                "{name}: `hooksConfig.disabled` turns off {}: remove them",
                disabled.join(", ")
            ));
        }
    }
    let trust_off = user
        .as_ref()
        .and_then(|u| u.get("security")?.get("folderTrust")?.get("enabled")?.as_bool())
        == Some(false);
    if trust_off || home.gemini_trusts_workspace {
        return;
    }
    let rules = home
        .dir
        .as_ref()
        .and_then(|d| read_json(&d.join(".gemini/trustedFolders.json")).ok().flatten());
    if !gemini_trusts(root, rules.as_ref()) {
        up.blockers.push(
            "Gemini CLI does not trust this folder, so it loads no project hook (and `gemini -p` stops): trust it when gemini asks, or set GEMINI_CLI_TRUST_WORKSPACE=true where it runs headless; `--skip-trust` runs without the hooks"
                .to_string(),
        );
    }
}

/// Does the longest rule of `trustedFolders.json` that matches `root` trust it?
fn gemini_trusts(root: &Path, rules: Option<&Value>) -> bool {
    let Some(Value::Object(rules)) = rules else {
        return false;
    };
    let mut best: Option<(usize, bool)> = None;
    for (path, rule) in rules {
        let path = Path::new(path);
        let (scope, trusts) = match rule.as_str() {
            Some("TRUST_FOLDER") => (path, true),
            Some("TRUST_PARENT") => (path.parent().unwrap_or(path), true),
            Some("DO_NOT_TRUST") => (path, false),
            _ => continue,
        };
        if root.starts_with(scope) {
            let len = scope.as_os_str().len();
            if best.is_none_or(|(l, _)| len >= l) {
                best = Some((len, trusts));
            }
        }
    }
    best.is_some_and(|(_, trusts)| trusts)
}

/// loki-gate's handlers in an agent's settings: (event, group index,
/// handler index), as the agent numbers them.
fn wired(settings: &Value, agent: Agent) -> Vec<(String, usize, usize)> {
    let mut out = Vec::new();
    let Some(Value::Object(events)) = settings.get("hooks") else {
        return out;
    };
    let ours = |h: &Value| {
        h.get("command")
            .and_then(Value::as_str)
            .is_some_and(|c| c.contains(install::MARK))
    };
    for (event, list) in events {
        for (g, item) in list.as_array().into_iter().flatten().enumerate() {
            if agent == Agent::Cursor {
                if ours(item) {
                    out.push((event.clone(), g, 0));
                }
                continue;
            }
            for (h, handler) in item
                .get("hooks")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .enumerate()
            {
                if ours(handler) {
                    out.push((event.clone(), g, h));
                }
            }
        }
    }
    out
}

/// `SessionStart` as Codex names events in its trust keys: `session_start`.
fn snake(event: &str) -> String {
    let mut out = String::new();
    for (i, c) in event.chars().enumerate() {
        if c.is_ascii_uppercase() {
            if i > 0 {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

fn read_capped(path: &Path) -> Result<Option<String>, String> {
    use std::io::Read as _;
    let file = match std::fs::File::open(path) {
        Ok(file) => file,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(format!("could not read {}: {e}", path.display())),
    };
    let mut text = String::new();
    file.take(MAX_BYTES + 1)
        .read_to_string(&mut text)
        .map_err(|e| format!("could not read {}: {e}", path.display()))?;
    if text.len() as u64 > MAX_BYTES {
        return Err(format!("{} is over {} MiB: not read", path.display(), MAX_BYTES >> 20));
    }
    Ok(Some(text))
}

/// A JSON file (comments allowed, as the agents allow them), `None` when
/// there is none.
fn read_json(path: &Path) -> Result<Option<Value>, String> {
    let Some(text) = read_capped(path)? else {
        return Ok(None);
    };
    serde_json::from_str(&crate::formats::jsonc(&text))
        .map(Some)
        .map_err(|e| format!("{} is not JSON the agent can read ({e}): fix it", path.display()))
}

/// The doctor's report, one agent after another.
pub fn render(root: &Path, checkups: &[Checkup]) -> String {
    let mut out = String::new();
    for up in checkups {
        let name = super::protocol::display(up.agent);
        if up.fires() {
            out.push_str(&format!("{name}: the hooks will run in {}\n", root.display()));
        } else {
            out.push_str(&format!("{name}: the hooks will NOT run\n"));
            for b in &up.blockers {
                out.push_str(&format!("  - {b}\n"));
            }
        }
        for n in &up.notes {
            out.push_str(&format!("  note: {n}\n"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gemini_trust_takes_the_longest_rule() {
        let rules = serde_json::json!({
            "/w": "TRUST_FOLDER",
            "/w/secret": "DO_NOT_TRUST",
            "/x/repo/inner": "TRUST_PARENT",
        });
        assert!(gemini_trusts(Path::new("/w/repo"), Some(&rules)));
        assert!(!gemini_trusts(Path::new("/w/secret/repo"), Some(&rules)));
        assert!(gemini_trusts(Path::new("/x/repo"), Some(&rules)));
        assert!(!gemini_trusts(Path::new("/y"), Some(&rules)));
        assert!(!gemini_trusts(Path::new("/w"), None));
    }

    #[test]
    fn codex_names_events_in_snake_case() {
        assert_eq!(snake("SessionStart"), "session_start");
        assert_eq!(snake("UserPromptSubmit"), "user_prompt_submit");
        assert_eq!(snake("Stop"), "stop");
    }
}
