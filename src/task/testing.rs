//! Small tasks and exact solvers shared by the tests of the grounder, the
//! search and the heuristics.

use std::collections::{BinaryHeap, HashMap};

use super::state::StateBuf;
use super::{Fact, FactId, Operator, Task};

/// A task from its parts, as the grounder hands tasks on: initial state and
/// goals sorted (invariant groups are computed when first asked for). Operators must come with sorted
/// fact lists.
pub fn assemble(
    facts: Vec<Fact>,
    operators: Vec<Operator>,
    init: &[FactId],
    goal: &[FactId],
    goal_neg: &[FactId],
    has_action_costs: bool,
) -> Task {
    Task {
        facts,
        operators,
        init: sorted(init),
        goal: sorted(goal),
        goal_neg: sorted(goal_neg),
        axioms: Vec::new(),
        axiom_layers: Vec::new(),
        derived: Vec::new(),
        has_action_costs,
        invariants: Default::default(),
    }
}

/// The facts sorted, without duplicates.
pub fn sorted(facts: &[FactId]) -> Vec<FactId> {
    let mut v = facts.to_vec();
    v.sort_unstable();
    v.dedup();
    v
}

/// An operator `(pre, pre_neg, add, del, cost)`.
pub type OpSpec<'a> = (&'a [FactId], &'a [FactId], &'a [FactId], &'a [FactId], u32);

/// A task of `num_facts` facts `p0`, `p1`, … (no arguments) and operators
/// `op0`, `op1`, … with general costs.
pub fn task(num_facts: usize, ops: &[OpSpec], init: &[FactId], goal: &[FactId], goal_neg: &[FactId]) -> Task {
    let facts = (0..num_facts)
        .map(|i| Fact {
            predicate: format!("p{i}"),
            args: Vec::new(),
        })
        .collect();
    let operators = ops
        .iter()
        .enumerate()
        .map(|(i, &(pre, pre_neg, add, del, cost))| Operator {
            action: format!("op{i}"),
            args: Vec::new(),
            pre: sorted(pre),
            pre_neg: sorted(pre_neg),
            add: sorted(add),
            del: sorted(del),
            cost,
            cond_effects: Vec::new(),
        })
        .collect();
    assemble(facts, operators, init, goal, goal_neg, true)
}

pub fn state(num_facts: usize, facts: &[FactId]) -> StateBuf {
    let mut s = StateBuf::new(num_facts);
    for &f in facts {
        s.bits_mut().set(f as usize, true);
    }
    s
}

/// Deterministic pseudo-random numbers (no dependency needed).
pub struct Lcg(pub u64);

impl Lcg {
    pub fn below(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) % n
    }

    fn facts(&mut self, num_facts: usize, max: u64) -> Vec<FactId> {
        (0..self.below(max + 1))
            .map(|_| self.below(num_facts as u64) as FactId)
            .collect()
    }
}

/// A random small task with costs 0..=3, negative preconditions and goals.
pub fn random_task(rng: &mut Lcg, num_facts: usize, num_ops: usize) -> Task {
    let mut specs = Vec::new();
    for _ in 0..num_ops {
        let pre = rng.facts(num_facts, 2);
        let pre_neg = if rng.below(4) == 0 {
            rng.facts(num_facts, 1)
        } else {
            Vec::new()
        };
        let mut add = rng.facts(num_facts, 2);
        if add.is_empty() {
            add.push(rng.below(num_facts as u64) as FactId);
        }
        let del = rng.facts(num_facts, 2);
        specs.push((pre, pre_neg, add, del, rng.below(4) as u32));
    }
    let ops: Vec<OpSpec> = specs
        .iter()
        .map(|(a, b, c, d, e)| (a.as_slice(), b.as_slice(), c.as_slice(), d.as_slice(), *e))
        .collect();
    let init = rng.facts(num_facts, 2);
    let goal = rng.facts(num_facts, 3);
    let goal_neg = if rng.below(5) == 0 {
        rng.facts(num_facts, 1)
    } else {
        Vec::new()
    };
    task(num_facts, &ops, &init, &goal, &goal_neg)
}

/// Exact goal distance of every state reachable from the initial state
/// (`None` if the goal is unreachable from it), by Dijkstra backwards
/// over the explicit state space.
pub fn perfect_costs(task: &Task) -> Vec<(StateBuf, Option<u64>)> {
    let mut index: HashMap<StateBuf, usize> = HashMap::new();
    let mut states = vec![task.initial_state()];
    index.insert(states[0].clone(), 0);
    // Predecessor edges (from, cost) per state.
    let mut preds: Vec<Vec<(usize, u64)>> = vec![Vec::new()];
    let mut i = 0;
    while i < states.len() {
        for op in &task.operators {
            if !op.is_applicable(states[i].bits()) {
                continue;
            }
            let mut next = states[i].clone();
            task.apply_into(op, states[i].bits(), next.bits_mut());
            let j = *index.entry(next.clone()).or_insert_with(|| {
                states.push(next);
                preds.push(Vec::new());
                states.len() - 1
            });
            preds[j].push((i, op.cost as u64));
        }
        i += 1;
    }
    let mut dist: Vec<Option<u64>> = vec![None; states.len()];
    let mut queue = BinaryHeap::new();
    for (j, s) in states.iter().enumerate() {
        if task.is_goal(s.bits()) {
            dist[j] = Some(0);
            queue.push(std::cmp::Reverse((0u64, j)));
        }
    }
    while let Some(std::cmp::Reverse((d, j))) = queue.pop() {
        if dist[j].is_some_and(|best| d > best) {
            continue;
        }
        for &(p, c) in &preds[j] {
            if dist[p].is_none_or(|best| d + c < best) {
                dist[p] = Some(d + c);
                queue.push(std::cmp::Reverse((d + c, p)));
            }
        }
    }
    states.into_iter().zip(dist).collect()
}
