//! Small tasks and exact solvers shared by the tests of the grounder, the
//! search and the heuristics.

use std::collections::{BinaryHeap, HashMap};

use super::state::StateBuf;
use super::{Axiom, CondEffect, Fact, FactId, OpId, Operator, Task};
use crate::rng::Lcg;

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

/// A conditional effect `(pre, pre_neg, add, del)`.
pub fn cond(pre: &[FactId], pre_neg: &[FactId], add: &[FactId], del: &[FactId]) -> CondEffect {
    CondEffect {
        pre: sorted(pre),
        pre_neg: sorted(pre_neg),
        add: sorted(add),
        del: sorted(del),
    }
}

/// A rule of a derived fact `(head, pre, pre_neg)`.
pub type AxiomSpec<'a> = (FactId, &'a [FactId], &'a [FactId]);

/// The task with rules of derived facts, `layers[k]` holding those of layer
/// k; their heads become derived facts.
pub fn with_axioms(mut task: Task, layers: &[&[AxiomSpec]]) -> Task {
    task.axioms.clear();
    task.axiom_layers = vec![0];
    task.derived = vec![false; task.num_facts()];
    for layer in layers {
        for &(head, pre, pre_neg) in *layer {
            task.axioms.push(Axiom {
                head,
                pre: sorted(pre),
                pre_neg: sorted(pre_neg),
            });
            task.derived[head as usize] = true;
        }
        task.axiom_layers.push(task.axioms.len());
    }
    task
}

pub fn state(num_facts: usize, facts: &[FactId]) -> StateBuf {
    let mut s = StateBuf::new(num_facts);
    for &f in facts {
        s.bits_mut().set(f as usize, true);
    }
    s
}

/// Up to `max` random facts below `num_facts`, repeats allowed.
fn random_facts(rng: &mut Lcg, num_facts: usize, max: u64) -> Vec<FactId> {
    (0..rng.below(max + 1))
        .map(|_| rng.below(num_facts as u64) as FactId)
        .collect()
}

/// A random small task with costs 0..=3, negative preconditions and goals.
pub fn random_task(rng: &mut Lcg, num_facts: usize, num_ops: usize) -> Task {
    let mut specs = Vec::new();
    for _ in 0..num_ops {
        let pre = random_facts(rng, num_facts, 2);
        let pre_neg = if rng.below(4) == 0 {
            random_facts(rng, num_facts, 1)
        } else {
            Vec::new()
        };
        let mut add = random_facts(rng, num_facts, 2);
        if add.is_empty() {
            add.push(rng.below(num_facts as u64) as FactId);
        }
        let del = random_facts(rng, num_facts, 2);
        specs.push((pre, pre_neg, add, del, rng.below(4) as u32));
    }
    let ops: Vec<OpSpec> = specs
        .iter()
        .map(|(a, b, c, d, e)| (a.as_slice(), b.as_slice(), c.as_slice(), d.as_slice(), *e))
        .collect();
    let init = random_facts(rng, num_facts, 2);
    let goal = random_facts(rng, num_facts, 3);
    let goal_neg = if rng.below(5) == 0 {
        random_facts(rng, num_facts, 1)
    } else {
        Vec::new()
    };
    task(num_facts, &ops, &init, &goal, &goal_neg)
}

/// A random task of [`random_task`] whose operators get up to two
/// conditional effects.
pub fn random_conditional_task(rng: &mut Lcg, num_facts: usize, num_ops: usize) -> Task {
    let mut t = random_task(rng, num_facts, num_ops);
    for op in &mut t.operators {
        op.cond_effects = random_cond_effects(rng, num_facts);
    }
    t
}

/// Up to two random conditional effects.
fn random_cond_effects(rng: &mut Lcg, num_facts: usize) -> Vec<CondEffect> {
    (0..rng.below(3))
        .map(|_| {
            let pre = random_facts(rng, num_facts, 2);
            let pre_neg = random_facts(rng, num_facts, 1);
            let add = random_facts(rng, num_facts, 2);
            let del = random_facts(rng, num_facts, 1);
            cond(&pre, &pre_neg, &add, &del)
        })
        .collect()
}

/// A random small task with conditional effects and two derived facts (the
/// last two, in two layers, the second negating the first): a random task
/// of [`random_task`] whose operators get up to two conditional effects,
/// and whose last two facts are taken out of the initial state and every
/// effect and given rules instead.
pub fn random_adl_task(rng: &mut Lcg, num_facts: usize, num_ops: usize) -> Task {
    random_adl_task_with(rng, num_facts, num_ops, true)
}

/// [`random_adl_task`], where the second rule of the first derived fact
/// needs that fact itself only when `recursive`.
pub fn random_adl_task_with(rng: &mut Lcg, num_facts: usize, num_ops: usize, recursive: bool) -> Task {
    assert!(num_facts >= 4);
    let mut t = random_task(rng, num_facts, num_ops);
    let base = num_facts - 2;
    let (d0, d1) = (base as FactId, base as FactId + 1);
    for op in &mut t.operators {
        op.cond_effects = random_cond_effects(rng, num_facts);
        let basic = |v: &mut Vec<FactId>| v.retain(|&f| f < d0);
        basic(&mut op.add);
        basic(&mut op.del);
        for e in &mut op.cond_effects {
            basic(&mut e.add);
            basic(&mut e.del);
        }
        // Derived facts are not set by effects, so the operator needs some
        // effect left; a conditional one will do.
        if op.add.is_empty()
            && op.del.is_empty()
            && op.cond_effects.iter().all(|e| e.add.is_empty() && e.del.is_empty())
        {
            op.add.push(rng.below(base as u64) as FactId);
        }
    }
    t.init.retain(|&f| f < d0);
    let body0: Vec<FactId> = (0..1 + rng.below(2))
        .map(|_| rng.below(base as u64) as FactId)
        .collect();
    let other: Vec<FactId> = (0..rng.below(2)).map(|_| rng.below(base as u64) as FactId).collect();
    let second = [
        if recursive {
            d0
        } else {
            rng.below(base as u64) as FactId
        },
        rng.below(base as u64) as FactId,
    ];
    let body1 = [rng.below(base as u64) as FactId];
    with_axioms(
        t,
        &[&[(d0, &body0, &[]), (d0, &second, &other)], &[(d1, &body1, &[d0])]],
    )
}

/// The judge of plans in the tests: [`Task::replay_cost`].
pub fn replay(task: &Task, plan: &[OpId]) -> Option<u64> {
    task.replay_cost(plan)
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
