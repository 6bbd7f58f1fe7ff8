//! Parallel, deterministic, resumable execution of jobs.
//!
//! Jobs run on a rayon pool of `--threads` workers; inside a job the games run in parallel too,
//! so one big job still uses every core. Each game draws from its own generator seeded from
//! (job seed, game index), so rows do not depend on scheduling or thread count (with iteration
//! budgets; time budgets depend on the machine by nature). A finished job has its part file,
//! written atomically once all its games are done; a rerun skips it, so a killed run resumes
//! without losing or duplicating a row. `--shard I/N` keeps the jobs whose hash falls in shard I.

use super::error::InputError;
use super::grid::Job;
use super::ga_job::{run_ga, write_table_file};
use super::record::{Format, JobColumns, SweptKind, existing_part, games_frame, generations_frame, solves_frame, tsumego_generations_frame, remove_stale_temps, rows_folder, tuning_frame, write_atomic};
use super::stream::{JobStream, PartId, verify_part, write_part};
use crate::durable::{FolderLock, LockMode, Locked};
use super::tune_job::{games_of, run_tune};
use super::spec::{Experiment, JobKind, Stage};
use crate::stats::elo::Sprt;
use crate::agent::Arena;
use crate::game::colosseum::Colosseum;
use crate::game::freckers::Freckers;
use crate::game::othello::Othello;
use crate::play::{GameRow, play_game, seat_result};
use crate::stats::elo::{Pentanomial, SprtDecision};
use crate::rng::derive_seed;
use anyhow::{Context, Result};
pub use crate::pool::with_threads;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use rayon::prelude::*;
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::time::Instant;

/// `--shard I/N`: shard I (1-based) of N.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    pub index: u64,
    pub count: u64,
}

impl FromStr for Shard {
    type Err = InputError;
    fn from_str(s: &str) -> Result<Shard, InputError> {
        let bad = || InputError::plain(format!("--shard '{s}': expected I/N with 1 <= I <= N, e.g. 1/4"));
        let (i, n) = s.split_once('/').ok_or_else(bad)?;
        let (index, count) = (i.trim().parse::<u64>().map_err(|_| bad())?, n.trim().parse::<u64>().map_err(|_| bad())?);
        if count == 0 || index == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

impl Shard {
    pub fn contains(&self, job: &Job) -> bool {
        job.hash_u64() % self.count == self.index - 1
    }
}

#[derive(Clone, Debug)]
pub struct RunOptions {
    /// Root folder: rows go to `<out>/results/<experiment>/`.
    pub out: PathBuf,
    pub threads: Option<usize>,
    pub shard: Option<Shard>,
    pub format: Format,
    /// Draw a progress bar (only on a terminal).
    pub progress: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub struct RunSummary {
    pub jobs_total: usize,
    pub jobs_in_shard: usize,
    pub jobs_skipped: usize,
    pub jobs_run: usize,
    /// Rows written: games (of matches, tournaments and tune jobs), or individuals x
    /// generations for GA jobs.
    pub rows: usize,
    pub seconds: f64,
    pub results_dir: PathBuf,
}

pub fn results_dir(out: &Path, experiment: &str) -> PathBuf {
    out.join("results").join(experiment)
}

/// The file in an experiment's results folder that lists the job hashes of the experiment file
/// as it was last run. Job records of other hashes (from an older version of the file) stay on
/// disk; readers of another experiment's results (`trained:`) use this list to skip them.
pub fn current_jobs_file(results: &Path) -> PathBuf {
    results.join("current-jobs.json")
}

/// The hashes listed by `current_jobs_file`, or None for results written before the list existed.
pub fn current_jobs(results: &Path) -> Result<Option<std::collections::BTreeSet<String>>> {
    let path = current_jobs_file(results);
    match std::fs::read_to_string(&path) {
        Ok(text) => Ok(Some(serde_json::from_str(&text).with_context(|| format!("reading {}", path.display()))?)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(e).with_context(|| format!("reading {}", path.display())),
    }
}

/// Games played in parallel between two looks at the flush timer (rows never depend on it).
const GAME_CHUNK: usize = 64;
/// An SPRT match looks at its test after every this many games (an even number: whole pairs).
/// The games a match plays past its decision depend on it, its rows never do.
const SPRT_CHUNK: usize = 32;

/// What a chunk of a job's units hands on: its rows, the units done after it, the carried state.
type Sink<'s, R> = dyn FnMut(Vec<R>, usize, &serde_json::Value) -> Result<()> + 's;

/// Plays every game of a job in memory, returning rows in game order (benchmarks, tests).
pub fn play_job(job: &Job, on_game: &(dyn Fn() + Sync)) -> Result<Vec<GameRow>> {
    let mut rows = Vec::new();
    play_job_from(job, 0, &serde_json::Value::Null, on_game, &mut |chunk, _, _| {
        rows.extend(chunk);
        Ok(())
    })?;
    Ok(rows)
}

/// Plays the games of a job from game `from` on (the games before it done, `carry` the state
/// after them), in chunks handed to `sink`. A match with an SPRT stops after the first
/// colour-swapped pair at which the test decides (see `sprt_stop`).
///
/// Othello games start from the stage's position. Colosseum games start from the course's
/// random setup, seeded by (job seed, pair): both games of a colour-swapped pair are played on
/// the same board, each agent moving first once; a row's `stage` is the board it was played on.
fn play_job_from(job: &Job, from: usize, carry: &serde_json::Value, on_game: &(dyn Fn() + Sync), sink: &mut Sink<GameRow>) -> Result<()> {
    match &job.config.stage {
        Stage::Othello(def) => {
            let start = Othello::new(def).map_err(|e| anyhow::anyhow!(e))?;
            play_games(job, &|_, _| Ok((start, def.id.clone())), from, carry, on_game, sink)
        }
        Stage::Colosseum(stage) => {
            /// Keeps setup seeds apart from game seeds.
            const SETUP: u64 = 0x5e7u64;
            let setup = |game: usize, pair: Option<u32>| -> Result<(Colosseum, String)> {
                // A game without a partner gets a board of its own.
                let key = pair.map_or(u64::MAX - game as u64, u64::from);
                let start = stage.setup(derive_seed(job.seed, &[SETUP, key])).map_err(|e| anyhow::anyhow!(e))?;
                let id = format!("size-{}", start.size());
                Ok((start, id))
            };
            play_games(job, &setup, from, carry, on_game, sink)
        }
        Stage::Freckers(stage) => {
            let start = Freckers::new(stage.strict);
            play_games(job, &|_, _| Ok((start, stage.id.clone())), from, carry, on_game, sink)
        }
        Stage::Tsumego(_) => anyhow::bail!("life-and-death jobs solve problems; they play no games"),
    }
}

/// The game loop of `play_job_from` for one game type; `start(game index, pair)` gives each
/// game's start position and the stage id its row records. Each game is seeded by its index, so
/// the rows do not depend on where a run was resumed or how the games were chunked.
fn play_games<G: Arena>(
    job: &Job,
    start: &(dyn Fn(usize, Option<u32>) -> Result<(G, String)> + Sync),
    from: usize,
    carry: &serde_json::Value,
    on_game: &(dyn Fn() + Sync),
    sink: &mut Sink<GameRow>,
) -> Result<()> {
    let cfg = &job.config;
    let pairings = job.pairings();
    let play = |range: std::ops::Range<usize>| -> Result<Vec<GameRow>> {
        pairings[range.clone()]
            .par_iter()
            .zip(range)
            .map(|(g, i)| {
                let seed = derive_seed(job.seed, &[i as u64]);
                let (pos, stage) = start(i, g.pair)?;
                let row = play_game(&pos, (&g.first, &cfg.agents[&g.first]), (&g.second, &cfg.agents[&g.second]), seed, i as u32, &stage)
                    .map(|row| GameRow { pair: g.pair, ..row });
                on_game();
                row
            })
            .collect()
    };
    let sprt = cfg.match_.as_ref().and_then(|m| m.sprt.map(|s| (s, m.players[0].clone())));
    // An SPRT's pentanomial counts over the pairs played so far.
    let mut penta = Pentanomial(serde_json::from_value(carry.clone()).unwrap_or_default());
    let chunk = if sprt.is_some() { SPRT_CHUNK } else { GAME_CHUNK };
    let mut next = from;
    while next < pairings.len() {
        let end = (next + chunk).min(pairings.len());
        let mut rows = play(next..end)?;
        next = end;
        if let Some((sprt, me)) = &sprt {
            let result = |r: &GameRow| seat_result(r.winner, r.first_agent == *me);
            let mut stop = None;
            for (i, pair) in rows.chunks(2).enumerate() {
                if pair.len() < 2 || pair[0].pair.is_none() {
                    break;
                }
                penta.add_pair(result(&pair[0]), result(&pair[1]));
                if sprt.decide(sprt.llr_pentanomial(penta)) != SprtDecision::Continue {
                    stop = Some(2 * (i + 1));
                    break;
                }
            }
            if let Some(keep) = stop {
                rows.truncate(keep);
                return sink(rows, pairings.len(), &serde_json::json!(penta.0));
            }
        }
        sink(rows, next, &serde_json::json!(penta.0))?;
    }
    Ok(())
}

/// The number of games after which the SPRT on `me`'s pentanomial pair results first accepts a
/// hypothesis, if it does within `rows` (complete pairs only, in game order).
pub fn sprt_stop(sprt: &Sprt, me: &str, rows: &[GameRow]) -> Option<usize> {
    let mut penta = Pentanomial::default();
    let result = |r: &GameRow| seat_result(r.winner, r.first_agent == me);
    for (i, pair) in rows.chunks(2).enumerate() {
        if pair.len() < 2 || pair[0].pair.is_none() {
            break;
        }
        penta.add_pair(result(&pair[0]), result(&pair[1]));
        if sprt.decide(sprt.llr_pentanomial(penta)) != SprtDecision::Continue {
            return Some(2 * (i + 1));
        }
    }
    None
}

/// Streams units through `stream`: rows are held until the stream says a batch is due, then
/// saved; what is held at the end is sealed with the saved batches into the part.
fn streamed<R>(stream: JobStream, frame: &dyn Fn(&[R]) -> Result<polars::prelude::DataFrame>, produce: impl FnOnce(usize, &serde_json::Value, &mut Sink<R>) -> Result<()>) -> Result<usize> {
    let mut stream = stream;
    let (from, carry) = (stream.units_done(), stream.carry());
    let mut held: Vec<R> = Vec::new();
    produce(from, &carry, &mut |rows, done, carry| {
        held.extend(rows);
        if stream.due(held.len()) {
            stream.save_batch(frame(&held)?, done, carry.clone())?;
            held.clear();
        }
        Ok(())
    })?;
    stream.finish(frame(&held)?)
}

/// The locks a run holds on its experiment's results folder (see `lock_results`).
pub struct RunLocks(#[allow(dead_code)] Vec<FolderLock>);

/// Locks an experiment's results folder for a run, or fails naming the run that holds it.
///
/// A run of the whole experiment takes `run.lock` exclusively. A shard takes `run.lock` shared
/// and its own `run-shard-I-of-N.lock` exclusively: shards of one file run side by side on one
/// machine (their jobs are disjoint), while a second copy of the same shard, or a whole run
/// beside a shard, is refused. Per shard rather than per job, because a second process on the
/// same jobs is a mistake to report, not work to share; the locks are flock(2) locks, released by
/// the kernel when their holder dies, so a killed run never leaves a stale lock.
pub fn lock_results(dir: &Path, shard: Option<Shard>, what: &str) -> Result<RunLocks> {
    let advice = |e: anyhow::Error| match e.downcast::<Locked>() {
        Ok(l) => anyhow::anyhow!("{} is in use: {} holds {}; wait for it to finish (or stop it) and run again", dir.display(), l.holder, l.path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default()),
        Err(e) => e,
    };
    let mut locks = Vec::new();
    match shard {
        None => locks.push(FolderLock::try_lock(&dir.join("run.lock"), LockMode::Exclusive, what).map_err(|e| {
            // Name a shard's holder when shards hold the folder.
            let shards: Vec<String> = std::fs::read_dir(dir)
                .into_iter()
                .flatten()
                .flatten()
                .filter(|e| e.file_name().to_string_lossy().starts_with("run-shard-"))
                .filter_map(|e| FolderLock::try_lock(&e.path(), LockMode::Exclusive, what).err().map(|_| std::fs::read_to_string(e.path()).unwrap_or_default().trim().to_string()))
                .collect();
            if shards.is_empty() { advice(e) } else { anyhow::anyhow!("{} is in use by shards: {}; wait for them to finish and run again", dir.display(), shards.join(", ")) }
        })?),
        Some(s) => {
            locks.push(FolderLock::try_lock(&dir.join("run.lock"), LockMode::Shared, what).map_err(advice)?);
            locks.push(FolderLock::try_lock(&dir.join(format!("run-shard-{}-of-{}.lock", s.index, s.count)), LockMode::Exclusive, what).map_err(advice)?);
        }
    }
    Ok(RunLocks(locks))
}

/// The part of a job in `rows_dir` in either format, if one is there and passes its check
/// (`stream::verify_part`); Err names the file and what is wrong with it.
pub fn sound_part(results: &Path, rows_dir: &Path, experiment: &str, hash: &str) -> Result<Option<PathBuf>, (PathBuf, String)> {
    let Some(part) = existing_part(rows_dir, hash) else { return Ok(None) };
    let record = results.join("jobs").join(format!("{hash}.json"));
    match verify_part(&part, &record, PartId { experiment, job: hash }) {
        Ok(_) => Ok(Some(part)),
        Err(why) => Err((part, why)),
    }
}

/// Runs the jobs of an experiment that are not done yet (in this shard).
pub fn run(exp: &Experiment, jobs: &[Job], opts: &RunOptions) -> Result<RunSummary> {
    let t0 = Instant::now();
    let dir = results_dir(&opts.out, &exp.name);
    let rows_dir = dir.join(rows_folder(exp.file.kind));
    let in_shard: Vec<&Job> = jobs.iter().filter(|j| opts.shard.is_none_or(|s| s.contains(j))).collect();
    // Jobs that read another experiment's trained weights: what they read now (before anything
    // is written: a missing source is an error in the file); a job that ran (or began) with
    // other numbers runs again from the start.
    let mut inputs = std::collections::BTreeMap::new();
    for j in &in_shard {
        match super::solve_job::resolved_inputs(j, &opts.out) {
            Ok(Some(now)) => {
                inputs.insert(j.hash.clone(), now);
            }
            Ok(None) => {}
            Err((key, e)) => return Err(exp.error(&key, format!("{e:#}")).into()),
        }
    }
    let _locks = lock_results(&dir, opts.shard, &format!("gamelab run {}", exp.path.display()))?;
    let hashes: std::collections::BTreeSet<&str> = jobs.iter().map(|j| j.hash.as_str()).collect();
    write_atomic(&current_jobs_file(&dir), |f| {
        serde_json::to_writer_pretty(f, &hashes)?;
        Ok(())
    })?;
    for (hash, now) in &inputs {
        let files = JobFiles::of(&dir, &rows_dir, hash, opts.format);
        let ran_with = std::fs::read_to_string(&files.record).ok().and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok()).map(|r| r["inputs"].clone());
        if ran_with.as_ref() != Some(now) && (existing_part(&rows_dir, hash).is_some() || files.checkpoint.exists() || files.partial.exists()) {
            eprintln!("job {hash}: the trained weights it reads have changed since it ran; running it again");
            files.remove_outputs()?;
        }
    }
    // A job is done when its part passes its check; a part that fails it is removed (with the
    // job's other outputs) and the job runs again.
    let mut pending: Vec<&Job> = Vec::new();
    for j in &in_shard {
        match sound_part(&dir, &rows_dir, &exp.name, &j.hash) {
            Ok(Some(_)) => {}
            Ok(None) => pending.push(j),
            Err((part, why)) => {
                eprintln!("job {}: {} fails its check ({why}); running the job again", j.hash, part.display());
                JobFiles::of(&dir, &rows_dir, &j.hash, opts.format).remove_outputs()?;
                pending.push(j);
            }
        }
    }
    let kinds: Vec<SweptKind> = exp.swept_axes().iter().map(|(_, v)| SweptKind::of(v)).collect();
    // Progress counts games, or generations for GA jobs (1 for a time budget).
    let is_ga = exp.file.kind == JobKind::Ga;
    let unit = match exp.file.kind {
        JobKind::Ga | JobKind::TsumegoGa => "generations",
        JobKind::Solve => "problems",
        _ => "games",
    };
    // Life-and-death jobs read a problem library, generated here on first use.
    let mut libraries = std::collections::BTreeSet::new();
    for j in &pending {
        if let Stage::Tsumego(t) = &j.config.stage
            && libraries.insert(t.library.dir(&opts.out, &t.id))
        {
            t.library.ensure(&opts.out, &t.id, opts.threads)?;
        }
    }
    let library_of = |job: &Job| -> Option<std::path::PathBuf> {
        match &job.config.stage {
            Stage::Tsumego(t) => Some(t.library.dir(&opts.out, &t.id)),
            _ => None,
        }
    };
    let total_steps: usize = pending
        .iter()
        .map(|j| match exp.file.kind {
            JobKind::Ga => j.config.ga.as_ref().and_then(|g| g.generations).unwrap_or(1) as usize,
            JobKind::Tune => games_of(j),
            JobKind::Solve => super::solve_job::solve_count(j),
            JobKind::TsumegoGa => super::solve_job::generations_of(j),
            _ => j.pairings().len(),
        })
        .sum();

    let bar = if opts.progress && std::io::IsTerminal::is_terminal(&std::io::stderr()) {
        ProgressBar::with_draw_target(Some(total_steps as u64), ProgressDrawTarget::stderr())
    } else {
        ProgressBar::hidden()
    };
    bar.set_style(
        ProgressStyle::with_template(&format!("{{elapsed_precise}} [{{bar:30}}] {{pos}}/{{len}} {unit}, {{rate}} {unit}/s, ETA {{eta}} | {{msg}}"))
            .expect("valid template")
            .with_key("rate", |s: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                let _ = write!(w, "{:.0}", s.per_sec());
            })
            .progress_chars("=> "),
    );
    let jobs_done = std::sync::atomic::AtomicUsize::new(0);
    let rows_written = std::sync::atomic::AtomicUsize::new(0);
    bar.set_message(format!("jobs 0/{}", pending.len()));

    let work = || -> Result<()> {
        pending.par_iter().try_for_each(|job| -> Result<()> {
            let id = JobColumns {
                experiment: &exp.name,
                job: &job.hash,
                repeat: job.config.repeat,
                swept: job.swept.iter().zip(&kinds).map(|((k, v), kind)| (k.as_str(), kind.clone(), v)).collect(),
            };
            let JobFiles { part, checkpoint, table: table_file, record: config_file, weights: weights_file, test_part, partial } = JobFiles::of(&dir, &rows_dir, &job.hash, opts.format);
            // Temporary files a killed run left for this job's outputs (this run holds the lock).
            for output in [&part, &checkpoint, &table_file, &config_file, &weights_file, &test_part] {
                remove_stale_temps(output);
            }
            let mut record = serde_json::json!({ "hash": job.hash, "seed": job.seed, "swept": job.swept.iter().cloned().collect::<std::collections::BTreeMap<_, _>>(), "config": job.config });
            if let Some(read) = inputs.get(&job.hash) {
                record["inputs"] = read.clone();
            }
            write_atomic(&config_file, |f| {
                serde_json::to_writer_pretty(f, &record)?;
                Ok(())
            })?;
            let part_id = PartId { experiment: &exp.name, job: &job.hash };
            let stream = || JobStream::open(part_id, opts.format, part.clone(), config_file.clone(), partial.clone());
            let rows = if exp.file.kind == JobKind::TsumegoGa {
                let library = library_of(job).expect("a tsumego job has a library");
                let outcome = super::solve_job::run_tsumego_ga(job, &library, &opts.out, &checkpoint, &|| bar.inc(1))?;
                super::solve_job::write_weights_file(&weights_file, job, &outcome.best)?;
                // The test rows first: the generations part marks the job done.
                let test = if outcome.test.is_empty() { 0 } else { write_part(&test_part, &config_file, solves_frame(&id, &outcome.test)?, opts.format, part_id)? };
                let rows = write_part(&part, &config_file, tsumego_generations_frame(&id, &outcome.rows)?, opts.format, part_id)?;
                std::fs::remove_file(&checkpoint).ok();
                rows + test
            } else if exp.file.kind == JobKind::Solve {
                let library = library_of(job).expect("a tsumego job has a library");
                let work = super::solve_job::SolveWork::load(job, &library, &opts.out)?;
                streamed(stream()?, &|rows| solves_frame(&id, rows), |from, _, sink| {
                    bar.inc(from as u64);
                    let mut next = from;
                    while next < work.units() {
                        let end = (next + GAME_CHUNK).min(work.units());
                        sink(work.solve(next..end, &|| bar.inc(1)), end, &serde_json::Value::Null)?;
                        next = end;
                    }
                    Ok(())
                })?
            } else if is_ga {
                let outcome = run_ga(job, &checkpoint, &|| bar.inc(1))?;
                write_table_file(&table_file, job, &outcome.best)?;
                let rows = write_part(&part, &config_file, generations_frame(&id, &outcome.rows)?, opts.format, part_id)?;
                std::fs::remove_file(&checkpoint).ok();
                rows
            } else if exp.file.kind == JobKind::Tune {
                let (names, rows) = run_tune(job, &|| bar.inc(1))?;
                write_part(&part, &config_file, tuning_frame(&id, &names, &rows)?, opts.format, part_id)?
            } else {
                streamed(stream()?, &|rows| games_frame(&id, rows), |from, carry, sink| {
                    bar.inc(from as u64);
                    play_job_from(job, from, carry, &|| bar.inc(1), sink)
                })?
            };
            rows_written.fetch_add(rows, std::sync::atomic::Ordering::Relaxed);
            let done = jobs_done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
            bar.set_message(format!("jobs {done}/{}", pending.len()));
            Ok(())
        })
    };
    with_threads(opts.threads, work)?;
    bar.finish_and_clear();
    Ok(RunSummary {
        jobs_total: jobs.len(),
        jobs_in_shard: in_shard.len(),
        jobs_skipped: in_shard.len() - pending.len(),
        jobs_run: pending.len(),
        rows: rows_written.into_inner(),
        seconds: t0.elapsed().as_secs_f64(),
        results_dir: dir,
    })
}

/// The files a job writes under its experiment's results folder (`dir`).
struct JobFiles {
    /// The rows; its presence marks the job done.
    part: PathBuf,
    checkpoint: PathBuf,
    /// A GA's best table (Othello).
    table: PathBuf,
    /// The resolved config (`jobs/<hash>.json`).
    record: PathBuf,
    /// A life-and-death GA's best weights.
    weights: PathBuf,
    /// A life-and-death GA's test solves.
    test_part: PathBuf,
    /// The batches of a running job (`partial/<hash>`).
    partial: PathBuf,
}

impl JobFiles {
    fn of(dir: &Path, rows_dir: &Path, hash: &str, format: Format) -> JobFiles {
        let table = dir.join("tables").join(format!("{hash}.txt"));
        JobFiles {
            part: rows_dir.join(format!("part-{hash}.{}", format.ext())),
            checkpoint: dir.join("checkpoints").join(format!("{hash}.json")),
            weights: table.with_extension("weights"),
            table,
            record: dir.join("jobs").join(format!("{hash}.json")),
            test_part: dir.join("solves").join(format!("part-{hash}.{}", format.ext())),
            partial: dir.join("partial").join(hash),
        }
    }

    /// Removes what the job wrote (part files in either format, the rows first so that the job
    /// counts as not run from the first removal on), to run it again from the start.
    fn remove_outputs(&self) -> Result<()> {
        let parts = |part: &Path| [Format::Parquet, Format::Csv].map(|f| part.with_extension(f.ext()));
        for path in parts(&self.part).iter().chain(&parts(&self.test_part)).chain([&self.checkpoint, &self.table, &self.weights]) {
            match std::fs::remove_file(path) {
                Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(e).with_context(|| format!("removing {}", path.display())),
                _ => {}
            }
        }
        match std::fs::remove_dir_all(&self.partial) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(e).with_context(|| format!("removing {}", self.partial.display())),
            _ => {}
        }
        Ok(())
    }
}
