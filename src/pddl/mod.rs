//! PDDL input: the pest grammar in `grammar/pddl.pest`, the AST in [`ast`],
//! the type hierarchy, and checks of names, arities and types.

pub mod ast;
mod check;
mod parse;
mod strata;
mod types;

pub use ast::*;
pub use check::warnings;
pub use strata::{levels, strata};
pub use types::TypeHierarchy;

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

/// An input error with its place: `file:line:col: message`, or
/// `file: message` for a file that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub struct PddlError {
    pub kind: ErrorKind,
    pub file: String,
    pub location: Location,
    pub message: String,
}

impl std::fmt::Display for PddlError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.kind {
            ErrorKind::Io => write!(f, "{}: {}", self.file, self.message),
            _ => write!(
                f,
                "{}:{}:{}: {}",
                self.file, self.location.line, self.location.col, self.message
            ),
        }
    }
}

/// Parses a domain file's text and checks it on its own (declared types,
/// predicates, constants and variables, arities). `file` is used in error
/// messages only.
pub fn parse_domain(text: &str, file: &str) -> Result<Domain, PddlError> {
    let (domain, type_locations) = parse::domain(text, file)?;
    check::domain(&domain, &type_locations, file)?;
    Ok(domain)
}

/// Parses a problem file's text. `file` is used in error messages only.
pub fn parse_problem(text: &str, file: &str) -> Result<Problem, PddlError> {
    parse::problem(text, file).map(|(problem, _)| problem)
}

/// Checks a problem against its domain: the domain's name in the problem's
/// `(:domain ...)`, declared predicates, objects and types, arities, and
/// that every argument's type fits. The AST keeps no place for initial
/// facts and the domain name, so errors in them point at 0:0 here; [`load`]
/// reports their real place.
pub fn check(domain: &Domain, problem: &Problem, problem_file: &str) -> Result<(), PddlError> {
    check::domain_name(domain, problem, Location::default(), problem_file)?;
    check::problem(domain, problem, None, problem_file)
}

/// The objects of a problem: the domain's constants, then the problem's
/// objects that are not also constants (IPC files often declare both).
pub fn objects(domain: &Domain, problem: &Problem) -> Vec<TypedName> {
    let mut out = domain.constants.clone();
    for o in &problem.objects {
        if !out.iter().any(|c| c.name == o.name) {
            out.push(o.clone());
        }
    }
    out
}

/// Reads a text file (PDDL or a plan). Text that is not UTF-8 is refused at
/// its first bad byte, with the byte's value.
pub fn read_text(path: &Path) -> Result<String, PddlError> {
    let file = path.display().to_string();
    let bytes = std::fs::read(path).map_err(|e| PddlError {
        kind: ErrorKind::Io,
        file: file.clone(),
        location: Location { line: 0, col: 0 },
        message: format!("cannot read file: {e}"),
    })?;
    String::from_utf8(bytes).map_err(|e| {
        let offset = e.utf8_error().valid_up_to();
        let bytes = e.as_bytes();
        // Everything before the bad byte is valid, so its place is counted in characters.
        let before = std::str::from_utf8(&bytes[..offset]).unwrap_or_default();
        let location = Places::new(before).at(offset);
        PddlError {
            kind: ErrorKind::Syntax,
            file,
            location,
            message: format!("expected UTF-8 text, found the byte 0x{:02X}", bytes[offset]),
        }
    })
}

/// Reads, parses and checks a domain and a problem file. The problem's
/// objects come back without the names that are domain constants.
pub fn load(domain_path: &Path, problem_path: &Path) -> Result<(Domain, Problem), PddlError> {
    let dfile = domain_path.display().to_string();
    let pfile = problem_path.display().to_string();
    let domain = parse_domain(&read_text(domain_path)?, &dfile)?;
    let problem = parse_problem_for(&domain, &read_text(problem_path)?, &pfile)?;
    Ok((domain, problem))
}

/// Parses a problem's text and checks it against `domain`, with the real
/// places of errors in initial facts (unlike [`check`]). As with [`load`],
/// the objects come back without the names that are domain constants.
pub fn parse_problem_for(domain: &Domain, text: &str, file: &str) -> Result<Problem, PddlError> {
    let (mut problem, places) = parse::problem(text, file)?;
    check::domain_name(domain, &problem, places.domain, file)?;
    check::problem(domain, &problem, Some(&places), file)?;
    // Objects that are also domain constants are dropped here, so that later
    // stages can simply take constants followed by objects.
    problem
        .objects
        .retain(|o| !domain.constants.iter().any(|c| c.name == o.name));
    Ok(problem)
}
