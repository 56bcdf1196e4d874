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
use super::{Estimate, Heuristic};
use crate::state::StateBits;
use crate::task::{FactId, Task};

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
                let t = self.exploration.trigger[o as usize];
                if t != NO_FACT && self.costs[o as usize] == 0 && !self.in_goal_zone[t as usize] {
                    self.in_goal_zone[t as usize] = true;
                    self.stack.push(t);
                }
            }
        }
    }

    /// Collects the cut: operators fired by a fact reachable from the state
    /// outside the goal zone that have an effect in the goal zone.
    fn find_cut(&mut self, state: &StateBits) {
        let rt = &self.relaxed;
        self.reached.fill(false);
        self.cut.clear();
        self.stack.clear();
        for f in state.iter_ones().chain(std::iter::once(rt.true_fact as usize)) {
            self.reached[f] = true;
            self.stack.push(f as FactId);
        }
        while let Some(f) = self.stack.pop() {
            for &o in rt.ops_with_pre(f) {
                if self.exploration.trigger[o as usize] != f {
                    continue;
                }
                for &e in rt.effects(o) {
                    if self.in_goal_zone[e as usize] {
                        if !self.in_cut[o as usize] {
                            self.in_cut[o as usize] = true;
                            self.cut.push(o);
                        }
                    } else if !self.reached[e as usize] {
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
        "lmcut"
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
        true
    }
}
