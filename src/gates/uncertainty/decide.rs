//! The decision, as a pure function of what earlier rounds left and what
//! this round observed. Nothing here reads or writes anything.
//!
//! Proxies of being stuck:
//! - p1 no change: the diff hash equals the previous round's, `nochange-min`
//!   rounds in a row;
//! - p2 oscillation: the hash differs from the previous round's but equals
//!   one seen two or more rounds back (A -> B -> A), within the last `ring`;
//! - p3 split: the last `split-rounds` council rounds were all rejected with
//!   at least one approval;
//! - p4 same failure: the same non-empty set of failing tests `nochange-min`
//!   rounds in a row.
//!
//! Escalate when at least two are hot for `rounds` rounds in a row, once per
//! episode; the episode ends (re-arms) on the first round with fewer than two.

use serde::{Deserialize, Serialize};

/// The knobs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Knobs {
    pub rounds: u32,
    pub nochange_min: u32,
    pub split_rounds: u32,
    pub ring: usize,
}

impl Default for Knobs {
    fn default() -> Knobs {
        Knobs {
            rounds: 2,
            nochange_min: 2,
            split_rounds: 2,
            ring: 6,
        }
    }
}

/// What one round observed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Observation {
    pub diff_hash: String,
    /// p3, from the council's rounds ([`split`]).
    pub split: bool,
    /// The signature of the failing tests, when tests failed.
    pub failing: Option<String>,
}

/// What the rounds so far leave for the next.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Memory {
    /// Rounds seen.
    pub round: u64,
    /// The last `ring` diff hashes, oldest first.
    pub ring: Vec<String>,
    /// Rounds in a row whose hash equals the round before's.
    pub repeats: u32,
    /// The last failing-test signature and how many rounds in a row it held.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failing: Option<String>,
    pub failing_rounds: u32,
    /// Rounds in a row with at least two hot proxies.
    pub streak: u32,
    /// This episode (the current run of co-occurring proxies) has escalated.
    pub escalated: bool,
    /// Episodes escalated so far.
    pub episodes: u64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Proxy {
    NoChange,
    Oscillation,
    Split,
    SameFailure,
}

impl Proxy {
    pub fn label(self) -> &'static str {
        match self {
            Proxy::NoChange => "p1 no change",
            Proxy::Oscillation => "p2 oscillation",
            Proxy::Split => "p3 council split",
            Proxy::SameFailure => "p4 same failing tests",
        }
    }
}

/// This round's verdict.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decision {
    pub hot: Vec<Proxy>,
    pub escalate: bool,
    /// Rounds in a row with two or more hot proxies (this one included).
    pub streak: u32,
}

/// One round: the memory after it, and the decision.
pub fn step(memory: &Memory, now: &Observation, knobs: &Knobs) -> (Memory, Decision) {
    let mut next = memory.clone();
    next.round += 1;
    let previous = memory.ring.last();
    let same_as_previous = previous == Some(&now.diff_hash);
    next.repeats = if same_as_previous { memory.repeats + 1 } else { 0 };
    // Two or more rounds back: everything in the ring but the last entry.
    let seen_before = memory.ring.len() >= 2 && memory.ring[..memory.ring.len() - 1].contains(&now.diff_hash);
    next.ring.push(now.diff_hash.clone());
    let extra = next.ring.len().saturating_sub(knobs.ring.max(2));
    next.ring.drain(..extra);

    next.failing_rounds = match (&now.failing, &memory.failing) {
        (Some(f), Some(last)) if f == last => memory.failing_rounds + 1,
        (Some(_), _) => 1,
        (None, _) => 0,
    };
    next.failing.clone_from(&now.failing);

    let mut hot = Vec::new();
    if next.repeats >= knobs.nochange_min.max(1) {
        hot.push(Proxy::NoChange);
    }
    if !same_as_previous && seen_before {
        hot.push(Proxy::Oscillation);
    }
    if now.split {
        hot.push(Proxy::Split);
    }
    if next.failing_rounds >= knobs.nochange_min.max(1) {
        hot.push(Proxy::SameFailure);
    }

    let mut escalate = false;
    if hot.len() >= 2 {
        next.streak = memory.streak + 1;
        if next.streak >= knobs.rounds.max(1) && !memory.escalated {
            escalate = true;
            next.escalated = true;
            next.episodes += 1;
        }
    } else {
        // Co-occurrence cleared: the episode is over and the next one may escalate.
        next.streak = 0;
        next.escalated = false;
    }
    let streak = next.streak;
    (next, Decision { hot, escalate, streak })
}

/// p3: the last `n` council rounds `(blocked, approvals)`, newest last, were
/// all rejected with at least one approval.
pub fn split(rounds: &[(bool, usize)], n: u32) -> bool {
    let n = n.max(1) as usize;
    rounds.len() >= n
        && rounds[rounds.len() - n..]
            .iter()
            .all(|&(blocked, approvals)| blocked && approvals > 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn obs(hash: &str, split: bool, failing: Option<&str>) -> Observation {
        Observation {
            diff_hash: hash.into(),
            split,
            failing: failing.map(str::to_string),
        }
    }

    /// Run the observations from a fresh memory; the decisions in order.
    fn run(rounds: &[Observation], knobs: &Knobs) -> (Memory, Vec<Decision>) {
        let mut memory = Memory::default();
        let mut out = Vec::new();
        for o in rounds {
            let (next, decision) = step(&memory, o, knobs);
            memory = next;
            out.push(decision);
        }
        (memory, out)
    }

    fn escalations(decisions: &[Decision]) -> Vec<usize> {
        decisions
            .iter()
            .enumerate()
            .filter(|(_, d)| d.escalate)
            .map(|(i, _)| i + 1)
            .collect()
    }

    #[test]
    fn each_proxy_alone_never_escalates() {
        let k = Knobs::default();
        // p1 alone: the same hash for ten rounds.
        let (_, d) = run(&vec![obs("A", false, None); 10], &k);
        assert!(d[2..].iter().all(|d| d.hot == [Proxy::NoChange]));
        assert!(escalations(&d).is_empty());
        // p2 alone: A B A B ...
        let seq: Vec<Observation> = (0..10)
            .map(|i| obs(if i % 2 == 0 { "A" } else { "B" }, false, None))
            .collect();
        let (_, d) = run(&seq, &k);
        assert!(d[2..].iter().all(|d| d.hot == [Proxy::Oscillation]));
        assert!(escalations(&d).is_empty());
        // p3 alone, with new diffs each round.
        let seq: Vec<Observation> = (0..10).map(|i| obs(&format!("h{i}"), true, None)).collect();
        let (_, d) = run(&seq, &k);
        assert!(d.iter().all(|d| d.hot == [Proxy::Split]));
        assert!(escalations(&d).is_empty());
        // p4 alone.
        let seq: Vec<Observation> = (0..10).map(|i| obs(&format!("h{i}"), false, Some("t1"))).collect();
        let (_, d) = run(&seq, &k);
        assert!(d[1..].iter().all(|d| d.hot == [Proxy::SameFailure]));
        assert!(escalations(&d).is_empty());
    }

    #[test]
    fn two_hot_for_n_rounds_escalate_once_per_episode() {
        let k = Knobs::default();
        // Same diff and same failing tests: p1 from round 3, p4 from round 2.
        let (memory, d) = run(&vec![obs("A", false, Some("t1")); 8], &k);
        assert_eq!(d[2].hot, [Proxy::NoChange, Proxy::SameFailure]);
        assert_eq!(d[2].streak, 1);
        // Debounce: two co-occurring rounds before escalating, then never again in the episode.
        assert_eq!(escalations(&d), [4]);
        assert_eq!(memory.episodes, 1);
        assert!(memory.escalated);
    }

    #[test]
    fn a_cleared_round_rearms_and_a_new_episode_escalates_again() {
        let k = Knobs::default();
        let mut seq = vec![obs("A", false, Some("t1")); 4];
        // Progress: a new diff and green tests clear the co-occurrence.
        seq.push(obs("B", false, None));
        // Stuck again.
        seq.extend(vec![obs("C", true, Some("t2")); 4]);
        let (memory, d) = run(&seq, &k);
        assert_eq!(d[4].hot, Vec::<Proxy>::new());
        assert_eq!(d[4].streak, 0);
        // Round 6: C is new (split only); 7: split + same failure; 8: streak 2 -> escalate.
        assert_eq!(escalations(&d), [4, 8]);
        assert_eq!(memory.episodes, 2);
    }

    #[test]
    fn one_hot_round_between_breaks_the_streak() {
        let k = Knobs::default();
        // p2 and p3 together only every other round: never two rounds in a row.
        let seq: Vec<Observation> = ["A", "B", "A", "C", "A", "D", "A"]
            .iter()
            .enumerate()
            .map(|(i, h)| obs(h, i % 2 == 0, None))
            .collect();
        let (_, d) = run(&seq, &k);
        assert!(d.iter().all(|d| d.streak <= 1), "{d:?}");
        assert!(escalations(&d).is_empty());
    }

    #[test]
    fn the_ring_forgets_old_hashes_and_knobs_apply() {
        let k = Knobs {
            ring: 3,
            ..Knobs::default()
        };
        // A then four others then A: out of a ring of 3, not an oscillation.
        let seq: Vec<Observation> = ["A", "B", "C", "D", "E", "A"]
            .iter()
            .map(|h| obs(h, false, None))
            .collect();
        let (memory, d) = run(&seq, &k);
        assert!(d[5].hot.is_empty());
        assert_eq!(memory.ring, ["D", "E", "A"]);
        // rounds: 1 escalates on the first co-occurring round.
        let k = Knobs {
            rounds: 1,
            nochange_min: 1,
            ..Knobs::default()
        };
        let (_, d) = run(&vec![obs("A", false, Some("t")); 3], &k);
        assert_eq!(escalations(&d), [2]);
    }

    #[test]
    fn a_split_needs_every_recent_round_rejected_with_an_approval() {
        assert!(split(&[(false, 3), (true, 1), (true, 2)], 2));
        assert!(
            !split(&[(true, 1), (true, 0)], 2),
            "a unanimous rejection is not a split"
        );
        assert!(!split(&[(true, 1), (false, 3)], 2));
        assert!(!split(&[(true, 1)], 2), "too few rounds");
    }
}
