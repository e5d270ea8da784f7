//! The council gate: several blind reviewers (LLM providers behind one
//! trait) read the change and answer a strict JSON verdict; the verdicts are
//! aggregated under a fixed policy ([`policy`]), with a devil's advocate on a
//! unanimous approval. Every round is recorded in `council.json` for
//! `uncertainty`, and the same diff reuses its recorded round unless `--fresh`.

pub mod policy;
pub mod prompt;
pub mod provider;
pub mod rules;
pub mod settings;
pub mod verdict;

pub use super::records::{CouncilState, Review, Round};
use std::collections::HashMap;
use std::path::Path;
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use anyhow::{Result, bail};

use super::{Context, GateOutput};
use crate::changed::{ChangedFile, Scope};
use crate::finding::{Finding, Severity};
use crate::git::{Side, display_path};
use crate::rule::Level;
use policy::{Answer, Decision};
use prompt::Persona;
use provider::{Ask, Usage};
use settings::Settings;

/// How many rounds `council.json` keeps.
const KEEP_ROUNDS: usize = 50;

impl Review {
    fn who(&self) -> String {
        if self.reviewer == 0 {
            format!("the devil's advocate ({})", self.provider)
        } else {
            format!("reviewer {} ({}, {})", self.reviewer, self.provider, self.persona)
        }
    }
}

fn now() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs())
}

/// `loki-gate council`.
pub fn run(cx: &Context<'_>, settings: &Settings, env: &dyn Fn(&str) -> Option<String>) -> Result<GateOutput> {
    let root = cx.repo.root();
    if settings.providers.is_empty() {
        bail!(
            "the council has no providers: add gates.council.providers to .loki-gate.yaml (docs/gates/council.md shows each kind)"
        );
    }
    if cx.scope.is_whole() {
        bail!("the council reviews a change, not the whole repository: drop --all-files (use --base REV or --staged)");
    }
    let mut out = GateOutput::default();
    let changes = cx.changes()?;
    out.notices.extend(changes.notes().iter().cloned());
    let base = changes.base.clone().expect("a diff scope has a base");
    let side = match cx.scope {
        Scope::Staged => Side::Staged(&base),
        _ => Side::Worktree(&base),
    };
    let keep = |p: &Path| !cx.exclude.is_match(p);
    let diff = cx.repo.patch(side, &cx.skip_dirs, &keep)?;
    out.files = changes.files.len();
    if diff.trim().is_empty() {
        out.notices
            .push("nothing changed since the base: there is nothing for the council to review".into());
        return Ok(out);
    }
    let diff_hash = crate::finding::sha256_hex(diff.as_bytes());
    let setup = setup_hash(settings);

    // Read (and so check) the state before anything is asked or paid for.
    let state = cx.store.read::<CouncilState>()?;
    if !settings.fresh
        && let Some(state) = &state
        && let Some(round) = state
            .rounds
            .iter()
            .rev()
            .find(|r| r.diff_hash == diff_hash && r.setup == setup)
    {
        out.notices.push(format!(
            "this diff was reviewed before ({} s ago): its verdicts are reused; --fresh asks the reviewers again",
            now().saturating_sub(round.at)
        ));
        report(round, &changes.files, settings, &mut out);
        return Ok(out);
    }

    // Every provider is reachable before anything is asked (or paid for).
    let asks: Vec<Box<dyn Ask>> = settings
        .providers
        .iter()
        .map(|p| provider::connect(p, root, env))
        .collect::<Result<_>>()?;
    let present: Vec<&ChangedFile> = changes.present().filter(|f| !f.binary).collect();
    // Symlinks out of the repository, binary and huge files are not shown.
    let paths: Vec<std::path::PathBuf> = present.iter().map(|f| f.path.clone()).collect();
    let files: Vec<(String, String)> = crate::walk::read_all(root, &paths)
        .files
        .into_iter()
        .map(|f| (display_path(&f.path), f.text().into_owned()))
        .collect();
    let change = prompt::Change {
        readme: prompt::readme_summary(root),
        diff: &diff,
        files,
    };
    let (user, cuts) = prompt::user(&change, settings.max_diff_bytes, settings.max_file_bytes);
    if !cuts.diff_files.is_empty() {
        out.notices.push(format!(
            "the diff was cut at {} bytes (gates.council.max-diff-bytes): the reviewers did not see the changes to {}",
            settings.max_diff_bytes,
            cuts.diff_files.join(", ")
        ));
    }

    let n = settings.reviewers;
    let jobs: Vec<(usize, usize, Persona)> = (0..n)
        .map(|i| (i + 1, i % asks.len(), prompt::PERSONAS[i % prompt::PERSONAS.len()]))
        .collect();
    let reviews = ask_all(&jobs, &asks, settings, &user, n);
    let answers: Vec<&Answer> = reviews.iter().map(|r| &r.answer).collect();
    let decision = policy::decide(&answers, settings.block_inconclusive);
    let devils_advocate = (decision.unanimous && settings.devils_advocate).then(|| {
        let provider = n % asks.len();
        ask_all(&[(0, provider, prompt::DEVILS_ADVOCATE)], &asks, settings, &user, n)
            .pop()
            .expect("one job, one review")
    });
    let mut round = Round {
        diff_hash,
        setup,
        at: now(),
        head: cx.repo.head()?,
        reviews,
        devils_advocate,
        approvals: decision.approvals,
        counted: decision.counted,
        needed: decision.needed,
        blocked: false,
    };
    round.blocked = blocks(&round, &decision, settings);
    let recorded = round.clone();
    cx.store.update::<CouncilState>(move |state| {
        let mut state = state.unwrap_or_default();
        state.rounds.push(recorded);
        let extra = state.rounds.len().saturating_sub(KEEP_ROUNDS);
        state.rounds.drain(..extra);
        Ok(state)
    })?;
    report(&round, &changes.files, settings, &mut out);
    Ok(out)
}

/// Ask each job `(reviewer, provider, persona)` in parallel, at most
/// `settings.parallel` at once; answers in job order.
fn ask_all(
    jobs: &[(usize, usize, Persona)],
    asks: &[Box<dyn Ask>],
    settings: &Settings,
    user: &str,
    of: usize,
) -> Vec<Review> {
    crate::process::parallel_map(jobs, settings.parallel, |&(reviewer, provider, persona)| {
        let system = prompt::system(&persona, reviewer.max(1), of);
        let started = Instant::now();
        let (answer, usage) = match asks[provider].ask(&system, user) {
            Ok((text, usage)) => (
                verdict::parse(&text).map_or_else(Answer::Inconclusive, Answer::Verdict),
                usage,
            ),
            Err(why) => (Answer::Inconclusive(why), None),
        };
        Review {
            reviewer,
            provider: settings.providers[provider].name.clone(),
            persona: persona.name.to_string(),
            answer,
            usage,
            seconds: started.elapsed().as_secs_f64(),
        }
    })
}

/// Does the round block? (The findings say why; this is for the record.)
fn blocks(round: &Round, decision: &Decision, settings: &Settings) -> bool {
    let all = round.reviews.iter().chain(&round.devils_advocate);
    let severe = all
        .clone()
        .filter_map(|r| r.answer.verdict())
        .any(|v| v.issues.iter().any(|i| i.severity.blocks()));
    let unreadable = settings.block_inconclusive && all.clone().any(|r| r.answer.verdict().is_none());
    severe || unreadable || decision.short_of_quorum()
}

/// The findings and notices of a round.
fn report(round: &Round, files: &[ChangedFile], settings: &Settings, out: &mut GateOutput) {
    let changed: HashMap<String, &ChangedFile> = files.iter().map(|f| (display_path(&f.path), f)).collect();
    // Reviewer findings are pushed after `first`, inconclusive ones before them.
    let mut unreadable = Vec::new();
    let first = out.findings.len();
    let mut reported: Vec<&verdict::Issue> = Vec::new();
    for review in round.reviews.iter().chain(&round.devils_advocate) {
        match &review.answer {
            Answer::Inconclusive(why) => {
                let mut finding =
                    Finding::new(&rules::INCONCLUSIVE, format!("{} gave no verdict: {why}", review.who()));
                if !settings.block_inconclusive {
                    finding.proposed = Some(Level::Note);
                    finding
                        .notes
                        .push("gates.council.inconclusive: ignore: this reviewer does not count".into());
                }
                unreadable.push(finding);
            }
            Answer::Verdict(verdict) => {
                for issue in &verdict.issues {
                    // The same finding from several reviewers is one finding naming them all.
                    match reported.iter().position(|seen| *seen == issue) {
                        Some(i) => {
                            if let Some(from) = out.findings[first + i].notes.first_mut() {
                                from.push_str(&format!(", {}", review.who()));
                            }
                        }
                        None => {
                            reported.push(issue);
                            out.findings.push(located(
                                Finding::new(rules::of(issue.severity), issue.message.clone())
                                    .note(format!("from {}", review.who())),
                                issue,
                                &changed,
                            ));
                        }
                    }
                }
            }
        }
    }
    out.findings.extend(unreadable);
    // The same decision `run` made: a round is reused only under the same setup.
    let answers: Vec<&Answer> = round.reviews.iter().map(|r| &r.answer).collect();
    let decision = policy::decide(&answers, settings.block_inconclusive);
    if decision.short_of_quorum() {
        out.findings.push(
            Finding::new(
                &rules::QUORUM,
                format!(
                    "{} of {} reviewers approved; {} needed",
                    decision.approvals, decision.counted, decision.needed
                ),
            )
            .note(summary(round)),
        );
    }
    if decision.counted == 0 {
        out.inconclusive = Some("no reviewer gave a verdict, and unreadable answers are ignored".into());
    }
    out.notices.push(format!(
        "council: {} of {} reviewer(s) approved ({} needed); {}",
        decision.approvals,
        round.reviews.len(),
        decision.needed,
        summary(round)
    ));
    if let Some(da) = &round.devils_advocate {
        let said = match &da.answer {
            Answer::Verdict(v) if v.issues.iter().any(|i| i.severity.blocks()) => {
                "found a blocking problem the reviewers missed (reported as council findings from it)"
            }
            Answer::Verdict(v) if v.approve => "approved too",
            Answer::Verdict(_) => "rejected, with no critical or high finding",
            Answer::Inconclusive(_) => "gave no verdict",
        };
        out.notices.push(format!(
            "every reviewer approved, so {} read the change: it {said}",
            da.who()
        ));
    }
    let mut usage = Usage::default();
    let mut any = false;
    for u in round
        .reviews
        .iter()
        .chain(&round.devils_advocate)
        .filter_map(|r| r.usage.as_ref())
    {
        usage.add(u);
        any = true;
    }
    if any {
        let cost = usage.cost.map(|c| format!(", cost {c:.4}")).unwrap_or_default();
        out.notices.push(format!(
            "usage: {} prompt + {} completion tokens{cost} (as the providers reported it)",
            usage.prompt_tokens, usage.completion_tokens
        ));
    }
}

/// One line per reviewer: who said what.
fn summary(round: &Round) -> String {
    round
        .reviews
        .iter()
        .map(|r| {
            let said = match &r.answer {
                Answer::Verdict(v) if v.approve => "approve".to_string(),
                Answer::Verdict(v) => format!("reject ({} finding(s))", v.issues.len()),
                Answer::Inconclusive(_) => "no verdict".to_string(),
            };
            format!("{}: {said}", r.who())
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// Put a reviewer's finding where it points, when that is a line the change
/// touched. A citation elsewhere (another line, another file, a path that is
/// not in the change) becomes a note that says where it pointed: reviewers
/// judge the change, and a cited path is never opened unless it is one of
/// the changed files.
fn located(mut finding: Finding, issue: &verdict::Issue, changed: &HashMap<String, &ChangedFile>) -> Finding {
    let Some(path) = &issue.path else {
        return finding;
    };
    let cited = match issue.line {
        Some(line) => format!("{path}:{line}"),
        None => path.clone(),
    };
    match (changed.get(path.as_str()), issue.line) {
        (Some(file), Some(line)) if file.lines.contains(line) => finding.at(path.clone(), line, 1),
        (Some(_), None) => finding.in_file(path.clone()),
        _ => {
            finding.ceiling = Some(Severity::Note);
            finding.notes.push(format!(
                "cited {cited}, outside the lines this change touched: reported as a note"
            ));
            finding
        }
    }
}

/// What makes two rounds comparable: the providers, the number of
/// reviewers, the devil's advocate, what an unreadable answer does (it
/// decides whether the devil's advocate is asked) and the prompts.
fn setup_hash(settings: &Settings) -> String {
    let mut text = format!(
        "{}|{}|{}|",
        settings.reviewers, settings.devils_advocate, settings.block_inconclusive
    );
    for p in &settings.providers {
        text.push_str(&format!("{}={:?};", p.name, p.reach));
    }
    for persona in prompt::PERSONAS.iter().chain([&prompt::DEVILS_ADVOCATE]) {
        text.push_str(&prompt::system(persona, 1, 1));
    }
    crate::finding::sha256_hex(text.as_bytes())
}
