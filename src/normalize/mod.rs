//! Normalization of the lifted task, between the AST and the grounder.
//!
//! The grounder sees only the [`NormalTask`]: actions whose precondition is
//! a conjunction of literals and whose effects are flat (quantified
//! variables, a conjunctive condition, one literal), derived-predicate rules
//! with conjunctive bodies, and a conjunctive goal. Everything richer that
//! PDDL allows (disjunction, implication, quantifiers, nested effects) is
//! compiled into this form here.

use crate::pddl::{Atom, CostExpr, Domain, Literal, Location, PredicateDecl, Problem, Term, TypedName};

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
    let actions = domain
        .actions
        .iter()
        .map(|a| {
            let effect = |atom: &Atom, positive: bool| NormalEffect {
                vars: Vec::new(),
                condition: Vec::new(),
                literal: Literal {
                    positive,
                    atom: atom.clone(),
                },
            };
            NormalAction {
                name: a.name.clone(),
                params: a.params.clone(),
                external_params: a.params.len(),
                precondition: a.precondition.clone(),
                effects: a
                    .del
                    .iter()
                    .map(|d| effect(d, false))
                    .chain(a.add.iter().map(|d| effect(d, true)))
                    .collect(),
                costs: a.costs.clone(),
                location: a.location,
            }
        })
        .collect();
    let goal = problem
        .goal
        .iter()
        .map(|g| Literal {
            positive: g.positive,
            atom: Atom {
                predicate: g.atom.predicate.clone(),
                args: g.atom.args.iter().cloned().map(Term::Constant).collect(),
                location: g.location,
            },
        })
        .collect();
    NormalTask {
        actions,
        axioms: Vec::new(),
        derived_predicates: Vec::new(),
        goal,
    }
}
