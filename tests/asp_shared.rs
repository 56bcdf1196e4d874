//! Every shared competition instance (../shared/asp) is decided by corvus,
//! and every witness is checked by clingo with the family's official
//! encoding; corrupted witnesses must be rejected by both corvus and clingo.

#[path = "asp_common.rs"]
mod common;

use std::path::Path;
use std::time::Duration;

use common::*;
use corvus::planner::Status;
use corvus::puzzles::asp::{self, Instance};
use corvus::search::Limits;

/// A witness line with its step number replaced.
fn with_step(line: &str, hanoi: bool, t: i64) -> String {
    if hanoi {
        let rest = &line[line.find(',').unwrap()..];
        format!("put({t}{rest}")
    } else {
        let head = &line[..line.rfind(',').unwrap()];
        format!("{head},{t}).")
    }
}

fn step_of(line: &str, hanoi: bool) -> i64 {
    let s = if hanoi {
        &line[line.find('(').unwrap() + 1..line.find(',').unwrap()]
    } else {
        &line[line.rfind(',').unwrap() + 1..line.rfind(')').unwrap()]
    };
    s.parse().unwrap()
}

/// Corruptions of a witness: a step dropped, two steps swapped.
fn corruptions(witness: &[String], hanoi: bool) -> Vec<(String, Vec<String>)> {
    let mut out = Vec::new();
    if witness.len() >= 2 {
        let mid = witness.len() / 2;
        let mut dropped = witness.to_vec();
        dropped.remove(mid);
        out.push((format!("step {mid} dropped"), dropped));
        for (i, j) in [(0, 1), (mid - 1, mid), (0, witness.len() - 1)] {
            let mut swapped = witness.to_vec();
            let (ti, tj) = (step_of(&witness[i], hanoi), step_of(&witness[j], hanoi));
            swapped[i] = with_step(&witness[j], hanoi, ti);
            swapped[j] = with_step(&witness[i], hanoi, tj);
            out.push((format!("steps {ti} and {tj} swapped"), swapped));
        }
    }
    out
}

struct Row {
    name: String,
    bound: u64,
    status: Status,
    length: Option<usize>,
    seconds: f64,
    expanded: u64,
    clingo: String,
}

fn decide_all(time_limit: Duration, clingo_unsat_check: bool) -> Vec<Row> {
    let use_clingo = clingo_available();
    let dir = scratch(&format!("shared-{}", time_limit.as_secs()));
    let mut rows = Vec::new();
    for family in ["hanoi", "sokoban"] {
        let Some(enc) = encoding(family) else { continue };
        for path in shared_instances(family) {
            let name = path.file_stem().unwrap().to_string_lossy().to_string();
            let instance = Instance::load(&path, None).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(instance.family().name(), family);
            let limits = Limits {
                time: Some(time_limit),
                memory_bytes: Some(4 << 30),
                ..Limits::default()
            };
            let outcome = asp::solve(&instance, limits, false).unwrap_or_else(|e| panic!("{name}: {e}"));
            let mut verdict = "-".to_string();
            if let Some(witness) = &outcome.witness {
                let hanoi = family == "hanoi";
                if hanoi {
                    assert_eq!(witness.len() as u64, instance.step_bound(), "{name}");
                } else {
                    assert!(witness.len() as u64 <= instance.step_bound(), "{name}");
                }
                let text = witness.join("\n") + "\n";
                instance
                    .check_witness(&text, "witness")
                    .unwrap_or_else(|e| panic!("{name}: {e}"));
                if use_clingo {
                    let w = dir.join(format!("{name}.lp"));
                    std::fs::write(&w, &text).unwrap();
                    assert_eq!(
                        clingo(&enc, &path, Some(&w)),
                        Verdict::Sat,
                        "{name}: clingo rejects the witness"
                    );
                    let mut rejected = 0;
                    for (what, bad) in corruptions(witness, hanoi) {
                        let bad_text = bad.join("\n") + "\n";
                        let ours = instance.check_witness(&bad_text, "corrupted").is_ok();
                        let b = dir.join(format!("{name}-bad.lp"));
                        std::fs::write(&b, &bad_text).unwrap();
                        let theirs = clingo(&enc, &path, Some(&b)) == Verdict::Sat;
                        assert_eq!(
                            ours, theirs,
                            "{name}, {what}: corvus says valid={ours}, clingo {theirs}"
                        );
                        if !theirs {
                            rejected += 1;
                        }
                    }
                    assert!(rejected >= 1, "{name}: no corruption was rejected");
                    verdict = format!("SAT; {rejected} corruptions UNSAT");
                }
            } else if outcome.status == Status::Unsolvable {
                verdict = "not run (slow; see the ignored test)".to_string();
                if use_clingo && clingo_unsat_check {
                    let v = clingo(&enc, &path, None);
                    assert_eq!(v, Verdict::Unsat, "{name}: corvus proved no witness, clingo found one");
                    verdict = "UNSAT (instance + encoding)".to_string();
                }
            } else {
                assert!(
                    matches!(outcome.status, Status::OutOfTime | Status::OutOfMemory),
                    "{name}: {:?}",
                    outcome.status
                );
                eprintln!("NOTE: {name} undecided: {}", outcome.status.describe());
            }
            rows.push(Row {
                name,
                bound: instance.step_bound(),
                status: outcome.status,
                length: outcome.plan_length,
                seconds: outcome.total_time.as_secs_f64(),
                expanded: outcome.search.expanded,
                clingo: verdict,
            });
        }
    }
    eprintln!("| instance | bound | plan length | time (s) | expanded | verdict | clingo |");
    for r in &rows {
        eprintln!(
            "| {} | {} | {} | {:.2} | {} | {} | {} |",
            r.name,
            r.bound,
            r.length.map(|l| l.to_string()).unwrap_or("-".into()),
            r.seconds,
            r.expanded,
            r.status.describe(),
            r.clingo
        );
    }
    rows
}

/// The default run: a 10 s limit per instance (the bounded portfolio gives greedy search 15% of it, so Hanoi instances that need ~5 s of greedy search stay undecided here). An instance the search
/// cannot decide in time is reported (NOTE) but does not fail the test; a
/// wrong answer does.
#[test]
fn shared_instances_within_10s_are_correct() {
    let rows = decide_all(Duration::from_secs(10), false);
    if !rows.is_empty() {
        assert!(rows.iter().any(|r| r.status == Status::Solved));
    }
}

/// Slow (minutes): 60 s per instance, every instance must be decided, and
/// for each "no witness" clingo must find instance + encoding UNSAT (clingo
/// takes 45–120 s on the small Sokoban instances). Currently 0004, 0060
/// (Hanoi, 18/17 discs) and 0065 (Sokoban) are not decided within 60 s.
#[test]
#[ignore]
fn shared_instances_all_decided() {
    let rows = decide_all(Duration::from_secs(60), true);
    let undecided: Vec<&str> = rows
        .iter()
        .filter(|r| !matches!(r.status, Status::Solved | Status::Unsolvable))
        .map(|r| r.name.as_str())
        .collect();
    assert!(undecided.is_empty(), "undecided within 60 s: {undecided:?}");
}

#[test]
fn corrupted_witness_helpers() {
    assert_eq!(with_step("put(3,4,9).", true, 7), "put(7,4,9).");
    assert_eq!(with_step("move(p,a,b,dir_up,12).", false, 2), "move(p,a,b,dir_up,2).");
    assert_eq!(step_of("pushtogoal(p,s,a,b,c,d,5).", false), 5);
    let _ = Path::new("");
}
