//! Experiments: the file format, its expansion into jobs, the runner and the rows it writes.

pub mod error;
pub mod file_reference;
pub mod grid;
pub mod kept_weights;
pub mod kind;
pub mod layout;
pub mod older_jobs;
pub mod openings;
pub mod progress;
pub mod race;
pub mod remote;
pub mod rows;
pub mod runner;
pub mod schema;
pub mod spec;
pub mod stream;
pub mod tsumego_spec;

pub use error::InputError;
pub use grid::{Job, JobConfig};
pub use kind::expand;
pub use spec::Experiment;

/// Runs the jobs of an experiment that are not done yet (in this shard, `RunOptions::shard`): as
/// a race when the file has a `[race]` (`race::run`), every job otherwise (`runner::run`).
pub fn run(
    exp: &Experiment,
    jobs: &[Job],
    opts: &runner::RunOptions,
) -> anyhow::Result<runner::RunSummary> {
    if exp.file.race.is_some() {
        race::run(exp, jobs, opts)
    } else {
        runner::run(exp, jobs, opts)
    }
}
