//! The task as sets of states over BDD bits: each finite-domain variable
//! (an invariant group of [`crate::task::invariants::variables`]) takes the
//! binary code of its value, one fact of the group or "none of them" where
//! the group is not exactly-one; the bits of a variable are adjacent, most
//! significant first, variables in the cover's order.
//!
//! An operator is a [`Transition`]: a condition on the state before it
//! (preconditions and negative preconditions), the variables it sets, and
//! the variables it clears only when they hold a deleted fact it does not
//! require. Images are computed per transition without a transition
//! relation: the condition conjoined and the set variables quantified away
//! in one relational product, then their new values conjoined. A copy of
//! the bits for the next state is never needed, since every transition
//! leaves the variables it does not name as they were.

use biodivine_lib_bdd::{Bdd, BddPartialValuation, BddValuation, BddVariable, BddVariableSet, op_function};

use std::collections::HashMap;

use crate::task::{FactId, MutexGroup, OpId, Operator, Task, invariants};

/// Most BDD bits the encoding uses (the crate takes fewer than `u16::MAX - 1`).
const MAX_BITS: usize = u16::MAX as usize - 2;
/// Largest constraint of the invariant groups the backward search keeps.
const MAX_MUTEX_NODES: usize = 100_000;
/// Swaps tried when ordering the variables, and the budget of edge visits
/// that bounds them on large tasks.
const ORDER_STEPS: usize = 200_000;
const ORDER_WORK: usize = 20_000_000;

/// One finite-domain variable.
struct Variable {
    /// Its BDD bits, most significant first.
    bits: Vec<BddVariable>,
    /// Number of values: its facts, then "none" if it has one.
    values: usize,
    /// The code of "none of its facts", when the group is not exactly-one.
    none: Option<usize>,
    /// The codes that stand for values (all codes when `values` is a power of two).
    valid: Bdd,
}

/// A variable cleared by a delete of a fact the operator does not require:
/// when it holds that fact it becomes "none", otherwise it stays.
struct Clear {
    /// The variable holds the deleted fact.
    holds: Bdd,
    holds_bits: Vec<(BddVariable, bool)>,
    /// The variable is "none".
    none: Bdd,
    none_bits: Vec<(BddVariable, bool)>,
}

/// An operator over the encoding.
pub(super) struct Transition {
    pub op: OpId,
    pub cost: u64,
    /// Preconditions and negative preconditions, on the state before.
    condition: Bdd,
    /// The condition, and valid codes for the set variables it does not fix:
    /// what a state before must satisfy in a pre-image.
    before: Bdd,
    /// The bits of the variables the operator sets.
    set_bits: Vec<BddVariable>,
    /// Their new values, as a cube and as an assignment.
    effect: Bdd,
    effect_bits: Vec<(BddVariable, bool)>,
    clears: Vec<Clear>,
    /// The (variable, code) pairs the condition requires, and those the
    /// effect sets: what [`Tree`] splits on.
    required: Vec<(usize, usize)>,
    produced: Vec<(usize, usize)>,
}

/// Transitions arranged by the values they need, so that an image starts
/// from the states with those values only: a node restricts the states to
/// each value of one variable for the transitions that need that value,
/// and hands the states unrestricted to the others.
pub(super) enum Tree {
    Leaf(Vec<usize>),
    Split {
        /// Per value needed: the states with it (a cube), and the subtree.
        by_value: Vec<(Bdd, Tree)>,
        /// The transitions that need no value of the variable.
        rest: Box<Tree>,
    },
}

/// Fewest transitions that share a needed value for a split to pay.
const MIN_SPLIT: usize = 2;

/// The task over BDD bits: its initial state, goal states and transitions.
pub(super) struct Encoding {
    set: BddVariableSet,
    variables: Vec<Variable>,
    pub transitions: Vec<Transition>,
    pub init: Bdd,
    pub goal: Bdd,
    /// The states that satisfy every invariant group beyond the variables
    /// (at most one, or exactly one, fact of each): every reachable state
    /// does, so the backward search keeps only those.
    pub mutex: Bdd,
    /// Operators left out because no reachable state allows them (their
    /// preconditions or effects contradict the invariants).
    pub never_applicable: usize,
}

/// Why a task cannot be encoded.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct EncodingError(pub String);

impl Encoding {
    pub fn new(task: &Task) -> Result<Encoding, EncodingError> {
        if task.has_conditional_effects() {
            return Err(EncodingError("conditional effects are not supported".into()));
        }
        if task.has_axioms() {
            return Err(EncodingError("derived predicates are not supported".into()));
        }
        let groups = ordered(task, variables(task));
        let mut fact_value: Vec<Option<(usize, usize)>> = vec![None; task.num_facts()];
        let mut widths = Vec::with_capacity(groups.len());
        for (v, group) in groups.iter().enumerate() {
            for (i, &f) in group.facts.iter().enumerate() {
                fact_value[f as usize] = Some((v, i));
            }
            let values = group.facts.len() + usize::from(!group.exactly_one);
            widths.push(bits_for(values));
        }
        let total: usize = widths.iter().sum();
        if total > MAX_BITS {
            return Err(EncodingError(format!(
                "the task needs {total} BDD bits, more than the {MAX_BITS} supported"
            )));
        }
        let fact_value: Vec<(usize, usize)> = match fact_value.into_iter().collect::<Option<Vec<_>>>() {
            Some(v) => v,
            None => return Err(EncodingError("the invariant groups do not cover every fact".into())),
        };
        let set = BddVariableSet::new_anonymous(total as u16);
        let all_bits = set.variables();
        let mut variables = Vec::with_capacity(groups.len());
        let mut next = 0;
        for (group, &width) in groups.iter().zip(&widths) {
            let bits = all_bits[next..next + width].to_vec();
            next += width;
            let values = group.facts.len() + usize::from(!group.exactly_one);
            let none = (!group.exactly_one).then_some(group.facts.len());
            let valid = if values == 1 << width {
                set.mk_true()
            } else {
                (0..values).fold(set.mk_false(), |acc, code| {
                    acc.or(&cube(&set, &assignment(&bits, code)))
                })
            };
            variables.push(Variable {
                bits,
                values,
                none,
                valid,
            });
        }
        let empty = set.mk_false();
        let mut encoding = Encoding {
            set,
            variables,
            transitions: Vec::new(),
            init: empty.clone(),
            goal: empty.clone(),
            mutex: empty,
            never_applicable: 0,
        };
        encoding.init = encoding.initial_state(task, &fact_value)?;
        encoding.mutex = encoding.invariants(task, &groups, &fact_value);
        encoding.goal = encoding.goal_states(task, &fact_value).and(&encoding.mutex);
        for (id, op) in task.operators.iter().enumerate() {
            match encoding.transition(id as OpId, op, &fact_value) {
                Some(t) => encoding.transitions.push(t),
                None => encoding.never_applicable += 1,
            }
        }
        Ok(encoding)
    }

    /// Number of finite-domain variables and of BDD bits.
    pub fn size(&self) -> (usize, usize) {
        (self.variables.len(), self.set.num_vars() as usize)
    }

    pub fn empty(&self) -> Bdd {
        self.set.mk_false()
    }

    fn value(&self, variable: usize, code: usize) -> Vec<(BddVariable, bool)> {
        assignment(&self.variables[variable].bits, code)
    }

    fn value_cube(&self, variable: usize, code: usize) -> Bdd {
        cube(&self.set, &self.value(variable, code))
    }

    fn initial_state(&self, task: &Task, fact_value: &[(usize, usize)]) -> Result<Bdd, EncodingError> {
        let mut codes: Vec<Option<usize>> = vec![None; self.variables.len()];
        for &f in &task.init {
            let (v, code) = fact_value[f as usize];
            if codes[v].is_some_and(|c| c != code) {
                return Err(EncodingError("two facts of one invariant group hold initially".into()));
            }
            codes[v] = Some(code);
        }
        let mut bits = Vec::new();
        for (v, code) in codes.into_iter().enumerate() {
            let Some(code) = code.or(self.variables[v].none) else {
                return Err(EncodingError("no fact of an exactly-one group holds initially".into()));
            };
            bits.extend(self.value(v, code));
        }
        Ok(cube(&self.set, &bits))
    }

    /// The goal states, with valid codes on every variable (so that the
    /// backward search never holds codes that stand for no value).
    fn goal_states(&self, task: &Task, fact_value: &[(usize, usize)]) -> Bdd {
        let mut goal = self
            .variables
            .iter()
            .fold(self.set.mk_true(), |acc, v| acc.and(&v.valid));
        for &f in &task.goal {
            let (v, code) = fact_value[f as usize];
            goal = goal.and(&self.value_cube(v, code));
        }
        for &f in &task.goal_neg {
            let (v, code) = fact_value[f as usize];
            goal = goal.and_not(&self.value_cube(v, code));
        }
        goal
    }

    /// The constraint of the invariant groups that are not variables of
    /// their own; groups are left out once it exceeds [`MAX_MUTEX_NODES`].
    fn invariants(&self, task: &Task, variables: &[MutexGroup], fact_value: &[(usize, usize)]) -> Bdd {
        let mut mutex = self.set.mk_true();
        for group in task.invariant_groups() {
            if variables.iter().any(|v| v.facts == group.facts) {
                continue;
            }
            // Whether none, or exactly one, of the facts so far holds.
            let mut none = self.set.mk_true();
            let mut one = self.set.mk_false();
            for &f in &group.facts {
                let (v, code) = fact_value[f as usize];
                let holds = self.value_cube(v, code);
                one = one.and_not(&holds).or(&none.and(&holds));
                none = none.and_not(&holds);
            }
            let constraint = if group.exactly_one { one } else { one.or(&none) };
            let with = mutex.and(&constraint);
            if with.size() > MAX_MUTEX_NODES {
                continue;
            }
            mutex = with;
        }
        mutex
    }

    /// The operator as a transition; `None` when no reachable state allows
    /// it: preconditions on two values of one variable, adds of two facts of
    /// one group, or a delete that would leave an exactly-one group empty
    /// (each contradicts a verified invariant).
    fn transition(&self, id: OpId, op: &Operator, fact_value: &[(usize, usize)]) -> Option<Transition> {
        let n = self.variables.len();
        // The value each variable gets from `facts`; `None` when two of them
        // are values of one variable.
        let values = |facts: &[FactId]| {
            let mut values: Vec<Option<usize>> = vec![None; n];
            for &f in facts {
                let (v, code) = fact_value[f as usize];
                if values[v].is_some_and(|c| c != code) {
                    return None;
                }
                values[v] = Some(code);
            }
            Some(values)
        };
        let pre = values(&op.pre)?;
        let mut set = values(&op.add)?;
        let mut clears: Vec<(usize, usize)> = Vec::new();
        // Deleted facts that must not hold where the operator applies.
        let mut excluded: Vec<(usize, usize)> = Vec::new();
        for &f in &op.del {
            let (v, code) = fact_value[f as usize];
            if set[v].is_some() {
                // Adds come after deletes: the add decides.
                continue;
            }
            match pre[v] {
                Some(c) if c == code => match self.variables[v].none {
                    Some(none) => set[v] = Some(none),
                    None => return None,
                },
                // The deleted fact is known not to hold.
                Some(_) => {}
                None if op.pre_neg.contains(&f) => {}
                None => match self.variables[v].none {
                    Some(_) => clears.push((v, code)),
                    // Where the deleted fact holds, the operator would leave
                    // an exactly-one group empty: no reachable state is such.
                    None => excluded.push((v, code)),
                },
            }
        }
        clears.sort_unstable();
        clears.dedup();
        let mut condition_bits = Vec::new();
        for (v, code) in pre.iter().enumerate() {
            if let Some(code) = *code {
                condition_bits.extend(self.value(v, code));
            }
        }
        let mut condition = cube(&self.set, &condition_bits);
        for &f in &op.pre_neg {
            let (v, code) = fact_value[f as usize];
            if pre[v] == Some(code) {
                return None;
            }
            condition = condition.and_not(&self.value_cube(v, code));
        }
        for (v, code) in excluded {
            condition = condition.and_not(&self.value_cube(v, code));
        }
        if condition.is_false() {
            return None;
        }
        let mut before = condition.clone();
        let mut set_bits = Vec::new();
        let mut effect_bits = Vec::new();
        for (v, code) in set.iter().enumerate() {
            if let Some(code) = *code {
                set_bits.extend(self.variables[v].bits.iter().copied());
                effect_bits.extend(self.value(v, code));
                if pre[v].is_none() {
                    before = before.and(&self.variables[v].valid);
                }
            }
        }
        let clears = clears
            .into_iter()
            .map(|(v, code)| {
                let none = self.variables[v].none.unwrap_or(code);
                let holds_bits = self.value(v, code);
                let none_bits = self.value(v, none);
                Clear {
                    holds: cube(&self.set, &holds_bits),
                    holds_bits,
                    none: cube(&self.set, &none_bits),
                    none_bits,
                }
            })
            .collect();
        Some(Transition {
            op: id,
            cost: op.cost as u64,
            condition,
            before,
            set_bits,
            effect: cube(&self.set, &effect_bits),
            effect_bits,
            clears,
            required: pre.iter().enumerate().filter_map(|(v, c)| c.map(|c| (v, c))).collect(),
            produced: set.iter().enumerate().filter_map(|(v, c)| c.map(|c| (v, c))).collect(),
        })
    }

    /// The tree of `members` (transition indices) for images (`forward`:
    /// split on the values the conditions require) or pre-images (split on
    /// the values the effects set, which the states after must have).
    pub fn tree(&self, members: Vec<usize>, forward: bool) -> Tree {
        let mut used = vec![false; self.variables.len()];
        self.subtree(members, forward, &mut used)
    }

    fn subtree(&self, members: Vec<usize>, forward: bool, used: &mut [bool]) -> Tree {
        fn needs(t: &Transition, forward: bool) -> &[(usize, usize)] {
            match forward {
                true => &t.required,
                false => &t.produced,
            }
        }
        let mut count = vec![0usize; self.variables.len()];
        for &i in &members {
            for &(v, _) in needs(&self.transitions[i], forward) {
                if !used[v] {
                    count[v] += 1;
                }
            }
        }
        let Some((var, &most)) = count
            .iter()
            .enumerate()
            .max_by_key(|&(v, c)| (*c, std::cmp::Reverse(v)))
        else {
            return Tree::Leaf(members);
        };
        if most < MIN_SPLIT {
            return Tree::Leaf(members);
        }
        let mut by_code: Vec<(usize, Vec<usize>)> = Vec::new();
        let mut rest = Vec::new();
        for i in members {
            match needs(&self.transitions[i], forward).iter().find(|&&(v, _)| v == var) {
                Some(&(_, code)) => match by_code.iter_mut().find(|(c, _)| *c == code) {
                    Some((_, list)) => list.push(i),
                    None => by_code.push((code, vec![i])),
                },
                None => rest.push(i),
            }
        }
        used[var] = true;
        let by_value = by_code
            .into_iter()
            .map(|(code, list)| (self.value_cube(var, code), self.subtree(list, forward, used)))
            .collect();
        let rest = Box::new(self.subtree(rest, forward, used));
        used[var] = false;
        Tree::Split { by_value, rest }
    }

    /// The states the transition reaches from `states`.
    pub fn image(&self, states: &Bdd, t: &Transition) -> Bdd {
        let mut next = Bdd::binary_op_with_exists(states, &t.condition, op_function::and, &t.set_bits);
        if next.is_false() {
            return next;
        }
        next = next.and(&t.effect);
        for c in &t.clears {
            let kept = next.and_not(&c.holds);
            let cleared = next.restrict(&c.holds_bits).and(&c.none);
            next = kept.or(&cleared);
        }
        next
    }

    /// The states from which the transition reaches `states`.
    pub fn preimage(&self, states: &Bdd, t: &Transition) -> Bdd {
        // The set variables' values after: fixed, and then free before.
        let mut before = states.restrict(&t.effect_bits);
        if before.is_false() {
            return before;
        }
        for c in &t.clears {
            let kept = before.and_not(&c.holds);
            let held = before.restrict(&c.none_bits).and(&c.holds);
            before = kept.or(&held);
        }
        before.and(&t.before)
    }

    /// One state of a non-empty set, as a set of its own.
    pub fn pick(&self, states: &Bdd) -> Option<Bdd> {
        states.sat_witness().map(|v: BddValuation| Bdd::from(v))
    }

    /// Bits and values of each variable: for the log.
    pub fn describe(&self) -> String {
        let multi = self.variables.iter().filter(|v| v.values > 2).count();
        let (vars, bits) = self.size();
        format!("{vars} variables ({multi} with more than two values) in {bits} BDD bits")
    }
}

/// The finite-domain variables: of two covers of the facts by invariant
/// groups, the one that leaves fewer facts as variables of their own. Such
/// a fact is usually a function of the other variables (`clear c` of what
/// is at c): a BDD must then tell apart every combination of the values it
/// depends on, while a cover that takes its group (everything at c) needs
/// no such fact. The second cover first takes every group with a fact that
/// no other group has, then completes the cover greedily.
fn variables(task: &Task) -> Vec<MutexGroup> {
    let greedy = invariants::variables(task);
    let groups = task.invariant_groups();
    let mut in_groups = vec![0usize; task.num_facts()];
    for g in groups {
        for &f in &g.facts {
            in_groups[f as usize] += 1;
        }
    }
    let mut covered = vec![false; task.num_facts()];
    let mut chosen: Vec<MutexGroup> = Vec::new();
    for g in groups
        .iter()
        .filter(|g| g.facts.iter().any(|&f| in_groups[f as usize] == 1))
    {
        let fresh: Vec<FactId> = g.facts.iter().copied().filter(|&f| !covered[f as usize]).collect();
        if fresh.len() < 2 {
            continue;
        }
        for &f in &fresh {
            covered[f as usize] = true;
        }
        chosen.push(MutexGroup {
            exactly_one: g.exactly_one && fresh.len() == g.facts.len(),
            facts: fresh,
        });
    }
    // The rest greedily, over the facts not covered yet.
    let rest: Vec<MutexGroup> = groups
        .iter()
        .map(|g| {
            let facts: Vec<FactId> = g.facts.iter().copied().filter(|&f| !covered[f as usize]).collect();
            MutexGroup {
                exactly_one: g.exactly_one && facts.len() == g.facts.len(),
                facts,
            }
        })
        .filter(|g| g.facts.len() >= 2)
        .collect();
    chosen.extend(
        invariants::cover(task.num_facts(), &rest)
            .into_iter()
            .filter(|g| g.facts.len() >= 2 || !covered[g.facts[0] as usize]),
    );
    let singletons = |cover: &[MutexGroup]| cover.iter().filter(|g| g.facts.len() == 1).count();
    match singletons(&chosen) < singletons(&greedy) {
        true => {
            chosen.sort_by_key(|g| g.facts[0]);
            chosen
        }
        false => greedy,
    }
}

/// Variables that interact should have their bits close together: BDDs
/// of relations between distant bits grow with everything in between. The
/// order minimises the sum of squared distances between the variables of
/// each operator (with one of them among its effects) by random swaps from
/// the cover's order, kept when they lower it.
fn ordered(task: &Task, variables: Vec<MutexGroup>) -> Vec<MutexGroup> {
    let n = variables.len();
    if n < 3 {
        return variables;
    }
    let mut variable_of = vec![0usize; task.num_facts()];
    for (v, group) in variables.iter().enumerate() {
        for &f in &group.facts {
            variable_of[f as usize] = v;
        }
    }
    let mut weight: HashMap<(usize, usize), u64> = HashMap::new();
    for op in &task.operators {
        let mut read: Vec<usize> = op
            .pre
            .iter()
            .chain(&op.pre_neg)
            .map(|&f| variable_of[f as usize])
            .collect();
        let mut written: Vec<usize> = op.add.iter().chain(&op.del).map(|&f| variable_of[f as usize]).collect();
        read.sort_unstable();
        read.dedup();
        written.sort_unstable();
        written.dedup();
        for &w in &written {
            for &other in read.iter().chain(&written) {
                if other != w {
                    *weight.entry((w.min(other), w.max(other))).or_default() += 1;
                }
            }
        }
    }
    // Per variable: its neighbours and the weight of each edge.
    let mut neighbours: Vec<Vec<(usize, u64)>> = vec![Vec::new(); n];
    for (&(a, b), &w) in &weight {
        neighbours[a].push((b, w));
        neighbours[b].push((a, w));
    }
    let mut position: Vec<usize> = (0..n).collect();
    let cost_of = |v: usize, at: usize, position: &[usize]| -> u64 {
        neighbours[v]
            .iter()
            .map(|&(u, w)| w * (at.abs_diff(position[u]) as u64).pow(2))
            .sum()
    };
    let mut order: Vec<usize> = (0..n).collect();
    let mut rng = crate::rng::Rng::new(0x5eed);
    let steps = (ORDER_WORK / (weight.len() / n + 1)).min(ORDER_STEPS).min(100 * n * n);
    for _ in 0..steps {
        let (i, j) = (rng.below_usize(n), rng.below_usize(n));
        if i == j {
            continue;
        }
        let (a, b) = (order[i], order[j]);
        let before = cost_of(a, i, &position) + cost_of(b, j, &position);
        position[a] = j;
        position[b] = i;
        // The edge between them keeps its length.
        let after = cost_of(a, j, &position) + cost_of(b, i, &position);
        if after < before {
            order.swap(i, j);
        } else {
            position[a] = i;
            position[b] = j;
        }
    }
    let mut variables: Vec<Option<MutexGroup>> = variables.into_iter().map(Some).collect();
    order.iter().filter_map(|&v| variables[v].take()).collect()
}

/// Bits needed for `values` codes.
fn bits_for(values: usize) -> usize {
    (usize::BITS - values.saturating_sub(1).leading_zeros()) as usize
}

/// The assignment of `bits` to the binary code `code`, most significant first.
fn assignment(bits: &[BddVariable], code: usize) -> Vec<(BddVariable, bool)> {
    let width = bits.len();
    bits.iter()
        .enumerate()
        .map(|(i, &b)| (b, (code >> (width - 1 - i)) & 1 == 1))
        .collect()
}

/// The conjunction of an assignment.
fn cube(set: &BddVariableSet, bits: &[(BddVariable, bool)]) -> Bdd {
    set.mk_conjunctive_clause(&BddPartialValuation::from_values(bits))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_take_the_fewest_bits() {
        assert_eq!(bits_for(1), 0);
        assert_eq!(bits_for(2), 1);
        assert_eq!(bits_for(3), 2);
        assert_eq!(bits_for(4), 2);
        assert_eq!(bits_for(5), 3);
    }
}
