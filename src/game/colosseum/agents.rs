//! The Colosseum agents: the course's random agent (also a rollout policy), the heuristic
//! agent of the popcoin report (its section 2.1), popcoin's node heuristic, and the game's
//! `Arena` impl that builds every agent kind it supports. Popcoin, plain UCT and seed 004's
//! annealed UCT are configurations of the one UCT in `agent/uct.rs`.
//!
//! Features (all for the player who has just moved, `me`, against the adversary):
//! - adversary moves: the adversary's number of legal moves (cells in reach x free sides);
//!   normalised by its maximum for the board's K, 4 (2K^2 + 2K + 1): four sides of every cell
//!   of a diamond of radius K;
//! - distance to the adversary: Manhattan distance; normalised by 2 (M - 1);
//! - distance to the centre: Manhattan distance to ((M - 1) / 2, (M - 1) / 2).
//!
//! The report gives no formula or weights for these; the weights are spec parameters, with
//! defaults of ours.

use super::{Colosseum, Move, cell};
use crate::agent::rollout::{RolloutPolicy, Uniform};
use crate::agent::uct::{NodeHeuristic, Uct};
use crate::agent::{Agent, AgentSpec, Arena, Budget, RolloutName, random};
use crate::game::{Game, Outcome, Player};
use crate::rng::{GameRng, below};

/// The course's random agent (random_agent.py), exactly as the rules page describes it.
#[derive(Clone, Copy, Debug, Default)]
pub struct CourseRandom;

/// Redraws allowed for one step before the walk gives up and returns to its start.
const MAX_REDRAWS: u32 = 300;

impl CourseRandom {
    pub fn pick_move(game: &Colosseum, rng: &mut GameRng) -> Move {
        let me = game.to_move();
        let start = game.position_of(me);
        let adv = game.position_of(me.other());
        let (mut r, mut c) = start;
        let steps = below(rng, game.max_step() + 1);
        'walk: for _ in 0..steps {
            let mut redraws = 0;
            loop {
                let side = below(rng, 4) as u8;
                if !game.has_wall(r, c, side) {
                    let next = super::across((r, c), side);
                    if next != adv {
                        (r, c) = next;
                        break;
                    }
                }
                redraws += 1;
                if redraws > MAX_REDRAWS {
                    (r, c) = start;
                    break 'walk;
                }
            }
        }
        let side = loop {
            let side = below(rng, 4) as u8;
            if !game.has_wall(r, c, side) {
                break side;
            }
        };
        Move::new(cell(r, c), side)
    }
}

impl RolloutPolicy<Colosseum> for CourseRandom {
    #[inline]
    fn pick(&self, game: &Colosseum, rng: &mut GameRng, _: &mut Vec<Move>) -> Option<Move> {
        game.outcome()
            .is_none()
            .then(|| CourseRandom::pick_move(game, rng))
    }
}

fn manhattan(a: (usize, usize), b: (usize, usize)) -> f64 {
    (a.0.abs_diff(b.0) + a.1.abs_diff(b.1)) as f64
}

/// The features of `after` for `me`, the player who just moved: (adversary moves, distance to
/// the adversary, distance to the centre), each raw.
pub fn features(after: &Colosseum, me: Player) -> (f64, f64, f64) {
    let m = after.size() as f64;
    let mine = after.position_of(me);
    let adv = after.position_of(me.other());
    let centre = (m - 1.0) / 2.0;
    let to_centre = (mine.0 as f64 - centre).abs() + (mine.1 as f64 - centre).abs();
    (
        after.move_count(me.other()) as f64,
        manhattan(mine, adv),
        to_centre,
    )
}

/// The most moves a player can have with max_step K.
pub fn max_moves(k: usize) -> f64 {
    4.0 * (2 * k * k + 2 * k + 1) as f64
}

/// Popcoin's node heuristic: the weighted mean of 1 - normalised adversary moves and
/// 1 - normalised distance to the adversary (both are minimised), in [0, 1].
#[derive(Clone, Copy, Debug)]
pub struct PopcoinHeuristic {
    pub adv_moves: f64,
    pub adv_distance: f64,
}

impl NodeHeuristic<Colosseum> for PopcoinHeuristic {
    fn value(&self, _: &Colosseum, _: Move, after: &Colosseum, mover: Player) -> f64 {
        let total = self.adv_moves + self.adv_distance;
        if total == 0.0 {
            return 0.0;
        }
        let (moves, dist, _) = features(after, mover);
        let nm = (moves / max_moves(after.max_step())).min(1.0);
        let nd = dist / (2.0 * (after.size() as f64 - 1.0)).max(1.0);
        (self.adv_moves * (1.0 - nm) + self.adv_distance * (1.0 - nd)) / total
    }
}

/// Seed 003's heuristic agent: takes an immediate win, avoids an immediate loss (a tie only
/// when nothing else is left), and otherwise plays the move minimising
/// adv_moves x moves + adv_distance x distance + center(t) x distance to the centre, where
/// center(t) fades linearly from `center` to 0 over `center_fade` plies. Ties go to the first
/// move in legal-move order (row-major cell, then side u r d l).
#[derive(Clone, Debug)]
pub struct HeuristicAgent {
    pub adv_moves: f64,
    pub adv_distance: f64,
    pub center: f64,
    pub center_fade: u32,
    plies: u32,
}

impl HeuristicAgent {
    pub fn new(adv_moves: f64, adv_distance: f64, center: f64, center_fade: u32) -> HeuristicAgent {
        HeuristicAgent {
            adv_moves,
            adv_distance,
            center,
            center_fade,
            plies: 0,
        }
    }

    fn center_weight(&self) -> f64 {
        if self.center_fade == 0 {
            return 0.0;
        }
        self.center * (1.0 - self.plies as f64 / self.center_fade as f64).max(0.0)
    }
}

impl Agent<Colosseum> for HeuristicAgent {
    fn choose(&mut self, game: &Colosseum, _: &mut GameRng, _: Budget) -> Move {
        let me = game.to_move();
        let mut moves = Vec::new();
        game.legal_moves(&mut moves);
        let wc = self.center_weight();
        // (rank, score): rank 0 = going on, 1 = a tie, 2 = a loss; lower is better.
        let mut best: Option<(u8, f64, Move)> = None;
        for &mv in &moves {
            let mut after = game.clone();
            after.play(mv);
            let (rank, score) = match after.outcome() {
                Some(Outcome::Win(w)) if w == me => return mv,
                Some(Outcome::Win(_)) => (2, 0.0),
                Some(Outcome::Draw) => (1, 0.0),
                None => {
                    let (m, d, c) = features(&after, me);
                    (0, self.adv_moves * m + self.adv_distance * d + wc * c)
                }
            };
            if best.is_none_or(|(br, bs, _)| (rank, score) < (br, bs)) {
                best = Some((rank, score, mv));
            }
        }
        best.expect("a position to move in has moves").2
    }

    fn observe(&mut self, _: Move) {
        self.plies += 1;
    }
}

impl crate::agent::external::Protocol for Colosseum {
    const NAME: &'static str = "colosseum";
    fn position_text(&self) -> String {
        super::text::to_text(self)
    }
}

impl Arena for Colosseum {
    fn build_agent(
        spec: &AgentSpec,
        _start: &Colosseum,
    ) -> Result<Box<dyn Agent<Colosseum>>, String> {
        crate::agent::refuse_other_kinds("colosseum", spec)?;
        let rollout = spec.rollout_name();
        Ok(match spec {
            AgentSpec::Random {} => Box::new(random::RandomAgent),
            AgentSpec::CourseRandom {} => Box::new(random::PolicyAgent(CourseRandom)),
            AgentSpec::External(e) => {
                Box::new(crate::agent::external::ExternalAgent::new(e, _start))
            }
            AgentSpec::Heuristic {
                adv_moves,
                adv_distance,
                center,
                center_fade,
            } => Box::new(HeuristicAgent::new(
                *adv_moves,
                *adv_distance,
                *center,
                *center_fade,
            )),
            AgentSpec::Uct { table: Some(_), .. } => {
                return Err("weight tables are for Othello; Colosseum UCT takes `rollout`".into());
            }
            AgentSpec::Uct { .. } | AgentSpec::AnnealedUct { .. } => {
                let cfg = spec.uct_config().expect("tree search");
                match rollout {
                    None | Some(RolloutName::CourseRandom) => Box::new(Uct::new(cfg, CourseRandom)),
                    Some(RolloutName::Uniform) => Box::new(Uct::new(cfg, Uniform)),
                }
            }
            AgentSpec::Popcoin {
                adv_moves,
                adv_distance,
                ..
            } => {
                let cfg = spec.uct_config().expect("popcoin is a tree search");
                Box::new(Uct::with_heuristic(
                    cfg,
                    CourseRandom,
                    PopcoinHeuristic {
                        adv_moves: *adv_moves,
                        adv_distance: *adv_distance,
                    },
                ))
            }
            other => {
                return Err(format!(
                    "agent kind '{}' is not available for Colosseum",
                    other.kind_name()
                ));
            }
        })
    }
}
