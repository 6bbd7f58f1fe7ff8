//! Ratings of many agents from a tournament: the Bradley-Terry model fitted by Hunter's MM
//! algorithm, on the Elo scale, with percentile intervals from a bootstrap over games.
//!
//! A draw counts as half a win for each side. Ratings are anchored so that they average 0. An
//! agent without a single point has no finite maximum-likelihood rating: it gets -infinity
//! (and +infinity for one that never dropped a point), and its games are set aside before the
//! others are fitted; an agent with no games gets NaN. The caller shows these as such.

use super::Estimate;
use crate::rng::{below, rng_from_seed};

/// One game: agents `a` and `b` (indices) and a's result (1, 0.5 or 0).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Game {
    pub a: usize,
    pub b: usize,
    pub result: f64,
}

/// Bradley-Terry ratings (Elo scale, mean 0 over agents with finite ratings) of `n` agents.
pub fn bradley_terry(n: usize, games: &[Game]) -> Vec<f64> {
    // Agents that won every point (or none) among the agents still in play have an infinite
    // rating; set them aside, with their games, until everyone left has a finite one.
    let mut ratings = vec![f64::NAN; n];
    let mut active: Vec<bool> = vec![true; n];
    let (mut points, mut meetings) = (vec![0.0; n], vec![vec![0.0; n]; n]);
    loop {
        points.iter_mut().for_each(|x| *x = 0.0);
        meetings.iter_mut().for_each(|r| r.iter_mut().for_each(|x| *x = 0.0));
        for g in games.iter().filter(|g| active[g.a] && active[g.b]) {
            points[g.a] += g.result;
            points[g.b] += 1.0 - g.result;
            meetings[g.a][g.b] += 1.0;
            meetings[g.b][g.a] += 1.0;
        }
        let mut changed = false;
        for i in 0..n {
            let played: f64 = meetings[i].iter().sum();
            if active[i] && played > 0.0 && (points[i] == 0.0 || points[i] == played) {
                ratings[i] = if points[i] == 0.0 { f64::NEG_INFINITY } else { f64::INFINITY };
                active[i] = false;
                changed = true;
            } else if active[i] && played == 0.0 {
                active[i] = false;
            }
        }
        if !changed {
            break;
        }
    }
    let finite: Vec<usize> = (0..n).filter(|&i| active[i]).collect();
    let mut p: Vec<f64> = vec![1.0; n];
    for _ in 0..10_000 {
        let mut next = p.clone();
        for &i in &finite {
            let denom: f64 = finite.iter().filter(|&&j| j != i && meetings[i][j] > 0.0).map(|&j| meetings[i][j] / (p[i] + p[j])).sum();
            next[i] = points[i] / denom;
        }
        // Anchor: geometric mean 1.
        if !finite.is_empty() {
            let g = (finite.iter().map(|&i| next[i].ln()).sum::<f64>() / finite.len() as f64).exp();
            for &i in &finite {
                next[i] /= g;
            }
        }
        let change = finite.iter().map(|&i| (next[i] / p[i]).ln().abs()).fold(0.0, f64::max);
        p = next;
        if change < 1e-12 {
            break;
        }
    }
    for &i in &finite {
        ratings[i] = 400.0 * p[i].log10();
    }
    ratings
}

/// Ratings with percentile intervals from `resamples` bootstrap resamples of the games.
pub fn bradley_terry_bootstrap(n: usize, games: &[Game], resamples: usize, level: f64, seed: u64) -> Vec<Estimate> {
    let point = bradley_terry(n, games);
    let mut rng = rng_from_seed(seed);
    let mut samples: Vec<Vec<f64>> = vec![Vec::with_capacity(resamples); n];
    let mut resample = Vec::with_capacity(games.len());
    for _ in 0..resamples {
        resample.clear();
        resample.extend((0..games.len()).map(|_| games[below(&mut rng, games.len())]));
        for (i, r) in bradley_terry(n, &resample).into_iter().enumerate() {
            samples[i].push(r);
        }
    }
    let alpha = 1.0 - level;
    (0..n)
        .map(|i| {
            let s = &mut samples[i];
            s.sort_by(f64::total_cmp);
            let q = |p: f64| if s.is_empty() { f64::NAN } else { s[((p * s.len() as f64).floor() as usize).min(s.len() - 1)] };
            Estimate { value: point[i], lo: q(alpha / 2.0), hi: q(1.0 - alpha / 2.0) }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn games(list: &[(usize, usize, f64, usize)]) -> Vec<Game> {
        list.iter().flat_map(|&(a, b, r, k)| std::iter::repeat_n(Game { a, b, result: r }, k)).collect()
    }

    #[test]
    fn two_agents_three_to_one() {
        // A beats B 3 times of 4: p_A / p_B = 3, a difference of 400 log10(3) = 190.8485 Elo,
        // split evenly around 0.
        let r = bradley_terry(2, &games(&[(0, 1, 1.0, 3), (0, 1, 0.0, 1)]));
        assert!((r[0] - r[1] - 190.84850188786498).abs() < 1e-6, "{r:?}");
        assert!((r[0] + r[1]).abs() < 1e-9);
    }

    #[test]
    fn a_balanced_cycle_rates_everyone_equal() {
        // A beats B, B beats C, C beats A, each 2-1: by symmetry all ratings are equal.
        let g = games(&[(0, 1, 1.0, 2), (0, 1, 0.0, 1), (1, 2, 1.0, 2), (1, 2, 0.0, 1), (2, 0, 1.0, 2), (2, 0, 0.0, 1)]);
        let r = bradley_terry(3, &g);
        assert!(r.iter().all(|x| x.abs() < 1e-9), "{r:?}");
    }

    #[test]
    fn the_fit_satisfies_the_likelihood_equations() {
        // At the maximum, each agent's points equal its expected points: sum_j n_ij p_i / (p_i + p_j).
        let g = games(&[(0, 1, 1.0, 5), (0, 1, 0.5, 2), (0, 1, 0.0, 3), (1, 2, 1.0, 6), (1, 2, 0.0, 2), (0, 2, 1.0, 4), (0, 2, 0.5, 4), (2, 0, 1.0, 1)]);
        let r = bradley_terry(3, &g);
        let p: Vec<f64> = r.iter().map(|x| 10f64.powf(x / 400.0)).collect();
        for i in 0..3 {
            let (mut points, mut expected) = (0.0, 0.0);
            for game in &g {
                if game.a == i {
                    points += game.result;
                    expected += p[i] / (p[i] + p[game.b]);
                } else if game.b == i {
                    points += 1.0 - game.result;
                    expected += p[i] / (p[i] + p[game.a]);
                }
            }
            assert!((points - expected).abs() < 1e-8, "agent {i}: {points} vs {expected}");
        }
    }

    #[test]
    fn agents_without_points_are_at_minus_infinity_and_bootstrap_brackets() {
        let g = games(&[(0, 1, 1.0, 4), (1, 2, 1.0, 3), (1, 2, 0.0, 1), (0, 2, 1.0, 2), (0, 2, 0.0, 1), (0, 1, 0.0, 1)]);
        let r = bradley_terry(3, &g);
        assert!(r.iter().all(|x| x.is_finite()));
        let e = bradley_terry_bootstrap(3, &g, 300, 0.9, 4);
        for (i, est) in e.iter().enumerate() {
            assert_eq!(est.value, r[i]);
            assert!(est.lo <= est.hi);
        }
        let shut_out = bradley_terry(2, &games(&[(0, 1, 1.0, 3)]));
        assert_eq!(shut_out, vec![f64::INFINITY, f64::NEG_INFINITY]);
        // An agent that beat everyone is set aside; the others are fitted among themselves:
        // B beat C 3-1 exactly as in the two-agent case.
        let r = bradley_terry(3, &games(&[(0, 1, 1.0, 2), (0, 2, 1.0, 2), (1, 2, 1.0, 3), (1, 2, 0.0, 1)]));
        assert_eq!(r[0], f64::INFINITY);
        assert!((r[1] - r[2] - 190.84850188786498).abs() < 1e-6, "{r:?}");
    }
}
