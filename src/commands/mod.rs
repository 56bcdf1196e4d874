//! The `corvus` subcommands behind the command line (`src/main.rs` parses
//! the arguments and calls one function here). Each function logs to
//! stderr, writes its outputs and returns the exit code ([`crate::exit`]);
//! an error is printed as `error: ...` with the code its type carries.
//!
//! `solve.rs`: `solve`, `validate`; `asp.rs`: the `asp` subcommands;
//! `puzzles.rs`: `show` and the `sokoban` subcommands; `puzzle_args.rs`: the
//! arguments of the puzzle subcommands and their dispatch.

mod asp;
pub mod cli;
mod files;
mod puzzle_args;
mod puzzles;
mod solve;
pub mod stats_json;

use std::io::{self, Write};
use std::path::Path;

use crate::exit;
use crate::pddl::PddlError;
use crate::plan::{InvalidPlan, PlanParseError};
use crate::planner::PlannerError;
use crate::puzzles::asp::AspError;
use crate::puzzles::show::ShowError;
use crate::puzzles::xsb::{LurdError, XsbError};
use stats_json::Stats;

pub use asp::{asp_generate_hanoi, asp_solve, asp_translate, asp_witness};
pub use puzzle_args::{AspCommand, ShowArgs, SokobanCommand};
pub use puzzles::{ShowFrames, show, sokoban_import, sokoban_lurd, sokoban_replay};
pub use solve::{domain_of, solve, validate};

/// Why a command failed; printed as `error: {self}`.
#[derive(Debug, thiserror::Error)]
pub enum CommandError {
    #[error("{0}")]
    Planner(#[from] PlannerError),
    #[error("{0}")]
    PlanFile(#[from] PlanParseError),
    #[error("{0}")]
    Asp(#[from] AspError),
    #[error("{0}")]
    Show(#[from] ShowError),
    #[error("{0}")]
    Level(#[from] XsbError),
    #[error("{0}")]
    Lurd(#[from] LurdError),
    /// A plan that does not apply, found after its valid part was shown.
    #[error("plan invalid: {0}")]
    InvalidPlan(#[from] InvalidPlan),
    /// A file, stdin or stdout that cannot be read or written.
    #[error("{what}: {source}")]
    Io { what: String, source: io::Error },
    /// Input that is wrong in a way only the command sees (e.g. the
    /// parameters of a generated instance).
    #[error("{0}")]
    Input(String),
    /// Arguments that clap accepts but the command cannot mean.
    #[error("{0}")]
    Usage(String),
}

impl From<PddlError> for CommandError {
    fn from(e: PddlError) -> Self {
        CommandError::Planner(PlannerError::Input(e))
    }
}

impl CommandError {
    pub fn exit_code(&self) -> i32 {
        match self {
            CommandError::Planner(e) => e.exit_code(),
            CommandError::Asp(e) => e.exit_code(),
            CommandError::Show(e) => e.exit_code(),
            CommandError::Level(e) => e.exit_code(),
            CommandError::Lurd(e) => e.exit_code(),
            CommandError::InvalidPlan(_) => exit::PLAN_INVALID,
            CommandError::PlanFile(_) | CommandError::Io { .. } | CommandError::Input(_) => exit::INPUT_ERROR,
            CommandError::Usage(_) => exit::USAGE,
        }
    }

    /// An I/O error, printed as `what: error` (`what` names the file first).
    fn io(what: impl Into<String>) -> impl FnOnce(io::Error) -> CommandError {
        let what = what.into();
        move |source| CommandError::Io { what, source }
    }
}

/// The exit code of a command's result, printing the error if it failed.
fn finish(result: Result<i32, CommandError>) -> i32 {
    result.unwrap_or_else(|e| {
        eprintln!("error: {e}");
        e.exit_code()
    })
}

/// A text file (a plan, a witness): text that is not UTF-8 is refused at
/// its first bad byte, as PDDL files are.
fn read_file(path: &Path) -> Result<String, CommandError> {
    Ok(crate::pddl::read_text(path)?)
}

/// Writes to stdout and flushes. A closed pipe (`| head`) is the reader's
/// choice, not an error.
fn write_stdout(write: impl FnOnce(&mut io::StdoutLock<'static>) -> io::Result<()>) -> Result<(), CommandError> {
    let mut out = io::stdout().lock();
    match write(&mut out).and_then(|()| out.flush()) {
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => Err(CommandError::io("stdout: cannot write")(e)),
        _ => Ok(()),
    }
}

/// Writes the `--stats-json` file, if one is asked for; returns `exit_code`,
/// or the input-error code if the file cannot be written.
fn write_stats(path: Option<&Path>, stats: &Stats, exit_code: i32) -> i32 {
    let Some(path) = path else {
        return exit_code;
    };
    let written = stats
        .to_json(exit_code)
        .map_err(io::Error::from)
        .and_then(|text| files::write(path, text.as_bytes()));
    if let Err(e) = written {
        // The exit code reports the run; its plan, if any, is written.
        eprintln!("warning: {}: cannot write statistics file: {e}", path.display());
    }
    exit_code
}
