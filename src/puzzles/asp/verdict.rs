//! What `asp solve` says about its outcome on stderr: the searches it ran,
//! and the verdict in the competition's terms.

use super::SolveOutcome;
use crate::planner::Status;

impl SolveOutcome {
    /// The stages run, as the log and the `--stats-json` `config` name them:
    /// `plain: astar(pdb())` (Sokoban), `pegs: ...` (Hanoi), or
    /// `pegs: ..., exact-length: ...`.
    pub fn stages_text(&self) -> String {
        self.stages.join(", ")
    }

    /// `search: pegs: ... | expanded 1234 | total time 0.123s`.
    pub fn summary(&self) -> String {
        format!(
            "search: {} | expanded {} | total time {:.3}s",
            self.stages_text(),
            self.search.expanded,
            self.total_time.as_secs_f64()
        )
    }

    /// The verdict for an instance with `step_bound`: a witness, a proof
    /// that none exists, or the limit that stopped the search.
    pub fn verdict(&self, step_bound: u64) -> String {
        match self.plan_length {
            Some(n) => format!("witness of {n} steps (bound {step_bound}), validated by replay"),
            // Only Hanoi runs a second stage, and its proof is about the
            // exact-length model: exactly k moves, no disc moved twice in a row.
            None if self.status == Status::Unsolvable && self.stages.len() > 1 => format!(
                "no witness: proven that no plan of exactly {step_bound} moves without moving a disc twice in a row exists"
            ),
            None if self.status == Status::Unsolvable => {
                format!("no witness: proven that no plan within the bound of {step_bound} steps exists")
            }
            None => format!("no answer: {}", self.status.describe()),
        }
    }
}
