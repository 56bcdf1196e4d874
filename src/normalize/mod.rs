//! Normalization of the lifted task, between the AST and the grounder.
//!
//! The grounder sees only the [`NormalTask`]: actions whose precondition is
//! a conjunction of literals and whose effects are flat (quantified
//! variables, a conjunctive condition, one literal), derived-predicate rules
//! with conjunctive bodies, and a conjunctive goal. Everything richer that
//! PDDL allows (disjunction, implication, quantifiers, nested effects) is
//! compiled into this form here:
//!
//! 1. quantified variables are renamed apart ([`variables`]);
//! 2. conditions are put in negation normal form, `imply` rewritten ([`nnf`]);
//! 3. `forall φ` becomes `not P` for a new derived predicate `P` over the
//!    free variables, with the rule `P :- exists ¬φ`;
//! 4. conditions are multiplied out into disjunctive normal form ([`dnf`]):
//!    the disjuncts of a precondition become action variants, its
//!    existential variables extra parameters; those of an effect condition
//!    become several effects, with the existential variables quantified
//!    universally over the effect; those of a rule body become several
//!    rules, with extra parameters. A conjunction of disjunctions that would
//!    multiply out to more than [`dnf::MAX_CONJUNCTS`] disjuncts keeps its
//!    largest disjunctions as new derived predicates instead;
//! 5. a goal that is not a conjunction of literals becomes a new nullary
//!    derived predicate.
//!
//! New predicates are named `kind@N`: `@` is no PDDL name character, so they
//! never clash with the domain's names.

mod dnf;
mod nnf;
mod variables;

use std::collections::{HashMap, HashSet};
use std::fmt;

use crate::pddl::{
    Action, Atom, Condition, CostExpr, Domain, Effect, Literal, Location, PredicateDecl, Problem, Term, TypedList,
    TypedName,
};
use dnf::{Abstraction, Conjunct, dnf, product};
use nnf::nnf;
use variables::Scope;

/// The lifted task in normal form.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NormalTask {
    pub actions: Vec<NormalAction>,
    /// Rules of derived predicates, those of the domain's `:derived` and
    /// those normalization introduced (e.g. for universal conditions).
    pub axioms: Vec<NormalAxiom>,
    /// The derived predicates: every head predicate of `axioms`, declared
    /// or introduced. They never occur in effects.
    pub derived_predicates: Vec<PredicateDecl>,
    /// A conjunction of ground literals (arguments are constants).
    pub goal: Vec<Literal>,
}

/// An action schema in normal form. A PDDL action whose precondition holds
/// a disjunction may become several `NormalAction`s with the same name and
/// external parameters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NormalAction {
    /// The PDDL action's name, as it appears in plans.
    pub name: String,
    /// The action's parameters, followed by the variables of existential
    /// quantifiers moved out of the precondition.
    pub params: Vec<TypedName>,
    /// How many of `params` are the PDDL action's own: a ground operator is
    /// written in a plan with these arguments only.
    pub external_params: usize,
    /// A conjunction of literals over `params` and constants; may use `=`
    /// and derived predicates.
    pub precondition: Vec<Literal>,
    pub effects: Vec<NormalEffect>,
    /// The `increase (total-cost)` effects, as in [`crate::pddl::Action::costs`].
    pub costs: Vec<CostExpr>,
    pub location: Location,
}

/// One effect literal: for every binding of `vars` (from a `forall`) under
/// which `condition` holds in the state before the action (from a `when`),
/// the atom of `literal` becomes true (positive) or false (negative).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NormalEffect {
    /// Universally quantified variables, outermost first; empty if none.
    pub vars: Vec<TypedName>,
    /// A conjunction of literals; empty for an unconditional effect.
    pub condition: Vec<Literal>,
    pub literal: Literal,
}

/// A rule `head :- body`: the head holds for a binding of `params` when the
/// body holds. The head's arguments are the first `head.args.len()`
/// parameters; further parameters are existential.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NormalAxiom {
    pub head: Atom,
    pub params: Vec<TypedName>,
    /// A conjunction of literals over `params` and constants.
    pub body: Vec<Literal>,
}

/// Normalizes a checked domain and problem.
pub fn normalize(domain: &Domain, problem: &Problem) -> NormalTask {
    let mut n = Normalizer {
        names: domain.predicates.iter().map(|p| p.name.clone()).collect(),
        axioms: Vec::new(),
        derived_predicates: Vec::new(),
        introduced: HashMap::new(),
        introduced_names: 0,
    };
    for rule in &domain.derived {
        if !n.derived_predicates.iter().any(|p| p.name == rule.predicate) {
            let decl = domain.predicates.iter().find(|p| p.name == rule.predicate);
            n.derived_predicates
                .push(decl.cloned().unwrap_or_else(|| PredicateDecl {
                    name: rule.predicate.clone(),
                    params: rule.params.clone(),
                    location: rule.location,
                }));
        }
        let mut scope = Scope::new(&rule.params);
        let body = scope.rename_condition(&rule.body);
        let head = Atom {
            predicate: rule.predicate.clone(),
            args: rule.params.iter().map(|p| Term::Variable(p.name.clone())).collect(),
            location: rule.location,
        };
        n.add_rules(head, &rule.params, &body, &scope);
    }
    let mut actions = Vec::new();
    for action in &domain.actions {
        n.action(action, &mut actions);
    }
    let goal = n.goal(&problem.goal);
    NormalTask {
        actions,
        axioms: n.axioms,
        derived_predicates: n.derived_predicates,
        goal,
    }
}

/// The state of one normalization: the rules and predicates made so far.
struct Normalizer {
    /// Every predicate name in use, the domain's and the new ones.
    names: HashSet<String>,
    axioms: Vec<NormalAxiom>,
    derived_predicates: Vec<PredicateDecl>,
    /// New derived predicates by their body's text and the types of their
    /// parameters: the same subformula twice (in two actions, say) gets one.
    introduced: HashMap<(String, Vec<Vec<String>>), Atom>,
    introduced_names: usize,
}

/// A [`Normalizer`] in the scope of one action, rule or goal.
struct InScope<'n, 's> {
    normalizer: &'n mut Normalizer,
    scope: &'s Scope,
}

impl Abstraction for InScope<'_, '_> {
    fn derived_atom(&mut self, kind: &'static str, body: &Condition) -> Atom {
        let params: Vec<TypedName> = body.free_variables().iter().map(|v| self.scope.typed(v)).collect();
        let key = (body.to_string(), params.iter().map(|p| p.types.clone()).collect());
        if let Some(atom) = self.normalizer.introduced.get(&key) {
            return atom.clone();
        }
        let predicate = self.normalizer.fresh_name(kind);
        let head = Atom {
            predicate: predicate.clone(),
            args: params.iter().map(|p| Term::Variable(p.name.clone())).collect(),
            location: Location::default(),
        };
        self.normalizer.introduced.insert(key, head.clone());
        self.normalizer.derived_predicates.push(PredicateDecl {
            name: predicate,
            params: params.clone(),
            location: Location::default(),
        });
        self.normalizer.add_rules(head.clone(), &params, body, self.scope);
        head
    }
}

impl Normalizer {
    /// `kind@N`, numbered in the order made, from 0.
    fn fresh_name(&mut self, kind: &str) -> String {
        let name = (self.introduced_names..)
            .map(|n| format!("{kind}@{n}"))
            .find(|name| !self.names.contains(name))
            .unwrap_or_default();
        self.introduced_names += 1;
        self.names.insert(name.clone());
        name
    }

    /// The disjuncts of `condition` (renamed apart in `scope`).
    fn conjuncts(&mut self, condition: &Condition, scope: &Scope) -> Vec<Conjunct> {
        let mut in_scope = InScope {
            normalizer: self,
            scope,
        };
        dnf(&nnf(condition, true), &mut in_scope)
    }

    /// The rules `head :- body`, one per disjunct of `body`.
    fn add_rules(&mut self, head: Atom, params: &[TypedName], body: &Condition, scope: &Scope) {
        for c in self.conjuncts(body, scope) {
            let mut all = params.to_vec();
            all.extend(c.vars.iter().map(|v| scope.typed(v)));
            self.axioms.push(NormalAxiom {
                head: head.clone(),
                params: all,
                body: c.literals,
            });
        }
    }

    /// The variants of `action`, one per disjunct of its precondition.
    fn action(&mut self, action: &Action, out: &mut Vec<NormalAction>) {
        let mut scope = Scope::new(&action.params);
        let precondition = scope.rename_condition(&action.precondition);
        let effect = scope.rename_effect(&action.effect);
        let mut effects = Vec::new();
        self.effects(&effect, &mut Vec::new(), &[Conjunct::default()], &scope, &mut effects);
        for c in self.conjuncts(&precondition, &scope) {
            let mut params = action.params.clone();
            params.extend(c.vars.iter().map(|v| scope.typed(v)));
            out.push(NormalAction {
                name: action.name.clone(),
                params,
                external_params: action.params.len(),
                precondition: c.literals,
                effects: effects.clone(),
                costs: action.costs.clone(),
                location: action.location,
            });
        }
    }

    /// The flat effects of `effect` under the `forall` variables `vars` and
    /// the disjuncts `conditions` of the enclosing `when`s.
    fn effects(
        &mut self,
        effect: &Effect,
        vars: &mut Vec<String>,
        conditions: &[Conjunct],
        scope: &Scope,
        out: &mut Vec<NormalEffect>,
    ) {
        let literal = match effect {
            Effect::Add(atom) => Literal {
                positive: true,
                atom: atom.clone(),
            },
            Effect::Delete(atom) => Literal {
                positive: false,
                atom: atom.clone(),
            },
            Effect::And(parts) => {
                for p in parts {
                    self.effects(p, vars, conditions, scope, out);
                }
                return;
            }
            Effect::When(condition, inner) => {
                let conditions = product(conditions, &self.conjuncts(condition, scope));
                self.effects(inner, vars, &conditions, scope, out);
                return;
            }
            Effect::Forall(quantified, inner) => {
                let depth = vars.len();
                vars.extend(quantified.iter().map(|v| v.name.clone()));
                self.effects(inner, vars, conditions, scope, out);
                vars.truncate(depth);
                return;
            }
        };
        for c in conditions {
            out.push(NormalEffect {
                vars: vars.iter().chain(&c.vars).map(|v| scope.typed(v)).collect(),
                condition: c.literals.clone(),
                literal: literal.clone(),
            });
        }
    }

    /// The goal as literals: itself if it is a conjunction of literals,
    /// else a new nullary derived predicate.
    fn goal(&mut self, goal: &Condition) -> Vec<Literal> {
        let mut scope = Scope::new(&[]);
        let goal = scope.rename_condition(goal);
        let conjuncts = self.conjuncts(&goal, &scope);
        if let [single] = conjuncts.as_slice()
            && single.vars.is_empty()
        {
            return single.literals.clone();
        }
        let predicate = self.fresh_name("goal");
        let head = Atom {
            predicate: predicate.clone(),
            args: Vec::new(),
            location: Location::default(),
        };
        self.derived_predicates.push(PredicateDecl {
            name: predicate,
            params: Vec::new(),
            location: Location::default(),
        });
        for c in conjuncts {
            self.axioms.push(NormalAxiom {
                head: head.clone(),
                params: c.vars.iter().map(|v| scope.typed(v)).collect(),
                body: c.literals,
            });
        }
        vec![Literal {
            positive: true,
            atom: head,
        }]
    }
}

fn literals(f: &mut fmt::Formatter<'_>, literals: &[Literal]) -> fmt::Result {
    match literals {
        [] => write!(f, "(and)"),
        [one] => write!(f, "{one}"),
        many => {
            write!(f, "(and")?;
            for l in many {
                write!(f, " {l}")?;
            }
            write!(f, ")")
        }
    }
}

/// One line per action, effect, rule and the goal, in a PDDL-like text:
/// for reading in tests and logs.
impl fmt::Display for NormalTask {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for a in &self.actions {
            let (external, extra) = a.params.split_at(a.external_params.min(a.params.len()));
            write!(f, "action {} ({})", a.name, TypedList(external))?;
            if !extra.is_empty() {
                write!(f, " exists ({})", TypedList(extra))?;
            }
            write!(f, " pre ")?;
            literals(f, &a.precondition)?;
            writeln!(f)?;
            for e in &a.effects {
                write!(f, "  effect")?;
                if !e.vars.is_empty() {
                    write!(f, " forall ({})", TypedList(&e.vars))?;
                }
                if !e.condition.is_empty() {
                    write!(f, " when ")?;
                    literals(f, &e.condition)?;
                }
                writeln!(f, " {}", e.literal)?;
            }
        }
        for ax in &self.axioms {
            let (head, extra) = ax.params.split_at(ax.head.args.len().min(ax.params.len()));
            write!(f, "axiom {}", ax.head)?;
            if !head.is_empty() {
                write!(f, " ({})", TypedList(head))?;
            }
            if !extra.is_empty() {
                write!(f, " exists ({})", TypedList(extra))?;
            }
            write!(f, " :- ")?;
            literals(f, &ax.body)?;
            writeln!(f)?;
        }
        write!(f, "goal ")?;
        literals(f, &self.goal)?;
        writeln!(f)
    }
}

#[cfg(test)]
mod tests;
