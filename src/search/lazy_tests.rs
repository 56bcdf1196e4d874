//! The lazy engine and novelty on hand-built tasks: plans checked by replay
//! against a brute-force Dijkstra, the expansion order written out by hand,
//! novelty values of a sequence of states.

use super::novelty::{NOT_NOVEL, Novelty, PAIR_TABLE_CAP, Partition};
use super::tests::{Builder, config, dijkstra, replay, switches, test_tasks};
use super::*;
use crate::heuristic::Estimate;
use crate::heuristic::blind::Blind;
use crate::heuristic::goalcount::GoalCount;
use crate::rng::Lcg;
use crate::task::FactId;
use crate::task::registry::StateId;
use crate::task::state::StateBits;
use crate::task::testing::{random_task, state};

/// Every lazy variant: with and without novelty, in every successor order;
/// greedy, and weighted A* with weights 1 and 3; greedy and weighted A*
/// with type-based exploration.
fn lazy_variants() -> Vec<LazyOptions> {
    let orders = [
        SuccessorOrder::PreferredFirst,
        SuccessorOrder::Natural,
        SuccessorOrder::Shuffled,
    ];
    let mut variants: Vec<LazyOptions> = [NoveltyUse::Off, NoveltyUse::FirstKey, NoveltyUse::OwnList]
        .into_iter()
        .flat_map(|novelty| {
            orders.map(|order| LazyOptions {
                novelty,
                order,
                weight: None,
                ..LazyOptions::default()
            })
        })
        .collect();
    for weight in [1.0, 3.0] {
        for order in orders {
            variants.push(LazyOptions {
                order,
                weight: Some(weight),
                ..LazyOptions::default()
            });
        }
    }
    for weight in [None, Some(2.0)] {
        variants.push(LazyOptions {
            exploration: Exploration::Types,
            weight,
            ..LazyOptions::default()
        });
    }
    variants
}

#[test]
fn lazy_search_with_several_heuristics_finds_valid_plans() {
    for task in test_tasks() {
        for options in lazy_variants() {
            let mut goal_count = GoalCount::new(&task);
            let mut hff = relax::HFF.build(&task);
            let mut guides = [Guide::new(hff.as_mut(), true), Guide::new(&mut goal_count, false)];
            let c = SearchConfig {
                preferred_operators: true,
                ..config(Strategy::Lazy(options))
            };
            let (outcome, stats) = search_lazy(&task, &mut guides, options, &c);
            let Outcome::Solved(plan) = outcome else {
                panic!("{options:?}: {outcome:?}");
            };
            assert!(replay(&task, &plan).is_some(), "{options:?}: invalid plan {plan:?}");
            // One evaluation per expanded state or dead end, plus the goal's.
            assert_eq!(stats.evaluated, stats.expanded + stats.dead_ends + 1, "{options:?}");
        }
    }
}

#[test]
fn lazy_search_proves_unsolvability_and_respects_bounds() {
    for options in lazy_variants() {
        let task = switches(6, false);
        let (outcome, _) = search(
            &task,
            &mut GoalCount::new(&task),
            None,
            &config(Strategy::Lazy(options)),
        );
        assert_eq!(outcome, Outcome::Unsolvable, "{options:?}");
    }
    // Below the optimum no plan exists; at the optimum one must be found,
    // and it is then optimal: reopening keeps the exhaustive search complete.
    for task in test_tasks() {
        let optimum = dijkstra(&task).expect("solvable");
        for options in lazy_variants() {
            for (bound, expected) in [(optimum.checked_sub(1), None), (Some(optimum), Some(optimum))] {
                let Some(bound) = bound else { continue };
                let c = SearchConfig {
                    bound: Some(bound),
                    ..config(Strategy::Lazy(options))
                };
                let (outcome, _) = search(&task, &mut GoalCount::new(&task), None, &c);
                let cost = match outcome {
                    Outcome::Solved(plan) => Some(replay(&task, &plan).expect("valid plan")),
                    Outcome::Unsolvable => None,
                    other => panic!("{other:?}"),
                };
                assert_eq!(cost, expected, "{options:?}, bound {bound}");
            }
        }
    }
}

/// h from a table over facts (of the one true fact), recording the states
/// it evaluates.
struct Scripted {
    values: Vec<u64>,
    evaluated: Vec<FactId>,
}

impl Heuristic for Scripted {
    fn name(&self) -> &str {
        "scripted"
    }

    fn evaluate(&mut self, state: &StateBits) -> Estimate {
        let fact = state.first_one().expect("one fact is true") as FactId;
        self.evaluated.push(fact);
        Some(self.values[fact as usize])
    }

    fn is_admissible(&self) -> bool {
        false
    }
}

/// Deferred evaluation, by hand. From s, operators lead to a, b and c
/// (h = 2, 1, 3); a leads to x (h 2), b to y (h 1), c to the goal g; x and
/// y are dead ends without successors. s is expanded first: its three
/// successors enter with s's value 3, in operator order. Popping (s, a)
/// evaluates and expands a, whose successor enters with a's value 2, ahead
/// of (s, b) and (s, c) with 3: x comes next. Then (s, b): b, whose
/// successor y enters with 1 and comes next. Then (s, c): c, then g.
/// (Eager greedy search would evaluate a, b, c when s is expanded and then
/// go for b first.)
#[test]
fn lazy_greedy_expands_in_the_documented_order() {
    let mut b = Builder::default();
    let names = ["s", "a", "b", "c", "x", "y", "g"];
    for name in names {
        b.fact(name);
    }
    for (from, to) in [("s", "a"), ("s", "b"), ("s", "c"), ("a", "x"), ("b", "y"), ("c", "g")] {
        b.op(&format!("{from}-{to}"), &[from], &[], &[from], &[to], 1);
    }
    let task = b.build(&["s"], &["g"], &[]);
    let mut h = Scripted {
        values: vec![3, 2, 1, 3, 2, 1, 0],
        evaluated: Vec::new(),
    };
    let (outcome, stats) = search(&task, &mut h, None, &config(Strategy::Lazy(LazyOptions::default())));
    let order: Vec<&str> = h.evaluated.iter().map(|&f| names[f as usize]).collect();
    assert_eq!(order, ["s", "a", "x", "b", "y", "c", "g"]);
    assert_eq!(outcome, Outcome::Solved(vec![2, 5]));
    assert_eq!((stats.expanded, stats.evaluated, stats.generated), (6, 7, 6));
}

/// Lazy weighted A*, by hand: from s (h 3) an expensive way s-a-g (cost
/// 11, then 10, h(a) = 1) and a cheap one s-b-c-g (cost 1 each, h(b) = 2,
/// h(c) = 1). Greedy search takes (s, a) first (both entries have s's
/// value 3, a's operator comes first) and then g: cost 21. Weighted A*
/// keys an entry by its parent's g + W·h, the same for all successors of a
/// state: (s, a) and (s, b) both get 0 + 3W, and (s, a) leaves first, so
/// a is evaluated (as in Fast Downward's lazy search; keyed by the
/// successor's g, (s, a) would have got 11 + 3W and never left). Then
/// (a, g) has 11 + W, behind (s, b) with 3W (W = 1: 12 against 3; W = 5:
/// 16 against 15), and (b, c) with 1 + 2W and (c, g) with 2 + W come
/// before it too: cost 3.
#[test]
fn lazy_weighted_astar_keys_successors_by_their_parents_g_plus_weighted_h() {
    let mut b = Builder::default();
    let names = ["s", "a", "b", "c", "g"];
    for name in names {
        b.fact(name);
    }
    for (from, to, cost) in [
        ("s", "a", 11),
        ("s", "b", 1),
        ("a", "g", 10),
        ("b", "c", 1),
        ("c", "g", 1),
    ] {
        b.op(&format!("{from}-{to}"), &[from], &[], &[from], &[to], cost);
    }
    let task = b.build(&["s"], &["g"], &[]);
    let run = |weight: Option<f64>| {
        let mut h = Scripted {
            values: vec![3, 1, 2, 1, 0],
            evaluated: Vec::new(),
        };
        let options = LazyOptions {
            weight,
            ..LazyOptions::default()
        };
        let (outcome, stats) = search(&task, &mut h, None, &config(Strategy::Lazy(options)));
        let Outcome::Solved(plan) = outcome else {
            panic!("{outcome:?}");
        };
        let order: Vec<&str> = h.evaluated.iter().map(|&f| names[f as usize]).collect();
        (replay(&task, &plan).expect("valid plan"), order, stats.expanded)
    };
    assert_eq!(run(None), (21, vec!["s", "a", "g"], 2));
    for w in [1.0, 5.0] {
        assert_eq!(run(Some(w)), (3, vec!["s", "a", "b", "c", "g"], 4), "w={w}");
    }
}

/// Lazy weighted A* breaks no ties on h, by hand (W = 1): s (h 3) leads to
/// a (cost 1, h 2) and b (cost 2, h 1), both to the goal g (cost 1). s's
/// entries (s, a), (s, b) get 0 + 3; popping (s, a) evaluates a, whose
/// entry (a, g) gets 1 + 2 = 3 too. FIFO, (s, b) leaves before it, though
/// (a, g) stands for the lower h: b is evaluated, its (b, g) gets
/// 2 + 1 = 3, and (a, g) then leaves first: g by way of a.
#[test]
fn lazy_weighted_astar_breaks_ties_first_in_first_out() {
    let mut b = Builder::default();
    let names = ["s", "a", "b", "g"];
    for name in names {
        b.fact(name);
    }
    for (from, to, cost) in [("s", "a", 1), ("s", "b", 2), ("a", "g", 1), ("b", "g", 1)] {
        b.op(&format!("{from}-{to}"), &[from], &[], &[from], &[to], cost);
    }
    let task = b.build(&["s"], &["g"], &[]);
    let mut h = Scripted {
        values: vec![3, 2, 1, 0],
        evaluated: Vec::new(),
    };
    let options = LazyOptions {
        weight: Some(1.0),
        ..LazyOptions::default()
    };
    let (outcome, stats) = search(&task, &mut h, None, &config(Strategy::Lazy(options)));
    let order: Vec<&str> = h.evaluated.iter().map(|&f| names[f as usize]).collect();
    assert_eq!(order, ["s", "a", "b", "g"]);
    assert_eq!(outcome, Outcome::Solved(vec![0, 2]));
    assert_eq!(stats.expanded, 3);
}

/// Lazy weighted A* under a bound with inadmissible guides (h_FF and the
/// landmark count, on costs + 1, as in LAMA's later iterations) on random
/// tasks: below the optimum the open list empties (a proof, since pruning
/// is on g alone), at the optimum it finds an optimal plan.
#[test]
fn lazy_weighted_astar_under_a_bound_is_exhaustive_with_inadmissible_guides() {
    use crate::heuristic::cost_type::CostType;
    use crate::heuristic::{BuildContext, lmcount};
    let context = BuildContext {
        cost_type: CostType::PlusOne,
        ..BuildContext::default()
    };
    let mut rng = Lcg::new(23);
    let mut decided = 0;
    for _ in 0..200 {
        let task = random_task(&mut rng, 7, 10);
        let Some(optimum) = dijkstra(&task) else { continue };
        for weight in [5.0, 1.0] {
            for (bound, expected) in [(optimum.checked_sub(1), None), (Some(optimum), Some(optimum))] {
                let Some(bound) = bound else { continue };
                let mut hff = relax::HFF.build_with(&task, &context);
                let mut lm = lmcount::LM_COUNT.build_with(&task, &context);
                let mut guides = [Guide::new(hff.as_mut(), true), Guide::new(lm.as_mut(), true)];
                let options = LazyOptions {
                    weight: Some(weight),
                    ..LazyOptions::default()
                };
                let c = SearchConfig {
                    bound: Some(bound),
                    preferred_operators: true,
                    ..config(Strategy::Lazy(options))
                };
                let cost = match search_lazy(&task, &mut guides, options, &c).0 {
                    Outcome::Solved(plan) => Some(replay(&task, &plan).expect("valid plan")),
                    Outcome::Unsolvable => None,
                    other => panic!("{other:?}"),
                };
                assert_eq!(cost, expected, "w={weight}, bound {bound}: {task:?}");
                decided += 1;
            }
        }
    }
    assert!(decided > 100, "{decided}");
}

#[test]
fn lazy_with_blind_search_is_complete_on_every_test_task() {
    for task in test_tasks() {
        let (outcome, _) = search(
            &task,
            &mut Blind::new(&task),
            None,
            &config(Strategy::Lazy(LazyOptions::default())),
        );
        let Outcome::Solved(plan) = outcome else {
            panic!("{outcome:?}");
        };
        assert!(replay(&task, &plan).is_some());
    }
}

/// Facts p, q, r and the goal g; only `finish` (p → g) is in the relaxed
/// plan of the initial state {p}, so g is the one plan fact and the
/// partitions are (1, 0) without g and (0, 1) with it.
fn novelty_task() -> crate::task::Task {
    let mut b = Builder::default();
    for name in ["p", "q", "r", "g"] {
        b.fact(name);
    }
    b.op("finish", &["p"], &[], &[], &["g"], 1);
    b.op("make-q", &[], &[], &[], &["q"], 1);
    b.op("make-r", &[], &[], &[], &["r"], 1);
    b.build(&["p"], &["g"], &[])
}

#[test]
fn novelty_of_a_sequence_of_states() {
    let task = novelty_task();
    let (p, q, r, g) = (0, 1, 2, 3);
    let mut novelty = Novelty::new(&task, PAIR_TABLE_CAP);
    assert_eq!(novelty.plan_facts(), [g]);
    // (state, partition, novelty with pairs, novelty with facts only)
    let table: [(&[FactId], Partition, u8, u8); 11] = [
        (&[p], (1, 0), 1, 1),
        (&[p], (1, 0), NOT_NOVEL, NOT_NOVEL),
        (&[q], (1, 0), 1, 1),
        (&[p, q], (1, 0), 2, NOT_NOVEL),
        (&[p, q], (1, 0), NOT_NOVEL, NOT_NOVEL),
        (&[p, q, r], (1, 0), 1, 1),
        // (p, r) and (q, r) came with p, q, r.
        (&[p, r], (1, 0), NOT_NOVEL, NOT_NOVEL),
        (&[q, r], (1, 0), NOT_NOVEL, NOT_NOVEL),
        // The goal opens a partition of its own.
        (&[g], (0, 1), 1, 1),
        (&[p, g], (0, 1), 1, 1),
        (&[p], (1, 0), NOT_NOVEL, NOT_NOVEL),
    ];
    let mut facts_only = Novelty::new(&task, 0);
    for (facts, partition, with_pairs, without) in table {
        let s = state(task.num_facts(), facts);
        assert_eq!(novelty.partition(s.bits()), partition, "{facts:?}");
        assert_eq!(novelty.evaluate(s.bits()), with_pairs, "{facts:?}");
        assert_eq!(facts_only.evaluate(s.bits()), without, "{facts:?} without pairs");
    }
    assert_eq!(novelty.partitions(), (2, 2));
    assert_eq!(facts_only.partitions(), (2, 0));
}

/// The shortcut for successors (only facts and pairs with an added fact)
/// gives the values of the full evaluation.
#[test]
fn novelty_of_successors_equals_the_full_evaluation() {
    let mut rng = Lcg::new(11);
    for _ in 0..20 {
        let task = random_task(&mut rng, 10, 14);
        let mut full = Novelty::new(&task, PAIR_TABLE_CAP);
        let mut incremental = Novelty::new(&task, PAIR_TABLE_CAP);
        let init = task.initial_state();
        assert_eq!(full.evaluate(init.bits()), incremental.evaluate(init.bits()));
        let mut visited = vec![init];
        for _ in 0..200 {
            let parent = visited[rng.below(visited.len() as u64) as usize].clone();
            let applicable: Vec<_> = task
                .operators
                .iter()
                .filter(|op| op.is_applicable(parent.bits()))
                .collect();
            if applicable.is_empty() {
                continue;
            }
            let op = applicable[rng.below(applicable.len() as u64) as usize];
            let mut child = parent.clone();
            op.apply_into(parent.bits(), child.bits_mut());
            let expected = full.evaluate(child.bits());
            let partition = incremental.partition(parent.bits());
            assert_eq!(
                incremental.evaluate_successor(child.bits(), partition, &op.add),
                expected
            );
            visited.push(child);
        }
    }
}

/// A path-dependent heuristic that checks the order of the hooks: every
/// evaluated node was announced (as the initial state or by a transition)
/// before its evaluation, with the state that is evaluated.
struct Watcher {
    goal_count: GoalCount,
    announced: std::collections::HashMap<StateId, Vec<u64>>,
    initial: usize,
    transitions: usize,
    evaluations: usize,
}

impl Heuristic for Watcher {
    fn name(&self) -> &str {
        "watcher"
    }

    fn evaluate(&mut self, _: &StateBits) -> Estimate {
        panic!("a path-dependent heuristic is evaluated through evaluate_node");
    }

    fn is_admissible(&self) -> bool {
        false
    }

    fn is_path_dependent(&self) -> bool {
        true
    }

    fn notify_initial(&mut self, id: StateId, state: &StateBits) {
        self.initial += 1;
        self.announced.insert(id, state.domain().collect());
    }

    fn notify_transition(&mut self, _: StateId, _: &StateBits, _: OpId, child: StateId, state: &StateBits) {
        self.transitions += 1;
        self.announced.insert(child, state.domain().collect());
    }

    fn evaluate_node(&mut self, id: StateId, state: &StateBits) -> Estimate {
        self.evaluations += 1;
        let words: Vec<u64> = state.domain().collect();
        assert_eq!(
            self.announced.get(&id),
            Some(&words),
            "node {id} evaluated before it was announced"
        );
        self.goal_count.evaluate(state)
    }
}

#[test]
fn path_dependent_heuristics_see_every_transition_before_the_evaluation() {
    for task in test_tasks() {
        for options in lazy_variants() {
            let mut h = Watcher {
                goal_count: GoalCount::new(&task),
                announced: Default::default(),
                initial: 0,
                transitions: 0,
                evaluations: 0,
            };
            let (outcome, stats) = search(&task, &mut h, None, &config(Strategy::Lazy(options)));
            assert!(matches!(outcome, Outcome::Solved(_)), "{options:?}");
            assert_eq!(h.initial, 1);
            assert_eq!(h.evaluations as u64, stats.evaluated);
            // Every evaluated state but the initial one came by a transition;
            // transitions into states seen before are announced too.
            assert!(h.transitions as u64 + 1 >= stats.evaluated, "{options:?}");
        }
    }
}

/// Without preferred operators there are no preferred lists, and the
/// successors come in operator order whatever the configured order.
#[test]
fn without_preferred_operators_the_order_is_natural() {
    for task in test_tasks() {
        let run = |order: SuccessorOrder| {
            let options = LazyOptions {
                order,
                ..LazyOptions::default()
            };
            let mut hff = relax::HFF.build(&task);
            let mut guides = [Guide::new(hff.as_mut(), true)];
            let c = SearchConfig {
                preferred_operators: false,
                ..config(Strategy::Lazy(options))
            };
            let (outcome, stats) = search_lazy(&task, &mut guides, options, &c);
            (outcome, stats.expanded, stats.generated)
        };
        assert_eq!(run(SuccessorOrder::PreferredFirst), run(SuccessorOrder::Natural));
    }
}

/// A heuristic whose preferred operators are hidden: the same values, none preferred.
struct NonePreferred<'a>(&'a mut dyn Heuristic);

impl Heuristic for NonePreferred<'_> {
    fn name(&self) -> &str {
        self.0.name()
    }
    fn evaluate(&mut self, state: &StateBits) -> Estimate {
        self.0.evaluate(state)
    }
    fn is_admissible(&self) -> bool {
        self.0.is_admissible()
    }
    fn is_path_dependent(&self) -> bool {
        self.0.is_path_dependent()
    }
    fn notify_initial(&mut self, id: StateId, state: &StateBits) {
        self.0.notify_initial(id, state)
    }
    fn notify_transition(&mut self, p: StateId, ps: &StateBits, op: crate::task::OpId, c: StateId, cs: &StateBits) {
        self.0.notify_transition(p, ps, op, c, cs)
    }
    fn evaluate_node(&mut self, id: StateId, state: &StateBits) -> Estimate {
        self.0.evaluate_node(id, state)
    }
}

/// A guide that offers no preferred operators (Fast Downward's `pref=false`)
/// keeps its preferred list, filled by the others' preferred operators: the
/// search is the one whose guide has none to offer.
#[test]
fn a_guide_that_offers_no_preferred_operators_keeps_its_list() {
    use crate::heuristic::lmcount;
    let mut rng = Lcg::new(29);
    let mut compared = 0;
    for _ in 0..60 {
        let task = random_task(&mut rng, 7, 10);
        for options in lazy_variants() {
            let c = SearchConfig {
                preferred_operators: true,
                ..config(Strategy::Lazy(options))
            };
            let mut runs = Vec::new();
            for hidden in [false, true] {
                let mut hff = relax::HFF.build(&task);
                let mut lm = lmcount::LM_COUNT.build(&task);
                let mut masked;
                let second = match hidden {
                    // Its own preferred operators hidden, offered: none come.
                    true => {
                        masked = NonePreferred(lm.as_mut());
                        Guide::new(&mut masked, true)
                    }
                    false => Guide {
                        offers_preferred: false,
                        ..Guide::new(lm.as_mut(), true)
                    },
                };
                let mut guides = [Guide::new(hff.as_mut(), true), second];
                runs.push(search_lazy(&task, &mut guides, options, &c));
            }
            let ((a, sa), (b, sb)) = (&runs[0], &runs[1]);
            assert_eq!(a, b, "{options:?}");
            assert_eq!(
                (sa.expanded, sa.evaluated, sa.generated),
                (sb.expanded, sb.evaluated, sb.generated)
            );
            compared += 1;
        }
    }
    assert!(compared > 100, "{compared}");
}
