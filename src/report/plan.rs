//! The `[report]` section checked against its experiment, with the defaults filled in: which
//! tables and figures a report makes. Runs before anything is run or written.

use super::records::{
    GA_KEYS, GA_MEASURES, MEASURES, SOLVE_KEYS, SOLVE_MEASURES, TSUMEGO_GA_KEYS,
    TSUMEGO_GA_MEASURES, TUNE_KEYS, TUNE_MEASURES,
};
use super::spec::{FigureKind, FigureSpec, RowSource, Statistic, TableSpec};
use crate::experiment::error::InputError;
use crate::experiment::rows::SweptKind;
use crate::experiment::spec::{Experiment, JobKind};
use std::collections::{BTreeMap, BTreeSet};

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
    let is_tune = exp.file.kind == JobKind::Tune;
    let is_tsumego_ga = exp.file.kind == JobKind::TsumegoGa;
    let no_games_outside = matches!(exp.file.kind, JobKind::Other(_));
    // Rows without games: nothing to score, only means.
    let no_games = !exp.file.kind.plays_games();
    // A kind from outside gamelab says what its rows hold (`KindRunner::report_columns`).
    let outside: (&'static [&'static str], &'static [&'static str]) = match exp.file.kind {
        JobKind::Other(_) => crate::experiment::kind::registry::find(exp.file.kind)
            .map(|k| k.report_columns())
            .unwrap_or((&[], &[])),
        _ => (&[], &[]),
    };
    // Game rows, GA generation rows, tune rows and solve rows have their own columns.
    let columns_of = |rows: RowSource| -> (&'static [&'static str], &'static [&'static str]) {
        match (exp.file.kind, rows) {
            (_, RowSource::Solves) | (JobKind::Solve, _) => (&SOLVE_KEYS, &SOLVE_MEASURES),
            (JobKind::TsumegoGa, _) => (&TSUMEGO_GA_KEYS, &TSUMEGO_GA_MEASURES),
            (JobKind::Ga, _) => (&GA_KEYS, &GA_MEASURES),
            (JobKind::Tune, _) => (&TUNE_KEYS, &TUNE_MEASURES),
            (JobKind::Other(_), _) => outside,
            _ => (&BASE_KEYS, &MEASURES),
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
    let (base_keys, measures) = columns_of(RowSource::Own);
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
    let default_group: Vec<String> = if is_ga || is_tune || is_tsumego_ga || no_games_outside {
        grid.clone()
    } else if exp.file.kind == JobKind::Solve {
        std::iter::once("weights".to_string())
            .chain(grid.iter().cloned())
            .collect()
    } else {
        std::iter::once("agent".to_string())
            .chain(grid.iter().cloned())
            .collect()
    };
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
    let check_keys = |keys: &[String], at: &str, allow_empty: bool| {
        check_keys_of(base_keys, keys, at, allow_empty)
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
        weighted_by: None,
        method: Default::default(),
        baseline: None,
        paired: false,
        total: false,
        hidden: false,
        filter: Default::default(),
        rows: RowSource::Own,
    };
    if tables.is_empty() && (is_ga || is_tsumego_ga) {
        // The fitness of each generation's best, and of the last generation's best, averaged
        // over repeats.
        let best = |extra: &[&str]| {
            std::iter::once(("best".to_string(), toml::Value::Integer(1)))
                .chain(
                    extra
                        .iter()
                        .map(|k| (k.to_string(), toml::Value::Integer(1))),
                )
                .collect()
        };
        let mut by_gen = default_group.clone();
        by_gen.push("generation".into());
        tables.push(TableSpec {
            statistic: Statistic::Mean,
            metric: Some("fitness".into()),
            unit: Some("repeat".into()),
            filter: best(&["final"]),
            ..table(
                "final_best",
                "Fitness of the best individual of the last generation (mean over repeats)",
                Some(default_group.clone()),
            )
        });
        tables.push(TableSpec {
            statistic: Statistic::Mean,
            metric: Some("fitness".into()),
            unit: Some("repeat".into()),
            filter: best(&[]),
            hidden: true,
            ..table(
                "best_by_generation",
                "Fitness of each generation's best (mean over repeats)",
                Some(by_gen),
            )
        });
        if exp
            .file
            .tsumego_ga
            .as_ref()
            .is_some_and(|g| g.test.is_some())
        {
            let mut by_weights = grid.clone();
            by_weights.extend(["weights".to_string(), "band".to_string()]);
            tables.push(TableSpec {
                rows: RowSource::Solves,
                statistic: Statistic::Mean,
                metric: Some("leaves".into()),
                ..table(
                    "test_leaves",
                    "Leaves per test problem with the trained weights and the baselines",
                    Some(by_weights),
                )
            });
        }
        if exp.file.arena.is_some() {
            let mut by_agent = vec!["agent".to_string()];
            by_agent.extend(grid.iter().cloned());
            tables.push(TableSpec {
                rows: RowSource::Arena,
                elo: true,
                ..table("arena", "The evolved tables in the arena", Some(by_agent))
            });
        }
    } else if tables.is_empty() && is_tune {
        // The final weights' score against the opponent, and the final weights themselves.
        let eval: std::collections::BTreeMap<String, toml::Value> =
            [("phase".to_string(), toml::Value::from("eval"))].into();
        let mut by_weight = default_group.clone();
        by_weight.push("weight".into());
        tables.push(TableSpec {
            statistic: Statistic::Mean,
            metric: Some("result".into()),
            filter: eval.clone(),
            ..table(
                "eval",
                "Score of the final weights against the opponent (1 win, 0.5 draw)",
                Some(default_group.clone()),
            )
        });
        tables.push(TableSpec {
            statistic: Statistic::Mean,
            metric: Some("w_*".into()),
            unit: Some("repeat".into()),
            filter: eval,
            ..table(
                "final_weights",
                "The final weights (mean over repeats)",
                Some(by_weight),
            )
        });
    } else if tables.is_empty() && exp.file.kind == JobKind::Solve {
        let mut by_band = default_group.clone();
        by_band.push("band".into());
        tables.push(TableSpec {
            statistic: Statistic::Mean,
            metric: Some("leaves".into()),
            ..table("leaves", "Leaves per problem", Some(by_band))
        });
    } else if tables.is_empty() && no_games_outside {
        return Err(exp.error(
            "report",
            format!(
                "kind = \"{}\" has no default table: give [[report.tables]] (statistic = \"mean\" of one of its measures: {})",
                exp.file.kind.name(),
                outside.1.join(", ")
            ),
        ));
    } else if tables.is_empty() {
        tables.push(table("scores", "Scores", r.group_by.clone()));
    } else if r.group_by.is_some() {
        return Err(exp.error(
            "report.group_by",
            "with [[report.tables]], give group_by in each table instead",
        ));
    }
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
            if exp.file.arena.is_none() {
                return Err(exp.error(
                    at,
                    format!(
                        "table '{}': rows = \"arena\" needs an [arena] section",
                        t.name
                    ),
                ));
            }
            let g = t.group_by.get_or_insert_with(|| vec!["agent".to_string()]);
            for k in g.iter().chain(t.filter.keys()) {
                if !BASE_KEYS.contains(&k.as_str()) && !grid.contains(k) && k != "origin" {
                    return Err(exp.error(at, format!("table '{}': unknown arena column '{k}' (expected one of {}, {}, origin)", t.name, BASE_KEYS.join(", "), grid.join(", "))));
                }
            }
            if t.statistic == Statistic::Mean
                && !t.metric.as_deref().is_some_and(|m| MEASURES.contains(&m))
            {
                return Err(exp.error(
                    at,
                    format!(
                        "table '{}': a mean of arena games needs `metric`, one of {}",
                        t.name,
                        MEASURES.join(", ")
                    ),
                ));
            }
            continue;
        }
        if t.rows == RowSource::Solves && !is_tsumego_ga {
            return Err(exp.error(at, format!("table '{}': rows = \"solves\" reads the test problems of a tsumego_ga experiment", t.name)));
        }
        let (base_keys, measures) = columns_of(t.rows);
        let g = t.group_by.get_or_insert_with(|| default_group.clone());
        check_keys_of(base_keys, g, at, true).map_err(|e| InputError {
            message: format!("table '{}': {}", t.name, e.message),
            ..e
        })?;
        if no_games && !is_tune && t.statistic != Statistic::Mean {
            return Err(exp.error(
                at,
                format!(
                    "table '{}': these rows have no games to score: use statistic = \"mean\" of {}",
                    t.name,
                    measures.join(", ")
                ),
            ));
        }
        if is_tune && t.statistic != Statistic::Mean {
            return Err(exp.error(at, format!("table '{}': tune rows are scored by their `result`: use statistic = \"mean\" of {}", t.name, TUNE_MEASURES.join(", "))));
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
            let unit_columns: Vec<&str> = match (exp.file.kind, t.rows) {
                (_, RowSource::Solves) | (JobKind::Solve, _) => {
                    vec!["repeat", "job", "problem", "level", "set"]
                }
                (JobKind::Ga | JobKind::TsumegoGa, _) => {
                    vec!["repeat", "job", "generation", "individual", "final"]
                }
                (JobKind::Tune, _) => vec!["repeat", "job", "generation", "individual", "game"],
                // A kind from outside: the repeat, the job, or one of its own keys.
                (JobKind::Other(_), _) => ["repeat", "job"]
                    .into_iter()
                    .chain(outside.0.iter().copied())
                    .collect(),
                _ => vec!["repeat", "job", "pair", "game", "stage"],
            };
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
        for t in &tables {
            let figure = match t.name.as_str() {
                // The GA's default tables: a fitness curve, and the arena by agent.
                "best_by_generation" if r.tables.is_empty() => FigureSpec {
                    kind: FigureKind::Curve,
                    x: Some("generation".into()),
                    series: grid.first().cloned(),
                    ..blank_figure()
                },
                "final_best" if r.tables.is_empty() && is_tsumego_ga => continue,
                "final_best" if r.tables.is_empty() => {
                    figures.push(FigureSpec {
                        name: "best".into(),
                        kind: FigureKind::Heatmap,
                        weights: Some("evolved".into()),
                        ..blank_figure()
                    });
                    continue;
                }
                // Bars show one or two keys (categories and series); name wider tables' figures.
                // A table without keys (a tune file without a grid: one row) has no figure.
                _ if t
                    .group_by
                    .as_ref()
                    .is_some_and(|g| g.is_empty() || g.len() > 2) =>
                {
                    continue;
                }
                // A numeric sweep of three or more values is a curve against it, the other
                // key (the agent) as the lines.
                _ => {
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
            let name = if t.name == "best_by_generation" {
                "fitness_curve".to_string()
            } else {
                t.name.clone()
            };
            figures.push(FigureSpec {
                name,
                table: Some(t.name.clone()),
                ..figure
            });
        }
        if exp.file.kind == JobKind::Tournament {
            figures.push(FigureSpec {
                name: "matrix".into(),
                kind: FigureKind::Matrix,
                ..blank_figure()
            });
        }
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
            FigureKind::Box if f.metric.as_deref().is_some_and(|m| !measures.contains(&m)) => {
                return Err(err(format!(
                    "metric must be one of {}",
                    measures.join(", ")
                )));
            }
            FigureKind::Matrix if is_ga && exp.file.arena.is_none() => {
                return Err(err("a GA experiment has games only in its [arena]".into()));
            }
            FigureKind::Heatmap if f.weights.as_deref() == Some("evolved") && !is_ga => {
                return Err(err(
                    "weights = \"evolved\" draws a GA experiment's best tables".into(),
                ));
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
