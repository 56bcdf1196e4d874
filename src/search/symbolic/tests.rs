//! The symbolic search against exact solvers: optimal costs on hand-built
//! and random tasks, proofs within bounds, refusals and limits.

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use super::encoding::Encoding;
use super::*;
use crate::heuristic::blind::Blind;
use crate::rng::Lcg;
use crate::search::tests::{chain, config, dijkstra, grid, hanoi, switches, test_tasks};
use crate::search::{SYMBOLIC, Strategy, search};
use crate::task::FactId;
use crate::task::invariants::tests::{carousel, grid as sokoban, hanoi as hanoi_pegs, hanoi_between};
use crate::task::testing::{
    AxiomSpec, OpSpec, random_adl_task_with, random_conditional_task, random_task, replay, task, with_axioms,
};

fn symbolic(task: &Task, bound: Option<u64>) -> (Outcome, Statistics) {
    let mut c = config(Strategy::Symbolic);
    c.bound = bound;
    run(task, &c, &AtomicBool::new(false))
}

/// The cost of the symbolic search's plan, checked by replaying it; `None`
/// when it proves that there is none.
fn symbolic_cost(task: &Task, bound: Option<u64>) -> Option<u64> {
    match symbolic(task, bound).0 {
        Outcome::Solved(plan) => {
            let cost = replay(task, &plan);
            assert!(cost.is_some(), "invalid plan {plan:?}");
            cost
        }
        Outcome::Unsolvable => None,
        other => panic!("unexpected outcome {other:?}"),
    }
}

fn hand_built() -> Vec<Task> {
    let mut tasks = test_tasks();
    tasks.extend([
        chain(10),
        // Everything free but the last step; everything free.
        grid(4, 4, &[], |x, y| if (x, y) == (3, 3) { 5 } else { 0 }),
        grid(4, 4, &[], |_, _| 0),
        hanoi(4),
        sokoban(4, 3, (0, 1), &[(1, 1)], &[(3, 1)]),
        sokoban(4, 4, (0, 0), &[(1, 1), (2, 2)], &[(2, 1), (1, 2)]),
    ]);
    tasks
}

#[test]
fn finds_optimal_plans_on_hand_built_tasks() {
    for task in hand_built() {
        assert_eq!(symbolic_cost(&task, None), dijkstra(&task));
    }
    // Known optima: 2^n - 1 moves on three pegs, 5 for three discs on four.
    assert_eq!(symbolic_cost(&hanoi_pegs(3, 3), None), Some(7));
    assert_eq!(symbolic_cost(&hanoi_pegs(5, 3), None), Some(31));
    assert_eq!(symbolic_cost(&hanoi_pegs(3, 4), None), Some(5));
    assert_eq!(symbolic_cost(&chain(10), None), Some(7));
}

#[test]
fn a_task_without_facts_or_operators() {
    use crate::task::testing::task;
    // The empty goal holds initially; an unreachable one is proved so.
    assert_eq!(symbolic_cost(&task(0, &[], &[], &[], &[]), None), Some(0));
    assert_eq!(symbolic_cost(&task(1, &[], &[], &[0], &[]), None), None);
}

#[test]
fn the_invariant_groups_become_variables_of_several_values() {
    let encoding = Encoding::new(&hanoi_pegs(5, 3)).expect("encodable");
    let (variables, bits) = encoding.size();
    // Fewer bits than facts: the groups are encoded in binary.
    assert!(
        bits < hanoi_pegs(5, 3).num_facts(),
        "{variables} variables in {bits} bits"
    );
}

#[test]
fn a_bound_below_the_optimum_is_a_proof_and_the_optimum_is_within_it() {
    for task in hand_built() {
        let Some(optimum) = dijkstra(&task) else {
            continue;
        };
        if optimum > 0 {
            let (outcome, _) = symbolic(&task, Some(optimum - 1));
            assert_eq!(outcome, Outcome::Unsolvable);
        }
        assert_eq!(symbolic_cost(&task, Some(optimum)), Some(optimum));
        assert_eq!(symbolic_cost(&task, Some(optimum + 3)), Some(optimum));
    }
    // An exact-k question on Hanoi: 7 moves for three discs, none in 6.
    let task = hanoi_pegs(3, 3);
    assert_eq!(symbolic(&task, Some(6)).0, Outcome::Unsolvable);
    assert_eq!(symbolic_cost(&task, Some(7)), Some(7));
}

#[test]
fn unsolvable_tasks_are_proved_so() {
    let walled = grid(5, 5, &[(0, 2), (1, 2), (2, 2), (3, 2), (4, 2)], |_, _| 1);
    for task in [walled, switches(5, false)] {
        assert_eq!(dijkstra(&task), None);
        let (outcome, stats) = symbolic(&task, None);
        assert_eq!(outcome, Outcome::Unsolvable);
        assert!(stats.expanded > 0);
    }
}

/// Lamps in a row: lamp i is lit when it is switched on and lamp i - 1 is
/// lit (a recursive derived fact); the last lit one is the goal, and one
/// operator needs the first lamp dark (a negated derived fact of a higher
/// layer).
fn lamps(n: usize, on_initially: &[FactId]) -> Task {
    let on = |i: usize| i as FactId;
    let lit = |i: usize| (n + i) as FactId;
    let dark = (2 * n) as FactId;
    let single: Vec<[FactId; 1]> = (0..n).map(|i| [on(i)]).collect();
    let all: Vec<FactId> = (0..n).map(on).collect();
    let in_the_dark = [dark];
    let mut ops: Vec<OpSpec> = (0..n)
        .map(|i| (&[][..], &[][..], &single[i][..], &[][..], i as u32 + 1))
        .collect();
    // Switches everything on at a cost below the sum, but only in the dark.
    ops.push((&in_the_dark, &[], &all, &[], n as u32));
    // Last lamp first: one pass over the rules derives lamp 0 alone.
    let mut rules: Vec<(FactId, Vec<FactId>)> = (1..n).rev().map(|i| (lit(i), vec![lit(i - 1), on(i)])).collect();
    rules.push((lit(0), vec![on(0)]));
    let first: Vec<AxiomSpec> = rules.iter().map(|(h, b)| (*h, &b[..], &[][..])).collect();
    with_axioms(
        task(2 * n + 1, &ops, on_initially, &[lit(n - 1)], &[]),
        &[&first, &[(dark, &[], &[lit(0)])]],
    )
}

/// Derived facts, recursive ones and negated ones of a lower layer, are
/// sets of states over the variables their rules read: the symbolic
/// optimum is blind A*'s, also against a bound.
#[test]
fn agrees_with_astar_on_derived_predicates() {
    // Dark at first: all lamps on at once (cost 4). With lamp 0 on, lamp 0
    // is lit and the lamps go on one by one (2 + 3 + 4).
    assert_eq!(symbolic_cost(&lamps(4, &[]), None), Some(4));
    assert_eq!(symbolic_cost(&lamps(4, &[0]), None), Some(9));
    assert_eq!(symbolic(&lamps(4, &[0]), Some(8)).0, Outcome::Unsolvable);
    let mut rng = Lcg::new(2028);
    let tasks = (0..300).map(|i| random_adl_task_with(&mut rng, 6, 8, i % 2 == 0));
    let solved = agrees_with_astar(tasks.inspect(|t| assert!(t.has_axioms())));
    assert!(solved > 30 && solved < 300, "{solved} solved");
    assert_eq!(SYMBOLIC.unsupported_feature(&lamps(3, &[])), None);
}

/// A task whose operator sets a derived fact (which grounding never
/// makes) is not encoded, and the search says it decided nothing.
#[test]
fn operators_that_change_derived_facts_are_refused() {
    let mut task = lamps(3, &[]);
    task.operators[0].add.push(3);
    assert!(Encoding::new(&task).is_err());
    assert_eq!(symbolic(&task, None).0, Outcome::Incomplete);
}

#[test]
fn limits_stop_the_search() {
    let task = hanoi_pegs(9, 3);
    let mut c = config(Strategy::Symbolic);
    c.limits.time = Some(Duration::ZERO);
    assert_eq!(run(&task, &c, &AtomicBool::new(false)).0, Outcome::OutOfTime);
    let mut c = config(Strategy::Symbolic);
    c.limits.memory_bytes = Some(1 << 10);
    let (outcome, stats) = run(&task, &c, &AtomicBool::new(false));
    assert_eq!(outcome, Outcome::OutOfMemory);
    assert!(stats.peak_memory_bytes > 1 << 10);
    let c = config(Strategy::Symbolic);
    assert_eq!(run(&task, &c, &AtomicBool::new(true)).0, Outcome::Interrupted);
    let mut c = config(Strategy::Symbolic);
    c.limits.expansions = Some(3);
    let (outcome, stats) = run(&task, &c, &AtomicBool::new(false));
    assert_eq!((outcome, stats.expanded), (Outcome::ExpansionLimit, 3));
}

/// Symbolic search and A* with the blind heuristic agree on the optimal
/// cost of random small tasks (zero costs, negative preconditions and goals,
/// deletes of facts not required), also against a bound.
#[test]
fn agrees_with_astar_on_random_tasks() {
    let mut rng = Lcg::new(2026);
    let solved = agrees_with_astar((0..300).map(|_| random_task(&mut rng, 6, 8)));
    // Both outcomes occur.
    assert!(solved > 30 && solved < 300, "{solved} solved");
}

/// Checks each task's symbolic optimum (and that there is no plan within
/// one less) against blind A*'s; the number of tasks with a plan.
fn agrees_with_astar(tasks: impl Iterator<Item = Task>) -> usize {
    let mut solved = 0;
    for task in tasks {
        let astar = match search(&task, &mut Blind::new(&task), None, &config(Strategy::Astar)).0 {
            Outcome::Solved(plan) => replay(&task, &plan),
            Outcome::Unsolvable => None,
            other => panic!("A*: {other:?}"),
        };
        assert_eq!(symbolic_cost(&task, None), astar, "{task:?}");
        if let Some(cost) = astar {
            solved += 1;
            if cost > 0 {
                assert_eq!(symbolic(&task, Some(cost - 1)).0, Outcome::Unsolvable, "{task:?}");
            }
        }
    }
    solved
}

/// The same with conditional effects: on random tasks (each fact a
/// variable of its own), and on tokens that one operator moves all at once
/// (a variable of several values per token), also against a bound.
#[test]
fn agrees_with_astar_on_conditional_effects() {
    let mut rng = Lcg::new(2027);
    let solved = agrees_with_astar((0..300).map(|_| random_conditional_task(&mut rng, 6, 8)));
    assert!(solved > 30 && solved < 300, "{solved} solved");
    for (starts, goals) in [
        (&[0, 0, 0][..], &[2, 1, 0][..]),
        (&[0, 1, 2], &[3, 0, 1]),
        (&[0, 2, 4], &[4, 1, 3]),
    ] {
        let task = carousel(5, starts, goals, false);
        assert!(
            task.invariant_groups()
                .iter()
                .any(|g| g.exactly_one && g.facts.len() == 5)
        );
        let optimum = dijkstra(&task);
        assert_eq!(symbolic_cost(&task, None), optimum, "{starts:?} to {goals:?}");
        let optimum = optimum.expect("the tokens can always be moved");
        assert_eq!(symbolic(&task, Some(optimum - 1)).0, Outcome::Unsolvable);
    }
}

/// On random Hanoi segments (multi-valued variables, exactly-one groups):
/// the symbolic optimum is Dijkstra's.
#[test]
fn agrees_with_dijkstra_on_random_hanoi_segments() {
    let mut rng = Lcg::new(11);
    for _ in 0..12 {
        let discs = 2 + rng.below(3) as usize;
        let pegs = 3 + rng.below(2) as usize;
        let names: Vec<String> = (1..=discs).map(|i| format!("d{i}")).collect();
        let peg_names: Vec<String> = (1..=pegs).map(|i| format!("p{i}")).collect();
        let start: Vec<usize> = (0..discs).map(|_| rng.below(pegs as u64) as usize).collect();
        let goal: Vec<usize> = (0..discs).map(|_| rng.below(pegs as u64) as usize).collect();
        let task = hanoi_between(&names, &peg_names, &start, &goal);
        assert_eq!(
            symbolic_cost(&task, None),
            dijkstra(&task),
            "{start:?} to {goal:?} on {pegs} pegs"
        );
    }
}

/// Merged relations have the images and pre-images of their members, at
/// every size limit: none merged, some, and all of each cost.
#[test]
fn merged_relations_have_the_images_of_their_members() {
    let mut rng = Lcg::new(32);
    let mut tasks: Vec<Task> = (0..40).map(|_| random_task(&mut rng, 8, 12)).collect();
    tasks.extend([
        hanoi_pegs(3, 3),
        hanoi_pegs(2, 4),
        sokoban(4, 3, (0, 1), &[(1, 1)], &[(3, 1)]),
        carousel(4, &[0, 1], &[2, 2], false),
    ]);
    let mut merges = 0;
    let mut never = || None::<()>;
    for task in &tasks {
        let encoding = Encoding::new(task).expect("encodable");
        let all: Vec<usize> = (0..encoding.transitions.len()).collect();
        // Sets to take images of: the start states, everything the
        // invariants allow, and the states one step from the initial one.
        let one_step = all.iter().fold(encoding.empty(), |acc, &i| {
            acc.or(&encoding.image(&encoding.init, &encoding.transitions[i].relation))
        });
        for states in [&encoding.init, &encoding.goal, &encoding.mutex, &one_step] {
            for forward in [true, false] {
                let apply = |r: &Relation| match forward {
                    true => encoding.image(states, r),
                    false => encoding.preimage(states, r),
                };
                // Per cost: the union of the members' images.
                let mut expected: BTreeMap<u64, Bdd> = BTreeMap::new();
                for t in &encoding.transitions {
                    let entry = expected.entry(t.relation.cost).or_insert_with(|| encoding.empty());
                    *entry = entry.or(&apply(&t.relation));
                }
                for max_nodes in [1, 60, 1_000_000] {
                    let relations = encoding.relations(&all, max_nodes, &mut never).expect("not stopped");
                    merges += encoding.transitions.len() - relations.len();
                    let mut got: BTreeMap<u64, Bdd> = BTreeMap::new();
                    for r in &relations {
                        let entry = got.entry(r.cost).or_insert_with(|| encoding.empty());
                        *entry = entry.or(&apply(r));
                    }
                    assert_eq!(got, expected, "{task:?} at most {max_nodes} nodes, forward {forward}");
                }
            }
        }
        let costs: std::collections::BTreeSet<u64> = encoding.transitions.iter().map(|t| t.relation.cost).collect();
        // Without a limit, one relation per cost.
        let unlimited = encoding.relations(&all, usize::MAX, &mut never).expect("not stopped");
        assert_eq!(unlimited.len(), costs.len());
    }
    assert!(merges > 0);
}

/// The limits are asked before each merge of relations, and a stop ends
/// the merging with what the limits returned.
#[test]
fn merging_relations_stops_when_asked() {
    let task = hanoi_pegs(3, 3);
    let encoding = Encoding::new(&task).expect("encodable");
    let all: Vec<usize> = (0..encoding.transitions.len()).collect();
    let mut merges = 0;
    let mut count = || {
        merges += 1;
        None::<()>
    };
    encoding.relations(&all, usize::MAX, &mut count).expect("not stopped");
    assert!(merges >= all.len() - 1, "{merges} merges of {} relations", all.len());
    let mut asked = 0;
    let mut stop_at_second = || {
        asked += 1;
        (asked == 2).then_some("stopped")
    };
    assert_eq!(
        encoding.relations(&all, usize::MAX, &mut stop_at_second).err(),
        Some("stopped")
    );
    assert_eq!(asked, 2);
}

#[test]
fn states_are_counted_over_the_unprimed_bits() {
    let task = hanoi_pegs(3, 3);
    let encoding = Encoding::new(&task).expect("encodable");
    assert_eq!(encoding.count(&encoding.init), 1.0);
    assert_eq!(encoding.count(&encoding.empty()), 0.0);
    // Three discs on three pegs: 3^3 states, once each disc's place is fixed.
    let reachable = (0..12).fold(encoding.init.clone(), |states, _| {
        encoding
            .transitions
            .iter()
            .fold(states.clone(), |acc, t| acc.or(&encoding.image(&states, &t.relation)))
    });
    assert_eq!(encoding.count(&reachable), 27.0);
}
