//! What the eager and the lazy engine share: the search space (every
//! registered state with its search node), plan extraction, and a run's
//! statistics, limit checks and log lines.
//!
//! A state's node lives at the state's index in the [`StateRegistry`]; the
//! engines differ only in what else they keep per node (`X`: the eager engine
//! keeps heuristic values, the lazy one nothing).

use std::io::IsTerminal;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use super::limits::Monitor;
use super::progress::ProgressLine;
use super::{Outcome, SearchConfig, Statistics};
use crate::task::registry::{StateId, StateRegistry};
use crate::task::state::words_for;
use crate::task::{OpId, Task};

/// The parent of the initial state.
pub(super) const NO_PARENT: StateId = StateId::MAX;
/// Limits are checked after at most this many units of work (expansions
/// plus evaluations)...
const MAX_CHECK_PERIOD: u64 = 256;
/// ...and about this often: where a unit of work is slow (a heuristic on a
/// task of 100,000 facts takes milliseconds), the period shrinks so that a
/// stop is honoured well within `limits::STOP_GRACE`. A run starts with a
/// period of one unit, which doubles from check to check while work is fast,
/// so that its first check does not wait for 256 slow units either.
const CHECK_INTERVAL: Duration = Duration::from_millis(10);

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum NodeStatus {
    Open,
    Closed,
    DeadEnd,
    /// Pruned by the bound with its current g; may come back with a cheaper g.
    OverBound,
}

#[derive(Clone, Copy, Debug)]
pub(super) struct Node<X> {
    pub g: u64,
    pub parent: StateId,
    /// The operator from the parent.
    pub op: OpId,
    pub status: NodeStatus,
    /// What the engine keeps besides.
    pub data: X,
}

/// Every registered state and its node.
pub(super) struct SearchSpace<X> {
    pub registry: StateRegistry,
    pub nodes: Vec<Node<X>>,
}

impl<X> SearchSpace<X> {
    /// An empty space; states are stored packed if the configuration asks.
    pub fn new(task: &Task, config: &SearchConfig) -> Self {
        let registry = if config.pack_states {
            StateRegistry::packed(task)
        } else {
            StateRegistry::new(task.num_facts())
        };
        if config.verbose && config.pack_states {
            let stored = registry.words_per_state();
            let words = words_for(task.num_facts());
            eprintln!("States stored in {stored} word(s) each ({words} unpacked)");
        }
        SearchSpace {
            registry,
            nodes: Vec::new(),
        }
    }

    pub fn node(&self, id: StateId) -> &Node<X> {
        &self.nodes[id as usize]
    }

    pub fn node_mut(&mut self, id: StateId) -> &mut Node<X> {
        &mut self.nodes[id as usize]
    }

    /// The operators on the path from the initial state to `goal`.
    pub fn plan(&self, goal: StateId) -> Vec<OpId> {
        let mut plan = Vec::new();
        let mut id = goal;
        while self.node(id).parent != NO_PARENT {
            let node = self.node(id);
            plan.push(node.op);
            id = node.parent;
        }
        plan.reverse();
        plan
    }

    /// Bytes held by the registry and the nodes.
    pub fn memory_bytes(&self) -> usize {
        self.registry.memory_bytes() + self.nodes.capacity() * std::mem::size_of::<Node<X>>()
    }
}

/// A run's statistics, its limit checks and its log.
pub(super) struct RunLog<'a> {
    pub stats: Statistics,
    /// Units of work done (expansions plus evaluations): the clock of the
    /// limit checks.
    pub work: u64,
    next_check: u64,
    /// Units of work between two checks, and when the last one was.
    check_period: u64,
    last_check: Instant,
    pub monitor: Monitor<'a>,
    progress_line: ProgressLine,
    pub verbose: bool,
}

impl<'a> RunLog<'a> {
    pub fn new(config: &SearchConfig, interrupt: &'a AtomicBool) -> Self {
        RunLog {
            stats: Statistics::default(),
            work: 0,
            next_check: 1,
            check_period: 1,
            last_check: Instant::now(),
            monitor: Monitor::new(config.limits, interrupt),
            progress_line: ProgressLine::new(config.verbose && std::io::stderr().is_terminal()),
            verbose: config.verbose,
        }
    }

    /// Checks the limits before any work; returns the outcome to stop with,
    /// if one is hit already.
    pub fn start(&mut self) -> Option<Outcome> {
        self.monitor.check(0)
    }

    /// True when the limits are due to be checked (every few hundred units
    /// of work, or fewer where those take longer than `CHECK_INTERVAL`).
    pub fn check_due(&self) -> bool {
        self.work >= self.next_check
    }

    /// Checks the limits against `memory` bytes held by the engine and
    /// updates the progress line (`layer`: e.g. `best h 7`); returns the
    /// outcome to stop with, if a limit is hit.
    pub fn check(&mut self, memory: u64, layer: Option<String>) -> Option<Outcome> {
        let now = Instant::now();
        let since = now.duration_since(self.last_check).as_nanos().max(1);
        self.last_check = now;
        // The period that would have taken CHECK_INTERVAL, at most the
        // maximum and at most twice the last one (a fast stretch after a
        // slow one grows it back gradually).
        let scaled = self.check_period as u128 * CHECK_INTERVAL.as_nanos() / since;
        self.check_period = (scaled as u64).clamp(1, (2 * self.check_period).min(MAX_CHECK_PERIOD));
        self.next_check = self.work + self.check_period;
        let outcome = self.monitor.check(memory);
        if outcome.is_none() {
            self.progress_line
                .tick(self.stats.expanded, layer, self.monitor.peak_bytes());
        }
        outcome
    }

    /// Prints one line of the log, if verbose.
    pub fn line(&mut self, text: impl AsRef<str>) {
        if self.verbose {
            self.progress_line.clear();
            eprintln!("{}", text.as_ref());
        }
    }

    /// `expanded 5, evaluated 12, t=0.003s`: where the search is, for log lines.
    pub fn progress(&self) -> String {
        format!(
            "expanded {}, evaluated {}, t={:.3}s",
            self.stats.expanded,
            self.stats.evaluated,
            self.monitor.elapsed().as_secs_f64()
        )
    }

    /// Ends the run: final statistics (`memory`: bytes the engine holds,
    /// `registered`: states in the registry) and, if verbose, their log lines.
    pub fn finish(mut self, task: &Task, outcome: Outcome, memory: u64, registered: usize) -> (Outcome, Statistics) {
        self.stats.search_time = self.monitor.elapsed();
        // The true peak, or the engine's own count (capacities, some of
        // them never touched) where that is larger: it is what the memory
        // limit was checked against.
        let peak = crate::limits::peak_memory_bytes();
        self.stats.peak_memory_bytes = self.monitor.peak_bytes().max(memory).max(peak);
        self.progress_line.clear();
        if self.verbose {
            let s = &self.stats;
            match &outcome {
                Outcome::Solved(plan) => {
                    eprintln!("Solution found: length {}, cost {}", plan.len(), task.plan_cost(plan))
                }
                Outcome::Unsolvable => eprintln!("Search space exhausted: no solution (within the bound)"),
                Outcome::Incomplete => eprintln!("Search space exhausted without a proof: no solution found"),
                other => eprintln!("Search stopped: {}", other.describe()),
            }
            eprintln!("Expanded {} state(s).", s.expanded);
            if let Some(n) = s.expanded_until_last_layer {
                eprintln!("Expanded until last f-layer: {n} state(s).");
            }
            eprintln!("Evaluated {} state(s).", s.evaluated);
            eprintln!("Generated {} state(s).", s.generated);
            eprintln!("Reopened {} state(s).", s.reopened);
            eprintln!("Dead ends: {} state(s).", s.dead_ends);
            eprintln!("Pruned by bound: {} state(s).", s.pruned_by_bound);
            eprintln!("Registered {registered} state(s).");
            eprintln!("Search time: {:.3}s", s.search_time.as_secs_f64());
            eprintln!("Peak memory: {} KB", s.peak_memory_bytes / 1024);
        }
        (outcome, self.stats)
    }
}
