//! Baselines: the fingerprints of accepted findings, so a project can adopt
//! loki-gate and gate only what is new (`--write-baseline F`, `--baseline F`).
//!
//! Fingerprints leave out line numbers, so moving code keeps a finding
//! matched. Identical findings in one file share a fingerprint; the baseline
//! keeps a count, and only occurrences beyond it are reported.

use std::collections::BTreeMap;
use std::path::Path;

use anyhow::{Context, Result, bail};
use serde::{Deserialize, Serialize};

use crate::finding::Finding;

#[derive(Debug, Default, Serialize, Deserialize)]
pub struct Baseline {
    pub version: u32,
    /// fingerprint -> how many findings had it
    pub fingerprints: BTreeMap<String, u32>,
}

impl Baseline {
    pub fn from_findings(findings: &[Finding]) -> Self {
        let mut fingerprints = BTreeMap::new();
        for f in findings {
            *fingerprints.entry(f.fingerprint.clone()).or_insert(0) += 1;
        }
        Baseline {
            version: 1,
            fingerprints,
        }
    }

    pub fn load(path: &Path) -> Result<Self> {
        let bytes = std::fs::read(path).with_context(|| {
            format!(
                "could not read baseline {}: create it with --write-baseline {}",
                path.display(),
                path.display()
            )
        })?;
        Self::parse(&bytes, &path.display().to_string())
    }

    /// A baseline from its JSON; `shown` names it in errors.
    pub fn parse(bytes: &[u8], shown: &str) -> Result<Self> {
        let baseline: Baseline = serde_json::from_slice(bytes).with_context(|| {
            format!("baseline {shown} is not a loki-gate baseline: regenerate it with --write-baseline")
        })?;
        if baseline.version != 1 {
            bail!(
                "baseline {shown} has version {}, expected 1: regenerate it with --write-baseline",
                baseline.version
            );
        }
        Ok(baseline)
    }

    /// How many entries this baseline has beyond `other`'s (per fingerprint).
    pub fn beyond(&self, other: &Baseline) -> u32 {
        self.fingerprints
            .iter()
            .map(|(print, &n)| n.saturating_sub(other.fingerprints.get(print).copied().unwrap_or(0)))
            .sum()
    }

    pub fn save(&self, path: &Path) -> Result<()> {
        let mut json = serde_json::to_vec_pretty(self)?;
        json.push(b'\n');
        crate::state::write_atomic(path, &json)
    }

    /// Drop findings the baseline accounts for; returns how many were dropped.
    pub fn filter(&self, findings: &mut Vec<Finding>) -> usize {
        let mut budget = self.fingerprints.clone();
        let before = findings.len();
        findings.retain(|f| match budget.get_mut(&f.fingerprint) {
            Some(n) if *n > 0 => {
                *n -= 1;
                false
            }
            _ => true,
        });
        before - findings.len()
    }
}
