//! Disjunctive normal form of a condition in negation normal form, with the
//! variables of existential quantifiers kept per disjunct. Universal
//! quantifiers, and disjunctions whose product would grow too large, are
//! handed to an [`Abstraction`] that replaces them by a derived atom.

use crate::pddl::{Atom, Condition, Literal, Term};

/// A conjunction with the conjunct's existentially quantified variables
/// (names only; their types are the scope's).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct Conjunct {
    pub vars: Vec<String>,
    pub literals: Vec<Literal>,
}

/// The most conjuncts a conjunction of disjunctions may multiply out to.
/// Beyond it, the largest disjunction is replaced by a derived atom whose
/// rules hold its disjuncts, so the normal form stays linear in the input
/// (the price: the planner evaluates the rule in every state instead of
/// choosing an operator variant).
pub(super) const MAX_CONJUNCTS: usize = 32;

/// What the normal form cannot keep inline becomes a derived atom.
pub(super) trait Abstraction {
    /// A new derived predicate over the free variables of `body` (in NNF,
    /// perhaps with quantifiers) whose rules say that it holds when `body`
    /// does; the atom of it over those variables.
    /// `kind` (`forall` or `or`) says what the predicate stands for.
    fn derived_atom(&mut self, kind: &'static str, body: &Condition) -> Atom;
}

/// The conjuncts of `condition`, which is in negation normal form: their
/// disjunction is equivalent to it. `forall φ` becomes `not P` with
/// `P :- exists ¬φ` (through `abstraction`). Existential variables a
/// conjunct does not mention are dropped from it (types are assumed to have
/// objects, as in every IPC domain).
pub(super) fn dnf(condition: &Condition, abstraction: &mut dyn Abstraction) -> Vec<Conjunct> {
    let mut out = conjuncts(condition, abstraction);
    for c in &mut out {
        let literals = &c.literals;
        c.vars.retain(|v| {
            literals
                .iter()
                .any(|l| l.atom.args.iter().any(|t| matches!(t, Term::Variable(x) if x == v)))
        });
    }
    out
}

fn conjuncts(condition: &Condition, abstraction: &mut dyn Abstraction) -> Vec<Conjunct> {
    match condition {
        Condition::Atom(a) => vec![single(Literal {
            positive: true,
            atom: a.clone(),
        })],
        Condition::Not(inner) => match inner.as_ref() {
            Condition::Atom(a) => vec![single(Literal {
                positive: false,
                atom: a.clone(),
            })],
            // Not in NNF; read it as the NNF of the negation.
            other => conjuncts(&super::nnf::nnf(other, false), abstraction),
        },
        Condition::Or(parts) => parts.iter().flat_map(|p| conjuncts(p, abstraction)).collect(),
        Condition::And(parts) => {
            let mut lists: Vec<Vec<Conjunct>> = parts.iter().map(|p| conjuncts(p, abstraction)).collect();
            while lists
                .iter()
                .map(Vec::len)
                .try_fold(1usize, usize::checked_mul)
                .is_none_or(|n| n > MAX_CONJUNCTS)
            {
                let Some((largest, _)) = lists
                    .iter()
                    .enumerate()
                    .filter(|(_, l)| l.len() > 1)
                    .max_by_key(|(i, l)| (l.len(), std::cmp::Reverse(*i)))
                else {
                    break;
                };
                let atom = abstraction.derived_atom("or", &parts[largest]);
                lists[largest] = vec![single(Literal { positive: true, atom })];
            }
            lists
                .into_iter()
                .fold(vec![Conjunct::default()], |acc, list| product(&acc, &list))
        }
        Condition::Exists(vars, body) => {
            let mut out = conjuncts(body, abstraction);
            for c in &mut out {
                let mut all: Vec<String> = vars.iter().map(|v| v.name.clone()).collect();
                all.append(&mut c.vars);
                c.vars = all;
            }
            out
        }
        Condition::Forall(vars, body) => {
            let counterexample = Condition::Exists(vars.clone(), Box::new(super::nnf::nnf(body, false)));
            let atom = abstraction.derived_atom("forall", &counterexample);
            vec![single(Literal { positive: false, atom })]
        }
        Condition::Imply(..) => conjuncts(&super::nnf::nnf(condition, true), abstraction),
    }
}

fn single(literal: Literal) -> Conjunct {
    Conjunct {
        vars: Vec::new(),
        literals: vec![literal],
    }
}

/// Every conjunct of `a` with every conjunct of `b`; contradictory ones
/// (an atom both required and forbidden) are left out, repeated literals
/// kept once.
pub(super) fn product(a: &[Conjunct], b: &[Conjunct]) -> Vec<Conjunct> {
    let mut out = Vec::with_capacity(a.len() * b.len());
    for x in a {
        'pairs: for y in b {
            let mut c = x.clone();
            c.vars.extend(y.vars.iter().cloned());
            for l in &y.literals {
                if c.literals
                    .iter()
                    .any(|k| same_atom(&k.atom, &l.atom) && k.positive != l.positive)
                {
                    continue 'pairs;
                }
                if !c.literals.iter().any(|k| same_atom(&k.atom, &l.atom)) {
                    c.literals.push(l.clone());
                }
            }
            out.push(c);
        }
    }
    out
}

/// The same atom, wherever it was written.
fn same_atom(a: &Atom, b: &Atom) -> bool {
    a.predicate == b.predicate && a.args == b.args
}
