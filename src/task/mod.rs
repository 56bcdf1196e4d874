//! The grounded task: numbered facts, operators with flat pre/add/del
//! fact-id lists and conditional effects, rules of derived facts in layers
//! ([`axioms`]), an initial state and a goal; and what works
//! on the task alone, below the grounder, the heuristics and the search:
//! its states ([`state`]), the registry that interns them ([`registry`])
//! and its invariants ([`invariants`]).

pub mod axioms;
pub mod invariants;
pub mod registry;
pub mod state;
#[cfg(test)]
pub mod testing;

use state::{StateBits, StateBuf};

/// Index of a fact in [`Task::facts`].
pub type FactId = u32;
/// Index of an operator in [`Task::operators`].
pub type OpId = u32;

/// A ground atom that can change: `(on a b)`.
pub use crate::pddl::GroundAtom as Fact;

/// A ground action. Applying it evaluates the conditions of its conditional
/// effects on the state before the action, then deletes `del` and the
/// deletes of the effects that fire, then adds `add` and their adds (so a
/// fact both deleted and added ends up true, as PDDL prescribes), and
/// finally re-derives the derived facts ([`Task::axioms`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Operator {
    /// The lifted action's name.
    pub action: String,
    /// The objects bound to the action's parameters, in order.
    pub args: Vec<String>,
    /// Facts that must hold (sorted, no duplicates).
    pub pre: Vec<FactId>,
    /// Facts that must not hold (sorted, no duplicates).
    pub pre_neg: Vec<FactId>,
    pub add: Vec<FactId>,
    pub del: Vec<FactId>,
    pub cost: u32,
    /// Effects that happen only when their condition holds in the state
    /// before the action (PDDL `when`, also inside `forall`); empty for
    /// STRIPS operators.
    pub cond_effects: Vec<CondEffect>,
}

/// One conditional effect of an operator: when every fact of `pre` holds
/// and none of `pre_neg` in the state before the operator, `del` are
/// deleted and `add` added along with the operator's other effects.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct CondEffect {
    /// Sorted, no duplicates.
    pub pre: Vec<FactId>,
    /// Sorted, no duplicates.
    pub pre_neg: Vec<FactId>,
    pub add: Vec<FactId>,
    pub del: Vec<FactId>,
}

/// A ground rule of a derived predicate (PDDL 2.2 `:derived`): `head` holds
/// in a state when every fact of `pre` holds and none of `pre_neg`, or when
/// another rule for it says so. Derived facts are never added or deleted by
/// operators; they are a function of the other facts, recomputed in every
/// state layer by layer ([`Task::axiom_layers`]), with negation as failure:
/// a rule's `pre_neg` names only facts of lower layers (or non-derived ones).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Axiom {
    pub head: FactId,
    /// Sorted, no duplicates.
    pub pre: Vec<FactId>,
    /// Sorted, no duplicates.
    pub pre_neg: Vec<FactId>,
}

impl Operator {
    /// `(action arg1 ... argn)`, the IPC plan-file form.
    pub fn name(&self) -> String {
        let mut s = format!("({}", self.action);
        for a in &self.args {
            s.push(' ');
            s.push_str(a);
        }
        s.push(')');
        s
    }

    pub fn is_applicable(&self, state: &StateBits) -> bool {
        self.pre.iter().all(|&f| state[f as usize]) && !self.pre_neg.iter().any(|&f| state[f as usize])
    }

    /// Writes into `out` (which must have the same length) the state after
    /// the operator's effects: the effect conditions read `state`, all
    /// deletes happen before all adds. Derived facts are left as they were;
    /// [`Task::apply_into`] re-derives them.
    pub fn apply_into(&self, state: &StateBits, out: &mut StateBits) {
        out.copy_from_bitslice(state);
        for &f in self.deletes(|c| c.holds_in(state)) {
            out.set(f as usize, false);
        }
        for &f in self.adds(|c| c.holds_in(state)) {
            out.set(f as usize, true);
        }
    }

    /// The deletes of the operator and of its conditional effects that fire
    /// (by `fires`, which reads the state before the operator).
    #[inline]
    pub fn deletes<'a>(&'a self, fires: impl Fn(&CondEffect) -> bool + 'a) -> impl Iterator<Item = &'a FactId> + 'a {
        let conditional = self.cond_effects.iter().filter(move |c| fires(c));
        self.del.iter().chain(conditional.flat_map(|c| &c.del))
    }

    /// The adds of the operator and of its conditional effects that fire.
    #[inline]
    pub fn adds<'a>(&'a self, fires: impl Fn(&CondEffect) -> bool + 'a) -> impl Iterator<Item = &'a FactId> + 'a {
        let conditional = self.cond_effects.iter().filter(move |c| fires(c));
        self.add.iter().chain(conditional.flat_map(|c| &c.add))
    }

    /// Every fact a condition of the operator or of one of its conditional
    /// effects names, required true or false.
    pub fn conditions(&self) -> impl Iterator<Item = &FactId> {
        let conditional = self.cond_effects.iter().flat_map(|c| c.pre.iter().chain(&c.pre_neg));
        self.pre.iter().chain(&self.pre_neg).chain(conditional)
    }

    /// Every fact the operator or one of its conditional effects adds or
    /// deletes.
    pub fn changes(&self) -> impl Iterator<Item = &FactId> {
        self.adds(|_| true).chain(self.deletes(|_| true))
    }
}

impl CondEffect {
    /// Whether the effect's condition holds in `state`.
    pub fn holds_in(&self, state: &StateBits) -> bool {
        self.pre.iter().all(|&f| state[f as usize]) && !self.pre_neg.iter().any(|&f| state[f as usize])
    }
}

/// A set of facts of which at most one holds in any reachable state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MutexGroup {
    /// Sorted fact ids.
    pub facts: Vec<FactId>,
    /// True when exactly one of the facts holds in every reachable state.
    pub exactly_one: bool,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Task {
    pub facts: Vec<Fact>,
    pub operators: Vec<Operator>,
    /// Facts true initially (sorted).
    pub init: Vec<FactId>,
    /// Facts that must hold at the end (sorted).
    pub goal: Vec<FactId>,
    /// Facts that must not hold at the end (sorted).
    pub goal_neg: Vec<FactId>,
    /// Rules of the derived facts, ordered by layer; empty for tasks without
    /// derived predicates.
    pub axioms: Vec<Axiom>,
    /// The layers (strata) of `axioms`: layer k is
    /// `axioms[axiom_layers[k]..axiom_layers[k + 1]]`; evaluated to a fixed
    /// point one layer after the other. Empty when there are no axioms.
    pub axiom_layers: Vec<usize>,
    /// Per fact: true for derived facts (heads of axioms). Empty when the
    /// task has none; read it through [`Task::is_derived`].
    pub derived: Vec<bool>,
    /// True when the problem's metric is total cost (costs are then general);
    /// false for unit-cost tasks.
    pub has_action_costs: bool,
    /// The task's verified invariants, read through
    /// [`Task::invariant_groups`].
    pub invariants: Invariants,
}

/// The invariant groups of a task ([`invariants::invariant_groups`]),
/// computed at most once per task: by the grounder, which needs them to
/// prune operators and keeps them when pruning changed nothing, or
/// otherwise on the first use (the PDB projections, the perimeter, packed
/// state storage), so that a run that needs none does not pay for them.
///
/// They are a function of the rest of the task, so they never make two
/// tasks differ: every `Invariants` equals every other.
#[derive(Clone, Debug, Default)]
pub struct Invariants(std::sync::OnceLock<Vec<MutexGroup>>);

impl Invariants {
    /// Invariants known already (the grounder's).
    pub fn known(groups: Vec<MutexGroup>) -> Self {
        Invariants(std::sync::OnceLock::from(groups))
    }
}

impl PartialEq for Invariants {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl Eq for Invariants {}

impl Task {
    /// The verified invariant groups, computed on the first call unless the
    /// grounder stored them.
    pub fn invariant_groups(&self) -> &[MutexGroup] {
        self.invariants.0.get_or_init(|| invariants::invariant_groups(self))
    }

    /// True for a derived fact (the head of an axiom).
    pub fn is_derived(&self, fact: FactId) -> bool {
        self.derived.get(fact as usize).copied().unwrap_or(false)
    }

    /// True when some operator has a conditional effect.
    pub fn has_conditional_effects(&self) -> bool {
        self.operators.iter().any(|op| !op.cond_effects.is_empty())
    }

    /// True when the task has derived facts (axioms).
    pub fn has_axioms(&self) -> bool {
        !self.axioms.is_empty()
    }

    pub fn num_facts(&self) -> usize {
        self.facts.len()
    }

    pub fn num_operators(&self) -> usize {
        self.operators.len()
    }

    /// The initial state, with its derived facts.
    pub fn initial_state(&self) -> StateBuf {
        let mut s = StateBuf::new(self.num_facts());
        for &f in &self.init {
            s.bits_mut().set(f as usize, true);
        }
        self.derive(&mut s);
        s
    }

    /// Writes the successor of `state` under `op` into `out` (same length):
    /// the operator's effects ([`Operator::apply_into`]), then the derived
    /// facts of the new state. Builds an axiom evaluator for each call on
    /// tasks with axioms: searches keep their own
    /// ([`axioms::AxiomEvaluator`]).
    pub fn apply_into(&self, op: &Operator, state: &StateBits, out: &mut StateBits) {
        op.apply_into(state, out);
        if self.has_axioms() {
            let mut words = out.to_bitvec().into_vec();
            axioms::AxiomEvaluator::new(self).evaluate(&mut words);
            out.copy_from_bitslice(state::bits_of(&words, self.num_facts()));
        }
    }

    /// Sets the derived facts of `s` from its other facts.
    fn derive(&self, s: &mut StateBuf) {
        if self.has_axioms() {
            let mut words = s.words().to_vec();
            axioms::AxiomEvaluator::new(self).evaluate(&mut words);
            *s = StateBuf::from_words(&words, self.num_facts());
        }
    }

    pub fn is_goal(&self, state: &StateBits) -> bool {
        Task::goal_holds(&self.goal, &self.goal_neg, state)
    }

    /// The goal test on its own, for those that keep a task's `goal` and
    /// `goal_neg` but not the task.
    pub fn goal_holds(goal: &[FactId], goal_neg: &[FactId], state: &StateBits) -> bool {
        goal.iter().all(|&f| state[f as usize]) && !goal_neg.iter().any(|&f| state[f as usize])
    }

    /// The same task with every operator cost set to 1.
    pub fn to_unit_cost(&self) -> Task {
        let mut t = self.clone();
        for op in &mut t.operators {
            op.cost = 1;
        }
        t.has_action_costs = false;
        t
    }

    /// Sum of the costs of a sequence of operators.
    pub fn plan_cost(&self, plan: &[OpId]) -> u64 {
        plan.iter().map(|&o| self.operators[o as usize].cost as u64).sum()
    }

    /// Replays `plan` with the task's own successor function (effects, then
    /// derived facts): its cost if every step applies in turn and the goal
    /// holds at the end.
    pub fn replay_cost(&self, plan: &[OpId]) -> Option<u64> {
        let mut state = self.initial_state();
        let mut next = state.clone();
        for &o in plan {
            let op = self.operators.get(o as usize)?;
            if !op.is_applicable(state.bits()) {
                return None;
            }
            self.apply_into(op, state.bits(), next.bits_mut());
            std::mem::swap(&mut state, &mut next);
        }
        self.is_goal(state.bits()).then(|| self.plan_cost(plan))
    }
}
