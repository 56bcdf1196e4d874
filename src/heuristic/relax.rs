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
use super::{BuildContext, Estimate, Heuristic, HeuristicKind};
use crate::task::state::StateBits;
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

/// The facts waiting to be settled, popped in order of (cost, fact id)
/// exactly as a binary heap of those pairs would pop them, which fixes the
/// order operators fire in and so which of equally cheap supporters wins.
///
/// Costs are integers and never below the cost being popped, so the pairs
/// of the lowest pending cost (the level) are popped from a sorted list;
/// pending pairs of higher costs wait in a radix heap on the cost. A fact
/// pushed at the level's own cost (through zero-cost operators) goes to a
/// small heap of its own, merged with the sorted list.
struct FactQueue {
    level: u64,
    /// The level's facts, sorted by decreasing id (popped from the back).
    sorted: Vec<FactId>,
    /// Facts pushed at the level's cost while it is popped.
    late: BinaryHeap<Reverse<FactId>>,
    /// `buckets[b]` holds pairs whose cost differs from the level first in
    /// bit `b - 1` (the highest); `b = 0` is unused.
    buckets: [Vec<(u64, FactId)>; 65],
    /// Number of pairs in `buckets`.
    pending: usize,
}

impl FactQueue {
    fn new() -> Self {
        FactQueue {
            level: 0,
            sorted: Vec::new(),
            late: BinaryHeap::new(),
            buckets: std::array::from_fn(|_| Vec::new()),
            pending: 0,
        }
    }

    /// Empties the queue; the level is cost 0.
    fn clear(&mut self) {
        self.level = 0;
        self.sorted.clear();
        self.late.clear();
        if self.pending > 0 {
            self.buckets.iter_mut().for_each(Vec::clear);
            self.pending = 0;
        }
    }

    /// Adds facts of cost 0 to a cleared queue before any push or pop.
    fn seed(&mut self, facts: impl Iterator<Item = FactId>) {
        self.sorted.extend(facts);
        self.sorted.sort_unstable_by(|a, b| b.cmp(a));
    }

    /// Queues `fact` at `cost`, which is at least the cost last popped.
    fn push(&mut self, cost: u64, fact: FactId) {
        debug_assert!(cost >= self.level);
        if cost == self.level {
            self.late.push(Reverse(fact));
        } else {
            let b = 64 - (cost ^ self.level).leading_zeros() as usize;
            self.buckets[b].push((cost, fact));
            self.pending += 1;
        }
    }

    /// The pair with the lowest cost, of those the lowest fact id.
    fn pop(&mut self) -> Option<(u64, FactId)> {
        loop {
            let fact = match (self.sorted.last(), self.late.peek()) {
                (Some(&a), Some(&Reverse(b))) if b < a => self.late.pop().map(|Reverse(b)| b),
                (Some(_), _) => self.sorted.pop(),
                (None, Some(_)) => self.late.pop().map(|Reverse(b)| b),
                (None, None) => None,
            };
            if let Some(fact) = fact {
                return Some((self.level, fact));
            }
            if !self.next_level() {
                return None;
            }
        }
    }

    /// Moves to the lowest pending cost: its facts into `sorted`, the rest
    /// redistributed below the bucket they came from. False if none is pending.
    fn next_level(&mut self) -> bool {
        if self.pending == 0 {
            return false;
        }
        let b = (1..65).find(|&b| !self.buckets[b].is_empty()).unwrap();
        let mut entries = std::mem::take(&mut self.buckets[b]);
        self.level = entries.iter().map(|&(c, _)| c).min().unwrap();
        self.pending -= entries.len();
        for &(cost, fact) in &entries {
            if cost == self.level {
                self.sorted.push(fact);
            } else {
                let b = 64 - (cost ^ self.level).leading_zeros() as usize;
                self.buckets[b].push((cost, fact));
                self.pending += 1;
            }
        }
        entries.clear();
        self.buckets[b] = entries; // keeps its allocation
        self.sorted.sort_unstable_by(|a, b| b.cmp(a));
        true
    }
}

/// The buffers of one relaxed exploration, reused across evaluations so that
/// an evaluation allocates nothing.
pub struct Exploration {
    /// Cost of each fact, `UNREACHED` if the relaxation cannot reach it.
    pub fact_cost: Vec<u64>,
    /// The operator that gave each fact its cost; `NO_OP` for facts true in
    /// the state and facts not reached.
    pub supporter: Vec<RelaxedOpId>,
    /// Per operator, its preconditions not settled yet; it fires at 0. The
    /// only per-operator state settling a fact touches (4 bytes), so that
    /// it mostly stays in the cache: an operator's value is computed when
    /// it fires, from its preconditions' costs, which are final by then.
    unsatisfied: Vec<u32>,
    /// Per operator, its number of preconditions (`unsatisfied` at the start).
    num_pre: Vec<u32>,
    /// Per operator `o`, what firing it reads, in one place:
    /// `firing[firing_start[o]..firing_start[o + 1]]` is its number of
    /// preconditions, its preconditions and its effects.
    firing_start: Vec<u32>,
    firing: Vec<FactId>,
    /// Per operator that fired: its cost plus the sum (h_add) or the
    /// maximum (h_max) of its preconditions' costs.
    op_value: Vec<u64>,
    /// Per operator that fired: the precondition whose settling made it
    /// fire (in max mode one with maximal cost).
    triggers: Vec<FactId>,
    /// With [`with_triggered`](Self::with_triggered), per fact `f`: the
    /// operators that fired with trigger `f`, in
    /// `triggered[triggered_start[f]..][..triggered_len[f]]` (room for all
    /// `triggered_start[f + 1] - triggered_start[f]` operators with
    /// precondition `f`); kept up to date by `lower_costs_max`.
    /// Empty otherwise. A list marked `triggered_dirty` may be unsorted and
    /// hold duplicates and operators whose trigger is no longer `f`: moving
    /// an operator appends it to its new list, and a list is cleaned up when
    /// it is read (or full), which is cheaper than keeping long lists sorted.
    triggered_start: Vec<u32>,
    triggered_len: Vec<u32>,
    triggered_dirty: Vec<bool>,
    triggered: Vec<RelaxedOpId>,
    /// The relaxed facts of the state last run from, ascending.
    seeds: Vec<FactId>,
    queue: FactQueue,
}

impl Exploration {
    pub fn new(rt: &RelaxedTask) -> Self {
        let num_pre: Vec<u32> = (0..rt.num_ops() as RelaxedOpId).map(|o| rt.num_pre(o)).collect();
        let mut firing_start = vec![0];
        let mut firing = Vec::new();
        for o in 0..rt.num_ops() as RelaxedOpId {
            firing.push(rt.num_pre(o));
            firing.extend_from_slice(rt.pre(o));
            firing.extend_from_slice(rt.effects(o));
            firing_start.push(firing.len() as u32);
        }
        Exploration {
            firing_start,
            firing,
            fact_cost: vec![UNREACHED; rt.num_facts()],
            supporter: vec![NO_OP; rt.num_facts()],
            unsatisfied: num_pre.clone(),
            num_pre,
            op_value: vec![0; rt.num_ops()],
            triggers: vec![NO_FACT; rt.num_ops()],
            triggered_start: Vec::new(),
            triggered_len: Vec::new(),
            triggered_dirty: Vec::new(),
            triggered: Vec::new(),
            seeds: Vec::new(),
            queue: FactQueue::new(),
        }
    }

    /// An exploration that also keeps, per fact, the operators it triggers
    /// ([`triggered_by`](Self::triggered_by)).
    pub fn with_triggered(rt: &RelaxedTask) -> Self {
        let mut e = Self::new(rt);
        let mut start = 0u32;
        e.triggered_start = (0..=rt.num_facts())
            .map(|f| {
                let s = start;
                if f < rt.num_facts() {
                    start += rt.ops_with_pre(f as FactId).len() as u32;
                }
                s
            })
            .collect();
        e.triggered_len = vec![0; rt.num_facts()];
        e.triggered_dirty = vec![false; rt.num_facts()];
        e.triggered = vec![0; start as usize];
        e
    }

    /// The operators whose trigger is `f`, ascending; needs
    /// [`with_triggered`](Self::with_triggered).
    pub fn triggered_by(&mut self, f: FactId) -> &[RelaxedOpId] {
        if self.triggered_dirty[f as usize] {
            self.clean_triggered(f);
        }
        let start = self.triggered_start[f as usize] as usize;
        &self.triggered[start..start + self.triggered_len[f as usize] as usize]
    }

    /// Keeps in the list of `f` the operators whose trigger is `f`, once each, ascending.
    fn clean_triggered(&mut self, f: FactId) {
        let start = self.triggered_start[f as usize] as usize;
        let list = &mut self.triggered[start..start + self.triggered_len[f as usize] as usize];
        let mut kept = 0;
        for i in 0..list.len() {
            if self.triggers[list[i] as usize] == f {
                list[kept] = list[i];
                kept += 1;
            }
        }
        let list = &mut list[..kept];
        list.sort_unstable();
        let mut unique = 0;
        for i in 0..list.len() {
            if unique == 0 || list[i] != list[unique - 1] {
                list[unique] = list[i];
                unique += 1;
            }
        }
        self.triggered_len[f as usize] = unique as u32;
        self.triggered_dirty[f as usize] = false;
    }

    /// The relaxed facts of the state of the last [`run`](Self::run), ascending.
    pub fn seeds(&self) -> &[FactId] {
        &self.seeds
    }

    /// Makes `f` the trigger of the fired operator `o`, moving `o` between
    /// the lists of [`triggered_by`](Self::triggered_by) when they are kept.
    fn set_trigger(&mut self, o: RelaxedOpId, f: FactId) {
        let old = self.triggers[o as usize];
        if old == f || self.triggered_start.is_empty() {
            self.triggers[o as usize] = f;
            return;
        }
        // `o` stays in the old list until that one is cleaned up.
        self.triggered_dirty[old as usize] = true;
        let room = self.triggered_start[f as usize + 1] - self.triggered_start[f as usize];
        if self.triggered_len[f as usize] == room {
            // Full of stale entries: the operators triggered by `f`, all of
            // them with `f` as a precondition, `o` not yet among them, leave
            // room for `o`.
            self.clean_triggered(f);
        }
        self.triggers[o as usize] = f;
        let len = &mut self.triggered_len[f as usize];
        self.triggered[(self.triggered_start[f as usize] + *len) as usize] = o;
        *len += 1;
        self.triggered_dirty[f as usize] = true;
    }

    /// The precondition whose settling made `o` fire (in max mode one with
    /// maximal cost), `NO_FACT` if `o` never fired.
    pub fn trigger(&self, o: RelaxedOpId) -> FactId {
        if self.unsatisfied[o as usize] == 0 {
            self.triggers[o as usize]
        } else {
            NO_FACT
        }
    }

    /// Computes fact costs from `state` with the operator costs `costs`
    /// (indexed by relaxed operator). With `stop_at_goal` the exploration ends
    /// once the goal fact is settled: every fact a relaxed plan needs is then
    /// final, but facts costlier than the goal may be left unsettled.
    pub fn run(&mut self, rt: &RelaxedTask, state: &StateBits, costs: &[u64], combine: Combine, stop_at_goal: bool) {
        if self.triggered_start.is_empty() {
            self.run_tracking::<false>(rt, state, costs, combine, stop_at_goal);
        } else {
            self.run_tracking::<true>(rt, state, costs, combine, stop_at_goal);
        }
    }

    /// [`run`](Self::run), with `TRACK` filling the lists of
    /// [`triggered_by`](Self::triggered_by): operators fire in ascending
    /// order among those a fact's settling fires, so appending keeps each
    /// list sorted.
    fn run_tracking<const TRACK: bool>(
        &mut self,
        rt: &RelaxedTask,
        state: &StateBits,
        costs: &[u64],
        combine: Combine,
        stop_at_goal: bool,
    ) {
        self.fact_cost.fill(UNREACHED);
        self.supporter.fill(NO_OP);
        self.unsatisfied.copy_from_slice(&self.num_pre);
        if TRACK {
            self.triggered_len.fill(0);
            self.triggered_dirty.fill(false);
        }
        self.queue.clear();
        self.seeds.clear();
        self.seeds.extend(rt.state_facts(state));
        for &f in &self.seeds {
            self.fact_cost[f as usize] = 0;
        }
        self.queue.seed(self.seeds.iter().copied());
        let Exploration {
            fact_cost,
            supporter,
            unsatisfied,
            op_value,
            triggers,
            queue,
            firing_start,
            firing,
            triggered_start,
            triggered_len,
            triggered,
            ..
        } = self;
        let (fact_cost, supporter, unsatisfied) = (&mut fact_cost[..], &mut supporter[..], &mut unsatisfied[..]);
        while let Some((cost, fact)) = queue.pop() {
            if cost > fact_cost[fact as usize] {
                continue; // stale entry: the fact was settled cheaper
            }
            if stop_at_goal && fact == rt.goal_fact {
                break;
            }
            for &o in rt.ops_with_pre(fact) {
                let left = &mut unsatisfied[o as usize];
                *left -= 1;
                if *left > 0 {
                    continue;
                }
                // Facts settle in order of cost, so the last one is a
                // precondition of maximal cost; equal costs settle in
                // order of id, so it is the last such one, as in
                // `max_precondition` (exactly so without zero-cost
                // operators, which can settle a fact of equal cost later).
                triggers[o as usize] = fact;
                if TRACK {
                    let len = &mut triggered_len[fact as usize];
                    triggered[(triggered_start[fact as usize] + *len) as usize] = o;
                    *len += 1;
                }
                let record = &firing[firing_start[o as usize] as usize..firing_start[o as usize + 1] as usize];
                let (pre, effects) = record[1..].split_at(record[0] as usize);
                let value = if combine == Combine::Max || pre.len() == 1 {
                    costs[o as usize].saturating_add(cost)
                } else {
                    // Every precondition is settled: its cost is final.
                    pre.iter()
                        .fold(costs[o as usize], |sum, &p| sum.saturating_add(fact_cost[p as usize]))
                };
                op_value[o as usize] = value;
                improve_effects(effects, o, value, fact_cost, supporter, queue);
            }
        }
    }

    /// Lowers the costs of the operator's effects to its value where that is cheaper.
    fn improve_effects(&mut self, rt: &RelaxedTask, o: RelaxedOpId) {
        let value = self.op_value[o as usize];
        improve_effects(rt.effects(o), o, value, &mut self.fact_cost, &mut self.supporter, &mut self.queue);
    }

    /// A precondition of `o` with maximal current cost, and that cost; of
    /// several, the last (highest id), which is also the one the full
    /// exploration settles last, so an operator's trigger hardly depends on
    /// which exploration computed it. LM-cut's estimates depend a lot on
    /// which of several maximal preconditions is chosen, and the last gives
    /// the stronger ones.
    fn max_precondition(&self, rt: &RelaxedTask, o: RelaxedOpId) -> (u64, FactId) {
        let pre = rt.pre(o);
        let mut best = (self.fact_cost[pre[0] as usize], pre[0]);
        for &p in &pre[1..] {
            if self.fact_cost[p as usize] >= best.0 {
                best = (self.fact_cost[p as usize], p);
            }
        }
        best
    }

    /// After a max-mode [`run`](Self::run), updates the fact costs to the
    /// operator costs `costs`, which must differ from the previous ones only
    /// by being lower on the operators `lowered`. Only the part of the
    /// exploration the change affects is redone; triggers stay maximal
    /// preconditions. Reachability cannot change, so `supporter` is not kept.
    pub fn lower_costs_max(&mut self, rt: &RelaxedTask, costs: &[u64], lowered: &[RelaxedOpId]) {
        self.queue.clear();
        for &o in lowered {
            if self.trigger(o) != NO_FACT {
                // Not the old trigger's cost: an operator lowered before in
                // this loop may have lowered it already.
                let (max_cost, max_fact) = self.max_precondition(rt, o);
                self.set_trigger(o, max_fact);
                self.op_value[o as usize] = costs[o as usize] + max_cost;
                self.improve_effects(rt, o);
            }
        }
        while let Some((cost, fact)) = self.queue.pop() {
            if cost > self.fact_cost[fact as usize] {
                continue;
            }
            // Only an operator whose maximal precondition got cheaper can
            // get cheaper; its maximum may now be another precondition.
            if self.triggered_start.is_empty() {
                for &o in rt.ops_with_pre(fact) {
                    if self.trigger(o) == fact {
                        self.retrigger(rt, costs, o);
                    }
                }
            } else {
                // The same operators in the same order: retriggering one
                // changes the trigger of that one only, and an operator
                // leaving this list stays in it until it is cleaned up.
                let len = self.triggered_by(fact).len();
                let start = self.triggered_start[fact as usize] as usize;
                for i in start..start + len {
                    self.retrigger(rt, costs, self.triggered[i]);
                }
            }
        }
    }

    /// Gives `o`, whose trigger got cheaper, a maximal precondition as its
    /// trigger, and its effects its new value where that is cheaper.
    fn retrigger(&mut self, rt: &RelaxedTask, costs: &[u64], o: RelaxedOpId) {
        let (max_cost, max_fact) = self.max_precondition(rt, o);
        self.set_trigger(o, max_fact);
        let value = costs[o as usize] + max_cost;
        if value < self.op_value[o as usize] {
            self.op_value[o as usize] = value;
            self.improve_effects(rt, o);
        }
    }
}

/// Lowers the costs of `effects`, those of `o`, to `value` where that is
/// cheaper, with `o` as their supporter, and queues them.
#[inline]
fn improve_effects(
    effects: &[FactId],
    o: RelaxedOpId,
    value: u64,
    fact_cost: &mut [u64],
    supporter: &mut [RelaxedOpId],
    queue: &mut FactQueue,
) {
    for &e in effects {
        if value < fact_cost[e as usize] {
            fact_cost[e as usize] = value;
            supporter[e as usize] = o;
            queue.push(value, e);
        }
    }
}

pub static HMAX: HeuristicKind = HeuristicKind {
    name: "hmax",
    also_named: &[],
    help: "h_max: the costliest precondition chain of the delete relaxation",
    admissible: true,
    preferred_operators: false,
    negative_goals: true,
    conditional_effects: true,
    axioms: true,
    build: |task: &Task, _: &BuildContext| Box::new(RelaxationHeuristic::new(task, Mode::Max)),
};

pub static HADD: HeuristicKind = HeuristicKind {
    name: "hadd",
    also_named: &["add"],
    help: "h_add: the sum of the relaxed costs of the goals",
    admissible: false,
    preferred_operators: false,
    negative_goals: true,
    conditional_effects: true,
    axioms: true,
    build: |task: &Task, _: &BuildContext| Box::new(RelaxationHeuristic::new(task, Mode::Add)),
};

pub static HFF: HeuristicKind = HeuristicKind {
    name: "hff",
    also_named: &["ff"],
    help: "h_FF: the cost of a relaxed plan from the h_add supporters",
    admissible: false,
    preferred_operators: true,
    negative_goals: true,
    conditional_effects: true,
    axioms: true,
    build: |task: &Task, _: &BuildContext| Box::new(RelaxationHeuristic::new(task, Mode::FF)),
};

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
    /// Per task operator: already counted in the relaxed plan (an operator
    /// with conditional effects has several relaxed operators, but is
    /// applied and paid for once); cleared after each use.
    task_op_marked: Vec<bool>,
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
            task_op_marked: vec![false; task.num_operators()],
            preferred: Vec::new(),
            relaxed,
        }
    }

    /// The registry entry of this mode.
    fn kind(&self) -> &'static HeuristicKind {
        match self.mode {
            Mode::Max => &HMAX,
            Mode::Add => &HADD,
            Mode::FF => &HFF,
        }
    }

    /// Collects the best supporters needed for the goal into `self.plan`,
    /// each relaxed operator once, and returns their total cost, each task
    /// operator counted once (rules and the goal operator cost nothing).
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
            let original = rt.original(o);
            if original != NO_OP && !std::mem::replace(&mut self.task_op_marked[original as usize], true) {
                cost = cost.saturating_add(rt.costs()[o as usize]);
            }
        }
        for &o in &self.plan {
            let original = rt.original(o);
            if original != NO_OP {
                self.task_op_marked[original as usize] = false;
            }
        }
        cost
    }

    /// The operators of the relaxed plan of the last evaluation (h_FF
    /// only), in the task's numbering.
    pub fn relaxed_plan(&self) -> impl Iterator<Item = OpId> + '_ {
        self.plan
            .iter()
            .map(|&o| self.relaxed.original(o))
            .filter(|&o| o != NO_OP)
    }

    /// Relaxed-plan operators applicable in `state`. (Cost 0 does not mean
    /// true: zero-cost operators reach facts at cost 0.)
    fn collect_helpful(&mut self, state: &StateBits) {
        let rt = &self.relaxed;
        self.preferred.clear();
        for &o in &self.plan {
            let original = rt.original(o);
            if original == NO_OP {
                continue;
            }
            let applicable = rt.pre(o).iter().all(|&p| rt.holds(p, state));
            // Once per task operator (several of its conditional effects may be in the plan).
            if applicable && !std::mem::replace(&mut self.task_op_marked[original as usize], true) {
                self.preferred.push(original);
            }
        }
        for &o in &self.preferred {
            self.task_op_marked[o as usize] = false;
        }
    }
}

impl Heuristic for RelaxationHeuristic {
    fn name(&self) -> &str {
        self.kind().name
    }

    fn evaluate(&mut self, state: &StateBits) -> Estimate {
        let combine = if self.mode == Mode::Max {
            Combine::Max
        } else {
            Combine::Sum
        };
        self.exploration
            .run(&self.relaxed, state, self.relaxed.costs(), combine, true);
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
        self.kind().admissible
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Lcg;
    use crate::task::testing::{OpSpec, cond, perfect_costs, random_task, state, task, with_axioms};

    fn values(t: &Task, s: &[FactId]) -> [Estimate; 3] {
        let s = state(t.num_facts(), s);
        [Mode::Max, Mode::Add, Mode::FF].map(|m| RelaxationHeuristic::new(t, m).evaluate(s.bits()))
    }

    fn preferred(t: &Task, s: &[FactId]) -> Vec<OpId> {
        let s = state(t.num_facts(), s);
        let mut h = RelaxationHeuristic::new(t, Mode::FF);
        h.evaluate(s.bits());
        let mut p = h.preferred_operators().to_vec();
        p.sort_unstable();
        p
    }

    /// h_max / h_add by plain fixpoint iteration, as a reference: every
    /// fact `f` has a cost and so does "not f" (0 when `f` is false, else
    /// reached by the operators that delete `f` without adding it).
    fn naive(t: &Task, s: &[FactId], combine: Combine) -> Estimate {
        let n = t.num_facts();
        // cost[f] for f, cost[n + f] for "not f".
        let mut cost = vec![UNREACHED; 2 * n];
        for f in 0..n {
            cost[n + f] = 0;
        }
        for &f in s {
            cost[f as usize] = 0;
            cost[n + f as usize] = UNREACHED;
        }
        let fold = |cost: &[u64], pre: &[FactId], pre_neg: &[FactId]| -> u64 {
            let mut acc = 0u64;
            let facts = pre.iter().map(|&f| f as usize);
            for f in facts.chain(pre_neg.iter().map(|&f| n + f as usize)) {
                let c = cost[f];
                if c == UNREACHED {
                    return UNREACHED;
                }
                acc = if combine == Combine::Max { acc.max(c) } else { acc + c };
            }
            acc
        };
        let mut changed = true;
        while changed {
            changed = false;
            for op in &t.operators {
                let pre = fold(&cost, &op.pre, &op.pre_neg);
                if pre == UNREACHED {
                    continue;
                }
                let negations = op.del.iter().filter(|f| !op.add.contains(f)).map(|&f| n + f as usize);
                for e in op.add.iter().map(|&f| f as usize).chain(negations) {
                    if pre + (op.cost as u64) < cost[e] {
                        cost[e] = pre + op.cost as u64;
                        changed = true;
                    }
                }
            }
        }
        let g = fold(&cost, &t.goal, &t.goal_neg);
        (g != UNREACHED).then_some(g)
    }

    /// The fact queue pops exactly what a binary heap of (cost, fact) pairs
    /// pops, stale duplicates included, when pushes are never below the
    /// last cost popped (pushes at that cost included, as zero-cost
    /// operators make them), with costs near and far apart.
    #[test]
    fn fact_queue_pops_like_a_heap_of_pairs() {
        let mut rng = Lcg::new(5);
        // One queue throughout: a round may leave entries behind for `clear`.
        let mut queue = FactQueue::new();
        for round in 0..300 {
            let spread = [1, 3, 1000, 1 << 40][round % 4];
            let mut heap = BinaryHeap::new();
            let mut seeds: Vec<FactId> = (0..rng.below(10) as FactId).map(|_| rng.below(50) as FactId).collect();
            seeds.sort_unstable();
            seeds.dedup();
            queue.clear();
            queue.seed(seeds.iter().copied());
            heap.extend(seeds.iter().map(|&f| Reverse((0u64, f))));
            let mut last = 0;
            for _ in 0..rng.below(200) {
                if rng.below(3) == 0 {
                    let popped = queue.pop();
                    assert_eq!(popped, heap.pop().map(|Reverse(p)| p));
                    match popped {
                        Some((cost, _)) => last = cost,
                        None => continue,
                    }
                } else {
                    let cost = last + [0, rng.below(spread) + 1][rng.below(2) as usize];
                    let fact = rng.below(50) as FactId;
                    queue.push(cost, fact);
                    heap.push(Reverse((cost, fact)));
                }
            }
            if round % 2 == 0 {
                while let Some(Reverse(p)) = heap.pop() {
                    assert_eq!(queue.pop(), Some(p));
                }
                assert_eq!(queue.pop(), None);
            }
        }
    }

    #[test]
    fn max_add_ff_differ_on_a_chain_and_a_shortcut() {
        // op0: a -> g1, x (1); op1: x -> g2 (1). Goals g1, g2.
        // h_max = max(1, 2) = 2, h_add = 1 + 2 = 3, h_FF = {op0, op1} = 2.
        let ops: [OpSpec; 2] = [(&[0], &[], &[2, 1], &[], 1), (&[1], &[], &[3], &[], 1)];
        let t = task(4, &ops, &[0], &[2, 3], &[]);
        assert_eq!(values(&t, &[0]), [Some(2), Some(3), Some(2)]);
        assert_eq!(preferred(&t, &[0]), vec![0]);
        // From a state with x, op1 is helpful and applicable as well.
        assert_eq!(values(&t, &[0, 1]), [Some(1), Some(2), Some(2)]);
        assert_eq!(preferred(&t, &[0, 1]), vec![0, 1]);
        assert_eq!(values(&t, &[2, 3]), [Some(0), Some(0), Some(0)]);
    }

    #[test]
    fn ff_counts_a_shared_subgoal_once() {
        // op0: a -> x (2); op1: x -> g1 (1); op2: x -> g2 (1).
        // h_max = 3, h_add = 3 + 3 = 6, h_FF = 2 + 1 + 1 = 4.
        let ops: [OpSpec; 3] = [
            (&[0], &[], &[1], &[0], 2),
            (&[1], &[], &[2], &[], 1),
            (&[1], &[], &[3], &[], 1),
        ];
        let t = task(4, &ops, &[0], &[2, 3], &[]);
        assert_eq!(values(&t, &[0]), [Some(3), Some(6), Some(4)]);
        assert_eq!(preferred(&t, &[0]), vec![0]);
    }

    #[test]
    fn relaxed_unreachable_goal_is_a_dead_end() {
        // g (2) is only added by an operator needing b (1), which nothing adds.
        let ops: [OpSpec; 2] = [(&[1], &[], &[2], &[], 1), (&[0], &[], &[3], &[], 1)];
        let t = task(4, &ops, &[0], &[2, 3], &[]);
        assert_eq!(values(&t, &[0]), [None, None, None]);
        assert!(preferred(&t, &[0]).is_empty());
        // Reachable once b holds.
        assert_eq!(values(&t, &[0, 1]), [Some(1), Some(2), Some(2)]);
    }

    #[test]
    fn zero_cost_operators_and_cycles() {
        // op0: a -> b (0); op1: b -> a (0); op2: b -> g (0); op3: a -> g (5).
        let ops: [OpSpec; 4] = [
            (&[0], &[], &[1], &[0], 0),
            (&[1], &[], &[0], &[1], 0),
            (&[1], &[], &[2], &[], 0),
            (&[0], &[], &[2], &[], 5),
        ];
        let t = task(3, &ops, &[0], &[2], &[]);
        assert_eq!(values(&t, &[0]), [Some(0), Some(0), Some(0)]);
        assert_eq!(preferred(&t, &[0]), vec![0]);
        assert_eq!(preferred(&t, &[1]), vec![2]);
    }

    #[test]
    fn operators_without_preconditions_and_empty_goal() {
        // op0: {} -> g1 (2); op1: g1 -> g2 (1).
        let ops: [OpSpec; 2] = [(&[], &[], &[0], &[], 2), (&[0], &[], &[1], &[], 1)];
        let t = task(2, &ops, &[], &[0, 1], &[]);
        assert_eq!(values(&t, &[]), [Some(3), Some(5), Some(3)]);
        assert_eq!(preferred(&t, &[]), vec![0]);
        let t = task(2, &ops, &[], &[], &[]);
        assert_eq!(values(&t, &[]), [Some(0), Some(0), Some(0)]);
    }

    #[test]
    fn negative_conditions_are_seen_by_the_relaxation() {
        // op0: a, not b -> g, del a (1). Goal g and not a.
        let ops: [OpSpec; 1] = [(&[0], &[1], &[2], &[0], 1)];
        let t = task(3, &ops, &[0, 1], &[2], &[0]);
        // Nothing deletes b, so op0 never applies: a dead end even relaxed.
        assert_eq!(values(&t, &[0, 1]), [None, None, None]);
        assert!(preferred(&t, &[0, 1]).is_empty());
        // op0 reaches g and "not a" at once: h_add counts it twice.
        assert_eq!(values(&t, &[0]), [Some(1), Some(2), Some(1)]);
        assert_eq!(preferred(&t, &[0]), vec![0]);
        assert_eq!(values(&t, &[0, 2]), [Some(1), Some(1), Some(1)]);
        assert_eq!(values(&t, &[2]), [Some(0), Some(0), Some(0)]);
    }

    /// Facts a = 0, b = 1, c = 2, g = 3; d = 4 derived from b and c.
    /// op0 (1): a -> b, and when b: c. op1 (3): a -> c. op2 (1): d -> g.
    fn conditional_and_derived() -> Task {
        let ops: [OpSpec; 3] = [
            (&[0], &[], &[1], &[], 1),
            (&[0], &[], &[2], &[], 3),
            (&[4], &[], &[3], &[], 1),
        ];
        let mut t = task(5, &ops, &[0], &[3], &[]);
        t.operators[0].cond_effects = vec![cond(&[1], &[], &[2], &[])];
        with_axioms(t, &[&[(4, &[1, 2], &[])]])
    }

    #[test]
    fn conditional_effects_and_rules_in_the_relaxation() {
        let t = conditional_and_derived();
        // b costs 1 (op0); c costs 2 by op0's effect, which needs a and b
        // (op1 would cost 3); the rule for d costs nothing: d = max(1, 2)
        // or 1 + 2; g one more. The relaxed plan {op2, rule, op0 (for b),
        // op0's effect (for c)} applies op0 once: h_FF = 1 + 1.
        assert_eq!(values(&t, &[0]), [Some(3), Some(4), Some(2)]);
        // Only op0 is applicable among the relaxed plan's operators, once.
        assert_eq!(preferred(&t, &[0]), vec![0]);
        // With b, c and so d: g is one step away.
        assert_eq!(values(&t, &[0, 1, 2, 4]), [Some(1), Some(1), Some(1)]);
        assert_eq!(preferred(&t, &[0, 1, 2, 4]), vec![2]);
        // h_max is admissible here: the real optimum applies op0 twice.
        let perfect = perfect_costs(&t);
        assert_eq!(perfect[0].1, Some(3));
    }

    #[test]
    fn negative_conditions_of_rules_on_basic_facts_are_compiled() {
        // e = 1 derived from "not a"; op0 (1): e -> g = 2; op1 (1): a -> h = 3, deletes a.
        // From {a}, "not a" is reached by op1 (it deletes a), then the rule
        // gives e at no cost and op0 the goal: h* = 2 and every value is 2.
        let ops: [OpSpec; 2] = [(&[1], &[], &[2], &[], 1), (&[0], &[], &[3], &[0], 1)];
        let t = with_axioms(task(4, &ops, &[0], &[2], &[]), &[&[(1, &[], &[0])]]);
        assert_eq!(values(&t, &[0]), [Some(2), Some(2), Some(2)]);
        // op1 is the applicable operator of the relaxed plan.
        assert_eq!(preferred(&t, &[0]), vec![1]);
        assert_eq!(perfect_costs(&t)[0].1, Some(2));
    }

    #[test]
    fn derived_facts_needed_false_have_rules_of_their_own() {
        // a = 0, b = 1, g = 2; d = 3 derived: d :- not a; d :- b, c (c = 4).
        // op0 (1): not d -> g; op1 (1): -> a. "not d" needs a (the first
        // rule blocked) and "not b" or "not c" (the second one blocked),
        // which hold where b and c are false, as here.
        let ops: [OpSpec; 2] = [(&[], &[3], &[2], &[], 1), (&[], &[], &[0], &[], 1)];
        let t = with_axioms(task(5, &ops, &[], &[2], &[]), &[&[(3, &[], &[0]), (3, &[1, 4], &[])]]);
        // From {d}: a first, then op0.
        assert_eq!(values(&t, &[3]), [Some(2), Some(2), Some(2)]);
        assert_eq!(preferred(&t, &[3]), vec![1]);
        // From {a}: "not d" holds, op0 is helpful.
        assert_eq!(values(&t, &[0]), [Some(1), Some(1), Some(1)]);
        assert_eq!(preferred(&t, &[0]), vec![0]);
        assert_eq!(perfect_costs(&t)[0].1, Some(2));
        // A derived goal that must be false works the same way.
        let t = with_axioms(task(5, &ops, &[], &[], &[3]), &[&[(3, &[], &[0])]]);
        assert_eq!(values(&t, &[3]), [Some(1), Some(1), Some(1)]);
    }

    #[test]
    fn a_derived_fact_needed_false_needs_its_body_false() {
        // b = 0, g = 1, c = 2; d = 3 derived: d :- b; e = 4 derived: e :- d.
        // op0 (1): not e -> g; op1 (1): b -> c, deletes b. From {b}: e
        // holds until op1 deletes b, so "not e" needs "not d", which needs
        // "not b": h = 2, not 0.
        let ops: [OpSpec; 2] = [(&[], &[4], &[1], &[], 1), (&[0], &[], &[2], &[0], 1)];
        let t = with_axioms(task(5, &ops, &[0], &[1], &[]), &[&[(3, &[0], &[])], &[(4, &[3], &[])]]);
        assert_eq!(values(&t, &[0, 3, 4]), [Some(2), Some(2), Some(2)]);
        assert_eq!(preferred(&t, &[0, 3, 4]), vec![1]);
        assert_eq!(perfect_costs(&t)[0].1, Some(2));
        // With d :- b; d :- e; e :- d, d and e depend on each other: their
        // negations are taken as always reachable (h = 1), which stays
        // admissible.
        let t = with_axioms(
            task(5, &ops, &[0], &[1], &[]),
            &[&[(3, &[0], &[]), (3, &[4], &[]), (4, &[3], &[])]],
        );
        assert_eq!(values(&t, &[0, 3, 4]), [Some(1), Some(1), Some(1)]);
        assert_eq!(perfect_costs(&t)[0].1, Some(2));
    }

    #[test]
    fn lowering_costs_incrementally_matches_a_fresh_run() {
        let mut rng = Lcg::new(3);
        for _ in 0..300 {
            let t = random_task(&mut rng, 7, 10);
            let rt = RelaxedTask::new(&t);
            let s = t.initial_state();
            let mut costs = rt.costs().to_vec();
            let mut incremental = Exploration::new(&rt);
            // The same, keeping the lists of the operators each fact triggers.
            let mut listed = Exploration::with_triggered(&rt);
            let mut fresh = Exploration::new(&rt);
            incremental.run(&rt, s.bits(), &costs, Combine::Max, false);
            listed.run(&rt, s.bits(), &costs, Combine::Max, false);
            check_triggered_lists(&rt, &mut listed, &incremental);
            for _ in 0..3 {
                let lowered: Vec<RelaxedOpId> = (0..rt.num_ops() as RelaxedOpId)
                    .filter(|&o| costs[o as usize] > 0 && rng.below(3) == 0)
                    .collect();
                for &o in &lowered {
                    costs[o as usize] -= 1 + rng.below(costs[o as usize]);
                }
                incremental.lower_costs_max(&rt, &costs, &lowered);
                listed.lower_costs_max(&rt, &costs, &lowered);
                check_triggered_lists(&rt, &mut listed, &incremental);
                fresh.run(&rt, s.bits(), &costs, Combine::Max, false);
                assert_eq!(incremental.fact_cost, fresh.fact_cost, "{t:?}");
                for o in 0..rt.num_ops() as RelaxedOpId {
                    let trigger = incremental.trigger(o);
                    assert_eq!(trigger == NO_FACT, fresh.trigger(o) == NO_FACT);
                    if trigger != NO_FACT {
                        let max = rt.pre(o).iter().map(|&p| fresh.fact_cost[p as usize]).max();
                        assert_eq!(Some(fresh.fact_cost[trigger as usize]), max, "{t:?}");
                    }
                }
            }
        }
    }

    /// `listed` has the costs and triggers of `plain`, and its lists of
    /// triggered operators are exactly, in ascending order, the operators
    /// whose trigger each fact is.
    fn check_triggered_lists(rt: &RelaxedTask, listed: &mut Exploration, plain: &Exploration) {
        assert_eq!(listed.fact_cost, plain.fact_cost);
        let triggers: Vec<FactId> = (0..rt.num_ops() as RelaxedOpId).map(|o| plain.trigger(o)).collect();
        for (o, &t) in triggers.iter().enumerate() {
            assert_eq!(listed.trigger(o as RelaxedOpId), t);
        }
        for f in 0..rt.num_facts() as FactId {
            let expected: Vec<RelaxedOpId> = (0..rt.num_ops() as RelaxedOpId)
                .filter(|&o| triggers[o as usize] == f)
                .collect();
            assert_eq!(listed.triggered_by(f), expected, "fact {f}");
        }
    }

    /// With conditional effects and derived facts, h_max stays admissible,
    /// and all three find the same dead ends, which are real.
    #[test]
    fn random_adl_tasks_keep_hmax_admissible() {
        let mut rng = Lcg::new(11);
        for i in 0..400 {
            // Half of them without recursion, so that every derived fact's
            // negation has rules of its own.
            let t = crate::task::testing::random_adl_task_with(&mut rng, 7, 8, i % 2 == 0);
            let mut hs = [Mode::Max, Mode::Add, Mode::FF].map(|m| RelaxationHeuristic::new(&t, m));
            for (s, perfect) in perfect_costs(&t) {
                let [max, add, ff] = [0, 1, 2].map(|i| hs[i].evaluate(s.bits()));
                assert_eq!(max.is_some(), add.is_some());
                assert_eq!(max.is_some(), ff.is_some());
                match max {
                    Some(max) => assert!(perfect.is_none_or(|p| max <= p), "{t:?} {s:?}"),
                    None => assert_eq!(perfect, None, "dead end with a plan: {t:?} {s:?}"),
                }
                for &o in hs[2].preferred_operators() {
                    assert!(t.operators[o as usize].is_applicable(s.bits()));
                }
            }
        }
    }

    #[test]
    fn random_tasks_agree_with_fixpoint_and_bound_ff() {
        let mut rng = Lcg::new(7);
        for _ in 0..200 {
            let t = random_task(&mut rng, 6, 8);
            let mut hmax = RelaxationHeuristic::new(&t, Mode::Max);
            let mut hadd = RelaxationHeuristic::new(&t, Mode::Add);
            let mut hff = RelaxationHeuristic::new(&t, Mode::FF);
            for (s, perfect) in perfect_costs(&t) {
                let facts: Vec<FactId> = s.bits().iter_ones().map(|f| f as FactId).collect();
                let max = hmax.evaluate(s.bits());
                let add = hadd.evaluate(s.bits());
                let ff = hff.evaluate(s.bits());
                assert_eq!(max, naive(&t, &facts, Combine::Max), "{t:?} {facts:?}");
                assert_eq!(add, naive(&t, &facts, Combine::Sum), "{t:?} {facts:?}");
                assert_eq!(ff.is_some(), max.is_some());
                if let (Some(max), Some(add), Some(ff)) = (max, add, ff) {
                    assert!(max <= ff && ff <= add, "{max} {ff} {add} {t:?} {facts:?}");
                    assert!(perfect.is_none_or(|p| max <= p));
                } else {
                    assert_eq!(perfect, None, "dead end with a plan: {t:?} {facts:?}");
                }
                for &o in hff.preferred_operators() {
                    assert!(t.operators[o as usize].is_applicable(s.bits()));
                }
            }
        }
    }
}
