//! Landmarks from domain transition graphs (RHW 2008): the task's
//! exactly-one invariant groups are finite-domain variables, and a value
//! that every path of the variable's transition graph from its initial
//! value to a landmark passes through is a landmark too, naturally ordered
//! before it.
//!
//! The transitions of a group: an operator that requires value `x` of the
//! group and adds value `y` moves it from `x` to `y`; one that adds `y` and
//! requires no value of the group moves it there from any value. Since
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
            });
        }
        for op in &task.operators {
            for &y in &op.add {
                for &(g, to) in &of_fact[y as usize] {
                    let group = &mut groups[g as usize];
                    let from = op
                        .pre
                        .iter()
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
        }
        TransitionGraphs { groups, of_fact }
    }

    /// The facts that every transition path from a variable's initial value
    /// to `fact` passes through (besides both ends), over all variables
    /// `fact` is a value of.
    pub fn necessary_before(&self, fact: FactId) -> Vec<FactId> {
        let mut found = Vec::new();
        for &(g, target) in &self.of_fact[fact as usize] {
            let group = &self.groups[g as usize];
            if target == group.initial {
                continue;
            }
            // Only values on one path can be on every path.
            let Some(path) = group.path(target, None) else {
                continue;
            };
            for &v in &path {
                if v != group.initial && v != target && group.path(target, Some(v)).is_none() {
                    found.push(group.facts[v as usize]);
                }
            }
        }
        found.sort_unstable();
        found.dedup();
        found
    }
}

impl Group {
    /// A path (its values) from the initial value to `target` that avoids
    /// `avoid`, by breadth-first search.
    fn path(&self, target: u32, avoid: Option<u32>) -> Option<Vec<u32>> {
        const UNSEEN: u32 = u32::MAX;
        let n = self.facts.len();
        let mut parent = vec![UNSEEN; n];
        let mut queue = vec![self.initial];
        parent[self.initial as usize] = self.initial;
        // Values reached from any value are reached from the initial one.
        for v in 0..n as u32 {
            if self.from_any[v as usize] && Some(v) != avoid && parent[v as usize] == UNSEEN {
                parent[v as usize] = self.initial;
                queue.push(v);
            }
        }
        let mut next = 0;
        while next < queue.len() {
            let v = queue[next];
            next += 1;
            for &w in &self.successors[v as usize] {
                if Some(w) != avoid && parent[w as usize] == UNSEEN {
                    parent[w as usize] = v;
                    queue.push(w);
                }
            }
        }
        if parent[target as usize] == UNSEEN {
            return None;
        }
        let mut path = vec![target];
        let mut v = target;
        while v != self.initial {
            v = parent[v as usize];
            path.push(v);
        }
        path.reverse();
        Some(path)
    }
}
