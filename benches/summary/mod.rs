//! The closing table of an engine bench: each engine figure timed in this run beside a plain
//! reference implementation of the same thing (same games, same draws), and their ratio.

use std::time::Instant;

/// Seconds of the fastest of three runs of `run`.
pub fn best_of_three(mut run: impl FnMut()) -> f64 {
    (0..3)
        .map(|_| {
            let t = Instant::now();
            run();
            t.elapsed().as_secs_f64()
        })
        .fold(f64::INFINITY, f64::min)
}

/// One line of the table: `what`, `count` units done by the engine in `fast` seconds and by the
/// reference in `plain` seconds.
pub fn line(what: &str, count: u64, unit: &str, fast: f64, plain: f64) {
    let rate = |s: f64| {
        let r = count as f64 / s;
        if r >= 1e6 {
            format!("{:8.2} M {unit}/s", r / 1e6)
        } else {
            format!("{:8.1} k {unit}/s", r / 1e3)
        }
    };
    println!(
        "  {what:<34} engine {}   reference {}   ratio {:5.2}x",
        rate(fast),
        rate(plain),
        plain / fast
    );
}

/// Times `games` uniform playouts by the engine (`playout`) and by `reference` from the same
/// seed, the i-th game from `starts[i % starts.len()]`, checks that both ended every game alike
/// (`end` reads the engine's end, `reference` returns its own), and prints the line.
pub fn uniform_playouts<G: gamelab::game::Game + Clone, E: PartialEq + std::fmt::Debug>(
    what: &str,
    starts: &[G],
    games: u64,
    end: impl Fn(&G) -> E,
    reference: impl Fn(&G, &mut gamelab::rng::GameRng) -> E,
) {
    use gamelab::agent::rollout::{Uniform, playout};
    use gamelab::rng::rng_from_seed;
    let mut ends = [Vec::new(), Vec::new()];
    let fast = best_of_three(|| {
        let (mut rng, mut buf) = (rng_from_seed(5), Vec::new());
        ends[0] = (0..games as usize)
            .map(|i| {
                let mut game = starts[i % starts.len()].clone();
                playout(&mut game, &Uniform, &mut rng, &mut buf);
                end(&game)
            })
            .collect();
    });
    let plain = best_of_three(|| {
        let mut rng = rng_from_seed(5);
        ends[1] = (0..games as usize)
            .map(|i| reference(&starts[i % starts.len()], &mut rng))
            .collect();
    });
    assert_eq!(
        ends[0], ends[1],
        "{what}: the engine and the reference play the same games"
    );
    line(what, games, "games", fast, plain);
}
