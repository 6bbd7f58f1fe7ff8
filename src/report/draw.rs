//! Turns figure specs into figure data: reads computed tables, records and resolved job configs,
//! never rows on disk and never the engines.

use super::figure::bars::GroupedBars;
use super::figure::boxplot::BoxPlot;
use super::figure::curve::Curves;
use super::figure::heatmap::Heatmap;
use super::figure::matrix::Matrix;
use super::figure::profile::Profile;
use super::figure::ranked::{Bar, RankedBars};
use super::figure::{Figure, write_figure_sized};
use super::records::Records;
use super::spec::{FigureKind, FigureSpec};
use super::table::{Table, TableRow, natural_cmp};
use super::table::{summed, values_by_group};
use crate::agent::{AgentSpec, TableRef};
use crate::experiment::grid::Job;
use crate::game::othello::StageDef;
use anyhow::{Context, Result, bail};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn distinct(values: impl Iterator<Item = String>) -> Vec<String> {
    let mut v: Vec<String> = values.collect::<BTreeSet<_>>().into_iter().collect();
    v.sort_by(|a, b| natural_cmp(a, b));
    v
}

/// A key as an axis label: the last part of a dotted path with spaces for underscores, the
/// agent it belongs to in brackets, and the UCT constant as "C" ("agents.uct.c" is "C (uct)",
/// "ga.subset" is "subset", "agents.n.sims_per_child" is "sims per child (n)").
pub fn readable(key: &str) -> String {
    let parts: Vec<&str> = key.split('.').collect();
    let last = parts.last().copied().unwrap_or(key);
    let name = match last {
        "c" => "C".to_string(),
        other => other.replace('_', " "),
    };
    match parts.as_slice() {
        ["agents", label, _] => format!("{name} ({label})"),
        _ => name,
    }
}

/// The reference lines of a figure: the file's `hline`, else 50 for a score in %.
fn reference_lines(spec: &FigureSpec, value_name: &str) -> Vec<f64> {
    spec.hline.clone().unwrap_or_else(|| {
        if value_name == "score %" {
            vec![50.0]
        } else {
            vec![]
        }
    })
}

/// A figure as written: its files (PNG, SVG, PDF, caption) and its caption.
pub struct Drawn {
    pub files: Vec<PathBuf>,
    pub caption: String,
}

impl Drawn {
    /// The PNG among the files.
    pub fn png(&self) -> Option<&PathBuf> {
        self.files
            .iter()
            .find(|p| p.extension().is_some_and(|e| e == "png"))
    }
}

/// The title drawn into the image: none unless the file asks for it (`title_in_image`), as a
/// paper puts it in the caption; the caption goes to the report and to `<name>.caption.txt`.
fn shown(in_image: bool, caption: &str) -> String {
    if in_image {
        caption.to_string()
    } else {
        String::new()
    }
}

/// Writes `stem.caption.txt` (the caption and a newline) beside a figure's images.
pub(crate) fn write_caption(
    dir: &Path,
    stem: &str,
    caption: &str,
    mut files: Vec<PathBuf>,
) -> Result<Drawn> {
    let path = dir.join(crate::durable::safe_component(&format!(
        "{stem}.caption.txt"
    )));
    std::fs::write(&path, format!("{caption}\n"))?;
    files.push(path);
    Ok(Drawn {
        files,
        caption: caption.to_string(),
    })
}

/// Writes `fig` at the file's `width` and `height` (each defaulting to the figure's own), with
/// its caption file.
fn write(dir: &Path, spec: &FigureSpec, fig: &impl Figure, caption: &str) -> Result<Drawn> {
    let (w, h) = fig.size();
    let size = (spec.width.is_some() || spec.height.is_some())
        .then(|| (spec.width.unwrap_or(w), spec.height.unwrap_or(h)));
    let files = write_figure_sized(dir, &spec.name, fig, size)?;
    write_caption(dir, &spec.name, caption, files)
}

/// The least and the greatest of `values` (infinities the other way round when there are none).
fn extent(values: impl Iterator<Item = f64>) -> (f64, f64) {
    values.fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), v| {
        (a.min(v), b.max(v))
    })
}

fn key_index(table: &Table, key: &str) -> Result<usize> {
    table
        .key_names
        .iter()
        .position(|k| k == key)
        .with_context(|| format!("table '{}' has no key '{key}'", table.name))
}

/// The default x and series keys of a table: the first grid-like key along x and the agent as
/// the series (or the first two keys).
fn default_axes(table: &Table) -> (String, Option<String>) {
    let keys = &table.key_names;
    match keys.len() {
        0 => (String::new(), None),
        1 => (keys[0].clone(), None),
        _ => {
            let x = keys
                .iter()
                .find(|k| *k != "agent")
                .unwrap_or(&keys[0])
                .clone();
            let series = keys.iter().find(|k| **k != x).cloned();
            (x, series)
        }
    }
}

/// The rows a figure draws from a two-player score table: there the row of agent o against a
/// is 100 minus the row of a against o, a mirror that says nothing new, so of each such pair
/// only one is drawn: the one whose agent's setting is on x (`agents.<label>.…`), else the one
/// whose agent comes first by name. A pair is two rows that differ only in `agent` and
/// `opponent` swapped (a table keyed by both), or, in a table keyed by `agent` without
/// `opponent`, the only two rows of their other keys (a two-player match); either way their
/// scores sum to 100. Other tables: every row.
fn without_mirrors<'t>(table: &'t Table, x: &str) -> Vec<&'t TableRow> {
    let Some(ai) = table.key_names.iter().position(|k| k == "agent") else {
        return table.rows.iter().collect();
    };
    if table.value_name != "score %" {
        return table.rows.iter().collect();
    }
    let oi = table.key_names.iter().position(|k| k == "opponent");
    // Each row's mirror: (its opponent's label, the mirror's score).
    let mirror_of = |r: &TableRow| -> Option<(String, f64)> {
        let found = match oi {
            Some(oi) => {
                let mut keys = r.keys.clone();
                keys.swap(ai, oi);
                table
                    .rows
                    .iter()
                    .find(|m| m.keys == keys)
                    .map(|m| (r.keys[oi].clone(), m.value.value))
            }
            None => {
                let same_context =
                    |m: &&TableRow| (0..m.keys.len()).all(|k| k == ai || m.keys[k] == r.keys[k]);
                let group: Vec<&TableRow> = table.rows.iter().filter(same_context).collect();
                (group.len() == 2)
                    .then(|| group.into_iter().find(|m| m.keys[ai] != r.keys[ai]))
                    .flatten()
                    .map(|m| (m.keys[ai].clone(), m.value.value))
            }
        };
        found.filter(|(o, v)| *o != r.keys[ai] && (v + r.value.value - 100.0).abs() < 1e-6)
    };
    let on_x = |label: &str| {
        x.strip_prefix("agents.")
            .is_some_and(|k| k.split('.').next() == Some(label))
    };
    table
        .rows
        .iter()
        .filter(|r| {
            let Some((o, _)) = mirror_of(r) else {
                return true;
            };
            let a = &r.keys[ai];
            match (on_x(a), on_x(&o)) {
                (true, false) => true,
                (false, true) => false,
                _ => natural_cmp(a, &o) == std::cmp::Ordering::Less,
            }
        })
        .collect()
}

/// A figure's value axis when the file names none: the table's value and its interval ("mean
/// leaves, 95% CI (t)"), or the value alone when no row has an interval (one unit a row, as the
/// best of each generation of one GA), so the axis never names whiskers the figure cannot draw.
/// Column names in it read as words ("mean µs per leaf", not "mean us_per_leaf").
fn value_axis(table: &Table) -> String {
    value_axis_of(table, None)
}

/// `value_axis`, naming whose value it is when a figure shows one series without a legend
/// ("score % of os_mcts": a two-player match drawn for one of its agents).
fn value_axis_of(table: &Table, whose: Option<&str>) -> String {
    let interval = table
        .rows
        .iter()
        .any(|r| r.value.lo.is_finite() && r.value.hi.is_finite());
    let mut value = table
        .value_name
        .replace("us_per_leaf", "µs per leaf")
        .replace('_', " ");
    if let Some(who) = whose.filter(|w| !w.is_empty()) {
        value = format!("{value} of {who}");
    }
    if interval {
        format!("{value}, {}", table.interval_name)
    } else {
        value
    }
}

fn bars(spec: &FigureSpec, table: &Table, caption: String, dir: &Path) -> Result<Drawn> {
    let title = shown(spec.title_in_image, &caption);
    let y_label = spec.y_label.clone().unwrap_or_else(|| value_axis(table));
    let range = (table.value_name == "score %").then_some((0.0, 100.0));
    if table.key_names.len() == 1 && spec.series.is_none() {
        let fig = RankedBars {
            title,
            value_axis: spec.x_label.clone().unwrap_or(y_label),
            lines: reference_lines(spec, &table.value_name),
            // Numbers as labels (a grid value) need the key's name; names say what they are.
            key_axis: if table.rows.iter().all(|r| r.keys[0].parse::<f64>().is_ok()) {
                readable(&table.key_names[0])
            } else {
                String::new()
            },
            bars: table
                .rows
                .iter()
                .map(|r| Bar {
                    label: r.keys[0].clone(),
                    value: r.value.value,
                    lo: r.value.lo,
                    hi: r.value.hi,
                })
                .collect(),
            range: range.unwrap_or_else(|| {
                let lo = table
                    .rows
                    .iter()
                    .map(|r| r.value.lo.min(r.value.value))
                    .filter(|x| x.is_finite())
                    .fold(0.0, f64::min);
                let hi = table
                    .rows
                    .iter()
                    .map(|r| r.value.hi.max(r.value.value))
                    .filter(|x| x.is_finite())
                    .fold(0.0, f64::max);
                super::figure::padded(lo, hi)
            }),
        };
        return write(dir, spec, &fig, &caption);
    }
    let (dx, ds) = default_axes(table);
    let x = spec.x.clone().unwrap_or(dx);
    let series = spec.series.clone().or(ds);
    let (categories, names, values) = grouped(table, &x, series.as_deref())?;
    // One series is drawn without a legend: the value axis says whose it is.
    let y_label = match (&spec.y_label, names.as_slice()) {
        (None, [one]) => value_axis_of(table, Some(one)),
        _ => y_label,
    };
    let series_label = series.as_deref().map(readable).unwrap_or_default();
    let hlines = reference_lines(spec, &table.value_name);
    let fig = GroupedBars {
        title,
        x_label: spec.x_label.clone().unwrap_or_else(|| readable(&x)),
        y_label,
        categories,
        series: names,
        values,
        y_range: range,
        series_label,
        hlines,
    };
    write(dir, spec, &fig, &caption)
}

/// A grouped bar figure's categories (values of `x`), series (values of `series`) and each
/// series' value, low and high per category. Of two mirrored score rows one is drawn
/// (`without_mirrors`), and a series left without a row is not one (a two-player match's
/// loser had an empty series in the legend, its bars' places left blank).
#[allow(clippy::type_complexity)]
fn grouped(
    table: &Table,
    x: &str,
    series: Option<&str>,
) -> Result<(Vec<String>, Vec<String>, Vec<Vec<Option<(f64, f64, f64)>>>)> {
    let xi = key_index(table, x)?;
    let si = series.map(|s| key_index(table, s)).transpose()?;
    let drawn = without_mirrors(table, x);
    let categories = distinct(drawn.iter().map(|r| r.keys[xi].clone()));
    let names = match si {
        Some(si) => distinct(drawn.iter().map(|r| r.keys[si].clone())),
        None => vec![String::new()],
    };
    let mut values = vec![vec![None; categories.len()]; names.len()];
    for r in drawn {
        let c = categories
            .iter()
            .position(|k| *k == r.keys[xi])
            .expect("listed");
        let s = si.map_or(0, |si| {
            names.iter().position(|k| *k == r.keys[si]).expect("listed")
        });
        if values[s][c].is_some() {
            bail!(
                "several rows of table '{}' share {x} = {} (filter the table, or make its other keys x or series)",
                table.name,
                r.keys[xi]
            );
        }
        values[s][c] = Some((r.value.value, r.value.lo, r.value.hi));
    }
    Ok((categories, names, values))
}

/// A row-major table's values on a stage's board, blocked cells as None.
pub fn on_board(stage: &StageDef, values: &[f64]) -> Vec<Option<f64>> {
    let n = stage.size as usize;
    (0..n * n)
        .map(|i| (!stage.blocked.contains(&[(i / n) as u8, (i % n) as u8])).then(|| values[i]))
        .collect()
}

/// Draws the best table of GA job `job` (its file under `results/tables/`) as `<stem>` in `dir`,
/// with `title` (default: the stage and the job's grid values) as its caption, drawn into the
/// image too when `in_image`.
pub fn evolved_heatmap(
    job: &Job,
    results: &Path,
    dir: &Path,
    stem: &str,
    title: Option<String>,
    in_image: bool,
) -> Result<Drawn> {
    let path = results.join("tables").join(format!("{}.txt", job.hash));
    if !path.exists() {
        anyhow::bail!("{} is missing: run the experiment first", path.display());
    }
    let text = crate::durable::read_sealed(&path, "the GA's best table")?;
    let rows = crate::agent::table::parse_table_text(&text)
        .map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
    let stage = job
        .config
        .stage
        .othello()
        .context("weight tables are Othello's")?;
    let swept: Vec<String> = job
        .swept
        .iter()
        .map(|(k, v)| format!("{k} = {}", crate::experiment::rows::swept_text(v)))
        .collect();
    let title = title.unwrap_or_else(|| {
        format!(
            "Evolved table on {}{}",
            stage.id,
            if swept.is_empty() {
                String::new()
            } else {
                format!(" ({})", swept.join(", "))
            }
        )
    });
    let files = super::figure::write_figure(
        dir,
        stem,
        &Heatmap {
            title: shown(in_image, &title),
            size: stage.size as usize,
            values: on_board(stage, &rows.concat()),
            unit: "weight".into(),
        },
    )?;
    write_caption(dir, stem, &title, files)
}

/// `records` are the experiment's own; `games` are its game records (its own, or a GA's arena);
/// `results` is the experiment's results folder (a GA's best tables are there).
pub struct Sources<'a> {
    pub tables: &'a BTreeMap<String, Table>,
    pub records: &'a Records,
    pub games: Option<&'a Records>,
    pub jobs: &'a [Job],
    pub results: &'a Path,
    /// The experiment file's folder: a heatmap's table file is found from it, as an agent's is.
    pub base_dir: &'a Path,
}

/// What a heatmap (not `weights = "evolved"`) draws: the stage (the figure's `stage`, else the
/// jobs' Othello stage, `stage` here), the table (its agent's, or the named table or file, a
/// path relative to `base_dir`) checked against the board, and a caption. The report's plan
/// calls it before a run with the file's agents, so a table the report could not draw stops
/// `run` and `--dry-run`, not only `report`.
pub fn heatmap_source(
    spec: &FigureSpec,
    stage: Option<&StageDef>,
    agents: &BTreeMap<String, AgentSpec>,
    base_dir: &Path,
) -> Result<(StageDef, crate::agent::table::WeightTable, String), String> {
    let stage = match &spec.stage {
        Some(id) => crate::game::othello::StageRef::Id(id.clone())
            .resolve()
            .map_err(|e| format!("stage: {e}"))?,
        None => stage.cloned().ok_or(
            "heatmaps draw Othello weight tables: on another game, give `stage` (an Othello stage such as standard8)",
        )?,
    };
    let (mut rows, what) = match (&spec.agent, &spec.weights) {
        (Some(label), _) => {
            let agent = agents
                .get(label)
                .ok_or_else(|| format!("no agent '{label}' in the jobs"))?;
            let t = match agent {
                AgentSpec::WeightedRandom { table } | AgentSpec::TablePlayer { table } => {
                    table.clone()
                }
                AgentSpec::SimpleMcts { table: Some(t), .. }
                | AgentSpec::Uct { table: Some(t), .. } => t.clone(),
                AgentSpec::Positional {} => TableRef::Name("classic".into()),
                other => {
                    return Err(format!(
                        "agent '{label}' ({}) has no weight table",
                        other.kind_name()
                    ));
                }
            };
            (t, format!("weights of agent {label}"))
        }
        (None, Some(w)) => (TableRef::Name(w.clone()), format!("table {w}")),
        (None, None) => return Err("needs `agent` or `weights`".into()),
    };
    rows.resolve(base_dir)?;
    let table = rows.table_for(stage.size as usize)?;
    Ok((stage, table, what))
}

/// Builds and writes one figure into `dir` (several for evolved heatmaps, one a job); returns
/// what was written with each one's caption.
pub fn figure(
    spec: &FigureSpec,
    src: &Sources,
    dir: &Path,
    experiment_title: &str,
) -> Result<Vec<Drawn>> {
    let Sources {
        tables,
        records,
        games,
        jobs,
        results,
        base_dir,
    } = *src;
    let table = |name: &Option<String>| -> Result<&Table> {
        let name = name.as_deref().context("needs `table`")?;
        tables
            .get(name)
            .with_context(|| format!("no table '{name}'"))
    };
    let title = |default: String| spec.title.clone().unwrap_or(default);
    match spec.kind {
        FigureKind::Bars => {
            let t = table(&spec.table)?;
            let by = if t.key_names.len() == 1 {
                readable(&t.key_names[0])
            } else {
                readable(&spec.x.clone().unwrap_or_else(|| default_axes(t).0))
            };
            Ok(vec![bars(
                spec,
                t,
                title(format!("{experiment_title}: {} by {by}", t.value_name)),
                dir,
            )?])
        }
        FigureKind::Box => {
            let x = spec.x.clone().context("needs `x`")?;
            let (groups, y_label): (Vec<(String, Vec<f64>)>, String) = match &spec.metric {
                Some(metric) => {
                    anyhow::ensure!(records.is_numeric(metric), "no numeric column '{metric}'");
                    // Each group's values (a box needs them all).
                    let value = polars::prelude::col(metric.as_str())
                        .cast(polars::prelude::DataType::Float64);
                    let g: BTreeMap<String, Vec<f64>> =
                        values_by_group(records, std::slice::from_ref(&x), &[], value)?
                            .into_iter()
                            .map(|(k, v)| (k.concat(), v))
                            .collect();
                    (g.into_iter().collect(), metric.clone())
                }
                None => {
                    let t = table(&spec.table)?;
                    let xi = key_index(t, &x)?;
                    let mut g: BTreeMap<String, Vec<f64>> = BTreeMap::new();
                    for r in &t.rows {
                        g.entry(r.keys[xi].clone()).or_default().push(r.value.value);
                    }
                    (g.into_iter().collect(), t.value_name.clone())
                }
            };
            let mut groups = groups;
            groups.sort_by(|a, b| natural_cmp(&a.0, &b.0));
            let caption = title(format!("{experiment_title}: {y_label} by {}", readable(&x)));
            let fig = BoxPlot {
                title: shown(spec.title_in_image, &caption),
                x_label: spec.x_label.clone().unwrap_or_else(|| readable(&x)),
                y_label: spec.y_label.clone().unwrap_or(y_label),
                groups,
            };
            Ok(vec![write(dir, spec, &fig, &caption)?])
        }
        FigureKind::Curve => {
            let t = table(&spec.table)?;
            let x = spec.x.clone().context("needs `x`")?;
            let xi = key_index(t, &x)?;
            let si = spec
                .series
                .as_deref()
                .map(|s| key_index(t, s))
                .transpose()?;
            // Keys other than x and series that vary split the lines too (one line per agent
            // and opponent, say), so that no line has two points at one x.
            let varying: Vec<usize> = (0..t.key_names.len())
                .filter(|&k| {
                    k != xi
                        && Some(k) != si
                        && t.rows.iter().any(|r| r.keys[k] != t.rows[0].keys[k])
                })
                .collect();
            let line_keys: Vec<usize> = si.into_iter().chain(varying.iter().copied()).collect();
            let mut series: BTreeMap<String, Vec<(f64, f64, f64, f64)>> = BTreeMap::new();
            for r in without_mirrors(t, &x) {
                let xv: f64 = r.keys[xi]
                    .parse()
                    .with_context(|| format!("x = {x} is not numeric ('{}')", r.keys[xi]))?;
                let name = line_keys
                    .iter()
                    .map(|&k| r.keys[k].as_str())
                    .collect::<Vec<_>>()
                    .join(", ");
                series
                    .entry(name)
                    .or_default()
                    .push((xv, r.value.value, r.value.lo, r.value.hi));
            }
            let legend = line_keys
                .iter()
                .map(|&k| readable(&t.key_names[k]))
                .collect::<Vec<_>>()
                .join(", ");
            for points in series.values_mut() {
                points.sort_by(|a, b| a.0.total_cmp(&b.0));
            }
            let (lo, hi) = extent(series.values().flatten().map(|p| p.0));
            let log_x = spec.log_x.unwrap_or(lo > 0.0 && hi / lo >= 10.0);
            let caption = title(format!(
                "{experiment_title}: {} against {}",
                t.value_name,
                readable(&x)
            ));
            // One line is drawn without a legend: the value axis says whose it is.
            let y_label = match (&spec.y_label, series.len()) {
                (Some(l), _) => l.clone(),
                (None, 1) => {
                    let name = series.keys().next().expect("one line");
                    value_axis_of(t, (!name.is_empty()).then_some(name.as_str()))
                }
                (None, _) => value_axis(t),
            };
            let mut fig = Curves::new(
                shown(spec.title_in_image, &caption),
                spec.x_label.clone().unwrap_or_else(|| readable(&x)),
                y_label,
                {
                    // Lines in the natural order of their names (3-6 before 3-10, 64 before 128).
                    let mut lines: Vec<_> = series.into_iter().collect();
                    lines.sort_by(|a, b| natural_cmp(&a.0, &b.0));
                    lines
                },
                legend,
            );
            fig.log_x = log_x;
            // A log value axis where the values span a factor of 10 or more (not for scores).
            let (vlo, vhi) = extent(fig.series.iter().flat_map(|s| s.1.iter().map(|p| p.1)));
            fig.log_y = spec
                .log_y
                .unwrap_or(t.value_name != "score %" && vlo > 0.0 && vhi / vlo >= 10.0);
            fig.hlines = reference_lines(spec, &t.value_name);
            // A score on its whole scale, 0 to 100 with 50 marked, as the bars draw it.
            if t.value_name == "score %" && !fig.log_y {
                fig.y_range = Some((0.0, 100.0));
            }
            Ok(vec![write(dir, spec, &fig, &caption)?])
        }
        FigureKind::Matrix => {
            use polars::prelude::*;
            let records = games
                .filter(|g| g.has("agent"))
                .context("a win-rate matrix needs games (a GA's, from its [arena])")?;
            let (_, sums) = summed(
                records,
                &["agent".to_string(), "opponent".to_string()],
                &[],
                vec![
                    col("result").sum().alias("points"),
                    len().cast(DataType::Float64).alias("n"),
                ],
            )?;
            let mut cells: BTreeMap<(String, String), (f64, f64)> = BTreeMap::new();
            let mut totals: BTreeMap<String, (f64, f64)> = BTreeMap::new();
            for (k, v) in sums {
                let t = totals.entry(k[0].clone()).or_default();
                t.0 += v[0];
                t.1 += v[1];
                cells.insert((k[0].clone(), k[1].clone()), (v[0], v[1]));
            }
            let mut labels: Vec<String> = totals.keys().cloned().collect();
            labels.sort_by(|a, b| {
                (totals[b].0 / totals[b].1)
                    .total_cmp(&(totals[a].0 / totals[a].1))
                    .then(a.cmp(b))
            });
            let values = labels
                .iter()
                .map(|a| {
                    labels
                        .iter()
                        .map(|o| {
                            cells
                                .get(&(a.clone(), o.clone()))
                                .map(|(p, n)| 100.0 * p / n)
                        })
                        .collect()
                })
                .collect();
            let pooled = if jobs.iter().any(|j| !j.swept.is_empty()) {
                " (all grid points pooled)"
            } else {
                ""
            };
            let caption = title(format!(
                "{experiment_title}: score % of row against column{pooled}"
            ));
            let fig = Matrix {
                title: shown(spec.title_in_image, &caption),
                labels,
                values,
            };
            Ok(vec![write(dir, spec, &fig, &caption)?])
        }
        FigureKind::Heatmap if spec.weights.as_deref() == Some("evolved") => {
            // A GA's best table of each grid point (its first repeat), one file per job.
            let mut written = Vec::new();
            for job in jobs.iter().filter(|j| j.config.repeat == 0) {
                written.push(evolved_heatmap(
                    job,
                    results,
                    dir,
                    &format!("{}-{}", spec.name, &job.hash[..8]),
                    spec.title.clone(),
                    spec.title_in_image,
                )?);
            }
            Ok(written)
        }
        FigureKind::Heatmap => {
            let job = jobs.first().context("no jobs")?;
            let (stage, wt, what) = heatmap_source(
                spec,
                job.config.stage.othello(),
                &job.config.agents,
                base_dir,
            )
            .map_err(anyhow::Error::msg)?;
            let size = stage.size as usize;
            let values = on_board(&stage, &wt.values);
            let caption = title(format!("{what} on {}", stage.id));
            let fig = Heatmap {
                title: shown(spec.title_in_image, &caption),
                size,
                values,
                unit: "weight".into(),
            };
            Ok(vec![write(dir, spec, &fig, &caption)?])
        }
        FigureKind::Profile => {
            let t = table(&spec.table)?;
            let x = spec.x.clone().context("needs `x`")?;
            let (new, base) = match (&spec.new, &spec.baseline) {
                (Some(n), Some(b)) => (n.clone(), b.clone()),
                _ => bail!("needs `new` and `baseline` (two values of {x})"),
            };
            let xi = key_index(t, &x)?;
            let mut pairs: BTreeMap<Vec<String>, (Option<f64>, Option<f64>)> = BTreeMap::new();
            for r in &t.rows {
                let mut rest = r.keys.clone();
                let which = rest.remove(xi);
                let e = pairs.entry(rest).or_default();
                if which == new {
                    e.0 = Some(r.value.value);
                } else if which == base {
                    e.1 = Some(r.value.value);
                }
            }
            let ratios = pairs.values().filter_map(|p| match p {
                (Some(n), Some(b)) if *b != 0.0 => Some(100.0 * n / b),
                _ => None,
            });
            let caption = title(format!(
                "{experiment_title}: {} {new} / {base}",
                t.value_name
            ));
            let fig = Profile {
                title: shown(spec.title_in_image, &caption),
                x_label: spec
                    .x_label
                    .clone()
                    .unwrap_or_else(|| format!("{new} / {base} (%)")),
                ratios: ratios.collect(),
                bins: 30,
            };
            Ok(vec![write(dir, spec, &fig, &caption)?])
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::Estimate;

    fn score_table(rows: &[(&str, &str, &str, f64)]) -> Table {
        Table {
            name: "t".into(),
            title: "t".into(),
            key_names: vec![
                "agents.m.iterations".into(),
                "agent".into(),
                "opponent".into(),
            ],
            n_name: "games".into(),
            before_names: vec![],
            value_name: "score %".into(),
            interval_name: "95% CI (Wilson)".into(),
            after_names: vec![],
            decimals: 1,
            rows: rows
                .iter()
                .map(|(x, a, o, v)| TableRow {
                    keys: vec![x.to_string(), a.to_string(), o.to_string()],
                    n: 10,
                    value: Estimate {
                        value: *v,
                        lo: v - 5.0,
                        hi: v + 5.0,
                    },
                    before: vec![],
                    after: vec![],
                    change: None,
                    sd: None,
                })
                .collect(),
            statistic: Default::default(),
            repeated: vec![],
        }
    }

    fn drawn(rows: Vec<&TableRow>) -> Vec<(String, String, String)> {
        rows.iter()
            .map(|r| (r.keys[0].clone(), r.keys[1].clone(), r.keys[2].clone()))
            .collect()
    }

    /// The default value axis names the interval only when some row has one: a table of one
    /// unit a row (a GA's best of each generation) has none to draw.
    #[test]
    fn the_value_axis_names_an_interval_only_where_a_row_has_one() {
        let mut t = score_table(&[("25", "m", "h", 10.0), ("50", "m", "h", 15.0)]);
        assert_eq!(value_axis(&t), "score %, 95% CI (Wilson)");
        for r in &mut t.rows {
            r.n = 1;
            r.value.lo = f64::NAN;
            r.value.hi = f64::NAN;
        }
        assert_eq!(value_axis(&t), "score %");
        t.rows[1].value.lo = 10.0;
        t.rows[1].value.hi = 20.0;
        assert_eq!(value_axis(&t), "score %, 95% CI (Wilson)");
        // Column names read as words.
        t.value_name = "mean us_per_leaf".into();
        assert_eq!(value_axis(&t), "mean µs per leaf, 95% CI (Wilson)");
        t.value_name = "mean budget_hit".into();
        assert_eq!(value_axis(&t), "mean budget hit, 95% CI (Wilson)");
        assert_eq!(
            value_axis_of(&t, Some("os_mcts")),
            "mean budget hit of os_mcts, 95% CI (Wilson)"
        );
    }

    #[test]
    fn of_two_mirrored_score_rows_one_is_drawn() {
        let t = score_table(&[
            ("25", "m", "h", 10.0),
            ("25", "h", "m", 90.0),
            ("25", "h", "p", 74.0),
            ("25", "p", "h", 26.0),
            ("50", "m", "h", 15.0),
            ("50", "h", "m", 85.0),
            // Not a mirror (they do not sum to 100): both stay.
            ("50", "m", "p", 40.0),
            ("50", "p", "m", 40.0),
        ]);
        // The agent whose setting is on x keeps its rows; between two others, the first by name.
        let keep = drawn(without_mirrors(&t, "agents.m.iterations"));
        let want = [
            ("25", "m", "h"),
            ("25", "h", "p"),
            ("50", "m", "h"),
            ("50", "m", "p"),
            ("50", "p", "m"),
        ]
        .map(|(a, b, c)| (a.to_string(), b.to_string(), c.to_string()));
        assert_eq!(keep, want);
        // On an x of nobody's setting, the first by name everywhere.
        let keep = drawn(without_mirrors(&t, "stage"));
        assert!(keep.contains(&("25".into(), "h".into(), "m".into())));
        assert!(!keep.contains(&("25".into(), "m".into(), "h".into())));
        // A match table keyed by agent alone: the two agents of each grid point mirror.
        let mut by_agent = score_table(&[
            ("4", "mcts", "", 75.0),
            ("4", "greedy", "", 25.0),
            ("16", "mcts", "", 85.5),
            ("16", "greedy", "", 14.5),
        ]);
        by_agent.key_names.pop();
        by_agent.rows.iter_mut().for_each(|r| {
            r.keys.pop();
        });
        let keep: Vec<Vec<String>> = without_mirrors(&by_agent, "agents.mcts.rollouts")
            .iter()
            .map(|r| r.keys.clone())
            .collect();
        assert_eq!(keep, [["4", "mcts"], ["16", "mcts"]]);
        // Its grouped bars: one series (the other agent's rows were mirrors), no empty one.
        let (categories, series, values) =
            grouped(&by_agent, "agents.m.iterations", Some("agent")).unwrap();
        assert_eq!(
            (categories, series.len()),
            (vec!["4".to_string(), "16".into()], 1)
        );
        assert!(values[0].iter().all(Option::is_some));
        // A mean table keeps every row.
        let mut mean = t.clone();
        mean.value_name = "mean plies".into();
        assert_eq!(without_mirrors(&mean, "agents.m.iterations").len(), 8);
    }
}
