//! Fitness of weight tables by play between them (the Othello report's population evaluation).
//!
//! Each individual meets a random subset of the others (a fraction of the population) or all of
//! them; a meeting is two games with colours swapped, and every game scores for both players:
//! a win is one point, a draw half a point to each by default, or, with the report's literal
//! pseudo-code, the whole point to the second player. Games are played by the evaluation
//! strategy: the deterministic table player (Det), the weighted-random player (Rnd), one game
//! of each per meeting (Mix), or SimpleMCTS with the table for its rollouts (MCTS-N).
//!
//! Fitness is the points per game by default, so that individuals drawn into more meetings
//! are not favoured; `points` gives the report's raw point count. Games run in parallel, each
//! seeded from (evaluation seed, meeting, game), so fitness does not depend on scheduling.

use crate::agent::{AgentSpec, Arena, TableRef};
use crate::game::CellGame;
use crate::play::play_game;
use crate::rng::{below, derive_seed, rng_from_seed};
use anyhow::Result;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

/// How the games of a meeting are played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Strategy {
    Det,
    Rnd,
    Mix,
    Mcts { rollouts: u64 },
}

/// Whom each individual meets.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Subset {
    /// A fraction of the population, drawn anew for each individual and generation.
    Fraction(f64),
    /// "full": every other individual (a round robin).
    Full(FullTag),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FullTag {
    Full,
}

/// What a draw is worth.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum DrawRule {
    /// Half a point to each side.
    #[default]
    Half,
    /// The report's pseudo-code: any result other than a first-player win is the second's.
    Second,
}

/// What is selected on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum FitnessMeasure {
    #[default]
    Rate,
    Points,
}

/// How a population is evaluated (built from the experiment file's `[ga]` section).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Evaluation {
    pub strategy: Strategy,
    pub subset: Subset,
    pub draw: DrawRule,
    pub measure: FitnessMeasure,
}

/// One individual's results in an evaluation.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Score {
    pub points: f64,
    pub games: u32,
}

impl Score {
    pub fn fitness(&self, measure: FitnessMeasure) -> f64 {
        match measure {
            FitnessMeasure::Points => self.points,
            FitnessMeasure::Rate if self.games == 0 => 0.0,
            FitnessMeasure::Rate => self.points / self.games as f64,
        }
    }
}

/// The meetings (i, j) of an evaluation: for each i, its drawn opponents (a fraction of the
/// others, at least one, without repeats), or every pair once for a round robin.
pub fn meetings(n: usize, subset: Subset, seed: u64) -> Vec<(usize, usize)> {
    match subset {
        Subset::Full(_) => (0..n)
            .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
            .collect(),
        Subset::Fraction(f) => {
            let k = ((f * (n - 1) as f64).round() as usize).clamp(1, n.saturating_sub(1));
            let mut rng = rng_from_seed(seed);
            let mut out = Vec::new();
            for i in 0..n {
                // A partial Fisher-Yates shuffle of the others picks k distinct opponents.
                let mut others: Vec<usize> = (0..n).filter(|&j| j != i).collect();
                for t in 0..k {
                    let pick = t + below(&mut rng, others.len() - t);
                    others.swap(t, pick);
                    out.push((i, others[t]));
                }
            }
            out
        }
    }
}

fn spec_for(strategy: Strategy, game_in_meeting: usize, table: &[Vec<f64>]) -> AgentSpec {
    let t = TableRef::Rows(table.to_vec());
    match (strategy, game_in_meeting) {
        (Strategy::Det, _) | (Strategy::Mix, 0) => AgentSpec::TablePlayer { table: t },
        (Strategy::Rnd, _) | (Strategy::Mix, _) => AgentSpec::WeightedRandom { table: t },
        (Strategy::Mcts { rollouts }, _) => AgentSpec::SimpleMcts {
            rollouts: Some(rollouts),
            time_ms: None,
            table: Some(t),
        },
    }
}

/// Plays the evaluation of `tables` (each as rows) from `start`; returns each one's score.
pub fn evaluate<G: Arena + CellGame>(
    start: &G,
    tables: &[Vec<Vec<f64>>],
    eval: &Evaluation,
    seed: u64,
) -> Result<Vec<Score>> {
    let games = evaluation_games(tables.len(), eval, seed);
    let winners = play_evaluation(start, tables, eval, seed, &games)?;
    Ok(tally(tables.len(), &games, &winners, eval.draw))
}

/// One game of an evaluation: (meeting, game in the meeting, first player, second player).
pub type EvalGame = (usize, usize, usize, usize);

/// The games of an evaluation of `n` individuals, in order: every meeting is two games, i
/// first, then j first.
pub fn evaluation_games(n: usize, eval: &Evaluation, seed: u64) -> Vec<EvalGame> {
    let pairs = meetings(n, eval.subset, derive_seed(seed, &[0]));
    pairs
        .iter()
        .enumerate()
        .flat_map(|(m, &(i, j))| [(m, 0, i, j), (m, 1, j, i)])
        .collect()
}

/// Plays `games` (any stretch of `evaluation_games`, in parallel), each seeded by its meeting
/// and game; returns each game's winner ("first", "second" or "draw").
pub fn play_evaluation<G: Arena + CellGame>(
    start: &G,
    tables: &[Vec<Vec<f64>>],
    eval: &Evaluation,
    seed: u64,
    games: &[EvalGame],
) -> Result<Vec<&'static str>> {
    games
        .par_iter()
        .map(|&(m, g, first, second)| -> Result<&'static str> {
            let a = spec_for(eval.strategy, g, &tables[first]);
            let b = spec_for(eval.strategy, g, &tables[second]);
            let row = play_game(
                start,
                ("first", &a),
                ("second", &b),
                derive_seed(seed, &[1, m as u64, g as u64]),
                0,
                "",
            )?;
            Ok(row.winner)
        })
        .collect()
}

/// Each individual's score from its games' winners.
pub fn tally(n: usize, games: &[EvalGame], winners: &[&str], draw: DrawRule) -> Vec<Score> {
    let mut scores = vec![Score::default(); n];
    for (&(_, _, first, second), &winner) in games.iter().zip(winners) {
        scores[first].games += 1;
        scores[second].games += 1;
        match (winner, draw) {
            ("first", _) => scores[first].points += 1.0,
            ("second", _) | ("draw", DrawRule::Second) => scores[second].points += 1.0,
            _ => {
                scores[first].points += 0.5;
                scores[second].points += 0.5;
            }
        }
    }
    scores
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::othello::Othello;

    #[test]
    fn round_robin_meets_every_pair_once_and_subsets_draw_distinct_opponents() {
        assert_eq!(
            meetings(4, Subset::Full(FullTag::Full), 1),
            vec![(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]
        );
        let m = meetings(60, Subset::Fraction(0.1), 7);
        // round(0.1 x 59) = 6 opponents each, never itself, never twice.
        assert_eq!(m.len(), 60 * 6);
        for i in 0..60 {
            let mine: std::collections::BTreeSet<usize> =
                m.iter().filter(|p| p.0 == i).map(|p| p.1).collect();
            assert_eq!(mine.len(), 6);
            assert!(!mine.contains(&i));
        }
        assert_eq!(
            meetings(10, Subset::Fraction(0.01), 1).len(),
            10,
            "at least one opponent"
        );
    }

    #[test]
    fn deterministic_play_gives_the_counted_fitness() {
        // Det against Det is deterministic: two identical tables play the same two games with
        // colours swapped, so the pair's points split by who won as first player. Compute the
        // expected scores by playing the two games directly.
        let start = Othello::from_stage_id("small6");
        let corner = |w: f64| {
            (0..6)
                .map(|r| {
                    (0..6)
                        .map(|c| {
                            if (r == 0 || r == 5) && (c == 0 || c == 5) {
                                w
                            } else {
                                1.0 + (r * 6 + c) as f64
                            }
                        })
                        .collect()
                })
                .collect::<Vec<Vec<f64>>>()
        };
        let tables = vec![corner(100.0), corner(1.0), corner(50.0)];
        let eval = Evaluation {
            strategy: Strategy::Det,
            subset: Subset::Full(FullTag::Full),
            draw: DrawRule::Half,
            measure: FitnessMeasure::Points,
        };
        let scores = evaluate(&start, &tables, &eval, 3).unwrap();
        // Every individual plays 2 games against each of the 2 others.
        assert!(scores.iter().all(|s| s.games == 4));
        // The points add up to the games played: 3 meetings x 2 games.
        assert!((scores.iter().map(|s| s.points).sum::<f64>() - 6.0).abs() < 1e-9);
        // Replay each game with the table players to get the expected points.
        let mut expected = [0.0f64; 3];
        for (i, j) in meetings(3, Subset::Full(FullTag::Full), 0) {
            for (a, b) in [(i, j), (j, i)] {
                let row = play_game(
                    &start,
                    ("a", &spec_for(Strategy::Det, 0, &tables[a])),
                    ("b", &spec_for(Strategy::Det, 0, &tables[b])),
                    0,
                    0,
                    "",
                )
                .unwrap();
                match row.winner {
                    "first" => expected[a] += 1.0,
                    "second" => expected[b] += 1.0,
                    _ => {
                        expected[a] += 0.5;
                        expected[b] += 0.5;
                    }
                }
            }
        }
        for k in 0..3 {
            assert_eq!(scores[k].points, expected[k], "individual {k}");
        }
        // The same evaluation is the same on any thread count.
        let one = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .unwrap()
            .install(|| evaluate(&start, &tables, &eval, 3).unwrap());
        assert_eq!(one, scores);
    }

    #[test]
    fn the_literal_draw_rule_gives_draws_to_the_second_player() {
        // The same games (same seed) scored both ways: draws split half and half, or go whole
        // to the second player; totals are the games played either way.
        let start = Othello::from_stage_id("small6");
        let tables: Vec<Vec<Vec<f64>>> = (0..8).map(|k| vec![vec![1.0 + k as f64; 6]; 6]).collect();
        let eval = |draw| Evaluation {
            strategy: Strategy::Rnd,
            subset: Subset::Full(FullTag::Full),
            draw,
            measure: FitnessMeasure::Points,
        };
        let half = evaluate(&start, &tables, &eval(DrawRule::Half), 11).unwrap();
        let second = evaluate(&start, &tables, &eval(DrawRule::Second), 11).unwrap();
        assert!(
            half.iter().any(|s| s.points.fract() != 0.0),
            "the seed must give a draw for this test to bite"
        );
        assert!(second.iter().all(|s| s.points.fract() == 0.0));
        let total = |v: &[Score]| v.iter().map(|s| s.points).sum::<f64>();
        assert!((total(&half) - 56.0).abs() < 1e-9 && (total(&second) - 56.0).abs() < 1e-9);
        assert_ne!(half, second);
    }
}
