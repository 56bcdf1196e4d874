//! `corvus solve` and `corvus validate`.

use std::io::Write;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use super::files::{self, Inputs, Kind};
use super::stats_json::{SolveStats, Stats};
use super::{CommandError, finish, write_stats, write_stdout};
use crate::exit;
use crate::ground::GroundStats;
use crate::limits;
use crate::plan;
use crate::planner::{self, FoundPlan, Options, Report, Status};

/// The best plan an anytime run has written so far and its file: the
/// answer when a stop ends the process (see [`solve`]).
type Written = Arc<Mutex<Option<(FoundPlan, PathBuf)>>>;

/// `--plan-file -`: the plan goes to stdout.
pub const STDOUT: &str = "-";

/// Solves the task, writes the plan to `plan_file` (stdout for `-`; with
/// `--anytime`, each better plan to `plan_file.1`, `.2`, ...) and the
/// statistics to `stats_json` (when given, also after an error or a stop).
/// Plan files of an earlier run are removed first.
pub fn solve(domain: &Path, problem: &Path, options: &Options, plan_file: &Path, stats_json: Option<&Path>) -> i32 {
    let inputs = Inputs::new([domain, problem]);
    // A statistics path that is refused gets no statistics.
    let stats_refused = match stats_json {
        Some(path) if plan_file != Path::new(STDOUT) && files::same_path(path, plan_file) => {
            Err(CommandError::Usage(format!(
                "{}: named as both the plan file and the statistics file",
                path.display()
            )))
        }
        Some(path) => inputs.remove_stale(path, Kind::Stats),
        None => Ok(()),
    };
    if let Err(e) = stats_refused {
        return finish(Err(e));
    }
    if plan_file != Path::new(STDOUT)
        && let Err(e) = inputs.remove_stale_plans(plan_file)
    {
        return conclude(Err(e), options, stats_json);
    }
    // A stop outside the search ends the process from its checkpoint
    // (see `limits::exit_report`), with the same log and statistics. If an
    // anytime run has written a plan by then, the best one is the answer:
    // the stop may come while a later phase builds its heuristic, or from
    // the watchdog when a phase does not reach a checkpoint in time.
    let written: Written = Arc::default();
    let (opts, plan, stats, best) = (
        options.clone(),
        plan_file.to_path_buf(),
        stats_json.map(Path::to_path_buf),
        Arc::clone(&written),
    );
    limits::exit_report(move |stopped| {
        // This may run on the watchdog thread: the start comes from the stop.
        let start = Instant::now().checked_sub(stopped.elapsed).unwrap_or_else(Instant::now);
        let report = planner::stopped_report(stopped.clone(), GroundStats::default(), start, &opts);
        let best = best.lock().unwrap_or_else(|e| e.into_inner()).clone();
        conclude(Ok(answer_at_stop(report, best, &plan)), &opts, stats.as_deref())
    });
    let result = if options.anytime {
        solve_anytime(domain, problem, options, plan_file, &written)
    } else {
        solve_and_write_plan(domain, problem, options, plan_file).map(|report| (report, plan_file.to_path_buf()))
    };
    conclude(result, options, stats_json)
}

/// The answer of a run that a stop ended: the best plan written so far, if
/// any (an anytime run has found a plan: exit 0), else the stop's report.
/// Returns the report and the file of the plan.
fn answer_at_stop(mut report: Report, best: Option<(FoundPlan, PathBuf)>, plan_file: &Path) -> (Report, PathBuf) {
    match best {
        Some((found, file)) => {
            report.status = Status::Solved;
            report.plan = Some(found);
            (report, file)
        }
        None => (report, plan_file.to_path_buf()),
    }
}

/// Logs the outcome, writes the statistics and returns the exit code.
/// `written`: the file of the (best) plan.
fn conclude(result: Result<(Report, PathBuf), CommandError>, options: &Options, stats_json: Option<&Path>) -> i32 {
    let (code, stats) = match result {
        Ok((report, written)) => {
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
                Stats::Solve(SolveStats::new(&report, &written)),
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
    if let Some(found) = &report.plan {
        write_plan(found, plan_file, options)?;
    }
    Ok(report)
}

/// `--anytime`: writes each plan as it is found to the next numbered file
/// (the IPC anytime convention; those of an earlier run are gone already)
/// and keeps the last one in `best`. Returns the report and the file of the
/// best plan.
fn solve_anytime(
    domain: &Path,
    problem: &Path,
    options: &Options,
    plan_file: &Path,
    best: &Written,
) -> Result<(Report, PathBuf), CommandError> {
    let mut written = 0;
    let mut write_error = None;
    let mut on_plan = |found: &FoundPlan| {
        let path = numbered_plan_file(plan_file, written + 1);
        match write_plan(found, &path, options) {
            Ok(()) => {
                written += 1;
                *best.lock().unwrap_or_else(|e| e.into_inner()) = Some((found.clone(), path));
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
    Ok((report, numbered_plan_file(plan_file, written)))
}

/// Writes a plan in the IPC format to `path`, or to stdout for `-`.
fn write_plan(found: &FoundPlan, path: &Path, options: &Options) -> Result<(), CommandError> {
    if path == Path::new(STDOUT) {
        write_stdout(|out| out.write_all(found.to_ipc().as_bytes()))?;
    } else {
        files::write(path, found.to_ipc().as_bytes())
            .map_err(CommandError::io(format!("{}: cannot write plan file", path.display())))?;
    }
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

/// `sas_plan.3` for `sas_plan` and 3 (`-.3` is not a thing: stdout stays stdout).
fn numbered_plan_file(plan_file: &Path, number: usize) -> PathBuf {
    if plan_file == Path::new(STDOUT) {
        return plan_file.to_path_buf();
    }
    let mut name = plan_file.as_os_str().to_os_string();
    name.push(format!(".{number}"));
    PathBuf::from(name)
}

/// The domain file of a problem given alone (`corvus PROBLEM`), found by the
/// naming habits of the IPC benchmark sets, in the order Fast Downward's
/// driver tries them: `domain.pddl` beside it, then for `p01.pddl`
/// `p01-domain.pddl`, `p01-domain.pddl` from the first three characters,
/// `domain_p01.pddl` and `domain-p01.pddl`. The error lists what was tried.
pub fn domain_of(problem: &Path) -> Result<PathBuf, CommandError> {
    let name = problem
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let stem = problem
        .file_stem()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let extension = problem
        .extension()
        .map(|e| format!(".{}", e.to_string_lossy()))
        .unwrap_or_default();
    let prefix: String = name.chars().take(3).collect();
    let candidates = [
        "domain.pddl".to_string(),
        format!("{stem}-domain{extension}"),
        format!("{prefix}-domain.pddl"),
        format!("domain_{name}"),
        format!("domain-{name}"),
    ];
    let found = candidates
        .iter()
        .map(|c| problem.with_file_name(c))
        .find(|c| c.is_file());
    found.ok_or_else(|| {
        CommandError::Usage(format!(
            "{}: no domain file given, and none beside it by the usual names ({})",
            problem.display(),
            candidates.join(", ")
        ))
    })
}

/// Checks a plan file against a task; the verdict goes to stdout.
pub fn validate(domain: &Path, problem: &Path, plan_path: &Path) -> i32 {
    finish(validate_plan_file(domain, problem, plan_path))
}

fn validate_plan_file(domain: &Path, problem: &Path, plan_path: &Path) -> Result<i32, CommandError> {
    let (domain, problem) = crate::pddl::load(domain, problem)?;
    let text = crate::pddl::read_text(plan_path)?;
    let file = plan_path.display().to_string();
    let verdict = plan::validate_text(&domain, &problem, &text, &file)?;
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

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::limits::{Phase, Stop, Stopped};

    fn stopped_in_heuristic_construction() -> Report {
        let stopped = Stopped {
            stop: Stop::OutOfTime,
            phase: Phase::HeuristicConstruction,
            item: None,
            elapsed: Duration::from_secs(60),
        };
        planner::stopped_report(stopped, GroundStats::default(), Instant::now(), &Options::default())
    }

    #[test]
    fn a_stop_after_an_anytime_plan_answers_with_that_plan() {
        let found = FoundPlan {
            plan: plan::parse_plan("(drive a b)\n(drive b c)\n", "plan").expect("plan"),
            length: 2,
            cost: 7,
            unit_cost: false,
        };
        let best = Some((found.clone(), PathBuf::from("sas_plan.3")));
        let (report, file) = answer_at_stop(stopped_in_heuristic_construction(), best, Path::new("sas_plan"));
        assert_eq!(
            (report.status, report.status.exit_code()),
            (Status::Solved, exit::PLAN_FOUND)
        );
        assert_eq!(report.plan, Some(found));
        assert_eq!(file, PathBuf::from("sas_plan.3"));
    }

    #[test]
    fn the_domain_of_a_lone_problem_is_found_by_the_ipc_names() {
        let dir = std::env::temp_dir().join(format!("corvus-domain-of-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("dir");
        let problem = dir.join("p01.pddl");
        // Each name wins over the ones after it.
        let names = ["domain.pddl", "p01-domain.pddl", "domain_p01.pddl", "domain-p01.pddl"];
        for name in names.iter().rev() {
            std::fs::write(dir.join(name), "").expect("write");
            assert_eq!(domain_of(&problem).expect("found"), dir.join(name));
        }
        for name in names {
            std::fs::remove_file(dir.join(name)).expect("remove");
        }
        let err = domain_of(&problem).unwrap_err();
        assert_eq!(err.exit_code(), exit::USAGE);
        assert!(err.to_string().contains("domain_p01.pddl"), "{err}");
        // airport's names: p10-airport3-p1.pddl has p10-domain.pddl.
        std::fs::write(dir.join("p10-domain.pddl"), "").expect("write");
        assert_eq!(
            domain_of(&dir.join("p10-airport3-p1.pddl")).expect("found"),
            dir.join("p10-domain.pddl")
        );
        std::fs::remove_dir_all(&dir).expect("clean up");
    }

    #[test]
    fn a_stop_before_any_plan_is_the_stop() {
        let (report, file) = answer_at_stop(stopped_in_heuristic_construction(), None, Path::new("sas_plan"));
        assert_eq!(
            (report.status, report.status.exit_code()),
            (Status::OutOfTime, exit::OUT_OF_TIME)
        );
        assert_eq!(report.plan, None);
        assert_eq!(file, PathBuf::from("sas_plan"));
    }
}
