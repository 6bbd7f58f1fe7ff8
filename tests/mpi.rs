//! Distributed runs on this machine: `mpirun -n 3 gamelab run FILE --mpi` (rank 0 runs the
//! experiment, ranks 1 and 2 compute its units) must write the rows of a one-process run, for
//! every job kind that sends units to workers, and a worker killed mid-run must lose nothing
//! once the run is started again. Built only with the `mpi` feature (`make test` runs it:
//! `cargo test --release --features mpi --test mpi`), and needs Open MPI's `mpirun`.
#![cfg(feature = "mpi")]

use crate::common::*;
use polars::prelude::DataFrame;
use std::collections::BTreeMap;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// Every part file of experiment `name` under `out` (all row folders), timing columns dropped.
fn all_parts(out: &Path, name: &str) -> BTreeMap<String, DataFrame> {
    ["games", "generations", "solves"]
        .iter()
        .flat_map(|folder| {
            parts(out, name, folder)
                .into_iter()
                .map(move |(file, df)| (format!("{folder}/{file}"), df))
        })
        .collect()
}

fn mpirun(ranks: usize, args: &[&str]) -> Command {
    let mut c = Command::new("mpirun");
    c.args([
        "--allow-run-as-root",
        "--oversubscribe",
        "-n",
        &ranks.to_string(),
        env!("CARGO_BIN_EXE_gamelab"),
    ])
    .args(args);
    c
}

fn ok(o: Output, what: &str) -> Output {
    assert!(
        o.status.success(),
        "{what} failed: {}\n{}",
        o.status,
        String::from_utf8_lossy(&o.stderr)
    );
    o
}

/// Runs `text` in one process and over 3 ranks, and checks the rows are the same.
fn same_rows_on_three_ranks(name: &str, text: &str) -> BTreeMap<String, DataFrame> {
    let dir = tempfile::tempdir().unwrap();
    let file = write(dir.path(), &format!("{name}.toml"), text);
    let f = file.to_str().unwrap();
    let (one, three) = (dir.path().join("one"), dir.path().join("three"));
    ok(
        gamelab(&["run", f, "--out", one.to_str().unwrap()]),
        "the one-process run",
    );
    let o = ok(
        mpirun(
            3,
            &[
                "run",
                f,
                "--out",
                three.to_str().unwrap(),
                "--mpi",
                "--threads",
                "1",
            ],
        )
        .output()
        .unwrap(),
        "the 3-rank run",
    );
    // Rank 0 alone reports, once.
    assert_eq!(
        String::from_utf8_lossy(&o.stdout).matches("ran ").count(),
        1,
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
    let reference = all_parts(&one, name);
    assert!(!reference.is_empty(), "{name}: no parts");
    assert_same(&reference, &all_parts(&three, name), name);
    // A GA's evolved tables and weights files too.
    let files = |out: &Path| -> BTreeMap<String, String> {
        let dir = out.join("results").join(name).join("tables");
        std::fs::read_dir(dir)
            .into_iter()
            .flatten()
            .flatten()
            .map(|e| {
                (
                    e.file_name().to_string_lossy().into_owned(),
                    std::fs::read_to_string(e.path()).unwrap(),
                )
            })
            .collect()
    };
    assert_eq!(files(&one), files(&three), "{name}: tables");
    reference
}

#[test]
fn a_match_with_openings_and_an_sprt_match_give_the_rows_of_one_process() {
    let rows = same_rows_on_three_ranks(
        "m",
        r#"
name = "m"
kind = "match"
game = "othello"
stage = "small6"
seed = 7
repeats = 2
[match]
players = ["mcts", "greedy"]
games = 40
[openings]
random_plies = 4
[agents.mcts]
kind = "simple_mcts"
rollouts = 40
[agents.greedy]
kind = "greedy"
"#,
    );
    assert_eq!(
        rows.values().map(DataFrame::height).collect::<Vec<_>>(),
        [40, 40]
    );
    // An SPRT stops at the same pair whoever played the games.
    let rows = same_rows_on_three_ranks(
        "sprt",
        r#"
name = "sprt"
kind = "match"
game = "othello"
stage = "small6"
seed = 5
[match]
players = ["mcts", "greedy"]
games = 2000
sprt = { elo0 = 0, elo1 = 30, alpha = 0.05, beta = 0.05 }
[agents.mcts]
kind = "simple_mcts"
rollouts = 30
[agents.greedy]
kind = "greedy"
"#,
    );
    let n = rows.values().next().unwrap().height();
    assert!(n < 2000 && n % 2 == 0, "{n} games");
}

#[test]
fn colosseum_and_tournament_jobs_give_the_rows_of_one_process() {
    same_rows_on_three_ranks("col", COLOSSEUM);
    same_rows_on_three_ranks("small", SMALL);
}

#[test]
fn a_race_gives_the_rows_and_drops_of_one_process() {
    // Rank 0 decides each round from the rows the workers' games wrote.
    let rows = same_rows_on_three_ranks("race", RACE);
    let heights: Vec<usize> = rows.values().map(DataFrame::height).collect();
    assert_eq!(heights.len(), 3);
    assert!(heights.iter().sum::<usize>() < 3 * 80, "{heights:?}");
}

#[test]
fn a_ga_gives_the_rows_and_table_of_one_process() {
    let text = r#"
name = "ga"
kind = "ga"
game = "othello"
stage = "small6"
seed = 6
[ga]
population = 10
generations = 3
subset = 0.5
strategy = "mix"
symmetry = "rotation"
"#;
    let rows = same_rows_on_three_ranks("ga", text);
    assert_eq!(rows.values().next().unwrap().height(), 30);
    let dir = tempfile::tempdir().unwrap();
    let file = write(dir.path(), "ga.toml", text);
    ok(
        gamelab(&[
            "run",
            file.to_str().unwrap(),
            "--out",
            dir.path().to_str().unwrap(),
        ]),
        "a GA run",
    );
    assert_eq!(
        std::fs::read_dir(dir.path().join("results/ga/tables"))
            .unwrap()
            .count(),
        1,
        "the GA writes its best table (compared above)"
    );
}

#[test]
fn life_and_death_ga_and_solve_jobs_give_the_rows_of_one_process() {
    let library = r#"
game = "tsumego"
stage = "tiny"
[library]
sets = 2
levels = "1-3"
per_level = 4
seed = 9
"#;
    let ga = format!(
        r#"name = "tga"
kind = "tsumego_ga"
seed = 4
{library}
[tsumego_ga]
part = "dynamic"
fitness = "dynamic"
formula = 1
population = 4
children = 4
generations = 3
node_budget = 30000
train = {{ sets = [1], levels = "1-3", count = 6 }}
test = {{ sets = [2], levels = "2-3" }}
compare = {{ reference = "reference" }}
"#
    );
    let rows = same_rows_on_three_ranks("tga", &ga);
    assert_eq!(rows.len(), 2, "generations and test solves");
    let solve = format!(
        r#"name = "solve"
kind = "solve"
seed = 1
repeats = 2
{library}
[solve]
problems = {{ sets = [1, 2], levels = "1-3" }}
weights = {{ reference = "reference", zero = "zero" }}
"#
    );
    let rows = same_rows_on_three_ranks("solve", &solve);
    assert_eq!(
        rows.values().map(DataFrame::height).collect::<Vec<_>>(),
        [48, 48]
    );
}

/// The pid of rank `rank` of a running `gamelab run FILE` under mpirun (Open MPI puts the rank
/// in each process's environment).
fn pid_of_rank(file: &str, rank: u32) -> Option<u32> {
    for entry in std::fs::read_dir("/proc").ok()?.flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        let cmdline = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
        if !String::from_utf8_lossy(&cmdline).contains(file) {
            continue;
        }
        let environ = std::fs::read(format!("/proc/{pid}/environ")).unwrap_or_default();
        if environ
            .split(|b| *b == 0)
            .any(|v| v == format!("OMPI_COMM_WORLD_RANK={rank}").as_bytes())
        {
            return Some(pid);
        }
    }
    None
}

#[test]
fn a_worker_killed_mid_run_stops_the_run_and_the_rerun_loses_nothing() {
    let text = r#"
name = "kill"
kind = "match"
game = "othello"
stage = "small6"
seed = 3
[match]
players = ["mcts", "greedy"]
games = 400
[openings]
random_plies = 2
[agents.mcts]
kind = "simple_mcts"
rollouts = 1500
[agents.greedy]
kind = "greedy"
"#;
    let dir = tempfile::tempdir().unwrap();
    let file = write(dir.path(), "kill.toml", text);
    let f = file.to_str().unwrap();
    let (one, killed) = (dir.path().join("one"), dir.path().join("killed"));
    ok(
        gamelab(&["run", f, "--out", one.to_str().unwrap()]),
        "the one-process run",
    );
    let reference = all_parts(&one, "kill");

    // Small batches, so that some are saved before the kill.
    let child = mpirun(
        3,
        &[
            "run",
            f,
            "--out",
            killed.to_str().unwrap(),
            "--mpi",
            "--threads",
            "1",
        ],
    )
    .env("GAMELAB_BATCH_ROWS", "8")
    .stdout(Stdio::null())
    .stderr(Stdio::piped())
    .spawn()
    .unwrap();
    let progress = killed.join("results/kill/partial");
    let t0 = Instant::now();
    let mut victim = None;
    while t0.elapsed() < Duration::from_secs(120) && victim.is_none() {
        let batches = std::fs::read_dir(&progress)
            .into_iter()
            .flatten()
            .flatten()
            .flat_map(|d| std::fs::read_dir(d.path()).into_iter().flatten().flatten())
            .filter(|e| e.file_name().to_string_lossy().starts_with("batch-"))
            .count();
        if batches >= 2 {
            victim = pid_of_rank(f, 1);
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let victim = victim.expect("rank 1 found after two saved batches");
    unsafe { libc::kill(victim as i32, libc::SIGKILL) };
    let out = child.wait_with_output().unwrap();
    assert!(!out.status.success(), "the run goes down with its worker");
    let partial = all_parts(&killed, "kill");
    assert!(
        partial.is_empty(),
        "the job was not finished when its worker died"
    );

    // Started again (by hand, or by the scheduler), it resumes after the saved batches.
    let o = ok(
        mpirun(
            3,
            &[
                "run",
                f,
                "--out",
                killed.to_str().unwrap(),
                "--mpi",
                "--threads",
                "1",
            ],
        )
        .output()
        .unwrap(),
        "the rerun",
    );
    // It plays what the saved batches did not hold, and says it kept those (400 rows in all).
    let said = String::from_utf8_lossy(&o.stdout);
    let (written, kept) = written_and_kept(&said);
    assert!(
        said.contains("ran 1 job (") && kept > 0 && written + kept == 400,
        "{said}"
    );
    assert_same(&reference, &all_parts(&killed, "kill"), "after the kill");
}

#[test]
fn one_rank_is_a_clear_error_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let file = write(dir.path(), "small.toml", SMALL);
    let out = dir.path().join("out");
    let o = mpirun(
        1,
        &[
            "run",
            file.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--mpi",
        ],
    )
    .output()
    .unwrap();
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("--mpi needs at least 2 ranks"),
        "{}",
        stderr(&o)
    );
    assert!(!out.join("results").exists());
}
