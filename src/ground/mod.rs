//! Grounding: from the lifted task in normal form ([`crate::normalize`]) to
//! a compact [`Task`].
//!
//! 1. Predicates no effect changes and no rule derives are *static* (so is
//!    `=`, and so are types, as unary constraints on parameters): they never
//!    become facts; conditions on them are decided while grounding.
//! 2. A forward fix-point over the delete relaxation finds the reachable
//!    facts, operators, conditional effects and derived facts
//!    (semi-naive: each newly reached fact triggers only the joins in which
//!    it takes part). Parameters are bound by joining along the positive
//!    conditions, with hash indexes on the bound argument positions, never
//!    by enumerating all parameter tuples. Each action, each of its
//!    effects that is conditional or quantified, and each derived-predicate
//!    rule is one [`Rule`] of the fix-point; negative conditions on fluent
//!    and derived facts are relaxed away (treated as reachable).
//! 3. Reachable facts and operators are numbered in sorted order, so the
//!    same input always gives the same [`Task`]. Conditional effects stay
//!    (condition, effect) pairs on their operator ([`effects`]); rules are
//!    sorted into layers ([`stratify`]).
//! 4. Operators that apply in no reachable state by the task's invariants
//!    (two mutex preconditions) are removed ([`impossible`]).
//! 5. Constant and goal-irrelevant facts and operators are removed
//!    ([`simplify`]).
//! 6. The final task gets its invariant groups
//!    ([`crate::task::invariants`]), computed here once for all their users.
//!
//! Steps 4 to 6 keep tasks with conditional effects or derived facts as
//! they are.

mod effects;
mod impossible;
mod join;
mod simplify;
mod stratify;
mod symbols;

use std::collections::VecDeque;
use std::time::Instant;

// FxHash: the grounder hashes millions of short `u32` tuples, for which
// SipHash is needlessly slow. Nothing depends on the maps' iteration order
// (what is collected from them is sorted), so the hash need not be randomized.
use rustc_hash::{FxHashMap, FxHashSet};

use crate::normalize::{self, NormalAction, NormalTask};
use crate::pddl::{Atom, CostExpr, Domain, ErrorKind, GroundAtom, Literal, PddlError, Problem, Term, TypedName};
use crate::task::invariants::invariant_groups;
use crate::task::{Axiom, CondEffect, Fact, FactId, Invariants, Operator, Task};

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
    /// An input error only grounding finds: a reached operator's cost
    /// needs a value the problem does not give.
    #[error("{0}")]
    Input(PddlError),
}

/// Grounds a checked domain and problem and simplifies the result.
/// Numbering is deterministic.
pub fn ground(domain: &Domain, problem: &Problem) -> Result<(Task, GroundStats), GroundError> {
    ground_normal(domain, problem, &normalize::normalize(domain, problem))
}

/// Grounds the normal form `normal` of a checked domain and problem (whose
/// types, objects, initial state and costs it reads) and simplifies the result.
pub fn ground_normal(
    domain: &Domain,
    problem: &Problem,
    normal: &NormalTask,
) -> Result<(Task, GroundStats), GroundError> {
    let start = Instant::now();
    let (task, mut stats) = ground_reachable(domain, problem, normal)?;
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
fn ground_reachable(
    domain: &Domain,
    problem: &Problem,
    normal: &NormalTask,
) -> Result<(Task, GroundStats), GroundError> {
    let start = Instant::now();
    let mut grounder = Grounder::new(domain, problem, normal)?;
    // A stop while grounding names the rule at work (an action, its
    // effects, a derived predicate) and its size.
    crate::limits::set_items(grounder.rules.iter().map(|r| grounder.describe_size(r)).collect());
    grounder.reach();
    let static_facts = grounder.num_static_facts();
    let task = grounder.into_task(problem)?;
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

/// What the bindings of a [`Rule`] stand for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum RuleKind {
    /// Operators of `actions[i]`.
    Action(usize),
    /// Conditional or quantified effects of `actions[action]`:
    /// `effect_groups[group]`.
    Effect { action: usize, group: usize },
    /// Derived facts: `axioms[i]`.
    Axiom(usize),
}

/// One join of the reachability fix-point: its parameters, its conditions
/// sorted by what the join does with them, and the atoms each binding makes
/// reachable.
struct Rule {
    kind: RuleKind,
    param_sets: Vec<usize>,
    pos_fluent: Vec<SchemaAtom>,
    pos_static: Vec<SchemaAtom>,
    neg_static: Vec<SchemaAtom>,
    equalities: Vec<(SchemaAtom, bool)>,
    reaches: Vec<SchemaAtom>,
}

/// A condition literal on a fluent or derived predicate, kept for the
/// ground task (static ones are decided by the join).
type FluentLiteral = (SchemaAtom, bool);

/// An action schema with interned atoms.
struct ActionSchema<'a> {
    normal: &'a NormalAction,
    /// The precondition on fluent and derived predicates.
    pre: Vec<FluentLiteral>,
    /// Effects without condition or quantified variables.
    add: Vec<SchemaAtom>,
    del: Vec<SchemaAtom>,
    /// Its effects with a condition or quantified variables, by rule index.
    effect_rules: Vec<usize>,
}

/// The effects of an action that share quantified variables and a
/// condition: their rule's parameters are the action's followed by the
/// variables.
struct EffectGroup {
    condition: Vec<FluentLiteral>,
    add: Vec<SchemaAtom>,
    del: Vec<SchemaAtom>,
}

/// A derived-predicate rule with interned atoms.
struct AxiomSchema {
    head: SchemaAtom,
    body: Vec<FluentLiteral>,
}

/// The parts of a rule's condition: (atom, positive) pairs.
type Condition = Vec<(SchemaAtom, bool)>;

/// The quantified variables and the condition of an effect group.
type GroupCondition<'n> = (&'n [TypedName], Condition);

struct Grounder<'a> {
    objects: Interner,
    predicates: Interner,
    types: Types,
    is_static: Vec<bool>,
    is_derived: Vec<bool>,
    /// Per predicate: static facts (for static predicates) or the fluent
    /// facts reached and already processed by the fix-point.
    relations: Vec<Relation>,
    /// Per predicate: fluent facts reached (processed or queued).
    reached: Vec<FxHashSet<Tuple>>,
    rules: Vec<Rule>,
    actions: Vec<ActionSchema<'a>>,
    effect_groups: Vec<EffectGroup>,
    axioms: Vec<AxiomSchema>,
    goal: &'a [Literal],
    /// Plans of rules without positive fluent conditions.
    untriggered: Vec<Plan>,
    /// Per predicate: plans triggered by a new fact of it.
    triggered: Vec<Vec<Plan>>,
    queue: VecDeque<(u32, Tuple)>,
    /// Per rule: the bindings reached.
    found: Vec<FxHashSet<Tuple>>,
    init_fluent: Vec<(u32, Tuple)>,
    uses_costs: bool,
    /// The domain's file, for the place of a cost value the problem lacks.
    domain_file: String,
}

/// Interns predicates and checks that each is used with one arity.
struct Predicates {
    names: Interner,
    arities: Vec<Option<usize>>,
}

impl Predicates {
    fn declare(&mut self, name: &str, arity: usize) -> Result<u32, GroundError> {
        let id = self.names.intern(name);
        if self.arities.len() <= id as usize {
            self.arities.resize(id as usize + 1, None);
        }
        match self.arities[id as usize] {
            None => self.arities[id as usize] = Some(arity),
            Some(a) if a == arity || name == EQUALITY => {}
            Some(a) => {
                return Err(GroundError::Unsupported(format!(
                    "predicate {name} is used with {arity} arguments but has {a}"
                )));
            }
        }
        Ok(id)
    }
}

/// Compiles atoms over a list of parameters into [`SchemaAtom`]s.
struct Scope<'s> {
    /// Parameter names to indexes (a later parameter of the same name hides
    /// an earlier one, as an inner quantifier does).
    params: FxHashMap<&'s str, usize>,
    /// What the atoms belong to, for error messages.
    context: String,
}

impl<'s> Scope<'s> {
    fn new(params: impl IntoIterator<Item = &'s TypedName>, context: String) -> Self {
        let params = params
            .into_iter()
            .enumerate()
            .map(|(i, p)| (p.name.as_str(), i))
            .collect();
        Scope { params, context }
    }

    fn compile(
        &self,
        atom: &Atom,
        predicates: &mut Predicates,
        objects: &mut Interner,
    ) -> Result<SchemaAtom, GroundError> {
        if atom.args.len() > 64 {
            return Err(GroundError::Unsupported(format!(
                "predicate {} has more than 64 arguments",
                atom.predicate
            )));
        }
        let pred = predicates.declare(&atom.predicate, atom.args.len())?;
        let args = atom
            .args
            .iter()
            .map(|t| match t {
                Term::Variable(v) => self.params.get(v.as_str()).map(|&i| Arg::Var(i)).ok_or_else(|| {
                    GroundError::Unsupported(format!("{}: variable {v} is not a parameter", self.context))
                }),
                Term::Constant(c) => Ok(Arg::Obj(objects.intern(c))),
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(SchemaAtom { pred, args })
    }

    fn compile_literals(
        &self,
        literals: &[Literal],
        predicates: &mut Predicates,
        objects: &mut Interner,
    ) -> Result<Condition, GroundError> {
        literals
            .iter()
            .map(|l| Ok((self.compile(&l.atom, predicates, objects)?, l.positive)))
            .collect()
    }
}

impl<'a> Grounder<'a> {
    fn new(domain: &Domain, problem: &Problem, normal: &'a NormalTask) -> Result<Grounder<'a>, GroundError> {
        let mut objects = Interner::default();
        let mut types = Types::new(domain, problem, &mut objects);
        let mut predicates = Predicates {
            names: Interner::default(),
            arities: Vec::new(),
        };
        let equality = predicates.declare(EQUALITY, 2)?;
        for p in domain.predicates.iter().chain(&normal.derived_predicates) {
            predicates.declare(&p.name, p.params.len())?;
        }
        let derived: FxHashSet<u32> = normal
            .derived_predicates
            .iter()
            .map(|p| predicates.names.intern(&p.name))
            .collect();

        // Intern every atom first, so that arities are known and fluent
        // predicates marked before anything is grounded.
        let mut fluent: FxHashSet<u32> = derived.clone();
        let mut actions = Vec::new();
        // Per action: its precondition and, per effect group, its
        // variables and condition (the group's rules are made below).
        let mut compiled: Vec<(Condition, Vec<GroupCondition>)> = Vec::new();
        let mut effect_groups = Vec::new();
        for action in &normal.actions {
            let context = format!("action {}", action.name);
            let scope = Scope::new(&action.params, context.clone());
            let pre = scope.compile_literals(&action.precondition, &mut predicates, &mut objects)?;
            let mut schema = ActionSchema {
                normal: action,
                pre: Vec::new(),
                add: Vec::new(),
                del: Vec::new(),
                effect_rules: Vec::new(),
            };
            let mut groups: Vec<(&[TypedName], &[Literal], Condition, EffectGroup)> = Vec::new();
            for effect in &action.effects {
                let scope = Scope::new(action.params.iter().chain(&effect.vars), context.clone());
                let atom = scope.compile(&effect.literal.atom, &mut predicates, &mut objects)?;
                if atom.pred == equality {
                    return Err(GroundError::Unsupported(format!(
                        "action {} has an effect on equality",
                        action.name
                    )));
                }
                if derived.contains(&atom.pred) {
                    return Err(GroundError::Unsupported(format!(
                        "action {} has an effect on the derived predicate {}",
                        action.name, effect.literal.atom.predicate
                    )));
                }
                fluent.insert(atom.pred);
                let positive = effect.literal.positive;
                if effect.vars.is_empty() && effect.condition.is_empty() {
                    if positive { &mut schema.add } else { &mut schema.del }.push(atom);
                    continue;
                }
                let at = match groups
                    .iter()
                    .position(|g| g.0 == effect.vars.as_slice() && g.1 == effect.condition.as_slice())
                {
                    Some(at) => at,
                    None => {
                        let condition = scope.compile_literals(&effect.condition, &mut predicates, &mut objects)?;
                        let group = EffectGroup {
                            condition: Vec::new(),
                            add: Vec::new(),
                            del: Vec::new(),
                        };
                        groups.push((&effect.vars, &effect.condition, condition, group));
                        groups.len() - 1
                    }
                };
                let group = &mut groups[at].3;
                if positive { &mut group.add } else { &mut group.del }.push(atom);
            }
            let mut conditions = Vec::new();
            for (vars, _, condition, group) in groups {
                conditions.push((vars, condition));
                effect_groups.push(group);
            }
            compiled.push((pre, conditions));
            actions.push(schema);
        }
        let mut axiom_conditions = Vec::new();
        for axiom in &normal.axioms {
            let context = format!("rule of {}", axiom.head.predicate);
            let scope = Scope::new(&axiom.params, context);
            let head = scope.compile(&axiom.head, &mut predicates, &mut objects)?;
            let body = scope.compile_literals(&axiom.body, &mut predicates, &mut objects)?;
            axiom_conditions.push((head, body));
        }
        // Goal atoms are interned so that their predicates have an arity.
        for l in &normal.goal {
            if l.atom.predicate != EQUALITY {
                predicates.declare(&l.atom.predicate, l.atom.args.len())?;
            }
        }

        let mut init = Vec::new();
        for atom in &problem.init {
            if atom.predicate == EQUALITY {
                continue;
            }
            let pred = predicates.declare(&atom.predicate, atom.args.len())?;
            // Derived facts are never given, only derived.
            if derived.contains(&pred) {
                continue;
            }
            let args: Tuple = atom.args.iter().map(|a| objects.intern(a)).collect();
            init.push((pred, args));
        }
        let num_preds = predicates.names.len();
        let is_static: Vec<bool> = (0..num_preds as u32).map(|p| !fluent.contains(&p)).collect();
        let is_derived: Vec<bool> = (0..num_preds as u32).map(|p| derived.contains(&p)).collect();
        let mut relations: Vec<Relation> = (0..num_preds)
            .map(|p| Relation::new(predicates.arities.get(p).copied().flatten().unwrap_or(0)))
            .collect();
        let mut init_fluent = Vec::new();
        for (pred, args) in init {
            if is_static[pred as usize] {
                relations[pred as usize].insert(args);
            } else {
                init_fluent.push((pred, args));
            }
        }

        // The rules: per action, the action's own, then one per effect
        // group; then one per derived-predicate rule.
        let fluent_part = |condition: &Condition| -> Vec<FluentLiteral> {
            condition
                .iter()
                .filter(|(a, _)| a.pred != equality && !is_static[a.pred as usize])
                .cloned()
                .collect()
        };
        let mut rules = Vec::new();
        let mut group_index = 0;
        for (i, (pre, conditions)) in compiled.into_iter().enumerate() {
            let params = &actions[i].normal.params;
            let param_sets: Vec<usize> = params.iter().map(|p| types.set_for(&p.types)).collect();
            actions[i].pre = fluent_part(&pre);
            rules.push(Rule::new(
                RuleKind::Action(i),
                param_sets.clone(),
                &pre,
                actions[i].add.clone(),
                equality,
                &is_static,
            ));
            for (vars, condition) in conditions {
                let mut sets = param_sets.clone();
                sets.extend(vars.iter().map(|v| types.set_for(&v.types)));
                let group = &mut effect_groups[group_index];
                group.condition = fluent_part(&condition);
                let mut all = pre.clone();
                all.extend(condition);
                actions[i].effect_rules.push(rules.len());
                rules.push(Rule::new(
                    RuleKind::Effect {
                        action: i,
                        group: group_index,
                    },
                    sets,
                    &all,
                    group.add.clone(),
                    equality,
                    &is_static,
                ));
                group_index += 1;
            }
        }
        let mut axioms = Vec::new();
        for (i, (head, body)) in axiom_conditions.into_iter().enumerate() {
            let param_sets = normal.axioms[i]
                .params
                .iter()
                .map(|p| types.set_for(&p.types))
                .collect();
            rules.push(Rule::new(
                RuleKind::Axiom(i),
                param_sets,
                &body,
                vec![head.clone()],
                equality,
                &is_static,
            ));
            axioms.push(AxiomSchema {
                head,
                body: fluent_part(&body),
            });
        }

        let mut untriggered = Vec::new();
        let mut triggered: Vec<Vec<Plan>> = (0..num_preds).map(|_| Vec::new()).collect();
        for (i, r) in rules.iter().enumerate() {
            let input = JoinInput {
                num_params: r.param_sets.len(),
                positive: r.pos_fluent.iter().chain(&r.pos_static).collect(),
                negative_static: r.neg_static.iter().collect(),
                equalities: r.equalities.iter().map(|(a, p)| (a, *p)).collect(),
                is_static: &is_static,
            };
            if r.pos_fluent.is_empty() {
                untriggered.push(Plan::compile(i, &input, None, &mut relations));
            } else {
                for (j, atom) in r.pos_fluent.iter().enumerate() {
                    triggered[atom.pred as usize].push(Plan::compile(i, &input, Some(j), &mut relations));
                }
            }
        }
        let uses_costs = problem.minimize_total_cost && normal.actions.iter().any(|a| !a.costs.is_empty());
        Ok(Grounder {
            objects,
            predicates: predicates.names,
            types,
            is_static,
            is_derived,
            relations,
            reached: (0..num_preds).map(|_| FxHashSet::default()).collect(),
            found: (0..rules.len()).map(|_| FxHashSet::default()).collect(),
            rules,
            actions,
            effect_groups,
            axioms,
            goal: &normal.goal,
            untriggered,
            triggered,
            queue: VecDeque::new(),
            init_fluent,
            uses_costs,
            domain_file: domain.file.clone(),
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

    /// An upper bound on the bindings of a rule, for the message of a
    /// grounding that is stopped: the product of its parameters' numbers of
    /// values, each at most the size of a unary static precondition on it.
    fn describe_size(&self, rule: &Rule) -> String {
        let sets = self.types.sets();
        let values: Vec<usize> = rule
            .param_sets
            .iter()
            .enumerate()
            .map(|(v, &set)| {
                let unary_static = rule
                    .pos_static
                    .iter()
                    .filter(|a| a.args.len() == 1 && matches!(a.args[0], Arg::Var(w) if w == v))
                    .map(|a| self.relations[a.pred as usize].len());
                unary_static.fold(sets[set].objects.len(), usize::min)
            })
            .collect();
        let bound = values.iter().fold(1u128, |n, &k| n.saturating_mul(k as u128));
        let factors: Vec<String> = values.iter().map(usize::to_string).collect();
        let (what, unit) = match rule.kind {
            RuleKind::Action(a) => (format!("action {}", self.actions[a].normal.name), "ground operators"),
            RuleKind::Effect { action, .. } => (
                format!("effects of action {}", self.actions[action].normal.name),
                "ground effects",
            ),
            RuleKind::Axiom(a) => (
                format!("rule for {}", self.predicates.name(self.axioms[a].head.pred)),
                "ground rules",
            ),
        };
        format!(
            "{what}: up to {bound} {unit} ({} parameter values)",
            if factors.is_empty() {
                "no".to_string()
            } else {
                factors.join("·")
            }
        )
    }

    /// Records newly found bindings of a rule and reaches what they make true.
    fn add_bindings(&mut self, rule: usize, bindings: Vec<Tuple>) {
        crate::limits::set_item(rule);
        for binding in bindings {
            crate::limits::checkpoint();
            if !self.found[rule].insert(binding.clone()) {
                continue;
            }
            for i in 0..self.rules[rule].reaches.len() {
                let atom = &self.rules[rule].reaches[i];
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
            let params = &self.rules[plan.action].param_sets;
            plan.run(None, &self.relations, sets, params, &mut out);
            found.push((plan.action, out));
        }
        for (rule, out) in found {
            self.add_bindings(rule, out);
        }
        let mut out = Vec::new();
        while let Some((pred, args)) = self.queue.pop_front() {
            self.relations[pred as usize].insert(args.clone());
            for k in 0..self.triggered[pred as usize].len() {
                let plan = &self.triggered[pred as usize][k];
                crate::limits::set_item(plan.action);
                let params = &self.rules[plan.action].param_sets;
                plan.run(Some(&args), &self.relations, self.types.sets(), params, &mut out);
                let rule = plan.action;
                let bindings = std::mem::take(&mut out);
                self.add_bindings(rule, bindings);
            }
        }
    }

    fn fact_of(&self, pred: u32, args: &[u32]) -> Fact {
        Fact {
            predicate: self.predicates.name(pred).to_string(),
            args: args.iter().map(|&o| self.objects.name(o).to_string()).collect(),
        }
    }

    /// Numbers the reached facts and builds operators, rules, init and goal.
    fn into_task(self, problem: &Problem) -> Result<Task, GroundError> {
        let mut keyed: Vec<(Fact, u32, Tuple)> = Vec::new();
        for (pred, set) in self.reached.iter().enumerate() {
            for args in set {
                keyed.push((self.fact_of(pred as u32, args), pred as u32, args.clone()));
            }
        }
        keyed.sort_unstable_by(|a, b| a.0.cmp(&b.0));
        let mut ids: FxHashMap<(u32, Tuple), FactId> = FxHashMap::default();
        let mut facts = Vec::with_capacity(keyed.len());
        let mut derived = Vec::with_capacity(keyed.len());
        for (i, (fact, pred, args)) in keyed.into_iter().enumerate() {
            ids.insert((pred, args), i as FactId);
            facts.push(fact);
            derived.push(self.is_derived[pred as usize]);
        }
        let id_of = |atom: &SchemaAtom, binding: &[u32]| ids.get(&(atom.pred, atom.ground(binding))).copied();
        // The facts of fluent literals under a binding: `None` when a
        // positive one is unreachable (the condition never holds); negative
        // ones on unreachable facts always hold and are left out.
        let literals = |lits: &[FluentLiteral], binding: &[u32]| -> Option<(Vec<FactId>, Vec<FactId>)> {
            let (mut pos, mut neg) = (Vec::new(), Vec::new());
            for (atom, positive) in lits {
                match (id_of(atom, binding), positive) {
                    (Some(f), true) => pos.push(f),
                    (None, true) => return None,
                    (Some(f), false) => neg.push(f),
                    (None, false) => {}
                }
            }
            Some((pos, neg))
        };
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
        let arg_names = |binding: &[u32]| -> Vec<&str> { binding.iter().map(|&o| self.objects.name(o)).collect() };

        // The bindings of each effect rule by the operator they belong to
        // (the prefix binding the action's parameters), each operator's in
        // the order of their variables' names.
        let mut effect_bindings: Vec<FxHashMap<&[u32], Vec<&[u32]>>> = Vec::with_capacity(self.rules.len());
        for (rule, found) in self.rules.iter().zip(&self.found) {
            let mut by_op: FxHashMap<&[u32], Vec<&[u32]>> = FxHashMap::default();
            if let RuleKind::Effect { action, .. } = rule.kind {
                let k = self.actions[action].normal.params.len();
                for binding in found {
                    by_op.entry(&binding[..k]).or_default().push(binding);
                }
                for list in by_op.values_mut() {
                    list.sort_unstable_by(|a, b| arg_names(&a[k..]).cmp(&arg_names(&b[k..])));
                }
            }
            effect_bindings.push(by_op);
        }

        let mut found: Vec<(usize, &Tuple)> = Vec::new();
        for (rule, bindings) in self.rules.iter().zip(&self.found) {
            if let RuleKind::Action(a) = rule.kind {
                found.extend(bindings.iter().map(|b| (a, b)));
            }
        }
        found.sort_unstable_by(|a, b| {
            let (na, nb) = (&self.actions[a.0].normal.name, &self.actions[b.0].normal.name);
            (na.as_str(), arg_names(a.1), a.0).cmp(&(nb.as_str(), arg_names(b.1), b.0))
        });
        let mut operators = Vec::with_capacity(found.len());
        for (action, binding) in found {
            crate::limits::checkpoint();
            let s = &self.actions[action];
            // `None` cannot happen (the binding was found from reached
            // facts), but an operator with an unreachable precondition is
            // never applicable.
            let Some((pre, pre_neg)) = literals(&s.pre, binding) else {
                continue;
            };
            let add: Vec<FactId> = s.add.iter().filter_map(|a| id_of(a, binding)).collect();
            let del: Vec<FactId> = s.del.iter().filter_map(|a| id_of(a, binding)).collect();
            let mut conditional = Vec::new();
            for &r in &s.effect_rules {
                let RuleKind::Effect { group, .. } = self.rules[r].kind else {
                    continue;
                };
                let g = &self.effect_groups[group];
                for full in effect_bindings[r].get(&binding[..]).into_iter().flatten() {
                    let Some((cpre, cneg)) = literals(&g.condition, full) else {
                        continue;
                    };
                    conditional.push(CondEffect {
                        pre: cpre,
                        pre_neg: cneg,
                        add: g.add.iter().filter_map(|a| id_of(a, full)).collect(),
                        del: g.del.iter().filter_map(|a| id_of(a, full)).collect(),
                    });
                }
            }
            let Some(effects) = effects::fold(pre, pre_neg, add, del, conditional) else {
                continue;
            };
            let cost = if self.uses_costs {
                self.cost(s.normal, binding, &numeric)?
            } else {
                1
            };
            let external = s.normal.external_params.min(binding.len());
            operators.push(Operator {
                action: s.normal.name.clone(),
                args: arg_names(&binding[..external])
                    .into_iter()
                    .map(str::to_string)
                    .collect(),
                pre: effects.pre,
                pre_neg: effects.pre_neg,
                add: effects.add,
                del: effects.del,
                cost,
                cond_effects: effects.conditional,
            });
        }

        let mut axioms = Vec::new();
        for (rule, bindings) in self.rules.iter().zip(&self.found) {
            let RuleKind::Axiom(i) = rule.kind else {
                continue;
            };
            let schema = &self.axioms[i];
            for binding in bindings {
                let (Some(head), Some((mut pre, mut pre_neg))) =
                    (id_of(&schema.head, binding), literals(&schema.body, binding))
                else {
                    continue;
                };
                for v in [&mut pre, &mut pre_neg] {
                    v.sort_unstable();
                    v.dedup();
                }
                // A rule that needs its own head, or a fact both true and
                // false, derives nothing.
                if pre.binary_search(&head).is_ok() || pre_neg.iter().any(|f| pre.binary_search(f).is_ok()) {
                    continue;
                }
                axioms.push(Axiom { head, pre, pre_neg });
            }
        }
        let (axioms, axiom_layers) = stratify::layers(axioms, &facts, &derived)?;
        if axioms.is_empty() {
            derived.clear();
        }

        let mut init: Vec<FactId> = Vec::new();
        for atom in &problem.init {
            let Some(pred) = self.predicates.get(&atom.predicate) else {
                continue;
            };
            if self.is_static[pred as usize] || self.is_derived[pred as usize] {
                continue;
            }
            let args: Option<Tuple> = atom.args.iter().map(|x| self.objects.get(x)).collect();
            if let Some(f) = args.and_then(|args| ids.get(&(pred, args)).copied()) {
                init.push(f);
            }
        }
        init.sort_unstable();
        init.dedup();

        let mut goal = Vec::new();
        let mut goal_neg = Vec::new();
        for lit in self.goal {
            let atom = &lit.atom;
            let names: Vec<String> = atom
                .args
                .iter()
                .map(|t| match t {
                    Term::Constant(c) => Ok(c.clone()),
                    Term::Variable(v) => Err(GroundError::Unsupported(format!("goal: variable {v} is not bound"))),
                })
                .collect::<Result<_, _>>()?;
            let ground = GroundAtom {
                predicate: atom.predicate.clone(),
                args: names,
            };
            let unreachable = || GroundError::GoalUnreachable(ground.to_string());
            if atom.predicate == EQUALITY {
                let holds = ground.args.len() == 2 && ground.args[0] == ground.args[1];
                if holds != lit.positive {
                    return Err(unreachable());
                }
                continue;
            }
            let pred = self.predicates.get(&atom.predicate);
            let args: Option<Tuple> = ground.args.iter().map(|x| self.objects.get(x)).collect();
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
            match (ids.get(&(pred, args)).copied(), lit.positive) {
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
            axioms,
            axiom_layers,
            derived,
            has_action_costs: self.uses_costs,
            // Verified by `ground` once the task is final.
            invariants: Invariants::default(),
        })
    }

    /// The operator's cost: the sum of its cost effects under the binding;
    /// static numeric functions are looked up in the problem's init.
    fn cost(
        &self,
        action: &NormalAction,
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
                CostExpr::Function { name, args, location } => {
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
                            return Err(GroundError::Input(PddlError {
                                kind: ErrorKind::Semantic,
                                file: self.domain_file.clone(),
                                location: *location,
                                message: format!(
                                    "the cost of action {} needs ({}{}), which the problem's :init gives no value",
                                    action.name,
                                    name,
                                    names.iter().map(|n| format!(" {n}")).collect::<String>()
                                ),
                            }));
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

impl Rule {
    /// A rule with the given condition, sorted by what the join does with
    /// each literal: positive atoms are joined, negative static ones
    /// checked, equalities checked or assigned; negative fluent and
    /// derived ones are relaxed away.
    fn new(
        kind: RuleKind,
        param_sets: Vec<usize>,
        condition: &Condition,
        reaches: Vec<SchemaAtom>,
        equality: u32,
        is_static: &[bool],
    ) -> Rule {
        let mut r = Rule {
            kind,
            param_sets,
            pos_fluent: Vec::new(),
            pos_static: Vec::new(),
            neg_static: Vec::new(),
            equalities: Vec::new(),
            reaches,
        };
        for (atom, positive) in condition {
            if atom.pred == equality {
                r.equalities.push((atom.clone(), *positive));
                continue;
            }
            match (positive, is_static[atom.pred as usize]) {
                (true, false) => r.pos_fluent.push(atom.clone()),
                (true, true) => r.pos_static.push(atom.clone()),
                (false, false) => {}
                (false, true) => r.neg_static.push(atom.clone()),
            }
        }
        r
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The relaxed-reachable task of a domain and problem, through their normal form.
    fn reachable(domain: &Domain, problem: &Problem) -> Result<(Task, GroundStats), GroundError> {
        ground_reachable(domain, problem, &normalize::normalize(domain, problem))
    }
    use crate::pddl::{
        Action, Atom, Condition, Effect, GroundAtom, Literal, Location, NumericFact, TypeDecl, TypedName,
    };

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
            precondition: Condition::conjunction(pre),
            effect: Effect::strips(add.iter().map(|a| atom(a)), del.iter().map(|a| atom(a))),
            costs: Vec::new(),
            location: Location::default(),
        }
    }

    fn domain(types: &[(&str, &str)], actions: Vec<Action>) -> Domain {
        Domain {
            file: String::new(),
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
            derived: Vec::new(),
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
            goal: Condition::conjunction(goal.iter().map(|g| match g.strip_prefix("not ") {
                Some(rest) => neg(rest),
                None => pos(g),
            })),
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
        let (task, stats) = reachable(&blocks(false), &blocks3()).expect("grounds");
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
        let (task, _) = reachable(&blocks(true), &blocks3()).expect("grounds");
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
        let (t1, _) = reachable(&blocks(true), &blocks3()).expect("grounds");
        let (t2, _) = reachable(&blocks(true), &blocks3()).expect("grounds");
        assert_eq!(t1, t2);
        let mut p = blocks3();
        p.objects.reverse();
        p.init.reverse();
        let (t3, _) = reachable(&blocks(true), &p).expect("grounds");
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
        let (task, stats) = reachable(&d, &p).expect("grounds");
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
            reachable(&d, &p),
            Err(GroundError::GoalUnreachable("(at d)".to_string()))
        );
        // A false static goal, and a true static negative goal.
        p.goal = problem(&[], &[], &["road a c"]).goal;
        assert!(matches!(reachable(&d, &p), Err(GroundError::GoalUnreachable(_))));
        p.goal = problem(&[], &[], &["not road a b"]).goal;
        assert!(matches!(reachable(&d, &p), Err(GroundError::GoalUnreachable(_))));
        // A negative goal on a never-reachable fact is trivially true.
        p.goal = problem(&[], &[], &["not at d", "at c"]).goal;
        let (task, _) = reachable(&d, &p).expect("grounds");
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
        let (task, _) = reachable(&d, &p).expect("grounds");
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
        let (task, _) = reachable(&d, &p).expect("grounds");
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
        let (task, _) = reachable(&d, &p).expect("grounds");
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
        let (task, _) = reachable(&d, &p).expect("grounds");
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
        let (task, _) = reachable(&d, &p).expect("grounds");
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
        let (task, _) = reachable(&d, &p).expect("grounds");
        assert!(task.has_action_costs);
        assert_eq!(op(&task, "(drive a b)").unwrap().cost, 6);
        assert_eq!(op(&task, "(drive b c)").unwrap().cost, 8);
        // No cost effect under a cost metric: free.
        assert_eq!(op(&task, "(wait)").unwrap().cost, 0);

        // Without the metric the task is unit cost.
        let mut unit = p.clone();
        unit.minimize_total_cost = false;
        let (task, _) = reachable(&d, &unit).expect("grounds");
        assert!(!task.has_action_costs);
        assert!(task.operators.iter().all(|o| o.cost == 1));
    }

    #[test]
    fn bad_costs_are_errors() {
        let (d, mut p) = costed();
        p.numeric_init.pop();
        // A missing value is the input's fault, at the cost that needs it.
        match reachable(&d, &p) {
            Err(GroundError::Input(e)) => assert!(e.message.contains("(dist b c)"), "{e}"),
            other => panic!("expected an input error, got {other:?}"),
        }
        let (d, mut p) = costed();
        p.numeric_init[0].value = -3;
        assert!(matches!(reachable(&d, &p), Err(GroundError::Unsupported(_))));
    }

    #[test]
    fn malformed_input_is_an_error_not_a_panic() {
        let (mut d, p) = roads();
        d.actions[0].precondition = Condition::And(vec![
            d.actions[0].precondition.clone(),
            Condition::Atom(atom("road ?from ?nowhere")),
        ]);
        assert!(matches!(reachable(&d, &p), Err(GroundError::Unsupported(_))));
        let (mut d, p) = roads();
        d.actions[0].precondition = Condition::And(vec![
            d.actions[0].precondition.clone(),
            Condition::Atom(atom("road ?from")),
        ]);
        assert!(matches!(reachable(&d, &p), Err(GroundError::Unsupported(_))));
        let (d, mut p) = roads();
        p.init.push(ground_atom("road a b c"));
        assert!(matches!(reachable(&d, &p), Err(GroundError::Unsupported(_))));
    }

    // --- The normal form read directly: conditional and quantified effects, rules.

    use crate::normalize::{NormalAxiom, NormalEffect};
    use crate::pddl::PredicateDecl;

    fn effect(vars: &[(&str, &str)], condition: Vec<Literal>, literal: Literal) -> NormalEffect {
        NormalEffect {
            vars: vars.iter().map(|(n, t)| typed(n, t)).collect(),
            condition,
            literal,
        }
    }

    fn normal_action(
        name: &str,
        params: &[(&str, &str)],
        pre: Vec<Literal>,
        effects: Vec<NormalEffect>,
    ) -> NormalAction {
        NormalAction {
            name: name.to_string(),
            params: params.iter().map(|(n, t)| typed(n, t)).collect(),
            external_params: params.len(),
            precondition: pre,
            effects,
            costs: Vec::new(),
            location: Location::default(),
        }
    }

    fn rule(head: &str, params: &[(&str, &str)], body: Vec<Literal>) -> NormalAxiom {
        NormalAxiom {
            head: atom(head),
            params: params.iter().map(|(n, t)| typed(n, t)).collect(),
            body,
        }
    }

    fn derived(name: &str, params: &[(&str, &str)]) -> PredicateDecl {
        PredicateDecl {
            name: name.to_string(),
            params: params.iter().map(|(n, t)| typed(n, t)).collect(),
            location: Location::default(),
        }
    }

    /// A briefcase that carries what is in it (`forall` + `when`), two
    /// places and two portables that must swap places; `delivered ?o` is
    /// derived from the static `target`, `missing` from a portable not
    /// delivered, and the goal `finished` from `missing` being false.
    fn briefcase() -> (Domain, Problem, NormalTask) {
        let d = domain(&[("place", "object"), ("portable", "object")], Vec::new());
        let p = problem(
            &[
                ("home", "place"),
                ("office", "place"),
                ("p1", "portable"),
                ("p2", "portable"),
            ],
            &[
                "is-at home",
                "at p1 home",
                "at p2 office",
                "target p1 office",
                "target p2 home",
            ],
            &[],
        );
        let place = "place";
        let normal = NormalTask {
            actions: vec![
                normal_action(
                    "move",
                    &[("?from", place), ("?to", place)],
                    vec![pos("is-at ?from"), neg("= ?from ?to")],
                    vec![
                        effect(&[], vec![], pos("is-at ?to")),
                        effect(&[], vec![], neg("is-at ?from")),
                        effect(&[("?o", "portable")], vec![pos("in ?o")], pos("at ?o ?to")),
                        effect(&[("?o", "portable")], vec![pos("in ?o")], neg("at ?o ?from")),
                    ],
                ),
                normal_action(
                    "put-in",
                    &[("?o", "portable"), ("?l", place)],
                    vec![pos("at ?o ?l"), pos("is-at ?l"), neg("in ?o")],
                    vec![effect(&[], vec![], pos("in ?o"))],
                ),
                normal_action(
                    "take-out",
                    &[("?o", "portable")],
                    vec![pos("in ?o")],
                    vec![effect(&[], vec![], neg("in ?o"))],
                ),
            ],
            axioms: vec![
                rule(
                    "delivered ?o",
                    &[("?o", "portable"), ("?l", place)],
                    vec![pos("at ?o ?l"), pos("target ?o ?l")],
                ),
                rule("missing", &[("?o", "portable")], vec![neg("delivered ?o")]),
                rule("finished", &[], vec![neg("missing")]),
            ],
            derived_predicates: vec![
                derived("delivered", &[("?o", "portable")]),
                derived("missing", &[]),
                derived("finished", &[]),
            ],
            goal: vec![pos("finished")],
        };
        (d, p, normal)
    }

    #[test]
    fn conditional_effects_stay_on_one_operator_and_rules_are_layered() {
        let (d, p, normal) = briefcase();
        let (task, _) = ground_normal(&d, &p, &normal).expect("grounds");
        let ops: Vec<String> = task.operators.iter().map(Operator::name).collect();
        assert_eq!(
            ops,
            [
                "(move home office)",
                "(move office home)",
                "(put-in p1 home)",
                "(put-in p1 office)",
                "(put-in p2 home)",
                "(put-in p2 office)",
                "(take-out p1)",
                "(take-out p2)"
            ]
        );
        let f = |text: &str| fact_id(&task, text).unwrap();
        let mv = op(&task, "(move home office)").unwrap();
        assert_eq!(mv.pre, vec![f("is-at home")]);
        assert_eq!(mv.add, vec![f("is-at office")]);
        assert_eq!(mv.del, vec![f("is-at home")]);
        let carry = |o: &str| CondEffect {
            pre: vec![f(&format!("in {o}"))],
            pre_neg: vec![],
            add: vec![f(&format!("at {o} office"))],
            del: vec![f(&format!("at {o} home"))],
        };
        assert_eq!(mv.cond_effects, vec![carry("p1"), carry("p2")]);
        // delivered: one rule per portable (the static target folded);
        // missing: one per portable; finished: one. Three layers.
        let heads: Vec<String> = task
            .axioms
            .iter()
            .map(|a| task.facts[a.head as usize].to_string())
            .collect();
        assert_eq!(
            heads,
            [
                "(delivered p1)",
                "(delivered p2)",
                "(missing)",
                "(missing)",
                "(finished)"
            ]
        );
        assert_eq!(task.axioms[0].pre, vec![f("at p1 office")]);
        assert_eq!(task.axioms[2].pre_neg, vec![f("delivered p1")]);
        assert_eq!(task.axiom_layers, vec![0, 2, 4, 5]);
        assert!(task.is_derived(f("finished")) && !task.is_derived(f("in p1")));
        assert_eq!(task.goal, vec![f("finished")]);
        // The initial state derives `missing` (nothing is delivered).
        let init: Vec<String> = task
            .initial_state()
            .bits()
            .iter_ones()
            .map(|i| task.facts[i].to_string())
            .collect();
        assert_eq!(init, ["(at p1 home)", "(at p2 office)", "(is-at home)", "(missing)"]);
        // The optimal plan swaps the two portables in five steps.
        let plan = [
            "(put-in p1 home)",
            "(move home office)",
            "(take-out p1)",
            "(put-in p2 office)",
            "(move office home)",
        ];
        let mut state = task.initial_state();
        for name in plan {
            let o = op(&task, name).unwrap();
            assert!(o.is_applicable(state.bits()), "{name}");
            let mut next = state.clone();
            task.apply_into(o, state.bits(), next.bits_mut());
            state = next;
        }
        assert!(task.is_goal(state.bits()));
        // Not taking p1 out carries it back home: the goal fails.
        let mut state = task.initial_state();
        for name in [
            "(put-in p1 home)",
            "(move home office)",
            "(put-in p2 office)",
            "(move office home)",
        ] {
            let mut next = state.clone();
            task.apply_into(op(&task, name).unwrap(), state.bits(), next.bits_mut());
            state = next;
        }
        assert!(!task.is_goal(state.bits()));
        let optimum = crate::task::testing::perfect_costs(&task)[0].1;
        assert_eq!(optimum, Some(5));
    }

    #[test]
    fn conditions_are_folded_and_unreachable_effects_dropped() {
        // `move` also paints what it carries, when the portable is not
        // `fragile` (static: p2 is) and when it is `wet` (never reachable).
        let (d, mut p, mut normal) = briefcase();
        p.init.push(ground_atom("fragile p2"));
        normal.actions[0].effects.push(effect(
            &[("?o", "portable")],
            vec![pos("in ?o"), neg("fragile ?o")],
            pos("painted ?o"),
        ));
        normal.actions[0]
            .effects
            .push(effect(&[("?o", "portable")], vec![pos("wet ?o")], pos("dry ?o")));
        // Unconditional over all portables: `moved ?o`; conditional on the
        // action's own precondition: folded to unconditional.
        normal.actions[0]
            .effects
            .push(effect(&[("?o", "portable")], vec![], pos("moved ?o")));
        normal.actions[0]
            .effects
            .push(effect(&[], vec![pos("is-at ?from")], pos("left ?from")));
        let (task, _) = ground_reachable(&d, &p, &normal).expect("grounds");
        let f = |text: &str| fact_id(&task, text).unwrap();
        let mv = op(&task, "(move home office)").unwrap();
        let mut add = vec![f("is-at office"), f("moved p1"), f("moved p2"), f("left home")];
        add.sort();
        assert_eq!(mv.add, add);
        assert!(fact_id(&task, "dry p1").is_none() && fact_id(&task, "painted p2").is_none());
        let p1 = mv.cond_effects.iter().find(|e| e.pre == vec![f("in p1")]).unwrap();
        let mut p1_add = vec![f("at p1 office"), f("painted p1")];
        p1_add.sort();
        assert_eq!(p1.add, p1_add);
        assert_eq!(mv.cond_effects.len(), 2);
    }

    #[test]
    fn existential_parameters_are_not_written_and_negative_cycles_refused() {
        // `take-out` gains a hidden parameter ?l (where the briefcase is):
        // written without it.
        let (d, p, mut normal) = briefcase();
        normal.actions[2].params.push(typed("?l", "place"));
        normal.actions[2].precondition.push(pos("is-at ?l"));
        let (task, _) = ground_reachable(&d, &p, &normal).expect("grounds");
        let take: Vec<&Operator> = task.operators.iter().filter(|o| o.action == "take-out").collect();
        assert!(take.iter().all(|o| o.args.len() == 1));
        assert_eq!(take.len(), 4);
        // finished :- not missing; missing :- not finished.
        let (d, p, mut normal) = briefcase();
        normal.axioms.push(rule("missing", &[], vec![neg("finished")]));
        match ground_reachable(&d, &p, &normal) {
            Err(GroundError::Unsupported(m)) => assert!(m.contains("finished, missing"), "{m}"),
            other => panic!("expected a refusal, got {other:?}"),
        }
        // An effect on a derived predicate is refused by name.
        let (d, p, mut normal) = briefcase();
        normal.actions[1].effects.push(effect(&[], vec![], pos("missing")));
        assert!(matches!(ground_reachable(&d, &p, &normal), Err(GroundError::Unsupported(m)) if m.contains("missing")));
    }
}
