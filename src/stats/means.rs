//! Means: Student and Welch t intervals and tests, and percentile bootstrap intervals for any
//! statistic (the caller resamples its independent unit: games pairs, seeds, problems).

use super::Estimate;
use crate::rng::{below, rng_from_seed};
use statrs::distribution::{ContinuousCDF, StudentsT};

pub fn mean(xs: &[f64]) -> f64 {
    xs.iter().sum::<f64>() / xs.len() as f64
}

/// Sample variance (n - 1 in the denominator).
pub fn variance(xs: &[f64]) -> f64 {
    let m = mean(xs);
    xs.iter().map(|x| (x - m).powi(2)).sum::<f64>() / (xs.len() as f64 - 1.0)
}

/// The two-sided quantile of Student's t with `df` degrees of freedom (2.306004 for 0.95, 8).
pub fn t_quantile(level: f64, df: f64) -> f64 {
    StudentsT::new(0.0, 1.0, df)
        .expect("df > 0")
        .inverse_cdf(0.5 + level / 2.0)
}

fn two_sided_p(t: f64, df: f64) -> f64 {
    2.0 * StudentsT::new(0.0, 1.0, df).expect("df > 0").cdf(-t.abs())
}

/// A sample summarised by its size, mean and sample variance: what t intervals and Welch's
/// test need, aggregated where the values are (the report computes them in polars over millions
/// of records without holding the values).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Moments {
    pub n: u64,
    pub mean: f64,
    /// Sample variance (n - 1 in the denominator); NaN for fewer than two values.
    pub variance: f64,
}

impl Moments {
    pub fn of(xs: &[f64]) -> Moments {
        Moments {
            n: xs.len() as u64,
            mean: mean(xs),
            variance: if xs.len() > 1 { variance(xs) } else { f64::NAN },
        }
    }
}

/// The mean of `xs` with its Student t interval (needs two values at least).
pub fn mean_interval(xs: &[f64], level: f64) -> Option<Estimate> {
    mean_interval_of(Moments::of(xs), level)
}

/// The Student t interval of a mean from the sample's moments (needs two values at least).
pub fn mean_interval_of(m: Moments, level: f64) -> Option<Estimate> {
    if m.n < 2 {
        return None;
    }
    let half = t_quantile(level, m.n as f64 - 1.0) * (m.variance / m.n as f64).sqrt();
    Some(Estimate {
        value: m.mean,
        lo: m.mean - half,
        hi: m.mean + half,
    })
}

/// A test of the difference of two means, mean(a) - mean(b).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TTest {
    pub difference: Estimate,
    pub t: f64,
    pub df: f64,
    /// Two-sided p-value.
    pub p: f64,
}

/// Welch's t-test (unequal variances), with the Welch-Satterthwaite degrees of freedom.
pub fn welch(a: &[f64], b: &[f64], level: f64) -> Option<TTest> {
    welch_of(Moments::of(a), Moments::of(b), level)
}

/// Welch's t-test from the two samples' moments.
pub fn welch_of(a: Moments, b: Moments, level: f64) -> Option<TTest> {
    if a.n < 2 || b.n < 2 {
        return None;
    }
    let (va, vb) = (a.variance / a.n as f64, b.variance / b.n as f64);
    let se = (va + vb).sqrt();
    let df = if se == 0.0 {
        // Both samples constant: Welch-Satterthwaite is 0/0; Student's df (t_test makes the
        // difference exact anyway).
        (a.n + b.n - 2) as f64
    } else {
        (va + vb).powi(2) / (va * va / (a.n as f64 - 1.0) + vb * vb / (b.n as f64 - 1.0))
    };
    Some(t_test(a.mean - b.mean, se, df, level))
}

/// The paired t-test: `a[i]` and `b[i]` measured on the same unit; Student's t on the
/// differences a[i] - b[i] (needs two pairs at least).
pub fn paired(a: &[f64], b: &[f64], level: f64) -> Option<TTest> {
    assert_eq!(
        a.len(),
        b.len(),
        "paired samples have one value per unit each"
    );
    if a.len() < 2 {
        return None;
    }
    let d: Vec<f64> = a.iter().zip(b).map(|(x, y)| x - y).collect();
    let n = d.len() as f64;
    Some(t_test(mean(&d), (variance(&d) / n).sqrt(), n - 1.0, level))
}

/// Student's two-sample t-test with pooled variance.
pub fn student(a: &[f64], b: &[f64], level: f64) -> Option<TTest> {
    if a.len() < 2 || b.len() < 2 {
        return None;
    }
    let (na, nb) = (a.len() as f64, b.len() as f64);
    let df = na + nb - 2.0;
    let pooled = ((na - 1.0) * variance(a) + (nb - 1.0) * variance(b)) / df;
    let se = (pooled * (1.0 / na + 1.0 / nb)).sqrt();
    Some(t_test(mean(a) - mean(b), se, df, level))
}

/// One-sample t test of a mean with standard error `se` (df `df`) against the fixed value
/// `mu`: the difference mean - mu with its interval, and the two-sided p.
pub fn one_sample_t(mean: f64, se: f64, df: f64, mu: f64, level: f64) -> TTest {
    t_test(mean - mu, se, df, level)
}

/// t, interval and two-sided p of a difference with standard error `se`. With no spread at all
/// (`se` 0: every paired difference equal, or two constant samples) the difference is exact:
/// the interval is the point, p is 1 when it is 0 and 0 otherwise (t 0 or infinite), where the
/// formula would give 0/0 (and statrs would panic on it).
fn t_test(diff: f64, se: f64, df: f64, level: f64) -> TTest {
    if se == 0.0 {
        let exact = Estimate {
            value: diff,
            lo: diff,
            hi: diff,
        };
        let (t, p) = if diff == 0.0 {
            (0.0, 1.0)
        } else {
            (diff.signum() * f64::INFINITY, 0.0)
        };
        return TTest {
            difference: exact,
            t,
            df,
            p,
        };
    }
    let t = diff / se;
    let half = t_quantile(level, df) * se;
    TTest {
        difference: Estimate {
            value: diff,
            lo: diff - half,
            hi: diff + half,
        },
        t,
        df,
        p: two_sided_p(t, df),
    }
}

/// Percentile bootstrap: `resamples` resamples of `units` with replacement (seeded, so the
/// interval is reproducible), the statistic of each, and the central `level` of them.
pub fn bootstrap<T: Clone>(
    units: &[T],
    statistic: impl Fn(&[T]) -> f64,
    resamples: usize,
    level: f64,
    seed: u64,
) -> Option<Estimate> {
    if units.is_empty() || resamples == 0 {
        return None;
    }
    let mut rng = rng_from_seed(seed);
    let mut sample = Vec::with_capacity(units.len());
    let mut stats: Vec<f64> = (0..resamples)
        .map(|_| {
            sample.clear();
            sample.extend((0..units.len()).map(|_| units[below(&mut rng, units.len())].clone()));
            statistic(&sample)
        })
        .collect();
    stats.sort_by(f64::total_cmp);
    let q = |p: f64| stats[((p * resamples as f64).floor() as usize).min(resamples - 1)];
    let alpha = 1.0 - level;
    Some(Estimate {
        value: statistic(units),
        lo: q(alpha / 2.0),
        hi: q(1.0 - alpha / 2.0),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() < tol
    }

    const A: [f64; 7] = [3.1, 2.9, 3.4, 3.6, 2.8, 3.0, 3.3];
    const B: [f64; 9] = [2.5, 1.7, 3.9, 2.4, 1.6, 3.5, 2.2, 2.8, 1.9];

    #[test]
    fn t_quantile_matches_scipy() {
        // scipy.stats.t.ppf(0.975, 8) = 2.306004135204166
        assert!(close(t_quantile(0.95, 8.0), 2.306004135204166, 1e-9));
    }

    #[test]
    fn welch_matches_scipy() {
        // r = scipy.stats.ttest_ind(A, B, equal_var=False): statistic 2.3128852548812695,
        // pvalue 0.041985081408166085, df 10.569308757566647;
        // r.confidence_interval(0.95) = (0.028670215711846248, 1.2856154985738688)
        let r = welch(&A, &B, 0.95).unwrap();
        assert!(close(r.t, 2.3128852548812695, 1e-9), "{r:?}");
        assert!(close(r.df, 10.569308757566647, 1e-9), "{r:?}");
        assert!(close(r.p, 0.041985081408166085, 1e-7), "{r:?}");
        assert!(
            close(r.difference.lo, 0.028670215711846248, 1e-7)
                && close(r.difference.hi, 1.2856154985738688, 1e-7),
            "{r:?}"
        );
    }

    #[test]
    fn paired_matches_r_on_the_sleep_data() {
        // Student's sleep data (Cushny and Peebles): extra hours of sleep of 10 patients with
        // drug 1 and with drug 2. R: t.test(extra ~ group, data = sleep, paired = TRUE):
        // t = -4.0621, df = 9, p-value = 0.002833, 95% CI -2.4598858 to -0.7001142, mean -1.58.
        let drug1 = [0.7, -1.6, -0.2, -1.2, -0.1, 3.4, 3.7, 0.8, 0.0, 2.0];
        let drug2 = [1.9, 0.8, 1.1, 0.1, -0.1, 4.4, 5.5, 1.6, 4.6, 3.4];
        let r = paired(&drug1, &drug2, 0.95).unwrap();
        assert!(
            close(r.difference.value, -1.58, 1e-12) && r.df == 9.0,
            "{r:?}"
        );
        assert!(
            close(r.t, -4.0621, 1e-4) && close(r.p, 0.002833, 1e-6),
            "{r:?}"
        );
        assert!(
            close(r.difference.lo, -2.4598858, 1e-7) && close(r.difference.hi, -0.7001142, 1e-7),
            "{r:?}"
        );
        // The same data unpaired: Welch's test misses the effect (R: p-value = 0.07939).
        assert!(close(welch(&drug1, &drug2, 0.95).unwrap().p, 0.07939, 1e-5));
    }

    /// Samples without spread (a share that is 0 or 1 for every problem of both weight vectors,
    /// say) used to reach statrs with t = 0/0 and panic the report.
    #[test]
    fn samples_without_spread_give_an_exact_difference() {
        let same = paired(&[1.0, 0.0, 1.0], &[1.0, 0.0, 1.0], 0.95).unwrap();
        assert_eq!((same.difference.lo, same.difference.hi), (0.0, 0.0));
        assert_eq!((same.t, same.p), (0.0, 1.0));
        let shifted = paired(&[3.0, 2.0, 5.0], &[1.0, 0.0, 3.0], 0.95).unwrap();
        assert_eq!(
            (
                shifted.difference.value,
                shifted.difference.lo,
                shifted.difference.hi
            ),
            (2.0, 2.0, 2.0)
        );
        assert_eq!((shifted.t, shifted.p), (f64::INFINITY, 0.0));
        let apart = welch(&[0.0, 0.0, 0.0], &[1.0, 1.0], 0.95).unwrap();
        assert_eq!(
            (apart.difference.value, apart.p, apart.df),
            (-1.0, 0.0, 3.0)
        );
        assert_eq!(apart.t, f64::NEG_INFINITY);
        let level = welch(&[2.0, 2.0], &[2.0, 2.0, 2.0], 0.95).unwrap();
        assert_eq!((level.p, level.t), (1.0, 0.0));
        // One constant sample beside one with spread is an ordinary Welch test.
        assert!(welch(&[0.0, 0.0, 0.0], &[1.0, 2.0, 3.0], 0.95).unwrap().p > 0.0);
    }

    #[test]
    fn student_matches_scipy() {
        // scipy.stats.ttest_ind(A, B, equal_var=True): statistic 2.0885815221985267,
        // pvalue 0.05549219490483373, df 14; CI (-0.01768416640403614, 1.331969880689751)
        let r = student(&A, &B, 0.95).unwrap();
        assert!(
            close(r.t, 2.0885815221985267, 1e-9) && r.df == 14.0,
            "{r:?}"
        );
        assert!(close(r.p, 0.05549219490483373, 1e-7), "{r:?}");
        assert!(
            close(r.difference.lo, -0.01768416640403614, 1e-7)
                && close(r.difference.hi, 1.331969880689751, 1e-7),
            "{r:?}"
        );
    }

    #[test]
    fn mean_interval_matches_scipy() {
        // scipy.stats.ttest_1samp(A, 0).confidence_interval(0.95) = (2.8909267790232915, 3.4233589352624234)
        let e = mean_interval(&A, 0.95).unwrap();
        assert!(
            close(e.lo, 2.8909267790232915, 1e-9) && close(e.hi, 3.4233589352624234, 1e-9),
            "{e:?}"
        );
        assert!(mean_interval(&[1.0], 0.95).is_none());
    }

    #[test]
    fn bootstrap_is_reproducible_and_brackets_the_mean() {
        let e1 = bootstrap(&B, mean, 2000, 0.95, 9).unwrap();
        let e2 = bootstrap(&B, mean, 2000, 0.95, 9).unwrap();
        assert_eq!(e1, e2);
        assert!(e1.lo < mean(&B) && mean(&B) < e1.hi);
        // The percentile interval of the mean is close to the t interval for this sample.
        let t = mean_interval(&B, 0.95).unwrap();
        assert!(
            (e1.lo - t.lo).abs() < 0.25 && (e1.hi - t.hi).abs() < 0.25,
            "{e1:?} {t:?}"
        );
        // A constant sample has a zero-width interval.
        let c = bootstrap(&[2.0; 10], mean, 100, 0.9, 1).unwrap();
        assert_eq!((c.lo, c.hi), (2.0, 2.0));
    }
}
