//! The report stage: reads the rows a run wrote (never the engines) and the experiment's
//! resolved jobs, computes the tables the `[report]` section asks for, compares them with the
//! published numbers it carries, and writes `report.md`, one CSV per table, and figures.
//!
//! Only the part files of the experiment's current jobs are read, so rows left by an older
//! version of the file (other job hashes) never leak into its report; the report says how many
//! of the jobs had rows. Layers as in criterion: `stats` (numbers only), `table` and `compare`
//! (groups and verdicts), `figure` (drawing only), `draw` (figure data from tables), this file
//! (files in, files out).

pub mod compare;
pub mod draw;
pub mod figure;
pub mod records;
pub mod spec;
pub mod stats;
pub mod table;

use crate::experiment::error::InputError;
use crate::experiment::grid::Job;
use crate::experiment::record::{SweptKind, existing_part, read_part, rows_folder};
use crate::experiment::runner::results_dir;
use crate::experiment::spec::{Experiment, JobKind};
use anyhow::{Context, Result};
use records::{GA_KEYS, GA_MEASURES, MEASURES, Records};
use spec::{FigureKind, FigureSpec, Statistic, TableSpec};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Group keys every game record has besides the grid keys.
pub const BASE_KEYS: [&str; 5] = ["agent", "opponent", "seat", "stage", "repeat"];

/// The `[report]` section with defaults filled in, checked against the experiment.
#[derive(Clone, Debug, PartialEq)]
pub struct ReportPlan {
    pub title: String,
    pub level: f64,
    pub tables: Vec<TableSpec>,
    pub figures: Vec<FigureSpec>,
}

/// Checks the `[report]` section (called before a run too, so a bad section stops the run
/// before anything is written) and fills in the default table and figures.
pub fn plan(exp: &Experiment) -> Result<ReportPlan, InputError> {
    let r = &exp.file.report;
    let is_ga = exp.file.kind == JobKind::Ga;
    // Game rows and GA generation rows have their own columns.
    let (base_keys, measures): (&[&str], &[&str]) = if is_ga { (&GA_KEYS, &GA_MEASURES) } else { (&BASE_KEYS, &MEASURES) };
    let grid: Vec<String> = exp.swept_axes().iter().map(|(k, _)| (*k).clone()).collect();
    let numeric_grid: Vec<String> = exp.swept_axes().iter().filter(|(_, v)| matches!(SweptKind::of(v), SweptKind::Int | SweptKind::Float)).map(|(k, _)| (*k).clone()).collect();
    let known_keys = || base_keys.iter().map(|s| s.to_string()).chain(grid.iter().cloned()).collect::<Vec<_>>().join(", ");
    let default_group: Vec<String> = if is_ga { grid.clone() } else { std::iter::once("agent".to_string()).chain(grid.iter().cloned()).collect() };
    let check_keys = |keys: &[String], at: &str, allow_empty: bool| -> Result<(), InputError> {
        if keys.is_empty() && !allow_empty {
            return Err(exp.error(at, "give at least one column"));
        }
        for k in keys {
            if !base_keys.contains(&k.as_str()) && !grid.contains(k) {
                return Err(exp.error(at, format!("unknown column '{k}' (expected one of {})", known_keys())));
            }
        }
        Ok(())
    };
    let level = r.level.unwrap_or(0.95);
    if !(level > 0.0 && level < 1.0) {
        return Err(exp.error("report.level", format!("{level} is not a confidence level (expected a number strictly between 0 and 1, e.g. 0.95)")));
    }
    if let Some(g) = &r.group_by {
        check_keys(g, "report.group_by", false)?;
    }
    let mut tables = r.tables.clone();
    let table = |name: &str, title: &str, group_by: Option<Vec<String>>| TableSpec {
        name: name.into(),
        title: Some(title.into()),
        group_by,
        statistic: Statistic::Score,
        metric: None,
        elo: false,
        unit: None,
        method: Default::default(),
        baseline: None,
        hidden: false,
        filter: Default::default(),
    };
    if tables.is_empty() && is_ga {
        // The fitness of each generation's best, and of the last generation's best, averaged
        // over repeats.
        let best = |extra: &[&str]| std::iter::once(("best".to_string(), toml::Value::Integer(1))).chain(extra.iter().map(|k| (k.to_string(), toml::Value::Integer(1)))).collect();
        let mut by_gen = default_group.clone();
        by_gen.push("generation".into());
        tables.push(TableSpec { statistic: Statistic::Mean, metric: Some("fitness".into()), unit: Some("repeat".into()), filter: best(&["final"]), ..table("final_best", "Fitness of the best individual of the last generation (mean over repeats)", Some(default_group.clone())) });
        tables.push(TableSpec { statistic: Statistic::Mean, metric: Some("fitness".into()), unit: Some("repeat".into()), filter: best(&[]), hidden: true, ..table("best_by_generation", "Fitness of each generation's best (mean over repeats)", Some(by_gen)) });
    } else if tables.is_empty() {
        tables.push(table("scores", "Scores", r.group_by.clone()));
    } else if r.group_by.is_some() {
        return Err(exp.error("report.group_by", "with [[report.tables]], give group_by in each table instead"));
    }
    let mut names = BTreeSet::new();
    for t in &mut tables {
        let at = "report.tables";
        if t.name.is_empty() || !t.name.chars().all(|c| c.is_ascii_alphanumeric() || "-_".contains(c)) || !names.insert(t.name.clone()) {
            return Err(exp.error(at, format!("table name '{}' must be unique and made of letters, digits, '-' or '_'", t.name)));
        }
        let g = t.group_by.get_or_insert_with(|| default_group.clone());
        check_keys(g, at, true).map_err(|e| InputError { message: format!("table '{}': {}", t.name, e.message), ..e })?;
        if is_ga && t.statistic != Statistic::Mean {
            return Err(exp.error(at, format!("table '{}': GA rows have no games to score: use statistic = \"mean\" of {}", t.name, GA_MEASURES.join(", "))));
        }
        match t.statistic {
            Statistic::Mean => {
                let m = t.metric.as_deref().unwrap_or("");
                if !measures.contains(&m) && !numeric_grid.iter().any(|k| k == m) {
                    return Err(exp.error(at, format!("table '{}': a mean needs `metric`, one of {} (got '{m}')", t.name, measures.join(", "))));
                }
            }
            Statistic::Rating => {
                if !g.iter().any(|k| k == "agent") || g.iter().any(|k| k == "opponent" || k == "seat") {
                    return Err(exp.error(at, format!("table '{}': ratings group by `agent` (and grid keys or stage), not by opponent or seat", t.name)));
                }
            }
            Statistic::Score => {}
        }
        for k in t.filter.keys() {
            if !base_keys.contains(&k.as_str()) && !grid.contains(k) {
                return Err(exp.error(at, format!("table '{}': filter column '{k}' is unknown (expected one of {})", t.name, known_keys())));
            }
        }
        if let Some(u) = &t.unit {
            let unit_columns = if is_ga { ["repeat", "job", "generation", "individual", "final"] } else { ["repeat", "job", "pair", "game", "stage"] };
            if t.statistic != Statistic::Mean || (!unit_columns.contains(&u.as_str()) && !grid.contains(u)) {
                return Err(exp.error(at, format!("table '{}': `unit` goes with statistic = \"mean\" and is one of {} or a grid key", t.name, unit_columns.join(", "))));
            }
        }
        if let Some(b) = &t.baseline {
            if t.statistic != Statistic::Mean || b.len() != 1 || !b.keys().all(|k| g.contains(k)) {
                return Err(exp.error(at, format!("table '{}': `baseline` goes with statistic = \"mean\" and names one of its group columns and a value, e.g. {{ agent = \"greedy\" }}", t.name)));
            }
        }
        if t.metric.is_some() && t.statistic != Statistic::Mean {
            return Err(exp.error(at, format!("table '{}': `metric` goes with statistic = \"mean\"", t.name)));
        }
        if t.elo && t.statistic != Statistic::Score {
            return Err(exp.error(at, format!("table '{}': `elo` goes with statistic = \"score\"", t.name)));
        }
    }
    let table_keys: BTreeMap<&str, &Vec<String>> = tables.iter().map(|t| (t.name.as_str(), t.group_by.as_ref().expect("filled"))).collect();
    let mut figures = r.figures.clone();
    if figures.is_empty() && is_ga {
        figures.push(FigureSpec {
            name: "fitness_curve".into(),
            kind: FigureKind::Curve,
            table: Some("best_by_generation".into()),
            x: Some("generation".into()),
            series: grid.first().cloned(),
            ..blank_figure()
        });
    } else if figures.is_empty() {
        for t in &tables {
            figures.push(FigureSpec { name: t.name.clone(), kind: FigureKind::Bars, table: Some(t.name.clone()), ..blank_figure() });
        }
        if exp.file.kind == JobKind::Tournament {
            figures.push(FigureSpec { name: "matrix".into(), kind: FigureKind::Matrix, ..blank_figure() });
        }
    }
    let mut fig_names = BTreeSet::new();
    for f in &figures {
        let at = "report.figures";
        let err = |m: String| exp.error(at, format!("figure '{}': {m}", f.name));
        if f.name.is_empty() || !f.name.chars().all(|c| c.is_ascii_alphanumeric() || "-_".contains(c)) || !fig_names.insert(f.name.clone()) {
            return Err(err("the name must be unique and made of letters, digits, '-' or '_'".into()));
        }
        let keys = match &f.table {
            Some(t) => Some(*table_keys.get(t.as_str()).ok_or_else(|| err(format!("no table '{t}' (tables: {})", table_keys.keys().copied().collect::<Vec<_>>().join(", "))))?),
            None => None,
        };
        let needs_table = matches!(f.kind, FigureKind::Bars | FigureKind::Curve | FigureKind::Profile) || (f.kind == FigureKind::Box && f.metric.is_none());
        if needs_table && keys.is_none() {
            return Err(err("needs `table`".into()));
        }
        for (what, key) in [("x", &f.x), ("series", &f.series)] {
            if let (Some(k), Some(keys)) = (key, keys)
                && !keys.contains(k)
            {
                return Err(err(format!("{what} = '{k}' is not a key of its table ({})", keys.join(", "))));
            }
        }
        match f.kind {
            FigureKind::Curve | FigureKind::Profile | FigureKind::Box if f.x.is_none() => return Err(err("needs `x`".into())),
            FigureKind::Curve if !numeric_grid.contains(f.x.as_ref().expect("checked")) && !["repeat", "generation"].contains(&f.x.as_deref().unwrap_or("")) => {
                return Err(err("x must be a numeric grid key, repeat or generation".into()));
            }
            FigureKind::Profile if f.new.is_none() || f.baseline.is_none() => return Err(err("needs `new` and `baseline`".into())),
            FigureKind::Box if f.metric.as_deref().is_some_and(|m| !measures.contains(&m)) => {
                return Err(err(format!("metric must be one of {}", measures.join(", "))));
            }
            FigureKind::Heatmap if f.agent.is_none() && f.weights.is_none() => return Err(err("needs `agent` or `weights`".into())),
            FigureKind::Heatmap if f.agent.as_ref().is_some_and(|a| !exp.file.agents.contains_key(a)) => return Err(err("`agent` names no agent of the file".into())),
            _ => {}
        }
    }
    for (i, reference) in r.reference.iter().enumerate() {
        let at = "report.reference";
        let err = |m: String| exp.error(at, format!("reference {} (table '{}'): {m}", i + 1, reference.table));
        let keys = table_keys.get(reference.table.as_str()).ok_or_else(|| err("no such table".into()))?;
        for k in &reference.keys {
            if !keys.contains(k) {
                return Err(err(format!("key '{k}' is not a group key of the table ({})", keys.join(", "))));
            }
        }
        for (j, row) in reference.rows.iter().enumerate() {
            if row.len() != reference.keys.len() + 1 {
                return Err(err(format!("row {} has {} values; expected the {} keys then the published value", j + 1, row.len(), reference.keys.len())));
            }
        }
    }
    Ok(ReportPlan { title: r.title.clone().unwrap_or_else(|| exp.name.clone()), level, tables, figures })
}

fn blank_figure() -> FigureSpec {
    FigureSpec {
        name: String::new(),
        kind: FigureKind::Bars,
        table: None,
        x: None,
        series: None,
        metric: None,
        agent: None,
        weights: None,
        stage: None,
        new: None,
        baseline: None,
        title: None,
        x_label: None,
        y_label: None,
    }
}

/// What a report wrote.
#[derive(Clone, Debug)]
pub struct ReportOutput {
    pub report: PathBuf,
    pub tables: Vec<PathBuf>,
    pub figures: Vec<PathBuf>,
    pub rows: usize,
    pub jobs_with_rows: usize,
    pub jobs_total: usize,
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

/// Reads the rows of `jobs` under `out` into records.
pub fn load_records(exp: &Experiment, jobs: &[Job], out: &Path) -> Result<(Records, usize, usize)> {
    let rows_dir = results_dir(out, &exp.name).join(rows_folder(exp.file.kind));
    let swept: Vec<String> = exp.swept_axes().iter().map(|(k, _)| (*k).clone()).collect();
    let mut records = Records::default();
    let (mut rows, mut with_rows) = (0, 0);
    for job in jobs {
        if let Some(part) = existing_part(&rows_dir, &job.hash) {
            let df = read_part(&part)?;
            rows += df.height();
            with_rows += 1;
            let added = if exp.file.kind == JobKind::Ga { records.add_generations(&df, &swept) } else { records.add_games(&df, &swept) };
            added.with_context(|| format!("reading {}", part.display()))?;
        }
    }
    Ok((records, rows, with_rows))
}

/// Computes the tables of a plan from records.
pub fn tables(exp: &Experiment, plan: &ReportPlan, records: &Records) -> Vec<table::Table> {
    plan.tables
        .iter()
        .map(|t| {
            let filter: Vec<(String, String)> = t.filter.iter().map(|(k, v)| (k.clone(), crate::experiment::record::swept_text(v))).collect();
            table::compute(
                records,
                &table::TableParams {
                    name: &t.name,
                    title: t.title.as_deref().unwrap_or(&t.name),
                    group_by: t.group_by.as_deref().expect("plan fills group_by"),
                    filter: &filter,
                    statistic: t.statistic,
                    metric: t.metric.as_deref(),
                    unit: t.unit.as_deref(),
                    method: t.method,
                    baseline: t.baseline.as_ref().and_then(|b| b.iter().next()).map(|(k, v)| (k.clone(), crate::experiment::record::swept_text(v))),
                    elo: t.elo,
                    level: plan.level,
                    interval: exp.file.report.interval,
                    bootstrap: exp.file.report.bootstrap.unwrap_or(1000),
                    seed: exp.file.seed,
                },
            )
        })
        .collect()
}

/// For match jobs with a sequential test: each job's games, final LLR and the hypothesis it
/// accepted, recomputed from the rows (the runner stopped at the first decisive pair).
fn sprt_section(jobs: &[Job], records: &Records) -> String {
    use stats::elo::{Pentanomial, SprtDecision};
    let mut md = String::new();
    for job in jobs {
        let Some((sprt, me)) = job.config.match_.as_ref().and_then(|m| m.sprt.map(|t| (t, m.players[0].clone()))) else { continue };
        let mut pairs: BTreeMap<i64, Vec<f64>> = BTreeMap::new();
        let mut games = 0;
        for i in (0..records.len).filter(|&i| records.text["job"][i] == job.hash && records.text["agent"][i] == me) {
            games += 1;
            if !records.num["pair"][i].is_nan() {
                pairs.entry(records.num["pair"][i] as i64).or_default().push(records.num["result"][i]);
            }
        }
        if games == 0 {
            continue;
        }
        let mut penta = Pentanomial::default();
        for v in pairs.values().filter(|v| v.len() == 2) {
            penta.add_pair(v[0], v[1]);
        }
        let llr = sprt.llr_pentanomial(penta);
        let (lo, hi) = sprt.bounds();
        let decision = match sprt.decide(llr) {
            SprtDecision::AcceptH0 => format!("H0 accepted (Elo = {})", sprt.elo0),
            SprtDecision::AcceptH1 => format!("H1 accepted (Elo = {})", sprt.elo1),
            SprtDecision::Continue => "no decision: game cap reached".to_string(),
        };
        if md.is_empty() {
            md += &format!("## Sequential tests\n\nSPRT of `{me}` against its opponent on colour-swapped pairs; the match stopped at the first decisive pair.\n\n| job | swept | repeat | games | LLR | bounds | decision |\n|---|---|---:|---:|---:|---:|---|\n");
        }
        let swept: Vec<String> = job.swept.iter().map(|(k, v)| format!("{k} = {v}")).collect();
        md += &format!("| {} | {} | {} | {games} | {llr:.3} | {lo:.3} to {hi:.3} | {decision} |\n", job.hash, swept.join(", "), job.config.repeat);
    }
    if !md.is_empty() {
        md += "\n";
    }
    md
}

/// Reads the rows of `jobs` under `out` and writes the report, its figures, and (with
/// `csv_tables`) one CSV file per table.
pub fn report(exp: &Experiment, jobs: &[Job], out: &Path, csv_tables: bool) -> Result<ReportOutput> {
    let plan = plan(exp)?;
    let dir = results_dir(out, &exp.name);
    let (records, rows, jobs_with_rows) = load_records(exp, jobs, out)?;
    let f_kind = exp.file.kind;
    if jobs_with_rows == 0 {
        anyhow::bail!("no rows for {} under {}: run `gamelab run {}` first", exp.name, dir.join(rows_folder(f_kind)).display(), exp.path.display());
    }
    let computed = tables(exp, &plan, &records);
    let by_name: BTreeMap<String, table::Table> = computed.iter().map(|t| (t.name.clone(), t.clone())).collect();

    std::fs::create_dir_all(&dir)?;
    let fig_dir = out.join("figures").join(&exp.name);
    let mut figures = Vec::new();
    let mut figure_md = String::new();
    for f in &plan.figures {
        let written = draw::figure(f, &by_name, &records, jobs, &fig_dir, &plan.title).with_context(|| format!("figure '{}'", f.name))?;
        figure_md += &format!("![{}](../../figures/{}/{}.png)\n\n", f.title.as_deref().unwrap_or(&f.name), exp.name, f.name);
        figures.extend(written);
    }

    let f = &exp.file;
    let mut md = format!("# {}\n\n", plan.title);
    if let Some(d) = &f.description {
        md += &format!("{}\n\n", d.trim());
    }
    md += "## Settings\n\n";
    md += &format!("- experiment file: `{}` (name `{}`)\n", exp.path.display(), exp.name);
    md += &format!("- kind: {:?}, game: {:?}, seed: {}, repeats: {}\n", f.kind, f.game, f.seed, f.repeats).to_lowercase();
    let stages: BTreeSet<&str> = jobs.iter().map(|j| j.config.stage.id.as_str()).collect();
    md += &format!("- stage: {}\n", stages.into_iter().collect::<Vec<_>>().join(", "));
    for (label, spec) in &f.agents {
        md += &format!("- agent `{label}`: `{}`\n", serde_json::to_string(spec)?);
    }
    for (k, v) in exp.swept_axes() {
        md += &format!("- grid `{k}`: {}\n", v.iter().map(crate::experiment::record::swept_text).collect::<Vec<_>>().join(", "));
    }
    md += &format!(
        "- computed from {rows} rows of {jobs_with_rows} of {} jobs (`{}`)\n- intervals at {}%; gamelab {} (commit {})\n\n",
        jobs.len(),
        dir.join(rows_folder(f_kind)).display(),
        (plan.level * 1000.0).round() / 10.0,
        env!("CARGO_PKG_VERSION"),
        git_commit()
    );
    if jobs_with_rows < jobs.len() {
        md += &format!("**Incomplete:** {} jobs have no rows yet; run the experiment again to finish them.\n\n", jobs.len() - jobs_with_rows);
    }
    let mut table_files = Vec::new();
    for (t, spec) in computed.iter().zip(&plan.tables) {
        if spec.hidden {
            if csv_tables {
                let csv = dir.join(format!("{}.csv", t.name));
                std::fs::write(&csv, t.csv()).with_context(|| format!("writing {}", csv.display()))?;
                table_files.push(csv);
            }
            continue;
        }
        md += &format!("## {}\n\n", t.title);
        if t.value_name == "score %" {
            md += "Score = (W + D/2) / G x 100 from each agent's point of view.\n\n";
        }
        md += &t.markdown();
        if csv_tables {
            let csv = dir.join(format!("{}.csv", t.name));
            std::fs::write(&csv, t.csv()).with_context(|| format!("writing {}", csv.display()))?;
            md += &format!("\n(CSV: `{}`)\n", csv.file_name().expect("named").to_string_lossy());
            table_files.push(csv);
        }
        md += "\n";
        for reference in f.report.reference.iter().filter(|r| r.table == t.name) {
            md += &format!("### Published and measured{}\n\n", reference.source.as_deref().map(|s| format!(": {s}")).unwrap_or_default());
            if let Some(note) = &reference.note {
                md += &format!("{}\n\n", note.trim());
            }
            md += &compare::markdown(reference, t, &compare::compare(reference, t));
            md += "\n";
        }
    }
    md += &sprt_section(jobs, &records);
    if !figure_md.is_empty() {
        md += "## Figures\n\n";
        md += &figure_md;
    }
    let report_path = dir.join("report.md");
    std::fs::write(&report_path, md).with_context(|| format!("writing {}", report_path.display()))?;
    Ok(ReportOutput { report: report_path, tables: table_files, figures, rows, jobs_with_rows, jobs_total: jobs.len() })
}
