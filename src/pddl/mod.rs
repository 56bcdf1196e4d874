//! PDDL input: the pest grammar in `grammar/pddl.pest`, the AST in [`ast`],
//! and checks of names, arities and types.

pub mod ast;

pub use ast::*;

use std::path::Path;

/// What kind of problem the input has; decides the exit code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// The file could not be read.
    Io,
    /// The text does not follow the PDDL grammar.
    Syntax,
    /// Well-formed PDDL that corvus does not support (named in the message).
    Unsupported,
    /// Undeclared names, wrong arities, type errors.
    Semantic,
}

/// An input error with its place: `file:line:col: message`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{file}:{}:{}: {message}", location.line, location.col)]
pub struct PddlError {
    pub kind: ErrorKind,
    pub file: String,
    pub location: Location,
    pub message: String,
}

/// Parses a domain file's text. `file` is used in error messages only.
pub fn parse_domain(text: &str, file: &str) -> Result<Domain, PddlError> {
    let _ = (text, file);
    unimplemented!("parser")
}

/// Parses a problem file's text. `file` is used in error messages only.
pub fn parse_problem(text: &str, file: &str) -> Result<Problem, PddlError> {
    let _ = (text, file);
    unimplemented!("parser")
}

/// Checks a problem against its domain: declared predicates, objects and
/// types, arities, and that every argument's type fits.
pub fn check(domain: &Domain, problem: &Problem, problem_file: &str) -> Result<(), PddlError> {
    let _ = (domain, problem, problem_file);
    Ok(())
}

fn read(path: &Path) -> Result<String, PddlError> {
    std::fs::read_to_string(path).map_err(|e| PddlError {
        kind: ErrorKind::Io,
        file: path.display().to_string(),
        location: Location { line: 0, col: 0 },
        message: format!("cannot read file: {e}"),
    })
}

/// Reads, parses and checks a domain and a problem file.
pub fn load(domain_path: &Path, problem_path: &Path) -> Result<(Domain, Problem), PddlError> {
    let dfile = domain_path.display().to_string();
    let pfile = problem_path.display().to_string();
    let domain = parse_domain(&read(domain_path)?, &dfile)?;
    let problem = parse_problem(&read(problem_path)?, &pfile)?;
    check(&domain, &problem, &pfile)?;
    Ok((domain, problem))
}
