//! The delete relaxation of a task, shared by h_max, h_add, h_FF and LM-cut.
//!
//! Each task operator becomes one relaxed operator holding its preconditions
//! and all its add effects (delete effects are dropped by the relaxation).
//! This is equivalent to one unary operator per add effect that share a
//! single precondition counter, and it lets LM-cut charge an operator's cost
//! once even when a cut meets it through several of its effects.
//!
//! A conditional effect becomes one more relaxed operator of its task
//! operator (same cost), whose preconditions are the operator's and the
//! effect's condition. A derived-predicate rule becomes a zero-cost relaxed
//! operator that stands for no task operator.
//!
//! Negative conditions are compiled into positive ones, so that the
//! relaxation sees them: every task fact `f` that some condition needs false
//! gets a relaxed proposition "not f", true in the states where `f` is false,
//! added by every operator (or conditional effect) that deletes `f` without
//! adding it back, and for derived facts reached by rules of its own
//! ([`super::negated`]). Without it a goal `(not f)` would cost nothing to
//! reach, and h_FF would be 0 in states that are not goals. Each relaxed
//! operator applies in a superset of the states where the real one does, so
//! h_max and LM-cut stay admissible.
//!
//! Two artificial facts complete the picture: `true_fact`, which holds in
//! every state and is the precondition of operators that have none (so every
//! operator has a precondition that triggers it), and `goal_fact`, the single
//! effect of an artificial zero-cost goal operator whose preconditions are
//! the goal facts. The relaxed goal is reached when `goal_fact` is.
//!
//! Relaxed fact ids: the task's facts first (same ids), then `true_fact`,
//! `goal_fact`, then the "not f" propositions in the order of `f`.

use super::negated::Negations;
use crate::task::state::StateBits;
use crate::task::{FactId, OpId, Task};

/// Marks "no operator": the supporter of a fact true in the state, or the
/// task operator behind the artificial goal operator.
pub const NO_OP: u32 = u32::MAX;

/// Marks "no fact", e.g. the trigger of an operator not (yet) reached.
pub const NO_FACT: u32 = u32::MAX;

/// Index of a relaxed operator in [`RelaxedTask`].
pub type RelaxedOpId = u32;

pub struct RelaxedTask {
    /// Task facts, the two artificial ones and the negations.
    num_facts: usize,
    num_task_facts: usize,
    pub true_fact: FactId,
    pub goal_fact: FactId,
    pub goal_op: RelaxedOpId,
    /// Per relaxed operator: the task operator it relaxes (`NO_OP` for the
    /// goal operator and for rules).
    original: Vec<OpId>,
    /// Per relaxed operator: its cost in the task.
    cost: Vec<u64>,
    /// Per relaxed operator `o`, its preconditions are `pre[pre_start[o]..pre_start[o + 1]]`.
    pre_start: Vec<u32>,
    pre: Vec<FactId>,
    eff_start: Vec<u32>,
    eff: Vec<FactId>,
    /// The "not f" propositions.
    negations: Negations,
    /// Per fact `f`, the operators with `f` as a precondition.
    pre_of_start: Vec<u32>,
    pre_of: Vec<RelaxedOpId>,
    /// Per fact `f`, the operators with `f` as an effect.
    achievers_start: Vec<u32>,
    achievers: Vec<RelaxedOpId>,
}

impl RelaxedTask {
    pub fn new(task: &Task) -> Self {
        let num_task_facts = task.num_facts();
        let true_fact = num_task_facts as FactId;
        let goal_fact = true_fact + 1;
        let negations = Negations::new(task, goal_fact + 1);
        let mut rt = RelaxedTask {
            num_facts: num_task_facts + 2 + negations.num_facts(),
            num_task_facts,
            true_fact,
            goal_fact,
            goal_op: 0,
            original: Vec::new(),
            cost: Vec::new(),
            pre_start: vec![0],
            pre: Vec::new(),
            eff_start: vec![0],
            eff: Vec::new(),
            negations,
            pre_of_start: Vec::new(),
            pre_of: Vec::new(),
            achievers_start: Vec::new(),
            achievers: Vec::new(),
        };
        let mut effects = Vec::new();
        for (id, op) in task.operators.iter().enumerate() {
            crate::limits::checkpoint();
            let pre = rt.negations.condition(&op.pre, &op.pre_neg);
            effects.clear();
            effects.extend_from_slice(&op.add);
            rt.push_negations_deleted(&op.del, &[&op.add, &op.pre_neg], &mut effects);
            rt.push_relaxed(&pre, &effects, id as OpId, op.cost as u64);
            for e in &op.cond_effects {
                let pos: Vec<FactId> = op.pre.iter().chain(&e.pre).copied().collect();
                let neg: Vec<FactId> = op.pre_neg.iter().chain(&e.pre_neg).copied().collect();
                let pre = rt.negations.condition(&pos, &neg);
                effects.clear();
                effects.extend_from_slice(&e.add);
                rt.push_negations_deleted(&e.del, &[&op.add, &e.add, &neg], &mut effects);
                rt.push_relaxed(&pre, &effects, id as OpId, op.cost as u64);
            }
        }
        for a in &task.axioms {
            let pre = rt.negations.condition(&a.pre, &a.pre_neg);
            rt.push_relaxed(&pre, &[a.head], NO_OP, 0);
        }
        let rules = rt.negations.rules().to_vec();
        for (not_d, pre) in &rules {
            rt.push_relaxed(pre, &[*not_d], NO_OP, 0);
        }
        rt.goal_op = rt.original.len() as RelaxedOpId;
        rt.eff.push(goal_fact);
        rt.eff_start.push(rt.eff.len() as u32);
        let goal = rt.negations.condition(&task.goal, &task.goal_neg);
        rt.push_pre(&goal);
        rt.original.push(NO_OP);
        rt.cost.push(0);

        let (s, l) = rt.invert(|rt, o| rt.pre(o));
        rt.pre_of_start = s;
        rt.pre_of = l;
        let (s, l) = rt.invert(|rt, o| rt.effects(o));
        rt.achievers_start = s;
        rt.achievers = l;
        rt
    }

    /// Appends a relaxed operator unless none of its effects is new
    /// (`pre` sorted): an effect that is also a precondition never makes a
    /// fact newly true, so the relaxation does not need it.
    fn push_relaxed(&mut self, pre: &[FactId], effects: &[FactId], original: OpId, cost: u64) {
        let before = self.eff.len();
        self.eff
            .extend(effects.iter().filter(|f| pre.binary_search(f).is_err()));
        if self.eff.len() == before {
            return;
        }
        self.eff_start.push(self.eff.len() as u32);
        self.push_pre(pre);
        self.original.push(original);
        self.cost.push(cost);
    }

    /// Pushes the preconditions of the next operator, or `true_fact` when
    /// there are none.
    fn push_pre(&mut self, pre: &[FactId]) {
        if pre.is_empty() {
            self.pre.push(self.true_fact);
        } else {
            self.pre.extend_from_slice(pre);
        }
        self.pre_start.push(self.pre.len() as u32);
    }

    /// Appends to `effects` the negations of the facts in `del`: those that
    /// have one and are in none of the sorted lists of `unless` (facts added
    /// back, as adds win over deletes, or already needed false).
    fn push_negations_deleted(&self, del: &[FactId], unless: &[&[FactId]], effects: &mut Vec<FactId>) {
        for &f in del {
            if unless.iter().any(|list| list.contains(&f)) {
                continue;
            }
            if let Some(not_f) = self.negations.negation(f) {
                effects.push(not_f);
            }
        }
    }

    /// The proposition "not f", if some condition needs `f` false.
    pub fn negation(&self, f: FactId) -> Option<FactId> {
        self.negations.negation(f)
    }

    /// The task fact that `p` negates, if `p` is a "not f" proposition.
    pub fn negated(&self, p: FactId) -> Option<FactId> {
        self.negations.negated(p)
    }

    /// The relaxed facts true in `state`: its own facts, `true_fact`, and
    /// "not f" for every negated `f` it lacks. The relaxation starts from them.
    pub fn state_facts<'a>(&'a self, state: &'a StateBits) -> impl Iterator<Item = FactId> + 'a {
        let negations = self
            .negations
            .iter()
            .filter(|&(_, f)| !state[f as usize])
            .map(|(not_f, _)| not_f);
        state
            .iter_ones()
            .map(|f| f as FactId)
            .chain(std::iter::once(self.true_fact))
            .chain(negations)
    }

    /// Whether the relaxed fact `p` holds in `state` (`goal_fact` never does).
    pub fn holds(&self, p: FactId, state: &StateBits) -> bool {
        if (p as usize) < self.num_task_facts {
            state[p as usize]
        } else if p == self.true_fact {
            true
        } else {
            self.negations.negated(p).is_some_and(|f| !state[f as usize])
        }
    }

    /// Builds the fact -> operators index of an operator -> facts relation.
    fn invert(&self, facts_of: impl Fn(&Self, RelaxedOpId) -> &[FactId]) -> (Vec<u32>, Vec<RelaxedOpId>) {
        let mut start = vec![0u32; self.num_facts + 1];
        for o in 0..self.num_ops() as RelaxedOpId {
            for &f in facts_of(self, o) {
                start[f as usize + 1] += 1;
            }
        }
        for i in 0..self.num_facts {
            start[i + 1] += start[i];
        }
        let mut fill = start.clone();
        let mut list = vec![0; start[self.num_facts] as usize];
        for o in 0..self.num_ops() as RelaxedOpId {
            for &f in facts_of(self, o) {
                list[fill[f as usize] as usize] = o;
                fill[f as usize] += 1;
            }
        }
        (start, list)
    }

    /// Number of relaxed facts: the task's, the two artificial ones and the negations.
    pub fn num_facts(&self) -> usize {
        self.num_facts
    }

    /// Number of facts of the task (the artificial ones come after them).
    pub fn num_task_facts(&self) -> usize {
        self.num_task_facts
    }

    /// Number of relaxed operators including the goal operator.
    pub fn num_ops(&self) -> usize {
        self.original.len()
    }

    /// The task operator behind `o`, `NO_OP` for the goal operator and rules.
    pub fn original(&self, o: RelaxedOpId) -> OpId {
        self.original[o as usize]
    }

    /// Costs of the relaxed operators, indexed by [`RelaxedOpId`].
    pub fn costs(&self) -> &[u64] {
        &self.cost
    }

    /// Preconditions of `o` (negations included); never empty.
    pub fn pre(&self, o: RelaxedOpId) -> &[FactId] {
        &self.pre[self.pre_start[o as usize] as usize..self.pre_start[o as usize + 1] as usize]
    }

    /// Number of preconditions of `o` (at least 1).
    pub fn num_pre(&self, o: RelaxedOpId) -> u32 {
        self.pre_start[o as usize + 1] - self.pre_start[o as usize]
    }

    pub fn effects(&self, o: RelaxedOpId) -> &[FactId] {
        &self.eff[self.eff_start[o as usize] as usize..self.eff_start[o as usize + 1] as usize]
    }

    /// Operators with `f` as a precondition.
    pub fn ops_with_pre(&self, f: FactId) -> &[RelaxedOpId] {
        &self.pre_of[self.pre_of_start[f as usize] as usize..self.pre_of_start[f as usize + 1] as usize]
    }

    /// Operators with `f` as an effect.
    pub fn achievers(&self, f: FactId) -> &[RelaxedOpId] {
        &self.achievers[self.achievers_start[f as usize] as usize..self.achievers_start[f as usize + 1] as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::heuristic::Heuristic;
    use crate::heuristic::lmcut::LmCut;
    use crate::heuristic::relax::{Mode, RelaxationHeuristic};
    use crate::rng::Lcg;
    use crate::task::testing::{OpSpec, perfect_costs, random_task, state, task};

    /// One row of a table: a state, h_max, h_add, h_FF, LM-cut and the
    /// preferred operators of h_FF.
    type Row<'a> = (&'a [FactId], [u64; 4], &'a [OpId]);

    /// Checks every row, and that each row's state is one of the task's
    /// states with its perfect cost at least LM-cut's value.
    fn check_table(t: &Task, rows: &[Row]) {
        let mut heuristics = [
            RelaxationHeuristic::new(t, Mode::Max),
            RelaxationHeuristic::new(t, Mode::Add),
            RelaxationHeuristic::new(t, Mode::FF),
        ];
        let mut lmcut = LmCut::new(t);
        for &(facts, expected, preferred) in rows {
            let s = state(t.num_facts(), facts);
            let [hmax, hadd, hff] = heuristics.each_mut().map(|h| h.evaluate(s.bits()));
            let got = [hmax, hadd, hff, lmcut.evaluate(s.bits())];
            assert_eq!(got, expected.map(Some), "state {facts:?}");
            let mut p = heuristics[2].preferred_operators().to_vec();
            p.sort_unstable();
            assert_eq!(p, preferred, "preferred operators in {facts:?}");
        }
    }

    /// In every reachable state that is not a goal, the inadmissible
    /// estimates are above 0, and the admissible ones at most the perfect cost.
    fn check_reachable_states(t: &Task) {
        let mut hadd = RelaxationHeuristic::new(t, Mode::Add);
        let mut hff = RelaxationHeuristic::new(t, Mode::FF);
        let mut hmax = RelaxationHeuristic::new(t, Mode::Max);
        let mut lmcut = LmCut::new(t);
        for (s, perfect) in perfect_costs(t) {
            let s = s.bits();
            if !t.is_goal(s) {
                assert!(hadd.evaluate(s).unwrap() > 0, "h_add 0 in a non-goal state");
                assert!(hff.evaluate(s).unwrap() > 0, "h_FF 0 in a non-goal state");
            }
            let perfect = perfect.unwrap();
            assert!(hmax.evaluate(s).unwrap() <= perfect);
            assert!(lmcut.evaluate(s).unwrap() <= perfect);
        }
    }

    #[test]
    fn a_goal_of_negative_literals_only() {
        // Facts a (0), b (1), c (2); goal: not a, not b.
        // op0: a -> del a (2); op1: b, not c -> del b (1); op2: c -> del c (1).
        let ops: [OpSpec; 3] = [
            (&[0], &[], &[], &[0], 2),
            (&[1], &[2], &[], &[1], 1),
            (&[2], &[], &[], &[2], 1),
        ];
        let t = task(3, &ops, &[0, 1, 2], &[], &[0, 1]);
        // "not b" needs op1 after op2 when c holds; every row's LM-cut is h*.
        check_table(
            &t,
            &[
                (&[], [0, 0, 0, 0], &[]),
                (&[2], [0, 0, 0, 0], &[]),
                (&[1], [1, 1, 1, 1], &[1]),
                (&[1, 2], [2, 2, 2, 2], &[2]),
                (&[0], [2, 2, 2, 2], &[0]),
                (&[0, 2], [2, 2, 2, 2], &[0]),
                (&[0, 1], [2, 3, 3, 3], &[0, 1]),
                (&[0, 1, 2], [2, 4, 4, 4], &[0, 2]),
            ],
        );
        check_reachable_states(&t);
    }

    #[test]
    fn negative_preconditions_cost_what_makes_them_true() {
        // Facts open (0), in (1), key (2); goal: in, key.
        // op0 enter: open -> in (1); op1 open: key, not open -> open (1);
        // op2 close: open -> del open (1); op3 grab: not open -> key (2).
        // Ignoring "not open" would make the key cost 2 from any state.
        let ops: [OpSpec; 4] = [
            (&[0], &[], &[1], &[], 1),
            (&[2], &[0], &[0], &[], 1),
            (&[0], &[], &[], &[0], 1),
            (&[], &[0], &[2], &[], 2),
        ];
        let t = task(3, &ops, &[0], &[1, 2], &[]);
        check_table(
            &t,
            &[
                (&[], [4, 6, 4, 4], &[3]),
                (&[0], [3, 4, 4, 4], &[0, 2]),
                (&[1], [2, 2, 2, 2], &[3]),
                (&[2], [2, 2, 2, 2], &[1]),
                (&[0, 1], [3, 3, 3, 3], &[2]),
                (&[0, 2], [1, 1, 1, 1], &[0]),
                (&[1, 2], [0, 0, 0, 0], &[]),
                (&[0, 1, 2], [0, 0, 0, 0], &[]),
            ],
        );
        check_reachable_states(&t);
    }

    #[test]
    fn negations_exist_only_for_facts_that_occur_negatively() {
        let ops: [OpSpec; 2] = [(&[0], &[1], &[2], &[0, 3], 1), (&[2], &[], &[3], &[2], 1)];
        let t = task(4, &ops, &[0], &[3], &[2]);
        let rt = RelaxedTask::new(&t);
        // Negated: b (1, a precondition) and c (2, the goal); not a or d.
        assert_eq!(rt.num_facts(), 4 + 2 + 2);
        assert_eq!(
            (rt.negation(0), rt.negation(1), rt.negation(2), rt.negation(3)),
            (None, Some(6), Some(7), None)
        );
        // op0 needs "not b"; op1 deletes c, so it adds "not c".
        assert_eq!(rt.pre(0), &[0, 6]);
        assert_eq!(rt.effects(1), &[3, 7]);
        let s = state(4, &[0, 2]);
        let holding: Vec<FactId> = rt.state_facts(s.bits()).collect();
        assert_eq!(holding, vec![0, 2, rt.true_fact, 6]);
        assert!(rt.holds(6, s.bits()) && !rt.holds(7, s.bits()) && !rt.holds(rt.goal_fact, s.bits()));
    }

    /// On random tasks whose goals are all negative and whose operators
    /// often have negative preconditions: h_max and LM-cut never exceed the
    /// perfect cost, every estimate is a dead end exactly when h_max is,
    /// and that only where no plan exists.
    #[test]
    fn random_negative_tasks_stay_admissible() {
        let mut rng = Lcg::new(11);
        let mut informative = 0;
        for _ in 0..300 {
            let mut t = random_task(&mut rng, 6, 8);
            t.goal_neg = std::mem::take(&mut t.goal);
            for op in &mut t.operators {
                if op.pre_neg.is_empty() && rng.below(2) == 0 {
                    let f = rng.below(6) as FactId;
                    if op.pre.binary_search(&f).is_err() {
                        op.pre_neg.push(f);
                    }
                }
            }
            let mut hmax = RelaxationHeuristic::new(&t, Mode::Max);
            let mut hadd = RelaxationHeuristic::new(&t, Mode::Add);
            let mut hff = RelaxationHeuristic::new(&t, Mode::FF);
            let mut lmcut = LmCut::new(&t);
            for (s, perfect) in perfect_costs(&t) {
                let s = s.bits();
                let max = hmax.evaluate(s);
                let cut = lmcut.evaluate(s);
                assert_eq!(hadd.evaluate(s).is_some(), max.is_some());
                assert_eq!(hff.evaluate(s).is_some(), max.is_some());
                assert_eq!(cut.is_some(), max.is_some());
                match (max, cut, perfect) {
                    (Some(max), Some(cut), Some(perfect)) => {
                        assert!(max <= cut && cut <= perfect, "{max} {cut} {perfect} {t:?}");
                        informative += usize::from(cut > 0);
                    }
                    (None, _, perfect) => assert_eq!(perfect, None, "dead end with a plan: {t:?}"),
                    _ => {}
                }
                if t.is_goal(s) {
                    assert_eq!(max, Some(0));
                }
            }
        }
        assert!(informative > 200, "only {informative} states with LM-cut above 0");
    }
}
