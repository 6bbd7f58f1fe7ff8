//! Statistics for reports: pure functions of numbers. Nothing here knows of rows, files or
//! plots (criterion's layering: measurement, statistics and plotting are separate).
//!
//! - `proportion`: Wilson and Clopper-Pearson intervals;
//! - `elo`: Elo difference with its interval from W/D/L or from colour-swapped pairs
//!   (pentanomial), likelihood of superiority, and the SPRT;
//! - `means`: Student and Welch t intervals and tests, percentile bootstrap;
//! - `rating`: Bradley-Terry ratings of many agents (MM algorithm) with bootstrap intervals;
//! - `two_sample`: a published value against a measured one (Fisher exact, Newcombe, Welch,
//!   Holm), the report's verdict.
//!
//! Quantiles come from statrs; nothing here writes its own quantile function.

pub mod elo;
pub mod means;
pub mod proportion;
pub mod rating;
pub mod two_sample;

pub use proportion::{clopper_pearson, wilson, z_for};

/// A point estimate with a two-sided interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    pub value: f64,
    pub lo: f64,
    pub hi: f64,
}

/// Which proportion interval a table uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Interval {
    #[default]
    Wilson,
    ClopperPearson,
}

impl Interval {
    /// The interval of `successes` of `n` at `level` (fractional successes for Wilson only;
    /// Clopper-Pearson rounds half points down to whole trials as the exact test requires).
    pub fn bounds(self, successes: f64, n: f64, level: f64) -> (f64, f64) {
        match self {
            Interval::Wilson => wilson(successes, n, level),
            Interval::ClopperPearson => clopper_pearson(successes.floor() as u64, n as u64, level),
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Interval::Wilson => "Wilson",
            Interval::ClopperPearson => "Clopper-Pearson",
        }
    }
}
