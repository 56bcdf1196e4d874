//! The rules of the reachability fix-point and the schemas their bindings
//! stand for.
//!
//! Each action, each of its effect groups (conditional or quantified
//! effects) and each derived-predicate rule becomes one [`Rule`]: a join
//! over its condition whose bindings make atoms reachable. Its condition is
//! sorted by what the join does with each literal, which needs the static
//! predicates known. The schemas keep the fluent part of each condition
//! for the ground task, since static literals are decided by the join.
//! Each rule is compiled to join [`Plan`]s: one run once if it has no
//! positive fluent condition, else one per such condition, run whenever a
//! new fact of it is reached.

use super::Grounder;
use super::compile::{CompiledAction, CompiledAxiom, Condition};
use super::join::{Arg, JoinInput, Plan, Relation, SchemaAtom};
use super::symbols::Types;
use crate::normalize::NormalAction;

/// What the bindings of a [`Rule`] stand for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum RuleKind {
    /// Operators of `actions[i]`.
    Action(usize),
    /// Conditional or quantified effects of `actions[action]`:
    /// `effect_groups[group]`.
    Effect { action: usize, group: usize },
    /// Derived facts: `axioms[i]`.
    Axiom(usize),
}

/// One join of the reachability fix-point: its parameters, its conditions
/// sorted by what the join does with them, and the atoms each binding makes
/// reachable.
pub(super) struct Rule {
    pub kind: RuleKind,
    pub param_sets: Vec<usize>,
    pub pos_fluent: Vec<SchemaAtom>,
    pub pos_static: Vec<SchemaAtom>,
    pub neg_static: Vec<SchemaAtom>,
    pub equalities: Vec<(SchemaAtom, bool)>,
    pub reaches: Vec<SchemaAtom>,
}

/// A condition literal on a fluent or derived predicate, kept for the
/// ground task (static ones are decided by the join).
pub(super) type FluentLiteral = (SchemaAtom, bool);

/// An action schema with interned atoms.
pub(super) struct ActionSchema<'a> {
    pub normal: &'a NormalAction,
    /// The precondition on fluent and derived predicates.
    pub pre: Vec<FluentLiteral>,
    /// Effects without condition or quantified variables.
    pub add: Vec<SchemaAtom>,
    pub del: Vec<SchemaAtom>,
    /// Its effects with a condition or quantified variables, by rule index.
    pub effect_rules: Vec<usize>,
}

/// The effects of an action that share quantified variables and a
/// condition: their rule's parameters are the action's followed by the
/// variables.
pub(super) struct EffectGroup {
    pub condition: Vec<FluentLiteral>,
    pub add: Vec<SchemaAtom>,
    pub del: Vec<SchemaAtom>,
}

/// A derived-predicate rule with interned atoms.
pub(super) struct AxiomSchema {
    pub head: SchemaAtom,
    pub body: Vec<FluentLiteral>,
}

/// The rules and the schemas they stand for.
#[derive(Default)]
pub(super) struct RuleSet<'a> {
    pub rules: Vec<Rule>,
    pub actions: Vec<ActionSchema<'a>>,
    pub effect_groups: Vec<EffectGroup>,
    pub axioms: Vec<AxiomSchema>,
}

/// What rule making needs to know of the predicates.
#[derive(Clone, Copy)]
pub(super) struct PredicateKinds<'k> {
    pub equality: u32,
    pub is_static: &'k [bool],
}

impl PredicateKinds<'_> {
    /// The literals of `condition` on fluent and derived predicates.
    fn fluent_part(&self, condition: &Condition) -> Vec<FluentLiteral> {
        condition
            .iter()
            .filter(|(a, _)| a.pred != self.equality && !self.is_static[a.pred as usize])
            .cloned()
            .collect()
    }
}

impl<'a> RuleSet<'a> {
    /// The rules: per action, the action's own, then one per effect group;
    /// then one per derived-predicate rule.
    pub fn new(
        actions: Vec<CompiledAction<'a>>,
        axioms: Vec<CompiledAxiom>,
        types: &mut Types,
        kinds: PredicateKinds,
    ) -> RuleSet<'a> {
        let mut set = RuleSet::default();
        for (i, action) in actions.into_iter().enumerate() {
            set.add_action(i, action, types, kinds);
        }
        for (i, axiom) in axioms.into_iter().enumerate() {
            set.add_axiom(i, axiom, types, kinds);
        }
        set
    }

    fn add_action(&mut self, i: usize, action: CompiledAction<'a>, types: &mut Types, kinds: PredicateKinds) {
        let param_sets: Vec<usize> = action.normal.params.iter().map(|p| types.set_for(&p.types)).collect();
        let mut schema = ActionSchema {
            normal: action.normal,
            pre: kinds.fluent_part(&action.pre),
            add: action.add,
            del: action.del,
            effect_rules: Vec::new(),
        };
        self.rules.push(Rule::new(
            RuleKind::Action(i),
            param_sets.clone(),
            &action.pre,
            schema.add.clone(),
            kinds,
        ));
        for compiled in action.groups {
            let mut sets = param_sets.clone();
            sets.extend(compiled.vars.iter().map(|v| types.set_for(&v.types)));
            let group = EffectGroup {
                condition: kinds.fluent_part(&compiled.condition),
                add: compiled.add,
                del: compiled.del,
            };
            let mut all = action.pre.clone();
            all.extend(compiled.condition);
            schema.effect_rules.push(self.rules.len());
            let kind = RuleKind::Effect {
                action: i,
                group: self.effect_groups.len(),
            };
            self.rules.push(Rule::new(kind, sets, &all, group.add.clone(), kinds));
            self.effect_groups.push(group);
        }
        self.actions.push(schema);
    }

    fn add_axiom(&mut self, i: usize, axiom: CompiledAxiom, types: &mut Types, kinds: PredicateKinds) {
        let param_sets = axiom.params.iter().map(|p| types.set_for(&p.types)).collect();
        self.rules.push(Rule::new(
            RuleKind::Axiom(i),
            param_sets,
            &axiom.body,
            vec![axiom.head.clone()],
            kinds,
        ));
        self.axioms.push(AxiomSchema {
            head: axiom.head,
            body: kinds.fluent_part(&axiom.body),
        });
    }
}

impl Rule {
    /// A rule with the given condition, sorted by what the join does with
    /// each literal: positive atoms are joined, negative static ones
    /// checked, equalities checked or assigned; negative fluent and
    /// derived ones are relaxed away.
    fn new(
        kind: RuleKind,
        param_sets: Vec<usize>,
        condition: &Condition,
        reaches: Vec<SchemaAtom>,
        kinds: PredicateKinds,
    ) -> Rule {
        let mut r = Rule {
            kind,
            param_sets,
            pos_fluent: Vec::new(),
            pos_static: Vec::new(),
            neg_static: Vec::new(),
            equalities: Vec::new(),
            reaches,
        };
        for (atom, positive) in condition {
            if atom.pred == kinds.equality {
                r.equalities.push((atom.clone(), *positive));
                continue;
            }
            match (positive, kinds.is_static[atom.pred as usize]) {
                (true, false) => r.pos_fluent.push(atom.clone()),
                (true, true) => r.pos_static.push(atom.clone()),
                (false, false) => {}
                (false, true) => r.neg_static.push(atom.clone()),
            }
        }
        r
    }
}

/// The join plans of the rules: those run once (rules without positive
/// fluent conditions), and per predicate those a new fact of it triggers.
pub(super) struct Plans {
    pub untriggered: Vec<Plan>,
    pub triggered: Vec<Vec<Plan>>,
}

impl Plans {
    /// Compiles the plans, adding to `relations` the indexes they use.
    pub fn new(rules: &[Rule], is_static: &[bool], relations: &mut [Relation]) -> Plans {
        let mut untriggered = Vec::new();
        let mut triggered: Vec<Vec<Plan>> = (0..relations.len()).map(|_| Vec::new()).collect();
        for (i, r) in rules.iter().enumerate() {
            let input = JoinInput {
                num_params: r.param_sets.len(),
                positive: r.pos_fluent.iter().chain(&r.pos_static).collect(),
                negative_static: r.neg_static.iter().collect(),
                equalities: r.equalities.iter().map(|(a, p)| (a, *p)).collect(),
                is_static,
            };
            if r.pos_fluent.is_empty() {
                untriggered.push(Plan::compile(i, &input, None, relations));
            } else {
                for (j, atom) in r.pos_fluent.iter().enumerate() {
                    triggered[atom.pred as usize].push(Plan::compile(i, &input, Some(j), relations));
                }
            }
        }
        Plans { untriggered, triggered }
    }
}

impl Grounder<'_> {
    /// An upper bound on the bindings of a rule, for the message of a
    /// grounding that is stopped: the product of its parameters' numbers of
    /// values, each at most the size of a unary static precondition on it.
    pub(super) fn describe_size(&self, rule: &Rule) -> String {
        let sets = self.types.sets();
        let values: Vec<usize> = rule
            .param_sets
            .iter()
            .enumerate()
            .map(|(v, &set)| {
                let unary_static = rule
                    .pos_static
                    .iter()
                    .filter(|a| a.args.len() == 1 && matches!(a.args[0], Arg::Var(w) if w == v))
                    .map(|a| self.relations[a.pred as usize].len());
                unary_static.fold(sets[set].objects.len(), usize::min)
            })
            .collect();
        let bound = values.iter().fold(1u128, |n, &k| n.saturating_mul(k as u128));
        let factors: Vec<String> = values.iter().map(usize::to_string).collect();
        let (what, unit) = match rule.kind {
            RuleKind::Action(a) => (format!("action {}", self.actions[a].normal.name), "ground operators"),
            RuleKind::Effect { action, .. } => (
                format!("effects of action {}", self.actions[action].normal.name),
                "ground effects",
            ),
            RuleKind::Axiom(a) => (
                format!("rule for {}", self.predicates.name(self.axioms[a].head.pred)),
                "ground rules",
            ),
        };
        format!(
            "{what}: up to {bound} {unit} ({} parameter values)",
            if factors.is_empty() {
                "no".to_string()
            } else {
                factors.join("·")
            }
        )
    }
}
