//! Pattern database heuristics over the task's mutex groups.
//!
//! A pattern is a set of finite-domain variables ([`projection`]); its
//! database stores the exact goal distance of every abstract state of the
//! projection onto it. Patterns are chosen automatically ([`select`]) and
//! combined by saturated cost partitioning: the databases are computed one
//! after the other, each with the operator costs the previous ones left
//! over after keeping only what they need, so that their sum stays
//! admissible. Several orders give several sums; the estimate is their max.

mod projection;
mod select;
#[cfg(test)]
mod tests;

use std::time::{Duration, Instant};

use projection::{INFINITE, Projection, TaskInfo, Var};

use super::{BuildContext, Estimate, Heuristic, HeuristicKind};
use crate::task::Task;
use crate::task::state::StateBits;

pub static PDB: HeuristicKind = HeuristicKind {
    name: "pdb",
    also_named: &[],
    help: "pattern databases over mutex groups, saturated cost partitioning",
    admissible: true,
    preferred_operators: false,
    negative_goals: true,
    conditional_effects: true,
    axioms: false,
    build: |task: &Task, context: &BuildContext| {
        let config = if context.probe {
            PdbConfig::probe()
        } else {
            PdbConfig::within(context.time_limit)
        };
        Box::new(PdbHeuristic::new(task, &config))
    },
};

/// Budgets for building pattern databases.
#[derive(Clone, Debug)]
pub struct PdbConfig {
    /// Largest number of abstract states of one pattern database.
    pub max_pdb_size: usize,
    /// Largest total number of abstract states over all pattern databases.
    pub max_total_size: usize,
    /// Wall-clock budget for pattern selection and construction, seconds.
    pub max_time_secs: f64,
    /// Cap on the work of selection (and again of ordering), in units of
    /// `Projection::work`: operators, abstract states and edges of each
    /// database built. `None` for no cap besides the time.
    pub max_work: Option<u64>,
}

impl Default for PdbConfig {
    fn default() -> Self {
        PdbConfig {
            max_pdb_size: 2_000_000,
            max_total_size: 20_000_000,
            max_time_secs: 2.0,
            max_work: None,
        }
    }
}

impl PdbConfig {
    /// The default budgets, with the time budget a small share of the
    /// run's time limit (when there is one). Hill climbing gains most in
    /// its first steps; measured on Hanoi and Sokoban tasks, budgets above
    /// about a second bought longer builds but no shorter searches.
    pub fn within(time_limit: Option<Duration>) -> Self {
        let mut config = PdbConfig::default();
        if let Some(t) = time_limit {
            config.max_time_secs = (t.as_secs_f64() * 0.01).clamp(0.25, 30.0);
        }
        config
    }

    /// Small databases chosen by a fixed amount of work, so that they are
    /// the same on every machine; cheap enough to try first, and often
    /// enough on small tasks.
    pub fn probe() -> Self {
        PdbConfig {
            max_work: Some(PROBE_WORK),
            ..PdbConfig::default()
        }
    }
}

/// Selection work of [`PdbConfig::probe`].
const PROBE_WORK: u64 = 100_000;

/// One database: the distances of the abstract states of a pattern.
struct Table {
    pattern: Vec<Var>,
    mult: Vec<usize>,
    dist: Vec<u32>,
}

impl Table {
    fn lookup(&self, values: &[u32]) -> u32 {
        let rank: usize = self
            .pattern
            .iter()
            .zip(&self.mult)
            .map(|(&v, &m)| values[v as usize] as usize * m)
            .sum();
        self.dist[rank]
    }
}

/// Marks a fact of no used variable in [`PdbHeuristic::fact_value`].
const NOT_USED: Var = Var::MAX;

pub struct PdbHeuristic {
    /// Variables some pattern contains (their values are computed per state).
    used_vars: Vec<Var>,
    /// Value of each used variable when none of its facts is true.
    default_values: Vec<u32>,
    /// For every fact of a used variable, (variable, value); `NOT_USED` for
    /// the other facts. A state's values come from its true facts alone,
    /// without scanning each variable's facts.
    fact_value: Vec<(Var, u32)>,
    /// Value of every variable in the state being evaluated.
    values: Vec<u32>,
    /// One additive collection per cost-partitioning order.
    orders: Vec<Vec<Table>>,
    build_time: Duration,
}

impl PdbHeuristic {
    pub fn new(task: &Task, config: &PdbConfig) -> Self {
        let start = Instant::now();
        let budget = Duration::from_secs_f64(config.max_time_secs.max(0.0));
        let info = TaskInfo::new(task);
        let mut selection_budget = select::Budget::new(start + budget.mul_f64(0.6), config.max_work);
        let selected = select::select(&info, config, &mut selection_budget);
        let mut order_budget = select::Budget::new(start + budget, config.max_work);
        let orders = select::orders(&info, &selected, config, &mut order_budget);
        let mut h = Self::from_orders(info, orders);
        h.build_time = start.elapsed();
        h
    }

    /// Saturated cost partitioning over `patterns` in the given order.
    #[cfg(test)]
    fn with_patterns(task: &Task, patterns: &[Vec<Var>], max_pdb_size: usize) -> Self {
        let info = TaskInfo::new(task);
        let order = build_order(&info, patterns, max_pdb_size);
        Self::from_orders(info, vec![order])
    }

    fn from_orders(info: TaskInfo, orders: Vec<Vec<Table>>) -> Self {
        let mut used_vars: Vec<Var> = orders
            .iter()
            .flatten()
            .flat_map(|t| t.pattern.iter().copied())
            .collect();
        used_vars.sort_unstable();
        used_vars.dedup();
        let values = vec![0; info.vars.len()];
        let default_values = used_vars
            .iter()
            .map(|&v| {
                let var = &info.vars[v as usize];
                if var.has_none { var.facts.len() as u32 } else { 0 }
            })
            .collect();
        let mut fact_value = vec![(NOT_USED, 0); info.task.num_facts()];
        for &v in &used_vars {
            for (i, &f) in info.vars[v as usize].facts.iter().enumerate() {
                fact_value[f as usize] = (v, i as u32);
            }
        }
        PdbHeuristic {
            used_vars,
            default_values,
            fact_value,
            values,
            orders,
            build_time: Duration::ZERO,
        }
    }

    /// Patterns of the databases, per order (for reports and tests).
    #[cfg(test)]
    fn patterns(&self) -> Vec<Vec<Vec<Var>>> {
        self.orders
            .iter()
            .map(|o| o.iter().map(|t| t.pattern.clone()).collect())
            .collect()
    }
}

/// Builds the databases of `patterns` in order, each with the costs the
/// earlier ones did not need. Patterns too large to build are skipped.
fn build_order(info: &TaskInfo, patterns: &[Vec<Var>], max_pdb_size: usize) -> Vec<Table> {
    let mut costs: Vec<u64> = info.task.operators.iter().map(|o| o.cost as u64).collect();
    let mut tables = Vec::new();
    for (i, pattern) in patterns.iter().enumerate() {
        let Some(projection) = Projection::build(info, pattern, max_pdb_size) else {
            continue;
        };
        let dist = projection.distances(&costs);
        if i + 1 < patterns.len() {
            projection.subtract_saturated(&dist, &mut costs);
        }
        tables.push(Table {
            pattern: projection.pattern,
            mult: projection.mult,
            dist,
        });
    }
    tables
}

/// Sum of the tables' values; `None` if any says dead end.
fn additive_value(tables: &[Table], values: &[u32]) -> Option<u64> {
    let mut sum = 0u64;
    for t in tables {
        let d = t.lookup(values);
        if d == INFINITE {
            return None;
        }
        sum += d as u64;
    }
    Some(sum)
}

impl Heuristic for PdbHeuristic {
    fn name(&self) -> &str {
        PDB.name
    }

    fn evaluate(&mut self, state: &StateBits) -> Estimate {
        for (&v, &d) in self.used_vars.iter().zip(&self.default_values) {
            self.values[v as usize] = d;
        }
        // An exactly-one variable has one true fact in a reachable state; in
        // others any value will do (see `Variable::value`).
        let (fact_value, values) = (&self.fact_value, &mut self.values);
        crate::task::state::for_each_true(state, |f| {
            let (v, value) = fact_value[f];
            if v != NOT_USED {
                values[v as usize] = value;
            }
        });
        let mut best = 0;
        for order in &self.orders {
            best = best.max(additive_value(order, &self.values)?);
        }
        Some(best)
    }

    fn is_admissible(&self) -> bool {
        PDB.admissible
    }

    fn build_report(&self) -> Option<String> {
        let patterns: usize = self.orders.first().map_or(0, Vec::len);
        let states: usize = self.orders.iter().flatten().map(|t| t.dist.len()).sum();
        let largest = self.orders.iter().flatten().map(|t| t.pattern.len()).max().unwrap_or(0);
        Some(format!(
            "pdb: {patterns} patterns (up to {largest} variables) in {} cost-partitioning order(s), \
             {states} abstract states, {:.3}s",
            self.orders.len(),
            self.build_time.as_secs_f64()
        ))
    }
}
