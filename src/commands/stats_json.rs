//! The `--stats-json` file of `corvus solve` and `corvus asp solve`: one JSON
//! object with the outcome, the exit code and the final statistics. The
//! README documents the fields; the tests and the benchmark harness read
//! them, so names, value types and order stay as they are.

use std::path::Path;

use serde::Serialize;

use crate::planner::{Report, Status};
use crate::puzzles::asp::SolveOutcome;
use crate::search::Statistics;

/// What a `--stats-json` file holds, before its exit code is added.
#[derive(Clone, Debug, Serialize)]
#[serde(untagged)]
pub enum Stats {
    Solve(SolveStats),
    Asp(AspSolveStats),
    /// A run that ended in an error before a search result.
    Error(ErrorStats),
}

/// `corvus solve`: the plan and the grounded task's size.
#[derive(Clone, Debug, Serialize)]
pub struct SolveStats {
    pub status: Status,
    pub plan_length: Option<usize>,
    pub plan_cost: Option<u64>,
    pub unit_cost: Option<bool>,
    pub plan_file: Option<String>,
    /// The configuration that decided (its spec, `astar(lmcut())`).
    pub config: String,
    pub facts: usize,
    pub operators: usize,
    /// The statistics of the search that decided (or of the last one run).
    #[serde(flatten)]
    pub search: Statistics,
    pub total_time_s: f64,
}

/// `corvus asp solve`: the witness's length and the instance's step bound.
#[derive(Clone, Debug, Serialize)]
pub struct AspSolveStats {
    pub status: Status,
    pub plan_length: Option<usize>,
    /// Every step of a witness counts 1, so this is `plan_length`.
    pub plan_cost: Option<usize>,
    pub step_bound: u64,
    /// The stages run (`pegs: astar(pdb(), probe=true), exact-length: ...`).
    pub config: String,
    /// The statistics of the search that decided (or of the last one run).
    #[serde(flatten)]
    pub search: Statistics,
    pub total_time_s: f64,
}

#[derive(Clone, Debug, Serialize)]
pub struct ErrorStats {
    /// Always `error`.
    pub status: &'static str,
    pub error: String,
}

impl SolveStats {
    pub fn new(report: &Report, plan_file: &Path) -> Self {
        let found = report.plan.as_ref();
        SolveStats {
            status: report.status,
            plan_length: found.map(|f| f.length),
            plan_cost: found.map(|f| f.cost),
            unit_cost: found.map(|f| f.unit_cost),
            plan_file: found.map(|_| plan_file.display().to_string()),
            config: report.config.clone(),
            facts: report.ground.facts,
            operators: report.ground.operators,
            search: report.search.clone(),
            total_time_s: report.total_time.as_secs_f64(),
        }
    }
}

impl AspSolveStats {
    pub fn new(outcome: &SolveOutcome, step_bound: u64) -> Self {
        AspSolveStats {
            status: outcome.status,
            plan_length: outcome.plan_length,
            plan_cost: outcome.plan_length,
            step_bound,
            config: outcome.stages.join(", "),
            search: outcome.search.clone(),
            total_time_s: outcome.total_time.as_secs_f64(),
        }
    }
}

impl Stats {
    pub fn error(message: impl Into<String>) -> Self {
        Stats::Error(ErrorStats {
            status: "error",
            error: message.into(),
        })
    }

    /// The file's text: the object with `exit_code` added, on one line.
    /// The keys are in alphabetical order, the order the file has always
    /// had: the object goes through `serde_json::Value`, whose map sorts
    /// its keys.
    pub fn to_json(&self, exit_code: i32) -> serde_json::Result<String> {
        #[derive(Serialize)]
        struct WithExitCode<'a> {
            #[serde(flatten)]
            stats: &'a Stats,
            exit_code: i32,
        }
        let object = serde_json::to_value(WithExitCode { stats: self, exit_code })?;
        Ok(format!("{object}\n"))
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::ground::GroundStats;

    fn statistics() -> Statistics {
        Statistics {
            expanded: 7,
            evaluated: 9,
            generated: 12,
            reopened: 0,
            dead_ends: 1,
            pruned_by_bound: 2,
            initial_h: Some(3),
            expanded_until_last_layer: Some(5),
            search_time: Duration::from_millis(250),
            peak_memory_bytes: 4096,
        }
    }

    #[test]
    fn solve_stats_keep_their_names_types_and_order() {
        let report = Report {
            status: Status::OutOfTime,
            plan: None,
            ground: GroundStats {
                facts: 5,
                operators: 6,
                ..GroundStats::default()
            },
            search: statistics(),
            config: "astar(lmcut)".to_string(),
            total_time: Duration::from_millis(500),
            proven_optimal: false,
        };
        let text = Stats::Solve(SolveStats::new(&report, Path::new("sas_plan")))
            .to_json(23)
            .unwrap();
        assert_eq!(
            text,
            "{\"config\":\"astar(lmcut)\",\"dead_ends\":1,\"evaluated\":9,\"exit_code\":23,\"expanded\":7,\
             \"facts\":5,\"generated\":12,\"initial_h\":3,\"operators\":6,\"peak_memory_bytes\":4096,\
             \"plan_cost\":null,\"plan_file\":null,\"plan_length\":null,\"pruned_by_bound\":2,\"reopened\":0,\
             \"search_time_s\":0.25,\"status\":\"out-of-time\",\"total_time_s\":0.5,\"unit_cost\":null}\n"
        );
    }

    #[test]
    fn asp_stats_add_the_step_bound() {
        let outcome = SolveOutcome {
            status: Status::Solved,
            witness: None,
            plan_length: Some(4),
            search: statistics(),
            stages: vec!["plain: a".to_string(), "exact-length: b".to_string()],
            total_time: Duration::from_secs(1),
        };
        let text = Stats::Asp(AspSolveStats::new(&outcome, 4)).to_json(0).unwrap();
        assert_eq!(
            text,
            "{\"config\":\"plain: a, exact-length: b\",\"dead_ends\":1,\"evaluated\":9,\"exit_code\":0,\
             \"expanded\":7,\"generated\":12,\"initial_h\":3,\"peak_memory_bytes\":4096,\"plan_cost\":4,\
             \"plan_length\":4,\"pruned_by_bound\":2,\"reopened\":0,\"search_time_s\":0.25,\"status\":\"solved\",\
             \"step_bound\":4,\"total_time_s\":1.0}\n"
        );
    }

    #[test]
    fn errors_have_status_error_and_the_message() {
        let text = Stats::error("f.pddl:1:2: boom").to_json(31).unwrap();
        assert_eq!(
            text,
            "{\"error\":\"f.pddl:1:2: boom\",\"exit_code\":31,\"status\":\"error\"}\n"
        );
    }

    #[test]
    fn every_status_has_its_json_name() {
        let names: Vec<String> = [
            Status::Solved,
            Status::Unsolvable,
            Status::Incomplete,
            Status::OutOfTime,
            Status::OutOfMemory,
            Status::Interrupted,
        ]
        .iter()
        .map(|s| serde_json::to_string(s).unwrap())
        .collect();
        assert_eq!(
            names,
            [
                "\"solved\"",
                "\"unsolvable\"",
                "\"incomplete\"",
                "\"out-of-time\"",
                "\"out-of-memory\"",
                "\"interrupted\""
            ]
        );
    }
}
