//! The `[report]` section checked against its experiment, with the defaults filled in: which
//! tables and figures a report makes. Runs before anything is run or written.

use super::spec::{FigureKind, FigureSpec, RowSource, Statistic, TableSpec};
use crate::experiment::error::InputError;
use crate::experiment::kind::{DefaultFigure, RowColumns, registry};
use crate::experiment::rows::SweptKind;
use crate::experiment::spec::{Experiment, JobKind};
use std::collections::{BTreeMap, BTreeSet};

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
    // What the report knows of the kind's rows, it asks the kind (`KindRunner`'s report hooks).
    let Some(kind) = registry::find(exp.file.kind) else {
        return Err(exp.error(
            "kind",
            format!("unknown job kind '{}'", exp.file.kind.name()),
        ));
    };
    // A table's rows: the kind's own, a GA's arena games (game rows), or a tsumego_ga's test
    // problems (solve rows).
    let columns_of = |rows: RowSource| -> RowColumns {
        match rows {
            RowSource::Own => kind.report_columns(),
            RowSource::Arena => registry::kind_runner(JobKind::Match).report_columns(),
            RowSource::Solves => registry::kind_runner(JobKind::Solve).report_columns(),
        }
    };
    if let Some(b) = r.bootstrap
        && !(100..=1_000_000).contains(&b)
    {
        return Err(exp.error(
            "report.bootstrap",
            format!(
                "{b} resamples: give 100 to 1000000 (a 95% percentile interval needs at least 100)"
            ),
        ));
    }
    let own = columns_of(RowSource::Own);
    let grid: Vec<String> = exp.swept_axes().iter().map(|(k, _)| (*k).clone()).collect();
    let numeric_grid: Vec<String> = exp
        .swept_axes()
        .iter()
        .filter(|(_, v)| matches!(SweptKind::of(v), SweptKind::Int | SweptKind::Float))
        .map(|(k, _)| (*k).clone())
        .collect();
    let known_keys = |base_keys: &[&str]| {
        base_keys
            .iter()
            .map(|s| s.to_string())
            .chain(grid.iter().cloned())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let default_group: Vec<String> = kind
        .default_group()
        .iter()
        .map(|k| k.to_string())
        .chain(grid.iter().cloned())
        .collect();
    let check_keys_of = |base_keys: &[&str],
                         keys: &[String],
                         at: &str,
                         allow_empty: bool|
     -> Result<(), InputError> {
        if keys.is_empty() && !allow_empty {
            return Err(exp.error(at, "give at least one column"));
        }
        for k in keys {
            if !base_keys.contains(&k.as_str()) && !grid.contains(k) {
                return Err(exp.error(
                    at,
                    format!(
                        "unknown column '{k}' (expected one of {})",
                        known_keys(base_keys)
                    ),
                ));
            }
        }
        Ok(())
    };
    let level = r.level.unwrap_or(0.95);
    if !(level > 0.0 && level < 1.0) {
        return Err(exp.error("report.level", format!("{level} is not a confidence level (expected a number strictly between 0 and 1, e.g. 0.95)")));
    }
    if let Some(g) = &r.group_by {
        check_keys_of(own.keys, g, "report.group_by", false)?;
    }
    // The file's tables, else the kind's defaults, each with how it is drawn by default.
    let drawn: Vec<(TableSpec, DefaultFigure)> = if r.tables.is_empty() {
        kind.default_tables(exp, &default_group)?
            .into_iter()
            .map(|d| (d.table, d.figure))
            .collect()
    } else if r.group_by.is_some() {
        return Err(exp.error(
            "report.group_by",
            "with [[report.tables]], give group_by in each table instead",
        ));
    } else {
        r.tables
            .iter()
            .map(|t| (t.clone(), DefaultFigure::Usual))
            .collect()
    };
    let mut tables: Vec<TableSpec> = drawn.iter().map(|(t, _)| t.clone()).collect();
    let mut names = BTreeSet::new();
    for t in &mut tables {
        let at = "report.tables";
        if t.name.is_empty()
            || t.name.len() > crate::experiment::spec::MAX_NAME_LEN
            || !t
                .name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "-_".contains(c))
            || !names.insert(t.name.clone())
        {
            return Err(exp.error(at, format!("table name '{}' must be unique and made of 1 to 64 letters, digits, '-' or '_'", t.name)));
        }
        if t.rows == RowSource::Arena {
            // Arena tables read games: game columns, the GA's grid keys per agent, and origin.
            if !kind.other_rows().contains(&RowSource::Arena) || exp.file.arena.is_none() {
                return Err(exp.error(
                    at,
                    format!(
                        "table '{}': rows = \"arena\" needs an [arena] section",
                        t.name
                    ),
                ));
            }
            let games = columns_of(RowSource::Arena);
            let g = t.group_by.get_or_insert_with(|| vec!["agent".to_string()]);
            for k in g.iter().chain(t.filter.keys()) {
                if !games.keys.contains(&k.as_str()) && !grid.contains(k) && k != "origin" {
                    return Err(exp.error(at, format!("table '{}': unknown arena column '{k}' (expected one of {}, {}, origin)", t.name, games.keys.join(", "), grid.join(", "))));
                }
            }
            if t.statistic == Statistic::Mean
                && !t
                    .metric
                    .as_deref()
                    .is_some_and(|m| games.measures.contains(&m))
            {
                return Err(exp.error(
                    at,
                    format!(
                        "table '{}': a mean of arena games needs `metric`, one of {}",
                        t.name,
                        games.measures.join(", ")
                    ),
                ));
            }
            continue;
        }
        if t.rows == RowSource::Solves && !kind.other_rows().contains(&RowSource::Solves) {
            return Err(exp.error(at, format!("table '{}': rows = \"solves\" reads the test problems of a tsumego_ga experiment", t.name)));
        }
        let columns = columns_of(t.rows);
        let (base_keys, measures) = (columns.keys, columns.measures);
        let g = t.group_by.get_or_insert_with(|| default_group.clone());
        check_keys_of(base_keys, g, at, true).map_err(|e| InputError {
            message: format!("table '{}': {}", t.name, e.message),
            ..e
        })?;
        if let Err(why) = kind.scores_games()
            && t.statistic != Statistic::Mean
        {
            return Err(exp.error(
                at,
                format!(
                    "table '{}': {why}: use statistic = \"mean\" of {}",
                    t.name,
                    measures.join(", ")
                ),
            ));
        }
        if g.iter().chain(t.filter.keys()).any(|k| k == "weight")
            && !t.metric.as_deref().is_some_and(|m| m.ends_with('*'))
        {
            return Err(exp.error(
                at,
                format!(
                    "table '{}': the column `weight` exists only for a pattern metric (w_* or a_*)",
                    t.name
                ),
            ));
        }
        match t.statistic {
            Statistic::Mean => {
                let m = t.metric.as_deref().unwrap_or("");
                if !measures.contains(&m) && !numeric_grid.iter().any(|k| k == m) {
                    return Err(exp.error(
                        at,
                        format!(
                            "table '{}': a mean needs `metric`, one of {} (got '{m}')",
                            t.name,
                            measures.join(", ")
                        ),
                    ));
                }
            }
            Statistic::Rating => {
                if !g.iter().any(|k| k == "agent")
                    || g.iter().any(|k| k == "opponent" || k == "seat")
                {
                    return Err(exp.error(at, format!("table '{}': ratings group by `agent` (and grid keys or stage), not by opponent or seat", t.name)));
                }
            }
            Statistic::Score => {}
        }
        for k in t.filter.keys() {
            if !base_keys.contains(&k.as_str()) && !grid.contains(k) {
                return Err(exp.error(
                    at,
                    format!(
                        "table '{}': filter column '{k}' is unknown (expected one of {})",
                        t.name,
                        known_keys(base_keys)
                    ),
                ));
            }
        }
        if let Some(u) = &t.unit {
            let unit_columns = &columns.units;
            if t.statistic != Statistic::Mean
                || (!unit_columns.contains(&u.as_str()) && !grid.contains(u))
            {
                return Err(exp.error(at, format!("table '{}': `unit` goes with statistic = \"mean\" and is one of {} or a grid key", t.name, unit_columns.join(", "))));
            }
        }
        if t.statistic == Statistic::Rating {
            match &t.baseline {
                Some(b) if b.len() != 1 || !b.contains_key("agent") => {
                    return Err(exp.error(at, format!("table '{}': a rating table's `baseline` is the agent rated 0, e.g. {{ agent = \"random\" }}", t.name)));
                }
                Some(_) => {}
                None if t.rows == RowSource::Own => {
                    // The named reference of a rating table: an agent that plays at random,
                    // else the file's first agent.
                    t.baseline = default_anchor(exp).map(|a| {
                        std::iter::once(("agent".to_string(), toml::Value::String(a))).collect()
                    });
                }
                None => {}
            }
        } else if let Some(b) = &t.baseline {
            if t.statistic != Statistic::Mean || b.len() != 1 || !b.keys().all(|k| g.contains(k)) {
                return Err(exp.error(at, format!("table '{}': `baseline` goes with statistic = \"mean\" and names one of its group columns and a value, e.g. {{ agent = \"greedy\" }}", t.name)));
            }
        }
        if let Some(w) = &t.weighted_by
            && (t.unit.is_none() || !measures.contains(&w.as_str()))
        {
            return Err(exp.error(at, format!("table '{}': `weighted_by` weights each unit's mean: it needs `unit` and a numeric column, one of {} (got '{w}')", t.name, measures.join(", "))));
        }
        if t.paired && (t.baseline.is_none() || t.unit.is_none()) {
            return Err(exp.error(at, format!("table '{}': `paired` compares with the `baseline` unit by unit: it needs both `baseline` and `unit`", t.name)));
        }
        if t.total && (t.statistic != Statistic::Mean || t.baseline.is_some()) {
            return Err(exp.error(at, format!("table '{}': `total` shows a mean table's totals: it goes with statistic = \"mean\" and without `baseline` (a change in % is the same for totals and means)", t.name)));
        }
        if t.metric.is_some() && t.statistic != Statistic::Mean {
            return Err(exp.error(
                at,
                format!(
                    "table '{}': `metric` goes with statistic = \"mean\"",
                    t.name
                ),
            ));
        }
        if t.elo && t.statistic != Statistic::Score {
            return Err(exp.error(
                at,
                format!("table '{}': `elo` goes with statistic = \"score\"", t.name),
            ));
        }
    }
    let table_keys: BTreeMap<&str, &Vec<String>> = tables
        .iter()
        .map(|t| (t.name.as_str(), t.group_by.as_ref().expect("filled")))
        .collect();
    let mut figures = r.figures.clone().unwrap_or_default();
    if r.figures.is_none() {
        for (t, (_, figure)) in tables.iter().zip(&drawn) {
            let figure = match figure {
                DefaultFigure::Undrawn => continue,
                DefaultFigure::This(f) => {
                    figures.push(f.clone());
                    continue;
                }
                // Bars show one or two keys (categories and series); name wider tables' figures.
                // A table without keys (a tune file without a grid: one row) has no figure.
                DefaultFigure::Usual
                    if t.group_by
                        .as_ref()
                        .is_some_and(|g| g.is_empty() || g.len() > 2) =>
                {
                    continue;
                }
                // A numeric sweep of three or more values is a curve against it, the other
                // key (the agent) as the lines.
                DefaultFigure::Usual => {
                    let g = t.group_by.as_ref().expect("filled");
                    let x = g.iter().find(|k| *k != "agent").unwrap_or(&g[0]);
                    let values = exp
                        .swept_axes()
                        .iter()
                        .find(|(k, _)| *k == x)
                        .map_or(0, |(_, v)| v.len());
                    if numeric_grid.contains(x) && values >= 3 {
                        FigureSpec {
                            kind: FigureKind::Curve,
                            x: Some(x.clone()),
                            series: g.iter().find(|k| *k != x).cloned(),
                            ..blank_figure()
                        }
                    } else {
                        FigureSpec {
                            kind: FigureKind::Bars,
                            ..blank_figure()
                        }
                    }
                }
            };
            figures.push(FigureSpec {
                name: t.name.clone(),
                table: Some(t.name.clone()),
                ..figure
            });
        }
        figures.extend(kind.extra_figures(exp));
    }
    let mut fig_names = BTreeSet::new();
    for f in &figures {
        let at = "report.figures";
        let err = |m: String| exp.error(at, format!("figure '{}': {m}", f.name));
        if f.name.is_empty()
            || f.name.len() > crate::experiment::spec::MAX_NAME_LEN
            || !f
                .name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "-_".contains(c))
            || !fig_names.insert(f.name.clone())
        {
            return Err(err(
                "the name must be unique and made of 1 to 64 letters, digits, '-' or '_'".into(),
            ));
        }
        let keys = match &f.table {
            Some(t) => Some(*table_keys.get(t.as_str()).ok_or_else(|| {
                err(format!(
                    "no table '{t}' (tables: {})",
                    table_keys.keys().copied().collect::<Vec<_>>().join(", ")
                ))
            })?),
            None => None,
        };
        let needs_table = matches!(
            f.kind,
            FigureKind::Bars | FigureKind::Curve | FigureKind::Profile
        ) || (f.kind == FigureKind::Box && f.metric.is_none());
        if needs_table && keys.is_none() {
            return Err(err("needs `table`".into()));
        }
        for (what, key) in [("x", &f.x), ("series", &f.series)] {
            if let (Some(k), Some(keys)) = (key, keys)
                && !keys.contains(k)
            {
                return Err(err(format!(
                    "{what} = '{k}' is not a key of its table ({})",
                    keys.join(", ")
                )));
            }
        }
        if f.width.is_some_and(|w| !(120..=8000).contains(&w))
            || f.height.is_some_and(|h| !(100..=8000).contains(&h))
        {
            return Err(err(
                "width and height are SVG units (96 to the inch) from 120 and 100 up to 8000"
                    .into(),
            ));
        }
        if f.hline.iter().flatten().any(|h| !h.is_finite()) {
            return Err(err("hline values must be finite numbers".into()));
        }
        if (f.log_x.is_some() || f.log_y.is_some()) && f.kind != FigureKind::Curve {
            return Err(err("log_x and log_y go with kind = \"curve\"".into()));
        }
        match f.kind {
            FigureKind::Curve | FigureKind::Profile | FigureKind::Box if f.x.is_none() => {
                return Err(err("needs `x`".into()));
            }
            FigureKind::Curve
                if !numeric_grid.contains(f.x.as_ref().expect("checked"))
                    && !["repeat", "generation", "game"]
                        .contains(&f.x.as_deref().unwrap_or("")) =>
            {
                return Err(err(
                    "x must be a numeric grid key, repeat, generation or game".into(),
                ));
            }
            FigureKind::Profile if f.new.is_none() || f.baseline.is_none() => {
                return Err(err("needs `new` and `baseline`".into()));
            }
            FigureKind::Box
                if f.metric
                    .as_deref()
                    .is_some_and(|m| !own.measures.contains(&m)) =>
            {
                return Err(err(format!(
                    "metric must be one of {}",
                    own.measures.join(", ")
                )));
            }
            _ if kind.figure_error(exp, f).is_some() => {
                return Err(err(kind.figure_error(exp, f).expect("checked").into()));
            }
            FigureKind::Heatmap if f.agent.is_none() && f.weights.is_none() => {
                return Err(err("needs `agent` or `weights`".into()));
            }
            FigureKind::Heatmap
                if f.agent
                    .as_ref()
                    .is_some_and(|a| !exp.file.agents.contains_key(a)) =>
            {
                return Err(err("`agent` names no agent of the file".into()));
            }
            FigureKind::Heatmap if f.weights.as_deref() != Some("evolved") => {
                check_heatmap(exp, f).map_err(err)?;
            }
            _ => {}
        }
    }
    for (i, reference) in r.reference.iter().enumerate() {
        let at = "report.reference";
        let err = |m: String| {
            exp.error(
                at,
                format!("reference {} (table '{}'): {m}", i + 1, reference.table),
            )
        };
        let keys = table_keys
            .get(reference.table.as_str())
            .ok_or_else(|| err("no such table".into()))?;
        for k in &reference.keys {
            if !keys.contains(k) {
                return Err(err(format!(
                    "key '{k}' is not a group key of the table ({})",
                    keys.join(", ")
                )));
            }
        }
        if reference.relative
            && tables
                .iter()
                .any(|t| t.name == reference.table && t.baseline.is_none())
        {
            return Err(err("`relative` compares changes against the table's baseline: the table needs `baseline`".into()));
        }
        let k = reference.keys.len();
        for (j, row) in reference.rows.iter().enumerate() {
            if row.len() < k + 1 || row.len() > k + 3 {
                return Err(err(format!(
                    "row {} has {} values; expected the {k} keys, the published value, then optionally the paper's n and SD",
                    j + 1,
                    row.len()
                )));
            }
            let positive = |v: &toml::Value| v.as_integer().is_some_and(|n| n > 0);
            if row.get(k + 1).is_some_and(|n| !positive(n)) {
                return Err(err(format!(
                    "row {}: the paper's n (value {}) must be a positive whole number, got {}",
                    j + 1,
                    k + 2,
                    row[k + 1]
                )));
            }
            if row.get(k + 2).is_some_and(|sd| {
                !sd.as_float()
                    .or(sd.as_integer().map(|i| i as f64))
                    .is_some_and(|x| x >= 0.0 && x.is_finite())
            }) {
                return Err(err(format!(
                    "row {}: the paper's SD (value {}) must be a number at least 0, got {}",
                    j + 1,
                    k + 3,
                    row[k + 2]
                )));
            }
        }
        if reference.n == Some(0) {
            return Err(err("`n` must be at least 1".into()));
        }
    }
    Ok(ReportPlan {
        title: r.title.clone().unwrap_or_else(|| exp.name.clone()),
        level,
        tables,
        figures,
    })
}

/// The agent a rating table puts at 0 unless it names one: among the agents that play (the
/// tournament's participants, the match's players, else every agent), the first by label whose
/// kind plays at random, else the first by label.
fn default_anchor(exp: &Experiment) -> Option<String> {
    let f = &exp.file;
    let participants = f.tournament.as_ref().and_then(|t| t.participants.as_ref());
    let mut playing: Vec<&String> = match (participants, &f.match_) {
        (Some(p), _) => p.iter().collect(),
        (None, Some(m)) => m.players.iter().collect(),
        (None, None) => f.agents.keys().collect(),
    };
    playing.sort();
    playing
        .iter()
        .find(|l| {
            f.agents
                .get(l.as_str())
                .is_some_and(|a| matches!(a.kind_name(), "random" | "course_random"))
        })
        .or(playing.first())
        .map(|l| l.to_string())
}

fn blank_figure() -> FigureSpec {
    FigureSpec::default()
}

/// Draws nothing, but finds what the report's heatmap would draw (`draw::heatmap_source`) from
/// the file, so a table it could not draw (a missing or unreadable file, a device, the wrong
/// shape) or a heatmap on a game without Othello boards stops the run before it starts. The
/// jobs' stage is the first of a swept `stage`, as the report takes the first job's; an agent
/// whose settings the grid sweeps is left to the report (its table may come from the grid),
/// and so is a stage that does not resolve (the grid's expansion names that error).
fn check_heatmap(exp: &Experiment, f: &FigureSpec) -> Result<(), String> {
    use crate::experiment::spec::GameName;
    if let Some(label) = &f.agent {
        let prefix = format!("agents.{label}.");
        if exp
            .file
            .grid
            .keys()
            .chain(exp.file.zip.keys())
            .any(|k| k.starts_with(&prefix))
        {
            return Ok(());
        }
    }
    let stage = if exp.file.game == GameName::Othello {
        let swept = exp
            .file
            .grid
            .get("stage")
            .or(exp.file.zip.get("stage"))
            .and_then(|v| v.first());
        let stage: Option<crate::game::othello::StageRef> = match swept {
            Some(v) => v.clone().try_into().ok(),
            None => exp.file.stage.clone(),
        };
        match stage.map(|s| s.resolve()) {
            Some(Ok(def)) => Some(def),
            _ if f.stage.is_none() => return Ok(()),
            _ => None,
        }
    } else {
        None
    };
    super::draw::heatmap_source(f, stage.as_ref(), &exp.file.agents, &exp.base_dir()).map(|_| ())
}
