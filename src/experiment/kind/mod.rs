//! Job kinds, one room each: what a kind of job plays or solves and the rows it writes.
//!
//! - `contract`: what the runner needs of a kind (`KindRunner`) and what a job runs with
//!   (`JobContext`, `streamed`); it knows no kind.
//! - `games` (matches and tournaments), `ga` (Othello's GA), `tune` (Freckers' tuners),
//!   `solve` (life-and-death solves and their GA): each holds its runner, its row type and
//!   frame, and its units for a distributed run (`remote::UnitKind`). Each imports the
//!   contract and the kind-free rooms of `experiment` (spec, grid, rows, stream, layout,
//!   remote), never another kind or the registry.
//! - `registry`: the one list of kinds, which the runner and the distributed workers go through.

pub mod contract;
pub mod ga;
pub mod games;
pub mod registry;
pub mod solve;
pub mod tune;

pub use contract::{JobContext, KindRunner, Sink, streamed};
pub use registry::{expand, kind_runner, rows_folder, unit_kinds};
