//! Automatic pattern selection: hill climbing over pattern collections,
//! judged on sample states from random walks.
//!
//! The collection starts with one pattern per goal variable. A step either
//! merges two patterns whose variables interact (an operator changing one
//! depends on or changes the other) or adds to a pattern a non-goal
//! variable its operators depend on. Each candidate pattern's database is
//! built with the full costs and scored by how much it raises the
//! collection's estimate on the samples; the best candidate is taken while
//! it helps and the budgets allow. A collection's estimate is its largest
//! sum over patterns no two of which an operator changes (any
//! cost-partitioning order that puts such a set first gives at least that
//! sum): a pattern that shares its operators with others, which cost
//! partitioning then splits, is not counted at its full-cost value. When
//! none helps, the samples are drawn again from longer walks (a few times):
//! walks as long as the goal variables' own estimate stay close to the
//! initial state when that estimate is far below the goal distance.
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

/// The collection the climb has reached: patterns, their full-cost
/// estimates on the samples, the operators changing each, which pairs
/// share none, and the collection's estimate on each sample
/// ([`best_additive_sum`]).
struct Collection {
    patterns: Vec<Vec<Var>>,
    h: Vec<Vec<u64>>,
    ops: Vec<Vec<u32>>,
    additive: Vec<Vec<bool>>,
    value: Vec<u64>,
}

impl Collection {
    fn new(patterns: Vec<Vec<Var>>, h: Vec<Vec<u64>>, ops: Vec<Vec<u32>>) -> Self {
        let mut collection = Collection {
            patterns: Vec::new(),
            h: Vec::new(),
            ops: Vec::new(),
            additive: Vec::new(),
            value: Vec::new(),
        };
        for ((p, h), ops) in patterns.into_iter().zip(h).zip(ops) {
            collection.push(p, h, ops);
        }
        collection.update_value();
        collection
    }

    /// The collection's estimate on the samples with the patterns at
    /// `replaced` (sorted) swapped for a pattern with estimates `h` and
    /// operators `ops`.
    fn value_with(&self, replaced: &[usize], h: &[u64], ops: &[u32]) -> Vec<u64> {
        let kept: Vec<usize> = (0..self.patterns.len())
            .filter(|i| replaced.binary_search(i).is_err())
            .collect();
        let row: Vec<bool> = kept.iter().map(|&k| disjoint(ops, &self.ops[k])).collect();
        let mut hs: Vec<&[u64]> = kept.iter().map(|&k| &self.h[k][..]).collect();
        hs.push(h);
        let mut additive: Vec<Vec<bool>> = (kept.iter().zip(&row))
            .map(|(&i, &new)| kept.iter().map(|&j| self.additive[i][j]).chain([new]).collect())
            .collect();
        additive.push(row.into_iter().chain([false]).collect());
        best_additive_sum(&hs, &additive)
    }

    fn replace(&mut self, replaced: &[usize], pattern: Vec<Var>, h: Vec<u64>, ops: Vec<u32>) {
        for &r in replaced.iter().rev() {
            self.patterns.remove(r);
            self.h.remove(r);
            self.ops.remove(r);
            self.additive.remove(r);
            for row in &mut self.additive {
                row.remove(r);
            }
        }
        self.push(pattern, h, ops);
        self.update_value();
    }

    /// Adds a pattern; `value` is left for [`Collection::update_value`].
    fn push(&mut self, pattern: Vec<Var>, h: Vec<u64>, ops: Vec<u32>) {
        let row: Vec<bool> = self.ops.iter().map(|o| disjoint(&ops, o)).collect();
        for (r, &a) in self.additive.iter_mut().zip(&row) {
            r.push(a);
        }
        self.additive.push(row.into_iter().chain([false]).collect());
        self.patterns.push(pattern);
        self.h.push(h);
        self.ops.push(ops);
    }

    fn update_value(&mut self) {
        let hs: Vec<&[u64]> = self.h.iter().map(Vec::as_slice).collect();
        self.value = best_additive_sum(&hs, &self.additive);
    }
}

/// Most sets of mutually additive patterns looked at per estimate; past it
/// the estimate is the best sum over those found (still admissible).
const MAX_CLIQUES: usize = 64;

/// Per sample, the largest sum of estimates `hs` over a set of patterns no
/// two of which share an operator (`ops`, sorted).
#[cfg(test)]
pub(super) fn canonical(hs: &[&[u64]], ops: &[&[u32]]) -> Vec<u64> {
    let h = hs.iter().map(|h| h.to_vec()).collect();
    let ops = ops.iter().map(|o| o.to_vec()).collect();
    Collection::new(vec![Vec::new(); hs.len()], h, ops).value
}

/// Per sample, the largest sum of estimates `hs` over a set of patterns
/// that are pairwise `additive`: the maximal such sets are the maximal
/// cliques of that graph. Dead ends stay capped at [`DEAD_END_SCORE`].
fn best_additive_sum(hs: &[&[u64]], additive: &[Vec<bool>]) -> Vec<u64> {
    let n = hs.len();
    let samples = hs.first().map_or(0, |h| h.len());
    let all_additive = (0..n).all(|i| (0..n).all(|j| i == j || additive[i][j]));
    let cliques = if all_additive {
        vec![(0..n).collect()]
    } else {
        let mut cliques = Vec::new();
        maximal_cliques(additive, Vec::new(), (0..n).collect(), Vec::new(), &mut cliques);
        cliques
    };
    let mut value = vec![0u64; samples];
    for clique in &cliques {
        for (s, v) in value.iter_mut().enumerate() {
            let sum: u64 = clique.iter().map(|&i| hs[i][s]).sum();
            *v = (*v).max(sum.min(DEAD_END_SCORE));
        }
    }
    value
}

/// Bron-Kerbosch with pivoting, stopping at [`MAX_CLIQUES`] cliques.
fn maximal_cliques(adj: &[Vec<bool>], r: Vec<usize>, p: Vec<usize>, x: Vec<usize>, out: &mut Vec<Vec<usize>>) {
    if out.len() >= MAX_CLIQUES {
        return;
    }
    if p.is_empty() && x.is_empty() {
        out.push(r);
        return;
    }
    let pivot = p.iter().chain(&x).copied().max_by_key(|&u| p.iter().filter(|&&v| adj[u][v]).count());
    let candidates: Vec<usize> = p
        .iter()
        .copied()
        .filter(|&v| pivot.is_none_or(|u| !adj[u][v]))
        .collect();
    let (mut p, mut x) = (p, x);
    for v in candidates {
        let mut r2 = r.clone();
        r2.push(v);
        let p2 = p.iter().copied().filter(|&w| adj[v][w]).collect();
        let x2 = x.iter().copied().filter(|&w| adj[v][w]).collect();
        maximal_cliques(adj, r2, p2, x2, out);
        p.retain(|&w| w != v);
        x.push(v);
    }
}

fn disjoint(a: &[u32], b: &[u32]) -> bool {
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => return false,
        }
    }
    true
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

    /// The collection of `patterns` judged on the current samples.
    fn collection(&mut self, patterns: Vec<Vec<Var>>) -> Collection {
        let samples = self.samples.len();
        let h: Vec<Vec<u64>> = patterns
            .iter()
            .map(|p| self.evaluate(p).map_or_else(|| vec![0; samples], |e| e.h.clone()))
            .collect();
        let ops: Vec<Vec<u32>> = patterns.iter().map(|p| self.info.ops_changing(p)).collect();
        Collection::new(patterns, h, ops)
    }

    /// How much swapping the patterns at `replaced` for `pattern` raises the
    /// collection's estimate on the samples; `None` when the pattern cannot
    /// be built (too large, or the budget is spent).
    fn gain(&mut self, collection: &Collection, replaced: &[usize], pattern: &[Var]) -> Option<u64> {
        let ops = self.info.ops_changing(pattern);
        let e = self.evaluate(pattern)?;
        let value = collection.value_with(replaced, &e.h, &ops);
        Some(gain_over(&value, |s| collection.value[s]))
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
    let mut collection = climber.collection(patterns);
    let mut cap = config.max_pdb_size.min(FIRST_CAP);
    loop {
        if climber.budget.spent() {
            break;
        }
        let patterns = collection.patterns.clone();
        let sizes: Vec<usize> = patterns
            .iter()
            .map(|p| climber.evaluate(p).map_or(0, |e| e.size))
            .collect();
        let total: usize = sizes.iter().sum();
        let mut best: Option<Candidate> = None;
        let mut extensions = Vec::new();
        for i in 0..patterns.len() {
            let related = climber.related_to_pattern(&patterns[i]);
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
                if let Some(gain) = climber.gain(&collection, &[i, j], &merged) {
                    consider(&mut best, gain, size, vec![i, j], merged);
                }
            }
            extensions.push((i, related));
        }
        // Merges first: they need no variable the collection lacks, and
        // while one helps, the larger set of extensions is not built.
        if best.is_none() {
            for (i, related) in extensions {
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
                    if let Some(gain) = climber.gain(&collection, &[i], &grown) {
                        consider(&mut best, gain, size, vec![i], grown);
                    }
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
                collection = climber.collection(patterns);
                cap = config.max_pdb_size.min(FIRST_CAP);
                continue;
            }
            break;
        };
        let samples = climber.samples.len();
        let h = climber.evaluate(&pattern).map_or_else(|| vec![0; samples], |e| e.h.clone());
        let ops = info.ops_changing(&pattern);
        collection.replace(&replaced, pattern, h, ops);
    }
    let patterns = collection.patterns;
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
        for o in info.ops_changing(p) {
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

