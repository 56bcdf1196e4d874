//! Stratification of the ground rules of derived predicates: the layers of
//! [`crate::task::Task::axiom_layers`].
//!
//! A derived predicate's layer is at least that of every derived predicate
//! its rules need true, and above that of every one they need false, so
//! that negation as failure reads only facts settled in lower layers. Such
//! layers exist exactly when no predicate depends on its own negation
//! through the rules; otherwise the task is refused, naming the predicates.
//! Layers are computed per predicate (over the ground rules, so rules that
//! grounding dropped do not count), by the same numbering as the lifted
//! rules' strata ([`crate::pddl::levels`]), and only non-empty ones are kept.

use std::collections::{BTreeMap, BTreeSet};

use super::GroundError;
use crate::task::{Axiom, Fact};

/// Sorts `axioms` (over `facts`, of which `derived` marks the derived ones)
/// by layer and returns them with the layer boundaries.
pub(super) fn layers(
    mut axioms: Vec<Axiom>,
    facts: &[Fact],
    derived: &[bool],
) -> Result<(Vec<Axiom>, Vec<usize>), GroundError> {
    if axioms.is_empty() {
        return Ok((axioms, Vec::new()));
    }
    let name = |f: u32| facts[f as usize].predicate.as_str();
    let mut ids: BTreeMap<&str, usize> = BTreeMap::new();
    for (f, fact) in facts.iter().enumerate() {
        if derived[f] {
            let next = ids.len();
            ids.entry(fact.predicate.as_str()).or_insert(next);
        }
    }
    // Edges (head, body, negative): the head's rules need the body predicate.
    let mut edges: BTreeSet<(usize, usize, bool)> = BTreeSet::new();
    for a in &axioms {
        let head = ids[name(a.head)];
        for (list, negative) in [(&a.pre, false), (&a.pre_neg, true)] {
            for &f in list.iter().filter(|&&f| derived[f as usize]) {
                edges.insert((head, ids[name(f)], negative));
            }
        }
    }
    let edges: Vec<(usize, usize, bool)> = edges.into_iter().collect();
    let layer = crate::pddl::levels(ids.len(), &edges).map_err(|cycle| {
        let names: BTreeSet<&str> = ids.iter().filter(|(_, i)| cycle.contains(i)).map(|(&s, _)| s).collect();
        GroundError::Unsupported(format!(
            "derived predicates {} depend on their own negation (the rules are not stratifiable)",
            names.into_iter().collect::<Vec<_>>().join(", ")
        ))
    })?;
    let layer_of = |a: &Axiom| layer[ids[name(a.head)]];
    axioms.sort_unstable_by(|a, b| {
        (layer_of(a), a.head, &a.pre, &a.pre_neg).cmp(&(layer_of(b), b.head, &b.pre, &b.pre_neg))
    });
    axioms.dedup();
    let mut bounds = vec![0];
    for i in 1..axioms.len() {
        if layer_of(&axioms[i]) != layer_of(&axioms[i - 1]) {
            bounds.push(i);
        }
    }
    bounds.push(axioms.len());
    Ok((axioms, bounds))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fact(p: &str) -> Fact {
        Fact {
            predicate: p.to_string(),
            args: Vec::new(),
        }
    }

    fn axiom(head: u32, pre: &[u32], pre_neg: &[u32]) -> Axiom {
        Axiom {
            head,
            pre: pre.to_vec(),
            pre_neg: pre_neg.to_vec(),
        }
    }

    #[test]
    fn negation_puts_a_predicate_above_and_recursion_stays_in_one_layer() {
        // base = 0; derived a = 1, b = 2, c = 3: a :- base; a :- a (recursive);
        // b :- not a; c :- b, a.
        let facts: Vec<Fact> = ["base", "a", "b", "c"].into_iter().map(fact).collect();
        let derived = [false, true, true, true];
        let (axioms, bounds) = layers(
            vec![
                axiom(3, &[1, 2], &[]),
                axiom(2, &[], &[1]),
                axiom(1, &[0], &[]),
                axiom(1, &[1, 0], &[]),
            ],
            &facts,
            &derived,
        )
        .unwrap();
        let heads: Vec<u32> = axioms.iter().map(|a| a.head).collect();
        assert_eq!(heads, vec![1, 1, 2, 3]);
        assert_eq!(bounds, vec![0, 2, 4]);
    }

    #[test]
    fn negative_cycles_are_refused_by_name() {
        // p :- not q; q :- p.
        let facts: Vec<Fact> = ["p", "q", "r"].into_iter().map(fact).collect();
        let derived = [true, true, true];
        let err = layers(
            vec![axiom(0, &[], &[1]), axiom(1, &[0], &[]), axiom(2, &[0], &[])],
            &facts,
            &derived,
        )
        .unwrap_err();
        assert_eq!(
            err,
            GroundError::Unsupported(
                "derived predicates p, q depend on their own negation (the rules are not stratifiable)".to_string()
            )
        );
    }
}
