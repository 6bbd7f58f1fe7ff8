//! The report stage at scale: `REPORT_ROWS` game rows (default 1,000,000; issue 19's target
//! is 10,000,000 in under 10 s and 1 GB) of a four-job match, written as sealed parts without
//! playing (synthetic games: random winners, scores and lengths), then `gamelab report`'s
//! library call timed, with the peak resident memory of the report alone (the kernel's
//! high-water mark is reset before it starts).
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
repeats = 4
[match]
players = ["a", "b"]
games = 1000
[agents.a]
kind = "random"
[agents.b]
kind = "greedy"
"#;

fn synthetic(game: u32, rng: &mut impl rand::Rng) -> GameRow {
    let first = rng.random_range(0..37);
    let second = 36 - first;
    let (first_agent, second_agent) = if game % 2 == 0 { ("a", "b") } else { ("b", "a") };
    GameRow {
        game,
        pair: Some(game / 2),
        stage: "small6".into(),
        first_agent: first_agent.into(),
        second_agent: second_agent.into(),
        winner: if first > second { "first" } else if first < second { "second" } else { "draw" },
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
        transcript: "f5d6c3".into(),
        termination: "normal",
        ..GameRow::default()
    }
}

fn peak_rss_mb() -> f64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status.lines().find(|l| l.starts_with("VmHWM:")).and_then(|l| l.split_whitespace().nth(1)).and_then(|k| k.parse::<f64>().ok()).map_or(f64::NAN, |kb| kb / 1024.0)
}

fn main() {
    let rows: usize = std::env::var("REPORT_ROWS").ok().and_then(|v| v.parse().ok()).unwrap_or(1_000_000);
    let dir = tempfile::tempdir().expect("a temporary folder");
    let file = dir.path().join("scale.toml");
    std::fs::write(&file, EXPERIMENT).unwrap();
    let exp = Experiment::load(&file).unwrap();
    let jobs = expand(&exp).unwrap();
    let results = dir.path().join("results/scale");
    let t0 = Instant::now();
    let mut rng = gamelab::rng::rng_from_seed(7);
    for (k, job) in jobs.iter().enumerate() {
        let record = results.join("jobs").join(format!("{}.json", job.hash));
        std::fs::create_dir_all(record.parent().unwrap()).unwrap();
        std::fs::write(&record, format!("{{\"hash\": \"{}\"}}", job.hash)).unwrap();
        let n = rows / jobs.len() + usize::from(k < rows % jobs.len());
        let games: Vec<GameRow> = (0..n as u32).map(|g| synthetic(g, &mut rng)).collect();
        let id = JobColumns { experiment: &exp.name, job: &job.hash, repeat: job.config.repeat, swept: vec![] };
        let part = results.join("games").join(format!("part-{}.parquet", job.hash));
        write_part(&part, &record, games_frame(&id, &games).unwrap(), Format::Parquet, PartId { experiment: &exp.name, job: &job.hash }).unwrap();
    }
    println!("wrote {rows} synthetic game rows in {:.1} s", t0.elapsed().as_secs_f64());
    // The report's own peak: reset the high-water mark (Linux: clear_refs 5).
    std::fs::write("/proc/self/clear_refs", "5").ok();
    let t0 = Instant::now();
    let out = gamelab::report::report(&exp, &jobs, dir.path(), true).expect("the report");
    println!("report of {} rows: {:.2} s, peak RSS {:.0} MB (target for 10,000,000 rows: under 10 s and 1024 MB)", out.rows, t0.elapsed().as_secs_f64(), peak_rss_mb());
}
