//! Landmarks from domain transition graphs (RHW 2008): the task's
//! exactly-one invariant groups are finite-domain variables, and a value
//! that every path of the variable's transition graph from its initial
//! value to a landmark passes through is a landmark too, naturally ordered
//! before it.
//!
//! The transitions of a group: an operator that requires value `x` of the
//! group and adds value `y` moves it from `x` to `y`; one that adds `y` and
//! requires no value of the group moves it there from any value (and so
//! does a conditional effect, with its conditions as preconditions). Since
//! exactly one value holds in every reachable state, every path of the task
//! moves each variable along these transitions.

use crate::task::{FactId, Task};

pub struct TransitionGraphs {
    groups: Vec<Group>,
    /// Per task fact: (group, index of the fact in it).
    of_fact: Vec<Vec<(u32, u32)>>,
}

struct Group {
    facts: Vec<FactId>,
    /// Index of the value true initially.
    initial: u32,
    successors: Vec<Vec<u32>>,
    /// Values some operator reaches from any value.
    from_any: Vec<bool>,
    /// Per value, its immediate dominator (see [`Group::dominators`]).
    idom: Vec<u32>,
}

impl TransitionGraphs {
    pub fn new(task: &Task) -> Self {
        let mut in_init = vec![false; task.num_facts()];
        for &f in &task.init {
            in_init[f as usize] = true;
        }
        let mut groups = Vec::new();
        let mut of_fact = vec![Vec::new(); task.num_facts()];
        for g in task.invariant_groups().iter().filter(|g| g.exactly_one) {
            let initial: Vec<usize> = (0..g.facts.len()).filter(|&i| in_init[g.facts[i] as usize]).collect();
            let [initial] = initial[..] else {
                continue;
            };
            let id = groups.len() as u32;
            for (i, &f) in g.facts.iter().enumerate() {
                of_fact[f as usize].push((id, i as u32));
            }
            groups.push(Group {
                facts: g.facts.clone(),
                initial: initial as u32,
                successors: vec![Vec::new(); g.facts.len()],
                from_any: vec![false; g.facts.len()],
                idom: Vec::new(),
            });
        }
        // A conditional effect moves a variable like an operator whose
        // preconditions are the operator's and the effect's conditions.
        let effects = task.operators.iter().flat_map(|op| {
            std::iter::once((&op.add, None))
                .chain(op.cond_effects.iter().map(move |e| (&e.add, Some(&e.pre))))
                .map(move |(add, condition)| (add, op.pre.iter().chain(condition.into_iter().flatten())))
        });
        for (add, pre) in effects {
            for &y in add {
                for &(g, to) in &of_fact[y as usize] {
                    let group = &mut groups[g as usize];
                    let from = pre
                        .clone()
                        .find_map(|&p| of_fact[p as usize].iter().find(|&&(pg, _)| pg == g).map(|&(_, i)| i));
                    match from {
                        Some(from) if from != to => group.successors[from as usize].push(to),
                        Some(_) => {}
                        None => group.from_any[to as usize] = true,
                    }
                }
            }
        }
        for group in &mut groups {
            for s in &mut group.successors {
                s.sort_unstable();
                s.dedup();
            }
            group.idom = group.dominators();
        }
        TransitionGraphs { groups, of_fact }
    }

    /// The facts that every transition path from a variable's initial value
    /// to `fact` passes through (besides both ends), over all variables
    /// `fact` is a value of: its strict dominators other than the initial
    /// value.
    pub fn necessary_before(&self, fact: FactId) -> Vec<FactId> {
        let mut found = Vec::new();
        for &(g, target) in &self.of_fact[fact as usize] {
            let group = &self.groups[g as usize];
            if target == group.initial || group.idom[target as usize] == UNREACHED {
                continue;
            }
            let mut v = group.idom[target as usize];
            while v != group.initial {
                found.push(group.facts[v as usize]);
                v = group.idom[v as usize];
            }
        }
        found.sort_unstable();
        found.dedup();
        found
    }
}

/// `Group::idom` of a value the initial one does not reach.
const UNREACHED: u32 = u32::MAX;

impl Group {
    /// The values the initial value reaches, in its graph plus an edge to
    /// every value reached from any value.
    fn successors_of(&self, v: u32) -> impl Iterator<Item = u32> + '_ {
        let from_root =
            (v == self.initial).then(|| (0..self.from_any.len() as u32).filter(|&w| self.from_any[w as usize]));
        self.successors[v as usize]
            .iter()
            .copied()
            .chain(from_root.into_iter().flatten())
    }

    /// The immediate dominator of every value in the transition graph
    /// rooted at the initial value ([`UNREACHED`] for values it does not
    /// reach), by the iterative data-flow algorithm over reverse postorder
    /// (Cooper, Harvey and Kennedy 2001). A value dominates `t` exactly when
    /// every path to `t` passes through it, so one tree answers every
    /// landmark of the variable: a search per candidate value, as before,
    /// took a quadratic time per landmark on long chains.
    fn dominators(&self) -> Vec<u32> {
        let n = self.facts.len();
        // Postorder by an explicit stack (graphs can be long chains).
        let mut postorder_number = vec![UNREACHED; n];
        let mut postorder = Vec::with_capacity(n);
        let mut visited = vec![false; n];
        let mut stack: Vec<(u32, Vec<u32>)> = vec![(self.initial, self.successors_of(self.initial).collect())];
        visited[self.initial as usize] = true;
        while let Some((v, pending)) = stack.last_mut() {
            if let Some(w) = pending.pop() {
                if !visited[w as usize] {
                    visited[w as usize] = true;
                    let next = self.successors_of(w).collect();
                    stack.push((w, next));
                }
            } else {
                postorder_number[*v as usize] = postorder.len() as u32;
                postorder.push(*v);
                stack.pop();
            }
        }
        let mut predecessors = vec![Vec::new(); n];
        for &v in &postorder {
            for w in self.successors_of(v) {
                predecessors[w as usize].push(v);
            }
        }
        let mut idom = vec![UNREACHED; n];
        idom[self.initial as usize] = self.initial;
        let intersect = |idom: &[u32], mut a: u32, mut b: u32| {
            while a != b {
                while postorder_number[a as usize] < postorder_number[b as usize] {
                    a = idom[a as usize];
                }
                while postorder_number[b as usize] < postorder_number[a as usize] {
                    b = idom[b as usize];
                }
            }
            a
        };
        let mut changed = true;
        while changed {
            changed = false;
            for &v in postorder.iter().rev().filter(|&&v| v != self.initial) {
                let mut new = UNREACHED;
                for &p in &predecessors[v as usize] {
                    if idom[p as usize] == UNREACHED {
                        continue;
                    }
                    new = if new == UNREACHED { p } else { intersect(&idom, p, new) };
                }
                if new != idom[v as usize] {
                    idom[v as usize] = new;
                    changed = true;
                }
            }
        }
        idom
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Lcg;

    /// Whether `target` is reached from the initial value without `avoid`.
    fn reaches_avoiding(group: &Group, target: u32, avoid: u32) -> bool {
        let mut seen = vec![false; group.facts.len()];
        let mut stack = vec![group.initial];
        seen[group.initial as usize] = true;
        while let Some(v) = stack.pop() {
            for w in group.successors_of(v) {
                if w != avoid && !seen[w as usize] {
                    seen[w as usize] = true;
                    stack.push(w);
                }
            }
        }
        seen[target as usize]
    }

    /// On random transition graphs, the dominator chain of every value is
    /// exactly the values (other than the ends) without which it is not
    /// reached.
    #[test]
    fn dominators_are_the_values_every_path_passes_through() {
        let mut rng = Lcg::new(7);
        for _ in 0..300 {
            let n = 2 + rng.below(9) as usize;
            let mut group = Group {
                facts: (0..n as FactId).collect(),
                initial: rng.below(n as u64) as u32,
                successors: (0..n)
                    .map(|_| (0..rng.below(3)).map(|_| rng.below(n as u64) as u32).collect())
                    .collect(),
                from_any: (0..n).map(|_| rng.below(6) == 0).collect(),
                idom: Vec::new(),
            };
            group.idom = group.dominators();
            for target in 0..n as u32 {
                let reached = target == group.initial || reaches_avoiding(&group, target, u32::MAX);
                assert_eq!(group.idom[target as usize] != UNREACHED, reached);
                if !reached || target == group.initial {
                    continue;
                }
                let mut chain = Vec::new();
                let mut v = group.idom[target as usize];
                while v != group.initial {
                    chain.push(v);
                    v = group.idom[v as usize];
                }
                chain.sort_unstable();
                let brute: Vec<u32> = (0..n as u32)
                    .filter(|&v| v != group.initial && v != target && !reaches_avoiding(&group, target, v))
                    .collect();
                assert_eq!(chain, brute, "target {target} of {n} values");
            }
        }
    }
}
