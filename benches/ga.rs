//! GA evaluation games per second on standard8 for the Det and Rnd strategies, one thread
//! (issue 4 asks for these numbers per core).

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use gamelab::game::othello::Othello;
use gamelab::rng::rng_from_seed;
use gamelab::tune::fitness::{
    DrawRule, Evaluation, FitnessMeasure, FullTag, Strategy, Subset, evaluate,
};
use gamelab::tune::ga::random_population;
use gamelab::tune::symmetry::{Symmetry, TableLayout};

fn ga_games(c: &mut Criterion) {
    let start = Othello::from_stage_id("standard8");
    let layout = TableLayout::new(8, Symmetry::Rotation);
    let population = random_population(10, layout.params, (5.0, 100.0), &mut rng_from_seed(1));
    let tables: Vec<Vec<Vec<f64>>> = population.iter().map(|p| layout.rows(p)).collect();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .expect("pool");
    let mut g = c.benchmark_group("ga evaluation");
    g.sample_size(10);
    // A round robin of 10: 45 meetings, 90 games.
    g.throughput(Throughput::Elements(90));
    for (name, strategy) in [("det", Strategy::Det), ("rnd", Strategy::Rnd)] {
        let eval = Evaluation {
            strategy,
            subset: Subset::Full(FullTag::Full),
            draw: DrawRule::Half,
            measure: FitnessMeasure::Rate,
        };
        g.bench_function(format!("standard8 {name}, 1 thread (games)"), |b| {
            b.iter(|| pool.install(|| evaluate(&start, &tables, &eval, 7).expect("plays")))
        });
    }
    g.finish();
}

criterion_group!(benches, ga_games);
criterion_main!(benches);
