//! Plans: the IPC plan format (read and write) and a validator that replays a
//! plan on the lifted problem, independent of the grounder.
//!
//! The validator deliberately works on the PDDL AST, not on the grounded
//! [`crate::task::Task`]: a bug in grounding or fact numbering must not be able
//! to make a wrong plan look right.
//!
//! This file holds what the parts share and what callers see: the types of
//! plans, of their errors and of a replay's outcome, and the functions of the
//! parts, re-exported so that a caller names them `plan::X` whichever file
//! they live in. `read.rs` reads plan text (also bounded by a task, for
//! `corvus validate`), `write.rs` writes it, `validate.rs` replays a plan.

use std::collections::HashSet;

use crate::pddl::{GroundAtom, Location};

mod read;
#[cfg(test)]
mod tests;
mod validate;
mod write;

pub use read::{PlanSteps, parse_plan, plan_steps};
pub use validate::{replay, uses_action_costs, validate, validate_text};
pub use write::format_plan;

/// One step of a plan: a lifted action with its objects, lower-case.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlanStep {
    pub action: String,
    pub args: Vec<String>,
    /// Where the step stands in a plan file (0:0 for plans from search).
    pub location: Location,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Plan {
    pub steps: Vec<PlanStep>,
}

/// A plan file that does not follow the IPC format.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{file}:{}:{}: {message}", location.line, location.col)]
pub struct PlanParseError {
    pub file: String,
    pub location: Location,
    pub message: String,
}

/// A valid plan's length and cost (under the problem's metric; unit cost
/// when it has none).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Validation {
    pub length: usize,
    pub cost: u64,
}

/// Why a plan is not valid. Steps are numbered from 1.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum InvalidPlan {
    #[error("step {step}: unknown action `{action}`")]
    UnknownAction { step: usize, action: String },
    #[error("step {step}: `{action}` takes {expected} arguments, got {got}")]
    WrongArity {
        step: usize,
        action: String,
        expected: usize,
        got: usize,
    },
    #[error("step {step}: unknown object `{object}`")]
    UnknownObject { step: usize, object: String },
    #[error("step {step} {action}: argument `{object}` is not of type {expected}")]
    WrongType {
        step: usize,
        action: String,
        object: String,
        expected: String,
    },
    #[error("step {step} {action}: precondition {condition} does not hold")]
    Precondition {
        step: usize,
        action: String,
        condition: String,
    },
    #[error("goal {condition} does not hold after the last step")]
    Goal { condition: String },
    /// The action's cost refers to a numeric fluent the problem gives no value.
    #[error("step {step} {action}: cost {term} has no value in the initial state")]
    UndefinedCost { step: usize, action: String, term: String },
    #[error("step {step} {action}: cost {cost} is negative")]
    NegativeCost { step: usize, action: String, cost: i64 },
    /// The domain itself is inconsistent: a condition or effect names a
    /// variable that is not a parameter of the action.
    #[error("step {step} {action}: `{variable}` is not a parameter of the action")]
    UnboundVariable {
        step: usize,
        action: String,
        variable: String,
    },
}

/// The states a plan passes through, replayed as [`validate`] does.
#[derive(Clone, Debug)]
pub struct Replay {
    /// The initial state, then the state after each step that applied
    /// (without derived facts).
    pub states: Vec<HashSet<GroundAtom>>,
    /// The first step that does not apply, or the goal that does not hold
    /// at the end; `None` for a valid plan.
    pub error: Option<InvalidPlan>,
}

/// At most 60 characters of a name or token from the input, for a message:
/// a line may hold a name of 100 MB.
fn short(name: &str) -> String {
    const QUOTED: usize = 60;
    match name.char_indices().nth(QUOTED) {
        Some((cut, _)) => format!("{}...", &name[..cut]),
        None => name.to_string(),
    }
}
