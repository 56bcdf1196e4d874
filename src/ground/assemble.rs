//! Building the [`Task`] from what the fix-point reached: numbered facts,
//! operators, ground rules in layers, the initial state and the goal.
//!
//! Only reached facts get a number, so literals on unreached ones are
//! decided here: a positive one never holds, a negative one always does.
//! A goal that can then never hold proves the task unsolvable.

use super::facts::FactIds;
use super::join::Tuple;
use super::rules::RuleKind;
use super::{EQUALITY, GroundError, Grounder, stratify};
use crate::pddl::{GroundAtom, Literal, Problem, Term};
use crate::task::{Axiom, Fact, FactId, Invariants, Task};

impl Grounder<'_> {
    /// Numbers the reached facts and builds operators, rules, init and goal.
    pub(super) fn into_task(self, problem: &Problem) -> Result<Task, GroundError> {
        let numbered = self.number_facts();
        let (facts, mut derived, ids) = (numbered.facts, numbered.derived, numbered.ids);
        let operators = self.ground_operators(&ids, problem)?;
        let (axioms, axiom_layers) = stratify::layers(self.ground_axioms(&ids), &facts, &derived)?;
        if axioms.is_empty() {
            derived.clear();
        }
        let init = self.initial_state(problem, &ids);
        let (goal, goal_neg) = self.ground_goal(&ids, &facts)?;
        Ok(Task {
            facts,
            operators,
            init,
            goal,
            goal_neg,
            axioms,
            axiom_layers,
            derived,
            has_action_costs: self.uses_costs,
            // Verified by `ground` once the task is final.
            invariants: Invariants::default(),
        })
    }

    /// The ground rules of the reached bindings of the derived-predicate
    /// rules, less those that can never derive anything.
    fn ground_axioms(&self, ids: &FactIds) -> Vec<Axiom> {
        let mut axioms = Vec::new();
        for (rule, bindings) in self.rules.iter().zip(&self.found) {
            let RuleKind::Axiom(i) = rule.kind else {
                continue;
            };
            let schema = &self.axioms[i];
            for binding in bindings {
                let (Some(head), Some((mut pre, mut pre_neg))) =
                    (ids.of(&schema.head, binding), ids.literals(&schema.body, binding))
                else {
                    continue;
                };
                for v in [&mut pre, &mut pre_neg] {
                    v.sort_unstable();
                    v.dedup();
                }
                // A rule that needs its own head, or a fact both true and
                // false, derives nothing.
                if pre.binary_search(&head).is_ok() || pre_neg.iter().any(|f| pre.binary_search(f).is_ok()) {
                    continue;
                }
                axioms.push(Axiom { head, pre, pre_neg });
            }
        }
        axioms
    }

    /// The problem's initial facts that are fluent and reached; static ones
    /// were decided while grounding, derived ones are derived.
    fn initial_state(&self, problem: &Problem, ids: &FactIds) -> Vec<FactId> {
        let mut init: Vec<FactId> = Vec::new();
        for atom in &problem.init {
            let Some(pred) = self.predicates.get(&atom.predicate) else {
                continue;
            };
            if self.is_static[pred as usize] || self.is_derived[pred as usize] {
                continue;
            }
            let args: Option<Tuple> = atom.args.iter().map(|x| self.objects.get(x)).collect();
            if let Some(f) = args.and_then(|args| ids.get(pred, args)) {
                init.push(f);
            }
        }
        init.sort_unstable();
        init.dedup();
        init
    }

    /// The goal's facts that must be true and false; an error if the goal
    /// can never hold.
    fn ground_goal(&self, ids: &FactIds, facts: &[Fact]) -> Result<(Vec<FactId>, Vec<FactId>), GroundError> {
        let mut goal = Vec::new();
        let mut goal_neg = Vec::new();
        for lit in self.goal {
            if let Some(f) = self.goal_fact(lit, ids)? {
                if lit.positive { &mut goal } else { &mut goal_neg }.push(f);
            }
        }
        for v in [&mut goal, &mut goal_neg] {
            v.sort_unstable();
            v.dedup();
        }
        if let Some(f) = goal.iter().find(|f| goal_neg.binary_search(f).is_ok()) {
            return Err(GroundError::GoalUnreachable(format!(
                "{} (required both true and false)",
                facts[*f as usize]
            )));
        }
        Ok((goal, goal_neg))
    }

    /// The fact of a goal literal, or `None` if the literal always holds;
    /// an error if it never does.
    fn goal_fact(&self, lit: &Literal, ids: &FactIds) -> Result<Option<FactId>, GroundError> {
        let atom = &lit.atom;
        let names: Vec<String> = atom
            .args
            .iter()
            .map(|t| match t {
                Term::Constant(c) => Ok(c.clone()),
                Term::Variable(v) => Err(GroundError::Unsupported(format!("goal: variable {v} is not bound"))),
            })
            .collect::<Result<_, _>>()?;
        let ground = GroundAtom {
            predicate: atom.predicate.clone(),
            args: names,
        };
        let unreachable = || GroundError::GoalUnreachable(ground.to_string());
        if atom.predicate == EQUALITY {
            let holds = ground.args.len() == 2 && ground.args[0] == ground.args[1];
            if holds != lit.positive {
                return Err(unreachable());
            }
            return Ok(None);
        }
        let pred = self.predicates.get(&atom.predicate);
        let args: Option<Tuple> = ground.args.iter().map(|x| self.objects.get(x)).collect();
        let (Some(pred), Some(args)) = (pred, args) else {
            // Unknown names: the atom is false everywhere.
            if lit.positive {
                return Err(unreachable());
            }
            return Ok(None);
        };
        if self.is_static[pred as usize] {
            if self.relations[pred as usize].contains(&args) != lit.positive {
                return Err(unreachable());
            }
            return Ok(None);
        }
        match (ids.get(pred, args), lit.positive) {
            (None, true) => Err(unreachable()),
            // Never reachable, so never true: the goal holds trivially.
            (None, false) => Ok(None),
            (Some(f), _) => Ok(Some(f)),
        }
    }
}
