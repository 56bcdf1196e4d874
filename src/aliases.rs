//! Named configurations, as Fast Downward's `--alias`: `corvus --alias NAME
//! DOMAIN PROBLEM [PLANFILE]`, `corvus solve --alias NAME ...`, and the
//! Python package's `alias=` all read this one table.
//!
//! An entry says what it stands for twice: `solve_args`, the `corvus solve`
//! options a user would type (shown by `--help`, the README and the tests,
//! which check that both ways give the same plan), and `configure`, which
//! sets those options on [`Options`]. To point an alias at another
//! configuration, edit both lines of its entry.

use crate::heuristic::{blind, lmcut, pdb, relax};
use crate::planner::{Config, Options};
use crate::search::Strategy;

/// One named configuration.
pub struct Alias {
    pub name: &'static str,
    /// One line for `--help` and the README.
    pub description: &'static str,
    /// The `corvus solve` options this alias stands for.
    pub solve_args: &'static str,
    /// Sets the configuration on options that hold the run's limits and
    /// logging (which an alias leaves alone).
    pub configure: fn(&mut Options),
}

/// Every alias. The first one is also what `corvus solve` and the IPC form
/// `corvus DOMAIN PROBLEM [PLANFILE]` run without `--alias`.
pub static ALIASES: &[Alias] = &[
    Alias {
        name: "lama-first",
        description: "a first plan fast: greedy best-first search with h_FF and its preferred operators",
        solve_args: "--search gbfs --heuristic hff",
        configure: |o| o.config = Config::new(Strategy::Greedy, &relax::HFF),
    },
    Alias {
        // The anytime search that would go on improving the plan is not
        // built yet: until it is, this is the first search alone.
        name: "lama",
        description: "the first search of lama-first; corvus has no anytime search yet, so no later, cheaper plans",
        solve_args: "--search gbfs --heuristic hff",
        configure: |o| o.config = Config::new(Strategy::Greedy, &relax::HFF),
    },
    Alias {
        name: "seq-opt-lmcut",
        description: "optimal plans: A* with LM-cut",
        solve_args: "--search astar --heuristic lmcut",
        configure: |o| o.config = Config::new(Strategy::Astar, &lmcut::LM_CUT),
    },
    Alias {
        name: "seq-opt-pdb",
        description: "optimal plans: A* with pattern databases (hill-climbing selection, saturated cost partitioning)",
        solve_args: "--search astar --heuristic pdb",
        configure: |o| o.config = Config::new(Strategy::Astar, &pdb::PDB),
    },
    Alias {
        name: "seq-opt-blind",
        description: "optimal plans without a heuristic: A* with the blind heuristic, a baseline",
        solve_args: "--search astar --heuristic blind",
        configure: |o| o.config = Config::new(Strategy::Astar, &blind::BLIND),
    },
];

/// The alias of this name.
pub fn get(name: &str) -> Option<&'static Alias> {
    ALIASES.iter().find(|a| a.name == name)
}

impl Alias {
    /// The options of a run with this configuration and otherwise default
    /// options (no limits, no bound, silent).
    pub fn options(&self) -> Options {
        let mut options = Options::default();
        (self.configure)(&mut options);
        options
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::heuristic;
    use crate::search;

    /// `solve_args` and `configure` say the same thing: the search and the
    /// heuristic named in the arguments are the ones configured.
    #[test]
    fn solve_args_name_the_configured_search_and_heuristic() {
        for alias in ALIASES {
            let args: Vec<&str> = alias.solve_args.split_whitespace().collect();
            let value = |flag: &str| {
                let i = args.iter().position(|a| *a == flag).expect("flag present");
                args[i + 1]
            };
            let search = search::kind(value("--search")).expect("a registered search");
            let heuristic = heuristic::kind(value("--heuristic")).expect("a registered heuristic");
            let config = alias.options().config;
            assert_eq!(config, Config::new((search.strategy)(2.0), heuristic), "{}", alias.name);
        }
    }

    #[test]
    fn names_are_unique_and_found() {
        for alias in ALIASES {
            assert!(std::ptr::eq(get(alias.name).expect("found"), alias));
        }
        assert!(get("no-such-alias").is_none());
    }
}
