//! One relaxation engine for h_max, h_add and h_FF (stub: to be written).

use super::{Estimate, Heuristic};
use crate::state::StateBits;
use crate::task::{OpId, Task};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    Max,
    Add,
    FF,
}

pub struct RelaxationHeuristic {
    mode: Mode,
    preferred: Vec<OpId>,
}

impl RelaxationHeuristic {
    pub fn new(task: &Task, mode: Mode) -> Self {
        let _ = task;
        RelaxationHeuristic {
            mode,
            preferred: Vec::new(),
        }
    }
}

impl Heuristic for RelaxationHeuristic {
    fn name(&self) -> &str {
        match self.mode {
            Mode::Max => "hmax",
            Mode::Add => "hadd",
            Mode::FF => "hff",
        }
    }

    fn evaluate(&mut self, state: &StateBits) -> Estimate {
        let _ = state;
        unimplemented!("relaxation engine")
    }

    fn preferred_operators(&self) -> &[OpId] {
        &self.preferred
    }

    fn is_admissible(&self) -> bool {
        self.mode == Mode::Max
    }
}
