//! The `corvus` binary: exit codes, messages and plan files.

use std::path::PathBuf;
use std::process::Command;

#[path = "asp_common.rs"]
mod common;

use common::{code, corvus, data, stderr, stdout};

fn temp_plan(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("corvus-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir.join(name)
}

const SWITCH: &str = "tests/data/switch-domain.pddl";
const BLOCKS: &str = "problems/ipc/blocks/domain.pddl";

#[test]
fn solve_writes_a_plan_that_validate_accepts() {
    let plan = temp_plan("blocks.plan");
    let plan_s = plan.display().to_string();
    let problem = data("problems/ipc/blocks/probBLOCKS-4-1.pddl");
    let out = corvus(&["solve", &data(BLOCKS), &problem, "--plan-file", &plan_s]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let text = std::fs::read_to_string(&plan).expect("plan file written");
    assert!(
        text.lines()
            .last()
            .is_some_and(|l| l.starts_with("; cost = ") && l.ends_with("(unit cost)"))
    );
    assert!(text.lines().next().is_some_and(|l| l.starts_with('(')));
    let out = corvus(&["validate", &data(BLOCKS), &problem, &plan_s]);
    assert_eq!(code(&out), 0, "{}", String::from_utf8_lossy(&out.stdout));
    // The log shows the grounding sizes, the initial h and the statistics.
    let out = corvus(&[
        "solve",
        &data(BLOCKS),
        &problem,
        "--plan-file",
        &plan_s,
        "--search",
        "astar",
    ]);
    let log = stderr(&out);
    for needle in [
        "grounded:",
        "Initial heuristic value",
        "Expanded",
        "Search time",
        "Peak memory",
    ] {
        assert!(log.contains(needle), "log lacks {needle}: {log}");
    }
}

#[test]
fn validate_names_the_failing_step_and_precondition() {
    let out = corvus(&[
        "validate",
        &data(SWITCH),
        &data("tests/data/switch-two.pddl"),
        &data("tests/data/switch-bad-plan.txt"),
    ]);
    assert_eq!(code(&out), 1);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("step 2") && text.contains("(fuse-ok)"), "{text}");
}

#[test]
fn unsolvable_tasks_exit_11_by_grounding_and_by_search() {
    for problem in ["tests/data/switch-unwired.pddl", "tests/data/switch-two.pddl"] {
        let plan = temp_plan("none.plan");
        let json = temp_plan("none.json");
        let out = corvus(&[
            "solve",
            &data(SWITCH),
            &data(problem),
            "--plan-file",
            &plan.display().to_string(),
            "--stats-json",
            &json.display().to_string(),
        ]);
        assert_eq!(code(&out), 11, "{problem}: {}", stderr(&out));
        assert!(stderr(&out).contains("unsolvable"));
        assert!(!plan.exists(), "no plan file for an unsolvable task");
        // Also a run that grounding decides reports the memory it used.
        let stats = stats_json(&json);
        assert!(stats["peak_memory_bytes"].as_u64().is_some_and(|b| b > 0), "{stats}");
    }
}

#[test]
fn a_step_bound_below_the_optimum_is_proven_unsolvable() {
    let problem = data("problems/ipc/blocks/probBLOCKS-4-0.pddl");
    let plan = temp_plan("bound.plan").display().to_string();
    let out = corvus(&[
        "solve",
        &data(BLOCKS),
        &problem,
        "--max-steps",
        "5",
        "--plan-file",
        &plan,
    ]);
    assert_eq!(code(&out), 11, "{}", stderr(&out));
    let out = corvus(&[
        "solve",
        &data(BLOCKS),
        &problem,
        "--max-steps",
        "6",
        "--plan-file",
        &plan,
    ]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let text = std::fs::read_to_string(&plan).expect("plan");
    assert_eq!(text.lines().filter(|l| l.starts_with('(')).count(), 6);
}

#[test]
fn input_errors_exit_31_with_file_line_and_column() {
    let problem = data("tests/data/switch-syntax-error.pddl");
    let out = corvus(&["solve", &data(SWITCH), &problem]);
    assert_eq!(code(&out), 31);
    assert!(
        stderr(&out).contains("switch-syntax-error.pddl:5:1: expected"),
        "{}",
        stderr(&out)
    );
    let out = corvus(&["solve", &data(SWITCH), &data("tests/data/no-such-file.pddl")]);
    assert_eq!(code(&out), 31);
    assert!(stderr(&out).contains("no-such-file.pddl"), "{}", stderr(&out));
}

#[test]
fn unsupported_features_exit_34_and_are_named() {
    let out = corvus(&[
        "solve",
        &data("tests/data/durative-domain.pddl"),
        &data("tests/data/switch-one.pddl"),
    ]);
    assert_eq!(code(&out), 34);
    assert!(
        stderr(&out).contains("durative-domain.pddl:5:3") && stderr(&out).contains("`:durative-action`"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn time_and_memory_limits_end_a_heavy_search_cleanly() {
    let problem = data("tests/data/blocks-12-0.pddl");
    let plan = temp_plan("limits.plan").display().to_string();
    let base = [
        "solve",
        BLOCKS,
        &problem,
        "--search",
        "astar",
        "--heuristic",
        "blind",
        "--plan-file",
        &plan,
    ];
    let domain = data(BLOCKS);
    let mut args: Vec<&str> = base.to_vec();
    args[1] = &domain;
    let mut timed = args.clone();
    timed.extend(["--time-limit", "1s"]);
    let out = corvus(&timed);
    assert_eq!(code(&out), 23, "{}", stderr(&out));
    assert!(stderr(&out).contains("time limit") && !stderr(&out).contains("panicked"));
    let mut limited = args.clone();
    limited.extend(["--memory-limit", "60M"]);
    let out = corvus(&limited);
    assert_eq!(code(&out), 22, "{}", stderr(&out));
    assert!(stderr(&out).contains("memory limit") && !stderr(&out).contains("panicked"));
}

#[test]
fn bad_arguments_are_usage_errors() {
    let out = corvus(&["solve", "a.pddl", "b.pddl", "--time-limit", "soon"]);
    assert_eq!(code(&out), 2, "clap's usage error code");
    assert!(stderr(&out).contains("not a duration"));
}

fn stats_json(path: &std::path::Path) -> serde_json::Value {
    let text = std::fs::read_to_string(path).expect("statistics file written");
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"))
}

#[test]
fn stats_json_matches_the_plan_file_and_the_outcome() {
    let plan = temp_plan("stats.plan");
    let json = temp_plan("stats.json");
    let problem = data("problems/ipc/blocks/probBLOCKS-4-1.pddl");
    let out = corvus(&[
        "solve",
        &data(BLOCKS),
        &problem,
        "--search",
        "astar",
        "--plan-file",
        &plan.display().to_string(),
        "--stats-json",
        &json.display().to_string(),
        "--quiet",
    ]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let s = stats_json(&json);
    let text = std::fs::read_to_string(&plan).expect("plan file written");
    let steps = text.lines().filter(|l| l.starts_with('(')).count() as u64;
    let cost: u64 = text
        .lines()
        .find_map(|l| l.strip_prefix("; cost = "))
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .expect("cost line");
    assert_eq!(s["status"], "solved");
    assert_eq!(s["exit_code"], 0);
    assert_eq!(s["plan_length"], steps);
    assert_eq!(s["plan_cost"], cost);
    assert_eq!(s["plan_file"], plan.display().to_string());
    assert_eq!(s["config"], "astar(lmcut())");
    for key in ["expanded", "evaluated", "generated", "peak_memory_bytes"] {
        assert!(s[key].as_u64().is_some_and(|v| v > 0), "{key}: {s}");
    }
    assert!(s["dead_ends"].is_u64());
    let (search, total) = (s["search_time_s"].as_f64(), s["total_time_s"].as_f64());
    assert!(search.zip(total).is_some_and(|(a, b)| 0.0 <= a && a <= b), "{s}");
    // Not a terminal: no progress line in the captured log.
    assert!(!stderr(&out).contains("\x1b[K"));

    // Unsolvable: no plan fields, exit code 11 in the object.
    let out = corvus(&[
        "solve",
        &data(SWITCH),
        &data("tests/data/switch-two.pddl"),
        "--plan-file",
        &plan.display().to_string(),
        "--stats-json",
        &json.display().to_string(),
    ]);
    assert_eq!(code(&out), 11);
    let s = stats_json(&json);
    assert_eq!(
        (s["status"].as_str(), s["exit_code"].as_i64()),
        (Some("unsolvable"), Some(11))
    );
    assert!(s["plan_length"].is_null() && s["plan_cost"].is_null(), "{s}");

    // An input error is an object too, with the message and its place.
    let out = corvus(&[
        "solve",
        &data(SWITCH),
        &data("tests/data/switch-syntax-error.pddl"),
        "--stats-json",
        &json.display().to_string(),
    ]);
    assert_eq!(code(&out), 31);
    let s = stats_json(&json);
    assert_eq!(s["status"], "error");
    assert_eq!(s["exit_code"], 31);
    assert!(
        s["error"]
            .as_str()
            .is_some_and(|e| e.contains("switch-syntax-error.pddl:5:1:")),
        "{s}"
    );
}

#[test]
fn stats_json_reports_the_limit_that_stopped_a_heavy_search() {
    let json = temp_plan("limit.json");
    let plan = temp_plan("limit.plan").display().to_string();
    let json_s = json.display().to_string();
    let (domain, problem) = (data(BLOCKS), data("tests/data/blocks-12-0.pddl"));
    let base = [
        "solve",
        &domain,
        &problem,
        "--search",
        "astar",
        "--heuristic",
        "blind",
        "--plan-file",
        &plan,
        "--stats-json",
        &json_s,
    ];
    for (limit, value, status, exit) in [
        ("--time-limit", "0.3s", "out-of-time", 23),
        ("--memory-limit", "40M", "out-of-memory", 22),
    ] {
        let mut args = base.to_vec();
        args.extend([limit, value]);
        let out = corvus(&args);
        assert_eq!(code(&out), exit, "{}", stderr(&out));
        assert!(!stderr(&out).contains("panicked"));
        let s = stats_json(&json);
        assert_eq!(s["status"], status, "{s}");
        assert_eq!(s["exit_code"], exit);
        assert!(s["plan_length"].is_null());
        assert!(s["expanded"].as_u64().is_some_and(|e| e > 0), "{s}");
        if exit == 22 {
            assert!(s["peak_memory_bytes"].as_u64().is_some_and(|m| m > 40 << 20), "{s}");
        }
    }
}

#[test]
fn asp_solve_writes_stats_json() {
    let json = temp_plan("asp.json");
    let out = corvus(&[
        "asp",
        "solve",
        &data("problems/hanoi-seed.asp"),
        "--stats-json",
        &json.display().to_string(),
        "--quiet",
    ]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let s = stats_json(&json);
    let witness = String::from_utf8_lossy(&out.stdout);
    let moves = witness.lines().filter(|l| l.starts_with("put(")).count() as u64;
    assert_eq!(s["status"], "solved");
    assert_eq!(s["exit_code"], 0);
    assert_eq!(s["plan_length"], moves);
    assert_eq!(s["step_bound"], moves, "a Hanoi witness has exactly k moves");
}

/// With stderr on a terminal (a pseudo-terminal from `script`), the live
/// progress line appears and is erased before the next log line.
#[test]
fn progress_line_on_a_terminal() {
    let Ok(status) = Command::new("script").arg("--version").output() else {
        eprintln!("skipped: `script` (util-linux) is not installed");
        return;
    };
    assert!(status.status.success());
    let plan = temp_plan("tty.plan").display().to_string();
    let command = format!(
        "{} solve {} {} --search astar --heuristic blind --time-limit 1.2s --plan-file {plan}",
        env!("CARGO_BIN_EXE_corvus"),
        data(BLOCKS),
        data("tests/data/blocks-12-0.pddl"),
    );
    let out = Command::new("script")
        .args(["-qec", &command, "/dev/null"])
        .output()
        .expect("script runs");
    let log = String::from_utf8_lossy(&out.stdout);
    assert!(log.contains("\r\x1b[K[search] expanded "), "{log}");
    assert!(log.contains("states/s") && log.contains("memory"), "{log}");
    // Every progress line is erased (`\r\x1b[K`) before the next log line
    // is printed, so no progress text is ever followed by a newline.
    for (at, _) in log.match_indices("[search] expanded ") {
        let rest = &log[at..];
        let erase = rest.find("\r\x1b[K").unwrap_or(usize::MAX);
        let newline = rest.find('\n').unwrap_or(usize::MAX);
        assert!(erase < newline, "progress line not erased: {log}");
    }
    // The search stops at its own check ("Search stopped"), or, when one
    // step outlasts the stop grace on a loaded machine (seen once while the
    // other tests loaded both cores, at 3 million states), the watchdog
    // ends the run ("search stopped"); the progress line is erased either way.
    assert!(
        log.to_lowercase().contains("search stopped: time limit reached"),
        "{log}"
    );
    // --quiet: no progress line.
    let out = Command::new("script")
        .args(["-qec", &format!("{command} --quiet"), "/dev/null"])
        .output()
        .expect("script runs");
    assert!(!String::from_utf8_lossy(&out.stdout).contains("[search]"));
}

#[test]
fn packed_states_change_memory_not_the_search() {
    // Depot's invariant groups pack a state into fewer words; the search
    // must expand the same states and return the same plan.
    let domain = data("problems/ipc/depot/domain.pddl");
    let problem = data("problems/ipc/depot/p02.pddl");
    let mut results = Vec::new();
    for packed in [false, true] {
        let plan = temp_plan(&format!("depot-packed-{packed}.plan"));
        let stats = temp_plan(&format!("depot-packed-{packed}.json"));
        let (plan_s, stats_s) = (plan.display().to_string(), stats.display().to_string());
        let mut args = vec![
            "solve",
            &domain,
            &problem,
            "--search",
            "astar",
            "--heuristic",
            "hmax",
            "--plan-file",
            &plan_s,
            "--stats-json",
            &stats_s,
        ];
        if packed {
            args.push("--pack-states");
        }
        let out = corvus(&args);
        assert_eq!(code(&out), 0, "{}", stderr(&out));
        if packed {
            assert!(
                stderr(&out).contains("States stored in 1 word(s) each (2 unpacked)"),
                "{}",
                stderr(&out)
            );
        }
        let out = corvus(&["validate", &domain, &problem, &plan_s]);
        assert_eq!(code(&out), 0, "{}", String::from_utf8_lossy(&out.stdout));
        let json = stats_json(&stats);
        results.push((std::fs::read_to_string(&plan).expect("plan"), json["expanded"].clone()));
    }
    assert_eq!(results[0], results[1]);
}

#[test]
fn heuristic_lists_run_the_lazy_searches_and_are_refused_by_the_eager_ones() {
    let problem = data("problems/ipc/blocks/probBLOCKS-4-1.pddl");
    for search in ["lazy", "bfws"] {
        let plan = temp_plan(&format!("blocks-{search}.plan"));
        let plan_s = plan.display().to_string();
        let out = corvus(&[
            "solve",
            &data(BLOCKS),
            &problem,
            "--search",
            search,
            "--heuristic",
            "hff,goalcount",
            "--plan-file",
            &plan_s,
        ]);
        assert_eq!(code(&out), 0, "{}", stderr(&out));
        assert!(
            stderr(&out).contains(&format!("{search}([hff(), goalcount()])")),
            "{}",
            stderr(&out)
        );
        let out = corvus(&["validate", &data(BLOCKS), &problem, &plan_s]);
        assert_eq!(code(&out), 0, "{}", stderr(&out));
    }
    let out = corvus(&[
        "solve",
        &data(BLOCKS),
        &problem,
        "--search",
        "gbfs",
        "--heuristic",
        "hff,goalcount",
    ]);
    assert_eq!(code(&out), 2);
    assert!(stderr(&out).contains("takes one heuristic"), "{}", stderr(&out));
}

#[test]
fn a_problem_given_alone_finds_its_domain_beside_it() {
    let dir = std::env::temp_dir().join(format!("corvus-cli-alone-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    std::fs::copy(data("problems/ipc/blocks/probBLOCKS-4-1.pddl"), dir.join("p01.pddl")).expect("copy");
    let problem = dir.join("p01.pddl").display().to_string();
    let plan = dir.join("plan").display().to_string();
    // No domain beside it: a usage error naming the names tried.
    let out = corvus(&[&problem, "--plan-file", &plan]);
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    assert!(stderr(&out).contains("domain_p01.pddl"), "{}", stderr(&out));
    // FD's names, and the log says which file it chose.
    std::fs::copy(data(BLOCKS), dir.join("p01-domain.pddl")).expect("copy");
    let out = corvus(&[&problem, "--plan-file", &plan]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(
        stderr(&out).contains("p01-domain.pddl (found beside the problem)"),
        "{}",
        stderr(&out)
    );
    let out = corvus(&["validate", &data(BLOCKS), &problem, &plan]);
    assert_eq!(code(&out), 0, "{}", stdout(&out));
    std::fs::remove_dir_all(&dir).expect("clean up");
}
