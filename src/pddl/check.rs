//! Name, arity and type checks: a domain on its own (after parsing) and a
//! problem against its domain.

use super::ast::*;
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

    /// Lifted terms: variables must be parameters, names must be constants.
    fn terms(&self, terms: &[Term], params: &[TypedName], constants: &[TypedName], location: Location) -> Res<()> {
        for t in terms {
            match t {
                Term::Variable(v) if !params.iter().any(|p| &p.name == v) => {
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

    fn action(&self, action: &Action, constants: &[TypedName]) -> Res<()> {
        self.declared_types(&action.params)?;
        let atoms = action
            .precondition
            .iter()
            .map(|l| &l.atom)
            .chain(action.add.iter())
            .chain(action.del.iter());
        for atom in atoms {
            self.predicate_params(&atom.predicate, atom.args.len(), atom.location)?;
            self.terms(&atom.args, &action.params, constants, atom.location)?;
        }
        for cost in &action.costs {
            if let CostExpr::Function { name, args, location } = cost {
                self.function_params(name, args.len(), *location)?;
                self.terms(args, &action.params, constants, *location)?;
            }
        }
        Ok(())
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
            let types = objects
                .get(arg.as_str())
                .ok_or_else(|| self.error(location, format!("undeclared object `{arg}`")))?;
            if let Some(param) = params.and_then(|ps| ps.get(i))
                && !self.types.fits(types, &param.types)
            {
                return Err(self.error(
                    location,
                    format!(
                        "object `{arg}` of type {} cannot be argument {} of `{what}`, which needs type {}",
                        type_list(types),
                        i + 1,
                        type_list(&param.types)
                    ),
                ));
            }
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
    for p in &domain.predicates {
        c.declared_types(&p.params)?;
    }
    for f in &domain.functions {
        c.declared_types(&f.params)?;
    }
    let mut action_names = HashSet::new();
    for a in &domain.actions {
        if !action_names.insert(a.name.as_str()) {
            return Err(c.error(a.location, format!("action `{}` is declared twice", a.name)));
        }
        c.action(a, &domain.constants)?;
    }
    Ok(())
}

/// Checks a problem against its domain. `init_locations` gives where each
/// fact of `problem.init` stands (same order); without it such errors point
/// at 0:0.
pub(crate) fn problem(domain: &Domain, problem: &Problem, init_locations: Option<&[Location]>, file: &str) -> Res<()> {
    let c = Checker::new(domain, file);
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
    for (i, atom) in problem.init.iter().enumerate() {
        let location = init_locations.and_then(|ls| ls.get(i)).copied().unwrap_or_default();
        if atom.predicate == "=" {
            return Err(c.error(location, "`=` cannot be an initial fact".to_string()));
        }
        let params = c.predicate_params(&atom.predicate, atom.args.len(), location)?;
        c.objects(&atom.predicate, &atom.args, params, &objects, location)?;
    }
    for fact in &problem.numeric_init {
        let params = c.function_params(&fact.function, fact.args.len(), fact.location)?;
        c.objects(&fact.function, &fact.args, Some(params), &objects, fact.location)?;
    }
    for lit in &problem.goal {
        let atom = &lit.atom;
        let params = c.predicate_params(&atom.predicate, atom.args.len(), lit.location)?;
        c.objects(&atom.predicate, &atom.args, params, &objects, lit.location)?;
    }
    Ok(())
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
