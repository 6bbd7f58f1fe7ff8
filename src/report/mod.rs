//! The report stage: reads the rows a run wrote (never the engines), computes the grouped
//! statistics the experiment's `[report]` section asks for, and writes `report.md`, the table
//! as CSV, and figures.
//!
//! Only the part files of the experiment's current jobs are read, so rows left by an older
//! version of the file (other job hashes) never leak into its report; the report says how many
//! of the jobs had rows.

pub mod figure;
pub mod stats;
pub mod table;

use crate::experiment::error::InputError;
use crate::experiment::grid::Job;
use crate::experiment::record::{existing_part, read_part};
use crate::experiment::runner::results_dir;
use crate::experiment::spec::Experiment;
use anyhow::{Context, Result};
use polars::prelude::{DataFrame, DataType};
use std::path::{Path, PathBuf};

/// Group keys every game table has besides the grid keys.
pub const BASE_KEYS: [&str; 4] = ["agent", "opponent", "seat", "stage"];

/// What `[report]` asks for, with defaults filled in and checked against the experiment.
#[derive(Clone, Debug, PartialEq)]
pub struct ReportPlan {
    pub group_by: Vec<String>,
    pub level: f64,
    pub title: String,
}

/// Checks the `[report]` section (called before a run too, so a bad section stops the run
/// before anything is written).
pub fn plan(exp: &Experiment) -> Result<ReportPlan, InputError> {
    let r = &exp.file.report;
    let grid_keys: Vec<String> = exp.file.grid.keys().cloned().collect();
    let group_by = match &r.group_by {
        Some(g) => {
            if g.is_empty() {
                return Err(exp.error("report.group_by", "give at least one column"));
            }
            for k in g {
                if !BASE_KEYS.contains(&k.as_str()) && !grid_keys.contains(k) {
                    let mut known: Vec<String> = BASE_KEYS.iter().map(|s| s.to_string()).collect();
                    known.extend(grid_keys.iter().cloned());
                    return Err(exp.error("report.group_by", format!("unknown column '{k}' (expected one of {})", known.join(", "))));
                }
            }
            g.clone()
        }
        None => std::iter::once("agent".to_string()).chain(grid_keys).collect(),
    };
    let level = r.level.unwrap_or(0.95);
    if !(level > 0.0 && level < 1.0) {
        return Err(exp.error("report.level", format!("{level} is not a confidence level (expected a number strictly between 0 and 1, e.g. 0.95)")));
    }
    Ok(ReportPlan { group_by, level, title: r.title.clone().unwrap_or_else(|| exp.name.clone()) })
}

/// What a report wrote.
#[derive(Clone, Debug)]
pub struct ReportOutput {
    pub report: PathBuf,
    pub table_csv: PathBuf,
    pub figures: Vec<PathBuf>,
    pub rows: usize,
    pub jobs_with_rows: usize,
    pub jobs_total: usize,
}

fn str_column(df: &DataFrame, name: &str) -> Result<Vec<String>> {
    let c = df.column(name).with_context(|| format!("the rows have no column '{name}'"))?;
    let c = c.cast(&DataType::String)?;
    Ok(c.str()?.iter().map(|v| v.unwrap_or("").to_string()).collect())
}

/// Each game as two (group keys, result) records, one per seat.
fn perspectives(df: &DataFrame, group_by: &[String]) -> Result<Vec<(Vec<String>, f64)>> {
    let first = str_column(df, "first_agent")?;
    let second = str_column(df, "second_agent")?;
    let winner = str_column(df, "winner")?;
    let mut other: std::collections::HashMap<&str, Vec<String>> = std::collections::HashMap::new();
    for k in group_by {
        if !["agent", "opponent", "seat"].contains(&k.as_str()) {
            other.insert(k, str_column(df, k)?);
        }
    }
    let mut out = Vec::with_capacity(2 * df.height());
    for i in 0..df.height() {
        for seat in ["first", "second"] {
            let (me, them) = if seat == "first" { (&first[i], &second[i]) } else { (&second[i], &first[i]) };
            let result = match winner[i].as_str() {
                "draw" => 0.5,
                w if w == seat => 1.0,
                _ => 0.0,
            };
            let keys = group_by
                .iter()
                .map(|k| match k.as_str() {
                    "agent" => me.clone(),
                    "opponent" => them.clone(),
                    "seat" => seat.to_string(),
                    other_key => other[other_key][i].clone(),
                })
                .collect();
            out.push((keys, result));
        }
    }
    Ok(out)
}

fn git_commit() -> String {
    std::process::Command::new("git")
        .args(["rev-parse", "--short", "HEAD"])
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_else(|| "unknown".into())
}

/// Reads the rows of `jobs` under `out` and writes the report and figures.
pub fn report(exp: &Experiment, jobs: &[Job], out: &Path) -> Result<ReportOutput> {
    let plan = plan(exp)?;
    let dir = results_dir(out, &exp.name);
    let games_dir = dir.join("games");
    let mut records = Vec::new();
    let (mut rows, mut jobs_with_rows) = (0, 0);
    for job in jobs {
        if let Some(part) = existing_part(&games_dir, &job.hash) {
            let df = read_part(&part)?;
            rows += df.height();
            jobs_with_rows += 1;
            records.extend(perspectives(&df, &plan.group_by)?);
        }
    }
    if jobs_with_rows == 0 {
        anyhow::bail!("no rows for {} under {}: run `gamelab run {}` first", exp.name, games_dir.display(), exp.path.display());
    }
    let rank_key = plan.group_by.iter().position(|k| k == "agent");
    let table = table::aggregate(records, plan.level, rank_key);

    let fig_dir = out.join("figures").join(&exp.name);
    let bars: Vec<figure::ranked::Bar> = table
        .iter()
        .map(|r| figure::ranked::Bar { label: r.keys.join(" · "), value: 100.0 * r.score, lo: 100.0 * r.lo, hi: 100.0 * r.hi })
        .collect();
    let level_pct = (plan.level * 1000.0).round() / 10.0;
    let fig_title = format!("{}: score with {level_pct}% Wilson interval", plan.title);
    let figures = figure::write_figure(
        &fig_dir,
        "scores",
        &figure::ranked::RankedBars { title: fig_title, value_axis: "score (% of games, draw = 1/2)".into(), bars, range: (0.0, 100.0) },
    )?;

    let f = &exp.file;
    let mut md = format!("# {}\n\n", plan.title);
    if let Some(d) = &f.description {
        md += &format!("{}\n\n", d.trim());
    }
    md += "## Settings\n\n";
    md += &format!("- experiment file: `{}` (name `{}`)\n", exp.path.display(), exp.name);
    md += &format!("- kind: {:?}, game: {:?}, seed: {}, repeats: {}\n", f.kind, f.game, f.seed, f.repeats).to_lowercase();
    let stages: std::collections::BTreeSet<&str> = jobs.iter().map(|j| j.config.stage.id.as_str()).collect();
    md += &format!("- stage: {}\n", stages.into_iter().collect::<Vec<_>>().join(", "));
    for (label, spec) in &f.agents {
        md += &format!("- agent `{label}`: {}\n", serde_json::to_string(spec)?);
    }
    for (k, v) in &f.grid {
        md += &format!("- grid `{k}`: {}\n", v.iter().map(crate::experiment::record::swept_text).collect::<Vec<_>>().join(", "));
    }
    md += &format!(
        "- computed from {rows} game rows of {jobs_with_rows} of {} jobs (`{}`)\n- gamelab {} (commit {})\n\n",
        jobs.len(),
        games_dir.display(),
        env!("CARGO_PKG_VERSION"),
        git_commit()
    );
    if jobs_with_rows < jobs.len() {
        md += &format!("**Incomplete:** {} jobs have no rows yet; run the experiment again to finish them.\n\n", jobs.len() - jobs_with_rows);
    }
    md += "## Scores\n\nScore = (W + D/2) / G x 100, from each agent's point of view; the interval is Wilson's for the score as a proportion of G games.\n\n";
    md += &table::markdown(&plan.group_by, &table, plan.level);
    let rel = format!("../../figures/{}/scores.png", exp.name);
    md += &format!("\n![scores]({rel})\n");

    std::fs::create_dir_all(&dir)?;
    let report_path = dir.join("report.md");
    std::fs::write(&report_path, md).with_context(|| format!("writing {}", report_path.display()))?;
    let csv_path = dir.join("scores.csv");
    std::fs::write(&csv_path, table::csv(&plan.group_by, &table)).with_context(|| format!("writing {}", csv_path.display()))?;
    Ok(ReportOutput { report: report_path, table_csv: csv_path, figures, rows, jobs_with_rows, jobs_total: jobs.len() })
}
