//! The rows as other tools read them: docs/rows.md's one-line reads in DuckDB, polars and
//! pandas, run as they are written there, count exactly the current jobs' rows after the file is
//! edited (older jobs' parts moved to `older-jobs/`) and after it is edited back.
//!
//! Needs Python with duckdb, polars, pandas and pyarrow: `make readers` installs them into
//! `.venv/` (or set GAMELAB_PYTHON). Without them the test says SKIPPED, unless REQUIRE_READERS
//! is set (CI sets it), which makes that a failure.

use crate::common::*;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// A Python that imports the readers, or why not.
fn python_with_readers() -> Result<PathBuf, String> {
    let python = std::env::var_os("GAMELAB_PYTHON")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join(".venv/bin/python"));
    let ok = std::process::Command::new(&python)
        .args(["-c", "import duckdb, polars, pandas, pyarrow"])
        .output()
        .is_ok_and(|o| o.status.success());
    if ok {
        Ok(python)
    } else {
        Err(format!(
            "{} cannot import duckdb, polars, pandas and pyarrow (make readers installs them, or set GAMELAB_PYTHON)",
            python.display()
        ))
    }
}

/// The lines of docs/rows.md's `python` blocks in its section on other tools: the Parquet
/// block, then the CSV block.
fn documented_reads() -> Vec<Vec<String>> {
    let doc = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/rows.md"))
        .unwrap();
    let section = doc
        .split("## Reading the rows in other tools")
        .nth(1)
        .expect("docs/rows.md has its section on other tools");
    let section = section.split("\n## ").next().unwrap();
    section
        .split("```python\n")
        .skip(1)
        .map(|block| {
            block
                .split("```")
                .next()
                .unwrap()
                .lines()
                .map(str::to_string)
                .collect()
        })
        .collect()
}

/// The rows of the current jobs (`current-jobs.json`), counted by gamelab's own reader.
fn current_rows(out: &Path, name: &str) -> usize {
    let results = out.join("results").join(name);
    let current: BTreeSet<String> =
        serde_json::from_str(&std::fs::read_to_string(results.join("current-jobs.json")).unwrap())
            .unwrap();
    current
        .iter()
        .map(|job| {
            let part = gamelab::experiment::rows::existing_part(&results.join("games"), job)
                .unwrap_or_else(|| panic!("current job {job} has its part in games/"));
            gamelab::experiment::rows::read_part(&part)
                .unwrap()
                .height()
        })
        .sum()
}

/// What each documented line counts, run in `out` for experiment `name`.
fn counts(python: &Path, out: &Path, name: &str, lines: &[String]) -> Vec<usize> {
    lines
        .iter()
        .map(|line| {
            let line = line.replace("NAME", name);
            let o = std::process::Command::new(python)
                .current_dir(out)
                .args(["-c", &format!("{line}\nprint(len(games))")])
                .output()
                .unwrap();
            assert!(
                o.status.success(),
                "docs/rows.md's line fails: {line}\n{}",
                String::from_utf8_lossy(&o.stderr)
            );
            String::from_utf8_lossy(&o.stdout)
                .trim()
                .parse()
                .unwrap_or_else(|_| panic!("{line} printed {:?}", o.stdout))
        })
        .collect()
}

#[test]
fn documented_reads_count_exactly_the_current_rows_after_an_edit_and_back() {
    let python = match python_with_readers() {
        Ok(p) => p,
        Err(why) if std::env::var_os("REQUIRE_READERS").is_none() => {
            eprintln!("SKIPPED: {why}");
            return;
        }
        Err(why) => panic!("REQUIRE_READERS is set: {why}"),
    };
    let reads = documented_reads();
    assert_eq!(reads.len(), 2, "a Parquet block and a CSV block");
    for (format, lines) in [("parquet", &reads[0]), ("csv", &reads[1])] {
        assert_eq!(lines.len(), 3, "DuckDB, polars and pandas: {lines:?}");
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("out");
        let o = out.to_str().unwrap();
        let run = |text: &str| {
            let file = write(dir.path(), "small.toml", text);
            let r = gamelab(&[
                "run",
                file.to_str().unwrap(),
                "--out",
                o,
                "--format",
                format,
            ]);
            assert!(r.status.success(), "{}", stderr(&r));
            stderr(&r)
        };
        // Parts in the rows folder, and set aside below older-jobs/ (`common::parts`).
        let games = || parts(&out, "small", "games").len();
        let older = || parts(&out, "small/older-jobs", "games").len();

        run(SMALL);
        let first = current_rows(&out, "small");
        assert_eq!(games(), 4, "2 grid values x 2 repeats");
        assert_eq!(counts(&python, &out, "small", lines), vec![first; 3]);

        // An agent's setting edited: the jobs with 40 rollouts are gone, 20 are new.
        let said = run(&SMALL.replace("[10, 40]", "[10, 20]"));
        assert!(
            said.contains("2 parts of jobs the file no longer has"),
            "{said}"
        );
        assert_eq!(games(), 4);
        assert_eq!(older(), 2, "the older jobs' parts are kept aside");
        let edited = current_rows(&out, "small");
        assert_eq!(counts(&python, &out, "small", lines), vec![edited; 3]);

        // Edited back: the older rows come back and nothing is played again.
        let said = run(SMALL);
        assert!(said.contains("2 jobs the file has again"), "{said}");
        assert_eq!(games(), 4);
        assert_eq!(older(), 2, "the 20-rollout jobs are aside now");
        assert_eq!(current_rows(&out, "small"), first);
        assert_eq!(counts(&python, &out, "small", lines), vec![first; 3]);
    }
}
