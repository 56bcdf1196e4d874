//! The effects of one ground operator put in their final form: conditions
//! the operator's precondition decides are folded away, effects that can
//! never fire or change nothing are dropped, and what remains is sorted, so
//! that equal operators look equal.

use crate::task::{CondEffect, FactId};

/// An operator's precondition and effects, folded.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct Folded {
    pub pre: Vec<FactId>,
    pub pre_neg: Vec<FactId>,
    pub add: Vec<FactId>,
    pub del: Vec<FactId>,
    pub conditional: Vec<CondEffect>,
}

fn sort(v: &mut Vec<FactId>) {
    v.sort_unstable();
    v.dedup();
}

fn meets(a: &[FactId], sorted: &[FactId]) -> bool {
    a.iter().any(|f| sorted.binary_search(f).is_ok())
}

/// Folds an operator's parts; `None` when it never applies (a fact both
/// required and forbidden) or changes nothing.
///
/// Within one application every effect reads the state before it, and all
/// deletes happen before all adds. So a conditional effect whose condition
/// contradicts the precondition never fires, one whose condition the
/// precondition implies always does (it becomes unconditional), a delete of
/// a fact the operator adds anyway is void, and adding a required fact
/// changes nothing unless some effect may delete it.
pub(super) fn fold(
    mut pre: Vec<FactId>,
    mut pre_neg: Vec<FactId>,
    mut add: Vec<FactId>,
    mut del: Vec<FactId>,
    conditional: Vec<CondEffect>,
) -> Option<Folded> {
    for v in [&mut pre, &mut pre_neg, &mut add, &mut del] {
        sort(v);
    }
    if meets(&pre_neg, &pre) {
        return None;
    }
    let mut kept: Vec<CondEffect> = Vec::new();
    for mut e in conditional {
        for v in [&mut e.pre, &mut e.pre_neg, &mut e.add, &mut e.del] {
            sort(v);
        }
        if meets(&e.pre, &pre_neg) || meets(&e.pre_neg, &pre) || meets(&e.pre_neg, &e.pre) {
            continue;
        }
        e.pre.retain(|f| pre.binary_search(f).is_err());
        e.pre_neg.retain(|f| pre_neg.binary_search(f).is_err());
        if e.pre.is_empty() && e.pre_neg.is_empty() {
            add.extend_from_slice(&e.add);
            del.extend_from_slice(&e.del);
        } else {
            kept.push(e);
        }
    }
    sort(&mut add);
    sort(&mut del);
    // Add wins over delete (PDDL applies deletes first).
    del.retain(|f| add.binary_search(f).is_err());
    for e in &mut kept {
        e.del.retain(|f| add.binary_search(f).is_err());
        e.add.retain(|f| add.binary_search(f).is_err());
    }
    kept.retain(|e| !(e.add.is_empty() && e.del.is_empty()));
    // One effect per condition.
    kept.sort_unstable_by(|a, b| (&a.pre, &a.pre_neg).cmp(&(&b.pre, &b.pre_neg)));
    let mut conditional: Vec<CondEffect> = Vec::with_capacity(kept.len());
    for e in kept {
        match conditional.last_mut() {
            Some(last) if last.pre == e.pre && last.pre_neg == e.pre_neg => {
                last.add.extend(e.add);
                last.del.extend(e.del);
                sort(&mut last.add);
                sort(&mut last.del);
            }
            _ => conditional.push(e),
        }
    }
    // Adding a required fact changes nothing when no effect deletes it (an
    // operator left without effects, like `drive t x x`, is no step at all).
    let mut deleted = del.clone();
    for e in &conditional {
        deleted.extend_from_slice(&e.del);
    }
    sort(&mut deleted);
    let changes = |f: &FactId| pre.binary_search(f).is_err() || deleted.binary_search(f).is_ok();
    add.retain(changes);
    for e in &mut conditional {
        e.add.retain(changes);
    }
    conditional.retain(|e| !(e.add.is_empty() && e.del.is_empty()));
    if add.is_empty() && del.is_empty() && conditional.is_empty() {
        return None;
    }
    Some(Folded {
        pre,
        pre_neg,
        add,
        del,
        conditional,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn effect(pre: &[FactId], pre_neg: &[FactId], add: &[FactId], del: &[FactId]) -> CondEffect {
        CondEffect {
            pre: pre.to_vec(),
            pre_neg: pre_neg.to_vec(),
            add: add.to_vec(),
            del: del.to_vec(),
        }
    }

    #[test]
    fn conditions_decided_by_the_precondition_are_folded() {
        // pre {0}, pre_neg {1}. Effects: when 1 (never fires); when not 0
        // (never); when 0 (always: unconditional); when 0, 2 (condition 2);
        // when 2 again (merged with the previous one); when 3, not 3 (never).
        let f = fold(
            vec![0],
            vec![1],
            vec![],
            vec![],
            vec![
                effect(&[1], &[], &[5], &[]),
                effect(&[], &[0], &[5], &[]),
                effect(&[0], &[], &[4], &[]),
                effect(&[0, 2], &[], &[6], &[]),
                effect(&[2], &[], &[], &[7]),
                effect(&[3], &[3], &[8], &[]),
            ],
        )
        .unwrap();
        assert_eq!(f.add, vec![4]);
        assert_eq!(f.conditional, vec![effect(&[2], &[], &[6], &[7])]);
    }

    #[test]
    fn adds_of_required_facts_stay_only_when_something_deletes_them() {
        // pre {0}; when 2 delete 0, when 3 add 0: the conditional add of the
        // required fact matters (it wins over the delete).
        let f = fold(
            vec![0],
            vec![],
            vec![],
            vec![],
            vec![effect(&[2], &[], &[], &[0]), effect(&[3], &[], &[0], &[])],
        )
        .unwrap();
        assert_eq!(
            f.conditional,
            vec![effect(&[2], &[], &[], &[0]), effect(&[3], &[], &[0], &[])]
        );
        // An unconditional add of 0 voids the conditional delete, and then
        // adding the required fact changes nothing: no step at all.
        assert_eq!(
            fold(vec![0], vec![], vec![0], vec![], vec![effect(&[2], &[], &[], &[0])]),
            None
        );
        // A conditional add of a required fact that an unconditional delete
        // removes stays.
        let f = fold(vec![0], vec![], vec![], vec![0], vec![effect(&[2], &[], &[0], &[])]).unwrap();
        assert_eq!(f.del, vec![0]);
        assert_eq!(f.conditional, vec![effect(&[2], &[], &[0], &[])]);
    }

    #[test]
    fn contradictory_preconditions_never_apply() {
        assert_eq!(fold(vec![0], vec![0], vec![1], vec![], vec![]), None);
    }
}
