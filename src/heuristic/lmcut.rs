//! LM-cut: an admissible heuristic that dominates h_max.
//!
//! Repeatedly: compute h_max with the current operator costs, keeping for
//! each operator a precondition of maximal cost (its trigger, the
//! "precondition choice function"). The goal zone is every fact from which
//! the goal is reached backwards over zero-cost operators via their
//! triggers. The cut is the set of operators whose trigger is reachable from
//! the state without entering the goal zone and which have an effect inside
//! it. Every relaxed plan uses an operator of the cut, so its minimal cost is
//! a lower bound; add it to the estimate, subtract it from the cut's
//! operators and repeat until h_max of the goal is 0. Subtracting costs only
//! lowers fact costs, so h_max is updated incrementally between cuts.

use super::relax::{Combine, Exploration, UNREACHED};
use super::unary::{NO_FACT, RelaxedOpId, RelaxedTask};
use super::{BuildContext, Estimate, Heuristic, HeuristicKind};
use crate::task::state::StateBits;
use crate::task::{FactId, Task};

pub static LM_CUT: HeuristicKind = HeuristicKind {
    name: "lmcut",
    also_named: &[],
    help: "LM-cut: sums the costs of disjunctive action landmarks",
    admissible: true,
    preferred_operators: false,
    negative_goals: true,
    conditional_effects: false,
    axioms: false,
    build: |task: &Task, _: &BuildContext| Box::new(LmCut::new(task)),
};

pub struct LmCut {
    relaxed: RelaxedTask,
    exploration: Exploration,
    /// Operator costs left after the cuts so far.
    costs: Vec<u64>,
    in_goal_zone: Vec<bool>,
    reached: Vec<bool>,
    in_cut: Vec<bool>,
    cut: Vec<RelaxedOpId>,
    stack: Vec<FactId>,
}

impl LmCut {
    pub fn new(task: &Task) -> Self {
        let relaxed = RelaxedTask::new(task);
        LmCut {
            exploration: Exploration::new(&relaxed),
            costs: relaxed.costs().to_vec(),
            in_goal_zone: vec![false; relaxed.num_facts()],
            reached: vec![false; relaxed.num_facts()],
            in_cut: vec![false; relaxed.num_ops()],
            cut: Vec::new(),
            stack: Vec::new(),
            relaxed,
        }
    }

    /// Marks the goal zone: facts that reach the goal fact backwards over
    /// zero-cost operators through their triggers.
    fn mark_goal_zone(&mut self) {
        let rt = &self.relaxed;
        self.in_goal_zone.fill(false);
        self.stack.clear();
        self.stack.push(rt.goal_fact);
        self.in_goal_zone[rt.goal_fact as usize] = true;
        while let Some(f) = self.stack.pop() {
            for &o in rt.achievers(f) {
                let t = self.exploration.trigger(o);
                if t != NO_FACT && self.costs[o as usize] == 0 && !self.in_goal_zone[t as usize] {
                    self.in_goal_zone[t as usize] = true;
                    self.stack.push(t);
                }
            }
        }
    }

    /// Collects the cut: operators fired by a fact reachable from the state
    /// outside the goal zone that have an effect in the goal zone. Facts are
    /// reached only through operators outside the cut.
    fn find_cut(&mut self, state: &StateBits) {
        let rt = &self.relaxed;
        self.reached.fill(false);
        self.cut.clear();
        self.stack.clear();
        for f in rt.state_facts(state) {
            self.reached[f as usize] = true;
            self.stack.push(f);
        }
        while let Some(f) = self.stack.pop() {
            for &o in rt.ops_with_pre(f) {
                if self.exploration.trigger(o) != f {
                    continue;
                }
                if rt.effects(o).iter().any(|&e| self.in_goal_zone[e as usize]) {
                    if !self.in_cut[o as usize] {
                        self.in_cut[o as usize] = true;
                        self.cut.push(o);
                    }
                    // Its other effects are not reached through it: every
                    // relaxed plan still uses a cut operator (the first one
                    // that enters the goal zone), and the cut is smaller.
                    continue;
                }
                for &e in rt.effects(o) {
                    if !self.reached[e as usize] {
                        self.reached[e as usize] = true;
                        self.stack.push(e);
                    }
                }
            }
        }
        for &o in &self.cut {
            self.in_cut[o as usize] = false;
        }
    }
}

impl Heuristic for LmCut {
    fn name(&self) -> &str {
        LM_CUT.name
    }

    fn evaluate(&mut self, state: &StateBits) -> Estimate {
        self.costs.copy_from_slice(self.relaxed.costs());
        // The whole reachable part is explored (no early stop): an operator
        // costlier than the goal can still belong to a cut.
        self.exploration
            .run(&self.relaxed, state, &self.costs, Combine::Max, false);
        let goal = self.relaxed.goal_fact as usize;
        if self.exploration.fact_cost[goal] == UNREACHED {
            return None;
        }
        let mut estimate = 0u64;
        while self.exploration.fact_cost[goal] > 0 {
            self.mark_goal_zone();
            self.find_cut(state);
            let Some(cut_cost) = self.cut.iter().map(|&o| self.costs[o as usize]).min() else {
                // Cannot happen while h_max(goal) > 0: the goal's cheapest
                // support chain leaves the goal zone through a costly operator.
                debug_assert!(false, "empty LM-cut");
                break;
            };
            if cut_cost == 0 {
                // Cannot happen either: a zero-cost operator into the goal
                // zone puts its trigger into the zone. Guards termination.
                debug_assert!(false, "zero-cost LM-cut");
                break;
            }
            estimate = estimate.saturating_add(cut_cost);
            for &o in &self.cut {
                self.costs[o as usize] -= cut_cost;
            }
            self.exploration.lower_costs_max(&self.relaxed, &self.costs, &self.cut);
        }
        Some(estimate)
    }

    fn is_admissible(&self) -> bool {
        LM_CUT.admissible
    }
}

#[cfg(test)]
mod tests {
    use super::super::relax::{Mode, RelaxationHeuristic};
    use super::*;
    use crate::rng::Lcg;
    use crate::task::testing::{OpSpec, perfect_costs, random_task, state, task};

    fn lmcut(t: &Task, s: &[FactId]) -> Estimate {
        LmCut::new(t).evaluate(state(t.num_facts(), s).bits())
    }

    fn hmax(t: &Task, s: &[FactId]) -> Estimate {
        RelaxationHeuristic::new(t, Mode::Max).evaluate(state(t.num_facts(), s).bits())
    }

    #[test]
    fn independent_goals_add_up() {
        // op0: a -> g1 (1); op1: a -> g2 (1). h_max = 1, LM-cut = h* = 2.
        let ops: [OpSpec; 2] = [(&[0], &[], &[1], &[], 1), (&[0], &[], &[2], &[], 1)];
        let t = task(3, &ops, &[0], &[1, 2], &[]);
        assert_eq!(hmax(&t, &[0]), Some(1));
        assert_eq!(lmcut(&t, &[0]), Some(2));
        assert_eq!(lmcut(&t, &[0, 1]), Some(1));
        assert_eq!(lmcut(&t, &[1, 2]), Some(0));
    }

    #[test]
    fn overlapping_cuts_reduce_costs() {
        // op0: a -> g1 (2); op1: a -> g2 (3); op2: a -> g1, g2 (4).
        // h_max = 3; cuts {op1, op2} (3) and {op0, op2} (1): LM-cut = h* = 4.
        let ops: [OpSpec; 3] = [
            (&[0], &[], &[1], &[], 2),
            (&[0], &[], &[2], &[], 3),
            (&[0], &[], &[1, 2], &[], 4),
        ];
        let t = task(3, &ops, &[0], &[1, 2], &[]);
        assert_eq!(hmax(&t, &[0]), Some(3));
        assert_eq!(lmcut(&t, &[0]), Some(4));
    }

    #[test]
    fn an_operator_with_several_goal_effects_is_charged_once() {
        // op0: a -> g1, g2 (1). h* = 1.
        let ops: [OpSpec; 1] = [(&[0], &[], &[1, 2], &[], 1)];
        let t = task(3, &ops, &[0], &[1, 2], &[]);
        assert_eq!(lmcut(&t, &[0]), Some(1));
    }

    #[test]
    fn dead_ends_and_unreachable_parts() {
        // g (2) needs b (1), which nothing adds; op1 adds c (3) from a.
        let ops: [OpSpec; 2] = [(&[1], &[], &[2], &[], 1), (&[0], &[], &[3], &[], 1)];
        let t = task(4, &ops, &[0], &[2], &[]);
        assert_eq!(lmcut(&t, &[0]), None);
        assert_eq!(lmcut(&t, &[0, 1]), Some(1));
        assert_eq!(lmcut(&t, &[0, 2]), Some(0));
    }

    #[test]
    fn zero_cost_operators() {
        // op0: a -> b (0); op1: b -> c (3); op2: c -> g (0); op3: a -> g (5); op4: {} -> a (0).
        let ops: [OpSpec; 5] = [
            (&[0], &[], &[1], &[0], 0),
            (&[1], &[], &[2], &[], 3),
            (&[2], &[], &[3], &[], 0),
            (&[0], &[], &[3], &[], 5),
            (&[], &[], &[0], &[], 0),
        ];
        let t = task(4, &ops, &[0], &[3], &[]);
        assert_eq!(lmcut(&t, &[0]), Some(3));
        assert_eq!(lmcut(&t, &[]), Some(3));
        assert_eq!(lmcut(&t, &[2]), Some(0));
        // All zero: the estimate is 0 although the goal does not hold.
        let free: Vec<OpSpec> = ops.iter().map(|&(a, b, c, d, _)| (a, b, c, d, 0)).collect();
        let t = task(4, &free, &[0], &[3], &[]);
        assert_eq!(lmcut(&t, &[0]), Some(0));
    }

    #[test]
    fn random_tasks_lie_between_hmax_and_perfect() {
        let mut rng = Lcg::new(11);
        let mut above_hmax = 0;
        for _ in 0..300 {
            let t = random_task(&mut rng, 6, 8);
            let mut lm = LmCut::new(&t);
            let mut hm = RelaxationHeuristic::new(&t, Mode::Max);
            for (s, perfect) in perfect_costs(&t) {
                let h = lm.evaluate(s.bits());
                let max = hm.evaluate(s.bits());
                assert_eq!(h.is_some(), max.is_some(), "{t:?} {s:?}");
                match (h, max, perfect) {
                    (Some(h), Some(max), p) => {
                        assert!(max <= h, "h_max {max} > LM-cut {h}: {t:?} {s:?}");
                        assert!(p.is_none_or(|p| h <= p), "LM-cut {h} > h* {p:?}: {t:?} {s:?}");
                        above_hmax += usize::from(h > max);
                    }
                    (None, _, p) => assert_eq!(p, None, "dead end with a plan: {t:?} {s:?}"),
                    _ => unreachable!(),
                }
            }
        }
        // The random tasks do exercise more than one cut.
        assert!(above_hmax > 0);
    }
}
