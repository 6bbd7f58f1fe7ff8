//! Freckers hot paths: perft from the start, random playouts (exactly uniform over the legal
//! actions, and by the report's lazy generator, to the 150-action limit or six frogs home), and
//! the report's MCTS and alpha-beta from the start position, with and without the move cache.
//! Target (issue 6): at least 200 k random playouts per second per core.
//! Closes with uniform playouts, lenient and strict, against the cell-by-cell reference
//! (`freckers::playout_reference`, the same games), timed in this run, with ratios.

use criterion::{Criterion, Throughput, criterion_group};
use gamelab::agent::rollout::{Uniform, playout};
use gamelab::agent::{AgentSpec, Arena, Budget};
use gamelab::game::freckers::agents::LazyRandom;
use gamelab::game::freckers::{Freckers, perft, playout_reference};
use gamelab::rng::rng_from_seed;
use std::hint::black_box;

mod summary;

fn bench_perft(c: &mut Criterion) {
    let start = Freckers::new(false);
    let mut g = c.benchmark_group("freckers perft");
    g.sample_size(10);
    let depth = 4;
    g.throughput(Throughput::Elements(perft(&start, depth)));
    g.bench_function("start depth 4 (leaves)", |b| {
        b.iter(|| perft(black_box(&start), depth))
    });
    g.finish();
}

fn bench_playouts(c: &mut Criterion) {
    let start = Freckers::new(false);
    let mut g = c.benchmark_group("freckers playouts");
    const GAMES: u64 = 200;
    g.throughput(Throughput::Elements(GAMES));
    g.bench_function("start uniform (games)", |b| {
        let mut rng = rng_from_seed(1);
        let mut buf = Vec::new();
        b.iter(|| {
            for _ in 0..GAMES {
                let mut game = start;
                black_box(playout(&mut game, &Uniform, &mut rng, &mut buf));
            }
        })
    });
    g.bench_function("start lazy (games)", |b| {
        let mut rng = rng_from_seed(1);
        let mut buf = Vec::new();
        b.iter(|| {
            for _ in 0..GAMES {
                let mut game = start;
                black_box(playout(&mut game, &LazyRandom, &mut rng, &mut buf));
            }
        })
    });
    g.finish();
}

/// A search agent's whole move from the start, built fresh per iteration (so a cache starts cold
/// and fills within the move, as in a game's first move).
fn bench_agent(
    g: &mut criterion::BenchmarkGroup<criterion::measurement::WallTime>,
    name: &str,
    spec: &str,
    budget: Budget,
) {
    let start = Freckers::new(false);
    let spec: AgentSpec = toml::from_str(spec).expect("valid spec");
    g.bench_function(name, |b| {
        let mut rng = rng_from_seed(2);
        b.iter(|| {
            let mut agent = Freckers::build_agent(&spec, &start).expect("builds");
            black_box(agent.choose(&start, &mut rng, budget))
        })
    });
}

fn bench_mcts(c: &mut Criterion) {
    let mut g = c.benchmark_group("freckers mcts");
    g.sample_size(10);
    g.throughput(Throughput::Elements(500));
    bench_agent(
        &mut g,
        "start, 500 iterations (simulations)",
        "kind = \"freckers_mcts\"\niterations = 500",
        Budget::Iterations(500),
    );
    bench_agent(
        &mut g,
        "start, 500 iterations, lazy rollouts (simulations)",
        "kind = \"freckers_mcts\"\niterations = 500\ngenerator = \"lazy\"",
        Budget::Iterations(500),
    );
    bench_agent(
        &mut g,
        "start, 500 iterations, move cache (simulations)",
        "kind = \"freckers_mcts\"\niterations = 500\nmove_cache = 100000",
        Budget::Iterations(500),
    );
    g.finish();
}

fn bench_alphabeta(c: &mut Criterion) {
    let mut g = c.benchmark_group("freckers alphabeta");
    g.sample_size(10);
    g.throughput(Throughput::Elements(100_000));
    bench_agent(
        &mut g,
        "start, 100k nodes (nodes)",
        "kind = \"alphabeta\"\ndepth = 12",
        Budget::Iterations(100_000),
    );
    bench_agent(
        &mut g,
        "start, 100k nodes, move cache (nodes)",
        "kind = \"alphabeta\"\ndepth = 12\nmove_cache = 100000",
        Budget::Iterations(100_000),
    );
    g.finish();
}

criterion_group!(
    benches,
    bench_perft,
    bench_playouts,
    bench_mcts,
    bench_alphabeta
);

fn main() {
    benches();
    Criterion::default().configure_from_args().final_summary();
    println!("\nFreckers, one thread, best of 3, engine against the cell-by-cell reference:");
    for strict in [false, true] {
        let what = format!(
            "uniform playouts, {} rules",
            if strict { "strict" } else { "lenient" }
        );
        summary::uniform_playouts(
            &what,
            &[Freckers::new(strict)],
            5_000,
            |g: &Freckers| *g,
            playout_reference,
        );
    }
}
