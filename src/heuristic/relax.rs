//! One relaxation engine for h_max, h_add and h_FF.
//!
//! [`Exploration`] runs a generalized Dijkstra over the relaxed task
//! ([`RelaxedTask`]): facts are settled in order of cost, each operator
//! counts its unsettled preconditions and fires when the count reaches zero.
//! The cost of an operator is its own cost plus the max (h_max) or the sum
//! (h_add) of its preconditions' costs. h_FF extracts a relaxed plan from the
//! h_add best supporters. LM-cut ([`super::lmcut`]) runs the same engine in
//! max mode with its own operator costs.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::unary::{NO_FACT, NO_OP, RelaxedOpId, RelaxedTask};
use super::{Estimate, Heuristic};
use crate::state::StateBits;
use crate::task::{FactId, OpId, Task};

/// Cost of a fact or operator not reached.
pub const UNREACHED: u64 = u64::MAX;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    Max,
    Add,
    FF,
}

/// How an operator combines the costs of its preconditions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Combine {
    Max,
    Sum,
}

/// The buffers of one relaxed exploration, reused across evaluations so that
/// an evaluation allocates nothing.
pub struct Exploration {
    /// Cost of each fact, `UNREACHED` if the relaxation cannot reach it.
    pub fact_cost: Vec<u64>,
    /// The operator that gave each fact its cost; `NO_OP` for facts true in
    /// the state and facts not reached.
    pub supporter: Vec<RelaxedOpId>,
    /// The precondition whose settling made each operator fire (in max mode
    /// one with maximal cost), `NO_FACT` for operators that never fired.
    pub trigger: Vec<FactId>,
    /// Cost of each operator including its own cost (valid once it fired).
    pub op_value: Vec<u64>,
    unsatisfied: Vec<u32>,
    queue: BinaryHeap<Reverse<(u64, FactId)>>,
}

impl Exploration {
    pub fn new(rt: &RelaxedTask) -> Self {
        Exploration {
            fact_cost: vec![UNREACHED; rt.num_facts()],
            supporter: vec![NO_OP; rt.num_facts()],
            trigger: vec![NO_FACT; rt.num_ops()],
            op_value: vec![0; rt.num_ops()],
            unsatisfied: vec![0; rt.num_ops()],
            queue: BinaryHeap::new(),
        }
    }

    /// Computes fact costs from `state` with the operator costs `costs`
    /// (indexed by relaxed operator). With `stop_at_goal` the exploration ends
    /// once the goal fact is settled: every fact a relaxed plan needs is then
    /// final, but facts costlier than the goal may be left unsettled.
    pub fn run(&mut self, rt: &RelaxedTask, state: &StateBits, costs: &[u64], combine: Combine, stop_at_goal: bool) {
        self.fact_cost.fill(UNREACHED);
        self.supporter.fill(NO_OP);
        self.trigger.fill(NO_FACT);
        for o in 0..rt.num_ops() {
            self.unsatisfied[o] = rt.pre(o as RelaxedOpId).len() as u32;
            self.op_value[o] = costs[o];
        }
        self.queue.clear();
        for f in state.iter_ones().chain(std::iter::once(rt.true_fact as usize)) {
            self.fact_cost[f] = 0;
            self.queue.push(Reverse((0, f as FactId)));
        }
        while let Some(Reverse((cost, fact))) = self.queue.pop() {
            if cost > self.fact_cost[fact as usize] {
                continue; // stale entry: the fact was settled cheaper
            }
            if stop_at_goal && fact == rt.goal_fact {
                break;
            }
            for &o in rt.ops_with_pre(fact) {
                let o = o as usize;
                if combine == Combine::Sum {
                    self.op_value[o] = self.op_value[o].saturating_add(cost);
                }
                self.unsatisfied[o] -= 1;
                if self.unsatisfied[o] == 0 {
                    // Facts settle in order of cost, so the last one is a
                    // precondition of maximal cost.
                    self.trigger[o] = fact;
                    if combine == Combine::Max {
                        self.op_value[o] = costs[o].saturating_add(cost);
                    }
                    self.improve_effects(rt, o as RelaxedOpId);
                }
            }
        }
    }

    /// Lowers the costs of the operator's effects to its value where that is cheaper.
    fn improve_effects(&mut self, rt: &RelaxedTask, o: RelaxedOpId) {
        let value = self.op_value[o as usize];
        for &e in rt.effects(o) {
            if value < self.fact_cost[e as usize] {
                self.fact_cost[e as usize] = value;
                self.supporter[e as usize] = o;
                self.queue.push(Reverse((value, e)));
            }
        }
    }

    /// After a max-mode [`run`](Self::run), updates the fact costs to the
    /// operator costs `costs`, which must differ from the previous ones only
    /// by being lower on the operators `lowered`. Only the part of the
    /// exploration the change affects is redone; triggers stay maximal
    /// preconditions. Reachability cannot change, so `supporter` is not kept.
    pub fn lower_costs_max(&mut self, rt: &RelaxedTask, costs: &[u64], lowered: &[RelaxedOpId]) {
        self.queue.clear();
        for &o in lowered {
            let t = self.trigger[o as usize];
            if t != NO_FACT {
                self.op_value[o as usize] = costs[o as usize] + self.fact_cost[t as usize];
                self.improve_effects(rt, o);
            }
        }
        while let Some(Reverse((cost, fact))) = self.queue.pop() {
            if cost > self.fact_cost[fact as usize] {
                continue;
            }
            for &o in rt.ops_with_pre(fact) {
                // Only an operator whose maximal precondition got cheaper can
                // get cheaper; its maximum may now be another precondition.
                if self.trigger[o as usize] != fact {
                    continue;
                }
                let (mut max_cost, mut max_fact) = (0, fact);
                for &p in rt.pre(o) {
                    if self.fact_cost[p as usize] > max_cost {
                        (max_cost, max_fact) = (self.fact_cost[p as usize], p);
                    }
                }
                self.trigger[o as usize] = max_fact;
                let value = costs[o as usize] + max_cost;
                if value < self.op_value[o as usize] {
                    self.op_value[o as usize] = value;
                    self.improve_effects(rt, o);
                }
            }
        }
    }
}

/// h_max, h_add or h_FF, depending on the mode.
pub struct RelaxationHeuristic {
    mode: Mode,
    relaxed: RelaxedTask,
    exploration: Exploration,
    /// Relaxed-plan extraction marks, cleared after each use.
    fact_marked: Vec<bool>,
    op_marked: Vec<bool>,
    stack: Vec<FactId>,
    plan: Vec<RelaxedOpId>,
    preferred: Vec<OpId>,
}

impl RelaxationHeuristic {
    pub fn new(task: &Task, mode: Mode) -> Self {
        let relaxed = RelaxedTask::new(task);
        RelaxationHeuristic {
            mode,
            exploration: Exploration::new(&relaxed),
            fact_marked: vec![false; relaxed.num_facts()],
            op_marked: vec![false; relaxed.num_ops()],
            stack: Vec::new(),
            plan: Vec::new(),
            preferred: Vec::new(),
            relaxed,
        }
    }

    /// Collects the best supporters needed for the goal into `self.plan`,
    /// each operator once, and returns their total cost.
    fn extract_relaxed_plan(&mut self) -> u64 {
        let rt = &self.relaxed;
        self.plan.clear();
        self.stack.clear();
        self.stack.push(rt.goal_fact);
        self.fact_marked[rt.goal_fact as usize] = true;
        while let Some(f) = self.stack.pop() {
            let o = self.exploration.supporter[f as usize];
            if o == NO_OP || self.op_marked[o as usize] {
                continue;
            }
            self.op_marked[o as usize] = true;
            self.plan.push(o);
            for &p in rt.pre(o) {
                if !self.fact_marked[p as usize] {
                    self.fact_marked[p as usize] = true;
                    self.stack.push(p);
                }
            }
        }
        self.fact_marked.fill(false);
        let mut cost = 0u64;
        for &o in &self.plan {
            self.op_marked[o as usize] = false;
            cost = cost.saturating_add(rt.costs()[o as usize]);
        }
        cost
    }

    /// Relaxed-plan operators applicable in `state`: their preconditions
    /// have cost 0, i.e. hold in the state, and no negative one holds.
    fn collect_helpful(&mut self, state: &StateBits) {
        let rt = &self.relaxed;
        self.preferred.clear();
        for &o in &self.plan {
            let original = rt.original(o);
            if original == NO_OP {
                continue;
            }
            let applicable = rt.pre(o).iter().all(|&p| self.exploration.fact_cost[p as usize] == 0)
                && !rt.pre_neg(o).iter().any(|&p| state[p as usize]);
            if applicable {
                self.preferred.push(original);
            }
        }
    }
}

impl Heuristic for RelaxationHeuristic {
    fn name(&self) -> &str {
        match self.mode {
            Mode::Max => "hmax",
            Mode::Add => "hadd",
            Mode::FF => "hff",
        }
    }

    fn evaluate(&mut self, state: &StateBits) -> Estimate {
        let combine = if self.mode == Mode::Max { Combine::Max } else { Combine::Sum };
        self.exploration.run(&self.relaxed, state, self.relaxed.costs(), combine, true);
        self.preferred.clear();
        let goal_cost = self.exploration.fact_cost[self.relaxed.goal_fact as usize];
        if goal_cost == UNREACHED {
            return None;
        }
        if self.mode != Mode::FF {
            return Some(goal_cost);
        }
        let cost = self.extract_relaxed_plan();
        self.collect_helpful(state);
        Some(cost)
    }

    fn preferred_operators(&self) -> &[OpId] {
        &self.preferred
    }

    fn is_admissible(&self) -> bool {
        self.mode == Mode::Max
    }
}
