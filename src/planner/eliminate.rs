//! Greedy action elimination (Nakhost and Müller 2010): a plan found by
//! greedy search often takes detours (achieves a fact, destroys it, achieves
//! it again). Removing such actions keeps the plan valid and makes it
//! cheaper, for a few replays of the plan, far less than any search.
//!
//! For each step `i`, remove it and replay the rest of the plan from the
//! state before it, skipping (and so removing too) every later step that
//! is no longer applicable. If the goal still holds at the end, that set of
//! steps is redundant. Each round removes the costliest redundant set (the
//! earliest on ties) and starts again on the shorter plan, until no step can
//! go. A set of zero-cost steps is removed too: the plan gets shorter and
//! no dearer.
//!
//! Every round replays the plan once per step, so the work is bounded
//! ([`MAX_APPLICATIONS`]); when it runs out, the plan keeps the removals
//! made so far.

use crate::task::axioms::AxiomEvaluator;
use crate::task::state::bits_of;
use crate::task::{OpId, Task};

/// Most operator applications one elimination spends.
const MAX_APPLICATIONS: u64 = 20_000_000;

/// What [`eliminate`] did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Elimination {
    pub plan: Vec<OpId>,
    /// Steps removed.
    pub removed: usize,
    /// The cost they had.
    pub saved: u64,
    /// The work limit ended it, not a round without removals.
    pub stopped_early: bool,
}

/// The plan without redundant steps. `plan` must be a plan of `task` (every
/// step applicable in turn, the goal reached).
pub fn eliminate(task: &Task, plan: &[OpId]) -> Elimination {
    let mut replay = Replay::new(task);
    let mut plan = plan.to_vec();
    let (mut removed, mut saved) = (0, 0);
    loop {
        match replay.costliest_redundant_set(&plan) {
            Ok(Some(set)) => {
                removed += set.len();
                saved += set
                    .iter()
                    .map(|&i| task.operators[plan[i] as usize].cost as u64)
                    .sum::<u64>();
                let mut drop = vec![false; plan.len()];
                for i in set {
                    drop[i] = true;
                }
                let mut i = 0;
                plan.retain(|_| {
                    i += 1;
                    !drop[i - 1]
                });
            }
            Ok(None) => {
                return Elimination {
                    plan,
                    removed,
                    saved,
                    stopped_early: false,
                };
            }
            Err(OutOfWork) => {
                return Elimination {
                    plan,
                    removed,
                    saved,
                    stopped_early: true,
                };
            }
        }
    }
}

struct OutOfWork;

/// Replays plans on the task's states (as words), with the derived facts of
/// every state.
struct Replay<'a> {
    task: &'a Task,
    axioms: AxiomEvaluator,
    words: usize,
    applications: u64,
}

impl<'a> Replay<'a> {
    fn new(task: &'a Task) -> Self {
        Replay {
            task,
            axioms: AxiomEvaluator::new(task),
            words: task.initial_state().words().len(),
            applications: 0,
        }
    }

    /// Writes into `out` the state after `op` in `state`.
    fn apply(&mut self, op: OpId, state: &[u64], out: &mut Vec<u64>) {
        self.applications += 1;
        let n = self.task.num_facts();
        out.clear();
        out.extend_from_slice(state);
        let operator = &self.task.operators[op as usize];
        let before = bits_of(state, n);
        let bits = &mut bitvec::slice::BitSlice::<u64, bitvec::order::Lsb0>::from_slice_mut(out)[..n];
        for &f in operator.deletes(|c| c.holds_in(before)) {
            bits.set(f as usize, false);
        }
        for &f in operator.adds(|c| c.holds_in(before)) {
            bits.set(f as usize, true);
        }
        self.axioms.evaluate(out);
    }

    fn applicable(&self, op: OpId, state: &[u64]) -> bool {
        self.task.operators[op as usize].is_applicable(bits_of(state, self.task.num_facts()))
    }

    /// The states of `plan`: the initial one, then the one after each step.
    fn trajectory(&mut self, plan: &[OpId]) -> Vec<Vec<u64>> {
        let mut states = Vec::with_capacity(plan.len() + 1);
        states.push(self.task.initial_state().words().to_vec());
        for &op in plan {
            let mut next = Vec::with_capacity(self.words);
            self.apply(op, states.last().expect("not empty"), &mut next);
            states.push(next);
        }
        states
    }

    /// The steps removed with step `i`, if the plan reaches the goal without
    /// them. The replay stops early once it is back on the plan's own
    /// trajectory: the rest of the plan then runs as before.
    fn redundant_with(&mut self, plan: &[OpId], states: &[Vec<u64>], i: usize) -> Option<Vec<usize>> {
        let mut removed = vec![i];
        let mut state = states[i].clone();
        let mut next = Vec::with_capacity(self.words);
        for (j, &op) in plan.iter().enumerate().skip(i + 1) {
            if !self.applicable(op, &state) {
                removed.push(j);
                continue;
            }
            self.apply(op, &state, &mut next);
            std::mem::swap(&mut state, &mut next);
            if state == states[j + 1] {
                return Some(removed);
            }
        }
        self.task
            .is_goal(bits_of(&state, self.task.num_facts()))
            .then_some(removed)
    }

    /// The costliest set of steps the plan reaches the goal without (the
    /// earliest on ties); `None` when no step is redundant.
    fn costliest_redundant_set(&mut self, plan: &[OpId]) -> Result<Option<Vec<usize>>, OutOfWork> {
        let states = self.trajectory(plan);
        let mut best: Option<(u64, Vec<usize>)> = None;
        for i in 0..plan.len() {
            if self.applications > MAX_APPLICATIONS {
                return match best {
                    Some((_, set)) => Ok(Some(set)),
                    None => Err(OutOfWork),
                };
            }
            let Some(set) = self.redundant_with(plan, &states, i) else {
                continue;
            };
            let cost = set
                .iter()
                .map(|&j| self.task.operators[plan[j] as usize].cost as u64)
                .sum();
            if best.as_ref().is_none_or(|(c, _)| cost > *c) {
                best = Some((cost, set));
            }
        }
        Ok(best.map(|(_, set)| set))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::task::testing::{Lcg, random_adl_task, random_task, task};

    /// Replays `plan` on `task` with the task's own successor function:
    /// every step applicable, the goal reached.
    fn is_plan(task: &Task, plan: &[OpId]) -> bool {
        let mut state = task.initial_state();
        for &op in plan {
            let operator = &task.operators[op as usize];
            if !operator.is_applicable(state.bits()) {
                return false;
            }
            let mut next = state.clone();
            task.apply_into(operator, state.bits(), next.bits_mut());
            state = next;
        }
        task.is_goal(state.bits())
    }

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
        assert_eq!((e.removed, e.saved, e.stopped_early), (2, 6, false));
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
    /// subsequence of the walk, and its cost is the walk's minus what was
    /// saved.
    #[test]
    fn random_walks_stay_plans() {
        let mut rng = Lcg(11);
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
            assert!(is_plan(&t, &e.plan), "{walk:?} -> {:?}", e.plan);
            assert!(is_subsequence(&e.plan, &walk));
            assert_eq!(e.removed, walk.len() - e.plan.len());
            assert_eq!(t.plan_cost(&e.plan) + e.saved, t.plan_cost(&walk));
            checked += usize::from(e.removed > 0);
        }
        assert!(checked > 50, "only {checked} walks had redundant steps");
    }
}
