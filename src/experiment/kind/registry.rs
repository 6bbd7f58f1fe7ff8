//! The one list of job kinds: which `KindRunner` runs a kind of job (`kind_runner`), the unit
//! kinds a distributed run's workers compute (`unit_kinds`), and what goes through them for every
//! kind (`expand`'s checks, `rows_folder`). The runner and the distributed workers reach the
//! kinds only through here; what is one kind's own (its row types for `schema`, a game's seeds
//! for the game records) is read from the kind's file.

use super::contract::KindRunner;
use crate::experiment::error::InputError;
use crate::experiment::grid::Job;
use crate::experiment::spec::{Experiment, JobKind};

/// Expands an experiment into its jobs (`grid::expand_grid`) and has each job's kind check it
/// (`KindRunner::check`): the jobs every command works on.
pub fn expand(exp: &Experiment) -> Result<Vec<Job>, InputError> {
    let jobs = crate::experiment::grid::expand_grid(exp)?;
    for job in &jobs {
        kind_runner(job.config.kind).check(exp, job)?;
    }
    Ok(jobs)
}

/// The runner of a job kind.
pub fn kind_runner(kind: JobKind) -> &'static dyn KindRunner {
    match kind {
        JobKind::Match | JobKind::Tournament => &super::games::Games,
        JobKind::Ga => &super::ga::Ga,
        JobKind::Tune => &super::tune::Tune,
        JobKind::Solve => &super::solve::Solve,
        JobKind::TsumegoGa => &super::solve::TsumegoGa,
    }
}

/// The kinds of unit a distributed run's workers compute: every job kind's parallel loops
/// (`remote::UnitKind`), and the echo of `gamelab mpi-check`.
pub fn unit_kinds() -> [&'static dyn crate::experiment::remote::UnitKind; 5] {
    [
        &super::games::GamesUnit,
        &super::ga::GaGamesUnit,
        &super::solve::SolvesUnit,
        &super::solve::TsumegoGaUnit,
        &crate::experiment::remote::Echo,
    ]
}

/// The folder of a job kind's part files: `games`, `generations`, `tuning` or `solves`.
pub fn rows_folder(kind: JobKind) -> &'static str {
    kind_runner(kind).rows_folder()
}
