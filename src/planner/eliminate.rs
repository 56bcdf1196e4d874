//! Greedy action elimination (Nakhost and Müller 2010), with repairs and
//! replacements: a plan found by greedy search often takes detours
//! (achieves a fact, destroys it, achieves it again) or achieves a fact in
//! a way that needs more steps later. Removing or replacing such steps
//! keeps the plan valid and makes it cheaper, for a few replays of the
//! plan, far less than any search.
//!
//! A change starts at step `i`: remove it, or replace it by another
//! applicable operator that achieves some of its adds false there (up to
//! [`MAX_ALTERNATIVES`], those achieving most of them first, then the
//! cheapest). Then the rest of
//! the plan is replayed. A later step that no longer applies is
//! *repaired*: replaced by the cheapest applicable operator, no dearer,
//! after which every fact the step added holds (a ground operator often
//! names the values it overwrites, as in `(paint ?x ?old ?new)`: once a
//! detour is gone, the step with another `?old` applies), or else removed.
//! If the goal holds at the end, the change is a candidate, worth the cost
//! it saves. Each round makes the candidate that saves most (the earliest
//! on ties) and starts again on the changed plan, until no candidate makes
//! the plan cheaper, or as cheap and shorter (zero-cost steps removed).
//! Every change made shrinks (cost, length), so the rounds end.
//!
//! Every round replays the plan a few times per step, so the work is
//! bounded ([`MAX_APPLICATIONS`]), and a stop of the run (time limit,
//! Ctrl-C) ends it too: the plan then keeps the changes made so far.

use crate::search::{SuccessorGenerator, is_applicable};
use crate::task::state::bits_of;
use crate::task::{OpId, Task};

/// Most operator applications one elimination spends.
const MAX_APPLICATIONS: u64 = 10_000_000;

/// Most operators tried in place of one step.
const MAX_ALTERNATIVES: usize = 16;

/// What [`eliminate`] did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Elimination {
    pub plan: Vec<OpId>,
    /// Steps removed.
    pub removed: usize,
    /// Steps replaced by another operator.
    pub replaced: usize,
    /// The cost the plan lost.
    pub saved: u64,
    /// The work limit or a stop of the run ended it, not a round without
    /// changes.
    pub stopped_early: bool,
    /// What changed, in the order the changes were made: the operators
    /// removed, and the pairs (operator, its replacement).
    pub removed_ops: Vec<OpId>,
    pub replaced_ops: Vec<(OpId, OpId)>,
}

/// The plan without redundant steps, and with cheaper replacements. `plan`
/// must be a plan of `task` (every step applicable in turn, the goal
/// reached).
pub fn eliminate(task: &Task, plan: &[OpId]) -> Elimination {
    let mut replay = Replay::new(task);
    let mut e = Elimination {
        plan: plan.to_vec(),
        removed: 0,
        replaced: 0,
        saved: 0,
        stopped_early: false,
        removed_ops: Vec::new(),
        replaced_ops: Vec::new(),
    };
    loop {
        match replay.best_change(&e.plan) {
            Ok(Some(change)) => {
                e.removed += change.removed.len();
                e.replaced += change.replaced.len();
                e.saved += change.saving as u64;
                e.removed_ops.extend(change.removed.iter().map(|&j| e.plan[j]));
                for &(j, op) in &change.replaced {
                    e.replaced_ops.push((e.plan[j], op));
                    e.plan[j] = op;
                }
                let mut drop = vec![false; e.plan.len()];
                for j in change.removed {
                    drop[j] = true;
                }
                let mut j = 0;
                e.plan.retain(|_| {
                    j += 1;
                    !drop[j - 1]
                });
            }
            Ok(None) => return e,
            Err(OutOfWork) => {
                e.stopped_early = true;
                return e;
            }
        }
    }
}

struct OutOfWork;

/// A change of the plan that still reaches the goal: steps removed, steps
/// replaced (position, new operator), and the cost it saves.
struct Change {
    removed: Vec<usize>,
    replaced: Vec<(usize, OpId)>,
    saving: i64,
}

impl Change {
    /// Worth making: cheaper, or as cheap and shorter. Every change made
    /// makes the plan (cost, length) smaller, so the rounds end.
    fn improves(&self) -> bool {
        self.saving > 0 || (self.saving == 0 && !self.removed.is_empty())
    }
}

/// How a change starts at its first step.
#[derive(Clone, Copy)]
enum Start {
    Remove,
    Replace(OpId),
}

/// Replays plans on the task's states (as words), with the derived facts of
/// every state.
struct Replay<'a> {
    task: &'a Task,
    successors: SuccessorGenerator,
    applications: u64,
    /// Per fact, the operators that add it unconditionally, cheapest first.
    achievers: Vec<Vec<OpId>>,
    /// Per operator, a counter for [`Replay::alternatives`] (zero between
    /// calls).
    shared: Vec<u32>,
}

impl<'a> Replay<'a> {
    fn new(task: &'a Task) -> Self {
        let mut achievers = vec![Vec::new(); task.num_facts()];
        for (o, op) in task.operators.iter().enumerate() {
            for &f in &op.add {
                achievers[f as usize].push(o as OpId);
            }
        }
        for ops in &mut achievers {
            ops.sort_by_key(|&o| (task.operators[o as usize].cost, o));
        }
        Replay {
            task,
            successors: SuccessorGenerator::new(task),
            applications: 0,
            achievers,
            shared: vec![0; task.num_operators()],
        }
    }

    fn cost(&self, op: OpId) -> u64 {
        self.task.operators[op as usize].cost as u64
    }

    /// Writes into `out` the state after `op` in `state`.
    fn apply(&mut self, op: OpId, state: &[u64], out: &mut Vec<u64>) {
        self.applications += 1;
        out.clear();
        out.resize(state.len(), 0);
        self.successors.apply(&self.task.operators[op as usize], state, out);
    }

    fn applicable(&self, op: OpId, state: &[u64]) -> bool {
        is_applicable(&self.task.operators[op as usize], state)
    }

    /// The cheapest operator, no dearer than `op`, that applies in `state`
    /// and after which every fact `op` adds holds; `None` for an operator
    /// with conditional effects (what it achieves depends on the state) and
    /// for one whose adds all hold already.
    fn repair(&mut self, op: OpId, state: &[u64]) -> Option<OpId> {
        let operator = &self.task.operators[op as usize];
        if !operator.cond_effects.is_empty() {
            return None;
        }
        // The candidates: the achievers of its rarest add false now. When
        // every add holds already, the step achieves nothing and can go.
        let now = bits_of(state, self.task.num_facts());
        let rarest = *operator
            .add
            .iter()
            .filter(|&&f| !now[f as usize])
            .min_by_key(|&&f| self.achievers[f as usize].len())?;
        let candidates = std::mem::take(&mut self.achievers[rarest as usize]);
        let mut after = Vec::with_capacity(state.len());
        let mut found = None;
        for &other in &candidates {
            if self.cost(other) > self.cost(op) {
                break;
            }
            if other == op || !self.applicable(other, state) {
                continue;
            }
            self.apply(other, state, &mut after);
            let holds = bits_of(&after, self.task.num_facts());
            if self.task.operators[op as usize].add.iter().all(|&f| holds[f as usize]) {
                found = Some(other);
                break;
            }
        }
        self.achievers[rarest as usize] = candidates;
        found
    }

    /// The states of `plan`: the initial one, then the one after each step.
    fn trajectory(&mut self, plan: &[OpId]) -> Vec<Vec<u64>> {
        let mut states = Vec::with_capacity(plan.len() + 1);
        states.push(self.task.initial_state().words().to_vec());
        for &op in plan {
            let mut next = Vec::new();
            self.apply(op, states.last().expect("not empty"), &mut next);
            states.push(next);
        }
        states
    }

    /// Up to [`MAX_ALTERNATIVES`] operators other than `op` that apply in
    /// `state` and achieve some of `op`'s adds false there: those that
    /// achieve most of them first, then the cheapest.
    fn alternatives(&mut self, op: OpId, state: &[u64]) -> Vec<OpId> {
        let now = bits_of(state, self.task.num_facts());
        let mut touched: Vec<OpId> = Vec::new();
        for &f in self.task.operators[op as usize]
            .add
            .iter()
            .filter(|&&f| !now[f as usize])
        {
            for &o in &self.achievers[f as usize] {
                if self.shared[o as usize] == 0 {
                    touched.push(o);
                }
                self.shared[o as usize] += 1;
            }
        }
        let mut found: Vec<(u32, u64, OpId)> = touched
            .iter()
            .filter(|&&o| o != op && self.applicable(o, state))
            .map(|&o| (u32::MAX - self.shared[o as usize], self.cost(o), o))
            .collect();
        for &o in &touched {
            self.shared[o as usize] = 0;
        }
        found.sort_unstable();
        found.into_iter().take(MAX_ALTERNATIVES).map(|(_, _, o)| o).collect()
    }

    /// The change that removes step `i` or replaces it by another operator,
    /// then repairs or removes the later steps that no longer apply, if it
    /// still reaches the goal. The replay stops early once it is back on
    /// the plan's own trajectory: the rest of the plan then runs as before.
    fn change_at(&mut self, plan: &[OpId], states: &[Vec<u64>], i: usize, start: Start) -> Option<Change> {
        let mut change = Change {
            removed: Vec::new(),
            replaced: Vec::new(),
            saving: self.cost(plan[i]) as i64,
        };
        let mut state = states[i].clone();
        let mut next = Vec::with_capacity(state.len());
        match start {
            Start::Remove => change.removed.push(i),
            Start::Replace(other) => {
                change.replaced.push((i, other));
                change.saving -= self.cost(other) as i64;
                self.apply(other, &state, &mut next);
                std::mem::swap(&mut state, &mut next);
            }
        }
        for (j, &op) in plan.iter().enumerate().skip(i + 1) {
            let step = if self.applicable(op, &state) {
                op
            } else if let Some(other) = self.repair(op, &state) {
                change.replaced.push((j, other));
                change.saving += self.cost(op) as i64 - self.cost(other) as i64;
                other
            } else {
                change.removed.push(j);
                change.saving += self.cost(op) as i64;
                continue;
            };
            self.apply(step, &state, &mut next);
            std::mem::swap(&mut state, &mut next);
            if state == states[j + 1] {
                return Some(change);
            }
        }
        self.task
            .is_goal(bits_of(&state, self.task.num_facts()))
            .then_some(change)
    }

    /// The change that saves most (the earliest on ties) among those that
    /// improve the plan; `None` when there is none.
    fn best_change(&mut self, plan: &[OpId]) -> Result<Option<Change>, OutOfWork> {
        let states = self.trajectory(plan);
        let mut best: Option<Change> = None;
        for i in 0..plan.len() {
            let starts = std::iter::once(Start::Remove)
                .chain(self.alternatives(plan[i], &states[i]).into_iter().map(Start::Replace));
            for start in starts {
                if self.applications > MAX_APPLICATIONS || crate::limits::requested().is_some() {
                    return if best.is_some() { Ok(best) } else { Err(OutOfWork) };
                }
                let Some(change) = self.change_at(plan, &states, i, start) else {
                    continue;
                };
                if change.improves() && best.as_ref().is_none_or(|b| change.saving > b.saving) {
                    best = Some(change);
                }
            }
        }
        Ok(best)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Lcg;
    use crate::task::testing::{random_adl_task, random_task, replay, task};

    fn is_subsequence(short: &[OpId], long: &[OpId]) -> bool {
        let mut rest = long.iter();
        short.iter().all(|op| rest.any(|o| o == op))
    }

    /// Facts `a` (0) and `g` (1). A detour: op1 deletes `a` and op0 makes
    /// it true again; the cheapest plan is op0, op2.
    #[test]
    fn a_detour_is_removed() {
        let t = task(
            2,
            &[
                (&[], &[], &[0], &[], 1),
                (&[], &[], &[], &[0], 5),
                (&[0], &[], &[1], &[], 1),
            ],
            &[],
            &[1],
            &[],
        );
        let e = eliminate(&t, &[0, 1, 0, 2]);
        assert_eq!(e.plan, vec![0, 2]);
        assert_eq!((e.removed, e.replaced, e.saved, e.stopped_early), (2, 0, 6, false));
        // The log names them: the detour op1 and the op0 that repaired it.
        assert_eq!((e.removed_ops, e.replaced_ops), (vec![1, 0], vec![]));
    }

    /// The costliest redundant set goes first. Facts a (0), b (1), g (2);
    /// op0 adds a, op1 adds b and deletes a, op2 needs b and adds a, op3
    /// needs a and adds g. In the plan op0 op1 op2 op3, op0 alone is
    /// redundant (cost 1), and so are op1 with op2, which needs op1 (cost 5).
    #[test]
    fn the_costliest_redundant_set_goes_first() {
        let t = task(
            3,
            &[
                (&[], &[], &[0], &[], 1),
                (&[], &[], &[1], &[0], 1),
                (&[1], &[], &[0], &[], 4),
                (&[0], &[], &[2], &[], 1),
            ],
            &[],
            &[2],
            &[],
        );
        let e = eliminate(&t, &[0, 1, 2, 3]);
        assert_eq!(e.plan, vec![0, 3]);
        assert_eq!(e.saved, 5);
    }

    /// Facts natural (0), red (1), smooth (2). op0 paints red over natural;
    /// op1 planes a red piece (adds natural and smooth) and op2 a natural one
    /// (adds smooth). In paint, plane, paint the first paint is a detour:
    /// without it op1 no longer applies, and op2, after which natural and
    /// smooth hold too, takes its place.
    #[test]
    fn a_step_that_no_longer_applies_is_repaired() {
        let ops: [crate::task::testing::OpSpec; 3] = [
            (&[0], &[], &[1], &[0], 3),
            (&[1], &[], &[0, 2], &[1], 2),
            (&[0], &[], &[2], &[], 2),
        ];
        let t = task(3, &ops, &[0], &[1, 2], &[]);
        let e = eliminate(&t, &[0, 1, 0]);
        assert_eq!(e.plan, vec![2, 0]);
        assert_eq!((e.removed, e.replaced, e.saved), (1, 1, 3));
        // A dearer operator is no repair.
        let mut dear = ops;
        dear[2].4 = 3;
        let t = task(3, &dear, &[0], &[1, 2], &[]);
        assert_eq!(eliminate(&t, &[0, 1, 0]).plan, vec![0, 1, 0]);
    }

    /// Facts available (0), rough (1), smooth (2), planed (3). op0 saws a
    /// rough piece (1), op1 a smooth one (6), op2 planes (7; adds smooth
    /// and planed). In op0 op2 neither step can go, and op2 has no repair
    /// (nothing else adds planed); op1 in place of op0 makes op2
    /// unnecessary and saves 2.
    #[test]
    fn a_step_is_replaced_when_that_makes_later_ones_unnecessary() {
        let t = task(
            4,
            &[
                (&[], &[], &[0, 1], &[], 1),
                (&[], &[], &[0, 2], &[], 6),
                (&[1], &[], &[2, 3], &[1], 7),
            ],
            &[],
            &[0, 2],
            &[],
        );
        let e = eliminate(&t, &[0, 2]);
        assert_eq!(e.plan, vec![1]);
        assert_eq!((e.removed, e.replaced, e.saved), (1, 1, 2));
    }

    /// A plan without redundant steps stays as it is.
    #[test]
    fn a_plan_without_detours_is_kept() {
        let t = task(
            2,
            &[(&[], &[], &[0], &[], 1), (&[0], &[], &[1], &[], 1)],
            &[],
            &[1],
            &[],
        );
        let e = eliminate(&t, &[0, 1]);
        assert_eq!((e.plan, e.removed), (vec![0, 1], 0));
    }

    /// On random walks that end in a goal state, of random STRIPS tasks and
    /// of random tasks with conditional effects and derived facts: the
    /// result is a plan (replayed by the task's own successor function), a
    /// subsequence of the walk when nothing was repaired, and its cost is
    /// the walk's minus what was saved.
    #[test]
    fn random_walks_stay_plans() {
        let mut rng = Lcg::new(11);
        let mut checked = 0;
        for round in 0..600 {
            let t = if round % 2 == 0 {
                random_task(&mut rng, 6, 8)
            } else {
                random_adl_task(&mut rng, 6, 8)
            };
            let mut state = t.initial_state();
            let mut walk = Vec::new();
            for _ in 0..30 {
                if t.is_goal(state.bits()) {
                    break;
                }
                let applicable: Vec<OpId> = (0..t.num_operators() as OpId)
                    .filter(|&o| t.operators[o as usize].is_applicable(state.bits()))
                    .collect();
                if applicable.is_empty() {
                    break;
                }
                let op = applicable[rng.below(applicable.len() as u64) as usize];
                let mut next = state.clone();
                t.apply_into(&t.operators[op as usize], state.bits(), next.bits_mut());
                state = next;
                walk.push(op);
            }
            if !t.is_goal(state.bits()) {
                continue;
            }
            let e = eliminate(&t, &walk);
            assert!(replay(&t, &e.plan).is_some(), "{walk:?} -> {:?}", e.plan);
            if e.replaced == 0 {
                assert!(is_subsequence(&e.plan, &walk));
            }
            assert_eq!(e.removed, walk.len() - e.plan.len());
            assert_eq!(t.plan_cost(&e.plan) + e.saved, t.plan_cost(&walk));
            checked += usize::from(e.removed > 0);
        }
        assert!(checked > 50, "only {checked} walks had redundant steps");
    }
}
