//! Grounding: from the lifted task in normal form ([`crate::normalize`]) to
//! a compact [`Task`].
//!
//! 1. Atoms are interned ([`compile`]). Predicates no effect changes and no
//!    rule derives are *static* (so is `=`, and so are types, as unary
//!    constraints on parameters): they never become facts; conditions on
//!    them are decided while grounding.
//! 2. A forward fix-point over the delete relaxation finds the reachable
//!    facts, operators, conditional effects and derived facts ([`reach`];
//!    semi-naive: each newly reached fact triggers only the joins in which
//!    it takes part). Parameters are bound by joining along the positive
//!    conditions, with hash indexes on the bound argument positions, never
//!    by enumerating all parameter tuples ([`join`]). Each action, each of
//!    its effects that is conditional or quantified, and each
//!    derived-predicate rule is one rule of the fix-point ([`rules`]);
//!    negative conditions on fluent and derived facts are relaxed away
//!    (treated as reachable).
//! 3. Reachable facts and operators are numbered in sorted order, so the
//!    same input always gives the same [`Task`] ([`facts`], [`operators`],
//!    [`assemble`]). Conditional effects stay (condition, effect) pairs on
//!    their operator ([`effects`]); rules are sorted into layers
//!    ([`stratify`]).
//! 4. Derived facts that stand for a conjunction of literals (a `forall`
//!    whose guard is static, a derived predicate with one rule) are
//!    replaced by it in the conditions that use them ([`inline`]): the task
//!    may then have no axioms left, and every heuristic applies to it.
//! 5. Operators that apply in no reachable state by the task's invariants
//!    (two mutex preconditions) are removed ([`impossible`]).
//! 6. Constant and goal-irrelevant facts and operators are removed
//!    ([`simplify`]).
//! 7. The final task gets its invariant groups
//!    ([`crate::task::invariants`]), computed here once for all their users.
//!
//! Steps 5 and 6 keep tasks with conditional effects or derived facts as
//! they are (step 6 only drops derived facts nothing uses); step 7 finds
//! their groups too, derived facts left out.

mod assemble;
mod compile;
mod effects;
mod facts;
mod impossible;
mod inline;
mod join;
mod operators;
mod reach;
mod rules;
mod simplify;
mod stratify;
mod symbols;
#[cfg(test)]
mod tests;

use std::collections::VecDeque;
use std::time::Instant;

// FxHash: the grounder hashes millions of short `u32` tuples, for which
// SipHash is needlessly slow. Nothing depends on the maps' iteration order
// (what is collected from them is sorted), so the hash need not be randomized.
use rustc_hash::FxHashSet;

use crate::normalize::{self, NormalTask};
use crate::pddl::{Domain, Literal, PddlError, Problem};
use crate::task::invariants::invariant_groups;
use crate::task::{Invariants, Task};

use compile::{Compiler, Predicates};
use join::{Plan, Relation, Tuple};
use rules::{ActionSchema, AxiomSchema, EffectGroup, Plans, PredicateKinds, Rule, RuleSet};
use symbols::{Interner, Types};

/// Sizes and time of a grounding run, for the log.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GroundStats {
    pub facts: usize,
    pub operators: usize,
    pub static_facts: usize,
    /// Constant or goal-irrelevant facts removed after grounding.
    pub removed_facts: usize,
    /// Irrelevant or duplicate operators removed after grounding.
    pub removed_operators: usize,
    /// Operators removed because they apply in no reachable state.
    pub impossible_operators: usize,
    /// Derived facts replaced by the conditions they stand for ([`inline`]).
    pub inlined_derived_facts: usize,
    pub seconds: f64,
}

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GroundError {
    /// A goal fact is not reachable even in the delete relaxation: the task
    /// is proven unsolvable without search.
    #[error("goal {0} is unreachable (relaxed reachability): the task is unsolvable")]
    GoalUnreachable(String),
    /// The task uses something the grounder cannot handle (named).
    #[error("{0}")]
    Unsupported(String),
    /// An input error only grounding finds: a reached operator's cost
    /// needs a value the problem does not give.
    #[error("{0}")]
    Input(PddlError),
}

/// Grounds a checked domain and problem and simplifies the result.
/// Numbering is deterministic.
pub fn ground(domain: &Domain, problem: &Problem) -> Result<(Task, GroundStats), GroundError> {
    ground_normal(domain, problem, &normalize::normalize(domain, problem))
}

/// Grounds the normal form `normal` of a checked domain and problem (whose
/// types, objects, initial state and costs it reads) and simplifies the result.
pub fn ground_normal(
    domain: &Domain,
    problem: &Problem,
    normal: &NormalTask,
) -> Result<(Task, GroundStats), GroundError> {
    let start = Instant::now();
    let (task, mut stats) = ground_reachable(domain, problem, normal)?;
    let (task, inlined) = inline::inline_derived_facts(task);
    stats.inlined_derived_facts = inlined;
    let groups = invariant_groups(&task);
    let (task, impossible) = impossible::remove_impossible_operators(task, &groups);
    stats.impossible_operators = impossible;
    let (mut task, removed) = simplify::simplify(task)
        .map_err(|f| GroundError::GoalUnreachable(format!("(not {f}) (the fact is always true)")))?;
    // The task's groups are those of its final form: removing operators may
    // leave more invariants, and simplification renumbers facts. When
    // neither removed anything, the task is the one the groups came from;
    // otherwise they are computed when first asked for.
    if impossible == 0 && removed == simplify::Removed::default() {
        task.invariants = Invariants::known(groups);
    }
    stats.facts = task.num_facts();
    stats.operators = task.num_operators();
    stats.removed_facts = removed.facts;
    stats.removed_operators = removed.operators;
    stats.seconds = start.elapsed().as_secs_f64();
    Ok((task, stats))
}

/// The relaxed-reachable part of the task, before simplification.
fn ground_reachable(
    domain: &Domain,
    problem: &Problem,
    normal: &NormalTask,
) -> Result<(Task, GroundStats), GroundError> {
    let start = Instant::now();
    let mut grounder = Grounder::new(domain, problem, normal)?;
    // A stop while grounding names the rule at work (an action, its
    // effects, a derived predicate) and its size.
    crate::limits::set_items(grounder.rules.iter().map(|r| grounder.describe_size(r)).collect());
    grounder.reach();
    let static_facts = grounder.num_static_facts();
    let task = grounder.into_task(problem)?;
    let stats = GroundStats {
        facts: task.num_facts(),
        operators: task.num_operators(),
        static_facts,
        removed_facts: 0,
        removed_operators: 0,
        impossible_operators: 0,
        inlined_derived_facts: 0,
        seconds: start.elapsed().as_secs_f64(),
    };
    Ok((task, stats))
}

/// The name of the equality predicate.
const EQUALITY: &str = "=";

/// The state of grounding: the interned task, its rules, and the
/// fix-point's progress, which [`Grounder::into_task`] turns into a task.
struct Grounder<'a> {
    objects: Interner,
    predicates: Interner,
    types: Types,
    is_static: Vec<bool>,
    is_derived: Vec<bool>,
    /// Per predicate: static facts (for static predicates) or the fluent
    /// facts reached and already processed by the fix-point.
    relations: Vec<Relation>,
    /// Per predicate: fluent facts reached (processed or queued).
    reached: Vec<FxHashSet<Tuple>>,
    rules: Vec<Rule>,
    actions: Vec<ActionSchema<'a>>,
    effect_groups: Vec<EffectGroup>,
    axioms: Vec<AxiomSchema>,
    goal: &'a [Literal],
    /// Plans of rules without positive fluent conditions.
    untriggered: Vec<Plan>,
    /// Per predicate: plans triggered by a new fact of it.
    triggered: Vec<Vec<Plan>>,
    queue: VecDeque<(u32, Tuple)>,
    /// Per rule: the bindings reached.
    found: Vec<FxHashSet<Tuple>>,
    init_fluent: Vec<(u32, Tuple)>,
    uses_costs: bool,
    /// The domain's file, for the place of a cost value the problem lacks.
    domain_file: String,
}

impl<'a> Grounder<'a> {
    /// Interns the task, tells static predicates from fluent ones, and
    /// makes the rules of the fix-point with their join plans.
    fn new(domain: &Domain, problem: &Problem, normal: &'a NormalTask) -> Result<Grounder<'a>, GroundError> {
        let mut objects = Interner::default();
        let mut types = Types::new(domain, problem, &mut objects);
        // Every atom is interned first, so that arities are known and
        // fluent predicates marked before anything is grounded.
        let mut compiler = Compiler::new(objects, domain, normal)?;
        let actions = normal
            .actions
            .iter()
            .map(|a| compiler.action(a))
            .collect::<Result<Vec<_>, _>>()?;
        let axioms = normal
            .axioms
            .iter()
            .map(|a| compiler.axiom(a))
            .collect::<Result<Vec<_>, _>>()?;
        compiler.declare_goal(&normal.goal)?;
        let init = compiler.init(problem)?;
        let Compiler {
            objects,
            predicates,
            equality,
            derived,
            fluent,
        } = compiler;
        let num_preds = predicates.names.len();
        let is_static: Vec<bool> = (0..num_preds as u32).map(|p| !fluent.contains(&p)).collect();
        let is_derived: Vec<bool> = (0..num_preds as u32).map(|p| derived.contains(&p)).collect();
        let (mut relations, init_fluent) = split_init(&predicates, &is_static, init);
        let kinds = PredicateKinds {
            equality,
            is_static: &is_static,
        };
        let RuleSet {
            rules,
            actions,
            effect_groups,
            axioms,
        } = RuleSet::new(actions, axioms, &mut types, kinds);
        let Plans { untriggered, triggered } = Plans::new(&rules, &is_static, &mut relations);
        let uses_costs = problem.minimize_total_cost && normal.actions.iter().any(|a| !a.costs.is_empty());
        Ok(Grounder {
            objects,
            predicates: predicates.names,
            types,
            is_static,
            is_derived,
            relations,
            reached: (0..num_preds).map(|_| FxHashSet::default()).collect(),
            found: (0..rules.len()).map(|_| FxHashSet::default()).collect(),
            rules,
            actions,
            effect_groups,
            axioms,
            goal: &normal.goal,
            untriggered,
            triggered,
            queue: VecDeque::new(),
            init_fluent,
            uses_costs,
            domain_file: domain.file.clone(),
        })
    }
}

/// One relation per predicate, holding the static initial facts (the
/// joins read them from the start), and the fluent initial facts, which
/// the fix-point reaches first.
fn split_init(
    predicates: &Predicates,
    is_static: &[bool],
    init: Vec<(u32, Tuple)>,
) -> (Vec<Relation>, Vec<(u32, Tuple)>) {
    let mut relations: Vec<Relation> = (0..predicates.names.len())
        .map(|p| Relation::new(predicates.arity(p)))
        .collect();
    let mut init_fluent = Vec::new();
    for (pred, args) in init {
        if is_static[pred as usize] {
            relations[pred as usize].insert(args);
        } else {
            init_fluent.push((pred, args));
        }
    }
    (relations, init_fluent)
}
