//! Plans: the IPC plan format (read and write) and a validator that replays a
//! plan on the lifted problem, independent of the grounder.
//!
//! The validator deliberately works on the PDDL AST, not on the grounded
//! [`crate::task::Task`]: a bug in grounding or fact numbering must not be able
//! to make a wrong plan look right.

use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::rc::Rc;

use std::borrow::Borrow;

use crate::pddl::{
    Action, Atom, Condition, CostExpr, DerivedRule, Domain, Effect, GroundAtom, Location, Places, Problem, Term,
    TypeHierarchy, TypedName,
};

/// One step of a plan: a lifted action with its objects, lower-case.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlanStep {
    pub action: String,
    pub args: Vec<String>,
    /// Where the step stands in a plan file (0:0 for plans from search).
    pub location: Location,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Plan {
    pub steps: Vec<PlanStep>,
}

/// A plan file that does not follow the IPC format.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{file}:{}:{}: {message}", location.line, location.col)]
pub struct PlanParseError {
    pub file: String,
    pub location: Location,
    pub message: String,
}

// ---------------------------------------------------------------------------
// Reading plans
// ---------------------------------------------------------------------------

/// Reads an IPC plan file: one `(action obj ...)` per line, `;` comments to
/// the end of the line. Names are lower-cased.
///
/// Also accepted, because real planners write them: several steps on one
/// line, a time stamp before a step (`0: (move a b)`), and a duration after it
/// (`(move a b) [1]`).
pub fn parse_plan(text: &str, file: &str) -> Result<Plan, PlanParseError> {
    let steps = plan_steps(text, file).collect::<Result<_, _>>()?;
    Ok(Plan { steps })
}

/// The steps of a plan file's text one at a time, as [`parse_plan`] reads
/// them, ending after the first syntax error.
pub fn plan_steps<'t>(text: &'t str, file: &'t str) -> PlanSteps<'t> {
    PlanSteps {
        text,
        file,
        places: Places::new(text),
        offset: 0,
        done: false,
        bounds: StepBounds {
            args: usize::MAX,
            name_chars: usize::MAX,
        },
    }
}

/// What a reader keeps of a step. A name longer than `name_chars` cannot
/// name anything of the task: it is kept as a short prefix (see [`short`]),
/// which names nothing either. Arguments beyond `args` are counted, not
/// kept. So the memory of a step is bounded by the task, whatever the
/// length of its line.
#[derive(Clone, Copy, Debug)]
struct StepBounds {
    args: usize,
    name_chars: usize,
}

/// A step as read, with its number of arguments (more than `step.args`
/// holds when the bounds cut them off).
struct ReadStep {
    step: PlanStep,
    arg_count: usize,
}

/// The reader behind [`plan_steps`]. A word is whatever stands between
/// parentheses, brackets, `;` and (Unicode) whitespace; a time stamp is a
/// number and `:` (`12.5:`), a duration a number in brackets. Nothing
/// nests, so the reader keeps no stack.
pub struct PlanSteps<'t> {
    text: &'t str,
    file: &'t str,
    places: Places<'t>,
    offset: usize,
    done: bool,
    bounds: StepBounds,
}

impl Iterator for PlanSteps<'_> {
    type Item = Result<PlanStep, PlanParseError>;

    fn next(&mut self) -> Option<Self::Item> {
        self.next_read().map(|read| read.map(|r| r.step))
    }
}

fn is_word_char(c: char) -> bool {
    !matches!(c, '(' | ')' | '[' | ']' | ';') && !c.is_whitespace()
}

/// At most 60 characters of a name or token from the input, for a message:
/// a line may hold a name of 100 MB.
fn short(name: &str) -> String {
    const QUOTED: usize = 60;
    match name.char_indices().nth(QUOTED) {
        Some((cut, _)) => format!("{}...", &name[..cut]),
        None => name.to_string(),
    }
}

impl PlanSteps<'_> {
    fn next_read(&mut self) -> Option<Result<ReadStep, PlanParseError>> {
        if self.done {
            return None;
        }
        let read = self.read_step();
        if !matches!(read, Some(Ok(_))) {
            self.done = true;
        }
        read
    }

    fn char_at(&self, offset: usize) -> Option<char> {
        self.text[offset..].chars().next()
    }

    /// The offset after whitespace and comments from `offset` on.
    fn after_blanks(&self, mut offset: usize) -> usize {
        while let Some(c) = self.char_at(offset) {
            if c.is_whitespace() {
                offset += c.len_utf8();
            } else if c == ';' {
                offset = self.text[offset..].find('\n').map_or(self.text.len(), |n| offset + n);
            } else {
                break;
            }
        }
        offset
    }

    fn word_end(&self, offset: usize) -> usize {
        self.text[offset..]
            .find(|c: char| !is_word_char(c))
            .map_or(self.text.len(), |n| offset + n)
    }

    /// The end of a number (`12` or `12.5`) that starts at `offset`.
    fn number_end(&self, offset: usize) -> Option<usize> {
        let digits = |from: usize| {
            let n = self.text[from..].bytes().take_while(u8::is_ascii_digit).count();
            (n > 0).then_some(from + n)
        };
        let end = digits(offset)?;
        match self.text[end..].starts_with('.') {
            true => Some(digits(end + 1).unwrap_or(end)),
            false => Some(end),
        }
    }

    /// Whether a word ends at `offset` (the next character is not a word's).
    fn word_ends(&self, offset: usize) -> bool {
        !self.char_at(offset).is_some_and(is_word_char)
    }

    /// The word from `offset` to `end` as a step holds it: lower-cased, or
    /// its short prefix when it is longer than any name of the task.
    fn name(&self, offset: usize, end: usize) -> String {
        let word = &self.text[offset..end];
        // Lower-casing never makes fewer characters, so a word of more
        // characters than the longest name cannot match one.
        if self.bounds.name_chars < usize::MAX && word.chars().nth(self.bounds.name_chars).is_some() {
            return short(word).to_lowercase();
        }
        word.to_lowercase()
    }

    /// The token at `offset` as an error message shows it.
    fn found(&self, offset: usize) -> String {
        match self.char_at(offset) {
            None => "end of file".to_string(),
            Some(c @ ('(' | ')' | '[' | ']')) => format!("`{c}`"),
            Some(_) => format!("`{}`", short(&self.text[offset..self.word_end(offset)]).to_lowercase()),
        }
    }

    fn error(&mut self, offset: usize, message: String) -> PlanParseError {
        PlanParseError {
            file: self.file.to_string(),
            location: self.places.at(offset),
            message,
        }
    }

    /// The next entry: `[STAMP:] (ACTION OBJECT...) [[DURATION]]`; `None`
    /// at the end of the text.
    fn read_step(&mut self) -> Option<Result<ReadStep, PlanParseError>> {
        let mut at = self.after_blanks(self.offset);
        if at == self.text.len() {
            return None;
        }
        let mut stamp = None;
        if let Some(end) = self.number_end(at)
            && self.text[end..].starts_with(':')
            && self.word_ends(end + 1)
        {
            stamp = Some(&self.text[at..=end]);
            at = self.after_blanks(end + 1);
        }
        if self.char_at(at) != Some('(') {
            let message = match stamp {
                Some(stamp) if at == self.text.len() => {
                    format!("expected `(` after the time stamp `{stamp}`, found end of file")
                }
                _ => format!("expected `(` to start a plan step, found {}", self.found(at)),
            };
            return Some(Err(self.error(at, message)));
        }
        let location = self.places.at(at);
        at = self.after_blanks(at + 1);
        let end = self.word_end(at);
        if end == at {
            let message = format!("expected an action name, found {}", self.found(at));
            return Some(Err(self.error(at, message)));
        }
        let action = self.name(at, end);
        let (mut args, mut arg_count) = (Vec::new(), 0);
        at = self.after_blanks(end);
        loop {
            match self.char_at(at) {
                Some(')') => break,
                None => {
                    let Location { line, col } = location;
                    let message = format!("expected `)` to close the step opened at {line}:{col}, found end of file");
                    return Some(Err(self.error(at, message)));
                }
                Some(_) => {}
            }
            let end = self.word_end(at);
            if end == at {
                let message = format!("expected an object name or `)`, found {}", self.found(at));
                return Some(Err(self.error(at, message)));
            }
            arg_count += 1;
            if args.len() <= self.bounds.args {
                args.push(self.name(at, end));
            }
            at = self.after_blanks(end);
        }
        at = self.after_blanks(at + 1);
        if self.char_at(at) == Some('[') {
            at = self.after_blanks(at + 1);
            match self.number_end(at) {
                Some(end) if self.word_ends(end) => at = self.after_blanks(end),
                _ => {
                    let message = format!("expected a duration number, found {}", self.found(at));
                    return Some(Err(self.error(at, message)));
                }
            }
            if self.char_at(at) != Some(']') {
                let message = format!("expected `]`, found {}", self.found(at));
                return Some(Err(self.error(at, message)));
            }
            at += 1;
        }
        self.offset = at;
        Some(Ok(ReadStep {
            step: PlanStep { action, args, location },
            arg_count,
        }))
    }
}

/// Writes a plan in the IPC format, ending with `; cost = N (unit cost)` or
/// `; cost = N (general cost)`.
pub fn format_plan(plan: &Plan, cost: u64, unit_cost: bool) -> String {
    let mut out = String::new();
    for s in &plan.steps {
        out.push('(');
        out.push_str(&s.action);
        for a in &s.args {
            out.push(' ');
            out.push_str(a);
        }
        out.push_str(")\n");
    }
    out.push_str(&format!(
        "; cost = {cost} ({})\n",
        if unit_cost { "unit cost" } else { "general cost" }
    ));
    out
}

// ---------------------------------------------------------------------------
// Validating plans
// ---------------------------------------------------------------------------

/// A valid plan's length and cost (under the problem's metric; unit cost
/// when it has none).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Validation {
    pub length: usize,
    pub cost: u64,
}

/// Why a plan is not valid. Steps are numbered from 1.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum InvalidPlan {
    #[error("step {step}: unknown action `{action}`")]
    UnknownAction { step: usize, action: String },
    #[error("step {step}: `{action}` takes {expected} arguments, got {got}")]
    WrongArity {
        step: usize,
        action: String,
        expected: usize,
        got: usize,
    },
    #[error("step {step}: unknown object `{object}`")]
    UnknownObject { step: usize, object: String },
    #[error("step {step} {action}: argument `{object}` is not of type {expected}")]
    WrongType {
        step: usize,
        action: String,
        object: String,
        expected: String,
    },
    #[error("step {step} {action}: precondition {condition} does not hold")]
    Precondition {
        step: usize,
        action: String,
        condition: String,
    },
    #[error("goal {condition} does not hold after the last step")]
    Goal { condition: String },
    /// The action's cost refers to a numeric fluent the problem gives no value.
    #[error("step {step} {action}: cost {term} has no value in the initial state")]
    UndefinedCost { step: usize, action: String, term: String },
    #[error("step {step} {action}: cost {cost} is negative")]
    NegativeCost { step: usize, action: String, cost: i64 },
    /// The domain itself is inconsistent: a condition or effect names a
    /// variable that is not a parameter of the action.
    #[error("step {step} {action}: `{variable}` is not a parameter of the action")]
    UnboundVariable {
        step: usize,
        action: String,
        variable: String,
    },
}

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
    let names = domain.actions.iter().map(|a| &a.name);
    let names = names.chain(domain.constants.iter().chain(&problem.objects).map(|o| &o.name));
    let mut steps = PlanSteps {
        bounds: StepBounds {
            args: domain.actions.iter().map(|a| a.params.len()).max().unwrap_or(0),
            name_chars: names.map(|n| n.chars().count()).max().unwrap_or(0),
        },
        ..plan_steps(text, file)
    };
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

/// The states a plan passes through, replayed as [`validate`] does.
#[derive(Clone, Debug)]
pub struct Replay {
    /// The initial state, then the state after each step that applied
    /// (without derived facts).
    pub states: Vec<HashSet<GroundAtom>>,
    /// The first step that does not apply, or the goal that does not hold
    /// at the end; `None` for a valid plan.
    pub error: Option<InvalidPlan>,
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pddl::{Literal, NumericFact, TypeDecl, TypedName};

    const NOWHERE: Location = Location { line: 0, col: 0 };

    fn typed(name: &str, types: &[&str]) -> TypedName {
        TypedName {
            name: name.to_string(),
            types: types.iter().map(|t| t.to_string()).collect(),
            location: NOWHERE,
        }
    }

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
            location: NOWHERE,
        }
    }

    /// `"clear ?x"` is a positive literal, `"!clear ?x"` a negative one.
    fn literal(text: &str) -> Literal {
        match text.strip_prefix('!') {
            Some(rest) => Literal {
                positive: false,
                atom: atom(rest),
            },
            None => Literal {
                positive: true,
                atom: atom(text),
            },
        }
    }

    fn ground(text: &str) -> GroundAtom {
        let mut words = text.split_whitespace().map(str::to_string);
        GroundAtom {
            predicate: words.next().unwrap_or_default(),
            args: words.collect(),
        }
    }

    /// A conjunction of literals as in [`literal`], over objects.
    fn goals(texts: &[&str]) -> Condition {
        Condition::conjunction(texts.iter().map(|t| literal(t)))
    }

    fn action(name: &str, params: &[(&str, &[&str])], pre: &[&str], add: &[&str], del: &[&str]) -> Action {
        Action {
            name: name.to_string(),
            params: params.iter().map(|(n, t)| typed(n, t)).collect(),
            precondition: Condition::conjunction(pre.iter().map(|l| literal(l))),
            effect: Effect::strips(add.iter().map(|a| atom(a)), del.iter().map(|a| atom(a))),
            costs: Vec::new(),
            location: NOWHERE,
        }
    }

    fn domain(types: &[(&str, &[&str])], constants: Vec<TypedName>, actions: Vec<Action>) -> Domain {
        Domain {
            file: String::new(),
            name: "test".to_string(),
            requirements: vec!["strips".to_string(), "typing".to_string()],
            types: types
                .iter()
                .map(|(n, p)| TypeDecl {
                    name: n.to_string(),
                    parents: p.iter().map(|t| t.to_string()).collect(),
                })
                .collect(),
            constants,
            predicates: Vec::new(),
            functions: Vec::new(),
            actions,
            derived: Vec::new(),
        }
    }

    fn problem(objects: Vec<TypedName>, init: &[&str], goals: &[&str]) -> Problem {
        Problem {
            name: "p".to_string(),
            domain: "test".to_string(),
            objects,
            init: init.iter().map(|a| ground(a)).collect(),
            numeric_init: Vec::new(),
            goal: self::goals(goals),
            minimize_total_cost: false,
        }
    }

    fn plan(text: &str) -> Plan {
        match parse_plan(text, "test.plan") {
            Ok(p) => p,
            Err(e) => panic!("test plan does not parse: {e}"),
        }
    }

    /// Typed blocks world with a subtype (`heavy - block`), a robot, an
    /// `either` parameter, equality and a negative precondition.
    fn blocks() -> (Domain, Problem) {
        let b: &[&str] = &["block"];
        let actions = vec![
            action(
                "pick-up",
                &[("?x", b)],
                &["clear ?x", "ontable ?x", "handempty"],
                &["holding ?x"],
                &["ontable ?x", "clear ?x", "handempty"],
            ),
            action(
                "put-down",
                &[("?x", b)],
                &["holding ?x"],
                &["ontable ?x", "clear ?x", "handempty"],
                &["holding ?x"],
            ),
            action(
                "stack",
                &[("?x", b), ("?y", b)],
                &["!= ?x ?y", "holding ?x", "clear ?y"],
                &["on ?x ?y", "clear ?x", "handempty"],
                &["holding ?x", "clear ?y"],
            ),
            action(
                "unstack",
                &[("?x", b), ("?y", b)],
                &["on ?x ?y", "clear ?x", "handempty"],
                &["holding ?x", "clear ?y"],
                &["on ?x ?y", "clear ?x", "handempty"],
            ),
            action("paint", &[("?x", b)], &["!painted ?x"], &["painted ?x"], &[]),
            action("wave", &[("?r", &["robot"])], &[], &["waved ?r"], &[]),
            action("inspect", &[("?t", &["robot", "heavy"])], &[], &["inspected ?t"], &[]),
            // Uses the domain constant `table`.
            action("touch-table", &[], &["= table table"], &["touched table"], &[]),
        ];
        let domain = domain(
            &[("block", &["object"]), ("heavy", &["block"]), ("robot", &["object"])],
            vec![typed("table", &["object"])],
            actions,
        );
        let problem = problem(
            vec![
                typed("a", b),
                typed("b", b),
                typed("c", &["heavy"]),
                typed("r2", &["robot"]),
            ],
            &["clear a", "on a b", "ontable b", "clear c", "ontable c", "handempty"],
            &["on b a", "on a c", "!holding a"],
        );
        (domain, problem)
    }

    const BLOCKS_PLAN: &str = "(unstack a b)\n(stack a c)\n(pick-up b)\n(stack b a)\n";

    #[test]
    fn valid_blocks_plan_has_unit_cost() {
        let (d, p) = blocks();
        assert_eq!(
            validate(&d, &p, &plan(BLOCKS_PLAN)),
            Ok(Validation { length: 4, cost: 4 })
        );
    }

    #[test]
    fn empty_plan_fails_on_the_first_unmet_goal() {
        let (d, p) = blocks();
        assert_eq!(
            validate(&d, &p, &Plan::default()),
            Err(InvalidPlan::Goal {
                condition: "(on b a)".to_string()
            })
        );
    }

    #[test]
    fn unmet_goal_is_reported() {
        let (d, p) = blocks();
        let result = validate(&d, &p, &plan("(unstack a b)\n(stack a c)\n"));
        assert_eq!(
            result,
            Err(InvalidPlan::Goal {
                condition: "(on b a)".to_string()
            })
        );
    }

    #[test]
    fn negative_goal_is_reported() {
        let (d, mut p) = blocks();
        p.goal = goals(&["!holding a"]);
        assert_eq!(
            validate(&d, &p, &plan("(unstack a b)")),
            Err(InvalidPlan::Goal {
                condition: "(not (holding a))".to_string()
            })
        );
    }

    #[test]
    fn unknown_action_is_reported_with_its_step() {
        let (d, p) = blocks();
        assert_eq!(
            validate(&d, &p, &plan("(unstack a b)\n(fly a)\n")),
            Err(InvalidPlan::UnknownAction {
                step: 2,
                action: "fly".to_string()
            })
        );
    }

    #[test]
    fn wrong_arity_is_reported() {
        let (d, p) = blocks();
        assert_eq!(
            validate(&d, &p, &plan("(unstack a b)\n(stack a)\n")),
            Err(InvalidPlan::WrongArity {
                step: 2,
                action: "stack".to_string(),
                expected: 2,
                got: 1
            })
        );
    }

    #[test]
    fn unknown_object_is_reported() {
        let (d, p) = blocks();
        assert_eq!(
            validate(&d, &p, &plan("(unstack a b)\n(stack a z)\n")),
            Err(InvalidPlan::UnknownObject {
                step: 2,
                object: "z".to_string()
            })
        );
    }

    #[test]
    fn wrong_type_is_reported() {
        let (d, p) = blocks();
        assert_eq!(
            validate(&d, &p, &plan("(wave a)")),
            Err(InvalidPlan::WrongType {
                step: 1,
                action: "wave".to_string(),
                object: "a".to_string(),
                expected: "robot".to_string()
            })
        );
        // A robot is not a block, and a domain constant of type object is neither.
        assert!(matches!(
            validate(&d, &p, &plan("(paint r2)")),
            Err(InvalidPlan::WrongType { step: 1, .. })
        ));
        assert!(matches!(
            validate(&d, &p, &plan("(paint table)")),
            Err(InvalidPlan::WrongType { step: 1, .. })
        ));
    }

    #[test]
    fn subtypes_and_either_types_are_accepted() {
        let (d, mut p) = blocks();
        p.goal = goals(&["painted c", "inspected c", "inspected r2", "touched table"]);
        let result = validate(&d, &p, &plan("(paint c) (inspect c) (inspect r2) (touch-table)"));
        assert_eq!(result, Ok(Validation { length: 4, cost: 4 }));
        // `either robot heavy` does not admit a plain block.
        assert_eq!(
            validate(&d, &p, &plan("(inspect a)")),
            Err(InvalidPlan::WrongType {
                step: 1,
                action: "inspect".to_string(),
                object: "a".to_string(),
                expected: "(either robot heavy)".to_string()
            })
        );
    }

    #[test]
    fn failed_precondition_is_reported() {
        let (d, p) = blocks();
        assert_eq!(
            validate(&d, &p, &plan("(unstack a b)\n(stack a c)\n(pick-up c)\n")),
            Err(InvalidPlan::Precondition {
                step: 3,
                action: "pick-up".to_string(),
                condition: "(clear c)".to_string()
            })
        );
    }

    #[test]
    fn violated_negative_precondition_is_reported() {
        let (d, p) = blocks();
        assert_eq!(
            validate(&d, &p, &plan("(paint a)\n(paint b)\n(paint a)\n")),
            Err(InvalidPlan::Precondition {
                step: 3,
                action: "paint".to_string(),
                condition: "(not (painted a))".to_string()
            })
        );
    }

    #[test]
    fn inequality_precondition_is_checked() {
        let (d, p) = blocks();
        assert_eq!(
            validate(&d, &p, &plan("(unstack a b)\n(stack a a)\n")),
            Err(InvalidPlan::Precondition {
                step: 2,
                action: "stack".to_string(),
                condition: "(not (= a a))".to_string()
            })
        );
    }

    #[test]
    fn deletes_apply_before_adds() {
        // An action that deletes and adds the same atom keeps it.
        let d = domain(
            &[],
            Vec::new(),
            vec![action("toggle", &[("?x", &["object"])], &[], &["on ?x"], &["on ?x"])],
        );
        let p = problem(vec![typed("a", &["object"])], &[], &["on a"]);
        assert_eq!(
            validate(&d, &p, &plan("(toggle a)")),
            Ok(Validation { length: 1, cost: 1 })
        );
    }

    #[test]
    fn unbound_variable_in_the_domain_is_an_error_not_a_panic() {
        let d = domain(
            &[],
            Vec::new(),
            vec![action("broken", &[("?x", &["object"])], &["p ?y"], &[], &[])],
        );
        let p = problem(vec![typed("a", &["object"])], &[], &[]);
        assert!(matches!(
            validate(&d, &p, &plan("(broken a)")),
            Err(InvalidPlan::UnboundVariable { step: 1, .. })
        ));
    }

    /// Roads with a static length function; `load` has no cost effect and
    /// therefore costs 0 under action costs.
    fn roads() -> (Domain, Problem) {
        let place: &[&str] = &["place"];
        let mut drive = action(
            "drive",
            &[("?from", place), ("?to", place)],
            &["at ?from", "road ?from ?to"],
            &["at ?to"],
            &["at ?from"],
        );
        drive.costs = vec![
            CostExpr::Function {
                name: "road-length".to_string(),
                args: vec![Term::Variable("?from".to_string()), Term::Variable("?to".to_string())],
                location: NOWHERE,
            },
            CostExpr::Constant(1),
        ];
        let load = action("load", &[("?p", place)], &["at ?p"], &["loaded"], &[]);
        let d = domain(&[("place", &["object"])], Vec::new(), vec![drive, load]);
        let mut p = problem(
            vec![typed("x", place), typed("y", place), typed("z", place)],
            &["at x", "road x y", "road y z", "road z x"],
            &["at z", "loaded"],
        );
        let length = |a: &str, b: &str, value| NumericFact {
            function: "road-length".to_string(),
            args: vec![a.to_string(), b.to_string()],
            value,
            location: NOWHERE,
        };
        p.numeric_init = vec![length("x", "y", 5), length("y", "z", 7)];
        p.minimize_total_cost = true;
        (d, p)
    }

    #[test]
    fn action_costs_are_summed() {
        let (d, p) = roads();
        // (5 + 1) + 0 + (7 + 1)
        let result = validate(&d, &p, &plan("(drive x y)\n(load y)\n(drive y z)\n"));
        assert_eq!(result, Ok(Validation { length: 3, cost: 14 }));
        assert!(uses_action_costs(&d, &p));
    }

    #[test]
    fn action_costs_apply_without_a_metric_too() {
        let (d, mut p) = roads();
        p.minimize_total_cost = false;
        let result = validate(&d, &p, &plan("(drive x y)\n(load y)\n(drive y z)\n"));
        assert_eq!(result, Ok(Validation { length: 3, cost: 14 }));
    }

    #[test]
    fn missing_cost_value_is_reported() {
        let (d, mut p) = roads();
        p.goal = goals(&["at x"]);
        let result = validate(&d, &p, &plan("(drive x y)\n(drive y z)\n(drive z x)\n"));
        assert_eq!(
            result,
            Err(InvalidPlan::UndefinedCost {
                step: 3,
                action: "drive".to_string(),
                term: "(road-length z x)".to_string()
            })
        );
    }

    #[test]
    fn negative_cost_is_reported() {
        let (mut d, p) = roads();
        d.actions[1].costs = vec![CostExpr::Constant(-3)];
        assert!(matches!(
            validate(&d, &p, &plan("(load x)")),
            Err(InvalidPlan::NegativeCost { step: 1, cost: -3, .. })
        ));
    }

    #[test]
    fn parses_the_ipc_format_with_its_quirks() {
        let text = "; a plan\n\n0: (MOVE A B) [1]\n1.5: (Stack b c);done\n(noop)   (go x y z) ; two on a line\n";
        let p = plan(text);
        let steps: Vec<(String, Vec<String>)> = p.steps.iter().map(|s| (s.action.clone(), s.args.clone())).collect();
        let expected = vec![
            ("move", vec!["a", "b"]),
            ("stack", vec!["b", "c"]),
            ("noop", vec![]),
            ("go", vec!["x", "y", "z"]),
        ];
        let expected: Vec<(String, Vec<String>)> = expected
            .into_iter()
            .map(|(a, args)| (a.to_string(), args.into_iter().map(str::to_string).collect()))
            .collect();
        assert_eq!(steps, expected);
        assert_eq!(p.steps[0].location, Location { line: 3, col: 4 });
        assert_eq!(p.steps[1].location, Location { line: 4, col: 6 });
        assert_eq!(p.steps[3].location, Location { line: 5, col: 10 });
    }

    #[test]
    fn comments_only_is_an_empty_plan() {
        assert_eq!(plan("; nothing\n;; at all\n\n"), Plan::default());
        assert_eq!(plan(""), Plan::default());
    }

    fn parse_error(text: &str) -> PlanParseError {
        match parse_plan(text, "bad.plan") {
            Ok(p) => panic!("{text:?} should not parse, got {p:?}"),
            Err(e) => e,
        }
    }

    #[test]
    fn syntax_errors_name_the_place_and_what_was_expected() {
        let e = parse_error("(a b)\n  move a b)\n");
        assert_eq!(
            e.to_string(),
            "bad.plan:2:3: expected `(` to start a plan step, found `move`"
        );
        let e = parse_error("(a b)\n(move a\n");
        assert_eq!(
            e.to_string(),
            "bad.plan:3:1: expected `)` to close the step opened at 2:1, found end of file"
        );
        let e = parse_error("()");
        assert_eq!(e.to_string(), "bad.plan:1:2: expected an action name, found `)`");
        let e = parse_error("(move (a) b)");
        assert_eq!(e.to_string(), "bad.plan:1:7: expected an object name or `)`, found `(`");
        let e = parse_error("(move a) [x]");
        assert_eq!(e.to_string(), "bad.plan:1:11: expected a duration number, found `x`");
        let e = parse_error("(move a) [1");
        assert_eq!(e.to_string(), "bad.plan:1:12: expected `]`, found end of file");
        let e = parse_error("(a)\n3:");
        assert_eq!(
            e.to_string(),
            "bad.plan:2:3: expected `(` after the time stamp `3:`, found end of file"
        );
        let e = parse_error(")");
        assert_eq!(e.location, Location { line: 1, col: 1 });
    }

    #[test]
    fn reading_costs_neither_recursion_nor_a_pass_per_step() {
        // Refused at the second `(`, without reading on.
        let e = parse_error(&"(".repeat(1_000_000));
        assert_eq!(e.to_string(), "bad.plan:1:2: expected an action name, found `(`");
        // Many steps on one line: places are counted in one pass.
        let line = "(a b) ".repeat(50_000);
        let p = plan(&line);
        assert_eq!(p.steps.len(), 50_000);
        assert_eq!(p.steps[49_999].location, Location { line: 1, col: 299_995 });
    }

    #[test]
    fn format_then_parse_round_trips() {
        let (d, p) = blocks();
        let original = plan(BLOCKS_PLAN);
        let validation = validate(&d, &p, &original).ok();
        assert_eq!(validation, Some(Validation { length: 4, cost: 4 }));
        let text = format_plan(&original, 4, true);
        assert!(text.ends_with("; cost = 4 (unit cost)\n"));
        let reread = plan(&text);
        let strip = |p: &Plan| -> Vec<(String, Vec<String>)> {
            p.steps.iter().map(|s| (s.action.clone(), s.args.clone())).collect()
        };
        assert_eq!(strip(&reread), strip(&original));
        assert_eq!(reread.steps.len(), 4);
        assert_eq!(plan(&format_plan(&Plan::default(), 0, false)), Plan::default());
    }

    #[test]
    fn reader_never_panics() {
        // A small deterministic fuzz over the characters that matter.
        let alphabet: Vec<char> = "()[];:.0 1a\nB\té-?".chars().collect();
        let mut seed: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut parsed = 0;
        let (d, pr) = blocks();
        for _ in 0..3000 {
            let mut text = String::new();
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let len = (seed % 24) as usize;
            for _ in 0..len {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                text.push(alphabet[(seed % alphabet.len() as u64) as usize]);
            }
            if let Ok(p) = parse_plan(&text, "fuzz") {
                parsed += 1;
                // Whatever parses must survive validation against a domain.
                let _ = validate(&d, &pr, &p);
            }
        }
        assert!(parsed > 0, "the fuzz alphabet should produce some valid plans");
    }
}
