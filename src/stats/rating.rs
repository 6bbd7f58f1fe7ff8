//! Ratings of many agents from a tournament: the Bradley-Terry model fitted by Hunter's MM
//! algorithm, on the Elo scale, with percentile intervals from a bootstrap over games.
//! Games come counted (each distinct agent, opponent and result once, with how often it
//! happened), so a fit costs the same for a hundred games or ten million, and a bootstrap
//! resample is a multinomial draw over those cells (the same distribution as drawing the games
//! one by one with replacement).
//!
//! A draw counts as half a win for each side. Ratings are anchored so that they average 0, or
//! so that a named reference agent has 0 (`bradley_terry_anchored`: every other rating and its
//! interval is then a difference from that agent, resample by resample). An
//! agent without a single point has no finite maximum-likelihood rating: it gets -infinity
//! (and +infinity for one that never dropped a point), and its games are set aside before the
//! others are fitted; an agent with no games gets NaN. The caller shows these as such.

use super::Estimate;
use crate::rng::rng_from_seed;
use rand_distr::Distribution;

/// One game: agents `a` and `b` (indices) and a's result (1, 0.5 or 0).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Game {
    pub a: usize,
    pub b: usize,
    pub result: f64,
}

/// Bradley-Terry ratings (Elo scale, mean 0 over agents with finite ratings) of `n` agents.
pub fn bradley_terry(n: usize, games: &[Game]) -> Vec<f64> {
    let counted: Vec<(Game, u64)> = games.iter().map(|g| (*g, 1)).collect();
    bradley_terry_counted(n, &counted)
}

/// Bradley-Terry ratings from counted games: each game with how many times it was played.
pub fn bradley_terry_counted(n: usize, games: &[(Game, u64)]) -> Vec<f64> {
    // Agents that won every point (or none) among the agents still in play have an infinite
    // rating; set them aside, with their games, until everyone left has a finite one.
    let mut ratings = vec![f64::NAN; n];
    let mut active: Vec<bool> = vec![true; n];
    let (mut points, mut meetings) = (vec![0.0; n], vec![vec![0.0; n]; n]);
    loop {
        points.iter_mut().for_each(|x| *x = 0.0);
        meetings
            .iter_mut()
            .for_each(|r| r.iter_mut().for_each(|x| *x = 0.0));
        for (g, k) in games
            .iter()
            .filter(|(g, k)| *k > 0 && active[g.a] && active[g.b])
        {
            let k = *k as f64;
            points[g.a] += k * g.result;
            points[g.b] += k * (1.0 - g.result);
            meetings[g.a][g.b] += k;
            meetings[g.b][g.a] += k;
        }
        let mut changed = false;
        for i in 0..n {
            let played: f64 = meetings[i].iter().sum();
            if active[i] && played > 0.0 && (points[i] == 0.0 || points[i] == played) {
                ratings[i] = if points[i] == 0.0 {
                    f64::NEG_INFINITY
                } else {
                    f64::INFINITY
                };
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
            let denom: f64 = finite
                .iter()
                .filter(|&&j| j != i && meetings[i][j] > 0.0)
                .map(|&j| meetings[i][j] / (p[i] + p[j]))
                .sum();
            next[i] = points[i] / denom;
        }
        // Anchor: geometric mean 1.
        if !finite.is_empty() {
            let g = (finite.iter().map(|&i| next[i].ln()).sum::<f64>() / finite.len() as f64).exp();
            for &i in &finite {
                next[i] /= g;
            }
        }
        let change = finite
            .iter()
            .map(|&i| (next[i] / p[i]).ln().abs())
            .fold(0.0, f64::max);
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

/// Ratings with percentile intervals from `resamples` bootstrap resamples of the counted
/// games: each resample draws as many games as were played, with replacement, as a multinomial
/// over the cells (sequential binomial draws).
pub fn bradley_terry_bootstrap(
    n: usize,
    games: &[(Game, u64)],
    resamples: usize,
    level: f64,
    seed: u64,
) -> Vec<Estimate> {
    bradley_terry_anchored(n, games, None, resamples, level, seed)
}

/// `bradley_terry_bootstrap` with agent `anchor` at 0: each rating (point and resamples) minus
/// the anchor's, so an interval is that of the difference from the anchor (the anchor's own is
/// 0 to 0). A resample in which the anchor has no finite rating (it won or lost every game
/// drawn) says nothing about differences from it and is left out of every interval.
pub fn bradley_terry_anchored(
    n: usize,
    games: &[(Game, u64)],
    anchor: Option<usize>,
    resamples: usize,
    level: f64,
    seed: u64,
) -> Vec<Estimate> {
    let relative = |mut r: Vec<f64>| -> Option<Vec<f64>> {
        if let Some(a) = anchor {
            let base = r[a];
            if !base.is_finite() {
                return None;
            }
            r.iter_mut().for_each(|x| *x -= base);
        }
        Some(r)
    };
    let point = relative(bradley_terry_counted(n, games)).unwrap_or_else(|| vec![f64::NAN; n]);
    let mut rng = rng_from_seed(seed);
    let mut samples: Vec<Vec<f64>> = vec![Vec::with_capacity(resamples); n];
    let total: u64 = games.iter().map(|(_, k)| k).sum();
    let mut resample: Vec<(Game, u64)> = games.to_vec();
    for _ in 0..resamples {
        let (mut left, mut rest) = (total, total);
        for (cell, (_, k)) in resample.iter_mut().zip(games) {
            let drawn = if left == 0 || *k == 0 {
                0
            } else if *k == rest {
                left
            } else {
                rand_distr::Binomial::new(left, *k as f64 / rest as f64)
                    .expect("a probability in [0, 1]")
                    .sample(&mut rng)
            };
            cell.1 = drawn;
            left -= drawn;
            rest -= k;
        }
        if let Some(r) = relative(bradley_terry_counted(n, &resample)) {
            for (i, r) in r.into_iter().enumerate() {
                samples[i].push(r);
            }
        }
    }
    let alpha = 1.0 - level;
    (0..n)
        .map(|i| {
            let s = &mut samples[i];
            s.sort_by(f64::total_cmp);
            let q = |p: f64| {
                if s.is_empty() {
                    f64::NAN
                } else {
                    s[((p * s.len() as f64).floor() as usize).min(s.len() - 1)]
                }
            };
            Estimate {
                value: point[i],
                lo: q(alpha / 2.0),
                hi: q(1.0 - alpha / 2.0),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn games(list: &[(usize, usize, f64, usize)]) -> Vec<Game> {
        list.iter()
            .flat_map(|&(a, b, r, k)| std::iter::repeat_n(Game { a, b, result: r }, k))
            .collect()
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
        let g = games(&[
            (0, 1, 1.0, 2),
            (0, 1, 0.0, 1),
            (1, 2, 1.0, 2),
            (1, 2, 0.0, 1),
            (2, 0, 1.0, 2),
            (2, 0, 0.0, 1),
        ]);
        let r = bradley_terry(3, &g);
        assert!(r.iter().all(|x| x.abs() < 1e-9), "{r:?}");
    }

    #[test]
    fn the_fit_satisfies_the_likelihood_equations() {
        // At the maximum, each agent's points equal its expected points: sum_j n_ij p_i / (p_i + p_j).
        let g = games(&[
            (0, 1, 1.0, 5),
            (0, 1, 0.5, 2),
            (0, 1, 0.0, 3),
            (1, 2, 1.0, 6),
            (1, 2, 0.0, 2),
            (0, 2, 1.0, 4),
            (0, 2, 0.5, 4),
            (2, 0, 1.0, 1),
        ]);
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
            assert!(
                (points - expected).abs() < 1e-8,
                "agent {i}: {points} vs {expected}"
            );
        }
    }

    #[test]
    fn agents_without_points_are_at_minus_infinity_and_bootstrap_brackets() {
        let g = games(&[
            (0, 1, 1.0, 4),
            (1, 2, 1.0, 3),
            (1, 2, 0.0, 1),
            (0, 2, 1.0, 2),
            (0, 2, 0.0, 1),
            (0, 1, 0.0, 1),
        ]);
        let r = bradley_terry(3, &g);
        assert!(r.iter().all(|x| x.is_finite()));
        let counted: Vec<(Game, u64)> = g.iter().map(|g| (*g, 1)).collect();
        let e = bradley_terry_bootstrap(3, &counted, 300, 0.9, 4);
        for (i, est) in e.iter().enumerate() {
            assert_eq!(est.value, r[i]);
            assert!(est.lo <= est.hi);
        }
        let shut_out = bradley_terry(2, &games(&[(0, 1, 1.0, 3)]));
        assert_eq!(shut_out, vec![f64::INFINITY, f64::NEG_INFINITY]);
        // An agent that beat everyone is set aside; the others are fitted among themselves:
        // B beat C 3-1 exactly as in the two-agent case.
        let r = bradley_terry(
            3,
            &games(&[
                (0, 1, 1.0, 2),
                (0, 2, 1.0, 2),
                (1, 2, 1.0, 3),
                (1, 2, 0.0, 1),
            ]),
        );
        assert_eq!(r[0], f64::INFINITY);
        assert!((r[1] - r[2] - 190.84850188786498).abs() < 1e-6, "{r:?}");
    }

    #[test]
    fn counted_games_fit_as_the_games_one_by_one() {
        let g = games(&[
            (0, 1, 1.0, 5),
            (0, 1, 0.5, 2),
            (0, 1, 0.0, 3),
            (1, 2, 1.0, 6),
            (1, 2, 0.0, 2),
            (0, 2, 1.0, 4),
        ]);
        let counted = [
            (
                Game {
                    a: 0,
                    b: 1,
                    result: 1.0,
                },
                5,
            ),
            (
                Game {
                    a: 0,
                    b: 1,
                    result: 0.5,
                },
                2,
            ),
            (
                Game {
                    a: 0,
                    b: 1,
                    result: 0.0,
                },
                3,
            ),
            (
                Game {
                    a: 1,
                    b: 2,
                    result: 1.0,
                },
                6,
            ),
            (
                Game {
                    a: 1,
                    b: 2,
                    result: 0.0,
                },
                2,
            ),
            (
                Game {
                    a: 0,
                    b: 2,
                    result: 1.0,
                },
                4,
            ),
        ];
        let (one_by_one, by_count) = (bradley_terry(3, &g), bradley_terry_counted(3, &counted));
        for i in 0..3 {
            assert!(
                (one_by_one[i] - by_count[i]).abs() < 1e-9,
                "{one_by_one:?} {by_count:?}"
            );
        }
    }

    /// Agent 0 wins 3,000 of 4,000 games against agent 1.
    fn three_to_one() -> [(Game, u64); 2] {
        let game = |result| Game { a: 0, b: 1, result };
        [(game(1.0), 3000), (game(0.0), 1000)]
    }

    #[test]
    fn the_multinomial_bootstrap_has_the_delta_method_width() {
        // 3000 wins of 4000: the Elo difference 400 log10(3) = 190.85 has a standard error of
        // 400 / ln 10 / sqrt(4000 x 0.75 x 0.25) = 6.343 Elo (delta method on the logit); each
        // agent's rating is half the difference, so its 95% interval is about +-1.96 x 6.343 / 2
        // = +-6.22 around its value.
        let counted = three_to_one();
        let e = bradley_terry_bootstrap(2, &counted, 2000, 0.95, 11);
        let (below, above) = (e[0].value - e[0].lo, e[0].hi - e[0].value);
        assert!((e[0].value - 95.424).abs() < 0.01, "{e:?}");
        assert!(
            (below - 6.22).abs() < 0.6 && (above - 6.22).abs() < 0.6,
            "{e:?}"
        );
        assert_eq!(
            e,
            bradley_terry_bootstrap(2, &counted, 2000, 0.95, 11),
            "seeded"
        );
    }

    #[test]
    fn anchored_ratings_are_differences_from_the_anchor_with_its_interval() {
        // The same 3000-1000 games with agent 1 at 0: agent 0 is 400 log10(3) = 190.85 above it,
        // with the difference's whole interval (+-1.96 x 6.343 = +-12.43), and the anchor is 0
        // to 0.
        let counted = three_to_one();
        let e = bradley_terry_anchored(2, &counted, Some(1), 2000, 0.95, 11);
        assert!((e[0].value - 190.849).abs() < 0.01, "{e:?}");
        let (below, above) = (e[0].value - e[0].lo, e[0].hi - e[0].value);
        assert!(
            (below - 12.43).abs() < 1.2 && (above - 12.43).abs() < 1.2,
            "{e:?}"
        );
        assert_eq!((e[1].value, e[1].lo, e[1].hi), (0.0, 0.0, 0.0));
        // Three agents: the differences do not depend on the anchor chosen.
        let three = [
            (
                Game {
                    a: 0,
                    b: 1,
                    result: 1.0,
                },
                30,
            ),
            (
                Game {
                    a: 0,
                    b: 1,
                    result: 0.0,
                },
                10,
            ),
            (
                Game {
                    a: 1,
                    b: 2,
                    result: 1.0,
                },
                25,
            ),
            (
                Game {
                    a: 1,
                    b: 2,
                    result: 0.0,
                },
                15,
            ),
            (
                Game {
                    a: 0,
                    b: 2,
                    result: 0.5,
                },
                8,
            ),
            (
                Game {
                    a: 0,
                    b: 2,
                    result: 1.0,
                },
                20,
            ),
        ];
        let by2 = bradley_terry_anchored(3, &three, Some(2), 10, 0.95, 3);
        let by0 = bradley_terry_anchored(3, &three, Some(0), 10, 0.95, 3);
        let mean0 = bradley_terry_bootstrap(3, &three, 10, 0.95, 3);
        for i in 0..3 {
            assert!((by2[i].value - (mean0[i].value - mean0[2].value)).abs() < 1e-9);
            assert!((by0[i].value - (by2[i].value - by2[0].value)).abs() < 1e-9);
        }
    }
}
