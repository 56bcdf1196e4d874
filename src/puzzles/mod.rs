//! The puzzle edge: everything that knows about Tower of Hanoi and Sokoban
//! as puzzles rather than as PDDL tasks. The planner core never imports
//! from here.
//!
//! - [`asp`]: the ASP Competition bridge (instance facts to PDDL problems,
//!   plans back to witness facts, the step-bounded `asp solve`).
//! - [`show`]: pictures of the states along a replayed plan; LURD export.
//! - [`xsb`]: Sokoban levels in the XSB text format; LURD replay.

pub mod asp;
pub mod show;
pub mod xsb;
