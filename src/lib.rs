//! corvus: a domain-independent classical planner.
//!
//! Data flows one way:
//! text → [`pddl`] (AST) → [`normalize`] → [`ground`] ([`task::Task`]) → [`search`] + [`heuristic`]
//! → [`plan`] (validate, write). [`planner`] wires the stages together for
//! the command line. [`puzzles`] sits at the edges: the ASP competition
//! bridge ([`puzzles::asp`]: facts to PDDL problems, plans back to witness
//! facts), pictures of Hanoi and Sokoban plans ([`puzzles::show`]), and
//! Sokoban levels in the XSB format with LURD solutions ([`puzzles::xsb`]).
//!
//! [`commands`] holds the `corvus` subcommands that `src/main.rs` calls once
//! it has parsed the arguments; they return the codes of [`exit`] and write
//! the [`commands::stats_json`] file. [`limits`] watches time, memory and
//! signals in every phase. [`rng`] holds the seeded random generators, for
//! what must be the same on every run.

pub mod aliases;
pub mod commands;
pub mod config;
pub mod exit;
pub mod ground;
pub mod heuristic;
pub mod limits;
pub mod normalize;
pub mod pddl;
pub mod plan;
pub mod planner;
pub mod puzzles;
pub mod rng;
pub mod search;
pub mod task;
