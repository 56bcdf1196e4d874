//! The delete relaxation of a task, shared by h_max, h_add, h_FF and LM-cut.
//!
//! Each task operator becomes one relaxed operator holding its positive
//! preconditions and all its add effects (delete effects and negative
//! preconditions are dropped by the relaxation). This is equivalent to one
//! unary operator per add effect that share a single precondition counter,
//! and it lets LM-cut charge an operator's cost once even when a cut meets
//! it through several of its effects.
//!
//! Two artificial facts complete the picture: `true_fact`, which holds in
//! every state and is the precondition of operators that have none (so every
//! operator has a precondition that triggers it), and `goal_fact`, the single
//! effect of an artificial zero-cost goal operator whose preconditions are
//! the goal facts. The relaxed goal is reached when `goal_fact` is.

use crate::task::{FactId, OpId, Task};

/// Marks "no operator": the supporter of a fact true in the state, or the
/// task operator behind the artificial goal operator.
pub const NO_OP: u32 = u32::MAX;

/// Marks "no fact", e.g. the trigger of an operator not (yet) reached.
pub const NO_FACT: u32 = u32::MAX;

/// Index of a relaxed operator in [`RelaxedTask`].
pub type RelaxedOpId = u32;

pub struct RelaxedTask {
    /// Task facts plus the two artificial ones.
    num_facts: usize,
    num_task_facts: usize,
    pub true_fact: FactId,
    pub goal_fact: FactId,
    pub goal_op: RelaxedOpId,
    /// Per relaxed operator: the task operator it relaxes (`NO_OP` for the goal operator).
    original: Vec<OpId>,
    /// Per relaxed operator: its cost in the task.
    cost: Vec<u64>,
    /// Per relaxed operator `o`, its preconditions are `pre[pre_start[o]..pre_start[o + 1]]`.
    pre_start: Vec<u32>,
    pre: Vec<FactId>,
    eff_start: Vec<u32>,
    eff: Vec<FactId>,
    /// Negative preconditions of the task operator (not part of the
    /// relaxation; kept to tell which relaxed-plan operators are applicable).
    pre_neg_start: Vec<u32>,
    pre_neg: Vec<FactId>,
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
        let mut rt = RelaxedTask {
            num_facts: num_task_facts + 2,
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
            pre_neg_start: vec![0],
            pre_neg: Vec::new(),
            pre_of_start: Vec::new(),
            pre_of: Vec::new(),
            achievers_start: Vec::new(),
            achievers: Vec::new(),
        };
        for (id, op) in task.operators.iter().enumerate() {
            crate::limits::checkpoint();
            // An add effect that is also a precondition never makes a fact
            // newly true, so the relaxation does not need it.
            let before = rt.eff.len();
            rt.eff
                .extend(op.add.iter().filter(|f| op.pre.binary_search(f).is_err()));
            if rt.eff.len() == before {
                continue;
            }
            rt.eff_start.push(rt.eff.len() as u32);
            rt.push_pre(&op.pre);
            rt.pre_neg.extend_from_slice(&op.pre_neg);
            rt.pre_neg_start.push(rt.pre_neg.len() as u32);
            rt.original.push(id as OpId);
            rt.cost.push(op.cost as u64);
        }
        rt.goal_op = rt.original.len() as RelaxedOpId;
        rt.eff.push(goal_fact);
        rt.eff_start.push(rt.eff.len() as u32);
        rt.push_pre(&task.goal);
        rt.pre_neg_start.push(rt.pre_neg.len() as u32);
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

    fn push_pre(&mut self, pre: &[FactId]) {
        if pre.is_empty() {
            self.pre.push(self.true_fact);
        } else {
            self.pre.extend_from_slice(pre);
        }
        self.pre_start.push(self.pre.len() as u32);
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

    /// Number of facts including the two artificial ones.
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

    /// The task operator behind `o`, `NO_OP` for the goal operator.
    pub fn original(&self, o: RelaxedOpId) -> OpId {
        self.original[o as usize]
    }

    /// Costs of the relaxed operators, indexed by [`RelaxedOpId`].
    pub fn costs(&self) -> &[u64] {
        &self.cost
    }

    /// Positive preconditions of `o`; never empty.
    pub fn pre(&self, o: RelaxedOpId) -> &[FactId] {
        &self.pre[self.pre_start[o as usize] as usize..self.pre_start[o as usize + 1] as usize]
    }

    pub fn effects(&self, o: RelaxedOpId) -> &[FactId] {
        &self.eff[self.eff_start[o as usize] as usize..self.eff_start[o as usize + 1] as usize]
    }

    pub fn pre_neg(&self, o: RelaxedOpId) -> &[FactId] {
        &self.pre_neg[self.pre_neg_start[o as usize] as usize..self.pre_neg_start[o as usize + 1] as usize]
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
