//! Successor generation without scanning every operator.
//!
//! Each operator with at least one positive precondition *watches* one of
//! them; expanding a state only looks at the operators that watch one of its
//! true facts. The watch is the precondition with the fewest expected
//! looks: the number of operators sharing it, times how often a fact of its
//! predicate is true (estimated from the initial state). So common facts
//! like `(handempty)` do not drag long lists along, and an operator needing
//! `(at player c)` and `(clear d)` watches the former, true in one cell,
//! not the latter, true in most. Operators without positive preconditions
//! are tested in every state.
//!
//! The operators watching a fact often share a second precondition (all
//! moves of disc `d` from `x` need `(clear d)`), so each watch list is a
//! small decision tree: a test of a fact that most of the list's operators
//! need, skipping all of them at once when it is false, then the rest. This
//! tests a fraction of the operators a flat list would.
//!
//! States are handled as raw packed words (bit `f` is bit `f % 64` of word
//! `f / 64`, the layout of [`crate::task::state::StateBits`]), which keeps
//! the inner loops free of bit-slice bookkeeping.

use crate::task::axioms::AxiomEvaluator;
use crate::task::{CondEffect, FactId, OpId, Operator, Task};

/// One step of a watch list's decision tree.
#[derive(Clone, Copy, Debug)]
enum Step {
    /// If `fact` is false, continue at `skip` (past every operator that
    /// needs it); otherwise at the next step.
    Test { fact: FactId, skip: u32 },
    /// Check this operator's remaining conditions.
    Check(OpId),
}

pub struct SuccessorGenerator {
    /// The decision tree of fact `f`'s watchers is `steps[start[f]..start[f + 1]]`.
    start: Vec<u32>,
    steps: Vec<Step>,
    /// Operators with no positive precondition.
    always: Vec<OpId>,
    /// Per state word, the bits of facts some operator watches: the true
    /// facts nobody watches (often most of them) are skipped a word at a time.
    watched_mask: Vec<u64>,
    /// Re-derives the derived facts of successors (a no-op without axioms).
    axioms: AxiomEvaluator,
}

#[inline]
fn holds(words: &[u64], f: FactId) -> bool {
    let f = f as usize;
    words[f / 64] >> (f % 64) & 1 == 1
}

/// Whether `op` is applicable in the state given by its packed words.
#[inline]
pub fn is_applicable(op: &Operator, words: &[u64]) -> bool {
    op.pre.iter().all(|&f| holds(words, f)) && !op.pre_neg.iter().any(|&f| holds(words, f))
}

/// Whether a conditional effect fires in the state before the operator.
#[inline]
fn fires(effect: &CondEffect, state: &[u64]) -> bool {
    effect.pre.iter().all(|&f| holds(state, f)) && !effect.pre_neg.iter().any(|&f| holds(state, f))
}

/// Writes the state after `op`'s effects on `state` into `out` (same
/// length): effect conditions read `state`, deletes happen before adds.
/// Derived facts are left as they were; [`SuccessorGenerator::apply`]
/// re-derives them.
#[inline]
pub fn apply_effects(op: &Operator, state: &[u64], out: &mut [u64]) {
    out.copy_from_slice(state);
    let clear = |out: &mut [u64], f: FactId| out[f as usize / 64] &= !(1u64 << (f % 64));
    let set = |out: &mut [u64], f: FactId| out[f as usize / 64] |= 1u64 << (f % 64);
    if op.cond_effects.is_empty() {
        // The STRIPS case, kept a plain loop.
        op.del.iter().for_each(|&f| clear(out, f));
        op.add.iter().for_each(|&f| set(out, f));
        return;
    }
    op.deletes(|e| fires(e, state)).for_each(|&f| clear(out, f));
    op.adds(|e| fires(e, state)).for_each(|&f| set(out, f));
}

impl SuccessorGenerator {
    pub fn new(task: &Task) -> Self {
        let n = task.num_facts();
        let mut uses = vec![0u32; n];
        for op in &task.operators {
            for &f in &op.pre {
                uses[f as usize] += 1;
            }
        }
        let true_share = predicate_true_share(task);
        // Expected operators looked at per state if `f` is watched.
        let looks = |f: FactId| uses[f as usize] as f64 * true_share[f as usize];
        let mut watching: Vec<Vec<OpId>> = vec![Vec::new(); n];
        let mut always = Vec::new();
        for (op_id, op) in task.operators.iter().enumerate() {
            // Fewest looks; ties go to the higher id (arbitrary but fixed).
            let watch = op
                .pre
                .iter()
                .copied()
                .min_by(|&a, &b| looks(a).total_cmp(&looks(b)).then(b.cmp(&a)));
            match watch {
                Some(f) => watching[f as usize].push(op_id as OpId),
                None => always.push(op_id as OpId),
            }
        }
        let mut start = Vec::with_capacity(n + 1);
        let mut steps = Vec::new();
        let mut watched_mask = vec![0u64; crate::task::state::words_for(n)];
        for (f, ops) in watching.into_iter().enumerate() {
            start.push(steps.len() as u32);
            if !ops.is_empty() {
                watched_mask[f / 64] |= 1 << (f % 64);
                let mut tested = vec![f as FactId];
                build_tree(task, ops, &mut tested, &mut steps);
            }
        }
        start.push(steps.len() as u32);
        SuccessorGenerator {
            start,
            steps,
            always,
            watched_mask,
            axioms: AxiomEvaluator::new(task),
        }
    }

    /// Writes the successor of `state` under `op` into `out` (same length):
    /// the operator's effects, then the derived facts of the new state.
    #[inline]
    pub fn apply(&mut self, op: &Operator, state: &[u64], out: &mut [u64]) {
        apply_effects(op, state, out);
        self.axioms.evaluate(out);
    }

    /// Collects the operators applicable in `state` into `out` (cleared
    /// first), by increasing id: the order does not depend on how the
    /// operators are indexed, so neither do the plans a search finds.
    pub fn applicable(&self, task: &Task, state: &[u64], out: &mut Vec<OpId>) {
        out.clear();
        for (wi, (&word, &mask)) in state.iter().zip(&self.watched_mask).enumerate() {
            let mut w = word & mask;
            while w != 0 {
                let f = wi * 64 + w.trailing_zeros() as usize;
                w &= w - 1;
                let (mut i, end) = (self.start[f] as usize, self.start[f + 1] as usize);
                while i < end {
                    match self.steps[i] {
                        Step::Test { fact, skip } => {
                            i = if holds(state, fact) { i + 1 } else { skip as usize };
                        }
                        Step::Check(op) => {
                            if is_applicable(&task.operators[op as usize], state) {
                                out.push(op);
                            }
                            i += 1;
                        }
                    }
                }
            }
        }
        for &op in &self.always {
            if is_applicable(&task.operators[op as usize], state) {
                out.push(op);
            }
        }
        out.sort_unstable();
    }

    pub fn memory_bytes(&self) -> usize {
        (self.start.capacity() + self.always.capacity()) * 4
            + self.steps.capacity() * std::mem::size_of::<Step>()
            + self.watched_mask.capacity() * 8
    }
}

/// For every fact, the share of its predicate's facts true in the initial
/// state (smoothed, so that a predicate with none true is not "never true").
fn predicate_true_share(task: &Task) -> Vec<f64> {
    let mut index: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    let pred: Vec<usize> = task
        .facts
        .iter()
        .map(|fact| {
            let next = index.len();
            *index.entry(fact.predicate.as_str()).or_insert(next)
        })
        .collect();
    let mut facts = vec![0usize; index.len()];
    let mut initially = vec![0usize; index.len()];
    for &p in &pred {
        facts[p] += 1;
    }
    for &f in &task.init {
        initially[pred[f as usize]] += 1;
    }
    pred.iter()
        .map(|&p| (initially[p] + 1) as f64 / (facts[p] + 1) as f64)
        .collect()
}

/// Appends the decision tree of `ops` (all needing the facts in `tested`):
/// a test of the untested precondition most of them share, the tree of
/// those that need it, then the tree of the others. Operators sharing no
/// untested precondition with another are checked one by one.
fn build_tree(task: &Task, ops: Vec<OpId>, tested: &mut Vec<FactId>, steps: &mut Vec<Step>) {
    let mut count: std::collections::HashMap<FactId, usize> = std::collections::HashMap::new();
    for &o in &ops {
        for &f in &task.operators[o as usize].pre {
            if !tested.contains(&f) {
                *count.entry(f).or_insert(0) += 1;
            }
        }
    }
    // Most shared; ties to the lower id, so the tree is the same on every run.
    let best = count
        .into_iter()
        .filter(|&(_, c)| c >= 2)
        .max_by_key(|&(f, c)| (c, std::cmp::Reverse(f)));
    let Some((fact, _)) = best else {
        steps.extend(ops.iter().map(|&o| Step::Check(o)));
        return;
    };
    let (with, without): (Vec<OpId>, Vec<OpId>) = ops
        .into_iter()
        .partition(|&o| task.operators[o as usize].pre.contains(&fact));
    let test = steps.len();
    steps.push(Step::Test { fact, skip: 0 });
    tested.push(fact);
    build_tree(task, with, tested, steps);
    tested.pop();
    let skip = steps.len() as u32;
    steps[test] = Step::Test { fact, skip };
    if !without.is_empty() {
        build_tree(task, without, tested, steps);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Lcg;
    use crate::task::state::StateBuf;
    use crate::task::testing::{cond, random_task, state, task, with_axioms};

    /// Facts a = 0, b = 1, c = 2, d = 3; e = 4 is derived: c and not b.
    /// The operator needs a and deletes it, adds d; when a (which it
    /// deletes): add c and delete d; when c: add b.
    fn semantics_task() -> Task {
        let mut t = task(5, &[(&[0], &[], &[3], &[0], 1)], &[0], &[4], &[]);
        t.operators[0].cond_effects = vec![cond(&[0], &[], &[2], &[3]), cond(&[2], &[], &[1], &[])];
        with_axioms(t, &[&[(4, &[2], &[1])]])
    }

    /// The successor by the three ways there are: the operator on bit
    /// slices, the generator on words, the task (with derived facts).
    fn successors(t: &Task, s: &[FactId]) -> [Vec<FactId>; 3] {
        let n = t.num_facts();
        let op = &t.operators[0];
        let s = state(n, s);
        let ones = |b: &StateBuf| b.bits().iter_ones().map(|f| f as FactId).collect::<Vec<_>>();
        let mut by_op = StateBuf::new(n);
        op.apply_into(s.bits(), by_op.bits_mut());
        let mut by_task = StateBuf::new(n);
        t.apply_into(op, s.bits(), by_task.bits_mut());
        let mut words = vec![0; s.words().len()];
        SuccessorGenerator::new(t).apply(op, s.words(), &mut words);
        [ones(&by_op), ones(&StateBuf::from_words(&words, n)), ones(&by_task)]
    }

    /// On random tasks with conditional effects and derived facts, the
    /// generator's successors are the task's, and derived facts are a
    /// function of the other facts (equal basic facts, equal states).
    #[test]
    fn successors_agree_with_the_task_on_random_adl_tasks() {
        let mut rng = Lcg::new(5);
        for _ in 0..100 {
            let t = crate::task::testing::random_adl_task(&mut rng, 8, 10);
            let mut generator = SuccessorGenerator::new(&t);
            let n = t.num_facts();
            for (s, _) in crate::task::testing::perfect_costs(&t) {
                for op in t.operators.iter().filter(|o| o.is_applicable(s.bits())) {
                    let mut words = vec![0; s.words().len()];
                    generator.apply(op, s.words(), &mut words);
                    let mut expected = StateBuf::new(n);
                    t.apply_into(op, s.bits(), expected.bits_mut());
                    assert_eq!(StateBuf::from_words(&words, n), expected);
                    // Flipping a derived bit changes nothing once re-derived.
                    let mut flipped = expected.clone();
                    let derived_bit = !flipped.bits()[n - 1];
                    flipped.bits_mut().set(n - 1, derived_bit);
                    let mut again = flipped.words().to_vec();
                    AxiomEvaluator::new(&t).evaluate(&mut again);
                    assert_eq!(StateBuf::from_words(&again, n), expected);
                }
            }
        }
    }

    #[test]
    fn effect_conditions_read_the_state_before_and_deletes_come_first() {
        let t = semantics_task();
        // From {a}: "when a" fires although the operator deletes a; "when c"
        // does not (c only becomes true); d is deleted by the effect and
        // added by the operator, so it stays. Derived e = c and not b.
        assert_eq!(successors(&t, &[0]), [vec![2, 3], vec![2, 3, 4], vec![2, 3, 4]]);
        // From {a, c, e}: both fire, b makes e false (the stale e is cleared).
        assert_eq!(
            successors(&t, &[0, 2, 4]),
            [vec![1, 2, 3, 4], vec![1, 2, 3], vec![1, 2, 3]]
        );
        // The initial state {a} derives nothing (c is false).
        let init: Vec<usize> = t.initial_state().bits().iter_ones().collect();
        assert_eq!(init, vec![0]);
    }

    /// The generator finds exactly the applicable operators, in id order,
    /// on random tasks (few facts: long shared watch lists and deep trees;
    /// many facts: several state words) and random states.
    #[test]
    fn agrees_with_testing_every_operator() {
        let mut rng = Lcg::new(7);
        for &(facts, ops) in &[(6, 200), (12, 300), (150, 400)] {
            for _ in 0..20 {
                let task = random_task(&mut rng, facts, ops);
                let generator = SuccessorGenerator::new(&task);
                let mut words = vec![0u64; crate::task::state::words_for(facts)];
                let mut found = Vec::new();
                for _ in 0..50 {
                    for (i, w) in words.iter_mut().enumerate() {
                        *w = rng.below(u64::MAX) ^ (rng.below(u64::MAX) << 32);
                        let bits = (facts - 64 * i).min(64);
                        if bits < 64 {
                            *w &= (1u64 << bits) - 1;
                        }
                    }
                    generator.applicable(&task, &words, &mut found);
                    let expected: Vec<OpId> = (0..task.num_operators() as OpId)
                        .filter(|&o| is_applicable(&task.operators[o as usize], &words))
                        .collect();
                    assert_eq!(found, expected);
                }
            }
        }
    }
}
