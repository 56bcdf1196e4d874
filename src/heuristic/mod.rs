//! Heuristics: estimates of the cost from a state to the goal.
//!
//! Every heuristic implements [`Heuristic`]. h_max, h_add and h_FF share one
//! relaxation engine ([`relax`]); LM-cut ([`lmcut`]) and pattern databases
//! ([`pdb`]) are the stronger admissible ones.

pub mod cost_type;
pub mod landmarks;
pub mod negated;
pub mod perimeter;
pub mod unary;

use std::time::Duration;

use crate::task::registry::StateId;
use crate::task::state::StateBits;
use crate::task::{OpId, Task};
use cost_type::{CostAdapted, CostType};

/// A heuristic value; `None` is a proven dead end (the goal cannot be reached
/// from the state, not even in the relaxation the heuristic uses).
pub type Estimate = Option<u64>;

pub trait Heuristic {
    /// Short name for logs, e.g. `hff`.
    fn name(&self) -> &str;

    /// Estimates the cost from `state` to the goal.
    fn evaluate(&mut self, state: &StateBits) -> Estimate;

    /// Preferred (helpful) operators of the state last evaluated; empty for
    /// heuristics that have none.
    fn preferred_operators(&self) -> &[OpId] {
        &[]
    }

    /// True when the estimate never exceeds the true cost, so that pruning on
    /// it is sound and its dead ends are real.
    fn is_admissible(&self) -> bool;

    /// True when the value depends on the path by which the search reached a
    /// state, not only on the state (landmark count: the landmarks reached on
    /// the way). The search then reports where it starts
    /// ([`Heuristic::notify_initial`]) and every transition it generates
    /// ([`Heuristic::notify_transition`]), and evaluates with
    /// [`Heuristic::evaluate_node`].
    fn is_path_dependent(&self) -> bool {
        false
    }

    /// The search starts in `state`, registered as `id`.
    fn notify_initial(&mut self, _id: StateId, _state: &StateBits) {}

    /// The search generated `child` from `parent` by `op`; also called when
    /// `child` was reached before by another path.
    fn notify_transition(
        &mut self,
        _parent: StateId,
        _parent_state: &StateBits,
        _op: OpId,
        _child: StateId,
        _child_state: &StateBits,
    ) {
    }

    /// The estimate for the search node of state `id`. Path-dependent
    /// heuristics read what they keep for the node; the others evaluate the
    /// state.
    fn evaluate_node(&mut self, _id: StateId, state: &StateBits) -> Estimate {
        self.evaluate(state)
    }

    /// What building the heuristic made, for the log (e.g. the pattern
    /// databases chosen); `None` for heuristics with nothing to report.
    fn build_report(&self) -> Option<String> {
        None
    }
}

/// How a heuristic is built for one run.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct BuildContext {
    /// The run's time limit, which sets the budget of heuristics that spend
    /// time before the search (PDBs).
    pub time_limit: Option<Duration>,
    /// A probe: a short first try whose result must not depend on the
    /// machine, so nothing is built against the clock.
    pub probe: bool,
    /// The action costs the heuristic sees (the search counts the task's).
    pub cost_type: CostType,
}

/// A heuristic as the registry knows it: its name, what it declares about
/// itself, and how to build it. Each heuristic's file defines its entry as a
/// `static`; [`KINDS`] lists them all, and the command line takes its values
/// from there.
pub struct HeuristicKind {
    /// Name on the command line and in logs, e.g. `hff`.
    pub name: &'static str,
    /// Other names a configuration may give it: Fast Downward's (`ff`).
    pub also_named: &'static [&'static str],
    /// One line for `--help`.
    pub help: &'static str,
    /// Never overestimates, so pruning on it is sound and its dead ends are
    /// real (A* with it returns optimal plans).
    pub admissible: bool,
    /// Offers preferred operators (helpful actions) for greedy search.
    pub preferred_operators: bool,
    /// The estimate sees negative goals (`(not ...)` in the goal); the
    /// others ignore them, which keeps admissible ones admissible but can
    /// give 0 in a state that is not a goal.
    pub negative_goals: bool,
    /// The estimate is what the entry declares (admissible or not) also on
    /// tasks with conditional effects.
    pub conditional_effects: bool,
    /// ... and on tasks with derived predicates (axioms).
    pub axioms: bool,
    pub build: fn(&Task, &BuildContext) -> Box<dyn Heuristic>,
}

/// The first feature of `task` that a heuristic handling only what the two
/// flags say cannot handle, named for messages; `None` if it handles the task.
pub fn unsupported_feature(conditional_effects: bool, axioms: bool, task: &Task) -> Option<&'static str> {
    if !conditional_effects && task.has_conditional_effects() {
        Some("conditional effects")
    } else if !axioms && task.has_axioms() {
        Some("derived predicates")
    } else {
        None
    }
}

impl HeuristicKind {
    /// Builds the heuristic without a time budget.
    pub fn build(&self, task: &Task) -> Box<dyn Heuristic> {
        (self.build)(task, &BuildContext::default())
    }

    /// Builds the heuristic for one run, on the costs `context.cost_type`
    /// names: this is the one place where costs are adapted.
    pub fn build_with(&self, task: &Task, context: &BuildContext) -> Box<dyn Heuristic> {
        if context.cost_type == CostType::Normal {
            return (self.build)(task, context);
        }
        let adapted = context.cost_type.adapted_task(task);
        let inner = (self.build)(adapted.as_ref().unwrap_or(task), context);
        Box::new(CostAdapted::new(inner, context.cost_type, adapted.is_some()))
    }

    /// The feature of `task` this heuristic cannot handle, if any.
    pub fn unsupported_feature(&self, task: &Task) -> Option<&'static str> {
        unsupported_feature(self.conditional_effects, self.axioms, task)
    }

    /// `--help` text: the help line and the declared properties.
    pub fn describe(&self) -> String {
        let mut properties = vec![if self.admissible { "admissible" } else { "inadmissible" }];
        if self.preferred_operators {
            properties.push("preferred operators");
        }
        if !self.negative_goals {
            properties.push("ignores negative goals");
        }
        if !self.conditional_effects {
            properties.push("no conditional effects");
        }
        if !self.axioms {
            properties.push("no derived predicates");
        }
        format!("{} ({})", self.help, properties.join(", "))
    }
}

// Entries are compared and printed by name: the name is the identity.
impl PartialEq for HeuristicKind {
    fn eq(&self, other: &Self) -> bool {
        self.name == other.name
    }
}

impl std::fmt::Debug for HeuristicKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name)
    }
}

/// Declares the heuristic modules and the registry [`KINDS`]: one line per
/// file, naming the `static` entries it defines.
macro_rules! registry {
    ($($module:ident: $($entry:ident),+;)+) => {
        $(pub mod $module;)+
        /// Every heuristic the command line offers, in `--help` order.
        pub static KINDS: &[&HeuristicKind] = &[$($(&$module::$entry),+),+];
    };
}

registry! {
    blind: BLIND;
    goalcount: GOAL_COUNT;
    relax: HMAX, HADD, HFF;
    lmcut: LM_CUT;
    lmcount: LM_COUNT;
    pdb: PDB;
}

/// The registered heuristic of this name.
pub fn kind(name: &str) -> Option<&'static HeuristicKind> {
    KINDS.iter().copied().find(|k| k.name == name)
}

/// The registered heuristic of this name or another name it has.
pub fn named(name: &str) -> Option<&'static HeuristicKind> {
    kind(name).or_else(|| KINDS.iter().copied().find(|k| k.also_named.contains(&name)))
}

#[cfg(test)]
mod registry_tests {
    use super::*;
    use crate::rng::Lcg;
    use crate::task::testing::{OpSpec, random_task, state, task};

    /// What an entry declares is what its heuristic does.
    #[test]
    fn entries_declare_what_their_heuristics_do() {
        let mut names: Vec<&str> = KINDS.iter().map(|k| k.name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), KINDS.len(), "heuristic names are unique");
        // Other names find their entry and clash with no name.
        let mut all: Vec<&str> = KINDS
            .iter()
            .flat_map(|k| std::iter::once(k.name).chain(k.also_named.iter().copied()))
            .collect();
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), KINDS.iter().map(|k| 1 + k.also_named.len()).sum::<usize>());
        for k in KINDS {
            for &other in k.also_named {
                assert_eq!(named(other), Some(*k));
            }
        }
        let mut rng = Lcg::new(7);
        let task = random_task(&mut rng, 6, 8);
        for kind in KINDS {
            let h = kind.build(&task);
            assert_eq!(h.name(), kind.name);
            assert_eq!(h.is_admissible(), kind.admissible, "{}", kind.name);
            assert_eq!(self::kind(kind.name), Some(*kind));
            let mut h = h;
            h.evaluate(task.initial_state().bits());
            if !kind.preferred_operators {
                assert!(h.preferred_operators().is_empty(), "{}", kind.name);
            }
        }
    }

    /// A heuristic that declares it sees negative goals gives more than 0
    /// in a state that violates only a negative goal.
    #[test]
    fn negative_goals_are_seen_where_declared() {
        // op0: a -> del a (1), op1: b -> a (1); goal: b, not a.
        let ops: [OpSpec; 2] = [(&[0], &[], &[], &[0], 1), (&[1], &[], &[0], &[], 1)];
        let t = task(2, &ops, &[0, 1], &[1], &[0]);
        let s = state(2, &[0, 1]);
        for kind in KINDS.iter().filter(|k| k.negative_goals) {
            let h = kind.build(&t).evaluate(s.bits());
            assert_eq!(h, Some(1), "{}", kind.name);
        }
    }

    /// An admissible entry that declares it handles conditional effects and
    /// derived predicates stays admissible on tasks with them.
    #[test]
    fn declared_features_keep_admissibility() {
        let mut rng = Lcg::new(13);
        for _ in 0..50 {
            let task = crate::task::testing::random_adl_task(&mut rng, 6, 8);
            let perfect = crate::task::testing::perfect_costs(&task);
            for kind in KINDS.iter().filter(|k| k.unsupported_feature(&task).is_none()) {
                let mut h = kind.build(&task);
                for (s, cost) in &perfect {
                    match h.evaluate(s.bits()) {
                        Some(v) if kind.admissible => assert!(cost.is_none_or(|c| v <= c), "{}", kind.name),
                        None if kind.admissible => assert_eq!(*cost, None, "{}", kind.name),
                        _ => {}
                    }
                }
            }
        }
    }
}
