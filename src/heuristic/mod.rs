//! Heuristics: estimates of the cost from a state to the goal.
//!
//! Every heuristic implements [`Heuristic`]. h_max, h_add and h_FF share one
//! relaxation engine ([`relax`]); LM-cut ([`lmcut`]) and pattern databases
//! ([`pdb`]) are the stronger admissible ones.

pub mod goalcount;
pub mod lmcut;
pub mod pdb;
pub mod perimeter;
pub mod relax;
pub mod unary;

use std::time::Duration;

use crate::state::StateBits;
use crate::task::{OpId, Task};

/// A heuristic value; `None` is a proven dead end (the goal cannot be reached
/// from the state, not even in the relaxation the heuristic uses).
pub type Estimate = Option<u64>;

pub trait Heuristic {
    /// Short name for logs, e.g. `hff`.
    fn name(&self) -> &str;

    /// Estimates the cost from `state` to the goal.
    fn evaluate(&mut self, state: &StateBits) -> Estimate;

    /// Preferred (helpful) operators of the state last evaluated; empty for
    /// heuristics that have none.
    fn preferred_operators(&self) -> &[OpId] {
        &[]
    }

    /// True when the estimate never exceeds the true cost, so that pruning on
    /// it is sound and its dead ends are real.
    fn is_admissible(&self) -> bool;

    /// What building the heuristic made, for the log (e.g. the pattern
    /// databases chosen); `None` for heuristics with nothing to report.
    fn build_report(&self) -> Option<String> {
        None
    }
}

/// The heuristics the command line offers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HeuristicKind {
    Blind,
    GoalCount,
    HMax,
    HAdd,
    HFF,
    LmCut,
    Pdb,
}

impl HeuristicKind {
    pub fn build(self, task: &Task) -> Box<dyn Heuristic> {
        self.build_within(task, None)
    }

    /// Builds the heuristic for a probe: a short first try whose result must
    /// not depend on the machine, so nothing is built against the clock.
    pub fn build_probe(self, task: &Task) -> Box<dyn Heuristic> {
        match self {
            HeuristicKind::Pdb => Box::new(pdb::PdbHeuristic::new(task, &pdb::PdbConfig::probe())),
            other => other.build(task),
        }
    }

    /// Builds the heuristic for a run with the given time limit, which sets
    /// the budget of those that spend time before the search (PDBs).
    pub fn build_within(self, task: &Task, time_limit: Option<Duration>) -> Box<dyn Heuristic> {
        match self {
            HeuristicKind::Blind => Box::new(Blind::new(task)),
            HeuristicKind::GoalCount => Box::new(goalcount::GoalCount::new(task)),
            HeuristicKind::HMax => Box::new(relax::RelaxationHeuristic::new(task, relax::Mode::Max)),
            HeuristicKind::HAdd => Box::new(relax::RelaxationHeuristic::new(task, relax::Mode::Add)),
            HeuristicKind::HFF => Box::new(relax::RelaxationHeuristic::new(task, relax::Mode::FF)),
            HeuristicKind::LmCut => Box::new(lmcut::LmCut::new(task)),
            HeuristicKind::Pdb => Box::new(pdb::PdbHeuristic::new(task, &pdb::PdbConfig::within(time_limit))),
        }
    }
}

/// 0 on goal states, otherwise the cheapest operator cost: admissible and
/// uninformed.
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
        "blind"
    }

    fn evaluate(&mut self, state: &StateBits) -> Estimate {
        let goal = Task::goal_holds(&self.goal, &self.goal_neg, state);
        Some(if goal { 0 } else { self.min_cost })
    }

    fn is_admissible(&self) -> bool {
        true
    }
}
