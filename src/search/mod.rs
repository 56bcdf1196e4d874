//! Search: two best-first engines over the [`crate::task::registry::StateRegistry`].
//! A*, greedy best-first and weighted A* run on the eager engine and differ
//! only in the open-list key; lazy greedy search, lazy weighted A* and BFWS
//! run on the lazy engine, with several heuristics. [`random_walks`] is a
//! search of its own, which keeps no search space.
//!
//! [`engine`] runs the eager loop, [`lazy`] the lazy one, [`nodes`] holds
//! what they share (the search space, statistics, limits, log lines),
//! [`open_list`] orders the nodes, [`novelty`] measures width-based novelty,
//! [`successor`] finds applicable operators, [`limits`] watches time, memory
//! and Ctrl-C, [`progress`] draws the live progress line on a terminal.

mod engine;
mod lazy;
#[cfg(test)]
mod lazy_tests;
mod limits;
mod nodes;
pub mod novelty;
mod open_list;
mod progress;
mod random_walks;
#[cfg(test)]
mod random_walks_tests;
mod successor;
mod symbolic;
#[cfg(test)]
mod tests;
mod type_based;

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use crate::heuristic::{Heuristic, HeuristicKind, blind, lmcut, relax};
use crate::task::{OpId, Task};

pub use lazy::{Exploration, Guide, LazyOptions, NoveltyUse, SuccessorOrder};
pub use random_walks::WalkOptions;
pub use successor::{SuccessorGenerator, is_applicable};

/// How the engine orders its open list: the one thing in which its
/// algorithms differ.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Strategy {
    /// f = g + h, ties broken on lower h.
    Astar,
    /// f = g + W·h.
    WeightedAstar(f64),
    /// Key h only; preferred operators from the heuristic are boosted.
    Greedy,
    /// Lazy best-first search: deferred evaluation, one open list per
    /// heuristic (see [`search_lazy`]); greedy, or weighted A* with
    /// [`LazyOptions::weight`].
    Lazy(LazyOptions),
    /// Bidirectional uniform-cost search over BDDs (see [`symbolic`]): no
    /// heuristic, optimal plans.
    Symbolic,
    /// Monte-Carlo random walks from the current state, the heuristic
    /// evaluated at their ends (see [`random_walks`]).
    Walks(WalkOptions),
}

impl Strategy {
    /// True for the lazy engine, which takes several heuristics.
    pub fn is_lazy(self) -> bool {
        matches!(self, Strategy::Lazy(_))
    }

    /// True for the symbolic search, which takes no heuristic.
    pub fn is_symbolic(self) -> bool {
        matches!(self, Strategy::Symbolic)
    }

    /// True for the eager engine, the one search that takes a pruning
    /// heuristic beside its guide.
    pub fn is_eager(self) -> bool {
        matches!(self, Strategy::Astar | Strategy::Greedy | Strategy::WeightedAstar(_))
    }
}

/// A search algorithm as the registry knows it: its name, what it declares
/// about itself, and the engine strategy it runs. The command line takes its
/// values from [`KINDS`].
pub struct SearchKind {
    /// Name on the command line and in logs.
    pub name: &'static str,
    /// One line for `--help`.
    pub help: &'static str,
    /// Returns optimal plans when its heuristic is admissible.
    pub optimal: bool,
    /// Uses the heuristic's preferred operators, when it has them.
    pub preferred_operators: bool,
    /// The heuristic it runs with when none is named.
    pub default_heuristic: &'static HeuristicKind,
    /// The engine strategy, given the weight of weighted A*.
    pub strategy: fn(weight: f64) -> Strategy,
    /// Handles tasks with conditional effects.
    pub conditional_effects: bool,
    /// Handles tasks with derived predicates.
    pub axioms: bool,
}

impl SearchKind {
    /// The first feature of `task` this search cannot handle.
    pub fn unsupported_feature(&self, task: &Task) -> Option<&'static str> {
        crate::heuristic::unsupported_feature(self.conditional_effects, self.axioms, task)
    }

    /// `--help` text: the help line and the declared properties.
    pub fn describe(&self) -> String {
        if (self.strategy)(2.0).is_symbolic() {
            return format!("{} (optimal)", self.help);
        }
        let optimality = if self.optimal {
            "optimal with an admissible heuristic"
        } else {
            "not optimal"
        };
        let preferred = if self.preferred_operators {
            ", preferred operators"
        } else {
            ""
        };
        format!(
            "{} ({optimality}{preferred}; default heuristic {})",
            self.help, self.default_heuristic.name
        )
    }
}

pub static ASTAR: SearchKind = SearchKind {
    name: "astar",
    help: "A*: f = g + h",
    optimal: true,
    preferred_operators: false,
    default_heuristic: &lmcut::LM_CUT,
    strategy: |_| Strategy::Astar,
    conditional_effects: true,
    axioms: true,
};

pub static GBFS: SearchKind = SearchKind {
    name: "gbfs",
    help: "greedy best-first search on h",
    optimal: false,
    preferred_operators: true,
    default_heuristic: &relax::HFF,
    strategy: |_| Strategy::Greedy,
    conditional_effects: true,
    axioms: true,
};

pub static WASTAR: SearchKind = SearchKind {
    name: "wastar",
    help: "weighted A*: f = g + W·h (see --weight)",
    optimal: false,
    preferred_operators: false,
    default_heuristic: &relax::HFF,
    strategy: Strategy::WeightedAstar,
    conditional_effects: true,
    axioms: true,
};

pub static LAZY: SearchKind = SearchKind {
    name: "lazy",
    help: "lazy greedy best-first search: deferred evaluation, one open list per heuristic \
(--heuristic hff,goalcount) and per preferred-operator set, alternated",
    optimal: false,
    preferred_operators: true,
    default_heuristic: &relax::HFF,
    strategy: |_| Strategy::Lazy(LazyOptions::default()),
    conditional_effects: true,
    axioms: true,
};

pub static LAZY_WASTAR: SearchKind = SearchKind {
    name: "lazy-wastar",
    help: "lazy weighted A*: the lazy search's open lists keyed by g + W·h (see --weight), as in LAMA's later \
iterations",
    optimal: false,
    preferred_operators: true,
    default_heuristic: &relax::HFF,
    strategy: |w| {
        Strategy::Lazy(LazyOptions {
            weight: Some(w),
            ..LazyOptions::default()
        })
    },
    conditional_effects: true,
    axioms: true,
};

pub static BFWS: SearchKind = SearchKind {
    name: "bfws",
    help: "lazy search keyed by width-based novelty first, the heuristic second (BFWS-style)",
    optimal: false,
    preferred_operators: true,
    default_heuristic: &relax::HFF,
    strategy: |_| {
        Strategy::Lazy(LazyOptions {
            novelty: NoveltyUse::FirstKey,
            ..LazyOptions::default()
        })
    },
    conditional_effects: true,
    axioms: true,
};

pub static LAZY_WIDTH: SearchKind = SearchKind {
    name: "lazy-width",
    help: "lazy search with one more open list, keyed by width-based novelty first and the heuristic second",
    optimal: false,
    preferred_operators: true,
    default_heuristic: &relax::HFF,
    strategy: |_| {
        Strategy::Lazy(LazyOptions {
            novelty: NoveltyUse::OwnList,
            ..LazyOptions::default()
        })
    },
    conditional_effects: true,
    axioms: true,
};

pub static SYMBOLIC: SearchKind = SearchKind {
    name: "symbolic",
    help: "bidirectional uniform-cost search over BDDs of the finite-domain variables (takes no heuristic)",
    optimal: true,
    preferred_operators: false,
    // Never built: the symbolic search evaluates no state.
    default_heuristic: &blind::BLIND,
    strategy: |_| Strategy::Symbolic,
    conditional_effects: symbolic::CONDITIONAL_EFFECTS,
    axioms: symbolic::AXIOMS,
};

pub static WALKS: SearchKind = SearchKind {
    name: "walks",
    help: "Monte-Carlo random walks (Arvand-style): batches of walks from the current state, h only at their ends, \
a jump to the best end when it is better, restarts; biased by preferred operators (MHA) unless preferred=[]",
    optimal: false,
    preferred_operators: true,
    default_heuristic: &relax::HFF,
    strategy: |_| Strategy::Walks(WalkOptions::default()),
    conditional_effects: true,
    axioms: true,
};

/// Every search algorithm the command line offers, in `--help` order.
pub static KINDS: &[&SearchKind] = &[
    &ASTAR,
    &GBFS,
    &WASTAR,
    &LAZY,
    &LAZY_WASTAR,
    &BFWS,
    &LAZY_WIDTH,
    &SYMBOLIC,
    &WALKS,
];

/// The registered search algorithm of this name.
pub fn kind(name: &str) -> Option<&'static SearchKind> {
    KINDS.iter().copied().find(|k| k.name == name)
}

#[cfg(test)]
mod registry_tests {
    use super::*;

    #[test]
    fn entries_name_their_strategy() {
        for kind in KINDS {
            // The default heuristic is a registered one.
            assert_eq!(
                crate::heuristic::kind(kind.default_heuristic.name),
                Some(kind.default_heuristic)
            );
            assert_eq!(self::kind(kind.name).map(|k| k.name), Some(kind.name));
        }
    }
}

pub use crate::limits::Limits;

#[derive(Clone, Debug)]
pub struct SearchConfig {
    pub strategy: Strategy,
    /// Only plans of cost at most this bound are sought: a node is pruned
    /// when g + h_prune > bound (h_prune is the admissible pruning heuristic,
    /// or the guiding one if it is admissible).
    pub bound: Option<u64>,
    /// Use the guiding heuristic's preferred operators (greedy search).
    pub preferred_operators: bool,
    pub limits: Limits,
    /// Print progress lines and statistics to stderr.
    pub verbose: bool,
    /// Store states packed by the task's invariant groups (fewer words per
    /// state, when that saves any; slower: see [`crate::task::registry::StateRegistry::packed`]).
    pub pack_states: bool,
}

impl Default for SearchConfig {
    fn default() -> Self {
        SearchConfig {
            strategy: Strategy::Astar,
            bound: None,
            preferred_operators: false,
            limits: Limits::default(),
            verbose: false,
            pack_states: false,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// A plan; its cost is within the bound if one was given.
    Solved(Vec<OpId>),
    /// The search space was exhausted with sound pruning only: no plan
    /// exists (within the bound, if one was given).
    Unsolvable,
    /// Exhausted, but some pruning was not sound (e.g. an inadmissible
    /// heuristic's value against a bound): no conclusion. The engine never
    /// prunes unsoundly, so it does not currently return this.
    Incomplete,
    OutOfTime,
    OutOfMemory,
    /// [`Limits::expansions`] states were expanded without a decision.
    ExpansionLimit,
    /// Stopped from outside (Ctrl-C).
    Interrupted,
}

impl Outcome {
    /// The log text (`time limit reached`).
    pub fn describe(&self) -> &'static str {
        match self {
            Outcome::Solved(_) => "solution found",
            Outcome::Unsolvable => "no solution (within the bound)",
            Outcome::Incomplete => "no solution and no proof",
            Outcome::OutOfTime => "time limit reached",
            Outcome::OutOfMemory => "memory limit reached",
            Outcome::ExpansionLimit => "expansion limit reached",
            Outcome::Interrupted => "interrupted",
        }
    }
}

/// What a search did. `--stats-json` writes these fields under these
/// names, the search time as `search_time_s` in seconds.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct Statistics {
    pub expanded: u64,
    pub evaluated: u64,
    pub generated: u64,
    pub reopened: u64,
    pub dead_ends: u64,
    pub pruned_by_bound: u64,
    pub initial_h: Option<u64>,
    /// A* and weighted A*: states expanded before the first expansion of
    /// the last f value (Fast Downward's "expanded until last jump"), which
    /// unlike `expanded` does not depend on tie-breaking within the last
    /// layer. Only in the log, not in `--stats-json`.
    #[serde(skip)]
    pub expanded_until_last_layer: Option<u64>,
    #[serde(rename = "search_time_s", serialize_with = "seconds")]
    pub search_time: Duration,
    pub peak_memory_bytes: u64,
}

fn seconds<S: serde::Serializer>(d: &Duration, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_f64(d.as_secs_f64())
}

/// Runs a best-first search. `guide` orders the open list; `prune`, when
/// given, must be admissible and is used for bound pruning and dead ends.
/// `prune` is evaluated first; the guide is skipped for states it rules out.
/// A `prune` heuristic that says it is inadmissible only detects dead ends.
/// The random-walk search evaluates `guide` at the ends of its walks and
/// leaves `prune` alone.
pub fn search(
    task: &Task,
    guide: &mut dyn Heuristic,
    prune: Option<&mut dyn Heuristic>,
    config: &SearchConfig,
) -> (Outcome, Statistics) {
    match config.strategy {
        // The lazy engine never prunes against the bound with a heuristic:
        // it needs no `prune` heuristic to stay sound.
        Strategy::Lazy(options) => {
            let mut guides = [Guide::new(guide, config.preferred_operators)];
            lazy::run(task, &mut guides, options, config, interrupt_flag())
        }
        Strategy::Symbolic => symbolic::run(task, config, interrupt_flag()),
        // Walks prune by the bound on g alone and need no `prune` heuristic.
        Strategy::Walks(options) => random_walks::run(task, guide, options, config, interrupt_flag()),
        _ => engine::run(task, guide, prune, config, interrupt_flag()),
    }
}

/// Runs lazy greedy best-first search guided by several heuristics, one open
/// list each (and one more for the preferred operators of each guide that
/// uses them). `guides` must not be empty.
pub fn search_lazy(
    task: &Task,
    guides: &mut [Guide<'_>],
    options: LazyOptions,
    config: &SearchConfig,
) -> (Outcome, Statistics) {
    lazy::run(task, guides, options, config, interrupt_flag())
}

/// Set this (e.g. from a Ctrl-C handler) to stop every running search with
/// [`Outcome::Interrupted`]. It is never cleared by the engine.
pub fn interrupt_flag() -> &'static AtomicBool {
    crate::limits::interrupt_flag()
}
