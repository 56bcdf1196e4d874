//! The landmark-count heuristic (as in LAMA): how many landmarks of the
//! task's landmark graph ([`super::landmarks`]) the path to a state has not
//! reached yet, plus those it reached that are needed again.
//!
//! It is path-dependent. Each search node carries the set of landmarks its
//! path reached, as a bitset per state id. A state reaches every landmark
//! true in it whose ordered predecessors are all reached, by the path
//! before it or in the state itself (taken in topological order: one
//! operator may add a landmark and its natural predecessor together), and
//! keeps those its parent reached. So the initial state does not reach a
//! landmark true in it that a landmark not true yet is reasonably ordered
//! before: a goal that must be destroyed and achieved again counts from the
//! start. A state reached again by another path keeps only the
//! landmarks both paths reached (the intersection). Greedy-necessary and
//! natural orderings hold on every path, so they never hold back a landmark
//! that a path made true, and every landmark is reached in a goal state;
//! reasonable ones do hold landmarks back, which is their purpose: a
//! landmark reached "too early" counts as not reached.
//!
//! h = the landmarks not reached, plus the reached ones needed again: goal
//! facts that are false now, and landmarks false now that must hold right
//! before (greedy-necessarily) a landmark not yet reached. Negative goals
//! that hold add theirs too. Each counts its *cost*: the cheapest cost among
//! the operators that achieve it (add a fact of the landmark; delete the
//! negative goal), or the cheapest operator cost at all when none does. The
//! costs are the ones the heuristic is built on, so `--cost-type` applies:
//! with `one` h is the number of landmarks, as in LAMA's first iteration;
//! with `plusone` (LAMA's later iterations) cheap landmarks still count at
//! least 1, so h is 0 in no state that is not a goal; with the task's own
//! costs a landmark achieved by a zero-cost operator counts 0. The value is
//! not admissible whatever the costs (a reached landmark needed again, or one
//! operator achieving several landmarks, is counted more than once).
//! A derived landmark is made true by rules, which no operator stands for:
//! it counts the cheapest operator cost, and never makes a dead end by
//! having no achiever.
//!
//! Dead ends, without an exploration of the relaxation per state (that costs
//! as much as h_FF and made the search several times slower): a state is
//! one when a landmark not reached, or a goal fact false now, has no
//! achiever at all. When the preferred operators need the relaxed
//! exploration anyway (below) and it runs to its end without reaching an
//! interesting landmark, a false goal fact it does not reach makes a dead
//! end too. Unreachable landmarks other than goals add nothing sound:
//! a landmark found by backchaining is needed for the goal in the
//! relaxation, so if the path never made it true and it is unreachable now,
//! the goal is unreachable too; and a landmark counted as not reached may
//! have been true earlier on the path (held back by a reasonable ordering),
//! so its unreachability alone proves nothing.
//!
//! Preferred operators: the applicable operators that achieve an
//! *interesting* landmark in the state at hand (with conditional effects,
//! one whose effect on the landmark fires there), one not reached whose predecessors are all
//! reached (achieving it is progress the count sees; LAMA makes the same
//! restriction), or, when every landmark is reached, one needed again.
//! When none applies, the applicable operators of a relaxed plan to the
//! nearest interesting landmark (the first the breadth-first relaxed
//! exploration reaches; it stops there); when no landmark is left but negative goals hold,
//! the applicable operators that delete one.

use super::landmarks::reach::RelaxedReach;
use super::landmarks::{LandmarkGraph, LandmarkId, OrderingKind};
use super::unary::{NO_OP, RelaxedOpId, RelaxedTask};
use super::{BuildContext, Estimate, Heuristic, HeuristicKind};
use crate::task::registry::StateId;
use crate::task::state::StateBits;
use crate::task::{CondEffect, FactId, OpId, Task};

pub static LM_COUNT: HeuristicKind = HeuristicKind {
    name: "lmcount",
    also_named: &["landmark_sum"],
    help: "landmark count: landmarks (RHW graph) the path has not reached or needs again",
    admissible: false,
    preferred_operators: true,
    negative_goals: true,
    // Conditional effects and the rules of derived facts are relaxed
    // operators like any other (rules of cost zero), so the landmarks
    // backchained over them hold.
    conditional_effects: true,
    axioms: true,
    build: |task: &Task, _: &BuildContext| Box::new(LandmarkCount::new(task)),
};

pub struct LandmarkCount {
    graph: LandmarkGraph,
    relaxed: RelaxedTask,
    reach: RelaxedReach,
    goal: Vec<FactId>,
    goal_neg: Vec<FactId>,
    /// Per operator, what applicability needs.
    pre: Vec<Vec<FactId>>,
    pre_neg: Vec<Vec<FactId>>,
    /// Per operator, when the task has conditional effects: its adds,
    /// deletes and conditional effects. An achiever of a landmark may make
    /// it true only where an effect's conditions hold.
    effects: Vec<Effects>,
    /// Operators that delete a negative goal.
    neg_goal_deleters: Vec<OpId>,
    /// What each landmark counts while not reached or needed again, and
    /// each negative goal while it holds (in the order of `goal_neg`).
    landmark_cost: Vec<u64>,
    neg_goal_cost: Vec<u64>,
    /// `u64` words per landmark set.
    words: usize,
    /// The reached landmarks of every notified state, `words` per state id.
    reached: Vec<u64>,
    known: Vec<bool>,
    /// Landmark sets being computed or read (`words` each).
    scratch: Vec<u64>,
    before: Vec<u64>,
    /// The true facts of the state evaluated.
    true_facts: Vec<FactId>,
    /// Landmarks the last evaluation found interesting, or needed again.
    interesting: Vec<LandmarkId>,
    needed_again: Vec<LandmarkId>,
    is_target: Vec<bool>,
    /// Marks on operators (task or relaxed ones), cleared after each use.
    op_marked: Vec<bool>,
    stack: Vec<FactId>,
    preferred: Vec<OpId>,
}

/// An operator's adds, deletes and conditional effects.
struct Effects {
    add: Vec<FactId>,
    del: Vec<FactId>,
    conditional: Vec<CondEffect>,
}

fn bit(set: &[u64], i: LandmarkId) -> bool {
    set[i as usize / 64] >> (i % 64) & 1 == 1
}

impl LandmarkCount {
    pub fn new(task: &Task) -> Self {
        let graph = LandmarkGraph::build(task);
        let relaxed = RelaxedTask::new(task);
        let words = graph.len().div_ceil(64).max(1);
        let neg_goal_deleters = (0..task.num_operators() as OpId)
            .filter(|&o| {
                let del = &task.operators[o as usize].del;
                task.goal_neg.iter().any(|f| del.binary_search(f).is_ok())
            })
            .collect();
        let cheapest_op = task.operators.iter().map(|o| o.cost as u64).min().unwrap_or(0);
        let cheapest = |ops: &mut dyn Iterator<Item = OpId>| {
            ops.map(|o| task.operators[o as usize].cost as u64)
                .min()
                .unwrap_or(cheapest_op)
        };
        let landmark_cost = graph
            .landmarks()
            .iter()
            .map(|lm| cheapest(&mut lm.achievers.iter().copied()))
            .collect();
        let neg_goal_cost = task
            .goal_neg
            .iter()
            .map(|f| {
                let deletes = |&o: &OpId| task.operators[o as usize].del.binary_search(f).is_ok();
                cheapest(&mut (0..task.num_operators() as OpId).filter(deletes))
            })
            .collect();
        LandmarkCount {
            landmark_cost,
            neg_goal_cost,
            reach: RelaxedReach::new(&relaxed),
            op_marked: vec![false; relaxed.num_ops().max(task.num_operators())],
            is_target: vec![false; graph.len()],
            graph,
            relaxed,
            goal: task.goal.clone(),
            goal_neg: task.goal_neg.clone(),
            pre: task.operators.iter().map(|o| o.pre.clone()).collect(),
            pre_neg: task.operators.iter().map(|o| o.pre_neg.clone()).collect(),
            effects: match task.has_conditional_effects() {
                true => (task.operators.iter())
                    .map(|o| Effects {
                        add: o.add.clone(),
                        del: o.del.clone(),
                        conditional: o.cond_effects.clone(),
                    })
                    .collect(),
                false => Vec::new(),
            },
            neg_goal_deleters,
            words,
            reached: Vec::new(),
            known: Vec::new(),
            scratch: vec![0; words],
            before: vec![0; words],
            true_facts: Vec::new(),
            interesting: Vec::new(),
            needed_again: Vec::new(),
            stack: Vec::new(),
            preferred: Vec::new(),
        }
    }

    pub fn graph(&self) -> &LandmarkGraph {
        &self.graph
    }

    /// The landmarks reached on the way to state `id`, if notified.
    pub fn reached_of(&self, id: StateId) -> Option<Vec<LandmarkId>> {
        let set = self.set_of(id)?;
        Some((0..self.graph.len() as LandmarkId).filter(|&i| bit(set, i)).collect())
    }

    fn set_of(&self, id: StateId) -> Option<&[u64]> {
        let i = id as usize;
        (self.known.get(i) == Some(&true)).then(|| &self.reached[i * self.words..(i + 1) * self.words])
    }

    fn holds(&self, id: LandmarkId, state: &StateBits) -> bool {
        self.graph.landmarks()[id as usize].holds(state)
    }

    /// Writes into `out` what a path reaches in `state`: with `before`, the
    /// set of the previous state, without, nothing (a path that starts
    /// there), plus the landmarks true in `state` whose predecessors are all
    /// in the result.
    fn reach_in(&self, before: Option<&[u64]>, state: &StateBits, out: &mut [u64]) {
        match before {
            Some(before) => out.copy_from_slice(before),
            None => out.fill(0),
        }
        for &i in self.graph.topological_order() {
            if !bit(out, i) && self.holds(i, state) && self.graph.parents(i).all(|o| bit(out, o.from)) {
                out[i as usize / 64] |= 1 << (i % 64);
            }
        }
    }

    /// Stores `set` for state `id`, or intersects it with what is stored.
    fn store(&mut self, id: StateId, set: &[u64]) {
        let i = id as usize;
        if self.known.len() <= i {
            self.known.resize(i + 1, false);
            self.reached.resize((i + 1) * self.words, 0);
        }
        let slot = &mut self.reached[i * self.words..(i + 1) * self.words];
        if self.known[i] {
            for (w, s) in slot.iter_mut().zip(set) {
                *w &= s;
            }
        } else {
            slot.copy_from_slice(set);
            self.known[i] = true;
        }
    }

    /// The estimate for `state` whose path reached `set`; notes the
    /// interesting landmarks and collects the preferred operators.
    fn estimate(&mut self, set: &[u64], state: &StateBits) -> Estimate {
        self.interesting.clear();
        self.needed_again.clear();
        self.preferred.clear();
        let mut h = 0u64;
        for i in 0..self.graph.len() as LandmarkId {
            let lm = &self.graph.landmarks()[i as usize];
            if !bit(set, i) {
                // One true initially and held back by a reasonable ordering
                // may not be needed again.
                if lm.has_no_achiever() && !self.holds(i, state) && (lm.is_goal || !lm.true_initially) {
                    return None;
                }
                h += self.landmark_cost[i as usize];
                if self.graph.parents(i).all(|o| bit(set, o.from)) {
                    self.interesting.push(i);
                }
            } else if !self.holds(i, state) && self.needed_again(set, i) {
                if lm.is_goal && lm.has_no_achiever() {
                    return None;
                }
                h += self.landmark_cost[i as usize];
                self.needed_again.push(i);
            }
        }
        for (k, &f) in self.goal_neg.iter().enumerate() {
            if state[f as usize] {
                h += self.neg_goal_cost[k];
            }
        }
        if !self.collect_preferred(state) {
            return None;
        }
        Some(h)
    }

    /// A reached landmark, false now, that must be achieved again.
    fn needed_again(&self, set: &[u64], i: LandmarkId) -> bool {
        self.graph.landmarks()[i as usize].is_goal
            || self
                .graph
                .children(i)
                .any(|o| o.kind == OrderingKind::GreedyNecessary && !bit(set, o.to))
    }

    fn applicable(&self, op: OpId, state: &StateBits) -> bool {
        self.pre[op as usize].iter().all(|&f| state[f as usize])
            && !self.pre_neg[op as usize].iter().any(|&f| state[f as usize])
    }

    /// `op`, applicable in `state`, makes landmark `i` true there: always
    /// without conditional effects (an achiever adds a fact of it, or
    /// deletes the fact of a negated one), otherwise only by the effects
    /// whose conditions hold.
    fn achieves(&self, op: OpId, i: LandmarkId, state: &StateBits) -> bool {
        let Some(effects) = self.effects.get(op as usize) else {
            return true;
        };
        let lm = &self.graph.landmarks()[i as usize];
        let hits = |f: &FactId| lm.facts.binary_search(f).is_ok();
        let mut firing = effects.conditional.iter().filter(|c| c.holds_in(state));
        match lm.negated {
            true => effects.del.iter().any(hits) || firing.any(|c| c.del.iter().any(hits)),
            false => effects.add.iter().any(hits) || firing.any(|c| c.add.iter().any(hits)),
        }
    }

    /// Collects the preferred operators; false when the relaxed exploration
    /// this needed proved the state a dead end.
    fn collect_preferred(&mut self, state: &StateBits) -> bool {
        let targets = if self.interesting.is_empty() {
            std::mem::take(&mut self.needed_again)
        } else {
            std::mem::take(&mut self.interesting)
        };
        for &i in &targets {
            for &op in &self.graph.landmarks()[i as usize].achievers {
                if !self.op_marked[op as usize] && self.applicable(op, state) && self.achieves(op, i, state) {
                    self.op_marked[op as usize] = true;
                    self.preferred.push(op);
                }
            }
        }
        for &op in &self.preferred {
            self.op_marked[op as usize] = false;
        }
        if self.preferred.is_empty() {
            if targets.is_empty() {
                for k in 0..self.neg_goal_deleters.len() {
                    let op = self.neg_goal_deleters[k];
                    if self.applicable(op, state) {
                        self.preferred.push(op);
                    }
                }
            } else if !self.relaxed_plan_to_nearest(&targets, state) {
                self.interesting = targets;
                return false;
            }
        }
        self.interesting = targets;
        true
    }

    /// Prefers the applicable operators of a relaxed plan to the target
    /// landmark fact that a breadth-first relaxed exploration reaches first
    /// (it stops there). False when no target is reached and neither is
    /// some goal fact: the state is a dead end.
    fn relaxed_plan_to_nearest(&mut self, targets: &[LandmarkId], state: &StateBits) -> bool {
        for &i in targets {
            self.is_target[i as usize] = true;
        }
        self.true_facts.clear();
        self.true_facts.extend(self.relaxed.state_facts(state));
        let (graph, is_target) = (&self.graph, &self.is_target);
        let nearest = self.reach.run_until(
            &self.relaxed,
            self.true_facts.iter().copied(),
            &[],
            |f| graph.landmark_of(f).is_some_and(|l| is_target[l as usize]),
        );
        for &i in targets {
            self.is_target[i as usize] = false;
        }
        let Some(nearest) = nearest else {
            // The exploration went to its end.
            return self.goal.iter().all(|&g| self.reach.reached[g as usize]);
        };
        let mut plan: Vec<RelaxedOpId> = Vec::new();
        self.stack.clear();
        self.stack.push(nearest);
        while let Some(f) = self.stack.pop() {
            let o = self.reach.supporter[f as usize];
            if o == NO_OP || self.op_marked[o as usize] {
                continue;
            }
            self.op_marked[o as usize] = true;
            plan.push(o);
            self.stack.extend_from_slice(self.relaxed.pre(o));
        }
        for &o in &plan {
            self.op_marked[o as usize] = false;
            let op = self.relaxed.original(o);
            // A conditional effect's relaxed operator also needs the
            // effect's conditions.
            let fires = || self.relaxed.pre(o).iter().all(|&p| self.relaxed.holds(p, state));
            if op != NO_OP && self.applicable(op, state) && fires() {
                self.preferred.push(op);
            }
        }
        self.preferred.sort_unstable();
        self.preferred.dedup();
        true
    }
}

impl Heuristic for LandmarkCount {
    fn name(&self) -> &str {
        LM_COUNT.name
    }

    /// The estimate of a search that starts in `state`.
    fn evaluate(&mut self, state: &StateBits) -> Estimate {
        let mut set = std::mem::take(&mut self.scratch);
        self.reach_in(None, state, &mut set);
        let h = self.estimate(&set, state);
        self.scratch = set;
        h
    }

    fn preferred_operators(&self) -> &[OpId] {
        &self.preferred
    }

    fn is_admissible(&self) -> bool {
        LM_COUNT.admissible
    }

    fn is_path_dependent(&self) -> bool {
        true
    }

    fn notify_initial(&mut self, id: StateId, state: &StateBits) {
        let mut set = std::mem::take(&mut self.scratch);
        self.reach_in(None, state, &mut set);
        self.store(id, &set);
        self.scratch = set;
    }

    fn notify_transition(
        &mut self,
        parent: StateId,
        parent_state: &StateBits,
        _op: OpId,
        child: StateId,
        child_state: &StateBits,
    ) {
        if self.set_of(parent).is_none() {
            // Not notified (the search started elsewhere): the parent's path
            // starts at the parent.
            self.notify_initial(parent, parent_state);
        }
        let mut before = std::mem::take(&mut self.before);
        before.copy_from_slice(self.set_of(parent).expect("stored above"));
        let mut set = std::mem::take(&mut self.scratch);
        self.reach_in(Some(&before), child_state, &mut set);
        self.store(child, &set);
        self.scratch = set;
        self.before = before;
    }

    fn evaluate_node(&mut self, id: StateId, state: &StateBits) -> Estimate {
        let mut set = std::mem::take(&mut self.before);
        match self.set_of(id) {
            Some(stored) => set.copy_from_slice(stored),
            None => self.reach_in(None, state, &mut set),
        }
        let h = self.estimate(&set, state);
        self.before = set;
        h
    }

    fn build_report(&self) -> Option<String> {
        Some(self.graph.summary())
    }
}

#[cfg(test)]
mod tests;
