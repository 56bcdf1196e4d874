//! Negative conditions in the delete relaxation.
//!
//! Every task fact `f` that some condition needs false (a negative
//! precondition, effect condition, rule body or goal) gets an artificial
//! relaxed fact "not f", true in the states where `f` is false. How it is
//! reached depends on the fact:
//!
//! - A fact that operators change: "not f" is added by every operator (or
//!   conditional effect) that deletes `f` without adding it back
//!   ([`super::unary`] adds these effects). The compiled task has the same
//!   plans with the same costs, so h_max and LM-cut stay admissible, and a
//!   goal `(not f)` is no longer free, so h_FF is not 0 in states that are
//!   not goals.
//! - A derived fact `d`: "d is false" holds when no rule for d fires, i.e.
//!   when every rule body has a false literal. "not d" gets zero-cost rules:
//!   the disjunctive normal form of "each rule of d has a false literal",
//!   keeping only the literals that say a fact is true (a rule's negative
//!   literals). A rule with a positive literal may be blocked by a fact being
//!   false, which the relaxation does not track, so it is taken as blocked
//!   (its clause dropped); when the normal form would have more than
//!   [`MAX_TERMS`] terms, "not d" is taken as always reachable. Both only make
//!   "not d" easier, so h_max stays admissible. Fast Downward's translator
//!   treats negated axioms in the same spirit, with an exact expansion of
//!   positive literals.

use crate::task::{FactId, Task};

/// Most terms of the normal form of one negated derived fact.
const MAX_TERMS: usize = 64;

/// The "not f" facts of a relaxed task and the rules of those of derived facts.
pub struct Negations {
    /// Per task fact: its "not" fact, for the facts needed false.
    id: Vec<Option<FactId>>,
    /// Per "not" fact (from the first one on): the task fact it negates.
    negates: Vec<FactId>,
    first: FactId,
    /// (the "not" fact of a derived fact, the facts one rule for it needs).
    rules: Vec<(FactId, Vec<FactId>)>,
}

impl Negations {
    /// The "not" facts of `task`, numbered from `first` in the order of the
    /// facts they negate.
    pub fn new(task: &Task, first: FactId) -> Self {
        let mut needed: Vec<FactId> = task
            .operators
            .iter()
            .flat_map(|op| op.pre_neg.iter().chain(op.cond_effects.iter().flat_map(|e| &e.pre_neg)))
            .chain(task.axioms.iter().flat_map(|a| &a.pre_neg))
            .chain(&task.goal_neg)
            .copied()
            .collect();
        needed.sort_unstable();
        needed.dedup();
        let mut n = Negations {
            id: vec![None; task.num_facts()],
            negates: Vec::with_capacity(needed.len()),
            first,
            rules: Vec::new(),
        };
        for d in needed {
            n.id[d as usize] = Some(first + n.negates.len() as FactId);
            n.negates.push(d);
        }
        for (k, &d) in n.negates.iter().enumerate() {
            if task.is_derived(d) {
                n.rules.extend(
                    derived_negation_rules(task, d)
                        .into_iter()
                        .map(|t| (first + k as FactId, t)),
                );
            }
        }
        n
    }

    /// Number of "not" facts.
    pub fn num_facts(&self) -> usize {
        self.negates.len()
    }

    /// The relaxed precondition of a condition: the facts of `pre` and the
    /// "not" facts of `pre_neg` (sorted).
    pub fn condition(&self, pre: &[FactId], pre_neg: &[FactId]) -> Vec<FactId> {
        let mut facts = pre.to_vec();
        facts.extend(pre_neg.iter().filter_map(|&f| self.id[f as usize]));
        facts.sort_unstable();
        facts.dedup();
        facts
    }

    /// The "not" fact of task fact `f`, if some condition needs `f` false.
    pub fn negation(&self, f: FactId) -> Option<FactId> {
        self.id.get(f as usize).copied().flatten()
    }

    /// The rules of the "not" facts of derived facts: (the "not" fact, the
    /// facts it needs).
    pub fn rules(&self) -> &[(FactId, Vec<FactId>)] {
        &self.rules
    }

    /// The task fact the "not" fact `f` negates; `None` for other facts.
    pub fn negated(&self, f: FactId) -> Option<FactId> {
        f.checked_sub(self.first)
            .and_then(|k| self.negates.get(k as usize).copied())
    }

    /// The "not" facts with the facts they negate.
    pub fn iter(&self) -> impl Iterator<Item = (FactId, FactId)> + '_ {
        self.negates
            .iter()
            .enumerate()
            .map(|(k, &f)| (self.first + k as FactId, f))
    }
}

/// The terms of the relaxed rules of "not d": each rule of `d` contributes
/// the clause "one of its negative literals' facts is true"; rules with a
/// positive literal contribute none. Empty when d always holds.
fn derived_negation_rules(task: &Task, d: FactId) -> Vec<Vec<FactId>> {
    let mut clauses: Vec<&[FactId]> = Vec::new();
    for a in task.axioms.iter().filter(|a| a.head == d) {
        if a.pre.is_empty() {
            if a.pre_neg.is_empty() {
                // An unconditional rule: d always holds.
                return Vec::new();
            }
            clauses.push(&a.pre_neg);
        }
    }
    let mut terms: Vec<Vec<FactId>> = vec![Vec::new()];
    for clause in clauses {
        if terms.len() * clause.len() > MAX_TERMS {
            return vec![Vec::new()];
        }
        terms = terms
            .iter()
            .flat_map(|t| {
                clause.iter().map(move |&f| {
                    let mut t = t.clone();
                    if let Err(at) = t.binary_search(&f) {
                        t.insert(at, f);
                    }
                    t
                })
            })
            .collect();
        terms.sort_unstable();
        terms.dedup();
    }
    terms
}
