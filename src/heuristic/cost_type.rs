//! Cost-adapted heuristics: a heuristic that sees other action costs than
//! the search counts.
//!
//! Greedy search guided by the real costs can do badly: with very uneven
//! costs it prefers long detours over one costly action, and zero-cost
//! actions make h reach 0 in states that are not goals. Seeing every action
//! as cost 1 (`one`), or its cost plus 1 (`plusone`), counts actions as
//! well as their costs. The search still counts real costs: only the
//! heuristic is built on the task with adapted costs
//! ([`CostType::adapted_task`]), a temporary copy dropped once the heuristic
//! is built (heuristics keep what they need, never the task). Every
//! heuristic gets this through [`super::HeuristicKind::build_with`].

use super::{Estimate, Heuristic};
use crate::task::registry::StateId;
use crate::task::state::StateBits;
use crate::task::{OpId, Task};

/// The action costs a heuristic sees.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum CostType {
    /// The task's own costs.
    #[default]
    Normal,
    /// Every action costs 1.
    One,
    /// Every action costs its cost plus 1; on a task without action costs
    /// (every action costs 1 already) the same as `normal`.
    PlusOne,
}

impl CostType {
    /// Every cost type, in `--help` order.
    pub const ALL: [CostType; 3] = [CostType::Normal, CostType::One, CostType::PlusOne];

    /// The name on the command line and in logs.
    pub fn name(self) -> &'static str {
        match self {
            CostType::Normal => "normal",
            CostType::One => "one",
            CostType::PlusOne => "plusone",
        }
    }

    /// One line for `--help`.
    pub fn help(self) -> &'static str {
        match self {
            CostType::Normal => "the task's action costs",
            CostType::One => "every action costs 1",
            CostType::PlusOne => "every action costs its cost + 1",
        }
    }

    /// The cost type of this name.
    pub fn from_name(name: &str) -> Option<CostType> {
        CostType::ALL.into_iter().find(|c| c.name() == name)
    }

    /// The cost the heuristic sees for an action of `cost` in a task with
    /// (`action_costs`) or without action costs.
    pub fn adapt(self, cost: u32, action_costs: bool) -> u32 {
        match self {
            CostType::Normal => cost,
            CostType::One => 1,
            CostType::PlusOne if action_costs => cost.saturating_add(1),
            CostType::PlusOne => cost,
        }
    }

    /// The task with adapted costs, or `None` when they are the task's own.
    pub fn adapted_task(self, task: &Task) -> Option<Task> {
        let changes = |op: &crate::task::Operator| self.adapt(op.cost, task.has_action_costs) != op.cost;
        if !task.operators.iter().any(changes) {
            return None;
        }
        let mut adapted = task.clone();
        for op in &mut adapted.operators {
            op.cost = self.adapt(op.cost, task.has_action_costs);
        }
        Some(adapted)
    }
}

/// A heuristic built on adapted costs, as the search sees it: named with
/// its cost type (`hff[cost=one]`), and inadmissible when the adapted costs
/// differ from the task's (its dead ends stay real: reachability does not
/// depend on costs).
pub struct CostAdapted {
    inner: Box<dyn Heuristic>,
    name: String,
    admissible: bool,
}

impl CostAdapted {
    /// Wraps `inner`, built with `cost_type`; `costs_changed` tells whether
    /// that made any cost differ from the task's.
    pub fn new(inner: Box<dyn Heuristic>, cost_type: CostType, costs_changed: bool) -> Self {
        CostAdapted {
            name: format!("{}[cost={}]", inner.name(), cost_type.name()),
            admissible: !costs_changed && inner.is_admissible(),
            inner,
        }
    }
}

impl Heuristic for CostAdapted {
    fn name(&self) -> &str {
        &self.name
    }

    fn evaluate(&mut self, state: &StateBits) -> Estimate {
        self.inner.evaluate(state)
    }

    fn preferred_operators(&self) -> &[OpId] {
        self.inner.preferred_operators()
    }

    fn is_admissible(&self) -> bool {
        self.admissible
    }

    fn is_path_dependent(&self) -> bool {
        self.inner.is_path_dependent()
    }

    fn notify_initial(&mut self, id: StateId, state: &StateBits) {
        self.inner.notify_initial(id, state);
    }

    fn notify_transition(
        &mut self,
        parent: StateId,
        parent_state: &StateBits,
        op: OpId,
        child: StateId,
        child_state: &StateBits,
    ) {
        self.inner
            .notify_transition(parent, parent_state, op, child, child_state);
    }

    fn evaluate_node(&mut self, id: StateId, state: &StateBits) -> Estimate {
        self.inner.evaluate_node(id, state)
    }

    fn build_report(&self) -> Option<String> {
        self.inner.build_report()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::heuristic::{BuildContext, HeuristicKind, lmcut, relax};
    use crate::task::testing::{OpSpec, perfect_costs, state, task};

    fn build(kind: &HeuristicKind, t: &Task, cost_type: CostType) -> Box<dyn Heuristic> {
        let context = BuildContext {
            cost_type,
            ..BuildContext::default()
        };
        kind.build_with(t, &context)
    }

    /// Values of h_max, h_add, h_FF and LM-cut in `facts` under `cost_type`.
    fn values(t: &Task, facts: &[u32], cost_type: CostType) -> [Estimate; 4] {
        let s = state(t.num_facts(), facts);
        [&relax::HMAX, &relax::HADD, &relax::HFF, &lmcut::LM_CUT].map(|k| build(k, t, cost_type).evaluate(s.bits()))
    }

    /// a (0), b (1), g (2); goal g. op0: a -> b, del a (0); op1: b -> g (0);
    /// op2: a -> g (3).
    fn zero_cost_task() -> Task {
        let ops: [OpSpec; 3] = [
            (&[0], &[], &[1], &[0], 0),
            (&[1], &[], &[2], &[], 0),
            (&[0], &[], &[2], &[], 3),
        ];
        task(3, &ops, &[0], &[2], &[])
    }

    #[test]
    fn zero_cost_actions_under_each_cost_type() {
        let t = zero_cost_task();
        let n = |v: u64| Some(v);
        // Real costs: the zero-cost way makes every estimate 0 off the goal.
        assert_eq!(values(&t, &[0], CostType::Normal), [n(0), n(0), n(0), n(0)]);
        assert_eq!(values(&t, &[1], CostType::Normal), [n(0), n(0), n(0), n(0)]);
        // Unit costs: op2 reaches g in one step.
        assert_eq!(values(&t, &[0], CostType::One), [n(1), n(1), n(1), n(1)]);
        assert_eq!(values(&t, &[1], CostType::One), [n(1), n(1), n(1), n(1)]);
        // Cost + 1: op0, op1 cost 1 each, op2 costs 4.
        assert_eq!(values(&t, &[0], CostType::PlusOne), [n(2), n(2), n(2), n(2)]);
        assert_eq!(values(&t, &[1], CostType::PlusOne), [n(1), n(1), n(1), n(1)]);
        for cost_type in CostType::ALL {
            assert_eq!(values(&t, &[2], cost_type), [n(0); 4]);
            assert_eq!(
                values(&t, &[], cost_type),
                [None; 4],
                "a dead end under every cost type"
            );
        }
    }

    #[test]
    fn plusone_is_above_zero_in_every_non_goal_state() {
        let t = zero_cost_task();
        let mut hadd = build(&relax::HADD, &t, CostType::PlusOne);
        let mut hff = build(&relax::HFF, &t, CostType::PlusOne);
        // Reachable: {a}, {b}, {a, g}, {b, g}; the first two are not goals.
        let states = perfect_costs(&t);
        assert_eq!(states.len(), 4);
        let mut non_goals = 0;
        for (s, _) in states {
            if !t.is_goal(s.bits()) {
                non_goals += 1;
                assert!(hadd.evaluate(s.bits()).unwrap() > 0);
                assert!(hff.evaluate(s.bits()).unwrap() > 0);
            }
        }
        assert_eq!(non_goals, 2);
    }

    #[test]
    fn adapted_heuristics_are_named_and_inadmissible_when_costs_change() {
        let t = zero_cost_task();
        let h = build(&lmcut::LM_CUT, &t, CostType::PlusOne);
        assert_eq!((h.name(), h.is_admissible()), ("lmcut[cost=plusone]", false));
        let h = build(&lmcut::LM_CUT, &t, CostType::Normal);
        assert_eq!((h.name(), h.is_admissible()), ("lmcut", true));
        // Without action costs every action costs 1: `one` and `plusone`
        // change nothing, and LM-cut stays admissible.
        let unit = t.to_unit_cost();
        assert!(CostType::One.adapted_task(&unit).is_none());
        assert!(CostType::PlusOne.adapted_task(&unit).is_none());
        let h = build(&lmcut::LM_CUT, &unit, CostType::PlusOne);
        assert_eq!((h.name(), h.is_admissible()), ("lmcut[cost=plusone]", true));
        // The adapted copy has the adapted costs and nothing else changed.
        let adapted = CostType::PlusOne.adapted_task(&t).unwrap();
        let costs: Vec<u32> = adapted.operators.iter().map(|o| o.cost).collect();
        assert_eq!(costs, vec![1, 1, 4]);
        assert_eq!(adapted.goal, t.goal);
        for c in CostType::ALL {
            assert_eq!(CostType::from_name(c.name()), Some(c));
        }
    }
}
