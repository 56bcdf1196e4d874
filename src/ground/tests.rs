//! Tests of grounding as a whole: small domains written out as structs,
//! grounded through the normal form or from a normal form given directly,
//! so that each checks one rule of what is reached, folded or refused.

use super::*;
use crate::normalize::{NormalAction, NormalAxiom, NormalEffect};
use crate::pddl::{
    Action, Atom, Condition, CostExpr, Effect, GroundAtom, Literal, Location, NumericFact, PredicateDecl, Term,
    TypeDecl, TypedName,
};
use crate::task::{CondEffect, Fact, FactId, Operator};

/// The relaxed-reachable task of a domain and problem, through their normal form.
fn reachable(domain: &Domain, problem: &Problem) -> Result<(Task, GroundStats), GroundError> {
    ground_reachable(domain, problem, &normalize::normalize(domain, problem))
}

fn atom(text: &str) -> Atom {
    Atom::from_words(text)
}

fn pos(text: &str) -> Literal {
    Literal {
        positive: true,
        atom: atom(text),
    }
}

fn neg(text: &str) -> Literal {
    Literal {
        positive: false,
        atom: atom(text),
    }
}

fn typed(name: &str, ty: &str) -> TypedName {
    TypedName {
        name: name.to_string(),
        types: ty.split('|').map(str::to_string).collect(),
        location: Location::default(),
    }
}

fn action(name: &str, params: &[(&str, &str)], pre: Vec<Literal>, add: &[&str], del: &[&str]) -> Action {
    Action {
        name: name.to_string(),
        params: params.iter().map(|(n, t)| typed(n, t)).collect(),
        precondition: Condition::conjunction(pre),
        effect: Effect::strips(add.iter().map(|a| atom(a)), del.iter().map(|a| atom(a))),
        costs: Vec::new(),
        location: Location::default(),
    }
}

fn domain(types: &[(&str, &str)], actions: Vec<Action>) -> Domain {
    Domain {
        file: String::new(),
        name: "test".to_string(),
        requirements: vec!["strips".to_string()],
        types: types
            .iter()
            .map(|(n, p)| TypeDecl {
                name: n.to_string(),
                parents: p.split('|').map(str::to_string).collect(),
            })
            .collect(),
        constants: Vec::new(),
        predicates: Vec::new(),
        functions: Vec::new(),
        actions,
        derived: Vec::new(),
    }
}

fn ground_atom(text: &str) -> GroundAtom {
    let mut words = text.split_whitespace().map(str::to_string);
    GroundAtom {
        predicate: words.next().unwrap_or_default(),
        args: words.collect(),
    }
}

fn problem(objects: &[(&str, &str)], init: &[&str], goal: &[&str]) -> Problem {
    Problem {
        name: "p".to_string(),
        domain: "test".to_string(),
        objects: objects.iter().map(|(n, t)| typed(n, t)).collect(),
        init: init.iter().map(|a| ground_atom(a)).collect(),
        numeric_init: Vec::new(),
        goal: Condition::conjunction(goal.iter().map(|g| match g.strip_prefix("not ") {
            Some(rest) => neg(rest),
            None => pos(g),
        })),
        minimize_total_cost: false,
    }
}

fn blocks(distinct: bool) -> Domain {
    let ne = |v: Vec<Literal>| {
        let mut v = v;
        if distinct {
            v.push(neg("= ?x ?y"));
        }
        v
    };
    let b = "block";
    domain(
        &[("block", "object")],
        vec![
            action(
                "pick-up",
                &[("?x", b)],
                vec![pos("clear ?x"), pos("ontable ?x"), pos("handempty")],
                &["holding ?x"],
                &["ontable ?x", "clear ?x", "handempty"],
            ),
            action(
                "put-down",
                &[("?x", b)],
                vec![pos("holding ?x")],
                &["clear ?x", "handempty", "ontable ?x"],
                &["holding ?x"],
            ),
            action(
                "stack",
                &[("?x", b), ("?y", b)],
                ne(vec![pos("holding ?x"), pos("clear ?y")]),
                &["clear ?x", "handempty", "on ?x ?y"],
                &["holding ?x", "clear ?y"],
            ),
            action(
                "unstack",
                &[("?x", b), ("?y", b)],
                ne(vec![pos("on ?x ?y"), pos("clear ?x"), pos("handempty")]),
                &["holding ?x", "clear ?y"],
                &["on ?x ?y", "clear ?x", "handempty"],
            ),
        ],
    )
}

fn blocks3() -> Problem {
    problem(
        &[("a", "block"), ("b", "block"), ("c", "block")],
        &[
            "clear a",
            "clear b",
            "clear c",
            "ontable a",
            "ontable b",
            "ontable c",
            "handempty",
        ],
        &["on a b", "on b c"],
    )
}

fn fact_id(task: &Task, text: &str) -> Option<FactId> {
    let g = ground_atom(text);
    task.facts
        .iter()
        .position(|f| f.predicate == g.predicate && f.args == g.args)
        .map(|i| i as FactId)
}

fn op<'t>(task: &'t Task, name: &str) -> Option<&'t Operator> {
    task.operators.iter().find(|o| o.name() == name)
}

#[test]
fn blocks_world_without_inequality_reaches_self_stacking() {
    let (task, stats) = reachable(&blocks(false), &blocks3()).expect("grounds");
    // clear, ontable, holding: 3 each; handempty; on: 9 (on a a is relaxed-reachable).
    assert_eq!(task.num_facts(), 19);
    assert_eq!(task.num_operators(), 3 + 3 + 9 + 9);
    assert_eq!(stats.facts, 19);
    assert_eq!(stats.operators, 24);
    assert_eq!(stats.static_facts, 0);
    assert_eq!(task.init.len(), 7);
    assert_eq!(
        task.goal,
        vec![fact_id(&task, "on a b").unwrap(), fact_id(&task, "on b c").unwrap()]
    );
    assert!(!task.has_action_costs);
    assert!(task.operators.iter().all(|o| o.cost == 1));
}

#[test]
fn blocks_world_with_inequality_folds_equality() {
    let (task, _) = reachable(&blocks(true), &blocks3()).expect("grounds");
    assert_eq!(task.num_facts(), 3 * 3 + 1 + 6);
    assert_eq!(task.num_operators(), 3 + 3 + 6 + 6);
    assert!(fact_id(&task, "on a a").is_none());
    assert!(op(&task, "(stack a a)").is_none());
    let stack = op(&task, "(stack a b)").expect("stack a b");
    let ids = |names: &[&str]| {
        let mut v: Vec<FactId> = names.iter().map(|n| fact_id(&task, n).unwrap()).collect();
        v.sort();
        v
    };
    assert_eq!(stack.pre, ids(&["holding a", "clear b"]));
    assert_eq!(stack.add, ids(&["clear a", "handempty", "on a b"]));
    assert_eq!(stack.del, ids(&["holding a", "clear b"]));
    assert!(stack.pre_neg.is_empty());
    // Sorted by (action, args) and facts by name.
    let names: Vec<String> = task.operators.iter().map(Operator::name).collect();
    let mut sorted = names.clone();
    sorted.sort();
    assert_eq!(names, sorted);
    let mut facts = task.facts.clone();
    facts.sort();
    assert_eq!(facts, task.facts);
    // Plan a-on-b-on-c is applicable by replay.
    let mut state = task.initial_state();
    for name in ["(pick-up b)", "(stack b c)", "(pick-up a)", "(stack a b)"] {
        let o = op(&task, name).expect("op");
        assert!(o.is_applicable(state.bits()), "{name}");
        let mut next = state.clone();
        o.apply_into(state.bits(), next.bits_mut());
        state = next;
    }
    assert!(task.is_goal(state.bits()));
}

#[test]
fn grounding_is_deterministic_and_independent_of_object_order() {
    let (t1, _) = reachable(&blocks(true), &blocks3()).expect("grounds");
    let (t2, _) = reachable(&blocks(true), &blocks3()).expect("grounds");
    assert_eq!(t1, t2);
    let mut p = blocks3();
    p.objects.reverse();
    p.init.reverse();
    let (t3, _) = reachable(&blocks(true), &p).expect("grounds");
    assert_eq!(t1, t3);
}

#[test]
fn the_task_keeps_the_invariant_groups_of_its_final_form() {
    // Blocks without inequality has impossible operators (stack a a), so
    // the task changes after the first synthesis; the others do not.
    for ((d, p), changed) in [
        ((blocks(false), blocks3()), true),
        ((blocks(true), blocks3()), false),
        (roads(), false),
    ] {
        let (task, stats) = ground(&d, &p).expect("grounds");
        let removed = stats.impossible_operators + stats.removed_facts + stats.removed_operators;
        assert_eq!(removed > 0, changed);
        assert!(!task.invariant_groups().is_empty());
        assert_eq!(task.invariant_groups(), invariant_groups(&task).as_slice());
    }
}

/// A road map: `road` is static, `at` fluent; d has no incoming road.
fn roads() -> (Domain, Problem) {
    let d = domain(
        &[("place", "object")],
        vec![action(
            "drive",
            &[("?from", "place"), ("?to", "place")],
            vec![pos("at ?from"), pos("road ?from ?to")],
            &["at ?to"],
            &["at ?from"],
        )],
    );
    let p = problem(
        &[("a", "place"), ("b", "place"), ("c", "place"), ("d", "place")],
        &["at a", "road a b", "road b c", "road d a"],
        &["at c"],
    );
    (d, p)
}

#[test]
fn statics_are_folded_and_unreachable_parts_removed() {
    let (d, p) = roads();
    let (task, stats) = reachable(&d, &p).expect("grounds");
    let names: Vec<String> = task.facts.iter().map(Fact::to_string).collect();
    assert_eq!(names, vec!["(at a)", "(at b)", "(at c)"]);
    let ops: Vec<String> = task.operators.iter().map(Operator::name).collect();
    assert_eq!(ops, vec!["(drive a b)", "(drive b c)"]);
    assert_eq!(stats.static_facts, 3);
    assert_eq!(task.init, vec![0]);
    assert_eq!(task.goal, vec![2]);
}

#[test]
fn unreachable_goals_are_reported() {
    let (d, mut p) = roads();
    p.goal = problem(&[], &[], &["at d"]).goal;
    assert_eq!(
        reachable(&d, &p),
        Err(GroundError::GoalUnreachable("(at d)".to_string()))
    );
    // A false static goal, and a true static negative goal.
    p.goal = problem(&[], &[], &["road a c"]).goal;
    assert!(matches!(reachable(&d, &p), Err(GroundError::GoalUnreachable(_))));
    p.goal = problem(&[], &[], &["not road a b"]).goal;
    assert!(matches!(reachable(&d, &p), Err(GroundError::GoalUnreachable(_))));
    // A negative goal on a never-reachable fact is trivially true.
    p.goal = problem(&[], &[], &["not at d", "at c"]).goal;
    let (task, _) = reachable(&d, &p).expect("grounds");
    assert!(task.goal_neg.is_empty());
    assert_eq!(task.goal.len(), 1);
}

#[test]
fn negative_preconditions() {
    // `go` needs: not (blocked ?to) (static), not (visited ?to) (fluent),
    // not (broken) (never reachable: dropped).
    let d = domain(
        &[],
        vec![action(
            "go",
            &[("?from", "object"), ("?to", "object")],
            vec![
                pos("at ?from"),
                pos("link ?from ?to"),
                neg("blocked ?to"),
                neg("visited ?to"),
                neg("broken"),
            ],
            &["at ?to", "visited ?to"],
            &["at ?from", "broken"],
        )],
    );
    let p = problem(
        &[("a", "object"), ("b", "object"), ("c", "object")],
        &["at a", "visited a", "link a b", "link a c", "link b a", "blocked c"],
        &["at b"],
    );
    let (task, _) = reachable(&d, &p).expect("grounds");
    let ops: Vec<String> = task.operators.iter().map(Operator::name).collect();
    assert_eq!(ops, vec!["(go a b)", "(go b a)"]);
    let go = op(&task, "(go b a)").unwrap();
    assert_eq!(go.pre_neg, vec![fact_id(&task, "visited a").unwrap()]);
    // The delete of the unreachable (broken) is dropped.
    assert_eq!(go.del, vec![fact_id(&task, "at b").unwrap()]);
    assert!(fact_id(&task, "broken").is_none());
}

#[test]
fn add_wins_over_delete_and_contradictory_operators_are_removed() {
    let d = domain(
        &[],
        vec![
            action(
                "touch",
                &[("?x", "object")],
                vec![pos("p ?x")],
                &["p ?x", "q ?x"],
                &["p ?x"],
            ),
            action(
                "never",
                &[("?x", "object")],
                vec![pos("p ?x"), neg("p ?x")],
                &["r ?x"],
                &[],
            ),
        ],
    );
    let p = problem(&[("a", "object")], &["p a"], &["q a"]);
    let (task, _) = reachable(&d, &p).expect("grounds");
    let touch = op(&task, "(touch a)").unwrap();
    assert_eq!(touch.del, Vec::<FactId>::new());
    // Adding the required (p a) again changes nothing, so only (q a) stays.
    assert_eq!(touch.add, vec![fact_id(&task, "q a").unwrap()]);
    assert!(op(&task, "(never a)").is_none());
    assert_eq!(task.num_operators(), 1);
}

#[test]
fn operators_without_any_effect_are_not_kept() {
    // (go ?x ?y) with ?x = ?y deletes and adds (at ?x): no change.
    let d = domain(
        &[],
        vec![action(
            "go",
            &[("?x", "object"), ("?y", "object")],
            vec![pos("at ?x")],
            &["at ?y"],
            &["at ?x"],
        )],
    );
    let p = problem(&[("a", "object"), ("b", "object")], &["at a"], &["at b"]);
    let (task, _) = reachable(&d, &p).expect("grounds");
    let mut ops: Vec<String> = task
        .operators
        .iter()
        .map(|o| format!("({} {})", o.action, o.args.join(" ")))
        .collect();
    ops.sort();
    assert_eq!(ops, vec!["(go a b)", "(go b a)"]);
}

#[test]
fn type_hierarchy_and_either() {
    // truck < vehicle, plane < vehicle; `fly` takes (either plane heli).
    let d = domain(
        &[
            ("vehicle", "object"),
            ("truck", "vehicle"),
            ("plane", "vehicle"),
            ("heli", "object"),
        ],
        vec![
            action("start", &[("?v", "vehicle")], vec![], &["running ?v"], &[]),
            action(
                "fly",
                &[("?v", "plane|heli")],
                vec![pos("running ?v")],
                &["flying ?v"],
                &[],
            ),
            action("lift", &[("?v", "heli")], vec![], &["flying ?v"], &[]),
        ],
    );
    let p = problem(
        &[("t", "truck"), ("p", "plane"), ("h", "heli"), ("x", "object")],
        &[],
        &["flying p"],
    );
    let (task, _) = reachable(&d, &p).expect("grounds");
    let ops: Vec<String> = task.operators.iter().map(Operator::name).collect();
    assert_eq!(ops, vec!["(fly p)", "(lift h)", "(start p)", "(start t)"]);
    // (fly h) needs (running h), which only vehicles reach.
    assert!(fact_id(&task, "running h").is_none());
}

#[test]
fn constants_and_repeated_variables() {
    let mut d = domain(
        &[],
        vec![
            action(
                "loop",
                &[("?x", "object")],
                vec![pos("edge ?x ?x")],
                &["looped ?x"],
                &[],
            ),
            action("home", &[("?x", "object")], vec![pos("looped ?x")], &["at home"], &[]),
        ],
    );
    d.constants.push(typed("home", "object"));
    let p = problem(
        &[("a", "object"), ("b", "object")],
        &["edge a b", "edge b b"],
        &["at home"],
    );
    let (task, _) = reachable(&d, &p).expect("grounds");
    let ops: Vec<String> = task.operators.iter().map(Operator::name).collect();
    assert_eq!(ops, vec!["(home b)", "(loop b)"]);
}

fn costed() -> (Domain, Problem) {
    let (mut d, mut p) = roads();
    d.actions[0].costs = vec![
        CostExpr::Function {
            name: "dist".to_string(),
            args: vec![Term::Variable("?from".to_string()), Term::Variable("?to".to_string())],
            location: Location::default(),
        },
        CostExpr::Constant(1),
    ];
    d.actions.push(action("wait", &[], vec![], &["waited"], &[]));
    let num = |a: &str, b: &str, v: i64| NumericFact {
        function: "dist".to_string(),
        args: vec![a.to_string(), b.to_string()],
        value: v,
        location: Location::default(),
    };
    p.numeric_init = vec![num("a", "b", 5), num("b", "c", 7)];
    p.minimize_total_cost = true;
    (d, p)
}

#[test]
fn action_costs_from_functions() {
    let (d, p) = costed();
    let (task, _) = reachable(&d, &p).expect("grounds");
    assert!(task.has_action_costs);
    assert_eq!(op(&task, "(drive a b)").unwrap().cost, 6);
    assert_eq!(op(&task, "(drive b c)").unwrap().cost, 8);
    // No cost effect under a cost metric: free.
    assert_eq!(op(&task, "(wait)").unwrap().cost, 0);

    // Without the metric the task is unit cost.
    let mut unit = p.clone();
    unit.minimize_total_cost = false;
    let (task, _) = reachable(&d, &unit).expect("grounds");
    assert!(!task.has_action_costs);
    assert!(task.operators.iter().all(|o| o.cost == 1));
}

#[test]
fn bad_costs_are_errors() {
    let (d, mut p) = costed();
    p.numeric_init.pop();
    // A missing value is the input's fault, at the cost that needs it.
    match reachable(&d, &p) {
        Err(GroundError::Input(e)) => assert!(e.message.contains("(dist b c)"), "{e}"),
        other => panic!("expected an input error, got {other:?}"),
    }
    let (d, mut p) = costed();
    p.numeric_init[0].value = -3;
    assert!(matches!(reachable(&d, &p), Err(GroundError::Unsupported(_))));
}

#[test]
fn malformed_input_is_an_error_not_a_panic() {
    let (mut d, p) = roads();
    d.actions[0].precondition = Condition::And(vec![
        d.actions[0].precondition.clone(),
        Condition::Atom(atom("road ?from ?nowhere")),
    ]);
    assert!(matches!(reachable(&d, &p), Err(GroundError::Unsupported(_))));
    let (mut d, p) = roads();
    d.actions[0].precondition = Condition::And(vec![
        d.actions[0].precondition.clone(),
        Condition::Atom(atom("road ?from")),
    ]);
    assert!(matches!(reachable(&d, &p), Err(GroundError::Unsupported(_))));
    let (d, mut p) = roads();
    p.init.push(ground_atom("road a b c"));
    assert!(matches!(reachable(&d, &p), Err(GroundError::Unsupported(_))));
}

// --- The normal form read directly: conditional and quantified effects, rules.

fn effect(vars: &[(&str, &str)], condition: Vec<Literal>, literal: Literal) -> NormalEffect {
    NormalEffect {
        vars: vars.iter().map(|(n, t)| typed(n, t)).collect(),
        condition,
        literal,
    }
}

fn normal_action(name: &str, params: &[(&str, &str)], pre: Vec<Literal>, effects: Vec<NormalEffect>) -> NormalAction {
    NormalAction {
        name: name.to_string(),
        params: params.iter().map(|(n, t)| typed(n, t)).collect(),
        external_params: params.len(),
        precondition: pre,
        effects,
        costs: Vec::new(),
        location: Location::default(),
    }
}

fn rule(head: &str, params: &[(&str, &str)], body: Vec<Literal>) -> NormalAxiom {
    NormalAxiom {
        head: atom(head),
        params: params.iter().map(|(n, t)| typed(n, t)).collect(),
        body,
    }
}

fn derived(name: &str, params: &[(&str, &str)]) -> PredicateDecl {
    PredicateDecl {
        name: name.to_string(),
        params: params.iter().map(|(n, t)| typed(n, t)).collect(),
        location: Location::default(),
    }
}

/// A briefcase that carries what is in it (`forall` + `when`), two
/// places and two portables that must swap places; `delivered ?o` is
/// derived from the static `target`, `missing` from a portable not
/// delivered, and the goal `finished` from `missing` being false.
fn briefcase() -> (Domain, Problem, NormalTask) {
    let d = domain(&[("place", "object"), ("portable", "object")], Vec::new());
    let p = problem(
        &[
            ("home", "place"),
            ("office", "place"),
            ("p1", "portable"),
            ("p2", "portable"),
        ],
        &[
            "is-at home",
            "at p1 home",
            "at p2 office",
            "target p1 office",
            "target p2 home",
        ],
        &[],
    );
    let place = "place";
    let normal = NormalTask {
        actions: vec![
            normal_action(
                "move",
                &[("?from", place), ("?to", place)],
                vec![pos("is-at ?from"), neg("= ?from ?to")],
                vec![
                    effect(&[], vec![], pos("is-at ?to")),
                    effect(&[], vec![], neg("is-at ?from")),
                    effect(&[("?o", "portable")], vec![pos("in ?o")], pos("at ?o ?to")),
                    effect(&[("?o", "portable")], vec![pos("in ?o")], neg("at ?o ?from")),
                ],
            ),
            normal_action(
                "put-in",
                &[("?o", "portable"), ("?l", place)],
                vec![pos("at ?o ?l"), pos("is-at ?l"), neg("in ?o")],
                vec![effect(&[], vec![], pos("in ?o"))],
            ),
            normal_action(
                "take-out",
                &[("?o", "portable")],
                vec![pos("in ?o")],
                vec![effect(&[], vec![], neg("in ?o"))],
            ),
        ],
        axioms: vec![
            rule(
                "delivered ?o",
                &[("?o", "portable"), ("?l", place)],
                vec![pos("at ?o ?l"), pos("target ?o ?l")],
            ),
            rule("missing", &[("?o", "portable")], vec![neg("delivered ?o")]),
            rule("finished", &[], vec![neg("missing")]),
        ],
        derived_predicates: vec![
            derived("delivered", &[("?o", "portable")]),
            derived("missing", &[]),
            derived("finished", &[]),
        ],
        goal: vec![pos("finished")],
    };
    (d, p, normal)
}

#[test]
fn conditional_effects_stay_on_one_operator_and_rules_are_layered() {
    let (d, p, normal) = briefcase();
    let (task, _) = ground_normal(&d, &p, &normal).expect("grounds");
    let ops: Vec<String> = task.operators.iter().map(Operator::name).collect();
    assert_eq!(
        ops,
        [
            "(move home office)",
            "(move office home)",
            "(put-in p1 home)",
            "(put-in p1 office)",
            "(put-in p2 home)",
            "(put-in p2 office)",
            "(take-out p1)",
            "(take-out p2)"
        ]
    );
    let f = |text: &str| fact_id(&task, text).unwrap();
    let mv = op(&task, "(move home office)").unwrap();
    assert_eq!(mv.pre, vec![f("is-at home")]);
    assert_eq!(mv.add, vec![f("is-at office")]);
    assert_eq!(mv.del, vec![f("is-at home")]);
    let carry = |o: &str| CondEffect {
        pre: vec![f(&format!("in {o}"))],
        pre_neg: vec![],
        add: vec![f(&format!("at {o} office"))],
        del: vec![f(&format!("at {o} home"))],
    };
    assert_eq!(mv.cond_effects, vec![carry("p1"), carry("p2")]);
    // delivered: one rule per portable (the static target folded);
    // missing: one per portable; finished: one. Three layers.
    let heads: Vec<String> = task
        .axioms
        .iter()
        .map(|a| task.facts[a.head as usize].to_string())
        .collect();
    assert_eq!(
        heads,
        [
            "(delivered p1)",
            "(delivered p2)",
            "(missing)",
            "(missing)",
            "(finished)"
        ]
    );
    assert_eq!(task.axioms[0].pre, vec![f("at p1 office")]);
    assert_eq!(task.axioms[2].pre_neg, vec![f("delivered p1")]);
    assert_eq!(task.axiom_layers, vec![0, 2, 4, 5]);
    assert!(task.is_derived(f("finished")) && !task.is_derived(f("in p1")));
    assert_eq!(task.goal, vec![f("finished")]);
    // The initial state derives `missing` (nothing is delivered).
    let init: Vec<String> = task
        .initial_state()
        .bits()
        .iter_ones()
        .map(|i| task.facts[i].to_string())
        .collect();
    assert_eq!(init, ["(at p1 home)", "(at p2 office)", "(is-at home)", "(missing)"]);
    // The optimal plan swaps the two portables in five steps.
    let plan = [
        "(put-in p1 home)",
        "(move home office)",
        "(take-out p1)",
        "(put-in p2 office)",
        "(move office home)",
    ];
    let mut state = task.initial_state();
    for name in plan {
        let o = op(&task, name).unwrap();
        assert!(o.is_applicable(state.bits()), "{name}");
        let mut next = state.clone();
        task.apply_into(o, state.bits(), next.bits_mut());
        state = next;
    }
    assert!(task.is_goal(state.bits()));
    // Not taking p1 out carries it back home: the goal fails.
    let mut state = task.initial_state();
    for name in [
        "(put-in p1 home)",
        "(move home office)",
        "(put-in p2 office)",
        "(move office home)",
    ] {
        let mut next = state.clone();
        task.apply_into(op(&task, name).unwrap(), state.bits(), next.bits_mut());
        state = next;
    }
    assert!(!task.is_goal(state.bits()));
    let optimum = crate::task::testing::perfect_costs(&task)[0].1;
    assert_eq!(optimum, Some(5));
}

#[test]
fn conditions_are_folded_and_unreachable_effects_dropped() {
    // `move` also paints what it carries, when the portable is not
    // `fragile` (static: p2 is) and when it is `wet` (never reachable).
    let (d, mut p, mut normal) = briefcase();
    p.init.push(ground_atom("fragile p2"));
    normal.actions[0].effects.push(effect(
        &[("?o", "portable")],
        vec![pos("in ?o"), neg("fragile ?o")],
        pos("painted ?o"),
    ));
    normal.actions[0]
        .effects
        .push(effect(&[("?o", "portable")], vec![pos("wet ?o")], pos("dry ?o")));
    // Unconditional over all portables: `moved ?o`; conditional on the
    // action's own precondition: folded to unconditional.
    normal.actions[0]
        .effects
        .push(effect(&[("?o", "portable")], vec![], pos("moved ?o")));
    normal.actions[0]
        .effects
        .push(effect(&[], vec![pos("is-at ?from")], pos("left ?from")));
    let (task, _) = ground_reachable(&d, &p, &normal).expect("grounds");
    let f = |text: &str| fact_id(&task, text).unwrap();
    let mv = op(&task, "(move home office)").unwrap();
    let mut add = vec![f("is-at office"), f("moved p1"), f("moved p2"), f("left home")];
    add.sort();
    assert_eq!(mv.add, add);
    assert!(fact_id(&task, "dry p1").is_none() && fact_id(&task, "painted p2").is_none());
    let p1 = mv.cond_effects.iter().find(|e| e.pre == vec![f("in p1")]).unwrap();
    let mut p1_add = vec![f("at p1 office"), f("painted p1")];
    p1_add.sort();
    assert_eq!(p1.add, p1_add);
    assert_eq!(mv.cond_effects.len(), 2);
}

#[test]
fn existential_parameters_are_not_written_and_negative_cycles_refused() {
    // `take-out` gains a hidden parameter ?l (where the briefcase is):
    // written without it.
    let (d, p, mut normal) = briefcase();
    normal.actions[2].params.push(typed("?l", "place"));
    normal.actions[2].precondition.push(pos("is-at ?l"));
    let (task, _) = ground_reachable(&d, &p, &normal).expect("grounds");
    let take: Vec<&Operator> = task.operators.iter().filter(|o| o.action == "take-out").collect();
    assert!(take.iter().all(|o| o.args.len() == 1));
    assert_eq!(take.len(), 4);
    // finished :- not missing; missing :- not finished.
    let (d, p, mut normal) = briefcase();
    normal.axioms.push(rule("missing", &[], vec![neg("finished")]));
    match ground_reachable(&d, &p, &normal) {
        Err(GroundError::Unsupported(m)) => assert!(m.contains("finished, missing"), "{m}"),
        other => panic!("expected a refusal, got {other:?}"),
    }
    // An effect on a derived predicate is refused by name.
    let (d, p, mut normal) = briefcase();
    normal.actions[1].effects.push(effect(&[], vec![], pos("missing")));
    assert!(matches!(ground_reachable(&d, &p, &normal), Err(GroundError::Unsupported(m)) if m.contains("missing")));
}
