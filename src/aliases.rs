//! Named configurations, as Fast Downward's `--alias`: `corvus --alias NAME
//! DOMAIN PROBLEM [PLANFILE]`, `corvus solve --alias NAME ...`, and the
//! Python package's `alias=` all read this one table.
//!
//! An entry says what it stands for twice: `solve_args`, the `corvus solve`
//! options a user would type (shown by `--help`, the README and the tests,
//! which check that both ways give the same plan), and `configure`, which
//! sets those options on [`Options`]. To point an alias at another
//! configuration, edit both lines of its entry.

use crate::heuristic::cost_type::CostType;
use crate::heuristic::{HeuristicKind, blind, lmcount, lmcut, pdb, relax};
use crate::planner::{Config, Options};
use crate::search::{LazyOptions, Strategy};

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
        description: "a first plan fast, as LAMA's first iteration: lazy greedy best-first search with h_FF and \
the landmark count on unit costs, their preferred operators in open lists of their own",
        solve_args: "--search lazy --heuristic hff,lmcount --cost-type one",
        configure: |o| o.config = lama_first(),
    },
    Alias {
        name: "lama",
        description: "lama-first's plan, then cheaper ones until the time limit (restarting lazy searches with both \
heuristics on costs + 1: greedy when the task has action costs, then weighted A* with weights 5, 3, 2, 1, 1, ...), \
each written to PLANFILE.1, PLANFILE.2, ...",
        solve_args: "--search lazy --heuristic hff,lmcount --cost-type one --anytime",
        configure: |o| {
            o.config = lama_first();
            o.anytime = true;
        },
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

/// LAMA's first iteration: lazy greedy search alternating h_FF and the
/// landmark count (and their preferred-operator lists), both on unit costs.
fn lama_first() -> Config {
    static MORE: [&HeuristicKind; 1] = [&lmcount::LM_COUNT];
    Config {
        more_heuristics: &MORE,
        cost_type: CostType::One,
        ..Config::new(Strategy::Lazy(LazyOptions::default()), &relax::HFF)
    }
}

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

    /// `solve_args` and `configure` say the same thing: the search, the
    /// heuristics, the cost type and anytime named in the arguments are the
    /// ones configured.
    #[test]
    fn solve_args_name_the_configured_search_and_heuristic() {
        for alias in ALIASES {
            let args: Vec<&str> = alias.solve_args.split_whitespace().collect();
            let value = |flag: &str| args.iter().position(|a| *a == flag).map(|i| args[i + 1]);
            let search = search::kind(value("--search").expect("--search")).expect("a registered search");
            let heuristics: Vec<&'static heuristic::HeuristicKind> = value("--heuristic")
                .expect("--heuristic")
                .split(',')
                .map(|h| heuristic::kind(h).expect("a registered heuristic"))
                .collect();
            let cost_type =
                value("--cost-type").map_or(CostType::Normal, |c| CostType::from_name(c).expect("a cost type"));
            let options = alias.options();
            let config = options.config;
            assert_eq!(config.search, (search.strategy)(2.0), "{}", alias.name);
            assert_eq!(config.heuristic, heuristics[0], "{}", alias.name);
            assert_eq!(config.more_heuristics, &heuristics[1..], "{}", alias.name);
            assert_eq!(config.cost_type, cost_type, "{}", alias.name);
            assert_eq!(options.anytime, args.contains(&"--anytime"), "{}", alias.name);
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
