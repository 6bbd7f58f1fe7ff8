//! Engine hot paths: Othello perft (bulk-counted last ply) and random playouts, then a summary
//! timed in this run: perft 1-11 on standard8 against the plain reference generator
//! (`perft_reference`), and uniform playouts against the plain reference playout
//! (`playout_reference`, the same games), each with its ratio.
//! Targets (issue 2): perft >= 150 M leaves/s on one core; uniform playouts >= 150 k games/s and
//! weighted-random >= 100 k games/s per core, on standard8.

use criterion::{Criterion, Throughput, criterion_group};
use gamelab::agent::TableRef;
use gamelab::agent::rollout::{RolloutPolicy, Uniform, Weighted, playout};
use gamelab::game::Player;
use gamelab::game::othello::{Othello, perft, perft_reference, playout_reference};
use gamelab::rng::rng_from_seed;
use std::hint::black_box;

mod summary;

fn bench_perft(c: &mut Criterion) {
    let start = Othello::from_stage_id("standard8");
    let mut g = c.benchmark_group("perft");
    g.sample_size(10);
    let depth = 9;
    g.throughput(Throughput::Elements(perft(&start, depth, true)));
    g.bench_function("standard8 depth 9 (leaves)", |b| {
        b.iter(|| perft(black_box(&start), depth, true))
    });
    g.finish();
}

fn bench_playouts<P: RolloutPolicy<Othello>>(
    c: &mut Criterion,
    stage: &str,
    name: &str,
    policy: P,
) {
    let start = Othello::from_stage_id(stage);
    let mut g = c.benchmark_group("playouts");
    const GAMES: u64 = 1000;
    g.throughput(Throughput::Elements(GAMES));
    g.bench_function(format!("{stage} {name} (games)"), |b| {
        let mut rng = rng_from_seed(1);
        let mut buf = Vec::new();
        b.iter(|| {
            for _ in 0..GAMES {
                let mut game = start;
                black_box(playout(&mut game, &policy, &mut rng, &mut buf));
            }
        })
    });
    g.finish();
}

fn playouts(c: &mut Criterion) {
    for (stage, size) in [("standard8", 8), ("small6", 6)] {
        bench_playouts(c, stage, "uniform", Uniform);
        // The handcrafted table on 8x8; on 6x6 corners 100, edges 10, the rest 1.
        let table = match size {
            8 => TableRef::Name("handcrafted".into()),
            n => TableRef::Rows(
                (0..n)
                    .map(|r| {
                        (0..n)
                            .map(|c| [r, c].iter().filter(|&&x| x == 0 || x == n - 1).count())
                            .map(|edges| [1.0, 10.0, 100.0][edges])
                            .collect()
                    })
                    .collect(),
            ),
        };
        let table = table.table_for(size).expect("a table of the board's size");
        bench_playouts(
            c,
            stage,
            "weighted-random",
            Weighted::new(table).expect("non-negative table"),
        );
    }
}

criterion_group!(benches, bench_perft, playouts);

fn main() {
    benches();
    Criterion::default().configure_from_args().final_summary();
    println!("\nOthello, one thread, best of 3, engine against the plain reference:");
    let start = Othello::from_stage_id("standard8");
    let mut leaves = [0, 0];
    let fast = summary::best_of_three(|| {
        leaves[0] = (1..=11).map(|d| perft(black_box(&start), d, true)).sum()
    });
    let plain = summary::best_of_three(|| {
        leaves[1] = (1..=11)
            .map(|d| perft_reference(black_box(&start), d, true))
            .sum()
    });
    assert_eq!(
        leaves[0], leaves[1],
        "the two generators count the same leaves"
    );
    summary::line(
        &format!("perft 1-11 standard8 ({:.3} s)", fast),
        leaves[0],
        "leaves",
        fast,
        plain,
    );
    for stage in ["standard8", "small6"] {
        let end = |g: &Othello| [g.discs(Player::First), g.discs(Player::Second)];
        summary::uniform_playouts(
            &format!("uniform playouts {stage}"),
            &[Othello::from_stage_id(stage)],
            20_000,
            end,
            playout_reference,
        );
    }
}
