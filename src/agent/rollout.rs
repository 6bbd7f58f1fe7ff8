//! Rollout (simulation) policies: how a playout picks moves until the game ends.
//!
//! Policies are generic parameters of the searching agents, so a playout is monomorphised for
//! its game and policy: no dynamic dispatch and no allocation per move (the caller lends a
//! buffer).

use super::WeightTable;
use crate::game::{CellGame, Game, Outcome};
use crate::rng::{GameRng, below, unit_f64};

pub trait RolloutPolicy<G: Game>: Send + Sync + Clone + 'static {
    /// A move for the side to move, or `None` when the game is over.
    fn pick(&self, game: &G, rng: &mut GameRng, buf: &mut Vec<G::Move>) -> Option<G::Move>;
}

/// Uniformly random moves (the game's own fast `random_move`).
#[derive(Clone, Copy, Debug, Default)]
pub struct Uniform;

impl<G: Game> RolloutPolicy<G> for Uniform {
    #[inline]
    fn pick(&self, game: &G, rng: &mut GameRng, buf: &mut Vec<G::Move>) -> Option<G::Move> {
        game.random_move(rng, buf)
    }
}

/// Random moves with probability proportional to their cell's weight (the Othello report's
/// weighted-random rollouts). A pass, or a position whose moves all weigh 0, is uniform.
#[derive(Clone, Debug)]
pub struct Weighted {
    table: WeightTable,
}

impl Weighted {
    pub fn new(table: WeightTable) -> Result<Weighted, String> {
        if table.values.iter().any(|&v| v < 0.0 || !v.is_finite()) {
            return Err("weighted-random selection needs finite weights >= 0 (the table has a negative or non-finite value)".into());
        }
        if table.values.iter().all(|&v| v == 0.0) {
            return Err("weighted-random selection needs a positive weight somewhere (every weight of the table is 0)".into());
        }
        Ok(Weighted { table })
    }
}

impl<G: CellGame> RolloutPolicy<G> for Weighted {
    #[inline]
    fn pick(&self, game: &G, rng: &mut GameRng, buf: &mut Vec<G::Move>) -> Option<G::Move> {
        buf.clear();
        game.legal_moves(buf);
        match buf.len() {
            0 => return None,
            1 => return Some(buf[0]),
            _ => {}
        }
        let weight = |m: G::Move| game.move_cell(m).map_or(1.0, |(r, c)| self.table.get(r, c));
        let total: f64 = buf.iter().map(|&m| weight(m)).sum();
        if total <= 0.0 {
            return Some(buf[below(rng, buf.len())]);
        }
        let mut x = unit_f64(rng) * total;
        for &m in buf.iter() {
            x -= weight(m);
            if x < 0.0 {
                return Some(m);
            }
        }
        buf.last().copied()
    }
}

/// Plays `game` to the end with `policy` and returns how it ended. On x86-64 CPUs with AVX2 and
/// friends (`cpu::x86_v3`) the loop, with the game's and the policy's inlined move code, runs as
/// a copy compiled for those instructions (hardware popcount, BMI2, wider vectors); elsewhere as
/// the baseline copy. Both copies draw the same numbers and play the same moves.
#[inline]
pub fn playout<G: Game, P: RolloutPolicy<G>>(
    game: &mut G,
    policy: &P,
    rng: &mut GameRng,
    buf: &mut Vec<G::Move>,
) -> Outcome {
    #[cfg(target_arch = "x86_64")]
    if crate::cpu::x86_v3() {
        // SAFETY: the features playout_x86_v3 is compiled for were detected just above.
        return unsafe { playout_x86_v3(game, policy, rng, buf) };
    }
    playout_portable(game, policy, rng, buf)
}

/// The playout loop as the baseline target compiles it (what `playout` runs without x86-64-v3).
#[inline(always)]
pub fn playout_portable<G: Game, P: RolloutPolicy<G>>(
    game: &mut G,
    policy: &P,
    rng: &mut GameRng,
    buf: &mut Vec<G::Move>,
) -> Outcome {
    while let Some(mv) = policy.pick(game, rng, buf) {
        game.play(mv);
    }
    game.outcome().expect("a game with no legal move is over")
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,bmi1,bmi2,popcnt,lzcnt")]
fn playout_x86_v3<G: Game, P: RolloutPolicy<G>>(
    game: &mut G,
    policy: &P,
    rng: &mut GameRng,
    buf: &mut Vec<G::Move>,
) -> Outcome {
    playout_portable(game, policy, rng, buf)
}
