//! A change may not lower the bar it is judged by (`docs/trust.md`).
//!
//! What decides a verdict comes from the trusted revision (the base of a
//! range; HEAD for `--staged` and `--all-files`) and from people the base's
//! config names. Every waiver in play (an inline suppression, a
//! `Loki-Gate-Allow` trailer, a config key that lowers a gate, a baseline
//! entry) is classified by origin: there at the trusted revision, or added
//! by the change, and then by whom. One [`Judge`] decides them all:
//!
//! - at the base: honoured;
//! - added, and every hand that added it is trusted (a commit signed with a
//!   key the base's `trusted-signers` lists, whose author and committer the
//!   base's `trusted-authors` names, without a coding agent's signature;
//!   unsigned, only outside CI when the base sets
//!   `trust-unsigned-authors: local`): acknowledged, it applies;
//! - added and not acknowledged, in CI or the pre-push hook: held, it does
//!   not apply, and a `meta/waiver-added` finding (deny) says so;
//! - added and not acknowledged anywhere else (the pre-commit hook cannot
//!   know who commits: an agent in the user's terminal commits as the user):
//!   it applies, and the finding is a warning.

pub mod config;
pub mod inline;
mod signers;
pub mod tools;
pub mod waiver;

use std::path::{Path, PathBuf};
use std::sync::Mutex;

use anyhow::Result;

use self::waiver::{Kind, Status, Verdict, Waiver};
use crate::config::Config;
use crate::finding::Finding;
use crate::git::{Commit, Repo};

/// Signs of a commit made by a coding agent, matched (case-insensitively)
/// as substrings of the author, the committer and each `Co-authored-by`
/// trailer. Such
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
    "noreply@opencode.ai",
    "noreply@openai.com",
    "(codex)",
    "[bot]",
];

/// Trailers that say a coding assistant took part, whatever they name
/// (the Linux kernel's, Fedora's and LLVM's `Assisted-by`, Apache's
/// `Generated-by`): a commit carrying one is an agent's hand.
pub const AGENT_TRAILERS: &[&str] = &["assisted-by", "generated-by"];

/// Where the trusted config is read, and how the change is judged.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TrustAt<'a> {
    /// `--staged`: HEAD is the bar; what the staged change adds is warned about.
    Staged,
    /// `--all-files`: HEAD is the bar for the working tree.
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

/// Decides every waiver of a run. Built once per run ([`Judge::open`]);
/// gates running on worker threads share it.
pub struct Judge {
    staged: bool,
    enforce: bool,
    /// The trusted revision (full hex); `None`: the empty tree, or a base
    /// this clone lacks (then the built-in defaults are the bar).
    rev: Option<String>,
    /// The base that was wanted is not in this (shallow) clone.
    unreachable: bool,
    /// A CI run of a pull request from a fork.
    fork: bool,
    /// The base config's `trusted-authors` and `agent-signatures`.
    authors: Vec<String>,
    agents: Vec<String>,
    /// The base's `trusted-signers`: a trusted author's commit counts only
    /// when signed with one of their keys.
    signers: signers::Signers,
    /// The base's `trust-unsigned-authors: local`, in a run outside CI:
    /// an unsigned commit by a trusted author counts too.
    unsigned_counts: bool,
    /// The repository, opened again for the threads that ask (blame).
    root: PathBuf,
    location: crate::git::Location,
    repo: Mutex<Option<Repo>>,
    /// Files renamed between the trusted revision and HEAD: new name -> old.
    renames: Mutex<Option<std::collections::HashMap<PathBuf, PathBuf>>>,
    /// Each file's suppressions, judged once per run.
    inline: Mutex<std::collections::HashMap<String, Vec<Waiver>>>,
    /// The pull request this CI run judges, and how it may acknowledge.
    pr: Option<PullRequest>,
    /// What the pull request said, asked once when first needed.
    pr_said: std::sync::OnceLock<Result<Option<String>, String>>,
    /// The rules and sections configuration and suppressions are read against.
    catalog: crate::config::Catalog,
}

/// A pull request's channels of acknowledgment (the base config's word).
struct PullRequest {
    github: crate::github::GitHub,
    label: Option<String>,
    reviews: bool,
    /// HEAD, and its second parent when HEAD is a pull request's merge commit.
    heads: Vec<String>,
}

/// The trusted revision's config, as [`Judge::open`] read it.
pub struct BaseConfig {
    pub config: Config,
    /// The file it was read from, repo-relative.
    pub file: Option<PathBuf>,
}

/// A commit that added a waiver: its author, committer and co-authors.
#[derive(Debug, Clone)]
pub struct Hand {
    id: String,
    author: String,
    committer: String,
    coauthors: Vec<String>,
    /// The message carries an [`AGENT_TRAILERS`] trailer.
    assisted: bool,
}

impl Hand {
    pub fn of(commit: &Commit) -> Hand {
        let trailers = crate::git::trailers(&commit.message);
        Hand {
            id: commit.id.clone(),
            author: commit.author.clone(),
            committer: commit.committer.clone(),
            assisted: trailers
                .iter()
                .any(|(k, _)| AGENT_TRAILERS.iter().any(|t| k.eq_ignore_ascii_case(t))),
            coauthors: trailers
                .into_iter()
                .filter(|(k, _)| k.eq_ignore_ascii_case("co-authored-by"))
                .map(|(_, v)| v)
                .collect(),
        }
    }

    /// `Name <email> with Co Author <...> (3f2a9c1)`, and `, committed by
    /// ...` when a coding agent (built-in, or one of `extra`) committed it.
    pub fn shown(&self, extra: &[String]) -> String {
        let with = if self.coauthors.is_empty() {
            String::new()
        } else {
            format!(" with {}", self.coauthors.join(", "))
        };
        let committed = if self.committer != self.author && signed_by_agent(&self.committer, extra) {
            format!(", committed by {}", self.committer)
        } else {
            String::new()
        };
        format!("{}{with}{committed} ({})", self.author, crate::git::short(&self.id))
    }

    fn agent(&self, extra: &[String]) -> bool {
        self.assisted
            || [&self.author, &self.committer]
                .into_iter()
                .chain(&self.coauthors)
                .any(|who| signed_by_agent(who, extra))
    }
}

/// Does `who` (an author, a co-author trailer, a GitHub login) carry a
/// coding agent's signature: a built-in one, or one of the `extra` patterns?
fn signed_by_agent(who: &str, extra: &[String]) -> bool {
    let who = who.to_ascii_lowercase();
    AGENT_SIGNATURES.iter().any(|sign| who.contains(sign)) || extra.iter().any(|pattern| glob_matches(pattern, &who))
}

fn glob_matches(pattern: &str, text: &str) -> bool {
    globset::GlobBuilder::new(pattern)
        .case_insensitive(true)
        .build()
        .is_ok_and(|glob| glob.compile_matcher().is_match(text))
}

impl Judge {
    /// Read the trusted revision's config (the file `config_file` names in
    /// the repository, else the first of the usual names there) and the
    /// rules of trust it sets. `enforce`: held waivers do not apply (CI,
    /// pre-push). Notes say when no trusted revision could be read.
    pub fn open(
        repo: &Repo,
        config_file: Option<&Path>,
        at: TrustAt<'_>,
        enforce: bool,
        env: &dyn Fn(&str) -> Option<String>,
        catalog: crate::config::Catalog,
        notes: &mut Vec<String>,
    ) -> Result<(Judge, BaseConfig)> {
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
        let candidates: Vec<PathBuf> = config_file
            .map(Path::to_path_buf)
            .into_iter()
            .chain(crate::config::FILE_NAMES.iter().map(PathBuf::from))
            .collect();
        // The base's configuration is found as the change's is: the first
        // of the names that holds one (`load`), so moving it to another file
        // is no way around it.
        let mut found = None;
        if let Some(rev) = &rev {
            for candidate in &candidates {
                let Some(bytes) = repo.blob_at(rev, candidate)? else {
                    continue;
                };
                let text = String::from_utf8_lossy(&bytes).into_owned();
                let shown = crate::git::display_path(candidate);
                let format = crate::config::Format::of(candidate);
                match crate::config::discovered(format, &text, &shown, env, catalog) {
                    Ok(Some(config)) => {
                        found = Some((candidate.clone(), Ok(config)));
                        break;
                    }
                    Ok(None) => {}
                    Err(e) => {
                        found = Some((candidate.clone(), Err(e)));
                        break;
                    }
                }
            }
        }
        let file = found.as_ref().map(|(file, _)| file.clone());
        let config = match found {
            Some((_, Ok(config))) => config,
            Some((file, Err(_))) => {
                notes.push(format!(
                    "{} at the base revision is not a valid config: the change is checked against the built-in defaults",
                    crate::git::display_path(&file)
                ));
                crate::config::from_text("", "", env, catalog)?
            }
            None => crate::config::from_text("", "", env, catalog)?,
        };
        // In a pull request's CI job, the pull request may acknowledge.
        let pr = match crate::github::GitHub::from_env(env) {
            Ok(github) if enforce && in_ci(env) && github.pull_request.is_some() => {
                let mut heads: Vec<String> = repo.head()?.into_iter().collect();
                if let Some(head) = heads.first().cloned() {
                    heads.extend(repo.parents(&head).into_iter().skip(1));
                }
                Some(PullRequest {
                    github,
                    label: config.acknowledge_label(),
                    reviews: config.acknowledge_reviews(),
                    heads,
                })
            }
            _ => None,
        };
        // Read from the event itself: a fork's job may have no token at all.
        let fork = in_ci(env) && crate::github::read_event(env).is_ok_and(|(_, fork, _)| fork);
        let signers = signers::Signers::open(repo, rev.as_deref(), config.trusted_signers());
        let judge = Judge {
            signers,
            unsigned_counts: config.trust_unsigned_authors_locally() && !in_ci(env),
            fork,
            staged: at == TrustAt::Staged,
            enforce,
            rev,
            unreachable,
            authors: config.trusted_authors(),
            agents: config.agent_signatures(),
            root: repo.root().to_path_buf(),
            location: repo.location(),
            repo: Mutex::new(None),
            renames: Mutex::new(None),
            inline: Mutex::new(std::collections::HashMap::new()),
            pr,
            pr_said: std::sync::OnceLock::new(),
            catalog,
        };
        Ok((judge, BaseConfig { config, file }))
    }

    /// Does the run hold what the change cannot vouch for (CI, the
    /// pre-push hook), rather than warn about it (pre-commit, by hand)?
    pub fn enforced(&self) -> bool {
        self.enforce && !self.staged
    }

    /// The trusted revision (full hex), when there is one.
    pub fn rev(&self) -> Option<&str> {
        self.rev.as_deref()
    }

    /// The run judges a pull request from a fork: its own config's
    /// commands never run.
    pub fn from_fork(&self) -> bool {
        self.fork
    }

    /// Is `commit` part of the trusted history (at or before the trusted
    /// revision), so that what it says is not the change's?
    fn before_rev(&self, repo: &Repo, commit: &str) -> bool {
        self.rev.as_deref().is_some_and(|rev| repo.is_ancestor(commit, rev))
    }

    /// The name `path` had at the trusted revision, when the range renamed it.
    fn old_name(&self, repo: &Repo, path: &Path) -> Result<Option<PathBuf>> {
        let mut renames = self.renames.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if renames.is_none() {
            let mut found = std::collections::HashMap::new();
            if let (Some(rev), Some(head)) = (&self.rev, repo.head()?) {
                for change in repo.commit_changes(Some(rev), &head)? {
                    if change.status == crate::git::Status::Renamed
                        && let Some(old) = change.old_path
                    {
                        found.insert(change.path, old);
                    }
                }
            }
            *renames = Some(found);
        }
        Ok(renames.as_ref().and_then(|r| r.get(path).cloned()))
    }

    /// Run `f` with the repository, opened once for the threads that ask.
    fn with_repo<T>(&self, f: impl FnOnce(&Repo) -> Result<T>) -> Result<T> {
        let mut slot = self.repo.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if slot.is_none() {
            *slot = Some(Repo::open_at(&self.root, &self.location)?);
        }
        f(slot.as_ref().expect("opened above"))
    }

    /// The verdict on a waiver the change added by `hands` (the commits that
    /// wrote it; `None` when that is not known: not committed, or staged).
    pub fn verdict(&self, hands: Option<&[Hand]>) -> Verdict {
        let authors: Vec<String> = hands
            .unwrap_or_default()
            .iter()
            .map(|h| h.shown(&self.agents))
            .collect();
        // A fork's commits can claim any author: authorship trusts no one
        // there, only the pull request's own channels do.
        let by_authorship = match hands {
            Some(hands) if !self.staged && !self.fork && !hands.is_empty() => self.authorship(hands),
            _ => Err(None),
        };
        let enforced = self.enforce && !self.staged;
        let by_pr = if by_authorship.is_ok() || !enforced {
            None
        } else {
            self.pull_request_said()
        };
        let (status, acknowledged_by, unacknowledged) = match by_authorship {
            Ok(by) => (Status::Acknowledged, Some(by), None),
            Err(_) if by_pr.is_some() => (Status::Acknowledged, by_pr, None),
            Err(why) if enforced => (Status::Held, None, why),
            Err(why) => (Status::Warned, None, why),
        };
        Verdict {
            status,
            authors,
            acknowledged_by,
            unacknowledged,
        }
    }

    /// Does the authorship of `hands` acknowledge: is every one a commit
    /// whose author and committer the base's `trusted-authors` names,
    /// without a coding agent's signature, signed with a key the base's
    /// `trusted-signers` lists (or, where the base allows it outside CI,
    /// unsigned)? `Ok`: by whom; `Err`: why not, when only the signature
    /// stood in the way.
    fn authorship(&self, hands: &[Hand]) -> Result<String, Option<String>> {
        let named = |who: &str| {
            let who = who.to_ascii_lowercase();
            self.authors.iter().any(|pattern| glob_matches(pattern, &who))
        };
        if !hands
            .iter()
            .all(|hand| !hand.agent(&self.agents) && named(&hand.author) && named(&hand.committer))
        {
            return Err(None);
        }
        let mut signed_by = std::collections::BTreeSet::new();
        let mut unsigned = false;
        for hand in hands {
            let short = crate::git::short(&hand.id);
            let checked = if self.signers.configured() {
                self.signers.check(&hand.id)
            } else {
                Err(String::new())
            };
            match checked {
                Ok(signature) if signature.trusted() => {
                    let signer = if signature.signer.is_empty() {
                        signature.key
                    } else {
                        signature.signer
                    };
                    signed_by.insert(signer);
                }
                _ if self.unsigned_counts => unsigned = true,
                Ok(signature) => return Err(Some(self.unsigned_why(short, signature.status, &signature.key))),
                Err(why) if why.is_empty() => {
                    return Err(Some(
                        "the base's config names no `trusted-signers`: authorship counts only in a commit signed with a key they list".to_string(),
                    ));
                }
                Err(why) => return Err(Some(format!("the signature of {short} could not be checked: {why}"))),
            }
        }
        let names: std::collections::BTreeSet<&str> = hands.iter().map(|h| h.author.as_str()).collect();
        let names = names.into_iter().collect::<Vec<_>>().join(", ");
        Ok(if unsigned {
            format!("its trusted author {names}, unsigned (`trust-unsigned-authors: local`: not in CI)")
        } else {
            let keys = signed_by.into_iter().collect::<Vec<_>>().join(", ");
            format!("its trusted author {names}, signed with the trusted key of {keys}")
        })
    }

    /// Why commit `short`'s signature (git's `%G?` `status`, by `key`) does
    /// not make its authorship count.
    fn unsigned_why(&self, short: &str, status: char, key: &str) -> String {
        let listed = format!("the base's `trusted-signers` ({})", self.signers.shown());
        let what = match status {
            'N' => "is not signed".to_string(),
            'U' => format!("is signed with a key {listed} does not list ({key})"),
            'B' => "has a bad signature".to_string(),
            'X' => "has an expired signature".to_string(),
            'Y' => format!("is signed with an expired key ({key})"),
            'R' => format!("is signed with a revoked key ({key})"),
            _ => format!("has a signature no key in {listed} verifies"),
        };
        let unreadable = self
            .signers
            .unreadable()
            .map(|why| format!(" ({why})"))
            .unwrap_or_default();
        format!(
            "{short} {what}: its author counts only in a commit signed with a key {listed} lists; anyone can write an author's name{unreadable}"
        )
    }

    /// Who on the pull request acknowledged its waivers, asked once.
    fn pull_request_said(&self) -> Option<String> {
        let pr = self.pr.as_ref()?;
        let said = self.pr_said.get_or_init(|| {
            let is_agent = |login: &str| signed_by_agent(login, &self.agents);
            crate::github::acknowledgment(
                &pr.github,
                &crate::github::AckRules {
                    label: pr.label.as_deref(),
                    reviews: pr.reviews,
                    heads: &pr.heads,
                    is_agent: &is_agent,
                },
            )
        });
        said.as_ref().ok().cloned().flatten()
    }

    /// Who can acknowledge a waiver, as findings say it.
    pub fn who_can(&self) -> String {
        let mut ways = Vec::new();
        let identities = format!(
            "whose author and committer the base's `trusted-authors` names ({}), without a coding agent's signature",
            self.authors.join(", ")
        );
        if !self.authors.is_empty() && self.signers.configured() {
            let unsigned = if self.unsigned_counts {
                " (on this machine, unsigned too: `trust-unsigned-authors: local`)"
            } else {
                ""
            };
            ways.push(format!(
                "a commit signed with a key the base's `trusted-signers` lists ({}), {identities}{unsigned}",
                self.signers.shown()
            ));
        } else if !self.authors.is_empty() && self.unsigned_counts {
            ways.push(format!(
                "on this machine only (`trust-unsigned-authors: local`), a commit {identities}"
            ));
        }
        if let Some(pr) = &self.pr {
            if let Some(label) = &pr.label {
                ways.push(format!(
                    "the `{label}` label on the pull request, applied by someone who may write to the repository (it acknowledges the head it was applied to)"
                ));
            }
            if pr.reviews {
                ways.push(
                    "an approving review of the head commit by someone who may write to the repository".to_string(),
                );
            }
        }
        if !ways.is_empty() {
            ways.join("; or ")
        } else if self.authors.is_empty() {
            "no one yet: the base's config names no `trusted-authors`; a trusted person adds them, or makes the change"
                .to_string()
        } else {
            "no one yet: the base's config names no `trusted-signers`, and an unsigned author's name proves nothing; a trusted person adds the keys, or makes the change".to_string()
        }
    }

    /// The `meta/waiver-added` findings of `waivers`.
    pub fn findings(&self, waivers: &[Waiver]) -> Vec<Finding> {
        let who_can = self.who_can();
        let mut findings: Vec<Finding> = waivers.iter().filter_map(|w| w.finding(&who_can)).collect();
        if let Some(Err(why)) = self.pr_said.get() {
            for f in &mut findings {
                f.notes.push(format!(
                    "could not learn whether the pull request acknowledged it, so it did not: {why}"
                ));
            }
        }
        if self.unreachable {
            for f in &mut findings {
                f.notes.push(format!(
                    "the base revision is not in this clone, so nothing counts as the base's: {}",
                    crate::git::SHALLOW_FIX
                ));
            }
        }
        findings
    }

    /// The verdict on a `Loki-Gate-Allow` trailer of `commit` naming
    /// `rule`: honoured when the commit is part of the trusted history.
    pub fn trailer(&self, repo: &Repo, commit: &Commit, rule: &str, reason: &str) -> Waiver {
        let waiver = Waiver {
            commit: Some(commit.id.clone()),
            ..Waiver::new(Kind::Trailer, vec![rule.to_string()], reason.to_string())
        };
        if self.before_rev(repo, &commit.id) {
            waiver
        } else {
            waiver.added(self.verdict(Some(&[Hand::of(commit)])))
        }
    }
}

/// The commits after `base` up to HEAD that changed one of `files`.
/// `None` when one of them differs on disk from HEAD: an uncommitted change
/// has no known hand (never acknowledged).
pub(crate) fn hands(repo: &Repo, base: Option<&str>, files: &[&Path]) -> Result<Option<Vec<Hand>>> {
    let head = repo.head()?;
    for file in files {
        let committed = match &head {
            Some(head) => repo.blob_at(head, file)?,
            None => None,
        };
        let on_disk = std::fs::read(repo.root().join(file)).ok();
        if committed != on_disk {
            return Ok(None);
        }
    }
    let mut found = Vec::new();
    for commit in &repo.range_commits(base)? {
        let changes = repo.commit_changes(commit.parent.as_deref(), &commit.id)?;
        if changes
            .iter()
            .any(|c| files.iter().any(|f| c.path == *f || c.old_path.as_deref() == Some(*f)))
        {
            found.push(Hand::of(commit));
        }
    }
    Ok(Some(found))
}

/// Hold a `--baseline` file kept in the repository to the trusted
/// revision's: entries the change added (fingerprints beyond the base's
/// counts) are a waiver; held, the base's version of the file is used (none
/// at the base: an empty one). A file outside the repository is the
/// caller's, and applies as it is.
pub fn hold_baseline(
    judge: &Judge,
    repo: &Repo,
    path: &Path,
    loaded: crate::baseline::Baseline,
) -> Result<(crate::baseline::Baseline, Option<Waiver>)> {
    let Some(rel) = crate::git::relative_to(repo.root(), path) else {
        return Ok((loaded, None));
    };
    let shown = crate::git::display_path(&rel);
    let at_base = match judge.rev() {
        Some(rev) => match repo.blob_at(rev, &rel)? {
            // A base version that is not a baseline counts as none.
            Some(bytes) => crate::baseline::Baseline::parse(&bytes, &shown).unwrap_or_default(),
            None => crate::baseline::Baseline::default(),
        },
        None => crate::baseline::Baseline::default(),
    };
    let added = loaded.beyond(&at_base);
    if added == 0 {
        return Ok((loaded, None));
    }
    let hands = hands(repo, judge.rev(), &[rel.as_path()])?;
    let reason = format!("{added} {}", if added == 1 { "entry" } else { "entries" });
    let waiver = Waiver {
        path: Some(shown),
        ..Waiver::new(Kind::Baseline, Vec::new(), reason)
    }
    .added(judge.verdict(hands.as_deref()));
    let baseline = if waiver.status.applies() { loaded } else { at_base };
    Ok((baseline, Some(waiver)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hand(author: &str, message: &str) -> Hand {
        Hand::of(&Commit {
            id: "0123456789abcdef".into(),
            parent: None,
            summary: String::new(),
            message: message.into(),
            author: author.into(),
            committer: author.into(),
            merged: Vec::new(),
        })
    }

    #[test]
    fn agent_signs_in_authors_co_authors_and_assistance_trailers() {
        let plain = "Fix the total\n\nSigned-off-by: Dev <dev@acme.io>\n";
        assert!(!hand("Dev <dev@acme.io>", plain).agent(&[]));
        for (author, message) in [
            ("Dev (aider) <dev@acme.io>", plain),
            ("Dev (codex) <dev@acme.io>", plain),
            (
                "Dev <dev@acme.io>",
                "Fix\n\nCo-Authored-By: Claude Opus <noreply@anthropic.com>\n",
            ),
            (
                "Dev <dev@acme.io>",
                "Fix\n\nCo-authored-by: opencode <noreply@opencode.ai>\n",
            ),
            ("Dev <dev@acme.io>", "Fix\n\nAssisted-by: gemini:2.5-pro\n"),
            ("Dev <dev@acme.io>", "Fix\n\nGenerated-by: some tool\n"),
            ("devin-ai-integration[bot] <x@users.noreply.github.com>", plain),
        ] {
            assert!(hand(author, message).agent(&[]), "{author} / {message}");
        }
        // Configured patterns match too; a trailer in the body is not a trailer.
        assert!(hand("Bot Person <bot@acme.io>", plain).agent(&["*<bot@*>".into()]));
        assert!(!hand("Dev <dev@acme.io>", "Fix\n\nAssisted-by: x\n\nMore text.\n").agent(&[]));
    }
}
