//! Grounding: from the lifted AST to a compact STRIPS [`Task`].
//! (stub: to be written)

use crate::pddl::{Domain, Problem};
use crate::task::Task;

/// Sizes and time of a grounding run, for the log.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GroundStats {
    pub facts: usize,
    pub operators: usize,
    pub static_facts: usize,
    pub seconds: f64,
}

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GroundError {
    /// A goal fact is not reachable even in the delete relaxation: the task
    /// is proven unsolvable without search.
    #[error("goal {0} is unreachable (relaxed reachability): the task is unsolvable")]
    GoalUnreachable(String),
    /// The task uses something the grounder cannot handle (named).
    #[error("{0}")]
    Unsupported(String),
}

/// Grounds a checked domain and problem. Numbering is deterministic.
pub fn ground(domain: &Domain, problem: &Problem) -> Result<(Task, GroundStats), GroundError> {
    let _ = (domain, problem);
    unimplemented!("grounder")
}
