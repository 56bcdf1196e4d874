//! The ADL front end on files: the hand-written domains of `tests/data/adl`
//! (parse, check, validate valid and mutated plans) and the six ADL domains
//! of the shared corpus (parse, check, normalize).

use std::path::PathBuf;

#[path = "asp_common.rs"]
mod common;

use common::crate_dir;
use corvus::normalize::normalize;
use corvus::pddl::{self, Condition, Effect, ErrorKind};
use corvus::plan::{InvalidPlan, Validation, parse_plan, validate};

/// The ADL domains: the shared corpus's, or their vendored copy.
fn shared_ipc() -> Option<PathBuf> {
    Some(common::adl_ipc())
}

/// The shared ADL domains: (folder, first problem file).
const SHARED_ADL: &[(&str, &str)] = &[
    ("miconic-simpleadl", "s1-0.pddl"),
    ("schedule", "probschedule-2-0.pddl"),
    ("assembly", "prob01.pddl"),
    ("openstacks-sat08-adl", "p01.pddl"),
    ("airport-adl", "p01-airport1-p1.pddl"),
    ("psr-middle", "p01-s17-n2-l2-f30.pddl"),
];

#[test]
fn shared_adl_domains_parse_check_and_normalize() {
    let Some(ipc) = shared_ipc() else {
        eprintln!("note: the shared corpus is not present");
        return;
    };
    for (folder, problem) in SHARED_ADL {
        let dir = ipc.join(folder);
        let (d, p) =
            pddl::load(&dir.join("domain.pddl"), &dir.join(problem)).unwrap_or_else(|e| panic!("{folder}: {e}"));
        let n = normalize(&d, &p);
        let effects: usize = n.actions.iter().map(|a| a.effects.len()).sum();
        eprintln!(
            "{folder}: {} actions -> {} normal actions, {effects} effects, {} axioms, {} derived predicates, goal of {} literals",
            d.actions.len(),
            n.actions.len(),
            n.axioms.len(),
            n.derived_predicates.len(),
            n.goal.len()
        );
        assert!(!n.actions.is_empty(), "{folder}");
        assert!(!n.goal.is_empty(), "{folder}");
    }
}

fn data(name: &str) -> PathBuf {
    crate_dir().join("tests/data/adl").join(name)
}

fn load(name: &str) -> (pddl::Domain, pddl::Problem) {
    pddl::load(&data(&format!("{name}-domain.pddl")), &data(&format!("{name}-p1.pddl")))
        .unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn check(name: &str, plan: &str) -> Result<Validation, InvalidPlan> {
    let (d, p) = load(name);
    let plan = parse_plan(plan, "test.plan").unwrap_or_else(|e| panic!("{e}"));
    validate(&d, &p, &plan)
}

/// The plan file shipped next to the problem (an optimal plan).
fn shipped_plan(name: &str) -> String {
    std::fs::read_to_string(data(&format!("{name}-p1.plan"))).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn precondition(step: usize, action: &str, condition: &str) -> Result<Validation, InvalidPlan> {
    Err(InvalidPlan::Precondition {
        step,
        action: action.to_string(),
        condition: condition.to_string(),
    })
}

fn goal(condition: &str) -> Result<Validation, InvalidPlan> {
    Err(InvalidPlan::Goal {
        condition: condition.to_string(),
    })
}

#[test]
fn briefcase_contents_move_with_it() {
    let (d, _) = load("briefcase");
    let Effect::And(parts) = &d.actions[0].effect else {
        panic!("an effect is a conjunction")
    };
    assert!(matches!(&parts[2], Effect::Forall(vars, inner)
        if vars[0].name == "?o" && matches!(inner.as_ref(), Effect::And(w) if matches!(w[0], Effect::When(..)))));
    assert_eq!(
        check("briefcase", &shipped_plan("briefcase")),
        Ok(Validation { length: 6, cost: 6 })
    );
    // Moving home with the paycheck still inside takes it along.
    let mutated = "(put-in dictionary home)\n(put-in paycheck home)\n(move home office)\n\
                   (take-out dictionary)\n(move office home)\n(take-out paycheck)\n";
    assert_eq!(check("briefcase", mutated), goal("(at paycheck office)"));
    // Nothing moves that is not inside.
    let mutated = "(put-in dictionary home)\n(move home office)\n(take-out dictionary)\n(move office home)\n";
    assert_eq!(check("briefcase", mutated), goal("(at paycheck office)"));
    assert_eq!(
        check("briefcase", "(move home home)"),
        precondition(1, "move", "(not (= home home))")
    );
}

#[test]
fn lights_need_exists_or_and_imply_and_reach_a_universal_goal() {
    assert_eq!(
        check("lights", &shipped_plan("lights")),
        Ok(Validation { length: 5, cost: 5 })
    );
    // Room r2 has no wired lamp.
    assert_eq!(
        check("lights", "(power r2)"),
        precondition(1, "power", "(exists (?l - lamp) (and (in ?l r2) (wired ?l)))")
    );
    // Neither powered nor a spare.
    assert_eq!(
        check("lights", "(switch-on a r1)"),
        precondition(1, "switch-on", "(or (powered r1) (spare a))")
    );
    // Broken and not a spare: repair first.
    assert_eq!(
        check("lights", "(power r1)\n(switch-on b r1)"),
        precondition(2, "switch-on", "(imply (broken b) (spare b))")
    );
    // The last lamp left off: the goal names the counterexample.
    assert_eq!(
        check("lights", "(power r1)\n(switch-on a r1)\n(repair b)\n(switch-on b r1)\n"),
        goal("(forall (?l - lamp) (on ?l)) (for ?l = c: (on c))")
    );
}

#[test]
fn derived_predicates_are_fixed_points_over_two_strata() {
    let (d, _) = load("network");
    assert_eq!(d.derived.len(), 2);
    assert_eq!(
        pddl::strata(&d.derived).map(|s| s.len()),
        Ok(2),
        "reachable below isolated"
    );
    assert_eq!(
        check("network", &shipped_plan("network")),
        Ok(Validation { length: 2, cost: 2 })
    );
    // n4 is linked from n3, so reaching n3 reaches n4 (recursion): n1 → n3 → n4.
    assert_eq!(
        check("network", "(connect n1 n3)\n(connect n1 n2)"),
        Ok(Validation { length: 2, cost: 2 })
    );
    // n2 is not reachable yet.
    assert_eq!(
        check("network", "(connect n2 n3)"),
        precondition(1, "connect", "(reachable n2)")
    );
    // Once linked, n2 is no longer isolated (negation as failure, stratum 1).
    assert_eq!(
        check("network", "(connect n1 n2)\n(connect n1 n2)"),
        precondition(2, "connect", "(isolated n2)")
    );
    // n4 is reachable through n3's link, so it is not isolated either.
    assert_eq!(
        check("network", "(connect n1 n3)\n(connect n1 n4)"),
        precondition(2, "connect", "(isolated n4)")
    );
    assert_eq!(
        check("network", "(connect n1 n2)"),
        goal("(forall (?n - node) (not (isolated ?n))) (for ?n = n3: (not (isolated n3)))")
    );
}

#[test]
fn effect_conditions_are_read_before_the_action() {
    assert_eq!(
        check("flip", &shipped_plan("flip")),
        Ok(Validation { length: 2, cost: 2 })
    );
    // Flipping twice turns it on again.
    assert_eq!(check("flip", "(flip a)\n(flip a)\n(flip b)"), goal("(not (on a))"));
    assert_eq!(check("flip", "(flip a)"), goal("(on b)"));
}

/// The parse of a domain text, or its error message.
fn domain_error(text: &str) -> (ErrorKind, String) {
    match pddl::parse_domain(text, "d.pddl") {
        Ok(d) => panic!("should be refused: {d:?}"),
        Err(e) => (e.kind, e.to_string()),
    }
}

const HEAD: &str = "(define (domain t) (:requirements :adl :derived-predicates)\n(:types block)\n\
                    (:predicates (p ?x - block) (q ?x ?y - block) (d ?x - block))\n";

#[test]
fn every_construct_reads_into_the_tree() {
    let text = format!(
        "{HEAD}(:derived (d ?x - block) (exists (?y - block) (q ?x ?y)))\n\
         (:action a :parameters (?x - (either block))\n\
          :precondition (and (or (p ?x) (not (d ?x))) (imply (p ?x) (forall (?y - block) (q ?x ?y)))\n\
                         (not (and (p ?x) (= ?x ?x))))\n\
          :effect (and (p ?x) (forall (?y - block) (when (q ?x ?y) (and (not (q ?x ?y)) (q ?y ?x)))))))"
    );
    let d = pddl::parse_domain(&text, "d.pddl").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(d.derived[0].predicate, "d");
    assert_eq!(d.derived[0].body.to_string(), "(exists (?y - block) (q ?x ?y))");
    assert_eq!(
        d.actions[0].precondition.to_string(),
        "(and (or (p ?x) (not (d ?x))) (imply (p ?x) (forall (?y - block) (q ?x ?y))) (not (and (p ?x) (= ?x ?x))))"
    );
    assert!(matches!(&d.actions[0].precondition, Condition::And(parts) if parts.len() == 3));
    let Effect::And(effects) = &d.actions[0].effect else {
        panic!("an effect is a conjunction")
    };
    assert_eq!(effects.len(), 2);
    assert!(matches!(&effects[1], Effect::Forall(..)));
}

#[test]
fn misuse_is_refused_with_its_place() {
    let cases: &[(&str, ErrorKind, &str)] = &[
        // A quantified variable is in scope only inside its quantifier.
        (
            "(:action a :parameters () :precondition (and (exists (?x - block) (p ?x)) (p ?x)))",
            ErrorKind::Semantic,
            "d.pddl:4:75: undeclared variable `?x`",
        ),
        (
            "(:action a :parameters () :precondition (forall (?x - box) (p ?x)))",
            ErrorKind::Semantic,
            "d.pddl:4:50: undeclared type `box` of `?x`",
        ),
        (
            "(:action a :parameters (?x - block) :precondition () :effect (forall (?y - block) (when (q ?x) (p ?y))))",
            ErrorKind::Semantic,
            "d.pddl:4:89: `q` takes 2 argument(s), found 1",
        ),
        (
            "(:derived (d ?x - block) (q ?x ?z))",
            ErrorKind::Semantic,
            "d.pddl:4:26: undeclared variable `?z`",
        ),
        (
            "(:derived (e ?x - block) (p ?x))",
            ErrorKind::Semantic,
            "d.pddl:4:1: derived predicate `e` is not declared in `:predicates`",
        ),
        (
            "(:derived (d ?x ?y - block) (p ?x))",
            ErrorKind::Semantic,
            "d.pddl:4:1: `d` takes 1 argument(s), found 2",
        ),
        (
            "(:derived (d ?x - block) (p ?x))\n(:action a :parameters (?x - block) :effect (d ?x))",
            ErrorKind::Semantic,
            "d.pddl:5:45: derived predicate `d` cannot be an effect",
        ),
        (
            "(:derived (d ?x - block) (not (d ?x)))",
            ErrorKind::Semantic,
            "d.pddl:4:1: derived predicates depend on themselves through negation: d (no stratification)",
        ),
        (
            "(:action a :parameters () :precondition (imply (p ?x)))",
            ErrorKind::Syntax,
            "d.pddl:4:41: expected two formulas inside `imply`",
        ),
        (
            "(:action a :parameters () :precondition (exists (p)))",
            ErrorKind::Syntax,
            "d.pddl:4:41: expected `(exists (VARIABLES) FORMULA)`",
        ),
        (
            "(:action a :parameters (?x - block) :effect (when (p ?x) (increase (total-cost) 1)))",
            ErrorKind::Unsupported,
            "d.pddl:4:59: unsupported PDDL feature: `increase` (action costs inside `when` or `forall`)",
        ),
        (
            "(:action a :parameters (?x - block) :precondition (when (p ?x) (p ?x)))",
            ErrorKind::Unsupported,
            "d.pddl:4:52: unsupported PDDL feature: `when` (conditional effects in a condition)",
        ),
        (
            "(:action a :parameters (?x - block) :precondition (> (f ?x) 1))",
            ErrorKind::Unsupported,
            "d.pddl:4:52: unsupported PDDL feature: `>` (numeric conditions)",
        ),
        (
            "(:action a :parameters (?x - block) :effect (and (p ?x) (probabilistic 0.8 (not (p ?x)))))",
            ErrorKind::Unsupported,
            "d.pddl:4:58: unsupported PDDL feature: `probabilistic` (probabilistic effects (PPDDL))",
        ),
        (
            "(:action a :parameters (?x - block) :effect (not (when (p ?x) (p ?x))))",
            ErrorKind::Syntax,
            "d.pddl:4:50: expected an atom inside `not` in an effect, found `(when ...)`",
        ),
    ];
    for (section, kind, message) in cases {
        let (k, m) = domain_error(&format!("{HEAD}{section})"));
        assert_eq!((k, m.as_str()), (*kind, *message), "{section}");
    }
}

#[test]
fn a_problem_may_be_named_by_a_number() {
    // Generated problem sets do it (`(problem 0)`); the name is only a label.
    let domain = pddl::parse_domain(&format!("{HEAD})"), "d.pddl").unwrap_or_else(|e| panic!("{e}"));
    let text = "(define (problem 0) (:domain t) (:objects b - block) (:init (p b)) (:goal (p b)))";
    let problem = pddl::parse_problem_for(&domain, text, "p.pddl").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(problem.name, "0");
}

#[test]
fn goals_are_checked_with_their_quantifiers() {
    let d = pddl::parse_domain(&format!("{HEAD}(:derived (d ?x - block) (p ?x)))"), "d.pddl")
        .unwrap_or_else(|e| panic!("{e}"));
    let problem = |goal: &str, init: &str| {
        format!("(define (problem t1) (:domain t) (:objects a b - block)\n(:init {init})\n(:goal {goal}))")
    };
    let ok = pddl::parse_problem_for(
        &d,
        &problem("(forall (?x - block) (imply (p ?x) (q ?x a)))", ""),
        "p.pddl",
    );
    assert!(ok.is_ok(), "{ok:?}");
    let refused = |goal: &str, init: &str| match pddl::parse_problem_for(&d, &problem(goal, init), "p.pddl") {
        Ok(_) => panic!("{goal} should be refused"),
        Err(e) => e.to_string(),
    };
    assert_eq!(
        refused("(exists (?x - block) (q ?x ?y))", ""),
        "p.pddl:3:29: undeclared variable `?y` in the goal"
    );
    assert_eq!(refused("(or (p a) (p c))", ""), "p.pddl:3:18: undeclared object `c`");
    assert_eq!(
        refused("(p a)", "(d a)"),
        "p.pddl:2:8: derived predicate `d` cannot be an initial fact"
    );
}

#[test]
fn rule_variables_bound_by_no_atom_range_over_their_type() {
    // `d` holds for every block once some block is `p` (its `?x` is
    // shadowed inside, and bound by no atom outside); `e` for those not `p`.
    let d = pddl::parse_domain(
        &format!(
            "{HEAD}(:predicates (e ?x - block) (r))\n\
             (:derived (d ?x - block) (exists (?x - block) (p ?x)))\n\
             (:derived (e ?x - block) (and (not (p ?x)) (d ?x)))\n\
             (:action a :parameters (?x - block) :precondition (e ?x) :effect (r)))"
        ),
        "d.pddl",
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let p = pddl::parse_problem_for(
        &d,
        "(define (problem t1) (:domain t) (:objects a b - block) (:init (p a)) (:goal (r)))",
        "p.pddl",
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let run = |text: &str| validate(&d, &p, &parse_plan(text, "t.plan").unwrap_or_else(|e| panic!("{e}")));
    assert_eq!(run("(a b)"), Ok(Validation { length: 1, cost: 1 }));
    assert_eq!(run("(a a)"), precondition(1, "a", "(e a)"));
}

#[test]
fn the_adl_requirements_are_accepted() {
    let flags = ":adl :quantified-preconditions :existential-preconditions :universal-preconditions \
                 :disjunctive-preconditions :conditional-effects :derived-predicates";
    let d = pddl::parse_domain(
        &format!("(define (domain t) (:requirements {flags}) (:predicates (p)) (:action a :effect (p)))"),
        "d.pddl",
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(d.requirements.len(), 7);
}

#[test]
fn existential_and_disjunctive_preconditions_are_planned_for_through_the_normal_form() {
    use corvus::heuristic::blind;
    use corvus::planner::{self, Config, Options, Status};
    use corvus::search::Strategy;
    // `power` gets the lamp of its `exists` as an extra parameter that plans
    // do not show; `switch-on` becomes variants, one per disjunct.
    let options = Options::single(Config::new(Strategy::Astar, &blind::BLIND));
    let report = planner::solve_files(&data("lights-domain.pddl"), &data("lights-p2.pddl"), &options)
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(report.status, Status::Solved);
    let found = report.plan.expect("a solved report has a plan");
    assert_eq!(found.length, 5);
    let (d, p) = pddl::load(&data("lights-domain.pddl"), &data("lights-p2.pddl")).unwrap_or_else(|e| panic!("{e}"));
    let reread = parse_plan(&found.to_ipc(), "written plan").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(validate(&d, &p, &reread), Ok(Validation { length: 5, cost: 5 }));
    assert!(found.to_ipc().contains("(power r1)\n"));
}
