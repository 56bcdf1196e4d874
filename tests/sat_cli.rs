//! The `corvus` binary's satisficing options: `--cost-type` and `--anytime`.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn data(name: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join(name)
        .display()
        .to_string()
}

fn corvus(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_corvus"))
        .args(args)
        .output()
        .expect("the corvus binary runs")
}

fn code(out: &Output) -> i32 {
    out.status.code().expect("exited normally, not by a signal")
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
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
        assert_eq!(s["config"], format!("gbfs({name})"));
        // The plan file and the statistics give the real cost, which the validator confirms.
        let cost = validated_cost(&domain, &problem, &plan);
        assert_eq!(plan_cost(&plan), cost);
        assert_eq!(s["plan_cost"], cost);
        assert_eq!(s["unit_cost"], false);
    }
    let out = corvus(&["solve", &domain, &problem, "--cost-type", "two"]);
    assert_eq!(code(&out), 2, "an unknown cost type is a usage error");
}
