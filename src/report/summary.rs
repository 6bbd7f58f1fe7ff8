//! The summary page across experiments (`gamelab summary`): every published value that the
//! experiments' reports compared, with the paper's value and n, ours and n, the difference, the
//! Holm-adjusted p and the verdict, read from each report's `comparisons.csv`.

use super::compare::{CSV_FILE, CSV_HEADER};
use super::spec::ReferenceSpec;
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
    /// With no kept report because their files say why (`not_kept`: a run too long to keep).
    pub not_kept: Vec<String>,
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
    let mut not_kept: Vec<String> = Vec::new();
    let mut not_kept_md = String::new();
    let mut stale = Vec::new();
    let mut unfinished_runs: Vec<String> = Vec::new();
    let mut md_rows = String::new();
    let mut md_derived = String::new();
    let mut derived_counts: Counts = Default::default();
    let mut partly_kept: Vec<String> = Vec::new();
    // (experiment and table, the rows, their reference, its file), in the page's order.
    let mut reversals: Vec<(String, Vec<String>, &ReferenceSpec, &Path)> = Vec::new();
    let mut sources = String::new();
    let mut not_run = String::new();
    let mut costs = String::new();
    let mut csv = csv_line(
        &std::iter::once("experiment")
            .chain(CSV_HEADER)
            .collect::<Vec<_>>(),
    );
    let mut counts: Counts = Counts::new();
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
            let description = exp
                .file
                .description
                .as_deref()
                .unwrap_or("(no description)");
            match (&exp.file.report.not_kept, reports) {
                (Some(why), Some(_)) => {
                    not_kept.push(exp.name.clone());
                    not_kept_md += &format!(
                        "- `{}`: {description} Not kept: {why}\n",
                        exp.path.display()
                    );
                }
                _ => {
                    missing.push(exp.name.clone());
                    not_run += &format!("- `{}`: {description}\n", exp.path.display());
                }
            }
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
        // Each kept row judged again by today's rule and the file's references as they are now
        // (`compare::rejudged`): a row the file no longer claims is left out, a claim the kept
        // report does not hold is named below.
        let references = &exp.file.report.reference;
        let kept = read_comparisons(&path)?;
        let identity = |r: &Row| {
            (
                r.get("table").to_string(),
                r.get("source").to_string(),
                r.get("keys").to_string(),
                r.get("published").to_string(),
            )
        };
        // A claim counts as kept only where the kept report measured it as the file does now
        // (`kept::same_measure`): a table whose definition changed is reported again.
        let kept_spec = super::kept::kept_report_spec(&folder);
        let claimed: Vec<((String, String, String, String), &ReferenceSpec)> = references
            .iter()
            .flat_map(|r| {
                r.rows
                    .iter()
                    .filter(|row| {
                        super::kept::same_measure(kept_spec.as_ref(), &exp.file.report, r, row)
                    })
                    .map(move |row| {
                        let (keys, published) = super::compare::row_identity(r, row);
                        let source = r.source.clone().unwrap_or_default();
                        ((r.table.clone(), source, keys, published), r)
                    })
            })
            .collect();
        let claims: usize = references.iter().map(|r| r.rows.len()).sum();
        let unkept = claims
            - claimed
                .iter()
                .filter(|(id, _)| kept.iter().any(|r| identity(r) == *id))
                .count();
        let mut dropped = 0;
        for row in kept {
            let Some(reference) = claimed
                .iter()
                .find(|(id, _)| *id == identity(&row))
                .map(|(_, r)| *r)
            else {
                dropped += 1;
                continue;
            };
            let word = super::compare::rejudged(
                reference,
                row.get("verdict"),
                row.get("test"),
                number(row.get("published")),
                (
                    number(row.get("measured_lo")),
                    number(row.get("measured_hi")),
                ),
                number(row.get("p_holm")),
            );
            let why = match (&reference.not_comparable, word) {
                (Some(why), _) => format!("{why} (the file says so)"),
                (None, "not comparable") => row.get("why").to_string(),
                _ => String::new(),
            };
            let mut fields = row.0.clone();
            let derived = row.get("derived") == "true" || reference.derived;
            for (name, value) in [
                ("verdict", word.to_string()),
                ("why", why.clone()),
                ("derived", derived.to_string()),
            ] {
                if let Some(i) = CSV_HEADER.iter().position(|h| *h == name) {
                    fields[i] = value;
                }
            }
            let row = Row(fields);
            csv += &csv_line(
                &std::iter::once(exp.name.clone())
                    .chain(row.0.iter().cloned())
                    .collect::<Vec<_>>(),
            );
            let one_sample = crate::stats::two_sample::is_one_sample(row.get("test"))
                && word != "not comparable";
            let category = match (word, &reference.not_comparable) {
                ("not comparable", Some(_)) => Category::Apart,
                ("not comparable", None) if why.starts_with(super::compare::NUMBERLESS) => {
                    Category::Numberless
                }
                ("not comparable", None) => Category::Unmatched,
                _ => Category::Compared,
            };
            let counted_as = match category {
                Category::Compared if one_sample => format!("{word} (one-sample)"),
                Category::Compared => word.to_string(),
                _ => String::new(),
            };
            *if derived {
                &mut derived_counts
            } else {
                &mut counts
            }
            .entry((category, counted_as))
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
            // A reversal's reason, once under the rows of its reference it explains (their rows
            // are consecutive); a reversal without one says so.
            if !derived
                && (word == "sign differs" || (word == "different" && reference.reversal.is_some()))
            {
                let what = format!(
                    "{}: paper {}, ours {ours} ({word})",
                    row.get("keys").replace('|', "/"),
                    row.get("published"),
                );
                let head = format!("**{}**, {}", exp.name, row.get("table"));
                match reversals.last_mut() {
                    Some((h, rows, r, _)) if *h == head && std::ptr::eq(*r, reference) => {
                        rows.push(what)
                    }
                    _ => reversals.push((head, vec![what], reference, &exp.path)),
                }
            }
            let mut verdict = match word {
                "not comparable" => format!("not comparable: {why}"),
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
        if dropped + unkept > 0 {
            sources += &format!(
                "  - its kept report and the file's references differ: {}{}{}\n",
                if dropped > 0 {
                    format!(
                        "{} the file no longer claims, left out",
                        counted(dropped, "kept row")
                    )
                } else {
                    String::new()
                },
                if dropped > 0 && unkept > 0 { "; " } else { "" },
                if unkept > 0 {
                    format!(
                        "**{} of the file not in its kept report** (report it again)",
                        counted(unkept, "published value")
                    )
                } else {
                    String::new()
                }
            );
            if unkept > 0 {
                partly_kept.push(exp.name.clone());
            }
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
    md += "Where the paper gives its n, a verdict compares two samples, the paper's and ours (Fisher's exact test for scores, Welch's t for means with a spread). Where it gives no n (or no spread), the verdict is one-sample, and says so: the paper's value taken as a fixed number against our sample (the exact binomial test for scores, a one-sample t test for means, changes and ratings); it ignores the paper's own sampling error, so it finds differences more readily. P-values are Holm-adjusted within each table; \"sign differs\" only where the paper's value is clearly on its side of 50% or 0 and our whole interval lies on the other (where our interval reaches the line, the ordinary verdict stands). \"Not comparable\" where the experiment file says the two measure different things (its reason is shown; counted apart, never judged), where the source gives no number, or where no measured row matches. Every kept row is judged again by this rule when the page is made, from the numbers its report kept. See each experiment's report.md for the tables.\n\n";
    if !unfinished_runs.is_empty() {
        md += &format!(
            "Reported before their runs ended: {} (their values will change when the runs end; run them again, report, then summarise again).\n\n",
            unfinished_runs.join(", ")
        );
    }
    if !partly_kept.is_empty() {
        md += &format!(
            "Files that claim published values their kept reports do not hold: {} (the page shows what the kept reports hold; report them again).\n\n",
            partly_kept.join(", ")
        );
    }
    if !missing.is_empty() {
        md += &format!(
            "Not reported yet: {} with published values (listed at the end; run and report them, then summarise again).\n\n",
            counted(missing.len(), "experiment file")
        );
    }
    if !not_kept.is_empty() {
        md += &format!(
            "Not kept: {} with published values whose runs are too long to keep a report of (listed at the end, each with its reason and what stands in for it).\n\n",
            counted(not_kept.len(), "experiment file")
        );
    }
    let reversals: String = reversals
        .iter()
        .map(|(head, rows, reference, file)| {
            format!(
                "- {head}, {}. {}\n",
                rows.join("; "),
                reference.reversal.clone().unwrap_or_else(|| format!(
                    "Not explained yet: give this reference a `reversal` in {}.",
                    file.display()
                ))
            )
        })
        .collect();
    if !reversals.is_empty() {
        md += "## Reversals and differences\n\nEach row where ours lies wholly on the other side of the paper's value (sign differs), and each row that differs where its file says why: the `reversal` of its `[[report.reference]]`, naming the experiment whose rows show the cause.\n\n";
        md += &reversals;
        md += "\n";
    }
    md += "## Every published value\n\n";
    md += "| experiment | source | row | paper | ours | ours − paper (95% CI) | p (Holm) | verdict |\n|---|---|---|---:|---:|---:|---:|---|\n";
    md += &md_rows;
    if !md_derived.is_empty() {
        let total: usize = derived_counts.values().sum();
        md += &format!(
            "\n## Values we derived from the papers' numbers\n\nNot published values, so not counted above: each is ours, computed from a paper's numbers (a table's rows pooled as its figure pools them, a change between two of its totals; the experiment file's note says how), compared in the same way. {}: {}.\n\n",
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
    let unmeasured = match reports {
        Some(r) => read_unmeasured(&r.join(UNMEASURED_FILE))?,
        None => Vec::new(),
    };
    if !not_run.is_empty() || !not_kept_md.is_empty() || !unmeasured.is_empty() {
        md += "\n## Not in this page\n";
    }
    if !not_kept_md.is_empty() {
        md += "\nExperiment files with published values whose reports are not kept, each with the reason its file gives (`not_kept` in its `[report]`):\n\n";
        md += &not_kept_md;
    }
    if !not_run.is_empty() {
        md += "\nExperiment files with published values whose report was not there when this page was made (each file's comments say what it costs):\n\n";
        md += &not_run;
    }
    if !unmeasured.is_empty() {
        md += &format!(
            "\nClaims of the reports that no row above judges, and why (`{UNMEASURED_FILE}` beside the kept reports):\n\n"
        );
        for c in &unmeasured {
            md += &format!("- {}, {}: {}\n", c.report, c.claim, c.why);
        }
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
        not_kept,
        unfinished: unfinished_runs,
        stale,
        counts: counts
            .into_iter()
            .map(|((category, word), n)| match category {
                Category::Compared => (word, n),
                other => (other.words().to_string(), n),
            })
            .collect(),
    })
}

/// The file beside the kept reports that lists the reports' claims no published value judges
/// (a claim in words whose figure is missing, a test whose numbers are another machine's), each
/// with its reason: the page's "Not in this page" lists them.
pub const UNMEASURED_FILE: &str = "unmeasured.toml";

/// One claim of `UNMEASURED_FILE`.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Unmeasured {
    /// The report ("GoTools report").
    report: String,
    /// Where it says what ("Figure 8, the dynamic GA's learning curve").
    claim: String,
    /// Why no row judges it, and where to look instead.
    why: String,
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct UnmeasuredFile {
    #[serde(default)]
    claim: Vec<Unmeasured>,
}

/// The claims of `path` (none where the file is missing); a file that does not parse is an error
/// naming it.
fn read_unmeasured(path: &Path) -> Result<Vec<Unmeasured>> {
    let Ok(text) = std::fs::read_to_string(path) else {
        return Ok(Vec::new());
    };
    let file: UnmeasuredFile =
        toml::from_str(&text).with_context(|| format!("reading {}", path.display()))?;
    Ok(file.claim)
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

/// How the page took a published value: judged, or not and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Category {
    /// Compared with ours and given a verdict.
    Compared,
    /// Not comparable for the reason its experiment file gives (`not_comparable`).
    Apart,
    /// The source gives no number ("unreadable", a claim in words).
    Numberless,
    /// No measured row matches the reference's keys.
    Unmatched,
}

impl Category {
    /// The words of the counts line after the category's number.
    fn words(self) -> &'static str {
        match self {
            Category::Compared => "compared",
            Category::Apart => "not comparable, as their files say (the reason beside each)",
            Category::Numberless => "from sources that give no number",
            Category::Unmatched => "with no measured row",
        }
    }
}

/// Counts by category and, for the compared ones, by verdict (`consistent (one-sample)`).
type Counts = std::collections::BTreeMap<(Category, String), usize>;

/// The counts as `120 compared (69 consistent, 4 sign differs); 18 not comparable, ...`.
fn counts_text(counts: &Counts) -> String {
    let mut parts = Vec::new();
    for category in [
        Category::Compared,
        Category::Apart,
        Category::Numberless,
        Category::Unmatched,
    ] {
        let of: Vec<(&String, &usize)> = counts
            .iter()
            .filter(|((c, _), _)| *c == category)
            .map(|((_, w), n)| (w, n))
            .collect();
        let total: usize = of.iter().map(|(_, n)| **n).sum();
        if total == 0 {
            continue;
        }
        let verdicts = of
            .iter()
            .filter(|(w, _)| !w.is_empty())
            .map(|(w, n)| format!("{n} {w}"))
            .collect::<Vec<_>>();
        parts.push(if verdicts.is_empty() {
            format!("{total} {}", category.words())
        } else {
            format!("{total} {} ({})", category.words(), verdicts.join(", "))
        });
    }
    parts.join("; ")
}
