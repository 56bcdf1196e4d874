//! What a search runs with, and the one language that says it.
//!
//! A [`Config`] is a search algorithm and the heuristics that guide it. Every
//! door writes it the same way, as a spec ([`spec`]): the command line's
//! `--search SPEC`, the aliases, Python's `search=` and the Unified Planning
//! engines' `params={"search": ...}`. The log and `--stats-json` print the
//! spec that ran ([`Config`]'s `Display`), which reads back as the same
//! configuration. The components and their parameters are in
//! [`components`], next to the registries they draw on.

mod components;
pub mod spec;

use std::fmt;

use crate::heuristic::HeuristicKind;
use crate::heuristic::cost_type::CostType;
use crate::heuristic::relax;
use crate::search::Strategy;

pub use components::{describe_components, shorthand};
pub use spec::SpecError;

/// One heuristic as a search uses it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Evaluator {
    pub kind: &'static HeuristicKind,
    /// The action costs it sees (the search counts the task's).
    pub cost_type: CostType,
    /// Wrapped in a perimeter of exact goal distances found by a backward
    /// search (see [`crate::heuristic::perimeter`]).
    pub perimeter: bool,
    /// The search uses its preferred operators (greedy and lazy searches;
    /// only a heuristic that has them): a lazy search gives it an open list
    /// of the successors they reach.
    pub preferred: bool,
    /// Its own preferred operators count (Fast Downward's `pref=true`, the
    /// default); off, its preferred list holds the successors the other
    /// heuristics prefer.
    pub offers_preferred: bool,
}

impl Evaluator {
    /// The heuristic on the task's costs, with its preferred operators when
    /// it has them.
    pub fn new(kind: &'static HeuristicKind) -> Evaluator {
        Evaluator {
            kind,
            cost_type: CostType::Normal,
            perimeter: false,
            preferred: kind.preferred_operators,
            offers_preferred: true,
        }
    }
}

/// One search configuration: what `solve` runs, or one entry of a portfolio.
#[derive(Clone, Debug, PartialEq)]
pub struct Config {
    pub search: Strategy,
    /// The heuristics that guide the search, one open list each; the eager
    /// searches take one.
    pub evaluators: Vec<Evaluator>,
    /// A probe: the heuristic is built with a fixed amount of work and the
    /// search stops after [`PROBE_EXPANSIONS`] expansions, so the probe
    /// decides the same tasks, with the same plans, on every machine.
    pub probe: bool,
    /// The user named the heuristics: one that cannot handle the task is an
    /// error. Otherwise (a search algorithm's default, an alias, a portfolio
    /// entry) another one is used, and the log says so.
    pub explicit_heuristic: bool,
}

/// Most expansions of a probe: a short try, counted in expansions rather
/// than seconds so that it ends at the same point on every machine.
pub const PROBE_EXPANSIONS: u64 = 100_000;

impl Config {
    /// This search algorithm with one heuristic, on the task's costs, with
    /// the heuristic's preferred operators when it has them.
    pub fn new(search: Strategy, heuristic: &'static HeuristicKind) -> Self {
        Config {
            search,
            evaluators: vec![Evaluator::new(heuristic)],
            probe: false,
            explicit_heuristic: false,
        }
    }

    /// Parses a spec such as `astar(lmcut())` or
    /// `lazy([hff(cost=one), lmcount(cost=one)])`. The heuristics it names
    /// are the user's ([`Config::explicit_heuristic`]).
    pub fn parse(text: &str) -> Result<Config, SpecError> {
        components::build(&spec::parse(text)?)
    }

    /// Why this configuration cannot run, if it cannot: the eager searches
    /// take one heuristic, the lazy ones several.
    pub fn check(&self) -> Result<(), String> {
        if self.evaluators.is_empty() {
            return Err("a search needs a heuristic".to_string());
        }
        if self.evaluators.len() > 1 && !self.search.is_lazy() {
            return Err(format!(
                "{} takes one heuristic; several need a lazy search (lazy, lazy-wastar, bfws, lazy-width)",
                components::search_name(self.search)
            ));
        }
        Ok(())
    }

    /// The registered search this configuration runs.
    pub fn search_kind(&self) -> Option<&'static crate::search::SearchKind> {
        crate::search::kind(components::search_name(self.search))
    }

    /// The first heuristic: the guide of an eager search.
    pub fn heuristic(&self) -> &'static HeuristicKind {
        self.evaluators[0].kind
    }

    /// Some heuristic's preferred operators are used.
    pub fn preferred_operators(&self) -> bool {
        self.evaluators.iter().any(|e| e.preferred)
    }

    /// No heuristic's preferred operators are used (`--no-preferred`).
    pub fn without_preferred_operators(mut self) -> Self {
        for e in &mut self.evaluators {
            e.preferred = false;
        }
        self
    }

    /// Every heuristic sees `cost_type`.
    pub fn with_cost_type(mut self, cost_type: CostType) -> Self {
        for e in &mut self.evaluators {
            e.cost_type = cost_type;
        }
        self
    }
}

/// Greedy best-first search with h_FF and its preferred operators.
impl Default for Config {
    fn default() -> Self {
        Config::new(Strategy::Greedy, &relax::HFF)
    }
}

/// The spec, in corvus's own spelling: parsing it gives this configuration.
impl fmt::Display for Config {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", components::print(self))
    }
}

#[cfg(test)]
mod tests;
