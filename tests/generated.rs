//! Generated experiment files: every job kind (the life-and-death ones with their sections,
//! without agents) x every agent kind in every place an agent can
//! stand (a player, a hybrid's early or late agent, an arena baseline, a tuner's agent or
//! opponent) x optional sections present or absent, with valid values and, now and then, an
//! invalid one. Each file goes through `gamelab run --dry-run` and, when that accepts it, a
//! short run: the exit code must be 0 or 2 (a refusal at load), never 101 (a panic) or
//! anything else. `GENERATED_CASES` sets the number of files (default 200; `make
//! fuzz-experiments` runs many thousands).

use crate::common::*;
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};

/// Agent kinds with small budgets (or an invalid value when `bad`), for `game`.
fn agent(kind: &str, bad: bool, nested: Option<(String, String)>) -> String {
    let body = match kind {
        "external" => {
            "command = [\"python3\", \"examples/agents/random_agent.py\", \"3\"]\ntime_ms = 300"
                .to_string()
        }
        "freckers_mcts" => "iterations = 15".into(),
        "weighted_random" | "table_player" => "table = \"classic\"".into(),
        "simple_mcts" => "rollouts = 6".into(),
        "uct" => "iterations = 15".into(),
        "annealed_uct" => "simulations = 8".into(),
        "alphabeta" => "nodes = 40".into(),
        "popcoin" => "iterations = 15".into(),
        "hybrid" => {
            let (early, late) = nested.unwrap_or(("random".into(), "random".into()));
            format!(
                "switch_ply = 4\nearly = {{ {} }}\nlate = {{ {} }}",
                inline(&early),
                inline(&late)
            )
        }
        _ => String::new(),
    };
    let body = if bad {
        format!(
            "{body}\n{}",
            [
                "iterations = -3",
                "bogus = 1",
                "rollouts = \"many\"",
                "time_ms = 0",
                "table = \"no-such-table\""
            ][kind.len() % 5]
        )
    } else {
        body
    };
    format!("kind = \"{kind}\"\n{body}\n")
}

/// An agent as an inline table (a hybrid's early and late agents).
fn inline(kind: &str) -> String {
    agent(kind, false, None)
        .lines()
        .filter(|l| !l.trim().is_empty())
        .collect::<Vec<_>>()
        .join(", ")
}

const KINDS: [&str; 17] = [
    "random",
    "external",
    "greedy",
    "random_greedy",
    "freckers_mcts",
    "corners",
    "positional",
    "weighted_random",
    "table_player",
    "simple_mcts",
    "uct",
    "annealed_uct",
    "alphabeta",
    "hybrid",
    "course_random",
    "heuristic",
    "popcoin",
];
const GAMES: [(&str, &str); 3] = [
    ("othello", "small6"),
    ("freckers", "standard"),
    ("colosseum", "size-6"),
];
/// The kinds each game accepts (most cases draw from these, the rest from all kinds).
const VALID: [&[&str]; 3] = [
    &[
        "random",
        "external",
        "greedy",
        "corners",
        "positional",
        "simple_mcts",
        "uct",
        "annealed_uct",
    ],
    &[
        "random",
        "external",
        "greedy",
        "random_greedy",
        "freckers_mcts",
        "uct",
        "annealed_uct",
        "alphabeta",
        "hybrid",
    ],
    &[
        "random",
        "external",
        "uct",
        "annealed_uct",
        "course_random",
        "heuristic",
        "popcoin",
    ],
];

/// Agent kind number `raw` for `game`: four times in five one the game accepts.
fn kind_of(raw: usize, game: usize) -> &'static str {
    if raw % 5 == 0 {
        KINDS[raw / 5 % KINDS.len()]
    } else {
        VALID[game][raw % VALID[game].len()]
    }
}
const JOBS: [&str; 6] = ["match", "tournament", "ga", "tune", "solve", "tsumego_ga"];

#[derive(Debug, Clone)]
struct Case {
    job: usize,
    game: usize,
    a: usize,
    b: usize,
    early: usize,
    late: usize,
    bad: Option<usize>,
    grid: bool,
    report: bool,
    openings: bool,
    arena: bool,
    repeats: u8,
}

fn case() -> impl Strategy<Value = Case> {
    (
        0..JOBS.len(),
        0..GAMES.len(),
        0..1000usize,
        0..1000usize,
        0..1000usize,
        0..1000usize,
        prop::option::weighted(0.15, 0..2usize),
        any::<bool>(),
        any::<bool>(),
        any::<bool>(),
        any::<bool>(),
        1..3u8,
    )
        .prop_map(
            |(job, game, a, b, early, late, bad, grid, report, openings, arena, repeats)| Case {
                job,
                game,
                a,
                b,
                early,
                late,
                bad,
                grid,
                report,
                openings,
                arena,
                repeats,
            },
        )
}

/// A life-and-death file (solve or tsumego_ga: no agents), with its optional sections.
fn tsumego_file(c: &Case) -> String {
    let job = JOBS[c.job];
    let mut s = format!(
        "name = \"gen\"\nkind = \"{job}\"\ngame = \"tsumego\"\nstage = \"gen{}\"\nseed = 3\nrepeats = {}\n",
        c.a % 3,
        c.repeats
    );
    s += "[library]\nsets = 1\nlevels = \"1-2\"\nper_level = 2\nseed = 1\n";
    let bad = |ok: &str, bad: &str| {
        if c.bad.is_some() && c.b % 2 == 0 {
            bad.to_string()
        } else {
            ok.to_string()
        }
    };
    if job == "solve" {
        s += &format!(
            "[solve]\nproblems = {{ sets = [1], levels = \"1-2\" }}\nweights = {{ reference = \"reference\"{} }}\n{}",
            if c.grid { ", zero = \"zero\"" } else { "" },
            bad("node_budget = 20000\n", "node_budget = 0\n")
        );
    } else {
        s += &format!(
            "[tsumego_ga]\npart = \"{}\"\nfitness = \"{}\"\npopulation = 4\nchildren = 4\ngenerations = 1\nnode_budget = 20000\ntrain = {{ sets = [1], levels = \"1-2\" }}\n{}",
            if c.early % 2 == 0 {
                "static"
            } else {
                "dynamic"
            },
            if c.early % 2 == 0 {
                "static"
            } else {
                "dynamic"
            },
            bad("", "crossover = 7\n")
        );
        if c.openings {
            s += "test = { sets = [1], levels = \"1-2\" }\n";
        }
    }
    if c.grid && job == "tsumego_ga" {
        s += "[grid]\n\"tsumego_ga.population\" = [4, 6]\n";
    }
    if c.report {
        s += "[report]\nlevel = 0.9\n";
    }
    s
}

fn file(c: &Case) -> String {
    let (game, stage) = GAMES[c.game];
    let job = JOBS[c.job];
    if matches!(job, "solve" | "tsumego_ga") {
        return tsumego_file(c);
    }
    let nested = Some((
        kind_of(c.early, c.game).to_string(),
        kind_of(c.late, c.game).to_string(),
    ));
    let mut s = format!(
        "name = \"gen\"\nkind = \"{job}\"\ngame = \"{game}\"\nstage = \"{stage}\"\nseed = 3\nrepeats = {}\n",
        c.repeats
    );
    // A tuner tunes an alpha-beta's weights (Freckers), most of the time.
    let a_kind = if job == "tune" && c.a % 3 != 0 {
        "alphabeta"
    } else {
        kind_of(c.a, c.game)
    };
    let a = agent(a_kind, c.bad == Some(0), nested.clone());
    let b = agent(kind_of(c.b, c.game), c.bad == Some(1), nested);
    match job {
        "match" => s += "[match]\nplayers = [\"a\", \"b\"]\ngames = 2\n",
        "tournament" => s += "[tournament]\nrounds = 1\n",
        "ga" => s += "[ga]\npopulation = 4\ngenerations = 1\nsubset = 0.5\nstrategy = \"rnd\"\n",
        _ => {
            s += "[tune]\ntuner = \"hillclimb\"\nagent = \"a\"\nopponent = \"b\"\ngames = 2\neval_games = 2\n"
        }
    }
    if job == "ga" && c.arena {
        s += &format!("[arena]\nrollouts = 4\nrounds = 1\n[arena.agents.b]\n{b}");
    } else if job != "ga" {
        s += &format!("[agents.a]\n{a}[agents.b]\n{b}");
    }
    if c.openings && matches!(job, "match" | "tournament") {
        s += "[openings]\nrandom_plies = 2\n";
    }
    if c.grid {
        s += match job {
            "ga" => "[grid]\n\"ga.population\" = [4, 6]\n",
            "tune" => "[grid]\n\"tune.tuner\" = [\"none\", \"hillclimb\"]\n",
            "match" => "[grid]\n\"match.games\" = [2, 4]\n",
            _ => "[grid]\n\"tournament.rounds\" = [1, 2]\n",
        };
    }
    if c.report {
        s += "[report]\nlevel = 0.9\n";
    }
    s
}

/// Runs one generated file; Ok(true) when it was accepted (and run), Ok(false) when refused.
fn check(c: &Case, dir: &std::path::Path) -> Result<bool, TestCaseError> {
    let text = file(c);
    let f = write(dir, "gen.toml", &text);
    let o = gamelab(&["run", f.to_str().unwrap(), "--dry-run"]);
    let code = o.status.code();
    prop_assert!(
        matches!(code, Some(0) | Some(2)),
        "--dry-run exited {code:?} on\n{text}\n{}",
        stderr(&o)
    );
    if code == Some(0) {
        let out = dir.join("out");
        std::fs::remove_dir_all(&out).ok();
        let o = gamelab(&[
            "run",
            f.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--threads",
            "1",
        ]);
        let code = o.status.code();
        prop_assert!(
            matches!(code, Some(0) | Some(2)),
            "run exited {code:?} on\n{text}\n{}",
            stderr(&o)
        );
        if code == Some(0) {
            let o = gamelab(&[
                "report",
                f.to_str().unwrap(),
                "--out",
                out.to_str().unwrap(),
            ]);
            let code = o.status.code();
            prop_assert!(
                matches!(code, Some(0) | Some(1) | Some(2)),
                "report exited {code:?} on\n{text}\n{}",
                stderr(&o)
            );
            prop_assert!(
                code != Some(1) || stderr(&o).contains("no rows"),
                "report failed on\n{text}\n{}",
                stderr(&o)
            );
        }
    }
    Ok(code == Some(0))
}

#[test]
fn generated_experiment_files_run_or_are_refused_never_panic() {
    let cases: u32 = std::env::var("GENERATED_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(200);
    let dir = tempfile::tempdir().unwrap();
    let mut runner = TestRunner::new(Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    });
    let (accepted, refused) = (std::cell::Cell::new(0u32), std::cell::Cell::new(0u32));
    let result = runner.run(&case(), |c| {
        let ran = check(&c, dir.path())?;
        let n = if ran { &accepted } else { &refused };
        n.set(n.get() + 1);
        Ok(())
    });
    eprintln!(
        "generated experiment files: {cases} cases, {} accepted and run, {} refused at load",
        accepted.get(),
        refused.get()
    );
    if let Err(e) = result {
        panic!("{e}");
    }
}
