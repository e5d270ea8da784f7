//! The gates, and the one pipeline every gate's output goes through:
//! snippets and fingerprints, suppressions, levels, baseline, outcome.

pub mod at_base;
pub mod council;
pub mod docs;
pub mod evidence;
pub mod heldout;
pub mod mock;
pub mod mutation;
pub mod project;
pub mod records;
pub mod static_analysis;
pub mod uncertainty;

use std::collections::{BTreeSet, HashMap};
use std::path::PathBuf;
use std::time::Duration;

use globset::GlobSet;

use crate::baseline::Baseline;
use crate::config::Config;
use crate::config::schema::SectionSpec;
use crate::finding::Finding;
use crate::git::Repo;
use crate::meta::SKIPPED_FILE;
use crate::rule::{Levels, RuleMeta};
use crate::state::Store;
use crate::suppress;
use crate::trust::{Judge, waiver::Waiver};
use crate::verdict::{GateReport, Outcome};
use crate::walk::SourceFile;

/// Every gate's config section, in the order `init` writes them.
pub const SECTIONS: &[&SectionSpec] = &[
    &static_analysis::settings::SECTION,
    &evidence::settings::SECTION,
    &mock::settings::SECTION,
    &mutation::settings::SECTION,
    &docs::settings::SECTION,
    &heldout::settings::SECTION,
    &council::settings::SECTION,
    &uncertainty::settings::SECTION,
];

/// Every rule loki-gate knows, the gates' and the engine's own, in a
/// stable order (by id).
pub fn rules() -> &'static [&'static RuleMeta] {
    static RULES: std::sync::OnceLock<Vec<&'static RuleMeta>> = std::sync::OnceLock::new();
    RULES.get_or_init(|| {
        let mut rules: Vec<&'static RuleMeta> = [
            static_analysis::rules::ALL,
            evidence::rules::ALL,
            mock::rules::ALL,
            mutation::rules::ALL,
            docs::rules::ALL,
            heldout::rules::ALL,
            council::rules::ALL,
            uncertainty::rules::ALL,
            crate::meta::RULES,
        ]
        .concat();
        rules.sort_by_key(|r| r.id);
        rules
    })
}

/// The gates' sections and rules, which configuration is read against.
pub fn catalog() -> crate::config::Catalog {
    crate::config::Catalog {
        sections: SECTIONS,
        rules: rules(),
    }
}

/// What a gate may look at.
pub struct Context<'a> {
    pub repo: &'a Repo,
    pub config: &'a Config,
    pub store: &'a Store,
    /// Which files and lines the run looks at (`--base`, `--staged`, `--all-files`).
    pub scope: &'a crate::changed::Scope,
    pub exclude: GlobSet,
    /// Repo-relative directories no gate looks into (the state directory).
    pub skip_dirs: Vec<PathBuf>,
    /// Gates may cache per-file analysis in the state directory.
    pub cache: bool,
    /// Tools come from `PATH` only ([`crate::settings::Session::path_only`]).
    pub path_only: bool,
    /// Decides the waivers the change adds (trailers, for `mutation`).
    pub judge: &'a Judge,
    /// The change the session already collected for `scope` (everything
    /// but `exclude`, `skip_dirs` included), when it did: a diff scope.
    pub collected: Option<&'a crate::changed::ChangeSet>,
}

impl<'a> Context<'a> {
    /// The change in `scope` without `exclude` and `skip_dirs`: the one the
    /// session collected when it did (each gate would otherwise diff the
    /// whole index again: 3 ms a gate at 100,000 files), else collected now.
    pub fn changes(&self) -> anyhow::Result<std::borrow::Cow<'a, crate::changed::ChangeSet>> {
        match self.collected {
            Some(set) => Ok(set.without(&self.skip_dirs)),
            None => crate::changed::collect(self.repo, self.scope, &self.exclude, &self.skip_dirs)
                .map(std::borrow::Cow::Owned),
        }
    }
}

/// What a gate hands back; findings carry provisional severities.
#[derive(Debug, Default)]
pub struct GateOutput {
    pub findings: Vec<Finding>,
    /// Why the gate could not fully decide, when it could not.
    pub inconclusive: Option<String>,
    /// How many files it examined.
    pub files: usize,
    /// Facts the user should see that are not findings (how the base was chosen).
    pub notices: Vec<String>,
    /// The files it read, for suppression comments.
    pub sources: Vec<SourceFile>,
    /// `uncertainty` escalated this round (exit 3).
    pub escalated: bool,
    /// `evidence --coverage`: how much of the change the tests ran.
    pub coverage: Option<crate::verdict::coverage::Coverage>,
    /// Waivers in play besides inline suppressions (trailers, config keys,
    /// a baseline); the pipeline adds the suppressions it finds.
    pub waivers: Vec<Waiver>,
    /// A change run: what the gate raises on the base revision of the files
    /// it reported on ([`at_base`]).
    pub base: Option<at_base::AtBase>,
}

/// A file's text with the byte offset where each line starts, so the lines
/// of many findings in one file are found without rescanning it.
pub(crate) struct Text {
    pub text: String,
    starts: Vec<usize>,
}

impl Text {
    fn new(text: String) -> Text {
        let starts = std::iter::once(0)
            .chain(text.match_indices('\n').map(|(i, _)| i + 1))
            .collect();
        Text { text, starts }
    }

    /// [`snippet`], from the line index.
    fn snippet(&self, line: u32, end_line: u32) -> Vec<String> {
        let Some(&from) = self.starts.get((line as usize).saturating_sub(1)) else {
            return Vec::new();
        };
        snippet(&self.text[from..], 1, end_line.saturating_sub(line) + 1)
    }
}

/// Lines `line..=end_line` of `text` (at most five), as a finding shows them.
pub(crate) fn snippet(text: &str, line: u32, end_line: u32) -> Vec<String> {
    let end = end_line.clamp(line, line + 4);
    text.lines()
        .skip((line as usize).saturating_sub(1))
        .take((end - line + 1) as usize)
        .map(str::to_string)
        .collect()
}

/// How the shared pipeline treats findings.
pub struct Pipeline<'a> {
    pub root: &'a std::path::Path,
    pub levels: &'a Levels,
    pub baseline: Option<&'a Baseline>,
    /// Decides the waivers the change added.
    pub judge: &'a Judge,
}

impl Pipeline<'_> {
    /// Turn a gate's raw output into its report.
    pub fn finish(&self, gate: &'static str, out: GateOutput, elapsed: Duration) -> GateReport {
        let GateOutput {
            mut findings,
            inconclusive,
            files,
            notices,
            sources,
            escalated,
            coverage,
            mut waivers,
            base,
        } = out;
        let mut texts = texts_of(&sources);

        // Suppressions: every file the gate read, plus any file a finding points into.
        let mut suppressions = Vec::new();
        let mut extra = Vec::new();
        let scanned: BTreeSet<String> = texts
            .keys()
            .cloned()
            .chain(
                findings
                    .iter()
                    .filter(|f| f.rule != SKIPPED_FILE.id)
                    .filter_map(|f| f.path.clone()),
            )
            .collect();
        let mut judged = Vec::new();
        for path in &scanned {
            if let Some(text) = self.text(&mut texts, path) {
                let (found, invalid) = suppress::scan(path, &text.text, rules());
                judged.extend(crate::trust::inline::judge_suppressions(
                    self.judge, path, &text.text, &found,
                ));
                suppressions.extend(found);
                extra.extend(invalid);
            }
        }
        let applies: Vec<bool> = judged.iter().map(|w| w.status.applies()).collect();
        let (hid, unused) = suppress::apply(&mut findings, &suppressions, &applies, &[gate], rules());
        findings.extend(unused);
        findings.extend(extra);
        // The gate lists the suppressions of its own rules, and any that hid
        // one of its findings.
        let mine = |w: &Waiver| {
            w.rules
                .iter()
                .any(|r| crate::rule::resolve(rules(), r).is_some_and(|m| m.gate == gate))
        };
        for (mut waiver, hid) in judged.into_iter().zip(hid) {
            if hid.is_empty() && !mine(&waiver) {
                continue;
            }
            waiver.findings = hid;
            waivers.push(waiver);
        }
        findings.extend(self.judge.findings(&waivers));

        // Snippets and fingerprints.
        fingerprint(
            findings
                .iter_mut()
                .chain(waivers.iter_mut().flat_map(|w| w.findings.iter_mut()))
                .collect(),
            &mut texts,
            Some(self.root),
        );
        // What the base revision already had (a change run): fingerprinted
        // the same way, from the base's text only.
        let at_base = match base {
            Some(mut base) => {
                let mut base_texts = texts_of(&base.sources);
                fingerprint(base.findings.iter_mut().collect(), &mut base_texts, None);
                at_base::mark(&mut findings, &base, gate)
            }
            None => 0,
        };

        // Levels decide severity, in one place.
        let leveled = |f: &mut Finding| match self.levels.level_of(&f.rule, f.proposed).severity() {
            Some(s) => {
                f.severity = f.ceiling.map_or(s, |c| s.min(c));
                true
            }
            None => false,
        };
        findings.retain_mut(leveled);
        for waiver in &mut waivers {
            waiver.findings.retain_mut(leveled);
        }
        let suppressed = waivers.iter().map(|w| w.findings.len()).sum();
        waivers.sort_by(|a, b| {
            (a.kind, &a.path, a.line, &a.commit, &a.rules).cmp(&(b.kind, &b.path, b.line, &b.commit, &b.rules))
        });
        let baselined = self.baseline.map_or(0, |b| b.filter(&mut findings));
        findings.sort_by(|a, b| (&a.path, a.line, a.column, &a.rule).cmp(&(&b.path, b.line, b.column, &b.rule)));

        let blocked = findings.iter().any(|f| f.severity == crate::finding::Severity::Error);
        let outcome = if escalated {
            Outcome::Escalated
        } else if blocked {
            Outcome::Blocked
        } else if inconclusive.is_some() {
            Outcome::Inconclusive
        } else {
            Outcome::Pass
        };
        GateReport {
            gate,
            outcome,
            findings,
            files,
            elapsed_ms: u64::try_from(elapsed.as_millis()).unwrap_or(u64::MAX),
            notices,
            inconclusive,
            suppressed,
            baselined,
            at_base,
            error: None,
            coverage,
            waivers,
        }
    }

    /// [`read_text`] from the working tree.
    fn text<'c>(&self, cache: &'c mut HashMap<String, Option<Text>>, path: &str) -> Option<&'c Text> {
        read_text(cache, Some(self.root), path)
    }
}

/// The text of each of `sources` with its line starts, by its shown path.
fn texts_of(sources: &[SourceFile]) -> HashMap<String, Option<Text>> {
    sources
        .iter()
        .map(|s| {
            (
                crate::git::display_path(&s.path),
                Some(Text::new(s.text().into_owned())),
            )
        })
        .collect()
}

/// Give `findings` their snippets and fingerprints, the text of each file
/// read once through `texts` (from the working tree under `root` when it is
/// not there already; `None`: only what `texts` holds).
fn fingerprint(
    mut findings: Vec<&mut Finding>,
    texts: &mut HashMap<String, Option<Text>>,
    root: Option<&std::path::Path>,
) {
    let mut bases = Vec::new();
    for f in &mut findings {
        let lines = match (&f.path, f.line) {
            _ if !f.snippet.is_empty() => std::mem::take(&mut f.snippet),
            (Some(path), Some(line)) => read_text(texts, root, path)
                .map(|t| t.snippet(line, f.end_line.unwrap_or(line)))
                .unwrap_or_default(),
            _ => Vec::new(),
        };
        bases.push(if lines.is_empty() {
            f.message.clone()
        } else {
            lines.join("\n")
        });
        f.snippet = lines;
    }
    // Two different findings of one rule on the same lines (two checks
    // lost from one test) must not share a fingerprint, or one baseline
    // entry would hide both: their messages tell them apart.
    let mut messages: HashMap<(&str, Option<&str>, &str), BTreeSet<&str>> = HashMap::new();
    for (f, basis) in findings.iter().zip(&bases) {
        messages
            .entry((f.rule.as_str(), f.path.as_deref(), basis.as_str()))
            .or_default()
            .insert(f.message.as_str());
    }
    let bases: Vec<String> = findings
        .iter()
        .zip(&bases)
        .map(
            |(f, basis)| match messages[&(f.rule.as_str(), f.path.as_deref(), basis.as_str())].len() {
                1 => basis.clone(),
                _ => format!("{basis}\n{}", f.message),
            },
        )
        .collect();
    for (f, basis) in findings.iter_mut().zip(&bases) {
        f.fingerprint_from(basis);
    }
}

/// The text of `path` with its line starts, read once per run from under
/// `root`; `None` for a file out of the repository, binary, over the size
/// cap, unreadable, or not in `cache` when there is no `root`.
fn read_text<'c>(
    cache: &'c mut HashMap<String, Option<Text>>,
    root: Option<&std::path::Path>,
    path: &str,
) -> Option<&'c Text> {
    cache
        .entry(path.to_string())
        .or_insert_with(|| {
            // Never a file out of the repository, whatever path a finding carries.
            let bytes = crate::walk::read_file(root?, std::path::Path::new(path)).ok()?;
            Some(Text::new(String::from_utf8_lossy(&bytes).into_owned()))
        })
        .as_ref()
}
