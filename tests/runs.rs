//! Determinism and resumption: the same file and seed give the same rows on any thread count,
//! under sharding, and across a killed and restarted run; the report reads them back.

use crate::common::*;
use gamelab::experiment::rows::read_part;
use polars::prelude::DataFrame;
use std::collections::BTreeMap;
use std::path::Path;
use std::time::{Duration, Instant};

/// Every part file under `out` for experiment `name`, by file name, with the timing columns
/// (`wall_ms`, the longest think and the think per move of each side) dropped.
fn rows(out: &Path, name: &str) -> BTreeMap<String, DataFrame> {
    let dir = out.join("results").join(name).join("games");
    let mut parts = BTreeMap::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let file = path.file_name().unwrap().to_string_lossy().into_owned();
        if file.starts_with("part-") {
            let df = read_part(&path).unwrap().drop_many([
                "wall_ms",
                "first_clock_ms",
                "second_clock_ms",
                "first_max_move_ms",
                "second_max_move_ms",
                "first_think_ms",
                "second_think_ms",
            ]);
            parts.insert(file, df);
        }
    }
    parts
}

fn assert_same_rows(a: &BTreeMap<String, DataFrame>, b: &BTreeMap<String, DataFrame>) {
    assert_eq!(
        a.keys().collect::<Vec<_>>(),
        b.keys().collect::<Vec<_>>(),
        "the same jobs"
    );
    for (k, df) in a {
        assert!(
            df.equals_missing(&b[k]),
            "rows of {k} differ:\n{df}\n{}",
            b[k]
        );
    }
}

fn run_ok(args: &[&str]) {
    let o = gamelab(args);
    assert!(
        o.status.success(),
        "gamelab {args:?} failed: {}",
        stderr(&o)
    );
}

#[test]
fn one_and_two_threads_give_identical_rows_in_both_formats() {
    let dir = tempfile::tempdir().unwrap();
    // With openings, so that the opening column is written and read back too.
    let file = write(
        dir.path(),
        "exp.toml",
        &SMALL.replace(
            "rounds = 2",
            "rounds = 2\n[openings]\nrandom_plies = 3\norder = \"random\"",
        ),
    );
    let f = file.to_str().unwrap();
    let (one, two) = (dir.path().join("one"), dir.path().join("two"));
    run_ok(&["run", f, "--out", one.to_str().unwrap(), "--threads", "1"]);
    run_ok(&["run", f, "--out", two.to_str().unwrap(), "--threads", "2"]);
    let a = rows(&one, "small");
    assert_eq!(a.len(), 4, "2 grid values x 2 repeats");
    assert!(a.values().all(|df| df.height() == 12));
    assert_same_rows(&a, &rows(&two, "small"));

    let csv = dir.path().join("csv");
    run_ok(&[
        "run",
        f,
        "--out",
        csv.to_str().unwrap(),
        "--threads",
        "2",
        "--format",
        "csv",
    ]);
    let c = rows(&csv, "small");
    for (k, df) in &a {
        let csv_name = k.replace(".parquet", ".csv");
        // CSV loses no information: the same values, the same types, once lists are written as
        // CSV writes them (numbers separated by spaces) and a column with no value at all (read
        // back from CSV as text) is cast to the Parquet column's type.
        let df = gamelab::experiment::rows::csv_ready(df).unwrap();
        let mut read = c[&csv_name].clone();
        for column in df.columns() {
            let name = column.name().as_str();
            if read.column(name).unwrap().null_count() == read.height() {
                let cast = read.column(name).unwrap().cast(column.dtype()).unwrap();
                read.with_column(cast).unwrap();
            }
        }
        assert!(
            df.equals_missing(&read),
            "csv rows of {k} differ:\n{df}\n{read}"
        );
    }
}

#[test]
fn rows_carry_the_job_and_its_swept_values() {
    let dir = tempfile::tempdir().unwrap();
    let file = write(dir.path(), "exp.toml", SMALL);
    let out = dir.path().join("out");
    run_ok(&[
        "run",
        file.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    for (name, df) in rows(&out, "small") {
        let hash = name
            .trim_start_matches("part-")
            .trim_end_matches(".parquet");
        let job = df
            .column("job")
            .unwrap()
            .str()
            .unwrap()
            .get(0)
            .unwrap()
            .to_string();
        assert_eq!(job, hash);
        let rollouts = df
            .column("agents.mcts.rollouts")
            .unwrap()
            .i64()
            .unwrap()
            .get(0)
            .unwrap();
        assert!(rollouts == 10 || rollouts == 40);
        let config =
            std::fs::read_to_string(out.join("results/small/jobs").join(format!("{hash}.json")))
                .unwrap();
        assert!(
            config.contains(&format!("\"rollouts\": {rollouts}")),
            "{config}"
        );
        // Every game has a winner column value from the fixed set, and scores that add up.
        let winners = df.column("winner").unwrap().str().unwrap();
        assert!(
            winners
                .iter()
                .all(|w| matches!(w, Some("first" | "second" | "draw")))
        );
    }
}

/// A file without `name` is named after the file, but renaming it keeps its jobs (hashes and
/// seeds, so rows): only the folder and the rows' `experiment` column follow the new name.
#[test]
fn renaming_a_file_without_a_name_keeps_its_jobs() {
    let dir = tempfile::tempdir().unwrap();
    let unnamed = SMALL.replace("name = \"small\"\n", "");
    let jobs = |file: &str| {
        let path = write(dir.path(), file, &unnamed);
        let o = gamelab(&["run", path.to_str().unwrap(), "--dry-run"]);
        assert!(o.status.success(), "{}", stderr(&o));
        String::from_utf8_lossy(&o.stdout)
            .lines()
            .skip(1)
            .map(|l| l.split(' ').next().unwrap().to_string())
            .collect::<Vec<_>>()
    };
    let before = jobs("mine.toml");
    assert_eq!(before.len(), 4);
    assert_eq!(jobs("renamed.toml"), before);
    // A name given is part of the jobs' identity, as before.
    let named = write(dir.path(), "named.toml", SMALL);
    let o = gamelab(&["run", named.to_str().unwrap(), "--dry-run"]);
    let hashes: Vec<String> = String::from_utf8_lossy(&o.stdout)
        .lines()
        .skip(1)
        .map(|l| l.split(' ').next().unwrap().to_string())
        .collect();
    assert!(hashes.iter().all(|h| !before.contains(h)));
}

#[test]
fn shards_together_give_the_whole_run() {
    let dir = tempfile::tempdir().unwrap();
    let file = write(dir.path(), "exp.toml", SMALL);
    let f = file.to_str().unwrap();
    let (whole, sharded) = (dir.path().join("whole"), dir.path().join("sharded"));
    run_ok(&["run", f, "--out", whole.to_str().unwrap()]);
    run_ok(&[
        "run",
        f,
        "--out",
        sharded.to_str().unwrap(),
        "--shard",
        "1/3",
    ]);
    let first = rows(&sharded, "small").len();
    run_ok(&[
        "run",
        f,
        "--out",
        sharded.to_str().unwrap(),
        "--shard",
        "2/3",
    ]);
    run_ok(&[
        "run",
        f,
        "--out",
        sharded.to_str().unwrap(),
        "--shard",
        "3/3",
    ]);
    assert!(first < 4, "shard 1 of 3 ran only its own jobs");
    assert_same_rows(&rows(&whole, "small"), &rows(&sharded, "small"));
}

#[test]
fn a_killed_run_resumes_with_every_row_exactly_once() {
    // Slow enough that the kill lands in the middle and the killed run's clock has ticked:
    // about 0.1 to 0.6 s a job on a 2026 machine (at [200, 400, 600] rollouts the first job
    // ended 0.06 s in, and the killed run's clock said 0.0 s).
    let text = SMALL
        .replace("stage = \"small6\"", "stage = \"standard8\"")
        .replace("[10, 40]", "[2000, 4000, 6000]")
        .replace("repeats = 2", "repeats = 3")
        .replace("rounds = 2", "rounds = 2\n[openings]\nrandom_plies = 2");
    let dir = tempfile::tempdir().unwrap();
    let file = write(dir.path(), "exp.toml", &text);
    let f = file.to_str().unwrap();
    let (clean, killed) = (dir.path().join("clean"), dir.path().join("killed"));
    run_ok(&["run", f, "--out", clean.to_str().unwrap()]);
    let reference = rows(&clean, "small");
    assert_eq!(reference.len(), 9);

    let games = killed.join("results/small/games");
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_gamelab"))
        .args(["run", f, "--out", killed.to_str().unwrap()])
        // The run's clock ticks every 20 ms, so the kill leaves the time it ran.
        .env("GAMELAB_RUN_CLOCK_MS", "20")
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let t0 = Instant::now();
    while t0.elapsed() < Duration::from_secs(60) {
        let done = std::fs::read_dir(&games)
            .map(|d| {
                d.filter(|e| {
                    e.as_ref()
                        .unwrap()
                        .file_name()
                        .to_string_lossy()
                        .starts_with("part-")
                })
                .count()
            })
            .unwrap_or(0);
        if done >= 1 {
            break;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    let killed_after = t0.elapsed().as_secs_f64();
    child.kill().unwrap();
    child.wait().unwrap();
    let partial = rows(&killed, "small").len();
    assert!(
        partial < 9,
        "the kill came after the last job: make the jobs slower"
    );
    let results = killed.join("results/small");
    let clocks = || {
        std::fs::read_dir(&results)
            .unwrap()
            .filter(|e| {
                let name = e.as_ref().unwrap().file_name();
                name.to_string_lossy().starts_with("run-clock-")
            })
            .count()
    };
    assert_eq!(clocks(), 1, "the killed run leaves its clock");
    assert!(!results.join("run-times.csv").exists());
    run_ok(&["run", f, "--out", killed.to_str().unwrap()]);
    let resumed = rows(&killed, "small");
    assert_same_rows(&reference, &resumed);
    eprintln!("killed after {partial} of 9 jobs");
    // What the killed run cost is counted: the resume turned its clock into a line (up to its
    // last tick, at most the time until the kill), then added its own; no clock is left.
    let times = std::fs::read_to_string(results.join("run-times.csv")).unwrap();
    let lines: Vec<Vec<&str>> = times
        .lines()
        .skip(1)
        .map(|l| l.split(',').collect())
        .collect();
    assert_eq!(lines.len(), 2, "{times}");
    let killed_seconds: f64 = lines[0][0].parse().unwrap();
    assert!(
        killed_seconds > 0.0 && killed_seconds <= killed_after + 0.1,
        "{times} (killed after {killed_after:.2} s)"
    );
    assert!(lines[0][4].starts_with("killed; last seen 20"), "{times}");
    let resumed_jobs: usize = lines[1][1].parse().unwrap();
    assert!(
        resumed_jobs > 0 && !lines[1][4].starts_with("killed"),
        "{times}"
    );
    assert_eq!(clocks(), 0);

    // A third run has nothing left to do and changes nothing.
    let o = gamelab(&["run", f, "--out", killed.to_str().unwrap()]);
    assert!(String::from_utf8_lossy(&o.stdout).contains("ran 0 jobs (0 rows)"));
    assert_same_rows(&reference, &rows(&killed, "small"));
}

#[test]
fn the_report_reads_the_rows_and_writes_table_and_figures() {
    let dir = tempfile::tempdir().unwrap();
    let file = write(
        dir.path(),
        "exp.toml",
        &format!("{SMALL}\n[report]\ngroup_by = [\"agent\"]\n"),
    );
    let f = file.to_str().unwrap();
    let out = dir.path().join("out");
    let o = gamelab(&["report", f, "--out", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1), "no rows yet");
    assert!(stderr(&o).contains("run `gamelab run"), "{}", stderr(&o));
    run_ok(&["run", f, "--out", out.to_str().unwrap()]);
    run_ok(&["report", f, "--out", out.to_str().unwrap()]);
    let md = std::fs::read_to_string(out.join("results/small/report/report.md")).unwrap();
    assert!(
        md.contains("| agent | games | W | D | L | score % | 95% CI (Wilson) |"),
        "{md}"
    );
    assert!(md.contains("computed from 48 rows of 4 of 4 jobs"), "{md}");
    // Each of 3 agents plays 4 games per job (2 ordered pairings x 2 rounds) in 4 jobs... as
    // each game counts for both its agents: 48 games x 2 seats / 3 agents = 32 games each.
    let table: Vec<&str> = md
        .lines()
        .filter(|l| l.starts_with("| ") && !l.starts_with("| agent"))
        .collect();
    assert_eq!(table.len(), 3);
    for line in &table {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        assert_eq!(cells[2], "32", "{line}");
        let (w, d, l): (u32, u32, u32) = (
            cells[3].parse().unwrap(),
            cells[4].parse().unwrap(),
            cells[5].parse().unwrap(),
        );
        assert_eq!(w + d + l, 32);
    }
    for ext in ["png", "svg"] {
        let fig = out.join("figures/small").join(format!("scores.{ext}"));
        assert!(
            std::fs::metadata(&fig).unwrap().len() > 1000,
            "{} is written",
            fig.display()
        );
    }
    // The caption is under the figure (report.md, its file), not drawn into the image.
    let caption = std::fs::read_to_string(out.join("figures/small/scores.caption.txt")).unwrap();
    let caption = caption.trim_end();
    assert!(caption.ends_with("score % by agent"), "{caption}");
    assert!(
        md.contains(&format!("![{caption}](figures/scores.png)")),
        "{md}"
    );
    let svg = std::fs::read_to_string(out.join("figures/small/scores.svg")).unwrap();
    assert!(!svg.contains("score % by agent"), "no title in the image");
}

#[test]
fn figures_set_empty_draw_none_and_markdown_only_writes_no_page() {
    let dir = tempfile::tempdir().unwrap();
    let file = write(
        dir.path(),
        "exp.toml",
        &format!("{SMALL}\n[report]\ngroup_by = [\"agent\"]\nfigures = []\n"),
    );
    let f = file.to_str().unwrap();
    let out = dir.path().join("out");
    run_ok(&["run", f, "--out", out.to_str().unwrap()]);
    run_ok(&["report", f, "--out", out.to_str().unwrap()]);
    let report = out.join("results/small/report");
    let md = std::fs::read_to_string(report.join("report.md")).unwrap();
    assert!(md.contains("| agent | games |"), "{md}");
    assert!(!md.contains("## Figures"), "{md}");
    assert!(
        !out.join("figures/small").exists()
            || std::fs::read_dir(out.join("figures/small"))
                .unwrap()
                .next()
                .is_none(),
        "figures drawn with figures = []"
    );
    assert!(report.join("report.html").exists());
    // Markdown only: no page (the one before is gone), no CSV files.
    let o = gamelab(&[
        "report",
        f,
        "--out",
        out.to_str().unwrap(),
        "--format",
        "md",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(!report.join("report.html").exists());
    assert!(!String::from_utf8_lossy(&o.stdout).contains("report.html"));
    assert!(report.join("report.md").exists());
}

#[test]
fn an_sprt_stops_a_match_at_the_first_decisive_pair_on_any_thread_count() {
    let text = r#"
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
[grid]
"agents.mcts.rollouts" = [2, 30]
"#;
    let dir = tempfile::tempdir().unwrap();
    let file = write(dir.path(), "sprt.toml", text);
    let f = file.to_str().unwrap();
    let (one, two) = (dir.path().join("one"), dir.path().join("two"));
    let first = gamelab(&["run", f, "--out", one.to_str().unwrap(), "--threads", "1"]);
    assert!(first.status.success(), "{}", stderr(&first));
    run_ok(&["run", f, "--out", two.to_str().unwrap(), "--threads", "2"]);
    let a = rows(&one, "sprt");
    assert_same_rows(&a, &rows(&two, "sprt"));
    // The run's summary says where each test stopped and what it decided.
    let said = String::from_utf8_lossy(&first.stdout);
    for df in a.values() {
        let n = df.height();
        assert!(
            n < 2000 && n % 2 == 0,
            "stopped early on a whole pair: {n} games"
        );
        assert!(
            said.contains(&format!(
                ": SPRT of mcts stopped after {n} of 2000 games: H1 accepted: Elo 30 rather than 0 (hypotheses, not an estimate); LLR "
            )),
            "{said}"
        );
    }
    run_ok(&["report", f, "--out", one.to_str().unwrap()]);
    let md = std::fs::read_to_string(one.join("results/sprt/report/report.md")).unwrap();
    assert!(md.contains("## Sequential tests"), "{md}");
    assert_eq!(
        md.matches("H1 accepted: Elo 30 rather than 0 (hypotheses, not an estimate)")
            .count(),
        2,
        "{md}"
    );
}

/// Off a terminal (a pipe, as under nohup or Slurm) a run says each job as it finishes, with
/// its agents' points, and a progress line on its interval (`GAMELAB_PROGRESS_MS`; 30 s by
/// default) with the games done, the jobs done, the ETA and the running score.
#[test]
fn off_a_terminal_a_run_says_each_finished_job_and_its_progress_on_time() {
    let dir = tempfile::tempdir().unwrap();
    let file = write(
        dir.path(),
        "exp.toml",
        &SMALL
            .replace("rounds = 2", "rounds = 12")
            .replace("[10, 40]", "[1000, 2000]"),
    );
    let out = dir.path().join("out");
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_gamelab"))
        .args([
            "run",
            file.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--threads",
            "2",
        ])
        .env("GAMELAB_PROGRESS_MS", "50")
        .output()
        .unwrap();
    let said = stderr(&o);
    assert!(o.status.success(), "{said}");
    // 3 agents, 12 rounds of both colours: 72 games a job, 48 for each agent.
    for k in 1..=4 {
        let line = said
            .lines()
            .find(|l| l.starts_with(&format!("job {k}/4 done: ")))
            .unwrap_or_else(|| panic!("no line for the job done {k}th: {said}"));
        assert!(line.contains("72 games in "), "{line}");
        assert!(line.contains("agents.mcts.rollouts="), "{line}");
        for agent in ["mcts", "greedy", "random"] {
            assert!(
                line.contains(&format!("{agent} ")) && line.contains("/48"),
                "{line}"
            );
        }
    }
    let progress: Vec<&str> = said
        .lines()
        .filter(|l| l.starts_with("progress "))
        .collect();
    assert!(!progress.is_empty(), "no progress line: {said}");
    for line in &progress {
        assert!(
            line.contains("/288 games (") && line.contains(" jobs done, ETA "),
            "{line}"
        );
    }
    assert!(
        progress
            .iter()
            .any(|l| l.contains("; job ") && l.contains("/")),
        "a running score: {progress:?}"
    );
}

/// The generation rows and best-table files under `out`, by file name.
fn ga_outputs(out: &Path, name: &str) -> (BTreeMap<String, DataFrame>, BTreeMap<String, String>) {
    let dir = out.join("results").join(name);
    let mut parts = BTreeMap::new();
    for entry in std::fs::read_dir(dir.join("generations")).unwrap() {
        let path = entry.unwrap().path();
        let file = path.file_name().unwrap().to_string_lossy().into_owned();
        if file.starts_with("part-") {
            parts.insert(file, read_part(&path).unwrap());
        }
    }
    let tables = std::fs::read_dir(dir.join("tables"))
        .unwrap()
        .map(|e| {
            let p = e.unwrap().path();
            (
                p.file_name().unwrap().to_string_lossy().into_owned(),
                std::fs::read_to_string(&p).unwrap(),
            )
        })
        .collect();
    (parts, tables)
}

#[test]
fn a_killed_ga_resumes_from_its_checkpoint_to_the_same_table() {
    let text = r#"
name = "ga"
kind = "ga"
game = "othello"
stage = "small6"
seed = 8
[ga]
population = 16
generations = 120
subset = 0.5
strategy = "rnd"
checkpoint_s = 0.02
"#;
    let dir = tempfile::tempdir().unwrap();
    let file = write(dir.path(), "ga.toml", text);
    let f = file.to_str().unwrap();
    let (clean, killed) = (dir.path().join("clean"), dir.path().join("killed"));
    run_ok(&["run", f, "--out", clean.to_str().unwrap()]);
    let reference = ga_outputs(&clean, "ga");
    assert_eq!(reference.0.values().next().unwrap().height(), 16 * 120);

    let checkpoints = killed.join("results/ga/checkpoints");
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_gamelab"))
        .args([
            "run",
            f,
            "--out",
            killed.to_str().unwrap(),
            "--threads",
            "1",
        ])
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let t0 = Instant::now();
    while t0.elapsed() < Duration::from_secs(60)
        && std::fs::read_dir(&checkpoints)
            .map(|d| d.count())
            .unwrap_or(0)
            == 0
    {
        std::thread::sleep(Duration::from_millis(2));
    }
    std::thread::sleep(Duration::from_millis(30));
    child.kill().unwrap();
    child.wait().unwrap();
    let resumed_from_checkpoint = std::fs::read_dir(&checkpoints)
        .map(|d| d.count())
        .unwrap_or(0)
        > 0;
    run_ok(&["run", f, "--out", killed.to_str().unwrap()]);
    let resumed = ga_outputs(&killed, "ga");
    assert!(
        resumed_from_checkpoint,
        "the kill came after the run finished: make the GA longer"
    );
    assert_eq!(reference.1, resumed.1, "the same best table");
    assert_same_rows(&reference.0, &resumed.0);
    assert_eq!(
        std::fs::read_dir(&checkpoints).unwrap().count(),
        0,
        "the checkpoint is removed when done"
    );
}

#[test]
fn tune_evolves_a_table_draws_it_and_checks_it_in_the_arena() {
    let text = "name = \"tune\"\nkind = \"ga\"\ngame = \"othello\"\nstage = \"partial-c8\"\nseed = 2\n[ga]\npopulation = 8\ngenerations = 4\nsubset = \"full\"\nstrategy = \"det\"\n";
    let dir = tempfile::tempdir().unwrap();
    let file = write(dir.path(), "tune.toml", text);
    let out = dir.path().join("out");
    let o = gamelab(&[
        "tune",
        file.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--rollouts",
        "8",
        "--rounds",
        "1",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let tables: Vec<_> = std::fs::read_dir(out.join("results/tune/tables"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(tables.len(), 1);
    let rows =
        gamelab::agent::table::parse_table_text(&std::fs::read_to_string(&tables[0]).unwrap())
            .unwrap();
    // 8x8, invariant under a quarter turn (the GA's rotation symmetry).
    assert_eq!(rows.len(), 8);
    for r in 0..8 {
        for c in 0..8 {
            assert_eq!(rows[r][c], rows[c][7 - r]);
        }
    }
    let hash = tables[0]
        .file_stem()
        .unwrap()
        .to_string_lossy()
        .into_owned();
    assert!(
        out.join(format!("figures/tune/best-{}.png", &hash[..8]))
            .exists()
    );
    let check = std::fs::read_to_string(out.join(format!(
        "results/tune-check-{}/report/report.md",
        &hash[..8]
    )))
    .unwrap();
    // Six participants, each playing the five others twice (one round, both colours).
    for agent in [
        "evolved",
        "uniform",
        "random",
        "greedy",
        "corners",
        "positional",
    ] {
        assert!(
            check
                .lines()
                .any(|l| l.starts_with(&format!("| {agent} | 10 |"))),
            "{agent} in\n{check}"
        );
    }
}

#[test]
fn a_ga_arena_plays_the_evolved_tables_and_reports_them_by_ga_setting() {
    let text = r#"
name = "ar"
kind = "ga"
game = "othello"
stage = "small6"
seed = 4
repeats = 2
[ga]
population = 6
generations = 3
subset = "full"
strategy = "rnd"
[grid]
"ga.subset" = [0.4, "full"]
[arena]
rollouts = 10
[arena.agents.greedy]
kind = "greedy"
[[report.tables]]
name = "arena"
rows = "arena"
group_by = ["agent", "ga.subset", "origin"]
"#;
    let dir = tempfile::tempdir().unwrap();
    let file = write(dir.path(), "ar.toml", text);
    let out = dir.path().join("out");
    run_ok(&[
        "run",
        file.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    // 4 evolved agents and greedy: 5 x 4 ordered pairs, one round.
    let arena = rows(&out, "ar-arena");
    assert_eq!(arena.values().map(|df| df.height()).sum::<usize>(), 20);
    run_ok(&[
        "report",
        file.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    let md = std::fs::read_to_string(out.join("results/ar/report/report.md")).unwrap();
    assert!(
        md.lines()
            .any(|l| l.starts_with("| greedy | - | reference | 8 |")),
        "{md}"
    );
    assert_eq!(
        md.lines()
            .filter(|l| l.starts_with("| ga-") && l.contains("| evolved | 8 |"))
            .count(),
        4,
        "{md}"
    );
    assert_eq!(
        md.lines()
            .filter(|l| l.starts_with("| ga-") && l.contains("| full |"))
            .count(),
        2,
        "{md}"
    );
}

#[test]
fn colosseum_rows_are_identical_on_one_and_two_threads_and_pairs_share_a_board() {
    let dir = tempfile::tempdir().unwrap();
    let file = write(dir.path(), "col.toml", COLOSSEUM);
    let f = file.to_str().unwrap();
    let (one, two) = (dir.path().join("one"), dir.path().join("two"));
    run_ok(&["run", f, "--out", one.to_str().unwrap(), "--threads", "1"]);
    run_ok(&["run", f, "--out", two.to_str().unwrap(), "--threads", "2"]);
    let a = rows(&one, "col");
    assert_same_rows(&a, &rows(&two, "col"));
    let df = a.values().next().unwrap();
    assert_eq!(df.height(), 12);
    let stages: Vec<String> = df
        .column("stage")
        .unwrap()
        .str()
        .unwrap()
        .iter()
        .map(|s| s.unwrap().to_string())
        .collect();
    for pair in stages.chunks(2) {
        assert_eq!(
            pair[0], pair[1],
            "both games of a colour-swapped pair are on one board"
        );
    }
    let distinct: std::collections::BTreeSet<&String> = stages.iter().collect();
    assert!(distinct.len() > 1, "sizes are drawn per pair: {stages:?}");
    assert!(
        stages
            .iter()
            .all(|s| ["size-5", "size-6", "size-7", "size-8", "size-9"].contains(&s.as_str()))
    );
    let peak = df
        .column("first_peak_tree_bytes")
        .unwrap()
        .i64()
        .unwrap()
        .iter()
        .flatten()
        .max()
        .unwrap();
    assert!(peak > 0, "tree memory is recorded");
    // One tree size (and think time, dropped by `rows` as timing) per move of each side, as
    // list columns of numbers.
    let count = |df: &DataFrame, c: &str, i: usize| {
        df.column(c)
            .unwrap()
            .list()
            .unwrap()
            .get_as_series(i)
            .unwrap()
            .len() as i64
    };
    let plies = df.column("plies").unwrap().i64().unwrap();
    for i in 0..df.height() {
        assert_eq!(
            count(df, "first_tree_kb", i) + count(df, "second_tree_kb", i),
            plies.get(i).unwrap()
        );
    }
    let raw = read_part(&one.join("results/col/games").join(a.keys().next().unwrap())).unwrap();
    assert_eq!(
        count(&raw, "first_think_ms", 0),
        count(df, "first_tree_kb", 0)
    );
    // Values that do not apply are null: annealed UCT has no depth-limited search, nor a cache.
    assert_eq!(df.column("first_depth").unwrap().null_count(), df.height());
    assert_eq!(
        df.column("second_cache_hit_rate").unwrap().null_count(),
        df.height()
    );
    // In CSV a list is one field of numbers separated by spaces, one per move; course_random
    // has no tree: null byte counts and an empty tree-size field.
    let text = COLOSSEUM
        .replace(
            "kind = \"popcoin\"\niterations = 300",
            "kind = \"course_random\"",
        )
        .replace("name = \"col\"", "name = \"colr\"");
    let file = write(dir.path(), "colr.toml", &text);
    run_ok(&[
        "run",
        file.to_str().unwrap(),
        "--out",
        one.to_str().unwrap(),
        "--format",
        "csv",
    ]);
    let (_, csv) = rows_any(&one, "colr").pop_first().unwrap();
    let agents = csv.column("second_agent").unwrap().str().unwrap().clone();
    let (peaks, trees, moves) = (
        csv.column("second_peak_tree_bytes").unwrap().clone(),
        csv.column("second_tree_kb").unwrap().str().unwrap().clone(),
        csv.column("second_moves").unwrap().i64().unwrap().clone(),
    );
    for i in 0..csv.height() {
        let random = agents.get(i) == Some("popcoin");
        assert_eq!(
            peaks.get(i).unwrap().is_null(),
            random,
            "row {i}: a tree's bytes, or null without one"
        );
        match trees.get(i) {
            None => assert!(random, "row {i}: annealed UCT has a tree"),
            Some(field) => assert_eq!(
                field
                    .split(' ')
                    .filter(|x| x.parse::<f64>().is_ok())
                    .count() as i64,
                moves.get(i).unwrap(),
                "row {i}: {field}"
            ),
        }
    }
}

/// Like `rows`, for parts in either format.
fn rows_any(out: &Path, name: &str) -> BTreeMap<String, DataFrame> {
    let dir = out.join("results").join(name).join("games");
    std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            p.file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with("part-")
        })
        .map(|p| {
            (
                p.file_name().unwrap().to_string_lossy().into_owned(),
                read_part(&p).unwrap(),
            )
        })
        .collect()
}

#[test]
fn a_swept_stage_reports_each_board_once() {
    let dir = tempfile::tempdir().unwrap();
    let text = COLOSSEUM
        .replace("stage = \"sizes-5-9\"", "stage = \"size-5\"")
        .replace("games = 12", "games = 4")
        + "\n[grid]\nstage = [\"size-5\", \"size-6\", \"size-10\"]\n\n[report]\n[[report.tables]]\nname = \"by_size\"\ngroup_by = [\"agent\", \"stage\"]\n";
    let file = write(dir.path(), "col.toml", &text);
    let (f, out) = (file.to_str().unwrap(), dir.path().join("out"));
    run_ok(&["run", f, "--out", out.to_str().unwrap()]);
    run_ok(&["report", f, "--out", out.to_str().unwrap()]);
    let csv = std::fs::read_to_string(out.join("results/col/report/by_size.csv")).unwrap();
    let rows: Vec<&str> = csv.lines().skip(1).collect();
    assert_eq!(rows.len(), 6, "2 agents x 3 boards:\n{csv}");
    for size in ["size-5", "size-6", "size-10"] {
        let here: Vec<&&str> = rows
            .iter()
            .filter(|r| r.split(',').nth(1) == Some(size))
            .collect();
        assert_eq!(here.len(), 2, "{size}:\n{csv}");
        assert!(
            here.iter().all(|r| r.split(',').nth(2) == Some("4")),
            "4 games per agent on {size}:\n{csv}"
        );
    }
}

#[test]
fn tune_jobs_are_identical_on_one_and_two_threads_and_spend_their_game_budget() {
    let dir = tempfile::tempdir().unwrap();
    let file = write(dir.path(), "tune.toml", TUNE);
    let f = file.to_str().unwrap();
    let (one, two) = (dir.path().join("one"), dir.path().join("two"));
    run_ok(&["run", f, "--out", one.to_str().unwrap(), "--threads", "1"]);
    run_ok(&["run", f, "--out", two.to_str().unwrap(), "--threads", "2"]);
    let read = |out: &Path| -> BTreeMap<String, DataFrame> {
        let dir = out.join("results/tune/tuning");
        std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| {
                let p = e.unwrap().path();
                (
                    p.file_name().unwrap().to_string_lossy().into_owned(),
                    read_part(&p).unwrap(),
                )
            })
            .collect()
    };
    let (a, b) = (read(&one), read(&two));
    assert_same_rows(&a, &b);
    assert_eq!(a.len(), 3);
    for df in a.values() {
        let tuner = df
            .column("tuner")
            .unwrap()
            .str()
            .unwrap()
            .get(0)
            .unwrap()
            .to_string();
        let phase = df.column("phase").unwrap().str().unwrap();
        let tuning = phase.iter().filter(|p| *p == Some("tune")).count();
        let eval = phase.iter().filter(|p| *p == Some("eval")).count();
        // 8 tuning games for both tuners (GA: 2 generations x 2 individuals x 2 games), none for
        // the baseline; 4 evaluation games each.
        assert_eq!(
            (tuning, eval),
            (if tuner == "none" { 0 } else { 8 }, 4),
            "{tuner}"
        );
        let w = df.column("w_distance").unwrap().f64().unwrap();
        assert!(w.iter().all(|x| (0.0..=1.0).contains(&x.unwrap())));
        if tuner == "none" {
            assert!(w.iter().all(|x| x == Some(0.5)));
        }
        if tuner == "hillclimb" {
            // Each game's weights are the previous game's moved by the hill-climber's step.
            let (result, share) = (
                df.column("result").unwrap().f64().unwrap(),
                df.column("a_distance").unwrap().f64().unwrap(),
            );
            for i in 1..tuning {
                let expected = (w.get(i - 1).unwrap()
                    + 0.1 * (2.0 * result.get(i - 1).unwrap() - 1.0) * share.get(i - 1).unwrap())
                .clamp(0.0, 1.0);
                assert!((w.get(i).unwrap() - expected).abs() < 1e-12, "game {i}");
            }
        }
    }
    let o = gamelab(&["report", f, "--out", one.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let report = std::fs::read_to_string(one.join("results/tune/report/report.md")).unwrap();
    assert!(
        report.contains("The final weights") && report.contains("| hillclimb | distance |"),
        "{report}"
    );
}

const TSUMEGO_GA: &str = r#"
name = "tga"
kind = "tsumego_ga"
game = "tsumego"
stage = "tiny"
seed = 4
[library]
sets = 2
levels = "1-3"
per_level = 4
seed = 9
[tsumego_ga]
part = "dynamic"
fitness = "dynamic"
formula = 1
population = 4
children = 4
generations = GENERATIONS
checkpoint_s = 0.01
node_budget = 30000
train = { sets = [1], levels = "1-3", count = 6 }
test = { sets = [2], levels = "2-3" }
compare = { reference = "reference" }
"#;

/// Part files of `folder` under experiment `name`, with the time columns dropped.
fn solve_outputs(out: &Path, name: &str, folder: &str) -> BTreeMap<String, DataFrame> {
    let mut parts = BTreeMap::new();
    for entry in std::fs::read_dir(out.join("results").join(name).join(folder)).unwrap() {
        let path = entry.unwrap().path();
        let file = path.file_name().unwrap().to_string_lossy().into_owned();
        if file.starts_with("part-") {
            let df = read_part(&path).unwrap();
            let df = if folder == "solves" {
                df.drop_many(["time_s", "us_per_leaf"])
            } else {
                df
            };
            parts.insert(file, df);
        }
    }
    parts
}

#[test]
fn a_tsumego_ga_is_identical_on_one_and_two_threads_and_resumes_after_a_kill() {
    // Enough generations that the kill below lands in the GA: a generation of this tiny GA
    // takes about a millisecond (most children copy a parent and are not solved again).
    const GENERATIONS: i64 = 200;
    let dir = tempfile::tempdir().unwrap();
    let file = write(
        dir.path(),
        "tga.toml",
        &TSUMEGO_GA.replace("GENERATIONS", &GENERATIONS.to_string()),
    );
    let f = file.to_str().unwrap();
    let (one, two, killed) = (
        dir.path().join("one"),
        dir.path().join("two"),
        dir.path().join("killed"),
    );
    run_ok(&["run", f, "--out", one.to_str().unwrap(), "--threads", "1"]);
    run_ok(&["run", f, "--out", two.to_str().unwrap(), "--threads", "2"]);
    let (gens, tests) = (
        solve_outputs(&one, "tga", "generations"),
        solve_outputs(&one, "tga", "solves"),
    );
    assert_same_rows(&gens, &solve_outputs(&two, "tga", "generations"));
    assert_same_rows(&tests, &solve_outputs(&two, "tga", "solves"));
    let g = gens.values().next().unwrap();
    assert_eq!(
        g.height() as i64,
        4 * (GENERATIONS + 1),
        "generation 0 and {GENERATIONS} more, 4 individuals each"
    );
    // The best fitness never falls: parents survive unless children beat them.
    let generation: Vec<i64> = g
        .column("generation")
        .unwrap()
        .i64()
        .unwrap()
        .iter()
        .map(Option::unwrap)
        .collect();
    let fitness: Vec<f64> = g
        .column("fitness")
        .unwrap()
        .f64()
        .unwrap()
        .iter()
        .map(Option::unwrap)
        .collect();
    let best: Vec<f64> = (0..=GENERATIONS)
        .map(|k| {
            generation
                .iter()
                .zip(&fitness)
                .filter(|(g, _)| **g == k)
                .map(|(_, f)| *f)
                .fold(f64::MIN, f64::max)
        })
        .collect();
    assert!(best.windows(2).all(|w| w[1] >= w[0]), "{best:?}");
    // The test set (levels 2-3 of set 2: 8 problems) solved by the trained and reference weights:
    // weights change the cost, never the answer, so every problem solved within the node budget
    // has the status the library recorded.
    let t = tests.values().next().unwrap();
    assert_eq!(t.height(), 2 * 8);
    let correct: Vec<i64> = t
        .column("correct")
        .unwrap()
        .i64()
        .unwrap()
        .iter()
        .map(Option::unwrap)
        .collect();
    let budget_hit: Vec<i64> = t
        .column("budget_hit")
        .unwrap()
        .i64()
        .unwrap()
        .iter()
        .map(Option::unwrap)
        .collect();
    assert!(
        correct.iter().zip(&budget_hit).all(|(c, b)| c + b == 1),
        "{correct:?} {budget_hit:?}"
    );
    assert!(budget_hit.iter().sum::<i64>() < 8);

    // Killed after a checkpoint, then resumed: the same rows and weights.
    std::fs::create_dir_all(&killed).unwrap();
    // The library first, so the kill lands in the GA.
    let lib = gamelab::game::tsumego::library::LibrarySpec::generated(2, "1-3", 4, 9);
    lib.ensure(&killed, "tiny", Some(1)).unwrap();
    let checkpoints = killed.join("results/tga/checkpoints");
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_gamelab"))
        .args([
            "run",
            f,
            "--out",
            killed.to_str().unwrap(),
            "--threads",
            "1",
        ])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let t0 = Instant::now();
    while t0.elapsed() < Duration::from_secs(60)
        && std::fs::read_dir(&checkpoints)
            .map(|d| d.count())
            .unwrap_or(0)
            == 0
    {
        std::thread::sleep(Duration::from_millis(2));
    }
    std::thread::sleep(Duration::from_millis(20));
    child.kill().unwrap();
    child.wait().unwrap();
    let resumed_from_checkpoint = std::fs::read_dir(&checkpoints)
        .map(|d| d.count())
        .unwrap_or(0)
        > 0;
    run_ok(&["run", f, "--out", killed.to_str().unwrap()]);
    assert!(
        resumed_from_checkpoint,
        "the kill came after the run finished: make the GA longer"
    );
    assert_same_rows(&gens, &solve_outputs(&killed, "tga", "generations"));
    let weights = |out: &Path| {
        std::fs::read_dir(out.join("results/tga/tables"))
            .unwrap()
            .map(|e| std::fs::read_to_string(e.unwrap().path()).unwrap())
            .collect::<Vec<_>>()
    };
    assert_eq!(weights(&one), weights(&killed));

    // A solve experiment reads the trained weights by name; the report draws a profile.
    let solve = r#"
name = "tsolve"
kind = "solve"
game = "tsumego"
stage = "tiny"
[library]
sets = 2
levels = "1-3"
per_level = 4
seed = 9
[solve]
problems = { sets = [2], levels = "1-3" }
weights = { reference = "reference", zero = "zero", trained = "trained:tga" }
[[report.tables]]
name = "per_problem"
statistic = "mean"
metric = "leaves"
group_by = ["weights", "problem"]
hidden = true
[[report.tables]]
name = "within_budget"
statistic = "mean"
metric = "leaves"
group_by = ["weights"]
filter = { budget_hit = 0 }
[[report.figures]]
name = "profile"
kind = "profile"
table = "per_problem"
x = "weights"
new = "trained"
baseline = "reference"
"#;
    let sf = write(dir.path(), "tsolve.toml", solve);
    // Stale records of the GA with the same grid values: one from an older problem generator,
    // one from an older version of the experiment file (a hash the file no longer defines).
    // Alone they are never read, and beside the current one they do not make `trained:tga`
    // ambiguous.
    let jobs = one.join("results/tga/jobs");
    let record = std::fs::read_dir(&jobs)
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    let current: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&record).unwrap()).unwrap();
    let mut old_generator = current.clone();
    old_generator["hash"] = "0000000000000000".into();
    old_generator["config"]["stage"]["library"]["generator"] = 1.into();
    let mut old_file = current.clone();
    old_file["hash"] = "1111111111111111".into();
    for (name, stale, hash) in [
        ("tga-old", &old_generator, "0000000000000000"),
        ("tga-changed", &old_file, "1111111111111111"),
    ] {
        let stale_jobs = one.join("results").join(name).join("jobs");
        std::fs::create_dir_all(&stale_jobs).unwrap();
        std::fs::write(stale_jobs.join(format!("{hash}.json")), stale.to_string()).unwrap();
        if name == "tga-changed" {
            // The file changed after this record and ran again: its list names another job.
            std::fs::write(
                one.join("results").join(name).join("current-jobs.json"),
                format!("[\"{}\"]", current["hash"].as_str().unwrap()),
            )
            .unwrap();
        }
        let of = write(
            dir.path(),
            "told.toml",
            &solve
                .replace("tsolve", "told")
                .replace("trained:tga", &format!("trained:{name}")),
        );
        let o = gamelab(&["run", of.to_str().unwrap(), "--out", one.to_str().unwrap()]);
        assert!(
            !o.status.success() && stderr(&o).contains("no results of its current jobs"),
            "{name}: {}",
            stderr(&o)
        );
        assert!(
            !one.join("results/told").exists(),
            "a run whose weights cannot be read writes nothing"
        );
        std::fs::write(jobs.join(format!("{hash}.json")), stale.to_string()).unwrap();
    }
    run_ok(&["run", sf.to_str().unwrap(), "--out", one.to_str().unwrap()]);
    let rows = solve_outputs(&one, "tsolve", "solves");
    let r = rows.values().next().unwrap();
    assert_eq!(r.height(), 3 * 12);

    // A checkout with the GA's kept report and file but none of its results (a fresh clone):
    // the solve reads the kept weights, the very numbers, so its rows are the same.
    let kept_out = |name: &str, ga_file: &str| {
        let out = dir.path().join(name);
        run_ok(&[
            "report",
            f,
            "--out",
            one.to_str().unwrap(),
            "--keep",
            out.join("docs/reports").to_str().unwrap(),
        ]);
        std::fs::create_dir_all(out.join("experiments")).unwrap();
        std::fs::write(out.join("experiments/tga.toml"), ga_file).unwrap();
        out
    };
    let ga_text = std::fs::read_to_string(&file).unwrap();
    let fresh = kept_out("fresh", &ga_text);
    assert!(fresh.join("docs/reports/tga/trained_weights.csv").is_file());
    let o = gamelab(&[
        "run",
        sf.to_str().unwrap(),
        "--out",
        fresh.to_str().unwrap(),
    ]);
    assert!(
        o.status.success() && stderr(&o).contains("reading the weights of its kept report"),
        "{}",
        stderr(&o)
    );
    assert_same_rows(&rows, &solve_outputs(&fresh, "tsolve", "solves"));
    // The GA's file changed since its report was kept: the kept weights are not its weights.
    let edited = ga_text.replace(
        &format!("generations = {GENERATIONS}"),
        &format!("generations = {}", GENERATIONS + 1),
    );
    assert_ne!(ga_text, edited);
    let stale = kept_out("stale", &edited);
    let o = gamelab(&[
        "run",
        sf.to_str().unwrap(),
        "--out",
        stale.to_str().unwrap(),
    ]);
    assert!(
        !o.status.success() && stderr(&o).contains("another version of"),
        "{}",
        stderr(&o)
    );
    assert!(!stale.join("results/tsolve").exists());
    run_ok(&[
        "report",
        sf.to_str().unwrap(),
        "--out",
        one.to_str().unwrap(),
    ]);
    assert!(one.join("figures/tsolve/profile.png").exists());
    // `filter = { budget_hit = 0 }` keeps the solves that ended within the node budget.
    let within: i64 = r
        .column("budget_hit")
        .unwrap()
        .i64()
        .unwrap()
        .iter()
        .filter(|b| *b == Some(0))
        .count() as i64;
    let csv = std::fs::read_to_string(one.join("results/tsolve/report/within_budget.csv")).unwrap();
    let header: Vec<&str> = csv.lines().next().unwrap().split(',').collect();
    let n_at = header.iter().position(|c| *c == "n").unwrap();
    let counted: i64 = csv
        .lines()
        .skip(1)
        .map(|l| l.split(',').nth(n_at).unwrap().parse::<i64>().unwrap())
        .sum();
    assert_eq!(counted, within, "{csv}");

    // The GA trained again (here: its best weights replaced by zero ones): the solve job, whose
    // hash names only the source, runs again with the new numbers; unchanged, it is skipped.
    let again = gamelab(&["run", sf.to_str().unwrap(), "--out", one.to_str().unwrap()]);
    assert!(
        again.status.success() && !stderr(&again).contains("running it again"),
        "{}",
        stderr(&again)
    );
    let weights_file = std::fs::read_dir(one.join("results/tga/tables"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|e| e == "weights"))
        .unwrap();
    std::fs::write(
        &weights_file,
        gamelab::game::tsumego::heuristic::weights_text(&gamelab::game::tsumego::Weights::zero()),
    )
    .unwrap();
    let retrained = gamelab(&["run", sf.to_str().unwrap(), "--out", one.to_str().unwrap()]);
    assert!(
        retrained.status.success() && stderr(&retrained).contains("running it again"),
        "{}",
        stderr(&retrained)
    );
    let rows = solve_outputs(&one, "tsolve", "solves");
    let r = rows.values().next().unwrap();
    assert_eq!(r.height(), 3 * 12);
    let text = |name: &str| -> Vec<String> {
        r.column(name)
            .unwrap()
            .str()
            .unwrap()
            .iter()
            .map(|v| v.unwrap().to_string())
            .collect()
    };
    let (labels, problems) = (text("weights"), text("problem"));
    let leaves: Vec<i64> = r
        .column("leaves")
        .unwrap()
        .i64()
        .unwrap()
        .iter()
        .map(Option::unwrap)
        .collect();
    let leaves_of = |label: &str| -> BTreeMap<&String, i64> {
        (0..r.height())
            .filter(|&i| labels[i] == label)
            .map(|i| (&problems[i], leaves[i]))
            .collect()
    };
    assert_eq!(leaves_of("trained").len(), 12);
    assert_eq!(leaves_of("trained"), leaves_of("zero"));
}

#[test]
fn every_colosseum_row_replays_from_its_start_position_to_its_final_scores() {
    use gamelab::game::Game;
    let text = COLOSSEUM
        .replace("games = 12", "games = 300")
        .replace(
            "kind = \"annealed_uct\"\nsimulations = 300",
            "kind = \"course_random\"",
        )
        .replace("kind = \"popcoin\"\niterations = 300", "kind = \"random\"");
    let dir = tempfile::tempdir().unwrap();
    let file = write(dir.path(), "col.toml", &text);
    let out = dir.path().join("out");
    run_ok(&[
        "run",
        file.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    let parts = rows(&out, "col");
    let df = parts.values().next().unwrap();
    assert_eq!(df.height(), 300);
    let col = |name: &str| -> Vec<String> {
        df.column(name)
            .unwrap()
            .cast(&polars::prelude::DataType::String)
            .unwrap()
            .str()
            .unwrap()
            .iter()
            .map(|v| v.unwrap_or("").to_string())
            .collect()
    };
    let (starts, transcripts, firsts, seconds, stages) = (
        col("start_position"),
        col("transcript"),
        col("first_score"),
        col("second_score"),
        col("stage"),
    );
    for i in 0..df.height() {
        let mut g = gamelab::game::colosseum::text::parse(&starts[i])
            .unwrap_or_else(|e| panic!("row {i}: {e}"));
        assert_eq!(format!("size-{}", g.size()), stages[i]);
        let mut legal = Vec::new();
        for name in transcripts[i].split_inclusive(')') {
            legal.clear();
            g.legal_moves(&mut legal);
            let mv = *legal
                .iter()
                .find(|&&m| g.move_name(m) == name)
                .unwrap_or_else(|| panic!("row {i}: {name} is not legal"));
            g.play(mv);
        }
        assert!(g.outcome().is_some(), "row {i}: the replayed game is over");
        let s = g.scores();
        assert_eq!(
            (s[0].to_string(), s[1].to_string()),
            (firsts[i].clone(), seconds[i].clone()),
            "row {i}"
        );
    }
}

#[test]
fn the_report_says_when_games_repeat() {
    let file_of = |a: &str, b: &str| {
        format!(
            "name = \"rep\"\nkind = \"match\"\ngame = \"othello\"\nstage = \"standard8\"\nseed = 1\n[match]\nplayers = [\"x\", \"y\"]\ngames = 20\n[agents.x]\nkind = \"{a}\"\n[agents.y]\nkind = \"{b}\"\n"
        )
    };
    for (a, b, repeated) in [("greedy", "positional", true), ("random", "random", false)] {
        let dir = tempfile::tempdir().unwrap();
        let file = write(dir.path(), "rep.toml", &file_of(a, b));
        let out = dir.path().join("out");
        run_ok(&[
            "run",
            file.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ]);
        let o = gamelab(&[
            "report",
            file.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
        let md = std::fs::read_to_string(out.join("results/rep/report/report.md")).unwrap();
        assert_eq!(
            md.contains("**Repeated games:**"),
            repeated,
            "{a} vs {b}: {md}"
        );
        assert_eq!(
            stderr(&o).contains("distinct games of 20"),
            repeated,
            "{a} vs {b}: {}",
            stderr(&o)
        );
        // The warning says how to fix it, with the suite shipped for the file's stage.
        assert_eq!(
            stderr(&o).contains("[openings]"),
            repeated,
            "{}",
            stderr(&o)
        );
        assert_eq!(
            stderr(&o).contains(
                "openings/othello-standard8.txt\" (the suite shipped for stage standard8)"
            ),
            repeated,
            "{}",
            stderr(&o)
        );
        if repeated {
            // Two deterministic agents from one start: one game per colour assignment.
            assert!(
                md.contains("| x | 20 | 2 | 10.0 |") && md.contains("| y | 20 | 2 | 10.0 |"),
                "{md}"
            );
        }
    }
}

/// Writes experiment `text` as `<name>.toml` in a new folder and runs it: the folder, the file,
/// the output root and the game rows (by part file).
fn played(
    name: &str,
    text: &str,
) -> (
    tempfile::TempDir,
    std::path::PathBuf,
    std::path::PathBuf,
    BTreeMap<String, DataFrame>,
) {
    let (dir, file, out) = ran(name, text);
    let parts = rows(&out, name);
    (dir, file, out, parts)
}

/// `played` without reading the rows (for job kinds whose rows are not games).
fn ran(name: &str, text: &str) -> (tempfile::TempDir, std::path::PathBuf, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let file = write(dir.path(), &format!("{name}.toml"), text);
    let out = dir.path().join("out");
    run_ok(&[
        "run",
        file.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    (dir, file, out)
}

#[test]
fn a_match_with_the_shipped_suite_plays_each_opening_once_with_each_colour() {
    let suite = Path::new(env!("CARGO_MANIFEST_DIR")).join("openings/othello-standard8.txt");
    let lines: Vec<String> = std::fs::read_to_string(&suite)
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(str::to_string)
        .collect();
    assert!(lines.len() > 1000, "the suite has {} openings", lines.len());
    let text = format!(
        "name = \"suite\"\nkind = \"match\"\ngame = \"othello\"\nstage = \"standard8\"\nseed = 1\n[match]\nplayers = [\"x\", \"y\"]\ngames = {}\n[openings]\nfile = \"{}\"\n[agents.x]\nkind = \"greedy\"\n[agents.y]\nkind = \"positional\"\n",
        2 * lines.len(),
        suite.display()
    );
    let (_dir, file, out, parts) = played("suite", &text);
    let df = parts.values().next().unwrap();
    let (keys, openings, transcripts, firsts) = (
        texts(df, "game_key"),
        texts(df, "opening"),
        texts(df, "transcript"),
        texts(df, "first_agent"),
    );
    // Two deterministic agents: one game per opening and colour assignment, all distinct.
    assert_eq!(
        keys.iter().collect::<std::collections::BTreeSet<_>>().len(),
        2 * lines.len()
    );
    for (k, line) in lines.iter().enumerate() {
        for g in [2 * k, 2 * k + 1] {
            assert_eq!(&openings[g], line, "game {g}");
            assert!(
                transcripts[g].starts_with(line.as_str()),
                "game {g}: {}",
                transcripts[g]
            );
        }
        assert_ne!(firsts[2 * k], firsts[2 * k + 1], "a pair swaps colours");
    }
    let o = gamelab(&[
        "report",
        file.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(
        o.status.success() && !stderr(&o).contains("distinct games"),
        "{}",
        stderr(&o)
    );
    let md = std::fs::read_to_string(out.join("results/suite/report/report.md")).unwrap();
    assert!(!md.contains("Repeated games"), "{md}");
}

#[test]
fn othello_transcripts_replay_through_show_to_the_recorded_disc_counts() {
    let inline = "{ id = \"flags6\", size = 6, black = [[2, 3], [3, 2]], white = [[2, 2], [3, 3]], fewer_pieces_continue = true, ignore_occlusion = true }";
    for (stage, arg) in [("\"standard8\"", "standard8"), (inline, inline)] {
        let text = format!(
            "name = \"tr\"\nkind = \"match\"\ngame = \"othello\"\nstage = {stage}\nseed = 3\n[match]\nplayers = [\"r\", \"g\"]\ngames = 16\n[openings]\nrandom_plies = 4\norder = \"random\"\n[agents.r]\nkind = \"random\"\n[agents.g]\nkind = \"greedy\"\n"
        );
        let (_dir, _, _, parts) = played("tr", &text);
        let df = parts.values().next().unwrap();
        let (transcripts, firsts, seconds, openings) = (
            texts(df, "transcript"),
            texts(df, "first_score"),
            texts(df, "second_score"),
            texts(df, "opening"),
        );
        for i in 0..df.height() {
            assert_eq!(
                openings[i].len(),
                8,
                "four plies without a pass: {}",
                openings[i]
            );
            let o = gamelab(&[
                "show",
                "--game",
                "othello",
                "--stage",
                arg,
                "--moves",
                &transcripts[i],
            ]);
            assert!(o.status.success(), "{}", stderr(&o));
            let shown = String::from_utf8_lossy(&o.stdout);
            let expected = format!("discs: black {}, white {}", firsts[i], seconds[i]);
            assert!(
                shown.contains("# game over") && shown.contains(&expected),
                "{stage} row {i}: expected {expected} in\n{shown}"
            );
        }
        // Pairs share their opening.
        for pair in openings.chunks(2) {
            assert_eq!(pair[0], pair[1]);
        }
    }
}

#[test]
fn replay_prints_a_game_and_games_writes_every_job_as_records() {
    let text = COLOSSEUM
        .replace("games = 12", "games = 6")
        .replace(
            "kind = \"annealed_uct\"\nsimulations = 300",
            "kind = \"course_random\"",
        )
        .replace("kind = \"popcoin\"\niterations = 300", "kind = \"random\"");
    let (dir, file, out, parts) = played("col", &text);
    let df = parts.values().next().unwrap();
    let job = texts(df, "job")[0].clone();
    let o = gamelab(&[
        "replay",
        file.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--job",
        &job[..6],
        "--game",
        "3",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let shown = String::from_utf8_lossy(&o.stdout);
    assert!(
        shown.contains(&format!("job {job} game 3")) && shown.trim_end().ends_with("(as recorded)"),
        "{shown}"
    );
    // One position per move, after the start.
    let plies: usize = texts(df, "plies")[3].parse().unwrap();
    assert_eq!(shown.matches("\n# ").count(), 1 + plies + 1, "{shown}");

    let records = dir.path().join("records");
    let o = gamelab(&[
        "games",
        file.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--to",
        records.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let written = std::fs::read_to_string(records.join(format!("{job}.txt"))).unwrap();
    // Each block: its start position between braces, then its moves; replayed, the scores match.
    let (starts, scores) = (
        texts(df, "start_position"),
        (texts(df, "first_score"), texts(df, "second_score")),
    );
    let blocks: Vec<&str> = written.split("[Game \"").skip(1).collect();
    assert_eq!(blocks.len(), 6);
    for (i, block) in blocks.iter().enumerate() {
        let start = block
            .split_once("{\n")
            .unwrap()
            .1
            .split_once("\n}")
            .unwrap()
            .0;
        assert_eq!(start.trim_end(), starts[i].trim_end());
        let moves = block.split_once("\n}\n").unwrap().1.lines().next().unwrap();
        let o = gamelab(&[
            "show",
            "--game",
            "colosseum",
            "--position",
            &write(dir.path(), "start.txt", start).to_string_lossy(),
            "--moves",
            moves,
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
        let shown = String::from_utf8_lossy(&o.stdout);
        assert!(
            shown.contains(&format!("regions A {} : B {}", scores.0[i], scores.1[i])),
            "game {i}: {shown}"
        );
    }
    // Bad requests: one line, exit 2.
    let o = gamelab(&[
        "replay",
        file.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--job",
        "zzzz",
        "--game",
        "0",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
}

#[test]
fn games_writes_solve_rows_as_sgf_with_the_solvers_main_line() {
    let text = "name = \"sv\"\nkind = \"solve\"\ngame = \"tsumego\"\nstage = \"tiny\"\n[library]\nsets = 2\nlevels = \"1-3\"\nper_level = 4\nseed = 9\n[solve]\nproblems = { sets = [2], levels = \"1-3\" }\nweights = { reference = \"reference\", zero = \"zero\" }\n";
    let (dir, file, out) = ran("sv", text);
    let rows = solve_outputs(&out, "sv", "solves");
    let (job, df) = rows.iter().next().unwrap();
    let records = dir.path().join("records");
    let o = gamelab(&[
        "games",
        file.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--to",
        records.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let hash = job.trim_start_matches("part-").split('.').next().unwrap();
    let sgf = std::fs::read_to_string(records.join(format!("{hash}.sgf"))).unwrap();
    let trees: Vec<&str> = sgf.split_inclusive(")\n").collect();
    assert_eq!(trees.len(), df.height());
    let (weights, problems, statuses) = (
        texts(df, "weights"),
        texts(df, "problem"),
        texts(df, "status"),
    );
    let mut lines = 0;
    for (i, tree) in trees.iter().enumerate() {
        // The tree reads back as the row's problem; its comment gives the row's status.
        let p = gamelab::game::tsumego::parse_sgf(tree)
            .unwrap_or_else(|e| panic!("tree {i}: {e:?}\n{tree}"));
        assert_eq!(p.name, format!("{}_{}", weights[i], problems[i]));
        assert!(
            tree.contains(&format!("weights {}; status {} (", weights[i], statuses[i])),
            "{tree}"
        );
        lines += tree.matches(";B[").count() + tree.matches(";W[").count();
    }
    assert!(lines > trees.len(), "the trees carry main lines: {sgf}");
}

/// An experiment with published values for the summary tests: greedy against random, a
/// reference whose values `GREEDY` and `RANDOM` each test fills in.
const CLAIMS: &str = r#"
name = "claims"
kind = "match"
game = "othello"
stage = "small6"
seed = 5
[match]
players = ["greedy", "random"]
games = 200
[openings]
random_plies = 2
[agents.greedy]
kind = "greedy"
[agents.random]
kind = "random"
[[report.tables]]
name = "scores"
statistic = "score"
group_by = ["agent"]
[[report.reference]]
table = "scores"
source = "A made-up paper"
keys = ["agent"]
n = 40
rows = [["greedy", "GREEDY"], ["random", "RANDOM"], ["nobody", 50.0]]
reversal = "The made-up paper's random agent read the board upside down."
"#;

/// The claims experiment under another name, its published rows given as numbers.
fn claims_named(name: &str) -> String {
    CLAIMS
        .replace("name = \"claims\"", &format!("name = \"{name}\""))
        .replace("\"GREEDY\"", "80.0")
        .replace("\"RANDOM\"", "50.0")
}

/// A report made from an earlier version of its experiment file (its jobs are no longer the
/// file's) is left out of the summary, saying so, until the file is run and reported again.
#[test]
fn a_summary_names_a_report_of_an_earlier_version_of_its_file_stale() {
    let text = claims_named("edited").replace("games = 200", "games = 40");
    let dir = tempfile::tempdir().unwrap();
    let file = write(dir.path(), "edited.toml", &text);
    let (f, out) = (file.to_str().unwrap(), dir.path().join("out"));
    let o = out.to_str().unwrap();
    run_ok(&["run", f, "--out", o]);
    run_ok(&["report", f, "--out", o]);
    let summarise = || {
        let r = gamelab(&["summary", f, "--out", o]);
        assert!(r.status.success(), "{}", stderr(&r));
        (
            std::fs::read_to_string(out.join("results/summary.md")).unwrap(),
            stderr(&r),
        )
    };
    let (md, _) = summarise();
    assert!(md.contains("| edited |"), "{md}");
    // The file now asks for other games: the report on disk is of the old ones.
    write(
        dir.path(),
        "edited.toml",
        &text.replace("games = 40", "games = 60"),
    );
    let (md, err) = summarise();
    assert!(
        md.contains("| edited (stale) |")
            && md.contains("1 of them stale, made from an earlier version of their file: edited")
            && md.contains("; **stale**: made from an earlier version of the file")
            && err.contains("named stale on the page: edited"),
        "{md}\n{err}"
    );
    run_ok(&["run", f, "--out", o]);
    run_ok(&["report", f, "--out", o]);
    let (md, err) = summarise();
    assert!(
        md.contains("| edited |") && !md.contains("stale") && !err.contains("earlier"),
        "{md}\n{err}"
    );
}

/// A report made before its run had every job is named on the summary page as such, with its
/// jobs, until the run ends and is reported again.
#[test]
fn a_summary_says_which_reports_were_made_before_their_runs_ended() {
    // The claims experiment in two jobs, under another name.
    let text = claims_named("halfway").replace("seed = 5\n", "seed = 5\nrepeats = 2\n");
    let dir = tempfile::tempdir().unwrap();
    let file = write(dir.path(), "halfway.toml", &text);
    let (f, out) = (file.to_str().unwrap(), dir.path().join("out"));
    let o = out.to_str().unwrap();
    let report_and_summarise = || {
        for args in [
            vec!["report", f, "--out", o],
            vec!["summary", f, "--out", o],
        ] {
            let r = gamelab(&args);
            assert!(r.status.success(), "{}", stderr(&r));
        }
        std::fs::read_to_string(out.join("results/summary.md")).unwrap()
    };
    run_ok(&["run", f, "--out", o, "--shard", "1/2"]);
    let md = report_and_summarise();
    assert!(
        md.contains("Reported before their runs ended: halfway (1 of 2 jobs)")
            && md.contains("| halfway (1 of 2 jobs) |")
            && md.contains("**an unfinished run: 1 of 2 jobs**"),
        "{md}"
    );
    run_ok(&["run", f, "--out", o]);
    let md = report_and_summarise();
    assert!(
        !md.contains("before their runs ended")
            && !md.contains("unfinished")
            && md.contains("| halfway |"),
        "{md}"
    );
}

/// A file whose `[report]` says why its report is not kept (`not_kept`) is listed with that
/// reason under "Not in this page" of a page made from kept reports, not as "not reported yet";
/// summarised from a results folder it is just not reported yet.
#[test]
fn a_summary_lists_a_file_that_says_why_its_report_is_not_kept_with_its_reason() {
    let text = claims_named("too_long").replace(
        "[[report.tables]]",
        "[report]\nnot_kept = \"a week on 2 cores; claims.toml stands in.\"\n\n[[report.tables]]",
    );
    let dir = tempfile::tempdir().unwrap();
    let file = write(dir.path(), "too_long.toml", &text);
    let (kept, out) = (dir.path().join("kept"), dir.path().join("out"));
    std::fs::create_dir_all(&kept).unwrap();
    // Without --page: a page is only written once some experiment has been reported.
    let summarise = |extra: &[&str]| {
        let mut args = vec![
            "summary",
            file.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ];
        args.extend_from_slice(extra);
        let r = gamelab(&args);
        assert!(r.status.success(), "{}", stderr(&r));
        (
            std::fs::read_to_string(out.join("results/summary.md")).unwrap(),
            stderr(&r),
        )
    };
    let (md, err) = summarise(&["--reports", kept.to_str().unwrap()]);
    assert!(
        md.contains("Not kept: 1 experiment file with published values")
            && md.contains("## Not in this page")
            && md.contains("Not kept: a week on 2 cores; claims.toml stands in.")
            && !md.contains("Not reported yet")
            && err.contains("not kept, as their files say (not_kept): too_long")
            && !err.contains("not reported yet"),
        "{md}\n{err}"
    );
    let (md, err) = summarise(&[]);
    assert!(
        md.contains("Not reported yet: 1 experiment file")
            && !md.contains("Not kept")
            && err.contains("not reported yet: too_long"),
        "{md}\n{err}"
    );
}

#[test]
fn the_summary_page_lists_every_published_value_with_its_two_sample_verdict() {
    let text = CLAIMS;
    // Read greedy's measured score first, then claim it (consistent) and a reversal for random.
    let (dir, file, out, _) = played(
        "claims",
        &text
            .replace("\"GREEDY\"", "50.0")
            .replace("\"RANDOM\"", "50.0"),
    );
    let o = gamelab(&[
        "report",
        file.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let scores = std::fs::read_to_string(out.join("results/claims/report/scores.csv")).unwrap();
    let greedy: f64 = scores
        .lines()
        .find(|l| l.starts_with("greedy,"))
        .unwrap()
        .split(',')
        .nth(5)
        .unwrap()
        .parse()
        .unwrap();
    assert!(greedy > 60.0, "greedy beats random on 6x6: {scores}");
    let claimed = text
        .replace("\"GREEDY\"", &format!("{greedy:.1}"))
        .replace("\"RANDOM\"", "80.0");
    let file = write(dir.path(), "claims.toml", &claimed);
    let o = gamelab(&[
        "report",
        file.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let page = dir.path().join("docs/reproduction.md");
    std::fs::create_dir_all(page.parent().unwrap()).unwrap();
    // Nothing reported under another root: the page is not overwritten with an empty one.
    std::fs::write(&page, "the record\n").unwrap();
    let summarise = |root: &Path| {
        gamelab(&[
            "summary",
            file.to_str().unwrap(),
            "--out",
            root.to_str().unwrap(),
            "--page",
            page.to_str().unwrap(),
        ])
    };
    let o = summarise(&dir.path().join("nothing-run"));
    assert!(
        !o.status.success() && stderr(&o).contains("left as it is"),
        "{}",
        stderr(&o)
    );
    assert_eq!(std::fs::read_to_string(&page).unwrap(), "the record\n");
    let o = summarise(&out);
    assert!(o.status.success(), "{}", stderr(&o));
    let md = std::fs::read_to_string(out.join("results/summary.md")).unwrap();
    // The page is the same text, marked as written by the summary.
    let written = std::fs::read_to_string(&page).unwrap();
    assert!(written.starts_with("<!-- Written by `gamelab summary`") && written.ends_with(&md));
    // The reversal is listed once with the file's explanation, and the report's provenance named.
    assert!(
        md.contains("## Reversals")
            && md.contains("**claims**, scores, agent=random: paper 80, ours")
            && md.contains("read the board upside down"),
        "{md}"
    );
    assert!(
        md.contains("## Where the numbers come from") && md.contains("commit "),
        "{md}"
    );
    let line = |agent: &str| {
        md.lines()
            .find(|l| l.contains(&format!("agent={agent} ")))
            .unwrap_or_else(|| panic!("{agent}: {md}"))
            .to_string()
    };
    assert!(
        line("greedy").contains("| consistent |") && line("greedy").contains("(n 40)"),
        "{md}"
    );
    assert!(line("random").contains("**sign differs**"), "{md}");
    assert!(
        line("nobody").contains("not comparable: no measured row"),
        "{md}"
    );
    assert!(md.contains("3 published values from 1 experiment:"), "{md}");
    let csv = std::fs::read_to_string(out.join("results/summary.csv")).unwrap();
    assert!(
        csv.starts_with("experiment,table,source,keys,published,paper_n"),
        "{csv}"
    );
    assert_eq!(csv.lines().count(), 4);

    // Kept (`report --keep`), the report's tables and the file go to docs/reports/claims/, and a
    // summary from there alone, on a root where nothing ran, writes the same page; a kept
    // report whose file changed since is named stale there.
    let kept = dir.path().join("docs/reports");
    let keep = || {
        let o = gamelab(&[
            "report",
            file.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--keep",
            kept.to_str().unwrap(),
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
    };
    keep();
    let mut names: Vec<String> = std::fs::read_dir(kept.join("claims"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(
        names,
        [
            "comparisons.csv",
            "experiment.toml",
            "jobs.json",
            "report.md",
            "run-times.csv",
            "scores.csv"
        ]
    );
    assert_eq!(
        std::fs::read_to_string(kept.join("claims/experiment.toml")).unwrap(),
        claimed
    );
    let from_kept = || {
        gamelab(&[
            "summary",
            file.to_str().unwrap(),
            "--out",
            dir.path().join("elsewhere").to_str().unwrap(),
            "--page",
            page.to_str().unwrap(),
            "--reports",
            kept.to_str().unwrap(),
        ])
    };
    let o = from_kept();
    assert!(o.status.success(), "{}", stderr(&o));
    let rebuilt = std::fs::read_to_string(&page).unwrap();
    let table_rows = |t: &str| {
        t.lines()
            .filter(|l| l.starts_with("| claims") || l.starts_with("- **claims**"))
            .map(String::from)
            .collect::<Vec<_>>()
    };
    assert_eq!(table_rows(&rebuilt), table_rows(&written));
    assert!(
        rebuilt.contains("kept in `")
            && rebuilt.contains("`: commit ")
            && !rebuilt.contains("stale"),
        "{rebuilt}"
    );
    // The run's wall time (one run here) is on the page's table of costs.
    let cost = rebuilt
        .lines()
        .find(|l| l.starts_with("| `") && l.contains("claims.toml"))
        .unwrap_or_else(|| panic!("{rebuilt}"));
    let cells: Vec<&str> = cost.split('|').map(str::trim).collect();
    assert!(
        cells[2].ends_with(" s") && cells[3] == "1" && cells[4].parse::<usize>().unwrap() >= 1,
        "{cost}"
    );
    write(
        dir.path(),
        "claims.toml",
        &claimed.replace("games = 200", "games = 201"),
    );
    let o = from_kept();
    assert!(o.status.success(), "{}", stderr(&o));
    let after_edit = std::fs::read_to_string(&page).unwrap();
    assert!(
        after_edit.contains("| claims (stale) |") && after_edit.contains("; **stale**"),
        "{after_edit}"
    );
    // Keeping again replaces the folder whole.
    std::fs::write(kept.join("claims/extra.txt"), "x").unwrap();
    write(dir.path(), "claims.toml", &claimed);
    keep();
    assert!(!kept.join("claims/extra.txt").exists());
    assert_eq!(
        std::fs::read_dir(&kept).unwrap().count(),
        1,
        "no leftover folders"
    );

    // The page judges kept rows by the file as it is now: a reference the file calls not
    // comparable shows ours with the file's reason, counted apart, without a new report (its
    // jobs are the same: not stale).
    let apart = claimed.replace(
        "reversal = ",
        "not_comparable = \"the made-up paper counted moves, not games\"\nreversal = ",
    );
    write(dir.path(), "claims.toml", &apart);
    let o = from_kept();
    assert!(o.status.success(), "{}", stderr(&o));
    let page_text = std::fs::read_to_string(&page).unwrap();
    assert!(
        !page_text.contains("stale")
            && page_text.contains(
                "3 published values from 1 experiment: 3 not comparable, as their files say"
            )
            && table_rows(&page_text)
                .iter()
                .filter(|l| l.starts_with("| claims"))
                .all(|l| l.contains(
                    "not comparable: the made-up paper counted moves, not games (the file says so)"
                )),
        "{page_text}"
    );
    assert!(
        !page_text.contains("## Reversals"),
        "a row not judged is no reversal: {page_text}"
    );
    // A table measured otherwise now (its definition changed) is not taken from the kept
    // report: the page says its values are not in it.
    let redefined = claimed.replace(
        "name = \"scores\"\n",
        "name = \"scores\"\nfilter = { opponent = \"greedy\" }\n",
    );
    assert_ne!(redefined, claimed);
    write(dir.path(), "claims.toml", &redefined);
    let o = from_kept();
    assert!(o.status.success(), "{}", stderr(&o));
    let page_text = std::fs::read_to_string(&page).unwrap();
    assert!(
        page_text.contains(
            "**3 published values of the file not in its kept report** (report it again)"
        ) && page_text.contains("3 kept rows the file no longer claims")
            && table_rows(&page_text)
                .iter()
                .all(|l| !l.starts_with("| claims")),
        "{page_text}"
    );
}

/// The browser the HTML report test drives: `GAMELAB_CHROMIUM`, else chromium on the PATH.
fn chromium() -> Option<std::path::PathBuf> {
    if let Some(p) = std::env::var_os("GAMELAB_CHROMIUM") {
        return Some(p.into());
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .flat_map(|d| ["chromium", "chromium-browser", "google-chrome"].map(|b| d.join(b)))
        .find(|p| p.is_file())
}

/// Runs headless Chromium on `url` with `what` (`--dump-dom`, `--screenshot=FILE`).
fn headless(browser: &Path, url: &str, what: &str, profile: &Path) -> String {
    let o = std::process::Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-dev-shm-usage",
            "--no-first-run",
            "--window-size=1200,1400",
            "--virtual-time-budget=10000",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg(what)
        .arg(url)
        .output()
        .expect("chromium runs");
    assert!(
        o.status.success(),
        "chromium {what} {url} failed: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn unescape(s: &str) -> String {
    s.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&amp;", "&")
}

/// The text between `start` (its first occurrence) and the next `end`.
fn between<'a>(s: &'a str, start: &str, end: &str) -> &'a str {
    let i = s
        .find(start)
        .unwrap_or_else(|| panic!("no {start} in the page"))
        + start.len();
    &s[i..i + s[i..].find(end).expect("closed")]
}

#[test]
fn the_html_report_shows_every_table_and_figure_and_its_viewer_steps_games_and_problems_to_their_recorded_ends()
 {
    let Some(browser) = chromium() else {
        assert!(
            std::env::var_os("REQUIRE_CHROMIUM").is_none(),
            "REQUIRE_CHROMIUM is set but no chromium was found (make chromium installs it)"
        );
        eprintln!("HTML report browser test SKIPPED: no chromium (make chromium installs it)");
        return;
    };
    let othello = "name = \"oth\"\nkind = \"tournament\"\ngame = \"othello\"\nstage = \"small6\"\nseed = 3\n[tournament]\nrounds = 3\n[agents.random]\nkind = \"random\"\n[agents.greedy]\nkind = \"greedy\"\n[agents.corners]\nkind = \"corners\"\n";
    let colosseum = COLOSSEUM
        .replace("games = 12", "games = 4")
        .replace(
            "kind = \"annealed_uct\"\nsimulations = 300",
            "kind = \"course_random\"",
        )
        .replace("kind = \"popcoin\"\niterations = 300", "kind = \"random\"");
    let freckers = "name = \"fre\"\nkind = \"match\"\ngame = \"freckers\"\nstage = \"standard\"\nseed = 5\n[match]\nplayers = [\"a\", \"b\"]\ngames = 4\n[agents.a]\nkind = \"random_greedy\"\n[agents.b]\nkind = \"greedy\"\n";
    let shots = Path::new(env!("CARGO_TARGET_TMPDIR")).join("html-report");
    std::fs::create_dir_all(&shots).unwrap();
    for (name, text) in [
        ("oth", othello),
        ("col", colosseum.as_str()),
        ("fre", freckers),
    ] {
        let (dir, file, out) = ran(name, text);
        run_ok(&[
            "report",
            file.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ]);
        let report = out.join("results").join(name).join("report");
        let md = std::fs::read_to_string(report.join("report.md")).unwrap();
        let page = report.join("report.html");
        let url = format!("file://{}#game=1&ply=last", page.display());
        let dom = headless(&browser, &url, "--dump-dom", &dir.path().join("profile"));
        // Every table and figure of report.md is on the page, the figures as inline SVG.
        let tables = md.lines().filter(|l| l.starts_with("|---")).count();
        assert!(
            tables >= 1 && dom.matches("<table class=\"sortable\">").count() == tables,
            "{name}: {tables} tables in report.md"
        );
        let figures = md.lines().filter(|l| l.starts_with("![")).count();
        let inlined = dom
            .split("<figure class=\"figure\"")
            .skip(1)
            .filter(|f| f.trim_start_matches(|c| c != '>').starts_with("><svg"))
            .count();
        assert!(
            figures >= 1 && inlined == figures,
            "{name}: {figures} figures in report.md, {inlined} inlined"
        );
        assert!(
            dom.contains("<h2 id=\"settings\">Settings</h2>"),
            "{name}: the settings"
        );
        // The viewer opened game index 1 at its last move, the position the engines recorded.
        let result = unescape(between(&dom, "<p id=\"result\">", "</p>"));
        let (job, game) = {
            let rest = result.strip_prefix("job ").expect("the game's title");
            let job = rest.split(' ').next().unwrap().to_string();
            let game = between(rest, " game ", ":").parse::<u32>().unwrap();
            (job, game)
        };
        let replay = gamelab(&[
            "replay",
            file.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--job",
            &job,
            "--game",
            &game.to_string(),
        ]);
        assert!(replay.status.success(), "{}", stderr(&replay));
        let replay = String::from_utf8_lossy(&replay.stdout).into_owned();
        let moves = replay
            .lines()
            .filter(|l| {
                l.starts_with("# ")
                    && l[2..]
                        .split('.')
                        .next()
                        .is_some_and(|n| n.parse::<u32>().is_ok())
            })
            .count();
        let last_block = replay
            .rsplit_once("\n# result")
            .unwrap()
            .0
            .rsplit_once("\n# ")
            .unwrap()
            .1;
        let last_position = last_block.split_once('\n').unwrap().1.trim_end();
        assert!(moves > 0, "{name}: game {game} has moves");
        assert_eq!(
            between(&dom, "data-ply=\"", "\""),
            moves.to_string(),
            "{name}: the viewer is at the last move"
        );
        assert_eq!(
            unescape(between(&dom, "<pre id=\"position\">", "</pre>")).trim_end(),
            last_position,
            "{name}: job {job} game {game}'s last position"
        );
        assert!(
            between(&dom, "<div id=\"board\"", "</div>").contains("<svg"),
            "{name}: the board is drawn"
        );
        screenshot(
            &browser,
            &url,
            &shots.join(format!("{name}.png")),
            dir.path(),
        );
    }
    // Life-and-death: the viewer steps through a problem along the solver's main line, the one
    // `gamelab games` writes in SGF for the same weights and problem.
    let text = "name = \"sv\"\nkind = \"solve\"\ngame = \"tsumego\"\nstage = \"tiny\"\n[library]\nsets = 2\nlevels = \"1-3\"\nper_level = 4\nseed = 9\n[solve]\nproblems = { sets = [2], levels = \"1-3\" }\nweights = { reference = \"reference\", zero = \"zero\" }\n";
    let (dir, file, out) = ran("sv", text);
    run_ok(&[
        "report",
        file.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    let page = out.join("results/sv/report/report.html");
    let records = dir.path().join("records");
    run_ok(&[
        "games",
        file.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--to",
        records.to_str().unwrap(),
    ]);
    let sgf: String = std::fs::read_dir(&records)
        .unwrap()
        .map(|e| std::fs::read_to_string(e.unwrap().path()).unwrap())
        .collect();
    let mut checked = 0;
    for index in 0..6 {
        let url = format!("file://{}#game={index}&ply=last", page.display());
        let dom = headless(&browser, &url, "--dump-dom", &dir.path().join("profile"));
        assert!(
            dom.contains("<h2 id=\"games\">Problems</h2>"),
            "the problems viewer"
        );
        let result = unescape(between(&dom, "<p id=\"result\">", "</p>"));
        let weights = between(&result, " weights ", ":").to_string();
        let problem = between(&result, ": problem ", ":").to_string();
        let status = between(&result, ": status ", " ").to_string();
        let tree = sgf
            .split_inclusive(")\n")
            .find(|t| {
                t.contains(&format!("weights {weights}; status {status} ("))
                    && t.contains(&format!("{problem}]"))
            })
            .unwrap_or_else(|| panic!("no SGF tree for {weights} {problem} with status {status}"));
        let moves = tree.matches(";B[").count() + tree.matches(";W[").count();
        assert_eq!(
            between(&dom, "data-ply=\"", "\""),
            moves.to_string(),
            "{weights} {problem}: the viewer ends the SGF's main line"
        );
        assert!(
            between(&dom, "<div id=\"board\"", "</div>").contains("<circle"),
            "stones are drawn"
        );
        checked += 1;
    }
    assert_eq!(checked, 6);
    screenshot(
        &browser,
        &format!("file://{}#game=0&ply=1", page.display()),
        &shots.join("sv.png"),
        dir.path(),
    );
}

/// A screenshot of the viewer alone at `url`, kept for people to look at.
fn screenshot(browser: &Path, url: &str, shot: &Path, dir: &Path) {
    {
        let shot = shot.to_path_buf();
        headless(
            browser,
            &format!("{url}&only=viewer"),
            &format!("--screenshot={}", shot.display()),
            &dir.join("profile"),
        );
        assert!(
            std::fs::metadata(&shot)
                .map(|m| m.len() > 10_000)
                .unwrap_or(false),
            "a screenshot at {}",
            shot.display()
        );
        eprintln!("screenshot: {}", shot.display());
    }
}

#[test]
fn the_report_never_deletes_a_folder_its_links_point_to() {
    // The issue's case: `results/q/report` (or `figures/q`) made a link to the user's own
    // folder; the report refuses with exit 2 naming the link, and the folder keeps its file.
    let dir = tempfile::tempdir().unwrap();
    let file = write(
        dir.path(),
        "exp.toml",
        &format!("{SMALL}\n[report]\ngroup_by = [\"agent\"]\n"),
    );
    let f = file.to_str().unwrap();
    let out = dir.path().join("out");
    run_ok(&["run", f, "--out", out.to_str().unwrap()]);
    let paper = dir.path().join("paper");
    std::fs::create_dir_all(&paper).unwrap();
    std::fs::write(paper.join("draft.tex"), b"my paper").unwrap();
    let report = out.join("results/small/report");
    std::os::unix::fs::symlink(&paper, &report).unwrap();
    let o = gamelab(&["report", f, "--out", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("results/small/report"),
        "{}",
        stderr(&o)
    );
    assert_eq!(std::fs::read(paper.join("draft.tex")).unwrap(), b"my paper");
    assert_eq!(std::fs::read_link(&report).unwrap(), paper);
    // Once the link is moved away the report is written, and a second report replaces it.
    std::fs::remove_file(&report).unwrap();
    run_ok(&["report", f, "--out", out.to_str().unwrap()]);
    run_ok(&["report", f, "--out", out.to_str().unwrap()]);
    assert!(report.join("report.md").is_file());
    // The figures link, pointed at the user's folder: refused, the folder survives.
    let figures = out.join("figures/small");
    std::fs::remove_file(&figures).unwrap();
    std::os::unix::fs::symlink(&paper, &figures).unwrap();
    let o = gamelab(&["report", f, "--out", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("figures/small"), "{}", stderr(&o));
    assert_eq!(std::fs::read(paper.join("draft.tex")).unwrap(), b"my paper");
    // A real folder there (the user's): refused, kept.
    std::fs::remove_file(&figures).unwrap();
    std::fs::create_dir_all(&figures).unwrap();
    std::fs::write(figures.join("fig1.pdf"), b"x").unwrap();
    let o = gamelab(&["report", f, "--out", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(figures.join("fig1.pdf").is_file());
}

#[test]
fn a_tune_file_without_grid_or_report_runs_and_reports() {
    // Was a panic (exit 101) even with --dry-run: the default table had no column to draw.
    let text = r#"
name = "tune-plain"
kind = "tune"
game = "freckers"
stage = "standard"
seed = 3
[tune]
tuner = "hillclimb"
agent = "tuned"
opponent = "greedy"
games = 4
eval_games = 4
step = 0.1
[agents.tuned]
kind = "alphabeta"
nodes = 50
distance = 0.5
[agents.greedy]
kind = "random_greedy"
"#;
    let dir = tempfile::tempdir().unwrap();
    let f = write(dir.path(), "tune.toml", text);
    let out = dir.path().join("out");
    run_ok(&["run", f.to_str().unwrap(), "--dry-run"]);
    run_ok(&["run", f.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    run_ok(&[
        "report",
        f.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    let md = std::fs::read_to_string(out.join("results/tune-plain/report/report.md")).unwrap();
    assert!(
        md.contains("Score of the final weights against the opponent"),
        "{md}"
    );
}

/// docs/reproduction.md is what `make reproduction` builds from the kept reports
/// (docs/reports/<experiment>/) alone: rebuilt here from a fresh clone's files, without a run,
/// it is the committed page byte for byte. So a kept report whose experiment file changed since
/// (other jobs) is named stale on the committed page, and a report kept without rebuilding the
/// page fails here. Every kept folder belongs to an experiment file of that name.
#[test]
fn the_committed_reproduction_page_is_rebuilt_from_the_kept_reports_alone() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files: Vec<String> = std::fs::read_dir(root.join("experiments"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .map(|p| format!("experiments/{}", p.file_name().unwrap().to_string_lossy()))
        .collect();
    files.sort();
    let kept = root.join("docs/reports");
    for e in std::fs::read_dir(&kept).unwrap() {
        let e = e.unwrap();
        let name = e.file_name().to_string_lossy().into_owned();
        if name == gamelab::report::summary::UNMEASURED_FILE {
            continue; // the claims no row judges, beside the kept folders
        }
        assert!(
            files.contains(&format!("experiments/{name}.toml")),
            "docs/reports/{name} has no experiment file experiments/{name}.toml"
        );
    }
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("reproduction.md");
    let mut args = vec!["summary".to_string()];
    args.extend(files);
    args.extend([
        "--reports".into(),
        "docs/reports".into(),
        "--page".into(),
        page.to_str().unwrap().into(),
        "--out".into(),
        dir.path().to_str().unwrap().into(),
    ]);
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_gamelab"))
        .args(&args)
        .current_dir(root)
        .env_remove("GOTOOLS_PROBLEMS")
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let rebuilt = std::fs::read_to_string(&page).unwrap();
    let committed = std::fs::read_to_string(root.join("docs/reproduction.md")).unwrap();
    if rebuilt != committed {
        let first = rebuilt
            .lines()
            .zip(committed.lines())
            .position(|(a, b)| a != b)
            .unwrap_or(rebuilt.lines().count().min(committed.lines().count()));
        panic!(
            "docs/reproduction.md is not what `make reproduction` builds from docs/reports/ (run it \
             and commit the page); first different line {}:\nbuilt:     {}\ncommitted: {}",
            first + 1,
            rebuilt.lines().nth(first).unwrap_or("(end)"),
            committed.lines().nth(first).unwrap_or("(end)")
        );
    }
}

/// A run of a file whose jobs are all done says so, with the rows it kept: the rows the first
/// run wrote.
#[test]
fn a_rerun_says_how_many_rows_it_kept() {
    let text = claims_named("again").replace("games = 200", "games = 40");
    let dir = tempfile::tempdir().unwrap();
    let file = write(dir.path(), "again.toml", &text);
    let (f, out) = (file.to_str().unwrap(), dir.path().join("out"));
    let run = || {
        let o = gamelab(&["run", f, "--out", out.to_str().unwrap()]);
        assert!(o.status.success(), "{}", stderr(&o));
        String::from_utf8_lossy(&o.stdout).into_owned()
    };
    let first = run();
    let rows: usize = first
        .split_once(" job (")
        .and_then(|(_, r)| r.split_once(" rows)"))
        .map(|(n, _)| n.parse().unwrap())
        .unwrap_or_else(|| panic!("{first}"));
    assert!(
        rows > 0 && first.contains("(0 rows kept from earlier runs)"),
        "{first}"
    );
    let second = run();
    assert!(
        second.contains("ran 0 jobs (0 rows)")
            && second.contains(&format!("({rows} rows kept from earlier runs)")),
        "{second}"
    );
}

#[test]
fn a_table_filter_on_a_grid_key_of_lists_takes_the_list_as_one_value() {
    // `match.players` is swept over lists: the filter's list is one of them, not "any of a, b".
    let dir = tempfile::tempdir().unwrap();
    let file = write(
        dir.path(),
        "lists.toml",
        r#"
kind = "match"
game = "othello"
stage = "small6"
seed = 1
[match]
players = ["a", "b"]
games = 4
[agents.a]
kind = "random"
[agents.b]
kind = "greedy"
[agents.c]
kind = "corners"
[grid]
"match.players" = [["a", "b"], ["a", "c"]]
[[report.tables]]
name = "ab"
group_by = ["agent"]
filter = { "match.players" = ["a", "b"] }
"#,
    );
    let out = dir.path().join("out");
    let f = file.to_str().unwrap();
    run_ok(&["run", f, "--out", out.to_str().unwrap()]);
    run_ok(&["report", f, "--out", out.to_str().unwrap()]);
    let csv = std::fs::read_to_string(out.join("results/lists/report/ab.csv")).unwrap();
    let agents: Vec<&str> = csv
        .lines()
        .skip(1)
        .map(|l| l.split(',').next().unwrap())
        .collect();
    assert_eq!(agents.len(), 2, "{csv}");
    assert!(agents.contains(&"a") && agents.contains(&"b"), "{csv}");
}

#[test]
fn othello_records_run_the_moves_together_as_othello_programs_read_them() {
    let dir = tempfile::tempdir().unwrap();
    let file = write(
        dir.path(),
        "oth.toml",
        r#"
kind = "match"
game = "othello"
stage = "standard8"
seed = 5
[match]
players = ["a", "b"]
games = 6
[agents.a]
kind = "random"
[agents.b]
kind = "greedy"
"#,
    );
    let out = dir.path().join("out");
    let f = file.to_str().unwrap();
    run_ok(&["run", f, "--out", out.to_str().unwrap()]);
    run_ok(&["games", f, "--out", out.to_str().unwrap()]);
    let folder = out.join("results/oth/records");
    let record = std::fs::read_dir(&folder)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|e| e == "txt"))
        .expect("a record file");
    let text = std::fs::read_to_string(&record).unwrap();
    let mut games = 0;
    for block in text.split("\n\n").filter(|b| b.contains("[Plies ")) {
        let plies: usize = block
            .lines()
            .find_map(|l| {
                l.strip_prefix("[Plies \"")?
                    .strip_suffix("\"]")?
                    .parse()
                    .ok()
            })
            .unwrap();
        let moves = block.lines().last().unwrap();
        // f5d6c3...: a column letter and a row digit a move, nothing between them, no passes.
        assert_eq!(moves.len() % 2, 0, "{moves}");
        let pairs: Vec<&[u8]> = moves.as_bytes().chunks(2).collect();
        assert!(
            pairs
                .iter()
                .all(|m| (b'a'..=b'h').contains(&m[0]) && (b'1'..=b'8').contains(&m[1])),
            "{moves}"
        );
        assert!(
            !pairs.is_empty() && pairs.len() <= plies,
            "{moves} of {plies} plies"
        );
        // They replay from the start as written, every move legal.
        let stage = gamelab::game::othello::StageRef::Id("standard8".into())
            .resolve()
            .unwrap();
        let mut board = gamelab::game::othello::Othello::new(&stage).unwrap();
        board.play_transcript(moves).unwrap();
        games += 1;
    }
    assert_eq!(games, 6, "{text}");
}

/// A match and a tournament whose games come from a random setup per colour-swapped pair
/// (Colosseum), with a grid of two points.
const GROWN: &str = r#"
name = "grown"
kind = "match"
game = "colosseum"
stage = "sizes-5-7"
seed = 11
[match]
players = ["uct", "random"]
games = 5
[agents.uct]
kind = "annealed_uct"
simulations = 40
[agents.random]
kind = "random"
[grid]
"agents.uct.simulations" = [20, 40]
"#;

#[test]
fn a_grown_sweep_plays_only_its_new_games_and_equals_a_fresh_run() {
    for (text, from, to, lower) in [
        (GROWN.to_string(), "games = 5", "games = 8", "games = 3"),
        (
            GROWN
                .replace("kind = \"match\"", "kind = \"tournament\"")
                .replace(
                    "[match]\nplayers = [\"uct\", \"random\"]\ngames = 5",
                    "[tournament]\nrounds = 1",
                ),
            "rounds = 1",
            "rounds = 3",
            "rounds = 1",
        ),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let small = write(dir.path(), "small.toml", &text);
        let big = write(dir.path(), "big.toml", &text.replace(from, to));
        let (grown, fresh) = (dir.path().join("grown"), dir.path().join("fresh"));
        let (grown_s, fresh_s) = (grown.to_str().unwrap(), fresh.to_str().unwrap());
        run_ok(&["run", small.to_str().unwrap(), "--out", grown_s]);
        let before = rows_any(&grown, "grown");
        let o = gamelab(&[
            "run",
            big.to_str().unwrap(),
            "--out",
            grown_s,
            "--threads",
            "1",
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
        assert_eq!(
            stderr(&o).matches("grows from").count(),
            2,
            "{}",
            stderr(&o)
        );
        // The summary counts the games played before as kept, the new ones as written.
        let kept: usize = before.values().map(|df| df.height()).sum();
        let said = String::from_utf8_lossy(&o.stdout);
        assert!(
            said.contains(&format!("({kept} rows kept from earlier runs)")),
            "{said}"
        );
        run_ok(&[
            "run",
            big.to_str().unwrap(),
            "--out",
            fresh_s,
            "--threads",
            "2",
        ]);
        // The same jobs (hashes), the same rows as a fresh run at the larger count...
        assert_same_rows(&rows(&grown, "grown"), &rows(&fresh, "grown"));
        // ...and the games played before were kept, not played again (their times are theirs).
        let after = rows_any(&grown, "grown");
        assert_eq!(
            before.keys().collect::<Vec<_>>(),
            after.keys().collect::<Vec<_>>()
        );
        for (k, df) in &before {
            assert!(after[k].height() > df.height(), "{k} grew");
            assert!(
                after[k].head(Some(df.height())).equals_missing(df),
                "{k}: the first {} games are the ones played before, timings included",
                df.height()
            );
        }
        assert!(!grown.join("results/grown/partial").exists());
        // A second run at the larger count has nothing to do.
        let o = gamelab(&["run", big.to_str().unwrap(), "--out", grown_s]);
        assert!(
            o.status.success() && !stderr(&o).contains("grows from"),
            "{}",
            stderr(&o)
        );
        // A repeat and a grid value added are new jobs; the old ones are kept as they are.
        let wider = write(
            dir.path(),
            "wider.toml",
            &text
                .replace(from, to)
                .replace("seed = 11", "seed = 11\nrepeats = 2")
                .replace("[20, 40]", "[20, 40, 30]"),
        );
        let o = gamelab(&["run", wider.to_str().unwrap(), "--out", grown_s]);
        assert!(
            o.status.success() && !stderr(&o).contains("grows from"),
            "{}",
            stderr(&o)
        );
        let widened = rows_any(&grown, "grown");
        assert_eq!(widened.len(), 6, "3 values x 2 repeats");
        assert!(
            after.iter().all(|(k, df)| widened[k].equals_missing(df)),
            "the old jobs are kept"
        );
        // Lowered: nothing runs, and the report is a fresh run's at the smaller count.
        let low = write(dir.path(), "low.toml", &text.replace(from, lower));
        let lowered = dir.path().join("lowered");
        run_ok(&["run", low.to_str().unwrap(), "--out", grown_s]);
        let kept = rows_any(&grown, "grown");
        assert!(
            after.iter().all(|(k, df)| kept[k].equals_missing(df)),
            "lowering plays nothing and removes nothing"
        );
        run_ok(&[
            "run",
            low.to_str().unwrap(),
            "--out",
            lowered.to_str().unwrap(),
        ]);
        run_ok(&["report", low.to_str().unwrap(), "--out", grown_s]);
        run_ok(&[
            "report",
            low.to_str().unwrap(),
            "--out",
            lowered.to_str().unwrap(),
        ]);
        let md = |out: &Path| {
            std::fs::read_to_string(out.join("results/grown/report/report.md"))
                .unwrap()
                .lines()
                .filter(|l| l.starts_with('|'))
                .collect::<Vec<_>>()
                .join("\n")
        };
        let (a, b) = (md(&grown), md(&lowered));
        assert!(!a.is_empty());
        assert_eq!(a, b, "the lowered report is the fresh run's at that count");
    }
}

/// A `--shard` part of a race waits for the other shards' rows between rounds; when the shard it
/// waits for ended on this machine before its points were done (killed, say), it stops with an
/// error naming that shard and how to go on, instead of waiting without end.
#[test]
fn a_race_shard_whose_partner_ended_stops_saying_how_to_go_on() {
    let dir = tempfile::tempdir().unwrap();
    let file = write(dir.path(), "race.toml", RACE);
    let out = dir.path().join("out");
    // Shard 2 ran here and ended at once: its lock file names this machine and a process that
    // is gone.
    let mut gone = std::process::Command::new("true").spawn().unwrap();
    let pid = gone.id();
    gone.wait().unwrap();
    let host = std::fs::read_to_string("/proc/sys/kernel/hostname").unwrap();
    let results = out.join("results/race");
    std::fs::create_dir_all(&results).unwrap();
    std::fs::write(
        results.join("run-shard-2-of-2.lock"),
        format!(
            "pid {pid} (gamelab run race.toml --shard 2/2) on {}\n",
            host.trim()
        ),
    )
    .unwrap();
    let (status, said) = shard_one_of_two(&file, &out, &[]);
    assert_eq!(status.code(), Some(1), "{said}");
    assert!(said.contains("race: waiting for shard 2/2"), "{said}");
    assert!(
        said.contains("shard 2/2 ended before its points reached")
            && said.contains("--shard 2/2` again"),
        "{said}"
    );
    // Its own points of the first round were played and kept.
    assert!(std::fs::read_dir(results.join("games")).unwrap().count() > 0);
}

/// Runs shard 1/2 of the race `file` into `out` with `envs` until it exits (at most 300 s): its
/// exit status and what it said.
fn shard_one_of_two(
    file: &Path,
    out: &Path,
    envs: &[(&str, &std::ffi::OsStr)],
) -> (std::process::ExitStatus, String) {
    let mut shard = std::process::Command::new(env!("CARGO_BIN_EXE_gamelab"))
        .args([
            "run",
            file.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ])
        .args(["--shard", "1/2", "--threads", "1"])
        .envs(envs.iter().copied())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let t0 = Instant::now();
    let status = loop {
        if let Some(status) = shard.try_wait().unwrap() {
            break status;
        }
        if t0.elapsed() > Duration::from_secs(300) {
            shard.kill().unwrap();
            panic!("shard 1/2 still waits after 300 s");
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    let mut said = String::new();
    std::io::Read::read_to_string(&mut shard.stderr.take().unwrap(), &mut said).unwrap();
    (status, said)
}

/// On a Slurm cluster (the environment of task 1 of a two-task job array, and an `squeue` that
/// answers as Slurm's does), a race shard waits while the queue holds its partner, however long
/// (pending, or running on another node), and stops once the partner left the queue before its
/// points were done: with no lock file (a task that never started), and with a lock file naming
/// another machine and the Slurm job that held it. Its own lock file names its Slurm job.
#[test]
fn a_race_shard_on_slurm_waits_while_the_queue_holds_its_partner_and_stops_once_it_left() {
    let dir = tempfile::tempdir().unwrap();
    let file = write(dir.path(), "race.toml", RACE);
    // squeue as Slurm 22.05 answers `squeue --noheader --states=all --jobs=ID --format=%T`:
    // array task 77_2 pending 15 times then purged (scenario "never started"), or completed
    // (scenario "elsewhere"); job 99 running 15 times then failed. Each call is logged.
    let bin = dir.path().join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let squeue = bin.join("squeue");
    std::fs::write(
        &squeue,
        r#"#!/bin/sh
for a in "$@"; do case "$a" in --jobs=*) job=${a#--jobs=};; esac; done
echo "$job" >> "$FAKE_SQUEUE_LOG"
n=$(grep -c "^$job\$" "$FAKE_SQUEUE_LOG")
case "$job:$FAKE_SQUEUE_SCENARIO" in
  77_2:never-started) if [ "$n" -le 15 ]; then echo PENDING; else
      echo "slurm_load_jobs error: Invalid job id specified" >&2; exit 1; fi;;
  77_2:elsewhere) echo COMPLETED;;
  99:elsewhere) if [ "$n" -le 15 ]; then echo RUNNING; else echo FAILED; fi;;
  *) echo "slurm_load_jobs error: Invalid job id specified" >&2; exit 1;;
esac
"#,
    )
    .unwrap();
    std::fs::set_permissions(&squeue, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap());
    for scenario in ["never-started", "elsewhere"] {
        let out = dir.path().join(scenario);
        let results = out.join("results/race");
        std::fs::create_dir_all(&results).unwrap();
        if scenario == "elsewhere" {
            std::fs::write(
                results.join("run-shard-2-of-2.lock"),
                "pid 1 (gamelab run race.toml --shard 2/2) on node-elsewhere in Slurm job 99\n",
            )
            .unwrap();
        }
        let log = dir.path().join(format!("{scenario}.log"));
        let envs: Vec<(&str, std::ffi::OsString)> = vec![
            ("PATH", path.clone().into()),
            ("FAKE_SQUEUE_LOG", log.clone().into()),
            ("FAKE_SQUEUE_SCENARIO", scenario.into()),
            ("GAMELAB_QUEUE_POLL_MS", "100".into()),
            ("SLURM_ARRAY_JOB_ID", "77".into()),
            ("SLURM_ARRAY_TASK_ID", "1".into()),
            ("SLURM_ARRAY_TASK_COUNT", "2".into()),
            ("SLURM_JOB_ID", "78".into()),
        ];
        let envs: Vec<(&str, &std::ffi::OsStr)> =
            envs.iter().map(|(k, v)| (*k, v.as_os_str())).collect();
        let (status, said) = shard_one_of_two(&file, &out, &envs);
        assert_eq!(status.code(), Some(1), "{scenario}: {said}");
        if scenario == "never-started" {
            assert!(
                said.contains(
                    "race: waiting for shard 2/2 (1 point; not started yet: Slurm task 77_2)"
                ),
                "{said}"
            );
        }
        assert!(
            said.contains("shard 2/2 ended before its points reached")
                && said.contains("Slurm task 77_2 left the queue")
                && said.contains("sbatch --array=2,1 run.sbatch"),
            "{scenario}: {said}"
        );
        // It waited through the 15 answers that the partner was queued or running (a shard that
        // took them for ended would have stopped after its 10 checks).
        let calls = std::fs::read_to_string(&log).unwrap();
        let asked = |job: &str| calls.lines().filter(|l| *l == job).count();
        let partner = if scenario == "elsewhere" {
            "99"
        } else {
            "77_2"
        };
        assert!(asked(partner) > 15, "{scenario}: {calls}");
        let own = std::fs::read_to_string(results.join("run-shard-1-of-2.lock")).unwrap();
        assert!(own.trim_end().ends_with(" in Slurm job 78"), "{own}");
    }
}

/// `RACE` (tests/common): three budgets of SimpleMCTS against greedy, one clearly worse point.
#[test]
fn a_race_drops_the_worse_points_with_the_same_rows_on_any_thread_count_in_shards_and_after_kill_9()
{
    let dir = tempfile::tempdir().unwrap();
    let file = write(dir.path(), "race.toml", RACE);
    let f = file.to_str().unwrap();
    let (one, two, killed) = (
        dir.path().join("one"),
        dir.path().join("two"),
        dir.path().join("killed"),
    );
    let o = gamelab(&["run", f, "--out", one.to_str().unwrap(), "--threads", "1"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let said = stderr(&o);
    assert!(
        said.contains("race round 2:") && said.contains("race ended:"),
        "{said}"
    );
    run_ok(&["run", f, "--out", two.to_str().unwrap(), "--threads", "2"]);
    let a = rows(&one, "race");
    assert_same_rows(&a, &rows(&two, "race"));
    // The point at one rollout is dropped early: fewer games than the full 80, in whole pairs.
    let heights: Vec<usize> = a.values().map(DataFrame::height).collect();
    assert_eq!(heights.len(), 3);
    assert!(
        heights.iter().all(|h| h % 8 == 0 && *h <= 80),
        "{heights:?}"
    );
    assert!(heights.iter().sum::<usize>() < 3 * 80, "{heights:?}");
    // Killed at several points, then run to the end: the same rows and decisions.
    let envs = [("GAMELAB_BATCH_ROWS", std::ffi::OsStr::new("4"))];
    let landed = kill_part_way(
        &[
            "run",
            f,
            "--out",
            killed.to_str().unwrap(),
            "--threads",
            "2",
        ],
        &envs,
        &[60, 120, 200, 300, 450],
    );
    assert!(
        landed >= 1,
        "no kill landed inside the race: make it slower"
    );
    let o = gamelab(&["run", f, "--out", killed.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_same_rows(&a, &rows(&killed, "race"));
    // Two shards of the race on one folder, side by side: each plays its points and waits for
    // the other's rows; together the same rows.
    let sharded = dir.path().join("sharded");
    let shard = |i: &str| {
        std::process::Command::new(env!("CARGO_BIN_EXE_gamelab"))
            .args([
                "run",
                f,
                "--out",
                sharded.to_str().unwrap(),
                "--shard",
                i,
                "--threads",
                "1",
            ])
            .output()
            .unwrap()
    };
    let (s1, s2) = std::thread::scope(|s| {
        let a = s.spawn(|| shard("1/2"));
        let b = s.spawn(|| shard("2/2"));
        (a.join().unwrap(), b.join().unwrap())
    });
    assert!(
        s1.status.success() && s2.status.success(),
        "{}\n{}",
        stderr(&s1),
        stderr(&s2)
    );
    assert_same_rows(&a, &rows(&sharded, "race"));
    // The report's race section: a row per point, and its figure.
    run_ok(&["report", f, "--out", one.to_str().unwrap()]);
    let report = one.join("results/race/report");
    let md = std::fs::read_to_string(report.join("report.md")).unwrap();
    assert!(md.contains("## Race"), "{md}");
    assert!(md.contains("| agents.mcts.rollouts | blocks |"), "{md}");
    assert!(
        md.contains("\n| 1 | 8 | "),
        "the point at one rollout dropped after 8 blocks: {md}"
    );
    assert!(md.contains("![The race:"), "{md}");
    assert!(report.join("figures/race.png").exists());
    assert!(report.join("figures/race.caption.txt").exists());
}

#[test]
fn a_race_in_a_file_that_cannot_race_is_an_error_naming_the_key() {
    let dir = tempfile::tempdir().unwrap();
    for (text, key) in [
        (RACE.replace("games = 80", "games = 81"), "match.games"),
        (
            RACE.replace("min_rounds = 2", "min_rounds = 2\nlevel = 1.5"),
            "race.level",
        ),
        (
            RACE.replace("[race]", "[race]\nagent = \"nobody\""),
            "race.agent",
        ),
        (RACE.replace("seed = 3", "seed = 3\nrepeats = 2"), "race"),
    ] {
        let file = write(dir.path(), "bad.toml", &text);
        let o = gamelab(&[
            "run",
            file.to_str().unwrap(),
            "--out",
            dir.path().join("out").to_str().unwrap(),
        ]);
        assert!(!o.status.success());
        let e = stderr(&o);
        assert!(e.contains(key) && e.contains("bad.toml"), "{key}: {e}");
        assert!(
            !dir.path().join("out/results/race").exists(),
            "nothing written"
        );
    }
}
