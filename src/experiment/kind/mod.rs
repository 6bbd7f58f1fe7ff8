//! Job kinds, one room each: what a kind of job plays or solves and the rows it writes.
//!
//! - `contract`: what the runner needs of a kind (`KindRunner`) and what a job runs with
//!   (`JobContext`, `streamed`); it knows no kind.
//! - `games` (matches and tournaments), `ga` (Othello's GA), `tune` (Freckers' tuners),
//!   `solve` (life-and-death solves and their GA): each holds its runner, its row type and
//!   frame, its units for a distributed run (`remote::UnitKind`), and what a report reads of
//!   its rows (columns, default tables and figures: `KindRunner`'s report hooks). Each imports the
//!   contract and the kind-free rooms of `experiment` (spec, grid, rows, stream, layout,
//!   remote), never another kind or the registry.
//! - `generation_report`: what the two GA kinds' reports share (their generation rows'
//!   columns and default tables); below `ga` and `solve`, like the contract.
//! - `registry`: the one list of kinds, which the runner and the distributed workers go through.

pub mod contract;
pub mod ga;
pub mod games;
pub mod generation_report;
pub mod registry;
pub mod solve;
pub mod tune;

pub use contract::{
    DefaultFigure, DefaultTable, JobContext, KindRunner, RowColumns, Sink, streamed,
};
pub use registry::{expand, kind_runner, rows_folder, unit_kinds};
