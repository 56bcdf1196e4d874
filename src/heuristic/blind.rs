//! The blind heuristic: 0 on goal states, otherwise the cheapest operator
//! cost. Admissible and uninformed, the baseline for A*.

use super::{BuildContext, Estimate, Heuristic, HeuristicKind};
use crate::task::state::StateBits;
use crate::task::Task;

pub static BLIND: HeuristicKind = HeuristicKind {
    name: "blind",
    also_named: &[],
    help: "0 on goal states, else the cheapest operator cost",
    admissible: true,
    preferred_operators: false,
    negative_goals: true,
    conditional_effects: true,
    axioms: true,
    build: |task: &Task, _: &BuildContext| Box::new(Blind::new(task)),
};

pub struct Blind {
    goal: Vec<u32>,
    goal_neg: Vec<u32>,
    min_cost: u64,
}

impl Blind {
    pub fn new(task: &Task) -> Self {
        Blind {
            goal: task.goal.clone(),
            goal_neg: task.goal_neg.clone(),
            min_cost: task.operators.iter().map(|o| o.cost as u64).min().unwrap_or(0),
        }
    }
}

impl Heuristic for Blind {
    fn name(&self) -> &str {
        BLIND.name
    }

    fn evaluate(&mut self, state: &StateBits) -> Estimate {
        let goal = Task::goal_holds(&self.goal, &self.goal_neg, state);
        Some(if goal { 0 } else { self.min_cost })
    }

    fn is_admissible(&self) -> bool {
        BLIND.admissible
    }
}
