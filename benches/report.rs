//! The report stage at scale: `REPORT_ROWS` game rows (default 1,000,000; issue 19's target
//! is 10,000,000 in under 10 s and 1 GB) of a ten-job match (a job has at most 1,000,000 games),
//! whose report has a score table with Elo from colour-swapped pairs, a mean table and their
//! figures, written as sealed parts without
//! playing (synthetic games: random winners, scores, lengths and 30-move transcripts) by a
//! child process, then `gamelab report`'s library call timed in this one, with its peak
//! resident memory (this process did nothing else).
//!
//!     REPORT_ROWS=10000000 cargo bench --bench report

use gamelab::experiment::record::{Format, JobColumns, games_frame};
use gamelab::experiment::stream::{PartId, write_part};
use gamelab::experiment::{Experiment, expand};
use gamelab::play::GameRow;
use rand::RngExt;
use std::time::Instant;

const EXPERIMENT: &str = r#"
name = "scale"
kind = "match"
game = "othello"
stage = "small6"
seed = 1
repeats = 10
[match]
players = ["a", "b"]
games = 1000
[agents.a]
kind = "random"
[agents.b]
kind = "greedy"
[[report.tables]]
name = "scores"
group_by = ["agent"]
elo = true
[[report.tables]]
name = "plies"
statistic = "mean"
metric = "plies"
group_by = ["agent"]
"#;

fn synthetic(game: u32, rng: &mut impl rand::Rng) -> GameRow {
    let first = rng.random_range(0..37);
    let second = 36 - first;
    let (first_agent, second_agent) = if game.is_multiple_of(2) {
        ("a", "b")
    } else {
        ("b", "a")
    };
    GameRow {
        game,
        pair: Some(game / 2),
        stage: "small6".into(),
        first_agent: first_agent.into(),
        second_agent: second_agent.into(),
        winner: if first > second {
            "first"
        } else if first < second {
            "second"
        } else {
            "draw"
        },
        first_score: first,
        second_score: second,
        plies: rng.random_range(28..33),
        wall_ms: rng.random_range(0.1..0.5),
        first_max_move_ms: 0.01,
        second_max_move_ms: 0.01,
        first_moves: 16,
        second_moves: 16,
        first_budget: "-".into(),
        second_budget: "-".into(),
        // A game of its own: 30 random moves (distinct games are the costly case for the
        // repeated-games count).
        transcript: (0..30)
            .map(|_| {
                format!(
                    "{}{}",
                    (b'a' + rng.random_range(0..6u8)) as char,
                    rng.random_range(1..7)
                )
            })
            .collect(),
        termination: "normal",
        ..GameRow::default()
    }
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

/// Writes `rows` synthetic game rows of the experiment as sealed parts under `dir`.
fn write_rows(dir: &std::path::Path, rows: usize) {
    let exp = Experiment::load(&dir.join("scale.toml")).unwrap();
    let jobs = expand(&exp).unwrap();
    let results = dir.join("results/scale");
    let mut rng = gamelab::rng::rng_from_seed(7);
    for (k, job) in jobs.iter().enumerate() {
        let record = results.join("jobs").join(format!("{}.json", job.hash));
        std::fs::create_dir_all(record.parent().unwrap()).unwrap();
        std::fs::write(&record, format!("{{\"hash\": \"{}\"}}", job.hash)).unwrap();
        let n = rows / jobs.len() + usize::from(k < rows % jobs.len());
        let id = JobColumns {
            experiment: &exp.name,
            job: &job.hash,
            repeat: job.config.repeat,
            swept: vec![],
        };
        let part = results
            .join("games")
            .join(format!("part-{}.parquet", job.hash));
        let games: Vec<GameRow> = (0..n as u32).map(|g| synthetic(g, &mut rng)).collect();
        write_part(
            &part,
            &record,
            games_frame(&id, &games).unwrap(),
            Format::Parquet,
            PartId {
                experiment: &exp.name,
                job: &job.hash,
            },
        )
        .unwrap();
    }
}

fn main() {
    let rows: usize = std::env::var("REPORT_ROWS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1_000_000);
    // The rows are written by a child process, so this process's peak memory is the report's.
    if let Ok(dir) = std::env::var("REPORT_BENCH_WRITE") {
        write_rows(std::path::Path::new(&dir), rows);
        return;
    }
    // REPORT_BENCH_DIR keeps the rows in a folder of one's choice, and reuses them when they are
    // there (writing 10,000,000 rows takes a minute).
    let temporary = tempfile::tempdir().expect("a temporary folder");
    let dir = std::env::var("REPORT_BENCH_DIR")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|_| temporary.path().to_path_buf());
    let file = dir.join("scale.toml");
    let written = dir.join(format!(
        "rows-{rows}-{:016x}",
        xxhash_rust::xxh3::xxh3_64(EXPERIMENT.as_bytes())
    ));
    if !written.exists() {
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::remove_dir_all(dir.join("results")).ok();
        for old in std::fs::read_dir(&dir)
            .unwrap()
            .flatten()
            .filter(|e| e.file_name().to_string_lossy().starts_with("rows-"))
        {
            std::fs::remove_file(old.path()).unwrap();
        }
        std::fs::write(&file, EXPERIMENT).unwrap();
        let t0 = Instant::now();
        let status = std::process::Command::new(std::env::current_exe().unwrap())
            .env("REPORT_BENCH_WRITE", &dir)
            .status()
            .unwrap();
        assert!(status.success(), "writing the rows failed");
        std::fs::write(&written, "").unwrap();
        println!(
            "wrote {rows} synthetic game rows in {:.1} s (a child process)",
            t0.elapsed().as_secs_f64()
        );
    }
    let exp = Experiment::load(&file).unwrap();
    let jobs = expand(&exp).unwrap();
    println!("resident before the report: {:.0} MB", rss_mb("VmRSS:"));
    let t0 = Instant::now();
    let out = gamelab::report::report(&exp, &jobs, &dir, true).expect("the report");
    println!(
        "report of {} rows: {:.2} s, peak RSS {:.0} MB (target for 10,000,000 rows: under 10 s and 1024 MB)",
        out.rows,
        t0.elapsed().as_secs_f64(),
        peak_rss_mb()
    );
}
