//! Reasonable orderings, derived from interference as RHW do, and the rule
//! that keeps the ordering graph free of cycles.
//!
//! Achieving `a` *interferes* with `b` when `b` cannot hold right after `a`
//! is made true:
//! 1. `a` and `b` are mutex (an invariant group holds both);
//! 2. every achiever of `a` deletes `b` (and none adds it);
//! 3. every achiever of `a` adds some fact mutex with `b`;
//! 4. a simple landmark greedy-necessarily ordered before `a` is mutex with
//!    `b`, and no achiever of `a` adds `b`;
//! 5. `b` is negated ("f is false") and `a` is `f`, or every achiever of `a`
//!    adds `f`.
//!
//! If `b` must still hold after `a` is achieved, reaching `b` first is
//! wasted work, so `a →r b` when achieving `a` interferes with `b` and
//! - `b` is a goal (it must hold at the end), or
//! - `b →gn c` and `a` is ordered (naturally or greedy-necessarily) before
//!   `c`: `b` must hold right before `c`, and `a` comes before `c`.
//!
//! Only simple landmarks take part (a disjunction does not interfere as a
//! whole), and `a` is neither negated nor true initially. `b` may be true
//! initially: a goal true initially that achieving `a` destroys must be
//! achieved again after `a`, and the ordering lets the landmark count say
//! so from the start, rather than only once `a` is reached, which would
//! trade one landmark for another.

use super::{Landmark, LandmarkId, Ordering, OrderingKind};
use crate::task::invariants::MutexTable;
use crate::task::{FactId, Task};

/// The reasonable orderings among `landmarks` given the sound `orderings`
/// (greedy-necessary and natural, sorted by (from, to)); pairs already
/// ordered are left out.
pub fn reasonable(task: &Task, landmarks: &[Landmark], orderings: &[Ordering]) -> Vec<Ordering> {
    debug_assert!(orderings.is_sorted_by_key(|o| (o.from, o.to)));
    let interference = Interference::new(task, landmarks, orderings);
    // A search in the sorted orderings rather than a set of them: a set
    // would double their memory in one step.
    let ordered = |pair: &(LandmarkId, LandmarkId)| orderings.binary_search_by_key(pair, |o| (o.from, o.to)).is_ok();
    let simple = |id: LandmarkId| !landmarks[id as usize].is_disjunctive();
    let source = |id: LandmarkId| {
        let lm = &landmarks[id as usize];
        simple(id) && !lm.negated && !lm.true_initially
    };
    let mut found: Vec<(LandmarkId, LandmarkId)> = Vec::new();
    let all = 0..landmarks.len() as LandmarkId;
    for b in all.clone().filter(|&b| simple(b) && landmarks[b as usize].is_goal) {
        crate::limits::checkpoint();
        for a in all.clone().filter(|&a| a != b && source(a)) {
            if interference.interferes(a, b) {
                found.push((a, b));
            }
        }
    }
    let mut before: Vec<Vec<LandmarkId>> = vec![Vec::new(); landmarks.len()];
    for o in orderings.iter().filter(|o| o.kind >= OrderingKind::Natural) {
        before[o.to as usize].push(o.from);
    }
    for gn in orderings.iter().filter(|o| o.kind == OrderingKind::GreedyNecessary) {
        crate::limits::checkpoint();
        let (b, c) = (gn.from, gn.to);
        if !simple(b) {
            continue;
        }
        for &a in &before[c as usize] {
            if a != b && source(a) && interference.interferes(a, b) {
                found.push((a, b));
            }
        }
    }
    found.sort_unstable();
    found.dedup();
    found
        .into_iter()
        .filter(|pair| !ordered(pair))
        .map(|(from, to)| Ordering {
            from,
            to,
            kind: OrderingKind::Reasonable,
        })
        .collect()
}

/// What is needed to decide interference between simple landmarks.
struct Interference<'a> {
    task: &'a Task,
    landmarks: &'a [Landmark],
    mutex: MutexTable,
    /// Per landmark, the simple landmarks greedy-necessarily before it.
    gn_parents: Vec<Vec<FactId>>,
    /// Per landmark, the facts every achiever adds (besides its own).
    shared_adds: Vec<Vec<FactId>>,
}

impl<'a> Interference<'a> {
    fn new(task: &'a Task, landmarks: &'a [Landmark], orderings: &[Ordering]) -> Self {
        let mut gn_parents = vec![Vec::new(); landmarks.len()];
        for o in orderings.iter().filter(|o| o.kind == OrderingKind::GreedyNecessary) {
            let parent = &landmarks[o.from as usize];
            if !parent.is_disjunctive() && !parent.negated {
                gn_parents[o.to as usize].push(parent.facts[0]);
            }
        }
        let shared_adds = landmarks
            .iter()
            .map(|lm| {
                let Some((&first, rest)) = lm.achievers.split_first() else {
                    return Vec::new();
                };
                let mut shared = task.operators[first as usize].add.clone();
                for &op in rest {
                    let add = &task.operators[op as usize].add;
                    shared.retain(|f| add.binary_search(f).is_ok());
                }
                shared.retain(|f| !lm.facts.contains(f));
                shared
            })
            .collect();
        Interference {
            task,
            landmarks,
            mutex: MutexTable::new(task.num_facts(), task.invariant_groups()),
            gn_parents,
            shared_adds,
        }
    }

    /// Achieving simple landmark `a` (not negated) leaves simple landmark
    /// `b` false.
    fn interferes(&self, a: LandmarkId, b: LandmarkId) -> bool {
        let lm_a = &self.landmarks[a as usize];
        let (fa, fb) = (lm_a.facts[0], self.landmarks[b as usize].facts[0]);
        if self.landmarks[b as usize].negated {
            // `b` is "fb is false": achieving `a` makes fb true.
            return fa == fb || self.shared_adds[a as usize].contains(&fb);
        }
        if self.mutex.are_mutex(fa, fb) {
            return true;
        }
        let achievers = lm_a.achievers.iter().map(|&op| &self.task.operators[op as usize]);
        let some_adds_b = achievers.clone().any(|op| op.add.binary_search(&fb).is_ok());
        if some_adds_b {
            return false;
        }
        if !lm_a.achievers.is_empty() && achievers.clone().all(|op| op.del.binary_search(&fb).is_ok()) {
            return true;
        }
        let mutex_with_b = |&x: &FactId| self.mutex.are_mutex(x, fb);
        self.shared_adds[a as usize].iter().any(mutex_with_b) || self.gn_parents[a as usize].iter().any(mutex_with_b)
    }
}

/// The orderings without cycles, and how many were dropped. Orderings are
/// taken strongest first (greedy-necessary, natural, reasonable; within a
/// kind by landmark ids, so the result is deterministic), and one that
/// would close a cycle with those taken before is dropped. Greedy-necessary
/// orderings alone never form a cycle in a solvable task (each says its
/// source holds strictly before its target first does); natural ones can,
/// when one operator adds both landmarks of a pair, and reasonable ones are
/// advice. Dropping an ordering only lets a heuristic accept a landmark
/// sooner, so every choice is safe; this one keeps the strongest.
pub fn without_cycles(num_landmarks: usize, mut candidates: Vec<Ordering>) -> (Vec<Ordering>, usize) {
    // The pairs are distinct, so an unstable sort (in place, without a
    // buffer of half their size) gives the same order.
    candidates.sort_unstable_by_key(|o| (std::cmp::Reverse(o.kind), o.from, o.to));
    let mut successors: Vec<Vec<LandmarkId>> = vec![Vec::new(); num_landmarks];
    let mut kept = Vec::with_capacity(candidates.len());
    let mut dropped = 0;
    let mut visited = vec![false; num_landmarks];
    let mut stack = Vec::new();
    for o in candidates {
        // A search per ordering: quadratic when the orderings are.
        crate::limits::checkpoint();
        if reaches(&successors, o.to, o.from, &mut visited, &mut stack) {
            dropped += 1;
            continue;
        }
        successors[o.from as usize].push(o.to);
        kept.push(o);
    }
    (kept, dropped)
}

/// True when `to` is reachable from `from` along `successors`.
fn reaches(
    successors: &[Vec<LandmarkId>],
    from: LandmarkId,
    to: LandmarkId,
    visited: &mut [bool],
    stack: &mut Vec<LandmarkId>,
) -> bool {
    visited.fill(false);
    stack.clear();
    stack.push(from);
    visited[from as usize] = true;
    while let Some(n) = stack.pop() {
        if n == to {
            return true;
        }
        for &m in &successors[n as usize] {
            if !visited[m as usize] {
                visited[m as usize] = true;
                stack.push(m);
            }
        }
    }
    false
}

/// The landmarks ordered so that each comes after its predecessors (the
/// orderings must be acyclic); ties by id.
pub fn topological_order(num_landmarks: usize, orderings: &[Ordering]) -> Vec<LandmarkId> {
    let mut indegree = vec![0u32; num_landmarks];
    let mut successors: Vec<Vec<LandmarkId>> = vec![Vec::new(); num_landmarks];
    for o in orderings {
        indegree[o.to as usize] += 1;
        successors[o.from as usize].push(o.to);
    }
    let mut ready: std::collections::BTreeSet<LandmarkId> = (0..num_landmarks as LandmarkId)
        .filter(|&i| indegree[i as usize] == 0)
        .collect();
    let mut order = Vec::with_capacity(num_landmarks);
    while let Some(n) = ready.pop_first() {
        order.push(n);
        for &m in &successors[n as usize] {
            indegree[m as usize] -= 1;
            if indegree[m as usize] == 0 {
                ready.insert(m);
            }
        }
    }
    debug_assert_eq!(order.len(), num_landmarks, "the orderings have a cycle");
    order
}
