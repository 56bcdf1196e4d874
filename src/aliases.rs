//! Named configurations, as Fast Downward's `--alias`: `corvus --alias NAME
//! DOMAIN PROBLEM [PLANFILE]`, `corvus solve --alias NAME ...`, and the
//! Python package's `alias=` all read this one table. Each alias is a spec
//! in the configuration language ([`crate::config`]), and `anytime` for the
//! ones that keep improving plans.

use crate::config::Config;
use crate::planner::Options;

/// One named configuration.
pub struct Alias {
    pub name: &'static str,
    /// One line for `--help` and the README.
    pub description: &'static str,
    /// What it runs, as `--search` takes it: one spec with share 1, or a
    /// sequential portfolio ([`crate::planner::Options::configs`]), each
    /// entry's spec with its share of the time left when it starts.
    pub configs: &'static [(&'static str, f64)],
    /// After the first plan, search for cheaper ones (`--anytime`).
    pub anytime: bool,
}

/// Every alias. The first one is also what `corvus solve` and the IPC form
/// `corvus DOMAIN PROBLEM [PLANFILE]` run without `--alias`.
pub static ALIASES: &[Alias] = &[
    Alias {
        name: "seq-sat-corvus",
        description: "a first plan, by a sequential portfolio: lama-first with 30 % of the time, then BFWS \
(width-based novelty first, h_FF second) with the rest; the first plan or a proof ends the run",
        configs: &[
            ("lazy([hff(cost=one), lmcount(cost=one)])", 0.3),
            ("bfws([hff(cost=one)])", 1.0),
        ],
        anytime: false,
    },
    Alias {
        name: "lama-first",
        description: "a first plan fast, as LAMA's first iteration: lazy greedy best-first search with h_FF and \
the landmark count on unit costs, their preferred operators in open lists of their own",
        configs: &[("lazy([hff(cost=one), lmcount(cost=one)])", 1.0)],
        anytime: false,
    },
    Alias {
        name: "lama",
        description: "lama-first's plan, then cheaper ones until the time limit (restarting lazy searches with both \
heuristics on costs + 1: greedy when the task has action costs, then weighted A* with weights 5, 3, 2, 1, 1, ...), \
each written to PLANFILE.1, PLANFILE.2, ...",
        configs: &[("lazy([hff(cost=one), lmcount(cost=one)])", 1.0)],
        anytime: true,
    },
    Alias {
        name: "seq-opt",
        description: "an optimal plan, by a sequential portfolio: A* with pattern databases with 25 % of the time, \
A* with LM-cut with half the rest, then symbolic bidirectional search; an entry that would run as an earlier \
one does (LM-cut and pattern databases both give way to h_max on derived predicates) is left out",
        configs: &[("astar(pdb())", 0.25), ("astar(lmcut())", 0.5), ("symbolic()", 1.0)],
        anytime: false,
    },
    Alias {
        name: "seq-opt-lmcut",
        description: "optimal plans: A* with LM-cut",
        configs: &[("astar(lmcut())", 1.0)],
        anytime: false,
    },
    Alias {
        name: "seq-opt-pdb",
        description: "optimal plans: A* with pattern databases (hill-climbing selection, saturated cost partitioning)",
        configs: &[("astar(pdb())", 1.0)],
        anytime: false,
    },
    Alias {
        name: "seq-opt-blind",
        description: "optimal plans without a heuristic: A* with the blind heuristic, a baseline",
        configs: &[("astar(blind())", 1.0)],
        anytime: false,
    },
];

/// An alias's spec as a configuration. An alias's heuristics are not the
/// user's own choice: one that cannot handle a task is replaced, as a
/// default is.
fn parsed(spec: &str) -> Config {
    // Every alias parses: `aliases_are_specs` checks them all.
    let config = Config::parse(spec).unwrap_or_default();
    Config {
        explicit_heuristic: false,
        ..config
    }
}

/// The alias of this name.
pub fn get(name: &str) -> Option<&'static Alias> {
    ALIASES.iter().find(|a| a.name == name)
}

/// What a door asks for: the configurations (one, or a portfolio's
/// entries with their shares) and whether it is an anytime run.
#[derive(Clone, Debug)]
pub struct Choice {
    pub configs: Vec<(Config, f64)>,
    pub anytime: bool,
}

impl Choice {
    fn single(config: Config, anytime: bool) -> Self {
        Choice {
            configs: vec![(config, 1.0)],
            anytime,
        }
    }

    /// Changes every configuration of it alike (the command line's
    /// `--cost-type`, `--no-preferred`, ... on top of any configuration).
    pub fn map(mut self, f: impl Fn(Config) -> Config) -> Self {
        self.configs = self.configs.into_iter().map(|(c, share)| (f(c), share)).collect();
        self
    }

    /// The options of a run with these configurations and otherwise
    /// default options (no limits, no bound, silent).
    pub fn options(self) -> Options {
        Options {
            configs: self.configs,
            anytime: self.anytime,
            ..Options::default()
        }
    }
}

/// The configuration a door asks for, and whether it is an anytime one: an
/// alias; a spec in `search`; or a search's name in `search` with the
/// heuristics' names (the shorthand `--search NAME --heuristic LIST`, with
/// `weight` for the weighted searches, 2 by default); with none of them,
/// the first alias. The command line and Python both come here.
pub fn choose(
    alias: Option<&str>,
    search: Option<&str>,
    heuristics: &[&str],
    weight: Option<f64>,
) -> Result<Choice, String> {
    if let Some(name) = alias {
        if search.is_some() || !heuristics.is_empty() {
            return Err(format!(
                "alias `{name}` sets the search and the heuristics; give either"
            ));
        }
        let alias = get(name).ok_or_else(|| {
            let names: Vec<&str> = ALIASES.iter().map(|a| a.name).collect();
            format!("unknown alias `{name}` (aliases: {})", names.join(", "))
        })?;
        return Ok(alias.choice());
    }
    let kinds = heuristics
        .iter()
        .map(|&h| {
            crate::heuristic::kind(h).ok_or_else(|| {
                let names: Vec<&str> = crate::heuristic::KINDS.iter().map(|k| k.name).collect();
                format!("unknown heuristic `{h}` (heuristics: {})", names.join(", "))
            })
        })
        .collect::<Result<Vec<_>, String>>()?;
    let (spec, shorthand) = match search {
        None if heuristics.is_empty() => return Ok(ALIASES[0].choice()),
        None => (crate::config::shorthand("gbfs", &kinds, weight.unwrap_or(2.0)), true),
        Some(name) if crate::search::kind(name).is_some() => {
            (crate::config::shorthand(name, &kinds, weight.unwrap_or(2.0)), true)
        }
        Some(spec) => {
            if !heuristics.is_empty() {
                return Err(format!(
                    "heuristic {} goes with a search's name; the search spec `{spec}` names its own heuristics",
                    heuristics.join(",")
                ));
            }
            if weight.is_some() {
                return Err(format!(
                    "a weight goes with a search's name; the search spec `{spec}` gives its own (w=...)"
                ));
            }
            (spec.to_string(), false)
        }
    };
    let config = Config::parse(&spec).map_err(|e| match shorthand {
        true => format!("{spec}: {}", e.message),
        false => e.show(&spec),
    })?;
    Ok(Choice::single(config, false))
}

impl Alias {
    /// The configuration, or a portfolio's first. An alias's heuristics are
    /// not the user's own choice: one that cannot handle a task is
    /// replaced, as a default is.
    pub fn config(&self) -> Config {
        parsed(self.configs[0].0)
    }

    /// What it asks for, as [`choose`] returns it.
    pub fn choice(&self) -> Choice {
        Choice {
            configs: self
                .configs
                .iter()
                .map(|&(spec, share)| (parsed(spec), share))
                .collect(),
            anytime: self.anytime,
        }
    }

    /// The options of a run with this configuration and otherwise default
    /// options (no limits, no bound, silent).
    pub fn options(&self) -> Options {
        self.choice().options()
    }

    /// `--help` text: what it does, and the spec it stands for (a
    /// portfolio's, entry by entry with its share).
    pub fn help(&self) -> String {
        let anytime = if self.anytime { " --anytime" } else { "" };
        if let [(spec, _)] = self.configs {
            return format!("{} [--search \"{spec}\"{anytime}]", self.description);
        }
        let entries: Vec<String> = self
            .configs
            .iter()
            .map(|(spec, share)| format!("\"{spec}\" @ {share}"))
            .collect();
        format!("{} [{}{anytime}]", self.description, entries.join(", then "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Evaluator;
    use crate::heuristic::cost_type::CostType;
    use crate::heuristic::{blind, lmcount, lmcut, pdb, relax};
    use crate::search::{LazyOptions, Strategy};

    /// Each alias is the configuration it has always stood for.
    #[test]
    fn aliases_are_specs_of_their_configurations() {
        let one = |kind| Evaluator {
            cost_type: CostType::One,
            ..Evaluator::new(kind)
        };
        let lama_first = Config {
            search: Strategy::Lazy(LazyOptions::default()),
            evaluators: vec![one(&relax::HFF), one(&lmcount::LM_COUNT)],
            probe: false,
            explicit_heuristic: false,
        };
        let expected = [
            ("seq-sat-corvus", lama_first.clone(), false),
            ("lama-first", lama_first.clone(), false),
            ("lama", lama_first, true),
            ("seq-opt", Config::new(Strategy::Astar, &pdb::PDB), false),
            ("seq-opt-lmcut", Config::new(Strategy::Astar, &lmcut::LM_CUT), false),
            ("seq-opt-pdb", Config::new(Strategy::Astar, &pdb::PDB), false),
            ("seq-opt-blind", Config::new(Strategy::Astar, &blind::BLIND), false),
        ];
        assert_eq!(ALIASES.len(), expected.len());
        for (name, config, anytime) in expected {
            let alias = get(name).expect(name);
            let options = alias.options();
            assert_eq!(options.configs[0].0, config, "{name}");
            assert_eq!(options.anytime, anytime, "{name}");
            // Every entry parses and prints as written, the shares are
            // fractions, and the last entry takes all the time left.
            assert_eq!(options.configs.len(), alias.configs.len());
            for ((config, share), &(spec, written)) in options.configs.iter().zip(alias.configs) {
                assert!(Config::parse(spec).is_ok(), "{name}: {spec}");
                assert_eq!(config.to_string(), spec, "{name}");
                assert_eq!(*share, written);
                assert!(*share > 0.0 && *share <= 1.0, "{name}: {spec} @ {share}");
            }
            assert_eq!(alias.configs.last().map(|&(_, share)| share), Some(1.0), "{name}");
        }
    }

    /// The default (no alias, no search) is the first alias, a portfolio
    /// whose first entry is lama-first exactly: where lama-first finds a
    /// plan within its share, the default finds the same plan.
    #[test]
    fn the_default_is_a_portfolio_that_starts_with_lama_first() {
        let default = choose(None, None, &[], None).expect("the default");
        assert_eq!(default.configs[0].0, get("lama-first").expect("lama-first").config());
        assert!(default.configs.len() > 1);
        assert!(!default.anytime);
    }

    #[test]
    fn names_are_unique_and_found() {
        for alias in ALIASES {
            assert!(std::ptr::eq(get(alias.name).expect("found"), alias));
        }
        assert!(get("no-such-alias").is_none());
    }
}
