//! Derived facts that a conjunction of literals can stand for are replaced
//! by it, wherever they are used.
//!
//! Normalization turns every `forall` and every disjunction in a condition
//! into a derived predicate, so that conditions stay conjunctions. Once
//! grounded, with static facts folded away, many of these derived facts
//! are simple: `forall (?s) (imply (smaller ?s ?d) (not (at ?s ?p)))`
//! becomes a derived fact `P` whose rules say "`P` if `(at s1 p)`", "`P`
//! if `(at s2 p)`", ..., and the action needs `not P`, which is exactly
//! "not `(at s1 p)` and not `(at s2 p)` and ...". Writing that conjunction
//! into the operator instead keeps the task free of axioms, so every
//! heuristic and search applies to it (pattern databases, LM-cut and
//! symbolic search do not handle derived facts), and the relaxation sees
//! the operator's real conditions rather than a derived fact that the
//! delete relaxation assumes reachable.
//!
//! A derived fact `P` whose rules have bodies of basic facts only (no
//! other derived fact), and which no rule body mentions, is replaced where
//! the result is again a conjunction:
//! - a positive use `P` becomes the body of its rule, when it has exactly
//!   one rule;
//! - a negative use `not P` becomes the negation of every rule's body,
//!   when every body is a single literal.
//!
//! If some use of `P` cannot be replaced, `P` is kept everywhere. The
//! semantics is unchanged: a derived fact of basic facts holds exactly when
//! one of its rules' bodies does. An operator (or a conditional effect)
//! whose conditions become contradictory (a fact needed both true and
//! false) can never apply (fire) and is dropped. Facts are renumbered by
//! [`simplify::without_unused_derived_facts`], which drops the replaced
//! derived facts and their rules.

use super::simplify;
use crate::task::{FactId, Task};

/// Most condition literals the replacement may add to the task in all;
/// derived facts beyond it are kept (a quantifier over many objects in
/// many operators would otherwise multiply the task's size).
const MAX_ADDED_LITERALS: usize = 2_000_000;

/// `task` with its simple derived facts replaced by their conditions (see
/// the module documentation), and how many derived facts were replaced.
pub fn inline_derived_facts(mut task: Task) -> (Task, usize) {
    if !task.has_axioms() {
        return (task, 0);
    }
    let replacement = Replacement::new(&task);
    if replacement.count == 0 {
        return (task, 0);
    }
    let count = replacement.count;
    task.operators = std::mem::take(&mut task.operators)
        .into_iter()
        .filter_map(|mut op| {
            (op.pre, op.pre_neg) = replacement.condition(&op.pre, &op.pre_neg)?;
            op.cond_effects = std::mem::take(&mut op.cond_effects)
                .into_iter()
                .filter_map(|mut effect| {
                    (effect.pre, effect.pre_neg) = replacement.condition(&effect.pre, &effect.pre_neg)?;
                    Some(effect)
                })
                .collect();
            Some(op)
        })
        .collect();
    // A contradictory goal stays contradictory: the search then proves
    // that no plan exists.
    (task.goal, task.goal_neg) = replacement.literals(&task.goal, &task.goal_neg);
    let (task, _) = simplify::without_unused_derived_facts(task);
    (task, count)
}

/// Which derived facts are replaced, and by what.
struct Replacement {
    /// Per fact: the conjunction (facts true, facts false) that `f` stands
    /// for, when `f` is replaced where it is used positively.
    positive: Vec<Option<(Vec<FactId>, Vec<FactId>)>>,
    /// Per fact: the conjunction that `not f` stands for.
    negative: Vec<Option<(Vec<FactId>, Vec<FactId>)>>,
    count: usize,
}

impl Replacement {
    fn new(task: &Task) -> Replacement {
        let n = task.num_facts();
        let mut rules_of: Vec<Vec<usize>> = vec![Vec::new(); n];
        let mut in_rule_body = vec![false; n];
        for (i, axiom) in task.axioms.iter().enumerate() {
            rules_of[axiom.head as usize].push(i);
            for &f in axiom.pre.iter().chain(&axiom.pre_neg) {
                in_rule_body[f as usize] = true;
            }
        }
        // How often each fact is used positively and negatively.
        let (mut uses_pos, mut uses_neg) = (vec![0usize; n], vec![0usize; n]);
        let mut count_uses = |pre: &[FactId], pre_neg: &[FactId]| {
            for &f in pre {
                uses_pos[f as usize] += 1;
            }
            for &f in pre_neg {
                uses_neg[f as usize] += 1;
            }
        };
        for op in &task.operators {
            count_uses(&op.pre, &op.pre_neg);
            for effect in &op.cond_effects {
                count_uses(&effect.pre, &effect.pre_neg);
            }
        }
        count_uses(&task.goal, &task.goal_neg);

        let mut replacement = Replacement {
            positive: vec![None; n],
            negative: vec![None; n],
            count: 0,
        };
        let mut budget = MAX_ADDED_LITERALS;
        for f in 0..n {
            if !task.is_derived(f as FactId) || in_rule_body[f] {
                continue;
            }
            let rules: Vec<_> = rules_of[f].iter().map(|&i| &task.axioms[i]).collect();
            let basic = |list: &[FactId]| list.iter().all(|&g| !task.is_derived(g));
            if !rules.iter().all(|r| basic(&r.pre) && basic(&r.pre_neg)) {
                continue;
            }
            let positive = match rules.as_slice() {
                [rule] => Some((rule.pre.clone(), rule.pre_neg.clone())),
                _ => None,
            };
            let single_literals = rules.iter().all(|r| r.pre.len() + r.pre_neg.len() == 1);
            let negative = single_literals.then(|| {
                // not (g) is (not g); not (not g) is g.
                let mut pre: Vec<FactId> = rules.iter().flat_map(|r| r.pre_neg.iter().copied()).collect();
                let mut pre_neg: Vec<FactId> = rules.iter().flat_map(|r| r.pre.iter().copied()).collect();
                pre.sort_unstable();
                pre.dedup();
                pre_neg.sort_unstable();
                pre_neg.dedup();
                (pre, pre_neg)
            });
            if (uses_pos[f] > 0 && positive.is_none()) || (uses_neg[f] > 0 && negative.is_none()) {
                continue;
            }
            let size = |c: &Option<(Vec<FactId>, Vec<FactId>)>| c.as_ref().map_or(0, |(p, q)| p.len() + q.len());
            let added = uses_pos[f] * size(&positive) + uses_neg[f] * size(&negative);
            if added > budget {
                continue;
            }
            budget -= added;
            replacement.positive[f] = positive;
            replacement.negative[f] = negative;
            replacement.count += 1;
        }
        replacement
    }

    /// The literals `pre` true and `pre_neg` false with replaced derived
    /// facts written out (sorted, no duplicates).
    fn literals(&self, pre: &[FactId], pre_neg: &[FactId]) -> (Vec<FactId>, Vec<FactId>) {
        let (mut out_pre, mut out_neg) = (Vec::with_capacity(pre.len()), Vec::with_capacity(pre_neg.len()));
        for (list, replaced, positive) in [(pre, &self.positive, true), (pre_neg, &self.negative, false)] {
            for &f in list {
                match &replaced[f as usize] {
                    Some((p, q)) => {
                        out_pre.extend_from_slice(p);
                        out_neg.extend_from_slice(q);
                    }
                    None if positive => out_pre.push(f),
                    None => out_neg.push(f),
                }
            }
        }
        out_pre.sort_unstable();
        out_pre.dedup();
        out_neg.sort_unstable();
        out_neg.dedup();
        (out_pre, out_neg)
    }

    /// [`Self::literals`], or `None` when they contradict each other (a
    /// fact needed both true and false).
    fn condition(&self, pre: &[FactId], pre_neg: &[FactId]) -> Option<(Vec<FactId>, Vec<FactId>)> {
        let (pre, pre_neg) = self.literals(pre, pre_neg);
        let contradiction = pre_neg.iter().any(|f| pre.binary_search(f).is_ok());
        (!contradiction).then_some((pre, pre_neg))
    }
}

#[cfg(test)]
mod tests {
    use crate::ground::{GroundStats, ground};
    use crate::pddl::{check, parse_domain, parse_problem};
    use crate::task::{FactId, Task};

    fn grounded(domain: &str, problem: &str) -> (Task, GroundStats) {
        let d = parse_domain(domain, "d.pddl").expect("domain");
        let p = parse_problem(problem, "p.pddl").expect("problem");
        check(&d, &p, "p.pddl").expect("check");
        ground(&d, &p).expect("ground")
    }

    /// The facts of `ids` as text, e.g. `["(at a p1)"]`.
    fn named(task: &Task, ids: &[FactId]) -> Vec<String> {
        ids.iter().map(|&f| task.facts[f as usize].to_string()).collect()
    }

    /// (pre, pre_neg) of the operator named `name`, as text.
    fn conditions(task: &Task, name: &str) -> (Vec<String>, Vec<String>) {
        let op = task.operators.iter().find(|o| o.name() == name).expect(name);
        (named(task, &op.pre), named(task, &op.pre_neg))
    }

    #[test]
    fn a_forall_with_a_static_guard_becomes_negative_preconditions() {
        // Disc b is smaller than disc a: a moves only when b is on neither peg.
        let problem = "(define (problem two) (:domain hanoi-pegs)
              (:objects p1 p2 p3 - peg a b - disc)
              (:init (at a p1) (at b p1) (smaller b a))
              (:goal (and (at a p3) (at b p3))))";
        let (task, stats) = grounded(include_str!("../../domains/hanoi-pegs.pddl"), problem);
        assert!(!task.has_axioms());
        assert!(task.derived.is_empty() && task.axiom_layers.is_empty());
        assert!(stats.inlined_derived_facts > 0);
        assert_eq!(
            conditions(&task, "(move a p1 p3)"),
            (
                vec!["(at a p1)".to_string()],
                vec!["(at b p1)".to_string(), "(at b p3)".to_string()]
            )
        );
        // Nothing is smaller than b: its moves have no negative conditions.
        assert_eq!(
            conditions(&task, "(move b p1 p2)"),
            (vec!["(at b p1)".to_string()], vec![])
        );
        assert_eq!(task.operators.len(), 12);
    }

    const DOMAIN: &str = "(define (domain d) (:requirements :adl :derived-predicates)
          (:constants a)
          (:predicates (p ?x) (q ?x) (r) (ready ?x) (either) (busy) (blocked))
          (:derived (ready ?x) (and (p ?x) (q ?x)))
          (:derived (either) (or (p a) (q a)))
          (:derived (busy) (p a))
          (:derived (blocked) (busy))
          (:action use-ready :parameters (?x) :precondition (ready ?x) :effect (r))
          (:action use-either :parameters () :precondition (either) :effect (r))
          (:action use-not-ready :parameters () :precondition (not (ready a)) :effect (r))
          (:action use-blocked :parameters () :precondition (not (blocked)) :effect (r))
          (:action contradiction :parameters () :precondition (and (p a) (not (busy))) :effect (r))
          (:action make :parameters (?x) :precondition () :effect (and (p ?x) (q ?x))))";

    #[test]
    fn only_derived_facts_a_conjunction_can_stand_for_are_replaced() {
        let problem = "(define (problem one) (:domain d) (:init) (:goal (r)))";
        let (task, _) = grounded(DOMAIN, problem);
        let derived: Vec<String> = (0..task.num_facts() as FactId)
            .filter(|&f| task.is_derived(f))
            .map(|f| task.facts[f as usize].to_string())
            .collect();
        // `ready a` (one rule) is written out where it is used positively,
        // but not under `not`: its one rule's body has two literals.
        // `either` has two rules, and `busy` is used by `blocked`'s rule.
        assert_eq!(derived, ["(blocked)", "(busy)", "(either)", "(ready a)"]);
        assert_eq!(conditions(&task, "(use-ready a)").0, ["(ready a)"]);
        assert_eq!(conditions(&task, "(use-not-ready)").1, ["(ready a)"]);
        assert_eq!(conditions(&task, "(use-either)").0, ["(either)"]);
    }

    #[test]
    fn a_positive_use_of_a_single_rule_is_written_out_and_contradictions_drop_the_operator() {
        // Without `use-not-ready`, `ready a` is only used positively; without
        // `blocked`, `busy` is in no rule body.
        let domain = DOMAIN
            .replace(
                "(:action use-not-ready :parameters () :precondition (not (ready a)) :effect (r))",
                "",
            )
            .replace("(:derived (blocked) (busy))", "")
            .replace(
                "(:action use-blocked :parameters () :precondition (not (blocked)) :effect (r))",
                "",
            );
        let problem = "(define (problem one) (:domain d) (:init) (:goal (r)))";
        let (task, stats) = grounded(&domain, problem);
        assert_eq!(stats.inlined_derived_facts, 2);
        assert_eq!(
            conditions(&task, "(use-ready a)"),
            (vec!["(p a)".to_string(), "(q a)".to_string()], vec![])
        );
        // `(p a)` and `not (busy)`, which is `not (p a)`: it never applies.
        assert!(!task.operators.iter().any(|o| o.name() == "(contradiction)"));
        assert!(task.has_axioms(), "`either` stays derived");
    }
}
