//! Pattern databases over the task's mutex groups (stub: to be written).

use super::{Estimate, Heuristic};
use crate::state::StateBits;
use crate::task::Task;

/// Budgets for building pattern databases.
#[derive(Clone, Debug)]
pub struct PdbConfig {
    /// Largest number of abstract states of one pattern database.
    pub max_pdb_size: usize,
    /// Largest total number of abstract states over all pattern databases.
    pub max_total_size: usize,
    /// Wall-clock budget for pattern selection and construction, seconds.
    pub max_time_secs: f64,
}

impl Default for PdbConfig {
    fn default() -> Self {
        PdbConfig {
            max_pdb_size: 2_000_000,
            max_total_size: 20_000_000,
            max_time_secs: 30.0,
        }
    }
}

pub struct PdbHeuristic {}

impl PdbHeuristic {
    pub fn new(task: &Task, config: &PdbConfig) -> Self {
        let _ = (task, config);
        PdbHeuristic {}
    }
}

impl Heuristic for PdbHeuristic {
    fn name(&self) -> &str {
        "pdb"
    }

    fn evaluate(&mut self, state: &StateBits) -> Estimate {
        let _ = state;
        unimplemented!("pdb")
    }

    fn is_admissible(&self) -> bool {
        true
    }
}
