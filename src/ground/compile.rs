//! Compiling the normal form to interned atoms: predicates and objects
//! become dense ids and variables become parameter indexes, so that the
//! fix-point joins and hashes `u32` tuples rather than names.
//!
//! Everything is interned before anything is grounded, so that each
//! predicate's arity is known (and checked to be one) and the predicates an
//! effect changes are marked fluent. The order of interning fixes the ids;
//! it is the order of the input.

use rustc_hash::{FxHashMap, FxHashSet};

use super::join::{Arg, SchemaAtom, Tuple};
use super::symbols::Interner;
use super::{EQUALITY, GroundError};
use crate::normalize::{NormalAction, NormalAxiom, NormalTask};
use crate::pddl::{Atom, Domain, Literal, Problem, Term, TypedName};

/// The parts of a rule's condition: (atom, positive) pairs.
pub(super) type Condition = Vec<(SchemaAtom, bool)>;

/// Interns predicates and checks that each is used with one arity.
pub(super) struct Predicates {
    pub names: Interner,
    arities: Vec<Option<usize>>,
}

impl Predicates {
    fn declare(&mut self, name: &str, arity: usize) -> Result<u32, GroundError> {
        let id = self.names.intern(name);
        if self.arities.len() <= id as usize {
            self.arities.resize(id as usize + 1, None);
        }
        match self.arities[id as usize] {
            None => self.arities[id as usize] = Some(arity),
            Some(a) if a == arity || name == EQUALITY => {}
            Some(a) => {
                return Err(GroundError::Unsupported(format!(
                    "predicate {name} is used with {arity} arguments but has {a}"
                )));
            }
        }
        Ok(id)
    }

    /// The arity of predicate `pred` (0 for one never given any).
    pub fn arity(&self, pred: usize) -> usize {
        self.arities.get(pred).copied().flatten().unwrap_or(0)
    }
}

/// Compiles atoms over a list of parameters into [`SchemaAtom`]s.
struct Scope<'s> {
    /// Parameter names to indexes (a later parameter of the same name hides
    /// an earlier one, as an inner quantifier does).
    params: FxHashMap<&'s str, usize>,
    /// What the atoms belong to, for error messages.
    context: String,
}

impl<'s> Scope<'s> {
    fn new(params: impl IntoIterator<Item = &'s TypedName>, context: String) -> Self {
        let params = params
            .into_iter()
            .enumerate()
            .map(|(i, p)| (p.name.as_str(), i))
            .collect();
        Scope { params, context }
    }

    fn compile(
        &self,
        atom: &Atom,
        predicates: &mut Predicates,
        objects: &mut Interner,
    ) -> Result<SchemaAtom, GroundError> {
        if atom.args.len() > 64 {
            return Err(GroundError::Unsupported(format!(
                "predicate {} has more than 64 arguments",
                atom.predicate
            )));
        }
        let pred = predicates.declare(&atom.predicate, atom.args.len())?;
        let args = atom
            .args
            .iter()
            .map(|t| match t {
                Term::Variable(v) => self.params.get(v.as_str()).map(|&i| Arg::Var(i)).ok_or_else(|| {
                    GroundError::Unsupported(format!("{}: variable {v} is not a parameter", self.context))
                }),
                Term::Constant(c) => Ok(Arg::Obj(objects.intern(c))),
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(SchemaAtom { pred, args })
    }

    fn compile_literals(
        &self,
        literals: &[Literal],
        predicates: &mut Predicates,
        objects: &mut Interner,
    ) -> Result<Condition, GroundError> {
        literals
            .iter()
            .map(|l| Ok((self.compile(&l.atom, predicates, objects)?, l.positive)))
            .collect()
    }
}

/// An action with interned atoms: its whole precondition, its plain
/// effects, and its effects with a condition or quantified variables in
/// groups.
pub(super) struct CompiledAction<'a> {
    pub normal: &'a NormalAction,
    pub pre: Condition,
    /// Effects without condition or quantified variables.
    pub add: Vec<SchemaAtom>,
    pub del: Vec<SchemaAtom>,
    pub groups: Vec<CompiledGroup<'a>>,
}

/// The effects of an action that share quantified variables and a
/// condition.
pub(super) struct CompiledGroup<'a> {
    pub vars: &'a [TypedName],
    /// The condition as written, to find the group of the next effect.
    written: &'a [Literal],
    pub condition: Condition,
    pub add: Vec<SchemaAtom>,
    pub del: Vec<SchemaAtom>,
}

/// A derived-predicate rule with interned atoms.
pub(super) struct CompiledAxiom<'a> {
    pub params: &'a [TypedName],
    pub head: SchemaAtom,
    pub body: Condition,
}

/// The symbol tables that compiling fills in, and what it learns about
/// predicates.
pub(super) struct Compiler {
    pub objects: Interner,
    pub predicates: Predicates,
    /// The id of the equality predicate.
    pub equality: u32,
    /// Derived predicates.
    pub derived: FxHashSet<u32>,
    /// Predicates that an effect changes or a rule derives.
    pub fluent: FxHashSet<u32>,
}

impl Compiler {
    /// Declares equality and the domain's predicates, then the derived
    /// ones; `objects` already holds the declared objects.
    pub fn new(objects: Interner, domain: &Domain, normal: &NormalTask) -> Result<Compiler, GroundError> {
        let mut predicates = Predicates {
            names: Interner::default(),
            arities: Vec::new(),
        };
        let equality = predicates.declare(EQUALITY, 2)?;
        for p in domain.predicates.iter().chain(&normal.derived_predicates) {
            predicates.declare(&p.name, p.params.len())?;
        }
        let derived: FxHashSet<u32> = normal
            .derived_predicates
            .iter()
            .map(|p| predicates.names.intern(&p.name))
            .collect();
        Ok(Compiler {
            objects,
            predicates,
            equality,
            fluent: derived.clone(),
            derived,
        })
    }

    /// Compiles an action, grouping its effects by quantified variables
    /// and condition, and marks the predicates of its effects fluent.
    pub fn action<'a>(&mut self, action: &'a NormalAction) -> Result<CompiledAction<'a>, GroundError> {
        let context = format!("action {}", action.name);
        let scope = Scope::new(&action.params, context.clone());
        let pre = scope.compile_literals(&action.precondition, &mut self.predicates, &mut self.objects)?;
        let mut compiled = CompiledAction {
            normal: action,
            pre,
            add: Vec::new(),
            del: Vec::new(),
            groups: Vec::new(),
        };
        for effect in &action.effects {
            let scope = Scope::new(action.params.iter().chain(&effect.vars), context.clone());
            let atom = scope.compile(&effect.literal.atom, &mut self.predicates, &mut self.objects)?;
            self.check_effect(action, &effect.literal.atom, &atom)?;
            self.fluent.insert(atom.pred);
            let positive = effect.literal.positive;
            if effect.vars.is_empty() && effect.condition.is_empty() {
                if positive { &mut compiled.add } else { &mut compiled.del }.push(atom);
                continue;
            }
            let at = match compiled
                .groups
                .iter()
                .position(|g| g.vars == effect.vars.as_slice() && g.written == effect.condition.as_slice())
            {
                Some(at) => at,
                None => {
                    let condition =
                        scope.compile_literals(&effect.condition, &mut self.predicates, &mut self.objects)?;
                    compiled.groups.push(CompiledGroup {
                        vars: &effect.vars,
                        written: &effect.condition,
                        condition,
                        add: Vec::new(),
                        del: Vec::new(),
                    });
                    compiled.groups.len() - 1
                }
            };
            let group = &mut compiled.groups[at];
            if positive { &mut group.add } else { &mut group.del }.push(atom);
        }
        Ok(compiled)
    }

    /// Refuses an effect on equality or on a derived predicate.
    fn check_effect(&self, action: &NormalAction, written: &Atom, atom: &SchemaAtom) -> Result<(), GroundError> {
        if atom.pred == self.equality {
            return Err(GroundError::Unsupported(format!(
                "action {} has an effect on equality",
                action.name
            )));
        }
        if self.derived.contains(&atom.pred) {
            return Err(GroundError::Unsupported(format!(
                "action {} has an effect on the derived predicate {}",
                action.name, written.predicate
            )));
        }
        Ok(())
    }

    pub fn axiom<'a>(&mut self, axiom: &'a NormalAxiom) -> Result<CompiledAxiom<'a>, GroundError> {
        let context = format!("rule of {}", axiom.head.predicate);
        let scope = Scope::new(&axiom.params, context);
        let head = scope.compile(&axiom.head, &mut self.predicates, &mut self.objects)?;
        let body = scope.compile_literals(&axiom.body, &mut self.predicates, &mut self.objects)?;
        Ok(CompiledAxiom {
            params: &axiom.params,
            head,
            body,
        })
    }

    /// Declares the goal's predicates, so that they have an arity.
    pub fn declare_goal(&mut self, goal: &[Literal]) -> Result<(), GroundError> {
        for l in goal {
            if l.atom.predicate != EQUALITY {
                self.predicates.declare(&l.atom.predicate, l.atom.args.len())?;
            }
        }
        Ok(())
    }

    /// The initial facts, interned; equality and derived facts are never
    /// given, only decided or derived.
    pub fn init(&mut self, problem: &Problem) -> Result<Vec<(u32, Tuple)>, GroundError> {
        let mut init = Vec::new();
        for atom in &problem.init {
            if atom.predicate == EQUALITY {
                continue;
            }
            let pred = self.predicates.declare(&atom.predicate, atom.args.len())?;
            if self.derived.contains(&pred) {
                continue;
            }
            let args: Tuple = atom.args.iter().map(|a| self.objects.intern(a)).collect();
            init.push((pred, args));
        }
        Ok(init)
    }
}
