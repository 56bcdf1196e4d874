//! Successor generation without scanning every operator.
//!
//! Each operator with at least one positive precondition *watches* one of
//! them; expanding a state only tests the operators that watch one of its true
//! facts. The watch is the precondition shared by the fewest operators, so
//! that common facts like `(handempty)` do not drag long lists along.
//! Operators without positive preconditions are tested in every state.
//!
//! States are handled as raw packed words (bit `f` is bit `f % 64` of word
//! `f / 64`, the layout of [`crate::state::StateBits`]), which keeps the inner
//! loops free of bit-slice bookkeeping.

use crate::task::{FactId, OpId, Operator, Task};

pub struct SuccessorGenerator {
    /// Operators watching fact `f` are `watchers[start[f]..start[f + 1]]`.
    start: Vec<u32>,
    watchers: Vec<OpId>,
    /// Operators with no positive precondition.
    always: Vec<OpId>,
    /// Per state word, the bits of facts some operator watches: the true
    /// facts nobody watches (often most of them) are skipped a word at a time.
    watched_mask: Vec<u64>,
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

/// Writes the successor of `state` under `op` into `out` (same length).
#[inline]
pub fn apply(op: &Operator, state: &[u64], out: &mut [u64]) {
    out.copy_from_slice(state);
    for &f in &op.del {
        out[f as usize / 64] &= !(1u64 << (f % 64));
    }
    for &f in &op.add {
        out[f as usize / 64] |= 1u64 << (f % 64);
    }
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
        let mut watch: Vec<Option<FactId>> = Vec::with_capacity(task.num_operators());
        let mut count = vec![0u32; n + 1];
        for op in &task.operators {
            // Rarest precondition; ties go to the higher id (arbitrary but fixed).
            let w = op
                .pre
                .iter()
                .copied()
                .min_by_key(|&f| (uses[f as usize], std::cmp::Reverse(f)));
            if let Some(f) = w {
                count[f as usize] += 1;
            }
            watch.push(w);
        }
        let mut start = vec![0u32; n + 1];
        for f in 0..n {
            start[f + 1] = start[f] + count[f];
        }
        let mut fill = start.clone();
        let mut watchers = vec![0; start[n] as usize];
        let mut always = Vec::new();
        for (op_id, w) in watch.iter().enumerate() {
            match w {
                Some(f) => {
                    watchers[fill[*f as usize] as usize] = op_id as OpId;
                    fill[*f as usize] += 1;
                }
                None => always.push(op_id as OpId),
            }
        }
        let mut watched_mask = vec![0u64; crate::state::words_for(n)];
        for f in 0..n {
            if start[f + 1] > start[f] {
                watched_mask[f / 64] |= 1 << (f % 64);
            }
        }
        SuccessorGenerator {
            start,
            watchers,
            always,
            watched_mask,
        }
    }

    /// Collects the operators applicable in `state` into `out` (cleared
    /// first). The order is fixed for a given state.
    pub fn applicable(&self, task: &Task, state: &[u64], out: &mut Vec<OpId>) {
        out.clear();
        for (wi, (&word, &mask)) in state.iter().zip(&self.watched_mask).enumerate() {
            let mut w = word & mask;
            while w != 0 {
                let f = wi * 64 + w.trailing_zeros() as usize;
                w &= w - 1;
                let ops = &self.watchers[self.start[f] as usize..self.start[f + 1] as usize];
                for &op in ops {
                    if is_applicable(&task.operators[op as usize], state) {
                        out.push(op);
                    }
                }
            }
        }
        for &op in &self.always {
            if is_applicable(&task.operators[op as usize], state) {
                out.push(op);
            }
        }
    }

    pub fn memory_bytes(&self) -> usize {
        (self.start.capacity() + self.watchers.capacity() + self.always.capacity()) * 4
            + self.watched_mask.capacity() * 8
    }
}
