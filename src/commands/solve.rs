//! `corvus solve` and `corvus validate`.

use std::io::Write;
use std::path::Path;
use std::time::Instant;

use super::stats_json::{SolveStats, Stats};
use super::{CommandError, finish, read_file, write_stats, write_stdout};
use crate::exit;
use crate::ground::GroundStats;
use crate::limits;
use crate::plan;
use crate::planner::{self, Options, Report};

/// `--plan-file -`: the plan goes to stdout.
pub const STDOUT: &str = "-";

/// Solves the task, writes the plan to `plan_file` (stdout for `-`) and the
/// statistics to `stats_json` (when given, also after an error or a stop).
/// Plan files of an earlier run are removed first.
pub fn solve(domain: &Path, problem: &Path, options: &Options, plan_file: &Path, stats_json: Option<&Path>) -> i32 {
    if plan_file != Path::new(STDOUT)
        && let Err(e) = planner::remove_plan_files(plan_file)
    {
        let e = CommandError::io(format!("{}: cannot remove the old plan file", plan_file.display()))(e);
        return conclude(Err(e), options, plan_file, stats_json);
    }
    // A stop outside the search ends the process from its checkpoint
    // (see `limits::exit_report`), with the same log and statistics.
    let (opts, plan, stats) = (
        options.clone(),
        plan_file.to_path_buf(),
        stats_json.map(Path::to_path_buf),
    );
    limits::exit_report(move |stopped| {
        // This may run on the watchdog thread: the start comes from the stop.
        let start = Instant::now().checked_sub(stopped.elapsed).unwrap_or_else(Instant::now);
        let report = planner::stopped_report(stopped.clone(), GroundStats::default(), start, &opts);
        conclude(Ok(report), &opts, &plan, stats.as_deref())
    });
    let result = solve_and_write_plan(domain, problem, options, plan_file);
    conclude(result, options, plan_file, stats_json)
}

/// Logs the outcome, writes the statistics and returns the exit code.
fn conclude(
    result: Result<Report, CommandError>,
    options: &Options,
    plan_file: &Path,
    stats_json: Option<&Path>,
) -> i32 {
    let (code, stats) = match result {
        Ok(report) => {
            if options.verbose {
                eprintln!(
                    "configuration: {} | status: {} | total time {:.3}s",
                    report.config,
                    report.status.describe(),
                    report.total_time.as_secs_f64()
                );
            }
            if report.plan.is_none() {
                eprintln!("{}", report.status.describe());
            }
            (
                report.status.exit_code(),
                Stats::Solve(SolveStats::new(&report, plan_file)),
            )
        }
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
    let Some(found) = &report.plan else {
        return Ok(report);
    };
    if plan_file == Path::new(STDOUT) {
        write_stdout(|out| out.write_all(found.to_ipc().as_bytes()))?;
    } else {
        found.write_plan_file(plan_file).map_err(CommandError::io(format!(
            "{}: cannot write plan file",
            plan_file.display()
        )))?;
    }
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
    let text = read_file(plan_path)?;
    let file = plan_path.display().to_string();
    // The steps are replayed as they are read, so that the memory is the
    // text's and not that of its steps. A syntax error anywhere in the file
    // wins over the replay's verdict, as when the plan is read at once.
    let mut steps = plan::plan_steps(&text, &file);
    let mut syntax_error = None;
    let verdict = plan::validate_steps(
        &domain,
        &problem,
        steps.by_ref().map_while(|s| s.map_err(|e| syntax_error = Some(e)).ok()),
    );
    if let Some(e) = syntax_error.or_else(|| steps.find_map(Result::err)) {
        return Err(e.into());
    }
    Ok(match verdict {
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
