//! The summary page across experiments (`gamelab summary`): every published value that the
//! experiments' reports compared, with the paper's value and n, ours and n, the difference, the
//! Holm-adjusted p and the verdict, read from each report's `comparisons.csv`.

use super::compare::{CSV_FILE, CSV_HEADER};
use super::table::csv_line;
use crate::experiment::Experiment;
use crate::experiment::runner::results_dir;
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

/// Writes `out/results/summary.md` and `summary.csv` from the reports of `experiments` (those
/// without published values are left out; those not reported yet are listed as missing).
pub fn summary(experiments: &[Experiment], out: &Path) -> Result<Summary> {
    let (mut reported, mut missing) = (Vec::new(), Vec::new());
    let mut md_rows = String::new();
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
        let path = results_dir(out, &exp.name).join("report").join(CSV_FILE);
        if !path.exists() {
            missing.push(exp.name.clone());
            continue;
        }
        reported.push(exp.name.clone());
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
            let verdict = match row.get("verdict") {
                "not comparable" => format!("not comparable: {}", row.get("why")),
                "consistent" => "consistent".into(),
                w => format!("**{w}**"),
            };
            md_rows += &format!(
                "| {} | {} | {} | {} ({paper_n}) | {ours} | {diff} | {p} | {verdict} |\n",
                exp.name,
                row.get("source").replace('|', "/"),
                row.get("keys").replace('|', "/"),
                row.get("published"),
            );
        }
    }
    let total: usize = counts.values().sum();
    let mut md = String::from("# Published claims and our measurements\n\n");
    md += &format!(
        "{total} published values from {} experiments: {}.\n\n",
        reported.len(),
        counts
            .iter()
            .map(|(w, n)| format!("{n} {w}"))
            .collect::<Vec<_>>()
            .join(", ")
    );
    md += "Each verdict compares two samples, the paper's and ours (Fisher's exact test for scores, Welch's t for means with a spread; p-values Holm-adjusted within each table; \"sign differs\" when the two lie on opposite sides of 50% or 0 and the paper's value is clearly on its side). See each experiment's report.md for the tables.\n\n";
    if !missing.is_empty() {
        md += &format!(
            "Not reported yet (run and report them first): {}.\n\n",
            missing.join(", ")
        );
    }
    md += "| experiment | source | row | paper | ours | ours − paper (95% CI) | p (Holm) | verdict |\n|---|---|---|---:|---:|---:|---:|---|\n";
    md += &md_rows;
    let dir = out.join("results");
    std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
    let (md_path, csv_path) = (dir.join("summary.md"), dir.join("summary.csv"));
    crate::durable::write_atomic(&md_path, |f| {
        Ok(std::io::Write::write_all(f, md.as_bytes())?)
    })?;
    crate::durable::write_atomic(&csv_path, |f| {
        Ok(std::io::Write::write_all(f, csv.as_bytes())?)
    })?;
    Ok(Summary {
        markdown: md_path,
        csv: csv_path,
        reported,
        missing,
        counts: counts.into_iter().collect(),
    })
}
