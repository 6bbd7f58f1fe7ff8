//! The contract between the runner and a job kind: what the runner needs to know of a kind
//! (where its rows go, what its progress counts, what it reads from other experiments, how to run
//! one job of it: `KindRunner`) and what a job runs with (`JobContext`, `streamed`). The runner
//! owns only what every kind shares (shards, locks, resume, progress, threads); this module
//! knows no kind (`registry` lists them).

use crate::experiment::error::InputError;
use crate::experiment::grid::{Job, JobConfig, PointAgents};
use crate::experiment::layout::JobFiles;
use crate::experiment::rows::{Format, JobColumns};
use crate::experiment::spec::{Experiment, ExperimentFile};
use crate::experiment::stream::{Handed, JobStream, PartId};
use crate::game::tsumego::library::LibrarySpec;
use crate::report::spec::{FigureKind, FigureSpec, RowSource, TableSpec};
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
    /// Checks this kind's own sections of a game-playing grid point (`file`, the point's values
    /// written in: a match's players and games, a GA's `[ga]` and `[arena]`) and says which
    /// agents the point plays; an error is (key, message). Run as the grid expands, before the
    /// point's agents are built on its start. By default every agent of the file, and no section
    /// of its own (a kind from outside gamelab reads `[settings]`, checked in `check`).
    fn point_agents(&self, file: &ExperimentFile) -> Result<PointAgents, (String, String)> {
        Ok(PointAgents::every_agent(file))
    }
    /// Checks this kind's own section of a life-and-death grid point (`game = "tsumego"`)
    /// against the point's `library`, resolves its weight vectors from the file's folder
    /// `base`, and writes it into `config`; an error is (key, message). By default the kind
    /// solves no problems: the error says which kinds do.
    fn library_point(
        &self,
        _file: &ExperimentFile,
        _library: &LibrarySpec,
        _base: &Path,
        _config: &mut JobConfig,
    ) -> Result<(), (String, String)> {
        Err(crate::experiment::grid::solves_no_problems())
    }
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
    /// What a report may read of this kind's rows (`[[report.tables]]`'s keys, measures and
    /// units, beside the grid keys). None of its own by default: a unit of `repeat` or `job`.
    fn report_columns(&self) -> RowColumns {
        RowColumns::of(&[], &[])
    }
    /// Whether its rows are games that a table may score (statistic `score` or `rating`);
    /// otherwise `Err` with what the rows are scored by instead, for the error of a table that
    /// asks. Not games by default.
    fn scores_games(&self) -> Result<(), &'static str> {
        Err("these rows have no games to score")
    }
    /// The rows a table of this kind may read beside its own (`rows = "arena"`: a GA's arena
    /// games; `rows = "solves"`: a `tsumego_ga`'s test problems). None by default.
    fn other_rows(&self) -> &'static [RowSource] {
        &[]
    }
    /// The columns a table groups by when it names none, before the grid keys (`agent` for
    /// games). None by default.
    fn default_group(&self) -> &'static [&'static str] {
        &[]
    }
    /// The tables a report makes when the file's `[report]` names none, each with its figure.
    /// `group` is the default group (`default_group`, then the grid keys). By default there
    /// are none: the error says to give `[[report.tables]]`.
    fn default_tables(
        &self,
        exp: &Experiment,
        group: &[String],
    ) -> Result<Vec<DefaultTable>, InputError> {
        let _ = group;
        Err(exp.error(
            "report",
            format!(
                "kind = \"{}\" has no default table: give [[report.tables]] (statistic = \"mean\" of one of its measures: {})",
                exp.file.kind.name(),
                self.report_columns().measures.join(", ")
            ),
        ))
    }
    /// Figures a report adds after its tables' when `[report]` names no figures (a
    /// tournament's matrix). None by default.
    fn extra_figures(&self, _exp: &Experiment) -> Vec<FigureSpec> {
        Vec::new()
    }
    /// Files of its own a report writes beside its tables in `folder` (a `tsumego_ga`'s
    /// trained weights, which `trained:` reads from a kept report), from the results of `jobs`
    /// under `results`; their names. None by default.
    fn report_files(&self, _jobs: &[Job], _results: &Path, _folder: &Path) -> Result<Vec<String>> {
        Ok(Vec::new())
    }
    /// What this kind's experiments cannot draw of a figure the file names, as the figure's
    /// error. By default the evolved weights of a GA (`weights = "evolved"`), which only a GA
    /// has.
    fn figure_error(&self, _exp: &Experiment, f: &FigureSpec) -> Option<&'static str> {
        (f.kind == FigureKind::Heatmap && f.weights.as_deref() == Some("evolved"))
            .then_some("weights = \"evolved\" draws a GA experiment's best tables")
    }
    /// Runs (or resumes) one job and seals its part; returns the rows written.
    fn run(&self, cx: &JobContext) -> Result<usize>;
    /// What a job reads from other experiments' results (`trained:` weights), resolved now, or
    /// None when it reads nothing (the default). The runner keeps it in the job's record and runs
    /// a finished job again when it changed; an error names the file key that could not be read.
    fn inputs(
        &self,
        _job: &Job,
        _out: &Path,
    ) -> Result<Option<serde_json::Value>, (String, anyhow::Error)> {
        Ok(None)
    }
    /// What only this kind can check of a job before anything runs (an input error names the
    /// key); nothing by default.
    fn check(&self, _exp: &Experiment, _job: &Job) -> Result<(), InputError> {
        Ok(())
    }
}

/// What a report may read of a kind's rows, beside the grid keys.
#[derive(Clone, Debug, PartialEq)]
pub struct RowColumns {
    /// Columns a table may group and filter by.
    pub keys: &'static [&'static str],
    /// Numeric columns a mean may average (`w_*`: a pattern over columns).
    pub measures: &'static [&'static str],
    /// Columns a mean's `unit` may name (the independent units of the rows).
    pub units: Vec<&'static str>,
}

impl RowColumns {
    /// Rows whose units are the repeat, the job, or one of their keys (a kind from outside).
    pub fn of(keys: &'static [&'static str], measures: &'static [&'static str]) -> RowColumns {
        let mut units = vec!["repeat", "job"];
        units.extend(keys.iter().copied());
        RowColumns {
            keys,
            measures,
            units,
        }
    }

    /// Rows with the units named.
    pub fn with_units(
        keys: &'static [&'static str],
        measures: &'static [&'static str],
        units: &[&'static str],
    ) -> RowColumns {
        RowColumns {
            keys,
            measures,
            units: units.to_vec(),
        }
    }
}

/// One of a kind's default tables (`KindRunner::default_tables`) and its figure.
pub struct DefaultTable {
    pub table: TableSpec,
    pub figure: DefaultFigure,
}

/// How a default table is drawn when `[report]` names no figures.
pub enum DefaultFigure {
    /// As any table: bars, or a curve against a numeric key of three or more values; none for a
    /// table of no key or more than two.
    Usual,
    /// This figure (its `table` names what it draws, if anything).
    This(FigureSpec),
    /// No figure.
    Undrawn,
}

impl DefaultTable {
    /// A table drawn as any table is.
    pub fn usual(table: TableSpec) -> DefaultTable {
        DefaultTable {
            table,
            figure: DefaultFigure::Usual,
        }
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
    /// What the job says of itself while it runs and when it ends (`progress`): its games'
    /// scores, why it stopped early.
    pub tally: &'a crate::experiment::progress::JobTally,
    /// Counts rows an earlier run of this job saved and this run keeps (saved batches, a grown
    /// job's part, a checkpoint's generations): they are among the rows `KindRunner::run`
    /// returns, and the run's summary counts them as kept, not as written.
    pub kept: &'a (dyn Fn(usize) + Sync),
}

impl JobContext<'_> {
    /// The job's stream of batches (resuming the saved ones, whose rows count as kept).
    pub fn stream(&self) -> Result<JobStream<'_>> {
        let stream = JobStream::open(
            self.part_id,
            self.format,
            self.files.part.clone(),
            self.files.record.clone(),
            self.files.partial.clone(),
        )?;
        (self.kept)(stream.rows_saved());
        Ok(stream)
    }

    /// Writes a whole part (kinds that checkpoint on their own) at `path`, sealed.
    pub fn write_part(&self, path: &Path, df: DataFrame) -> Result<usize> {
        crate::experiment::stream::write_part(
            path,
            &self.files.record,
            df,
            self.format,
            self.part_id,
        )
    }

    pub fn library(&self) -> Result<&Path> {
        self.library
            .as_deref()
            .context("a life-and-death job reads a problem library")
    }
}

/// What a chunk of a job's units hands on: its rows, the units done after it, the carried state.
pub type Sink<'s, R> = dyn FnMut(Vec<R>, usize, &serde_json::Value) -> Result<()> + 's;

/// Streams units through `stream`: rows are held until a batch is due (`FLUSH_ROWS` rows or
/// `FLUSH_SECONDS`), then handed to a writer thread that makes the batch's frame, saves it and
/// adds it to the part (`JobStream::write_through`) while the next units run; at most one batch
/// waits for it, so memory stays at a few batches. After the last rows the writer seals the
/// part. A batch is kept once the stream has saved it, so a kill during a write loses only
/// unsaved rows, which the next run plays again; rows never depend on when a batch was written.
///
/// Why a thread: the writes (frames, Parquet encoding, compression, and the part) were a
/// third of a cheap match's CPU, and done in line they left every other worker idle, so a
/// second thread gained 1.24x (#83). The writer is a plain thread, not a pool worker, for the
/// reason `pool::outside_workers` gives; so a run of `--threads N` plays on N threads and
/// writes on one more.
pub fn streamed<R: Send>(
    stream: JobStream,
    frame: &(dyn Fn(&[R]) -> Result<polars::prelude::DataFrame> + Sync),
    produce: impl FnOnce(usize, &serde_json::Value, &mut Sink<R>) -> Result<()>,
) -> Result<usize> {
    let (from, carry) = (stream.units_done(), stream.carry());
    let flush_rows = stream.flush_rows();
    std::thread::scope(|scope| {
        // Rows, and the units done and the state carried after them; `true`: the last.
        let (to_writer, writes) =
            std::sync::mpsc::sync_channel::<(Vec<R>, usize, serde_json::Value, bool)>(1);
        let writer = scope.spawn(move || -> Result<usize> {
            stream.write_through(&mut writes.into_iter().map(|(rows, done, carry, last)| {
                let df = frame(&rows)?;
                Ok(if last {
                    Handed::Last(df, Some((done, carry)))
                } else {
                    Handed::Batch(df, done, carry)
                })
            }))
        });
        let mut held: Vec<R> = Vec::new();
        let mut end = (from, carry.clone());
        let mut last_flush = std::time::Instant::now();
        let mut writer_stopped = false;
        let produced = produce(from, &carry, &mut |rows, done, carry| {
            held.extend(rows);
            end = (done, carry.clone());
            let due = held.len() >= flush_rows
                || (!held.is_empty()
                    && last_flush.elapsed().as_secs_f64()
                        >= crate::experiment::stream::FLUSH_SECONDS);
            if due {
                let rows = std::mem::take(&mut held);
                if to_writer.send((rows, done, carry.clone(), false)).is_err() {
                    writer_stopped = true;
                    anyhow::bail!("the writer of the job's rows stopped");
                }
                last_flush = std::time::Instant::now();
            }
            Ok(())
        });
        if produced.is_ok() {
            // A writer that stopped has an error of its own, returned below.
            to_writer.send((held, end.0, end.1, true)).ok();
        }
        drop(to_writer);
        let written = writer
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        // A writer that stopped has an error of its own (a full disk); otherwise the
        // producer's comes first (the writer then only says that it stopped).
        if !writer_stopped {
            produced?;
        }
        written
    })
}
