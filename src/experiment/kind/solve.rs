//! Runs life-and-death jobs: `solve` (every weight vector solves every selected problem, one row
//! each, in `solves/`) and `tsumego_ga` (the GoTools report's GA, one row per individual per
//! generation in `generations/`, then the test set solved with the best weights and each
//! baseline, rows in `solves/`, and the best weights in `tables/<job>.weights`).
//!
//! Deterministic: leaf and node counts do not depend on the thread that solves a problem (every
//! solve starts from a fresh table generation and fresh learning tables), and every random draw
//! of the GA comes from the job's generator, so the rows are the same on any thread count (the
//! times are not). Children are evaluated in parallel, one solver per worker thread; a child that
//! copies a parent or an earlier child (about half of them at the report's rates) takes that
//! chromosome's fitness instead of being evaluated again (`fitness_of_children`).
//!
//! A GA checkpoint (generation, population with its fitness, generator, rows so far, and, once
//! every generation is done, the test solves so far) is written atomically every `checkpoint_s`
//! seconds; a killed run resumes from it with the same rows. The test phase is solved in chunks
//! of `SOLVE_CHUNK` problems so that it checkpoints too: on GoTools' files it is most of a
//! static-fitness job (about 17 minutes a job of gotools-files-static on one core, its GA well
//! under one), and a kill there used to start the job over. The test phase also reuses the
//! solves that other jobs' test phases made in the same process (`SHARED_SOLVES`): the jobs of a
//! file solve the same test set with the same `compare` weights.

use super::contract::{DefaultTable, JobContext, KindRunner, RowColumns, streamed};
use crate::experiment::grid::{Job, JobConfig};
use crate::experiment::remote;
use crate::experiment::rows::{JobColumns, generation_columns, id_columns};
use crate::experiment::rows::{read_checkpoint, write_atomic, write_checkpoint};
use crate::experiment::spec::{ExperimentFile, Stage};
use crate::experiment::tsumego_spec::{FitnessKind, TsumegoGaSpec, WeightsRef};
use crate::experiment::{Experiment, InputError};
use crate::game::tsumego::fitness::{solve_all, static_fitness};
use crate::game::tsumego::heuristic::weights_text;
use crate::game::tsumego::library::LibrarySpec;
use crate::game::tsumego::{Limits, Problem, Solution, Solver, Status, Weights};
use crate::rng::{GameRng, rng_from_seed};
use crate::tune::ga::{breed, elite, scale_fitness};
use anyhow::{Context, Result};
use polars::prelude::{Column, DataFrame};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Problems solved between two looks at the flush timer.
const SOLVE_CHUNK: usize = 64;

/// The job kind `solve`: (weights, problem) pairs solved in parallel, streamed to disk in
/// batches and resumable after the last one (see `stream`).
pub struct Solve;

/// A weight vector of `key` resolved from the file's folder `base`, as a point's error.
fn resolved(key: String, w: &WeightsRef, base: &Path) -> Result<WeightsRef, (String, String)> {
    w.resolve(base).map_err(|e| (key, e))
}

impl KindRunner for Solve {
    /// `[solve]` alone, checked against the library, its weight vectors resolved.
    fn library_point(
        &self,
        file: &ExperimentFile,
        library: &LibrarySpec,
        base: &Path,
        config: &mut JobConfig,
    ) -> Result<(), (String, String)> {
        let (Some(s), None) = (&file.solve, &file.tsumego_ga) else {
            return Err((
                "solve".into(),
                "kind = \"solve\" needs a [solve] section and no [tsumego_ga]".into(),
            ));
        };
        s.check(library).map_err(|(k, m)| (k.to_string(), m))?;
        let mut s = s.clone();
        for (label, w) in s.weights.iter_mut() {
            *w = resolved(format!("solve.weights.{label}"), w, base)?;
        }
        config.solve = Some(s);
        Ok(())
    }
    fn rows_folder(&self) -> &'static str {
        "solves"
    }
    fn report_columns(&self) -> RowColumns {
        report::solve_columns()
    }
    fn default_group(&self) -> &'static [&'static str] {
        &["weights"]
    }
    fn default_tables(
        &self,
        _exp: &Experiment,
        group: &[String],
    ) -> Result<Vec<DefaultTable>, InputError> {
        Ok(report::solve_tables(group))
    }
    fn inputs(
        &self,
        job: &Job,
        out: &Path,
    ) -> Result<Option<serde_json::Value>, (String, anyhow::Error)> {
        resolved_inputs(job, out)
    }
    fn unit(&self) -> &'static str {
        "problems"
    }
    fn steps(&self, job: &Job) -> usize {
        solve_count(job)
    }
    fn run(&self, cx: &JobContext) -> Result<usize> {
        let work = SolveWork::load(cx.job, cx.library()?, cx.out)?;
        streamed(
            cx.stream()?,
            &|rows| solves_frame(&cx.id, rows),
            |from, _, sink| {
                (cx.progress)(from as u64);
                if let Some(farm) = crate::farm::farm() {
                    let problems = &cx
                        .job
                        .config
                        .solve
                        .as_ref()
                        .context("a solve job has a [solve] section")?
                        .problems;
                    let context =
                        solves_context(cx.job.hash.clone(), cx.library()?, problems, &work)?;
                    let mut held = Vec::new();
                    return solve_on_farm(farm, &context, &work, from, &mut |rows, done| {
                        (cx.progress)(rows.len() as u64);
                        held.extend(rows);
                        if held.len() >= SOLVE_CHUNK || done == work.units() {
                            sink(std::mem::take(&mut held), done, &serde_json::Value::Null)?;
                        }
                        Ok(())
                    });
                }
                let mut next = from;
                while next < work.units() {
                    let end = (next + SOLVE_CHUNK).min(work.units());
                    sink(
                        work.solve(next..end, &|| (cx.progress)(1)),
                        end,
                        &serde_json::Value::Null,
                    )?;
                    next = end;
                }
                Ok(())
            },
        )
    }
}

/// The job kind `tsumego_ga`: the GoTools report's GA over heuristic weights; a checkpoint every
/// `checkpoint_s` seconds; at the end its best weights, its test solves and its generations.
pub struct TsumegoGa;

impl KindRunner for TsumegoGa {
    /// `[tsumego_ga]` alone, checked against the library, its base and compared weight
    /// vectors resolved.
    fn library_point(
        &self,
        file: &ExperimentFile,
        library: &LibrarySpec,
        base: &Path,
        config: &mut JobConfig,
    ) -> Result<(), (String, String)> {
        let (None, Some(g)) = (&file.solve, &file.tsumego_ga) else {
            return Err((
                "tsumego_ga".into(),
                "kind = \"tsumego_ga\" needs a [tsumego_ga] section and no [solve]".into(),
            ));
        };
        g.check(library).map_err(|(k, m)| (k.to_string(), m))?;
        let mut g = g.clone();
        g.base = resolved("tsumego_ga.base".into(), &g.base, base)?;
        for (label, w) in g.compare.iter_mut() {
            *w = resolved(format!("tsumego_ga.compare.{label}"), w, base)?;
        }
        config.tsumego_ga = Some(g);
        Ok(())
    }
    fn rows_folder(&self) -> &'static str {
        "generations"
    }
    fn report_columns(&self) -> RowColumns {
        report::generation_columns()
    }
    fn other_rows(&self) -> &'static [crate::report::spec::RowSource] {
        &[crate::report::spec::RowSource::Solves]
    }
    /// `trained_weights.csv`: each finished job's best weights, for `trained:` in a fresh clone.
    fn report_files(&self, jobs: &[Job], results: &Path, folder: &Path) -> Result<Vec<String>> {
        Ok(
            crate::report::trained_weights::write(jobs, results, folder)?
                .into_iter()
                .collect(),
        )
    }
    fn default_tables(
        &self,
        exp: &Experiment,
        group: &[String],
    ) -> Result<Vec<DefaultTable>, InputError> {
        Ok(report::tsumego_ga_tables(exp, group))
    }
    fn inputs(
        &self,
        job: &Job,
        out: &Path,
    ) -> Result<Option<serde_json::Value>, (String, anyhow::Error)> {
        resolved_inputs(job, out)
    }
    fn unit(&self) -> &'static str {
        "generations"
    }
    fn steps(&self, job: &Job) -> usize {
        generations_of(job)
    }
    fn run(&self, cx: &JobContext) -> Result<usize> {
        let shared = cx.files.results.join("shared-solves");
        let outcome = run_tsumego_ga(
            cx.job,
            cx.library()?,
            cx.out,
            &cx.files.checkpoint,
            Some(&shared),
            &|| (cx.progress)(1),
        )?;
        (cx.kept)(outcome.resumed_rows);
        write_weights_file(&cx.files.weights, cx.job, &outcome.best)?;
        // The test rows first: the generations part marks the job done.
        let test = if outcome.test.is_empty() {
            0
        } else {
            cx.write_part(&cx.files.test_part, solves_frame(&cx.id, &outcome.test)?)?
        };
        let rows = cx.write_part(
            &cx.files.part,
            tsumego_generations_frame(&cx.id, &outcome.rows)?,
        )?;
        std::fs::remove_file(&cx.files.checkpoint).ok();
        Ok(rows + test)
    }
}

thread_local! {
    /// One solver (and its 2^20-entry tables) per worker thread, its tables written through
    /// once when it is made (`clear_tables`): otherwise a thread's first solves pay the
    /// system's first touch of the tables' pages in their `time_s` (measured on
    /// gotools-time-per-leaf, one thread: the first job's first weight vector at 15-18 us a
    /// leaf where every other run took 8-10, its first problems 20-76 ms for 10-500 leaves).
    static SOLVER: RefCell<Solver> = RefCell::new({
        let mut solver = Solver::new(20);
        solver.clear_tables();
        solver
    });
}

fn with_solver<T>(f: impl FnOnce(&mut Solver) -> T) -> T {
    SOLVER.with(|s| f(&mut s.borrow_mut()))
}

/// One solved problem.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SolveRow {
    /// The weight vector's label.
    pub weights: String,
    pub problem: String,
    pub set: u32,
    pub level: u32,
    pub status: String,
    /// The status the library recorded.
    pub expected: String,
    pub leaves: u64,
    pub nodes: u64,
    pub tt_hits: u64,
    pub max_depth: u32,
    pub time_s: f64,
    pub budget_hit: bool,
}

fn solve_row(label: &str, p: &Problem, s: &Solution) -> SolveRow {
    SolveRow {
        weights: label.to_string(),
        problem: p.name.clone(),
        // Every solved problem comes from `Selection::load`, which records its library set.
        set: p.set.map_or(0, u32::from),
        level: p.level.unwrap_or(0) as u32,
        status: s.status.to_string(),
        expected: p.status.map(|s| s.to_string()).unwrap_or_default(),
        leaves: s.counters.leaves,
        nodes: s.counters.nodes,
        tt_hits: s.counters.tt_hits,
        max_depth: s.counters.max_depth,
        time_s: s.counters.time_s,
        budget_hit: s.status == Status::Unknown,
    }
}

/// The `trained:` weights a life-and-death job reads from other experiments' results, resolved
/// now (label -> numbers; the GA's are `base` and its `compare` labels), or None when the job
/// reads none. The runner keeps them in the job's record and runs a finished job again when
/// they differ from the ones it ran with: its job hash names only the source.
/// An error names the file key whose weights could not be read (`solve.weights.LABEL`,
/// `tsumego_ga.base`, `tsumego_ga.compare.LABEL`).
pub fn resolved_inputs(
    job: &Job,
    out: &Path,
) -> Result<Option<serde_json::Value>, (String, anyhow::Error)> {
    let Stage::Tsumego(stage) = &job.config.stage else {
        return Ok(None);
    };
    let refs: Vec<(&str, String, &WeightsRef)> = match (&job.config.solve, &job.config.tsumego_ga) {
        (Some(s), _) => s
            .weights
            .iter()
            .map(|(label, w)| (label.as_str(), format!("solve.weights.{label}"), w))
            .collect(),
        (None, Some(g)) => std::iter::once(("base", "tsumego_ga.base".to_string(), &g.base))
            .chain(
                g.compare
                    .iter()
                    .map(|(label, w)| (label.as_str(), format!("tsumego_ga.compare.{label}"), w)),
            )
            .collect(),
        (None, None) => return Ok(None),
    };
    let mut inputs = serde_json::Map::new();
    for (label, key, w) in refs.into_iter().filter(|(_, _, w)| w.reads_results()) {
        let weights = w.load(out, &stage.library).map_err(|e| (key.clone(), e))?;
        inputs.insert(
            label.to_string(),
            serde_json::to_value(weights).map_err(|e| (key, e.into()))?,
        );
    }
    Ok((!inputs.is_empty()).then_some(serde_json::Value::Object(inputs)))
}

/// Problems a `solve` job solves (its progress total; an upper bound with `unique`).
pub fn solve_count(job: &Job) -> usize {
    let (Some(s), Stage::Tsumego(t)) = (&job.config.solve, &job.config.stage) else {
        return 0;
    };
    let levels =
        crate::game::tsumego::library::parse_level_list(&s.problems.levels).map_or(0, |l| l.len());
    let all = s.problems.sets.len() * levels * t.library.per_level;
    s.weights.len() * s.problems.count.map_or(all, |c| c.min(all))
}

/// What a `solve` job solves: its problems and labelled weight vectors. Its units are
/// (weights, problem) pairs in that order, `weights.len() x problems.len()` of them.
pub struct SolveWork {
    pub problems: Vec<Problem>,
    pub weights: Vec<(String, Weights)>,
    pub limits: Limits,
    /// Reuse a solve of the same problem with the same weights and limits made earlier in this
    /// process (`SHARED_SOLVES`) instead of solving again. True for a GA's test phase, where
    /// every job of a file solves the same test set with the same `compare` weights; false for
    /// `solve` jobs, whose repeats are timed runs.
    pub reuse: bool,
    /// With `reuse`, a folder of solves shared with other processes (the experiment's
    /// `shared-solves/`): a solve found there is taken, a new one is written there.
    pub store: Option<PathBuf>,
}

/// The solves GA test phases made in this process, by problem, weights and limits. A solve is
/// deterministic (fresh tables, no clock in its decisions), so a reused solution is the one a
/// new solve would find; its time is the one measured when it was made. Without it, every job
/// of gotools-files-static solves GoTools' three test files with the zero weights again (half of
/// each job's test). Other processes (a resumed run, Slurm shards, MPI workers on the same
/// file system) find them in the experiment's `shared-solves/` folder (`SolveWork::store`).
static SHARED_SOLVES: std::sync::LazyLock<std::sync::Mutex<HashMap<u128, Solution>>> =
    std::sync::LazyLock::new(Default::default);

/// What tells one solve from another: the problem (all of it, not only its name), the weights'
/// exact numbers and the limits, as a 128-bit digest of their text (about 2 KB, mostly the
/// position; kept whole, a file's test solves would hold megabytes of keys), and the solver's
/// counting version (`GENERATOR_VERSION`), so that a folder of stored solves written by an
/// older gamelab is not taken for this one's.
fn solve_key(p: &Problem, w: &Weights, limits: Limits) -> u128 {
    let version = crate::game::tsumego::generate::GENERATOR_VERSION;
    xxhash_rust::xxh3::xxh3_128(format!("{version}|{p:?}|{w:?}|{limits:?}").as_bytes())
}

/// The row of `p` solved with `w` (labelled `label`). With `reuse`, a solve made earlier is
/// taken instead: from `SHARED_SOLVES`, else from the folder `store` (a solve another process
/// made), and a new solve is kept in both. Two jobs that need the same solve at the same moment
/// both solve it (no waiting); a stored solve that cannot be read or whose seal does not match
/// is solved again, and one that cannot be written costs only a later solve.
fn solve_unit(
    label: &str,
    p: &Problem,
    w: &Weights,
    limits: Limits,
    reuse: bool,
    store: Option<&Path>,
) -> SolveRow {
    if !reuse {
        return solve_row(label, p, &with_solver(|s| s.solve(p, w, limits, false)));
    }
    let key = solve_key(p, w, limits);
    if let Some(s) = SHARED_SOLVES.lock().unwrap().get(&key) {
        return solve_row(label, p, s);
    }
    let file = store.map(|dir| dir.join(format!("{key:032x}.json")));
    if let Some(row) = file.as_deref().and_then(read_stored_solve) {
        return SolveRow {
            weights: label.to_string(),
            ..row
        };
    }
    let s = with_solver(|solver| solver.solve(p, w, limits, false));
    SHARED_SOLVES.lock().unwrap().insert(key, s.clone());
    let row = solve_row(label, p, &s);
    if let Some(file) = &file {
        let json = serde_json::to_string(&SolveRow {
            weights: String::new(),
            ..row.clone()
        })
        .expect("rows serialise");
        crate::durable::write_bytes_atomic(file, crate::durable::sealed(&json).as_bytes()).ok();
    }
    row
}

/// A solve another process stored (`solve_unit`), if its file reads and its seal holds.
fn read_stored_solve(file: &Path) -> Option<SolveRow> {
    let text = std::fs::read_to_string(file).ok()?;
    let body = crate::durable::unsealed(file, &text, "stored solve").ok()?;
    if body.len() == text.len() {
        return None; // written by gamelab with a seal, so one without is not ours
    }
    serde_json::from_str(body).ok()
}

impl SolveWork {
    /// Loads a `solve` job's problems and weights; `out` is the results folder (for `trained:`).
    pub fn load(job: &Job, library: &Path, out: &Path) -> Result<SolveWork> {
        let spec = job
            .config
            .solve
            .as_ref()
            .context("a solve job has a [solve] section")?;
        let problems = spec.problems.load(library)?;
        let Stage::Tsumego(stage) = &job.config.stage else {
            anyhow::bail!("a solve job reads a problem library")
        };
        let weights = load_labelled(&spec.weights, out, &stage.library)?;
        Ok(SolveWork {
            problems,
            weights,
            limits: spec.limits(),
            reuse: false,
            store: None,
        })
    }

    pub fn units(&self) -> usize {
        self.weights.len() * self.problems.len()
    }

    /// The rows of units `range`, in order, solved in parallel.
    pub fn solve(
        &self,
        range: std::ops::Range<usize>,
        on_problem: &(dyn Fn() + Sync),
    ) -> Vec<SolveRow> {
        let n = self.problems.len();
        range
            .into_par_iter()
            .map(|u| {
                let ((label, w), p) = (&self.weights[u / n], &self.problems[u % n]);
                let row = solve_unit(label, p, w, self.limits, self.reuse, self.store.as_deref());
                on_problem();
                row
            })
            .collect()
    }
}

/// Solves units `from..` of `work` on the workers of a distributed run (`context` describes
/// `work` to them), handing the rows to `each(rows, units done)` in order as they come back.
fn solve_on_farm(
    farm: &crate::farm::Farm,
    context: &std::sync::Arc<crate::farm::Context>,
    work: &SolveWork,
    from: usize,
    each: &mut dyn FnMut(Vec<SolveRow>, usize) -> Result<()>,
) -> Result<()> {
    let units = crate::farm::ranges(from..work.units(), farm.workers(), 8, 1, 1);
    let answers = remote::map::<_, Vec<SolveRow>>(farm, SOLVES, context, units.iter().cloned())?;
    for (range, rows) in units.iter().zip(answers) {
        each(rows?, range.end)?;
    }
    Ok(())
}

fn load_labelled(
    map: &std::collections::BTreeMap<String, WeightsRef>,
    out: &Path,
    library: &LibrarySpec,
) -> Result<Vec<(String, Weights)>> {
    map.iter()
        .map(|(label, w)| {
            Ok((
                label.clone(),
                w.load(out, library)
                    .with_context(|| format!("weights '{label}'"))?,
            ))
        })
        .collect()
}

/// Solved problems as a DataFrame: one row per weight vector and problem, with the problem's
/// difficulty band (easy, medium, hard) and the time per leaf in microseconds.
pub fn solves_frame(id: &JobColumns, rows: &[SolveRow]) -> Result<DataFrame> {
    let n = rows.len();
    let mut cols = id_columns(id, n, &[]);
    let s = |f: &dyn Fn(&SolveRow) -> String| rows.iter().map(f).collect::<Vec<String>>();
    let i = |f: &dyn Fn(&SolveRow) -> i64| rows.iter().map(f).collect::<Vec<i64>>();
    cols.extend([
        Column::new("weights".into(), s(&|r| r.weights.clone())),
        Column::new("problem".into(), s(&|r| r.problem.clone())),
        Column::new("set".into(), i(&|r| r.set as i64)),
        Column::new("level".into(), i(&|r| r.level as i64)),
        Column::new(
            "band".into(),
            s(&|r| crate::game::tsumego::library::band(r.level as u8).to_string()),
        ),
        Column::new("status".into(), s(&|r| r.status.clone())),
        Column::new("expected".into(), s(&|r| r.expected.clone())),
        Column::new("correct".into(), i(&|r| (r.status == r.expected) as i64)),
        Column::new("leaves".into(), i(&|r| r.leaves as i64)),
        Column::new("nodes".into(), i(&|r| r.nodes as i64)),
        Column::new("tt_hits".into(), i(&|r| r.tt_hits as i64)),
        Column::new("max_depth".into(), i(&|r| r.max_depth as i64)),
        Column::new(
            "time_s".into(),
            rows.iter().map(|r| r.time_s).collect::<Vec<f64>>(),
        ),
        Column::new(
            "us_per_leaf".into(),
            rows.iter()
                .map(|r| 1e6 * r.time_s / r.leaves.max(1) as f64)
                .collect::<Vec<f64>>(),
        ),
        Column::new("budget_hit".into(), i(&|r| r.budget_hit as i64)),
    ]);
    Ok(DataFrame::new(n, cols)?)
}

mod ga;
mod report;
mod units;
pub use ga::*;
use units::{SOLVES, TSUMEGO_GA, solves_context, tsumego_ga_context};
pub use units::{SolvesUnit, TsumegoGaUnit};

#[cfg(test)]
mod tests;
