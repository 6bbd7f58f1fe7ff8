//! Go life-and-death (tsume-go) on closed regions: the model of `shared/rules/tsumego.md` for
//! the GoTools report.
//!
//! - `board`: the region R (at most 64 points, u64 bitsets), positions, captures and suicide.
//! - `life`: Benson's unconditional life and the proofs of death (the terminal tests).
//! - `heuristic`: the named static and dynamic features and their weight vectors.
//! - `solver`: proof-number search (df-pn, the default) or plain AND/OR depth-first search, each
//!   with a transposition table, the status sweep over ko threats (`l`, `d`, `lNd`, `dNl`),
//!   counters (nodes, leaves, table hits, depth, time).
//! - `problem`: the problem text format, drawing, SGF import and export.
//! - `gotools`: GoTools' own problem files (`lvA.B`) with their answers, read for comparison.
//! - `check`: our answers beside recorded ones (GoTools'), per question and per level.
//! - `generate`: the seeded `lv<set>-<level>` problem library and its calibration.
//! - `library`: libraries as experiments name them (generated once, cached) and selections.
//! - `fitness`: the GoTools report's static (rank bonus) and dynamic (leaves) fitness.
//!
//! Life-and-death is not a two-player game to the end, so it does not implement `Game`: the
//! solver is what the experiments run.

pub mod board;
pub mod check;
pub mod fitness;
pub mod generate;
pub mod gotools;
pub mod gtp;
pub mod heuristic;
pub mod library;
pub mod life;
pub mod line;
pub mod problem;
pub mod solver;

#[cfg(test)]
mod tests;

pub use board::{Move, Position, Region, Side};
pub use heuristic::{WeightSet, Weights};
pub use problem::{Problem, parse_problems, parse_sgf};
pub use solver::{Counters, Limits, Solution, Solver, Status};
