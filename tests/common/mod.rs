//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// A valid small experiment: a tournament with a grid over one agent's budget.
pub const SMALL: &str = r#"
name = "small"
kind = "tournament"
game = "othello"
stage = "small6"
seed = 7
repeats = 2

[tournament]
rounds = 2

[agents.random]
kind = "random"

[agents.greedy]
kind = "greedy"

[agents.mcts]
kind = "simple_mcts"
rollouts = 20

[grid]
"agents.mcts.rollouts" = [10, 40]
"#;

pub fn gamelab(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_gamelab")).args(args).output().expect("the gamelab binary runs")
}

/// Writes `text` as `name` in `dir` and returns its path.
pub fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).expect("write experiment file");
    p
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A valid small Colosseum match: annealed UCT against popcoin on boards of 5 to 9.
pub const COLOSSEUM: &str = r#"
name = "col"
kind = "match"
game = "colosseum"
stage = "sizes-5-9"
seed = 4

[match]
players = ["annealed", "popcoin"]
games = 12

[agents.annealed]
kind = "annealed_uct"
simulations = 300

[agents.popcoin]
kind = "popcoin"
iterations = 300
"#;

/// A valid small tune experiment: the three tuners on a Freckers alpha-beta's weights.
pub const TUNE: &str = r#"
name = "tune"
kind = "tune"
game = "freckers"
stage = "standard"
seed = 5

[tune]
tuner = "hillclimb"
agent = "tuned"
opponent = "plain"
games = 8
eval_games = 4
population = 2
games_per_individual = 2

[grid]
"tune.tuner" = ["none", "hillclimb", "ga"]

[agents.tuned]
kind = "alphabeta"
nodes = 200
distance = 0.5
home = 0.5

[agents.plain]
kind = "alphabeta"
nodes = 200
"#;
