//! The hybrid of the Freckers report: one agent for the first `switch_ply` plies of the game,
//! another after (MCTS early, minimax late in the report). Game-generic: the two agents are
//! any specs, each with its own budget; both observe every move, so a tree-reusing early agent
//! stays in step until it hands over, and both are told the seat, the result and asked for
//! faults (an external agent in either place plays as it would alone).
//!
//! Each part's budgets are a [`BudgetPlan`] read at the hybrid's own move count from the game's
//! start: a part with a game clock (`game_time_s`) gets that move's share of it, so two parts
//! with `game_time_s = 180` share one 180 s clock across the switch, as the report's agent did
//! under the course's rule.

use super::{Agent, Budget, BudgetPlan, Effort};
use crate::game::Game;
use crate::rng::GameRng;

pub struct Hybrid<G: Game> {
    pub early: Box<dyn Agent<G>>,
    pub late: Box<dyn Agent<G>>,
    pub early_budget: BudgetPlan,
    pub late_budget: BudgetPlan,
    /// Plies of the game (both sides) played by the early agent's side before the switch.
    pub switch_ply: u32,
    ply: u32,
    /// The hybrid's own moves so far: the move index its parts' budget plans are read at.
    moves: u32,
}

impl<G: Game> Hybrid<G> {
    pub fn new(
        early: (Box<dyn Agent<G>>, BudgetPlan),
        late: (Box<dyn Agent<G>>, BudgetPlan),
        switch_ply: u32,
    ) -> Hybrid<G> {
        Hybrid {
            early: early.0,
            early_budget: early.1,
            late: late.0,
            late_budget: late.1,
            switch_ply,
            ply: 0,
            moves: 0,
        }
    }

    /// Whether the late agent plays now.
    pub fn switched(&self) -> bool {
        self.ply >= self.switch_ply
    }
}

impl<G: Game> Agent<G> for Hybrid<G> {
    fn choose(&mut self, g: &G, rng: &mut GameRng, _: Budget) -> G::Move {
        let k = self.moves;
        self.moves += 1;
        if self.switched() {
            self.late.choose(g, rng, self.late_budget.for_move(k))
        } else {
            self.early.choose(g, rng, self.early_budget.for_move(k))
        }
    }

    fn observe(&mut self, mv: G::Move) {
        self.ply += 1;
        self.early.observe(mv);
        self.late.observe(mv);
    }

    // Both agents are told the seat and the result, as when they play alone (an external
    // agent starts and ends its game there), and a fault of either ends the game.
    fn begin(&mut self, seat: crate::game::Player, seed: u64) {
        self.early.begin(seat, seed);
        self.late.begin(seat, crate::rng::derive_seed(seed, &[1]));
    }

    fn end(&mut self, result: f64) {
        self.early.end(result);
        self.late.end(result);
    }

    fn fault(&mut self) -> Option<super::external::Fault> {
        self.early.fault().or_else(|| self.late.fault())
    }

    fn replaced_faults(&self) -> Option<Vec<String>> {
        match (self.early.replaced_faults(), self.late.replaced_faults()) {
            (None, None) => None,
            (a, b) => Some(a.into_iter().chain(b).flatten().collect()),
        }
    }

    fn effort(&self) -> Effort {
        let (a, b) = (self.early.effort(), self.late.effort());
        Effort {
            simulations: a.simulations + b.simulations,
            nodes: a.nodes + b.nodes,
            peak_tree_bytes: a.peak_tree_bytes.max(b.peak_tree_bytes),
            last_tree_bytes: if self.switched() {
                b.last_tree_bytes
            } else {
                a.last_tree_bytes
            },
            depth_sum: a.depth_sum + b.depth_sum,
            searches: a.searches + b.searches,
            cache_hits: a.cache_hits + b.cache_hits,
            cache_lookups: a.cache_lookups + b.cache_lookups,
            // A hybrid with an external half: that half's clock (the early one's if both).
            clock: a.clock.or(b.clock),
            clock_used_us: a.clock_used_us + b.clock_used_us,
        }
    }
}
