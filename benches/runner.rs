//! The runner's games per second on 1 and 2 threads, for one job of many games (parallel inside
//! the job). Target (issue 2): speed-up on 2 threads >= 1.85x.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
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

criterion_group!(benches, runner);
criterion_main!(benches);
