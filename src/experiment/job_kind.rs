//! One trait per job kind: what the runner needs to know of a kind (where its rows go, what its
//! progress counts, how to run one job of it). Adding a kind means one file with one
//! `KindRunner` and one arm in `kind_runner`; the runner owns only what every kind shares
//! (shards, locks, resume, progress, threads).

use super::error::InputError;
use super::grid::Job;
use super::rows::{Format, JobColumns};
use super::spec::{Experiment, JobKind};
use super::stream::{JobStream, PartId};
use anyhow::{Context, Result};
use polars::prelude::DataFrame;
use std::path::{Path, PathBuf};

/// A job kind as the runner sees it.
pub trait KindRunner: Sync {
    /// The folder of its part files under the results folder.
    fn rows_folder(&self) -> &'static str;
    /// What its progress bar counts.
    fn unit(&self) -> &'static str;
    /// How many of those a job has.
    fn steps(&self, job: &Job) -> usize;
    /// What one step of `job` costs next to a step of another job of the same file, for the
    /// ETA (a sweep's steps are not all alike: a game at 1,000 iterations a move costs forty at
    /// 25). The runner turns it into time with the run's measured rate; 1 by default.
    fn step_weight(&self, _job: &Job) -> u64 {
        1
    }
    /// Whether a job whose part is sealed goes on, and from which unit: a streamed job that ended
    /// after `units` units carrying `carry` (its record's `ended`), now asked for more (a match
    /// grown to more games). None, the default, keeps it done.
    fn grows(&self, _job: &Job, _units: usize, _carry: &serde_json::Value) -> Option<usize> {
        None
    }
    /// Runs (or resumes) one job and seals its part; returns the rows written.
    fn run(&self, cx: &JobContext) -> Result<usize>;
    /// What only this kind can check of a job before anything runs (an input error names the
    /// key); nothing by default.
    fn check(&self, _exp: &Experiment, _job: &Job) -> Result<(), InputError> {
        Ok(())
    }
}

/// Expands an experiment into its jobs (`grid::expand_grid`) and has each job's kind check it
/// (`KindRunner::check`): the jobs every command works on.
pub fn expand(exp: &Experiment) -> Result<Vec<Job>, InputError> {
    let jobs = super::grid::expand_grid(exp)?;
    for job in &jobs {
        kind_runner(job.config.kind).check(exp, job)?;
    }
    Ok(jobs)
}

/// The runner of a job kind.
pub fn kind_runner(kind: JobKind) -> &'static dyn KindRunner {
    match kind {
        JobKind::Match | JobKind::Tournament => &super::games_job::Games,
        JobKind::Ga => &super::ga_job::Ga,
        JobKind::Tune => &super::tune_job::Tune,
        JobKind::Solve => &super::solve_job::Solve,
        JobKind::TsumegoGa => &super::solve_job::TsumegoGa,
    }
}

/// What a job runs with: the job, its files, its row identity, and the run's settings.
pub struct JobContext<'a> {
    pub job: &'a Job,
    pub files: JobFiles,
    pub id: JobColumns<'a>,
    pub part_id: PartId<'a>,
    pub format: Format,
    /// The run's output root (`--out`): other experiments' results (`trained:`) are under it.
    pub out: &'a Path,
    /// Life-and-death jobs: the problem library's folder.
    pub library: Option<PathBuf>,
    /// Advances the progress bar by this many steps.
    pub progress: &'a (dyn Fn(u64) + Sync),
}

impl JobContext<'_> {
    /// The job's stream of batches (resuming the saved ones).
    pub fn stream(&self) -> Result<JobStream<'_>> {
        JobStream::open(
            self.part_id,
            self.format,
            self.files.part.clone(),
            self.files.record.clone(),
            self.files.partial.clone(),
        )
    }

    /// Writes a whole part (kinds that checkpoint on their own) at `path`, sealed.
    pub fn write_part(&self, path: &Path, df: DataFrame) -> Result<usize> {
        super::stream::write_part(path, &self.files.record, df, self.format, self.part_id)
    }

    pub fn library(&self) -> Result<&Path> {
        self.library
            .as_deref()
            .context("a life-and-death job reads a problem library")
    }
}

/// What a chunk of a job's units hands on: its rows, the units done after it, the carried state.
pub type Sink<'s, R> = dyn FnMut(Vec<R>, usize, &serde_json::Value) -> Result<()> + 's;

/// Streams units through `stream`: rows are held until the stream says a batch is due, then
/// saved; what is held at the end is sealed with the saved batches into the part.
pub fn streamed<R>(
    stream: JobStream,
    frame: &dyn Fn(&[R]) -> Result<polars::prelude::DataFrame>,
    produce: impl FnOnce(usize, &serde_json::Value, &mut Sink<R>) -> Result<()>,
) -> Result<usize> {
    let mut stream = stream;
    let (from, carry) = (stream.units_done(), stream.carry());
    let mut held: Vec<R> = Vec::new();
    let mut end = (from, carry.clone());
    produce(from, &carry, &mut |rows, done, carry| {
        held.extend(rows);
        end = (done, carry.clone());
        if stream.due(held.len()) {
            stream.save_batch(frame(&held)?, done, carry.clone())?;
            held.clear();
        }
        Ok(())
    })?;
    stream.end_at(end.0, end.1);
    stream.finish(frame(&held)?)
}

/// The files a job writes under its experiment's results folder (`dir`).
pub struct JobFiles {
    /// The experiment's results folder the others are in (its `logs/` too).
    pub results: PathBuf,
    /// The rows; the job is done when it is there and passes its check (`stream`).
    pub part: PathBuf,
    pub checkpoint: PathBuf,
    /// A GA's best table (Othello).
    pub table: PathBuf,
    /// The resolved config (`jobs/<hash>.json`).
    pub record: PathBuf,
    /// A life-and-death GA's best weights.
    pub weights: PathBuf,
    /// A life-and-death GA's test solves.
    pub test_part: PathBuf,
    /// The batches of a running job (`partial/<hash>`).
    pub partial: PathBuf,
}

impl JobFiles {
    pub fn of(dir: &Path, rows_dir: &Path, hash: &str, format: Format) -> JobFiles {
        let table = dir.join("tables").join(format!("{hash}.txt"));
        JobFiles {
            results: dir.to_path_buf(),
            part: rows_dir.join(format!("part-{hash}.{}", format.ext())),
            checkpoint: dir.join("checkpoints").join(format!("{hash}.json")),
            weights: table.with_extension("weights"),
            table,
            record: dir.join("jobs").join(format!("{hash}.json")),
            test_part: dir
                .join("solves")
                .join(format!("part-{hash}.{}", format.ext())),
            partial: dir.join("partial").join(hash),
        }
    }

    /// Removes what the job wrote (part files in either format, the rows first so that the job
    /// counts as not run from the first removal on), to run it again from the start.
    pub fn remove_outputs(&self) -> Result<()> {
        let parts =
            |part: &Path| [Format::Parquet, Format::Csv].map(|f| part.with_extension(f.ext()));
        for path in parts(&self.part)
            .iter()
            .chain(&parts(&self.test_part))
            .chain([&self.checkpoint, &self.table, &self.weights])
        {
            match std::fs::remove_file(path) {
                Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                    return Err(e).with_context(|| format!("removing {}", path.display()));
                }
                _ => {}
            }
        }
        crate::durable::remove_own_folder(&self.partial, super::stream::is_batch_file)
    }
}
