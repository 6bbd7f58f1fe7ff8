//! The runner's games per second on 1 and 2 threads, for one job of many games (parallel inside
//! the job). Target (issue 2): speed-up on 2 threads >= 1.85x.
//!
//! Then a cheap match as `gamelab run` plays it, rows written (random against random on Othello
//! 6x6, `RUNNER_CHEAP_GAMES` games, default 300,000, one job), timed with `--threads 1` and
//! `--threads 2` alternately, twice each: wall seconds and the child's CPU seconds, and the
//! 2-thread run's speed-up. A run plays on its `--threads` and writes its rows on one thread
//! more (`kind::streamed`), so `--threads 1` already uses a second core for the writes (#83).

use criterion::{Criterion, Throughput, criterion_group};
use gamelab::experiment::kind::games::play_job;
use gamelab::experiment::{Experiment, expand};
use std::path::Path;

const FILE: &str = r#"
kind = "match"
game = "othello"
stage = "standard8"
seed = 1
[match]
players = ["a", "b"]
games = 64
[agents.a]
kind = "simple_mcts"
rollouts = 64
[agents.b]
kind = "weighted_random"
table = "handcrafted"
"#;

fn runner(c: &mut Criterion) {
    let exp = Experiment::from_text(Path::new("bench.toml"), FILE.to_string())
        .expect("valid bench experiment");
    let jobs = expand(&exp).expect("expands");
    let job = &jobs[0];
    let mut g = c.benchmark_group("runner");
    g.sample_size(10);
    g.throughput(Throughput::Elements(job.game_count() as u64));
    for threads in [1, 2] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("pool");
        g.bench_function(format!("match of 64 games, {threads} thread(s)"), |b| {
            b.iter(|| pool.install(|| play_job(job, &|| {}).expect("job plays")))
        });
    }
    g.finish();
}

/// A cheap match's `gamelab run` on `threads` threads: (wall seconds, CPU seconds of the run).
fn cheap_run(games: usize, threads: usize) -> (f64, f64) {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let file = dir.path().join("cheap.toml");
    std::fs::write(
        &file,
        format!(
            "name = \"cheap\"\nkind = \"match\"\ngame = \"othello\"\nstage = \"small6\"\nseed = 1\n\
             [match]\nplayers = [\"a\", \"b\"]\ngames = {games}\n\
             [agents.a]\nkind = \"random\"\n[agents.b]\nkind = \"random\"\n"
        ),
    )
    .expect("writing the experiment file");
    let cpu = || {
        // SAFETY: getrusage only writes the struct it is given.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, &mut usage) };
        let t = |v: libc::timeval| v.tv_sec as f64 + v.tv_usec as f64 / 1e6;
        t(usage.ru_utime) + t(usage.ru_stime)
    };
    let (cpu0, t0) = (cpu(), std::time::Instant::now());
    let status = std::process::Command::new(env!("CARGO_BIN_EXE_gamelab"))
        .arg("run")
        .arg(&file)
        .args(["--threads", &threads.to_string(), "--out"])
        .arg(dir.path())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .expect("gamelab runs");
    assert!(status.success(), "gamelab run failed");
    (t0.elapsed().as_secs_f64(), cpu() - cpu0)
}

fn cheap_match() {
    let games: usize = std::env::var("RUNNER_CHEAP_GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(300_000);
    let mut best = [f64::INFINITY; 2];
    for round in 1..=2 {
        for (i, threads) in [1, 2].into_iter().enumerate() {
            let (wall, cpu) = cheap_run(games, threads);
            best[i] = best[i].min(wall);
            println!(
                "cheap match, {games} games, --threads {threads} (round {round}): {wall:.2} s wall, {cpu:.2} s CPU, {:.0} games/s",
                games as f64 / wall
            );
        }
    }
    println!(
        "cheap match: 2 threads {:.2}x the games a second of 1 (best of two each)",
        best[0] / best[1]
    );
}

criterion_group!(benches, runner);

fn main() {
    benches();
    Criterion::default().configure_from_args().final_summary();
    cheap_match();
}
