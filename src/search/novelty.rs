//! Width-based novelty, as in best-first width search (BFWS).
//!
//! The novelty of a state is 1 if it makes some fact true for the first time
//! among the states seen so far in its partition, 2 if not but it makes
//! some pair of facts true for the first time, and 3 ("more than 2")
//! otherwise. Every state looked at is recorded, so the same state seen
//! again has novelty 3.
//!
//! Partition: (number of unsatisfied goals, number of "plan facts" true),
//! where the plan facts are the facts that the operators of the relaxed
//! plan (h_FF) of the initial state add and that are false initially. BFWS
//! counts the plan facts reached on the path; here they are counted in the
//! state, so that the partition is a function of the state and a state seen
//! again always has novelty 3.
//!
//! Memory: a partition holds one bit per fact and, when pairs are on, one
//! bit per pair of facts, n(n-1)/2 bits for n facts. Pair tables are made
//! while their total stays within [`PAIR_TABLE_CAP`] bytes; partitions
//! created beyond it get a fact table only, and their states have novelty 1
//! or 3.

use std::collections::HashMap;

use crate::heuristic::Heuristic;
use crate::heuristic::relax::{Mode, RelaxationHeuristic};
use crate::task::state::{StateBits, for_each_true};
use crate::task::{FactId, Task};

/// Most bytes held by the pair tables of all partitions together.
pub const PAIR_TABLE_CAP: usize = 128 << 20;

/// The partition of a state: (unsatisfied goals, plan facts true).
pub type Partition = (u32, u32);

/// The value of a state that is new in neither its facts nor its pairs.
pub const NOT_NOVEL: u8 = 3;

struct Table {
    /// One bit per fact: seen true in this partition.
    facts: Vec<u64>,
    /// One bit per pair p < q: seen true together in this partition.
    pairs: Option<Vec<u64>>,
}

/// Tests and sets bit `i`; true when it was clear.
fn first_time(bits: &mut [u64], i: usize) -> bool {
    let (word, mask) = (i / 64, 1u64 << (i % 64));
    let clear = bits[word] & mask == 0;
    bits[word] |= mask;
    clear
}

pub struct Novelty {
    num_facts: usize,
    goal: Vec<FactId>,
    goal_neg: Vec<FactId>,
    plan_facts: Vec<FactId>,
    tables: HashMap<Partition, Table>,
    pair_bytes: usize,
    /// Bytes of pair tables that may still be made.
    pair_budget: usize,
    true_facts: Vec<usize>,
}

impl Novelty {
    /// Novelty over facts and, within `pair_cap` bytes, pairs of facts.
    pub fn new(task: &Task, pair_cap: usize) -> Self {
        let init = task.initial_state();
        let mut hff = RelaxationHeuristic::new(task, Mode::FF);
        let mut plan_facts = Vec::new();
        if hff.evaluate(init.bits()).is_some() {
            for op in hff.relaxed_plan() {
                plan_facts.extend(task.operators[op as usize].add.iter().copied());
            }
        }
        plan_facts.retain(|&f| !init.bits()[f as usize]);
        plan_facts.sort_unstable();
        plan_facts.dedup();
        let n = task.num_facts();
        let pair_bytes = (n * n.saturating_sub(1) / 2).div_ceil(64) * 8;
        Novelty {
            num_facts: n,
            goal: task.goal.clone(),
            goal_neg: task.goal_neg.clone(),
            plan_facts,
            tables: HashMap::new(),
            pair_bytes,
            pair_budget: pair_cap,
            true_facts: Vec::new(),
        }
    }

    /// The facts that count for the second component of the partition.
    pub fn plan_facts(&self) -> &[FactId] {
        &self.plan_facts
    }

    pub fn partition(&self, state: &StateBits) -> Partition {
        let unsatisfied = self.goal.iter().filter(|&&f| !state[f as usize]).count()
            + self.goal_neg.iter().filter(|&&f| state[f as usize]).count();
        let reached = self.plan_facts.iter().filter(|&&f| state[f as usize]).count();
        (unsatisfied as u32, reached as u32)
    }

    /// The novelty of `state` (1, 2 or [`NOT_NOVEL`]), recording it.
    pub fn evaluate(&mut self, state: &StateBits) -> u8 {
        let partition = self.partition(state);
        let mut facts = std::mem::take(&mut self.true_facts);
        facts.clear();
        for_each_true(state, |f| facts.push(f));
        let n = self.num_facts;
        let table = self.table(partition);
        let mut novelty = NOT_NOVEL;
        for &f in &facts {
            if first_time(&mut table.facts, f) {
                novelty = 1;
            }
        }
        if let Some(pairs) = table.pairs.as_mut() {
            for (i, &p) in facts.iter().enumerate() {
                for &q in &facts[i + 1..] {
                    if first_time(pairs, pair_index(n, p, q)) {
                        novelty = novelty.min(2);
                    }
                }
            }
        }
        self.true_facts = facts;
        novelty
    }

    /// The novelty of `state`, a successor of a state in `parent` (which was
    /// recorded) by an operator that adds `added`: when both are in the same
    /// partition, only facts and pairs with an added fact can be new, and
    /// only those are looked at.
    pub fn evaluate_successor(&mut self, state: &StateBits, parent: Partition, added: &[FactId]) -> u8 {
        let partition = self.partition(state);
        if partition != parent || !self.tables.contains_key(&partition) {
            return self.evaluate(state);
        }
        let n = self.num_facts;
        self.true_facts.clear();
        for_each_true(state, |f| self.true_facts.push(f));
        let Some(table) = self.tables.get_mut(&partition) else {
            return NOT_NOVEL;
        };
        let mut novelty = NOT_NOVEL;
        for &a in added {
            let a = a as usize;
            if !state[a] {
                continue;
            }
            if first_time(&mut table.facts, a) {
                novelty = 1;
            }
            if let Some(pairs) = table.pairs.as_mut() {
                for &q in &self.true_facts {
                    if q != a && first_time(pairs, pair_index(n, a.min(q), a.max(q))) {
                        novelty = novelty.min(2);
                    }
                }
            }
        }
        novelty
    }

    fn table(&mut self, partition: Partition) -> &mut Table {
        let (words, pair_bytes) = (self.num_facts.div_ceil(64), self.pair_bytes);
        let budget = &mut self.pair_budget;
        self.tables.entry(partition).or_insert_with(|| {
            let pairs = (pair_bytes <= *budget).then(|| {
                *budget -= pair_bytes;
                vec![0u64; pair_bytes / 8]
            });
            Table {
                facts: vec![0; words.max(1)],
                pairs,
            }
        })
    }

    /// Number of partitions seen, and how many of them have a pair table.
    pub fn partitions(&self) -> (usize, usize) {
        let with_pairs = self.tables.values().filter(|t| t.pairs.is_some()).count();
        (self.tables.len(), with_pairs)
    }

    /// Approximate bytes held.
    pub fn memory_bytes(&self) -> usize {
        self.tables
            .values()
            .map(|t| 8 * t.facts.len() + t.pairs.as_ref().map_or(0, |p| 8 * p.len()) + 64)
            .sum()
    }
}

/// The index of the pair p < q among the n(n-1)/2 pairs of n facts.
fn pair_index(n: usize, p: usize, q: usize) -> usize {
    debug_assert!(p < q && q < n);
    p * n - p * (p + 1) / 2 + (q - p - 1)
}
