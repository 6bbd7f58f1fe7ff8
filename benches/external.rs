//! The cost of external agents: games of Othello 6x6 between the sample Python random agent
//! (examples/agents/random_agent.py; each game its own process, in its own sandbox) and the
//! built-in random agent, with the sandbox and without it (`sandbox = "none"`), against the same
//! games between two built-in random agents; and the sandbox's own cost at a game's start, a
//! program that does nothing (`true`) started in it and started bare.
//!
//! Measured on the project's 2-core machine (2026-12-02, idle but for this bench), printed by
//! the bench's first lines: see the numbers in issue #82's note.

use criterion::{Criterion, criterion_group, criterion_main};
use gamelab::agent::AgentSpec;
use gamelab::agent::external::{ExternalSpec, sandbox};
use gamelab::game::othello::Othello;
use gamelab::play::play_game;
use std::time::Instant;

fn external(sandboxed: bool) -> AgentSpec {
    let mut spec = serde_json::json!({
        "command": ["python3", "examples/agents/random_agent.py", "1"],
        "cwd": env!("CARGO_MANIFEST_DIR"),
    });
    if !sandboxed {
        spec["sandbox"] = "none".into();
    }
    AgentSpec::External(serde_json::from_value::<ExternalSpec>(spec).expect("a spec"))
}

/// Games and moves per second of `games` games of `ext` against random, printed once.
fn games_per_second(label: &str, ext: &AgentSpec, games: u32) {
    let start = Othello::from_stage_id("small6");
    let random = AgentSpec::Random {};
    let t0 = Instant::now();
    let mut moves = 0u64;
    for g in 0..games {
        let row = play_game(
            &start,
            ("ext", ext),
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
        "{label}: {games} games, {moves} moves in {s:.2} s: {:.2} ms per game, {:.0} moves/s",
        1e3 * s / games as f64,
        moves as f64 / s
    );
}

/// The mean wall time of starting `true` and waiting for it, `n` times, in a sandbox or bare.
fn start_ms(in_sandbox: bool, n: u32) -> f64 {
    let t0 = Instant::now();
    for _ in 0..n {
        let mut cmd = if in_sandbox {
            sandbox::command(
                &sandbox::SandboxSpec::default(),
                &["/usr/bin/true".into()],
                Some(std::path::Path::new(env!("CARGO_MANIFEST_DIR"))),
            )
            .expect("a sandbox")
            .0
        } else {
            // The same keeper (`contain`) as the sandboxed one: the difference is the sandbox's.
            let mut cmd = std::process::Command::new("/usr/bin/true");
            gamelab::agent::external::contain(&mut cmd);
            cmd
        };
        let status = cmd.status().expect("started");
        assert!(status.success());
    }
    1e3 * t0.elapsed().as_secs_f64() / n as f64
}

fn bench(c: &mut Criterion) {
    let sandboxed = sandbox::available().is_ok();
    if sandboxed {
        let (bare, boxed) = (start_ms(false, 200), start_ms(true, 200));
        println!(
            "a game's start: `true` bare {bare:.2} ms, in the sandbox {boxed:.2} ms: the sandbox adds {:.2} ms",
            boxed - bare
        );
        games_per_second("python random, in the sandbox", &external(true), 200);
    } else {
        println!("no sandbox can be made here: the sandboxed numbers are left out");
    }
    games_per_second("python random, no sandbox", &external(false), 200);
    let start = Othello::from_stage_id("small6");
    let random = AgentSpec::Random {};
    let mut group = c.benchmark_group("external");
    group.sample_size(20);
    for (name, spec) in [
        (
            "othello6 game, python random vs random, sandboxed",
            external(true),
        ),
        (
            "othello6 game, python random vs random, no sandbox",
            external(false),
        ),
    ] {
        if name.ends_with("sandboxed") && !sandboxed {
            continue;
        }
        group.bench_function(name, |b| {
            let mut g = 0u64;
            b.iter(|| {
                g += 1;
                play_game(&start, ("ext", &spec), ("random", &random), g, 0, "small6")
                    .expect("a game")
            })
        });
    }
    group.bench_function("othello6 game, random vs random (no protocol)", |b| {
        let mut g = 0u64;
        b.iter(|| {
            g += 1;
            play_game(&start, ("a", &random), ("b", &random), g, 0, "small6").expect("a game")
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
