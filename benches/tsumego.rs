//! Life-and-death solver speed: nodes per second solving generated problems of levels 1-6 and
//! 7-14 with the reference weights (status sweep, no winning-move search), one core; it also
//! prints the search's size on each set (problems, unknown, nodes, leaves), deterministic. Target
//! (issue 7): at least 1 M nodes per second per core on levels 1-6. The problems come from the
//! generator (seed 1, 4 per level), so the bench needs no files.
//!
//! GoTools' own problems, one core: nodes per second solving a seeded sample of GoTools'
//! questions (3 a level, levels 1-14, node budget 300,000 each, status and winning moves, as
//! `gamelab check-gotools` solves them) from the folder `GOTOOLS_PROBLEMS` names; the files are
//! not part of gamelab, so without it this part says SKIPPED.
//!
//! GA generations, one core: breeding and evaluating the children of one generation of the
//! GoTools report's GA with the static fitness (population 100, 80 children, 16 training problems
//! of levels 3-6) and with the dynamic fitness on dynamic weights (22 children solving 8 problems
//! of levels 3-4, node budget 500,000; a smaller training set than the report's so that the bench
//! takes minutes; a generation scales with children x problems).

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use gamelab::game::tsumego::fitness::{REPORT_BONUS, solve_all, static_fitness};
use gamelab::game::tsumego::generate::generate_level;
use gamelab::game::tsumego::{Limits, Problem, Solver, WeightSet, Weights};
use gamelab::rng::rng_from_seed;
use gamelab::tune::ga::{PlusConfig, breed};
use std::hint::black_box;

fn problems(levels: std::ops::RangeInclusive<u8>) -> Vec<Problem> {
    levels
        .flat_map(|l| generate_level(1, l, 4, 1, Limits::default(), &|| {}).problems)
        .collect()
}

fn bench_solve(c: &mut Criterion) {
    let weights = Weights::reference();
    let mut g = c.benchmark_group("tsumego solve");
    g.sample_size(10);
    for (name, levels) in [
        ("levels 1-6 (nodes)", 1..=6u8),
        ("levels 7-14 (nodes)", 7..=14u8),
    ] {
        let set = problems(levels);
        let mut solver = Solver::new(20);
        let solved: Vec<_> = set
            .iter()
            .map(|p| solver.solve(p, &weights, Limits::default(), false))
            .collect();
        let nodes: u64 = solved.iter().map(|s| s.counters.nodes).sum();
        let leaves: u64 = solved.iter().map(|s| s.counters.leaves).sum();
        let unknown = solved
            .iter()
            .filter(|s| s.status == gamelab::game::tsumego::Status::Unknown)
            .count();
        // The search's size, beside its speed: what the GoTools-class search issue measures.
        eprintln!(
            "tsumego solve {name}: {} problems, {unknown} unknown, {nodes} nodes, {leaves} leaves",
            set.len()
        );
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

fn bench_ga_generation(c: &mut Criterion) {
    let mut g = c.benchmark_group("tsumego GA generation");
    g.sample_size(10);
    let train = problems(3..=6);
    let statics = PlusConfig {
        population: 100,
        children: 80,
        crossover: 0.065,
        mutation: 0.5,
        bounds: WeightSet::Static.bounds(),
        integer: true,
    };
    let mut rng = rng_from_seed(7);
    let population = statics.random_population(WeightSet::Static.names().len(), &mut rng);
    let fitness: Vec<f64> = (0..population.len()).map(|i| i as f64).collect();
    let mut solver = Solver::new(20);
    let zero = Weights::zero();
    g.bench_function("static fitness: 80 children x 16 problems", |b| {
        b.iter(|| {
            let children = breed(&population, &fitness, &statics, &mut rng);
            let f: Vec<f64> = children
                .iter()
                .map(|c| {
                    static_fitness(
                        &mut solver,
                        &train,
                        &zero.with_part(WeightSet::Static, c),
                        &REPORT_BONUS,
                    )
                })
                .collect();
            black_box(f)
        })
    });
    let small: Vec<Problem> = train
        .iter()
        .filter(|p| p.level.is_some_and(|l| l <= 4))
        .cloned()
        .collect();
    let dynamics = PlusConfig {
        population: 22,
        children: 22,
        bounds: WeightSet::Dynamic.bounds(),
        ..statics
    };
    let population = dynamics.random_population(WeightSet::Dynamic.names().len(), &mut rng);
    let fitness: Vec<f64> = (0..population.len()).map(|i| i as f64).collect();
    let reference = Weights::reference();
    let limits = Limits::with_budget(500_000);
    g.bench_function("dynamic fitness: 22 children x 8 problems", |b| {
        b.iter(|| {
            let children = breed(&population, &fitness, &dynamics, &mut rng);
            let leaves: u64 = children
                .iter()
                .map(|c| {
                    solve_all(
                        &mut solver,
                        &small,
                        &reference.with_part(WeightSet::Dynamic, c),
                        limits,
                    )
                    .iter()
                    .map(|s| s.counters.leaves)
                    .sum::<u64>()
                })
                .sum();
            black_box(leaves)
        })
    });
    g.finish();
}

fn bench_gotools(c: &mut Criterion) {
    let Some(dir) = std::env::var_os("GOTOOLS_PROBLEMS").filter(|d| !d.is_empty()) else {
        eprintln!(
            "tsumego GoTools problems SKIPPED: set GOTOOLS_PROBLEMS=DIR (GoTools' lvA.B files; see `gamelab check-gotools --help`)"
        );
        return;
    };
    let all = gamelab::workflow::read_gotools(std::path::Path::new(&dir))
        .expect("GOTOOLS_PROBLEMS holds GoTools' files");
    let sample = gamelab::workflow::sample_per_level(all, 3, 1);
    let weights = Weights::reference();
    let limits = Limits::with_budget(300_000);
    let mut solver = Solver::new(20);
    let nodes: u64 = sample
        .iter()
        .map(|q| {
            solver
                .solve(&q.question.problem, &weights, limits, true)
                .counters
                .nodes
        })
        .sum();
    let mut g = c.benchmark_group("tsumego GoTools problems");
    g.sample_size(10);
    g.throughput(Throughput::Elements(nodes));
    g.bench_function(
        format!("{} questions, levels 1-14 (nodes)", sample.len()),
        |b| {
            b.iter(|| {
                for q in &sample {
                    black_box(solver.solve(black_box(&q.question.problem), &weights, limits, true));
                }
            })
        },
    );
    g.finish();
}

criterion_group!(benches, bench_solve, bench_gotools, bench_ga_generation);
criterion_main!(benches);
