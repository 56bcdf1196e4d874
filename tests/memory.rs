//! The memory limit through the binary (issue 29, item 4): the peak
//! resident size stays within the documented slack of `--memory-limit`, and
//! `--stats-json` reports that peak, not the last sample.
//!
//! The child's peak is what GNU time reports for it (`%M`, the kernel's
//! `ru_maxrss` of the child), so no sample between two polls is missed.

use std::path::{Path, PathBuf};
use std::process::Command;

const MIB: u64 = 1 << 20;

/// The README's slack: the peak stays within a tenth of the limit above it.
fn allowed_peak(limit: u64) -> u64 {
    limit + limit / 10
}

const TIME: &str = "/usr/bin/time";

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("corvus-memory-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// A robot on a line graph of `nodes` nodes (edges both ways) that must
/// reach the far end. Grounding is linear, but every node is a landmark
/// and each is naturally ordered before all the farther ones: the landmark
/// orderings are quadratic in the nodes.
fn line_graph(dir: &Path, nodes: usize) -> (String, String) {
    let domain = "(define (domain line) (:requirements :strips)\n  \
                  (:predicates (robot-at ?n) (edge ?a ?b))\n  \
                  (:action move :parameters (?from ?to)\n    \
                  :precondition (and (robot-at ?from) (edge ?from ?to))\n    \
                  :effect (and (robot-at ?to) (not (robot-at ?from)))))\n";
    let objects: String = (0..nodes).map(|i| format!(" n{i}")).collect();
    let edges: String = (1..nodes)
        .map(|i| format!(" (edge n{a} n{i}) (edge n{i} n{a})", a = i - 1))
        .collect();
    let problem = format!(
        "(define (problem far-end) (:domain line) (:objects{objects})\n  \
         (:init (robot-at n0){edges})\n  (:goal (robot-at n{})))\n",
        nodes - 1
    );
    let d = dir.join("line-domain.pddl");
    let p = dir.join("line-problem.pddl");
    std::fs::write(&d, domain).expect("write domain");
    std::fs::write(&p, problem).expect("write problem");
    (d.display().to_string(), p.display().to_string())
}

/// How a run under GNU time ended.
struct Measured {
    code: Option<i32>,
    peak_rss: u64,
    stderr: String,
}

/// Runs corvus with `args` under GNU time; `None` when there is no GNU time
/// (and `CI` is not set: there the test must run).
fn under_time(dir: &Path, args: &[&str]) -> Option<Measured> {
    if !Path::new(TIME).exists() {
        assert!(std::env::var_os("CI").is_none(), "{TIME} is needed to measure the peak");
        eprintln!("skipped: no {TIME}");
        return None;
    }
    let peak_file = dir.join("peak-kb");
    let out = Command::new(TIME)
        .args(["-f", "%M", "-o"])
        .arg(&peak_file)
        .arg(env!("CARGO_BIN_EXE_corvus"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("GNU time runs");
    let kb: u64 = std::fs::read_to_string(&peak_file)
        .expect("GNU time writes the peak")
        .lines()
        .last()
        .and_then(|l| l.trim().parse().ok())
        .expect("the peak in kB");
    Some(Measured {
        code: out.status.code(),
        peak_rss: kb * 1024,
        stderr: String::from_utf8_lossy(&out.stderr).to_string(),
    })
}

/// Item 4: landmark construction on a line graph of 20,000 nodes under
/// 300 MB (the issue: a peak of 407 MiB, and 303 MiB in the statistics;
/// a table of landmark pairs grew by doubling, in one step).
#[test]
fn landmark_construction_stays_within_the_memory_limit_and_reports_its_true_peak() {
    let dir = scratch("line-graph");
    let (d, p) = line_graph(&dir, 20_000);
    let stats = dir.join("stats.json");
    let limit = 300 * MIB;
    let Some(run) = under_time(
        &dir,
        &[
            "solve",
            &d,
            &p,
            "--memory-limit",
            "300M",
            "--stats-json",
            &stats.display().to_string(),
        ],
    ) else {
        return;
    };
    assert_eq!(run.code, Some(22), "{}", run.stderr);
    assert!(
        run.stderr
            .contains("heuristic construction stopped: memory limit reached"),
        "{}",
        run.stderr
    );
    assert!(
        run.peak_rss <= allowed_peak(limit),
        "peak {} MiB under a limit of {} MiB",
        run.peak_rss / MIB,
        limit / MIB
    );
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&stats).expect("stats written")).expect("stats are JSON");
    let reported = json["peak_memory_bytes"].as_u64().expect("a peak");
    // The process ends right after writing the statistics: the two peaks
    // differ by what it touches after that, and by page rounding.
    assert!(
        reported.abs_diff(run.peak_rss) <= 8 * MIB,
        "reported peak {} MiB, true peak {} MiB",
        reported / MIB,
        run.peak_rss / MIB
    );
}
