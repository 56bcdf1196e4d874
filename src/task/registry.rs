//! The registry that interns states.
//!
//! The [`StateRegistry`] stores every distinct state once in one arena and
//! hands out dense `u32` ids; search nodes refer to states by id only.

use super::FactId;
use super::state::{StateBits, bits_of, for_each_true, words_for};

/// Dense id of an interned state.
pub type StateId = u32;

/// Packs states more densely than one bit per fact, using groups of facts
/// of which at most one holds in any reachable state ([`super::invariants`]): a
/// group of k facts takes the bits of the numbers 0..=k (0: none holds, i:
/// its i-th fact), each group within one word. Only reachable states may be
/// packed (two true facts of one group would be lost).
///
/// It trades time for memory, so the search uses it only on request
/// (`solve --pack-states`). Measured on Sokoban 0065 (A* with PDBs, 2.6M
/// expansions): 1.05 s and 328 MB unpacked, 1.76 s and 264 MB packed (3
/// words per state become 2); Hanoi 0060 (1.0M expansions): 0.70 s and
/// 167 MB against 0.99 s and 134 MB (4 words become 2).
pub struct StatePacker {
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
    pub fn new(num_facts: usize, groups: &[Vec<FactId>]) -> Option<Self> {
        let mut fact_code = vec![(0, 0, 0); num_facts];
        let mut layout = Vec::with_capacity(groups.len());
        let mut facts = Vec::with_capacity(num_facts);
        let (mut word, mut used) = (0u32, 0u32);
        for group in groups {
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

    /// Words per packed state.
    pub fn words(&self) -> usize {
        self.words
    }

    /// Packs the state given by its fact words into `out`.
    pub fn pack(&self, state: &[u64], out: &mut [u64]) {
        out.fill(0);
        for_each_true(bits_of(state, self.fact_code.len()), |f| {
            let (pw, shift, code) = self.fact_code[f];
            out[pw as usize] |= code << shift;
        });
    }

    /// Unpacks a packed state into its fact words `out`.
    pub fn unpack(&self, packed: &[u64], out: &mut [u64]) {
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
/// state by its words. No allocation per state beyond the arena's growth.
///
/// Each slot also keeps the upper half of the state's hash, so a probe
/// touches the arena (a cache miss, then a comparison) almost only for the
/// state it is looking for.
pub struct StateRegistry {
    num_facts: usize,
    words_per_state: usize,
    arena: Vec<u64>,
    /// Slots hold `(hash >> 32) << 32 | (id + 1)`; 0 marks an empty slot.
    /// Length is a power of two.
    table: Vec<u64>,
    len: usize,
}

impl StateRegistry {
    pub fn new(num_facts: usize) -> Self {
        Self::with_words(num_facts, words_for(num_facts))
    }

    /// A registry of states stored in `words_per_state` words each (packed
    /// states); [`StateRegistry::get`] is meaningless for them.
    pub fn with_words(num_facts: usize, words_per_state: usize) -> Self {
        StateRegistry {
            num_facts,
            words_per_state,
            arena: Vec::new(),
            table: vec![0; 1024],
            len: 0,
        }
    }

    pub fn num_facts(&self) -> usize {
        self.num_facts
    }

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

    /// The packed words of a stored state.
    pub fn words(&self, id: StateId) -> &[u64] {
        let start = id as usize * self.words_per_state;
        &self.arena[start..start + self.words_per_state]
    }

    /// The stored state as bits.
    pub fn get(&self, id: StateId) -> &StateBits {
        bits_of(self.words(id), self.num_facts)
    }

    /// Interns a state given by its packed words; returns its id and whether
    /// it was new.
    pub fn insert(&mut self, words: &[u64]) -> (StateId, bool) {
        self.insert_hashed(words, hash_words(words))
    }

    /// The hash [`StateRegistry::insert_hashed`] expects.
    pub fn hash(words: &[u64]) -> u64 {
        hash_words(words)
    }

    /// Prefetches the table slot a state with this hash starts probing at,
    /// so that the memory access (a cache miss in a large table) is under
    /// way while other work is done; several touches overlap their misses.
    #[inline]
    pub fn touch(&self, hash: u64) {
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

    /// [`StateRegistry::insert`] with the hash computed by the caller.
    pub fn insert_hashed(&mut self, words: &[u64], hash: u64) -> (StateId, bool) {
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
                if same_words(self.words(id), words) {
                    return (id, false);
                }
            }
            slot = (slot + 1) & mask;
        }
    }

    /// Looks a state up without inserting it.
    pub fn find(&self, words: &[u64]) -> Option<StateId> {
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
                if same_words(self.words(id), words) {
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
            let hash = hash_words(self.words(id));
            let mut slot = hash as usize & mask;
            while table[slot] != 0 {
                slot = (slot + 1) & mask;
            }
            table[slot] = (hash & TAG_MASK) | (id as u64 + 1);
        }
        self.table = table;
    }

    /// Bytes held by the arena and the hash table.
    pub fn memory_bytes(&self) -> usize {
        self.arena.capacity() * 8 + self.table.capacity() * 8
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
        assert!(reg.get(ib)[64] && !reg.get(ia)[64]);
        for i in 0..5000u64 {
            let words = [i, i * 7, 1];
            reg.insert(&words);
        }
        assert_eq!(reg.len(), 5002);
        assert_eq!(reg.find(&[4999, 4999 * 7, 1]), Some(5001));
        assert_eq!(reg.find(&[4999, 0, 1]), None);
    }
}

#[cfg(test)]
mod packer_tests {
    use super::*;
    use crate::task::state::StateBuf;

    #[test]
    fn packing_round_trips_states_with_one_fact_per_group() {
        // 70 facts in groups of 7: 10 groups of 3 bits, one word instead of two.
        let groups: Vec<Vec<FactId>> = (0..10).map(|g| (g * 7..g * 7 + 7).collect()).collect();
        let packer = StatePacker::new(70, &groups).expect("saves a word");
        assert_eq!(packer.words(), 1);
        let mut packed = vec![0u64; 1];
        let mut back = vec![0u64; 2];
        for seed in 0..200u64 {
            let mut state = StateBuf::new(70);
            for g in 0..10u64 {
                // Each group holds one of its facts, or (every third) none.
                let pick = (seed * 31 + g * 17) % 8;
                if pick < 7 {
                    state.bits_mut().set((g * 7 + pick) as usize, true);
                }
            }
            packer.pack(state.words(), &mut packed);
            packer.unpack(&packed, &mut back);
            assert_eq!(back, state.words());
        }
        // One fact per group saves nothing: no packer.
        let singletons: Vec<Vec<FactId>> = (0..70).map(|f| vec![f]).collect();
        assert!(StatePacker::new(70, &singletons).is_none());
    }
}
