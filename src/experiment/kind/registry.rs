//! The one list of job kinds: which `KindRunner` runs a kind of job (`kind_runner`), the unit
//! kinds a distributed run's workers compute (`unit_kinds`), and what goes through them for every
//! kind (`expand`'s checks, `rows_folder`). The runner and the distributed workers reach the
//! kinds only through here; what is one kind's own (its row types for `schema`, a game's seeds
//! for the game records) is read from the kind's file.

use super::contract::KindRunner;
use crate::experiment::error::InputError;
use crate::experiment::grid::Job;
use crate::experiment::spec::{Experiment, JobKind};

/// Kinds registered from outside gamelab (`register`), by name.
static REGISTERED: std::sync::RwLock<Vec<(&'static str, &'static dyn KindRunner)>> =
    std::sync::RwLock::new(Vec::new());

/// Adds a job kind from outside gamelab: files with `kind = "NAME"` run with `runner`, their
/// `[settings]` in each job's config (`JobConfig::settings`). This and the kind's own file are
/// all a new kind needs; the runner, resume, shards, locks, progress, the rows' checks and the
/// report's tables (`KindRunner::report_columns`) are the same as for gamelab's kinds. An error
/// when the name is one of gamelab's kinds or registered already.
pub fn register(name: &'static str, runner: &'static dyn KindRunner) -> anyhow::Result<()> {
    let JobKind::Other(_) = JobKind::named(name) else {
        anyhow::bail!("'{name}' is one of gamelab's own job kinds");
    };
    let mut kinds = REGISTERED.write().expect("the registered kinds");
    if kinds.iter().any(|(n, _)| *n == name) {
        anyhow::bail!("job kind '{name}' is registered already");
    }
    kinds.push((name, runner));
    Ok(())
}

/// The runner of a job kind, if it has one (every built-in kind; other kinds once registered).
pub fn find(kind: JobKind) -> Option<&'static dyn KindRunner> {
    Some(match kind {
        JobKind::Match | JobKind::Tournament => &super::games::Games,
        JobKind::Ga => &super::ga::Ga,
        JobKind::Tune => &super::tune::Tune,
        JobKind::Solve => &super::solve::Solve,
        JobKind::TsumegoGa => &super::solve::TsumegoGa,
        JobKind::Other(name) => {
            let kinds = REGISTERED.read().expect("the registered kinds");
            return kinds.iter().find(|(n, _)| *n == name).map(|(_, r)| *r);
        }
    })
}

/// Every kind a file may name: gamelab's own, then the registered ones.
pub fn names() -> Vec<&'static str> {
    let registered = REGISTERED.read().expect("the registered kinds");
    crate::experiment::spec::BUILT_IN_KINDS
        .iter()
        .map(|k| k.name())
        .chain(registered.iter().map(|(n, _)| *n))
        .collect()
}

/// Expands an experiment into its jobs (`grid::expand_grid`) and has each job's kind check it
/// (`KindRunner::check`): the jobs every command works on. A kind without a runner is an error
/// at the file's `kind`.
pub fn expand(exp: &Experiment) -> Result<Vec<Job>, InputError> {
    if find(exp.file.kind).is_none() {
        // As serde words an unknown name, with the nearest kind suggested.
        let message = format!(
            "unknown variant `{}`, expected one of {}",
            exp.file.kind.name(),
            names()
                .iter()
                .map(|n| format!("`{n}`"))
                .collect::<Vec<_>>()
                .join(", ")
        );
        return Err(exp.error("kind", crate::experiment::error::with_suggestion(&message)));
    }
    let jobs = expand_grid(exp)?;
    for job in &jobs {
        kind_runner(job.config.kind).check(exp, job)?;
    }
    Ok(jobs)
}

/// The jobs of `exp` from its grid, each point's own sections checked by its kind
/// (`KindRunner::point_agents`), without the kind's checks of whole jobs (`expand` adds those):
/// what names the jobs. A kind without a runner plays every agent of the file.
pub fn expand_grid(exp: &Experiment) -> Result<Vec<Job>, InputError> {
    use crate::experiment::grid::{KindChecks, PointAgents, solves_no_problems};
    let runner = find(exp.file.kind);
    crate::experiment::grid::expand_grid(
        exp,
        &KindChecks {
            point_agents: &|file| match runner {
                Some(r) => r.point_agents(file),
                None => Ok(PointAgents::every_agent(file)),
            },
            library_point: &|file, library, base, config| match runner {
                Some(r) => r.library_point(file, library, base, config),
                None => Err(solves_no_problems()),
            },
        },
    )
}

/// The runner of a job kind that has one: every kind of an expanded experiment (`expand`
/// refuses a kind without a runner before anything runs).
pub fn kind_runner(kind: JobKind) -> &'static dyn KindRunner {
    find(kind).unwrap_or_else(|| {
        panic!(
            "job kind '{}' has no runner: experiment::expand refuses it first",
            kind.name()
        )
    })
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
