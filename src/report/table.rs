//! Computed tables: records grouped by keys, one statistic per group, and their Markdown and
//! CSV forms. A table row always has a main value with an interval (what figures draw and
//! references are compared with) plus the columns its statistic adds.

use super::records::{Records, RepeatedKeys, collect, key_texts, numbers};
use super::spec::{MeanInterval, Statistic};
use super::stats::elo::{Pentanomial, Wdl, elo_pentanomial, elo_trinomial, los};
use super::stats::means::{Moments, bootstrap, mean, mean_interval_of, paired, welch_of};
use super::stats::rating::{Game, bradley_terry_anchored};
use super::stats::{Estimate, Interval};
use anyhow::{Result, bail};
use polars::prelude::*;
use std::cmp::Ordering;
use std::collections::BTreeMap;
use std::sync::Arc;

mod mean;
mod order;
mod query;
mod rating;
mod score;
use mean::*;
use rating::rating_table;
use score::*;
mod text;
pub use order::natural_cmp;
use order::*;
use query::*;
pub use query::{collect_parts, group_keys, per_part, summed, values_by_group};
pub use text::csv_line;
use text::*;
pub(super) use text::{counted, p_text};

#[derive(Clone, Debug, PartialEq)]
pub struct TableRow {
    pub keys: Vec<String>,
    /// How many independent units the value comes from (games, values, games rated).
    pub n: u64,
    pub value: Estimate,
    /// Cells shown before the value (W, D, L...).
    pub before: Vec<String>,
    /// Cells shown after the interval (Elo, LOS...).
    pub after: Vec<String>,
    /// Mean tables with a baseline: the difference from it in % of the baseline's mean, with
    /// the difference's interval over the same mean.
    pub change: Option<Estimate>,
    /// Mean tables: the sample's standard deviation (for two-sample comparisons).
    pub sd: Option<f64>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Table {
    pub name: String,
    pub title: String,
    pub key_names: Vec<String>,
    pub n_name: String,
    pub before_names: Vec<String>,
    pub value_name: String,
    pub interval_name: String,
    pub after_names: Vec<String>,
    /// Decimals the value and its interval are shown with.
    pub decimals: usize,
    pub rows: Vec<TableRow>,
    /// What each row's value is (how a published value is compared with it).
    pub statistic: Statistic,
    /// Score tables of games: the groups whose games are not all distinct (deterministic agents
    /// from one start replay one game), as (group keys, games, distinct games).
    pub repeated: Vec<(Vec<String>, u64, u64)>,
}

impl Table {
    /// The table's totals (`TableSpec::total`): each row's mean, interval and SD times its n,
    /// so a total over n units is compared as the mean is (a one-sample t of the total against a
    /// published total is that of the mean against the total / n).
    pub fn totals(mut self) -> Table {
        for r in &mut self.rows {
            let n = r.n as f64;
            r.value = Estimate {
                value: r.value.value * n,
                lo: r.value.lo * n,
                hi: r.value.hi * n,
            };
            r.sd = r.sd.map(|sd| sd * n);
        }
        self.value_name = format!("total {} (n x mean)", self.value_name);
        self.decimals = 0;
        self
    }
}

/// What a table needs besides the records.
pub struct TableParams<'a> {
    pub name: &'a str,
    pub title: &'a str,
    pub group_by: &'a [String],
    /// Keep only records whose column has the value (as a group key text).
    pub filter: &'a [(String, String)],
    pub statistic: Statistic,
    pub metric: Option<&'a str>,
    /// Mean tables: the column whose values are the independent units (None: each record).
    pub unit: Option<&'a str>,
    /// Mean tables with a unit: weight each unit's mean by this column.
    pub weighted_by: Option<&'a str>,
    pub method: MeanInterval,
    /// Mean tables: (group column, value) of the group every other is compared with.
    pub baseline: Option<(String, String)>,
    /// Compare with the baseline unit by unit (paired t-test) instead of Welch's test, each
    /// comparison's rows over the units all its groups have (`keep_shared_units`).
    pub paired: bool,
    pub elo: bool,
    pub level: f64,
    pub interval: Interval,
    pub bootstrap: usize,
    pub seed: u64,
}

/// Computes a table from records: polars queries that group and aggregate, then the
/// statistic of each group from its aggregates.
pub fn compute(records: &Records, p: &TableParams) -> Result<Table> {
    match p.statistic {
        Statistic::Score => score_table(records, p),
        Statistic::Mean => mean_table(records, p),
        Statistic::Rating => rating_table(records, p),
    }
}

fn base(p: &TableParams, n_name: &str, value_name: String, interval_name: String) -> Table {
    Table {
        name: p.name.to_string(),
        title: p.title.to_string(),
        key_names: p.group_by.to_vec(),
        n_name: n_name.to_string(),
        before_names: vec![],
        value_name,
        interval_name,
        after_names: vec![],
        decimals: 2,
        rows: vec![],
        statistic: p.statistic,
        repeated: vec![],
    }
}

#[cfg(test)]
mod tests;
