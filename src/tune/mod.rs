//! Tuners and the Othello GA's fitness. The tuners (`ga`, `hillclimb`) search over a flat
//! vector of bounded parameters with a fitness callback: they see only the vector and the
//! callback, never a game (DESIGN.md), and import nothing but `rng`; a game's heuristic decides
//! what the vector means (a weight table, through `symmetry` for board tables). `fitness` is the
//! one part that plays: the Othello report's evaluation of a population of weight tables by games
//! between them (`game`, `agent`, `play`), the callback the `ga` job kind hands the GA. (The
//! `tune` job kind, `experiment::kind::tune`, runs these tuners on a Freckers agent's weights by
//! games against an opponent.)

pub mod fitness;
pub mod ga;
pub mod hillclimb;
pub mod symmetry;
