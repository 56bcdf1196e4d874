//! Automatic pattern selection: hill climbing over pattern collections,
//! judged on sample states from random walks.
//!
//! The collection starts with one pattern per goal variable. A step either
//! merges two patterns whose variables interact (an operator changing one
//! depends on or changes the other) or adds to a pattern a non-goal
//! variable its operators depend on. Each candidate pattern's database is
//! built with the full costs and scored by how much it raises the estimate
//! on the samples over the patterns it replaces; the best candidate is
//! taken while it helps and the budgets allow. When none helps, the
//! samples are drawn again from longer walks (a few times): walks as long
//! as the goal variables' own estimate stay close to the initial state
//! when that estimate is far below the goal distance.
//!
//! Building a candidate's database is what climbing costs, so small
//! candidates come first: the size limit starts at [`FIRST_CAP`] and grows
//! only when no candidate below it helps, and a candidate must raise a
//! share of the samples, not just a few. Most of the gain comes from the
//! first cheap steps; long climbs of tiny gains cost seconds and saved
//! little search on the tasks measured.

use std::collections::HashMap;
use std::time::Instant;

use super::projection::{INFINITE, Projection, TaskInfo, Var};
use super::{PdbConfig, Table, additive_value, build_order};
use crate::rng::Rng;

/// Stand-in for an infinite estimate when scoring: proving a sample a dead
/// end is worth a lot, but sums must stay finite.
const DEAD_END_SCORE: u64 = 1_000_000;
/// Largest candidate pattern while climbing starts; raised by
/// [`CAP_GROWTH`] whenever no candidate below it helps.
const FIRST_CAP: usize = 10_000;
const CAP_GROWTH: usize = 10;
/// Share of the samples a step must raise.
const MIN_IMPROVED_SHARE: f64 = 0.05;
/// Most sample states.
const MAX_SAMPLES: usize = 200;
/// Most operator applicability checks spent on random walks.
const MAX_WALK_WORK: usize = 200_000_000;
/// Times the samples are drawn again, from walks [`RESAMPLE_GROWTH`] times
/// longer, when no candidate helps on them.
const MAX_RESAMPLES: usize = 2;
const RESAMPLE_GROWTH: u64 = 3;
/// Most cost-partitioning orders kept.
const MAX_ORDERS: usize = 4;
/// Most cost-partitioning orders tried.
const MAX_ORDER_ATTEMPTS: usize = 8;

/// What selection and ordering may spend: a wall-clock deadline and,
/// optionally, a cap on [`Projection::work`] summed over the databases
/// built. The cap stops at the same point on every machine.
pub struct Budget {
    pub deadline: Instant,
    pub max_work: Option<u64>,
    work: u64,
}

impl Budget {
    pub fn new(deadline: Instant, max_work: Option<u64>) -> Self {
        Budget {
            deadline,
            max_work,
            work: 0,
        }
    }

    fn spent(&self) -> bool {
        self.max_work.is_some_and(|m| self.work >= m) || Instant::now() >= self.deadline
    }

    fn charge(&mut self, work: u64) {
        self.work = self.work.saturating_add(work);
    }
}

/// The chosen patterns and the samples they were judged on.
pub struct Selection {
    pub patterns: Vec<Vec<Var>>,
    samples: Vec<Vec<u32>>,
    /// Sum over the samples of each pattern's own estimate.
    scores: Vec<u64>,
}

/// A pattern's database built with the full costs, seen on the samples.
struct Evaluated {
    size: usize,
    /// Estimate per sample, dead ends as [`DEAD_END_SCORE`].
    h: Vec<u64>,
}

struct Climber<'i, 'a> {
    info: &'i TaskInfo<'a>,
    config: &'i PdbConfig,
    full_costs: Vec<u64>,
    samples: Vec<Vec<u32>>,
    cache: HashMap<Vec<Var>, Option<Evaluated>>,
    /// Variables each variable's operators depend on or change.
    related: HashMap<Var, Vec<Var>>,
    budget: &'i mut Budget,
}

impl<'i, 'a> Climber<'i, 'a> {
    fn evaluate(&mut self, pattern: &[Var]) -> Option<&Evaluated> {
        if !self.cache.contains_key(pattern) {
            if self.budget.spent() {
                return None;
            }
            let budget = &mut *self.budget;
            let evaluated = Projection::build(self.info, pattern, self.config.max_pdb_size).map(|p| {
                budget.charge(p.work());
                let dist = p.distances(&self.full_costs);
                let h = self
                    .samples
                    .iter()
                    .map(|s| match dist[p.rank(s)] {
                        INFINITE => DEAD_END_SCORE,
                        d => (d as u64).min(DEAD_END_SCORE),
                    })
                    .collect();
                Evaluated { size: p.num_states, h }
            });
            self.cache.insert(pattern.to_vec(), evaluated);
        }
        self.cache.get(pattern).and_then(|e| e.as_ref())
    }

    fn related(&mut self, v: Var) -> &[Var] {
        let info = self.info;
        self.related.entry(v).or_insert_with(|| {
            let mut vs: Vec<Var> = info.ops_affecting[v as usize]
                .iter()
                .flat_map(|&o| info.op_vars(o as usize))
                .collect();
            vs.sort_unstable();
            vs.dedup();
            vs
        })
    }

    fn related_to_pattern(&mut self, pattern: &[Var]) -> Vec<Var> {
        let mut vs: Vec<Var> = Vec::new();
        for &v in pattern {
            vs.extend_from_slice(self.related(v));
        }
        vs.sort_unstable();
        vs.dedup();
        vs.retain(|v| pattern.binary_search(v).is_err());
        vs
    }
}

fn union(a: &[Var], b: &[Var]) -> Vec<Var> {
    let mut u: Vec<Var> = a.iter().chain(b).copied().collect();
    u.sort_unstable();
    u.dedup();
    u
}

/// Chooses patterns within the size limits of `config` and the budget.
pub fn select(info: &TaskInfo, config: &PdbConfig, budget: &mut Budget) -> Selection {
    let full_costs: Vec<u64> = info.task.operators.iter().map(|o| o.cost as u64).collect();
    let mut climber = Climber {
        info,
        config,
        full_costs,
        samples: vec![initial_values(info)],
        cache: HashMap::new(),
        related: HashMap::new(),
        budget,
    };
    let mut patterns: Vec<Vec<Var>> = Vec::new();
    let mut total = 0usize;
    for &v in &info.goal_vars {
        let Some(size) = info.pattern_size(&[v], config.max_pdb_size) else {
            continue;
        };
        if total + size <= config.max_total_size {
            total += size;
            patterns.push(vec![v]);
        }
    }
    // The walks' length is set from the singletons' estimate of the initial
    // state, so evaluate those on the initial state alone first.
    let mut h0 = 0u64;
    for p in &patterns {
        if let Some(e) = climber.evaluate(p) {
            h0 += e.h[0].min(DEAD_END_SCORE);
        }
    }
    climber.samples = random_walk_samples(info, h0);
    climber.cache.clear();
    let (mut walk_estimate, mut resamples) = (h0.max(1), 0);

    let is_goal_var = |v: Var| info.goal_vars.binary_search(&v).is_ok();
    let mut cap = config.max_pdb_size.min(FIRST_CAP);
    loop {
        if climber.budget.spent() {
            break;
        }
        let sizes: Vec<usize> = patterns
            .iter()
            .map(|p| climber.evaluate(p).map_or(0, |e| e.size))
            .collect();
        let total: usize = sizes.iter().sum();
        let mut best: Option<Candidate> = None;
        let mut extensions = Vec::new();
        for i in 0..patterns.len() {
            let related = climber.related_to_pattern(&patterns[i]);
            let base_i: Vec<u64> = match climber.evaluate(&patterns[i]) {
                Some(e) => e.h.clone(),
                None => continue,
            };
            for j in i + 1..patterns.len() {
                if !patterns[j].iter().any(|v| related.binary_search(v).is_ok()) {
                    continue;
                }
                let merged = union(&patterns[i], &patterns[j]);
                let Some(size) = info.pattern_size(&merged, cap) else {
                    continue;
                };
                if total - sizes[i] - sizes[j] + size > config.max_total_size {
                    continue;
                }
                let base_j = match climber.evaluate(&patterns[j]) {
                    Some(e) => e.h.clone(),
                    None => continue,
                };
                let Some(e) = climber.evaluate(&merged) else {
                    continue;
                };
                let gain = gain_over(&e.h, |s| (base_i[s] + base_j[s]).min(DEAD_END_SCORE));
                consider(&mut best, gain, size, vec![i, j], merged);
            }
            extensions.push((i, related, base_i));
        }
        // Extensions with a non-goal variable are judged against the
        // pattern alone, though their operators are then shared with other
        // patterns; merges have no such hidden cost, so they go first.
        if best.is_none() {
            for (i, related, base_i) in extensions {
                for &v in &related {
                    if is_goal_var(v) {
                        continue;
                    }
                    let grown = union(&patterns[i], &[v]);
                    let Some(size) = info.pattern_size(&grown, cap) else {
                        continue;
                    };
                    if total - sizes[i] + size > config.max_total_size {
                        continue;
                    }
                    let Some(e) = climber.evaluate(&grown) else {
                        continue;
                    };
                    let gain = gain_over(&e.h, |s| base_i[s]);
                    consider(&mut best, gain, size, vec![i], grown);
                }
            }
        }
        let Some((_, _, replaced, pattern)) = best else {
            if cap < config.max_pdb_size {
                cap = cap.saturating_mul(CAP_GROWTH).min(config.max_pdb_size);
                continue;
            }
            // The walks' length came from an estimate that may be far below
            // the goal distance; samples that close to the initial state
            // may show none of the interactions a larger pattern captures.
            if resamples < MAX_RESAMPLES {
                resamples += 1;
                walk_estimate = walk_estimate.saturating_mul(RESAMPLE_GROWTH);
                climber.samples = random_walk_samples(info, walk_estimate);
                climber.cache.clear();
                cap = config.max_pdb_size.min(FIRST_CAP);
                continue;
            }
            break;
        };
        for &r in replaced.iter().rev() {
            patterns.remove(r);
        }
        patterns.push(pattern);
    }
    let scores = patterns
        .iter()
        .map(|p| climber.evaluate(p).map_or(0, |e| e.h.iter().sum()))
        .collect();
    Selection {
        patterns,
        samples: climber.samples,
        scores,
    }
}

type Candidate = (u64, usize, Vec<usize>, Vec<Var>);

/// Keeps the candidate (gain, size, replaced patterns, new pattern) with the
/// largest positive gain, the smaller on ties.
fn consider(best: &mut Option<Candidate>, gain: u64, size: usize, replaced: Vec<usize>, pattern: Vec<Var>) {
    if gain > 0 && best.as_ref().is_none_or(|b| gain > b.0 || (gain == b.0 && size < b.1)) {
        *best = Some((gain, size, replaced, pattern));
    }
}

/// How much `new` raises the estimate summed over the samples, where
/// `old(s)` is the estimate it replaces on sample `s`.
/// A candidate that raises fewer than [`MIN_IMPROVED_SHARE`] of the
/// samples gains nothing: small gains cost as much to build as large ones.
fn gain_over(new: &[u64], old: impl Fn(usize) -> u64) -> u64 {
    let (mut up, mut down, mut improved) = (0u64, 0u64, 0usize);
    for (s, &h) in new.iter().enumerate() {
        let o = old(s);
        if h > o {
            up += h - o;
            improved += 1;
        } else {
            down += o - h;
        }
    }
    if (improved as f64) < MIN_IMPROVED_SHARE * new.len() as f64 {
        return 0;
    }
    up.saturating_sub(down)
}

/// Cost-partitioning orders over the selected patterns: the most
/// informative patterns first, then shuffled orders while they improve the
/// estimate on some sample and the budgets allow.
pub fn orders(info: &TaskInfo, selection: &Selection, config: &PdbConfig, budget: &mut Budget) -> Vec<Vec<Table>> {
    let mut order: Vec<usize> = (0..selection.patterns.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(selection.scores[i]));
    let pick = |order: &[usize]| -> Vec<Vec<Var>> { order.iter().map(|&i| selection.patterns[i].clone()).collect() };
    let first = build_order(info, &pick(&order), config.max_pdb_size);
    let size_of = |tables: &[Table]| tables.iter().map(|t| t.dist.len()).sum::<usize>();
    let mut stored = size_of(&first);
    let mut best: Vec<u64> = selection
        .samples
        .iter()
        .map(|s| additive_value(&first, s).unwrap_or(u64::MAX))
        .collect();
    let mut result = vec![first];
    if !operators_shared(info, &selection.patterns) {
        // Disjoint operator sets: every order gives the same sum.
        return result;
    }
    let mut rng = Rng::new(0x9e37_79b9_7f4a_7c15);
    for _ in 0..MAX_ORDER_ATTEMPTS {
        if result.len() >= MAX_ORDERS || budget.spent() || stored * 2 > config.max_total_size.max(stored) {
            break;
        }
        rng.shuffle(&mut order);
        let tables = build_order(info, &pick(&order), config.max_pdb_size);
        budget.charge(size_of(&tables) as u64);
        let values: Vec<u64> = selection
            .samples
            .iter()
            .map(|s| additive_value(&tables, s).unwrap_or(u64::MAX))
            .collect();
        if values.iter().zip(&best).any(|(v, b)| v > b) {
            for (b, v) in best.iter_mut().zip(&values) {
                *b = (*b).max(*v);
            }
            stored += size_of(&tables);
            result.push(tables);
        }
    }
    result
}

/// True when some operator changes variables of two different patterns.
fn operators_shared(info: &TaskInfo, patterns: &[Vec<Var>]) -> bool {
    let mut owner: Vec<Option<usize>> = vec![None; info.task.num_operators()];
    for (i, p) in patterns.iter().enumerate() {
        let mut ops: Vec<u32> = p
            .iter()
            .flat_map(|&v| info.ops_affecting[v as usize].iter().copied())
            .collect();
        ops.sort_unstable();
        ops.dedup();
        for o in ops {
            if owner[o as usize].is_some() {
                return true;
            }
            owner[o as usize] = Some(i);
        }
    }
    false
}

fn initial_values(info: &TaskInfo) -> Vec<u32> {
    let init = info.task.initial_state();
    info.vars.iter().map(|v| v.value(init.bits())).collect()
}

/// The initial state and the ends of random walks from it, of lengths up to
/// twice the estimated plan length in steps.
fn random_walk_samples(info: &TaskInfo, h0: u64) -> Vec<Vec<u32>> {
    let task = info.task;
    let useful: Vec<usize> = (0..task.num_operators()).filter(|&o| !info.useless[o]).collect();
    let mut samples = vec![initial_values(info)];
    if useful.is_empty() {
        return samples;
    }
    let total_cost: u64 = useful.iter().map(|&o| task.operators[o].cost as u64).sum();
    let mean_cost = (total_cost as f64 / useful.len() as f64).max(1.0);
    let length = ((h0 as f64 / mean_cost).ceil() as usize).clamp(1, 1000);
    let walks = (MAX_WALK_WORK / (useful.len() * 2 * length)).clamp(1, MAX_SAMPLES);
    let mut rng = Rng::new(0x2545_f491_4f6c_dd1d);
    let mut state = task.initial_state();
    let mut next = state.clone();
    let mut applicable = Vec::new();
    for _ in 0..walks {
        state.clone_from(&task.initial_state());
        let steps = rng.below_usize(2 * length + 1);
        for _ in 0..steps {
            applicable.clear();
            applicable.extend(
                useful
                    .iter()
                    .copied()
                    .filter(|&o| task.operators[o].is_applicable(state.bits())),
            );
            if applicable.is_empty() {
                break;
            }
            let o = applicable[rng.below_usize(applicable.len())];
            task.apply_into(&task.operators[o], state.bits(), next.bits_mut());
            std::mem::swap(&mut state, &mut next);
        }
        samples.push(info.vars.iter().map(|v| v.value(state.bits())).collect());
    }
    samples
}

