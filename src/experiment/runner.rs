//! Parallel, deterministic, resumable execution of jobs: what every job kind shares.
//!
//! The runner expands nothing and plays nothing itself: each job kind is a `KindRunner`
//! (`kind::contract`, listed in `kind::registry`), and the runner owns what is common to them: the
//! shard's jobs, the lock on the results folder, which jobs are done, the progress bar and the
//! thread pool. Jobs run on a rayon pool of `--threads` workers; inside a job the games (or
//! problems) run in parallel too, so one big job still uses every core. Each unit of work draws
//! from its own generator seeded from (job seed, index), so rows never depend on scheduling, thread
//! count, batching or where a killed run resumed (with iteration budgets; time budgets depend on
//! the machine by nature).
//!
//! A job is done when its part passes its check (`stream`: sealed in the job record, identified in
//! its own metadata); a part that fails it is run again, with a message. Game and solve jobs save
//! their rows in batches while they run and resume after the last one; GA jobs resume from their
//! checkpoints. `--shard I/N` keeps shard I of the jobs ranked by hash and dealt round-robin
//! (`Shard::select`). A run locks the results folder (`lock_results`), so a second run on the same
//! folder is refused, naming the first, while shards of one file run side by side.

use super::error::InputError;
use super::grid::Job;
use super::kind::{JobContext, kind_runner, rows_folder};
use super::layout::{JobFiles, current_jobs_file, results_dir, sound_part};
use super::progress::{JobTally, Progress};
use super::rows::{Format, JobColumns, SweptKind, existing_part, remove_stale_temps, write_atomic};
use super::spec::{Experiment, Stage};
use super::stream::PartId;
use crate::durable::{FolderLock, LockMode, Locked};
pub use crate::pool::with_threads;
use anyhow::Result;
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
        let bad = || {
            InputError::plain(format!(
                "--shard '{s}': expected I/N with 1 <= I <= N, e.g. 1/4"
            ))
        };
        let (i, n) = s.split_once('/').ok_or_else(bad)?;
        let (index, count) = (
            i.trim().parse::<u64>().map_err(|_| bad())?,
            n.trim().parse::<u64>().map_err(|_| bad())?,
        );
        if count == 0 || index == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

impl Shard {
    /// The jobs of this shard, in the order given. The jobs are ranked by their hash (the grid's
    /// jobs, whatever order they were expanded in) and dealt round-robin: job of rank k goes to
    /// shard k mod N + 1. So J jobs in N shards give each shard floor(J/N) or ceil(J/N) jobs,
    /// and the same grid always splits the same way.
    pub fn select<'a>(&self, jobs: &'a [Job]) -> Vec<&'a Job> {
        let mut ranked: Vec<usize> = (0..jobs.len()).collect();
        ranked.sort_by(|&a, &b| {
            (jobs[a].hash_u64(), &jobs[a].hash).cmp(&(jobs[b].hash_u64(), &jobs[b].hash))
        });
        let mut mine = vec![false; jobs.len()];
        for (rank, &i) in ranked.iter().enumerate() {
            mine[i] = rank as u64 % self.count == self.index - 1;
        }
        jobs.iter()
            .zip(mine)
            .filter(|(_, m)| *m)
            .map(|(j, _)| j)
            .collect()
    }

    /// The lock file this shard holds in its experiment's results folder `dir` while it runs
    /// (`lock_results`), naming its holder (`durable::lock_holder` reads it back: a race's shards
    /// ask whether their partners ended).
    pub fn lock_file(&self, dir: &Path) -> PathBuf {
        dir.join(format!("run-shard-{}-of-{}.lock", self.index, self.count))
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
    /// Rows earlier runs saved and this one kept as they are: the parts of done jobs (that pass
    /// their checks), and the saved batches or checkpointed generations of resumed ones.
    pub rows_kept: usize,
    pub jobs_run: usize,
    /// Rows written: games (of matches, tournaments and tune jobs), or individuals x
    /// generations for GA jobs.
    pub rows: usize,
    pub seconds: f64,
    pub results_dir: PathBuf,
    /// What stopped jobs or the run early, to be said with the summary: an SPRT's decision
    /// ("job <hash>: SPRT of mcts stopped after 64 of 1000 games: H1 accepted ..."), a race's end.
    pub stopped: Vec<String>,
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
/// the kernel when their holder dies, so a killed run never leaves a stale lock. The folder is
/// locked too (its own inode, in the same mode as run.lock), so removing run.lock while a run
/// holds it lets no second run in; that is what lets a whole run remove its run.lock when it
/// ends or is interrupted (a file left behind by a kill -9 holds nothing).
pub fn lock_results(dir: &Path, shard: Option<Shard>, what: &str) -> Result<RunLocks> {
    let advice = |e: anyhow::Error| match e.downcast::<Locked>() {
        Ok(l) => anyhow::anyhow!(
            "{} is in use: {} holds {}; wait for it to finish (or stop it) and run again",
            dir.display(),
            l.holder,
            l.path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default()
        ),
        Err(e) => e,
    };
    let mut locks = Vec::new();
    match shard {
        None => locks.push(
            FolderLock::try_lock(&dir.join("run.lock"), LockMode::Exclusive, what).map_err(
                |e| {
                    // Name a shard's holder when shards hold the folder.
                    let shards: Vec<String> = std::fs::read_dir(dir)
                        .into_iter()
                        .flatten()
                        .flatten()
                        .filter(|e| e.file_name().to_string_lossy().starts_with("run-shard-"))
                        .filter_map(|e| {
                            FolderLock::try_lock(&e.path(), LockMode::Exclusive, what)
                                .err()
                                .map(|_| {
                                    std::fs::read_to_string(e.path())
                                        .unwrap_or_default()
                                        .trim()
                                        .to_string()
                                })
                        })
                        .collect();
                    if shards.is_empty() {
                        advice(e)
                    } else {
                        anyhow::anyhow!(
                            "{} is in use by shards: {}; wait for them to finish and run again",
                            dir.display(),
                            shards.join(", ")
                        )
                    }
                },
            )?,
        ),
        Some(s) => {
            locks.push(
                FolderLock::try_lock(&dir.join("run.lock"), LockMode::Shared, what)
                    .map_err(advice)?,
            );
            locks.push(
                FolderLock::try_lock(&s.lock_file(dir), LockMode::Exclusive, what)
                    .map_err(advice)?,
            );
        }
    }
    // The folder itself too: a run.lock removed while a run holds it and made again by a second
    // run gives the second its file lock, not the folder's.
    let mode = if shard.is_some() {
        LockMode::Shared
    } else {
        LockMode::Exclusive
    };
    let folder = FolderLock::try_lock_folder(dir, mode).map_err(|_| {
        anyhow::anyhow!(
            "{} is in use by another run (its run.lock was removed while that run held it); wait for it to finish (or stop it) and run again",
            dir.display()
        )
    })?;
    // A whole run's run.lock goes when the run ends (or is interrupted), the folder's lock
    // released after it; a shard's shared run.lock and its own lock file stay (the shards of a
    // race read whether a shard ended from its file).
    if shard.is_none() {
        locks[0].remove_when_released();
    }
    locks.push(folder);
    Ok(RunLocks(locks))
}

/// The line said when a job finishes: "job 3/8 done: <hash> (agents.mcts.rollouts=10, repeat
/// 0): 240 games in 12.3 s; mcts 150.5/240, greedy 89.5/240", with what the job noted (an
/// SPRT's decision).
fn finished_line(
    job: &Job,
    tally: &JobTally,
    steps: usize,
    rows: usize,
    seconds: f64,
    done: u64,
    progress: &Progress,
) -> String {
    let mut what: Vec<String> = job.swept.iter().map(|(k, v)| format!("{k}={v}")).collect();
    what.push(format!("repeat {}", job.config.repeat));
    // The rows when they are not the units (a GA: individuals x generations).
    let rows = if rows == steps {
        String::new()
    } else {
        format!(", {}", crate::words::count(rows, "row", "rows"))
    };
    let mut line = format!(
        "job {done}/{} done: {} ({}): {steps} {}{rows} in {}",
        progress.jobs(),
        job.hash,
        what.join(", "),
        progress.unit(),
        super::progress::duration_text(seconds)
    );
    if let Some(score) = tally.score() {
        line += &format!("; {score}");
    }
    for note in tally.notes() {
        line += &format!("; {note}");
    }
    line
}

/// Jobs that read another experiment's trained weights: what they read now (a missing source is
/// an error in the file), by job hash.
type Inputs = std::collections::BTreeMap<String, serde_json::Value>;

fn inputs_of(exp: &Experiment, in_shard: &[&Job], opts: &RunOptions) -> Result<Inputs> {
    let mut inputs = Inputs::new();
    for j in in_shard {
        match kind_runner(j.config.kind).inputs(j, &opts.out) {
            Ok(Some(now)) => {
                inputs.insert(j.hash.clone(), now);
            }
            Ok(None) => {}
            Err((key, e)) => return Err(exp.error(&key, format!("{e:#}")).into()),
        }
    }
    Ok(inputs)
}

fn shard_jobs<'a>(jobs: &'a [Job], opts: &RunOptions) -> Vec<&'a Job> {
    match opts.shard {
        Some(s) => s.select(jobs),
        None => jobs.iter().collect(),
    }
}

/// Runs the jobs of an experiment that are not done yet (in this shard), every one: a file with
/// a `[race]` runs through `race::run` instead (`experiment::run` chooses).
pub fn run(exp: &Experiment, jobs: &[Job], opts: &RunOptions) -> Result<RunSummary> {
    // What jobs read from other experiments, before anything is written.
    let inputs = inputs_of(exp, &shard_jobs(jobs, opts), opts)?;
    let _locks = lock_results(
        &results_dir(&opts.out, &exp.name),
        opts.shard,
        &format!("gamelab run {}", exp.path.display()),
    )?;
    run_with(exp, jobs, opts, inputs)
}

/// `run` by a caller that holds the results folder's lock (`lock_results`): a race's rounds.
pub fn run_locked(exp: &Experiment, jobs: &[Job], opts: &RunOptions) -> Result<RunSummary> {
    let inputs = inputs_of(exp, &shard_jobs(jobs, opts), opts)?;
    run_with(exp, jobs, opts, inputs)
}

fn run_with(
    exp: &Experiment,
    jobs: &[Job],
    opts: &RunOptions,
    inputs: Inputs,
) -> Result<RunSummary> {
    let t0 = Instant::now();
    let dir = results_dir(&opts.out, &exp.name);
    let rows_dir = dir.join(rows_folder(exp.file.kind));
    let in_shard = shard_jobs(jobs, opts);
    let hashes: std::collections::BTreeSet<&str> = jobs.iter().map(|j| j.hash.as_str()).collect();
    write_atomic(&current_jobs_file(&dir), |f| {
        std::io::Write::write_all(f, &serde_json::to_vec_pretty(&hashes)?)?;
        Ok(())
    })?;
    // The rows folders hold the current jobs' parts only (`older_jobs`).
    let tidied = super::older_jobs::tidy(&dir, &hashes)?;
    if tidied.set_aside > 0 {
        eprintln!(
            "{} of jobs the file no longer has: moved to {}",
            crate::words::count(tidied.set_aside, "part", "parts"),
            super::older_jobs::older_jobs_dir(&dir).display()
        );
    }
    if tidied.brought_back > 0 {
        eprintln!(
            "{} the file has again: brought back from {}",
            crate::words::count(tidied.brought_back, "job", "jobs"),
            super::older_jobs::older_jobs_dir(&dir).display()
        );
    }
    // A job that ran (or began) with other trained weights than it reads now runs again from
    // the start.
    for (hash, now) in &inputs {
        let files = JobFiles::of(&dir, &rows_dir, hash, opts.format);
        let ran_with = std::fs::read_to_string(&files.record)
            .ok()
            .and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok())
            .map(|r| r["inputs"].clone());
        if ran_with.as_ref() != Some(now)
            && (existing_part(&rows_dir, hash).is_some()
                || files.checkpoint.exists()
                || files.partial.exists())
        {
            eprintln!(
                "job {hash}: the trained weights it reads have changed since it ran; running it again"
            );
            files.remove_outputs()?;
        }
    }
    // A job is done when its part passes its check; a part that fails it is removed (with the
    // job's other outputs) and the job runs again. A sealed job asked for more units than it
    // ended with (a match grown from 200 games to 300) goes on from where it ended: its part
    // becomes its first batch (`stream::reopen`).
    let kind = kind_runner(exp.file.kind);
    let mut pending: Vec<&Job> = Vec::new();
    // Rows of done jobs; a pending job's saved rows (its batches, a grown job's part, a GA's
    // checkpoint) are counted as kept when it resumes (`JobContext::kept`).
    let mut rows_kept = 0;
    for j in &in_shard {
        match sound_part(&dir, &rows_dir, &exp.name, &j.hash) {
            Ok(Some((part, rows))) => {
                let files = JobFiles::of(&dir, &rows_dir, &j.hash, opts.format);
                let grows = super::stream::ended(&files.record)
                    .and_then(|(units, carry)| Some((kind.grows(j, units, &carry)?, carry)));
                match grows {
                    Some((units, carry)) => {
                        // A race's rounds grow every point; it says so a round at a time.
                        if exp.file.race.is_none() {
                            eprintln!(
                                "job {}: grows from {units} to {} {}; playing the new ones",
                                j.hash,
                                kind.steps(j),
                                kind.unit()
                            );
                        }
                        super::stream::remove_batches(&files.partial)?;
                        super::stream::reopen(
                            &part,
                            &files.record,
                            &files.partial,
                            PartId {
                                experiment: &exp.name,
                                job: &j.hash,
                            },
                            units,
                            carry,
                        )?;
                        pending.push(j);
                    }
                    // Done; batches left by a run killed right after sealing the part go.
                    None => {
                        rows_kept += rows;
                        super::stream::remove_batches(&files.partial)?
                    }
                }
            }
            Ok(None) => pending.push(j),
            Err((part, why)) => {
                eprintln!(
                    "job {}: {} fails its check ({why}); running the job again",
                    j.hash,
                    part.display()
                );
                JobFiles::of(&dir, &rows_dir, &j.hash, opts.format).remove_outputs()?;
                pending.push(j);
            }
        }
    }
    let kinds: Vec<SweptKind> = exp
        .swept_axes()
        .iter()
        .map(|(_, v)| SweptKind::of(v))
        .collect();
    let unit = kind.unit();
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
    let total_steps: usize = pending.iter().map(|j| kind.steps(j)).sum();
    // The bar counts steps weighted by their cost (`KindRunner::step_weight`), so that its ETA,
    // the measured time per unit of cost times the cost left, holds when cheap and costly jobs
    // are mixed; the text shows the steps themselves.
    let weight_of = |job: &Job| kind.step_weight(job).max(1);
    let total_weight: u64 = pending
        .iter()
        .map(|j| (kind.steps(j) as u64).saturating_mul(weight_of(j)))
        .fold(0, u64::saturating_add);
    let progress = std::sync::Arc::new(Progress::new(
        unit,
        total_steps,
        total_weight,
        pending.len(),
    ));
    let on_terminal = std::io::IsTerminal::is_terminal(&std::io::stderr());
    let bar = if opts.progress && on_terminal {
        ProgressBar::with_draw_target(Some(total_weight), ProgressDrawTarget::stderr())
    } else {
        ProgressBar::hidden()
    };
    // A line above the bar on a terminal, a line of the log off one.
    let say = |line: &str| {
        if opts.progress {
            if on_terminal {
                bar.println(line);
            } else {
                eprintln!("{line}");
            }
        }
    };
    let (done_key, rate_key) = (progress.clone(), progress.clone());
    bar.set_style(
        ProgressStyle::with_template(&format!("{{elapsed_precise}} [{{bar:30}}] {{done}}/{total_steps} {unit}, {{rate}} {unit}/s, ETA {{eta}} | {{msg}}"))
            .expect("valid template")
            .with_key("done", move |_: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                let _ = write!(w, "{}", done_key.steps_done.load(std::sync::atomic::Ordering::Relaxed));
            })
            .with_key("rate", move |s: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                let secs = s.elapsed().as_secs_f64();
                let done = rate_key.steps_done.load(std::sync::atomic::Ordering::Relaxed) as f64;
                let _ = write!(w, "{:.0}", if secs > 0.0 { done / secs } else { 0.0 });
            })
            .progress_chars("=> "),
    );
    let rows_written = std::sync::atomic::AtomicUsize::new(0);
    let stopped = std::sync::Mutex::new(Vec::new());
    let rows_resumed = std::sync::atomic::AtomicUsize::new(0);
    bar.set_message(format!("jobs 0/{}", pending.len()));

    let work = || -> Result<()> {
        pending.par_iter().try_for_each(|job| -> Result<()> {
            let files = JobFiles::of(&dir, &rows_dir, &job.hash, opts.format);
            // Temporary files a killed run left for this job's outputs (this run holds the lock).
            for output in [&files.part, &files.checkpoint, &files.table, &files.record, &files.weights, &files.test_part] {
                remove_stale_temps(output);
            }
            let mut record = serde_json::json!({ "hash": job.hash, "seed": job.seed, "swept": job.swept.iter().cloned().collect::<std::collections::BTreeMap<_, _>>(), "config": job.config });
            if let Some(read) = inputs.get(&job.hash) {
                record["inputs"] = read.clone();
            }
            write_atomic(&files.record, |f| {
                std::io::Write::write_all(f, &serde_json::to_vec_pretty(&record)?)?;
                Ok(())
            })?;
            let weight = weight_of(job);
            let advance = |n: u64| {
                progress.advance(n, weight);
                bar.inc(n.saturating_mul(weight));
            };
            let started = Instant::now();
            let tally = progress.start(&job.hash);
            let cx = JobContext {
                job,
                files,
                id: JobColumns {
                    experiment: &exp.name,
                    job: &job.hash,
                    repeat: job.config.repeat,
                    swept: job.swept.iter().zip(&kinds).map(|((k, v), kind)| (k.as_str(), kind.clone(), v)).collect(),
                },
                part_id: PartId { experiment: &exp.name, job: &job.hash },
                format: opts.format,
                out: &opts.out,
                library: library_of(job),
                progress: &advance,
                tally: &tally,
                kept: &|n| {
                    rows_resumed.fetch_add(n, std::sync::atomic::Ordering::Relaxed);
                },
            };
            let ran = kind.run(&cx);
            let done = progress.end(&job.hash, ran.is_ok());
            let rows = ran?;
            // All its rows; those it kept are taken off at the end.
            rows_written.fetch_add(rows, std::sync::atomic::Ordering::Relaxed);
            bar.set_message(format!("jobs {done}/{}", pending.len()));
            for note in tally.notes() {
                stopped.lock().expect("the notes").push(format!("job {}: {note}", job.hash));
            }
            say(&finished_line(job, &tally, kind.steps(job), rows, started.elapsed().as_secs_f64(), done, &progress));
            Ok(())
        })
    };
    // Off a terminal, the progress line every 30 s while the jobs run.
    let worked = std::thread::scope(|scope| {
        let (end_ticks, ticks_end) = std::sync::mpsc::channel::<()>();
        if opts.progress && !on_terminal && !pending.is_empty() {
            let progress = &progress;
            scope.spawn(move || progress.tick_until(ticks_end, &|line| eprintln!("{line}")));
        }
        let worked = with_threads(opts.threads, work);
        drop(end_ticks);
        worked
    });
    worked?;
    bar.finish_and_clear();
    let resumed = rows_resumed.into_inner();
    Ok(RunSummary {
        jobs_total: jobs.len(),
        jobs_in_shard: in_shard.len(),
        jobs_skipped: in_shard.len() - pending.len(),
        rows_kept: rows_kept + resumed,
        jobs_run: pending.len(),
        rows: rows_written.into_inner().saturating_sub(resumed),
        seconds: t0.elapsed().as_secs_f64(),
        results_dir: dir,
        stopped: stopped.into_inner().expect("the notes"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn jobs(n_values: usize, repeats: usize) -> Vec<Job> {
        let values: Vec<String> = (0..n_values).map(|i| (10 + i).to_string()).collect();
        let text = format!(
            "name = \"s\"\nkind = \"tournament\"\ngame = \"othello\"\nstage = \"small6\"\nseed = 3\nrepeats = {repeats}\n[tournament]\nrounds = 1\n[agents.a]\nkind = \"random\"\n[agents.b]\nkind = \"simple_mcts\"\nrollouts = 5\n[grid]\n\"agents.b.rollouts\" = [{}]\n",
            values.join(", ")
        );
        let exp = Experiment::from_text(Path::new("s.toml"), text).unwrap();
        crate::experiment::expand(&exp).unwrap()
    }

    #[test]
    fn shards_split_the_jobs_evenly_the_same_way_every_time() {
        let four = jobs(2, 2);
        assert_eq!(four.len(), 4);
        let sizes = |jobs: &[Job], n: u64| {
            (1..=n)
                .map(|i| Shard { index: i, count: n }.select(jobs).len())
                .collect::<Vec<_>>()
        };
        assert_eq!(sizes(&four, 2), [2, 2]);
        assert_eq!(sizes(&four, 4), [1, 1, 1, 1]);
        for (values, repeats) in [(3, 1), (7, 3), (5, 2)] {
            let js = jobs(values, repeats);
            for n in 1..=6u64 {
                let s = sizes(&js, n);
                let (lo, hi) = (
                    js.len() as u64 / n,
                    js.len() as u64 / n + (js.len() as u64 % n != 0) as u64,
                );
                assert!(
                    s.iter().all(|&k| k as u64 == lo || k as u64 == hi),
                    "{} jobs in {n} shards: {s:?}",
                    js.len()
                );
                // Every job in exactly one shard.
                let mut all: Vec<&str> = (1..=n)
                    .flat_map(|i| Shard { index: i, count: n }.select(&js))
                    .map(|j| j.hash.as_str())
                    .collect();
                all.sort();
                let mut expected: Vec<&str> = js.iter().map(|j| j.hash.as_str()).collect();
                expected.sort();
                assert_eq!(all, expected);
            }
        }
        // The same grid in another order splits the same way.
        let mut reversed = four.clone();
        reversed.reverse();
        let hashes = |js: Vec<&Job>| -> Vec<String> {
            let mut v: Vec<String> = js.iter().map(|j| j.hash.clone()).collect();
            v.sort();
            v
        };
        for i in 1..=2 {
            let s = Shard { index: i, count: 2 };
            assert_eq!(hashes(s.select(&four)), hashes(s.select(&reversed)));
        }
    }
}
