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
//!   where a false positive literal `p` is the proposition "not p" (so `p`
//!   is needed false too, and gets its own "not p") and a false negative
//!   literal `(not q)` is `q`. This holds on every path only when `d` does
//!   not depend on itself through positive literals: on such a cycle the
//!   rules of the negations would wait for each other, so "not d" is taken
//!   as always reachable, as it is when the normal form would have more
//!   than [`MAX_TERMS`] terms. Both only make "not d" easier, so h_max stays
//!   admissible; otherwise a goal or precondition that a derived fact be
//!   false would be free, and h_FF 0 in states that are not goals.

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
        let mut needed = vec![false; task.num_facts()];
        let conditions = task
            .operators
            .iter()
            .flat_map(|op| op.pre_neg.iter().chain(op.cond_effects.iter().flat_map(|e| &e.pre_neg)))
            .chain(task.axioms.iter().flat_map(|a| &a.pre_neg))
            .chain(&task.goal_neg);
        let mut queue: Vec<FactId> = Vec::new();
        for &f in conditions {
            if !needed[f as usize] {
                needed[f as usize] = true;
                queue.push(f);
            }
        }
        // The clauses of each derived fact needed false; their positive
        // literals are needed false in turn.
        let rules_of = rules_by_head(task);
        let cyclic = positively_cyclic(task, &rules_of);
        let mut clauses: Vec<(FactId, Vec<Clause>)> = Vec::new();
        while let Some(d) = queue.pop() {
            if !task.is_derived(d) {
                continue;
            }
            // No clause: "not d" is taken as always reachable.
            let negation = if cyclic[d as usize] {
                Vec::new()
            } else {
                negation_of(task, &rules_of[d as usize])
            };
            for lit in negation.iter().flatten() {
                if let Literal::False(p) = *lit
                    && !needed[p as usize]
                {
                    needed[p as usize] = true;
                    queue.push(p);
                }
            }
            clauses.push((d, negation));
        }
        let mut n = Negations {
            id: vec![None; task.num_facts()],
            negates: Vec::new(),
            first,
            rules: Vec::new(),
        };
        for d in (0..task.num_facts() as FactId).filter(|&f| needed[f as usize]) {
            n.id[d as usize] = Some(first + n.negates.len() as FactId);
            n.negates.push(d);
        }
        clauses.sort_unstable_by_key(|(d, _)| *d);
        for (d, negation) in clauses {
            let not_d = n.id[d as usize].expect("needed");
            let terms = n.terms(&negation);
            n.rules.extend(terms.into_iter().map(|t| (not_d, t)));
        }
        n
    }

    /// The disjunctive normal form of a conjunction of clauses: one term per
    /// way to pick a literal of each clause, as sorted relaxed facts (no
    /// clause: one empty term, always true; an empty clause: no term).
    fn terms(&self, clauses: &[Clause]) -> Vec<Vec<FactId>> {
        let mut terms: Vec<Vec<FactId>> = vec![Vec::new()];
        for clause in clauses {
            terms = terms
                .iter()
                .flat_map(|t| {
                    clause.iter().map(move |lit| {
                        let f = match *lit {
                            Literal::True(q) => q,
                            Literal::False(p) => self.id[p as usize].expect("needed"),
                        };
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

/// Literals of which one holds; a derived fact is false in the relaxation
/// when every clause of its negation has a literal that holds.
type Clause = Vec<Literal>;

/// A literal of a clause of a negated derived fact.
#[derive(Clone, Copy)]
enum Literal {
    /// The fact holds.
    True(FactId),
    /// The fact is false ("not f").
    False(FactId),
}

/// Per fact, the indices of the rules with it as their head.
fn rules_by_head(task: &Task) -> Vec<Vec<usize>> {
    let mut rules = vec![Vec::new(); task.num_facts()];
    for (i, a) in task.axioms.iter().enumerate() {
        rules[a.head as usize].push(i);
    }
    rules
}

/// One clause per rule of the derived fact: its body has a false literal
/// (an unconditional rule gives the empty clause: the fact always holds).
/// No clause at all, so always reachable, when the normal form would
/// exceed [`MAX_TERMS`].
fn negation_of(task: &Task, rules: &[usize]) -> Vec<Clause> {
    let mut clauses = Vec::with_capacity(rules.len());
    let mut terms = 1usize;
    for &r in rules {
        let a = &task.axioms[r];
        let clause: Vec<Literal> = a
            .pre
            .iter()
            .map(|&p| Literal::False(p))
            .chain(a.pre_neg.iter().map(|&q| Literal::True(q)))
            .collect();
        terms = terms.saturating_mul(clause.len().max(1));
        if terms > MAX_TERMS {
            return Vec::new();
        }
        clauses.push(clause);
    }
    clauses
}

/// Per fact: a derived fact that depends on itself through the positive
/// literals of rule bodies (a cycle of the rule graph, found as a strongly
/// connected component of more than one fact, or a rule needing its own
/// head). Negative literals name lower layers, so they close no cycle.
fn positively_cyclic(task: &Task, rules_of: &[Vec<usize>]) -> Vec<bool> {
    let n = task.num_facts();
    let successors: Vec<Vec<FactId>> = (0..n)
        .map(|f| {
            let mut s: Vec<FactId> = rules_of[f]
                .iter()
                .flat_map(|&r| task.axioms[r].pre.iter().copied())
                .filter(|&p| task.is_derived(p))
                .collect();
            s.sort_unstable();
            s.dedup();
            s
        })
        .collect();
    let mut cyclic = vec![false; n];
    // Tarjan's algorithm, iterative: (fact, next successor to look at).
    const UNSEEN: u32 = u32::MAX;
    let mut index = vec![UNSEEN; n];
    let mut low = vec![0u32; n];
    let mut on_stack = vec![false; n];
    let mut stack: Vec<FactId> = Vec::new();
    let mut calls: Vec<(FactId, usize)> = Vec::new();
    let mut next_index = 0u32;
    for root in (0..n).filter(|&f| task.is_derived(f as FactId)) {
        if index[root] != UNSEEN {
            continue;
        }
        calls.push((root as FactId, 0));
        while let Some(&mut (v, ref mut k)) = calls.last_mut() {
            let v = v as usize;
            if *k == 0 {
                index[v] = next_index;
                low[v] = next_index;
                next_index += 1;
                stack.push(v as FactId);
                on_stack[v] = true;
            }
            if let Some(&w) = successors[v].get(*k) {
                *k += 1;
                let w = w as usize;
                if w == v {
                    cyclic[v] = true;
                } else if index[w] == UNSEEN {
                    calls.push((w as FactId, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
                continue;
            }
            calls.pop();
            if let Some(&(u, _)) = calls.last() {
                low[u as usize] = low[u as usize].min(low[v]);
            }
            if low[v] == index[v] {
                let at = stack.iter().rposition(|&f| f as usize == v).expect("on the stack");
                let component = stack.split_off(at);
                for &f in &component {
                    on_stack[f as usize] = false;
                    if component.len() > 1 {
                        cyclic[f as usize] = true;
                    }
                }
            }
        }
    }
    cyclic
}
