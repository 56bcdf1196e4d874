//! The IPC and Fast Downward calling conventions of the `corvus` binary:
//! `corvus [--alias NAME] DOMAIN PROBLEM [PLANFILE]`, the aliases, and the
//! exit-code table of the README.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use corvus::aliases::ALIASES;

#[path = "asp_common.rs"]
mod common;

use common::{code, corvus_in, data, stderr};

const BLOCKS: &str = "problems/ipc/blocks/domain.pddl";
const BLOCKS_4: &str = "problems/ipc/blocks/probBLOCKS-4-1.pddl";
const SWITCH: &str = "tests/data/switch-domain.pddl";

/// A fresh directory for one test's files.
fn temp_dir(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("corvus-ipc-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// `corvus validate` on a plan file: its verdict line, after asserting exit 0.
fn assert_valid(dir: &Path, problem: &str, plan: &Path) -> String {
    let plan = plan.display().to_string();
    let out = corvus_in(dir, &["validate", &data(BLOCKS), &data(problem), &plan]);
    let verdict = String::from_utf8_lossy(&out.stdout).into_owned();
    assert_eq!(code(&out), 0, "{verdict}");
    verdict
}

#[test]
fn the_ipc_form_writes_a_valid_plan_to_the_named_file() {
    let dir = temp_dir("named");
    let plan = dir.join("my.plan");
    let out = corvus_in(&dir, &[&data(BLOCKS), &data(BLOCKS_4), &plan.display().to_string()]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(!dir.join("sas_plan").exists(), "only the named file is written");
    assert!(assert_valid(&dir, BLOCKS_4, &plan).starts_with("plan valid: "));
}

#[test]
fn the_ipc_form_without_a_plan_file_writes_sas_plan_with_the_default_configuration() {
    let dir = temp_dir("default");
    let out = corvus_in(&dir, &[&data(BLOCKS), &data(BLOCKS_4)]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(
        stderr(&out).contains("search: lazy([hff(cost=one), lmcount(cost=one)])"),
        "{}",
        stderr(&out)
    );
    let ipc_plan = std::fs::read_to_string(dir.join("sas_plan")).expect("sas_plan written");
    assert_valid(&dir, BLOCKS_4, &dir.join("sas_plan"));
    // The same run as `corvus solve` and as the first alias.
    let out = corvus_in(
        &dir,
        &["solve", &data(BLOCKS), &data(BLOCKS_4), "--plan-file", "solve.plan"],
    );
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(
        std::fs::read_to_string(dir.join("solve.plan")).expect("written"),
        ipc_plan
    );
    let first = ALIASES[0].name;
    let out = corvus_in(&dir, &["--alias", first, &data(BLOCKS), &data(BLOCKS_4), "alias.plan"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(
        std::fs::read_to_string(dir.join("alias.plan")).expect("written"),
        ipc_plan
    );
}

/// Every alias solves a shipped problem, optimal ones with the optimal
/// cost, and gives the same plan as the `solve` options it stands for.
#[test]
fn every_alias_solves_a_shipped_problem_as_its_solve_options_do() {
    let dir = temp_dir("aliases");
    for alias in ALIASES {
        let by_alias = dir.join(format!("{}.plan", alias.name));
        let by_alias_s = by_alias.display().to_string();
        let out = corvus_in(
            &dir,
            &["--alias", alias.name, &data(BLOCKS), &data(BLOCKS_4), &by_alias_s],
        );
        assert_eq!(code(&out), 0, "{}: {}", alias.name, stderr(&out));
        // An anytime alias writes numbered plans, the last one the best.
        let anytime = alias.anytime;
        let by_alias = if anytime { last_numbered(&by_alias) } else { by_alias };
        let verdict = assert_valid(&dir, BLOCKS_4, &by_alias);
        if alias.name.starts_with("seq-opt-") {
            // probBLOCKS-4-1's optimum is 10 moves.
            assert_eq!(verdict.trim(), "plan valid: 10 steps, cost 10", "{}", alias.name);
        }
        let by_options = dir.join(format!("{}.options.plan", alias.name));
        let mut args = vec!["solve", BLOCKS, BLOCKS_4, "--plan-file"];
        let by_options_s = by_options.display().to_string();
        let (domain, problem) = (data(BLOCKS), data(BLOCKS_4));
        args[1] = &domain;
        args[2] = &problem;
        args.push(&by_options_s);
        // A portfolio solves this easy task with its first entry.
        args.extend(["--search", alias.configs[0].0]);
        if anytime {
            args.push("--anytime");
        }
        let out = corvus_in(&dir, &args);
        assert_eq!(code(&out), 0, "{}: {}", alias.name, stderr(&out));
        let by_options = if anytime {
            last_numbered(&by_options)
        } else {
            by_options
        };
        assert_eq!(
            std::fs::read_to_string(&by_alias).expect("written"),
            std::fs::read_to_string(&by_options).expect("written"),
            "{}",
            alias.name
        );
    }
    // `solve` takes the alias too; it cannot be mixed with the options it sets.
    let out = corvus_in(
        &dir,
        &["solve", "--alias", "seq-opt-lmcut", &data(BLOCKS), &data(BLOCKS_4)],
    );
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(stderr(&out).contains("search: astar(lmcut())"));
    let out = corvus_in(
        &dir,
        &["--alias", "seq-opt-lmcut", "--search", "gbfs", "d.pddl", "p.pddl"],
    );
    assert_eq!(code(&out), 2);
    let out = corvus_in(&dir, &["--alias", "no-such-alias", "d.pddl", "p.pddl"]);
    assert_eq!(code(&out), 2);
    assert!(stderr(&out).contains("lama-first"), "the known names are listed");
}

#[test]
fn a_file_named_like_a_subcommand_is_given_with_a_path() {
    let dir = temp_dir("named-solve");
    std::fs::copy(data(BLOCKS), dir.join("solve")).expect("copied");
    let out = corvus_in(&dir, &["./solve", &data(BLOCKS_4), "plan"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_valid(&dir, BLOCKS_4, &dir.join("plan"));
    // Without the path it is the subcommand, here with the problem alone,
    // whose domain is then found beside the problem, not in `./solve`.
    let out = corvus_in(&dir, &["solve", &data(BLOCKS_4), "--plan-file", "plan2"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let beside = format!("{} (found beside the problem)", data(BLOCKS));
    assert!(stderr(&out).contains(&beside), "{}", stderr(&out));
}

/// The README's exit-code table, through the IPC form.
#[test]
fn the_exit_code_table_holds() {
    let dir = temp_dir("codes");
    let switch = data(SWITCH);
    let heavy = data("tests/data/blocks-12-0.pddl");
    let blind = ["--alias", "seq-opt-blind"];
    let cases: Vec<(Vec<String>, i32)> = vec![
        (vec![data(BLOCKS), data(BLOCKS_4)], 0),
        (vec![switch.clone(), data("tests/data/switch-unwired.pddl")], 11),
        (vec![switch.clone(), data("tests/data/switch-two.pddl")], 11),
        (vec![switch.clone(), data("tests/data/switch-syntax-error.pddl")], 31),
        (vec![switch.clone(), data("no-such-problem.pddl")], 31),
        (
            vec![
                data("tests/data/durative-domain.pddl"),
                data("tests/data/switch-one.pddl"),
            ],
            34,
        ),
        (
            vec![data(BLOCKS), data(BLOCKS_4), "--time-limit".into(), "soon".into()],
            2,
        ),
        (
            [&blind[..], &[data(BLOCKS).as_str(), &heavy, "--time-limit", "0.5s"]]
                .concat()
                .iter()
                .map(|s| s.to_string())
                .collect(),
            23,
        ),
        (
            [&blind[..], &[data(BLOCKS).as_str(), &heavy, "--memory-limit", "40M"]]
                .concat()
                .iter()
                .map(|s| s.to_string())
                .collect(),
            22,
        ),
    ];
    for (args, expected) in cases {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = corvus_in(&dir, &args);
        assert_eq!(code(&out), expected, "{args:?}: {}", stderr(&out));
        assert!(!stderr(&out).contains("panicked"), "{}", stderr(&out));
    }
    // 1: an invalid plan.
    let bad = data("tests/data/switch-bad-plan.txt");
    let out = corvus_in(&dir, &["validate", &switch, &data("tests/data/switch-two.pddl"), &bad]);
    assert_eq!(code(&out), 1);
}

/// Ctrl-C ends the search cleanly with 130 (the shell's code for SIGINT),
/// not with Fast Downward's 24, which means "out of memory and time".
#[cfg(unix)]
#[test]
fn an_interrupted_search_exits_130() {
    let dir = temp_dir("interrupt");
    let stats = dir.join("stats.json");
    let mut child = Command::new(env!("CARGO_BIN_EXE_corvus"))
        .args([
            "--alias",
            "seq-opt-blind",
            &data(BLOCKS),
            &data("tests/data/blocks-12-0.pddl"),
        ])
        .args(["--stats-json", &stats.display().to_string(), "--memory-limit", "2G"])
        .current_dir(&dir)
        .stderr(Stdio::null())
        .spawn()
        .expect("the corvus binary runs");
    // Grounding takes milliseconds; then the blind search runs for minutes.
    std::thread::sleep(Duration::from_millis(700));
    let killed = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(killed.success());
    let status = child.wait().expect("corvus ends");
    assert_eq!(status.code(), Some(130), "{status:?}");
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&stats).expect("stats written")).expect("JSON");
    assert_eq!(json["status"], "interrupted");
    assert_eq!(json["exit_code"], 130);
}

/// The numbered plan file `path.N` with the largest N (an anytime run's best).
fn last_numbered(path: &Path) -> PathBuf {
    (1..)
        .map(|n| PathBuf::from(format!("{}.{n}", path.display())))
        .take_while(|p| p.exists())
        .last()
        .unwrap_or_else(|| panic!("no numbered plan file {}.1", path.display()))
}

/// Fast Downward's spelling of LAMA's first iteration (with the successor
/// order corvus's lama-first uses), of A* with LM-cut and of blind A*
/// finds the plans corvus's own spelling finds, byte for byte.
#[test]
fn fast_downward_spelled_specs_find_the_plans_of_corvus_spelled_ones() {
    let dir = temp_dir("fd-specs");
    let fd_lama_first = "let(hlm, lmcount(lm_factory=lm_reasonable_orders_hps(lm_rhw()), transform=adapt_costs(one)), \
                         let(hff, ff(transform=adapt_costs(one)), lazy_greedy([hff, hlm], preferred=[hff, hlm], \
                         cost_type=one, reopen_closed=false, preferred_successors_first=true)))";
    let pairs: [(&str, &str, &[&str]); 3] = [
        (
            fd_lama_first,
            "lama-first",
            &["depot/p01", "logistics00/probLOGISTICS-4-0", "rovers/p01", "tpp/p01"],
        ),
        (
            "astar(lmcut())",
            "seq-opt-lmcut",
            &["blocks/probBLOCKS-4-1", "gripper/prob01"],
        ),
        ("astar(blind())", "seq-opt-blind", &["blocks/probBLOCKS-4-1"]),
    ];
    for (spec, alias, problems) in pairs {
        for problem in problems {
            let (folder, name) = problem.split_once('/').expect("folder/name");
            let domain = data(&format!("problems/ipc/{folder}/domain.pddl"));
            let task = data(&format!("problems/ipc/{problem}.pddl"));
            let by_spec = dir.join(format!("{folder}-{name}-spec.plan"));
            let by_alias = dir.join(format!("{folder}-{name}-{alias}.plan"));
            let (spec_s, alias_s) = (by_spec.display().to_string(), by_alias.display().to_string());
            let out = corvus_in(
                &dir,
                &["solve", &domain, &task, "--search", spec, "--plan-file", &spec_s],
            );
            assert_eq!(code(&out), 0, "{spec} on {problem}: {}", stderr(&out));
            let out = corvus_in(
                &dir,
                &["solve", &domain, &task, "--alias", alias, "--plan-file", &alias_s],
            );
            assert_eq!(code(&out), 0, "{alias} on {problem}: {}", stderr(&out));
            assert_eq!(
                std::fs::read_to_string(&by_spec).expect("written"),
                std::fs::read_to_string(&by_alias).expect("written"),
                "{spec} and {alias} on {problem}"
            );
        }
    }
    // The log prints the spec that ran, which reads back in.
    let (domain, problem) = (data(BLOCKS), data(BLOCKS_4));
    let solve = |extra: &[&str]| corvus_in(&dir, &[&["solve", domain.as_str(), problem.as_str()], extra].concat());
    let out = solve(&["--search", fd_lama_first]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(
        stderr(&out).contains("search: lazy([hff(cost=one), lmcount(cost=one)])\n"),
        "{}",
        stderr(&out)
    );
    // A mistake is a usage error that shows where it is.
    let out = solve(&["--search", "astar(lmcut(), w=2)"]);
    assert_eq!(code(&out), 2);
    let message = stderr(&out);
    assert!(
        message.contains("column 18: `astar` has no parameter `w` (its parameters: eval, evals, cost_type, probe)"),
        "{message}"
    );
    assert!(
        message.contains("  astar(lmcut(), w=2)\n                   ^"),
        "{message}"
    );
    // A spec names its heuristics; --heuristic goes with a search's name.
    let out = solve(&["--search", "astar(lmcut())", "--heuristic", "hff"]);
    assert_eq!(code(&out), 2);
    assert!(stderr(&out).contains("names its own heuristics"), "{}", stderr(&out));
    let _ = std::fs::remove_dir_all(&dir);
}
