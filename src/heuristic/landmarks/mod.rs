//! Landmark graphs: facts (or disjunctions of facts) that every plan makes
//! true at some point, or facts that a negative condition needs false and
//! every plan makes false, and orderings between them, found in the delete
//! relaxation of the task.
//!
//! Landmarks are found by backchaining from the goals ([`rhw`]), as
//! Hoffmann, Porteous and Sebastia (2004) describe and Richter, Helmert and
//! Westphal (2008) refine: a fact that every possible *first* achiever of a
//! landmark needs is a landmark too. Orderings ([`orderings`]) say which
//! landmark should be true before which:
//!
//! - *greedy-necessary* `a →gn b`: `a` holds in the state right before `b`
//!   first becomes true, on every path from the initial state;
//! - *natural* `a →nat b`: `a` holds at some point before `b` first becomes
//!   true, or becomes true together with it (one operator may add both), on
//!   every path;
//! - *reasonable* `a →r b`: reaching `b` before `a` is wasted, since
//!   achieving `a` destroys `b`, which must then be achieved again. Not
//!   sound: a heuristic may only use it as advice.
//!
//! The first two hold on every path from the initial state, not only on
//! plans, which is what lets the landmark-count heuristic accept a landmark
//! only once the landmarks ordered before it were reached.

mod dtg;
mod orderings;
pub mod reach;
mod rhw;

use std::time::{Duration, Instant};

use crate::task::{FactId, OpId, Task};

/// Index of a landmark in [`LandmarkGraph::landmarks`].
pub type LandmarkId = u32;

/// Most facts in a disjunctive landmark: larger disjunctions say little and
/// cost more to track.
pub const MAX_DISJUNCTION: usize = 4;

/// A landmark: one fact, or a disjunction of facts of which every plan makes
/// at least one true, or (negated) a fact that every plan makes false.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Landmark {
    /// Sorted; one fact for a simple landmark.
    pub facts: Vec<FactId>,
    /// The landmark is that none of `facts` holds: a fact that a negative
    /// condition needs false. Its achievers delete the fact.
    pub negated: bool,
    /// A simple landmark whose fact is a (positive) goal.
    pub is_goal: bool,
    /// Some fact of it holds in the initial state.
    pub true_initially: bool,
    /// Some fact of it is derived: rules make it true, not operators.
    pub derived: bool,
    /// Operators that add one of its facts (without requiring it), or
    /// delete it for a negated landmark, sorted; none for a derived one.
    pub achievers: Vec<OpId>,
    /// The achievers that can make it true for the first time: their
    /// preconditions are reachable in the relaxation without it. Empty for
    /// landmarks true initially (nothing needs to achieve them first) and
    /// for derived ones (their first achievers are rules).
    pub first_achievers: Vec<OpId>,
}

impl Landmark {
    pub fn is_disjunctive(&self) -> bool {
        !self.negated && self.facts.len() > 1
    }

    /// It holds in `state`.
    pub fn holds(&self, state: &crate::task::state::StateBits) -> bool {
        if self.negated {
            self.facts.iter().all(|&f| !state[f as usize])
        } else {
            self.facts.iter().any(|&f| state[f as usize])
        }
    }

    /// Nothing can make it true: no operator adds a fact of it, and no rule
    /// derives one.
    pub fn has_no_achiever(&self) -> bool {
        self.achievers.is_empty() && !self.derived
    }
}

/// How strongly one landmark is ordered before another, weakest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum OrderingKind {
    Reasonable,
    Natural,
    GreedyNecessary,
}

/// `from` is ordered before `to`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Ordering {
    pub from: LandmarkId,
    pub to: LandmarkId,
    pub kind: OrderingKind,
}

/// The landmarks of a task and their orderings (at most one, the strongest,
/// per pair; no cycles).
#[derive(Clone, Debug)]
pub struct LandmarkGraph {
    landmarks: Vec<Landmark>,
    /// Sorted by (from, to).
    orderings: Vec<Ordering>,
    /// Per landmark, the orderings into it (indices into `orderings`).
    parents: Vec<Vec<u32>>,
    /// Per landmark, the orderings out of it.
    children: Vec<Vec<u32>>,
    /// Per task fact, the (not negated) landmark containing it.
    landmark_of: Vec<Option<LandmarkId>>,
    /// Every landmark after those ordered before it.
    topological: Vec<LandmarkId>,
    /// Orderings dropped to break cycles.
    dropped: usize,
    build_time: Duration,
}

impl LandmarkGraph {
    /// Finds the landmarks of `task` and orders them.
    pub fn build(task: &Task) -> Self {
        let start = Instant::now();
        let found = rhw::find(task);
        let mut candidates = found.orderings;
        candidates.extend(orderings::reasonable(task, &found.landmarks, &candidates));
        let (orderings, dropped) = orderings::without_cycles(found.landmarks.len(), candidates);
        let mut graph = LandmarkGraph::assemble(task.num_facts(), found.landmarks, orderings);
        graph.dropped = dropped;
        graph.build_time = start.elapsed();
        graph
    }

    /// The graph of these landmarks and (acyclic, one per pair) orderings.
    fn assemble(num_facts: usize, landmarks: Vec<Landmark>, mut orderings: Vec<Ordering>) -> Self {
        // One ordering per pair: in place, without a buffer of their size.
        orderings.sort_unstable_by_key(|o| (o.from, o.to));
        let mut parents = vec![Vec::new(); landmarks.len()];
        let mut children = vec![Vec::new(); landmarks.len()];
        for (i, o) in orderings.iter().enumerate() {
            parents[o.to as usize].push(i as u32);
            children[o.from as usize].push(i as u32);
        }
        let mut landmark_of = vec![None; num_facts];
        for (id, lm) in landmarks.iter().enumerate().filter(|(_, lm)| !lm.negated) {
            for &f in &lm.facts {
                landmark_of[f as usize] = Some(id as LandmarkId);
            }
        }
        let topological = orderings::topological_order(landmarks.len(), &orderings);
        LandmarkGraph {
            topological,
            landmarks,
            orderings,
            parents,
            children,
            landmark_of,
            dropped: 0,
            build_time: Duration::ZERO,
        }
    }

    pub fn landmarks(&self) -> &[Landmark] {
        &self.landmarks
    }

    pub fn len(&self) -> usize {
        self.landmarks.len()
    }

    pub fn is_empty(&self) -> bool {
        self.landmarks.is_empty()
    }

    /// Every ordering, sorted by (from, to).
    pub fn orderings(&self) -> &[Ordering] {
        &self.orderings
    }

    /// The orderings into `id`.
    pub fn parents(&self, id: LandmarkId) -> impl Iterator<Item = &Ordering> + '_ {
        self.parents[id as usize].iter().map(|&i| &self.orderings[i as usize])
    }

    /// The orderings out of `id`.
    pub fn children(&self, id: LandmarkId) -> impl Iterator<Item = &Ordering> + '_ {
        self.children[id as usize].iter().map(|&i| &self.orderings[i as usize])
    }

    /// The landmarks in an order that puts every landmark after those
    /// ordered before it.
    pub fn topological_order(&self) -> &[LandmarkId] {
        &self.topological
    }

    /// The landmark that contains `fact`, if any (a fact is in at most one
    /// that is not negated).
    pub fn landmark_of(&self, fact: FactId) -> Option<LandmarkId> {
        self.landmark_of.get(fact as usize).copied().flatten()
    }

    /// One line for the log: sizes and build time.
    pub fn summary(&self) -> String {
        let disjunctive = self.landmarks.iter().filter(|l| l.is_disjunctive()).count();
        let negated = self.landmarks.iter().filter(|l| l.negated).count();
        let count = |kind| self.orderings.iter().filter(|o| o.kind == kind).count();
        format!(
            "Landmarks: {} ({} disjunctive, {} negated), orderings: {} ({} greedy-necessary, {} natural, {} reasonable; {} dropped to break cycles), built in {:.3}s",
            self.landmarks.len(),
            disjunctive,
            negated,
            self.orderings.len(),
            count(OrderingKind::GreedyNecessary),
            count(OrderingKind::Natural),
            count(OrderingKind::Reasonable),
            self.dropped,
            self.build_time.as_secs_f64()
        )
    }
}

#[cfg(test)]
pub(crate) mod tests;
