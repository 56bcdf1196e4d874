//! Ground operators from the bindings the fix-point found: their
//! preconditions and effects as fact ids, their conditional effects, and
//! their costs.
//!
//! Operators are made in the order of their names and arguments, and the
//! conditional effects of each in the order of their variables' values,
//! so that the task does not depend on hashing or on the order of the
//! input's declarations.

use rustc_hash::FxHashMap;

use super::facts::FactIds;
use super::join::Tuple;
use super::rules::{ActionSchema, RuleKind};
use super::{GroundError, Grounder, effects};
use crate::normalize::NormalAction;
use crate::pddl::{CostExpr, ErrorKind, PddlError, Problem, Term};
use crate::task::{CondEffect, FactId, Operator};

/// The values of numeric functions in the problem's init, by function
/// name and argument names.
type NumericInit<'p> = FxHashMap<(&'p str, Vec<&'p str>), i64>;

/// Per rule: the bindings of an effect rule by the operator they belong to
/// (the prefix binding the action's parameters); empty for other rules.
type EffectBindings<'g> = Vec<FxHashMap<&'g [u32], Vec<&'g [u32]>>>;

impl Grounder<'_> {
    /// The operators of the reached bindings of the actions; those that can
    /// never apply or do nothing are left out.
    pub(super) fn ground_operators(&self, ids: &FactIds, problem: &Problem) -> Result<Vec<Operator>, GroundError> {
        let numeric = numeric_init(problem);
        let effect_bindings = self.effect_bindings();
        let found = self.operator_bindings();
        let mut operators = Vec::with_capacity(found.len());
        for (action, binding) in found {
            crate::limits::checkpoint();
            if let Some(operator) =
                self.ground_operator(&self.actions[action], binding, ids, &effect_bindings, &numeric)?
            {
                operators.push(operator);
            }
        }
        Ok(operators)
    }

    fn arg_names(&self, binding: &[u32]) -> Vec<&str> {
        binding.iter().map(|&o| self.objects.name(o)).collect()
    }

    /// The bindings of each effect rule by the operator they belong to,
    /// each operator's in the order of their variables' names.
    fn effect_bindings(&self) -> EffectBindings<'_> {
        let mut effect_bindings: EffectBindings = Vec::with_capacity(self.rules.len());
        for (rule, found) in self.rules.iter().zip(&self.found) {
            let mut by_op: FxHashMap<&[u32], Vec<&[u32]>> = FxHashMap::default();
            if let RuleKind::Effect { action, .. } = rule.kind {
                let k = self.actions[action].normal.params.len();
                for binding in found {
                    by_op.entry(&binding[..k]).or_default().push(binding);
                }
                for list in by_op.values_mut() {
                    list.sort_unstable_by(|a, b| self.arg_names(&a[k..]).cmp(&self.arg_names(&b[k..])));
                }
            }
            effect_bindings.push(by_op);
        }
        effect_bindings
    }

    /// The bindings of the action rules with their action, in the order of
    /// the action's name and the arguments' names.
    fn operator_bindings(&self) -> Vec<(usize, &Tuple)> {
        let mut found: Vec<(usize, &Tuple)> = Vec::new();
        for (rule, bindings) in self.rules.iter().zip(&self.found) {
            if let RuleKind::Action(a) = rule.kind {
                found.extend(bindings.iter().map(|b| (a, b)));
            }
        }
        found.sort_unstable_by(|a, b| {
            let (na, nb) = (&self.actions[a.0].normal.name, &self.actions[b.0].normal.name);
            (na.as_str(), self.arg_names(a.1), a.0).cmp(&(nb.as_str(), self.arg_names(b.1), b.0))
        });
        found
    }

    /// The operator of action `s` under `binding`, unless it never applies
    /// or has no effect.
    fn ground_operator(
        &self,
        s: &ActionSchema,
        binding: &[u32],
        ids: &FactIds,
        effect_bindings: &EffectBindings,
        numeric: &NumericInit,
    ) -> Result<Option<Operator>, GroundError> {
        // `None` cannot happen (the binding was found from reached
        // facts), but an operator with an unreachable precondition is
        // never applicable.
        let Some((pre, pre_neg)) = ids.literals(&s.pre, binding) else {
            return Ok(None);
        };
        let add: Vec<FactId> = s.add.iter().filter_map(|a| ids.of(a, binding)).collect();
        let del: Vec<FactId> = s.del.iter().filter_map(|a| ids.of(a, binding)).collect();
        let conditional = self.conditional_effects(s, binding, ids, effect_bindings);
        let Some(effects) = effects::fold(pre, pre_neg, add, del, conditional) else {
            return Ok(None);
        };
        let cost = if self.uses_costs {
            self.cost(s.normal, binding, numeric)?
        } else {
            1
        };
        let external = s.normal.external_params.min(binding.len());
        Ok(Some(Operator {
            action: s.normal.name.clone(),
            args: self
                .arg_names(&binding[..external])
                .into_iter()
                .map(str::to_string)
                .collect(),
            pre: effects.pre,
            pre_neg: effects.pre_neg,
            add: effects.add,
            del: effects.del,
            cost,
            cond_effects: effects.conditional,
        }))
    }

    /// The conditional effects of action `s` under `binding`: one per
    /// binding of each of its effect groups whose condition can hold.
    fn conditional_effects(
        &self,
        s: &ActionSchema,
        binding: &[u32],
        ids: &FactIds,
        effect_bindings: &EffectBindings,
    ) -> Vec<CondEffect> {
        let mut conditional = Vec::new();
        for &r in &s.effect_rules {
            let RuleKind::Effect { group, .. } = self.rules[r].kind else {
                continue;
            };
            let g = &self.effect_groups[group];
            for full in effect_bindings[r].get(binding).into_iter().flatten() {
                let Some((cpre, cneg)) = ids.literals(&g.condition, full) else {
                    continue;
                };
                conditional.push(CondEffect {
                    pre: cpre,
                    pre_neg: cneg,
                    add: g.add.iter().filter_map(|a| ids.of(a, full)).collect(),
                    del: g.del.iter().filter_map(|a| ids.of(a, full)).collect(),
                });
            }
        }
        conditional
    }

    /// The operator's cost: the sum of its cost effects under the binding;
    /// static numeric functions are looked up in the problem's init.
    fn cost(&self, action: &NormalAction, binding: &[u32], numeric: &NumericInit) -> Result<u32, GroundError> {
        let mut total: i64 = 0;
        let params: FxHashMap<&str, usize> = action
            .params
            .iter()
            .enumerate()
            .map(|(i, p)| (p.name.as_str(), i))
            .collect();
        for c in &action.costs {
            let value = match c {
                CostExpr::Constant(k) => *k,
                CostExpr::Function { name, args, location } => {
                    let mut names = Vec::with_capacity(args.len());
                    for t in args {
                        names.push(match t {
                            Term::Constant(c) => c.as_str(),
                            Term::Variable(v) => match params.get(v.as_str()) {
                                Some(&i) => self.objects.name(binding[i]),
                                None => {
                                    return Err(GroundError::Unsupported(format!(
                                        "action {}: cost variable {v} is not a parameter",
                                        action.name
                                    )));
                                }
                            },
                        });
                    }
                    match numeric.get(&(name.as_str(), names.clone())) {
                        Some(&v) => v,
                        None => {
                            return Err(GroundError::Input(PddlError {
                                kind: ErrorKind::Semantic,
                                file: self.domain_file.clone(),
                                location: *location,
                                message: format!(
                                    "the cost of action {} needs ({}{}), which the problem's :init gives no value",
                                    action.name,
                                    name,
                                    names.iter().map(|n| format!(" {n}")).collect::<String>()
                                ),
                            }));
                        }
                    }
                }
            };
            if value < 0 {
                return Err(GroundError::Unsupported(format!(
                    "action {}: negative cost {value}",
                    action.name
                )));
            }
            total = total.saturating_add(value);
        }
        u32::try_from(total)
            .map_err(|_| GroundError::Unsupported(format!("action {}: cost {total} is too large", action.name)))
    }
}

fn numeric_init(problem: &Problem) -> NumericInit<'_> {
    problem
        .numeric_init
        .iter()
        .map(|n| {
            (
                (n.function.as_str(), n.args.iter().map(String::as_str).collect()),
                n.value,
            )
        })
        .collect()
}
