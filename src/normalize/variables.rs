//! The variables of one action or rule: quantified variables renamed apart,
//! so that they can later become parameters side by side, and the types of
//! every variable by name.

use std::collections::{HashMap, HashSet};

use crate::pddl::{Atom, Condition, Effect, Term, TypedName};

/// The variables of one action, rule or goal. After renaming, every
/// quantified variable has a name of its own, distinct from the parameters
/// and from every other quantified variable in the same scope.
pub(super) struct Scope {
    types: HashMap<String, Vec<String>>,
    used: HashSet<String>,
}

/// The separator of renamed variables, `?x@2`: not a PDDL name character,
/// so a renamed variable never clashes with one of the domain.
const RENAMED: char = '@';

impl Scope {
    pub fn new(params: &[TypedName]) -> Scope {
        Scope {
            types: params.iter().map(|p| (p.name.clone(), p.types.clone())).collect(),
            used: params.iter().map(|p| p.name.clone()).collect(),
        }
    }

    /// The variable `name` with its type, for a parameter list.
    pub fn typed(&self, name: &str) -> TypedName {
        TypedName {
            name: name.to_string(),
            types: self
                .types
                .get(name)
                .cloned()
                .unwrap_or_else(|| vec!["object".to_string()]),
            location: Default::default(),
        }
    }

    /// `var` under a name not used yet in this scope.
    fn declare(&mut self, var: &TypedName) -> TypedName {
        let mut name = var.name.clone();
        let mut n = 1;
        while self.used.contains(&name) {
            n += 1;
            name = format!("{}{RENAMED}{n}", var.name);
        }
        self.used.insert(name.clone());
        self.types.insert(name.clone(), var.types.clone());
        TypedName {
            name,
            types: var.types.clone(),
            location: var.location,
        }
    }

    fn declare_all(&mut self, vars: &[TypedName], renaming: &mut HashMap<String, String>) -> Vec<TypedName> {
        vars.iter()
            .map(|v| {
                let fresh = self.declare(v);
                renaming.insert(v.name.clone(), fresh.name.clone());
                fresh
            })
            .collect()
    }

    /// `condition` with its quantified variables renamed apart.
    pub fn rename_condition(&mut self, condition: &Condition) -> Condition {
        self.condition(condition, &HashMap::new())
    }

    /// `effect` with the variables of its `forall`s and conditions renamed apart.
    pub fn rename_effect(&mut self, effect: &Effect) -> Effect {
        self.effect(effect, &HashMap::new())
    }

    fn condition(&mut self, c: &Condition, renaming: &HashMap<String, String>) -> Condition {
        match c {
            Condition::Atom(a) => Condition::Atom(rename_atom(a, renaming)),
            Condition::Not(inner) => Condition::Not(Box::new(self.condition(inner, renaming))),
            Condition::And(parts) => Condition::And(parts.iter().map(|p| self.condition(p, renaming)).collect()),
            Condition::Or(parts) => Condition::Or(parts.iter().map(|p| self.condition(p, renaming)).collect()),
            Condition::Imply(a, b) => Condition::Imply(
                Box::new(self.condition(a, renaming)),
                Box::new(self.condition(b, renaming)),
            ),
            Condition::Exists(vars, body) | Condition::Forall(vars, body) => {
                let mut inner = renaming.clone();
                let vars = self.declare_all(vars, &mut inner);
                let body = Box::new(self.condition(body, &inner));
                if matches!(c, Condition::Exists(..)) {
                    Condition::Exists(vars, body)
                } else {
                    Condition::Forall(vars, body)
                }
            }
        }
    }

    fn effect(&mut self, e: &Effect, renaming: &HashMap<String, String>) -> Effect {
        match e {
            Effect::Add(a) => Effect::Add(rename_atom(a, renaming)),
            Effect::Delete(a) => Effect::Delete(rename_atom(a, renaming)),
            Effect::And(parts) => Effect::And(parts.iter().map(|p| self.effect(p, renaming)).collect()),
            Effect::When(c, inner) => Effect::When(self.condition(c, renaming), Box::new(self.effect(inner, renaming))),
            Effect::Forall(vars, inner) => {
                let mut inner_renaming = renaming.clone();
                let vars = self.declare_all(vars, &mut inner_renaming);
                Effect::Forall(vars, Box::new(self.effect(inner, &inner_renaming)))
            }
        }
    }
}

fn rename_atom(atom: &Atom, renaming: &HashMap<String, String>) -> Atom {
    Atom {
        predicate: atom.predicate.clone(),
        args: atom
            .args
            .iter()
            .map(|t| match t {
                Term::Variable(v) => Term::Variable(renaming.get(v).unwrap_or(v).clone()),
                constant => constant.clone(),
            })
            .collect(),
        location: atom.location,
    }
}
