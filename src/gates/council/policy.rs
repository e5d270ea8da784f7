//! How the council decides, as a pure function of the reviewers' answers:
//!
//! | situation | outcome |
//! |---|---|
//! | a critical or high finding (any reviewer, the devil's advocate included) | block |
//! | a reviewer gave no readable verdict | block (`inconclusive: block`), or it does not count (`ignore`) |
//! | approvals < ceil(2N/3) of the N reviewers that count | block |
//! | every reviewer that counts approved | the devil's advocate reads the change |
//! | no reviewer counts (all inconclusive, `ignore`) | inconclusive |
//! | medium and low findings | warnings |

pub use crate::gates::records::Answer;

/// The council's decision on the reviewers' answers (the devil's advocate aside).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Decision {
    /// Reviewers whose vote counts.
    pub counted: usize,
    pub approvals: usize,
    /// Approvals needed: ceil(2N/3) of those counted.
    pub needed: usize,
    /// Reviewers with no readable verdict.
    pub inconclusive: usize,
    /// Every reviewer that counts approved: the devil's advocate reads the change.
    pub unanimous: bool,
}

impl Decision {
    /// Too few approvals (and at least one reviewer counted).
    pub fn short_of_quorum(&self) -> bool {
        self.counted > 0 && self.approvals < self.needed
    }
}

/// ceil(2n/3).
pub fn needed(n: usize) -> usize {
    (2 * n).div_ceil(3)
}

pub fn decide(answers: &[&Answer], block_inconclusive: bool) -> Decision {
    let inconclusive = answers.iter().filter(|a| a.verdict().is_none()).count();
    let counted = if block_inconclusive {
        answers.len()
    } else {
        answers.len() - inconclusive
    };
    let approvals = answers.iter().filter(|a| a.approves()).count();
    Decision {
        counted,
        approvals,
        needed: needed(counted),
        inconclusive,
        unanimous: counted > 0 && approvals == counted,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gates::records::Verdict;

    fn approve() -> Answer {
        Answer::Verdict(Verdict {
            approve: true,
            issues: Vec::new(),
        })
    }

    fn reject() -> Answer {
        Answer::Verdict(Verdict {
            approve: false,
            issues: Vec::new(),
        })
    }

    fn late() -> Answer {
        Answer::Inconclusive("no answer within 5s".into())
    }

    #[test]
    fn quorum_is_two_thirds_rounded_up() {
        assert_eq!([1, 2, 3, 4, 5, 6].map(needed), [1, 2, 2, 3, 4, 4]);
    }

    #[test]
    fn every_branch_of_the_policy() {
        let (a, r, l) = (approve(), reject(), late());
        // Unanimous: the devil's advocate reads it.
        let d = decide(&[&a, &a, &a], true);
        assert!(d.unanimous && !d.short_of_quorum());
        // Two of three approve: enough, not unanimous.
        let d = decide(&[&a, &a, &r], true);
        assert!(!d.unanimous && !d.short_of_quorum());
        // One of three: short.
        let d = decide(&[&a, &r, &r], true);
        assert!(d.short_of_quorum());
        assert_eq!((d.approvals, d.needed), (1, 2));
        // An inconclusive reviewer counts against the quorum when it blocks...
        let d = decide(&[&a, &l, &l], true);
        assert!(d.short_of_quorum() && !d.unanimous);
        assert_eq!(d.inconclusive, 2);
        // ... and not at all when ignored: the one that answered is unanimous.
        let d = decide(&[&a, &l, &l], false);
        assert!(d.unanimous && !d.short_of_quorum());
        assert_eq!((d.counted, d.needed), (1, 1));
        // Nobody counted: neither a pass nor a quorum failure.
        let d = decide(&[&l, &l], false);
        assert!(!d.unanimous && !d.short_of_quorum());
        assert_eq!(d.counted, 0);
    }
}
