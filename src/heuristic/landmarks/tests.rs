//! The landmark graphs of small logistics tasks, written down by hand.

use super::*;
use crate::task::invariants::tests::TaskBuilder;

const LOCATIONS: [&str; 3] = ["A", "B", "C"];

/// Trucks drive between locations A, B and C (all connected) and carry one
/// package `p` from `B` to `C`; `trucks` are (name, start location).
pub(crate) fn logistics(trucks: &[(&str, &str)]) -> Task {
    let mut b = TaskBuilder::new();
    for &(t, _) in trucks {
        for x in LOCATIONS {
            for y in LOCATIONS.iter().filter(|&&y| y != x) {
                let (at_x, at_y) = (b.id("at", &[t, x]), b.id("at", &[t, y]));
                b.op("drive", &[t, x, y], vec![at_x], vec![at_y], vec![at_x]);
            }
        }
        for x in LOCATIONS {
            let (truck_at, p_at, p_in) = (b.id("at", &[t, x]), b.id("at", &["p", x]), b.id("in", &["p", t]));
            b.op("load", &[t, x], vec![truck_at, p_at], vec![p_in], vec![p_at]);
            b.op("unload", &[t, x], vec![truck_at, p_in], vec![p_at], vec![p_in]);
        }
    }
    let mut init: Vec<FactId> = trucks.iter().map(|&(t, l)| b.id("at", &[t, l])).collect();
    init.push(b.id("at", &["p", "B"]));
    let goal = vec![b.id("at", &["p", "C"])];
    b.build(init, goal)
}

/// The id of the fact printed as `name`.
pub(crate) fn fact(task: &Task, name: &str) -> FactId {
    task.facts
        .iter()
        .position(|f| f.to_string() == name)
        .expect("fact exists") as FactId
}

/// A landmark's fact `f` as printed: `not f` in a negated landmark.
fn fact_name(task: &Task, lm: &Landmark, f: FactId) -> String {
    let name = task.facts[f as usize].to_string();
    if lm.negated { format!("not {name}") } else { name }
}

/// The landmarks as sorted lists of fact names, each list sorted.
fn landmark_names(task: &Task, graph: &LandmarkGraph) -> Vec<Vec<String>> {
    let mut all: Vec<Vec<String>> = graph
        .landmarks()
        .iter()
        .map(|lm| {
            let mut names: Vec<String> = lm.facts.iter().map(|&f| fact_name(task, lm, f)).collect();
            names.sort();
            names
        })
        .collect();
    all.sort();
    all
}

/// The orderings as (from, to, kind), landmarks named by their first fact.
/// An ordering as [`ordering_names`] writes it.
fn ord(from: &str, to: &str, kind: OrderingKind) -> (String, String, OrderingKind) {
    (from.to_string(), to.to_string(), kind)
}

fn ordering_names(task: &Task, graph: &LandmarkGraph) -> Vec<(String, String, OrderingKind)> {
    let name = |id: LandmarkId| {
        let lm = &graph.landmarks()[id as usize];
        fact_name(task, lm, lm.facts[0])
    };
    let mut all: Vec<_> = graph
        .orderings()
        .iter()
        .map(|o| (name(o.from), name(o.to), o.kind))
        .collect();
    all.sort();
    all
}

fn strings(names: &[&str]) -> Vec<String> {
    names.iter().map(|s| s.to_string()).collect()
}

#[test]
fn one_truck_the_landmarks_and_orderings_written_down_by_hand() {
    // The truck starts at A; the package waits at B and must go to C.
    let task = logistics(&[("t", "A")]);
    let graph = LandmarkGraph::build(&task);
    // The goal; the truck at C and the package in it (needed by the one
    // unload at C); the truck at B and the package at B (needed by the only
    // load that can come first, the one at B). The truck's drives to C or B
    // share no precondition, and the disjunctions of their starting points
    // contain the truck's initial location, so they give no landmark.
    assert_eq!(
        landmark_names(&task, &graph),
        vec![
            strings(&["(at p B)"]),
            strings(&["(at p C)"]),
            strings(&["(at t B)"]),
            strings(&["(at t C)"]),
            strings(&["(in p t)"]),
        ]
    );
    use OrderingKind::*;
    assert_eq!(
        ordering_names(&task, &graph),
        vec![
            // Loading at B needs the package and the truck there.
            ord("(at p B)", "(in p t)", GreedyNecessary),
            // Without driving to B the package never gets anywhere.
            ord("(at t B)", "(at p C)", Natural),
            // Driving to C moves the truck away from B, where it must be for the load.
            ord("(at t B)", "(at t C)", Reasonable),
            ord("(at t B)", "(in p t)", GreedyNecessary),
            // Unloading at C needs the truck there and the package in it.
            ord("(at t C)", "(at p C)", GreedyNecessary),
            ord("(in p t)", "(at p C)", GreedyNecessary),
            // The truck is at B right before the load, so driving to C
            // before loading means driving to C again.
            ord("(in p t)", "(at t C)", Reasonable),
        ]
    );
    let goal = graph.landmark_of(task.goal[0]).expect("the goal is a landmark");
    assert!(graph.landmarks()[goal as usize].is_goal);
    let in_truck = &graph.landmarks()[graph.landmark_of(fact(&task, "(in p t)")).expect("a landmark") as usize];
    // Only the load at B can put the package in the truck first.
    let first: Vec<String> = in_truck
        .first_achievers
        .iter()
        .map(|&op| task.operators[op as usize].name())
        .collect();
    assert_eq!(first, strings(&["(load t B)"]));
    assert_eq!(in_truck.achievers.len(), 3);
}

#[test]
fn two_trucks_give_disjunctive_landmarks() {
    // Truck t1 starts at A, t2 at C. Either truck can do the job, so the
    // package must be in one of them, and one of them must come to B.
    let task = logistics(&[("t1", "A"), ("t2", "C")]);
    let graph = LandmarkGraph::build(&task);
    assert_eq!(
        landmark_names(&task, &graph),
        vec![
            strings(&["(at p B)"]),
            strings(&["(at p C)"]),
            strings(&["(at t1 B)", "(at t2 B)"]),
            strings(&["(in p t1)", "(in p t2)"]),
        ]
    );
    use OrderingKind::*;
    assert_eq!(
        ordering_names(&task, &graph),
        vec![
            ord("(at p B)", "(in p t1)", GreedyNecessary),
            ord("(at t1 B)", "(at p C)", Natural),
            ord("(at t1 B)", "(in p t1)", GreedyNecessary),
            ord("(in p t1)", "(at p C)", GreedyNecessary),
        ]
    );
    // The trucks' positions at C are no landmark: t2 is there already.
    assert!(graph.landmarks().iter().all(|lm| lm.facts.len() <= MAX_DISJUNCTION));
}

#[test]
fn cycles_are_broken_by_dropping_the_weakest_ordering() {
    use OrderingKind::*;
    let o = |from, to, kind| Ordering { from, to, kind };
    // 0 →gn 1 →nat 2 →r 0 and 2 →r 1: both reasonable ones close a cycle.
    let (kept, dropped) = orderings::without_cycles(
        3,
        vec![
            o(2, 0, Reasonable),
            o(0, 1, GreedyNecessary),
            o(1, 2, Natural),
            o(2, 1, Reasonable),
        ],
    );
    assert_eq!(dropped, 2);
    assert_eq!(kept, vec![o(0, 1, GreedyNecessary), o(1, 2, Natural)]);
}

#[test]
fn a_goal_true_initially_is_a_landmark_without_first_achievers() {
    let mut task = logistics(&[("t", "A")]);
    let p_at_b = task.init[task.init.len() - 1];
    task.goal = vec![p_at_b];
    let graph = LandmarkGraph::build(&task);
    assert_eq!(graph.len(), 1);
    let lm = &graph.landmarks()[0];
    assert!(lm.is_goal && lm.true_initially && lm.first_achievers.is_empty());
    assert!(graph.orderings().is_empty());
}

#[test]
fn a_chokepoint_of_a_transition_graph_is_a_landmark() {
    // A truck drives A → B, from B to any of C1..C5, and from each of those
    // to E. The drives into E share no precondition, and the disjunction of
    // their sources is too large to keep; but every way to E passes B.
    let mut b = TaskBuilder::new();
    let drive = |b: &mut TaskBuilder, x: &str, y: &str| {
        let (at_x, at_y) = (b.id("at", &["t", x]), b.id("at", &["t", y]));
        b.op("drive", &["t", x, y], vec![at_x], vec![at_y], vec![at_x]);
    };
    drive(&mut b, "A", "B");
    for c in ["C1", "C2", "C3", "C4", "C5"] {
        drive(&mut b, "B", c);
        drive(&mut b, c, "E");
    }
    let (a, e) = (b.id("at", &["t", "A"]), b.id("at", &["t", "E"]));
    let task = b.build(vec![a], vec![e]);
    let graph = LandmarkGraph::build(&task);
    // (at t A) comes in as the precondition of the one drive to B.
    assert_eq!(
        landmark_names(&task, &graph),
        vec![strings(&["(at t A)"]), strings(&["(at t B)"]), strings(&["(at t E)"])]
    );
    assert_eq!(
        ordering_names(&task, &graph),
        vec![
            ord("(at t A)", "(at t B)", OrderingKind::GreedyNecessary),
            ord("(at t B)", "(at t E)", OrderingKind::Natural),
        ]
    );
}

/// Facts a = 0, b = 1, c = 2; d = 3 is derived, d :- b, c. Operators:
/// op0 a → b, op1 b → c (deleting nothing), op2 a → c. The goal is d.
pub(crate) fn derived_goal_task() -> Task {
    use crate::task::testing::{task, with_axioms};
    let ops: [crate::task::testing::OpSpec; 3] = [
        (&[0], &[], &[1], &[], 1),
        (&[1], &[], &[2], &[], 1),
        (&[0], &[], &[2], &[], 1),
    ];
    with_axioms(task(4, &ops, &[0], &[3], &[]), &[&[(3, &[1, 2], &[])]])
}

#[test]
fn the_rules_of_a_derived_landmark_are_its_achievers() {
    // d is made true by its rule alone, so every fact the rule needs is a
    // landmark greedy-necessarily before d; b is needed for c only on one
    // of c's two ways, so c has no landmark of its own.
    let task = derived_goal_task();
    let graph = LandmarkGraph::build(&task);
    assert_eq!(
        landmark_names(&task, &graph),
        vec![
            strings(&["(p0)"]),
            strings(&["(p1)"]),
            strings(&["(p2)"]),
            strings(&["(p3)"])
        ]
    );
    use OrderingKind::*;
    assert_eq!(
        ordering_names(&task, &graph),
        vec![
            ord("(p0)", "(p1)", GreedyNecessary),
            ord("(p1)", "(p3)", GreedyNecessary),
            ord("(p2)", "(p3)", GreedyNecessary),
        ]
    );
    let d = &graph.landmarks()[graph.landmark_of(3).expect("the goal is a landmark") as usize];
    assert!(d.is_goal && d.derived && d.achievers.is_empty() && d.first_achievers.is_empty());
    let c = &graph.landmarks()[graph.landmark_of(2).expect("a landmark") as usize];
    assert!(!c.derived && c.achievers == vec![1, 2]);
}

#[test]
fn a_derived_fact_true_initially_counts_as_true_initially() {
    use crate::task::testing::{task, with_axioms};
    // p0 holds initially, and so does p1, derived from it (p1 :- p0). The
    // goal p2 needs p1 false, so p0 must be deleted first: "not p1" is a
    // landmark to achieve, not one true initially, and its rule needs
    // "not p0".
    let ops: [crate::task::testing::OpSpec; 2] = [(&[], &[1], &[2], &[], 1), (&[], &[], &[], &[0], 1)];
    let task = with_axioms(task(3, &ops, &[0], &[2], &[]), &[&[(1, &[0], &[])]]);
    let graph = LandmarkGraph::build(&task);
    assert_eq!(
        landmark_names(&task, &graph),
        vec![strings(&["(p2)"]), strings(&["not (p0)"]), strings(&["not (p1)"])]
    );
    use OrderingKind::*;
    assert_eq!(
        ordering_names(&task, &graph),
        vec![
            ord("not (p0)", "(p2)", Natural),
            ord("not (p0)", "not (p1)", GreedyNecessary),
            ord("not (p1)", "(p2)", GreedyNecessary),
        ]
    );
    assert!(graph.landmarks().iter().all(|lm| !lm.true_initially));
}

/// One walks from the hall into a room whose door is locked; the key opens
/// it, and can lock it again. `enter` needs the door *not* locked.
pub(crate) fn locked_door() -> Task {
    let mut b = TaskBuilder::new();
    let (hall, room, locked, key) = (
        b.id("in", &["hall"]),
        b.id("in", &["room"]),
        b.id("locked", &[]),
        b.id("key", &[]),
    );
    b.op("get-key", &[], vec![], vec![key], vec![]);
    b.op("unlock", &[], vec![key], vec![], vec![locked]);
    b.op("lock", &[], vec![key], vec![locked], vec![]);
    b.op("enter", &[], vec![hall], vec![room], vec![hall]);
    b.ops.last_mut().expect("enter").pre_neg = vec![locked];
    b.build(vec![hall, locked], vec![room])
}

#[test]
fn a_negative_precondition_every_first_achiever_shares_is_a_negated_landmark() {
    let task = locked_door();
    let graph = LandmarkGraph::build(&task);
    assert_eq!(
        landmark_names(&task, &graph),
        vec![
            strings(&["(in hall)"]),
            strings(&["(in room)"]),
            strings(&["(key)"]),
            strings(&["not (locked)"]),
        ]
    );
    use OrderingKind::*;
    assert_eq!(
        ordering_names(&task, &graph),
        vec![
            ord("(in hall)", "(in room)", GreedyNecessary),
            // Without the key the door stays locked and the room out of reach.
            ord("(key)", "(in room)", Natural),
            // Unlocking, the one way to make the door not locked, needs the key.
            ord("(key)", "not (locked)", GreedyNecessary),
            ord("not (locked)", "(in room)", GreedyNecessary),
        ]
    );
    let unlocked = graph
        .landmarks()
        .iter()
        .find(|lm| lm.negated)
        .expect("a negated landmark");
    assert!(!unlocked.true_initially && !unlocked.is_goal && !unlocked.is_disjunctive());
    let names = |ops: &[OpId]| -> Vec<String> { ops.iter().map(|&o| task.operators[o as usize].name()).collect() };
    assert_eq!(names(&unlocked.achievers), strings(&["(unlock)"]));
    assert_eq!(names(&unlocked.first_achievers), strings(&["(unlock)"]));
    assert_eq!(graph.landmark_of(fact(&task, "(locked)")), None);
    assert!(
        graph
            .summary()
            .starts_with("Landmarks: 4 (0 disjunctive, 1 negated), orderings: 4 ")
    );
}

#[test]
fn a_goal_true_initially_that_a_landmark_destroys_is_ordered_after_it() {
    // p holds initially and is a goal; q, the other goal, is only made by
    // an operator that deletes p, so p must be achieved again after q.
    let mut b = TaskBuilder::new();
    let (p, q) = (b.id("p", &[]), b.id("q", &[]));
    b.op("make-q", &[], vec![], vec![q], vec![p]);
    b.op("make-p", &[], vec![], vec![p], vec![]);
    let task = b.build(vec![p], vec![p, q]);
    let graph = LandmarkGraph::build(&task);
    assert_eq!(
        landmark_names(&task, &graph),
        vec![strings(&["(p)"]), strings(&["(q)"])]
    );
    assert_eq!(
        ordering_names(&task, &graph),
        vec![ord("(q)", "(p)", OrderingKind::Reasonable)]
    );
}
