//! Satisficing options: `--cost-type` and `--anytime`, through the binary and the planner.

use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::process::Output;
use std::time::Duration;

#[path = "asp_common.rs"]
mod common;

use common::{corvus, stderr};
use corvus::heuristic::cost_type::CostType;
use corvus::plan;
use corvus::planner::{self, Config, FoundPlan, Options, Report, Status};
use corvus::search::Limits;

fn data(name: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join(name)
        .display()
        .to_string()
}

fn code(out: &Output) -> i32 {
    out.status.code().expect("exited normally, not by a signal")
}

/// A fresh directory of this test process for the test `name`.
fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("corvus-sat-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

fn stats_json(path: &Path) -> serde_json::Value {
    let text = std::fs::read_to_string(path).expect("statistics file written");
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"))
}

/// The cost on a plan file's `; cost = N (...)` line.
fn plan_cost(path: &Path) -> u64 {
    let text = std::fs::read_to_string(path).expect("plan file written");
    text.lines()
        .find_map(|l| l.strip_prefix("; cost = "))
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .expect("cost line")
}

/// `validate`'s verdict on a plan file, and the cost it computes.
fn validated_cost(domain: &str, problem: &str, plan: &Path) -> u64 {
    let out = corvus(&["validate", domain, problem, &plan.display().to_string()]);
    let verdict = String::from_utf8_lossy(&out.stdout).into_owned();
    assert_eq!(code(&out), 0, "{verdict}");
    verdict
        .trim()
        .rsplit("cost ")
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no cost in {verdict}"))
}

const ELEVATORS: &str = "problems/ipc/elevators-sat08-strips/domain.pddl";
const ELEVATORS_P01: &str = "problems/ipc/elevators-sat08-strips/p01.pddl";

#[test]
fn cost_types_guide_the_search_and_the_plan_counts_real_costs() {
    let dir = temp_dir("cost-type");
    let (domain, problem) = (data(ELEVATORS), data(ELEVATORS_P01));
    for cost_type in ["normal", "one", "plusone"] {
        let plan = dir.join(format!("plan.{cost_type}"));
        let json = dir.join(format!("{cost_type}.json"));
        let out = corvus(&[
            "solve",
            &domain,
            &problem,
            "--search",
            "gbfs",
            "--cost-type",
            cost_type,
            "--plan-file",
            &plan.display().to_string(),
            "--stats-json",
            &json.display().to_string(),
        ]);
        assert_eq!(code(&out), 0, "{}", stderr(&out));
        let name = if cost_type == "normal" {
            "hff".to_string()
        } else {
            format!("hff[cost={cost_type}]")
        };
        let log = stderr(&out);
        assert!(log.contains(&format!("Initial heuristic value for {name}:")), "{log}");
        let s = stats_json(&json);
        let spelled = if cost_type == "normal" {
            "hff()".to_string()
        } else {
            format!("hff(cost={cost_type})")
        };
        assert_eq!(s["config"], format!("gbfs({spelled})"));
        // The plan file and the statistics give the real cost, which the validator confirms.
        let cost = validated_cost(&domain, &problem, &plan);
        assert_eq!(plan_cost(&plan), cost);
        assert_eq!(s["plan_cost"], cost);
        assert_eq!(s["unit_cost"], false);
    }
    let out = corvus(&["solve", &domain, &problem, "--cost-type", "two"]);
    assert_eq!(code(&out), 2, "an unknown cost type is a usage error");
}

/// Lazy weighted A* (W = 5, h_FF on costs + 1 with its preferred operators)
/// under a tight bound, as in an anytime phase: elevators p01 below cost 65
/// (a plan of 64 exists). Keyed by the successor's g, the search needed
/// 212,897 expansions; keyed by the parent's g + W·h, as in Fast Downward
/// (11,271 there), 18,070 (see bench/results/2026-12-06-issue15-wastar.md).
#[test]
fn lazy_weighted_astar_under_a_tight_bound_on_elevators() {
    let dir = temp_dir("wastar-bound");
    let (domain, problem) = (data(ELEVATORS), data(ELEVATORS_P01));
    let plan = dir.join("plan");
    let json = dir.join("stats.json");
    let out = corvus(&[
        "solve",
        &domain,
        &problem,
        "--search",
        "lazy-wastar",
        "--weight",
        "5",
        "--heuristic",
        "hff",
        "--cost-type",
        "plusone",
        "--max-cost",
        "64",
        "--plan-file",
        &plan.display().to_string(),
        "--stats-json",
        &json.display().to_string(),
    ]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(validated_cost(&domain, &problem, &plan) <= 64);
    let expanded = stats_json(&json)["expanded"].as_u64().expect("expansions");
    assert!(expanded < 50_000, "{expanded} expansions");
}

const ROADS: &str = "tests/data/roads-domain.pddl";
const ROADS_DETOUR: &str = "tests/data/roads-detour.pddl";

/// The plans an anytime run hands on, in order, each replayed by the
/// validator; returns their costs and the run's report.
fn anytime_plans(domain: &str, problem: &str, options: &Options) -> (Vec<u64>, Report) {
    let (d, p) = corvus::pddl::load(Path::new(domain), Path::new(problem)).expect("loads");
    let mut costs = Vec::new();
    let mut on_plan = |found: &FoundPlan| {
        let validation = plan::validate(&d, &p, &found.plan).expect("every anytime plan is valid");
        assert_eq!(validation.cost, found.cost);
        costs.push(found.cost);
        ControlFlow::Continue(())
    };
    let report =
        planner::solve_files_with(Path::new(domain), Path::new(problem), options, &mut on_plan).expect("solves");
    (costs, report)
}

fn anytime_options(cost_type: CostType, time_limit: Option<Duration>) -> Options {
    Options {
        limits: Limits {
            time: time_limit,
            ..Limits::default()
        },
        anytime: true,
        ..Options::single(Config::default().with_cost_type(cost_type))
    }
}

#[test]
fn anytime_plans_get_strictly_cheaper_and_are_valid() {
    // Unit costs pick the direct road (10); weighted A* on real costs then
    // finds the way over b and c (3), and proves that nothing is cheaper.
    let options = anytime_options(CostType::One, None);
    let (costs, report) = anytime_plans(&data(ROADS), &data(ROADS_DETOUR), &options);
    assert_eq!(costs, vec![10, 3]);
    assert_eq!(report.status, Status::Solved);
    assert!(report.proven_optimal, "the last phase found nothing cheaper than 3");
    assert_eq!(report.plan.map(|p| p.cost), Some(3));
    assert_eq!(report.config, "wastar(hff(cost=plusone), w=5)");
    // Without --anytime the same first search ends at its plan.
    let options = Options {
        anytime: false,
        ..options
    };
    let (costs, report) = anytime_plans(&data(ROADS), &data(ROADS_DETOUR), &options);
    assert_eq!(costs, vec![10]);
    assert!(!report.proven_optimal);
    // A task with more room for improvement, stopped by the time limit.
    let options = anytime_options(CostType::Normal, Some(Duration::from_secs(3)));
    let (costs, report) = anytime_plans(&data(ELEVATORS), &data(ELEVATORS_P01), &options);
    assert!(!costs.is_empty());
    assert!(
        costs.windows(2).all(|w| w[1] < w[0]),
        "not strictly decreasing: {costs:?}"
    );
    assert_eq!(report.status, Status::Solved);
    assert_eq!(report.plan.map(|p| p.cost), costs.last().copied());
}

#[test]
fn anytime_writes_numbered_plan_files_and_removes_stale_ones() {
    let dir = temp_dir("anytime");
    let plan_file = dir.join("sas_plan");
    // Plans left over from an earlier run: the numbered ones go, the others
    // stay (a numbered file that is not a plan would refuse the run: see
    // tests/outputs.rs).
    for stale in ["sas_plan.3", "sas_plan.12", "sas_plan.keep", "other.1"] {
        std::fs::write(dir.join(stale), "(drive a b)\n; cost = 1 (unit cost)\n").expect("write");
    }
    let json = dir.join("stats.json");
    let (domain, problem) = (data(ROADS), data(ROADS_DETOUR));
    let out = corvus(&[
        "solve",
        &domain,
        &problem,
        "--search",
        "gbfs",
        "--cost-type",
        "one",
        "--anytime",
        "--plan-file",
        &plan_file.display().to_string(),
        "--stats-json",
        &json.display().to_string(),
    ]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let mut files: Vec<String> = std::fs::read_dir(&dir)
        .expect("dir")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    files.sort();
    assert_eq!(
        files,
        ["other.1", "sas_plan.1", "sas_plan.2", "sas_plan.keep", "stats.json"]
    );
    let costs: Vec<u64> = ["sas_plan.1", "sas_plan.2"]
        .iter()
        .map(|f| validated_cost(&domain, &problem, &dir.join(f)))
        .collect();
    assert_eq!(costs, [10, 3]);
    assert_eq!(plan_cost(&dir.join("sas_plan.2")), 3);
    let s = stats_json(&json);
    assert_eq!(s["status"], "solved");
    assert_eq!(s["plan_cost"], 3);
    assert_eq!(s["plan_length"], 3);
    assert_eq!(s["plan_file"], dir.join("sas_plan.2").display().to_string());
    // The log names each phase and how the run ended.
    let log = stderr(&out);
    for needle in [
        "search: gbfs(hff(cost=one))",
        "anytime phase 1: wastar(hff(cost=plusone), w=5), plans of cost below 10",
        "anytime phase 2: wastar(hff(cost=plusone), w=3), plans of cost below 3",
        "no plan costs less than 3: it is optimal",
        "plan written to",
    ] {
        assert!(log.contains(needle), "log lacks {needle}: {log}");
    }
}

#[test]
fn anytime_ended_by_the_time_limit_exits_0_with_its_best_plan() {
    let dir = temp_dir("anytime-limit");
    let plan_file = dir.join("plan");
    let json = dir.join("stats.json");
    let (domain, problem) = (data(ELEVATORS), data(ELEVATORS_P01));
    let out = corvus(&[
        "solve",
        &domain,
        &problem,
        "--anytime",
        "--time-limit",
        "2s",
        "--plan-file",
        &plan_file.display().to_string(),
        "--stats-json",
        &json.display().to_string(),
        "--quiet",
    ]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let mut costs = Vec::new();
    for n in 1.. {
        let path = dir.join(format!("plan.{n}"));
        if !path.exists() {
            break;
        }
        costs.push(validated_cost(&domain, &problem, &path));
    }
    assert!(!costs.is_empty(), "no plan.1");
    assert!(costs.windows(2).all(|w| w[1] < w[0]), "{costs:?}");
    assert!(!plan_file.exists(), "anytime writes numbered files only");
    let s = stats_json(&json);
    assert_eq!(
        (s["status"].as_str(), s["exit_code"].as_u64()),
        (Some("solved"), Some(0))
    );
    assert_eq!(s["plan_cost"].as_u64(), costs.last().copied());
    let best = dir.join(format!("plan.{}", costs.len()));
    assert_eq!(s["plan_file"], best.display().to_string());
}

#[test]
fn negative_goals_guide_the_relaxation_heuristics() {
    let dir = temp_dir("negative-goals");
    let (domain, problem) = (
        data("tests/data/lights-domain.pddl"),
        data("tests/data/lights-off.pddl"),
    );
    // Switch l1 off, walk two rooms, switch l2 off: h* = 4, and h_max 3
    // (the costlier lamp alone); before the negations every value was 0.
    for heuristic in ["hff", "hadd", "hmax", "lmcut"] {
        let plan = dir.join(format!("plan.{heuristic}"));
        let out = corvus(&[
            "solve",
            &domain,
            &problem,
            "--heuristic",
            heuristic,
            "--plan-file",
            &plan.display().to_string(),
        ]);
        assert_eq!(code(&out), 0, "{}", stderr(&out));
        let log = stderr(&out);
        let expected = if heuristic == "hmax" { 3 } else { 4 };
        let needle = format!("Initial heuristic value for {heuristic}: {expected}\n");
        assert!(log.contains(&needle), "log lacks {needle}: {log}");
        assert_eq!(validated_cost(&domain, &problem, &plan), 4);
    }
}

/// `--alias lama` improves with lazy phases that keep both heuristics (on
/// costs + 1) and their preferred operators: on a task with action costs a
/// lazy greedy phase first, then lazy weighted A* from weight 5; on a task
/// without, weighted A* at once. Every plan is valid and cheaper than the
/// one before, and an exhausted phase proves the last one optimal.
#[test]
fn lama_improves_with_lazy_phases_on_both_heuristics() {
    let dir = temp_dir("lama");
    let run = |domain: &str, problem: &str, name: &str| {
        let plan_file = dir.join(name);
        let out = corvus(&[
            "solve",
            domain,
            problem,
            "--alias",
            "lama",
            "--plan-file",
            &plan_file.display().to_string(),
        ]);
        assert_eq!(code(&out), 0, "{}", stderr(&out));
        let mut costs = Vec::new();
        for n in 1.. {
            let path = dir.join(format!("{name}.{n}"));
            if !path.exists() {
                break;
            }
            costs.push(validated_cost(domain, problem, &path));
        }
        (costs, stderr(&out))
    };
    let both = "[hff(cost=plusone), lmcount(cost=plusone)]";
    // Roads: unit costs take the direct road (10); the greedy phase on
    // costs + 1 finds the way over b and c (3), weighted A* proves it optimal.
    let (costs, log) = run(&data(ROADS), &data(ROADS_DETOUR), "roads");
    assert_eq!(costs, [10, 3]);
    for needle in [
        "search: lazy([hff(cost=one), lmcount(cost=one)])".to_string(),
        format!("anytime phase 1: lazy({both}), plans of cost below 10"),
        format!("anytime phase 2: lazy-wastar({both}, w=5), plans of cost below 3"),
        format!("lazy-wastar({both}, w=5): no plan costs less than 3: it is optimal"),
    ] {
        assert!(log.contains(&needle), "log lacks {needle}: {log}");
    }
    // Blocksworld has no action costs: unit costs and costs + 1 agree, so
    // weighted A* comes first; it proves the first plan optimal.
    let blocks = |f: &str| data(&format!("problems/ipc/blocks/{f}"));
    let (costs, log) = run(&blocks("domain.pddl"), &blocks("probBLOCKS-4-1.pddl"), "blocks");
    assert_eq!(costs, [10]);
    for needle in [
        format!("anytime phase 1: lazy-wastar({both}, w=5), plans of cost below 10"),
        "no plan costs less than 10: it is optimal".to_string(),
    ] {
        assert!(log.contains(&needle), "log lacks {needle}: {log}");
    }
    // Through the planner, stopped by the time limit.
    let mut options = anytime_options(CostType::Normal, Some(Duration::from_secs(3)));
    let lama = corvus::aliases::get("lama").expect("alias");
    options.configs = lama.choice().configs;
    options.anytime = lama.anytime;
    let (costs, report) = anytime_plans(&data(ELEVATORS), &data(ELEVATORS_P01), &options);
    assert!(!costs.is_empty());
    assert!(costs.windows(2).all(|w| w[1] < w[0]), "{costs:?}");
    assert_eq!(report.status, Status::Solved);
    assert_eq!(report.plan.map(|p| p.cost), costs.last().copied());
    // The first search or one of the lazy phases.
    assert!(report.config.starts_with("lazy"), "{}", report.config);
}
