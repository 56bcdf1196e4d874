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
    /// The configuration, as `--search` takes it.
    pub spec: &'static str,
    /// After the first plan, search for cheaper ones (`--anytime`).
    pub anytime: bool,
}

/// Every alias. The first one is also what `corvus solve` and the IPC form
/// `corvus DOMAIN PROBLEM [PLANFILE]` run without `--alias`.
pub static ALIASES: &[Alias] = &[
    Alias {
        name: "lama-first",
        description: "a first plan fast, as LAMA's first iteration: lazy greedy best-first search with h_FF and \
the landmark count on unit costs, their preferred operators in open lists of their own",
        spec: "lazy([hff(cost=one), lmcount(cost=one)])",
        anytime: false,
    },
    Alias {
        name: "lama",
        description: "lama-first's plan, then cheaper ones until the time limit (restarting lazy searches with both \
heuristics on costs + 1: greedy when the task has action costs, then weighted A* with weights 5, 3, 2, 1, 1, ...), \
each written to PLANFILE.1, PLANFILE.2, ...",
        spec: "lazy([hff(cost=one), lmcount(cost=one)])",
        anytime: true,
    },
    Alias {
        name: "seq-opt-lmcut",
        description: "optimal plans: A* with LM-cut",
        spec: "astar(lmcut())",
        anytime: false,
    },
    Alias {
        name: "seq-opt-pdb",
        description: "optimal plans: A* with pattern databases (hill-climbing selection, saturated cost partitioning)",
        spec: "astar(pdb())",
        anytime: false,
    },
    Alias {
        name: "seq-opt-blind",
        description: "optimal plans without a heuristic: A* with the blind heuristic, a baseline",
        spec: "astar(blind())",
        anytime: false,
    },
];

/// The alias of this name.
pub fn get(name: &str) -> Option<&'static Alias> {
    ALIASES.iter().find(|a| a.name == name)
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
) -> Result<(Config, bool), String> {
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
        return Ok((alias.config(), alias.anytime));
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
        None if heuristics.is_empty() => return Ok((ALIASES[0].config(), ALIASES[0].anytime)),
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
    Ok((config, false))
}

impl Alias {
    /// The configuration. An alias's heuristics are not the user's own
    /// choice: one that cannot handle a task is replaced, as a default is.
    pub fn config(&self) -> Config {
        // Every alias parses: `aliases_are_specs` checks them all.
        let config = Config::parse(self.spec).unwrap_or_default();
        Config {
            explicit_heuristic: false,
            ..config
        }
    }

    /// The options of a run with this configuration and otherwise default
    /// options (no limits, no bound, silent).
    pub fn options(&self) -> Options {
        Options {
            config: self.config(),
            anytime: self.anytime,
            ..Options::default()
        }
    }

    /// `--help` text: what it does, and the spec it stands for.
    pub fn help(&self) -> String {
        let anytime = if self.anytime { " --anytime" } else { "" };
        format!("{} [--search \"{}\"{anytime}]", self.description, self.spec)
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
