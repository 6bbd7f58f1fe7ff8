//! The OpenSpiel bridge's cost per move (issue "Any game, any bot"): random games of
//! connect_four refereed through the bridge (every move one round trip: gamelab's random agent
//! picks, the bridge applies and answers with the next state), and the same games with
//! OpenSpiel's random bot choosing in the bridge (two round trips a move). Prints moves per
//! second once, for the note, then Criterion's timings. Needs `make openspiel` (or
//! GAMELAB_PYTHON); without OpenSpiel it says SKIPPED.

use criterion::{Criterion, criterion_group, criterion_main};
use gamelab::agent::AgentSpec;
use gamelab::game::openspiel::{OpenSpielSpec, OpenSpielStage};
use gamelab::play::play_game;
use std::time::Instant;

fn bench(c: &mut Criterion) {
    let spec = OpenSpielSpec {
        name: "connect_four".into(),
        params: Default::default(),
    };
    let stage = match OpenSpielStage::load(&spec) {
        Ok(s) => s,
        Err(e) => {
            println!("SKIPPED: {e}");
            return;
        }
    };
    let random = AgentSpec::Random {};
    let bot = AgentSpec::OpenspielRandom {};
    for (label, first, second) in [
        (
            "gamelab random vs random (one round trip a move)",
            &random,
            &random,
        ),
        (
            "openspiel_random vs openspiel_random (two a move)",
            &bot,
            &bot,
        ),
    ] {
        let t0 = Instant::now();
        let (mut moves, games) = (0u64, 300u32);
        for g in 0..games {
            let start = stage.start(g as u64).expect("a start");
            let row = play_game(&start, ("a", first), ("b", second), g as u64, g, &stage.id)
                .expect("a game");
            moves += row.plies as u64;
        }
        let s = t0.elapsed().as_secs_f64();
        println!(
            "connect_four, {label}: {games} games, {moves} moves in {s:.2} s: {:.0} moves/s, {:.1} us a move",
            moves as f64 / s,
            1e6 * s / moves as f64
        );
    }
    let mut group = c.benchmark_group("openspiel");
    group.bench_function(
        "connect_four game, random vs random through the bridge",
        |b| {
            let mut g = 0u64;
            b.iter(|| {
                g += 1;
                let start = stage.start(g).expect("a start");
                play_game(&start, ("a", &random), ("b", &random), g, 0, &stage.id).expect("a game")
            })
        },
    );
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
