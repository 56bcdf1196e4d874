//! The normal form of small domains, checked exactly through its text.

use super::*;
use crate::pddl::{parse_domain, parse_problem_for};

const TYPES: &str = "(:requirements :adl :derived-predicates) (:types t)\n\
                     (:predicates (p ?x - t) (q ?x ?y - t) (r) (s ?x - t) (d ?x - t))\n";

/// The normal form of a domain made of `TYPES` and `body`, with a problem
/// over objects `a b - t` and `goal`.
fn normal(body: &str, goal: &str) -> NormalTask {
    let d = parse_domain(&format!("(define (domain n) {TYPES}{body})"), "d.pddl").unwrap_or_else(|e| panic!("{e}"));
    let p = parse_problem_for(
        &d,
        &format!("(define (problem n1) (:domain n) (:objects a b - t) (:init) (:goal {goal}))"),
        "p.pddl",
    )
    .unwrap_or_else(|e| panic!("{e}"));
    normalize(&d, &p)
}

fn text(body: &str, goal: &str) -> String {
    normal(body, goal).to_string()
}

#[test]
fn strips_stays_as_written() {
    let n = normal(
        "(:action go :parameters (?x ?y - t) :precondition (and (p ?x) (not (q ?x ?y)) (not (= ?x ?y)))\n\
         :effect (and (not (p ?x)) (p ?y) (increase (total-cost) 2)))",
        "(and (p b) (not (r)))",
    );
    assert_eq!(
        n.to_string(),
        "action go (?x - t ?y - t) pre (and (p ?x) (not (q ?x ?y)) (not (= ?x ?y)))\n\
         \x20 effect (not (p ?x))\n\
         \x20 effect (p ?y)\n\
         goal (and (p b) (not (r)))\n"
    );
    assert_eq!(n.actions[0].external_params, 2);
    assert_eq!(n.actions[0].costs, vec![CostExpr::Constant(2)]);
    assert!(n.axioms.is_empty() && n.derived_predicates.is_empty());
}

#[test]
fn negation_is_pushed_to_atoms_and_disjunctions_become_variants() {
    // ¬(p ∧ (r → s)) = ¬p ∨ (r ∧ ¬s)
    assert_eq!(
        text(
            "(:action a :parameters (?x - t) :precondition (not (and (p ?x) (imply (r) (s ?x)))) :effect (r))",
            "(r)"
        ),
        "action a (?x - t) pre (not (p ?x))\n\
         \x20 effect (r)\n\
         action a (?x - t) pre (and (r) (not (s ?x)))\n\
         \x20 effect (r)\n\
         goal (r)\n"
    );
}

#[test]
fn existential_variables_become_extra_parameters_renamed_apart() {
    let n = normal(
        "(:action a :parameters (?x - t) :precondition (and (p ?x) (exists (?x - t) (q ?x ?x)) (exists (?y - t) (s ?y)))\n\
         :effect (r))",
        "(r)",
    );
    assert_eq!(
        n.to_string(),
        "action a (?x - t) exists (?x@2 - t ?y - t) pre (and (p ?x) (q ?x@2 ?x@2) (s ?y))\n\
         \x20 effect (r)\n\
         goal (r)\n"
    );
    assert_eq!((n.actions[0].params.len(), n.actions[0].external_params), (3, 1));
}

#[test]
fn universal_conditions_become_derived_predicates_shared_where_equal() {
    assert_eq!(
        text(
            "(:action a :parameters (?x - t) :precondition (forall (?y - t) (imply (q ?x ?y) (p ?y))) :effect (r))\n\
             (:action b :parameters (?x - t) :precondition (and (s ?x) (forall (?y - t) (imply (q ?x ?y) (p ?y)))) :effect (r))",
            "(forall (?z - t) (p ?z))"
        ),
        "action a (?x - t) pre (not (forall@0 ?x))\n\
         \x20 effect (r)\n\
         action b (?x - t) pre (and (s ?x) (not (forall@0 ?x)))\n\
         \x20 effect (r)\n\
         axiom (forall@0 ?x) (?x - t) exists (?y - t) :- (and (q ?x ?y) (not (p ?y)))\n\
         axiom (forall@1) exists (?z - t) :- (not (p ?z))\n\
         goal (not (forall@1))\n"
    );
}

#[test]
fn effects_are_flattened_with_their_conditions_and_variables() {
    assert_eq!(
        text(
            "(:action a :parameters (?x - t)\n\
             :effect (and (forall (?y - t) (when (or (q ?x ?y) (exists (?z - t) (q ?y ?z))) (and (s ?y) (not (p ?y)))))\n\
                          (when (forall (?y - t) (p ?y)) (r))))",
            "(r)"
        ),
        "action a (?x - t) pre (and)\n\
         \x20 effect forall (?y - t) when (q ?x ?y) (s ?y)\n\
         \x20 effect forall (?y - t ?z - t) when (q ?y ?z) (s ?y)\n\
         \x20 effect forall (?y - t) when (q ?x ?y) (not (p ?y))\n\
         \x20 effect forall (?y - t ?z - t) when (q ?y ?z) (not (p ?y))\n\
         \x20 effect when (not (forall@0)) (r)\n\
         axiom (forall@0) exists (?y@2 - t) :- (not (p ?y@2))\n\
         goal (r)\n"
    );
}

#[test]
fn derived_rules_split_on_disjunctions_with_existential_parameters() {
    let n = normal(
        "(:derived (d ?x - t) (or (p ?x) (exists (?y - t) (and (q ?x ?y) (d ?y)))))\n\
         (:action a :parameters (?x - t) :precondition (not (d ?x)) :effect (p ?x))",
        "(d a)",
    );
    assert_eq!(
        n.to_string(),
        "action a (?x - t) pre (not (d ?x))\n\
         \x20 effect (p ?x)\n\
         axiom (d ?x) (?x - t) :- (p ?x)\n\
         axiom (d ?x) (?x - t) exists (?y - t) :- (and (q ?x ?y) (d ?y))\n\
         goal (d a)\n"
    );
    assert_eq!(n.derived_predicates.len(), 1);
    assert_eq!(n.derived_predicates[0].name, "d");
}

#[test]
fn a_goal_with_disjunction_or_variables_becomes_a_derived_predicate() {
    let n = normal(
        "(:action a :parameters (?x - t) :effect (p ?x))",
        "(or (and (p a) (p b)) (exists (?x - t) (q ?x a)))",
    );
    assert_eq!(
        n.to_string(),
        "action a (?x - t) pre (and)\n\
         \x20 effect (p ?x)\n\
         axiom (goal@0) :- (and (p a) (p b))\n\
         axiom (goal@0) exists (?x - t) :- (q ?x a)\n\
         goal (goal@0)\n"
    );
    assert_eq!(n.derived_predicates[0].name, "goal@0");
    assert!(n.derived_predicates[0].params.is_empty());
}

#[test]
fn disjunctions_that_would_multiply_beyond_the_cap_become_derived_predicates() {
    // Six binary disjunctions multiply out to 64 > 32 variants: the first
    // becomes a derived predicate, which leaves 32.
    let ors: String = (0..6).map(|_| "(or (p ?x) (s ?x))").collect::<Vec<_>>().join(" ");
    let ors = ors.replacen("(p ?x) (s ?x)", "(r) (q ?x ?x)", 1);
    let n = normal(
        &format!("(:action a :parameters (?x - t) :precondition (and {ors}) :effect (d ?x))"),
        "(d a)",
    );
    assert_eq!(n.actions.len(), 32);
    assert_eq!(dnf::MAX_CONJUNCTS, 32);
    let or_rules: Vec<String> = n
        .axioms
        .iter()
        .map(|a| {
            format!(
                "{} :- {:?}",
                a.head,
                a.body.iter().map(ToString::to_string).collect::<Vec<_>>()
            )
        })
        .collect();
    assert_eq!(or_rules, ["(or@0 ?x) :- [\"(r)\"]", "(or@0 ?x) :- [\"(q ?x ?x)\"]"]);
    assert!(n.actions.iter().all(|a| a.precondition[0].to_string() == "(or@0 ?x)"));
}

#[test]
fn new_names_never_clash_with_the_domains() {
    let d = parse_domain(
        &format!(
            "(define (domain n) {TYPES}(:action a :parameters (?x - t) :precondition (forall (?y - t) (q ?x ?y)) :effect (r)))"
        ),
        "d.pddl",
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let p = parse_problem_for(
        &d,
        "(define (problem n1) (:domain n) (:objects a - t) (:goal (r)))",
        "p.pddl",
    )
    .unwrap_or_else(|e| panic!("{e}"));
    // Only an AST built by hand can hold such a name; the parser cannot.
    let mut d = d;
    d.predicates.push(PredicateDecl {
        name: "forall@0".to_string(),
        params: Vec::new(),
        location: Location::default(),
    });
    let n = normalize(&d, &p);
    assert_eq!(n.derived_predicates[0].name, "forall@1");
}
