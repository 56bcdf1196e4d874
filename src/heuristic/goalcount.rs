//! The number of unsatisfied goal facts: cheap, inadmissible, and useful as a
//! baseline for greedy search.

use super::{Estimate, Heuristic};
use crate::task::Task;
use crate::task::state::StateBits;

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
        "goalcount"
    }

    fn evaluate(&mut self, state: &StateBits) -> Estimate {
        let missing = self.goal.iter().filter(|&&f| !state[f as usize]).count()
            + self.goal_neg.iter().filter(|&&f| state[f as usize]).count();
        Some(missing as u64)
    }

    fn is_admissible(&self) -> bool {
        false
    }
}
