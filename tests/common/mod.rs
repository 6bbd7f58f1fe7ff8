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
    Command::new(env!("CARGO_BIN_EXE_gamelab"))
        .args(args)
        .output()
        .expect("the gamelab binary runs")
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

/// A small race: three budgets of MCTS against greedy; the point at one rollout is dropped early.
pub const RACE: &str = r#"
name = "race"
kind = "match"
game = "othello"
stage = "small6"
seed = 3
[match]
players = ["mcts", "greedy"]
games = 80
[agents.mcts]
kind = "simple_mcts"
rollouts = 8
[agents.greedy]
kind = "greedy"
[grid]
"agents.mcts.rollouts" = [1, 100, 300]
[race]
blocks_per_round = 4
min_rounds = 2
"#;

/// Columns that measure time, and so differ between runs.
pub const TIMING: [&str; 9] = [
    "wall_ms",
    "first_clock_ms",
    "second_clock_ms",
    "first_max_move_ms",
    "second_max_move_ms",
    "first_think_ms",
    "second_think_ms",
    "time_s",
    "us_per_leaf",
];

/// Every part under `results/<name>/<folder>`, by file name, without timing columns.
pub fn parts(
    out: &Path,
    name: &str,
    folder: &str,
) -> std::collections::BTreeMap<String, polars::prelude::DataFrame> {
    let mut parts = std::collections::BTreeMap::new();
    let Ok(dir) = std::fs::read_dir(out.join("results").join(name).join(folder)) else {
        return parts;
    };
    for entry in dir {
        let path = entry.unwrap().path();
        let file = path.file_name().unwrap().to_string_lossy().into_owned();
        if file.starts_with("part-") {
            let df = gamelab::experiment::rows::read_part(&path).unwrap();
            let drop: Vec<&str> = TIMING
                .iter()
                .copied()
                .filter(|c| df.column(c).is_ok())
                .collect();
            parts.insert(file, df.drop_many(drop));
        }
    }
    parts
}

/// The same jobs with the same rows (nothing lost, duplicated or changed).
pub fn assert_same(
    a: &std::collections::BTreeMap<String, polars::prelude::DataFrame>,
    b: &std::collections::BTreeMap<String, polars::prelude::DataFrame>,
    what: &str,
) {
    assert_eq!(
        a.keys().collect::<Vec<_>>(),
        b.keys().collect::<Vec<_>>(),
        "{what}: the same jobs"
    );
    for (k, df) in a {
        assert_eq!(
            df.height(),
            b[k].height(),
            "{what}: rows of {k} (lost or duplicated)"
        );
        assert!(
            df.equals_missing(&b[k]),
            "{what}: rows of {k} changed: {}",
            first_difference(df, &b[k])
        );
    }
}

/// Where two frames of one shape first differ: the column, the row and both values (as text).
fn first_difference(a: &polars::prelude::DataFrame, b: &polars::prelude::DataFrame) -> String {
    for name in a.get_column_names() {
        let (x, y) = (texts(a, name), b.column(name).map(|_| texts(b, name)));
        let Ok(y) = y else {
            return format!("column {name} is missing from the second");
        };
        if let Some(i) = (0..x.len().min(y.len())).find(|&i| x[i] != y[i]) {
            return format!("column {name}, row {i}: {:?} against {:?}", x[i], y[i]);
        }
    }
    "the frames differ (in types or order)".to_string()
}

/// Starts `gamelab ARGS` (with `envs` set) once per delay and kills it (SIGKILL) after that many
/// milliseconds if it is still running; returns how many kills landed mid-run.
pub fn kill_part_way(args: &[&str], envs: &[(&str, &std::ffi::OsStr)], delays: &[u64]) -> usize {
    let mut landed = 0;
    for &delay in delays {
        let mut child = Command::new(env!("CARGO_BIN_EXE_gamelab"))
            .args(args)
            .envs(envs.iter().copied())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(std::time::Duration::from_millis(delay));
        if child.try_wait().unwrap().is_none() {
            child.kill().unwrap();
            landed += 1;
        }
        child.wait().unwrap();
    }
    landed
}

/// The text values of a column (numbers as their decimal text, missing values as "").
pub fn texts(df: &polars::prelude::DataFrame, name: &str) -> Vec<String> {
    df.column(name)
        .unwrap()
        .cast(&polars::prelude::DataType::String)
        .unwrap()
        .str()
        .unwrap()
        .iter()
        .map(|v| v.unwrap_or("").to_string())
        .collect()
}

/// The rows a run wrote and those it kept from earlier runs, as its last line says ("ran 1 job
/// (250 rows) in 2.3 s; 0 already done (150 rows kept from earlier runs); ...").
pub fn written_and_kept(said: &str) -> (usize, usize) {
    let number_before = |text: &str| -> usize {
        let at = said.find(text).unwrap_or_else(|| panic!("{said}"));
        said[..at]
            .rsplit(['(', ' '])
            .next()
            .unwrap()
            .parse()
            .unwrap_or_else(|_| panic!("{said}"))
    };
    (number_before(" rows) in"), number_before(" rows kept"))
}
