//! Packed states and the registry that interns them.
//!
//! A state is a bit vector over the task's facts, packed into `u64` words.
//! The [`StateRegistry`] stores every distinct state once in one arena and
//! hands out dense `u32` ids; search nodes refer to states by id only.

use bitvec::prelude::*;

/// A borrowed state: one bit per fact.
pub type StateBits = BitSlice<u64, Lsb0>;

/// Dense id of an interned state.
pub type StateId = u32;

/// An owned state with a fixed number of facts.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct StateBuf {
    words: Vec<u64>,
    num_facts: usize,
}

impl StateBuf {
    pub fn new(num_facts: usize) -> Self {
        StateBuf {
            words: vec![0; words_for(num_facts)],
            num_facts,
        }
    }

    pub fn from_words(words: &[u64], num_facts: usize) -> Self {
        assert_eq!(words.len(), words_for(num_facts));
        StateBuf {
            words: words.to_vec(),
            num_facts,
        }
    }

    pub fn bits(&self) -> &StateBits {
        &self.words.view_bits::<Lsb0>()[..self.num_facts]
    }

    pub fn bits_mut(&mut self) -> &mut StateBits {
        &mut self.words.view_bits_mut::<Lsb0>()[..self.num_facts]
    }

    pub fn words(&self) -> &[u64] {
        &self.words
    }
}

/// Number of `u64` words that hold `num_facts` bits (at least one, so that
/// every state has a distinct address in the arena).
pub fn words_for(num_facts: usize) -> usize {
    num_facts.div_ceil(64).max(1)
}

/// Views packed words as a state of `num_facts` facts.
pub fn bits_of(words: &[u64], num_facts: usize) -> &StateBits {
    &words.view_bits::<Lsb0>()[..num_facts]
}

/// Stores each distinct state once. States live back to back in one arena
/// of words; a hash table of ids (open addressing, linear probing) finds a
/// state by its words. No allocation per state beyond the arena's growth.
pub struct StateRegistry {
    num_facts: usize,
    words_per_state: usize,
    arena: Vec<u64>,
    /// Slots hold `id + 1`; 0 marks an empty slot. Length is a power of two.
    table: Vec<u32>,
    len: usize,
}

impl StateRegistry {
    pub fn new(num_facts: usize) -> Self {
        StateRegistry {
            num_facts,
            words_per_state: words_for(num_facts),
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
        debug_assert_eq!(words.len(), self.words_per_state);
        if (self.len + 1) * 4 > self.table.len() * 3 {
            self.grow();
        }
        let mask = self.table.len() - 1;
        let mut slot = hash_words(words) as usize & mask;
        loop {
            let entry = self.table[slot];
            if entry == 0 {
                let id = self.len as StateId;
                self.arena.extend_from_slice(words);
                self.table[slot] = id + 1;
                self.len += 1;
                return (id, true);
            }
            if self.words(entry - 1) == words {
                return (entry - 1, false);
            }
            slot = (slot + 1) & mask;
        }
    }

    /// Looks a state up without inserting it.
    pub fn find(&self, words: &[u64]) -> Option<StateId> {
        let mask = self.table.len() - 1;
        let mut slot = hash_words(words) as usize & mask;
        loop {
            let entry = self.table[slot];
            if entry == 0 {
                return None;
            }
            if self.words(entry - 1) == words {
                return Some(entry - 1);
            }
            slot = (slot + 1) & mask;
        }
    }

    fn grow(&mut self) {
        let new_len = self.table.len() * 2;
        let mask = new_len - 1;
        let mut table = vec![0u32; new_len];
        for id in 0..self.len as StateId {
            let mut slot = hash_words(self.words(id)) as usize & mask;
            while table[slot] != 0 {
                slot = (slot + 1) & mask;
            }
            table[slot] = id + 1;
        }
        self.table = table;
    }

    /// Bytes held by the arena and the hash table.
    pub fn memory_bytes(&self) -> usize {
        self.arena.capacity() * 8 + self.table.capacity() * 4
    }
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
