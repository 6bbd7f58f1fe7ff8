//! UCT: Monte Carlo tree search with the UCB1 selection rule, written once for every game.
//!
//! Each step is a policy chosen in the agent spec, so the reports' variants are configurations
//! of this one search (DESIGN.md, "One UCT, many policies"):
//! - exploration C: a constant; annealed, C = e^(1/depth) - 1 with the depth of the child being
//!   scored (root children have depth 1; depths are fixed when a node is made and kept when the
//!   tree is re-rooted, as a depth stored in the node would be); or a function of the number of
//!   moves of the node selected from (popcoin): C = c_min + (c_max - c_min) min(1, moves /
//!   moves_at_max);
//! - selection score: win_weight x mean + C sqrt(ln N / n), plus heuristic_weight x h, where h
//!   in [0, 1] is a game heuristic of the child's position for the player who moved into it
//!   (`NodeHeuristic`; popcoin's mix of adversary moves and distance);
//! - expansion: one untried move (drawn at random) per iteration, or all of a node's moves at
//!   once (seed 004's full expansion); every new child gets `rollouts_per_leaf` simulations;
//!   with progressive widening (seed 001) a node with N visits has at most ceil(k N^alpha)
//!   children, and selection descends into them until the limit grows;
//! - prior bias (seed 001): + prior_weight x h / ln(1 + n), fading as the child is visited;
//! - simulation: any rollout policy (uniform, a weight table, the Colosseum course's random
//!   walk);
//! - final move: most visits (robust child), best mean, or popcoin's mix alpha x mean +
//!   (1 - alpha) x h with alpha = a / (a + k), `a` the average visits of the root's children;
//!   with `root_checks` an immediately winning move is played at once and immediately losing
//!   moves are left out unless nothing else is legal (the popcoin report's final-move rule);
//! - between moves: a fresh tree, or the tree kept and re-rooted on every observed move when
//!   the move is in it (seeds 003 and 004); the root position is compared with the position to
//!   play, so a stale tree is never used.
//!
//! Values are from the point of view of the player who made the node's move (win 1, draw 0.5,
//! loss 0), so every node maximises for the side choosing it: the min/max nodes of seed 004.
//! The budget counts iterations (one selection and expansion), or simulations when
//! `count_simulations` is set (fair when settings differ in simulations per iteration), or wall
//! time; with full expansion the budget is checked after every child, as seed 004 checked its
//! clock inside expansion. Tree memory is counted as nodes x node size plus the capacity of
//! their move lists (not an allocator hook), and its peak is reported in `Effort`.

use super::move_cache::MoveSource;
use super::rollout::{RolloutPolicy, playout};
use super::{Agent, Budget, Effort};
use crate::game::{Game, Outcome, Player};
use crate::rng::{GameRng, below};
use serde::{Deserialize, Serialize};
use std::time::Instant;

/// How the exploration constant C is set.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Exploration {
    Constant(f64),
    /// C = e^(1/depth) - 1 (seed 004).
    Annealed,
    /// C grows linearly with the number of moves of the node selected from (popcoin).
    ByMoves {
        c_min: f64,
        c_max: f64,
        moves_at_max: f64,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Expansion {
    /// One untried move per iteration.
    #[default]
    One,
    /// All moves of the selected node at once.
    All,
}

/// The final-move rule.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum FinalRule {
    MostVisits,
    BestMean,
    /// alpha x mean + (1 - alpha) x h, alpha = avg / (avg + k) (popcoin).
    HeuristicMix {
        k: f64,
    },
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct UctConfig {
    pub exploration: Exploration,
    pub expansion: Expansion,
    pub rollouts_per_leaf: u32,
    pub final_move: FinalRule,
    pub root_checks: bool,
    pub reuse_tree: bool,
    pub win_weight: f64,
    pub heuristic_weight: f64,
    /// Weight of the prior bias h / ln(1 + n) in selection (seed 001's altered UCB1; ln(1 + n)
    /// rather than ln(n), which is 0 after one visit).
    pub prior_weight: f64,
    /// Progressive widening: a node with N visits may have at most ceil(k N^alpha) children;
    /// it gets a new one only while below that (seed 001). None: no limit.
    pub widening: Option<(f64, f64)>,
    pub count_simulations: bool,
}

impl UctConfig {
    /// Plain UCT: constant C, one child per iteration, fresh tree, robust child.
    pub fn plain(c: f64) -> UctConfig {
        UctConfig {
            exploration: Exploration::Constant(c),
            expansion: Expansion::One,
            rollouts_per_leaf: 1,
            final_move: FinalRule::MostVisits,
            root_checks: false,
            reuse_tree: false,
            win_weight: 1.0,
            heuristic_weight: 0.0,
            prior_weight: 0.0,
            widening: None,
            count_simulations: false,
        }
    }

    fn needs_heuristic(&self) -> bool {
        self.heuristic_weight != 0.0
            || self.prior_weight != 0.0
            || matches!(self.final_move, FinalRule::HeuristicMix { .. })
    }
}

/// A game heuristic in [0, 1] of the move `mv` from `before` to `after`, for the player who made
/// it.
pub trait NodeHeuristic<G: Game>: Send + Sync + 'static {
    fn value(&self, before: &G, mv: G::Move, after: &G, mover: Player) -> f64;
}

/// No heuristic (h = 0).
#[derive(Clone, Copy, Debug, Default)]
pub struct NoHeuristic;

impl<G: Game> NodeHeuristic<G> for NoHeuristic {
    fn value(&self, _: &G, _: G::Move, _: &G, _: Player) -> f64 {
        0.0
    }
}

struct Node<M> {
    mv: Option<M>,
    parent: u32,
    /// The player who made `mv` (whose point of view `value` takes).
    mover: Player,
    depth: u32,
    children: Vec<u32>,
    untried: Vec<M>,
    visits: f64,
    value: f64,
    h: f64,
}

const NONE: u32 = u32::MAX;

struct Tree<G: Game> {
    root_state: G,
    nodes: Vec<Node<G::Move>>,
}

impl<G: Game> Tree<G> {
    fn new(state: &G, moves: &mut MoveSource<G>) -> Tree<G> {
        let mut untried = Vec::new();
        moves.legal_moves(state, &mut untried);
        let root = Node {
            mv: None,
            parent: NONE,
            mover: state.to_move().other(),
            depth: 0,
            children: Vec::new(),
            untried,
            visits: 0.0,
            value: 0.0,
            h: 0.0,
        };
        Tree {
            root_state: state.clone(),
            nodes: vec![root],
        }
    }

    /// Keeps the subtree under the root's child `mv` (renumbered, depths kept), or returns None.
    fn reroot(mut self, mv: G::Move) -> Option<Tree<G>> {
        let child = *self.nodes[0]
            .children
            .iter()
            .find(|&&c| self.nodes[c as usize].mv == Some(mv))?;
        let mut old = std::mem::take(&mut self.nodes);
        let mut nodes = Vec::new();
        let mut queue = std::collections::VecDeque::from([(child, NONE)]);
        while let Some((i, parent)) = queue.pop_front() {
            let mut n = std::mem::replace(
                &mut old[i as usize],
                Node {
                    mv: None,
                    parent: NONE,
                    mover: Player::First,
                    depth: 0,
                    children: Vec::new(),
                    untried: Vec::new(),
                    visits: 0.0,
                    value: 0.0,
                    h: 0.0,
                },
            );
            let id = nodes.len() as u32;
            if parent != NONE {
                let p: &mut Node<G::Move> = &mut nodes[parent as usize];
                p.children.push(id);
            }
            for &c in &n.children {
                queue.push_back((c, id));
            }
            n.children.clear();
            n.parent = parent;
            nodes.push(n);
        }
        nodes[0].mv = None;
        let mut root_state = self.root_state;
        root_state.play(mv);
        Some(Tree { root_state, nodes })
    }

    fn bytes(&self) -> u64 {
        let node = std::mem::size_of::<Node<G::Move>>();
        let mv = std::mem::size_of::<G::Move>();
        self.nodes
            .iter()
            .map(|n| (node + n.children.capacity() * 4 + n.untried.capacity() * mv) as u64)
            .sum::<u64>()
            + (self.nodes.capacity() - self.nodes.len()) as u64 * node as u64
    }
}

pub struct Uct<G: Game, P, H = NoHeuristic> {
    cfg: UctConfig,
    policy: P,
    heuristic: H,
    effort: Effort,
    tree: Option<Tree<G>>,
    /// Where expansions get their moves (the game, or an LRU cache).
    moves: MoveSource<G>,
}

impl<G: Game, P: RolloutPolicy<G>> Uct<G, P, NoHeuristic> {
    pub fn new(cfg: UctConfig, policy: P) -> Self {
        Uct::with_heuristic(cfg, policy, NoHeuristic)
    }
}

impl<G: Game, P: RolloutPolicy<G>, H: NodeHeuristic<G>> Uct<G, P, H> {
    pub fn with_heuristic(cfg: UctConfig, policy: P, heuristic: H) -> Self {
        Uct {
            cfg,
            policy,
            heuristic,
            effort: Effort::default(),
            tree: None,
            moves: MoveSource::direct(),
        }
    }

    /// The same search taking its expansions' moves from `moves` (an LRU cache, say).
    pub fn with_moves(self, moves: MoveSource<G>) -> Self {
        Uct { moves, ..self }
    }

    /// Nodes in the kept tree (0 without one), for tests of tree reuse.
    pub fn kept_nodes(&self) -> usize {
        self.tree.as_ref().map_or(0, |t| t.nodes.len())
    }

    /// Visits of the kept tree's root.
    pub fn kept_root_visits(&self) -> f64 {
        self.tree.as_ref().map_or(0.0, |t| t.nodes[0].visits)
    }

    /// The kept root's children: their moves and visits.
    pub fn kept_children(&self) -> Vec<(G::Move, f64)> {
        self.tree.as_ref().map_or(Vec::new(), |t| {
            t.nodes[0]
                .children
                .iter()
                .map(|&c| {
                    (
                        t.nodes[c as usize].mv.expect("children have moves"),
                        t.nodes[c as usize].visits,
                    )
                })
                .collect()
        })
    }

    fn exploration(&self, nodes: &[Node<G::Move>], parent: usize, child: usize) -> f64 {
        match self.cfg.exploration {
            Exploration::Constant(c) => c,
            Exploration::Annealed => (1.0 / nodes[child].depth as f64).exp() - 1.0,
            Exploration::ByMoves {
                c_min,
                c_max,
                moves_at_max,
            } => {
                let p = &nodes[parent];
                let moves = (p.children.len() + p.untried.len()) as f64;
                c_min + (c_max - c_min) * (moves / moves_at_max).min(1.0)
            }
        }
    }

    fn select(&self, nodes: &[Node<G::Move>], node: usize) -> usize {
        let parent = &nodes[node];
        let ln_n = parent.visits.ln();
        let mut best = parent.children[0] as usize;
        let mut best_score = f64::NEG_INFINITY;
        for &ch in &parent.children {
            let ch = ch as usize;
            let n = &nodes[ch];
            let mut score = self.cfg.win_weight * n.value / n.visits
                + self.cfg.heuristic_weight * n.h
                + self.exploration(nodes, node, ch) * (ln_n / n.visits).sqrt();
            if self.cfg.prior_weight != 0.0 {
                score += self.cfg.prior_weight * n.h / (1.0 + n.visits).ln();
            }
            if score > best_score {
                best = ch;
                best_score = score;
            }
        }
        best
    }

    /// Adds the child reached by `mv` from `node` (whose position is `state`), plays its
    /// simulations and backs them up; returns the simulations played.
    fn grow(
        &mut self,
        tree: &mut Tree<G>,
        node: usize,
        state: &G,
        mv: G::Move,
        rng: &mut GameRng,
        buf: &mut Vec<G::Move>,
    ) -> u64 {
        let mover = state.to_move();
        let mut after = state.clone();
        after.play(mv);
        let mut untried = Vec::new();
        self.moves.legal_moves(&after, &mut untried);
        let h = if self.cfg.needs_heuristic() {
            self.heuristic.value(state, mv, &after, mover)
        } else {
            0.0
        };
        let depth = tree.nodes[node].depth + 1;
        tree.nodes.push(Node {
            mv: Some(mv),
            parent: node as u32,
            mover,
            depth,
            children: Vec::new(),
            untried,
            visits: 0.0,
            value: 0.0,
            h,
        });
        let child = tree.nodes.len() - 1;
        tree.nodes[node].children.push(child as u32);
        self.effort.nodes += 1;
        self.simulate_and_backup(tree, child, &after, rng, buf)
    }

    fn simulate_and_backup(
        &mut self,
        tree: &mut Tree<G>,
        node: usize,
        state: &G,
        rng: &mut GameRng,
        buf: &mut Vec<G::Move>,
    ) -> u64 {
        let n = self.cfg.rollouts_per_leaf.max(1);
        let mut results = [0.0f64; 2];
        for _ in 0..n {
            let outcome = match state.outcome() {
                Some(o) => o,
                None => playout(&mut state.clone(), &self.policy, rng, buf),
            };
            results[0] += outcome.value_for(Player::First);
            results[1] += outcome.value_for(Player::Second);
        }
        self.effort.simulations += n as u64;
        let mut i = node as u32;
        while i != NONE {
            let nd = &mut tree.nodes[i as usize];
            nd.visits += n as f64;
            nd.value += results[nd.mover.index()];
            i = nd.parent;
        }
        n as u64
    }

    /// The root moves after `root_checks`: Ok(winning move) to play at once, or the moves to
    /// search (losing ones removed unless all lose).
    fn checked_root_moves(&self, game: &G, moves: Vec<G::Move>) -> Result<G::Move, Vec<G::Move>> {
        let me = game.to_move();
        let mut keep = Vec::new();
        for &mv in &moves {
            let mut after = game.clone();
            after.play(mv);
            match after.outcome() {
                Some(Outcome::Win(w)) if w == me => return Ok(mv),
                Some(Outcome::Win(_)) => {}
                _ => keep.push(mv),
            }
        }
        Err(if keep.is_empty() { moves } else { keep })
    }
}

impl<G: Game + PartialEq, P: RolloutPolicy<G>, H: NodeHeuristic<G>> Agent<G> for Uct<G, P, H> {
    fn choose(&mut self, game: &G, rng: &mut GameRng, budget: Budget) -> G::Move {
        let mut tree = match self.tree.take() {
            Some(t) if self.cfg.reuse_tree && t.root_state == *game => t,
            _ => Tree::new(game, &mut self.moves),
        };
        if tree.nodes[0].children.is_empty() && tree.nodes[0].untried.len() == 1 {
            let mv = tree.nodes[0].untried[0];
            self.tree = self.cfg.reuse_tree.then_some(tree);
            return mv;
        }
        if self.cfg.root_checks {
            let mut all: Vec<G::Move> = tree.nodes[0]
                .children
                .iter()
                .filter_map(|&c| tree.nodes[c as usize].mv)
                .collect();
            all.extend_from_slice(&tree.nodes[0].untried);
            match self.checked_root_moves(game, all) {
                Ok(win) => {
                    self.tree = self.cfg.reuse_tree.then_some(tree);
                    return win;
                }
                Err(keep) => {
                    // Drop losing moves from the root (children and untried alike).
                    let nodes = &mut tree.nodes;
                    let kept_children: Vec<u32> = nodes[0]
                        .children
                        .iter()
                        .copied()
                        .filter(|&c| nodes[c as usize].mv.is_some_and(|m| keep.contains(&m)))
                        .collect();
                    nodes[0].children = kept_children;
                    nodes[0].untried.retain(|m| keep.contains(m));
                    if nodes[0].children.len() + nodes[0].untried.len() == 1 {
                        let mv = keep[0];
                        self.tree = self.cfg.reuse_tree.then_some(tree);
                        return mv;
                    }
                }
            }
        }
        let start = Instant::now();
        let mut buf = Vec::new();
        let (mut iterations, mut sims) = (0u64, 0u64);
        let count_sims = self.cfg.count_simulations;
        let spent = move |iterations: u64, sims: u64| if count_sims { sims } else { iterations };
        let done = |iterations: u64, sims: u64| match budget {
            Budget::Iterations(n) => spent(iterations, sims) >= n,
            Budget::Time(t) => iterations > 0 && start.elapsed() >= t,
            Budget::None => iterations > 0,
        };
        while !done(iterations, sims) {
            iterations += 1;
            // Selection.
            let mut state = tree.root_state.clone();
            let mut node = 0usize;
            // A node takes a new child while it has untried moves (and, with progressive
            // widening, fewer children than its visits allow).
            let widening = self.cfg.widening;
            let may_grow = |n: &Node<G::Move>| {
                !n.untried.is_empty()
                    && widening.is_none_or(|(k, alpha)| {
                        (n.children.len() as f64) < (k * n.visits.max(1.0).powf(alpha)).ceil()
                    })
            };
            while !may_grow(&tree.nodes[node]) && !tree.nodes[node].children.is_empty() {
                node = self.select(&tree.nodes, node);
                state.play(tree.nodes[node].mv.expect("non-root nodes have a move"));
            }
            // Expansion and simulation.
            if tree.nodes[node].untried.is_empty() {
                // A finished game: its result again.
                sims += self.simulate_and_backup(&mut tree, node, &state, rng, &mut buf);
                continue;
            }
            match self.cfg.expansion {
                Expansion::One => {
                    let i = below(rng, tree.nodes[node].untried.len());
                    let mv = tree.nodes[node].untried.swap_remove(i);
                    sims += self.grow(&mut tree, node, &state, mv, rng, &mut buf);
                }
                Expansion::All => {
                    while let Some(mv) = tree.nodes[node].untried.pop() {
                        sims += self.grow(&mut tree, node, &state, mv, rng, &mut buf);
                        if done(iterations, sims) {
                            break;
                        }
                    }
                }
            }
        }
        self.effort.last_tree_bytes = tree.bytes();
        self.effort.peak_tree_bytes = self.effort.peak_tree_bytes.max(self.effort.last_tree_bytes);
        let mv = self.final_move(&tree);
        self.tree = self.cfg.reuse_tree.then_some(tree);
        mv
    }

    fn observe(&mut self, mv: G::Move) {
        if let Some(t) = self.tree.take() {
            self.tree = t.reroot(mv);
        }
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

impl<G: Game, P: RolloutPolicy<G>, H: NodeHeuristic<G>> Uct<G, P, H> {
    fn final_move(&self, tree: &Tree<G>) -> G::Move {
        let nodes = &tree.nodes;
        let root = &nodes[0];
        if root.children.is_empty() {
            return root.untried[0];
        }
        let mean = |c: usize| nodes[c].value / nodes[c].visits;
        let key: Box<dyn Fn(usize) -> f64> = match self.cfg.final_move {
            FinalRule::MostVisits => Box::new(|c| nodes[c].visits),
            FinalRule::BestMean => Box::new(mean),
            FinalRule::HeuristicMix { k } => {
                let avg = root
                    .children
                    .iter()
                    .map(|&c| nodes[c as usize].visits)
                    .sum::<f64>()
                    / root.children.len() as f64;
                let alpha = avg / (avg + k);
                Box::new(move |c| alpha * mean(c) + (1.0 - alpha) * nodes[c].h)
            }
        };
        let mut best = root.children[0] as usize;
        for &ch in &root.children[1..] {
            if key(ch as usize) > key(best) {
                best = ch as usize;
            }
        }
        nodes[best].mv.expect("children have moves")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::colosseum::Colosseum;
    use crate::game::colosseum::agents::CourseRandom;
    use crate::rng::rng_from_seed;

    fn most_visited<M: Copy>(children: &[(M, f64)]) -> (M, f64) {
        *children
            .iter()
            .max_by(|a, b| a.1.total_cmp(&b.1))
            .expect("children")
    }

    #[test]
    fn tree_reuse_keeps_the_visited_subtree() {
        let mut rng = rng_from_seed(7);
        let mut game = Colosseum::random_setup(6, &mut rng).unwrap();
        let cfg = UctConfig {
            reuse_tree: true,
            ..UctConfig::plain(1.0)
        };
        let mut agent = Uct::new(cfg, CourseRandom);
        let mine = agent.choose(&game, &mut rng, Budget::Iterations(3000));
        let (_, v) = *agent
            .kept_children()
            .iter()
            .find(|(m, _)| *m == mine)
            .expect("the chosen move is a root child");
        game.play(mine);
        agent.observe(mine);
        assert_eq!(
            agent.kept_root_visits(),
            v,
            "re-rooted on our move, its statistics kept"
        );
        // The opponent answers with the reply the tree explored most.
        let (reply, w) = most_visited(&agent.kept_children());
        assert!(w >= 2.0, "the subtree was explored");
        let nodes_before = agent.kept_nodes();
        game.play(reply);
        agent.observe(reply);
        assert_eq!(agent.kept_root_visits(), w);
        assert!(agent.kept_nodes() > 1 && agent.kept_nodes() < nodes_before);
        // The next search starts from the kept statistics.
        agent.choose(&game, &mut rng, Budget::Iterations(100));
        assert_eq!(agent.kept_root_visits(), w + 100.0);
        // A move the tree never tried drops it.
        let mut moves = Vec::new();
        game.legal_moves(&mut moves);
        let tried: Vec<_> = agent.kept_children().iter().map(|c| c.0).collect();
        if let Some(&untried) = moves.iter().find(|m| !tried.contains(m)) {
            agent.observe(untried);
            assert_eq!(agent.kept_nodes(), 0);
        }
    }

    #[test]
    fn full_expansion_gives_every_child_its_simulations_and_counts_them() {
        let mut rng = rng_from_seed(3);
        let game = Colosseum::random_setup(6, &mut rng).unwrap();
        let mut moves = Vec::new();
        game.legal_moves(&mut moves);
        let cfg = UctConfig {
            expansion: Expansion::All,
            rollouts_per_leaf: 4,
            count_simulations: true,
            reuse_tree: true,
            ..UctConfig::plain(1.0)
        };
        let mut agent = Uct::new(cfg, CourseRandom);
        // A budget of exactly one full expansion of the root.
        agent.choose(&game, &mut rng, Budget::Iterations(4 * moves.len() as u64));
        let children = agent.kept_children();
        assert_eq!(children.len(), moves.len());
        assert!(children.iter().all(|c| c.1 == 4.0));
        assert_eq!(agent.effort().simulations, 4 * moves.len() as u64);
    }

    #[test]
    fn progressive_widening_caps_the_children_by_visits() {
        use crate::agent::rollout::Uniform;
        use crate::game::freckers::Freckers;
        let start = Freckers::new(false);
        let mut rng = rng_from_seed(5);
        let wide = UctConfig {
            reuse_tree: true,
            ..UctConfig::plain(1.0)
        };
        let mut agent = Uct::new(wide, Uniform);
        agent.choose(&start, &mut rng, Budget::Iterations(400));
        assert_eq!(
            agent.kept_children().len(),
            21,
            "without widening every move gets a child"
        );
        let narrow = UctConfig {
            widening: Some((0.5, 0.5)),
            ..wide
        };
        let mut agent = Uct::new(narrow, Uniform);
        agent.choose(&start, &mut rng, Budget::Iterations(400));
        let children = agent.kept_children();
        // 400 visits allow ceil(0.5 sqrt(400)) = 10 children.
        assert_eq!(children.len(), 10);
        assert_eq!(
            children.iter().map(|c| c.1).sum::<f64>(),
            400.0,
            "every iteration went through a root child"
        );
    }
}
