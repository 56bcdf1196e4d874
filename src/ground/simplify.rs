//! Post-grounding simplification of a [`Task`], keeping every plan's
//! validity and every optimal plan's cost:
//!
//! 1. *Constant facts*: a fact true initially that no operator deletes is
//!    true in every reachable state. Preconditions and goals on it are
//!    dropped, operators that need it false are removed.
//! 2. *Relevance* (a backward fix-point from the goal): a fact is relevant
//!    when the goal or a relevant operator's precondition mentions it; an
//!    operator is relevant when it adds a fact needed true or deletes a fact
//!    needed false. An irrelevant operator can be cut out of any plan (it
//!    only changes facts nothing later looks at, or makes needed facts
//!    false), so removing it keeps some optimal plan. Irrelevant facts are
//!    then dropped from states and effects: packages the goal does not
//!    mention no longer multiply the state space.
//! 3. Operators that became identical (same preconditions and effects) are
//!    merged, keeping the cheapest.
//!
//! Fact and operator order is preserved, so numbering stays deterministic.

use rustc_hash::FxHashMap;

use crate::task::{CondEffect, Fact, FactId, Invariants, Operator, Task};

/// An operator's preconditions and effects (pre, pre_neg, add, del, conditional effects).
type Signature = (Vec<FactId>, Vec<FactId>, Vec<FactId>, Vec<FactId>, Vec<CondEffect>);

/// What the simplification removed, for the log.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Removed {
    pub facts: usize,
    pub operators: usize,
}

/// Simplifies `task`. Returns `Err(fact)` when a goal requires false a fact
/// that is always true (the task is then unsolvable).
pub fn simplify(task: Task) -> Result<(Task, Removed), Fact> {
    // The analysis below reads only unconditional effects and knows nothing
    // of derived facts: such tasks are kept as they are.
    if task.has_conditional_effects() || task.has_axioms() {
        return Ok((task, Removed::default()));
    }
    let n = task.num_facts();
    let mut deleted = vec![false; n];
    for op in &task.operators {
        for &f in &op.del {
            deleted[f as usize] = true;
        }
    }
    let mut constant = vec![false; n];
    for &f in &task.init {
        constant[f as usize] = !deleted[f as usize];
    }
    if let Some(&f) = task.goal_neg.iter().find(|&&f| constant[f as usize]) {
        return Err(task.facts[f as usize].clone());
    }

    let ops: Vec<&Operator> = task
        .operators
        .iter()
        .filter(|op| !op.pre_neg.iter().any(|&f| constant[f as usize]))
        .collect();

    // Backward relevance fix-point over facts needed true / needed false.
    let mut needed_true = vec![false; n];
    let mut needed_false = vec![false; n];
    let mut adders: Vec<Vec<u32>> = vec![Vec::new(); n];
    let mut deleters: Vec<Vec<u32>> = vec![Vec::new(); n];
    for (i, op) in ops.iter().enumerate() {
        for &f in &op.add {
            adders[f as usize].push(i as u32);
        }
        for &f in &op.del {
            deleters[f as usize].push(i as u32);
        }
    }
    let mut relevant_op = vec![false; ops.len()];
    // Queue items: fact << 1 | (1 when needed true, 0 when needed false).
    let mut queue: Vec<u32> = Vec::new();
    let mut need = |f: FactId, truth: bool, queue: &mut Vec<u32>| {
        let flag = if truth {
            &mut needed_true[f as usize]
        } else {
            &mut needed_false[f as usize]
        };
        // A constant fact needed true needs nothing done.
        if !(*flag || truth && constant[f as usize]) {
            *flag = true;
            queue.push(f << 1 | truth as u32);
        }
    };
    for &f in &task.goal {
        need(f, true, &mut queue);
    }
    for &f in &task.goal_neg {
        need(f, false, &mut queue);
    }
    while let Some(item) = queue.pop() {
        let (f, truth) = ((item >> 1) as usize, item & 1 == 1);
        let achievers = if truth { &adders[f] } else { &deleters[f] };
        for &o in achievers {
            if std::mem::replace(&mut relevant_op[o as usize], true) {
                continue;
            }
            let op = ops[o as usize];
            for &p in &op.pre {
                need(p, true, &mut queue);
            }
            for &p in &op.pre_neg {
                need(p, false, &mut queue);
            }
        }
    }

    // Renumber the kept facts in their original order.
    let mut new_id: Vec<Option<FactId>> = vec![None; n];
    let mut facts = Vec::new();
    for (f, fact) in task.facts.iter().enumerate() {
        if needed_true[f] || needed_false[f] {
            new_id[f] = Some(facts.len() as FactId);
            facts.push(fact.clone());
        }
    }
    let map = |list: &[FactId]| -> Vec<FactId> { list.iter().filter_map(|&f| new_id[f as usize]).collect() };

    let mut operators: Vec<Operator> = Vec::new();
    let mut seen: FxHashMap<Signature, usize> = FxHashMap::default();
    for (op, _) in ops.iter().zip(&relevant_op).filter(|(_, r)| **r) {
        let simplified = Operator {
            action: op.action.clone(),
            args: op.args.clone(),
            pre: map(&op.pre),
            pre_neg: map(&op.pre_neg),
            add: map(&op.add),
            del: map(&op.del),
            cost: op.cost,
            cond_effects: op
                .cond_effects
                .iter()
                .map(|e| CondEffect {
                    pre: map(&e.pre),
                    pre_neg: map(&e.pre_neg),
                    add: map(&e.add),
                    del: map(&e.del),
                })
                .collect(),
        };
        let key = (
            simplified.pre.clone(),
            simplified.pre_neg.clone(),
            simplified.add.clone(),
            simplified.del.clone(),
            simplified.cond_effects.clone(),
        );
        match seen.get(&key) {
            Some(&i) if operators[i].cost <= simplified.cost => {}
            Some(&i) => operators[i] = simplified,
            None => {
                seen.insert(key, operators.len());
                operators.push(simplified);
            }
        }
    }

    let removed = Removed {
        facts: n - facts.len(),
        operators: task.operators.len() - operators.len(),
    };
    let simplified = Task {
        facts,
        operators,
        init: map(&task.init),
        goal: map(&task.goal),
        goal_neg: map(&task.goal_neg),
        axioms: Vec::new(),
        axiom_layers: Vec::new(),
        derived: Vec::new(),
        has_action_costs: task.has_action_costs,
        // Renumbered facts: the grounder verifies the groups anew.
        invariants: Invariants::default(),
    };
    Ok((simplified, removed))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fact(name: &str) -> Fact {
        Fact {
            predicate: name.to_string(),
            args: Vec::new(),
        }
    }

    fn op(name: &str, pre: &[FactId], pre_neg: &[FactId], add: &[FactId], del: &[FactId], cost: u32) -> Operator {
        Operator {
            action: name.to_string(),
            args: Vec::new(),
            pre: pre.to_vec(),
            pre_neg: pre_neg.to_vec(),
            add: add.to_vec(),
            del: del.to_vec(),
            cost,
            cond_effects: Vec::new(),
        }
    }

    /// Facts: 0 = a, 1 = b, 2 = c (irrelevant), 3 = k (constant), 4 = g (goal).
    fn task() -> Task {
        Task {
            facts: ["a", "b", "c", "k", "g"].into_iter().map(fact).collect(),
            operators: vec![
                op("make-a", &[3], &[], &[0], &[], 1),
                op("make-c", &[0], &[], &[2], &[], 1),
                op("finish", &[0, 3], &[], &[4], &[], 2),
                op("finish-again", &[0], &[], &[4], &[], 1),
                op("needs-no-k", &[], &[3], &[4], &[], 1),
                op("spoil-a", &[], &[], &[1], &[0], 1),
            ],
            init: vec![3],
            goal: vec![4],
            goal_neg: vec![],
            axioms: Vec::new(),
            axiom_layers: Vec::new(),
            derived: Vec::new(),
            invariants: Invariants::default(),
            has_action_costs: true,
        }
    }

    #[test]
    fn removes_constant_and_irrelevant_facts_and_merges_operators() {
        let (t, removed) = simplify(task()).unwrap();
        let names: Vec<String> = t.facts.iter().map(|f| f.predicate.clone()).collect();
        assert_eq!(names, ["a", "g"]);
        let ops: Vec<&str> = t.operators.iter().map(|o| o.action.as_str()).collect();
        // make-c adds only an irrelevant fact, spoil-a only deletes a fact
        // needed true, needs-no-k needs a constant fact false; finish and
        // finish-again became identical, the cheaper one stays.
        assert_eq!(ops, ["make-a", "finish-again"]);
        assert_eq!(t.operators[0].pre, Vec::<FactId>::new());
        assert_eq!(t.operators[1].pre, vec![0]);
        assert_eq!(t.goal, vec![1]);
        assert!(t.init.is_empty());
        assert_eq!(removed, Removed { facts: 3, operators: 4 });
    }

    #[test]
    fn deleting_a_fact_needed_false_is_relevant() {
        let mut t = task();
        // The goal now also wants b false; spoil-a does not delete b, but
        // a new operator does.
        t.goal_neg = vec![1];
        t.init = vec![1, 3];
        t.operators.push(op("clear-b", &[], &[], &[], &[1], 1));
        let (s, _) = simplify(t).unwrap();
        assert!(s.operators.iter().any(|o| o.action == "clear-b"));
        assert!(s.facts.iter().any(|f| f.predicate == "b"));
    }

    #[test]
    fn goal_requiring_a_constant_fact_false_is_unsolvable() {
        let mut t = task();
        t.goal_neg = vec![3];
        assert_eq!(simplify(t).err(), Some(fact("k")));
    }
}
