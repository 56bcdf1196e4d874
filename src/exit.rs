//! Exit codes of the `corvus` binary: Fast Downward's table where a code has
//! a meaning there, plus clap's usage code and the shell's code for SIGINT.
//! The README's table lists the same numbers; every command and every error
//! type takes its code from here.

pub const PLAN_FOUND: i32 = 0;
/// `corvus validate`: the plan is not valid (also `show`, `sokoban lurd`;
/// `sokoban replay`: the level is not solved).
pub const PLAN_INVALID: i32 = 1;
/// Bad command-line arguments: clap's own code, also used for a request
/// the arguments cannot mean (`show --step` beyond the plan).
pub const USAGE: i32 = 2;
/// Proven: no plan exists (within the bound, when one is given).
pub const UNSOLVABLE: i32 = 11;
/// The search ended without a plan and without a proof.
pub const INCOMPLETE: i32 = 12;
pub const OUT_OF_MEMORY: i32 = 22;
pub const OUT_OF_TIME: i32 = 23;
/// Stopped by a signal: SIGINT (Ctrl-C), SIGTERM (what a cluster scheduler
/// sends) or SIGHUP, alike: 128 + 2, as a shell reports a process ended by
/// Ctrl-C. Fast Downward's 24 means "out of memory and out of time", which
/// corvus never reports, so corvus leaves 24 unused rather than give it
/// another meaning.
pub const INTERRUPTED: i32 = 130;
pub const INTERNAL_ERROR: i32 = 30;
/// Unreadable file, syntax error, undeclared name, type error.
pub const INPUT_ERROR: i32 = 31;
pub const UNSUPPORTED: i32 = 34;
