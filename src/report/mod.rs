//! The report stage: reads the rows a run wrote (the engines only replay games for the HTML
//! page's viewer) and the experiment's resolved jobs, computes the tables the `[report]`
//! section asks for, compares them with the published numbers it carries, and writes
//! `report.md`, `report.html` (the same, as one page with a game viewer: `html`), one CSV per
//! table, and figures.
//!
//! Only the part files of the experiment's current jobs are read, so rows left by an older
//! version of the file (other job hashes) never leak into its report; the report says how many
//! of the jobs had rows. Layers as in criterion: `records` (the rows as lazy polars plans),
//! `table` and `compare` (queries that group and aggregate, statistics from the aggregates,
//! verdicts), `stats` (numbers only), `figure` (drawing only), `draw` (figure data from tables),
//! this file (files in, files out). No stage holds the rows: each query scans the columns it
//! needs, part by part, so memory follows the groups (issue 19).

pub mod compare;
pub mod draw;
pub mod figure;
pub mod html;
pub mod kept;
pub mod plan;
pub mod race;
pub mod records;
pub mod spec;
pub mod summary;
pub use crate::stats;
pub mod table;
pub mod trained_weights;

use crate::experiment::grid::Job;
use crate::experiment::kind::{kind_runner, rows_folder};
use crate::experiment::layout::results_dir;
use crate::experiment::spec::{Experiment, JobKind};
use anyhow::{Context, Result};
pub use plan::{ReportPlan, plan};
use records::Records;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

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

/// The part of job `hash` in `rows_dir` with its row count, if there is one; a part that fails
/// its check (cut, changed, another job's) is refused with an error naming the file.
fn checked_part(
    out: &Path,
    experiment: &str,
    rows_dir: &Path,
    hash: &str,
) -> Result<Option<(PathBuf, usize)>> {
    crate::experiment::layout::sound_part(&results_dir(out, experiment), rows_dir, experiment, hash)
        .map_err(|(part, why)| {
            crate::experiment::InputError {
                file: Some(part),
                line_col: None,
                key: None,
                message: format!(
                    "{why}; run `gamelab run` on the experiment file again to redo the job"
                ),
            }
            .into()
        })
}

/// Lazy scans of the checked parts of `jobs` in `rows_dir`, with the number of rows and of
/// jobs that have a part.
fn scans(
    exp: &Experiment,
    jobs: &[Job],
    out: &Path,
    rows_dir: &Path,
) -> Result<(Vec<records::Scan>, usize, usize)> {
    let (mut parts, mut rows) = (Vec::new(), 0);
    let games = kind_runner(exp.file.kind).scores_games().is_ok();
    for job in jobs {
        if let Some((part, n)) = checked_part(out, &exp.name, rows_dir, &job.hash)? {
            let mut scan = records::scan_part(&part)?;
            // A match lowered to fewer games than it played reports its first N (game i is
            // the same game at any count: `grid::identity_hash`).
            let wanted = if games { job.game_count() } else { n };
            if n > wanted {
                scan = scan
                    .filter(polars::prelude::col("game").lt(polars::prelude::lit(wanted as i64)));
            }
            parts.push((part.clone(), scan));
            rows += n.min(wanted);
        }
    }
    let with_rows = parts.len();
    Ok((parts, rows, with_rows))
}

/// The records of `jobs` under `out` (a lazy plan over their parts), with the number of rows
/// and of jobs that have rows.
pub fn load_records(exp: &Experiment, jobs: &[Job], out: &Path) -> Result<(Records, usize, usize)> {
    let rows_dir = results_dir(out, &exp.name).join(rows_folder(exp.file.kind));
    let swept: Vec<String> = exp.swept_axes().iter().map(|(k, _)| (*k).clone()).collect();
    let (parts, rows, with_rows) = scans(exp, jobs, out, &rows_dir)?;
    let records = if exp.file.kind.plays_games() {
        Records::games(parts, &swept)?
    } else {
        Records::rows(parts)?
    };
    Ok((records, rows, with_rows))
}

/// The games of a GA experiment's arena as records, joined with each evolved agent's GA grid
/// values and `origin` (evolved, or reference for the other participants); `None` when no
/// table or figure reads them.
fn arena_records(
    exp: &Experiment,
    jobs: &[Job],
    out: &Path,
    plan: &ReportPlan,
) -> Result<Option<Records>> {
    let matrix = kind_runner(exp.file.kind)
        .other_rows()
        .contains(&spec::RowSource::Arena)
        && plan
            .figures
            .iter()
            .any(|f| f.kind == spec::FigureKind::Matrix);
    if !plan.tables.iter().any(|t| t.rows == spec::RowSource::Arena) && !matrix {
        return Ok(None);
    }
    let (arena, arena_jobs) = crate::arena::read_arena(exp, out)?;
    let (records, _, with_rows) = load_records(&arena, &arena_jobs, out)?;
    anyhow::ensure!(
        with_rows > 0,
        "the arena of {} has no rows yet: run `gamelab run {}`",
        exp.name,
        exp.path.display()
    );
    let mut meta: BTreeMap<String, BTreeMap<String, String>> = BTreeMap::new();
    for job in jobs {
        let mut m: BTreeMap<String, String> = job
            .swept
            .iter()
            .map(|(k, v)| (k.clone(), crate::experiment::rows::swept_text(v)))
            .collect();
        m.insert("origin".into(), "evolved".into());
        meta.insert(crate::arena::evolved_label(job), m);
    }
    let mut keys: Vec<String> = exp.swept_axes().iter().map(|(k, _)| (*k).clone()).collect();
    keys.push("origin".into());
    Ok(Some(records.with_agent_columns(
        &meta,
        &keys,
        &[("origin", "reference")],
    )?))
}

/// The test problems a `tsumego_ga` experiment solved (`solves/`), when a table reads them.
fn solve_records(
    exp: &Experiment,
    jobs: &[Job],
    out: &Path,
    plan: &ReportPlan,
) -> Result<Option<Records>> {
    if !plan
        .tables
        .iter()
        .any(|t| t.rows == spec::RowSource::Solves)
    {
        return Ok(None);
    }
    let (parts, _, _) = scans(exp, jobs, out, &results_dir(out, &exp.name).join("solves"))?;
    Ok(Some(Records::rows(parts)?))
}

/// Computes the tables of a plan from records, and from `second` for the tables that read other
/// rows (an arena's games, or a GA's test solves).
pub fn tables(
    exp: &Experiment,
    plan: &ReportPlan,
    records: &Records,
    second: Option<&Records>,
) -> Result<Vec<table::Table>> {
    plan.tables
        .iter()
        .map(|t| {
            let records = if t.rows == spec::RowSource::Own {
                records
            } else {
                second.expect("loaded for arena and solves tables")
            };
            // A pattern metric (`w_*`) is computed over the long form of its columns.
            let melted = t
                .metric
                .as_deref()
                .filter(|m| m.ends_with('*'))
                .map(|m| records.melt(m))
                .transpose()?;
            let records = melted.as_ref().unwrap_or(records);
            // A list keeps the records with any of its values: one (column, value) pair each;
            // on a grid key whose values are lists (`bounds = [[0, 3000], [0, 10000]]`) a list
            // is one of those values.
            let list_valued = |k: &str| {
                exp.swept_axes()
                    .iter()
                    .any(|(key, values)| *key == k && values.iter().any(|v| v.is_array()))
            };
            let filter: Vec<(String, String)> = t
                .filter
                .iter()
                .flat_map(|(k, v)| match v {
                    toml::Value::Array(values) if !list_valued(k) => values
                        .iter()
                        .map(|x| (k.clone(), crate::experiment::rows::swept_text(x)))
                        .collect(),
                    v => vec![(k.clone(), crate::experiment::rows::swept_text(v))],
                })
                .collect();
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
                    weighted_by: t.weighted_by.as_deref(),
                    method: t.method,
                    baseline: t
                        .baseline
                        .as_ref()
                        .and_then(|b| b.iter().next())
                        .map(|(k, v)| (k.clone(), crate::experiment::rows::swept_text(v))),
                    paired: t.paired,
                    elo: t.elo,
                    level: plan.level,
                    interval: exp.file.report.interval,
                    bootstrap: exp.file.report.bootstrap.unwrap_or(1000),
                    seed: exp.file.seed,
                },
            )
            .map(|table| {
                if table.rows.is_empty() && !t.filter.is_empty() {
                    eprintln!(
                        "warning: table '{}': no rows match its filter {}",
                        t.name,
                        t.filter
                            .iter()
                            .map(|(k, v)| format!("{k} = {v}"))
                            .collect::<Vec<_>>()
                            .join(", ")
                    );
                }
                if t.total { table.totals() } else { table }
            })
            .with_context(|| format!("table '{}'", t.name))
        })
        .collect()
}

/// For match jobs with a sequential test: each job's games, final LLR and the hypothesis it
/// accepted, recomputed from the rows (the runner stopped at the first decisive pair).
fn sprt_section(jobs: &[Job], records: &Records) -> Result<String> {
    use polars::prelude::*;
    use stats::elo::Pentanomial;
    let tested: Vec<(&Job, stats::elo::Sprt, String)> = jobs
        .iter()
        .filter_map(|j| {
            j.config
                .match_
                .as_ref()
                .and_then(|m| m.sprt.map(|t| (j, t, m.players[0].clone())))
        })
        .collect();
    if tested.is_empty() || !records.has("pair") {
        return Ok(String::new());
    }
    // The tested agent's games of each tested job, by pair: one query for all of them.
    let mine = tested.iter().fold(lit(false), |any, (job, _, me)| {
        any.or(col("job")
            .eq(lit(job.hash.as_str()))
            .and(col("agent").eq(lit(me.as_str()))))
    });
    let (mut job_of, mut pair, mut sum, mut results) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let queries = table::per_part(records, &[])
        .into_iter()
        .map(|part| {
            part.filter(mine.clone())
                .group_by([col("job"), col("pair")])
                .agg([
                    col("result").sum().alias("sum"),
                    len().cast(DataType::Float64).alias("results"),
                ])
        })
        .collect();
    for df in table::collect_parts(queries)? {
        job_of.extend(records::key_texts(&df, "job")?);
        pair.extend(records::numbers(&df, "pair")?);
        sum.extend(records::numbers(&df, "sum")?);
        results.extend(records::numbers(&df, "results")?);
    }
    let mut md = String::new();
    for (job, sprt, me) in tested {
        let mut penta = Pentanomial::default();
        let mut games = 0.0;
        for i in (0..job_of.len()).filter(|&i| job_of[i] == job.hash) {
            games += results[i];
            if results[i] == 2.0 && !pair[i].is_nan() {
                penta.0[(sum[i] * 2.0) as usize] += 1;
            }
        }
        if games == 0.0 {
            continue;
        }
        let llr = sprt.llr_pentanomial(penta);
        let (lo, hi) = sprt.bounds();
        let decision = sprt.decision_text(llr);
        if md.is_empty() {
            md += &format!(
                "## Sequential tests\n\nSPRT of `{me}` against its opponent on colour-swapped pairs; the match stopped at the first decisive pair.\n\n| job | swept | repeat | games | LLR | bounds | decision |\n|---|---|---:|---:|---:|---:|---|\n"
            );
        }
        let swept: Vec<String> = job
            .swept
            .iter()
            .map(|(k, v)| format!("{k} = {v}"))
            .collect();
        md += &format!(
            "| {} | {} | {} | {games} | {llr:.3} | {lo:.3} to {hi:.3} | {decision} |\n",
            job.hash,
            swept.join(", "),
            job.config.repeat
        );
    }
    if !md.is_empty() {
        md += "\n";
    }
    Ok(md)
}

/// A group is flagged when fewer than this share of its games are distinct: a handful of
/// repeats among thousands of games (short random games, a corner player's few choices) are
/// chance, not a pairing that plays one game again and again.
const DISTINCT_SHARE_FLAGGED: f64 = 0.99;

/// A warning beside a score table whose groups hold repeated games (also on stderr): their
/// intervals treat every game as independent, while a deterministic pairing from one start
/// plays the same game again and again.
fn repeated_games_note(exp: &Experiment, t: &table::Table) -> String {
    let flagged: Vec<&(Vec<String>, u64, u64)> = t
        .repeated
        .iter()
        .filter(|(_, g, d)| (*d as f64) < DISTINCT_SHARE_FLAGGED * *g as f64)
        .collect();
    if flagged.is_empty() {
        return String::new();
    }
    let fix: &str = if exp.file.openings.is_some() {
        "the intervals count every game as independent; vary the games before reading them: more openings than pairs ([openings] with a larger suite or more random_plies; order = \"sequential\" uses each line once before repeating) or stochastic agents"
    } else {
        &format!(
            "the intervals count every game as independent; vary the games before reading them: give the experiment an [openings] section ({}) or use stochastic agents",
            exp.suite_advice()
        )
    };
    let (keys, games, distinct) = flagged
        .iter()
        .copied()
        .min_by(|a, b| (a.2 as f64 / a.1 as f64).total_cmp(&(b.2 as f64 / b.1 as f64)))
        .expect("not empty");
    let others = if flagged.len() > 1 {
        format!(
            " and {} more",
            crate::words::count(flagged.len() - 1, "group", "groups")
        )
    } else {
        String::new()
    };
    let share = 100.0 * *distinct as f64 / *games as f64;
    eprintln!(
        "warning: {}: table '{}': group {} has {} of {games} ({share:.1}%){others}; {fix}",
        exp.name,
        t.name,
        keys.join(", "),
        crate::words::count(*distinct as usize, "distinct game", "distinct games"),
    );
    let mut md = format!(
        "\n**Repeated games:** in {} of this table's groups fewer than {:.0}% of the games are distinct (by start position and moves); {fix}. (A few repeats among thousands of games happen by chance; a small share of distinct games means the same game was played again and again.)\n\n| group | games | distinct | distinct % |\n|---|---:|---:|---:|\n",
        flagged.len(),
        100.0 * DISTINCT_SHARE_FLAGGED
    );
    for (keys, g, d) in flagged {
        md += &format!(
            "| {} | {g} | {d} | {:.1} |\n",
            keys.join(", "),
            100.0 * *d as f64 / *g as f64
        );
    }
    md
}

/// How games ended, per agent, when any game ended by a fault (external agents): the agent's
/// games, those that ended normally, and the faults the agent itself committed, by kind.
fn terminations_section(records: &Records) -> Result<String> {
    use polars::prelude::*;
    const FAULTS: [&str; 6] = [
        "illegal_move",
        "timeout",
        "crash",
        "protocol_error",
        "memory",
        "resign",
    ];
    if !records.has("termination") {
        return Ok(String::new());
    }
    // Most runs have no faults at all: a look at the games' own column settles that.
    if !records.games.is_empty() {
        let mut faults = 0;
        let queries = records
            .games
            .iter()
            .map(|games| {
                games
                    .clone()
                    .filter(col("termination").neq(lit("normal")))
                    .select([col("termination")])
            })
            .collect();
        faults += table::collect_parts(queries)?
            .iter()
            .map(DataFrame::height)
            .sum::<usize>();
        if faults == 0 {
            return Ok(String::new());
        }
    }
    let keys = ["agent", "termination", "fault"].map(String::from);
    let (_, counts) = table::summed(
        records,
        &keys,
        &[],
        vec![len().cast(DataType::Float64).alias("n")],
    )?;
    if counts.keys().all(|k| k[1] == "normal") {
        return Ok(String::new());
    }
    let mut by_agent: BTreeMap<&str, [u64; 8]> = BTreeMap::new();
    for (k, n) in &counts {
        let counts = by_agent.entry(&k[0]).or_default();
        let n = n[0] as u64;
        counts[0] += n;
        if k[1] == "normal" {
            counts[1] += n;
        }
        if let Some(f) = FAULTS.iter().position(|f| *f == k[2]) {
            counts[2 + f] += n;
        }
    }
    let mut md = String::from(
        "## Terminations\n\nGames that ended by an agent's fault (or a GTP engine's resignation) count as its loss. The fault columns count each agent's own faults (the offending lines are in the rows, column `fault_detail`; its standard error in `logs/`).\n\n| agent | games | normal | illegal_move | timeout | crash | protocol_error | memory | resign |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|\n",
    );
    for (agent, c) in by_agent {
        md += &format!(
            "| {agent} | {} |\n",
            c.iter().map(u64::to_string).collect::<Vec<_>>().join(" | ")
        );
    }
    Ok(md + "\n")
}

/// Reads the rows of `jobs` under `out` and writes the report, its figures, and (with
/// `csv_tables`) one CSV file per table and report.html (Markdown only without).
pub fn report(
    exp: &Experiment,
    jobs: &[Job],
    out: &Path,
    csv_tables: bool,
) -> Result<ReportOutput> {
    let plan = plan(exp)?;
    let dir = results_dir(out, &exp.name);
    let (records, rows, jobs_with_rows) = load_records(exp, jobs, out)?;
    let f_kind = exp.file.kind;
    if jobs_with_rows == 0 {
        anyhow::bail!(
            "no rows for {} under {}: run `gamelab run {}` first",
            exp.name,
            dir.join(rows_folder(f_kind)).display(),
            exp.path.display()
        );
    }
    let arena = arena_records(exp, jobs, out, &plan)?;
    let solves = solve_records(exp, jobs, out, &plan)?;
    let computed = tables(exp, &plan, &records, arena.as_ref().or(solves.as_ref()))?;
    let by_name: BTreeMap<String, table::Table> = computed
        .iter()
        .map(|t| (t.name.clone(), t.clone()))
        .collect();

    // The report, its tables and its figures are built in a fresh folder and swapped in at once
    // (`durable::replace_folder`): a kill or a full disk leaves the old report or the new one.
    // `figures/<experiment>` is a link to the report's figures.
    let link = dir.join("report");
    let _lock = crate::durable::FolderLock::try_lock(
        &dir.join("report.lock"),
        crate::durable::LockMode::Exclusive,
        &format!("gamelab report {}", exp.path.display()),
    )
    .map_err(|e| anyhow::anyhow!("{e:#}; wait for that report to finish and run again"))?;
    link_figures(out, &exp.name)?;
    crate::durable::replace_folder(&link, |fresh| {
        let written = write_report(
            exp,
            jobs,
            &plan,
            &computed,
            &by_name,
            &records,
            arena.as_ref(),
            out,
            fresh,
            csv_tables,
            rows,
            jobs_with_rows,
        )?;
        Ok(written)
    })
    .map(|(tables, figures)| ReportOutput {
        report: link.join("report.md"),
        tables: tables.iter().map(|t| link.join(t)).collect(),
        figures: figures
            .iter()
            .map(|f| {
                out.join("figures")
                    .join(crate::durable::safe_component(&exp.name))
                    .join(f)
            })
            .collect(),
        rows,
        jobs_with_rows,
        jobs_total: jobs.len(),
    })
}

/// Makes `figures/<experiment>` a link to the report's figures (`results/<experiment>/report/
/// figures`). Anything else already there (a folder, a file, a link elsewhere) is the user's:
/// refused with exit 2 naming it, never removed.
fn link_figures(out: &Path, experiment: &str) -> Result<()> {
    let link = out
        .join("figures")
        .join(crate::durable::safe_component(experiment));
    let target = PathBuf::from("..")
        .join("results")
        .join(crate::durable::safe_component(experiment))
        .join("report")
        .join("figures");
    match std::fs::symlink_metadata(&link) {
        Ok(_) if std::fs::read_link(&link).is_ok_and(|t| t == target) => return Ok(()),
        Ok(meta) => {
            let what = match std::fs::read_link(&link) {
                Ok(t) => format!("is a link to {}", t.display()),
                Err(_) if meta.is_dir() => {
                    "is a folder gamelab did not make (an older gamelab's, or yours)".to_string()
                }
                Err(_) => "is a file gamelab did not make".to_string(),
            };
            return Err(crate::experiment::InputError {
                file: Some(link),
                line_col: None,
                key: None,
                message: format!(
                    "{what}, where gamelab keeps a link to {}; move it away and run again",
                    target.display()
                ),
            }
            .into());
        }
        Err(_) => {}
    }
    std::fs::create_dir_all(out.join("figures"))?;
    let tmp = out
        .join("figures")
        .join(format!(".{experiment}.link-{}", std::process::id()));
    std::fs::remove_file(&tmp).ok();
    std::os::unix::fs::symlink(&target, &tmp)
        .with_context(|| format!("creating {}", tmp.display()))?;
    std::fs::rename(&tmp, &link).with_context(|| format!("creating {}", link.display()))
}

/// Writes report.md, the table CSVs and the figures into `folder`; returns the names of the
/// table files and of the figure files (relative to `folder` and to its `figures/`).
#[allow(clippy::too_many_arguments)]
fn write_report(
    exp: &Experiment,
    jobs: &[Job],
    plan: &ReportPlan,
    computed: &[table::Table],
    by_name: &BTreeMap<String, table::Table>,
    records: &Records,
    arena: Option<&Records>,
    out: &Path,
    folder: &Path,
    csv_tables: bool,
    rows: usize,
    jobs_with_rows: usize,
) -> Result<(Vec<String>, Vec<String>)> {
    let dir = results_dir(out, &exp.name);
    let results_of = dir.as_path();
    let f_kind = exp.file.kind;
    let fig_dir = folder.join("figures");
    std::fs::create_dir_all(&fig_dir)?;
    let mut figures = Vec::new();
    let mut figure_md = String::new();
    for f in &plan.figures {
        // A GA's games are its arena's.
        let games = if kind_runner(f_kind)
            .other_rows()
            .contains(&spec::RowSource::Arena)
        {
            arena
        } else {
            Some(records)
        };
        let sources = draw::Sources {
            tables: by_name,
            records,
            games,
            jobs,
            results: results_of,
            base_dir: &exp.base_dir(),
        };
        let written = draw::figure(f, &sources, &fig_dir, &plan.title)
            .map_err(|e| crate::durable::name_full_disk(e, &fig_dir))
            .with_context(|| format!("figure '{}'", f.name))?;
        for drawn in &written {
            if let Some(png) = drawn.png() {
                let file = png.file_name().expect("a file").to_string_lossy();
                figure_md += &format!("![{}](figures/{file})\n\n", drawn.caption);
            }
            figures.extend(
                drawn
                    .files
                    .iter()
                    .filter_map(|p| p.file_name().map(|n| n.to_string_lossy().into_owned())),
            );
        }
    }

    let f = &exp.file;
    let mut md = format!("# {}\n\n", plan.title);
    if let Some(d) = &f.description {
        md += &format!("{}\n\n", d.trim());
    }
    md += "## Settings\n\n";
    md += &format!(
        "- experiment file: `{}` (name `{}`)\n",
        exp.path.display(),
        exp.name
    );
    let name = |v: serde_json::Value| v.as_str().unwrap_or_default().to_string();
    md += &format!(
        "- kind: {}, game: {}, seed: {}, repeats: {}\n",
        name(serde_json::to_value(f.kind)?),
        name(serde_json::to_value(f.game)?),
        f.seed,
        f.repeats
    );
    let stages: BTreeSet<&str> = jobs.iter().map(|j| j.config.stage.id()).collect();
    md += &format!(
        "- stage: {}\n",
        stages.into_iter().collect::<Vec<_>>().join(", ")
    );
    for (label, spec) in &f.agents {
        let unsandboxed = match spec.external() {
            Some((e, _)) if !e.sandboxed() => {
                " (**without a sandbox**: `sandbox = \"none\"`, the program ran with gamelab's own rights, and nothing kept it from the results, its opponent or the network)"
            }
            _ => "",
        };
        md += &format!(
            "- agent `{label}`: `{}`{unsandboxed}\n",
            serde_json::to_string(spec)?
        );
    }
    for (k, v) in exp.swept_axes() {
        md += &format!(
            "- grid `{k}`: {}\n",
            v.iter()
                .map(crate::experiment::rows::swept_text)
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    md += &format!(
        "- computed from {rows} rows of {jobs_with_rows} of {} jobs (`{}`)\n- intervals at {}%\n{}\n\n",
        jobs.len(),
        dir.join(rows_folder(f_kind)).display(),
        (plan.level * 1000.0).round() / 10.0,
        provenance_line(crate::provenance::current()),
    );
    if jobs_with_rows < jobs.len() {
        md += &format!(
            "**Incomplete:** {} no rows yet; run the experiment again to finish {}.\n\n",
            match jobs.len() - jobs_with_rows {
                1 => "1 job has".to_string(),
                n => format!("{n} jobs have"),
            },
            if jobs.len() - jobs_with_rows == 1 {
                "it"
            } else {
                "them"
            }
        );
    }
    let mut table_files = Vec::new();
    // Every published value with its verdict, for the summary page (`gamelab summary`).
    let mut comparisons: Vec<Vec<String>> = Vec::new();
    for (t, spec) in computed.iter().zip(&plan.tables) {
        if spec.hidden {
            if csv_tables {
                let csv = folder.join(crate::durable::safe_component(&format!("{}.csv", t.name)));
                std::fs::write(&csv, t.csv())
                    .with_context(|| format!("writing {}", csv.display()))?;
                table_files.push(format!("{}.csv", t.name));
            }
            continue;
        }
        md += &format!("## {}\n\n", t.title);
        if t.value_name == "score %" {
            md += "Score = (W + D/2) / G x 100 from each agent's point of view.\n\n";
        }
        md += &t.markdown();
        md += &repeated_games_note(exp, t);
        if csv_tables {
            let csv = folder.join(crate::durable::safe_component(&format!("{}.csv", t.name)));
            std::fs::write(&csv, t.csv()).with_context(|| format!("writing {}", csv.display()))?;
            md += &format!("\n(CSV: `{}.csv`)\n", t.name);
            table_files.push(format!("{}.csv", t.name));
        }
        md += "\n";
        for reference in f.report.reference.iter().filter(|r| r.table == t.name) {
            md += &format!(
                "### Published and measured{}\n\n",
                reference
                    .source
                    .as_deref()
                    .map(|s| format!(": {s}"))
                    .unwrap_or_default()
            );
            if let Some(note) = &reference.note {
                md += &format!("{}\n\n", note.trim());
            }
            let compared = compare::compare(reference, t);
            md += &compare::markdown(reference, t, &compared);
            md += "\n";
            comparisons.extend(compare::csv_rows(reference, &compared));
        }
    }
    if !comparisons.is_empty() {
        let mut text = table::csv_line(&compare::CSV_HEADER);
        for row in &comparisons {
            text += &table::csv_line(row);
        }
        let path = folder.join(compare::CSV_FILE);
        std::fs::write(&path, text).with_context(|| format!("writing {}", path.display()))?;
        table_files.push(compare::CSV_FILE.to_string());
    }
    // The jobs this report was computed from, so that `gamelab summary` can tell a report of an
    // earlier version of the experiment file from a current one.
    let hashes: Vec<String> = jobs.iter().map(Job::report_key).collect();
    let path = folder.join(JOBS_FILE);
    std::fs::write(&path, serde_json::to_string_pretty(&hashes)?)
        .with_context(|| format!("writing {}", path.display()))?;
    table_files.extend(kind_runner(f_kind).report_files(jobs, results_of, folder)?);
    md += &sprt_section(jobs, records)?;
    if exp.file.race.is_some() {
        let (section, files) = race::report_section(exp, jobs, out, &fig_dir, plan.level)?;
        md += &section;
        figures.extend(
            files
                .iter()
                .filter_map(|p| p.file_name().map(|n| n.to_string_lossy().into_owned())),
        );
    }
    if exp.file.kind.plays_games() {
        md += &terminations_section(records)?;
    }
    if !figure_md.is_empty() {
        md += "## Figures\n\n";
        md += &figure_md;
    }
    let report_path = folder.join("report.md");
    std::fs::write(&report_path, &md)
        .with_context(|| format!("writing {}", report_path.display()))?;
    // The same report as one page, with the game viewer over the experiment's games. A game
    // that does not replay leaves the page without its viewer (said on the page and on stderr)
    // rather than failing the report. Markdown only (`--format md`): no page, and none left
    // from an earlier report.
    let html_path = folder.join("report.html");
    if !csv_tables {
        std::fs::remove_file(&html_path).ok();
        return Ok((table_files, figures));
    }
    let viewer = match f_kind {
        k if k.plays_games() => Some(crate::game_records::viewer_games(
            exp,
            jobs,
            out,
            html::VIEWER_BUDGET,
        )),
        JobKind::Solve => Some(crate::game_records::viewer_solves(exp, jobs, out)),
        // A GA's games are those of its arena (the evolved tables against each other).
        JobKind::Ga if dir.join("arena.toml").exists() => Some(
            crate::arena::read_arena(exp, out).and_then(|(arena, arena_jobs)| {
                crate::game_records::viewer_games(&arena, &arena_jobs, out, html::VIEWER_BUDGET)
            }),
        ),
        _ => None,
    };
    let (games, total) = viewer
        .map(|v| {
            v.unwrap_or_else(|e| {
                eprintln!("warning: report.html has no game viewer: {e:#}");
                (Vec::new(), 0)
            })
        })
        .unwrap_or_default();
    std::fs::write(
        &html_path,
        html::page(&plan.title, &md, &folder, &games, total)?,
    )
    .with_context(|| format!("writing {}", html_path.display()))?;
    Ok((table_files, figures))
}

/// The file in a report's folder that lists the hashes of the jobs it was computed from.
pub use crate::experiment::kept_weights::JOBS_FILE;

/// report.md's provenance line: `- gamelab VERSION (commit: C); `COMMAND` on HOST, DATE`.
fn provenance_line(p: &crate::provenance::Provenance) -> String {
    format!(
        "- gamelab {} (commit: {}); `{}` on {}, {}",
        p.version, p.commit, p.command, p.host, p.date
    )
}

/// The jobs a report.md was computed from, with rows and in all (its `- computed from R rows of
/// J of N jobs` line), if it has that line: J < N is a report of an unfinished run.
pub fn jobs_reported(report_md: &str) -> Option<(usize, usize)> {
    let line = report_md
        .lines()
        .find(|l| l.starts_with("- computed from "))?;
    let (with_rows, rest) = line.split_once(" rows of ")?.1.split_once(" of ")?;
    let all = rest.split_once(" jobs")?.0;
    Some((with_rows.parse().ok()?, all.parse().ok()?))
}

/// The commit and date of a report.md's provenance line (`provenance_line`), if it has one.
pub fn reported_at(report_md: &str) -> Option<(String, String)> {
    let line = report_md.lines().find(|l| l.starts_with("- gamelab "))?;
    let commit = line.split_once("(commit: ")?.1.split_once(')')?.0;
    let date = line.rsplit(", ").next()?;
    Some((commit.to_string(), date.to_string()))
}
