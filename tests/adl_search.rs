//! Search on the shared ADL domains (conditional effects, quantified
//! conditions, derived predicates): the first five problems of each are
//! solved with plans the validator accepts; A* with h_max finds the optimal
//! costs of Fast Downward's `astar(hmax())`; a heuristic that cannot handle
//! a task is refused when asked for by name and replaced by h_max as A*'s
//! default. Runs on the shared corpus (`../shared/ipc` or
//! `CORVUS_SHARED`/ipc) when present, for the domains the parser accepts.

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
        if !(task.has_conditional_effects() || task.has_axioms()) {
            continue;
        }
        // LM-cut asked for by name: refused as unsupported input.
        match planner::solve_files(&domain, &problem, &options(explicit(&lmcut::LM_CUT), 120)) {
            Err(e @ PlannerError::Unsupported(_)) => {
                assert_eq!(e.exit_code(), corvus::exit::UNSUPPORTED);
                assert!(e.to_string().contains("lmcut"), "{e}");
            }
            other => panic!("{}: LM-cut was not refused: {other:?}", problem.display()),
        }
        // A*'s default (LM-cut) gives way to h_max, with the same optimal cost.
        let report = planner::solve_files(
            &domain,
            &problem,
            &options(Config::new(Strategy::Astar, &lmcut::LM_CUT), 120),
        )
        .unwrap_or_else(|e| panic!("{}: {e}", problem.display()));
        assert_eq!(report.config, "astar(hmax())");
        assert_eq!(report.plan.expect("plan").cost, cost, "{}", problem.display());
    }
}
