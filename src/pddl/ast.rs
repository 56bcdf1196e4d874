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

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Action {
    pub name: String,
    pub params: Vec<TypedName>,
    /// A conjunction of literals; empty for `()` or a missing precondition.
    pub precondition: Vec<Literal>,
    pub add: Vec<Atom>,
    pub del: Vec<Atom>,
    /// The `increase (total-cost)` effects; the action's cost is their sum.
    /// Empty means cost 1 under unit cost, 0 if the domain uses action costs
    /// (the convention of IPC action-cost domains).
    pub costs: Vec<CostExpr>,
    pub location: Location,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Domain {
    pub name: String,
    /// Requirement flags without the leading `:`, e.g. `strips`, `typing`.
    pub requirements: Vec<String>,
    pub types: Vec<TypeDecl>,
    pub constants: Vec<TypedName>,
    pub predicates: Vec<PredicateDecl>,
    pub functions: Vec<FunctionDecl>,
    pub actions: Vec<Action>,
}

/// A variable-free atom, as in the initial state and goals of a problem.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct GroundAtom {
    pub predicate: String,
    pub args: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GroundLiteral {
    pub positive: bool,
    pub atom: GroundAtom,
    pub location: Location,
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
    /// A conjunction of ground literals.
    pub goal: Vec<GroundLiteral>,
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
