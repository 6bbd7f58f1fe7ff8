//! The report side the two GA kinds share (`ga`, `tsumego_ga`): the columns of their generation
//! rows and their default tables, the best's fitness at the end and by generation; and a GA's
//! arena table. A room below `ga.rs` and `solve.rs`, so that neither imports the other.

use super::contract::{DefaultFigure, DefaultTable};
use crate::experiment::Experiment;
use crate::report::spec::{FigureKind, FigureSpec, RowSource, Statistic, TableSpec};

/// Group keys of a GA's generation rows (`ga` and `tsumego_ga`) besides the grid keys.
pub const GENERATION_KEYS: [&str; 5] = ["generation", "individual", "repeat", "best", "final"];

/// The units of a GA's generation rows (`ga` and `tsumego_ga`).
pub const GENERATION_UNITS: [&str; 5] = ["repeat", "job", "generation", "individual", "final"];

/// A GA's default tables of its generation rows (`ga` and `tsumego_ga`): the fitness of the
/// last generation's best, averaged over repeats (drawn as `final_best` says), and of each
/// generation's best (hidden, drawn as the fitness curve against the generation).
pub fn generation_tables(
    exp: &Experiment,
    group: &[String],
    final_best: DefaultFigure,
) -> Vec<DefaultTable> {
    let best = |extra: &[&str]| {
        std::iter::once("best")
            .chain(extra.iter().copied())
            .map(|k| (k.to_string(), toml::Value::Integer(1)))
            .collect()
    };
    let mut by_generation = group.to_vec();
    by_generation.push("generation".into());
    let curve = FigureSpec {
        name: "fitness_curve".into(),
        table: Some("best_by_generation".into()),
        kind: FigureKind::Curve,
        x: Some("generation".into()),
        series: exp.swept_axes().first().map(|(k, _)| (*k).clone()),
        ..FigureSpec::default()
    };
    vec![
        DefaultTable {
            table: TableSpec {
                statistic: Statistic::Mean,
                metric: Some("fitness".into()),
                unit: Some("repeat".into()),
                filter: best(&["final"]),
                ..TableSpec::new(
                    "final_best",
                    "Fitness of the best individual of the last generation (mean over repeats)",
                    Some(group.to_vec()),
                )
            },
            figure: final_best,
        },
        DefaultTable {
            table: TableSpec {
                statistic: Statistic::Mean,
                metric: Some("fitness".into()),
                unit: Some("repeat".into()),
                filter: best(&[]),
                hidden: true,
                ..TableSpec::new(
                    "best_by_generation",
                    "Fitness of each generation's best (mean over repeats)",
                    Some(by_generation),
                )
            },
            figure: DefaultFigure::This(curve),
        },
    ]
}

/// The default table of a GA's `[arena]` games, when it has one: scores and Elo by agent and
/// the grid keys.
pub fn arena_table(exp: &Experiment) -> Option<DefaultTable> {
    exp.file.arena.as_ref()?;
    let by_agent = std::iter::once("agent".to_string())
        .chain(exp.swept_axes().iter().map(|(k, _)| (*k).clone()))
        .collect();
    Some(DefaultTable::usual(TableSpec {
        rows: RowSource::Arena,
        elo: true,
        ..TableSpec::new("arena", "The evolved tables in the arena", Some(by_agent))
    }))
}
