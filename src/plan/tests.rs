//! Tests of reading, writing and validating plans, on small hand-made
//! domains.

use super::*;
use crate::pddl::{
    Action, Atom, Condition, CostExpr, Domain, Effect, GroundAtom, Literal, Location, NumericFact, Problem, Term,
    TypeDecl, TypedName,
};
use crate::rng::Rng;

const NOWHERE: Location = Location { line: 0, col: 0 };

fn typed(name: &str, types: &[&str]) -> TypedName {
    TypedName {
        name: name.to_string(),
        types: types.iter().map(|t| t.to_string()).collect(),
        location: NOWHERE,
    }
}

fn atom(text: &str) -> Atom {
    Atom::from_words(text)
}

/// `"clear ?x"` is a positive literal, `"!clear ?x"` a negative one.
fn literal(text: &str) -> Literal {
    match text.strip_prefix('!') {
        Some(rest) => Literal {
            positive: false,
            atom: atom(rest),
        },
        None => Literal {
            positive: true,
            atom: atom(text),
        },
    }
}

fn ground(text: &str) -> GroundAtom {
    let mut words = text.split_whitespace().map(str::to_string);
    GroundAtom {
        predicate: words.next().unwrap_or_default(),
        args: words.collect(),
    }
}

/// A conjunction of literals as in [`literal`], over objects.
fn goals(texts: &[&str]) -> Condition {
    Condition::conjunction(texts.iter().map(|t| literal(t)))
}

fn action(name: &str, params: &[(&str, &[&str])], pre: &[&str], add: &[&str], del: &[&str]) -> Action {
    Action {
        name: name.to_string(),
        params: params.iter().map(|(n, t)| typed(n, t)).collect(),
        precondition: Condition::conjunction(pre.iter().map(|l| literal(l))),
        effect: Effect::strips(add.iter().map(|a| atom(a)), del.iter().map(|a| atom(a))),
        costs: Vec::new(),
        location: NOWHERE,
    }
}

fn domain(types: &[(&str, &[&str])], constants: Vec<TypedName>, actions: Vec<Action>) -> Domain {
    Domain {
        file: String::new(),
        name: "test".to_string(),
        requirements: vec!["strips".to_string(), "typing".to_string()],
        types: types
            .iter()
            .map(|(n, p)| TypeDecl {
                name: n.to_string(),
                parents: p.iter().map(|t| t.to_string()).collect(),
            })
            .collect(),
        constants,
        predicates: Vec::new(),
        functions: Vec::new(),
        actions,
        derived: Vec::new(),
    }
}

fn problem(objects: Vec<TypedName>, init: &[&str], goals: &[&str]) -> Problem {
    Problem {
        name: "p".to_string(),
        domain: "test".to_string(),
        objects,
        init: init.iter().map(|a| ground(a)).collect(),
        numeric_init: Vec::new(),
        goal: self::goals(goals),
        minimize_total_cost: false,
    }
}

fn plan(text: &str) -> Plan {
    match parse_plan(text, "test.plan") {
        Ok(p) => p,
        Err(e) => panic!("test plan does not parse: {e}"),
    }
}

/// Typed blocks world with a subtype (`heavy - block`), a robot, an
/// `either` parameter, equality and a negative precondition.
fn blocks() -> (Domain, Problem) {
    let b: &[&str] = &["block"];
    let actions = vec![
        action(
            "pick-up",
            &[("?x", b)],
            &["clear ?x", "ontable ?x", "handempty"],
            &["holding ?x"],
            &["ontable ?x", "clear ?x", "handempty"],
        ),
        action(
            "put-down",
            &[("?x", b)],
            &["holding ?x"],
            &["ontable ?x", "clear ?x", "handempty"],
            &["holding ?x"],
        ),
        action(
            "stack",
            &[("?x", b), ("?y", b)],
            &["!= ?x ?y", "holding ?x", "clear ?y"],
            &["on ?x ?y", "clear ?x", "handempty"],
            &["holding ?x", "clear ?y"],
        ),
        action(
            "unstack",
            &[("?x", b), ("?y", b)],
            &["on ?x ?y", "clear ?x", "handempty"],
            &["holding ?x", "clear ?y"],
            &["on ?x ?y", "clear ?x", "handempty"],
        ),
        action("paint", &[("?x", b)], &["!painted ?x"], &["painted ?x"], &[]),
        action("wave", &[("?r", &["robot"])], &[], &["waved ?r"], &[]),
        action("inspect", &[("?t", &["robot", "heavy"])], &[], &["inspected ?t"], &[]),
        // Uses the domain constant `table`.
        action("touch-table", &[], &["= table table"], &["touched table"], &[]),
    ];
    let domain = domain(
        &[("block", &["object"]), ("heavy", &["block"]), ("robot", &["object"])],
        vec![typed("table", &["object"])],
        actions,
    );
    let problem = problem(
        vec![
            typed("a", b),
            typed("b", b),
            typed("c", &["heavy"]),
            typed("r2", &["robot"]),
        ],
        &["clear a", "on a b", "ontable b", "clear c", "ontable c", "handempty"],
        &["on b a", "on a c", "!holding a"],
    );
    (domain, problem)
}

const BLOCKS_PLAN: &str = "(unstack a b)\n(stack a c)\n(pick-up b)\n(stack b a)\n";

#[test]
fn valid_blocks_plan_has_unit_cost() {
    let (d, p) = blocks();
    assert_eq!(
        validate(&d, &p, &plan(BLOCKS_PLAN)),
        Ok(Validation { length: 4, cost: 4 })
    );
}

#[test]
fn empty_plan_fails_on_the_first_unmet_goal() {
    let (d, p) = blocks();
    assert_eq!(
        validate(&d, &p, &Plan::default()),
        Err(InvalidPlan::Goal {
            condition: "(on b a)".to_string()
        })
    );
}

#[test]
fn unmet_goal_is_reported() {
    let (d, p) = blocks();
    let result = validate(&d, &p, &plan("(unstack a b)\n(stack a c)\n"));
    assert_eq!(
        result,
        Err(InvalidPlan::Goal {
            condition: "(on b a)".to_string()
        })
    );
}

#[test]
fn negative_goal_is_reported() {
    let (d, mut p) = blocks();
    p.goal = goals(&["!holding a"]);
    assert_eq!(
        validate(&d, &p, &plan("(unstack a b)")),
        Err(InvalidPlan::Goal {
            condition: "(not (holding a))".to_string()
        })
    );
}

#[test]
fn unknown_action_is_reported_with_its_step() {
    let (d, p) = blocks();
    assert_eq!(
        validate(&d, &p, &plan("(unstack a b)\n(fly a)\n")),
        Err(InvalidPlan::UnknownAction {
            step: 2,
            action: "fly".to_string()
        })
    );
}

#[test]
fn wrong_arity_is_reported() {
    let (d, p) = blocks();
    assert_eq!(
        validate(&d, &p, &plan("(unstack a b)\n(stack a)\n")),
        Err(InvalidPlan::WrongArity {
            step: 2,
            action: "stack".to_string(),
            expected: 2,
            got: 1
        })
    );
}

#[test]
fn unknown_object_is_reported() {
    let (d, p) = blocks();
    assert_eq!(
        validate(&d, &p, &plan("(unstack a b)\n(stack a z)\n")),
        Err(InvalidPlan::UnknownObject {
            step: 2,
            object: "z".to_string()
        })
    );
}

#[test]
fn wrong_type_is_reported() {
    let (d, p) = blocks();
    assert_eq!(
        validate(&d, &p, &plan("(wave a)")),
        Err(InvalidPlan::WrongType {
            step: 1,
            action: "wave".to_string(),
            object: "a".to_string(),
            expected: "robot".to_string()
        })
    );
    // A robot is not a block, and a domain constant of type object is neither.
    assert!(matches!(
        validate(&d, &p, &plan("(paint r2)")),
        Err(InvalidPlan::WrongType { step: 1, .. })
    ));
    assert!(matches!(
        validate(&d, &p, &plan("(paint table)")),
        Err(InvalidPlan::WrongType { step: 1, .. })
    ));
}

#[test]
fn subtypes_and_either_types_are_accepted() {
    let (d, mut p) = blocks();
    p.goal = goals(&["painted c", "inspected c", "inspected r2", "touched table"]);
    let result = validate(&d, &p, &plan("(paint c) (inspect c) (inspect r2) (touch-table)"));
    assert_eq!(result, Ok(Validation { length: 4, cost: 4 }));
    // `either robot heavy` does not admit a plain block.
    assert_eq!(
        validate(&d, &p, &plan("(inspect a)")),
        Err(InvalidPlan::WrongType {
            step: 1,
            action: "inspect".to_string(),
            object: "a".to_string(),
            expected: "(either robot heavy)".to_string()
        })
    );
}

#[test]
fn failed_precondition_is_reported() {
    let (d, p) = blocks();
    assert_eq!(
        validate(&d, &p, &plan("(unstack a b)\n(stack a c)\n(pick-up c)\n")),
        Err(InvalidPlan::Precondition {
            step: 3,
            action: "pick-up".to_string(),
            condition: "(clear c)".to_string()
        })
    );
}

#[test]
fn violated_negative_precondition_is_reported() {
    let (d, p) = blocks();
    assert_eq!(
        validate(&d, &p, &plan("(paint a)\n(paint b)\n(paint a)\n")),
        Err(InvalidPlan::Precondition {
            step: 3,
            action: "paint".to_string(),
            condition: "(not (painted a))".to_string()
        })
    );
}

#[test]
fn inequality_precondition_is_checked() {
    let (d, p) = blocks();
    assert_eq!(
        validate(&d, &p, &plan("(unstack a b)\n(stack a a)\n")),
        Err(InvalidPlan::Precondition {
            step: 2,
            action: "stack".to_string(),
            condition: "(not (= a a))".to_string()
        })
    );
}

#[test]
fn deletes_apply_before_adds() {
    // An action that deletes and adds the same atom keeps it.
    let d = domain(
        &[],
        Vec::new(),
        vec![action("toggle", &[("?x", &["object"])], &[], &["on ?x"], &["on ?x"])],
    );
    let p = problem(vec![typed("a", &["object"])], &[], &["on a"]);
    assert_eq!(
        validate(&d, &p, &plan("(toggle a)")),
        Ok(Validation { length: 1, cost: 1 })
    );
}

#[test]
fn unbound_variable_in_the_domain_is_an_error_not_a_panic() {
    let d = domain(
        &[],
        Vec::new(),
        vec![action("broken", &[("?x", &["object"])], &["p ?y"], &[], &[])],
    );
    let p = problem(vec![typed("a", &["object"])], &[], &[]);
    assert!(matches!(
        validate(&d, &p, &plan("(broken a)")),
        Err(InvalidPlan::UnboundVariable { step: 1, .. })
    ));
}

/// Roads with a static length function; `load` has no cost effect and
/// therefore costs 0 under action costs.
fn roads() -> (Domain, Problem) {
    let place: &[&str] = &["place"];
    let mut drive = action(
        "drive",
        &[("?from", place), ("?to", place)],
        &["at ?from", "road ?from ?to"],
        &["at ?to"],
        &["at ?from"],
    );
    drive.costs = vec![
        CostExpr::Function {
            name: "road-length".to_string(),
            args: vec![Term::Variable("?from".to_string()), Term::Variable("?to".to_string())],
            location: NOWHERE,
        },
        CostExpr::Constant(1),
    ];
    let load = action("load", &[("?p", place)], &["at ?p"], &["loaded"], &[]);
    let d = domain(&[("place", &["object"])], Vec::new(), vec![drive, load]);
    let mut p = problem(
        vec![typed("x", place), typed("y", place), typed("z", place)],
        &["at x", "road x y", "road y z", "road z x"],
        &["at z", "loaded"],
    );
    let length = |a: &str, b: &str, value| NumericFact {
        function: "road-length".to_string(),
        args: vec![a.to_string(), b.to_string()],
        value,
        location: NOWHERE,
    };
    p.numeric_init = vec![length("x", "y", 5), length("y", "z", 7)];
    p.minimize_total_cost = true;
    (d, p)
}

#[test]
fn action_costs_are_summed() {
    let (d, p) = roads();
    // (5 + 1) + 0 + (7 + 1)
    let result = validate(&d, &p, &plan("(drive x y)\n(load y)\n(drive y z)\n"));
    assert_eq!(result, Ok(Validation { length: 3, cost: 14 }));
    assert!(uses_action_costs(&d, &p));
}

#[test]
fn action_costs_apply_without_a_metric_too() {
    let (d, mut p) = roads();
    p.minimize_total_cost = false;
    let result = validate(&d, &p, &plan("(drive x y)\n(load y)\n(drive y z)\n"));
    assert_eq!(result, Ok(Validation { length: 3, cost: 14 }));
}

#[test]
fn missing_cost_value_is_reported() {
    let (d, mut p) = roads();
    p.goal = goals(&["at x"]);
    let result = validate(&d, &p, &plan("(drive x y)\n(drive y z)\n(drive z x)\n"));
    assert_eq!(
        result,
        Err(InvalidPlan::UndefinedCost {
            step: 3,
            action: "drive".to_string(),
            term: "(road-length z x)".to_string()
        })
    );
}

#[test]
fn negative_cost_is_reported() {
    let (mut d, p) = roads();
    d.actions[1].costs = vec![CostExpr::Constant(-3)];
    assert!(matches!(
        validate(&d, &p, &plan("(load x)")),
        Err(InvalidPlan::NegativeCost { step: 1, cost: -3, .. })
    ));
}

#[test]
fn parses_the_ipc_format_with_its_quirks() {
    let text = "; a plan\n\n0: (MOVE A B) [1]\n1.5: (Stack b c);done\n(noop)   (go x y z) ; two on a line\n";
    let p = plan(text);
    let steps: Vec<(String, Vec<String>)> = p.steps.iter().map(|s| (s.action.clone(), s.args.clone())).collect();
    let expected = vec![
        ("move", vec!["a", "b"]),
        ("stack", vec!["b", "c"]),
        ("noop", vec![]),
        ("go", vec!["x", "y", "z"]),
    ];
    let expected: Vec<(String, Vec<String>)> = expected
        .into_iter()
        .map(|(a, args)| (a.to_string(), args.into_iter().map(str::to_string).collect()))
        .collect();
    assert_eq!(steps, expected);
    assert_eq!(p.steps[0].location, Location { line: 3, col: 4 });
    assert_eq!(p.steps[1].location, Location { line: 4, col: 6 });
    assert_eq!(p.steps[3].location, Location { line: 5, col: 10 });
}

#[test]
fn comments_only_is_an_empty_plan() {
    assert_eq!(plan("; nothing\n;; at all\n\n"), Plan::default());
    assert_eq!(plan(""), Plan::default());
}

fn parse_error(text: &str) -> PlanParseError {
    match parse_plan(text, "bad.plan") {
        Ok(p) => panic!("{text:?} should not parse, got {p:?}"),
        Err(e) => e,
    }
}

#[test]
fn syntax_errors_name_the_place_and_what_was_expected() {
    let e = parse_error("(a b)\n  move a b)\n");
    assert_eq!(
        e.to_string(),
        "bad.plan:2:3: expected `(` to start a plan step, found `move`"
    );
    let e = parse_error("(a b)\n(move a\n");
    assert_eq!(
        e.to_string(),
        "bad.plan:3:1: expected `)` to close the step opened at 2:1, found end of file"
    );
    let e = parse_error("()");
    assert_eq!(e.to_string(), "bad.plan:1:2: expected an action name, found `)`");
    let e = parse_error("(move (a) b)");
    assert_eq!(e.to_string(), "bad.plan:1:7: expected an object name or `)`, found `(`");
    let e = parse_error("(move a) [x]");
    assert_eq!(e.to_string(), "bad.plan:1:11: expected a duration number, found `x`");
    let e = parse_error("(move a) [1");
    assert_eq!(e.to_string(), "bad.plan:1:12: expected `]`, found end of file");
    let e = parse_error("(a)\n3:");
    assert_eq!(
        e.to_string(),
        "bad.plan:2:3: expected `(` after the time stamp `3:`, found end of file"
    );
    let e = parse_error(")");
    assert_eq!(e.location, Location { line: 1, col: 1 });
}

#[test]
fn reading_costs_neither_recursion_nor_a_pass_per_step() {
    // Refused at the second `(`, without reading on.
    let e = parse_error(&"(".repeat(1_000_000));
    assert_eq!(e.to_string(), "bad.plan:1:2: expected an action name, found `(`");
    // Many steps on one line: places are counted in one pass.
    let line = "(a b) ".repeat(50_000);
    let p = plan(&line);
    assert_eq!(p.steps.len(), 50_000);
    assert_eq!(p.steps[49_999].location, Location { line: 1, col: 299_995 });
}

#[test]
fn format_then_parse_round_trips() {
    let (d, p) = blocks();
    let original = plan(BLOCKS_PLAN);
    let validation = validate(&d, &p, &original).ok();
    assert_eq!(validation, Some(Validation { length: 4, cost: 4 }));
    let text = format_plan(&original, 4, true);
    assert!(text.ends_with("; cost = 4 (unit cost)\n"));
    let reread = plan(&text);
    let strip = |p: &Plan| -> Vec<(String, Vec<String>)> {
        p.steps.iter().map(|s| (s.action.clone(), s.args.clone())).collect()
    };
    assert_eq!(strip(&reread), strip(&original));
    assert_eq!(reread.steps.len(), 4);
    assert_eq!(plan(&format_plan(&Plan::default(), 0, false)), Plan::default());
}

#[test]
fn reader_never_panics() {
    // A small deterministic fuzz over the characters that matter.
    let alphabet: Vec<char> = "()[];:.0 1a\nB\té-?".chars().collect();
    let mut rng = Rng::new(0x9E37_79B9_7F4A_7C15);
    let mut parsed = 0;
    let (d, pr) = blocks();
    for _ in 0..3000 {
        let mut text = String::new();
        let len = rng.below(24) as usize;
        for _ in 0..len {
            text.push(alphabet[rng.below_usize(alphabet.len())]);
        }
        if let Ok(p) = parse_plan(&text, "fuzz") {
            parsed += 1;
            // Whatever parses must survive validation against a domain.
            let _ = validate(&d, &pr, &p);
        }
    }
    assert!(parsed > 0, "the fuzz alphabet should produce some valid plans");
}
