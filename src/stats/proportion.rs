//! Intervals for a proportion: Wilson's score interval and the exact Clopper-Pearson interval.

use statrs::distribution::{Beta, ContinuousCDF, Normal};

/// The two-sided standard normal quantile for a confidence level (1.959964 for 0.95).
pub fn z_for(level: f64) -> f64 {
    Normal::standard().inverse_cdf(0.5 + level / 2.0)
}

/// Wilson score interval for a proportion with `successes` out of `n` trials at `level`.
/// Successes may be fractional (a draw counts one half when the proportion is a game score;
/// the binomial variance is then an upper bound of the trinomial one, so the interval is
/// conservative). Returns (0, 1) when `n` is 0.
pub fn wilson(successes: f64, n: f64, level: f64) -> (f64, f64) {
    if n <= 0.0 {
        return (0.0, 1.0);
    }
    let z = z_for(level);
    let p = successes / n;
    let z2 = z * z;
    let denom = 1.0 + z2 / n;
    let centre = (p + z2 / (2.0 * n)) / denom;
    let half = z / denom * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    // At none or all of n the bound is exactly 0 or 1 (centre and half cancel), which floating
    // point can miss by an ulp: a published 100% then fell outside 14 wins of 14.
    let lo = if successes <= 0.0 {
        0.0
    } else {
        (centre - half).max(0.0)
    };
    let hi = if successes >= n {
        1.0
    } else {
        (centre + half).min(1.0)
    };
    (lo, hi)
}

/// The exact (Clopper-Pearson) interval for `k` successes of `n` trials at `level`, from Beta
/// quantiles. Returns (0, 1) when `n` is 0.
pub fn clopper_pearson(k: u64, n: u64, level: f64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let alpha = 1.0 - level;
    let (k, n) = (k.min(n) as f64, n as f64);
    let lo = if k == 0.0 {
        0.0
    } else {
        Beta::new(k, n - k + 1.0)
            .expect("positive shapes")
            .inverse_cdf(alpha / 2.0)
    };
    let hi = if k == n {
        1.0
    } else {
        Beta::new(k + 1.0, n - k)
            .expect("positive shapes")
            .inverse_cdf(1.0 - alpha / 2.0)
    };
    (lo, hi)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() < tol
    }

    #[test]
    fn normal_quantile() {
        // scipy.stats.norm.ppf(0.975) = 1.959963984540054; norm.ppf(0.95) = 1.6448536269514722
        assert!(close(z_for(0.95), 1.959963984540054, 1e-9));
        assert!(close(z_for(0.90), 1.6448536269514722, 1e-9));
    }

    #[test]
    fn wilson_reaches_the_ends_exactly_at_all_or_none() {
        // 14 wins of 14 must give an interval that contains 100%: the report asks whether a
        // published 100 lies inside it.
        for n in 1..=300 {
            let n = n as f64;
            assert_eq!(wilson(n, n, 0.95).1, 1.0, "all of {n}");
            assert_eq!(wilson(0.0, n, 0.95).0, 0.0, "none of {n}");
        }
    }

    #[test]
    fn wilson_matches_statsmodels() {
        // statsmodels.stats.proportion.proportion_confint(8, 10, alpha=0.05, method="wilson")
        //   = (0.49016247153664183, 0.9433178485456247)
        let (lo, hi) = wilson(8.0, 10.0, 0.95);
        assert!(close(lo, 0.49016247153664183, 1e-9), "{lo}");
        assert!(close(hi, 0.9433178485456247, 1e-9), "{hi}");
        // proportion_confint(0, 20, alpha=0.05, method="wilson") = (0.0, 0.1611251580528194)
        let (lo, hi) = wilson(0.0, 20.0, 0.95);
        assert!(close(lo, 0.0, 1e-12), "{lo}");
        assert!(close(hi, 0.1611251580528194, 1e-9), "{hi}");
        // proportion_confint(50, 100, alpha=0.10, method="wilson") = (0.4188477961125295, 0.5811522038874706)
        let (lo, hi) = wilson(50.0, 100.0, 0.90);
        assert!(
            close(lo, 0.4188477961125295, 1e-9) && close(hi, 0.5811522038874706, 1e-9),
            "{lo} {hi}"
        );
        // A fractional score, 17.5 of 46 (draws count one half):
        // proportion_confint(17.5, 46, alpha=0.05, method="wilson") = (0.25455205618274046, 0.5247481436855507)
        let (lo, hi) = wilson(17.5, 46.0, 0.95);
        assert!(
            close(lo, 0.25455205618274046, 1e-9) && close(hi, 0.5247481436855507, 1e-9),
            "{lo} {hi}"
        );
    }

    #[test]
    fn clopper_pearson_matches_statsmodels() {
        // statsmodels.stats.proportion.proportion_confint(k, n, alpha, method="beta")
        let cases = [
            (8, 10, 0.95, 0.4439045376923585, 0.9747892736731666),
            (0, 20, 0.95, 0.0, 0.16843347098308534),
            (20, 20, 0.95, 0.8315665290169146, 1.0),
            (37, 46, 0.95, 0.6608524004890015, 0.9064242655785913),
            (3, 50, 0.90, 0.01655185918923134, 0.14783717636418123),
        ];
        for (k, n, level, lo, hi) in cases {
            let (a, b) = clopper_pearson(k, n, level);
            assert!(
                close(a, lo, 1e-7) && close(b, hi, 1e-7),
                "{k}/{n}: ({a}, {b}) vs ({lo}, {hi})"
            );
        }
    }

    #[test]
    fn wilson_of_nothing_is_everything() {
        assert_eq!(wilson(0.0, 0.0, 0.95), (0.0, 1.0));
    }
}
