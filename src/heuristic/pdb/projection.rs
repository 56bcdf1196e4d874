//! Projections of the task onto patterns of finite-domain variables and
//! their goal distances.
//!
//! Variables are the mutex groups of [`crate::task::invariants::variables`]:
//! value `i` of a variable is "fact `i` of the group holds", and a group
//! that is only at-most-one has an extra last value "none of them". Every
//! concrete transition between reachable states maps to an abstract
//! transition (or a self-loop), so abstract goal distances never
//! overestimate.
//!
//! The verified invariants make projections sharper without losing that
//! property: an operator never applies in a reachable state where a fact
//! mutex with one of its preconditions holds, abstract states that combine
//! two mutex facts are images of no reachable state, and an operator that
//! would leave two facts of a group true (or empty an exactly-one group)
//! never applies there either. All such transitions are left out.

use std::collections::BinaryHeap;

use rustc_hash::FxHashMap;

use crate::task::invariants::{MutexTable, variables};
use crate::task::state::StateBits;
use crate::task::{CondEffect, FactId, MutexGroup, Task};

/// Distance of an abstract state from which no abstract goal is reachable.
pub const INFINITE: u32 = u32::MAX;

/// Most reverse edges one projection may store (8 bytes each).
const MAX_EDGES: usize = 40_000_000;

/// Variable index.
pub type Var = u32;

pub struct Variable {
    pub facts: Vec<FactId>,
    /// The group is only at-most-one: value `facts.len()` means none holds.
    pub has_none: bool,
}

impl Variable {
    pub fn domain(&self) -> usize {
        self.facts.len() + self.has_none as usize
    }

    /// The value of the variable in `state`. A state where an exactly-one
    /// group is empty is unreachable; any value will do there.
    pub fn value(&self, state: &StateBits) -> u32 {
        for (i, &f) in self.facts.iter().enumerate() {
            if state[f as usize] {
                return i as u32;
            }
        }
        if self.has_none { self.facts.len() as u32 } else { 0 }
    }
}

/// The task seen through its variables and invariants, shared by all
/// projections.
pub struct TaskInfo<'a> {
    pub task: &'a Task,
    pub vars: Vec<Variable>,
    /// Variable and value of every fact.
    pub fact_var: Vec<(Var, u32)>,
    /// Verified invariant groups (sorted facts each).
    groups: &'a [MutexGroup],
    /// Indices into `groups` of the groups containing each fact.
    fact_groups: Vec<Vec<u32>>,
    /// Operators that apply in no reachable state (they require or would
    /// produce two mutex facts).
    pub useless: Vec<bool>,
    /// Operators changing each variable.
    pub ops_affecting: Vec<Vec<u32>>,
    /// Variables whose value a goal fact or negated goal fact constrains.
    pub goal_vars: Vec<Var>,
}

impl<'a> TaskInfo<'a> {
    pub fn new(task: &'a Task) -> Self {
        let groups = task.invariant_groups();
        let var_groups = variables(task);
        let mut fact_var = vec![(0, 0); task.num_facts()];
        let vars: Vec<Variable> = var_groups
            .into_iter()
            .enumerate()
            .map(|(v, g)| {
                for (i, &f) in g.facts.iter().enumerate() {
                    fact_var[f as usize] = (v as Var, i as u32);
                }
                Variable {
                    facts: g.facts,
                    has_none: !g.exactly_one,
                }
            })
            .collect();
        let mut fact_groups = vec![Vec::new(); task.num_facts()];
        for (gi, g) in groups.iter().enumerate() {
            for &f in &g.facts {
                fact_groups[f as usize].push(gi as u32);
            }
        }
        let mut info = TaskInfo {
            task,
            vars,
            fact_var,
            groups,
            fact_groups,
            useless: Vec::new(),
            ops_affecting: Vec::new(),
            goal_vars: Vec::new(),
        };
        let table = MutexTable::new(task.num_facts(), info.groups);
        info.useless = task.operators.iter().map(|op| table.never_applies(op)).collect();
        let mut ops_affecting = vec![Vec::new(); info.vars.len()];
        for (o, op) in task.operators.iter().enumerate() {
            if info.useless[o] {
                continue;
            }
            let mut vs: Vec<Var> = op.changes().map(|&f| info.fact_var[f as usize].0).collect();
            vs.sort_unstable();
            vs.dedup();
            for v in vs {
                ops_affecting[v as usize].push(o as u32);
            }
        }
        info.ops_affecting = ops_affecting;
        let mut goal_vars: Vec<Var> = task
            .goal
            .iter()
            .chain(&task.goal_neg)
            .map(|&f| info.fact_var[f as usize].0)
            .collect();
        goal_vars.sort_unstable();
        goal_vars.dedup();
        info.goal_vars = goal_vars;
        info
    }

    pub fn mutex(&self, a: FactId, b: FactId) -> bool {
        a != b
            && self.fact_groups[a as usize]
                .iter()
                .any(|&g| self.groups[g as usize].facts.binary_search(&b).is_ok())
    }

    /// Facts that cannot hold together with `f` (excluding `f`).
    fn mutex_partners(&self, f: FactId) -> impl Iterator<Item = FactId> + '_ {
        self.fact_groups[f as usize]
            .iter()
            .flat_map(move |&g| self.groups[g as usize].facts.iter().copied())
            .filter(move |&q| q != f)
    }

    /// Variables an operator's applicability depends on, including those
    /// holding facts mutex with its preconditions, and those it changes.
    pub fn op_vars(&self, o: usize) -> Vec<Var> {
        let op = &self.task.operators[o];
        let mut vs: Vec<Var> = (op.conditions().chain(op.changes()))
            .map(|&f| self.fact_var[f as usize].0)
            .collect();
        for &p in &op.pre {
            vs.extend(self.mutex_partners(p).map(|q| self.fact_var[q as usize].0));
        }
        vs.sort_unstable();
        vs.dedup();
        vs
    }

    /// Operators changing a variable of the pattern (sorted).
    pub fn ops_changing(&self, pattern: &[Var]) -> Vec<u32> {
        let mut ops: Vec<u32> = pattern
            .iter()
            .flat_map(|&v| self.ops_affecting[v as usize].iter().copied())
            .collect();
        ops.sort_unstable();
        ops.dedup();
        ops
    }

    /// Number of abstract states of a pattern, `None` above `limit`.
    pub fn pattern_size(&self, pattern: &[Var], limit: usize) -> Option<usize> {
        let mut size = 1usize;
        for &v in pattern {
            size = size.checked_mul(self.vars[v as usize].domain())?;
            if size > limit {
                return None;
            }
        }
        Some(size)
    }
}

/// An abstract operator: the concrete operators with identical transitions.
struct AbstractOp {
    /// Per pattern variable, the (old, new) value pairs it allows.
    moves: Vec<Vec<(u32, u32)>>,
    concrete: Vec<u32>,
}

/// The abstract transition system of one pattern, stored as reverse edges.
pub struct Projection {
    pub pattern: Vec<Var>,
    /// Rank multiplier of each pattern variable.
    pub mult: Vec<usize>,
    pub num_states: usize,
    ops: Vec<AbstractOp>,
    goal: Vec<bool>,
    /// `edge_start[t]..edge_start[t + 1]` index the edges into state `t`.
    edge_start: Vec<usize>,
    /// (source state, abstract operator).
    edges: Vec<(u32, u32)>,
}

impl Projection {
    /// A machine-independent measure of what building and searching this
    /// projection costs: operators abstracted, states and edges.
    pub fn work(&self) -> u64 {
        (self.ops.iter().map(|a| a.concrete.len()).sum::<usize>() + self.num_states + self.edges.len()) as u64
    }
}

impl Projection {
    /// Builds the projection onto `pattern` (sorted, distinct variables);
    /// `None` when it has more than `max_states` states or too many edges.
    pub fn build(info: &TaskInfo, pattern: &[Var], max_states: usize) -> Option<Projection> {
        let num_states = info.pattern_size(pattern, max_states.min(u32::MAX as usize))?;
        let vars: Vec<&Variable> = pattern.iter().map(|&v| &info.vars[v as usize]).collect();
        let mut mult = Vec::with_capacity(pattern.len());
        let mut m = 1usize;
        for v in &vars {
            mult.push(m);
            m *= v.domain();
        }
        // Position of each variable in the pattern (a dense table: it is
        // looked up for every precondition's mutex partners of every operator).
        let mut position: Vec<Option<usize>> = vec![None; info.vars.len()];
        for (i, &v) in pattern.iter().enumerate() {
            position[v as usize] = Some(i);
        }
        let enumerator = Enumerator::new(info, &vars, mult.clone());
        let goal = goal_states(info, &position, &vars, num_states, &enumerator);

        let relevant = info.ops_changing(pattern);
        let mut ops: Vec<AbstractOp> = Vec::new();
        let mut by_moves: FxHashMap<Vec<Vec<(u32, u32)>>, usize> = FxHashMap::default();
        for o in relevant {
            for moves in abstract_moves(info, o as usize, &position, &vars) {
                match by_moves.get(&moves) {
                    // Two ways of one operator may move alike.
                    Some(&a) if ops[a].concrete.last() == Some(&o) => {}
                    Some(&a) => ops[a].concrete.push(o),
                    None => {
                        by_moves.insert(moves.clone(), ops.len());
                        ops.push(AbstractOp {
                            moves,
                            concrete: vec![o],
                        });
                    }
                }
            }
        }

        // (target, source, operator), then bucketed by target.
        let mut found: Vec<(u32, u32, u32)> = Vec::new();
        for (a, op) in ops.iter().enumerate() {
            crate::limits::checkpoint();
            enumerator.for_each(&op.moves, |s, t| {
                if s != t {
                    found.push((t as u32, s as u32, a as u32));
                }
            });
            if found.len() > MAX_EDGES {
                return None;
            }
        }
        let mut edge_start = vec![0usize; num_states + 1];
        for &(t, _, _) in &found {
            edge_start[t as usize + 1] += 1;
        }
        for t in 0..num_states {
            edge_start[t + 1] += edge_start[t];
        }
        let mut fill = edge_start.clone();
        let mut edges = vec![(0u32, 0u32); found.len()];
        for (t, s, a) in found {
            edges[fill[t as usize]] = (s, a);
            fill[t as usize] += 1;
        }
        Some(Projection {
            pattern: pattern.to_vec(),
            mult,
            num_states,
            ops,
            goal,
            edge_start,
            edges,
        })
    }

    /// Goal distances with the given concrete operator costs, by Dijkstra
    /// backwards from the abstract goal states.
    pub fn distances(&self, costs: &[u64]) -> Vec<u32> {
        let op_cost: Vec<u64> = self
            .ops
            .iter()
            .map(|a| a.concrete.iter().map(|&o| costs[o as usize]).min().unwrap_or(0))
            .collect();
        let mut dist = vec![INFINITE; self.num_states];
        let mut heap = BinaryHeap::new();
        for (s, &g) in self.goal.iter().enumerate() {
            if g {
                dist[s] = 0;
                heap.push(std::cmp::Reverse((0u64, s as u32)));
            }
        }
        while let Some(std::cmp::Reverse((d, t))) = heap.pop() {
            crate::limits::checkpoint();
            if (dist[t as usize] as u64) < d {
                continue;
            }
            let t = t as usize;
            for &(s, a) in &self.edges[self.edge_start[t]..self.edge_start[t + 1]] {
                // Saturating below INFINITE keeps the value a lower bound.
                let nd = (d + op_cost[a as usize]).min(INFINITE as u64 - 1);
                if nd < dist[s as usize] as u64 {
                    dist[s as usize] = nd as u32;
                    heap.push(std::cmp::Reverse((nd, s)));
                }
            }
        }
        dist
    }

    /// Lowers `costs` by the costs `dist` needs (the saturated cost of each
    /// operator: the most any of its transitions drops the distance), so
    /// that later abstractions only get what this one does not use.
    pub fn subtract_saturated(&self, dist: &[u32], costs: &mut [u64]) {
        let mut needed = vec![0u64; self.ops.len()];
        for t in 0..self.num_states {
            let dt = dist[t];
            if dt == INFINITE {
                continue;
            }
            for &(s, a) in &self.edges[self.edge_start[t]..self.edge_start[t + 1]] {
                let ds = dist[s as usize];
                if ds != INFINITE && ds > dt {
                    let drop = (ds - dt) as u64;
                    let n = &mut needed[a as usize];
                    *n = (*n).max(drop);
                }
            }
        }
        // An operator with conditional effects may stand behind several
        // abstract operators: it gives up the most any of them needs.
        let mut by_concrete: FxHashMap<u32, u64> = FxHashMap::default();
        for (op, &n) in self.ops.iter().zip(&needed) {
            for &o in &op.concrete {
                let most = by_concrete.entry(o).or_default();
                *most = (*most).max(n);
            }
        }
        for (o, n) in by_concrete {
            let c = &mut costs[o as usize];
            *c = c.saturating_sub(n);
        }
    }

    /// Rank of the abstract state of a concrete state, given the values of
    /// all variables.
    pub fn rank(&self, values: &[u32]) -> usize {
        self.pattern
            .iter()
            .zip(&self.mult)
            .map(|(&v, &m)| values[v as usize] as usize * m)
            .sum()
    }
}

/// Most conditional effects on the pattern an operator may have for its
/// abstract operators to follow each combination of them that fires; with
/// more, one abstract operator lets each of them fire or not on its own.
const MAX_EXACT_EFFECTS: usize = 4;

/// Per pattern variable, the (old, new) value pairs of one abstract
/// operator.
type Moves = Vec<Vec<(u32, u32)>>;

/// The ways operator `o` moves the pattern variables, one per combination
/// of its conditional effects on the pattern that may fire together (with
/// their conditions as preconditions); none when it changes no pattern
/// variable or applies in no reachable state. An operator with more than
/// [`MAX_EXACT_EFFECTS`] such effects gets one way instead, that requires
/// only its own preconditions and lets each effect fire or not.
fn abstract_moves(info: &TaskInfo, o: usize, position: &[Option<usize>], vars: &[&Variable]) -> Vec<Moves> {
    if info.useless[o] {
        return Vec::new();
    }
    let op = &info.task.operators[o];
    let on_pattern = |f: &FactId| position[info.fact_var[*f as usize].0 as usize].is_some();
    let effects: Vec<&CondEffect> = (op.cond_effects.iter())
        .filter(|e| e.add.iter().chain(&e.del).any(on_pattern))
        .collect();
    let base = Part {
        pre: &op.pre,
        pre_neg: &op.pre_neg,
        add: &op.add,
        del: &op.del,
    };
    if effects.len() > MAX_EXACT_EFFECTS {
        return moves_of(info, &[base], &effects, position, vars).into_iter().collect();
    }
    (0u32..1 << effects.len())
        .filter_map(|mask| {
            let fired = (effects.iter().enumerate())
                .filter(|(i, _)| mask >> i & 1 == 1)
                .map(|(_, e)| Part {
                    pre: &e.pre,
                    pre_neg: &e.pre_neg,
                    add: &e.add,
                    del: &e.del,
                });
            let parts: Vec<Part> = std::iter::once(base).chain(fired).collect();
            moves_of(info, &parts, &[], position, vars)
        })
        .collect()
}

/// Conditions and effects of an operator, or of one of its conditional
/// effects.
#[derive(Clone, Copy)]
struct Part<'a> {
    pre: &'a [FactId],
    pre_neg: &'a [FactId],
    add: &'a [FactId],
    del: &'a [FactId],
}

/// The (old, new) value pairs on each pattern variable of an operator
/// whose `parts` all take effect and whose `maybe` effects each may or may
/// not; `None` when it changes no pattern variable or applies in no
/// reachable state (its conditions need two values of one variable, or it
/// would make two facts of one true).
fn moves_of(
    info: &TaskInfo,
    parts: &[Part],
    maybe: &[&CondEffect],
    position: &[Option<usize>],
    vars: &[&Variable],
) -> Option<Moves> {
    let k = vars.len();
    let mut pre: Vec<Option<u32>> = vec![None; k];
    let mut excluded: Vec<Vec<u32>> = vec![Vec::new(); k];
    let mut added: Vec<Option<u32>> = vec![None; k];
    let mut deleted: Vec<Vec<u32>> = vec![Vec::new(); k];
    let mut maybe_added: Vec<Vec<u32>> = vec![Vec::new(); k];
    let mut maybe_deleted: Vec<Vec<u32>> = vec![Vec::new(); k];
    let mut changes = false;
    let slot = |f: FactId| {
        let (v, val) = info.fact_var[f as usize];
        position[v as usize].map(|i| (i, val))
    };
    for part in parts {
        for &f in part.pre {
            if let Some((i, val)) = slot(f) {
                if pre[i].is_some_and(|p| p != val) {
                    return None;
                }
                pre[i] = Some(val);
            }
            for q in info.mutex_partners(f) {
                if let Some((i, val)) = slot(q) {
                    excluded[i].push(val);
                }
            }
        }
        for &f in part.pre_neg {
            if let Some((i, val)) = slot(f) {
                excluded[i].push(val);
            }
        }
        for &f in part.add {
            if let Some((i, val)) = slot(f) {
                if added[i].is_some_and(|a| a != val) {
                    return None;
                }
                added[i] = Some(val);
                changes = true;
            }
        }
        for &f in part.del {
            if let Some((i, val)) = slot(f) {
                deleted[i].push(val);
                changes = true;
            }
        }
    }
    for e in maybe {
        for (list, facts) in [(&mut maybe_added, &e.add), (&mut maybe_deleted, &e.del)] {
            for &f in facts {
                if let Some((i, val)) = slot(f) {
                    list[i].push(val);
                    changes = true;
                }
            }
        }
    }
    if !changes {
        return None;
    }
    let mut moves = Vec::with_capacity(k);
    for i in 0..k {
        let var = vars[i];
        let none = var.facts.len() as u32;
        let olds: Vec<u32> = match pre[i] {
            Some(p) => vec![p],
            None => (0..var.domain() as u32).collect(),
        };
        let mut pairs = Vec::new();
        for old in olds {
            if excluded[i].contains(&old) {
                continue;
            }
            let is_none = var.has_none && old == none;
            let was_deleted = deleted[i].contains(&old);
            let maybe_deleted = maybe_deleted[i].contains(&old);
            let new = match added[i] {
                // The added fact holds afterwards; any other fact of the
                // group still holding would break the invariant.
                Some(a) if old == a || was_deleted || is_none || maybe_deleted => Some(a),
                Some(_) => None,
                None if was_deleted => var.has_none.then_some(none),
                None => Some(old),
            };
            // An exactly-one group cannot become empty, unless an effect
            // that may fire adds another value.
            pairs.extend(new.map(|new| (old, new)));
            pairs.extend(maybe_added[i].iter().map(|&a| (old, a)));
            if maybe_deleted && var.has_none && added[i].is_none() {
                pairs.push((old, none));
            }
        }
        pairs.sort_unstable();
        pairs.dedup();
        if pairs.is_empty() {
            return None;
        }
        moves.push(pairs);
    }
    Some(moves)
}

/// Enumerates the transitions of abstract operators, leaving out those
/// from or to states that hold two mutex facts (no reachable state maps
/// there). Branches are cut as soon as a chosen value clashes with an
/// earlier one, which matters: most states of e.g. a Hanoi projection put
/// two discs on the same place.
struct Enumerator {
    mult: Vec<usize>,
    /// Per level j: (earlier level i, domain of j, matrix `[a * dom_j + b]`
    /// true when value a of i and value b of j are mutex).
    clashes: Vec<Vec<(usize, usize, Vec<bool>)>>,
}

impl Enumerator {
    fn new(info: &TaskInfo, vars: &[&Variable], mult: Vec<usize>) -> Self {
        let mut clashes = vec![Vec::new(); vars.len()];
        for j in 0..vars.len() {
            for i in 0..j {
                let dj = vars[j].domain();
                let mut matrix = vec![false; vars[i].domain() * dj];
                let mut any = false;
                for (a, &fa) in vars[i].facts.iter().enumerate() {
                    for (b, &fb) in vars[j].facts.iter().enumerate() {
                        if info.mutex(fa, fb) {
                            matrix[a * dj + b] = true;
                            any = true;
                        }
                    }
                }
                if any {
                    clashes[j].push((i, dj, matrix));
                }
            }
        }
        Enumerator { mult, clashes }
    }

    /// Calls `f(source, target)` for every transition allowed by `moves`
    /// (per variable, the (old, new) value pairs).
    fn for_each<F: FnMut(usize, usize)>(&self, moves: &[Vec<(u32, u32)>], mut f: F) {
        let k = moves.len();
        let mut olds = vec![0u32; k];
        let mut news = vec![0u32; k];
        self.go(0, 0, 0, moves, &mut olds, &mut news, &mut f);
    }

    #[allow(clippy::too_many_arguments)]
    fn go<F: FnMut(usize, usize)>(
        &self,
        level: usize,
        s: usize,
        t: usize,
        moves: &[Vec<(u32, u32)>],
        olds: &mut [u32],
        news: &mut [u32],
        f: &mut F,
    ) {
        if level == moves.len() {
            f(s, t);
            return;
        }
        let m = self.mult[level];
        'pairs: for &(old, new) in &moves[level] {
            for (i, dj, matrix) in &self.clashes[level] {
                if matrix.get(olds[*i] as usize * dj + old as usize) == Some(&true)
                    || matrix.get(news[*i] as usize * dj + new as usize) == Some(&true)
                {
                    continue 'pairs;
                }
            }
            olds[level] = old;
            news[level] = new;
            self.go(
                level + 1,
                s + old as usize * m,
                t + new as usize * m,
                moves,
                olds,
                news,
                f,
            );
        }
    }
}

/// Abstract states agreeing with the goal on the pattern variables.
fn goal_states(
    info: &TaskInfo,
    position: &[Option<usize>],
    vars: &[&Variable],
    num_states: usize,
    enumerator: &Enumerator,
) -> Vec<bool> {
    let task = info.task;
    let mut allowed: Vec<Vec<bool>> = vars.iter().map(|v| vec![true; v.domain()]).collect();
    let slot = |f: FactId| {
        let (v, val) = info.fact_var[f as usize];
        position[v as usize].map(|i| (i, val as usize))
    };
    for &g in &task.goal {
        if let Some((i, val)) = slot(g) {
            for (x, ok) in allowed[i].iter_mut().enumerate() {
                *ok &= x == val;
            }
        }
        for q in info.mutex_partners(g) {
            if let Some((i, val)) = slot(q) {
                allowed[i][val] = false;
            }
        }
    }
    for &g in &task.goal_neg {
        if let Some((i, val)) = slot(g) {
            allowed[i][val] = false;
        }
    }
    let moves: Vec<Vec<(u32, u32)>> = allowed
        .iter()
        .map(|a| {
            a.iter()
                .enumerate()
                .filter(|&(_, &ok)| ok)
                .map(|(x, _)| (x as u32, x as u32))
                .collect()
        })
        .collect();
    let mut goal = vec![false; num_states];
    enumerator.for_each(&moves, |s, _| goal[s] = true);
    goal
}
