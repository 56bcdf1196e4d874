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

use crate::task::{Axiom, CondEffect, Fact, FactId, Invariants, Operator, Task};

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
    if task.has_axioms() {
        return Ok(without_unused_derived_facts(task));
    }
    // The analysis below reads only unconditional effects and knows nothing
    // of derived facts: such tasks are kept as they are.
    if task.has_conditional_effects() {
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
        let simplified = renumbered(op, map);
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

/// Drops the derived facts that no operator, goal or rule of a used derived
/// fact mentions, with their rules. The grounder derives every reachable
/// instance of a quantifier's predicate, also those of parameter
/// combinations no operator has: a rule for "no other segment of t, s2, d2
/// than s1 is occupied" over every s1, where the operators need one s1 per
/// (t, s2, d2), makes 113,000 derived facts of which 3,550 are used, and
/// every state evaluation pays for all of them. Basic facts and operators
/// stay as they are.
pub(super) fn without_unused_derived_facts(task: Task) -> (Task, Removed) {
    let n = task.num_facts();
    let mut used = vec![false; n];
    let mut queue: Vec<FactId> = Vec::new();
    let mut mark = |f: FactId, queue: &mut Vec<FactId>| {
        if task.is_derived(f) && !std::mem::replace(&mut used[f as usize], true) {
            queue.push(f);
        }
    };
    for op in &task.operators {
        for &f in op.conditions() {
            mark(f, &mut queue);
        }
    }
    for &f in task.goal.iter().chain(&task.goal_neg) {
        mark(f, &mut queue);
    }
    let mut rules_of: Vec<Vec<u32>> = vec![Vec::new(); n];
    for (i, axiom) in task.axioms.iter().enumerate() {
        rules_of[axiom.head as usize].push(i as u32);
    }
    while let Some(f) = queue.pop() {
        for &i in &rules_of[f as usize] {
            let axiom = &task.axioms[i as usize];
            for &p in axiom.pre.iter().chain(&axiom.pre_neg) {
                mark(p, &mut queue);
            }
        }
    }
    let unused = (0..n).filter(|&f| task.is_derived(f as FactId) && !used[f]).count();
    if unused == 0 {
        return (task, Removed::default());
    }

    let mut new_id: Vec<Option<FactId>> = vec![None; n];
    let (mut facts, mut derived) = (Vec::new(), Vec::new());
    for (f, fact) in task.facts.iter().enumerate() {
        if !task.is_derived(f as FactId) || used[f] {
            new_id[f] = Some(facts.len() as FactId);
            facts.push(fact.clone());
            derived.push(task.is_derived(f as FactId));
        }
    }
    // Every fact an operator, a goal or a kept rule mentions is kept.
    let map = |list: &[FactId]| -> Vec<FactId> { list.iter().map(|&f| new_id[f as usize].expect("kept")).collect() };
    // The kept rules in their order; a layer starts where its first kept rule does.
    let mut axioms = Vec::new();
    let mut kept_before = Vec::with_capacity(task.axioms.len() + 1);
    for axiom in &task.axioms {
        kept_before.push(axioms.len());
        if let Some(head) = new_id[axiom.head as usize] {
            axioms.push(Axiom {
                head,
                pre: map(&axiom.pre),
                pre_neg: map(&axiom.pre_neg),
            });
        }
    }
    kept_before.push(axioms.len());
    let mut axiom_layers: Vec<usize> = task.axiom_layers.iter().map(|&start| kept_before[start]).collect();
    axiom_layers.dedup();
    if axioms.is_empty() {
        // No derived fact is left: the task is one without axioms.
        axiom_layers.clear();
        derived.clear();
    }
    let operators = task.operators.iter().map(|op| renumbered(op, map)).collect();
    let simplified = Task {
        facts,
        operators,
        init: map(&task.init),
        goal: map(&task.goal),
        goal_neg: map(&task.goal_neg),
        axioms,
        axiom_layers,
        derived,
        has_action_costs: task.has_action_costs,
        // Renumbered facts: the grounder verifies the groups anew.
        invariants: Invariants::default(),
    };
    let removed = Removed {
        facts: unused,
        operators: 0,
    };
    (simplified, removed)
}

/// `op` with every fact list (its conditional effects' too) through `map`.
fn renumbered(op: &Operator, map: impl Fn(&[FactId]) -> Vec<FactId>) -> Operator {
    Operator {
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
    }
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

    #[test]
    fn derived_facts_nothing_uses_go_with_their_rules() {
        use crate::task::testing::{cond, task, with_axioms};
        // Basic facts 0 and 1; derived: 2 (operator precondition), 3 (only
        // in a rule of 2, negated), 4 (a conditional effect's condition),
        // 5 and 6 (nothing uses them; 6 only in a rule of 5), 7 (goal).
        let mut t = task(8, &[(&[2], &[], &[1], &[], 1)], &[0], &[1], &[]);
        t.operators[0].cond_effects = vec![cond(&[4], &[], &[], &[0])];
        t.goal = vec![1, 7];
        let t = with_axioms(
            t,
            &[
                &[(3, &[0], &[]), (6, &[0], &[]), (4, &[1], &[])],
                &[(5, &[6], &[]), (2, &[0], &[3])],
                &[(7, &[2], &[])],
            ],
        );
        let (s, removed) = simplify(t).unwrap();
        let names: Vec<&str> = s.facts.iter().map(|f| f.predicate.as_str()).collect();
        assert_eq!(names, ["p0", "p1", "p2", "p3", "p4", "p7"]);
        assert_eq!(removed, Removed { facts: 2, operators: 0 });
        assert_eq!(s.derived, [false, false, true, true, true, true]);
        // The rules of 3 and 4, of 2, of 7 (renumbered 5), layer by layer.
        let rules: Vec<(FactId, Vec<FactId>, Vec<FactId>)> = s
            .axioms
            .iter()
            .map(|a| (a.head, a.pre.clone(), a.pre_neg.clone()))
            .collect();
        assert_eq!(
            rules,
            [
                (3, vec![0], vec![]),
                (4, vec![1], vec![]),
                (2, vec![0], vec![3]),
                (5, vec![2], vec![])
            ]
        );
        assert_eq!(s.axiom_layers, [0, 2, 3, 4]);
        assert_eq!(
            (s.operators[0].pre.clone(), s.operators[0].cond_effects[0].pre.clone()),
            (vec![2], vec![4])
        );
        assert_eq!(s.goal, [1, 5]);
    }

    #[test]
    fn a_task_whose_derived_facts_are_all_used_stays_as_it_is() {
        use crate::task::testing::{task, with_axioms};
        let t = with_axioms(
            task(3, &[(&[2], &[], &[1], &[], 1)], &[0], &[1], &[]),
            &[&[(2, &[0], &[])]],
        );
        let (s, removed) = simplify(t.clone()).unwrap();
        assert_eq!((s, removed), (t, Removed::default()));
    }
}
