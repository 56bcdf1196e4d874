//! The text of a configuration: nested calls with positional and named
//! arguments, lists, numbers and names, as in Fast Downward's search
//! options: `lazy([hff(cost=one), lmcount()], preferred=[hff])`.
//!
//! This file knows the syntax only; which names exist and what they mean is
//! [`super::components`]' business.
//!
//! ```text
//! spec  := expr
//! expr  := list | number | call
//! list  := '[' [expr {',' expr}] ']'
//! call  := name ['(' [arg {',' arg}] ')']
//! arg   := name '=' expr | expr
//! name  := letter {letter | digit | '_' | '-'}
//! ```

use std::fmt;

/// A parsed expression and where it starts in the text (a byte offset).
#[derive(Clone, Debug, PartialEq)]
pub struct Expr {
    pub at: usize,
    pub kind: ExprKind,
}

#[derive(Clone, Debug, PartialEq)]
pub enum ExprKind {
    /// `name`, `name()` or `name(args)`; `parens` tells the first from the
    /// second, which print differently.
    Call {
        name: String,
        args: Vec<Arg>,
        parens: bool,
    },
    List(Vec<Expr>),
    /// A number as written (`5`, `1.5`).
    Number(String),
}

/// One argument of a call: positional, or `name=value`.
#[derive(Clone, Debug, PartialEq)]
pub struct Arg {
    pub name: Option<String>,
    pub value: Expr,
}

/// A mistake in a spec: what is wrong, and where (a byte offset).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpecError {
    pub at: usize,
    pub message: String,
}

impl SpecError {
    pub fn new(at: usize, message: impl Into<String>) -> SpecError {
        SpecError {
            at,
            message: message.into(),
        }
    }

    /// The message, the spec, and a caret under the place:
    ///
    /// ```text
    /// column 7: unknown heuristic `hf` (heuristics: blind, ...)
    ///   lazy([hf])
    ///         ^
    /// ```
    pub fn show(&self, spec: &str) -> String {
        let column = spec[..self.at.min(spec.len())].chars().count();
        format!(
            "column {}: {}\n  {spec}\n  {}^",
            column + 1,
            self.message,
            " ".repeat(column)
        )
    }
}

/// Deeper nesting than this is refused rather than risking the stack.
const MAX_DEPTH: usize = 64;

struct Parser<'a> {
    text: &'a str,
    pos: usize,
    depth: usize,
}

/// Parses a whole spec.
pub fn parse(text: &str) -> Result<Expr, SpecError> {
    let mut p = Parser { text, pos: 0, depth: 0 };
    let expr = p.expr()?;
    p.blank();
    if p.pos < text.len() {
        return Err(p.error(format!("unexpected `{}` after the end of the spec", p.rest_char())));
    }
    Ok(expr)
}

impl Parser<'_> {
    fn error(&self, message: impl Into<String>) -> SpecError {
        SpecError::new(self.pos, message)
    }

    fn rest_char(&self) -> char {
        self.text[self.pos..].chars().next().unwrap_or(' ')
    }

    fn peek(&self) -> Option<char> {
        self.text[self.pos..].chars().next()
    }

    fn blank(&mut self) {
        while let Some(c) = self.peek().filter(|c| c.is_whitespace()) {
            self.pos += c.len_utf8();
        }
    }

    fn eat(&mut self, c: char) -> bool {
        self.blank();
        if self.peek() == Some(c) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    fn expr(&mut self) -> Result<Expr, SpecError> {
        self.blank();
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(self.error(format!("nested more than {MAX_DEPTH} deep")));
        }
        let at = self.pos;
        let kind = match self.peek() {
            Some('[') => {
                self.pos += 1;
                ExprKind::List(self.items(']', Self::expr)?)
            }
            Some(c) if c.is_ascii_digit() || c == '.' || c == '-' || c == '+' => self.number()?,
            Some(c) if c.is_alphabetic() || c == '_' => {
                let name = self.name();
                let parens = self.eat('(');
                let args = if parens {
                    self.items(')', Self::arg)?
                } else {
                    Vec::new()
                };
                ExprKind::Call { name, args, parens }
            }
            Some(c) => return Err(self.error(format!("expected a name, a number or a list, found `{c}`"))),
            None => return Err(self.error("expected a name, a number or a list, found the end of the spec")),
        };
        self.depth -= 1;
        Ok(Expr { at, kind })
    }

    /// Items up to `close`, separated by commas (the opening bracket is read).
    fn items<T>(&mut self, close: char, item: fn(&mut Self) -> Result<T, SpecError>) -> Result<Vec<T>, SpecError> {
        let mut items = Vec::new();
        if self.eat(close) {
            return Ok(items);
        }
        loop {
            items.push(item(self)?);
            if self.eat(close) {
                return Ok(items);
            }
            if !self.eat(',') {
                self.blank();
                return Err(match self.peek() {
                    Some(c) => self.error(format!("expected `,` or `{close}`, found `{c}`")),
                    None => self.error(format!("expected `,` or `{close}`, found the end of the spec")),
                });
            }
        }
    }

    fn arg(&mut self) -> Result<Arg, SpecError> {
        self.blank();
        let start = self.pos;
        if self.peek().is_some_and(|c| c.is_alphabetic() || c == '_') {
            let name = self.name();
            if self.eat('=') {
                return Ok(Arg {
                    name: Some(name),
                    value: self.expr()?,
                });
            }
            self.pos = start;
        }
        Ok(Arg {
            name: None,
            value: self.expr()?,
        })
    }

    fn name(&mut self) -> String {
        let start = self.pos;
        while let Some(c) = self.peek().filter(|&c| c.is_alphanumeric() || c == '_' || c == '-') {
            self.pos += c.len_utf8();
        }
        self.text[start..self.pos].to_string()
    }

    fn number(&mut self) -> Result<ExprKind, SpecError> {
        let start = self.pos;
        let mut end = start;
        for (i, c) in self.text[start..].char_indices() {
            let sign_after_exponent =
                (c == '-' || c == '+') && (i == 0 || self.text[..start + i].ends_with(['e', 'E']));
            if c.is_ascii_digit() || c == '.' || c == 'e' || c == 'E' || sign_after_exponent {
                end = start + i + c.len_utf8();
            } else {
                break;
            }
        }
        let text = &self.text[start..end];
        if text.parse::<f64>().is_err() {
            return Err(self.error(format!("`{text}` is not a number")));
        }
        self.pos = end;
        Ok(ExprKind::Number(text.to_string()))
    }
}

impl fmt::Display for Expr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            ExprKind::Number(n) => f.write_str(n),
            ExprKind::List(items) => {
                f.write_str("[")?;
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{item}")?;
                }
                f.write_str("]")
            }
            ExprKind::Call { name, args, parens } => {
                f.write_str(name)?;
                if *parens {
                    f.write_str("(")?;
                    for (i, arg) in args.iter().enumerate() {
                        if i > 0 {
                            f.write_str(", ")?;
                        }
                        if let Some(n) = &arg.name {
                            write!(f, "{n}=")?;
                        }
                        write!(f, "{}", arg.value)?;
                    }
                    f.write_str(")")?;
                }
                Ok(())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_print_parse_is_a_fixed_point() {
        for spec in [
            "astar(lmcut())",
            "lazy([hff(cost=one), lmcount(cost=one)], preferred=[hff, lmcount])",
            "let(h, ff(transform=adapt_costs(one)), lazy_greedy([h], preferred=[h], boost=1000))",
            "wastar(hff, w=1.5)",
            "x(-2, 3e-1, [], [[a]], b=c())",
        ] {
            let once = parse(spec).expect(spec);
            let printed = once.to_string();
            assert_eq!(printed, spec, "canonical text prints as written");
            let twice = parse(&printed).expect("printed text parses");
            assert_eq!(twice.to_string(), printed);
        }
        // Spaces are free; the printed form is canonical.
        let loose = parse(" lazy ( [ hff ,lmcount ] ,preferred = [ hff ] ) ").expect("parses");
        assert_eq!(loose.to_string(), "lazy([hff, lmcount], preferred=[hff])");
    }

    #[test]
    fn errors_point_at_the_place() {
        let cases = [
            ("astar(lmcut()", 13, "expected `,` or `)`, found the end"),
            ("astar(lmcut() x)", 14, "expected `,` or `)`, found `x`"),
            ("lazy([hff,])", 10, "expected a name, a number or a list, found `]`"),
            ("astar() extra", 8, "unexpected `e`"),
            ("wastar(hff, w=1.2.3)", 14, "`1.2.3` is not a number"),
            ("", 0, "found the end of the spec"),
            ("astar(=)", 6, "found `=`"),
        ];
        for (spec, at, message) in cases {
            let e = parse(spec).expect_err(spec);
            assert_eq!(e.at, at, "{spec}: {e:?}");
            assert!(e.message.contains(message), "{spec}: {}", e.message);
        }
        let e = parse("astar(lmcut() x)").expect_err("bad");
        assert_eq!(
            e.show("astar(lmcut() x)"),
            "column 15: expected `,` or `)`, found `x`\n  astar(lmcut() x)\n                ^"
        );
    }

    #[test]
    fn deep_nesting_is_an_error_not_a_crash() {
        let deep = format!("{}{}", "a(".repeat(10_000), ")".repeat(10_000));
        assert!(parse(&deep).expect_err("too deep").message.contains("nested"));
    }
}
