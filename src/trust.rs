//! A change may not lower the bar it is judged by (`docs/trust.md`).
//!
//! The config that decides a verdict is the base revision's. Where the
//! change's own config lowers the bar (turns a gate off, sets a rule to
//! `allow`, widens `exclude`, swaps the test command), the gates judge with
//! the base's value and the change gets a `meta/waiver-added` finding per
//! key, until someone trusted acknowledges it. What raises the bar applies at
//! once. Trusted, in this slice: every commit of the range that changed the
//! config file is by an author the base's `trusted-authors` names, and none
//! carries the signature of a coding agent.
//!
//! A pre-commit hook cannot know who is committing (an agent in the user's
//! terminal commits as the user), so there, and in any run outside CI and
//! the pre-push hook, the change's values apply and each lowering is a
//! warning; pre-push and CI enforce.

use std::path::{Path, PathBuf};

use anyhow::Result;

use crate::config::{self, Config, Lowering};
use crate::finding::{Finding, Severity};
use crate::git::Repo;

/// Signs of a commit made by a coding agent, matched (case-insensitively)
/// as substrings of the author and of each `Co-authored-by` trailer. Such
/// commits never count as a trusted hand. Sources: Claude Code's co-author
/// trailer; GitHub Copilot's (VS Code and the coding agent); aider's author
/// suffix and co-author address; Cursor's agent trailer; any GitHub App
/// account (`[bot]`: Copilot, Codex, Devin, Jules and the like commit as
/// one).
pub const AGENT_SIGNATURES: &[&str] = &[
    "noreply@anthropic.com",
    "copilot@users.noreply.github.com",
    "(aider)",
    "noreply@aider.chat",
    "cursoragent@cursor.com",
    "[bot]",
];

/// What the change's config lowers, and what became of it.
#[derive(Debug, Clone)]
pub struct Held {
    pub lowering: Lowering,
    /// The config file it is in, repo-relative.
    pub file: String,
    /// Who changed the file in the range (`Name <email> (commit)`); empty
    /// when the change is not committed.
    pub by: Vec<String>,
    pub outcome: Outcome,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// Judged with the base's value; a deny finding.
    Held,
    /// Not enforced here (a pre-commit or local run): the change's value
    /// applies; a warning.
    Warned,
    /// Every hand that changed it is trusted: the change's value applies; a notice.
    Acknowledged,
}

/// Where the trusted config is read, and how the change is judged.
pub enum TrustAt<'a> {
    /// `--staged`: HEAD's config is the bar; lowerings are warnings.
    Staged,
    /// `--all-files`: HEAD's config is the bar for the working tree's.
    Head,
    /// A range: the base revision (as `--base` names it, else the default base).
    Base(Option<&'a str>),
}

/// Is this a CI run (`CI` set, as GitHub Actions, GitLab CI, CircleCI,
/// Travis, Buildkite and others set it, or `GITHUB_ACTIONS=true`)?
pub fn in_ci(env: &dyn Fn(&str) -> Option<String>) -> bool {
    let set = |name: &str| {
        env(name).is_some_and(|v| {
            let v = v.trim().to_ascii_lowercase();
            !v.is_empty() && v != "0" && v != "false"
        })
    };
    set("CI") || set("GITHUB_ACTIONS")
}

/// Hold `config` (the change's) to the bar of the trusted revision: on
/// return, `config` is what the gates judge with. With `enforce` false (a
/// local or pre-commit run) the change's values apply and are warned about.
/// Notes say when no trusted revision could be read (the change's config
/// then applies).
pub fn hold(
    repo: &Repo,
    config: &mut Config,
    at: TrustAt<'_>,
    enforce: bool,
    env: &dyn Fn(&str) -> Option<String>,
    notes: &mut Vec<String>,
) -> Result<Vec<Held>> {
    let root = repo.root();
    // A config named outside the repository is the caller's, not the change's.
    let file: Option<PathBuf> = match &config.file {
        Some(path) => match crate::git::relative_to(root, path) {
            Some(rel) => Some(rel),
            None => return Ok(Vec::new()),
        },
        None => None,
    };
    let mut unreachable = false;
    let rev = match at {
        TrustAt::Staged | TrustAt::Head => repo.head()?,
        TrustAt::Base(explicit) => match repo.resolve_base(explicit) {
            Ok(base) if base.unreachable.is_none() => base.commit,
            // Never the change's word for it: with no base to read, the
            // built-in defaults are the bar.
            _ => {
                unreachable = true;
                None
            }
        },
    };
    // The base's config: the same file, else the first of the usual names.
    let candidates: Vec<PathBuf> = file
        .iter()
        .cloned()
        .chain(config::FILE_NAMES.iter().map(PathBuf::from))
        .collect();
    let mut base_text = None;
    let mut base_file = None;
    if let Some(rev) = &rev {
        for candidate in &candidates {
            if let Some(bytes) = repo.blob_at(rev, candidate)? {
                base_text = Some(String::from_utf8_lossy(&bytes).into_owned());
                base_file = Some(candidate.clone());
                break;
            }
        }
    }
    let shown_base = base_file.as_deref().map(crate::git::display_path).unwrap_or_default();
    let base = match config::from_text(base_text.as_deref().unwrap_or(""), &shown_base, env) {
        Ok(base) => base,
        Err(_) => {
            notes.push(format!(
                "{shown_base} at the base revision is not a valid config: the change's config is checked against the built-in defaults"
            ));
            config::from_text("", "", env)?
        }
    };
    let mut judged = config.clone();
    let lowered = judged.hold_to(&base);
    if lowered.is_empty() {
        return Ok(Vec::new());
    }
    if unreachable {
        notes.push(format!(
            "the base revision is not in this clone, so the change's config was held to the built-in defaults: {}",
            crate::git::SHALLOW_FIX
        ));
    }
    let shown = file
        .as_deref()
        .or(base_file.as_deref())
        .map(crate::git::display_path)
        .unwrap_or_else(|| config::FILE_NAMES[0].to_string());
    let (outcome, by) = match at {
        TrustAt::Staged => (Outcome::Warned, Vec::new()),
        _ => {
            let hands = hands(repo, rev.as_deref(), &[file.clone(), base_file.clone()], root)?;
            let (authors, agents) = (base.trusted_authors(), base.agent_signatures());
            let trusted = !hands.is_empty() && hands.iter().all(|hand| hand.trusted(&authors, &agents));
            let by = hands.iter().map(Hand::shown).collect();
            let outcome = if trusted {
                Outcome::Acknowledged
            } else if enforce {
                Outcome::Held
            } else {
                Outcome::Warned
            };
            (outcome, by)
        }
    };
    if outcome == Outcome::Held {
        *config = judged;
    }
    Ok(lowered
        .into_iter()
        .map(|lowering| Held {
            lowering,
            file: shown.clone(),
            by: by.clone(),
            outcome,
        })
        .collect())
}

/// A commit that changed the config file.
struct Hand {
    id: String,
    author: String,
    coauthors: Vec<String>,
}

impl Hand {
    fn shown(&self) -> String {
        let with = if self.coauthors.is_empty() {
            String::new()
        } else {
            format!(" with {}", self.coauthors.join(", "))
        };
        format!("{}{with} ({})", self.author, crate::git::short(&self.id))
    }

    fn agent(&self, extra: &[String]) -> bool {
        std::iter::once(&self.author).chain(&self.coauthors).any(|who| {
            let who = who.to_ascii_lowercase();
            AGENT_SIGNATURES.iter().any(|sign| who.contains(sign))
                || extra.iter().any(|pattern| glob_matches(pattern, &who))
        })
    }

    fn trusted(&self, authors: &[String], agents: &[String]) -> bool {
        !self.agent(agents)
            && authors
                .iter()
                .any(|pattern| glob_matches(pattern, &self.author.to_ascii_lowercase()))
    }
}

fn glob_matches(pattern: &str, text: &str) -> bool {
    globset::GlobBuilder::new(pattern)
        .case_insensitive(true)
        .build()
        .is_ok_and(|glob| glob.compile_matcher().is_match(text))
}

/// The commits after `base` up to HEAD that changed one of `files`. An
/// uncommitted change to the file has no known hand: it makes the list
/// empty (never acknowledged).
fn hands(repo: &Repo, base: Option<&str>, files: &[Option<PathBuf>], root: &Path) -> Result<Vec<Hand>> {
    let files: Vec<&PathBuf> = files.iter().flatten().collect();
    let head = repo.head()?;
    for file in &files {
        let committed = match &head {
            Some(head) => repo.blob_at(head, file)?,
            None => None,
        };
        let on_disk = std::fs::read(root.join(file)).ok();
        if committed != on_disk {
            return Ok(Vec::new());
        }
    }
    let history = repo.first_parent_history(base, None)?;
    let mut found = Vec::new();
    for commit in &history.commits {
        let changes = repo.commit_changes(commit.parent.as_deref(), &commit.id)?;
        if changes
            .iter()
            .any(|c| files.iter().any(|f| &c.path == *f || c.old_path.as_ref() == Some(*f)))
        {
            found.push(Hand {
                id: commit.id.clone(),
                author: commit.author.clone(),
                coauthors: crate::git::trailers(&commit.message)
                    .into_iter()
                    .filter(|(k, _)| k.eq_ignore_ascii_case("co-authored-by"))
                    .map(|(_, v)| v)
                    .collect(),
            });
        }
    }
    Ok(found)
}

/// The findings (and notices) of what `gate` was held to: its own keys and
/// rules, plus the top-level keys when `top` (one gate of a run carries those).
pub fn findings(held: &[Held], gate: &str, top: bool) -> (Vec<Finding>, Vec<String>) {
    let mut findings = Vec::new();
    let mut notices = Vec::new();
    for h in held {
        let mine = match &h.lowering.gate {
            Some(g) => g == gate,
            None => top,
        };
        if !mine {
            continue;
        }
        let Lowering {
            place,
            base,
            head,
            line,
            ..
        } = &h.lowering;
        let by = if h.by.is_empty() {
            String::new()
        } else {
            format!("; changed by {}", h.by.join(", "))
        };
        match h.outcome {
            Outcome::Acknowledged => notices.push(format!(
                "{}: `{place}: {head}` lowers the bar the base set (`{base}`): acknowledged, every hand that changed it is trusted{by}",
                h.file
            )),
            outcome => {
                let message = if outcome == Outcome::Warned {
                    format!(
                        "`{place}: {head}` lowers the bar the base set (`{base}`): it applies in this run, but pre-push and CI judge with `{base}` until someone trusted acknowledges it{by}"
                    )
                } else {
                    format!(
                        "`{place}: {head}` lowers the bar the base set (`{base}`): judged with `{base}` until someone trusted acknowledges it{by}"
                    )
                };
                let mut finding = Finding::new(&crate::meta::WAIVER_ADDED, message);
                let number = |n: u64| u32::try_from(n).unwrap_or(u32::MAX);
                finding = match line {
                    Some((line, column)) => finding.at(&h.file, number(*line), number(*column)),
                    None => finding.in_file(h.file.clone()),
                };
                if outcome == Outcome::Warned {
                    finding.ceiling = Some(Severity::Warning);
                }
                findings.push(finding);
            }
        }
    }
    (findings, notices)
}
