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
//! Memory: a partition holds one bit per fact and, when pairs are on, an
//! n × n bit matrix for n facts (row p: the facts seen true together with
//! p), so that a state's pairs are checked a word at a time: O(k·n/64) for
//! k true facts instead of k²/2 scattered bits. Pair tables are made while
//! their total stays within [`PAIR_TABLE_CAP`] bytes; partitions created
//! beyond it get a fact table only, and their states have novelty 1 or 3.

//!
//! Where it helps (20 s, h_FF; solved of 3 problems: gbfs / lazy / bfws /
//! lazy-width): barman 1/0/3/3, woodworking 1/3/1/2, freecell 3/3/3/3,
//! sokoban 2/2/2/2. Novelty first (bfws) gets through barman's plateaus in
//! under 2.2 s where lazy search fails, but loses woodworking, whose
//! successors change partition so often that the full pair check runs
//! for most of them; one novelty list among the lazy ones (lazy-width)
//! keeps most of both.

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
    /// Row p (`words` words from p · words): the facts seen true together
    /// with p in this partition, and p itself.
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
    /// Words per state and per row of a pair matrix.
    words: usize,
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
        let words = n.div_ceil(64).max(1);
        let pair_bytes = n * words * 8;
        Novelty {
            num_facts: n,
            words,
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
        let words = self.words;
        let table = self.table(partition);
        let mut novelty = NOT_NOVEL;
        for &f in &facts {
            if first_time(&mut table.facts, f) {
                novelty = 1;
            }
        }
        if let Some(pairs) = table.pairs.as_mut() {
            let state_words = state.domain();
            for &p in &facts {
                let row = &mut pairs[p * words..(p + 1) * words];
                for (seen, now) in row.iter_mut().zip(state_words) {
                    if now & !*seen != 0 {
                        novelty = novelty.min(2);
                        *seen |= now;
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
        let words = self.words;
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
            let Some(pairs) = table.pairs.as_mut() else {
                continue;
            };
            // Pairs (a, q): row a against the state; the rows of the
            // other facts q get a's bit (they have all else already).
            let row = &mut pairs[a * words..(a + 1) * words];
            for (seen, now) in row.iter_mut().zip(state.domain()) {
                if now & !*seen != 0 {
                    novelty = novelty.min(2);
                    *seen |= now;
                }
            }
            for_each_true(state, |q| {
                pairs[q * words + a / 64] |= 1u64 << (a % 64);
            });
        }
        novelty
    }

    fn table(&mut self, partition: Partition) -> &mut Table {
        let (n, words, pair_bytes) = (self.num_facts, self.words, self.pair_bytes);
        let budget = &mut self.pair_budget;
        self.tables.entry(partition).or_insert_with(|| {
            let pairs = (pair_bytes <= *budget).then(|| {
                *budget -= pair_bytes;
                let mut rows = vec![0u64; n * words];
                // (p, p) is no pair: seen from the start.
                for p in 0..n {
                    rows[p * words + p / 64] |= 1u64 << (p % 64);
                }
                rows
            });
            Table {
                facts: vec![0; words],
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
