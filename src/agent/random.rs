//! Agents that do not search: uniform random, a rollout policy used as a player, and the
//! deterministic player over a weight table.

use super::rollout::RolloutPolicy;
use super::{Agent, Budget, WeightTable};
use crate::game::{CellGame, Game};
use crate::rng::GameRng;

/// Uniform over the legal moves.
pub struct RandomAgent;

impl<G: Game> Agent<G> for RandomAgent {
    fn choose(&mut self, game: &G, rng: &mut GameRng, _: Budget) -> G::Move {
        game.random_move(rng, &mut Vec::new())
            .expect("choose is called on unfinished games")
    }
}

/// A rollout policy as a player (the Othello report's weighted-random player).
pub struct PolicyAgent<P>(pub P);

impl<G: Game, P: RolloutPolicy<G>> Agent<G> for PolicyAgent<P> {
    fn choose(&mut self, game: &G, rng: &mut GameRng, _: Budget) -> G::Move {
        self.0
            .pick(game, rng, &mut Vec::new())
            .expect("choose is called on unfinished games")
    }
}

/// The move on the cell of highest weight; ties go to the first in row-major order.
pub struct TablePlayer {
    table: WeightTable,
}

impl TablePlayer {
    pub fn new(table: WeightTable) -> TablePlayer {
        TablePlayer { table }
    }
}

/// The legal move maximising `score`; ties to the first cell in row-major order (a pass, the
/// only move when it is legal, is returned as is).
pub fn best_by<G: CellGame>(game: &G, mut score: impl FnMut(G::Move) -> f64) -> G::Move {
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    let key = |m: G::Move| game.move_cell(m).unwrap_or((usize::MAX, usize::MAX));
    let mut best = moves[0];
    let mut best_score = score(best);
    for &m in &moves[1..] {
        let s = score(m);
        if s > best_score || (s == best_score && key(m) < key(best)) {
            best = m;
            best_score = s;
        }
    }
    best
}

impl<G: CellGame> Agent<G> for TablePlayer {
    fn choose(&mut self, game: &G, _: &mut GameRng, _: Budget) -> G::Move {
        best_by(game, |m| {
            game.move_cell(m).map_or(0.0, |(r, c)| self.table.get(r, c))
        })
    }
}
