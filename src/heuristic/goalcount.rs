//! The number of unsatisfied goal facts: cheap, inadmissible, and useful as a
//! baseline for greedy search.

use super::{BuildContext, Estimate, Heuristic, HeuristicKind};
use crate::task::Task;
use crate::task::state::StateBits;

pub static GOAL_COUNT: HeuristicKind = HeuristicKind {
    name: "goalcount",
    also_named: &[],
    help: "number of unsatisfied goals",
    admissible: false,
    preferred_operators: false,
    negative_goals: true,
    conditional_effects: true,
    axioms: true,
    build: |task: &Task, _: &BuildContext| Box::new(GoalCount::new(task)),
};

pub struct GoalCount {
    goal: Vec<u32>,
    goal_neg: Vec<u32>,
}

impl GoalCount {
    pub fn new(task: &Task) -> Self {
        GoalCount {
            goal: task.goal.clone(),
            goal_neg: task.goal_neg.clone(),
        }
    }
}

impl Heuristic for GoalCount {
    fn name(&self) -> &str {
        GOAL_COUNT.name
    }

    fn evaluate(&mut self, state: &StateBits) -> Estimate {
        let missing = self.goal.iter().filter(|&&f| !state[f as usize]).count()
            + self.goal_neg.iter().filter(|&&f| state[f as usize]).count();
        Some(missing as u64)
    }

    fn is_admissible(&self) -> bool {
        GOAL_COUNT.admissible
    }
}
