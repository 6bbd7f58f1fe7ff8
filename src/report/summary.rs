//! The summary page across experiments (`gamelab summary`): every published value that the
//! experiments' reports compared, with the paper's value and n, ours and n, the difference, the
//! Holm-adjusted p and the verdict, read from each report's `comparisons.csv`.

use super::compare::{CSV_FILE, CSV_HEADER};
use super::table::csv_line;
use crate::experiment::Experiment;
use crate::experiment::runner::results_dir;
use anyhow::{Context, Result};
use polars::prelude::*;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// What the summary wrote.
pub struct Summary {
    pub markdown: PathBuf,
    pub csv: PathBuf,
    /// Experiments with published values compared, and those whose report is missing.
    pub reported: Vec<String>,
    pub missing: Vec<String>,
    /// Not reported here, their values kept from the earlier page (`carry_over`).
    pub carried: Vec<String>,
    /// Reported before their runs ended: `name (J of N jobs)`.
    pub unfinished: Vec<String>,
    /// Whose report was made from another version of their experiment file (other jobs): left
    /// out of the page (or carried over from it) until reported again.
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

/// What an earlier page (the one `--page` names) said of one experiment, read back from the
/// page's own Markdown: its rows of "Every published value" with their verdicts, and its
/// reversal lines (its line under "Where the numbers come from" is kept by file, `read_page`).
/// A page is a record across machines: a file reported on one machine and summarised on
/// another keeps its values this way.
#[derive(Default)]
struct Carried {
    rows: Vec<String>,
    verdicts: Vec<String>,
    reversals: Vec<String>,
    /// The name column as written, `name (J of N jobs)` for a report of an unfinished run.
    shown_as: Option<String>,
}

/// The suffix a carried experiment's source line gets (once, however often it is carried).
const CARRIED_NOTE: &str =
    "; **carried over from the earlier page** (its report was not where this page was made)";

/// Experiments of an earlier page by name (rows, reversals) and by file (source lines).
fn read_page(text: &str) -> (HashMap<String, Carried>, Vec<(String, String)>) {
    let mut by_name: HashMap<String, Carried> = HashMap::new();
    let mut sources = Vec::new();
    let mut section = "";
    for line in text.lines() {
        if let Some(h) = line.strip_prefix("## ") {
            section = match h.trim() {
                "Reversals" => "reversals",
                "Every published value" => "values",
                "Where the numbers come from" => "sources",
                _ => "",
            };
            continue;
        }
        match section {
            "values" if line.starts_with("| ") && !line.starts_with("| experiment |") => {
                let cells: Vec<&str> = line.split('|').map(str::trim).collect();
                // "| a | b | … | verdict |" splits into ["", a, b, …, verdict, ""].
                let (Some(shown), Some(verdict)) = (cells.get(1), cells.iter().rev().nth(1)) else {
                    continue;
                };
                let name = match shown
                    .strip_suffix(" jobs)")
                    .and_then(|s| s.rsplit_once(" ("))
                {
                    Some((name, _)) => name,
                    None => shown,
                };
                let verdict = verdict.trim_matches('*');
                let verdict = verdict.split_once(':').map_or(verdict, |(w, _)| w);
                let c = by_name.entry(name.to_string()).or_default();
                c.rows.push(line.to_string());
                c.verdicts.push(verdict.trim().to_string());
                c.shown_as = Some(shown.to_string());
            }
            "reversals" => {
                if let Some((name, _)) = line.strip_prefix("- **").and_then(|l| l.split_once("**,"))
                {
                    by_name
                        .entry(name.to_string())
                        .or_default()
                        .reversals
                        .push(line.to_string());
                }
            }
            "sources" => {
                if let Some((file, rest)) =
                    line.strip_prefix("- `").and_then(|l| l.split_once("`: "))
                {
                    let rest = rest.strip_suffix(CARRIED_NOTE).unwrap_or(rest);
                    sources.push((file.to_string(), rest.to_string()));
                }
            }
            _ => {}
        }
    }
    (by_name, sources)
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
    use crate::experiment::runner::{current_jobs, read_job_hashes};
    let Some(reported) = read_job_hashes(&results.join("report").join(super::JOBS_FILE))? else {
        return Ok(false);
    };
    // The grid alone: a job kind's checks are not needed to name the jobs.
    let now = match crate::experiment::grid::expand_grid(exp) {
        Ok(jobs) => jobs.into_iter().map(|j| j.hash).collect(),
        Err(_) => match current_jobs(results)? {
            Some(last_run) => last_run,
            None => return Ok(false),
        },
    };
    Ok(reported != now)
}

/// Writes `out/results/summary.md` and `summary.csv` from the reports of `experiments` (those
/// without published values are left out; those not reported yet are listed as missing), and
/// the same page to `page` when given (`make reproduction` writes docs/reproduction.md).
///
/// With `carry_over`, an experiment whose report is not under `out` keeps what the page at
/// `page` says of it (its rows, verdicts, reversals and provenance, marked as carried over), so
/// that a page made from runs on several machines, or sessions, keeps every value; without a
/// line on that page it is listed as not reported, as always. A report made from an earlier
/// version of its experiment file (`report_is_stale`) counts as not there.
pub fn summary(
    experiments: &[Experiment],
    out: &Path,
    page: Option<&Path>,
    carry_over: bool,
) -> Result<Summary> {
    let (mut reported, mut missing, mut carried) = (Vec::new(), Vec::new(), Vec::new());
    let mut stale = Vec::new();
    let (mut earlier, earlier_sources) = match page.filter(|_| carry_over) {
        Some(p) if p.exists() => read_page(
            &std::fs::read_to_string(p).with_context(|| format!("reading {}", p.display()))?,
        ),
        _ => Default::default(),
    };
    let mut unfinished_runs: Vec<String> = Vec::new();
    let mut md_rows = String::new();
    let mut reversals = String::new();
    let mut sources = String::new();
    let mut not_run = String::new();
    let mut csv = csv_line(
        &std::iter::once("experiment")
            .chain(CSV_HEADER)
            .collect::<Vec<_>>(),
    );
    let mut counts: std::collections::BTreeMap<String, usize> = std::collections::BTreeMap::new();
    let number = |s: &str| s.parse::<f64>().ok();
    for exp in experiments
        .iter()
        .filter(|e| !e.file.report.reference.is_empty())
    {
        let results = results_dir(out, &exp.name);
        let path = results.join("report").join(CSV_FILE);
        let is_there = path.exists();
        let is_stale = is_there && report_is_stale(exp, &results)?;
        if is_stale {
            stale.push(exp.name.clone());
        }
        if !is_there || is_stale {
            let file = exp.path.display().to_string();
            if let Some(c) = earlier.remove(&exp.name).filter(|c| !c.rows.is_empty()) {
                carried.push(exp.name.clone());
                for (row, verdict) in c.rows.iter().zip(&c.verdicts) {
                    md_rows += &format!("{row}\n");
                    *counts.entry(verdict.clone()).or_default() += 1;
                }
                for line in &c.reversals {
                    reversals += &format!("{line}\n");
                }
                if let Some(shown) = c.shown_as.filter(|s| *s != exp.name) {
                    unfinished_runs.push(shown);
                }
                let when = earlier_sources
                    .iter()
                    .find(|(f, _)| *f == file)
                    .map_or("provenance not on the earlier page", |(_, w)| w.as_str());
                sources += &format!("- `{file}`: {when}{CARRIED_NOTE}\n");
                continue;
            }
            missing.push(exp.name.clone());
            not_run += &format!(
                "- `{}`: {}{}\n",
                exp.path.display(),
                exp.file
                    .description
                    .as_deref()
                    .unwrap_or("(no description)"),
                if is_stale {
                    " (its report is of an earlier version of the file: run and report it again)"
                } else {
                    ""
                }
            );
            continue;
        }
        reported.push(exp.name.clone());
        let (when, unfinished) = reported_at(path.parent().unwrap_or(Path::new(".")));
        let name = match unfinished {
            Some((with_rows, all)) => {
                let name = format!("{} ({with_rows} of {all} jobs)", exp.name);
                unfinished_runs.push(name.clone());
                name
            }
            None => exp.name.clone(),
        };
        sources += &format!(
            "- `{}`: {when}{}\n",
            exp.path.display(),
            unfinished.map_or(String::new(), |(with_rows, all)| format!(
                "; **an unfinished run: {with_rows} of {all} jobs**"
            ))
        );
        for row in read_comparisons(&path)? {
            csv += &csv_line(
                &std::iter::once(exp.name.clone())
                    .chain(row.0.iter().cloned())
                    .collect::<Vec<_>>(),
            );
            *counts.entry(row.get("verdict").to_string()).or_default() += 1;
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
            if row.get("verdict") == "sign differs" {
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
            let verdict = match row.get("verdict") {
                "not comparable" => format!("not comparable: {}", row.get("why")),
                "consistent" => "consistent".into(),
                w => format!("**{w}**"),
            };
            md_rows += &format!(
                "| {} | {} | {} | {} ({paper_n}) | {ours} | {diff} | {p} | {verdict} |\n",
                name,
                row.get("source").replace('|', "/"),
                row.get("keys").replace('|', "/"),
                row.get("published"),
            );
        }
    }
    // The page is a record of what was run: a run that reported nothing would only overwrite it.
    if let Some(page) = page.filter(|_| reported.is_empty() && carried.is_empty()) {
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
            "{total} published values from {} experiments{}: {}.\n\n",
            reported.len() + carried.len(),
            if carried.is_empty() {
                String::new()
            } else {
                format!(
                    " ({} of them carried over from the earlier page; see \"Where the numbers come from\")",
                    carried.len()
                )
            },
            counts
                .iter()
                .map(|(w, n)| format!("{n} {w}"))
                .collect::<Vec<_>>()
                .join(", ")
        )
    };
    md += "Each verdict compares two samples, the paper's and ours (Fisher's exact test for scores, Welch's t for means with a spread; p-values Holm-adjusted within each table; \"sign differs\" when the two lie on opposite sides of 50% or 0 and the paper's value is clearly on its side). See each experiment's report.md for the tables.\n\n";
    if !unfinished_runs.is_empty() {
        md += &format!(
            "Reported before their runs ended: {} (their values will change when the runs end; run them again, report, then summarise again).\n\n",
            unfinished_runs.join(", ")
        );
    }
    if !missing.is_empty() {
        md += &format!(
            "Not reported yet: {} experiment files with published values (listed at the end; run and report them, then summarise again).\n\n",
            missing.len()
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
    if !sources.is_empty() {
        md += "\n## Where the numbers come from\n\nEach experiment's report (its `report.md` says how it was run):\n\n";
        md += &sources;
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
        carried,
        unfinished: unfinished_runs,
        stale,
        counts: counts.into_iter().collect(),
    })
}
