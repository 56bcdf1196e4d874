//! The registry that interns states.
//!
//! The [`StateRegistry`] stores every distinct state once in one arena and
//! hands out dense `u32` ids; search nodes refer to states by id only.
//! Callers hand in and get back states as fact words ([`super::state`]);
//! whether the registry stores them as they are or packed by the task's
//! invariants is its own business.

use super::invariants::variables;
use super::state::{bits_of, for_each_true, words_for};
use super::{FactId, MutexGroup, Task};

/// Dense id of an interned state.
pub type StateId = u32;

/// Packs states more densely than one bit per fact, using the task's
/// finite-domain variables ([`variables`]: groups of facts of which at most
/// one holds in any reachable state): a group of k facts takes the bits of
/// the numbers 0..=k (0: none holds, i: its i-th fact), each group within
/// one word. Only reachable states may be packed (two true facts of one
/// group would be lost).
///
/// Every insertion packs and every load unpacks, so packing trades time for
/// memory and is used only on request ([`StateRegistry::packed`]).
struct StatePacker {
    /// Per fact: (word, shift, code) of its group; code = index in group + 1.
    fact_code: Vec<(u32, u32, u64)>,
    /// Per group: (word, shift, mask, first entry in `facts`).
    groups: Vec<(u32, u32, u64, u32)>,
    /// The facts of all groups back to back.
    facts: Vec<FactId>,
    words: usize,
}

impl StatePacker {
    /// A packer for these groups (every fact in exactly one), or `None` when
    /// packing would not save a word per state.
    fn new(num_facts: usize, groups: &[MutexGroup]) -> Option<Self> {
        let mut fact_code = vec![(0, 0, 0); num_facts];
        let mut layout = Vec::with_capacity(groups.len());
        let mut facts = Vec::with_capacity(num_facts);
        let (mut word, mut used) = (0u32, 0u32);
        for group in groups.iter().map(|g| &g.facts) {
            let bits = u64::BITS - (group.len() as u64).leading_zeros();
            if used + bits > 64 {
                word += 1;
                used = 0;
            }
            for (i, &f) in group.iter().enumerate() {
                fact_code[f as usize] = (word, used, i as u64 + 1);
            }
            layout.push((word, used, (1u64 << bits) - 1, facts.len() as u32));
            facts.extend_from_slice(group);
            used += bits;
        }
        let words = word as usize + 1;
        (words < words_for(num_facts)).then_some(StatePacker {
            fact_code,
            groups: layout,
            facts,
            words,
        })
    }

    /// Packs the state given by its fact words into `out`.
    fn pack(&self, state: &[u64], out: &mut [u64]) {
        out.fill(0);
        for_each_true(bits_of(state, self.fact_code.len()), |f| {
            let (pw, shift, code) = self.fact_code[f];
            out[pw as usize] |= code << shift;
        });
    }

    /// Unpacks a packed state into its fact words `out`.
    fn unpack(&self, packed: &[u64], out: &mut [u64]) {
        out.fill(0);
        for &(pw, shift, mask, first) in &self.groups {
            let code = packed[pw as usize] >> shift & mask;
            if code != 0 {
                let f = self.facts[first as usize + code as usize - 1] as usize;
                out[f / 64] |= 1 << (f % 64);
            }
        }
    }
}

/// Stores each distinct state once. States live back to back in one arena
/// of words; a hash table of ids (open addressing, linear probing) finds a
/// state by its stored words. No allocation per state beyond the arena's
/// growth.
///
/// Each slot also keeps the upper half of the state's hash, so a probe
/// touches the arena (a cache miss, then a comparison) almost only for the
/// state it is looking for.
///
/// The search inserts the successors of a state in two passes: it first
/// [prepares](StateRegistry::prepare) them all, which hashes them and
/// prefetches their table slots, then [inserts](StateRegistry::insert_prepared)
/// them, by then mostly from cache.
pub struct StateRegistry {
    /// `None`: states are stored as their fact words.
    packer: Option<StatePacker>,
    /// Words per stored state (packed or not).
    words_per_state: usize,
    arena: Vec<u64>,
    /// Slots hold `(hash >> 32) << 32 | (id + 1)`; 0 marks an empty slot.
    /// Length is a power of two.
    table: Vec<u64>,
    len: usize,
    /// Per prepared state: the hash of its stored words.
    prepared_hashes: Vec<u64>,
    /// Packed mode: the prepared states' packed words, back to back.
    prepared_packed: Vec<u64>,
}

impl StateRegistry {
    /// A registry that stores states of `num_facts` facts as their fact words.
    pub fn new(num_facts: usize) -> Self {
        Self::with_packer(num_facts, None)
    }

    /// A registry for the reachable states of `task` that stores them packed
    /// by the task's invariant groups when that saves a word per state (and
    /// as [`StateRegistry::new`] otherwise).
    pub fn packed(task: &Task) -> Self {
        let packer = StatePacker::new(task.num_facts(), &variables(task));
        Self::with_packer(task.num_facts(), packer)
    }

    fn with_packer(num_facts: usize, packer: Option<StatePacker>) -> Self {
        StateRegistry {
            words_per_state: packer.as_ref().map_or(words_for(num_facts), |p| p.words),
            packer,
            arena: Vec::new(),
            table: vec![0; 1024],
            len: 0,
            prepared_hashes: Vec::new(),
            prepared_packed: Vec::new(),
        }
    }

    /// Words per stored state (fewer than a state's fact words when packed).
    pub fn words_per_state(&self) -> usize {
        self.words_per_state
    }

    /// Number of distinct states stored.
    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Writes the fact words of a stored state into `out`.
    pub fn load(&self, id: StateId, out: &mut [u64]) {
        match &self.packer {
            Some(p) => p.unpack(self.stored(id), out),
            None => out.copy_from_slice(self.stored(id)),
        }
    }

    /// Interns a state given by its fact words; returns its id and whether
    /// it was new.
    pub fn insert(&mut self, state: &[u64]) -> (StateId, bool) {
        match &self.packer {
            Some(p) => {
                let mut packed = vec![0; self.words_per_state];
                p.pack(state, &mut packed);
                self.insert_stored(&packed, hash_words(&packed))
            }
            None => self.insert_stored(state, hash_words(state)),
        }
    }

    /// Looks a state (its fact words) up without inserting it.
    pub fn find(&self, state: &[u64]) -> Option<StateId> {
        match &self.packer {
            Some(p) => {
                let mut packed = vec![0; self.words_per_state];
                p.pack(state, &mut packed);
                self.find_stored(&packed)
            }
            None => self.find_stored(state),
        }
    }

    /// Forgets the prepared states, to prepare a new batch.
    #[inline]
    pub fn clear_prepared(&mut self) {
        self.prepared_hashes.clear();
        self.prepared_packed.clear();
    }

    /// Prepares the insertion of a state given by its fact words: hashes it
    /// (packed, in packed mode) and prefetches the table slot its probe
    /// starts at, so that the memory access (a cache miss in a large table)
    /// is under way while other work is done; several prepared states
    /// overlap their misses. Prepared states are numbered from 0 since the
    /// last [`StateRegistry::clear_prepared`].
    #[inline]
    pub fn prepare(&mut self, state: &[u64]) {
        let hash = match &self.packer {
            Some(p) => {
                let start = self.prepared_packed.len();
                self.prepared_packed.resize(start + self.words_per_state, 0);
                let packed = &mut self.prepared_packed[start..];
                p.pack(state, packed);
                hash_words(packed)
            }
            None => hash_words(state),
        };
        self.touch(hash);
        self.prepared_hashes.push(hash);
    }

    /// Interns the `k`-th prepared state, like [`StateRegistry::insert`].
    /// `state` holds its fact words again: unpacked, the registry keeps no
    /// copy of a prepared state (the caller recomputing it is cheaper than
    /// copying it); packed, it uses its packed copy.
    #[inline]
    pub fn insert_prepared(&mut self, k: usize, state: &[u64]) -> (StateId, bool) {
        let hash = self.prepared_hashes[k];
        if self.packer.is_none() {
            return self.insert_stored(state, hash);
        }
        let packed = std::mem::take(&mut self.prepared_packed);
        let w = self.words_per_state;
        let result = self.insert_stored(&packed[k * w..(k + 1) * w], hash);
        self.prepared_packed = packed;
        result
    }

    /// Bytes held by the arena and the hash table.
    pub fn memory_bytes(&self) -> usize {
        self.arena.capacity() * 8 + self.table.capacity() * 8
    }

    /// The stored words of a state.
    fn stored(&self, id: StateId) -> &[u64] {
        let start = id as usize * self.words_per_state;
        &self.arena[start..start + self.words_per_state]
    }

    /// Prefetches the table slot a probe for `hash` starts at.
    #[inline]
    fn touch(&self, hash: u64) {
        let slot = &self.table[hash as usize & (self.table.len() - 1)];
        #[cfg(target_arch = "x86_64")]
        // SAFETY: a prefetch only hints the cache; it reads nothing into the
        // program and cannot fault, and `slot` is a valid reference anyway.
        unsafe {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            _mm_prefetch::<_MM_HINT_T0>((slot as *const u64).cast::<i8>());
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = slot;
    }

    /// Interns a state by its stored words and their hash.
    fn insert_stored(&mut self, words: &[u64], hash: u64) -> (StateId, bool) {
        debug_assert_eq!(words.len(), self.words_per_state);
        debug_assert_eq!(hash, hash_words(words));
        if (self.len + 1) * 4 > self.table.len() * 3 {
            self.grow();
        }
        let mask = self.table.len() - 1;
        let tag = hash & TAG_MASK;
        let mut slot = hash as usize & mask;
        loop {
            let entry = self.table[slot];
            if entry == 0 {
                let id = self.len as StateId;
                self.arena.extend_from_slice(words);
                self.table[slot] = tag | (id as u64 + 1);
                self.len += 1;
                return (id, true);
            }
            if entry & TAG_MASK == tag {
                let id = (entry as u32).wrapping_sub(1);
                if same_words(self.stored(id), words) {
                    return (id, false);
                }
            }
            slot = (slot + 1) & mask;
        }
    }

    /// Looks a state up by its stored words.
    fn find_stored(&self, words: &[u64]) -> Option<StateId> {
        let mask = self.table.len() - 1;
        let hash = hash_words(words);
        let tag = hash & TAG_MASK;
        let mut slot = hash as usize & mask;
        loop {
            let entry = self.table[slot];
            if entry == 0 {
                return None;
            }
            if entry & TAG_MASK == tag {
                let id = (entry as u32).wrapping_sub(1);
                if same_words(self.stored(id), words) {
                    return Some(id);
                }
            }
            slot = (slot + 1) & mask;
        }
    }

    fn grow(&mut self) {
        let new_len = self.table.len() * 2;
        let mask = new_len - 1;
        let mut table = vec![0u64; new_len];
        for id in 0..self.len as StateId {
            let hash = hash_words(self.stored(id));
            let mut slot = hash as usize & mask;
            while table[slot] != 0 {
                slot = (slot + 1) & mask;
            }
            table[slot] = (hash & TAG_MASK) | (id as u64 + 1);
        }
        self.table = table;
    }
}

/// The bits of a table slot that hold the hash tag.
const TAG_MASK: u64 = !0 << 32;

/// Word-by-word equality; states are a few words long, too short for a
/// call to `memcmp` to pay off.
#[inline]
fn same_words(a: &[u64], b: &[u64]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x == y)
}

/// A fast multiplicative hash over the words (FxHash-style mixing, then a
/// final avalanche so that the low bits used for the table are well mixed).
fn hash_words(words: &[u64]) -> u64 {
    let mut h: u64 = 0x9e37_79b9_7f4a_7c15;
    // rustc-hash 1's FxHash step. The crate's 2.x FxHasher mixes otherwise; switching would change
    // no state id (ids are dense in insertion order), only the probe order, so it needs a speed run.
    for &w in words {
        h = (h.rotate_left(5) ^ w).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
    h ^= h >> 33;
    h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
    h ^= h >> 33;
    h
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::task::state::StateBuf;

    #[test]
    fn interns_each_state_once() {
        let mut reg = StateRegistry::new(130);
        let mut a = StateBuf::new(130);
        a.bits_mut().set(3, true);
        a.bits_mut().set(129, true);
        let mut b = a.clone();
        b.bits_mut().set(64, true);
        let (ia, new_a) = reg.insert(a.words());
        let (ib, new_b) = reg.insert(b.words());
        let (ia2, new_a2) = reg.insert(a.words());
        assert!(new_a && new_b && !new_a2);
        assert_eq!(ia, ia2);
        assert_ne!(ia, ib);
        let mut loaded = vec![0; 3];
        reg.load(ib, &mut loaded);
        assert_eq!(loaded, b.words());
        for i in 0..5000u64 {
            let words = [i, i * 7, 1];
            reg.insert(&words);
        }
        assert_eq!(reg.len(), 5002);
        assert_eq!(reg.find(&[4999, 4999 * 7, 1]), Some(5001));
        assert_eq!(reg.find(&[4999, 0, 1]), None);
    }

    /// 70 facts in groups of 7: 10 groups of 3 bits, one word instead of two.
    fn groups_of_seven() -> Vec<MutexGroup> {
        (0..10)
            .map(|g| MutexGroup {
                facts: (g * 7..g * 7 + 7).collect(),
                exactly_one: false,
            })
            .collect()
    }

    /// A state with at most one fact of each group of seven: `seed` picks
    /// which (or, every eighth, none).
    fn one_per_group(seed: u64) -> StateBuf {
        let mut state = StateBuf::new(70);
        for g in 0..10u64 {
            let pick = (seed * 31 + g * 17) % 8;
            if pick < 7 {
                state.bits_mut().set((g * 7 + pick) as usize, true);
            }
        }
        state
    }

    #[test]
    fn packing_round_trips_states_with_one_fact_per_group() {
        let packer = StatePacker::new(70, &groups_of_seven()).expect("saves a word");
        assert_eq!(packer.words, 1);
        let mut packed = vec![0u64; 1];
        let mut back = vec![0u64; 2];
        for seed in 0..200u64 {
            let state = one_per_group(seed);
            packer.pack(state.words(), &mut packed);
            packer.unpack(&packed, &mut back);
            assert_eq!(back, state.words());
        }
        // One fact per group saves nothing: no packer.
        let singletons: Vec<MutexGroup> = (0..70)
            .map(|f| MutexGroup {
                facts: vec![f],
                exactly_one: false,
            })
            .collect();
        assert!(StatePacker::new(70, &singletons).is_none());
    }

    #[test]
    fn packed_and_plain_registries_give_the_same_ids() {
        let mut plain = StateRegistry::new(70);
        let mut packed = StateRegistry::with_packer(70, StatePacker::new(70, &groups_of_seven()));
        assert_eq!((plain.words_per_state(), packed.words_per_state()), (2, 1));
        // Batches of ten states, with repeats across and within batches.
        for batch in 0..30u64 {
            let states: Vec<StateBuf> = (0..10).map(|i| one_per_group((batch * 7 + i) % 100)).collect();
            for reg in [&mut plain, &mut packed] {
                reg.clear_prepared();
                for s in &states {
                    reg.prepare(s.words());
                }
            }
            for (k, s) in states.iter().enumerate() {
                assert_eq!(
                    plain.insert_prepared(k, s.words()),
                    packed.insert_prepared(k, s.words())
                );
            }
        }
        assert_eq!(plain.len(), packed.len());
        let (mut a, mut b) = (vec![0; 2], vec![0; 2]);
        for id in 0..plain.len() as StateId {
            plain.load(id, &mut a);
            packed.load(id, &mut b);
            assert_eq!(a, b);
            assert_eq!(packed.find(&b), Some(id));
            assert_eq!(packed.insert(&b), (id, false));
        }
    }
}
