//! Life-and-death solver speed: nodes per second solving generated problems of levels 1-6 and
//! 7-14 with the reference weights (status sweep, no winning-move search), one core. Target
//! (issue 7): at least 1 M nodes per second per core on levels 1-6. The problems come from the
//! generator (seed 1, 4 per level), so the bench needs no files.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use gamelab::game::tsumego::generate::generate_level;
use gamelab::game::tsumego::{Limits, Problem, Solver, Weights};
use std::hint::black_box;

fn problems(levels: std::ops::RangeInclusive<u8>) -> Vec<Problem> {
    levels.flat_map(|l| generate_level(1, l, 4, 1, Limits::default(), &|| {}).problems).collect()
}

fn bench_solve(c: &mut Criterion) {
    let weights = Weights::reference();
    let mut g = c.benchmark_group("tsumego solve");
    g.sample_size(10);
    for (name, levels) in [("levels 1-6 (nodes)", 1..=6u8), ("levels 7-14 (nodes)", 7..=14u8)] {
        let set = problems(levels);
        let mut solver = Solver::new(20);
        let nodes: u64 = set.iter().map(|p| solver.solve(p, &weights, Limits::default(), false).counters.nodes).sum();
        g.throughput(Throughput::Elements(nodes));
        g.bench_function(name, |b| {
            b.iter(|| {
                for p in &set {
                    black_box(solver.solve(black_box(p), &weights, Limits::default(), false));
                }
            })
        });
    }
    g.finish();
}

criterion_group!(benches, bench_solve);
criterion_main!(benches);
