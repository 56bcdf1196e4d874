//! Finding landmarks by backchaining from the goals through the relaxed
//! planning graph (Hoffmann, Porteous and Sebastia 2004; Richter, Helmert
//! and Westphal 2008), with the greedy-necessary and natural orderings that
//! the search finds on the way.
//!
//! Every goal fact is a landmark. For a landmark `L` not true initially,
//! explore the relaxation from the initial state without the operators that
//! achieve `L`. An achiever of `L` whose preconditions are all reached there
//! is a possible *first achiever*: on any path from the initial state, the
//! operator that first makes `L` true is applied where `L` has never held,
//! so only through operators that do not achieve `L`, and its preconditions
//! are reachable without them. Hence:
//!
//! - a fact every first achiever requires is a landmark, greedy-necessarily
//!   ordered before `L` (it holds right before `L` first becomes true); so
//!   is a fact every first achiever requires *false* (a negative condition,
//!   "not f" in the relaxation): a negated landmark, whose achievers delete
//!   `f`, expanded in turn like any other;
//! - when every first achiever requires some fact of one predicate, the
//!   disjunction of those facts is a landmark, ordered the same way (as RHW
//!   do with their variables; the predicate is the lifted structure a
//!   grounded STRIPS task keeps). At most [`MAX_DISJUNCTION`] facts, none
//!   true initially, none already part of another landmark;
//! - a landmark that the same exploration does not reach cannot become true
//!   before `L` has been: a natural ordering `L →nat` it;
//! - a value that every path of a variable's transition graph passes through
//!   on the way to a simple `L` is a landmark, naturally ordered before `L`
//!   ([`super::dtg`]).
//!
//! The rules of derived predicates are achievers like operators (relaxed
//! operators of cost zero): a derived landmark's first achievers are rules,
//! and the facts their bodies share are landmarks ordered before it.
//!
//! New landmarks are processed the same way until none is left. A simple
//! landmark found inside a known disjunctive one replaces it (the fact says
//! more than the disjunction); the disjunction's orderings go with it.

use std::collections::{BTreeMap, VecDeque};

use bitvec::prelude::*;

use super::dtg::TransitionGraphs;
use super::reach::RelaxedReach;
use super::{Landmark, LandmarkId, MAX_DISJUNCTION, Ordering, OrderingKind};
use crate::heuristic::unary::{NO_OP, RelaxedOpId, RelaxedTask};
use crate::task::state::StateBuf;
use crate::task::{FactId, OpId, Task};

/// The landmarks and the greedy-necessary and natural orderings among them
/// (at most one per pair, the strongest).
pub struct Found {
    pub landmarks: Vec<Landmark>,
    pub orderings: Vec<Ordering>,
}

pub fn find(task: &Task) -> Found {
    let mut search = Backchain::new(task);
    for &g in &task.goal {
        search.simple(g);
    }
    while let Some(id) = search.queue.pop_front() {
        // Each expansion runs a relaxed exploration: quadratic in all, so
        // long tasks spend seconds here.
        crate::limits::checkpoint();
        search.expand(id);
    }
    search.natural_orderings();
    search.finish()
}

struct Backchain<'a> {
    task: &'a Task,
    rt: RelaxedTask,
    reach: RelaxedReach,
    transitions: TransitionGraphs,
    /// The initial state, with its derived facts (`task.init` lists only
    /// the others): every expansion explores from it, and a derived fact
    /// true there is true initially.
    init: StateBuf,
    landmarks: Vec<Landmark>,
    /// Disjunctive landmarks replaced by a simple landmark inside them.
    removed: Vec<bool>,
    /// Per task fact, the (live) landmark containing it, and its negated
    /// landmark.
    landmark_of: Vec<Option<LandmarkId>>,
    negated_of: Vec<Option<LandmarkId>>,
    /// Per landmark, the orderings into it that its expansion found: the
    /// sources, sorted, each with its strongest kind. Lists per landmark
    /// rather than one table of pairs: the natural orderings can be
    /// quadratic in the landmarks, and these grow by a landmark's worth at
    /// a time, between checkpoints, where a table of pairs grows by doubling
    /// in one step (a corridor of 20,000 cells went 100 MB past its memory
    /// limit that way).
    into: Vec<Vec<(LandmarkId, OrderingKind)>>,
    /// Per landmark, the targets of the natural orderings out of it that
    /// [`Backchain::natural_orderings`] found and `into` lacks, sorted.
    natural_from: Vec<Vec<LandmarkId>>,
    /// Per landmark expanded: the task facts reached without its achievers.
    reached_without: Vec<Option<BitVec<u64>>>,
    queue: VecDeque<LandmarkId>,
}

impl<'a> Backchain<'a> {
    fn new(task: &'a Task) -> Self {
        let rt = RelaxedTask::new(task);
        Backchain {
            task,
            transitions: TransitionGraphs::new(task),
            reach: RelaxedReach::new(&rt),
            rt,
            init: task.initial_state(),
            landmarks: Vec::new(),
            removed: Vec::new(),
            landmark_of: vec![None; task.num_facts()],
            negated_of: vec![None; task.num_facts()],
            into: Vec::new(),
            natural_from: Vec::new(),
            reached_without: Vec::new(),
            queue: VecDeque::new(),
        }
    }

    /// Relaxed operators that add one of `facts`: those of task operators
    /// and the rules of derived facts (not the goal operator).
    fn relaxed_achievers<'b>(&'b self, facts: &'b [FactId]) -> impl Iterator<Item = RelaxedOpId> + 'b {
        facts
            .iter()
            .flat_map(|&f| self.rt.achievers(f).iter().copied())
            .filter(|&o| o != self.rt.goal_op)
    }

    /// The task operators behind some relaxed operators (rules stand for
    /// none), sorted and without repeats.
    fn task_operators(&self, relaxed: impl Iterator<Item = RelaxedOpId>) -> Vec<OpId> {
        let mut ops: Vec<OpId> = relaxed.map(|o| self.rt.original(o)).filter(|&o| o != NO_OP).collect();
        ops.sort_unstable();
        ops.dedup();
        ops
    }

    fn holds_initially(&self, f: FactId) -> bool {
        self.init.bits()[f as usize]
    }

    /// The relaxed propositions of a landmark: its facts, or "not f" for a
    /// negated landmark of `f`.
    fn propositions(&self, lm: &Landmark) -> Vec<FactId> {
        if lm.negated {
            lm.facts.iter().filter_map(|&f| self.rt.negation(f)).collect()
        } else {
            lm.facts.clone()
        }
    }

    /// Adds a landmark for these (sorted) facts, negated or not, and queues
    /// it.
    fn add(&mut self, facts: Vec<FactId>, negated: bool) -> LandmarkId {
        let id = self.landmarks.len() as LandmarkId;
        for &f in &facts {
            if negated {
                self.negated_of[f as usize] = Some(id);
            } else {
                self.landmark_of[f as usize] = Some(id);
            }
        }
        let mut lm = Landmark {
            is_goal: !negated && facts.len() == 1 && self.task.goal.binary_search(&facts[0]).is_ok(),
            true_initially: if negated {
                facts.iter().all(|&f| !self.holds_initially(f))
            } else {
                facts.iter().any(|&f| self.holds_initially(f))
            },
            derived: facts.iter().any(|&f| self.task.is_derived(f)),
            facts,
            negated,
            achievers: Vec::new(),
            first_achievers: Vec::new(),
        };
        lm.achievers = self.task_operators(self.relaxed_achievers(&self.propositions(&lm)));
        self.landmarks.push(lm);
        self.removed.push(false);
        self.into.push(Vec::new());
        self.natural_from.push(Vec::new());
        self.reached_without.push(None);
        self.queue.push_back(id);
        id
    }

    /// The simple landmark of `fact`, added if new; it replaces a disjunctive
    /// landmark that contains the fact.
    fn simple(&mut self, fact: FactId) -> LandmarkId {
        if let Some(id) = self.landmark_of[fact as usize] {
            if !self.landmarks[id as usize].is_disjunctive() {
                return id;
            }
            self.removed[id as usize] = true;
            for &f in &self.landmarks[id as usize].facts {
                self.landmark_of[f as usize] = None;
            }
        }
        self.add(vec![fact], false)
    }

    /// The negated landmark of `fact` (that it is false), added if new.
    fn negated(&mut self, fact: FactId) -> LandmarkId {
        match self.negated_of[fact as usize] {
            Some(id) => id,
            None => self.add(vec![fact], true),
        }
    }

    /// The disjunctive landmark of these facts: `None` when it is not worth
    /// having (a fact true initially, or overlapping another landmark
    /// without being it).
    fn disjunctive(&mut self, facts: Vec<FactId>) -> Option<LandmarkId> {
        if facts.len() < 2 || facts.len() > MAX_DISJUNCTION || facts.iter().any(|&f| self.holds_initially(f)) {
            return None;
        }
        match self.landmark_of[facts[0] as usize] {
            Some(id) if self.landmarks[id as usize].facts == facts => return Some(id),
            _ => {}
        }
        if facts.iter().any(|&f| self.landmark_of[f as usize].is_some()) {
            return None;
        }
        Some(self.add(facts, false))
    }

    /// Finds the first achievers of landmark `id`, the landmarks they imply
    /// and the orderings into `id`.
    fn expand(&mut self, id: LandmarkId) {
        let lm = &self.landmarks[id as usize];
        if self.removed[id as usize] || lm.true_initially {
            return;
        }
        let mut into = Vec::new();
        self.expand_into(id, &mut into);
        // Strongest kind first within a source, then one per source.
        into.sort_unstable_by_key(|&(from, kind)| (from, std::cmp::Reverse(kind)));
        into.dedup_by_key(|&mut (from, _)| from);
        into.retain(|&(from, _)| from != id);
        into.shrink_to_fit();
        self.into[id as usize] = into;
    }

    /// [`Backchain::expand`] without the bookkeeping of the orderings found,
    /// which go to `into` (source and kind, in any order, repeats allowed).
    fn expand_into(&mut self, id: LandmarkId, into: &mut Vec<(LandmarkId, OrderingKind)>) {
        let lm = &self.landmarks[id as usize];
        let simple_fact = (!lm.negated && lm.facts.len() == 1).then(|| lm.facts[0]);
        let propositions = self.propositions(lm);
        let achievers: Vec<RelaxedOpId> = self.relaxed_achievers(&propositions).collect();
        self.reach
            .run(&self.rt, self.rt.state_facts(self.init.bits()), &achievers);
        self.reached_without[id as usize] = Some(self.reach.reached[..self.task.num_facts()].iter().collect());

        let mut first: Vec<RelaxedOpId> = achievers
            .into_iter()
            .filter(|&o| self.reach.fires(&self.rt, o))
            .collect();
        first.sort_unstable();
        first.dedup();
        self.landmarks[id as usize].first_achievers = self.task_operators(first.iter().copied());
        if let Some(fact) = simple_fact {
            for before in self.transitions.necessary_before(fact) {
                let parent = self.simple(before);
                into.push((parent, OrderingKind::Natural));
            }
        }
        if first.is_empty() {
            return; // not reachable at all: the task has no plan
        }

        // Preconditions shared by every first achiever.
        let mut shared: Vec<FactId> = self.rt.pre(first[0]).to_vec();
        for &o in &first[1..] {
            let pre = self.rt.pre(o);
            shared.retain(|f| pre.contains(f));
        }
        // Task facts become landmarks, and "not f" negated ones; the
        // artificial true fact does not.
        let task_facts = self.task.num_facts() as FactId;
        for &p in shared.iter().filter(|&&p| p >= task_facts) {
            if let Some(f) = self.rt.negated(p) {
                let parent = self.negated(f);
                into.push((parent, OrderingKind::GreedyNecessary));
            }
        }
        shared.retain(|&f| f < task_facts);
        for &p in &shared {
            let parent = self.simple(p);
            into.push((parent, OrderingKind::GreedyNecessary));
        }

        // Per predicate, the other preconditions of its facts, when every
        // first achiever has one.
        let mut by_predicate: BTreeMap<&str, (usize, Vec<FactId>)> = BTreeMap::new();
        for &o in &first {
            let mut seen: Vec<&str> = Vec::new();
            for &p in self.rt.pre(o) {
                if p >= task_facts || shared.contains(&p) {
                    continue;
                }
                let predicate = self.task.facts[p as usize].predicate.as_str();
                let entry = by_predicate.entry(predicate).or_default();
                if !seen.contains(&predicate) {
                    seen.push(predicate);
                    entry.0 += 1;
                }
                entry.1.push(p);
            }
        }
        let candidates: Vec<Vec<FactId>> = by_predicate
            .into_values()
            .filter(|(count, _)| *count == first.len())
            .map(|(_, mut facts)| {
                facts.sort_unstable();
                facts.dedup();
                facts
            })
            .collect();
        for facts in candidates {
            if let Some(parent) = self.disjunctive(facts) {
                into.push((parent, OrderingKind::GreedyNecessary));
            }
        }
    }

    /// `L →nat M` for every landmark `M` (not true initially) that the
    /// relaxation does not reach without the achievers of `L`, unless `M`'s
    /// expansion ordered `L` before it already.
    fn natural_orderings(&mut self) {
        for l in 0..self.landmarks.len() {
            crate::limits::checkpoint();
            let Some(reached) = self.reached_without[l].take() else {
                continue;
            };
            if self.removed[l] {
                continue;
            }
            let source = l as LandmarkId;
            let mut targets = Vec::new();
            for m in 0..self.landmarks.len() {
                let lm = &self.landmarks[m];
                // The exploration's record holds task facts only, so a
                // negated landmark is no target.
                if m == l || self.removed[m] || lm.true_initially || lm.negated {
                    continue;
                }
                if lm.facts.iter().all(|&f| !reached[f as usize])
                    && self.into[m].binary_search_by_key(&source, |&(from, _)| from).is_err()
                {
                    targets.push(m as LandmarkId);
                }
            }
            targets.shrink_to_fit();
            self.natural_from[l] = targets;
        }
    }

    /// The live landmarks, renumbered densely, and their orderings, sorted
    /// by (from, to).
    fn finish(self) -> Found {
        let mut new_id = vec![LandmarkId::MAX; self.landmarks.len()];
        let mut landmarks = Vec::new();
        for (i, lm) in self.landmarks.into_iter().enumerate() {
            if !self.removed[i] {
                new_id[i] = landmarks.len() as LandmarkId;
                landmarks.push(lm);
            }
        }
        let live = |id: LandmarkId| new_id[id as usize] != LandmarkId::MAX;
        let mut orderings: Vec<Ordering> = Vec::new();
        for (to, into) in self.into.iter().enumerate() {
            // Natural orderings can be quadratic in the landmarks.
            crate::limits::checkpoint();
            let to = to as LandmarkId;
            for &(from, kind) in into.iter().filter(|&&(from, _)| live(from) && live(to)) {
                orderings.push(Ordering {
                    from: new_id[from as usize],
                    to: new_id[to as usize],
                    kind,
                });
            }
        }
        for (from, targets) in self.natural_from.iter().enumerate() {
            crate::limits::checkpoint();
            let from = from as LandmarkId;
            for &to in targets.iter().filter(|&&to| live(from) && live(to)) {
                orderings.push(Ordering {
                    from: new_id[from as usize],
                    to: new_id[to as usize],
                    kind: OrderingKind::Natural,
                });
            }
        }
        // One ordering per pair: in place, without a buffer of their size.
        orderings.sort_unstable_by_key(|o| (o.from, o.to));
        Found { landmarks, orderings }
    }
}
