//! UCT: Monte Carlo tree search with the UCB1 selection rule, written once for every game.
//!
//! Each step is a policy chosen in the agent spec, so the reports' variants are configurations
//! of this one search: today the exploration constant C, the rollout policy, rollouts per new
//! leaf and the final-move rule; later issues add the others listed in DESIGN.md (annealed C,
//! prior bias, full expansion, tree reuse) here rather than in a copy.
//!
//! Selection maximises mean + C sqrt(ln N / n) over children, where the mean is the value for
//! the player who made the child's move (win 1, draw 0.5, loss 0). Expansion adds one child per
//! iteration, drawn at random from the untried moves. The tree is built afresh for every move.

use super::rollout::{RolloutPolicy, playout};
use super::{Agent, Budget, Effort, FinalMove};
use crate::game::{Game, Player};
use crate::rng::{GameRng, below};
use std::time::Instant;

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct UctConfig {
    pub c: f64,
    pub rollouts_per_leaf: u32,
    pub final_move: FinalMove,
}

struct Node<M> {
    mv: Option<M>,
    parent: usize,
    /// The player who made `mv` (whose point of view `value` takes).
    mover: Player,
    children: Vec<usize>,
    untried: Vec<M>,
    visits: f64,
    value: f64,
}

pub struct Uct<P> {
    cfg: UctConfig,
    policy: P,
    effort: Effort,
}

impl<P> Uct<P> {
    pub fn new(cfg: UctConfig, policy: P) -> Uct<P> {
        Uct { cfg, policy, effort: Effort::default() }
    }
}

impl<P> Uct<P> {
    fn select<M>(&self, tree: &[Node<M>], node: usize) -> usize {
        let parent = &tree[node];
        let ln_n = parent.visits.ln();
        let mut best = parent.children[0];
        let mut best_score = f64::NEG_INFINITY;
        for &ch in &parent.children {
            let n = &tree[ch];
            let score = n.value / n.visits + self.cfg.c * (ln_n / n.visits).sqrt();
            if score > best_score {
                best = ch;
                best_score = score;
            }
        }
        best
    }
}

impl<G: Game, P: RolloutPolicy<G>> Agent<G> for Uct<P> {
    fn choose(&mut self, game: &G, rng: &mut GameRng, budget: Budget) -> G::Move {
        let mut root_moves = Vec::new();
        game.legal_moves(&mut root_moves);
        if root_moves.len() == 1 {
            return root_moves[0];
        }
        let mut tree: Vec<Node<G::Move>> = vec![Node {
            mv: None,
            parent: usize::MAX,
            mover: game.to_move().other(),
            children: Vec::new(),
            untried: root_moves,
            visits: 0.0,
            value: 0.0,
        }];
        let start = Instant::now();
        let mut buf = Vec::new();
        let mut iterations = 0u64;
        loop {
            match budget {
                Budget::Iterations(n) if iterations >= n => break,
                Budget::Time(t) if iterations > 0 && start.elapsed() >= t => break,
                Budget::None if iterations > 0 => break,
                _ => {}
            }
            iterations += 1;
            // Selection.
            let mut state = game.clone();
            let mut node = 0;
            while tree[node].untried.is_empty() && !tree[node].children.is_empty() {
                node = self.select(&tree, node);
                state.play(tree[node].mv.expect("non-root nodes have a move"));
            }
            // Expansion.
            if !tree[node].untried.is_empty() {
                let i = below(rng, tree[node].untried.len());
                let mv = tree[node].untried.swap_remove(i);
                let mover = state.to_move();
                state.play(mv);
                let mut untried = Vec::new();
                state.legal_moves(&mut untried);
                tree.push(Node { mv: Some(mv), parent: node, mover, children: Vec::new(), untried, visits: 0.0, value: 0.0 });
                let child = tree.len() - 1;
                tree[node].children.push(child);
                node = child;
                self.effort.nodes += 1;
            }
            // Simulation.
            let mut results = [0.0f64; 2];
            for _ in 0..self.cfg.rollouts_per_leaf {
                let outcome = playout(&mut state.clone(), &self.policy, rng, &mut buf);
                results[0] += outcome.value_for(Player::First);
                results[1] += outcome.value_for(Player::Second);
            }
            self.effort.simulations += self.cfg.rollouts_per_leaf as u64;
            // Backpropagation.
            let r = self.cfg.rollouts_per_leaf as f64;
            while node != usize::MAX {
                let n = &mut tree[node];
                n.visits += r;
                n.value += results[n.mover.index()];
                node = n.parent;
            }
        }
        let root = &tree[0];
        let key = |ch: usize| match self.cfg.final_move {
            FinalMove::MostVisits => tree[ch].visits,
            FinalMove::BestMean => tree[ch].value / tree[ch].visits,
        };
        let mut best = root.children[0];
        for &ch in &root.children[1..] {
            if key(ch) > key(best) {
                best = ch;
            }
        }
        tree[best].mv.expect("children have moves")
    }

    fn effort(&self) -> Effort {
        self.effort
    }
}
