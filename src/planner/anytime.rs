//! Anytime improvement (`solve --anytime`): after the first plan, restarting
//! weighted A* looks for cheaper ones until the time limit.
//!
//! Each phase is a fresh weighted A* search on the task's own costs, with
//! the bound "cheaper than the last plan as its search found it". Every
//! plan then goes through action elimination ([`super::eliminate`]), and
//! becomes the best plan if it is cheaper than the best so far. The bound
//! is not the best plan's cost: elimination often makes a plan much
//! cheaper than any the next search would find soon, and under such a bound
//! weighted A* can spend the whole time limit without a plan (elevators
//! p15: 30 s without a plan below 370, where the bound 383 gave plans of
//! 378, 357 and 273 in turn). So the phases run as they would without
//! elimination, and each of their plans is only made cheaper. The weights
//! fall, 5, 3, 2, 1, and then 1 again for as long as that improves: the
//! guides are not admissible, so A* with them is not optimal, and a tighter
//! bound can still find a cheaper plan. The guides see costs + 1, as in
//! LAMA's later iterations: zero-cost actions then still count, and cheap
//! actions do not make them blind to plan length.
//!
//! The phases run on the first search's engine. After a lazy search (LAMA's
//! first iteration, `--alias lama`) they are lazy weighted A* with the same
//! heuristics and preferred operators; when those heuristics saw other costs
//! than costs + 1 (unit costs, on a task with action costs), a lazy greedy
//! phase on costs + 1 comes first, as in LAMA. After an eager search they
//! are eager weighted A* with its heuristic alone.
//!
//! The greedy phase is a gamble: under a bound close to the first plan's
//! cost, greedy search may wander without ever finding a cheaper plan
//! while weighted A* finds one quickly. It gets as many expansions as the
//! first search took, times [`GREEDY_BUDGET_FACTOR`] (at least
//! [`GREEDY_MIN_EXPANSIONS`]); beyond that the run goes on to weighted A*.
//!
//! A phase that exhausts its open list proves the best plan optimal (no
//! plan is cheaper than the last one found, and the best plan is no
//! dearer), and that ends the run: the pruning against the bound is sound in both
//! engines. The eager one prunes on g and on h_max, the guide's admissible
//! partner; the lazy one on g alone, and skips a state only when it was
//! expanded before with a g no greater (it reopens under a bound) or is a
//! dead end, so every state with a path within the bound gets expanded,
//! whatever the heuristics' values (see [`crate::search`]'s lazy engine).

use super::*;
use crate::heuristic::cost_type::CostType;
use crate::search::{LazyOptions, NoveltyUse};

/// The weights of the weighted A* phases; the last one repeats.
const WEIGHTS: [f64; 4] = [5.0, 3.0, 2.0, 1.0];

/// The greedy phase's expansions, per expansion of the first search.
const GREEDY_BUDGET_FACTOR: u64 = 10;

/// The greedy phase's expansions at least.
const GREEDY_MIN_EXPANSIONS: u64 = 10_000;

/// The search of the improvement phase `phase` (from 1) after the first
/// search `first`: weighted A* on the first search's engine, preceded by a
/// lazy greedy phase when `greedy_first` (see the module comment).
fn phase_search(first: Strategy, greedy_first: bool, phase: usize) -> Strategy {
    let step = match greedy_first {
        true if phase == 1 => None,
        true => Some(phase - 2),
        false => Some(phase - 1),
    };
    let weight = step.map(|i| WEIGHTS[i.min(WEIGHTS.len() - 1)]);
    match first {
        Strategy::Lazy(options) => Strategy::Lazy(LazyOptions {
            weight,
            // Novelty would come before g + W·h; the phases seek cost.
            novelty: NoveltyUse::Off,
            ..options
        }),
        _ => Strategy::WeightedAstar(weight.unwrap_or(WEIGHTS[0])),
    }
}

/// True when the first search's heuristics saw other action costs than the
/// phases' do: a lazy greedy phase on the phases' costs then comes first.
fn sees_other_costs(task: &Task, first: &Config) -> bool {
    let has = task.has_action_costs;
    first.evaluators.iter().any(|e| {
        task.operators
            .iter()
            .any(|o| e.cost_type.adapt(o.cost, has) != COST_TYPE.adapt(o.cost, has))
    })
}

/// The costs the guide of the improvement phases sees.
const COST_TYPE: CostType = CostType::PlusOne;

/// What the first search left for the improvement phases.
pub(super) struct First {
    /// The configuration that found the first plan; the phases use its heuristic.
    pub config: Config,
    /// The run's bound, if it had one.
    pub bound: Option<u64>,
    /// When the run started: the time limit counts from there.
    pub start: Instant,
    /// The first plan's cost as the search found it, before action
    /// elimination.
    pub found_cost: u64,
}

/// Improves on the plan of `report` until the time limit, a proof that it is
/// optimal, or `on_plan` says stop; returns the report of the best plan,
/// with the statistics of every phase added up.
pub(super) fn improve(
    domain: &Domain,
    problem: &Problem,
    task: &Task,
    options: &Options,
    first: First,
    mut report: Report,
    on_plan: &mut dyn FnMut(&FoundPlan) -> ControlFlow<()>,
) -> Result<Report, PlannerError> {
    log(options, format!("anytime: improving on the plan of {}", report.config));
    let lazy = first.config.search.is_lazy();
    let greedy_first = lazy && sees_other_costs(task, &first.config);
    let greedy_budget = report
        .search
        .expanded
        .saturating_mul(GREEDY_BUDGET_FACTOR)
        .max(GREEDY_MIN_EXPANSIONS);
    // The cost of the last plan as its search found it, before action
    // elimination: the phases' bound (see the module comment).
    let mut found_cost = first.found_cost;
    for phase in 1.. {
        let incumbent = report.plan.as_ref().expect("a solved report has a plan");
        let (best, unit_cost) = (incumbent.cost, incumbent.unit_cost);
        if best == 0 {
            log(options, "anytime: a plan of cost 0 is optimal");
            report.proven_optimal = true;
            break;
        }
        let search = phase_search(first.config.search, greedy_first, phase);
        // A perimeter would be built again in every phase.
        let unwrapped = first.config.evaluators.iter().map(|&e| Evaluator {
            perimeter: false,
            cost_type: COST_TYPE,
            ..e
        });
        let evaluators = match lazy {
            // The lazy engine: every heuristic of the first search, with its
            // preferred operators.
            true => unwrapped.collect(),
            // Eager weighted A* takes one heuristic (the first search's
            // first) and uses preferred operators in greedy search only.
            false => unwrapped.take(1).map(|e| Evaluator { preferred: false, ..e }).collect(),
        };
        let config = Config {
            search,
            evaluators,
            probe: false,
            ..first.config.clone()
        };
        let name = config.to_string();
        // The run's own bound is at least the first plan's cost already.
        let bound = first.bound.map_or(found_cost - 1, |b| b.min(found_cost - 1));
        let mut limits = options.limits;
        limits.time = limits.time.map(|t| t.saturating_sub(first.start.elapsed()));
        let greedy = greedy_first && phase == 1;
        if greedy {
            limits.expansions = Some(limits.expansions.map_or(greedy_budget, |e| e.min(greedy_budget)));
        }
        log(
            options,
            format!("anytime phase {phase}: {name}, plans of cost below {found_cost}"),
        );
        // A stop while a phase builds its heuristic ends the phase, not the
        // run: the best plan so far stays the answer. (The binary ends the
        // process at the stop instead, see `limits::exit_report`.)
        let (outcome, stats) = match limits::catch(|| run_config(task, &config, Some(bound), limits, options)) {
            Ok(r) => r,
            Err(stopped) => {
                log(options, format!("{name}: {stopped}"));
                break;
            }
        };
        add_statistics(&mut report.search, &stats);
        match outcome {
            Outcome::Solved(ops) => {
                found_cost = task.plan_cost(&ops);
                if found_cost > bound {
                    return Err(PlannerError::Internal(format!(
                        "{name} returned a plan of cost {found_cost} against the bound {bound}"
                    )));
                }
                let ops = without_redundant_steps(task, ops, options);
                let found = validated(domain, problem, task, &ops, unit_cost)?;
                if found.cost >= best {
                    log(
                        options,
                        format!(
                            "{name}: plan of cost {found_cost} ({} without redundant steps), no cheaper than {best}",
                            found.cost
                        ),
                    );
                    continue;
                }
                log(
                    options,
                    format!(
                        "{name}: plan of length {} and cost {} found and validated",
                        found.length, found.cost
                    ),
                );
                report.plan = Some(found);
                report.config = name;
                if on_plan(report.plan.as_ref().expect("just set")).is_break() {
                    break;
                }
            }
            Outcome::Unsolvable => {
                log(
                    options,
                    format!("{name}: no plan costs less than {best}: it is optimal"),
                );
                report.proven_optimal = true;
                break;
            }
            Outcome::OutOfTime => {
                log(options, format!("{name}: {}", Status::OutOfTime.describe()));
                break;
            }
            Outcome::OutOfMemory => {
                log(options, format!("{name}: {}", Status::OutOfMemory.describe()));
                break;
            }
            Outcome::Interrupted => {
                log(options, format!("{name}: {}", Status::Interrupted.describe()));
                break;
            }
            Outcome::ExpansionLimit if greedy => {
                log(
                    options,
                    format!("{name}: no cheaper plan within {greedy_budget} expansions; on to weighted A*"),
                );
            }
            // Neither happens otherwise: the phases prune soundly and have no
            // expansion limit of their own.
            Outcome::Incomplete | Outcome::ExpansionLimit => break,
        }
    }
    let best = report.plan.as_ref().expect("a solved report has a plan");
    log(
        options,
        format!("anytime: best plan of cost {} by {}", best.cost, report.config),
    );
    report.total_time = first.start.elapsed();
    Ok(report)
}

/// Adds the work of one more search to `total`; the initial h stays the
/// first search's, peak memory is the largest.
fn add_statistics(total: &mut Statistics, more: &Statistics) {
    total.expanded += more.expanded;
    total.evaluated += more.evaluated;
    total.generated += more.generated;
    total.reopened += more.reopened;
    total.dead_ends += more.dead_ends;
    total.pruned_by_bound += more.pruned_by_bound;
    total.search_time += more.search_time;
    total.peak_memory_bytes = total.peak_memory_bytes.max(more.peak_memory_bytes);
}
