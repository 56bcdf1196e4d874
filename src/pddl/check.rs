//! Name, arity and type checks: a domain on its own (after parsing) and a
//! problem against its domain.

use super::ast::*;
use super::parse::ProblemPlaces;
use super::{ErrorKind, PddlError, TypeHierarchy};
use std::collections::{HashMap, HashSet};

type Res<T> = Result<T, PddlError>;

struct Checker<'a> {
    file: &'a str,
    types: TypeHierarchy<'a>,
    predicates: HashMap<&'a str, &'a PredicateDecl>,
    functions: HashMap<&'a str, &'a FunctionDecl>,
}

fn type_list(types: &[String]) -> String {
    match types {
        [one] => format!("`{one}`"),
        _ => format!("`(either {})`", types.join(" ")),
    }
}

impl<'a> Checker<'a> {
    fn new(domain: &'a Domain, file: &'a str) -> Self {
        Checker {
            file,
            types: TypeHierarchy::new(domain),
            predicates: domain.predicates.iter().map(|p| (p.name.as_str(), p)).collect(),
            functions: domain.functions.iter().map(|f| (f.name.as_str(), f)).collect(),
        }
    }

    fn error(&self, location: Location, message: String) -> PddlError {
        PddlError {
            kind: ErrorKind::Semantic,
            file: self.file.to_string(),
            location,
            message,
        }
    }

    /// Parameters or quantified variables, each named once: `(?x ?x)` binds
    /// one name to two objects, and the action or rule would silently use
    /// one of them.
    fn distinct(&self, variables: &[TypedName], what: &str) -> Res<()> {
        for (i, v) in variables.iter().enumerate() {
            if let Some(first) = variables[..i].iter().find(|w| w.name == v.name) {
                let Location { line, col } = first.location;
                return Err(self.error(
                    v.location,
                    format!("{what} `{}` is declared twice (first at {line}:{col})", v.name),
                ));
            }
        }
        Ok(())
    }

    fn declared_types(&self, names: &[TypedName]) -> Res<()> {
        for n in names {
            if let Some(t) = n.types.iter().find(|t| !self.types.is_declared(t)) {
                return Err(self.error(n.location, format!("undeclared type `{t}` of `{}`", n.name)));
            }
        }
        Ok(())
    }

    /// The parameters of a predicate (`=` takes any two terms), after an
    /// arity check.
    fn predicate_params(&self, predicate: &str, arity: usize, location: Location) -> Res<Option<&'a [TypedName]>> {
        if predicate == "=" {
            return Ok(None);
        }
        let decl = self
            .predicates
            .get(predicate)
            .ok_or_else(|| self.error(location, format!("undeclared predicate `{predicate}`")))?;
        if decl.params.len() != arity {
            return Err(self.error(
                location,
                format!("`{predicate}` takes {} argument(s), found {arity}", decl.params.len()),
            ));
        }
        Ok(Some(&decl.params))
    }

    fn function_params(&self, function: &str, arity: usize, location: Location) -> Res<&'a [TypedName]> {
        let decl = self
            .functions
            .get(function)
            .ok_or_else(|| self.error(location, format!("undeclared function `{function}`")))?;
        if decl.params.len() != arity {
            return Err(self.error(
                location,
                format!("`{function}` takes {} argument(s), found {arity}", decl.params.len()),
            ));
        }
        Ok(&decl.params)
    }

    /// Terms in the domain: variables must be in scope (parameters or
    /// quantified), names must be constants.
    fn terms(&self, terms: &[Term], scope: &[&TypedName], constants: &[TypedName], location: Location) -> Res<()> {
        for t in terms {
            match t {
                Term::Variable(v) if !scope.iter().any(|p| &p.name == v) => {
                    return Err(self.error(location, format!("undeclared variable `{v}`")));
                }
                Term::Constant(c) if !constants.iter().any(|k| &k.name == c) => {
                    return Err(self.error(location, format!("undeclared constant `{c}`")));
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// A condition's atoms: declared predicates with the right arity, over
    /// terms that `terms` accepts in the scope the quantifiers open.
    fn condition<'c>(
        &self,
        condition: &'c Condition,
        scope: &mut Vec<&'c TypedName>,
        terms: &dyn Fn(&Atom, &[&TypedName]) -> Res<()>,
    ) -> Res<()> {
        match condition {
            Condition::Atom(atom) => {
                self.predicate_params(&atom.predicate, atom.args.len(), atom.location)?;
                terms(atom, scope)
            }
            Condition::Not(c) => self.condition(c, scope, terms),
            Condition::And(parts) | Condition::Or(parts) => {
                parts.iter().try_for_each(|c| self.condition(c, scope, terms))
            }
            Condition::Imply(a, b) => {
                self.condition(a, scope, terms)?;
                self.condition(b, scope, terms)
            }
            Condition::Exists(vars, c) | Condition::Forall(vars, c) => {
                self.declared_types(vars)?;
                self.distinct(vars, "variable")?;
                let depth = scope.len();
                scope.extend(vars);
                let result = self.condition(c, scope, terms);
                scope.truncate(depth);
                result
            }
        }
    }

    /// An effect's atoms and conditions; derived predicates are never
    /// changed by an action.
    fn effect<'c>(
        &self,
        effect: &'c Effect,
        scope: &mut Vec<&'c TypedName>,
        terms: &dyn Fn(&Atom, &[&TypedName]) -> Res<()>,
        derived: &HashSet<&str>,
    ) -> Res<()> {
        match effect {
            Effect::Add(atom) | Effect::Delete(atom) => {
                if derived.contains(atom.predicate.as_str()) {
                    return Err(self.error(
                        atom.location,
                        format!("derived predicate `{}` cannot be an effect", atom.predicate),
                    ));
                }
                self.predicate_params(&atom.predicate, atom.args.len(), atom.location)?;
                terms(atom, scope)
            }
            Effect::And(parts) => parts.iter().try_for_each(|e| self.effect(e, scope, terms, derived)),
            Effect::When(condition, e) => {
                self.condition(condition, scope, terms)?;
                self.effect(e, scope, terms, derived)
            }
            Effect::Forall(vars, e) => {
                self.declared_types(vars)?;
                self.distinct(vars, "variable")?;
                let depth = scope.len();
                scope.extend(vars);
                let result = self.effect(e, scope, terms, derived);
                scope.truncate(depth);
                result
            }
        }
    }

    fn action(&self, action: &Action, constants: &[TypedName], derived: &HashSet<&str>) -> Res<()> {
        self.declared_types(&action.params)?;
        self.distinct(&action.params, "parameter")?;
        let terms = |atom: &Atom, scope: &[&TypedName]| self.terms(&atom.args, scope, constants, atom.location);
        let mut scope: Vec<&TypedName> = action.params.iter().collect();
        self.condition(&action.precondition, &mut scope, &terms)?;
        self.effect(&action.effect, &mut scope, &terms, derived)?;
        for cost in &action.costs {
            if let CostExpr::Function { name, args, location } = cost {
                self.function_params(name, args.len(), *location)?;
                self.terms(args, &scope, constants, *location)?;
            }
        }
        Ok(())
    }

    /// A `:derived` rule: a declared predicate, its parameters as declared
    /// in number, a body over them.
    fn derived_rule(&self, rule: &DerivedRule, constants: &[TypedName]) -> Res<()> {
        let decl = self.predicates.get(rule.predicate.as_str()).ok_or_else(|| {
            self.error(
                rule.location,
                format!(
                    "derived predicate `{}` is not declared in `:predicates`",
                    rule.predicate
                ),
            )
        })?;
        if decl.params.len() != rule.params.len() {
            return Err(self.error(
                rule.location,
                format!(
                    "`{}` takes {} argument(s), found {}",
                    rule.predicate,
                    decl.params.len(),
                    rule.params.len()
                ),
            ));
        }
        self.declared_types(&rule.params)?;
        self.distinct(&rule.params, "parameter")?;
        let terms = |atom: &Atom, scope: &[&TypedName]| self.terms(&atom.args, scope, constants, atom.location);
        let mut scope: Vec<&TypedName> = rule.params.iter().collect();
        self.condition(&rule.body, &mut scope, &terms)
    }

    /// Ground arguments: declared objects whose types fit the parameters
    /// (`None`: any two objects, for `=`).
    fn objects(
        &self,
        what: &str,
        args: &[String],
        params: Option<&[TypedName]>,
        objects: &HashMap<&str, Vec<String>>,
        location: Location,
    ) -> Res<()> {
        for (i, arg) in args.iter().enumerate() {
            self.object(what, i, arg, params.and_then(|ps| ps.get(i)), objects, location)?;
        }
        Ok(())
    }

    /// Argument `index` (from 0) of `what`: a declared object whose types
    /// fit `param`.
    fn object(
        &self,
        what: &str,
        index: usize,
        arg: &str,
        param: Option<&TypedName>,
        objects: &HashMap<&str, Vec<String>>,
        location: Location,
    ) -> Res<()> {
        let types = objects
            .get(arg)
            .ok_or_else(|| self.error(location, format!("undeclared object `{arg}`")))?;
        if let Some(param) = param
            && !self.types.fits(types, &param.types)
        {
            return Err(self.error(
                location,
                format!(
                    "object `{arg}` of type {} cannot be argument {} of `{what}`, which needs type {}",
                    type_list(types),
                    index + 1,
                    type_list(&param.types)
                ),
            ));
        }
        Ok(())
    }
}

/// The shortest cycle of parent links from `ty` back to itself, as the
/// names along it (`a - b - a`: `a` is a `b`, which is an `a`), if any.
fn type_cycle<'d>(domain: &'d Domain, ty: &'d str) -> Option<Vec<&'d str>> {
    let mut parents: HashMap<&str, Vec<&str>> = HashMap::new();
    for decl in &domain.types {
        parents
            .entry(decl.name.as_str())
            .or_default()
            .extend(decl.parents.iter().map(String::as_str));
    }
    // Breadth-first from `ty`, remembering through which type each was reached.
    let mut reached_from: HashMap<&str, &str> = HashMap::new();
    let mut queue = std::collections::VecDeque::from([ty]);
    while let Some(t) = queue.pop_front() {
        for &p in parents.get(t).into_iter().flatten() {
            if p == ty {
                let mut path = vec![ty, t];
                let mut at = t;
                while at != ty {
                    at = reached_from[at];
                    path.push(at);
                }
                path.reverse();
                path.pop();
                path.push(ty);
                return Some(path);
            }
            if let std::collections::hash_map::Entry::Vacant(e) = reached_from.entry(p) {
                e.insert(t);
                queue.push_back(p);
            }
        }
    }
    None
}

/// Each predicate (or function) declared once. A second declaration is
/// refused whether or not its arity differs: with another arity one of the
/// two would be wrong everywhere it is used, and with the same one it is a
/// copy that a later edit may make different. (No domain of the IPC
/// corpus repeats one.)
fn declared_once<'d>(c: &Checker, names: impl Iterator<Item = (&'d str, Location)>, what: &str) -> Res<()> {
    let mut first: HashMap<&str, Location> = HashMap::new();
    for (name, location) in names {
        if let Some(&Location { line, col }) = first.get(name) {
            return Err(c.error(
                location,
                format!("{what} `{name}` is declared twice (first at {line}:{col})"),
            ));
        }
        first.insert(name, location);
    }
    Ok(())
}

/// Checks a domain on its own. `type_locations` gives where each entry of
/// `domain.types` is declared (same order).
pub(crate) fn domain(domain: &Domain, type_locations: &[Location], file: &str) -> Res<()> {
    let c = Checker::new(domain, file);
    for (i, t) in domain.types.iter().enumerate() {
        if let Some(p) = t.parents.iter().find(|p| !c.types.is_declared(p)) {
            let location = type_locations.get(i).copied().unwrap_or_default();
            return Err(c.error(location, format!("undeclared type `{p}` (parent of `{}`)", t.name)));
        }
    }
    for (i, t) in domain.types.iter().enumerate() {
        if let Some(cycle) = type_cycle(domain, &t.name) {
            let location = type_locations.get(i).copied().unwrap_or_default();
            return Err(c.error(
                location,
                format!("the type hierarchy has a cycle: {}", cycle.join(" - ")),
            ));
        }
    }
    c.declared_types(&domain.constants)?;
    declared_once(
        &c,
        domain.predicates.iter().map(|p| (p.name.as_str(), p.location)),
        "predicate",
    )?;
    declared_once(
        &c,
        domain.functions.iter().map(|f| (f.name.as_str(), f.location)),
        "function",
    )?;
    for p in &domain.predicates {
        c.declared_types(&p.params)?;
    }
    for f in &domain.functions {
        c.declared_types(&f.params)?;
    }
    let derived: HashSet<&str> = domain.derived.iter().map(|r| r.predicate.as_str()).collect();
    for rule in &domain.derived {
        c.derived_rule(rule, &domain.constants)?;
    }
    if let Err(cycle) = super::strata(&domain.derived) {
        let location = domain
            .derived
            .iter()
            .find(|r| cycle.contains(&r.predicate))
            .map_or_else(Location::default, |r| r.location);
        return Err(c.error(
            location,
            format!(
                "derived predicates depend on themselves through negation: {} (no stratification)",
                cycle.join(", ")
            ),
        ));
    }
    let mut action_names = HashSet::new();
    for a in &domain.actions {
        if !action_names.insert(a.name.as_str()) {
            return Err(c.error(a.location, format!("action `{}` is declared twice", a.name)));
        }
        c.action(a, &domain.constants, &derived)?;
    }
    Ok(())
}

/// Checks a problem against its domain. `places` gives where each fact of
/// `problem.init` and the `:init` section stand; without them such errors
/// point at 0:0.
pub(crate) fn problem(domain: &Domain, problem: &Problem, places: Option<&ProblemPlaces>, file: &str) -> Res<()> {
    let c = Checker::new(domain, file);
    let init_locations = places.map(|p| p.init.as_slice());
    c.declared_types(&problem.objects)?;
    // Domain constants are objects of every problem; a name declared in
    // both places (an IPC habit) has the types of both.
    let mut objects: HashMap<&str, Vec<String>> = HashMap::new();
    for o in domain.constants.iter().chain(problem.objects.iter()) {
        let types = objects.entry(o.name.as_str()).or_default();
        for t in &o.types {
            if !types.contains(t) {
                types.push(t.clone());
            }
        }
    }
    let derived: HashSet<&str> = domain.derived.iter().map(|r| r.predicate.as_str()).collect();
    for (i, atom) in problem.init.iter().enumerate() {
        let location = init_locations.and_then(|ls| ls.get(i)).copied().unwrap_or_default();
        if atom.predicate == "=" {
            return Err(c.error(location, "`=` cannot be an initial fact".to_string()));
        }
        if derived.contains(atom.predicate.as_str()) {
            return Err(c.error(
                location,
                format!("derived predicate `{}` cannot be an initial fact", atom.predicate),
            ));
        }
        let params = c.predicate_params(&atom.predicate, atom.args.len(), location)?;
        c.objects(&atom.predicate, &atom.args, params, &objects, location)?;
    }
    for fact in &problem.numeric_init {
        let params = c.function_params(&fact.function, fact.args.len(), fact.location)?;
        c.objects(&fact.function, &fact.args, Some(params), &objects, fact.location)?;
    }
    action_cost_values(
        &c,
        domain,
        problem,
        places.map_or_else(Location::default, |p| p.init_section),
    )?;
    // Goal atoms: variables bound by quantifiers, objects of fitting types.
    let terms = |atom: &Atom, scope: &[&TypedName]| -> Res<()> {
        let params = c.predicate_params(&atom.predicate, atom.args.len(), atom.location)?;
        for (i, t) in atom.args.iter().enumerate() {
            match t {
                Term::Variable(v) if !scope.iter().any(|p| &p.name == v) => {
                    return Err(c.error(atom.location, format!("undeclared variable `{v}` in the goal")));
                }
                Term::Variable(_) => {}
                Term::Constant(o) => {
                    let param = params.and_then(|ps| ps.get(i));
                    c.object(&atom.predicate, i, o, param, &objects, atom.location)?;
                }
            }
        }
        Ok(())
    };
    c.condition(&problem.goal, &mut Vec::new(), &terms)
}

/// The values the action costs take from `:init`: never negative, and
/// given for each cost function an action uses, for its constant arguments.
/// (Whether every instance an action reaches has a value is known only
/// once it is grounded; the grounder refuses a missing one by name.)
/// `(total-cost)` itself needs no value: it starts at 0, as in Fast Downward.
fn action_cost_values(c: &Checker, domain: &Domain, problem: &Problem, init_section: Location) -> Res<()> {
    let costs = domain
        .actions
        .iter()
        .flat_map(|a| a.costs.iter().map(move |cost| (a, cost)));
    let used: HashSet<&str> = costs
        .clone()
        .filter_map(|(_, cost)| match cost {
            CostExpr::Function { name, .. } => Some(name.as_str()),
            CostExpr::Constant(_) => None,
        })
        .collect();
    if let Some(fact) = problem
        .numeric_init
        .iter()
        .find(|f| f.value < 0 && used.contains(f.function.as_str()))
    {
        return Err(c.error(
            fact.location,
            format!(
                "`{}` is an action cost: expected a finite number >= 0, found {}",
                format_function(&fact.function, fact.args.iter().map(String::as_str)),
                fact.value
            ),
        ));
    }
    for (action, cost) in costs {
        let CostExpr::Function { name, args, location } = cost else {
            continue;
        };
        let has_value = problem.numeric_init.iter().any(|f| {
            f.function == *name
                && f.args.len() == args.len()
                && f.args.iter().zip(args).all(|(value_arg, arg)| match arg {
                    Term::Constant(k) => k == value_arg,
                    Term::Variable(_) => true,
                })
        });
        if !has_value {
            let term = format_function(
                name,
                args.iter().map(|t| match t {
                    Term::Constant(k) | Term::Variable(k) => k.as_str(),
                }),
            );
            let expected = if args.iter().any(|t| matches!(t, Term::Variable(_))) {
                format!("`(= ({name} ...) NUMBER)` for the objects it is used with")
            } else {
                format!("`(= {term} NUMBER)`")
            };
            return Err(c.error(
                init_section,
                format!(
                    "no value in `:init` for `{term}`, the cost of action `{}` (domain {}:{}): expected {expected}",
                    action.name, location.line, location.col
                ),
            ));
        }
    }
    Ok(())
}

/// `(f a b)`.
fn format_function<'n>(name: &str, args: impl Iterator<Item = &'n str>) -> String {
    let mut out = format!("({name}");
    for a in args {
        out.push(' ');
        out.push_str(a);
    }
    out.push(')');
    out
}

/// A problem written for another domain (its `(:domain NAME)` names a
/// domain other than the domain file's) is an input error, as in Fast
/// Downward: its predicates may agree by accident. A problem without
/// `(:domain ...)` is taken for the given domain.
pub(crate) fn domain_name(domain: &Domain, problem: &Problem, location: Location, file: &str) -> Res<()> {
    if problem.domain.is_empty() || problem.domain == domain.name {
        return Ok(());
    }
    Err(PddlError {
        kind: ErrorKind::Semantic,
        file: file.to_string(),
        location,
        message: format!(
            "problem `{}` is for domain `{}`, but the domain file defines domain `{}`",
            problem.name, problem.domain, domain.name
        ),
    })
}

/// Things worth telling the user that do not stop planning.
pub fn warnings(domain: &Domain, problem: &Problem) -> Vec<String> {
    let mut out = Vec::new();
    if problem.minimize_total_cost && !domain.functions.iter().any(|f| f.name == "total-cost") {
        out.push("the metric minimizes `total-cost`, which the domain does not declare".to_string());
    }
    out
}
