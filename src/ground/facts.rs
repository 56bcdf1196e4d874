//! Numbering the reached facts, and the ids of atoms under a binding.
//!
//! Facts are numbered in the order of their names, not of their ids or of
//! when they were reached, so that the same input always gives the same
//! task whatever the order of its declarations.

use rustc_hash::FxHashMap;

use super::Grounder;
use super::join::{SchemaAtom, Tuple};
use super::rules::FluentLiteral;
use crate::task::{Fact, FactId};

/// The numbers of the reached facts, by predicate and arguments.
pub(super) struct FactIds {
    ids: FxHashMap<(u32, Tuple), FactId>,
}

/// The reached facts, numbered.
pub(super) struct Numbered {
    pub facts: Vec<Fact>,
    /// Per fact: is it derived?
    pub derived: Vec<bool>,
    pub ids: FactIds,
}

impl FactIds {
    /// The id of the fact `pred(args)`, if it was reached.
    pub fn get(&self, pred: u32, args: Tuple) -> Option<FactId> {
        self.ids.get(&(pred, args)).copied()
    }

    /// The id of `atom` under `binding`, if it was reached.
    pub fn of(&self, atom: &SchemaAtom, binding: &[u32]) -> Option<FactId> {
        self.get(atom.pred, atom.ground(binding))
    }

    /// The facts of fluent literals under a binding: `None` when a
    /// positive one is unreachable (the condition never holds); negative
    /// ones on unreachable facts always hold and are left out.
    pub fn literals(&self, lits: &[FluentLiteral], binding: &[u32]) -> Option<(Vec<FactId>, Vec<FactId>)> {
        let (mut pos, mut neg) = (Vec::new(), Vec::new());
        for (atom, positive) in lits {
            match (self.of(atom, binding), positive) {
                (Some(f), true) => pos.push(f),
                (None, true) => return None,
                (Some(f), false) => neg.push(f),
                (None, false) => {}
            }
        }
        Some((pos, neg))
    }
}

impl Grounder<'_> {
    /// Numbers the reached facts in the order of their names.
    pub(super) fn number_facts(&self) -> Numbered {
        let mut keyed: Vec<(Fact, u32, Tuple)> = Vec::new();
        for (pred, set) in self.reached.iter().enumerate() {
            for args in set {
                keyed.push((self.fact_of(pred as u32, args), pred as u32, args.clone()));
            }
        }
        keyed.sort_unstable_by(|a, b| a.0.cmp(&b.0));
        let mut ids: FxHashMap<(u32, Tuple), FactId> = FxHashMap::default();
        let mut facts = Vec::with_capacity(keyed.len());
        let mut derived = Vec::with_capacity(keyed.len());
        for (i, (fact, pred, args)) in keyed.into_iter().enumerate() {
            ids.insert((pred, args), i as FactId);
            facts.push(fact);
            derived.push(self.is_derived[pred as usize]);
        }
        Numbered {
            facts,
            derived,
            ids: FactIds { ids },
        }
    }

    fn fact_of(&self, pred: u32, args: &[u32]) -> Fact {
        Fact {
            predicate: self.predicates.name(pred).to_string(),
            args: args.iter().map(|&o| self.objects.name(o).to_string()).collect(),
        }
    }
}
