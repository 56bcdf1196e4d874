//! Monte-Carlo random-walk search, after Arvand (Nakhost and Müller,
//! "Monte-Carlo exploration for deterministic planning", IJCAI 2009).
//!
//! From the current state the search runs a batch of random walks and
//! evaluates the heuristic only where a walk ends: a walk costs one
//! successor generation per step but one evaluation in all, so it looks far
//! across a plateau for the price of a few evaluations, where a best-first
//! search would evaluate every state on it. When the batch is done, the
//! search jumps to the endpoint with the lowest value if that is lower than
//! the current state's. Otherwise it samples another batch with walks half
//! as long again: the short ones did not get off the plateau. After
//! [`WalkOptions::restart_after`] batches in a row without progress it
//! starts over from the initial state, since walks cannot back out of a
//! region from which the goal is far or unreachable. A jump brings the walk
//! length back to [`WalkOptions::length`].
//!
//! A walk that reaches a goal ends the search at once: the plan is the
//! operators of every jump since the last restart, then the walk's. Plans
//! are long and far from optimal; no state is kept but the current one and
//! the best endpoint of the batch, so memory stays small.
//!
//! With preferred operators ([`SearchConfig::preferred_operators`]), a walk
//! is biased as in Arvand's MHA variant: every operator counts how often it
//! was preferred in an evaluated state, and a step takes an applicable
//! operator with probability proportional to e^(count / [`TEMPERATURE`]).
//! The counts start afresh at every jump and restart: kept longer, they
//! grow so far apart that the bias takes one operator almost surely, and
//! the walks stop exploring.
//!
//! Counting: a state a walk steps from is expanded (its applicable
//! operators are computed), the state it steps to is generated, an endpoint
//! is evaluated. Walk states are not registered, so a path-dependent
//! heuristic (the landmark count) sees each endpoint alone, as if it were an
//! initial state. Every random choice comes from [`Rng`] seeded with
//! [`WalkOptions::seed`]: a run is reproducible. The search proves no plan
//! impossible unless the initial state is a dead end or has no applicable
//! operator within the bound; otherwise it stops at a plan or a limit.

use std::convert::Infallible;
use std::sync::atomic::AtomicBool;

use super::nodes::RunLog;
use super::successor::SuccessorGenerator;
use super::{Outcome, SearchConfig, Statistics};
use crate::heuristic::Heuristic;
use crate::rng::Rng;
use crate::task::state::{bits_of, words_for};
use crate::task::{OpId, Task};

/// How the walks are sampled. The defaults follow Arvand (walk length,
/// restarts) but for a smaller batch: Arvand's batches make every jump cost
/// seconds where one evaluation of h_FF takes a millisecond.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WalkOptions {
    /// Walks in a batch: evaluations per jump.
    pub walks: u64,
    /// Steps of a walk after the start, a jump or a restart.
    pub length: u64,
    /// Batches in a row without progress before a restart.
    pub restart_after: u64,
    /// The seed of the walks' random choices (not 0).
    pub seed: u64,
}

impl Default for WalkOptions {
    fn default() -> Self {
        WalkOptions {
            walks: 100,
            length: 10,
            restart_after: 7,
            seed: 1,
        }
    }
}

/// The MHA bias's temperature (Arvand's τ): the higher, the flatter.
pub const TEMPERATURE: f64 = 10.0;

/// How a batch ended.
enum Batch {
    /// The current state is now an endpoint with a lower value.
    Jumped,
    /// No endpoint improved on the current state.
    NoProgress,
    /// No walk could leave the current state.
    Stuck,
}

struct Walker<'a, 'g> {
    task: &'a Task,
    heuristic: &'a mut (dyn Heuristic + 'g),
    options: WalkOptions,
    /// Walks are biased by preferred operators (MHA).
    biased: bool,
    bound: Option<u64>,
    expansion_limit: Option<u64>,
    successors: SuccessorGenerator,
    rng: Rng,
    /// The current state: the operators that lead to it from the initial
    /// state, its g, its words and its value.
    path: Vec<OpId>,
    g: u64,
    current: Vec<u64>,
    h: u64,
    /// The lowest value since the last restart (for the log).
    best_h: u64,
    /// The walk under way: its operators, its g, its last state and a scratch state.
    walk: Vec<OpId>,
    walk_g: u64,
    walk_state: Vec<u64>,
    scratch: Vec<u64>,
    /// The batch's best endpoint so far: its walk, g, state and value.
    best_walk: Vec<OpId>,
    best_g: u64,
    best_state: Vec<u64>,
    best_endpoint_h: u64,
    /// Steps of the walks of the next batch.
    length: u64,
    /// Per operator: how often it was preferred in an evaluated state (MHA).
    preferred_count: Vec<u32>,
    applicable: Vec<OpId>,
    weights: Vec<f64>,
    jumps: u64,
    restarts: u64,
    log: RunLog<'g>,
}

/// Runs the random-walk search guided by `heuristic`, biased by its
/// preferred operators when the configuration uses them.
pub(super) fn run<'g>(
    task: &Task,
    heuristic: &mut (dyn Heuristic + 'g),
    options: WalkOptions,
    config: &SearchConfig,
    interrupt: &'g AtomicBool,
) -> (Outcome, Statistics) {
    let words = words_for(task.num_facts());
    let walker = Walker {
        task,
        heuristic,
        options,
        biased: config.preferred_operators,
        bound: config.bound,
        expansion_limit: config.limits.expansions,
        successors: SuccessorGenerator::new(task),
        rng: Rng::new(options.seed.max(1)),
        path: Vec::new(),
        g: 0,
        current: vec![0; words],
        h: 0,
        best_h: u64::MAX,
        walk: Vec::new(),
        walk_g: 0,
        walk_state: vec![0; words],
        scratch: vec![0; words],
        best_walk: Vec::new(),
        best_g: 0,
        best_state: vec![0; words],
        best_endpoint_h: u64::MAX,
        length: options.length.max(1),
        preferred_count: vec![0; task.num_operators()],
        applicable: Vec::new(),
        weights: Vec::new(),
        jumps: 0,
        restarts: 0,
        log: RunLog::new(config, interrupt),
    };
    walker.run()
}

impl Walker<'_, '_> {
    fn run(mut self) -> (Outcome, Statistics) {
        if let Some(outcome) = self.log.start() {
            return self.finish(outcome);
        }
        let line = format!(
            "random walks: {} a batch, {} steps at first, a restart after {} batches without progress, seed {}{}",
            self.options.walks,
            self.length,
            self.options.restart_after,
            self.options.seed,
            if self.biased {
                ", biased by preferred operators"
            } else {
                ""
            }
        );
        self.log.line(line);
        let Err(outcome) = self.search();
        self.finish(outcome)
    }

    /// Jumps and restarts until the run ends; the error is its outcome.
    fn search(&mut self) -> Result<Infallible, Outcome> {
        let Some(h) = self.restart()? else {
            return Err(Outcome::Unsolvable);
        };
        self.log.stats.initial_h = Some(h);
        self.log
            .line(format!("Initial heuristic value for {}: {h}", self.heuristic.name()));
        let mut failed = 0;
        loop {
            match self.batch()? {
                Batch::Jumped => {
                    failed = 0;
                    self.length = self.options.length.max(1);
                }
                Batch::NoProgress if failed + 1 < self.options.restart_after => {
                    failed += 1;
                    self.length = self.length.saturating_add(self.length.div_ceil(2));
                }
                Batch::NoProgress | Batch::Stuck => {
                    failed = 0;
                    self.restarts += 1;
                    let line = format!("Restart from the initial state [{}]", self.log.progress());
                    self.log.line(line);
                    self.restart()?;
                }
            }
        }
    }

    /// Makes the initial state the current one; its value, or `None` when
    /// it is a dead end or has no applicable operator within the bound (no
    /// plan exists then). The error is a plan when it is a goal.
    fn restart(&mut self) -> Result<Option<u64>, Outcome> {
        let init = self.task.initial_state();
        self.current.copy_from_slice(init.words());
        self.path.clear();
        self.g = 0;
        self.best_h = u64::MAX;
        self.length = self.options.length.max(1);
        self.preferred_count.iter_mut().for_each(|c| *c = 0);
        if self.task.is_goal(init.bits()) {
            return Err(Outcome::Solved(Vec::new()));
        }
        self.walk_state.copy_from_slice(init.words());
        let h = self.evaluate_endpoint();
        self.expand_walk_state(0)?;
        match h {
            Some(h) if !self.applicable.is_empty() => {
                self.h = h;
                self.best_h = h;
                Ok(Some(h))
            }
            _ => Ok(None),
        }
    }

    /// Runs a batch of walks from the current state and jumps to the best
    /// endpoint if it improves on the current state.
    fn batch(&mut self) -> Result<Batch, Outcome> {
        self.best_endpoint_h = u64::MAX;
        let mut moved = false;
        for _ in 0..self.options.walks.max(1) {
            let Some(h) = self.walk()? else { continue };
            moved = true;
            // Any endpoint, even a dead end's, shows that walks leave the state.
            let Some(h) = h else { continue };
            if h < self.best_endpoint_h {
                self.best_endpoint_h = h;
                self.best_g = self.walk_g;
                self.best_walk.clone_from(&self.walk);
                self.best_state.copy_from_slice(&self.walk_state);
            }
        }
        if !moved {
            return Ok(Batch::Stuck);
        }
        if self.best_endpoint_h >= self.h {
            return Ok(Batch::NoProgress);
        }
        self.path.extend_from_slice(&self.best_walk);
        self.current.copy_from_slice(&self.best_state);
        self.g = self.best_g;
        self.h = self.best_endpoint_h;
        self.jumps += 1;
        self.preferred_count.iter_mut().for_each(|c| *c = 0);
        if self.h < self.best_h {
            self.best_h = self.h;
            let line = format!(
                "New best heuristic value for {}: h={} [g={}, {}]",
                self.heuristic.name(),
                self.h,
                self.g,
                self.log.progress()
            );
            self.log.line(line);
        }
        Ok(Batch::Jumped)
    }

    /// One walk from the current state, in `walk` and `walk_state`: `None`
    /// when no step could be taken, otherwise the endpoint's value (`None`
    /// for a dead end). The error is a plan when the walk reaches a goal,
    /// or the limit that stopped it.
    fn walk(&mut self) -> Result<Option<Option<u64>>, Outcome> {
        self.walk.clear();
        self.walk_g = self.g;
        self.walk_state.copy_from_slice(&self.current);
        for _ in 0..self.length {
            self.expand_walk_state(self.walk_g)?;
            if self.applicable.is_empty() {
                break;
            }
            let op = self.choose();
            let operator = &self.task.operators[op as usize];
            self.successors.apply(operator, &self.walk_state, &mut self.scratch);
            std::mem::swap(&mut self.walk_state, &mut self.scratch);
            self.walk_g = self.walk_g.saturating_add(operator.cost as u64);
            self.walk.push(op);
            self.log.stats.generated += 1;
            if self.task.is_goal(bits_of(&self.walk_state, self.task.num_facts())) {
                let mut plan = std::mem::take(&mut self.path);
                plan.extend_from_slice(&self.walk);
                return Err(Outcome::Solved(plan));
            }
        }
        if self.walk.is_empty() {
            return Ok(None);
        }
        Ok(Some(self.evaluate_endpoint()))
    }

    /// Expands `walk_state` (reached with cost `g`): the operators applicable
    /// in it whose successors stay within the bound, in `applicable`. The
    /// error is the limit that stops the run first.
    fn expand_walk_state(&mut self, g: u64) -> Result<(), Outcome> {
        if self.log.check_due() {
            let memory = self.memory_estimate();
            let layer = Some(format!("best h {}", self.best_h));
            if let Some(outcome) = self.log.check(memory, layer) {
                return Err(outcome);
            }
        }
        if self.expansion_limit.is_some_and(|m| self.log.stats.expanded >= m) {
            return Err(Outcome::ExpansionLimit);
        }
        self.log.stats.expanded += 1;
        self.log.work += 1;
        self.successors
            .applicable(self.task, &self.walk_state, &mut self.applicable);
        if let Some(bound) = self.bound {
            let before = self.applicable.len();
            let operators = &self.task.operators;
            self.applicable
                .retain(|&op| g.saturating_add(operators[op as usize].cost as u64) <= bound);
            self.log.stats.pruned_by_bound += (before - self.applicable.len()) as u64;
        }
        Ok(())
    }

    /// An operator of `applicable` (not empty): uniformly at random, or
    /// biased by how often each was preferred.
    fn choose(&mut self) -> OpId {
        if !self.biased {
            return self.applicable[self.rng.below_usize(self.applicable.len())];
        }
        let counts = &self.preferred_count;
        let top = self.applicable.iter().map(|&op| counts[op as usize]).max().unwrap_or(0);
        // Relative to the largest count, so that no weight overflows.
        self.weights.clear();
        self.weights.extend(
            self.applicable
                .iter()
                .map(|&op| ((counts[op as usize] as f64 - top as f64) / TEMPERATURE).exp()),
        );
        let total: f64 = self.weights.iter().sum();
        // A uniform number in [0, 1) from the top 53 bits.
        let mut r = (self.rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64 * total;
        for (i, w) in self.weights.iter().enumerate() {
            if r < *w {
                return self.applicable[i];
            }
            r -= w;
        }
        *self.applicable.last().expect("an applicable operator")
    }

    /// Evaluates `walk_state`; `None` for a dead end. Counts the preferred
    /// operators for the bias.
    fn evaluate_endpoint(&mut self) -> Option<u64> {
        self.log.stats.evaluated += 1;
        self.log.work += 1;
        let state = bits_of(&self.walk_state, self.task.num_facts());
        let Some(h) = self.heuristic.evaluate(state) else {
            self.log.stats.dead_ends += 1;
            return None;
        };
        if self.biased {
            for &op in self.heuristic.preferred_operators() {
                self.preferred_count[op as usize] = self.preferred_count[op as usize].saturating_add(1);
            }
        }
        Some(h.min(u64::MAX - 1))
    }

    fn memory_estimate(&self) -> u64 {
        let ops = self.path.capacity() + self.walk.capacity() + self.best_walk.capacity() + self.applicable.capacity();
        let states = 4 * self.current.len() * 8;
        let counts = self.preferred_count.capacity() * 4 + self.weights.capacity() * 8;
        (self.successors.memory_bytes() + ops * 4 + states + counts) as u64
    }

    fn finish(mut self, outcome: Outcome) -> (Outcome, Statistics) {
        let line = format!("random walks: {} jump(s), {} restart(s)", self.jumps, self.restarts);
        self.log.line(line);
        let memory = self.memory_estimate();
        self.log.finish(self.task, outcome, memory, 0)
    }
}
