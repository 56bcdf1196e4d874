//! Property tests on random small STRIPS tasks (propositional, or with one
//! parameter over two objects; negative preconditions and goals, costs 0 to
//! 4), written as PDDL text so that the whole pipeline (parser, checks,
//! grounder, search, heuristics, validator) is exercised, and checked
//! against brute force:
//!
//! - A* with h_max and with LM-cut find plans of the optimal cost, the same
//!   as blind A* (breadth-first on unit costs, then also of the same length)
//!   and as a Dijkstra search on the generator's own model of the task, and
//!   they report "unsolvable" exactly when there is no plan;
//! - h_max <= h* and LM-cut <= h* on every reachable state (h* by a backward
//!   Dijkstra over the whole reachable space of the grounded task);
//! - h_add and h_FF are infinite exactly where h_max is;
//! - the lifted validator accepts every plan the search returns, and after a
//!   random mutation (drop, swap or replace a step) it rejects the plan
//!   exactly when a replay on the grounded task says it is invalid.
//!
//! Case counts: 1000 tasks for the search and heuristic properties, 2000 for
//! the validator (about 2 s together in release; in a typical run some 700
//! solvable and 200 unsolvable tasks, and 500 mutated plans, a third of them
//! still valid); `PROPTEST_CASES` does not
//! override them, edit [`SEARCH_CASES`] / [`VALIDATOR_CASES`].

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap, VecDeque};

use proptest::prelude::*;

use corvus::ground::{self, GroundError};
use corvus::heuristic::{HeuristicKind, blind, lmcut, relax};
use corvus::pddl;
use corvus::plan::{self, Plan, PlanStep};
use corvus::search::{self, Outcome, SearchConfig, Strategy as SearchStrategy};
use corvus::task::state::StateBuf;
use corvus::task::{OpId, Task};

/// Tasks per property (a quarter of them end before the search: grounding
/// proves them unsolvable, or the plan is empty).
const SEARCH_CASES: u32 = 1000;
const VALIDATOR_CASES: u32 = 2000;

/// A STRIPS task with action costs. Propositional (`objects == 0`: facts
/// `(p0)..(pN-1)`, actions without parameters), or lifted over two objects
/// (`objects == 2`: facts `(pI oK)`, each action has one parameter `?x`),
/// which exercises the grounder's parameter binding too.
#[derive(Clone, Debug)]
struct Spec {
    objects: usize,
    predicates: usize,
    /// Per fact (predicate I, object K at index I * objects + K).
    init: Vec<bool>,
    /// Per fact: must hold (Some(true)), must not hold (Some(false)), free.
    goal: Vec<Option<bool>>,
    actions: Vec<ActionSpec>,
}

/// Per predicate: the precondition literal, whether it is added and
/// deleted, and (lifted) its argument: `?x` (None) or object K.
#[derive(Clone, Debug)]
struct ActionSpec {
    pre: Vec<Option<bool>>,
    add: Vec<bool>,
    del: Vec<bool>,
    args: Vec<Option<usize>>,
    cost: u32,
}

/// Literal weights: mostly absent, positive more often than negative.
fn literal() -> impl Strategy<Value = Option<bool>> {
    prop_oneof![6 => Just(None), 3 => Just(Some(true)), 1 => Just(Some(false))]
}

fn spec() -> impl Strategy<Value = Spec> {
    (3usize..=7, prop_oneof![Just(0usize), Just(2usize)]).prop_flat_map(|(n, objects)| {
        let facts = n * objects.max(1);
        let action = (
            prop::collection::vec(literal(), n),
            prop::collection::vec(prop::bool::weighted(0.35), n),
            prop::collection::vec(prop::bool::weighted(0.3), n),
            prop::collection::vec(prop_oneof![2 => Just(None), 1 => (0..objects.max(1)).prop_map(Some)], n),
            prop_oneof![1 => Just(0u32), 4 => Just(1u32), 2 => 2u32..=4],
        )
            .prop_map(|(pre, add, del, args, cost)| ActionSpec {
                pre,
                add,
                del,
                args,
                cost,
            });
        (
            prop::collection::vec(any::<bool>(), facts),
            prop::collection::vec(literal(), facts),
            prop::collection::vec(action, 2..=10),
        )
            .prop_map(move |(init, goal, actions)| Spec {
                objects,
                predicates: n,
                init,
                goal,
                actions,
            })
    })
}

impl Spec {
    fn width(&self) -> usize {
        self.objects.max(1)
    }

    /// The atom of predicate `i` with argument `arg` (None: `?x`).
    fn atom(&self, i: usize, arg: Option<usize>) -> String {
        match (self.objects, arg) {
            (0, _) => format!("(p{i})"),
            (_, Some(k)) => format!("(p{i} o{k})"),
            (_, None) => format!("(p{i} ?x)"),
        }
    }

    /// The ground atom of fact index `f`.
    fn fact_atom(&self, f: usize) -> String {
        self.atom(f / self.width(), Some(f % self.width()))
    }

    fn conjunction(items: impl Iterator<Item = String>) -> String {
        let mut s = String::from("(and");
        for item in items {
            s.push(' ');
            s.push_str(&item);
        }
        s.push(')');
        s
    }

    fn domain_pddl(&self) -> String {
        let mut s = String::from(
            "(define (domain random)\n  (:requirements :strips :negative-preconditions :action-costs)\n  (:predicates",
        );
        for i in 0..self.predicates {
            s.push_str(&if self.objects == 0 {
                format!(" (p{i})")
            } else {
                format!(" (p{i} ?x)")
            });
        }
        s.push_str(")\n  (:functions (total-cost) - number)\n");
        if self.objects > 0 {
            s.push_str("  (:constants");
            for k in 0..self.objects {
                s.push_str(&format!(" o{k}"));
            }
            s.push_str(")\n");
        }
        for (k, a) in self.actions.iter().enumerate() {
            let pre = Self::conjunction((0..self.predicates).filter_map(|i| {
                let atom = self.atom(i, a.args[i]);
                a.pre[i].map(|positive| if positive { atom } else { format!("(not {atom})") })
            }));
            let mut effects: Vec<String> = Vec::new();
            for i in 0..self.predicates {
                if a.add[i] {
                    effects.push(self.atom(i, a.args[i]));
                }
                if a.del[i] {
                    effects.push(format!("(not {})", self.atom(i, a.args[i])));
                }
            }
            effects.push(format!("(increase (total-cost) {})", a.cost));
            let params = if self.objects == 0 { "()" } else { "(?x)" };
            s.push_str(&format!(
                "  (:action a{k}\n    :parameters {params}\n    :precondition {pre}\n    :effect {})\n",
                Self::conjunction(effects.into_iter())
            ));
        }
        s.push(')');
        s
    }

    fn problem_pddl(&self) -> String {
        let init: String = (0..self.init.len())
            .filter(|&f| self.init[f])
            .map(|f| format!(" {}", self.fact_atom(f)))
            .collect();
        let goal = Self::conjunction(self.goal.iter().enumerate().filter_map(|(f, g)| {
            g.map(|positive| {
                let atom = self.fact_atom(f);
                if positive { atom } else { format!("(not {atom})") }
            })
        }));
        format!(
            "(define (problem r) (:domain random)\n  (:init{init} (= (total-cost) 0))\n  (:goal {goal})\n  (:metric minimize (total-cost)))"
        )
    }

    /// The optimal plan cost on the generator's own model (bit masks, its
    /// own grounding of `?x`), by Dijkstra: independent of parser and grounder.
    fn optimal_cost(&self) -> Option<u64> {
        let w = self.width();
        let mask = |f: &dyn Fn(usize) -> bool| (0..self.init.len()).filter(|&i| f(i)).fold(0u32, |m, i| m | 1 << i);
        let init = mask(&|f| self.init[f]);
        let goal_pos = mask(&|f| self.goal[f] == Some(true));
        let goal_neg = mask(&|f| self.goal[f] == Some(false));
        let mut ops: Vec<(u32, u32, u32, u32, u64)> = Vec::new();
        for a in &self.actions {
            for x in 0..w {
                // The fact predicate `i` of this action stands for, with ?x = x.
                let bit = |i: usize| 1u32 << (i * w + a.args[i].filter(|_| self.objects > 0).unwrap_or(x).min(w - 1));
                let sum =
                    |keep: &dyn Fn(usize) -> bool| (0..self.predicates).filter(|&i| keep(i)).fold(0, |m, i| m | bit(i));
                ops.push((
                    sum(&|i| a.pre[i] == Some(true)),
                    sum(&|i| a.pre[i] == Some(false)),
                    sum(&|i| a.add[i]),
                    sum(&|i| a.del[i]),
                    a.cost as u64,
                ));
            }
        }
        let mut dist: HashMap<u32, u64> = HashMap::new();
        let mut heap = BinaryHeap::from([Reverse((0u64, init))]);
        while let Some(Reverse((d, s))) = heap.pop() {
            if dist.contains_key(&s) {
                continue;
            }
            dist.insert(s, d);
            if s & goal_pos == goal_pos && s & goal_neg == 0 {
                return Some(d);
            }
            for &(pre, pre_neg, add, del, cost) in &ops {
                if s & pre == pre && s & pre_neg == 0 {
                    let t = (s & !del) | add;
                    if !dist.contains_key(&t) {
                        heap.push(Reverse((d + cost, t)));
                    }
                }
            }
        }
        None
    }
}

/// Parses and grounds; `None` when grounding proves the task unsolvable.
fn load(spec: &Spec) -> (pddl::Domain, pddl::Problem, Option<Task>) {
    let domain = pddl::parse_domain(&spec.domain_pddl(), "random-domain.pddl").expect("generated domain parses");
    let problem = pddl::parse_problem_for(&domain, &spec.problem_pddl(), "random-problem.pddl")
        .expect("generated problem parses");
    let task = match ground::ground(&domain, &problem) {
        Ok((task, _)) => Some(task),
        Err(GroundError::GoalUnreachable(_)) => None,
        Err(e) => panic!("grounding failed: {e}"),
    };
    (domain, problem, task)
}

/// The reachable space of the grounded task: states (as words), their
/// successors, and h* of each (None: no plan from there).
struct Space {
    states: Vec<Vec<u64>>,
    h_star: Vec<Option<u64>>,
}

fn explore(task: &Task) -> Space {
    let n = task.num_facts();
    let init = task.initial_state();
    let mut index: HashMap<Vec<u64>, usize> = HashMap::from([(init.words().to_vec(), 0)]);
    let mut states = vec![init.words().to_vec()];
    // Reverse edges: for each state, (predecessor, cost).
    let mut preds: Vec<Vec<(usize, u64)>> = vec![Vec::new()];
    let mut queue = VecDeque::from([0usize]);
    let mut succ = StateBuf::new(n);
    while let Some(i) = queue.pop_front() {
        let state = StateBuf::from_words(&states[i], n);
        for op in &task.operators {
            if !op.is_applicable(state.bits()) {
                continue;
            }
            op.apply_into(state.bits(), succ.bits_mut());
            let key = succ.words().to_vec();
            let j = *index.entry(key.clone()).or_insert_with(|| {
                states.push(key);
                preds.push(Vec::new());
                queue.push_back(states.len() - 1);
                states.len() - 1
            });
            preds[j].push((i, op.cost as u64));
        }
    }
    // Backward Dijkstra from all goal states.
    let mut h_star: Vec<Option<u64>> = vec![None; states.len()];
    let mut heap = BinaryHeap::new();
    for (i, s) in states.iter().enumerate() {
        if task.is_goal(StateBuf::from_words(s, n).bits()) {
            heap.push(Reverse((0u64, i)));
        }
    }
    while let Some(Reverse((d, i))) = heap.pop() {
        if h_star[i].is_some() {
            continue;
        }
        h_star[i] = Some(d);
        for &(p, c) in &preds[i] {
            if h_star[p].is_none() {
                heap.push(Reverse((d + c, p)));
            }
        }
    }
    Space { states, h_star }
}

fn astar(task: &Task, kind: &HeuristicKind) -> Outcome {
    let mut h = kind.build(task);
    let config = SearchConfig {
        strategy: SearchStrategy::Astar,
        ..SearchConfig::default()
    };
    search::search(task, h.as_mut(), None, &config).0
}

fn lifted(task: &Task, ops: &[OpId]) -> Plan {
    Plan {
        steps: ops
            .iter()
            .map(|&o| {
                let op = &task.operators[o as usize];
                PlanStep {
                    action: op.action.clone(),
                    args: op.args.clone(),
                    location: Default::default(),
                }
            })
            .collect(),
    }
}

/// Replays operator ids on the grounded task: the independent judge of validity.
fn replay(task: &Task, ops: &[OpId]) -> bool {
    let n = task.num_facts();
    let mut state = task.initial_state();
    let mut next = StateBuf::new(n);
    for &o in ops {
        let op = &task.operators[o as usize];
        if !op.is_applicable(state.bits()) {
            return false;
        }
        op.apply_into(state.bits(), next.bits_mut());
        std::mem::swap(&mut state, &mut next);
    }
    task.is_goal(state.bits())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: SEARCH_CASES, ..ProptestConfig::default() })]

    #[test]
    fn optimal_searches_and_heuristics_agree_with_brute_force(spec in spec()) {
        let optimum = spec.optimal_cost();
        let (_, _, task) = load(&spec);
        let Some(task) = task else {
            // Grounding's proof of unsolvability must be right.
            prop_assert_eq!(optimum, None);
            return Ok(());
        };
        let space = explore(&task);
        prop_assert_eq!(space.h_star[0], optimum, "brute force on the grounded task vs on the model");

        let blind = astar(&task, &blind::BLIND);
        let mut lengths = Vec::new();
        for (kind, outcome) in [
            (&blind::BLIND, blind.clone()),
            (&relax::HMAX, astar(&task, &relax::HMAX)),
            (&lmcut::LM_CUT, astar(&task, &lmcut::LM_CUT)),
        ] {
            match (&outcome, optimum) {
                (Outcome::Solved(ops), Some(cost)) => {
                    prop_assert!(replay(&task, ops), "{:?}: plan does not reach the goal", kind);
                    prop_assert_eq!(task.plan_cost(ops), cost, "{:?}: plan cost", kind);
                    lengths.push(ops.len());
                }
                (Outcome::Unsolvable, None) => {}
                (other, _) => prop_assert!(false, "{:?}: {:?} but the optimum is {:?}", kind, other, optimum),
            }
        }
        // On unit costs, A* finds shortest plans: all of the same length.
        if spec.actions.iter().all(|a| a.cost == 1) {
            prop_assert!(lengths.windows(2).all(|w| w[0] == w[1]), "lengths {:?}", lengths);
        }

        let mut hmax = relax::HMAX.build(&task);
        let mut lmcut = lmcut::LM_CUT.build(&task);
        let mut hadd = relax::HADD.build(&task);
        let mut hff = relax::HFF.build(&task);
        for (s, h_star) in space.states.iter().zip(&space.h_star) {
            let state = StateBuf::from_words(s, task.num_facts());
            let bits = state.bits();
            let (vmax, vcut) = (hmax.evaluate(bits), lmcut.evaluate(bits));
            for (name, v) in [("hmax", vmax), ("lmcut", vcut)] {
                match (v, h_star) {
                    (Some(v), Some(h)) => prop_assert!(v <= *h, "{} = {} > h* = {}", name, v, h),
                    (None, Some(h)) => prop_assert!(false, "{} says dead end, h* = {}", name, h),
                    _ => {}
                }
            }
            prop_assert_eq!(vcut.is_none(), vmax.is_none(), "lmcut and hmax dead ends differ");
            prop_assert_eq!(hadd.evaluate(bits).is_none(), vmax.is_none(), "hadd vs hmax infinity");
            prop_assert_eq!(hff.evaluate(bits).is_none(), vmax.is_none(), "hff vs hmax infinity");
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: VALIDATOR_CASES, ..ProptestConfig::default() })]

    #[test]
    fn validator_agrees_with_replay_on_mutated_plans(
        spec in spec(),
        mutation in 0usize..3,
        a in any::<prop::sample::Index>(),
        b in any::<prop::sample::Index>(),
        op in any::<prop::sample::Index>(),
    ) {
        let (domain, problem, task) = load(&spec);
        let Some(task) = task else { return Ok(()) };
        let Outcome::Solved(ops) = astar(&task, &lmcut::LM_CUT) else { return Ok(()) };
        let validation = plan::validate(&domain, &problem, &lifted(&task, &ops));
        prop_assert!(validation.is_ok(), "validator rejects a search plan: {:?}", validation);
        prop_assert_eq!(validation.map(|v| v.cost).ok(), Some(task.plan_cost(&ops)));
        if ops.is_empty() || task.operators.is_empty() {
            return Ok(());
        }
        let mut mutated = ops.clone();
        match mutation {
            0 => {
                mutated.remove(a.index(ops.len()));
            }
            1 => mutated.swap(a.index(ops.len()), b.index(ops.len())),
            _ => mutated[a.index(ops.len())] = op.index(task.operators.len()) as OpId,
        }
        let really_valid = replay(&task, &mutated);
        let verdict = plan::validate(&domain, &problem, &lifted(&task, &mutated));
        prop_assert_eq!(verdict.is_ok(), really_valid, "validator {:?} on {:?}", verdict, mutated);
    }
}
