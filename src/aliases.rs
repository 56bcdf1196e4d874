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
    /// The configuration, as `--search` takes it; for a portfolio, its first
    /// entry's.
    pub spec: &'static str,
    /// A sequential portfolio ([`crate::planner::Options::portfolio`]):
    /// each entry's spec and its share of the time left when it starts,
    /// the first one being `spec`. Empty for a single configuration.
    pub portfolio: &'static [(&'static str, f64)],
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
        spec: "lazy([hff(cost=one), lmcount(cost=one)])",
        portfolio: &[
            ("lazy([hff(cost=one), lmcount(cost=one)])", 0.3),
            ("bfws([hff(cost=one)])", 1.0),
        ],
        anytime: false,
    },
    Alias {
        name: "lama-first",
        description: "a first plan fast, as LAMA's first iteration: lazy greedy best-first search with h_FF and \
the landmark count on unit costs, their preferred operators in open lists of their own",
        spec: "lazy([hff(cost=one), lmcount(cost=one)])",
        portfolio: &[],
        anytime: false,
    },
    Alias {
        name: "lama",
        description: "lama-first's plan, then cheaper ones until the time limit (restarting lazy searches with both \
heuristics on costs + 1: greedy when the task has action costs, then weighted A* with weights 5, 3, 2, 1, 1, ...), \
each written to PLANFILE.1, PLANFILE.2, ...",
        spec: "lazy([hff(cost=one), lmcount(cost=one)])",
        portfolio: &[],
        anytime: true,
    },
    Alias {
        name: "seq-opt-lmcut",
        description: "optimal plans: A* with LM-cut",
        spec: "astar(lmcut())",
        portfolio: &[],
        anytime: false,
    },
    Alias {
        name: "seq-opt-pdb",
        description: "optimal plans: A* with pattern databases (hill-climbing selection, saturated cost partitioning)",
        spec: "astar(pdb())",
        portfolio: &[],
        anytime: false,
    },
    Alias {
        name: "seq-opt-blind",
        description: "optimal plans without a heuristic: A* with the blind heuristic, a baseline",
        spec: "astar(blind())",
        portfolio: &[],
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

/// What a door asks for: a configuration (for a portfolio, its first
/// entry), the portfolio if it is one, and whether it is an anytime run.
#[derive(Clone, Debug)]
pub struct Choice {
    pub config: Config,
    pub portfolio: Vec<(Config, f64)>,
    pub anytime: bool,
}

impl Choice {
    fn single(config: Config, anytime: bool) -> Self {
        Choice {
            config,
            portfolio: Vec::new(),
            anytime,
        }
    }

    /// Changes every configuration of it alike (the command line's
    /// `--cost-type`, `--no-preferred`, ... on top of any configuration).
    pub fn map(mut self, f: impl Fn(Config) -> Config) -> Self {
        self.config = f(self.config);
        self.portfolio = self.portfolio.into_iter().map(|(c, share)| (f(c), share)).collect();
        self
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
    /// The configuration. An alias's heuristics are not the user's own
    /// choice: one that cannot handle a task is replaced, as a default is.
    pub fn config(&self) -> Config {
        parsed(self.spec)
    }

    /// What it asks for, as [`choose`] returns it.
    pub fn choice(&self) -> Choice {
        let portfolio = self
            .portfolio
            .iter()
            .map(|&(spec, share)| (parsed(spec), share))
            .collect();
        Choice {
            config: self.config(),
            portfolio,
            anytime: self.anytime,
        }
    }

    /// The options of a run with this configuration and otherwise default
    /// options (no limits, no bound, silent).
    pub fn options(&self) -> Options {
        let choice = self.choice();
        Options {
            config: choice.config,
            portfolio: choice.portfolio,
            anytime: self.anytime,
            ..Options::default()
        }
    }

    /// `--help` text: what it does, and the spec it stands for (a
    /// portfolio's, entry by entry with its share).
    pub fn help(&self) -> String {
        let anytime = if self.anytime { " --anytime" } else { "" };
        if self.portfolio.is_empty() {
            return format!("{} [--search \"{}\"{anytime}]", self.description, self.spec);
        }
        let entries: Vec<String> = self
            .portfolio
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
            ("seq-opt-lmcut", Config::new(Strategy::Astar, &lmcut::LM_CUT), false),
            ("seq-opt-pdb", Config::new(Strategy::Astar, &pdb::PDB), false),
            ("seq-opt-blind", Config::new(Strategy::Astar, &blind::BLIND), false),
        ];
        assert_eq!(ALIASES.len(), expected.len());
        for (name, config, anytime) in expected {
            let alias = get(name).expect(name);
            assert!(Config::parse(alias.spec).is_ok(), "{name}: {}", alias.spec);
            let options = alias.options();
            assert_eq!(options.config, config, "{name}");
            assert_eq!(options.anytime, anytime, "{name}");
            // The spec prints as it is written.
            assert_eq!(options.config.to_string(), alias.spec, "{name}");
            // A portfolio starts with its spec, every entry parses and
            // prints as written, and the shares are fractions.
            if let Some(&(first, _)) = alias.portfolio.first() {
                assert_eq!(first, alias.spec, "{name}");
                assert_eq!(options.portfolio.len(), alias.portfolio.len());
                for ((config, share), &(spec, written)) in options.portfolio.iter().zip(alias.portfolio) {
                    assert_eq!(config.to_string(), spec, "{name}");
                    assert_eq!(*share, written);
                    assert!(*share > 0.0 && *share <= 1.0, "{name}: {spec} @ {share}");
                }
            }
        }
    }

    /// The default (no alias, no search) is the first alias, a portfolio
    /// whose first entry is lama-first exactly: where lama-first finds a
    /// plan within its share, the default finds the same plan.
    #[test]
    fn the_default_is_a_portfolio_that_starts_with_lama_first() {
        let default = choose(None, None, &[], None).expect("the default");
        assert_eq!(default.config, get("lama-first").expect("lama-first").config());
        assert_eq!(default.portfolio.first().map(|(c, _)| c), Some(&default.config));
        assert!(default.portfolio.len() > 1);
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
