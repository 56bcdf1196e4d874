//! Plans: the IPC plan format (read and write) and a validator that replays a
//! plan on the lifted problem, independent of the grounder.
//!
//! The validator deliberately works on the PDDL AST, not on the grounded
//! [`crate::task::Task`]: a bug in grounding or fact numbering must not be able
//! to make a wrong plan look right.

use std::collections::{HashMap, HashSet};

use crate::pddl::{Action, Atom, CostExpr, Domain, GroundAtom, Literal, Location, Problem, Term};

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

/// A token of a plan file. Words are lower-cased on the way in.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Token {
    Open,
    Close,
    OpenBracket,
    CloseBracket,
    Word(String),
}

impl Token {
    fn describe(&self) -> String {
        match self {
            Token::Open => "`(`".to_string(),
            Token::Close => "`)`".to_string(),
            Token::OpenBracket => "`[`".to_string(),
            Token::CloseBracket => "`]`".to_string(),
            Token::Word(w) => format!("`{w}`"),
        }
    }
}

/// Splits a plan file into tokens with their positions; `;` starts a comment
/// that runs to the end of the line.
fn tokenize(text: &str) -> Vec<(Token, Location)> {
    let mut tokens = Vec::new();
    let mut chars = text.chars().peekable();
    let (mut line, mut col) = (1, 1);
    let mut word = String::new();
    let mut word_start = Location { line, col };
    while let Some(c) = chars.next() {
        let here = Location { line, col };
        if c == '\n' {
            line += 1;
            col = 1;
        } else {
            col += 1;
        }
        let punct = match c {
            '(' => Some(Token::Open),
            ')' => Some(Token::Close),
            '[' => Some(Token::OpenBracket),
            ']' => Some(Token::CloseBracket),
            _ => None,
        };
        if punct.is_some() || c == ';' || c.is_whitespace() {
            if !word.is_empty() {
                tokens.push((Token::Word(std::mem::take(&mut word).to_lowercase()), word_start));
            }
            if let Some(p) = punct {
                tokens.push((p, here));
            } else if c == ';' {
                // Skip the comment but keep counting columns of the newline.
                while chars.peek().is_some_and(|&n| n != '\n') {
                    chars.next();
                    col += 1;
                }
            }
        } else {
            if word.is_empty() {
                word_start = here;
            }
            word.push(c);
        }
    }
    if !word.is_empty() {
        tokens.push((Token::Word(word.to_lowercase()), word_start));
    }
    tokens
}

/// `0:` or `12.500:`, the time stamps some planners put before each step.
fn is_timestamp(word: &str) -> bool {
    word.strip_suffix(':').is_some_and(is_number)
}

fn is_number(word: &str) -> bool {
    let mut parts = word.splitn(2, '.');
    let whole = parts.next().unwrap_or("");
    let frac = parts.next();
    !whole.is_empty()
        && whole.chars().all(|c| c.is_ascii_digit())
        && frac.is_none_or(|f| !f.is_empty() && f.chars().all(|c| c.is_ascii_digit()))
}

/// Reads an IPC plan file: one `(action obj ...)` per line, `;` comments.
///
/// Also accepted, because real planners write them: several steps on one
/// line, a time stamp before a step (`0: (move a b)`), and a duration after it
/// (`(move a b) [1]`). Names are lower-cased.
pub fn parse_plan(text: &str, file: &str) -> Result<Plan, PlanParseError> {
    let error = |location: Location, message: String| PlanParseError {
        file: file.to_string(),
        location,
        message,
    };
    let tokens = tokenize(text);
    let end = end_location(text);
    let mut tokens = tokens.into_iter().peekable();
    let mut steps = Vec::new();
    while let Some((token, loc)) = tokens.next() {
        // Optional time stamp, then the step itself.
        let (token, loc) = match token {
            Token::Word(w) if is_timestamp(&w) => match tokens.next() {
                Some((t, l)) => (t, l),
                None => {
                    return Err(error(
                        end,
                        format!("expected `(` after the time stamp `{w}`, found end of file"),
                    ));
                }
            },
            other => (other, loc),
        };
        if token != Token::Open {
            return Err(error(
                loc,
                format!("expected `(` to start a plan step, found {}", token.describe()),
            ));
        }
        let open = loc;
        let action = match tokens.next() {
            Some((Token::Word(w), _)) => w,
            Some((t, l)) => return Err(error(l, format!("expected an action name, found {}", t.describe()))),
            None => return Err(error(end, "expected an action name, found end of file".to_string())),
        };
        let mut args = Vec::new();
        loop {
            match tokens.next() {
                Some((Token::Word(w), _)) => args.push(w),
                Some((Token::Close, _)) => break,
                Some((t, l)) => {
                    return Err(error(
                        l,
                        format!("expected an object name or `)`, found {}", t.describe()),
                    ));
                }
                None => {
                    return Err(error(
                        end,
                        format!(
                            "expected `)` to close the step opened at {}:{}, found end of file",
                            open.line, open.col
                        ),
                    ));
                }
            }
        }
        // Optional duration `[d]`.
        if tokens.peek().is_some_and(|(t, _)| *t == Token::OpenBracket) {
            tokens.next();
            match tokens.next() {
                Some((Token::Word(w), _)) if is_number(&w) => {}
                Some((t, l)) => return Err(error(l, format!("expected a duration number, found {}", t.describe()))),
                None => return Err(error(end, "expected a duration number, found end of file".to_string())),
            }
            match tokens.next() {
                Some((Token::CloseBracket, _)) => {}
                Some((t, l)) => return Err(error(l, format!("expected `]`, found {}", t.describe()))),
                None => return Err(error(end, "expected `]`, found end of file".to_string())),
            }
        }
        steps.push(PlanStep {
            action,
            args,
            location: open,
        });
    }
    Ok(Plan { steps })
}

/// The position just after the last character, for "found end of file".
fn end_location(text: &str) -> Location {
    let line = text.matches('\n').count() + 1;
    let col = text.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    Location { line, col }
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

/// The declared type hierarchy, answering "is type `a` a (transitive) subtype of `b`".
struct TypeHierarchy<'a> {
    parents: HashMap<&'a str, Vec<&'a str>>,
}

impl<'a> TypeHierarchy<'a> {
    fn new(domain: &'a Domain) -> Self {
        let mut parents: HashMap<&str, Vec<&str>> = HashMap::new();
        for decl in &domain.types {
            parents
                .entry(decl.name.as_str())
                .or_default()
                .extend(decl.parents.iter().map(String::as_str));
        }
        TypeHierarchy { parents }
    }

    /// Walks up from `ty`; the visited set makes cyclic declarations harmless.
    fn is_subtype(&self, ty: &str, of: &str) -> bool {
        if of == "object" || ty == of {
            return true;
        }
        let mut seen = HashSet::from([ty]);
        let mut todo = vec![ty];
        while let Some(t) = todo.pop() {
            for &p in self.parents.get(t).into_iter().flatten() {
                if p == of {
                    return true;
                }
                if seen.insert(p) {
                    todo.push(p);
                }
            }
        }
        false
    }
}

/// `(p a b)` or `(not (p a b))`.
fn format_condition(positive: bool, predicate: &str, args: &[String]) -> String {
    let atom = GroundAtom {
        predicate: predicate.to_string(),
        args: args.to_vec(),
    };
    if positive {
        atom.to_string()
    } else {
        format!("(not {atom})")
    }
}

fn format_types(types: &[String]) -> String {
    match types {
        [single] => single.clone(),
        _ => format!("(either {})", types.join(" ")),
    }
}

/// The problem's lifted world, indexed for replay.
struct World<'a> {
    types: TypeHierarchy<'a>,
    /// Every object and domain constant with the types it was declared with.
    objects: HashMap<&'a str, Vec<&'a str>>,
    actions: HashMap<&'a str, &'a Action>,
    numeric: HashMap<(&'a str, &'a [String]), i64>,
    action_costs: bool,
}

impl<'a> World<'a> {
    fn new(domain: &'a Domain, problem: &'a Problem) -> Self {
        let mut objects: HashMap<&str, Vec<&str>> = HashMap::new();
        for o in domain.constants.iter().chain(&problem.objects) {
            objects
                .entry(o.name.as_str())
                .or_default()
                .extend(o.types.iter().map(String::as_str));
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
        World {
            types: TypeHierarchy::new(domain),
            objects,
            actions,
            numeric,
            action_costs: uses_action_costs(domain, problem),
        }
    }
}

/// Parameter bindings of one step, with the step for error messages.
struct Binding<'a> {
    step: usize,
    action: &'a str,
    values: HashMap<&'a str, &'a str>,
}

impl<'a> Binding<'a> {
    fn term(&self, term: &'a Term) -> Result<&'a str, InvalidPlan> {
        match term {
            Term::Constant(c) => Ok(c),
            Term::Variable(v) => self
                .values
                .get(v.as_str())
                .copied()
                .ok_or_else(|| InvalidPlan::UnboundVariable {
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
}

/// Whether a ground literal holds in `state`; `=` is object identity.
fn holds(state: &HashSet<GroundAtom>, positive: bool, atom: &GroundAtom) -> bool {
    let true_now = match (atom.predicate.as_str(), atom.args.as_slice()) {
        ("=", [a, b]) => a == b,
        _ => state.contains(atom),
    };
    true_now == positive
}

/// Replays `plan` from the initial state of `problem`.
pub fn validate(domain: &Domain, problem: &Problem, plan: &Plan) -> Result<Validation, InvalidPlan> {
    let world = World::new(domain, problem);
    let mut state: HashSet<GroundAtom> = problem.init.iter().cloned().collect();
    let mut cost: u64 = 0;
    for (index, step) in plan.steps.iter().enumerate() {
        let number = index + 1;
        let action = bind_step(&world, step, number)?;
        let binding = bind_params(&world, action, step, number)?;
        check_precondition(&state, &action.precondition, &binding)?;
        let del = action
            .del
            .iter()
            .map(|a| binding.atom(a))
            .collect::<Result<Vec<_>, _>>()?;
        let add = action
            .add
            .iter()
            .map(|a| binding.atom(a))
            .collect::<Result<Vec<_>, _>>()?;
        let step_cost = if world.action_costs {
            action_cost(&world, action, &binding)?
        } else {
            1
        };
        for atom in &del {
            state.remove(atom);
        }
        state.extend(add);
        cost = cost.saturating_add(step_cost);
    }
    for goal in &problem.goal {
        if !holds(&state, goal.positive, &goal.atom) {
            return Err(InvalidPlan::Goal {
                condition: format_condition(goal.positive, &goal.atom.predicate, &goal.atom.args),
            });
        }
    }
    Ok(Validation {
        length: plan.steps.len(),
        cost,
    })
}

/// Finds the step's action and checks the number of arguments.
fn bind_step<'a>(world: &World<'a>, step: &PlanStep, number: usize) -> Result<&'a Action, InvalidPlan> {
    let action = world
        .actions
        .get(step.action.as_str())
        .copied()
        .ok_or_else(|| InvalidPlan::UnknownAction {
            step: number,
            action: step.action.clone(),
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
    step: &'a PlanStep,
    number: usize,
) -> Result<Binding<'a>, InvalidPlan> {
    let mut values = HashMap::new();
    for (param, arg) in action.params.iter().zip(&step.args) {
        let object_types = world
            .objects
            .get(arg.as_str())
            .ok_or_else(|| InvalidPlan::UnknownObject {
                step: number,
                object: arg.clone(),
            })?;
        // An object declared without a type is an `object`; `either` on the
        // parameter accepts any of its types.
        let fits = param.types.is_empty()
            || param.types.iter().any(|wanted| {
                wanted == "object" || object_types.iter().any(|&have| world.types.is_subtype(have, wanted))
            });
        if !fits {
            return Err(InvalidPlan::WrongType {
                step: number,
                action: action.name.clone(),
                object: arg.clone(),
                expected: format_types(&param.types),
            });
        }
        values.insert(param.name.as_str(), arg.as_str());
    }
    Ok(Binding {
        step: number,
        action: &action.name,
        values,
    })
}

fn check_precondition<'a>(
    state: &HashSet<GroundAtom>,
    precondition: &'a [Literal],
    binding: &Binding<'a>,
) -> Result<(), InvalidPlan> {
    for literal in precondition {
        let atom = binding.atom(&literal.atom)?;
        if !holds(state, literal.positive, &atom) {
            return Err(InvalidPlan::Precondition {
                step: binding.step,
                action: binding.action.to_string(),
                condition: format_condition(literal.positive, &atom.predicate, &atom.args),
            });
        }
    }
    Ok(())
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
                        term: format_condition(true, name, &args),
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
