//! Experiments: the file format, its expansion into jobs, the runner and the rows it writes.

pub mod error;
pub mod file_reference;
pub mod ga_job;
pub mod games_job;
pub mod grid;
pub mod job_kind;
pub mod openings;
pub mod race;
pub mod remote;
pub mod rows;
pub mod runner;
pub mod schema;
pub mod solve_job;
pub mod spec;
pub mod stream;
pub mod tsumego_spec;
pub mod tune_job;

pub use error::InputError;
pub use grid::{Job, JobConfig};
pub use job_kind::expand;
pub use spec::Experiment;
