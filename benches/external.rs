//! The cost of the external-agent protocol: games of Othello 6x6 between the sample Python
//! random agent (examples/agents/random_agent.py, a process kept across games) and the
//! built-in random agent, against the same games between two built-in random agents. The
//! difference per move is the protocol's overhead (pipes, text, Python's line handling).

use criterion::{Criterion, criterion_group, criterion_main};
use gamelab::agent::AgentSpec;
use gamelab::agent::external::ExternalSpec;
use gamelab::game::othello::Othello;
use gamelab::play::play_game;
use std::time::Instant;

fn external() -> AgentSpec {
    AgentSpec::External(ExternalSpec {
        command: vec![
            "python3".into(),
            "examples/agents/random_agent.py".into(),
            "1".into(),
        ],
        cwd: Some(env!("CARGO_MANIFEST_DIR").into()),
        env: Default::default(),
        init_timeout_ms: None,
        time_ms: None,
        first_move_ms: None,
        game_time_s: None,
        grace_ms: None,
        memory_mb: None,
        memory_measure: None,
        clock: None,
        faults: None,
        fingerprint: String::new(),
        log: None,
    })
}

fn bench(c: &mut Criterion) {
    let start = Othello::from_stage_id("small6");
    let random = AgentSpec::Random {};
    let ext = external();
    // Moves per second through the protocol, measured once so the note can quote it.
    let t0 = Instant::now();
    let (mut moves, games) = (0u64, 200u32);
    for g in 0..games {
        let row = play_game(
            &start,
            ("ext", &ext),
            ("random", &random),
            g as u64,
            g,
            "small6",
        )
        .expect("a game");
        moves += row.first_moves as u64;
    }
    let s = t0.elapsed().as_secs_f64();
    println!(
        "external python agent: {games} games, {moves} moves in {s:.2} s: {:.0} moves/s, {:.2} ms per game",
        moves as f64 / s,
        1e3 * s / games as f64
    );
    let mut group = c.benchmark_group("external");
    group.bench_function("othello6 game, python random vs random", |b| {
        let mut g = 0u64;
        b.iter(|| {
            g += 1;
            play_game(&start, ("ext", &ext), ("random", &random), g, 0, "small6").expect("a game")
        })
    });
    group.bench_function("othello6 game, random vs random (no protocol)", |b| {
        let mut g = 0u64;
        b.iter(|| {
            g += 1;
            play_game(&start, ("a", &random), ("b", &random), g, 0, "small6").expect("a game")
        })
    });
    group.finish();
    gamelab::agent::external::shutdown();
}

criterion_group!(benches, bench);
criterion_main!(benches);
