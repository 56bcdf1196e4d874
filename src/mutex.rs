//! Invariant synthesis: groups of facts of which at most (or exactly) one is
//! true in every reachable state, e.g. "disc d is on x" or "stone s is at c".
//! (stub: to be written)

use crate::task::{FactId, Task};

/// A set of facts of which at most one holds in any reachable state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MutexGroup {
    /// Sorted fact ids.
    pub facts: Vec<FactId>,
    /// True when exactly one of the facts holds in every reachable state.
    pub exactly_one: bool,
}

/// Finds mutex groups of a grounded task. Every fact of the task is covered
/// by exactly one returned group (facts not in any proper invariant form a
/// group of their own), so the groups can serve as finite-domain variables.
pub fn variables(task: &Task) -> Vec<MutexGroup> {
    task.facts
        .iter()
        .enumerate()
        .map(|(i, _)| MutexGroup {
            facts: vec![i as FactId],
            exactly_one: false,
        })
        .collect()
}
