//! Exit codes of the `corvus` binary: Fast Downward's table, plus clap's
//! usage code. The README's table lists the same numbers; every command and
//! every error type takes its code from here.

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
/// SIGINT (Ctrl-C), SIGTERM and SIGHUP alike: a cluster scheduler's
/// SIGTERM is a request to stop, not a verdict on time or memory.
pub const INTERRUPTED: i32 = 24;
pub const INTERNAL_ERROR: i32 = 30;
/// Unreadable file, syntax error, undeclared name, type error.
pub const INPUT_ERROR: i32 = 31;
pub const UNSUPPORTED: i32 = 34;
