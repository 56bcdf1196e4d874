//! `corvus._corvus`: the planner as a Python extension module. The typed API
//! is `python/corvus/__init__.py`; this module hands it plain values:
//! the outcome as the `--stats-json` object (so Python sees exactly the
//! fields the command line writes) and the plan's steps.
//!
//! Searches run on a thread of their own with the GIL released, so other
//! Python threads go on, while the calling thread looks for Ctrl-C.

use std::ops::ControlFlow;
use std::path::Path;
use std::sync::mpsc;
use std::time::Duration;

use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyBool;

use corvus::commands::stats_json::{SolveStats, Stats};
use corvus::limits::{self, StopHandle};
use corvus::pddl::{self, Domain, PddlError, Problem};
use corvus::planner::{self, FoundPlan, Options, PlannerError, Report};
use corvus::search::Limits;

/// Each run's memory limit counts what its own search thread allocates, not
/// the interpreter's resident size: runs on other threads (another `solve`,
/// Python's own objects) do not count against it.
#[global_allocator]
static ALLOCATOR: limits::CountingAllocator = limits::CountingAllocator;

/// Domain and problem: file paths, or PDDL text when `from_text`.
fn load(domain: &str, problem: &str, from_text: bool) -> Result<(Domain, Problem), PddlError> {
    if from_text {
        let domain = pddl::parse_domain(domain, "<domain>")?;
        let problem = pddl::parse_problem_for(&domain, problem, "<problem>")?;
        Ok((domain, problem))
    } else {
        pddl::load(Path::new(domain), Path::new(problem))
    }
}

/// The options of a run: an alias, a search spec, or a search algorithm's
/// name and heuristics (comma-separated) as on the command line
/// ([`corvus::aliases::choose`]), plus limits in the command line's syntax
/// (`30s`, `512M`).
#[allow(clippy::too_many_arguments)]
fn options(
    alias: Option<&str>,
    search: Option<&str>,
    heuristic: Option<&str>,
    weight: f64,
    preferred_operators: bool,
    time_limit: Option<&str>,
    memory_limit: Option<&str>,
    verbose: bool,
) -> Result<Options, String> {
    let heuristics: Vec<&str> = heuristic
        .map(|h| h.split(',').map(str::trim).collect())
        .unwrap_or_default();
    // The weight is the weighted searches' named by their name; a spec gives its own.
    let named_search = search.is_none_or(|s| corvus::search::kind(s).is_some());
    if named_search && !(weight.is_finite() && weight >= 0.0) {
        return Err(format!("weight must be a finite number, at least 0, not {weight}"));
    }
    let mut choice = corvus::aliases::choose(alias, search, &heuristics, named_search.then_some(weight))?;
    if alias.is_none() && !preferred_operators {
        choice = choice.map(|c| c.without_preferred_operators());
    }
    Ok(Options {
        configs: choice.configs,
        anytime: choice.anytime,
        limits: Limits {
            time: time_limit.map(Limits::parse_time_limit).transpose()?,
            memory_bytes: memory_limit.map(Limits::parse_memory_limit).transpose()?,
            ..Limits::default()
        },
        verbose,
        ..Options::default()
    })
}

/// One plan step: the action's name and its arguments.
type Step = (String, Vec<String>);

fn steps(found: &FoundPlan) -> Vec<Step> {
    found
        .plan
        .steps
        .iter()
        .map(|s| (s.action.clone(), s.args.clone()))
        .collect()
}

/// What the search thread tells the calling thread.
enum Event {
    /// The handle that stops the run (sent first).
    Started(StopHandle),
    /// A validated plan, better than the one before; the search waits for
    /// the answer on the channel that comes with it.
    Plan(Vec<Step>, u64, bool, mpsc::Sender<ControlFlow<()>>),
    Done(Result<Report, PlannerError>),
}

/// How often the calling thread looks for signals (Ctrl-C) and for a
/// cancel request while the search runs.
const POLL: Duration = Duration::from_millis(50);

/// Solves a task. Returns the `--stats-json` object as JSON text (status
/// `error` with the message when the input is refused), the plan's steps
/// when one was found, and whether an anytime run proved it optimal. Bad
/// options raise `ValueError`.
///
/// The search runs on a thread of its own, without the GIL. The calling
/// thread waits for it and, every 50 ms, takes the GIL to look for signals
/// (a Ctrl-C's `KeyboardInterrupt`) and for `cancel.is_set()`: either stops
/// the search at its next checkpoint, and the exception is raised once it
/// has stopped. `on_plan(steps, cost, unit_cost)` is called on the calling
/// thread for each plan as soon as it is found (each one cheaper than the
/// one before in an anytime run) while the search waits; it returning
/// `False` ends the run with that plan, it raising stops the search and the
/// exception is raised.
#[pyfunction]
#[pyo3(signature = (domain, problem, from_text=false, alias=None, search=None, heuristic=None,
                    weight=2.0, preferred_operators=true, time_limit=None, memory_limit=None, verbose=false,
                    anytime=false, on_plan=None, cancel=None))]
#[allow(clippy::too_many_arguments)]
fn solve(
    py: Python<'_>,
    domain: String,
    problem: String,
    from_text: bool,
    alias: Option<&str>,
    search: Option<&str>,
    heuristic: Option<&str>,
    weight: f64,
    preferred_operators: bool,
    time_limit: Option<&str>,
    memory_limit: Option<&str>,
    verbose: bool,
    anytime: bool,
    on_plan: Option<Bound<'_, PyAny>>,
    cancel: Option<Bound<'_, PyAny>>,
) -> PyResult<(String, Option<Vec<Step>>, bool)> {
    let mut options = options(
        alias,
        search,
        heuristic,
        weight,
        preferred_operators,
        time_limit,
        memory_limit,
        verbose,
    )
    .map_err(PyValueError::new_err)?;
    options.anytime |= anytime;
    let result = std::thread::scope(|scope| {
        let (events, receive) = mpsc::channel();
        let worker = scope.spawn(move || search_thread(&domain, &problem, from_text, &options, events));
        // The search has ended (or died) when `wait` returns.
        let outcome = wait(py, receive, on_plan.as_ref(), cancel.as_ref());
        match worker.join() {
            Ok(()) => outcome,
            Err(panic) => {
                let message = panic
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| panic.downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| "the search thread panicked".to_string());
                Err(PyRuntimeError::new_err(format!("corvus: internal error: {message}")))
            }
        }
    })?;
    let (stats, code, steps, proven_optimal) = match result {
        Ok(report) => {
            let mut stats = SolveStats::new(&report, Path::new(""));
            stats.plan_file = None;
            let steps = report.plan.as_ref().map(steps);
            (
                Stats::Solve(stats),
                report.status.exit_code(),
                steps,
                report.proven_optimal,
            )
        }
        Err(e) => (Stats::error(e.to_string()), e.exit_code(), None, false),
    };
    let json = stats.to_json(code).map_err(|e| PyValueError::new_err(e.to_string()))?;
    Ok((json, steps, proven_optimal))
}

/// The body of the search thread: loads and solves under a watch of its own,
/// whose stop handle goes to the calling thread first.
fn search_thread(domain: &str, problem: &str, from_text: bool, options: &Options, events: mpsc::Sender<Event>) {
    let _watch = limits::watch(options.limits);
    if let Some(handle) = limits::stop_handle() {
        let _ = events.send(Event::Started(handle));
    }
    let mut on_plan = |found: &FoundPlan| {
        let (answer, reply) = mpsc::channel();
        let event = Event::Plan(steps(found), found.cost, found.unit_cost, answer);
        if events.send(event).is_err() {
            return ControlFlow::Break(());
        }
        reply.recv().unwrap_or(ControlFlow::Break(()))
    };
    // Inside this thread's watch, the planner's own watch adds nothing.
    let result = planner::solve_loaded_with(|| load(domain, problem, from_text), options, &mut on_plan);
    let _ = events.send(Event::Done(result));
}

/// The calling thread's side: waits for the search's end, hands plans to
/// `on_plan`, and stops the search on a signal, a raising `on_plan` or
/// `cancel`. Returns the search's result, or the exception to raise once
/// the search has stopped.
fn wait(
    py: Python<'_>,
    mut events: mpsc::Receiver<Event>,
    on_plan: Option<&Bound<'_, PyAny>>,
    cancel: Option<&Bound<'_, PyAny>>,
) -> PyResult<Result<Report, PlannerError>> {
    let mut handle: Option<StopHandle> = None;
    let mut error: Option<PyErr> = None;
    let mut stop = false;
    loop {
        // The receiver goes along with the GIL released and comes back.
        let (back, event) = py.detach(move || {
            let event = events.recv_timeout(POLL);
            (events, event)
        });
        events = back;
        match event {
            Ok(Event::Started(h)) => handle = Some(h),
            Ok(Event::Plan(steps, cost, unit_cost, reply)) => {
                let mut flow = ControlFlow::Continue(());
                if stop {
                    flow = ControlFlow::Break(());
                } else if let Some(callback) = on_plan {
                    match callback.call1((steps, cost, unit_cost)) {
                        Ok(answer) => {
                            if answer.is_instance_of::<PyBool>() && !answer.is_truthy().unwrap_or(true) {
                                flow = ControlFlow::Break(());
                            }
                        }
                        Err(e) => {
                            error = Some(e);
                            stop = true;
                            flow = ControlFlow::Break(());
                        }
                    }
                }
                let _ = reply.send(flow);
            }
            Ok(Event::Done(result)) => {
                return match error {
                    Some(e) => Err(e),
                    None => Ok(result),
                };
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {}
            // The search thread died; the caller joins it and reports why.
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                return Err(error.unwrap_or_else(|| PyRuntimeError::new_err("corvus: the search thread ended")));
            }
        }
        if error.is_none()
            && let Err(e) = py.check_signals()
        {
            error = Some(e);
            stop = true;
        }
        if let Some(cancel) = cancel
            && !stop
        {
            match cancel.call_method0("is_set").and_then(|v| v.is_truthy()) {
                Ok(true) => stop = true,
                Ok(false) => {}
                Err(e) => {
                    error = Some(e);
                    stop = true;
                }
            }
        }
        if stop && let Some(h) = &handle {
            h.interrupt();
        }
    }
}

/// Checks a plan (a file, or IPC plan text when `from_text`) against a task.
/// Returns `(valid, length, cost, message, exit_code)`: the length and cost
/// of a valid plan, the first failing step or goal of an invalid one, or
/// the input error (with exit code 31 or 34) when the files are refused.
#[pyfunction]
#[pyo3(signature = (domain, problem, plan, from_text=false))]
fn validate(
    py: Python<'_>,
    domain: String,
    problem: String,
    plan: String,
    from_text: bool,
) -> (bool, usize, u64, Option<String>, i32) {
    py.detach(|| {
        let (d, p) = match load(&domain, &problem, from_text) {
            Ok(loaded) => loaded,
            Err(e) => return (false, 0, 0, Some(e.to_string()), PlannerError::Input(e).exit_code()),
        };
        let (text, file) = if from_text {
            (plan, "<plan>".to_string())
        } else {
            match std::fs::read_to_string(&plan) {
                Ok(text) => (text, plan),
                Err(e) => {
                    return (
                        false,
                        0,
                        0,
                        Some(format!("{plan}: cannot read file: {e}")),
                        corvus::exit::INPUT_ERROR,
                    );
                }
            }
        };
        // The bounded reader of `corvus validate`: steps replayed as they are
        // read, a syntax error anywhere winning over the verdict.
        match corvus::plan::validate_text(&d, &p, &text, &file) {
            Err(e) => (false, 0, 0, Some(e.to_string()), corvus::exit::INPUT_ERROR),
            Ok(Ok(v)) => (true, v.length, v.cost, None, corvus::exit::PLAN_FOUND),
            Ok(Err(e)) => (false, 0, 0, Some(e.to_string()), corvus::exit::PLAN_INVALID),
        }
    })
}

/// The `corvus` command line with `args` (the program's name first), as the
/// binary runs it; returns its exit code. For `python -m corvus` and the
/// `corvus` command the package installs: it installs the command line's
/// signal handlers, and a stop may end the process.
#[pyfunction]
fn main(py: Python<'_>, args: Vec<String>) -> i32 {
    py.detach(|| corvus::commands::cli::run(args.into_iter().map(std::ffi::OsString::from)))
}

/// The alias table: `(name, description and the spec it stands for)`.
#[pyfunction]
fn aliases() -> Vec<(&'static str, String)> {
    corvus::aliases::ALIASES.iter().map(|a| (a.name, a.help())).collect()
}

/// The spec a configuration stands for, as `solve` would run it (`alias`, a
/// `search` spec, or a search's name with `heuristic` names); a bad one
/// raises ValueError with the place of the mistake.
#[pyfunction]
#[pyo3(signature = (alias=None, search=None, heuristic=None, weight=2.0))]
fn spec(alias: Option<&str>, search: Option<&str>, heuristic: Option<&str>, weight: f64) -> PyResult<String> {
    let options = options(alias, search, heuristic, weight, true, None, None, false).map_err(PyValueError::new_err)?;
    Ok(options.describe())
}

/// The registered search algorithms and heuristics by name.
#[pyfunction]
fn registry() -> (Vec<&'static str>, Vec<&'static str>) {
    (
        corvus::search::KINDS.iter().map(|k| k.name).collect(),
        corvus::heuristic::KINDS.iter().map(|k| k.name).collect(),
    )
}

#[pymodule]
fn _corvus(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(solve, m)?)?;
    m.add_function(wrap_pyfunction!(validate, m)?)?;
    m.add_function(wrap_pyfunction!(aliases, m)?)?;
    m.add_function(wrap_pyfunction!(registry, m)?)?;
    m.add_function(wrap_pyfunction!(spec, m)?)?;
    m.add_function(wrap_pyfunction!(main, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
