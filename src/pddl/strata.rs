//! The stratification of derived predicates: the order in which their rules
//! are evaluated so that negation as failure is well defined. A predicate
//! that a rule body uses negatively (under an odd number of `not`s, or in
//! the antecedent of an `imply`) lies in a lower stratum than the rule's
//! head; one used positively in the same or a lower one.

use std::collections::HashMap;

use super::ast::{Condition, DerivedRule};

/// The indexes of `rules` grouped by stratum, lowest first; or the derived
/// predicates on a cycle through negation, which have no stratification.
pub fn strata(rules: &[DerivedRule]) -> Result<Vec<Vec<usize>>, Vec<String>> {
    let mut names: Vec<&str> = Vec::new();
    for r in rules {
        if !names.contains(&r.predicate.as_str()) {
            names.push(&r.predicate);
        }
    }
    let index: HashMap<&str, usize> = names.iter().enumerate().map(|(i, n)| (*n, i)).collect();
    // (head, body predicate, strictly lower) for every derived predicate in a body.
    let mut edges = Vec::new();
    for r in rules {
        let head = index[r.predicate.as_str()];
        let mut used = Vec::new();
        uses(&r.body, true, &mut used);
        for (predicate, positive) in used {
            if let Some(&q) = index.get(predicate) {
                edges.push((head, q, !positive));
            }
        }
    }
    let level = levels(names.len(), &edges).map_err(|cycle| {
        let mut cycle: Vec<String> = cycle.into_iter().map(|p| names[p].to_string()).collect();
        cycle.sort();
        cycle
    })?;
    let top = level.iter().copied().max().unwrap_or(0);
    let mut out = vec![Vec::new(); if rules.is_empty() { 0 } else { top + 1 }];
    for (i, r) in rules.iter().enumerate() {
        out[level[index[r.predicate.as_str()]]].push(i);
    }
    out.retain(|s| !s.is_empty());
    Ok(out)
}

/// The stratum of each of `n` predicates, given `edges` (head, body,
/// strict): a head's stratum is at least its body predicate's, and above it
/// when the edge is strict (the body is used under negation). The lowest
/// such numbering, by longest paths; or, when a cycle runs through a strict
/// edge and no numbering exists, the predicates at the ends of such edges
/// (ascending). The lifted rules here and the ground ones
/// ([`crate::ground`]) both stratify with it.
pub fn levels(n: usize, edges: &[(usize, usize, bool)]) -> Result<Vec<usize>, Vec<usize>> {
    // depends[p][q]: p depends on q through one or more edges.
    let mut depends = vec![vec![false; n]; n];
    for &(p, q, _) in edges {
        depends[p][q] = true;
    }
    for k in 0..n {
        let via = depends[k].clone();
        for row in depends.iter_mut().filter(|row| row[k]) {
            for (d, &v) in row.iter_mut().zip(&via) {
                *d |= v;
            }
        }
    }
    let mut cyclic: Vec<usize> = edges
        .iter()
        .filter(|&&(p, q, strict)| strict && (p == q || depends[q][p]))
        .flat_map(|&(p, q, _)| [p, q])
        .collect();
    if !cyclic.is_empty() {
        cyclic.sort_unstable();
        cyclic.dedup();
        return Err(cyclic);
    }
    // No cycle has a strict edge, so the longest paths settle.
    let mut level = vec![0usize; n];
    let mut changed = true;
    while changed {
        changed = false;
        for &(head, q, strict) in edges {
            let need = level[q] + usize::from(strict);
            if level[head] < need {
                level[head] = need;
                changed = true;
            }
        }
    }
    Ok(level)
}

/// The predicates of `condition` with their polarity.
fn uses<'c>(condition: &'c Condition, positive: bool, out: &mut Vec<(&'c str, bool)>) {
    match condition {
        Condition::Atom(a) => out.push((&a.predicate, positive)),
        Condition::Not(c) => uses(c, !positive, out),
        Condition::And(parts) | Condition::Or(parts) => parts.iter().for_each(|p| uses(p, positive, out)),
        Condition::Imply(a, b) => {
            uses(a, !positive, out);
            uses(b, positive, out);
        }
        Condition::Exists(_, c) | Condition::Forall(_, c) => uses(c, positive, out),
    }
}
