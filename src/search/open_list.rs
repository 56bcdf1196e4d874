//! Open list keyed by two integers (primary, then secondary), holding small
//! entries (state ids for the eager engine, parent and operator for the lazy
//! one); ties within a key are FIFO or LIFO.
//!
//! Keys are usually small (f or h values of unit-cost tasks), so the list is
//! a two-level bucket queue: `levels[primary].buckets[secondary]`. Pushing and
//! popping are O(1) amortized; the minimum is found by walking a cursor that
//! only moves backwards when a smaller key is pushed. Tasks with large action
//! costs can make keys sparse and huge; once a key exceeds what buckets can
//! hold cheaply, the list moves its contents into a binary heap and stays
//! there.
//!
//! Entries are never removed from the middle: the engine skips ids whose node
//! is no longer open when they come out (lazy deletion).

use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};

use crate::task::registry::StateId;

/// Keys at or beyond this switch to the heap.
const MAX_KEY: u64 = 1 << 16;
/// Total number of buckets before switching to the heap.
const MAX_BUCKETS: usize = 1 << 20;

struct Level<T> {
    buckets: Vec<VecDeque<T>>,
    /// No non-empty bucket below this index.
    min: usize,
    len: usize,
}

impl<T> Default for Level<T> {
    fn default() -> Self {
        Level {
            buckets: Vec::new(),
            min: 0,
            len: 0,
        }
    }
}

enum Repr<T> {
    Buckets {
        levels: Vec<Level<T>>,
        /// No non-empty level below this index.
        min: usize,
        num_buckets: usize,
    },
    /// (primary, secondary, tie, id); `tie` encodes FIFO or LIFO order.
    Heap(BinaryHeap<Reverse<(u64, u64, u64, T)>>),
}

pub struct OpenList<T = StateId> {
    repr: Repr<T>,
    lifo: bool,
    len: usize,
    seq: u64,
}

impl<T: Copy + Ord> OpenList<T> {
    pub fn new(lifo: bool) -> Self {
        OpenList {
            repr: Repr::Buckets {
                levels: Vec::new(),
                min: 0,
                num_buckets: 0,
            },
            lifo,
            len: 0,
            seq: 0,
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    fn tie(&mut self) -> u64 {
        self.seq += 1;
        if self.lifo { u64::MAX - self.seq } else { self.seq }
    }

    pub fn push(&mut self, primary: u64, secondary: u64, id: T) {
        if let Repr::Buckets {
            levels,
            min,
            num_buckets,
        } = &mut self.repr
        {
            let fits = primary < MAX_KEY && secondary < MAX_KEY && {
                let (p, s) = (primary as usize, secondary as usize);
                let new_levels = (p + 1).saturating_sub(levels.len());
                let new_buckets = (s + 1).saturating_sub(levels.get(p).map_or(0, |l| l.buckets.len()));
                *num_buckets + new_levels + new_buckets <= MAX_BUCKETS
            };
            if fits {
                let (p, s) = (primary as usize, secondary as usize);
                if levels.len() <= p {
                    *num_buckets += p + 1 - levels.len();
                    levels.resize_with(p + 1, Level::default);
                }
                let level = &mut levels[p];
                if level.buckets.len() <= s {
                    *num_buckets += s + 1 - level.buckets.len();
                    level.buckets.resize_with(s + 1, VecDeque::new);
                }
                level.buckets[s].push_back(id);
                level.len += 1;
                level.min = level.min.min(s);
                *min = (*min).min(p);
                self.len += 1;
                return;
            }
            self.move_to_heap();
        }
        let tie = self.tie();
        if let Repr::Heap(heap) = &mut self.repr {
            heap.push(Reverse((primary, secondary, tie, id)));
            self.len += 1;
        }
    }

    /// Moves all entries into the heap, keeping their order.
    fn move_to_heap(&mut self) {
        let Repr::Buckets { levels, .. } = std::mem::replace(&mut self.repr, Repr::Heap(BinaryHeap::new())) else {
            return;
        };
        let mut heap = BinaryHeap::with_capacity(self.len);
        for (p, level) in levels.into_iter().enumerate() {
            for (s, bucket) in level.buckets.into_iter().enumerate() {
                for id in bucket {
                    let tie = self.tie();
                    heap.push(Reverse((p as u64, s as u64, tie, id)));
                }
            }
        }
        self.repr = Repr::Heap(heap);
    }

    /// Removes an entry with the smallest key; returns it with its key.
    pub fn pop(&mut self) -> Option<(u64, u64, T)> {
        if self.len == 0 {
            return None;
        }
        match &mut self.repr {
            Repr::Buckets {
                levels,
                min,
                num_buckets,
            } => {
                while levels[*min].len == 0 {
                    // Drop drained levels' buckets: keys below the cursor are rare.
                    *num_buckets -= levels[*min].buckets.len();
                    levels[*min] = Level::default();
                    *min += 1;
                }
                let p = *min;
                let level = &mut levels[p];
                while level.buckets[level.min].is_empty() {
                    level.min += 1;
                }
                let s = level.min;
                let bucket = &mut level.buckets[s];
                let id = if self.lifo {
                    bucket.pop_back()
                } else {
                    bucket.pop_front()
                }?;
                level.len -= 1;
                self.len -= 1;
                Some((p as u64, s as u64, id))
            }
            Repr::Heap(heap) => {
                let Reverse((p, s, _, id)) = heap.pop()?;
                self.len -= 1;
                Some((p, s, id))
            }
        }
    }

    /// Approximate bytes held.
    pub fn memory_bytes(&self) -> usize {
        match &self.repr {
            Repr::Buckets {
                levels, num_buckets, ..
            } => {
                levels.capacity() * std::mem::size_of::<Level<T>>()
                    + num_buckets * std::mem::size_of::<VecDeque<T>>()
                    + self.len * std::mem::size_of::<T>() * 2
            }
            Repr::Heap(heap) => heap.capacity() * std::mem::size_of::<(u64, u64, u64, T)>(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn drain(list: &mut OpenList) -> Vec<(u64, u64, StateId)> {
        std::iter::from_fn(|| list.pop()).collect()
    }

    #[test]
    fn pops_in_key_order_fifo_and_lifo() {
        for lifo in [false, true] {
            let mut list = OpenList::new(lifo);
            list.push(3, 1, 10);
            list.push(1, 2, 11);
            list.push(1, 0, 12);
            list.push(1, 2, 13);
            assert_eq!(list.pop(), Some((1, 0, 12)));
            // A smaller key pushed after the cursor moved is still found.
            list.push(0, 5, 14);
            let rest = drain(&mut list);
            let tie = if lifo {
                [(1, 2, 13), (1, 2, 11)]
            } else {
                [(1, 2, 11), (1, 2, 13)]
            };
            assert_eq!(rest, vec![(0, 5, 14), tie[0], tie[1], (3, 1, 10)]);
            assert!(list.is_empty());
        }
    }

    #[test]
    fn huge_keys_switch_move_to_heap_and_keep_order() {
        for lifo in [false, true] {
            let mut list = OpenList::new(lifo);
            list.push(2, 0, 1);
            list.push(2, 0, 2);
            list.push(5, 3, 3);
            list.push(1_000_000_000, 0, 4);
            list.push(0, 1_000_000_000, 5);
            assert_eq!(list.len, 5);
            let order: Vec<StateId> = drain(&mut list).into_iter().map(|e| e.2).collect();
            let tie = if lifo { [2, 1] } else { [1, 2] };
            assert_eq!(order, vec![5, tie[0], tie[1], 3, 4]);
        }
    }
}
