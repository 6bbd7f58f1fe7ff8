//! The `[report]` section of an experiment file: which tables and figures to make, and the
//! published numbers to compare with. Checked against the experiment before anything runs.

use super::stats::Interval;
use serde::{Deserialize, Serialize};

/// What a table computes for each group.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Statistic {
    /// W/D/L from the agent's point of view, score % with a proportion interval; with
    /// `elo = true` also the Elo difference with its interval and the likelihood of superiority.
    #[default]
    Score,
    /// The mean of `metric` with a Student t interval.
    Mean,
    /// Bradley-Terry ratings (Elo scale) of the agents, bootstrap intervals over games.
    Rating,
}

/// How a mean table's interval is computed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum MeanInterval {
    #[default]
    T,
    Bootstrap,
}

/// Which rows a table reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum RowSource {
    /// The experiment's own rows (games, or generations for a GA).
    #[default]
    Own,
    /// The games of a GA experiment's `[arena]`, with the GA job's grid values as columns of each
    /// evolved agent ("-" for the other participants) and `origin` (evolved or reference).
    Arena,
    /// The test problems a `tsumego_ga` experiment solved after training (`solves/`), one
    /// record per weight vector and problem.
    Solves,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TableSpec {
    /// Names the table: its section, its CSV file, and what figures and references refer to.
    pub name: String,
    #[serde(default)]
    pub title: Option<String>,
    /// Group columns (default: agent and every grid key).
    #[serde(default)]
    pub group_by: Option<Vec<String>>,
    #[serde(default)]
    pub rows: RowSource,
    #[serde(default)]
    pub statistic: Statistic,
    /// The numeric column a `mean` table averages (plies, wall_ms, simulations, nodes, score,
    /// opponent_score, result, or a numeric grid key).
    #[serde(default)]
    pub metric: Option<String>,
    /// Score tables: add Elo difference, its interval and LOS.
    #[serde(default)]
    pub elo: bool,
    /// Mean tables: the independent unit. Values are first averaged within each value of this
    /// column (e.g. `repeat`, `job`, `pair`), and the mean and interval are taken over those
    /// unit means. Default: every record is a unit.
    #[serde(default)]
    pub unit: Option<String>,
    /// Mean tables with a unit: each unit's value is the mean weighted by this column, the sum
    /// of metric x weight over the sum of weight (time per leaf as a run's total time over its
    /// total leaves: metric = "us_per_leaf", weighted_by = "leaves").
    #[serde(default)]
    pub weighted_by: Option<String>,
    /// Mean tables: the interval, Student's t (default) or a percentile bootstrap over units.
    #[serde(default)]
    pub method: MeanInterval,
    /// Mean tables: compare every group with the group that has this value in one of the
    /// group columns, e.g. `{ agent = "greedy" }`: the difference of means, its Welch interval
    /// and the two-sided p-value of Welch's t-test.
    #[serde(default)]
    pub baseline: Option<std::collections::BTreeMap<String, toml::Value>>,
    /// Mean tables with a `baseline` and a `unit`: compare unit by unit (the same problems,
    /// seeds or boards measured in both groups): the mean of the per-unit differences, its
    /// Student t interval and the paired t-test's p-value, over the units both groups have.
    #[serde(default)]
    pub paired: bool,
    /// Mean tables: show each group's total over its units (n x the mean, the interval and
    /// SD scaled alike) instead of the mean, where the paper gives totals over the same units
    /// (GoTools' "370,115 leaves in total" of a test set): like with like.
    #[serde(default)]
    pub total: bool,
    /// Computed (CSV and figures) but left out of report.md, for long tables behind a figure.
    #[serde(default)]
    pub hidden: bool,
    /// Keep only the records whose columns have these values, e.g. `{ agent = "mcts" }`.
    #[serde(default)]
    pub filter: std::collections::BTreeMap<String, toml::Value>,
}

impl TableSpec {
    /// A score table of the experiment's own rows, with every other setting at its default:
    /// what a kind's default tables start from (`KindRunner::default_tables`).
    pub fn new(name: &str, title: &str, group_by: Option<Vec<String>>) -> TableSpec {
        TableSpec {
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
        }
    }
}

/// Figure kinds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum FigureKind {
    /// A table's values with interval whiskers: ranked horizontal bars for a table with one
    /// key, grouped vertical bars (`x` categories, `series` bars) otherwise.
    #[default]
    Bars,
    /// Box plots of a table's values grouped by `x`, or of a per-game `metric` grouped by `x`.
    Box,
    /// A table's values against a numeric key `x`, one line per `series`, interval band.
    Curve,
    /// The tournament win-rate matrix (agent's score % against each opponent).
    Matrix,
    /// A weight table on its board: the table of agent `agent`, or `weights` (a table name or
    /// file) on `stage`.
    Heatmap,
    /// Histogram over the other keys of the ratio value(x = new) / value(x = baseline) in %.
    Profile,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct FigureSpec {
    /// The file stem under figures/<experiment>/ (letters, digits, '-', '_').
    pub name: String,
    pub kind: FigureKind,
    /// The table whose values are drawn (bars, curve, profile; box without `metric`).
    #[serde(default)]
    pub table: Option<String>,
    /// The key along x (a group column of the table; a numeric one for curves).
    #[serde(default)]
    pub x: Option<String>,
    /// The key whose values are the lines or bar colours (a legend).
    #[serde(default)]
    pub series: Option<String>,
    /// Box plots: a per-record numeric column instead of a table's values.
    #[serde(default)]
    pub metric: Option<String>,
    /// Heatmaps: the agent whose weight table is drawn.
    #[serde(default)]
    pub agent: Option<String>,
    /// Heatmaps: a table name or file, or "evolved" (a GA's best tables, one figure each).
    #[serde(default)]
    pub weights: Option<String>,
    /// Heatmaps: the Othello stage the weights are drawn on.
    #[serde(default)]
    pub stage: Option<String>,
    /// Profiles: the value of `x` whose ratio to `baseline` is plotted.
    #[serde(default)]
    pub new: Option<String>,
    #[serde(default)]
    pub baseline: Option<String>,
    /// The figure's caption (in the report, its HTML and `<name>.caption.txt`; default: the
    /// experiment's title and what is plotted). Not drawn into the image, as a paper sets it
    /// under the figure, unless `title_in_image = true`.
    #[serde(default)]
    pub title: Option<String>,
    #[serde(default)]
    pub title_in_image: bool,
    /// Default: the key made readable ("agents.uct.c" is "C (uct)").
    #[serde(default)]
    pub x_label: Option<String>,
    /// Default: the table's value and its interval.
    #[serde(default)]
    pub y_label: Option<String>,
    /// Curves: a logarithmic x axis (default: on when x's values are positive and span a
    /// factor of 10 or more).
    #[serde(default)]
    pub log_x: Option<bool>,
    /// Curves: a logarithmic y axis (default: on when the values are positive and span a
    /// factor of 10 or more).
    #[serde(default)]
    pub log_y: Option<bool>,
    /// Dashed reference lines at these values of the value axis (default: 50 for a score in %;
    /// `[]` for none).
    #[serde(default)]
    pub hline: Option<Vec<f64>>,
    /// Size in SVG units (96 to the inch; the PNG has 300 dpi): default from the content,
    /// about 5 x 3.5 inches.
    #[serde(default)]
    pub width: Option<u32>,
    #[serde(default)]
    pub height: Option<u32>,
}

/// A published table to compare a computed one with, row by row.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReferenceSpec {
    /// The computed table it refers to.
    pub table: String,
    /// Where the numbers come from ("Table 1 of the Othello report").
    #[serde(default)]
    pub source: Option<String>,
    /// The group columns each row starts with (a subset of the table's group_by).
    pub keys: Vec<String>,
    /// Each row: the key values, then the published value in the table's unit (a string such
    /// as "unreadable" when the source cannot be read; the row is then not comparable), then
    /// optionally the paper's n for this row and its SD (means).
    pub rows: Vec<Vec<toml::Value>>,
    /// The paper's sample size for every row (games of a score, problems or games of a mean),
    /// unless a row gives its own: what the two-sample verdict compares our sample with.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub n: Option<u64>,
    /// The n is our reading, not stated by the paper (the note says why): shown as such.
    #[serde(default)]
    pub n_assumed: bool,
    /// The published values are changes in % against the table's `baseline` (e.g. -14 for
    /// "14% fewer leaves"): compared with the measured change in % and its interval (the
    /// difference's interval over the baseline's mean).
    #[serde(default)]
    pub relative: bool,
    /// How the published numbers were read or converted.
    #[serde(default)]
    pub note: Option<String>,
    /// Why ours lies on the other side of the paper's value, where a row of this table does
    /// ("sign differs"): `gamelab summary` prints it under the table of every such row.
    #[serde(default)]
    pub reversal: Option<String>,
    /// Why the paper's values and ours measure different things (another engine's counts,
    /// another problem set's totals): every row is shown with our value and this reason,
    /// counted apart, and never judged consistent or different.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub not_comparable: Option<String>,
    /// The values are ours, derived from the paper's numbers (means of a table's rows pooled
    /// as a figure pools them), not printed in the paper: compared like the others, but shown
    /// apart on the reproduction page and not counted as published values. The note says how
    /// they were derived.
    #[serde(default)]
    pub derived: bool,
}

/// The `[report]` section.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct ReportSpec {
    #[serde(default)]
    pub title: Option<String>,
    /// Confidence level of every interval (default 0.95).
    #[serde(default)]
    pub level: Option<f64>,
    /// Proportion interval of score tables.
    #[serde(default)]
    pub interval: Interval,
    /// Group columns of the default score table (when `tables` is empty).
    #[serde(default)]
    pub group_by: Option<Vec<String>>,
    /// Bootstrap resamples for rating intervals (default 1000).
    #[serde(default)]
    pub bootstrap: Option<usize>,
    #[serde(default)]
    pub tables: Vec<TableSpec>,
    /// The figures; unset, the defaults for the tables; `figures = []`, none at all.
    #[serde(default)]
    pub figures: Option<Vec<FigureSpec>>,
    #[serde(default)]
    pub reference: Vec<ReferenceSpec>,
    /// Why this file's report is not kept beside the others (`docs/reports`) though it has
    /// published values: a run too long to keep, and what stands in for it. `gamelab summary`
    /// shows it under "Not in this page" while no kept report is there; a kept report, once
    /// there, is judged as any other.
    #[serde(default)]
    pub not_kept: Option<String>,
}
