//! The typed PDDL abstract syntax tree. All names are lower-case (PDDL is
//! case-insensitive); variables keep their leading `?`.

/// A position in a source file, 1-based.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Location {
    pub line: usize,
    pub col: usize,
}

/// Line and column of byte offsets asked for in increasing order, in one pass
/// over the text (pest's own `line_col` counts from the start of the line on
/// every call, which is quadratic in the length of a long line: a one-line
/// file of 8 MB took minutes). A line ends
/// at `\n`; a column counts characters.
pub struct Places<'t> {
    text: &'t str,
    offset: usize,
    location: Location,
}

impl<'t> Places<'t> {
    pub fn new(text: &'t str) -> Self {
        Places {
            text,
            offset: 0,
            location: Location { line: 1, col: 1 },
        }
    }

    pub fn at(&mut self, offset: usize) -> Location {
        for c in self.text[self.offset..offset].chars() {
            if c == '\n' {
                self.location.line += 1;
                self.location.col = 1;
            } else {
                self.location.col += 1;
            }
        }
        self.offset = offset;
        self.location
    }
}

/// A declared type and the types it is a subtype of (`- (either a b)` gives two
/// parents). Types without a declared parent have the parent `object`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TypeDecl {
    pub name: String,
    pub parents: Vec<String>,
}

/// A typed name: an object, a constant or a parameter (`?x - (either a b)`).
/// `types` is never empty; untyped names have the type `object`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TypedName {
    pub name: String,
    pub types: Vec<String>,
    pub location: Location,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PredicateDecl {
    pub name: String,
    pub params: Vec<TypedName>,
    pub location: Location,
}

/// A numeric function declaration such as `(road-length ?a ?b - location)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FunctionDecl {
    pub name: String,
    pub params: Vec<TypedName>,
    pub location: Location,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Term {
    /// A variable, including its leading `?`.
    Variable(String),
    /// An object or constant name.
    Constant(String),
}

/// An atom `(p t1 ... tn)`. Equality is the predicate `=`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Atom {
    pub predicate: String,
    pub args: Vec<Term>,
    pub location: Location,
}

#[cfg(test)]
impl Atom {
    /// The atom written `p ?x c` (words starting with `?` are variables),
    /// with no location: for tests.
    pub fn from_words(text: &str) -> Atom {
        let mut words = text.split_whitespace();
        let predicate = words.next().unwrap_or_default().to_string();
        let args = words
            .map(|w| match w.starts_with('?') {
                true => Term::Variable(w.to_string()),
                false => Term::Constant(w.to_string()),
            })
            .collect();
        Atom {
            predicate,
            args,
            location: Location::default(),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Literal {
    pub positive: bool,
    pub atom: Atom,
}

/// The amount of one `(increase (total-cost) X)` effect.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CostExpr {
    Constant(i64),
    /// A static numeric function applied to terms, e.g. `(road-length ?x ?y)`.
    Function {
        name: String,
        args: Vec<Term>,
        location: Location,
    },
}

/// A condition: a precondition, a goal, the condition of a `when`, or the
/// body of a derived predicate. Equality is the atom `(= t1 t2)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Condition {
    Atom(Atom),
    Not(Box<Condition>),
    /// `(and)` and the empty condition `()` are the empty conjunction, true.
    And(Vec<Condition>),
    Or(Vec<Condition>),
    Imply(Box<Condition>, Box<Condition>),
    Exists(Vec<TypedName>, Box<Condition>),
    Forall(Vec<TypedName>, Box<Condition>),
}

/// An action's effect, without its `increase (total-cost)` parts (those are
/// [`Action::costs`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Effect {
    /// The atom becomes true.
    Add(Atom),
    /// `(not atom)`: the atom becomes false.
    Delete(Atom),
    And(Vec<Effect>),
    /// `(when condition effect)`: the effect happens if the condition holds
    /// in the state before the action.
    When(Condition, Box<Effect>),
    /// `(forall (vars) effect)`: the effect for every binding of the variables.
    Forall(Vec<TypedName>, Box<Effect>),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Action {
    pub name: String,
    pub params: Vec<TypedName>,
    /// `And([])` for `()` or a missing precondition.
    pub precondition: Condition,
    /// `And([])` for a missing effect.
    pub effect: Effect,
    /// The `increase (total-cost)` effects; the action's cost is their sum.
    /// Empty means cost 1 under unit cost, 0 if the domain uses action costs
    /// (the convention of IPC action-cost domains).
    pub costs: Vec<CostExpr>,
    pub location: Location,
}

/// A rule `(:derived (p ?x - t ...) condition)`: `p` holds for the objects
/// for which the condition holds (the least fixed point over all rules of
/// the domain, stratified by negation).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DerivedRule {
    pub predicate: String,
    pub params: Vec<TypedName>,
    pub body: Condition,
    pub location: Location,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Domain {
    pub name: String,
    /// The file it was read from (`<domain>` for text), for the input
    /// errors only grounding finds (a cost value the problem lacks).
    pub file: String,
    /// Requirement flags without the leading `:`, e.g. `strips`, `typing`.
    pub requirements: Vec<String>,
    pub types: Vec<TypeDecl>,
    pub constants: Vec<TypedName>,
    pub predicates: Vec<PredicateDecl>,
    pub functions: Vec<FunctionDecl>,
    pub actions: Vec<Action>,
    /// The `:derived` rules; their predicates are declared in `predicates`.
    pub derived: Vec<DerivedRule>,
}

/// A variable-free atom, as in the initial state and goals of a problem.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct GroundAtom {
    pub predicate: String,
    pub args: Vec<String>,
}

/// `(= (f a b) 7)` in the initial state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NumericFact {
    pub function: String,
    pub args: Vec<String>,
    pub value: i64,
    pub location: Location,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    pub name: String,
    pub domain: String,
    pub objects: Vec<TypedName>,
    pub init: Vec<GroundAtom>,
    pub numeric_init: Vec<NumericFact>,
    /// Its atoms' arguments are objects, constants or quantified variables.
    pub goal: Condition,
    /// `(:metric minimize (total-cost))` was given.
    pub minimize_total_cost: bool,
}

impl std::fmt::Display for GroundAtom {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "({}", self.predicate)?;
        for a in &self.args {
            write!(f, " {a}")?;
        }
        write!(f, ")")
    }
}

impl Condition {
    /// The condition that always holds: the empty conjunction.
    pub fn truth() -> Condition {
        Condition::And(Vec::new())
    }

    /// `atom` or `(not atom)`.
    pub fn literal(positive: bool, atom: Atom) -> Condition {
        if positive {
            Condition::Atom(atom)
        } else {
            Condition::Not(Box::new(Condition::Atom(atom)))
        }
    }

    /// The conjunction of `literals`, as a STRIPS precondition reads.
    pub fn conjunction(literals: impl IntoIterator<Item = Literal>) -> Condition {
        Condition::And(
            literals
                .into_iter()
                .map(|l| Condition::literal(l.positive, l.atom))
                .collect(),
        )
    }
}

impl Condition {
    /// The variables that occur in the condition outside any quantifier
    /// that binds them, in the order they first occur.
    pub fn free_variables(&self) -> Vec<String> {
        let mut out = Vec::new();
        self.collect_free(&mut Vec::new(), &mut out);
        out
    }

    fn collect_free<'c>(&'c self, bound: &mut Vec<&'c str>, out: &mut Vec<String>) {
        match self {
            Condition::Atom(a) => {
                for t in &a.args {
                    if let Term::Variable(v) = t
                        && !bound.contains(&v.as_str())
                        && !out.contains(v)
                    {
                        out.push(v.clone());
                    }
                }
            }
            Condition::Not(inner) => inner.collect_free(bound, out),
            Condition::And(parts) | Condition::Or(parts) => {
                for p in parts {
                    p.collect_free(bound, out);
                }
            }
            Condition::Imply(a, b) => {
                a.collect_free(bound, out);
                b.collect_free(bound, out);
            }
            Condition::Exists(vars, body) | Condition::Forall(vars, body) => {
                let depth = bound.len();
                bound.extend(vars.iter().map(|v| v.name.as_str()));
                body.collect_free(bound, out);
                bound.truncate(depth);
            }
        }
    }
}

impl Effect {
    /// The effect of a STRIPS action: the deletes, then the adds.
    pub fn strips(add: impl IntoIterator<Item = Atom>, del: impl IntoIterator<Item = Atom>) -> Effect {
        Effect::And(
            del.into_iter()
                .map(Effect::Delete)
                .chain(add.into_iter().map(Effect::Add))
                .collect(),
        )
    }
}

impl std::fmt::Display for Term {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Term::Variable(name) | Term::Constant(name) => write!(f, "{name}"),
        }
    }
}

impl std::fmt::Display for Atom {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "({}", self.predicate)?;
        for a in &self.args {
            write!(f, " {a}")?;
        }
        write!(f, ")")
    }
}

impl std::fmt::Display for Literal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.positive {
            write!(f, "{}", self.atom)
        } else {
            write!(f, "(not {})", self.atom)
        }
    }
}

/// `?x ?y - t ?z - (either a b)`, as in a quantifier or parameter list.
pub struct TypedList<'a>(pub &'a [TypedName]);

impl std::fmt::Display for TypedList<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for (i, v) in self.0.iter().enumerate() {
            if i > 0 {
                write!(f, " ")?;
            }
            write!(f, "{} - ", v.name)?;
            match v.types.as_slice() {
                [one] => write!(f, "{one}")?,
                many => write!(f, "(either {})", many.join(" "))?,
            }
        }
        Ok(())
    }
}

/// PDDL text, e.g. `(forall (?l - lamp) (off ?l))`.
impl std::fmt::Display for Condition {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let list = |f: &mut std::fmt::Formatter<'_>, word: &str, parts: &[Condition]| {
            write!(f, "({word}")?;
            for p in parts {
                write!(f, " {p}")?;
            }
            write!(f, ")")
        };
        match self {
            Condition::Atom(a) => write!(f, "{a}"),
            Condition::Not(c) => write!(f, "(not {c})"),
            Condition::And(parts) => list(f, "and", parts),
            Condition::Or(parts) => list(f, "or", parts),
            Condition::Imply(a, b) => write!(f, "(imply {a} {b})"),
            Condition::Exists(vars, c) => write!(f, "(exists ({}) {c})", TypedList(vars)),
            Condition::Forall(vars, c) => write!(f, "(forall ({}) {c})", TypedList(vars)),
        }
    }
}
