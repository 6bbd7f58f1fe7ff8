//! The OpenSpiel bridge's cost per move (issue "Any game, any bot"): random games of
//! connect_four refereed through the bridge (every move one round trip: gamelab's random agent
//! picks, the bridge applies and answers with the next state), and the same games with
//! OpenSpiel's random bot choosing in the bridge (two round trips a move). Prints moves per
//! second once, for the note, and openspiel_mcts's simulations a second on OpenSpiel's Othello,
//! then Criterion's timings. Needs `make openspiel` (or
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
    // openspiel_mcts (OpenSpiel's C++ MCTSBot in the bridge) on OpenSpiel's Othello, against
    // OpenSpiel's random bot: the searcher's simulations a second, counted as max_simulations a
    // move of its seat over the whole games' time (round trips and the random bot's moves in it).
    // Without the solver: a solved root ends a search early, which would make that count too high.
    let othello = OpenSpielSpec {
        name: "othello".into(),
        params: Default::default(),
    };
    let othello = OpenSpielStage::load(&othello).expect("OpenSpiel's othello");
    let simulations = 1000u32;
    let mcts = AgentSpec::OpenspielMcts {
        uct_c: 2.0,
        max_simulations: simulations,
        rollouts: 1,
        solve: false,
    };
    let t0 = Instant::now();
    let (mut searched, games) = (0u64, 4u32);
    for g in 0..games {
        let start = othello.start(g as u64).expect("a start");
        let row = play_game(
            &start,
            ("mcts", &mcts),
            ("random", &bot),
            g as u64,
            g,
            &othello.id,
        )
        .expect("a game");
        searched += (row.plies as u64).div_ceil(2);
    }
    let s = t0.elapsed().as_secs_f64();
    println!(
        "othello, openspiel_mcts ({simulations} simulations) vs openspiel_random: {games} games, {searched} searched moves in {s:.2} s: {:.0} simulations/s",
        (searched * simulations as u64) as f64 / s
    );
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
