//! Alpha-beta minimax (negamax form) with iterative deepening, written once for every game;
//! a game supplies the evaluation of a position (`Evaluator`).
//!
//! Depths 1, 2, ... up to `max_depth` are searched in turn; the budget (nodes, or wall time) is
//! checked at every node, and a depth cut short is thrown away: the move is the best of the
//! deepest complete search (depth 1 always completes). Move order is shuffled at every node
//! when `shuffle` is set (the Freckers report found a fixed order made its minimax rigid); the
//! previous iteration's best root move is searched first. Finished games score +-WIN (sooner
//! wins score higher) or 0 for a draw. Moves come from a `MoveSource` (optionally an LRU
//! cache, which the deepening's repeated upper tree hits).

use super::move_cache::MoveSource;
use super::{Agent, Budget, Effort};
use crate::game::{Game, Outcome, Player};
use crate::rng::{GameRng, below};
use std::time::Instant;

/// A static evaluation of a position from `p`'s point of view (larger is better for `p`),
/// well inside +-WIN.
pub trait Evaluator<G: Game>: Send + Sync + 'static {
    fn evaluate(&self, g: &G, p: Player) -> f64;
}

pub const WIN: f64 = 1e9;

/// The value of a finished game for the side to move at `ply`: a draw 0, a win WIN less the
/// ply (sooner wins score higher), a loss the negative.
pub fn terminal_value(o: Outcome, to_move: Player, ply: u32) -> f64 {
    match o {
        Outcome::Draw => 0.0,
        Outcome::Win(w) if w == to_move => WIN - ply as f64,
        Outcome::Win(_) => -(WIN - ply as f64),
    }
}

pub struct AlphaBeta<G: Game, E> {
    eval: E,
    max_depth: u32,
    shuffle: bool,
    moves: MoveSource<G>,
    effort: Effort,
    /// The deepest depth completed on the last move (for rows and tests).
    pub last_depth: u32,
}

struct Search<'a, G: Game> {
    budget: Budget,
    start: Instant,
    nodes: u64,
    rng: &'a mut GameRng,
    aborted: bool,
    moves: &'a mut MoveSource<G>,
}

impl<G: Game> Search<'_, G> {
    fn out_of_budget(&mut self) -> bool {
        if !self.aborted {
            self.aborted = match self.budget {
                Budget::Iterations(n) => self.nodes >= n,
                Budget::Time(t) => self.nodes % 256 == 0 && self.start.elapsed() >= t,
                Budget::None => false,
            };
        }
        self.aborted
    }
}

impl<G: Game, E: Evaluator<G>> AlphaBeta<G, E> {
    pub fn new(eval: E, max_depth: u32, shuffle: bool) -> AlphaBeta<G, E> {
        AlphaBeta {
            eval,
            max_depth: max_depth.max(1),
            shuffle,
            moves: MoveSource::direct(),
            effort: Effort::default(),
            last_depth: 0,
        }
    }

    /// The same search taking its moves from `moves` (an LRU cache, say).
    pub fn with_moves(self, moves: MoveSource<G>) -> AlphaBeta<G, E> {
        AlphaBeta { moves, ..self }
    }

    fn negamax(
        &self,
        g: &G,
        depth: u32,
        ply: u32,
        mut alpha: f64,
        beta: f64,
        s: &mut Search<G>,
    ) -> f64 {
        s.nodes += 1;
        if let Some(o) = g.outcome() {
            return terminal_value(o, g.to_move(), ply);
        }
        if depth == 0 {
            return self.eval.evaluate(g, g.to_move());
        }
        if s.out_of_budget() {
            return 0.0;
        }
        let mut moves = Vec::new();
        s.moves.legal_moves(g, &mut moves);
        if self.shuffle {
            shuffle(&mut moves, s.rng);
        }
        let mut best = f64::NEG_INFINITY;
        for mv in moves {
            let mut next = g.clone();
            next.play(mv);
            let v = -self.negamax(&next, depth - 1, ply + 1, -beta, -alpha, s);
            if s.aborted {
                return 0.0;
            }
            best = best.max(v);
            alpha = alpha.max(v);
            if alpha >= beta {
                break;
            }
        }
        best
    }
}

fn shuffle<T>(v: &mut [T], rng: &mut GameRng) {
    for i in (1..v.len()).rev() {
        v.swap(i, below(rng, i + 1));
    }
}

impl<G: Game, E: Evaluator<G>> Agent<G> for AlphaBeta<G, E> {
    fn choose(&mut self, g: &G, rng: &mut GameRng, budget: Budget) -> G::Move {
        let mut root = Vec::new();
        self.moves.legal_moves(g, &mut root);
        if root.len() == 1 {
            return root[0];
        }
        if self.shuffle {
            shuffle(&mut root, rng);
        }
        let mut moves = std::mem::take(&mut self.moves);
        let mut s = Search {
            budget,
            start: Instant::now(),
            nodes: 0,
            rng,
            aborted: false,
            moves: &mut moves,
        };
        let mut best = root[0];
        self.last_depth = 0;
        for depth in 1..=self.max_depth {
            let (mut alpha, beta) = (f64::NEG_INFINITY, f64::INFINITY);
            let mut depth_best = root[0];
            for &mv in &root {
                let mut next = g.clone();
                next.play(mv);
                let v = -self.negamax(&next, depth - 1, 1, -beta, -alpha, &mut s);
                if s.aborted && depth > 1 {
                    break;
                }
                if v > alpha {
                    alpha = v;
                    depth_best = mv;
                }
            }
            if s.aborted && depth > 1 {
                break;
            }
            best = depth_best;
            self.last_depth = depth;
            // The best move first at the next depth.
            let i = root.iter().position(|&m| m == best).expect("a root move");
            root[..=i].rotate_right(1);
            if alpha >= WIN - 1000.0 || s.aborted {
                break;
            }
        }
        self.effort.nodes += s.nodes;
        self.effort.depth_sum += self.last_depth as u64;
        self.effort.searches += 1;
        self.moves = moves;
        best
    }

    fn effort(&self) -> Effort {
        let (cache_hits, cache_lookups) = self.moves.counts();
        Effort {
            cache_hits,
            cache_lookups,
            ..self.effort
        }
    }
}
