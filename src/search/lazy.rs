//! Lazy best-first search (deferred evaluation): greedy, as in the first
//! iteration of LAMA, or weighted A*, as in its later ones.
//!
//! An open-list entry is a transition not taken yet: (parent, operator),
//! keyed by the parent's heuristic values. The successor is made,
//! registered and evaluated only when its entry is popped, so a state costs
//! one evaluation when it is expanded, not one per generation. A state
//! reached before is skipped; below a cost bound it is reopened when reached
//! with a cheaper g, because that g may bring pruned successors back. So,
//! as in the eager engine, an exhausted open list is a proof.
//!
//! Open lists: one per heuristic, keyed by its value (greedy) or by
//! g + W·h (weighted A*, [`LazyOptions::weight`]) of the parent, and one
//! per heuristic with preferred operators that gets only the successors
//! reached by a preferred operator (of any heuristic). They take turns: the list with
//! the lowest priority pops and pays one point; whenever some heuristic
//! reaches a new best value, the preferred lists gain [`BOOST`] points.
//! Within a key, entries leave in the order they came (FIFO), and the
//! successors of a state are pushed in the configured [`SuccessorOrder`].
//! Weighted A* breaks no ties on h either: preferring the lower h among
//! equal g + W·h makes it greedier, and its plans dearer.
//!
//! In weighted A*, all the successors of a state share its key, as in Fast
//! Downward's lazy search: the evaluation is deferred, so an entry stands
//! for its parent. Keying by the successor's g instead pushes an expensive
//! operator behind the cheap ones of every other state, and under a tight
//! bound (the anytime phases) that made the search far weaker: see
//! `bench/results/2026-12-06-issue15-wastar.md`.
//!
//! Against a bound, weighted A* prunes as greedy search does, on g alone: no
//! transition to a successor whose g exceeds the bound is pushed or taken.
//! The heuristics only order the lists, so whatever their admissibility an
//! exhausted open list proves that no plan within the bound exists: every
//! state with a path within the bound is expanded with a g no greater than
//! that path's, by induction along the path (a state is skipped only when
//! it was expanded before with a g at most as large, or is a dead end,
//! which every heuristic here proves soundly).
//!
//! Novelty ([`super::novelty`]: does a successor make a fact or a pair of
//! facts true for the first time in its partition?) is used in one of two
//! ways ([`NoveltyUse`]): as the first key of every list, the heuristic
//! breaking ties (the `bfws` search), or in one more list, keyed by
//! (novelty, value of the first heuristic), that takes its turn with the
//! others (the `lazy-width` search).
//!
//! With [`Exploration::Types`], one more list takes its turn: a type-based
//! one ([`super::type_based`]), which samples its entries across buckets of
//! (first heuristic's value, g) instead of taking the lowest value, so that
//! a search stuck on a plateau keeps expanding elsewhere too.

use std::sync::atomic::AtomicBool;

use super::engine::{BOOST, weighted};
use super::nodes::{NO_PARENT, Node, NodeStatus, RunLog, SearchSpace};
use super::novelty::{self, Novelty, Partition};
use super::open_list::OpenList;
use super::successor::SuccessorGenerator;
use super::type_based::TypeBasedList;
use super::{Outcome, SearchConfig, Statistics};
use crate::heuristic::Heuristic;
use crate::rng::Rng;
use crate::task::registry::StateId;
use crate::task::state::{bits_of, words_for};
use crate::task::{OpId, Task};

/// The order in which the successors of an expanded state enter the open
/// lists (and so, within a key, leave them).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SuccessorOrder {
    /// Successors reached by preferred operators first, then the others,
    /// each in operator order.
    #[default]
    PreferredFirst,
    /// Operator order.
    Natural,
    /// A pseudo-random order, the same in every run.
    Shuffled,
}

impl SuccessorOrder {
    pub const NAMES: [&'static str; 3] = ["preferred-first", "natural", "shuffled"];

    pub fn name(self) -> &'static str {
        match self {
            SuccessorOrder::PreferredFirst => Self::NAMES[0],
            SuccessorOrder::Natural => Self::NAMES[1],
            SuccessorOrder::Shuffled => Self::NAMES[2],
        }
    }

    pub fn parse(name: &str) -> Option<Self> {
        [
            SuccessorOrder::PreferredFirst,
            SuccessorOrder::Natural,
            SuccessorOrder::Shuffled,
        ]
        .into_iter()
        .find(|o| o.name() == name)
    }
}

/// How the lazy search uses width-based novelty.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum NoveltyUse {
    #[default]
    Off,
    /// Novelty first in every key (BFWS-style), the heuristic second.
    FirstKey,
    /// One more open list keyed by (novelty, first heuristic).
    OwnList,
}

/// Whether the lazy search explores off its greedy lists.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Exploration {
    #[default]
    None,
    /// One more list, type-based ([`super::type_based`]): its entries are
    /// bucketed by (value of the first heuristic, successor's g), and it
    /// pops a random entry of a random bucket.
    Types,
}

impl Exploration {
    pub const NAMES: [&'static str; 2] = ["none", "types"];

    pub fn name(self) -> &'static str {
        match self {
            Exploration::None => Self::NAMES[0],
            Exploration::Types => Self::NAMES[1],
        }
    }

    pub fn parse(name: &str) -> Option<Self> {
        [Exploration::None, Exploration::Types]
            .into_iter()
            .find(|e| e.name() == name)
    }
}

/// What distinguishes the lazy searches.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct LazyOptions {
    pub novelty: NoveltyUse,
    pub order: SuccessorOrder,
    pub exploration: Exploration,
    /// `Some(W)`: weighted A*, the lists keyed by g + W·h instead of h.
    pub weight: Option<f64>,
}

/// A heuristic that guides the lazy search, whether it has an open list of
/// the successors reached by preferred operators, and whether its own
/// preferred operators count (are among those); with
/// [`SearchConfig::preferred_operators`] off, no guide has such a list.
pub struct Guide<'a> {
    pub heuristic: &'a mut dyn Heuristic,
    pub preferred_operators: bool,
    /// Its preferred operators are collected (Fast Downward's `pref=true`);
    /// off, its preferred list is filled by the other guides' only.
    pub offers_preferred: bool,
}

impl<'a> Guide<'a> {
    /// A guide whose preferred operators, if `preferred`, get a list and count.
    pub fn new(heuristic: &'a mut dyn Heuristic, preferred: bool) -> Self {
        Guide {
            heuristic,
            preferred_operators: preferred,
            offers_preferred: preferred,
        }
    }
}

/// An open-list entry: the successor of this state by this operator.
type Entry = (StateId, OpId);

/// Where a list keeps its entries: ordered by key, or in type buckets.
enum Store {
    Ordered(OpenList<Entry>),
    Types(TypeBasedList<Entry>),
}

impl Store {
    fn is_empty(&self) -> bool {
        match self {
            Store::Ordered(open) => open.is_empty(),
            Store::Types(open) => open.is_empty(),
        }
    }

    fn memory_bytes(&self) -> usize {
        match self {
            Store::Ordered(open) => open.memory_bytes(),
            Store::Types(open) => open.memory_bytes(),
        }
    }
}

struct List {
    open: Store,
    /// The guide whose value is the key (the second key after novelty).
    guide: usize,
    /// Keyed by novelty first.
    novelty_first: bool,
    /// Holds only successors reached by preferred operators.
    preferred_only: bool,
    priority: i64,
}

struct Lazy<'a, 'g, 'h> {
    task: &'a Task,
    guides: &'a mut [Guide<'h>],
    /// Indices of the guides that want every transition.
    path_dependent: Vec<usize>,
    options: LazyOptions,
    /// Preferred operators are used at all (they get lists, and order
    /// the successors).
    use_preferred: bool,
    bound: Option<u64>,
    expansion_limit: Option<u64>,
    successors: SuccessorGenerator,
    space: SearchSpace<()>,
    lists: Vec<List>,
    novelty: Option<Novelty>,
    /// Per guide: its value in the state being expanded, its best value so far.
    h: Vec<u64>,
    best_h: Vec<u64>,
    is_preferred: Vec<bool>,
    preferred_ops: Vec<OpId>,
    applicable: Vec<OpId>,
    /// The state being expanded, and a scratch state.
    state_buf: Vec<u64>,
    scratch: Vec<u64>,
    rng: Rng,
    log: RunLog<'g>,
}

/// Runs lazy best-first search (greedy, or weighted A* with
/// [`LazyOptions::weight`]) with one open list per guide (and one more per
/// guide with preferred operators). `guides` must not be empty.
pub(super) fn run(
    task: &Task,
    guides: &mut [Guide<'_>],
    options: LazyOptions,
    config: &SearchConfig,
    interrupt: &AtomicBool,
) -> (Outcome, Statistics) {
    let words = words_for(task.num_facts());
    let path_dependent = (0..guides.len())
        .filter(|&i| guides[i].heuristic.is_path_dependent())
        .collect();
    let mut lists = Vec::new();
    for (i, guide) in guides.iter().enumerate() {
        for preferred_only in [false, true] {
            if !preferred_only || (guide.preferred_operators && config.preferred_operators) {
                lists.push(List {
                    open: Store::Ordered(OpenList::new(false)),
                    guide: i,
                    novelty_first: options.novelty == NoveltyUse::FirstKey,
                    preferred_only,
                    priority: 0,
                });
            }
        }
    }
    if options.novelty == NoveltyUse::OwnList {
        lists.push(List {
            open: Store::Ordered(OpenList::new(false)),
            guide: 0,
            novelty_first: true,
            preferred_only: false,
            priority: 0,
        });
    }
    if options.exploration == Exploration::Types {
        lists.push(List {
            open: Store::Types(TypeBasedList::new()),
            guide: 0,
            novelty_first: false,
            preferred_only: false,
            priority: 0,
        });
    }
    let novelty = (options.novelty != NoveltyUse::Off).then(|| Novelty::new(task, novelty::PAIR_TABLE_CAP));
    let n = guides.len();
    let engine = Lazy {
        task,
        guides,
        path_dependent,
        options,
        use_preferred: config.preferred_operators,
        bound: config.bound,
        expansion_limit: config.limits.expansions,
        successors: SuccessorGenerator::new(task),
        space: SearchSpace::new(task, config),
        lists,
        novelty,
        h: vec![0; n],
        best_h: vec![u64::MAX; n],
        is_preferred: vec![false; task.num_operators()],
        preferred_ops: Vec::new(),
        applicable: Vec::new(),
        state_buf: vec![0; words],
        scratch: vec![0; words],
        rng: Rng::new(0x2545_f491_4f6c_dd1d),
        log: RunLog::new(config, interrupt),
    };
    engine.run()
}

impl Lazy<'_, '_, '_> {
    fn run(mut self) -> (Outcome, Statistics) {
        if let Some(outcome) = self.log.start() {
            return self.finish(outcome);
        }
        if let Some(novelty) = &self.novelty {
            let line = format!(
                "novelty: facts and pairs partitioned by (unsatisfied goals, plan facts true); {} plan facts",
                novelty.plan_facts().len()
            );
            self.log.line(line);
        }
        let init = self.task.initial_state();
        let (id, _) = self.space.registry.insert(init.words());
        self.space.nodes.push(Node {
            g: 0,
            parent: NO_PARENT,
            op: 0,
            status: NodeStatus::Open,
            data: (),
        });
        self.state_buf.copy_from_slice(init.words());
        for &i in &self.path_dependent {
            let state = bits_of(init.words(), self.task.num_facts());
            self.guides[i].heuristic.notify_initial(id, state);
        }
        if let Some(novelty) = self.novelty.as_mut() {
            novelty.evaluate(init.bits());
        }
        let alive = self.evaluate(id);
        self.log.stats.initial_h = alive.then_some(self.h[0]);
        for i in 0..self.guides.len() {
            let line = match alive {
                true => format!(
                    "Initial heuristic value for {}: {}",
                    self.guides[i].heuristic.name(),
                    self.h[i]
                ),
                false => format!("Initial state is a dead end for {}", self.guides[i].heuristic.name()),
            };
            self.log.line(line);
        }
        if let Some(outcome) = self.visit(id, alive) {
            return self.finish(outcome);
        }
        loop {
            if self.log.check_due() {
                let memory = self.memory_estimate();
                let layer = Some(format!("best h {}", self.best_h[0]));
                if let Some(outcome) = self.log.check(memory, layer) {
                    return self.finish(outcome);
                }
            }
            let Some((parent, op)) = self.pop() else {
                return self.finish(Outcome::Unsolvable);
            };
            let Some(id) = self.take(parent, op) else {
                continue;
            };
            let alive = self.evaluate(id);
            if let Some(outcome) = self.visit(id, alive) {
                return self.finish(outcome);
            }
        }
    }

    /// Makes the successor of `parent` by `op` the state to expand, unless
    /// it was reached before (and is not reopened) or is over the bound.
    fn take(&mut self, parent: StateId, op: OpId) -> Option<StateId> {
        let g = self.space.node(parent).g;
        let operator = &self.task.operators[op as usize];
        let g = g.saturating_add(operator.cost as u64);
        if self.bound.is_some_and(|b| g > b) {
            self.log.stats.pruned_by_bound += 1;
            return None;
        }
        self.space.registry.load(parent, &mut self.scratch);
        self.successors.apply(operator, &self.scratch, &mut self.state_buf);
        let (id, new) = self.space.registry.insert(&self.state_buf);
        let n = self.task.num_facts();
        for &i in &self.path_dependent {
            let (parent_state, state) = (bits_of(&self.scratch, n), bits_of(&self.state_buf, n));
            self.guides[i]
                .heuristic
                .notify_transition(parent, parent_state, op, id, state);
        }
        if new {
            self.space.nodes.push(Node {
                g,
                parent,
                op,
                status: NodeStatus::Open,
                data: (),
            });
            return Some(id);
        }
        // Weighted A* reopens for the sake of plan quality, any search
        // under a bound for the proof (see the module comment).
        let reopen = self.bound.is_some() || self.options.weight.is_some();
        let node = self.space.node_mut(id);
        if !reopen || g >= node.g || node.status == NodeStatus::DeadEnd {
            return None;
        }
        *node = Node {
            g,
            parent,
            op,
            status: NodeStatus::Open,
            data: (),
        };
        self.log.stats.reopened += 1;
        Some(id)
    }

    /// Evaluates the state in `state_buf` with every guide; false for a dead
    /// end. Preferred operators are collected and progress is rewarded.
    fn evaluate(&mut self, id: StateId) -> bool {
        self.log.stats.evaluated += 1;
        let state = bits_of(&self.state_buf, self.task.num_facts());
        let mut progress = false;
        self.preferred_ops.clear();
        for (i, guide) in self.guides.iter_mut().enumerate() {
            self.log.work += 1;
            let Some(h) = guide.heuristic.evaluate_node(id, state) else {
                self.preferred_ops.clear();
                return false;
            };
            self.h[i] = h.min(u64::MAX - 1);
            if guide.preferred_operators && guide.offers_preferred && self.use_preferred {
                self.preferred_ops
                    .extend_from_slice(guide.heuristic.preferred_operators());
            }
            if self.h[i] < self.best_h[i] {
                // The first value (of the initial state) is no progress.
                let improved = self.best_h[i] != u64::MAX;
                progress |= improved;
                self.best_h[i] = self.h[i];
                if improved {
                    let g = self.space.node(id).g;
                    let line = format!(
                        "New best heuristic value for {}: h={} [g={g}, {}]",
                        guide.heuristic.name(),
                        self.h[i],
                        self.log.progress()
                    );
                    self.log.line(line);
                }
            }
        }
        if progress {
            for list in self.lists.iter_mut().filter(|l| l.preferred_only) {
                list.priority -= BOOST;
            }
        }
        true
    }

    /// Closes the evaluated state `id` (in `state_buf`) and expands it,
    /// unless it is a goal (the outcome) or a dead end.
    fn visit(&mut self, id: StateId, alive: bool) -> Option<Outcome> {
        if !alive {
            self.log.stats.dead_ends += 1;
            self.space.node_mut(id).status = NodeStatus::DeadEnd;
            return None;
        }
        self.space.node_mut(id).status = NodeStatus::Closed;
        if self.task.is_goal(bits_of(&self.state_buf, self.task.num_facts())) {
            return Some(Outcome::Solved(self.space.plan(id)));
        }
        if self.expansion_limit.is_some_and(|m| self.log.stats.expanded >= m) {
            return Some(Outcome::ExpansionLimit);
        }
        self.log.stats.expanded += 1;
        self.log.work += 1;
        self.expand(id);
        None
    }

    fn expand(&mut self, id: StateId) {
        let mut applicable = std::mem::take(&mut self.applicable);
        self.successors.applicable(self.task, &self.state_buf, &mut applicable);
        for &op in &self.preferred_ops {
            self.is_preferred[op as usize] = true;
        }
        match self.options.order {
            SuccessorOrder::PreferredFirst => applicable.sort_by_key(|&op| !self.is_preferred[op as usize]),
            SuccessorOrder::Natural => {}
            SuccessorOrder::Shuffled => self.rng.shuffle(&mut applicable),
        }
        let n = self.task.num_facts();
        let parent_partition: Option<Partition> = self
            .novelty
            .as_ref()
            .map(|nov| nov.partition(bits_of(&self.state_buf, n)));
        let g = self.space.node(id).g;
        for &op in &applicable {
            let operator = &self.task.operators[op as usize];
            let child_g = g.saturating_add(operator.cost as u64);
            if self.bound.is_some_and(|b| child_g > b) {
                self.log.stats.pruned_by_bound += 1;
                continue;
            }
            self.log.stats.generated += 1;
            let novelty = match (self.novelty.as_mut(), parent_partition) {
                (Some(nov), Some(partition)) => {
                    self.successors.apply(operator, &self.state_buf, &mut self.scratch);
                    nov.evaluate_successor(bits_of(&self.scratch, n), partition, &operator.add) as u64
                }
                _ => 0,
            };
            let preferred = self.is_preferred[op as usize];
            for list in &mut self.lists {
                if preferred || !list.preferred_only {
                    let h = self.h[list.guide];
                    let value = match self.options.weight {
                        None => h,
                        Some(w) => g.saturating_add(weighted(w, h)),
                    };
                    match &mut list.open {
                        Store::Ordered(open) => {
                            let (primary, secondary) = if list.novelty_first {
                                (novelty, value)
                            } else {
                                (value, 0)
                            };
                            open.push(primary, secondary, (id, op));
                        }
                        Store::Types(open) => open.push((h, child_g), (id, op)),
                    }
                }
            }
        }
        for &op in &self.preferred_ops {
            self.is_preferred[op as usize] = false;
        }
        self.applicable = applicable;
    }

    /// The next entry from the non-empty list with the lowest priority
    /// (the first such list on ties), which pays one point.
    fn pop(&mut self) -> Option<Entry> {
        let list = self
            .lists
            .iter_mut()
            .filter(|l| !l.open.is_empty())
            .min_by_key(|l| l.priority)?;
        list.priority += 1;
        match &mut list.open {
            Store::Ordered(open) => open.pop().map(|(_, _, entry)| entry),
            Store::Types(open) => open.pop(&mut self.rng),
        }
    }

    fn memory_estimate(&self) -> u64 {
        let lists: usize = self.lists.iter().map(|l| l.open.memory_bytes()).sum();
        let novelty = self.novelty.as_ref().map_or(0, |n| n.memory_bytes());
        (self.space.memory_bytes() + lists + novelty + self.successors.memory_bytes()) as u64
    }

    fn finish(mut self, outcome: Outcome) -> (Outcome, Statistics) {
        if let Some(novelty) = &self.novelty {
            let (all, with_pairs) = novelty.partitions();
            let line = format!("novelty: {all} partition(s), {with_pairs} with pair tables");
            self.log.line(line);
        }
        let memory = self.memory_estimate();
        self.log.finish(self.task, outcome, memory, self.space.registry.len())
    }
}
