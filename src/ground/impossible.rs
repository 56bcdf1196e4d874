//! Operators that apply in no reachable state, found with the invariants of
//! [`crate::task::invariants`]: they require two facts of one invariant
//! group (which never hold together), require a fact both true and false,
//! or would make two facts of a group true. The delete relaxation does not
//! know this and happily uses them, which weakens every relaxation
//! heuristic (h_max, LM-cut, h_FF); removing them changes no plan.
//! Operators that needed a fact only removed operators added go too
//! (forward reachability again).

use crate::task::invariants::MutexTable;
use crate::task::{MutexGroup, Task};

/// Removes the operators that can never apply by the task's invariant
/// `groups`; returns the task and how many were removed. Facts stay (the
/// relevance analysis drops those that nothing needs any more).
pub fn remove_impossible_operators(mut task: Task, groups: &[MutexGroup]) -> (Task, usize) {
    // The reachability below reads only unconditional adds and knows
    // nothing of derived facts: such tasks are kept as they are (their
    // invariant synthesis finds no groups anyway).
    if groups.is_empty() || task.has_conditional_effects() || task.has_axioms() {
        return (task, 0);
    }
    let mutex = MutexTable::new(task.num_facts(), groups);
    let possible: Vec<bool> = task.operators.iter().map(|op| !mutex.never_applies(op)).collect();
    // Forward relaxed reachability over the possible operators.
    let mut reached = vec![false; task.num_facts()];
    for &f in &task.init {
        reached[f as usize] = true;
    }
    let mut applied = vec![false; task.num_operators()];
    loop {
        let mut changed = false;
        for (o, op) in task.operators.iter().enumerate() {
            if applied[o] || !possible[o] || !op.pre.iter().all(|&f| reached[f as usize]) {
                continue;
            }
            applied[o] = true;
            changed = true;
            for &f in &op.add {
                reached[f as usize] = true;
            }
        }
        if !changed {
            break;
        }
    }
    let before = task.operators.len();
    let mut keep = applied.into_iter();
    task.operators.retain(|_| keep.next().unwrap_or(false));
    let removed = before - task.operators.len();
    (task, removed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::task::testing::task;

    #[test]
    fn operators_needing_two_values_of_one_variable_go() {
        // Facts 0, 1, 2: a token at one of three places (exactly one holds).
        // op0 moves it 0 -> 1, op1 1 -> 2, op2 needs it at 0 and at 1 (never),
        // op3 adds fact 3 and needs fact 4, which only op2 adds.
        let t = task(
            5,
            &[
                (&[0], &[], &[1], &[0], 1),
                (&[1], &[], &[2], &[1], 1),
                (&[0, 1], &[], &[4], &[], 1),
                (&[4], &[], &[3], &[], 1),
            ],
            &[0],
            &[2],
            &[],
        );
        let groups = t.invariant_groups().to_vec();
        let (pruned, removed) = remove_impossible_operators(t, &groups);
        assert_eq!(removed, 2);
        let names: Vec<&str> = pruned.operators.iter().map(|o| o.action.as_str()).collect();
        assert_eq!(names, ["op0", "op1"]);
    }
}
