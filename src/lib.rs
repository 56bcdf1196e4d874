//! corvus: a domain-independent classical planner.
//!
//! Data flows one way:
//! text → [`pddl`] (AST) → [`ground`] ([`task::Task`]) → [`search`] + [`heuristic`]
//! → [`plan`] (validate, write). [`asp`] sits at the edges and translates ASP
//! competition facts to PDDL problems and plans back to witness facts.
//! [`planner`] wires the stages together for the command line.

pub mod asp;
pub mod ground;
pub mod heuristic;
pub mod mutex;
pub mod pddl;
pub mod plan;
pub mod planner;
pub mod search;
pub mod state;
pub mod task;
