//! The declared type hierarchy: the one reading of `(:types ...)` that the
//! checks, the grounder, the validator and the pictures share.

use std::collections::{HashMap, HashSet};

use super::ast::Domain;

/// The implicit root: every type is a subtype of it.
const OBJECT: &str = "object";

/// Each declared type with its parents. A type declared more than once has
/// the parents of all its declarations, as `- (either a b)` gives two.
pub struct TypeHierarchy<'a> {
    parents: HashMap<&'a str, Vec<&'a str>>,
}

impl<'a> TypeHierarchy<'a> {
    pub fn new(domain: &'a Domain) -> Self {
        let mut parents: HashMap<&str, Vec<&str>> = HashMap::new();
        for decl in &domain.types {
            parents
                .entry(decl.name.as_str())
                .or_default()
                .extend(decl.parents.iter().map(String::as_str));
        }
        TypeHierarchy { parents }
    }

    /// Whether `ty` is `object` or a declared type.
    pub fn is_declared(&self, ty: &str) -> bool {
        ty == OBJECT || self.parents.contains_key(ty)
    }

    /// `types` and all their ancestors, each once, `object` first. The walk
    /// remembers where it has been, so cyclic declarations (sloppy input)
    /// end it.
    pub fn ancestors<'s, S: AsRef<str>>(&'s self, types: &'s [S]) -> Vec<&'s str> {
        let mut found = vec![OBJECT];
        let mut seen: HashSet<&str> = HashSet::from([OBJECT]);
        let mut todo: Vec<&str> = types.iter().map(AsRef::as_ref).collect();
        while let Some(t) = todo.pop() {
            if seen.insert(t) {
                found.push(t);
                todo.extend(self.parents.get(t).into_iter().flatten().copied());
            }
        }
        found
    }

    /// Whether `ty` is `of` or below it.
    pub fn is_subtype(&self, ty: &str, of: &str) -> bool {
        self.fits(&[ty], &[of])
    }

    /// Whether an object declared with the types `have` may stand where one
    /// of `want` is needed (`want` is an `either` list, or a single type).
    pub fn fits<H: AsRef<str>, W: AsRef<str>>(&self, have: &[H], want: &[W]) -> bool {
        let at_once = want.iter().any(|w| {
            let w = w.as_ref();
            w == OBJECT || have.iter().any(|h| h.as_ref() == w)
        });
        at_once || {
            let ancestors = self.ancestors(have);
            want.iter().any(|w| ancestors.contains(&w.as_ref()))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pddl::TypeDecl;

    fn domain(types: &[(&str, &[&str])]) -> Domain {
        Domain {
            file: String::new(),
            name: "d".to_string(),
            requirements: Vec::new(),
            types: types
                .iter()
                .map(|(name, parents)| TypeDecl {
                    name: name.to_string(),
                    parents: parents.iter().map(|p| p.to_string()).collect(),
                })
                .collect(),
            constants: Vec::new(),
            predicates: Vec::new(),
            functions: Vec::new(),
            actions: Vec::new(),
            derived: Vec::new(),
        }
    }

    #[test]
    fn subtypes_follow_every_parent_up_to_object() {
        let d = domain(&[
            ("vehicle", &["object"]),
            ("truck", &["vehicle"]),
            ("amphibian", &["vehicle", "boat"]),
            ("boat", &["object"]),
        ]);
        let h = TypeHierarchy::new(&d);
        assert!(h.is_subtype("truck", "vehicle"));
        assert!(h.is_subtype("truck", "truck"));
        assert!(h.is_subtype("amphibian", "boat"));
        assert!(h.is_subtype("truck", "object"));
        assert!(!h.is_subtype("truck", "boat"));
        assert!(!h.is_subtype("vehicle", "truck"));
        assert_eq!(h.ancestors(&["amphibian"]), ["object", "amphibian", "boat", "vehicle"]);
        assert!(h.is_declared("object") && h.is_declared("boat") && !h.is_declared("car"));
    }

    #[test]
    fn either_on_either_side_and_repeated_declarations_add_up() {
        let d = domain(&[("a", &["object"]), ("b", &["object"]), ("c", &["a"]), ("c", &["b"])]);
        let h = TypeHierarchy::new(&d);
        assert!(h.is_subtype("c", "a") && h.is_subtype("c", "b"));
        assert!(h.fits(&["a", "b"], &["b"]));
        assert!(h.fits(&["c"], &["b", "x"]));
        assert!(!h.fits(&["a"], &["b", "c"]));
        // An object without declared types is still an `object`.
        assert!(h.fits::<&str, &str>(&[], &["object"]));
        assert!(!h.fits::<&str, &str>(&[], &["a"]));
    }

    #[test]
    fn cyclic_declarations_end_the_walk() {
        let d = domain(&[("a", &["b"]), ("b", &["a"])]);
        let h = TypeHierarchy::new(&d);
        assert!(h.is_subtype("a", "b") && h.is_subtype("b", "a"));
        assert!(!h.is_subtype("a", "c"));
        assert_eq!(h.ancestors(&["a"]), ["object", "a", "b"]);
    }
}
