//! States: bit vectors over the task's facts, packed into `u64` words
//! (fact `f` is bit `f % 64` of word `f / 64`).

use bitvec::prelude::*;

/// A borrowed state: one bit per fact.
pub type StateBits = BitSlice<u64, Lsb0>;

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

/// Views state words as a state of `num_facts` facts.
pub fn bits_of(words: &[u64], num_facts: usize) -> &StateBits {
    &words.view_bits::<Lsb0>()[..num_facts]
}

/// Calls `f(f_id)` for every true fact of a state, a word at a time: the
/// fast way to list a state's facts (bitvec's own `iter_ones` is several
/// times slower here).
#[inline]
pub fn for_each_true(bits: &StateBits, mut f: impl FnMut(usize)) {
    // States start at bit 0 of their first word, so the i-th element of the
    // domain holds facts 64·i to 64·i + 63 (the last one masked).
    for (i, word) in bits.domain().enumerate() {
        let mut w = word;
        while w != 0 {
            f(i * 64 + w.trailing_zeros() as usize);
            w &= w - 1;
        }
    }
}
