//! Interning of names to dense `u32` ids and the object sets of types.

use indexmap::{IndexMap, IndexSet, map::Slice};
use rustc_hash::{FxBuildHasher, FxHashMap};

use crate::pddl::{Domain, Problem, TypeHierarchy, TypedName};

/// Names ↔ dense ids: a name's id is its position in insertion order.
#[derive(Default)]
pub(super) struct Interner {
    names: IndexSet<String, FxBuildHasher>,
}

impl Interner {
    pub fn intern(&mut self, name: &str) -> u32 {
        let id = match self.names.get_index_of(name) {
            Some(id) => id,
            None => self.names.insert_full(name.to_string()).0,
        };
        id as u32
    }

    pub fn get(&self, name: &str) -> Option<u32> {
        self.names.get_index_of(name).map(|id| id as u32)
    }

    pub fn name(&self, id: u32) -> &str {
        &self.names[id as usize]
    }

    pub fn len(&self) -> usize {
        self.names.len()
    }
}

/// The objects a parameter may take: a sorted list to enumerate and a
/// membership table to check bindings found by joins.
pub(super) struct ObjectSet {
    pub objects: Vec<u32>,
    member: Vec<bool>,
    /// Every declared object: checks can be skipped.
    pub is_everything: bool,
}

impl ObjectSet {
    #[inline]
    pub fn contains(&self, object: u32) -> bool {
        self.member.get(object as usize) == Some(&true)
    }
}

/// The declared objects (problem objects and domain constants, interned
/// first, so their ids are `0..num_declared`) and the object sets of types.
pub(super) struct Types {
    /// Declared objects of each type, including subtypes' objects.
    members: FxHashMap<String, Vec<u32>>,
    num_declared: usize,
    /// Object sets of parameter type lists already built, by the list; a
    /// set's id is its position.
    sets: IndexMap<Vec<String>, ObjectSet, FxBuildHasher>,
}

/// The object sets by id.
pub(super) type ObjectSets = Slice<Vec<String>, ObjectSet>;

impl Types {
    /// Interns the declared objects into `objects` and computes type members:
    /// an object of type `t` belongs to `t` and all of `t`'s ancestors, an
    /// `either` type to each of its alternatives.
    pub fn new(domain: &Domain, problem: &Problem, objects: &mut Interner) -> Types {
        let hierarchy = TypeHierarchy::new(domain);
        let declared: Vec<&TypedName> = domain.constants.iter().chain(problem.objects.iter()).collect();
        let mut members: FxHashMap<String, Vec<u32>> = FxHashMap::default();
        for obj in &declared {
            let id = objects.intern(&obj.name);
            for t in hierarchy.ancestors(&obj.types) {
                members.entry(t.to_string()).or_default().push(id);
            }
        }
        let num_declared = objects.len();
        members.insert("object".to_string(), (0..num_declared as u32).collect());
        for list in members.values_mut() {
            list.sort_unstable();
            list.dedup();
        }
        Types {
            members,
            num_declared,
            sets: IndexMap::default(),
        }
    }

    /// The id of the object set of a parameter typed `types` (`either` = union).
    pub fn set_for(&mut self, types: &[String]) -> usize {
        if let Some(id) = self.sets.get_index_of(types) {
            return id;
        }
        let is_everything = types.iter().any(|t| t == "object");
        let mut objects: Vec<u32> = Vec::new();
        for t in types {
            if let Some(m) = self.members.get(t) {
                objects.extend_from_slice(m);
            }
        }
        objects.sort_unstable();
        objects.dedup();
        let mut member = vec![false; self.num_declared];
        for &o in &objects {
            member[o as usize] = true;
        }
        let set = ObjectSet {
            objects,
            member,
            is_everything,
        };
        self.sets.insert_full(types.to_vec(), set).0
    }

    pub fn sets(&self) -> &ObjectSets {
        self.sets.as_slice()
    }
}
