//! Validation: replaying a plan on the lifted problem (condition trees
//! evaluated directly, conditional effects, derived predicates as stratified
//! fixed points), step by step from the initial state, then the goal.

use std::borrow::Borrow;
use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::rc::Rc;

use crate::pddl::{
    Action, Atom, Condition, CostExpr, DerivedRule, Domain, Effect, GroundAtom, Problem, Term, TypeHierarchy, TypedName,
};

use super::read::bounded_plan_steps;
use super::{InvalidPlan, Plan, PlanParseError, PlanStep, Replay, Validation, short};

/// Whether plan cost is the sum of action costs rather than the number of
/// steps: the problem minimizes `total-cost` or some action increases it.
pub fn uses_action_costs(domain: &Domain, problem: &Problem) -> bool {
    problem.minimize_total_cost || domain.actions.iter().any(|a| !a.costs.is_empty())
}

/// `(f a b)`: a ground atom or numeric term.
fn format_term(function: &str, args: &[String]) -> String {
    GroundAtom {
        predicate: function.to_string(),
        args: args.to_vec(),
    }
    .to_string()
}

fn format_types(types: &[String]) -> String {
    match types {
        [single] => single.clone(),
        _ => format!("(either {})", types.join(" ")),
    }
}

/// A state: the facts that hold. Derived facts are kept apart, as a
/// function of these ([`World::derive`]).
type Facts = HashSet<GroundAtom>;

/// The problem's lifted world, indexed for replay.
struct World<'a> {
    types: TypeHierarchy<'a>,
    /// Every object and domain constant with the types it was declared with,
    /// in the order declared.
    objects: Vec<(&'a str, Vec<&'a str>)>,
    object_types: HashMap<&'a str, Vec<&'a str>>,
    /// The objects of each type list that a quantifier or rule ranges over.
    objects_of: RefCell<HashMap<Vec<String>, Rc<[&'a str]>>>,
    actions: HashMap<&'a str, &'a Action>,
    numeric: HashMap<(&'a str, &'a [String]), i64>,
    action_costs: bool,
    /// The `:derived` rules grouped by stratum, lowest first.
    strata: Vec<Vec<&'a DerivedRule>>,
    derived: HashSet<&'a str>,
}

impl<'a> World<'a> {
    fn new(domain: &'a Domain, problem: &'a Problem) -> Self {
        let mut object_types: HashMap<&str, Vec<&str>> = HashMap::new();
        let mut objects: Vec<(&str, Vec<&str>)> = Vec::new();
        for o in domain.constants.iter().chain(&problem.objects) {
            if !object_types.contains_key(o.name.as_str()) {
                objects.push((o.name.as_str(), Vec::new()));
            }
            object_types
                .entry(o.name.as_str())
                .or_default()
                .extend(o.types.iter().map(String::as_str));
        }
        for (name, types) in &mut objects {
            *types = object_types[name].clone();
        }
        let mut actions = HashMap::new();
        for a in &domain.actions {
            // The first declaration wins, should a domain repeat a name.
            actions.entry(a.name.as_str()).or_insert(a);
        }
        let numeric = problem
            .numeric_init
            .iter()
            .map(|f| ((f.function.as_str(), f.args.as_slice()), f.value))
            .collect();
        // The checks refuse unstratified rules; should they come here anyway,
        // one stratum gives their least fixed point without negation's promise.
        let strata = match crate::pddl::strata(&domain.derived) {
            Ok(strata) => strata
                .into_iter()
                .map(|s| s.into_iter().map(|i| &domain.derived[i]).collect())
                .collect(),
            Err(_) => vec![domain.derived.iter().collect()],
        };
        World {
            types: TypeHierarchy::new(domain),
            objects,
            object_types,
            objects_of: RefCell::new(HashMap::new()),
            actions,
            numeric,
            action_costs: uses_action_costs(domain, problem),
            strata,
            derived: domain.derived.iter().map(|r| r.predicate.as_str()).collect(),
        }
    }

    /// The objects that fit `types` (an `either` list), in declaration order.
    fn objects_of(&self, types: &[String]) -> Rc<[&'a str]> {
        if let Some(found) = self.objects_of.borrow().get(types) {
            return found.clone();
        }
        let found: Rc<[&'a str]> = self
            .objects
            .iter()
            .filter(|(_, have)| self.types.fits(have, types))
            .map(|(name, _)| *name)
            .collect();
        self.objects_of.borrow_mut().insert(types.to_vec(), found.clone());
        found
    }

    /// The derived facts of the state `facts`: each stratum's rules applied
    /// to a fixed point, lowest stratum first, negation as failure. A rule
    /// body binds its variables by matching its atoms against the facts
    /// (a join), not by trying every object for every variable.
    fn derive(&self, facts: &Facts) -> Result<Facts, InvalidPlan> {
        let mut derived = Facts::new();
        for stratum in &self.strata {
            let mut changed = true;
            while changed {
                changed = false;
                let mut new = Vec::new();
                let state = State::indexed(facts, &derived);
                for rule in stratum {
                    let mut binding = Binding::new(0, &rule.predicate);
                    let mut declared: Vec<&TypedName> = rule.params.iter().collect();
                    self.satisfy(&state, &rule.body, &mut binding, &mut declared, &mut |binding, _| {
                        let unbound: Vec<&TypedName> = rule
                            .params
                            .iter()
                            .filter(|p| binding.value(&p.name).is_none())
                            .collect();
                        self.for_each_binding(&unbound, binding, &mut |binding| {
                            let head = GroundAtom {
                                predicate: rule.predicate.clone(),
                                args: rule
                                    .params
                                    .iter()
                                    .map(|p| binding.value(&p.name).unwrap_or_default().to_string())
                                    .collect(),
                            };
                            if !derived.contains(&head) {
                                new.push(head);
                            }
                            Ok(())
                        })
                    })?;
                }
                for atom in new {
                    changed |= derived.insert(atom);
                }
            }
        }
        Ok(derived)
    }

    /// Calls `f` for every extension of `binding` under which `condition`
    /// holds in `state` (perhaps more than once for one extension).
    /// Variables of `declared` that are not bound yet get their objects from
    /// the facts a positive atom matches; where that is not possible (under
    /// `not`, `forall`, `imply`, `=`), from their type.
    fn satisfy(
        &self,
        state: &State<'_>,
        condition: &'a Condition,
        binding: &mut Binding<'a>,
        declared: &mut Vec<&'a TypedName>,
        f: &mut Solution<'a, '_>,
    ) -> Result<(), InvalidPlan> {
        match condition {
            Condition::Atom(atom) if atom.predicate != "=" => self.match_atom(state, atom, binding, declared, f),
            Condition::And(parts) => self.satisfy_all(state, parts, binding, declared, f),
            Condition::Or(parts) => {
                for p in parts {
                    self.satisfy(state, p, binding, declared, f)?;
                }
                Ok(())
            }
            // A quantified variable that reuses a name in scope would be
            // confused with it once bound: such an `exists` is only tested.
            Condition::Exists(vars, body) if !vars.iter().any(|v| declared.iter().any(|d| d.name == v.name)) => {
                let depth = declared.len();
                declared.extend(vars);
                let result = self.satisfy(state, body, binding, declared, f);
                declared.truncate(depth);
                result
            }
            _ => {
                let unbound: Vec<&TypedName> = condition
                    .free_variables()
                    .iter()
                    .filter(|v| binding.value(v).is_none())
                    .filter_map(|v| declared.iter().rev().find(|d| &d.name == v).copied())
                    .collect();
                self.for_each_binding(&unbound, binding, &mut |binding| {
                    if self.holds(state, condition, binding)? {
                        f(binding, declared)?;
                    }
                    Ok(())
                })
            }
        }
    }

    fn satisfy_all(
        &self,
        state: &State<'_>,
        parts: &'a [Condition],
        binding: &mut Binding<'a>,
        declared: &mut Vec<&'a TypedName>,
        f: &mut Solution<'a, '_>,
    ) -> Result<(), InvalidPlan> {
        let Some((first, rest)) = parts.split_first() else {
            return f(binding, declared);
        };
        self.satisfy(state, first, binding, declared, &mut |binding, declared| {
            self.satisfy_all(state, rest, binding, declared, f)
        })
    }

    /// [`Self::satisfy`] for a positive atom: every fact of its predicate
    /// that agrees with the bound arguments binds the others.
    fn match_atom(
        &self,
        state: &State<'_>,
        atom: &'a Atom,
        binding: &mut Binding<'a>,
        declared: &mut Vec<&'a TypedName>,
        f: &mut Solution<'a, '_>,
    ) -> Result<(), InvalidPlan> {
        let known: Vec<Option<&str>> = atom.args.iter().map(|term| binding.known(term)).collect();
        // Every argument known: one lookup decides.
        if known.iter().all(Option::is_some) {
            let ground = GroundAtom {
                predicate: atom.predicate.clone(),
                args: known.iter().flatten().map(|object| object.to_string()).collect(),
            };
            return if state.contains(&ground, &self.derived) {
                f(binding, declared)
            } else {
                Ok(())
            };
        }
        // Otherwise the facts of the predicate, narrowed to those that agree
        // on the known argument with the fewest of them.
        let mut candidates = match state.by_predicate.get(atom.predicate.as_str()) {
            Some(all) => all.as_slice(),
            None => return Ok(()),
        };
        for (position, value) in known.iter().enumerate() {
            if let Some(value) = *value {
                let agreeing = state
                    .by_argument
                    .get(&(atom.predicate.as_str(), position, value))
                    .map_or(&[][..], Vec::as_slice);
                if agreeing.len() < candidates.len() {
                    candidates = agreeing;
                }
            }
        }
        for fact in candidates {
            if fact.args.len() != atom.args.len() {
                continue;
            }
            let depth = binding.values.len();
            let mut agrees = true;
            for (term, object) in atom.args.iter().zip(&fact.args) {
                agrees = match term {
                    Term::Constant(c) => c == object,
                    Term::Variable(v) => match binding.value(v) {
                        Some(bound) => bound == object,
                        None => {
                            // The world's own name, which lives as long as the domain.
                            let known = self.object_types.get_key_value(object.as_str());
                            let var = declared.iter().rev().find(|d| &d.name == v);
                            match (known, var) {
                                (Some((name, types)), Some(var)) if self.types.fits(types, &var.types) => {
                                    binding.values.push((&var.name, name));
                                    true
                                }
                                _ => false,
                            }
                        }
                    },
                };
                if !agrees {
                    break;
                }
            }
            let result = if agrees { f(binding, declared) } else { Ok(()) };
            binding.values.truncate(depth);
            result?;
        }
        Ok(())
    }

    /// Calls `f` with `binding` extended by every assignment of objects of
    /// fitting types to `vars`.
    fn for_each_binding(
        &self,
        vars: &[&'a TypedName],
        binding: &mut Binding<'a>,
        f: &mut dyn FnMut(&mut Binding<'a>) -> Result<(), InvalidPlan>,
    ) -> Result<(), InvalidPlan> {
        let Some((first, rest)) = vars.split_first() else {
            return f(binding);
        };
        for object in self.objects_of(&first.types).iter() {
            binding.values.push((&first.name, object));
            let result = self.for_each_binding(rest, binding, f);
            binding.values.pop();
            result?;
        }
        Ok(())
    }

    /// Whether the condition holds in `state` under `binding`.
    fn holds(
        &self,
        state: &State<'_>,
        condition: &'a Condition,
        binding: &mut Binding<'a>,
    ) -> Result<bool, InvalidPlan> {
        Ok(match condition {
            Condition::Atom(a) => state.contains(&binding.atom(a)?, &self.derived),
            Condition::Not(c) => !self.holds(state, c, binding)?,
            Condition::And(parts) => {
                for p in parts {
                    if !self.holds(state, p, binding)? {
                        return Ok(false);
                    }
                }
                true
            }
            Condition::Or(parts) => {
                for p in parts {
                    if self.holds(state, p, binding)? {
                        return Ok(true);
                    }
                }
                false
            }
            Condition::Imply(a, b) => !self.holds(state, a, binding)? || self.holds(state, b, binding)?,
            Condition::Exists(vars, body) => self.some_binding(vars, binding, &mut |b| self.holds(state, body, b))?,
            Condition::Forall(vars, body) => {
                !self.some_binding(vars, binding, &mut |b| Ok(!self.holds(state, body, b)?))?
            }
        })
    }

    /// Whether `test` is true for some assignment of objects to `vars`.
    fn some_binding(
        &self,
        vars: &'a [TypedName],
        binding: &mut Binding<'a>,
        test: &mut dyn FnMut(&mut Binding<'a>) -> Result<bool, InvalidPlan>,
    ) -> Result<bool, InvalidPlan> {
        let Some((first, rest)) = vars.split_first() else {
            return test(binding);
        };
        for object in self.objects_of(&first.types).iter() {
            binding.values.push((&first.name, object));
            let found = self.some_binding(rest, binding, test);
            binding.values.pop();
            if found? {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// `None` if the condition holds, else the part of it that fails, as
    /// PDDL text with the bound variables replaced by their objects: the
    /// failing conjunct of an `and`, the first counterexample of a `forall`,
    /// the whole of any other formula.
    fn failure(
        &self,
        state: &State<'_>,
        condition: &'a Condition,
        binding: &mut Binding<'a>,
    ) -> Result<Option<String>, InvalidPlan> {
        match condition {
            Condition::And(parts) => {
                for p in parts {
                    if let Some(why) = self.failure(state, p, binding)? {
                        return Ok(Some(why));
                    }
                }
                Ok(None)
            }
            Condition::Forall(vars, body) => {
                let mut why = None;
                let mut counterexample = String::new();
                self.some_binding(vars, binding, &mut |b| {
                    why = self.failure(state, body, b)?;
                    if why.is_some() {
                        counterexample = vars
                            .iter()
                            .map(|v| format!("{} = {}", v.name, b.value(&v.name).unwrap_or_default()))
                            .collect::<Vec<_>>()
                            .join(", ");
                    }
                    Ok(why.is_some())
                })?;
                Ok(why.map(|why| format!("{} (for {counterexample}: {why})", binding.substitute(condition))))
            }
            _ if self.holds(state, condition, binding)? => Ok(None),
            _ => Ok(Some(binding.substitute(condition))),
        }
    }

    /// The atoms `effect` adds and deletes in `state` (the state before the
    /// action) under `binding`.
    fn effects(
        &self,
        state: &State<'_>,
        effect: &'a Effect,
        binding: &mut Binding<'a>,
        add: &mut Vec<GroundAtom>,
        del: &mut Vec<GroundAtom>,
    ) -> Result<(), InvalidPlan> {
        match effect {
            Effect::Add(a) => add.push(binding.atom(a)?),
            Effect::Delete(a) => del.push(binding.atom(a)?),
            Effect::And(parts) => {
                for p in parts {
                    self.effects(state, p, binding, add, del)?;
                }
            }
            Effect::When(condition, inner) => {
                if self.holds(state, condition, binding)? {
                    self.effects(state, inner, binding, add, del)?;
                }
            }
            Effect::Forall(vars, inner) => {
                let vars: Vec<&TypedName> = vars.iter().collect();
                self.for_each_binding(&vars, binding, &mut |b| self.effects(state, inner, b, add, del))?;
            }
        }
        Ok(())
    }
}

/// What [`World::satisfy`] calls for each binding it finds, with the
/// variables declared at that point.
type Solution<'a, 'f> = dyn FnMut(&mut Binding<'a>, &mut Vec<&'a TypedName>) -> Result<(), InvalidPlan> + 'f;

/// A state with its derived facts.
struct State<'s> {
    facts: &'s Facts,
    derived: &'s Facts,
    /// Facts and derived facts by predicate, for matching atoms whose
    /// variables are not bound yet; empty where nothing is matched.
    by_predicate: HashMap<&'s str, Vec<&'s GroundAtom>>,
    /// The same by (predicate, argument position, object).
    by_argument: HashMap<(&'s str, usize, &'s str), Vec<&'s GroundAtom>>,
}

impl<'s> State<'s> {
    fn new(facts: &'s Facts, derived: &'s Facts) -> Self {
        State {
            facts,
            derived,
            by_predicate: HashMap::new(),
            by_argument: HashMap::new(),
        }
    }

    fn indexed(facts: &'s Facts, derived: &'s Facts) -> Self {
        let mut by_predicate: HashMap<&str, Vec<&GroundAtom>> = HashMap::new();
        let mut by_argument: HashMap<(&str, usize, &str), Vec<&GroundAtom>> = HashMap::new();
        for atom in facts.iter().chain(derived) {
            let predicate = atom.predicate.as_str();
            by_predicate.entry(predicate).or_default().push(atom);
            for (position, object) in atom.args.iter().enumerate() {
                by_argument
                    .entry((predicate, position, object.as_str()))
                    .or_default()
                    .push(atom);
            }
        }
        State {
            facts,
            derived,
            by_predicate,
            by_argument,
        }
    }

    /// Whether a ground atom holds; `=` is object identity.
    fn contains(&self, atom: &GroundAtom, derived: &HashSet<&str>) -> bool {
        match (atom.predicate.as_str(), atom.args.as_slice()) {
            ("=", [a, b]) => a == b,
            (p, _) if derived.contains(p) => self.derived.contains(atom),
            _ => self.facts.contains(atom),
        }
    }
}

/// The objects bound to the variables in scope (parameters, then
/// quantified variables, innermost last), with the step for error messages.
struct Binding<'a> {
    step: usize,
    action: &'a str,
    values: Vec<(&'a str, &'a str)>,
}

impl<'a> Binding<'a> {
    fn new(step: usize, action: &'a str) -> Self {
        Binding {
            step,
            action,
            values: Vec::new(),
        }
    }

    fn value(&self, variable: &str) -> Option<&'a str> {
        self.values.iter().rev().find(|(v, _)| *v == variable).map(|(_, o)| *o)
    }

    /// The object `term` stands for, if known: a constant, or a bound variable.
    fn known(&self, term: &'a Term) -> Option<&'a str> {
        match term {
            Term::Constant(c) => Some(c),
            Term::Variable(v) => self.value(v),
        }
    }

    fn term(&self, term: &'a Term) -> Result<&'a str, InvalidPlan> {
        match term {
            Term::Constant(c) => Ok(c),
            Term::Variable(v) => self.value(v).ok_or_else(|| InvalidPlan::UnboundVariable {
                step: self.step,
                action: self.action.to_string(),
                variable: v.clone(),
            }),
        }
    }

    fn terms(&self, terms: &'a [Term]) -> Result<Vec<String>, InvalidPlan> {
        terms.iter().map(|t| self.term(t).map(str::to_string)).collect()
    }

    fn atom(&self, atom: &'a Atom) -> Result<GroundAtom, InvalidPlan> {
        Ok(GroundAtom {
            predicate: atom.predicate.clone(),
            args: self.terms(&atom.args)?,
        })
    }

    /// `condition` as text with its bound free variables replaced by their
    /// objects (variables bound inside it stay).
    fn substitute(&self, condition: &Condition) -> String {
        substitute(condition, &mut |v| self.value(v)).to_string()
    }
}

/// `condition` with every free variable that `value` knows replaced.
fn substitute<'v>(condition: &Condition, value: &mut dyn FnMut(&str) -> Option<&'v str>) -> Condition {
    let inner = |c: &Condition, value: &mut dyn FnMut(&str) -> Option<&'v str>| Box::new(substitute(c, value));
    match condition {
        Condition::Atom(a) => Condition::Atom(Atom {
            predicate: a.predicate.clone(),
            args: a
                .args
                .iter()
                .map(|t| match t {
                    Term::Variable(v) => value(v).map_or_else(|| t.clone(), |o| Term::Constant(o.to_string())),
                    Term::Constant(_) => t.clone(),
                })
                .collect(),
            location: a.location,
        }),
        Condition::Not(c) => Condition::Not(inner(c, value)),
        Condition::And(parts) => Condition::And(parts.iter().map(|p| substitute(p, value)).collect()),
        Condition::Or(parts) => Condition::Or(parts.iter().map(|p| substitute(p, value)).collect()),
        Condition::Imply(a, b) => Condition::Imply(inner(a, value), inner(b, value)),
        Condition::Exists(vars, c) | Condition::Forall(vars, c) => {
            // The quantified variables shadow any binding of the same name.
            let mut shadowed = |v: &str| {
                if vars.iter().any(|q| q.name == v) {
                    None
                } else {
                    value(v)
                }
            };
            let body = Box::new(substitute(c, &mut shadowed));
            if matches!(condition, Condition::Exists(..)) {
                Condition::Exists(vars.clone(), body)
            } else {
                Condition::Forall(vars.clone(), body)
            }
        }
    }
}

/// Replays `plan` from the initial state of `problem`.
pub fn validate(domain: &Domain, problem: &Problem, plan: &Plan) -> Result<Validation, InvalidPlan> {
    let world = World::new(domain, problem);
    replay_steps(&world, problem, plan.steps.iter().map(|s| (s, s.args.len())))
}

/// Reads a plan file's text and replays its steps as they are read (the
/// plan is never held as steps): the verdict of [`validate`], or the
/// file's first syntax error, which wins over the verdict wherever it
/// stands. A step keeps no more than the task can use (no more arguments
/// than an action of the domain takes, no name longer than the task's
/// longest), so the memory is the text's and the task's, whatever the
/// length of a line.
pub fn validate_text(
    domain: &Domain,
    problem: &Problem,
    text: &str,
    file: &str,
) -> Result<Result<Validation, InvalidPlan>, PlanParseError> {
    let world = World::new(domain, problem);
    let mut steps = bounded_plan_steps(text, file, domain, problem);
    let mut syntax_error = None;
    let read = std::iter::from_fn(|| steps.next_read())
        .map_while(|read| read.map_err(|e| syntax_error = Some(e)).ok())
        .map(|read| (read.step, read.arg_count));
    let verdict = replay_steps(&world, problem, read);
    if let Some(e) = syntax_error {
        return Err(e);
    }
    // Past a step that does not apply, the rest is only read for syntax.
    while let Some(read) = steps.next_read() {
        read?;
    }
    Ok(verdict)
}

/// Replays steps, each with its number of arguments (more than the step
/// holds when a bounded reader kept only the first ones), from the initial
/// state; then checks the goal.
fn replay_steps<'a, S: Borrow<PlanStep>>(
    world: &World<'a>,
    problem: &'a Problem,
    steps: impl Iterator<Item = (S, usize)>,
) -> Result<Validation, InvalidPlan> {
    let mut state: Facts = problem.init.iter().cloned().collect();
    let mut cost: u64 = 0;
    let mut length = 0;
    for (index, (step, arg_count)) in steps.enumerate() {
        let step_cost = apply_step(world, &mut state, step.borrow(), index + 1).map_err(|e| match e {
            InvalidPlan::WrongArity {
                step, action, expected, ..
            } => InvalidPlan::WrongArity {
                step,
                action,
                expected,
                got: arg_count,
            },
            e => e,
        })?;
        cost = cost.saturating_add(step_cost);
        length += 1;
    }
    check_goal(world, problem, &state)?;
    Ok(Validation { length, cost })
}

/// Replays `plan` step by step and keeps every state, stopping at the first
/// step that does not apply.
pub fn replay(domain: &Domain, problem: &Problem, plan: &Plan) -> Replay {
    let world = World::new(domain, problem);
    let mut state: Facts = problem.init.iter().cloned().collect();
    let mut states = vec![state.clone()];
    for (index, step) in plan.steps.iter().enumerate() {
        if let Err(e) = apply_step(&world, &mut state, step, index + 1) {
            return Replay { states, error: Some(e) };
        }
        states.push(state.clone());
    }
    let error = check_goal(&world, problem, &state).err();
    Replay { states, error }
}

/// Applies step `number` (from 1) to `state` and returns its cost. Every
/// effect condition is read in the state before the step; then all deletes
/// happen, then all adds.
fn apply_step<'a>(world: &World<'a>, state: &mut Facts, step: &PlanStep, number: usize) -> Result<u64, InvalidPlan> {
    let action = bind_step(world, step, number)?;
    let mut binding = bind_params(world, action, step, number)?;
    let derived = world.derive(state)?;
    let before = State::new(state, &derived);
    if let Some(condition) = world.failure(&before, &action.precondition, &mut binding)? {
        return Err(InvalidPlan::Precondition {
            step: number,
            action: action.name.clone(),
            condition,
        });
    }
    let (mut add, mut del) = (Vec::new(), Vec::new());
    world.effects(&before, &action.effect, &mut binding, &mut add, &mut del)?;
    let step_cost = if world.action_costs {
        action_cost(world, action, &binding)?
    } else {
        1
    };
    for atom in &del {
        state.remove(atom);
    }
    state.extend(add);
    Ok(step_cost)
}

fn check_goal<'a>(world: &World<'a>, problem: &'a Problem, state: &Facts) -> Result<(), InvalidPlan> {
    let derived = world.derive(state)?;
    let state = State::new(state, &derived);
    match world.failure(&state, &problem.goal, &mut Binding::new(0, ""))? {
        Some(condition) => Err(InvalidPlan::Goal { condition }),
        None => Ok(()),
    }
}

/// Finds the step's action and checks the number of arguments.
fn bind_step<'a>(world: &World<'a>, step: &PlanStep, number: usize) -> Result<&'a Action, InvalidPlan> {
    let action = world
        .actions
        .get(step.action.as_str())
        .copied()
        .ok_or_else(|| InvalidPlan::UnknownAction {
            step: number,
            action: short(&step.action),
        })?;
    if action.params.len() != step.args.len() {
        return Err(InvalidPlan::WrongArity {
            step: number,
            action: step.action.clone(),
            expected: action.params.len(),
            got: step.args.len(),
        });
    }
    Ok(action)
}

/// Checks every argument is a known object of its parameter's type and binds it.
fn bind_params<'a>(
    world: &World<'a>,
    action: &'a Action,
    step: &PlanStep,
    number: usize,
) -> Result<Binding<'a>, InvalidPlan> {
    let mut binding = Binding::new(number, &action.name);
    for (param, arg) in action.params.iter().zip(&step.args) {
        // The binding holds the problem's name of the object, so that it
        // outlives the step (which may be dropped as soon as it is replayed).
        let (&object, object_types) =
            world
                .object_types
                .get_key_value(arg.as_str())
                .ok_or_else(|| InvalidPlan::UnknownObject {
                    step: number,
                    object: short(arg),
                })?;
        // An object declared without a type is an `object`; `either` on the
        // parameter accepts any of its types.
        let fits = param.types.is_empty() || world.types.fits(object_types, &param.types);
        if !fits {
            return Err(InvalidPlan::WrongType {
                step: number,
                action: action.name.clone(),
                object: arg.clone(),
                expected: format_types(&param.types),
            });
        }
        binding.values.push((param.name.as_str(), object));
    }
    Ok(binding)
}

/// The sum of the action's `increase (total-cost)` amounts; 0 if it has none.
fn action_cost<'a>(world: &World<'a>, action: &'a Action, binding: &Binding<'a>) -> Result<u64, InvalidPlan> {
    let mut sum: i128 = 0;
    for expr in &action.costs {
        let value = match expr {
            CostExpr::Constant(c) => *c,
            CostExpr::Function { name, args, .. } => {
                let args = binding.terms(args)?;
                *world
                    .numeric
                    .get(&(name.as_str(), args.as_slice()))
                    .ok_or_else(|| InvalidPlan::UndefinedCost {
                        step: binding.step,
                        action: action.name.clone(),
                        term: format_term(name, &args),
                    })?
            }
        };
        sum += i128::from(value);
    }
    if sum < 0 {
        return Err(InvalidPlan::NegativeCost {
            step: binding.step,
            action: action.name.clone(),
            cost: i64::try_from(sum).unwrap_or(i64::MIN),
        });
    }
    Ok(u64::try_from(sum).unwrap_or(u64::MAX))
}
