//! A job kind from outside gamelab, in this one file: `coins` (each job flips `[settings] flips`
//! coins of bias `[settings] bias`, each flip seeded by the job and its index, one row a flip).
//! One call registers it (`kind::registry::register`); nothing else of gamelab changes. Files
//! with `kind = "coins"` then expand (a grid over its settings, job hashes, its own checks at
//! the key), run on any number of threads with the same rows, resume after their last batch,
//! and report a table with intervals, as gamelab's own kinds do.

use gamelab::experiment::kind::{JobContext, KindRunner, RowColumns, registry, streamed};
use gamelab::experiment::rows::{Format, JobColumns, id_columns, read_part};
use gamelab::experiment::runner::RunOptions;
use gamelab::experiment::{Experiment, InputError, Job, expand};
use gamelab::rng::{derive_seed, rng_from_seed, unit_f64};
use polars::prelude::{Column, DataFrame};
use std::path::Path;

/// The toy kind: everything it is, in one place.
struct Coins;

/// A number of the job's `[settings]`.
fn setting(job: &Job, key: &str) -> Option<f64> {
    job.config
        .settings
        .as_ref()?
        .get(key)
        .and_then(|v| v.as_float().or_else(|| v.as_integer().map(|i| i as f64)))
}

fn flips(job: &Job) -> usize {
    setting(job, "flips").unwrap_or(0.0) as usize
}

/// One row a flip: (flip, heads).
fn frame(id: &JobColumns, rows: &[(i64, i64)]) -> anyhow::Result<DataFrame> {
    let mut cols = id_columns(id, rows.len(), &[]);
    cols.push(Column::new(
        "flip".into(),
        rows.iter().map(|r| r.0).collect::<Vec<i64>>(),
    ));
    cols.push(Column::new(
        "heads".into(),
        rows.iter().map(|r| r.1).collect::<Vec<i64>>(),
    ));
    Ok(DataFrame::new(rows.len(), cols)?)
}

impl KindRunner for Coins {
    fn rows_folder(&self) -> &'static str {
        "coins"
    }
    fn unit(&self) -> &'static str {
        "flips"
    }
    fn steps(&self, job: &Job) -> usize {
        flips(job)
    }
    fn check(&self, exp: &Experiment, job: &Job) -> Result<(), InputError> {
        match (setting(job, "flips"), setting(job, "bias")) {
            (Some(f), _) if f < 1.0 => Err(exp.error("settings.flips", "must be at least 1")),
            (_, Some(b)) if !(0.0..=1.0).contains(&b) => {
                Err(exp.error("settings.bias", format!("{b} is not a probability")))
            }
            (Some(_), Some(_)) => Ok(()),
            _ => Err(exp.error("settings", "coins needs flips and bias")),
        }
    }
    fn run(&self, cx: &JobContext) -> anyhow::Result<usize> {
        let (n, bias) = (flips(cx.job), setting(cx.job, "bias").unwrap_or(0.5));
        streamed(
            cx.stream()?,
            &|rows| frame(&cx.id, rows),
            |from, _carry, sink| {
                for i in from..n {
                    let mut rng = rng_from_seed(derive_seed(cx.job.seed, &[i as u64]));
                    let heads = (unit_f64(&mut rng) < bias) as i64;
                    sink(vec![(i as i64, heads)], i + 1, &serde_json::Value::Null)?;
                    (cx.progress)(1);
                }
                Ok(())
            },
        )
    }
    fn report_columns(&self) -> RowColumns {
        RowColumns::of(&["flip"], &["heads"])
    }
}

const COINS: &str = r#"
name = "coins"
kind = "coins"
game = "othello"
stage = "standard8"
seed = 7
repeats = 2

[settings]
flips = 3000
bias = 0.5

[grid]
"settings.bias" = [0.2, 0.5, 0.9]

[[report.tables]]
name = "heads"
statistic = "mean"
metric = "heads"
group_by = ["settings.bias"]
"#;

fn load(dir: &Path, text: &str) -> Result<Experiment, InputError> {
    let path = dir.join("coins.toml");
    std::fs::write(&path, text).unwrap();
    Experiment::load(&path)
}

fn options(out: &Path, threads: usize) -> RunOptions {
    RunOptions {
        out: out.to_path_buf(),
        threads: Some(threads),
        shard: None,
        format: Format::Parquet,
        progress: false,
    }
}

/// Every row of a run, in job order.
fn rows_of(out: &Path, jobs: &[Job]) -> Vec<DataFrame> {
    jobs.iter()
        .map(|j| {
            read_part(
                &out.join("results/coins/coins")
                    .join(format!("part-{}.parquet", j.hash)),
            )
            .unwrap()
        })
        .collect()
}

#[test]
fn a_kind_from_outside_gamelab_expands_runs_resumes_and_reports_like_its_own() {
    registry::register("coins", &Coins).unwrap();
    // A name is registered once, and never one of gamelab's own.
    assert!(registry::register("coins", &Coins).is_err());
    assert!(registry::register("match", &Coins).is_err());
    assert!(registry::names().contains(&"coins"));

    let dir = tempfile::tempdir().unwrap();
    let exp = load(dir.path(), COINS).unwrap();
    let jobs = expand(&exp).unwrap();
    assert_eq!(jobs.len(), 6, "3 biases x 2 repeats");
    let hashes: std::collections::BTreeSet<&str> = jobs.iter().map(|j| j.hash.as_str()).collect();
    assert_eq!(hashes.len(), 6, "each job its own hash");

    // One thread and two give the same rows, and each bias shows in them.
    let (one, two) = (dir.path().join("one"), dir.path().join("two"));
    let s = gamelab::experiment::run(&exp, &jobs, &options(&one, 1)).unwrap();
    assert_eq!((s.jobs_run, s.rows), (6, 6 * 3000));
    gamelab::experiment::run(&exp, &jobs, &options(&two, 2)).unwrap();
    let (a, b) = (rows_of(&one, &jobs), rows_of(&two, &jobs));
    assert_eq!(a, b);
    for (job, df) in jobs.iter().zip(&a) {
        let bias = setting(job, "bias").unwrap();
        let heads = df
            .column("heads")
            .unwrap()
            .i64()
            .unwrap()
            .iter()
            .flatten()
            .sum::<i64>() as f64
            / 3000.0;
        assert!((heads - bias).abs() < 0.04, "bias {bias}: {heads}");
        assert_eq!(
            df.column("experiment").unwrap().str().unwrap().get(0),
            Some("coins")
        );
    }

    // A second run keeps every row; a job whose part is gone runs again to the same rows.
    let again = gamelab::experiment::run(&exp, &jobs, &options(&one, 2)).unwrap();
    assert_eq!((again.jobs_run, again.rows_kept), (0, 6 * 3000));
    std::fs::remove_file(
        one.join("results/coins/coins")
            .join(format!("part-{}.parquet", jobs[3].hash)),
    )
    .unwrap();
    let resumed = gamelab::experiment::run(&exp, &jobs, &options(&one, 2)).unwrap();
    assert_eq!(resumed.jobs_run, 1);
    assert_eq!(rows_of(&one, &jobs), b);

    // The report's table: the mean of heads by bias, with its interval around the bias.
    let report = gamelab::report::report(&exp, &jobs, &one, true).unwrap();
    let md = std::fs::read_to_string(&report.report).unwrap();
    assert!(md.contains("settings.bias"), "{md}");
    let csv = report
        .tables
        .iter()
        .find(|p| p.file_name().unwrap() == "heads.csv")
        .expect("the heads table");
    let text = std::fs::read_to_string(csv).unwrap();
    assert_eq!(
        text.lines().count(),
        4,
        "a header and a row per bias:\n{text}"
    );

    // Its own checks name the key; gamelab's sections are refused with it; a report without
    // tables says what to give.
    let bad = COINS.replace("bias = 0.5", "bias = 1.5");
    let bad = bad.replace(
        "\"settings.bias\" = [0.2, 0.5, 0.9]",
        "\"settings.flips\" = [10]",
    );
    let e = expand(&load(dir.path(), &bad).unwrap()).unwrap_err();
    assert!(e.to_string().contains("settings.bias"), "{e}");
    let with_match = format!("{COINS}\n[match]\nplayers = [\"a\", \"b\"]\ngames = 2\n");
    let e = expand(&load(dir.path(), &with_match).unwrap()).unwrap_err();
    assert!(
        e.to_string()
            .contains("[match] goes with gamelab's own kinds"),
        "{e}"
    );
    let no_tables = COINS[..COINS.find("[[report.tables]]").unwrap()].to_string();
    let e = gamelab::report::plan(&load(dir.path(), &no_tables).unwrap()).unwrap_err();
    assert!(e.to_string().contains("no default table"), "{e}");
}

#[test]
fn an_unknown_kind_is_refused_at_its_line_with_the_nearest_name() {
    let dir = tempfile::tempdir().unwrap();
    let text = COINS.replace("kind = \"coins\"", "kind = \"tournamnet\"");
    let e = expand(&load(dir.path(), &text).unwrap()).unwrap_err();
    let m = e.to_string();
    assert!(m.contains("coins.toml:3"), "{m}");
    assert!(
        m.contains("unknown variant `tournamnet` (did you mean `tournament`?)"),
        "{m}"
    );
}
