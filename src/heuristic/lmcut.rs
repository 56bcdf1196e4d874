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
//!
//! A conditional effect is a relaxed operator of its own
//! ([`super::unary`]), and a cut may meet several of one task operator. The
//! cut still says that every relaxed plan applies one of its task
//! operators, so the cut's cost is taken once from each task operator: its
//! relaxed operators share one cost, and the cuts together take no more
//! than that from it. The sum may then fall below h_max; the estimate is
//! the larger of the two.

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
    conditional_effects: true,
    axioms: false,
    build: |task: &Task, _: &BuildContext| Box::new(LmCut::new(task)),
};

pub struct LmCut {
    relaxed: RelaxedTask,
    exploration: Exploration,
    /// Operator costs left after the cuts so far.
    costs: Vec<u64>,
    /// Marks of the current round are `round`, so that no array is cleared
    /// between rounds: per fact, in the goal zone; per operator, has an
    /// effect in the goal zone; per fact, reached by the cut search.
    round: u32,
    in_goal_zone: Vec<u32>,
    enters_goal_zone: Vec<u32>,
    reached: Vec<u32>,
    cut: Vec<RelaxedOpId>,
    stack: Vec<FactId>,
    /// Per relaxed operator, its group in `sibling_groups` when its task
    /// operator has more than one relaxed operator (conditional effects):
    /// the relaxed operators of one task operator, which share one cost.
    siblings: Vec<Option<u32>>,
    sibling_groups: Vec<Vec<RelaxedOpId>>,
    /// Per sibling group, the round it was last charged in.
    charged: Vec<u32>,
    /// Relaxed operators whose cost the last cut lowered.
    lowered: Vec<RelaxedOpId>,
}

impl LmCut {
    pub fn new(task: &Task) -> Self {
        let relaxed = RelaxedTask::new(task);
        let mut by_original: Vec<Vec<RelaxedOpId>> = vec![Vec::new(); task.num_operators()];
        for o in 0..relaxed.num_ops() as RelaxedOpId {
            if let Some(list) = by_original.get_mut(relaxed.original(o) as usize) {
                list.push(o);
            }
        }
        let sibling_groups: Vec<Vec<RelaxedOpId>> = by_original.into_iter().filter(|l| l.len() > 1).collect();
        let mut siblings = vec![None; relaxed.num_ops()];
        for (g, members) in sibling_groups.iter().enumerate() {
            for &o in members {
                siblings[o as usize] = Some(g as u32);
            }
        }
        LmCut {
            charged: vec![0; sibling_groups.len()],
            siblings,
            sibling_groups,
            lowered: Vec::new(),
            exploration: Exploration::with_triggered(&relaxed),
            costs: relaxed.costs().to_vec(),
            round: 0,
            in_goal_zone: vec![0; relaxed.num_facts()],
            enters_goal_zone: vec![0; relaxed.num_ops()],
            reached: vec![0; relaxed.num_facts()],
            cut: Vec::new(),
            stack: Vec::new(),
            relaxed,
        }
    }

    /// Starts a round: the marks of earlier rounds no longer count.
    fn next_round(&mut self) {
        self.round = self.round.wrapping_add(1);
        if self.round == 0 {
            self.in_goal_zone.fill(0);
            self.enters_goal_zone.fill(0);
            self.reached.fill(0);
            self.charged.fill(0);
            self.round = 1;
        }
    }

    /// Marks the goal zone: facts that reach the goal fact backwards over
    /// zero-cost operators through their triggers; and the operators with
    /// an effect in it, which are the achievers of its facts.
    fn mark_goal_zone(&mut self) {
        let rt = &self.relaxed;
        let round = self.round;
        self.stack.clear();
        self.stack.push(rt.goal_fact);
        self.in_goal_zone[rt.goal_fact as usize] = round;
        while let Some(f) = self.stack.pop() {
            for &o in rt.achievers(f) {
                self.enters_goal_zone[o as usize] = round;
                let t = self.exploration.trigger(o);
                if t != NO_FACT && self.costs[o as usize] == 0 && self.in_goal_zone[t as usize] != round {
                    self.in_goal_zone[t as usize] = round;
                    self.stack.push(t);
                }
            }
        }
    }

    /// Collects the cut: operators fired by a fact reachable from the state
    /// outside the goal zone that have an effect in the goal zone. Facts are
    /// reached only through operators outside the cut.
    fn find_cut(&mut self) {
        let rt = &self.relaxed;
        let round = self.round;
        self.cut.clear();
        self.stack.clear();
        for &f in self.exploration.seeds() {
            self.reached[f as usize] = round;
            self.stack.push(f);
        }
        while let Some(f) = self.stack.pop() {
            // Each fact is taken once and each operator has one trigger, so
            // an operator is seen at most once. In ascending order, as a
            // filter of `ops_with_pre(f)` gives them, so that the cut's order,
            // which `lower_costs_max` sees, is the one of the plain search.
            for &o in self.exploration.triggered_by(f) {
                if self.enters_goal_zone[o as usize] == round {
                    self.cut.push(o);
                    // Its other effects are not reached through it: every
                    // relaxed plan still uses a cut operator (the first one
                    // that enters the goal zone), and the cut is smaller.
                    continue;
                }
                for &e in rt.effects(o) {
                    if self.reached[e as usize] != round {
                        self.reached[e as usize] = round;
                        self.stack.push(e);
                    }
                }
            }
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
        let hmax = self.exploration.fact_cost[goal];
        let mut estimate = 0u64;
        while self.exploration.fact_cost[goal] > 0 {
            self.next_round();
            self.mark_goal_zone();
            self.find_cut();
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
            // A task operator is charged once per cut, however many of its
            // effects the cut meets: every relaxed plan applies some task
            // operator of the cut, and the cuts together take no more than
            // its cost from it.
            self.lowered.clear();
            for &o in &self.cut {
                match self.siblings[o as usize] {
                    None => self.lowered.push(o),
                    Some(g) if self.charged[g as usize] != self.round => {
                        self.charged[g as usize] = self.round;
                        self.lowered.extend(&self.sibling_groups[g as usize]);
                    }
                    Some(_) => {}
                }
            }
            for &o in &self.lowered {
                self.costs[o as usize] -= cut_cost;
            }
            self.exploration.lower_costs_max(&self.relaxed, &self.costs, &self.lowered);
        }
        // Lowering a task operator's relaxed operators outside the cut may
        // lower h_max by more than the cut's cost: the sum can then fall
        // below h_max, which is admissible too.
        Some(estimate.max(hmax))
    }

    fn is_admissible(&self) -> bool {
        LM_CUT.admissible
    }
}

#[cfg(test)]
mod tests {
    use super::super::relax::{Mode, RelaxationHeuristic};
    use super::super::unary::RelaxedTask;
    use super::*;
    use crate::rng::Lcg;
    use crate::task::testing::{OpSpec, cond, perfect_costs, random_conditional_task, random_task, state, task};

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

    /// LM-cut as first written, with nothing kept between the searches of a
    /// round: the cut search walks every operator with the fact as a
    /// precondition and keeps those the fact triggers.
    fn reference_lmcut(t: &Task, s: &StateBits) -> Estimate {
        let rt = RelaxedTask::new(t);
        let mut ex = Exploration::new(&rt);
        let mut costs = rt.costs().to_vec();
        let goal = rt.goal_fact;
        ex.run(&rt, s, &costs, Combine::Max, false);
        if ex.fact_cost[goal as usize] == UNREACHED {
            return None;
        }
        let mut h = 0;
        while ex.fact_cost[goal as usize] > 0 {
            let mut zone = vec![false; rt.num_facts()];
            zone[goal as usize] = true;
            let mut stack = vec![goal];
            while let Some(f) = stack.pop() {
                for &o in rt.achievers(f) {
                    let t = ex.trigger(o);
                    if t != NO_FACT && costs[o as usize] == 0 && !zone[t as usize] {
                        zone[t as usize] = true;
                        stack.push(t);
                    }
                }
            }
            let mut reached = vec![false; rt.num_facts()];
            let mut stack: Vec<FactId> = rt.state_facts(s).collect();
            stack.iter().for_each(|&f| reached[f as usize] = true);
            let mut cut = Vec::new();
            while let Some(f) = stack.pop() {
                for &o in rt.ops_with_pre(f) {
                    if ex.trigger(o) != f {
                        continue;
                    }
                    if rt.effects(o).iter().any(|&e| zone[e as usize]) {
                        if !cut.contains(&o) {
                            cut.push(o);
                        }
                        continue;
                    }
                    for &e in rt.effects(o) {
                        if !std::mem::replace(&mut reached[e as usize], true) {
                            stack.push(e);
                        }
                    }
                }
            }
            let c = cut.iter().map(|&o| costs[o as usize]).min().unwrap();
            assert!(c > 0);
            h += c;
            cut.iter().for_each(|&o| costs[o as usize] -= c);
            ex.lower_costs_max(&rt, &costs, &cut);
        }
        Some(h)
    }

    /// The lists and marks kept between rounds and evaluations change no
    /// value: one heuristic evaluated on many random states in a row gives
    /// what the plain algorithm gives from scratch, ties broken alike.
    #[test]
    fn values_equal_a_from_scratch_computation() {
        let mut rng = Lcg::new(23);
        let mut above_hmax = 0;
        for i in 0..300 {
            let (n, ops) = [(6, 8), (8, 14), (10, 20)][i % 3];
            let t = random_task(&mut rng, n, ops);
            let mut lm = LmCut::new(&t);
            if i % 2 == 0 {
                // The round counter wraps around during these evaluations.
                lm.round = u32::MAX - 30;
            }
            let mut hm = RelaxationHeuristic::new(&t, Mode::Max);
            for _ in 0..20 {
                let facts: Vec<FactId> = (0..n as FactId).filter(|_| rng.below(2) == 0).collect();
                let s = state(n, &facts);
                let h = lm.evaluate(s.bits());
                assert_eq!(h, reference_lmcut(&t, s.bits()), "{t:?} {facts:?}");
                above_hmax += usize::from(h > hm.evaluate(s.bits()));
            }
        }
        assert!(above_hmax > 100, "{above_hmax}");
    }

    #[test]
    fn random_tasks_lie_between_hmax_and_perfect() {
        let mut rng = Lcg::new(11);
        let tasks: Vec<Task> = (0..300).map(|_| random_task(&mut rng, 6, 8)).collect();
        // The random tasks do exercise more than one cut.
        assert!(between_hmax_and_perfect(&tasks) > 0);
    }

    /// With conditional effects too (a cut may meet several relaxed
    /// operators of one task operator, which pays once).
    #[test]
    fn random_conditional_tasks_lie_between_hmax_and_perfect() {
        let mut rng = Lcg::new(12);
        let tasks: Vec<Task> = (0..300).map(|_| random_conditional_task(&mut rng, 6, 8)).collect();
        assert!(between_hmax_and_perfect(&tasks) > 0);
    }

    /// Checks h_max <= LM-cut <= h* on every reachable state of each task;
    /// the number of states where LM-cut is above h_max.
    fn between_hmax_and_perfect(tasks: &[Task]) -> usize {
        let mut above_hmax = 0;
        for t in tasks {
            let mut lm = LmCut::new(t);
            let mut hm = RelaxationHeuristic::new(t, Mode::Max);
            for (s, perfect) in perfect_costs(t) {
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
        above_hmax
    }

    #[test]
    fn an_operator_with_several_conditional_goal_effects_is_charged_once() {
        // op0 (cost 1) needs a; when a it adds g1, when a it adds g2; op1
        // (cost 1) adds g1 alone. h* = 1: both cuts meet op0, which pays once.
        let ops: [OpSpec; 2] = [(&[0], &[], &[], &[], 1), (&[0], &[], &[1], &[], 1)];
        let mut t = task(3, &ops, &[0], &[1, 2], &[]);
        t.operators[0].cond_effects = vec![cond(&[0], &[], &[1], &[]), cond(&[0], &[], &[2], &[])];
        assert_eq!(lmcut(&t, &[0]), Some(1));
        assert_eq!(hmax(&t, &[0]), Some(1));
    }
}
