//! Input that must be refused with its place (`file:line:col`), and plans
//! whose reading must not grow with a line's length.

use std::path::Path;

#[path = "asp_common.rs"]
mod common;

use common::{code, corvus, data, measured, scratch, stderr, stdout};

const BLOCKS: &str = "problems/ipc/blocks/domain.pddl";
const BLOCKS_4: &str = "problems/ipc/blocks/probBLOCKS-4-0.pddl";
const ROADS: &str = "tests/data/roads-domain.pddl";
const ROADS_DETOUR: &str = "tests/data/roads-detour.pddl";

/// `original` with `from` replaced by `to` (which must occur), written to
/// `dir/name`.
fn edited(dir: &Path, original: &str, from: &str, to: &str, name: &str) -> String {
    let text = std::fs::read_to_string(data(original)).expect("read");
    assert!(text.contains(from), "{from:?} not in {original}");
    let path = dir.join(name);
    std::fs::write(&path, text.replacen(from, to, 1)).expect("write");
    path.display().to_string()
}

fn written(dir: &Path, name: &str, text: impl AsRef<[u8]>) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).expect("write");
    path.display().to_string()
}

/// Runs `solve` and expects an input error (31) whose message starts with
/// `place` (`name.pddl:L:C: `) and contains `says`.
fn refused(domain: &str, problem: &str, place: &str, says: &str) {
    let out = corvus(&["solve", domain, problem, "--plan-file", "-"]);
    let err = stderr(&out);
    assert_eq!(code(&out), 31, "{err}");
    assert!(
        err.contains(place) && err.contains(says),
        "expected {place:?} and {says:?} in: {err}"
    );
    assert!(!stdout(&out).contains('('), "no plan: {}", stdout(&out));
}

const SMALL_DOMAIN: &str = "(define (domain d)
  (:predicates (p ?x) (q ?x ?y))
  (:action a :parameters (?x)
    :precondition (q ?x ?x)
    :effect (p ?x)))
";
const SMALL_PROBLEM: &str = "(define (problem pp) (:domain d) (:objects o)
  (:init (q o o)) (:goal (p o)))
";

#[test]
fn a_second_goal_is_refused_where_it_stands() {
    let dir = scratch("refuse-goals");
    // The second goal is empty: were it to win, the empty plan would pass.
    let problem = edited(
        &dir,
        BLOCKS_4,
        "(:goal (AND (ON D C) (ON C B) (ON B A)))",
        "(:goal (AND (ON D C) (ON C B) (ON B A)))\n(:goal (and))",
        "two-goals.pddl",
    );
    refused(
        &data(BLOCKS),
        &problem,
        "two-goals.pddl:7:1: ",
        "a second `(:goal ...)`; the problem's goal is at 6:1",
    );
}

#[test]
fn a_repeated_parameter_or_quantified_variable_is_refused() {
    let dir = scratch("refuse-params");
    let domain = edited(&dir, BLOCKS, ":parameters (?x)", ":parameters (?x ?x)", "action.pddl");
    refused(
        &domain,
        &data(BLOCKS_4),
        "action.pddl:15:23: ",
        "parameter `?x` is declared twice (first at 15:20)",
    );
    let problem = written(&dir, "p.pddl", SMALL_PROBLEM);
    let exists = SMALL_DOMAIN.replace("(q ?x ?x)", "(exists (?y ?y) (q ?x ?y))");
    refused(
        &written(&dir, "exists.pddl", exists),
        &problem,
        "exists.pddl:4:31: ",
        "variable `?y` is declared twice (first at 4:28)",
    );
    let forall = SMALL_DOMAIN.replace(":effect (p ?x)", ":effect (forall (?z ?z) (p ?z))");
    refused(
        &written(&dir, "forall.pddl", forall),
        &problem,
        "forall.pddl:5:25: ",
        "variable `?z` is declared twice (first at 5:22)",
    );
}

#[test]
fn a_predicate_declared_twice_is_refused_with_either_arity() {
    let dir = scratch("refuse-predicates");
    let problem = written(&dir, "p.pddl", SMALL_PROBLEM);
    for (name, second) in [("other-arity.pddl", "(p ?x ?y)"), ("same-arity.pddl", "(p ?y)")] {
        let domain = SMALL_DOMAIN.replace("(q ?x ?y))", &format!("(q ?x ?y) {second})"));
        refused(
            &written(&dir, name, domain),
            &problem,
            &format!("{name}:2:33: "),
            "predicate `p` is declared twice (first at 2:16)",
        );
    }
}

#[test]
fn negative_non_finite_and_missing_action_costs_are_input_errors() {
    let dir = scratch("refuse-costs");
    let roads = data(ROADS);
    let detour = data(ROADS_DETOUR);
    let value = "(= (road-length a b) 1)";
    let negative = edited(&dir, ROADS_DETOUR, value, "(= (road-length a b) -1)", "negative.pddl");
    refused(
        &roads,
        &negative,
        "negative.pddl:9:21: ",
        "`(road-length a b)` is an action cost: expected a finite number >= 0, found -1",
    );
    for word in ["nan", "inf", "NaN", "Infinity"] {
        let problem = edited(
            &dir,
            ROADS_DETOUR,
            value,
            &format!("(= (road-length a b) {word})"),
            "nan.pddl",
        );
        let found = format!("expected a finite number >= 0, found `{}`", word.to_lowercase());
        refused(&roads, &problem, "nan.pddl:9:42: ", &found);
    }
    let increase = "(increase (total-cost) (road-length ?from ?to))";
    let domain = edited(
        &dir,
        ROADS,
        increase,
        "(increase (total-cost) -3)",
        "negative-domain.pddl",
    );
    refused(
        &domain,
        &detour,
        "negative-domain.pddl:11:41: ",
        "expected an action cost (a finite number >= 0), found -3",
    );
    let domain = edited(&dir, ROADS, increase, "(increase (total-cost) inf)", "inf-domain.pddl");
    refused(
        &domain,
        &detour,
        "inf-domain.pddl:11:41: ",
        "expected an action cost (a finite number >= 0), found `inf`",
    );
    // No value at all for the function an action's cost uses: refused at
    // `:init`, naming the use.
    let without = "(define (problem no-lengths) (:domain roads)
  (:objects a g - city)
  (:init (at a) (road a g))
  (:goal (at g)))
";
    refused(
        &roads,
        &written(&dir, "no-lengths.pddl", without),
        "no-lengths.pddl:3:3: ",
        "no value in `:init` for `(road-length ?from ?to)`, the cost of action `drive` (domain 11:41)",
    );
    // A value missing for one road that a reachable drive takes: only
    // grounding knows it is needed; refused at the cost in the domain.
    let problem = edited(&dir, ROADS_DETOUR, "(= (road-length c g) 1)", "", "one-missing.pddl");
    refused(
        &roads,
        &problem,
        "roads-domain.pddl:11:41: ",
        "the cost of action drive needs (road-length c g), which the problem's :init gives no value",
    );
    // `(total-cost)` needs no initial value: it starts at 0.
    let problem = edited(&dir, ROADS_DETOUR, "(= (total-cost) 0)", "", "no-total.pddl");
    let out = corvus(&["solve", &roads, &problem, "--plan-file", "-"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
}

#[test]
fn text_that_is_not_utf8_is_refused_at_its_first_bad_byte() {
    let dir = scratch("refuse-utf8");
    let domain = written(
        &dir,
        "latin1.pddl",
        b"(define (domain d)\n  (:predicates (p ?x))\n  ; caf\xe9\n)\n".as_slice(),
    );
    refused(
        &domain,
        &data(BLOCKS_4),
        "latin1.pddl:3:8: ",
        "expected UTF-8 text, found the byte 0xE9",
    );
    let plan = written(&dir, "bad.plan", b"(pick-up a)\n(st\xffack a b)\n".as_slice());
    let out = corvus(&["validate", &data(BLOCKS), &data(BLOCKS_4), &plan]);
    assert_eq!(code(&out), 31, "{}", stderr(&out));
    assert!(
        stderr(&out).contains("bad.plan:2:4: expected UTF-8 text, found the byte 0xFF"),
        "{}",
        stderr(&out)
    );
}

/// The exit code, stdout and peak resident set size of `corvus args`.
fn peak_of(args: &[&str]) -> (Option<i32>, String, u64) {
    let run = measured(Path::new("."), args, None);
    (run.code, run.stdout, run.peak_rss)
}

#[test]
fn validate_memory_follows_the_task_not_the_length_of_a_line() {
    const MIB: u64 = 1 << 20;
    let dir = scratch("validate-lines");
    let validate = |plan: &str| peak_of(&["validate", &data(BLOCKS), &data(BLOCKS_4), plan]);
    // One step with 5 million arguments (10 MB): 678 MB before, when every
    // argument was a token and a string.
    let text = format!("(stack{})\n", " a".repeat(5_000_000));
    let (exit, out, peak) = validate(&written(&dir, "args.plan", &text));
    assert_eq!(exit, Some(1), "{out}");
    assert!(out.contains("step 1: `stack` takes 2 arguments, got 5000000"), "{out}");
    assert!(peak < 3 * text.len() as u64, "peak {} MB", peak / MIB);
    // An unknown action name of 10 MB is quoted by a short prefix.
    let text = format!("(pick-up a)\n({} a b)\n", "x".repeat(10_000_000));
    let (exit, out, peak) = validate(&written(&dir, "name.plan", &text));
    assert_eq!(exit, Some(1), "{out}");
    let expected = format!("step 2: unknown action `{}...`", "x".repeat(60));
    assert!(
        out.contains(&expected) && out.len() < 200,
        "{}",
        &out[..out.len().min(300)]
    );
    assert!(peak < 3 * text.len() as u64, "peak {} MB", peak / MIB);
    // So is an object, and a syntax error later in the file still wins.
    let text = format!("(pick-up {})\n(stack a b\n", "o".repeat(1_000));
    let out = corvus(&[
        "validate",
        &data(BLOCKS),
        &data(BLOCKS_4),
        &written(&dir, "object.plan", &text),
    ]);
    assert_eq!(code(&out), 31, "{}", stderr(&out));
    assert!(
        stderr(&out).contains("object.plan:3:1: expected `)` to close the step opened at 2:1"),
        "{}",
        stderr(&out)
    );
    let text = format!("(pick-up {})\n", "o".repeat(1_000));
    let out = corvus(&[
        "validate",
        &data(BLOCKS),
        &data(BLOCKS_4),
        &written(&dir, "object.plan", &text),
    ]);
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    let expected = format!("step 1: unknown object `{}...`", "o".repeat(60));
    assert!(stdout(&out).contains(&expected), "{}", stdout(&out));
}
