//! The report stage at scale, on rows a run writes: `REPORT_ROWS` games (default 1,000,000;
//! issue 34's target is 10,000,000 in under 10 s and 1 GB) of Othello 6x6, a random agent
//! against four others (random, greedy, corners, positional: four jobs), with the real
//! transcripts, start positions and per-move columns the runner records. The rows are played
//! by `gamelab run` in a child process (its peak resident memory is printed too: the run's
//! memory per job), then `gamelab report`'s library call is timed in this process, with its
//! peak resident memory (this process did nothing else). Where Python's `duckdb` package is
//! installed, DuckDB computes the same score table (mean result per agent and opponent, and the
//! distinct games per group) on the same Parquet files, and its time and memory are printed
//! beside ours with the ratio.
//!
//!     REPORT_ROWS=10000000 REPORT_BENCH_DIR=/tmp/rows cargo bench --bench report
//!
//! `REPORT_JOBS=1` plays all the games in one job (default 4 jobs): the report's memory per job.

use gamelab::experiment::{Experiment, expand};
use std::path::Path;
use std::time::Instant;

/// The opponents of the jobs: the first `jobs` of the four.
const OPPONENTS: [&str; 4] = ["random", "greedy", "corners", "positional"];

fn experiment(games_per_job: usize, jobs: usize) -> String {
    let opponents = OPPONENTS[..jobs]
        .iter()
        .map(|o| format!("\"{o}\""))
        .collect::<Vec<_>>()
        .join(", ");
    format!(
        r#"
name = "scale"
kind = "match"
game = "othello"
stage = "small6"
seed = 1
repeats = 1
[match]
players = ["random", "opponent"]
games = {games_per_job}
[grid]
"agents.opponent.kind" = [{opponents}]
[agents.random]
kind = "random"
[agents.opponent]
kind = "random"
[[report.tables]]
name = "scores"
group_by = ["agent", "agents.opponent.kind"]
elo = true
[[report.tables]]
name = "plies"
statistic = "mean"
metric = "plies"
group_by = ["agents.opponent.kind"]
"#
    )
}

/// This process's CPU time so far (user and system), in seconds.
fn cpu_seconds() -> f64 {
    // SAFETY: getrusage only writes the struct it is given.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut usage) };
    let t = |v: libc::timeval| v.tv_sec as f64 + v.tv_usec as f64 / 1e6;
    t(usage.ru_utime) + t(usage.ru_stime)
}

fn peak_rss_mb() -> f64 {
    rss_mb("VmHWM:")
}

/// A line of /proc/self/status in MB (VmRSS: resident now; VmHWM: the high-water mark).
fn rss_mb(field: &str) -> f64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find(|l| l.starts_with(field))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|k| k.parse::<f64>().ok())
        .map_or(f64::NAN, |kb| kb / 1024.0)
}

/// The largest peak resident memory of this process's waited-for children, in MB.
fn children_peak_mb() -> f64 {
    // SAFETY: getrusage only writes the struct it is given.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, &mut usage) };
    usage.ru_maxrss as f64 / 1024.0
}

/// The same score table by DuckDB (Python package), on the same Parquet files: each game as two
/// seat records, grouped by agent and opponent kind, with games, points, score, mean plies and
/// distinct games (by the rows' game key). Prints its query's time, the process's peak memory
/// (Python's own about 36 MB of it), the groups and the query's CPU seconds.
const DUCKDB: &str = r#"
import resource, sys, time
def cpu():
    u = resource.getrusage(resource.RUSAGE_SELF)
    return u.ru_utime + u.ru_stime
import duckdb
duckdb.sql("set enable_progress_bar = false")
c0 = cpu()
t0 = time.time()
parts = sys.argv[1] + "/*.parquet"
q = f"""
with games as (
  select "agents.opponent.kind" as kind, first_agent, second_agent, winner, plies, game_key
  from read_parquet('{parts}')),
seats as (
  select first_agent as agent, kind, case winner when 'first' then 1.0 when 'draw' then 0.5 else 0.0 end as result, plies, game_key from games
  union all
  select second_agent as agent, kind, case winner when 'second' then 1.0 when 'draw' then 0.5 else 0.0 end as result, plies, game_key from games)
select agent, kind, count(*) as games, sum(result) as points, avg(result) as score, avg(plies) as plies,
       count(distinct game_key) as distinct_games
from seats group by agent, kind order by agent, kind
"""
rows = duckdb.sql(q).fetchall()
elapsed = time.time() - t0
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(f"{elapsed:.3f} {peak:.0f} {len(rows)} {cpu() - c0:.3f}")
"#;

/// DuckDB's (seconds, megabytes, groups), or why there are none.
fn duckdb_figures(games_dir: &Path) -> Result<(f64, f64, usize, f64), String> {
    let out = std::process::Command::new("python3")
        .args(["-c", DUCKDB])
        .arg(games_dir)
        .output()
        .map_err(|e| format!("python3: {e}"))?;
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr);
        return Err(err.lines().last().unwrap_or("python3 failed").to_string());
    }
    let text = String::from_utf8_lossy(&out.stdout);
    let mut it = text.split_whitespace();
    let mut next = || {
        it.next()
            .ok_or_else(|| format!("unexpected output: {text}"))
    };
    let s = next()?
        .parse()
        .map_err(|_| format!("unexpected output: {text}"))?;
    let mb = next()?
        .parse()
        .map_err(|_| format!("unexpected output: {text}"))?;
    let groups = next()?
        .parse()
        .map_err(|_| format!("unexpected output: {text}"))?;
    let cpu = next()?
        .parse()
        .map_err(|_| format!("unexpected output: {text}"))?;
    Ok((s, mb, groups, cpu))
}

fn main() {
    let rows: usize = std::env::var("REPORT_ROWS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1_000_000);
    // REPORT_JOBS (1 to 4, default 4): the jobs the games are split into; one job holds every
    // game, the case where memory per job shows.
    let n_jobs: usize = std::env::var("REPORT_JOBS")
        .ok()
        .and_then(|v| v.parse().ok())
        .filter(|j| (1..=4).contains(j))
        .unwrap_or(4);
    let games_per_job = rows.div_ceil(n_jobs);
    let text = experiment(games_per_job, n_jobs);
    // REPORT_BENCH_DIR keeps the rows in a folder of one's choice and reuses them when they are
    // there (playing 10,000,000 games takes a few minutes); the folder is only written into.
    let temporary = tempfile::tempdir().expect("a temporary folder");
    let dir = std::env::var("REPORT_BENCH_DIR")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|_| temporary.path().to_path_buf());
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join(format!("scale-{n_jobs}x{games_per_job}.toml"));
    std::fs::write(&file, &text).unwrap();
    let exp = Experiment::load(&file).unwrap();
    let jobs = expand(&exp).unwrap();
    let t0 = Instant::now();
    // `gamelab run` plays only the jobs without rows: a second bench on the same folder reuses them.
    let status = std::process::Command::new(env!("CARGO_BIN_EXE_gamelab"))
        .arg("run")
        .arg(&file)
        .arg("--out")
        .arg(&dir)
        .stdout(std::process::Stdio::null())
        .status()
        .expect("gamelab run");
    assert!(status.success(), "gamelab run failed");
    println!(
        "run: {} games in {n_jobs} jobs ({games_per_job} a job) in {:.1} s, peak RSS of the run {:.0} MB",
        games_per_job * n_jobs,
        t0.elapsed().as_secs_f64(),
        children_peak_mb()
    );
    println!("resident before the report: {:.0} MB", rss_mb("VmRSS:"));
    let t0 = Instant::now();
    let c0 = cpu_seconds();
    let out = gamelab::report::report(&exp, &jobs, &dir, true).expect("the report");
    let (ours_s, ours_cpu, ours_mb) = (
        t0.elapsed().as_secs_f64(),
        cpu_seconds() - c0,
        peak_rss_mb(),
    );
    println!(
        "report of {} rows: {ours_s:.2} s, {ours_cpu:.2} s CPU, peak RSS {ours_mb:.0} MB (target for 10,000,000 rows: under 10 s and 1024 MB)",
        out.rows
    );
    let games_dir = dir.join("results").join("scale").join("games");
    match duckdb_figures(&games_dir) {
        Ok((s, mb, groups, cpu)) => println!(
            "DuckDB, the score table with points, mean plies and distinct games per group ({groups} groups) on the same Parquet files: {s:.2} s, {cpu:.2} s CPU, peak RSS {mb:.0} MB (Python's own included); ours / DuckDB: {:.1}x time, {:.1}x CPU, {:.1}x memory",
            ours_s / s,
            ours_cpu / cpu,
            ours_mb / mb
        ),
        Err(why) => println!(
            "DuckDB: SKIPPED ({why}; with Python's duckdb package installed (pip install duckdb) it runs beside)"
        ),
    }
}
