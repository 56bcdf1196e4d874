//! Landmark-count values on small tasks, computed by hand, and its
//! properties on every reachable state of small and random tasks.

use std::collections::{HashMap, VecDeque};

use super::*;
use crate::heuristic::cost_type::CostType;
use crate::heuristic::landmarks::tests::{fact, locked_door, logistics};
use crate::task::state::StateBuf;
use crate::rng::Lcg;
use crate::task::testing::{OpSpec, cond, perfect_costs, random_adl_task, random_task, task};

/// Plays the search's part: registers states, notifies the heuristic of
/// every transition and evaluates nodes.
struct Walk<'t> {
    task: &'t Task,
    h: LandmarkCount,
    ids: HashMap<StateBuf, StateId>,
    state: StateBuf,
    id: StateId,
}

impl<'t> Walk<'t> {
    fn new(task: &'t Task) -> Self {
        let mut h = LandmarkCount::new(task);
        let state = task.initial_state();
        h.notify_initial(0, state.bits());
        let ids = HashMap::from([(state.clone(), 0)]);
        Walk { task, h, ids, state, id: 0 }
    }

    fn op(&self, name: &str) -> OpId {
        self.task.operators.iter().position(|o| o.name() == name).expect("operator exists") as OpId
    }

    /// Applies the operator named `name` and moves to the successor.
    fn step(&mut self, name: &str) -> &mut Self {
        let op = self.op(name);
        let o = &self.task.operators[op as usize];
        assert!(o.is_applicable(self.state.bits()), "{name} applies");
        let mut next = self.state.clone();
        self.task.apply_into(o, self.state.bits(), next.bits_mut());
        let fresh = self.ids.len() as StateId;
        let id = *self.ids.entry(next.clone()).or_insert(fresh);
        self.h.notify_transition(self.id, self.state.bits(), op, id, next.bits());
        self.state = next;
        self.id = id;
        self
    }

    fn back_to_start(&mut self) -> &mut Self {
        self.state = self.task.initial_state();
        self.id = 0;
        self
    }

    fn h(&mut self) -> Estimate {
        self.h.evaluate_node(self.id, self.state.bits())
    }

    fn preferred(&mut self) -> Vec<String> {
        self.h();
        let mut names: Vec<String> = self
            .h
            .preferred_operators()
            .iter()
            .map(|&o| self.task.operators[o as usize].name())
            .collect();
        names.sort();
        names
    }

    /// The reached landmarks of the current state, by their first fact.
    fn reached(&self) -> Vec<String> {
        let graph = self.h.graph();
        let mut names: Vec<String> = self
            .h
            .reached_of(self.id)
            .expect("notified")
            .iter()
            .map(|&l| self.task.facts[graph.landmarks()[l as usize].facts[0] as usize].to_string())
            .collect();
        names.sort();
        names
    }
}

#[test]
fn one_truck_counts_down_along_the_plan() {
    // Landmarks: (at p B) (true initially), (at t B), (in p t), (at t C),
    // (at p C); see the landmark graph's tests for the orderings.
    let task = logistics(&[("t", "A")]);
    let mut walk = Walk::new(&task);
    assert_eq!(walk.h(), Some(4));
    // Driving to B is the only move that reaches a landmark whose
    // predecessors are reached; driving to C first is reasonably ordered
    // after both the truck at B and the package in it.
    assert_eq!(walk.preferred(), vec!["(drive t A B)"]);
    assert_eq!(walk.step("(drive t A B)").h(), Some(3));
    assert_eq!(walk.preferred(), vec!["(load t B)"]);
    assert_eq!(walk.step("(load t B)").h(), Some(2));
    // (at p B) and (at t B) are false now but nothing not yet reached needs
    // them right before it: not needed again.
    assert_eq!(walk.preferred(), vec!["(drive t B C)"]);
    assert_eq!(walk.step("(drive t B C)").h(), Some(1));
    assert_eq!(walk.preferred(), vec!["(unload t C)"]);
    assert_eq!(walk.step("(unload t C)").h(), Some(0));
    assert!(task.is_goal(walk.state.bits()));
    assert!(walk.preferred().is_empty());
}

#[test]
fn a_landmark_reached_too_early_is_not_counted_until_its_predecessors_are() {
    let task = logistics(&[("t", "A")]);
    let mut walk = Walk::new(&task);
    // The truck at C before it was at B: (at t C) holds but is not reached.
    assert_eq!(walk.step("(drive t A C)").h(), Some(4));
    assert_eq!(walk.reached(), vec!["(at p B)"]);
    assert_eq!(walk.step("(drive t C B)").h(), Some(3));
    assert_eq!(walk.step("(load t B)").h(), Some(2));
    assert_eq!(walk.step("(drive t B C)").h(), Some(1));
    assert_eq!(walk.step("(unload t C)").h(), Some(0));
}

#[test]
fn a_landmark_needed_again_counts() {
    let task = logistics(&[("t", "A")]);
    let mut walk = Walk::new(&task);
    walk.step("(drive t A B)").step("(load t B)").step("(drive t B C)");
    // Back at A with the package unloaded there: (in p t) and (at t C) were
    // reached, are false now and must hold right before (at p C), which is
    // not reached: 1 + 2.
    assert_eq!(walk.step("(drive t C A)").step("(unload t A)").h(), Some(3));
    // No applicable operator achieves (at p C): the relaxed plan to it
    // loads at A and drives to C.
    assert_eq!(walk.preferred(), vec!["(drive t A C)", "(load t A)"]);
}

#[test]
fn a_door_locked_again_counts_its_negated_landmark_again() {
    // Landmarks: (in room), (key), "not (locked)" unreached; (in hall)
    // reached.
    let task = locked_door();
    let mut walk = Walk::new(&task);
    assert_eq!(walk.h(), Some(3));
    // The key is the one landmark whose predecessors are all reached.
    assert_eq!(walk.preferred(), vec!["(get-key)"]);
    assert_eq!(walk.step("(get-key)").h(), Some(2));
    assert_eq!(walk.preferred(), vec!["(unlock)"]);
    assert_eq!(walk.step("(unlock)").h(), Some(1));
    // Locked again before entering: the door must be unlocked again,
    // since it must be right before the room is first entered.
    assert_eq!(walk.step("(lock)").h(), Some(2));
    assert_eq!(walk.preferred(), vec!["(unlock)"]);
    assert_eq!(walk.step("(unlock)").h(), Some(1));
    assert_eq!(walk.preferred(), vec!["(enter)"]);
    assert_eq!(walk.step("(enter)").h(), Some(0));
    assert!(task.is_goal(walk.state.bits()));
}

#[test]
fn a_goal_true_initially_counts_from_the_start_when_a_landmark_destroys_it() {
    // p holds initially and is a goal; q is a goal only make-q achieves,
    // and it deletes p: p counts from the start, as it must be achieved
    // again after q.
    let t = task(2, &[(&[], &[], &[1], &[0], 1), (&[], &[], &[0], &[], 1)], &[0], &[0, 1], &[]);
    let mut walk = Walk::new(&t);
    assert_eq!(walk.h(), Some(2));
    assert_eq!(walk.reached(), Vec::<String>::new());
    assert_eq!(walk.step("(op0)").h(), Some(1));
    assert_eq!(walk.step("(op1)").h(), Some(0));
    assert!(t.is_goal(walk.state.bits()));
}

#[test]
fn a_state_reached_by_two_paths_keeps_what_both_reached() {
    let task = logistics(&[("t", "A")]);
    let mut walk = Walk::new(&task);
    // Via B the truck reached (at t B); (at t C) is not reached either way.
    // (at t B) is false again and needed right before (in p t): 3 + 1.
    walk.step("(drive t A B)").step("(drive t B C)");
    assert_eq!(walk.reached(), vec!["(at p B)", "(at t B)"]);
    assert_eq!(walk.h(), Some(4));
    // The direct drive reaches the same state without (at t B).
    walk.back_to_start().step("(drive t A C)");
    assert_eq!(walk.reached(), vec!["(at p B)"]);
    assert_eq!(walk.h(), Some(4));
}

#[test]
fn negative_goals_count_and_their_deleters_are_preferred() {
    // Goal: not a, not b. op0 deletes a, op1 deletes b, op2 adds a.
    let ops: [OpSpec; 3] = [(&[], &[], &[2], &[0], 1), (&[], &[], &[2], &[1], 1), (&[2], &[], &[0], &[], 1)];
    let t = task(3, &ops, &[0, 1], &[], &[0, 1]);
    let mut walk = Walk::new(&t);
    assert_eq!(walk.h(), Some(2));
    assert_eq!(walk.preferred(), vec!["(op0)", "(op1)"]);
    assert_eq!(walk.step("(op0)").h(), Some(1));
    assert_eq!(walk.step("(op2)").h(), Some(2));
    assert_eq!(walk.step("(op0)").step("(op1)").h(), Some(0));
    assert!(t.is_goal(walk.state.bits()));
}

#[test]
fn an_unreachable_goal_is_a_dead_end() {
    // op0: a -> g; op1: a -> b, deleting a. After op1 nothing reaches g.
    let ops: [OpSpec; 2] = [(&[0], &[], &[2], &[], 1), (&[0], &[], &[1], &[0], 1)];
    let t = task(3, &ops, &[0], &[2], &[]);
    let mut walk = Walk::new(&t);
    assert_eq!(walk.h(), Some(1));
    assert_eq!(walk.step("(op1)").h(), None);
}

/// Notifies every transition of the reachable state space in breadth-first
/// order, as a search that generates every successor would, and returns
/// the states with their ids.
fn explore_all(task: &Task, h: &mut LandmarkCount) -> Vec<StateBuf> {
    let init = task.initial_state();
    let mut ids = HashMap::from([(init.clone(), 0 as StateId)]);
    let mut states = vec![init.clone()];
    h.notify_initial(0, init.bits());
    let mut queue = VecDeque::from([0 as StateId]);
    while let Some(id) = queue.pop_front() {
        let state = states[id as usize].clone();
        for (o, op) in task.operators.iter().enumerate() {
            if !op.is_applicable(state.bits()) {
                continue;
            }
            let mut next = state.clone();
            task.apply_into(op, state.bits(), next.bits_mut());
            let fresh = states.len() as StateId;
            let child = *ids.entry(next.clone()).or_insert_with(|| {
                states.push(next.clone());
                queue.push_back(fresh);
                fresh
            });
            h.notify_transition(id, state.bits(), o as OpId, child, next.bits());
        }
    }
    states
}

#[test]
fn zero_exactly_on_goal_states_of_the_logistics_tasks() {
    for trucks in [&[("t", "A")][..], &[("t1", "A"), ("t2", "C")]] {
        let task = logistics(trucks);
        let mut h = LandmarkCount::new(&task);
        let states = explore_all(&task, &mut h);
        assert!(states.len() > 10);
        for (id, s) in states.iter().enumerate() {
            let value = h.evaluate_node(id as StateId, s.bits()).expect("no dead ends here");
            assert_eq!(value == 0, task.is_goal(s.bits()), "state {id}");
        }
    }
}

/// On costs + 1 (random costs are 0 to 3, and a landmark whose achiever
/// costs 0 counts 0 on the task's own costs; dead ends do not depend on
/// costs), every reachable state of `task` gets h = 0 exactly if it is a
/// goal, and is a dead end only if it has no plan.
fn zero_exactly_on_goals_and_dead_ends_real(task: &Task) {
    let adapted = CostType::PlusOne.adapted_task(task);
    let mut h = LandmarkCount::new(adapted.as_ref().unwrap_or(task));
    let states = explore_all(task, &mut h);
    let distance: HashMap<StateBuf, Option<u64>> = perfect_costs(task).into_iter().collect();
    for (id, s) in states.iter().enumerate() {
        match h.evaluate_node(id as StateId, s.bits()) {
            None => assert_eq!(distance[s], None, "a dead end with a plan: {task:?}"),
            Some(0) => assert!(task.is_goal(s.bits()), "0 off the goal: {task:?}"),
            Some(_) => assert!(!task.is_goal(s.bits()), "a goal state above 0: {task:?}"),
        }
    }
}

#[test]
fn random_tasks_zero_exactly_on_goals_and_dead_ends_are_real() {
    let mut rng = Lcg::new(11);
    for _ in 0..300 {
        zero_exactly_on_goals_and_dead_ends_real(&random_task(&mut rng, 6, 8));
    }
}

#[test]
fn goal_states_of_random_tasks_get_zero() {
    let mut rng = Lcg::new(5);
    for _ in 0..300 {
        let task = random_task(&mut rng, 6, 8);
        let mut h = LandmarkCount::new(&task);
        let states = explore_all(&task, &mut h);
        for (id, s) in states.iter().enumerate() {
            if task.is_goal(s.bits()) {
                assert_eq!(h.evaluate_node(id as StateId, s.bits()), Some(0), "{task:?}");
            }
        }
    }
}

#[test]
fn the_graph_of_the_task_is_reported() {
    let task = logistics(&[("t", "A")]);
    let h = LandmarkCount::new(&task);
    let report = h.build_report().expect("a report");
    assert!(report.starts_with("Landmarks: 5 (0 disjunctive, 0 negated), orderings: 7 "), "{report}");
    assert_eq!(h.graph().landmark_of(fact(&task, "(at t A)")), None);
}


/// a (0), b (1), g (2), n (3); init a, n; goal g, not n. op0: a -> b (3),
/// op1: b -> g (5), op2: a -> b (7), op3: deletes n (2). Landmarks: a
/// (reached initially), b (cheapest achiever op0) and g (op1); the negative
/// goal n holds until op3.
fn costed_task() -> Task {
    let ops: [OpSpec; 4] = [
        (&[0], &[], &[1], &[], 3),
        (&[1], &[], &[2], &[], 5),
        (&[0], &[], &[1], &[], 7),
        (&[], &[], &[], &[3], 2),
    ];
    task(4, &ops, &[0, 3], &[2], &[3])
}

/// The values of lmcount built with `cost_type` along the plan op0, op3,
/// op1 (from the initial state to the goal).
fn values_along_the_plan(t: &Task, cost_type: CostType) -> Vec<Estimate> {
    let context = BuildContext {
        cost_type,
        ..BuildContext::default()
    };
    let mut h = LM_COUNT.build_with(t, &context);
    let mut state = t.initial_state();
    h.notify_initial(0, state.bits());
    let mut values = vec![h.evaluate_node(0, state.bits())];
    for (id, op) in [0, 3, 1].into_iter().enumerate() {
        let o = &t.operators[op];
        let mut next = state.clone();
        o.apply_into(state.bits(), next.bits_mut());
        let (parent, child) = (id as StateId, id as StateId + 1);
        h.notify_transition(parent, state.bits(), op as OpId, child, next.bits());
        values.push(h.evaluate_node(child, next.bits()));
        state = next;
    }
    assert!(t.is_goal(state.bits()));
    values
}

#[test]
fn landmarks_count_their_cheapest_achiever_under_each_cost_type() {
    let t = costed_task();
    let graph = LandmarkCount::new(&t).graph().summary();
    assert!(graph.starts_with("Landmarks: 3 "), "{graph}");
    let n = |v: [u64; 4]| v.map(Some).to_vec();
    // Unit costs: the count (b, g, not n; then g, not n; g; nothing).
    assert_eq!(values_along_the_plan(&t, CostType::One), n([3, 2, 1, 0]));
    // The task's costs: b 3 (op0, not op2's 7), g 5, not n 2.
    assert_eq!(values_along_the_plan(&t, CostType::Normal), n([10, 7, 5, 0]));
    // Costs + 1: 4, 6 and 3.
    assert_eq!(values_along_the_plan(&t, CostType::PlusOne), n([13, 9, 6, 0]));
    // Still inadmissible by its entry (the cheapest plan costs 10 here, but a
    // landmark needed again counts twice).
    assert!(!LM_COUNT.admissible);
}

/// A landmark whose only achiever costs nothing counts 0 on the task's costs
/// (h can be 0 off the goal), and 1 with `one` and `plusone`.
#[test]
fn a_zero_cost_landmark_counts_zero_on_the_tasks_costs() {
    let ops: [OpSpec; 1] = [(&[0], &[], &[1], &[], 0)];
    let t = task(2, &ops, &[0], &[1], &[]);
    let s = t.initial_state();
    for (cost_type, expected) in [(CostType::Normal, 0), (CostType::One, 1), (CostType::PlusOne, 1)] {
        let context = BuildContext {
            cost_type,
            ..BuildContext::default()
        };
        let mut h = LM_COUNT.build_with(&t, &context);
        assert_eq!(h.evaluate(s.bits()), Some(expected), "{}", cost_type.name());
    }
}

#[test]
fn a_derived_goal_counts_until_its_rule_fires() {
    // d :- b, c (see the landmark graph's tests): b, c and d are to be
    // reached; a holds initially. A derived landmark has no operator, yet
    // is no dead end; the relaxed plan towards it gives the preferred
    // operators.
    let task = crate::heuristic::landmarks::tests::derived_goal_task();
    let mut w = Walk::new(&task);
    assert_eq!(w.h(), Some(3));
    // b's achiever and one of c's apply; d is not interesting before both.
    assert_eq!(w.preferred(), vec!["(op0)", "(op2)"]);
    w.step("(op0)");
    assert_eq!(w.h(), Some(2));
    w.step("(op1)");
    // c is true, so d's rule fired in the same state: every landmark is reached.
    assert!(task.is_goal(w.state.bits()));
    assert_eq!(w.h(), Some(0));
}

#[test]
fn random_tasks_with_derived_facts_zero_exactly_on_goals_and_dead_ends_are_real() {
    let mut rng = Lcg::new(23);
    for _ in 0..300 {
        zero_exactly_on_goals_and_dead_ends_real(&random_adl_task(&mut rng, 7, 8));
    }
}

#[test]
fn a_conditional_achiever_is_preferred_only_where_its_effect_fires() {
    // op0 adds the goal g when a holds; op1 adds a; op2 deletes a (and adds
    // c, which no one needs). a holds initially.
    let ops: [OpSpec; 3] = [(&[], &[], &[], &[], 1), (&[], &[], &[0], &[], 1), (&[], &[], &[2], &[0], 1)];
    let mut t = task(3, &ops, &[0], &[1], &[]);
    t.operators[0].cond_effects = vec![cond(&[0], &[], &[1], &[])];
    let mut walk = Walk::new(&t);
    assert_eq!(walk.preferred(), vec!["(op0)"]);
    // Without a, op0 changes nothing: the way to g starts with op1.
    assert_eq!(walk.step("(op2)").preferred(), vec!["(op1)"]);
}
