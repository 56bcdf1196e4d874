//! Relaxed reachability: which facts the delete relaxation reaches from a
//! set of facts, optionally without some operators, and by which operator
//! each fact was reached first.
//!
//! The landmark graph asks "what is reachable when every achiever of this
//! candidate is left out?"; the landmark-count heuristic asks "what is
//! reachable from this state, and how does one get to the nearest
//! landmark?". Both are one breadth-first pass: facts are expanded in the
//! order they are reached, and an operator fires once all its preconditions
//! are. No costs are involved, so a queue does what a heap would.

use crate::heuristic::unary::{NO_OP, RelaxedOpId, RelaxedTask};
use crate::task::FactId;

/// The buffers of one exploration, reused across runs.
pub struct RelaxedReach {
    /// Per fact (task facts and the two artificial ones): reached.
    pub reached: Vec<bool>,
    /// Per fact: the operator that reached it first; `NO_OP` for start facts
    /// and facts not reached. Every supporter fired after all its
    /// preconditions were reached, so following supporters back from a fact
    /// never loops and yields a relaxed plan for it.
    pub supporter: Vec<RelaxedOpId>,
    /// The reached facts in the order they were reached (start facts first).
    pub order: Vec<FactId>,
    unsatisfied: Vec<u32>,
    /// Per operator, its number of preconditions: `unsatisfied` before a run.
    pre_count: Vec<u32>,
}

impl RelaxedReach {
    pub fn new(rt: &RelaxedTask) -> Self {
        RelaxedReach {
            reached: vec![false; rt.num_facts()],
            supporter: vec![NO_OP; rt.num_facts()],
            order: Vec::with_capacity(rt.num_facts()),
            unsatisfied: vec![0; rt.num_ops()],
            pre_count: (0..rt.num_ops() as RelaxedOpId)
                .map(|o| rt.pre(o).len() as u32)
                .collect(),
        }
    }

    /// Explores from `start` (task facts; the artificial true fact is added)
    /// with every operator except the `excluded` ones.
    pub fn run(&mut self, rt: &RelaxedTask, start: impl IntoIterator<Item = FactId>, excluded: &[RelaxedOpId]) {
        self.run_until(rt, start, excluded, |_| false);
    }

    /// Like [`run`](Self::run), but stops at the first fact newly reached
    /// (not a start fact) for which `stop` holds, and returns it; `None`
    /// when the exploration went to its end.
    pub fn run_until(
        &mut self,
        rt: &RelaxedTask,
        start: impl IntoIterator<Item = FactId>,
        excluded: &[RelaxedOpId],
        stop: impl Fn(FactId) -> bool,
    ) -> Option<FactId> {
        // Only the facts of the last run are marked: unmark just those.
        for &f in &self.order {
            self.reached[f as usize] = false;
            self.supporter[f as usize] = NO_OP;
        }
        self.order.clear();
        self.unsatisfied.copy_from_slice(&self.pre_count);
        for &o in excluded {
            self.unsatisfied[o as usize] = u32::MAX; // never reaches zero
        }
        for f in start.into_iter().chain(std::iter::once(rt.true_fact)) {
            if !self.reached[f as usize] {
                self.reached[f as usize] = true;
                self.order.push(f);
            }
        }
        // `order` is the queue: facts are expanded in the order reached.
        let mut next = 0;
        while next < self.order.len() {
            let fact = self.order[next];
            next += 1;
            for &o in rt.ops_with_pre(fact) {
                let left = &mut self.unsatisfied[o as usize];
                if *left == u32::MAX {
                    continue;
                }
                *left -= 1;
                if *left > 0 {
                    continue;
                }
                for &e in rt.effects(o) {
                    if !self.reached[e as usize] {
                        self.reached[e as usize] = true;
                        self.supporter[e as usize] = o;
                        self.order.push(e);
                        if stop(e) {
                            return Some(e);
                        }
                    }
                }
            }
        }
        None
    }

    /// True when every precondition of `o` was reached.
    pub fn fires(&self, rt: &RelaxedTask, o: RelaxedOpId) -> bool {
        rt.pre(o).iter().all(|&p| self.reached[p as usize])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::task::testing::{OpSpec, task};

    #[test]
    fn reaches_along_operators_and_not_through_excluded_ones() {
        // op0: a -> b; op1: b -> c; op2: a -> c (facts a=0, b=1, c=2, d=3).
        let ops: [OpSpec; 3] = [
            (&[0], &[], &[1], &[], 1),
            (&[1], &[], &[2], &[], 1),
            (&[0], &[], &[2], &[], 1),
        ];
        let t = task(4, &ops, &[0], &[2], &[]);
        let rt = RelaxedTask::new(&t);
        let mut r = RelaxedReach::new(&rt);
        r.run(&rt, [0], &[]);
        assert_eq!(&r.reached[..4], &[true, true, true, false]);
        // c is reached first by op2 (a is expanded before b).
        assert_eq!(rt.original(r.supporter[2]), 2);
        // Without the achievers of b, c is still reached through op2.
        r.run(&rt, [0], &[0]);
        assert_eq!(&r.reached[..4], &[true, false, true, false]);
        // Without the achievers of c, nothing reaches c.
        r.run(&rt, [0], rt.achievers(2));
        assert_eq!(&r.reached[..4], &[true, true, false, false]);
        assert!(r.fires(&rt, 1) && !r.reached[2]);
        // Stopping at b leaves c unreached.
        assert_eq!(r.run_until(&rt, [0], &[], |f| f == 1), Some(1));
        assert!(r.reached[1] && !r.reached[2]);
    }
}
