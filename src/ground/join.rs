//! Relations of ground tuples with hash indexes by bound argument positions,
//! and join plans that bind an action's parameters one atom at a time.

use rustc_hash::{FxHashMap, FxHashSet};

use super::symbols::ObjectSets;

/// The object ids of a ground atom's arguments or an action's parameters.
pub(super) type Tuple = Box<[u32]>;

/// Marks a parameter not bound yet.
pub(super) const UNBOUND: u32 = u32::MAX;

/// An atom argument: a parameter (by index) or an object.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Arg {
    Var(usize),
    Obj(u32),
}

impl Arg {
    #[inline]
    fn value(self, binding: &[u32]) -> u32 {
        match self {
            Arg::Var(v) => binding[v],
            Arg::Obj(o) => o,
        }
    }

    fn is_bound(self, bound: &[bool]) -> bool {
        match self {
            Arg::Var(v) => bound[v],
            Arg::Obj(_) => true,
        }
    }
}

/// An atom of an action schema, with interned predicate and arguments.
#[derive(Clone, Debug)]
pub(super) struct SchemaAtom {
    pub pred: u32,
    pub args: Vec<Arg>,
}

impl SchemaAtom {
    /// The ground tuple under a complete binding.
    pub fn ground(&self, binding: &[u32]) -> Tuple {
        self.args.iter().map(|a| a.value(binding)).collect()
    }
}

/// The tuples of one predicate, with indexes from the values at a set of
/// argument positions (a bit mask) to the tuples having them.
pub(super) struct Relation {
    pub arity: usize,
    tuples: Vec<Tuple>,
    set: FxHashSet<Tuple>,
    indexes: Vec<(u64, FxHashMap<Tuple, Vec<u32>>)>,
}

fn key(mask: u64, tuple: &[u32]) -> Tuple {
    tuple
        .iter()
        .enumerate()
        .filter(|(i, _)| mask & (1 << i) != 0)
        .map(|(_, &o)| o)
        .collect()
}

impl Relation {
    pub fn new(arity: usize) -> Relation {
        Relation {
            arity,
            tuples: Vec::new(),
            set: FxHashSet::default(),
            indexes: Vec::new(),
        }
    }

    pub fn len(&self) -> usize {
        self.tuples.len()
    }

    pub fn contains(&self, tuple: &[u32]) -> bool {
        self.set.contains(tuple)
    }

    /// Adds a tuple (of the relation's arity); false if it was there.
    pub fn insert(&mut self, tuple: Tuple) -> bool {
        debug_assert_eq!(tuple.len(), self.arity);
        if self.set.contains(&tuple) {
            return false;
        }
        let id = self.tuples.len() as u32;
        for (mask, index) in &mut self.indexes {
            index.entry(key(*mask, &tuple)).or_default().push(id);
        }
        self.set.insert(tuple.clone());
        self.tuples.push(tuple);
        true
    }

    /// The slot of the index over the positions in `mask` (mask ≠ 0),
    /// creating it from the present tuples if needed.
    pub fn index_slot(&mut self, mask: u64) -> usize {
        if let Some(slot) = self.indexes.iter().position(|(m, _)| *m == mask) {
            return slot;
        }
        let mut index: FxHashMap<Tuple, Vec<u32>> = FxHashMap::default();
        for (id, t) in self.tuples.iter().enumerate() {
            index.entry(key(mask, t)).or_default().push(id as u32);
        }
        self.indexes.push((mask, index));
        self.indexes.len() - 1
    }

    pub fn tuples(&self) -> &[Tuple] {
        &self.tuples
    }
}

/// One step of a join plan. Steps run in order over a partial binding; each
/// either narrows it (checks) or extends it (lookups, assignments, enumerations).
#[derive(Clone, Debug)]
enum Step {
    /// Bind the atom's unbound variables from the matching tuples of its
    /// relation; `slot` is the index over the bound positions (None: scan all).
    Lookup {
        atom: SchemaAtom,
        slot: Option<usize>,
        mask: u64,
    },
    /// The fully bound atom must be (`positive`) or not be in its relation.
    Check { atom: SchemaAtom, positive: bool },
    /// The two arguments must be equal (`positive`) or differ.
    Equal { a: Arg, b: Arg, positive: bool },
    /// Bind `var` to the value of `from` (from an equality atom).
    Assign { var: usize, from: Arg },
    /// Bind `var` to each object of its type.
    Enumerate { var: usize },
}

/// The compiled preconditions that matter for joins: positive atoms, and the
/// negative atoms on static predicates (which can be decided exactly).
pub(super) struct JoinInput<'a> {
    pub num_params: usize,
    /// Positive atoms on fluent and static predicates (not equality).
    pub positive: Vec<&'a SchemaAtom>,
    /// Negative atoms on static predicates (not equality).
    pub negative_static: Vec<&'a SchemaAtom>,
    /// Equality atoms with their sign.
    pub equalities: Vec<(&'a SchemaAtom, bool)>,
    /// Per predicate: static?
    pub is_static: &'a [bool],
}

/// A join plan for one action, optionally triggered by a new fact matching
/// one of its positive fluent atoms (`trigger`), whose variables are bound first.
pub(super) struct Plan {
    pub action: usize,
    pub trigger: Option<SchemaAtom>,
    steps: Vec<Step>,
}

impl Plan {
    /// Orders the steps greedily: checks as soon as everything they need is
    /// bound, then equalities that bind a variable, then the atom with the
    /// most bound positions (statics first on ties), and only for parameters
    /// no atom binds, enumeration of their type.
    pub fn compile(action: usize, input: &JoinInput, trigger: Option<usize>, relations: &mut [Relation]) -> Plan {
        let mut bound = vec![false; input.num_params];
        let mut pending: Vec<&SchemaAtom> = input.positive.clone();
        let mut negatives: Vec<&SchemaAtom> = input.negative_static.clone();
        let mut equalities = input.equalities.clone();
        let mut steps = Vec::new();
        let trigger_atom = trigger.map(|t| pending.remove(t).clone());
        if let Some(t) = &trigger_atom {
            bind_all(t, &mut bound);
        }
        loop {
            // Checks on fully bound atoms.
            pending.retain(|a| {
                let done = a.args.iter().all(|x| x.is_bound(&bound));
                if done {
                    steps.push(Step::Check {
                        atom: (*a).clone(),
                        positive: true,
                    });
                }
                !done
            });
            negatives.retain(|a| {
                let done = a.args.iter().all(|x| x.is_bound(&bound));
                if done {
                    steps.push(Step::Check {
                        atom: (*a).clone(),
                        positive: false,
                    });
                }
                !done
            });
            equalities.retain(|(a, positive)| {
                let done = a.args.iter().all(|x| x.is_bound(&bound));
                if done {
                    steps.push(Step::Equal {
                        a: a.args[0],
                        b: a.args[1],
                        positive: *positive,
                    });
                }
                !done
            });
            // A positive equality with one side bound binds the other side.
            if let Some(pos) = equalities
                .iter()
                .position(|(a, positive)| *positive && (a.args[0].is_bound(&bound) || a.args[1].is_bound(&bound)))
            {
                let (a, _) = equalities.remove(pos);
                let (var, from) = match (a.args[0], a.args[1]) {
                    (Arg::Var(v), other) if !bound[v] => (v, other),
                    (other, Arg::Var(v)) => (v, other),
                    // Both sides bound was handled by the checks above.
                    _ => continue,
                };
                bound[var] = true;
                steps.push(Step::Assign { var, from });
                continue;
            }
            // The most constrained atom next.
            let best = pending
                .iter()
                .enumerate()
                .max_by_key(|(i, a)| {
                    let bound_positions = a.args.iter().filter(|x| x.is_bound(&bound)).count();
                    (bound_positions, input.is_static[a.pred as usize], std::cmp::Reverse(*i))
                })
                .map(|(i, _)| i);
            if let Some(i) = best {
                let atom = pending.remove(i).clone();
                let mask = atom
                    .args
                    .iter()
                    .enumerate()
                    .filter(|(_, x)| x.is_bound(&bound))
                    .fold(0u64, |m, (p, _)| m | (1 << p));
                let slot = (mask != 0).then(|| relations[atom.pred as usize].index_slot(mask));
                bind_all(&atom, &mut bound);
                steps.push(Step::Lookup { atom, slot, mask });
                continue;
            }
            // Parameters no atom binds: their whole type.
            if let Some(var) = (0..input.num_params).find(|&v| !bound[v]) {
                bound[var] = true;
                steps.push(Step::Enumerate { var });
                continue;
            }
            break;
        }
        Plan {
            action,
            trigger: trigger_atom,
            steps,
        }
    }

    /// Runs the plan, from the trigger tuple if the plan has a trigger, and
    /// appends every complete binding to `out`.
    pub fn run(
        &self,
        trigger_tuple: Option<&[u32]>,
        relations: &[Relation],
        sets: &ObjectSets,
        param_sets: &[usize],
        out: &mut Vec<Tuple>,
    ) {
        let mut binding = vec![UNBOUND; param_sets.len()];
        if let (Some(atom), Some(tuple)) = (&self.trigger, trigger_tuple) {
            let mut newly = Vec::new();
            if !unify(atom, tuple, &mut binding, &mut newly, sets, param_sets) {
                return;
            }
        }
        let ctx = RunContext {
            relations,
            sets,
            param_sets,
            steps: &self.steps,
        };
        ctx.run(0, &mut binding, out);
    }
}

fn bind_all(atom: &SchemaAtom, bound: &mut [bool]) {
    for a in &atom.args {
        if let Arg::Var(v) = a {
            bound[*v] = true;
        }
    }
}

/// Matches `atom` against `tuple`, binding its unbound variables (recorded in
/// `newly` so the caller can undo them) if their types admit the values.
#[inline]
fn unify(
    atom: &SchemaAtom,
    tuple: &[u32],
    binding: &mut [u32],
    newly: &mut Vec<usize>,
    sets: &ObjectSets,
    param_sets: &[usize],
) -> bool {
    for (arg, &value) in atom.args.iter().zip(tuple) {
        match *arg {
            Arg::Obj(o) => {
                if o != value {
                    return false;
                }
            }
            Arg::Var(v) => {
                if binding[v] == UNBOUND {
                    let set = &sets[param_sets[v]];
                    if !set.is_everything && !set.contains(value) {
                        return false;
                    }
                    binding[v] = value;
                    newly.push(v);
                } else if binding[v] != value {
                    return false;
                }
            }
        }
    }
    true
}

struct RunContext<'a> {
    relations: &'a [Relation],
    sets: &'a ObjectSets,
    param_sets: &'a [usize],
    steps: &'a [Step],
}

impl RunContext<'_> {
    fn run(&self, at: usize, binding: &mut [u32], out: &mut Vec<Tuple>) {
        crate::limits::checkpoint();
        let Some(step) = self.steps.get(at) else {
            out.push(binding.into());
            return;
        };
        match step {
            Step::Check { atom, positive } => {
                let tuple = atom.ground(binding);
                if self.relations[atom.pred as usize].contains(&tuple) == *positive {
                    self.run(at + 1, binding, out);
                }
            }
            Step::Equal { a, b, positive } => {
                if (a.value(binding) == b.value(binding)) == *positive {
                    self.run(at + 1, binding, out);
                }
            }
            Step::Assign { var, from } => {
                let value = from.value(binding);
                let set = &self.sets[self.param_sets[*var]];
                if set.contains(value) || set.is_everything {
                    binding[*var] = value;
                    self.run(at + 1, binding, out);
                    binding[*var] = UNBOUND;
                }
            }
            Step::Enumerate { var } => {
                for &o in &self.sets[self.param_sets[*var]].objects {
                    binding[*var] = o;
                    self.run(at + 1, binding, out);
                }
                binding[*var] = UNBOUND;
            }
            Step::Lookup { atom, slot, mask } => {
                let relation = &self.relations[atom.pred as usize];
                let mut newly = Vec::new();
                let mut try_tuple = |tuple: &[u32], binding: &mut [u32], out: &mut Vec<Tuple>| {
                    newly.clear();
                    if unify(atom, tuple, binding, &mut newly, self.sets, self.param_sets) {
                        self.run(at + 1, binding, out);
                    }
                    for &v in &newly {
                        binding[v] = UNBOUND;
                    }
                };
                match slot {
                    None => {
                        for tuple in relation.tuples() {
                            try_tuple(tuple, binding, out);
                        }
                    }
                    Some(slot) => {
                        let k: Vec<u32> = atom
                            .args
                            .iter()
                            .enumerate()
                            .filter(|(p, _)| mask & (1 << p) != 0)
                            .map(|(_, a)| a.value(binding))
                            .collect();
                        if let Some(ids) = relation.indexes[*slot].1.get(k.as_slice()) {
                            for &id in ids {
                                try_tuple(&relation.tuples[id as usize], binding, out);
                            }
                        }
                    }
                }
            }
        }
    }
}
