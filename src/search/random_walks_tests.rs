//! The random-walk search on hand-built tasks: plans checked by replay,
//! runs repeated from a seed, limits, bounds, tasks without a plan.

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use super::tests::{briefcase, chain, config, grid, replay, switches, test_tasks};
use super::*;
use crate::heuristic::blind::Blind;
use crate::heuristic::goalcount::GoalCount;

/// Walks with these options, biased by preferred operators or not, stopped
/// after `expansions` at the latest (a failing test must not hang).
fn walks(options: WalkOptions, biased: bool, expansions: u64) -> SearchConfig {
    let mut c = config(Strategy::Walks(options));
    c.preferred_operators = biased;
    c.limits.expansions = Some(expansions);
    c
}

/// The plan of a run that must solve the task, checked by replay.
fn solved(task: &Task, h: &mut dyn Heuristic, c: &SearchConfig) -> (Vec<OpId>, Statistics) {
    let (outcome, stats) = search(task, h, None, c);
    let Outcome::Solved(plan) = outcome else {
        panic!("{:?}: {outcome:?}", c.strategy);
    };
    assert!(replay(task, &plan).is_some(), "invalid plan {plan:?}");
    (plan, stats)
}

#[test]
fn walks_find_plans_that_replay() {
    let mut tasks = test_tasks();
    tasks.push(briefcase(3, 2));
    for task in &tasks {
        for biased in [false, true] {
            for seed in [1, 2, 3] {
                let options = WalkOptions {
                    seed,
                    ..WalkOptions::default()
                };
                let c = walks(options, biased, 2_000_000);
                let (plan, stats) = solved(task, relax::HFF.build(task).as_mut(), &c);
                // Every step of the plan was taken from an expanded state,
                // and only walk ends (and initial states) were evaluated.
                assert!(stats.expanded >= plan.len() as u64);
                assert!(stats.generated >= plan.len() as u64);
                assert!(stats.evaluated >= 1 && stats.evaluated <= stats.generated + 1);
                assert!(stats.initial_h.is_some());
                let (plan, _) = solved(task, &mut GoalCount::new(task), &c);
                assert!(!plan.is_empty());
            }
        }
    }
}

#[test]
fn the_same_seed_gives_the_same_run() {
    let task = grid(8, 8, &[(2, 2), (2, 3), (2, 4), (5, 5), (5, 6)], |x, y| {
        1 + ((x + y) % 3) as u32
    });
    let run = |seed, biased| {
        let c = walks(
            WalkOptions {
                seed,
                walks: 10,
                ..WalkOptions::default()
            },
            biased,
            1_000_000,
        );
        solved(&task, relax::HFF.build(&task).as_mut(), &c)
    };
    for biased in [false, true] {
        let (plan, stats) = run(5, biased);
        let (again, stats_again) = run(5, biased);
        assert_eq!(plan, again);
        assert_eq!(
            (stats.expanded, stats.evaluated, stats.generated),
            (stats_again.expanded, stats_again.evaluated, stats_again.generated)
        );
        // The seed decides the walks: some other seed walks elsewhere.
        assert!((6..16).any(|seed| run(seed, biased).0 != plan), "biased: {biased}");
    }
}

/// Random walks over all 2^n switch settings never reach the unreachable
/// goal, and blind h never calls a state a dead end: only a limit ends them.
#[test]
fn limits_stop_the_walks() {
    let task = switches(12, false);
    for expansions in [1, 100, 12_345] {
        let c = walks(WalkOptions::default(), false, expansions);
        let (outcome, stats) = search(&task, &mut Blind::new(&task), None, &c);
        assert_eq!(outcome, Outcome::ExpansionLimit);
        assert_eq!(stats.expanded, expansions);
    }
    let mut c = config(Strategy::Walks(WalkOptions::default()));
    c.limits.time = Some(Duration::from_millis(30));
    let (outcome, stats) = search(&task, &mut Blind::new(&task), None, &c);
    assert_eq!(outcome, Outcome::OutOfTime);
    assert!(stats.search_time >= Duration::from_millis(30) && stats.expanded > 0);
    let mut c = config(Strategy::Walks(WalkOptions::default()));
    c.limits.memory_bytes = Some(1 << 12);
    let (outcome, _) = search(&task, &mut Blind::new(&task), None, &c);
    assert_eq!(outcome, Outcome::OutOfMemory);
    let flag = AtomicBool::new(true);
    let c = config(Strategy::Walks(WalkOptions::default()));
    let (outcome, stats) = random_walks::run(&task, &mut Blind::new(&task), WalkOptions::default(), &c, &flag);
    assert_eq!(outcome, Outcome::Interrupted);
    assert_eq!(stats.expanded, 0);
}

#[test]
fn tasks_without_a_plan_end_without_a_panic() {
    // The relaxation sees that the goal is unreachable: the initial state is
    // a dead end, which proves it.
    let task = switches(5, false);
    let c = walks(WalkOptions::default(), true, 100_000);
    let (outcome, stats) = search(&task, relax::HFF.build(&task).as_mut(), None, &c);
    assert_eq!(outcome, Outcome::Unsolvable);
    assert_eq!((stats.evaluated, stats.dead_ends), (1, 1));
    // A wall cuts the goal off. The relaxation sees it; blind h does not,
    // and walks and restarts go on until the limit.
    let walled = grid(5, 5, &[(0, 2), (1, 2), (2, 2), (3, 2), (4, 2)], |_, _| 1);
    let c = walks(WalkOptions::default(), false, 20_000);
    let (outcome, _) = search(&walled, relax::HFF.build(&walled).as_mut(), None, &c);
    assert_eq!(outcome, Outcome::Unsolvable);
    let (outcome, stats) = search(&walled, &mut Blind::new(&walled), None, &c);
    assert_eq!(outcome, Outcome::ExpansionLimit);
    assert_eq!(stats.expanded, 20_000);
    // No operator applies in the initial state: nothing to walk.
    let mut b = super::tests::Builder::default();
    b.op("go", &["elsewhere"], &[], &[], &["goal"], 1);
    let stuck = b.build(&["here"], &["goal"], &[]);
    let (outcome, _) = search(
        &stuck,
        &mut Blind::new(&stuck),
        None,
        &walks(WalkOptions::default(), false, 100),
    );
    assert_eq!(outcome, Outcome::Unsolvable);
}

/// Under a bound no walk takes a step past it: below the optimum only the
/// limit ends the walks, and a plan found under a looser bound keeps to it.
#[test]
fn walks_keep_to_the_bound() {
    let task = chain(10);
    let mut c = walks(WalkOptions::default(), false, 50_000);
    // The optimum is 7: three jumps and a step.
    c.bound = Some(6);
    let (outcome, stats) = search(&task, &mut GoalCount::new(&task), None, &c);
    assert_eq!(outcome, Outcome::ExpansionLimit);
    assert!(stats.pruned_by_bound > 0);
    for bound in [7, 9, 12] {
        c.bound = Some(bound);
        let (plan, _) = solved(&task, &mut GoalCount::new(&task), &c);
        assert!(replay(&task, &plan).is_some_and(|cost| cost <= bound), "bound {bound}");
    }
}

/// A walk is cut short by the goal, and the plan ends there: on a chain
/// the goal is reached in the first walk.
#[test]
fn a_walk_that_reaches_the_goal_ends_the_search() {
    let mut b = super::tests::Builder::default();
    b.op("a", &["s0"], &[], &["s0"], &["s1"], 1);
    b.op("b", &["s1"], &[], &["s1"], &["s2"], 1);
    let task = b.build(&["s0"], &["s2"], &[]);
    let (plan, stats) = solved(
        &task,
        &mut GoalCount::new(&task),
        &walks(WalkOptions::default(), false, 100),
    );
    assert_eq!(plan.len(), 2);
    // The initial state's evaluation only: the walk never ended elsewhere.
    assert_eq!(stats.evaluated, 1);
    assert_eq!(stats.generated, 2);
}

/// Through the planner, whose validator replays the plan on the lifted
/// problem: shipped STRIPS problems and ADL ones (quantified conditions,
/// conditional effects, derived predicates).
#[test]
fn the_planner_validates_the_plans_of_walks_on_shipped_problems() {
    use crate::config::Config;
    use crate::planner::{self, Options, Status};
    let problems = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("problems");
    for task in [
        "ipc/blocks/probBLOCKS-4-1.pddl",
        "ipc/gripper/prob02.pddl",
        "ipc-adl/miconic-simpleadl/s1-1.pddl",
        "ipc-adl/psr-middle/p02-s23-n2-l3-f70.pddl",
        "ipc-adl/openstacks-sat08-adl/p01.pddl",
        "ipc-adl/airport-adl/p02-airport1-p1.pddl",
    ] {
        let problem = problems.join(task);
        let domain = problem.with_file_name("domain.pddl");
        for spec in ["walks(hff(cost=one))", "walks(hff(), preferred=[], seed=2)"] {
            let mut options = Options::single(Config::parse(spec).expect("a valid spec"));
            options.limits.time = Some(Duration::from_secs(20));
            let report = planner::solve_files(&domain, &problem, &options).unwrap_or_else(|e| panic!("{task}: {e}"));
            assert_eq!(report.status, Status::Solved, "{task}, {spec}");
            assert!(report.plan.is_some_and(|p| p.length > 0), "{task}, {spec}");
        }
    }
}
