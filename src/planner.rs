//! The pipeline behind `corvus solve`: load → ground → search → validate.
//!
//! Everything a run decides (which heuristic guides, which one prunes
//! against a bound, which task the search sees) is decided here, so that the
//! command line only parses arguments and the ASP bridge can call the same
//! code with a step bound.

mod anytime;
mod eliminate;

use std::ops::ControlFlow;
use std::path::Path;
use std::time::{Duration, Instant};

pub use crate::config::{Config, Evaluator, PROBE_EXPANSIONS};
use crate::exit;
use crate::ground::{self, GroundError, GroundStats};
use crate::heuristic::{BuildContext, HeuristicKind, relax};
use crate::limits::{self, Phase, Stop, Stopped};
use crate::pddl::{self, Domain, ErrorKind, PddlError, Problem};
use crate::plan::{self, Plan, PlanStep};
use crate::search::{self, Limits, Outcome, SearchConfig, Statistics, Strategy};
use crate::task::{OpId, Task};

/// A bound on the plans sought.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// Total cost at most N (in the task's own costs).
    Cost(u64),
    /// At most N actions, whatever their costs.
    Steps(u64),
}

/// Everything a run is given besides the task: the configurations to run
/// (`solve`; the bounded portfolio brings its own) and the run's bound,
/// cost model, limits and logging.
#[derive(Clone, Debug)]
pub struct Options {
    /// What `solve` runs: one configuration with share 1, or a sequential
    /// portfolio. Each entry gets its share of the time left when it
    /// starts, the last one all of it; an entry out of time or memory hands
    /// over to the next, and the first plan or a proof ends the run (or,
    /// with `anytime`, a plan starts improving on it).
    pub configs: Vec<(Config, f64)>,
    pub bound: Option<Bound>,
    /// Treat every action as cost 1.
    pub unit_cost: bool,
    pub limits: Limits,
    /// Store states packed by invariant groups: less memory, more time.
    pub pack_states: bool,
    /// Log to stderr.
    pub verbose: bool,
    /// After the first plan, search for cheaper ones until the time limit
    /// (see [`anytime`]).
    pub anytime: bool,
    /// Keep every plan as the search found it: no action elimination (see
    /// [`eliminate`]).
    pub no_action_elimination: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options::single(Config::default())
    }
}

impl Options {
    /// Options that run `config` alone, and otherwise the defaults (no
    /// limits, no bound, silent).
    pub fn single(config: Config) -> Self {
        Options {
            configs: vec![(config, 1.0)],
            bound: None,
            unit_cost: false,
            limits: Limits::default(),
            pack_states: false,
            verbose: false,
            anytime: false,
            no_action_elimination: false,
        }
    }

    /// What `solve` runs, in corvus's spelling: the spec, or the
    /// portfolio's entries with their shares (`SPEC @ SHARE; ...`).
    pub fn describe(&self) -> String {
        match self.configs.as_slice() {
            [(config, _)] => config.to_string(),
            entries => entries
                .iter()
                .map(|(c, share)| format!("{c} @ {share}"))
                .collect::<Vec<_>>()
                .join("; "),
        }
    }
}

/// How a run ended: its exit code and log text are below, its name in the
/// `--stats-json` file is the kebab-case of the variant (`out-of-time`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Status {
    Solved,
    Unsolvable,
    Incomplete,
    OutOfTime,
    OutOfMemory,
    Interrupted,
}

impl Status {
    pub fn exit_code(self) -> i32 {
        match self {
            Status::Solved => exit::PLAN_FOUND,
            Status::Unsolvable => exit::UNSOLVABLE,
            Status::Incomplete => exit::INCOMPLETE,
            Status::OutOfTime => exit::OUT_OF_TIME,
            Status::OutOfMemory => exit::OUT_OF_MEMORY,
            Status::Interrupted => exit::INTERRUPTED,
        }
    }

    /// The log text (`time limit reached`).
    pub fn describe(self) -> &'static str {
        match self {
            Status::Solved => "solution found",
            Status::Unsolvable => "proven unsolvable",
            Status::Incomplete => "search incomplete: no plan and no proof",
            Status::OutOfTime => "time limit reached",
            Status::OutOfMemory => "memory limit reached",
            Status::Interrupted => "interrupted",
        }
    }
}

/// A validated plan with its length and cost.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FoundPlan {
    pub plan: Plan,
    pub length: usize,
    /// Cost as the task counts it (unit cost in unit-cost mode).
    pub cost: u64,
    /// True when `cost` is the number of steps.
    pub unit_cost: bool,
}

impl FoundPlan {
    /// The plan in the IPC plan-file format.
    pub fn to_ipc(&self) -> String {
        plan::format_plan(&self.plan, self.cost, self.unit_cost)
    }
}

/// The result of a run.
#[derive(Clone, Debug)]
pub struct Report {
    pub status: Status,
    pub plan: Option<FoundPlan>,
    pub ground: GroundStats,
    pub search: Statistics,
    /// The configuration that decided the run, for the log (its spec, `astar(lmcut())`).
    pub config: String,
    pub total_time: Duration,
    /// An anytime run proved its best plan optimal (a phase found nothing
    /// cheaper, or the plan costs 0).
    pub proven_optimal: bool,
}

/// Errors that end a run before a search result: bad input, unsupported
/// features, or a bug caught by plan validation.
#[derive(Debug, thiserror::Error)]
pub enum PlannerError {
    #[error("{0}")]
    Input(#[from] PddlError),
    #[error("unsupported: {0}")]
    Unsupported(String),
    /// The search returned a plan that the validator rejects: a bug.
    #[error("internal error: {0}")]
    Internal(String),
}

impl PlannerError {
    pub fn exit_code(&self) -> i32 {
        match self {
            PlannerError::Input(e) if e.kind == ErrorKind::Unsupported => exit::UNSUPPORTED,
            PlannerError::Input(_) => exit::INPUT_ERROR,
            PlannerError::Unsupported(_) => exit::UNSUPPORTED,
            PlannerError::Internal(_) => exit::INTERNAL_ERROR,
        }
    }
}

/// Loads and solves a domain and problem file.
/// The time limit counts from the start of parsing.
pub fn solve_files(domain: &Path, problem: &Path, options: &Options) -> Result<Report, PlannerError> {
    solve_files_with(domain, problem, options, &mut keep_going)
}

/// The `on_plan` of runs that only want the report.
fn keep_going(_: &FoundPlan) -> ControlFlow<()> {
    ControlFlow::Continue(())
}

/// Loads and solves a domain and problem file, handing each validated plan
/// to `on_plan` as soon as it is found (with `options.anytime`, each one
/// cheaper than the one before); `on_plan` can stop the run. The time limit
/// counts from the start of parsing.
pub fn solve_files_with(
    domain: &Path,
    problem: &Path,
    options: &Options,
    on_plan: &mut dyn FnMut(&FoundPlan) -> ControlFlow<()>,
) -> Result<Report, PlannerError> {
    solve_loaded_with(|| pddl::load(domain, problem), options, on_plan)
}

/// As [`solve_files_with`], with the domain and problem from `load` (files,
/// or text): its time counts as parsing, and a limit stops the run there.
pub fn solve_loaded_with(
    load: impl FnOnce() -> Result<(Domain, Problem), PddlError>,
    options: &Options,
    on_plan: &mut dyn FnMut(&FoundPlan) -> ControlFlow<()>,
) -> Result<Report, PlannerError> {
    let _watch = limits::watch(options.limits);
    let start = limits::run_start().unwrap_or_else(Instant::now);
    let loaded = limits::catch(|| {
        let _phase = limits::phase(Phase::Parsing);
        let loaded = load();
        // The reader has no checkpoints of its own.
        limits::checkpoint();
        loaded
    });
    match loaded {
        Ok(loaded) => {
            let (d, p) = loaded?;
            run(&d, &p, options, &options.configs, on_plan)
        }
        Err(stopped) => Ok(stopped_report(stopped, GroundStats::default(), start, options)),
    }
}

/// The portfolio for decision problems with a bound ("is there a plan of at
/// most N steps?"), e.g. the ASP competition instances. A probe comes
/// first: A* with small pattern databases and a fixed expansion limit,
/// which decides small tasks for less than building the full databases
/// costs. Then A* with pattern databases chosen within a time budget: it
/// finds a plan when the bound is tight and otherwise proves that none
/// exists. A greedy search guided by h_FF (pruned by h_max against the
/// bound) follows for bounds with much slack, where A* would first have to
/// exhaust every shorter plan length. Each entry gets its share of the time
/// that is left; without a time limit, of [`NOMINAL_TIME`].
pub fn bounded_portfolio() -> Vec<(Config, f64)> {
    BOUNDED_PORTFOLIO
        .iter()
        .map(|&(spec, share)| {
            // Each entry parses: `the_bounded_portfolio_is_specs` checks them.
            let config = Config::parse(spec).unwrap_or_default();
            (
                Config {
                    explicit_heuristic: false,
                    ..config
                },
                share,
            )
        })
        .collect()
}

/// [`bounded_portfolio`]: each entry's spec and its share of the time left.
pub const BOUNDED_PORTFOLIO: [(&str, f64); 3] = [
    ("astar(pdb(), probe=true)", 1.0),
    ("astar(pdb())", 0.6),
    ("gbfs(hff())", 1.0),
];

/// The time a portfolio shares out when the run has no time limit (the
/// last entry then runs without one).
pub const NOMINAL_TIME: Duration = Duration::from_secs(60);

/// Solves with a bound using [`bounded_portfolio`]; `options.search` and
/// `options.heuristic` are ignored.
pub fn solve_bounded(domain: &Domain, problem: &Problem, options: &Options) -> Result<Report, PlannerError> {
    run(domain, problem, options, &bounded_portfolio(), &mut keep_going)
}

fn log(options: &Options, message: impl AsRef<str>) {
    if options.verbose {
        eprintln!("{}", message.as_ref());
    }
}

/// What the phases of one run share: its options, its start, and the
/// grounded task's size once it is known. Every report of a run is made
/// here ([`Run::report`]).
struct Run<'a> {
    options: &'a Options,
    start: Instant,
    ground: GroundStats,
}

impl Run<'_> {
    /// The report of this run, so far.
    fn report(&self, status: Status, plan: Option<FoundPlan>, search: Statistics, config: String) -> Report {
        Report {
            status,
            plan,
            ground: self.ground.clone(),
            search,
            config,
            total_time: self.start.elapsed(),
            proven_optimal: false,
        }
    }

    fn log(&self, message: impl AsRef<str>) {
        log(self.options, message);
    }
}

/// Runs the configurations in turn until one decides the task. Each gets
/// `share` of the time left (the last one should have share 1.0).
///
/// The phases: check the configurations, ground, choose the cost model,
/// fit the configurations to the task, then search with each in turn; a
/// plan is post-processed (action elimination), validated and reported,
/// and with `anytime` improved on.
fn run(
    domain: &Domain,
    problem: &Problem,
    options: &Options,
    portfolio: &[(Config, f64)],
    on_plan: &mut dyn FnMut(&FoundPlan) -> ControlFlow<()>,
) -> Result<Report, PlannerError> {
    let _watch = limits::watch(options.limits);
    // Under an outer watch, an earlier run may have answered already.
    limits::unanswered();
    let mut run = Run {
        options,
        start: limits::run_start().unwrap_or_else(Instant::now),
        ground: GroundStats::default(),
    };
    for (config, _) in portfolio {
        config.check().map_err(PlannerError::Unsupported)?;
    }
    let task = match ground_phase(&mut run, domain, problem)? {
        Grounded::Task(task) => task,
        Grounded::Decided(report) => return Ok(report),
    };
    let (task, unit_cost) = cost_model(task, options);
    // Dropped when `run` returns, before the tasks (see `limits::Answered`).
    let _answered = limits::Answered;
    let bound = options.bound.map(|b| match b {
        Bound::Cost(n) | Bound::Steps(n) => n,
    });
    if let Some(b) = bound {
        run.log(format!(
            "bound: plans of {} at most {b}",
            if unit_cost { "length" } else { "cost" }
        ));
    }
    let portfolio = fitted(&task, portfolio, options)?;
    let searched = Searched {
        domain,
        problem,
        task: &task,
        bound,
        unit_cost,
    };
    search_phase(&run, &searched, &portfolio, on_plan)
}

/// What grounding left: the task, or a report when grounding decided the run.
enum Grounded {
    Task(Task),
    Decided(Report),
}

/// Grounds the task, logging its size; a goal unreachable in the delete
/// relaxation decides the run.
fn ground_phase(run: &mut Run, domain: &Domain, problem: &Problem) -> Result<Grounded, PlannerError> {
    let grounded = limits::catch(|| {
        let _phase = limits::phase(Phase::Grounding);
        ground::ground(domain, problem)
    });
    let grounded = match grounded {
        Ok(r) => r,
        Err(stopped) => {
            return Ok(Grounded::Decided(stopped_report(
                stopped,
                run.ground.clone(),
                run.start,
                run.options,
            )));
        }
    };
    let (task, stats) = match grounded {
        Ok(r) => r,
        Err(GroundError::GoalUnreachable(goal)) => {
            run.log(format!("goal {goal} is unreachable even in the delete relaxation"));
            let search = Statistics {
                peak_memory_bytes: limits::peak_memory_bytes(),
                ..Statistics::default()
            };
            return Ok(Grounded::Decided(run.report(
                Status::Unsolvable,
                None,
                search,
                "grounding".to_string(),
            )));
        }
        Err(GroundError::Unsupported(m)) => return Err(PlannerError::Unsupported(m)),
        Err(GroundError::Input(e)) => return Err(PlannerError::Input(e)),
    };
    run.log(format!(
        "grounded: {} facts, {} operators, {} static facts folded away, \
         {} constant or irrelevant facts and {} irrelevant or duplicate operators removed, \
         {} operators with mutex preconditions removed, \
         {} derived facts replaced by their conditions, {:.3}s",
        stats.facts,
        stats.operators,
        stats.static_facts,
        stats.removed_facts,
        stats.removed_operators,
        stats.impossible_operators,
        stats.inlined_derived_facts,
        stats.seconds
    ));
    run.ground = stats;
    Ok(Grounded::Task(task))
}

/// The task the searches see, and whether it counts steps: a step bound is
/// a cost bound on the unit-cost task.
fn cost_model(task: Task, options: &Options) -> (Task, bool) {
    let unit_cost = options.unit_cost || matches!(options.bound, Some(Bound::Steps(_))) || !task.has_action_costs;
    if unit_cost && task.has_action_costs {
        (task.to_unit_cost(), true)
    } else {
        (task, unit_cost)
    }
}

/// The grounded task and what the searches of a run share.
struct Searched<'a> {
    domain: &'a Domain,
    problem: &'a Problem,
    task: &'a Task,
    bound: Option<u64>,
    unit_cost: bool,
}

/// Searches with each configuration in turn, each within its share of the
/// time left, until one decides the task.
fn search_phase(
    run: &Run,
    searched: &Searched,
    portfolio: &[(Config, f64)],
    on_plan: &mut dyn FnMut(&FoundPlan) -> ControlFlow<()>,
) -> Result<Report, PlannerError> {
    let options = run.options;
    let task = searched.task;
    let mut last: Option<(Status, Statistics, String)> = None;
    for (i, (config, share)) in portfolio.iter().enumerate() {
        let mut limits = options.limits;
        let is_last = i + 1 == portfolio.len();
        let total = options.limits.time.or((!is_last).then_some(NOMINAL_TIME));
        if let Some(t) = total {
            let left = t.saturating_sub(run.start.elapsed());
            limits.time = Some(if is_last {
                left
            } else {
                left.mul_f64(share.clamp(0.0, 1.0))
            });
        }
        let name = config.to_string();
        match (portfolio.len(), limits.time) {
            (1, _) => run.log(format!("search: {name}")),
            (n, Some(t)) => run.log(format!(
                "search: {name} (portfolio entry {} of {n}, {:.1}s)",
                i + 1,
                t.as_secs_f64()
            )),
            (n, None) => run.log(format!("search: {name} (portfolio entry {} of {n})", i + 1)),
        }
        let (outcome, stats) = match limits::catch(|| run_config(task, config, searched.bound, limits, options)) {
            Ok(r) => r,
            Err(stopped) => return Ok(stopped_report(stopped, run.ground.clone(), run.start, options)),
        };
        let status = match outcome {
            Outcome::Solved(ops) => return solved(run, searched, config, ops, stats, on_plan),
            Outcome::Unsolvable => return Ok(run.report(Status::Unsolvable, None, stats, name)),
            Outcome::Incomplete => Status::Incomplete,
            // Only a portfolio's probes have an expansion limit.
            Outcome::ExpansionLimit => {
                run.log(format!("{name}: stopped at its limit of {} expansions", stats.expanded));
                last = Some((Status::Incomplete, stats, name));
                continue;
            }
            Outcome::OutOfTime => Status::OutOfTime,
            Outcome::OutOfMemory => Status::OutOfMemory,
            Outcome::Interrupted => Status::Interrupted,
        };
        run.log(format!("{name}: {}", status.describe()));
        // An entry that ran out of memory has given it back by now (its
        // search is over); the next entry starts afresh, as a portfolio of
        // processes would. Only an interrupt ends the portfolio.
        let stop = status == Status::Interrupted;
        last = Some((status, stats, name));
        if stop {
            break;
        }
    }
    // A portfolio entry that ran out of its own share of time is not the
    // overall time limit; only the final status counts.
    let (status, stats, name) = last.unwrap_or((Status::Incomplete, Statistics::default(), String::new()));
    Ok(run.report(status, None, stats, name))
}

/// A search found `ops`: post-process the plan (action elimination),
/// validate it, hand it over, and with `anytime` improve on it.
fn solved(
    run: &Run,
    searched: &Searched,
    config: &Config,
    ops: Vec<OpId>,
    stats: Statistics,
    on_plan: &mut dyn FnMut(&FoundPlan) -> ControlFlow<()>,
) -> Result<Report, PlannerError> {
    let (options, task) = (run.options, searched.task);
    let name = config.to_string();
    let found_cost = task.plan_cost(&ops);
    let ops = without_redundant_steps(task, ops, options);
    let found = validated(searched.domain, searched.problem, task, &ops, searched.unit_cost)?;
    run.log(format!(
        "{name}: plan of length {} and cost {} found and validated",
        found.length, found.cost
    ));
    let report = run.report(Status::Solved, Some(found), stats, name);
    let stop = on_plan(report.plan.as_ref().expect("solved")).is_break();
    if !options.anytime || stop {
        return Ok(report);
    }
    let first = anytime::First {
        config: config.clone(),
        bound: searched.bound,
        start: run.start,
        found_cost,
    };
    anytime::improve(searched.domain, searched.problem, task, options, first, report, on_plan)
}

/// The portfolio as it runs on `task` ([`for_task`] for each entry). An
/// entry that cannot run on the task (a search that does not support its
/// conditional effects, say) is left out of a portfolio of several, and
/// the others share its time; only when no entry can run is it an error.
/// An entry that would run as an earlier one does (both fell back to h_max,
/// say) is left out too.
fn fitted(task: &Task, portfolio: &[(Config, f64)], options: &Options) -> Result<Vec<(Config, f64)>, PlannerError> {
    if portfolio.is_empty() {
        return Err(PlannerError::Unsupported("no configuration to run".to_string()));
    }
    let mut kept = Vec::new();
    let mut refused = None;
    for (config, share) in portfolio {
        match for_task(task, config.clone(), options) {
            // Two entries that fall back to the same heuristic would run
            // the same search twice.
            Ok(fitted) if kept.iter().any(|(k, _)| *k == fitted) => {
                log(
                    options,
                    format!("{config}: left out of the portfolio: it runs as {fitted}, as an earlier entry does"),
                );
            }
            Ok(fitted) => kept.push((fitted, *share)),
            Err(PlannerError::Unsupported(why)) if portfolio.len() > 1 => {
                log(options, format!("{config}: left out of the portfolio: {why}"));
                refused.get_or_insert(PlannerError::Unsupported(why));
            }
            Err(e) => return Err(e),
        }
    }
    match (kept.is_empty(), refused) {
        (true, Some(e)) => Err(e),
        _ => Ok(kept),
    }
}

/// The configuration as it runs on `task`: a heuristic that cannot handle
/// the task's conditional effects or derived predicates is an error when the
/// user asked for it, and is otherwise replaced by one that can (h_max for an
/// admissible one, so that A* stays optimal; h_FF for the others).
fn for_task(task: &Task, config: Config, options: &Options) -> Result<Config, PlannerError> {
    use crate::heuristic::{perimeter, unsupported_feature};
    if let Some(kind) = config.search_kind()
        && let Some(feature) = kind.unsupported_feature(task)
    {
        return Err(PlannerError::Unsupported(format!(
            "search {} does not support {feature}, which this task has",
            kind.name
        )));
    }
    if config.evaluators.iter().any(|e| e.perimeter)
        && let Some(feature) = unsupported_feature(perimeter::CONDITIONAL_EFFECTS, perimeter::AXIOMS, task)
    {
        return Err(PlannerError::Unsupported(format!(
            "perimeter does not support {feature}, which this task has"
        )));
    }
    let mut config = config;
    // The further heuristics of a lazy search: one that cannot handle the
    // task is left out (there is one guide at least).
    let mut kept = vec![config.evaluators[0]];
    for &e in &config.evaluators[1..] {
        match e.kind.unsupported_feature(task) {
            None => kept.push(e),
            Some(feature) => {
                unsupported_heuristic(task, e.kind, feature, &config)?;
                log(
                    options,
                    format!(
                        "heuristic {} does not support {feature}, which this task has: left out",
                        e.kind.name
                    ),
                );
            }
        }
    }
    config.evaluators = kept;
    let first = config.evaluators[0];
    let Some(feature) = first.kind.unsupported_feature(task) else {
        return Ok(config);
    };
    unsupported_heuristic(task, first.kind, feature, &config)?;
    let replacement: &'static HeuristicKind = if first.kind.admissible {
        &relax::HMAX
    } else {
        &relax::HFF
    };
    log(
        options,
        format!(
            "heuristic {} does not support {feature}, which this task has: using {} instead{}",
            first.kind.name,
            replacement.name,
            if replacement.admissible {
                " (admissible for this task)"
            } else {
                ""
            }
        ),
    );
    config.evaluators[0] = Evaluator {
        kind: replacement,
        preferred: first.preferred && replacement.preferred_operators,
        ..first
    };
    Ok(config)
}

/// The error for a heuristic the user asked for by name that cannot handle
/// `feature` of the task; `Ok` when it was not asked for by name.
fn unsupported_heuristic(
    task: &Task,
    kind: &HeuristicKind,
    feature: &str,
    config: &Config,
) -> Result<(), PlannerError> {
    if !config.explicit_heuristic {
        return Ok(());
    }
    let able: Vec<&str> = crate::heuristic::KINDS
        .iter()
        .filter(|k| k.unsupported_feature(task).is_none())
        .map(|k| k.name)
        .collect();
    Err(PlannerError::Unsupported(format!(
        "heuristic {} does not support {feature}, which this task has (these do: {})",
        kind.name,
        able.join(", ")
    )))
}

/// The report of a run stopped by a limit or a signal outside the search
/// engine (which reports its own stops), naming the phase in the log.
pub fn stopped_report(stopped: Stopped, ground: GroundStats, start: Instant, options: &Options) -> Report {
    log(options, stopped.to_string());
    let status = match stopped.stop {
        Stop::OutOfTime => Status::OutOfTime,
        Stop::OutOfMemory => Status::OutOfMemory,
        Stop::Interrupted => Status::Interrupted,
    };
    let search = Statistics {
        peak_memory_bytes: limits::peak_memory_bytes(),
        ..Statistics::default()
    };
    let run = Run { options, start, ground };
    run.report(status, None, search, stopped.phase.name().to_string())
}

fn run_config(
    task: &Task,
    config: &Config,
    bound: Option<u64>,
    limits: Limits,
    options: &Options,
) -> (Outcome, Statistics) {
    let verbose = options.verbose;
    let start = Instant::now();
    let building = limits::phase(Phase::HeuristicConstruction);
    let mut heuristics: Vec<Box<dyn crate::heuristic::Heuristic>> = Vec::new();
    for e in &config.evaluators {
        let context = BuildContext {
            time_limit: limits.time,
            probe: config.probe,
            cost_type: e.cost_type,
        };
        let mut h = e.kind.build_with(task, &context);
        if verbose && let Some(report) = h.build_report() {
            eprintln!("{report}");
        }
        if e.perimeter {
            h = with_perimeter(task, h, bound, limits, verbose);
        }
        heuristics.push(h);
    }
    // Building the heuristics counts against the time limit.
    let mut limits = limits;
    limits.time = limits.time.map(|t| t.saturating_sub(start.elapsed()));
    if config.probe {
        limits.expansions = Some(PROBE_EXPANSIONS);
    }
    // Against a bound, an inadmissible guide of the eager engine needs an
    // admissible partner to prune with; h_max is the cheap one. (The lazy
    // engine and the random walks prune on g alone.)
    let mut prune = if bound.is_some() && !heuristics[0].is_admissible() && config.search.is_eager() {
        Some(relax::HMAX.build(task))
    } else {
        None
    };
    drop(building);
    let _searching = limits::phase(Phase::Search);
    // The eager engine's one preferred list holds its guide's own preferred operators.
    let first = config.evaluators[0];
    let preferred_operators = match config.search.is_lazy() {
        true => config.preferred_operators(),
        false => first.preferred && first.offers_preferred,
    };
    let search_config = SearchConfig {
        strategy: config.search,
        bound,
        preferred_operators,
        limits,
        verbose,
        pack_states: options.pack_states,
    };
    if let Strategy::Lazy(lazy) = config.search {
        // The lazy engine never prunes with a heuristic, so needs no
        // admissible partner against a bound.
        let mut guides: Vec<search::Guide> = heuristics
            .iter_mut()
            .zip(&config.evaluators)
            .map(|(h, e)| search::Guide {
                heuristic: h.as_mut(),
                preferred_operators: e.preferred,
                offers_preferred: e.offers_preferred,
            })
            .collect();
        return search::search_lazy(task, &mut guides, lazy, &search_config);
    }
    let guide = heuristics[0].as_mut();
    match prune.as_mut() {
        Some(p) => search::search(task, guide, Some(p.as_mut()), &search_config),
        None => search::search(task, guide, None, &search_config),
    }
}

/// Builds the perimeter within a share of the time and memory limits;
/// falls back to the plain heuristic when the task does not allow one.
fn with_perimeter(
    task: &Task,
    inner: Box<dyn crate::heuristic::Heuristic>,
    bound: Option<u64>,
    limits: Limits,
    verbose: bool,
) -> Box<dyn crate::heuristic::Heuristic> {
    use crate::heuristic::perimeter::{PerimeterConfig, PerimeterHeuristic, PerimeterTable};
    let mut config = PerimeterConfig {
        max_radius: bound,
        ..PerimeterConfig::default()
    };
    if let Some(t) = limits.time {
        config.max_time = config.max_time.min(t.mul_f64(0.4));
    }
    if let Some(m) = limits.memory_bytes {
        // About 80 bytes per stored state; leave most memory to the forward search.
        let per_state = 80 + 8 * crate::task::state::words_for(task.num_facts()) as u64;
        config.max_states = config.max_states.min((m / 4 / per_state) as usize);
    }
    let start = Instant::now();
    match PerimeterTable::build(task, &config) {
        Ok(table) => {
            if verbose {
                let radius = match table.settled() {
                    u64::MAX => "the whole backward space".to_string(),
                    0 => "empty".to_string(),
                    s => format!("radius {}", s - 1),
                };
                eprintln!(
                    "perimeter: {} states, {radius}, {:.3}s",
                    table.num_states(),
                    start.elapsed().as_secs_f64()
                );
            }
            Box::new(PerimeterHeuristic::new(table, inner))
        }
        Err(e) => {
            if verbose {
                eprintln!("perimeter: not used ({e})");
            }
            inner
        }
    }
}

/// The plan after action elimination (steps removed or replaced), unless
/// the run keeps plans as found. A step bound keeps them too: it asks for a
/// plan of a length, which the search found.
fn without_redundant_steps(task: &Task, ops: Vec<OpId>, options: &Options) -> Vec<OpId> {
    if options.no_action_elimination || matches!(options.bound, Some(Bound::Steps(_))) {
        return ops;
    }
    let start = Instant::now();
    let e = eliminate::eliminate(task, &ops);
    if e.removed > 0 || e.replaced > 0 || e.stopped_early {
        log(
            options,
            format!(
                "action elimination: {} of {} steps removed, {} replaced, cost {} saved{}, {:.3}s",
                e.removed,
                ops.len(),
                e.replaced,
                e.saved,
                if e.stopped_early { " (stopped early)" } else { "" },
                start.elapsed().as_secs_f64()
            ),
        );
        let name = |op: OpId| task.operators[op as usize].name();
        let removed: Vec<String> = e.removed_ops.iter().map(|&op| name(op)).collect();
        let replaced: Vec<String> = e
            .replaced_ops
            .iter()
            .map(|&(old, new)| format!("{} by {}", name(old), name(new)))
            .collect();
        for (what, list) in [("removed", removed), ("replaced", replaced)] {
            if !list.is_empty() {
                log(options, format!("action elimination {what}: {}", listed(&list, 20)));
            }
        }
    }
    e.plan
}

/// The first `most` items, joined, and how many more there are.
fn listed(items: &[String], most: usize) -> String {
    let shown = items[..items.len().min(most)].join(", ");
    match items.len().saturating_sub(most) {
        0 => shown,
        more => format!("{shown} and {more} more"),
    }
}

/// Turns operator ids into a lifted plan and replays it on the PDDL problem.
fn validated(
    domain: &Domain,
    problem: &Problem,
    task: &Task,
    ops: &[OpId],
    unit_cost: bool,
) -> Result<FoundPlan, PlannerError> {
    let plan = Plan {
        steps: ops
            .iter()
            .map(|&o| {
                let op = &task.operators[o as usize];
                PlanStep {
                    action: op.action.clone(),
                    args: op.args.clone(),
                    location: Default::default(),
                }
            })
            .collect(),
    };
    let validation = plan::validate(domain, problem, &plan)
        .map_err(|e| PlannerError::Internal(format!("the search returned an invalid plan: {e}")))?;
    let cost = if unit_cost {
        validation.length as u64
    } else {
        validation.cost
    };
    Ok(FoundPlan {
        plan,
        length: validation.length,
        cost,
        unit_cost,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::heuristic::{lmcut, pdb};
    use crate::task::testing::{cond, task, with_axioms};

    /// A task with a conditional effect, and one with a derived fact.
    fn adl_tasks() -> [Task; 2] {
        let mut t = task(3, &[(&[0], &[], &[1], &[0], 1)], &[0], &[2], &[]);
        t.operators[0].cond_effects = vec![cond(&[1], &[], &[2], &[])];
        let derived = with_axioms(
            task(3, &[(&[0], &[], &[1], &[0], 1)], &[0], &[2], &[]),
            &[&[(2, &[1], &[])]],
        );
        [t, derived]
    }

    /// A stop of the run while action elimination works keeps the plan the
    /// search found (with the changes made so far), validated: the run
    /// answers with it, as a stop after an anytime plan does.
    #[test]
    fn a_stop_during_action_elimination_keeps_the_found_plan() {
        let domain = crate::pddl::parse_domain(
            "(define (domain lamp) (:predicates (on) (done))
               (:action turn-on :precondition (not (on)) :effect (on))
               (:action turn-off :precondition (on) :effect (not (on)))
               (:action finish :precondition (on) :effect (done)))",
            "lamp.pddl",
        )
        .expect("domain");
        let problem = crate::pddl::parse_problem_for(
            &domain,
            "(define (problem p) (:domain lamp) (:init) (:goal (done)))",
            "p.pddl",
        )
        .expect("problem");
        let (task, _) = ground::ground(&domain, &problem).expect("grounded");
        let op = |name: &str| task.operators.iter().position(|o| o.action == name).expect("operator") as OpId;
        // A detour that elimination would remove.
        let found = vec![op("turn-on"), op("turn-off"), op("turn-on"), op("finish")];
        let options = Options::default();
        assert_eq!(without_redundant_steps(&task, found.clone(), &options).len(), 2);

        let _watch = limits::watch(limits::Limits::default());
        limits::stop_handle().expect("watched").interrupt();
        assert!(limits::requested().is_some());
        let kept = without_redundant_steps(&task, found.clone(), &options);
        assert_eq!(kept, found);
        let plan = validated(&domain, &problem, &task, &kept, true).expect("validated under the stop");
        assert_eq!(plan.length, 4);
    }

    /// The bounded portfolio is written in specs, which all parse to the
    /// configurations it has always run.
    #[test]
    fn the_bounded_portfolio_is_specs() {
        let pdb = Config::new(Strategy::Astar, &pdb::PDB);
        let expected = [
            Config {
                probe: true,
                ..pdb.clone()
            },
            pdb,
            Config::new(Strategy::Greedy, &relax::HFF),
        ];
        for ((spec, _), config) in BOUNDED_PORTFOLIO.iter().zip(&expected) {
            assert_eq!(config.to_string(), *spec);
        }
        let configs: Vec<Config> = bounded_portfolio().into_iter().map(|(c, _)| c).collect();
        assert_eq!(configs, expected);
    }

    /// `seq-opt` runs all its entries on a task with conditional effects;
    /// on one with derived facts, where LM-cut and pattern databases both
    /// give way to h_max, A* with h_max once, then symbolic search.
    #[test]
    fn seq_opt_runs_what_the_task_allows() {
        let seq_opt = crate::aliases::choose(Some("seq-opt"), None, &[], None).expect("an alias");
        let [conditional, derived] = adl_tasks();
        let runs = |t: &Task| -> Vec<String> {
            let kept = fitted(t, &seq_opt.configs, &Options::default()).expect("some entry runs");
            kept.iter().map(|(c, _)| c.to_string()).collect()
        };
        assert_eq!(runs(&conditional), ["astar(pdb())", "astar(lmcut())", "symbolic()"]);
        assert_eq!(runs(&derived), ["astar(hmax())", "symbolic()"]);
    }

    #[test]
    fn heuristics_that_cannot_handle_the_task_are_refused_or_replaced() {
        let quiet = Options::default();
        for (t, feature) in adl_tasks().iter().zip(["conditional effects", "derived predicates"]) {
            // Asked for by name: an error naming the heuristic and the feature
            // (LM-cut and pattern databases handle conditional effects).
            let refusing: &[&HeuristicKind] = match feature {
                "conditional effects" => &[],
                _ => &[&lmcut::LM_CUT, &pdb::PDB],
            };
            for &kind in refusing {
                let asked = Config {
                    explicit_heuristic: true,
                    ..Config::new(Strategy::Astar, kind)
                };
                let err = for_task(t, asked, &quiet).unwrap_err();
                assert_eq!(err.exit_code(), exit::UNSUPPORTED);
                let message = err.to_string();
                assert!(message.contains(kind.name) && message.contains(feature), "{message}");
            }
            // A* by default: LM-cut where it can, else h_max, admissible for the task.
            let default = for_task(t, Config::new(Strategy::Astar, &lmcut::LM_CUT), &quiet).unwrap();
            let expected = if refusing.is_empty() {
                &lmcut::LM_CUT
            } else {
                &relax::HMAX
            };
            assert_eq!(default.heuristic(), expected);
            assert!(!default.preferred_operators());
            // What handles the task stays.
            for kind in [&relax::HMAX, &relax::HFF, &pdb::PDB, &lmcut::LM_CUT]
                .into_iter()
                .filter(|k| !refusing.contains(k))
            {
                let asked = Config {
                    explicit_heuristic: true,
                    ..Config::new(Strategy::Greedy, kind)
                };
                assert_eq!(for_task(t, asked.clone(), &quiet).unwrap(), asked);
            }
            // The perimeter cannot, and is only ever asked for explicitly.
            let mut perimeter = Config::new(Strategy::Astar, &relax::HMAX);
            perimeter.evaluators[0].perimeter = true;
            assert!(matches!(
                for_task(t, perimeter, &quiet),
                Err(PlannerError::Unsupported(_))
            ));
        }
        // STRIPS tasks keep every configuration.
        let strips = task(2, &[(&[0], &[], &[1], &[0], 1)], &[0], &[1], &[]);
        let mut asked = Config {
            explicit_heuristic: true,
            ..Config::new(Strategy::Astar, &lmcut::LM_CUT)
        };
        asked.evaluators[0].perimeter = true;
        assert_eq!(for_task(&strips, asked.clone(), &quiet).unwrap(), asked);
    }
}
