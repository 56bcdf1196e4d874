//! Sequential portfolios (`Options::configs`, the `seq-sat-corvus` alias):
//! an entry that finds no plan within its share of the time hands over to
//! the next, the first plan ends the run, and every plan is validated.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

#[path = "asp_common.rs"]
mod common;

use corvus::config::Config;
use corvus::plan;
use corvus::planner::{self, Options, Status};
use corvus::search::Limits;

/// A gripper task with `n` balls in a fresh directory: far beyond blind
/// search (2^n arrangements and more), trivial for a greedy search on h_FF.
fn gripper(n: usize, name: &str) -> (PathBuf, PathBuf) {
    let dir = std::env::temp_dir().join(format!("corvus-portfolio-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    let domain = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("problems/ipc/gripper/domain.pddl");
    let balls: Vec<String> = (1..=n).map(|i| format!("ball{i}")).collect();
    let problem = format!(
        "(define (problem gripper-{n}) (:domain gripper-strips)
           (:objects rooma roomb left right {objects})
           (:init (room rooma) (room roomb) (gripper left) (gripper right) (free left) (free right)
                  (at-robby rooma) {init})
           (:goal (and {goal})))",
        objects = balls.join(" "),
        init = balls
            .iter()
            .map(|b| format!("(ball {b}) (at {b} rooma)"))
            .collect::<String>(),
        goal = balls.iter().map(|b| format!("(at {b} roomb)")).collect::<String>(),
    );
    let path = dir.join("problem.pddl");
    std::fs::write(&path, problem).expect("problem written");
    (domain, path)
}

fn portfolio(entries: &[(&str, f64)], time: Duration) -> Options {
    let portfolio: Vec<(Config, f64)> = entries
        .iter()
        .map(|&(spec, share)| (Config::parse(spec).expect("spec parses"), share))
        .collect();
    Options {
        configs: portfolio,
        limits: Limits {
            time: Some(time),
            ..Limits::default()
        },
        ..Options::default()
    }
}

fn validated_cost(domain: &Path, problem: &Path, report: &planner::Report) -> u64 {
    let found = report.plan.as_ref().expect("a plan");
    let (d, p) = corvus::pddl::load(domain, problem).expect("loads");
    plan::validate(&d, &p, &found.plan).expect("the plan is valid").cost
}

#[test]
fn an_entry_without_a_plan_hands_over_on_time() {
    let (domain, problem) = gripper(30, "handover");
    let limit = Duration::from_secs(4);
    // Blind A* gets a quarter of the time and cannot finish; h_FF then
    // solves the task at once.
    let options = portfolio(&[("astar(blind())", 0.25), ("lazy([hff()])", 1.0)], limit);
    let start = Instant::now();
    let report = planner::solve_files(&domain, &problem, &options).expect("runs");
    let elapsed = start.elapsed();
    assert_eq!(report.status, Status::Solved);
    assert_eq!(report.config, "lazy([hff()])", "the second entry found the plan");
    assert!(validated_cost(&domain, &problem, &report) > 0);
    // The first entry used its share, not more: the run ends well within
    // the overall limit (the second entry needs milliseconds).
    assert!(
        elapsed >= limit.mul_f64(0.25),
        "{elapsed:?}: the first entry stopped early"
    );
    assert!(elapsed < limit, "{elapsed:?}: the first entry overran its share");
}

#[test]
fn an_entry_out_of_memory_hands_over_too() {
    // Blind A* fills 300 MiB long before its 90 % of a minute; h_FF then
    // solves the task in what memory the first entry gave back.
    let (domain, problem) = gripper(30, "memory");
    let options = Options {
        limits: Limits {
            time: Some(Duration::from_secs(60)),
            memory_bytes: Some(300 << 20),
            ..Limits::default()
        },
        ..portfolio(
            &[("astar(blind())", 0.9), ("lazy([hff()])", 1.0)],
            Duration::from_secs(60),
        )
    };
    let start = Instant::now();
    let report = planner::solve_files(&domain, &problem, &options).expect("runs");
    assert_eq!(report.status, Status::Solved, "{:?}", report.config);
    assert_eq!(report.config, "lazy([hff()])");
    assert!(validated_cost(&domain, &problem, &report) > 0);
    assert!(
        start.elapsed() < Duration::from_secs(54),
        "the first entry stopped at its memory, not its time"
    );
}

#[test]
fn the_first_plan_ends_the_run() {
    let (domain, problem) = gripper(12, "first");
    let options = portfolio(
        &[("lazy([hff()])", 0.5), ("astar(blind())", 1.0)],
        Duration::from_secs(60),
    );
    let report = planner::solve_files(&domain, &problem, &options).expect("runs");
    assert_eq!(report.status, Status::Solved);
    assert_eq!(report.config, "lazy([hff()])");
    assert!(validated_cost(&domain, &problem, &report) > 0);
}

#[test]
fn a_proof_ends_the_run() {
    // An unsolvable task: the first entry's exhausted search is a proof,
    // so the later ones do not run.
    let (domain, problem) = gripper(3, "proof");
    let text = std::fs::read_to_string(&problem).expect("read");
    std::fs::write(
        &problem,
        text.replace("(:goal (and", "(:goal (and (at-robby roomb) (at-robby rooma)"),
    )
    .expect("write");
    let options = portfolio(
        &[("lazy([hff()])", 0.5), ("astar(blind())", 1.0)],
        Duration::from_secs(60),
    );
    let report = planner::solve_files(&domain, &problem, &options).expect("runs");
    assert_eq!(report.status, Status::Unsolvable);
    assert_eq!(report.config, "lazy([hff()])", "the first entry decided");
}

#[test]
fn the_command_line_runs_the_default_portfolio_and_names_its_entries() {
    // The IPC form without a configuration: the portfolio, whose first
    // entry (lama-first) solves the task within its 30 % of 10 s.
    let (domain, problem) = gripper(8, "cli");
    let plan = problem.with_file_name("plan");
    let (d, p, f) = (
        domain.to_str().unwrap(),
        problem.to_str().unwrap(),
        plan.to_str().unwrap(),
    );
    let out = common::corvus(&[d, p, f, "--time-limit", "10s"]);
    let log = common::stderr(&out);
    assert_eq!(out.status.code(), Some(0), "{log}");
    let entry = "search: lazy([hff(cost=one), lmcount(cost=one)]) (portfolio entry 1 of 2, ";
    let share: f64 = log
        .split(entry)
        .nth(1)
        .and_then(|rest| rest.split("s)").next())
        .and_then(|t| t.parse().ok())
        .unwrap_or_else(|| panic!("no first entry in the log: {log}"));
    // 30 % of the time left after parsing and grounding.
    assert!(share > 2.5 && share <= 3.0, "{share}: {log}");
    assert!(!log.contains("portfolio entry 2 of 2"), "{log}");
    let check = common::corvus(&["validate", d, p, f]);
    assert_eq!(check.status.code(), Some(0), "{}", common::stderr(&check));
    // An alias of one configuration runs it alone.
    let out = common::corvus(&[d, p, f, "--alias", "lama-first"]);
    let log = common::stderr(&out);
    assert!(
        log.contains("search: lazy([hff(cost=one), lmcount(cost=one)])\n"),
        "{log}"
    );
}

/// A configuration that cannot handle the task's conditional effects and
/// derived predicates (a perimeter, whose backward search takes neither) is left out of
/// a portfolio, and the next entry gets its time; a portfolio of none that
/// can is refused as its one entry would be.
#[test]
fn an_entry_that_cannot_run_on_the_task_is_left_out() {
    let adl = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("problems/ipc-adl/psr-middle");
    let (domain, problem) = (adl.join("domain.pddl"), adl.join("p01-s17-n2-l2-f30.pddl"));
    let refused = "astar(perimeter(blind()))";
    let options = portfolio(&[(refused, 0.5), ("astar(blind())", 1.0)], Duration::from_secs(20));
    let report = planner::solve_files(&domain, &problem, &options).expect("runs");
    assert_eq!(report.status, Status::Solved);
    assert_eq!(report.config, "astar(blind())");
    assert!(validated_cost(&domain, &problem, &report) > 0);

    let alone = portfolio(&[(refused, 1.0)], Duration::from_secs(20));
    let error = planner::solve_files(&domain, &problem, &alone).expect_err("the perimeter refuses");
    assert_eq!(error.exit_code(), corvus::exit::UNSUPPORTED);
    let both = portfolio(&[(refused, 0.5), (refused, 1.0)], Duration::from_secs(20));
    let error = planner::solve_files(&domain, &problem, &both).expect_err("no entry can run");
    assert!(error.to_string().contains("perimeter does not support"), "{error}");
}

/// The optimal portfolio on a task with derived predicates: LM-cut falls
/// back to h_max as pattern databases did, so A* with h_max runs once, and
/// its plan is optimal; the symbolic search stays in. On a task with
/// conditional effects every entry can run.
#[test]
fn the_optimal_portfolio_runs_each_search_once() {
    let adl = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("problems/ipc-adl");
    let conditional = adl.join("miconic-simpleadl");
    let (d, p) = (conditional.join("domain.pddl"), conditional.join("s1-0.pddl"));
    let dir = std::env::temp_dir().join(format!("corvus-portfolio-{}-opt", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let out = common::corvus(&[
        "solve",
        d.to_str().unwrap(),
        p.to_str().unwrap(),
        dir.join("conditional-plan").to_str().unwrap(),
        "--alias",
        "seq-opt",
        "--time-limit",
        "20s",
    ]);
    let log = common::stderr(&out);
    assert_eq!(out.status.code(), Some(0), "{log}");
    assert!(!log.contains("left out of the portfolio"), "{log}");
    assert!(log.contains("search: astar(pdb())"), "{log}");

    let derived = adl.join("psr-middle");
    let (d, p) = (derived.join("domain.pddl"), derived.join("p01-s17-n2-l2-f30.pddl"));
    let plan = dir.join("plan");
    let (ds, ps, fs) = (d.to_str().unwrap(), p.to_str().unwrap(), plan.to_str().unwrap());
    let out = common::corvus(&["solve", ds, ps, fs, "--alias", "seq-opt", "--time-limit", "20s"]);
    let log = common::stderr(&out);
    assert_eq!(out.status.code(), Some(0), "{log}");
    assert!(!log.contains("symbolic(): left out of the portfolio"), "{log}");
    assert!(
        log.contains("astar(lmcut()): left out of the portfolio: it runs as astar(hmax())"),
        "{log}"
    );
    assert_eq!(log.matches("search: astar(hmax())").count(), 1, "{log}");
    let blind = Options::single(Config::parse("astar(blind())").expect("parses"));
    let optimum = planner::solve_files(&d, &p, &blind).expect("runs");
    let check = common::corvus(&["validate", ds, ps, fs]);
    let verdict = common::stdout(&check);
    assert_eq!(check.status.code(), Some(0), "{verdict}");
    let cost = optimum.plan.expect("a plan").cost;
    assert!(verdict.contains(&format!("cost {cost}")), "{verdict}: optimum {cost}");
}
