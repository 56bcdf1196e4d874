//! Grounding plus a bounded search on small random STRIPS tasks. The bytes
//! choose a domain (predicates of arity 0 to 2, actions with up to three
//! typed parameters, positive and negative preconditions, equality, add and
//! delete effects, action costs) and a problem over up to five objects; the
//! task is written as PDDL text and goes the whole way of `corvus solve`:
//! parse, check, ground, search within 2,000 expansions, validate. A plan
//! the validator rejects comes back as an internal error, which is a finding.
#![no_main]

use libfuzzer_sys::fuzz_target;

use corvus::planner::{self, Config, Options, PlannerError};
use corvus::search::{Limits, Strategy};

/// Reads choices from the fuzzer's bytes; zeros once they run out.
struct Choices<'a>(&'a [u8]);

impl Choices<'_> {
    fn below(&mut self, n: usize) -> usize {
        let Some((&b, rest)) = self.0.split_first() else { return 0 };
        self.0 = rest;
        b as usize % n.max(1)
    }
}

const TYPES: [&str; 2] = ["ta", "tb"];

fn task(c: &mut Choices) -> (String, String) {
    let arities: Vec<usize> = (0..1 + c.below(4)).map(|_| c.below(3)).collect();
    let objects: Vec<(String, &str)> = (0..1 + c.below(5)).map(|i| (format!("o{i}"), TYPES[c.below(2)])).collect();
    let atom = |c: &mut Choices, vars: &[String]| -> String {
        let p = c.below(arities.len());
        let args: Vec<String> = (0..arities[p])
            .map(|_| {
                if !vars.is_empty() && c.below(4) != 0 {
                    vars[c.below(vars.len())].clone()
                } else {
                    objects[c.below(objects.len())].0.clone()
                }
            })
            .collect();
        format!("(p{p}{})", args.iter().map(|a| format!(" {a}")).collect::<String>())
    };
    let mut actions = String::new();
    for a in 0..1 + c.below(3) {
        let vars: Vec<String> = (0..c.below(4)).map(|v| format!("?v{v}")).collect();
        let params: Vec<String> = vars.iter().map(|v| format!("{v} - {}", TYPES[c.below(3) % 2])).collect();
        let mut pre = Vec::new();
        for _ in 0..c.below(4) {
            match c.below(5) {
                0 => pre.push(format!("(not {})", atom(c, &vars))),
                1 if vars.len() >= 2 => pre.push(format!("(not (= {} {}))", vars[0], vars[1])),
                _ => pre.push(atom(c, &vars)),
            }
        }
        let mut eff = Vec::new();
        for _ in 0..1 + c.below(3) {
            if c.below(3) == 0 {
                eff.push(format!("(not {})", atom(c, &vars)));
            } else {
                eff.push(atom(c, &vars));
            }
        }
        eff.push(format!("(increase (total-cost) {})", c.below(4)));
        actions.push_str(&format!(
            "  (:action a{a} :parameters ({}) :precondition (and {}) :effect (and {}))\n",
            params.join(" "),
            pre.join(" "),
            eff.join(" ")
        ));
    }
    let predicates: String = arities
        .iter()
        .enumerate()
        .map(|(p, &n)| format!(" (p{p}{})", (0..n).map(|i| format!(" ?x{i}")).collect::<String>()))
        .collect();
    let domain = format!(
        "(define (domain fuzz)\n  (:requirements :strips :typing :negative-preconditions :equality :action-costs)\n  \
         (:types ta tb)\n  (:predicates{predicates})\n  (:functions (total-cost) - number)\n{actions})\n"
    );
    let init: Vec<String> = (0..c.below(6)).map(|_| atom(c, &[])).collect();
    let goal: Vec<String> = (0..1 + c.below(3))
        .map(|_| {
            let a = atom(c, &[]);
            if c.below(4) == 0 { format!("(not {a})") } else { a }
        })
        .collect();
    let objects: String = objects.iter().map(|(o, t)| format!(" {o} - {t}")).collect();
    let problem = format!(
        "(define (problem p) (:domain fuzz) (:objects{objects}) (:init {} (= (total-cost) 0)) (:goal (and {})) \
         (:metric minimize (total-cost)))\n",
        init.join(" "),
        goal.join(" ")
    );
    (domain, problem)
}

fuzz_target!(|data: &[u8]| {
    let mut c = Choices(data);
    let (domain, problem) = task(&mut c);
    if std::env::var_os("CORVUS_FUZZ_PRINT").is_some() {
        // To replay a finding with the binary: print the task it made.
        eprintln!("{domain}\n{problem}");
    }
    let Ok(d) = corvus::pddl::parse_domain(&domain, "fuzz-domain.pddl") else { return };
    let Ok(p) = corvus::pddl::parse_problem_for(&d, &problem, "fuzz-problem.pddl") else { return };
    let search = [Strategy::Astar, Strategy::Greedy][c.below(2)];
    let heuristics = corvus::heuristic::KINDS;
    let heuristic = heuristics[c.below(heuristics.len())];
    let options = Options {
        config: Config::new(search, heuristic),
        limits: Limits {
            expansions: Some(2_000),
            ..Limits::default()
        },
        ..Options::default()
    };
    match planner::solve(&d, &p, &options) {
        Err(PlannerError::Internal(e)) => panic!("{e}\n{domain}\n{problem}"),
        Ok(report) => {
            if let Some(found) = report.plan {
                corvus::plan::validate(&d, &p, &found.plan).expect("a returned plan is valid");
            }
        }
        Err(_) => {}
    }
});
