//! Colosseum hot paths: playouts with the course's random agent and with uniform moves from the
//! course's random setups on 6x6 and 12x12, and UCT iterations (course-random rollouts).
//! Target (issue 5): at least 100 k course_random playouts per second per core on 6x6.
//! Closes with uniform playouts on 6x6, 9x9, 12x12 and 16x16 against the cell-by-cell reference
//! (`colosseum::reference::playout_reference`, the same games), timed in this run, with ratios.

use criterion::{Criterion, Throughput, criterion_group};
use gamelab::agent::rollout::{RolloutPolicy, Uniform, playout};
use gamelab::agent::uct::{Uct, UctConfig};
use gamelab::agent::{Agent, Budget};
use gamelab::game::Game;
use gamelab::game::colosseum::Colosseum;
use gamelab::game::colosseum::agents::CourseRandom;
use gamelab::game::colosseum::reference::playout_reference;
use gamelab::rng::rng_from_seed;
use std::hint::black_box;

mod summary;

/// 64 setups of a size, so a benchmark does not hang on one board.
fn setups(size: usize) -> Vec<Colosseum> {
    (0..64)
        .map(|s| Colosseum::random_setup(size, &mut rng_from_seed(s)).expect("size >= 3"))
        .collect()
}

fn bench_playouts<P: RolloutPolicy<Colosseum>>(c: &mut Criterion, name: &str, policy: P) {
    let mut g = c.benchmark_group("colosseum playouts");
    const GAMES: u64 = 1000;
    g.throughput(Throughput::Elements(GAMES));
    for size in [6, 12] {
        let starts = setups(size);
        g.bench_function(format!("{size}x{size} {name} (games)"), |b| {
            let mut rng = rng_from_seed(1);
            let mut buf = Vec::new();
            b.iter(|| {
                for i in 0..GAMES as usize {
                    let mut game = starts[i % starts.len()].clone();
                    black_box(playout(&mut game, &policy, &mut rng, &mut buf));
                }
            })
        });
    }
    g.finish();
}

fn playouts(c: &mut Criterion) {
    bench_playouts(c, "course_random", CourseRandom);
    bench_playouts(c, "uniform", Uniform);
}

fn uct(c: &mut Criterion) {
    let mut g = c.benchmark_group("colosseum uct");
    g.sample_size(10);
    const ITERATIONS: u64 = 2000;
    g.throughput(Throughput::Elements(ITERATIONS));
    for size in [6, 12] {
        let start = setups(size).swap_remove(0);
        g.bench_function(format!("{size}x{size} first move (iterations)"), |b| {
            let mut rng = rng_from_seed(2);
            b.iter(|| {
                let mut agent = Uct::new(UctConfig::plain(1.4), CourseRandom);
                black_box(agent.choose(&start, &mut rng, Budget::Iterations(ITERATIONS)))
            })
        });
    }
    g.finish();
}

criterion_group!(benches, playouts, uct);

fn main() {
    benches();
    Criterion::default().configure_from_args().final_summary();
    println!("\nColosseum, one thread, best of 3, engine against the cell-by-cell reference:");
    for size in [6, 9, 12, 16] {
        let end = |g: &Colosseum| g.scores().map(|n| n as usize);
        summary::uniform_playouts(
            &format!("uniform playouts {size}x{size}"),
            &setups(size),
            60_000 / size as u64,
            end,
            playout_reference,
        );
    }
}
