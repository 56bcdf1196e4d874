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

mod join;
mod symbols;

use std::collections::VecDeque;
use std::time::Instant;

use crate::pddl::{Action, CostExpr, Domain, Problem, Term};
use crate::task::{Fact, FactId, Operator, Task};

use join::{Arg, JoinInput, Plan, Relation, SchemaAtom, Tuple};
use symbols::{FastMap, FastSet, Interner, Types};

/// Sizes and time of a grounding run, for the log.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GroundStats {
    pub facts: usize,
    pub operators: usize,
    pub static_facts: usize,
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

/// Grounds a checked domain and problem. Numbering is deterministic.
pub fn ground(domain: &Domain, problem: &Problem) -> Result<(Task, GroundStats), GroundError> {
    let start = Instant::now();
    let mut grounder = Grounder::new(domain, problem)?;
    grounder.reach();
    let static_facts = grounder.num_static_facts();
    let task = grounder.into_task(domain, problem)?;
    let stats = GroundStats {
        facts: task.num_facts(),
        operators: task.num_operators(),
        static_facts,
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
    reached: Vec<FastSet<Tuple>>,
    schemas: Vec<Schema<'a>>,
    /// Plans of actions without positive fluent preconditions.
    untriggered: Vec<Plan>,
    /// Per predicate: plans triggered by a new fact of it.
    triggered: Vec<Vec<Plan>>,
    queue: VecDeque<(u32, Tuple)>,
    /// Reached operators: (action index, parameter binding).
    operators: FastSet<(usize, Tuple)>,
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
        let mut fluent: FastSet<u32> = FastSet::default();
        let mut schemas = Vec::new();
        for action in &domain.actions {
            let params: FastMap<&str, usize> = action
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
            reached: (0..num_preds).map(|_| FastSet::default()).collect(),
            schemas,
            untriggered,
            triggered,
            queue: VecDeque::new(),
            operators: FastSet::default(),
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

    /// Records newly found operators and reaches their add effects.
    fn add_operators(&mut self, action: usize, bindings: Vec<Tuple>) {
        for binding in bindings {
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
        let mut ids: FastMap<(u32, Tuple), FactId> = FastMap::default();
        let mut facts = Vec::with_capacity(keyed.len());
        for (i, (fact, pred, args)) in keyed.into_iter().enumerate() {
            ids.insert((pred, args), i as FactId);
            facts.push(fact);
        }
        let id_of = |pred: u32, args: Tuple| ids.get(&(pred, args)).copied();

        let uses_costs = problem.minimize_total_cost && domain.actions.iter().any(|a| !a.costs.is_empty());
        let numeric: FastMap<(&str, Vec<&str>), i64> = problem
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
            has_action_costs: uses_costs,
        })
    }

    /// The operator's cost: the sum of its cost effects under the binding;
    /// static numeric functions are looked up in the problem's init.
    fn cost(
        &self,
        action: &Action,
        binding: &[u32],
        numeric: &FastMap<(&str, Vec<&str>), i64>,
    ) -> Result<u32, GroundError> {
        let mut total: i64 = 0;
        let params: FastMap<&str, usize> = action
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
