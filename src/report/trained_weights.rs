//! A life-and-death GA's trained weights in its report: `trained_weights.csv`, one row per
//! finished job (its hash, its grid values, then every feature's weight, static then dynamic),
//! written by `gamelab report` for a `tsumego_ga` experiment. Being a CSV it is part of a kept
//! report (`report --keep docs/reports`), so the weights a GA found live in git beside its
//! tables: a reader sees them, and a `trained:` reference of another experiment reads them when
//! the GA has no results on this machine (`experiment::kept_weights`, which reads the file), so
//! a fresh clone runs a file that reads a GA's weights without the hours of the GA itself.
//!
//! The weights are written in Rust's shortest round-trip form: read back, they are the very
//! numbers of `tables/<job>.weights`.

use crate::experiment::grid::Job;
use crate::game::tsumego::heuristic::{DYNAMIC_FEATURES, STATIC_FEATURES};
use anyhow::{Context, Result};
use std::path::Path;

pub use crate::experiment::kept_weights::{KeptWeights, WEIGHTS_FILE as FILE, read};

/// A grid value as the `trained:` filter and this file write it: a string as it is, anything
/// else in TOML's form.
fn value_text(v: &toml::Value) -> String {
    v.as_str()
        .map(str::to_string)
        .unwrap_or_else(|| v.to_string())
}

/// Writes `folder/trained_weights.csv` from the finished jobs' `tables/<job>.weights` under
/// `results` (the experiment's results folder). Returns the file's name, or None when no job
/// has finished (no file, and none left from an earlier report).
pub fn write(jobs: &[Job], results: &Path, folder: &Path) -> Result<Option<String>> {
    let path = folder.join(FILE);
    let mut rows = Vec::new();
    for job in jobs {
        let weights_file = results.join("tables").join(format!("{}.weights", job.hash));
        if !weights_file.is_file() {
            continue;
        }
        let text = crate::durable::read_sealed(&weights_file, "the GA's trained weights")?;
        let weights = crate::game::tsumego::heuristic::parse_weights(&text)
            .map_err(|e| anyhow::anyhow!("{}: {e}", weights_file.display()))?;
        rows.push(KeptWeights {
            job: job.hash.clone(),
            swept: job
                .swept
                .iter()
                .map(|(k, v)| (k.clone(), value_text(v)))
                .collect(),
            weights,
        });
    }
    if rows.is_empty() {
        std::fs::remove_file(&path).ok();
        return Ok(None);
    }
    let text = csv_text(&rows);
    std::fs::write(&path, text).with_context(|| format!("writing {}", path.display()))?;
    Ok(Some(FILE.to_string()))
}

/// The file's text: the header (job, the grid keys of the first row, every feature) and a line
/// a row.
fn csv_text(rows: &[KeptWeights]) -> String {
    let mut header = vec!["job".to_string()];
    header.extend(
        rows.first()
            .into_iter()
            .flat_map(|r| r.swept.iter().map(|(k, _)| k.clone())),
    );
    header.extend(
        STATIC_FEATURES
            .iter()
            .chain(&DYNAMIC_FEATURES)
            .map(|s| s.to_string()),
    );
    let mut text = super::table::csv_line(&header);
    for r in rows {
        let mut cells = vec![r.job.clone()];
        cells.extend(r.swept.iter().map(|(_, v)| v.clone()));
        cells.extend(
            r.weights
                .statics
                .iter()
                .chain(&r.weights.dynamics)
                .map(|v| v.to_string()),
        );
        text += &super::table::csv_line(&cells);
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::tsumego::heuristic::Weights;

    #[test]
    fn weights_written_and_read_back_are_the_same_numbers() {
        let dir = tempfile::tempdir().unwrap();
        let mut w = Weights::reference();
        w.statics[3] = 0.1 + 0.2; // not a short decimal
        w.dynamics[9] = 1234.5678e-3;
        let folder = dir.path();
        let row = KeptWeights {
            job: "00ff00ff00ff00ff".into(),
            swept: vec![("tsumego_ga.train.levels".into(), "3-6".into())],
            weights: w.clone(),
        };
        std::fs::write(folder.join(FILE), csv_text(std::slice::from_ref(&row))).unwrap();
        assert_eq!(read(folder).unwrap().unwrap(), vec![row]);
    }

    #[test]
    fn a_negative_or_missing_weight_is_refused_naming_the_line() {
        let dir = tempfile::tempdir().unwrap();
        let mut weights = Weights::zero();
        weights.statics.fill(1.0);
        weights.dynamics.fill(1.0);
        weights.statics[4] = -1.0;
        let row = KeptWeights {
            job: "00ff00ff00ff00ff".into(),
            swept: Vec::new(),
            weights,
        };
        std::fs::write(dir.path().join(FILE), csv_text(&[row])).unwrap();
        let e = format!("{:#}", read(dir.path()).unwrap_err());
        assert!(
            e.contains("line 2") && e.contains(STATIC_FEATURES[4]),
            "{e}"
        );
        assert!(read(&dir.path().join("none")).unwrap().is_none());
    }
}
