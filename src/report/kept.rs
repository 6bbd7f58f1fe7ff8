//! Reports kept as reference artefacts: `docs/reports/<experiment>/` holds the tables of an
//! experiment's report (report.md with its provenance line, one CSV a table, comparisons.csv,
//! jobs.json), the wall times of the runs that made its rows (`run-times.csv`) and a copy of the
//! experiment file it was made from; not the rows, the figures or
//! report.html, so a folder is tens of KB and lives in git. `gamelab report FILE --keep DIR`
//! writes one; `gamelab summary --reports DIR` (`make reproduction`) builds the reproduction
//! page from them alone, without a game or a results folder, so a fresh clone rebuilds the
//! committed page exactly (a test does).
//!
//! A kept report is *stale* when its experiment file no longer expands to the jobs it was made
//! from (`is_stale`): the page names it so, with the commit it came from, until it is run and
//! kept again.

use crate::experiment::spec::Experiment;
use anyhow::{Context, Result};
use std::path::{Path, PathBuf};

pub use crate::experiment::kept_weights::EXPERIMENT_COPY;

/// Whether a report file belongs in a kept folder: the Markdown report and its tables, and the
/// job list; never report.html (figures inlined) or the figures.
fn kept_file(name: &str) -> bool {
    name == "report.md" || name == super::JOBS_FILE || name.ends_with(".csv")
}

/// Copies the report in `report_dir` (an experiment's `results/<name>/report`) and the
/// experiment file into `into/<name>/`, replacing what was there: the new folder is built
/// beside it and swapped in by renames, so a kill leaves the old folder or the new one (and a
/// hidden leftover that the next keep removes). Returns the folder.
pub fn keep(exp: &Experiment, report_dir: &Path, into: &Path) -> Result<PathBuf> {
    let name = crate::durable::safe_component(&exp.name);
    let dest = into.join(&name);
    let fresh = into.join(format!(".{name}.new"));
    let old = into.join(format!(".{name}.old"));
    std::fs::create_dir_all(into).with_context(|| format!("creating {}", into.display()))?;
    for leftover in [&fresh, &old] {
        if leftover.exists() {
            std::fs::remove_dir_all(leftover)
                .with_context(|| format!("removing {}", leftover.display()))?;
        }
    }
    std::fs::create_dir(&fresh).with_context(|| format!("creating {}", fresh.display()))?;
    let mut names: Vec<String> = std::fs::read_dir(report_dir)
        .with_context(|| format!("reading {}", report_dir.display()))?
        .flatten()
        .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| kept_file(n))
        .collect();
    names.sort();
    for n in &names {
        copy(&report_dir.join(n), &fresh.join(n))?;
    }
    // The runs' wall times (`layout::RUN_TIMES_FILE`, in the results folder above the report):
    // the page's table of what each file costs.
    let times_file = crate::experiment::layout::RUN_TIMES_FILE;
    if let Some(t) = report_dir
        .parent()
        .map(|d| d.join(times_file))
        .filter(|t| t.is_file())
    {
        copy(&t, &fresh.join(times_file))?;
    }
    copy(&exp.path, &fresh.join(EXPERIMENT_COPY))?;
    if dest.exists() {
        std::fs::rename(&dest, &old).with_context(|| format!("moving {}", dest.display()))?;
    }
    std::fs::rename(&fresh, &dest).with_context(|| format!("writing {}", dest.display()))?;
    if old.exists() {
        std::fs::remove_dir_all(&old).ok();
    }
    Ok(dest)
}

/// Copies a file's bytes to `to` (written atomically).
fn copy(from: &Path, to: &Path) -> Result<()> {
    let bytes = std::fs::read(from).with_context(|| format!("reading {}", from.display()))?;
    crate::durable::write_atomic(to, |f| Ok(std::io::Write::write_all(f, &bytes)?))
}

/// The job hashes `exp` expands to now, from its grid alone (a job kind's checks are not needed
/// to name the jobs); None where the file cannot be expanded here (it names data that is not
/// on this machine: GoTools' files, another experiment's trained weights).
pub(super) fn jobs_now(exp: &Experiment) -> Option<std::collections::BTreeSet<String>> {
    crate::experiment::kind::registry::expand_grid(exp)
        .ok()
        .map(|jobs| {
            jobs.iter()
                .map(crate::experiment::Job::report_key)
                .collect()
        })
}

/// Whether the kept report in `folder` was made from other jobs than `exp` expands to now.
/// Where the file cannot be expanded here (it names data that is not on this machine: GoTools'
/// files, another experiment's trained weights), the kept copy of the file stands for its jobs:
/// stale when the file's text differs from it. A folder without a job list cannot tell and
/// counts as current.
pub fn is_stale(exp: &Experiment, folder: &Path) -> Result<bool> {
    use crate::experiment::layout::read_job_hashes;
    let Some(reported) = read_job_hashes(&folder.join(super::JOBS_FILE))? else {
        return Ok(false);
    };
    if let Some(now) = jobs_now(exp) {
        return Ok(now != reported);
    }
    let kept = std::fs::read_to_string(folder.join(EXPERIMENT_COPY)).ok();
    let now = std::fs::read_to_string(&exp.path)
        .with_context(|| format!("reading {}", exp.path.display()))?;
    // The jobs come from everything but the `[report]` section (and the comments): a file whose
    // report alone changed has the same jobs (`same_measure` judges its tables).
    let stem = exp
        .path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned());
    Ok(kept.is_some_and(|k| {
        !crate::experiment::kept_weights::same_jobs_text(&k, &now, stem.as_deref())
    }))
}

/// The `[report]` section of the experiment file a kept report was made from; None where the
/// folder holds no copy, or one this version cannot read.
pub fn kept_report_spec(folder: &Path) -> Option<super::spec::ReportSpec> {
    let text = std::fs::read_to_string(folder.join(EXPERIMENT_COPY)).ok()?;
    let mut file: toml::Table = text.parse().ok()?;
    file.remove("report")?.try_into().ok()
}

/// Whether a kept report (its file's `[report]` section, `kept`) measured `row` of `reference`
/// as the file does now: the same table definition, and a reference on it with the same keys,
/// kind (`relative`), n and this row. A reference's note, reversal, `not_comparable` and
/// `derived` are the page's reading, not the measure: they may change without a new report.
/// Without a readable copy the kept rows are taken as they are.
pub fn same_measure(
    kept: Option<&super::spec::ReportSpec>,
    now: &super::spec::ReportSpec,
    reference: &super::spec::ReferenceSpec,
    row: &[toml::Value],
) -> bool {
    let Some(kept) = kept else {
        return true;
    };
    let table = |spec: &super::spec::ReportSpec| {
        spec.tables
            .iter()
            .find(|t| t.name == reference.table)
            .cloned()
    };
    table(kept) == table(now)
        && kept.reference.iter().any(|r| {
            r.table == reference.table
                && r.keys == reference.keys
                && r.relative == reference.relative
                && r.n == reference.n
                && r.rows.iter().any(|kept_row| kept_row.as_slice() == row)
        })
}
