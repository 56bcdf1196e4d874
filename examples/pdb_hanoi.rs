//! Measures the pattern database heuristic on 4-peg Tower of Hanoi.
//!
//! `cargo run --release --example pdb_hanoi -- DISCS [SEARCH]`: writes the
//! instance to a temporary directory, builds the PDB heuristic with the
//! default budgets and LM-cut, prints both initial estimates next to the
//! optimal cost, and with `SEARCH` also runs A* with each.

use std::path::PathBuf;
use std::time::Instant;

use corvus::heuristic::pdb::{PdbConfig, PdbHeuristic};
use corvus::heuristic::{Heuristic, lmcut};
use corvus::search::{Outcome, SearchConfig, Strategy, search};

/// Optimal move counts of 4-peg Hanoi for 1..=20 discs (Frame–Stewart,
/// proven optimal for 4 pegs).
const OPTIMAL: [u64; 20] = [
    1, 3, 5, 9, 13, 17, 25, 33, 41, 49, 65, 81, 97, 113, 129, 161, 193, 225, 257, 289,
];

fn write_hanoi(discs: usize, pegs: usize) -> std::io::Result<(PathBuf, PathBuf)> {
    let dir = std::env::temp_dir().join(format!("corvus-pdb-example-{}-{discs}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    let domain = "(define (domain hanoi) (:requirements :strips)
 (:predicates (on ?d ?x) (clear ?x) (smaller ?x ?y) (disc ?d))
 (:action move :parameters (?d ?from ?to)
  :precondition (and (disc ?d) (on ?d ?from) (clear ?d) (clear ?to) (smaller ?to ?d))
  :effect (and (on ?d ?to) (clear ?from) (not (on ?d ?from)) (not (clear ?to)))))\n";
    let d: Vec<String> = (1..=discs).map(|i| format!("d{i}")).collect();
    let p: Vec<String> = (1..=pegs).map(|i| format!("peg{i}")).collect();
    let mut init = Vec::new();
    for (i, x) in d.iter().enumerate() {
        init.push(format!("(disc {x})"));
        for y in p.iter().chain(&d[i + 1..]) {
            init.push(format!("(smaller {y} {x})"));
        }
    }
    let stack = |peg: &str| -> Vec<String> {
        (0..discs)
            .map(|i| format!("(on {} {})", d[i], if i + 1 < discs { d[i + 1].as_str() } else { peg }))
            .collect()
    };
    init.extend(stack(&p[0]));
    init.push("(clear d1)".to_string());
    for x in &p[1..] {
        init.push(format!("(clear {x})"));
    }
    let problem = format!(
        "(define (problem hanoi) (:domain hanoi) (:objects {} {}) (:init {}) (:goal (and {})))\n",
        d.join(" "),
        p.join(" "),
        init.join(" "),
        stack(&p[pegs - 1]).join(" ")
    );
    let dp = dir.join("domain.pddl");
    let pp = dir.join("problem.pddl");
    std::fs::write(&dp, domain)?;
    std::fs::write(&pp, problem)?;
    Ok((dp, pp))
}

fn astar(task: &corvus::task::Task, h: &mut dyn Heuristic) -> String {
    let start = Instant::now();
    let config = SearchConfig {
        strategy: Strategy::Astar,
        ..Default::default()
    };
    let (outcome, stats) = search(task, h, None, &config);
    let result = match outcome {
        Outcome::Solved(plan) => format!("cost {}", task.plan_cost(&plan)),
        other => format!("{other:?}"),
    };
    format!("{result}, {} expanded, {:.2?}", stats.expanded, start.elapsed())
}

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().collect();
    let discs: usize = args.get(1).map_or(Ok(10), |a| a.parse())?;
    let run_search = args.get(2).is_some();
    anyhow::ensure!((1..=20).contains(&discs), "1..=20 discs");
    let (dp, pp) = write_hanoi(discs, 4)?;
    let (domain, problem) = corvus::pddl::load(&dp, &pp)?;
    let (task, _) = corvus::ground::ground(&domain, &problem)?;
    let init = task.initial_state();

    let start = Instant::now();
    let mut pdb = PdbHeuristic::new(&task, &PdbConfig::default());
    let pdb_build = start.elapsed();
    let start = Instant::now();
    let mut lmcut = lmcut::LM_CUT.build(&task);
    let lmcut_build = start.elapsed();
    println!(
        "hanoi 4 pegs, {discs} discs: {} facts, {} operators",
        task.num_facts(),
        task.num_operators()
    );
    println!("optimal {}", OPTIMAL[discs - 1]);
    println!("pdb    h0 {:?} (built in {pdb_build:.2?})", pdb.evaluate(init.bits()));
    println!(
        "lmcut  h0 {:?} (built in {lmcut_build:.2?})",
        lmcut.evaluate(init.bits())
    );
    if run_search {
        println!("A* pdb:   {}", astar(&task, &mut pdb));
        println!("A* lmcut: {}", astar(&task, &mut *lmcut));
    }
    Ok(())
}
