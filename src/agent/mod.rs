//! Game-generic agents and the agent spec that experiment files use to name them.
//!
//! An agent chooses a move for the side to move. Agents are built from an `AgentSpec` (the
//! `kind` and its parameters in an experiment file); adding a kind means one enum arm here and
//! one module. Agents that only make sense for one game (the Othello arena's greedy, corners and
//! positional players) live in that game's folder and are built by its `Arena` impl.
//!
//! Budgets follow DESIGN.md: `choose` takes the `Budget` for this move; the match runner holds
//! each player's budget, taken from its spec. Iteration budgets are reproducible; time budgets
//! exist because the reports used them and rows record which kind was used.

pub mod flat_mc;
pub mod random;
pub mod rollout;
pub mod table;
pub mod uct;

use crate::game::{CellGame, Game};
use crate::rng::GameRng;
use serde::{Deserialize, Serialize};
use std::time::Duration;
pub use table::{TableRef, WeightTable};

/// How much an agent may search for one move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Budget {
    /// Rollouts (flat Monte Carlo) or iterations (UCT) per move.
    Iterations(u64),
    /// Wall time per move.
    Time(Duration),
    /// The agent does not search.
    None,
}

impl Budget {
    /// A short text for rows: "200 it", "50 ms" or "-".
    pub fn describe(&self) -> String {
        match self {
            Budget::Iterations(n) => format!("{n} it"),
            Budget::Time(d) => format!("{} ms", d.as_millis()),
            Budget::None => "-".into(),
        }
    }
}

/// The search effort an agent has spent since it was built.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Effort {
    /// Rollouts played to the end of the game.
    pub simulations: u64,
    /// Tree nodes created (0 for agents without a tree).
    pub nodes: u64,
}

/// A player of `G`.
pub trait Agent<G: Game>: Send {
    /// The move to play in `game` (which is not over).
    fn choose(&mut self, game: &G, rng: &mut GameRng, budget: Budget) -> G::Move;
    /// Told every move played in the game (its own and the opponent's), for agents that keep
    /// state across moves.
    fn observe(&mut self, _mv: G::Move) {}
    fn effort(&self) -> Effort {
        Effort::default()
    }
}

/// The final-move rule of UCT.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum FinalMove {
    /// Most visits (the robust child).
    #[default]
    MostVisits,
    /// Best mean value.
    BestMean,
}

fn default_c() -> f64 {
    std::f64::consts::SQRT_2
}
fn one() -> u32 {
    1
}

/// An agent as an experiment file names it: `kind` plus that kind's parameters.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum AgentSpec {
    /// Uniform over legal moves.
    Random,
    /// Othello arena: most discs flipped now; ties to the first move in row-major order.
    Greedy,
    /// Othello arena: first legal corner, else a random edge move, else greedy.
    Corners,
    /// Othello arena: best by the classic 8x8 table; greedy on other sizes.
    Positional,
    /// Random, each move weighted by its cell's value in `table`.
    WeightedRandom { table: TableRef },
    /// Deterministic: the move whose cell has the highest value in `table`; ties row-major.
    TablePlayer { table: TableRef },
    /// The Othello report's SimpleMCTS (Algorithm 1): the move's budget split evenly over the
    /// legal moves, rollouts after each, best win rate. Rollouts are uniform, or weighted by
    /// `table` when given.
    SimpleMcts {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        rollouts: Option<u64>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        time_ms: Option<u64>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        table: Option<TableRef>,
    },
    /// Upper Confidence bounds applied to Trees.
    Uct {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        iterations: Option<u64>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        time_ms: Option<u64>,
        /// Exploration constant C in mean + C sqrt(ln N / n).
        #[serde(default = "default_c")]
        c: f64,
        /// Rollouts played from each new leaf.
        #[serde(default = "one")]
        rollouts_per_leaf: u32,
        #[serde(default)]
        final_move: FinalMove,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        table: Option<TableRef>,
    },
}

/// Agent kinds with the parameters each takes, for `gamelab list`.
pub const AGENT_KINDS: [(&str, &str); 8] = [
    ("random", "uniform over legal moves"),
    ("greedy", "Othello arena: most discs flipped, ties row-major"),
    ("corners", "Othello arena: corner, else random edge, else greedy"),
    ("positional", "Othello arena: classic 8x8 table (greedy on other sizes)"),
    ("weighted_random", "table = NAME | [[rows]] | \"path\": random weighted by cell value"),
    ("table_player", "table = ...: best cell value, ties row-major"),
    ("simple_mcts", "rollouts = N | time_ms = T per move; table = ... for weighted rollouts"),
    ("uct", "iterations = N | time_ms = T; c = 1.414; rollouts_per_leaf = 1; final_move = most_visits|best_mean; table = ..."),
];

impl AgentSpec {
    pub fn kind_name(&self) -> &'static str {
        match self {
            AgentSpec::Random => "random",
            AgentSpec::Greedy => "greedy",
            AgentSpec::Corners => "corners",
            AgentSpec::Positional => "positional",
            AgentSpec::WeightedRandom { .. } => "weighted_random",
            AgentSpec::TablePlayer { .. } => "table_player",
            AgentSpec::SimpleMcts { .. } => "simple_mcts",
            AgentSpec::Uct { .. } => "uct",
        }
    }

    /// The per-move budget, checking that a searching agent has exactly one.
    pub fn budget(&self) -> Result<Budget, String> {
        let pick = |it: Option<u64>, time: Option<u64>, it_name: &str| match (it, time) {
            (Some(n), None) if n > 0 => Ok(Budget::Iterations(n)),
            (None, Some(t)) if t > 0 => Ok(Budget::Time(Duration::from_millis(t))),
            (Some(_), Some(_)) => Err(format!("give either {it_name} or time_ms, not both")),
            (None, None) => Err(format!("a budget is needed: {it_name} = N or time_ms = T")),
            _ => Err("the budget must be positive".to_string()),
        };
        match self {
            AgentSpec::SimpleMcts { rollouts, time_ms, .. } => pick(*rollouts, *time_ms, "rollouts"),
            AgentSpec::Uct { iterations, time_ms, .. } => pick(*iterations, *time_ms, "iterations"),
            _ => Ok(Budget::None),
        }
    }

    /// Replaces every table reference by its values, so the resolved spec (and the job hash)
    /// carries the table itself. Paths are relative to `base_dir`.
    pub fn resolve_tables(&mut self, base_dir: &std::path::Path) -> Result<(), String> {
        match self {
            AgentSpec::WeightedRandom { table } | AgentSpec::TablePlayer { table } => table.resolve(base_dir),
            AgentSpec::SimpleMcts { table: Some(t), .. } | AgentSpec::Uct { table: Some(t), .. } => t.resolve(base_dir),
            _ => Ok(()),
        }
    }
}

/// Builds the game-generic agent kinds; `Ok(None)` for kinds a game must build itself.
pub fn build_generic<G: CellGame>(spec: &AgentSpec, start: &G) -> Result<Option<Box<dyn Agent<G>>>, String> {
    use rollout::{Uniform, Weighted};
    let table = |t: &TableRef| t.table_for(start.board_size());
    Ok(Some(match spec {
        AgentSpec::Random => Box::new(random::RandomAgent),
        AgentSpec::WeightedRandom { table: t } => Box::new(random::PolicyAgent(Weighted::new(table(t)?)?)),
        AgentSpec::TablePlayer { table: t } => Box::new(random::TablePlayer::new(table(t)?)),
        AgentSpec::SimpleMcts { table: None, .. } => Box::new(flat_mc::SimpleMcts::new(Uniform)),
        AgentSpec::SimpleMcts { table: Some(t), .. } => Box::new(flat_mc::SimpleMcts::new(Weighted::new(table(t)?)?)),
        AgentSpec::Uct { c, rollouts_per_leaf, final_move, table: t, .. } => {
            let cfg = uct::UctConfig { c: *c, rollouts_per_leaf: *rollouts_per_leaf, final_move: *final_move };
            match t {
                None => Box::new(uct::Uct::new(cfg, Uniform)),
                Some(t) => Box::new(uct::Uct::new(cfg, Weighted::new(table(t)?)?)),
            }
        }
        AgentSpec::Greedy | AgentSpec::Corners | AgentSpec::Positional => return Ok(None),
    }))
}

/// A game that experiments can play: it knows how to build every agent kind it supports.
pub trait Arena: Game {
    /// Builds the agent `spec` for games starting at `start`.
    fn build_agent(spec: &AgentSpec, start: &Self) -> Result<Box<dyn Agent<Self>>, String>;
}
