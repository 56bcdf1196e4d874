//! corvus: a domain-independent classical planner.
//!
//! Data flows one way:
//! text → [`pddl`] (AST) → [`ground`] ([`task::Task`]) → [`search`] + [`heuristic`]
//! → [`plan`] (validate, write). [`asp`] sits at the edges and translates ASP
//! competition facts to PDDL problems and plans back to witness facts.
//! [`planner`] wires the stages together for the command line. [`show`]
//! draws Hanoi and Sokoban plans as text, and [`sokoban_xsb`] reads Sokoban
//! levels in the XSB format and replays LURD solutions.

pub mod asp;
pub mod ground;
pub mod heuristic;
pub mod mutex;
pub mod pddl;
pub mod plan;
pub mod planner;
pub mod search;
pub mod show;
pub mod sokoban_xsb;
pub mod state;
pub mod task;
