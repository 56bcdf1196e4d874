//! The task as sets of states over BDD bits: each finite-domain variable
//! (an invariant group of [`crate::task::invariants::variables`]) takes the
//! binary code of its value, one fact of the group or "none of them" where
//! the group is not exactly-one; the bits of a variable are adjacent, most
//! significant first, variables in an interaction-minimising order.
//!
//! Each bit has a primed copy right after it, for the state after a
//! transition; sets of states use the unprimed bits only. An operator is a
//! [`Relation`] between states before and after over the variables it
//! changes (the others stay as they are): its preconditions on the bits
//! before, and per changed variable the value after as a function of the
//! state before: added, "none" where the value it held is deleted, or kept
//! (conditional effects make each case hold where their conditions do).
//! Relations of equal cost are merged into few ([`Encoding::relations`]): an
//! image is one relational product per relation (the conjunction with the
//! states, the bits before of the changed variables quantified away in the
//! same pass) and a renaming of the primed bits to unprimed ones, which
//! keeps the BDD's shape since each primed bit stands next to its unprimed
//! one.
//!
//! Derived facts take no bits: each is the set of states where its rules
//! derive it ([`Encoding::derive`]), and a condition on it is a condition
//! on the variables its rules read. An operator's preconditions on derived
//! facts stay out of its relation, as a guard on the states before it.

use biodivine_lib_bdd::{Bdd, BddPartialValuation, BddVariable, BddVariableSet, op_function};

use std::collections::HashMap;

use crate::task::{FactId, MutexGroup, OpId, Operator, Task, invariants};

/// Most BDD bits the encoding uses, primed ones included (the crate takes
/// fewer than `u16::MAX - 1`).
const MAX_BITS: usize = u16::MAX as usize - 2;
/// Largest constraint of the invariant groups the backward search keeps.
const MAX_MUTEX_NODES: usize = 100_000;
/// Swaps tried when ordering the variables, and the budget of edge visits
/// that bounds them on large tasks.
const ORDER_STEPS: usize = 200_000;
const ORDER_WORK: usize = 20_000_000;
/// Largest merged transition relation, in BDD nodes: larger ones mean fewer
/// images, each of which costs more (this crate shares no nodes or caches
/// between operations, so an image is a product of its operands' sizes).
pub(super) const MAX_RELATION_NODES: usize = 10_000;
/// Largest set of states of one derived fact, and of all of them together;
/// a task whose derived facts need more is not encoded.
const MAX_DERIVED_NODES: usize = 200_000;
const MAX_ALL_DERIVED_NODES: usize = 5_000_000;

/// One finite-domain variable.
struct Variable {
    /// Its unprimed BDD bits, most significant first (each primed one is the
    /// next BDD variable).
    bits: Vec<BddVariable>,
    /// Number of values: its facts, then "none" if it has one.
    values: usize,
    /// The code of "none of its facts", when the group is not exactly-one.
    none: Option<usize>,
    /// The codes that stand for values (all codes when `values` is a power
    /// of two), on the unprimed bits.
    valid: Bdd,
    /// Its value stays: each primed bit equals its unprimed one.
    stays: Bdd,
}

/// Pairs of states before and after: over the unprimed bits, and over the
/// primed bits of the variables it changes, which every other variable
/// keeps.
#[derive(Clone)]
pub(super) struct Relation {
    pub cost: u64,
    bdd: Bdd,
    /// The operator's conditions on derived facts, as states before it,
    /// kept out of `bdd`: a derived fact's states can be large, and an image
    /// takes them as a filter on the states it starts from (a pre-image on
    /// those it ends in). Relations merge only with equal guards.
    guard: Option<Guard>,
    /// The variables it may change, in increasing order.
    changed: Vec<usize>,
    /// Per BDD variable: an unprimed bit of a changed variable.
    quantified: Vec<bool>,
}

impl Relation {
    fn guard_key(&self) -> Option<&(Vec<FactId>, Vec<FactId>)> {
        self.guard.as_ref().map(|g| &g.key)
    }

    pub fn nodes(&self) -> usize {
        self.bdd.size() + self.guard.as_ref().map_or(0, |g| g.states.size())
    }
}

/// Conditions on derived facts: the facts required true and false, and
/// the states where they hold.
#[derive(Clone)]
struct Guard {
    key: (Vec<FactId>, Vec<FactId>),
    states: Bdd,
}

/// An operator over the encoding.
pub(super) struct Transition {
    pub op: OpId,
    pub relation: Relation,
}

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
    /// Per fact: for a derived fact, the states where it holds.
    derived: Vec<Option<Bdd>>,
    /// Operators left out because no reachable state allows them (their
    /// preconditions or effects contradict the invariants).
    pub never_applicable: usize,
}

/// Why a task cannot be encoded.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct EncodingError(pub String);

impl Encoding {
    pub fn new(task: &Task) -> Result<Encoding, EncodingError> {
        if (task.operators.iter()).any(|op| op.changes().any(|&f| task.is_derived(f))) {
            return Err(EncodingError("an operator changes a derived fact".into()));
        }
        let primary = variables(task)
            .into_iter()
            .filter(|g| !g.facts.iter().any(|&f| task.is_derived(f)))
            .collect();
        let groups = ordered(task, primary);
        let mut fact_value: Vec<Option<(usize, usize)>> = vec![None; task.num_facts()];
        for f in (0..task.num_facts()).filter(|&f| task.is_derived(f as FactId)) {
            // Never read: derived facts have no variable.
            fact_value[f] = Some((usize::MAX, usize::MAX));
        }
        let mut widths = Vec::with_capacity(groups.len());
        for (v, group) in groups.iter().enumerate() {
            for (i, &f) in group.facts.iter().enumerate() {
                fact_value[f as usize] = Some((v, i));
            }
            let values = group.facts.len() + usize::from(!group.exactly_one);
            widths.push(bits_for(values));
        }
        let total: usize = widths.iter().sum();
        if 2 * total > MAX_BITS {
            return Err(EncodingError(format!(
                "the task needs {total} BDD bits (and as many primed ones), more than the {} supported",
                MAX_BITS / 2
            )));
        }
        let fact_value: Vec<(usize, usize)> = match fact_value.into_iter().collect::<Option<Vec<_>>>() {
            Some(v) => v,
            None => return Err(EncodingError("the invariant groups do not cover every fact".into())),
        };
        let set = BddVariableSet::new_anonymous(2 * total as u16);
        let all_bits = set.variables();
        let mut variables = Vec::with_capacity(groups.len());
        let mut next = 0;
        for (group, &width) in groups.iter().zip(&widths) {
            let bits: Vec<BddVariable> = (next..next + width).map(|b| all_bits[2 * b]).collect();
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
            let stays = bits.iter().fold(set.mk_true(), |acc, &b| {
                acc.and(&set.mk_var(b).iff(&set.mk_var(primed(b))))
            });
            variables.push(Variable {
                bits,
                values,
                none,
                valid,
                stays,
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
            derived: vec![None; task.num_facts()],
            never_applicable: 0,
        };
        encoding.derive(task, &fact_value)?;
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

    /// Number of finite-domain variables and of BDD bits of a state.
    pub fn size(&self) -> (usize, usize) {
        (self.variables.len(), self.set.num_vars() as usize / 2)
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
        for &f in task.init.iter().filter(|&&f| !task.is_derived(f)) {
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
        (self.variables.iter()).fold(self.condition(&task.goal, &task.goal_neg, fact_value), |acc, v| {
            acc.and(&v.valid)
        })
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
    /// (each contradicts a verified invariant), or preconditions on derived
    /// facts that hold nowhere. Those on derived facts become its guard.
    ///
    /// A variable the operator changes gets, after it, the value an effect
    /// that fires adds; else "none" where an effect that fires deletes the
    /// value it holds; else it keeps its value. An effect fires when its
    /// conditions hold before (unconditional effects always do); states
    /// where two effects that fire add two values of one variable, or one
    /// deletes the value of an exactly-one variable and none adds another,
    /// are left out, since the invariants rule them out.
    fn transition(&self, id: OpId, op: &Operator, fact_value: &[(usize, usize)]) -> Option<Transition> {
        let derived = |f: &&FactId| self.derived[**f as usize].is_some();
        let (derived_pre, pre): (Vec<FactId>, Vec<FactId>) = op.pre.iter().partition(derived);
        let (derived_pre_neg, pre_neg): (Vec<FactId>, Vec<FactId>) = op.pre_neg.iter().partition(derived);
        let guard = match derived_pre.is_empty() && derived_pre_neg.is_empty() {
            true => None,
            false => {
                let states = self.condition(&derived_pre, &derived_pre_neg, fact_value);
                if states.is_false() {
                    return None;
                }
                Some(Guard {
                    key: (derived_pre, derived_pre_neg),
                    states,
                })
            }
        };
        let mut relation = self.condition(&pre, &pre_neg, fact_value);
        if relation.is_false() {
            return None;
        }
        let n = self.variables.len();
        // Per variable: (condition, code) of the effects that add a value
        // of it, and of those that delete one.
        let mut adds: Vec<Vec<(Bdd, usize)>> = vec![Vec::new(); n];
        let mut dels: Vec<Vec<(Bdd, usize)>> = vec![Vec::new(); n];
        let always = self.set.mk_true();
        let effects = std::iter::once((always, &op.add, &op.del)).chain(
            op.cond_effects
                .iter()
                .map(|e| (self.condition(&e.pre, &e.pre_neg, fact_value), &e.add, &e.del)),
        );
        for (condition, add, del) in effects {
            if condition.is_false() {
                continue;
            }
            for &f in add {
                let (v, code) = fact_value[f as usize];
                adds[v].push((condition.clone(), code));
            }
            for &f in del {
                let (v, code) = fact_value[f as usize];
                dels[v].push((condition.clone(), code));
            }
        }
        let mut changed = Vec::new();
        for v in 0..n {
            if adds[v].is_empty() && dels[v].is_empty() {
                continue;
            }
            let variable = &self.variables[v];
            let deleted = dels[v].iter().fold(self.empty(), |acc, (condition, code)| {
                acc.or(&condition.and(&self.value_cube(v, *code)))
            });
            if adds[v].is_empty() {
                if relation.and(&deleted).is_false() {
                    // What it deletes never holds where it applies.
                    continue;
                }
                if variable.none.is_none() {
                    // Nothing would be left true: no such state is reachable.
                    relation = relation.and_not(&deleted);
                    if relation.is_false() {
                        return None;
                    }
                    continue;
                }
            }
            let mut after = self.empty();
            // Where some effect adds a value, and where two add different ones.
            let mut added = self.empty();
            let mut clash = self.empty();
            for (condition, code) in &adds[v] {
                let others = adds[v]
                    .iter()
                    .filter(|(_, c)| c != code)
                    .fold(self.empty(), |acc, (c, _)| acc.or(c));
                clash = clash.or(&condition.and(&others));
                after = after.or(&condition.and(&self.primed_value_cube(v, *code)));
                added = added.or(condition);
            }
            let emptied = match variable.none {
                Some(none) => deleted.and(&self.primed_value_cube(v, none)),
                None => self.empty(),
            };
            let kept = deleted.not().and(&variable.stays);
            after = after.or(&added.not().and(&emptied.or(&kept)));
            relation = relation.and_not(&clash).and(&after);
            // Where an add fires, any value before is possible: only valid ones.
            if !adds[v].is_empty() {
                relation = relation.and(&variable.valid);
            }
            if relation.is_false() {
                return None;
            }
            changed.push(v);
        }
        let mut relation = self.relation(op.cost as u64, relation, changed);
        relation.guard = guard;
        Some(Transition { op: id, relation })
    }

    /// The states where every fact of `pre` holds and none of `pre_neg`.
    fn condition(&self, pre: &[FactId], pre_neg: &[FactId], fact_value: &[(usize, usize)]) -> Bdd {
        let mut codes: Vec<Option<usize>> = vec![None; self.variables.len()];
        let mut derived = Vec::new();
        for &f in pre {
            if let Some(states) = &self.derived[f as usize] {
                derived.push(states);
                continue;
            }
            let (v, code) = fact_value[f as usize];
            if codes[v].is_some_and(|c| c != code) {
                return self.empty();
            }
            codes[v] = Some(code);
        }
        let bits: Vec<(BddVariable, bool)> = (codes.iter().enumerate())
            .filter_map(|(v, code)| code.map(|code| self.value(v, code)))
            .flatten()
            .collect();
        let mut states = cube(&self.set, &bits);
        for states_of in derived {
            states = states.and(states_of);
        }
        for &f in pre_neg {
            states = match &self.derived[f as usize] {
                Some(states_of) => states.and_not(states_of),
                None => {
                    let (v, code) = fact_value[f as usize];
                    states.and_not(&self.value_cube(v, code))
                }
            };
        }
        states
    }

    /// The states where each derived fact holds, layer by layer: a layer's
    /// facts start from no state, and a rule adds the states where its
    /// conditions hold (its layer's facts as far as they are derived yet,
    /// lower layers' as they are) until no fact grows: the least fixed
    /// point, as [`crate::task::axioms`] evaluates one state. A rule is read
    /// again only when a fact of its own layer that it needs has grown.
    fn derive(&mut self, task: &Task, fact_value: &[(usize, usize)]) -> Result<(), EncodingError> {
        let mut all_nodes = 0;
        for layer in task.axiom_layers.windows(2) {
            let rules = &task.axioms[layer[0]..layer[1]];
            for rule in rules {
                self.derived[rule.head as usize] = Some(self.empty());
            }
            // Per fact of this layer: the rules of the layer that need it.
            let mut users: HashMap<FactId, Vec<usize>> = rules.iter().map(|rule| (rule.head, Vec::new())).collect();
            for (r, rule) in rules.iter().enumerate() {
                for &f in &rule.pre {
                    if let Some(rules_of) = users.get_mut(&f) {
                        rules_of.push(r);
                    }
                }
            }
            let mut due: Vec<usize> = (0..rules.len()).collect();
            while !due.is_empty() {
                let mut grown = Vec::new();
                for &r in &due {
                    let rule = &rules[r];
                    let body = self.condition(&rule.pre, &rule.pre_neg, fact_value);
                    let head = self.derived[rule.head as usize].as_ref().expect("a fact of this layer");
                    if body.and_not(head).is_false() {
                        continue;
                    }
                    let states = head.or(&body);
                    all_nodes = (all_nodes + states.size()).saturating_sub(head.size());
                    if states.size() > MAX_DERIVED_NODES || all_nodes > MAX_ALL_DERIVED_NODES {
                        return Err(EncodingError(format!(
                            "the derived facts' states take more than {MAX_DERIVED_NODES} BDD nodes for one \
                             or {MAX_ALL_DERIVED_NODES} for all"
                        )));
                    }
                    self.derived[rule.head as usize] = Some(states);
                    grown.push(rule.head);
                }
                due = grown.iter().filter_map(|f| users.get(f)).flatten().copied().collect();
                due.sort_unstable();
                due.dedup();
            }
        }
        Ok(())
    }

    fn primed_value_cube(&self, variable: usize, code: usize) -> Bdd {
        let primed_bits: Vec<BddVariable> = self.variables[variable].bits.iter().map(|&b| primed(b)).collect();
        cube(&self.set, &assignment(&primed_bits, code))
    }

    fn relation(&self, cost: u64, bdd: Bdd, changed: Vec<usize>) -> Relation {
        let mut quantified = vec![false; self.set.num_vars() as usize];
        for &v in &changed {
            for b in &self.variables[v].bits {
                quantified[b.to_index()] = true;
            }
        }
        Relation {
            cost,
            bdd,
            guard: None,
            changed,
            quantified,
        }
    }

    /// The relations of the transitions `members`, those of equal cost
    /// merged into as few of at most `max_nodes` nodes as a balanced
    /// disjunction finds: in rounds, each relation is merged with its
    /// neighbour; of a pair whose union would be too large, the larger is
    /// final and the smaller goes on to the next round. Neighbours change
    /// the same variables where they can: the transitions are sorted by
    /// those first. `stop` is asked before each merge; what it returns
    /// ends the merging.
    pub fn relations<E>(
        &self,
        members: &[usize],
        max_nodes: usize,
        stop: &mut impl FnMut() -> Option<E>,
    ) -> Result<Vec<Relation>, E> {
        let mut by_cost: Vec<&Relation> = members.iter().map(|&i| &self.transitions[i].relation).collect();
        by_cost.sort_by(|a, b| (a.cost, a.guard_key(), &a.changed).cmp(&(b.cost, b.guard_key(), &b.changed)));
        let mut merged = Vec::new();
        for class in by_cost.chunk_by(|a, b| (a.cost, a.guard_key()) == (b.cost, b.guard_key())) {
            let mut round: Vec<Relation> = class.iter().map(|&r| r.clone()).collect();
            while round.len() > 1 {
                let mut next = Vec::with_capacity(round.len().div_ceil(2));
                let mut pairs = round.into_iter();
                while let Some(a) = pairs.next() {
                    let Some(b) = pairs.next() else {
                        next.push(a);
                        break;
                    };
                    if let Some(e) = stop() {
                        return Err(e);
                    }
                    match self.union(&a, &b, max_nodes) {
                        Some(both) => next.push(both),
                        None => {
                            let (small, large) = if a.nodes() <= b.nodes() { (a, b) } else { (b, a) };
                            merged.push(large);
                            next.push(small);
                        }
                    }
                }
                round = next;
            }
            merged.extend(round);
        }
        Ok(merged)
    }

    /// The union of two relations of one cost, each keeping the variables
    /// only the other changes; `None` when it takes more than `max_nodes`.
    fn union(&self, a: &Relation, b: &Relation, max_nodes: usize) -> Option<Relation> {
        let mut changed = a.changed.clone();
        changed.extend(&b.changed);
        changed.sort_unstable();
        changed.dedup();
        let widened = |r: &Relation| {
            let stay = changed
                .iter()
                .filter(|v| r.changed.binary_search(v).is_err())
                .fold(self.set.mk_true(), |acc, &v| acc.and(&self.variables[v].stays));
            r.bdd.and(&stay)
        };
        let bdd = Bdd::binary_op_with_limit(max_nodes, &widened(a), &widened(b), op_function::or)?;
        let mut both = self.relation(a.cost, bdd, changed);
        // The relations of one class have equal guards.
        both.guard = a.guard.clone();
        Some(both)
    }

    /// The states `relation` reaches from `states`.
    pub fn image(&self, states: &Bdd, relation: &Relation) -> Bdd {
        let quantified = |b: BddVariable| relation.quantified[b.to_index()];
        let guarded;
        let states = match &relation.guard {
            Some(guard) => {
                guarded = states.and(&guard.states);
                &guarded
            }
            None => states,
        };
        let after = Bdd::binary_op_with_exists_trigger(states, &relation.bdd, quantified, op_function::and);
        // Of the changed variables, only the primed bits are left.
        relabel(after, |b| b & !1)
    }

    /// The states from which `relation` reaches `states`.
    pub fn preimage(&self, states: &Bdd, relation: &Relation) -> Bdd {
        let after = relabel(states.clone(), |b| b + usize::from(relation.quantified[b]));
        let primed = |b: BddVariable| b.to_index() % 2 == 1;
        let before = Bdd::binary_op_with_exists_trigger(&after, &relation.bdd, primed, op_function::and);
        match &relation.guard {
            Some(guard) => before.and(&guard.states),
            None => before,
        }
    }

    /// One state of a non-empty set, as a set of its own.
    pub fn pick(&self, states: &Bdd) -> Option<Bdd> {
        let valuation = states.sat_witness()?;
        let bits: Vec<(BddVariable, bool)> = self
            .variables
            .iter()
            .flat_map(|v| &v.bits)
            .map(|&b| (b, valuation[b]))
            .collect();
        Some(cube(&self.set, &bits))
    }

    /// The number of states in a set.
    pub fn count(&self, states: &Bdd) -> f64 {
        // The same BDD over the unprimed bits alone.
        let unprimed = self.set.num_vars() as usize / 2;
        let mut nodes = states.clone().to_nodes();
        for (i, node) in nodes.iter_mut().enumerate() {
            // The first nodes are the terminals, which hold the number of variables.
            let var = if i < 2 { unprimed } else { node.var.to_index() / 2 };
            node.var = BddVariable::from_index(var);
        }
        Bdd::from_nodes(&nodes)
            .expect("a set of states has no primed bits")
            .cardinality()
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
    let reads = reads(task, &variables);
    let mut weight: HashMap<(usize, usize), u64> = HashMap::new();
    for op in &task.operators {
        let mut read: Vec<usize> = op
            .conditions()
            .flat_map(|&f| reads[f as usize].iter().copied())
            .collect();
        let mut written: Vec<usize> = op.changes().flat_map(|&f| reads[f as usize].iter().copied()).collect();
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
    // A rule's conditions make up a derived fact's states: close together
    // they keep its BDD small.
    for rule in &task.axioms {
        let mut read: Vec<usize> = (rule.pre.iter().chain(&rule.pre_neg))
            .filter(|&&f| !task.is_derived(f))
            .flat_map(|&f| reads[f as usize].iter().copied())
            .collect();
        read.sort_unstable();
        read.dedup();
        for (i, &a) in read.iter().enumerate() {
            for &b in &read[i + 1..] {
                *weight.entry((a, b)).or_default() += 1;
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

/// Per fact, the variables whose values tell whether it holds: its own,
/// or for a derived fact those its rules read, through the derived facts
/// they need.
fn reads(task: &Task, variables: &[MutexGroup]) -> Vec<Vec<usize>> {
    let mut reads: Vec<Vec<usize>> = vec![Vec::new(); task.num_facts()];
    for (v, group) in variables.iter().enumerate() {
        for &f in &group.facts {
            reads[f as usize].push(v);
        }
    }
    let mut changed = true;
    while changed {
        changed = false;
        for rule in &task.axioms {
            let mut head = std::mem::take(&mut reads[rule.head as usize]);
            let before = head.len();
            for &f in rule.pre.iter().chain(&rule.pre_neg) {
                head.extend(&reads[f as usize]);
            }
            head.sort_unstable();
            head.dedup();
            changed |= head.len() != before;
            reads[rule.head as usize] = head;
        }
    }
    reads
}

/// The primed copy of an unprimed bit.
fn primed(bit: BddVariable) -> BddVariable {
    BddVariable::from_index(bit.to_index() + 1)
}

/// The BDD with each node's variable `b` renamed to `rename(b)`, which must
/// keep the order of the variables on every path.
fn relabel(bdd: Bdd, rename: impl Fn(usize) -> usize) -> Bdd {
    let mut nodes = bdd.to_nodes();
    // The first nodes are the terminals.
    for node in nodes.iter_mut().skip(2) {
        node.var = BddVariable::from_index(rename(node.var.to_index()));
    }
    Bdd::from_nodes(&nodes).expect("the renaming keeps the order")
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
