//! `corvus._corvus`: the planner as a Python extension module. The typed API
//! is `python/corvus/__init__.py`; this module hands it plain values:
//! the outcome as the `--stats-json` object (so Python sees exactly the
//! fields the command line writes) and the plan's steps.
//!
//! Searches run with the GIL released, so other Python threads go on.

use std::path::Path;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use corvus::commands::stats_json::{SolveStats, Stats};
use corvus::pddl::{self, Domain, PddlError, Problem};
use corvus::planner::{self, Config, Options, PlannerError, Report};
use corvus::search::Limits;

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

/// The options of a run: an alias, or a search algorithm and heuristic
/// from the registries (with the same defaults as `corvus solve`), plus
/// limits in the command line's syntax (`30s`, `512M`).
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
    let mut options = match alias {
        Some(name) => {
            if search.is_some() || heuristic.is_some() {
                return Err(format!("alias `{name}` sets the search and the heuristic; give either"));
            }
            corvus::aliases::get(name)
                .ok_or_else(|| format!("unknown alias `{name}`"))?
                .options()
        }
        // Neither a search nor a heuristic: the first alias (lama-first),
        // as on the command line.
        None if search.is_none() && heuristic.is_none() => {
            let mut options = corvus::aliases::ALIASES[0].options();
            options.config.preferred_operators &= preferred_operators;
            options
        }
        None => {
            let kind = corvus::search::kind(search.unwrap_or("gbfs"))
                .ok_or_else(|| format!("unknown search `{}`", search.unwrap_or_default()))?;
            let heuristic = match heuristic {
                Some(name) => corvus::heuristic::kind(name).ok_or_else(|| format!("unknown heuristic `{name}`"))?,
                None => kind.default_heuristic,
            };
            if !(weight.is_finite() && weight >= 1.0) {
                return Err(format!("weight must be a number of at least 1, not {weight}"));
            }
            let config = Config::new((kind.strategy)(weight), heuristic);
            Options {
                config: Config {
                    preferred_operators: preferred_operators && config.preferred_operators,
                    ..config
                },
                ..Options::default()
            }
        }
    };
    options.limits = Limits {
        time: time_limit.map(Limits::parse_time_limit).transpose()?,
        memory_bytes: memory_limit.map(Limits::parse_memory_limit).transpose()?,
        ..Limits::default()
    };
    options.verbose = verbose;
    Ok(options)
}

/// One plan step: the action's name and its arguments.
type Step = (String, Vec<String>);

/// Solves a task. Returns the `--stats-json` object as JSON text (status
/// `error` with the message when the input is refused) and the plan's
/// steps when one was found. Bad options raise `ValueError`.
#[pyfunction]
#[pyo3(signature = (domain, problem, from_text=false, alias=None, search=None, heuristic=None,
                    weight=2.0, preferred_operators=true, time_limit=None, memory_limit=None, verbose=false))]
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
) -> PyResult<(String, Option<Vec<Step>>)> {
    let options = options(
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
    let result: Result<Report, PlannerError> = py.detach(|| {
        let (d, p) = load(&domain, &problem, from_text)?;
        planner::solve(&d, &p, &options)
    });
    let (stats, code, steps) = match result {
        Ok(report) => {
            let mut stats = SolveStats::new(&report, Path::new(""));
            stats.plan_file = None;
            let steps = report
                .plan
                .map(|found| found.plan.steps.into_iter().map(|s| (s.action, s.args)).collect());
            (Stats::Solve(stats), report.status.exit_code(), steps)
        }
        Err(e) => (Stats::error(e.to_string()), e.exit_code(), None),
    };
    let json = stats.to_json(code).map_err(|e| PyValueError::new_err(e.to_string()))?;
    Ok((json, steps))
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
        let steps = match corvus::plan::parse_plan(&text, &file) {
            Ok(steps) => steps,
            Err(e) => return (false, 0, 0, Some(e.to_string()), corvus::exit::INPUT_ERROR),
        };
        match corvus::plan::validate(&d, &p, &steps) {
            Ok(v) => (true, v.length, v.cost, None, corvus::exit::PLAN_FOUND),
            Err(e) => (false, 0, 0, Some(e.to_string()), corvus::exit::PLAN_INVALID),
        }
    })
}

/// The alias table: `(name, description, solve options)`.
#[pyfunction]
fn aliases() -> Vec<(&'static str, &'static str, &'static str)> {
    corvus::aliases::ALIASES
        .iter()
        .map(|a| (a.name, a.description, a.solve_args))
        .collect()
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
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
