//! `corvus solve` and `corvus validate`.

use std::path::Path;

use super::stats_json::{SolveStats, Stats};
use super::{CommandError, finish, read_file, write_stats};
use crate::exit;
use crate::plan;
use crate::planner::{self, Options, Report};

/// Solves the task, writes the plan to `plan_file` and the statistics to
/// `stats_json` (when given, also after an error).
pub fn solve(domain: &Path, problem: &Path, options: &Options, plan_file: &Path, stats_json: Option<&Path>) -> i32 {
    let (code, stats) = match solve_and_write_plan(domain, problem, options, plan_file) {
        Ok(report) => (
            report.status.exit_code(),
            Stats::Solve(SolveStats::new(&report, plan_file)),
        ),
        Err(e) => {
            eprintln!("error: {e}");
            (e.exit_code(), Stats::error(e.to_string()))
        }
    };
    write_stats(stats_json, &stats, code)
}

fn solve_and_write_plan(
    domain: &Path,
    problem: &Path,
    options: &Options,
    plan_file: &Path,
) -> Result<Report, CommandError> {
    let report = planner::solve_files(domain, problem, options)?;
    if options.verbose {
        eprintln!(
            "configuration: {} | status: {} | total time {:.3}s",
            report.config,
            report.status.describe(),
            report.total_time.as_secs_f64()
        );
    }
    let Some(found) = &report.plan else {
        eprintln!("{}", report.status.describe());
        return Ok(report);
    };
    found.write_plan_file(plan_file).map_err(CommandError::io(format!(
        "cannot write plan file {}",
        plan_file.display()
    )))?;
    if options.verbose {
        eprintln!(
            "plan written to {} (length {}, cost {})",
            plan_file.display(),
            found.length,
            found.cost
        );
    }
    Ok(report)
}

/// Checks a plan file against a task; the verdict goes to stdout.
pub fn validate(domain: &Path, problem: &Path, plan_path: &Path) -> i32 {
    finish(validate_plan_file(domain, problem, plan_path))
}

fn validate_plan_file(domain: &Path, problem: &Path, plan_path: &Path) -> Result<i32, CommandError> {
    let (domain, problem) = crate::pddl::load(domain, problem)?;
    let plan = plan::parse_plan(&read_file(plan_path)?, &plan_path.display().to_string())?;
    Ok(match plan::validate(&domain, &problem, &plan) {
        Ok(v) => {
            println!("plan valid: {} steps, cost {}", v.length, v.cost);
            exit::PLAN_FOUND
        }
        Err(e) => {
            println!("plan invalid: {e}");
            exit::PLAN_INVALID
        }
    })
}
