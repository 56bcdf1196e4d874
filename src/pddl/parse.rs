//! Text to AST in two steps: the pest grammar reads the text as nested lists
//! of tokens ([`Sexp`]), then the readers below give those lists their PDDL
//! meaning. Keeping the grammar this small means that a construct corvus does
//! not support is still well-formed input here, so it is reported by name
//! (`:durative-action`, `assign`, ...) rather than as a syntax error.

use super::ast::*;
use super::{ErrorKind, PddlError};
use indexmap::IndexMap;
use pest::Parser;
use pest::error::{ErrorVariant, InputLocation};
use pest::iterators::Pair;

#[derive(pest_derive::Parser)]
#[grammar = "../grammar/pddl.pest"]
struct PddlGrammar;

/// Real PDDL nests a handful of levels; the limit keeps pest and the readers
/// (both recursive) far from the stack's end on hostile input.
const MAX_NESTING: usize = 100;

/// One token or parenthesized list, with the place it starts.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Sexp {
    pub token: Token,
    pub location: Location,
}

#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Token {
    List(Vec<Sexp>),
    /// A name, lower-cased.
    Name(String),
    /// A variable with its `?`, lower-cased.
    Variable(String),
    /// A keyword without its `:`, lower-cased.
    Keyword(String),
    Number(String),
    /// The `-` of a typed list.
    Dash,
    /// `=`, `<`, `+`, ...
    Operator(String),
}

impl Sexp {
    fn as_list(&self) -> Option<&[Sexp]> {
        match &self.token {
            Token::List(items) => Some(items),
            _ => None,
        }
    }

    fn as_name(&self) -> Option<&str> {
        match &self.token {
            Token::Name(n) => Some(n),
            _ => None,
        }
    }

    fn as_keyword(&self) -> Option<&str> {
        match &self.token {
            Token::Keyword(k) => Some(k),
            _ => None,
        }
    }

    /// The head of a list as a word: a name or an operator, so that `and`
    /// and `=` can be matched alike.
    fn head_word(&self) -> Option<&str> {
        match self.as_list()?.first()?.token {
            Token::Name(ref n) | Token::Operator(ref n) => Some(n),
            _ => None,
        }
    }

    /// How the token reads in an error message.
    fn describe(&self) -> String {
        match &self.token {
            Token::List(_) => "a list".to_string(),
            Token::Name(n) => format!("`{n}`"),
            Token::Variable(v) => format!("variable `{v}`"),
            Token::Keyword(k) => format!("`:{k}`"),
            Token::Number(n) => format!("number `{n}`"),
            Token::Dash => "`-`".to_string(),
            Token::Operator(o) => format!("`{o}`"),
        }
    }
}

/// Reads `text` into its single top-level list.
pub(crate) fn read_sexp(text: &str, file: &str) -> Result<Sexp, PddlError> {
    check_nesting(text, file)?;
    let mut pairs = PddlGrammar::parse(Rule::file, text).map_err(|e| syntax_error_from_pest(&e, text, file))?;
    let list = pairs
        .next()
        .and_then(|file_pair| file_pair.into_inner().find(|p| p.as_rule() == Rule::list))
        .ok_or_else(|| PddlError {
            kind: ErrorKind::Syntax,
            file: file.to_string(),
            location: Location { line: 1, col: 1 },
            message: "expected `(`".to_string(),
        })?;
    Ok(to_sexp(list, &mut Places::new(text)))
}

/// The pairs are visited in the order of the text, as [`Places`] needs.
fn to_sexp(pair: Pair<'_, Rule>, places: &mut Places) -> Sexp {
    crate::limits::checkpoint();
    let location = places.at(pair.as_span().start());
    let text = pair.as_str().to_lowercase();
    let token = match pair.as_rule() {
        Rule::list => Token::List(
            pair.into_inner()
                .filter(|p| !matches!(p.as_rule(), Rule::open | Rule::close))
                .map(|p| to_sexp(p, places))
                .collect(),
        ),
        Rule::variable => Token::Variable(text),
        Rule::keyword => Token::Keyword(text[1..].to_string()),
        Rule::number => Token::Number(text),
        Rule::dash => Token::Dash,
        Rule::operator => Token::Operator(text),
        _ => Token::Name(text),
    };
    Sexp { token, location }
}

/// Refuses nesting deeper than [`MAX_NESTING`] before pest recurses into it.
fn check_nesting(text: &str, file: &str) -> Result<(), PddlError> {
    let (mut depth, mut line, mut col, mut in_comment) = (0usize, 1usize, 1usize, false);
    for c in text.chars() {
        match c {
            '\n' => {
                in_comment = false;
                line += 1;
                col = 0;
            }
            // The grammar ends a comment at `\r` too (old Mac line ends).
            '\r' => in_comment = false,
            ';' => in_comment = true,
            '(' if !in_comment => {
                depth += 1;
                if depth > MAX_NESTING {
                    return Err(PddlError {
                        kind: ErrorKind::Syntax,
                        file: file.to_string(),
                        location: Location { line, col },
                        message: format!("lists nested deeper than {MAX_NESTING} levels"),
                    });
                }
            }
            ')' if !in_comment => depth = depth.saturating_sub(1),
            _ => {}
        }
        col += 1;
    }
    Ok(())
}

/// Turns pest's error into ours, naming the expected tokens in words.
fn syntax_error_from_pest(e: &pest::error::Error<Rule>, text: &str, file: &str) -> PddlError {
    let (line, col) = match e.line_col {
        pest::error::LineColLocation::Pos(p) | pest::error::LineColLocation::Span(p, _) => p,
    };
    let offset = match e.location {
        InputLocation::Pos(p) | InputLocation::Span((p, _)) => p,
    };
    let expected = match &e.variant {
        ErrorVariant::ParsingError { positives, .. } => expected_words(positives),
        ErrorVariant::CustomError { message } => message.clone(),
    };
    let found = match text.get(offset..).and_then(|rest| rest.chars().next()) {
        None => "end of file".to_string(),
        Some(c) if c.is_whitespace() => "whitespace".to_string(),
        Some(c) => format!("`{c}`"),
    };
    PddlError {
        kind: ErrorKind::Syntax,
        file: file.to_string(),
        location: Location { line, col },
        message: format!("expected {expected}, found {found}"),
    }
}

/// `[open, close, name, ...]` as "`(`, `)` or a name". Tokens that may start
/// a list item (names, variables, keywords, numbers, `-`, operators) are all
/// called "a name": that is what is missing in practice, and a list of six
/// alternatives helps nobody.
fn expected_words(rules: &[Rule]) -> String {
    let token_rules = [
        Rule::name,
        Rule::variable,
        Rule::keyword,
        Rule::number,
        Rule::dash,
        Rule::operator,
    ];
    let mut words: Vec<&str> = Vec::new();
    let mut push = |w: &'static str| {
        if !words.contains(&w) {
            words.push(w);
        }
    };
    for rule in rules {
        match rule {
            Rule::open | Rule::list => push("`(`"),
            Rule::close => push("`)`"),
            Rule::EOI => push("end of file"),
            r if token_rules.contains(r) => push("a name"),
            _ => push("a PDDL token"),
        }
    }
    match words.as_slice() {
        [] => "a PDDL token".to_string(),
        [one] => one.to_string(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}

/// The reading of one file: knows the file name for error messages.
struct Reader<'a> {
    file: &'a str,
}

type Res<T> = Result<T, PddlError>;

impl Reader<'_> {
    fn error(&self, kind: ErrorKind, location: Location, message: String) -> PddlError {
        PddlError {
            kind,
            file: self.file.to_string(),
            location,
            message,
        }
    }

    fn syntax(&self, location: Location, message: impl Into<String>) -> PddlError {
        self.error(ErrorKind::Syntax, location, message.into())
    }

    fn unsupported(&self, location: Location, construct: &str, what: &str) -> PddlError {
        self.error(
            ErrorKind::Unsupported,
            location,
            format!("unsupported PDDL feature: `{construct}` ({what})"),
        )
    }

    fn list<'s>(&self, s: &'s Sexp, what: &str) -> Res<&'s [Sexp]> {
        s.as_list().ok_or_else(|| {
            self.syntax(
                s.location,
                format!("expected `(` starting {what}, found {}", s.describe()),
            )
        })
    }

    fn name<'s>(&self, s: &'s Sexp, what: &str) -> Res<&'s str> {
        s.as_name()
            .ok_or_else(|| self.syntax(s.location, format!("expected {what}, found {}", s.describe())))
    }

    /// Splits `(define (<kind> NAME) SECTION...)` into its name and sections.
    fn define<'s>(&self, top: &'s Sexp, kind: &str) -> Res<(String, &'s [Sexp])> {
        let items = self.list(top, "`(define ...)`")?;
        let first = items
            .first()
            .ok_or_else(|| self.syntax(top.location, "expected `define`, found an empty list"))?;
        if first.as_name() != Some("define") {
            return Err(self.syntax(first.location, format!("expected `define`, found {}", first.describe())));
        }
        let header = items
            .get(1)
            .ok_or_else(|| self.syntax(first.location, format!("expected `({kind} NAME)` after `define`")))?;
        let parts = self.list(header, &format!("`({kind} NAME)`"))?;
        match parts {
            // The name is only a label: a number will do (`(problem 0)`), as
            // generated problem sets have it.
            [k, n] if k.as_name() == Some(kind) => match &n.token {
                Token::Number(label) => Ok((label.clone(), &items[2..])),
                _ => Ok((self.name(n, &format!("the {kind} name"))?.to_string(), &items[2..])),
            },
            [k, ..] if k.as_name() != Some(kind) => {
                let other = if kind == "domain" { "problem" } else { "domain" };
                let hint = if k.as_name() == Some(other) {
                    format!(" (this is a {other} file)")
                } else {
                    String::new()
                };
                Err(self.syntax(k.location, format!("expected `{kind}`, found {}{hint}", k.describe())))
            }
            _ => Err(self.syntax(header.location, format!("expected `({kind} NAME)`"))),
        }
    }

    /// A section `(:keyword ...)`: its keyword and the items after it.
    fn section<'s>(&self, s: &'s Sexp, owner: &str) -> Res<(&'s str, &'s [Sexp])> {
        let items = self.list(
            s,
            &format!(
                "a {owner} section such as `(:{})`",
                if owner == "domain" {
                    "predicates ..."
                } else {
                    "init ..."
                }
            ),
        )?;
        match items.first() {
            Some(first) => match first.as_keyword() {
                Some(k) => Ok((k, &items[1..])),
                None => Err(self.syntax(
                    first.location,
                    format!(
                        "expected a {owner} section keyword such as `:{}`, found {}",
                        if owner == "domain" { "action" } else { "init" },
                        first.describe()
                    ),
                )),
            },
            None => Err(self.syntax(s.location, format!("expected a {owner} section, found an empty list"))),
        }
    }

    fn requirements(&self, items: &[Sexp], out: &mut Vec<String>) -> Res<()> {
        for item in items {
            let flag = item.as_keyword().ok_or_else(|| {
                self.syntax(
                    item.location,
                    format!(
                        "expected a requirement flag such as `:strips`, found {}",
                        item.describe()
                    ),
                )
            })?;
            // Flags only announce constructs; the constructs themselves are
            // refused where they appear.
            if !out.iter().any(|f| f == flag) {
                out.push(flag.to_string());
            }
        }
        Ok(())
    }

    /// A typed list `a b - t c - (either t u) d`. `variables` says whether
    /// the names are variables (parameters) or plain names (objects, types).
    fn typed_list(&self, items: &[Sexp], variables: bool) -> Res<Vec<TypedName>> {
        let mut out: Vec<TypedName> = Vec::new();
        // Names read since the last `- type`; they get the next type.
        let mut untyped_from = 0;
        let mut i = 0;
        while i < items.len() {
            let item = &items[i];
            match &item.token {
                Token::Variable(v) if variables => out.push(TypedName {
                    name: v.clone(),
                    types: Vec::new(),
                    location: item.location,
                }),
                Token::Name(n) if !variables => out.push(TypedName {
                    name: n.clone(),
                    types: Vec::new(),
                    location: item.location,
                }),
                Token::Dash => {
                    if untyped_from == out.len() {
                        return Err(self.syntax(
                            item.location,
                            format!(
                                "expected {} before `-`",
                                if variables { "a variable" } else { "a name" }
                            ),
                        ));
                    }
                    let ty = items
                        .get(i + 1)
                        .ok_or_else(|| self.syntax(item.location, "expected a type after `-`"))?;
                    let types = self.type_spec(ty)?;
                    for t in &mut out[untyped_from..] {
                        t.types = types.clone();
                    }
                    untyped_from = out.len();
                    i += 1;
                }
                _ => {
                    return Err(self.syntax(
                        item.location,
                        format!(
                            "expected {} or `-`, found {}",
                            if variables { "a variable" } else { "a name" },
                            item.describe()
                        ),
                    ));
                }
            }
            i += 1;
        }
        for t in &mut out[untyped_from..] {
            t.types = vec!["object".to_string()];
        }
        Ok(out)
    }

    /// `t` or `(either t u ...)`.
    fn type_spec(&self, s: &Sexp) -> Res<Vec<String>> {
        if let Some(n) = s.as_name() {
            return Ok(vec![n.to_string()]);
        }
        match s.as_list() {
            Some([head, rest @ ..]) if head.as_name() == Some("either") && !rest.is_empty() => rest
                .iter()
                .map(|t| self.name(t, "a type name").map(str::to_string))
                .collect(),
            _ => Err(self.syntax(
                s.location,
                format!("expected a type name or `(either ...)`, found {}", s.describe()),
            )),
        }
    }

    fn predicate_decl(&self, s: &Sexp) -> Res<PredicateDecl> {
        let items = self.list(s, "a predicate declaration")?;
        let head = items
            .first()
            .ok_or_else(|| self.syntax(s.location, "expected a predicate name, found an empty list"))?;
        let name = self.name(head, "a predicate name")?.to_string();
        Ok(PredicateDecl {
            name,
            params: self.typed_list(&items[1..], true)?,
            location: s.location,
        })
    }

    /// `(:functions (f ?x - t) - number (g) ...)`; the `- number` is optional.
    fn functions(&self, items: &[Sexp], out: &mut Vec<FunctionDecl>) -> Res<()> {
        let mut i = 0;
        while i < items.len() {
            let item = &items[i];
            match &item.token {
                Token::List(parts) => {
                    let head = parts
                        .first()
                        .ok_or_else(|| self.syntax(item.location, "expected a function name, found an empty list"))?;
                    let name = self.name(head, "a function name")?.to_string();
                    out.push(FunctionDecl {
                        name,
                        params: self.typed_list(&parts[1..], true)?,
                        location: item.location,
                    });
                }
                Token::Dash => {
                    let ty = items
                        .get(i + 1)
                        .ok_or_else(|| self.syntax(item.location, "expected `number` after `-`"))?;
                    match ty.as_name() {
                        Some("number") => {}
                        Some(_) => {
                            return Err(self.unsupported(
                                ty.location,
                                ty.as_name().unwrap_or_default(),
                                "object fluents: functions whose value is not a number",
                            ));
                        }
                        None => {
                            return Err(self.syntax(ty.location, format!("expected `number`, found {}", ty.describe())));
                        }
                    }
                    i += 1;
                }
                _ => {
                    return Err(self.syntax(
                        item.location,
                        format!(
                            "expected a function declaration `(name ...)`, found {}",
                            item.describe()
                        ),
                    ));
                }
            }
            i += 1;
        }
        Ok(())
    }

    fn action(&self, s: &Sexp, items: &[Sexp]) -> Res<Action> {
        let name_item = items
            .first()
            .ok_or_else(|| self.syntax(s.location, "expected the action's name after `:action`"))?;
        let mut action = Action {
            name: self.name(name_item, "the action's name")?.to_string(),
            params: Vec::new(),
            precondition: Condition::truth(),
            effect: Effect::And(Vec::new()),
            costs: Vec::new(),
            location: s.location,
        };
        let mut rest = &items[1..];
        while let [key, tail @ ..] = rest {
            let keyword = key.as_keyword().ok_or_else(|| {
                self.syntax(
                    key.location,
                    format!(
                        "expected `:parameters`, `:precondition` or `:effect`, found {}",
                        key.describe()
                    ),
                )
            })?;
            let value = tail
                .first()
                .ok_or_else(|| self.syntax(key.location, format!("expected a value after `:{keyword}`")))?;
            match keyword {
                "parameters" => action.params = self.typed_list(self.list(value, "the parameter list")?, true)?,
                "precondition" => action.precondition = self.condition(value)?,
                "effect" => {
                    let mut parts = Vec::new();
                    self.effect(value, &mut parts, Some(&mut action.costs))?;
                    action.effect = Effect::And(parts);
                }
                "vars" => return Err(self.unsupported(key.location, ":vars", "PDDL 1 action variables")),
                _ => {
                    return Err(self.syntax(
                        key.location,
                        format!("expected `:parameters`, `:precondition` or `:effect`, found `:{keyword}`"),
                    ));
                }
            }
            rest = &tail[1..];
        }
        Ok(action)
    }

    /// `(:derived (p ?x - t ...) condition)`.
    fn derived(&self, s: &Sexp, items: &[Sexp]) -> Res<DerivedRule> {
        let [head, body] = items else {
            return Err(self.syntax(s.location, "expected `(:derived (PREDICATE ?x ...) CONDITION)`"));
        };
        let decl = self.predicate_decl(head)?;
        Ok(DerivedRule {
            predicate: decl.name,
            params: decl.params,
            body: self.condition(body)?,
            location: s.location,
        })
    }

    /// The constructs of full PDDL that corvus does not read in a condition
    /// (`effect` false) or an effect; `None` for words that may be
    /// predicate names.
    fn unsupported_formula(&self, s: &Sexp, effect: bool) -> Option<PddlError> {
        let word = s.head_word()?;
        let what = match word {
            "preference" => "preferences",
            "<" | ">" | "<=" | ">=" => "numeric conditions",
            "increase" | "decrease" | "assign" | "scale-up" | "scale-down" if !effect => {
                "numeric effects in a condition"
            }
            "decrease" | "assign" | "scale-up" | "scale-down" => "numeric fluents",
            "when" if !effect => "conditional effects in a condition",
            "probabilistic" if effect => "probabilistic effects (PPDDL)",
            "oneof" if effect => "non-deterministic effects",
            "at" | "over" if matches!(s.as_list()?.get(1)?.token, Token::Name(ref n) if n == "start" || n == "end" || n == "all") => {
                "temporal conditions"
            }
            _ => return None,
        };
        let location = s.as_list().and_then(|l| l.first()).map_or(s.location, |h| h.location);
        Some(self.unsupported(location, word, what))
    }

    /// A precondition, goal, effect condition or rule body: atoms and `=`,
    /// `and`, `or`, `not`, `imply`, `exists` and `forall`; `()` is true.
    fn condition(&self, s: &Sexp) -> Res<Condition> {
        let items = self.list(s, "a condition")?;
        if items.is_empty() {
            return Ok(Condition::truth());
        }
        if let Some(e) = self.unsupported_formula(s, false) {
            return Err(e);
        }
        let word = s.head_word();
        match (word, items) {
            (Some("and"), [_, parts @ ..]) => Ok(Condition::And(self.conditions(parts)?)),
            (Some("or"), [_, parts @ ..]) => Ok(Condition::Or(self.conditions(parts)?)),
            (Some("not"), [_, inner]) => Ok(Condition::Not(Box::new(self.condition(inner)?))),
            (Some("not"), _) => Err(self.syntax(s.location, "expected exactly one formula inside `not`")),
            (Some("imply"), [_, a, b]) => Ok(Condition::Imply(
                Box::new(self.condition(a)?),
                Box::new(self.condition(b)?),
            )),
            (Some("imply"), _) => Err(self.syntax(s.location, "expected two formulas inside `imply`")),
            (Some(q @ ("exists" | "forall")), [_, vars, body]) => {
                let vars = self.typed_list(self.list(vars, &format!("the variables of `{q}`"))?, true)?;
                let body = Box::new(self.condition(body)?);
                Ok(if q == "exists" {
                    Condition::Exists(vars, body)
                } else {
                    Condition::Forall(vars, body)
                })
            }
            (Some(q @ ("exists" | "forall")), _) => {
                Err(self.syntax(s.location, format!("expected `({q} (VARIABLES) FORMULA)`")))
            }
            _ => Ok(Condition::Atom(self.atom(s)?)),
        }
    }

    fn conditions(&self, items: &[Sexp]) -> Res<Vec<Condition>> {
        items.iter().map(|c| self.condition(c)).collect()
    }

    /// `(p t1 ... tn)` or `(= t1 t2)` over variables and names.
    fn atom(&self, s: &Sexp) -> Res<Atom> {
        let items = self.list(s, "an atom")?;
        let head = items
            .first()
            .ok_or_else(|| self.syntax(s.location, "expected an atom, found an empty list"))?;
        let predicate = match &head.token {
            Token::Name(n) => n.clone(),
            Token::Operator(o) if o == "=" => o.clone(),
            _ => {
                return Err(self.syntax(
                    head.location,
                    format!("expected a predicate name, found {}", head.describe()),
                ));
            }
        };
        let mut args = Vec::new();
        for arg in &items[1..] {
            args.push(match &arg.token {
                Token::Variable(v) => Term::Variable(v.clone()),
                Token::Name(n) => Term::Constant(n.clone()),
                Token::List(_) if predicate == "=" => {
                    return Err(self.unsupported(head.location, "=", "numeric conditions: comparing function values"));
                }
                Token::List(_) => {
                    return Err(self.unsupported(arg.location, "function terms", "object fluents as arguments"));
                }
                _ => {
                    return Err(self.syntax(
                        arg.location,
                        format!("expected a variable or a name, found {}", arg.describe()),
                    ));
                }
            });
        }
        if predicate == "=" && args.len() != 2 {
            return Err(self.syntax(head.location, format!("`=` takes 2 terms, found {}", args.len())));
        }
        Ok(Atom {
            predicate,
            args,
            location: s.location,
        })
    }

    /// An effect: atoms, negated atoms, `when`, `forall`, `and`s of them
    /// (flattened into `out`) and `(increase (total-cost) X)` (into `costs`;
    /// `None` inside `when` and `forall`, where costs are not supported).
    fn effect(&self, s: &Sexp, out: &mut Vec<Effect>, mut costs: Option<&mut Vec<CostExpr>>) -> Res<()> {
        let items = self.list(s, "an effect")?;
        if items.is_empty() {
            return Ok(());
        }
        if let Some(e) = self.unsupported_formula(s, true) {
            return Err(e);
        }
        match (s.head_word(), items) {
            (Some("and"), [_, parts @ ..]) => {
                for part in parts {
                    self.effect(part, out, costs.as_deref_mut())?;
                }
            }
            (Some("not"), [_, inner]) => {
                if let Some(e) = self.unsupported_formula(inner, true) {
                    return Err(e);
                }
                if let Some(word @ ("and" | "not" | "when" | "forall" | "increase")) = inner.head_word() {
                    return Err(self.syntax(
                        inner.location,
                        format!("expected an atom inside `not` in an effect, found `({word} ...)`"),
                    ));
                }
                out.push(Effect::Delete(self.effect_atom(inner)?));
            }
            (Some("not"), _) => return Err(self.syntax(s.location, "expected exactly one atom inside `not`")),
            (Some("when"), [_, condition, effect]) => {
                let condition = self.condition(condition)?;
                let mut parts = Vec::new();
                self.effect(effect, &mut parts, None)?;
                out.push(Effect::When(condition, Box::new(Effect::And(parts))));
            }
            (Some("when"), _) => return Err(self.syntax(s.location, "expected `(when CONDITION EFFECT)`")),
            (Some("forall"), [_, vars, effect]) => {
                let vars = self.typed_list(self.list(vars, "the variables of `forall`")?, true)?;
                let mut parts = Vec::new();
                self.effect(effect, &mut parts, None)?;
                out.push(Effect::Forall(vars, Box::new(Effect::And(parts))));
            }
            (Some("forall"), _) => {
                return Err(self.syntax(s.location, "expected `(forall (VARIABLES) EFFECT)`"));
            }
            (Some("increase"), _) => match costs {
                Some(costs) => costs.push(self.cost_increase(s, items)?),
                None => {
                    return Err(self.unsupported(
                        items[0].location,
                        "increase",
                        "action costs inside `when` or `forall`",
                    ));
                }
            },
            _ => out.push(Effect::Add(self.effect_atom(s)?)),
        }
        Ok(())
    }

    /// The atom of an add or delete effect; `=` is not one.
    fn effect_atom(&self, s: &Sexp) -> Res<Atom> {
        let atom = self.atom(s)?;
        if atom.predicate == "=" {
            return Err(self.syntax(s.location, "`=` cannot be an effect"));
        }
        Ok(atom)
    }

    /// `(increase (total-cost) 5)` or `(increase (total-cost) (f ?x ?y))`.
    fn cost_increase(&self, s: &Sexp, items: &[Sexp]) -> Res<CostExpr> {
        let [_, target, amount] = items else {
            return Err(self.syntax(s.location, "expected `(increase (total-cost) AMOUNT)`"));
        };
        match target.as_list() {
            Some([f]) if f.as_name() == Some("total-cost") => {}
            Some([f, ..]) if f.as_name().is_some() => {
                return Err(self.unsupported(items[0].location, "increase", "numeric fluents other than `total-cost`"));
            }
            _ => {
                return Err(self.syntax(
                    target.location,
                    format!("expected `(total-cost)`, found {}", target.describe()),
                ));
            }
        }
        match &amount.token {
            Token::Number(n) => match n.parse::<i64>() {
                Ok(cost) if cost < 0 => Err(self.error(
                    ErrorKind::Semantic,
                    amount.location,
                    format!("expected an action cost (a finite number >= 0), found {cost}"),
                )),
                Ok(cost) => Ok(CostExpr::Constant(cost)),
                Err(_) => Err(self.unsupported(amount.location, n, "non-integer action costs")),
            },
            Token::Name(n) if is_non_finite(n) => Err(self.error(
                ErrorKind::Semantic,
                amount.location,
                format!("expected an action cost (a finite number >= 0), found `{n}`"),
            )),
            Token::List(parts) => {
                let head = parts
                    .first()
                    .ok_or_else(|| self.syntax(amount.location, "expected a cost, found an empty list"))?;
                let name = match &head.token {
                    Token::Name(n) => n.clone(),
                    Token::Operator(o) => {
                        return Err(self.unsupported(head.location, o, "arithmetic in action costs"));
                    }
                    Token::Dash => return Err(self.unsupported(head.location, "-", "arithmetic in action costs")),
                    _ => {
                        return Err(self.syntax(
                            head.location,
                            format!("expected a function name, found {}", head.describe()),
                        ));
                    }
                };
                let mut args = Vec::new();
                for arg in &parts[1..] {
                    args.push(match &arg.token {
                        Token::Variable(v) => Term::Variable(v.clone()),
                        Token::Name(n) => Term::Constant(n.clone()),
                        Token::List(_) => {
                            return Err(self.unsupported(
                                arg.location,
                                "nested functions",
                                "arithmetic in action costs",
                            ));
                        }
                        _ => {
                            return Err(self.syntax(
                                arg.location,
                                format!("expected a variable or a name, found {}", arg.describe()),
                            ));
                        }
                    });
                }
                Ok(CostExpr::Function {
                    name,
                    args,
                    location: amount.location,
                })
            }
            _ => Err(self.syntax(
                amount.location,
                format!("expected a number or `(function ...)`, found {}", amount.describe()),
            )),
        }
    }

    fn domain(&self, top: &Sexp) -> Res<(Domain, Vec<Location>)> {
        let (name, sections) = self.define(top, "domain")?;
        let mut domain = Domain {
            name,
            file: self.file.to_string(),
            requirements: Vec::new(),
            types: Vec::new(),
            constants: Vec::new(),
            predicates: Vec::new(),
            functions: Vec::new(),
            actions: Vec::new(),
            derived: Vec::new(),
        };
        let mut type_locations = Vec::new();
        for s in sections {
            let (keyword, items) = self.section(s, "domain")?;
            match keyword {
                "requirements" => self.requirements(items, &mut domain.requirements)?,
                "types" => {
                    for t in self.typed_list(items, false)? {
                        // `object` is the implicit root; declaring it adds nothing.
                        if t.name != "object" {
                            domain.types.push(TypeDecl {
                                name: t.name,
                                parents: t.types,
                            });
                            type_locations.push(t.location);
                        }
                    }
                }
                "constants" => domain.constants.extend(self.typed_list(items, false)?),
                "predicates" => {
                    for p in items {
                        domain.predicates.push(self.predicate_decl(p)?);
                    }
                }
                "functions" => self.functions(items, &mut domain.functions)?,
                "action" => domain.actions.push(self.action(s, items)?),
                "derived" => domain.derived.push(self.derived(s, items)?),
                "axiom" => return Err(self.unsupported(s.location, ":axiom", "derived predicates")),
                "durative-action" => return Err(self.unsupported(s.location, ":durative-action", "temporal planning")),
                "process" | "event" => {
                    return Err(self.unsupported(s.location, &format!(":{keyword}"), "PDDL+ processes and events"));
                }
                "constraints" => {
                    return Err(self.unsupported(s.location, ":constraints", "state trajectory constraints"));
                }
                _ => {
                    return Err(self.syntax(
                        s.location,
                        format!("expected a domain section (`:requirements`, `:types`, `:constants`, `:predicates`, `:functions`, `:action` or `:derived`), found `:{keyword}`"),
                    ));
                }
            }
        }
        Ok((domain, type_locations))
    }

    fn problem(&self, top: &Sexp) -> Res<(Problem, ProblemPlaces)> {
        let (name, sections) = self.define(top, "problem")?;
        let mut problem = Problem {
            name,
            domain: String::new(),
            objects: Vec::new(),
            init: Vec::new(),
            numeric_init: Vec::new(),
            goal: Condition::truth(),
            minimize_total_cost: false,
        };
        let mut init_locations = Vec::new();
        let mut domain_location = Location::default();
        let mut init_section = None;
        let mut requirements = Vec::new();
        let mut goal_location = None;
        // By name, in the order first declared.
        let mut objects: IndexMap<String, TypedName> = IndexMap::new();
        for s in sections {
            let (keyword, items) = self.section(s, "problem")?;
            match keyword {
                "domain" => match items {
                    [d] => {
                        problem.domain = self.name(d, "the domain name")?.to_string();
                        domain_location = d.location;
                    }
                    _ => return Err(self.syntax(s.location, "expected `(:domain NAME)`")),
                },
                "requirements" => self.requirements(items, &mut requirements)?,
                "objects" => {
                    for o in self.typed_list(items, false)? {
                        // IPC files sometimes list an object twice; keep the first.
                        objects.entry(o.name.clone()).or_insert(o);
                    }
                }
                "init" => {
                    init_section.get_or_insert(s.location);
                    for fact in items {
                        self.init_fact(fact, &mut problem, &mut init_locations)?;
                    }
                }
                "goal" => {
                    let [goal] = items else {
                        return Err(self.syntax(s.location, "expected exactly one formula in `(:goal ...)`"));
                    };
                    // Two goals are a mistake, not a conjunction: one of them would be ignored.
                    if let Some(first) = goal_location {
                        let Location { line, col } = first;
                        return Err(self.error(
                            ErrorKind::Semantic,
                            s.location,
                            format!("a second `(:goal ...)`; the problem's goal is at {line}:{col}"),
                        ));
                    }
                    goal_location = Some(s.location);
                    problem.goal = self.condition(goal)?;
                }
                "metric" => problem.minimize_total_cost = self.metric(s, items)?,
                "length" => {} // an obsolete IPC-1 hint about plan length; it constrains nothing
                "constraints" => {
                    return Err(self.unsupported(s.location, ":constraints", "state trajectory constraints"));
                }
                _ => {
                    return Err(self.syntax(
                        s.location,
                        format!("expected a problem section (`:domain`, `:objects`, `:init`, `:goal` or `:metric`), found `:{keyword}`"),
                    ));
                }
            }
        }
        if goal_location.is_none() {
            return Err(self.syntax(top.location, "the problem has no `(:goal ...)`"));
        }
        problem.objects = objects.into_values().collect();
        let places = ProblemPlaces {
            init: init_locations,
            domain: domain_location,
            init_section: init_section.unwrap_or(top.location),
        };
        Ok((problem, places))
    }

    fn init_fact(&self, s: &Sexp, problem: &mut Problem, locations: &mut Vec<Location>) -> Res<()> {
        let items = self.list(s, "an initial fact")?;
        match s.head_word() {
            Some("=") => {
                problem.numeric_init.push(self.numeric_fact(s, items)?);
                return Ok(());
            }
            // Under the closed-world assumption a negative fact says nothing new.
            Some("not") if items.len() == 2 && items[1].as_list().is_some() => return Ok(()),
            Some("at") if matches!(items.get(1).map(|a| &a.token), Some(Token::Number(_))) => {
                return Err(self.unsupported(items[0].location, "at", "timed initial literals"));
            }
            _ => {}
        }
        if let Some(e) = self.unsupported_formula(s, false) {
            return Err(e);
        }
        let head = items
            .first()
            .ok_or_else(|| self.syntax(s.location, "expected a fact, found an empty list"))?;
        let predicate = self.name(head, "a predicate name")?.to_string();
        let mut args = Vec::new();
        for a in &items[1..] {
            match &a.token {
                Token::Name(n) => args.push(n.clone()),
                _ => return Err(self.syntax(a.location, format!("expected an object name, found {}", a.describe()))),
            }
        }
        problem.init.push(GroundAtom { predicate, args });
        locations.push(s.location);
        Ok(())
    }

    /// `(= (f a b) 7)`.
    fn numeric_fact(&self, s: &Sexp, items: &[Sexp]) -> Res<NumericFact> {
        let [_, fluent, value] = items else {
            return Err(self.syntax(s.location, "expected `(= (function ...) NUMBER)`"));
        };
        let parts = self.list(fluent, "a function term `(f ...)`")?;
        let head = parts
            .first()
            .ok_or_else(|| self.syntax(fluent.location, "expected a function name, found an empty list"))?;
        let function = self.name(head, "a function name")?.to_string();
        let mut args = Vec::new();
        for a in &parts[1..] {
            args.push(self.name(a, "an object name")?.to_string());
        }
        let value = match &value.token {
            Token::Number(n) => n
                .parse::<i64>()
                .map_err(|_| self.unsupported(value.location, n, "non-integer numeric values"))?,
            // Numeric values are action costs or `total-cost` (other
            // numeric fluents are refused in the domain).
            Token::Name(n) if is_non_finite(n) => {
                return Err(self.error(
                    ErrorKind::Semantic,
                    value.location,
                    format!("expected a finite number >= 0, found `{n}`"),
                ));
            }
            Token::Name(_) => return Err(self.unsupported(value.location, "=", "object fluents")),
            _ => return Err(self.syntax(value.location, format!("expected a number, found {}", value.describe()))),
        };
        Ok(NumericFact {
            function,
            args,
            value,
            location: s.location,
        })
    }

    /// Only `(:metric minimize (total-cost))` is understood.
    fn metric(&self, s: &Sexp, items: &[Sexp]) -> Res<bool> {
        match items {
            [dir, expr]
                if dir.as_name() == Some("minimize")
                    && matches!(expr.as_list(), Some([f]) if f.as_name() == Some("total-cost")) =>
            {
                Ok(true)
            }
            _ => Err(self.unsupported(s.location, ":metric", "metrics other than `minimize (total-cost)`")),
        }
    }
}

/// `nan`, `inf` and `infinity` (lower-cased), which read as names: what a
/// generator that prints floating-point costs writes for a non-finite one.
fn is_non_finite(name: &str) -> bool {
    matches!(name, "nan" | "inf" | "infinity")
}

/// Reads a domain file's text into the AST (no name checks yet); also
/// returns where each entry of `Domain::types` is declared.
pub(crate) fn domain(text: &str, file: &str) -> Res<(Domain, Vec<Location>)> {
    let reader = Reader { file };
    reader.domain(&read_sexp(text, file)?)
}

/// Reads a problem file's text; also returns where each init fact stands,
/// in the order of `Problem::init` (the AST's ground atoms carry no place).
/// Where the parts of a problem that its AST keeps no place for stand.
pub(crate) struct ProblemPlaces {
    pub init: Vec<Location>,
    /// The name in `(:domain NAME)`.
    pub domain: Location,
    /// The first `(:init ...)`, or the problem's `(define` without one.
    pub init_section: Location,
}

pub(crate) fn problem(text: &str, file: &str) -> Res<(Problem, ProblemPlaces)> {
    let reader = Reader { file };
    reader.problem(&read_sexp(text, file)?)
}
