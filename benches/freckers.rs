//! Freckers hot paths: perft from the start, random playouts (uniform over legal actions, to the
//! 150-action limit or six frogs home), and the report's MCTS from the start position.
//! Target (issue 6): at least 200 k random playouts per second per core.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use gamelab::agent::rollout::{Uniform, playout};
use gamelab::agent::{Agent, AgentSpec, Arena, Budget};
use gamelab::game::freckers::{Freckers, perft};
use gamelab::rng::rng_from_seed;
use std::hint::black_box;

fn bench_perft(c: &mut Criterion) {
    let start = Freckers::new(false);
    let mut g = c.benchmark_group("freckers perft");
    g.sample_size(10);
    let depth = 4;
    g.throughput(Throughput::Elements(perft(&start, depth)));
    g.bench_function("start depth 4 (leaves)", |b| b.iter(|| perft(black_box(&start), depth)));
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
    g.finish();
}

fn bench_mcts(c: &mut Criterion) {
    let start = Freckers::new(false);
    let spec: AgentSpec = toml::from_str("kind = \"freckers_mcts\"\niterations = 500").expect("valid spec");
    let mut g = c.benchmark_group("freckers mcts");
    g.sample_size(10);
    g.throughput(Throughput::Elements(500));
    g.bench_function("start, 500 iterations (simulations)", |b| {
        let mut rng = rng_from_seed(2);
        b.iter(|| {
            let mut agent = Freckers::build_agent(&spec, &start).expect("builds");
            black_box(agent.choose(&start, &mut rng, Budget::Iterations(500)))
        })
    });
    g.finish();
}

criterion_group!(benches, bench_perft, bench_playouts, bench_mcts);
criterion_main!(benches);
