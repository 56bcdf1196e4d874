//! `corvus solve` and `corvus validate`.

use std::ops::ControlFlow;
use std::path::{Path, PathBuf};

use super::stats_json::{SolveStats, Stats};
use super::{CommandError, finish, read_file, write_stats};
use crate::exit;
use crate::plan;
use crate::planner::{self, FoundPlan, Options, Report};

/// Solves the task, writes the plan to `plan_file` (with `--anytime`, each
/// better plan to `plan_file.1`, `.2`, ...) and the statistics to
/// `stats_json` (when given, also after an error).
pub fn solve(domain: &Path, problem: &Path, options: &Options, plan_file: &Path, stats_json: Option<&Path>) -> i32 {
    let result = if options.anytime {
        solve_anytime(domain, problem, options, plan_file)
    } else {
        solve_and_write_plan(domain, problem, options, plan_file).map(|report| (report, plan_file.to_path_buf()))
    };
    let (code, stats) = match result {
        Ok((report, written)) => (
            report.status.exit_code(),
            Stats::Solve(SolveStats::new(&report, &written)),
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
    log_outcome(&report, options);
    let Some(found) = &report.plan else {
        return Ok(report);
    };
    write_plan(found, plan_file, options)?;
    Ok(report)
}

/// `--anytime`: removes the numbered plan files of an earlier run, then
/// writes each plan as it is found to the next numbered file (the IPC
/// anytime convention). Returns the report and the file of the best plan.
fn solve_anytime(
    domain: &Path,
    problem: &Path,
    options: &Options,
    plan_file: &Path,
) -> Result<(Report, PathBuf), CommandError> {
    remove_numbered_plan_files(plan_file).map_err(CommandError::io(format!(
        "cannot remove the numbered plan files of {}",
        plan_file.display()
    )))?;
    let mut written = 0;
    let mut write_error = None;
    let mut on_plan = |found: &FoundPlan| {
        let path = numbered_plan_file(plan_file, written + 1);
        match write_plan(found, &path, options) {
            Ok(()) => {
                written += 1;
                ControlFlow::Continue(())
            }
            Err(e) => {
                write_error = Some(e);
                ControlFlow::Break(())
            }
        }
    };
    let report = planner::solve_files_with(domain, problem, options, &mut on_plan)?;
    if let Some(e) = write_error {
        return Err(e);
    }
    log_outcome(&report, options);
    Ok((report, numbered_plan_file(plan_file, written)))
}

/// The log's last word on a run: its configuration and status.
fn log_outcome(report: &Report, options: &Options) {
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
}

fn write_plan(found: &FoundPlan, path: &Path, options: &Options) -> Result<(), CommandError> {
    found
        .write_plan_file(path)
        .map_err(CommandError::io(format!("cannot write plan file {}", path.display())))?;
    if options.verbose {
        eprintln!(
            "plan written to {} (length {}, cost {})",
            path.display(),
            found.length,
            found.cost
        );
    }
    Ok(())
}

/// `sas_plan.3` for `sas_plan` and 3.
fn numbered_plan_file(plan_file: &Path, number: usize) -> PathBuf {
    let mut name = plan_file.as_os_str().to_os_string();
    name.push(format!(".{number}"));
    PathBuf::from(name)
}

/// Removes every `PLAN_FILE.N` (N a number) next to `plan_file`, so that
/// the numbered plans after a run are that run's only.
pub fn remove_numbered_plan_files(plan_file: &Path) -> std::io::Result<()> {
    let Some(name) = plan_file.file_name().and_then(|n| n.to_str()) else {
        return Ok(());
    };
    let dir = match plan_file.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let prefix = format!("{name}.");
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        // No directory yet: nothing stale in it (writing the plan will say why).
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(e),
    };
    for entry in entries {
        let entry = entry?;
        let file_name = entry.file_name();
        let is_numbered = file_name
            .to_str()
            .and_then(|f| f.strip_prefix(&prefix))
            .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()));
        if is_numbered && entry.file_type()?.is_file() {
            std::fs::remove_file(entry.path())?;
        }
    }
    Ok(())
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
