//! A published value against a measured one, both samples: the tests behind a report's verdict.
//!
//! A paper's number is itself a sample (46 games, 80 games, a test set of problems), so "the
//! paper's value lies inside our interval" is the wrong question: at equal n it fails 17% of the
//! time when both measured the same thing, and at ten times the games more often than not. The
//! verdict compares the two samples instead:
//!
//! - proportions (score tables: score points W + D/2 of n games, rounded to whole points):
//!   Fisher's exact test, two-sided, and Newcombe's hybrid score interval (on the points as
//!   they are) (his method 10) for the
//!   difference, ours minus the paper's;
//! - means, when the paper gives a spread: Welch's t test and interval;
//! - p-values are Holm-adjusted over the rows of one comparison table (a table with many rows
//!   finds a "difference" by chance otherwise);
//! - a difference in direction is flagged on its own (`SignDiffers`): the paper's value is
//!   clearly on its side of the reference point (50% for scores, 0 for changes: its own interval
//!   excludes the point, or, without the paper's n, it is not the point itself) and our whole
//!   interval lies on the other side, whatever the p-value. Where our interval reaches the point,
//!   the ordinary verdict stands: a value of ours that chance could put on either side is no
//!   reversal.
//!
//! Where the paper gives no n (or, for a mean or a change, no spread), its value is taken as a
//! fixed number and ours as the one sample (`one_sample`): the exact binomial test for scores,
//! the one-sample t test for means (from our SD, or from our interval for changes and ratings).
//! It ignores the paper's own sampling error, so it calls "different" more readily than the
//! two-sample test would: its verdicts are labelled one-sample wherever they are shown, and its
//! p-values join the table's Holm adjustment like the others.

use super::Estimate;
use super::proportion::wilson;
use statrs::function::factorial::ln_binomial;

/// Fisher's exact test of x1 of n1 against x2 of n2: the two-sided p-value, the probability
/// under independence (the hypergeometric law given the margins) of every table at most as
/// likely as the observed one.
pub fn fisher_exact(x1: u64, n1: u64, x2: u64, n2: u64) -> f64 {
    let (n, k) = (n1 + n2, x1 + x2);
    let lo = k.saturating_sub(n2);
    let hi = k.min(n1);
    let ln_p = |x: u64| ln_binomial(n1, x) + ln_binomial(n2, k - x) - ln_binomial(n, k);
    let observed = ln_p(x1);
    // Ties up to rounding count as "at most as likely" (R's fisher.test uses a relative 1e-7).
    let p: f64 = (lo..=hi)
        .map(ln_p)
        .filter(|&l| l <= observed + 1e-7)
        .map(f64::exp)
        .sum();
    p.min(1.0)
}

/// Newcombe's hybrid score interval (method 10 of Newcombe 1998) for p1 - p2, from the Wilson
/// intervals of x1 / n1 and x2 / n2.
pub fn newcombe(x1: f64, n1: f64, x2: f64, n2: f64, level: f64) -> Estimate {
    let (p1, p2) = (x1 / n1, x2 / n2);
    let ((l1, u1), (l2, u2)) = (wilson(x1, n1, level), wilson(x2, n2, level));
    let d = p1 - p2;
    Estimate {
        value: d,
        lo: d - ((p1 - l1).powi(2) + (u2 - p2).powi(2)).sqrt(),
        hi: d + ((u1 - p1).powi(2) + (p2 - l2).powi(2)).sqrt(),
    }
}

/// Holm's step-down adjustment of p-values (in their order; NaN stays NaN and is not counted).
pub fn holm(ps: &[f64]) -> Vec<f64> {
    let mut order: Vec<usize> = (0..ps.len()).filter(|&i| !ps[i].is_nan()).collect();
    order.sort_by(|&a, &b| ps[a].total_cmp(&ps[b]));
    let m = order.len();
    let mut adjusted = vec![f64::NAN; ps.len()];
    let mut running = 0.0f64;
    for (rank, &i) in order.iter().enumerate() {
        running = running.max(((m - rank) as f64 * ps[i]).min(1.0));
        adjusted[i] = running;
    }
    adjusted
}

/// The verdict on one published value.
#[derive(Clone, Debug, PartialEq)]
pub enum Verdict {
    /// The two samples are consistent (adjusted p at least 1 - level).
    Consistent,
    /// The two samples differ (adjusted p below 1 - level).
    Different,
    /// The paper and we find opposite directions (see the module doc).
    SignDiffers,
    /// Why no two-sample verdict can be given.
    NotComparable(String),
}

impl Verdict {
    pub fn text(&self) -> String {
        match self {
            Verdict::Consistent => "consistent".into(),
            Verdict::Different => "**different**".into(),
            Verdict::SignDiffers => "**sign differs**".into(),
            Verdict::NotComparable(why) => format!("not comparable: {why}"),
        }
    }

    /// The verdict's word alone (for CSV and the summary).
    pub fn word(&self) -> &'static str {
        match self {
            Verdict::Consistent => "consistent",
            Verdict::Different => "different",
            Verdict::SignDiffers => "sign differs",
            Verdict::NotComparable(_) => "not comparable",
        }
    }
}

/// One side of a comparison.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Sample {
    /// A proportion in %: its value and, when known, its n (score points are value x n / 100).
    Percent { value: f64, n: Option<u64> },
    /// A mean with, when known, its SD and n.
    Mean {
        value: f64,
        sd: Option<f64>,
        n: Option<u64>,
    },
}

impl Sample {
    pub fn value(&self) -> f64 {
        match *self {
            Sample::Percent { value, .. } | Sample::Mean { value, .. } => value,
        }
    }
}

/// The two-sample test of ours against the paper's: the difference (ours - paper, in the
/// samples' unit) with its interval, the raw p-value, and the test's name; None with the reason
/// when the samples do not allow one.
pub fn test(
    ours: Sample,
    paper: Sample,
    level: f64,
) -> Result<(Estimate, f64, &'static str), String> {
    match (ours, paper) {
        (
            Sample::Percent {
                value: a,
                n: Some(n1),
            },
            Sample::Percent {
                value: b,
                n: Some(n2),
            },
        ) => {
            if n1 == 0 || n2 == 0 {
                return Err("a sample of no games".into());
            }
            // The interval takes the score points as they are (draws are half points); the exact
            // test needs whole ones.
            let points = |v: f64, n: u64| (v / 100.0 * n as f64).clamp(0.0, n as f64);
            let whole = |v: f64, n: u64| (points(v, n).round() as u64).min(n);
            let d = newcombe(points(a, n1), n1 as f64, points(b, n2), n2 as f64, level);
            Ok((
                Estimate {
                    value: 100.0 * d.value,
                    lo: 100.0 * d.lo,
                    hi: 100.0 * d.hi,
                },
                fisher_exact(whole(a, n1), n1, whole(b, n2), n2),
                "Fisher exact",
            ))
        }
        (Sample::Percent { .. }, Sample::Percent { n: None, .. }) => {
            Err("the paper gives no n".into())
        }
        (
            Sample::Mean {
                value: a,
                sd: Some(s1),
                n: Some(n1),
            },
            Sample::Mean {
                value: b,
                sd: Some(s2),
                n: Some(n2),
            },
        ) => {
            let m = |mean: f64, sd: f64, n: u64| super::means::Moments {
                n,
                mean,
                variance: sd * sd,
            };
            let w = super::means::welch_of(m(a, s1, n1), m(b, s2, n2), level)
                .ok_or("a sample too small for Welch's test")?;
            Ok((w.difference, w.p, "Welch t"))
        }
        (Sample::Mean { .. }, Sample::Mean { sd: None, .. })
        | (Sample::Mean { .. }, Sample::Mean { n: None, .. }) => {
            Err("the paper gives no spread and n".into())
        }
        _ => Err("the samples are of different kinds".into()),
    }
}

/// The exact two-sided binomial test of `k` successes of `n` against success probability
/// `p0`: the probability of every count at most as likely as `k` (R's `binom.test`, with its
/// relative tolerance of 1e-7 for ties).
pub fn binomial_test(k: u64, n: u64, p0: f64) -> f64 {
    if p0 <= 0.0 {
        return if k == 0 { 1.0 } else { 0.0 };
    }
    if p0 >= 1.0 {
        return if k == n { 1.0 } else { 0.0 };
    }
    let ln_p = |i: u64| ln_binomial(n, i) + i as f64 * p0.ln() + (n - i) as f64 * (1.0 - p0).ln();
    let observed = ln_p(k);
    let limit = observed + (1.0f64 + 1e-7).ln();
    (0..=n)
        .map(ln_p)
        .filter(|&l| l <= limit)
        .map(f64::exp)
        .sum::<f64>()
        .min(1.0)
}

/// Our side of a one-sample comparison.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Ours {
    /// A score in % of n games.
    Percent { value: f64, n: u64 },
    /// A mean with its SD and n.
    Mean { value: f64, sd: f64, n: u64 },
    /// A value known by its interval at the report's level (a change against a baseline, a
    /// rating): its standard error is read back from the interval's half-width.
    Interval {
        value: f64,
        lo: f64,
        hi: f64,
        n: u64,
    },
}

/// The one-sample test of ours against the paper's value `x` taken as fixed (see the module
/// doc): the difference ours - x with its interval, the raw p, and the test's name (which says
/// one-sample).
pub fn one_sample(ours: Ours, x: f64, level: f64) -> Result<(Estimate, f64, &'static str), String> {
    match ours {
        Ours::Percent { n: 0, .. } => Err("a sample of no games".into()),
        Ours::Percent { value, n } => {
            let points = (value / 100.0 * n as f64).clamp(0.0, n as f64);
            let (lo, hi) = wilson(points, n as f64, level);
            Ok((
                Estimate {
                    value: value - x,
                    lo: 100.0 * lo - x,
                    hi: 100.0 * hi - x,
                },
                binomial_test((points.round() as u64).min(n), n, x / 100.0),
                "exact binomial, one-sample",
            ))
        }
        Ours::Mean { n, .. } | Ours::Interval { n, .. } if n < 2 => {
            Err("our sample is too small for a t test".into())
        }
        Ours::Mean { value, sd, n } => {
            let t =
                super::means::one_sample_t(value, sd / (n as f64).sqrt(), (n - 1) as f64, x, level);
            Ok((t.difference, t.p, "t, one-sample"))
        }
        Ours::Interval { value, lo, hi, n } => {
            if lo.is_nan() || hi.is_nan() {
                return Err("our value has no interval".into());
            }
            let df = (n - 1) as f64;
            let se = (hi - lo) / (2.0 * super::means::t_quantile(level, df));
            let t = super::means::one_sample_t(value, se, df, x, level);
            Ok((t.difference, t.p, "t from our interval, one-sample"))
        }
    }
}

/// Whether a test's name (`one_sample`'s) marks a one-sample verdict.
pub fn is_one_sample(test_name: &str) -> bool {
    test_name.ends_with("one-sample")
}

/// Whether the paper's value lies clearly on its side of `point` and our interval `ours` (low,
/// high) wholly on the other (see the module doc).
pub fn sign_differs(ours: (f64, f64), paper: Sample, point: f64, level: f64) -> bool {
    if !wholly_across(ours, paper.value(), point) {
        return false;
    }
    match paper {
        Sample::Percent { value, n: Some(n) } if n > 0 => {
            let (lo, hi) = wilson((value / 100.0 * n as f64).round(), n as f64, level);
            !(100.0 * lo..=100.0 * hi).contains(&point)
        }
        Sample::Mean {
            value,
            sd: Some(sd),
            n: Some(n),
        } if n > 1 => {
            let half = super::means::t_quantile(level, (n - 1) as f64) * sd / (n as f64).sqrt();
            !(value - half..=value + half).contains(&point)
        }
        _ => true,
    }
}

/// Whether the interval `ours` (low, high) lies wholly on the other side of `point` from
/// `paper` (false for a paper value on the point, a NaN bound or a NaN point).
pub fn wholly_across((lo, hi): (f64, f64), paper: f64, point: f64) -> bool {
    if paper > point {
        hi < point
    } else if paper < point {
        lo > point
    } else {
        false
    }
}

/// The point a comparison's directions are read against, from its test's name: 50 (%) for a
/// score's tests (Fisher's exact test, the exact binomial test), 0 for the changes and ratings
/// that the t tests compare. (A plain mean has no direction: `compare` never asks.)
pub fn direction_point(test_name: &str) -> f64 {
    if test_name.starts_with("Fisher") || test_name.starts_with("exact binomial") {
        50.0
    } else {
        0.0
    }
}

/// The verdict from the adjusted p-value and the sign check (`alpha` = 1 - level).
pub fn verdict(
    tested: &Result<(Estimate, f64, &'static str), String>,
    p_adjusted: f64,
    sign: bool,
    alpha: f64,
) -> Verdict {
    if sign {
        return Verdict::SignDiffers;
    }
    match tested {
        Ok(_) if p_adjusted < alpha => Verdict::Different,
        Ok(_) => Verdict::Consistent,
        Err(why) => Verdict::NotComparable(why.clone()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_binomial_test_matches_r() {
        // R: binom.test(7, 20, 0.5)$p.value = 0.2631760, binom.test(2, 20, 0.5) = 0.0004024506,
        // binom.test(9, 40, 0.3) = 0.3884772 (asymmetric: the counts at most as likely as 9,
        // on both sides).
        assert!((binomial_test(7, 20, 0.5) - 0.263_176_0).abs() < 1e-6);
        assert!((binomial_test(2, 20, 0.5) - 0.000_402_450_6).abs() < 1e-9);
        let p = binomial_test(9, 40, 0.3);
        assert!((p - 0.388_477_2).abs() < 1e-6, "{p}");
        assert_eq!(binomial_test(14, 14, 1.0), 1.0);
        assert_eq!(binomial_test(13, 14, 1.0), 0.0);
        assert_eq!(binomial_test(10, 20, 0.5), 1.0);
    }

    #[test]
    fn one_sample_tests_take_the_papers_value_as_fixed() {
        // 7 of 20 against a published 50%: the binomial p, and our Wilson interval less 50.
        let (d, p, name) = one_sample(Ours::Percent { value: 35.0, n: 20 }, 50.0, 0.95).unwrap();
        assert!((p - 0.263_176_0).abs() < 1e-6 && is_one_sample(name));
        let (lo, hi) = wilson(7.0, 20.0, 0.95);
        assert!(
            (d.value + 15.0).abs() < 1e-12
                && (d.lo - (100.0 * lo - 50.0)).abs() < 1e-9
                && (d.hi - (100.0 * hi - 50.0)).abs() < 1e-9
        );
        // A mean of 10 (SD 2, n 16) against 11: t = -2, df 15, p = 0.06393 (R: 2*pt(-2, 15)).
        let (d, p, _) = one_sample(
            Ours::Mean {
                value: 10.0,
                sd: 2.0,
                n: 16,
            },
            11.0,
            0.95,
        )
        .unwrap();
        assert!(
            (p - 0.063_945).abs() < 1e-5 && (d.value + 1.0).abs() < 1e-12,
            "{p}"
        );
        // The same mean known by its 95% interval only gives the same test.
        let half = super::super::means::t_quantile(0.95, 15.0) * 0.5;
        let (_, q, _) = one_sample(
            Ours::Interval {
                value: 10.0,
                lo: 10.0 - half,
                hi: 10.0 + half,
                n: 16,
            },
            11.0,
            0.95,
        )
        .unwrap();
        assert!((p - q).abs() < 1e-9);
        assert!(
            one_sample(
                Ours::Mean {
                    value: 1.0,
                    sd: 1.0,
                    n: 1
                },
                0.0,
                0.95
            )
            .is_err()
        );
    }

    #[test]
    fn fisher_exact_matches_known_tables() {
        // Fisher's tea-tasting table [[3, 1], [1, 3]]: p = 34/70.
        assert!((fisher_exact(3, 4, 1, 4) - 34.0 / 70.0).abs() < 1e-12);
        // The textbook table [[1, 9], [11, 3]] (Wikipedia, "Fisher's exact test"): p = 0.002759.
        assert!(
            (fisher_exact(1, 10, 11, 14) - 0.002_759).abs() < 5e-7,
            "{}",
            fisher_exact(1, 10, 11, 14)
        );
        // Identical samples: p = 1.
        assert!((fisher_exact(23, 46, 23, 46) - 1.0).abs() < 1e-9);
    }

    #[test]
    fn newcombes_interval_matches_his_worked_example() {
        // Newcombe (1998), Table II: 56/70 - 48/80, method 10: 0.0524 to 0.3339.
        let d = newcombe(56.0, 70.0, 48.0, 80.0, 0.95);
        assert!((d.value - 0.2).abs() < 1e-12);
        assert!(
            (d.lo - 0.0524).abs() < 1e-4 && (d.hi - 0.3339).abs() < 1e-4,
            "{d:?}"
        );
    }

    #[test]
    fn holm_adjusts_step_down_and_keeps_order() {
        let a = holm(&[0.01, 0.04, 0.03, 0.005]);
        let expected = [0.03, 0.06, 0.06, 0.02];
        for (x, e) in a.iter().zip(expected) {
            assert!((x - e).abs() < 1e-12, "{a:?}");
        }
        assert!(holm(&[f64::NAN, 0.2])[0].is_nan());
        // 2 x 0.5 = 1, and the larger p can never be adjusted below it.
        assert_eq!(holm(&[0.5, 0.9]), vec![1.0, 1.0]);
        assert_eq!(holm(&[0.2, 0.01]), vec![0.2, 0.02]);
    }

    /// Our sample's 95% interval: Wilson's for a score, the t interval for a mean.
    fn interval(ours: Sample) -> (f64, f64) {
        match ours {
            Sample::Percent { value, n: Some(n) } => {
                let (lo, hi) = wilson((value / 100.0 * n as f64).round(), n as f64, 0.95);
                (100.0 * lo, 100.0 * hi)
            }
            Sample::Mean {
                value,
                sd: Some(sd),
                n: Some(n),
            } => {
                let half =
                    crate::stats::means::t_quantile(0.95, (n - 1) as f64) * sd / (n as f64).sqrt();
                (value - half, value + half)
            }
            _ => (f64::NAN, f64::NAN),
        }
    }

    fn judged(ours: Sample, paper: Sample, point: f64) -> Verdict {
        let t = test(ours, paper, 0.95);
        let p = t.as_ref().map_or(f64::NAN, |t| t.1);
        verdict(
            &t,
            p,
            sign_differs(interval(ours), paper, point, 0.95),
            0.05,
        )
    }

    #[test]
    fn a_value_of_ours_whose_interval_reaches_the_line_is_no_reversal() {
        let pct = |value: f64, n: u64| Sample::Percent { value, n: Some(n) };
        // othello-ga-table2 seed 15: the paper's 32.5% of 40 against our 52.5% of 80 (Wilson
        // 41.7 to 63.1): across 50%, so the ordinary verdict (Fisher p 0.05 or more here).
        assert!(interval(pct(52.5, 80)).0 < 50.0);
        assert_eq!(
            judged(pct(52.5, 80), pct(32.5, 40), 50.0),
            Verdict::Consistent
        );
        // The same side of the paper, ours wholly above 50%: reversed.
        assert_eq!(
            judged(pct(62.5, 800), pct(32.5, 40), 50.0),
            Verdict::SignDiffers
        );
        // gotools-dynamic at 200 problems: +0.5% (-3.6 to +3.9) against the paper's -8.26, no
        // spread: not a reversal, whatever the one-sample test says; wholly above 0, one.
        let paper = Sample::Mean {
            value: -8.26,
            sd: None,
            n: None,
        };
        assert!(!sign_differs((-3.56, 3.88), paper, 0.0, 0.95));
        assert!(sign_differs((0.5, 3.88), paper, 0.0, 0.95));
        // No interval, no reversal; a paper value on the line, no reversal.
        assert!(!wholly_across((f64::NAN, f64::NAN), -8.0, 0.0));
        assert!(!wholly_across((1.0, 2.0), 0.0, 0.0));
        assert_eq!(direction_point("Fisher exact"), 50.0);
        assert_eq!(direction_point("exact binomial, one-sample"), 50.0);
        assert_eq!(direction_point("t from our interval, one-sample"), 0.0);
    }

    #[test]
    fn equal_proportions_at_small_n_are_consistent_and_a_real_difference_at_large_n_is_not() {
        let pct = |value: f64, n: u64| Sample::Percent { value, n: Some(n) };
        // 60% of 46 against 52% of 46: well within chance.
        assert_eq!(
            judged(pct(52.2, 46), pct(60.9, 46), 50.0),
            Verdict::Consistent
        );
        // 60% against 52% over 5000 games each: a real difference.
        assert_eq!(
            judged(pct(52.0, 5000), pct(60.0, 5000), 50.0),
            Verdict::Different
        );
        // Without the paper's n there is no two-sample verdict.
        assert!(matches!(
            judged(
                pct(52.0, 460),
                Sample::Percent {
                    value: 60.0,
                    n: None
                },
                50.0
            ),
            Verdict::NotComparable(_)
        ));
    }

    #[test]
    fn opposite_directions_are_flagged_whatever_the_p_value() {
        // A change of -8% in the paper (no spread given) against +10.5% measured (+6.8 to
        // +14.2).
        let ours = Sample::Mean {
            value: 10.5,
            sd: Some(10.0),
            n: Some(30),
        };
        assert_eq!(
            judged(
                ours,
                Sample::Mean {
                    value: -8.0,
                    sd: None,
                    n: None
                },
                0.0
            ),
            Verdict::SignDiffers
        );
        // A paper at 52% of 46 games is not clearly above 50%: 48% measured is no reversal.
        let pct = |value: f64, n: u64| Sample::Percent { value, n: Some(n) };
        assert_eq!(
            judged(pct(48.0, 460), pct(52.2, 46), 50.0),
            Verdict::Consistent
        );
        // 70% of 100 in the paper, 31% of 200 measured: reversed.
        assert_eq!(
            judged(pct(31.0, 200), pct(70.0, 100), 50.0),
            Verdict::SignDiffers
        );
    }

    #[test]
    fn welch_is_used_for_means_with_a_spread() {
        let m = |value: f64, sd: f64, n: u64| Sample::Mean {
            value,
            sd: Some(sd),
            n: Some(n),
        };
        let (d, p, name) = test(m(10.0, 2.0, 50), m(10.2, 2.0, 50), 0.95).unwrap();
        assert_eq!(name, "Welch t");
        assert!((d.value + 0.2).abs() < 1e-12 && p > 0.5);
        assert_eq!(
            judged(m(10.0, 2.0, 50), m(12.0, 2.0, 50), f64::NAN),
            Verdict::Different
        );
    }
}
