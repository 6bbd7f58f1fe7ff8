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
//! Like the GA, it sees only vectors and results, never a game.

/// The advantage vector of one game, accumulated move by move.
#[derive(Clone, Debug, PartialEq)]
pub struct Advantage {
    sums: Vec<f64>,
}

impl Advantage {
    pub fn new(len: usize) -> Advantage {
        Advantage {
            sums: vec![0.0; len],
        }
    }

    /// Adds one move: the heuristics' values before and after it, from the mover's side.
    pub fn add(&mut self, weights: &[f64], before: &[f64], after: &[f64]) {
        for (i, s) in self.sums.iter_mut().enumerate() {
            *s += (weights[i] * (after[i] - before[i])).abs();
        }
    }

    /// Each heuristic's share of the total change (zeros when nothing changed).
    pub fn shares(&self) -> Vec<f64> {
        let total: f64 = self.sums.iter().sum();
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
    fn shares_are_the_weighted_absolute_changes_normalised() {
        let mut a = Advantage::new(3);
        let w = [1.0, 0.5, 0.0];
        a.add(&w, &[0.0, 0.0, 0.0], &[2.0, -4.0, 9.0]);
        a.add(&w, &[2.0, -4.0, 9.0], &[1.0, -4.0, 0.0]);
        // |2| + |-1| = 3 for the first, 0.5 x 4 = 2 for the second, 0 for the unweighted third.
        assert_eq!(a.shares(), vec![0.6, 0.4, 0.0]);
        assert_eq!(Advantage::new(2).shares(), vec![0.0, 0.0]);
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
