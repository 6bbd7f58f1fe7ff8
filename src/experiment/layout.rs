//! Where a run's files live under the output root: an experiment's results folder
//! (`results_dir`), the files a job writes there (`JobFiles`), the list of the file's current
//! jobs (`current_jobs`), the record of each run's wall time (`RUN_TIMES_FILE`, with `RunClock`
//! for runs killed part way), and a job's part found and checked (`sound_part`). Knows no job
//! kind; the runner, the reports and the readers of another experiment's trained weights all
//! find files through it.

use super::rows::{Format, existing_part};
use super::stream::{PartId, verify_part};
use anyhow::{Context, Result};
use std::path::{Path, PathBuf};

/// The file in an experiment's results folder where each run that ran jobs adds a line: its
/// wall time, the jobs it ran, the worker threads and the machine's cores, and when it ended
/// (`run_times`). A resumed run adds its own line, so the lines sum to the file's cost. A run
/// killed before its end (kill -9, a session's end) leaves its `RunClock` file, which the next
/// run in the folder turns into a line: its time up to the clock's last tick (at most a second
/// short), 0 jobs, and "killed; last seen DATE" for its end. A run stopped by Ctrl-C writes its
/// own line ("interrupted DATE").
pub const RUN_TIMES_FILE: &str = "run-times.csv";
const RUN_TIMES_HEADER: &str = "seconds,jobs,threads,cores,ended\n";

/// The start of the name of a running run's clock file in the results folder (`RunClock`).
const CLOCK_PREFIX: &str = "run-clock-";

/// The wall clock of a running `gamelab run` in its results folder: a small file (the run's
/// holder line, then `seconds,threads,cores,last seen`) written when the run starts (or, for
/// a new folder, within a second of the run making it) and again every second
/// (`GAMELAB_RUN_CLOCK_MS`; a rename, not synced, so ticking costs nothing), removed when the run
/// ends and records its line (`finish`), fails, or is interrupted (`record_interrupted_runs`). A file whose run died on this machine is what that run cost: the next
/// `RunClock::start` in the folder adds it to `RUN_TIMES_FILE` (a killed line) and removes it.
/// A clock of a run on another machine is left alone (its pid means nothing here).
pub struct RunClock {
    path: PathBuf,
    dir: PathBuf,
    threads: Option<usize>,
    stop: Option<std::sync::mpsc::Sender<()>>,
    ticker: Option<std::thread::JoinHandle<()>>,
}

impl RunClock {
    /// Folds the clocks of runs that died on this machine into `RUN_TIMES_FILE`, then starts
    /// this run's clock in the results folder `dir`.
    pub fn start(dir: &Path, threads: Option<usize>) -> Result<RunClock> {
        fold_dead_clocks(dir)?;
        let path = dir.join(format!(
            "{CLOCK_PREFIX}{}-{}.txt",
            std::process::id(),
            crate::durable::safe_component(&crate::durable::host_name())
        ));
        let started = std::time::Instant::now();
        let holder = crate::durable::Holder::line("gamelab run");
        let cores = cores();
        let tick = move |path: &Path| {
            // Never the one to make the results folder (bad input must leave nothing): until
            // the run has made it, there is nothing to write.
            if !path.parent().is_some_and(Path::exists) {
                return Ok(false);
            }
            let line = format!(
                "{:.1},{},{cores},{}\n",
                started.elapsed().as_secs_f64(),
                threads.unwrap_or(cores),
                now_utc()
            );
            // Not synced: a killed run loses nothing, a crashed machine the last ticks.
            crate::durable::write_bytes_unsynced(path, format!("{holder}\n{line}").as_bytes())?;
            Ok::<bool, anyhow::Error>(true)
        };
        let mut ticked = tick(&path)?;
        let every = std::env::var("GAMELAB_RUN_CLOCK_MS")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(1_000);
        LIVE_CLOCKS
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .push(LiveClock {
                path: path.clone(),
                dir: dir.to_path_buf(),
                started,
                threads,
            });
        let (stop, stopped) = std::sync::mpsc::channel::<()>();
        let ticking = path.clone();
        let ticker = std::thread::spawn(move || {
            // Every second until the first tick lands (the run makes its folder), then `every`.
            let wait = |ticked: bool| if ticked { every } else { every.min(1000) };
            while let Err(std::sync::mpsc::RecvTimeoutError::Timeout) =
                stopped.recv_timeout(std::time::Duration::from_millis(wait(ticked)))
            {
                // A failed tick (a full disk) leaves the last one: the run goes on.
                ticked |= tick(&ticking).unwrap_or(false);
            }
        });
        Ok(RunClock {
            path,
            dir: dir.to_path_buf(),
            threads,
            stop: Some(stop),
            ticker: Some(ticker),
        })
    }

    /// The run ended: its line (when it ran jobs) added to `RUN_TIMES_FILE`, its clock removed.
    pub fn finish(mut self, seconds: f64, jobs: usize) -> Result<()> {
        self.stop_ticking();
        if jobs > 0 {
            record_run_time(&self.dir, seconds, jobs, self.threads)?;
        }
        std::fs::remove_file(&self.path).ok();
        Ok(())
    }

    fn stop_ticking(&mut self) {
        drop(self.stop.take());
        if let Some(t) = self.ticker.take() {
            t.join().ok();
        }
        LIVE_CLOCKS
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .retain(|c| c.path != self.path);
    }
}

/// A clock of this process that is ticking, for `record_interrupted_runs`.
struct LiveClock {
    path: PathBuf,
    dir: PathBuf,
    started: std::time::Instant,
    threads: Option<usize>,
}

static LIVE_CLOCKS: std::sync::Mutex<Vec<LiveClock>> = std::sync::Mutex::new(Vec::new());

/// For a Ctrl-C handler about to exit: each run of this process that is ticking adds its time
/// so far to its folder's `RUN_TIMES_FILE` (0 jobs, "interrupted DATE", as a killed run's line
/// would say "killed") and its clock file goes.
pub fn record_interrupted_runs() {
    let clocks = std::mem::take(&mut *LIVE_CLOCKS.lock().unwrap_or_else(|p| p.into_inner()));
    for c in clocks {
        // Never the one to make the results folder (bad input must leave nothing).
        if c.dir.exists() {
            let cores = cores();
            append_run_line(
                &c.dir,
                &format!(
                    "{:.1},0,{},{cores},interrupted {}\n",
                    c.started.elapsed().as_secs_f64(),
                    c.threads.unwrap_or(cores),
                    now_utc()
                ),
            )
            .ok();
        }
        std::fs::remove_file(&c.path).ok();
    }
}

impl Drop for RunClock {
    /// A run that failed (an error, not a kill) records nothing, as before clocks: its clock
    /// goes with it.
    fn drop(&mut self) {
        if self.ticker.is_some() {
            self.stop_ticking();
            std::fs::remove_file(&self.path).ok();
        }
    }
}

/// Adds each clock file in `dir` whose run died on this machine to `RUN_TIMES_FILE` as a killed
/// line and removes it. Two runs starting at once (shards) claim a file by renaming it, so it is
/// added once.
fn fold_dead_clocks(dir: &Path) -> Result<()> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Ok(());
    };
    for e in entries.flatten() {
        let name = e.file_name().to_string_lossy().to_string();
        if !name.starts_with(CLOCK_PREFIX) || !name.ends_with(".txt") {
            continue;
        }
        let text = std::fs::read_to_string(e.path()).unwrap_or_default();
        let mut lines = text.lines();
        let dead = lines
            .next()
            .and_then(crate::durable::Holder::parse)
            .and_then(|h| h.ended_here())
            == Some(true);
        let Some(line) = lines.next().filter(|_| dead) else {
            continue;
        };
        let claimed = e
            .path()
            .with_file_name(format!("{name}.folding-{}", std::process::id()));
        if std::fs::rename(e.path(), &claimed).is_err() {
            continue; // another run took it
        }
        let f: Vec<&str> = line.split(',').collect();
        if let [seconds, threads, cores, last_seen] = f[..] {
            append_run_line(
                dir,
                &format!("{seconds},0,{threads},{cores},killed; last seen {last_seen}\n"),
            )?;
        }
        std::fs::remove_file(&claimed).ok();
        // A tick the dead run was writing when it was killed.
        crate::durable::remove_stale_temps(&e.path());
    }
    Ok(())
}

fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

fn now_utc() -> String {
    crate::provenance::utc(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs()),
    )
}

/// Adds a run's line to `RUN_TIMES_FILE` in the results folder `dir` (`RunClock::finish` does,
/// once per `gamelab run` that ran jobs, its arena's games included).
pub fn record_run_time(
    dir: &Path,
    seconds: f64,
    jobs: usize,
    threads: Option<usize>,
) -> Result<()> {
    let cores = cores();
    let line = format!(
        "{seconds:.1},{jobs},{},{cores},{}\n",
        threads.unwrap_or(cores),
        now_utc()
    );
    append_run_line(dir, &line)
}

/// Adds `line` to `RUN_TIMES_FILE` in `dir`, with the header when the file is new.
fn append_run_line(dir: &Path, line: &str) -> Result<()> {
    use std::io::Write;
    let path = dir.join(RUN_TIMES_FILE);
    let mut f = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&path)
        .with_context(|| format!("writing {}", path.display()))?;
    let text = if f.metadata().map(|m| m.len()).unwrap_or(0) == 0 {
        format!("{RUN_TIMES_HEADER}{line}")
    } else {
        line.to_string()
    };
    f.write_all(text.as_bytes())
        .map_err(|e| crate::durable::name_full_disk(e.into(), &path))
        .with_context(|| format!("writing {}", path.display()))
}

/// What the runs of an experiment recorded (`RUN_TIMES_FILE`): wall seconds in all, runs, and
/// the most threads and cores any of them had. None without the file or with no line.
pub fn run_times(path: &Path) -> Option<(f64, usize, usize, usize)> {
    let text = std::fs::read_to_string(path).ok()?;
    let mut total = (0.0, 0, 0, 0);
    for line in text.lines().skip(1) {
        let f: Vec<&str> = line.split(',').collect();
        let (Some(s), Some(t), Some(c)) = (
            f.first().and_then(|x| x.parse::<f64>().ok()),
            f.get(2).and_then(|x| x.parse::<usize>().ok()),
            f.get(3).and_then(|x| x.parse::<usize>().ok()),
        ) else {
            continue;
        };
        total = (total.0 + s, total.1 + 1, total.2.max(t), total.3.max(c));
    }
    (total.1 > 0).then_some(total)
}

pub fn results_dir(out: &Path, experiment: &str) -> PathBuf {
    out.join("results")
        .join(crate::durable::safe_component(experiment))
}

/// The file in an experiment's results folder that lists the job hashes of the experiment file
/// as it was last run. Job records of other hashes (from an older version of the file) stay on
/// disk; readers of another experiment's results (`trained:`) use this list to skip them.
pub fn current_jobs_file(results: &Path) -> PathBuf {
    results.join("current-jobs.json")
}

/// The hashes listed by `current_jobs_file`, or None for results written before the list existed.
pub fn current_jobs(results: &Path) -> Result<Option<std::collections::BTreeSet<String>>> {
    read_job_hashes(&current_jobs_file(results))
}

/// A JSON list of job hashes (`current_jobs_file`, a report's `jobs.json`), or None without the file.
pub fn read_job_hashes(path: &Path) -> Result<Option<std::collections::BTreeSet<String>>> {
    match std::fs::read_to_string(path) {
        Ok(text) => Ok(Some(
            serde_json::from_str(&text).with_context(|| format!("reading {}", path.display()))?,
        )),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(e).with_context(|| format!("reading {}", path.display())),
    }
}

/// The part of a job in `rows_dir` in either format, if one is there and passes its check
/// (`stream::verify_part`), with its row count (its seal's); Err names the file and what is
/// wrong with it.
pub fn sound_part(
    results: &Path,
    rows_dir: &Path,
    experiment: &str,
    hash: &str,
) -> Result<Option<(PathBuf, usize)>, (PathBuf, String)> {
    let Some(part) = existing_part(rows_dir, hash) else {
        return Ok(None);
    };
    let record = results.join("jobs").join(format!("{hash}.json"));
    match verify_part(
        &part,
        &record,
        PartId {
            experiment,
            job: hash,
        },
    ) {
        Ok(rows) => Ok(rows.map(|rows| (part, rows))),
        Err(why) => Err((part, why)),
    }
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
