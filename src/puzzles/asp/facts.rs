//! Reading ground ASP facts (`grammar/asp.pest`) into a flat list, with
//! ranges such as `time(0..40).` written out.

use std::fmt;

use pest::Parser;
use pest::error::{ErrorVariant, InputLocation};
use pest::iterators::Pair;

use super::AspError;
use crate::limits;
use crate::pddl::{Location, Places};

#[derive(pest_derive::Parser)]
#[grammar = "../grammar/asp.pest"]
struct AspGrammar;

/// Ranges are written out, so a hostile `p(1..1000000000).` must not be able
/// to exhaust memory; real instances have a few thousand facts. The cap
/// keeps the reader's memory bounded before any `--memory-limit` is looked
/// at.
const MAX_FACTS: usize = 1_000_000;
/// The same for all arguments of all facts together: a range times a long
/// argument list (`p(1..1000000, a, a, ...)`) multiplies too.
const MAX_TERMS: usize = 3 * MAX_FACTS;

/// A ground term of a fact.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Term {
    Int(i64),
    /// A symbolic constant such as `pos_1_2`.
    Const(String),
    /// A quoted string, kept as written (with its quotes and escapes).
    Str(String),
}

impl Term {
    pub fn as_int(&self) -> Option<i64> {
        match self {
            Term::Int(i) => Some(*i),
            _ => None,
        }
    }
}

impl fmt::Display for Term {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Term::Int(i) => write!(f, "{i}"),
            Term::Const(s) | Term::Str(s) => f.write_str(s),
        }
    }
}

/// One ground fact and where it was written (for a range, every fact it
/// expands to has the range's place).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fact {
    pub predicate: String,
    pub args: Vec<Term>,
    pub location: Location,
}

impl fmt::Display for Fact {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.predicate)?;
        if !self.args.is_empty() {
            f.write_str("(")?;
            for (i, a) in self.args.iter().enumerate() {
                if i > 0 {
                    f.write_str(",")?;
                }
                write!(f, "{a}")?;
            }
            f.write_str(")")?;
        }
        f.write_str(".")
    }
}

/// One argument position before range expansion.
enum Arg {
    Single(Term),
    Range(i64, i64),
}

/// Parses `text` as a sequence of ground facts. `file` is used in error
/// messages only. The time is linear in the text and the facts written
/// out, and the loops over them are checkpoints of the watched run
/// ([`limits::checkpoint`]).
pub fn parse_facts(text: &str, file: &str) -> Result<Vec<Fact>, AspError> {
    if let Some(start) = unclosed_block_comment(text) {
        return Err(AspError::syntax(
            file,
            Places::new(text).at(start),
            "block comment `%*` is not closed by `*%`".to_string(),
        ));
    }
    let pairs = AspGrammar::parse(Rule::file, text).map_err(|e| syntax_error(&e, text, file))?;
    let mut reader = Reader {
        file,
        places: Places::new(text),
        facts: Vec::new(),
        terms: 0,
    };
    for file_pair in pairs {
        for fact in file_pair.into_inner() {
            if fact.as_rule() == Rule::fact {
                limits::checkpoint();
                reader.read_fact(fact)?;
            }
        }
    }
    Ok(reader.facts)
}

/// Where the first block comment starts that no `*%` closes, if one does.
/// pest would try such a comment up to the end of the text and then read it
/// as a line comment, at every `%*` of the kind: quadratic time (a minute for
/// 20,000 lines that end in `%*`). Strings and line comments are skipped as
/// the grammar reads them.
fn unclosed_block_comment(text: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    let end_of_line = |i: usize| {
        bytes[i..]
            .iter()
            .position(|&b| b == b'\n' || b == b'\r')
            .map_or(bytes.len(), |n| i + n)
    };
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'"' => {
                i += 1;
                while i < bytes.len() && !matches!(bytes[i], b'"' | b'\n' | b'\r') {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
                i += 1;
            }
            b'%' if bytes.get(i + 1) == Some(&b'*') => match text.get(i + 2..).and_then(|rest| rest.find("*%")) {
                Some(n) => i += 2 + n + 2,
                None => return Some(i),
            },
            b'%' => i = end_of_line(i),
            _ => i += 1,
        }
    }
    None
}

/// The facts read so far, and the places of the text up to the last one.
struct Reader<'a> {
    file: &'a str,
    /// Asked in increasing order: the facts come in the order of the text,
    /// and a fact's terms after its start.
    places: Places<'a>,
    facts: Vec<Fact>,
    /// The arguments of all facts read so far.
    terms: usize,
}

impl Reader<'_> {
    fn location_of(&mut self, pair: &Pair<'_, Rule>) -> Location {
        self.places.at(pair.as_span().start())
    }

    fn syntax(&self, location: Location, message: String) -> AspError {
        AspError::syntax(self.file, location, message)
    }

    /// Reads one fact and its expansion.
    fn read_fact(&mut self, pair: Pair<'_, Rule>) -> Result<(), AspError> {
        let location = self.location_of(&pair);
        let mut predicate = String::new();
        let mut args: Vec<Arg> = Vec::new();
        for part in pair.into_inner() {
            match part.as_rule() {
                Rule::predicate => predicate = part.as_str().to_string(),
                Rule::arguments => {
                    for term in part.into_inner() {
                        args.push(self.read_term(term)?);
                    }
                }
                _ => {}
            }
        }
        // Written out as the product of its ranges, in clingo's order (the last
        // argument varies fastest).
        let mut count: usize = 1;
        for a in &args {
            if let Arg::Range(lo, hi) = a {
                // In i128: `hi - lo` overflows i64 for -9223372036854775808..9223372036854775807.
                let n = if hi < lo {
                    0
                } else {
                    (*hi as i128 - *lo as i128) as u128 + 1
                };
                count = usize::try_from(n.saturating_mul(count as u128)).unwrap_or(usize::MAX);
            }
        }
        if count.saturating_add(self.facts.len()) > MAX_FACTS {
            return Err(self.syntax(location, format!("ranges expand to more than {MAX_FACTS} facts")));
        }
        let new_terms = count.saturating_mul(args.len());
        if new_terms.saturating_add(self.terms) > MAX_TERMS {
            return Err(self.syntax(
                location,
                format!("the facts have more than {MAX_TERMS} arguments in all"),
            ));
        }
        self.terms += new_terms;
        // An empty range anywhere makes the product empty; the expansion would
        // still walk every other range (a hang on `p(1..999999999, 2..1).`).
        if count == 0 {
            return Ok(());
        }
        expand(&predicate, &args, location, &mut self.facts);
        Ok(())
    }

    fn read_int(&mut self, pair: &Pair<'_, Rule>) -> Result<i64, AspError> {
        pair.as_str().parse::<i64>().map_err(|_| {
            let location = self.location_of(pair);
            self.syntax(location, format!("integer `{}` is out of range", pair.as_str()))
        })
    }

    fn read_term(&mut self, pair: Pair<'_, Rule>) -> Result<Arg, AspError> {
        Ok(match pair.as_rule() {
            Rule::integer => Arg::Single(Term::Int(self.read_int(&pair)?)),
            Rule::constant => Arg::Single(Term::Const(pair.as_str().to_string())),
            Rule::string => Arg::Single(Term::Str(pair.as_str().to_string())),
            Rule::range => {
                let mut bounds = Vec::with_capacity(2);
                for b in pair.into_inner() {
                    bounds.push(self.read_int(&b)?);
                }
                match bounds[..] {
                    [lo, hi] => Arg::Range(lo, hi),
                    // The grammar gives a range exactly two integers.
                    _ => Arg::Range(0, -1),
                }
            }
            // The grammar allows no other term.
            _ => Arg::Single(Term::Const(pair.as_str().to_string())),
        })
    }
}

/// Writes out the product of the ranges, an odometer over the argument
/// positions (not a recursion per argument: a fact may have a million).
/// Every range must be non-empty.
fn expand(predicate: &str, args: &[Arg], location: Location, out: &mut Vec<Fact>) {
    let mut current: Vec<Term> = args
        .iter()
        .map(|a| match a {
            Arg::Single(t) => t.clone(),
            Arg::Range(lo, _) => Term::Int(*lo),
        })
        .collect();
    loop {
        limits::checkpoint();
        out.push(Fact {
            predicate: predicate.to_string(),
            args: current.clone(),
            location,
        });
        // Advance the last range that is not at its end; reset those after it.
        let mut i = args.len();
        loop {
            if i == 0 {
                return;
            }
            i -= 1;
            if let (Arg::Range(lo, hi), Term::Int(v)) = (&args[i], &mut current[i]) {
                if *v < *hi {
                    *v += 1;
                    break;
                }
                *v = *lo;
            }
        }
    }
}

fn describe_rule(rule: &Rule) -> &'static str {
    match rule {
        Rule::file | Rule::fact | Rule::predicate => "a fact (a predicate name starting with a lower-case letter)",
        Rule::arguments => "`(`",
        Rule::period => "`.`",
        Rule::range => "a range `lo..hi`",
        Rule::integer => "an integer",
        Rule::string => "a quoted string",
        Rule::constant => "a constant",
        Rule::EOI => "end of input",
        _ => "more input",
    }
}

/// A pest error as `file:line:col: expected ..., found ...`.
fn syntax_error(e: &pest::error::Error<Rule>, text: &str, file: &str) -> AspError {
    let pos = match e.location {
        InputLocation::Pos(p) => p,
        InputLocation::Span((p, _)) => p,
    };
    let (line, col) = match e.line_col {
        pest::error::LineColLocation::Pos(lc) => lc,
        pest::error::LineColLocation::Span(lc, _) => lc,
    };
    let mut expected: Vec<&str> = Vec::new();
    if let ErrorVariant::ParsingError { positives, .. } = &e.variant {
        for r in positives {
            let d = describe_rule(r);
            if !expected.contains(&d) {
                expected.push(d);
            }
        }
    }
    // Inside an argument list a term or the end of the list is expected.
    if expected
        .iter()
        .any(|d| d.starts_with("an integer") || d.starts_with("a constant"))
    {
        expected.retain(|d| !d.starts_with("a range"));
    }
    let expected = match expected.len() {
        0 => "a fact".to_string(),
        1 => expected[0].to_string(),
        n => format!("{} or {}", expected[..n - 1].join(", "), expected[n - 1]),
    };
    let found = found_at(text, pos);
    AspError::syntax(
        file,
        Location { line, col },
        format!("expected {expected}, found {found}"),
    )
}

/// A short description of the text at byte `pos`.
fn found_at(text: &str, pos: usize) -> String {
    let rest = text.get(pos..).unwrap_or("");
    match rest.chars().next() {
        None => "end of input".to_string(),
        Some(c) if c.is_alphanumeric() || c == '_' => {
            let word: String = rest
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == '\'')
                .take(40)
                .collect();
            format!("`{word}`")
        }
        Some('\n') | Some('\r') => "end of line".to_string(),
        Some(c) => format!("`{c}`"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn facts(text: &str) -> Vec<String> {
        parse_facts(text, "t.lp")
            .map(|fs| fs.iter().map(|f| f.to_string()).collect())
            .unwrap_or_else(|e| vec![format!("error: {e}")])
    }

    #[test]
    fn reads_terms_ranges_and_comments() {
        let text = "steps(3). time(0..2).  % a comment\n%* block\n comment *%\n \
                    p( a , -4 ,\"x y\" ).q.\n r(1..2, b, 3..4).";
        assert_eq!(
            facts(text),
            vec![
                "steps(3).",
                "time(0).",
                "time(1).",
                "time(2).",
                "p(a,-4,\"x y\").",
                "q.",
                "r(1,b,3).",
                "r(1,b,4).",
                "r(2,b,3).",
                "r(2,b,4).",
            ]
        );
        assert_eq!(facts("t(3..1)."), Vec::<String>::new());
    }

    #[test]
    fn errors_have_places() {
        assert_eq!(
            facts("a(1).\nb(2)"),
            vec!["error: t.lp:2:5: expected `.`, found end of input"]
        );
        assert_eq!(
            facts("a(1).\n  b(X)."),
            vec!["error: t.lp:2:5: expected an integer, a quoted string or a constant, found `X`"]
        );
        let e = facts("a(99999999999999999999).");
        assert!(e[0].contains("t.lp:1:3") && e[0].contains("out of range"), "{e:?}");
        let e = facts("a(1..99999999999).");
        assert!(e[0].contains("more than"), "{e:?}");
        assert_eq!(
            facts("a(1). % not %* a block\nb(\"%*\"). %* a\n block *% c.\n  d. %* open\ne."),
            vec!["error: t.lp:4:6: block comment `%*` is not closed by `*%`"]
        );
        let e = facts("a :- b.");
        assert!(e[0].starts_with("error: t.lp:1:3"), "{e:?}");
    }
}
