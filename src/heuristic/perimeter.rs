//! Perimeter search: exact goal distances of every state near the goal,
//! found by a backward Dijkstra search from the goal states, combined with
//! an inner heuristic for the states farther away.
//!
//! When the backward search has settled every state with goal distance at
//! most `R`, a state outside that perimeter is more than `R` away, so
//! `h(s) = d(s)` inside and `h(s) = max(R + 1, h_inner(s))` outside is
//! admissible whenever the inner heuristic is, and A* only has to meet the
//! perimeter instead of reaching the goal. This is what a tight step bound
//! needs: with bound k the forward search stops at depth k - R - 1 and the
//! cheap backward search covers the rest.
//!
//! Backward search works on complete states, which needs two things from
//! the task's invariants (mutex groups):
//! - the goal states: every assignment of the finite-domain variables that
//!   satisfies the goal and all invariants (refused when there are too many);
//! - regression: a predecessor of `s'` under operator `o` agrees with `s'`
//!   outside `o`'s effects; effect facts that `o` does not require or forbid
//!   may have been true or false, and only the choices that satisfy every
//!   invariant group touched are kept. Every reachable state satisfies the
//!   invariants, so no reachable predecessor is lost; states that violate
//!   them are never generated, and the ones that are generated but cannot be
//!   reached from the initial state only cost memory: their distances are
//!   still true distances to a goal state.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::time::{Duration, Instant};

use super::{Estimate, Heuristic};
use crate::task::invariants;
use crate::task::registry::StateRegistry;
use crate::task::state::{StateBits, words_for};
use crate::task::{FactId, MutexGroup, OpId, Operator, Task};

/// Budgets of the backward search.
#[derive(Clone, Debug)]
pub struct PerimeterConfig {
    /// Most states the backward search stores.
    pub max_states: usize,
    pub max_time: Duration,
    /// Most complete goal states; tasks whose goal leaves more open are refused.
    pub max_goal_states: usize,
    /// Most effect facts of one operator whose earlier value is open.
    pub max_open_facts: usize,
    /// No need to look farther than this (e.g. the step bound).
    pub max_radius: Option<u64>,
}

impl Default for PerimeterConfig {
    fn default() -> Self {
        PerimeterConfig {
            max_states: 4_000_000,
            max_time: Duration::from_secs(20),
            max_goal_states: 100_000,
            max_open_facts: 12,
            max_radius: None,
        }
    }
}

/// Regression reads only unconditional effects and knows nothing of derived
/// facts: the perimeter handles neither conditional effects nor axioms.
pub const CONDITIONAL_EFFECTS: bool = false;
pub const AXIOMS: bool = false;

/// Why no perimeter could be built.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PerimeterError {
    #[error("the perimeter does not support {0}")]
    Unsupported(&'static str),
    #[error("the goal leaves more than {0} complete goal states")]
    TooManyGoalStates(usize),
    #[error("operator {0} leaves too many facts open for regression")]
    AmbiguousRegression(String),
}

/// Exact goal distances of all states within `radius` of the goal.
pub struct PerimeterTable {
    states: StateRegistry,
    /// Distance of each stored state; only values below `settled` are final.
    dist: Vec<u64>,
    /// Every state with goal distance below this is stored, with its exact
    /// distance (u64::MAX when the backward search ran to exhaustion).
    settled: u64,
    /// True when the backward search exhausted the whole space: every state
    /// not stored cannot reach the goal at all.
    exhausted: bool,
}

/// Invariant groups indexed by fact, for the checks of regression.
struct Invariants<'a> {
    groups: &'a [MutexGroup],
    of_fact: Vec<Vec<u32>>,
}

impl<'a> Invariants<'a> {
    fn new(task: &'a Task) -> Self {
        let groups = task.invariant_groups();
        let mut of_fact = vec![Vec::new(); task.num_facts()];
        for (i, g) in groups.iter().enumerate() {
            for &f in &g.facts {
                of_fact[f as usize].push(i as u32);
            }
        }
        Invariants { groups, of_fact }
    }

    /// Whether group `g` holds in `words`: at most one fact, exactly one if
    /// the group says so.
    fn holds(&self, g: u32, words: &[u64]) -> bool {
        let group = &self.groups[g as usize];
        let count = group.facts.iter().filter(|&&f| holds(words, f)).count();
        count <= 1 && (count == 1 || !group.exactly_one)
    }
}

#[inline]
fn holds(words: &[u64], f: FactId) -> bool {
    words[f as usize / 64] >> (f % 64) & 1 == 1
}

#[inline]
fn set(words: &mut [u64], f: FactId, value: bool) {
    let bit = 1u64 << (f % 64);
    if value {
        words[f as usize / 64] |= bit;
    } else {
        words[f as usize / 64] &= !bit;
    }
}

impl PerimeterTable {
    pub fn build(task: &Task, config: &PerimeterConfig) -> Result<Self, PerimeterError> {
        if let Some(feature) = super::unsupported_feature(CONDITIONAL_EFFECTS, AXIOMS, task) {
            return Err(PerimeterError::Unsupported(feature));
        }
        let start = Instant::now();
        let invariants = Invariants::new(task);
        let goals = goal_states(task, &invariants, config.max_goal_states)?;
        let regression = Regression::new(task, config.max_open_facts, &invariants)?;
        let mut scratch = Scratch::default();

        let mut states = StateRegistry::new(task.num_facts());
        let mut dist: Vec<u64> = Vec::new();
        let mut queue = BinaryHeap::new();
        for words in &goals {
            let (id, new) = states.insert(words);
            if new {
                dist.push(0);
                queue.push(Reverse((0u64, id)));
            }
        }
        let width = words_for(task.num_facts());
        let mut current = vec![0u64; width];
        let mut predecessors: Vec<Vec<u64>> = Vec::new();
        let mut settled = u64::MAX;
        let mut exhausted = true;
        let mut popped: u64 = 0;
        while let Some(Reverse((d, id))) = queue.pop() {
            crate::limits::checkpoint();
            if d > dist[id as usize] {
                continue;
            }
            let over_radius = config.max_radius.is_some_and(|r| d > r);
            let over_budget =
                states.len() >= config.max_states || (popped.is_multiple_of(1024) && start.elapsed() > config.max_time);
            if over_radius || over_budget {
                // Everything closer than d is settled (with zero-cost
                // operators, states at distance d may still be missing).
                settled = d;
                exhausted = false;
                break;
            }
            popped += 1;
            states.load(id, &mut current);
            regression.candidates(&current, &mut scratch.ops);
            for i in 0..scratch.ops.len() {
                let o = scratch.ops[i];
                let op = &task.operators[o as usize];
                regression.predecessors(o, op, &current, &invariants, &mut scratch, &mut predecessors);
                let nd = d + op.cost as u64;
                for p in predecessors.drain(..) {
                    let (pid, new) = states.insert(&p);
                    if new {
                        dist.push(nd);
                        queue.push(Reverse((nd, pid)));
                    } else if nd < dist[pid as usize] {
                        dist[pid as usize] = nd;
                        queue.push(Reverse((nd, pid)));
                    }
                }
            }
        }
        Ok(PerimeterTable {
            states,
            dist,
            settled,
            exhausted,
        })
    }

    /// All states with goal distance below this are stored, with exact
    /// distances; `u64::MAX` after an exhaustive backward search.
    pub fn settled(&self) -> u64 {
        self.settled
    }

    pub fn num_states(&self) -> usize {
        self.states.len()
    }

    /// The exact goal distance if the state is inside the perimeter; `Err`
    /// with the lower bound [`Self::settled`] otherwise, or `Ok(None)` when
    /// the backward search exhausted the space without meeting the state.
    pub fn lookup(&self, words: &[u64]) -> Result<Option<u64>, u64> {
        match self.states.find(words) {
            Some(id) if self.dist[id as usize] < self.settled || self.exhausted => Ok(Some(self.dist[id as usize])),
            _ if self.exhausted => Ok(None),
            _ => Err(self.settled),
        }
    }
}

/// Operators indexed for regression, by the rarest of their add facts.
struct Regression {
    start: Vec<u32>,
    by_add: Vec<OpId>,
    /// Operators without add effects.
    always: Vec<OpId>,
    /// Per operator: effect facts whose earlier value is open, and the
    /// invariant groups its effects touch.
    open: Vec<Vec<FactId>>,
    groups: Vec<Vec<u32>>,
}

/// Buffers reused by every regression step.
#[derive(Default)]
struct Scratch {
    ops: Vec<OpId>,
    base: Vec<u64>,
    candidate: Vec<u64>,
    after: Vec<u64>,
}

impl Regression {
    fn new(task: &Task, max_open: usize, inv: &Invariants) -> Result<Self, PerimeterError> {
        let n = task.num_facts();
        let mut uses = vec![0u32; n];
        for op in &task.operators {
            let open = op
                .add
                .iter()
                .chain(&op.del)
                .filter(|f| !op.pre.contains(f) && !op.pre_neg.contains(f))
                .count();
            if open > max_open {
                return Err(PerimeterError::AmbiguousRegression(op.name()));
            }
            for &f in &op.add {
                uses[f as usize] += 1;
            }
        }
        let mut watch = Vec::with_capacity(task.num_operators());
        let mut count = vec![0u32; n + 1];
        for op in &task.operators {
            let w = op.add.iter().copied().min_by_key(|&f| (uses[f as usize], f));
            if let Some(f) = w {
                count[f as usize] += 1;
            }
            watch.push(w);
        }
        let mut start = vec![0u32; n + 1];
        for f in 0..n {
            start[f + 1] = start[f] + count[f];
        }
        let mut fill = start.clone();
        let mut by_add = vec![0; start[n] as usize];
        let mut always = Vec::new();
        for (o, w) in watch.iter().enumerate() {
            match w {
                Some(f) => {
                    by_add[fill[*f as usize] as usize] = o as OpId;
                    fill[*f as usize] += 1;
                }
                None => always.push(o as OpId),
            }
        }
        let mut open_of = Vec::with_capacity(task.num_operators());
        let mut groups_of = Vec::with_capacity(task.num_operators());
        for op in &task.operators {
            let mut open: Vec<FactId> = Vec::new();
            for &f in op.add.iter().chain(&op.del) {
                if !op.pre.contains(&f) && !op.pre_neg.contains(&f) && !open.contains(&f) {
                    open.push(f);
                }
            }
            let mut groups: Vec<u32> = op
                .add
                .iter()
                .chain(&op.del)
                .flat_map(|&f| inv.of_fact[f as usize].iter().copied())
                .collect();
            groups.sort_unstable();
            groups.dedup();
            open_of.push(open);
            groups_of.push(groups);
        }
        Ok(Regression {
            start,
            by_add,
            always,
            open: open_of,
            groups: groups_of,
        })
    }

    /// Operators that may have produced `state` (one add fact true; the
    /// full test is in [`Self::predecessors`]).
    fn candidates(&self, state: &[u64], out: &mut Vec<OpId>) {
        out.clear();
        let n = self.start.len() - 1;
        for (wi, &word) in state.iter().enumerate() {
            let mut w = word;
            while w != 0 {
                let f = wi * 64 + w.trailing_zeros() as usize;
                w &= w - 1;
                if f >= n {
                    break;
                }
                out.extend_from_slice(&self.by_add[self.start[f] as usize..self.start[f + 1] as usize]);
            }
        }
        out.extend_from_slice(&self.always);
    }

    /// All invariant-respecting states from which operator `o` leads to `state`.
    fn predecessors(
        &self,
        o: OpId,
        op: &Operator,
        state: &[u64],
        inv: &Invariants,
        scratch: &mut Scratch,
        out: &mut Vec<Vec<u64>>,
    ) {
        // The successor must show the effects.
        if !op.add.iter().all(|&f| holds(state, f)) {
            return;
        }
        if op.del.iter().any(|&f| !op.add.contains(&f) && holds(state, f)) {
            return;
        }
        // Facts outside the effects keep their value, so conditions on them
        // are checked on the successor.
        let touched = |f: &FactId| op.add.contains(f) || op.del.contains(f);
        if op.pre.iter().any(|f| !touched(f) && !holds(state, *f))
            || op.pre_neg.iter().any(|f| !touched(f) && holds(state, *f))
        {
            return;
        }
        let open = &self.open[o as usize];
        let groups = &self.groups[o as usize];
        let base = &mut scratch.base;
        base.clear();
        base.extend_from_slice(state);
        for &f in op.add.iter().chain(&op.del) {
            // Required facts were true; forbidden and open ones start false.
            set(base, f, op.pre.contains(&f));
        }
        for mask in 0u32..(1u32 << open.len()) {
            let candidate = &mut scratch.candidate;
            candidate.clear();
            candidate.extend_from_slice(base);
            for (i, &f) in open.iter().enumerate() {
                if mask >> i & 1 == 1 {
                    set(candidate, f, true);
                }
            }
            if !groups.iter().all(|&g| inv.holds(g, candidate)) {
                continue;
            }
            // Replay forward: the candidate must really lead to `state`.
            let applicable =
                op.pre.iter().all(|&f| holds(candidate, f)) && !op.pre_neg.iter().any(|&f| holds(candidate, f));
            if !applicable {
                continue;
            }
            let after = &mut scratch.after;
            after.clear();
            after.extend_from_slice(candidate);
            for &f in &op.del {
                set(after, f, false);
            }
            for &f in &op.add {
                set(after, f, true);
            }
            if after[..] == state[..] {
                out.push(candidate.clone());
            }
        }
    }
}

/// Every complete state that satisfies the goal and all invariant groups,
/// as packed words; `Err` when there are more than `cap`.
fn goal_states(task: &Task, inv: &Invariants, cap: usize) -> Result<Vec<Vec<u64>>, PerimeterError> {
    let n = task.num_facts();
    // Decide the finite-domain variables, largest first, so that the
    // singleton (binary) facts come last, when the groups they share with
    // the larger variables already decide them.
    let mut variables = invariants::variables(task);
    variables.sort_by_key(|v| Reverse(v.facts.len()));
    // 0 = false, 1 = true, 2 = not decided yet.
    let mut value = vec![2u8; n];
    for &f in &task.goal {
        value[f as usize] = 1;
    }
    for &f in &task.goal_neg {
        if value[f as usize] == 1 {
            return Ok(Vec::new());
        }
        value[f as usize] = 0;
    }
    let mut out = Vec::new();
    let mut search = GoalSearch {
        inv,
        variables: &variables,
        cap,
        out: &mut out,
        nodes: 0,
    };
    if !search.dfs(0, &mut value) {
        return Err(PerimeterError::TooManyGoalStates(cap));
    }
    Ok(out)
}

struct GoalSearch<'a> {
    inv: &'a Invariants<'a>,
    variables: &'a [MutexGroup],
    cap: usize,
    out: &'a mut Vec<Vec<u64>>,
    nodes: usize,
}

impl GoalSearch<'_> {
    /// False when the cap was hit.
    fn dfs(&mut self, var: usize, value: &mut Vec<u8>) -> bool {
        self.nodes += 1;
        if self.nodes > self.cap.saturating_mul(64) {
            return false;
        }
        if var == self.variables.len() {
            if self.out.len() >= self.cap {
                return false;
            }
            let mut words = vec![0u64; words_for(value.len())];
            for (f, &v) in value.iter().enumerate() {
                if v == 1 {
                    set(&mut words, f as FactId, true);
                }
            }
            self.out.push(words);
            return true;
        }
        let facts = &self.variables[var].facts;
        let exactly_one = self.variables[var].exactly_one;
        // Options: make one fact of the variable true (the others false), or,
        // unless exactly one must hold, none.
        let saved: Vec<u8> = facts.iter().map(|&f| value[f as usize]).collect();
        let fixed_true: Vec<usize> = (0..facts.len()).filter(|&i| saved[i] == 1).collect();
        let mut options: Vec<Option<usize>> = Vec::new();
        match fixed_true.len() {
            0 => {
                options.extend((0..facts.len()).filter(|&i| saved[i] == 2).map(Some));
                if !exactly_one {
                    options.push(None);
                }
            }
            1 => options.push(Some(fixed_true[0])),
            _ => return true, // the goal itself breaks the invariant: no goal state here
        }
        for choice in options {
            for (i, &f) in facts.iter().enumerate() {
                value[f as usize] = u8::from(Some(i) == choice);
            }
            if self.consistent(facts, value) && !self.dfs(var + 1, value) {
                return false;
            }
        }
        for (i, &f) in facts.iter().enumerate() {
            value[f as usize] = saved[i];
        }
        true
    }

    /// Checks the invariant groups that touch `facts`: at most one true fact,
    /// and, once every fact of an exactly-one group is decided, exactly one.
    fn consistent(&self, facts: &[FactId], value: &[u8]) -> bool {
        for &f in facts {
            for &g in &self.inv.of_fact[f as usize] {
                let group = &self.inv.groups[g as usize];
                let (mut ones, mut open) = (0, 0);
                for &h in &group.facts {
                    match value[h as usize] {
                        1 => ones += 1,
                        2 => open += 1,
                        _ => {}
                    }
                }
                if ones > 1 || (group.exactly_one && ones == 0 && open == 0) {
                    return false;
                }
            }
        }
        true
    }
}

/// [`PerimeterTable`] distances inside, `max(radius + 1, inner)` outside.
pub struct PerimeterHeuristic {
    table: PerimeterTable,
    inner: Box<dyn Heuristic>,
    name: String,
    words: Vec<u64>,
}

impl PerimeterHeuristic {
    pub fn new(table: PerimeterTable, inner: Box<dyn Heuristic>) -> Self {
        let name = format!("perimeter[{}]", inner.name());
        PerimeterHeuristic {
            table,
            inner,
            name,
            words: Vec::new(),
        }
    }
}

impl Heuristic for PerimeterHeuristic {
    fn name(&self) -> &str {
        &self.name
    }

    fn evaluate(&mut self, state: &StateBits) -> Estimate {
        self.words.clear();
        self.words.resize(words_for(state.len()), 0);
        for f in state.iter_ones() {
            set(&mut self.words, f as FactId, true);
        }
        match self.table.lookup(&self.words) {
            Ok(exact) => exact,
            Err(lower) => self.inner.evaluate(state).map(|h| h.max(lower)),
        }
    }

    fn preferred_operators(&self) -> &[OpId] {
        self.inner.preferred_operators()
    }

    fn is_admissible(&self) -> bool {
        self.inner.is_admissible()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::heuristic::blind::Blind;
    use crate::rng::Lcg;
    use crate::task::testing::{perfect_costs, random_task};

    fn build(task: &Task, max_states: usize) -> PerimeterTable {
        let config = PerimeterConfig {
            max_states,
            ..PerimeterConfig::default()
        };
        PerimeterTable::build(task, &config).expect("small tasks have few goal states")
    }

    #[test]
    fn exhaustive_backward_search_gives_the_perfect_heuristic() {
        let mut rng = Lcg::new(7);
        for _ in 0..300 {
            let task = random_task(&mut rng, 6, 8);
            let table = build(&task, usize::MAX);
            let mut h = PerimeterHeuristic::new(build(&task, usize::MAX), Box::new(Blind::new(&task)));
            assert_eq!(table.settled(), u64::MAX, "nothing stops an exhaustive search");
            for (state, perfect) in perfect_costs(&task) {
                assert_eq!(h.evaluate(state.bits()), perfect, "reachable state of {task:?}");
            }
        }
    }

    #[test]
    fn a_small_perimeter_is_exact_inside_and_admissible_outside() {
        let mut rng = Lcg::new(11);
        let mut inside = 0;
        for _ in 0..300 {
            let task = random_task(&mut rng, 7, 10);
            let table = build(&task, 40);
            let settled = table.settled();
            let mut h = PerimeterHeuristic::new(table, Box::new(Blind::new(&task)));
            for (state, perfect) in perfect_costs(&task) {
                let value = h.evaluate(state.bits());
                match perfect {
                    Some(p) if p < settled => {
                        assert_eq!(value, Some(p), "settled {settled} state {state:?} task {task:?}");
                        inside += 1;
                    }
                    Some(p) => assert!(value.is_some_and(|v| v <= p), "{value:?} > {p}"),
                    None => {}
                }
            }
        }
        assert!(
            inside > 20,
            "the tests must reach states inside the perimeter: {inside}"
        );
    }

    #[test]
    fn astar_with_a_perimeter_finds_optimal_plans() {
        use crate::search::{Outcome, SearchConfig, search};
        let mut rng = Lcg::new(5);
        for _ in 0..200 {
            let task = random_task(&mut rng, 7, 10);
            let mut blind = Blind::new(&task);
            let (expected, _) = search(&task, &mut blind, None, &SearchConfig::default());
            let mut h = PerimeterHeuristic::new(build(&task, 5), Box::new(Blind::new(&task)));
            let (got, _) = search(&task, &mut h, None, &SearchConfig::default());
            match (expected, got) {
                (Outcome::Solved(a), Outcome::Solved(b)) => assert_eq!(task.plan_cost(&a), task.plan_cost(&b)),
                (a, b) => assert_eq!(a, b),
            }
        }
    }
}
