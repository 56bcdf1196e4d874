//! Search on the shared ADL domains (conditional effects, quantified
//! conditions, derived predicates): the first five problems of each are
//! solved with plans the validator accepts; A* with h_max, and with LM-cut
//! where there are no derived predicates, finds the optimal costs of Fast
//! Downward's `astar(hmax())`; a heuristic that cannot handle a task is
//! refused when asked for by name and replaced by h_max as A*'s default.
//! Runs on the shared corpus (`../shared/ipc` or `CORVUS_SHARED`/ipc) when
//! present, for the domains the parser accepts.

use std::path::{Path, PathBuf};
use std::time::Duration;

#[path = "asp_common.rs"]
mod common;

use corvus::heuristic::{lmcut, relax};
use corvus::planner::{self, Config, Options, PlannerError, Status};
use corvus::search::{Limits, Strategy};

/// The shared ADL domain folders.
const ADL_DOMAINS: [&str; 6] = [
    "airport-adl",
    "assembly",
    "miconic-simpleadl",
    "openstacks-sat08-adl",
    "psr-middle",
    "schedule",
];

/// The ADL domains: the shared corpus's, or their vendored copy.
fn shared_ipc() -> Option<PathBuf> {
    Some(common::adl_ipc())
}

/// The domain file and the first `n` problems (in natural order: `p2`
/// before `p10`; other domain files such as `orig-domain.pddl` left out).
fn first_problems(dir: &Path, n: usize) -> (PathBuf, Vec<PathBuf>) {
    let mut problems: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("domain folder is readable")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.extension().is_some_and(|x| x == "pddl")
                && p.file_name().is_some_and(|f| !f.to_string_lossy().contains("domain"))
        })
        .collect();
    let key = |p: &PathBuf| {
        let name = p.file_name().unwrap_or_default().to_string_lossy().to_string();
        let digits: String = name.chars().filter(char::is_ascii_digit).collect();
        (digits.len(), digits, name)
    };
    problems.sort_by_key(key);
    problems.truncate(n);
    (dir.join("domain.pddl"), problems)
}

/// The ADL domains are supported: the parser must accept them.
fn assert_accepted(domain: &Path, problem: &Path) {
    if let Err(e) = corvus::pddl::load(domain, problem) {
        panic!("{e}");
    }
}

fn options(config: Config, seconds: u64) -> Options {
    Options {
        limits: Limits {
            time: Some(Duration::from_secs(seconds)),
            ..Limits::default()
        },
        ..Options::single(config)
    }
}

#[test]
fn first_five_problems_of_each_adl_domain_are_solved_with_valid_plans() {
    let Some(ipc) = shared_ipc() else { return };
    for name in ADL_DOMAINS {
        let (domain, problems) = first_problems(&ipc.join(name), 5);
        for problem in &problems {
            assert_accepted(&domain, problem);
            let report = planner::solve_files(&domain, problem, &options(Config::default(), 60))
                .unwrap_or_else(|e| panic!("{}: {e}", problem.display()));
            assert_eq!(report.status, Status::Solved, "{}", problem.display());
            // solve_files validated the plan; validate its written form once more.
            let found = report.plan.expect("a solved report has a plan");
            let (d, p) = corvus::pddl::load(&domain, problem).expect("loads");
            let plan = corvus::plan::parse_plan(&found.to_ipc(), "written plan").expect("plan file parses");
            let v = corvus::plan::validate(&d, &p, &plan).expect("written plan is valid");
            assert_eq!(v.length, found.length, "{}", problem.display());
        }
    }
}

#[test]
fn astar_finds_the_optimal_costs_of_fast_downward_and_refuses_what_it_cannot_do() {
    let Some(ipc) = shared_ipc() else { return };
    // Optimal costs by Fast Downward's astar(hmax()) (metric cost for
    // openstacks, plan length elsewhere).
    let known = [
        ("airport-adl", "p01-airport1-p1.pddl", 8),
        ("airport-adl", "p02-airport1-p1.pddl", 9),
        ("miconic-simpleadl", "s1-0.pddl", 4),
        ("miconic-simpleadl", "s1-1.pddl", 3),
        ("openstacks-sat08-adl", "p01.pddl", 2),
        ("openstacks-sat08-adl", "p02.pddl", 3),
        ("psr-middle", "p01-s17-n2-l2-f30.pddl", 4),
        ("psr-middle", "p02-s23-n2-l3-f70.pddl", 3),
        ("schedule", "probschedule-2-0.pddl", 2),
        ("schedule", "probschedule-2-1.pddl", 2),
    ];
    for (dir, file, cost) in known {
        let domain = ipc.join(dir).join("domain.pddl");
        let problem = ipc.join(dir).join(file);
        assert_accepted(&domain, &problem);
        let explicit = |kind| Config {
            explicit_heuristic: true,
            ..Config::new(Strategy::Astar, kind)
        };
        let report = planner::solve_files(&domain, &problem, &options(explicit(&relax::HMAX), 120))
            .unwrap_or_else(|e| panic!("{}: {e}", problem.display()));
        assert_eq!(report.status, Status::Solved, "{}", problem.display());
        assert_eq!(report.plan.expect("plan").cost, cost, "{}", problem.display());

        let (d, p) = corvus::pddl::load(&domain, &problem).expect("loads");
        let (task, _) = corvus::ground::ground(&d, &p).expect("grounds");
        if task.has_axioms() {
            // LM-cut asked for by name: refused as unsupported input.
            match planner::solve_files(&domain, &problem, &options(explicit(&lmcut::LM_CUT), 120)) {
                Err(e @ PlannerError::Unsupported(_)) => {
                    assert_eq!(e.exit_code(), corvus::exit::UNSUPPORTED);
                    assert!(e.to_string().contains("lmcut"), "{e}");
                }
                other => panic!("{}: LM-cut was not refused: {other:?}", problem.display()),
            }
        }
        // A* with its default (LM-cut, or h_max where LM-cut cannot run on
        // derived predicates) finds the same optimal cost.
        let report = planner::solve_files(
            &domain,
            &problem,
            &options(Config::new(Strategy::Astar, &lmcut::LM_CUT), 120),
        )
        .unwrap_or_else(|e| panic!("{}: {e}", problem.display()));
        let expected = if task.has_axioms() {
            "astar(hmax())"
        } else {
            "astar(lmcut())"
        };
        assert_eq!(report.config, expected);
        assert_eq!(report.plan.expect("plan").cost, cost, "{}", problem.display());
    }
}

/// The invariant groups found on tasks with conditional effects and derived
/// facts hold: on every state of random walks from the initial state of the
/// first three problems of each ADL domain, at most one fact of each group
/// is true, exactly one where the group says so.
#[test]
fn invariant_groups_hold_on_random_walks() {
    let Some(root) = shared_ipc() else { return };
    let mut groups_checked = 0;
    for name in ADL_DOMAINS {
        let (domain, problems) = first_problems(&root.join(name), 3);
        for problem in problems {
            let (d, p) = corvus::pddl::load(&domain, &problem).expect("loads");
            let (task, _) = corvus::ground::ground(&d, &p).expect("grounds");
            let groups = task.invariant_groups();
            groups_checked += groups.len();
            let mut rng = corvus::rng::Rng::new(17);
            for _ in 0..20 {
                let mut state = task.initial_state();
                for _ in 0..100 {
                    for g in groups {
                        let true_facts = g.facts.iter().filter(|&&f| state.bits()[f as usize]).count();
                        assert!(
                            true_facts <= 1 && (true_facts == 1 || !g.exactly_one),
                            "{}: {true_facts} facts of {:?} hold",
                            problem.display(),
                            g.facts
                                .iter()
                                .map(|&f| task.facts[f as usize].to_string())
                                .collect::<Vec<_>>()
                        );
                    }
                    let applicable: Vec<_> = task
                        .operators
                        .iter()
                        .filter(|o| o.is_applicable(state.bits()))
                        .collect();
                    if applicable.is_empty() {
                        break;
                    }
                    let op = applicable[rng.below(applicable.len() as u64) as usize];
                    let mut next = state.clone();
                    task.apply_into(op, state.bits(), next.bits_mut());
                    state = next;
                }
            }
        }
    }
    // Conditional effects no longer hide every group.
    assert!(groups_checked > 100, "{groups_checked} groups");
}
