//! Limits, signals and hostile input through the binary (issue 17): every
//! phase honours `--time-limit`, `--memory-limit`, SIGINT and SIGTERM; the
//! plan reader's memory is bounded; nonsense on the command line or in the
//! input is refused with the documented exit code.
//!
//! Peak memory is the child's VmHWM, read from `/proc/<pid>/status` while it
//! runs. Time bounds are generous: the machine may be loaded.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

#[path = "asp_common.rs"]
mod common;

use common::{corvus, crate_dir, measured, scratch, stderr, stdout};

const MIB: u64 = 1 << 20;

/// A domain whose grounding explodes: `act` has `params` parameters, each
/// with the static precondition `(p ?x)`, and adds `(q ?x0 ... )`; the goal
/// needs `finish`, which needs `(q ?a ... ?a)`. With every `(p o)` true,
/// `act` has objects^params ground operators.
fn explosion(dir: &Path, params: usize, objects: usize) -> (String, String) {
    let xs: Vec<String> = (0..params).map(|i| format!("?x{i}")).collect();
    let pre: Vec<String> = xs.iter().map(|x| format!("(p {x})")).collect();
    let domain = format!(
        "(define (domain explode)\n  (:predicates (p ?x) (q {xs}) (done))\n  \
         (:action act :parameters ({xs}) :precondition (and {pre}) :effect (q {xs}))\n  \
         (:action finish :parameters (?a) :precondition (q {aa}) :effect (done)))\n",
        xs = xs.join(" "),
        pre = pre.join(" "),
        aa = vec!["?a"; params].join(" "),
    );
    let objs: Vec<String> = (0..objects).map(|i| format!("o{i}")).collect();
    let init: Vec<String> = objs.iter().map(|o| format!("(p {o})")).collect();
    let problem = format!(
        "(define (problem e) (:domain explode) (:objects {}) (:init {}) (:goal (done)))\n",
        objs.join(" "),
        init.join(" ")
    );
    let d = dir.join("explode-domain.pddl");
    let p = dir.join("explode-problem.pddl");
    std::fs::write(&d, domain).expect("write domain");
    std::fs::write(&p, problem).expect("write problem");
    (d.display().to_string(), p.display().to_string())
}

fn read_stats(path: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(path).expect("stats file written")).expect("stats are JSON")
}

fn blocks(file: &str) -> String {
    crate_dir().join("problems/ipc/blocks").join(file).display().to_string()
}

/// Item 1: the four-parameter explosion under 1 s and 300 MB (the issue:
/// 30 s and 2.6 GB until killed from outside).
#[test]
fn grounding_stops_at_the_time_and_memory_limits_and_names_the_schema() {
    let dir = scratch("explosion-limits");
    let (d, p) = explosion(&dir, 4, 45);
    let stats = dir.join("stats.json");
    let run = measured(
        &dir,
        &[
            "solve",
            &d,
            &p,
            "--time-limit",
            "1s",
            "--memory-limit",
            "300M",
            "--stats-json",
            &stats.display().to_string(),
        ],
        None,
    );
    assert!(matches!(run.code, Some(22 | 23)), "exit {:?}: {}", run.code, run.stderr);
    assert!(run.seconds < 8.0, "stopped after {:.2}s", run.seconds);
    // A small slack over the limit: the watchdog looks every 10 ms.
    assert!(run.peak_rss <= 300 * MIB + 32 * MIB, "peak {} MB", run.peak_rss / MIB);
    assert!(run.stderr.contains("grounding stopped: "), "{}", run.stderr);
    assert!(
        run.stderr
            .contains("action act: up to 4100625 ground operators (45·45·45·45 parameter values)"),
        "{}",
        run.stderr
    );
    let json = read_stats(&stats);
    assert_eq!(json["config"], "grounding");
    assert_eq!(json["exit_code"], run.code.unwrap_or(0));
    assert!(!dir.join("sas_plan").exists());

    // The memory limit alone: exit 22 within the slack.
    let run = measured(&dir, &["solve", &d, &p, "--memory-limit", "150M"], None);
    assert_eq!(run.code, Some(22), "{}", run.stderr);
    assert!(run.peak_rss <= 150 * MIB + 32 * MIB, "peak {} MB", run.peak_rss / MIB);
    assert!(
        run.stderr.contains("grounding stopped: memory limit reached"),
        "{}",
        run.stderr
    );
}

/// Item 1: the time limit holds while parsing. An 8 MB problem on one line
/// takes pest about a second to read, a call without checkpoints: the
/// watchdog ends it (before, the columns of its tokens were counted from
/// the line's start, which took minutes).
#[test]
fn parsing_stops_at_the_time_limit() {
    let dir = scratch("parsing-limit");
    let (d, _) = explosion(&dir, 1, 1);
    let n = 400_000;
    let objects: String = (0..n).map(|i| format!(" o{i}")).collect();
    let init: String = (0..n).map(|i| format!(" (p o{i})")).collect();
    let p = dir.join("one-line.pddl");
    std::fs::write(
        &p,
        format!("(define (problem e) (:domain explode) (:objects{objects}) (:init{init}) (:goal (done)))\n"),
    )
    .expect("write");
    let stats = dir.join("stats.json");
    let run = measured(
        &dir,
        &[
            "solve",
            &d,
            &p.display().to_string(),
            "--time-limit",
            "0.2s",
            "--stats-json",
            &stats.display().to_string(),
        ],
        None,
    );
    assert_eq!(run.code, Some(23), "{}", run.stderr);
    assert!(run.seconds < 8.0, "stopped after {:.2}s", run.seconds);
    assert!(
        run.stderr.contains("parsing stopped: time limit reached"),
        "{}",
        run.stderr
    );
    assert_eq!(read_stats(&stats)["config"], "parsing");
}

/// A corridor of `cells` cells, walked from the first to the last: every
/// cell is a landmark, and each is naturally ordered before all the later
/// ones, so building the landmark graph is quadratic in the cells while
/// grounding is linear (20,000 cells: 0.04 s to ground, minutes of
/// landmark orderings and gigabytes of memory).
fn corridor(dir: &Path, cells: usize) -> (String, String) {
    let domain = "(define (domain corridor) (:requirements :strips)\n  (:predicates (at ?x) (next ?x ?y))\n  \
                  (:action go :parameters (?x ?y) :precondition (and (at ?x) (next ?x ?y)) \
                  :effect (and (at ?y) (not (at ?x)))))\n";
    let objects: String = (0..cells).map(|i| format!(" c{i}")).collect();
    let next: String = (1..cells).map(|i| format!(" (next c{} c{i})", i - 1)).collect();
    let problem = format!(
        "(define (problem walk) (:domain corridor) (:objects{objects})\n  (:init (at c0){next})\n  (:goal (at c{})))\n",
        cells - 1
    );
    let d = dir.join("corridor-domain.pddl");
    let p = dir.join("corridor-problem.pddl");
    std::fs::write(&d, domain).expect("write domain");
    std::fs::write(&p, problem).expect("write problem");
    (d.display().to_string(), p.display().to_string())
}

/// Item 1: the time and memory limits hold while the heuristics are built
/// (the landmark graph of lama-first, the default, on a long corridor):
/// before, the watchdog had to end the process, and the memory went on
/// growing until then.
#[test]
fn heuristic_construction_stops_at_the_time_and_memory_limits() {
    let dir = scratch("construction-limit");
    let (d, p) = corridor(&dir, 20_000);
    let run = measured(&dir, &["solve", &d, &p, "--time-limit", "1s"], None);
    assert_eq!(run.code, Some(23), "{}", run.stderr);
    assert!(run.seconds < 6.0, "stopped after {:.2}s", run.seconds);
    assert!(
        run.stderr
            .contains("heuristic construction stopped: time limit reached"),
        "{}",
        run.stderr
    );
    assert!(!run.stderr.contains("did not stop"), "{}", run.stderr);

    let stats = dir.join("stats.json");
    let run = measured(
        &dir,
        &[
            "solve",
            &d,
            &p,
            "--memory-limit",
            "200M",
            "--stats-json",
            &stats.display().to_string(),
        ],
        None,
    );
    assert_eq!(run.code, Some(22), "{}", run.stderr);
    // The slack is one growth step of the landmark orderings' hash table,
    // which rehashes in one call, between two checkpoints (peaks of 223 to
    // 230 MB in repeated runs).
    assert!(run.peak_rss <= 200 * MIB + 48 * MIB, "peak {} MB", run.peak_rss / MIB);
    assert!(
        run.stderr
            .contains("heuristic construction stopped: memory limit reached"),
        "{}",
        run.stderr
    );
    assert_eq!(read_stats(&stats)["config"], "heuristic construction");
}

/// Items 1 and 2: SIGINT and SIGTERM during the grounding of eight
/// parameters over 60 objects (the issue: SIGINT left the process alive at
/// 6 GB; SIGTERM killed it with 143 and no statistics).
#[test]
fn sigint_and_sigterm_stop_grounding_cleanly() {
    let dir = scratch("explosion-signals");
    let (d, p) = explosion(&dir, 8, 60);
    for signal in ["INT", "TERM"] {
        let stats = dir.join(format!("stats-{signal}.json"));
        std::fs::write(dir.join("sas_plan"), "(stale plan)\n").expect("write");
        let run = measured(
            &dir,
            &["solve", &d, &p, "--stats-json", &stats.display().to_string()],
            Some((signal, Duration::from_millis(500))),
        );
        assert_eq!(run.code, Some(130), "SIG{signal}: {}", run.stderr);
        assert!(run.seconds < 10.0, "SIG{signal}: {:.2}s", run.seconds);
        assert!(run.stderr.contains("grounding stopped: interrupted"), "{}", run.stderr);
        let json = read_stats(&stats);
        assert_eq!(json["status"], "interrupted");
        assert_eq!(json["exit_code"], 130);
        // No plan, and the stale one is gone.
        assert!(!dir.join("sas_plan").exists());
    }
}

/// Item 2: SIGTERM during the search stops it like Ctrl-C, with the
/// search's statistics.
#[test]
fn sigterm_stops_the_search_with_statistics() {
    let dir = scratch("search-sigterm");
    let stats = dir.join("stats.json");
    let run = measured(
        &dir,
        &[
            "solve",
            &blocks("domain.pddl"),
            &crate_dir().join("tests/data/blocks-12-0.pddl").display().to_string(),
            "--search",
            "astar",
            "--heuristic",
            "blind",
            "--stats-json",
            &stats.display().to_string(),
        ],
        Some(("TERM", Duration::from_millis(1500))),
    );
    assert_eq!(run.code, Some(130), "{}", run.stderr);
    assert!(run.stderr.contains("Search stopped: interrupted"), "{}", run.stderr);
    let json = read_stats(&stats);
    assert_eq!(json["status"], "interrupted");
    assert!(json["expanded"].as_u64().is_some_and(|e| e > 0), "{json}");
    assert!(!dir.join("sas_plan").exists());
}

/// Item 3: `validate` holds the text, not the steps (the issue: 2.1 GB for
/// 50 MB of `(`, 214 MB for a 5 MB plan, 808 MB for 2 million lines).
#[test]
fn validate_memory_stays_near_the_file_size() {
    let dir = scratch("plan-reader-memory");
    let parens = dir.join("parens.plan");
    std::fs::write(&parens, "(".repeat(50_000_000)).expect("write");
    let run = measured(
        &dir,
        &[
            "validate",
            &blocks("domain.pddl"),
            &blocks("probBLOCKS-4-0.pddl"),
            &parens.display().to_string(),
        ],
        None,
    );
    assert_eq!(run.code, Some(31), "{}", run.stderr);
    assert!(run.stderr.contains("parens.plan:1:2:"), "{}", run.stderr);
    assert!(run.peak_rss < 160 * MIB, "peak {} MB", run.peak_rss / MIB);

    let steps = ["(pick-up a)\n", "(stack a b)\n", "(unstack a b)\n", "(put-down a)\n"];
    let lines = dir.join("lines.plan");
    let text: String = (0..2_000_000).map(|i| steps[i % 4]).collect();
    std::fs::write(&lines, &text).expect("write");
    let run = measured(
        &dir,
        &[
            "validate",
            &blocks("domain.pddl"),
            &blocks("probBLOCKS-4-0.pddl"),
            &lines.display().to_string(),
        ],
        None,
    );
    // Every step applies; the goal does not hold at the end.
    assert_eq!(run.code, Some(1), "{}", run.stderr);
    assert!(run.stdout.contains("goal (on d c) does not hold"), "{}", run.stdout);
    let size = text.len() as u64;
    assert!(
        run.peak_rss < 3 * size,
        "peak {} MB for {} MB",
        run.peak_rss / MIB,
        size / MIB
    );
}

/// Item 4: a blocks problem that names the gripper domain.
#[test]
fn a_problem_for_another_domain_is_an_input_error() {
    let dir = scratch("domain-mismatch");
    let problem = std::fs::read_to_string(blocks("probBLOCKS-4-0.pddl"))
        .expect("read")
        .replace("(:domain BLOCKS)", "(:domain gripper)")
        .replace("(:domain blocks)", "(:domain gripper)");
    assert!(problem.contains("(:domain gripper)"));
    let p = dir.join("problem.pddl");
    std::fs::write(&p, problem).expect("write");
    let p = p.display().to_string();
    let out = corvus(&[
        "solve",
        &blocks("domain.pddl"),
        &p,
        "--plan-file",
        &dir.join("plan").display().to_string(),
    ]);
    assert_eq!(out.status.code(), Some(31), "{}", stderr(&out));
    let e = stderr(&out);
    assert!(
        e.contains("problem.pddl:2:") && e.contains("`gripper`") && e.contains("`blocks`"),
        "{e}"
    );
    let plan = dir.join("empty.plan");
    std::fs::write(&plan, "").expect("write");
    let out = corvus(&["validate", &blocks("domain.pddl"), &p, &plan.display().to_string()]);
    assert_eq!(out.status.code(), Some(31), "{}", stderr(&out));
    assert!(stderr(&out).contains("`gripper`"));
}

/// Item 5: a run that ends without a plan leaves no plan file, old or new.
#[test]
fn stale_plan_files_are_removed_at_the_start() {
    let dir = scratch("stale-plans");
    let (d, p) = explosion(&dir, 2, 3);
    // Unsolvable: `finish` needs (q ?a ?a), which `act` adds; make it unreachable.
    let p_text = std::fs::read_to_string(&p)
        .expect("read")
        .replace("(p o0) (p o1) (p o2)", "");
    std::fs::write(&p, p_text).expect("write");
    let plan = dir.join("out.plan");
    for f in ["out.plan", "out.plan.1", "out.plan.2", "out.plan.17"] {
        std::fs::write(dir.join(f), "(stale)\n").expect("write");
    }
    std::fs::write(dir.join("out.plan.keep"), "not a numbered plan\n").expect("write");
    let out = corvus(&["solve", &d, &p, "--plan-file", &plan.display().to_string()]);
    assert_eq!(out.status.code(), Some(11), "{}", stderr(&out));
    for f in ["out.plan", "out.plan.1", "out.plan.2", "out.plan.17"] {
        assert!(!dir.join(f).exists(), "{f} is still there");
    }
    assert!(dir.join("out.plan.keep").exists());
}

/// Item 6: accepted nonsense.
#[test]
fn nonsense_is_refused_with_the_documented_codes() {
    let dir = scratch("nonsense");
    // A type cycle, with its place.
    let domain = dir.join("cycle.pddl");
    std::fs::write(
        &domain,
        "(define (domain cyc)\n  (:requirements :typing)\n  (:types a - b b - a)\n  (:predicates (p ?x - a)))\n",
    )
    .expect("write");
    let problem = dir.join("cycle-problem.pddl");
    std::fs::write(
        &problem,
        "(define (problem c) (:domain cyc) (:objects x - a) (:init) (:goal (p x)))\n",
    )
    .expect("write");
    let out = corvus(&["solve", &domain.display().to_string(), &problem.display().to_string()]);
    assert_eq!(out.status.code(), Some(31), "{}", stderr(&out));
    assert!(stderr(&out).contains("cycle.pddl:3:"), "{}", stderr(&out));
    assert!(stderr(&out).contains("cycle: a - b - a"), "{}", stderr(&out));

    for w in ["NaN", "inf", "-1", "-inf"] {
        let out = corvus(&[
            "solve",
            &blocks("domain.pddl"),
            &blocks("probBLOCKS-4-0.pddl"),
            "--search",
            "wastar",
            &format!("--weight={w}"),
        ]);
        assert_eq!(out.status.code(), Some(2), "--weight {w}: {}", stderr(&out));
        assert!(stderr(&out).contains("is not a weight"), "{}", stderr(&out));
    }

    // `--plan-file -`: the plan on stdout, no file named `-`.
    let out = Command::new(env!("CARGO_BIN_EXE_corvus"))
        .args([
            "solve",
            &blocks("domain.pddl"),
            &blocks("probBLOCKS-4-0.pddl"),
            "--plan-file",
            "-",
            "--quiet",
        ])
        .current_dir(&dir)
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(0));
    assert!(stdout(&out).contains("; cost = "), "{}", stdout(&out));
    assert!(!dir.join("-").exists());

    for args in [["--pegs", "5", "--discs", "3"], ["--pegs", "4", "--discs", "0"]] {
        let mut all = vec!["asp", "generate", "hanoi", "--steps", "1"];
        all.extend(args);
        let out = corvus(&all);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
    }

    // I/O errors: `file: message` from every command, no `:0:0`.
    let missing = dir.join("missing.pddl").display().to_string();
    let (domain_file, problem_file) = (blocks("domain.pddl"), blocks("probBLOCKS-4-0.pddl"));
    for args in [
        vec!["solve", missing.as_str(), missing.as_str()],
        vec!["validate", missing.as_str(), missing.as_str(), missing.as_str()],
        vec!["validate", &domain_file, &problem_file, missing.as_str()],
        vec!["sokoban", "import", missing.as_str()],
        vec!["asp", "solve", missing.as_str()],
    ] {
        let out = corvus(&args);
        assert_eq!(out.status.code(), Some(31), "{args:?}");
        let e = stderr(&out);
        assert!(
            e.starts_with(&format!("error: {missing}: cannot read file: ")),
            "{args:?}: {e}"
        );
        assert!(!e.contains(":0:0"), "{e}");
    }
}

/// Item 7: a 2000 × 2000 level is refused at once (the issue: a 1.1 GB
/// PDDL file and 2.2 GB of memory).
#[test]
fn oversized_xsb_levels_are_refused() {
    let dir = scratch("xsb-cap");
    let mut level = String::new();
    level.push_str(&"#".repeat(2000));
    level.push('\n');
    for y in 1..1999 {
        let mut row = vec![' '; 2000];
        row[0] = '#';
        row[1999] = '#';
        if y == 1 {
            row[1] = '@';
            row[2] = '$';
            row[3] = '.';
        }
        level.extend(row);
        level.push('\n');
    }
    level.push_str(&"#".repeat(2000));
    level.push('\n');
    let file = dir.join("huge.xsb");
    std::fs::write(&file, level).expect("write");
    let out_file = dir.join("huge.pddl");
    let run = measured(
        &dir,
        &[
            "sokoban",
            "import",
            &file.display().to_string(),
            "-o",
            &out_file.display().to_string(),
        ],
        None,
    );
    assert_eq!(run.code, Some(31), "{}", run.stderr);
    assert!(run.stderr.contains("huge.xsb:1:1:"), "{}", run.stderr);
    assert!(run.stderr.contains("at most 250000 cells"), "{}", run.stderr);
    assert!(run.peak_rss < 100 * MIB, "peak {} MB", run.peak_rss / MIB);
    assert!(!out_file.exists());
}

/// Item 8: the help of `solve` and `validate` names files that exist and
/// explains its arguments.
#[test]
fn help_examples_name_existing_files() {
    for command in ["solve", "validate"] {
        let out = corvus(&[command, "--help"]);
        let help = stdout(&out);
        assert!(help.contains("The PDDL domain file"), "{help}");
        assert!(help.contains("The PDDL problem file"), "{help}");
        let examples = &help[help.find("Example").expect("examples")..];
        let files: Vec<PathBuf> = examples
            .split_whitespace()
            .filter(|w| w.ends_with(".pddl"))
            .map(|w| crate_dir().join(w))
            .collect();
        assert!(!files.is_empty(), "{help}");
        for f in files {
            assert!(
                f.is_file(),
                "`{command} --help` names {}, which does not exist",
                f.display()
            );
        }
    }
}
