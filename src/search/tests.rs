//! Engine tests on hand-built tasks, checked against a brute-force Dijkstra.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use super::*;
use crate::heuristic::Estimate;
use crate::heuristic::blind::Blind;
use crate::heuristic::goalcount::GoalCount;
use crate::heuristic::relax::{Mode, RelaxationHeuristic};
use crate::task::state::{StateBits, StateBuf};
use crate::task::testing::{AxiomSpec, assemble, with_axioms};
use crate::task::{CondEffect, Fact, FactId, Operator};

/// A rule of a derived fact: (head, pre, pre_neg).
type Rule = (FactId, Vec<FactId>, Vec<FactId>);

#[derive(Default)]
pub(super) struct Builder {
    facts: Vec<Fact>,
    index: HashMap<String, FactId>,
    ops: Vec<Operator>,
    init: Vec<FactId>,
    goal: Vec<FactId>,
    goal_neg: Vec<FactId>,
    /// Rules of derived facts by layer: (head, pre, pre_neg).
    axioms: Vec<Vec<Rule>>,
}

impl Builder {
    pub(super) fn fact(&mut self, name: &str) -> FactId {
        if let Some(&f) = self.index.get(name) {
            return f;
        }
        let f = self.facts.len() as FactId;
        self.facts.push(Fact {
            predicate: name.to_string(),
            args: Vec::new(),
        });
        self.index.insert(name.to_string(), f);
        f
    }

    fn facts(&mut self, names: &[&str]) -> Vec<FactId> {
        let mut v: Vec<FactId> = names.iter().map(|n| self.fact(n)).collect();
        v.sort_unstable();
        v.dedup();
        v
    }

    pub(super) fn op(&mut self, name: &str, pre: &[&str], pre_neg: &[&str], del: &[&str], add: &[&str], cost: u32) {
        let op = Operator {
            action: name.to_string(),
            args: Vec::new(),
            pre: self.facts(pre),
            pre_neg: self.facts(pre_neg),
            del: self.facts(del),
            add: self.facts(add),
            cost,
            cond_effects: Vec::new(),
        };
        self.ops.push(op);
    }

    /// A conditional effect of the operator added last.
    fn when(&mut self, pre: &[&str], pre_neg: &[&str], del: &[&str], add: &[&str]) {
        let effect = CondEffect {
            pre: self.facts(pre),
            pre_neg: self.facts(pre_neg),
            add: self.facts(add),
            del: self.facts(del),
        };
        self.ops.last_mut().expect("an operator").cond_effects.push(effect);
    }

    /// A rule of a derived fact in `layer`.
    fn rule(&mut self, layer: usize, head: &str, pre: &[&str], pre_neg: &[&str]) {
        let rule = (self.fact(head), self.facts(pre), self.facts(pre_neg));
        if self.axioms.len() <= layer {
            self.axioms.resize(layer + 1, Vec::new());
        }
        self.axioms[layer].push(rule);
    }

    pub(super) fn build(mut self, init: &[&str], goal: &[&str], goal_neg: &[&str]) -> Task {
        self.init = self.facts(init);
        self.goal = self.facts(goal);
        self.goal_neg = self.facts(goal_neg);
        let task = assemble(self.facts, self.ops, &self.init, &self.goal, &self.goal_neg, true);
        if self.axioms.is_empty() {
            return task;
        }
        let specs: Vec<Vec<AxiomSpec>> = self
            .axioms
            .iter()
            .map(|layer| layer.iter().map(|(h, p, n)| (*h, p.as_slice(), n.as_slice())).collect())
            .collect();
        let layers: Vec<&[AxiomSpec]> = specs.iter().map(Vec::as_slice).collect();
        with_axioms(task, &layers)
    }
}

/// Positions 0..=n; steps of +1 (cost 1) and jumps of +3 (cost 2).
pub(super) fn chain(n: usize) -> Task {
    let mut b = Builder::default();
    for i in 0..n {
        let (here, next) = (format!("at{i}"), format!("at{}", i + 1));
        b.op("step", &[&here], &[], &[&here], &[&next], 1);
        if i + 3 <= n {
            let far = format!("at{}", i + 3);
            b.op("jump", &[&here], &[], &[&here], &[&far], 2);
        }
    }
    b.build(&["at0"], &[&format!("at{n}")], &[])
}

/// A robot on a w×h grid with walls; moving into (x, y) costs `cost(x, y)`.
pub(super) fn grid(w: usize, h: usize, walls: &[(usize, usize)], cost: impl Fn(usize, usize) -> u32) -> Task {
    let mut b = Builder::default();
    let name = |x: usize, y: usize| format!("at-{x}-{y}");
    for x in 0..w {
        for y in 0..h {
            if walls.contains(&(x, y)) {
                continue;
            }
            let mut targets = vec![(x + 1, y), (x, y + 1)];
            if x > 0 {
                targets.push((x - 1, y));
            }
            if y > 0 {
                targets.push((x, y - 1));
            }
            for (tx, ty) in targets {
                if tx < w && ty < h && !walls.contains(&(tx, ty)) {
                    b.op(
                        "move",
                        &[&name(x, y)],
                        &[],
                        &[&name(x, y)],
                        &[&name(tx, ty)],
                        cost(tx, ty),
                    );
                }
            }
        }
    }
    b.build(&[&name(0, 0)], &[&name(w - 1, h - 1)], &[])
}

/// Towers of Hanoi with `n` discs on three pegs, all starting on peg 1.
pub(super) fn hanoi(n: usize) -> Task {
    let mut b = Builder::default();
    let discs: Vec<String> = (1..=n).map(|d| format!("d{d}")).collect();
    let pegs = ["p1", "p2", "p3"];
    // Places a disc may sit on: larger discs and pegs.
    let bases = |d: usize| -> Vec<String> {
        discs[d + 1..]
            .iter()
            .cloned()
            .chain(pegs.iter().map(|p| p.to_string()))
            .collect()
    };
    for (d, disc) in discs.iter().enumerate() {
        for from in bases(d) {
            for to in bases(d) {
                if from == to {
                    continue;
                }
                let on_from = format!("on-{disc}-{from}");
                let on_to = format!("on-{disc}-{to}");
                let clear_d = format!("clear-{disc}");
                let (clear_from, clear_to) = (format!("clear-{from}"), format!("clear-{to}"));
                b.op(
                    "move",
                    &[&on_from, &clear_d, &clear_to],
                    &[],
                    &[&on_from, &clear_to],
                    &[&on_to, &clear_from],
                    1,
                );
            }
        }
    }
    let mut init = vec!["clear-d1".to_string(), "clear-p2".to_string(), "clear-p3".to_string()];
    let mut goal = Vec::new();
    for d in 0..n {
        let below = if d + 1 < n {
            discs[d + 1].clone()
        } else {
            "p1".to_string()
        };
        init.push(format!("on-{}-{below}", discs[d]));
        let below_goal = if d + 1 < n {
            discs[d + 1].clone()
        } else {
            "p3".to_string()
        };
        goal.push(format!("on-{}-{below_goal}", discs[d]));
    }
    let init: Vec<&str> = init.iter().map(String::as_str).collect();
    let goal: Vec<&str> = goal.iter().map(String::as_str).collect();
    b.build(&init, &goal, &[])
}

/// `n` switches that can be turned on (only when off) and off; the goal
/// wants the even ones on and the odd ones off. 2^n states.
pub(super) fn switches(n: usize, reachable_goal: bool) -> Task {
    let mut b = Builder::default();
    for i in 0..n {
        let s = format!("on{i}");
        b.op("on", &[], &[&s], &[], &[&s], 1 + (i % 3) as u32);
        b.op("off", &[&s], &[], &[&s], &[], 1);
    }
    let on: Vec<String> = (0..n).step_by(2).map(|i| format!("on{i}")).collect();
    let off: Vec<String> = (1..n).step_by(2).map(|i| format!("on{i}")).collect();
    let mut goal: Vec<&str> = on.iter().map(String::as_str).collect();
    let goal_neg: Vec<&str> = off.iter().map(String::as_str).collect();
    if !reachable_goal {
        b.fact("never");
        goal.push("never");
    }
    b.build(&["on1"], &goal, &goal_neg)
}

/// Cheapest plan cost by Dijkstra over explicit states.
pub(super) fn dijkstra(task: &Task) -> Option<u64> {
    let mut ids: HashMap<StateBuf, usize> = HashMap::new();
    let mut states = vec![task.initial_state()];
    let mut dist = vec![0u64];
    ids.insert(states[0].clone(), 0);
    let mut heap = BinaryHeap::from([Reverse((0u64, 0usize))]);
    let mut next = StateBuf::new(task.num_facts());
    while let Some(Reverse((d, i))) = heap.pop() {
        if d > dist[i] {
            continue;
        }
        if task.is_goal(states[i].bits()) {
            return Some(d);
        }
        for op in &task.operators {
            if !op.is_applicable(states[i].bits()) {
                continue;
            }
            task.apply_into(op, states[i].bits(), next.bits_mut());
            let nd = d + op.cost as u64;
            let j = *ids.entry(next.clone()).or_insert_with(|| {
                states.push(next.clone());
                dist.push(u64::MAX);
                states.len() - 1
            });
            if nd < dist[j] {
                dist[j] = nd;
                heap.push(Reverse((nd, j)));
            }
        }
    }
    None
}

pub(super) use crate::task::testing::replay;

pub(super) fn config(strategy: Strategy) -> SearchConfig {
    SearchConfig {
        strategy,
        ..SearchConfig::default()
    }
}

fn solve(task: &Task, guide: &mut dyn Heuristic, config: &SearchConfig) -> (Option<u64>, Statistics) {
    let (outcome, stats) = search(task, guide, None, config);
    match outcome {
        Outcome::Solved(plan) => {
            let cost = replay(task, &plan);
            assert!(cost.is_some(), "invalid plan {plan:?}");
            (cost, stats)
        }
        Outcome::Unsolvable => (None, stats),
        other => panic!("unexpected outcome {other:?}"),
    }
}

/// A briefcase at one of `places` carries the objects put in it when it
/// moves (conditional effects); object i starts at place i and must reach
/// place i + 1 (mod the places). `done-i` is derived from where object i
/// is, `missing` from a `done` that is false, `finished` from `missing`
/// being false (three layers); the goal is `finished`.
pub(super) fn briefcase(places: usize, objects: usize) -> Task {
    let mut b = Builder::default();
    let at = |o: usize, p: usize| format!("at{o}-{p}");
    for from in 0..places {
        for to in (0..places).filter(|&to| to != from) {
            let (bf, bt) = (format!("b{from}"), format!("b{to}"));
            b.op("move", &[&bf], &[], &[&bf], &[&bt], 1);
            for o in 0..objects {
                b.when(&[&format!("in{o}")], &[], &[&at(o, from)], &[&at(o, to)]);
            }
        }
    }
    for o in 0..objects {
        let inside = format!("in{o}");
        for p in 0..places {
            b.op("put-in", &[&format!("b{p}"), &at(o, p)], &[&inside], &[], &[&inside], 1);
        }
        b.op("take-out", &[&inside], &[], &[&inside], &[], 1);
        b.rule(0, &format!("done{o}"), &[&at(o, (o + 1) % places)], &[]);
        b.rule(1, "missing", &[], &[&format!("done{o}")]);
    }
    b.rule(2, "finished", &[], &["missing"]);
    let init: Vec<String> = (0..objects)
        .map(|o| at(o, o % places))
        .chain(["b0".to_string()])
        .collect();
    let init: Vec<&str> = init.iter().map(String::as_str).collect();
    b.build(&init, &["finished"], &[])
}

/// Searches with conditional effects and derived facts return plans that
/// are valid under their semantics; A* with h_max or blind ones are optimal.
#[test]
fn conditional_effects_and_derived_facts() {
    for (places, objects) in [(2, 1), (2, 2), (3, 2), (3, 3)] {
        let task = briefcase(places, objects);
        assert!(task.has_conditional_effects() && task.has_axioms());
        let optimum = dijkstra(&task);
        assert!(optimum.is_some());
        let (cost, _) = solve(&task, &mut Blind::new(&task), &config(Strategy::Astar));
        assert_eq!(cost, optimum);
        let mut hmax = RelaxationHeuristic::new(&task, Mode::Max);
        let (cost, _) = solve(&task, &mut hmax, &config(Strategy::Astar));
        assert_eq!(cost, optimum);
        let mut hff = RelaxationHeuristic::new(&task, Mode::FF);
        let greedy = SearchConfig {
            preferred_operators: true,
            ..config(Strategy::Greedy)
        };
        let (cost, _) = solve(&task, &mut hff, &greedy);
        assert!(cost.is_some_and(|c| c >= optimum.unwrap()));
        let (cost, _) = solve(&task, &mut GoalCount::new(&task), &config(Strategy::Greedy));
        assert!(cost.is_some_and(|c| c >= optimum.unwrap()));
    }
    // One object from place 0 to 1: put it in, move. Two objects swapping
    // places: put in 0, move, take out 0, put in 1, move.
    assert_eq!(dijkstra(&briefcase(2, 1)), Some(2));
    assert_eq!(dijkstra(&briefcase(2, 2)), Some(5));
}

pub(super) fn test_tasks() -> Vec<Task> {
    vec![
        chain(10),
        grid(6, 5, &[(1, 1), (2, 1), (3, 3), (1, 3)], |x, y| {
            1 + ((x * 3 + y) % 4) as u32
        }),
        grid(5, 5, &[(2, 2)], |x, y| ((x + y) % 3) as u32),
        hanoi(3),
        switches(7, true),
    ]
}

#[test]
fn astar_with_blind_is_optimal() {
    for task in test_tasks() {
        let optimum = dijkstra(&task);
        assert!(optimum.is_some());
        let (cost, stats) = solve(&task, &mut Blind::new(&task), &config(Strategy::Astar));
        assert_eq!(cost, optimum);
        assert!(stats.expanded > 0 && stats.generated >= stats.expanded);
        assert_eq!(
            stats.initial_h,
            Some(task.operators.iter().map(|o| o.cost as u64).min().unwrap_or(0))
        );
    }
    let (cost, _) = solve(&hanoi(3), &mut Blind::new(&hanoi(3)), &config(Strategy::Astar));
    assert_eq!(cost, Some(7));
}

/// On `chain(n)` the blind heuristic is consistent, so A* expands exactly
/// the positions with g* + h < C* before its last f-layer: position i costs
/// g*(i) = 2 (i / 3) + i % 3 and has h = 1 (0 at the goal).
#[test]
fn astar_counts_the_expansions_before_the_last_f_layer() {
    for n in [1, 4, 10, 17] {
        let task = chain(n);
        let g = |i: usize| (2 * (i / 3) + i % 3) as u64;
        let optimum = g(n);
        let expected = (0..n).filter(|&i| g(i) + 1 < optimum).count() as u64;
        let (cost, stats) = solve(&task, &mut Blind::new(&task), &config(Strategy::Astar));
        assert_eq!(cost, Some(optimum));
        assert_eq!(stats.expanded_until_last_layer, Some(expected), "chain({n})");
        assert!(stats.expanded >= expected);
    }
    // Greedy search has no f-layers.
    let task = chain(10);
    let (_, stats) = solve(&task, &mut Blind::new(&task), &config(Strategy::Greedy));
    assert_eq!(stats.expanded_until_last_layer, None);
}

#[test]
fn greedy_and_weighted_astar_find_valid_plans() {
    for task in test_tasks() {
        let optimum = dijkstra(&task).unwrap_or(0);
        let (cost, _) = solve(&task, &mut GoalCount::new(&task), &config(Strategy::Greedy));
        assert!(cost.is_some_and(|c| c >= optimum));
        // With an admissible heuristic and reopening, wA* stays within W times the optimum.
        for w in [2.0, 1.5] {
            let (cost, _) = solve(&task, &mut Blind::new(&task), &config(Strategy::WeightedAstar(w)));
            assert!(cost.is_some_and(|c| c >= optimum && c as f64 <= w * optimum as f64));
        }
    }
}

#[test]
fn zero_cost_operators() {
    // Everything free except the last step into the goal.
    let task = grid(4, 4, &[], |x, y| if (x, y) == (3, 3) { 5 } else { 0 });
    let (cost, _) = solve(&task, &mut Blind::new(&task), &config(Strategy::Astar));
    assert_eq!(cost, Some(5));
    let task = grid(4, 4, &[], |_, _| 0);
    let (cost, _) = solve(&task, &mut Blind::new(&task), &config(Strategy::Astar));
    assert_eq!(cost, Some(0));
}

#[test]
fn bound_below_optimum_is_unsolvable_and_at_optimum_solved() {
    for task in test_tasks() {
        let optimum = dijkstra(&task).unwrap_or(0);
        for strategy in [Strategy::Astar, Strategy::Greedy, Strategy::WeightedAstar(3.0)] {
            let mut c = config(strategy);
            if optimum > 0 {
                c.bound = Some(optimum - 1);
                let (outcome, stats) = search(&task, &mut GoalCount::new(&task), None, &c);
                assert_eq!(outcome, Outcome::Unsolvable, "{strategy:?}");
                assert!(stats.pruned_by_bound > 0);
                let mut blind = Blind::new(&task);
                let (outcome, _) = search(&task, &mut GoalCount::new(&task), Some(&mut blind), &c);
                assert_eq!(outcome, Outcome::Unsolvable, "{strategy:?} with prune");
            }
            c.bound = Some(optimum);
            let (cost, _) = solve(&task, &mut GoalCount::new(&task), &c);
            assert_eq!(cost, Some(optimum), "{strategy:?}");
            let mut blind = Blind::new(&task);
            let (outcome, _) = search(&task, &mut GoalCount::new(&task), Some(&mut blind), &c);
            let Outcome::Solved(plan) = outcome else {
                panic!("{strategy:?}: {outcome:?}")
            };
            assert_eq!(replay(&task, &plan), Some(optimum));
        }
    }
}

#[test]
fn unsolvable_tasks() {
    let walled = grid(5, 5, &[(0, 2), (1, 2), (2, 2), (3, 2), (4, 2)], |_, _| 1);
    for task in [walled, switches(5, false)] {
        assert_eq!(dijkstra(&task), None);
        for strategy in [Strategy::Astar, Strategy::Greedy] {
            let (outcome, stats) = search(&task, &mut Blind::new(&task), None, &config(strategy));
            assert_eq!(outcome, Outcome::Unsolvable);
            assert!(stats.expanded > 0);
        }
    }
}

#[test]
fn limits_stop_the_search() {
    let task = switches(22, false);
    let mut c = config(Strategy::Astar);
    c.limits.time = Some(Duration::from_millis(20));
    let (outcome, stats) = search(&task, &mut Blind::new(&task), None, &c);
    assert_eq!(outcome, Outcome::OutOfTime);
    assert!(stats.expanded < 1 << 22);
    let mut c = config(Strategy::Greedy);
    c.limits.memory_bytes = Some(1 << 16);
    let (outcome, stats) = search(&task, &mut Blind::new(&task), None, &c);
    assert_eq!(outcome, Outcome::OutOfMemory);
    assert!(stats.peak_memory_bytes > 1 << 16);
    let flag = AtomicBool::new(true);
    let (outcome, _) = engine::run(&task, &mut Blind::new(&task), None, &config(Strategy::Astar), &flag);
    assert_eq!(outcome, Outcome::Interrupted);
}

#[test]
fn an_expansion_limit_stops_at_exactly_that_count() {
    let task = switches(12, true);
    let mut c = config(Strategy::Astar);
    c.limits.expansions = Some(100);
    let (outcome, stats) = search(&task, &mut Blind::new(&task), None, &c);
    assert_eq!(outcome, Outcome::ExpansionLimit);
    assert_eq!(stats.expanded, 100);
    // A limit the search does not reach changes nothing.
    c.limits.expansions = Some(1 << 20);
    let (outcome, _) = search(&task, &mut Blind::new(&task), None, &c);
    assert!(matches!(outcome, Outcome::Solved(_)));
}

/// Goal count whose preferred operators add a missing goal fact; `None` on
/// states containing the `trap` fact.
struct TestHeuristic {
    task: Task,
    trap: Option<FactId>,
    preferred: Vec<OpId>,
    admissible: bool,
}

impl Heuristic for TestHeuristic {
    fn name(&self) -> &str {
        "test"
    }

    fn evaluate(&mut self, state: &StateBits) -> Estimate {
        if self.trap.is_some_and(|t| state[t as usize]) {
            return None;
        }
        let missing: Vec<FactId> = self.task.goal.iter().copied().filter(|&f| !state[f as usize]).collect();
        // Facts wanted: missing goals and the missing preconditions of their achievers.
        let mut wanted = missing.clone();
        for op in &self.task.operators {
            if op.add.iter().any(|f| missing.contains(f)) {
                wanted.extend(op.pre.iter().filter(|&&f| !state[f as usize]));
            }
        }
        self.preferred.clear();
        for (i, op) in self.task.operators.iter().enumerate() {
            if op.is_applicable(state) && op.add.iter().any(|f| wanted.contains(f)) {
                self.preferred.push(i as OpId);
            }
        }
        Some(if self.admissible { 0 } else { missing.len() as u64 })
    }

    fn preferred_operators(&self) -> &[OpId] {
        &self.preferred
    }

    fn is_admissible(&self) -> bool {
        self.admissible
    }
}

#[test]
fn greedy_with_preferred_operators() {
    // Six items, each to be reached and then picked, among six junk switches.
    // Goal count is flat while reaching; preferred operators (picks of missing
    // items and the reaches they need) cross the plateaus.
    let mut b = Builder::default();
    for i in 0..6 {
        let (near, have, junk) = (format!("near{i}"), format!("have{i}"), format!("junk{i}"));
        b.op("reach", &[], &[&near], &[], &[&near], 1);
        b.op("pick", &[&near], &[], &[], &[&have], 1);
        b.op("junk-on", &[], &[&junk], &[], &[&junk], 1);
        b.op("junk-off", &[&junk], &[], &[&junk], &[], 1);
    }
    let goal: Vec<String> = (0..6).map(|i| format!("have{i}")).collect();
    let goal: Vec<&str> = goal.iter().map(String::as_str).collect();
    let task = b.build(&[], &goal, &[]);
    let mut h = TestHeuristic {
        task: task.clone(),
        trap: None,
        preferred: Vec::new(),
        admissible: false,
    };
    let mut c = config(Strategy::Greedy);
    let (plain, plain_stats) = solve(&task, &mut h, &c);
    c.preferred_operators = true;
    let (cost, stats) = solve(&task, &mut h, &c);
    assert_eq!(cost, Some(12));
    assert!(plain.is_some());
    assert!(stats.expanded <= 14, "{}", stats.expanded);
    assert!(plain_stats.expanded >= 2 * stats.expanded, "{}", plain_stats.expanded);
}

#[test]
fn dead_ends_are_pruned_soundly() {
    // A chain with a trap side branch; the heuristic knows the trap is dead.
    let mut b = Builder::default();
    for i in 0..6 {
        let (here, next) = (format!("at{i}"), format!("at{}", i + 1));
        b.op("step", &[&here], &[], &[&here], &[&next], 1);
        b.op("fall", &[&here], &[], &[&here], &["trap"], 1);
    }
    let task = b.build(&["at0"], &["at6"], &[]);
    let trap = task
        .facts
        .iter()
        .position(|f| f.predicate == "trap")
        .map(|p| p as FactId);
    for admissible in [false, true] {
        let mut h = TestHeuristic {
            task: task.clone(),
            trap,
            preferred: Vec::new(),
            admissible,
        };
        let (cost, stats) = solve(&task, &mut h, &config(Strategy::Astar));
        assert_eq!(cost, Some(6));
        assert!(stats.dead_ends >= 1);
    }
    // Every path leads into the trap: unsolvable, proven by dead ends.
    let mut b = Builder::default();
    b.op("fall", &["at0"], &[], &["at0"], &["trap"], 1);
    b.op("climb", &["trap"], &[], &[], &["at1"], 1);
    let task = b.build(&["at0"], &["at1"], &[]);
    let trap = task
        .facts
        .iter()
        .position(|f| f.predicate == "trap")
        .map(|p| p as FactId);
    let mut h = TestHeuristic {
        task: task.clone(),
        trap,
        preferred: Vec::new(),
        admissible: false,
    };
    let (outcome, stats) = search(&task, &mut h, None, &config(Strategy::Greedy));
    assert_eq!(outcome, Outcome::Unsolvable);
    assert_eq!(stats.dead_ends, 1);
}

/// Admissible but inconsistent: the true distance on half of the states, 0 elsewhere.
struct Patchy {
    table: HashMap<Vec<u64>, u64>,
}

impl Heuristic for Patchy {
    fn name(&self) -> &str {
        "patchy"
    }

    fn evaluate(&mut self, state: &StateBits) -> Estimate {
        let words = state.to_bitvec().into_vec();
        let key: Vec<u64> = words;
        let h = self.table.get(&key).copied().unwrap_or(0);
        Some(if key.iter().sum::<u64>() % 3 == 0 { 0 } else { h })
    }

    fn is_admissible(&self) -> bool {
        true
    }
}

#[test]
fn astar_reopens_with_inconsistent_heuristic() {
    let base = grid(6, 6, &[(1, 1), (2, 3), (4, 1), (3, 4)], |x, y| {
        1 + ((x * 5 + y * 3) % 7) as u32
    });
    // True goal distances of every state (one grid cell each), by Dijkstra from it.
    let mut table = HashMap::new();
    for start in 0..base.num_facts() as FactId {
        let mut t = base.clone();
        t.init = vec![start];
        if let Some(d) = dijkstra(&t) {
            let s = t.initial_state();
            table.insert(s.bits().to_bitvec().into_vec(), d);
        }
    }
    let optimum = dijkstra(&base);
    let mut h = Patchy { table };
    let (cost, _) = solve(&base, &mut h, &config(Strategy::Astar));
    assert_eq!(cost, optimum);
}
