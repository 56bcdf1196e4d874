//! Grounding: from the lifted AST to a compact STRIPS [`Task`].
//!
//! 1. Predicates no action adds or deletes are *static* (so is `=`, and so
//!    are types, as unary constraints on parameters): they never become
//!    facts; preconditions on them are decided while grounding.
//! 2. A forward fix-point over the delete relaxation finds the reachable
//!    facts and operators (semi-naive: each newly reached fact triggers only
//!    the joins in which it takes part). Action parameters are bound by
//!    joining along the preconditions, with hash indexes on the bound
//!    argument positions, never by enumerating all parameter tuples.
//! 3. Reachable facts and operators are numbered in sorted order, so the
//!    same input always gives the same [`Task`].
//! 4. Operators that apply in no reachable state by the task's invariants
//!    (two mutex preconditions) are removed ([`impossible`]).
//! 5. Constant and goal-irrelevant facts and operators are removed
//!    ([`simplify`]).
//! 6. The final task gets its invariant groups
//!    ([`crate::task::invariants`]), computed here once for all their users.

mod impossible;
mod join;
mod simplify;
mod symbols;

use std::collections::VecDeque;
use std::time::Instant;

// FxHash: the grounder hashes millions of short `u32` tuples, for which
// SipHash is needlessly slow. Nothing depends on the maps' iteration order
// (what is collected from them is sorted), so the hash need not be randomized.
use rustc_hash::{FxHashMap, FxHashSet};

use crate::pddl::{Action, CostExpr, Domain, Problem, Term};
use crate::task::invariants::invariant_groups;
use crate::task::{Fact, FactId, Invariants, Operator, Task};

use join::{Arg, JoinInput, Plan, Relation, SchemaAtom, Tuple};
use symbols::{Interner, Types};

/// Sizes and time of a grounding run, for the log.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GroundStats {
    pub facts: usize,
    pub operators: usize,
    pub static_facts: usize,
    /// Constant or goal-irrelevant facts removed after grounding.
    pub removed_facts: usize,
    /// Irrelevant or duplicate operators removed after grounding.
    pub removed_operators: usize,
    /// Operators removed because they apply in no reachable state.
    pub impossible_operators: usize,
    pub seconds: f64,
}

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GroundError {
    /// A goal fact is not reachable even in the delete relaxation: the task
    /// is proven unsolvable without search.
    #[error("goal {0} is unreachable (relaxed reachability): the task is unsolvable")]
    GoalUnreachable(String),
    /// The task uses something the grounder cannot handle (named).
    #[error("{0}")]
    Unsupported(String),
}

/// Grounds a checked domain and problem and simplifies the result.
/// Numbering is deterministic.
pub fn ground(domain: &Domain, problem: &Problem) -> Result<(Task, GroundStats), GroundError> {
    let start = Instant::now();
    let (task, mut stats) = ground_reachable(domain, problem)?;
    let groups = invariant_groups(&task);
    let (task, impossible) = impossible::remove_impossible_operators(task, &groups);
    stats.impossible_operators = impossible;
    let (mut task, removed) = simplify::simplify(task)
        .map_err(|f| GroundError::GoalUnreachable(format!("(not {f}) (the fact is always true)")))?;
    // The task's groups are those of its final form: removing operators may
    // leave more invariants, and simplification renumbers facts. When
    // neither removed anything, the task is the one the groups came from;
    // otherwise they are computed when first asked for.
    if impossible == 0 && removed == simplify::Removed::default() {
        task.invariants = Invariants::known(groups);
    }
    stats.facts = task.num_facts();
    stats.operators = task.num_operators();
    stats.removed_facts = removed.facts;
    stats.removed_operators = removed.operators;
    stats.seconds = start.elapsed().as_secs_f64();
    Ok((task, stats))
}

/// The relaxed-reachable part of the task, before simplification.
fn ground_reachable(domain: &Domain, problem: &Problem) -> Result<(Task, GroundStats), GroundError> {
    let start = Instant::now();
    let mut grounder = Grounder::new(domain, problem)?;
    // A stop while grounding names the action schema at work and its size.
    crate::limits::set_items(grounder.schemas.iter().map(|s| grounder.describe_size(s)).collect());
    grounder.reach();
    let static_facts = grounder.num_static_facts();
    let task = grounder.into_task(domain, problem)?;
    let stats = GroundStats {
        facts: task.num_facts(),
        operators: task.num_operators(),
        static_facts,
        removed_facts: 0,
        removed_operators: 0,
        impossible_operators: 0,
        seconds: start.elapsed().as_secs_f64(),
    };
    Ok((task, stats))
}

/// The name of the equality predicate.
const EQUALITY: &str = "=";

/// An action schema with interned predicates and objects.
struct Schema<'a> {
    action: &'a Action,
    param_sets: Vec<usize>,
    pos_fluent: Vec<SchemaAtom>,
    pos_static: Vec<SchemaAtom>,
    neg_fluent: Vec<SchemaAtom>,
    neg_static: Vec<SchemaAtom>,
    equalities: Vec<(SchemaAtom, bool)>,
    add: Vec<SchemaAtom>,
    del: Vec<SchemaAtom>,
}

struct Grounder<'a> {
    objects: Interner,
    predicates: Interner,
    types: Types,
    is_static: Vec<bool>,
    /// Per predicate: static facts (for static predicates) or the fluent
    /// facts reached and already processed by the fix-point.
    relations: Vec<Relation>,
    /// Per predicate: fluent facts reached (processed or queued).
    reached: Vec<FxHashSet<Tuple>>,
    schemas: Vec<Schema<'a>>,
    /// Plans of actions without positive fluent preconditions.
    untriggered: Vec<Plan>,
    /// Per predicate: plans triggered by a new fact of it.
    triggered: Vec<Vec<Plan>>,
    queue: VecDeque<(u32, Tuple)>,
    /// Reached operators: (action index, parameter binding).
    operators: FxHashSet<(usize, Tuple)>,
    init_fluent: Vec<(u32, Tuple)>,
}

impl<'a> Grounder<'a> {
    fn new(domain: &'a Domain, problem: &Problem) -> Result<Grounder<'a>, GroundError> {
        let mut objects = Interner::default();
        let mut types = Types::new(domain, problem, &mut objects);
        let mut predicates = Interner::default();
        let mut arities: Vec<Option<usize>> = Vec::new();
        let mut declare = |predicates: &mut Interner, name: &str, arity: usize| -> Result<u32, GroundError> {
            let id = predicates.intern(name);
            if arities.len() <= id as usize {
                arities.resize(id as usize + 1, None);
            }
            match arities[id as usize] {
                None => arities[id as usize] = Some(arity),
                Some(a) if a == arity || name == EQUALITY => {}
                Some(a) => {
                    return Err(GroundError::Unsupported(format!(
                        "predicate {name} is used with {arity} arguments but has {a}"
                    )));
                }
            }
            Ok(id)
        };
        let equality = declare(&mut predicates, EQUALITY, 2)?;
        for p in &domain.predicates {
            declare(&mut predicates, &p.name, p.params.len())?;
        }
        // Intern every atom of the actions, so arities are known and fluent
        // predicates marked before anything is grounded.
        let mut fluent: FxHashSet<u32> = FxHashSet::default();
        let mut schemas = Vec::new();
        for action in &domain.actions {
            let params: FxHashMap<&str, usize> = action
                .params
                .iter()
                .enumerate()
                .map(|(i, p)| (p.name.as_str(), i))
                .collect();
            let mut compile = |atom: &crate::pddl::Atom,
                               predicates: &mut Interner|
             -> Result<SchemaAtom, GroundError> {
                if atom.args.len() > 64 {
                    return Err(GroundError::Unsupported(format!(
                        "predicate {} has more than 64 arguments",
                        atom.predicate
                    )));
                }
                let pred = declare(predicates, &atom.predicate, atom.args.len())?;
                let args = atom
                    .args
                    .iter()
                    .map(|t| match t {
                        Term::Variable(v) => params.get(v.as_str()).map(|&i| Arg::Var(i)).ok_or_else(|| {
                            GroundError::Unsupported(format!("action {}: variable {v} is not a parameter", action.name))
                        }),
                        Term::Constant(c) => Ok(Arg::Obj(objects.intern(c))),
                    })
                    .collect::<Result<Vec<_>, _>>()?;
                Ok(SchemaAtom { pred, args })
            };
            let add = action
                .add
                .iter()
                .map(|a| compile(a, &mut predicates))
                .collect::<Result<Vec<_>, _>>()?;
            let del = action
                .del
                .iter()
                .map(|a| compile(a, &mut predicates))
                .collect::<Result<Vec<_>, _>>()?;
            let pre = action
                .precondition
                .iter()
                .map(|l| Ok((compile(&l.atom, &mut predicates)?, l.positive)))
                .collect::<Result<Vec<_>, GroundError>>()?;
            for a in add.iter().chain(&del) {
                if a.pred == equality {
                    return Err(GroundError::Unsupported(format!(
                        "action {} has an effect on equality",
                        action.name
                    )));
                }
                fluent.insert(a.pred);
            }
            let param_sets = action.params.iter().map(|p| types.set_for(&p.types)).collect();
            schemas.push((action, param_sets, pre, add, del));
        }
        let mut init = Vec::new();
        for atom in &problem.init {
            if atom.predicate == EQUALITY {
                continue;
            }
            let pred = declare(&mut predicates, &atom.predicate, atom.args.len())?;
            let args: Tuple = atom.args.iter().map(|a| objects.intern(a)).collect();
            init.push((pred, args));
        }
        let num_preds = predicates.len();
        let is_static: Vec<bool> = (0..num_preds as u32).map(|p| !fluent.contains(&p)).collect();
        let mut relations: Vec<Relation> = (0..num_preds)
            .map(|p| Relation::new(arities.get(p).copied().flatten().unwrap_or(0)))
            .collect();
        let mut init_fluent = Vec::new();
        for (pred, args) in init {
            if is_static[pred as usize] {
                relations[pred as usize].insert(args);
            } else {
                init_fluent.push((pred, args));
            }
        }

        let schemas: Vec<Schema> = schemas
            .into_iter()
            .map(|(action, param_sets, pre, add, del)| {
                let mut s = Schema {
                    action,
                    param_sets,
                    pos_fluent: Vec::new(),
                    pos_static: Vec::new(),
                    neg_fluent: Vec::new(),
                    neg_static: Vec::new(),
                    equalities: Vec::new(),
                    add,
                    del,
                };
                for (atom, positive) in pre {
                    if atom.pred == equality {
                        s.equalities.push((atom, positive));
                    } else {
                        match (positive, is_static[atom.pred as usize]) {
                            (true, false) => s.pos_fluent.push(atom),
                            (true, true) => s.pos_static.push(atom),
                            (false, false) => s.neg_fluent.push(atom),
                            (false, true) => s.neg_static.push(atom),
                        }
                    }
                }
                s
            })
            .collect();

        let mut untriggered = Vec::new();
        let mut triggered: Vec<Vec<Plan>> = (0..num_preds).map(|_| Vec::new()).collect();
        for (i, s) in schemas.iter().enumerate() {
            let input = JoinInput {
                num_params: s.param_sets.len(),
                positive: s.pos_fluent.iter().chain(&s.pos_static).collect(),
                negative_static: s.neg_static.iter().collect(),
                equalities: s.equalities.iter().map(|(a, p)| (a, *p)).collect(),
                is_static: &is_static,
            };
            if s.pos_fluent.is_empty() {
                untriggered.push(Plan::compile(i, &input, None, &mut relations));
            } else {
                for (j, atom) in s.pos_fluent.iter().enumerate() {
                    triggered[atom.pred as usize].push(Plan::compile(i, &input, Some(j), &mut relations));
                }
            }
        }
        Ok(Grounder {
            objects,
            predicates,
            types,
            is_static,
            relations,
            reached: (0..num_preds).map(|_| FxHashSet::default()).collect(),
            schemas,
            untriggered,
            triggered,
            queue: VecDeque::new(),
            operators: FxHashSet::default(),
            init_fluent,
        })
    }

    fn num_static_facts(&self) -> usize {
        (0..self.relations.len())
            .filter(|&p| self.is_static[p])
            .map(|p| self.relations[p].len())
            .sum()
    }

    /// Marks a fluent fact reached; queues it if it is new.
    fn reach_fact(&mut self, pred: u32, args: Tuple) {
        if self.reached[pred as usize].insert(args.clone()) {
            self.queue.push_back((pred, args));
        }
    }

    /// An upper bound on the ground operators of a schema, for the message
    /// of a grounding that is stopped: the product of its parameters'
    /// numbers of values, each at most the size of a unary static
    /// precondition on it.
    fn describe_size(&self, schema: &Schema) -> String {
        let sets = self.types.sets();
        let values: Vec<usize> = schema
            .param_sets
            .iter()
            .enumerate()
            .map(|(v, &set)| {
                let unary_static = schema
                    .pos_static
                    .iter()
                    .filter(|a| a.args.len() == 1 && matches!(a.args[0], Arg::Var(w) if w == v))
                    .map(|a| self.relations[a.pred as usize].len());
                unary_static.fold(sets[set].objects.len(), usize::min)
            })
            .collect();
        let bound = values.iter().fold(1u128, |n, &k| n.saturating_mul(k as u128));
        let factors: Vec<String> = values.iter().map(usize::to_string).collect();
        format!(
            "action {}: up to {bound} ground operators ({} parameter values)",
            schema.action.name,
            if factors.is_empty() {
                "no".to_string()
            } else {
                factors.join("·")
            }
        )
    }

    /// Records newly found operators and reaches their add effects.
    fn add_operators(&mut self, action: usize, bindings: Vec<Tuple>) {
        crate::limits::set_item(action);
        for binding in bindings {
            crate::limits::checkpoint();
            if !self.operators.insert((action, binding.clone())) {
                continue;
            }
            for i in 0..self.schemas[action].add.len() {
                let atom = &self.schemas[action].add[i];
                let pred = atom.pred;
                let args = atom.ground(&binding);
                self.reach_fact(pred, args);
            }
        }
    }

    /// The relaxed-reachability fix-point.
    fn reach(&mut self) {
        for (pred, args) in std::mem::take(&mut self.init_fluent) {
            self.reach_fact(pred, args);
        }
        let sets = self.types.sets();
        let mut found: Vec<(usize, Vec<Tuple>)> = Vec::new();
        for plan in &self.untriggered {
            crate::limits::set_item(plan.action);
            let mut out = Vec::new();
            let params = &self.schemas[plan.action].param_sets;
            plan.run(None, &self.relations, sets, params, &mut out);
            found.push((plan.action, out));
        }
        for (action, out) in found {
            self.add_operators(action, out);
        }
        let mut out = Vec::new();
        while let Some((pred, args)) = self.queue.pop_front() {
            self.relations[pred as usize].insert(args.clone());
            for k in 0..self.triggered[pred as usize].len() {
                let plan = &self.triggered[pred as usize][k];
                crate::limits::set_item(plan.action);
                let params = &self.schemas[plan.action].param_sets;
                plan.run(Some(&args), &self.relations, self.types.sets(), params, &mut out);
                let action = plan.action;
                let bindings = std::mem::take(&mut out);
                self.add_operators(action, bindings);
            }
        }
    }

    fn fact_of(&self, pred: u32, args: &[u32]) -> Fact {
        Fact {
            predicate: self.predicates.name(pred).to_string(),
            args: args.iter().map(|&o| self.objects.name(o).to_string()).collect(),
        }
    }

    /// Numbers the reached facts and builds operators, init and goal.
    fn into_task(self, domain: &Domain, problem: &Problem) -> Result<Task, GroundError> {
        let mut keyed: Vec<(Fact, u32, Tuple)> = Vec::new();
        for (pred, set) in self.reached.iter().enumerate() {
            for args in set {
                keyed.push((self.fact_of(pred as u32, args), pred as u32, args.clone()));
            }
        }
        keyed.sort_unstable_by(|a, b| a.0.cmp(&b.0));
        let mut ids: FxHashMap<(u32, Tuple), FactId> = FxHashMap::default();
        let mut facts = Vec::with_capacity(keyed.len());
        for (i, (fact, pred, args)) in keyed.into_iter().enumerate() {
            ids.insert((pred, args), i as FactId);
            facts.push(fact);
        }
        let id_of = |pred: u32, args: Tuple| ids.get(&(pred, args)).copied();

        let uses_costs = problem.minimize_total_cost && domain.actions.iter().any(|a| !a.costs.is_empty());
        let numeric: FxHashMap<(&str, Vec<&str>), i64> = problem
            .numeric_init
            .iter()
            .map(|n| {
                (
                    (n.function.as_str(), n.args.iter().map(String::as_str).collect()),
                    n.value,
                )
            })
            .collect();

        let mut found: Vec<&(usize, Tuple)> = self.operators.iter().collect();
        let arg_names = |binding: &[u32]| -> Vec<&str> { binding.iter().map(|&o| self.objects.name(o)).collect() };
        found.sort_unstable_by(|a, b| {
            let (sa, sb) = (&self.schemas[a.0], &self.schemas[b.0]);
            (sa.action.name.as_str(), arg_names(&a.1), a.0).cmp(&(sb.action.name.as_str(), arg_names(&b.1), b.0))
        });
        let mut operators = Vec::with_capacity(found.len());
        'ops: for (action, binding) in found {
            crate::limits::checkpoint();
            let s = &self.schemas[*action];
            let mut pre = Vec::with_capacity(s.pos_fluent.len());
            for atom in &s.pos_fluent {
                match id_of(atom.pred, atom.ground(binding)) {
                    Some(f) => pre.push(f),
                    // Cannot happen (the binding was found from reached facts), but
                    // an operator with an unreachable precondition is never applicable.
                    None => continue 'ops,
                }
            }
            let mut pre_neg: Vec<FactId> = s
                .neg_fluent
                .iter()
                .filter_map(|a| id_of(a.pred, a.ground(binding)))
                .collect();
            let mut add: Vec<FactId> = s.add.iter().filter_map(|a| id_of(a.pred, a.ground(binding))).collect();
            let mut del: Vec<FactId> = s.del.iter().filter_map(|a| id_of(a.pred, a.ground(binding))).collect();
            for v in [&mut pre, &mut pre_neg, &mut add, &mut del] {
                v.sort_unstable();
                v.dedup();
            }
            // Add wins over delete (PDDL applies deletes first).
            del.retain(|f| add.binary_search(f).is_err());
            if pre_neg.iter().any(|f| pre.binary_search(f).is_ok()) {
                continue;
            }
            // Adding a fact the operator requires changes nothing; an
            // operator left without effects (`drive t x x`) is no step at all.
            add.retain(|f| pre.binary_search(f).is_err());
            if add.is_empty() && del.is_empty() {
                continue;
            }
            let cost = if uses_costs {
                self.cost(s.action, binding, &numeric)?
            } else {
                1
            };
            operators.push(Operator {
                action: s.action.name.clone(),
                args: arg_names(binding).into_iter().map(str::to_string).collect(),
                pre,
                pre_neg,
                add,
                del,
                cost,
                cond_effects: Vec::new(),
            });
        }

        let mut init: Vec<FactId> = Vec::new();
        for atom in &problem.init {
            let Some(pred) = self.predicates.get(&atom.predicate) else {
                continue;
            };
            if self.is_static[pred as usize] {
                continue;
            }
            let args: Option<Tuple> = atom.args.iter().map(|x| self.objects.get(x)).collect();
            if let Some(f) = args.and_then(|args| id_of(pred, args)) {
                init.push(f);
            }
        }
        init.sort_unstable();
        init.dedup();

        let mut goal = Vec::new();
        let mut goal_neg = Vec::new();
        for lit in &problem.goal {
            let atom = &lit.atom;
            let unreachable = || GroundError::GoalUnreachable(atom.to_string());
            if atom.predicate == EQUALITY {
                let holds = atom.args.len() == 2 && atom.args[0] == atom.args[1];
                if holds != lit.positive {
                    return Err(unreachable());
                }
                continue;
            }
            let pred = self.predicates.get(&atom.predicate);
            let args: Option<Tuple> = atom.args.iter().map(|x| self.objects.get(x)).collect();
            let (Some(pred), Some(args)) = (pred, args) else {
                // Unknown names: the atom is false everywhere.
                if lit.positive {
                    return Err(unreachable());
                }
                continue;
            };
            if self.is_static[pred as usize] {
                if self.relations[pred as usize].contains(&args) != lit.positive {
                    return Err(unreachable());
                }
                continue;
            }
            match (id_of(pred, args), lit.positive) {
                (Some(f), true) => goal.push(f),
                (None, true) => return Err(unreachable()),
                (Some(f), false) => goal_neg.push(f),
                // Never reachable, so never true: the goal holds trivially.
                (None, false) => {}
            }
        }
        for v in [&mut goal, &mut goal_neg] {
            v.sort_unstable();
            v.dedup();
        }
        if let Some(f) = goal.iter().find(|f| goal_neg.binary_search(f).is_ok()) {
            return Err(GroundError::GoalUnreachable(format!(
                "{} (required both true and false)",
                facts[*f as usize]
            )));
        }
        Ok(Task {
            facts,
            operators,
            init,
            goal,
            goal_neg,
            axioms: Vec::new(),
            axiom_layers: Vec::new(),
            derived: Vec::new(),
            has_action_costs: uses_costs,
            // Verified by `ground` once the task is final.
            invariants: Invariants::default(),
        })
    }

    /// The operator's cost: the sum of its cost effects under the binding;
    /// static numeric functions are looked up in the problem's init.
    fn cost(
        &self,
        action: &Action,
        binding: &[u32],
        numeric: &FxHashMap<(&str, Vec<&str>), i64>,
    ) -> Result<u32, GroundError> {
        let mut total: i64 = 0;
        let params: FxHashMap<&str, usize> = action
            .params
            .iter()
            .enumerate()
            .map(|(i, p)| (p.name.as_str(), i))
            .collect();
        for c in &action.costs {
            let value = match c {
                CostExpr::Constant(k) => *k,
                CostExpr::Function { name, args, .. } => {
                    let mut names = Vec::with_capacity(args.len());
                    for t in args {
                        names.push(match t {
                            Term::Constant(c) => c.as_str(),
                            Term::Variable(v) => match params.get(v.as_str()) {
                                Some(&i) => self.objects.name(binding[i]),
                                None => {
                                    return Err(GroundError::Unsupported(format!(
                                        "action {}: cost variable {v} is not a parameter",
                                        action.name
                                    )));
                                }
                            },
                        });
                    }
                    match numeric.get(&(name.as_str(), names.clone())) {
                        Some(&v) => v,
                        None => {
                            return Err(GroundError::Unsupported(format!(
                                "action {}: no value for ({}{}) in the initial state",
                                action.name,
                                name,
                                names.iter().map(|n| format!(" {n}")).collect::<String>()
                            )));
                        }
                    }
                }
            };
            if value < 0 {
                return Err(GroundError::Unsupported(format!(
                    "action {}: negative cost {value}",
                    action.name
                )));
            }
            total = total.saturating_add(value);
        }
        u32::try_from(total)
            .map_err(|_| GroundError::Unsupported(format!("action {}: cost {total} is too large", action.name)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pddl::{Atom, GroundAtom, GroundLiteral, Literal, Location, NumericFact, TypeDecl, TypedName};

    fn atom(text: &str) -> Atom {
        let mut words = text.split_whitespace();
        let predicate = words.next().unwrap_or_default().to_string();
        let args = words
            .map(|w| {
                if w.starts_with('?') {
                    Term::Variable(w.to_string())
                } else {
                    Term::Constant(w.to_string())
                }
            })
            .collect();
        Atom {
            predicate,
            args,
            location: Location::default(),
        }
    }

    fn pos(text: &str) -> Literal {
        Literal {
            positive: true,
            atom: atom(text),
        }
    }

    fn neg(text: &str) -> Literal {
        Literal {
            positive: false,
            atom: atom(text),
        }
    }

    fn typed(name: &str, ty: &str) -> TypedName {
        TypedName {
            name: name.to_string(),
            types: ty.split('|').map(str::to_string).collect(),
            location: Location::default(),
        }
    }

    fn action(name: &str, params: &[(&str, &str)], pre: Vec<Literal>, add: &[&str], del: &[&str]) -> Action {
        Action {
            name: name.to_string(),
            params: params.iter().map(|(n, t)| typed(n, t)).collect(),
            precondition: pre,
            add: add.iter().map(|a| atom(a)).collect(),
            del: del.iter().map(|a| atom(a)).collect(),
            costs: Vec::new(),
            location: Location::default(),
        }
    }

    fn domain(types: &[(&str, &str)], actions: Vec<Action>) -> Domain {
        Domain {
            name: "test".to_string(),
            requirements: vec!["strips".to_string()],
            types: types
                .iter()
                .map(|(n, p)| TypeDecl {
                    name: n.to_string(),
                    parents: p.split('|').map(str::to_string).collect(),
                })
                .collect(),
            constants: Vec::new(),
            predicates: Vec::new(),
            functions: Vec::new(),
            actions,
        }
    }

    fn ground_atom(text: &str) -> GroundAtom {
        let mut words = text.split_whitespace().map(str::to_string);
        GroundAtom {
            predicate: words.next().unwrap_or_default(),
            args: words.collect(),
        }
    }

    fn problem(objects: &[(&str, &str)], init: &[&str], goal: &[&str]) -> Problem {
        Problem {
            name: "p".to_string(),
            domain: "test".to_string(),
            objects: objects.iter().map(|(n, t)| typed(n, t)).collect(),
            init: init.iter().map(|a| ground_atom(a)).collect(),
            numeric_init: Vec::new(),
            goal: goal
                .iter()
                .map(|g| match g.strip_prefix("not ") {
                    Some(rest) => GroundLiteral {
                        positive: false,
                        atom: ground_atom(rest),
                        location: Location::default(),
                    },
                    None => GroundLiteral {
                        positive: true,
                        atom: ground_atom(g),
                        location: Location::default(),
                    },
                })
                .collect(),
            minimize_total_cost: false,
        }
    }

    fn blocks(distinct: bool) -> Domain {
        let ne = |v: Vec<Literal>| {
            let mut v = v;
            if distinct {
                v.push(neg("= ?x ?y"));
            }
            v
        };
        let b = "block";
        domain(
            &[("block", "object")],
            vec![
                action(
                    "pick-up",
                    &[("?x", b)],
                    vec![pos("clear ?x"), pos("ontable ?x"), pos("handempty")],
                    &["holding ?x"],
                    &["ontable ?x", "clear ?x", "handempty"],
                ),
                action(
                    "put-down",
                    &[("?x", b)],
                    vec![pos("holding ?x")],
                    &["clear ?x", "handempty", "ontable ?x"],
                    &["holding ?x"],
                ),
                action(
                    "stack",
                    &[("?x", b), ("?y", b)],
                    ne(vec![pos("holding ?x"), pos("clear ?y")]),
                    &["clear ?x", "handempty", "on ?x ?y"],
                    &["holding ?x", "clear ?y"],
                ),
                action(
                    "unstack",
                    &[("?x", b), ("?y", b)],
                    ne(vec![pos("on ?x ?y"), pos("clear ?x"), pos("handempty")]),
                    &["holding ?x", "clear ?y"],
                    &["on ?x ?y", "clear ?x", "handempty"],
                ),
            ],
        )
    }

    fn blocks3() -> Problem {
        problem(
            &[("a", "block"), ("b", "block"), ("c", "block")],
            &[
                "clear a",
                "clear b",
                "clear c",
                "ontable a",
                "ontable b",
                "ontable c",
                "handempty",
            ],
            &["on a b", "on b c"],
        )
    }

    fn fact_id(task: &Task, text: &str) -> Option<FactId> {
        let g = ground_atom(text);
        task.facts
            .iter()
            .position(|f| f.predicate == g.predicate && f.args == g.args)
            .map(|i| i as FactId)
    }

    fn op<'t>(task: &'t Task, name: &str) -> Option<&'t Operator> {
        task.operators.iter().find(|o| o.name() == name)
    }

    #[test]
    fn blocks_world_without_inequality_reaches_self_stacking() {
        let (task, stats) = ground_reachable(&blocks(false), &blocks3()).expect("grounds");
        // clear, ontable, holding: 3 each; handempty; on: 9 (on a a is relaxed-reachable).
        assert_eq!(task.num_facts(), 19);
        assert_eq!(task.num_operators(), 3 + 3 + 9 + 9);
        assert_eq!(stats.facts, 19);
        assert_eq!(stats.operators, 24);
        assert_eq!(stats.static_facts, 0);
        assert_eq!(task.init.len(), 7);
        assert_eq!(
            task.goal,
            vec![fact_id(&task, "on a b").unwrap(), fact_id(&task, "on b c").unwrap()]
        );
        assert!(!task.has_action_costs);
        assert!(task.operators.iter().all(|o| o.cost == 1));
    }

    #[test]
    fn blocks_world_with_inequality_folds_equality() {
        let (task, _) = ground_reachable(&blocks(true), &blocks3()).expect("grounds");
        assert_eq!(task.num_facts(), 3 * 3 + 1 + 6);
        assert_eq!(task.num_operators(), 3 + 3 + 6 + 6);
        assert!(fact_id(&task, "on a a").is_none());
        assert!(op(&task, "(stack a a)").is_none());
        let stack = op(&task, "(stack a b)").expect("stack a b");
        let ids = |names: &[&str]| {
            let mut v: Vec<FactId> = names.iter().map(|n| fact_id(&task, n).unwrap()).collect();
            v.sort();
            v
        };
        assert_eq!(stack.pre, ids(&["holding a", "clear b"]));
        assert_eq!(stack.add, ids(&["clear a", "handempty", "on a b"]));
        assert_eq!(stack.del, ids(&["holding a", "clear b"]));
        assert!(stack.pre_neg.is_empty());
        // Sorted by (action, args) and facts by name.
        let names: Vec<String> = task.operators.iter().map(Operator::name).collect();
        let mut sorted = names.clone();
        sorted.sort();
        assert_eq!(names, sorted);
        let mut facts = task.facts.clone();
        facts.sort();
        assert_eq!(facts, task.facts);
        // Plan a-on-b-on-c is applicable by replay.
        let mut state = task.initial_state();
        for name in ["(pick-up b)", "(stack b c)", "(pick-up a)", "(stack a b)"] {
            let o = op(&task, name).expect("op");
            assert!(o.is_applicable(state.bits()), "{name}");
            let mut next = state.clone();
            o.apply_into(state.bits(), next.bits_mut());
            state = next;
        }
        assert!(task.is_goal(state.bits()));
    }

    #[test]
    fn grounding_is_deterministic_and_independent_of_object_order() {
        let (t1, _) = ground_reachable(&blocks(true), &blocks3()).expect("grounds");
        let (t2, _) = ground_reachable(&blocks(true), &blocks3()).expect("grounds");
        assert_eq!(t1, t2);
        let mut p = blocks3();
        p.objects.reverse();
        p.init.reverse();
        let (t3, _) = ground_reachable(&blocks(true), &p).expect("grounds");
        assert_eq!(t1, t3);
    }

    #[test]
    fn the_task_keeps_the_invariant_groups_of_its_final_form() {
        // Blocks without inequality has impossible operators (stack a a), so
        // the task changes after the first synthesis; the others do not.
        for ((d, p), changed) in [
            ((blocks(false), blocks3()), true),
            ((blocks(true), blocks3()), false),
            (roads(), false),
        ] {
            let (task, stats) = ground(&d, &p).expect("grounds");
            let removed = stats.impossible_operators + stats.removed_facts + stats.removed_operators;
            assert_eq!(removed > 0, changed);
            assert!(!task.invariant_groups().is_empty());
            assert_eq!(task.invariant_groups(), invariant_groups(&task).as_slice());
        }
    }

    /// A road map: `road` is static, `at` fluent; d has no incoming road.
    fn roads() -> (Domain, Problem) {
        let d = domain(
            &[("place", "object")],
            vec![action(
                "drive",
                &[("?from", "place"), ("?to", "place")],
                vec![pos("at ?from"), pos("road ?from ?to")],
                &["at ?to"],
                &["at ?from"],
            )],
        );
        let p = problem(
            &[("a", "place"), ("b", "place"), ("c", "place"), ("d", "place")],
            &["at a", "road a b", "road b c", "road d a"],
            &["at c"],
        );
        (d, p)
    }

    #[test]
    fn statics_are_folded_and_unreachable_parts_removed() {
        let (d, p) = roads();
        let (task, stats) = ground_reachable(&d, &p).expect("grounds");
        let names: Vec<String> = task.facts.iter().map(Fact::to_string).collect();
        assert_eq!(names, vec!["(at a)", "(at b)", "(at c)"]);
        let ops: Vec<String> = task.operators.iter().map(Operator::name).collect();
        assert_eq!(ops, vec!["(drive a b)", "(drive b c)"]);
        assert_eq!(stats.static_facts, 3);
        assert_eq!(task.init, vec![0]);
        assert_eq!(task.goal, vec![2]);
    }

    #[test]
    fn unreachable_goals_are_reported() {
        let (d, mut p) = roads();
        p.goal = problem(&[], &[], &["at d"]).goal;
        assert_eq!(
            ground_reachable(&d, &p),
            Err(GroundError::GoalUnreachable("(at d)".to_string()))
        );
        // A false static goal, and a true static negative goal.
        p.goal = problem(&[], &[], &["road a c"]).goal;
        assert!(matches!(ground_reachable(&d, &p), Err(GroundError::GoalUnreachable(_))));
        p.goal = problem(&[], &[], &["not road a b"]).goal;
        assert!(matches!(ground_reachable(&d, &p), Err(GroundError::GoalUnreachable(_))));
        // A negative goal on a never-reachable fact is trivially true.
        p.goal = problem(&[], &[], &["not at d", "at c"]).goal;
        let (task, _) = ground_reachable(&d, &p).expect("grounds");
        assert!(task.goal_neg.is_empty());
        assert_eq!(task.goal.len(), 1);
    }

    #[test]
    fn negative_preconditions() {
        // `go` needs: not (blocked ?to) (static), not (visited ?to) (fluent),
        // not (broken) (never reachable: dropped).
        let d = domain(
            &[],
            vec![action(
                "go",
                &[("?from", "object"), ("?to", "object")],
                vec![
                    pos("at ?from"),
                    pos("link ?from ?to"),
                    neg("blocked ?to"),
                    neg("visited ?to"),
                    neg("broken"),
                ],
                &["at ?to", "visited ?to"],
                &["at ?from", "broken"],
            )],
        );
        let p = problem(
            &[("a", "object"), ("b", "object"), ("c", "object")],
            &["at a", "visited a", "link a b", "link a c", "link b a", "blocked c"],
            &["at b"],
        );
        let (task, _) = ground_reachable(&d, &p).expect("grounds");
        let ops: Vec<String> = task.operators.iter().map(Operator::name).collect();
        assert_eq!(ops, vec!["(go a b)", "(go b a)"]);
        let go = op(&task, "(go b a)").unwrap();
        assert_eq!(go.pre_neg, vec![fact_id(&task, "visited a").unwrap()]);
        // The delete of the unreachable (broken) is dropped.
        assert_eq!(go.del, vec![fact_id(&task, "at b").unwrap()]);
        assert!(fact_id(&task, "broken").is_none());
    }

    #[test]
    fn add_wins_over_delete_and_contradictory_operators_are_removed() {
        let d = domain(
            &[],
            vec![
                action(
                    "touch",
                    &[("?x", "object")],
                    vec![pos("p ?x")],
                    &["p ?x", "q ?x"],
                    &["p ?x"],
                ),
                action(
                    "never",
                    &[("?x", "object")],
                    vec![pos("p ?x"), neg("p ?x")],
                    &["r ?x"],
                    &[],
                ),
            ],
        );
        let p = problem(&[("a", "object")], &["p a"], &["q a"]);
        let (task, _) = ground_reachable(&d, &p).expect("grounds");
        let touch = op(&task, "(touch a)").unwrap();
        assert_eq!(touch.del, Vec::<FactId>::new());
        // Adding the required (p a) again changes nothing, so only (q a) stays.
        assert_eq!(touch.add, vec![fact_id(&task, "q a").unwrap()]);
        assert!(op(&task, "(never a)").is_none());
        assert_eq!(task.num_operators(), 1);
    }

    #[test]
    fn operators_without_any_effect_are_not_kept() {
        // (go ?x ?y) with ?x = ?y deletes and adds (at ?x): no change.
        let d = domain(
            &[],
            vec![action(
                "go",
                &[("?x", "object"), ("?y", "object")],
                vec![pos("at ?x")],
                &["at ?y"],
                &["at ?x"],
            )],
        );
        let p = problem(&[("a", "object"), ("b", "object")], &["at a"], &["at b"]);
        let (task, _) = ground_reachable(&d, &p).expect("grounds");
        let mut ops: Vec<String> = task
            .operators
            .iter()
            .map(|o| format!("({} {})", o.action, o.args.join(" ")))
            .collect();
        ops.sort();
        assert_eq!(ops, vec!["(go a b)", "(go b a)"]);
    }

    #[test]
    fn type_hierarchy_and_either() {
        // truck < vehicle, plane < vehicle; `fly` takes (either plane heli).
        let d = domain(
            &[
                ("vehicle", "object"),
                ("truck", "vehicle"),
                ("plane", "vehicle"),
                ("heli", "object"),
            ],
            vec![
                action("start", &[("?v", "vehicle")], vec![], &["running ?v"], &[]),
                action(
                    "fly",
                    &[("?v", "plane|heli")],
                    vec![pos("running ?v")],
                    &["flying ?v"],
                    &[],
                ),
                action("lift", &[("?v", "heli")], vec![], &["flying ?v"], &[]),
            ],
        );
        let p = problem(
            &[("t", "truck"), ("p", "plane"), ("h", "heli"), ("x", "object")],
            &[],
            &["flying p"],
        );
        let (task, _) = ground_reachable(&d, &p).expect("grounds");
        let ops: Vec<String> = task.operators.iter().map(Operator::name).collect();
        assert_eq!(ops, vec!["(fly p)", "(lift h)", "(start p)", "(start t)"]);
        // (fly h) needs (running h), which only vehicles reach.
        assert!(fact_id(&task, "running h").is_none());
    }

    #[test]
    fn constants_and_repeated_variables() {
        let mut d = domain(
            &[],
            vec![
                action(
                    "loop",
                    &[("?x", "object")],
                    vec![pos("edge ?x ?x")],
                    &["looped ?x"],
                    &[],
                ),
                action("home", &[("?x", "object")], vec![pos("looped ?x")], &["at home"], &[]),
            ],
        );
        d.constants.push(typed("home", "object"));
        let p = problem(
            &[("a", "object"), ("b", "object")],
            &["edge a b", "edge b b"],
            &["at home"],
        );
        let (task, _) = ground_reachable(&d, &p).expect("grounds");
        let ops: Vec<String> = task.operators.iter().map(Operator::name).collect();
        assert_eq!(ops, vec!["(home b)", "(loop b)"]);
    }

    fn costed() -> (Domain, Problem) {
        let (mut d, mut p) = roads();
        d.actions[0].costs = vec![
            CostExpr::Function {
                name: "dist".to_string(),
                args: vec![Term::Variable("?from".to_string()), Term::Variable("?to".to_string())],
                location: Location::default(),
            },
            CostExpr::Constant(1),
        ];
        d.actions.push(action("wait", &[], vec![], &["waited"], &[]));
        let num = |a: &str, b: &str, v: i64| NumericFact {
            function: "dist".to_string(),
            args: vec![a.to_string(), b.to_string()],
            value: v,
            location: Location::default(),
        };
        p.numeric_init = vec![num("a", "b", 5), num("b", "c", 7)];
        p.minimize_total_cost = true;
        (d, p)
    }

    #[test]
    fn action_costs_from_functions() {
        let (d, p) = costed();
        let (task, _) = ground_reachable(&d, &p).expect("grounds");
        assert!(task.has_action_costs);
        assert_eq!(op(&task, "(drive a b)").unwrap().cost, 6);
        assert_eq!(op(&task, "(drive b c)").unwrap().cost, 8);
        // No cost effect under a cost metric: free.
        assert_eq!(op(&task, "(wait)").unwrap().cost, 0);

        // Without the metric the task is unit cost.
        let mut unit = p.clone();
        unit.minimize_total_cost = false;
        let (task, _) = ground_reachable(&d, &unit).expect("grounds");
        assert!(!task.has_action_costs);
        assert!(task.operators.iter().all(|o| o.cost == 1));
    }

    #[test]
    fn bad_costs_are_errors() {
        let (d, mut p) = costed();
        p.numeric_init.pop();
        match ground_reachable(&d, &p) {
            Err(GroundError::Unsupported(m)) => assert!(m.contains("(dist b c)"), "{m}"),
            other => panic!("expected an error, got {other:?}"),
        }
        let (d, mut p) = costed();
        p.numeric_init[0].value = -3;
        assert!(matches!(ground_reachable(&d, &p), Err(GroundError::Unsupported(_))));
    }

    #[test]
    fn malformed_input_is_an_error_not_a_panic() {
        let (mut d, p) = roads();
        d.actions[0].precondition.push(pos("road ?from ?nowhere"));
        assert!(matches!(ground_reachable(&d, &p), Err(GroundError::Unsupported(_))));
        let (mut d, p) = roads();
        d.actions[0].precondition.push(pos("road ?from"));
        assert!(matches!(ground_reachable(&d, &p), Err(GroundError::Unsupported(_))));
        let (d, mut p) = roads();
        p.init.push(ground_atom("road a b c"));
        assert!(matches!(ground_reachable(&d, &p), Err(GroundError::Unsupported(_))));
    }
}
