//! Evaluation of the derived facts of a state: the one place that gives
//! [`Task::axioms`] their meaning.
//!
//! Derived facts are false unless a rule makes them true. The layers are
//! evaluated one after the other, each to its fixed point; a rule's negative
//! conditions name only facts of lower layers or non-derived facts, so they
//! are settled before its layer starts (negation as failure, as PDDL 2.2
//! defines it).
//!
//! Within a layer every rule counts its positive conditions that do not hold
//! yet; a rule fires when its count reaches zero, and a fact that becomes
//! true lowers the counts of the rules of its own layer that need it. One
//! evaluation thus looks at each condition of each rule a bounded number of
//! times, whatever the depth of the derivation chains.

use super::{FactId, Task};

/// Marks a rule whose negative conditions are violated: it cannot fire in
/// this state, whatever its positive conditions.
const BLOCKED: u32 = u32::MAX;

/// Re-derives the derived facts of states; built once per task, reused for
/// every state (its buffers are its only mutable part).
#[derive(Clone, Debug)]
pub struct AxiomEvaluator {
    /// Per state word: the bits of derived facts, cleared before evaluating.
    derived_mask: Vec<u64>,
    /// Rule `r`'s head and conditions, as in [`Task::axioms`].
    heads: Vec<FactId>,
    pre_start: Vec<u32>,
    pre: Vec<FactId>,
    pre_neg_start: Vec<u32>,
    pre_neg: Vec<FactId>,
    /// Layer `k` is rules `layers[k]..layers[k + 1]`.
    layers: Vec<usize>,
    /// Per derived fact `f`: the rules of `f`'s own layer that need it true,
    /// `users[users_start[f]..users_start[f + 1]]`.
    users_start: Vec<u32>,
    users: Vec<u32>,
    /// Per rule: positive conditions not (yet) true, or [`BLOCKED`].
    unsatisfied: Vec<u32>,
    queue: Vec<FactId>,
}

#[inline]
fn holds(words: &[u64], f: FactId) -> bool {
    let f = f as usize;
    words[f / 64] >> (f % 64) & 1 == 1
}

impl AxiomEvaluator {
    pub fn new(task: &Task) -> Self {
        let n = task.num_facts();
        let mut derived_mask = vec![0u64; super::state::words_for(n)];
        let mut layer_of = vec![usize::MAX; n];
        let layers: Vec<usize> = if task.axioms.is_empty() {
            vec![0]
        } else {
            task.axiom_layers.clone()
        };
        for k in 0..layers.len().saturating_sub(1) {
            for a in &task.axioms[layers[k]..layers[k + 1]] {
                layer_of[a.head as usize] = k;
                derived_mask[a.head as usize / 64] |= 1 << (a.head % 64);
            }
        }
        let mut heads = Vec::with_capacity(task.axioms.len());
        let (mut pre_start, mut pre) = (vec![0u32], Vec::new());
        let (mut pre_neg_start, mut pre_neg) = (vec![0u32], Vec::new());
        let mut count = vec![0u32; n + 1];
        for a in &task.axioms {
            heads.push(a.head);
            pre.extend_from_slice(&a.pre);
            pre_start.push(pre.len() as u32);
            pre_neg.extend_from_slice(&a.pre_neg);
            pre_neg_start.push(pre_neg.len() as u32);
            let layer = layer_of[a.head as usize];
            for &p in &a.pre {
                if layer_of[p as usize] == layer {
                    count[p as usize + 1] += 1;
                }
            }
        }
        for f in 0..n {
            count[f + 1] += count[f];
        }
        let users_start = count.clone();
        let mut fill = count;
        let mut users = vec![0u32; users_start[n] as usize];
        for (r, a) in task.axioms.iter().enumerate() {
            let layer = layer_of[a.head as usize];
            for &p in &a.pre {
                if layer_of[p as usize] == layer {
                    users[fill[p as usize] as usize] = r as u32;
                    fill[p as usize] += 1;
                }
            }
        }
        AxiomEvaluator {
            derived_mask,
            unsatisfied: vec![0; heads.len()],
            heads,
            pre_start,
            pre,
            pre_neg_start,
            pre_neg,
            layers,
            users_start,
            users,
            queue: Vec::new(),
        }
    }

    /// True when the task has no derived facts: evaluation changes nothing.
    pub fn is_empty(&self) -> bool {
        self.heads.is_empty()
    }

    /// Sets the derived facts of the state in `words` (the layout of
    /// [`super::state::StateBits`]) from its other facts; whatever the
    /// derived bits held before is ignored.
    pub fn evaluate(&mut self, words: &mut [u64]) {
        if self.heads.is_empty() {
            return;
        }
        for (w, m) in words.iter_mut().zip(&self.derived_mask) {
            *w &= !m;
        }
        for k in 0..self.layers.len() - 1 {
            let rules = self.layers[k]..self.layers[k + 1];
            self.queue.clear();
            for r in rules.clone() {
                let neg = &self.pre_neg[self.pre_neg_start[r] as usize..self.pre_neg_start[r + 1] as usize];
                if neg.iter().any(|&f| holds(words, f)) {
                    self.unsatisfied[r] = BLOCKED;
                    continue;
                }
                let pre = &self.pre[self.pre_start[r] as usize..self.pre_start[r + 1] as usize];
                self.unsatisfied[r] = pre.iter().filter(|&&f| !holds(words, f)).count() as u32;
            }
            // Only once every count is taken: a head set earlier would
            // otherwise be counted as true and then once more when dequeued.
            for r in rules.clone() {
                if self.unsatisfied[r] == 0 {
                    self.fire(r, words);
                }
            }
            while let Some(f) = self.queue.pop() {
                for i in self.users_start[f as usize]..self.users_start[f as usize + 1] {
                    let r = self.users[i as usize] as usize;
                    if self.unsatisfied[r] == BLOCKED {
                        continue;
                    }
                    self.unsatisfied[r] -= 1;
                    if self.unsatisfied[r] == 0 {
                        self.fire(r, words);
                    }
                }
            }
        }
    }

    /// Makes rule `r`'s head true; queues it if it was false.
    #[inline]
    fn fire(&mut self, r: usize, words: &mut [u64]) {
        let h = self.heads[r];
        if !holds(words, h) {
            words[h as usize / 64] |= 1 << (h % 64);
            self.queue.push(h);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::task::Axiom;
    use crate::task::testing::{state, task};

    fn axiom(head: FactId, pre: &[FactId], pre_neg: &[FactId]) -> Axiom {
        Axiom {
            head,
            pre: pre.to_vec(),
            pre_neg: pre_neg.to_vec(),
        }
    }

    /// Facts 0..3 basic (edges of a chain 0 -> 1 -> 2 -> 3 given by facts
    /// e01 = 0, e12 = 1, e23 = 2, and `blocked` = 3); derived:
    /// r1 = 4, r2 = 5, r3 = 6 (node reachable from node 0), and in a second
    /// layer u3 = 7 = not r3 (node 3 unreachable), alarm = 8 = u3 and not blocked.
    fn two_strata() -> Task {
        let mut t = task(9, &[], &[], &[], &[]);
        t.axioms = vec![
            // layer 0, given out of chain order so that the fixed point needs the counters.
            axiom(6, &[5, 2], &[]),
            axiom(5, &[4, 1], &[]),
            axiom(4, &[0], &[]),
            // layer 1
            axiom(7, &[], &[6]),
            // layer 2
            axiom(8, &[7], &[3]),
        ];
        t.axiom_layers = vec![0, 3, 4, 5];
        t.derived = (0..9).map(|f| f >= 4).collect();
        t
    }

    fn derived(t: &Task, facts: &[FactId]) -> Vec<FactId> {
        let mut s = state(t.num_facts(), facts);
        let mut e = AxiomEvaluator::new(t);
        // Stale derived bits must not survive.
        for f in 4..t.num_facts() {
            s.bits_mut().set(f, true);
        }
        let mut words = s.words().to_vec();
        e.evaluate(&mut words);
        crate::task::state::bits_of(&words, t.num_facts())
            .iter_ones()
            .map(|f| f as FactId)
            .collect()
    }

    #[test]
    fn chains_within_a_layer_and_negation_across_layers() {
        let t = two_strata();
        // Full chain: everything reachable, so u3 and alarm are false.
        assert_eq!(derived(&t, &[0, 1, 2]), vec![0, 1, 2, 4, 5, 6]);
        // The middle edge missing: only r1; node 3 unreachable, alarm rings.
        assert_eq!(derived(&t, &[0, 2]), vec![0, 2, 4, 7, 8]);
        // ... unless blocked.
        assert_eq!(derived(&t, &[0, 2, 3]), vec![0, 2, 3, 4, 7]);
        // No edges at all.
        assert_eq!(derived(&t, &[]), vec![7, 8]);
    }

    #[test]
    fn recursive_rules_reach_their_fixed_point() {
        // reach(x) :- start(x); reach(y) :- reach(x), edge(x, y), over
        // nodes a, b, c with edges a -> b, b -> c, c -> a: facts
        // start a = 0, edges ab = 1, bc = 2, ca = 3, reach a/b/c = 4/5/6.
        let mut t = task(7, &[], &[], &[], &[]);
        t.axioms = vec![
            axiom(4, &[0], &[]),
            axiom(4, &[3, 6], &[]),
            axiom(5, &[1, 4], &[]),
            axiom(6, &[2, 5], &[]),
        ];
        t.axiom_layers = vec![0, 4];
        t.derived = (0..7).map(|f| f >= 4).collect();
        assert_eq!(derived(&t, &[0, 1, 2, 3]), vec![0, 1, 2, 3, 4, 5, 6]);
        assert_eq!(derived(&t, &[0, 2, 3]), vec![0, 2, 3, 4]);
        // A cycle without a start derives nothing (least fixed point).
        assert_eq!(derived(&t, &[1, 2, 3]), vec![1, 2, 3]);
    }
}
