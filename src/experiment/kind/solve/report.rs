//! What a report reads of the life-and-death kinds' rows: the columns of solve rows (`solve`,
//! and a `tsumego_ga`'s test problems) and of `tsumego_ga` generation rows, and the two kinds'
//! default tables.

use super::super::contract::{DefaultFigure, DefaultTable, RowColumns};
use super::super::generation_report::{GENERATION_KEYS, GENERATION_UNITS, generation_tables};
use crate::experiment::Experiment;
use crate::report::spec::{RowSource, Statistic, TableSpec};

/// Group keys of solve rows besides the grid keys; `budget_hit` too, so that a table can keep
/// the problems solved within the node budget (`filter = { budget_hit = 0 }`).
const SOLVE_KEYS: [&str; 10] = [
    "weights",
    "problem",
    "set",
    "level",
    "band",
    "status",
    "expected",
    "repeat",
    "job",
    "budget_hit",
];

/// Numeric columns of solve rows.
const SOLVE_MEASURES: [&str; 9] = [
    "leaves",
    "nodes",
    "tt_hits",
    "max_depth",
    "time_s",
    "us_per_leaf",
    "correct",
    "budget_hit",
    "level",
];

/// Numeric columns of `tsumego_ga` generation rows.
const TSUMEGO_GA_MEASURES: [&str; 4] = ["fitness", "scaled_fitness", "train_leaves", "generation"];

/// Solve rows: one (weights, problem) pair each, the problem its unit.
pub(super) fn solve_columns() -> RowColumns {
    RowColumns::with_units(
        &SOLVE_KEYS,
        &SOLVE_MEASURES,
        &["repeat", "job", "problem", "level", "set"],
    )
}

/// `tsumego_ga` generation rows.
pub(super) fn generation_columns() -> RowColumns {
    RowColumns::with_units(&GENERATION_KEYS, &TSUMEGO_GA_MEASURES, &GENERATION_UNITS)
}

/// A solve file's default table: leaves per problem by weights, grid keys and band.
pub(super) fn solve_tables(group: &[String]) -> Vec<DefaultTable> {
    let mut by_band = group.to_vec();
    by_band.push("band".into());
    vec![DefaultTable::usual(TableSpec {
        statistic: Statistic::Mean,
        metric: Some("leaves".into()),
        ..TableSpec::new("leaves", "Leaves per problem", Some(by_band))
    })]
}

/// A `tsumego_ga` file's default tables: the GA's (its final best undrawn: it has no board of
/// weights), then the leaves per test problem of each weight vector when it has a test set.
/// (An `[arena]` goes only with `ga`.)
pub(super) fn tsumego_ga_tables(exp: &Experiment, group: &[String]) -> Vec<DefaultTable> {
    let mut tables = generation_tables(exp, group, DefaultFigure::Undrawn);
    if exp
        .file
        .tsumego_ga
        .as_ref()
        .is_some_and(|g| g.test.is_some())
    {
        let mut by_weights: Vec<String> =
            exp.swept_axes().iter().map(|(k, _)| (*k).clone()).collect();
        by_weights.extend(["weights".to_string(), "band".to_string()]);
        tables.push(DefaultTable::usual(TableSpec {
            rows: RowSource::Solves,
            statistic: Statistic::Mean,
            metric: Some("leaves".into()),
            ..TableSpec::new(
                "test_leaves",
                "Leaves per test problem with the trained weights and the baselines",
                Some(by_weights),
            )
        }));
    }
    tables
}
