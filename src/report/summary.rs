//! The summary page across experiments (`gamelab summary`): every published value that the
//! experiments' reports compared, with the paper's value and n, ours and n, the difference, the
//! Holm-adjusted p and the verdict, read from each report's `comparisons.csv`.

use super::compare::{CSV_FILE, CSV_HEADER};
use super::table::{counted, csv_line};
use crate::experiment::Experiment;
use crate::experiment::layout::results_dir;
use anyhow::{Context, Result};
use polars::prelude::*;
use std::path::{Path, PathBuf};

/// What the summary wrote.
pub struct Summary {
    pub markdown: PathBuf,
    pub csv: PathBuf,
    /// Experiments with published values compared, and those whose report is missing.
    pub reported: Vec<String>,
    pub missing: Vec<String>,
    /// Reported before their runs ended: `name (J of N jobs)`.
    pub unfinished: Vec<String>,
    /// Whose report was made from another version of their experiment file (other jobs): on
    /// the page, named stale with the commit it came from, until run and reported again.
    pub stale: Vec<String>,
    /// Verdict word -> count.
    pub counts: Vec<(String, usize)>,
}

/// One comparison row read back: its columns by `CSV_HEADER` name.
struct Row(Vec<String>);

impl Row {
    fn get(&self, name: &str) -> &str {
        CSV_HEADER
            .iter()
            .position(|h| *h == name)
            .map_or("", |i| self.0[i].as_str())
    }
}

fn read_comparisons(path: &Path) -> Result<Vec<Row>> {
    let df = CsvReadOptions::default()
        .with_has_header(true)
        .with_infer_schema_length(Some(0))
        .try_into_reader_with_file_path(Some(path.to_path_buf()))?
        .finish();
    let df = anyhow::Context::with_context(df, || format!("reading {}", path.display()))?;
    let columns: Vec<Vec<String>> = CSV_HEADER
        .iter()
        .map(|h| -> Result<Vec<String>> {
            let c = df.column(h).map_err(|_| {
                anyhow::anyhow!(
                    "{}: no column {h} (written by another version: report again)",
                    path.display()
                )
            })?;
            Ok(c.str()?
                .iter()
                .map(|v| v.unwrap_or("").to_string())
                .collect())
        })
        .collect::<Result<_>>()?;
    Ok((0..df.height())
        .map(|i| Row(columns.iter().map(|c| c[i].clone()).collect()))
        .collect())
}

/// The commit and date of the report a comparison file came from (its report.md's provenance
/// line), or a note that it cannot be read; and, when the report was made before its run had
/// every job, how many it had (with rows, in all).
fn reported_at(report_dir: &Path) -> (String, Option<(usize, usize)>) {
    let text = std::fs::read_to_string(report_dir.join("report.md")).unwrap_or_default();
    let when = match super::reported_at(&text) {
        Some((commit, date)) => format!("commit {commit}, {date}"),
        None => "no provenance line in its report.md".into(),
    };
    let unfinished = super::jobs_reported(&text).filter(|(with_rows, all)| with_rows < all);
    (when, unfinished)
}

/// Whether the report under `results` (an experiment's results folder) was made from jobs other
/// than those `exp` expands to now (the file was edited since: its rows are of another
/// experiment). A report written before reports listed their jobs cannot tell, and counts as
/// current. Where the file cannot be expanded here (the data it names, GoTools' files or another
/// experiment's trained weights, are not on this machine), the jobs its last run ran
/// (`current-jobs.json`) stand for it.
fn report_is_stale(exp: &Experiment, results: &Path) -> Result<bool> {
    use crate::experiment::layout::{current_jobs, read_job_hashes};
    let Some(reported) = read_job_hashes(&results.join("report").join(super::JOBS_FILE))? else {
        return Ok(false);
    };
    if let Some(now) = super::kept::jobs_now(exp) {
        return Ok(reported != now);
    }
    // The last run's jobs are hashes alone: compared without the reported game counts.
    match current_jobs(results)? {
        Some(last_run) => Ok(reported
            .iter()
            .map(|k| k.split('/').next().unwrap_or(k).to_string())
            .collect::<std::collections::BTreeSet<_>>()
            != last_run),
        None => Ok(false),
    }
}

/// Writes `out/results/summary.md` and `summary.csv` from the reports of `experiments` (those
/// without published values are left out; those not reported yet are listed as missing), and
/// the same page to `page` when given.
///
/// The reports are read from `reports/<name>/` when given (kept reports, `kept::keep`: `make
/// reproduction` builds docs/reproduction.md from docs/reports/ alone), else from each
/// experiment's results folder under `out`. A report made from an earlier version of its
/// experiment file (`kept::is_stale`, `report_is_stale`) stays on the page, named stale with
/// the commit it came from.
pub fn summary(
    experiments: &[Experiment],
    out: &Path,
    page: Option<&Path>,
    reports: Option<&Path>,
) -> Result<Summary> {
    let (mut reported, mut missing) = (Vec::new(), Vec::new());
    let mut stale = Vec::new();
    let mut unfinished_runs: Vec<String> = Vec::new();
    let mut md_rows = String::new();
    let mut md_derived = String::new();
    let mut derived_counts: std::collections::BTreeMap<String, usize> = Default::default();
    let mut reversals = String::new();
    let mut sources = String::new();
    let mut not_run = String::new();
    let mut costs = String::new();
    let mut csv = csv_line(
        &std::iter::once("experiment")
            .chain(CSV_HEADER)
            .collect::<Vec<_>>(),
    );
    let mut counts: std::collections::BTreeMap<String, usize> = std::collections::BTreeMap::new();
    let number = |s: &str| s.parse::<f64>().ok();
    // By file path, byte by byte: the page does not depend on the order a shell's glob (and its
    // locale) gave the files in.
    let mut experiments: Vec<&Experiment> = experiments
        .iter()
        .filter(|e| !e.file.report.reference.is_empty())
        .collect();
    experiments.sort_by(|a, b| a.path.as_os_str().cmp(b.path.as_os_str()));
    for exp in experiments {
        let results = results_dir(out, &exp.name);
        let folder = match reports {
            Some(r) => r.join(crate::durable::safe_component(&exp.name)),
            None => results.join("report"),
        };
        let path = folder.join(CSV_FILE);
        if !path.exists() {
            missing.push(exp.name.clone());
            not_run += &format!(
                "- `{}`: {}\n",
                exp.path.display(),
                exp.file
                    .description
                    .as_deref()
                    .unwrap_or("(no description)"),
            );
            continue;
        }
        let is_stale = match reports {
            Some(_) => super::kept::is_stale(exp, &folder)?,
            None => report_is_stale(exp, &results)?,
        };
        if is_stale {
            stale.push(exp.name.clone());
        }
        reported.push(exp.name.clone());
        let (when, unfinished) = reported_at(&folder);
        let times = match reports {
            Some(_) => folder.join(crate::experiment::layout::RUN_TIMES_FILE),
            None => results.join(crate::experiment::layout::RUN_TIMES_FILE),
        };
        costs += &match crate::experiment::layout::run_times(&times) {
            Some((seconds, runs, threads, cores)) => format!(
                "| `{}` | {} | {runs} | {threads} | {cores} |\n",
                exp.path.display(),
                duration_text(seconds)
            ),
            None => format!(
                "| `{}` | not recorded (reported before runs recorded their times) | – | – | – |\n",
                exp.path.display()
            ),
        };
        let mut name = match unfinished {
            Some((with_rows, all)) => {
                let name = format!("{} ({with_rows} of {all} jobs)", exp.name);
                unfinished_runs.push(name.clone());
                name
            }
            None => exp.name.clone(),
        };
        if is_stale {
            name += " (stale)";
        }
        sources += &format!(
            "- `{}`: {when}{}{}\n",
            exp.path.display(),
            unfinished.map_or(String::new(), |(with_rows, all)| format!(
                "; **an unfinished run: {with_rows} of {all} jobs**"
            )),
            if is_stale {
                "; **stale**: made from an earlier version of the file (other jobs); run and report it again"
            } else {
                ""
            }
        );
        for row in read_comparisons(&path)? {
            csv += &csv_line(
                &std::iter::once(exp.name.clone())
                    .chain(row.0.iter().cloned())
                    .collect::<Vec<_>>(),
            );
            let one_sample = crate::stats::two_sample::is_one_sample(row.get("test"))
                && row.get("verdict") != "not comparable";
            let word = if one_sample {
                format!("{} (one-sample)", row.get("verdict"))
            } else {
                row.get("verdict").to_string()
            };
            let derived = row.get("derived") == "true";
            *if derived {
                &mut derived_counts
            } else {
                &mut counts
            }
            .entry(word)
            .or_default() += 1;
            let paper_n = match (row.get("paper_n"), row.get("paper_n_assumed")) {
                ("", _) => "n ?".to_string(),
                (n, "true") => format!("n {n}, assumed"),
                (n, _) => format!("n {n}"),
            };
            let ours = match number(row.get("measured")) {
                Some(v) => format!("{v:.1} (n {})", row.get("n")),
                None => "–".into(),
            };
            let diff = match (
                number(row.get("difference")),
                number(row.get("difference_lo")),
                number(row.get("difference_hi")),
            ) {
                (Some(d), Some(lo), Some(hi)) => format!("{d:+.1} ({lo:+.1} to {hi:+.1})"),
                _ => "–".into(),
            };
            let p = number(row.get("p_holm")).map_or("–".into(), |p| {
                if p < 0.001 {
                    format!("{p:.1e}")
                } else {
                    format!("{p:.3}")
                }
            });
            if row.get("verdict") == "sign differs" && !derived {
                let why = exp
                    .file
                    .report
                    .reference
                    .iter()
                    .find(|r| {
                        r.table == row.get("table")
                            && r.source.as_deref().unwrap_or("") == row.get("source")
                    })
                    .and_then(|r| r.reversal.clone());
                reversals += &format!(
                    "- **{}**, {} {}: paper {}, ours {ours}. {}\n",
                    exp.name,
                    row.get("table"),
                    row.get("keys").replace('|', "/"),
                    row.get("published"),
                    why.unwrap_or_else(|| format!(
                        "Not explained yet: give this reference a `reversal` in {}.",
                        exp.path.display()
                    ))
                );
            }
            let mut verdict = match row.get("verdict") {
                "not comparable" => format!("not comparable: {}", row.get("why")),
                "consistent" => "consistent".into(),
                w => format!("**{w}**"),
            };
            if one_sample {
                verdict += " (one-sample)";
            }
            *if derived {
                &mut md_derived
            } else {
                &mut md_rows
            } += &format!(
                "| {} | {} | {} | {} ({paper_n}) | {ours} | {diff} | {p} | {verdict} |\n",
                name,
                row.get("source").replace('|', "/"),
                row.get("keys").replace('|', "/"),
                row.get("published"),
            );
        }
    }
    // The page is a record of what was run: a run that reported nothing would only overwrite it.
    if let Some(page) = page.filter(|_| reported.is_empty()) {
        anyhow::bail!(
            "no experiment here has been reported yet, so {} is left as it is: run and report the experiments first (make reproduce-all)",
            page.display()
        );
    }
    let total: usize = counts.values().sum();
    let mut md = String::from("# Published claims and our measurements\n\n");
    md += &if total == 0 {
        "No published values compared yet.\n\n".to_string()
    } else {
        format!(
            "{} from {}{}: {}.\n\n",
            counted(total, "published value"),
            counted(reported.len(), "experiment"),
            if stale.is_empty() {
                String::new()
            } else {
                format!(
                    " ({} of them stale, made from an earlier version of their file: {}; see \"Where the numbers come from\")",
                    stale.len(),
                    stale.join(", ")
                )
            },
            counts_text(&counts)
        )
    };
    md += "Where the paper gives its n, a verdict compares two samples, the paper's and ours (Fisher's exact test for scores, Welch's t for means with a spread). Where it gives no n (or no spread), the verdict is one-sample, and says so: the paper's value taken as a fixed number against our sample (the exact binomial test for scores, a one-sample t test for means, changes and ratings); it ignores the paper's own sampling error, so it finds differences more readily. P-values are Holm-adjusted within each table; \"sign differs\" when the two lie on opposite sides of 50% or 0 and the paper's value is clearly on its side. \"Not comparable\" only where the source gives no number or no measured row matches. See each experiment's report.md for the tables.\n\n";
    if !unfinished_runs.is_empty() {
        md += &format!(
            "Reported before their runs ended: {} (their values will change when the runs end; run them again, report, then summarise again).\n\n",
            unfinished_runs.join(", ")
        );
    }
    if !missing.is_empty() {
        md += &format!(
            "Not reported yet: {} with published values (listed at the end; run and report them, then summarise again).\n\n",
            counted(missing.len(), "experiment file")
        );
    }
    if !reversals.is_empty() {
        md += "## Reversals\n\nEach row where ours lies on the other side of the paper's value, and why (the `reversal` of its `[[report.reference]]`).\n\n";
        md += &reversals;
        md += "\n";
    }
    md += "## Every published value\n\n";
    md += "| experiment | source | row | paper | ours | ours − paper (95% CI) | p (Holm) | verdict |\n|---|---|---|---:|---:|---:|---:|---|\n";
    md += &md_rows;
    if !md_derived.is_empty() {
        let total: usize = derived_counts.values().sum();
        md += &format!(
            "\n## Values we derived from the papers' numbers\n\nNot published values, so not counted above: each is ours, computed from a paper's table as the paper's figure pools it (the experiment file's note says how), compared in the same way. {}: {}.\n\n",
            counted(total, "value"),
            counts_text(&derived_counts)
        );
        md += "| experiment | source | row | derived | ours | ours − derived (95% CI) | p (Holm) | verdict |\n|---|---|---|---:|---:|---:|---:|---|\n";
        md += &md_derived;
    }
    if !sources.is_empty() {
        md += &match reports {
            Some(r) => format!(
                "\n## Where the numbers come from\n\nEach experiment's report, kept in `{}/<experiment>/` with the experiment file it was made from (its `report.md` says how it was run):\n\n",
                r.display()
            ),
            None => "\n## Where the numbers come from\n\nEach experiment's report (its `report.md` says how it was run):\n\n".to_string(),
        };
        md += &sources;
    }
    if !costs.is_empty() {
        md += "\n## What each file costs\n\nThe wall time of the runs that made each report's rows (`gamelab run`, every run and resume of its results folder added up, a run killed part way up to its clock's last tick once the folder was run again; `run-times.csv` beside the report), with the worker threads and the machine's cores; the report itself takes seconds. Files that train weights for others (`trained:`) count only their own runs.\n\n| experiment file | wall time | runs | threads | cores |\n|---|---:|---:|---:|---:|\n";
        md += &costs;
    }
    if !not_run.is_empty() {
        md += "\n## Not in this page\n\nExperiment files with published values whose report was not there when this page was made (each file's comments say what it costs):\n\n";
        md += &not_run;
    }
    let dir = out.join("results");
    std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
    let (md_path, csv_path) = (dir.join("summary.md"), dir.join("summary.csv"));
    crate::durable::write_atomic(&md_path, |f| {
        Ok(std::io::Write::write_all(f, md.as_bytes())?)
    })?;
    crate::durable::write_atomic(&csv_path, |f| {
        Ok(std::io::Write::write_all(f, csv.as_bytes())?)
    })?;
    if let Some(page) = page {
        let text = format!(
            "<!-- Written by `gamelab summary` (`make reproduction`): edit the experiment files, not this page. -->\n{md}"
        );
        crate::durable::write_atomic(page, |f| Ok(std::io::Write::write_all(f, text.as_bytes())?))
            .with_context(|| format!("writing {}", page.display()))?;
    }
    Ok(Summary {
        markdown: md_path,
        csv: csv_path,
        reported,
        missing,
        unfinished: unfinished_runs,
        stale,
        counts: counts.into_iter().collect(),
    })
}

/// Seconds as `1 h 02 min`, `12 min 05 s` or `45 s`.
fn duration_text(seconds: f64) -> String {
    let s = seconds.round() as u64;
    match s {
        0..=59 => format!("{s} s"),
        60..=3599 => format!("{} min {:02} s", s / 60, s % 60),
        _ => format!("{} h {:02} min", s / 3600, (s % 3600) / 60),
    }
}

/// Verdict counts as `69 consistent, 4 sign differs`.
fn counts_text(counts: &std::collections::BTreeMap<String, usize>) -> String {
    counts
        .iter()
        .map(|(w, n)| format!("{n} {w}"))
        .collect::<Vec<_>>()
        .join(", ")
}
