//! Negated derived facts in the delete relaxation.
//!
//! A condition "derived fact d is false" holds when no rule for d fires,
//! i.e. when every rule body has a false literal. For the derived facts
//! that some condition needs false, the relaxation gets an artificial fact
//! "not d" with zero-cost rules: the disjunctive normal form of "each rule
//! of d has a false literal", keeping only the literals that say a fact is
//! true (a rule's negative literals). A rule with a positive literal may be
//! blocked by a fact being false, which the relaxation does not track, so it
//! is taken as blocked (its clause dropped); when the normal form would have
//! more than [`MAX_TERMS`] terms, "not d" is taken as true. Both only make
//! "not d" easier, so h_max stays admissible. This is what Fast Downward's
//! translator does with negated axioms, without its exact expansion of
//! positive literals.

use crate::task::{FactId, Task};

/// Most terms of the normal form of one negated derived fact.
const MAX_TERMS: usize = 64;

/// The "not d" facts of a relaxed task and their rules.
pub struct NegatedDerived {
    /// Per task fact: its "not" fact, for the derived facts needed false.
    id: Vec<Option<FactId>>,
    /// Per "not" fact (from the first one on): the derived fact it negates.
    negates: Vec<FactId>,
    first: FactId,
    /// (the "not" fact, the facts one rule for it needs).
    rules: Vec<(FactId, Vec<FactId>)>,
}

impl NegatedDerived {
    /// The "not" facts of `task`, numbered from `first`.
    pub fn new(task: &Task, first: FactId) -> Self {
        let mut n = NegatedDerived {
            id: vec![None; task.num_facts()],
            negates: Vec::new(),
            first,
            rules: Vec::new(),
        };
        if !task.has_axioms() {
            return n;
        }
        let needed = task
            .operators
            .iter()
            .flat_map(|op| op.pre_neg.iter().chain(op.cond_effects.iter().flat_map(|e| &e.pre_neg)))
            .chain(task.axioms.iter().flat_map(|a| &a.pre_neg))
            .chain(&task.goal_neg);
        for &d in needed {
            if task.is_derived(d) && n.id[d as usize].is_none() {
                n.id[d as usize] = Some(first + n.negates.len() as FactId);
                n.negates.push(d);
            }
        }
        for (k, &d) in n.negates.iter().enumerate() {
            let not_d = first + k as FactId;
            // Each rule of d contributes the clause "one of its negative
            // literals' facts is true"; rules with a positive literal none.
            let mut clauses: Vec<&[FactId]> = Vec::new();
            let mut never = false;
            for a in task.axioms.iter().filter(|a| a.head == d) {
                if a.pre.is_empty() {
                    if a.pre_neg.is_empty() {
                        // An unconditional rule: d always holds.
                        never = true;
                    }
                    clauses.push(&a.pre_neg);
                }
            }
            if never {
                continue;
            }
            let mut terms: Vec<Vec<FactId>> = vec![Vec::new()];
            for clause in clauses {
                if terms.len() * clause.len() > MAX_TERMS {
                    terms = vec![Vec::new()];
                    break;
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
            n.rules.extend(terms.into_iter().map(|t| (not_d, t)));
        }
        n
    }

    /// Number of "not" facts.
    pub fn num_facts(&self) -> usize {
        self.negates.len()
    }

    /// The relaxed precondition of a condition: the facts of `pre` and the
    /// "not" facts of the derived facts of `pre_neg` (sorted).
    pub fn condition(&self, pre: &[FactId], pre_neg: &[FactId]) -> Vec<FactId> {
        let mut facts = pre.to_vec();
        facts.extend(pre_neg.iter().filter_map(|&f| self.id[f as usize]));
        facts.sort_unstable();
        facts.dedup();
        facts
    }

    /// The rules: (the "not" fact, the facts it needs).
    pub fn rules(&self) -> &[(FactId, Vec<FactId>)] {
        &self.rules
    }

    /// The derived fact the "not" fact `f` negates; `None` for other facts.
    pub fn negated(&self, f: FactId) -> Option<FactId> {
        f.checked_sub(self.first)
            .and_then(|k| self.negates.get(k as usize).copied())
    }
}
