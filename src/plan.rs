//! Plans: the IPC plan format (read and write) and a validator that replays a
//! plan on the lifted problem, independent of the grounder.
//! (stub: to be written)

use crate::pddl::{Domain, Location, Problem};

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

/// Reads an IPC plan file: one `(action obj ...)` per line, `;` comments.
pub fn parse_plan(text: &str, file: &str) -> Result<Plan, PlanParseError> {
    let _ = (text, file);
    unimplemented!("plan reader")
}

/// Writes a plan in the IPC format, ending with `; cost = N (unit cost)` or
/// `; cost = N (general cost)`.
pub fn format_plan(plan: &Plan, cost: u64, unit_cost: bool) -> String {
    let mut out = String::new();
    for s in &plan.steps {
        out.push('(');
        out.push_str(&s.action);
        for a in &s.args {
            out.push(' ');
            out.push_str(a);
        }
        out.push_str(")\n");
    }
    out.push_str(&format!(
        "; cost = {cost} ({})\n",
        if unit_cost { "unit cost" } else { "general cost" }
    ));
    out
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
}

/// Replays `plan` from the initial state of `problem`.
pub fn validate(domain: &Domain, problem: &Problem, plan: &Plan) -> Result<Validation, InvalidPlan> {
    let _ = (domain, problem, plan);
    unimplemented!("validator")
}
