//! SimpleMCTS, the flat Monte Carlo agent of the Othello report (its Algorithm 1).
//!
//! The move's budget is split evenly over the legal moves; after each move, rollouts are played
//! to the end with the rollout policy, and the move with the best win rate is chosen (a draw is
//! not a win, as in the report's pseudo-code; ties go to the earlier move in legal-move order,
//! which is row-major in Othello). With an iteration budget of N rollouts and k legal moves each
//! move gets max(1, floor(N / k)) rollouts; with a time budget T each gets T / k of wall time
//! (and at least one rollout). A position with one legal move is answered at once.

use super::rollout::{RolloutPolicy, playout};
use super::{Agent, Budget, Effort};
use crate::game::{Game, Outcome};
use crate::rng::GameRng;
use std::time::Instant;

pub struct SimpleMcts<P> {
    policy: P,
    effort: Effort,
}

impl<P> SimpleMcts<P> {
    pub fn new(policy: P) -> SimpleMcts<P> {
        SimpleMcts {
            policy,
            effort: Effort::default(),
        }
    }
}

impl<G: Game, P: RolloutPolicy<G>> Agent<G> for SimpleMcts<P> {
    fn choose(&mut self, game: &G, rng: &mut GameRng, budget: Budget) -> G::Move {
        let mut moves = Vec::new();
        game.legal_moves(&mut moves);
        if moves.len() == 1 {
            return moves[0];
        }
        let me = game.to_move();
        let k = moves.len() as u64;
        let mut buf = Vec::new();
        let mut best = moves[0];
        let mut best_rate = f64::NEG_INFINITY;
        for &mv in &moves {
            let mut after = game.clone();
            after.play(mv);
            let (mut wins, mut games) = (0u64, 0u64);
            let mut rollout = |rng: &mut GameRng| {
                let mut g = after.clone();
                if playout(&mut g, &self.policy, rng, &mut buf) == Outcome::Win(me) {
                    wins += 1;
                }
                games += 1;
            };
            match budget {
                Budget::Iterations(n) => {
                    for _ in 0..(n / k).max(1) {
                        rollout(rng);
                    }
                }
                Budget::Time(t) => {
                    let per_move = t / k as u32;
                    let start = Instant::now();
                    loop {
                        rollout(rng);
                        if start.elapsed() >= per_move {
                            break;
                        }
                    }
                }
                Budget::None => rollout(rng),
            }
            self.effort.simulations += games;
            let rate = wins as f64 / games as f64;
            if rate > best_rate {
                best = mv;
                best_rate = rate;
            }
        }
        best
    }

    fn effort(&self) -> Effort {
        self.effort
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agent::rollout::Uniform;
    use crate::game::othello::Othello;
    use crate::rng::rng_from_seed;
    use std::time::Duration;

    #[test]
    fn a_time_budget_plays_rollouts_until_the_time_is_spent() {
        let start = Othello::from_stage_id("standard8");
        let mut agent = SimpleMcts::new(Uniform);
        let t0 = Instant::now();
        let mv = agent.choose(
            &start,
            &mut rng_from_seed(1),
            Budget::Time(Duration::from_millis(40)),
        );
        assert!(t0.elapsed() >= Duration::from_millis(40));
        let mut legal = Vec::new();
        start.legal_moves(&mut legal);
        assert!(legal.contains(&mv));
        // At least one rollout per move.
        assert!(Agent::<Othello>::effort(&agent).simulations >= 4);
    }
}
