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

use super::{FactId, MutexGroup, Operator, Task};

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
/// Tasks with conditional effects or derived facts get none: the induction
/// below reads only unconditional effects, and would take derived facts
/// (which no operator adds) for invariant.
pub fn invariant_groups(task: &Task) -> Vec<MutexGroup> {
    let _phase = crate::limits::phase(crate::limits::Phase::InvariantSynthesis);
    if task.has_conditional_effects() || task.has_axioms() {
        return Vec::new();
    }
    let names = FactNames::new(task);
    let mut found: BTreeMap<Vec<FactId>, bool> = BTreeMap::new();
    let mut seen: BTreeSet<Vec<Member>> = BTreeSet::new();
    let mut queue: VecDeque<Vec<Member>> = VecDeque::new();
    for (pred, &arity) in names.arity.iter().enumerate() {
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
        .map(|o| o.pre.len() + o.add.len() + o.del.len())
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
    for op in &task.operators {
        let pick = |list: &[FactId]| -> Vec<FactId> { list.iter().copied().filter(|&f| member[f as usize]).collect() };
        let effect = GroupEffect::of(&pick(&op.pre), &pick(&op.add), &pick(&op.del));
        match effect {
            GroupEffect::Inapplicable => {}
            GroupEffect::Grows => return None,
            GroupEffect::Keeps { may_empty } => exactly_one &= !may_empty,
        }
    }
    Some(exactly_one)
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
}

impl FactNames {
    fn new(task: &Task) -> Self {
        let mut preds: HashMap<&str, u32> = HashMap::new();
        let mut objects: HashMap<&str, u32> = HashMap::new();
        let mut arity = Vec::new();
        let mut predicate = Vec::with_capacity(task.num_facts());
        let mut args = Vec::with_capacity(task.num_facts());
        for fact in &task.facts {
            let next = preds.len() as u32;
            let p = *preds.entry(fact.predicate.as_str()).or_insert(next);
            if p as usize == arity.len() {
                arity.push(fact.args.len());
            }
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
        FactNames { predicate, args, arity }
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
    let mut entries: Vec<(u32, u8, FactId)> = Vec::new();
    for op in &task.operators {
        crate::limits::checkpoint();
        entries.clear();
        for (role, list) in [(PRE, &op.pre), (ADD, &op.add), (DEL, &op.del)] {
            for &f in list.iter() {
                keys_of(f, &mut keys);
                for &k in &keys {
                    entries.push((k, role, f));
                }
            }
        }
        if entries.is_empty() {
            continue;
        }
        entries.sort_unstable();
        let mut start = 0;
        while start < entries.len() {
            let key = entries[start].0;
            let mut end = start;
            while end < entries.len() && entries[end].0 == key {
                end += 1;
            }
            let slice = &entries[start..end];
            start = end;
            let Some(st) = status.get_mut(&key) else { continue };
            if st.0 {
                continue;
            }
            let of_role = |r: u8| -> Vec<FactId> { slice.iter().filter(|e| e.1 == r).map(|e| e.2).collect() };
            let (pre, add, del) = (of_role(PRE), of_role(ADD), of_role(DEL));
            match GroupEffect::of(&pre, &add, &del) {
                GroupEffect::Inapplicable => {}
                GroupEffect::Keeps { may_empty } => st.1 &= !may_empty,
                GroupEffect::Grows => {
                    st.0 = true;
                    // Facts the operator requires and consumes could balance
                    // the count if they belonged to the group.
                    for &g in &op.pre {
                        if !op.del.contains(&g) || op.add.contains(&g) {
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
