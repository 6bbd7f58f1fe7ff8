//! The GoTools report's two fitness functions for a weight vector over a training set.
//!
//! - Static: no search. For each problem the heuristic ranks the legal first moves; the
//!   chromosome earns `bonus[k]` when the winning move stands at place k+1 (the report: 20, 13,
//!   7, 3, 1 for places 1-5, nothing below). The report's problems have a unique winning move.
//!   Ours often have several; we score the best-placed winning move, which is the report's rule
//!   for a unique move and, for several, rewards what a depth-first search needs (any winning
//!   move early). `unique = true` in a selection restricts training to unique-move problems.
//! - Dynamic: solve every problem and combine its terminal leaves `new` with the leaves `old` of
//!   the pre-optimisation weights by one of the report's four formulas: (1) sum old^2 / new,
//!   (2) sum old / new, (3) sum -new, (4) sum 1 / new. The GA shifts and scales the raw values
//!   to [0, 1] before selection (`tune::ga::scale_fitness`).
//!
//! A problem the search gives up on (node budget) counts with the leaves it reached.

use super::board::Move;
use super::heuristic::Weights;
use super::problem::Problem;
use super::solver::{Limits, Solution, Solver};
use serde::{Deserialize, Serialize};

/// The report's rank bonus for places 1..5.
pub const REPORT_BONUS: [f64; 5] = [20.0, 13.0, 7.0, 3.0, 1.0];

/// The place (0-based) of the best-placed winning move in a ranking, if it has one.
pub fn winning_place(ranking: &[Move], winning: &[Move]) -> Option<usize> {
    ranking.iter().position(|m| winning.contains(m))
}

/// The static fitness of `weights` over `problems`: the sum of the rank bonuses.
pub fn static_fitness(
    solver: &mut Solver,
    problems: &[Problem],
    weights: &Weights,
    bonus: &[f64],
) -> f64 {
    problems
        .iter()
        .map(|p| {
            let ranking = solver.rank_first_moves(p, weights);
            winning_place(&ranking, &p.winning)
                .and_then(|k| bonus.get(k))
                .copied()
                .unwrap_or(0.0)
        })
        .sum()
}

/// The report's four ways to combine leaves over a training set.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "u8", into = "u8")]
pub enum Formula {
    /// (1) sum old^2 / new
    OldSquaredOverNew,
    /// (2) sum old / new
    OldOverNew,
    /// (3) sum -new (the report's choice)
    MinusNew,
    /// (4) sum 1 / new
    OneOverNew,
}

impl TryFrom<u8> for Formula {
    type Error = String;
    fn try_from(n: u8) -> Result<Formula, String> {
        match n {
            1 => Ok(Formula::OldSquaredOverNew),
            2 => Ok(Formula::OldOverNew),
            3 => Ok(Formula::MinusNew),
            4 => Ok(Formula::OneOverNew),
            _ => Err(format!("formula {n} is not one of the report's 1-4")),
        }
    }
}

impl From<Formula> for u8 {
    fn from(f: Formula) -> u8 {
        match f {
            Formula::OldSquaredOverNew => 1,
            Formula::OldOverNew => 2,
            Formula::MinusNew => 3,
            Formula::OneOverNew => 4,
        }
    }
}

impl Formula {
    /// Whether the formula reads the old leaves.
    pub fn needs_old(self) -> bool {
        matches!(self, Formula::OldSquaredOverNew | Formula::OldOverNew)
    }

    /// The raw fitness of leaves `new` against `old`, problem by problem (leaves of 0 count as 1:
    /// a problem decided at the root has one leaf).
    pub fn raw(self, old: &[u64], new: &[u64]) -> f64 {
        let f = |o: u64, n: u64| {
            let (o, n) = (o.max(1) as f64, n.max(1) as f64);
            match self {
                Formula::OldSquaredOverNew => o * o / n,
                Formula::OldOverNew => o / n,
                Formula::MinusNew => -n,
                Formula::OneOverNew => 1.0 / n,
            }
        };
        new.iter()
            .enumerate()
            .map(|(i, &n)| f(old.get(i).copied().unwrap_or(1), n))
            .sum()
    }
}

/// Solves every problem with `weights` (status sweep only: what the search costs).
pub fn solve_all(
    solver: &mut Solver,
    problems: &[Problem],
    weights: &Weights,
    limits: Limits,
) -> Vec<Solution> {
    problems
        .iter()
        .map(|p| solver.solve(p, weights, limits, false))
        .collect()
}
