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

use super::contract::{JobContext, KindRunner, streamed};
use crate::experiment::grid::Job;
use crate::experiment::remote;
use crate::experiment::rows::{JobColumns, generation_columns, id_columns};
use crate::experiment::rows::{read_checkpoint, write_atomic, write_checkpoint};
use crate::experiment::spec::Stage;
use crate::experiment::tsumego_spec::{FitnessKind, TsumegoGaSpec, WeightsRef};
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

impl KindRunner for Solve {
    fn rows_folder(&self) -> &'static str {
        "solves"
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
    fn rows_folder(&self) -> &'static str {
        "generations"
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

/// One individual of one generation of a `tsumego_ga` job.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GaRow {
    pub generation: u32,
    pub individual: u32,
    /// The raw fitness (rank bonus, or the formula's value).
    pub fitness: f64,
    /// Shifted and scaled to [0, 1] within its generation.
    pub scaled_fitness: f64,
    /// Dynamic fitness: leaves over the training set (none for the static fitness, which
    /// solves nothing to its end: a null in the rows).
    pub train_leaves: Option<f64>,
    pub best: bool,
    /// The chromosome, genes separated by spaces.
    pub genes: String,
}

#[derive(Serialize, Deserialize)]
struct Checkpoint {
    job: String,
    generation: u32,
    population: Vec<Vec<f64>>,
    fitness: Vec<f64>,
    leaves: Vec<Option<f64>>,
    old_leaves: Vec<u64>,
    rng: GameRng,
    rows: Vec<GaRow>,
    /// The test solves done so far, in unit order, once every generation is: a run killed in the
    /// test phase (on GoTools' files the longer part of a static-fitness job) resumes after them.
    #[serde(default)]
    test: Vec<SolveRow>,
}

/// What a finished `tsumego_ga` job produced.
pub struct TsumegoGaOutcome {
    pub rows: Vec<GaRow>,
    pub best: Weights,
    pub test: Vec<SolveRow>,
    /// Rows of `rows` and `test` an earlier run had checkpointed (0 for a fresh job).
    pub resumed_rows: usize,
}

/// Evaluates chromosomes: (raw fitness, training leaves of the dynamic fitness), in parallel.
/// Evaluates chromosomes `genes` of a `tsumego_ga` job (its base weights `base`, training set
/// `train`, the base's leaves `old`): what a worker of a distributed run computes for a unit.
pub fn evaluate_here(
    job: &Job,
    base: &Weights,
    train: &[Problem],
    old: &[u64],
    genes: &[Vec<f64>],
) -> Result<Vec<(f64, Option<f64>)>> {
    let spec = job
        .config
        .tsumego_ga
        .as_ref()
        .context("a tsumego_ga job has a [tsumego_ga] section")?;
    Ok(evaluate(spec, spec.limits(), base, train, old, genes))
}

/// `evaluate`, on the workers of a distributed run when there is one (a few chromosomes a
/// unit), here otherwise.
fn evaluate_anywhere(
    job: &Job,
    library: &Path,
    base: &Weights,
    train: &[Problem],
    old: &[u64],
    genes: &[Vec<f64>],
) -> Result<Vec<(f64, Option<f64>)>> {
    let Some(farm) = crate::farm::farm() else {
        return evaluate_here(job, base, train, old, genes);
    };
    let context = tsumego_ga_context(job, library, base, old)?;
    let units = crate::farm::ranges(0..genes.len(), farm.workers(), 2, 1, 1);
    remote::gather(
        farm,
        TSUMEGO_GA,
        &context,
        units.into_iter().map(|r| genes[r].to_vec()),
    )
}

/// The fitness of a generation's children. A child whose genes are a parent's or an earlier
/// child's (bit for bit) takes that fitness: evaluation is deterministic (module docs), and with
/// the report's rates (crossover 6.5%, mutation 50%) about 47% of children are unchanged copies
/// of a parent. Only the other children are handed to `eval`, each once, in order; so a GA
/// makes the same rows as one that evaluated every child, at about half the solves.
fn fitness_of_children(
    parents: &[Vec<f64>],
    fitness: &[f64],
    leaves: &[Option<f64>],
    children: &[Vec<f64>],
    eval: impl FnOnce(&[Vec<f64>]) -> Result<Vec<(f64, Option<f64>)>>,
) -> Result<Vec<(f64, Option<f64>)>> {
    fn bits(g: &[f64]) -> Vec<u64> {
        g.iter().map(|v| v.to_bits()).collect()
    }
    let mut known: HashMap<Vec<u64>, (f64, Option<f64>)> = parents
        .iter()
        .zip(fitness.iter().copied().zip(leaves.iter().copied()))
        .map(|(g, f)| (bits(g), f))
        .collect();
    let mut new: Vec<Vec<f64>> = Vec::new();
    let mut queued = HashSet::new();
    for c in children {
        let key = bits(c);
        if !known.contains_key(&key) && queued.insert(key) {
            new.push(c.clone());
        }
    }
    if !new.is_empty() {
        let evaluated = eval(&new)?;
        anyhow::ensure!(
            evaluated.len() == new.len(),
            "{} chromosomes evaluated, {} asked",
            evaluated.len(),
            new.len()
        );
        for (g, f) in new.iter().zip(evaluated) {
            known.insert(bits(g), f);
        }
    }
    Ok(children.iter().map(|c| known[&bits(c)]).collect())
}

fn evaluate(
    spec: &TsumegoGaSpec,
    limits: Limits,
    base: &Weights,
    train: &[Problem],
    old: &[u64],
    genes: &[Vec<f64>],
) -> Vec<(f64, Option<f64>)> {
    genes
        .par_iter()
        .map(|g| {
            let w = base.with_part(spec.part, g);
            with_solver(|solver| match spec.fitness {
                FitnessKind::Static => (static_fitness(solver, train, &w, &spec.bonus), None),
                FitnessKind::Dynamic => {
                    let leaves: Vec<u64> = solve_all(solver, train, &w, limits)
                        .iter()
                        .map(|s| s.counters.leaves)
                        .collect();
                    (
                        spec.formula.raw(old, &leaves),
                        Some(leaves.iter().sum::<u64>() as f64),
                    )
                }
            })
        })
        .collect()
}

fn genes_text(g: &[f64]) -> String {
    g.iter()
        .map(|v| format!("{v}"))
        .collect::<Vec<_>>()
        .join(" ")
}

fn push_rows(
    rows: &mut Vec<GaRow>,
    generation: u32,
    population: &[Vec<f64>],
    fitness: &[f64],
    leaves: &[Option<f64>],
) {
    let scaled = scale_fitness(fitness);
    let top = elite(fitness, 1)[0];
    for (i, g) in population.iter().enumerate() {
        rows.push(GaRow {
            generation,
            individual: i as u32,
            fitness: fitness[i],
            scaled_fitness: scaled[i],
            train_leaves: leaves[i],
            best: i == top,
            genes: genes_text(g),
        });
    }
}

/// Writes `state` to `checkpoint` when `every_s` seconds have passed since `last` (then resets it).
fn checkpoint_when_due(
    checkpoint: &Path,
    state: &Checkpoint,
    last: &mut Instant,
    every_s: f64,
) -> Result<()> {
    if last.elapsed().as_secs_f64() >= every_s {
        write_checkpoint(checkpoint, state)?;
        *last = Instant::now();
    }
    Ok(())
}

/// Runs (or resumes) a `tsumego_ga` job. Progress: `on_generation` after each generation.
/// `shared_solves`: the experiment's folder of test solves shared between processes.
pub fn run_tsumego_ga(
    job: &Job,
    library: &Path,
    out: &Path,
    checkpoint: &Path,
    shared_solves: Option<&Path>,
    on_generation: &(dyn Fn() + Sync),
) -> Result<TsumegoGaOutcome> {
    let spec = job
        .config
        .tsumego_ga
        .as_ref()
        .context("a tsumego_ga job has a [tsumego_ga] section")?;
    let cfg = spec.config();
    let Stage::Tsumego(stage) = &job.config.stage else {
        anyhow::bail!("a tsumego_ga job reads a problem library")
    };
    let base = spec
        .base
        .load(out, &stage.library)
        .context("tsumego_ga.base")?;
    let train = spec.train.load(library)?;
    let limits = spec.limits();
    // From the job's start: generation 0 (the base weights' solves and a whole population's) is
    // the longest step of a dynamic-fitness GA (on GoTools' lv3.14 over half an hour on 2 cores),
    // so it is checkpointed like the generations after it, not only once generation 1 is done.
    let mut last_checkpoint = Instant::now();
    let saved = read_checkpoint(checkpoint, &job.hash, |c: &Checkpoint| &c.job)?;
    let resumed_rows = saved.as_ref().map_or(0, |ck| ck.rows.len() + ck.test.len());
    let mut state = match saved {
        Some(ck) => ck,
        None => {
            let mut rng = rng_from_seed(job.seed);
            // Generation 0: random chromosomes, and the base weights' leaves ("old").
            let population = cfg.random_population(spec.part.names().len(), &mut rng);
            let old_leaves = if spec.fitness == FitnessKind::Dynamic && spec.formula.needs_old() {
                with_solver(|solver| solve_all(solver, &train, &base, limits))
                    .iter()
                    .map(|s| s.counters.leaves)
                    .collect()
            } else {
                Vec::new()
            };
            let (fitness, leaves): (Vec<f64>, Vec<Option<f64>>) =
                evaluate_anywhere(job, library, &base, &train, &old_leaves, &population)?
                    .into_iter()
                    .unzip();
            let mut rows = Vec::new();
            push_rows(&mut rows, 0, &population, &fitness, &leaves);
            on_generation();
            let state = Checkpoint {
                job: job.hash.clone(),
                generation: 0,
                population,
                fitness,
                leaves,
                old_leaves,
                rng,
                rows,
                test: Vec::new(),
            };
            checkpoint_when_due(checkpoint, &state, &mut last_checkpoint, spec.checkpoint_s)?;
            state
        }
    };
    while state.generation < spec.generations {
        let children = breed(&state.population, &state.fitness, &cfg, &mut state.rng);
        let (cf, cl): (Vec<f64>, Vec<Option<f64>>) = fitness_of_children(
            &state.population,
            &state.fitness,
            &state.leaves,
            &children,
            |new| evaluate_anywhere(job, library, &base, &train, &state.old_leaves, new),
        )?
        .into_iter()
        .unzip();
        let pooled: Vec<Vec<f64>> = state.population.iter().cloned().chain(children).collect();
        let pooled_fitness: Vec<f64> = state.fitness.iter().copied().chain(cf).collect();
        let pooled_leaves: Vec<Option<f64>> = state.leaves.iter().copied().chain(cl).collect();
        // The fittest of parents and children survive (ties to parents: the earlier index).
        let keep = elite(&pooled_fitness, cfg.population);
        state.population = keep.iter().map(|&i| pooled[i].clone()).collect();
        state.fitness = keep.iter().map(|&i| pooled_fitness[i]).collect();
        state.leaves = keep.iter().map(|&i| pooled_leaves[i]).collect();
        state.generation += 1;
        push_rows(
            &mut state.rows,
            state.generation,
            &state.population,
            &state.fitness,
            &state.leaves,
        );
        on_generation();
        checkpoint_when_due(checkpoint, &state, &mut last_checkpoint, spec.checkpoint_s)?;
    }
    let top = elite(&state.fitness, 1)[0];
    let best = base.with_part(spec.part, &state.population[top]);
    if let Some(sel) = &spec.test {
        let problems = sel.load(library)?;
        let mut labelled = vec![("trained".to_string(), best.clone())];
        labelled.extend(load_labelled(&spec.compare, out, &stage.library)?);
        let work = SolveWork {
            problems,
            weights: labelled,
            limits,
            reuse: true,
            store: shared_solves.map(Path::to_path_buf),
        };
        // In chunks, the rows so far in the checkpoint every `checkpoint_s` seconds.
        let mut save = |state: &mut Checkpoint, rows: Vec<SolveRow>| -> Result<()> {
            state.test.extend(rows);
            checkpoint_when_due(checkpoint, state, &mut last_checkpoint, spec.checkpoint_s)
        };
        match crate::farm::farm() {
            None => {
                while state.test.len() < work.units() {
                    let from = state.test.len();
                    let rows = work.solve(from..(from + SOLVE_CHUNK).min(work.units()), &|| {});
                    save(&mut state, rows)?;
                }
            }
            Some(farm) => {
                let context = solves_context(format!("{}/test", job.hash), library, sel, &work)?;
                let from = state.test.len();
                solve_on_farm(farm, &context, &work, from, &mut |rows, _| {
                    save(&mut state, rows)
                })?;
            }
        }
    }
    Ok(TsumegoGaOutcome {
        rows: state.rows,
        best,
        test: state.test,
        resumed_rows,
    })
}

/// Writes a GA job's best weights as a weights file (`gamelab solve --weights FILE` reads it).
pub fn write_weights_file(path: &Path, job: &Job, best: &Weights) -> Result<()> {
    let of = if job.config.experiment.is_empty() {
        String::new()
    } else {
        format!(" ({})", job.config.experiment)
    };
    let text = format!(
        "# best weights of tsumego_ga job {}{of}, last generation\n{}",
        job.hash,
        weights_text(best)
    );
    write_atomic(path, |f| {
        use std::io::Write;
        f.write_all(crate::durable::sealed(&text).as_bytes())?;
        Ok(())
    })
}

/// Generations a `tsumego_ga` job runs, counting generation 0 (its progress total).
pub fn generations_of(job: &Job) -> usize {
    job.config
        .tsumego_ga
        .as_ref()
        .map_or(0, |g| g.generations as usize + 1)
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

/// A `tsumego_ga` job's generation rows; `final` marks the last generation.
pub fn tsumego_generations_frame(id: &JobColumns, rows: &[GaRow]) -> Result<DataFrame> {
    let cols = generation_columns(
        id,
        rows.iter().map(|r| r.generation as i64).collect(),
        rows.iter().map(|r| r.individual as i64).collect(),
        rows.iter().map(|r| r.fitness).collect(),
        vec![
            Column::new(
                "scaled_fitness".into(),
                rows.iter().map(|r| r.scaled_fitness).collect::<Vec<f64>>(),
            ),
            Column::new(
                "train_leaves".into(),
                rows.iter()
                    .map(|r| r.train_leaves)
                    .collect::<Vec<Option<f64>>>(),
            ),
        ],
        rows.iter().map(|r| r.best as i64).collect(),
        vec![Column::new(
            "genes".into(),
            rows.iter()
                .map(|r| r.genes.clone())
                .collect::<Vec<String>>(),
        )],
    );
    Ok(DataFrame::new(rows.len(), cols)?)
}

mod units;
use units::{SOLVES, TSUMEGO_GA, solves_context, tsumego_ga_context};
pub use units::{SolvesUnit, TsumegoGaUnit};

#[cfg(test)]
mod tests;
