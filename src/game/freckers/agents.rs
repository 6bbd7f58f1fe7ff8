//! Freckers heuristics and agents of the report's test ensemble: vertical gain, frog cohesion
//! and mobility growth (the features of its MCTS prior), the greedy and random-greedy players,
//! the epsilon-greedy rollout policy, and the game's `Arena` impl. The report's MCTS
//! (`freckers_mcts`) is a configuration of the one UCT in `agent/uct.rs`.

use super::{Action, Freckers};
use crate::agent::rollout::{RolloutPolicy, Uniform};
use crate::agent::alphabeta::{AlphaBeta, Evaluator};
use crate::agent::hybrid::Hybrid;
use crate::agent::uct::{NodeHeuristic, Uct};
use crate::agent::{Agent, AgentSpec, Arena, Budget, RolloutName, random};
use crate::game::{Game, Player};
use crate::rng::{GameRng, below, unit_f64};

/// Rows an action advances its frog toward the mover's goal row (0 for GROW and sideways moves).
pub fn vertical_gain(a: Action, mover: Player) -> i32 {
    match a.cells() {
        None => 0,
        Some((from, to)) => {
            let (rf, rt) = ((from / 8) as i32, (to / 8) as i32);
            if mover == Player::First { rt - rf } else { rf - rt }
        }
    }
}

/// How close together a side's frogs are: 1 - (row spread + column spread) / 14.
pub fn cohesion(g: &Freckers, p: Player) -> f64 {
    let f = g.frogs(p);
    let (mut rmin, mut rmax, mut cmin, mut cmax) = (7, 0, 7, 0);
    let mut bits = f;
    while bits != 0 {
        let i = bits.trailing_zeros();
        bits &= bits - 1;
        let (r, c) = (i / 8, i % 8);
        (rmin, rmax, cmin, cmax) = (rmin.min(r), rmax.max(r), cmin.min(c), cmax.max(c));
    }
    1.0 - ((rmax - rmin) + (cmax - cmin)) as f64 / 14.0
}

/// The mover's number of actions after the move over its number before, halved and capped at 1
/// (1 = the move doubled the mover's options).
pub fn mobility_growth(before: &Freckers, after: &Freckers, mover: Player) -> f64 {
    let (mut a, mut b) = (Vec::new(), Vec::new());
    before.actions_of(mover, &mut a);
    after.actions_of(mover, &mut b);
    (b.len() as f64 / a.len() as f64 / 2.0).min(1.0)
}

/// The report's prior bias: a weighted mean of the move's vertical gain (per 7 rows), the
/// mover's frog cohesion after it, and its mobility growth.
#[derive(Clone, Copy, Debug)]
pub struct FreckersPrior {
    pub gain: f64,
    pub cohesion: f64,
    pub mobility: f64,
}

impl NodeHeuristic<Freckers> for FreckersPrior {
    fn value(&self, before: &Freckers, mv: Action, after: &Freckers, mover: Player) -> f64 {
        let total = self.gain + self.cohesion + self.mobility;
        if total == 0.0 {
            return 0.0;
        }
        let gain = (vertical_gain(mv, mover).max(0) as f64 / 7.0).min(1.0);
        let mobility = if self.mobility != 0.0 { mobility_growth(before, after, mover) } else { 0.0 };
        (self.gain * gain + self.cohesion * cohesion(after, mover) + self.mobility * mobility) / total
    }
}

/// The action of greatest vertical gain; ties drawn at random (the report found a fixed order
/// cramped its players).
pub fn greedy_pick(g: &Freckers, rng: &mut GameRng, buf: &mut Vec<Action>) -> Option<Action> {
    buf.clear();
    g.legal_moves(buf);
    let me = g.to_move();
    let best = buf.iter().map(|&a| vertical_gain(a, me)).max()?;
    buf.retain(|&a| vertical_gain(a, me) == best);
    Some(buf[below(rng, buf.len())])
}

/// Rows each frog of `p` still has to go to its goal row, summed.
pub fn distance_to_goal(g: &Freckers, p: Player) -> i32 {
    let mut bits = g.frogs(p);
    let mut total = 0;
    while bits != 0 {
        let r = (bits.trailing_zeros() / 8) as i32;
        bits &= bits - 1;
        total += if p == Player::First { 7 - r } else { r };
    }
    total
}

/// The report's minimax evaluation: the distance difference (the opponent's rows to go minus
/// ours), plus an optional mobility difference (our actions minus theirs, per 10).
#[derive(Clone, Copy, Debug)]
pub struct DistanceEval {
    pub distance: f64,
    pub mobility: f64,
}

impl Evaluator<Freckers> for DistanceEval {
    fn evaluate(&self, g: &Freckers, p: Player) -> f64 {
        let mut v = self.distance * (distance_to_goal(g, p.other()) - distance_to_goal(g, p)) as f64;
        if self.mobility != 0.0 {
            let (mut a, mut b) = (Vec::new(), Vec::new());
            g.actions_of(p, &mut a);
            g.actions_of(p.other(), &mut b);
            v += self.mobility * (a.len() as f64 - b.len() as f64) / 10.0;
        }
        v
    }
}

/// The greedy player.
#[derive(Clone, Copy, Debug, Default)]
pub struct Greedy;

impl Agent<Freckers> for Greedy {
    fn choose(&mut self, g: &Freckers, rng: &mut GameRng, _: Budget) -> Action {
        greedy_pick(g, rng, &mut Vec::new()).expect("choose is called on unfinished games")
    }
}

/// The report's random greedy player: a random action with probability proportional to its
/// vertical gain (uniform when no action gains).
#[derive(Clone, Copy, Debug, Default)]
pub struct RandomGreedy;

impl RolloutPolicy<Freckers> for RandomGreedy {
    fn pick(&self, g: &Freckers, rng: &mut GameRng, buf: &mut Vec<Action>) -> Option<Action> {
        buf.clear();
        g.legal_moves(buf);
        if buf.is_empty() {
            return None;
        }
        let me = g.to_move();
        let total: i32 = buf.iter().map(|&a| vertical_gain(a, me).max(0)).sum();
        if total == 0 {
            return Some(buf[below(rng, buf.len())]);
        }
        let mut x = below(rng, total as usize) as i32;
        for &a in buf.iter() {
            x -= vertical_gain(a, me).max(0);
            if x < 0 {
                return Some(a);
            }
        }
        unreachable!("x < total")
    }
}

/// Rollouts: greedy with probability epsilon, else uniformly random (the report: 20% greedy).
#[derive(Clone, Copy, Debug)]
pub struct EpsilonGreedy {
    pub epsilon: f64,
}

impl RolloutPolicy<Freckers> for EpsilonGreedy {
    fn pick(&self, g: &Freckers, rng: &mut GameRng, buf: &mut Vec<Action>) -> Option<Action> {
        if unit_f64(rng) < self.epsilon { greedy_pick(g, rng, buf) } else { g.random_move(rng, buf) }
    }
}

impl Arena for Freckers {
    fn build_agent(spec: &AgentSpec, _start: &Freckers) -> Result<Box<dyn Agent<Freckers>>, String> {
        Ok(match spec {
            AgentSpec::Random => Box::new(random::RandomAgent),
            AgentSpec::Greedy => Box::new(Greedy),
            AgentSpec::RandomGreedy => Box::new(random::PolicyAgent(RandomGreedy)),
            AgentSpec::Uct { table: None, .. } | AgentSpec::AnnealedUct { .. } => match spec.rollout_name() {
                None | Some(RolloutName::Uniform) => Box::new(Uct::new(spec.uct_config().expect("tree search"), Uniform)),
                Some(RolloutName::CourseRandom) => return Err("rollout = \"course_random\" is a Colosseum policy".into()),
            },
            AgentSpec::FreckersMcts { epsilon, gain, cohesion, mobility, .. } => {
                if !(0.0..=1.0).contains(epsilon) {
                    return Err(format!("epsilon must be in [0, 1], got {epsilon}"));
                }
                let prior = FreckersPrior { gain: *gain, cohesion: *cohesion, mobility: *mobility };
                Box::new(Uct::with_heuristic(spec.uct_config().expect("tree search"), EpsilonGreedy { epsilon: *epsilon }, prior))
            }
            AgentSpec::Alphabeta { depth, shuffle, distance, mobility, .. } => {
                Box::new(AlphaBeta::new(DistanceEval { distance: *distance, mobility: *mobility }, *depth, *shuffle))
            }
            AgentSpec::Hybrid { switch_ply, early, late } => {
                let part = |s: &AgentSpec| -> Result<(Box<dyn Agent<Freckers>>, Budget), String> { Ok((Freckers::build_agent(s, _start)?, s.budget()?)) };
                Box::new(Hybrid::new(part(early).map_err(|e| format!("early: {e}"))?, part(late).map_err(|e| format!("late: {e}"))?, *switch_ply))
            }
            other => return Err(format!("agent kind '{}' is not available for Freckers", other.kind_name())),
        })
    }
}
