//! The Freckers report's hill-climber with the "advantage vector" (its section 2.2.2): play a
//! game, track how much each weighted heuristic changed over the tuned side's moves, and move
//! each weight toward the heuristics that moved most in a won game (away in a lost one).
//!
//! Our reading of the report, where it is silent:
//! - a heuristic's change on a move is its weighted value after the move minus before, from the
//!   mover's point of view ("we stored the values of every heuristic (including their weights)
//!   before and after moving"); its advantage over a game is the sum of the absolute changes
//!   ("the total variance of each heuristic"), and the vector is normalised to shares summing to
//!   1 (all zero when nothing changed);
//! - the update is w_i <- clamp(w_i + step x r x share_i, lo, hi), r = +1 for a win, -1 for a
//!   loss, 0 for a draw. A weight at 0 has no weighted change and so no share: it stays put.
//!
//! That reading (`advantage = "variance"`, the default) moves every weight the same way after a
//! game: up after a win, down after a loss, so the weights follow the tuned side's win rate,
//! not the heuristics (against a weaker opponent all rise, against a stronger one all fall to
//! 0 and stay there). The report's Figure 2 is a different shape: "distance trended to a weight
//! of 1, while all other heuristics were unaffected". The second reading (`advantage =
//! "signed"`) takes "attributed results based on how influential each heuristic was to the
//! outcome" as a signed attribution: a heuristic's advantage is its own change over the tuned
//! side's moves (unweighted: "the values of every heuristic" are stored beside their weights),
//! signed, as a share of the game's total absolute change. A heuristic that moves with the
//! result gains in wins and in losses alike; one that moves at random drifts about its start; a
//! weight at 0 can rise again. `experiments/freckers-hillclimb-readings.toml` plays both.
//!
//! Like the GA, it sees only vectors and results, never a game.

/// How the hill-climber reads a game's advantage vector (two readings of the Freckers report's
/// section 2.2.2; the module's notes say what each does). The `[tune]` section's `advantage`
/// (`experiment::spec::Advantage`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Reading {
    /// Each weighted heuristic's absolute change over the tuned side's moves ("the total
    /// variance"), as shares: a won game raises every weight, a lost one lowers every weight.
    #[default]
    Variance,
    /// Each heuristic's own change (unweighted) over the tuned side's moves, signed, as shares
    /// of the total absolute change: a weight rises where its heuristic moved with the result.
    Signed,
}

impl Reading {
    /// Whether this is the default reading (left out of a written `[tune]`).
    pub fn is_variance(&self) -> bool {
        *self == Reading::Variance
    }
}

/// The advantage vector of one game, accumulated move by move.
#[derive(Clone, Debug, PartialEq)]
pub struct Advantage {
    reading: Reading,
    sums: Vec<f64>,
}

impl Advantage {
    pub fn new(len: usize, reading: Reading) -> Advantage {
        Advantage {
            reading,
            sums: vec![0.0; len],
        }
    }

    /// Adds one move: the heuristics' values before and after it, from the mover's side.
    pub fn add(&mut self, weights: &[f64], before: &[f64], after: &[f64]) {
        for (i, s) in self.sums.iter_mut().enumerate() {
            *s += match self.reading {
                Reading::Variance => (weights[i] * (after[i] - before[i])).abs(),
                Reading::Signed => after[i] - before[i],
            };
        }
    }

    /// Each heuristic's share of the total (absolute) change, signed in the signed reading;
    /// zeros when nothing changed.
    pub fn shares(&self) -> Vec<f64> {
        let total: f64 = self.sums.iter().map(|s| s.abs()).sum();
        if total > 0.0 {
            self.sums.iter().map(|s| s / total).collect()
        } else {
            vec![0.0; self.sums.len()]
        }
    }
}

/// The hill-climber's step after a game with `result` for the tuned side (1 win, 0.5 draw,
/// 0 loss): the new weights.
pub fn climb(
    weights: &[f64],
    shares: &[f64],
    result: f64,
    step: f64,
    bounds: (f64, f64),
) -> Vec<f64> {
    let r = 2.0 * result - 1.0;
    weights
        .iter()
        .zip(shares)
        .map(|(w, a)| (w + step * r * a).clamp(bounds.0, bounds.1))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signed_shares_keep_the_direction_and_see_a_weight_at_zero() {
        let mut a = Advantage::new(3, Reading::Signed);
        let w = [1.0, 0.5, 0.0];
        a.add(&w, &[0.0, 0.0, 0.0], &[2.0, -4.0, 9.0]);
        a.add(&w, &[2.0, -4.0, 9.0], &[1.0, -4.0, 0.0]);
        // Net changes 1, -4 and 0 (the third's +9 then -9): shares of |1| + |-4| = 5.
        assert_eq!(a.shares(), vec![0.2, -0.8, 0.0]);
        // A lost game (r = -1) lowers the first weight and raises the second, even from 0.
        let next = climb(&[0.5, 0.0, 0.5], &a.shares(), 0.0, 0.1, (0.0, 1.0));
        assert!(close(&next, &[0.48, 0.08, 0.5]), "{next:?}");
        // A won game with a heuristic that moved with it raises it: +1 x 0.1 x 0.2.
        let next = climb(&[0.5, 0.0, 0.5], &a.shares(), 1.0, 0.1, (0.0, 1.0));
        assert!(close(&next, &[0.52, 0.0, 0.5]), "{next:?}");
    }

    #[test]
    fn shares_are_the_weighted_absolute_changes_normalised() {
        let mut a = Advantage::new(3, Reading::Variance);
        let w = [1.0, 0.5, 0.0];
        a.add(&w, &[0.0, 0.0, 0.0], &[2.0, -4.0, 9.0]);
        a.add(&w, &[2.0, -4.0, 9.0], &[1.0, -4.0, 0.0]);
        // |2| + |-1| = 3 for the first, 0.5 x 4 = 2 for the second, 0 for the unweighted third.
        assert_eq!(a.shares(), vec![0.6, 0.4, 0.0]);
        assert_eq!(
            Advantage::new(2, Reading::Variance).shares(),
            vec![0.0, 0.0]
        );
    }

    fn close(a: &[f64], b: &[f64]) -> bool {
        a.len() == b.len() && a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-12)
    }

    #[test]
    fn wins_raise_losses_lower_draws_keep_and_bounds_clamp() {
        let w = [0.5, 0.5, 0.95];
        let s = [0.5, 0.0, 0.5];
        assert!(close(
            &climb(&w, &s, 1.0, 0.2, (0.0, 1.0)),
            &[0.6, 0.5, 1.0]
        ));
        assert!(close(
            &climb(&w, &s, 0.0, 0.2, (0.0, 1.0)),
            &[0.4, 0.5, 0.85]
        ));
        assert!(close(&climb(&w, &s, 0.5, 0.2, (0.0, 1.0)), &w));
    }
}
