//! Invariant synthesis: groups of facts of which at most (or exactly) one is
//! true in every reachable state, e.g. "disc d is on x" or "stone s is at c".
//!
//! The search works on the grounded task but uses the lifted structure that
//! survives in the fact names. A candidate *schema* is a set of members
//! `(predicate, key position)`; its ground groups collect, for every object
//! `c`, the facts of the member predicates that have `c` at their key
//! position (schemas without a key position put all facts of the member
//! predicates into one group). `{(on, 0)}` gives "where is disc d",
//! `{(on, 1), (clear, 0)}` gives "what is on top of x".
//!
//! Each ground group is verified on its own by induction over the operators:
//! at most one fact of it holds initially, and no operator can make a second
//! one true. When a group fails because an operator adds a fact of it without
//! deleting one, the facts that operator requires and deletes suggest members
//! to add to the schema; the refined schemas are checked in turn.

use std::collections::{BTreeMap, BTreeSet, BinaryHeap, HashMap, VecDeque};

use super::{CondEffect, FactId, MutexGroup, Operator, Task};

/// The task's finite-domain variables: groups chosen by [`cover`] from its
/// stored invariant groups, so that every fact is in exactly one (facts not
/// in any proper invariant form a group of their own).
pub fn variables(task: &Task) -> Vec<MutexGroup> {
    cover(task.num_facts(), task.invariant_groups())
}

/// Most members a schema may grow to.
const MAX_MEMBERS: usize = 4;
/// Most schemas checked per task.
const MAX_SCHEMAS: usize = 300;
/// Budget of fact visits over all schema checks, so that huge tasks stay fast.
const MAX_WORK: usize = 300_000_000;

/// All verified invariant groups of at least two facts, deduplicated, in a
/// deterministic order (by their sorted fact lists). This is the costly
/// synthesis (a pass over all operators per candidate schema) that the
/// grounder runs; everything after grounding reads the result from
/// [`Task::invariant_groups`].
///
/// Derived facts are in no group: no operator adds them, so the induction
/// would take any set of them for invariant.
pub fn invariant_groups(task: &Task) -> Vec<MutexGroup> {
    let _phase = crate::limits::phase(crate::limits::Phase::InvariantSynthesis);
    let names = FactNames::new(task);
    let mut found: BTreeMap<Vec<FactId>, bool> = BTreeMap::new();
    let mut seen: BTreeSet<Vec<Member>> = BTreeSet::new();
    let mut queue: VecDeque<Vec<Member>> = VecDeque::new();
    for (pred, &arity) in names.arity.iter().enumerate() {
        if names.derived[pred] {
            continue;
        }
        let pred = pred as u32;
        for position in 0..arity {
            queue.push_back(vec![Member {
                predicate: pred,
                position: Some(position as u8),
            }]);
        }
        queue.push_back(vec![Member {
            predicate: pred,
            position: None,
        }]);
    }
    for s in &queue {
        seen.insert(s.clone());
    }
    let op_size: usize = task
        .operators
        .iter()
        .map(|o| {
            let effects: usize = (o.cond_effects.iter())
                .map(|e| e.pre.len() + e.add.len() + e.del.len())
                .sum();
            o.pre.len() + o.add.len() + o.del.len() + effects
        })
        .sum::<usize>()
        + task.init.len();
    let mut work = 0usize;
    let mut checked = 0usize;
    while let Some(schema) = queue.pop_front() {
        if checked >= MAX_SCHEMAS || work > MAX_WORK {
            break;
        }
        checked += 1;
        work += op_size;
        let outcome = check_schema(task, &names, &schema);
        for (facts, exactly_one) in outcome.groups {
            if facts.len() >= 2 {
                found.entry(facts).or_insert(exactly_one);
            }
        }
        if schema.len() < MAX_MEMBERS {
            for member in outcome.refinements {
                let mut refined = schema.clone();
                refined.push(member);
                refined.sort();
                if seen.insert(refined.clone()) {
                    queue.push_back(refined);
                }
            }
        }
    }
    found
        .into_iter()
        .map(|(facts, exactly_one)| MutexGroup { facts, exactly_one })
        .collect()
}

/// Checks one set of facts as an invariant: `None` when it is not proven to
/// be one, `Some(exactly_one)` when at most one of them holds in every
/// reachable state.
pub fn check_group(task: &Task, facts: &[FactId]) -> Option<bool> {
    let mut member = vec![false; task.num_facts()];
    for &f in facts {
        if (f as usize) < member.len() {
            member[f as usize] = true;
        }
    }
    let init = task.init.iter().filter(|&&f| member[f as usize]).count();
    if init > 1 {
        return None;
    }
    let mut exactly_one = init == 1;
    let pick = |list: &[FactId]| -> Vec<FactId> { list.iter().copied().filter(|&f| member[f as usize]).collect() };
    let part = |pre: &[FactId], add: &[FactId], del: &[FactId]| Part {
        pre: pick(pre),
        add: pick(add),
        del: pick(del),
    };
    for op in &task.operators {
        let effects: Vec<(usize, Part)> = (op.cond_effects.iter().enumerate())
            .map(|(i, e)| (i, part(&e.pre, &e.add, &e.del)))
            .filter(|(_, p)| !p.add.is_empty() || !p.del.is_empty())
            .collect();
        let complete = worlds(
            op,
            &part(&op.pre, &op.add, &op.del),
            &effects,
            |world, _| match GroupEffect::of(&world.pre, &world.add, &world.del) {
                GroupEffect::Inapplicable => true,
                GroupEffect::Grows => false,
                GroupEffect::Keeps { may_empty } => {
                    exactly_one &= !may_empty;
                    true
                }
            },
        );
        if !complete {
            return None;
        }
    }
    Some(exactly_one)
}

/// Most conditional effects of one operator that may touch one group: the
/// check goes through every combination of them.
const MAX_TOUCHING: usize = 8;

/// An operator's facts that lie in one group, of its unconditional part or
/// of one conditional effect.
#[derive(Clone)]
struct Part {
    pre: Vec<FactId>,
    add: Vec<FactId>,
    del: Vec<FactId>,
}

/// Calls `visit` with each way `op` may act on one group: its unconditional
/// part `base` together with a combination of `effects`, the conditional
/// effects that add or delete a fact of the group (by index, with their
/// facts in the group), and the indices of that combination. The others
/// change nothing in the group, and their conditions only narrow where the
/// operator applies. Combinations whose conditions contradict each other or
/// the operator's are left out. Stops when `visit` returns false; returns
/// false then, and when there are more than [`MAX_TOUCHING`] effects.
fn worlds(
    op: &Operator,
    base: &Part,
    effects: &[(usize, Part)],
    mut visit: impl FnMut(&Part, &[usize]) -> bool,
) -> bool {
    if effects.is_empty() {
        return visit(base, &[]);
    }
    if effects.len() > MAX_TOUCHING {
        return false;
    }
    let clash = |pre: &[FactId], pre_neg: &[FactId]| pre.iter().any(|f| pre_neg.binary_search(f).is_ok());
    let conditions = |i: usize| {
        let e = &op.cond_effects[effects[i].0];
        (&e.pre, &e.pre_neg)
    };
    let possible: Vec<bool> = (0..effects.len())
        .map(|i| {
            let (pre, pre_neg) = conditions(i);
            !clash(pre, &op.pre_neg) && !clash(&op.pre, pre_neg)
        })
        .collect();
    let compatible = |i: usize, j: usize| {
        let ((pi, ni), (pj, nj)) = (conditions(i), conditions(j));
        !clash(pi, nj) && !clash(pj, ni)
    };
    let mut fired = Vec::new();
    'combination: for mask in 0u32..1 << effects.len() {
        fired.clear();
        for i in (0..effects.len()).filter(|i| mask >> i & 1 == 1) {
            if !possible[i] || fired.iter().any(|&j| !compatible(i, j)) {
                continue 'combination;
            }
            fired.push(i);
        }
        let mut world = base.clone();
        for &i in &fired {
            let part = &effects[i].1;
            world.pre.extend(&part.pre);
            world.add.extend(&part.add);
            world.del.extend(&part.del);
        }
        for list in [&mut world.pre, &mut world.add, &mut world.del] {
            list.sort_unstable();
            list.dedup();
        }
        let indices: Vec<usize> = fired.iter().map(|&i| effects[i].0).collect();
        if !visit(&world, &indices) {
            return false;
        }
    }
    true
}

/// What an operator does to the number of true facts of one group.
#[derive(Debug, PartialEq, Eq)]
enum GroupEffect {
    /// It requires two facts of the group, so it never applies while the
    /// group is an invariant.
    Inapplicable,
    /// It may make the count grow past one.
    Grows,
    /// The count does not grow; `may_empty` when it may drop from one to zero.
    Keeps { may_empty: bool },
}

impl GroupEffect {
    /// `pre`, `add`, `del`: the operator's facts that lie in the group.
    fn of(pre: &[FactId], add: &[FactId], del: &[FactId]) -> GroupEffect {
        if pre.len() >= 2 {
            return GroupEffect::Inapplicable;
        }
        // Added facts that are not already required true may be new.
        let new = add.iter().filter(|f| !pre.contains(f)).count();
        if new >= 2 {
            return GroupEffect::Grows;
        }
        if new == 1 {
            // The count stays put only if the required fact of the group goes.
            let consumed = pre.iter().any(|f| del.contains(f) && !add.contains(f));
            if !consumed {
                return GroupEffect::Grows;
            }
            return GroupEffect::Keeps { may_empty: false };
        }
        // Nothing new: the count may drop when the true fact can be deleted.
        let deletes = del.iter().any(|f| !add.contains(f));
        let keeps_required = pre.iter().any(|f| !del.contains(f) || add.contains(f));
        GroupEffect::Keeps {
            may_empty: deletes && add.is_empty() && !keeps_required,
        }
    }
}

/// Interned predicate and object names of the task's facts.
struct FactNames {
    /// Per fact: predicate id.
    predicate: Vec<u32>,
    /// Per fact: object ids of the arguments.
    args: Vec<Vec<u32>>,
    /// Per predicate id: arity.
    arity: Vec<usize>,
    /// Per predicate id: some fact of it is derived.
    derived: Vec<bool>,
}

impl FactNames {
    fn new(task: &Task) -> Self {
        let mut preds: HashMap<&str, u32> = HashMap::new();
        let mut objects: HashMap<&str, u32> = HashMap::new();
        let mut arity = Vec::new();
        let mut derived = Vec::new();
        let mut predicate = Vec::with_capacity(task.num_facts());
        let mut args = Vec::with_capacity(task.num_facts());
        for fact in &task.facts {
            let next = preds.len() as u32;
            let p = *preds.entry(fact.predicate.as_str()).or_insert(next);
            if p as usize == arity.len() {
                arity.push(fact.args.len());
                derived.push(false);
            }
            derived[p as usize] |= task.is_derived(predicate.len() as FactId);
            // A predicate used with different arities: keep the smallest, so
            // that key positions exist in every fact.
            arity[p as usize] = arity[p as usize].min(fact.args.len());
            predicate.push(p);
            args.push(
                fact.args
                    .iter()
                    .map(|a| {
                        let next = objects.len() as u32;
                        *objects.entry(a.as_str()).or_insert(next)
                    })
                    .collect(),
            );
        }
        // Key positions are stored in a u8.
        for a in &mut arity {
            *a = (*a).min(255);
        }
        FactNames {
            predicate,
            args,
            arity,
            derived,
        }
    }
}

/// One predicate of a schema and the argument position that holds the key.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
struct Member {
    predicate: u32,
    /// `None`: the schema has no key, all facts of the predicate belong to
    /// its single group.
    position: Option<u8>,
}

struct SchemaOutcome {
    /// Verified ground groups with their exactly-one flag.
    groups: Vec<(Vec<FactId>, bool)>,
    /// Members that would repair some failed group.
    refinements: BTreeSet<Member>,
}

/// Role of a fact in an operator.
const PRE: u8 = 0;
const ADD: u8 = 1;
const DEL: u8 = 2;

fn check_schema(task: &Task, names: &FactNames, schema: &[Member]) -> SchemaOutcome {
    let keyed = schema.first().is_some_and(|m| m.position.is_some());
    let keys_of = |f: FactId, out: &mut Vec<u32>| {
        out.clear();
        let p = names.predicate[f as usize];
        for m in schema {
            if m.predicate != p {
                continue;
            }
            let key = match m.position {
                Some(i) => names.args[f as usize][i as usize],
                None => 0,
            };
            if !out.contains(&key) {
                out.push(key);
            }
        }
    };
    // Key -> group facts.
    let mut groups: BTreeMap<u32, Vec<FactId>> = BTreeMap::new();
    let mut keys = Vec::new();
    for f in 0..task.num_facts() as FactId {
        keys_of(f, &mut keys);
        for &k in &keys {
            groups.entry(k).or_default().push(f);
        }
    }
    // Key -> (failed, exactly_one).
    let mut status: HashMap<u32, (bool, bool)> = groups.keys().map(|&k| (k, (false, true))).collect();
    let mut init_count: HashMap<u32, usize> = HashMap::new();
    for &f in &task.init {
        keys_of(f, &mut keys);
        for &k in &keys {
            *init_count.entry(k).or_default() += 1;
        }
    }
    for (k, st) in status.iter_mut() {
        let n = init_count.get(k).copied().unwrap_or(0);
        if n > 1 {
            st.0 = true;
        }
        if n != 1 {
            st.1 = false;
        }
    }
    let mut refinements = BTreeSet::new();
    // (key, effect, role, fact): effect 0 is the operator's unconditional
    // part, effect i + 1 its i-th conditional effect.
    let mut entries: Vec<(u32, u32, u8, FactId)> = Vec::new();
    for op in &task.operators {
        crate::limits::checkpoint();
        entries.clear();
        let parts = std::iter::once((&op.pre, &op.add, &op.del))
            .chain(op.cond_effects.iter().map(|e| (&e.pre, &e.add, &e.del)));
        for (effect, (pre, add, del)) in parts.enumerate() {
            for (role, list) in [(PRE, pre), (ADD, add), (DEL, del)] {
                for &f in list.iter() {
                    keys_of(f, &mut keys);
                    for &k in &keys {
                        entries.push((k, effect as u32, role, f));
                    }
                }
            }
        }
        if entries.is_empty() {
            continue;
        }
        entries.sort_unstable();
        for slice in entries.chunk_by(|a, b| a.0 == b.0) {
            let key = slice[0].0;
            let Some(st) = status.get_mut(&key) else { continue };
            if st.0 {
                continue;
            }
            let part = |effect: u32| {
                let of_role = |r: u8| -> Vec<FactId> {
                    slice
                        .iter()
                        .filter(|e| e.1 == effect && e.2 == r)
                        .map(|e| e.3)
                        .collect()
                };
                Part {
                    pre: of_role(PRE),
                    add: of_role(ADD),
                    del: of_role(DEL),
                }
            };
            let mut touching: Vec<u32> = slice.iter().filter(|e| e.1 > 0 && e.2 != PRE).map(|e| e.1).collect();
            touching.dedup();
            let effects: Vec<(usize, Part)> = touching.iter().map(|&e| (e as usize - 1, part(e))).collect();
            let mut grown = None;
            let complete = worlds(op, &part(0), &effects, |world, fired| {
                match GroupEffect::of(&world.pre, &world.add, &world.del) {
                    GroupEffect::Inapplicable => true,
                    GroupEffect::Keeps { may_empty } => {
                        st.1 &= !may_empty;
                        true
                    }
                    GroupEffect::Grows => {
                        grown = Some(fired.to_vec());
                        false
                    }
                }
            });
            if complete {
                continue;
            }
            st.0 = true;
            let Some(fired) = grown else { continue };
            // Facts the operator requires and consumes could balance the
            // count if they belonged to the group.
            let fired: Vec<&CondEffect> = fired.iter().map(|&i| &op.cond_effects[i]).collect();
            let required = op.pre.iter().chain(fired.iter().flat_map(|e| &e.pre));
            let deleted = |g: FactId| op.del.contains(&g) || fired.iter().any(|e| e.del.contains(&g));
            let added = |g: FactId| op.add.contains(&g) || fired.iter().any(|e| e.add.contains(&g));
            for &g in required {
                if !deleted(g) || added(g) {
                    continue;
                }
                let p = names.predicate[g as usize];
                let args = &names.args[g as usize];
                if keyed {
                    for (i, &a) in args.iter().enumerate().take(names.arity[p as usize]) {
                        let m = Member {
                            predicate: p,
                            position: Some(i as u8),
                        };
                        if a == key && !schema.contains(&m) {
                            refinements.insert(m);
                        }
                    }
                } else {
                    let m = Member {
                        predicate: p,
                        position: None,
                    };
                    if !schema.contains(&m) {
                        refinements.insert(m);
                    }
                }
            }
        }
    }
    let groups = groups
        .into_iter()
        .filter_map(|(k, facts)| {
            let (failed, exactly_one) = status[&k];
            (!failed).then_some((facts, exactly_one))
        })
        .collect();
    SchemaOutcome { groups, refinements }
}

/// Chooses variables from invariant groups: greedily the group with the most
/// uncovered facts (ties: exactly-one first, then the lowest fact ids), until
/// no group covers two new facts; every leftover fact becomes a group of its
/// own. A group that lost facts to earlier choices is only at-most-one.
/// The result is sorted by smallest fact id.
pub fn cover(num_facts: usize, groups: &[MutexGroup]) -> Vec<MutexGroup> {
    let mut covered = vec![false; num_facts];
    let valid: Vec<&MutexGroup> = groups
        .iter()
        .filter(|g| g.facts.iter().all(|&f| (f as usize) < num_facts))
        .collect();
    // Max-heap of (uncovered count, exactly_one, Reverse(index)); stale
    // entries are re-counted when popped.
    let mut heap: BinaryHeap<(usize, bool, std::cmp::Reverse<usize>)> = valid
        .iter()
        .enumerate()
        .map(|(i, g)| (g.facts.len(), g.exactly_one, std::cmp::Reverse(i)))
        .collect();
    let mut chosen = Vec::new();
    while let Some((count, exactly_one, std::cmp::Reverse(i))) = heap.pop() {
        if count < 2 {
            break;
        }
        let g = valid[i];
        let fresh: Vec<FactId> = g.facts.iter().copied().filter(|&f| !covered[f as usize]).collect();
        let still_whole = fresh.len() == g.facts.len();
        let now_exact = g.exactly_one && still_whole;
        if fresh.len() != count || now_exact != exactly_one {
            heap.push((fresh.len(), now_exact, std::cmp::Reverse(i)));
            continue;
        }
        for &f in &fresh {
            covered[f as usize] = true;
        }
        chosen.push(MutexGroup {
            facts: fresh,
            exactly_one: now_exact,
        });
    }
    for (f, &c) in covered.iter().enumerate() {
        if !c {
            chosen.push(MutexGroup {
                facts: vec![f as FactId],
                exactly_one: false,
            });
        }
    }
    chosen.sort_by_key(|g| g.facts[0]);
    chosen
}

/// Answers "can these two facts hold together?" from invariant groups: two
/// distinct facts of one group never do.
pub struct MutexTable {
    /// Per fact: sorted indices of the groups containing it.
    groups_of: Vec<Vec<u32>>,
}

impl MutexTable {
    pub fn new(num_facts: usize, groups: &[MutexGroup]) -> Self {
        let mut groups_of = vec![Vec::new(); num_facts];
        for (i, g) in groups.iter().enumerate() {
            for &f in &g.facts {
                if let Some(list) = groups_of.get_mut(f as usize) {
                    list.push(i as u32);
                }
            }
        }
        MutexTable { groups_of }
    }

    /// True when `a` and `b` are distinct and never hold in the same
    /// reachable state.
    pub fn are_mutex(&self, a: FactId, b: FactId) -> bool {
        if a == b {
            return false;
        }
        let (Some(ga), Some(gb)) = (self.groups_of.get(a as usize), self.groups_of.get(b as usize)) else {
            return false;
        };
        let (mut i, mut j) = (0, 0);
        while i < ga.len() && j < gb.len() {
            match ga[i].cmp(&gb[j]) {
                std::cmp::Ordering::Equal => return true,
                std::cmp::Ordering::Less => i += 1,
                std::cmp::Ordering::Greater => j += 1,
            }
        }
        false
    }

    /// True when two of `facts` never hold together.
    pub fn has_mutex_pair(&self, facts: &[FactId]) -> bool {
        facts
            .iter()
            .enumerate()
            .any(|(i, &a)| facts[i + 1..].iter().any(|&b| self.are_mutex(a, b)))
    }

    /// True when `op` applies in no reachable state: it requires two mutex
    /// facts or a fact both true and false, or it would make two mutex facts
    /// true (which the verified invariants rule out).
    pub fn never_applies(&self, op: &Operator) -> bool {
        self.has_mutex_pair(&op.pre)
            || self.has_mutex_pair(&op.add)
            || op.pre.iter().any(|f| op.pre_neg.binary_search(f).is_ok())
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::task::Fact;
    use crate::task::testing::{assemble, sorted};

    fn fact(p: &str, args: &[&str]) -> Fact {
        Fact {
            predicate: p.to_string(),
            args: args.iter().map(|s| s.to_string()).collect(),
        }
    }

    /// Builds a task from named facts; operators given as (name, pre, add, del).
    pub(crate) struct TaskBuilder {
        pub facts: Vec<Fact>,
        index: HashMap<Fact, FactId>,
        pub ops: Vec<Operator>,
    }

    impl TaskBuilder {
        pub fn new() -> Self {
            TaskBuilder {
                facts: Vec::new(),
                index: HashMap::new(),
                ops: Vec::new(),
            }
        }

        pub fn id(&mut self, p: &str, args: &[&str]) -> FactId {
            let f = fact(p, args);
            if let Some(&i) = self.index.get(&f) {
                return i;
            }
            let i = self.facts.len() as FactId;
            self.facts.push(f.clone());
            self.index.insert(f, i);
            i
        }

        pub fn op(&mut self, name: &str, args: &[&str], pre: Vec<FactId>, add: Vec<FactId>, del: Vec<FactId>) {
            self.ops.push(Operator {
                action: name.to_string(),
                args: args.iter().map(|s| s.to_string()).collect(),
                pre: sorted(&pre),
                pre_neg: Vec::new(),
                add: sorted(&add),
                del: sorted(&del),
                cost: 1,
                cond_effects: Vec::new(),
            });
        }

        pub fn build(self, init: Vec<FactId>, goal: Vec<FactId>) -> Task {
            assemble(self.facts, self.ops, &init, &goal, &[], false)
        }
    }

    /// Tokens on a ring of places: `move t p` takes token t one place on
    /// (cost 2), `rotate` takes every token one place on at once (cost 3,
    /// a conditional effect per token and place). `starts[t]` and
    /// `goals[t]` are token t's places. With `leaky`, rotating leaves a
    /// token also where it was, and "where is t" is no invariant.
    pub(crate) fn carousel(places: usize, starts: &[usize], goals: &[usize], leaky: bool) -> Task {
        let mut b = TaskBuilder::new();
        let at = |b: &mut TaskBuilder, t: usize, p: usize| b.id("at", &[&format!("t{t}"), &format!("p{}", p % places)]);
        let mut rotate = Vec::new();
        for t in 0..starts.len() {
            for p in 0..places {
                let (here, next) = (at(&mut b, t, p), at(&mut b, t, p + 1));
                b.op(
                    "move",
                    &[&format!("t{t}"), &format!("p{p}")],
                    vec![here],
                    vec![next],
                    vec![here],
                );
                b.ops.last_mut().expect("just pushed").cost = 2;
                let del = if leaky { vec![] } else { vec![here] };
                rotate.push(crate::task::testing::cond(&[here], &[], &[next], &del));
            }
        }
        b.op("rotate", &[], vec![], vec![], vec![]);
        let op = b.ops.last_mut().expect("just pushed");
        op.cost = 3;
        op.cond_effects = rotate;
        let init = (starts.iter().enumerate()).map(|(t, &p)| at(&mut b, t, p)).collect();
        let goal = (goals.iter().enumerate()).map(|(t, &p)| at(&mut b, t, p)).collect();
        b.build(init, goal)
    }

    /// Tower of Hanoi in the IPC encoding: discs d1 (smallest) .. dn, pegs
    /// p1..pm; on(x, y) "x lies directly on y", clear(x). Discs start on
    /// the first peg and must end on the last one. `smaller` is static, so
    /// only moves onto larger discs or pegs are grounded.
    pub(crate) fn hanoi(discs: usize, pegs: usize) -> Task {
        let disc_names: Vec<String> = (1..=discs).map(|i| format!("d{i}")).collect();
        let peg_names: Vec<String> = (1..=pegs).map(|i| format!("p{i}")).collect();
        let start: Vec<usize> = vec![0; discs];
        let goal: Vec<usize> = vec![pegs - 1; discs];
        hanoi_between(&disc_names, &peg_names, &start, &goal)
    }

    /// Hanoi from one peg assignment to another (discs listed smallest
    /// first; `start[i]` is the peg of disc i).
    pub(crate) fn hanoi_between(discs: &[String], pegs: &[String], start: &[usize], goal: &[usize]) -> Task {
        let mut b = TaskBuilder::new();
        let n = discs.len();
        // Disc i may lie on disc j > i or on any peg.
        let supports = |i: usize| -> Vec<String> {
            let mut v: Vec<String> = discs[i + 1..].to_vec();
            v.extend(pegs.iter().cloned());
            v
        };
        for (i, d) in discs.iter().enumerate() {
            for s in supports(i) {
                b.id("on", &[d, &s]);
            }
        }
        for x in discs.iter().chain(pegs) {
            b.id("clear", &[x]);
        }
        for (i, d) in discs.iter().enumerate() {
            for from in supports(i) {
                for to in supports(i) {
                    if from == to {
                        continue;
                    }
                    let pre = vec![b.id("on", &[d, &from]), b.id("clear", &[d]), b.id("clear", &[&to])];
                    let add = vec![b.id("on", &[d, &to]), b.id("clear", &[&from])];
                    let del = vec![b.id("on", &[d, &from]), b.id("clear", &[&to])];
                    b.op("move", &[d, &from, &to], pre, add, del);
                }
            }
        }
        let facts_of = |b: &mut TaskBuilder, pos: &[usize]| -> Vec<FactId> {
            // Each disc lies on the next larger disc on its peg, or on the peg.
            let mut v = Vec::new();
            let mut top: Vec<Option<usize>> = vec![None; pegs.len()];
            for i in (0..n).rev() {
                let below = match top[pos[i]] {
                    Some(j) => discs[j].clone(),
                    None => pegs[pos[i]].clone(),
                };
                v.push(b.id("on", &[&discs[i], &below]));
                top[pos[i]] = Some(i);
            }
            v
        };
        let mut init = facts_of(&mut b, start);
        let goal = facts_of(&mut b, goal);
        // Clear: discs with nothing on them, empty pegs.
        let mut has_above = std::collections::HashSet::new();
        for &f in &init {
            has_above.insert(b.facts[f as usize].args[1].clone());
        }
        for x in discs.iter().chain(pegs) {
            if !has_above.contains(x) {
                init.push(b.id("clear", &[x]));
            }
        }
        b.build(init, goal)
    }

    /// A Sokoban-like grid: cells c-x-y of a w×h room, a player and stones;
    /// the player walks onto clear cells and pushes a stone onto the clear
    /// cell behind it. Goal: stones on the given cells.
    pub(crate) fn grid(
        w: usize,
        h: usize,
        player: (usize, usize),
        stones: &[(usize, usize)],
        goals: &[(usize, usize)],
    ) -> Task {
        let mut b = TaskBuilder::new();
        let cell = |x: usize, y: usize| format!("c-{x}-{y}");
        let stone_names: Vec<String> = (0..stones.len()).map(|i| format!("s{i}")).collect();
        let things: Vec<String> = std::iter::once("player".to_string())
            .chain(stone_names.iter().cloned())
            .collect();
        for t in &things {
            for y in 0..h {
                for x in 0..w {
                    b.id("at", &[t, &cell(x, y)]);
                }
            }
        }
        for y in 0..h {
            for x in 0..w {
                b.id("clear", &[&cell(x, y)]);
            }
        }
        let dirs: [(i64, i64); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
        let inside = |x: i64, y: i64| x >= 0 && y >= 0 && (x as usize) < w && (y as usize) < h;
        for y in 0..h as i64 {
            for x in 0..w as i64 {
                for (dx, dy) in dirs {
                    let (x1, y1, x2, y2) = (x + dx, y + dy, x + 2 * dx, y + 2 * dy);
                    if !inside(x1, y1) {
                        continue;
                    }
                    let from = cell(x as usize, y as usize);
                    let to = cell(x1 as usize, y1 as usize);
                    let pre = vec![b.id("at", &["player", &from]), b.id("clear", &[&to])];
                    let add = vec![b.id("at", &["player", &to]), b.id("clear", &[&from])];
                    let del = vec![b.id("at", &["player", &from]), b.id("clear", &[&to])];
                    b.op("move", &["player", &from, &to], pre, add, del);
                    if !inside(x2, y2) {
                        continue;
                    }
                    let beyond = cell(x2 as usize, y2 as usize);
                    for s in &stone_names {
                        let pre = vec![
                            b.id("at", &["player", &from]),
                            b.id("at", &[s, &to]),
                            b.id("clear", &[&beyond]),
                        ];
                        let add = vec![
                            b.id("at", &["player", &to]),
                            b.id("at", &[s, &beyond]),
                            b.id("clear", &[&from]),
                        ];
                        let del = vec![
                            b.id("at", &["player", &from]),
                            b.id("at", &[s, &to]),
                            b.id("clear", &[&beyond]),
                        ];
                        b.op("push", &["player", s, &from, &to, &beyond], pre, add, del);
                    }
                }
            }
        }
        let mut occupied = vec![player];
        occupied.extend_from_slice(stones);
        let mut init = vec![b.id("at", &["player", &cell(player.0, player.1)])];
        for (s, &(x, y)) in stone_names.iter().zip(stones) {
            init.push(b.id("at", &[s, &cell(x, y)]));
        }
        for y in 0..h {
            for x in 0..w {
                if !occupied.contains(&(x, y)) {
                    init.push(b.id("clear", &[&cell(x, y)]));
                }
            }
        }
        let goal = stone_names
            .iter()
            .zip(goals)
            .map(|(s, &(x, y))| b.id("at", &[s, &cell(x, y)]))
            .collect();
        b.build(init, goal)
    }

    fn group_of(task: &Task, facts: impl Fn(&Fact) -> bool) -> Vec<FactId> {
        (0..task.num_facts() as FactId)
            .filter(|&f| facts(&task.facts[f as usize]))
            .collect()
    }

    #[test]
    fn hanoi_disc_positions_are_exactly_one_variables() {
        let task = hanoi(3, 3);
        let vars = variables(&task);
        for d in ["d1", "d2", "d3"] {
            let expected = group_of(&task, |f| f.predicate == "on" && f.args[0] == d);
            assert!(
                vars.contains(&MutexGroup {
                    facts: expected.clone(),
                    exactly_one: true
                }),
                "no variable for {d}: {vars:?}"
            );
        }
        // Every fact in exactly one variable.
        let mut seen = vec![0; task.num_facts()];
        for v in &vars {
            for &f in &v.facts {
                seen[f as usize] += 1;
            }
        }
        assert!(seen.iter().all(|&n| n == 1));
        // The "what is on x" invariant is found too.
        let groups = invariant_groups(&task);
        let above_p1 = group_of(&task, |f| {
            (f.predicate == "on" && f.args[1] == "p1") || (f.predicate == "clear" && f.args[0] == "p1")
        });
        assert!(groups.contains(&MutexGroup {
            facts: above_p1,
            exactly_one: true
        }));
    }

    #[test]
    fn grid_player_and_cell_groups() {
        let task = grid(3, 3, (0, 0), &[(1, 1)], &[(2, 2)]);
        let vars = variables(&task);
        let player = group_of(&task, |f| f.predicate == "at" && f.args[0] == "player");
        assert!(vars.contains(&MutexGroup {
            facts: player,
            exactly_one: true
        }));
        let groups = invariant_groups(&task);
        let cell = group_of(&task, |f| f.args.last().is_some_and(|a| a == "c-1-1"));
        assert!(groups.contains(&MutexGroup {
            facts: cell,
            exactly_one: true
        }));
        let table = MutexTable::new(task.num_facts(), &groups);
        let a = task
            .facts
            .iter()
            .position(|f| f == &fact("at", &["player", "c-0-0"]))
            .unwrap() as FactId;
        let b = task.facts.iter().position(|f| f == &fact("clear", &["c-0-0"])).unwrap() as FactId;
        let c = task.facts.iter().position(|f| f == &fact("clear", &["c-0-1"])).unwrap() as FactId;
        assert!(table.are_mutex(a, b));
        assert!(!table.are_mutex(a, c));
        assert!(!table.are_mutex(a, a));
    }

    #[test]
    fn non_invariants_are_rejected() {
        // Two facts that can become true together.
        let mut b = TaskBuilder::new();
        let p = b.id("p", &["a"]);
        let q = b.id("p", &["b"]);
        b.op("make", &[], vec![p], vec![q], vec![]);
        let task = b.build(vec![p], vec![q]);
        assert_eq!(check_group(&task, &[p, q]), None);
        assert!(invariant_groups(&task).is_empty());
        let vars = variables(&task);
        assert_eq!(vars.len(), 2);
        assert!(vars.iter().all(|v| v.facts.len() == 1 && !v.exactly_one));
        // A swap keeps exactly one.
        let mut b = TaskBuilder::new();
        let p = b.id("p", &["a"]);
        let q = b.id("p", &["b"]);
        b.op("swap", &[], vec![p], vec![q], vec![p]);
        let task = b.build(vec![p], vec![q]);
        assert_eq!(check_group(&task, &[p, q]), Some(true));
        // Deleting without adding leaves at most one.
        let mut b = TaskBuilder::new();
        let p = b.id("p", &["a"]);
        let q = b.id("p", &["b"]);
        b.op("swap", &[], vec![p], vec![q], vec![p]);
        b.op("drop", &[], vec![q], vec![], vec![q]);
        let task = b.build(vec![p], vec![q]);
        assert_eq!(check_group(&task, &[p, q]), Some(false));
        assert_eq!(
            variables(&task),
            vec![MutexGroup {
                facts: vec![p, q],
                exactly_one: false
            }]
        );
    }

    #[test]
    fn conditional_effects_keep_or_break_invariants() {
        // Rotating moves each token from where it is: each token is at
        // exactly one place. Every combination of the rotation's effects on
        // one token needs it at two places, except one effect alone.
        let task = carousel(4, &[0, 2], &[1, 1], false);
        let token = |t: &str| group_of(&task, |f| f.args[0] == t);
        for t in ["t0", "t1"] {
            assert_eq!(check_group(&task, &token(t)), Some(true));
            assert!(invariant_groups(&task).contains(&MutexGroup {
                facts: token(t),
                exactly_one: true
            }));
        }
        // A rotation that leaves a copy behind breaks it.
        let task = carousel(4, &[0, 2], &[1, 1], true);
        assert_eq!(check_group(&task, &group_of(&task, |f| f.args[0] == "t0")), None);
        assert!(invariant_groups(&task).is_empty());
        // An effect that consumes the fact it needs keeps a group only when
        // its condition asks for it: a switch toggled by two conditional
        // effects has exactly one of on, off.
        let mut b = TaskBuilder::new();
        let (on, off) = (b.id("on", &[]), b.id("off", &[]));
        b.op("toggle", &[], vec![], vec![], vec![]);
        b.ops[0].cond_effects = vec![
            crate::task::testing::cond(&[on], &[], &[off], &[on]),
            crate::task::testing::cond(&[off], &[], &[on], &[off]),
        ];
        let task = b.build(vec![off], vec![on]);
        assert_eq!(check_group(&task, &[on, off]), Some(true));
        // Without the condition the delete might not have held.
        let mut b = TaskBuilder::new();
        let (on, off) = (b.id("on", &[]), b.id("off", &[]));
        b.op("toggle", &[], vec![], vec![], vec![]);
        b.ops[0].cond_effects = vec![
            crate::task::testing::cond(&[], &[], &[off], &[on]),
            crate::task::testing::cond(&[off], &[], &[on], &[off]),
        ];
        let task = b.build(vec![off], vec![on]);
        assert_eq!(check_group(&task, &[on, off]), None);
    }

    #[test]
    fn cover_is_deterministic_and_partitions() {
        let task = grid(3, 2, (0, 0), &[(1, 0), (1, 1)], &[(2, 0), (2, 1)]);
        let a = variables(&task);
        let b = variables(&task);
        assert_eq!(a, b);
        let total: usize = a.iter().map(|g| g.facts.len()).sum();
        assert_eq!(total, task.num_facts());
        for g in &a {
            if g.facts.len() > 1 {
                assert!(check_group(&task, &g.facts).is_some());
            }
        }
    }
}
