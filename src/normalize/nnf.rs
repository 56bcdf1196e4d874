//! Negation normal form: `not` only directly above atoms, `imply` rewritten,
//! nested `and`s and `or`s flattened.

use crate::pddl::Condition;

/// `condition` (if `positive`) or its negation, in negation normal form.
pub(super) fn nnf(condition: &Condition, positive: bool) -> Condition {
    match (condition, positive) {
        (Condition::Atom(a), _) => Condition::literal(positive, a.clone()),
        (Condition::Not(inner), _) => nnf(inner, !positive),
        (Condition::And(parts), true) | (Condition::Or(parts), false) => {
            and(parts.iter().map(|p| nnf(p, positive)).collect())
        }
        (Condition::Or(parts), true) | (Condition::And(parts), false) => {
            or(parts.iter().map(|p| nnf(p, positive)).collect())
        }
        // a → b is ¬a ∨ b; its negation a ∧ ¬b.
        (Condition::Imply(a, b), true) => or(vec![nnf(a, false), nnf(b, true)]),
        (Condition::Imply(a, b), false) => and(vec![nnf(a, true), nnf(b, false)]),
        (Condition::Exists(vars, body), true) | (Condition::Forall(vars, body), false) => {
            Condition::Exists(vars.clone(), Box::new(nnf(body, positive)))
        }
        (Condition::Forall(vars, body), true) | (Condition::Exists(vars, body), false) => {
            Condition::Forall(vars.clone(), Box::new(nnf(body, positive)))
        }
    }
}

/// A conjunction with nested conjunctions flattened; one part stands alone.
fn and(parts: Vec<Condition>) -> Condition {
    let mut flat = Vec::with_capacity(parts.len());
    for p in parts {
        match p {
            Condition::And(inner) => flat.extend(inner),
            other => flat.push(other),
        }
    }
    if flat.len() == 1 {
        flat.pop().unwrap_or_else(Condition::truth)
    } else {
        Condition::And(flat)
    }
}

/// A disjunction with nested disjunctions flattened; one part stands alone.
fn or(parts: Vec<Condition>) -> Condition {
    let mut flat = Vec::with_capacity(parts.len());
    for p in parts {
        match p {
            Condition::Or(inner) => flat.extend(inner),
            other => flat.push(other),
        }
    }
    if flat.len() == 1 {
        flat.pop().unwrap_or_else(Condition::truth)
    } else {
        Condition::Or(flat)
    }
}
