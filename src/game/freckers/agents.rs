//! Freckers heuristics and agents of the report's test ensemble: vertical gain, frog cohesion
//! and mobility growth (the features of its MCTS prior), the greedy and random-greedy players,
//! the epsilon-greedy rollout policy, and the game's `Arena` impl. The report's MCTS
//! (`freckers_mcts`) is a configuration of the one UCT in `agent/uct.rs`.

use super::{Action, Freckers};
use crate::agent::alphabeta::{AlphaBeta, Evaluator};
use crate::agent::hybrid::Hybrid;
use crate::agent::move_cache::MoveSource;
use crate::agent::rollout::{RolloutPolicy, Uniform};
use crate::agent::uct::{NodeHeuristic, Uct};
use crate::agent::{Agent, AgentSpec, Arena, Budget, BudgetPlan, Generator, RolloutName, random};
use crate::game::{Game, Player};
use crate::rng::{GameRng, below, unit_f64};

/// Rows an action advances its frog toward the mover's goal row (0 for GROW and sideways moves).
pub fn vertical_gain(a: Action, mover: Player) -> i32 {
    match a.cells() {
        None => 0,
        Some((from, to)) => {
            let (rf, rt) = ((from / 8) as i32, (to / 8) as i32);
            if mover == Player::First {
                rt - rf
            } else {
                rf - rt
            }
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
        let mobility = if self.mobility != 0.0 {
            mobility_growth(before, after, mover)
        } else {
            0.0
        };
        (self.gain * gain + self.cohesion * cohesion(after, mover) + self.mobility * mobility)
            / total
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

/// The features of the minimax evaluation, each from the evaluating side's point of view (ours
/// minus the opponent's): `distance` (the opponent's rows to go minus ours, the report's final
/// evaluation), `home` (frogs in the goal row), `mobility` (actions, per 10), `jumps` (jump
/// actions available: "we may know that double jumps are important") and `cohesion`. The
/// weight vector over them is what the tuners change (`tune`).
pub const EVAL_FEATURES: [&str; 5] = ["distance", "home", "mobility", "jumps", "cohesion"];

/// The evaluation features of `g` for `p` (see `EVAL_FEATURES`); features whose `need` is false
/// are left at 0 (mobility and jumps generate both sides' actions).
pub fn eval_features(g: &Freckers, p: Player, need: [bool; 5]) -> [f64; 5] {
    let q = p.other();
    let mut f = [0.0; 5];
    if need[0] {
        f[0] = (distance_to_goal(g, q) - distance_to_goal(g, p)) as f64;
    }
    if need[1] {
        let s = g.scores();
        f[1] = (s[p.index()] - s[q.index()]) as f64;
    }
    if need[2] || need[3] {
        let (mut a, mut b) = (Vec::new(), Vec::new());
        g.actions_of(p, &mut a);
        g.actions_of(q, &mut b);
        f[2] = (a.len() as f64 - b.len() as f64) / 10.0;
        let jumps = |v: &[Action]| {
            v.iter()
                .filter(|a| {
                    a.cells().is_some_and(|(x, y)| {
                        (x / 8).abs_diff(y / 8) > 1 || (x % 8).abs_diff(y % 8) > 1
                    })
                })
                .count() as f64
        };
        f[3] = jumps(&a) - jumps(&b);
    }
    if need[4] {
        f[4] = cohesion(g, p) - cohesion(g, q);
    }
    f
}

/// The minimax evaluation: the weighted sum of `eval_features` (weights in `EVAL_FEATURES`
/// order; the report settled on distance alone).
#[derive(Clone, Copy, Debug)]
pub struct WeightedEval {
    pub weights: [f64; 5],
}

impl WeightedEval {
    /// Distance alone (weight `distance`) plus mobility (weight `mobility`).
    pub fn distance(distance: f64, mobility: f64) -> WeightedEval {
        WeightedEval {
            weights: [distance, 0.0, mobility, 0.0, 0.0],
        }
    }
}

impl Evaluator<Freckers> for WeightedEval {
    fn evaluate(&self, g: &Freckers, p: Player) -> f64 {
        let f = eval_features(g, p, self.weights.map(|w| w != 0.0));
        self.weights.iter().zip(f).map(|(w, x)| w * x).sum()
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

/// Random actions by the report's lazy generator (`Freckers::lazy_random_move`): cheaper than
/// the exact sampler and biased (total variation from uniform 0.08-0.26 on the test positions).
#[derive(Clone, Copy, Debug, Default)]
pub struct LazyRandom;

impl RolloutPolicy<Freckers> for LazyRandom {
    #[inline]
    fn pick(&self, g: &Freckers, rng: &mut GameRng, _: &mut Vec<Action>) -> Option<Action> {
        g.lazy_random_move(rng)
    }
}

/// Rollouts: greedy with probability epsilon, else random (the report: 20% greedy); the random
/// part exactly uniform, or by the lazy generator when `lazy`.
#[derive(Clone, Copy, Debug)]
pub struct EpsilonGreedy {
    pub epsilon: f64,
    pub lazy: bool,
}

impl RolloutPolicy<Freckers> for EpsilonGreedy {
    fn pick(&self, g: &Freckers, rng: &mut GameRng, buf: &mut Vec<Action>) -> Option<Action> {
        if unit_f64(rng) < self.epsilon {
            greedy_pick(g, rng, buf)
        } else if self.lazy {
            g.lazy_random_move(rng)
        } else {
            g.random_move(rng, buf)
        }
    }
}

impl crate::agent::external::Protocol for Freckers {
    const NAME: &'static str = "freckers";
    fn position_text(&self) -> String {
        super::text::to_text(self)
    }
}

impl Arena for Freckers {
    fn build_agent(
        spec: &AgentSpec,
        _start: &Freckers,
    ) -> Result<Box<dyn Agent<Freckers>>, String> {
        crate::agent::refuse_other_kinds("freckers", spec)?;
        Ok(match spec {
            AgentSpec::Random {} => Box::new(random::RandomAgent),
            AgentSpec::Greedy {} => Box::new(Greedy),
            AgentSpec::RandomGreedy {} => Box::new(random::PolicyAgent(RandomGreedy)),
            AgentSpec::External(e) => {
                Box::new(crate::agent::external::ExternalAgent::new(e, _start))
            }
            AgentSpec::Uct { table: None, .. } | AgentSpec::AnnealedUct { .. } => {
                match spec.rollout_name() {
                    None | Some(RolloutName::Uniform) => {
                        Box::new(Uct::new(spec.uct_config().expect("tree search"), Uniform))
                    }
                    Some(RolloutName::CourseRandom) => {
                        return Err("rollout = \"course_random\" is a Colosseum policy".into());
                    }
                }
            }
            AgentSpec::FreckersMcts {
                epsilon,
                gain,
                cohesion,
                mobility,
                generator,
                move_cache,
                ..
            } => {
                if !(0.0..=1.0).contains(epsilon) {
                    return Err(format!("epsilon must be in [0, 1], got {epsilon}"));
                }
                let prior = FreckersPrior {
                    gain: *gain,
                    cohesion: *cohesion,
                    mobility: *mobility,
                };
                let rollout = EpsilonGreedy {
                    epsilon: *epsilon,
                    lazy: *generator == Generator::Lazy,
                };
                Box::new(
                    Uct::with_heuristic(spec.uct_config().expect("tree search"), rollout, prior)
                        .with_moves(MoveSource::lru(*move_cache)),
                )
            }
            AgentSpec::Alphabeta {
                depth,
                shuffle,
                move_cache,
                ..
            } => {
                let eval = WeightedEval {
                    weights: spec.weights().expect("alpha-beta has weights"),
                };
                Box::new(
                    AlphaBeta::new(eval, *depth, *shuffle).with_moves(MoveSource::lru(*move_cache)),
                )
            }
            AgentSpec::Hybrid {
                switch_ply,
                early,
                late,
            } => {
                let part =
                    |s: &AgentSpec| -> Result<(Box<dyn Agent<Freckers>>, BudgetPlan), String> {
                        Ok((Freckers::build_agent(s, _start)?, s.budget_plan()?))
                    };
                Box::new(Hybrid::new(
                    part(early).map_err(|e| format!("early: {e}"))?,
                    part(late).map_err(|e| format!("late: {e}"))?,
                    *switch_ply,
                ))
            }
            other => {
                return Err(format!(
                    "agent kind '{}' is not available for Freckers",
                    other.kind_name()
                ));
            }
        })
    }
}
