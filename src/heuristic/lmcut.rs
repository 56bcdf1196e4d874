//! LM-cut (stub: to be written).

use super::{Estimate, Heuristic};
use crate::state::StateBits;
use crate::task::Task;

pub struct LmCut {}

impl LmCut {
    pub fn new(task: &Task) -> Self {
        let _ = task;
        LmCut {}
    }
}

impl Heuristic for LmCut {
    fn name(&self) -> &str {
        "lmcut"
    }

    fn evaluate(&mut self, state: &StateBits) -> Estimate {
        let _ = state;
        unimplemented!("lmcut")
    }

    fn is_admissible(&self) -> bool {
        true
    }
}
