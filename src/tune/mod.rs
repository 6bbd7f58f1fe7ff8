//! Tuners: search over a flat vector of bounded parameters with a fitness callback. They see
//! only the vector and the callback, never a game (DESIGN.md): a game's heuristic decides what
//! the vector means (a weight table, through `symmetry` for board tables).

pub mod fitness;
pub mod ga;
pub mod hillclimb;
pub mod symmetry;
