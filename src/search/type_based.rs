//! Type-based exploration (Xie, Müller and Holte, AAAI 2014): entries are
//! grouped into buckets by their *type*, a tuple of keys such as (h, g); a
//! pop picks a non-empty bucket uniformly at random, then an entry of it
//! uniformly at random.
//!
//! A greedy open list always takes the lowest h, so on a plateau or in a
//! local minimum it digs through one region of the state space. Sampling by
//! type instead gives every (h, g) combination seen so far the same chance,
//! which sends some expansions to states that look worse but lie elsewhere.
//! Alternated with the greedy lists, it costs them a share of the expansions
//! and escapes the traps that stall them.

use std::collections::HashMap;

use crate::rng::Rng;

pub struct TypeBasedList<T> {
    /// Non-empty buckets, each with its type.
    buckets: Vec<((u64, u64), Vec<T>)>,
    /// Type → index in `buckets`.
    index: HashMap<(u64, u64), usize>,
    len: usize,
}

impl<T: Copy> TypeBasedList<T> {
    pub fn new() -> Self {
        TypeBasedList {
            buckets: Vec::new(),
            index: HashMap::new(),
            len: 0,
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn push(&mut self, kind: (u64, u64), entry: T) {
        let i = *self.index.entry(kind).or_insert_with(|| {
            self.buckets.push((kind, Vec::new()));
            self.buckets.len() - 1
        });
        self.buckets[i].1.push(entry);
        self.len += 1;
    }

    /// A uniformly chosen entry of a uniformly chosen bucket.
    pub fn pop(&mut self, rng: &mut Rng) -> Option<T> {
        if self.buckets.is_empty() {
            return None;
        }
        let b = rng.below_usize(self.buckets.len());
        let bucket = &mut self.buckets[b].1;
        let entry = bucket.swap_remove(rng.below_usize(bucket.len()));
        if bucket.is_empty() {
            let (kind, _) = self.buckets.swap_remove(b);
            self.index.remove(&kind);
            if let Some((moved, _)) = self.buckets.get(b) {
                self.index.insert(*moved, b);
            }
        }
        self.len -= 1;
        Some(entry)
    }

    pub fn memory_bytes(&self) -> usize {
        let entries: usize = self.buckets.iter().map(|(_, b)| b.capacity()).sum();
        entries * std::mem::size_of::<T>()
            + self.buckets.capacity() * std::mem::size_of::<((u64, u64), Vec<T>)>()
            + self.index.capacity() * (std::mem::size_of::<((u64, u64), usize)>() + 1)
    }
}

impl<T: Copy> Default for TypeBasedList<T> {
    fn default() -> Self {
        Self::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_entry_comes_out_once() {
        let mut list = TypeBasedList::new();
        for i in 0..100u32 {
            list.push(((i % 7) as u64, (i % 3) as u64), i);
        }
        let mut rng = Rng::new(7);
        let mut seen: Vec<u32> = std::iter::from_fn(|| list.pop(&mut rng)).collect();
        assert!(list.is_empty());
        seen.sort();
        assert_eq!(seen, (0..100).collect::<Vec<_>>());
    }

    #[test]
    fn buckets_are_chosen_uniformly_not_entries() {
        // One bucket of 1000 entries and one of a single entry: the single
        // entry comes out on the first pop about half the time, where a
        // uniform choice among entries would pick it once in 1001.
        let mut rng = Rng::new(11);
        let mut first_is_single = 0;
        for _ in 0..2000 {
            let mut list = TypeBasedList::new();
            for i in 0..1000u32 {
                list.push((5, 0), i);
            }
            list.push((9, 1), 1000);
            if list.pop(&mut rng) == Some(1000) {
                first_is_single += 1;
            }
        }
        assert!((800..1200).contains(&first_is_single), "{first_is_single}");
    }

    #[test]
    fn an_emptied_bucket_is_forgotten() {
        let mut list = TypeBasedList::new();
        list.push((1, 1), 'a');
        list.push((2, 2), 'b');
        list.push((3, 3), 'c');
        let mut rng = Rng::new(3);
        let mut out = Vec::new();
        while let Some(e) = list.pop(&mut rng) {
            out.push(e);
            // The index stays consistent with the buckets after each removal.
            for (i, (kind, bucket)) in list.buckets.iter().enumerate() {
                assert_eq!(list.index[kind], i);
                assert!(!bucket.is_empty());
            }
        }
        out.sort();
        assert_eq!(out, vec!['a', 'b', 'c']);
        assert!(list.index.is_empty());
    }
}
