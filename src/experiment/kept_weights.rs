//! What a kept report (`docs/reports/<experiment>/`, `report::kept`) holds that a run reads
//! back: a life-and-death GA's trained weights, `trained_weights.csv` (one row per finished
//! job: its hash, its grid values, then every feature's weight, static then dynamic; written by
//! `report::trained_weights`). A `trained:` reference (`tsumego_spec`) reads them where the
//! GA's own results are not on this machine, so a fresh clone runs the files that read a GA's
//! weights without the GA's hours.
//!
//! The kept copy counts only while it is current: the GA's file in `experiments/` is, less its
//! `[report]` section and comments, the copy the report was kept from (`same_jobs_text`, the
//! rule `report::kept::is_stale` applies where a file cannot be expanded), and the row's job is
//! in the kept job list. This lives in the experiment room, not the report's, because a run
//! reads it (the report imports the run's stages, never the other way).

use crate::game::tsumego::heuristic::{DYNAMIC_FEATURES, STATIC_FEATURES, Weights};
use anyhow::{Context, Result};
use std::path::Path;

/// The trained weights' file in a kept report folder.
pub const WEIGHTS_FILE: &str = "trained_weights.csv";
/// The copy of the experiment file a kept report was made from.
pub const EXPERIMENT_COPY: &str = "experiment.toml";
/// The job list of a report (its hashes), in a report folder and a kept one.
pub const JOBS_FILE: &str = "jobs.json";

/// Whether two texts of an experiment file define the same jobs as far as the text tells:
/// the same TOML less the `[report]` section (and the comments, which TOML drops), a `name`
/// that is `stem` (the file's own stem, what the file was named without one) counting as none.
/// A text that is not TOML is the same only as itself.
pub fn same_jobs_text(kept: &str, now: &str, stem: Option<&str>) -> bool {
    let jobs_part = |text: &str| -> Result<toml::Table, String> {
        let mut t: toml::Table = text.parse().map_err(|_| text.to_string())?;
        t.remove("report");
        if t.get("name").and_then(|n| n.as_str()) == stem {
            t.remove("name");
        }
        Ok(t)
    };
    jobs_part(kept) == jobs_part(now)
}

/// Whether a job's grid values (key, value as text) match a `trained:` filter: every
/// `key=value` names a swept key (whole, or its last dotted part) whose value is that text.
/// The one rule for a GA's results and for its kept report.
pub fn matches_filter<'a>(
    swept: impl Iterator<Item = (&'a str, String)> + Clone,
    filter: &[(String, String)],
) -> bool {
    filter.iter().all(|(k, v)| {
        swept
            .clone()
            .any(|(sk, sv)| (sk == k || sk.rsplit('.').next() == Some(k.as_str())) && sv == *v)
    })
}

/// One job's row: its hash, its grid values (key, text) and its weights.
#[derive(Clone, Debug, PartialEq)]
pub struct KeptWeights {
    pub job: String,
    pub swept: Vec<(String, String)>,
    pub weights: Weights,
}

/// The rows of `folder/trained_weights.csv`; None where the folder has no such file.
pub fn read(folder: &Path) -> Result<Option<Vec<KeptWeights>>> {
    let path = folder.join(WEIGHTS_FILE);
    if !path.is_file() {
        return Ok(None);
    }
    let df = polars::prelude::CsvReadOptions::default()
        .with_has_header(true)
        .with_infer_schema_length(Some(0))
        .try_into_reader_with_file_path(Some(path.clone()))
        .and_then(|r| polars::prelude::SerReader::finish(r))
        .with_context(|| format!("reading {}", path.display()))?;
    let header: Vec<String> = df
        .get_column_names()
        .iter()
        .map(|n| n.to_string())
        .collect();
    let columns: Vec<Vec<String>> = df
        .columns()
        .iter()
        .map(|c| -> Result<Vec<String>> {
            Ok(c.str()?
                .iter()
                .map(|v| v.unwrap_or("").to_string())
                .collect())
        })
        .collect::<Result<_>>()
        .with_context(|| format!("reading {}", path.display()))?;
    let features = STATIC_FEATURES.len() + DYNAMIC_FEATURES.len();
    if header.first().map(String::as_str) != Some("job") || header.len() < 1 + features {
        anyhow::bail!(
            "{}: expected the columns job, the grid keys and {features} weights",
            path.display()
        );
    }
    let keys = &header[1..header.len() - features];
    let mut rows = Vec::new();
    for i in 0..df.height() {
        // Line 1 is the header; the file holds no quoted line breaks.
        let line = i + 2;
        let cells: Vec<&str> = columns.iter().map(|c| c[i].as_str()).collect();
        let values: Vec<f64> = cells[1 + keys.len()..]
            .iter()
            .zip(&header[1 + keys.len()..])
            .map(|(c, name)| {
                c.parse::<f64>()
                    .ok()
                    .filter(|v| v.is_finite() && *v >= 0.0)
                    .with_context(|| {
                        format!(
                            "{} line {line}: weight {name} '{c}' is not a non-negative number",
                            path.display()
                        )
                    })
            })
            .collect::<Result<_>>()?;
        let mut weights = Weights::zero();
        weights
            .statics
            .copy_from_slice(&values[..STATIC_FEATURES.len()]);
        weights
            .dynamics
            .copy_from_slice(&values[STATIC_FEATURES.len()..]);
        rows.push(KeptWeights {
            job: cells[0].to_string(),
            swept: keys
                .iter()
                .cloned()
                .zip(cells[1..1 + keys.len()].iter().map(|s| s.to_string()))
                .collect(),
            weights,
        });
    }
    Ok(Some(rows))
}

/// The kept reports' folder under `out` (the checkout a run writes into), where a `trained:`
/// reader looks for a GA's kept weights.
pub const KEPT_REPORTS: &str = "docs/reports";
/// The experiment files' folder under `out`, where the GA's file must be for its kept weights
/// to count as current.
pub const EXPERIMENTS: &str = "experiments";

/// The weights of `exp`'s job matching `filter` from its kept report
/// (`out/docs/reports/<exp>/trained_weights.csv`, `report::trained_weights`), when the report
/// is current: `out/experiments/<exp>.toml` exists and is, less its `[report]` section and
/// comments, the kept copy (`same_jobs_text`), and the row's job is in the kept job list.
/// Ok(None) where there is no kept weights file. Says once on stderr which kept report it read.
pub fn load(out: &Path, exp: &str, filter: &[(String, String)]) -> Result<Option<Weights>> {
    let folder = out
        .join(KEPT_REPORTS)
        .join(crate::durable::safe_component(exp));
    let Some(rows) = read(&folder)? else {
        return Ok(None);
    };
    let file = out.join(EXPERIMENTS).join(format!("{exp}.toml"));
    if !file.is_file() {
        anyhow::bail!(
            "{} holds kept weights but {} is missing, so nothing says they are the file's current ones",
            folder.display(),
            file.display()
        );
    }
    let now =
        std::fs::read_to_string(&file).with_context(|| format!("reading {}", file.display()))?;
    let kept = std::fs::read_to_string(folder.join(EXPERIMENT_COPY)).ok();
    if !kept.is_some_and(|k| same_jobs_text(&k, &now, Some(exp))) {
        anyhow::bail!(
            "{} was made from another version of {}: run it and keep its report again",
            folder.display(),
            file.display()
        );
    }
    let kept_jobs = super::layout::read_job_hashes(&folder.join(JOBS_FILE))?.unwrap_or_default();
    let describe = |r: &KeptWeights| {
        r.swept
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
            .join(",")
    };
    let matching: Vec<&KeptWeights> = rows
        .iter()
        .filter(|r| kept_jobs.contains(&r.job))
        .filter(|r| matches_filter(r.swept.iter().map(|(k, v)| (k.as_str(), v.clone())), filter))
        .collect();
    let seen: Vec<String> = rows.iter().map(describe).collect();
    match matching.as_slice() {
        [row] => {
            static SAID: std::sync::Mutex<Vec<String>> = std::sync::Mutex::new(Vec::new());
            let mut said = SAID.lock().unwrap_or_else(|e| e.into_inner());
            if !said.iter().any(|s| s == exp) {
                said.push(exp.to_string());
                eprintln!(
                    "trained:{exp}: no results of it here; reading the weights of its kept report {}",
                    folder.join(WEIGHTS_FILE).display()
                );
            }
            Ok(Some(row.weights.clone()))
        }
        [] => anyhow::bail!(
            "no job in {} matches (its jobs: {})",
            folder.join(WEIGHTS_FILE).display(),
            seen.join("; ")
        ),
        _ => anyhow::bail!(
            "{} jobs in {} match; add key=value to pick one (its jobs: {})",
            matching.len(),
            folder.join(WEIGHTS_FILE).display(),
            seen.join("; ")
        ),
    }
}
