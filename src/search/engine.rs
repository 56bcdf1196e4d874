//! The best-first engine behind [`super::search`].
//!
//! Every generated state is interned in the [`StateRegistry`]; its search
//! node lives in the shared [`SearchSpace`]. Open lists hold ids only and
//! entries go stale when a node is closed or re-pushed with a better key: a
//! popped id whose node is not open is skipped.
//!
//! Soundness of "no plan" answers. A state is dropped only when
//! - a heuristic returns `None` (a proven dead end, whatever the heuristic),
//! - g > bound (true for any completion, since costs are non-negative),
//! - g + h > bound with h from an admissible heuristic (the `prune` heuristic
//!   if it is admissible, the guide if it is admissible).
//!
//! An inadmissible guide is never used against the bound, and a node reached
//! again with a cheaper g is re-admitted (A* and weighted A* always reopen;
//! greedy reopens when a bound is set, because a cheaper g may bring a pruned
//! subtree back under the bound). Without a bound, greedy only updates g and
//! the parent of a closed node: every reachable state is still expanded once.
//! So exhausting the open list is always a proof, and this engine never
//! answers [`Outcome::Incomplete`].

use std::sync::atomic::AtomicBool;

use super::nodes::{NO_PARENT, Node, NodeStatus, RunLog, SearchSpace};
use super::open_list::OpenList;
use super::successor::SuccessorGenerator;
use super::{Outcome, SearchConfig, Statistics, Strategy};
use crate::heuristic::Heuristic;
use crate::task::registry::StateId;
use crate::task::state::{bits_of, words_for};
use crate::task::{OpId, Task};

/// `best_h` before the first evaluation.
const UNKNOWN: u64 = u64::MAX;
/// Priority the preferred-operator queue gains on progress.
pub(super) const BOOST: i64 = 1000;

/// What the eager engine keeps per node besides g, parent and status: the
/// guide's value, in 4 bytes, since the nodes are most of what A* stores
/// per state. A value too large for them is stored as the largest one:
/// lower, so an admissible value stays admissible. The pruning heuristic's
/// values, which only bounded searches have, are kept apart
/// ([`Engine::pruning_values`]), stored the same way.
#[derive(Clone, Copy, Debug)]
struct Estimates {
    /// Guide value, or NOT_EVALUATED.
    h: u32,
}

/// Marks a stored heuristic value not computed (yet).
const NOT_EVALUATED: u32 = u32::MAX;

// A node of 24 bytes: 16 less than with both values in 8 bytes each.
const _: () = assert!(std::mem::size_of::<Node<Estimates>>() == 24);

impl Estimates {
    const NONE: Estimates = Estimates { h: NOT_EVALUATED };

    /// `v` as stored.
    fn stored(v: u64) -> u32 {
        v.min(u64::from(NOT_EVALUATED - 1)) as u32
    }
}

struct Engine<'a, 'g, 'p> {
    task: &'a Task,
    guide: &'a mut (dyn Heuristic + 'g),
    prune: Option<&'a mut (dyn Heuristic + 'p)>,
    strategy: Strategy,
    bound: Option<u64>,
    /// Per state id, the pruning heuristic's value or NOT_EVALUATED; grows
    /// with the states only when there is a pruning heuristic.
    pruning_values: Vec<u32>,
    /// Whether the pruning heuristic's values may be held against the bound.
    prune_bounds: bool,
    /// Whether the guide's values may be held against the bound.
    guide_bounds: bool,
    reopen_closed: bool,
    /// The guide wants to see every transition ([`Heuristic::is_path_dependent`]).
    path_dependent: bool,
    expansion_limit: Option<u64>,
    successors: SuccessorGenerator,
    space: SearchSpace<Estimates>,
    regular: OpenList,
    /// Successors reached by a preferred operator (greedy with preferred operators).
    preferred: Option<OpenList>,
    /// Alternation priorities of [regular, preferred]; the lower one is popped.
    priorities: [i64; 2],
    is_preferred: Vec<bool>,
    preferred_ops: Vec<OpId>,
    applicable: Vec<OpId>,
    parent_buf: Vec<u64>,
    succ_buf: Vec<u64>,
    best_h: u64,
    last_f: Option<u64>,
    log: RunLog<'a>,
}

pub(super) fn run<'g, 'p>(
    task: &Task,
    guide: &mut (dyn Heuristic + 'g),
    prune: Option<&mut (dyn Heuristic + 'p)>,
    config: &SearchConfig,
    interrupt: &AtomicBool,
) -> (Outcome, Statistics) {
    let words = words_for(task.num_facts());
    let prune_bounds = prune.as_ref().is_some_and(|p| p.is_admissible());
    let guide_bounds = guide.is_admissible();
    let path_dependent = guide.is_path_dependent();
    let greedy = config.strategy == Strategy::Greedy;
    let engine = Engine {
        task,
        guide,
        prune,
        strategy: config.strategy,
        bound: config.bound,
        pruning_values: Vec::new(),
        prune_bounds,
        guide_bounds,
        reopen_closed: !greedy || config.bound.is_some(),
        path_dependent,
        expansion_limit: config.limits.expansions,
        successors: SuccessorGenerator::new(task),
        space: SearchSpace::new(task, config),
        // Greedy: FIFO within an h value; A*: LIFO within (f, h), i.e. newest first.
        regular: OpenList::new(!greedy),
        preferred: (greedy && config.preferred_operators).then(|| OpenList::new(false)),
        priorities: [0, 0],
        is_preferred: vec![false; task.num_operators()],
        preferred_ops: Vec::new(),
        applicable: Vec::new(),
        parent_buf: vec![0; words],
        succ_buf: vec![0; words],
        best_h: UNKNOWN,
        last_f: None,
        log: RunLog::new(config, interrupt),
    };
    engine.run()
}

/// W·h of weighted A* (the eager engine's and the lazy one's), an integer
/// for the bucket queues: exact for whole weights, rounded down otherwise.
/// A weight that is not a finite number ≥ 0 counts as 1.
pub(super) fn weighted(w: f64, h: u64) -> u64 {
    let w = if w.is_finite() && w >= 0.0 { w } else { 1.0 };
    if w.fract() == 0.0 {
        (w as u64).saturating_mul(h)
    } else {
        (w * h as f64) as u64
    }
}

impl Engine<'_, '_, '_> {
    fn run(mut self) -> (Outcome, Statistics) {
        if let Some(outcome) = self.log.start() {
            return self.finish(outcome);
        }
        let init = self.task.initial_state();
        let (id, _) = self.space.registry.insert(init.words());
        self.space.nodes.push(Node {
            g: 0,
            parent: NO_PARENT,
            op: 0,
            status: NodeStatus::Open,
            data: Estimates::NONE,
        });
        if self.path_dependent {
            self.guide
                .notify_initial(id, bits_of(init.words(), self.task.num_facts()));
        }
        let open = self.admit(id, init.words());
        let h0 = self.space.node(id).data.h;
        self.log.stats.initial_h = (h0 != NOT_EVALUATED).then_some(u64::from(h0));
        let line = match self.log.stats.initial_h {
            Some(h) => format!("Initial heuristic value for {}: {h}", self.guide.name()),
            None => "Initial state is a dead end or beyond the bound".to_string(),
        };
        self.log.line(line);
        if open {
            self.push(id, false);
        }
        loop {
            if self.log.check_due() {
                let estimate = self.memory_estimate();
                let layer = match (self.strategy, self.last_f) {
                    (Strategy::Greedy, _) => (self.best_h != UNKNOWN).then(|| format!("best h {}", self.best_h)),
                    (_, f) => f.map(|f| format!("f = {f}")),
                };
                if let Some(outcome) = self.log.check(estimate, layer) {
                    return self.finish(outcome);
                }
            }
            let Some((key, id)) = self.pop() else {
                return self.finish(Outcome::Unsolvable);
            };
            let node = self.space.node_mut(id);
            if node.status != NodeStatus::Open {
                continue;
            }
            node.status = NodeStatus::Closed;
            // A new f-layer starts before the goal test, so that a goal
            // popped first in its layer still counts as that layer's.
            if self.strategy != Strategy::Greedy && self.last_f.is_none_or(|f| key > f) {
                self.last_f = Some(key);
                self.log.stats.expanded_until_last_layer = Some(self.log.stats.expanded);
                let line = format!("f = {key} [{}]", self.log.progress());
                self.log.line(line);
            }
            self.space.registry.load(id, &mut self.parent_buf);
            if self.task.is_goal(bits_of(&self.parent_buf, self.task.num_facts())) {
                let plan = self.space.plan(id);
                return self.finish(Outcome::Solved(plan));
            }
            if self.expansion_limit.is_some_and(|m| self.log.stats.expanded >= m) {
                return self.finish(Outcome::ExpansionLimit);
            }
            self.log.stats.expanded += 1;
            self.log.work += 1;
            self.expand(id);
        }
    }

    /// Evaluates what the node still needs and decides whether it is open,
    /// a dead end or over the bound (with its current g). `words`: the
    /// state's fact words.
    fn admit(&mut self, id: StateId, words: &[u64]) -> bool {
        let i = id as usize;
        let g = self.space.nodes[i].g;
        let bound = self.bound;
        let over = move |h: u64| bound.is_some_and(|b| g.saturating_add(h) > b);
        if over(0) {
            return self.reject(i, NodeStatus::OverBound);
        }
        let state = bits_of(words, self.task.num_facts());
        // A state counts as evaluated once, whichever heuristic looks at it first.
        let mut fresh = false;
        if let Some(prune) = self.prune.as_mut() {
            if self.pruning_values.len() <= i {
                self.pruning_values.resize(i + 1, NOT_EVALUATED);
            }
            if self.pruning_values[i] == NOT_EVALUATED {
                fresh = true;
                self.log.stats.evaluated += 1;
                self.log.work += 1;
                match prune.evaluate(state) {
                    Some(v) => self.pruning_values[i] = Estimates::stored(v),
                    None => return self.reject(i, NodeStatus::DeadEnd),
                }
            }
            if self.prune_bounds && over(u64::from(self.pruning_values[i])) {
                return self.reject(i, NodeStatus::OverBound);
            }
        }
        if self.space.nodes[i].data.h == NOT_EVALUATED {
            if !fresh {
                self.log.stats.evaluated += 1;
            }
            self.log.work += 1;
            match self.guide.evaluate_node(id, state) {
                Some(v) => {
                    let h = Estimates::stored(v);
                    self.space.nodes[i].data.h = h;
                    self.note_progress(u64::from(h), g);
                }
                None => return self.reject(i, NodeStatus::DeadEnd),
            }
        }
        if self.guide_bounds && over(u64::from(self.space.nodes[i].data.h)) {
            return self.reject(i, NodeStatus::OverBound);
        }
        self.space.nodes[i].status = NodeStatus::Open;
        true
    }

    fn reject(&mut self, i: usize, status: NodeStatus) -> bool {
        match status {
            NodeStatus::DeadEnd => self.log.stats.dead_ends += 1,
            _ => self.log.stats.pruned_by_bound += 1,
        }
        self.space.nodes[i].status = status;
        false
    }

    /// Greedy progress: log a new best h and boost the preferred queue.
    fn note_progress(&mut self, h: u64, g: u64) {
        if h >= self.best_h {
            return;
        }
        let first = self.best_h == UNKNOWN;
        self.best_h = h;
        if first || self.strategy != Strategy::Greedy {
            return;
        }
        if self.preferred.is_some() {
            self.priorities[1] -= BOOST;
        }
        let line = format!("New best heuristic value: h={h} [g={g}, {}]", self.log.progress());
        self.log.line(line);
    }

    fn key(&self, node: &Node<Estimates>) -> (u64, u64) {
        let h = u64::from(node.data.h);
        match self.strategy {
            Strategy::Astar => (node.g.saturating_add(h), h),
            Strategy::WeightedAstar(w) => (node.g.saturating_add(weighted(w, h)), h),
            // The lazy and symbolic strategies run on their own engines.
            Strategy::Greedy | Strategy::Lazy(_) | Strategy::Symbolic | Strategy::Walks(_) => (h, 0),
        }
    }

    fn push(&mut self, id: StateId, preferred: bool) {
        let (p, s) = self.key(self.space.node(id));
        self.regular.push(p, s, id);
        if preferred && let Some(list) = self.preferred.as_mut() {
            list.push(p, s, id);
        }
    }

    /// Next entry: from the regular list, or alternating with the preferred
    /// list (the one with the lower priority; each pop costs one point).
    fn pop(&mut self) -> Option<(u64, StateId)> {
        let Some(preferred) = self.preferred.as_mut() else {
            return self.regular.pop().map(|(p, _, id)| (p, id));
        };
        let use_preferred =
            !preferred.is_empty() && (self.regular.is_empty() || self.priorities[1] < self.priorities[0]);
        let (list, slot) = if use_preferred {
            (preferred, 1)
        } else {
            (&mut self.regular, 0)
        };
        let (p, _, id) = list.pop()?;
        self.priorities[slot] += 1;
        Some((p, id))
    }

    fn expand(&mut self, id: StateId) {
        // `parent_buf` holds the state (loaded for the goal test).
        let g = self.space.node(id).g;
        if self.preferred.is_some() {
            // Re-evaluate the parent: its preferred operators were overwritten
            // by the evaluations of other states since.
            let _ = self
                .guide
                .evaluate_node(id, bits_of(&self.parent_buf, self.task.num_facts()));
            self.log.work += 1;
            self.preferred_ops.clear();
            self.preferred_ops.extend_from_slice(self.guide.preferred_operators());
            for &op in &self.preferred_ops {
                if let Some(flag) = self.is_preferred.get_mut(op as usize) {
                    *flag = true;
                }
            }
        }
        let mut applicable = std::mem::take(&mut self.applicable);
        self.successors.applicable(self.task, &self.parent_buf, &mut applicable);
        // First all successors are prepared (hashed, their table slots
        // touched), so that the lookups below find them in cache; there they
        // are recomputed, which is cheaper than copying them.
        self.space.registry.clear_prepared();
        for &op_id in &applicable {
            self.successors.apply(
                &self.task.operators[op_id as usize],
                &self.parent_buf,
                &mut self.succ_buf,
            );
            self.space.registry.prepare(&self.succ_buf);
        }
        let mut succ = std::mem::take(&mut self.succ_buf);
        for (k, &op_id) in applicable.iter().enumerate() {
            self.log.stats.generated += 1;
            let op = &self.task.operators[op_id as usize];
            let succ_g = g.saturating_add(op.cost as u64);
            if self.bound.is_some_and(|b| succ_g > b) {
                // Not even interned: no completion can be within the bound.
                self.log.stats.pruned_by_bound += 1;
                continue;
            }
            self.successors.apply(op, &self.parent_buf, &mut succ);
            let preferred = self.is_preferred[op_id as usize];
            let (sid, new) = self.space.registry.insert_prepared(k, &succ);
            if self.path_dependent {
                let n = self.task.num_facts();
                let (parent_state, child_state) = (bits_of(&self.parent_buf, n), bits_of(&succ, n));
                self.guide.notify_transition(id, parent_state, op_id, sid, child_state);
            }
            if new {
                self.space.nodes.push(Node {
                    g: succ_g,
                    parent: id,
                    op: op_id,
                    status: NodeStatus::Open,
                    data: Estimates::NONE,
                });
                if self.admit(sid, &succ) {
                    self.push(sid, preferred);
                }
                continue;
            }
            let node = self.space.node_mut(sid);
            if succ_g >= node.g || node.status == NodeStatus::DeadEnd {
                continue;
            }
            node.g = succ_g;
            node.parent = id;
            node.op = op_id;
            match node.status {
                NodeStatus::Open => {
                    if self.strategy != Strategy::Greedy {
                        // The key depends on g: push again, the old entry goes stale.
                        self.push(sid, preferred);
                    }
                }
                NodeStatus::Closed => {
                    if self.reopen_closed {
                        self.log.stats.reopened += 1;
                        if self.admit(sid, &succ) {
                            self.push(sid, preferred);
                        }
                    }
                }
                NodeStatus::OverBound => {
                    if self.admit(sid, &succ) {
                        self.push(sid, preferred);
                    }
                }
                NodeStatus::DeadEnd => {}
            }
        }
        self.applicable = applicable;
        self.succ_buf = succ;
        for &op in &self.preferred_ops {
            if let Some(flag) = self.is_preferred.get_mut(op as usize) {
                *flag = false;
            }
        }
        self.preferred_ops.clear();
    }

    fn memory_estimate(&self) -> u64 {
        (self.space.memory_bytes()
            + self.regular.memory_bytes()
            + self.preferred.as_ref().map_or(0, |l| l.memory_bytes())
            + self.successors.memory_bytes()) as u64
    }

    fn finish(self, outcome: Outcome) -> (Outcome, Statistics) {
        let memory = self.memory_estimate();
        self.log.finish(self.task, outcome, memory, self.space.registry.len())
    }
}
